/* inline.c: the "inline" pass, which replaces func.call ops by the bodies of
 * the functions they call, as MLIR's inliner (without its simplification
 * pipeline: run canonicalize after it for that).
 *
 * Requires: the callee is a func.func with a body, found by its flat symbol
 *           name in the symbol table enclosing the call (func.call verifies).
 * Produces: each such call is replaced by a copy of the callee's body, the
 *           entry block's arguments mapped to the call's operands and the
 *           call's results to what func.return returns (ops inside scf regions
 *           are copied with their regions; the copies keep the callee's
 *           locations, so diagnostics point at the code written). Calls
 *           brought in by an inlined body are inlined in later rounds.
 *           Recursion is respected as MLIR does: a function that calls itself
 *           directly is never inlined, nor is a function into its own body, so
 *           a cycle of calls stops growing once one of its functions has
 *           become self-recursive (at most 16 rounds in any case).
 *           A private function whose calls were inlined, and which nothing
 *           references any more, is erased (MLIR's inliner erases dead
 *           private callables; functions nobody called are symbol-dce's).
 * Method:   rounds: collect the calls, inline those allowed, until a round
 *           inlines nothing; copying uses a value map (old -> new values).
 */
#include "passes/passes.h"
#include "ptoc/util.h"

#include <string.h>

#define MAX_ROUNDS 16

/* ---------------------------------------------------------------- value map */

typedef ptoc_ptrmap value_map;     /* value -> its copy */

static void map_put(value_map *m, const ptoc_value *key, ptoc_value *val) { ptoc_ptrmap_put(m, key, val); }

/* The copy of `v`, or `v` itself when it was defined outside what is copied. */
static ptoc_value *map_get(const value_map *m, ptoc_value *v)
{
    ptoc_value *copy = ptoc_ptrmap_get(m, v);
    return copy ? copy : v;
}

/* ---------------------------------------------------------------- copying */

static ptoc_op *clone_op(ptoc_builder *b, const ptoc_op *op, value_map *map);

static void clone_block(ptoc_builder *outer, const ptoc_block *from, ptoc_block *to, value_map *map)
{
    for (uint32_t i = 0; i < from->nargs; i++)
        map_put(map, from->args[i], ptoc_block_add_arg(to, outer->arena, from->args[i]->type, from->args[i]->loc));
    ptoc_builder b = *outer;
    ptoc_builder_set_end(&b, to);
    for (const ptoc_op *op = from->first; op; op = op->next)
        clone_op(&b, op, map);
}

/* A copy of `op` (with its regions) at the builder's point, its operands
 * mapped; its results map to the copy's. */
static ptoc_op *clone_op(ptoc_builder *b, const ptoc_op *op, value_map *map)
{
    ptoc_op_state st;
    ptoc_state_init(&st, b->arena, op->def, op->loc);
    for (uint32_t i = 0; i < op->noperands; i++)
        ptoc_state_add_operand(&st, map_get(map, ptoc_op_operand(op, i)));
    for (uint32_t i = 0; i < op->nresults; i++)
        ptoc_state_add_result(&st, op->results[i].type);
    for (uint32_t i = 0; i < op->nattrs; i++)
        ptoc_state_add_attr(&st, op->attrs[i].name, op->attrs[i].value);
    for (uint32_t r = 0; r < op->nregions; r++) {
        ptoc_region *region = ptoc_state_add_region(&st);   /* filled before the next add */
        for (const ptoc_block *from = op->regions[r].first; from; from = from->next) {
            ptoc_block *to = ptoc_block_create(b->arena);
            clone_block(b, from, to, map);
            ptoc_region_append(region, to);
        }
    }
    ptoc_op *copy = ptoc_builder_insert(b, &st);
    for (uint32_t i = 0; i < op->nresults; i++)
        map_put(map, &op->results[i], &copy->results[i]);
    return copy;
}

/* ---------------------------------------------------------------- calls */

static const char *sym_name(const ptoc_op *op)
{
    ptoc_attr *a = ptoc_op_attr(op, "sym_name");
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : NULL;
}

/* The func.func with a body a call names (flat reference), or NULL. */
static ptoc_op *callee_of(const ptoc_op *call)
{
    ptoc_attr *ref = ptoc_op_attr(call, "callee");
    if (!ref || ref->kind != PTOC_ATTR_SYMREF || ref->u.symref.nnested)
        return NULL;
    const ptoc_op *table = ptoc_op_parent(call);
    while (table && !(table->def->flags & PTOC_OPF_SYMBOL_TABLE))
        table = ptoc_op_parent(table);
    if (!table || !table->nregions)
        return NULL;
    for (ptoc_op *op = table->regions[0].first ? table->regions[0].first->first : NULL; op; op = op->next) {
        const char *name = sym_name(op);
        if (name && strcmp(name, ref->u.symref.root->str) == 0)
            return ptoc_op_is(op, "func.func") && op->nregions && op->regions[0].first ? op : NULL;
    }
    return NULL;
}

static ptoc_walk_result find_self_call(ptoc_op *op, void *user)
{
    return ptoc_op_is(op, "func.call") && callee_of(op) == user ? PTOC_WALK_INTERRUPT : PTOC_WALK_ADVANCE;
}

