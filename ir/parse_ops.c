/* parse_ops.c: operations, regions, blocks and SSA names.
 *
 * An op is `[results =] (custom-name ... | "generic.name"(...) ...) [loc(...)]`.
 * Custom forms go to the op def's parse hook; the generic form is parsed here.
 * In assembly input (ptoc_parse_options.assembly) a name found nowhere else is
 * tried as an op of the assembly dialect, read by its def's parse_asm hook.
 * A custom form may also change a value in place: the value's name then
 * stands for the new op's result (ptoc_parser_rebind_to_result).
 *
 * SSA names live in isolated scopes (one for the top level and one per region of
 * an op whose def is ISOLATED), each a hash map from name to entry. A name
 * defined in a region is hidden again when the region ends (its entry goes back
 * to ABSENT). A use before the definition creates a placeholder value of the use's
 * type; the definition replaces all its uses. Placeholders still unresolved when
 * their isolated scope ends are "use of undeclared SSA value name".
 */
#include "ir/syntax_internal.h"

#include <string.h>

/* ---------------------------------------------------------------- SSA scopes */

void ptoc_parser_push_isolated(ptoc_parser *p)
{
    ptoc_ssa_scope *s = PTOC_NEW(p->scratch, ptoc_ssa_scope);
    ptoc_ptrmap_init(&s->names, p->ctx);
    ssa_entry_varr_init_arena(&s->fwd, p->scratch);
    s->outer = p->scope;
    p->scope = s;
}

/* Ends the innermost isolated scope; any name still only forward-referenced is
 * an error at its first use. */
bool ptoc_parser_pop_isolated(ptoc_parser *p)
{
    ptoc_ssa_scope *s = p->scope;
    bool ok = true;
    if (s->unresolved && !p->failed) {
        for (uint32_t i = 0; i < s->fwd.len; i++)
            if (s->fwd.data[i]->state == SSA_FORWARD) {
                ptoc_parser_error_at(p, s->fwd.data[i]->fwd_loc, "use of undeclared SSA value name");
                break;
            }
        ok = false;
    }
    ptoc_ptrmap_free(&s->names);
    p->scope = s->outer;
    return ok && !p->failed;
}

static ptoc_ssa_entry *ssa_entry(ptoc_parser *p, ptoc_ident *name)
{
    ptoc_ssa_entry *e = ptoc_ptrmap_get(&p->scope->names, name);
    if (!e) {
        e = PTOC_NEW(p->scratch, ptoc_ssa_entry);
        e->name = name;
        ptoc_ptrmap_put(&p->scope->names, name, e);
    }
    return e;
}

static void remember_forward(ptoc_parser *p, ptoc_ssa_entry *e)
{
    ptoc_ssa_scope *s = p->scope;
    ssa_entry_varr_push(&s->fwd, e);
    s->unresolved++;
}

static void remember_def(ptoc_parser *p, ptoc_ssa_entry *e)
{
    ssa_entry_varr_push(&p->defs, e);
}

static bool type_mismatch(ptoc_parser *p, ptoc_loc at, const ptoc_operand_ref *ref, ptoc_type *want,
                          ptoc_type *have)
{
    ptoc_strbuf a, b;
    ptoc_strbuf_init(&a, p->ctx);
    ptoc_strbuf_init(&b, p->ctx);
    ptoc_parser_error_at(p, at, "use of value '%%%s' expects different type than prior uses: '%s' vs '%s'",
                         ref->name->str, ptoc_syntax_type_str(p->ctx, &a, want),
                         ptoc_syntax_type_str(p->ctx, &b, have));
    ptoc_strbuf_free(&a);
    ptoc_strbuf_free(&b);
    return false;
}

/* A forward reference used a type the definition does not have (MLIR's wording). */
static bool forward_type_mismatch(ptoc_parser *p, ptoc_loc def_loc, ptoc_ident *name, uint32_t i,
                                  const ptoc_value *ph, ptoc_type *have)
{
    ptoc_strbuf a, b;
    ptoc_strbuf_init(&a, p->ctx);
    ptoc_strbuf_init(&b, p->ctx);
    if (!p->failed) {
        ptoc_diag *d = ptoc_parser_diag_at(p, def_loc, "definition of SSA value '%%%s#%u' has type '%s'",
                                           name->str, i, ptoc_syntax_type_str(p->ctx, &a, have));
        ptoc_diag_note(d, ph->loc, "previously used here with type '%s'",
                       ptoc_syntax_type_str(p->ctx, &b, ph->type));
        ptoc_diag_report(d);
    }
    ptoc_strbuf_free(&a);
    ptoc_strbuf_free(&b);
    return false;
}

