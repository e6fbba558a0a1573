/* canonicalize.c: the "canonicalize" pass, MLIR's canonicalizer for the
 * rewrites ptoc knows: folding, dead code, and scf simplifications.
 *
 * Requires: nothing (ops it does not know are left alone).
 * Produces, to a fixed point (at most 10 rounds, as MLIR's greedy driver):
 *   - arith ops whose operands are constants are replaced by an arith.constant
 *     (canonicalize_fold.c: MLIR 19's folders, the same values and the same
 *     cases left unfolded), arith.select with a constant condition by the
 *     chosen operand;
 *   - ops without effects whose results are unused are erased: ops flagged
 *     pure, and scf.for, scf.if and scf.execute_region holding only such ops;
 *   - scf.if on a constant condition is replaced by the ops of the branch
 *     taken; scf.for whose constant bounds give zero trips by its inits;
 *   - unused scf results: an scf.if result nobody uses is dropped (with its
 *     yield operands); an scf.for iter_arg is dropped when the loop yields it
 *     unchanged or yields its init (its value is then the init throughout), or
 *     when neither it nor its result is used (MLIR's ForOpIterArgsFolder);
 *   - constants are uniqued and hoisted to the start of their function's entry
 *     block, in the order they first appear (MLIR hoists them too; the order
 *     there is its worklist's).
 * Method:   each round collects the ops in pre-order (defs before uses) and
 *           tries the rewrites on each op still in the IR; the constants are
 *           hoisted once at the end.
 */
#include "passes/canonicalize.h"
#include "ptoc/util.h"

#include <string.h>

#define MAX_ROUNDS 10

typedef struct canon {
    ptoc_context *ctx;
    ptoc_arena *arena;           /* the module's: new ops */
    ptoc_op *root;
    ptoc_op_varr ops;            /* this round's ops, pre-order */
} canon;

/* ---------------------------------------------------------------- helpers */

static ptoc_walk_result collect_op(ptoc_op *op, void *user)
{
    canon *c = user;
    ptoc_op_varr_push(&c->ops, op);
    return PTOC_WALK_ADVANCE;
}

/* An op collected this round may have been erased since (with a region). */
static bool still_attached(const canon *c, const ptoc_op *op)
{
    while (op && op != c->root) {
        if (!op->block)
            return false;
        op = ptoc_op_parent(op);
    }
    return op == c->root;
}

static bool has_uses(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++)
        if (ptoc_value_has_uses(&op->results[i]))
            return true;
    return false;
}

static bool is_constant_true(const ptoc_attr *a)
{
    return a->kind == PTOC_ATTR_BOOL ? a->u.boolean : a->kind == PTOC_ATTR_INTEGER && a->u.integer.value != 0;
}

/* ---------------------------------------------------------------- dead ops */

static bool is_scf_region_op(const ptoc_op *op)
{
    return ptoc_op_is(op, "scf.for") || ptoc_op_is(op, "scf.if") || ptoc_op_is(op, "scf.execute_region");
}

static ptoc_walk_result find_effect(ptoc_op *op, void *user)
{
    if (op == user)
        return PTOC_WALK_ADVANCE;
    bool effect_free = (op->def->flags & PTOC_OPF_PURE) || ptoc_op_is(op, "scf.yield") || is_scf_region_op(op);
    return effect_free ? PTOC_WALK_ADVANCE : PTOC_WALK_INTERRUPT;
}

/* MLIR's isOpTriviallyDead: no result used, no effect (scf.while is kept:
 * it need not terminate). */
static bool is_trivially_dead(const canon *c, ptoc_op *op)
{
    if (op == c->root || has_uses(op) || (op->def->flags & PTOC_OPF_TERMINATOR))
        return false;
    if (!(op->def->flags & PTOC_OPF_PURE) && !is_scf_region_op(op))
        return false;
    return op->nregions == 0 || ptoc_walk_pre(op, find_effect, op);
}

/* ---------------------------------------------------------------- folding */

static ptoc_value *make_constant(canon *c, ptoc_op *before, ptoc_type *type, ptoc_attr *value)
{
    ptoc_builder b;
    ptoc_builder_init(&b, c->ctx, c->arena);
    ptoc_builder_set_before(&b, before);
    b.loc = before->loc;
    ptoc_named_attr attr = {ptoc_ident_cstr(c->ctx, "value"), value};
    return ptoc_op_result(ptoc_builder_create(&b, "arith.constant", 0, NULL, 1, &type, 1, &attr, 0), 0);
}

