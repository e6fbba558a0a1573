/* c_loops.c: the plain C loops the throughput bench (throughput.c) compares
 * ptoc's JIT'd kernels with: the obvious loop for each op, as a C programmer
 * would write it, with nothing hand-vectorised. Each loop is a static function
 * with typed restrict parameters (the buffers never overlap, and GCC only
 * trusts restrict on parameters), behind the common bench_c_op signature.
 *
 * CMake compiles this file twice, defining CLOOP_SUFFIX as _o2 (-O2, the
 * baseline ISA) and _native (-O2 -march=native); see bench_common.h.
 */
#include <stdint.h>

#include "bench/bench_common.h"

#ifndef CLOOP_SUFFIX
#error "CLOOP_SUFFIX must be defined (bench/CMakeLists.txt does)"
#endif
#define CL_CAT2(a, b) a##b
#define CL_CAT(a, b) CL_CAT2(a, b)
#define CL_NAME(name) CL_CAT(name, CLOOP_SUFFIX)

/* THISTOGRAM u32 BYTE_3: per row, count the top bytes, then write the
 * inclusive prefix sums (docs/decisions.md#semantics). */
static void histogram_byte3(const uint32_t *restrict src, uint32_t *restrict hist)
{
    for (size_t r = 0; r < BENCH_ROWS; r++) {
        uint32_t count[BENCH_BINS] = {0};
        for (size_t c = 0; c < BENCH_COLS; c++)
            count[src[r * BENCH_COLS + c] >> 24]++;
        uint32_t sum = 0;
        for (size_t b = 0; b < BENCH_BINS; b++) {
            sum += count[b];
            hist[r * BENCH_BINS + b] = sum;
        }
    }
}

/* TCOLEXPANDADD f32: dst[i,j] = a[i,j] + row[j]. */
static void colexpandadd(const float *restrict a, const float *restrict row, float *restrict dst)
{
    for (size_t r = 0; r < BENCH_ROWS; r++)
        for (size_t c = 0; c < BENCH_COLS; c++)
            dst[r * BENCH_COLS + c] = a[r * BENCH_COLS + c] + row[c];
}

/* TSELS f32: dst[i,j] = bit j%8 of mask[i, j/8] ? src[i,j] : scalar. */
static void tsels(const uint8_t *restrict mask, const float *restrict src, float *restrict dst)
{
    for (size_t r = 0; r < BENCH_ROWS; r++)
        for (size_t c = 0; c < BENCH_COLS; c++) {
            unsigned bit = (mask[r * BENCH_MASK_COLS + c / 8] >> (c % 8)) & 1u;
            dst[r * BENCH_COLS + c] = bit ? src[r * BENCH_COLS + c] : BENCH_TSELS_SCALAR;
        }
}

void CL_NAME(cl_histogram_byte3)(const void *in0, const void *in1, void *out)
{
    (void)in1;
    histogram_byte3(in0, out);
}

void CL_NAME(cl_colexpandadd)(const void *in0, const void *in1, void *out) { colexpandadd(in0, in1, out); }

void CL_NAME(cl_tsels)(const void *in0, const void *in1, void *out) { tsels(in0, in1, out); }
