/* ptoc.c: the compiler driver.
 *
 *   ptoc k.pto                             -> k.o in the current directory
 *   ptoc k.pto -emit=llvm|asm|header|mlir  -> k.ll, k.s, k.h, the IR on stdout (-o FILE; -o - for stdout)
 *   ptoc k.pto --run --arg a.npy --arg b.bin:f32:16x16 --arg 3 --out DIR
 *
 * -target names an entry of codegen's list of targets (ptoc_target_find);
 * its accepted names and its --help text come from that list, and what the
 * driver does follows the entry's capabilities, never its name: a target
 * without rules (a hardware target, for now) stops after verification
 * with a note and exits 0, so scripts can use ptoc as a checker; --run for a
 * target that does not run is an error. Without -target code is generated for
 * the list's default target (cpu).
 * The arch whose rules apply (verifier, memory capacities, sync, the pipe
 * simulator) is one rule, ptoc_pto_target_arch: --pto-arch or the arch -target
 * implies (given to the dialects as the context option "pto-arch"), else the
 * module's pto.target_arch, else cpu; code is generated for the target
 * whatever that arch is. -target and --pto-arch must agree. --run is in
 * ptoc_run.c.
 * Before code generation ptoc runs the named pipeline the target's entry gives
 * for --pto-level and the sync setting (ptoc-level2 by default: pto-bufferize,
 * pto-plan-memory, pto-insert-tassign, which leave manual functions alone, then
 * pto-insert-sync, which leaves functions with sync of their own alone);
 * `ptoc-opt -p NAME` replays it, and -emit=mlir prints its result. At
 * --pto-level=level3 an address-less buffer is a verifier error.
 * Exit status: 0 success, 1 an error diagnostic, 2 a bad command line.
 */
#include "ptoc/codegen.h"
#include "ptoc/pto.h"
#include "ptoc/ptoc.h"
#include "ptoc/varr.h"
#include "tools/ptoc_run.h"
#include "tools/tool_util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define PROG "ptoc"

/* -emit kinds: the three of codegen.h, the C header and the IR after the passes. */
enum { EMIT_DEFAULT = -1, EMIT_HEADER = PTOC_EMIT_OBJ + 1, EMIT_MLIR };

typedef struct driver_options {
    ptoc_tool_common common;   /* first: the shared flags apply to it */
    const char *input;
    const char *output;
    const char *target;        /* -target as spelled (cg.target is its entry), NULL when not given */
    int emit;                  /* EMIT_DEFAULT (an object), ptoc_emit_kind, EMIT_HEADER or EMIT_MLIR */
    ptoc_codegen_options cg;
    bool run;
    ptoc_tool_lang lang;       /* -x, else by the input's name */
    bool no_sync;              /* --no-insert-sync: leave pipe ordering to the author */
    ptoc_run_options ro;
    uint32_t args_cap;
    bool help, version;
} driver_options;

/* ---------------------------------------------------------------- flags */

/* ---------------------------------------------------------------- the targets */

/* Every spelling of the list's targets (with `verify_only`: of those that
 * generate no code), joined by `sep` and the last by `last`: each entry's
 * aliases, then its name, in the list's order. */
static void target_spellings(char *buf, size_t size, const char *sep, const char *last, bool verify_only)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; i < ptoc_target_count(); i++) {
        const ptoc_target *t = ptoc_target_at(i);
        if (verify_only && ptoc_target_generates_code(t))
            continue;
        for (const char *const *a = t->aliases; a && *a && n < 63; a++)
            names[n++] = *a;
        if (n < 64)
            names[n++] = t->name;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s", i == 0 ? "" : i + 1 == n ? last : sep, names[i]);
}

static bool set_target(void *o, const char *value)
{
    const ptoc_target *t = ptoc_target_find(value);
    if (!t) {
        char expected[256];
        target_spellings(expected, sizeof expected, ", ", " or ", false);
        ptoc_tool_error(PROG, "invalid -target value '%s' (expected %s)", value, expected);
        return false;
    }
    ((driver_options *)o)->target = value;
    ((driver_options *)o)->cg.target = t;
    return true;
}

