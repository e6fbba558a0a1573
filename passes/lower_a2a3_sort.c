/* lower_a2a3_sort.c: pto-lower-a2a3's sort family (pto-isa a2a3 TSort32.hpp, TMrgSort.hpp).
 *
 *   tsort32          per valid row of dst: vbitsort of src's whole 32-element
 *                    blocks (at most as many as dst's row holds) with idx's
 *                    row (row 0 for every row when idx has one valid row);
 *                    with tmp, the tail block too: its values and indices
 *                    copied into the hidden scratch window UB[184 KiB,
 *                    192 KiB), the lanes past the tail set to a NaN and index
 *                    0xffffffff, vbitsort there, and the tail's pairs copied
 *                    to dst (whole blocks by copy_ubuf_to_ubuf, the rest by
 *                    the scalar unit)
 *   tmrgsort blocks  ins(src, blockLen): vmrgsort4 of the groups of 4 lists
 *                    inside dst's valid columns, at most 255 groups (repeats)
 *                    an instruction; a blockLen of 0 or not whole pairs does
 *                    nothing
 *   tmrgsort lists   ins(src0, ..., tmp): vmrgsort4 of the 2 to 4 lists into
 *                    tmp (which must hold their static pairs), then
 *                    get_vms4_sr's pairs taken, at most dst's valid pairs,
 *                    copied to dst
 *
 * The library's sequences differ from these where the hardware writes bytes
 * the cpu target leaves alone: its tail block pads with NaN pairs whose
 * indices are idx's storage past the valid columns and writes all 32 pairs
 * (here the pads rank last and only the valid pairs are written); its list
 * merge copies dst's whole valid columns from tmp however many pairs were
 * merged, and its block merge runs src's groups rather than dst's.
 */
#include "passes/lower_a2a3.h"

#include "ptoc/ptoc.h"

#include <math.h>

bool a2_sort_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TSORT32 || opcode == PTOC_PTO_OP_TMRGSORT;
}

static const ptoc_pto_tile_desc *vec_tile(const ptoc_value *v, bool floats)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(v->type);
    if (!d || d->loc != PTOC_PTO_AS_VEC || d->blayout != PTOC_PTO_BL_ROW_MAJOR || d->slayout != PTOC_PTO_SL_NONE_BOX)
        return NULL;
    if (floats)
        return ptoc_type_is_float(d->elem) && (d->elem->u.fp.kind == PTOC_F16 || d->elem->u.fp.kind == PTOC_F32)
                   ? d
                   : NULL;
    return ptoc_type_is_int(d->elem) && ptoc_type_bitwidth(d->elem) == 32 ? d : NULL;
}

static ptoc_type *i64_of(vop_builder *L) { return ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS); }
static ptoc_value *i64v(vop_builder *L, int64_t v) { return vb_int(L, i64_of(L), v); }
static ptoc_value *to_i64(vop_builder *L, ptoc_value *v) { return vb_cast(L, "arith.index_cast", v, i64_of(L)); }

