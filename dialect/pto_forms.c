/* pto_forms.c: the custom forms of the pto ops PTOAS writes in its own syntax
 * rather than in the DPS form: pointers and scalars, handles on tiles
 * (bind_tile, subset, set_validshape, pointer_cast, declare_*), event-id
 * arrays, tgather's three forms and tmov's. The push/pop and async ops are in
 * pto_forms_pipe.c; both use the toolkit at the top of this file.
 *
 * Each form reads exactly what PTOAS's parser reads (its ODS assemblyFormat or
 * custom parser) and prints what PTOAS prints, and the op keeps PTOAS's
 * operands, attribute names and operandSegmentSizes, so the generic form is
 * the one PTOAS writes too. tgather alone keeps ptoc's DPS layout (ins ++ outs,
 * two segments; PTOAS stores src, dst, cdst, indices, tmp, kValue), which the
 * passes read. tmov keeps PTOAS's operands (src, dst, fp, preQuantScalar); the
 * passes' own copies are the same with two segments of one.
 *
 *   %q = pto.addptr %p, %off : <f32> -> <f32>
 *   %v = pto.load_scalar %p[%off] : !pto.ptr<f32> -> f32
 *   pto.store_scalar %v, %p[%off] : !pto.ptr<f32>, f32
 *   %d = pto.get_tensor_view_dim %tv, %i : !pto.tensor_view<?x?xf32> -> index
 *   %b = pto.bind_tile %m[, %r, %c] {config = #pto.tile_buf_config<...>} : M -> M
 *   %s = pto.subset %t[%i, %j] sizes [32, 32] : T          (result inferred)
 *   pto.set_validshape %t, %r, %c : T
 *   %m = pto.pointer_cast(%a0, ...) [%r, %c] {config = ...} : M
 *   %t = pto.declare_tile -> T      (also declare_tile_memref, declare_eventid_array)
 *   %e = pto.eventid_array_get %a[%i] : !pto.eventid_array<4>
 *   pto.eventid_array_set %a[%i], %v : !pto.eventid_array<4>
 *   pto.tgather ins(%src, %idx, %tmp : ...) outs(%dst : ...)             index form
 *   pto.tgather ins(%src, %k, %tmp : ...) outs(%dst, %cdst : ...)        compare form
 *   pto.tgather ins(%src, {maskPattern = #pto.mask_pattern<P0101>} : T) outs(%dst : T)
 *   pto.tmov ins(%src : T[, %fp : F][, %pre : i64]) outs(%dst : D) {attrs} [-> R]
 */
#include <string.h>

#include "dialect/pto_internal.h"

static ptoc_context *pctx(ptoc_parser *p) { return ptoc_parser_context(p); }

/* ---------------------------------------------------------------- toolkit: key blocks */

/* `N` as an integer attribute of `bits` (signless range, as MLIR reads `1 : i8`). */
static bool parse_int_attr(ptoc_parser *p, uint32_t bits, ptoc_attr **out)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    int64_t v;
    if (!ptoc_parse_integer(p, &v))
        return false;
    int64_t lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    int64_t hi = bits == 64 ? INT64_MAX : ((int64_t)1 << bits) - 1;
    if (v < lo || v > hi)
        return ptoc_parser_error_at(p, loc, "integer %lld out of range for i%u", (long long)v, bits);
    *out = ptoc_attr_int(pctx(p), ptoc_type_int(pctx(p), bits, PTOC_SIGNLESS), v);
    return true;
}

static bool parse_key_value(ptoc_parser *p, pto_key_value kind, ptoc_attr **out)
{
    ptoc_ident *word;
    ptoc_loc loc = ptoc_parser_loc(p);
    switch (kind) {
    case PTO_KV_I8: return parse_int_attr(p, 8, out);
    case PTO_KV_I32: return parse_int_attr(p, 32, out);
    case PTO_KV_BOOL:
        if (!ptoc_parse_keyword(p, &word, "true or false"))
            return false;
        if (strcmp(word->str, "true") != 0 && strcmp(word->str, "false") != 0)
            return ptoc_parser_error_at(p, loc, "expected true or false, got '%s'", word->str);
        *out = ptoc_attr_bool(pctx(p), word->str[0] == 't');
        return true;
    case PTO_KV_STRING:
        if (!ptoc_parse_string(p, &word))
            return false;
        *out = ptoc_attr_string(pctx(p), word->str, word->len);
        return true;
    case PTO_KV_SYMBOL:
        if (!ptoc_parse_symbol_name(p, &word))
            return false;
        *out = ptoc_attr_symref(pctx(p), word, 0, NULL);
        return true;
    case PTO_KV_SPACE: return pto_parse_enum_value_attr(p, PTOC_PTO_ENUM_ADDRESS_SPACE, false, out);
    }
    ptoc_unreachable("bad key value kind");
    return false;
}

