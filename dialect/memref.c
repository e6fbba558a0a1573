/* memref.c: the memref ops ptoc needs from MLIR 19: alloc, alloca and dealloc.
 *
 *   %m = memref.alloc(%d0, ...)[%s0, ...] [{alignment = 64 : i64}] : memref<?x16xf32, #pto.address_space<vec>>
 *   %m = memref.alloca(...)[...] : memref<...>
 *   memref.dealloc %m : memref<...>
 *
 * The operands of alloc/alloca are the dynamic sizes (one per `?` of the type)
 * then the layout's symbols, all index; `operandSegmentSizes = array<i32: D, S>`
 * says how many of each, as in MLIR's generic form (an op built without it counts
 * every operand as a dynamic size). An alloc in an on-chip #pto.address_space is a
 * pto tile: at --pto-level=level3 it needs its `pto.addr` (pto.h).
 */
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <string.h>

#include "dialect/upstream.h"

/* ---------------------------------------------------------------- alloc, alloca */

static bool parse_index_list(ptoc_parser *p, const char *close, ptoc_op_state *st)
{
    ptoc_type *index = ptoc_type_index(ptoc_parser_context(p));
    ptoc_operand_ref *refs;
    uint32_t n;
    if (!ptoc_parse_operand_list(p, &refs, &n) || !ptoc_parse_expect(p, close))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &refs[i], index, &v))
            return false;
        ptoc_state_add_operand(st, v);
    }
    return true;
}

/* `(%d, ...)[%s, ...] {attrs} : memref<...>` */
static bool alloc_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_context *ctx = ptoc_parser_context(p);
    if (!ptoc_parse_expect(p, "(") || !parse_index_list(p, ")", st))
        return false;
    int64_t segments[2] = {st->noperands, 0};
    if (ptoc_parse_optional(p, "[")) {
        if (!parse_index_list(p, "]", st))
            return false;
        segments[1] = st->noperands - segments[0];
    } else if (ptoc_parser_failed(p)) {
        return false;
    }
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_type *t;
    if (!ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &t))
        return false;
    if (t->kind != PTOC_TYPE_MEMREF)
        return ptoc_parser_error_at(p, loc, "invalid kind of type specified: expected a memref");
    ptoc_state_add_result(st, t);
    ptoc_upstream_add_attr(p, st, "operandSegmentSizes",
                           ptoc_attr_dense(ctx, ptoc_type_int(ctx, 32, PTOC_SIGNLESS), 2, segments));
    return true;
}

/* Dynamic size and symbol operand counts. */
static void alloc_segments(const ptoc_op *op, uint32_t *ndyn, uint32_t *nsym)
{
    ptoc_attr *seg = ptoc_op_attr(op, "operandSegmentSizes");
    *ndyn = op->noperands;
    *nsym = 0;
    if (seg && seg->kind == PTOC_ATTR_DENSE_ARRAY && seg->u.dense.n == 2 &&
        seg->u.dense.values[0] >= 0 && seg->u.dense.values[1] >= 0 &&
        seg->u.dense.values[0] + seg->u.dense.values[1] == (int64_t)op->noperands) {
        *ndyn = (uint32_t)seg->u.dense.values[0];
        *nsym = (uint32_t)seg->u.dense.values[1];
    }
}

static void alloc_print(ptoc_printer *p, const ptoc_op *op)
{
    static const char *const elided[] = {"operandSegmentSizes"};
    uint32_t ndyn, nsym;
    alloc_segments(op, &ndyn, &nsym);
    ptoc_print_str(p, "(");
    ptoc_print_operands(p, op, 0, ndyn);
    ptoc_print_str(p, ")");
    if (nsym > 0) {
        ptoc_print_str(p, "[");
        ptoc_print_operands(p, op, ndyn, nsym);
        ptoc_print_str(p, "]");
    }
    ptoc_print_attr_dict(p, op, elided, 1);
    ptoc_print_str(p, " : ");
    if (op->nresults > 0)
        ptoc_print_type(p, op->results[0].type);
}

static bool alloc_verify_segments(const ptoc_op *op)
{
    ptoc_attr *seg = ptoc_op_attr(op, "operandSegmentSizes");
    if (!seg)
        return true;
    if (seg->kind != PTOC_ATTR_DENSE_ARRAY || seg->u.dense.n != 2 ||
        ptoc_type_bitwidth(seg->u.dense.elem) != 32) {
        ptoc_op_emit_error(op, "attribute 'operandSegmentSizes' must be array<i32: sizes, symbols>");
        return false;
    }
    int64_t total = seg->u.dense.values[0] + seg->u.dense.values[1];
    if (seg->u.dense.values[0] < 0 || seg->u.dense.values[1] < 0 || total != (int64_t)op->noperands) {
        ptoc_op_emit_error(op, "operand count (%u) does not match with the total size (%lld) "
                               "specified in attribute 'operandSegmentSizes'",
                           op->noperands, (long long)total);
        return false;
    }
    return true;
}

