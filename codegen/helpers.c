/* helpers.c: the building blocks every codegen rule uses (codegen_internal.h).
 *
 * Types (ptoc type -> LLVM type), element loads and stores with the f16/bf16
 * compute-type rules, conversions, runtime and intrinsic calls, run-time traps,
 * tiles (resolving a tile value to its base pointer and valid shape, element
 * addressing for every layout, sequential placement, bounds checks), the
 * operands of compute ops in both forms, and counted loops in the canonical
 * shape LLVM's loop vectoriser expects. The value map itself lives in module.c.
 */
#include "codegen/codegen_internal.h"

#include <llvm-c/DebugInfo.h>

#include <stdio.h>
#include <string.h>

#include "ptoc/runtime.h"
#include "ptoc/syntax.h"

/* ---------------------------------------------------------------- types */

static bool is_float_kind(const ptoc_type *t, ptoc_float_kind k)
{
    return t && t->kind == PTOC_TYPE_FLOAT && t->u.fp.kind == k;
}

/* f16 and bf16: stored narrow, computed in float. */
static bool is_half_like(const ptoc_type *t)
{
    return is_float_kind(t, PTOC_F16) || is_float_kind(t, PTOC_BF16);
}

static LLVMTypeRef float_type(cg *g, ptoc_float_kind k)
{
    switch (k) {
    case PTOC_F16: return g->f16;
    case PTOC_BF16: return g->bf16;
    case PTOC_F32: return g->f32;
    case PTOC_F64: return g->f64;
    default: return NULL;
    }
}

static const char *space_name(uint32_t space)
{
    const char *n = ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, space);
    return n ? n : "unknown";
}

static void type_error(cg *g, const ptoc_type *t, ptoc_loc loc)
{
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, NULL);
    ptoc_print_type_to(&sb, t);
    ptoc_emit_error(g->ctx, loc, "type '%s' is not supported by the cpu target yet",
                    ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
}

LLVMTypeRef cg_cpu_type(cg *g, const ptoc_type *t, ptoc_loc loc)
{
    LLVMTypeRef ty = NULL;
    ptoc_pto_address_space space;
    ptoc_pto_tile_desc desc;
    if (t->kind == PTOC_TYPE_INDEX)
        ty = g->i64;
    else if (t->kind == PTOC_TYPE_INTEGER)
        ty = LLVMIntTypeInContext(g->llctx, t->u.integer.width);
    else if (t->kind == PTOC_TYPE_FLOAT)
        ty = float_type(g, t->u.fp.kind);
    else if (ptoc_pto_ptr_elem(t) || ptoc_pto_ub_ptr_elem(t))
        ty = g->ptr;
    else if (ptoc_pto_vreg_type(t))            /* bf16 lanes as their bits: LLVM has no bfloat vector arithmetic */
        ty = LLVMVectorType(is_float_kind(ptoc_pto_vreg_type(t)->elem, PTOC_BF16)
                                ? g->i16
                                : cg_elem_type(g, ptoc_pto_vreg_type(t)->elem),
                            (unsigned)ptoc_pto_vreg_type(t)->lanes);
    else if (ptoc_pto_type_is(t, PTOC_PTO_TYPE_MASK))
        ty = LLVMVectorType(g->i1, CG_MASK_BITS);
    else if (ptoc_pto_type_is(t, PTOC_PTO_TYPE_ALIGN))
        ty = cg_align_state_type(g);
    else if (ptoc_pto_type_is(t, PTOC_PTO_TYPE_PIPE) || ptoc_pto_type_is(t, PTOC_PTO_TYPE_EVENTID_ARRAY) ||
             ptoc_pto_type_is(t, PTOC_PTO_TYPE_ASYNC_SESSION))
        ty = g->ptr;                           /* handles: lower_pto_xcore.c */
    else if (ptoc_pto_type_is(t, PTOC_PTO_TYPE_ASYNC_EVENT))
        ty = g->i64;
    else if (t->kind == PTOC_TYPE_VECTOR && t->u.shaped.rank == 1 && t->u.shaped.shape[0] > 0 &&
             (ptoc_type_is_int(t->u.shaped.elem) || is_float_kind(t->u.shaped.elem, PTOC_F32) ||
              is_float_kind(t->u.shaped.elem, PTOC_F64)))
        ty = LLVMVectorType(ptoc_type_is_int(t->u.shaped.elem)
                                ? LLVMIntTypeInContext(g->llctx, t->u.shaped.elem->u.integer.width)
                                : float_type(g, t->u.shaped.elem->u.fp.kind),
                            (unsigned)t->u.shaped.shape[0]);
    else if (ptoc_pto_tensor_view(t) || ptoc_pto_partition_view(t))
        ty = g->view_ty;
    else if (ptoc_pto_tile_like(t))
        ty = g->tile_ty;
    else if (ptoc_pto_memref_space(t, &space))
        ty = space == PTOC_PTO_AS_GM ? g->ptr : cg_tile_desc_of(t, &desc) ? g->tile_ty : NULL;
    if (!ty)
        type_error(g, t, loc);
    return ty;
}

LLVMTypeRef cg_elem_type(cg *g, const ptoc_type *elem)
{
    LLVMTypeRef t = elem->kind == PTOC_TYPE_FLOAT ? float_type(g, elem->u.fp.kind) : NULL;
    return t ? t : LLVMIntTypeInContext(g->llctx, cg_elem_size(elem) * 8);
}

bool cg_check_computable(ptoc_op *op, const char *role, const ptoc_type *e)
{
    if ((ptoc_type_is_int(e) && ptoc_type_bitwidth(e) >= 8) ||
        (ptoc_type_is_float(e) && (e->u.fp.kind == PTOC_F16 || e->u.fp.kind == PTOC_BF16 ||
                                   e->u.fp.kind == PTOC_F32)))
        return true;
    ptoc_op_emit_error(op, "%s element type must be i8..i64, ui8..ui64, f16, bf16 or f32 on the cpu target", role);
    return false;
}

uint32_t cg_elem_size(const ptoc_type *elem)
{
    uint32_t bits = ptoc_type_bitwidth(elem);
    return bits < 8 ? 1 : bits / 8;
}

bool cg_is_unsigned(const ptoc_type *t)
{
    return t && t->kind == PTOC_TYPE_INTEGER && t->u.integer.sign == PTOC_UNSIGNED;
}

