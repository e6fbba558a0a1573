/* builtin.c: the builtin dialect: builtin.module and builtin.unrealized_conversion_cast.
 *
 *   module [@name] [attributes {...}] { ... }
 *   %r = builtin.unrealized_conversion_cast [%a, ... : T, ...] to U, ...
 *
 * As in MLIR 19, a module's region holds exactly one block with no terminator, its
 * optional name is the `sym_name` string attribute, and its other attributes must
 * be dialect-prefixed (`pto.target_arch`, not `target_arch`).
 */
#include "ptoc/ptoc.h"

#include <string.h>

#include "dialect/upstream.h"

/* ---------------------------------------------------------------- builtin.module */

static bool module_parse(ptoc_parser *p, ptoc_op_state *st)
{
    if (!ptoc_parser_peek(p, "{") && !ptoc_parser_peek(p, "attributes")) {
        ptoc_ident *name;
        if (!ptoc_parse_symbol_name(p, &name))
            return false;
        ptoc_upstream_add_attr(p, st, "sym_name",
                               ptoc_attr_string(ptoc_parser_context(p), name->str, name->len));
    }
    if (!ptoc_parse_optional_attr_dict_with_keyword(p, st) && ptoc_parser_failed(p))
        return false;
    ptoc_region *body = ptoc_state_add_region(st);
    if (!ptoc_parse_region(p, body, NULL, 0, NULL))
        return false;
    /* `module {}` still has its one (empty) block, as MLIR builds it. */
    if (!body->first)
        ptoc_region_append(body, ptoc_block_create(ptoc_parser_arena(p)));
    return true;
}

static void module_print(ptoc_printer *p, const ptoc_op *op)
{
    static const char *const elided[] = {"sym_name", "sym_visibility"};
    ptoc_attr *name = ptoc_op_attr(op, "sym_name");
    if (name && name->kind == PTOC_ATTR_STRING) {
        ptoc_print_str(p, " ");
        ptoc_print_attr(p, ptoc_attr_symref(ptoc_printer_context(p), name->u.string, 0, NULL));
    }
    ptoc_print_attr_dict_with_keyword(p, op, elided, 2);
    ptoc_print_str(p, " ");
    ptoc_print_region(p, &op->regions[0], false, NULL);
}

static bool module_verify(const ptoc_op *op)
{
    if (op->nregions != 1) {
        ptoc_op_emit_error(op, "requires one region");
        return false;
    }
    const ptoc_region *body = &op->regions[0];
    if (!body->first || body->first != body->last) {
        ptoc_op_emit_error(op, "region #0 ('bodyRegion') failed to verify constraint: "
                               "region with 1 blocks");
        return false;
    }
    for (uint32_t i = 0; i < op->nattrs; i++) {
        const ptoc_ident *name = op->attrs[i].name;
        if (!strcmp(name->str, "sym_name") || !strcmp(name->str, "sym_visibility"))
            continue;
        if (!memchr(name->str, '.', name->len)) {
            ptoc_op_emit_error(op, "can only contain attributes with dialect-prefixed names, "
                                   "found: '%s'", name->str);
            return false;
        }
    }
    ptoc_attr *sym = ptoc_op_attr(op, "sym_name");
    if (sym && sym->kind != PTOC_ATTR_STRING) {
        ptoc_op_emit_error(op, "attribute 'sym_name' failed to satisfy constraint: "
                               "string attribute");
        return false;
    }
    return true;
}

/* ------------------------------------------------ builtin.unrealized_conversion_cast */

static bool cast_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref *refs;
    uint32_t nrefs;
    ptoc_loc loc = ptoc_parser_loc(p);
    if (!ptoc_parse_operand_list(p, &refs, &nrefs))
        return false;
    if (nrefs > 0) {
        ptoc_type **types;
        uint32_t ntypes;
        if (!ptoc_parse_expect(p, ":") || !ptoc_parse_type_list(p, &types, &ntypes) ||
            !ptoc_parse_resolve_list(p, refs, nrefs, types, ntypes, loc, st))
            return false;
    }
    ptoc_type **results;
    uint32_t nresults;
    if (!ptoc_parse_expect(p, "to") || !ptoc_parse_type_list(p, &results, &nresults))
        return false;
    for (uint32_t i = 0; i < nresults; i++)
        ptoc_state_add_result(st, results[i]);
    return ptoc_parse_optional_attr_dict(p, st) || !ptoc_parser_failed(p);
}

static void cast_print(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands > 0) {
        ptoc_print_str(p, " ");
        ptoc_print_operands(p, op, 0, op->noperands);
        ptoc_print_str(p, " : ");
        ptoc_print_operand_types(p, op, 0, op->noperands);
    }
    ptoc_print_str(p, " to ");
    for (uint32_t i = 0; i < op->nresults; i++) {
        if (i)
            ptoc_print_str(p, ", ");
        ptoc_print_type(p, op->results[i].type);
    }
    ptoc_print_attr_dict(p, op, NULL, 0);
}

static bool cast_verify(const ptoc_op *op)
{
    if (op->nresults == 0) {
        ptoc_op_emit_error(op, "expected at least one result");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- the dialect */

static const ptoc_op_def builtin_ops[] = {
    {"builtin.module",
     PTOC_OPF_NO_TERMINATOR | PTOC_OPF_ISOLATED | PTOC_OPF_SINGLE_BLOCK | PTOC_OPF_SYMBOL_TABLE |
         PTOC_OPF_GRAPH_REGION,
     module_parse, module_print, module_verify, NULL,
     "a top-level container of ops; its region is one block with no terminator"},
    {"builtin.unrealized_conversion_cast", PTOC_OPF_PURE,
     cast_parse, cast_print, cast_verify, NULL,
     "a cast between type systems that a later conversion must remove"},
};

static const ptoc_dialect builtin_dialect = {
    .name = "builtin",
    .ops = builtin_ops,
    .nops = sizeof builtin_ops / sizeof builtin_ops[0],
};

void ptoc_register_builtin_dialect(ptoc_context *ctx)
{
    ptoc_context_register_dialect(ctx, &builtin_dialect);
}
