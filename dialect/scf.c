/* scf.c: the scf dialect of MLIR 19: structured control flow.
 *
 *   scf.for %i = %lb to %ub step %s [iter_args(%acc = %init, ...) -> (T, ...)] [: i32] { ... }
 *   %r = scf.if %c [-> (T, ...)] { ... } [else { ... }]
 *   %r = scf.while (%a = %init, ...) : (T, ...) -> (U, ...) { ... scf.condition(%c) %x : U }
 *        do { ^bb0(%x: U): ... scf.yield %a : T }
 *   %r = scf.execute_region [-> (T, ...)] { ... }
 *   scf.yield [%a, ... : T, ...]            scf.condition(%c) [%a, ... : T, ...]
 *
 * The bounds of a for are index unless a type follows `:`. Bodies of for and if
 * get an empty scf.yield when the text leaves it out, and the printer leaves an
 * empty yield out, as MLIR does. The verifiers check the values flowing along
 * every edge between the parent and its regions (counts and types), with MLIR's
 * wording ("region control flow edge from Region #0 to parent results ...").
 */
#include "ptoc/ptoc.h"

#include <string.h>

#include "dialect/upstream.h"

/* ---------------------------------------------------------------- shared helpers */

/* Gives an empty region the block an implicit terminator needs, with an empty
 * scf.yield (MLIR's ensureTerminator). Blocks without a terminator get theirs
 * from ptoc_parse_region. */
static void ensure_yield_block(ptoc_parser *p, ptoc_region *r)
{
    if (r->first)
        return;
    ptoc_arena *arena = ptoc_parser_arena(p);
    ptoc_context *ctx = ptoc_parser_context(p);
    ptoc_block *b = ptoc_block_create(arena);
    ptoc_op_state st;
    ptoc_state_init(&st, arena, ptoc_context_op_def(ctx, "scf.yield", strlen("scf.yield")),
                    ptoc_parser_loc(p));
    ptoc_block_append(b, ptoc_op_create(arena, &st));
    ptoc_region_append(r, b);
}

/* The terminator of a region's first block if it is `name`, else NULL. */
static const ptoc_op *region_terminator(const ptoc_region *r, const char *name)
{
    const ptoc_op *t = r->first ? ptoc_block_terminator(r->first) : NULL;
    return t && ptoc_op_is(t, name) ? t : NULL;
}

/* One end of a control flow edge: operands of an op, arguments of a block or
 * results of an op, from index `from` on. */
typedef enum flow_kind { FLOW_OPERANDS, FLOW_ARGS, FLOW_RESULTS } flow_kind;
typedef struct flow_end {
    flow_kind kind;
    const ptoc_op *op;           /* FLOW_OPERANDS, FLOW_RESULTS */
    const ptoc_block *block;     /* FLOW_ARGS */
    uint32_t from;
    const char *name;            /* "parent operands", "Region #0", ... */
} flow_end;

static flow_end operands_of(const ptoc_op *op, uint32_t from, const char *name)
{
    flow_end e = {FLOW_OPERANDS, op, NULL, from, name};
    return e;
}

static flow_end args_of(const ptoc_region *r, uint32_t from, const char *name)
{
    flow_end e = {FLOW_ARGS, NULL, r->first, from, name};
    return e;
}

static flow_end results_of(const ptoc_op *op)
{
    flow_end e = {FLOW_RESULTS, op, NULL, 0, "parent results"};
    return e;
}

static uint32_t flow_count(const flow_end *e)
{
    uint32_t total = e->kind == FLOW_OPERANDS ? e->op->noperands
                     : e->kind == FLOW_RESULTS ? e->op->nresults
                     : e->block ? e->block->nargs : 0;
    return total > e->from ? total - e->from : 0;
}

