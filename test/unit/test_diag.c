/* test_diag.c: the default diagnostic format (location, severity, source line,
 * caret aligned through tabs), op prefixes, the error count, and the
 * --verify-diagnostics matcher (same line, @+N/@-N/@above/@below, substrings,
 * each expectation matched once, unexpected and unmet reports). */
#include "check.h"
#include "unit_dialect.h"

#include <string.h>

/* Runs `fn` printing into a temporary file and returns what it printed. */
static const char *capture(void (*fn)(FILE *, void *), void *arg)
{
    static char out[4096];
    FILE *f = tmpfile();
    size_t n;
    fn(f, arg);
    rewind(f);
    n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    return out;
}

typedef struct print_job {
    ptoc_context *ctx;
    ptoc_diagnostic d;
} print_job;

static void print_one(FILE *f, void *arg)
{
    print_job *job = arg;
    ptoc_diag_print(job->ctx, f, &job->d);
}

static void test_print(ptoc_context *ctx)
{
    static const char src[] = "line one\n\t%x = foo\r\nlast";
    ptoc_ident *file = ptoc_ident_cstr(ctx, "a.pto");
    print_job job = {ctx, {PTOC_SEV_ERROR, {NULL, 0, 0}, "boom"}};
    const char *text;
    size_t len;
    ptoc_source_add(ctx, file, src, sizeof src - 1);
    CHECK(strcmp(capture(print_one, &job), "error: boom\n") == 0);
    job.d.loc.file = file;
    job.d.loc.line = 2;
    job.d.loc.col = 7;
    CHECK(strcmp(capture(print_one, &job), "a.pto:2:7: error: boom\n  \t%x = foo\n  \t     ^\n") == 0);
    job.d.severity = PTOC_SEV_NOTE;
    job.d.loc.line = 3;
    job.d.loc.col = 1;
    CHECK(strcmp(capture(print_one, &job), "a.pto:3:1: note: boom\n  last\n  ^\n") == 0);
    job.d.severity = PTOC_SEV_WARNING;
    job.d.loc.line = 9;             /* past the end: no quote */
    CHECK(strcmp(capture(print_one, &job), "a.pto:9:1: warning: boom\n") == 0);
    CHECK(ptoc_source_line(ctx, file, 1, &text, &len) && len == 8 && memcmp(text, "line one", 8) == 0);
    CHECK(!ptoc_source_line(ctx, file, 4, &text, &len));
    CHECK(!ptoc_source_line(ctx, ptoc_ident_cstr(ctx, "b.pto"), 1, &text, &len));
}

typedef struct seen {
    int n;
    ptoc_severity sev[4];
    char msg[4][128];
} seen;

static void remember(void *user, const ptoc_diagnostic *d)
{
    seen *s = user;
    if (s->n < 4) {
        s->sev[s->n] = d->severity;
        snprintf(s->msg[s->n], sizeof s->msg[0], "%s", d->message);
    }
    s->n++;
}

static void test_op_diagnostics(ptoc_context *ctx)
{
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_builder b;
    seen s = {0};
    void *prev_user;
    ptoc_diag_handler prev;
    ptoc_op *op;
    size_t errors = ptoc_context_error_count(ctx);
    ptoc_builder_init(&b, ctx, arena);
    op = ptoc_builder_create(&b, "t.add", 0, NULL, 0, NULL, 0, NULL, 0);
    prev = ptoc_context_set_diag_handler(ctx, remember, &s, &prev_user);
    ptoc_op_emit_error(op, "needs %d operands", 2);
    ptoc_op_emit_note(op, "see %s", "this");
    ptoc_op_emit_warning(op, "odd");
    ptoc_emit(ctx, PTOC_SEV_REMARK, ptoc_loc_unknown(), "fyi");
    CHECK(s.n == 4);
    CHECK(s.sev[0] == PTOC_SEV_ERROR && strcmp(s.msg[0], "'t.add' op needs 2 operands") == 0);
    CHECK(s.sev[1] == PTOC_SEV_NOTE && strcmp(s.msg[1], "see this") == 0);
    CHECK(s.sev[2] == PTOC_SEV_WARNING && strcmp(s.msg[2], "'t.add' op odd") == 0);
    CHECK(s.sev[3] == PTOC_SEV_REMARK && strcmp(s.msg[3], "fyi") == 0);
    CHECK(ptoc_context_error_count(ctx) == errors + 1);
    CHECK(ptoc_context_set_diag_handler(ctx, prev, prev_user, NULL) == remember);
    ptoc_arena_destroy(arena);
}

