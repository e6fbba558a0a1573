/* compile_latency.c: ptoc-bench-compile, compile latency and compile time per
 * tile op.
 *
 * It runs the in-process pipeline from text to object file, timing each stage:
 *
 *   parse     ptoc_parse (the file is read into memory beforehand)
 *   verify    ptoc_verify
 *   lower     ptoc_llvm_lower (cpu target, host CPU; includes creating
 *             the LLVM context and target machine)
 *   optimise  ptoc_llvm_optimize (the new pass manager, default<On>)
 *   object    ptoc_llvm_emit_file(PTOC_EMIT_OBJ) to a temporary file
 *
 * The first table is every .pto file on the command line at -O2, with the
 * object's size and the optimised IR's line count; after it, the same files
 * compiled for -target=a5 (its lowering passes count in the lower stage),
 * total next to cpu's, or "not lowered on a5 yet" for a file with an op the
 * a5 target does not lower. The table after that is
 * the generated kernels (tileop_kernel.c) of 1 and 8 tile ops, of the whole cycle
 * of 24 different ops, and of that cycle 4 times (96 ops, repeating as ops do
 * in kernels), at -O0 and -O2, with the total divided by the number of tile
 * ops, what each repeated op adds, and the -O2 target of 3 ms per tile op
 * marked PASS or MISS for the 24 and the 96 ops.
 *
 * Times are the process's CPU time, not wall time, so that other programs on
 * a shared machine do not count. Each stage's figure is its best over N runs,
 * and the total is the best whole run (so it can be a little more than the sum
 * of the stage bests). Creating the context, registering the dialects and
 * setting the arch to cpu (what `ptoc -target=cpu` does) happen before the
 * clock starts. Exit status 1 if a kernel fails at any stage (its diagnostics
 * are printed); never because of a missed target. --print-kernel N writes the
 * generated kernel of N tile ops to stdout instead (to feed it to ptoc or a
 * profiler).
 *   ptoc-bench-compile [--quick] [-n N] [--print-kernel N] FILE.pto...
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench_common.h"
#include "ptoc/codegen.h"
#include "ptoc/ptoc.h"

/* The -O2 target for the generated kernels, ms per tile op. */
#define TARGET_MS_PER_TILE_OP 3.0

/* What one run carries from stage to stage. */
typedef struct run_state {
    ptoc_context *ctx;
    const char *path, *text;
    size_t len;
    int opt_level;
    const char *obj_path;
    const ptoc_target *target;
    ptoc_op *module;
    ptoc_llvm_module *llvm;
    char *err;                 /* from optimise/object, malloc'd */
} run_state;

static bool stage_parse(run_state *s)
{
    s->module = ptoc_parse(s->ctx, ptoc_arena_create(s->ctx), s->text, s->len, s->path, NULL);
    return s->module != NULL;
}

static bool stage_verify(run_state *s) { return ptoc_verify(s->module); }

static bool stage_lower(run_state *s)
{
    ptoc_codegen_options opts = ptoc_codegen_defaults();
    opts.opt_level = s->opt_level;
    opts.target = s->target;
    if (s->target->lowering) {                /* a5: pto-lower-a5, pto-split-u64 first */
        ptoc_pm_config config = {.verify_each = false};
        ptoc_pm *pm = ptoc_pm_create(s->ctx, &config);
        bool ok = ptoc_pm_parse(pm, s->target->lowering) && ptoc_pm_run(pm, s->module, ptoc_arena_create(s->ctx));
        ptoc_pm_destroy(pm);
        if (!ok)
            return false;
    }
    s->llvm = ptoc_llvm_lower(s->module, &opts);
    return s->llvm != NULL;
}

static bool stage_optimise(run_state *s) { return ptoc_llvm_optimize(s->llvm, &s->err); }

static bool stage_object(run_state *s) { return ptoc_llvm_emit_file(s->llvm, PTOC_EMIT_OBJ, s->obj_path, &s->err); }

static const struct {
    const char *name;
    bool (*run)(run_state *s);
} stages[] = {
    {"parse", stage_parse}, {"verify", stage_verify}, {"lower", stage_lower},
    {"optimise", stage_optimise}, {"object", stage_object},
};
enum { NSTAGES = sizeof stages / sizeof stages[0] };

