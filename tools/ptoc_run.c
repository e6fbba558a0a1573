/* ptoc_run.c: `ptoc --run`: run a kernel on data from files and the command line.
 *
 * The steps, each of which can only fail before anything is written:
 *   1. pick the entry: --entry NAME, else the only public function with a body,
 *      else the one carrying the unit attribute pto.entry;
 *   2. bind the --arg values to its parameters in order (ptoc_llvm_param_info):
 *      a pointer takes an array (FILE.npy or FILE:DTYPE:SHAPE, npy.h) whose
 *      dtype is the pointee's and, for a static memref, whose element count is
 *      the memref's; a scalar takes a literal that fits its type;
 *   3. lower (with the GM checks: every tload/tstore checks its window
 *      against the buffer of its pointer, registered here under the
 *      parameter's name), optimise and JIT the module, and launch the entry
 *      on --blocks host threads (ptoc_rt_launch: a run-time trap is an error);
 *   4. with --check-races and/or --trace=FILE.json (the kernel was lowered
 *      with pipe events), replay the recorded pipe events (runtime/pipesim.c)
 *      for the kernel's sync arch: print every race, deadlock and event id set
 *      twice on stderr, failing when there is one, and write the trace;
 *   5. with --out DIR, write each pointer argument back as DIR/argN.npy (N the
 *      parameter index), in the dtype and shape it was given.
 */
#define _POSIX_C_SOURCE 200809L

#include "tools/ptoc_run.h"

#include "ptoc/npy.h"
#include "ptoc/pto.h"
#include "ptoc/ptoc.h"
#include "ptoc/runtime.h"
#include "ptoc/syntax.h"
#include "tools/tool_util.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "ptoc"

/* ---------------------------------------------------------------- functions */

static const char *func_name(const ptoc_op *fn)
{
    ptoc_attr *a = ptoc_op_attr(fn, "sym_name");
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : "?";
}

static const ptoc_type *func_type(const ptoc_op *fn)
{
    ptoc_attr *a = ptoc_op_attr(fn, "function_type");
    return a && a->kind == PTOC_ATTR_TYPE && a->u.type->kind == PTOC_TYPE_FUNCTION ? a->u.type : NULL;
}

/* A function --run can call: a func.func with a body that is not private. */
static bool is_candidate(const ptoc_op *op)
{
    if (!ptoc_op_is(op, "func.func") || op->nregions == 0 || !op->regions[0].first)
        return false;
    ptoc_attr *vis = ptoc_op_attr(op, "sym_visibility");
    return !(vis && vis->kind == PTOC_ATTR_STRING && strcmp(vis->u.string->str, "public") != 0);
}

static ptoc_op *first_op(ptoc_op *module)
{
    return module->nregions && module->regions[0].first ? module->regions[0].first->first : NULL;
}

/* "@a, @b" of the candidates. */
static void list_candidates(ptoc_op *module, ptoc_strbuf *sb)
{
    for (ptoc_op *op = first_op(module); op; op = op->next)
        if (is_candidate(op))
            ptoc_strbuf_printf(sb, "%s@%s", sb->len ? ", " : "", func_name(op));
}

static ptoc_op *entry_error(ptoc_op *module, const char *what)
{
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, NULL);
    list_candidates(module, &sb);
    ptoc_tool_error(PROG, "%s (functions: %s)", what, sb.len ? ptoc_strbuf_cstr(&sb) : "none");
    ptoc_strbuf_free(&sb);
    return NULL;
}

static ptoc_op *find_entry(ptoc_op *module, const char *want)
{
    ptoc_op *only = NULL, *marked = NULL;
    uint32_t count = 0, nmarked = 0;
    for (ptoc_op *op = first_op(module); op; op = op->next) {
        if (!is_candidate(op))
            continue;
        if (want && strcmp(func_name(op), want) == 0)
            return op;
        only = op;
        count++;
        if (ptoc_op_attr(op, "pto.entry")) {
            marked = op;
            nmarked++;
        }
    }
    if (want) {
        char what[256];
        snprintf(what, sizeof what, "no function @%s to run", want);
        return entry_error(module, what);
    }
    if (count == 1)
        return only;
    if (nmarked == 1)
        return marked;
    return entry_error(module, count == 0 ? "nothing to run: the module has no public function with a body"
                                          : "more than one function could be run: pick one with --entry NAME "
                                            "or mark it with the unit attribute pto.entry");
}

/* ---------------------------------------------------------------- binding */

/* One bound parameter: an array for pointers (and the name the GM checks
 * report it by), else just the launcher's value. */
