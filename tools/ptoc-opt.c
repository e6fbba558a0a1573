/* ptoc-opt.c: the mlir-opt of ptoc: parse, verify, run passes, print.
 *
 * `ptoc-opt [options] FILE|-` reads the file (or stdin), parses it (each
 * `// -----` chunk on its own with --split-input-file), verifies it, runs the pass
 * pipeline and prints the result; chunk outputs are joined by `// -----` lines as
 * mlir-opt joins them, and a chunk that fails prints nothing. With
 * --verify-diagnostics the diagnostics are matched against the file's
 * `expected-*` comments instead of printed, and the exit status says whether
 * they matched. -o writes the output atomically and only when everything
 * succeeded. Exit status: 0 success, 1 an error, 2 a bad command line.
 */
#include "ptoc/ptoc.h"
#include "tools/tool_util.h"

#include <stdlib.h>
#include <string.h>

#define PROG "ptoc-opt"
#define MAX_PIPELINES 64

typedef struct opt_options {
    ptoc_context *ctx;                 /* to accept `--PASS` for a registered pass */
    const char *input;
    const char *output;
    const char *pipelines[MAX_PIPELINES];
    size_t npipelines;
    const char *print_before, *print_after;
    const char *arch;
    bool split_input, verify_diagnostics, generic, debuginfo, allow_unregistered;
    bool verify_each, timing, list_passes, help, version;
    bool print_memplan;                /* pto-plan-memory prints its plan (stdout) */
} opt_options;

/* ---------------------------------------------------------------- flags */

#define SET_TRUE(field)                                        \
    static bool set_##field(void *o, const char *value)        \
    {                                                          \
        (void)value;                                           \
        ((opt_options *)o)->field = true;                      \
        return true;                                           \
    }
SET_TRUE(split_input)
SET_TRUE(verify_diagnostics)
SET_TRUE(generic)
SET_TRUE(debuginfo)
SET_TRUE(allow_unregistered)
SET_TRUE(timing)
SET_TRUE(list_passes)
SET_TRUE(help)
SET_TRUE(version)
SET_TRUE(print_memplan)

static bool set_output(void *o, const char *value)
{
    ((opt_options *)o)->output = value;
    return true;
}

static bool add_pipeline(void *o, const char *value)
{
    opt_options *opts = o;
    if (opts->npipelines == MAX_PIPELINES) {
        ptoc_tool_error(PROG, "too many pass pipelines (at most %d)", MAX_PIPELINES);
        return false;
    }
    opts->pipelines[opts->npipelines++] = value;
    return true;
}

static bool set_verify_each(void *o, const char *value)
{
    opt_options *opts = o;
    if (!value || strcmp(value, "1") == 0 || strcmp(value, "true") == 0) {
        opts->verify_each = true;
    } else if (strcmp(value, "0") == 0 || strcmp(value, "false") == 0) {
        opts->verify_each = false;
    } else {
        ptoc_tool_error(PROG, "invalid --verify-each value '%s' (expected 0, 1, true or false)", value);
        return false;
    }
    return true;
}

static bool set_print_before(void *o, const char *value)
{
    ((opt_options *)o)->print_before = value;
    return true;
}

static bool set_print_after(void *o, const char *value)
{
    ((opt_options *)o)->print_after = value;
    return true;
}

static bool set_print_after_all(void *o, const char *value)
{
    (void)value;
    ((opt_options *)o)->print_after = "all";
    return true;
}

static bool set_print_before_all(void *o, const char *value)
{
    (void)value;
    ((opt_options *)o)->print_before = "all";
    return true;
}

static bool set_arch(void *o, const char *value)
{
    if (!ptoc_tool_arch_valid(value)) {
        ptoc_tool_error(PROG, "invalid --pto-arch value '%s' (expected " PTOC_TOOL_ARCH_LIST ")", value);
        return false;
    }
    ((opt_options *)o)->arch = value;
    return true;
}

static bool set_input(void *o, const char *arg)
{
    opt_options *opts = o;
    if (opts->input) {
        ptoc_tool_error(PROG, "more than one input file ('%s' and '%s')", opts->input, arg);
        return false;
    }
    opts->input = arg;
    return true;
}

/* `--dce` runs the pass "dce", as mlir-opt accepts a pass name as a flag. */
static bool pass_flag(void *o, const char *name)
{
    opt_options *opts = o;
    return ptoc_pass_lookup(opts->ctx, name) && add_pipeline(o, name);
}

