/* parse_attrs.c: builtin attributes, attribute dictionaries and locations.
 *
 * Attributes: unit, true/false, integers and floats with an optional `: type`,
 * strings, types, arrays, dictionaries, symbol references, dense arrays
 * (`array<i32: 1, 2>`), `#alias`, dialect attributes through the dialect's hook
 * (or opaque text for unregistered dialects), and the builtin forms ptoc keeps as
 * text (`dense<...>`, `strided<...>`, `affine_map<...>`, `affine_set<...>`),
 * stored as opaque attributes of dialect "builtin" and printed back verbatim.
 *
 * Locations are not attributes: `loc(...)` is parsed here into a plain
 * file:line:col (the first one found in a composite location), or unknown.
 */
#include "ir/syntax_internal.h"

#include <stdlib.h>
#include <string.h>

/* Builtin attributes kept as text; `typed` ones take a trailing `: type`. */
static const struct { const char *keyword; bool typed; } raw_builtins[] = {
    { "dense", true }, { "dense_resource", true }, { "sparse", true },
    { "strided", false }, { "affine_map", false }, { "affine_set", false },
};

/* Lists being parsed grow in the parser's scratch arena. */
PTOC_VARR_DEF(ptoc_attr *, attr_vec)
PTOC_VARR_DEF(ptoc_ident *, ident_vec)
PTOC_VARR_DEF(ptoc_named_attr, named_attr_vec)

static bool tok_is_word(const ptoc_parser *p, const char *w)
{
    return p->tok.kind == TOK_BARE_ID && p->tok.len == strlen(w) &&
           memcmp(ptoc_parser_tok_text(p), w, p->tok.len) == 0;
}

/* ---------------------------------------------------------------- numbers */

/* Does magnitude `mag` (negated if `neg`) fit integer type `t`? Signless types
 * take both the signed and the unsigned range, as MLIR does. The value is
 * returned sign-extended (signless, signed) or zero-extended (unsigned). */
static bool int_fits(const ptoc_type *t, bool neg, uint64_t mag, int64_t *value)
{
    uint32_t w = t->kind == PTOC_TYPE_INDEX ? 64 : t->u.integer.width;
    ptoc_signedness sign = t->kind == PTOC_TYPE_INDEX ? PTOC_SIGNLESS : t->u.integer.sign;
    if (w > 64)
        w = 64;
    uint64_t umax = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    uint64_t smin = UINT64_C(1) << (w - 1);            /* magnitude of the most negative */
    if (neg) {
        if (sign == PTOC_UNSIGNED ? mag != 0 : mag > smin)
            return false;
        *value = (int64_t)(0 - mag);
        return true;
    }
    if (mag > (sign == PTOC_SIGNED ? smin - 1 : umax))
        return false;
    if (sign != PTOC_UNSIGNED && w < 64 && (mag & smin))
        mag |= ~umax;                                  /* sign-extend from w bits */
    *value = (int64_t)mag;
    return true;
}

static bool float_from_hex(ptoc_parser *p, ptoc_loc loc, ptoc_type *t, bool neg, uint64_t bits,
                           ptoc_attr **out)
{
    uint32_t w = ptoc_float_kind_width(t->u.fp.kind);
    if (neg)
        return ptoc_parser_error_at(p, loc,
                                    "hexadecimal float literal should not have a leading minus");
    if (w < 64 && (bits >> w) != 0)
        return ptoc_parser_error_at(p, loc, "hexadecimal float constant out of range for type");
    *out = ptoc_attr_float(p->ctx, t, ptoc_float_from_bits(t->u.fp.kind, bits));
    return true;
}

