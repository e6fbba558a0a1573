/* throughput.c: ptoc-bench-throughput, the op throughput figures.
 *
 * Each case (THISTOGRAM u32 BYTE_3 on uniform, skewed and single-bin data,
 * TCOLEXPANDADD f32, TSELS f32, all on 64x4096 tiles) compiles its kernel
 * file from bench/kernels/ in process (-O2 for the host CPU, with the
 * simulated UB raised to 8 MiB: a 1 MiB tile is larger than a real UB), JITs
 * it, and calls its three functions directly with their C signatures:
 *
 *   <prefix>_load(in0, in1)  once: GM -> UB (simulated memory persists per
 *                            thread across direct calls, ptoc/runtime.h)
 *   <prefix>_op()            the op alone, UB -> UB: this is what is timed
 *   <prefix>_store(out)      once: the result back to GM, where it must equal
 *                            the plain C loop's bit for bit before any timing
 *
 * In the same run it times memcpy over as many bytes as the op moves (memcpy
 * of n bytes reads n and writes n, so n = (bytes the op reads + writes) / 2)
 * and the plain C loops of c_loops.c (-O2 baseline ISA, and -O2
 * -march=native). Every figure is the best per-call time over several
 * repeats of a calibrated batch of calls. One table row per case, with the
 * issue's targets marked PASS or MISS.
 *
 * A second table gives the cost of `ptoc --run`'s GM bounds checks: the
 * GM -> UB -> GM copies of bench/kernels/copy.pto (one tload and one tstore of
 * a 64x4096 and of a 16x16 f32 tile), compiled with the codegen option
 * gm_checks off (what every object ptoc writes runs) and on (what --run
 * runs, with the buffers registered), timed side by side.
 *
 * A third table runs the same kernels on the A5 model (-target=a5: the
 * vector ops lowered to micro-ops, run on the host as their intrinsics'
 * definitions): its result must equal the C loop's bit for bit too, and its
 * host time per call is given next to the cpu target's (the target: at most
 * 2x), with the cycles the A5 cost model gives the op (the pipe simulator's
 * total for one call). A kernel whose op the a5 target does not lower yet
 * says so.
 *
 * Exit status 1 if a kernel does not compile or a result is wrong; never
 * because of a missed target (figures are reported, not enforced).
 *   ptoc-bench-throughput [--quick] [--kernels DIR]
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_common.h"
#include "bench/bench_jit.h"
#include "ptoc/codegen.h"
#include "ptoc/pto.h"
#include "ptoc/ptoc.h"
#include "ptoc/runtime.h"

#ifndef PTOC_BENCH_KERNEL_DIR
#define PTOC_BENCH_KERNEL_DIR "bench/kernels"
#endif

enum { BENCH_UB_BYTES = 8 << 20, MAX_KERNELS = 16 };

/* ---------------------------------------------------------------- input data */

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

typedef void fill_fn(void *in0, void *in1, uint64_t *rng);

static void fill_u32_masked(uint32_t *dst, uint32_t and_mask, uint32_t or_mask, uint64_t *rng)
{
    for (size_t i = 0; i < BENCH_ELEMS; i++)
        dst[i] = ((uint32_t)(rng_next(rng) >> 32) & and_mask) | or_mask;
}

static void fill_floats(float *dst, size_t n, uint64_t *rng)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = rng_float(rng);
}

/* THISTOGRAM: in0 the u32 source, in1 the (unused, zeroed) idx row. */
static void fill_hist_uniform(void *in0, void *in1, uint64_t *rng)
{
    fill_u32_masked(in0, 0xFFFFFFFFu, 0, rng);
    (void)in1;
}

/* Top byte 0 or 1: every element lands in one of two hot bins. */
static void fill_hist_skewed(void *in0, void *in1, uint64_t *rng)
{
    fill_u32_masked(in0, 0x01FFFFFFu, 0, rng);
    (void)in1;
}

/* Top byte always 0x7F: one bin takes everything. */
static void fill_hist_one_bin(void *in0, void *in1, uint64_t *rng)
{
    fill_u32_masked(in0, 0x00FFFFFFu, 0x7F000000u, rng);
    (void)in1;
}

/* TCOLEXPANDADD: in0 the full tile, in1 the row. */
static void fill_colexpandadd(void *in0, void *in1, uint64_t *rng)
{
    fill_floats(in0, BENCH_ELEMS, rng);
    fill_floats(in1, BENCH_COLS, rng);
}