static const ptoc_tool_flag opt_flags[] = {
    {"split-input-file", PTOC_TOOL_NO_VALUE, NULL, set_split_input,
     "Process each chunk between `// -----` lines on its own"},
    {"verify-diagnostics", PTOC_TOOL_NO_VALUE, NULL, set_verify_diagnostics,
     "Check diagnostics against expected-error/warning/note/remark comments"},
    {"o", PTOC_TOOL_VALUE, "FILE", set_output, "Write the output to FILE (atomically; '-' is stdout)"},
    {"pass-pipeline", PTOC_TOOL_VALUE, "PIPELINE", add_pipeline,
     "Run a pass pipeline, e.g. 'builtin.module(func.func(dce))'"},
    {"p", PTOC_TOOL_VALUE, "PASSES", add_pipeline, "Run passes, e.g. -p dce,strip-debuginfo"},
    {"verify-each", PTOC_TOOL_OPTIONAL_VALUE, "0|1", set_verify_each,
     "Verify the IR after each pass (default 1)"},
    {"print-ir-before", PTOC_TOOL_VALUE, "PASS|all", set_print_before,
     "Print the IR to stderr before the named pass (or every pass)"},
    {"print-ir-after", PTOC_TOOL_VALUE, "PASS|all", set_print_after,
     "Print the IR to stderr after the named pass (or every pass)"},
    {"print-ir-before-all", PTOC_TOOL_NO_VALUE, NULL, set_print_before_all, "Same as --print-ir-before=all"},
    {"print-ir-after-all", PTOC_TOOL_NO_VALUE, NULL, set_print_after_all, "Same as --print-ir-after=all"},
    {"mlir-print-ir-after-all", PTOC_TOOL_NO_VALUE, NULL, set_print_after_all, NULL},
    {"pass-timing", PTOC_TOOL_NO_VALUE, NULL, set_timing, "Report the wall time of each pass on stderr"},
    {"mlir-timing", PTOC_TOOL_NO_VALUE, NULL, set_timing, NULL},
    {"print-op-generic", PTOC_TOOL_NO_VALUE, NULL, set_generic, "Print every op in the generic form"},
    {"mlir-print-op-generic", PTOC_TOOL_NO_VALUE, NULL, set_generic, NULL},
    {"print-debuginfo", PTOC_TOOL_NO_VALUE, NULL, set_debuginfo, "Print loc(...) after each op"},
    {"mlir-print-debuginfo", PTOC_TOOL_NO_VALUE, NULL, set_debuginfo, NULL},
    {"allow-unregistered-dialect", PTOC_TOOL_NO_VALUE, NULL, set_allow_unregistered,
     "Accept ops of dialects ptoc does not know (generic form only)"},
    {"pto-arch", PTOC_TOOL_VALUE, "a2|a3|a2a3|a5|cpu", set_arch,
     "Target architecture (overrides the module's pto.target_arch)"},
    {"test-print-memplan", PTOC_TOOL_NO_VALUE, NULL, set_print_memplan,
     "pto-plan-memory prints each buffer's live range, offset and size to stdout "
     "(same as its option print=true)"},
    {"list-passes", PTOC_TOOL_NO_VALUE, NULL, set_list_passes, "List the registered passes and exit"},
    {"help", PTOC_TOOL_NO_VALUE, NULL, set_help, "Print this help and exit"},
    {"h", PTOC_TOOL_NO_VALUE, NULL, set_help, NULL},
    {"version", PTOC_TOOL_NO_VALUE, NULL, set_version, "Print the version and exit"},
};

static const ptoc_tool_cli opt_cli = {
    .prog = PROG,
    .usage = "[options] [FILE|-]",
    .overview = "parse, verify, transform and print PTO/MLIR textual IR.\n"
                "          Any registered pass NAME is also accepted as a flag --NAME.",
    .flags = opt_flags,
    .nflags = sizeof opt_flags / sizeof opt_flags[0],
    .positional = set_input,
    .fallback = pass_flag,
};

/* ---------------------------------------------------------------- processing */

typedef struct opt_job {
    ptoc_context *ctx;
    const opt_options *opts;
    ptoc_pm *pm;
    const char *filename;
    ptoc_strbuf out;
    unsigned nchunks;
    bool failed;
} opt_job;

/* Parse, verify, run the passes, print: one chunk (or the whole file). */
static bool process_chunk(void *user, const char *text, size_t len, uint32_t first_line)
{
    opt_job *job = user;
    if (job->nchunks++ > 0)
        ptoc_strbuf_puts(&job->out, "\n// -----\n");
    ptoc_arena *arena = ptoc_arena_create(job->ctx);
    ptoc_parse_options popts = {first_line, 0};
    ptoc_op *module = ptoc_parse(job->ctx, arena, text, len, job->filename, &popts);
    bool ok = module && ptoc_verify(module) && ptoc_pm_run(job->pm, module, arena);
    if (ok) {
        ptoc_print_options print = {job->opts->generic, job->opts->debuginfo};
        ptoc_print_op(&job->out, module, &print);
    }
    ptoc_arena_destroy(arena);
    job->failed |= !ok;
    return true;                       /* go on with the next chunk regardless */
}

