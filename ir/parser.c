/* parser.c: the parser's token layer, the hook toolkit, the top level and the
 * entry points.
 *
 * The parser reads one token ahead. The first error is reported and sets
 * `failed`; every function then returns false without reporting more, so callers
 * only propagate. Nesting of regions, types, attributes and locations is counted
 * against max_depth so that no input can exhaust the C stack. Operations,
 * regions and SSA scoping live in parse_ops.c, types in parse_types.c,
 * attributes and locations in parse_attrs.c.
 */
#include "ir/syntax_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- errors */

static bool verror_at(ptoc_parser *p, ptoc_loc loc, const char *fmt, va_list ap)
{
    if (!p->failed) {
        p->failed = true;
        ptoc_emitv(p->ctx, PTOC_SEV_ERROR, loc, fmt, ap);
    }
    return false;
}

bool ptoc_parser_error_at(ptoc_parser *p, ptoc_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror_at(p, loc, fmt, ap);
    va_end(ap);
    return false;
}

ptoc_diag *ptoc_parser_diag_at(ptoc_parser *p, ptoc_loc loc, const char *fmt, ...)
{
    va_list ap;
    ptoc_diag *d;
    if (p->failed)
        return NULL;
    p->failed = true;
    va_start(ap, fmt);
    d = ptoc_diag_beginv(p->ctx, PTOC_SEV_ERROR, loc, fmt, ap);
    va_end(ap);
    return d;
}

bool ptoc_parser_error(ptoc_parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror_at(p, ptoc_parser_loc(p), fmt, ap);
    va_end(ap);
    return false;
}

bool ptoc_parser_expected(ptoc_parser *p, const char *what)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    if (p->prev_line && p->tok.line > p->prev_line) {
        loc.line = p->prev_line;
        loc.col = p->prev_col_end;
    }
    return ptoc_parser_error_at(p, loc, "expected %s", what);
}

bool ptoc_parser_enter(ptoc_parser *p)
{
    if (p->failed)
        return false;
    if (++p->depth > p->max_depth) {
        p->depth--;
        return ptoc_parser_error(p, "nesting too deep");
    }
    return true;
}

void ptoc_parser_leave(ptoc_parser *p) { p->depth--; }

/* ---------------------------------------------------------------- tokens */

ptoc_loc ptoc_parser_tok_loc(const ptoc_parser *p, const ptoc_token *t)
{
    ptoc_loc l;
    l.file = p->file;
    l.line = t->line;
    l.col = t->col;
    return l;
}

ptoc_loc ptoc_parser_loc(ptoc_parser *p) { return ptoc_parser_tok_loc(p, &p->tok); }

const char *ptoc_parser_tok_text(const ptoc_parser *p) { return p->lx.buf + p->tok.start; }

void ptoc_parser_advance(ptoc_parser *p)
{
    if (p->tok.kind == TOK_EOF || p->tok.kind == TOK_ERROR)
        return;
    p->prev_end = p->tok.start + p->tok.len;
    p->prev_line = p->tok.line;
    p->prev_col_end = p->tok.col + (uint32_t)p->tok.len;
    p->tok = ptoc_lex_next(&p->lx);
    if (p->tok.kind == TOK_ERROR)
        ptoc_parser_error(p, "%s", p->tok.error);
}

bool ptoc_parser_is(const ptoc_parser *p, ptoc_tok_kind k) { return !p->failed && p->tok.kind == k; }

bool ptoc_parser_consume(ptoc_parser *p, ptoc_tok_kind k)
{
    if (!ptoc_parser_is(p, k))
        return false;
    ptoc_parser_advance(p);
    return true;
}

ptoc_ident *ptoc_parser_ident(ptoc_parser *p, size_t start, size_t len)
{
    return ptoc_ident_get(p->ctx, p->lx.buf + start, len);
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return c - 'A' + 10;
}

bool ptoc_parser_unescape(ptoc_parser *p, const ptoc_token *t, size_t skip)
{
    const char *s = p->lx.buf + t->start + skip + 1;       /* after the quote */
    const char *end = p->lx.buf + t->start + t->len - 1;   /* the closing quote */
    p->text.len = 0;
    while (s < end) {
        char c = *s++;
        if (c != '\\') {
            ptoc_strbuf_putc(&p->text, c);
            continue;
        }
        c = *s++;
        switch (c) {
        case 'n': ptoc_strbuf_putc(&p->text, '\n'); break;
        case 't': ptoc_strbuf_putc(&p->text, '\t'); break;
        case '"': case '\\': ptoc_strbuf_putc(&p->text, c); break;
        default:
            ptoc_strbuf_putc(&p->text, (char)(hex_value(c) * 16 + hex_value(s[0])));
            s++;
        }
    }
    return true;
}