static ptoc_type *flow_type(const flow_end *e, uint32_t i)
{
    switch (e->kind) {
    case FLOW_OPERANDS: return ptoc_op_operand(e->op, e->from + i)->type;
    case FLOW_ARGS: return e->block->args[e->from + i]->type;
    case FLOW_RESULTS: return e->op->results[e->from + i].type;
    }
    return NULL;
}

/* The values leaving `src` must match, in number and types, those entering `dst`. */
static bool check_flow(const ptoc_op *op, flow_end src, flow_end dst)
{
    uint32_t ns = flow_count(&src), nd = flow_count(&dst);
    if (ns != nd) {
        ptoc_op_emit_error(op, "region control flow edge from %s to %s: source has %u "
                               "operands, but target successor needs %u",
                           src.name, dst.name, ns, nd);
        return false;
    }
    for (uint32_t i = 0; i < ns; i++) {
        ptoc_type *a = flow_type(&src, i), *b = flow_type(&dst, i);
        if (a != b) {
            ptoc_op_emit_error(op, "along control flow edge from %s to %s: source type #%u "
                                   "'%s' should match input type #%u '%s'",
                               src.name, dst.name, i, ptoc_upstream_type_text(a).text, i,
                               ptoc_upstream_type_text(b).text);
            return false;
        }
    }
    return true;
}

static bool is_i1(const ptoc_type *t)
{
    return ptoc_type_is_int(t) && t->u.integer.width == 1 && t->u.integer.sign == PTOC_SIGNLESS;
}

static bool check_i1_operand(const ptoc_op *op)
{
    if (op->noperands == 0 || !is_i1(ptoc_op_operand(op, 0)->type)) {
        ptoc_op_emit_error(op, "operand #0 must be 1-bit signless integer, but got '%s'",
                           op->noperands ? ptoc_upstream_type_text(ptoc_op_operand(op, 0)->type).text
                                         : "nothing");
        return false;
    }
    return true;
}

static bool check_regions(const ptoc_op *op, uint32_t n)
{
    if (op->nregions != n) {
        ptoc_op_emit_error(op, "requires %u regions", n);
        return false;
    }
    return true;
}

static bool check_terminator(const ptoc_op *op, const ptoc_region *r, const char *which,
                             const char *name)
{
    if (region_terminator(r, name))
        return true;
    ptoc_op_emit_error(op, "expects the %s region to terminate with '%s'", which, name);
    return false;
}

/* ---------------------------------------------------------------- scf.for */

static bool for_parse_iter_args(ptoc_parser *p, ptoc_op_state *st, ptoc_region_arg **iters,
                                ptoc_operand_ref **inits, uint32_t *niter)
{
    *niter = 0;
    if (!ptoc_parse_optional(p, "iter_args"))
        return !ptoc_parser_failed(p);
    if (!ptoc_parse_expect(p, "(") || !ptoc_upstream_parse_assignments(p, iters, inits, niter))
        return false;
    ptoc_loc loc = ptoc_parser_loc(p);
    if (!ptoc_parser_peek(p, "->"))
        return ptoc_parse_expect(p, "->");
    if (!ptoc_parse_optional_arrow_types(p, st) && ptoc_parser_failed(p))
        return false;
    if (st->nresult_types != *niter)
        return ptoc_parser_error_at(p, loc, "expected %u types after '->' (one per iter_arg), got %u",
                                    *niter, st->nresult_types);
    return true;
}