LLVMValueRef cg_i64(cg *g, int64_t v)
{
    return LLVMConstInt(g->i64, (unsigned long long)v, true);
}

LLVMValueRef cg_i32(cg *g, int32_t v)
{
    return LLVMConstInt(g->i32, (unsigned long long)(int64_t)v, true);
}

LLVMValueRef cg_where(cg *g, ptoc_loc loc)
{
    if (g->where)
        return g->where;
    char text[512];
    snprintf(text, sizeof text, "%s:%u:%u", loc.file ? loc.file->str : "<unknown>", loc.line, loc.col);
    LLVMValueRef init = LLVMConstStringInContext(g->llctx, text, (unsigned)strlen(text), false);
    LLVMValueRef gv = LLVMAddGlobal(g->mod, LLVMTypeOf(init), "ptoc.where");
    LLVMSetInitializer(gv, init);
    LLVMSetGlobalConstant(gv, true);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(gv, LLVMGlobalUnnamedAddr);
    return gv;
}

LLVMValueRef cg_op_name(cg *g, const char *name)
{
    char gname[160];
    snprintf(gname, sizeof gname, "ptoc.op.%s", name);
    LLVMValueRef gv = LLVMGetNamedGlobal(g->mod, gname);
    if (gv)
        return gv;
    LLVMValueRef init = LLVMConstStringInContext(g->llctx, name, (unsigned)strlen(name), false);
    gv = LLVMAddGlobal(g->mod, LLVMTypeOf(init), gname);
    LLVMSetInitializer(gv, init);
    LLVMSetGlobalConstant(gv, true);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(gv, LLVMGlobalUnnamedAddr);
    return gv;
}

/* ---------------------------------------------------------------- calls */

/* The runtime entry points of ptoc/runtime.h, with their C signatures. */
typedef enum rt_ty { RT_VOID, RT_I32, RT_I64, RT_PTR, RT_F64 } rt_ty;
typedef struct rt_sig {
    const char *name;
    rt_ty ret;
    unsigned nparams;
    rt_ty params[8];
    bool noreturn;
} rt_sig;

static const rt_sig rt_sigs[] = {
    {"ptoc_rt_space_base", RT_PTR, 2, {RT_I32, RT_I64}, false},
    {"ptoc_rt_block_idx", RT_I64, 0, {RT_VOID}, false},
    {"ptoc_rt_block_num", RT_I64, 0, {RT_VOID}, false},
    {"ptoc_rt_trap", RT_VOID, 5, {RT_I32, RT_PTR, RT_I64, RT_I64, RT_I64}, true},
    {"ptoc_rt_gm_check", RT_VOID, 5, {RT_PTR, RT_PTR, RT_PTR, RT_PTR, RT_PTR}, false},
    /* the cores of a block (lower_pto_xcore.c) */
    {"ptoc_rt_cores_run", RT_VOID, 3, {RT_PTR, RT_PTR, RT_I32}, false},
    {"ptoc_rt_core_runs", RT_I32, 1, {RT_I32}, false},
    {"ptoc_rt_subblock_idx", RT_I64, 0, {RT_VOID}, false},
    {"ptoc_rt_subblock_num", RT_I64, 0, {RT_VOID}, false},
    {"ptoc_rt_xsync_set", RT_VOID, 2, {RT_I32, RT_PTR}, false},
    {"ptoc_rt_xsync_wait", RT_VOID, 2, {RT_I32, RT_PTR}, false},
    {"ptoc_rt_xpipe_init", RT_PTR, 7, {RT_I32, RT_I32, RT_I32, RT_I32, RT_I32, RT_I32, RT_PTR}, false},
    {"ptoc_rt_xpipe_frontend", RT_PTR, 2, {RT_PTR, RT_PTR}, false},
    {"ptoc_rt_xpipe_push", RT_PTR, 8, {RT_PTR, RT_I32, RT_I64, RT_I64, RT_I64, RT_PTR, RT_PTR, RT_PTR},
     false},
    {"ptoc_rt_xpipe_pushed", RT_VOID, 2, {RT_PTR, RT_PTR}, false},
    {"ptoc_rt_xpipe_pop", RT_PTR, 8, {RT_PTR, RT_I32, RT_I64, RT_I64, RT_I64, RT_PTR, RT_PTR, RT_PTR}, false},
    {"ptoc_rt_xpipe_free", RT_VOID, 3, {RT_PTR, RT_PTR, RT_PTR}, false},
    {"ptoc_rt_xpipe_pop_events", RT_VOID, 6, {RT_PTR, RT_I32, RT_I64, RT_I64, RT_PTR, RT_PTR}, false},
    {"ptoc_rt_xpipe_free_events", RT_VOID, 2, {RT_PTR, RT_PTR}, false},
    {"ptoc_rt_pipe_op", RT_VOID, 5, {RT_I32, RT_PTR, RT_PTR, RT_I32, RT_PTR}, false},
    {"ptoc_rt_async_copy", RT_I64, 4, {RT_PTR, RT_PTR, RT_I64, RT_PTR}, false},
    {"ptoc_rt_async_wait", RT_I32, 2, {RT_I64, RT_PTR}, false},
    {"ptoc_rt_print", RT_VOID, 4, {RT_PTR, RT_I32, RT_I64, RT_F64}, false},
    {"ptoc_rt_tprint_begin", RT_VOID, 2, {RT_I64, RT_I64}, false},
    {"ptoc_rt_tprint_value", RT_VOID, 3, {RT_I32, RT_I64, RT_F64}, false},
    {"ptoc_rt_tprint_row_end", RT_VOID, 0, {RT_VOID}, false},
    {"ptoc_rt_tprint_end", RT_VOID, 0, {RT_VOID}, false},
};

static LLVMTypeRef rt_type(cg *g, rt_ty t)
{
    switch (t) {
    case RT_I32: return g->i32;
    case RT_I64: return g->i64;
    case RT_PTR: return g->ptr;
    case RT_F64: return g->f64;
    default: return g->void_ty;
    }
}

void cg_add_fn_attr(cg *g, LLVMValueRef fn, const char *name, uint64_t value)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->llctx, kind, value));
}