bool ptoc_parser_int_value(ptoc_parser *p, uint64_t *out)
{
    const char *s = ptoc_parser_tok_text(p);
    size_t n = p->tok.len, i = 0;
    unsigned base = 10;
    uint64_t v = 0;
    if (n > 2 && s[1] == 'x') {
        base = 16;
        i = 2;
    }
    for (; i < n; i++) {
        uint64_t d = (uint64_t)hex_value(s[i]);
        if (v > (UINT64_MAX - d) / base)
            return ptoc_parser_error(p, "integer literal too large");
        v = v * base + d;
    }
    *out = v;
    return true;
}

bool ptoc_parser_raw_body(ptoc_parser *p, const char *prefix, size_t plen, ptoc_ident **out)
{
    size_t after = p->tok.start + p->tok.len, end = after;
    uint32_t line = p->tok.line;
    if (after < p->lx.len && p->lx.buf[after] == '<') {
        const char *err = ptoc_lex_balanced(&p->lx, after, p->max_depth - p->depth, &end);
        if (err) {
            ptoc_loc l = { p->file, p->lx.line, (uint32_t)(end - p->lx.line_start + 1) };
            return ptoc_parser_error_at(p, l, "%s", err);
        }
        line = p->lx.line;
    }
    p->text.len = 0;
    ptoc_strbuf_append(&p->text, prefix, plen);
    ptoc_strbuf_append(&p->text, p->lx.buf + after, end - after);
    *out = ptoc_ident_get(p->ctx, p->text.data, p->text.len);
    /* Continue lexing after the body. */
    p->prev_end = end;
    p->prev_line = line;
    p->prev_col_end = (uint32_t)(end - p->lx.line_start + 1);
    ptoc_lex_reset(&p->lx, end);
    p->tok = ptoc_lex_next(&p->lx);
    if (p->tok.kind == TOK_ERROR)
        return ptoc_parser_error(p, "%s", p->tok.error);
    return true;
}

/* ---------------------------------------------------------------- toolkit */

ptoc_context *ptoc_parser_context(ptoc_parser *p) { return p->ctx; }
ptoc_arena *ptoc_parser_arena(ptoc_parser *p) { return p->arena; }
ptoc_arena *ptoc_parser_scratch(ptoc_parser *p) { return p->scratch; }
ptoc_loc ptoc_parser_hook_loc(ptoc_parser *p) { return p->hook_loc; }

bool ptoc_parser_failed(ptoc_parser *p) { return p->failed; }

static const struct { const char *spelling; ptoc_tok_kind kind; } punctuation[] = {
    { "(", TOK_LPAREN },   { ")", TOK_RPAREN },  { "[", TOK_LSQUARE },   { "]", TOK_RSQUARE },
    { "{", TOK_LBRACE },   { "}", TOK_RBRACE },  { "<", TOK_LESS },      { ">", TOK_GREATER },
    { ",", TOK_COMMA },    { ":", TOK_COLON },   { "::", TOK_COLON_COLON }, { "=", TOK_EQUAL },
    { "->", TOK_ARROW },   { "?", TOK_QUESTION }, { "*", TOK_STAR },     { "+", TOK_PLUS },
    { "|", TOK_PIPE },     { "...", TOK_ELLIPSIS }, { "-", TOK_MINUS },
};