static bool for_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_arena *arena = ptoc_parser_arena(p);
    ptoc_region_arg iv;
    ptoc_operand_ref bounds[3], *inits = NULL;
    ptoc_region_arg *iters = NULL;
    uint32_t niter;
    ptoc_type *type = ptoc_type_index(ptoc_parser_context(p));
    if (!ptoc_parse_region_arg(p, &iv, false) || !ptoc_parse_expect(p, "=") ||
        !ptoc_parse_operand(p, &bounds[0]) || !ptoc_parse_expect(p, "to") ||
        !ptoc_parse_operand(p, &bounds[1]) || !ptoc_parse_expect(p, "step") ||
        !ptoc_parse_operand(p, &bounds[2]) || !for_parse_iter_args(p, st, &iters, &inits, &niter))
        return false;
    if (ptoc_parse_optional(p, ":") && !ptoc_parse_type(p, &type))
        return false;
    for (uint32_t i = 0; i < 3; i++) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &bounds[i], type, &v))
            return false;
        ptoc_state_add_operand(st, v);
    }
    for (uint32_t i = 0; i < niter; i++) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &inits[i], st->result_types[i], &v))
            return false;
        ptoc_state_add_operand(st, v);
    }
    ptoc_region_arg *args = PTOC_NEW_ARRAY(arena, ptoc_region_arg, niter + 1);
    args[0] = iv;
    args[0].type = type;
    for (uint32_t i = 0; i < niter; i++) {
        args[i + 1] = iters[i];
        args[i + 1].type = st->result_types[i];
    }
    ptoc_region *body = ptoc_state_add_region(st);
    if (!ptoc_parse_region(p, body, args, niter + 1, "scf.yield"))
        return false;
    return ptoc_parse_optional_attr_dict(p, st) || !ptoc_parser_failed(p);
}

static void for_print(ptoc_printer *p, const ptoc_op *op)
{
    const ptoc_block *body = op->regions[0].first;
    if (op->noperands < 3 || !body || body->nargs != op->noperands - 2)
        return;                         /* malformed: the verifier says why */
    ptoc_print_str(p, " ");
    ptoc_print_value(p, body->args[0]);
    ptoc_print_str(p, " = ");
    ptoc_print_operands(p, op, 0, 1);
    ptoc_print_str(p, " to ");
    ptoc_print_operands(p, op, 1, 1);
    ptoc_print_str(p, " step ");
    ptoc_print_operands(p, op, 2, 1);
    if (op->noperands > 3) {
        ptoc_upstream_print_assignments(p, "iter_args", body->args + 1, op, 3, op->noperands - 3);
        ptoc_print_str(p, " -> (");
        ptoc_print_operand_types(p, op, 3, op->noperands - 3);
        ptoc_print_str(p, ")");
    }
    if (ptoc_op_operand(op, 0)->type->kind != PTOC_TYPE_INDEX) {
        ptoc_print_str(p, " : ");
        ptoc_print_value_type(p, ptoc_op_operand(op, 0));
    }
    ptoc_print_str(p, " ");
    ptoc_print_region(p, &op->regions[0], false, "scf.yield");
    ptoc_print_attr_dict(p, op, NULL, 0);
}

static bool for_verify_bounds(const ptoc_op *op)
{
    if (op->noperands < 3) {
        ptoc_op_emit_error(op, "expected at least 3 operands (lower bound, upper bound, step), "
                               "but found %u", op->noperands);
        return false;
    }
    ptoc_type *t = ptoc_op_operand(op, 0)->type;
    if (ptoc_op_operand(op, 1)->type != t || ptoc_op_operand(op, 2)->type != t) {
        ptoc_op_emit_error(op, "failed to verify that all of {lowerBound, upperBound, step} "
                               "have same type");
        return false;
    }
    bool signless = ptoc_type_is_int(t) && t->u.integer.sign == PTOC_SIGNLESS;
    if (!signless && t->kind != PTOC_TYPE_INDEX) {
        ptoc_op_emit_error(op, "operand #0 must be signless integer or index, but got '%s'",
                           ptoc_upstream_type_text(t).text);
        return false;
    }
    return true;
}

