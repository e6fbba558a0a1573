/* lower_a2a3_reduce.c: pto-lower-a2a3's column reductions (pto-isa a2a3
 * TColReduceOps.hpp ColReduceInstr, TColMax/TColMin/TColProd/TColSum.hpp)
 * and row reductions (TRowReduceOps.hpp TRowReduceInstr, TRowSum/TRowMax/
 * TRowMin.hpp; the row reductions are at the end of the file).
 *
 *   tcolmax tcolmin            dst = row 0 of src, then for each pair of rows
 *   tcolsum tcolprod           t = OP(row 2k+1, row 2k+2), dst = OP(dst, t)
 *                              (vmax, vmin, vadd, vmul), then an odd last row
 *
 * Row 0 reaches dst as in the library (copy_ubuf_to_ubuf of its whole
 * blocks), but the library's copy also writes the last block's bytes past the
 * valid columns; here that partial block is a vor of the row with itself on
 * the element's bits (counter mode, the tail as the count), so nothing past
 * the valid region is written, as on the cpu target. The rows then run in
 * counter mode with the valid columns as the count (up to the scratch row's
 * 8 KiB of columns at a time), two instructions per pair of rows, the pair in
 * a scratch row of the hidden window UB[184 KiB, 192 KiB) (the ops are
 * SW_A2A3).
 *
 * The order is the cpu target's (A5's: acc = row 0, then acc OP (row 2k+1 OP
 * row 2k+2)), not the library's (ColReduceInstr folds the rows one after
 * another; TColSum's binary form pairs them as a tree through tmp), with the
 * same number of instructions: float sums and products round in the cpu
 * target's order, and float max and min treat a NaN among the rows as it
 * does (a > b ? a : b drops a NaN met as its first operand and keeps one met
 * as its second), so one kernel gives the same bytes on every target. The
 * host's vadd/vmul make x86's negative default NaN of inf - inf (0 * inf),
 * where the cpu target's reductions give the quiet NaN 0x7fc00000, so the
 * scalar unit then rewrites dst's NaNs (canonical_nans; the library has no
 * such step, its hardware's NaN being the one it makes).
 */
#include "passes/lower_a2a3.h"
#include "ptoc/ptoc.h"

typedef struct r_row {
    ptoc_pto_op_id op;
    ptoc_pto_vop_id vop;
    bool floats;
    ptoc_pto_vop_id whole;      /* a row reduction's whole reduce; NONE: a column one */
} r_row;

static const r_row r_rows[] = {
    {PTOC_PTO_OP_TCOLMAX, PTOC_PTO_VOP_A2A3_VMAX, true, PTOC_PTO_VOP_NONE},
    {PTOC_PTO_OP_TCOLMIN, PTOC_PTO_VOP_A2A3_VMIN, true, PTOC_PTO_VOP_NONE},
    {PTOC_PTO_OP_TCOLSUM, PTOC_PTO_VOP_A2A3_VADD, false, PTOC_PTO_VOP_NONE},
    {PTOC_PTO_OP_TCOLPROD, PTOC_PTO_VOP_A2A3_VMUL, false, PTOC_PTO_VOP_NONE},
    {PTOC_PTO_OP_TROWSUM, PTOC_PTO_VOP_A2A3_VADD, true, PTOC_PTO_VOP_A2A3_VCADD},
    {PTOC_PTO_OP_TROWMAX, PTOC_PTO_VOP_A2A3_VMAX, true, PTOC_PTO_VOP_A2A3_VCMAX},
    {PTOC_PTO_OP_TROWMIN, PTOC_PTO_VOP_A2A3_VMIN, true, PTOC_PTO_VOP_A2A3_VCMIN},
};

static void row_reduce_lower(vop_builder *L, ptoc_op *op, const r_row *row);

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

