/* lower_a5_random.c: trandom on A5 as the cpu target's generator
 * (lower_pto_fill.c: pto-isa's cpu model), in A5 integer micro-ops.
 *
 * a5/TRandom.hpp places a block's four words and advances the counter
 * differently from the cpu model (docs/decisions.md); the lowering keeps the
 * cpu model's placement, with the library's instructions for the rounds:
 *
 *   per row r, per chunk k of 256 columns: base = counter + (r * L + k) *
 *     (cols / 4), L = ceil(valid cols / 256), in scalar arith (128 bits as two
 *     i64 halves); lane i's counter base + i: vci of 0..63, vaddc into word 0,
 *     vaddcs of the carries into words 1..3 (ui32 lanes)
 *   rounds: vmull of x0 by 0xD2511F53 and x2 by 0xCD9E8D57 (low, high
 *     halves), vxor with x1 / x3 and the round's key (vbr, made once before
 *     the loops, the key advancing by 0x9E3779B9 and 0xBB67AE85)
 *   word w of lane i is element 64w + i of the chunk: four vsts NORM_B32, each
 *     under the predicate of the valid columns left from there
 */
#include "passes/lower_a5.h"
#include "ptoc/ptoc.h"

enum { MAX_ROUNDS = 10 };

typedef struct rnd {
    vb_lanes u;                 /* ui32 lanes */
    ptoc_type *i32, *i64;
    ptoc_value *keys[MAX_ROUNDS][2], *mul[2];
    int rounds;
} rnd;

static ptoc_value *op3(vop_builder *L, const rnd *R, ptoc_pto_vop_id id, ptoc_value *a, ptoc_value *b,
                       ptoc_value *m)
{
    ptoc_value *ops[3] = {a, b, m};
    return vb_vop1(L, id, 3, ops, R->u.vreg, NULL, NULL);
}

static ptoc_value *splat(vop_builder *L, const rnd *R, ptoc_value *s)
{
    return vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &s, R->u.vreg, NULL, NULL);
}

/* An integer scalar operand as i32 (truncated or sign-extended, as the cpu target reads it). */
static ptoc_value *as_i32(vop_builder *L, const rnd *R, ptoc_value *v)
{
    if (v->type->kind == PTOC_TYPE_INDEX)
        return vb_cast(L, "arith.index_cast", v, R->i32);
    unsigned bits = ptoc_type_bitwidth(v->type);
    if (bits == 32)
        return v->type == R->i32 ? v : vb_cast(L, "arith.bitcast", v, R->i32);
    return vb_cast(L, bits > 32 ? "arith.trunci" : "arith.extsi", v, R->i32);
}

static ptoc_value *lo_hi(vop_builder *L, const rnd *R, ptoc_value *lo, ptoc_value *hi)
{
    ptoc_value *h = vb_arith(L, "arith.shli", vb_cast(L, "arith.extui", hi, R->i64), vb_int(L, R->i64, 32));
    return vb_arith(L, "arith.ori", vb_cast(L, "arith.extui", lo, R->i64), h);
}

static ptoc_value *word(vop_builder *L, const rnd *R, ptoc_value *half, int high)
{
    if (high)
        half = vb_arith(L, "arith.shrui", half, vb_int(L, R->i64, 32));
    return vb_cast(L, "arith.trunci", half, R->i32);
}

/* The chunk's four counter words per lane: ctr (lo, hi: i64) + add + lane. */
static void counters(vop_builder *L, const rnd *R, ptoc_value *const ctr[2], ptoc_value *add, ptoc_value *all,
                     ptoc_value *x[4])
{
    ptoc_value *lo = vb_arith(L, "arith.addi", ctr[0], add);
    enum { CMP_ULT = 6 };
    ptoc_value *carry = vb_cast(L, "arith.extui", vb_cmpi(L, CMP_ULT, lo, ctr[0]), R->i64);
    ptoc_value *hi = vb_arith(L, "arith.addi", ctr[1], carry);
    ptoc_value *zero = vb_int(L, R->i32, 0);
    ptoc_value *lane = vb_vop1(L, PTOC_PTO_VOP_VCI, 1, &zero, R->u.vreg, "order", "ASC");
    ptoc_value *zeros = splat(L, R, zero);
    ptoc_type *two[2] = {R->u.vreg, R->u.mask};
    ptoc_value *ops[4] = {splat(L, R, word(L, R, lo, 0)), lane, all, NULL};
    ptoc_op *s = vb_vop(L, PTOC_PTO_VOP_VADDC, 3, ops, 2, two, NULL, NULL, NULL, NULL);
    x[0] = ptoc_op_result(s, 0);
    for (int i = 1; i < 4; i++) {
        ptoc_value *w = word(L, R, i < 2 ? lo : hi, i & 1);
        ptoc_value *cops[4] = {splat(L, R, w), zeros, ptoc_op_result(s, 1), all};
        s = vb_vop(L, PTOC_PTO_VOP_VADDCS, 4, cops, 2, two, NULL, NULL, NULL, NULL);
        x[i] = ptoc_op_result(s, 0);
    }
}

