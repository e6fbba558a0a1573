/* register.c: registers every pass under passes/ with a context.
 *
 * The table is the list of passes ptoc ships, in the order `--list-passes` shows
 * them. Adding a pass is adding its file and a row here.
 */
#include "passes/passes.h"
#include "ptoc/ptoc.h"

static const ptoc_pass_def *const all_passes[] = {
    &ptoc_dce_pass,
    &ptoc_strip_debuginfo_pass,
    &ptoc_bufferize_pass,
    &ptoc_plan_memory_pass,
    &ptoc_insert_tassign_pass,
    &ptoc_insert_sync_pass,
};

void ptoc_register_all_passes(ptoc_context *ctx)
{
    for (size_t i = 0; i < sizeof all_passes / sizeof all_passes[0]; i++)
        ptoc_pass_register(ctx, all_passes[i]);
}
