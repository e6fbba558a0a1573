/* bench_common.h: what the benchmark programs of bench/ share: the tile shape
 * of the throughput kernels, the plain C loops they are compared with, and a
 * few helpers (clocks, whole-file reading) and the generated kernels of the
 * compile-time bench.
 *
 * The C loops live in c_loops.c, which CMake compiles twice: with -O2 for the
 * baseline ISA (suffix _o2) and with -O2 -march=native (suffix _native, when
 * the compiler takes it), so ptoc's host-CPU code is compared with both. Every
 * loop has the same signature, so the bench's table of cases can point at them.
 */
#ifndef PTOC_BENCH_COMMON_H
#define PTOC_BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* The throughput tiles: 64x4096 elements; 256 histogram bins; the TSELS mask
 * has one bit per element, 512 bytes per row. bench/kernels/ agrees. */
#define BENCH_ROWS 64
#define BENCH_COLS 4096
#define BENCH_ELEMS (BENCH_ROWS * BENCH_COLS)
#define BENCH_BINS 256
#define BENCH_MASK_COLS (BENCH_COLS / 8)
#define BENCH_TSELS_SCALAR 0.5f

/* out = op(in0, in1) over one tile; what in0/in1/out hold depends on the op
 * (they are the same buffers the kernel's load and store functions take). */
typedef void bench_c_op(const void *in0, const void *in1, void *out);

#define BENCH_C_LOOPS(suffix)                                                     \
    bench_c_op cl_histogram_byte3##suffix; /* in0 u32 src, out u32 64x256 */      \
    bench_c_op cl_colexpandadd##suffix;    /* in0 f32 a, in1 f32 row, out f32 */  \
    bench_c_op cl_tsels##suffix;           /* in0 u8 mask, in1 f32 src, out f32 */
BENCH_C_LOOPS(_o2)
BENCH_C_LOOPS(_native)

/* C = A * B over f32 (c_gemm.c), the same sums as the cpu target's tmatmul;
 * the f16 form widens A and B into `scratch` ((m + n) * k floats) first. */
#define BENCH_C_GEMM(suffix)                                                                 \
    void cl_gemm_f32##suffix(const float *a, const float *b, float *c, int m, int n, int k); \
    void cl_gemm_f16##suffix(const uint16_t *a, const uint16_t *b, float *c, int m, int n, int k, float *scratch);
BENCH_C_GEMM(_o3)
BENCH_C_GEMM(_native)

/* Seconds on a monotonic clock. */
double bench_now(void);
/* Seconds of CPU time used by this process: what a compile costs, without the
 * time other programs on a shared machine take the CPU away. */
double bench_cpu_now(void);
/* The whole file, NUL-terminated, malloc'd; NULL after printing why. */
char *bench_read_file(const char *path, size_t *len);

/* The synthetic kernels of the per-tile-op compile time (tileop_kernel.c): a
 * module whose one function holds `nops` tile ops, the first nops of a fixed
 * cycle of BENCH_TILEOP_CYCLE (repeated); malloc'd, NULL when out of memory. */
#define BENCH_TILEOP_CYCLE 24
char *bench_tileop_kernel(int nops);

#endif