static bool fold_op(canon *c, ptoc_op *op)
{
    ptoc_attr *value = NULL;
    ptoc_value *forward = NULL;
    ptoc_fold_result r = ptoc_fold_arith(op, &value, &forward);
    if (r == PTOC_FOLD_NONE)
        return false;
    if (r == PTOC_FOLD_CONSTANT)
        forward = make_constant(c, op, op->results[0].type, value);
    ptoc_value_replace_all_uses(&op->results[0], forward);
    ptoc_op_erase(op);
    return true;
}

/* ---------------------------------------------------------------- scf.if and scf.for */

/* Moves the ops of `block`, but its terminator, before `before`. */
static void splice_block(ptoc_block *block, ptoc_op *before)
{
    ptoc_op *term = ptoc_block_terminator(block);
    for (ptoc_op *o = block->first, *next; o && o != term; o = next) {
        next = o->next;
        ptoc_op_unlink(o);
        ptoc_block_insert_before(before->block, before, o);
    }
}

/* scf.if on a constant condition: the branch taken, in place of the if. */
static bool fold_constant_if(ptoc_op *op)
{
    ptoc_attr *cond = ptoc_fold_constant_of(ptoc_op_operand(op, 0));
    if (!cond)
        return false;
    ptoc_region *taken = &op->regions[is_constant_true(cond) ? 0 : 1];
    ptoc_op *yield = taken->first ? ptoc_block_terminator(taken->first) : NULL;
    if (op->nresults && (!yield || yield->noperands != op->nresults))
        return false;                  /* results without a yield for them: not valid IR */
    if (taken->first)
        splice_block(taken->first, op);
    for (uint32_t i = 0; i < op->nresults; i++)
        ptoc_value_replace_all_uses(&op->results[i], ptoc_op_operand(yield, i));
    ptoc_op_erase(op);
    return true;
}

static bool constant_int(const ptoc_value *v, int64_t *out)
{
    ptoc_attr *a = ptoc_fold_constant_of(v);
    if (!a || a->kind != PTOC_ATTR_INTEGER)
        return false;
    *out = a->u.integer.value;
    return true;
}

/* scf.for with constant bounds and ub <= lb runs no iteration: its inits. */
static bool fold_zero_trip_for(ptoc_op *op)
{
    int64_t lb, ub;
    if (op->noperands < 3 || !constant_int(ptoc_op_operand(op, 0), &lb) ||
        !constant_int(ptoc_op_operand(op, 1), &ub) || ub > lb)
        return false;
    for (uint32_t i = 0; i < op->nresults; i++)
        ptoc_value_replace_all_uses(&op->results[i], ptoc_op_operand(op, 3 + i));
    ptoc_op_erase(op);
    return true;
}

/* A copy of `op` with the operands and results `keep_result` keeps (operand
 * i of `op` stays when keep_operand[i]), taking over op's regions; the kept
 * results' uses move to it and op is erased. */
static ptoc_op *rebuild(canon *c, ptoc_op *op, const bool *keep_operand, const bool *keep_result)
{
    ptoc_value **operands = ptoc_arena_alloc(c->arena, (op->noperands + 1) * sizeof *operands, _Alignof(void *));
    ptoc_type **types = ptoc_arena_alloc(c->arena, (op->nresults + 1) * sizeof *types, _Alignof(void *));
    uint32_t nops = 0, nres = 0;
    for (uint32_t i = 0; i < op->noperands; i++)
        if (keep_operand[i])
            operands[nops++] = ptoc_op_operand(op, i);
    for (uint32_t i = 0; i < op->nresults; i++)
        if (keep_result[i])
            types[nres++] = op->results[i].type;
    ptoc_builder b;
    ptoc_builder_init(&b, c->ctx, c->arena);
    ptoc_builder_set_before(&b, op);
    b.loc = op->loc;
    ptoc_op *copy = ptoc_builder_create(&b, op->name->str, nops, operands, nres, types, op->nattrs, op->attrs,
                                        op->nregions);
    for (uint32_t r = 0; r < op->nregions; r++)
        ptoc_region_take(&copy->regions[r], &op->regions[r]);
    for (uint32_t i = 0, k = 0; i < op->nresults; i++)
        if (keep_result[i])
            ptoc_value_replace_all_uses(&op->results[i], &copy->results[k++]);
    ptoc_op_erase(op);
    return copy;
}