/* The placeholder for result `number` of a forward-referenced name. */
static ptoc_value *forward_value(ptoc_parser *p, ptoc_ssa_entry *e, const ptoc_operand_ref *ref, ptoc_type *t)
{
    if (ref->number >= e->nfwd) {
        /* The slots from nfwd on are NULL: scratch memory starts zeroed and
         * nothing wrote there. */
        uint32_t n = ref->number + 1;
        e->fwd = ptoc_varr_grow(NULL, p->scratch, e->fwd, e->nfwd, &e->fwd_cap, n, sizeof *e->fwd,
                                _Alignof(ptoc_value *));
        e->nfwd = n;
    }
    ptoc_value *v = e->fwd[ref->number];
    if (!v) {
        v = PTOC_NEW(p->arena, ptoc_value);
        v->type = t;
        v->kind = PTOC_VALUE_RESULT;
        v->loc = ref->loc;
        e->fwd[ref->number] = v;
    }
    return v;
}

bool ptoc_parse_resolve(ptoc_parser *p, const ptoc_operand_ref *ref, ptoc_type *t, ptoc_value **out)
{
    if (p->failed)
        return false;
    ptoc_ssa_entry *e = ssa_entry(p, ref->name);
    ptoc_value *v;
    if (e->state == SSA_DEFINED) {
        if (ref->number >= e->n)
            return ptoc_parser_error_at(p, ref->loc, "reference to invalid result number");
        v = e->first + ref->number;
    } else {
        if (e->state == SSA_ABSENT) {
            e->state = SSA_FORWARD;
            e->fwd = NULL;              /* a name out of scope again: none of its old placeholders */
            e->nfwd = e->fwd_cap = 0;
            e->fwd_loc = ref->loc;
            remember_forward(p, e);
        }
        v = forward_value(p, e, ref, t);
    }
    if (v->type != t)
        return type_mismatch(p, ref->loc, ref, t, v->type);
    *out = v;
    return true;
}

/* Binds `name` to values first[0..n) (results are contiguous). */
static bool ssa_define(ptoc_parser *p, ptoc_ident *name, ptoc_loc loc, ptoc_value *first, uint32_t n)
{
    ptoc_ssa_entry *e = ssa_entry(p, name);
    if (e->state == SSA_DEFINED) {
        ptoc_diag *d = ptoc_parser_diag_at(p, loc, "redefinition of SSA value '%%%s'", name->str);
        ptoc_diag_note(d, e->def_loc, "previously defined here");
        ptoc_diag_report(d);
        return false;
    }
    if (e->state == SSA_FORWARD) {
        for (uint32_t i = 0; i < e->nfwd; i++) {
            ptoc_value *ph = e->fwd[i];
            if (!ph)
                continue;
            if (i >= n)
                return ptoc_parser_error_at(p, ph->loc, "reference to invalid result number");
            if (ph->type != first[i].type)
                return forward_type_mismatch(p, loc, name, i, ph, first[i].type);
            ptoc_value_replace_all_uses(ph, &first[i]);
        }
        p->scope->unresolved--;
    }
    e->state = SSA_DEFINED;
    e->first = first;
    e->n = n;
    e->def_loc = loc;
    remember_def(p, e);
    return true;
}

/* ---------------------------------------------------------------- operands */