bool pto_parse_key_block(ptoc_parser *p, ptoc_op_state *st, const pto_form_key *keys, uint32_t n)
{
    uint32_t next = 0;
    ptoc_loc close;
    if (!ptoc_parse_expect(p, "{"))
        return false;
    for (bool first = true; close = ptoc_parser_loc(p), !ptoc_parse_optional(p, "}"); first = false) {
        if (ptoc_parser_failed(p) || (!first && !ptoc_parse_expect(p, ",")))
            return false;
        ptoc_loc loc = ptoc_parser_loc(p);
        ptoc_ident *name;
        if (!ptoc_parse_keyword(p, &name, next < n ? keys[next].key : "'}'"))
            return false;
        uint32_t k = next;
        while (k < n && strcmp(keys[k].key, name->str) != 0)
            k++;
        for (uint32_t skip = next; skip < k && k < n; skip++)
            if (!keys[skip].optional)
                return ptoc_parser_error_at(p, loc, "expected '%s' before '%s'", keys[skip].key, name->str);
        if (k == n && next < n)
            return ptoc_parser_error_at(p, loc, "expected '%s', got '%s'", keys[next].key, name->str);
        if (k == n)
            return ptoc_parser_error_at(p, loc, "unexpected key '%s'", name->str);
        ptoc_attr *a;
        if (!ptoc_parse_expect(p, "=") || !parse_key_value(p, keys[k].value, &a))
            return false;
        pto_add_attr(p, st, keys[k].attr, a);
        next = k + 1;
    }
    for (; next < n; next++)
        if (!keys[next].optional)
            return ptoc_parser_error_at(p, close, "expected '%s' before '}'", keys[next].key);
    return true;
}

static void print_key_value(ptoc_printer *p, pto_key_value kind, const ptoc_attr *a)
{
    uint32_t v;
    if (kind == PTO_KV_SPACE && ptoc_pto_enum_value(a, PTOC_PTO_ENUM_ADDRESS_SPACE, &v))
        pto_print_enum_stripped(p, a);
    else
        ptoc_print_attr_no_type(p, a);
}

void pto_print_key_block(ptoc_printer *p, const ptoc_op *op, const pto_form_key *keys, uint32_t n)
{
    const char *sep = "";
    ptoc_print_str(p, "{");
    for (uint32_t k = 0; k < n; k++) {
        ptoc_attr *a = ptoc_op_attr(op, keys[k].attr);
        if (!a && keys[k].optional)
            continue;
        ptoc_print_fmt(p, "%s%s = ", sep, keys[k].key);
        if (a)
            print_key_value(p, keys[k].value, a);
        else
            ptoc_print_fmt(p, "<missing %s>", keys[k].attr);     /* the verifier reports it */
        sep = ", ";
    }
    ptoc_print_str(p, "}");
}

void pto_print_attrs_besides(ptoc_printer *p, const ptoc_op *op, const pto_form_key *keys, uint32_t n)
{
    const char *elided[PTO_MAX_FORM_KEYS + 1];
    if (n > PTO_MAX_FORM_KEYS)
        ptoc_unreachable("too many keys in a pto form");
    for (uint32_t k = 0; k < n; k++)
        elided[k] = keys[k].attr;
    elided[n] = PTOC_SEGMENT_SIZES_ATTR;
    ptoc_print_attr_dict(p, op, elided, n + 1);
}

static bool key_attr_ok(const ptoc_attr *a, pto_key_value kind)
{
    uint32_t v;
    switch (kind) {
    case PTO_KV_I8:
    case PTO_KV_I32:
        return a->kind == PTOC_ATTR_INTEGER && ptoc_type_is_int(a->u.integer.type) &&
               ptoc_type_bitwidth(a->u.integer.type) == (kind == PTO_KV_I8 ? 8u : 32u);
    case PTO_KV_BOOL: return a->kind == PTOC_ATTR_BOOL;
    case PTO_KV_STRING: return a->kind == PTOC_ATTR_STRING;
    case PTO_KV_SYMBOL: return a->kind == PTOC_ATTR_SYMREF && a->u.symref.nnested == 0;
    case PTO_KV_SPACE: return ptoc_pto_enum_value(a, PTOC_PTO_ENUM_ADDRESS_SPACE, &v);
    }
    return false;
}

