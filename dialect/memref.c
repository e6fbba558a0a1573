/* memref.c: the memref ops ptoc needs from MLIR 19: alloc, alloca, dealloc and
 * reinterpret_cast.
 *
 *   %m = memref.alloc(%d0, ...)[%s0, ...] [{alignment = 64 : i64}] : memref<?x16xf32, #pto.address_space<vec>>
 *   %m = memref.alloca(...)[...] : memref<...>
 *   memref.dealloc %m : memref<...>
 *   %v = memref.reinterpret_cast %m to offset: [%o], sizes: [%c1, 16], strides: [16, 1] {attrs}
 *          : memref<16xi16> to memref<1x16xi16, strided<[16, 1], offset: ?>>
 *
 * The operands of alloc/alloca are the dynamic sizes (one per `?` of the type)
 * then the layout's symbols, all index; `operandSegmentSizes = array<i32: D, S>`
 * says how many of each, as in MLIR's generic form (an op built without it counts
 * every operand as a dynamic size). An alloc in an on-chip #pto.address_space is a
 * pto tile: at --pto-level=level3 it needs its `pto.addr` (pto.h). reinterpret_cast
 * keeps MLIR's operands (source, dynamic offsets, sizes, strides; four segments) and
 * its static_offsets, static_sizes and static_strides arrays, where a dynamic entry
 * is INT64_MIN.
 */
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"
#include "ptoc/util.h"

#include <stdlib.h>
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
    ptoc_state_set_segment_sizes(st, ctx, 2, segments);
    return true;
}

