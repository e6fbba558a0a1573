/* ref_reduce.c: the C reference of the unary tile ops and the reductions.
 *
 * Like ref.c, plain loops over the destination's valid region, knowing
 * nothing of ptoc. exp and log are not libm's: they are the fixed sequences
 * of float operations that the cpu target emits (codegen/lower_pto_unary.c),
 * repeated here operation for operation, so that both give the same bits on
 * every host. This file is compiled without floating-point contraction (no
 * fused multiply-add), as LLVM emits none without fast-math flags.
 */
#include "ref.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- elements */


/* ---------------------------------------------------------------- exp and log */

#define LN2_C1 0.693359375f
#define LN2_C2 (-2.12194440e-4f)

static float pow2(int32_t k)
{
    return ref_bits_float((uint32_t)(k + 127) << 23);
}

float ref_exp_f32(float x0)
{
    static const float taylor[] = {1.0f / 5040, 1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f, 1.0f, 1.0f};
    if (isnan(x0))
        return x0;
    float x = x0 > 89.0f ? 89.0f : x0;
    x = x < -104.0f ? -104.0f : x;
    float t = x * 1.44269504f + 12582912.0f;
    float nf = t - 12582912.0f;
    float r = x - nf * LN2_C1;
    r = r - nf * LN2_C2;
    float p = taylor[0];
    for (int i = 1; i < 8; i++)
        p = p * r + taylor[i];
    int32_t n = (int32_t)nf, n1 = n / 2, n2 = n - n1;
    return p * pow2(n1) * pow2(n2);
}

float ref_log_f32(float x0)
{
    static const float series[] = {2.0f / 9, 2.0f / 7, 2.0f / 5, 2.0f / 3};
    if (isnan(x0))
        return x0;
    if (x0 == 0.0f)
        return -INFINITY;
    if (x0 < 0.0f)
        return ref_bits_float(0x7fc00000);
    if (x0 == INFINITY)
        return x0;
    float x = x0;
    int32_t e = 0;
    if (x < 0x1p-126f) {
        x = x * 0x1p23f;
        e = -23;
    }
    uint32_t u = ref_float_bits(x);
    e += (int32_t)(u >> 23) - 127;
    float m = ref_bits_float((u & 0x007fffff) | 0x3f800000);
    if (m > 1.41421356f) {
        m = m * 0.5f;
        e += 1;
    }
    float f = m - 1.0f;
    float s = f / (2.0f + f);
    float z = s * s;
    float p = series[0];
    for (int i = 1; i < 4; i++)
        p = p * z + series[i];
    float R = z * p;
    float lm = 2.0f * s + s * R;
    float ef = (float)e;
    float y = lm + ef * LN2_C2;
    return y + ef * LN2_C1;
}

/* ---------------------------------------------------------------- unary */

static float unary_float(ref_unop op, float a)
{
    switch (op) {
    case REF_ABS: return fabsf(a);
    case REF_NEG: return -a;
    case REF_RELU: return a > 0.0f ? a : 0.0f;
    case REF_SQRT: return sqrtf(a);
    case REF_RSQRT: return 1.0f / sqrtf(a);
    case REF_RECIP: return 1.0f / a;
    case REF_EXP: return ref_exp_f32(a);
    case REF_LOG: return ref_log_f32(a);
    case REF_NOT: break;
    }
    return a;
}

static uint64_t unary_int(ref_unop op, ref_dtype t, uint64_t a)
{
    bool is_signed = ref_dtype_is_signed(t);
    switch (op) {
    case REF_ABS: return is_signed && ref_signed_of(t, a) < 0 ? (0 - a) & ref_mask_of(t) : a;
    case REF_NEG: return (0 - a) & ref_mask_of(t);
    case REF_NOT: return ~a & ref_mask_of(t);
    case REF_RELU: return is_signed && ref_signed_of(t, a) < 0 ? 0 : a;
    case REF_RECIP: return ref_apply(REF_DIV, t, 1, a);
    default: return a;
    }
}

void ref_unary(ref_unop op, const ref_tile *dst, const ref_tile *src)
{
    ref_dtype t = dst->dtype;
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++) {
            uint64_t a = ref_get(src, i, j);
            uint64_t r = ref_dtype_is_float(t) ? ref_bits_of(t, unary_float(op, ref_float_of(t, a))) : unary_int(op, t, a);
            ref_set(dst, i, j, r);
        }
}

/* ---------------------------------------------------------------- reductions */

