/* pto_ops.c: the pto op table, the textual forms of the ops, and registration.
 *
 * One row per op, expanded from pto_ops.def at the bottom: opcode, name, form,
 * pipe, how many ins and outs it takes, its parse/print hooks, its verifier
 * (and that function's name, for docs/ops.md's op table), and flags (the
 * effects columns are pto_access.c's). Which targets lower an
 * op is codegen's business (its rule tables; ptoc_llvm_supports_op), since
 * this layer knows nothing of LLVM. A DPS op is stored as operands ins ++
 * outs with `operandSegmentSizes = array<i32: nins, nouts>` (as MLIR does;
 * elided in the custom form), so the generic form keeps the split. The DPS form's hook also reads the Level-1 SSA form:
 *
 *   pto.tadd ins(%a, %b : T, T) outs(%d : T) {attrs}            (DPS, Level 2)
 *   %r = pto.tadd %a, %b {attrs} : T, T -> T                    (SSA, Level 1)
 *
 * and prints an op in the form it was built in (segments present: DPS). Every
 * other form (views, alloc_tile, tload's clauses, the bracket sync forms, block
 * queries, sections, print) has its own pair of hooks here.
 */
#include <pthread.h>
#include <string.h>

#include "dialect/pto_internal.h"
#include "ptoc/ptoc.h"

typedef struct pto_op_row {
    ptoc_pto_op_info info;          /* first: ptoc_op_def.data points here */
    uint32_t flags;                 /* enum ptoc_op_flag */
    bool (*parse)(ptoc_parser *p, ptoc_op_state *st);
    void (*print)(ptoc_printer *p, const ptoc_op *op);
    bool (*verify)(const ptoc_op *op);
    bool (*parse_asm)(ptoc_parser *p, ptoc_op_state *st);      /* PTO-AS statement, or NULL */
    bool (*print_asm)(ptoc_printer *p, const ptoc_op *op);
    const char *verify_name;        /* the verifier's C name, for docs/ops.md's op table */
} pto_op_row;

static const char *const segment_attr_name = PTOC_SEGMENT_SIZES_ATTR;

/* ---------------------------------------------------------------- helpers */

static ptoc_context *pctx(ptoc_parser *p) { return ptoc_parser_context(p); }

void pto_add_attr(ptoc_parser *p, ptoc_op_state *st, const char *name, ptoc_attr *a)
{
    ptoc_state_add_attr(st, ptoc_ident_cstr(pctx(p), name), a);
}

void pto_add_segments(ptoc_parser *p, ptoc_op_state *st, uint32_t n, const int64_t *sizes)
{
    ptoc_state_set_segment_sizes(st, pctx(p), n, sizes);
}

/* The segment sizes of an op, or NULL (n = 0) when it has none. */
const int64_t *pto_op_segments(const ptoc_op *op, uint32_t *n) { return ptoc_op_segment_sizes(op, n); }

static const pto_op_row *row_of(const ptoc_op *op)
{
    return op->def ? op->def->data : NULL;
}

/* An optional `-> T` (the toolkit's optional parsers answer false when absent). */
bool pto_parse_arrow(ptoc_parser *p, ptoc_op_state *st)
{
    return ptoc_parse_optional_arrow_types(p, st) || !ptoc_parser_failed(p);
}

/* `%a, %b [{attrs}] : T, U` up to, not including, the closing paren; resolved
 * into the state. `*n` gets the operand count. A type may be PTOAS's bare
 * `<loc=..., dtype=...>`, a tile_buf. */
static bool parse_group_body(ptoc_parser *p, ptoc_op_state *st, uint32_t *n)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_operand_ref *refs;
    ptoc_type **types = NULL;
    uint32_t ntypes = 0;
    if (!ptoc_parse_operand_list(p, &refs, n) || !ptoc_parse_optional_attr_dict(p, st))
        return false;
    if (*n > 0 && !ptoc_parse_expect(p, ":"))
        return false;
    if (*n > 0 && !pto_parse_type_list_or_bare(p, PTOC_PTO_TYPE_TILE_BUF, &types, &ntypes))
        return false;
    return ptoc_parse_resolve_list(p, refs, *n, types, ntypes, loc, st);
}

/* `ins(...)` or `outs(...)` when the keyword is there; n = 0 otherwise. */
bool pto_parse_optional_group(ptoc_parser *p, ptoc_op_state *st, const char *keyword, uint32_t *n)
{
    *n = 0;
    if (!ptoc_parse_optional(p, keyword))
        return !ptoc_parser_failed(p);
    return ptoc_parse_expect(p, "(") && parse_group_body(p, st, n) && ptoc_parse_expect(p, ")");
}

/* The operand types of the Level-1 form after its colon: `T, U` or, as the ISA
 * pages write them, `(T, U)` (also `()`). */
bool pto_parse_ssa_types(ptoc_parser *p, ptoc_type ***types, uint32_t *n)
{
    if (!ptoc_parse_optional(p, "("))
        return ptoc_parse_type_list(p, types, n);
    if (ptoc_parse_optional(p, ")"))
        return true;
    return ptoc_parse_type_list(p, types, n) && ptoc_parse_expect(p, ")");
}

/* The Level-1 SSA form: `%a, %b {attrs} [: T, U] [-> R]`, the operand types
 * also `(T, U)`. */
static bool parse_ssa_form(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_operand_ref *refs;
    uint32_t n, ntypes = 0;
    ptoc_type **types = NULL;
    if (!ptoc_parse_operand_list(p, &refs, &n) || !ptoc_parse_optional_attr_dict(p, st))
        return false;
    if (ptoc_parse_optional(p, ":") && !pto_parse_ssa_types(p, &types, &ntypes))
        return false;
    return !ptoc_parser_failed(p) && ptoc_parse_resolve_list(p, refs, n, types, ntypes, loc, st) &&
           pto_parse_arrow(p, st);
}

/* ---------------------------------------------------------------- DPS form */

bool pto_parse_dps(ptoc_parser *p, ptoc_op_state *st)
{
    if (!ptoc_parser_peek(p, "ins") && !ptoc_parser_peek(p, "outs"))
        return parse_ssa_form(p, st);
    uint32_t nins, nouts;
    if (!pto_parse_optional_group(p, st, "ins", &nins) || !pto_parse_optional_group(p, st, "outs", &nouts) ||
        !ptoc_parse_optional_attr_dict(p, st) || !pto_parse_arrow(p, st))
        return false;
    int64_t seg[2] = {nins, nouts};
    pto_add_segments(p, st, 2, seg);
    return true;
}

