/* parse_types.c: builtin types, type aliases and dialect types.
 *
 * Builtin keywords come from a table (index, none, the float types), plus the
 * integer pattern iN/siN/uiN, function types `(T) -> U`, and the shaped types
 * memref, vector and tensor. `!alias` looks up a type alias; `!d.mnemonic...` and
 * `!d<mnemonic ...>` go to the dialect's parse_type hook, or are kept as opaque
 * text when the dialect is unknown and unregistered dialects are allowed.
 */
#include "ir/syntax_internal.h"

#include <string.h>

static const struct { const char *name; ptoc_float_kind kind; } float_types[] = {
    { "f16", PTOC_F16 },         { "bf16", PTOC_BF16 },           { "f32", PTOC_F32 },
    { "f64", PTOC_F64 },         { "f80", PTOC_F80 },             { "f128", PTOC_F128 },
    { "tf32", PTOC_TF32 },       { "f8E4M3", PTOC_F8E4M3 },       { "f8E4M3FN", PTOC_F8E4M3FN },
    { "f8E5M2", PTOC_F8E5M2 },   { "f8E4M3FNUZ", PTOC_F8E4M3FNUZ }, { "f8E5M2FNUZ", PTOC_F8E5M2FNUZ },
    { "f8E4M3B11FNUZ", PTOC_F8E4M3B11FNUZ },
};

static const char *const shaped_keywords[] = { "memref", "vector", "tensor", "index", "none" };

static bool keyword_is(const char *s, size_t len, const char *kw)
{
    return strlen(kw) == len && memcmp(s, kw, len) == 0;
}

