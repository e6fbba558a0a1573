/* lower_a2a3_colexpand.c: pto-lower-a2a3's tcolexpand family (pto-isa
 * include/pto/npu/a2a3 TColExpand*.hpp).
 *
 *   tcolexpand                 dst[i,j] = src[0,j]: per row one copy_ubuf_to_ubuf
 *                              of the row's whole 32-byte blocks (TColExpand.hpp)
 *   tcolexpand{add,sub,mul,    dst[i,j] = src0[i,j] OP src1[0,j]: vOP with the
 *   div,max,min}               row's repeat stride 0 (TColExpandBinOp.hpp)
 *   tcolexpandexpdif           vsub, then vexp in place on dst (TColExpandExpdif.hpp)
 *
 * The broadcast row is the pointer whose row stride is 0 (lower_a2a3.h): its
 * repeats re-read the same 256 bytes. The row is src1 when src0's valid
 * shape is dst's, else src0 (the roles swap, as on hardware); with a dynamic
 * valid shape an scf.if chooses at run time. Either way src0 is the
 * instruction's first source, so the result is src0 OP src1 in the cpu
 * target's operand order (the library's add, mul, max and min put the full
 * tile first after a swap; max and min differ from that on a NaN).
 *
 * The binary ops take one of the library's two paths:
 *   - norm mode, when dst's valid columns are its columns or it has one row
 *     (static shapes, row strides whole blocks): per chunk of E columns one
 *     instruction whose repeats are the rows, the tail chunk under the
 *     continuous mask (a2_chunks: more than 255 rows split, a row stride past
 *     255 blocks one repeat per row);
 *   - counter mode otherwise: the valid columns as the count, one
 *     instruction per row (a2_rows_count).
 *
 * tcolexpand copies whole blocks; the library's last block of a row also
 * writes the bytes past the valid columns. Here the copy stops at the last
 * whole block and the partial one is a vor of the row with itself on the
 * element's bits under a mask (the continuous mask over the rows as repeats,
 * or a count per row for a dynamic shape), so nothing past the valid region
 * is written, as on the cpu target, and every bit (a NaN payload, -0.0)
 * moves unchanged (x + 0 or x * 1 would not). The copy moves any 1-, 2- or
 * 4-byte element (bf16 too). The vector unit has no 8-bit lanes: a byte
 * tile's partial block is vor on u16 lanes, a byte pair each, and an odd
 * last column is set alone in its lane's low byte (a2_copy_half_lane: vand
 * and vor against two blocks of the scratch window under a one-lane mask,
 * the row's byte brought there by vand); with dynamic valid columns an
 * scf.if decides at run time whether there is such a byte.
 *
 * An op it cannot lower (another layout, an element type the vector unit
 * does not compute on) stays.
 */
#include "passes/lower_a2a3.h"

typedef struct c_row { ptoc_pto_op_id op; ptoc_pto_vop_id vop, then; bool floats_only; } c_row;

static const c_row c_rows[] = {
    {PTOC_PTO_OP_TCOLEXPAND, PTOC_PTO_VOP_NONE, PTOC_PTO_VOP_NONE, false},
    {PTOC_PTO_OP_TCOLEXPANDADD, PTOC_PTO_VOP_A2A3_VADD, PTOC_PTO_VOP_NONE, false},
    {PTOC_PTO_OP_TCOLEXPANDSUB, PTOC_PTO_VOP_A2A3_VSUB, PTOC_PTO_VOP_NONE, false},
    {PTOC_PTO_OP_TCOLEXPANDMUL, PTOC_PTO_VOP_A2A3_VMUL, PTOC_PTO_VOP_NONE, false},
    {PTOC_PTO_OP_TCOLEXPANDDIV, PTOC_PTO_VOP_A2A3_VDIV, PTOC_PTO_VOP_NONE, true},
    {PTOC_PTO_OP_TCOLEXPANDMAX, PTOC_PTO_VOP_A2A3_VMAX, PTOC_PTO_VOP_NONE, false},
    {PTOC_PTO_OP_TCOLEXPANDMIN, PTOC_PTO_VOP_A2A3_VMIN, PTOC_PTO_VOP_NONE, false},
    {PTOC_PTO_OP_TCOLEXPANDEXPDIF, PTOC_PTO_VOP_A2A3_VSUB, PTOC_PTO_VOP_A2A3_VEXP, true},
};

