/* lower_a5_sort.c: pto-lower-a5's tsort32 and tmrgsort, on the sort
 * accelerators vbitsort and vmrgsort4 (dialect/pto_vops.def), whose order is
 * the cpu target's (codegen/lower_pto_sort.c).
 *
 *   tsort32 ins(src, idx[, tmp]) outs(dst)   (a5/TSort32.hpp) per valid row of
 *       dst: vbitsort of the validCol / 32 whole blocks (as many as dst's row
 *       holds), src and idx read in place (a one-row idx at row stride 0).
 *       With tmp, a ragged tail block of n < 32 elements is padded and sorted
 *       in dst's own block: the block's 256 bytes kept in a register (vlds),
 *       the tail's values with NaN pads and its indices with 0xffffffff pads
 *       stored into the block (vsel, vsts), vbitsort of the block in place,
 *       and the kept bytes stored back past the n sorted pairs. The pads
 *       (NaN, the largest index, the last positions) sort after every real
 *       pair, so the first n pairs are the cpu target's and nothing else in
 *       dst changes. The library pads in tmp instead and writes the pads to
 *       dst too; tmp is not written here.
 *   tmrgsort ins(src0, ..., src{n-1}, tmp) outs(dst), n = 2..4  (a5/TMrgSort.hpp)
 *       one vmrgsort4 of the lists (src_k's valid pairs, list-enable bits of
 *       n, the exhausted bit) into tmp, then dst's valid columns copied from
 *       tmp (vlds / vsts). tmp first takes a copy of dst's valid columns, so
 *       where the merge writes fewer pairs (exhausted, short lists) dst keeps
 *       its bytes, as on the cpu target.
 *   tmrgsort ins(src, blockLen) outs(dst)
 *       one vmrgsort4 per whole group of 4 blocks inside dst's valid columns
 *       (the cpu target's count; the library's repeat counts src's), none
 *       when blockLen is 0 or not whole pairs.
 *
 * Not lowered (the op stays): tiles other than row_major none_box vec tiles,
 * element types other than f16 and f32, a dst row of more than 255 blocks of
 * pairs (vbitsort's 8-bit repeat), a tmp smaller than dst's row or the lists'
 * valid columns together (their storage, when dynamic). tmrgsort's `executed`
 * out (VMS4_SR's counts) is not written, as on the cpu target.
 */
#include "passes/lower_a5.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <math.h>

static bool plain_vec(const ptoc_pto_tile_desc *t)
{
    return t && t->loc == PTOC_PTO_AS_VEC && t->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           t->slayout == PTOC_PTO_SL_NONE_BOX;
}

static bool sort_value(const ptoc_type *e)
{
    return ptoc_type_is_float(e) && (e->u.fp.kind == PTOC_F16 || e->u.fp.kind == PTOC_F32);
}

static const ptoc_pto_tile_desc *desc(ptoc_op *op, uint32_t i)
{
    return vb_tile_desc(ptoc_op_operand(op, i)->type);
}

static ptoc_value *select_of(vop_builder *L, ptoc_value *c, ptoc_value *a, ptoc_value *b)
{
    ptoc_value *ops[3] = {c, a, b};
    return vb_result0(ptoc_builder_create(&L->b, "arith.select", 3, ops, 1, &a->type, 0, NULL, 0));
}

static ptoc_value *i64_of(vop_builder *L, ptoc_value *v)
{
    return vb_cast(L, "arith.index_castui", v, ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS));
}

/* The lanes from n on: pnot of plt(n) within all lanes. */
static ptoc_value *lanes_from(vop_builder *L, const vb_lanes *ln, ptoc_value *n)
{
    ptoc_pto_vop_id pset = ln->bits == 16 ? PTOC_PTO_VOP_PSET_B16 : PTOC_PTO_VOP_PSET_B32;
    ptoc_value *all = vb_result0(vb_vop(L, pset, 0, NULL, 1, &ln->mask, "pattern", "PAT_ALL", NULL, NULL));
    ptoc_value *ops[2] = {vb_first(L, ln, n), all};
    return vb_vop1(L, PTOC_PTO_VOP_PNOT, 2, ops, ln->mask, NULL, NULL);
}

