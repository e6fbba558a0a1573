/* cse.c: the "cse" pass, common subexpression elimination as MLIR's.
 *
 * Requires: nothing. Only ops flagged pure and without regions are candidates.
 * Produces: no pure op that repeats an earlier one (same name, operands,
 *           attributes and result types) which dominates it: its uses move to
 *           the earlier op and it is erased. "Earlier" means before it in the
 *           same block, or in an enclosing block before the op holding its
 *           region; a region of an op isolated from above (func.func) starts
 *           afresh, and blocks of one region do not see each other (ptoc builds
 *           no dominator tree; its regions have one block). As MLIR's CSE, a
 *           pure op found unused when it is reached is erased too.
 * Method:   one pre-order walk with a scoped hash table: entering a block
 *           opens a scope, leaving it removes the ops the scope added, in the
 *           reverse order of their insertion (which undoes linear probing
 *           exactly).
 */
#include "passes/passes.h"
#include "ptoc/util.h"

#include <string.h>

typedef struct cse_table {
    ptoc_context *ctx;
    ptoc_op **slots;             /* open addressing on op_hash */
    size_t cap, n;
    ptoc_op_varr log;            /* every op inserted, in order: the undo log */
} cse_table;

static uint32_t mix(uint32_t h, uintptr_t v)
{
    h ^= (uint32_t)(v ^ (v >> 32));
    return h * 0x9E3779B1u;
}

static uint32_t op_hash(const ptoc_op *op)
{
    uint32_t h = mix(0x811C9DC5u, (uintptr_t)op->def);
    for (uint32_t i = 0; i < op->noperands; i++)
        h = mix(h, (uintptr_t)ptoc_op_operand(op, i));
    for (uint32_t i = 0; i < op->nattrs; i++)
        h = mix(mix(h, (uintptr_t)op->attrs[i].name), (uintptr_t)op->attrs[i].value);
    for (uint32_t i = 0; i < op->nresults; i++)
        h = mix(h, (uintptr_t)op->results[i].type);
    return h;
}

/* Attributes are interned and sorted by name, so equal lists are equal arrays. */
static bool same_op(const ptoc_op *a, const ptoc_op *b)
{
    if (a->def != b->def || a->noperands != b->noperands || a->nattrs != b->nattrs || a->nresults != b->nresults)
        return false;
    for (uint32_t i = 0; i < a->noperands; i++)
        if (ptoc_op_operand(a, i) != ptoc_op_operand(b, i))
            return false;
    for (uint32_t i = 0; i < a->nattrs; i++)
        if (a->attrs[i].name != b->attrs[i].name || a->attrs[i].value != b->attrs[i].value)
            return false;
    for (uint32_t i = 0; i < a->nresults; i++)
        if (a->results[i].type != b->results[i].type)
            return false;
    return true;
}

static size_t slot_of(const cse_table *t, const ptoc_op *op, bool *found)
{
    size_t i = op_hash(op) & (t->cap - 1);
    while (t->slots[i] && !same_op(t->slots[i], op))
        i = (i + 1) & (t->cap - 1);
    *found = t->slots[i] != NULL;
    return i;
}

static void insert(cse_table *t, ptoc_op *op);

/* Twice the room: everything in the log is inserted again, in order. */
static void rehash(cse_table *t)
{
    ptoc_free(t->ctx, t->slots, t->cap * sizeof *t->slots);
    t->cap *= 2;
    t->slots = ptoc_alloc(t->ctx, t->cap * sizeof *t->slots);
    memset(t->slots, 0, t->cap * sizeof *t->slots);
    t->n = 0;
    uint32_t nlog = t->log.len;
    t->log.len = 0;
    for (uint32_t i = 0; i < nlog; i++)
        insert(t, t->log.data[i]);
}

static void insert(cse_table *t, ptoc_op *op)
{
    if (2 * (t->n + 1) > t->cap)
        rehash(t);
    bool found;
    size_t i = slot_of(t, op, &found);
    t->slots[i] = op;
    t->n++;
    ptoc_op_varr_push(&t->log, op);     /* a context's: cannot fail */
}

/* Removes the ops inserted after the first `mark`, newest first. */
static void pop_to(cse_table *t, uint32_t mark)
{
    while (t->log.len > mark) {
        bool found;
        size_t i = slot_of(t, ptoc_op_varr_pop(&t->log), &found);
        t->slots[i] = NULL;
        t->n--;
    }
}

static bool is_candidate(const ptoc_op *op)
{
    return (op->def->flags & PTOC_OPF_PURE) && op->nregions == 0 && !(op->def->flags & PTOC_OPF_TERMINATOR);
}

static bool unused(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++)
        if (ptoc_value_has_uses(&op->results[i]))
            return false;
    return true;
}

static void cse_block(cse_table *t, ptoc_block *b);
static void cse_isolated(ptoc_context *ctx, ptoc_op *op);

/* One op: erased when dead or a repeat, else remembered; its regions next. A
 * block sees what its enclosing blocks hold before it, never a sibling's. */
static void cse_op(cse_table *t, ptoc_op *op)
{
    if (is_candidate(op)) {
        bool found = false;
        size_t i = unused(op) ? 0 : slot_of(t, op, &found);
        for (uint32_t r = 0; found && r < op->nresults; r++)
            ptoc_value_replace_all_uses(&op->results[r], &t->slots[i]->results[r]);
        if (unused(op))
            ptoc_op_erase(op);
        else
            insert(t, op);
        return;
    }
    if (op->def->flags & PTOC_OPF_ISOLATED) {
        cse_isolated(t->ctx, op);
        return;
    }
    uint32_t outer = t->log.len;
    for (uint32_t r = 0; r < op->nregions; r++)
        for (ptoc_block *b = op->regions[r].first; b; b = b->next) {
            cse_block(t, b);
            pop_to(t, outer);
        }
}

static void cse_block(cse_table *t, ptoc_block *b)
{
    for (ptoc_op *op = b->first, *next; op; op = next) {
        next = op->next;
        cse_op(t, op);
    }
}

/* The regions of an op isolated from above: nothing outside is visible. */
static void cse_isolated(ptoc_context *ctx, ptoc_op *op)
{
    cse_table t = {ctx, NULL, 16, 0, {0}};
    ptoc_op_varr_init(&t.log, ctx);
    t.slots = ptoc_alloc(ctx, t.cap * sizeof *t.slots);
    memset(t.slots, 0, t.cap * sizeof *t.slots);
    for (uint32_t r = 0; r < op->nregions; r++)
        for (ptoc_block *b = op->regions[r].first; b; b = b->next) {
            cse_block(&t, b);
            pop_to(&t, 0);
        }
    ptoc_free(ctx, t.slots, t.cap * sizeof *t.slots);
    ptoc_op_varr_free(&t.log);
}

static bool run_cse(ptoc_op *root, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)arena;
    (void)opts;
    cse_isolated(ptoc_op_context(root), root);
    return true;
}

const ptoc_pass_def ptoc_cse_pass = {
    .name = "cse",
    .summary = "Replace a pure op by an identical earlier one that dominates it; erase unused pure ops",
    .anchor = NULL,
    .run = run_cse,
    .option_names = NULL,
};
