/* diag.c: diagnostics. A diagnostic is built in flight (its message, then the
 * notes attached to it) and handed to the context's handler in one call, so a
 * handler never has to pair notes with their error. The default handler prints
 * it clang/MLIR style, each note after it, with the source line and a caret,
 * using the source buffers registered with ptoc_source_add (their line index is
 * built on first use). The diagnostic verifier implements --verify-diagnostics:
 * it reads `// expected-error {{text}}` comments from a buffer, takes the place
 * of the handler, and reports what did not match.
 */
#include "ir/core_internal.h"
#include "ptoc/util.h"

#include <string.h>

static const char *const severity_words[] = {
    [PTOC_SEV_ERROR] = "error",
    [PTOC_SEV_WARNING] = "warning",
    [PTOC_SEV_NOTE] = "note",
    [PTOC_SEV_REMARK] = "remark",
};

/* ---------------------------------------------------------------- emitting */

ptoc_diag_handler ptoc_context_set_diag_handler(ptoc_context *ctx, ptoc_diag_handler h,
                                                void *user, void **prev_user)
{
    ptoc_diag_handler prev = ctx->diag_handler;
    if (prev_user)
        *prev_user = ctx->diag_user;
    ctx->diag_handler = h ? h : ptoc_diag_default_handler;
    ctx->diag_user = h ? user : ctx;
    return prev;
}

void ptoc_diag_default_handler(void *user, const ptoc_diagnostic *d)
{
    ptoc_diag_print(user, stderr, d);
}

/* A diagnostic in flight: its message and its notes' messages live in `text`
 * (by offset, as the buffer grows) until it is reported. */
typedef struct pending_note {
    ptoc_loc loc;
    size_t message;
} pending_note;

PTOC_VARR_DEF(pending_note, note_varr)

struct ptoc_diag {
    ptoc_context *ctx;
    ptoc_severity severity;
    ptoc_loc loc;
    ptoc_strbuf text;          /* the message, then each note's, each ending in '\0' */
    note_varr notes;
};

static ptoc_diag *diag_create(ptoc_context *ctx, ptoc_severity sev, ptoc_loc loc)
{
    ptoc_diag *d = ptoc_alloc(ctx, sizeof *d);
    memset(d, 0, sizeof *d);
    d->ctx = ctx;
    d->severity = sev;
    d->loc = loc;
    ptoc_strbuf_init(&d->text, ctx);
    note_varr_init(&d->notes, ctx);
    return d;
}

static void diag_destroy(ptoc_diag *d)
{
    note_varr_free(&d->notes);
    ptoc_strbuf_free(&d->text);
    ptoc_free(d->ctx, d, sizeof *d);
}

/* Begins `d`'s message (the first text in its buffer): `prefix` + `fmt`. */
static ptoc_diag *diag_beginv(ptoc_context *ctx, ptoc_severity sev, ptoc_loc loc, const char *prefix,
                              const char *fmt, va_list ap)
{
    ptoc_diag *d = diag_create(ctx, sev, loc);
    if (prefix)
        ptoc_strbuf_puts(&d->text, prefix);
    ptoc_strbuf_vprintf(&d->text, fmt, ap);
    ptoc_strbuf_putc(&d->text, '\0');
    return d;
}

/* The "'name' op " prefix of op diagnostics. */
static ptoc_diag *op_diag_beginv(const ptoc_op *op, ptoc_severity sev, const char *fmt, va_list ap)
{
    ptoc_strbuf prefix;
    ptoc_diag *d;
    ptoc_strbuf_init(&prefix, op->ctx);
    ptoc_strbuf_printf(&prefix, "'%s' op ", op->name->str);
    d = diag_beginv(op->ctx, sev, op->loc, ptoc_strbuf_cstr(&prefix), fmt, ap);
    ptoc_strbuf_free(&prefix);
    return d;
}

static void add_notev(ptoc_diag *d, ptoc_loc loc, const char *fmt, va_list ap)
{
    note_varr_push(&d->notes, (pending_note){loc, d->text.len});   /* a context's: cannot fail */
    ptoc_strbuf_vprintf(&d->text, fmt, ap);
    ptoc_strbuf_putc(&d->text, '\0');
}