static void op0(vop_builder *L, ptoc_pto_vop_id id, uint32_t n, ptoc_value *const *ops)
{
    (void)vb_vop(L, id, n, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

/* One burst of `blocks` (index) 32-byte blocks. */
static void copy_blocks(vop_builder *L, ptoc_value *d, ptoc_value *doff, ptoc_value *s, ptoc_value *soff,
                        ptoc_value *blocks)
{
    ptoc_value *ops[8] = {d, doff, s, soff, i64v(L, 1), to_i64(L, blocks), i64v(L, 0), i64v(L, 0)};
    op0(L, PTOC_PTO_VOP_A2A3_COPY_UBUF_TO_UBUF, 8, ops);
}

/* The unsigned word of elem's width: a list's pairs moved as bits. */
static ptoc_type *word_of(vop_builder *L, const ptoc_type *elem)
{
    return ptoc_type_int(L->ctx, ptoc_type_bitwidth(elem), PTOC_UNSIGNED);
}

/* npairs 8-byte pairs (index) from s + soff to d + doff (pointers to `word`s,
 * offsets in words): whole blocks by one burst, the last pairs word by word. */
static void copy_pairs(vop_builder *L, ptoc_type *word, ptoc_value *d, ptoc_value *doff, ptoc_value *s,
                       ptoc_value *soff, ptoc_value *npairs)
{
    int64_t wpp = 64 / ptoc_type_bitwidth(word);
    ptoc_value *blocks = vb_arith(L, "arith.divui", npairs, vb_index(L, 4));
    copy_blocks(L, d, doff, s, soff, blocks);
    ptoc_value *from = vb_arith(L, "arith.muli", blocks, vb_index(L, 4 * wpp));
    vb_loop l;
    ptoc_value *w = vb_loop_begin(L, &l, from, vb_arith(L, "arith.muli", npairs, vb_index(L, wpp)), vb_index(L, 1));
    ptoc_value *ld[2] = {s, vb_arith(L, "arith.addi", soff, w)};
    ptoc_value *v = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_LD_UB, 2, ld, 1, &word, NULL, NULL, NULL, NULL));
    ptoc_value *st[3] = {v, d, vb_arith(L, "arith.addi", doff, w)};
    op0(L, PTOC_PTO_VOP_A2A3_ST_UB, 3, st);
    vb_loop_end(L, &l);
}

static void set_mask(vop_builder *L, ptoc_value *hi, ptoc_value *lo)
{
    ptoc_value *ops[2] = {hi, lo};
    op0(L, PTOC_PTO_VOP_A2A3_SET_VECTOR_MASK, 2, ops);
}

/* ---------------------------------------------------------------- tsort32 */

typedef struct s32 {
    vop_builder *L;
    ptoc_type *elem;
    ptoc_value *dst, *src, *idx, *dstw;  /* dst's pointer as unsigned words too */
    int64_t dcols, scols, icols, per;    /* row strides; dst elements a pair */
} s32;

/* The tail block of `tail` elements at block `blk` of row r (idx row ir). */
static void sort_tail(s32 *S, ptoc_value *r, ptoc_value *ir, ptoc_value *blk, ptoc_value *tail)
{
    vop_builder *L = S->L;
    unsigned esize = ptoc_type_bitwidth(S->elem) / 8;
    ptoc_type *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS), *word = word_of(L, S->elem);
    ptoc_value *vals = a2_window_ptr(L, S->elem, 0), *ids = a2_window_ptr(L, i32, 128), *pairs = a2_window_ptr(L, word, 256);
    ptoc_value *col = vb_arith(L, "arith.muli", blk, vb_index(L, 32)), *zero = vb_index(L, 0);
    ptoc_value *soff = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, vb_index(L, S->scols)), col);
    ptoc_value *ioff = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", ir, vb_index(L, S->icols)), col);
    ptoc_value *up = vb_arith(L, "arith.addi", tail, vb_index(L, 7));
    ptoc_value *vbytes = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", tail, vb_index(L, esize)), vb_index(L, 31));
    copy_blocks(L, vals, zero, S->src, soff, vb_arith(L, "arith.divui", vbytes, vb_index(L, 32)));
    copy_blocks(L, ids, zero, S->idx, ioff, vb_arith(L, "arith.divui", up, vb_index(L, 8)));
    /* lanes tail .. 31 of both: a NaN, index 0xffffffff (they rank after every valid pair) */
    ptoc_value *lanes = vb_arith(L, "arith.andi", vb_arith(L, "arith.shli", i64v(L, -1), to_i64(L, tail)),
                                 i64v(L, 0xffffffffll));
    set_mask(L, i64v(L, 0), lanes);
    ptoc_value *dup_v[3] = {vals, zero, vb_float(L, S->elem, NAN)};
    ptoc_value *dup_i[3] = {ids, zero, vb_int(L, i32, -1)};
    ptoc_value *one = vb_index(L, 1);
    ptoc_value *dv[4] = {dup_v[0], dup_v[1], dup_v[2], one}, *di[4] = {dup_i[0], dup_i[1], dup_i[2], one};
    op0(L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, 4, dv);
    op0(L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, 4, di);
    set_mask(L, i64v(L, -1), i64v(L, -1));
    ptoc_value *sort[7] = {vals, zero, vals, zero, ids, zero, one};
    sort[0] = a2_window_ptr(L, S->elem, 256);
    op0(L, PTOC_PTO_VOP_A2A3_VBITSORT, 7, sort);
    /* the tail's pairs to dst's row r from pair 32 * blk (offsets in elements) */
    ptoc_value *drow = vb_arith(L, "arith.muli", r, vb_index(L, S->dcols));
    ptoc_value *doff = vb_arith(L, "arith.addi", drow, vb_arith(L, "arith.muli", blk, vb_index(L, 32 * S->per)));
    copy_pairs(L, word, S->dstw, doff, pairs, zero, tail);
}