bool ptoc_parser_peek(ptoc_parser *p, const char *spelling)
{
    if (p->failed)
        return false;
    unsigned char c0 = (unsigned char)spelling[0];
    bool keyword = (c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || c0 == '_';
    for (size_t i = 0; !keyword && i < sizeof punctuation / sizeof punctuation[0]; i++)
        if (strcmp(spelling, punctuation[i].spelling) == 0)
            return p->tok.kind == punctuation[i].kind;
    return p->tok.kind == TOK_BARE_ID && p->tok.len == strlen(spelling) &&
           memcmp(ptoc_parser_tok_text(p), spelling, p->tok.len) == 0;
}

bool ptoc_parse_optional(ptoc_parser *p, const char *spelling)
{
    if (!ptoc_parser_peek(p, spelling))
        return false;
    ptoc_parser_advance(p);
    return !p->failed;
}

bool ptoc_parse_expect(ptoc_parser *p, const char *spelling)
{
    if (p->failed)
        return false;
    if (ptoc_parse_optional(p, spelling))
        return true;
    char what[64];
    snprintf(what, sizeof what, "'%s'", spelling);
    return ptoc_parser_expected(p, what);
}

bool ptoc_parse_optional_keyword(ptoc_parser *p, ptoc_ident **out)
{
    if (!ptoc_parser_is(p, TOK_BARE_ID))
        return false;
    *out = ptoc_parser_ident(p, p->tok.start, p->tok.len);
    ptoc_parser_advance(p);
    return !p->failed;
}

bool ptoc_parse_keyword(ptoc_parser *p, ptoc_ident **out, const char *what)
{
    if (ptoc_parse_optional_keyword(p, out))
        return true;
    return p->failed ? false : ptoc_parser_expected(p, what);
}

bool ptoc_parse_optional_integer(ptoc_parser *p, int64_t *out)
{
    if (p->failed)
        return false;
    bool neg = p->tok.kind == TOK_MINUS;
    if (!neg && p->tok.kind != TOK_INTEGER)
        return false;
    if (neg) {
        ptoc_parser_advance(p);
        if (!ptoc_parser_is(p, TOK_INTEGER))
            return p->failed ? false : ptoc_parser_expected(p, "integer after '-'");
    }
    uint64_t mag;
    if (!ptoc_parser_int_value(p, &mag))
        return false;
    if (neg && mag > (uint64_t)INT64_MAX + 1)
        return ptoc_parser_error(p, "integer literal too large");
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    ptoc_parser_advance(p);
    return !p->failed;
}

bool ptoc_parse_integer(ptoc_parser *p, int64_t *out)
{
    if (ptoc_parse_optional_integer(p, out))
        return true;
    return p->failed ? false : ptoc_parser_expected(p, "integer value");
}

bool ptoc_parse_float(ptoc_parser *p, double *out)
{
    if (p->failed)
        return false;
    bool neg = ptoc_parser_consume(p, TOK_MINUS);
    if (p->tok.kind == TOK_INTEGER) {
        uint64_t mag;
        if (!ptoc_parser_int_value(p, &mag))
            return false;
        *out = (double)mag;
    } else if (p->tok.kind == TOK_FLOAT) {
        p->text.len = 0;
        ptoc_strbuf_append(&p->text, ptoc_parser_tok_text(p), p->tok.len);
        *out = strtod(ptoc_strbuf_cstr(&p->text), NULL);
    } else {
        return ptoc_parser_expected(p, "floating point value");
    }
    if (neg)
        *out = -*out;
    ptoc_parser_advance(p);
    return !p->failed;
}

bool ptoc_parse_optional_number(ptoc_parser *p, ptoc_number *out)
{
    memset(out, 0, sizeof *out);
    if (p->failed)
        return false;
    out->loc = ptoc_parser_loc(p);
    out->negative = p->tok.kind == TOK_MINUS;
    if (out->negative) {
        ptoc_parser_advance(p);
        if (!ptoc_parser_is(p, TOK_INTEGER) && !ptoc_parser_is(p, TOK_FLOAT))
            return p->failed ? false : ptoc_parser_expected(p, "number after '-'");
    } else if (p->tok.kind != TOK_INTEGER && p->tok.kind != TOK_FLOAT) {
        return false;
    }
    if (p->tok.kind == TOK_FLOAT) {
        out->is_float = true;
        p->text.len = 0;
        ptoc_strbuf_append(&p->text, ptoc_parser_tok_text(p), p->tok.len);
        out->fp = strtod(ptoc_strbuf_cstr(&p->text), NULL);
        if (out->negative)
            out->fp = -out->fp;
    } else {
        out->is_hex = p->tok.len > 2 && ptoc_parser_tok_text(p)[1] == 'x';
        if (!ptoc_parser_int_value(p, &out->magnitude))
            return false;
    }
    ptoc_parser_advance(p);
    return !p->failed;
}

bool ptoc_parse_optional_string(ptoc_parser *p, ptoc_ident **out)
{
    if (!ptoc_parser_is(p, TOK_STRING))
        return false;
    ptoc_parser_unescape(p, &p->tok, 0);
    *out = ptoc_ident_get(p->ctx, p->text.data ? p->text.data : "", p->text.len);
    ptoc_parser_advance(p);
    return !p->failed;
}

bool ptoc_parse_string(ptoc_parser *p, ptoc_ident **out)
{
    if (ptoc_parse_optional_string(p, out))
        return true;
    return p->failed ? false : ptoc_parser_expected(p, "string literal");
}

bool ptoc_parse_optional_hash_key(ptoc_parser *p, ptoc_ident **key)
{
    if (!ptoc_parser_is(p, TOK_HASH_ID))
        return false;
    const char *name = ptoc_parser_tok_text(p) + 1;
    size_t len = p->tok.len - 1, after = p->tok.start + p->tok.len;
    while (after < p->lx.len && (p->lx.buf[after] == ' ' || p->lx.buf[after] == '\t'))
        after++;
    if (!ptoc_lex_is_bare_id(name, len) || memchr(name, '.', len) || after >= p->lx.len ||
        p->lx.buf[after] != '=')
        return false;
    *key = ptoc_ident_get(p->ctx, name, len);
    ptoc_parser_advance(p);
    return ptoc_parse_expect(p, "=");
}

bool ptoc_parse_optional_symbol_name(ptoc_parser *p, ptoc_ident **out)
{
    return ptoc_parser_is(p, TOK_AT_ID) && ptoc_parse_symbol_name(p, out);
}

bool ptoc_parse_symbol_name(ptoc_parser *p, ptoc_ident **out)
{
    if (!ptoc_parser_is(p, TOK_AT_ID))
        return p->failed ? false : ptoc_parser_expected(p, "symbol name");
    if (ptoc_parser_tok_text(p)[1] == '"') {
        ptoc_parser_unescape(p, &p->tok, 1);
        *out = ptoc_ident_get(p->ctx, p->text.data ? p->text.data : "", p->text.len);
    } else {
        *out = ptoc_parser_ident(p, p->tok.start + 1, p->tok.len - 1);
    }
    ptoc_parser_advance(p);
    return !p->failed;
}

/* ---------------------------------------------------------------- top level */

static bool is_dotted(const ptoc_token *t, const char *buf)
{
    return memchr(buf + t->start, '.', t->len) != NULL;
}

/* The `#name =` or `!name =` that starts an alias definition; *at is where. */
static bool parse_alias_head(ptoc_parser *p, const char *what, ptoc_ident **name, ptoc_loc *at)
{
    *at = ptoc_parser_loc(p);
    if (is_dotted(&p->tok, p->lx.buf))
        return ptoc_parser_error(p, "%s names with a '.' are reserved for dialect-defined names", what);
    *name = ptoc_parser_ident(p, p->tok.start + 1, p->tok.len - 1);
    ptoc_parser_advance(p);
    return ptoc_parse_expect(p, "=");
}

/* `#name = attr` or `#name = loc(...)`. */
static bool parse_attr_alias(ptoc_parser *p)
{
    ptoc_loc at;
    ptoc_ident *name;
    if (!parse_alias_head(p, "attribute", &name, &at))
        return false;
    if (ptoc_ptrmap_get(&p->attr_aliases, name) || ptoc_ptrmap_get(&p->loc_aliases, name))
        return ptoc_parser_error_at(p, at, "redefinition of attribute alias id '%s'", name->str);
    if (ptoc_parser_is_loc(p)) {
        ptoc_loc *l = PTOC_NEW(p->scratch, ptoc_loc);
        ptoc_ident *pending = NULL;
        *l = ptoc_loc_unknown();
        if (!ptoc_parse_optional_location(p, l, &pending))
            return false;
        ptoc_ptrmap_put(&p->loc_aliases, name, l);
        return true;
    }
    ptoc_attr *a;
    if (!ptoc_parse_attr(p, &a))
        return false;
    ptoc_ptrmap_put(&p->attr_aliases, name, a);
    return true;
}

/* `!name = type`. */
static bool parse_type_alias(ptoc_parser *p)
{
    ptoc_loc at;
    ptoc_ident *name;
    if (!parse_alias_head(p, "type", &name, &at))
        return false;
    if (ptoc_ptrmap_get(&p->type_aliases, name))
        return ptoc_parser_error_at(p, at, "redefinition of type alias id '%s'", name->str);
    ptoc_type *t;
    if (!ptoc_parse_type(p, &t))
        return false;
    ptoc_ptrmap_put(&p->type_aliases, name, t);
    return true;
}

void ptoc_parser_add_fixup(ptoc_parser *p, ptoc_loc *target, ptoc_ident *alias, ptoc_loc use)
{
    ptoc_loc_fixup f = { target, alias, use };
    loc_fixup_varr_push(&p->fixups, f);
}

/* Location aliases may be defined after their uses (MLIR prints them last). */
static bool apply_fixups(ptoc_parser *p)
{
    for (uint32_t i = 0; i < p->fixups.len && !p->failed; i++) {
        const ptoc_loc *l = ptoc_ptrmap_get(&p->loc_aliases, p->fixups.data[i].alias);
        if (!l)
            return ptoc_parser_error_at(p, p->fixups.data[i].use, "undefined symbol alias id '%s'",
                                        p->fixups.data[i].alias->str);
        *p->fixups.data[i].target = *l;
    }
    return !p->failed;
}

static const ptoc_op_def *module_def(ptoc_context *ctx)
{
    const ptoc_op_def *d = ptoc_context_op_def(ctx, "builtin.module", strlen("builtin.module"));
    return d ? d : ptoc_context_unregistered_op(ctx, "builtin.module", strlen("builtin.module"));
}

/* The single top-level builtin.module, or an implicit one around everything. */
static ptoc_op *wrap_top_level(ptoc_parser *p, ptoc_block *top)
{
    ptoc_op *only = top->first;
    if (only && only == top->last && ptoc_op_is(only, "builtin.module")) {
        ptoc_op_unlink(only);
        return only;
    }
    ptoc_loc loc = { p->file, 0, 0 };
    ptoc_op_state st;
    ptoc_state_init(&st, p->arena, module_def(p->ctx), loc);
    ptoc_region_append(ptoc_state_add_region(&st), top);
    return ptoc_op_create(p->arena, &st);
}

static bool parse_top_level(ptoc_parser *p)
{
    while (!p->failed && p->tok.kind != TOK_EOF) {
        if (p->tok.kind == TOK_HASH_ID)
            parse_attr_alias(p);
        else if (p->tok.kind == TOK_BANG_ID)
            parse_type_alias(p);
        else
            ptoc_parse_operation(p);
    }
    return !p->failed;
}

static void parser_init(ptoc_parser *p, ptoc_context *ctx, ptoc_arena *arena, const char *text,
                        size_t len, const char *filename, const ptoc_parse_options *opts)
{
    memset(p, 0, sizeof *p);
    p->ctx = ctx;
    p->arena = arena;
    p->scratch = ptoc_arena_create(ctx);
    loc_fixup_varr_init_arena(&p->fixups, p->scratch);
    ssa_entry_varr_init_arena(&p->defs, p->scratch);
    p->file = ptoc_ident_cstr(ctx, filename ? filename : "<input>");
    p->max_depth = opts && opts->max_depth ? opts->max_depth : 256;
    ptoc_strbuf_init(&p->text, ctx);
    ptoc_ptrmap_init(&p->type_aliases, ctx);
    ptoc_ptrmap_init(&p->attr_aliases, ctx);
    ptoc_ptrmap_init(&p->loc_aliases, ctx);
    ptoc_ptrmap_init(&p->blocks, ctx);
    p->default_dialect = "";
    if (opts) {
        p->asm_dialect = opts->asm_dialect;
        p->assembly = opts->assembly && opts->asm_dialect;
        p->asm_hint = opts->asm_hint;
    }
    ptoc_lex_init(&p->lx, text, len, opts ? opts->first_line : 1);
    p->tok = ptoc_lex_next(&p->lx);
    if (p->tok.kind == TOK_ERROR)
        ptoc_parser_error(p, "%s", p->tok.error);
}

static void parser_free(ptoc_parser *p)
{
    while (p->scope) {
        ptoc_ssa_scope *s = p->scope;
        p->scope = s->outer;
        ptoc_ptrmap_free(&s->names);
    }
    ptoc_ptrmap_free(&p->type_aliases);
    ptoc_ptrmap_free(&p->attr_aliases);
    ptoc_ptrmap_free(&p->loc_aliases);
    ptoc_ptrmap_free(&p->blocks);
    ptoc_strbuf_free(&p->text);
    ptoc_arena_destroy(p->scratch);
}

ptoc_op *ptoc_parse(ptoc_context *ctx, ptoc_arena *arena, const char *text, size_t len,
                    const char *filename, const ptoc_parse_options *opts)
{
    ptoc_parser p;
    parser_init(&p, ctx, arena, text, len, filename, opts);
    ptoc_block *top = ptoc_block_create(arena);
    p.block = top;
    ptoc_parser_push_isolated(&p);
    bool ok = parse_top_level(&p);
    ok = ptoc_parser_pop_isolated(&p) && ok;
    ok = ok && apply_fixups(&p);
    ptoc_op *module = ok ? wrap_top_level(&p, top) : NULL;
    parser_free(&p);
    return module;
}

/* ---------------------------------------------------------------- dialect symbols */

/* Is the byte right after the current token a `<` (trailing dialect data)? */
static bool has_trailing_less(const ptoc_parser *p)
{
    size_t after = p->tok.start + p->tok.len;
    return after < p->lx.len && p->lx.buf[after] == '<';
}

/* Runs the dialect's hook on `!d.mn...` (mnlen > 0) or `!d<mn ...>` (enclosed),
 * with hook_loc at the token so a hook can point at the whole type. */
static bool call_dialect_hook(ptoc_parser *p, const ptoc_sym_kind *k, const ptoc_dialect *d,
                              const char *mn, size_t mnlen, void **out)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    bool enclosed = mnlen == 0;
    ptoc_ident *mnemonic;
    char what[32];
    snprintf(what, sizeof what, "%s mnemonic", k->what);
    ptoc_parser_advance(p);
    if (enclosed) {
        if (!ptoc_parse_expect(p, "<") || !ptoc_parse_keyword(p, &mnemonic, what))
            return false;
    } else {
        mnemonic = ptoc_ident_get(p->ctx, mn, mnlen);
    }
    ptoc_loc outer = p->hook_loc;           /* hooks nest: a type inside a type */
    p->hook_loc = loc;
    *out = k->hook(d, p, mnemonic, enclosed);
    p->hook_loc = outer;
    if (!*out)
        return p->failed ? false : ptoc_parser_error_at(p, loc, "failed to parse %s '%c%s.%s'", k->what,
                                                        k->sigil, d->name, mnemonic->str);
    return !enclosed || ptoc_parse_expect(p, ">");
}