/* Drops operand i of each terminator of `region` where !keep[i]. */
static void drop_yield_operands(canon *c, ptoc_region *region, const bool *keep)
{
    for (ptoc_block *blk = region->first; blk; blk = blk->next) {
        ptoc_op *yield = ptoc_block_terminator(blk);
        if (!yield)
            continue;
        ptoc_value **vals = ptoc_arena_alloc(c->arena, (yield->noperands + 1) * sizeof *vals, _Alignof(void *));
        uint32_t n = 0;
        for (uint32_t i = 0; i < yield->noperands; i++)
            if (keep[i])
                vals[n++] = ptoc_op_operand(yield, i);
        ptoc_op_set_operands(yield, c->arena, n, vals);
    }
}

/* scf.if results nobody uses go, with what each branch yields for them. */
static bool drop_unused_if_results(canon *c, ptoc_op *op)
{
    bool keep[64], keep_cond = true, any_dropped = false;
    if (op->nresults == 0 || op->nresults > 64)
        return false;
    for (uint32_t i = 0; i < op->nresults; i++) {
        keep[i] = ptoc_value_has_uses(&op->results[i]);
        any_dropped |= !keep[i];
    }
    if (!any_dropped)
        return false;
    for (uint32_t r = 0; r < op->nregions; r++)
        drop_yield_operands(c, &op->regions[r], keep);
    rebuild(c, op, &keep_cond, keep);
    return true;
}

/* Why iter_arg i of an scf.for can go: its value is its init throughout (the
 * body yields the arg itself or the init), or nobody reads it. */
static bool iter_arg_removable(ptoc_op *op, ptoc_block *body, ptoc_op *yield, uint32_t i)
{
    ptoc_value *arg = body->args[1 + i], *init = ptoc_op_operand(op, 3 + i);
    ptoc_value *yielded = ptoc_op_operand(yield, i);
    if (yielded == arg || yielded == init) {
        ptoc_value_replace_all_uses(arg, init);
        ptoc_value_replace_all_uses(&op->results[i], init);
        return true;
    }
    return !ptoc_value_has_uses(arg) && !ptoc_value_has_uses(&op->results[i]);
}

/* The body block again with only the iter_args kept (and the induction
 * variable), the ops moved over; the dropped args have no uses left. */
static void rebuild_body(canon *c, ptoc_region *region, const bool *keep_arg)
{
    ptoc_block *old = region->first, *fresh = ptoc_block_create(c->arena);
    for (uint32_t a = 0; a < old->nargs; a++) {
        if (!keep_arg[a])
            continue;
        ptoc_value *v = ptoc_block_add_arg(fresh, c->arena, old->args[a]->type, old->args[a]->loc);
        ptoc_value_replace_all_uses(old->args[a], v);
    }
    for (ptoc_op *o = old->first, *next; o; o = next) {
        next = o->next;
        ptoc_op_unlink(o);
        ptoc_block_append(fresh, o);
    }
    ptoc_region r = {0};
    ptoc_region_take(&r, region);        /* detach the old block */
    ptoc_region_append(region, fresh);
}

static bool fold_for_iter_args(canon *c, ptoc_op *op)
{
    ptoc_block *body = op->nregions ? op->regions[0].first : NULL;
    ptoc_op *yield = body ? ptoc_block_terminator(body) : NULL;
    uint32_t n = op->nresults;
    if (!yield || n == 0 || n > 64 || body->nargs != n + 1 || yield->noperands != n || op->noperands != n + 3)
        return false;
    bool keep_result[64], keep_operand[67] = {true, true, true}, keep_arg[65] = {true}, any = false;
    for (uint32_t i = 0; i < n; i++) {
        keep_result[i] = !iter_arg_removable(op, body, yield, i);
        keep_operand[3 + i] = keep_arg[1 + i] = keep_result[i];
        any |= !keep_result[i];
    }
    if (!any)
        return false;
    drop_yield_operands(c, &op->regions[0], keep_result);
    rebuild_body(c, &op->regions[0], keep_arg);
    rebuild(c, op, keep_operand, keep_result);
    return true;
}