static bool is_ancestor(const ptoc_op *a, const ptoc_op *op)
{
    for (; op; op = ptoc_op_parent(op))
        if (op == a)
            return true;
    return false;
}

/* MLIR's rules: never a self-recursive callee, never into the callee itself. */
static bool may_inline(ptoc_op *call, ptoc_op *callee)
{
    return !is_ancestor(callee, call) && ptoc_walk_pre(callee, find_self_call, callee);
}

static void inline_call(ptoc_arena *arena, ptoc_op *call, ptoc_op *callee)
{
    ptoc_context *ctx = ptoc_op_context(call);
    value_map map;
    ptoc_ptrmap_init(&map, ctx);
    ptoc_block *body = callee->regions[0].first;
    for (uint32_t i = 0; i < body->nargs && i < call->noperands; i++)
        map_put(&map, body->args[i], ptoc_op_operand(call, i));
    ptoc_builder b;
    ptoc_builder_init(&b, ctx, arena);
    ptoc_builder_set_before(&b, call);
    ptoc_op *ret = ptoc_block_terminator(body);
    for (const ptoc_op *op = body->first; op && op != ret; op = op->next)
        clone_op(&b, op, &map);
    for (uint32_t i = 0; ret && i < call->nresults && i < ret->noperands; i++)
        ptoc_value_replace_all_uses(&call->results[i], map_get(&map, ptoc_op_operand(ret, i)));
    ptoc_ptrmap_free(&map);
    ptoc_op_erase(call);
}

/* ---------------------------------------------------------------- the pass */

typedef struct inliner {
    ptoc_op_varr calls;          /* this round's calls */
    ptoc_op_varr inlined;        /* callees with a call inlined, once each */
} inliner;

static ptoc_walk_result collect_call(ptoc_op *op, void *user)
{
    inliner *in = user;
    if (ptoc_op_is(op, "func.call"))
        ptoc_op_varr_push(&in->calls, op);
    return PTOC_WALK_ADVANCE;
}

static void note_inlined(inliner *in, ptoc_op *callee)
{
    for (uint32_t i = 0; i < in->inlined.len; i++)
        if (in->inlined.data[i] == callee)
            return;
    ptoc_op_varr_push(&in->inlined, callee);
}

/* One round over the calls there are now; true if one was inlined. Calls
 * copied in by this round wait for the next. */
static bool inline_round(inliner *in, ptoc_op *root, ptoc_arena *arena)
{
    in->calls.len = 0;
    ptoc_walk_pre(root, collect_call, in);
    bool changed = false;
    for (uint32_t i = 0; i < in->calls.len; i++) {
        ptoc_op *call = in->calls.data[i], *callee = callee_of(call);
        if (callee && may_inline(call, callee)) {
            inline_call(arena, call, callee);
            note_inlined(in, callee);
            changed = true;
        }
    }
    return changed;
}

static bool references(const ptoc_attr *a, const char *name)
{
    if (a->kind == PTOC_ATTR_SYMREF)
        return strcmp(a->u.symref.root->str, name) == 0;
    for (uint32_t i = 0; a->kind == PTOC_ATTR_ARRAY && i < a->u.array.n; i++)
        if (references(a->u.array.elems[i], name))
            return true;
    for (uint32_t i = 0; a->kind == PTOC_ATTR_DICT && i < a->u.dict.n; i++)
        if (references(a->u.dict.entries[i].value, name))
            return true;
    return false;
}

static ptoc_walk_result find_reference(ptoc_op *op, void *user)
{
    const char *name = user;
    for (uint32_t i = 0; i < op->nattrs; i++)
        if (references(op->attrs[i].value, name))
            return PTOC_WALK_INTERRUPT;
    return PTOC_WALK_ADVANCE;
}

static void erase_dead_callees(inliner *in, ptoc_op *root)
{
    for (uint32_t i = 0; i < in->inlined.len; i++) {
        ptoc_op *f = in->inlined.data[i];
        ptoc_attr *vis = ptoc_op_attr(f, "sym_visibility");
        bool is_private = vis && vis->kind == PTOC_ATTR_STRING && strcmp(vis->u.string->str, "private") == 0;
        if (is_private && ptoc_walk_pre(root, find_reference, (void *)sym_name(f)))
            ptoc_op_erase(f);
    }
}

static bool run_inline(ptoc_op *root, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)opts;
    inliner in;
    ptoc_op_varr_init(&in.calls, ptoc_op_context(root));
    ptoc_op_varr_init(&in.inlined, ptoc_op_context(root));
    for (int round = 0; round < MAX_ROUNDS && inline_round(&in, root, arena); round++)
        ;
    erase_dead_callees(&in, root);
    ptoc_op_varr_free(&in.calls);
    ptoc_op_varr_free(&in.inlined);
    return true;
}

const ptoc_pass_def ptoc_inline_pass = {
    .name = "inline",
    .summary = "Replace func.call by a copy of the callee's body (not recursive calls); erase callees left unused",
    .anchor = NULL,
    .run = run_inline,
    .option_names = NULL,
};
