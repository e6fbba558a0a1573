/* bench_jit.c: the in-process compile and the interleaved timing of
 * bench_jit.h. */
#define _POSIX_C_SOURCE 200809L
#include "bench/bench_jit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_common.h"
#include "ptoc/pto.h"

static bool report_err(const char *what, const char *path, char *err)
{
    fprintf(stderr, "bench: %s %s: %s\n", what, path, err ? err : "failed");
    free(err);
    return false;
}

/* The target's lowering passes (a5: pto-lower-a5, pto-split-u64). */
static bool lower_for(ptoc_context *ctx, ptoc_op *module, const ptoc_target *t)
{
    ptoc_pm_config config = {.verify_each = true};
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    bool ok = ptoc_pm_parse(pm, t->lowering) && ptoc_pm_run(pm, module, ptoc_arena_create(ctx));
    ptoc_pm_destroy(pm);
    return ok;
}

static void quiet(void *user, const ptoc_diagnostic *d)
{
    (void)user;
    (void)d;
}

static ptoc_op *parse_file(ptoc_context *ctx, const char *path)
{
    size_t len;
    char *text = bench_read_file(path, &len);
    if (!text)
        return NULL;
    ptoc_source_add(ctx, ptoc_ident_cstr(ctx, path), text, len);
    ptoc_op *module = ptoc_parse(ctx, ptoc_arena_create(ctx), text, len, path, NULL);
    free(text);
    return module;
}

bool bench_compile(bench_kernel *k, const char *path, const bench_compile_opts *o)
{
    const ptoc_target *target = ptoc_target_find(o->target);
    k->jit = NULL;
    k->ctx = ptoc_context_create(NULL);
    ptoc_register_all(k->ctx);
    ptoc_context_set_option(k->ctx, "pto-arch", target->arch);  /* as `ptoc -target=...` does */
    if (o->quiet && !getenv("PTOC_BENCH_VERBOSE"))
        ptoc_context_set_diag_handler(k->ctx, quiet, NULL, NULL);
    ptoc_op *module = parse_file(k->ctx, path);
    if (!module || !ptoc_verify(module) || (target->lowering && !lower_for(k->ctx, module, target)))
        return false;
    ptoc_codegen_options opts = ptoc_codegen_defaults();
    opts.target = target;
    if (o->vec_bytes)
        opts.capacity[PTOC_PTO_AS_VEC] = o->vec_bytes;
    opts.gm_checks = o->gm_checks;
    opts.pipe_events = o->pipe_events;
    ptoc_llvm_module *m = ptoc_llvm_lower(module, &opts);
    if (!m)
        return false;
    char *err = NULL;
    if (!ptoc_llvm_optimize(m, &err)) {
        ptoc_llvm_module_destroy(m);
        return report_err("cannot optimise", path, err);
    }
    k->jit = ptoc_jit_create(m, &err);
    return k->jit ? true : report_err("cannot JIT", path, err);
}

void bench_kernel_destroy(bench_kernel *k)
{
    if (k->jit)
        ptoc_jit_destroy(k->jit);
    if (k->ctx)
        ptoc_context_destroy(k->ctx);
    k->jit = NULL;
    k->ctx = NULL;
}

bool bench_lookup(ptoc_jit *j, const char *prefix, const char *suffix, void *fn_out)
{
    char name[64];
    snprintf(name, sizeof name, "%s%s", prefix, suffix);
    void *p = ptoc_jit_lookup(j, name);
    if (!p) {
        fprintf(stderr, "bench: the kernel has no function @%s\n", name);
        return false;
    }
    memcpy(fn_out, &p, sizeof p);
    return true;
}

/* Calls per batch: about batch_seconds' worth, after a warm-up call. */
static long calibrate(const bench_item *t, double batch_seconds)
{
    t->run(t->arg);            /* first touch of pages, warm caches */
    double start = bench_now();
    t->run(t->arg);
    double once = bench_now() - start;
    double want = once > 0 ? batch_seconds / once : 1e6;
    return want < 1 ? 1 : want > 1e6 ? 1000000 : (long)want;
}

void bench_time_interleaved(const bench_item *items, int n, int repeats, double batch_seconds, double *best)
{
    long *iters = calloc((size_t)n, sizeof *iters);
    if (!iters) {
        for (int k = 0; k < n; k++)
            best[k] = NAN;
        return;
    }
    for (int k = 0; k < n; k++) {
        best[k] = items[k].run ? INFINITY : NAN;
        iters[k] = items[k].run ? calibrate(&items[k], batch_seconds) : 0;
    }
    for (int r = 0; r < repeats; r++)
        for (int k = 0; k < n; k++) {
            if (!items[k].run)
                continue;
            double start = bench_now();
            for (long i = 0; i < iters[k]; i++)
                items[k].run(items[k].arg);
            double per = (bench_now() - start) / (double)iters[k];
            best[k] = per < best[k] ? per : best[k];
        }
    free(iters);
}