static void store(vop_builder *L, ptoc_value *v, ptoc_value *p, ptoc_value *off, ptoc_value *m, unsigned bits)
{
    ptoc_value *ops[4] = {v, p, off, m};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, ops, 0, NULL, "dist", bits == 16 ? "NORM_B16" : "NORM_B32", NULL, NULL);
}

static ptoc_value *load(vop_builder *L, ptoc_value *p, ptoc_value *off, ptoc_type *vreg)
{
    ptoc_value *ops[2] = {p, off};
    return vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, ops, vreg, "dist", "NORM");
}

static void vbitsort(vop_builder *L, ptoc_value *dp, ptoc_value *doff, ptoc_value *sp, ptoc_value *soff,
                     ptoc_value *ip, ptoc_value *ioff, ptoc_value *repeat)
{
    ptoc_value *ops[7] = {dp, doff, sp, soff, ip, ioff, repeat};
    vb_vop(L, PTOC_PTO_VOP_VBITSORT, 7, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

/* ---------------------------------------------------------------- tsort32 */

typedef struct sort_ptrs {
    ptoc_value *sp, *ip, *dp, *dw; /* src, idx (ui32), dst, dst as ui32 words */
    vb_lanes val, word;            /* a register of values, of u32 words */
    unsigned esize;
} sort_ptrs;

/* The ragged tail block (n elements from element boff of the row) sorted in
 * place in dst's block at element dblk. */
static void sort_tail(vop_builder *L, const sort_ptrs *p, ptoc_value *n, ptoc_value *srow, ptoc_value *irow,
                      ptoc_value *boff, ptoc_value *dblk)
{
    unsigned per = 8 / p->esize;
    ptoc_value *kept = load(L, p->dp, dblk, p->val.vreg);
    ptoc_value *nan = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, (ptoc_value *[1]){vb_float(L, p->val.elem, NAN)},
                              p->val.vreg, NULL, NULL);
    ptoc_value *vals = load(L, p->sp, vb_arith(L, "arith.addi", srow, boff), p->val.vreg);
    ptoc_value *vsel[3] = {nan, vals, lanes_from(L, &p->val, n)};
    vals = vb_vop1(L, PTOC_PTO_VOP_VSEL, 3, vsel, p->val.vreg, NULL, NULL);
    store(L, vals, p->dp, dblk, vb_first(L, &p->val, vb_index(L, 32)), p->val.bits);
    ptoc_value *top = vb_int(L, ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS), -1);
    ptoc_value *big = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &top, p->word.vreg, NULL, NULL);
    ptoc_value *ids = load(L, p->ip, vb_arith(L, "arith.addi", irow, boff), p->word.vreg);
    ptoc_value *isel[3] = {big, ids, lanes_from(L, &p->word, n)};
    ids = vb_vop1(L, PTOC_PTO_VOP_VSEL, 3, isel, p->word.vreg, NULL, NULL);
    /* the indices in the block's second half: u32 word dblk * esize / 4 + 32 */
    ptoc_value *words = vb_arith(L, "arith.divui", vb_arith(L, "arith.muli", dblk, vb_index(L, p->esize)),
                                 vb_index(L, 4));
    words = vb_arith(L, "arith.addi", words, vb_index(L, 32));
    store(L, ids, p->dw, words, vb_first(L, &p->word, vb_index(L, 32)), 32);
    vbitsort(L, p->dp, dblk, p->dp, dblk, p->dw, words, vb_index(L, 1));
    ptoc_value *pairs = vb_arith(L, "arith.muli", n, vb_index(L, per));
    store(L, kept, p->dp, dblk, lanes_from(L, &p->val, pairs), p->val.bits);
}