static const c_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof c_rows / sizeof c_rows[0]; i++)
        if (c_rows[i].op == opcode)
            return &c_rows[i];
    return NULL;
}

bool a2_colexpand_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

/* The op's tiles: src0 (tcolexpand's src), src1 (binary ops), dst. */
typedef struct c_op {
    const c_row *row;
    ptoc_value *src0, *src1, *dst;
    ptoc_type *elem;
} c_op;

static const ptoc_pto_tile_desc *desc(ptoc_value *t) { return vb_tile_desc(t->type); }

/* tcolexpand moves bits: a row_major none_box vec tile of any 1-, 2- or
 * 4-byte element (TColExpand.hpp's sizes). */
static bool movable(const ptoc_value *t, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(t->type);
    uint64_t esize = ptoc_pto_elem_bytes(elem);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && d->elem == elem && (esize == 1 || esize == 2 || esize == 4);
}

static bool expand_lowers(const c_op *c) { return movable(c->src0, c->elem) && movable(c->dst, c->elem); }

static bool read_operands(const ptoc_op *op, const c_row *row, c_op *out)
{
    int nins = vb_dps_ins(op);
    if (nins != (row->vop == PTOC_PTO_VOP_NONE ? 1 : 2))
        return false;
    *out = (c_op){.row = row, .src0 = ptoc_op_operand(op, 0), .dst = ptoc_op_operand(op, (uint32_t)nins)};
    out->src1 = nins == 2 ? ptoc_op_operand(op, 1) : NULL;
    if (!desc(out->dst))
        return false;
    out->elem = desc(out->dst)->elem;
    if (!out->src1)
        return expand_lowers(out);
    ptoc_value *tiles[3] = {out->src0, out->dst, out->src1};
    for (uint32_t i = 0; i < 3; i++)
        if (!a2_plain_tile(tiles[i]->type, out->elem))
            return false;
    return !row->floats_only || ptoc_type_is_float(out->elem);
}

static bool static_valid(const ptoc_pto_tile_desc *d)
{
    return d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC;
}


/* ---------------------------------------------------------------- the binary ops */

/* dst, src0, src1 at their row strides; the row (src1 unless `swapped`) at 0. */
static void binary_setup(a2_prog *P, vop_builder *L, const c_op *c, bool swapped)
{
    a2_prog_init(P, L, c->row->vop, c->elem);
    P->then_vop = c->row->then;
    a2_ptr(P, c->dst, c->elem, desc(c->dst)->cols);
    a2_ptr(P, c->src0, c->elem, swapped ? 0 : desc(c->src0)->cols);
    a2_ptr(P, c->src1, c->elem, swapped ? desc(c->src1)->cols : 0);
}

/* The library's path choice (ColExpandBinaryInstr): norm mode when dst's
 * rows are contiguous or it has one row, else one count per row. */
static void binary_program(vop_builder *L, const c_op *c, bool swapped)
{
    a2_prog P;
    binary_setup(&P, L, c, swapped);
    const ptoc_pto_tile_desc *d = desc(c->dst);
    bool known = static_valid(d);
    if (known && (d->valid_rows == 0 || d->valid_cols == 0))
        return;
    if (known && (d->valid_cols == d->cols || d->rows == 1) && a2_blocks_whole(&P)) {
        a2_chunks(&P, d->valid_rows, d->valid_cols);
        return;
    }
    ptoc_op *valid = known ? NULL : vb_tile_valid(L, c->dst);
    ptoc_value *vrows = known ? a2_index(&P, d->valid_rows) : ptoc_op_result(valid, 0);
    ptoc_value *vcols = known ? a2_index(&P, d->valid_cols) : ptoc_op_result(valid, 1);
    a2_rows_count(&P, vrows, vcols);
}

/* Whether src0's valid shape is dst's, when both are static (*known). */
static bool src0_full(const c_op *c, bool *known)
{
    const ptoc_pto_tile_desc *a = desc(c->src0), *d = desc(c->dst);
    *known = static_valid(a) && static_valid(d);
    return a->valid_rows == d->valid_rows && a->valid_cols == d->valid_cols;
}

/* The roles by src0's valid shape: at compile time when static, else an
 * scf.if on the tiles' valid shapes, as the library decides at run time. */