void pto_print_group(ptoc_printer *p, const ptoc_op *op, const char *keyword, uint32_t from, uint32_t n,
                        bool attrs_inside)
{
    ptoc_print_fmt(p, " %s(", keyword);
    ptoc_print_operands(p, op, from, n);
    if (attrs_inside)
        ptoc_print_attr_dict(p, op, &segment_attr_name, 1);
    ptoc_print_str(p, " : ");
    ptoc_print_operand_types(p, op, from, n);
    ptoc_print_str(p, ")");
}

static void print_ssa_form(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands > 0) {
        ptoc_print_str(p, " ");
        ptoc_print_operands(p, op, 0, op->noperands);
    }
    ptoc_print_attr_dict(p, op, &segment_attr_name, 1);
    if (op->noperands > 0) {
        ptoc_print_str(p, " : ");
        ptoc_print_operand_types(p, op, 0, op->noperands);
    }
    ptoc_print_arrow_result_types(p, op);
}

void pto_print_dps(ptoc_printer *p, const ptoc_op *op)
{
    uint32_t nseg, nins, nouts;
    const int64_t *seg = pto_op_segments(op, &nseg);
    if (!seg || nseg < 2 || seg[0] < 0 || seg[1] < 0 || (uint64_t)seg[0] + (uint64_t)seg[1] > op->noperands) {
        print_ssa_form(p, op);
        return;
    }
    nins = (uint32_t)seg[0];
    nouts = (uint32_t)seg[1];
    bool inside = row_of(op) && row_of(op)->info.form == PTOC_PTO_FORM_DPS_ATTR_INS && nins > 0;
    if (nins > 0)
        pto_print_group(p, op, "ins", 0, nins, inside);
    if (nouts > 0)
        pto_print_group(p, op, "outs", nins, nouts, false);
    if (!inside)
        ptoc_print_attr_dict(p, op, &segment_attr_name, 1);
    ptoc_print_arrow_result_types(p, op);
}

bool ptoc_pto_dps_split(const ptoc_op *op, uint32_t *nins, uint32_t *nouts)
{
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    if (seg && nseg >= 2) {
        *nins = (uint32_t)seg[0];
        *nouts = (uint32_t)seg[1];
        return (uint64_t)seg[0] + (uint64_t)seg[1] <= op->noperands;
    }
    /* Level 1: operands are ins, results are outs. */
    *nins = op->noperands;
    *nouts = op->nresults;
    return true;
}

/* ---------------------------------------------------------------- tload, tstore */

/* tload's optional clauses, in PTOAS's print order. Operand clauses each own one
 * operand segment after ins and outs. */
typedef enum tload_clause { TL_PAD_MODE, TL_PAD_VALUE, TL_LEFT, TL_INIT_OUT, TL_RIGHT, TL_INIT_COND, TL_COUNT } tload_clause;
static const struct {
    const char *name;
    int segment;                      /* operand segment index, -1: an attribute */
} tload_clauses[TL_COUNT] = {
    [TL_PAD_MODE] = {"pad_mode", -1},       [TL_PAD_VALUE] = {"pad_value", 2},
    [TL_LEFT] = {"left_padding_num", 3},    [TL_INIT_OUT] = {"init_out_buffer", -1},
    [TL_RIGHT] = {"right_padding_num", 4},  [TL_INIT_COND] = {"init_condition", 5},
};

static bool parse_tload_clause(ptoc_parser *p, ptoc_op_state *st, tload_clause c, int64_t *seg)
{
    if (!ptoc_parse_expect(p, "="))
        return false;
    ptoc_attr *a;
    if (c == TL_PAD_MODE) {
        if (!pto_parse_enum_value_attr(p, PTOC_PTO_ENUM_PADMODE, true, &a))
            return false;
        pto_add_attr(p, st, "pad_mode", a);
        return true;
    }
    if (c == TL_INIT_OUT) {
        if (!ptoc_parse_attr(p, &a))
            return false;
        pto_add_attr(p, st, "init_out_buffer", a);
        return true;
    }
    ptoc_operand_ref ref;
    ptoc_type *t;
    ptoc_value *v;
    if (!ptoc_parse_operand(p, &ref) || !ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &t) ||
        !ptoc_parse_resolve(p, &ref, t, &v))
        return false;
    seg[tload_clauses[c].segment] = 1;
    ptoc_state_add_operand(st, v);
    return true;
}

/* Clause operands must follow ins and outs in segment order, so they are added
 * as parsed only when written in PTOAS's order; the verifier reads segments. */
static bool parse_tload(ptoc_parser *p, ptoc_op_state *st)
{
    if (!ptoc_parser_peek(p, "ins"))
        return parse_ssa_form(p, st);
    uint32_t nins, nouts;
    int64_t seg[6] = {0};
    if (!pto_parse_optional_group(p, st, "ins", &nins) || !pto_parse_optional_group(p, st, "outs", &nouts) ||
        !ptoc_parse_optional_attr_dict(p, st))
        return false;
    seg[0] = nins;
    seg[1] = nouts;
    int last = -1;
    for (;;) {
        ptoc_loc loc = ptoc_parser_loc(p);
        int c = -1;
        for (int i = 0; i < TL_COUNT && c < 0; i++)
            if (ptoc_parse_optional(p, tload_clauses[i].name))
                c = i;
        if (c < 0)
            break;
        if (c <= last)
            return ptoc_parser_error_at(p, loc, "tload clause '%s' repeated or out of order (order: pad_mode, "
                                        "pad_value, left_padding_num, init_out_buffer, right_padding_num, "
                                        "init_condition)", tload_clauses[c].name);
        last = c;
        if (!parse_tload_clause(p, st, (tload_clause)c, seg))
            return false;
    }
    if (ptoc_parser_failed(p) || !pto_parse_arrow(p, st))
        return false;
    pto_add_segments(p, st, 6, seg);
    return true;
}

