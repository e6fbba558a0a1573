/* test_pass.c: the pass registry and pass manager (ir/pass.c) on the unit
 * dialect: registration and lookup, pipeline parsing (short and nested forms,
 * options, each error), anchors, failure propagation, named pipelines, the
 * note naming the pass after which the IR fails to verify, and the dce pass. */
#include "check.h"
#include "unit_dialect.h"

#include "ptoc/pass.h"
#include "ptoc/ptoc.h"

#include <string.h>

/* ---------------------------------------------------------------- fixtures */

static char last_error[512];

static void capture(void *user, const ptoc_diagnostic *d)
{
    (void)user;
    if (d->severity == PTOC_SEV_ERROR)
        snprintf(last_error, sizeof last_error, "%s", d->message);
}

static unsigned count_runs;
static char seen_option[64];     /* a copy: options die with their pass manager */

static bool run_count(ptoc_op *op, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)op;
    (void)arena;
    count_runs++;
    const char *n = ptoc_pass_option(opts, "n");
    snprintf(seen_option, sizeof seen_option, "%s", n ? n : "");
    return true;
}

static bool run_fail(ptoc_op *op, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)arena;
    (void)opts;
    ptoc_op_emit_error(op, "failing on purpose");
    return false;
}

/* Leaves IR that does not verify: a t.bad at the end of the root's first block. */
static bool run_break(ptoc_op *op, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)opts;
    ptoc_builder b;
    ptoc_builder_init(&b, ptoc_op_context(op), arena);
    ptoc_builder_set_end(&b, op->regions[0].first);
    ptoc_builder_create(&b, "t.bad", 0, NULL, 0, NULL, 0, NULL, 0);
    return true;
}

static const char *const count_options[] = {"n", NULL};
static const ptoc_pass_def count_pass = {"count", "counts runs", NULL, run_count, count_options};
static const ptoc_pass_def count_func_pass = {"count-func", "counts runs on t.func", "t.func", run_count, NULL};
static const ptoc_pass_def fail_pass = {"fail", "always fails", NULL, run_fail, NULL};
static const ptoc_pass_def break_pass = {"break", "breaks the IR", NULL, run_break, NULL};

static ptoc_context *pass_context(void)
{
    ptoc_context *ctx = unit_context(NULL);
    ptoc_register_all_passes(ctx);
    ptoc_pass_register(ctx, &count_pass);
    ptoc_pass_register(ctx, &count_func_pass);
    ptoc_pass_register(ctx, &fail_pass);
    ptoc_pass_register(ctx, &break_pass);
    ptoc_context_set_diag_handler(ctx, capture, NULL, NULL);
    return ctx;
}

/* t.module { t.func { %c = t.const; %d = t.const; %a = t.add %c, %c;
 *                     %b = t.add %a, %a; t.store %d; t.ret } } x nfuncs */
static ptoc_op *build_module(ptoc_context *ctx, ptoc_arena *arena, unsigned nfuncs)
{
    ptoc_builder b;
    ptoc_builder_init(&b, ctx, arena);
    ptoc_type *i32 = ptoc_type_int(ctx, 32, PTOC_SIGNLESS);
    ptoc_op *module = ptoc_builder_create(&b, "t.module", 0, NULL, 0, NULL, 0, NULL, 1);
    ptoc_block *body = ptoc_block_create(arena);
    ptoc_region_append(&module->regions[0], body);
    for (unsigned f = 0; f < nfuncs; f++) {
        ptoc_builder_set_end(&b, body);
        ptoc_op *func = ptoc_builder_create(&b, "t.func", 0, NULL, 0, NULL, 0, NULL, 1);
        ptoc_block *entry = ptoc_block_create(arena);
        ptoc_region_append(&func->regions[0], entry);
        ptoc_builder_set_end(&b, entry);
        ptoc_value *c = ptoc_op_result(ptoc_builder_create(&b, "t.const", 0, NULL, 1, &i32, 0, NULL, 0), 0);
        ptoc_value *d = ptoc_op_result(ptoc_builder_create(&b, "t.const", 0, NULL, 1, &i32, 0, NULL, 0), 0);
        ptoc_value *cc[2] = {c, c};
        ptoc_value *a = ptoc_op_result(ptoc_builder_create(&b, "t.add", 2, cc, 1, &i32, 0, NULL, 0), 0);
        ptoc_value *aa[2] = {a, a};
        ptoc_builder_create(&b, "t.add", 2, aa, 1, &i32, 0, NULL, 0);
        ptoc_builder_create(&b, "t.store", 1, &d, 0, NULL, 0, NULL, 0);
        ptoc_builder_create(&b, "t.ret", 0, NULL, 0, NULL, 0, NULL, 0);
    }
    return module;
}

