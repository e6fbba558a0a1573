/* lower_a2a3_layout.c: pto-lower-a2a3's layout family (pto-isa a2a3 TConcat.hpp).
 *
 *   tconcat   per valid row of dst: copy_ubuf_to_ubuf of src0's valid columns
 *             (rounded up to whole 32-byte blocks) to the row's start; then,
 *             when src0's valid columns are a whole number of blocks, the
 *             same copy of src1's to the column after them, else the scalar
 *             unit's ld_ub / st_ub of src1's valid columns one by one (a
 *             vector copy cannot start inside a block).
 *
 *   ttrans    the scalar unit (ld_ub / st_ub) moves src's valid region
 *             element by element, dst[j, i] = src[i, j]: TTrans.hpp's own loop
 *             for its tail tiles, here for the whole region; its vnchwconv
 *             transposes of the 16 x 16 (32-byte) sub-tiles are not modelled.
 *
 * The block copies also write dst's columns past the valid ones up to the
 * next block boundary (inside the row: the verifier keeps src0's and src1's
 * columns within dst's), as the hardware does; the valid region is the cpu
 * target's. Element types: the 8-, 16- and 32-bit ones (TCONCAT_IMPL's).
 * Tiles other than row_major none_box vec tiles stay unlowered.
 */
#include "passes/lower_a2a3.h"

bool a2_layout_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TCONCAT || opcode == PTOC_PTO_OP_TTRANS;
}

static bool concat_tile(const ptoc_type *t, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(t);
    unsigned bits = ptoc_type_bitwidth(elem);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && d->elem == elem && (bits == 8 || bits == 16 || bits == 32);
}

typedef struct concat {
    vop_builder *L;
    ptoc_type *elem, *i64, *bits;   /* bits: the signless integer of elem's width */
    ptoc_value *dst, *src0, *src1;  /* their pointers */
    ptoc_value *dst_bits, *src1_bits; /* the same as `bits`: the scalar unit moves bits */
    int64_t dcols, cols0, cols1;    /* their row strides */
    int64_t B;                      /* elements per 32-byte block */
    ptoc_value *vrows;
} concat;

static ptoc_value *ceil_blocks(concat *c, ptoc_value *cols)
{
    vop_builder *L = c->L;
    ptoc_value *up = vb_arith(L, "arith.addi", cols, vb_index(L, c->B - 1));
    return vb_cast(L, "arith.index_cast", vb_arith(L, "arith.divui", up, vb_index(L, c->B)), c->i64);
}

/* Per row r: one burst of `cols` columns' blocks from src row r to dst row r at column `at`. */
static void copy_rows(concat *c, ptoc_value *src, int64_t scols, ptoc_value *at, ptoc_value *cols)
{
    vop_builder *L = c->L;
    ptoc_value *blocks = ceil_blocks(c, cols), *one = vb_int(L, c->i64, 1), *gap = vb_int(L, c->i64, 0);
    vb_loop l;
    ptoc_value *r = vb_loop_begin(L, &l, vb_index(L, 0), c->vrows, vb_index(L, 1));
    ptoc_value *doff = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, vb_index(L, c->dcols)), at);
    ptoc_value *soff = vb_arith(L, "arith.muli", r, vb_index(L, scols));
    ptoc_value *ops[8] = {c->dst, doff, src, soff, one, blocks, gap, gap};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_COPY_UBUF_TO_UBUF, 8, ops, 0, NULL, NULL, NULL, NULL, NULL);
    vb_loop_end(L, &l);
}

/* Per row r and column j < cols: dst[r, at + j] = src1[r, j], by the scalar unit. */
static void scalar_rows(concat *c, ptoc_value *at, ptoc_value *cols)
{
    vop_builder *L = c->L;
    vb_loop rl, jl;
    ptoc_value *r = vb_loop_begin(L, &rl, vb_index(L, 0), c->vrows, vb_index(L, 1));
    ptoc_value *drow = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, vb_index(L, c->dcols)), at);
    ptoc_value *srow = vb_arith(L, "arith.muli", r, vb_index(L, c->cols1));
    ptoc_value *j = vb_loop_begin(L, &jl, vb_index(L, 0), cols, vb_index(L, 1));
    ptoc_value *ld[2] = {c->src1_bits, vb_arith(L, "arith.addi", srow, j)};
    ptoc_value *v = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_LD_UB, 2, ld, 1, &c->bits, NULL, NULL, NULL, NULL));
    ptoc_value *st[3] = {v, c->dst_bits, vb_arith(L, "arith.addi", drow, j)};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_ST_UB, 3, st, 0, NULL, NULL, NULL, NULL, NULL);
    vb_loop_end(L, &jl);
    vb_loop_end(L, &rl);
}