typedef struct bound_arg {
    bool has_array;
    ptoc_array array;
    char *name;
    ptoc_rt_arg rt;
} bound_arg;

/* Where a binding error points: "parameter 2 of @f (!pto.ptr<f32>)". */
typedef struct param_ref {
    const ptoc_op *fn;
    uint32_t index;
    const ptoc_param_info *info;
} param_ref;

/* "parameter 2 of @f (!pto.ptr<f32>)" into sb. */
static void param_name(const param_ref *p, ptoc_strbuf *sb)
{
    ptoc_strbuf_printf(sb, "parameter %" PRIu32 " of @%s (", p->index, func_name(p->fn));
    ptoc_print_type_to(sb, p->info->type);
    ptoc_strbuf_puts(sb, ")");
}

static void param_error(const param_ref *p, const char *fmt, ...)
{
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, NULL);
    param_name(p, &sb);
    ptoc_strbuf_puts(&sb, " ");
    va_list ap;
    va_start(ap, fmt);
    ptoc_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    ptoc_tool_error(PROG, "%s", ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
}

/* The array dtype of an element type; false for types no array holds. */
static bool dtype_of(const ptoc_type *t, ptoc_dtype *out)
{
    static const ptoc_dtype sints[] = {PTOC_DTYPE_I8, PTOC_DTYPE_I16, PTOC_DTYPE_I32, PTOC_DTYPE_I64};
    static const ptoc_dtype uints[] = {PTOC_DTYPE_U8, PTOC_DTYPE_U16, PTOC_DTYPE_U32, PTOC_DTYPE_U64};
    if (t->kind == PTOC_TYPE_INDEX) {
        *out = PTOC_DTYPE_I64;
        return true;
    }
    if (t->kind == PTOC_TYPE_INTEGER) {
        uint32_t w = t->u.integer.width;
        int k = w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : w == 64 ? 3 : -1;
        if (w == 1)
            *out = PTOC_DTYPE_BOOL;
        else if (k >= 0)
            *out = t->u.integer.sign == PTOC_UNSIGNED ? uints[k] : sints[k];
        return w == 1 || k >= 0;
    }
    if (t->kind != PTOC_TYPE_FLOAT)
        return false;
    switch (t->u.fp.kind) {
    case PTOC_F16: *out = PTOC_DTYPE_F16; return true;
    case PTOC_BF16: *out = PTOC_DTYPE_BF16; return true;
    case PTOC_F32: *out = PTOC_DTYPE_F32; return true;
    case PTOC_F64: *out = PTOC_DTYPE_F64; return true;
    default: return false;
    }
}

/* bf16 arrays travel as u16 in .npy files (npy.h). */
static bool dtype_fits(ptoc_dtype want, ptoc_dtype have)
{
    return want == have || (want == PTOC_DTYPE_BF16 && have == PTOC_DTYPE_U16);
}

/* A number where an array is expected (and no file of that name). */
static bool is_number(const char *text)
{
    char *end;
    struct stat st;
    (void)strtod(text, &end);
    return end != text && !*end && stat(text, &st) != 0;
}

static char *param_name_copy(const param_ref *p)
{
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, NULL);
    param_name(p, &sb);
    char *name = malloc(sb.len + 1);
    if (name)
        memcpy(name, ptoc_strbuf_cstr(&sb), sb.len + 1);
    ptoc_strbuf_free(&sb);
    return name;
}

static bool bind_pointer(const param_ref *p, const char *spec, bound_arg *out)
{
    ptoc_dtype want;
    if (!dtype_of(p->info->elem, &want)) {
        param_error(p, "points to elements --run cannot pass");
        return false;
    }
    if (is_number(spec)) {
        param_error(p, "needs an array (FILE.npy or FILE:DTYPE:SHAPE), got the number '%s'", spec);
        return false;
    }
    char *err = NULL;
    if (!ptoc_array_read(spec, &out->array, &err)) {
        ptoc_tool_error(PROG, "%s", err ? err : "cannot read an argument");
        free(err);
        return false;
    }
    out->has_array = true;
    char shape[128];
    if (!dtype_fits(want, out->array.dtype)) {
        param_error(p, "needs %s data, but '%s' holds %s", ptoc_dtype_name(want), spec,
                    ptoc_dtype_name(out->array.dtype));
        return false;
    }
    if (p->info->static_elems >= 0 && out->array.count != (size_t)p->info->static_elems) {
        param_error(p, "needs %" PRId64 " elements, but '%s' holds %zu (%s)", p->info->static_elems, spec,
                    out->array.count, ptoc_array_shape_string(&out->array, shape, sizeof shape));
        return false;
    }
    if (!(out->name = param_name_copy(p))) {
        ptoc_tool_error(PROG, "out of memory");
        return false;
    }
    out->rt = (ptoc_rt_arg){.kind = PTOC_RT_ARG_PTR, .value.ptr = out->array.data};
    return true;
}

