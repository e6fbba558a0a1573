/* lower_a5_argf.c: trowargmax / trowargmin of float rows on A5, with the
 * cpu target's rule: the first strictly best element, a NaN never better, a
 * NaN first element the result (index 0).
 *
 * a5/TRowReduceIdx.hpp's vcmax tree and cross-register vcmp do not keep that
 * rule with NaNs (docs/decisions.md), so the program is compares and selects:
 * every element in f32 lanes (f16 and bf16 widened exactly: vlds UNPK_B16,
 * vcvt EVEN), per row
 *
 *   best = NaN, idx = INT32_MAX in every lane (no element yet)
 *   per register of 64 columns c..: col = vci(c); a lane takes x when
 *     x > best (x < best for min) or best is NaN and x is not (vcmp, pand,
 *     por under the tail predicate); vsel of value and column
 *   the lanes without an element read -inf (+inf): vcmp eq, vsel
 *   m = vcmax (vcmin) of them, vdup LOWEST; the smallest column among the
 *     lanes equal to m (vcmp eq, vsel with INT32_MAX, vcmin): the first
 *     column holding the row's best, as the cpu target's strict scan keeps
 *   index 0 when the row's first element is NaN (vcmp ne, vsel)
 *   vsts of lane 0
 */
#include "passes/lower_a5.h"
#include "ptoc/ptoc.h"

#include <math.h>
#include <stdint.h>

typedef struct argf {
    vb_lanes f, ix;             /* f32 data lanes, the index tile's 32-bit lanes */
    ptoc_type *half;            /* the 16-bit source's register (NULL for f32 data) */
    ptoc_value *sp, *all;
    bool max;
} argf;

static ptoc_value *op3(vop_builder *L, ptoc_pto_vop_id id, ptoc_value *a, ptoc_value *b, ptoc_value *m,
                       ptoc_type *t)
{
    ptoc_value *ops[3] = {a, b, m};
    return vb_vop1(L, id, 3, ops, t, NULL, NULL);
}

static ptoc_value *cmp(vop_builder *L, const argf *A, ptoc_value *a, ptoc_value *b, ptoc_value *m,
                       const char *mode)
{
    ptoc_value *ops[3] = {a, b, m};
    return vb_vop1(L, PTOC_PTO_VOP_VCMP, 3, ops, A->f.mask, "cmp_mode", mode);
}

/* 64 elements at off as f32 lanes. */
static ptoc_value *load(vop_builder *L, const argf *A, ptoc_value *off)
{
    ptoc_value *ops[2] = {A->sp, off};
    if (!A->half)
        return vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, ops, A->f.vreg, "dist", "NORM");
    ptoc_value *v = vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, ops, A->half, "dist", "UNPK_B16");
    ptoc_type *m16 = ptoc_pto_mask_type_get(L->ctx, 16);
    ptoc_value *all16 = vb_vop1(L, PTOC_PTO_VOP_PSET_B16, 0, NULL, m16, "pattern", "PAT_ALL");
    ptoc_value *cops[2] = {v, all16};
    return vb_vop1(L, PTOC_PTO_VOP_VCVT, 2, cops, A->f.vreg, "part", "EVEN");
}

/* One register of the row: best and idx (acc[0], acc[1]) take the lanes where x is better. */
static void step(vop_builder *L, const argf *A, ptoc_value *x, ptoc_value *col, ptoc_value *tail,
                 ptoc_value **acc)
{
    ptoc_value *strict = cmp(L, A, x, acc[0], tail, A->max ? "gt" : "lt");
    ptoc_value *empty = cmp(L, A, acc[0], acc[0], tail, "ne");     /* (one statement each: the ops' order) */
    ptoc_value *number = cmp(L, A, x, x, tail, "eq");
    ptoc_value *fresh = op3(L, PTOC_PTO_VOP_PAND, empty, number, tail, A->f.mask);
    ptoc_value *better = op3(L, PTOC_PTO_VOP_POR, strict, fresh, tail, A->f.mask);
    acc[0] = op3(L, PTOC_PTO_VOP_VSEL, x, acc[0], better, A->f.vreg);
    acc[1] = op3(L, PTOC_PTO_VOP_VSEL, col, acc[1], better, A->ix.vreg);
}