/* ttrans: dst[j, i] = src[i, j] over src's valid region, by the scalar unit
 * (TTrans.hpp's TransTailTiles loop), element bits as they are. */
static void trans_lower(vop_builder *L, ptoc_op *op)
{
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    if (!s || !d || !concat_tile(src->type, s->elem) || !concat_tile(dst->type, s->elem))
        return;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    ptoc_type *e = ptoc_type_int(L->ctx, ptoc_type_bitwidth(s->elem), PTOC_SIGNLESS);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1);
    ptoc_value *scols = vb_index(L, s->cols), *dcols = vb_index(L, d->cols);
    ptoc_value *sp = vb_tile_ptr(L, src, e), *dp = vb_tile_ptr(L, dst, e);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    vb_loop il, jl;
    ptoc_value *i = vb_loop_begin(L, &il, zero, vrows, one);
    ptoc_value *srow = vb_arith(L, "arith.muli", i, scols);
    ptoc_value *j = vb_loop_begin(L, &jl, zero, vcols, one);
    ptoc_value *ld[2] = {sp, vb_arith(L, "arith.addi", srow, j)};
    ptoc_value *v = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_LD_UB, 2, ld, 1, &e, NULL, NULL, NULL, NULL));
    ptoc_value *st[3] = {v, dp, vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", j, dcols), i)};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_ST_UB, 3, st, 0, NULL, NULL, NULL, NULL, NULL);
    vb_loop_end(L, &jl);
    vb_loop_end(L, &il);
    ptoc_op_erase(op);
}

void a2_layout_lower(vop_builder *L, ptoc_op *op)
{
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TTRANS) {
        if (vb_dps_ins(op) == 2)
            trans_lower(L, op);
        return;
    }
    if (vb_dps_ins(op) != 2)
        return;
    ptoc_value *s0 = ptoc_op_operand(op, 0), *s1 = ptoc_op_operand(op, 1), *d = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *dd = vb_tile_desc(d->type);
    if (!dd || !concat_tile(d->type, dd->elem) || !concat_tile(s0->type, dd->elem) ||
        !concat_tile(s1->type, dd->elem))
        return;
    ptoc_value *tiles[3] = {s0, s1, d};
    vb_open_vecscope(L, op, tiles, 3, 1);
    concat c = {.L = L, .elem = dd->elem, .i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS),
                .dcols = dd->cols, .cols0 = vb_tile_desc(s0->type)->cols,
                .cols1 = vb_tile_desc(s1->type)->cols, .B = 256 / ptoc_type_bitwidth(dd->elem)};
    /* the index constants the loops use, made here at the top (vb_index caches them) */
    int64_t consts[7] = {0, 1, c.B, c.B - 1, c.dcols, c.cols0, c.cols1};
    for (int k = 0; k < 7; k++)
        (void)vb_index(L, consts[k]);
    c.dst = vb_tile_ptr(L, d, c.elem);
    c.src0 = vb_tile_ptr(L, s0, c.elem);
    c.src1 = vb_tile_ptr(L, s1, c.elem);
    c.bits = ptoc_type_int(L->ctx, ptoc_type_bitwidth(c.elem), PTOC_SIGNLESS);
    c.dst_bits = vb_tile_ptr(L, d, c.bits);
    c.src1_bits = vb_tile_ptr(L, s1, c.bits);
    c.vrows = ptoc_op_result(vb_tile_valid(L, d), 0);
    ptoc_value *vc0 = ptoc_op_result(vb_tile_valid(L, s0), 1), *vc1 = ptoc_op_result(vb_tile_valid(L, s1), 1);
    copy_rows(&c, c.src0, c.cols0, vb_index(L, 0), vc0);
    ptoc_value *rem = vb_arith(L, "arith.remui", vc0, vb_index(L, c.B));
    vb_if aligned;
    vb_if_begin(L, &aligned, vb_cmpi(L, VB_CMP_EQ, rem, vb_index(L, 0)));
    copy_rows(&c, c.src1, c.cols1, vc0, vc1);
    vb_if_else(L, &aligned);
    scalar_rows(&c, vc0, vc1);
    vb_if_end(L, &aligned);
    ptoc_op_erase(op);
}
