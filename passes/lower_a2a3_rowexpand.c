/* lower_a2a3_rowexpand.c: pto-lower-a2a3's row-expand binary ops (pto-isa
 * a2a3 TRowExpandBinOp.hpp, TRowExpand{Add,Sub,Mul,Div,Max,Min,Expdif}.hpp).
 *
 *   trowexpand{add,sub,mul,max,min} dst, src0, src1    vadd vsub vmul vmax vmin
 *   trowexpanddiv (floats)                            vdiv
 *   trowexpandexpdif (floats)                         vsub, then vexp on dst
 *                                                     (TROWEXPANDSUB, TEXP)
 *
 * src1 is a col_major one-column tile, one value per row (the library's
 * non-row-major src1, TRowExpandBin). The program (TRowExpandBinaryInstr,
 * dst's rows below 256):
 *
 *   vbrcb          src1's ceil(vrows / 8) groups of 8 values into the hidden
 *                  scratch window UB[184 KiB, ...): row i's value fills the
 *                  window's 32-byte block i
 *   count mode     (a repeat stride past 255 blocks, more column repeats than
 *                  rows, or a dynamic valid shape) per valid row one
 *                  instruction, the valid columns as the count, the window's
 *                  block at block stride 0 as the second operand
 *   norm mode      the rows as repeats at the row strides, the window's
 *                  blocks at block stride 0, repeat stride 1: one instruction
 *                  under the continuous mask of vcols when a row stride is
 *                  below one repeat, else per chunk of E columns, the tail
 *                  chunk under its continuous mask
 *
 * Not lowered yet (the op stays): trowexpand itself (the library reads each
 * src1 value with the scalar unit), src1 row-major or as src0, the tmp form,
 * 256 rows or more, element types other than f16 f32 i16 i32.
 */
#include "passes/lower_a2a3.h"
#include "ptoc/ptoc.h"

typedef struct rx_row { ptoc_pto_op_id op; ptoc_pto_vop_id vop; bool ints; } rx_row;

static const rx_row rx_rows[] = {
    {PTOC_PTO_OP_TROWEXPANDADD, PTOC_PTO_VOP_A2A3_VADD, true},
    {PTOC_PTO_OP_TROWEXPANDSUB, PTOC_PTO_VOP_A2A3_VSUB, true},
    {PTOC_PTO_OP_TROWEXPANDMUL, PTOC_PTO_VOP_A2A3_VMUL, true},
    {PTOC_PTO_OP_TROWEXPANDDIV, PTOC_PTO_VOP_A2A3_VDIV, false},
    {PTOC_PTO_OP_TROWEXPANDMAX, PTOC_PTO_VOP_A2A3_VMAX, true},
    {PTOC_PTO_OP_TROWEXPANDMIN, PTOC_PTO_VOP_A2A3_VMIN, true},
    {PTOC_PTO_OP_TROWEXPANDEXPDIF, PTOC_PTO_VOP_A2A3_VSUB, false},
};

static const rx_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof rx_rows / sizeof rx_rows[0]; i++)
        if (rx_rows[i].op == opcode)
            return &rx_rows[i];
    return NULL;
}

bool a2_rowexpand_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

/* A col_major none_box vec tile of one column of `elem`. */
static bool col_vector(const ptoc_type *t, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = a2_tile_desc(t);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_COL_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && d->elem == elem && d->cols == 1;
}

/* The instruction's stride lists: blocks contiguous but the window's (0). */
static void set_lists(a2_prog *P, ptoc_op *op, const int64_t *rep)
{
    ptoc_context *ctx = P->L->ctx;
    ptoc_attr *blk[3], *rp[3];
    for (uint32_t i = 0; i < 3; i++) {
        blk[i] = ptoc_attr_int(ctx, P->i64, i == 2 ? 0 : 1);
        rp[i] = ptoc_attr_int(ctx, P->i64, rep[i]);
    }
    ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "blk"), ptoc_attr_array(ctx, 3, blk));
    ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "rep"), ptoc_attr_array(ctx, 3, rp));
}

static void instr(a2_prog *P, ptoc_value *const *offs, ptoc_value *repeat, const int64_t *rep)
{
    /* a2_instr's then_vop (expdif's vexp) takes dst's own lists; the lists
     * are set on the binary instruction, the one before it */
    ptoc_pto_vop_id then = P->then_vop;
    P->then_vop = PTOC_PTO_VOP_NONE;
    set_lists(P, a2_instr(P, offs, repeat, NULL), rep);
    if (then != PTOC_PTO_VOP_NONE) {
        ptoc_value *ops[5] = {P->ptrs[0], offs[0], P->ptrs[0], offs[0], repeat};
        ptoc_op *op = vb_vop(P->L, then, 5, ops, 0, NULL, NULL, NULL, NULL, NULL);
        ptoc_context *ctx = P->L->ctx;
        ptoc_attr *blk[2] = {ptoc_attr_int(ctx, P->i64, 1), ptoc_attr_int(ctx, P->i64, 1)};
        ptoc_attr *rp[2] = {ptoc_attr_int(ctx, P->i64, rep[0]), ptoc_attr_int(ctx, P->i64, rep[0])};
        ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "blk"), ptoc_attr_array(ctx, 2, blk));
        ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "rep"), ptoc_attr_array(ctx, 2, rp));
    }
    P->then_vop = then;
}