static bool parse_number(ptoc_parser *p, ptoc_attr **out)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    bool neg = ptoc_parser_consume(p, TOK_MINUS);
    ptoc_token num = p->tok;
    bool is_float = num.kind == TOK_FLOAT;
    bool is_hex = num.len > 2 && p->lx.buf[num.start + 1] == 'x';
    double fv = 0;
    uint64_t mag = 0;
    if (num.kind != TOK_INTEGER && !is_float)
        return p->failed ? false : ptoc_parser_expected(p, "integer or floating point literal");
    if (is_float) {
        p->text.len = 0;
        ptoc_strbuf_append(&p->text, ptoc_parser_tok_text(p), num.len);
        fv = strtod(ptoc_strbuf_cstr(&p->text), NULL);
        fv = neg ? -fv : fv;
    } else if (!ptoc_parser_int_value(p, &mag)) {
        return false;
    }
    ptoc_parser_advance(p);
    ptoc_type *t = is_float ? ptoc_type_float(p->ctx, PTOC_F64) : ptoc_type_int(p->ctx, 64, PTOC_SIGNLESS);
    if (ptoc_parse_optional(p, ":") && !ptoc_parse_type(p, &t))
        return false;
    if (p->failed)
        return false;
    if (ptoc_type_is_float(t)) {
        if (is_float) {
            *out = ptoc_attr_float(p->ctx, t, fv);
            return true;
        }
        if (!is_hex)
            return ptoc_parser_error_at(p, loc, "unexpected decimal integer literal for a floating point value");
        return float_from_hex(p, loc, t, neg, mag, out);
    }
    if (!ptoc_type_is_int_or_index(t))
        return ptoc_parser_error_at(p, loc, "%s literal not valid for the specified type",
                                    is_float ? "floating point" : "integer");
    if (is_float)
        return ptoc_parser_error_at(p, loc, "floating point value not valid for specified type");
    int64_t v;
    if (!int_fits(t, neg, mag, &v))
        return ptoc_parser_error_at(p, loc, "integer constant out of range for attribute");
    *out = ptoc_attr_int(p->ctx, t, v);
    return true;
}

/* ---------------------------------------------------------------- aggregates */

static bool parse_array(ptoc_parser *p, ptoc_attr **out)
{
    attr_vec v;
    attr_vec_init_arena(&v, p->scratch);
    ptoc_parser_advance(p);
    if (!ptoc_parse_optional(p, "]")) {
        do {
            ptoc_attr *a;
            if (!ptoc_parse_attr(p, &a))
                return false;
            attr_vec_push(&v, a);
        } while (ptoc_parse_optional(p, ","));
        if (!ptoc_parse_expect(p, "]"))
            return false;
    }
    *out = ptoc_attr_array(p->ctx, v.len, v.data);
    return true;
}

/* One `name [= attr]` entry of a dictionary; names are bare or quoted. */
static bool parse_dict_entry(ptoc_parser *p, ptoc_named_attr *e)
{
    if (ptoc_parser_is(p, TOK_STRING)) {
        if (!ptoc_parse_string(p, &e->name))
            return false;
    } else if (!ptoc_parse_keyword(p, &e->name, "attribute name")) {
        return false;
    }
    if (e->name->len == 0)
        return ptoc_parser_error(p, "expected valid attribute name");
    if (!ptoc_parse_optional(p, "=")) {
        e->value = ptoc_attr_unit(p->ctx);
        return !p->failed;
    }
    return ptoc_parse_attr(p, &e->value);
}

/* `{ entries }` calling `add` for each; duplicates are found with a map. */
typedef bool (*entry_fn)(ptoc_parser *p, void *user, ptoc_named_attr *e, ptoc_loc at);

static bool parse_dict_entries(ptoc_parser *p, entry_fn add, void *user)
{
    if (!ptoc_parse_expect(p, "{"))
        return false;
    if (ptoc_parse_optional(p, "}"))
        return true;
    do {
        ptoc_named_attr e;
        ptoc_loc at = ptoc_parser_loc(p);
        if (!parse_dict_entry(p, &e) || !add(p, user, &e, at))
            return false;
    } while (ptoc_parse_optional(p, ","));
    return ptoc_parse_expect(p, "}");
}

