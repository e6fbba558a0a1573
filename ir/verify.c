/* verify.c: the verifier driver. One recursive pass over the tree checks what
 * the core knows about every op - terminators, single-block regions, region
 * isolation and SSA dominance - and then calls each registered op's own verify
 * hook (after its nested ops, and only if nothing under the op failed, so hooks
 * may rely on a well-formed body).
 *
 * Dominance is checked by scope, in linear time: walking a block in order, each
 * value becomes visible when defined (block arguments first, then each op's
 * results after the op) and stops being visible when its block is left. Values of
 * a region's entry block stay visible in its other blocks; values of other blocks
 * are never visible across blocks (we have no CFG dominance). Each visible value
 * records how many isolated ops enclosed its definition, so a use under a deeper
 * isolated op is a use from outside that op's regions. In a graph region (an op
 * flagged PTOC_OPF_GRAPH_REGION, such as builtin.module) a block's values are all
 * visible from its start, as MLIR requires no dominance there.
 */
#include "ir/core_internal.h"
#include "ptoc/util.h"

#include <string.h>

#define OUT_OF_SCOPE (-1)

typedef struct verifier {
    ptoc_context *ctx;
    ptoc_ptrmap depths;        /* value -> isolation depth, OUT_OF_SCOPE once its block is left */
    int32_t depth;             /* isolated ops enclosing the current position */
    const ptoc_op *isolated;   /* the innermost of them */
    bool ok;
} verifier;

/* ---------------------------------------------------------------- scope map */

static void set_depth(verifier *v, const ptoc_value *val, int32_t depth)
{
    ptoc_ptrmap_put_int(&v->depths, val, (uint64_t)(int64_t)depth);
}

static int32_t depth_of(const verifier *v, const ptoc_value *val)
{
    uint64_t depth;
    return ptoc_ptrmap_get_int(&v->depths, val, &depth) ? (int32_t)(int64_t)depth : OUT_OF_SCOPE;
}

/* Makes a block's arguments and its ops' results visible (or not). */
static void scope_block(verifier *v, const ptoc_block *b, int32_t depth)
{
    const ptoc_op *op;
    uint32_t i;
    for (i = 0; i < b->nargs; i++)
        set_depth(v, b->args[i], depth);
    for (op = b->first; op; op = op->next)
        for (i = 0; i < op->nresults; i++)
            set_depth(v, &op->results[i], depth);
}

/* ---------------------------------------------------------------- checks */

static void fail(verifier *v) { v->ok = false; }

static void check_operands(verifier *v, const ptoc_op *op)
{
    uint32_t i;
    for (i = 0; i < op->noperands; i++) {
        const ptoc_value *val = op->operands[i].value;
        int32_t depth = depth_of(v, val);
        if (depth == OUT_OF_SCOPE) {
            ptoc_diag *d = ptoc_op_diag_error(op, "operand #%u does not dominate this use", (unsigned)i);
            ptoc_diag_note(d, ptoc_value_def(val) ? ptoc_value_def(val)->loc : val->loc, "operand defined here");
            ptoc_diag_report(d);
            fail(v);
        } else if (depth < v->depth) {
            ptoc_diag *d = ptoc_op_diag_error(op, "using value defined outside the region");
            ptoc_diag_note(d, v->isolated->loc, "required by region isolation constraints");
            ptoc_diag_report(d);
            fail(v);
        }
    }
}

static void verify_op(verifier *v, ptoc_op *op, bool check_uses);

static void verify_block(verifier *v, ptoc_op *parent, const ptoc_block *b, bool needs_terminator)
{
    ptoc_op *op;
    uint32_t i;
    for (i = 0; i < b->nargs; i++)
        set_depth(v, b->args[i], v->depth);
    for (op = b->first; op; op = op->next) {
        if ((op->def->flags & PTOC_OPF_TERMINATOR) && op->next) {
            ptoc_op_emit_error(op, "must be the last operation in the parent block");
            fail(v);
        }
        verify_op(v, op, true);
        for (i = 0; i < op->nresults; i++)
            set_depth(v, &op->results[i], v->depth);
    }
    if (needs_terminator && !ptoc_block_terminator(b)) {
        ptoc_op_emit_error(b->last ? b->last : parent, "block with no terminator");
        fail(v);
    }
}

static void verify_regions(verifier *v, ptoc_op *op)
{
    uint32_t flags = op->def->flags, i, nblocks;
    bool needs_terminator = !(flags & (PTOC_OPF_NO_TERMINATOR | PTOC_OPF_UNREGISTERED));
    int32_t saved_depth = v->depth;
    const ptoc_op *saved_isolated = v->isolated;
    const ptoc_block *b;
    if (flags & PTOC_OPF_ISOLATED) {
        v->depth++;
        v->isolated = op;
    }
    for (i = 0; i < op->nregions; i++) {
        const ptoc_region *r = &op->regions[i];
        nblocks = 0;
        for (b = r->first; b; b = b->next) {
            if (flags & PTOC_OPF_GRAPH_REGION)
                scope_block(v, b, v->depth);   /* every value visible from the start */
            verify_block(v, op, b, needs_terminator);
            if (b != r->first)
                scope_block(v, b, OUT_OF_SCOPE);
            nblocks++;
        }
        if (r->first)
            scope_block(v, r->first, OUT_OF_SCOPE);
        if ((flags & PTOC_OPF_SINGLE_BLOCK) && nblocks > 1) {
            ptoc_op_emit_error(op, "expects region #%u to have 0 or 1 blocks", (unsigned)i);
            fail(v);
        }
    }
    v->depth = saved_depth;
    v->isolated = saved_isolated;
}

static void verify_op(verifier *v, ptoc_op *op, bool check_uses)
{
    size_t errors = v->ctx->error_count;
    bool ok_before = v->ok;
    if (check_uses)
        check_operands(v, op);
    verify_regions(v, op);
    if (!op->def->verify || (op->def->flags & PTOC_OPF_UNREGISTERED))
        return;
    if (v->ctx->error_count != errors || v->ok != ok_before)
        return;                  /* the hook may assume a well-formed op */
    if (!op->def->verify(op))
        fail(v);
}

bool ptoc_verify(ptoc_op *root)
{
    verifier v;
    size_t errors = root->ctx->error_count;
    memset(&v, 0, sizeof v);
    v.ctx = root->ctx;
    v.ok = true;
    ptoc_ptrmap_init(&v.depths, v.ctx);
    verify_op(&v, root, false);      /* the root's own operands come from outside */
    ptoc_ptrmap_free(&v.depths);
    return v.ok && root->ctx->error_count == errors;
}