static bool set_output(void *o, const char *value)
{
    ((driver_options *)o)->output = value;
    return true;
}

/* -O0 .. -O3: one row each, told apart by the flag's last character. */
static bool set_opt(driver_options *o, int level)
{
    o->cg.opt_level = level;
    return true;
}
static bool set_o0(void *o, const char *v) { (void)v; return set_opt(o, 0); }
static bool set_o1(void *o, const char *v) { (void)v; return set_opt(o, 1); }
static bool set_o2(void *o, const char *v) { (void)v; return set_opt(o, 2); }
static bool set_o3(void *o, const char *v) { (void)v; return set_opt(o, 3); }

static bool set_emit(void *o, const char *value)
{
    static const char *const names[] = {[PTOC_EMIT_LLVM] = "llvm", [PTOC_EMIT_ASM] = "asm",
                                        [PTOC_EMIT_OBJ] = "obj", [EMIT_HEADER] = "header",
                                        [EMIT_MLIR] = "mlir"};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(value, names[i]) == 0) {
            ((driver_options *)o)->emit = i;
            return true;
        }
    ptoc_tool_error(PROG, "invalid -emit value '%s' (expected llvm, asm, obj, header or mlir)", value);
    return false;
}

static bool set_mcpu(void *o, const char *value)
{
    ((driver_options *)o)->cg.cpu = value;
    return true;
}

static bool set_mattr(void *o, const char *value)
{
    ((driver_options *)o)->cg.features = value;
    return true;
}

static bool set_run(void *o, const char *value)
{
    (void)value;
    ((driver_options *)o)->run = true;
    return true;
}

static bool add_arg(void *o, const char *value)
{
    driver_options *opts = o;
    const char **args = ptoc_varr_realloc((void *)opts->ro.args, &opts->args_cap, opts->ro.nargs + 1,
                                          sizeof *args);
    if (!args) {
        ptoc_tool_error(PROG, "out of memory");
        return false;
    }
    opts->ro.args = args;
    opts->ro.args[opts->ro.nargs++] = value;
    return true;
}

static bool set_out_dir(void *o, const char *value)
{
    ((driver_options *)o)->ro.out_dir = value;
    return true;
}

static bool set_blocks(void *o, const char *value)
{
    char *end;
    unsigned long n = isdigit((unsigned char)value[0]) ? strtoul(value, &end, 10) : 0;
    if (n == 0 || n > 4096 || *end) {
        ptoc_tool_error(PROG, "invalid --blocks value '%s' (expected 1 to 4096)", value);
        return false;
    }
    ((driver_options *)o)->ro.blocks = (uint32_t)n;
    return true;
}

static bool set_entry(void *o, const char *value)
{
    ((driver_options *)o)->ro.entry = value;
    return true;
}

static bool set_poison(void *o, const char *value)
{
    (void)value;
    ((driver_options *)o)->ro.poison = true;
    return true;
}

/* --check-races and --trace both need the kernel's pipe events. */
static bool set_check_races(void *o, const char *value)
{
    (void)value;
    ((driver_options *)o)->ro.check_races = true;
    ((driver_options *)o)->cg.pipe_events = true;
    return true;
}

static bool set_trace(void *o, const char *value)
{
    if (!*value) {
        ptoc_tool_error(PROG, "--trace needs a file name (--trace=FILE.json)");
        return false;
    }
    ((driver_options *)o)->ro.trace = value;
    ((driver_options *)o)->cg.pipe_events = true;
    return true;
}

static bool set_stats(void *o, const char *value)
{
    (void)value;
    ((driver_options *)o)->ro.stats = true;
    ((driver_options *)o)->cg.pipe_events = true;
    return true;
}

