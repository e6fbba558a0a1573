/* ops_bench.c: ptoc-bench-ops, the throughput of the cube's matrix multiply
 * and of the reductions on the cpu target.
 *
 * Each kernel file of bench/kernels/ is compiled in process (-O2 for the host
 * CPU, bench_jit.h) and its functions called directly: a load function once
 * (GM -> on-chip; simulated memory persists per thread across calls), the op
 * alone (what is timed), a store function once, whose result must equal the
 * reference before anything is timed. Every figure is the best per-call time
 * over interleaved rounds of calibrated batches, all figures of a row taken in
 * the same run.
 *
 *   TMATMUL   C = A * B, 128x128x128, A and B f32 or f16, C f32
 *             (tmatmul_f32.pto, tmatmul_f16.pto), in GFLOP/s (2 M N K flops
 *             a call), next to the plain C loop of c_gemm.c at -O3 for the
 *             baseline ISA and with -march=native (both give ptoc's bits),
 *             and, when libopenblas.so.0 can be loaded, OpenBLAS's
 *             cblas_sgemm on one thread (f32 only; its sums are ordered
 *             differently, so its result is checked to 1e-4 relative, not
 *             bit for bit)
 *   reduce    trowsum, trowmax, tcolsum, tcolmax on a 64x4096 f32 tile
 *             (reduce.pto), against memcpy of the tile's bytes (the op reads
 *             them once) and checked bit for bit against the C reference of
 *             the e2e tests (test/reference, ref_trow_reduce/ref_tcol_reduce)
 *
 * Exit status 1 if a kernel does not compile or a result is wrong; never
 * because of a figure.
 *   ptoc-bench-ops [--quick] [--kernels DIR]
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_common.h"
#include "bench/bench_jit.h"
#include "ref.h"

#ifndef PTOC_BENCH_KERNEL_DIR
#define PTOC_BENCH_KERNEL_DIR "bench/kernels"
#endif

enum { MM = 128, RED_ROWS = 64, RED_COLS = 4096, UB_BYTES = 8 << 20 };

typedef struct timing {
    int repeats;
    double batch_seconds;
} timing;

/* ---------------------------------------------------------------- data */

/* xorshift64*: fixed seeds, so every run sees the same data. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Uniform in [-1, 1). */
static float rng_float(uint64_t *s)
{
    return (float)(rng_next(s) >> 40) / 16777216.0f * 2.0f - 1.0f;
}

static void *alloc_zeroed(size_t bytes)
{
    size_t rounded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    if (p)
        memset(p, 0, rounded);
    return p;
}

static void fill_floats(float *dst, size_t n, uint64_t *rng)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = rng_float(rng);
}

static void fill_halves(uint16_t *dst, size_t n, uint64_t *rng)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = ref_float_to_f16(rng_float(rng));
}

/* The first differing f32 of two row-major results, reported; true if none. */
static bool same_floats(const char *what, const char *who, const float *got, const float *want, size_t n,
                        size_t cols)
{
    if (!memcmp(got, want, n * sizeof *got))
        return true;
    size_t i = 0;
    while (!memcmp(&got[i], &want[i], sizeof *got))
        i++;
    fprintf(stderr, "bench: %s: %s differs at [%zu,%zu]: %a, expected %a\n", what, who, i / cols, i % cols,
            (double)got[i], (double)want[i]);
    return false;
}

/* ---------------------------------------------------------------- OpenBLAS */

typedef void sgemm_fn(int order, int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda,
                      const float *b, int ldb, float beta, float *c, int ldc);

enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111 };

/* cblas_sgemm of libopenblas.so.0 on one thread, or NULL when it is not
 * installed (it is not a dependency of ptoc). */
static sgemm_fn *openblas_sgemm(void)
{
    void *lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return NULL;
    void *sgemm = dlsym(lib, "cblas_sgemm"), *threads = dlsym(lib, "openblas_set_num_threads");
    if (!sgemm)
        return NULL;
    if (threads) {
        void (*set_threads)(int);
        memcpy(&set_threads, &threads, sizeof threads);
        set_threads(1);        /* ptoc's kernel runs on one core */
    }
    sgemm_fn *fn;
    memcpy(&fn, &sgemm, sizeof sgemm);
    return fn;
}

/* ---------------------------------------------------------------- TMATMUL */

typedef void load2_fn(const void *a, const void *b);
typedef void op_fn(void);
typedef void store_fn(void *out);

typedef struct mm_case {
    const char *label, *kernel, *prefix;
    bool f16;
} mm_case;

static const mm_case mm_cases[] = {
    {"TMATMUL f32", "tmatmul_f32.pto", "mm32", false},
    {"TMATMUL f16", "tmatmul_f16.pto", "mm16", true},
};
enum { NMM = sizeof mm_cases / sizeof mm_cases[0] };

