/* register.c: registers every pass under passes/ with a context, and the named
 * pipelines built from them.
 *
 * The tables are the passes and pipelines ptoc ships, in the order
 * `--list-passes` shows them. Adding a pass is adding its file and a row here.
 * The ptoc-level* pipelines are what the ptoc driver runs before code generation
 * (one per --pto-level and sync setting; level1 and level2 are the same, as in
 * PTOAS), so `ptoc-opt -p NAME` replays a `ptoc -emit=mlir` run.
 */
#include "passes/passes.h"
#include "ptoc/ptoc.h"

static const ptoc_pass_def *const all_passes[] = {
    &ptoc_dce_pass,
    &ptoc_strip_debuginfo_pass,
    &ptoc_canonicalize_pass,
    &ptoc_cse_pass,
    &ptoc_symbol_dce_pass,
    &ptoc_inline_pass,
    &ptoc_bufferize_pass,
    &ptoc_plan_memory_pass,
    &ptoc_insert_tassign_pass,
    &ptoc_insert_sync_pass,
    &ptoc_lower_a5_pass,
    &ptoc_lower_a2a3_pass,
    &ptoc_split_u64_pass,
};

#define AUTO_MODE "pto-bufferize,pto-plan-memory,pto-insert-tassign"

enum { AUTO, L1, L1_NO_SYNC, L2, L2_NO_SYNC, L3, L3_NO_SYNC, NPIPELINES };

static const ptoc_pipeline_def all_pipelines[NPIPELINES] = {
    [AUTO] = {"pto-auto-mode",
              "On each function with Level-1 tiles or address-less buffers (others are manual): " AUTO_MODE,
              AUTO_MODE, "func.func", ptoc_pass_needs_auto_mode},
    [L1] = {"ptoc-level1", "What ptoc runs at --pto-level=level1: pto-auto-mode, pto-insert-sync",
            "pto-auto-mode,pto-insert-sync"},
    [L1_NO_SYNC] = {"ptoc-level1-no-sync", "ptoc --pto-level=level1 --no-insert-sync: pto-auto-mode",
                    "pto-auto-mode"},
    [L2] = {"ptoc-level2", "What ptoc runs by default (level2): pto-auto-mode, pto-insert-sync",
            "pto-auto-mode,pto-insert-sync"},
    [L2_NO_SYNC] = {"ptoc-level2-no-sync", "ptoc --no-insert-sync: pto-auto-mode", "pto-auto-mode"},
    [L3] = {"ptoc-level3", "ptoc --pto-level=level3 (addresses are manual): pto-insert-sync", "pto-insert-sync"},
    [L3_NO_SYNC] = {"ptoc-level3-no-sync", "ptoc --pto-level=level3 --no-insert-sync: nothing", ""},
};

void ptoc_register_all_passes(ptoc_context *ctx)
{
    for (size_t i = 0; i < sizeof all_passes / sizeof all_passes[0]; i++)
        ptoc_pass_register(ctx, all_passes[i]);
    for (size_t i = 0; i < NPIPELINES; i++)
        ptoc_pipeline_register(ctx, &all_pipelines[i]);
}

const char *ptoc_level_pipeline(unsigned level, bool insert_sync)
{
    static const int rows[3][2] = {{L1_NO_SYNC, L1}, {L2_NO_SYNC, L2}, {L3_NO_SYNC, L3}};
    return level >= 1 && level <= 3 ? all_pipelines[rows[level - 1][insert_sync]].name : NULL;
}