/* ---------------------------------------------------------------- one op, one round */

static bool simplify(canon *c, ptoc_op *op)
{
    if (is_trivially_dead(c, op)) {
        ptoc_op_erase(op);
        return true;
    }
    if (fold_op(c, op))
        return true;
    if (ptoc_op_is(op, "scf.if"))
        return fold_constant_if(op) || drop_unused_if_results(c, op);
    if (ptoc_op_is(op, "scf.for"))
        return fold_zero_trip_for(op) || fold_for_iter_args(c, op);
    return false;
}

static bool run_round(canon *c)
{
    c->ops.len = 0;
    ptoc_walk_pre(c->root, collect_op, c);
    bool changed = false;
    for (uint32_t i = 0; i < c->ops.len; i++)
        if (still_attached(c, c->ops.data[i]) && simplify(c, c->ops.data[i]))
            changed = true;
    return changed;
}

/* ---------------------------------------------------------------- constants */

typedef struct hoist {
    ptoc_op *func;               /* the isolated op whose constants these are */
    ptoc_op_varr kept;           /* first occurrences, in order */
} hoist;

static bool same_constant(const ptoc_op *a, const ptoc_op *b)
{
    return a->results[0].type == b->results[0].type && ptoc_op_attr(a, "value") == ptoc_op_attr(b, "value");
}

static ptoc_walk_result hoist_constant(ptoc_op *op, void *user)
{
    hoist *h = user;
    if (op != h->func && (op->def->flags & PTOC_OPF_ISOLATED))
        return PTOC_WALK_SKIP;         /* a nested function has its own */
    if (!ptoc_op_is(op, "arith.constant") || op->nresults != 1)
        return PTOC_WALK_ADVANCE;
    for (uint32_t i = 0; i < h->kept.len; i++) {
        ptoc_op *k = h->kept.data[i];
        if (same_constant(k, op)) {
            ptoc_value_replace_all_uses(&op->results[0], &k->results[0]);
            ptoc_op_erase(op);
            return PTOC_WALK_ADVANCE;
        }
    }
    ptoc_op_varr_push(&h->kept, op);
    return PTOC_WALK_ADVANCE;
}

/* The kept constants, in order, at the start of the function's entry block. */
static void place_constants(hoist *h)
{
    ptoc_block *entry = h->func->regions[0].first;
    ptoc_op *at = entry->first;
    for (uint32_t i = 0; i < h->kept.len; i++) {
        ptoc_op *k = h->kept.data[i];
        if (k == at) {
            at = at->next;
            continue;
        }
        ptoc_op_unlink(k);
        ptoc_block_insert_before(entry, at, k);
    }
}

static ptoc_walk_result hoist_function(ptoc_op *op, void *user)
{
    ptoc_context *ctx = user;
    bool function = (op->def->flags & PTOC_OPF_ISOLATED) && !(op->def->flags & PTOC_OPF_SYMBOL_TABLE);
    if (!function || op->nregions == 0 || !op->regions[0].first)
        return PTOC_WALK_ADVANCE;
    hoist h = {.func = op};
    ptoc_op_varr_init(&h.kept, ctx);
    ptoc_walk_pre(op, hoist_constant, &h);   /* erasing the visited constant is safe */
    if (h.kept.len)
        place_constants(&h);
    ptoc_op_varr_free(&h.kept);
    return PTOC_WALK_ADVANCE;
}

/* ---------------------------------------------------------------- the pass */

static bool run_canonicalize(ptoc_op *root, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)opts;
    canon c = {ptoc_op_context(root), arena, root, {0}};
    ptoc_op_varr_init(&c.ops, c.ctx);
    for (int round = 0; round < MAX_ROUNDS && run_round(&c); round++)
        ;
    ptoc_op_varr_free(&c.ops);
    ptoc_walk_pre(root, hoist_function, c.ctx);
    return true;
}

const ptoc_pass_def ptoc_canonicalize_pass = {
    .name = "canonicalize",
    .summary = "Fold constant arith ops, erase dead ops, simplify scf.if/scf.for, unique and hoist constants",
    .anchor = NULL,
    .run = run_canonicalize,
    .option_names = NULL,
};