static void tsort32_lower(vop_builder *L, ptoc_op *op, uint32_t nins)
{
    ptoc_value *src = ptoc_op_operand(op, 0), *idx = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, nins);
    const ptoc_pto_tile_desc *s = vec_tile(src, true), *i = vec_tile(idx, false), *d = vec_tile(dst, true);
    if (!s || !i || !d || s->elem != d->elem)
        return;
    unsigned esize = ptoc_type_bitwidth(d->elem) / 8;
    int64_t fit = d->cols * (int64_t)esize / 256;   /* blocks of pairs a dst row holds */
    ptoc_value *tiles[3] = {src, idx, dst};
    vb_open_vecscope(L, op, tiles, 3, 1);
    s32 S = {.L = L, .elem = d->elem, .dcols = d->cols, .scols = s->cols, .icols = i->cols, .per = 8 / esize};
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *c32 = vb_index(L, 32), *fits = vb_index(L, fit);
    /* the index constants the loops use, made here at the top (vb_index caches them) */
    (void)vb_index(L, 4);
    (void)vb_index(L, 8);
    (void)vb_index(L, S.dcols);
    (void)vb_index(L, S.scols);
    S.dst = vb_tile_ptr(L, dst, d->elem);
    S.dstw = vb_tile_ptr(L, dst, word_of(L, d->elem));
    S.src = vb_tile_ptr(L, src, s->elem);
    S.idx = vb_tile_ptr(L, idx, ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS));
    ptoc_value *vcols = ptoc_op_result(vb_tile_valid(L, src), 1), *vrows = ptoc_op_result(vb_tile_valid(L, dst), 0);
    ptoc_value *ivrows = ptoc_op_result(vb_tile_valid(L, idx), 0);
    ptoc_value *per_row = vb_arith(L, "arith.minui", vb_arith(L, "arith.subi", ivrows, one), one);
    ptoc_value *whole = vb_arith(L, "arith.minui", vb_arith(L, "arith.divui", vcols, c32), fits);
    ptoc_value *tail = vb_arith(L, "arith.remui", vcols, c32);
    vb_loop rl;
    ptoc_value *r = vb_loop_begin(L, &rl, zero, vrows, one);
    ptoc_value *ir = vb_arith(L, "arith.muli", r, per_row);
    ptoc_value *sort[7] = {S.dst, vb_arith(L, "arith.muli", r, vb_index(L, S.dcols)), S.src,
                           vb_arith(L, "arith.muli", r, vb_index(L, S.scols)), S.idx,
                           vb_arith(L, "arith.muli", ir, vb_index(L, S.icols)), to_i64(L, whole)};
    op0(L, PTOC_PTO_VOP_A2A3_VBITSORT, 7, sort);
    if (nins > 2) {
        vb_if t;
        ptoc_value *has_tail = vb_cmpi(L, VB_CMP_NE, tail, zero);
        ptoc_value *room = vb_cmpi(L, VB_CMP_UGT, fits, whole);
        vb_if_begin(L, &t, vb_arith(L, "arith.andi", has_tail, room));
        sort_tail(&S, r, ir, whole, tail);
        vb_if_end(L, &t);
    }
    vb_loop_end(L, &rl);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- tmrgsort */

