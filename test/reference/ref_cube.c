/* ref_cube.c: the C reference of the cube's matrix multiply.
 *
 * dst[i,j] = (acc_in[i,j] +) sum_k lhs[i,k] * rhs[k,j] (+ bias[0,j]) over
 * i < lhs.vrows, j < rhs.vcols, k < lhs.vcols, as pto-isa's CPU reference
 * (include/pto/cpu/TMatmul.hpp) computes it: operands widen exactly to the
 * accumulator's type (f16/bf16/f32 -> float, i8 -> int32); an f32 sum starts
 * at zero and takes one fmaf per k in ascending order; an i32 sum wraps; the
 * accumulator or the bias is added once after the sum. Elements are read and
 * written through ref_get/ref_set, so any tile layout works.
 */
#include "ref.h"

#include <math.h>

static uint32_t as_i32(ref_dtype t, uint64_t bits)
{
    return t == REF_I8 ? (uint32_t)(int32_t)(int8_t)bits : (uint32_t)bits;
}

void ref_tmatmul(const ref_tile *dst, const ref_tile *acc_in, const ref_tile *lhs, const ref_tile *rhs,
                 const ref_tile *bias)
{
    bool fp = dst->dtype == REF_F32;
    for (int64_t i = 0; i < lhs->vrows; i++)
        for (int64_t j = 0; j < rhs->vcols; j++) {
            float fs = 0.0f;
            uint32_t is = 0;
            for (int64_t k = 0; k < lhs->vcols; k++) {
                uint64_t a = ref_get(lhs, i, k), b = ref_get(rhs, k, j);
                if (fp)
                    fs = fmaf(ref_float_of(lhs->dtype, a), ref_float_of(rhs->dtype, b), fs);
                else
                    is += as_i32(lhs->dtype, a) * as_i32(rhs->dtype, b);
            }
            const ref_tile *extra = acc_in ? acc_in : bias;
            if (extra) {
                uint64_t e = ref_get(extra, acc_in ? i : 0, j);
                fs = acc_in ? ref_float_of(REF_F32, e) + fs : fs + ref_float_of(REF_F32, e);
                is += (uint32_t)e;
            }
            ref_set(dst, i, j, fp ? ref_float_bits(fs) : is);
        }
}

/* ---------------------------------------------------------------- mx */

float ref_f8_value(ref_f8 kind, uint8_t bits)
{
    int man = kind == REF_F8_E5M2 ? 2 : 3, bias = kind == REF_F8_E5M2 ? 15 : 7;
    int e = (bits & 0x7f) >> man, m = bits & ((1 << man) - 1), emax = (0x7f >> man);
    float sign = (bits & 0x80) ? -1.0f : 1.0f;
    if (kind == REF_F8_E5M2 && e == emax)
        return m ? sign * NAN : sign * INFINITY;
    if (kind == REF_F8_E4M3FN && e == emax && m == 7)
        return sign * NAN;
    float f = (float)m / (float)(1 << man);
    return sign * (e ? ldexpf(1.0f + f, e - bias) : ldexpf(f, 1 - bias));
}

/* A scale element: a u8 tile holds e8m0 exponents (2^(e-127), 255 is NaN),
 * a float tile its value. */
static double scale_of(const ref_tile *s, int64_t r, int64_t c)
{
    uint64_t bits = ref_get(s, r, c);
    if (ref_dtype_is_float(s->dtype))
        return ref_float_of(s->dtype, bits);
    return bits == 255 ? NAN : ldexp(1.0, (int)bits - 127);
}

void ref_tmatmul_mx(const ref_tile *dst, const ref_tile *acc_in, const ref_tile *lhs, ref_f8 lk,
                    const ref_tile *lscale, const ref_tile *rhs, ref_f8 rk, const ref_tile *rscale,
                    const ref_tile *bias)
{
    for (int64_t i = 0; i < lhs->vrows; i++)
        for (int64_t j = 0; j < rhs->vcols; j++) {
            float sum = 0.0f;
            for (int64_t k = 0; k < lhs->vcols; k++) {
                double a = ref_f8_value(lk, (uint8_t)ref_get(lhs, i, k));
                double b = ref_f8_value(rk, (uint8_t)ref_get(rhs, k, j));
                double scale = scale_of(lscale, i, k / 32) * scale_of(rscale, k / 32, j);
                sum = (float)((double)sum + a * b * scale);
            }
            if (acc_in)
                sum = ref_float_of(REF_F32, ref_get(acc_in, i, j)) + sum;
            if (bias)
                sum = sum + ref_float_of(REF_F32, ref_get(bias, 0, j));
            ref_set(dst, i, j, ref_float_bits(sum));
        }
}

/* ---------------------------------------------------------------- FIX quantisation */

static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : hi < v ? hi : v;
}

/* The scale of a quant word: the f32 in bits 0..31, or (vector) the 19-bit
 * float in bits 13..31: sign, 8 exponent bits, 10 mantissa bits. */
static float word_scale(uint64_t word, bool vector)
{
    if (!vector)
        return ref_bits_float((uint32_t)word);
    uint32_t m1 = (uint32_t)(word >> 13) & 0x7ffff;
    uint32_t e = (m1 >> 10) & 0xff, m = m1 & 0x3ff;
    if (e == 0 && m == 0)
        return 0.0f;
    double v = ldexp(1.0 + m / 1024.0, (int)e - 127);
    return (float)((m1 >> 18) ? -v : v);
}

uint64_t ref_fix_quant(ref_dtype from, ref_dtype to, uint64_t bits, uint64_t word, bool vector, bool relu)
{
    if (from == REF_I32 && to == REF_I16) {
        int32_t s = (int32_t)(uint32_t)bits >> (((word >> 32) & 15) + 1);
        s = s < -32768 ? -32768 : s > 32767 ? 32767 : s;
        if (relu && s < 0)
            s = 0;
        return (uint16_t)(int16_t)s;
    }
    float x = from == REF_I32 ? (float)(int32_t)(uint32_t)bits : ref_bits_float((uint32_t)bits);
    float r = x * word_scale(word, vector);
    bool b8 = to == REF_I8 || to == REF_U8;
    if (b8) {
        bool sign = (word >> 46) & 1;
        r = nearbyintf(r + (float)((word >> 37) & 0x1ff));
        r = clampf(r, sign ? -128.0f : 0.0f, sign ? 127.0f : 255.0f);
    } else if (to == REF_F16 && (from == REF_I32 || isfinite(r))) {
        r = clampf(r, -65504.0f, 65504.0f);
    }
    if (relu)
        r = r > 0 ? r : 0.0f;
    if (b8)
        return isnan(r) ? 0 : (uint8_t)(int32_t)r;
    return ref_bits_of(to, r);
}
