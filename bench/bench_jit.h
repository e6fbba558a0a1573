/* bench_jit.h: compiling a kernel file in process for a bench, and timing
 * calls side by side (bench_jit.c). Shared by ptoc-bench-throughput and
 * ptoc-bench-ops; the plain C loops (bench_common.h) need none of it.
 */
#ifndef PTOC_BENCH_JIT_H
#define PTOC_BENCH_JIT_H

#include <stdbool.h>
#include <stdint.h>

#include "ptoc/codegen.h"
#include "ptoc/ptoc.h"

/* How a kernel file is compiled: -O2 for the host CPU, for `target` ("cpu",
 * "a5"), its lowering passes first (as `ptoc -target=...` runs them). */
typedef struct bench_compile_opts {
    const char *target;
    uint64_t vec_bytes;        /* simulated UB capacity; 0: the target's own */
    bool gm_checks;            /* the codegen option --run sets */
    bool pipe_events;          /* the pipe simulator's events (cycle figures) */
    bool quiet;                /* no diagnostics (an op a target lacks is a figure) */
} bench_compile_opts;

typedef struct bench_kernel {
    ptoc_context *ctx;
    ptoc_jit *jit;             /* NULL: it did not compile */
} bench_kernel;

/* parse -> verify -> lower -> optimise -> JIT `path` into *k; false (with
 * the diagnostics printed unless quiet) when a stage fails. */
bool bench_compile(bench_kernel *k, const char *path, const bench_compile_opts *o);
void bench_kernel_destroy(bench_kernel *k);

/* The JIT'd function <prefix><suffix> into the function pointer at
 * `fn_out`, copied the dlsym way (ISO C has no object-to-function pointer
 * cast); false, after saying so, when the kernel has none. */
bool bench_lookup(ptoc_jit *j, const char *prefix, const char *suffix, void *fn_out);

/* One thing to time: run(arg) is one call. */
typedef struct bench_item {
    void (*run)(const void *arg);   /* NULL: not timed (its figure is NAN) */
    const void *arg;
} bench_item;

/* Best seconds per call of each of n items over `repeats` rounds that run one
 * batch (about batch_seconds of calls, calibrated after a warm-up call) of
 * every item in turn: interleaving spreads the noise of a shared machine over
 * all figures alike, and the best batch is the one least disturbed. */
void bench_time_interleaved(const bench_item *items, int n, int repeats, double batch_seconds, double *best);

#endif