static void mrgsort4(vop_builder *L, ptoc_value *dst, ptoc_value *doff, ptoc_value *const *lists,
                     ptoc_value *const *offs, ptoc_value *count, ptoc_value *config)
{
    ptoc_value *ops[12] = {dst, doff};
    for (int k = 0; k < 4; k++) {
        ops[2 + 2 * k] = lists[k];
        ops[3 + 2 * k] = offs[k];
    }
    ops[10] = count;
    ops[11] = config;
    op0(L, PTOC_PTO_VOP_A2A3_VMRGSORT4, 12, ops);
}

static void blocks_lower(vop_builder *L, ptoc_op *op)
{
    ptoc_value *src = ptoc_op_operand(op, 0), *len = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *s = vec_tile(src, true), *d = vec_tile(dst, true);
    if (!s || !d || s->elem != d->elem || !ptoc_type_is_int_or_index(len->type))
        return;
    int64_t per = 8 / (ptoc_type_bitwidth(d->elem) / 8);
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    ptoc_value *zero = vb_index(L, 0), *vper = vb_index(L, per), *c255 = vb_index(L, 255);
    ptoc_value *sp = vb_tile_ptr(L, src, s->elem), *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_value *vcols = ptoc_op_result(vb_tile_valid(L, dst), 1);
    ptoc_value *n = len->type == L->index ? len : vb_cast(L, "arith.index_castui", len, L->index);
    ptoc_value *whole = vb_arith(L, "arith.andi", vb_cmpi(L, VB_CMP_NE, n, zero),
                                 vb_cmpi(L, VB_CMP_EQ, vb_arith(L, "arith.remui", n, vper), zero));
    vb_if w;
    vb_if_begin(L, &w, whole);
    ptoc_value *group = vb_arith(L, "arith.muli", n, vb_index(L, 4));
    ptoc_value *groups = vb_arith(L, "arith.divui", vcols, group);
    ptoc_value *pairs = to_i64(L, vb_arith(L, "arith.divui", n, vper));
    ptoc_value *count = vb_arith(L, "arith.muli", pairs, i64v(L, 0x0001000100010001ll));
    vb_loop gl;
    ptoc_value *g0 = vb_loop_begin(L, &gl, zero, groups, c255);
    ptoc_value *reps = vb_arith(L, "arith.minui", vb_arith(L, "arith.subi", groups, g0), c255);
    ptoc_value *config = vb_arith(L, "arith.ori", to_i64(L, reps), i64v(L, 0xf << 8));
    ptoc_value *base = vb_arith(L, "arith.muli", g0, group);
    ptoc_value *lists[4] = {sp, sp, sp, sp}, *offs[4];
    for (int k = 0; k < 4; k++)
        offs[k] = vb_arith(L, "arith.addi", base, vb_arith(L, "arith.muli", n, vb_index(L, k)));
    mrgsort4(L, dp, base, lists, offs, count, config);
    vb_loop_end(L, &gl);
    vb_if_end(L, &w);
    ptoc_op_erase(op);
}

static int64_t static_cols(const ptoc_pto_tile_desc *d) { return d->valid_cols >= 0 ? d->valid_cols : d->cols; }

