/* symbol_dce.c: the "symbol-dce" pass, which erases private symbols nobody
 * references, as MLIR's symbol-dce.
 *
 * Requires: runs on a symbol table (builtin.module); on any other root it
 *           does nothing.
 * Produces: in the root and in every symbol table nested in it, each symbol
 *           (an op with a `sym_name`) whose `sym_visibility` is "private" and
 *           that no live op references is erased: private func.func
 *           definitions and declarations without a call or other @reference.
 *           Live are the symbols that are not private, the ops of the table
 *           that are no symbols, and whatever a live op references, to a fixed
 *           point, so a private function used only by dead ones goes too.
 *           A reference is a symbol-reference attribute anywhere in an op's
 *           attributes (inside arrays and dictionaries too), resolved in the
 *           nearest symbol table; for a nested reference `@a::@b` that is @a.
 * Method:   a worklist over the table's live ops, walking each one without
 *           entering nested symbol tables (they resolve their own names), then
 *           the same on each nested table that is left.
 */
#include "passes/passes.h"

#include <string.h>

typedef struct sdce {
    ptoc_context *ctx;
    ptoc_op **symbols;           /* the table's symbols, and whether live */
    bool *live;
    uint32_t n;
    ptoc_op **work;              /* live ops not walked yet (each once) */
    uint32_t nwork;
    ptoc_op *walking;            /* the live op being walked */
} sdce;

static const char *sym_name(const ptoc_op *op)
{
    ptoc_attr *a = ptoc_op_attr(op, "sym_name");
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : NULL;
}

static bool is_private(const ptoc_op *op)
{
    ptoc_attr *v = ptoc_op_attr(op, "sym_visibility");
    return v && v->kind == PTOC_ATTR_STRING && strcmp(v->u.string->str, "private") == 0;
}

static void mark(sdce *s, uint32_t i)
{
    if (s->live[i])
        return;
    s->live[i] = true;
    s->work[s->nwork++] = s->symbols[i];
}

static void mark_name(sdce *s, const char *name)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (strcmp(sym_name(s->symbols[i]), name) == 0)
            mark(s, i);
}

static void mark_attr(sdce *s, const ptoc_attr *a)
{
    if (a->kind == PTOC_ATTR_SYMREF) {
        mark_name(s, a->u.symref.root->str);
    } else if (a->kind == PTOC_ATTR_ARRAY) {
        for (uint32_t i = 0; i < a->u.array.n; i++)
            mark_attr(s, a->u.array.elems[i]);
    } else if (a->kind == PTOC_ATTR_DICT) {
        for (uint32_t i = 0; i < a->u.dict.n; i++)
            mark_attr(s, a->u.dict.entries[i].value);
    }
}

static ptoc_walk_result mark_references(ptoc_op *op, void *user)
{
    sdce *s = user;
    if (op != s->walking && (op->def->flags & PTOC_OPF_SYMBOL_TABLE))
        return PTOC_WALK_SKIP;         /* its names are its own */
    for (uint32_t i = 0; i < op->nattrs; i++)
        mark_attr(s, op->attrs[i].value);
    return PTOC_WALK_ADVANCE;
}

/* Liveness over the table's one block of ops, then the erasing. */
static void prune(sdce *s, ptoc_block *body)
{
    uint32_t nops = 0;
    for (ptoc_op *op = body->first; op; op = op->next)
        nops++;
    s->symbols = ptoc_alloc(s->ctx, (nops + 1) * sizeof *s->symbols);
    s->live = ptoc_alloc(s->ctx, nops + 1);
    s->work = ptoc_alloc(s->ctx, (nops + 1) * sizeof *s->work);
    s->n = s->nwork = 0;
    for (ptoc_op *op = body->first; op; op = op->next) {
        if (!sym_name(op)) {
            s->work[s->nwork++] = op;  /* not a symbol: live */
            continue;
        }
        s->live[s->n] = false;
        s->symbols[s->n++] = op;
    }
    for (uint32_t i = 0; i < s->n; i++)
        if (!is_private(s->symbols[i]))
            mark(s, i);
    while (s->nwork > 0) {
        s->walking = s->work[--s->nwork];
        ptoc_walk_pre(s->walking, mark_references, s);
    }
    for (uint32_t i = 0; i < s->n; i++)
        if (!s->live[i])
            ptoc_op_erase(s->symbols[i]);
    ptoc_free(s->ctx, s->symbols, (nops + 1) * sizeof *s->symbols);
    ptoc_free(s->ctx, s->live, nops + 1);
    ptoc_free(s->ctx, s->work, (nops + 1) * sizeof *s->work);
}

static void process_table(ptoc_context *ctx, ptoc_op *table)
{
    for (uint32_t r = 0; r < table->nregions; r++) {
        for (ptoc_block *b = table->regions[r].first; b; b = b->next) {
            sdce s = {ctx, NULL, NULL, 0, NULL, 0, NULL};
            prune(&s, b);
            for (ptoc_op *op = b->first; op; op = op->next)
                if (op->def->flags & PTOC_OPF_SYMBOL_TABLE)
                    process_table(ctx, op);
        }
    }
}

static bool run_symbol_dce(ptoc_op *root, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)arena;
    (void)opts;
    if (root->def->flags & PTOC_OPF_SYMBOL_TABLE)
        process_table(ptoc_op_context(root), root);
    return true;
}

const ptoc_pass_def ptoc_symbol_dce_pass = {
    .name = "symbol-dce",
    .summary = "Erase private symbols (functions) that no live op references",
    .anchor = NULL,
    .run = run_symbol_dce,
    .option_names = NULL,
};