static bool for_verify(const ptoc_op *op)
{
    if (!for_verify_bounds(op) || !check_regions(op, 1))
        return false;
    if (op->noperands - 3 != op->nresults) {
        ptoc_op_emit_error(op, "mismatch in number of loop-carried values and defined values");
        return false;
    }
    const ptoc_region *body = &op->regions[0];
    if (!body->first || body->first->nargs != op->nresults + 1) {
        ptoc_op_emit_error(op, "expected the body to have %u arguments (the induction variable "
                               "and one per iter_arg), but it has %u",
                           op->nresults + 1, body->first ? body->first->nargs : 0);
        return false;
    }
    if (body->first->args[0]->type != ptoc_op_operand(op, 0)->type) {
        ptoc_op_emit_error(op, "expected induction variable to be same type as bounds and step");
        return false;
    }
    if (!check_terminator(op, body, "body", "scf.yield"))
        return false;
    const ptoc_op *yield = region_terminator(body, "scf.yield");
    return check_flow(op, operands_of(op, 3, "parent operands"), args_of(body, 1, "Region #0")) &&
           check_flow(op, operands_of(yield, 0, "Region #0"), args_of(body, 1, "Region #0")) &&
           check_flow(op, operands_of(yield, 0, "Region #0"), results_of(op));
}

/* ---------------------------------------------------------------- scf.if */

static bool if_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref cond;
    ptoc_value *v;
    if (!ptoc_parse_operand(p, &cond) ||
        !ptoc_parse_resolve(p, &cond, ptoc_type_int(ptoc_parser_context(p), 1, PTOC_SIGNLESS), &v))
        return false;
    ptoc_state_add_operand(st, v);
    if (!ptoc_parse_optional_arrow_types(p, st) && ptoc_parser_failed(p))
        return false;
    ptoc_state_add_region(st);
    ptoc_state_add_region(st);
    if (!ptoc_parse_region(p, &st->regions[0], NULL, 0, "scf.yield"))
        return false;
    ensure_yield_block(p, &st->regions[0]);
    if (ptoc_parse_optional(p, "else")) {
        if (!ptoc_parse_region(p, &st->regions[1], NULL, 0, "scf.yield"))
            return false;
        ensure_yield_block(p, &st->regions[1]);
    } else if (ptoc_parser_failed(p)) {
        return false;
    }
    return ptoc_parse_optional_attr_dict(p, st) || !ptoc_parser_failed(p);
}

static void if_print(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, op->noperands);
    if (op->nresults > 0) {
        ptoc_print_str(p, " -> (");
        for (uint32_t i = 0; i < op->nresults; i++) {
            if (i)
                ptoc_print_str(p, ", ");
            ptoc_print_type(p, op->results[i].type);
        }
        ptoc_print_str(p, ")");
    }
    ptoc_print_str(p, " ");
    ptoc_print_region(p, &op->regions[0], false, "scf.yield");
    if (op->nregions > 1 && op->regions[1].first) {
        ptoc_print_str(p, " else ");
        ptoc_print_region(p, &op->regions[1], false, "scf.yield");
    }
    ptoc_print_attr_dict(p, op, NULL, 0);
}