bool ptoc_parse_optional_operand(ptoc_parser *p, ptoc_operand_ref *out)
{
    if (!ptoc_parser_is(p, TOK_PERCENT_ID))
        return false;
    out->name = ptoc_parser_ident(p, p->tok.start + 1, p->tok.len - 1);
    out->loc = ptoc_parser_loc(p);
    out->number = 0;
    ptoc_parser_advance(p);
    /* `%x#1` is one name; a `#...` after a blank belongs to what follows (an
     * assembly statement's `#key=value`). */
    if (ptoc_parser_is(p, TOK_HASH_ID) && p->tok.start == p->prev_end) {
        const char *s = ptoc_parser_tok_text(p) + 1;
        uint64_t n = 0;
        for (size_t i = 0; i + 1 < p->tok.len; i++) {
            if (s[i] < '0' || s[i] > '9' || n > UINT32_MAX / 10)
                return ptoc_parser_error(p, "invalid SSA value result number");
            n = n * 10 + (uint64_t)(s[i] - '0');
        }
        if (n > UINT32_MAX - 1)
            return ptoc_parser_error(p, "invalid SSA value result number");
        out->number = (uint32_t)n;
        ptoc_parser_advance(p);
    }
    return !p->failed;
}

bool ptoc_parse_operand(ptoc_parser *p, ptoc_operand_ref *out)
{
    if (ptoc_parse_optional_operand(p, out))
        return true;
    return p->failed ? false : ptoc_parser_expected(p, "SSA operand");
}

PTOC_VARR_DEF(ptoc_operand_ref, operand_ref_vec)

bool ptoc_parse_operand_list(ptoc_parser *p, ptoc_operand_ref **out, uint32_t *n)
{
    operand_ref_vec refs;
    operand_ref_vec_init_arena(&refs, p->scratch);
    *out = NULL;
    *n = 0;
    if (p->failed)
        return false;
    if (p->tok.kind != TOK_PERCENT_ID)
        return true;
    do {
        if (!ptoc_parse_operand(p, operand_ref_vec_add(&refs)))
            return false;
    } while (ptoc_parser_consume(p, TOK_COMMA));
    *out = refs.data;
    *n = refs.len;
    return !p->failed;
}

ptoc_type *ptoc_parser_defined_type(ptoc_parser *p, const ptoc_operand_ref *ref)
{
    ptoc_ssa_entry *e = p->failed ? NULL : ptoc_ptrmap_get(&p->scope->names, ref->name);
    return e && e->state == SSA_DEFINED && ref->number < e->n ? e->first[ref->number].type : NULL;
}

bool ptoc_parse_resolve_list(ptoc_parser *p, const ptoc_operand_ref *refs, uint32_t n,
                             ptoc_type *const *types, uint32_t ntypes, ptoc_loc where,
                             ptoc_op_state *st)
{
    if (p->failed)
        return false;
    if (n != ntypes)
        return ptoc_parser_error_at(p, where, "%u operands present, but expected %u", n, ntypes);
    for (uint32_t i = 0; i < n; i++) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &refs[i], types[i], &v))
            return false;
        ptoc_state_add_operand(st, v);
    }
    return true;
}