bool pto_check_keys(const ptoc_op *op, const pto_form_key *keys, uint32_t n)
{
    static const char *const kinds[] = {
        [PTO_KV_I8] = "an i8 integer", [PTO_KV_I32] = "an i32 integer", [PTO_KV_BOOL] = "true or false",
        [PTO_KV_STRING] = "a string", [PTO_KV_SYMBOL] = "a symbol (@name)",
        [PTO_KV_SPACE] = "a #pto.address_space<...>",
    };
    for (uint32_t k = 0; k < n; k++) {
        ptoc_attr *a = ptoc_op_attr(op, keys[k].attr);
        if (!a && keys[k].optional)
            continue;
        if (!a) {
            ptoc_op_emit_error(op, "requires attribute '%s' (%s)", keys[k].attr, kinds[keys[k].value]);
            return false;
        }
        if (!key_attr_ok(a, keys[k].value)) {
            ptoc_op_emit_error(op, "attribute '%s' must be %s", keys[k].attr, kinds[keys[k].value]);
            return false;
        }
    }
    return true;
}

/* ---------------------------------------------------------------- toolkit: operands and types */

bool pto_parse_typed_operand(ptoc_parser *p, ptoc_op_state *st, ptoc_pto_type_kind bare)
{
    ptoc_operand_ref ref;
    ptoc_type *t;
    ptoc_value *v;
    if (!ptoc_parse_operand(p, &ref) || !ptoc_parse_expect(p, ":") || !pto_parse_type_or_bare(p, bare, &t) ||
        !ptoc_parse_resolve(p, &ref, t, &v))
        return false;
    ptoc_state_add_operand(st, v);
    return true;
}

bool pto_parse_paren_operands(ptoc_parser *p, ptoc_op_state *st, uint32_t *n)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_operand_ref *refs;
    ptoc_type **types;
    uint32_t ntypes;
    return ptoc_parse_expect(p, "(") && ptoc_parse_operand_list(p, &refs, n) && ptoc_parse_expect(p, ":") &&
           pto_parse_type_list_or_bare(p, PTOC_PTO_TYPE_TILE_BUF, &types, &ntypes) && ptoc_parse_expect(p, ")") &&
           ptoc_parse_resolve_list(p, refs, *n, types, ntypes, loc, st);
}

void pto_print_paren_operands(ptoc_printer *p, const ptoc_op *op, uint32_t from, uint32_t n)
{
    ptoc_print_str(p, "(");
    ptoc_print_operands(p, op, from, n);
    ptoc_print_str(p, " : ");
    ptoc_print_operand_types(p, op, from, n);
    ptoc_print_str(p, ")");
}

void pto_print_type_bare(ptoc_printer *p, const ptoc_type *t)
{
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ptoc_printer_context(p));
    ptoc_print_type_to(&sb, t);
    const char *text = ptoc_strbuf_cstr(&sb), *body = strchr(text, '<');
    ptoc_print_str(p, t->kind == PTOC_TYPE_DIALECT && body ? body : text);
    ptoc_strbuf_free(&sb);
}

/* `-> T`, the op's one result. */
static bool parse_result(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_type *t;
    if (!ptoc_parse_expect(p, "->") || !ptoc_parse_type(p, &t))
        return false;
    ptoc_state_add_result(st, t);
    return true;
}

bool pto_parse_attrs_result(ptoc_parser *p, ptoc_op_state *st)
{
    return ptoc_parse_optional_attr_dict(p, st) && parse_result(p, st);
}

void pto_print_result(ptoc_printer *p, const ptoc_op *op)
{
    if (op->nresults == 1) {
        ptoc_print_str(p, " -> ");
        ptoc_print_type(p, op->results[0].type);
    }
}

void pto_print_operands_then_type(ptoc_printer *p, const ptoc_op *op, uint32_t n)
{
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, n);
    ptoc_print_attr_dict(p, op, NULL, 0);
    ptoc_print_str(p, " : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
}