static void binary(vop_builder *L, const c_op *c)
{
    bool known, full = src0_full(c, &known);
    if (known) {
        binary_program(L, c, !full);
        return;
    }
    ptoc_op *va = vb_tile_valid(L, c->src0), *vd = vb_tile_valid(L, c->dst);
    ptoc_value *same_rows = vb_cmpi(L, VB_CMP_EQ, ptoc_op_result(va, 0), ptoc_op_result(vd, 0));
    ptoc_value *same_cols = vb_cmpi(L, VB_CMP_EQ, ptoc_op_result(va, 1), ptoc_op_result(vd, 1));
    vb_if f;
    vb_if_begin(L, &f, vb_arith(L, "arith.andi", same_rows, same_cols));
    binary_program(L, c, false);
    vb_if_else(L, &f);
    binary_program(L, c, true);
    vb_if_end(L, &f);
}

/* ---------------------------------------------------------------- tcolexpand */

/* Elements per vor lane: a byte pair per u16 lane, else one. */
static int64_t per_lane(const c_op *c) { return ptoc_pto_elem_bytes(c->elem) == 1 ? 2 : 1; }

/* The lane type of the partial block's vor: the integer type of the
 * element's width (vor moves a float tile's bits), u16 for bytes. */
static ptoc_type *lane_type(vop_builder *L, const c_op *c)
{
    unsigned bits = ptoc_type_bitwidth(c->elem);
    if (bits == 8)
        return ptoc_type_int(L->ctx, 16, PTOC_SIGNLESS);
    return ptoc_type_is_float(c->elem) ? ptoc_type_int(L->ctx, bits, PTOC_SIGNLESS) : c->elem;
}

/* dst's row stride in lanes. */
static int64_t row_lanes(const c_op *c) { return desc(c->dst)->cols / per_lane(c); }

/* vor dst, src, src on the lanes; src the row (stride 0). */
static void tail_setup(a2_prog *P, vop_builder *L, const c_op *c)
{
    ptoc_type *lane = lane_type(L, c);
    a2_prog_init(P, L, PTOC_PTO_VOP_A2A3_VOR, lane);
    a2_ptr(P, c->dst, lane, row_lanes(c));
    a2_ptr(P, c->src0, lane, 0);
    a2_ptr(P, c->src0, lane, 0);
}

/* A byte tile's odd last valid column: the low byte of lane q in each of
 * vrows rows from the row's lane q, the high byte kept. */
static void odd_byte(vop_builder *L, const c_op *c, ptoc_value *vrows, ptoc_value *q)
{
    a2_copy_half_lane(L, c->dst, vrows, row_lanes(c), q, false, c->src0);
}

/* dst row r's first `blocks` blocks from the source row: one copy per row. */
static void copy_rows(vop_builder *L, const c_op *c, ptoc_value *rows, ptoc_value *blocks)
{
    ptoc_value *dst = vb_tile_ptr(L, c->dst, c->elem), *src = vb_tile_ptr(L, c->src0, c->elem);
    ptoc_type *i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS);
    ptoc_value *zero = vb_index(L, 0), *one = vb_int(L, i64, 1), *gap = vb_int(L, i64, 0);
    ptoc_value *len = blocks->type == i64 ? blocks : vb_cast(L, "arith.index_cast", blocks, i64);
    ptoc_value *stride = vb_index(L, desc(c->dst)->cols);
    vb_loop l;
    ptoc_value *r = vb_loop_begin(L, &l, zero, rows, vb_index(L, 1));
    ptoc_value *ops[8] = {dst, vb_arith(L, "arith.muli", r, stride), src, zero, one, len, gap, gap};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_COPY_UBUF_TO_UBUF, 8, ops, 0, NULL, NULL, NULL, NULL, NULL);
    vb_loop_end(L, &l);
}

/* Static shape: the whole blocks copied, the tail's whole lanes by vor
 * over the rows as repeats under the continuous mask, a byte tile's odd
 * last column by itself. */