/* iN, siN, uiN: returns the digits' offset, or 0 when `s` is not of that form. */
static size_t int_type_digits(const char *s, size_t len)
{
    size_t at = s[0] == 'i' ? 1 : (len > 2 && (s[0] == 's' || s[0] == 'u') && s[1] == 'i') ? 2 : 0;
    if (!at || at >= len)
        return 0;
    for (size_t i = at; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return at;
}

bool ptoc_parser_is_type_keyword(const char *s, size_t len)
{
    if (len && int_type_digits(s, len))
        return true;
    for (size_t i = 0; i < sizeof float_types / sizeof float_types[0]; i++)
        if (keyword_is(s, len, float_types[i].name))
            return true;
    for (size_t i = 0; i < sizeof shaped_keywords / sizeof shaped_keywords[0]; i++)
        if (keyword_is(s, len, shaped_keywords[i]))
            return true;
    return false;
}

bool ptoc_parser_is_type_start(ptoc_parser *p)
{
    if (p->failed)
        return false;
    switch (p->tok.kind) {
    case TOK_LPAREN:
    case TOK_BANG_ID: return true;
    case TOK_BARE_ID: return ptoc_parser_is_type_keyword(ptoc_parser_tok_text(p), p->tok.len);
    default: return false;
    }
}

/* ---------------------------------------------------------------- lists */

/* Lists being parsed grow in the parser's scratch arena. */
typedef ptoc_type_varr type_vec;

static bool parse_types_into(ptoc_parser *p, type_vec *v)
{
    do {
        ptoc_type *t;
        if (!ptoc_parse_type(p, &t))
            return false;
        ptoc_type_varr_push(v, t);
    } while (ptoc_parse_optional(p, ","));
    return true;
}

bool ptoc_parse_type_list(ptoc_parser *p, ptoc_type ***out, uint32_t *n)
{
    type_vec v;
    ptoc_type_varr_init_arena(&v, p->scratch);
    *n = 0;
    if (!parse_types_into(p, &v))
        return false;
    *out = v.data;
    *n = v.len;
    return true;
}

bool ptoc_parse_optional_colon_type_list(ptoc_parser *p, ptoc_type ***out, uint32_t *n)
{
    *n = 0;
    *out = NULL;
    if (!ptoc_parse_optional(p, ":"))
        return false;
    return ptoc_parse_type_list(p, out, n);
}

/* `(T, U)` or `()` after the opening parenthesis was seen (not consumed). */
static bool parse_paren_types(ptoc_parser *p, type_vec *v)
{
    if (!ptoc_parse_expect(p, "("))
        return false;
    if (ptoc_parse_optional(p, ")"))
        return true;
    return parse_types_into(p, v) && ptoc_parse_expect(p, ")");
}

/* The results after `->`: `(T, U)`, `()` or a single type. */
static bool parse_result_types(ptoc_parser *p, type_vec *v)
{
    if (ptoc_parser_is(p, TOK_LPAREN))
        return parse_paren_types(p, v);
    ptoc_type *t;
    if (!ptoc_parse_type(p, &t))
        return false;
    ptoc_type_varr_push(v, t);
    return true;
}

bool ptoc_parse_optional_arrow_types(ptoc_parser *p, ptoc_op_state *st)
{
    if (!ptoc_parse_optional(p, "->"))
        return false;
    type_vec v;
    ptoc_type_varr_init_arena(&v, p->scratch);
    if (!parse_result_types(p, &v))
        return false;
    for (uint32_t i = 0; i < v.len; i++)
        ptoc_state_add_result(st, v.data[i]);
    return true;
}

static bool parse_function_body(ptoc_parser *p, ptoc_type **out)
{
    type_vec in, res;
    ptoc_type_varr_init_arena(&in, p->scratch);
    ptoc_type_varr_init_arena(&res, p->scratch);
    if (!parse_paren_types(p, &in))
        return false;
    if (!ptoc_parse_optional(p, "->"))
        return p->failed ? false : ptoc_parser_expected(p, "'->' in function type");
    if (!parse_result_types(p, &res))
        return false;
    *out = ptoc_type_function(p->ctx, in.len, in.data, res.len, res.data);
    return true;
}

bool ptoc_parse_function_type(ptoc_parser *p, ptoc_type **out)
{
    if (!ptoc_parser_is(p, TOK_LPAREN))
        return p->failed ? false : ptoc_parser_expected(p, "function type");
    if (!ptoc_parser_enter(p))
        return false;
    bool ok = parse_function_body(p, out);
    ptoc_parser_leave(p);
    return ok;
}

/* ---------------------------------------------------------------- shapes */

/* Re-lexes from `pos`, inside the current token. */
static void relex_from(ptoc_parser *p, size_t pos)
{
    ptoc_lex_reset(&p->lx, pos);
    p->tok = ptoc_lex_next(&p->lx);
    if (p->tok.kind == TOK_ERROR)
        ptoc_parser_error(p, "%s", p->tok.error);
}

/* A growing dimension list in the parser's scratch arena. */
typedef ptoc_i64_varr dim_list;

static int64_t *dim_slot(ptoc_parser *p, dim_list *l) { return ptoc_i64_varr_add(l); }

static bool is_digit_char(char c) { return c >= '0' && c <= '9'; }

/* Reads decimal digits at s[*i] as a dimension. */
static bool scan_dim(ptoc_parser *p, const char *s, size_t len, size_t *i, int64_t *dim)
{
    uint64_t v = 0;
    for (; *i < len && is_digit_char(s[*i]); (*i)++) {
        v = v * 10 + (uint64_t)(s[*i] - '0');
        if (v > (uint64_t)PTOC_MAX_DIM)
            return ptoc_parser_error(p, "dimension too large");
    }
    *dim = (int64_t)v;
    return true;
}

/* The `x` after a dimension. The lexer reads `4x8x16xf32` as `4` and one bare id
 * `x8x16xf32`, so the id may carry more dimensions: they are read here in one
 * pass over its text (re-lexing after each `x` would be quadratic in the rank).
 * On return the element type (or the next `?`) is the current token, and
 * *need_x says whether the id ended right after a dimension. */
static bool parse_dim_x(ptoc_parser *p, dim_list *l, bool *need_x)
{
    if (!ptoc_parser_is(p, TOK_BARE_ID) || ptoc_parser_tok_text(p)[0] != 'x')
        return p->failed ? false : ptoc_parser_expected(p, "'x' in dimension list");
    const char *s = ptoc_parser_tok_text(p);
    size_t len = p->tok.len, i = 0;
    while (i + 1 < len && s[i] == 'x' && is_digit_char(s[i + 1])) {
        i++;
        if (!scan_dim(p, s, len, &i, dim_slot(p, l)))
            return false;
    }
    *need_x = i == len;
    if (i == len || i + 1 == len) {         /* ends after a dimension, or with the `x` */
        ptoc_parser_advance(p);
        return !p->failed;
    }
    if (s[i] != 'x')                        /* `x4f32` */
        return ptoc_parser_error(p, "expected 'x' in dimension list");
    relex_from(p, p->tok.start + i + 1);
    return !p->failed;
}

/* One dimension: `?` or a decimal integer. A hex-looking `0x4` is `0`, `x4`. */
static bool parse_dim(ptoc_parser *p, bool allow_dynamic, int64_t *dim)
{
    if (p->tok.kind == TOK_QUESTION) {
        if (!allow_dynamic)
            return ptoc_parser_error(p, "expected static shape");
        *dim = PTOC_DYNAMIC;
        ptoc_parser_advance(p);
        return !p->failed;
    }
    const char *s = ptoc_parser_tok_text(p);
    if (p->tok.len > 1 && s[1] == 'x') {
        *dim = 0;
        relex_from(p, p->tok.start + 1);
        return !p->failed;
    }
    size_t i = 0;
    if (!scan_dim(p, s, p->tok.len, &i, dim))
        return false;
    ptoc_parser_advance(p);
    return !p->failed;
}

bool ptoc_parse_dimension_list(ptoc_parser *p, int64_t **shape, uint32_t *rank, bool allow_dynamic)
{
    dim_list l;
    ptoc_i64_varr_init_arena(&l, p->scratch);
    *rank = 0;
    *shape = NULL;
    while (ptoc_parser_is(p, TOK_INTEGER) || ptoc_parser_is(p, TOK_QUESTION)) {
        bool need_x = true;
        if (!parse_dim(p, allow_dynamic, dim_slot(p, &l)))
            return false;
        while (need_x)
            if (!parse_dim_x(p, &l, &need_x))
                return false;
    }
    *shape = l.data;
    *rank = l.len;
    return !p->failed;
}

static bool is_layout(const ptoc_attr *a)
{
    if (a->kind != PTOC_ATTR_OPAQUE || strcmp(a->u.opaque.dialect->str, "builtin") != 0)
        return false;
    return strncmp(a->u.opaque.body->str, "strided<", 8) == 0 ||
           strncmp(a->u.opaque.body->str, "affine_map<", 11) == 0;
}

/* `memref<`, `vector<`, `tensor<` ... `>`; the keyword is already consumed. */
static bool parse_shaped(ptoc_parser *p, ptoc_type_kind kind, ptoc_type **out)
{
    int64_t *shape;
    uint32_t rank;
    ptoc_type *elem;
    ptoc_attr *layout = NULL, *space = NULL;
    if (!ptoc_parse_expect(p, "<"))
        return false;
    if (kind == PTOC_TYPE_TENSOR && ptoc_parser_is(p, TOK_STAR))
        return ptoc_parser_error(p, "unranked tensors are not supported");
    if (!ptoc_parse_dimension_list(p, &shape, &rank, kind != PTOC_TYPE_VECTOR) ||
        !ptoc_parse_type(p, &elem))
        return false;
    if (kind == PTOC_TYPE_MEMREF && ptoc_parse_optional(p, ",")) {
        ptoc_attr *a;
        if (!ptoc_parse_attr(p, &a))
            return false;
        if (is_layout(a)) {
            layout = a;
            if (ptoc_parse_optional(p, ",") && !ptoc_parse_attr(p, &space))
                return false;
        } else {
            space = a;
        }
    }
    if (!ptoc_parse_expect(p, ">"))
        return false;
    if (kind == PTOC_TYPE_MEMREF)
        *out = ptoc_type_memref(p->ctx, rank, shape, elem, layout, space);
    else if (kind == PTOC_TYPE_VECTOR)
        *out = ptoc_type_vector(p->ctx, rank, shape, elem);
    else
        *out = ptoc_type_tensor(p->ctx, rank, shape, elem);
    return true;
}

/* ---------------------------------------------------------------- keywords */

static bool parse_int_type(ptoc_parser *p, const char *s, size_t len, size_t at, ptoc_type **out)
{
    uint32_t width = 0;
    for (size_t i = at; i < len; i++) {
        width = width * 10 + (uint32_t)(s[i] - '0');
        if (width > 128)
            break;
    }
    if (width < 1 || width > 128)
        return ptoc_parser_error(p, "integer bitwidth must be between 1 and 128");
    ptoc_signedness sign = at == 1 ? PTOC_SIGNLESS : s[0] == 's' ? PTOC_SIGNED : PTOC_UNSIGNED;
    *out = ptoc_type_int(p->ctx, width, sign);
    ptoc_parser_advance(p);
    return !p->failed;
}

static bool parse_keyword_type(ptoc_parser *p, ptoc_type **out)
{
    const char *s = ptoc_parser_tok_text(p);
    size_t len = p->tok.len, at = int_type_digits(s, len);
    if (at)
        return parse_int_type(p, s, len, at, out);
    for (size_t i = 0; i < sizeof float_types / sizeof float_types[0]; i++)
        if (keyword_is(s, len, float_types[i].name)) {
            *out = ptoc_type_float(p->ctx, float_types[i].kind);
            ptoc_parser_advance(p);
            return !p->failed;
        }
    ptoc_type_kind kind;
    if (keyword_is(s, len, "index") || keyword_is(s, len, "none")) {
        *out = s[0] == 'i' ? ptoc_type_index(p->ctx) : ptoc_type_none(p->ctx);
        ptoc_parser_advance(p);
        return !p->failed;
    } else if (keyword_is(s, len, "memref")) {
        kind = PTOC_TYPE_MEMREF;
    } else if (keyword_is(s, len, "vector")) {
        kind = PTOC_TYPE_VECTOR;
    } else if (keyword_is(s, len, "tensor")) {
        kind = PTOC_TYPE_TENSOR;
    } else {
        return ptoc_parser_error(p, "unknown type '%.*s'", (int)len, s);
    }
    ptoc_parser_advance(p);
    return parse_shaped(p, kind, out);
}

/* ---------------------------------------------------------------- dialect types */

/* `!alias`, `!dialect.mnemonic...` and `!dialect<...>`: what parse_dialect_sym
 * needs to know about types. */
static void *type_hook(const ptoc_dialect *d, ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed)
{
    return d->parse_type(p, mnemonic, enclosed);
}

static bool has_type_hook(const ptoc_dialect *d) { return d->parse_type != NULL; }

static void *opaque_type(ptoc_context *ctx, ptoc_ident *dialect, ptoc_ident *body)
{
    return ptoc_type_opaque(ctx, dialect, body);
}

static const ptoc_sym_kind type_sym = {
    '!', "type", offsetof(ptoc_parser, type_aliases), has_type_hook, type_hook, opaque_type,
};

static bool parse_bang_type(ptoc_parser *p, ptoc_type **out)
{
    void *t = NULL;
    bool ok = ptoc_parse_dialect_sym(p, &type_sym, &t);
    *out = t;
    return ok;
}

/* ---------------------------------------------------------------- entry */

bool ptoc_parse_type(ptoc_parser *p, ptoc_type **out)
{
    if (p->failed)
        return false;
    if (p->tok.kind == TOK_LPAREN)
        return ptoc_parse_function_type(p, out);
    if (p->tok.kind != TOK_BANG_ID && p->tok.kind != TOK_BARE_ID)
        return ptoc_parser_expected(p, "type");
    if (!ptoc_parser_enter(p))
        return false;
    bool ok = p->tok.kind == TOK_BANG_ID ? parse_bang_type(p, out) : parse_keyword_type(p, out);
    ptoc_parser_leave(p);
    return ok;
}

bool ptoc_parse_optional_type(ptoc_parser *p, ptoc_type **out)
{
    if (!ptoc_parser_is_type_start(p))
        return false;
    return ptoc_parse_type(p, out);
}