ptoc_diag *ptoc_diag_begin(ptoc_context *ctx, ptoc_severity sev, ptoc_loc loc, const char *fmt, ...)
{
    va_list ap;
    ptoc_diag *d;
    va_start(ap, fmt);
    d = ptoc_diag_beginv(ctx, sev, loc, fmt, ap);
    va_end(ap);
    return d;
}

ptoc_diag *ptoc_diag_beginv(ptoc_context *ctx, ptoc_severity sev, ptoc_loc loc, const char *fmt, va_list ap)
{
    return diag_beginv(ctx, sev, loc, NULL, fmt, ap);
}

ptoc_diag *ptoc_op_diag_error(const ptoc_op *op, const char *fmt, ...)
{
    va_list ap;
    ptoc_diag *d;
    va_start(ap, fmt);
    d = op_diag_beginv(op, PTOC_SEV_ERROR, fmt, ap);
    va_end(ap);
    return d;
}

void ptoc_diag_note(ptoc_diag *d, ptoc_loc loc, const char *fmt, ...)
{
    va_list ap;
    if (!d)
        return;
    va_start(ap, fmt);
    add_notev(d, loc, fmt, ap);
    va_end(ap);
}

void ptoc_diag_op_note(ptoc_diag *d, const ptoc_op *op, const char *fmt, ...)
{
    va_list ap;
    if (!d)
        return;
    va_start(ap, fmt);
    add_notev(d, op->loc, fmt, ap);
    va_end(ap);
}

ptoc_diag *ptoc_diag_copy(ptoc_context *ctx, const ptoc_diagnostic *from)
{
    ptoc_diag *d = diag_create(ctx, from->severity, from->loc);
    size_t i;
    ptoc_strbuf_puts(&d->text, from->message);
    ptoc_strbuf_putc(&d->text, '\0');
    for (i = 0; i < from->nnotes; i++)
        ptoc_diag_note(d, from->notes[i].loc, "%s", from->notes[i].message);
    return d;
}

/* The notes of a diagnostic handed to a handler, from a local array when few. */
enum { LOCAL_NOTES = 8 };

void ptoc_diag_forward(ptoc_diag *d, ptoc_diag_handler h, void *user)
{
    ptoc_diagnostic out, local[LOCAL_NOTES], *notes = local;
    size_t i;
    if (!d)
        return;
    uint32_t nnotes = d->notes.len;
    if (nnotes > LOCAL_NOTES)
        notes = ptoc_alloc(d->ctx, nnotes * sizeof *notes);
    for (i = 0; i < nnotes; i++)
        notes[i] = (ptoc_diagnostic){PTOC_SEV_NOTE, d->notes.data[i].loc, d->text.data + d->notes.data[i].message,
                                     NULL, 0};
    out = (ptoc_diagnostic){d->severity, d->loc, d->text.data, nnotes ? notes : NULL, nnotes};
    h(user, &out);
    if (notes != local)
        ptoc_free(d->ctx, notes, nnotes * sizeof *notes);
    diag_destroy(d);
}

void ptoc_diag_report(ptoc_diag *d)
{
    if (!d)
        return;
    if (d->severity == PTOC_SEV_ERROR)
        d->ctx->error_count++;
    ptoc_diag_forward(d, d->ctx->diag_handler, d->ctx->diag_user);
}

void ptoc_emitv(ptoc_context *ctx, ptoc_severity sev, ptoc_loc loc, const char *fmt, va_list ap)
{
    ptoc_diag_report(ptoc_diag_beginv(ctx, sev, loc, fmt, ap));
}

void ptoc_emit(ptoc_context *ctx, ptoc_severity sev, ptoc_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptoc_emitv(ctx, sev, loc, fmt, ap);
    va_end(ap);
}

void ptoc_emit_error(ptoc_context *ctx, ptoc_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptoc_emitv(ctx, PTOC_SEV_ERROR, loc, fmt, ap);
    va_end(ap);
}

