/* split_u64.c: the "pto-split-u64" pass: 64-bit micro-ops as lo/hi pairs.
 *
 * A5 has no 64-bit vector arithmetic: the hardware library (pto-isa
 * include/pto/npu/a5/Int64*.hpp) keeps an i64/u64 register as two u32
 * registers, the low and the high words of each element, and computes on
 * them. This pass does the same to the micro-op programs in pto.vecscope
 * bodies: every value of type !pto.vreg<64xi64> or <64xui64> becomes a pair
 * of !pto.vreg<64xui32>, and each op on such values becomes ops on the pairs:
 *
 *   vlds NORM            vldsx2 DINTLV_B32 of the words (lo: even, hi: odd)
 *   vsts NORM_B32        vstsx2 INTLV_B32
 *   vbr s                vbr of s's low word, vbr of its high word
 *   vadd, vadds          vaddc on the lows, vaddcs on the highs with the carry
 *   vsub, vsubs          vsubc, vsubcs with the borrow
 *   vmul, vmuls          vmull of the lows (a 64-bit product), plus both cross
 *                        products into the high word by vmula
 *   vand, vor, vxor      per half
 *   vcmp, vcmps          eq: both halves equal (pand); ne: either differs
 *                        (por); the orders: the highs' strict order, or
 *                        equal highs and the lows' order (unsigned), a signed
 *                        type comparing its highs with the sign bit flipped
 *   vmax, vmin (+s)      that compare, then vsel per half
 *   vsel                 per half
 *   vshl, vshr (+s)      word shifts (vshl, vshr; vshr on i32 lanes for a
 *                        signed type) and the bits crossing between the
 *                        words (shift below)
 *   vdiv                 the library's Int64Div: the magnitudes (signed), a
 *                        float estimate of 2^64 / d from the words (vcvt, an
 *                        f32 vdiv), two Newton steps on it (vmull, and vaddc/
 *                        vaddcs for a 128-bit product's high word), that high
 *                        word of n times it, two corrections by the
 *                        remainder, the sign; compares settle d = 0 (all
 *                        ones, as on the cpu target), d = 1 and d >= 2^63
 *
 * A 64-bit lane is predicated by its b32 lane (`!pto.vreg<64xi64>` is
 * predicated at b32), which is the same lane of each half, so predicates pass
 * through unchanged. MERGING keeps the first source's halves (a vsel after
 * the zeroing op). The pointers of the loads and stores become pointers to
 * the tile's 32-bit words (tile_ptr of a 64-bit tile may give one), at twice
 * the offset.
 *
 * A vecscope with a 64-bit op this pass cannot split (one not above, such as
 * a vlds of another distribution, or a 64-bit pointer not from a
 * tile_ptr) is left whole, as 64-bit micro-ops.
 *
 * Requires: micro-op programs in vecscopes (pto-lower-a5).
 * Produces: no 64-bit register in the vecscopes it splits.
 */
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/util.h"

#include <stdint.h>
#include <string.h>

typedef struct pair { ptoc_value *lo, *hi; } pair;

typedef struct split {
    vop_builder vb;
    ptoc_arena *tmp;
    ptoc_ptrmap pairs;          /* 64-bit register -> pair; in lo: 64-bit pointer -> its words',
                                 * element offset -> twice it */
    ptoc_type *half, *mask, *i32, *i64, *f32, *floats;   /* floats: !pto.vreg<64xf32> */
    ptoc_value *zero, *one, *sign;  /* while a division is built: its words 0, 1 and 2^31 */
    ptoc_op_varr dead;          /* the split ops, erased at the end, last first */
} split;

/* ---------------------------------------------------------------- which ops */

static bool is_wide(const ptoc_type *t)
{
    const ptoc_pto_vreg *v = ptoc_pto_vreg_type(t);
    return v && ptoc_type_is_int(v->elem) && ptoc_type_bitwidth(v->elem) == 64;
}

static bool wide_ptr(const ptoc_type *t)
{
    const ptoc_type *e = ptoc_pto_ub_ptr_elem(t);
    return e && ptoc_type_is_int(e) && ptoc_type_bitwidth(e) == 64;
}

static bool touches_wide(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++)
        if (is_wide(ptoc_op_operand(op, i)->type))
            return true;
    for (uint32_t i = 0; i < op->nresults; i++)
        if (is_wide(op->results[i].type))
            return true;
    return false;
}

static const char *str_attr(const ptoc_op *op, const char *name, const char *fallback)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : fallback;
}