/* Lines of the optimised module's textual IR: how much code the object stage
 * has to select instructions for. -1 if it cannot be printed. */
static long long ir_lines(ptoc_llvm_module *m)
{
    char *err = NULL, *ir = ptoc_llvm_emit_string(m, PTOC_EMIT_LLVM, &err);
    long long lines = ir ? 0 : -1;
    for (const char *c = ir; c && *c; c++)
        lines += *c == '\n';
    free(ir);
    free(err);
    return lines;
}

/* What is compiled, and how. */
typedef struct kernel {
    const char *path;          /* the name in diagnostics */
    const char *text;
    size_t len;
    int opt_level;
    const ptoc_target *target; /* NULL: cpu */
} kernel;

static void quiet(void *user, const ptoc_diagnostic *d)
{
    (void)user;
    (void)d;
}

/* One compile of `k`, with each stage's CPU seconds in t[] and, when `lines`
 * is not NULL, the optimised IR's line count (after the clock). False after
 * printing what failed (diagnostics go to stderr through the context's default
 * handler). */
static bool compile_once(const kernel *k, const char *obj_path, double t[NSTAGES], long long *lines)
{
    const ptoc_target *target = k->target ? k->target : ptoc_target_default();
    run_state s = {.ctx = ptoc_context_create(NULL), .path = k->path, .text = k->text, .len = k->len,
                   .opt_level = k->opt_level, .obj_path = obj_path, .target = target};
    ptoc_register_all(s.ctx);
    ptoc_context_set_option(s.ctx, "pto-arch", target->arch);   /* as `ptoc -target=...` does */
    if (k->target)                      /* a5: an op it does not lower is a figure, not an error */
        ptoc_context_set_diag_handler(s.ctx, quiet, NULL, NULL);
    ptoc_source_add(s.ctx, ptoc_ident_cstr(s.ctx, k->path), k->text, k->len);
    bool ok = true;
    for (int i = 0; i < NSTAGES && ok; i++) {
        double start = bench_cpu_now();
        ok = stages[i].run(&s);
        t[i] = bench_cpu_now() - start;
        if (!ok && !k->target)
            fprintf(stderr, "bench: %s: %s failed%s%s\n", k->path, stages[i].name, s.err ? ": " : "",
                    s.err ? s.err : "");
    }
    if (ok && lines)
        *lines = ir_lines(s.llvm);
    free(s.err);
    if (s.llvm)
        ptoc_llvm_module_destroy(s.llvm);
    ptoc_context_destroy(s.ctx);
    return ok;
}

typedef struct latency {
    double stage[NSTAGES];     /* best seconds per stage */
    double total;              /* best whole run */
    long long obj_bytes, ir_lines;
} latency;

static bool measure(const kernel *k, const char *obj_path, int runs, latency *out)
{
    *out = (latency){.total = INFINITY};
    for (int i = 0; i < NSTAGES; i++)
        out->stage[i] = INFINITY;
    bool ok = true;
    for (int r = 0; r < runs && ok; r++) {
        double t[NSTAGES], total = 0;
        ok = compile_once(k, obj_path, t, r == 0 ? &out->ir_lines : NULL);
        for (int i = 0; i < NSTAGES && ok; i++) {
            out->stage[i] = t[i] < out->stage[i] ? t[i] : out->stage[i];
            total += t[i];
        }
        out->total = ok && total < out->total ? total : out->total;
    }
    struct stat st;
    out->obj_bytes = ok && stat(obj_path, &st) == 0 ? (long long)st.st_size : -1;
    return ok;
}

static void print_stage_header(const char *first, int width)
{
    printf("%-*s", width, first);
    for (int i = 0; i < NSTAGES; i++)
        printf(" %9s", stages[i].name);
    printf(" %9s", "total");
}

static void print_stages(const latency *l)
{
    for (int i = 0; i < NSTAGES; i++)
        printf(" %9.2f", l->stage[i] * 1e3);
    printf(" %9.2f", l->total * 1e3);
}

