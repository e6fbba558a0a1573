/* ptoc.c: the compiler driver.
 *
 *   ptoc k.pto                        -> k.o in the current directory
 *   ptoc k.pto -emit=llvm|asm|header  -> k.ll, k.s, k.h (-o FILE; -o - for stdout)
 *   ptoc k.pto --run --arg a.npy --arg b.bin:f32:16x16 --arg 3 --out DIR
 *
 * Every mode parses the kernel and verifies it for -target (given to the
 * dialects as the context option "pto-arch", which wins over the module's own
 * pto.target_arch). Code generation exists for -target=cpu only: for a2, a3
 * and a5 ptoc stops after verification with a note and exits 0 (so scripts can
 * use it as a checker), and --run is an error. --run is in ptoc_run.c.
 * Auto mode: a kernel with Level-1 tiles or address-less on-chip buffers first
 * goes through pto-bufferize, pto-plan-memory and pto-insert-tassign, unless
 * --pto-level=level3 (PTOAS's spelling: manual addresses, no planning), where an
 * address-less buffer is an error. level1 and level2 (the default) plan.
 * Then pto-insert-sync orders the pipes of every function that has no sync of
 * its own (--no-insert-sync turns it off; --enable-insert-sync, PTOAS's
 * opt-in spelling, is accepted and changes nothing).
 * Exit status: 0 success, 1 an error diagnostic, 2 a bad command line.
 */
#include "ptoc/codegen.h"
#include "ptoc/pto.h"
#include "ptoc/ptoc.h"
#include "tools/ptoc_run.h"
#include "tools/tool_util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define PROG "ptoc"

/* -emit kinds: the three of codegen.h and the C header. */
enum { EMIT_DEFAULT = -1, EMIT_HEADER = PTOC_EMIT_OBJ + 1 };

typedef struct driver_options {
    const char *input;
    const char *output;
    const char *target;
    int emit;                  /* EMIT_DEFAULT (an object), ptoc_emit_kind or EMIT_HEADER */
    ptoc_codegen_options cg;
    bool run;
    bool manual_level;         /* --pto-level=level3: addresses are the author's */
    bool no_sync;              /* --no-insert-sync: leave pipe ordering to the author */
    ptoc_run_options ro;
    uint32_t args_cap;
    bool help, version;
} driver_options;

/* ---------------------------------------------------------------- flags */

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
                                        [PTOC_EMIT_OBJ] = "obj", [EMIT_HEADER] = "header"};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(value, names[i]) == 0) {
            ((driver_options *)o)->emit = i;
            return true;
        }
    ptoc_tool_error(PROG, "invalid -emit value '%s' (expected llvm, asm, obj or header)", value);
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

/* A byte count with an optional K or M (KiB, MiB) suffix. */
static bool parse_bytes(const char *text, uint64_t *out)
{
    char *end;
    if (!isdigit((unsigned char)text[0]))
        return false;
    unsigned long long v = strtoull(text, &end, 10);
    uint64_t scale = *end == 'k' || *end == 'K' ? 1u << 10 : *end == 'm' || *end == 'M' ? 1u << 20 : 1;
    if (scale != 1)
        end++;
    if (*end || v == 0 || v > (UINT64_C(1) << 40) / scale)
        return false;
    *out = v * scale;
    return true;
}