static void sort_program(vop_builder *L, ptoc_value *src, ptoc_value *idx, ptoc_value *dst, bool with_tmp)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *i = vb_tile_desc(idx->type);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    ptoc_type *u32 = ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED);
    sort_ptrs p = {.val = vb_lanes_of(L, d->elem), .word = vb_lanes_of(L, u32),
                   .esize = ptoc_type_bitwidth(d->elem) / 8};
    int64_t fit = d->cols * (int64_t)p.esize / 256, per = 8 / p.esize;
    p.sp = vb_tile_ptr(L, src, s->elem);
    p.ip = vb_tile_ptr(L, idx, u32);
    p.dp = vb_tile_ptr(L, dst, d->elem);
    p.dw = with_tmp ? vb_tile_ptr(L, dst, u32) : NULL;
    ptoc_value *vcols = ptoc_op_result(vb_tile_valid(L, src), 1);
    ptoc_value *drows = ptoc_op_result(vb_tile_valid(L, dst), 0);
    ptoc_value *irows = ptoc_op_result(vb_tile_valid(L, idx), 0);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *c32 = vb_index(L, 32);
    ptoc_value *fits = vb_index(L, fit);
    ptoc_value *whole = vb_arith(L, "arith.minui", vb_arith(L, "arith.divui", vcols, c32), fits);
    /* a one-row idx serves every row: row stride 0 */
    ptoc_value *many = vb_arith(L, "arith.minui", vb_arith(L, "arith.subi", irows, one), one);
    ptoc_value *istride = vb_arith(L, "arith.muli", many, vb_index(L, i->cols));
    vb_loop rows;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, drows, one);
    ptoc_value *srow = vb_arith(L, "arith.muli", r, vb_index(L, s->cols));
    ptoc_value *irow = vb_arith(L, "arith.muli", r, istride);
    ptoc_value *drow = vb_arith(L, "arith.muli", r, vb_index(L, d->cols));
    vbitsort(L, p.dp, drow, p.sp, srow, p.ip, irow, whole);
    if (with_tmp) {
        ptoc_value *n = vb_arith(L, "arith.remui", vcols, c32);
        ptoc_value *go =
            vb_arith(L, "arith.andi", vb_cmpi(L, VB_CMP_NE, n, zero), vb_cmpi(L, VB_CMP_UGT, fits, whole));
        vb_if tail;
        vb_if_begin(L, &tail, go);
        ptoc_value *boff = vb_arith(L, "arith.muli", whole, c32);
        ptoc_value *dblk = vb_arith(L, "arith.addi", drow, vb_arith(L, "arith.muli", boff, vb_index(L, per)));
        sort_tail(L, &p, n, srow, irow, boff, dblk);
        vb_if_end(L, &tail);
    }
    vb_loop_end(L, &rows);
}