/* TSELS: in0 random mask bytes (half the bits set), in1 the source. */
static void fill_tsels(void *in0, void *in1, uint64_t *rng)
{
    uint8_t *mask = in0;
    for (size_t i = 0; i < (size_t)BENCH_ROWS * BENCH_MASK_COLS; i++)
        mask[i] = (uint8_t)(rng_next(rng) >> 56);
    fill_floats(in1, BENCH_ELEMS, rng);
}

/* ---------------------------------------------------------------- the cases */

typedef enum target_kind {
    TARGET_NONE,               /* figure only */
    TARGET_MEMCPY_2X,          /* op time <= 2 x memcpy time */
    TARGET_3G_ELEMS,           /* >= 3e9 elements/s */
    TARGET_SKEW_2X,            /* op time <= 2 x the `base` case's op time */
} target_kind;

static const char *const target_text[] = {"", "<= 2x memcpy", ">= 3 Gelem/s", "<= 2x uniform"};

typedef struct bench_case {
    const char *op, *data;
    const char *kernel;        /* file in the kernel directory */
    const char *prefix;        /* its functions: <prefix>_load, _op, _store */
    size_t in0_bytes, in1_bytes, out_bytes;
    size_t out_cols;           /* of the 4-byte output elements, for messages */
    size_t moved_bytes;        /* what the op reads + writes in UB */
    fill_fn *fill;
    bench_c_op *c_o2, *c_native;
    target_kind target;
    int base;                  /* TARGET_SKEW_2X: the row compared with */
} bench_case;

#define F32_TILE ((size_t)BENCH_ELEMS * 4)
#define HIST_TILE ((size_t)BENCH_ROWS * BENCH_BINS * 4)
#define MASK_TILE ((size_t)BENCH_ROWS * BENCH_MASK_COLS)
#define ROW_F32 ((size_t)BENCH_COLS * 4)
#define IDX_ROW ((size_t)32)

#ifdef PTOC_BENCH_HAVE_NATIVE
#define NATIVE(fn) fn##_native
#else
#define NATIVE(fn) NULL
#endif

/* THISTOGRAM moves: the source read, the histogram written. TCOLEXPANDADD:
 * the tile and the row read, dst written. TSELS: mask and source read, dst
 * written. */
