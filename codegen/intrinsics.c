/* intrinsics.c: micro-ops as calls of a target's intrinsics.
 *
 * On a target whose backend names an intrinsic prefix (a5: "pto.a5"), each
 * vector micro-op becomes a call of a declared function named after the op,
 * its attributes and its types:
 *
 *   %r = pto.vadd %a, %b, %m : ... !pto.vreg<64xf32>      call @pto.a5.vadd.v64f32(a, b, m)
 *   pto.vsts %v, %p[%o], %m {dist = "NORM_B16"} : ...     call @pto.a5.vsts.norm_b16.v128f16(v, p, o, m)
 *   %r = pto.vcvt %x, %m {rnd = "R"} : f32 -> i32         call @pto.a5.vcvt.r.v64i32.v64f32(x, m)
 *
 * The name is the prefix, the op, the values of its string attributes in
 * order (lowercase), the ptoc type of its register (v64ui32, v128bf16: the
 * lanes' signedness and bf16 are part of the name), and each other operand
 * or result type the register does not imply (a second register type, an
 * i32 count; an index is implied). An op without a register (the A2/A3 ones)
 * names its pointers' element types (pf32 in UB, gf32 in GM) and its stride
 * lists (blk1_1_1.rep8_8_0), which its definition bakes in. Each intrinsic is defined once, by the
 * micro-op's own rule (lower_pto_vops.c: the one place that says what it
 * computes), in a module of its own, linkonce_odr and alwaysinline; that
 * module is linked into the kernel's before optimisation (cg_link_intrinsics),
 * unless the options keep the intrinsics as calls (what -emit=llvm shows). So
 * `-target=a5 --run` runs the same code as the micro-ops on the cpu target,
 * inlined, and the kernel's IR names what the hardware executes.
 *
 * The bridges from tiles (tile_ptr, tile_valid) are no instructions: they are
 * lowered in place. On a2a3 ("pto.a2a3") the repeat intrinsics are named
 * the same way without their ISA's part (pto.a2a3.vadd: @pto.a2a3.vadd...)
 * and take the address of the function's vector state (cg_a2a3_state)
 * before their operands.
 *
 * The DMA copies of tload and tstore are intrinsics of the same kind, made
 * by dma.c.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/syntax.h"
#include "ptoc/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Linker.h>

/* ---------------------------------------------------------------- names */

enum { MAX_VALUES = 16 };

/* Appends ".<text>" to name (size bytes), lowercased. */
static void append(char *name, size_t size, const char *text)
{
    size_t n = strlen(name);
    if (n + 1 < size)
        name[n++] = '.';
    for (; *text && n + 1 < size; text++)
        name[n++] = (char)tolower((unsigned char)*text);
    name[n] = '\0';
}

/* v64f32, v64ui32, v128bf16, i32 ... for a ptoc type: its spelling, a
 * register's as v<lanes><element>. The ptoc type, not the LLVM one, so that
 * registers LLVM types alike (i32 and ui32 lanes; bf16 lanes, held as i16
 * bits) name different intrinsics: their semantics differ. */
static void type_suffix(const ptoc_type *t, char *out, size_t size)
{
    const ptoc_pto_vreg *v = ptoc_pto_vreg_type(t);
    const ptoc_type *ub = ptoc_pto_ub_ptr_elem(t), *gm = ptoc_pto_ptr_elem(t);
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, NULL);
    ptoc_print_type_to(&sb, v ? v->elem : ub ? ub : gm ? gm : t);
    if (v)
        snprintf(out, size, "v%lld%s", (long long)v->lanes, ptoc_strbuf_cstr(&sb));
    else
        snprintf(out, size, "%s%s", ub ? "p" : gm ? "g" : "", ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
}

/* ".blk1_1_1" for the list attribute blk = [1, 1, 1]. */
static void append_list(char *name, size_t size, const char *key, const ptoc_attr *a)
{
    char text[96];
    int n = snprintf(text, sizeof text, "%s", key);
    for (uint32_t i = 0; i < a->u.array.n && n > 0 && (size_t)n < sizeof text; i++) {
        const ptoc_attr *e = a->u.array.elems[i];
        long long v = e->kind == PTOC_ATTR_INTEGER ? (long long)e->u.integer.value : 0;
        n += snprintf(text + n, sizeof text - (size_t)n, "%s%lld", i ? "_" : "", v);
    }
    append(name, size, text);
}