static void lower_tsort32(vop_builder *L, ptoc_op *op)
{
    int nins = vb_dps_ins(op);
    if (nins != 2 && nins != 3)
        return;
    const ptoc_pto_tile_desc *s = desc(op, 0), *i = desc(op, 1), *d = desc(op, (uint32_t)nins);
    if (!plain_vec(s) || !plain_vec(i) || !plain_vec(d) || s->elem != d->elem || !sort_value(d->elem) ||
        !ptoc_type_is_int(i->elem) || ptoc_type_bitwidth(i->elem) != 32)
        return;
    int64_t esize = ptoc_type_bitwidth(d->elem) / 8, fit = d->cols * esize / 256;
    /* vbitsort's 8-bit repeat; whole u32 words per dst row (the tail's index pads) */
    if (fit > 255 || (d->cols * esize) % 4 != 0)
        return;
    /* static blocks past dst's row: the cpu target's diagnostic */
    if (s->valid_cols >= 0 && (nins == 3 ? (s->valid_cols + 31) / 32 : s->valid_cols / 32) > fit)
        return;
    ptoc_value *tiles[4];
    for (int k = 0; k <= nins; k++)
        tiles[k] = ptoc_op_operand(op, (uint32_t)k);
    vb_open_vecscope(L, op, tiles, (uint32_t)nins + 1, 1);
    sort_program(L, tiles[0], tiles[1], tiles[nins], nins == 3);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- tmrgsort */

/* count (elements of dst's type) elements from sp[soff] to dp[doff]. */
static void copy_elems(vop_builder *L, ptoc_value *sp, ptoc_value *dp, ptoc_value *count, const vb_lanes *ln)
{
    vb_loop regs;
    ptoc_value *at = vb_loop_begin(L, &regs, vb_index(L, 0), count, vb_index(L, ln->count));
    ptoc_value *m = vb_first(L, ln, vb_arith(L, "arith.subi", count, at));
    store(L, load(L, sp, at, ln->vreg), dp, at, m, ln->bits);
    vb_loop_end(L, &regs);
}

static void vmrgsort4(vop_builder *L, ptoc_value *dp, ptoc_value *doff, ptoc_value *const *lp,
                      ptoc_value *const *loff, ptoc_value *count, ptoc_value *config)
{
    ptoc_value *ops[12] = {dp,      doff,    lp[0], loff[0], lp[1], loff[1],
                           lp[2],   loff[2], lp[3], loff[3], count, config};
    vb_vop(L, PTOC_PTO_VOP_VMRGSORT4, 12, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

/* ins(src0 .. src{n-1}, tmp) outs(dst). */
static void lists_program(vop_builder *L, ptoc_op *op, int n, bool exhausted)
{
    ptoc_value *tmp = ptoc_op_operand(op, (uint32_t)n), *dst = ptoc_op_operand(op, (uint32_t)n + 1);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    vb_lanes ln = vb_lanes_of(L, d->elem);
    int64_t per = 8 / (ptoc_type_bitwidth(d->elem) / 8);
    ptoc_type *i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem), *tp = vb_tile_ptr(L, tmp, d->elem);
    ptoc_value *dcols = ptoc_op_result(vb_tile_valid(L, dst), 1), *zero = vb_index(L, 0);
    ptoc_value *lp[4], *loff[4] = {zero, zero, zero, zero}, *count = vb_int(L, i64, 0);
    for (int k = 0; k < n; k++) {
        ptoc_value *src = ptoc_op_operand(op, (uint32_t)k);
        lp[k] = vb_tile_ptr(L, src, d->elem);
        ptoc_value *vcols = ptoc_op_result(vb_tile_valid(L, src), 1);
        ptoc_value *pairs = vb_arith(L, "arith.divui", vcols, vb_index(L, per));
        ptoc_value *field = vb_arith(L, "arith.shli", i64_of(L, pairs), vb_int(L, i64, 16 * k));
        count = vb_arith(L, "arith.ori", count, field);
    }
    for (int k = n; k < 4; k++)
        lp[k] = lp[0];                   /* disabled lists: any address */
    int64_t config = 1 | (int64_t)((1u << n) - 1) << 8 | (int64_t)exhausted << 12;
    copy_elems(L, dp, tp, dcols, &ln);   /* what the merge does not write stays dst's */
    vmrgsort4(L, tp, zero, lp, loff, count, vb_int(L, i64, config));
    copy_elems(L, tp, dp, dcols, &ln);
}

/* ins(src, blockLen) outs(dst): a vmrgsort4 per whole group in dst's valid columns. */
static void blocks_program(vop_builder *L, ptoc_value *src, ptoc_value *len, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    int64_t per = 8 / (ptoc_type_bitwidth(d->elem) / 8);
    ptoc_type *i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS);
    ptoc_value *sp = vb_tile_ptr(L, src, d->elem), *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_value *dcols = ptoc_op_result(vb_tile_valid(L, dst), 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1);
    if (len->type->kind != PTOC_TYPE_INDEX)
        len = vb_cast(L, "arith.index_castui", len, L->index);
    ptoc_value *rem = vb_arith(L, "arith.remui", len, vb_index(L, per));
    ptoc_value *whole =
        vb_arith(L, "arith.andi", vb_cmpi(L, VB_CMP_NE, len, zero), vb_cmpi(L, VB_CMP_EQ, rem, zero));
    ptoc_value *safe = select_of(L, whole, len, one);
    ptoc_value *group = vb_arith(L, "arith.muli", safe, vb_index(L, 4));
    ptoc_value *groups = select_of(L, whole, vb_arith(L, "arith.divui", dcols, group), zero);
    ptoc_value *pairs = i64_of(L, vb_arith(L, "arith.divui", safe, vb_index(L, per)));
    ptoc_value *count = vb_arith(L, "arith.muli", pairs, vb_int(L, i64, 0x0001000100010001));
    ptoc_value *config = vb_int(L, i64, 1 | 0xf << 8);
    vb_loop groups_loop;
    ptoc_value *g = vb_loop_begin(L, &groups_loop, zero, groups, one);
    ptoc_value *base = vb_arith(L, "arith.muli", g, group);
    ptoc_value *lp[4] = {sp, sp, sp, sp}, *loff[4];
    for (int k = 0; k < 4; k++)
        loff[k] = vb_arith(L, "arith.addi", base, vb_arith(L, "arith.muli", safe, vb_index(L, k)));
    vmrgsort4(L, dp, base, lp, loff, count, config);
    vb_loop_end(L, &groups_loop);
}

static void lower_tmrgsort(vop_builder *L, ptoc_op *op)
{
    uint32_t ins = 0, nouts = 0;
    /* outs(dst[, executed]): the executed counts are not kept (lower_pto_sort.c) */
    if (op->nresults || !ptoc_pto_dps_split(op, &ins, &nouts) || nouts < 1 || nouts > 2 || ins < 2 || ins > 5)
        return;
    int nins = (int)ins;
    const ptoc_pto_tile_desc *d = desc(op, (uint32_t)nins);
    if (!plain_vec(d) || !sort_value(d->elem))
        return;
    ptoc_value *tiles[6];
    for (int k = 0; k <= nins; k++)
        tiles[k] = ptoc_op_operand(op, (uint32_t)k);
    if (nins == 2 && !desc(op, 1)) {
        const ptoc_pto_tile_desc *s = desc(op, 0);
        if (!plain_vec(s) || s->elem != d->elem || !ptoc_type_is_int_or_index(tiles[1]->type))
            return;
        ptoc_value *vtiles[2] = {tiles[0], tiles[2]};
        vb_open_vecscope(L, op, vtiles, 2, 1);
        blocks_program(L, tiles[0], tiles[1], tiles[2]);
        ptoc_op_erase(op);
        return;
    }
    if (nins < 3)
        return;
    const ptoc_pto_tile_desc *t = desc(op, (uint32_t)nins - 1);
    int64_t total = 0;
    for (int k = 0; k + 1 < nins; k++) {
        const ptoc_pto_tile_desc *s = desc(op, (uint32_t)k);
        if (!plain_vec(s) || s->elem != d->elem || s->cols / (8 / (ptoc_type_bitwidth(d->elem) / 8)) > 0xffff)
            return;
        total += s->valid_cols >= 0 ? s->valid_cols : s->cols;
    }
    if (!plain_vec(t) || t->elem != d->elem || t->rows * t->cols < total || t->rows * t->cols < d->cols)
        return;
    ptoc_attr *ex = ptoc_op_attr(op, "exhausted");
    if (ex && ex->kind != PTOC_ATTR_BOOL)
        return;
    vb_open_vecscope(L, op, tiles, (uint32_t)nins + 1, 1);
    lists_program(L, op, nins - 1, ex && ex->u.boolean);
    ptoc_op_erase(op);
}

bool a5_sort_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TSORT32 || opcode == PTOC_PTO_OP_TMRGSORT;
}

void a5_sort_lower(vop_builder *L, ptoc_op *op)
{
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TSORT32)
        lower_tsort32(L, op);
    else
        lower_tmrgsort(L, op);
}
