/* pass.c: the pass registry and the pass manager.
 *
 * The registry is a per-context list of pass rows. A pipeline is a tree: a list
 * of elements, each either a pass (with its `{key=value}` options) or a nest
 * `op.name(...)` that holds a list of its own. Running an element on an op:
 *   - a pass runs on the op itself when it has no anchor or the op has the
 *     anchor's name, otherwise on every op named by the anchor below it;
 *   - a nest runs its list on the pipeline root when the root has the nest's
 *     name (`builtin.module(...)`), otherwise on every op of that name below,
 *     one op at a time, the whole list per op (as MLIR's nested pass managers).
 * Ops are collected before a pass runs, so a pass may rewrite freely under its
 * anchor. After each run the manager dumps the IR when asked, verifies the op the
 * pass ran on when configured, dumps the IR of a failed pass when asked, and adds
 * the wall time to the element's row; the timing report is written when the
 * manager is destroyed, so one report covers every module it ran on
 * (`--split-input-file`).
 * The registry also holds named pipelines: a name that is no pass stands for the
 * elements of its registered text, so `-p ptoc-level2` runs what ptoc runs.
 */
#include "ir/core_internal.h"
#include "ptoc/pass.h"
#include "ptoc/syntax.h"
#include "ptoc/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------- registry */

PTOC_VARR_DEF(const ptoc_pass_def *, pass_def_varr)
PTOC_VARR_DEF(const ptoc_pipeline_def *, pipeline_def_varr)

typedef struct pass_registry {
    pass_def_varr passes;
    pipeline_def_varr pipelines;
} pass_registry;

/* The registry is a context extension, allocated with its rows in the
 * context's permanent arena so it is freed with the context (growing a row
 * array cannot fail: the arena stops the program first). */
#define REGISTRY_KEY "ptoc.pass-registry"

static pass_registry *registry_find(ptoc_context *ctx)
{
    return ptoc_context_extension(ctx, REGISTRY_KEY);
}

static pass_registry *registry_get(ptoc_context *ctx)
{
    pass_registry *reg = registry_find(ctx);
    if (!reg) {
        ptoc_arena *perm = ptoc_context_perm_arena(ctx);
        reg = PTOC_NEW(perm, pass_registry);
        pass_def_varr_init_arena(&reg->passes, perm);
        pipeline_def_varr_init_arena(&reg->pipelines, perm);
        ptoc_context_set_extension(ctx, REGISTRY_KEY, reg);
    }
    return reg;
}

/* Registering a name again replaces the earlier row (the same row: no change). */
void ptoc_pass_register(ptoc_context *ctx, const ptoc_pass_def *def)
{
    pass_registry *reg = registry_get(ctx);
    pass_def_varr *rows = &reg->passes;
    uint32_t i = 0;
    while (i < rows->len && strcmp(rows->data[i]->name, def->name) != 0)
        i++;
    if (i == rows->len)                  /* a new name */
        pass_def_varr_push(rows, def);
    else
        rows->data[i] = def;
}

const ptoc_pass_def *ptoc_pass_lookup(ptoc_context *ctx, const char *name)
{
    pass_registry *reg = registry_find(ctx);
    for (uint32_t i = 0; reg && i < reg->passes.len; i++)
        if (strcmp(reg->passes.data[i]->name, name) == 0)
            return reg->passes.data[i];
    return NULL;
}

size_t ptoc_pass_list(ptoc_context *ctx, const ptoc_pass_def *const **out)
{
    pass_registry *reg = registry_find(ctx);
    *out = reg ? reg->passes.data : NULL;
    return reg ? reg->passes.len : 0;
}

void ptoc_pipeline_register(ptoc_context *ctx, const ptoc_pipeline_def *def)
{
    pass_registry *reg = registry_get(ctx);
    pipeline_def_varr *rows = &reg->pipelines;
    uint32_t i = 0;
    while (i < rows->len && strcmp(rows->data[i]->name, def->name) != 0)
        i++;
    if (i == rows->len)                  /* a new name */
        pipeline_def_varr_push(rows, def);
    else
        rows->data[i] = def;
}

