/* lower_a2a3_reduce.c: pto-lower-a2a3's column reductions (pto-isa a2a3
 * TColReduceOps.hpp ColReduceInstr, TColMax/TColMin/TColProd/TColSum.hpp).
 *
 *   tcolmax tcolmin            dst = row 0 of src, then dst = OP(dst, row i)
 *   tcolsum tcolprod (ints)    for i = 1 .. valid rows - 1: vmax, vmin, vadd,
 *                              vmul dst, dst, src row i
 *
 * Row 0 reaches dst as in the library (copy_ubuf_to_ubuf of its whole
 * blocks), but the library's copy also writes the last block's bytes past the
 * valid columns; here that partial block is a vor of the row with itself on
 * the element's bits (counter mode, the tail as the count), so nothing past
 * the valid region is written, as on the cpu target. The rows then run in
 * counter mode with the valid columns as the count, one instruction per row;
 * the library splits a row into whole repeats (counter mode) and the rest
 * (norm mode, the continuous mask): the same lanes, the same operations.
 *
 * The order is the library's (ColReduceInstr; TColSum's sequential form),
 * where the cpu target follows A5's (acc = row 0, then acc OP (row 2k+1 OP
 * row 2k+2)): an A2/A3 quirk, which the C reference models in its A2/A3 mode
 * (ref_tcol_reduce_a2a3). Integers wrap and compare exactly, so any order
 * gives the same bits; float max and min differ only once a NaN is among the
 * rows (a > b ? a : b drops a NaN met as its first operand and keeps one met
 * as its second). Float sums and products stay: besides rounding in another
 * order, the host's vadd/vmul make x86's negative default NaN of inf - inf
 * (0 * inf), where the cpu target's reductions give the quiet NaN 0x7fc00000,
 * and an A2/A3 program that fixes that needs UB scratch for the compare bits
 * the op does not have (the A5 lowering's vcmp/vsel keeps them in registers).
 */
#include "passes/lower_a2a3.h"

typedef struct r_row { ptoc_pto_op_id op; ptoc_pto_vop_id vop; bool floats; } r_row;

static const r_row r_rows[] = {
    {PTOC_PTO_OP_TCOLMAX, PTOC_PTO_VOP_A2A3_VMAX, true},
    {PTOC_PTO_OP_TCOLMIN, PTOC_PTO_VOP_A2A3_VMIN, true},
    {PTOC_PTO_OP_TCOLSUM, PTOC_PTO_VOP_A2A3_VADD, false},
    {PTOC_PTO_OP_TCOLPROD, PTOC_PTO_VOP_A2A3_VMUL, false},
};

static const r_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof r_rows / sizeof r_rows[0]; i++)
        if (r_rows[i].op == opcode)
            return &r_rows[i];
    return NULL;
}

bool a2_reduce_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

/* dst's first `blocks` 32-byte blocks from src's row 0: one burst. */
static void copy_blocks(vop_builder *L, ptoc_value *dst, ptoc_value *src, ptoc_type *elem, ptoc_value *blocks)
{
    ptoc_type *i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS);
    ptoc_value *zero = vb_index(L, 0), *gap = vb_int(L, i64, 0);
    ptoc_value *ops[8] = {vb_tile_ptr(L, dst, elem), zero, vb_tile_ptr(L, src, elem), zero,
                          vb_int(L, i64, 1), vb_cast(L, "arith.index_cast", blocks, i64), gap, gap};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_COPY_UBUF_TO_UBUF, 8, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

/* The columns head .. head + tail of row 0: vor src, src on the element's bits. */
static void copy_tail(vop_builder *L, ptoc_value *dst, ptoc_value *src, ptoc_type *elem, ptoc_value *head,
                      ptoc_value *tail)
{
    ptoc_type *bits = elem;
    if (ptoc_type_is_float(elem))
        bits = ptoc_type_int(L->ctx, ptoc_type_bitwidth(elem), PTOC_SIGNLESS);
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VOR, bits);
    a2_ptr(&P, dst, bits, 0);
    a2_ptr(&P, src, bits, 0);
    a2_ptr(&P, src, bits, 0);
    a2_count_begin(&P, tail);
    ptoc_value *offs[3] = {head, head, head};
    a2_instr(&P, offs, a2_index(&P, 0), NULL);
    a2_count_end(&P);
}

/* Row 0 of src into dst's valid columns, nothing past them. */
static void first_row(vop_builder *L, ptoc_value *dst, ptoc_value *src, ptoc_type *elem, ptoc_value *vcols)
{
    int64_t B = 32 / (int64_t)ptoc_pto_elem_bytes(elem);
    ptoc_value *blocks = vb_arith(L, "arith.divui", vcols, vb_index(L, B));
    ptoc_value *head = vb_arith(L, "arith.muli", blocks, vb_index(L, B));
    ptoc_value *tail = vb_arith(L, "arith.subi", vcols, head);
    vb_if f;
    vb_if_begin(L, &f, vb_cmpi(L, VB_CMP_UGT, blocks, vb_index(L, 0)));
    copy_blocks(L, dst, src, elem, blocks);
    vb_if_end(L, &f);
    vb_if_begin(L, &f, vb_cmpi(L, VB_CMP_UGT, tail, vb_index(L, 0)));
    copy_tail(L, dst, src, elem, head, tail);
    vb_if_end(L, &f);
}

/* dst = OP(dst, src row i) for rows 1 .. vrows - 1, vcols as the count. */
static void fold_rows(vop_builder *L, const r_row *row, ptoc_value *dst, ptoc_value *src, ptoc_type *elem,
                      ptoc_value *vrows, ptoc_value *vcols)
{
    a2_prog P;
    a2_prog_init(&P, L, row->vop, elem);
    a2_ptr(&P, dst, elem, 0);
    a2_ptr(&P, dst, elem, 0);
    a2_ptr(&P, src, elem, ptoc_pto_tile_buf(src->type)->cols);
    a2_count_begin(&P, vcols);
    vb_loop l;
    ptoc_value *r = vb_loop_begin(L, &l, a2_index(&P, 1), vrows, a2_index(&P, 1));
    ptoc_value *offs[3];
    a2_row_offsets(&P, r, NULL, offs);
    a2_instr(&P, offs, a2_index(&P, 0), NULL);
    vb_loop_end(L, &l);
    a2_count_end(&P);
}

void a2_reduce_lower(vop_builder *L, ptoc_op *op)
{
    const r_row *row = row_of(ptoc_pto_opcode(op));
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(dst->type);
    if (!d || !a2_plain_tile(dst->type, d->elem) || !a2_plain_tile(src->type, d->elem))
        return;
    if (ptoc_type_is_float(d->elem) && !row->floats)
        return;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    vb_if some;
    vb_if_begin(L, &some, vb_cmpi(L, VB_CMP_UGT, vrows, vb_index(L, 0)));
    first_row(L, dst, src, d->elem, vcols);
    fold_rows(L, row, dst, src, d->elem, vrows, vcols);
    vb_if_end(L, &some);
    ptoc_op_erase(op);
}
