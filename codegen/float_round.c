/* float_round.c: a float rounded to a narrower float format by a rounding
 * mode, in integer IR on its bits (cg_round_float).
 *
 * LLVM's fptrunc rounds to nearest even only (its constrained forms assume a
 * rounding mode the emitted code would have to set on the host), and its
 * conversions to bfloat need a libgcc routine Debian 12 lacks; vcvt rounds
 * by six modes into f16, bf16 and f32. So the rounding is done here, once
 * for every pair: the source's significand (its hidden bit added) is shifted
 * right to the target's precision, further when the target is subnormal,
 * and added to the target's biased exponent field less one; the dropped
 * bits decide the increment. A carry out of the significand then ripples
 * into the exponent as IEEE encodings let it, so a significand that rounds
 * up to 2 and a subnormal that rounds up to the smallest normal come out
 * right, and a value past the largest finite one comes out at or above the
 * infinity's encoding, where the mode decides what it becomes.
 */
#include "codegen/codegen_internal.h"

/* A binary format: its width and mantissa bits (the exponent has the rest but the sign). */
typedef struct fmt { unsigned bits, man; } fmt;

static fmt fmt_of(ptoc_float_kind k)
{
    switch (k) {
    case PTOC_F16: return (fmt){16, 10};
    case PTOC_BF16: return (fmt){16, 7};
    case PTOC_F32: return (fmt){32, 23};
    default: return (fmt){64, 52};
    }
}

static int64_t bias(fmt f) { return ((int64_t)1 << (f.bits - 2 - f.man)) - 1; }

/* The encoding of +infinity: an exponent field of ones. */
static uint64_t inf_bits(fmt f) { return (((uint64_t)1 << (f.bits - 1 - f.man)) - 1) << f.man; }

static uint64_t ones(unsigned n) { return n >= 64 ? ~0ull : ((uint64_t)1 << n) - 1; }

/* Building on <n x iW>, the source's bits. */
typedef struct lanes { LLVMBuilderRef b; LLVMTypeRef ty; unsigned width; } lanes;

/* The constant v in every lane (a negative one as its two's complement). */
static LLVMValueRef k(const lanes *l, int64_t v) { return cg_const_int(l->ty, (uint64_t)v & ones(l->width)); }

static LLVMValueRef sel(const lanes *l, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(l->b, c, a, b, "");
}

static LLVMValueRef cmp(const lanes *l, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildICmp(l->b, p, a, b, "");
}

/* Whether the kept value `enc` goes up one: from the dropped bits, the half
 * of the last kept bit's weight, whether the value is negative. O instead
 * sets the last bit of an inexact result (rounded_bits). */
static LLVMValueRef increment(const lanes *l, cg_round_mode mode, LLVMValueRef enc, LLVMValueRef dropped,
                              LLVMValueRef half, LLVMValueRef neg)
{
    LLVMValueRef inexact = cmp(l, LLVMIntNE, dropped, k(l, 0));
    switch (mode) {
    case CG_ROUND_R: {   /* past the half, or at it with the kept value odd */
        LLVMValueRef odd = cmp(l, LLVMIntNE, LLVMBuildAnd(l->b, enc, k(l, 1), ""), k(l, 0));
        LLVMValueRef tie = LLVMBuildAnd(l->b, cmp(l, LLVMIntEQ, dropped, half), odd, "");
        return LLVMBuildOr(l->b, cmp(l, LLVMIntUGT, dropped, half), tie, "");
    }
    case CG_ROUND_A: return cmp(l, LLVMIntUGE, dropped, half);
    case CG_ROUND_F: return LLVMBuildAnd(l->b, neg, inexact, "");
    case CG_ROUND_C: return LLVMBuildAnd(l->b, LLVMBuildNot(l->b, neg, ""), inexact, "");
    default: return NULL;   /* Z, O: the magnitude is truncated */
    }
}

/* What a finite value past the largest becomes: the largest (saturating, or
 * rounding toward it: Z, O, F for a positive value, C for a negative one) or
 * infinity. */
static LLVMValueRef overflowed(const lanes *l, cg_round_mode mode, bool saturate, LLVMValueRef neg, fmt t)
{
    LLVMValueRef inf = k(l, (int64_t)inf_bits(t)), max = k(l, (int64_t)inf_bits(t) - 1);
    if (saturate || mode == CG_ROUND_Z || mode == CG_ROUND_O)
        return max;
    if (mode == CG_ROUND_F)
        return sel(l, neg, inf, max);
    if (mode == CG_ROUND_C)
        return sel(l, neg, max, inf);
    return inf;
}

/* The magnitude's bits in format t, for a finite source of exponent field e
 * and mantissa m (format s). */