bool ptoc_parse_dialect_sym(ptoc_parser *p, const ptoc_sym_kind *k, void **out)
{
    const char *s = ptoc_parser_tok_text(p) + 1;
    size_t len = p->tok.len - 1;
    const char *dot = memchr(s, '.', len);
    if (!dot && !has_trailing_less(p)) {
        ptoc_ident *name = ptoc_ident_get(p->ctx, s, len);
        *out = ptoc_ptrmap_get((ptoc_ptrmap *)((char *)p + k->aliases), name);
        if (!*out)
            return ptoc_parser_error(p, "undefined symbol alias id '%s'", name->str);
        ptoc_parser_advance(p);
        return !p->failed;
    }
    size_t dlen = dot ? (size_t)(dot - s) : len;
    size_t mnlen = dot ? len - dlen - 1 : 0;
    const char *mn = dot ? dot + 1 : "";
    const ptoc_dialect *d = ptoc_context_dialect(p->ctx, s, dlen);
    if (d && k->has_hook(d))
        return call_dialect_hook(p, k, d, mn, mnlen, out);
    if (d)
        return ptoc_parser_error(p, "dialect '%s' does not define %ss", d->name, k->what);
    if (!ptoc_context_allows_unregistered(p->ctx))
        return ptoc_parser_error(p, "dialect '%.*s' is not registered", (int)dlen, s);
    ptoc_ident *dialect = ptoc_ident_get(p->ctx, s, dlen), *body;
    if (!ptoc_parser_raw_body(p, mn, mnlen, &body))
        return false;
    *out = k->opaque(p->ctx, dialect, body);
    return true;
}

/* ---------------------------------------------------------------- split input */

static bool is_split_marker(const char *s, size_t len)
{
    static const char marker[] = "// -----";
    while (len && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
        len--;
    return len == sizeof marker - 1 && memcmp(s, marker, len) == 0;
}

bool ptoc_split_input(const char *text, size_t len, ptoc_chunk_fn fn, void *user)
{
    bool ok = true;
    size_t chunk = 0, pos = 0;
    uint32_t line = 1, chunk_line = 1;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        if (is_split_marker(text + pos, end - pos)) {
            ok = fn(user, text + chunk, pos - chunk, chunk_line) && ok;
            chunk = nl ? end + 1 : len;
            chunk_line = line + 1;
        }
        pos = nl ? end + 1 : len;
        line++;
    }
    return fn(user, text + chunk, len - chunk, chunk_line) && ok;
}