LLVMValueRef cg_call_runtime(cg *g, const char *name, LLVMValueRef *args, unsigned nargs)
{
    const rt_sig *sig = NULL;
    for (size_t i = 0; i < sizeof rt_sigs / sizeof rt_sigs[0]; i++)
        if (strcmp(rt_sigs[i].name, name) == 0)
            sig = &rt_sigs[i];
    if (!sig || sig->nparams != nargs)
        ptoc_unreachable("unknown runtime entry point or wrong argument count");
    LLVMTypeRef params[8];
    for (unsigned i = 0; i < sig->nparams; i++)
        params[i] = rt_type(g, sig->params[i]);
    LLVMTypeRef fnty = LLVMFunctionType(rt_type(g, sig->ret), params, sig->nparams, false);
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (!fn) {
        fn = LLVMAddFunction(g->mod, name, fnty);
        cg_add_fn_attr(g, fn, "nounwind", 0);
        if (sig->noreturn)
            cg_add_fn_attr(g, fn, "noreturn", 0);
    }
    return LLVMBuildCall2(g->b, fnty, fn, args, nargs, "");
}

LLVMValueRef cg_call_intrinsic(cg *g, const char *name, LLVMTypeRef ty, LLVMValueRef *args, unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    if (!id)
        ptoc_unreachable("unknown LLVM intrinsic");
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, &ty, 1);
    LLVMTypeRef fnty = LLVMIntrinsicGetType(g->llctx, id, &ty, 1);
    return LLVMBuildCall2(g->b, fnty, fn, args, nargs, "");
}

void cg_trap_if(cg *g, LLVMValueRef cond, int kind, ptoc_loc loc, LLVMValueRef a, LLVMValueRef b,
                LLVMValueRef c)
{
    if (LLVMIsAConstantInt(cond) && LLVMConstIntGetZExtValue(cond) == 0)
        return;
    LLVMBasicBlockRef trap = cg_block(g, "trap");
    LLVMBasicBlockRef cont = cg_block(g, "cont");
    LLVMBuildCondBr(g->b, cond, trap, cont);
    LLVMPositionBuilderAtEnd(g->b, trap);
    LLVMValueRef args[5] = {cg_i32(g, kind), cg_where(g, loc), a ? a : cg_i64(g, 0),
                            b ? b : cg_i64(g, 0), c ? c : cg_i64(g, 0)};
    cg_call_runtime(g, "ptoc_rt_trap", args, 5);
    LLVMBuildUnreachable(g->b);
    LLVMPositionBuilderAtEnd(g->b, cont);
}

/* ---------------------------------------------------------------- elements */

LLVMTypeRef cg_compute_type(cg *g, const ptoc_type *elem)
{
    if (is_half_like(elem))
        return g->f32;
    if (elem->kind == PTOC_TYPE_INDEX)
        return g->i64;
    if (elem->kind == PTOC_TYPE_INTEGER)
        return LLVMIntTypeInContext(g->llctx, elem->u.integer.width);
    return cg_elem_type(g, elem);
}

/* `t`, or a vector of `lanes` of it when lanes > 1. */
static LLVMTypeRef with_lanes(LLVMTypeRef t, unsigned lanes)
{
    return lanes > 1 ? LLVMVectorType(t, lanes) : t;
}

/* The lanes of a value: its vector length, or 1 for a scalar. */
static unsigned lanes_of(LLVMValueRef v)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    return LLVMGetTypeKind(ty) == LLVMVectorTypeKind ? LLVMGetVectorSize(ty) : 1;
}

LLVMValueRef cg_const_int(LLVMTypeRef ty, unsigned long long v)
{
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
        return LLVMConstInt(ty, v, false);
    unsigned lanes = LLVMGetVectorSize(ty);
    LLVMValueRef c = LLVMConstInt(LLVMGetElementType(ty), v, false), splat[CG_MASK_BITS];
    if (lanes > CG_MASK_BITS)
        ptoc_unreachable("cg_const_int on a vector wider than a register's bytes");
    for (unsigned i = 0; i < lanes; i++)
        splat[i] = c;
    return LLVMConstVector(splat, lanes);
}

LLVMValueRef cg_splat(cg *g, LLVMValueRef v, unsigned lanes)
{
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), lanes);
    LLVMValueRef one = LLVMBuildInsertElement(g->b, LLVMGetPoison(vt), v, cg_i32(g, 0), "");
    return LLVMBuildShuffleVector(g->b, one, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(g->i32, lanes)),
                                  "splat");
}

/* Integer division that never traps: x/0 = -1 (all ones) and, signed,
 * INT_MIN/-1 = INT_MIN. The divisor is replaced by 1 in both cases (INT_MIN/1
 * is INT_MIN already), then the quotient by all ones when dividing by zero. */
LLVMValueRef cg_int_div(cg *g, LLVMValueRef a, LLVMValueRef b, bool is_unsigned)
{
    LLVMBuilderRef B = g->b;
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef one = cg_const_int(ty, 1), ones = LLVMConstAllOnes(ty);
    LLVMValueRef zero_div = LLVMBuildICmp(B, LLVMIntEQ, b, LLVMConstNull(ty), "");
    LLVMValueRef unsafe = zero_div;
    if (!is_unsigned) {
        LLVMTypeRef lane = LLVMGetTypeKind(ty) == LLVMVectorTypeKind ? LLVMGetElementType(ty) : ty;
        LLVMValueRef int_min = cg_const_int(ty, 1ULL << (LLVMGetIntTypeWidth(lane) - 1));
        LLVMValueRef a_min = LLVMBuildICmp(B, LLVMIntEQ, a, int_min, "");
        LLVMValueRef b_minus_one = LLVMBuildICmp(B, LLVMIntEQ, b, ones, "");
        LLVMValueRef overflow = LLVMBuildAnd(B, a_min, b_minus_one, "");
        unsafe = LLVMBuildOr(B, zero_div, overflow, "");
    }
    LLVMValueRef divisor = LLVMBuildSelect(B, unsafe, one, b, "");
    LLVMValueRef q = is_unsigned ? LLVMBuildUDiv(B, a, divisor, "") : LLVMBuildSDiv(B, a, divisor, "");
    return LLVMBuildSelect(B, zero_div, ones, q, "");
}

/* bf16 bits (i16, or a vector of them) -> float: the bits are the high half
 * of a float. */