static bool set_lang(void *o, const char *value)
{
    if (ptoc_tool_lang_from_name(value, &((driver_options *)o)->lang))
        return true;
    ptoc_tool_error(PROG, "invalid -x value '%s' (expected " PTOC_TOOL_LANG_LIST ")", value);
    return false;
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

static bool set_no_sync(void *o, const char *value)
{
    (void)value;
    ((driver_options *)o)->no_sync = true;
    return true;
}

static bool set_sync(void *o, const char *value)
{
    (void)value;                       /* PTOAS's opt-in flag: insertion is on by default here */
    ((driver_options *)o)->no_sync = false;
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

/* The first row's metavar and help are the list of targets' (describe_targets). */
static ptoc_tool_flag driver_flags[] = {
    {"target", PTOC_TOOL_VALUE, NULL, set_target, NULL},
    {"x", PTOC_TOOL_VALUE, "mlir|pto-as", set_lang,
     "Read the input as MLIR text or as PTO-AS (default: PTO-AS for a .ptoas file, else MLIR)"},
    {"O0", PTOC_TOOL_NO_VALUE, NULL, set_o0, "No optimisation"},
    {"O1", PTOC_TOOL_NO_VALUE, NULL, set_o1, "Optimisation level 1"},
    {"O2", PTOC_TOOL_NO_VALUE, NULL, set_o2, "Optimisation level 2 (default)"},
    {"O3", PTOC_TOOL_NO_VALUE, NULL, set_o3, "Optimisation level 3"},
    {"emit", PTOC_TOOL_VALUE, "llvm|asm|obj|header|mlir", set_emit,
     "What to write (default obj); mlir: the IR after the passes, on stdout unless -o"},
    {"o", PTOC_TOOL_VALUE, "FILE", set_output,
     "Output file (default: the input's name with .ll/.s/.o/.h; - is stdout)"},
    {"mcpu", PTOC_TOOL_VALUE, "NAME", set_mcpu,
     "CPU to compile for, with its own features (default: this host's; -mcpu=help lists them)"},
    {"mattr", PTOC_TOOL_VALUE, "FEATURES", set_mattr,
     "Features to add or remove from the CPU's, e.g. +avx2,-avx512f"},
    PTOC_TOOL_COMMON_FLAGS,
    {"no-insert-sync", PTOC_TOOL_NO_VALUE, NULL, set_no_sync,
     "Do not insert set_flag/wait_flag/pipe_barrier (functions with sync of their own never get any)"},
    {"enable-insert-sync", PTOC_TOOL_NO_VALUE, NULL, set_sync, "PTOAS's spelling of the default: insert sync"},
    {"run", PTOC_TOOL_NO_VALUE, NULL, set_run, "JIT the kernel and run it on the --arg values"},
    {"arg", PTOC_TOOL_VALUE, "VALUE", add_arg, "Next parameter: FILE.npy, FILE:DTYPE:SHAPE or a number"},
    {"out", PTOC_TOOL_VALUE, "DIR", set_out_dir, "After --run, write pointer argument N to DIR/argN.npy"},
    {"blocks", PTOC_TOOL_VALUE, "N", set_blocks, "Run N blocks, one host thread each (default 1)"},
    {"entry", PTOC_TOOL_VALUE, "NAME", set_entry, "Function to run (default: the only one, or pto.entry)"},
    {"poison-ub", PTOC_TOOL_NO_VALUE, NULL, set_poison, "Fill simulated on-chip memory with 0xA5, not zeros"},
    {"check-races", PTOC_TOOL_NO_VALUE, NULL, set_check_races,
     "With --run: replay the pipes; report races, deadlocks and event ids set twice, and fail on any"},
    {"trace", PTOC_TOOL_VALUE, "FILE.json", set_trace,
     "With --run: write the pipes' timeline as Chrome trace-event JSON (Perfetto)"},
    {"stats", PTOC_TOOL_NO_VALUE, NULL, set_stats,
     "With --run: print the modelled cycles per pipe and in total (on stderr)"},
    {"help", PTOC_TOOL_NO_VALUE, NULL, set_help, "Print this help and exit"},
    {"h", PTOC_TOOL_NO_VALUE, NULL, set_help, NULL},
    {"version", PTOC_TOOL_NO_VALUE, NULL, set_version, "Print the version and exit"},
};

/* .usage is filled by describe_targets. */
static ptoc_tool_cli driver_cli = {
    .prog = PROG,
    .overview = "compile a PTO kernel to native code, or run it (--run)",
    .flags = driver_flags,
    .nflags = sizeof driver_flags / sizeof driver_flags[0],
    .positional = set_input,
    .fallback = NULL,
};

/* Fills -target's metavar and help and the usage line from the list of
 * targets, before the command line is parsed. */
static void describe_targets(void)
{
    static char metavar[256], help[512], usage[768];
    char verify_only[256];
    target_spellings(metavar, sizeof metavar, "|", "|", false);
    target_spellings(verify_only, sizeof verify_only, ", ", ", ", true);
    snprintf(help, sizeof help,
             "Target to compile for (default: %s code, with the rules of the --pto-arch or the module's "
             "pto.target_arch)%s%s%s", ptoc_target_default()->name, verify_only[0] ? "; " : "", verify_only,
             verify_only[0] ? ": verify only, for now" : "");
    snprintf(usage, sizeof usage,
             "FILE|- [-target=%s] [--pto-arch=ARCH] [-O0..-O3] [-emit=llvm|asm|obj|header|mlir]\n"
             "                 [-o FILE] [-mcpu=NAME] [-mattr=FEATURES]\n"
             "       ptoc FILE|- --run [--arg VALUE]... [--out DIR] [--blocks N] [--entry NAME]\n"
             "                         [--check-races] [--trace=FILE.json] [--stats]", metavar);
    driver_flags[0].metavar = metavar;
    driver_flags[0].help = help;
    driver_cli.usage = usage;
}

/* The arch -target implies, NULL when -target was not given. */
static const char *target_arch(const driver_options *o)
{
    return o->target ? ptoc_target_arch_name(o->cg.target, o->target) : NULL;
}

/* Flags that only make sense together; false after a usage message. */
static bool check_flag_combinations(const driver_options *o)
{
    bool run_only = o->ro.nargs || o->ro.out_dir || o->ro.blocks || o->ro.entry || o->ro.poison;
    if (o->run && (o->output || o->emit != EMIT_DEFAULT)) {
        ptoc_tool_error(PROG, "--run cannot be combined with -emit or -o");
        return false;
    }
    if (!o->run && run_only) {
        ptoc_tool_error(PROG, "--arg, --out, --blocks, --entry and --poison-ub need --run");
        return false;
    }
    if (!o->run && (o->ro.check_races || o->ro.trace || o->ro.stats)) {
        ptoc_tool_error(PROG, "--check-races, --trace and --stats need --run");
        return false;
    }
    if (o->target && o->common.arch &&
        ptoc_pto_arch_from_name(target_arch(o)) != ptoc_pto_arch_from_name(o->common.arch)) {
        ptoc_tool_error(PROG, "-target=%s contradicts --pto-arch=%s (give one, or the same arch twice)",
                        o->target, o->common.arch);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- output */

static const char *const emit_suffix[] = {[PTOC_EMIT_LLVM] = ".ll", [PTOC_EMIT_ASM] = ".s",
                                          [PTOC_EMIT_OBJ] = ".o", [EMIT_HEADER] = ".h"};

/* The output path: -o, else the input's base name without its extension plus
 * the kind's suffix in the current directory (stdout for text read from stdin,
 * and for the IR, which is printed like ptoc-opt prints it). Malloc'd. */
static char *output_path(const driver_options *o, int kind)
{
    const char *in = o->input;
    const char *chosen = o->output ? o->output : strcmp(in, "-") == 0 || kind == EMIT_MLIR ? "-" : NULL;
    if (chosen) {
        char *s = malloc(strlen(chosen) + 1);
        return s ? strcpy(s, chosen) : NULL;
    }
    const char *base = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *s = malloc(stem + 4);
    if (s)
        snprintf(s, stem + 4, "%.*s%s", (int)stem, base, emit_suffix[kind]);
    return s;
}

/* An include guard from the output's base name: "out/add.h" -> "ADD_H". */
static char *header_guard(const char *path, const char *input)
{
    const char *name = strcmp(path, "-") != 0 ? path : input && strcmp(input, "-") != 0 ? input : "kernel";
    const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    size_t n = strlen(base);
    char *g = malloc(n + 4);
    if (!g)
        return NULL;
    size_t at = 0;
    if (!isalpha((unsigned char)base[0]))
        g[at++] = '_';
    for (size_t i = 0; i < n; i++)
        g[at++] = isalnum((unsigned char)base[i]) ? (char)toupper((unsigned char)base[i]) : '_';
    if (strcmp(path, "-") == 0 || !strchr(base, '.')) {
        memcpy(g + at, "_H", 2);
        at += 2;
    }
    g[at] = '\0';
    return g;
}

static bool write_text(const char *path, char *text)
{
    bool ok = text && ptoc_tool_write_output(PROG, path, text, strlen(text));
    free(text);
    return ok;
}

static bool emit_kind(ptoc_llvm_module *m, int kind, const char *path, const char *input)
{
    char *err = NULL;
    bool ok;
    if (kind == EMIT_HEADER) {
        char *guard = header_guard(path, input);
        ok = guard && write_text(path, ptoc_llvm_c_header(m, guard));
        free(guard);
        return ok;
    }
    if (kind == PTOC_EMIT_OBJ && strcmp(path, "-") == 0) {
        ptoc_tool_error(PROG, "an object file is not written to stdout; give -o FILE or -emit=llvm|asm");
        return false;
    }
    if (kind == PTOC_EMIT_OBJ) {
        ok = ptoc_llvm_emit_file(m, PTOC_EMIT_OBJ, path, &err);
    } else {
        char *text = ptoc_llvm_emit_string(m, (ptoc_emit_kind)kind, &err);
        ok = text && write_text(path, text);
    }
    if (err)
        ptoc_tool_error(PROG, "%s", err);
    free(err);
    return ok;
}

/* Lowers, optimises (not needed for a header) and writes the output. */
static int emit_output(ptoc_op *module, const driver_options *o)
{
    int kind = o->emit == EMIT_DEFAULT ? PTOC_EMIT_OBJ : o->emit;
    ptoc_codegen_options cg = o->cg;
    cg.keep_intrinsics = kind == PTOC_EMIT_LLVM;       /* LLVM IR shows the target's intrinsics as calls */
    ptoc_llvm_module *m = ptoc_llvm_lower(module, &cg);
    if (!m)
        return PTOC_TOOL_EXIT_ERROR;
    char *err = NULL;
    bool ok = kind == EMIT_HEADER || ptoc_llvm_optimize(m, &err);
    if (!ok)
        ptoc_tool_error(PROG, "%s", err ? err : "optimisation failed");
    free(err);
    char *path = ok ? output_path(o, kind) : NULL;
    ok = ok && path && emit_kind(m, kind, path, o->input);
    free(path);
    ptoc_llvm_module_destroy(m);
    return ok ? PTOC_TOOL_EXIT_OK : PTOC_TOOL_EXIT_ERROR;
}

/* The IR after the pipeline, as ptoc-opt prints it. */
static int emit_mlir(ptoc_op *module, const driver_options *o)
{
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ptoc_op_context(module));
    ptoc_print_op(&sb, module, NULL);
    char *path = output_path(o, EMIT_MLIR);
    bool ok = path && ptoc_tool_write_output(PROG, path, sb.data ? sb.data : "", sb.len);
    free(path);
    ptoc_strbuf_free(&sb);
    return ok ? PTOC_TOOL_EXIT_OK : PTOC_TOOL_EXIT_ERROR;
}

/* ---------------------------------------------------------------- the pipeline */

/* The target's named pipeline for the level and the sync setting, then its
 * lowering passes, with the shared flags' dumps and timing; the IR is
 * verified after every pass. */
static bool run_pipeline(ptoc_op *module, ptoc_arena *arena, const driver_options *o)
{
    ptoc_context *ctx = ptoc_op_context(module);
    ptoc_pm_config config = ptoc_tool_pm_config(&o->common, true);
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    const ptoc_target *t = o->cg.target;
    bool ok = ptoc_pm_parse(pm, t->pipeline(ptoc_pto_target_level(ctx), !o->no_sync)) &&
              (!t->lowering || ptoc_pm_parse(pm, t->lowering)) && ptoc_pm_run(pm, module, arena);
    ptoc_pm_destroy(pm);               /* writes the timing report */
    return ok;
}

static int process(ptoc_op *module, ptoc_arena *arena, const driver_options *o)
{
    if (!run_pipeline(module, arena, o))
        return PTOC_TOOL_EXIT_ERROR;
    if (o->emit == EMIT_MLIR)
        return emit_mlir(module, o);
    const ptoc_target *t = o->cg.target;
    const char *spelled = o->target ? o->target : t->name;
    if (o->run && !ptoc_target_runs(t)) {
        ptoc_tool_error(PROG, "--run for -target=%s is not implemented yet (use -target=%s)", spelled,
                        ptoc_target_default()->name);
        return PTOC_TOOL_EXIT_ERROR;
    }
    if (!ptoc_target_generates_code(t)) {
        fprintf(stderr, "ptoc: code generation for -target=%s is not implemented yet\n", spelled);
        return PTOC_TOOL_EXIT_OK;
    }
    if (o->run) {
        ptoc_run_options ro = o->ro;
        if (ro.blocks == 0)
            ro.blocks = 1;
        return ptoc_run_kernel(module, &o->cg, &ro);
    }
    return emit_output(module, o);
}

static int compile(const driver_options *opts)
{
    const char *path = opts->input;
    const char *filename = strcmp(path, "-") == 0 ? "<stdin>" : path;
    size_t len = 0;
    char *text = ptoc_tool_read_input(PROG, path, &len);
    if (!text)
        return PTOC_TOOL_EXIT_ERROR;
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    ptoc_tool_apply_common(ctx, &opts->common);
    ptoc_source_add(ctx, ptoc_ident_cstr(ctx, filename), text, len);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_parse_options popts = ptoc_tool_parse_options(path, opts->lang, 1);
    ptoc_op *module = ptoc_parse(ctx, arena, text, len, filename, &popts);
    bool ok = module && ptoc_verify(module) && ptoc_context_error_count(ctx) == 0;
    int status = ok ? process(module, arena, opts) : PTOC_TOOL_EXIT_ERROR;
    ptoc_arena_destroy(arena);
    ptoc_context_destroy(ctx);
    free(text);
    return status;
}

/* ---------------------------------------------------------------- the machine */

static void make_machine(void *opts)
{
    char *err = NULL;
    ptoc_llvm_check_machine(opts, &err);
    free(err);                         /* the real compile reports it again */
}

/* The quoted name in LLVM's "'NAME' is not a recognized ..." line at `at`. */
static void quoted_name(const char *at, char *out, size_t size)
{
    const char *open = strchr(at, '\'');
    const char *close = open ? strchr(open + 1, '\'') : NULL;
    size_t n = close ? (size_t)(close - open - 1) : 0;
    snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), close ? open + 1 : "");
}

/* What LLVM wrote while making the machine: its unknown-CPU or unknown-feature
 * warning becomes one usage error naming where the name came from; anything
 * else is passed on. */
static int judge_machine_messages(const driver_options *o, const char *text)
{
    static const char cpu_msg[] = "is not a recognized processor";
    static const char feature_msg[] = "is not a recognized feature";
    const char *bad_cpu = strstr(text, cpu_msg), *bad_feature = strstr(text, feature_msg);
    const char *bad = bad_cpu ? bad_cpu : bad_feature;
    if (!bad) {
        fputs(text, stderr);
        return -1;
    }
    while (bad > text && bad[-1] != '\n')
        bad--;
    char name[128];
    quoted_name(bad, name, sizeof name);
    if (bad_cpu)
        ptoc_tool_error(PROG, "unknown CPU '%s' (from %s; -mcpu=help lists the CPUs of this target)", name,
                        o->cg.cpu ? "-mcpu" : "PTOC_HOST_CPU");
    else
        ptoc_tool_error(PROG, "unknown CPU feature '%s' (from %s; -mcpu=help lists the features)", name,
                        o->cg.features && strstr(o->cg.features, name + (name[0] == '+' || name[0] == '-'))
                            ? "-mattr" : "PTOC_HOST_FEATURES");
    return PTOC_TOOL_EXIT_USAGE;
}

/* LLVM-C has no call that says whether a CPU or feature name is known: LLVM
 * takes any name, warns on stderr when the target machine's subtarget is made
 * ("'x' is not a recognized processor for this target (ignoring processor)",
 * once per subtarget, so several times per compile) and goes on with a generic
 * CPU, which would make a typo a silent slow build. So when -mcpu, -mattr or
 * PTOC_HOST_* is given, the driver makes the machine once with stderr captured
 * and judges LLVM's own words (codegen.h). -mcpu=help makes LLVM list the CPUs
 * and features; that list goes to stdout. Returns -1 to go on, else the exit
 * status. */
static int check_machine(const driver_options *o)
{
    bool named = o->cg.cpu || o->cg.features || getenv("PTOC_HOST_CPU") || getenv("PTOC_HOST_FEATURES");
    if (!named || !ptoc_target_generates_code(o->cg.target))
        return -1;
    char *text = ptoc_tool_capture_stderr(make_machine, (void *)&o->cg);
    if (!text)
        return -1;                     /* stderr cannot be captured: LLVM's warnings show */
    int status = -1;
    if (o->cg.cpu && strcmp(o->cg.cpu, "help") == 0) {
        fputs(text, stdout);
        status = PTOC_TOOL_EXIT_OK;
    } else {
        status = judge_machine_messages(o, text);
    }
    free(text);
    return status;
}

static int dispatch(driver_options *opts)
{
    if (opts->help) {
        ptoc_tool_print_help(&driver_cli, stdout);
        return PTOC_TOOL_EXIT_OK;
    }
    if (opts->version) {
        printf("ptoc version %s\n", ptoc_version());
        return PTOC_TOOL_EXIT_OK;
    }
    int status = check_machine(opts);
    if (status >= 0)
        return status;
    if (!opts->input) {
        ptoc_tool_error(PROG, "no input file (give FILE, or - to read stdin)");
        return PTOC_TOOL_EXIT_USAGE;
    }
    if (!opts->common.arch)
        opts->common.arch = target_arch(opts);   /* -target names the arch too */
    if (opts->common.ub_size)               /* the planner reads it from the context */
        opts->cg.capacity[PTOC_PTO_AS_VEC] = opts->common.ub_size;
    return compile(opts);
}

int main(int argc, char **argv)
{
    driver_options opts = {.common = {.prog = PROG}, .emit = EMIT_DEFAULT, .cg = ptoc_codegen_defaults()};
    int status = PTOC_TOOL_EXIT_USAGE;
    describe_targets();
    if (ptoc_tool_parse_args(&driver_cli, argc, argv, &opts) && check_flag_combinations(&opts))
        status = dispatch(&opts);
    free((void *)opts.ro.args);
    return status;
}
