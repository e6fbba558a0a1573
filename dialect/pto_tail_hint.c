/* pto_tail_hint.c: pto.auto_sync_tail_hint, the per-function string that
 * chooses how pto-insert-sync ends a function whose pipe work may still be in
 * flight at its return.
 *
 * The spellings are PTOAS's (its driver normalises them, in any case):
 * "barrier-all", "barrier_all" and "default" choose `pto.barrier <PIPE_ALL>`;
 * "mte3-to-s-event0", "mte3_to_s_event0", "setwait-mte3-to-s-event0" and
 * "setwait_mte3_to_s_event0" choose set_flag/wait_flag[<PIPE_MTE3>, <PIPE_S>,
 * <EVENT_ID0>]. Anything else, or a value that is not a string, is an error
 * at the function (func.func's verifier calls ptoc_pto_verify_tail_hint), as
 * in PTOAS. What the pass does with the choice is in passes/insert_sync.c.
 */
#include "dialect/pto_internal.h"

#include <stddef.h>

#define TAIL_HINT_ATTR "pto.auto_sync_tail_hint"

typedef struct tail_spelling {
    const char *name;             /* lower case */
    ptoc_pto_tail_mode mode;
} tail_spelling;

static const tail_spelling spellings[] = {
    {"barrier-all", PTOC_PTO_TAIL_BARRIER_ALL},
    {"barrier_all", PTOC_PTO_TAIL_BARRIER_ALL},
    {"default", PTOC_PTO_TAIL_BARRIER_ALL},
    {"mte3-to-s-event0", PTOC_PTO_TAIL_MTE3_TO_S},
    {"mte3_to_s_event0", PTOC_PTO_TAIL_MTE3_TO_S},
    {"setwait-mte3-to-s-event0", PTOC_PTO_TAIL_MTE3_TO_S},
    {"setwait_mte3_to_s_event0", PTOC_PTO_TAIL_MTE3_TO_S},
};

bool ptoc_pto_tail_hint(const ptoc_op *fn, ptoc_pto_tail_mode *mode)
{
    ptoc_attr *a = ptoc_op_attr(fn, TAIL_HINT_ATTR);
    *mode = PTOC_PTO_TAIL_BARRIER_ALL;
    if (!a)
        return true;
    if (a->kind != PTOC_ATTR_STRING)
        return false;
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++)
        if (pto_same_name(a->u.string->str, spellings[i].name)) {
            *mode = spellings[i].mode;
            return true;
        }
    return false;
}

bool ptoc_pto_verify_tail_hint(const ptoc_op *fn)
{
    ptoc_pto_tail_mode mode;
    if (ptoc_pto_tail_hint(fn, &mode))
        return true;
    ptoc_attr *a = ptoc_op_attr(fn, TAIL_HINT_ATTR);
    const char *got = a->kind == PTOC_ATTR_STRING ? a->u.string->str : NULL;
    ptoc_op_emit_error(fn, "%s must be a string, one of \"barrier-all\", \"barrier_all\", \"default\", "
                           "\"mte3-to-s-event0\", \"mte3_to_s_event0\", \"setwait-mte3-to-s-event0\" or "
                           "\"setwait_mte3_to_s_event0\" (in any case); got %s%s%s", TAIL_HINT_ATTR,
                       got ? "'" : "a value that is not a string", got ? got : "", got ? "'" : "");
    return false;
}
