/* memplan_bench.c: ptoc-bench-memplan, the planning-time figure.
 *
 * It generates kernels with many address-less tile buffers and times
 * pto-plan-memory alone on each (parsing excluded; each run parses a fresh copy
 * because the pass rewrites the IR), then pto-insert-tassign after it. Kernels:
 *   straight   N buffers in straight-line code, each written by a tload or an
 *              elementwise op reading two of the last eight, stored now and then
 *   nested     the same cut into groups of 16 statements, each group the body
 *              of an scf.for (half carrying a buffer in iter_args) or an arm of
 *              an scf.if
 * Buffers are 16x16 or 8x64 f32 (1 KiB or 2 KiB), so the live set stays far
 * below the A5 vec capacity whatever N is. Figures are the best of -n runs.
 * Target: under 100 ms for 10k buffers. Exit status 1 if a pass fails.
 *   ptoc-bench-memplan [--quick] [-n RUNS]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_common.h"
#include "ptoc/ptoc.h"

#define WINDOW 8

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s)
            abort();
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* Whether buffer j is in scope at buffer i: in nested kernels, the first two of
 * each group of 16 are at top level, the others inside the group's region. */
static bool visible(int j, int i, bool nested)
{
    return j >= 0 && (!nested || j / 16 == i / 16 || j % 16 < 2);
}

/* One buffer: alloc, then a write that reads earlier buffers of its type. */
static void put_buffer(text *t, int i, bool nested, uint64_t *rng)
{
    *rng = *rng * 6364136223846793005u + 1442695040888963407u;
    unsigned r = (unsigned)(*rng >> 33);
    int ty = i % 2;
    put(t, "  %%b%d = pto.alloc_tile : !T%d\n", i, ty);
    int a = i - 2 * (1 + (int)(r % (WINDOW / 2))), b = i - 2;
    if (!visible(a, i, nested) || !visible(b, i, nested) || r % 5 == 0)
        put(t, "  pto.tload ins(%%p%d : !P%d) outs(%%b%d : !T%d)\n", ty, ty, i, ty);
    else
        put(t, "  pto.%s ins(%%b%d, %%b%d : !T%d, !T%d) outs(%%b%d : !T%d)\n", r % 2 ? "tadd" : "tmul", a, b, ty, ty,
            i, ty);
    if (r % 7 == 0)
        put(t, "  pto.tstore ins(%%b%d : !T%d) outs(%%p%d : !P%d)\n", i, ty, ty, ty);
}

static char *make_kernel(int nbufs, bool nested)
{
    text t = {0};
    put(&t, "!T0 = !pto.tile_buf<vec, 16x16xf32>\n!P0 = !pto.partition_tensor_view<16x16xf32>\n"
            "!T1 = !pto.tile_buf<vec, 8x64xf32>\n!P1 = !pto.partition_tensor_view<8x64xf32>\n"
            "module attributes {pto.target_arch = \"a5\"} {\n"
            "func.func @k(%%p0: !P0, %%p1: !P1, %%q: i1) {\n"
            "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
            "  %%c4 = arith.constant 4 : index\n");
    uint64_t rng = 42;
    for (int i = 0; i < nbufs; i++) {
        /* nested: every group of 16 is a loop body or an if arm; buffers read
         * across groups are the ones defined at top level (the first two of a group) */
        int g = i / 16, k = i % 16;
        if (nested && k == 2)
            put(&t, g % 3 == 2 ? "  scf.if %%q {\n" : "  scf.for %%i%d = %%c0 to %%c4 step %%c1 {\n", g);
        if (nested && k >= 2)
            put(&t, "  pto.tload ins(%%p%d : !P%d) outs(%%b%d : !T%d)\n", i % 2, i % 2, i - 2, i % 2);
        put_buffer(&t, i, nested, &rng);
        if (nested && (k == 15 || i == nbufs - 1) && k >= 2)
            put(&t, "  }\n");
    }
    put(&t, "  return\n}\n}\n");
    return t.s;
}

/* Parses `src`, then times each pass of `pipeline` (comma-separated) in turn. */
static bool time_passes(const char *src, const char *const *passes, int npasses, double *best, int runs)
{
    for (int p = 0; p < npasses; p++)
        best[p] = 1e30;
    for (int r = 0; r < runs; r++) {
        ptoc_context *ctx = ptoc_context_create(NULL);
        ptoc_register_all(ctx);
        ptoc_arena *arena = ptoc_arena_create(ctx);
        ptoc_op *module = ptoc_parse(ctx, arena, src, strlen(src), "memplan-bench.pto", NULL);
        bool ok = module != NULL;
        for (int p = 0; ok && p < npasses; p++) {
            ptoc_pm *pm = ptoc_pm_create(ctx, &(ptoc_pm_config){0});
            ok = ptoc_pm_parse(pm, passes[p]);
            double t0 = bench_now();
            ok = ok && ptoc_pm_run(pm, module, arena);
            double dt = bench_now() - t0;
            if (dt < best[p])
                best[p] = dt;
            ptoc_pm_destroy(pm);
        }
        ptoc_arena_destroy(arena);
        ptoc_context_destroy(ctx);
        if (!ok)
            return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    bool quick = false;
    int runs = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = true;
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: ptoc-bench-memplan [--quick] [-n RUNS]\n");
            return 2;
        }
    }
    if (quick)
        runs = 1;
    static const int sizes[] = {1000, 10000};
    static const char *const passes[] = {"pto-plan-memory", "pto-insert-tassign"};
    printf("memory planning time (best of %d runs; parse excluded; target: plan < 100 ms at 10k buffers)\n", runs);
    printf("%-10s %8s %10s %14s %16s\n", "kernel", "buffers", "text KiB", "plan (ms)", "tassign (ms)");
    int status = 0;
    for (int nested = 0; nested < 2; nested++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            if (quick && sizes[s] > 1000)
                continue;
            char *src = make_kernel(sizes[s], nested);
            double best[2];
            bool ok = time_passes(src, passes, 2, best, runs);
            if (ok)
                printf("%-10s %8d %10zu %14.2f %16.2f\n", nested ? "nested" : "straight", sizes[s],
                       strlen(src) / 1024, best[0] * 1e3, best[1] * 1e3);
            else
                printf("%-10s %8d  FAILED (diagnostics above)\n", nested ? "nested" : "straight", sizes[s]);
            status |= !ok;
            free(src);
        }
    return status;
}