static ptoc_pm *build_pass_manager(ptoc_context *ctx, const opt_options *opts)
{
    ptoc_pm_config config = {
        .verify_each = opts->verify_each,
        .print_before = opts->print_before,
        .print_after = opts->print_after,
        .print_generic = opts->generic,
        .dump_out = stderr,
        .timing_out = opts->timing ? stderr : NULL,
    };
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    for (size_t i = 0; i < opts->npipelines; i++) {
        if (!ptoc_pm_parse(pm, opts->pipelines[i])) {
            ptoc_pm_destroy(pm);
            return NULL;
        }
    }
    return pm;
}

/* Runs every chunk; with --verify-diagnostics the verifier decides success. */
static bool process_buffer(opt_job *job, const char *text, size_t len)
{
    ptoc_diag_verifier *verifier = NULL;
    ptoc_diag_handler prev = NULL;
    void *prev_user = NULL;
    if (job->opts->verify_diagnostics) {
        verifier = ptoc_diag_verifier_create(job->ctx, ptoc_ident_cstr(job->ctx, job->filename), text, len);
        prev = ptoc_context_set_diag_handler(job->ctx, ptoc_diag_verifier_handle, verifier, &prev_user);
    }
    if (job->opts->split_input)
        ptoc_split_input(text, len, process_chunk, job);
    else
        process_chunk(job, text, len, 1);
    if (!verifier)
        return !job->failed && ptoc_context_error_count(job->ctx) == 0;
    ptoc_context_set_diag_handler(job->ctx, prev, prev_user, NULL);
    bool ok = ptoc_diag_verifier_finish(verifier, stderr);
    ptoc_diag_verifier_destroy(verifier);
    return ok;
}

static int run(ptoc_context *ctx, const opt_options *opts)
{
    const char *path = opts->input ? opts->input : "-";
    size_t len = 0;
    char *text = ptoc_tool_read_input(PROG, path, &len);
    if (!text)
        return PTOC_TOOL_EXIT_ERROR;
    opt_job job = {ctx, opts, NULL, strcmp(path, "-") == 0 ? "<stdin>" : path, {0}, 0, false};
    ptoc_strbuf_init(&job.out, ctx);
    ptoc_source_add(ctx, ptoc_ident_cstr(ctx, job.filename), text, len);
    job.pm = build_pass_manager(ctx, opts);
    bool ok = job.pm && process_buffer(&job, text, len);
    ptoc_pm_destroy(job.pm);           /* writes the timing report */
    const char *out_path = opts->output ? opts->output : "-";
    /* A file is written only on success; stdout gets the chunks that succeeded. */
    if (ok || strcmp(out_path, "-") == 0)
        ok = ptoc_tool_write_output(PROG, out_path, job.out.data ? job.out.data : "", job.out.len) && ok;
    ptoc_strbuf_free(&job.out);
    free(text);
    return ok ? PTOC_TOOL_EXIT_OK : PTOC_TOOL_EXIT_ERROR;
}

static int list_passes(ptoc_context *ctx)
{
    const ptoc_pass_def *const *defs;
    size_t n = ptoc_pass_list(ctx, &defs);
    printf("Passes (run with -p NAME, --NAME or --pass-pipeline):\n");
    for (size_t i = 0; i < n; i++)
        printf("  %-24s %s%s%s%s\n", defs[i]->name, defs[i]->summary,
               defs[i]->anchor ? " (runs on " : "", defs[i]->anchor ? defs[i]->anchor : "",
               defs[i]->anchor ? ")" : "");
    return PTOC_TOOL_EXIT_OK;
}

static void apply_context_options(ptoc_context *ctx, const opt_options *opts)
{
    ptoc_context_allow_unregistered(ctx, opts->allow_unregistered);
    if (opts->arch)
        ptoc_context_set_option(ctx, "pto-arch", opts->arch);
    if (opts->print_memplan)
        ptoc_context_set_option(ctx, "pto-test-print-memplan", "true");
}

static int dispatch(ptoc_context *ctx, const opt_options *opts)
{
    if (opts->help) {
        ptoc_tool_print_help(&opt_cli, stdout);
        return PTOC_TOOL_EXIT_OK;
    }
    if (opts->version) {
        printf("ptoc-opt version %s\n", ptoc_version());
        return PTOC_TOOL_EXIT_OK;
    }
    if (opts->list_passes)
        return list_passes(ctx);
    apply_context_options(ctx, opts);
    return run(ctx, opts);
}

int main(int argc, char **argv)
{
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    opt_options opts = {.ctx = ctx, .verify_each = true};
    int status = ptoc_tool_parse_args(&opt_cli, argc, argv, &opts) ? dispatch(ctx, &opts)
                                                                    : PTOC_TOOL_EXIT_USAGE;
    ptoc_context_destroy(ctx);
    return status;
}