static bool if_verify(const ptoc_op *op)
{
    static const char *const names[] = {"Region #0", "Region #1"};
    if (!check_i1_operand(op) || !check_regions(op, 2))
        return false;
    if (!op->regions[0].first) {
        ptoc_op_emit_error(op, "region #0 ('thenRegion') failed to verify constraint: "
                               "region with 1 blocks");
        return false;
    }
    if (op->nresults > 0 && !op->regions[1].first) {
        ptoc_op_emit_error(op, "must have an else block if defining values");
        return false;
    }
    for (uint32_t i = 0; i < 2; i++) {
        const ptoc_region *r = &op->regions[i];
        if (!r->first)
            continue;
        if (!check_terminator(op, r, i == 0 ? "'then'" : "'else'", "scf.yield"))
            return false;
        if (!check_flow(op, operands_of(region_terminator(r, "scf.yield"), 0, names[i]),
                        results_of(op)))
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------- scf.while */

static bool while_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_region_arg *args = NULL;
    ptoc_operand_ref *inits = NULL;
    uint32_t n = 0;
    ptoc_type *fn;
    if (ptoc_parse_optional(p, "(")) {
        if (!ptoc_upstream_parse_assignments(p, &args, &inits, &n))
            return false;
    } else if (ptoc_parser_failed(p)) {
        return false;
    }
    ptoc_loc loc = ptoc_parser_loc(p);
    if (!ptoc_parse_expect(p, ":") || !ptoc_parse_function_type(p, &fn))
        return false;
    if (fn->u.func.ninputs != n)
        return ptoc_parser_error_at(p, loc, "expected as many input types as operands "
                                            "(expected %u got %u)", n, fn->u.func.ninputs);
    for (uint32_t i = 0; i < n; i++) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &inits[i], fn->u.func.inputs[i], &v))
            return false;
        ptoc_state_add_operand(st, v);
        args[i].type = fn->u.func.inputs[i];
    }
    for (uint32_t i = 0; i < fn->u.func.nresults; i++)
        ptoc_state_add_result(st, fn->u.func.results[i]);
    ptoc_state_add_region(st);
    ptoc_state_add_region(st);
    if (!ptoc_parse_region(p, &st->regions[0], args, n, NULL) || !ptoc_parse_expect(p, "do") ||
        !ptoc_parse_region(p, &st->regions[1], NULL, 0, NULL))
        return false;
    return ptoc_parse_optional_attr_dict_with_keyword(p, st) || !ptoc_parser_failed(p);
}

static void while_print(ptoc_printer *p, const ptoc_op *op)
{
    const ptoc_block *before = op->regions[0].first;
    if (before && before->nargs == op->noperands)
        ptoc_upstream_print_assignments(p, "", before->args, op, 0, op->noperands);
    ptoc_print_str(p, " : ");
    ptoc_upstream_print_functional_type(p, op);
    ptoc_print_str(p, " ");
    ptoc_print_region(p, &op->regions[0], false, NULL);
    ptoc_print_str(p, " do ");
    ptoc_print_region(p, &op->regions[1], true, NULL);
    ptoc_print_attr_dict_with_keyword(p, op, NULL, 0);
}

static bool while_verify(const ptoc_op *op)
{
    if (!check_regions(op, 2))
        return false;
    const ptoc_region *before = &op->regions[0], *after = &op->regions[1];
    if (!check_terminator(op, before, "'before'", "scf.condition") ||
        !check_terminator(op, after, "'after'", "scf.yield"))
        return false;
    const ptoc_op *cond = region_terminator(before, "scf.condition");
    const ptoc_op *yield = region_terminator(after, "scf.yield");
    return check_flow(op, operands_of(op, 0, "parent operands"), args_of(before, 0, "Region #0")) &&
           check_flow(op, operands_of(cond, 1, "Region #0"), results_of(op)) &&
           check_flow(op, operands_of(cond, 1, "Region #0"), args_of(after, 0, "Region #1")) &&
           check_flow(op, operands_of(yield, 0, "Region #1"), args_of(before, 0, "Region #0"));
}

/* ---------------------------------------------------------------- scf.execute_region */

static bool execute_parse(ptoc_parser *p, ptoc_op_state *st)
{
    if (!ptoc_parse_optional_arrow_types(p, st) && ptoc_parser_failed(p))
        return false;
    if (!ptoc_parse_region(p, ptoc_state_add_region(st), NULL, 0, NULL))
        return false;
    return ptoc_parse_optional_attr_dict_with_keyword(p, st) || !ptoc_parser_failed(p);
}

static void execute_print(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_arrow_result_types(p, op);
    ptoc_print_str(p, " ");
    ptoc_print_region(p, &op->regions[0], false, NULL);
    ptoc_print_attr_dict_with_keyword(p, op, NULL, 0);
}