static void rounds(vop_builder *L, const rnd *R, ptoc_value *x[4], ptoc_value *all)
{
    ptoc_type *two[2] = {R->u.vreg, R->u.vreg};
    for (int i = 0; i < R->rounds; i++) {
        ptoc_value *o0[3] = {x[0], R->mul[0], all}, *o1[3] = {x[2], R->mul[1], all};
        ptoc_op *p0 = vb_vop(L, PTOC_PTO_VOP_VMULL, 3, o0, 2, two, NULL, NULL, NULL, NULL);
        ptoc_op *p1 = vb_vop(L, PTOC_PTO_VOP_VMULL, 3, o1, 2, two, NULL, NULL, NULL, NULL);
        ptoc_value *t0 = op3(L, R, PTOC_PTO_VOP_VXOR, ptoc_op_result(p1, 1), x[1], all);
        ptoc_value *n0 = op3(L, R, PTOC_PTO_VOP_VXOR, t0, R->keys[i][0], all);
        ptoc_value *t2 = op3(L, R, PTOC_PTO_VOP_VXOR, ptoc_op_result(p0, 1), x[3], all);
        ptoc_value *n2 = op3(L, R, PTOC_PTO_VOP_VXOR, t2, R->keys[i][1], all);
        x[1] = ptoc_op_result(p1, 0);
        x[3] = ptoc_op_result(p0, 0);
        x[0] = n0;
        x[2] = n2;
    }
}

void a5_random_lower(vop_builder *L, ptoc_op *op)
{
    ptoc_value *dst = op->noperands == 7 ? ptoc_op_operand(op, 6) : NULL;
    const ptoc_pto_tile_desc *d = dst ? vb_tile_desc(dst->type) : NULL;
    ptoc_attr *ra = ptoc_op_attr(op, "rounds");
    int64_t nr = ra && ra->kind == PTOC_ATTR_INTEGER ? ra->u.integer.value : 10;
    if (!d || d->loc != PTOC_PTO_AS_VEC || d->blayout != PTOC_PTO_BL_ROW_MAJOR ||
        !ptoc_type_is_int(d->elem) || ptoc_type_bitwidth(d->elem) != 32 || (nr != 7 && nr != 10))
        return;
    for (uint32_t i = 0; i < 6; i++) {
        ptoc_type *t = ptoc_op_operand(op, i)->type;
        if (!ptoc_type_is_int(t) && t->kind != PTOC_TYPE_INDEX)
            return;
    }
    ptoc_value *tiles[1] = {dst};
    vb_open_vecscope(L, op, tiles, 1, 1);
    rnd R = {vb_lanes_of(L, ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED)),
             ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS), ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS), {{0}}, {0},
             (int)nr};
    ptoc_value *k[2] = {as_i32(L, &R, ptoc_op_operand(op, 0)), as_i32(L, &R, ptoc_op_operand(op, 1))};
    static const int64_t step[2] = {0x9E3779B9, 0xBB67AE85}, mul[2] = {0xD2511F53, 0xCD9E8D57};
    for (int i = 0; i < R.rounds; i++)
        for (int j = 0; j < 2; j++) {
            R.keys[i][j] = splat(L, &R, k[j]);
            k[j] = vb_arith(L, "arith.addi", k[j], vb_int(L, R.i32, (int32_t)(uint32_t)step[j]));
        }
    for (int j = 0; j < 2; j++)
        R.mul[j] = splat(L, &R, vb_int(L, R.i32, (int32_t)(uint32_t)mul[j]));
    ptoc_value *c[4];
    for (int i = 0; i < 4; i++)
        c[i] = as_i32(L, &R, ptoc_op_operand(op, 2 + (uint32_t)i));
    ptoc_value *ctr[2] = {lo_hi(L, &R, c[0], c[1]), lo_hi(L, &R, c[2], c[3])};
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_type *dvreg = ptoc_pto_vreg_type_get(L->ctx, d->elem, 64);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *chunk = vb_index(L, 256);
    ptoc_value *all = vb_first(L, &R.u, vb_index(L, 64));
    ptoc_value *up = vb_arith(L, "arith.addi", vcols, vb_index(L, 255));
    ptoc_value *nchunks = vb_arith(L, "arith.divui", up, chunk);
    ptoc_value *adv = vb_index(L, d->cols / 4), *stride = vb_index(L, d->cols);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *first = vb_arith(L, "arith.muli", r, nchunks);
    ptoc_value *cc = vb_loop_begin(L, &cols, zero, vcols, chunk);
    ptoc_value *kk = vb_arith(L, "arith.addi", first, vb_arith(L, "arith.divui", cc, chunk));
    ptoc_value *add = vb_cast(L, "arith.index_cast", vb_arith(L, "arith.muli", kk, adv), R.i64);
    ptoc_value *x[4];
    counters(L, &R, ctr, add, all, x);
    rounds(L, &R, x, all);
    ptoc_value *rowoff = vb_arith(L, "arith.muli", r, stride);
    for (int w = 0; w < 4; w++) {
        ptoc_value *at = vb_arith(L, "arith.addi", cc, vb_index(L, 64 * w));
        ptoc_value *left = vb_arith(L, "arith.maxsi", vb_arith(L, "arith.subi", vcols, at), zero);
        ptoc_value *v = vb_vop1(L, PTOC_PTO_VOP_VBITCAST, 1, &x[w], dvreg, NULL, NULL);
        ptoc_value *sops[4] = {v, dp, vb_arith(L, "arith.addi", rowoff, at), vb_first(L, &R.u, left)};
        vb_vop(L, PTOC_PTO_VOP_VSTS, 4, sops, 0, NULL, "dist", "NORM_B32", NULL, NULL);
    }
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
    ptoc_op_erase(op);
}