static ptoc_walk_result count_op(ptoc_op *op, void *user)
{
    (void)op;
    ++*(unsigned *)user;
    return PTOC_WALK_ADVANCE;
}

static unsigned op_count(ptoc_op *root)
{
    unsigned n = 0;
    ptoc_walk_pre(root, count_op, &n);
    return n;
}

static bool parse_fails_with(ptoc_context *ctx, const char *pipeline, const char *message)
{
    ptoc_pm *pm = ptoc_pm_create(ctx, NULL);
    last_error[0] = '\0';
    bool ok = ptoc_pm_parse(pm, pipeline);
    bool size_unchanged = ptoc_pm_size(pm) == 0;
    ptoc_pm_destroy(pm);
    if (!ok && !strstr(last_error, message))
        fprintf(stderr, "pipeline '%s': got error '%s', wanted '%s'\n", pipeline, last_error, message);
    return !ok && size_unchanged && strstr(last_error, message);
}

/* ---------------------------------------------------------------- tests */

static void test_registry(void)
{
    ptoc_context *ctx = pass_context();
    CHECK(ptoc_pass_lookup(ctx, "dce") != NULL);
    CHECK(ptoc_pass_lookup(ctx, "strip-debuginfo") != NULL);
    CHECK(ptoc_pass_lookup(ctx, "count") == &count_pass);
    CHECK(ptoc_pass_lookup(ctx, "nope") == NULL);
    const ptoc_pass_def *const *defs;
    ptoc_context *other = unit_context(NULL);       /* registries are per context */
    CHECK(ptoc_pass_lookup(other, "dce") == NULL);
    CHECK(ptoc_pass_list(other, &defs) == 0);
    ptoc_register_all_passes(other);                /* the shipped passes, in order */
    size_t shipped = ptoc_pass_list(other, &defs);
    CHECK(shipped >= 2 && strcmp(defs[0]->name, "dce") == 0);
    size_t n = ptoc_pass_list(ctx, &defs);          /* shipped + the four test passes */
    CHECK(n == shipped + 4 && defs[n - 1] == &break_pass);
    ptoc_pass_register(ctx, &count_pass);           /* again: no duplicate */
    CHECK(ptoc_pass_list(ctx, &defs) == shipped + 4);
    ptoc_context_destroy(other);
    ptoc_context_destroy(ctx);
}

static void test_parse_errors(void)
{
    ptoc_context *ctx = pass_context();
    CHECK(parse_fails_with(ctx, "dce,nope", "unknown pass 'nope' at column 5"));
    CHECK(parse_fails_with(ctx, "t.module(count", "expected ')' at column 15"));
    CHECK(parse_fails_with(ctx, "count)", "unbalanced ')'"));
    CHECK(parse_fails_with(ctx, "count,", "expected a pass name"));
    CHECK(parse_fails_with(ctx, "count{m=1}", "pass 'count' has no option 'm'"));
    CHECK(parse_fails_with(ctx, "dce{n=1}", "pass 'dce' has no option 'n'"));
    CHECK(parse_fails_with(ctx, "count{n=1 n=2}", "option 'n' given twice"));
    CHECK(parse_fails_with(ctx, "count{n=1", "expected '}'"));
    CHECK(parse_fails_with(ctx, "count{n=\"1}", "unterminated string"));
    CHECK(parse_fails_with(ctx, "count{n=}", "expected a value"));
    CHECK(parse_fails_with(ctx, "a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(a(",
                           "nested too deeply"));
    ptoc_pm *pm = ptoc_pm_create(ctx, NULL);
    CHECK(ptoc_pm_parse(pm, ""));
    CHECK(ptoc_pm_parse(pm, "  "));
    CHECK(ptoc_pm_parse(pm, "t.module()"));
    CHECK(ptoc_pm_size(pm) == 0);
    CHECK(ptoc_pm_parse(pm, " t.module( t.func( count , dce ) , count{n=3} ) "));
    CHECK(ptoc_pm_size(pm) == 3);
    CHECK(ptoc_pm_add(pm, "dce"));
    CHECK(!ptoc_pm_add(pm, "nope"));
    CHECK(ptoc_pm_size(pm) == 4);
    ptoc_pm_destroy(pm);
    ptoc_context_destroy(ctx);
}