/* Resolves `n` references, all at type `t`, into the state. */
static bool resolve_all(ptoc_parser *p, ptoc_op_state *st, const ptoc_operand_ref *refs, uint32_t n, ptoc_type *t)
{
    for (uint32_t i = 0; i < n; i++) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &refs[i], t, &v))
            return false;
        ptoc_state_add_operand(st, v);
    }
    return true;
}

/* An index operand (`%i`) resolved at index type. */
static bool parse_index_operand(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref ref;
    return ptoc_parse_operand(p, &ref) && resolve_all(p, st, &ref, 1, ptoc_type_index(pctx(p)));
}

/* Resolves `ref` at `t`, adds it, and moves it to operand position `at` (the
 * operands after it were resolved first, since their types were known). */
static bool resolve_at(ptoc_parser *p, ptoc_op_state *st, const ptoc_operand_ref *ref, ptoc_type *t, uint32_t at)
{
    ptoc_value *v;
    if (!ptoc_parse_resolve(p, ref, t, &v))
        return false;
    ptoc_state_add_operand(st, v);
    memmove(&st->operands[at + 1], &st->operands[at], sizeof(ptoc_value *) * (st->noperands - 1 - at));
    st->operands[at] = v;
    return true;
}

/* ---------------------------------------------------------------- pointers and scalars */

/* `%p, %off {attrs} : <f32> -> <f32>` (types of addptr print without !pto.ptr, as PTOAS's do) */
bool pto_parse_addptr(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref ptr;
    ptoc_type *t, *r;
    if (!ptoc_parse_operand(p, &ptr) || !ptoc_parse_expect(p, ",") || !parse_index_operand(p, st) ||
        !ptoc_parse_optional_attr_dict(p, st) || !ptoc_parse_expect(p, ":") ||
        !pto_parse_type_or_bare(p, PTOC_PTO_TYPE_PTR, &t) || !ptoc_parse_expect(p, "->") ||
        !pto_parse_type_or_bare(p, PTOC_PTO_TYPE_PTR, &r) || !resolve_at(p, st, &ptr, t, 0))
        return false;
    ptoc_state_add_result(st, r);
    return true;
}

void pto_print_addptr(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands != 2 || op->nresults != 1) {
        pto_print_dps(p, op);
        return;
    }
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, 2);
    ptoc_print_attr_dict(p, op, NULL, 0);
    ptoc_print_str(p, " : ");
    pto_print_type_bare(p, ptoc_op_operand(op, 0)->type);
    ptoc_print_str(p, " -> ");
    pto_print_type_bare(p, op->results[0].type);
}

/* `%p[%off] {attrs} : P` then load_scalar's `-> T`, store_scalar's `, T`. */
static bool parse_scalar_access(ptoc_parser *p, ptoc_op_state *st, ptoc_operand_ref *ptr, ptoc_type **ptr_type)
{
    return ptoc_parse_operand(p, ptr) && ptoc_parse_expect(p, "[") && parse_index_operand(p, st) &&
           ptoc_parse_expect(p, "]") && ptoc_parse_optional_attr_dict(p, st) && ptoc_parse_expect(p, ":") &&
           ptoc_parse_type(p, ptr_type);
}

bool pto_parse_load_scalar(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref ptr;
    ptoc_type *t;
    return parse_scalar_access(p, st, &ptr, &t) && resolve_at(p, st, &ptr, t, 0) && parse_result(p, st);
}

bool pto_parse_store_scalar(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref value, ptr;
    ptoc_type *t, *vt;
    return ptoc_parse_operand(p, &value) && ptoc_parse_expect(p, ",") && parse_scalar_access(p, st, &ptr, &t) &&
           ptoc_parse_expect(p, ",") && ptoc_parse_type(p, &vt) && resolve_at(p, st, &ptr, t, 0) &&
           resolve_at(p, st, &value, vt, 2);
}

static void print_scalar_access(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_value(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, "[");
    ptoc_print_value(p, ptoc_op_operand(op, 1));
    ptoc_print_str(p, "]");
    ptoc_print_attr_dict(p, op, NULL, 0);
    ptoc_print_str(p, " : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
}

void pto_print_load_scalar(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands != 2 || op->nresults != 1) {
        pto_print_dps(p, op);
        return;
    }
    ptoc_print_str(p, " ");
    print_scalar_access(p, op);
    pto_print_result(p, op);
}

void pto_print_store_scalar(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands != 3) {
        pto_print_dps(p, op);
        return;
    }
    ptoc_print_str(p, " ");
    ptoc_print_value(p, ptoc_op_operand(op, 2));
    ptoc_print_str(p, ", ");
    print_scalar_access(p, op);
    ptoc_print_str(p, ", ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 2));
}