static void print_tload(ptoc_printer *p, const ptoc_op *op)
{
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    if (!seg || nseg != 6 || seg[0] != 1 || seg[1] != 1) {
        pto_print_dps(p, op);
        return;
    }
    static const char *const elided[] = {PTOC_SEGMENT_SIZES_ATTR, "pad_mode", "init_out_buffer"};
    pto_print_group(p, op, "ins", 0, 1, false);
    pto_print_group(p, op, "outs", 1, 1, false);
    ptoc_print_attr_dict(p, op, elided, 3);
    uint32_t next = 2;
    for (int c = 0; c < TL_COUNT; c++) {
        if (tload_clauses[c].segment < 0) {
            ptoc_attr *a = ptoc_op_attr(op, tload_clauses[c].name);
            if (a) {
                ptoc_print_fmt(p, " %s = ", tload_clauses[c].name);
                ptoc_print_attr(p, a);
            }
        } else if (seg[tload_clauses[c].segment] == 1 && next < op->noperands) {
            ptoc_print_fmt(p, " %s = ", tload_clauses[c].name);
            ptoc_print_value(p, ptoc_op_operand(op, next));
            ptoc_print_str(p, " : ");
            ptoc_print_value_type(p, ptoc_op_operand(op, next));
            next++;
        }
    }
    ptoc_print_arrow_result_types(p, op);
}

/* tstore: `ins(%t : T[, %q : i64]) outs(%v : P)`; the ins group also takes the
 * plain `ins(%t, %q : T, i64)` spelling. */
static bool parse_tstore(ptoc_parser *p, ptoc_op_state *st)
{
    if (!ptoc_parser_peek(p, "ins"))
        return parse_ssa_form(p, st);
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_operand_ref refs[2];
    ptoc_type *types[2], **list;
    uint32_t nins = 1, ntypes = 0, nouts;
    if (!ptoc_parse_expect(p, "ins") || !ptoc_parse_expect(p, "(") || !ptoc_parse_operand(p, &refs[0]))
        return false;
    if (ptoc_parse_optional(p, ":")) {                   /* %t : T[, %q : i64] */
        if (!pto_parse_type_or_bare(p, PTOC_PTO_TYPE_TILE_BUF, &types[ntypes++]))
            return false;
        if (ptoc_parse_optional(p, ",")) {
            if (!ptoc_parse_operand(p, &refs[nins++]) || !ptoc_parse_expect(p, ":") ||
                !ptoc_parse_type(p, &types[ntypes++]))
                return false;
        }
    } else {                                             /* %t[, %q] : T[, i64] */
        while (ptoc_parse_optional(p, ",")) {
            if (nins == 2)
                return ptoc_parser_error_at(p, loc, "tstore takes at most two ins (the tile and a pre-quant scalar)");
            if (!ptoc_parse_operand(p, &refs[nins++]))
                return false;
        }
        if (!ptoc_parse_expect(p, ":") || !pto_parse_type_list_or_bare(p, PTOC_PTO_TYPE_TILE_BUF, &list, &ntypes))
            return false;
        if (ntypes > 2)
            return ptoc_parser_error_at(p, loc, "tstore takes at most two ins (the tile and a pre-quant scalar)");
        memcpy(types, list, sizeof(ptoc_type *) * ntypes);
    }
    if (!ptoc_parse_expect(p, ")") || !ptoc_parse_resolve_list(p, refs, nins, types, ntypes, loc, st) ||
        !pto_parse_optional_group(p, st, "outs", &nouts) || !ptoc_parse_optional_attr_dict(p, st) ||
        !pto_parse_arrow(p, st))
        return false;
    int64_t seg[2] = {nins, nouts};
    pto_add_segments(p, st, 2, seg);
    return true;
}

static void print_tstore(ptoc_printer *p, const ptoc_op *op)
{
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    if (!seg || nseg != 2 || seg[0] != 2 || seg[1] != 1 || op->noperands != 3) {
        pto_print_dps(p, op);
        return;
    }
    ptoc_print_str(p, " ins(");
    for (uint32_t i = 0; i < 2; i++) {
        if (i)
            ptoc_print_str(p, ", ");
        ptoc_print_value(p, ptoc_op_operand(op, i));
        ptoc_print_str(p, " : ");
        ptoc_print_value_type(p, ptoc_op_operand(op, i));
    }
    ptoc_print_str(p, ")");
    pto_print_group(p, op, "outs", 2, 1, false);
    ptoc_print_attr_dict(p, op, &segment_attr_name, 1);
    ptoc_print_arrow_result_types(p, op);
}

/* ---------------------------------------------------------------- alloc_tile, views, tassign */

/* `pto.alloc_tile [addr = %a] [valid_row = %r] [valid_col = %c] {attrs} : T` */
static const char *const alloc_keys[3] = {"addr", "valid_row", "valid_col"};

static bool parse_alloc_tile(ptoc_parser *p, ptoc_op_state *st)
{
    int64_t seg[3] = {0, 0, 0};
    ptoc_operand_ref refs[3];
    for (int k = 0; k < 3; k++) {
        if (!ptoc_parse_optional(p, alloc_keys[k]))
            continue;
        if (!ptoc_parse_expect(p, "=") || !ptoc_parse_operand(p, &refs[k]))
            return false;
        ptoc_parse_optional(p, ",");           /* `valid_row = %r, valid_col = %c` also reads */
        seg[k] = 1;
    }
    ptoc_type *t;
    if (ptoc_parser_failed(p) || !ptoc_parse_optional_attr_dict(p, st) || !ptoc_parse_expect(p, ":") ||
        !ptoc_parse_type(p, &t))
        return false;
    ptoc_type *operand_types[3] = {ptoc_type_int(pctx(p), 64, PTOC_SIGNLESS), ptoc_type_index(pctx(p)),
                                   ptoc_type_index(pctx(p))};
    for (int k = 0; k < 3; k++) {
        ptoc_value *v;
        if (seg[k] && !ptoc_parse_resolve(p, &refs[k], operand_types[k], &v))
            return false;
        if (seg[k])
            ptoc_state_add_operand(st, v);
    }
    ptoc_state_add_result(st, t);
    pto_add_segments(p, st, 3, seg);
    return true;
}