/* ---------------------------------------------------------------- the files */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool file_table(char **paths, int npaths, const char *obj_path, int runs)
{
    printf("ptoc compile latency, parse to object file (cpu target, -O2 for the host CPU), "
           "ms of CPU time, best of %d run%s\n\n", runs, runs == 1 ? "" : "s");
    print_stage_header("kernel", 22);
    printf(" %10s %9s\n", "obj bytes", "IR lines");
    bool all_ok = true;
    for (int f = 0; f < npaths; f++) {
        size_t len;
        char *text = bench_read_file(paths[f], &len);
        kernel k = {paths[f], text, len, 2};
        latency l;
        bool ok = text && measure(&k, obj_path, runs, &l);
        free(text);
        all_ok = all_ok && ok;
        printf("%-22s", base_name(paths[f]));
        if (!ok) {
            printf(" error (see above)\n");
            continue;
        }
        print_stages(&l);
        printf(" %10lld %9lld\n", l.obj_bytes, l.ir_lines);
    }
    return all_ok;
}

/* The files again for -target=a5, total next to cpu's. */
static void a5_table(char **paths, int npaths, const char *obj_path, int runs)
{
    printf("\n-target=a5 (the A5 micro-op program, its intrinsics linked in) next to cpu, -O2, ms of CPU "
           "time, best of %d\n\n%-22s %9s %9s %9s\n", runs, "kernel", "a5", "cpu", "a5 / cpu");
    const ptoc_target *a5 = ptoc_target_find("a5");
    for (int f = 0; f < npaths; f++) {
        size_t len;
        char *text = bench_read_file(paths[f], &len);
        kernel ka = {paths[f], text, len, 2, a5}, kc = {paths[f], text, len, 2, NULL};
        latency la, lc;
        bool ok = text && measure(&ka, obj_path, runs, &la);
        bool cpu_ok = ok && measure(&kc, obj_path, runs, &lc);
        free(text);
        printf("%-22s", base_name(paths[f]));
        if (!ok)
            printf(" %s\n", "not lowered on a5 yet");
        else if (cpu_ok)
            printf(" %9.2f %9.2f %9.2f\n", la.total * 1e3, lc.total * 1e3, la.total / lc.total);
        else
            printf(" %9.2f %9s\n", la.total * 1e3, "error");
    }
}

/* ---------------------------------------------------------------- per tile op */

/* Kernel sizes: one op; the first 8 of the cycle; the whole cycle, every op
 * different; the cycle 4 times, where ops repeat as they do in kernels. */
static const int tileop_counts[] = {1, 8, BENCH_TILEOP_CYCLE, 4 * BENCH_TILEOP_CYCLE};
enum { NCOUNTS = sizeof tileop_counts / sizeof tileop_counts[0], CYCLE_ROW = 2, REPEAT_ROW = 3 };

/* The generated kernel of `nops` tile ops at `level`; its total in *total. */
static bool tileop_row(int level, int nops, const char *obj_path, int runs, double *total)
{
    char name[64];
    snprintf(name, sizeof name, "tileops-%d.pto", nops);
    char *text = bench_tileop_kernel(nops);
    kernel k = {name, text, text ? strlen(text) : 0, level};
    latency l;
    bool ok = text && measure(&k, obj_path, runs, &l);
    free(text);
    printf("-O%d   %5d", level, nops);
    if (!ok) {
        printf(" error (see above)\n");
        return false;
    }
    print_stages(&l);
    *total = l.total;
    printf(" %9.2f %9lld\n", l.total * 1e3 / nops, l.ir_lines);
    return true;
}

static const char *verdict(double ms_per_op)
{
    return ms_per_op <= TARGET_MS_PER_TILE_OP ? "PASS" : "MISS";
}

/* The figures per level: ms per op with every op different and with repeats,
 * and what each op added from the one to the other costs. */