/* `%tv, %dim : T -> index {attrs}` (the attr-dict comes last in PTOAS's format) */
bool pto_parse_get_tensor_view_dim(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref tv;
    ptoc_type *t;
    return ptoc_parse_operand(p, &tv) && ptoc_parse_expect(p, ",") && parse_index_operand(p, st) &&
           ptoc_parse_expect(p, ":") && ptoc_parse_type(p, &t) && resolve_at(p, st, &tv, t, 0) &&
           parse_result(p, st) && ptoc_parse_optional_attr_dict(p, st);
}

void pto_print_get_tensor_view_dim(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands != 2 || op->nresults != 1) {
        pto_print_dps(p, op);
        return;
    }
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, 2);
    ptoc_print_str(p, " : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
    pto_print_result(p, op);
    ptoc_print_attr_dict(p, op, NULL, 0);
}

/* ---------------------------------------------------------------- handles on tiles */

/* The optional valid_row/valid_col pair: `, %r, %c` after bind_tile's source,
 * `%r, %c` after pointer_cast's addresses. */
static bool parse_optional_valid_pair(ptoc_parser *p, ptoc_op_state *st, bool comma_first, int64_t *present)
{
    ptoc_operand_ref row;
    *present = 0;
    if (comma_first && !ptoc_parse_optional(p, ","))
        return !ptoc_parser_failed(p);
    if (comma_first ? !ptoc_parse_operand(p, &row) : !ptoc_parse_optional_operand(p, &row))
        return !ptoc_parser_failed(p);
    if (!resolve_all(p, st, &row, 1, ptoc_type_index(pctx(p))) || !ptoc_parse_expect(p, ",") ||
        !parse_index_operand(p, st))
        return false;
    *present = 1;
    return true;
}

/* bind_tile: `%src[, %r, %c] {config = ...} : M -> R`, segments (source, valid_row, valid_col). */
bool pto_parse_bind_tile(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref src;
    ptoc_type *t;
    int64_t valid;
    if (!ptoc_parse_operand(p, &src) || !parse_optional_valid_pair(p, st, true, &valid) ||
        !ptoc_parse_optional_attr_dict(p, st) || !ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &t) ||
        !resolve_at(p, st, &src, t, 0) || !parse_result(p, st))
        return false;
    pto_add_segments(p, st, 3, (int64_t[3]){1, valid, valid});
    return true;
}

/* Whether an op with segments (n0, valid_row, valid_col) has both valid operands. */
static bool has_valid_pair(const ptoc_op *op, uint32_t *first)
{
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    *first = seg && nseg == 3 ? (uint32_t)seg[0] : op->noperands;
    return seg && nseg == 3 && seg[1] == 1 && seg[2] == 1 && *first + 2 == op->noperands;
}