static void print_alloc_tile(ptoc_printer *p, const ptoc_op *op)
{
    uint32_t nseg, next = 0;
    const int64_t *seg = pto_op_segments(op, &nseg);
    for (uint32_t k = 0; seg && nseg == 3 && k < 3; k++) {
        if (seg[k] != 1 || next >= op->noperands)
            continue;
        ptoc_print_fmt(p, " %s = ", alloc_keys[k]);
        ptoc_print_value(p, ptoc_op_operand(op, next++));
    }
    ptoc_print_attr_dict(p, op, &segment_attr_name, 1);
    ptoc_print_str(p, " : ");
    if (op->nresults == 1)
        ptoc_print_type(p, op->results[0].type);
}

/* `name = [%a, %b]` resolved at index type; n gets the count. */
static bool parse_index_list(ptoc_parser *p, ptoc_op_state *st, const char *name, int64_t *n)
{
    ptoc_operand_ref *refs;
    uint32_t count;
    if (!ptoc_parse_expect(p, name) || !ptoc_parse_expect(p, "=") || !ptoc_parse_expect(p, "[") ||
        !ptoc_parse_operand_list(p, &refs, &count) || !ptoc_parse_expect(p, "]"))
        return false;
    for (uint32_t i = 0; i < count; i++) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &refs[i], ptoc_type_index(pctx(p)), &v))
            return false;
        ptoc_state_add_operand(st, v);
    }
    *n = count;
    return true;
}

static void print_index_list(ptoc_printer *p, const ptoc_op *op, const char *name, uint32_t from, uint32_t n)
{
    ptoc_print_fmt(p, ", %s = [", name);
    ptoc_print_operands(p, op, from, n);
    ptoc_print_str(p, "]");
}

/* `%src, NAME1 = [...], NAME2 = [...] {attrs}`; the source resolves at src_type
 * once that is known, so its ref is returned. */
static bool parse_two_lists(ptoc_parser *p, ptoc_op_state *st, const char *first, const char *second,
                            ptoc_operand_ref *src, int64_t seg[3])
{
    /* Operands must come out as src, first..., second...: src is resolved
     * later, so the lists are parsed into a scratch state and appended after. */
    ptoc_op_state lists;
    ptoc_state_init(&lists, st->arena, st->def, st->loc);
    if (!ptoc_parse_operand(p, src) || !ptoc_parse_expect(p, ",") ||
        !parse_index_list(p, &lists, first, &seg[1]) || !ptoc_parse_expect(p, ",") ||
        !parse_index_list(p, &lists, second, &seg[2]) || !ptoc_parse_optional_attr_dict(p, st))
        return false;
    seg[0] = 1;
    for (uint32_t i = 0; i < lists.noperands; i++)
        ptoc_state_add_operand(st, lists.operands[i]);
    return true;
}

/* Moves the last operand (the source, resolved after the lists) to the front. */
static void move_last_operand_first(ptoc_op_state *st)
{
    ptoc_value *src = st->operands[st->noperands - 1];
    memmove(&st->operands[1], &st->operands[0], sizeof(ptoc_value *) * (st->noperands - 1));
    st->operands[0] = src;
}

/* `pto.make_tensor_view %p, shape = [...], strides = [...] {attrs} : !pto.tensor_view<...>` */
static bool parse_make_tensor_view(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref src;
    int64_t seg[3];
    ptoc_type *t;
    ptoc_loc tloc;
    if (!parse_two_lists(p, st, "shape", "strides", &src, seg) || !ptoc_parse_expect(p, ":"))
        return false;
    tloc = ptoc_parser_loc(p);
    if (!ptoc_parse_type(p, &t))
        return false;
    const ptoc_pto_view *view = ptoc_pto_tensor_view(t);
    if (!view)
        return ptoc_parser_error_at(p, tloc, "expected result type !pto.tensor_view<...>");
    ptoc_value *v;
    if (!ptoc_parse_resolve(p, &src, ptoc_pto_ptr_type(pctx(p), view->elem), &v))
        return false;
    ptoc_state_add_operand(st, v);
    move_last_operand_first(st);
    ptoc_state_add_result(st, t);
    pto_add_segments(p, st, 3, seg);
    return true;
}

/* `pto.partition_view %tv, offsets = [...], sizes = [...] {attrs} : A -> B` */
static bool parse_partition_view(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref src;
    int64_t seg[3];
    ptoc_type *from, *to;
    ptoc_value *v;
    if (!parse_two_lists(p, st, "offsets", "sizes", &src, seg) || !ptoc_parse_expect(p, ":") ||
        !ptoc_parse_type(p, &from) || !ptoc_parse_expect(p, "->") || !ptoc_parse_type(p, &to) ||
        !ptoc_parse_resolve(p, &src, from, &v))
        return false;
    ptoc_state_add_operand(st, v);
    move_last_operand_first(st);
    ptoc_state_add_result(st, to);
    pto_add_segments(p, st, 3, seg);
    return true;
}

static void print_two_lists(ptoc_printer *p, const ptoc_op *op, const char *first, const char *second)
{
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    if (!seg || nseg != 3 || op->noperands < 1 || (uint64_t)seg[1] + (uint64_t)seg[2] + 1 != op->noperands) {
        print_ssa_form(p, op);              /* malformed: the verifier reports it */
        return;
    }
    ptoc_print_str(p, " ");
    ptoc_print_value(p, ptoc_op_operand(op, 0));
    print_index_list(p, op, first, 1, (uint32_t)seg[1]);
    print_index_list(p, op, second, 1 + (uint32_t)seg[1], (uint32_t)seg[2]);
    ptoc_print_attr_dict(p, op, &segment_attr_name, 1);
}

static void print_make_tensor_view(ptoc_printer *p, const ptoc_op *op)
{
    print_two_lists(p, op, "shape", "strides");
    if (op->nresults == 1 && op->noperands >= 1 && ptoc_op_segment_attr(op)) {
        ptoc_print_str(p, " : ");
        ptoc_print_type(p, op->results[0].type);
    }
}

static void print_partition_view(ptoc_printer *p, const ptoc_op *op)
{
    print_two_lists(p, op, "offsets", "sizes");
    if (op->nresults == 1 && op->noperands >= 1 && ptoc_op_segment_attr(op)) {
        ptoc_print_str(p, " : ");
        ptoc_print_value_type(p, ptoc_op_operand(op, 0));
        ptoc_print_str(p, " -> ");
        ptoc_print_type(p, op->results[0].type);
    }
}

