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