/* f32 -> IEEE half bits, round to nearest even (the value is known to be in range). */
static uint16_t f32_to_f16_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t mag = x & 0x7fffffffu;
    if (mag > 0x7f800000u)
        return sign | 0x7e00u;                     /* NaN */
    if (mag == 0x7f800000u)
        return sign | 0x7c00u;                     /* infinity */
    if (mag < 0x38800000u) {                       /* below 2^-14: a half subnormal, steps of 2^-24 */
        float m;
        memcpy(&m, &mag, sizeof m);
        return sign | (uint16_t)nearbyintf(m * 16777216.0f);
    }
    mag += 0x0fffu + ((mag >> 13) & 1u);           /* round the 13 dropped bits to even */
    return sign | (uint16_t)((mag - 0x38000000u) >> 13);  /* rebias the exponent 127 -> 15 */
}

/* f32 -> bfloat16 bits, round to nearest even, NaN kept quiet. */
static uint16_t f32_to_bf16_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

static bool bind_float(const param_ref *p, const char *text, bound_arg *out)
{
    char *end;
    errno = 0;
    double d = strtod(text, &end);
    if (end == text || *end) {
        param_error(p, "needs a number, got '%s'", text);
        return false;
    }
    ptoc_float_kind kind = p->info->elem->u.fp.kind;
    double max = kind == PTOC_F16 ? 65504.0 : kind == PTOC_F64 ? DBL_MAX : FLT_MAX;
    if (isfinite(d) && fabs(d) > max) {
        param_error(p, "cannot hold %s (largest finite value %g)", text, max);
        return false;
    }
    if (kind == PTOC_F16 || kind == PTOC_BF16) {
        uint16_t bits = kind == PTOC_F16 ? f32_to_f16_bits((float)d) : f32_to_bf16_bits((float)d);
        out->rt = (ptoc_rt_arg){.kind = PTOC_RT_ARG_I16, .value.i = (int16_t)bits};
    } else {
        out->rt = (ptoc_rt_arg){.kind = kind == PTOC_F64 ? PTOC_RT_ARG_F64 : PTOC_RT_ARG_F32, .value.f = d};
    }
    return true;
}

/* Parses a decimal integer (with '-' or as a large unsigned value); false if
 * `text` is not one. *neg tells which of *s / *u holds it. */
static bool parse_integer(const char *text, bool *neg, int64_t *s, uint64_t *u)
{
    char *end;
    errno = 0;
    *neg = text[0] == '-';
    if (*neg)
        *s = strtoll(text, &end, 10);
    else
        *u = strtoull(text, &end, 10);
    return end != text && !*end && errno == 0 && (text[0] == '-' || (text[0] >= '0' && text[0] <= '9'));
}

static bool bind_integer(const param_ref *p, const char *text, bound_arg *out)
{
    const ptoc_type *t = p->info->elem;
    uint32_t w = t->kind == PTOC_TYPE_INDEX ? 64 : t->u.integer.width;
    bool is_unsigned = t->kind == PTOC_TYPE_INTEGER && t->u.integer.sign == PTOC_UNSIGNED;
    bool is_signed = t->kind == PTOC_TYPE_INDEX || (t->kind == PTOC_TYPE_INTEGER && t->u.integer.sign == PTOC_SIGNED);
    /* Signless integers take either reading (MLIR's convention), signed ones and
     * index the signed range, unsigned ones the unsigned range. */
    int64_t smin = w == 64 ? INT64_MIN : -(INT64_C(1) << (w - 1));
    uint64_t umax = is_signed ? (UINT64_C(1) << (w - 1)) - 1 : w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    if (is_unsigned)
        smin = 0;
    bool neg = false;
    int64_t s = 0;
    uint64_t u = 0;
    if (w == 1 && (strcmp(text, "true") == 0 || strcmp(text, "false") == 0))
        u = text[0] == 't';
    else if (!parse_integer(text, &neg, &s, &u)) {
        param_error(p, "needs an integer, got '%s'", text);
        return false;
    }
    if (neg ? s < smin : u > umax) {
        param_error(p, "cannot hold %s (range %" PRId64 " to %" PRIu64 ")", text, smin, umax);
        return false;
    }
    static const ptoc_rt_arg_kind kinds[] = {PTOC_RT_ARG_I8, PTOC_RT_ARG_I16, PTOC_RT_ARG_I32, PTOC_RT_ARG_I64};
    int k = w <= 8 ? 0 : w <= 16 ? 1 : w <= 32 ? 2 : 3;
    int64_t value = neg ? s : (int64_t)u;
    if (w == 1)
        value &= 1;                /* bool is 0 or 1 in C; -1 is MLIR's spelling of true */
    out->rt = (ptoc_rt_arg){.kind = kinds[k], .value.i = value};
    return true;
}