enum { MM_PTOC, MM_C_O3, MM_C_NATIVE, MM_BLAS, MM_TIMED };

typedef struct mm_args {
    const void *a, *b;
    float *c, *scratch;
    op_fn *op;
    sgemm_fn *sgemm;
} mm_args;

static void run_mm_ptoc(const void *arg) { ((const mm_args *)arg)->op(); }

static void run_mm_c_o3(const void *arg)
{
    const mm_args *m = arg;
    cl_gemm_f32_o3(m->a, m->b, m->c, MM, MM, MM);
}

static void run_mm16_c_o3(const void *arg)
{
    const mm_args *m = arg;
    cl_gemm_f16_o3(m->a, m->b, m->c, MM, MM, MM, m->scratch);
}

#ifdef PTOC_BENCH_HAVE_NATIVE
static void run_mm_c_native(const void *arg)
{
    const mm_args *m = arg;
    cl_gemm_f32_native(m->a, m->b, m->c, MM, MM, MM);
}

static void run_mm16_c_native(const void *arg)
{
    const mm_args *m = arg;
    cl_gemm_f16_native(m->a, m->b, m->c, MM, MM, MM, m->scratch);
}
#define NATIVE(fn) fn
#else
#define NATIVE(fn) NULL
#endif

static void run_mm_blas(const void *arg)
{
    const mm_args *m = arg;
    m->sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, MM, MM, MM, 1.0f, m->a, MM, m->b, MM, 0.0f, m->c, MM);
}

typedef struct mm_result {
    bool ok;
    double t[MM_TIMED];
} mm_result;

/* OpenBLAS sums in its own order: close to the C loop, not equal. */
static bool blas_close(const float *got, const float *want)
{
    for (size_t i = 0; i < (size_t)MM * MM; i++)
        if (fabsf(got[i] - want[i]) > 1e-4f * (1.0f + fabsf(want[i]))) {
            fprintf(stderr, "bench: TMATMUL f32: OpenBLAS differs from the C loop at %zu: %g, expected %g\n", i,
                    (double)got[i], (double)want[i]);
            return false;
        }
    return true;
}

typedef struct mm_buffers {
    void *a, *b;
    float *want, *got, *scratch;
} mm_buffers;

static bool mm_buffers_alloc(mm_buffers *m, bool f16)
{
    size_t elems = (size_t)MM * MM, in = elems * (f16 ? 2 : 4);
    m->a = alloc_zeroed(in);
    m->b = alloc_zeroed(in);
    m->want = alloc_zeroed(elems * 4);
    m->got = alloc_zeroed(elems * 4);
    m->scratch = alloc_zeroed(2 * elems * 4);
    return m->a && m->b && m->want && m->got && m->scratch;
}

static void mm_buffers_free(mm_buffers *m)
{
    free(m->a);
    free(m->b);
    free(m->want);
    free(m->got);
    free(m->scratch);
}

/* The kernel's result, stored over a poison pattern, against the C loop's. */
static bool mm_check(const mm_case *c, const mm_buffers *m, op_fn *op, store_fn *store)
{
    if (c->f16)
        cl_gemm_f16_o3(m->a, m->b, m->want, MM, MM, MM, m->scratch);
    else
        cl_gemm_f32_o3(m->a, m->b, m->want, MM, MM, MM);
    op();
    memset(m->got, 0xA5, (size_t)MM * MM * 4);
    store(m->got);
    return same_floats(c->label, "ptoc", m->got, m->want, (size_t)MM * MM, MM);
}

static mm_result run_mm_case(const mm_case *c, const char *dir, const timing *cfg, sgemm_fn *sgemm, uint64_t seed)
{
    mm_result r = {false, {NAN, NAN, NAN, NAN}};
    mm_buffers m;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, c->kernel);
    bench_kernel k = {0};
    bench_compile_opts o = {.target = "cpu"};
    load2_fn *load;
    op_fn *op;
    store_fn *store;
    if (mm_buffers_alloc(&m, c->f16) && bench_compile(&k, path, &o) && bench_lookup(k.jit, c->prefix, "_load", &load) &&
        bench_lookup(k.jit, c->prefix, "_op", &op) && bench_lookup(k.jit, c->prefix, "_store", &store)) {
        size_t elems = (size_t)MM * MM;
        if (c->f16) {
            fill_halves(m.a, elems, &seed);
            fill_halves(m.b, elems, &seed);
        } else {
            fill_floats(m.a, elems, &seed);
            fill_floats(m.b, elems, &seed);
        }
        load(m.a, m.b);
        r.ok = mm_check(c, &m, op, store);
        mm_args args = {m.a, m.b, m.got, m.scratch, op, sgemm};
        if (r.ok && sgemm && !c->f16) {
            run_mm_blas(&args);
            r.ok = blas_close(m.got, m.want);
        }
        bench_item items[MM_TIMED] = {
            [MM_PTOC] = {run_mm_ptoc, &args},
            [MM_C_O3] = {c->f16 ? run_mm16_c_o3 : run_mm_c_o3, &args},
            [MM_C_NATIVE] = {c->f16 ? NATIVE(run_mm16_c_native) : NATIVE(run_mm_c_native), &args},
            [MM_BLAS] = {sgemm && !c->f16 ? run_mm_blas : NULL, &args},
        };
        if (r.ok)
            bench_time_interleaved(items, MM_TIMED, cfg->repeats, cfg->batch_seconds, r.t);
    }
    bench_kernel_destroy(&k);
    mm_buffers_free(&m);
    return r;
}

