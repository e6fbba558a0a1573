/* shared_ops.c: one LLVM function for the tile ops that repeat.
 *
 * Two tile ops with the same signature lower to the same code up to their
 * operand values. The signature is what a rule reads at compile time: the op,
 * its attributes, its operand types, and which of its operands are the same
 * value (tadd ins(%a, %b) outs(%a) is not tadd ins(%a, %b) outs(%c): the first
 * works in place, which the vectoriser must see). Types and attributes are
 * interned, so signatures compare by pointer.
 *
 * An op whose signature occurs once in the module is lowered in place by its
 * rule. When a signature occurs more than once, the rule runs once, into an
 * internal noinline function `<op>.shared` whose parameters are the op's
 * distinct operand values (tile aggregates and scalars, f16/bf16 as their
 * bits as at function boundaries: bfloat arguments need a libgcc routine
 * Debian 12 does not have) and the op's
 * "file:line:col" for the traps it emits (cg_where), and every op of that
 * signature becomes a call. LLVM's compile time is about proportional to the
 * code it is given, so a kernel that repeats an op (ping-pong buffers, loops
 * unrolled by hand, the same load in several functions) pays for its code
 * once. What the call costs at run time is small next to a tile op: the call,
 * and inside, tile addresses that are no longer constants (LLVM checks at run
 * time that distinct tiles do not overlap before it uses vector code; LLVM's
 * interprocedural constant propagation gives back the arguments that every
 * call passes alike).
 *
 * Shared: the pto ops that run on a vector or transfer pipe and have no
 * results (DPS compute ops, tload, tstore). Ops with results are not: a
 * Level-1 result tile is placed by its caller's sequential placement. pipe
 * events (cg_pipe_events) stay at the call site, in program order.
 * Requires: cg_shared_count has seen the whole module before lowering.
 */
#include "codegen/codegen_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One signature: a representative op, how many ops have it, its function. */
typedef struct shared_sig {
    ptoc_op *op;
    uint32_t count;
    LLVMValueRef fn;            /* NULL until its first op is lowered */
} shared_sig;

struct cg_shared {
    shared_sig *slots;          /* open addressing, op == NULL when empty */
    size_t cap, used;
};

/* ---------------------------------------------------------------- signatures */

/* The ops that may share: pto ops on a vector or transfer pipe with no
 * results and no views among their operands (a view's strides decide how
 * tload/tstore copy, and they are constants at most call sites). */
static bool is_shared_kind(const ptoc_op *op)
{
    if (op->nresults != 0 || op->nregions != 0 || !ptoc_pto_op_info_of(op))
        return false;
    ptoc_pto_pipe pipe = ptoc_pto_op_pipe(op);
    if (pipe == PTOC_PTO_PIPE_NONE || pipe == PTOC_PTO_PIPE_S)
        return false;
    for (uint32_t i = 0; i < op->noperands; i++) {
        const ptoc_type *t = ptoc_op_operand(op, i)->type;
        if (ptoc_pto_tensor_view(t) || ptoc_pto_partition_view(t) || t->kind == PTOC_TYPE_MEMREF)
            return false;
    }
    return true;
}

/* Whether the rule, in a function of its own, sees what it sees in place. It
 * folds what is constant: a tile whose type leaves its valid shape dynamic
 * but whose value here is a constant (an alloc_tile with constant valid_row
 * and valid_col) has a known valid shape in place, and there a mask too small
 * for it is a compile-time error rather than a trap. Such an op stays in
 * place. (The builder folds an extractvalue only out of a constant.) */
static bool same_as_in_place(cg *g, const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++) {
        const ptoc_value *v = ptoc_op_operand(op, i);
        ptoc_pto_tile_desc d;
        if (!cg_tile_desc_of(v->type, &d) || (d.valid_rows != PTOC_DYNAMIC && d.valid_cols != PTOC_DYNAMIC))
            continue;
        LLVMValueRef agg = cg_get(g, v);
        if (!agg || LLVMIsAConstant(agg))
            return false;
    }
    return true;
}

/* Operand i's position among the op's distinct operand values (the first
 * operand slot that holds the same value). */
static uint32_t first_slot(const ptoc_op *op, uint32_t i)
{
    const ptoc_value *v = ptoc_op_operand(op, i);
    uint32_t j = 0;
    while (ptoc_op_operand(op, j) != v)
        j++;
    return j;
}

static size_t mix(size_t h, const void *p)
{
    return (h ^ (size_t)(uintptr_t)p) * (size_t)0x100000001b3ull;
}

static size_t sig_hash(const ptoc_op *op)
{
    size_t h = mix((size_t)0xcbf29ce484222325ull, op->def);
    for (uint32_t i = 0; i < op->nattrs; i++)
        h = mix(mix(h, op->attrs[i].name), op->attrs[i].value);
    for (uint32_t i = 0; i < op->noperands; i++)
        h = mix(mix(h, ptoc_op_operand(op, i)->type), (const void *)(uintptr_t)first_slot(op, i));
    return h;
}

static bool sig_equal(const ptoc_op *a, const ptoc_op *b)
{
    if (a->def != b->def || a->name != b->name || a->nattrs != b->nattrs || a->noperands != b->noperands)
        return false;
    for (uint32_t i = 0; i < a->nattrs; i++)
        if (a->attrs[i].name != b->attrs[i].name || a->attrs[i].value != b->attrs[i].value)
            return false;
    for (uint32_t i = 0; i < a->noperands; i++)
        if (ptoc_op_operand(a, i)->type != ptoc_op_operand(b, i)->type || first_slot(a, i) != first_slot(b, i))
            return false;
    return true;
}