static LLVMValueRef bf16_bits_to_f32(cg *g, LLVMValueRef bits)
{
    unsigned lanes = lanes_of(bits);
    LLVMValueRef wide = LLVMBuildZExt(g->b, bits, with_lanes(g->i32, lanes), "");
    LLVMValueRef shifted = LLVMBuildShl(g->b, wide, cg_const_int(LLVMTypeOf(wide), 16), "");
    return LLVMBuildBitCast(g->b, shifted, with_lanes(g->f32, lanes), "");
}

LLVMValueRef cg_bf16_to_f32(cg *g, LLVMValueRef v)
{
    return bf16_bits_to_f32(g, LLVMBuildBitCast(g->b, v, with_lanes(g->i16, lanes_of(v)), ""));
}

LLVMValueRef cg_load_elems(cg *g, const ptoc_type *elem, LLVMValueRef ptr, unsigned lanes)
{
    LLVMTypeRef stored = is_float_kind(elem, PTOC_BF16) ? g->i16 : cg_elem_type(g, elem);
    LLVMValueRef v = LLVMBuildLoad2(g->b, with_lanes(stored, lanes), ptr, "");
    LLVMSetAlignment(v, cg_elem_size(elem));
    if (is_float_kind(elem, PTOC_F16))
        return LLVMBuildFPExt(g->b, v, with_lanes(g->f32, lanes), "");
    if (is_float_kind(elem, PTOC_BF16))
        return bf16_bits_to_f32(g, v);
    LLVMTypeRef ct = with_lanes(cg_compute_type(g, elem), lanes);
    return LLVMTypeOf(v) == ct ? v : LLVMBuildTrunc(g->b, v, ct, "");   /* i1 stored as i8 */
}

LLVMValueRef cg_load_elem(cg *g, const ptoc_type *elem, LLVMValueRef ptr)
{
    return cg_load_elems(g, elem, ptr, 1);
}

void cg_store_elem(cg *g, const ptoc_type *elem, LLVMValueRef ptr, LLVMValueRef v)
{
    unsigned lanes = lanes_of(v);
    LLVMTypeRef stored = with_lanes(cg_elem_type(g, elem), lanes);
    if (is_float_kind(elem, PTOC_F16))
        v = LLVMBuildFPTrunc(g->b, v, stored, "");
    else if (is_float_kind(elem, PTOC_BF16))
        v = cg_f32_to_bf16(g, v);
    else if (LLVMTypeOf(v) != stored)
        v = LLVMBuildZExt(g->b, v, stored, "");
    LLVMSetAlignment(LLVMBuildStore(g->b, v, ptr), cg_elem_size(elem));
}

LLVMValueRef cg_f32_to_bf16(cg *g, LLVMValueRef f)
{
    unsigned lanes = lanes_of(f);
    LLVMTypeRef i32 = with_lanes(g->i32, lanes);
    LLVMValueRef bits = LLVMBuildBitCast(g->b, f, i32, "");
    LLVMValueRef c16 = cg_const_int(i32, 16);
    /* round to nearest even: add 0x7fff plus the lowest kept bit, then cut */
    LLVMValueRef lsb = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, bits, c16, ""), cg_const_int(i32, 1), "");
    LLVMValueRef bias = LLVMBuildAdd(g->b, lsb, cg_const_int(i32, 0x7fff), "");
    LLVMValueRef rounded = LLVMBuildLShr(g->b, LLVMBuildAdd(g->b, bits, bias, ""), c16, "");
    /* a NaN keeps its sign and payload top and becomes quiet */
    LLVMValueRef quiet = LLVMBuildOr(g->b, LLVMBuildLShr(g->b, bits, c16, ""), cg_const_int(i32, 0x40), "");
    LLVMValueRef isnan = LLVMBuildFCmp(g->b, LLVMRealUNO, f, f, "");
    return LLVMBuildTrunc(g->b, LLVMBuildSelect(g->b, isnan, quiet, rounded, ""), with_lanes(g->i16, lanes), "");
}

/* Rounds a float or double to the precision of f16/bf16, giving a float. A
 * double goes to bf16 through float (two roundings; f16 rounds once). */
static LLVMValueRef round_to_half_like(cg *g, LLVMValueRef f, const ptoc_type *to)
{
    if (is_float_kind(to, PTOC_F16))
        return LLVMBuildFPExt(g->b, LLVMBuildFPTrunc(g->b, f, g->f16, ""), g->f32, "");
    if (LLVMTypeOf(f) == g->f64)
        f = LLVMBuildFPTrunc(g->b, f, g->f32, "");
    return bf16_bits_to_f32(g, cg_f32_to_bf16(g, f));
}

LLVMValueRef cg_float_to_int_sat(cg *g, LLVMValueRef v, LLVMTypeRef ity, bool is_unsigned)
{
    const char *name = is_unsigned ? "llvm.fptoui.sat" : "llvm.fptosi.sat";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMTypeRef tys[2] = {ity, LLVMTypeOf(v)};
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, tys, 2);
    return LLVMBuildCall2(g->b, LLVMIntrinsicGetType(g->llctx, id, tys, 2), fn, &v, 1, "");
}

LLVMValueRef cg_convert(cg *g, LLVMValueRef v, const ptoc_type *from, const ptoc_type *to)
{
    LLVMTypeRef tt = cg_compute_type(g, to);
    bool from_int = ptoc_type_is_int_or_index(from), to_int = ptoc_type_is_int_or_index(to);
    if (from_int && to_int) {
        unsigned fw = LLVMGetIntTypeWidth(LLVMTypeOf(v)), tw = LLVMGetIntTypeWidth(tt);
        if (fw == tw)
            return v;
        if (fw > tw)
            return LLVMBuildTrunc(g->b, v, tt, "");
        return cg_is_unsigned(from) || fw == 1 ? LLVMBuildZExt(g->b, v, tt, "") : LLVMBuildSExt(g->b, v, tt, "");
    }
    if (!from_int && to_int)
        return cg_float_to_int_sat(g, v, tt, cg_is_unsigned(to));
    LLVMValueRef r;
    if (from_int) {
        bool u = cg_is_unsigned(from) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 1;
        /* to f16/bf16 through double, which holds every integer up to 2^53
         * exactly, so the one rounding is to the narrow type */
        LLVMTypeRef via = is_half_like(to) ? g->f64 : tt;
        r = u ? LLVMBuildUIToFP(g->b, v, via, "") : LLVMBuildSIToFP(g->b, v, via, "");
    } else {
        LLVMTypeRef ft = LLVMTypeOf(v);
        LLVMTypeRef target = is_half_like(to) ? ft : tt;   /* rounded below */
        r = ft == target ? v : ft == g->f64 ? LLVMBuildFPTrunc(g->b, v, target, "")
                                            : LLVMBuildFPExt(g->b, v, target, "");
    }
    if (is_half_like(to) && from != to)
        r = round_to_half_like(g, r, to);
    return r;
}