typedef struct dict_builder {
    named_attr_vec items;
    ptoc_ptrmap seen;
} dict_builder;

static bool dict_add(ptoc_parser *p, void *user, ptoc_named_attr *e, ptoc_loc at)
{
    dict_builder *d = user;
    if (ptoc_ptrmap_get(&d->seen, e->name))
        return ptoc_parser_error_at(p, at, "duplicate key '%s' in dictionary attribute", e->name->str);
    ptoc_ptrmap_put(&d->seen, e->name, e->name);
    named_attr_vec_push(&d->items, *e);
    return true;
}

static bool parse_dict(ptoc_parser *p, ptoc_attr **out)
{
    dict_builder d;
    named_attr_vec_init_arena(&d.items, p->scratch);
    ptoc_ptrmap_init(&d.seen, p->ctx);
    bool ok = parse_dict_entries(p, dict_add, &d);
    ptoc_ptrmap_free(&d.seen);
    if (ok)
        *out = ptoc_attr_dict(p->ctx, d.items.len, d.items.data);
    return ok;
}

static bool state_add(ptoc_parser *p, void *user, ptoc_named_attr *e, ptoc_loc at)
{
    ptoc_op_state *st = user;
    if (ptoc_state_attr(st, e->name->str))
        return ptoc_parser_error_at(p, at, "attribute '%s' occurs more than once in the attribute list",
                                    e->name->str);
    ptoc_state_add_attr(st, e->name, e->value);
    return true;
}

bool ptoc_parse_optional_attr_dict(ptoc_parser *p, ptoc_op_state *st)
{
    if (p->failed)
        return false;
    if (p->tok.kind != TOK_LBRACE)
        return true;
    if (!ptoc_parser_enter(p))
        return false;
    bool ok = parse_dict_entries(p, state_add, st);
    ptoc_parser_leave(p);
    return ok;
}

bool ptoc_parse_optional_attr_dict_with_keyword(ptoc_parser *p, ptoc_op_state *st)
{
    if (!ptoc_parse_optional(p, "attributes"))
        return !p->failed;
    if (!ptoc_parser_is(p, TOK_LBRACE))
        return p->failed ? false : ptoc_parser_expected(p, "'{' after 'attributes'");
    return ptoc_parse_optional_attr_dict(p, st);
}

static bool parse_symref(ptoc_parser *p, ptoc_attr **out)
{
    ptoc_ident *root, *name;
    ident_vec nested;
    ident_vec_init_arena(&nested, p->scratch);
    if (!ptoc_parse_symbol_name(p, &root))
        return false;
    while (ptoc_parse_optional(p, "::")) {
        if (!ptoc_parse_symbol_name(p, &name))
            return false;
        ident_vec_push(&nested, name);
    }
    *out = ptoc_attr_symref(p->ctx, root, nested.len, nested.data);
    return true;
}

/* One element of a dense array: an integer, true/false for i1, a float. */
static bool parse_dense_elem(ptoc_parser *p, ptoc_type *elem, int64_t *out)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    if (ptoc_type_is_float(elem)) {
        double d;
        if (!ptoc_parse_float(p, &d))
            return false;
        *out = (int64_t)ptoc_float_to_bits(elem->u.fp.kind, ptoc_float_round(elem->u.fp.kind, d));
        return true;
    }
    if (tok_is_word(p, "true") || tok_is_word(p, "false")) {
        *out = tok_is_word(p, "true") ? -1 : 0;
        ptoc_parser_advance(p);
        return !p->failed;
    }
    bool neg = ptoc_parser_consume(p, TOK_MINUS);
    uint64_t mag;
    if (!ptoc_parser_is(p, TOK_INTEGER))
        return p->failed ? false : ptoc_parser_expected(p, "integer value");
    if (!ptoc_parser_int_value(p, &mag))
        return false;
    ptoc_parser_advance(p);
    if (!int_fits(elem, neg, mag, out))
        return ptoc_parser_error_at(p, loc, "integer constant out of range for attribute");
    return !p->failed;
}