/* The identity of op in dtype t, as bits. */
static uint64_t identity(ref_binop op, ref_dtype t)
{
    if (ref_dtype_is_float(t)) {
        float v = op == REF_ADD ? 0.0f : op == REF_MUL ? 1.0f : op == REF_MAX ? -INFINITY : INFINITY;
        return ref_bits_of(t, v);
    }
    uint64_t top = (ref_mask_of(t) >> 1) + 1;
    bool u = !ref_dtype_is_signed(t);
    switch (op) {
    case REF_MUL: return 1;
    case REF_MAX: return u ? 0 : top;
    case REF_MIN: return u ? ref_mask_of(t) : top - 1;
    default: return 0;
    }
}

/* OP(a, b), a NaN from a float sum or product made the quiet NaN 0x7fc00000
 * (the cpu target's; x86 would give a negative one). */
static uint64_t combine(ref_binop op, ref_dtype t, uint64_t a, uint64_t b)
{
    uint64_t r = ref_apply(op, t, a, b);
    if (ref_dtype_is_float(t) && (op == REF_ADD || op == REF_MUL) && isnan(ref_float_of(t, r)))
        return ref_bits_of(t, ref_bits_float(0x7fc00000));
    return r;
}

/* buf[k] = OP(buf[k], buf[k + half]) for half = lanes/2 .. 1. */
static void tree(ref_binop op, ref_dtype t, uint64_t *buf, int64_t lanes)
{
    for (int64_t half = lanes / 2; half >= 1; half /= 2)
        for (int64_t k = 0; k < half; k++)
            buf[k] = combine(op, t, buf[k], buf[k + half]);
}

void ref_trow_reduce(ref_binop op, const ref_tile *dst, const ref_tile *src)
{
    ref_dtype t = src->dtype;
    int64_t lanes = 256 / ref_dtype_size(t), n = src->vcols;
    uint64_t buf[256], id = identity(op, t);
    for (int64_t i = 0; i < src->vrows; i++) {
        uint64_t acc = id;
        for (int64_t l = 0; l < lanes; l++)
            buf[l] = id;
        for (int64_t j = 0; j * lanes < n; j++) {
            for (int64_t l = 0; l < lanes; l++) {
                int64_t c = j * lanes + l;
                if (op == REF_MUL)
                    buf[l] = combine(op, t, buf[l], c < n ? ref_get(src, i, c) : id);
                else
                    buf[l] = c < n ? ref_get(src, i, c) : id;
            }
            if (op != REF_MUL) {
                tree(op, t, buf, lanes);
                acc = combine(op, t, acc, buf[0]);
            }
        }
        if (op == REF_MUL) {
            tree(op, t, buf, lanes);
            acc = buf[0];
        }
        ref_set(dst, i, 0, acc);
    }
}

void ref_tcol_reduce(ref_binop op, const ref_tile *dst, const ref_tile *src)
{
    ref_dtype t = src->dtype;
    int64_t rest = src->vrows - 1;
    for (int64_t c = 0; c < src->vcols; c++) {
        uint64_t acc = ref_get(src, 0, c);
        for (int64_t j = 0; j < rest / 2; j++)
            acc = combine(op, t, acc, combine(op, t, ref_get(src, 2 * j + 1, c), ref_get(src, 2 * j + 2, c)));
        if (rest % 2)
            acc = combine(op, t, acc, ref_get(src, rest, c));
        ref_set(dst, 0, c, acc);
    }
}

/* ---------------------------------------------------------------- arg reductions */

/* The index of the first strictly greatest (least) of n elements get(k):
 * a tie keeps the earlier index, a NaN never replaces the best (an ordered
 * compare is false), and a NaN at index 0 stays best. */
static uint32_t arg_best(bool max, ref_dtype t, const ref_tile *src, int64_t line, bool row, int64_t n)
{
    uint64_t best = row ? ref_get(src, line, 0) : ref_get(src, 0, line);
    uint32_t at = 0;
    for (int64_t k = 1; k < n; k++) {
        uint64_t cur = row ? ref_get(src, line, k) : ref_get(src, k, line);
        if (ref_compare(max ? REF_GT : REF_LT, t, cur, best)) {
            best = cur;
            at = (uint32_t)k;
        }
    }
    return at;
}

void ref_trow_argreduce(bool max, const ref_tile *dst, const ref_tile *src)
{
    for (int64_t i = 0; i < src->vrows; i++)
        ref_set(dst, i, 0, arg_best(max, src->dtype, src, i, true, src->vcols));
}

void ref_tcol_argreduce(bool max, const ref_tile *dst, const ref_tile *src)
{
    for (int64_t j = 0; j < src->vcols; j++)
        ref_set(dst, 0, j, arg_best(max, src->dtype, src, j, false, src->vrows));
}