void ptoc_op_emit_error(const ptoc_op *op, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptoc_diag_report(op_diag_beginv(op, PTOC_SEV_ERROR, fmt, ap));
    va_end(ap);
}

void ptoc_op_emit_warning(const ptoc_op *op, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptoc_diag_report(op_diag_beginv(op, PTOC_SEV_WARNING, fmt, ap));
    va_end(ap);
}

size_t ptoc_context_error_count(ptoc_context *ctx) { return ctx->error_count; }

/* ---------------------------------------------------------------- sources */

static ptoc_source *find_source(ptoc_context *ctx, const ptoc_ident *file)
{
    size_t i;
    for (i = 0; i < ctx->nsources; i++)
        if (ctx->sources[i].file == file)
            return &ctx->sources[i];
    return NULL;
}

static void release_source(ptoc_context *ctx, ptoc_source *s)
{
    ptoc_free(ctx, s->text, s->len + 1);
    ptoc_free(ctx, s->lines, s->nlines * sizeof *s->lines);
    s->text = NULL;
    s->lines = NULL;
    s->nlines = 0;
}

void ptoc_source_add(ptoc_context *ctx, ptoc_ident *file, const char *text, size_t len)
{
    ptoc_source *s = find_source(ctx, file);
    if (s) {
        release_source(ctx, s);      /* a file read again replaces its old text */
    } else {
        s = PTOC_VARR_PUSH_FIELDS(ctx, NULL, ctx->sources, ctx->nsources, ctx->sources_cap);
        s->file = file;
    }
    s->text = ptoc_alloc(ctx, len + 1);
    if (len)
        memcpy(s->text, text, len);
    s->text[len] = '\0';
    s->len = len;
    s->lines = NULL;
    s->nlines = 0;
}

/* Records where each line starts (one array, as files can have 100k lines). */
static void index_lines(ptoc_context *ctx, ptoc_source *s)
{
    size_t i, n = 1;
    for (i = 0; i < s->len; i++)
        n += s->text[i] == '\n';
    s->lines = ptoc_alloc(ctx, n * sizeof *s->lines);
    s->nlines = 0;
    s->lines[s->nlines++] = 0;
    for (i = 0; i < s->len; i++)
        if (s->text[i] == '\n')
            s->lines[s->nlines++] = i + 1;
}

bool ptoc_source_line(ptoc_context *ctx, ptoc_ident *file, uint32_t line,
                      const char **text, size_t *len)
{
    ptoc_source *s = file ? find_source(ctx, file) : NULL;
    size_t start, end;
    if (!s || line == 0)
        return false;
    if (!s->lines)
        index_lines(ctx, s);
    if (line > s->nlines)
        return false;
    start = s->lines[line - 1];
    end = line < s->nlines ? s->lines[line] - 1 : s->len;
    if (end > start && s->text[end - 1] == '\r')
        end--;
    *text = s->text + start;
    *len = end - start;
    return true;
}

void ptoc_diag_release(ptoc_context *ctx)
{
    size_t i;
    for (i = 0; i < ctx->nsources; i++)
        release_source(ctx, &ctx->sources[i]);
    ptoc_free(ctx, ctx->sources, ctx->sources_cap * sizeof *ctx->sources);
    ctx->sources = NULL;
    ctx->nsources = ctx->sources_cap = 0;
}

/* The quoted source line and, under column `col`, a caret. The caret line copies
 * the tabs before the column so the caret lines up however tabs are shown. */
static void print_caret(FILE *out, const char *text, size_t len, uint32_t col)
{
    size_t i;
    fputs("  ", out);
    fwrite(text, 1, len, out);
    fputs("\n  ", out);
    for (i = 0; i + 1 < col; i++)
        fputc(i < len && text[i] == '\t' ? '\t' : ' ', out);
    fputs("^\n", out);
}