/* `array<T>` or `array<T: v, ...>`; the keyword is the current token. */
static bool parse_dense_array(ptoc_parser *p, ptoc_attr **out)
{
    ptoc_type *elem;
    ptoc_i64_varr vals;
    ptoc_i64_varr_init_arena(&vals, p->scratch);
    ptoc_parser_advance(p);
    if (!ptoc_parse_expect(p, "<") || !ptoc_parse_type(p, &elem))
        return false;
    if (!ptoc_type_is_int(elem) && !ptoc_type_is_float(elem))
        return ptoc_parser_error(p, "expected integer or float type in dense array");
    if (ptoc_parse_optional(p, ":")) {
        do {
            if (!parse_dense_elem(p, elem, ptoc_i64_varr_add(&vals)))
                return false;
        } while (ptoc_parse_optional(p, ","));
    }
    if (!ptoc_parse_expect(p, ">"))
        return false;
    *out = ptoc_attr_dense(p->ctx, elem, vals.len, vals.data);
    return true;
}

/* `dense<...> [: T]`, `strided<...>`, ... kept as text; a `: T` is kept as
 * the attribute's type too (arith.constant takes its result type from it). */
static bool parse_raw_builtin(ptoc_parser *p, size_t which, ptoc_attr **out)
{
    ptoc_ident *body;
    ptoc_type *t = NULL;
    const char *kw = raw_builtins[which].keyword;
    if (!ptoc_parser_raw_body(p, kw, strlen(kw), &body))
        return false;
    if (raw_builtins[which].typed && ptoc_parse_optional(p, ":")) {
        ptoc_strbuf sb;
        if (!ptoc_parse_type(p, &t))
            return false;
        ptoc_strbuf_init(&sb, p->ctx);
        ptoc_strbuf_printf(&sb, "%s : ", body->str);
        ptoc_print_type_to(&sb, t);
        body = ptoc_ident_get(p->ctx, sb.data, sb.len);
        ptoc_strbuf_free(&sb);
    }
    *out = ptoc_attr_opaque_typed(p->ctx, ptoc_ident_cstr(p->ctx, "builtin"), body, t);
    return true;
}

static bool parse_word_attr(ptoc_parser *p, ptoc_attr **out)
{
    if (tok_is_word(p, "true") || tok_is_word(p, "false")) {
        *out = ptoc_attr_bool(p->ctx, tok_is_word(p, "true"));
        ptoc_parser_advance(p);
        return !p->failed;
    }
    if (tok_is_word(p, "unit")) {
        *out = ptoc_attr_unit(p->ctx);
        ptoc_parser_advance(p);
        return !p->failed;
    }
    if (tok_is_word(p, "array"))
        return parse_dense_array(p, out);
    for (size_t i = 0; i < sizeof raw_builtins / sizeof raw_builtins[0]; i++)
        if (tok_is_word(p, raw_builtins[i].keyword))
            return parse_raw_builtin(p, i, out);
    if (ptoc_parser_is_type_keyword(ptoc_parser_tok_text(p), p->tok.len)) {
        ptoc_type *t;
        if (!ptoc_parse_type(p, &t))
            return false;
        *out = ptoc_attr_type(p->ctx, t);
        return true;
    }
    return ptoc_parser_expected(p, "attribute value");
}

/* ---------------------------------------------------------------- dialect attributes */

/* `#alias`, `#dialect.mnemonic...` and `#dialect<...>`: what parse_dialect_sym
 * needs to know about attributes. */
static void *attr_hook(const ptoc_dialect *d, ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed)
{
    return d->parse_attr(p, mnemonic, enclosed);
}

static bool has_attr_hook(const ptoc_dialect *d) { return d->parse_attr != NULL; }

static void *opaque_attr(ptoc_context *ctx, ptoc_ident *dialect, ptoc_ident *body)
{
    return ptoc_attr_opaque(ctx, dialect, body);
}

