/* test_diag.c: the default diagnostic format (location, severity, source line,
 * caret aligned through tabs, notes after their error), op prefixes, the error
 * count, notes reaching a handler attached to their error, and the
 * --verify-diagnostics matcher (same line, @+N/@-N/@above/@below, substrings,
 * each expectation matched once, notes matched like the rest, unexpected and
 * unmet reports). */
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
    ptoc_emit(ctx, PTOC_SEV_NOTE, op->loc, "see %s", "this");      /* a note on its own */
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
    ptoc_diag *warned = ptoc_diag_begin(ctx, PTOC_SEV_WARNING, at(file, 4, 1), "warned");
    ptoc_diag_note(warned, at(file, 4, 1), "a note");
    ptoc_diag_report(warned);
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

/* What a handler saw: each call's diagnostic and the notes it carried. */
typedef struct with_notes {
    int calls;
    ptoc_severity sev;
    char msg[128];
    size_t nnotes;
    ptoc_severity note_sev[4];
    uint32_t note_line[4];
    char note_msg[4][128];
} with_notes;

static void remember_with_notes(void *user, const ptoc_diagnostic *d)
{
    with_notes *w = user;
    w->calls++;
    w->sev = d->severity;
    snprintf(w->msg, sizeof w->msg, "%s", d->message);
    w->nnotes = d->nnotes;
    for (size_t i = 0; i < d->nnotes && i < 4; i++) {
        w->note_sev[i] = d->notes[i].severity;
        w->note_line[i] = d->notes[i].loc.line;
        snprintf(w->note_msg[i], sizeof w->note_msg[0], "%s", d->notes[i].message);
    }
}

typedef struct report_job {
    ptoc_context *ctx;
    ptoc_diag *d;
    FILE *out;
} report_job;

/* Prints like the default handler, into the job's file. */
static void print_to(void *user, const ptoc_diagnostic *d)
{
    report_job *job = user;
    ptoc_diag_print(job->ctx, job->out, d);
}

static void report_one(FILE *f, void *arg)
{
    report_job *job = arg;
    void *prev_user;
    ptoc_diag_handler prev = ptoc_context_set_diag_handler(job->ctx, print_to, job, &prev_user);
    job->out = f;
    ptoc_diag_report(job->d);
    ptoc_context_set_diag_handler(job->ctx, prev, prev_user, NULL);
}

/* An error with notes reaches the handler in one call, the notes attached in
 * the order given, at their own locations; it counts as one error; printed, the
 * notes follow the error as separate `note:` lines; with no notes attached the
 * diagnostic carries none. */
static void test_attached_notes(ptoc_context *ctx)
{
    static const char src[] = "%a = op\n%b = op\n%c = op\n";
    ptoc_ident *file = ptoc_ident_cstr(ctx, "n.pto");
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_builder b;
    with_notes w = {0};
    void *prev_user;
    size_t errors = ptoc_context_error_count(ctx);
    ptoc_source_add(ctx, file, src, sizeof src - 1);
    ptoc_builder_init(&b, ctx, arena);
    ptoc_op *op = ptoc_builder_create(&b, "t.add", 0, NULL, 0, NULL, 0, NULL, 0);
    op->loc = at(file, 2, 1);
    ptoc_diag_handler prev = ptoc_context_set_diag_handler(ctx, remember_with_notes, &w, &prev_user);

    ptoc_diag *d = ptoc_diag_begin(ctx, PTOC_SEV_ERROR, at(file, 3, 1), "bad %s", "use");
    ptoc_diag_note(d, at(file, 1, 1), "defined %s", "here");
    ptoc_diag_op_note(d, op, "used by %d op", 1);
    CHECK(w.calls == 0);                               /* nothing reported before ptoc_diag_report */
    ptoc_diag_report(d);
    CHECK(w.calls == 1 && w.sev == PTOC_SEV_ERROR && strcmp(w.msg, "bad use") == 0);
    CHECK(w.nnotes == 2);
    CHECK(w.note_sev[0] == PTOC_SEV_NOTE && w.note_line[0] == 1 && strcmp(w.note_msg[0], "defined here") == 0);
    CHECK(w.note_sev[1] == PTOC_SEV_NOTE && w.note_line[1] == 2 && strcmp(w.note_msg[1], "used by 1 op") == 0);
    CHECK(ptoc_context_error_count(ctx) == errors + 1);

    /* Many notes (more than fit the handler call's local array). */
    d = ptoc_op_diag_error(op, "crowded");
    for (int i = 0; i < 20; i++)
        ptoc_diag_note(d, at(file, 1 + i % 3, 1), "note %d", i);
    ptoc_diag_report(d);
    CHECK(w.calls == 2 && strcmp(w.msg, "'t.add' op crowded") == 0 && w.nnotes == 20);
    CHECK(strcmp(w.note_msg[3], "note 3") == 0 && w.note_line[3] == 1);

    ptoc_op_emit_error(op, "alone");
    CHECK(w.calls == 3 && w.nnotes == 0);

    /* A copy keeps the notes, takes more, and is forwarded without counting again. */
    ptoc_diag *c = ptoc_diag_copy(ctx, &(ptoc_diagnostic){PTOC_SEV_ERROR, at(file, 3, 1), "copied",
                                                          &(ptoc_diagnostic){PTOC_SEV_NOTE, at(file, 1, 1), "first",
                                                                             NULL, 0}, 1});
    ptoc_diag_note(c, at(file, 2, 1), "second");
    ptoc_diag_forward(c, remember_with_notes, &w);
    CHECK(w.calls == 4 && strcmp(w.msg, "copied") == 0 && w.nnotes == 2);
    CHECK(strcmp(w.note_msg[0], "first") == 0 && strcmp(w.note_msg[1], "second") == 0);
    CHECK(ptoc_context_error_count(ctx) == errors + 3);

    /* A NULL diagnostic (a parser that has already failed) takes notes and reports as no-ops. */
    ptoc_diag_note(NULL, at(file, 1, 1), "ignored");
    ptoc_diag_report(NULL);
    CHECK(w.calls == 4);
    ptoc_context_set_diag_handler(ctx, prev, prev_user, NULL);

    /* The printed text: the error, then each note, each with its quote and caret. */
    report_job job = {ctx, ptoc_diag_begin(ctx, PTOC_SEV_ERROR, at(file, 3, 2), "bad"), NULL};
    ptoc_diag_note(job.d, at(file, 1, 3), "first note");
    ptoc_diag_note(job.d, ptoc_loc_unknown(), "second note");
    CHECK(strcmp(capture(report_one, &job), "n.pto:3:2: error: bad\n  %c = op\n   ^\n"
                                            "n.pto:1:3: note: first note\n  %a = op\n    ^\n"
                                            "note: second note\n") == 0);
    ptoc_arena_destroy(arena);
}

int main(void)
{
    ptoc_context *ctx = unit_context(NULL);
    test_print(ctx);
    test_op_diagnostics(ctx);
    test_attached_notes(ctx);
    test_verifier(ctx);
    ptoc_context_destroy(ctx);
    return CHECK_DONE();
}