static void print_gflops(double seconds)
{
    if (isnan(seconds))
        printf(" %10s", "-");
    else
        printf(" %10.2f", 2.0 * MM * MM * MM / seconds * 1e-9);
}

static void print_ratio(double num, double den)
{
    if (isnan(num) || isnan(den))
        printf(" %9s", "-");
    else
        printf(" %9.2f", num / den);
}

static void print_mm_table(const mm_result *res, const timing *cfg, bool quick, bool have_blas)
{
    printf("ptoc TMATMUL on the cpu target: %dx%dx%d, C in f32, -O2 for the host CPU,\n"
           "best of %d rounds of ~%.0f ms batches, each round timing every column in turn%s\n\n",
           MM, MM, MM, cfg->repeats, cfg->batch_seconds * 1e3, quick ? " (--quick: the figures mean nothing)" : "");
    printf("%-12s %10s %10s %10s %10s %9s %9s %9s\n", "op", "ptoc GF/s", "C -O3", "C native", "OpenBLAS",
           "x C -O3", "x C nat.", "x BLAS");
    for (int i = 0; i < NMM; i++) {
        const mm_result *r = &res[i];
        printf("%-12s", mm_cases[i].label);
        if (!r->ok) {
            printf(" %10s\n", "failed");
            continue;
        }
        for (int k = 0; k < MM_TIMED; k++)
            print_gflops(r->t[k]);
        /* ratios of throughput: above 1 means ptoc is faster */
        print_ratio(r->t[MM_C_O3], r->t[MM_PTOC]);
        print_ratio(r->t[MM_C_NATIVE], r->t[MM_PTOC]);
        print_ratio(r->t[MM_BLAS], r->t[MM_PTOC]);
        printf("\n");
    }
    printf("\nGF/s: 2*M*N*K flops per call / best seconds per call. C -O3 / C native: bench/c_gemm.c\n"
           "(the same f32 fused multiply-adds in ascending k, bit-identical results) for the baseline\n"
           "ISA and -march=native. OpenBLAS: cblas_sgemm on one thread, %s.\n"
           "x ...: ptoc's throughput / that column's; below 1 means ptoc is slower.\n",
           have_blas ? "f32 only" : "not installed (libopenblas.so.0 not found)");
}

/* ---------------------------------------------------------------- reductions */

typedef struct red_case {
    const char *label, *fn, *store;
    bool row;                  /* into one column (trow*) or one row (tcol*) */
    ref_binop op;
} red_case;

static const red_case red_cases[] = {
    {"TROWSUM f32", "red_rowsum", "red_store_col", true, REF_ADD},
    {"TROWMAX f32", "red_rowmax", "red_store_col", true, REF_MAX},
    {"TCOLSUM f32", "red_colsum", "red_store_row", false, REF_ADD},
    {"TCOLMAX f32", "red_colmax", "red_store_row", false, REF_MAX},
};
enum { NRED = sizeof red_cases / sizeof red_cases[0], RED_ELEMS = RED_ROWS * RED_COLS };

typedef struct red_result {
    bool ok;
    double t[2];               /* the op, memcpy of the source's bytes */
} red_result;

typedef struct copy_args {
    void *dst;
    const void *src;
    size_t bytes;
} copy_args;

/* Through a volatile pointer, so calls cannot be folded across iterations. */
static void *(*volatile bench_memcpy)(void *, const void *, size_t) = memcpy;

static void run_copy(const void *arg)
{
    const copy_args *c = arg;
    bench_memcpy(c->dst, c->src, c->bytes);
}

static void run_op(const void *arg)
{
    op_fn *const *op = arg;
    (*op)();
}

/* The reference's result for one case: the column (64 rows of 8 f32, valid
 * 64x1) or the row, packed as the store function writes it. */