static bool bind_one(const param_ref *p, const char *text, bound_arg *out)
{
    switch (p->info->kind) {
    case PTOC_PARAM_POINTER:
        return bind_pointer(p, text, out);
    case PTOC_PARAM_SCALAR:
        return p->info->elem->kind == PTOC_TYPE_FLOAT ? bind_float(p, text, out) : bind_integer(p, text, out);
    case PTOC_PARAM_UNSUPPORTED:
        break;
    }
    param_error(p, "cannot be passed by --run (only pointers, memrefs in GM and scalars can)");
    return false;
}

static void free_bound(bound_arg *args, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (args[i].has_array)
            ptoc_array_free(&args[i].array);
        free(args[i].name);
    }
    free(args);
}

/* Binds every --arg to `fn`'s parameters; NULL after an error. */
static bound_arg *bind_args(const ptoc_op *fn, const ptoc_run_options *ro)
{
    const ptoc_type *ft = func_type(fn);
    uint32_t n = ft ? ft->u.func.ninputs : 0;
    if (ft && ft->u.func.nresults != 0) {
        ptoc_tool_error(PROG, "@%s returns a value; --run runs kernels, which return nothing", func_name(fn));
        return NULL;
    }
    if (!ft || ro->nargs != n) {
        ptoc_tool_error(PROG, "@%s takes %" PRIu32 " argument%s, but %" PRIu32 " --arg %s given", func_name(fn), n,
                        n == 1 ? "" : "s", ro->nargs, ro->nargs == 1 ? "was" : "were");
        return NULL;
    }
    ptoc_param_info *info = calloc(n + 1, sizeof *info);
    bound_arg *args = calloc(n + 1, sizeof *args);
    bool ok = info && args;
    if (ok)
        ptoc_llvm_param_info(fn, info, n);
    for (uint32_t i = 0; ok && i < n; i++) {
        param_ref p = {fn, i, &info[i]};
        ok = bind_one(&p, ro->args[i], &args[i]);
    }
    free(info);
    if (!ok) {
        free_bound(args, n);
        return NULL;
    }
    return args;
}

/* ---------------------------------------------------------------- running */

/* Lowers, optimises and JITs the module; the entry's address, or NULL. */
static void *compile_entry(ptoc_op *module, const ptoc_codegen_options *cg, const char *name, ptoc_jit **jit)
{
    ptoc_llvm_module *m = ptoc_llvm_lower(module, cg);
    if (!m)
        return NULL;
    char *err = NULL;
    if (!ptoc_llvm_optimize(m, &err)) {
        ptoc_tool_error(PROG, "%s", err ? err : "optimisation failed");
        free(err);
        ptoc_llvm_module_destroy(m);
        return NULL;
    }
    *jit = ptoc_jit_create(m, &err);
    if (!*jit) {
        ptoc_tool_error(PROG, "%s", err ? err : "cannot create the JIT");
        free(err);
        return NULL;
    }
    void *fn = ptoc_jit_lookup(*jit, name);
    if (!fn)
        ptoc_tool_error(PROG, "the JIT could not compile @%s", name);
    return fn;
}

/* Registers every array with the GM checks, under its parameter's name, for
 * the duration of the launch (its logical size: the allocation is rounded up,
 * the check is not). */
static bool register_buffers(const bound_arg *args, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const ptoc_array *a = &args[i].array;
        if (args[i].has_array && !ptoc_rt_gm_register(a->data, a->count * ptoc_dtype_size(a->dtype), args[i].name)) {
            ptoc_tool_error(PROG, "out of memory");
            return false;
        }
    }
    return true;
}