const ptoc_pipeline_def *ptoc_pipeline_lookup(ptoc_context *ctx, const char *name)
{
    pass_registry *reg = registry_find(ctx);
    for (uint32_t i = 0; reg && i < reg->pipelines.len; i++)
        if (strcmp(reg->pipelines.data[i]->name, name) == 0)
            return reg->pipelines.data[i];
    return NULL;
}

size_t ptoc_pipeline_list(ptoc_context *ctx, const ptoc_pipeline_def *const **out)
{
    pass_registry *reg = registry_find(ctx);
    *out = reg ? reg->pipelines.data : NULL;
    return reg ? reg->pipelines.len : 0;
}

const char *ptoc_pass_option(const ptoc_pass_options *o, const char *key)
{
    for (uint32_t i = 0; o && i < o->n; i++)
        if (strcmp(o->keys[i], key) == 0)
            return o->values[i];
    return NULL;
}

/* ---------------------------------------------------------------- pipeline tree */

typedef struct pm_node {
    const ptoc_pass_def *pass;   /* NULL for a nest */
    const char *anchor;          /* a nest's op name */
    bool (*applies)(ptoc_op *op); /* a nest from a named pipeline: which ops it runs on */
    ptoc_pass_options opts;
    struct pm_node *children;    /* a nest's list */
    struct pm_node *next;
    double seconds;              /* pass wall time summed over its runs */
    uint32_t runs;
} pm_node;

struct ptoc_pm {
    ptoc_context *ctx;
    ptoc_pm_config config;
    ptoc_arena *arena;           /* nodes, names and options */
    pm_node *first;
    pm_node **tail;
    size_t npasses;
    double verify_seconds;
    double total_seconds;
    bool ran;
};

ptoc_pm *ptoc_pm_create(ptoc_context *ctx, const ptoc_pm_config *config)
{
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_pm *pm = PTOC_NEW(arena, ptoc_pm);
    pm->ctx = ctx;
    pm->arena = arena;
    pm->tail = &pm->first;
    if (config)
        pm->config = *config;
    return pm;
}

size_t ptoc_pm_size(const ptoc_pm *pm) { return pm->npasses; }

static pm_node *node_new_pass(ptoc_pm *pm, const ptoc_pass_def *def)
{
    pm_node *n = PTOC_NEW(pm->arena, pm_node);
    n->pass = def;
    pm->npasses++;
    return n;
}

bool ptoc_pm_add(ptoc_pm *pm, const char *pass_name)
{
    const ptoc_pass_def *def = ptoc_pass_lookup(pm->ctx, pass_name);
    if (!def) {
        ptoc_emit_error(pm->ctx, ptoc_loc_unknown(), "unknown pass '%s'", pass_name);
        return false;
    }
    *pm->tail = node_new_pass(pm, def);
    pm->tail = &(*pm->tail)->next;
    return true;
}

/* ---------------------------------------------------------------- pipeline parser */

/* Grammar (spaces allowed between tokens):
 *   list    := element (',' element)*
 *   element := name ['{' option* '}'] | name '(' [list] ')'
 *   option  := key ['=' value]          value: "quoted" or a run without space, '}'
 *   name    := [A-Za-z0-9_.-]+
 * An element with parentheses is a nest on ops of that name; otherwise it is a
 * pass or, when no pass has the name, a named pipeline, which stands for the
 * elements of its registered text. */

#define PIPELINE_MAX_DEPTH 32

typedef struct pipe_parser {
    ptoc_pm *pm;
    const char *text;
    size_t pos;
} pipe_parser;

static bool pp_error(pipe_parser *pp, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ptoc_emit_error(pp->pm->ctx, ptoc_loc_unknown(), "%s at column %zu of pass pipeline '%s'",
                    msg, pp->pos + 1, pp->text);
    return false;
}

static void pp_skip_space(pipe_parser *pp)
{
    while (pp->text[pp->pos] == ' ' || pp->text[pp->pos] == '\t' || pp->text[pp->pos] == '\n')
        pp->pos++;
}

static bool pp_accept(pipe_parser *pp, char c)
{
    pp_skip_space(pp);
    if (pp->text[pp->pos] != c)
        return false;
    pp->pos++;
    return true;
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '-';
}