static void expand_static(vop_builder *L, const c_op *c, int64_t vrows, int64_t vcols)
{
    int64_t B = 32 / (int64_t)ptoc_pto_elem_bytes(c->elem), blocks = vcols / B, tail = vcols % B;
    int64_t per = per_lane(c), head = blocks * B / per, lanes = tail / per;
    if (blocks)
        copy_rows(L, c, vb_index(L, vrows), vb_index(L, blocks));
    if (lanes) {
        a2_prog P;
        tail_setup(&P, L, c);
        a2_cont_mask(&P, lanes);
        a2_chunk_rows(&P, a2_index(&P, head), vrows);
        a2_full_mask(&P);
    }
    if (tail % per)
        odd_byte(L, c, vb_index(L, vrows), vb_index(L, head + lanes));
}

/* The lanes head .. head + tail of each of vrows rows: counter mode, one
 * vor per row. */
static void tail_rows_count(vop_builder *L, const c_op *c, ptoc_value *vrows, ptoc_value *head, ptoc_value *tail)
{
    a2_prog P;
    tail_setup(&P, L, c);
    a2_count_begin(&P, tail);
    vb_loop l;
    ptoc_value *r = vb_loop_begin(L, &l, a2_index(&P, 0), vrows, a2_index(&P, 1));
    ptoc_value *offs[3];
    a2_row_offsets(&P, r, head, offs);
    a2_instr(&P, offs, a2_index(&P, 0), NULL);
    vb_loop_end(L, &l);
    a2_count_end(&P);
}

/* Dynamic shape: the same split, at run time when the columns are dynamic
 * (each part skipped when empty), the tail's lanes a count per row. */
static void expand_dynamic(vop_builder *L, const c_op *c)
{
    int64_t B = 32 / (int64_t)ptoc_pto_elem_bytes(c->elem), vc = desc(c->dst)->valid_cols, per = per_lane(c);
    ptoc_op *valid = vb_tile_valid(L, c->dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    if (vc != PTOC_DYNAMIC) {
        int64_t head = vc / B * B / per, lanes = vc % B / per;
        if (vc / B)
            copy_rows(L, c, vrows, vb_index(L, vc / B));
        if (lanes)
            tail_rows_count(L, c, vrows, vb_index(L, head), vb_index(L, lanes));
        if (vc % B % per)
            odd_byte(L, c, vrows, vb_index(L, head + lanes));
        return;
    }
    ptoc_value *blocks = vb_arith(L, "arith.divui", vcols, vb_index(L, B));
    ptoc_value *head = vb_arith(L, "arith.muli", blocks, vb_index(L, B / per));
    ptoc_value *lanes = vb_arith(L, "arith.divui", vb_arith(L, "arith.remui", vcols, vb_index(L, B)),
                                 vb_index(L, per));
    vb_if f;
    vb_if_begin(L, &f, vb_cmpi(L, VB_CMP_UGT, blocks, vb_index(L, 0)));
    copy_rows(L, c, vrows, blocks);
    vb_if_end(L, &f);
    vb_if_begin(L, &f, vb_cmpi(L, VB_CMP_UGT, lanes, vb_index(L, 0)));
    tail_rows_count(L, c, vrows, head, lanes);
    vb_if_end(L, &f);
    if (per == 1)
        return;
    vb_if odd;
    ptoc_value *parity = vb_arith(L, "arith.remui", vcols, vb_index(L, 2));
    vb_if_begin(L, &odd, vb_cmpi(L, VB_CMP_NE, parity, vb_index(L, 0)));
    odd_byte(L, c, vrows, vb_arith(L, "arith.divui", vcols, vb_index(L, 2)));
    vb_if_end(L, &odd);
}

static void expand(vop_builder *L, const c_op *c)
{
    const ptoc_pto_tile_desc *d = desc(c->dst);
    if (!static_valid(d)) {
        expand_dynamic(L, c);
        return;
    }
    if (d->valid_rows > 0 && d->valid_cols > 0)
        expand_static(L, c, d->valid_rows, d->valid_cols);
}

void a2_colexpand_lower(vop_builder *L, ptoc_op *op)
{
    c_op c;
    if (!read_operands(op, row_of(ptoc_pto_opcode(op)), &c))
        return;
    ptoc_value *tiles[3] = {c.src0, c.src1 ? c.src1 : c.dst, c.dst};
    uint32_t n = c.src1 ? 3 : 2;
    vb_open_vecscope(L, op, tiles, n, 1);
    if (c.src1)
        binary(L, &c);
    else
        expand(L, &c);
    ptoc_op_erase(op);
}