/* TRowExpandBinaryCountMode: per valid row, the valid columns as the count. */
static void count_rows(a2_prog *P, ptoc_value *vrows, ptoc_value *vcols)
{
    a2_count_begin(P, vcols);
    vb_loop l;
    ptoc_value *r = vb_loop_begin(P->L, &l, a2_index(P, 0), vrows, a2_index(P, 1)), *offs[3];
    a2_row_offsets(P, r, NULL, offs);
    instr(P, offs, a2_index(P, 0), (int64_t[3]){8, 8, 0});
    vb_loop_end(P->L, &l);
    a2_count_end(P);
}

/* TRowExpandBinaryNormModeTail over static rows x cols. */
static void norm_rows(a2_prog *P, int64_t rows, int64_t cols)
{
    int64_t rep[3] = {P->cols[0] / P->B, P->cols[1] / P->B, 1};
    ptoc_value *offs[3] = {a2_index(P, 0), a2_index(P, 0), a2_index(P, 0)};
    if (P->cols[0] < P->E || P->cols[1] < P->E) {
        a2_cont_mask(P, cols);
        instr(P, offs, a2_index(P, rows), rep);
        a2_full_mask(P);
        return;
    }
    int64_t full = cols / P->E, tail = cols % P->E;
    for (int64_t j = 0; j < full; j++) {
        offs[0] = offs[1] = a2_index(P, j * P->E);
        instr(P, offs, a2_index(P, rows), rep);
    }
    if (tail) {
        a2_cont_mask(P, tail);
        offs[0] = offs[1] = a2_index(P, full * P->E);
        instr(P, offs, a2_index(P, rows), rep);
        a2_full_mask(P);
    }
}

void a2_rowexpand_lower(vop_builder *L, ptoc_op *op)
{
    const rx_row *row = row_of(ptoc_pto_opcode(op));
    if (vb_dps_ins(op) != 2)
        return;
    ptoc_value *src0 = ptoc_op_operand(op, 0), *src1 = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *d = a2_tile_desc(dst->type);
    if (!d || !a2_plain_tile(dst->type, d->elem) || !a2_plain_tile(src0->type, d->elem) ||
        !col_vector(src1->type, d->elem) || d->rows >= 256 || (!row->ints && !ptoc_type_is_float(d->elem)))
        return;
    const ptoc_pto_tile_desc *s0 = a2_tile_desc(src0->type);
    ptoc_value *tiles[3] = {src0, src1, dst};
    vb_open_vecscope(L, op, tiles, 3, 1);
    a2_prog P;
    a2_prog_init(&P, L, row->vop, d->elem);
    if (row->op == PTOC_PTO_OP_TROWEXPANDEXPDIF)
        P.then_vop = PTOC_PTO_VOP_A2A3_VEXP;
    a2_ptr(&P, dst, d->elem, d->cols);
    a2_ptr(&P, src0, d->elem, s0->cols);
    const ptoc_pto_arch_info *a3 = ptoc_pto_arch_info_of(PTOC_PTO_ARCH_A3);
    ptoc_value *addr = a2_i64(&P, (int64_t)a3->scratch_begin);
    ptoc_type *pt = ptoc_pto_ub_ptr_type(L->ctx, d->elem);
    ptoc_value *window = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_UB_PTR, 1, &addr, 1, &pt, NULL, NULL, NULL, NULL));
    P.tiles[2] = NULL, P.ptrs[2] = window, P.cols[2] = P.B, P.nptrs = 3;

    bool known = d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC;
    ptoc_op *valid = known ? NULL : vb_tile_valid(L, dst);
    ptoc_value *vrows = known ? a2_index(&P, d->valid_rows) : ptoc_op_result(valid, 0);
    ptoc_value *vcols = known ? a2_index(&P, d->valid_cols) : ptoc_op_result(valid, 1);

    /* vbrcb: ceil(vrows / 8) repeats of 8 values, one 32-byte block each */
    ptoc_value *groups = vb_arith(L, "arith.ceildivsi", vrows, a2_index(&P, 8));
    ptoc_value *bops[5] = {window, a2_index(&P, 0), vb_tile_ptr(L, src1, d->elem), a2_index(&P, 0), groups};
    ptoc_op *brcb = vb_vop(L, PTOC_PTO_VOP_A2A3_VBRCB, 5, bops, 0, NULL, NULL, NULL, NULL, NULL);
    ptoc_attr *one = ptoc_attr_int(L->ctx, P.i64, 1), *eight = ptoc_attr_int(L->ctx, P.i64, 8);
    ptoc_op_set_attr(brcb, L->b.arena, ptoc_ident_cstr(L->ctx, "blk"), ptoc_attr_array(L->ctx, 1, &one));
    ptoc_op_set_attr(brcb, L->b.arena, ptoc_ident_cstr(L->ctx, "rep"), ptoc_attr_array(L->ctx, 1, &eight));

    bool over = d->cols / P.B > A2_STRIDE_MAX || s0->cols / P.B > A2_STRIDE_MAX;
    if (!known || over || d->valid_cols / P.E > d->valid_rows)
        count_rows(&P, vrows, vcols);
    else
        norm_rows(&P, d->valid_rows, d->valid_cols);
    ptoc_op_erase(op);
}