static bool splittable(const ptoc_op *op)
{
    switch (ptoc_pto_vop(op)) {
    case PTOC_PTO_VOP_VLDS: return !strcmp(str_attr(op, "dist", "NORM"), "NORM") && !ptoc_op_attr(op, "post_update");
    case PTOC_PTO_VOP_VSTS:
        return !strcmp(str_attr(op, "dist", "NORM_B32"), "NORM_B32") && !ptoc_op_attr(op, "post_update");
    case PTOC_PTO_VOP_VBR: case PTOC_PTO_VOP_VADD: case PTOC_PTO_VOP_VADDS: case PTOC_PTO_VOP_VSUB:
    case PTOC_PTO_VOP_VSUBS: case PTOC_PTO_VOP_VMUL: case PTOC_PTO_VOP_VMULS: case PTOC_PTO_VOP_VAND:
    case PTOC_PTO_VOP_VOR: case PTOC_PTO_VOP_VXOR: case PTOC_PTO_VOP_VCMP: case PTOC_PTO_VOP_VCMPS:
    case PTOC_PTO_VOP_VMAX: case PTOC_PTO_VOP_VMIN: case PTOC_PTO_VOP_VMAXS: case PTOC_PTO_VOP_VMINS:
    case PTOC_PTO_VOP_VSEL: case PTOC_PTO_VOP_VDIV: case PTOC_PTO_VOP_VSHL: case PTOC_PTO_VOP_VSHR:
    case PTOC_PTO_VOP_VSHLS: case PTOC_PTO_VOP_VSHRS:
        return true;
    default: return false;
    }
}

typedef struct scan { bool ok, any; } scan;

/* Every 64-bit op splits, and every 64-bit pointer comes from a tile_ptr. */
static ptoc_walk_result check_op(ptoc_op *op, void *user)
{
    scan *s = user;
    if (ptoc_pto_vop(op) == PTOC_PTO_VOP_TILE_PTR || !touches_wide(op)) {
        for (uint32_t i = 0; i < op->noperands && ptoc_pto_vop(op) != PTOC_PTO_VOP_TILE_PTR; i++)
            if (wide_ptr(ptoc_op_operand(op, i)->type))
                s->ok = false;              /* a 64-bit pointer some other op reads */
        return PTOC_WALK_ADVANCE;
    }
    s->any = true;
    s->ok &= splittable(op);
    for (uint32_t i = 0; i < op->noperands; i++) {
        ptoc_op *def = ptoc_value_def(ptoc_op_operand(op, i));
        if (wide_ptr(ptoc_op_operand(op, i)->type) && (!def || ptoc_pto_vop(def) != PTOC_PTO_VOP_TILE_PTR))
            s->ok = false;
    }
    return s->ok ? PTOC_WALK_ADVANCE : PTOC_WALK_INTERRUPT;
}

/* ---------------------------------------------------------------- building */

static ptoc_value *res(ptoc_op *op, uint32_t i) { return ptoc_op_result(op, i); }

static ptoc_op *op1(split *S, ptoc_pto_vop_id id, uint32_t n, ptoc_value *const *ops, uint32_t nres,
                    ptoc_type *const *types, const char *k, const char *v)
{
    return vb_vop(&S->vb, id, n, ops, nres, types, k, v, NULL, NULL);
}

static pair pair_of(split *S, const ptoc_value *v)
{
    const ptoc_ptrmap_entry *e = ptoc_ptrmap_find(&S->pairs, v);
    return e ? *(pair *)e->val.ptr : (pair){NULL, NULL};
}

static void set_pair(split *S, const ptoc_value *v, ptoc_value *lo, ptoc_value *hi)
{
    pair *p = PTOC_NEW(S->tmp, pair);
    *p = (pair){lo, hi};
    ptoc_ptrmap_put(&S->pairs, v, p);
}

/* The words of a 64-bit scalar, as i32 (the halves' scalar type). */
static pair scalar_words(split *S, ptoc_value *s)
{
    ptoc_value *wide = s->type == S->i64 ? s : vb_cast(&S->vb, "arith.extsi", s, S->i64);
    ptoc_value *high = vb_arith(&S->vb, "arith.shrui", wide, vb_int(&S->vb, S->i64, 32));
    ptoc_value *lo = vb_cast(&S->vb, "arith.trunci", wide, S->i32);
    return (pair){lo, vb_cast(&S->vb, "arith.trunci", high, S->i32)};
}

static pair broadcast(split *S, ptoc_value *s)
{
    pair w = scalar_words(S, s);
    ptoc_value *lo = vb_result0(op1(S, PTOC_PTO_VOP_VBR, 1, &w.lo, 1, &S->half, NULL, NULL));
    return (pair){lo, vb_result0(op1(S, PTOC_PTO_VOP_VBR, 1, &w.hi, 1, &S->half, NULL, NULL))};
}