/* Whether `t` says nothing beyond the register type `reg`: a predicate, a
 * pointer, an index, or a scalar of the register's element type (or of its
 * lanes' LLVM type: an i32 scalar of ui32 lanes). */
static bool implied(cg *g, const ptoc_type *t, const ptoc_type *reg)
{
    if (t->kind == PTOC_TYPE_INDEX || ptoc_pto_type_is(t, PTOC_PTO_TYPE_MASK) ||
        ptoc_pto_type_is(t, PTOC_PTO_TYPE_ALIGN))
        return true;
    if (ptoc_pto_ub_ptr_elem(t) || ptoc_pto_ptr_elem(t))   /* without a register, a pointer names the type */
        return reg != NULL;
    if (!reg || ptoc_pto_vreg_type(t))
        return false;
    const ptoc_type *e = ptoc_pto_vreg_type(reg)->elem;
    return t == e || cg_elem_type(g, t) == cg_elem_type(g, e);
}

static void intrinsic_name(cg *g, const ptoc_op *op, char *name, size_t size)
{
    const char *prefix = g->target->backend->intrinsic_prefix, *base = op->name->str + strlen("pto.");
    size_t isa = strlen(prefix) - strlen("pto.");           /* pto.a2a3.vadd under pto.a2a3: vadd */
    if (!strncmp(base, prefix + strlen("pto."), isa) && base[isa] == '.')
        base += isa + 1;
    snprintf(name, size, "%s", prefix);
    append(name, size, base);
    for (uint32_t i = 0; i < op->nattrs; i++) {
        const ptoc_attr *a = op->attrs[i].value;
        if (a->kind == PTOC_ATTR_STRING)
            append(name, size, a->u.string->str);
        else if (a->kind == PTOC_ATTR_UNIT)
            append(name, size, op->attrs[i].name->str);
        else if (a->kind == PTOC_ATTR_ARRAY)   /* an A2/A3 op's strides */
            append_list(name, size, op->attrs[i].name->str, a);
    }
    const ptoc_type *types[MAX_VALUES], *reg = NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < op->nresults; i++)
        types[n++] = op->results[i].type;
    for (uint32_t i = 0; i < op->noperands; i++)
        types[n++] = ptoc_op_operand(op, i)->type;
    for (uint32_t i = 0; i < n && !reg; i++)
        if (ptoc_pto_vreg_type(types[i]))
            reg = types[i];
    char suffix[32];
    for (uint32_t i = 0; i < n; i++) {
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = types[j] == types[i];
        if (seen || (types[i] != reg && implied(g, types[i], reg)))
            continue;
        type_suffix(types[i], suffix, sizeof suffix);
        append(name, size, suffix);
    }
}

/* ---------------------------------------------------------------- the definition */

/* The op's result type as an LLVM function returns it: void, the one
 * result, or a struct of them. */
static LLVMTypeRef return_type(cg *g, LLVMTypeRef const *results, uint32_t n)
{
    if (n == 0)
        return g->void_ty;
    return n == 1 ? results[0] : LLVMStructTypeInContext(g->llctx, (LLVMTypeRef *)results, n, false);
}

/* The A2/A3 repeat intrinsics read and write the core's vector state: their
 * intrinsics take the state's address as a first parameter (the caller's
 * cg_a2a3_state), which their definitions use as theirs. */
static bool takes_state(const ptoc_op *op)
{
    return cg_vop_is_a2a3(ptoc_pto_vop(op));
}

/* The rule reads the operands by value, so an op that names one value twice
 * (vadd %p[%o], %p[%o], %q[%o]: dst in place, one offset for all) would
 * define its intrinsic with those parameters merged, and a later call under
 * the same name that passes them apart would compute on the wrong ones. So
 * while the rule runs, each repeat of an operand is a fresh value of its
 * type. The stand-ins live in an arena of the context's (one block of
 * arguments per such definition), so no value map entry outlives its key. */