static bool execute_verify(const ptoc_op *op)
{
    if (!check_regions(op, 1))
        return false;
    if (!op->regions[0].first) {
        ptoc_op_emit_error(op, "region needs to have at least one block");
        return false;
    }
    for (const ptoc_block *b = op->regions[0].first; b; b = b->next) {
        const ptoc_op *t = ptoc_block_terminator(b);
        if (t && ptoc_op_is(t, "scf.yield") &&
            !check_flow(op, operands_of(t, 0, "Region #0"), results_of(op)))
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------- scf.yield, scf.condition */

static bool yield_verify(const ptoc_op *op)
{
    static const char *const parents[] = {"scf.execute_region", "scf.for", "scf.if",
                                          "scf.index_switch", "scf.while"};
    const ptoc_op *parent = ptoc_op_parent(op);
    for (size_t i = 0; parent && i < sizeof parents / sizeof parents[0]; i++)
        if (ptoc_op_is(parent, parents[i]))
            return true;
    ptoc_op_emit_error(op, "expects parent op to be one of 'scf.execute_region, scf.for, "
                           "scf.if, scf.index_switch, scf.while'");
    return false;
}

/* `(%c) [{attrs}] [%a, ... : T, ...]` */
static bool condition_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref cond;
    ptoc_value *v;
    if (!ptoc_parse_expect(p, "(") || !ptoc_parse_operand(p, &cond) || !ptoc_parse_expect(p, ")") ||
        !ptoc_parse_resolve(p, &cond, ptoc_type_int(ptoc_parser_context(p), 1, PTOC_SIGNLESS), &v))
        return false;
    ptoc_state_add_operand(st, v);
    return ptoc_upstream_parse_terminator(p, st);
}

static void condition_print(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_str(p, "(");
    ptoc_print_operands(p, op, 0, op->noperands ? 1 : 0);
    ptoc_print_str(p, ")");
    ptoc_print_attr_dict(p, op, NULL, 0);
    if (op->noperands > 1) {
        ptoc_print_str(p, " ");
        ptoc_print_operands(p, op, 1, op->noperands - 1);
        ptoc_print_str(p, " : ");
        ptoc_print_operand_types(p, op, 1, op->noperands - 1);
    }
}

static bool condition_verify(const ptoc_op *op)
{
    const ptoc_op *parent = ptoc_op_parent(op);
    if (!parent || !ptoc_op_is(parent, "scf.while")) {
        ptoc_op_emit_error(op, "expects parent op 'scf.while'");
        return false;
    }
    return check_i1_operand(op);
}

/* ---------------------------------------------------------------- the dialect */

static const ptoc_op_def scf_ops[] = {
    {"scf.for", PTOC_OPF_SINGLE_BLOCK, for_parse, for_print, for_verify, NULL,
     "a counted loop from lb (inclusive) to ub (exclusive) by step, with loop-carried values"},
    {"scf.if", PTOC_OPF_SINGLE_BLOCK, if_parse, if_print, if_verify, NULL,
     "runs the then or the else region; yields the results of the one taken"},
    {"scf.while", PTOC_OPF_SINGLE_BLOCK, while_parse, while_print, while_verify, NULL,
     "runs 'before' (ending in scf.condition), then 'after' while the condition holds"},
    {"scf.execute_region", 0, execute_parse, execute_print, execute_verify, NULL,
     "runs its region once and yields its results"},
    /* Terminators are not PURE: that flag lets dead-code removal erase an op. */
    {"scf.yield", PTOC_OPF_TERMINATOR,
     ptoc_upstream_parse_terminator, ptoc_upstream_print_terminator, yield_verify, NULL,
     "ends an scf region, passing values to the parent or the next iteration"},
    {"scf.condition", PTOC_OPF_TERMINATOR,
     condition_parse, condition_print, condition_verify, NULL,
     "ends scf.while's 'before' region: continue if true, passing the other operands on"},
};

static const ptoc_dialect scf_dialect = {
    .name = "scf",
    .ops = scf_ops,
    .nops = sizeof scf_ops / sizeof scf_ops[0],
};

void ptoc_register_scf_dialect(ptoc_context *ctx)
{
    ptoc_context_register_dialect(ctx, &scf_dialect);
}