void ptoc_diag_print(ptoc_context *ctx, FILE *out, const ptoc_diagnostic *d)
{
    const char *text;
    size_t len, i;
    if (d->loc.file)
        fprintf(out, "%s:%u:%u: ", d->loc.file->str, (unsigned)d->loc.line, (unsigned)d->loc.col);
    fprintf(out, "%s: %s\n", severity_words[d->severity], d->message);
    if (d->loc.file && d->loc.col && ptoc_source_line(ctx, d->loc.file, d->loc.line, &text, &len))
        print_caret(out, text, len, d->loc.col);
    for (i = 0; i < d->nnotes; i++)
        ptoc_diag_print(ctx, out, &d->notes[i]);
}

/* ---------------------------------------------------------------- verifier */

/* One `expected-*` comment. Texts live in the verifier's `strings` buffer (by
 * offset, as the buffer grows); a malformed directive is reported as an error. */
typedef struct expectation {
    ptoc_severity severity;
    uint32_t line;            /* the line the diagnostic must be on */
    uint32_t at_line, at_col; /* where the comment is */
    size_t text;              /* offset in strings */
    bool met, malformed;
} expectation;

/* A diagnostic no expectation matched. */
typedef struct unexpected {
    ptoc_severity severity;
    ptoc_loc loc;
    size_t message;           /* offset in strings */
} unexpected;

PTOC_VARR_DEF(expectation, expectation_varr)
PTOC_VARR_DEF(unexpected, unexpected_varr)

struct ptoc_diag_verifier {
    ptoc_context *ctx;
    ptoc_ident *file;
    expectation_varr exps;
    unexpected_varr extra;
    ptoc_strbuf strings;
};

static size_t save_string(ptoc_diag_verifier *v, const char *s, size_t len)
{
    size_t at = v->strings.len;
    ptoc_strbuf_append(&v->strings, s, len);
    ptoc_strbuf_putc(&v->strings, '\0');
    return at;
}