/* A name copied into the manager's arena, or NULL (and an error) when absent. */
static char *pp_name(pipe_parser *pp, const char *what)
{
    pp_skip_space(pp);
    size_t start = pp->pos;
    while (is_name_char(pp->text[pp->pos]))
        pp->pos++;
    if (pp->pos == start) {
        pp_error(pp, "expected %s", what);
        return NULL;
    }
    return ptoc_arena_strndup(pp->pm->arena, pp->text + start, pp->pos - start);
}

static char *pp_option_value(pipe_parser *pp)
{
    pp_skip_space(pp);
    size_t start = pp->pos;
    if (pp->text[pp->pos] == '"') {
        const char *close = strchr(pp->text + start + 1, '"');
        if (!close) {
            pp_error(pp, "unterminated string in pass option");
            return NULL;
        }
        pp->pos = (size_t)(close - pp->text) + 1;
        return ptoc_arena_strndup(pp->pm->arena, pp->text + start + 1, pp->pos - start - 2);
    }
    while (pp->text[pp->pos] && !strchr(" \t\n}", pp->text[pp->pos]))
        pp->pos++;
    if (pp->pos == start) {
        pp_error(pp, "expected a value for the pass option");
        return NULL;
    }
    return ptoc_arena_strndup(pp->pm->arena, pp->text + start, pp->pos - start);
}

static bool pass_accepts_option(const ptoc_pass_def *def, const char *key)
{
    for (const char *const *o = def->option_names; o && *o; o++)
        if (strcmp(*o, key) == 0)
            return true;
    return false;
}

/* Options are few, so they are gathered in fixed arrays and then copied. */
#define PASS_MAX_OPTIONS 32

static bool pp_options(pipe_parser *pp, pm_node *n)
{
    const char *keys[PASS_MAX_OPTIONS], *values[PASS_MAX_OPTIONS];
    uint32_t count = 0;
    while (!pp_accept(pp, '}')) {
        if (!pp->text[pp->pos])
            return pp_error(pp, "expected '}'");
        size_t key_pos = pp->pos;
        char *key = pp_name(pp, "an option name or '}'");
        if (!key)
            return false;
        if (!pass_accepts_option(n->pass, key)) {
            pp->pos = key_pos;
            pp_skip_space(pp);
            return pp_error(pp, "pass '%s' has no option '%s'", n->pass->name, key);
        }
        const char *value = "true";   /* a bare key is a flag */
        if (pp_accept(pp, '=') && !(value = pp_option_value(pp)))
            return false;
        if (ptoc_pass_option(&(ptoc_pass_options){count, keys, values}, key))
            return pp_error(pp, "option '%s' given twice", key);
        if (count == PASS_MAX_OPTIONS)
            return pp_error(pp, "too many pass options");
        keys[count] = key;
        values[count] = value;
        count++;
    }
    n->opts.n = count;
    n->opts.keys = ptoc_arena_dup(pp->pm->arena, keys, count * sizeof keys[0]);
    n->opts.values = ptoc_arena_dup(pp->pm->arena, values, count * sizeof values[0]);
    return true;
}

static bool pp_list(pipe_parser *pp, pm_node ***tail, unsigned depth);

static pm_node *pp_nest(pipe_parser *pp, char *anchor, unsigned depth)
{
    if (depth >= PIPELINE_MAX_DEPTH) {
        pp_error(pp, "pass pipeline nested too deeply");
        return NULL;
    }
    pm_node *n = PTOC_NEW(pp->pm->arena, pm_node);
    n->anchor = anchor;
    pm_node **tail = &n->children;
    pp_skip_space(pp);
    if (pp->text[pp->pos] != ')' && !pp_list(pp, &tail, depth + 1))
        return NULL;
    if (!pp_accept(pp, ')')) {
        pp_error(pp, "expected ')'");
        return NULL;
    }
    return n;
}

/* A whole pipeline text appended at `tail`; an empty text appends nothing. */
static bool pp_text(pipe_parser *pp, pm_node ***tail, unsigned depth)
{
    pp_skip_space(pp);
    if (!pp->text[pp->pos])
        return true;
    if (!pp_list(pp, tail, depth))
        return false;
    pp_skip_space(pp);
    if (pp->text[pp->pos])
        return pp_error(pp, pp->text[pp->pos] == ')' ? "unbalanced ')'" : "expected ',' or end of pipeline");
    return true;
}