bool ptoc_parse_region_arg(ptoc_parser *p, ptoc_region_arg *out, bool with_type)
{
    out->type = NULL;
    if (!ptoc_parse_operand(p, &out->ref))
        return false;
    out->loc = out->ref.loc;
    if (out->ref.number)
        return ptoc_parser_error_at(p, out->ref.loc, "expected a plain SSA name, not a result number");
    if (with_type) {
        if (!ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &out->type))
            return false;
        ptoc_ident *alias = NULL;
        if (!ptoc_parse_optional_location(p, &out->loc, &alias))
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------- regions */

/* Ops whose regions default op names to a dialect (MLIR's getDefaultDialect). */
static const struct { const char *op; const char *dialect; } default_dialects[] = {
    { "func.func", "func" },
};

static const char *default_dialect_of(const ptoc_op_def *def)
{
    for (size_t i = 0; def && i < sizeof default_dialects / sizeof default_dialects[0]; i++)
        if (strcmp(def->name, default_dialects[i].op) == 0)
            return default_dialects[i].dialect;
    return "";
}

static bool define_block_arg(ptoc_parser *p, ptoc_block *b, const ptoc_region_arg *a)
{
    if (!a->type)
        return ptoc_parser_error_at(p, a->loc, "region argument '%%%s' has no type", a->ref.name->str);
    ptoc_value *v = ptoc_block_add_arg(b, p->arena, a->type, a->loc);
    return ssa_define(p, a->ref.name, a->ref.loc, v, 1);
}

/* `^name [(args)] :` */
static bool parse_block_label(ptoc_parser *p, ptoc_block *b, uintptr_t serial)
{
    ptoc_ident *name = ptoc_parser_ident(p, p->tok.start + 1, p->tok.len - 1);
    if ((uintptr_t)ptoc_ptrmap_get(&p->blocks, name) == serial)
        return ptoc_parser_error(p, "redefinition of block '^%s'", name->str);
    ptoc_ptrmap_put(&p->blocks, name, (void *)serial);
    ptoc_parser_advance(p);
    if (ptoc_parse_optional(p, "(") && !ptoc_parse_optional(p, ")")) {
        do {
            ptoc_region_arg a;
            if (!ptoc_parse_region_arg(p, &a, true) || !define_block_arg(p, b, &a))
                return false;
        } while (ptoc_parse_optional(p, ","));
        if (!ptoc_parse_expect(p, ")"))
            return false;
    }
    return ptoc_parse_expect(p, ":");
}

static bool parse_block_ops(ptoc_parser *p, ptoc_block *b)
{
    ptoc_block *saved = p->block;
    p->block = b;
    while (!p->failed && p->tok.kind != TOK_RBRACE && p->tok.kind != TOK_CARET_ID) {
        if (p->tok.kind == TOK_EOF)
            return ptoc_parser_expected(p, "'}' to end the region");
        ptoc_parse_operation(p);
    }
    p->block = saved;
    return !p->failed;
}

static bool parse_region_body(ptoc_parser *p, ptoc_region *r, const ptoc_region_arg *args, uint32_t nargs)
{
    uintptr_t serial = ++p->region_serial;
    if (p->tok.kind == TOK_RBRACE && nargs == 0)
        return true;
    ptoc_block *b = ptoc_block_create(p->arena);
    ptoc_region_append(r, b);
    for (uint32_t i = 0; i < nargs; i++)
        if (!define_block_arg(p, b, &args[i]))
            return false;
    if (p->tok.kind == TOK_CARET_ID) {
        if (nargs)
            return ptoc_parser_error(p, "invalid block name in region with named arguments");
        if (!parse_block_label(p, b, serial))
            return false;
    }
    if (!parse_block_ops(p, b))
        return false;
    while (ptoc_parser_is(p, TOK_CARET_ID)) {
        b = ptoc_block_create(p->arena);
        ptoc_region_append(r, b);
        if (!parse_block_label(p, b, serial) || !parse_block_ops(p, b))
            return false;
    }
    return !p->failed;
}

static const ptoc_op_def *def_by_name(ptoc_context *ctx, const char *name)
{
    const ptoc_op_def *d = ptoc_context_op_def(ctx, name, strlen(name));
    return d ? d : ptoc_context_unregistered_op(ctx, name, strlen(name));
}

/* MLIR's ensureTerminator: every block ends with a terminator (an unregistered
 * op might be one, so it counts). */
static void add_terminators(ptoc_parser *p, ptoc_region *r, const char *name, ptoc_loc loc)
{
    const ptoc_op_def *def = def_by_name(p->ctx, name);
    if (!r->first)
        ptoc_region_append(r, ptoc_block_create(p->arena));
    for (ptoc_block *b = r->first; b; b = b->next) {
        if (b->last && (b->last->def->flags & (PTOC_OPF_TERMINATOR | PTOC_OPF_UNREGISTERED)))
            continue;
        ptoc_op_state st;
        ptoc_state_init(&st, p->arena, def, loc);
        ptoc_block_append(b, ptoc_op_create(p->arena, &st));
    }
}

bool ptoc_parser_peek_region(ptoc_parser *p) { return ptoc_parser_is(p, TOK_LBRACE); }

bool ptoc_parse_region(ptoc_parser *p, ptoc_region *r, const ptoc_region_arg *args,
                       uint32_t nargs, const char *add_implicit)
{
    if (!ptoc_parse_expect(p, "{") || !ptoc_parser_enter(p))
        return false;
    bool isolated = p->cur_def && (p->cur_def->flags & PTOC_OPF_ISOLATED);
    uint32_t defs_mark = p->defs.len;
    const char *saved_dialect = p->default_dialect;
    const ptoc_op_def *saved_def = p->cur_def;
    if (isolated)
        ptoc_parser_push_isolated(p);
    p->default_dialect = default_dialect_of(p->cur_def);

    bool ok = parse_region_body(p, r, args, nargs);
    ptoc_loc end = ptoc_parser_loc(p);
    ok = ok && ptoc_parse_expect(p, "}");
    if (ok && add_implicit)
        add_terminators(p, r, add_implicit, end);

    /* Names defined in the region are not visible after it. */
    for (uint32_t i = defs_mark; i < p->defs.len; i++)
        p->defs.data[i]->state = SSA_ABSENT;
    p->defs.len = defs_mark;
    if (isolated)
        ok = ptoc_parser_pop_isolated(p) && ok;
    p->default_dialect = saved_dialect;
    p->cur_def = saved_def;
    ptoc_parser_leave(p);
    return ok && !p->failed;
}

/* ---------------------------------------------------------------- generic form */

static bool parse_regions_list(ptoc_parser *p, ptoc_op_state *st)
{
    do {
        if (!ptoc_parse_region(p, ptoc_state_add_region(st), NULL, 0, NULL))
            return false;
    } while (ptoc_parse_optional(p, ","));
    return ptoc_parse_expect(p, ")");
}

bool ptoc_parse_generic_op_body(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref *refs;
    uint32_t nrefs;
    if (!ptoc_parse_expect(p, "(") || !ptoc_parse_operand_list(p, &refs, &nrefs) ||
        !ptoc_parse_expect(p, ")"))
        return false;
    if (ptoc_parser_is(p, TOK_LSQUARE))
        return ptoc_parser_error(p, "block successors are not supported");
    if (ptoc_parse_optional(p, "<")) {
        if (!ptoc_parser_is(p, TOK_LBRACE))
            return p->failed ? false : ptoc_parser_expected(p, "'{' to start the properties");
        if (!ptoc_parse_optional_attr_dict(p, st) || !ptoc_parse_expect(p, ">"))
            return false;
    }
    if (ptoc_parse_optional(p, "(") && !parse_regions_list(p, st))
        return false;
    if (!ptoc_parse_optional_attr_dict(p, st) || !ptoc_parse_expect(p, ":"))
        return false;
    ptoc_loc type_loc = ptoc_parser_loc(p);
    ptoc_type *fn;
    if (!ptoc_parse_function_type(p, &fn))
        return false;
    if (fn->u.func.ninputs != nrefs)
        return ptoc_parser_error_at(p, type_loc, "expected %u operand type%s but had %u", nrefs,
                                    nrefs == 1 ? "" : "s", fn->u.func.ninputs);
    if (!ptoc_parse_resolve_list(p, refs, nrefs, fn->u.func.inputs, fn->u.func.ninputs, type_loc, st))
        return false;
    for (uint32_t i = 0; i < fn->u.func.nresults; i++)
        ptoc_state_add_result(st, fn->u.func.results[i]);
    return true;
}

/* ---------------------------------------------------------------- operations */

typedef struct result_name {
    ptoc_ident *name;
    uint32_t count;
    ptoc_loc loc;
} result_name;
PTOC_VARR_DEF(result_name, result_name_vec)

/* `%a, %b:2 =` */
static bool parse_result_names(ptoc_parser *p, result_name **out, uint32_t *nnames, uint32_t *total)
{
    result_name_vec names;
    result_name_vec_init_arena(&names, p->scratch);
    *total = 0;
    do {
        if (!ptoc_parser_is(p, TOK_PERCENT_ID))
            return p->failed ? false : ptoc_parser_expected(p, "SSA result name");
        result_name *r = result_name_vec_add(&names);
        r->name = ptoc_parser_ident(p, p->tok.start + 1, p->tok.len - 1);
        r->loc = ptoc_parser_loc(p);
        r->count = 1;
        ptoc_parser_advance(p);
        if (ptoc_parse_optional(p, ":")) {
            int64_t c;
            ptoc_loc count_loc = ptoc_parser_loc(p);
            if (!ptoc_parser_is(p, TOK_INTEGER))
                return p->failed ? false : ptoc_parser_expected(p, "integer number of results");
            if (!ptoc_parse_integer(p, &c) || c < 1 || c > 65536)   /* at the count, not after it */
                return p->failed ? false
                                 : ptoc_parser_error_at(p, count_loc, "expected integer number of results");
            r->count = (uint32_t)c;
        }
        *total += r->count;
    } while (ptoc_parse_optional(p, ","));
    *out = names.data;
    *nnames = names.len;
    return ptoc_parse_expect(p, "=");
}

static const ptoc_op_def *generic_def(ptoc_parser *p, const char *name, size_t len, ptoc_loc loc)
{
    const ptoc_op_def *def = ptoc_context_op_def(p->ctx, name, len);
    if (def)
        return def;
    const char *dot = memchr(name, '.', len);
    size_t dlen = dot ? (size_t)(dot - name) : len;
    if (dot && ptoc_context_dialect(p->ctx, name, dlen)) {
        ptoc_parser_error_at(p, loc, "unregistered operation '%s' found in dialect ('%.*s') that does "
                             "not allow unknown operations", name, (int)dlen, name);
        return NULL;
    }
    if (!ptoc_context_allows_unregistered(p->ctx)) {
        ptoc_parser_error_at(p, loc, "operation '%s' of unregistered dialect '%.*s' (use "
                             "--allow-unregistered-dialect)", name, (int)dlen, name);
        return NULL;
    }
    return ptoc_context_unregistered_op(p->ctx, name, len);
}

static bool parse_generic_op(ptoc_parser *p, ptoc_op_state *st, ptoc_loc loc, uint32_t nresults)
{
    ptoc_parser_unescape(p, &p->tok, 0);
    if (p->text.len == 0 || memchr(p->text.data, '\0', p->text.len))
        return ptoc_parser_error(p, "invalid operation name");
    ptoc_ident *name = ptoc_ident_get(p->ctx, p->text.data, p->text.len);
    const ptoc_op_def *def = generic_def(p, name->str, name->len, loc);
    if (!def)
        return false;
    ptoc_parser_advance(p);
    ptoc_state_init(st, p->arena, def, loc);
    st->nresults_expected = nresults;
    p->cur_def = def;
    return ptoc_parse_generic_op_body(p, st);
}

/* A custom op name: dotted names as written; `name` alone as builtin.name, then
 * in the default dialect of the enclosing op. */
static const ptoc_op_def *custom_def(ptoc_parser *p, const char *name, size_t len)
{
    if (memchr(name, '.', len))
        return ptoc_context_op_def(p->ctx, name, len);
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, p->ctx);
    ptoc_strbuf_printf(&sb, "builtin.%.*s", (int)len, name);
    const ptoc_op_def *def = ptoc_context_op_def(p->ctx, sb.data, sb.len);
    if (!def && *p->default_dialect) {
        sb.len = 0;
        ptoc_strbuf_printf(&sb, "%s.%.*s", p->default_dialect, (int)len, name);
        def = ptoc_context_op_def(p->ctx, sb.data, sb.len);
    }
    ptoc_strbuf_free(&sb);
    return def;
}