static bool starts_with(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Parses `@+N`, `@-N`, `@above`, `@below` at `*pp`; false if malformed. */
static bool parse_offset(const char **pp, const char *end, long *offset)
{
    const char *p = *pp + 1;
    long sign = 1, n = 0;
    if (starts_with(p, end, "above") || starts_with(p, end, "below")) {
        *offset = *p == 'a' ? -1 : 1;
        *pp = p + 5;
        return true;
    }
    if (p == end || (*p != '+' && *p != '-'))
        return false;
    sign = *p++ == '-' ? -1 : 1;
    if (p == end || *p < '0' || *p > '9')
        return false;
    while (p < end && *p >= '0' && *p <= '9' && n < 1000000)
        n = n * 10 + (*p++ - '0');
    *offset = sign * n;
    *pp = p;
    return true;
}

/* Reads one directive at `p` (just after "expected-") on line `line`. */
static const char *parse_directive(ptoc_diag_verifier *v, const char *p, const char *end,
                                   uint32_t line, uint32_t col)
{
    expectation *e;
    const char *close;
    long offset = 0;
    int sev;
    for (sev = 0; sev <= PTOC_SEV_REMARK; sev++)
        if (starts_with(p, end, severity_words[sev]))
            break;
    if (sev > PTOC_SEV_REMARK)
        return p;                    /* prose such as "expected-value", not a directive */
    e = expectation_varr_add(&v->exps);
    e->at_line = e->line = line;
    e->at_col = col;
    e->malformed = true;
    e->severity = (ptoc_severity)sev;
    p += strlen(severity_words[sev]);
    p = skip_blanks(p, end);                 /* MLIR allows `expected-error @+1` */
    if (p < end && *p == '@' && !parse_offset(&p, end, &offset))
        return p;
    p = skip_blanks(p, end);
    if (!starts_with(p, end, "{{"))
        return p;
    for (close = p + 2; close < end && !starts_with(close, end, "}}"); close++)
        ;
    if (close >= end || (long)line + offset < 1)
        return p;
    e->line = (uint32_t)((long)line + offset);
    e->text = save_string(v, p + 2, (size_t)(close - (p + 2)));
    e->malformed = false;
    return close + 2;
}

/* Scans the `//` comment of one line for directives. */
static void scan_line(ptoc_diag_verifier *v, const char *start, const char *end, uint32_t line)
{
    const char *p = start;
    while (p + 1 < end && !(p[0] == '/' && p[1] == '/'))
        p++;
    if (p + 1 >= end)
        return;
    while (p < end) {
        while (p < end && !starts_with(p, end, "expected-"))
            p++;
        if (p == end)
            return;
        p = parse_directive(v, p + 9, end, line, (uint32_t)(p - start) + 1);
    }
}

ptoc_diag_verifier *ptoc_diag_verifier_create(ptoc_context *ctx, ptoc_ident *file,
                                              const char *text, size_t len)
{
    ptoc_diag_verifier *v = ptoc_alloc(ctx, sizeof *v);
    const char *p = text, *end = text + len, *eol;
    uint32_t line = 1;
    memset(v, 0, sizeof *v);
    v->ctx = ctx;
    expectation_varr_init(&v->exps, ctx);
    unexpected_varr_init(&v->extra, ctx);
    v->file = file;
    ptoc_strbuf_init(&v->strings, ctx);
    for (; p < end; p = eol + 1, line++) {
        eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        scan_line(v, p, eol, line);
    }
    return v;
}

/* Matches one diagnostic (not its notes) against the expectations. */
static void verify_one(ptoc_diag_verifier *v, const ptoc_diagnostic *d)
{
    unexpected *u;
    size_t i;
    if (d->loc.file == v->file) {
        for (i = 0; i < v->exps.len; i++) {
            expectation *e = &v->exps.data[i];
            if (!e->met && !e->malformed && e->severity == d->severity && e->line == d->loc.line &&
                strstr(d->message, v->strings.data + e->text)) {
                e->met = true;
                return;
            }
        }
    }
    u = unexpected_varr_add(&v->extra);
    u->severity = d->severity;
    u->loc = d->loc;
    u->message = save_string(v, d->message, strlen(d->message));
}

void ptoc_diag_verifier_handle(void *verifier, const ptoc_diagnostic *d)
{
    size_t i;
    verify_one(verifier, d);
    for (i = 0; i < d->nnotes; i++)
        verify_one(verifier, &d->notes[i]);
}

/* Prints one verifier complaint as an error diagnostic on `out`. */
static void complain(ptoc_diag_verifier *v, FILE *out, ptoc_loc loc, const char *message)
{
    ptoc_diagnostic d = {PTOC_SEV_ERROR, loc, message, NULL, 0};
    ptoc_diag_print(v->ctx, out, &d);
}

bool ptoc_diag_verifier_finish(ptoc_diag_verifier *v, FILE *out)
{
    ptoc_strbuf msg;
    bool ok = true;
    size_t i;
    ptoc_strbuf_init(&msg, v->ctx);
    for (i = 0; i < v->extra.len; i++) {
        const unexpected *u = &v->extra.data[i];
        msg.len = 0;
        ptoc_strbuf_printf(&msg, "unexpected %s: %s", severity_words[u->severity], v->strings.data + u->message);
        complain(v, out, u->loc, ptoc_strbuf_cstr(&msg));
        ok = false;
    }
    for (i = 0; i < v->exps.len; i++) {
        const expectation *e = &v->exps.data[i];
        ptoc_loc at = {v->file, e->at_line, e->at_col};
        if (e->met)
            continue;
        msg.len = 0;
        if (e->malformed)
            ptoc_strbuf_puts(&msg, "malformed expected-* directive: want expected-<severity>[@+N|@-N|@above|@below] {{text}}");
        else
            ptoc_strbuf_printf(&msg, "expected %s \"%s\" was not produced", severity_words[e->severity],
                               v->strings.data + e->text);
        complain(v, out, at, ptoc_strbuf_cstr(&msg));
        ok = false;
    }
    ptoc_strbuf_free(&msg);
    return ok;
}

void ptoc_diag_verifier_destroy(ptoc_diag_verifier *v)
{
    if (!v)
        return;
    expectation_varr_free(&v->exps);
    unexpected_varr_free(&v->extra);
    ptoc_strbuf_free(&v->strings);
    ptoc_free(v->ctx, v, sizeof *v);
}