/* pto.tassign in each spelling; with no result named, the tile's name stands
 * for the assigned tile afterwards (the ISA binds the tile in place):
 *   %r = pto.tassign %t, %addr {attrs} : T [, A] -> R     PTOAS (A i64 or index, default i64)
 *   [%r =] pto.tassign %t, tile(0x1000) {attrs} [: T [-> R]]   the ISA pages (also @tile(...))
 *   pto.tassign %t, %addr : T, A                          tassign.md's Level 1
 *   pto.tassign ins(%t, %addr : T, A) {attrs}             tassign.md's DPS
 * The address is operand 1, or the i64 attribute `addr` (ptoc_pto_buffer_addr). */
typedef struct tassign_text {
    ptoc_operand_ref tile, addr;
    bool addr_operand;
    ptoc_type *tile_type, *addr_type, *result_type;
} tassign_text;

/* `tile(N)` or `@tile(N)`: the address attribute. */
static bool parse_tile_literal(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_ident *sym = NULL;
    if (!ptoc_parse_optional(p, "tile") && !ptoc_parse_optional_symbol_name(p, &sym))
        return ptoc_parser_failed(p) ? false
                                     : ptoc_parser_error_at(p, loc, "expected the address: an i64 value, tile(N) "
                                                                    "or @tile(N)");
    if (sym && strcmp(sym->str, "tile") != 0)
        return ptoc_parser_error_at(p, loc, "expected @tile(N), got @%s", sym->str);
    int64_t addr;
    if (!ptoc_parse_expect(p, "("))
        return false;
    loc = ptoc_parser_loc(p);
    if (!ptoc_parse_integer(p, &addr) || !ptoc_parse_expect(p, ")"))
        return false;
    if (addr < 0)
        return ptoc_parser_error_at(p, loc, "a tile address is a byte offset, not %lld", (long long)addr);
    pto_add_attr(p, st, "addr", ptoc_attr_int(pctx(p), ptoc_type_int(pctx(p), 64, PTOC_SIGNLESS), addr));
    return true;
}

/* `ins(%t, %addr : T, A)` */
static bool parse_tassign_ins(ptoc_parser *p, tassign_text *tx)
{
    tx->addr_operand = true;
    return ptoc_parse_expect(p, "(") && ptoc_parse_operand(p, &tx->tile) && ptoc_parse_expect(p, ",") &&
           ptoc_parse_operand(p, &tx->addr) && ptoc_parse_expect(p, ":") && ptoc_parse_type(p, &tx->tile_type) &&
           ptoc_parse_expect(p, ",") && ptoc_parse_type(p, &tx->addr_type) && ptoc_parse_expect(p, ")");
}

/* `%t, ADDR {attrs} [: T [, A] [-> R]]` */
static bool parse_tassign_operands(ptoc_parser *p, ptoc_op_state *st, tassign_text *tx)
{
    if (!ptoc_parse_operand(p, &tx->tile) || !ptoc_parse_expect(p, ","))
        return false;
    tx->addr_operand = ptoc_parse_optional_operand(p, &tx->addr);
    if (ptoc_parser_failed(p) || (!tx->addr_operand && !parse_tile_literal(p, st)) ||
        !ptoc_parse_optional_attr_dict(p, st))
        return false;
    if (!ptoc_parse_optional(p, ":"))
        return !ptoc_parser_failed(p);
    if (!ptoc_parse_type(p, &tx->tile_type))
        return false;
    if (tx->addr_operand && ptoc_parse_optional(p, ",") && !ptoc_parse_type(p, &tx->addr_type))
        return false;
    return !ptoc_parse_optional(p, "->") ? !ptoc_parser_failed(p) : ptoc_parse_type(p, &tx->result_type);
}

/* `assembly`: a written !pto.tile also names a defined tile_buf of its
 * description, as in every PTO-AS statement (pto_asm.c). */
static bool parse_tassign_form(ptoc_parser *p, ptoc_op_state *st, bool assembly)
{
    tassign_text tx = {0};
    bool dps = ptoc_parse_optional(p, "ins");
    if (dps ? !parse_tassign_ins(p, &tx) || !ptoc_parse_optional_attr_dict(p, st)
            : !parse_tassign_operands(p, st, &tx))
        return false;
    ptoc_type *defined = ptoc_parser_defined_type(p, &tx.tile);
    if (assembly && defined && tx.tile_type && pto_same_tile(defined, tx.tile_type))
        tx.tile_type = defined;
    if (assembly && defined && tx.result_type && pto_same_tile(defined, tx.result_type))
        tx.result_type = defined;
    if (!tx.tile_type)
        tx.tile_type = defined;
    if (!tx.tile_type)
        return ptoc_parser_error_at(p, tx.tile.loc, "the type of '%%%s' is not known here: write it after a colon",
                                    tx.tile.name->str);
    ptoc_value *v;
    if (!ptoc_parse_resolve(p, &tx.tile, tx.tile_type, &v))
        return false;
    ptoc_state_add_operand(st, v);
    ptoc_type *i64 = ptoc_type_int(pctx(p), 64, PTOC_SIGNLESS);
    if (tx.addr_operand && !ptoc_parse_resolve(p, &tx.addr, tx.addr_type ? tx.addr_type : i64, &v))
        return false;
    if (tx.addr_operand)
        ptoc_state_add_operand(st, v);
    ptoc_state_add_result(st, tx.result_type ? tx.result_type : tx.tile_type);
    return st->nresults_expected > 0 || ptoc_parser_rebind_to_result(p, &tx.tile);
}

static bool parse_tassign(ptoc_parser *p, ptoc_op_state *st) { return parse_tassign_form(p, st, false); }
static bool parse_tassign_asm(ptoc_parser *p, ptoc_op_state *st) { return parse_tassign_form(p, st, true); }