/* The op an assembly statement `name` stands for: asm_dialect.name, if that op
 * has an assembly form. */
static const ptoc_op_def *asm_def(ptoc_parser *p, const char *name, size_t len)
{
    if (!p->asm_dialect)
        return NULL;
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, p->ctx);
    ptoc_strbuf_printf(&sb, "%s.%.*s", p->asm_dialect, (int)len, name);
    const ptoc_op_def *def = ptoc_context_op_def(p->ctx, sb.data, sb.len);
    ptoc_strbuf_free(&sb);
    return def && def->parse_asm ? def : NULL;
}

/* The def of a custom op name and the hook that reads its form: the op's own
 * custom form, else (assembly input) its assembly statement. */
static const ptoc_op_def *custom_form(ptoc_parser *p, const char *name, size_t len,
                                      bool (**parse)(ptoc_parser *, ptoc_op_state *))
{
    const ptoc_op_def *def = custom_def(p, name, len);
    if (def && def->parse) {
        *parse = def->parse;
        return def;
    }
    const ptoc_op_def *stmt = def ? NULL : asm_def(p, name, len);
    if (stmt && p->assembly) {
        *parse = stmt->parse_asm;
        return stmt;
    }
    if (stmt)
        ptoc_parser_error(p, "custom op '%.*s' is unknown; it is the assembly statement of '%s'%s%s", (int)len,
                          name, stmt->name, p->asm_hint ? ", which needs " : "", p->asm_hint ? p->asm_hint : "");
    else
        ptoc_parser_error(p, "custom op '%.*s' is unknown", (int)len, name);
    return NULL;
}