static const bench_case cases[] = {
    {"THISTOGRAM u32 BYTE_3", "uniform", "thistogram.pto", "hist", F32_TILE, IDX_ROW, HIST_TILE, BENCH_BINS,
     F32_TILE + HIST_TILE, fill_hist_uniform, cl_histogram_byte3_o2, NATIVE(cl_histogram_byte3),
     TARGET_3G_ELEMS, 0},
    {"THISTOGRAM u32 BYTE_3", "skewed", "thistogram.pto", "hist", F32_TILE, IDX_ROW, HIST_TILE, BENCH_BINS,
     F32_TILE + HIST_TILE, fill_hist_skewed, cl_histogram_byte3_o2, NATIVE(cl_histogram_byte3),
     TARGET_SKEW_2X, 0},
    {"THISTOGRAM u32 BYTE_3", "one bin", "thistogram.pto", "hist", F32_TILE, IDX_ROW, HIST_TILE, BENCH_BINS,
     F32_TILE + HIST_TILE, fill_hist_one_bin, cl_histogram_byte3_o2, NATIVE(cl_histogram_byte3),
     TARGET_NONE, 0},
    {"TCOLEXPANDADD f32", "uniform", "tcolexpandadd.pto", "cea", F32_TILE, ROW_F32, F32_TILE, BENCH_COLS,
     F32_TILE + ROW_F32 + F32_TILE, fill_colexpandadd, cl_colexpandadd_o2, NATIVE(cl_colexpandadd),
     TARGET_MEMCPY_2X, 0},
    {"TSELS f32", "uniform", "tsels.pto", "sel", MASK_TILE, F32_TILE, F32_TILE, BENCH_COLS,
     MASK_TILE + F32_TILE + F32_TILE, fill_tsels, cl_tsels_o2, NATIVE(cl_tsels), TARGET_MEMCPY_2X, 0},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

/* ---------------------------------------------------------------- compiling kernels */

/* How a kernel is compiled: for cpu (with or without the GM checks) or for
 * the A5 model (with or without the pipe simulator's events). */
typedef enum variant { V_CPU, V_CPU_GM_CHECKS, V_A5, V_A5_EVENTS } variant;

typedef struct kernel {
    const char *file;
    variant how;
    bench_kernel k;
} kernel;

static kernel kernels[MAX_KERNELS];
static int nkernels;

/* UB raised; the a5 target's diagnostics silenced (an op it does not lower
 * is a figure, not an error). */
static bool compile_kernel(kernel *k, const char *path, variant how)
{
    bool a5 = how == V_A5 || how == V_A5_EVENTS;
    bench_compile_opts o = {.target = a5 ? "a5" : "cpu",
                            .vec_bytes = BENCH_UB_BYTES,
                            .gm_checks = how == V_CPU_GM_CHECKS,
                            .pipe_events = how == V_A5_EVENTS,
                            .quiet = a5};
    return bench_compile(&k->k, path, &o);
}

/* The JIT of `file` compiled `how`, compiled on first use; NULL if it does
 * not compile. */
static ptoc_jit *kernel_jit(const char *dir, const char *file, variant how)
{
    for (int i = 0; i < nkernels; i++)
        if (!strcmp(kernels[i].file, file) && kernels[i].how == how)
            return kernels[i].k.jit;
    if (nkernels == MAX_KERNELS)
        return NULL;
    kernel *k = &kernels[nkernels++];
    k->file = file;
    k->how = how;
    size_t n = strlen(dir) + strlen(file) + 2;
    char *path = malloc(n);
    if (!path)
        return NULL;
    snprintf(path, n, "%s/%s", dir, file);
    if (!compile_kernel(k, path, how) && how != V_A5 && how != V_A5_EVENTS)
        fprintf(stderr, "bench: %s did not compile (diagnostics above, if any)\n", path);
    free(path);
    return k->k.jit;
}

static void kernels_destroy(void)
{
    for (int i = 0; i < nkernels; i++)
        bench_kernel_destroy(&kernels[i].k);
}

typedef void load_fn(void *in0, void *in1);
typedef void op_fn(void);
typedef void store_fn(void *out);

typedef struct kernel_fns {
    load_fn *load;
    op_fn *op;
    store_fn *store;
} kernel_fns;

static bool kernel_functions(ptoc_jit *j, const char *prefix, kernel_fns *f)
{
    _Static_assert(sizeof f->load == sizeof(void *) && sizeof f->op == sizeof(void *) &&
                       sizeof f->store == sizeof(void *),
                   "function pointers are object-pointer sized");
    return bench_lookup(j, prefix, "_load", &f->load) && bench_lookup(j, prefix, "_op", &f->op) &&
           bench_lookup(j, prefix, "_store", &f->store);
}

/* ---------------------------------------------------------------- timing */

/* Calls through a volatile pointer cannot be folded across iterations. */
static void *(*volatile bench_memcpy)(void *, const void *, size_t) = memcpy;

typedef void copy_fn(const void *src, void *dst);

typedef struct timed {
    void (*run)(const struct timed *t);
    op_fn *kernel_op;
    bench_c_op *c_op;
    copy_fn *copy;
    const void *in0, *in1;
    void *out;
    size_t bytes;              /* memcpy: in0 -> out */
} timed;

static void run_kernel(const timed *t) { t->kernel_op(); }
static void run_c_loop(const timed *t) { t->c_op(t->in0, t->in1, t->out); }
static void run_memcpy(const timed *t) { bench_memcpy(t->out, t->in0, t->bytes); }
static void run_copy(const timed *t) { t->copy(t->in0, t->out); }

typedef struct timing {
    int repeats;
    double batch_seconds;      /* each repeat runs a batch of calls this long */
} timing;

/* What one case times, side by side. */
enum { T_KERNEL, T_MEMCPY, T_C_O2, T_C_NATIVE, NTIMED };

static void run_timed(const void *arg)
{
    const timed *t = arg;
    t->run(t);
}

/* Best seconds per call of each of the n (<= NTIMED) items with a `run`
 * (bench_time_interleaved); items without `run` get NAN. */
static void time_interleaved(const timed *items, int n, const timing *cfg, double *best)
{
    bench_item wrapped[NTIMED];
    for (int k = 0; k < n; k++)
        wrapped[k] = (bench_item){items[k].run ? run_timed : NULL, &items[k]};
    bench_time_interleaved(wrapped, n, cfg->repeats, cfg->batch_seconds, best);
}

/* ---------------------------------------------------------------- one case */

typedef struct result {
    bool compiled, correct;
    double t[NTIMED];          /* best seconds per call; NAN when not run */
} result;

typedef struct buffers {
    void *in0, *in1, *out_kernel, *out_c, *out_native;
    void *copy_src, *copy_dst;     /* memcpy's, moved_bytes / 2 each */
} buffers;

static void *alloc_buffer(size_t bytes)
{
    size_t rounded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    if (p)
        memset(p, 0, rounded);
    return p;
}

static bool buffers_alloc(buffers *b, const bench_case *c)
{
    b->in0 = alloc_buffer(c->in0_bytes);
    b->in1 = alloc_buffer(c->in1_bytes);
    b->out_kernel = alloc_buffer(c->out_bytes);
    b->out_c = alloc_buffer(c->out_bytes);
    b->out_native = alloc_buffer(c->out_bytes);
    b->copy_src = alloc_buffer(c->moved_bytes / 2);
    b->copy_dst = alloc_buffer(c->moved_bytes / 2);
    return b->in0 && b->in1 && b->out_kernel && b->out_c && b->out_native && b->copy_src && b->copy_dst;
}

static void buffers_free(buffers *b)
{
    free(b->in0);
    free(b->in1);
    free(b->out_kernel);
    free(b->out_c);
    free(b->out_native);
    free(b->copy_src);
    free(b->copy_dst);
}

/* Every output is 4-byte elements: report the first differing one. */
static bool same_output(const bench_case *c, const char *who, const void *got, const void *want)
{
    if (!memcmp(got, want, c->out_bytes))
        return true;
    const uint32_t *g = got, *w = want;
    size_t i = 0, cols = c->out_cols;
    while (g[i] == w[i])
        i++;
    fprintf(stderr, "bench: %s %s: %s result differs from the C loop at [%zu,%zu]: 0x%08x, expected 0x%08x\n",
            c->op, c->data, who, i / cols, i % cols, (unsigned)g[i], (unsigned)w[i]);
    return false;
}

/* The C loops' results, which must agree. */
static bool check_c_loops(const bench_case *c, const buffers *b)
{
    c->c_o2(b->in0, b->in1, b->out_c);
    if (!c->c_native)
        return true;
    c->c_native(b->in0, b->in1, b->out_native);
    return same_output(c, "C -march=native", b->out_native, b->out_c);
}

/* The kernel's result: loaded, run once, stored over a poison pattern and
 * compared with the C loop's. The operands stay in simulated UB for timing. */
static bool check_kernel(const bench_case *c, const buffers *b, const kernel_fns *f)
{
    f->load(b->in0, b->in1);
    f->op();
    memset(b->out_kernel, 0xA5, c->out_bytes);
    f->store(b->out_kernel);
    return same_output(c, "ptoc", b->out_kernel, b->out_c);
}

static result run_case(const bench_case *c, const char *kernel_dir, const timing *cfg, uint64_t seed)
{
    result r = {.correct = false};
    for (int k = 0; k < NTIMED; k++)
        r.t[k] = NAN;
    buffers b;
    if (!buffers_alloc(&b, c)) {
        fprintf(stderr, "bench: out of memory\n");
        buffers_free(&b);
        return r;
    }
    c->fill(b.in0, b.in1, &seed);
    ptoc_jit *j = kernel_jit(kernel_dir, c->kernel, V_CPU);
    kernel_fns f;
    r.compiled = j && kernel_functions(j, c->prefix, &f);
    bool c_ok = check_c_loops(c, &b);
    bool kernel_ok = c_ok && r.compiled && check_kernel(c, &b, &f);
    r.correct = c_ok && (kernel_ok || !r.compiled);
    if (c_ok) {
        timed items[NTIMED] = {
            [T_KERNEL] = {.run = kernel_ok ? run_kernel : NULL, .kernel_op = kernel_ok ? f.op : NULL},
            [T_MEMCPY] = {.run = run_memcpy, .in0 = b.copy_src, .out = b.copy_dst, .bytes = c->moved_bytes / 2},
            [T_C_O2] = {.run = run_c_loop, .c_op = c->c_o2, .in0 = b.in0, .in1 = b.in1, .out = b.out_c},
            [T_C_NATIVE] = {.run = c->c_native ? run_c_loop : NULL, .c_op = c->c_native, .in0 = b.in0,
                            .in1 = b.in1, .out = b.out_native},
        };
        time_interleaved(items, NTIMED, cfg, r.t);
    }
    buffers_free(&b);
    return r;
}

/* ---------------------------------------------------------------- the table */

static const char *verdict(const bench_case *c, const result *r, const result *all)
{
    if (c->target == TARGET_NONE)
        return "";
    if (isnan(r->t[T_KERNEL]) || (c->target == TARGET_SKEW_2X && isnan(all[c->base].t[T_KERNEL])))
        return "n/a";
    bool pass = c->target == TARGET_MEMCPY_2X ? r->t[T_KERNEL] <= 2 * r->t[T_MEMCPY]
                : c->target == TARGET_3G_ELEMS ? BENCH_ELEMS / r->t[T_KERNEL] >= 3e9
                                                : r->t[T_KERNEL] <= 2 * all[c->base].t[T_KERNEL];
    return pass ? "PASS" : "MISS";
}

static void print_ratio(double num, double den)
{
    if (isnan(num) || isnan(den))
        printf(" %9s", "-");
    else
        printf(" %9.2f", num / den);
}

static void print_table(const result *res, const timing *cfg, bool quick)
{
    printf("ptoc op throughput: %dx%d tiles (%d elements), -O2 for the host CPU, simulated UB %d MiB,\n"
           "best of %d rounds of ~%.0f ms batches, each round timing ptoc, memcpy and the C loops in turn%s\n\n",
           BENCH_ROWS, BENCH_COLS, BENCH_ELEMS, BENCH_UB_BYTES >> 20, cfg->repeats, cfg->batch_seconds * 1e3,
           quick ? " (--quick: the figures mean nothing)" : "");
    printf("%-22s %-8s %8s %9s %9s %9s %9s %9s  %-14s %s\n", "op", "data", "Gelem/s", "us/tile", "memcpy KiB",
           "x memcpy", "x C -O2", "x C nat.", "target", "");
    for (int i = 0; i < NCASES; i++) {
        const bench_case *c = &cases[i];
        const result *r = &res[i];
        printf("%-22s %-8s", c->op, c->data);
        if (isnan(r->t[T_KERNEL]))
            printf(" %8s %9s", r->compiled ? "wrong" : "no jit", "-");
        else
            printf(" %8.2f %9.1f", BENCH_ELEMS / r->t[T_KERNEL] * 1e-9, r->t[T_KERNEL] * 1e6);
        printf(" %10zu", c->moved_bytes / 2 / 1024);
        print_ratio(r->t[T_KERNEL], r->t[T_MEMCPY]);
        print_ratio(r->t[T_KERNEL], r->t[T_C_O2]);
        print_ratio(r->t[T_KERNEL], r->t[T_C_NATIVE]);
        printf("  %-14s %s\n", target_text[c->target], verdict(c, r, res));
    }
    printf("\nGelem/s: source elements per second of the JIT'd op alone (UB to UB).\n"
           "x memcpy: op time / time of memcpy(n) with n = (bytes the op reads + writes) / 2, so both\n"
           "move the same bytes. x C -O2 / x C nat.: op time / time of the plain C loop (bench/c_loops.c)\n"
           "at -O2 / -O2 -march=native. Below 1 means ptoc is faster.\n\nreference figures, per tile:\n");
    for (int i = 0; i < NCASES; i++)
        printf("  %-22s %-8s memcpy %7.1f us (%5.1f GB/s), C -O2 %7.1f us, C native %7.1f us\n", cases[i].op,
               cases[i].data, res[i].t[T_MEMCPY] * 1e6, (double)cases[i].moved_bytes / res[i].t[T_MEMCPY] * 1e-9,
               res[i].t[T_C_O2] * 1e6, res[i].t[T_C_NATIVE] * 1e6);
}

/* ---------------------------------------------------------------- GM checks */

/* One copy of copy.pto: its function and the f32 elements it moves each way. */
typedef struct gm_case {
    const char *label, *fn;
    size_t elems;
} gm_case;

static const gm_case gm_cases[] = {
    {"64x4096 f32", "copy_big", BENCH_ELEMS},
    {"16x16 f32", "copy_small", 256},
};
enum { NGM = sizeof gm_cases / sizeof gm_cases[0], GM_OFF = 0, GM_ON = 1 };

typedef struct gm_result {
    bool ok;
    double t[2];               /* best seconds per call, checks off / on */
} gm_result;

/* The copy compiled with and without checks; each must copy exactly. */
static bool gm_functions(const char *dir, const gm_case *c, const float *src, float *dst, copy_fn *fns[2])
{
    for (int on = 0; on < 2; on++) {
        ptoc_jit *j = kernel_jit(dir, "copy.pto", on ? V_CPU_GM_CHECKS : V_CPU);
        if (!j || !bench_lookup(j, c->fn, "", &fns[on]))
            return false;
        memset(dst, 0xA5, c->elems * sizeof *dst);
        fns[on](src, dst);
        if (memcmp(src, dst, c->elems * sizeof *dst) != 0) {
            fprintf(stderr, "bench: %s (GM checks %s) did not copy its input\n", c->fn, on ? "on" : "off");
            return false;
        }
    }
    return true;
}

static gm_result run_gm_case(const gm_case *c, const char *dir, const timing *cfg, uint64_t seed)
{
    gm_result r = {false, {NAN, NAN}};
    size_t bytes = c->elems * sizeof(float);
    float *src = alloc_buffer(bytes), *dst = alloc_buffer(bytes);
    copy_fn *fns[2];
    bool registered = src && dst && ptoc_rt_gm_register(src, bytes, "src") && ptoc_rt_gm_register(dst, bytes, "dst");
    if (registered) {
        fill_floats(src, c->elems, &seed);
        r.ok = gm_functions(dir, c, src, dst, fns);
    }
    if (r.ok) {
        timed items[2] = {{.run = run_copy, .copy = fns[GM_OFF], .in0 = src, .out = dst},
                          {.run = run_copy, .copy = fns[GM_ON], .in0 = src, .out = dst}};
        time_interleaved(items, 2, cfg, r.t);
    }
    ptoc_rt_gm_clear();
    free(src);
    free(dst);
    return r;
}

static void print_gm_table(const gm_result *res)
{
    printf("\nGM bounds checks (what ptoc --run adds; objects have none): GM -> UB -> GM copies of\n"
           "bench/kernels/copy.pto, one tload and one tstore each, checks off and on, timed in turn\n\n");
    printf("%-14s %12s %14s %14s %10s\n", "tile", "bytes", "checks off us", "checks on us", "on / off");
    for (int i = 0; i < NGM; i++) {
        const gm_result *r = &res[i];
        printf("%-14s %12zu", gm_cases[i].label, gm_cases[i].elems * sizeof(float));
        if (!r->ok)
            printf(" %14s %14s %10s\n", "failed", "-", "-");
        else
            printf(" %14.3f %14.3f %10.3f\n", r->t[GM_OFF] * 1e6, r->t[GM_ON] * 1e6, r->t[GM_ON] / r->t[GM_OFF]);
    }
}

/* ---------------------------------------------------------------- the A5 model */

typedef struct a5_result {
    bool lowered, correct;
    double t_a5, t_cpu;        /* best seconds per call */
    uint64_t cycles;           /* the A5 model's cycles for one call of the op; 0: unknown */
} a5_result;

/* The pipe simulator's total for one call of the op (the kernel built with
 * pipe events), under A5's rules; 0 when it cannot tell. */
static uint64_t modelled_cycles(const char *dir, const bench_case *c, const buffers *b)
{
    ptoc_jit *j = kernel_jit(dir, c->kernel, V_A5_EVENTS);
    kernel_fns f;
    if (!j || !kernel_functions(j, c->prefix, &f))
        return 0;
    f.load(b->in0, b->in1);
    ptoc_rt_pipe_reset();
    f.op();
    ptoc_rt_arch_rules rules = ptoc_pipe_rules(PTOC_PTO_ARCH_A5);
    char *text = ptoc_rt_pipe_stats(&rules);
    const char *total = text ? strstr(text, "total") : NULL;
    unsigned long long cycles = 0;
    if (!total || sscanf(total, "total %llu", &cycles) != 1)
        cycles = 0;
    free(text);
    ptoc_rt_pipe_reset();
    return cycles;
}

static a5_result run_a5_case(const bench_case *c, const char *dir, const timing *cfg, uint64_t seed)
{
    a5_result r = {false, false, NAN, NAN, 0};
    buffers b;
    if (!buffers_alloc(&b, c)) {
        buffers_free(&b);
        return r;
    }
    c->fill(b.in0, b.in1, &seed);
    ptoc_jit *a5 = kernel_jit(dir, c->kernel, V_A5), *cpu = kernel_jit(dir, c->kernel, V_CPU);
    kernel_fns fa, fc;
    r.lowered = a5 && kernel_functions(a5, c->prefix, &fa);
    r.correct = !r.lowered;
    if (r.lowered && cpu && kernel_functions(cpu, c->prefix, &fc) && check_c_loops(c, &b)) {
        r.correct = check_kernel(c, &b, &fa);
        /* both kernels' operands in simulated UB, as check_kernel left them */
        fc.load(b.in0, b.in1);
        timed items[2] = {{.run = run_kernel, .kernel_op = fa.op}, {.run = run_kernel, .kernel_op = fc.op}};
        double t[2];
        if (r.correct) {
            time_interleaved(items, 2, cfg, t);
            r.t_a5 = t[0];
            r.t_cpu = t[1];
            r.cycles = modelled_cycles(dir, c, &b);
        }
    }
    buffers_free(&b);
    return r;
}

static void print_a5_table(const a5_result *res)
{
    printf("\nthe A5 model (-target=a5: micro-ops run as their intrinsics' definitions) on the same\n"
           "kernels: its result equals the C loop's; host time per call next to the cpu target's\n\n");
    printf("%-22s %-8s %12s %12s %10s  %-10s %14s\n", "op", "data", "a5 us/tile", "cpu us/tile", "a5 / cpu",
           "target", "A5 cycles");
    for (int i = 0; i < NCASES; i++) {
        const a5_result *r = &res[i];
        printf("%-22s %-8s", cases[i].op, cases[i].data);
        if (!r->lowered)
            printf(" %12s\n", "no a5 build (an op not lowered or not legal on A5)");
        else if (isnan(r->t_a5))
            printf(" %12s\n", r->correct ? "-" : "wrong");
        else
            printf(" %12.1f %12.1f %10.2f  %-10s %14llu\n", r->t_a5 * 1e6, r->t_cpu * 1e6, r->t_a5 / r->t_cpu,
                   r->t_a5 <= 2 * r->t_cpu ? "<= 2x PASS" : "<= 2x MISS", (unsigned long long)r->cycles);
    }
    printf("\nA5 cycles: the pipe simulator's total for one call of the op on the A5 model's costs\n"
           "(docs/targets.md, Costs): startup + issue cycles / 2 ports + longest latency + drain.\n");
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    bool quick = false;
    setvbuf(stdout, NULL, _IOLBF, 0);   /* rows and diagnostics in order */
    const char *kernel_dir = PTOC_BENCH_KERNEL_DIR;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = true;
        else if (!strcmp(argv[i], "--kernels") && i + 1 < argc)
            kernel_dir = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--quick] [--kernels DIR]\n", argv[0]);
            return 2;
        }
    }
    timing cfg = quick ? (timing){2, 0.001} : (timing){40, 0.005};
    result res[NCASES];
    bool ok = true;
    for (int i = 0; i < NCASES; i++) {
        res[i] = run_case(&cases[i], kernel_dir, &cfg, 0x9E3779B97F4A7C15ull + (uint64_t)i);
        ok = ok && res[i].compiled && res[i].correct;
    }
    print_table(res, &cfg, quick);
    gm_result gm[NGM];
    for (int i = 0; i < NGM; i++) {
        gm[i] = run_gm_case(&gm_cases[i], kernel_dir, &cfg, 0x2545F4914F6CDD1Dull + (uint64_t)i);
        ok = ok && gm[i].ok;
    }
    print_gm_table(gm);
    a5_result a5[NCASES];
    for (int i = 0; i < NCASES; i++) {
        a5[i] = run_a5_case(&cases[i], kernel_dir, &cfg, 0x9E3779B97F4A7C15ull + (uint64_t)i);
        ok = ok && a5[i].correct;
    }
    print_a5_table(a5);
    kernels_destroy();
    if (!ok)
        fprintf(stderr, "bench: FAILED (a kernel did not compile or a result was wrong; see above)\n");
    return ok ? 0 : 1;
}
