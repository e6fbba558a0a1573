/* compile_latency.c: ptoc-bench-compile, the compile latency figures of issue 3.
 *
 * For each .pto file on the command line it runs the in-process pipeline from
 * text to object file, timing each stage:
 *
 *   parse     ptoc_parse (the file is read into memory beforehand)
 *   verify    ptoc_verify
 *   lower     ptoc_llvm_lower (cpu target, -O2, host CPU; includes creating
 *             the LLVM context and target machine)
 *   optimise  ptoc_llvm_optimize (the new pass manager, default<O2>)
 *   object    ptoc_llvm_emit_file(PTOC_EMIT_OBJ) to a temporary file
 *
 * Each stage's figure is its best over N runs, and the total is the best whole
 * run (so it can be a little more than the sum of the stage bests). Creating
 * the context, registering the dialects and setting the arch to cpu (what
 * `ptoc -target=cpu` does) happen before the clock starts.
 * The last columns are the object's size and the optimised IR's line count.
 * Exit status 1 if a file fails at any stage (its diagnostics are printed).
 *   ptoc-bench-compile [--quick] [-n N] FILE.pto...
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

/* What one run carries from stage to stage. */
typedef struct run_state {
    ptoc_context *ctx;
    const char *path, *text;
    size_t len;
    const char *obj_path;
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

/* One compile of `text`, with each stage's seconds in t[] and, when `lines` is
 * not NULL, the optimised IR's line count (after the clock). False after
 * printing what failed (diagnostics go to stderr through the context's default
 * handler). */
static bool compile_once(const char *path, const char *text, size_t len, const char *obj_path,
                         double t[NSTAGES], long long *lines)
{
    run_state s = {.ctx = ptoc_context_create(NULL), .path = path, .text = text, .len = len, .obj_path = obj_path};
    ptoc_register_all(s.ctx);
    ptoc_context_set_option(s.ctx, "pto-arch", "cpu");   /* as `ptoc -target=cpu` does */
    ptoc_source_add(s.ctx, ptoc_ident_cstr(s.ctx, path), text, len);
    bool ok = true;
    for (int i = 0; i < NSTAGES && ok; i++) {
        double start = bench_now();
        ok = stages[i].run(&s);
        t[i] = bench_now() - start;
        if (!ok)
            fprintf(stderr, "bench: %s: %s failed%s%s\n", path, stages[i].name, s.err ? ": " : "",
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

static bool measure_file(const char *path, const char *obj_path, int runs, latency *out)
{
    size_t len;
    char *text = bench_read_file(path, &len);
    if (!text)
        return false;
    *out = (latency){.total = INFINITY};
    for (int i = 0; i < NSTAGES; i++)
        out->stage[i] = INFINITY;
    bool ok = true;
    for (int r = 0; r < runs && ok; r++) {
        double t[NSTAGES], total = 0;
        ok = compile_once(path, text, len, obj_path, t, r == 0 ? &out->ir_lines : NULL);
        for (int i = 0; i < NSTAGES && ok; i++) {
            out->stage[i] = t[i] < out->stage[i] ? t[i] : out->stage[i];
            total += t[i];
        }
        out->total = ok && total < out->total ? total : out->total;
    }
    struct stat st;
    out->obj_bytes = ok && stat(obj_path, &st) == 0 ? (long long)st.st_size : -1;
    free(text);
    return ok;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--quick] [-n N] FILE.pto...\n", prog);
    return 2;
}

int main(int argc, char **argv)
{
    int runs = 10, first_file = 1;
    setvbuf(stdout, NULL, _IOLBF, 0);   /* rows and diagnostics in order */
    for (; first_file < argc && argv[first_file][0] == '-'; first_file++) {
        if (!strcmp(argv[first_file], "--quick"))
            runs = 1;
        else if (!strcmp(argv[first_file], "-n") && first_file + 1 < argc && atoi(argv[first_file + 1]) > 0)
            runs = atoi(argv[++first_file]);
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

    printf("ptoc compile latency, parse to object file (cpu target, -O2 for the host CPU), ms, best of %d run%s\n\n",
           runs, runs == 1 ? "" : "s");
    printf("%-22s", "kernel");
    for (int i = 0; i < NSTAGES; i++)
        printf(" %9s", stages[i].name);
    printf(" %9s %10s %9s\n", "total", "obj bytes", "IR lines");
    bool all_ok = true;
    for (int f = first_file; f < argc; f++) {
        latency l;
        bool ok = measure_file(argv[f], obj_path, runs, &l);
        all_ok = all_ok && ok;
        printf("%-22s", base_name(argv[f]));
        if (!ok) {
            printf(" error (see above)\n");
            continue;
        }
        for (int i = 0; i < NSTAGES; i++)
            printf(" %9.2f", l.stage[i] * 1e3);
        printf(" %9.2f %10lld %9lld\n", l.total * 1e3, l.obj_bytes, l.ir_lines);
    }
    unlink(obj_path);
    return all_ok ? 0 : 1;
}