static void print_tassign(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_pto_addr a = ptoc_pto_buffer_addr(op);
    if (op->noperands < 1 || op->nresults != 1 || !a.given) {
        print_ssa_form(p, op);              /* malformed: the verifier reports it */
        return;
    }
    static const char *const elided[] = {"addr"};
    ptoc_print_str(p, " ");
    ptoc_print_value(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, ", ");
    if (a.value)
        ptoc_print_value(p, a.value);
    else
        ptoc_print_fmt(p, "tile(0x%llx)", (unsigned long long)a.offset);
    ptoc_print_attr_dict(p, op, elided, a.value ? 0 : 1);
    ptoc_print_str(p, " : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
    if (a.value && a.value->type != ptoc_type_int(ptoc_printer_context(p), 64, PTOC_SIGNLESS)) {
        ptoc_print_str(p, ", ");
        ptoc_print_value_type(p, a.value);
    }
    ptoc_print_str(p, " -> ");
    ptoc_print_type(p, op->results[0].type);
}

/* PTO-AS: `tassign %t, tile(0x1000)` and the rest, as above without `pto.`. */
static bool print_tassign_asm(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_str(p, "tassign");
    print_tassign(p, op);
    return true;
}

ptoc_pto_addr ptoc_pto_buffer_addr(const ptoc_op *op)
{
    ptoc_pto_addr a = {false, NULL, false, 0};
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    if (ptoc_pto_is(op, PTOC_PTO_OP_ALLOC_TILE) && seg && nseg == 3 && seg[0] == 1 && op->noperands > 0) {
        a.value = ptoc_op_operand(op, 0);
    } else if (ptoc_pto_is(op, PTOC_PTO_OP_TASSIGN) && op->noperands >= 2) {
        a.value = ptoc_op_operand(op, 1);
    } else if (ptoc_pto_is(op, PTOC_PTO_OP_TASSIGN)) {
        ptoc_attr *attr = ptoc_op_attr(op, "addr");
        a.given = a.known = attr && attr->kind == PTOC_ATTR_INTEGER;
        a.offset = a.known ? attr->u.integer.value : 0;
    }
    if (a.value) {
        a.given = true;
        a.known = ptoc_arith_int_constant(a.value, &a.offset);   /* as manual mode writes it */
    }
    return a;
}

/* alloc_tile's operands are [addr] [valid_row] [valid_col], each segment 0 or 1. */
void ptoc_pto_alloc_tile_valid(const ptoc_op *op, ptoc_value *valid[2])
{
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    valid[0] = valid[1] = NULL;
    if (!ptoc_pto_is(op, PTOC_PTO_OP_ALLOC_TILE))
        return;
    for (uint32_t k = 0, next = 0; k < 3 && k < nseg; k++) {
        if (seg[k] != 1)
            continue;
        if (k > 0)
            valid[k - 1] = ptoc_op_operand(op, next);
        next++;
    }
}

/* ---------------------------------------------------------------- sync forms */

/* One bracket slot: an enum attribute of `kind` (full or stripped), or, when
 * `allow_operand`, an SSA index value. */
typedef struct sync_slot {
    const char *attr;                 /* attribute name */
    ptoc_pto_enum_kind kind;
    bool stripped;                    /* printed as `<X>` rather than `#pto.k<X>` */
} sync_slot;

static const sync_slot flag_slots[3] = {
    {"src_pipe", PTOC_PTO_ENUM_PIPE, true}, {"dst_pipe", PTOC_PTO_ENUM_PIPE, true},
    {"event_id", PTOC_PTO_ENUM_EVENT, true},
};
static const sync_slot event_slots[3] = {
    {"src_op", PTOC_PTO_ENUM_PIPE_EVENT_TYPE, false}, {"dst_op", PTOC_PTO_ENUM_PIPE_EVENT_TYPE, false},
    {"event_id", PTOC_PTO_ENUM_EVENT, false},
};
static const sync_slot barrier_sync_slot = {"op_type", PTOC_PTO_ENUM_SYNC_OP_TYPE, true};
static const sync_slot buf_slot = {"op_type", PTOC_PTO_ENUM_PIPE_EVENT_TYPE, false};
static const sync_slot pipe_slot = {"pipe", PTOC_PTO_ENUM_PIPE, true};

static bool parse_slot(ptoc_parser *p, ptoc_op_state *st, const sync_slot *s)
{
    ptoc_attr *a;
    if (!pto_parse_enum_value_attr(p, s->kind, false, &a))
        return false;
    pto_add_attr(p, st, s->attr, a);
    return true;
}

static void print_slot(ptoc_printer *p, const ptoc_op *op, const sync_slot *s)
{
    ptoc_attr *a = ptoc_op_attr(op, s->attr);
    uint32_t v;
    if (a && s->stripped && ptoc_pto_enum_value(a, s->kind, &v))
        pto_print_enum_stripped(p, a);
    else if (a)
        ptoc_print_attr(p, a);
    else
        ptoc_print_fmt(p, "<missing %s>", s->attr);   /* the verifier reports it */
}

/* `[S, S, S] {attrs}`; with `dyn`, the last slot is an index operand. */
static bool parse_bracket3(ptoc_parser *p, ptoc_op_state *st, const sync_slot *slots, bool dyn)
{
    if (!ptoc_parse_expect(p, "[") || !parse_slot(p, st, &slots[0]) || !ptoc_parse_expect(p, ",") ||
        !parse_slot(p, st, &slots[1]) || !ptoc_parse_expect(p, ","))
        return false;
    if (dyn) {
        ptoc_operand_ref ref;
        ptoc_value *v;
        if (!ptoc_parse_operand(p, &ref) || !ptoc_parse_resolve(p, &ref, ptoc_type_index(pctx(p)), &v))
            return false;
        ptoc_state_add_operand(st, v);
    } else if (!parse_slot(p, st, &slots[2])) {
        return false;
    }
    return ptoc_parse_expect(p, "]") && ptoc_parse_optional_attr_dict(p, st);
}

static void print_bracket3(ptoc_printer *p, const ptoc_op *op, const sync_slot *slots, bool dyn)
{
    const char *elided[3] = {slots[0].attr, slots[1].attr, dyn ? "" : slots[2].attr};
    ptoc_print_str(p, "[");
    print_slot(p, op, &slots[0]);
    ptoc_print_str(p, ", ");
    print_slot(p, op, &slots[1]);
    ptoc_print_str(p, ", ");
    if (dyn && op->noperands == 1)
        ptoc_print_value(p, ptoc_op_operand(op, 0));
    else
        print_slot(p, op, &slots[2]);
    ptoc_print_str(p, "]");
    ptoc_print_attr_dict(p, op, elided, 3);
}

static bool parse_flag(ptoc_parser *p, ptoc_op_state *st) { return parse_bracket3(p, st, flag_slots, false); }
static void print_flag(ptoc_printer *p, const ptoc_op *op) { print_bracket3(p, op, flag_slots, false); }
static bool parse_flag_dyn(ptoc_parser *p, ptoc_op_state *st) { return parse_bracket3(p, st, flag_slots, true); }
static void print_flag_dyn(ptoc_printer *p, const ptoc_op *op) { print_bracket3(p, op, flag_slots, true); }
static bool parse_event(ptoc_parser *p, ptoc_op_state *st) { return parse_bracket3(p, st, event_slots, false); }
static void print_event(ptoc_printer *p, const ptoc_op *op) { print_bracket3(p, op, event_slots, false); }

/* `pto.barrier <PIPE_ALL>` (also pipe_barrier) */
static bool parse_barrier(ptoc_parser *p, ptoc_op_state *st)
{
    return parse_slot(p, st, &pipe_slot) && ptoc_parse_optional_attr_dict(p, st);
}

static void print_barrier(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_str(p, " ");
    print_slot(p, op, &pipe_slot);
    ptoc_print_attr_dict(p, op, &pipe_slot.attr, 1);
}

/* `pto.barrier_sync [<TVEC>]` */
static bool parse_barrier_sync(ptoc_parser *p, ptoc_op_state *st)
{
    return ptoc_parse_expect(p, "[") && parse_slot(p, st, &barrier_sync_slot) && ptoc_parse_expect(p, "]") &&
           ptoc_parse_optional_attr_dict(p, st);
}

static void print_barrier_sync(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_str(p, " [");
    print_slot(p, op, &barrier_sync_slot);
    ptoc_print_str(p, "]");
    ptoc_print_attr_dict(p, op, &barrier_sync_slot.attr, 1);
}

/* `pto.get_buf [#pto.pipe_event_type<TLOAD>, 0]` (also rls_buf); buf_id is i32. */
static bool parse_buf(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_loc loc;
    int64_t id;
    if (!ptoc_parse_expect(p, "[") || !parse_slot(p, st, &buf_slot) || !ptoc_parse_expect(p, ","))
        return false;
    loc = ptoc_parser_loc(p);
    if (!ptoc_parse_integer(p, &id) || !ptoc_parse_expect(p, "]"))
        return false;
    if (id < INT32_MIN || id > INT32_MAX)
        return ptoc_parser_error_at(p, loc, "buf_id out of range for i32: %lld", (long long)id);
    pto_add_attr(p, st, "buf_id", ptoc_attr_int(pctx(p), ptoc_type_int(pctx(p), 32, PTOC_SIGNLESS), id));
    return ptoc_parse_optional_attr_dict(p, st);
}

static void print_buf(ptoc_printer *p, const ptoc_op *op)
{
    static const char *const elided[] = {"op_type", "buf_id"};
    ptoc_attr *id = ptoc_op_attr(op, "buf_id");
    ptoc_print_str(p, " [");
    print_slot(p, op, &buf_slot);
    ptoc_print_str(p, ", ");
    if (id)
        ptoc_print_attr_no_type(p, id);
    ptoc_print_str(p, "]");
    ptoc_print_attr_dict(p, op, elided, 2);
}

/* `pto.sync.set <PIPE_FIX>, 0` or `... , %e` (also sync.wait) */
static bool parse_cross_sync(ptoc_parser *p, ptoc_op_state *st)
{
    if (!parse_slot(p, st, &pipe_slot) || !ptoc_parse_expect(p, ","))
        return false;
    ptoc_operand_ref ref;
    int64_t id;
    ptoc_loc loc = ptoc_parser_loc(p);
    if (ptoc_parse_optional_operand(p, &ref)) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &ref, ptoc_type_index(pctx(p)), &v))
            return false;
        ptoc_state_add_operand(st, v);
    } else if (ptoc_parser_failed(p) || !ptoc_parse_integer(p, &id)) {
        return false;
    } else if (id < INT32_MIN || id > INT32_MAX) {
        return ptoc_parser_error_at(p, loc, "event id out of range for i32: %lld", (long long)id);
    } else {
        pto_add_attr(p, st, "event_id", ptoc_attr_int(pctx(p), ptoc_type_int(pctx(p), 32, PTOC_SIGNLESS), id));
    }
    return ptoc_parse_optional_attr_dict(p, st);
}

