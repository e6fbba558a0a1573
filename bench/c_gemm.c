/* c_gemm.c: the plain C matrix multiply ptoc-bench-ops compares TMATMUL with.
 *
 * C = A * B, A MxK, B KxN, C MxN, row-major, accumulated in f32 in ascending k
 * with one fused multiply-add per k, which is how the cpu target computes
 * tmatmul (codegen/lower_pto_cube.c): the results agree bit for bit. The
 * i-k-j order lets the compiler vectorise over j. The f16 form widens A and
 * B to f32 first (exactly) and runs the same loop. CMake compiles this file
 * with -O3, once for the baseline ISA (suffix _o3: fmaf is a libm call there)
 * and once with -march=native (_native).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_common.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

void CAT(cl_gemm_f32, CGEMM_SUFFIX)(const float *a, const float *b, float *c, int m, int n, int k)
{
    memset(c, 0, (size_t)m * (size_t)n * sizeof *c);
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++) {
            float x = a[(size_t)i * (size_t)k + (size_t)p];
            const float *brow = b + (size_t)p * (size_t)n;
            float *crow = c + (size_t)i * (size_t)n;
            for (int j = 0; j < n; j++)
                crow[j] = fmaf(x, brow[j], crow[j]);
        }
}

/* An f16's value as a float (exact: every f16 is a float). */
static float half_to_float(uint16_t h)
{
    float sign = h & 0x8000 ? -1.0f : 1.0f;
    int exp = (h >> 10) & 0x1F, man = h & 0x3FF;
    if (exp == 0x1F)
        return man ? NAN : sign * INFINITY;
    if (exp == 0)
        return sign * ldexpf((float)man, -24);         /* zero and subnormals */
    return sign * ldexpf((float)(man | 0x400), exp - 25);
}

static void widen(const uint16_t *h, float *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        f[i] = half_to_float(h[i]);
}

void CAT(cl_gemm_f16, CGEMM_SUFFIX)(const uint16_t *a, const uint16_t *b, float *c, int m, int n, int k,
                                    float *scratch)
{
    float *fa = scratch, *fb = scratch + (size_t)m * (size_t)k;
    widen(a, fa, (size_t)m * (size_t)k);
    widen(b, fb, (size_t)k * (size_t)n);
    CAT(cl_gemm_f32, CGEMM_SUFFIX)(fa, fb, c, m, n, k);
}