/* The second operand of a binary op: a pair, or a scalar broadcast. */
static pair second(split *S, const ptoc_op *op)
{
    ptoc_value *b = ptoc_op_operand(op, 1);
    return is_wide(b->type) ? pair_of(S, b) : broadcast(S, b);
}

/* A binary op (or vsel) of registers x, y under m, giving a `type` register. */
static ptoc_value *vop3(split *S, ptoc_pto_vop_id id, ptoc_value *x, ptoc_value *y, ptoc_value *m, ptoc_type *type)
{
    ptoc_value *ops[3] = {x, y, m};
    return vb_result0(op1(S, id, 3, ops, 1, &type, NULL, NULL));
}

static ptoc_value *half_op(split *S, ptoc_pto_vop_id id, ptoc_value *x, ptoc_value *y, ptoc_value *m)
{
    return vop3(S, id, x, y, m, S->half);
}

/* A half with every lane the word v. */
static ptoc_value *word(split *S, int64_t v)
{
    ptoc_value *c = vb_int(&S->vb, S->i32, v);
    return vb_result0(op1(S, PTOC_PTO_VOP_VBR, 1, &c, 1, &S->half, NULL, NULL));
}

static ptoc_value *cmp(split *S, ptoc_value *x, ptoc_value *y, ptoc_value *seed, const char *mode)
{
    ptoc_value *ops[3] = {x, y, seed};
    return vb_result0(op1(S, PTOC_PTO_VOP_VCMP, 3, ops, 1, &S->mask, "cmp_mode", mode));
}

static ptoc_value *plogic(split *S, ptoc_pto_vop_id id, ptoc_value *x, ptoc_value *y, ptoc_value *within)
{
    ptoc_value *ops[3] = {x, y, within};
    return vb_result0(op1(S, id, 3, ops, 1, &S->mask, NULL, NULL));
}

/* a CMP b on 64-bit lanes, within `seed`. */
static ptoc_value *compare64(split *S, pair a, pair b, ptoc_value *seed, const char *mode, bool is_signed)
{
    if (!strcmp(mode, "eq") || !strcmp(mode, "ne")) {
        bool eq = !strcmp(mode, "eq");
        ptoc_value *lo = cmp(S, a.lo, b.lo, seed, mode);    /* (one statement each: the ops' order) */
        ptoc_value *hi = cmp(S, a.hi, b.hi, seed, mode);
        return plogic(S, eq ? PTOC_PTO_VOP_PAND : PTOC_PTO_VOP_POR, lo, hi, seed);
    }
    ptoc_value *ahi = a.hi, *bhi = b.hi;
    if (is_signed) {                    /* signed order of the highs: flip the sign bits, compare unsigned */
        ptoc_value *flip = word(S, INT32_MIN);
        ahi = half_op(S, PTOC_PTO_VOP_VXOR, ahi, flip, seed);
        bhi = half_op(S, PTOC_PTO_VOP_VXOR, bhi, flip, seed);
    }
    const char *strict = mode[0] == 'l' ? "lt" : "gt";
    ptoc_value *hi_order = cmp(S, ahi, bhi, seed, strict);
    ptoc_value *hi_equal = cmp(S, a.hi, b.hi, seed, "eq");
    ptoc_value *lo_order = cmp(S, a.lo, b.lo, seed, mode);
    ptoc_value *tie = plogic(S, PTOC_PTO_VOP_PAND, hi_equal, lo_order, seed);
    return plogic(S, PTOC_PTO_VOP_POR, hi_order, tie, seed);
}

static pair select_halves(split *S, pair a, pair b, ptoc_value *sel)
{
    ptoc_value *lo = half_op(S, PTOC_PTO_VOP_VSEL, a.lo, b.lo, sel);
    return (pair){lo, half_op(S, PTOC_PTO_VOP_VSEL, a.hi, b.hi, sel)};
}

/* The halves of a ZEROING result, with 0 in the lanes off in m. */
static pair zero_outside(split *S, pair r, ptoc_value *m)
{
    ptoc_value *zero = word(S, 0);
    return select_halves(S, r, (pair){zero, zero}, m);
}

static bool signed_lanes(const ptoc_op *op)
{
    const ptoc_type *e = ptoc_pto_vreg_type(ptoc_op_operand(op, 0)->type)->elem;
    return e->u.integer.sign != PTOC_UNSIGNED;
}

/* ---------------------------------------------------------------- arithmetic */

/* x + y (sub: x - y) on words, with the carry (borrow) in when carry_in is
 * given (vaddcs, vsubcs): results the word and the carry (borrow) out. */