static bool alloc_verify_alignment(const ptoc_op *op)
{
    ptoc_attr *a = ptoc_op_attr(op, "alignment");
    if (!a)
        return true;
    if (a->kind != PTOC_ATTR_INTEGER || a->u.integer.type->kind != PTOC_TYPE_INTEGER ||
        a->u.integer.type->u.integer.width != 64 || a->u.integer.value < 0) {
        ptoc_op_emit_error(op, "attribute 'alignment' failed to satisfy constraint: 64-bit "
                               "signless integer attribute whose minimum value is 0");
        return false;
    }
    return true;
}

static bool alloc_verify(const ptoc_op *op)
{
    if (op->nresults != 1 || op->results[0].type->kind != PTOC_TYPE_MEMREF) {
        ptoc_op_emit_error(op, "result #0 must be memref of any type values, but got '%s'",
                           op->nresults ? ptoc_upstream_type_text(op->results[0].type).text
                                        : "nothing");
        return false;
    }
    if (!alloc_verify_segments(op) || !alloc_verify_alignment(op))
        return false;
    for (uint32_t i = 0; i < op->noperands; i++) {
        ptoc_type *t = ptoc_op_operand(op, i)->type;
        if (t->kind != PTOC_TYPE_INDEX) {
            ptoc_op_emit_error(op, "operand #%u must be index, but got '%s'", i,
                               ptoc_upstream_type_text(t).text);
            return false;
        }
    }
    const ptoc_type *m = op->results[0].type;
    uint32_t ndyn, nsym, dynamic = 0;
    alloc_segments(op, &ndyn, &nsym);
    for (uint32_t i = 0; i < m->u.shaped.rank; i++)
        dynamic += m->u.shaped.shape[i] == PTOC_DYNAMIC;
    if (ndyn != dynamic) {
        ptoc_op_emit_error(op, "dimension operand count does not equal memref dynamic dimension count");
        return false;
    }
    /* An identity layout has no symbols; other layouts are not interpreted here. */
    if (!m->u.shaped.layout && nsym != 0) {
        ptoc_op_emit_error(op, "symbol operand count does not equal memref symbol count: "
                               "expected 0, got %u", nsym);
        return false;
    }
    return ptoc_pto_check_level_address(op);   /* an on-chip buffer is a pto tile */
}

/* ---------------------------------------------------------------- dealloc */

static bool dealloc_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref ref;
    ptoc_type *t;
    ptoc_value *v;
    if (!ptoc_parse_operand(p, &ref))
        return false;
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    ptoc_loc loc = ptoc_parser_loc(p);
    if (!ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &t))
        return false;
    if (t->kind != PTOC_TYPE_MEMREF)
        return ptoc_parser_error_at(p, loc, "invalid kind of type specified: expected a memref");
    if (!ptoc_parse_resolve(p, &ref, t, &v))
        return false;
    ptoc_state_add_operand(st, v);
    return true;
}

static void dealloc_print(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, op->noperands);
    ptoc_print_attr_dict(p, op, NULL, 0);
    ptoc_print_str(p, " : ");
    ptoc_print_operand_types(p, op, 0, op->noperands);
}

static bool dealloc_verify(const ptoc_op *op)
{
    if (op->noperands != 1 || op->nresults != 0) {
        ptoc_op_emit_error(op, "expected 1 operand and no results");
        return false;
    }
    ptoc_type *t = ptoc_op_operand(op, 0)->type;
    if (t->kind != PTOC_TYPE_MEMREF) {
        ptoc_op_emit_error(op, "operand #0 must be ranked or unranked memref of any type values, "
                               "but got '%s'", ptoc_upstream_type_text(t).text);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- the dialect */

static const ptoc_op_def memref_ops[] = {
    {"memref.alloc", 0, alloc_parse, alloc_print, alloc_verify, NULL,
     "allocates a buffer (heap, or the on-chip space its memory space names)"},
    {"memref.alloca", 0, alloc_parse, alloc_print, alloc_verify, NULL,
     "allocates a buffer freed when the enclosing scope returns"},
    {"memref.dealloc", 0, dealloc_parse, dealloc_print, dealloc_verify, NULL,
     "frees a buffer made by memref.alloc"},
};

static const ptoc_dialect memref_dialect = {
    .name = "memref",
    .ops = memref_ops,
    .nops = sizeof memref_ops / sizeof memref_ops[0],
};

void ptoc_register_memref_dialect(ptoc_context *ctx)
{
    ptoc_context_register_dialect(ctx, &memref_dialect);
}