/* One instruction d[doff] = OP(a[aoff], b[boff]) under the count set now. */
static void fold(vop_builder *L, const r_row *row, ptoc_value *d, ptoc_value *doff, ptoc_value *a, ptoc_value *aoff,
                 ptoc_value *b, ptoc_value *boff)
{
    ptoc_value *ops[7] = {d, doff, a, aoff, b, boff, vb_index(L, 0)};
    (void)vb_vop(L, row->vop, 7, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

/* The rows after row 0 folded into dst in the cpu target's order: dst =
 * OP(dst, OP(row 2k+1, row 2k+2)), the pair in a scratch row, then an odd last
 * row; columns in windows of the scratch's size, each window's count set. */
static void fold_rows(vop_builder *L, const r_row *row, ptoc_value *dst, ptoc_value *src, ptoc_type *elem,
                      ptoc_value *vrows, ptoc_value *vcols)
{
    const ptoc_pto_arch_info *a3 = ptoc_pto_arch_info_of(PTOC_PTO_ARCH_A3);
    int64_t cols = vb_tile_desc(src->type)->cols;
    int64_t W = (int64_t)(a3->scratch_end - a3->scratch_begin) / (int64_t)ptoc_pto_elem_bytes(elem);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *two = vb_index(L, 2), *w = vb_index(L, W);
    ptoc_value *stride = vb_index(L, cols);
    ptoc_value *s = vb_tile_ptr(L, src, elem), *d = vb_tile_ptr(L, dst, elem), *t = a2_window_ptr(L, elem, 0);
    ptoc_value *rest = vb_arith(L, "arith.subi", vrows, one), *pairs = vb_arith(L, "arith.divui", rest, two);
    a2_prog P;
    a2_prog_init(&P, L, row->vop, elem);
    vb_loop cl, kl;
    ptoc_value *c0 = vb_loop_begin(L, &cl, zero, vcols, w);
    ptoc_value *left = vb_arith(L, "arith.subi", vcols, c0);
    a2_count_begin(&P, vb_select(L, vb_cmpi(L, VB_CMP_UGT, left, w), w, left));
    ptoc_value *k = vb_loop_begin(L, &kl, zero, pairs, one);
    ptoc_value *r1 = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", k, two), one);
    ptoc_value *o1 = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r1, stride), c0);
    fold(L, row, t, zero, s, o1, s, vb_arith(L, "arith.addi", o1, stride));
    fold(L, row, d, c0, d, c0, t, zero);
    vb_loop_end(L, &kl);
    vb_if odd;
    vb_if_begin(L, &odd, vb_cmpi(L, VB_CMP_EQ, vb_arith(L, "arith.remui", rest, two), one));
    fold(L, row, d, c0, d, c0, s, vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", rest, stride), c0));
    vb_if_end(L, &odd);
    a2_count_end(&P);
    vb_loop_end(L, &cl);
}

/* A float sum or product's NaNs made the quiet NaN 0x7fc00000 (f16 0x7e00),
 * as the cpu target's reductions give them (the host's vadd and vmul give
 * x86's negative one for inf - inf, 0 * inf): n elements of dst, `stride`
 * apart, on the scalar unit, between a V -> S and an S -> V handshake. NaNs
 * propagate through the folds, so fixing the result fixes every step. With
 * plus_zero each element becomes 0.0 + x first (a row sum's start). */
static void canonical_nans(vop_builder *L, ptoc_value *dst, ptoc_type *elem, ptoc_value *n, int64_t stride,
                           bool plus_zero)
{
    a2_handshake(L, PTOC_PTO_PIPE_V, PTOC_PTO_PIPE_S);
    vb_loop l;
    ptoc_value *k = vb_loop_begin(L, &l, vb_index(L, 0), n, vb_index(L, 1));
    ptoc_value *at = vb_arith(L, "arith.muli", k, vb_index(L, stride)), *gops[2] = {dst, at};
    ptoc_op *load = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TGETVAL), 2, gops, 1, &elem, 0, NULL, 0);
    ptoc_op_set_segment_sizes(load, L->b.arena, 2, (int64_t[2]){2, 0});
    ptoc_value *x = vb_result0(load);
    if (plus_zero)
        x = vb_arith(L, "arith.addf", vb_float(L, elem, 0.0), x);
    ptoc_value *sops[3] = {at, vb_quiet_nan(L, x), dst};
    ptoc_op *store = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TSETVAL), 3, sops, 0, NULL, 0, NULL, 0);
    ptoc_op_set_segment_sizes(store, L->b.arena, 2, (int64_t[2]){2, 1});
    vb_loop_end(L, &l);
    a2_handshake(L, PTOC_PTO_PIPE_S, PTOC_PTO_PIPE_V);
}

