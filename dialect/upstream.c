/* upstream.c: helpers shared by the upstream MLIR dialects (see upstream.h). */
#include "dialect/upstream.h"
#include "ptoc/util.h"

#include <stddef.h>
#include <string.h>

ptoc_upstream_text ptoc_upstream_type_text(const ptoc_type *t)
{
    ptoc_upstream_text out;
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, NULL);
    ptoc_print_type_to(&sb, t);
    size_t n = sb.len;
    if (n >= sizeof out.text) {
        n = sizeof out.text - 4;
        memcpy(out.text + n, "...", 4);
    } else {
        out.text[n] = '\0';
    }
    memcpy(out.text, sb.data, n);
    ptoc_strbuf_free(&sb);
    return out;
}

const ptoc_type *ptoc_upstream_elem(const ptoc_type *t)
{
    if (t->kind == PTOC_TYPE_VECTOR || t->kind == PTOC_TYPE_TENSOR)
        return t->u.shaped.elem;
    return t;
}

bool ptoc_upstream_same_shape(const ptoc_type *a, const ptoc_type *b)
{
    bool a_shaped = a->kind == PTOC_TYPE_VECTOR || a->kind == PTOC_TYPE_TENSOR;
    bool b_shaped = b->kind == PTOC_TYPE_VECTOR || b->kind == PTOC_TYPE_TENSOR;
    if (!a_shaped || !b_shaped)
        return a_shaped == b_shaped;
    if (a->kind != b->kind || a->u.shaped.rank != b->u.shaped.rank)
        return false;
    for (uint32_t i = 0; i < a->u.shaped.rank; i++)
        if (a->u.shaped.shape[i] != b->u.shaped.shape[i])
            return false;
    return true;
}

const char *ptoc_upstream_str_attr(const ptoc_op *op, const char *name)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : NULL;
}

const ptoc_type *ptoc_upstream_fn_type_attr(const ptoc_op *op, const char *name)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    if (!a || a->kind != PTOC_ATTR_TYPE || a->u.type->kind != PTOC_TYPE_FUNCTION)
        return NULL;
    return a->u.type;
}

void ptoc_upstream_add_attr(ptoc_parser *p, ptoc_op_state *st, const char *name, ptoc_attr *value)
{
    ptoc_state_add_attr(st, ptoc_ident_cstr(ptoc_parser_context(p), name), value);
}

ptoc_op *ptoc_upstream_lookup_symbol(const ptoc_op *from, const ptoc_ident *name)
{
    const ptoc_op *table = ptoc_op_parent(from);
    while (table && !(table->def->flags & PTOC_OPF_SYMBOL_TABLE))
        table = ptoc_op_parent(table);
    if (!table || table->nregions == 0)
        return NULL;
    for (ptoc_block *b = table->regions[0].first; b; b = b->next) {
        for (ptoc_op *op = b->first; op; op = op->next) {
            ptoc_attr *sym = ptoc_op_attr(op, "sym_name");
            if (sym && sym->kind == PTOC_ATTR_STRING && sym->u.string == name)
                return op;
        }
    }
    return NULL;
}

bool ptoc_upstream_parse_dict(ptoc_parser *p, ptoc_attr **out)
{
    ptoc_op_state tmp;
    ptoc_state_init(&tmp, ptoc_parser_arena(p), NULL, ptoc_parser_loc(p));
    /* Robust to both conventions of "optional": only a failed parser is an error. */
    if (!ptoc_parse_optional_attr_dict(p, &tmp) && ptoc_parser_failed(p))
        return false;
    *out = ptoc_attr_dict(ptoc_parser_context(p), tmp.nattrs, tmp.attrs);
    return true;
}

bool ptoc_upstream_parse_assignments(ptoc_parser *p, ptoc_region_arg **args,
                                     ptoc_operand_ref **inits, uint32_t *n)
{
    ptoc_arena *arena = ptoc_parser_arena(p);
    uint32_t nargs = 0, cap_args = 0, ninits = 0, cap_inits = 0;
    *args = NULL;
    *inits = NULL;
    if (!ptoc_parse_optional(p, ")")) {
        do {
            ptoc_region_arg *arg = PTOC_VARR_PUSH_FIELDS(NULL, arena, *args, nargs, cap_args);
            ptoc_operand_ref *init = PTOC_VARR_PUSH_FIELDS(NULL, arena, *inits, ninits, cap_inits);
            if (!ptoc_parse_region_arg(p, arg, false))   /* rejects `%x#1` */
                return false;
            if (!ptoc_parse_expect(p, "=") || !ptoc_parse_operand(p, init))
                return false;
        } while (ptoc_parse_optional(p, ","));
        if (!ptoc_parse_expect(p, ")"))
            return false;
    }
    *n = nargs;
    return true;
}

void ptoc_upstream_print_assignments(ptoc_printer *p, const char *keyword,
                                     ptoc_value *const *args, const ptoc_op *op,
                                     uint32_t from, uint32_t n)
{
    if (n == 0)
        return;
    ptoc_print_fmt(p, " %s(", keyword ? keyword : "");
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            ptoc_print_str(p, ", ");
        ptoc_print_value(p, args[i]);
        ptoc_print_str(p, " = ");
        ptoc_print_value(p, ptoc_op_operand(op, from + i));
    }
    ptoc_print_str(p, ")");
}

void ptoc_upstream_print_types(ptoc_printer *p, ptoc_type *const *types, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            ptoc_print_str(p, ", ");
        ptoc_print_type(p, types[i]);
    }
}

void ptoc_upstream_print_functional_type(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_str(p, "(");
    ptoc_print_operand_types(p, op, 0, op->noperands);
    ptoc_print_str(p, ") -> ");
    bool bare = op->nresults == 1 && op->results[0].type->kind != PTOC_TYPE_FUNCTION;
    if (!bare)
        ptoc_print_str(p, "(");
    for (uint32_t i = 0; i < op->nresults; i++) {
        if (i)
            ptoc_print_str(p, ", ");
        ptoc_print_type(p, op->results[i].type);
    }
    if (!bare)
        ptoc_print_str(p, ")");
}

/* `[{attrs}] [%a, %b : T, U]` */
bool ptoc_upstream_parse_terminator(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref *refs;
    uint32_t nrefs;
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    ptoc_loc loc = ptoc_parser_loc(p);
    if (!ptoc_parse_operand_list(p, &refs, &nrefs))
        return false;
    if (nrefs == 0)
        return true;
    ptoc_type **types;
    uint32_t ntypes;
    return ptoc_parse_expect(p, ":") && ptoc_parse_type_list(p, &types, &ntypes) &&
           ptoc_parse_resolve_list(p, refs, nrefs, types, ntypes, loc, st);
}

/* ` {attrs} %a, %b : T, U`; nothing for no operands and attributes. */
void ptoc_upstream_print_terminator(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_attr_dict(p, op, NULL, 0);
    if (op->noperands == 0)
        return;
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, op->noperands);
    ptoc_print_str(p, " : ");
    ptoc_print_operand_types(p, op, 0, op->noperands);
}