/* ---------------------------------------------------------------- tiles */

bool cg_tile_desc_of(const ptoc_type *t, ptoc_pto_tile_desc *out)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(t);
    if (d) {
        *out = *d;
        return true;
    }
    ptoc_pto_address_space space;
    if (!ptoc_pto_memref_space(t, &space) || space == PTOC_PTO_AS_GM)
        return false;
    uint32_t rank = t->u.shaped.rank;
    const int64_t *shape = t->u.shaped.shape;
    if (rank < 1 || rank > 5)
        return false;
    int64_t rows = 1, cols = shape[rank - 1];
    for (uint32_t k = 0; k + 1 < rank; k++)
        rows = shape[k] == PTOC_DYNAMIC ? PTOC_DYNAMIC : rows * shape[k];
    if (rows == PTOC_DYNAMIC || cols == PTOC_DYNAMIC)
        return false;
    *out = ptoc_pto_tile_desc_init(t->u.shaped.elem, rows, cols);
    out->loc = space;
    return true;
}

/* Static valid dimension as a constant, else the aggregate's field. */
static LLVMValueRef valid_dim(cg *g, LLVMValueRef agg, int64_t stat, unsigned field)
{
    return stat != PTOC_DYNAMIC ? cg_i64(g, stat) : LLVMBuildExtractValue(g->b, agg, field, "");
}

bool cg_tile_of(cg *g, const ptoc_value *v, cg_tile *out)
{
    memset(out, 0, sizeof *out);
    if (!cg_tile_desc_of(v->type, &out->desc)) {
        ptoc_emit_error(g->ctx, v->loc, "internal error: codegen expected a tile value");
        return false;
    }
    out->agg = cg_get(g, v);
    if (!out->agg)
        return false;
    out->elem = out->desc.elem;
    out->esize = cg_elem_size(out->elem);
    LLVMValueRef offset = LLVMBuildExtractValue(g->b, out->agg, 0, "");
    LLVMValueRef base = cg_space_base(g, cg_tile_space(g, v, out->desc.loc));
    out->base = LLVMBuildGEP2(g->b, g->i8, base, &offset, 1, "tile");
    out->vrows = valid_dim(g, out->agg, out->desc.valid_rows, 1);
    out->vcols = valid_dim(g, out->agg, out->desc.valid_cols, 2);
    return true;
}

static uint64_t tile_bytes(const ptoc_pto_tile_desc *d)
{
    return (uint64_t)d->rows * (uint64_t)d->cols * cg_elem_size(d->elem);
}

/* The compile-time check of a constant tile address. */
static bool check_static_address(cg *g, const ptoc_pto_tile_desc *d, uint64_t offset, ptoc_loc loc)
{
    uint64_t cap = cg_capacity(g, d->loc), bytes = tile_bytes(d);
    uint32_t align = ptoc_pto_space_alignment(g->arch, (ptoc_pto_address_space)d->loc);
    if (offset > cap || bytes > cap - offset) {
        ptoc_emit_error(g->ctx, loc, "tile at %s offset %llu (%llu bytes) exceeds the %s capacity of %llu bytes",
                        space_name(d->loc), (unsigned long long)offset, (unsigned long long)bytes,
                        space_name(d->loc), (unsigned long long)cap);
        return false;
    }
    if (offset % align != 0) {
        ptoc_emit_error(g->ctx, loc, "tile at %s offset %llu is not %u-byte aligned", space_name(d->loc),
                        (unsigned long long)offset, align);
        return false;
    }
    return true;
}

/* The run-time check of a dynamic tile address: inside the space, aligned. */
static void check_dynamic_address(cg *g, const ptoc_pto_tile_desc *d, LLVMValueRef offset, ptoc_loc loc)
{
    uint64_t cap = cg_capacity(g, d->loc), bytes = tile_bytes(d);
    uint32_t align = ptoc_pto_space_alignment(g->arch, (ptoc_pto_address_space)d->loc);
    LLVMValueRef limit = cg_i64(g, bytes > cap ? -1 : (int64_t)(cap - bytes));
    LLVMValueRef outside = bytes > cap ? LLVMConstInt(g->i1, 1, false)
                                       : LLVMBuildICmp(g->b, LLVMIntUGT, offset, limit, "");
    LLVMValueRef misaligned = LLVMBuildICmp(g->b, LLVMIntNE,
                                            LLVMBuildAnd(g->b, offset, cg_i64(g, align - 1), ""),
                                            cg_i64(g, 0), "");
    cg_trap_if(g, LLVMBuildOr(g->b, outside, misaligned, ""), PTOC_RT_TRAP_ADDRESS, loc, offset,
               cg_i64(g, (int64_t)bytes), cg_i64(g, (int64_t)cap));
}

LLVMValueRef cg_tile_make(cg *g, const ptoc_type *t, LLVMValueRef offset, LLVMValueRef vrows,
                          LLVMValueRef vcols, ptoc_loc loc)
{
    ptoc_pto_tile_desc d;
    if (!cg_tile_desc_of(t, &d)) {
        ptoc_emit_error(g->ctx, loc, "internal error: codegen expected a tile type");
        return NULL;
    }
    if (LLVMIsAConstantInt(offset)) {
        if (!check_static_address(g, &d, LLVMConstIntGetZExtValue(offset), loc))
            return NULL;
    } else {
        check_dynamic_address(g, &d, offset, loc);
    }
    bool dyn_r = d.valid_rows == PTOC_DYNAMIC, dyn_c = d.valid_cols == PTOC_DYNAMIC;
    vrows = dyn_r && vrows ? vrows : cg_i64(g, dyn_r ? d.rows : d.valid_rows);
    vcols = dyn_c && vcols ? vcols : cg_i64(g, dyn_c ? d.cols : d.valid_cols);
    if (dyn_r || dyn_c) {
        LLVMValueRef big_r = LLVMBuildICmp(g->b, LLVMIntUGT, vrows, cg_i64(g, d.rows), "");
        LLVMValueRef big_c = LLVMBuildICmp(g->b, LLVMIntUGT, vcols, cg_i64(g, d.cols), "");
        cg_trap_if(g, LLVMBuildOr(g->b, big_r, big_c, ""), PTOC_RT_TRAP_VALID_SHAPE, loc, vrows, vcols,
                   NULL);
    }
    LLVMValueRef agg = LLVMGetUndef(g->tile_ty);
    agg = LLVMBuildInsertValue(g->b, agg, offset, 0, "");
    agg = LLVMBuildInsertValue(g->b, agg, vrows, 1, "");
    return LLVMBuildInsertValue(g->b, agg, vcols, 2, "");
}