static void print_cross_sync(ptoc_printer *p, const ptoc_op *op)
{
    static const char *const elided[] = {"pipe", "event_id"};
    ptoc_attr *id = ptoc_op_attr(op, "event_id");
    ptoc_print_str(p, " ");
    print_slot(p, op, &pipe_slot);
    ptoc_print_str(p, ", ");
    if (id)
        ptoc_print_attr_no_type(p, id);
    else if (op->noperands == 1)
        ptoc_print_value(p, ptoc_op_operand(op, 0));
    ptoc_print_attr_dict(p, op, elided, 2);
}

/* ---------------------------------------------------------------- queries, sections, print */

/* `%i = pto.get_block_idx {attrs}`: the result is always i64. */
static bool parse_query(ptoc_parser *p, ptoc_op_state *st)
{
    if (!ptoc_parse_optional_attr_dict(p, st))
        return false;
    ptoc_state_add_result(st, ptoc_type_int(pctx(p), 64, PTOC_SIGNLESS));
    return true;
}

static void print_query(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_attr_dict(p, op, NULL, 0);
}

/* `pto.section.cube { ... } {attrs}` */
static bool parse_section(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_region *r = ptoc_state_add_region(st);
    return ptoc_parse_region(p, r, NULL, 0, NULL) && ptoc_parse_optional_attr_dict(p, st);
}

static void print_section(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_str(p, " ");
    if (op->nregions == 1)
        ptoc_print_region(p, &op->regions[0], false, NULL);
    ptoc_print_attr_dict(p, op, NULL, 0);
}

/* `pto.vecscope ins(...) outs(...) { region } {attrs}`: the DPS groups, then
 * the region, then the attributes, as a section writes them. */
static bool parse_vecscope(ptoc_parser *p, ptoc_op_state *st)
{
    uint32_t nins, nouts;
    if (!pto_parse_optional_group(p, st, "ins", &nins) || !pto_parse_optional_group(p, st, "outs", &nouts))
        return false;
    int64_t seg[2] = {nins, nouts};
    pto_add_segments(p, st, 2, seg);
    return parse_section(p, st);
}

