/* ref_ewx.c: the C reference of the remaining elementwise tile ops (trem
 * tfmod, the bitwise ops and shifts, tprelu/tlrelu, taddc/tsubc and their
 * scalar forms, taxpy, tpart*), from pto-isa's cpu model and
 * docs/decisions.md, knowing nothing of ptoc. Elements are bit patterns in
 * their dtype; floats compute in float and round to the dtype after each
 * step the op defines. Compiled without floating-point contraction.
 */
#include "ref.h"

#include <math.h>

/* ---------------------------------------------------------------- integers */


/* a % b, the sign of a: x % 0 = x, INT_MIN % -1 = 0. */
static uint64_t int_rem(ref_dtype t, uint64_t a, uint64_t b)
{
    if (b == 0)
        return a;
    if (!ref_dtype_is_signed(t))
        return a % b;
    int64_t sa = ref_signed_of(t, a), sb = ref_signed_of(t, b);
    if (sb == -1)
        return 0;
    return (uint64_t)(sa % sb) & ref_mask_of(t);
}

/* trem on integers: a % b, plus b when nonzero and a, b on different sides of 0. */
static uint64_t int_floor_rem(ref_dtype t, uint64_t a, uint64_t b)
{
    uint64_t r = int_rem(t, a, b);
    if (!ref_dtype_is_signed(t))
        return r;
    bool a_neg = ref_signed_of(t, a) < 0, b_neg = ref_signed_of(t, b) < 0;
    if (r != 0 && a_neg != b_neg)
        r = (r + b) & ref_mask_of(t);
    return r;
}

/* a << b, a >> b; b (unsigned) of the width or more: 0, or the sign. */
static uint64_t int_shift(ref_dtype t, bool left, uint64_t a, uint64_t b)
{
    uint32_t bits = 8 * ref_dtype_size(t);
    bool is_signed = ref_dtype_is_signed(t);
    if (b >= bits)
        return !left && is_signed && ref_signed_of(t, a) < 0 ? ref_mask_of(t) : 0;
    if (left)
        return (a << b) & ref_mask_of(t);
    if (is_signed)
        return (uint64_t)(ref_signed_of(t, a) >> b) & ref_mask_of(t);
    return a >> b;
}

static bool int_positive(ref_dtype t, uint64_t a)
{
    return ref_dtype_is_signed(t) ? ref_signed_of(t, a) > 0 : a != 0;
}

/* ---------------------------------------------------------------- elements */

/* trem on floats: r = fmod(a, b); r + b when r != 0 and a, b on different
 * sides of 0 (a >= 0 differs from b >= 0); a NaN r stays. */
static float float_floor_rem(float a, float b)
{
    float r = fmodf(a, b);
    if (r != 0.0f && !isnan(r) && (a >= 0.0f) != (b >= 0.0f))
        r = r + b;
    return r;
}

uint64_t ref_ewx_apply(ref_ewx_op op, ref_dtype t, uint64_t a, uint64_t b)
{
    switch (op) {
    case REF_X_AND: return a & b;
    case REF_X_OR: return a | b;
    case REF_X_XOR: return a ^ b;
    default: break;
    }
    if (ref_dtype_is_float(t)) {
        float fa = ref_float_of(t, a), fb = ref_float_of(t, b);
        switch (op) {
        case REF_X_REM: return ref_bits_of(t, float_floor_rem(fa, fb));
        case REF_X_FMOD: return ref_bits_of(t, fmodf(fa, fb));
        case REF_X_PRELU: return fa > 0.0f ? a : ref_bits_of(t, fa * fb);
        default: return 0;   /* shifts: integers only */
        }
    }
    switch (op) {
    case REF_X_REM: return int_floor_rem(t, a, b);
    case REF_X_FMOD: return int_rem(t, a, b);
    case REF_X_SHL: return int_shift(t, true, a, b);
    case REF_X_SHR: return int_shift(t, false, a, b);
    case REF_X_PRELU: return int_positive(t, a) ? a : (a * b) & ref_mask_of(t);
    default: return 0;
    }
}

/* a + b where a is an earlier step's result: a NaN a is the result. */
static uint64_t add_step(ref_dtype t, uint64_t a, uint64_t b)
{
    if (ref_dtype_is_float(t) && isnan(ref_float_of(t, a)))
        return a;
    return ref_apply(REF_ADD, t, a, b);
}

/* ---------------------------------------------------------------- ops */

void ref_ewx_binary(ref_ewx_op op, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++)
            ref_set(dst, i, j, ref_ewx_apply(op, dst->dtype, ref_get(src0, i, j), ref_get(src1, i, j)));
}

void ref_ewx_scalar(ref_ewx_op op, const ref_tile *dst, const ref_tile *src, uint64_t scalar)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++)
            ref_set(dst, i, j, ref_ewx_apply(op, dst->dtype, ref_get(src, i, j), scalar));
}

void ref_ewx_ternary(bool sub, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1,
                     uint64_t scalar, const ref_tile *src2)
{
    ref_dtype t = dst->dtype;
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++) {
            uint64_t b = src1 ? ref_get(src1, i, j) : scalar;
            uint64_t ab = ref_apply(sub ? REF_SUB : REF_ADD, t, ref_get(src0, i, j), b);
            ref_set(dst, i, j, add_step(t, ab, ref_get(src2, i, j)));
        }
}

void ref_taxpy(const ref_tile *dst, const ref_tile *src, uint64_t scalar)
{
    ref_dtype t = dst->dtype, st = src->dtype;
    float s = ref_float_of(st, scalar);
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++) {
            uint64_t p = ref_bits_of(t, ref_float_of(st, ref_get(src, i, j)) * s);
            ref_set(dst, i, j, add_step(t, ref_get(dst, i, j), p));
        }
}

void ref_tpart(ref_binop op, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++) {
            bool in0 = i < src0->vrows && j < src0->vcols, in1 = i < src1->vrows && j < src1->vcols;
            uint64_t v = 0;
            if (in0 && in1)
                v = ref_apply(op, dst->dtype, ref_get(src0, i, j), ref_get(src1, i, j));
            else if (in0)
                v = ref_get(src0, i, j);
            else if (in1)
                v = ref_get(src1, i, j);
            ref_set(dst, i, j, v);
        }
}