/* A named pipeline's text, parsed in place of its name: its passes join the
 * list being parsed, or a nest that runs them on the ops the pipeline applies
 * to. Errors name the registered text; recursion through the registry ends at
 * the depth limit. */
static bool pp_named_pipeline(pipe_parser *pp, const ptoc_pipeline_def *def, pm_node ***tail, unsigned depth)
{
    if (pp_accept(pp, '{'))
        return pp_error(pp, "pipeline '%s' takes no options", def->name);
    if (depth >= PIPELINE_MAX_DEPTH)
        return pp_error(pp, "pipeline '%s' nested too deeply (does it name itself?)", def->name);
    pipe_parser inner = {pp->pm, def->pipeline, 0};
    if (!def->anchor)
        return pp_text(&inner, tail, depth + 1);
    pm_node *nest = PTOC_NEW(pp->pm->arena, pm_node);
    nest->anchor = def->anchor;
    nest->applies = def->applies;
    pm_node **children = &nest->children;
    if (!pp_text(&inner, &children, depth + 1))
        return false;
    **tail = nest;
    *tail = &nest->next;
    return true;
}

/* Appends one element: a pass, a nest, or the passes of a named pipeline. */
static bool pp_element(pipe_parser *pp, pm_node ***tail, unsigned depth)
{
    size_t name_pos;
    pp_skip_space(pp);
    name_pos = pp->pos;
    char *name = pp_name(pp, "a pass name");
    if (!name)
        return false;
    pm_node *n = NULL;
    const ptoc_pass_def *def = NULL;
    const ptoc_pipeline_def *named = NULL;
    if (pp_accept(pp, '(')) {
        n = pp_nest(pp, name, depth);
    } else if ((def = ptoc_pass_lookup(pp->pm->ctx, name))) {
        n = node_new_pass(pp->pm, def);
        if (pp_accept(pp, '{') && !pp_options(pp, n))
            return false;
    } else if ((named = ptoc_pipeline_lookup(pp->pm->ctx, name))) {
        return pp_named_pipeline(pp, named, tail, depth);
    } else {
        pp->pos = name_pos;
        return pp_error(pp, "unknown pass '%s'", name);
    }
    if (!n)
        return false;
    **tail = n;
    *tail = &n->next;
    return true;
}

static bool pp_list(pipe_parser *pp, pm_node ***tail, unsigned depth)
{
    do {
        if (!pp_element(pp, tail, depth))
            return false;
    } while (pp_accept(pp, ','));
    return true;
}

bool ptoc_pm_parse(ptoc_pm *pm, const char *pipeline)
{
    pipe_parser pp = {pm, pipeline, 0};
    pm_node *first = NULL, **tail = &first;
    size_t npasses = pm->npasses;
    bool ok = pp_text(&pp, &tail, 0);       /* an empty pipeline does nothing */
    if (!ok) {
        pm->npasses = npasses;             /* nothing is added from a bad pipeline */
        return false;
    }
    *pm->tail = first;
    pm->tail = tail;
    return true;
}

/* ---------------------------------------------------------------- running */

static double now_seconds(void)
{
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct collect_state {
    ptoc_op *start;
    const char *name;
    ptoc_op_varr *out;
} collect_state;

static ptoc_walk_result collect_named(ptoc_op *op, void *user)
{
    collect_state *st = user;
    if (op != st->start && ptoc_op_is(op, st->name)) {
        ptoc_op_varr_push(st->out, op);
        return PTOC_WALK_SKIP;             /* nested ops of the same name belong to it */
    }
    return PTOC_WALK_ADVANCE;
}

/* The ops an element runs on, when run on `op`: `op` itself if `self` is true,
 * else every op named `name` below it (not below another such op). */
static void collect_targets(ptoc_op_varr *out, ptoc_op *op, const char *name, bool self)
{
    if (self) {
        ptoc_op_varr_push(out, op);
        return;
    }
    collect_state st = {op, name, out};
    ptoc_walk_pre(op, collect_named, &st);
}

static bool name_selected(const char *selector, const char *pass_name)
{
    return selector && (strcmp(selector, "all") == 0 || strcmp(selector, pass_name) == 0);
}

/* `// -----// IR Dump After NAME[ Failed] ('func.func' operation: @f) //----- //`
 * and the op, as MLIR prints it; the parenthesis names an op that is not the root. */
static void dump_ir(ptoc_pm *pm, const char *when, const char *pass_name, bool failed,
                    const ptoc_op *op, const ptoc_op *root)
{
    FILE *out = pm->config.dump_out ? pm->config.dump_out : stderr;
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, pm->ctx);
    ptoc_strbuf_printf(&sb, "// -----// IR Dump %s %s%s", when, pass_name, failed ? " Failed" : "");
    if (op != root) {
        ptoc_attr *sym = ptoc_op_attr(op, "sym_name");
        ptoc_strbuf_printf(&sb, " ('%s' operation", op->name->str);
        if (sym && sym->kind == PTOC_ATTR_STRING)
            ptoc_strbuf_printf(&sb, ": @%s", sym->u.string->str);
        ptoc_strbuf_puts(&sb, ")");
    }
    ptoc_strbuf_puts(&sb, " //----- //\n");
    ptoc_print_options popts = {pm->config.print_generic, false};
    ptoc_print_op(&sb, op, &popts);
    ptoc_strbuf_putc(&sb, '\n');
    fwrite(sb.data, 1, sb.len, out);
    fflush(out);
    ptoc_strbuf_free(&sb);
}