static void lists_lower(vop_builder *L, ptoc_op *op, uint32_t nlists)
{
    ptoc_value *tmp = ptoc_op_operand(op, nlists), *dst = ptoc_op_operand(op, nlists + 1);
    const ptoc_pto_tile_desc *t = vec_tile(tmp, true), *d = vec_tile(dst, true);
    if (!t || !d || t->elem != d->elem)
        return;
    ptoc_attr *ex = ptoc_op_attr(op, "exhausted");
    bool exhausted = ex && ex->kind == PTOC_ATTR_BOOL && ex->u.boolean;
    int64_t need = 0, per = 8 / (ptoc_type_bitwidth(d->elem) / 8);
    ptoc_value *tiles[6];
    for (uint32_t k = 0; k < nlists; k++) {
        const ptoc_pto_tile_desc *s = vec_tile(ptoc_op_operand(op, k), true);
        if (!s || s->elem != d->elem)
            return;
        need += static_cols(s);
        tiles[k] = ptoc_op_operand(op, k);
    }
    if (need > t->cols)
        return;   /* tmp would not hold the merge */
    tiles[nlists] = tmp;
    tiles[nlists + 1] = dst;
    vb_open_vecscope(L, op, tiles, nlists + 2, 1);
    ptoc_value *zero = vb_index(L, 0), *vper = vb_index(L, per);
    (void)vb_index(L, 1);
    (void)vb_index(L, 2);
    (void)vb_index(L, 4);
    (void)vb_index(L, 8);
    ptoc_value *lists[4], *offs[4] = {zero, zero, zero, zero}, *count = i64v(L, 0);
    for (uint32_t k = 0; k < 4; k++) {
        ptoc_value *s = ptoc_op_operand(op, k < nlists ? k : 0);
        lists[k] = vb_tile_ptr(L, s, d->elem);
        if (k >= nlists)
            continue;
        ptoc_value *pairs = to_i64(L, vb_arith(L, "arith.divui", ptoc_op_result(vb_tile_valid(L, s), 1), vper));
        count = vb_arith(L, "arith.ori", count, vb_arith(L, "arith.shli", pairs, i64v(L, 16 * k)));
    }
    int64_t config = 1 | (((1 << nlists) - 1) << 8) | (exhausted ? 1 << 12 : 0);
    ptoc_value *tp = vb_tile_ptr(L, tmp, d->elem);
    mrgsort4(L, tp, zero, lists, offs, count, i64v(L, config));
    ptoc_type *i64 = i64_of(L);
    ptoc_value *sr = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_GET_VMS4_SR, 0, NULL, 1, &i64, NULL, NULL, NULL, NULL));
    ptoc_value *merged = i64v(L, 0);
    for (int k = 0; k < 4; k++) {
        ptoc_value *f = vb_arith(L, "arith.andi", vb_arith(L, "arith.shrui", sr, i64v(L, 16 * k)), i64v(L, 0xffff));
        merged = vb_arith(L, "arith.addi", merged, f);
    }
    ptoc_value *room = vb_arith(L, "arith.divui", ptoc_op_result(vb_tile_valid(L, dst), 1), vper);
    ptoc_value *n = vb_arith(L, "arith.minui", vb_cast(L, "arith.index_cast", merged, L->index), room);
    ptoc_type *word = word_of(L, d->elem);
    copy_pairs(L, word, vb_tile_ptr(L, dst, word), zero, vb_tile_ptr(L, tmp, word), zero, n);
    ptoc_op_erase(op);
}

void a2_sort_lower(vop_builder *L, ptoc_op *op)
{
    uint32_t nins = 0, nouts = 0;
    if (!ptoc_pto_dps_split(op, &nins, &nouts))
        return;
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TSORT32) {
        if (nouts == 1 && (nins == 2 || nins == 3))
            tsort32_lower(L, op, nins);
        return;
    }
    if (nins == 2 && !vb_tile_desc(ptoc_op_operand(op, 1)->type))
        blocks_lower(L, op);
    else if (nins >= 3 && nins <= 5)
        lists_lower(L, op, nins - 1);
}