void pto_print_bind_tile(ptoc_printer *p, const ptoc_op *op)
{
    uint32_t first;
    if (op->noperands < 1 || op->nresults != 1) {
        pto_print_dps(p, op);
        return;
    }
    ptoc_print_str(p, " ");
    ptoc_print_value(p, ptoc_op_operand(op, 0));
    if (has_valid_pair(op, &first)) {
        ptoc_print_str(p, ", ");
        ptoc_print_operands(p, op, first, 2);
    }
    static const char *const elided[] = {PTOC_SEGMENT_SIZES_ATTR};
    ptoc_print_attr_dict(p, op, elided, 1);
    ptoc_print_str(p, " : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
    pto_print_result(p, op);
}

/* subset: `%src[%i, %j] sizes [32, 32] {attrs} : T`; the result type is inferred
 * (pto_subset_result_type) from the source, the sizes and constant offsets. */
bool pto_parse_subset(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref src, *offs;
    ptoc_type *t;
    uint32_t n;
    ptoc_loc loc;
    if (!ptoc_parse_operand(p, &src) || !ptoc_parse_expect(p, "[") || !ptoc_parse_operand_list(p, &offs, &n) ||
        !ptoc_parse_expect(p, "]") || !ptoc_parse_expect(p, "sizes") ||
        !resolve_all(p, st, offs, n, ptoc_type_index(pctx(p))))
        return false;
    ptoc_attr *sizes;
    loc = ptoc_parser_loc(p);
    if (!ptoc_parse_attr(p, &sizes))
        return false;
    pto_add_attr(p, st, "sizes", sizes);
    if (!ptoc_parse_optional_attr_dict(p, st) || !ptoc_parse_expect(p, ":"))
        return false;
    if (!pto_parse_type_or_bare(p, PTOC_PTO_TYPE_TILE_BUF, &t) || !resolve_at(p, st, &src, t, 0))
        return false;
    char why[160];
    ptoc_type *r = pto_subset_result_type(pctx(p), st->operands, st->noperands, sizes, why, sizeof why);
    if (!r)
        return ptoc_parser_error_at(p, loc, "%s", why);
    ptoc_state_add_result(st, r);
    return true;
}

void pto_print_subset(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_attr *sizes = ptoc_op_attr(op, "sizes");
    if (op->noperands < 1 || !sizes) {
        pto_print_dps(p, op);
        return;
    }
    static const char *const elided[] = {"sizes"};
    ptoc_print_str(p, " ");
    ptoc_print_value(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, "[");
    ptoc_print_operands(p, op, 1, op->noperands - 1);
    ptoc_print_str(p, "] sizes [");
    for (uint32_t i = 0; sizes->kind == PTOC_ATTR_ARRAY && i < sizes->u.array.n; i++) {
        ptoc_print_str(p, i ? ", " : "");
        ptoc_print_attr_no_type(p, sizes->u.array.elems[i]);       /* `32`, as PTOAS prints I64ArrayAttr */
    }
    ptoc_print_str(p, "]");
    ptoc_print_attr_dict(p, op, elided, 1);
    ptoc_print_str(p, " : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
}

/* set_validshape: `%src, %r, %c {attrs} : T` */
bool pto_parse_set_validshape(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref src;
    ptoc_type *t;
    return ptoc_parse_operand(p, &src) && ptoc_parse_expect(p, ",") && parse_index_operand(p, st) &&
           ptoc_parse_expect(p, ",") && parse_index_operand(p, st) && ptoc_parse_optional_attr_dict(p, st) &&
           ptoc_parse_expect(p, ":") && pto_parse_type_or_bare(p, PTOC_PTO_TYPE_TILE_BUF, &t) &&
           resolve_at(p, st, &src, t, 0);
}

void pto_print_set_validshape(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands != 3)
        pto_print_dps(p, op);
    else
        pto_print_operands_then_type(p, op, 3);
}

/* pointer_cast: `(%a0, ...) [%r, %c] {attrs} : M`, segments (addrs, valid_row, valid_col); addrs are i64. */
bool pto_parse_pointer_cast(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref *addrs;
    uint32_t n;
    int64_t valid;
    ptoc_type *t, *i64 = ptoc_type_int(pctx(p), 64, PTOC_SIGNLESS);
    if (!ptoc_parse_expect(p, "(") || !ptoc_parse_operand_list(p, &addrs, &n) || !ptoc_parse_expect(p, ")") ||
        !resolve_all(p, st, addrs, n, i64))
        return false;
    if (!parse_optional_valid_pair(p, st, false, &valid) || !ptoc_parse_optional_attr_dict(p, st) ||
        !ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &t))
        return false;
    ptoc_state_add_result(st, t);
    pto_add_segments(p, st, 3, (int64_t[3]){n, valid, valid});
    return true;
}

void pto_print_pointer_cast(ptoc_printer *p, const ptoc_op *op)
{
    uint32_t first;
    bool valid = has_valid_pair(op, &first);
    if (op->nresults != 1) {
        pto_print_dps(p, op);
        return;
    }
    ptoc_print_str(p, "(");
    ptoc_print_operands(p, op, 0, valid ? first : op->noperands);
    ptoc_print_str(p, ")");
    if (valid) {
        ptoc_print_str(p, " ");
        ptoc_print_operands(p, op, first, 2);
    }
    static const char *const elided[] = {PTOC_SEGMENT_SIZES_ATTR};
    ptoc_print_attr_dict(p, op, elided, 1);
    ptoc_print_str(p, " : ");
    ptoc_print_type(p, op->results[0].type);
}

/* declare_tile, declare_tile_memref, declare_eventid_array: `{attrs} -> T` */
bool pto_parse_declare(ptoc_parser *p, ptoc_op_state *st)
{
    return pto_parse_attrs_result(p, st);
}

void pto_print_declare(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_attr_dict(p, op, NULL, 0);
    pto_print_result(p, op);
}