/* The first column holding the row's best, from the lanes' bests and columns. */
static ptoc_value *first_best(vop_builder *L, const argf *A, ptoc_value *best, ptoc_value *idx,
                              ptoc_value *big)
{
    ptoc_value *none = vb_float(L, A->f.elem, A->max ? -INFINITY : INFINITY);
    ptoc_value *nones = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &none, A->f.vreg, NULL, NULL);
    ptoc_value *numbers = cmp(L, A, best, best, A->all, "eq");
    ptoc_value *clean = op3(L, PTOC_PTO_VOP_VSEL, best, nones, numbers, A->f.vreg);
    ptoc_value *rops[2] = {clean, A->all};
    ptoc_pto_vop_id reduce = A->max ? PTOC_PTO_VOP_VCMAX : PTOC_PTO_VOP_VCMIN;
    ptoc_value *m = vb_vop1(L, reduce, 2, rops, A->f.vreg, NULL, NULL);
    ptoc_value *dops[2] = {m, A->all};
    m = vb_vop1(L, PTOC_PTO_VOP_VDUP, 2, dops, A->f.vreg, "position", "LOWEST");
    ptoc_value *bigs = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &big, A->ix.vreg, NULL, NULL);
    ptoc_value *cand = op3(L, PTOC_PTO_VOP_VSEL, idx, bigs, cmp(L, A, clean, m, A->all, "eq"), A->ix.vreg);
    ptoc_value *iops[2] = {cand, A->all};
    return vb_vop1(L, PTOC_PTO_VOP_VCMIN, 2, iops, A->ix.vreg, NULL, NULL);
}

void a5_row_argf_program(vop_builder *L, ptoc_op *op, ptoc_value *src, ptoc_value *dst, int64_t dst_stride)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    ptoc_type *f32 = ptoc_type_float(L->ctx, PTOC_F32), *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    argf A = {vb_lanes_of(L, f32), vb_lanes_of(L, d->elem), NULL, NULL, NULL,
              ptoc_pto_opcode(op) == PTOC_PTO_OP_TROWARGMAX};
    if (ptoc_type_bitwidth(s->elem) == 16)
        A.half = ptoc_pto_vreg_type_get(L->ctx, s->elem, 128);
    A.sp = vb_tile_ptr(L, src, s->elem);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step64 = vb_index(L, A.f.count);
    ptoc_value *sstride = vb_index(L, s->cols), *dstride = vb_index(L, dst_stride);
    A.all = vb_first(L, &A.f, step64);
    ptoc_value *lane0 = vb_first(L, &A.f, one);
    ptoc_value *nan = vb_float(L, f32, NAN), *big = vb_int(L, i32, INT32_MAX), *izero = vb_int(L, i32, 0);
    ptoc_value *nans = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &nan, A.f.vreg, NULL, NULL);
    ptoc_value *bigs = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &big, A.ix.vreg, NULL, NULL);
    ptoc_value *zeros = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &izero, A.ix.vreg, NULL, NULL);
    vb_loop rows;
    ptoc_value *row = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *base = vb_arith(L, "arith.muli", row, sstride);
    /* acc: the lanes' bests and their columns, as a two-value carried loop */
    ptoc_value *acc[2] = {nans, bigs};
    ptoc_value *ops[5] = {zero, vcols, step64, acc[0], acc[1]};
    ptoc_type *types[2] = {A.f.vreg, A.ix.vreg};
    ptoc_op *loop = ptoc_builder_create(&L->b, "scf.for", 5, ops, 2, types, 0, NULL, 1);
    ptoc_block *body = ptoc_block_create(L->b.arena);
    ptoc_value *c = ptoc_block_add_arg(body, L->b.arena, L->index, L->b.loc);
    acc[0] = ptoc_block_add_arg(body, L->b.arena, types[0], L->b.loc);
    acc[1] = ptoc_block_add_arg(body, L->b.arena, types[1], L->b.loc);
    ptoc_region_append(&loop->regions[0], body);
    ptoc_builder after = L->b;
    uint32_t nconsts = L->nconsts;
    ptoc_builder_set_end(&L->b, body);
    ptoc_value *tail = vb_first(L, &A.f, vb_arith(L, "arith.subi", vcols, c));
    ptoc_value *cs = vb_cast(L, "arith.index_cast", c, i32);
    ptoc_value *col = vb_vop1(L, PTOC_PTO_VOP_VCI, 1, &cs, A.ix.vreg, "order", "ASC");
    step(L, &A, load(L, &A, vb_arith(L, "arith.addi", base, c)), col, tail, acc);
    ptoc_builder_create(&L->b, "scf.yield", 2, acc, 0, NULL, 0, NULL, 0);
    L->b = after;
    L->nconsts = nconsts;
    ptoc_value *idx = first_best(L, &A, ptoc_op_result(loop, 0), ptoc_op_result(loop, 1), big);
    ptoc_value *x0 = load(L, &A, base);
    idx = op3(L, PTOC_PTO_VOP_VSEL, zeros, idx, cmp(L, &A, x0, x0, lane0, "ne"), A.ix.vreg);
    ptoc_value *sops[4] = {idx, dp, vb_arith(L, "arith.muli", row, dstride), lane0};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, sops, 0, NULL, "dist", "NORM_B32", NULL, NULL);
    vb_loop_end(L, &rows);
}