static void ignore_diagnostic(void *user, const ptoc_diagnostic *d)
{
    (void)user;
    (void)d;
}

/* Passes each diagnostic on to the handler it replaces, one late: the last one
 * is held back so that the pass manager can attach a note to it. */
typedef struct hold_last {
    ptoc_context *ctx;
    ptoc_diag_handler prev;
    void *prev_user;
    ptoc_diag *held;
} hold_last;

static void hold_diagnostic(void *user, const ptoc_diagnostic *d)
{
    hold_last *h = user;
    ptoc_diag_forward(h->held, h->prev, h->prev_user);
    h->held = ptoc_diag_copy(h->ctx, d);
}

/* Verifies `op`; when it fails, the verifier's last diagnostic gets a note
 * naming the pass after which the IR broke. */
static bool verify_after(ptoc_pm *pm, const char *pass_name, ptoc_op *op)
{
    double start = now_seconds();
    hold_last h = {pm->ctx, NULL, NULL, NULL};
    h.prev = ptoc_context_set_diag_handler(pm->ctx, hold_diagnostic, &h, &h.prev_user);
    bool ok = ptoc_verify(op);
    ptoc_context_set_diag_handler(pm->ctx, h.prev, h.prev_user, NULL);
    pm->verify_seconds += now_seconds() - start;
    if (!ok && h.held)
        ptoc_diag_note(h.held, op->loc, "the IR does not verify after pass '%s'", pass_name);
    else if (!ok)                  /* a failure with no diagnostic: the note alone */
        ptoc_emit(pm->ctx, PTOC_SEV_NOTE, op->loc, "the IR does not verify after pass '%s'", pass_name);
    ptoc_diag_forward(h.held, h.prev, h.prev_user);
    return ok;
}

/* Whether `op` verifies, without a diagnostic or an error counted: a failed
 * pass's IR may be broken, and custom printers may rely on valid IR. */
static bool verifies_quietly(ptoc_context *ctx, ptoc_op *op)
{
    void *prev_user = NULL;
    ptoc_diag_handler prev = ptoc_context_set_diag_handler(ctx, ignore_diagnostic, NULL, &prev_user);
    size_t errors = ctx->error_count;
    bool ok = ptoc_verify(op);
    ctx->error_count = errors;
    ptoc_context_set_diag_handler(ctx, prev, prev_user, NULL);
    return ok;
}

/* --mlir-print-ir-after-failure: the IR as the failed pass left it, in the
 * generic form when it does not verify (as MLIR falls back to it). */
static void dump_after_failure(ptoc_pm *pm, const char *name, ptoc_op *op, ptoc_op *root)
{
    bool generic = pm->config.print_generic;
    if (!generic && !verifies_quietly(pm->ctx, op))
        pm->config.print_generic = true;
    dump_ir(pm, "After", name, true, op, root);
    pm->config.print_generic = generic;
}