static void red_reference(const red_case *c, float *src, float *want)
{
    static float tile[RED_ROWS * 8];
    ref_tile s = {REF_F32, RED_ROWS, RED_COLS, RED_ROWS, RED_COLS, REF_ROW_MAJOR, REF_NONE_BOX, (uint8_t *)src};
    if (c->row) {
        ref_tile d = {REF_F32, RED_ROWS, 8, RED_ROWS, 1, REF_ROW_MAJOR, REF_NONE_BOX, (uint8_t *)tile};
        ref_trow_reduce(c->op, &d, &s);
        for (int i = 0; i < RED_ROWS; i++)
            want[i] = tile[i * 8];
    } else {
        ref_tile d = {REF_F32, 1, RED_COLS, 1, RED_COLS, REF_ROW_MAJOR, REF_NONE_BOX, (uint8_t *)want};
        ref_tcol_reduce(c->op, &d, &s);
    }
}

static bool run_red_cases(const char *dir, const timing *cfg, red_result *res)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/reduce.pto", dir);
    bench_kernel k = {0};
    bench_compile_opts o = {.target = "cpu", .vec_bytes = UB_BYTES};
    float *src = alloc_zeroed(RED_ELEMS * 4), *copy = alloc_zeroed(RED_ELEMS * 4);
    float *want = alloc_zeroed(RED_COLS * 4), *got = alloc_zeroed(RED_COLS * 4);
    void (*load)(const void *);
    bool ok = src && copy && want && got && bench_compile(&k, path, &o) &&
              bench_lookup(k.jit, "red_load", "", &load);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int i = 0; ok && i < NRED; i++) {
        const red_case *c = &red_cases[i];
        op_fn *op;
        store_fn *store;
        res[i] = (red_result){false, {NAN, NAN}};
        if (!bench_lookup(k.jit, c->fn, "", &op) || !bench_lookup(k.jit, c->store, "", &store)) {
            ok = false;
            break;
        }
        fill_floats(src, RED_ELEMS, &seed);
        load(src);
        op();
        size_t n = c->row ? RED_ROWS : RED_COLS;
        memset(got, 0xA5, n * 4);
        store(got);
        red_reference(c, src, want);
        res[i].ok = same_floats(c->label, "ptoc", got, want, n, c->row ? 1 : RED_COLS);
        ok = ok && res[i].ok;
        copy_args ca = {copy, src, (size_t)RED_ELEMS * 4};
        bench_item items[2] = {{run_op, &op}, {run_copy, &ca}};
        if (res[i].ok)
            bench_time_interleaved(items, 2, cfg->repeats, cfg->batch_seconds, res[i].t);
    }
    bench_kernel_destroy(&k);
    free(src);
    free(copy);
    free(want);
    free(got);
    return ok;
}

static void print_red_table(const red_result *res)
{
    printf("\nptoc reductions on the cpu target: one %dx%d f32 tile (%d KiB) in simulated UB,\n"
           "-O2 for the host CPU, each next to memcpy of the tile's bytes timed in the same rounds\n\n",
           RED_ROWS, RED_COLS, RED_ELEMS * 4 / 1024);
    printf("%-12s %10s %10s %12s %10s\n", "op", "us/tile", "GB/s", "memcpy us", "x memcpy");
    for (int i = 0; i < NRED; i++) {
        const red_result *r = &res[i];
        printf("%-12s", red_cases[i].label);
        if (!r->ok) {
            printf(" %10s\n", "failed");
            continue;
        }
        printf(" %10.1f %10.2f %12.1f", r->t[0] * 1e6, RED_ELEMS * 4.0 / r->t[0] * 1e-9, r->t[1] * 1e6);
        print_ratio(r->t[0], r->t[1]);
        printf("\n");
    }
    printf("\nGB/s: source bytes read per second. x memcpy: op time / memcpy time over the same bytes\n"
           "(the op reads them once and writes a row or a column); below 1 means faster than memcpy.\n");
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    bool quick = false;
    setvbuf(stdout, NULL, _IOLBF, 0);   /* rows and diagnostics in order */
    const char *dir = PTOC_BENCH_KERNEL_DIR;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = true;
        else if (!strcmp(argv[i], "--kernels") && i + 1 < argc)
            dir = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--quick] [--kernels DIR]\n", argv[0]);
            return 2;
        }
    }
    timing cfg = quick ? (timing){2, 0.001} : (timing){30, 0.005};
    sgemm_fn *sgemm = openblas_sgemm();
    bool ok = true;
    mm_result mm[NMM];
    for (int i = 0; i < NMM; i++) {
        mm[i] = run_mm_case(&mm_cases[i], dir, &cfg, sgemm, 0x2545F4914F6CDD1Dull + (uint64_t)i);
        ok = ok && mm[i].ok;
    }
    print_mm_table(mm, &cfg, quick, sgemm != NULL);
    red_result red[NRED] = {{false, {NAN, NAN}}};
    ok = run_red_cases(dir, &cfg, red) && ok;
    print_red_table(red);
    if (!ok)
        fprintf(stderr, "bench: FAILED (a kernel did not compile or a result was wrong; see above)\n");
    return ok ? 0 : 1;
}