static void stand_in_repeats(cg *g, ptoc_op *op, ptoc_value **orig)
{
    ptoc_arena *arena = NULL;
    ptoc_block *blk = NULL;
    for (uint32_t i = 0; i < op->noperands; i++) {
        orig[i] = ptoc_op_operand(op, i);
        bool repeat = false;
        for (uint32_t j = 0; j < i && !repeat; j++)
            repeat = orig[j] == orig[i];
        if (!repeat)
            continue;
        if (!blk) {
            arena = ptoc_arena_create(g->ctx);
            blk = ptoc_block_create(arena);
        }
        ptoc_op_set_operand(op, i, ptoc_block_add_arg(blk, arena, orig[i]->type, op->loc));
    }
}

static void restore_operands(ptoc_op *op, ptoc_value *const *orig)
{
    for (uint32_t i = 0; i < op->noperands; i++)
        if (ptoc_op_operand(op, i) != orig[i])
            ptoc_op_set_operand(op, i, orig[i]);
}

/* Defines `name` in the intrinsics module by the op's rule, with the
 * operands' values mapped to the parameters; restores the caller's state. */
static bool define(cg *g, ptoc_op *op, const cg_rule *rule, const char *name, LLVMTypeRef fnty, bool host)
{
    LLVMValueRef fn = LLVMAddFunction(g->intrinsics, name, fnty);
    LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    cg_add_fn_attr(g, fn, "alwaysinline", 0);
    cg_add_fn_attr(g, fn, "nounwind", 0);
    LLVMValueRef *saved = calloc(op->noperands + 1, sizeof *saved);
    ptoc_value **orig = calloc(op->noperands + 1, sizeof *orig);
    if (!saved || !orig)
        ptoc_fatal("out of memory");
    for (uint32_t i = 0; i < op->noperands; i++)
        saved[i] = cg_get(g, ptoc_op_operand(op, i));
    stand_in_repeats(g, op, orig);
    LLVMModuleRef mod = g->mod;
    cg_func f;
    cg_caller caller;
    g->mod = g->intrinsics;
    cg_enter_function(g, &f, fn, &caller);
    unsigned first = takes_state(op);
    if (first)
        f.a2a3_state = LLVMGetParam(fn, 0);
    for (uint32_t i = 0; i < op->noperands; i++)
        cg_set(g, ptoc_op_operand(op, i), LLVMGetParam(fn, first + i));
    LLVMModuleRef lib = g->intrinsics;
    if (host)                           /* the cpu target's code: no DMA copies, no nested intrinsics */
        g->intrinsics = NULL;
    bool ok = rule->lower(g, op, rule);
    g->intrinsics = lib;
    if (ok && op->nresults == 0)
        LLVMBuildRetVoid(g->b);
    else if (ok && op->nresults == 1)
        LLVMBuildRet(g->b, cg_get(g, &op->results[0]));
    else if (ok) {
        LLVMValueRef agg = LLVMGetUndef(LLVMGetReturnType(fnty));
        for (uint32_t i = 0; i < op->nresults; i++)
            agg = LLVMBuildInsertValue(g->b, agg, cg_get(g, &op->results[i]), i, "");
        LLVMBuildRet(g->b, agg);
    }
    cg_leave_function(g, &caller);
    restore_operands(op, orig);
    for (uint32_t i = 0; i < op->noperands; i++)
        cg_set(g, ptoc_op_operand(op, i), saved[i]);
    free(saved);
    free(orig);
    g->mod = mod;
    if (!ok)
        LLVMDeleteFunction(fn);
    return ok;
}

/* ---------------------------------------------------------------- the call */

static bool is_bridge(const ptoc_op *op)
{
    const ptoc_pto_vop_info *info = ptoc_pto_vop_info_at((size_t)ptoc_pto_vop(op));
    return strchr(info->operands, 't') != NULL;
}