/* The inner box of a boxed layout (docs/targets.md), in elements. */
static void inner_box(const cg_tile *t, int64_t *irows, int64_t *icols)
{
    int64_t r, c;
    if (t->desc.fractal == 1024) {
        r = 16;
        c = 16;
    } else if (t->desc.fractal == 32) {
        r = 16;
        c = 2;
    } else {
        r = 16;
        c = 32 / (int64_t)t->esize;
    }
    bool inner_col_major = t->desc.slayout == PTOC_PTO_SL_COL_MAJOR;
    *irows = inner_col_major ? c : r;
    *icols = inner_col_major ? r : c;
}

/* Element offset in a boxed tile: block index times box size plus the offset
 * inside the box; both orders come from the outer and inner layouts. */
static LLVMValueRef boxed_offset(cg *g, const cg_tile *t, LLVMValueRef r, LLVMValueRef c)
{
    int64_t ir_n, ic_n;
    inner_box(t, &ir_n, &ic_n);
    LLVMValueRef irn = cg_i64(g, ir_n), icn = cg_i64(g, ic_n);
    LLVMValueRef br = LLVMBuildUDiv(g->b, r, irn, ""), ir = LLVMBuildURem(g->b, r, irn, "");
    LLVMValueRef bc = LLVMBuildUDiv(g->b, c, icn, ""), ic = LLVMBuildURem(g->b, c, icn, "");
    int64_t blocks_per_col = (t->desc.rows + ir_n - 1) / ir_n, blocks_per_row = (t->desc.cols + ic_n - 1) / ic_n;
    LLVMValueRef block = t->desc.blayout == PTOC_PTO_BL_COL_MAJOR
                             ? LLVMBuildAdd(g->b, LLVMBuildMul(g->b, bc, cg_i64(g, blocks_per_col), ""), br, "")
                             : LLVMBuildAdd(g->b, LLVMBuildMul(g->b, br, cg_i64(g, blocks_per_row), ""), bc, "");
    LLVMValueRef inner = t->desc.slayout == PTOC_PTO_SL_COL_MAJOR
                             ? LLVMBuildAdd(g->b, LLVMBuildMul(g->b, ic, irn, ""), ir, "")
                             : LLVMBuildAdd(g->b, LLVMBuildMul(g->b, ir, icn, ""), ic, "");
    return LLVMBuildAdd(g->b, LLVMBuildMul(g->b, block, cg_i64(g, ir_n * ic_n), ""), inner, "");
}

LLVMValueRef cg_tile_elem_ptr(cg *g, const cg_tile *t, LLVMValueRef r, LLVMValueRef c)
{
    LLVMValueRef off;
    if (t->desc.slayout != PTOC_PTO_SL_NONE_BOX)
        off = boxed_offset(g, t, r, c);
    else if (t->desc.blayout == PTOC_PTO_BL_COL_MAJOR)
        off = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, c, cg_i64(g, t->desc.rows), ""), r, "");
    else
        off = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, r, cg_i64(g, t->desc.cols), ""), c, "");
    return LLVMBuildInBoundsGEP2(g->b, cg_elem_type(g, t->elem), t->base, &off, 1, "");
}

LLVMValueRef cg_tile_row_ptr(cg *g, const cg_tile *t, LLVMValueRef r)
{
    LLVMValueRef off = LLVMBuildMul(g->b, r, cg_i64(g, cg_tile_row_stride(t)), "");
    return LLVMBuildInBoundsGEP2(g->b, cg_elem_type(g, t->elem), t->base, &off, 1, "row");
}

int64_t cg_tile_row_stride(const cg_tile *t)
{
    return t->desc.blayout == PTOC_PTO_BL_COL_MAJOR ? 1 : t->desc.cols;
}

uint64_t cg_capacity(cg *g, uint32_t space)
{
    if (space == CG_SPACE_SCALE_LEFT || space == CG_SPACE_SCALE_RIGHT)
        return ptoc_pto_arch_info_of(g->arch)->mx_scale_capacity;
    if (space < 16 && g->opts->capacity[space])
        return g->opts->capacity[space];
    return ptoc_pto_space_capacity(g->arch, (ptoc_pto_address_space)space);
}

LLVMValueRef cg_place(cg *g, uint32_t space, uint64_t bytes, ptoc_loc loc)
{
    if (space >= CG_MAX_SPACES) {
        ptoc_emit_error(g->ctx, loc, "internal error: address space %u out of range", space);
        return NULL;
    }
    uint64_t align = ptoc_pto_space_alignment(g->arch, (ptoc_pto_address_space)space);
    uint64_t start = (g->fn->next_offset[space] + align - 1) / align * align;
    uint64_t cap = cg_capacity(g, space);
    if (start > cap || bytes > cap - start) {
        ptoc_emit_error(g->ctx, loc, "%s overflow: sequential placement needs %llu bytes, %llu available",
                        space_name(space), (unsigned long long)(start + bytes), (unsigned long long)cap);
        return NULL;
    }
    g->fn->next_offset[space] = start + bytes;
    return cg_i64(g, (int64_t)start);
}

/* Ops whose tile result is operand 0's bytes (seen again): a scaling tile's
 * buffer is that of the whole chain. */
static bool aliases_operand0(const ptoc_op *op)
{
    switch (ptoc_pto_opcode(op)) {
    case PTOC_PTO_OP_TASSIGN: case PTOC_PTO_OP_TRESHAPE: case PTOC_PTO_OP_BITCAST:
        return op->nresults == 1;
    default:
        return false;
    }
}

/* The MX scale buffer a tget_scale_addr's scaling tile is in: the one beside
 * its src's L0 buffer (left: ScaleLeft, right: ScaleRight). */