static ptoc_op *carry_op(split *S, bool sub, ptoc_value *x, ptoc_value *y, ptoc_value *carry_in, ptoc_value *m)
{
    ptoc_type *two[2] = {S->half, S->mask};
    ptoc_value *ops[4] = {x, y, carry_in ? carry_in : m, m};
    if (!carry_in)
        return op1(S, sub ? PTOC_PTO_VOP_VSUBC : PTOC_PTO_VOP_VADDC, 3, ops, 2, two, NULL, NULL);
    return op1(S, sub ? PTOC_PTO_VOP_VSUBCS : PTOC_PTO_VOP_VADDCS, 4, ops, 2, two, NULL, NULL);
}

static pair add_sub(split *S, pair a, pair b, ptoc_value *m, bool sub)
{
    ptoc_op *low = carry_op(S, sub, a.lo, b.lo, NULL, m);
    ptoc_op *high = carry_op(S, sub, a.hi, b.hi, res(low, 1), m);
    return (pair){res(low, 0), res(high, 0)};
}

/* The 64-bit products of words x * y: the low words, then the high ones. */
static ptoc_op *mull(split *S, ptoc_value *x, ptoc_value *y, ptoc_value *m)
{
    ptoc_type *two[2] = {S->half, S->half};
    ptoc_value *ops[3] = {x, y, m};
    return op1(S, PTOC_PTO_VOP_VMULL, 3, ops, 2, two, NULL, NULL);
}

/* lo(a*b) = lo(alo*blo); hi = hi(alo*blo) + alo*bhi + ahi*blo (the low words). */
static pair mul(split *S, pair a, pair b, ptoc_value *m)
{
    ptoc_op *p = mull(S, a.lo, b.lo, m);
    ptoc_value *acc[4] = {res(p, 1), a.lo, b.hi, m};
    ptoc_value *hi = vb_result0(op1(S, PTOC_PTO_VOP_VMULA, 4, acc, 1, &S->half, NULL, NULL));
    ptoc_value *acc2[4] = {hi, a.hi, b.lo, m};
    hi = vb_result0(op1(S, PTOC_PTO_VOP_VMULA, 4, acc2, 1, &S->half, NULL, NULL));
    return (pair){res(p, 0), hi};
}

/* ---------------------------------------------------------------- division */

/* The hardware library's 64-bit division (a5/Int64Div.hpp): a float estimate
 * r of 2^64 / d, two Newton steps on it, the quotient as the high word of
 * n * r, then at most two corrections; d = 0, d = 1 and d >= 2^63 (where r
 * would not fit, or would have no precision) are settled by compares. The
 * library converts between i64 and f32 in 64-bit registers; here the
 * conversions go through the words, and the estimate is biased further down
 * to cover their extra rounding (docs/decisions.md). */

static ptoc_value *pnot(split *S, ptoc_value *x, ptoc_value *within)
{
    ptoc_value *ops[2] = {x, within};
    return vb_result0(op1(S, PTOC_PTO_VOP_PNOT, 2, ops, 1, &S->mask, NULL, NULL));
}

/* vcvt of x to a `to` register; rnd: the rounding of a float to an integer. */
static ptoc_value *convert(split *S, ptoc_value *x, ptoc_type *to, ptoc_value *m, const char *rnd)
{
    ptoc_value *ops[2] = {x, m};
    return vb_result0(op1(S, PTOC_PTO_VOP_VCVT, 2, ops, 1, &to, rnd ? "rnd" : NULL, rnd));
}

/* f32 lanes times k, a power of two: exact. */
static ptoc_value *scale(split *S, ptoc_value *x, double k, ptoc_value *m)
{
    ptoc_value *ops[3] = {x, vb_float(&S->vb, S->f32, k), m};
    return vb_result0(op1(S, PTOC_PTO_VOP_VMULS, 3, ops, 1, &S->floats, NULL, NULL));
}

/* hi * 2^32 + lo in f32, within 2^-23 of the value (two roundings). */
static ptoc_value *to_float(split *S, pair a, ptoc_value *m)
{
    ptoc_value *hi = scale(S, convert(S, a.hi, S->floats, m, NULL), 0x1p32, m);
    return vop3(S, PTOC_PTO_VOP_VADD, hi, convert(S, a.lo, S->floats, m, NULL), m, S->floats);
}

/* The integer part of f32 lanes in [0, 2^63): the high word is that of
 * f / 2^32, and f less it is exact in f32 (its low bits). */
static pair from_float(split *S, ptoc_value *f, ptoc_value *m)
{
    ptoc_value *hi = convert(S, scale(S, f, 0x1p-32, m), S->half, m, "Z");
    ptoc_value *back = scale(S, convert(S, hi, S->floats, m, NULL), 0x1p32, m);
    ptoc_value *rest = vop3(S, PTOC_PTO_VOP_VSUB, f, back, m, S->floats);
    return (pair){convert(S, rest, S->half, m, "Z"), hi};
}

