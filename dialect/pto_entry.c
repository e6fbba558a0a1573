/* pto_entry.c: the rules of a kernel entry on the hardware targets.
 *
 * A module's entries are its functions carrying the unit attribute pto.entry,
 * or, when none does, its only function with a body (the function a launch
 * runs, as in PTOAS and `ptoc --run`). On a2, a3 and a5 an entry is a device
 * kernel (PTOAS emits it as `__global__ AICORE void`): it returns nothing, and
 * no chain of func.call from it leads back to it (PTOAS cannot emit recursion
 * either). The cpu target runs host code, where both are fine. func.func's
 * verifier calls ptoc_pto_verify_entry on every function with a body.
 */
#include <string.h>

#include "dialect/pto_internal.h"
#include "dialect/upstream.h"

static bool has_body(const ptoc_op *fn)
{
    return fn->nregions == 1 && fn->regions[0].first != NULL;
}

/* The only func.func with a body in `fn`'s parent, or NULL. */
static bool is_only_function(const ptoc_op *fn)
{
    const ptoc_op *module = ptoc_op_parent(fn);
    if (!module || !ptoc_op_is(module, "builtin.module") || !module->nregions || !module->regions[0].first)
        return false;
    uint32_t n = 0;
    bool marked = false;
    for (const ptoc_op *op = module->regions[0].first->first; op; op = op->next) {
        if (!ptoc_op_is(op, "func.func"))
            continue;
        n += has_body(op);
        marked |= ptoc_op_attr(op, "pto.entry") != NULL;
    }
    return n == 1 && !marked;
}

/* Depth-first search from the entry over func.call for a call of the entry
 * itself; each function is explored once (at most as many as fit in
 * `visited`: a module beyond that is accepted rather than searched forever). */
typedef struct call_search {
    const ptoc_op *target;
    const ptoc_op *visited[256];
    uint32_t nvisited, depth;
    const ptoc_op *first_call;      /* the call in the entry that starts the chain */
} call_search;

static bool reaches(call_search *s, const ptoc_op *from);

static ptoc_walk_result visit_call(ptoc_op *op, void *user)
{
    call_search *s = user;
    ptoc_attr *callee = ptoc_op_is(op, "func.call") ? ptoc_op_attr(op, "callee") : NULL;
    if (!callee || callee->kind != PTOC_ATTR_SYMREF)
        return PTOC_WALK_ADVANCE;
    const ptoc_op *fn = ptoc_upstream_lookup_symbol(op, callee->u.symref.root);
    if (!fn || !ptoc_op_is(fn, "func.func"))
        return PTOC_WALK_ADVANCE;
    if (s->depth == 1)
        s->first_call = op;
    return fn == s->target || reaches(s, fn) ? PTOC_WALK_INTERRUPT : PTOC_WALK_ADVANCE;
}

static bool reaches(call_search *s, const ptoc_op *from)
{
    for (uint32_t i = 0; i < s->nvisited; i++)
        if (s->visited[i] == from)
            return false;
    if (s->nvisited == sizeof s->visited / sizeof s->visited[0] || !has_body(from))
        return false;
    s->visited[s->nvisited++] = from;
    s->depth++;
    bool hit = !ptoc_walk_pre((ptoc_op *)from, visit_call, s);
    s->depth--;
    return hit;
}

bool ptoc_pto_verify_entry(const ptoc_op *fn)
{
    bool marked = ptoc_op_attr(fn, "pto.entry") != NULL;
    if (!has_body(fn) || (!marked && !is_only_function(fn)))
        return true;
    ptoc_pto_arch arch = ptoc_pto_target_arch(fn, NULL);
    if (arch == PTOC_PTO_ARCH_CPU || arch == PTOC_PTO_ARCH_INVALID)
        return true;
    const char *what = marked ? "a pto.entry function" : "the only function of a module";
    const ptoc_type *type = ptoc_upstream_fn_type_attr(fn, "function_type");
    if (type && type->u.func.nresults > 0) {
        ptoc_op_emit_error(fn, "is %s, a kernel on %s, and must return nothing, but returns %u value%s", what,
                           ptoc_pto_arch_name(arch), type->u.func.nresults, type->u.func.nresults == 1 ? "" : "s");
        return false;
    }
    call_search s = {.target = fn};
    if (reaches(&s, fn)) {
        ptoc_diag *d = ptoc_op_diag_error(fn, "is %s, a kernel on %s, and must not call itself (recursion "
                                          "through func.call)", what, ptoc_pto_arch_name(arch));
        if (s.first_call)
            ptoc_diag_op_note(d, s.first_call, "the call that leads back to it");
        ptoc_diag_report(d);
        return false;
    }
    return true;
}