static bool run_pass(ptoc_pm *pm, pm_node *n, ptoc_op *op, ptoc_op *root, ptoc_arena *arena)
{
    const char *name = n->pass->name;
    if (name_selected(pm->config.print_before, name))
        dump_ir(pm, "Before", name, false, op, root);
    double start = now_seconds();
    bool ok = n->pass->run(op, arena, &n->opts);
    n->seconds += now_seconds() - start;
    n->runs++;
    bool dumped = name_selected(pm->config.print_after, name);
    if (dumped)
        dump_ir(pm, "After", name, !ok, op, root);
    if (ok && pm->config.verify_each)
        ok = verify_after(pm, name, op);
    if (!ok && pm->config.print_after_failure && !dumped)
        dump_after_failure(pm, name, op, root);
    return ok;
}

static bool run_list(ptoc_pm *pm, pm_node *list, ptoc_op *op, ptoc_op *root, ptoc_arena *arena);

static bool run_node(ptoc_pm *pm, pm_node *n, ptoc_op *op, ptoc_op *root, ptoc_arena *arena)
{
    ptoc_op_varr targets;
    ptoc_op_varr_init(&targets, pm->ctx);
    if (n->pass) {
        const char *anchor = n->pass->anchor;
        collect_targets(&targets, op, anchor, !anchor || ptoc_op_is(op, anchor));
    } else {
        collect_targets(&targets, op, n->anchor, op == root && ptoc_op_is(op, n->anchor));
    }
    bool ok = true;
    for (uint32_t i = 0; ok && i < targets.len; i++)
        if (n->pass)
            ok = run_pass(pm, n, targets.data[i], root, arena);
        else if (!n->applies || n->applies(targets.data[i]))
            ok = run_list(pm, n->children, targets.data[i], root, arena);
    ptoc_op_varr_free(&targets);
    return ok;
}

static bool run_list(ptoc_pm *pm, pm_node *list, ptoc_op *op, ptoc_op *root, ptoc_arena *arena)
{
    for (pm_node *n = list; n; n = n->next)
        if (!run_node(pm, n, op, root, arena))
            return false;
    return true;
}

bool ptoc_pm_run(ptoc_pm *pm, ptoc_op *root, ptoc_arena *arena)
{
    double start = now_seconds();
    bool ok = run_list(pm, pm->first, root, root, arena);
    pm->total_seconds += now_seconds() - start;
    pm->ran = true;
    return ok;
}

/* ---------------------------------------------------------------- timing report */

static double node_seconds(const pm_node *n)
{
    if (n->pass)
        return n->seconds;
    double sum = 0;
    for (const pm_node *c = n->children; c; c = c->next)
        sum += node_seconds(c);
    return sum;
}

static void report_row(FILE *out, double seconds, double total, unsigned indent, const char *name,
                       const char *suffix)
{
    double percent = total > 0 ? 100.0 * seconds / total : 0.0;
    fprintf(out, "  %8.4f (%5.1f%%)  %*s%s%s\n", seconds, percent, (int)(2 * indent), "", name, suffix);
}

static void report_list(FILE *out, const pm_node *list, double total, unsigned indent)
{
    for (const pm_node *n = list; n; n = n->next) {
        if (n->pass) {
            report_row(out, n->seconds, total, indent, n->pass->name, "");
        } else {
            char label[160];
            snprintf(label, sizeof label, "'%s'", n->anchor);
            report_row(out, node_seconds(n), total, indent, label, " Pipeline");
            report_list(out, n->children, total, indent + 1);
        }
    }
}

static void report_timing(const ptoc_pm *pm, FILE *out)
{
    static const char rule[] =
        "===-------------------------------------------------------------------------===\n";
    double total = pm->total_seconds;
    fputs(rule, out);
    fputs("                      ... Pass execution timing report ...\n", out);
    fputs(rule, out);
    fprintf(out, "  Total Execution Time: %.4f seconds\n\n", total);
    fputs("  ----Wall Time----  ----Name----\n", out);
    report_list(out, pm->first, total, 0);
    if (pm->config.verify_each)
        report_row(out, pm->verify_seconds, total, 0, "verifier", "");
    report_row(out, total, total, 0, "Total", "");
    fflush(out);
}

void ptoc_pm_destroy(ptoc_pm *pm)
{
    if (!pm)
        return;
    if (pm->config.timing_out && pm->ran)
        report_timing(pm, pm->config.timing_out);
    ptoc_arena_destroy(pm->arena);
}
