/* pass.h: passes, the pass registry and the pass manager.
 *
 * A pass is a row {name, summary, anchor, run}. `anchor` names the op it runs on
 * ("func.func" runs once per function, "builtin.module" on the module); NULL
 * means the op the pipeline is run on. Pipelines are textual, as in MLIR:
 *   builtin.module(func.func(pass-a), pass-b{opt=1})
 * or the short form `pass-a,pass-b` where each pass runs at its own anchor.
 */
#ifndef PTOC_PASS_H
#define PTOC_PASS_H

#include "ptoc/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options written `pass{key=value key2=value2}`. */
typedef struct ptoc_pass_options {
    uint32_t n;
    const char *const *keys;
    const char *const *values;
} ptoc_pass_options;
const char *ptoc_pass_option(const ptoc_pass_options *o, const char *key); /* NULL if absent */

typedef struct ptoc_pass_def {
    const char *name;         /* "pto-plan-memory" */
    const char *summary;      /* one line for --help and docs/passes.md */
    const char *anchor;       /* op name the pass runs on; NULL: the pipeline root */
    /* Returns false on failure, after emitting diagnostics. `arena` is where new
     * ops must be allocated (the module's). */
    bool (*run)(ptoc_op *op, ptoc_arena *arena, const ptoc_pass_options *opts);
    /* Options the pass accepts, NULL-terminated, for checking spellings. */
    const char *const *option_names;
} ptoc_pass_def;

void ptoc_pass_register(ptoc_context *ctx, const ptoc_pass_def *def);
const ptoc_pass_def *ptoc_pass_lookup(ptoc_context *ctx, const char *name);
/* All registered passes, in registration order. */
size_t ptoc_pass_list(ptoc_context *ctx, const ptoc_pass_def *const **out);

/* A named pipeline: a textual pipeline registered under a name, accepted wherever
 * a pass name is (`ptoc-opt -p NAME`, inside another pipeline), where it stands
 * for its passes. A pass of the same name wins. */
typedef struct ptoc_pipeline_def {
    const char *name;         /* "ptoc-level2" */
    const char *summary;
    const char *pipeline;     /* "pto-auto-mode,pto-insert-sync"; "" runs nothing */
    /* Optional: the pipeline runs as a nest on each op named `anchor` for which
     * `applies` says yes (both set, or neither), so its passes skip ops with no
     * work for them. */
    const char *anchor;
    bool (*applies)(ptoc_op *op);
} ptoc_pipeline_def;

void ptoc_pipeline_register(ptoc_context *ctx, const ptoc_pipeline_def *def);
const ptoc_pipeline_def *ptoc_pipeline_lookup(ptoc_context *ctx, const char *name);
/* All registered pipelines, in registration order. */
size_t ptoc_pipeline_list(ptoc_context *ctx, const ptoc_pipeline_def *const **out);

typedef struct ptoc_pm ptoc_pm;

typedef struct ptoc_pm_config {
    bool verify_each;         /* verify after every pass (default on in ptoc-opt) */
    const char *print_before; /* pass name, "all", or NULL */
    const char *print_after;
    bool print_generic;       /* IR dumps in generic form */
    /* On a failing pass (or a failed verification after it), dump the IR as the
     * pass left it: `IR Dump After NAME Failed`, in the generic form when it does
     * not verify (MLIR's --mlir-print-ir-after-failure). */
    bool print_after_failure;
    FILE *dump_out;           /* where IR dumps go (stderr when NULL) */
    FILE *timing_out;         /* when set, a timing report is written there */
} ptoc_pm_config;

ptoc_pm *ptoc_pm_create(ptoc_context *ctx, const ptoc_pm_config *config);
void ptoc_pm_destroy(ptoc_pm *pm);
/* Appends passes from a textual pipeline; a bad pipeline is an error diagnostic
 * (unknown location) and returns false. Both the nested and the short form;
 * named pipelines expand to their passes. */
bool ptoc_pm_parse(ptoc_pm *pm, const char *pipeline);
bool ptoc_pm_add(ptoc_pm *pm, const char *pass_name);
size_t ptoc_pm_size(const ptoc_pm *pm);
/* Runs the pipeline on `root`; stops at the first failing pass or verification. */
bool ptoc_pm_run(ptoc_pm *pm, ptoc_op *root, ptoc_arena *arena);

#ifdef __cplusplus
}
#endif
#endif