static ptoc_pto_scaling_buffer scale_addr_buffer(const ptoc_op *op)
{
    const ptoc_pto_tile_desc *src = op->noperands ? ptoc_pto_tile_like(ptoc_op_operand(op, 0)->type) : NULL;
    return !src ? PTOC_PTO_SCALING_FB : src->loc == PTOC_PTO_AS_LEFT ? PTOC_PTO_SCALING_LEFT
         : src->loc == PTOC_PTO_AS_RIGHT                            ? PTOC_PTO_SCALING_RIGHT
                                                                     : PTOC_PTO_SCALING_FB;
}

/* The scale buffer the uses of `v` (and of the tiles aliasing it) read it as:
 * an MX matmul's a_scale or b_scale, or the dst of a tget_scale_addr. */
static ptoc_pto_scaling_buffer buffer_of_uses(const ptoc_value *v, int depth)
{
    for (const ptoc_use *u = v->uses; u; u = u->next) {
        ptoc_pto_scaling_buffer b = ptoc_pto_scaling_buffer_of(u->owner, u->index);
        if (b == PTOC_PTO_SCALING_FB && ptoc_pto_is(u->owner, PTOC_PTO_OP_TGET_SCALE_ADDR) && u->index == 1)
            b = scale_addr_buffer(u->owner);
        if (b == PTOC_PTO_SCALING_FB && depth < 8 && u->index == 0 && aliases_operand0(u->owner))
            b = buffer_of_uses(&u->owner->results[0], depth + 1);
        if (b != PTOC_PTO_SCALING_FB)
            return b;
    }
    return PTOC_PTO_SCALING_FB;
}

uint32_t cg_tile_space(cg *g, const ptoc_value *v, uint32_t loc)
{
    const ptoc_pto_arch_info *arch = ptoc_pto_arch_info_of(g->arch);
    if (loc != PTOC_PTO_AS_SCALING || !arch || !arch->mx_scale_capacity)
        return loc;
    for (int depth = 0; depth < 8 && v->kind == PTOC_VALUE_RESULT && aliases_operand0(v->owner.op); depth++)
        v = ptoc_op_operand(v->owner.op, 0);            /* the chain's root */
    bool from_addr = v->kind == PTOC_VALUE_RESULT && ptoc_pto_is(v->owner.op, PTOC_PTO_OP_TGET_SCALE_ADDR);
    ptoc_pto_scaling_buffer b = from_addr ? scale_addr_buffer(v->owner.op) : buffer_of_uses(v, 0);
    if (b == PTOC_PTO_SCALING_LEFT)
        return CG_SPACE_SCALE_LEFT;
    return b == PTOC_PTO_SCALING_RIGHT ? CG_SPACE_SCALE_RIGHT : loc;
}

LLVMValueRef cg_space_base(cg *g, uint32_t space)
{
    if (space >= CG_MAX_SPACES)
        ptoc_unreachable("address space out of range");
    if (!g->fn->space_base[space]) {
        /* in the entry block, which has no terminator until the body is done */
        LLVMBuilderRef saved = g->b;
        g->b = LLVMCreateBuilderInContext(g->llctx);
        LLVMPositionBuilderAtEnd(g->b, g->fn->entry);
        LLVMValueRef args[2] = {cg_i32(g, (int32_t)space), cg_i64(g, (int64_t)cg_capacity(g, space))};
        g->fn->space_base[space] = cg_call_runtime(g, "ptoc_rt_space_base", args, 2);
        LLVMDisposeBuilder(g->b);
        g->b = saved;
    }
    return g->fn->space_base[space];
}

/* ---------------------------------------------------------------- compute-op operands */

/* The verifiers skip ops with memref operands (as PTOAS does), so a non-tile
 * can reach here from valid-looking input: a located error, not an internal one. */
bool cg_op_in(cg *g, ptoc_op *op, uint32_t i, cg_tile *out)
{
    ptoc_pto_tile_desc d;
    if (i >= op->noperands || !cg_tile_desc_of(ptoc_op_operand(op, i)->type, &d)) {
        ptoc_op_emit_error(op, "operand #%u must be a tile (tile_buf, tile or on-chip memref) on the cpu target", i);
        return false;
    }
    return cg_tile_of(g, ptoc_op_operand(op, i), out);
}

/* Level 1: result 0 is the out, placed sequentially. */
static bool place_result(cg *g, ptoc_op *op, uint32_t shape_from, cg_tile *out)
{
    ptoc_value *res = ptoc_op_result(op, 0);
    ptoc_pto_tile_desc d;
    if (!cg_tile_desc_of(res->type, &d))
        return false;
    LLVMValueRef offset = cg_place(g, d.loc, tile_bytes(&d), op->loc);
    if (!offset)
        return false;
    LLVMValueRef vrows = NULL, vcols = NULL;
    if (d.valid_rows == PTOC_DYNAMIC || d.valid_cols == PTOC_DYNAMIC) {
        cg_tile src;
        if (!cg_op_in(g, op, shape_from, &src))
            return false;
        vrows = src.vrows;
        vcols = src.vcols;
    }
    LLVMValueRef agg = cg_tile_make(g, res->type, offset, vrows, vcols, op->loc);
    if (!agg)
        return false;
    cg_set(g, res, agg);
    return cg_tile_of(g, res, out);
}

bool cg_op_out(cg *g, ptoc_op *op, uint32_t shape_from, cg_tile *out)
{
    ptoc_pto_tile_desc d;
    if (op->nresults > 0 && cg_tile_desc_of(op->results[0].type, &d))
        return place_result(g, op, shape_from, out);
    uint32_t nins = 0, nouts = 0;
    if (!ptoc_pto_dps_split(op, &nins, &nouts) || nouts == 0 || nins >= op->noperands) {
        ptoc_op_emit_error(op, "needs a tile result or an outs(...) tile on the cpu target");
        return false;
    }
    return cg_op_in(g, op, nins, out);
}

/* The value in its compute type (f16/bf16 scalars widen to float). */
LLVMValueRef cg_op_scalar(cg *g, ptoc_op *op, uint32_t i, const ptoc_type **type)
{
    if (i >= op->noperands) {
        ptoc_op_emit_error(op, "internal error: codegen expected a scalar operand #%u", i);
        return NULL;
    }
    const ptoc_value *v = ptoc_op_operand(op, i);
    if (type)
        *type = v->type;
    LLVMValueRef llv = cg_get(g, v);
    if (llv && is_float_kind(v->type, PTOC_F16))
        return LLVMBuildFPExt(g->b, llv, g->f32, "");
    if (llv && is_float_kind(v->type, PTOC_BF16))
        return bf16_bits_to_f32(g, LLVMBuildBitCast(g->b, llv, g->i16, ""));
    return llv;
}

