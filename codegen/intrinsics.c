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
 * The DMA of tload and tstore (lower_pto_mem.c) calls the target's burst
 * copies, A5's copy_gm_to_ubuf_align_v2 and copy_ubuf_to_gm_align_v2
 * (pto-isa common/arch/register/tload_common.hpp, TStore.hpp):
 *
 *   call @pto.a5.copy_gm_to_ubuf_align_v2(dst, src, n_burst, len_burst, src_stride, dst_stride)
 *
 * moves n_burst bursts of len_burst bytes, burst i from src + i * src_stride
 * to dst + i * dst_stride (bytes). Their definition is the same kind of
 * linkonce_odr alwaysinline function, a loop of memcpys.
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
    if (t->kind == PTOC_TYPE_INDEX || ptoc_pto_type_is(t, PTOC_PTO_TYPE_MASK))
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

/* Whether the op passes one value as two operands (vand %m[%o], %m[%o], ...). */
static bool repeats_a_value(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++)
        for (uint32_t j = 0; j < i; j++)
            if (ptoc_op_operand(op, i) == ptoc_op_operand(op, j))
                return true;
    return false;
}

static bool define_mapped(cg *g, ptoc_op *op, const cg_rule *rule, const char *name, LLVMTypeRef fnty);

/* Defines `name` in the intrinsics module by the op's rule. The rules read
 * operands by value, and the definition serves every call of that name: an
 * op that passes one value twice would tie two parameters together in it
 * (an offset 0 of the destination and of a source, then a call with two
 * different offsets), so such an op's operands are stand-ins of their own
 * while it is defined. */
static bool define(cg *g, ptoc_op *op, const cg_rule *rule, const char *name, LLVMTypeRef fnty)
{
    if (!repeats_a_value(op))
        return define_mapped(g, op, rule, name, fnty);
    /* in the context's arena: no later value reuses a stand-in's address,
     * which codegen's value map keeps */
    ptoc_arena *arena = ptoc_context_perm_arena(ptoc_op_context(op));
    ptoc_block *scratch = ptoc_block_create(arena);
    ptoc_value *orig[MAX_VALUES];
    for (uint32_t i = 0; i < op->noperands; i++) {
        orig[i] = ptoc_op_operand(op, i);
        ptoc_value *stand_in = ptoc_block_add_arg(scratch, arena, orig[i]->type, op->loc);
        cg_set(g, stand_in, cg_get(g, orig[i]));
        ptoc_op_set_operand(op, i, stand_in);
    }
    bool ok = define_mapped(g, op, rule, name, fnty);
    for (uint32_t i = 0; i < op->noperands; i++)
        ptoc_op_set_operand(op, i, orig[i]);
    return ok;
}

/* define, with the operands' values mapped to the parameters; restores the
 * caller's state. */
static bool define_mapped(cg *g, ptoc_op *op, const cg_rule *rule, const char *name, LLVMTypeRef fnty)
{
    LLVMValueRef fn = LLVMAddFunction(g->intrinsics, name, fnty);
    LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    cg_add_fn_attr(g, fn, "alwaysinline", 0);
    cg_add_fn_attr(g, fn, "nounwind", 0);
    LLVMValueRef *saved = calloc(op->noperands + 1, sizeof *saved);
    if (!saved)
        ptoc_fatal("out of memory");
    for (uint32_t i = 0; i < op->noperands; i++)
        saved[i] = cg_get(g, ptoc_op_operand(op, i));
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
    bool ok = rule->lower(g, op, rule);
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
    for (uint32_t i = 0; i < op->noperands; i++)
        cg_set(g, ptoc_op_operand(op, i), saved[i]);
    free(saved);
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
    if (!def && !define(g, op, rule, name, fnty))
        return false;
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (!fn) {
        fn = LLVMAddFunction(g->mod, name, fnty);
        cg_add_fn_attr(g, fn, "nounwind", 0);
    }
    LLVMValueRef r = LLVMBuildCall2(g->b, fnty, fn, args, nparams, "");
    if (g->vf_issue && g->target->backend->vf_model) {                  /* the modelled issue cycles of the vecscope */
        LLVMValueRef n = LLVMBuildLoad2(g->b, g->i64, g->vf_issue, "");
        n = LLVMBuildAdd(g->b, n, cg_i64(g, g->target->backend->vf_model->issue(op)), "");
        LLVMBuildStore(g->b, n, g->vf_issue);
    }
    for (uint32_t i = 0; i < op->nresults; i++)
        cg_set(g, &op->results[i], op->nresults == 1 ? r : LLVMBuildExtractValue(g->b, r, i, ""));
    return true;
}

/* ---------------------------------------------------------------- DMA */

/* The definition of a burst copy: for (i = 0; i < n; i++) memcpy(dst + i *
 * dst_stride, src + i * src_stride, len). */
static void define_burst_copy(cg *g, LLVMValueRef fn)
{
    cg_func f;
    cg_caller caller;
    LLVMModuleRef mod = g->mod;
    g->mod = g->intrinsics;
    cg_enter_function(g, &f, fn, &caller);
    LLVMValueRef p[6];
    for (unsigned i = 0; i < 6; i++)
        p[i] = LLVMGetParam(fn, i);
    cg_loop bursts;
    cg_loop_begin(g, &bursts, cg_i64(g, 0), p[2], "burst");
    LLVMValueRef to_off = LLVMBuildMul(g->b, bursts.iv, p[5], ""), from_off = LLVMBuildMul(g->b, bursts.iv, p[4], "");
    LLVMValueRef to = LLVMBuildGEP2(g->b, g->i8, p[0], &to_off, 1, ""), from = LLVMBuildGEP2(g->b, g->i8, p[1], &from_off, 1, "");
    LLVMBuildMemCpy(g->b, to, 1, from, 1, p[3]);
    cg_loop_end(g, &bursts);
    LLVMBuildRetVoid(g->b);
    cg_leave_function(g, &caller);
    g->mod = mod;
}

bool cg_has_dma_intrinsics(const cg *g)
{
    return g->intrinsics && g->target->backend->dma_bursts;
}

void cg_dma_bursts(cg *g, bool to_ub, LLVMValueRef dst, LLVMValueRef src, LLVMValueRef n_burst,
                   LLVMValueRef len_burst, LLVMValueRef src_stride, LLVMValueRef dst_stride)
{
    char name[96];
    snprintf(name, sizeof name, "%s.%s", g->target->backend->intrinsic_prefix,
             to_ub ? "copy_gm_to_ubuf_align_v2" : "copy_ubuf_to_gm_align_v2");
    LLVMTypeRef params[6] = {g->ptr, g->ptr, g->i64, g->i64, g->i64, g->i64};
    LLVMTypeRef fnty = LLVMFunctionType(g->void_ty, params, 6, false);
    if (!LLVMGetNamedFunction(g->intrinsics, name)) {
        LLVMValueRef def = LLVMAddFunction(g->intrinsics, name, fnty);
        LLVMSetLinkage(def, LLVMLinkOnceODRLinkage);
        cg_add_fn_attr(g, def, "alwaysinline", 0);
        cg_add_fn_attr(g, def, "nounwind", 0);
        define_burst_copy(g, def);
    }
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (!fn) {
        fn = LLVMAddFunction(g->mod, name, fnty);
        cg_add_fn_attr(g, fn, "nounwind", 0);
    }
    LLVMValueRef args[6] = {dst, src, n_burst, len_burst, src_stride, dst_stride};
    LLVMBuildCall2(g->b, fnty, fn, args, 6, "");
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