/* For 2 <= d < 2^63: (2^64 - 2^43) / float(d), which is 2^64 / float(d) less
 * 2^-21 of it. float(d) from the words errs by up to 2^-23 and the division
 * rounds by 2^-24, so the estimate stays below 2^64 / d (a Newton step needs
 * d * r <= 2^64) and within 2^-20 of it. The library, converting d rounded
 * once, takes 2 ulps off. */
static pair reciprocal(split *S, pair d, ptoc_value *m)
{
    ptoc_value *df = to_float(S, d, m);
    ptoc_value *c = vb_float(&S->vb, S->f32, 0x1p64 - 0x1p43);
    ptoc_value *num = vb_result0(op1(S, PTOC_PTO_VOP_VBR, 1, &c, 1, &S->floats, NULL, NULL));
    return from_float(S, vop3(S, PTOC_PTO_VOP_VDIV, num, df, m, S->floats), m);
}

/* The high 64 bits of the 128-bit a * b: the four word products; the carries
 * out of their middle word (bits 32-63, not kept) go into the low word of the
 * result, and the carries out of that into its high word. */
static pair mulhi(split *S, pair a, pair b, ptoc_value *m)
{
    ptoc_op *ll = mull(S, a.lo, b.lo, m);
    ptoc_op *lh = mull(S, a.lo, b.hi, m);
    ptoc_op *hl = mull(S, a.hi, b.lo, m);
    ptoc_op *hh = mull(S, a.hi, b.hi, m);
    ptoc_op *mid1 = carry_op(S, false, res(ll, 1), res(lh, 0), NULL, m);
    ptoc_op *mid2 = carry_op(S, false, res(mid1, 0), res(hl, 0), NULL, m);
    ptoc_op *low1 = carry_op(S, false, res(hh, 0), res(lh, 1), res(mid1, 1), m);
    ptoc_op *low2 = carry_op(S, false, res(low1, 0), res(hl, 1), res(mid2, 1), m);
    ptoc_op *high1 = carry_op(S, false, res(hh, 1), S->zero, res(low1, 1), m);
    ptoc_op *high2 = carry_op(S, false, res(high1, 0), S->zero, res(low2, 1), m);
    return (pair){res(low2, 0), res(high2, 0)};
}

static pair negate(split *S, pair a, ptoc_value *m) { return add_sub(S, (pair){S->zero, S->zero}, a, m, true); }

/* r + r * e / 2^64, e = 2^64 - d * r (the negated product's low 64 bits):
 * from r <= 2^64 / d, relatively eps under it, to about eps^2 under it, and
 * never over (d * r <= 2^64, so e does not wrap). */
static pair newton(split *S, pair d, pair r, ptoc_value *m)
{
    pair e = negate(S, mul(S, d, r, m), m);
    return add_sub(S, r, mulhi(S, r, e, m), m, false);
}

/* q plus one for each time the remainder is still d or more: the quotient
 * from the Newton steps is at most 2 under n / d (docs/decisions.md). */
static pair correct(split *S, pair n, pair d, pair q, ptoc_value *m)
{
    pair rem = add_sub(S, n, mul(S, q, d, m), m, true);
    for (int step = 0; step < 2; step++) {
        ptoc_value *ge = compare64(S, rem, d, m, "ge", false);
        q = add_sub(S, q, (pair){half_op(S, PTOC_PTO_VOP_VSEL, S->one, S->zero, ge), S->zero}, m, false);
        if (step == 0)
            rem = add_sub(S, rem, select_halves(S, d, (pair){S->zero, S->zero}, ge), m, true);
    }
    return q;
}

/* n / d on unsigned lanes, in the lanes of `nonzero` (d != 0), 0 elsewhere. */
static pair quotient(split *S, pair n, pair d, ptoc_value *nonzero)
{
    ptoc_value *is_one = compare64(S, d, (pair){S->one, S->zero}, nonzero, "eq", false);
    ptoc_value *large = cmp(S, d.hi, S->sign, nonzero, "ge");             /* d >= 2^63 */
    ptoc_value *work = pnot(S, plogic(S, PTOC_PTO_VOP_POR, is_one, large, nonzero), nonzero);
    pair r = reciprocal(S, d, work);
    r = newton(S, d, r, work);
    r = newton(S, d, r, work);
    pair q = correct(S, n, d, mulhi(S, n, r, work), work);
    ptoc_value *n_ge_d = compare64(S, n, d, large, "ge", false);          /* d >= 2^63: n / d is n >= d */
    q = select_halves(S, (pair){half_op(S, PTOC_PTO_VOP_VSEL, S->one, S->zero, n_ge_d), S->zero}, q, large);
    return select_halves(S, n, q, is_one);
}