static const ptoc_sym_kind attr_sym = {
    '#', "attribute", offsetof(ptoc_parser, attr_aliases), has_attr_hook, attr_hook, opaque_attr,
};

static bool parse_hash_attr(ptoc_parser *p, ptoc_attr **out)
{
    void *a = NULL;
    bool ok = ptoc_parse_dialect_sym(p, &attr_sym, &a);
    *out = a;
    return ok;
}

/* ---------------------------------------------------------------- entry */

static bool is_attr_start(ptoc_parser *p)
{
    switch (p->tok.kind) {
    case TOK_LSQUARE: case TOK_LBRACE: case TOK_INTEGER: case TOK_FLOAT: case TOK_MINUS:
    case TOK_STRING: case TOK_AT_ID: case TOK_HASH_ID: case TOK_BANG_ID: case TOK_LPAREN:
        return true;
    case TOK_BARE_ID:
        if (tok_is_word(p, "true") || tok_is_word(p, "false") || tok_is_word(p, "unit") ||
            tok_is_word(p, "array"))
            return true;
        for (size_t i = 0; i < sizeof raw_builtins / sizeof raw_builtins[0]; i++)
            if (tok_is_word(p, raw_builtins[i].keyword))
                return true;
        return ptoc_parser_is_type_keyword(ptoc_parser_tok_text(p), p->tok.len);
    default:
        return false;
    }
}

static bool parse_attr_inner(ptoc_parser *p, ptoc_attr **out)
{
    ptoc_ident *s;
    ptoc_type *t;
    switch (p->tok.kind) {
    case TOK_LSQUARE: return parse_array(p, out);
    case TOK_LBRACE: return parse_dict(p, out);
    case TOK_INTEGER: case TOK_FLOAT: case TOK_MINUS: return parse_number(p, out);
    case TOK_AT_ID: return parse_symref(p, out);
    case TOK_HASH_ID: return parse_hash_attr(p, out);
    case TOK_BARE_ID: return parse_word_attr(p, out);
    case TOK_STRING:
        if (!ptoc_parse_string(p, &s))
            return false;
        *out = ptoc_attr_string(p->ctx, s->str, s->len);
        return true;
    case TOK_BANG_ID: case TOK_LPAREN:
        if (!ptoc_parse_type(p, &t))
            return false;
        *out = ptoc_attr_type(p->ctx, t);
        return true;
    default:
        return ptoc_parser_expected(p, "attribute value");
    }
}

bool ptoc_parse_attr(ptoc_parser *p, ptoc_attr **out)
{
    if (!ptoc_parser_enter(p))
        return false;
    bool ok = parse_attr_inner(p, out);
    ptoc_parser_leave(p);
    return ok && !p->failed;
}

bool ptoc_parse_optional_attr(ptoc_parser *p, ptoc_attr **out)
{
    if (p->failed || !is_attr_start(p))
        return false;
    return ptoc_parse_attr(p, out);
}

/* ---------------------------------------------------------------- locations */

bool ptoc_parser_is_loc(ptoc_parser *p) { return !p->failed && tok_is_word(p, "loc"); }

typedef struct loc_result {
    bool have;               /* a file:line:col was found */
    ptoc_loc loc;
    ptoc_ident *alias;       /* first undefined alias, when nothing was found before it */
} loc_result;

static bool parse_loc_inst(ptoc_parser *p, loc_result *r);

static bool parse_loc_uint(ptoc_parser *p, uint32_t *out)
{
    uint64_t v;
    if (!ptoc_parser_is(p, TOK_INTEGER))
        return p->failed ? false : ptoc_parser_expected(p, "integer in location");
    if (!ptoc_parser_int_value(p, &v))
        return false;
    if (v > UINT32_MAX)
        return ptoc_parser_error(p, "location line or column too large");
    *out = (uint32_t)v;
    ptoc_parser_advance(p);
    return !p->failed;
}