static void print_vecscope(ptoc_printer *p, const ptoc_op *op)
{
    uint32_t nins, nouts;
    if (!ptoc_pto_dps_split(op, &nins, &nouts) || op->nregions != 1) {
        print_ssa_form(p, op);
        return;
    }
    if (nins > 0)
        pto_print_group(p, op, "ins", 0, nins, false);
    if (nouts > 0)
        pto_print_group(p, op, "outs", nins, nouts, false);
    ptoc_print_str(p, " ");
    ptoc_print_region(p, &op->regions[0], false, NULL);
    ptoc_print_attr_dict(p, op, &segment_attr_name, 1);
}

/* `pto.print ins("fmt", %x : T) {attrs}` */
static bool parse_print_op(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_ident *fmt;
    ptoc_operand_ref ref;
    ptoc_type *t;
    ptoc_value *v;
    if (!ptoc_parse_expect(p, "ins") || !ptoc_parse_expect(p, "(") || !ptoc_parse_string(p, &fmt) ||
        !ptoc_parse_expect(p, ",") || !ptoc_parse_operand(p, &ref) || !ptoc_parse_expect(p, ":") ||
        !ptoc_parse_type(p, &t) || !ptoc_parse_expect(p, ")") || !ptoc_parse_resolve(p, &ref, t, &v))
        return false;
    ptoc_state_add_operand(st, v);
    pto_add_attr(p, st, "format", ptoc_attr_string(pctx(p), fmt->str, fmt->len));
    return ptoc_parse_optional_attr_dict(p, st);
}

static void print_print_op(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_attr *fmt = ptoc_op_attr(op, "format");
    if (!fmt || fmt->kind != PTOC_ATTR_STRING || op->noperands != 1) {
        print_ssa_form(p, op);
        return;
    }
    static const char *const elided[] = {"format"};
    ptoc_print_str(p, " ins(");
    ptoc_print_string_lit(p, fmt->u.string->str, fmt->u.string->len);
    ptoc_print_str(p, ", ");
    ptoc_print_value(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, " : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, ")");
    ptoc_print_attr_dict(p, op, elided, 1);
}

/* ---------------------------------------------------------------- the op table */

/* The rows are those of pto_ops.def, in its order, so row i has opcode i. */
#define PTO_OP(id, name, form, level1, pipe, ilo, ihi, olo, ohi, flags, parse, print, verify, parse_asm, print_asm, \
               inplace, whole, scratch, window, vshape)                                                          \
    {{PTOC_PTO_OP_##id, "pto." name, form, pipe, ilo, ihi, olo, ohi, level1}, flags, parse, print, verify,       \
     parse_asm, print_asm, #verify},
static const pto_op_row pto_rows[] = {
#include "dialect/pto_ops.def"
};
#undef PTO_OP

#define PTO_NOPS (sizeof pto_rows / sizeof pto_rows[0])
_Static_assert(PTO_NOPS == PTOC_PTO_OP_COUNT, "one row per opcode");

/* Filled from pto_rows on first registration (the core wants a contiguous array
 * of ptoc_op_def; our rows carry more). */
static ptoc_op_def pto_op_defs[PTO_NOPS + PTOC_PTO_VOP_COUNT];   /* the micro-ops after the tile ops */

const ptoc_dialect pto_dialect = {
    .name = "pto",
    .ops = pto_op_defs,
    .nops = PTO_NOPS + PTOC_PTO_VOP_COUNT,
    .parse_type = pto_parse_type,
    .print_type = pto_print_type,
    .parse_attr = pto_parse_attr,
    .print_attr = pto_print_attr,
    .data = pto_rows,
};

const ptoc_dialect *ptoc_pto_dialect(void) { return &pto_dialect; }

static void fill_op_defs(void)
{
    for (size_t i = 0; i < PTO_NOPS; i++) {
        const pto_op_row *r = &pto_rows[i];
        pto_op_defs[i] = (ptoc_op_def){
            .name = r->info.name, .flags = r->flags, .parse = r->parse, .print = r->print,
            .verify = r->verify, .data = r, .summary = NULL, .parse_asm = r->parse_asm,
            .print_asm = r->print_asm,
        };
    }
    pto_fill_vop_defs(pto_op_defs + PTO_NOPS);
}

/* The tables above are process-wide and filled once, before the first context
 * registers the dialect, so several threads may create contexts at once; a
 * registration after the first costs one load. pthread_once rather than C11
 * call_once: ThreadSanitizer sees the order pthread_once gives (glibc's
 * call_once bypasses its interceptor), so a TSan run checks this. */
static pthread_once_t op_defs_once = PTHREAD_ONCE_INIT;

void ptoc_register_pto_dialect(ptoc_context *ctx)
{
    if (ptoc_context_dialect(ctx, "pto", 3))
        return;
    pthread_once(&op_defs_once, fill_op_defs);
    ptoc_context_register_dialect(ctx, &pto_dialect);
}

const ptoc_pto_op_info *ptoc_pto_op_info_of(const ptoc_op *op)
{
    if (!op->def || op->def->data < (const void *)pto_rows ||
        op->def->data >= (const void *)(pto_rows + PTO_NOPS))
        return NULL;
    return &((const pto_op_row *)op->def->data)->info;
}

ptoc_pto_op_id ptoc_pto_opcode(const ptoc_op *op)
{
    const ptoc_pto_op_info *info = ptoc_pto_op_info_of(op);
    return info ? info->opcode : PTOC_PTO_OP_NONE;
}

const char *ptoc_pto_op_name(ptoc_pto_op_id opcode)
{
    return opcode >= 0 && opcode < PTOC_PTO_OP_COUNT ? pto_rows[opcode].info.name : NULL;
}

const char *ptoc_pto_op_verifier_name(ptoc_pto_op_id opcode)
{
    return opcode >= 0 && opcode < PTOC_PTO_OP_COUNT ? pto_rows[opcode].verify_name : NULL;
}

size_t ptoc_pto_op_count(void) { return PTO_NOPS; }

const ptoc_pto_op_info *ptoc_pto_op_info_at(size_t i)
{
    return i < PTO_NOPS ? &pto_rows[i].info : NULL;
}