/* |a| of signed lanes (INT64_MIN stays, as 2^63). */
static pair magnitude(split *S, pair a, ptoc_value *negative, ptoc_value *m)
{
    return select_halves(S, negate(S, a, m), a, negative);
}

/* a / b, as the cpu target divides (codegen/helpers.c cg_int_div): toward
 * zero, x / 0 all ones (the library gives 0), INT64_MIN / -1 INT64_MIN
 * (|INT64_MIN| / 1 is 2^63, INT64_MIN's bits). Already ZEROING: the ops run
 * under m or a predicate within it, and the selects keep their second
 * operand off it. */
static pair divide(split *S, pair a, pair b, ptoc_value *m, bool is_signed)
{
    S->zero = word(S, 0);
    S->one = word(S, 1);
    S->sign = word(S, INT32_MIN);
    ptoc_value *by_zero = compare64(S, b, (pair){S->zero, S->zero}, m, "eq", false);
    ptoc_value *nonzero = pnot(S, by_zero, m);
    pair q;
    if (is_signed) {
        ptoc_value *a_neg = cmp(S, a.hi, S->sign, m, "ge");
        ptoc_value *b_neg = cmp(S, b.hi, S->sign, m, "ge");
        pair abs_a = magnitude(S, a, a_neg, m);
        q = quotient(S, abs_a, magnitude(S, b, b_neg, m), nonzero);
        ptoc_value *flip = plogic(S, PTOC_PTO_VOP_PXOR, a_neg, b_neg, m);    /* the signs differ */
        q = select_halves(S, negate(S, q, m), q, flip);
    } else
        q = quotient(S, a, b, nonzero);
    ptoc_value *ones = word(S, -1);
    return select_halves(S, (pair){ones, ones}, q, by_zero);
}

/* ---------------------------------------------------------------- one op */

/* The pointer to the words of a 64-bit tile's elements, and twice the offset. */
static ptoc_value *words(split *S, ptoc_value *ptr) { return pair_of(S, ptr).lo; }

/* Twice the offset, made once per offset value, before its first load or
 * store (the later ones of a program follow it in its block). */
static ptoc_value *double_offset(split *S, ptoc_value *off)
{
    ptoc_value *twice = pair_of(S, off).lo;
    if (!twice) {
        twice = vb_arith(&S->vb, "arith.addi", off, off);
        set_pair(S, off, twice, NULL);
    }
    return twice;
}

/* ---------------------------------------------------------------- shifts */

/* x << n or x >> n on words (ui32 halves; `arith`: as i32 lanes, the sign filling). */
static ptoc_value *wshift(split *S, bool left, bool arith, ptoc_value *x, ptoc_value *n, ptoc_value *m)
{
    ptoc_pto_vop_id id = left ? PTOC_PTO_VOP_VSHL : PTOC_PTO_VOP_VSHR;
    if (!arith)
        return half_op(S, id, x, n, m);
    ptoc_type *sv = ptoc_pto_vreg_type_get(S->vb.ctx, ptoc_type_int(S->vb.ctx, 32, PTOC_SIGNED), 64);
    ptoc_value *sx = vb_vop1(&S->vb, PTOC_PTO_VOP_VBITCAST, 1, &x, sv, NULL, NULL);
    ptoc_value *sn = vb_vop1(&S->vb, PTOC_PTO_VOP_VBITCAST, 1, &n, sv, NULL, NULL);
    ptoc_value *r = vop3(S, id, sx, sn, m, sv);
    return vb_vop1(&S->vb, PTOC_PTO_VOP_VBITCAST, 1, &r, S->half, NULL, NULL);
}

/* a << b, a >> b on 64-bit lanes, the amount b read as unsigned: from word
 * shifts, whose amounts of 32 or more give 0 (a signed >> the sign): with
 * n = b's low word, the bits crossing between the words are the other word
 * shifted by 32 - n or n - 32 (one of which wraps to 32 or more); a signed >>
 * takes hi >> (n - 32) for n >= 32 by a vsel; b's high word nonzero (b >= 2^32)
 * gives what an amount of 64 gives. */