static bool launch(void *fn, const bound_arg *args, uint32_t n, const ptoc_run_options *ro)
{
    ptoc_rt_arg *rt = calloc(n + 1, sizeof *rt);
    if (!rt) {
        ptoc_tool_error(PROG, "out of memory");
        return false;
    }
    for (uint32_t i = 0; i < n; i++)
        rt[i] = args[i].rt;
    ptoc_rt_launch_options lo = {.blocks = ro->blocks, .poison = ro->poison};
    char *err = NULL;
    bool ok = register_buffers(args, n);
    if (ok && !(ok = ptoc_rt_launch(fn, rt, n, &lo, &err)))
        ptoc_tool_error(PROG, "the kernel failed at run time: %s", err ? err : "unknown error");
    ptoc_rt_gm_clear();
    free(err);
    free(rt);
    return ok;
}

/* ---------------------------------------------------------------- the pipe simulator */

_Static_assert((int)PTOC_PTO_PIPE_ALL == PTOC_RT_PIPE_ALL && (int)PTOC_PTO_PIPE_NUM == PTOC_RT_PIPE_COUNT,
               "the runtime numbers pipes as pto.h does");

/* The sync rules the replay applies: those of the arch pto-insert-sync and the
 * verifiers followed (ptoc_pto_target_arch), from its row of the arch table. */
static ptoc_rt_arch_rules sync_rules(ptoc_op *module)
{
    return ptoc_pipe_rules(ptoc_pto_target_arch(module, NULL));
}

/* Writes the trace and prints the reports; false on any report or failure.
 * Runs while the JIT is alive: the recorded locations are its constants. */
static bool pipe_results(ptoc_op *module, const ptoc_run_options *ro)
{
    ptoc_rt_arch_rules arch = sync_rules(module);
    bool ok = true;
    if (ro->trace) {
        char *json = ptoc_rt_pipe_trace_json(&arch);
        if (!json)
            ptoc_tool_error(PROG, "out of memory while writing the trace");
        ok = json && ptoc_tool_write_output(PROG, ro->trace, json, strlen(json));
        free(json);
    }
    if (ro->stats) {
        char *text = ptoc_rt_pipe_stats(&arch);
        if (!text)
            ptoc_tool_error(PROG, "out of memory while counting the modelled cycles");
        else
            fputs(text, stderr);
        ok = ok && text;
        free(text);
    }
    if (ro->check_races) {
        char *reports = NULL;
        uint32_t n = ptoc_rt_pipe_check(&arch, &reports);
        if (reports)
            fputs(reports, stderr);
        free(reports);
        if (n) {
            ptoc_tool_error(PROG, "the pipe simulator found %" PRIu32 " error%s (sync rules of %s)", n,
                            n == 1 ? "" : "s", arch.name);
            ok = false;
        }
    }
    return ok;
}

/* DIR/argN.npy for every pointer argument; DIR is created when missing. */
static bool write_outputs(const char *dir, const bound_arg *args, uint32_t n)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        ptoc_tool_error(PROG, "cannot create the --out directory '%s': %s", dir, strerror(errno));
        return false;
    }
    bool ok = true;
    for (uint32_t i = 0; ok && i < n; i++) {
        if (!args[i].has_array)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/arg%" PRIu32 ".npy", dir, i);
        char *err = NULL;
        ok = ptoc_npy_write(path, &args[i].array, &err);
        if (!ok)
            ptoc_tool_error(PROG, "%s", err ? err : "cannot write an output");
        free(err);
    }
    return ok;
}

int ptoc_run_kernel(ptoc_op *module, const ptoc_codegen_options *cg, const ptoc_run_options *ro)
{
    ptoc_op *fn = find_entry(module, ro->entry);
    bound_arg *args = fn ? bind_args(fn, ro) : NULL;
    if (!args)
        return PTOC_TOOL_EXIT_ERROR;
    uint32_t n = ro->nargs;
    ptoc_jit *jit = NULL;
    ptoc_codegen_options checked = *cg;
    checked.gm_checks = true;              /* --run is memory safe */
    void *entry = compile_entry(module, &checked, func_name(fn), &jit);
    if (cg->pipe_events)
        ptoc_rt_pipe_reset();
    bool ok = entry && launch(entry, args, n, ro);
    if (ok && cg->pipe_events)
        ok = pipe_results(module, ro);
    if (ok && ro->out_dir)
        ok = write_outputs(ro->out_dir, args, n);
    if (cg->pipe_events)
        ptoc_rt_pipe_reset();      /* the logs point into the JIT's constants */
    ptoc_jit_destroy(jit);
    free_bound(args, n);
    return ok ? PTOC_TOOL_EXIT_OK : PTOC_TOOL_EXIT_ERROR;
}