/* `"file":L:C`, `"name"` or `"name"(inner)` */
static bool parse_loc_string(ptoc_parser *p, loc_result *r)
{
    ptoc_ident *s;
    if (!ptoc_parse_string(p, &s))
        return false;
    if (ptoc_parse_optional(p, ":")) {
        ptoc_loc l = { s, 0, 0 };
        if (!parse_loc_uint(p, &l.line) || !ptoc_parse_expect(p, ":") || !parse_loc_uint(p, &l.col))
            return false;
        if (!r->have) {
            r->have = true;
            r->loc = l;
        }
        return true;
    }
    if (ptoc_parse_optional(p, "("))
        return parse_loc_inst(p, r) && ptoc_parse_expect(p, ")");
    return !p->failed;
}

static bool parse_loc_alias(ptoc_parser *p, loc_result *r)
{
    ptoc_ident *name = ptoc_parser_ident(p, p->tok.start + 1, p->tok.len - 1);
    const ptoc_loc *l = ptoc_ptrmap_get(&p->loc_aliases, name);
    if (!r->have && l && l->file) {
        r->have = true;
        r->loc = *l;
    } else if (!r->have && !l && !r->alias) {
        r->alias = name;
    }
    ptoc_parser_advance(p);
    return !p->failed;
}

static bool parse_loc_fused(ptoc_parser *p, loc_result *r)
{
    ptoc_attr *meta;
    if (ptoc_parse_optional(p, "<") && (!ptoc_parse_attr(p, &meta) || !ptoc_parse_expect(p, ">")))
        return false;
    if (!ptoc_parse_expect(p, "["))
        return false;
    if (ptoc_parse_optional(p, "]"))
        return true;
    do {
        if (!parse_loc_inst(p, r))
            return false;
    } while (ptoc_parse_optional(p, ","));
    return ptoc_parse_expect(p, "]");
}

static bool parse_loc_inst_inner(ptoc_parser *p, loc_result *r)
{
    if (ptoc_parse_optional(p, "unknown"))
        return true;
    if (ptoc_parse_optional(p, "callsite"))
        return ptoc_parse_expect(p, "(") && parse_loc_inst(p, r) && ptoc_parse_expect(p, "at") &&
               parse_loc_inst(p, r) && ptoc_parse_expect(p, ")");
    if (ptoc_parse_optional(p, "fused"))
        return parse_loc_fused(p, r);
    if (ptoc_parser_is(p, TOK_STRING))
        return parse_loc_string(p, r);
    if (ptoc_parser_is(p, TOK_HASH_ID))
        return parse_loc_alias(p, r);
    return p->failed ? false : ptoc_parser_expected(p, "location instance");
}

static bool parse_loc_inst(ptoc_parser *p, loc_result *r)
{
    if (!ptoc_parser_enter(p))
        return false;
    bool ok = parse_loc_inst_inner(p, r);
    ptoc_parser_leave(p);
    return ok;
}

bool ptoc_parse_optional_location(ptoc_parser *p, ptoc_loc *loc, ptoc_ident **alias)
{
    loc_result r = { false, { NULL, 0, 0 }, NULL };
    *alias = NULL;
    if (p->failed)
        return false;
    if (!ptoc_parser_is_loc(p))
        return true;
    ptoc_parser_advance(p);
    if (!ptoc_parse_expect(p, "(") || !parse_loc_inst(p, &r) || !ptoc_parse_expect(p, ")"))
        return false;
    if (r.have)
        *loc = r.loc;
    else if (r.alias)
        *alias = r.alias;
    else
        *loc = ptoc_loc_unknown();
    return true;
}

bool ptoc_parse_optional_trailing_loc(ptoc_parser *p, ptoc_loc *loc)
{
    ptoc_ident *alias;
    if (!ptoc_parser_is_loc(p))
        return false;
    if (!ptoc_parse_optional_location(p, loc, &alias))
        return false;
    if (alias)
        *loc = ptoc_loc_unknown();
    return true;
}
