/* ptoc.c: the compiler driver: `ptoc FILE -target=a2|a3|a5|cpu [-o OUT]`.
 *
 * For now it parses and verifies the kernel for the target (the target is given
 * to the dialects as the context option "pto-arch", like ptoc-opt --pto-arch).
 * Code generation arrives with later issues: after a successful verification
 * ptoc says on stderr that it is not implemented yet and exits 0, so scripts can
 * already use ptoc as a checker; -o is accepted and nothing is written.
 * Exit status: 0 success, 1 an error diagnostic, 2 a bad command line.
 */
#include "ptoc/ptoc.h"
#include "tools/tool_util.h"

#include <stdlib.h>
#include <string.h>

#define PROG "ptoc"

typedef struct driver_options {
    const char *input;
    const char *output;
    const char *target;
    bool help, version;
} driver_options;

static bool set_target(void *o, const char *value)
{
    if (!ptoc_tool_arch_valid(value)) {
        ptoc_tool_error(PROG, "invalid -target value '%s' (expected " PTOC_TOOL_ARCH_LIST ")", value);
        return false;
    }
    ((driver_options *)o)->target = value;
    return true;
}

static bool set_output(void *o, const char *value)
{
    ((driver_options *)o)->output = value;
    return true;
}

static bool set_help(void *o, const char *value)
{
    (void)value;
    ((driver_options *)o)->help = true;
    return true;
}

static bool set_version(void *o, const char *value)
{
    (void)value;
    ((driver_options *)o)->version = true;
    return true;
}

static bool set_input(void *o, const char *arg)
{
    driver_options *opts = o;
    if (opts->input) {
        ptoc_tool_error(PROG, "more than one input file ('%s' and '%s')", opts->input, arg);
        return false;
    }
    opts->input = arg;
    return true;
}

static const ptoc_tool_flag driver_flags[] = {
    {"target", PTOC_TOOL_VALUE, "a2|a3|a5|cpu", set_target, "Target architecture (default cpu)"},
    {"o", PTOC_TOOL_VALUE, "FILE", set_output, "Output file (accepted; code generation comes later)"},
    {"help", PTOC_TOOL_NO_VALUE, NULL, set_help, "Print this help and exit"},
    {"h", PTOC_TOOL_NO_VALUE, NULL, set_help, NULL},
    {"version", PTOC_TOOL_NO_VALUE, NULL, set_version, "Print the version and exit"},
};

static const ptoc_tool_cli driver_cli = {
    .prog = PROG,
    .usage = "FILE|- -target=a2|a3|a5|cpu [-o FILE]",
    .overview = "compile a PTO kernel (for now: parse and verify it for the target)",
    .flags = driver_flags,
    .nflags = sizeof driver_flags / sizeof driver_flags[0],
    .positional = set_input,
    .fallback = NULL,
};

static bool check_kernel(ptoc_context *ctx, const char *filename, const char *text, size_t len)
{
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = ptoc_parse(ctx, arena, text, len, filename, NULL);
    bool ok = module && ptoc_verify(module) && ptoc_context_error_count(ctx) == 0;
    ptoc_arena_destroy(arena);
    return ok;
}

static int compile(const driver_options *opts)
{
    const char *path = opts->input ? opts->input : "-";
    const char *filename = strcmp(path, "-") == 0 ? "<stdin>" : path;
    size_t len = 0;
    char *text = ptoc_tool_read_input(PROG, path, &len);
    if (!text)
        return PTOC_TOOL_EXIT_ERROR;
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    ptoc_context_set_option(ctx, "pto-arch", opts->target);
    ptoc_source_add(ctx, ptoc_ident_cstr(ctx, filename), text, len);
    bool ok = check_kernel(ctx, filename, text, len);
    if (ok)
        fprintf(stderr, "ptoc: code generation for -target=%s is not implemented yet\n", opts->target);
    ptoc_context_destroy(ctx);
    free(text);
    return ok ? PTOC_TOOL_EXIT_OK : PTOC_TOOL_EXIT_ERROR;
}

int main(int argc, char **argv)
{
    driver_options opts = {.target = "cpu"};
    if (!ptoc_tool_parse_args(&driver_cli, argc, argv, &opts))
        return PTOC_TOOL_EXIT_USAGE;
    if (opts.help) {
        ptoc_tool_print_help(&driver_cli, stdout);
        return PTOC_TOOL_EXIT_OK;
    }
    if (opts.version) {
        printf("ptoc version %s\n", ptoc_version());
        return PTOC_TOOL_EXIT_OK;
    }
    return compile(&opts);
}