static bool parse_custom_op(ptoc_parser *p, ptoc_op_state *st, ptoc_loc loc, uint32_t nresults)
{
    bool (*parse)(ptoc_parser *, ptoc_op_state *) = NULL;
    const ptoc_op_def *def = custom_form(p, ptoc_parser_tok_text(p), p->tok.len, &parse);
    if (!def)
        return false;
    ptoc_parser_advance(p);
    ptoc_state_init(st, p->arena, def, loc);
    st->nresults_expected = nresults;
    p->cur_def = def;
    if (parse(p, st))
        return !p->failed;
    return p->failed ? false : ptoc_parser_error_at(p, loc, "failed to parse '%s'", def->name);
}

bool ptoc_parser_rebind_to_result(ptoc_parser *p, const ptoc_operand_ref *ref)
{
    ptoc_ssa_entry *e = p->failed ? NULL : ptoc_ptrmap_get(&p->scope->names, ref->name);
    if (p->failed)
        return false;
    if (!e || e->state != SSA_DEFINED || ref->number >= e->n || e->n != 1)
        return ptoc_parser_error_at(p, ref->loc, "'%%%s' must be defined before it is changed in place",
                                    ref->name->str);
    if (ptoc_value_block(e->first) != p->block)
        return ptoc_parser_error_at(p, ref->loc, "'%%%s' is changed in place here, so this op must be in the block "
                                    "that defines it (name the result to use it elsewhere)", ref->name->str);
    p->rebind = ref->name;
    return true;
}