/* Dynamic size and symbol operand counts. */
static void alloc_segments(const ptoc_op *op, uint32_t *ndyn, uint32_t *nsym)
{
    ptoc_attr *seg = ptoc_op_segment_attr(op);
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
    static const char *const elided[] = {PTOC_SEGMENT_SIZES_ATTR};
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
    ptoc_attr *seg = ptoc_op_segment_attr(op);
    if (!seg)
        return true;
    if (seg->kind != PTOC_ATTR_DENSE_ARRAY || seg->u.dense.n != 2 ||
        ptoc_type_bitwidth(seg->u.dense.elem) != 32) {
        ptoc_op_emit_error(op, "attribute '" PTOC_SEGMENT_SIZES_ATTR "' must be array<i32: sizes, symbols>");
        return false;
    }
    int64_t total = seg->u.dense.values[0] + seg->u.dense.values[1];
    if (seg->u.dense.values[0] < 0 || seg->u.dense.values[1] < 0 || total != (int64_t)op->noperands) {
        ptoc_op_emit_error(op, "operand count (%u) does not match with the total size (%lld) "
                               "specified in attribute '" PTOC_SEGMENT_SIZES_ATTR "'",
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

/* ---------------------------------------------------------------- reinterpret_cast */

static const char *const cast_lists[3] = {"offset", "sizes", "strides"};
static const char *const cast_static[3] = {"static_offsets", "static_sizes", "static_strides"};

/* `[%a, 16, ...]`: operands into `st`, every entry into `statics` (INT64_MIN
 * for an operand), as MLIR's DynamicIndexList. */
static bool parse_dynamic_index_list(ptoc_parser *p, ptoc_op_state *st, int64_t **statics, uint32_t *n,
                                     int64_t *nops)
{
    ptoc_arena *arena = ptoc_parser_arena(p);
    uint32_t cap = 0;
    *statics = NULL;
    *n = 0;
    *nops = 0;
    if (!ptoc_parse_expect(p, "["))
        return false;
    if (ptoc_parse_optional(p, "]"))
        return true;
    do {
        ptoc_operand_ref ref;
        int64_t v = PTOC_DYNAMIC;
        if (ptoc_parse_optional_operand(p, &ref)) {
            ptoc_value *val;
            if (!ptoc_parse_resolve(p, &ref, ptoc_type_index(ptoc_parser_context(p)), &val))
                return false;
            ptoc_state_add_operand(st, val);
            (*nops)++;
        } else if (ptoc_parser_failed(p) || !ptoc_parse_integer(p, &v)) {
            return false;
        }
        *PTOC_VARR_PUSH_FIELDS(NULL, arena, *statics, *n, cap) = v;
    } while (ptoc_parse_optional(p, ","));
    return ptoc_parse_expect(p, "]");
}

/* `%src to offset: [...], sizes: [...], strides: [...] {attrs} : T to R` */
static bool cast_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_context *ctx = ptoc_parser_context(p);
    ptoc_type *i64 = ptoc_type_int(ctx, 64, PTOC_SIGNLESS), *from, *to;
    ptoc_operand_ref src;
    ptoc_op_state lists;
    int64_t seg[4] = {1, 0, 0, 0};
    ptoc_state_init(&lists, st->arena, st->def, st->loc);
    if (!ptoc_parse_operand(p, &src) || !ptoc_parse_expect(p, "to"))
        return false;
    for (int k = 0; k < 3; k++) {
        int64_t *statics;
        uint32_t n;
        if ((k > 0 && !ptoc_parse_expect(p, ",")) || !ptoc_parse_expect(p, cast_lists[k]) ||
            !ptoc_parse_expect(p, ":") || !parse_dynamic_index_list(p, &lists, &statics, &n, &seg[k + 1]))
            return false;
        ptoc_upstream_add_attr(p, st, cast_static[k], ptoc_attr_dense(ctx, i64, n, statics));
    }
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    ptoc_value *v;
    if (!ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &from) || !ptoc_parse_expect(p, "to") ||
        !ptoc_parse_type(p, &to) || !ptoc_parse_resolve(p, &src, from, &v))
        return false;
    ptoc_state_add_operand(st, v);
    for (uint32_t i = 0; i < lists.noperands; i++)
        ptoc_state_add_operand(st, lists.operands[i]);
    ptoc_state_add_result(st, to);
    ptoc_state_set_segment_sizes(st, ctx, 4, seg);
    return true;
}

/* Operand counts per list (offsets, sizes, strides), when the segments are sound. */
static bool cast_segments(const ptoc_op *op, int64_t counts[3])
{
    ptoc_attr *seg = ptoc_op_segment_attr(op);
    if (!seg || seg->kind != PTOC_ATTR_DENSE_ARRAY || seg->u.dense.n != 4 || seg->u.dense.values[0] != 1)
        return false;
    int64_t total = 1;
    for (int k = 0; k < 3; k++) {
        counts[k] = seg->u.dense.values[k + 1];
        if (counts[k] < 0)
            return false;
        total += counts[k];
    }
    return total == (int64_t)op->noperands;
}

static const ptoc_attr *cast_static_attr(const ptoc_op *op, int k)
{
    ptoc_attr *a = ptoc_op_attr(op, cast_static[k]);
    return a && a->kind == PTOC_ATTR_DENSE_ARRAY && ptoc_type_bitwidth(a->u.dense.elem) == 64 ? a : NULL;
}

static void cast_print(ptoc_printer *p, const ptoc_op *op)
{
    static const char *const elided[] = {PTOC_SEGMENT_SIZES_ATTR, "static_offsets", "static_sizes",
                                         "static_strides"};
    int64_t counts[3];
    bool ok = cast_segments(op, counts) && op->nresults == 1;
    for (int k = 0; k < 3 && ok; k++)
        ok = cast_static_attr(op, k) != NULL;
    if (!ok) {                                   /* malformed: the verifier reports it */
        ptoc_print_str(p, " ");
        ptoc_print_operands(p, op, 0, op->noperands);
        ptoc_print_attr_dict(p, op, NULL, 0);
        return;
    }
    uint32_t next = 1;
    ptoc_print_str(p, " ");
    ptoc_print_value(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, " to");
    for (int k = 0; k < 3; k++) {
        const ptoc_attr *a = cast_static_attr(op, k);
        ptoc_print_fmt(p, "%s %s: [", k ? "," : "", cast_lists[k]);
        for (uint32_t i = 0; i < a->u.dense.n; i++) {
            ptoc_print_str(p, i ? ", " : "");
            if (a->u.dense.values[i] == PTOC_DYNAMIC && next < op->noperands)
                ptoc_print_value(p, ptoc_op_operand(op, next++));
            else
                ptoc_print_int(p, a->u.dense.values[i]);
        }
        ptoc_print_str(p, "]");
    }
    ptoc_print_attr_dict(p, op, elided, 4);
    ptoc_print_str(p, " : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, " to ");
    ptoc_print_type(p, op->results[0].type);
}

/* Skips spaces in layout text. */
static const char *skip_spaces(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    return s;
}

/* One stride or offset of `strided<...>` text: an integer or `?`. */
static const char *read_layout_int(const char *s, int64_t *out)
{
    s = skip_spaces(s);
    if (*s == '?') {
        *out = PTOC_DYNAMIC;
        return s + 1;
    }
    char *end;
    long long v = strtoll(s, &end, 10);
    *out = v;
    return end == s ? NULL : end;
}

/* The strides and offset of a memref type: its `strided<[...], offset: N>`
 * layout, or the identity layout's (row-major suffix products, offset 0).
 * False for other layouts (affine maps). */
static bool memref_strides(const ptoc_type *t, int64_t *strides, int64_t *offset)
{
    uint32_t rank = t->u.shaped.rank;
    const ptoc_attr *layout = t->u.shaped.layout;
    *offset = 0;
    if (!layout) {
        int64_t run = 1;
        for (uint32_t i = rank; i-- > 0;) {
            strides[i] = run;
            int64_t d = t->u.shaped.shape[i];
            run = run == PTOC_DYNAMIC || d == PTOC_DYNAMIC ? PTOC_DYNAMIC : run * d;
        }
        return true;
    }
    const char *s = layout->kind == PTOC_ATTR_OPAQUE ? layout->u.opaque.body->str : "";
    if (strncmp(s, "strided<", 8) != 0)
        return false;
    s = skip_spaces(s + 8);
    if (*s++ != '[')
        return false;
    for (uint32_t i = 0; i < rank; i++) {
        s = skip_spaces(s);
        if (i > 0 && *s++ != ',')
            return false;
        if (!(s = read_layout_int(s, &strides[i])))
            return false;
    }
    s = skip_spaces(s);
    if (*s++ != ']')
        return false;
    s = skip_spaces(s);
    if (*s == ',') {
        s = skip_spaces(s + 1);
        if (strncmp(s, "offset", 6) != 0)
            return false;
        s = skip_spaces(s + 6);
        if (*s++ != ':' || !(s = read_layout_int(s, offset)))
            return false;
    }
    return *skip_spaces(s) == '>';
}

/* Each static entry of the op agrees with the result type where both are static. */
static bool cast_verify_layout(const ptoc_op *op, const ptoc_type *r)
{
    uint32_t rank = r->u.shaped.rank;
    int64_t strides[16], offset;
    const int64_t *sizes = cast_static_attr(op, 1)->u.dense.values;
    const int64_t *want_strides = cast_static_attr(op, 2)->u.dense.values;
    int64_t want_offset = cast_static_attr(op, 0)->u.dense.values[0];
    for (uint32_t i = 0; i < rank; i++) {
        int64_t have = r->u.shaped.shape[i];
        if (have != PTOC_DYNAMIC && sizes[i] != PTOC_DYNAMIC && have != sizes[i]) {
            ptoc_op_emit_error(op, "expected result type with size = %lld instead of %lld in dim = %u",
                               (long long)sizes[i], (long long)have, i);
            return false;
        }
    }
    if (rank > 16 || !memref_strides(r, strides, &offset)) {
        ptoc_op_emit_error(op, "expected result type to have strided layout but found '%s'",
                           ptoc_upstream_type_text(r).text);
        return false;
    }
    if (offset != PTOC_DYNAMIC && want_offset != PTOC_DYNAMIC && offset != want_offset) {
        ptoc_op_emit_error(op, "expected result type with offset = %lld instead of %lld", (long long)want_offset,
                           (long long)offset);
        return false;
    }
    for (uint32_t i = 0; i < rank; i++) {
        if (strides[i] != PTOC_DYNAMIC && want_strides[i] != PTOC_DYNAMIC && strides[i] != want_strides[i]) {
            ptoc_op_emit_error(op, "expected result type with stride = %lld instead of %lld in dim = %u",
                               (long long)want_strides[i], (long long)strides[i], i);
            return false;
        }
    }
    return true;
}

/* The counts: one offset, as many sizes and strides as the result's rank, and
 * one dynamic operand per INT64_MIN entry. */
static bool cast_verify_counts(const ptoc_op *op, const ptoc_type *r)
{
    int64_t counts[3];
    if (!cast_segments(op, counts)) {
        ptoc_op_emit_error(op, "'" PTOC_SEGMENT_SIZES_ATTR "' must be array<i32: 1, offsets, sizes, strides> and add up to "
                               "the operand count");
        return false;
    }
    for (int k = 0; k < 3; k++) {
        const ptoc_attr *a = cast_static_attr(op, k);
        uint32_t want = k == 0 ? 1 : r->u.shaped.rank, dynamic = 0;
        if (!a) {
            ptoc_op_emit_error(op, "requires attribute '%s' (array<i64: ...>)", cast_static[k]);
            return false;
        }
        if (a->u.dense.n != want) {
            ptoc_op_emit_error(op, "expected %u %s values, got %u", want, k == 0 ? "offset" : cast_lists[k],
                               a->u.dense.n);
            return false;
        }
        for (uint32_t i = 0; i < a->u.dense.n; i++)
            dynamic += a->u.dense.values[i] == PTOC_DYNAMIC;
        if (dynamic != counts[k]) {
            ptoc_op_emit_error(op, "expected %u dynamic %s values", dynamic, k == 0 ? "offset" : cast_lists[k]);
            return false;
        }
    }
    return true;
}

static bool cast_verify(const ptoc_op *op)
{
    if (op->noperands < 1 || op->nresults != 1) {
        ptoc_op_emit_error(op, "expected a source operand and one result");
        return false;
    }
    const ptoc_type *src = ptoc_op_operand(op, 0)->type, *r = op->results[0].type;
    if (src->kind != PTOC_TYPE_MEMREF || r->kind != PTOC_TYPE_MEMREF) {
        ptoc_op_emit_error(op, "expected a memref source and result, got '%s' to '%s'",
                           ptoc_upstream_type_text(src).text, ptoc_upstream_type_text(r).text);
        return false;
    }
    for (uint32_t i = 1; i < op->noperands; i++)
        if (ptoc_op_operand(op, i)->type->kind != PTOC_TYPE_INDEX) {
            ptoc_op_emit_error(op, "operand #%u must be index, but got '%s'", i,
                               ptoc_upstream_type_text(ptoc_op_operand(op, i)->type).text);
            return false;
        }
    if (src->u.shaped.elem != r->u.shaped.elem) {
        ptoc_op_emit_error(op, "different element types specified for source and result");
        return false;
    }
    if (src->u.shaped.memspace != r->u.shaped.memspace) {
        ptoc_op_emit_error(op, "different memory spaces specified for source and result");
        return false;
    }
    return cast_verify_counts(op, r) && cast_verify_layout(op, r);
}

/* ---------------------------------------------------------------- the dialect */

static const ptoc_op_def memref_ops[] = {
    {"memref.alloc", 0, alloc_parse, alloc_print, alloc_verify, NULL,
     "allocates a buffer (heap, or the on-chip space its memory space names)"},
    {"memref.alloca", 0, alloc_parse, alloc_print, alloc_verify, NULL,
     "allocates a buffer freed when the enclosing scope returns"},
    {"memref.dealloc", 0, dealloc_parse, dealloc_print, dealloc_verify, NULL,
     "frees a buffer made by memref.alloc"},
    {"memref.reinterpret_cast", PTOC_OPF_PURE, cast_parse, cast_print, cast_verify, NULL,
     "a view of a buffer with a given offset, sizes and strides"},
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