void a2_reduce_lower(vop_builder *L, ptoc_op *op)
{
    const r_row *row = row_of(ptoc_pto_opcode(op));
    if (row->whole != PTOC_PTO_VOP_NONE) {
        row_reduce_lower(L, op, row);
        return;
    }
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d || !a2_plain_tile(dst->type, d->elem) || !a2_plain_tile(src->type, d->elem))
        return;
    bool fix_nans = ptoc_type_is_float(d->elem) && !row->floats;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    vb_if some;
    vb_if_begin(L, &some, vb_cmpi(L, VB_CMP_UGT, vrows, vb_index(L, 0)));
    first_row(L, dst, src, d->elem, vcols);
    fold_rows(L, row, dst, src, d->elem, vrows, vcols);
    if (fix_nans)
        canonical_nans(L, dst, d->elem, vcols, 1, false);
    vb_if_end(L, &some);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- row reductions
 *
 *   trowsum trowmax trowmin    dst[i, 0] = the reduction of src row i
 *
 * The order is the cpu target's (A5's chunked one), not the library's: each
 * chunk of E = 256 bytes of the row is reduced on its own by the whole reduce
 * (vcadd, vcmax, vcmin: the tree of the chunk, the partial tail's missing
 * lanes the identity), chunk 0 into dst's element, each later one into a
 * scratch element that one vadd / vmax / vmin (count 1) folds into dst:
 * acc = OP(acc, tree(chunk j)). A float sum then gets the cpu target's
 * starting 0.0 + acc (a -0.0 row sum is +0.0) and its NaN, the quiet NaN
 * 0x7fc00000 (x86's vadd makes a negative one of inf - inf), on the scalar
 * unit (canonical_nans). The library instead folds the chunks lane by lane
 * (TRowReduceInstr's FillTmp and TmpProc) and reduces the folded chunk once:
 * another order of float additions, so its sums would differ from the other
 * targets' in the last bits; ptoc gives one answer on every target
 * (docs/decisions.md). A row of at most E valid columns is one whole reduce
 * either way, the library's program, and so are TROWSUM's hardware profiles.
 * Every instruction runs in counter mode (E, the tail or 1 as the count), one
 * row at a time. The scratch element is tmp's when the op has one, else the
 * hidden scratch window UB[184 KiB, 192 KiB) (the ops are SW_A2A3). dst is a
 * row_major tile, or an Nx1 col_major one (the library's DN dst).
 * Integers (i16, i32) take the same program: integer sums wrap and max / min
 * are exact, in any order.
 */

typedef struct rr_prog {
    vop_builder *L;
    a2_prog P;                  /* for the mask and mode ops */
    const r_row *row;
    ptoc_type *elem;
    int64_t E;
    ptoc_value *src, *tmp, *dst;    /* UB pointers */
} rr_prog;

static ptoc_value *rr_mul(rr_prog *R, ptoc_value *a, int64_t k) { return vb_arith(R->L, "arith.muli", a, vb_index(R->L, k)); }
static ptoc_value *rr_add(rr_prog *R, ptoc_value *a, ptoc_value *b) { return vb_arith(R->L, "arith.addi", a, b); }

/* d[doff] = the whole reduce of the count's lanes at s[soff]. */
static void rr_whole(rr_prog *R, ptoc_value *d, ptoc_value *doff, ptoc_value *s, ptoc_value *soff)
{
    ptoc_value *ops[5] = {d, doff, s, soff, vb_index(R->L, 0)};
    (void)vb_vop(R->L, R->row->whole, 5, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

/* Chunk j (`lanes` of them) of the row at soff folded into dst[doff]. */
static void rr_fold_chunk(rr_prog *R, ptoc_value *soff, ptoc_value *doff, ptoc_value *j, ptoc_value *lanes)
{
    vop_builder *L = R->L;
    ptoc_value *zero = vb_index(L, 0);
    a2_count_begin(&R->P, lanes);
    rr_whole(R, R->tmp, zero, R->src, rr_add(R, soff, rr_mul(R, j, R->E)));
    a2_count_end(&R->P);
    a2_count_begin(&R->P, vb_index(L, 1));
    ptoc_value *ops[7] = {R->dst, doff, R->dst, doff, R->tmp, zero, zero};
    (void)vb_vop(L, R->row->vop, 7, ops, 0, NULL, NULL, NULL, NULL, NULL);
    a2_count_end(&R->P);
}

/* Row r of src (at soff) into dst's element at doff. */
static void rr_one_row(rr_prog *R, ptoc_value *soff, ptoc_value *doff, ptoc_value *vcols)
{
    vop_builder *L = R->L;
    ptoc_value *E = vb_index(L, R->E), *one = vb_index(L, 1);
    ptoc_value *wide = vb_cmpi(L, VB_CMP_UGT, vcols, E);
    a2_count_begin(&R->P, vb_select(L, wide, E, vcols));
    rr_whole(R, R->dst, doff, R->src, soff);
    a2_count_end(&R->P);
    ptoc_value *n = vb_arith(L, "arith.divui", vcols, E), *rem = vb_arith(L, "arith.remui", vcols, E);
    vb_loop l;
    ptoc_value *j = vb_loop_begin(L, &l, one, n, one);
    rr_fold_chunk(R, soff, doff, j, E);
    vb_loop_end(L, &l);
    vb_if tail;
    vb_if_begin(L, &tail, vb_arith(L, "arith.andi", wide, vb_cmpi(L, VB_CMP_UGT, rem, vb_index(L, 0))));
    rr_fold_chunk(R, soff, doff, n, rem);
    vb_if_end(L, &tail);
}

/* dst's row stride in elements: a row_major tile's cols, an Nx1 col_major tile's 1; 0 when neither. */
static int64_t rr_dst_stride(const ptoc_value *dst, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d || d->elem != elem || d->loc != PTOC_PTO_AS_VEC || d->slayout != PTOC_PTO_SL_NONE_BOX)
        return 0;
    if (d->blayout == PTOC_PTO_BL_ROW_MAJOR)
        return d->cols;
    return d->blayout == PTOC_PTO_BL_COL_MAJOR && d->cols == 1 ? 1 : 0;
}

static void row_reduce_lower(vop_builder *L, ptoc_op *op, const r_row *row)
{
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    ptoc_value *tmp = nins > 1 ? ptoc_op_operand(op, 1) : NULL;
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type);
    if (!s || !a2_plain_tile(src->type, s->elem))
        return;
    int64_t dstride = rr_dst_stride(dst, s->elem), esize = (int64_t)ptoc_pto_elem_bytes(s->elem);
    const ptoc_pto_tile_desc *t = tmp ? vb_tile_desc(tmp->type) : NULL;
    bool tmp_fits = t && t->elem == s->elem && a2_plain_tile(tmp->type, s->elem);
    if (!dstride)
        return;
    ptoc_value *tiles[3] = {src, tmp_fits ? tmp : dst, dst};
    vb_open_vecscope(L, op, tiles, tmp_fits ? 3 : 2, 1);
    rr_prog R = {.L = L, .row = row, .elem = s->elem, .E = 256 / esize};
    a2_prog_init(&R.P, L, row->vop, s->elem);
    R.src = vb_tile_ptr(L, src, s->elem);
    R.dst = vb_tile_ptr(L, dst, s->elem);
    R.tmp = tmp_fits ? vb_tile_ptr(L, tmp, s->elem) : a2_window_ptr(L, s->elem, 0);
    /* the index constants the loops use, made here where they dominate every use */
    const int64_t consts[] = {0, 1, R.E, s->cols, dstride};
    for (size_t k = 0; k < sizeof consts / sizeof consts[0]; k++)
        (void)vb_index(L, consts[k]);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    vb_if some;
    vb_if_begin(L, &some, vb_cmpi(L, VB_CMP_UGT, vcols, vb_index(L, 0)));
    vb_loop l;
    ptoc_value *r = vb_loop_begin(L, &l, vb_index(L, 0), vrows, vb_index(L, 1));
    rr_one_row(&R, rr_mul(&R, r, s->cols), rr_mul(&R, r, dstride), vcols);
    vb_loop_end(L, &l);
    if (row->vop == PTOC_PTO_VOP_A2A3_VADD && ptoc_type_is_float(s->elem))
        canonical_nans(L, dst, s->elem, vrows, dstride, true);
    vb_if_end(L, &some);
    ptoc_op_erase(op);
}