bool cg_intrinsic_lower(cg *g, ptoc_op *op, const cg_rule *rule)
{
    if (!g->intrinsics || ptoc_pto_vop(op) == PTOC_PTO_VOP_NONE || is_bridge(op))
        return rule->lower(g, op, rule);
    if (op->noperands + op->nresults > MAX_VALUES)
        ptoc_unreachable("a micro-op with more values than intrinsics take");
    LLVMValueRef args[MAX_VALUES + 1];
    LLVMTypeRef types[MAX_VALUES + 1];
    uint32_t n = 0, first = takes_state(op);
    for (uint32_t i = 0; i < op->nresults; i++)
        if (!(types[n++] = cg_type(g, op->results[i].type, op->loc)))
            return false;
    if (first) {
        args[0] = cg_a2a3_state(g);
        types[n++] = g->ptr;
    }
    for (uint32_t i = 0; i < op->noperands; i++) {
        if (!(args[first + i] = cg_get(g, ptoc_op_operand(op, i))))
            return false;
        types[n++] = LLVMTypeOf(args[first + i]);
    }
    uint32_t nparams = first + op->noperands;
    LLVMTypeRef fnty = LLVMFunctionType(return_type(g, types, op->nresults), types + op->nresults, nparams, false);
    char name[160];
    intrinsic_name(g, op, name, sizeof name);
    LLVMValueRef def = LLVMGetNamedFunction(g->intrinsics, name);
    if (def && LLVMGlobalGetValueType(def) != fnty)
        ptoc_unreachable("two signatures under one intrinsic name");
    if (!def && !define(g, op, rule, name, fnty, false))
        return false;
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (!fn) {
        fn = LLVMAddFunction(g->mod, name, fnty);
        cg_add_fn_attr(g, fn, "nounwind", 0);
    }
    LLVMValueRef r = LLVMBuildCall2(g->b, fnty, fn, args, nparams, "");
    if (g->vf_state[0])                 /* in a counted vecscope: the model counts the call */
        g->target->backend->vf_model->count(g, op);
    for (uint32_t i = 0; i < op->nresults; i++)
        cg_set(g, &op->results[i], op->nresults == 1 ? r : LLVMBuildExtractValue(g->b, r, i, ""));
    return true;
}

/* A tile op of a target model's cube unit as a call of intrinsic `name`
 * (lower_cube_model.c names it after the hardware's instruction), defined on
 * first use by `rule` as the cpu target lowers the op: while the body is
 * built the target's own intrinsics and DMA copies are out of reach, so the
 * instruction computes the cpu target's bits. `name` must say everything the
 * body depends on beyond the operands' LLVM types (the caller hashes the
 * op's types and attributes into it). */
bool cg_intrinsic_call(cg *g, ptoc_op *op, const cg_rule *rule, const char *name)
{
    if (op->noperands + op->nresults > MAX_VALUES)
        ptoc_unreachable("a tile op with more values than intrinsics take");
    LLVMValueRef args[MAX_VALUES];
    LLVMTypeRef types[MAX_VALUES];
    uint32_t n = 0;
    for (uint32_t i = 0; i < op->nresults; i++)
        if (!(types[n++] = cg_type(g, op->results[i].type, op->loc)))
            return false;
    for (uint32_t i = 0; i < op->noperands; i++) {
        if (!(args[i] = cg_get(g, ptoc_op_operand(op, i))))
            return false;
        types[n++] = LLVMTypeOf(args[i]);
    }
    LLVMTypeRef fnty =
        LLVMFunctionType(return_type(g, types, op->nresults), types + op->nresults, op->noperands, false);
    LLVMValueRef def = LLVMGetNamedFunction(g->intrinsics, name);
    if (def && LLVMGlobalGetValueType(def) != fnty)
        ptoc_unreachable("two signatures under one intrinsic name");
    if (!def && !define(g, op, rule, name, fnty, true))
        return false;
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (!fn) {
        fn = LLVMAddFunction(g->mod, name, fnty);
        cg_add_fn_attr(g, fn, "nounwind", 0);
    }
    LLVMValueRef r = LLVMBuildCall2(g->b, fnty, fn, args, op->noperands, "");
    for (uint32_t i = 0; i < op->nresults; i++)
        cg_set(g, &op->results[i], op->nresults == 1 ? r : LLVMBuildExtractValue(g->b, r, i, ""));
    return true;
}

/* ---------------------------------------------------------------- linking */

bool cg_link_intrinsics(ptoc_llvm_module *m, char **err)
{
    if (!m->intrinsics)
        return true;
    LLVMModuleRef lib = m->intrinsics;
    m->intrinsics = NULL;
    if (LLVMLinkModules2(m->mod, lib)) {       /* takes `lib` either way */
        static const char msg[] = "internal error: the target's intrinsics do not link";
        if (err && (*err = malloc(sizeof msg)))
            memcpy(*err, msg, sizeof msg);
        return false;
    }
    return true;
}