ptoc_op *ptoc_parser_insert_op(ptoc_parser *p, const ptoc_op_state *st)
{
    ptoc_op *op = ptoc_op_create(p->arena, st);
    ptoc_block_append(p->block, op);
    return op;
}

/* After ptoc_parser_rebind_to_result: the name now stands for op's result. */
static void apply_rebind(ptoc_parser *p, ptoc_op *op)
{
    ptoc_ssa_entry *e = ptoc_ptrmap_get(&p->scope->names, p->rebind);
    p->rebind = NULL;
    if (e && op->nresults == 1) {
        e->first = &op->results[0];
        e->def_loc = op->loc;
    }
}

static bool bind_results(ptoc_parser *p, ptoc_op *op, const result_name *names, uint32_t nnames)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < nnames; i++) {
        if (!ssa_define(p, names[i].name, names[i].loc, &op->results[k], names[i].count))
            return false;
        k += names[i].count;
    }
    return true;
}

bool ptoc_parse_operation(ptoc_parser *p)
{
    result_name *names = NULL;
    uint32_t nnames = 0, nresults = 0;
    if (p->tok.kind == TOK_PERCENT_ID && !parse_result_names(p, &names, &nnames, &nresults))
        return false;
    ptoc_loc loc = ptoc_parser_loc(p);
    const ptoc_op_def *saved_def = p->cur_def;
    ptoc_op_state st;
    bool ok;
    if (ptoc_parser_is(p, TOK_STRING))
        ok = parse_generic_op(p, &st, loc, nresults);
    else if (ptoc_parser_is(p, TOK_BARE_ID))
        ok = parse_custom_op(p, &st, loc, nresults);
    else
        ok = p->failed ? false : ptoc_parser_expected(p, "operation name");
    p->cur_def = saved_def;
    ptoc_ident *alias = NULL;
    ptoc_loc alias_use = ptoc_parser_loc(p);
    if (!ok || !ptoc_parse_optional_location(p, &st.loc, &alias))
        return false;
    if (nnames && nresults != st.nresult_types)
        return ptoc_parser_error_at(p, loc, "operation defines %u results but was provided %u to bind",
                                    st.nresult_types, nresults);
    ptoc_op *op = ptoc_op_create(p->arena, &st);
    ptoc_block_append(p->block, op);
    if (alias)
        ptoc_parser_add_fixup(p, &op->loc, alias, alias_use);
    if (p->rebind)
        apply_rebind(p, op);
    return bind_results(p, op, names, nnames);
}
