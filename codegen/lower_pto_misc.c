/* lower_pto_misc.c: the cpu target's meaning for the ops that are neither tile
 * computations nor data movement: reserved buffers, core sections, sub-block
 * queries, valid shapes set at run time, prefetch.
 *
 * One host thread runs one block (docs/decisions.md, cpu target), and that block
 * plays every core kind it has, unless the module has cross-core ops (pipes,
 * sync.set/wait: lower_pto_xcore.c runs its block as three cores on threads,
 * and the sections and sub-block queries below are the core's there):
 *  - pto.section.cube / pto.section.vector run their body in place, so a kernel
 *    with both runs the cube part then the vector part, in program order, on
 *    the one simulated core;
 *  - get_subblock_idx is 0 and get_subblock_num is 1: the block is its only
 *    vector sub-block;
 *  - pto.reserve_buffer stands for its `base`, the byte offset in its space that
 *    the planner (pto-plan-memory) gives an auto reservation, or the one the
 *    kernel wrote; pto.import_reserved_buffer stands for the base of the
 *    reserve_buffer it names in its peer function. Both are i32 offsets into the
 *    simulated memory of that space, as any tile address is;
 *  - pto.set_validshape gives the tile its new valid shape from there on, on
 *    every path (the tile is a mutable value, cg_assign), checked against the
 *    physical shape at run time as alloc_tile's valid operands are;
 *  - pto.tprefetch without a destination does nothing: it only warms a cache,
 *    which the cpu target does not model. With a destination tile pto-isa's cpu
 *    model copies the window into it, so it lowers as the tload of that view
 *    into that tile (the same rule: layouts, checks, the tile type's pad=).
 */
#include "codegen/codegen_internal.h"

/* The base of a reserve_buffer, as its i32 result stands for it. */
static bool reserve_base(cg *g, const ptoc_op *reserve, ptoc_op *user)
{
    ptoc_attr *base = reserve ? ptoc_op_attr(reserve, "base") : NULL;
    if (!base || base->kind != PTOC_ATTR_INTEGER) {
        ptoc_op_emit_error(user, "the reserved buffer has no base address on the cpu target (memory planning gives "
                           "an auto one its base; at level3 give base = N)");
        return false;
    }
    cg_set(g, &user->results[0], cg_i32(g, (int32_t)base->u.integer.value));
    return true;
}

/* `%a = pto.reserve_buffer {name, size, location, auto[, base]} -> i32` */
static bool lower_reserve_buffer(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    return reserve_base(g, op, op);
}

/* `%a = pto.import_reserved_buffer {name, peer_func} -> i32` */
static bool lower_import_reserved_buffer(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    return reserve_base(g, ptoc_pto_imported_reserve(op), op);
}

/* pto.section.cube (arg 1) / pto.section.vector (arg 0): the body, in place;
 * on its cores only when the module runs as a block's cores. */
static bool lower_section(cg *g, ptoc_op *op, const cg_rule *rule)
{
    if (op->nregions != 1 || !op->regions[0].first)
        return true;
    if (g->xcore)
        return cg_xcore_section(g, op, rule->arg == 1);
    return cg_lower_block(g, op->regions[0].first);
}

/* get_subblock_idx / get_subblock_num: the constant `rule->arg` (0 or 1), or
 * the core's when the module runs as a block's cores. */
static bool lower_subblock_query(cg *g, ptoc_op *op, const cg_rule *rule)
{
    if (g->xcore)
        return cg_xcore_subblock(g, op, rule->arg);
    LLVMTypeRef ty = cg_type(g, op->results[0].type, op->loc);
    if (!ty)
        return false;
    cg_set(g, &op->results[0], LLVMConstInt(ty, (unsigned long long)rule->arg, false));
    return true;
}

/* `pto.set_validshape %tile, %rows, %cols : T` */
static bool lower_set_validshape(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_value *tile = ptoc_op_operand(op, 0);
    LLVMValueRef agg = cg_get(g, tile), rows = cg_get(g, ptoc_op_operand(op, 1)),
                 cols = cg_get(g, ptoc_op_operand(op, 2));
    if (!agg || !rows || !cols)
        return false;
    LLVMValueRef offset = LLVMBuildExtractValue(g->b, agg, 0, "");
    LLVMValueRef updated = cg_tile_make(g, tile->type, offset, rows, cols, op->loc);
    return updated && cg_assign(g, tile, updated, op->loc);
}

/* `pto.tprefetch ins(%view)`: nothing; `... outs(%tile)`: tload's rule. */
static bool lower_tprefetch(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    if (op->noperands < 2)
        return true;
    for (size_t i = 0; i < cg_pto_mem_rule_count; i++)
        if (cg_pto_mem_rules[i].opcode == PTOC_PTO_OP_TLOAD)
            return cg_pto_mem_rules[i].lower(g, op, &cg_pto_mem_rules[i]);
    ptoc_unreachable("the cpu target has a tload rule");
    return false;
}

/* The cpu target's alone; it has cg_pto_core_rules below too. */
const cg_rule cg_pto_misc_rules[] = {
    {PTO(TPREFETCH), lower_tprefetch, 0},
};
const size_t cg_pto_misc_rule_count = sizeof cg_pto_misc_rules / sizeof cg_pto_misc_rules[0];

/* The rows every target has (cpu, a5, a2a3): a block's cores
 * and the buffers their pipes use mean the same there (lower_pto_xcore.c),
 * and a tile's valid shape is the same run-time pair that their lowerings
 * read. */
const cg_rule cg_pto_core_rules[] = {
    {PTO(RESERVE_BUFFER), lower_reserve_buffer, 0},
    {PTO(IMPORT_RESERVED_BUFFER), lower_import_reserved_buffer, 0},
    {PTO(SECTION_CUBE), lower_section, 1},
    {PTO(SECTION_VECTOR), lower_section, 0},
    {PTO(GET_SUBBLOCK_IDX), lower_subblock_query, 0},
    {PTO(GET_SUBBLOCK_NUM), lower_subblock_query, 1},
    {PTO(SET_VALIDSHAPE), lower_set_validshape, 0},
};
const size_t cg_pto_core_rule_count = sizeof cg_pto_core_rules / sizeof cg_pto_core_rules[0];
