/* pass_util.c: small helpers the passes under passes/ share. */
#include "passes/passes.h"

#include "ptoc/pto.h"

#include <string.h>

bool ptoc_pass_flag(const char *value)
{
    return value && (strcmp(value, "true") == 0 || strcmp(value, "1") == 0);
}

const char *ptoc_pass_func_name(const ptoc_op *func)
{
    ptoc_attr *a = ptoc_op_attr(func, "sym_name");
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : "?";
}

bool ptoc_pass_target_arch(ptoc_op *func, ptoc_pto_arch *arch)
{
    const char *spelling = NULL;
    *arch = ptoc_pto_target_arch(func, &spelling);
    if (ptoc_pto_arch_info_of(*arch))
        return true;
    ptoc_op_emit_error(func, "unknown pto target arch '%s'", spelling ? spelling : "?");
    return false;
}

static bool defines_level1_tile(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++)
        if (ptoc_pto_tile(op->results[i].type))
            return true;
    for (uint32_t r = 0; r < op->nregions; r++)
        for (ptoc_block *b = op->regions[r].first; b; b = b->next)
            for (uint32_t i = 0; i < b->nargs; i++)
                if (ptoc_pto_tile(b->args[i]->type))
                    return true;
    return false;
}

static ptoc_walk_result find_auto_work(ptoc_op *op, void *user)
{
    (void)user;
    /* an auto reserve_buffer's base is the planner's to choose, as in PTOAS */
    bool auto_reserve = ptoc_pto_is(op, PTOC_PTO_OP_RESERVE_BUFFER) && !ptoc_op_attr(op, "base");
    return defines_level1_tile(op) || ptoc_pto_is_addressless_buffer(op) || auto_reserve ? PTOC_WALK_INTERRUPT
                                                                                          : PTOC_WALK_ADVANCE;
}

bool ptoc_pass_needs_auto_mode(ptoc_op *func)
{
    return !ptoc_walk_pre(func, find_auto_work, NULL);
}
