/* strip_debuginfo.c: the "strip-debuginfo" pass, which forgets source locations.
 *
 * Requires: nothing.
 * Produces: every op under the root (the root included) and every block argument
 *           has an unknown location, so `--print-debuginfo` prints `loc(unknown)`.
 */
#include "passes/passes.h"

static void strip_block_args(ptoc_region *r)
{
    for (ptoc_block *b = r->first; b; b = b->next)
        for (uint32_t i = 0; i < b->nargs; i++)
            b->args[i]->loc = ptoc_loc_unknown();
}

static ptoc_walk_result strip_op(ptoc_op *op, void *user)
{
    (void)user;
    op->loc = ptoc_loc_unknown();
    for (uint32_t i = 0; i < op->nregions; i++)
        strip_block_args(&op->regions[i]);
    return PTOC_WALK_ADVANCE;
}

static bool run_strip_debuginfo(ptoc_op *root, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)arena;
    (void)opts;
    ptoc_walk_pre(root, strip_op, NULL);
    return true;
}

const ptoc_pass_def ptoc_strip_debuginfo_pass = {
    .name = "strip-debuginfo",
    .summary = "Replace every location with an unknown one",
    .anchor = NULL,
    .run = run_strip_debuginfo,
    .option_names = NULL,
};