/* ---------------------------------------------------------------- event-id arrays */

/* `%a[%i] {attrs} : T` (get, whose result is an index) and `%a[%i], %v {attrs} : T` (set). */
static bool parse_eventid_access(ptoc_parser *p, ptoc_op_state *st, bool set)
{
    ptoc_operand_ref array;
    ptoc_type *t;
    if (!ptoc_parse_operand(p, &array) || !ptoc_parse_expect(p, "[") || !parse_index_operand(p, st) ||
        !ptoc_parse_expect(p, "]") || (set && (!ptoc_parse_expect(p, ",") || !parse_index_operand(p, st))) ||
        !ptoc_parse_optional_attr_dict(p, st) || !ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &t) ||
        !resolve_at(p, st, &array, t, 0))
        return false;
    if (!set)
        ptoc_state_add_result(st, ptoc_type_index(pctx(p)));
    return true;
}

bool pto_parse_eventid_array_get(ptoc_parser *p, ptoc_op_state *st) { return parse_eventid_access(p, st, false); }
bool pto_parse_eventid_array_set(ptoc_parser *p, ptoc_op_state *st) { return parse_eventid_access(p, st, true); }

void pto_print_eventid_access(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands < 2 || op->noperands > 3) {
        pto_print_dps(p, op);
        return;
    }
    ptoc_print_str(p, " ");
    ptoc_print_value(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, "[");
    ptoc_print_value(p, ptoc_op_operand(op, 1));
    ptoc_print_str(p, "]");
    if (op->noperands == 3) {
        ptoc_print_str(p, ", ");
        ptoc_print_value(p, ptoc_op_operand(op, 2));
    }
    ptoc_print_attr_dict(p, op, NULL, 0);
    ptoc_print_str(p, " : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
}

/* ---------------------------------------------------------------- tgather */

/* `maskPattern = #pto.mask_pattern<...>` (inside ins' braces or after outs). */
static bool parse_mask_pattern(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_attr *a;
    if (!ptoc_parse_expect(p, "maskPattern") || !ptoc_parse_expect(p, "=") ||
        !pto_parse_enum_value_attr(p, PTOC_PTO_ENUM_MASK_PATTERN, false, &a))
        return false;
    pto_add_attr(p, st, "maskPattern", a);
    return true;
}

/* The index and compare forms are DPS groups; the mask form writes
 * `ins(%src, {maskPattern = ...} : T)`, or puts `maskPattern = ...` after outs. */
bool pto_parse_tgather(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref src;
    ptoc_type *t;
    uint32_t nins = 1, nouts;
    bool mask = false;
    if (!ptoc_parse_expect(p, "ins") || !ptoc_parse_expect(p, "(") || !ptoc_parse_operand(p, &src) ||
        !ptoc_parse_expect(p, ","))
        return false;
    if (ptoc_parse_optional(p, "{")) {
        if (!parse_mask_pattern(p, st) || !ptoc_parse_expect(p, "}") || !ptoc_parse_expect(p, ":") ||
            !pto_parse_type_or_bare(p, PTOC_PTO_TYPE_TILE_BUF, &t) || !ptoc_parse_expect(p, ")") ||
            !resolve_at(p, st, &src, t, 0))
            return false;
        mask = true;
    } else {
        ptoc_loc loc = src.loc;
        ptoc_operand_ref *rest, *refs;
        ptoc_type **types;
        uint32_t n, ntypes;
        if (!ptoc_parse_operand_list(p, &rest, &n) || !ptoc_parse_optional_attr_dict(p, st) ||
            !ptoc_parse_expect(p, ":") || !pto_parse_type_list_or_bare(p, PTOC_PTO_TYPE_TILE_BUF, &types, &ntypes) ||
            !ptoc_parse_expect(p, ")"))
            return false;
        refs = PTOC_NEW_ARRAY(ptoc_parser_arena(p), ptoc_operand_ref, n + 1);
        refs[0] = src;
        memcpy(&refs[1], rest, sizeof *rest * n);
        nins = n + 1;
        if (!ptoc_parse_resolve_list(p, refs, nins, types, ntypes, loc, st))
            return false;
    }
    if (!pto_parse_optional_group(p, st, "outs", &nouts))
        return false;
    if (ptoc_parser_peek(p, "maskPattern")) {
        if (mask)
            return ptoc_parser_error(p, "maskPattern may only be given once");
        if (!parse_mask_pattern(p, st))
            return false;
    }
    if (!ptoc_parse_optional_attr_dict(p, st))
        return false;
    pto_add_segments(p, st, 2, (int64_t[2]){nins, nouts});
    return true;
}