static pair shift(split *S, pair a, pair b, ptoc_value *m, bool left, bool is_signed)
{
    ptoc_value *n = b.lo, *w32 = word(S, 32);
    ptoc_value *up = half_op(S, PTOC_PTO_VOP_VSUB, w32, n, m);       /* 32 - n */
    ptoc_value *down = half_op(S, PTOC_PTO_VOP_VSUB, n, w32, m);     /* n - 32 */
    pair r;
    if (left) {                         /* (one statement each: the ops' order) */
        r.lo = wshift(S, true, false, a.lo, n, m);
        ptoc_value *own = wshift(S, true, false, a.hi, n, m);
        ptoc_value *near = wshift(S, false, false, a.lo, up, m);
        ptoc_value *far = wshift(S, true, false, a.lo, down, m);
        r.hi = half_op(S, PTOC_PTO_VOP_VOR, half_op(S, PTOC_PTO_VOP_VOR, own, near, m), far, m);
    } else {
        r.hi = wshift(S, false, is_signed, a.hi, n, m);
        ptoc_value *own = wshift(S, false, false, a.lo, n, m);
        ptoc_value *near = wshift(S, true, false, a.hi, up, m);
        ptoc_value *l = half_op(S, PTOC_PTO_VOP_VOR, own, near, m);
        ptoc_value *far = wshift(S, false, is_signed, a.hi, down, m);
        if (is_signed)
            r.lo = half_op(S, PTOC_PTO_VOP_VSEL, l, far, cmp(S, n, w32, m, "lt"));
        else
            r.lo = half_op(S, PTOC_PTO_VOP_VOR, l, far, m);
    }
    ptoc_value *fill = is_signed && !left ? wshift(S, false, true, a.hi, w32, m) : word(S, 0);
    ptoc_value *huge = cmp(S, b.hi, word(S, 0), m, "ne");
    r = select_halves(S, (pair){fill, fill}, r, huge);
    return zero_outside(S, r, m);
}

static void split_op(split *S, ptoc_op *op)
{
    ptoc_builder_set_before(&S->vb.b, op);
    S->vb.b.loc = op->loc;
    ptoc_pto_vop_id id = ptoc_pto_vop(op);
    if (id == PTOC_PTO_VOP_TILE_PTR) {
        ptoc_type *wt = ptoc_pto_ub_ptr_type(S->vb.ctx, ptoc_pto_vreg_type(S->half)->elem);
        ptoc_value *t = ptoc_op_operand(op, 0);
        set_pair(S, res(op, 0), vb_result0(op1(S, PTOC_PTO_VOP_TILE_PTR, 1, &t, 1, &wt, NULL, NULL)), NULL);
        ptoc_op_varr_push(&S->dead, op);
        return;
    }
    if (!touches_wide(op))
        return;
    ptoc_value *m = NULL;
    pair a = {NULL, NULL}, r = {NULL, NULL};
    if (op->noperands > 0 && is_wide(ptoc_op_operand(op, 0)->type))
        a = pair_of(S, ptoc_op_operand(op, 0));
    switch (id) {
    case PTOC_PTO_VOP_VLDS: {
        ptoc_value *ops[2] = {words(S, ptoc_op_operand(op, 0)), double_offset(S, ptoc_op_operand(op, 1))};
        ptoc_type *two[2] = {S->half, S->half};
        ptoc_op *ld = op1(S, PTOC_PTO_VOP_VLDSX2, 2, ops, 2, two, "dist", "DINTLV_B32");
        r = (pair){res(ld, 0), res(ld, 1)};
        break;
    }
    case PTOC_PTO_VOP_VSTS: {
        ptoc_value *ops[5] = {a.lo, a.hi, words(S, ptoc_op_operand(op, 1)), double_offset(S, ptoc_op_operand(op, 2)),
                              ptoc_op_operand(op, 3)};
        op1(S, PTOC_PTO_VOP_VSTSX2, 5, ops, 0, NULL, "dist", "INTLV_B32");
        break;
    }
    case PTOC_PTO_VOP_VBR: r = broadcast(S, ptoc_op_operand(op, 0)); break;
    case PTOC_PTO_VOP_VSEL: {
        pair b = pair_of(S, ptoc_op_operand(op, 1));
        r = select_halves(S, a, b, ptoc_op_operand(op, 2));
        break;
    }
    case PTOC_PTO_VOP_VCMP: case PTOC_PTO_VOP_VCMPS: {
        ptoc_value *c = compare64(S, a, second(S, op), ptoc_op_operand(op, 2), str_attr(op, "cmp_mode", "eq"),
                                  signed_lanes(op));
        ptoc_value_replace_all_uses(res(op, 0), c);
        break;
    }
    default: {
        m = ptoc_op_operand(op, 2);
        pair b = second(S, op);
        switch (id) {
        case PTOC_PTO_VOP_VADD: case PTOC_PTO_VOP_VADDS: r = add_sub(S, a, b, m, false); break;
        case PTOC_PTO_VOP_VSUB: case PTOC_PTO_VOP_VSUBS: r = add_sub(S, a, b, m, true); break;
        case PTOC_PTO_VOP_VMUL: case PTOC_PTO_VOP_VMULS: r = mul(S, a, b, m); break;
        case PTOC_PTO_VOP_VDIV: r = divide(S, a, b, m, signed_lanes(op)); break;
        case PTOC_PTO_VOP_VSHL: case PTOC_PTO_VOP_VSHLS: case PTOC_PTO_VOP_VSHR: case PTOC_PTO_VOP_VSHRS:
            r = shift(S, a, b, m, id == PTOC_PTO_VOP_VSHL || id == PTOC_PTO_VOP_VSHLS, signed_lanes(op));
            break;
        case PTOC_PTO_VOP_VAND: case PTOC_PTO_VOP_VOR: case PTOC_PTO_VOP_VXOR:
            r.lo = half_op(S, id, a.lo, b.lo, m);
            r.hi = half_op(S, id, a.hi, b.hi, m);
            break;
        default: {                          /* vmax, vmin and their scalar forms */
            bool max = id == PTOC_PTO_VOP_VMAX || id == PTOC_PTO_VOP_VMAXS;
            ptoc_value *take_a = compare64(S, a, b, m, max ? "gt" : "lt", signed_lanes(op));
            r = zero_outside(S, select_halves(S, a, b, take_a), m);
            break;
        }
        }
        if (!strcmp(str_attr(op, "mode", "ZEROING"), "MERGING"))
            r = select_halves(S, r, a, m);
    }
    }
    if (op->nresults > 0 && r.lo)
        set_pair(S, res(op, 0), r.lo, r.hi);
    ptoc_op_varr_push(&S->dead, op);
}