static shared_sig *sig_slot(struct cg_shared *s, ptoc_op *op)
{
    size_t i = sig_hash(op) & (s->cap - 1);
    while (s->slots[i].op && !sig_equal(s->slots[i].op, op))
        i = (i + 1) & (s->cap - 1);
    return &s->slots[i];
}

static void sig_grow(struct cg_shared *s)
{
    shared_sig *old = s->slots;
    size_t old_cap = s->cap;
    s->cap = old_cap ? old_cap * 2 : 64;
    s->slots = calloc(s->cap, sizeof *s->slots);
    if (!s->slots)
        ptoc_fatal("out of memory");
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].op)
            *sig_slot(s, old[i].op) = old[i];
    free(old);
}

static ptoc_walk_result count_op(ptoc_op *op, void *user)
{
    struct cg_shared *s = user;
    if (!is_shared_kind(op))
        return PTOC_WALK_ADVANCE;
    if (2 * (s->used + 1) > s->cap)
        sig_grow(s);
    shared_sig *slot = sig_slot(s, op);
    if (!slot->op) {
        slot->op = op;
        s->used++;
    }
    slot->count++;
    return PTOC_WALK_ADVANCE;
}

cg_shared *cg_shared_count(ptoc_op *module)
{
    struct cg_shared *s = calloc(1, sizeof *s);
    if (!s)
        ptoc_fatal("out of memory");
    sig_grow(s);
    ptoc_walk_pre(module, count_op, s);
    return s;
}

void cg_shared_free(cg_shared *s)
{
    if (s)
        free(s->slots);
    free(s);
}

/* ---------------------------------------------------------------- the shared function */

/* The op's distinct operand values in slot order; returns how many. */
static uint32_t distinct_operands(const ptoc_op *op, const ptoc_value **out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < op->noperands; i++)
        if (first_slot(op, i) == i)
            out[n++] = ptoc_op_operand(op, i);
    return n;
}

/* Lowers `op` by its rule into a new function of the distinct operands and
 * the trap location, restoring the caller's state afterwards. NULL after the
 * rule's diagnostic. */
static LLVMValueRef build_function(cg *g, ptoc_op *op, const cg_rule *rule, const ptoc_value **vals, uint32_t n)
{
    LLVMTypeRef *params = calloc(n + 1, sizeof *params);
    LLVMValueRef *saved = calloc(n + 1, sizeof *saved);
    if (!params || !saved)
        ptoc_fatal("out of memory");
    bool ok = true;
    for (uint32_t i = 0; ok && i < n; i++)
        ok = (params[i] = cg_abi_type(g, vals[i]->type, op->loc)) && (saved[i] = cg_get(g, vals[i]));
    params[n] = g->ptr;
    char name[96];
    snprintf(name, sizeof name, "%s.shared", op->name->str);
    LLVMValueRef fn = ok ? LLVMAddFunction(g->mod, name, LLVMFunctionType(g->void_ty, params, n + 1, false)) : NULL;
    if (fn) {
        LLVMSetLinkage(fn, LLVMInternalLinkage);
        const char *attrs[] = {"nounwind", "noinline"};
        for (int i = 0; i < 2; i++) {
            unsigned kind = LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i]));
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->llctx, kind, 0));
        }
        cg_func f;
        cg_caller caller;
        cg_enter_function(g, &f, fn, &caller);
        for (uint32_t i = 0; i < n; i++)
            cg_set(g, vals[i], cg_from_abi(g, LLVMGetParam(fn, i), vals[i]->type));
        g->where = LLVMGetParam(fn, n);
        ok = rule->lower(g, op, rule);
        if (ok)
            LLVMBuildRetVoid(g->b);
        cg_leave_function(g, &caller);
        for (uint32_t i = 0; i < n; i++)
            cg_set(g, vals[i], saved[i]);
        g->where = NULL;
    }
    free(params);
    free(saved);
    return ok ? fn : NULL;
}

bool cg_shared_lower(cg *g, ptoc_op *op, const cg_rule *rule)
{
    shared_sig *sig = g->shared && is_shared_kind(op) ? sig_slot(g->shared, op) : NULL;
    if (!sig || sig->count < 2 || !same_as_in_place(g, op))
        return rule->lower(g, op, rule);
    const ptoc_value **vals = calloc(op->noperands + 1, sizeof *vals);
    LLVMValueRef *args = calloc(op->noperands + 1, sizeof *args);
    if (!vals || !args)
        ptoc_fatal("out of memory");
    uint32_t n = distinct_operands(op, vals);
    if (!sig->fn)
        sig->fn = build_function(g, op, rule, vals, n);
    bool ok = sig->fn != NULL;
    for (uint32_t i = 0; ok && i < n; i++)
        ok = (args[i] = cg_get(g, vals[i])) != NULL && (args[i] = cg_to_abi(g, args[i], vals[i]->type));
    if (ok) {
        args[n] = cg_where(g, op->loc);
        LLVMBuildCall2(g->b, LLVMGlobalGetValueType(sig->fn), sig->fn, args, n + 1, "");
    }
    free(vals);
    free(args);
    return ok;
}