void pto_print_tgather(ptoc_printer *p, const ptoc_op *op)
{
    uint32_t nins, nouts, nseg;
    ptoc_attr *mask = ptoc_op_attr(op, "maskPattern");
    if (!pto_op_segments(op, &nseg) || !mask || !ptoc_pto_dps_split(op, &nins, &nouts) || nins != 1) {
        pto_print_dps(p, op);
        return;
    }
    static const char *const elided[] = {PTOC_SEGMENT_SIZES_ATTR, "maskPattern"};
    ptoc_print_str(p, " ins(");
    ptoc_print_value(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, ", {maskPattern = ");
    ptoc_print_attr(p, mask);
    ptoc_print_str(p, "} : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, ")");
    if (nouts > 0)
        pto_print_group(p, op, "outs", 1, nouts, false);
    ptoc_print_attr_dict(p, op, elided, 2);
}

/* ---------------------------------------------------------------- tmov */

/* PTOAS's operands: src, dst, then the optional fp tile and pre-quant scalar,
 * with four segments. The `ins` group writes each with its own type; which of
 * the two optional ones a second operand is follows from its type (a tile is
 * fp, an integer the scalar), as PTOAS's optional groups decide by order. */
bool pto_parse_tmov(ptoc_parser *p, ptoc_op_state *st)
{
    if (!ptoc_parser_peek(p, "ins"))
        return pto_parse_dps(p, st);
    ptoc_op_state extra;
    ptoc_state_init(&extra, st->arena, st->def, st->loc);
    int64_t seg[4] = {1, 0, 0, 0};
    if (!ptoc_parse_expect(p, "ins") || !ptoc_parse_expect(p, "(") ||
        !pto_parse_typed_operand(p, st, PTOC_PTO_TYPE_TILE_BUF))
        return false;
    while (ptoc_parse_optional(p, ",")) {
        ptoc_loc loc = ptoc_parser_loc(p);
        if (!pto_parse_typed_operand(p, &extra, PTOC_PTO_TYPE_TILE_BUF))
            return false;
        int slot = ptoc_type_is_int(extra.operands[extra.noperands - 1]->type) ? 3 : 2;
        if (seg[slot])
            return ptoc_parser_error_at(p, loc, "tmov takes one %s", slot == 3 ? "pre-quant scalar" : "fp tile");
        if (seg[3])
            return ptoc_parser_error_at(p, loc, "tmov takes the fp tile before the pre-quant scalar");
        seg[slot] = 1;
    }
    uint32_t nouts;
    if (ptoc_parser_failed(p) || !ptoc_parse_expect(p, ")") || !pto_parse_optional_group(p, st, "outs", &nouts) ||
        !ptoc_parse_optional_attr_dict(p, st) || !pto_parse_arrow(p, st))
        return false;
    for (uint32_t i = 0; i < extra.noperands; i++)
        ptoc_state_add_operand(st, extra.operands[i]);
    seg[1] = nouts;
    pto_add_segments(p, st, 4, seg);
    return true;
}

void pto_print_tmov(ptoc_printer *p, const ptoc_op *op)
{
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    bool plain = nseg == 2 && seg[0] == 1 && seg[1] == 1 && op->noperands == 2;
    if (!seg || !(plain || nseg == 4) || seg[0] != 1 || seg[1] != 1 ||
        (!plain && 2 + (uint64_t)seg[2] + (uint64_t)seg[3] != op->noperands)) {
        pto_print_dps(p, op);
        return;
    }
    ptoc_print_str(p, " ins(");
    for (uint32_t i = 0; i < op->noperands; i++) {
        if (i == 1)
            continue;                   /* dst goes in outs */
        ptoc_print_str(p, i ? ", " : "");
        ptoc_print_value(p, ptoc_op_operand(op, i));
        ptoc_print_str(p, " : ");
        ptoc_print_value_type(p, ptoc_op_operand(op, i));
    }
    ptoc_print_str(p, ")");
    pto_print_group(p, op, "outs", 1, 1, false);
    static const char *const elided[] = {PTOC_SEGMENT_SIZES_ATTR};
    ptoc_print_attr_dict(p, op, elided, 1);
    ptoc_print_arrow_result_types(p, op);
}