static LLVMValueRef rounded_bits(const lanes *l, fmt s, fmt t, LLVMValueRef e, LLVMValueRef m, LLVMValueRef neg,
                                 cg_round_mode mode)
{
    LLVMBuilderRef b = l->b;
    LLVMValueRef subnormal = cmp(l, LLVMIntEQ, e, k(l, 0));
    LLVMValueRef sig = sel(l, subnormal, m, LLVMBuildOr(b, m, k(l, (int64_t)1 << s.man), ""));
    LLVMValueRef texp = LLVMBuildAdd(b, sel(l, subnormal, k(l, 1), e), k(l, bias(t) - bias(s)), "");
    /* the bits to drop: the precision's difference, and 1 - texp more for a
     * subnormal result; past s.man + 2 the kept value is 0 and the dropped
     * bits all below the half, whatever the count */
    LLVMValueRef normal = cmp(l, LLVMIntSGT, texp, k(l, 0));
    LLVMValueRef under = sel(l, normal, k(l, 0), LLVMBuildSub(b, k(l, 1), texp, ""));
    LLVMValueRef shift = LLVMBuildAdd(b, under, k(l, s.man - t.man), "");
    shift = sel(l, cmp(l, LLVMIntUGT, shift, k(l, s.man + 2)), k(l, s.man + 2), shift);
    LLVMValueRef base = sel(l, normal, LLVMBuildShl(b, LLVMBuildSub(b, texp, k(l, 1), ""), k(l, t.man), ""), k(l, 0));
    LLVMValueRef enc = LLVMBuildAdd(b, base, LLVMBuildLShr(b, sig, shift, ""), "");
    LLVMValueRef low = LLVMBuildSub(b, LLVMBuildShl(b, k(l, 1), shift, ""), k(l, 1), "");
    LLVMValueRef dropped = LLVMBuildAnd(b, sig, low, "");
    LLVMValueRef half = LLVMBuildShl(b, k(l, 1), LLVMBuildSub(b, shift, k(l, 1), ""), "");
    if (mode == CG_ROUND_O)
        return LLVMBuildOr(b, enc, LLVMBuildZExt(b, cmp(l, LLVMIntNE, dropped, k(l, 0)), l->ty, ""), "");
    LLVMValueRef inc = increment(l, mode, enc, dropped, half, neg);
    return inc ? LLVMBuildAdd(b, enc, LLVMBuildZExt(b, inc, l->ty, ""), "") : enc;
}

LLVMValueRef cg_round_float(cg *g, LLVMValueRef v, ptoc_float_kind to, cg_round_mode mode, bool saturate)
{
    LLVMTypeRef vt = LLVMTypeOf(v);
    unsigned n = LLVMGetVectorSize(vt);
    fmt s = fmt_of(LLVMGetElementType(vt) == g->f64 ? PTOC_F64 : PTOC_F32), t = fmt_of(to);
    lanes L = {g->b, LLVMVectorType(LLVMIntTypeInContext(g->llctx, s.bits), n), s.bits}, *l = &L;
    LLVMBuilderRef b = g->b;
    LLVMValueRef bits = LLVMBuildBitCast(b, v, l->ty, "");
    LLVMValueRef sign = LLVMBuildLShr(b, bits, k(l, s.bits - 1), "");
    LLVMValueRef neg = cmp(l, LLVMIntNE, sign, k(l, 0));
    LLVMValueRef mag = LLVMBuildAnd(b, bits, k(l, (int64_t)ones(s.bits - 1)), "");
    LLVMValueRef e = LLVMBuildLShr(b, mag, k(l, s.man), ""), m = LLVMBuildAnd(b, mag, k(l, (int64_t)ones(s.man)), "");
    LLVMValueRef r = rounded_bits(l, s, t, e, m, neg, mode);
    LLVMValueRef t_inf = k(l, (int64_t)inf_bits(t));
    r = sel(l, cmp(l, LLVMIntUGE, r, t_inf), overflowed(l, mode, saturate, neg, t), r);
    /* an infinity stays one, or saturates; a NaN stays quiet, its top payload kept */
    LLVMValueRef s_inf = k(l, (int64_t)inf_bits(s));
    r = sel(l, cmp(l, LLVMIntEQ, mag, s_inf), saturate ? k(l, (int64_t)inf_bits(t) - 1) : t_inf, r);
    LLVMValueRef payload = LLVMBuildLShr(b, m, k(l, s.man - t.man), "");
    LLVMValueRef nan = LLVMBuildOr(b, payload, k(l, (int64_t)(inf_bits(t) | (uint64_t)1 << (t.man - 1))), "");
    r = sel(l, cmp(l, LLVMIntUGT, mag, s_inf), nan, r);
    r = LLVMBuildOr(b, r, LLVMBuildShl(b, sign, k(l, t.bits - 1), ""), "");
    return t.bits == s.bits ? r : LLVMBuildTrunc(b, r, LLVMVectorType(LLVMIntTypeInContext(g->llctx, t.bits), n), "");
}