static bool set_ub_size(void *o, const char *value)
{
    if (!parse_bytes(value, &((driver_options *)o)->cg.capacity[PTOC_PTO_AS_VEC])) {
        ptoc_tool_error(PROG, "invalid -ub-size value '%s' (expected a byte count such as 262144, 256K or 4M)",
                        value);
        return false;
    }
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
    if (opts->ro.nargs == opts->args_cap) {
        uint32_t cap = opts->args_cap ? opts->args_cap * 2 : 8;
        const char **args = realloc((void *)opts->ro.args, cap * sizeof *args);
        if (!args) {
            ptoc_tool_error(PROG, "out of memory");
            return false;
        }
        opts->ro.args = args;
        opts->args_cap = cap;
    }
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

static bool set_level(void *o, const char *value)
{
    static const char *const levels[] = {"level1", "level2", "level3"};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(value, levels[i]) == 0) {
            ((driver_options *)o)->manual_level = i == 2;
            return true;
        }
    ptoc_tool_error(PROG, "invalid --pto-level value '%s' (expected level1, level2 or level3)", value);
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

static const ptoc_tool_flag driver_flags[] = {
    {"target", PTOC_TOOL_VALUE, "a2|a3|a2a3|a5|cpu", set_target, "Target architecture (default cpu; code generation: cpu)"},
    {"O0", PTOC_TOOL_NO_VALUE, NULL, set_o0, "No optimisation"},
    {"O1", PTOC_TOOL_NO_VALUE, NULL, set_o1, "Optimisation level 1"},
    {"O2", PTOC_TOOL_NO_VALUE, NULL, set_o2, "Optimisation level 2 (default)"},
    {"O3", PTOC_TOOL_NO_VALUE, NULL, set_o3, "Optimisation level 3"},
    {"emit", PTOC_TOOL_VALUE, "llvm|asm|obj|header", set_emit, "What to write (default obj)"},
    {"o", PTOC_TOOL_VALUE, "FILE", set_output, "Output file (default: the input's name with .ll/.s/.o/.h; - is stdout)"},
    {"mcpu", PTOC_TOOL_VALUE, "NAME", set_mcpu, "CPU to compile for (default: this host's)"},
    {"mattr", PTOC_TOOL_VALUE, "FEATURES", set_mattr, "CPU features, e.g. +avx2,-avx512f (default: this host's)"},
    {"ub-size", PTOC_TOOL_VALUE, "BYTES", set_ub_size, "Simulated UB (vec) capacity, e.g. 4M (default: the arch's)"},
    {"pto-level", PTOC_TOOL_VALUE, "level1|level2|level3", set_level,
     "level1/level2 (default): plan memory for buffers without addresses; level3: addresses are manual"},
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
    {"help", PTOC_TOOL_NO_VALUE, NULL, set_help, "Print this help and exit"},
    {"h", PTOC_TOOL_NO_VALUE, NULL, set_help, NULL},
    {"version", PTOC_TOOL_NO_VALUE, NULL, set_version, "Print the version and exit"},
};

static const ptoc_tool_cli driver_cli = {
    .prog = PROG,
    .usage = "FILE|- [-target=a2|a3|a2a3|a5|cpu] [-O0..-O3] [-emit=llvm|asm|obj|header] [-o FILE]\n"
             "       ptoc FILE|- --run [--arg VALUE]... [--out DIR] [--blocks N] [--entry NAME]\n"
             "                         [--check-races] [--trace=FILE.json]",
    .overview = "compile a PTO kernel to native code, or run it (--run)",
    .flags = driver_flags,
    .nflags = sizeof driver_flags / sizeof driver_flags[0],
    .positional = set_input,
    .fallback = NULL,
};

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
    if (!o->run && (o->ro.check_races || o->ro.trace)) {
        ptoc_tool_error(PROG, "--check-races and --trace need --run");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- output */

static const char *const emit_suffix[] = {[PTOC_EMIT_LLVM] = ".ll", [PTOC_EMIT_ASM] = ".s",
                                          [PTOC_EMIT_OBJ] = ".o", [EMIT_HEADER] = ".h"};

/* The output path: -o, else the input's base name without its extension plus
 * the kind's suffix in the current directory (stdout for text read from stdin).
 * Malloc'd. */
static char *output_path(const driver_options *o, int kind)
{
    const char *in = o->input ? o->input : "-";
    const char *chosen = o->output ? o->output : strcmp(in, "-") == 0 ? "-" : NULL;
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
    ptoc_llvm_module *m = ptoc_llvm_lower(module, &o->cg);
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

/* ---------------------------------------------------------------- the pipeline */

/* The passes of auto mode, in order; pto-bufferize is looked up by name so a
 * build without it still plans Level-2 kernels. */
static const char *const auto_passes[] = {"pto-bufferize", "pto-plan-memory", "pto-insert-tassign"};

static bool is_addressless_buffer(const ptoc_op *op)
{
    ptoc_pto_address_space space;
    if (ptoc_op_is(op, "pto.alloc_tile")) {
        ptoc_attr *seg = ptoc_op_attr(op, "operandSegmentSizes");
        return !(seg && seg->kind == PTOC_ATTR_DENSE_ARRAY && seg->u.dense.n == 3 && seg->u.dense.values[0] == 1);
    }
    return (ptoc_op_is(op, "memref.alloc") || ptoc_op_is(op, "memref.alloca")) && op->nresults == 1 &&
           ptoc_pto_memref_space(op->results[0].type, &space) && space != PTOC_PTO_AS_GM &&
           !ptoc_op_attr(op, "pto.addr");
}

static bool has_level1_tile(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++)
        if (ptoc_pto_tile(op->results[i].type))
            return true;
    for (uint32_t r = 0; r < op->nregions; r++)
        for (ptoc_block *b = op->regions[r].first; b; b = b->next)
            for (uint32_t i = 0; i < b->nargs; i++)
                if (ptoc_pto_tile(b->args[i]->type))
                    return true;
    return false;
}

typedef struct auto_scan { bool manual, needed; } auto_scan;

/* Finds what needs planning; at level3 reports each address-less buffer. */
static ptoc_walk_result scan_op(ptoc_op *op, void *user)
{
    auto_scan *sc = user;
    bool addressless = is_addressless_buffer(op);
    if (addressless && sc->manual)
        ptoc_op_emit_error(op, "has no address, but --pto-level=level3 requires manual addresses "
                               "(use level1 or level2 to plan memory)");
    sc->needed |= addressless || has_level1_tile(op);
    return PTOC_WALK_ADVANCE;
}

static bool run_auto_mode(ptoc_op *module, ptoc_arena *arena, const driver_options *o)
{
    ptoc_context *ctx = ptoc_op_context(module);
    auto_scan sc = {o->manual_level, false};
    size_t errors = ptoc_context_error_count(ctx);
    ptoc_walk_pre(module, scan_op, &sc);
    if (ptoc_context_error_count(ctx) != errors)
        return false;
    if (!sc.needed || sc.manual)
        return true;
    ptoc_pm_config config = {.verify_each = true};
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    bool ok = true;
    for (size_t i = 0; i < sizeof auto_passes / sizeof auto_passes[0] && ok; i++)
        if (i > 0 || ptoc_pass_lookup(ctx, auto_passes[i]))
            ok = ptoc_pm_add(pm, auto_passes[i]);
    ok = ok && ptoc_pm_run(pm, module, arena);
    ptoc_pm_destroy(pm);
    return ok;
}

/* pto-insert-sync on every function without sync of its own (the pass skips
 * the others), after planning, since it needs every buffer's address. */
static bool run_sync(ptoc_op *module, ptoc_arena *arena, const driver_options *o)
{
    ptoc_context *ctx = ptoc_op_context(module);
    if (o->no_sync || !ptoc_pass_lookup(ctx, "pto-insert-sync"))
        return true;
    ptoc_pm_config config = {.verify_each = true};
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    bool ok = ptoc_pm_add(pm, "pto-insert-sync") && ptoc_pm_run(pm, module, arena);
    ptoc_pm_destroy(pm);
    return ok;
}

static int process(ptoc_op *module, ptoc_arena *arena, const driver_options *o)
{
    if (!run_auto_mode(module, arena, o) || !run_sync(module, arena, o))
        return PTOC_TOOL_EXIT_ERROR;
    if (ptoc_pto_arch_from_name(o->target) != PTOC_PTO_ARCH_CPU) {
        if (o->run) {
            ptoc_tool_error(PROG, "--run for -target=%s is not implemented yet (use -target=cpu)", o->target);
            return PTOC_TOOL_EXIT_ERROR;
        }
        fprintf(stderr, "ptoc: code generation for -target=%s is not implemented yet\n", o->target);
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
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = ptoc_parse(ctx, arena, text, len, filename, NULL);
    bool ok = module && ptoc_verify(module) && ptoc_context_error_count(ctx) == 0;
    int status = ok ? process(module, arena, opts) : PTOC_TOOL_EXIT_ERROR;
    ptoc_arena_destroy(arena);
    ptoc_context_destroy(ctx);
    free(text);
    return status;
}

int main(int argc, char **argv)
{
    driver_options opts = {.target = "cpu", .emit = EMIT_DEFAULT, .cg = ptoc_codegen_defaults()};
    int status = PTOC_TOOL_EXIT_USAGE;
    if (ptoc_tool_parse_args(&driver_cli, argc, argv, &opts) && check_flag_combinations(&opts)) {
        if (opts.help) {
            ptoc_tool_print_help(&driver_cli, stdout);
            status = PTOC_TOOL_EXIT_OK;
        } else if (opts.version) {
            printf("ptoc version %s\n", ptoc_version());
            status = PTOC_TOOL_EXIT_OK;
        } else {
            status = compile(&opts);
        }
    }
    free((void *)opts.ro.args);
    return status;
}