typedef struct verify_job {
    ptoc_context *ctx;
    ptoc_diag_verifier *v;
    bool ok;
} verify_job;

static void finish(FILE *f, void *arg)
{
    verify_job *job = arg;
    job->ok = ptoc_diag_verifier_finish(job->v, f);
}

static ptoc_loc at(ptoc_ident *file, uint32_t line, uint32_t col)
{
    ptoc_loc l;
    l.file = file;
    l.line = line;
    l.col = col;
    return l;
}

static void test_verifier(ptoc_context *ctx)
{
    static const char src[] =
        "%a = op  // expected-error {{bad thing}}\n"       /* 1 */
        "// expected-error @+1 {{next line}}\n"           /* 2: MLIR allows the space */
        "%b = op\n"                                       /* 3 */
        "%c = op\n"                                       /* 4 */
        "// expected-warning@-1 {{warned}} expected-note@above {{a note}}\n" /* 5 */
        "// expected-remark@below {{twice}}\n"            /* 6 */
        "%d = op // expected-remark@+0 {{twice}}\n"        /* 7 */
        "// expected-error {{never}}\n"                   /* 8 */
        "// the expected-value is not a directive\n";     /* 9 */
    ptoc_ident *file = ptoc_ident_cstr(ctx, "v.pto");
    verify_job job = {ctx, NULL, false};
    void *prev_user;
    ptoc_diag_handler prev;
    const char *out;
    ptoc_source_add(ctx, file, src, sizeof src - 1);
    job.v = ptoc_diag_verifier_create(ctx, file, src, sizeof src - 1);
    prev = ptoc_context_set_diag_handler(ctx, ptoc_diag_verifier_handle, job.v, &prev_user);
    ptoc_emit_error(ctx, at(file, 1, 1), "a bad thing happened");
    ptoc_emit_error(ctx, at(file, 3, 1), "on the next line");
    ptoc_emit(ctx, PTOC_SEV_WARNING, at(file, 4, 1), "warned");
    ptoc_emit_note(ctx, at(file, 4, 1), "a note");
    ptoc_emit(ctx, PTOC_SEV_REMARK, at(file, 7, 1), "twice");
    ptoc_emit(ctx, PTOC_SEV_REMARK, at(file, 7, 1), "twice");
    ptoc_emit_error(ctx, at(file, 4, 1), "on the wrong line: next line");
    ptoc_emit_error(ctx, ptoc_loc_unknown(), "nowhere");
    ptoc_context_set_diag_handler(ctx, prev, prev_user, NULL);
    out = capture(finish, &job);
    CHECK(!job.ok);
    CHECK(strstr(out, "v.pto:4:1: error: unexpected error: on the wrong line: next line\n  %c = op\n  ^\n") != NULL);
    CHECK(strstr(out, "\nerror: unexpected error: nowhere\n") != NULL);
    CHECK(strstr(out, "nowhere") < strstr(out, "never"));   /* unexpected ones first */
    CHECK(strstr(out, "v.pto:8:4: error: expected error \"never\" was not produced\n") != NULL);
    CHECK(strstr(out, "bad thing") == NULL && strstr(out, "twice") == NULL && strstr(out, "a note") == NULL);
    ptoc_diag_verifier_destroy(job.v);

    /* All met: finish prints nothing and succeeds. */
    job.v = ptoc_diag_verifier_create(ctx, file, src, strcspn(src, "\n"));
    ptoc_diag_verifier_handle(job.v, &(ptoc_diagnostic){PTOC_SEV_ERROR, at(file, 1, 3), "bad thing"});
    out = capture(finish, &job);
    CHECK(job.ok && out[0] == '\0');
    ptoc_diag_verifier_destroy(job.v);

    /* A malformed directive is an error of its own. */
    job.v = ptoc_diag_verifier_create(ctx, file, "// expected-error@+x {{a}}\n", 27);
    out = capture(finish, &job);
    CHECK(!job.ok && strstr(out, "malformed") != NULL);
    ptoc_diag_verifier_destroy(job.v);
}

int main(void)
{
    ptoc_context *ctx = unit_context(NULL);
    test_print(ctx);
    test_op_diagnostics(ctx);
    test_verifier(ctx);
    ptoc_context_destroy(ctx);
    return CHECK_DONE();
}