static unsigned runs_of(ptoc_context *ctx, const char *pipeline, unsigned nfuncs)
{
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = build_module(ctx, arena, nfuncs);
    ptoc_pm_config config = {.verify_each = true};
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    count_runs = 0;
    bool ok = ptoc_pm_parse(pm, pipeline) && ptoc_pm_run(pm, module, arena);
    ptoc_pm_destroy(pm);
    ptoc_arena_destroy(arena);
    return ok ? count_runs : 1000;
}

static void test_anchors(void)
{
    ptoc_context *ctx = pass_context();
    CHECK(runs_of(ctx, "count", 3) == 1);                 /* no anchor: the root */
    CHECK(runs_of(ctx, "count-func", 3) == 3);            /* its anchor: each t.func */
    CHECK(runs_of(ctx, "t.func(count)", 3) == 3);         /* a nest: each t.func */
    CHECK(runs_of(ctx, "t.module(count)", 3) == 1);       /* the root's own name */
    CHECK(runs_of(ctx, "t.module(t.func(count,count))", 2) == 4);
    CHECK(runs_of(ctx, "t.func(count-func)", 2) == 2);
    CHECK(runs_of(ctx, "t.ret(count)", 2) == 2);
    CHECK(runs_of(ctx, "count{n=7}", 1) == 1 && strcmp(seen_option, "7") == 0);
    CHECK(runs_of(ctx, "count{n=\"a b\"}", 1) == 1 && strcmp(seen_option, "a b") == 0);
    CHECK(runs_of(ctx, "count{n}", 1) == 1 && strcmp(seen_option, "true") == 0);
    CHECK(runs_of(ctx, "count,fail,count", 1) == 1000);   /* failure stops the pipeline */
    CHECK(strstr(last_error, "failing on purpose") != NULL);
    ptoc_context_destroy(ctx);
}

/* Named pipelines: expansion in place, inside nests and other pipelines, a
 * filtered nest, the empty pipeline, passes winning over pipelines, and errors. */
static bool is_first_func(ptoc_op *op)
{
    return op->prev == NULL;
}

static const ptoc_pipeline_def twice = {"twice", "count twice", "count,count", NULL, NULL};
static const ptoc_pipeline_def four = {"four", "twice twice", "twice, twice", NULL, NULL};
static const ptoc_pipeline_def empty = {"empty", "nothing", " ", NULL, NULL};
static const ptoc_pipeline_def first_only = {"first-only", "count on the first t.func", "count", "t.func",
                                             is_first_func};
static const ptoc_pipeline_def self = {"self", "names itself", "count,self", NULL, NULL};
static const ptoc_pipeline_def broken = {"broken", "bad text", "count)", NULL, NULL};
static const ptoc_pipeline_def shadowed = {"dce", "a pass has this name", "count", NULL, NULL};

static void test_named_pipelines(void)
{
    ptoc_context *ctx = pass_context();
    const ptoc_pipeline_def *rows[] = {&twice, &four, &empty, &first_only, &self, &broken, &shadowed};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        ptoc_pipeline_register(ctx, rows[i]);
    const ptoc_pipeline_def *const *list;
    size_t n = ptoc_pipeline_list(ctx, &list);
    CHECK(n >= 7 && list[n - 1] == &shadowed && ptoc_pipeline_lookup(ctx, "twice") == &twice);
    ptoc_pipeline_register(ctx, &twice);                     /* again: no duplicate */
    CHECK(ptoc_pipeline_list(ctx, &list) == n);
    CHECK(ptoc_pipeline_lookup(ctx, "ptoc-level2") != NULL); /* shipped with the passes */
    CHECK(runs_of(ctx, "twice", 3) == 2);
    CHECK(runs_of(ctx, "count,four", 1) == 5);
    CHECK(runs_of(ctx, "t.func(twice)", 3) == 6);
    CHECK(runs_of(ctx, "empty,count", 1) == 1);
    CHECK(runs_of(ctx, "first-only", 3) == 1);
    CHECK(runs_of(ctx, "dce", 1) == 0);                      /* the pass, not the pipeline */
    CHECK(parse_fails_with(ctx, "twice{n=1}", "pipeline 'twice' takes no options"));
    CHECK(parse_fails_with(ctx, "self", "pipeline 'self' nested too deeply (does it name itself?)"));
    CHECK(parse_fails_with(ctx, "broken", "unbalanced ')' at column 6 of pass pipeline 'count)'"));
    ptoc_context_destroy(ctx);
}

