/* dce.c: the "dce" pass, which erases operations whose values nobody uses.
 *
 * Requires: ops declare that they have no side effects with PTOC_OPF_PURE in their
 *           dialect row; ops of unregistered dialects are never pure.
 * Produces: no op below the root that is pure, not a terminator, holds only pure
 *           ops (or terminators) in its regions and has all results unused. This
 *           holds to a fixed point: a chain of dead ops disappears entirely.
 * Method:   one post-order sweep erases what is dead now. Each erase puts the
 *           ops defining the erased operands on a worklist, drained until empty,
 *           so an op is looked at again only when one of its uses went away; the
 *           pass is linear in the size of the IR.
 */
#include "passes/passes.h"
#include "ptoc/util.h"

typedef struct dce_state {
    ptoc_op *root;
    ptoc_op_varr worklist;
} dce_state;

static bool op_is_effect_free(const ptoc_op *op)
{
    return (op->def->flags & (PTOC_OPF_PURE | PTOC_OPF_TERMINATOR)) != 0;
}

static ptoc_walk_result find_effect(ptoc_op *op, void *user)
{
    return op != user && !op_is_effect_free(op) ? PTOC_WALK_INTERRUPT : PTOC_WALK_ADVANCE;
}

static bool is_dead(const dce_state *st, ptoc_op *op)
{
    uint32_t flags = op->def->flags;
    if (op == st->root || !(flags & PTOC_OPF_PURE) || (flags & PTOC_OPF_TERMINATOR))
        return false;
    for (uint32_t i = 0; i < op->nresults; i++)
        if (ptoc_value_has_uses(&op->results[i]))
            return false;
    return op->nregions == 0 || ptoc_walk_pre(op, find_effect, op);
}

/* An op on the worklist may have been erased since (it sat in an erased region). */
static bool is_attached(const dce_state *st, const ptoc_op *op)
{
    while (op && op != st->root) {
        if (!op->block)
            return false;
        op = ptoc_op_parent(op);
    }
    return op == st->root;
}

static ptoc_walk_result queue_operand_defs(ptoc_op *op, void *user)
{
    for (uint32_t i = 0; i < op->noperands; i++) {
        ptoc_op *def = ptoc_value_def(op->operands[i].value);
        if (def)
            ptoc_op_varr_push(&((dce_state *)user)->worklist, def);
    }
    return PTOC_WALK_ADVANCE;
}

static void erase_dead(dce_state *st, ptoc_op *op)
{
    ptoc_walk_pre(op, queue_operand_defs, st);
    ptoc_op_erase(op);
}

static ptoc_walk_result sweep(ptoc_op *op, void *user)
{
    dce_state *st = user;
    if (is_dead(st, op))
        erase_dead(st, op);
    return PTOC_WALK_ADVANCE;
}

static bool run_dce(ptoc_op *root, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)arena;
    (void)opts;
    dce_state st = {.root = root};
    ptoc_op_varr_init(&st.worklist, ptoc_op_context(root));
    ptoc_walk_post(root, sweep, &st);
    while (ptoc_op_varr_length(&st.worklist) > 0) {
        ptoc_op *op = ptoc_op_varr_pop(&st.worklist);
        if (is_attached(&st, op) && is_dead(&st, op))
            erase_dead(&st, op);
    }
    ptoc_op_varr_free(&st.worklist);
    return true;
}

const ptoc_pass_def ptoc_dce_pass = {
    .name = "dce",
    .summary = "Erase pure operations whose results are unused, to a fixed point",
    .anchor = NULL,
    .run = run_dce,
    .option_names = NULL,
};