/* ---------------------------------------------------------------- the pass */

static ptoc_walk_result collect_scope(ptoc_op *op, void *user)
{
    if (ptoc_pto_is(op, PTOC_PTO_OP_VECSCOPE))
        ptoc_op_varr_push(user, op);
    return PTOC_WALK_ADVANCE;
}

static ptoc_walk_result collect_ops(ptoc_op *op, void *user)
{
    ptoc_pto_vop_id id = ptoc_pto_vop(op);
    bool wide_tile_ptr = id == PTOC_PTO_VOP_TILE_PTR && wide_ptr(op->results[0].type);
    if (wide_tile_ptr || (id != PTOC_PTO_VOP_NONE && touches_wide(op)))
        ptoc_op_varr_push(user, op);
    return PTOC_WALK_ADVANCE;
}

static void split_scope(split *S, ptoc_op *scope)
{
    scan s = {true, false};
    ptoc_walk_pre(scope, check_op, &s);
    if (!s.ok || !s.any)
        return;
    ptoc_op_varr ops;
    ptoc_op_varr_init_arena(&ops, S->tmp);
    ptoc_walk_pre(scope, collect_ops, &ops);
    for (uint32_t i = 0; i < ops.len; i++)
        split_op(S, ops.data[i]);
}

static bool run_split_u64(ptoc_op *func, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)opts;
    ptoc_context *ctx = ptoc_op_context(func);
    split S;
    memset(&S, 0, sizeof S);
    vb_init(&S.vb, ctx, arena);
    S.tmp = ptoc_arena_create(ctx);
    ptoc_ptrmap_init(&S.pairs, ctx);
    S.half = ptoc_pto_vreg_type_get(ctx, ptoc_type_int(ctx, 32, PTOC_UNSIGNED), 64);
    S.mask = ptoc_pto_mask_type_get(ctx, 32);
    S.i32 = ptoc_type_int(ctx, 32, PTOC_SIGNLESS);
    S.i64 = ptoc_type_int(ctx, 64, PTOC_SIGNLESS);
    S.f32 = ptoc_type_float(ctx, PTOC_F32);
    S.floats = ptoc_pto_vreg_type_get(ctx, S.f32, 64);
    ptoc_op_varr_init_arena(&S.dead, S.tmp);
    ptoc_op_varr scopes;
    ptoc_op_varr_init_arena(&scopes, S.tmp);
    ptoc_walk_pre(func, collect_scope, &scopes);
    for (uint32_t i = 0; i < scopes.len; i++)
        split_scope(&S, scopes.data[i]);
    for (uint32_t i = S.dead.len; i-- > 0;)
        ptoc_op_erase(S.dead.data[i]);
    ptoc_ptrmap_free(&S.pairs);
    ptoc_arena_destroy(S.tmp);
    return true;
}

const ptoc_pass_def ptoc_split_u64_pass = {
    .name = "pto-split-u64",
    .summary = "Split 64-bit micro-ops in vecscopes into lo/hi pairs of 32-bit ones (vaddc/vaddcs, vmull/vmula, ...)",
    .anchor = "func.func",
    .run = run_split_u64,
    .option_names = NULL,
};