static void print_summary(int level, const double total[NCOUNTS])
{
    int distinct = tileop_counts[CYCLE_ROW], all = tileop_counts[REPEAT_ROW];
    double per_distinct = total[CYCLE_ROW] * 1e3 / distinct, per_op = total[REPEAT_ROW] * 1e3 / all;
    double per_added = (total[REPEAT_ROW] - total[CYCLE_ROW]) * 1e3 / (all - distinct);
    printf("  -O%d: %d different ops %.2f ms per tile op; %d ops (each 4 times) %.2f ms per tile op, "
           "%.2f ms per repeated op\n", level, distinct, per_distinct, all, per_op, per_added);
    if (level == 2)
        printf("        target <= %.0f ms per tile op: %d different ops %s, %d ops %s\n", TARGET_MS_PER_TILE_OP,
               distinct, verdict(per_distinct), all, verdict(per_op));
}

/* The same kernels compiled by ptoc before the tile loops were kept rolled and
 * repeated ops shared (commit 98c8008, 2-core AMD EPYC, znver3; the
 * --print-kernel output timed by this bench's first table, best of 3): -O2 ms
 * per tile op for 1, 8, 16 and 64 ops of the cycle of 16 vector ops it had
 * then (the cube, conversion, reduction and unary ops came later). */
static const int recorded_counts[NCOUNTS] = {1, 8, 16, 64};
static const double recorded_o2[NCOUNTS] = {52.00, 11.82, 18.17, 25.95};

static bool tileop_table(const char *obj_path, int runs)
{
    static const int levels[] = {0, 2};
    printf("\nptoc compile time per tile op: generated kernels of N tile ops (bench/tileop_kernel.c: a cycle of "
           "%d ops,\n6 dtypes, static, ragged and dynamic valid shapes), ms of CPU time, best of %d run%s\n\n",
           BENCH_TILEOP_CYCLE, runs, runs == 1 ? "" : "s");
    print_stage_header("level   ops", 11);
    printf(" %9s %9s\n", "ms/op", "IR lines");
    bool all_ok = true;
    double total[2][NCOUNTS] = {{0}};
    for (int l = 0; l < 2; l++)
        for (int c = 0; c < NCOUNTS; c++)
            all_ok = tileop_row(levels[l], tileop_counts[c], obj_path, runs, &total[l][c]) && all_ok;
    if (!all_ok)
        return false;
    printf("\n");
    for (int l = 0; l < 2; l++)
        print_summary(levels[l], total[l]);
    printf("  recorded before rolled rows and shared ops (commit 98c8008, 2-core AMD EPYC, its 16-op cycle):\n"
           "    -O2 ms per tile op");
    for (int c = 0; c < NCOUNTS; c++)
        printf("%s %d ops %.2f", c ? "," : "", recorded_counts[c], recorded_o2[c]);
    printf("\n");
    return true;
}

/* ---------------------------------------------------------------- main */

static int usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--quick] [-n N] [--print-kernel N] FILE.pto...\n", prog);
    return 2;
}

static int print_kernel(int nops)
{
    char *text = bench_tileop_kernel(nops);
    if (!text)
        return 1;
    fputs(text, stdout);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    int runs = 10, first_file = 1;
    setvbuf(stdout, NULL, _IOLBF, 0);   /* rows and diagnostics in order */
    for (; first_file < argc && argv[first_file][0] == '-'; first_file++) {
        const char *next = first_file + 1 < argc ? argv[first_file + 1] : NULL;
        if (!strcmp(argv[first_file], "--quick"))
            runs = 1;
        else if (!strcmp(argv[first_file], "-n") && next && atoi(next) > 0)
            runs = atoi(argv[++first_file]);
        else if (!strcmp(argv[first_file], "--print-kernel") && next && atoi(next) > 0)
            return print_kernel(atoi(next));
        else
            return usage(argv[0]);
    }
    if (first_file == argc)
        return usage(argv[0]);
    const char *tmpdir = getenv("TMPDIR");
    char obj_path[4096];
    snprintf(obj_path, sizeof obj_path, "%s/ptoc-bench-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(obj_path);
    if (fd < 0) {
        perror("bench: mkstemp");
        return 1;
    }
    close(fd);
    bool ok = file_table(argv + first_file, argc - first_file, obj_path, runs);
    a5_table(argv + first_file, argc - first_file, obj_path, runs);
    ok = tileop_table(obj_path, runs) && ok;
    unlink(obj_path);
    return ok ? 0 : 1;
}