/* What print_after_failure dumps when `pipeline` runs on one function, read
 * back from a temporary file (empty when nothing). */
static void failure_dump(ptoc_context *ctx, const char *pipeline, char *out, size_t size)
{
    FILE *dump = tmpfile();
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = build_module(ctx, arena, 1);
    ptoc_pm_config config = {.verify_each = true, .print_after_failure = true, .dump_out = dump};
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    CHECK(ptoc_pm_parse(pm, pipeline));
    ptoc_pm_run(pm, module, arena);
    ptoc_pm_destroy(pm);
    ptoc_arena_destroy(arena);
    rewind(dump);
    size_t n = fread(out, 1, size - 1, dump);
    out[n] = '\0';
    fclose(dump);
}

static void test_print_after_failure(void)
{
    ptoc_context *ctx = pass_context();
    char out[4096];
    failure_dump(ctx, "count,fail", out, sizeof out);
    CHECK(strstr(out, "// -----// IR Dump After fail Failed //----- //\n") == out);
    CHECK(!strstr(out, "After count"));
    failure_dump(ctx, "count,break,count", out, sizeof out);      /* the verifier fails */
    CHECK(strstr(out, "IR Dump After break Failed") == out + 11);
    CHECK(strstr(out, "\"t.bad\"()") != NULL);
    failure_dump(ctx, "count,count", out, sizeof out);            /* success: no dump */
    CHECK(out[0] == '\0');
    ptoc_context_destroy(ctx);
}

/* One handler call: its message and its notes' messages. */
typedef struct reported {
    int calls;
    char message[128];
    size_t nnotes;
    char last_note[128];
} reported;

static void report_notes(void *user, const ptoc_diagnostic *d)
{
    reported *r = user;
    r->calls++;
    snprintf(r->message, sizeof r->message, "%s", d->message);
    r->nnotes = d->nnotes;
    if (d->nnotes)
        snprintf(r->last_note, sizeof r->last_note, "%s", d->notes[d->nnotes - 1].message);
}

/* With verify_each, IR a pass broke is one error from the verifier, and the
 * note naming the pass is attached to it (not a diagnostic of its own). */
static void test_verify_after_note(void)
{
    ptoc_context *ctx = pass_context();
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = build_module(ctx, arena, 1);
    reported r = {0};
    ptoc_context_set_diag_handler(ctx, report_notes, &r, NULL);
    size_t errors = ptoc_context_error_count(ctx);
    ptoc_pm_config config = {.verify_each = true};
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    CHECK(ptoc_pm_parse(pm, "count,break,count"));
    CHECK(!ptoc_pm_run(pm, module, arena));
    CHECK(r.calls == 1 && strcmp(r.message, "'t.bad' op is always bad") == 0);
    CHECK(r.nnotes == 1 && strcmp(r.last_note, "the IR does not verify after pass 'break'") == 0);
    CHECK(ptoc_context_error_count(ctx) == errors + 1);
    ptoc_pm_destroy(pm);
    ptoc_context_destroy(ctx);
}

static void test_dce(void)
{
    ptoc_context *ctx = pass_context();
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = build_module(ctx, arena, 2);
    CHECK(op_count(module) == 1 + 2 * 7);
    ptoc_pm_config config = {.verify_each = true};
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    CHECK(ptoc_pm_parse(pm, "dce"));
    CHECK(ptoc_pm_run(pm, module, arena));
    /* Each function keeps t.func, the stored const, t.store and t.ret. */
    CHECK(op_count(module) == 1 + 2 * 4);
    CHECK(ptoc_pm_run(pm, module, arena));              /* idempotent */
    CHECK(op_count(module) == 1 + 2 * 4);
    ptoc_pm_destroy(pm);
    ptoc_arena_destroy(arena);
    ptoc_context_destroy(ctx);
}

int main(void)
{
    test_registry();
    test_parse_errors();
    test_anchors();
    test_named_pipelines();
    test_print_after_failure();
    test_verify_after_note();
    test_dce();
    return CHECK_DONE();
}