/* ---------------------------------------------------------------- control flow */

void cg_loop_begin(cg *g, cg_loop *l, LLVMValueRef start, LLVMValueRef end, const char *name)
{
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    l->header = cg_block(g, name);
    l->body = cg_block(g, "body");
    l->exit = cg_block(g, "exit");
    LLVMBuildBr(g->b, l->header);
    LLVMPositionBuilderAtEnd(g->b, l->header);
    l->iv = LLVMBuildPhi(g->b, g->i64, "iv");
    LLVMAddIncoming(l->iv, &start, &pre, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, l->iv, end, ""), l->body, l->exit);
    LLVMPositionBuilderAtEnd(g->b, l->body);
    l->outer = g->loop;
    l->has_inner = l->remainder = false;
    if (l->outer)
        l->outer->has_inner = true;
    g->loop = l;
}

/* Gives the loop whose latch branch is `latch_br` the loop ID !{self, opts...}
 * (LLVM requires a loop ID to refer to itself). */
static void set_loop_id(cg *g, LLVMValueRef latch_br, LLVMMetadataRef *opts, unsigned nopts)
{
    LLVMMetadataRef ops[3] = {LLVMTemporaryMDNode(g->llctx, NULL, 0)};
    for (unsigned i = 0; i < nopts; i++)
        ops[1 + i] = opts[i];
    LLVMMetadataRef id = LLVMMDNodeInContext2(g->llctx, ops, 1 + nopts);
    LLVMMetadataReplaceAllUsesWith(ops[0], id);
    unsigned kind = LLVMGetMDKindIDInContext(g->llctx, "llvm.loop", strlen("llvm.loop"));
    LLVMSetMetadata(latch_br, kind, LLVMMetadataAsValue(g->llctx, id));
}

/* The loop option !{!"name"}, or !{!"name", i1 value} when value >= 0. */
static LLVMMetadataRef loop_option(cg *g, const char *name, int value)
{
    LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(g->llctx, name, strlen(name))};
    if (value >= 0)
        ops[1] = LLVMValueAsMetadata(LLVMConstInt(g->i1, (unsigned long long)value, false));
    return LLVMMDNodeInContext2(g->llctx, ops, value >= 0 ? 2 : 1);
}

/* Whether the blocks from `first` to the end of the function call a memory
 * intrinsic (llvm.memcpy, llvm.memmove, llvm.memset). */
static bool calls_memory_intrinsic(LLVMBasicBlockRef first)
{
    for (LLVMBasicBlockRef bb = first; bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            size_t n = 0;
            const char *callee = LLVMIsACallInst(i) ? LLVMGetValueName2(LLVMGetCalledValue(i), &n) : "";
            if (n > 8 && strncmp(callee, "llvm.mem", 8) == 0)
                return true;
        }
    return false;
}

/* A row loop: one whose body holds a loop or a memory intrinsic (which LLVM
 * expands into a run of vector moves), i.e. a whole row of work. Its blocks
 * are the header and everything appended after it (cg_block appends). */
static bool is_row_loop(const cg_loop *l)
{
    return l->has_inner || calls_memory_intrinsic(l->header);
}

void cg_loop_end(cg *g, cg_loop *l)
{
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
    LLVMValueRef next = LLVMBuildNSWAdd(g->b, l->iv, cg_i64(g, 1), "iv.next");
    LLVMAddIncoming(l->iv, &next, &latch, 1);
    LLVMValueRef br = LLVMBuildBr(g->b, l->header);
    if (is_row_loop(l)) {
        LLVMMetadataRef rolled = loop_option(g, "llvm.loop.unroll.disable", -1);
        set_loop_id(g, br, &rolled, 1);
    } else if (l->remainder) {
        LLVMMetadataRef opts[2] = {loop_option(g, "llvm.loop.vectorize.enable", 0),
                                   loop_option(g, "llvm.loop.unroll.disable", -1)};
        set_loop_id(g, br, opts, 2);
    }
    g->loop = l->outer;
    LLVMPositionBuilderAtEnd(g->b, l->exit);
}

void cg_enter_function(cg *g, cg_func *f, LLVMValueRef fn, cg_caller *caller)
{
    *caller = (cg_caller){g->fn, g->loop, LLVMGetInsertBlock(g->b), NULL};
    memset(f, 0, sizeof *f);
    f->op = caller->fn->op;
    f->fn = fn;
    g->fn = f;
    g->loop = NULL;
    f->entry = cg_block(g, "entry");
    caller->body = cg_block(g, "body");
    LLVMPositionBuilderAtEnd(g->b, caller->body);
}

void cg_leave_function(cg *g, cg_caller *caller)
{
    LLVMPositionBuilderAtEnd(g->b, g->fn->entry);
    LLVMBuildBr(g->b, caller->body);
    g->fn = caller->fn;
    g->loop = caller->loop;
    LLVMPositionBuilderAtEnd(g->b, caller->at);
}

LLVMBasicBlockRef cg_block(cg *g, const char *name)
{
    return LLVMAppendBasicBlockInContext(g->llctx, g->fn->fn, name);
}

LLVMValueRef cg_alloca(cg *g, LLVMTypeRef ty, const char *name)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(g->llctx);
    LLVMPositionBuilderAtEnd(b, g->fn->entry);
    LLVMValueRef v = LLVMBuildAlloca(b, ty, name);
    LLVMDisposeBuilder(b);
    return v;
}

LLVMValueRef cg_elem_slot(cg *g, LLVMValueRef v, const ptoc_type *from, const ptoc_type *elem)
{
    LLVMValueRef slot = cg_alloca(g, cg_elem_type(g, elem), "scalar.elem");
    cg_store_elem(g, elem, slot, cg_convert(g, v, from, elem));
    return slot;
}

LLVMValueRef cg_op_scalar_slot(cg *g, ptoc_op *op, uint32_t i, const ptoc_type *elem)
{
    const ptoc_type *ty = NULL;
    LLVMValueRef v = cg_op_scalar(g, op, i, &ty);
    return v && ty ? cg_elem_slot(g, v, ty, elem) : NULL;
}
