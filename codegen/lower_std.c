/* lower_std.c: the rules for the upstream dialects: arith, func and scf.
 *
 * arith follows MLIR's semantics with one deliberate exception: nothing traps
 * and nothing is poison, so a kernel gives the same answer on every target and
 * in the C reference (docs/decisions.md, RISC-V style):
 *   x / 0 = -1 (all ones, signed and unsigned), x % 0 = x,
 *   INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0,
 *   shifts by >= the bit width give 0 (shrsi: the sign fill),
 *   fptosi/fptoui saturate (NaN gives 0).
 * f16 and bf16 scalars live in registers as half/bfloat; their arithmetic is
 * done in float and rounded back (to nearest even), which is exact for + - * /
 * and is what the tile ops do too. The bf16 rounding is plain IR
 * (cg_f32_to_bf16), because LLVM's own needs a libgcc routine Debian lacks.
 *
 * scf lowers to canonical loops (header with phis and the compare, body, latch,
 * exit) so LLVM's loop passes and vectoriser treat them like C loops; scf.for
 * compares signed, as MLIR does. Values of any type (tiles and views included)
 * flow through the phis unchanged.
 */
#include "codegen/codegen_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- shared helpers */

static bool is_half_like(const ptoc_type *t)
{
    return t->kind == PTOC_TYPE_FLOAT && (t->u.fp.kind == PTOC_F16 || t->u.fp.kind == PTOC_BF16);
}

static bool is_bf16(const ptoc_type *t)
{
    return t->kind == PTOC_TYPE_FLOAT && t->u.fp.kind == PTOC_BF16;
}

/* A float register value widened to its compute type (f16/bf16 -> float). */
static LLVMValueRef widen(cg *g, LLVMValueRef v, const ptoc_type *t)
{
    if (!is_half_like(t))
        return v;
    if (!is_bf16(t))
        return LLVMBuildFPExt(g->b, v, g->f32, "");
    LLVMValueRef bits = LLVMBuildZExt(g->b, LLVMBuildBitCast(g->b, v, g->i16, ""), g->i32, "");
    return LLVMBuildBitCast(g->b, LLVMBuildShl(g->b, bits, LLVMConstInt(g->i32, 16, false), ""), g->f32, "");
}

/* A float or double rounded back to the register type of `t`. */
static LLVMValueRef narrow(cg *g, LLVMValueRef v, const ptoc_type *t)
{
    if (!is_bf16(t)) {
        LLVMTypeRef rt = cg_type(g, t, ptoc_loc_unknown());
        return LLVMTypeOf(v) == rt ? v : LLVMBuildFPTrunc(g->b, v, rt, "");
    }
    if (LLVMTypeOf(v) == g->f64)
        v = LLVMBuildFPTrunc(g->b, v, g->f32, "");   /* double -> bf16 rounds twice */
    return LLVMBuildBitCast(g->b, cg_f32_to_bf16(g, v), g->bf16, "");
}

static LLVMValueRef operand(cg *g, ptoc_op *op, uint32_t i)
{
    return cg_get(g, ptoc_op_operand(op, i));
}

static bool set_result(cg *g, ptoc_op *op, uint32_t i, LLVMValueRef v)
{
    if (!v)
        return false;
    cg_set(g, ptoc_op_result(op, i), v);
    return true;
}

static bool shaped_unsupported(ptoc_op *op)
{
    ptoc_op_emit_error(op, "on shaped types (vector, tensor, memref) is not supported by the cpu target yet");
    return false;
}

/* Scalars only: arith on shaped types is not lowered yet. */
static bool scalar_operands(ptoc_op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++)
        if (ptoc_type_is_shaped(ptoc_op_operand(op, i)->type))
            return shaped_unsupported(op);
    for (uint32_t i = 0; i < op->nresults; i++)
        if (ptoc_type_is_shaped(op->results[i].type))
            return shaped_unsupported(op);
    return true;
}

/* ---------------------------------------------------------------- arith: integers */

static bool lower_int_binop(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    return scalar_operands(op) && a && b &&
           set_result(g, op, 0, LLVMBuildBinOp(g->b, (LLVMOpcode)rule->arg, a, b, ""));
}

/* Shifts by >= the width: 0, or the sign fill for shrsi (not poison). */
static bool lower_shift(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    if (!scalar_operands(op) || !a || !b)
        return false;
    LLVMTypeRef ty = LLVMTypeOf(a);
    unsigned w = LLVMGetIntTypeWidth(ty);
    LLVMValueRef shifted = LLVMBuildBinOp(g->b, (LLVMOpcode)rule->arg, a, b, "");
    if (LLVMIsAConstantInt(b) && LLVMConstIntGetZExtValue(b) < w)
        return set_result(g, op, 0, shifted);
    LLVMValueRef big = LLVMBuildICmp(g->b, LLVMIntUGE, b, LLVMConstInt(ty, w, false), "");
    LLVMValueRef fill = LLVMConstInt(ty, 0, false);
    if (rule->arg == LLVMAShr)
        fill = LLVMBuildAShr(g->b, a, LLVMConstInt(ty, w - 1, false), "");
    return set_result(g, op, 0, LLVMBuildSelect(g->b, big, fill, shifted, ""));
}

enum div_kind { DIV_S, DIV_U, REM_S, REM_U, CEILDIV_S, CEILDIV_U, FLOORDIV_S };

/* A divisor that never traps: 1 in place of 0, and of -1 when a is INT_MIN
 * (a / 1 = INT_MIN and a % 1 = 0 are then the wanted answers). */
static LLVMValueRef safe_divisor(cg *g, LLVMValueRef a, LLVMValueRef b, LLVMValueRef is_zero, bool is_signed)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef bad = is_zero;
    if (is_signed) {
        unsigned w = LLVMGetIntTypeWidth(ty);
        LLVMValueRef min = LLVMBuildShl(g->b, LLVMConstInt(ty, 1, false), LLVMConstInt(ty, w - 1, false), "");
        LLVMValueRef ovf = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, a, min, ""),
                                        LLVMBuildICmp(g->b, LLVMIntEQ, b, LLVMConstAllOnes(ty), ""), "");
        bad = LLVMBuildOr(g->b, bad, ovf, "");
    }
    return LLVMBuildSelect(g->b, bad, LLVMConstInt(ty, 1, false), b, "");
}

/* ceil/floor adjustments of a truncating quotient q with remainder r:
 * ceil adds 1 when r != 0 and a, b have the same sign (always, unsigned);
 * floor subtracts 1 when r != 0 and the signs differ. */
static LLVMValueRef round_quotient(cg *g, enum div_kind k, LLVMValueRef a, LLVMValueRef b, LLVMValueRef q,
                                   LLVMValueRef r)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstInt(ty, 0, false);
    LLVMValueRef inexact = LLVMBuildICmp(g->b, LLVMIntNE, r, zero, "");
    LLVMValueRef same_sign = LLVMBuildICmp(g->b, LLVMIntSGE, LLVMBuildXor(g->b, a, b, ""), zero, "");
    if (k == CEILDIV_U)
        return LLVMBuildAdd(g->b, q, LLVMBuildZExt(g->b, inexact, ty, ""), "");
    if (k == CEILDIV_S)
        return LLVMBuildAdd(g->b, q, LLVMBuildZExt(g->b, LLVMBuildAnd(g->b, inexact, same_sign, ""), ty, ""), "");
    LLVMValueRef differ = LLVMBuildNot(g->b, same_sign, "");
    return LLVMBuildSub(g->b, q, LLVMBuildZExt(g->b, LLVMBuildAnd(g->b, inexact, differ, ""), ty, ""), "");
}

/* Division and remainder without traps: x/0 = -1, x%0 = x, INT_MIN/-1 =
 * INT_MIN, INT_MIN%-1 = 0 (the ceil/floor forms round INT_MIN/-1 the same). */
static bool lower_div(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    if (!scalar_operands(op) || !a || !b)
        return false;
    enum div_kind k = (enum div_kind)rule->arg;
    bool is_signed = k == DIV_S || k == REM_S || k == CEILDIV_S || k == FLOORDIV_S;
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef is_zero = LLVMBuildICmp(g->b, LLVMIntEQ, b, LLVMConstInt(ty, 0, false), "");
    LLVMValueRef d = safe_divisor(g, a, b, is_zero, is_signed);
    if (k == REM_S || k == REM_U) {
        LLVMValueRef r = is_signed ? LLVMBuildSRem(g->b, a, d, "") : LLVMBuildURem(g->b, a, d, "");
        return set_result(g, op, 0, LLVMBuildSelect(g->b, is_zero, a, r, ""));
    }
    LLVMValueRef q = is_signed ? LLVMBuildSDiv(g->b, a, d, "") : LLVMBuildUDiv(g->b, a, d, "");
    if (k != DIV_S && k != DIV_U) {
        LLVMValueRef r = is_signed ? LLVMBuildSRem(g->b, a, d, "") : LLVMBuildURem(g->b, a, d, "");
        q = round_quotient(g, k, a, b, q, r);
    }
    return set_result(g, op, 0, LLVMBuildSelect(g->b, is_zero, LLVMConstAllOnes(ty), q, ""));
}

/* min/max through LLVM's intrinsics (llvm.smax ...), named by the rule. */
static const char *const minmax_intrinsics[] = {"llvm.smax", "llvm.umax", "llvm.smin", "llvm.umin",
                                                "llvm.maximum", "llvm.minimum", "llvm.maxnum",
                                                "llvm.minnum"};

static bool lower_minmax(cg *g, ptoc_op *op, const cg_rule *rule)
{
    const ptoc_type *t = op->results[0].type;
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    if (!scalar_operands(op) || !a || !b)
        return false;
    LLVMValueRef args[2] = {widen(g, a, t), widen(g, b, t)};
    LLVMValueRef v = cg_call_intrinsic(g, minmax_intrinsics[rule->arg], LLVMTypeOf(args[0]), args, 2);
    return set_result(g, op, 0, is_half_like(t) ? narrow(g, v, t) : v);
}

/* ---------------------------------------------------------------- arith: floats */

static bool lower_float_binop(cg *g, ptoc_op *op, const cg_rule *rule)
{
    const ptoc_type *t = op->results[0].type;
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    if (!scalar_operands(op) || !a || !b)
        return false;
    LLVMValueRef v = LLVMBuildBinOp(g->b, (LLVMOpcode)rule->arg, widen(g, a, t), widen(g, b, t), "");
    return set_result(g, op, 0, is_half_like(t) ? narrow(g, v, t) : v);
}

static bool lower_negf(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef a = operand(g, op, 0);
    /* a sign flip is exact in every format, half and bfloat included */
    return scalar_operands(op) && a && set_result(g, op, 0, LLVMBuildFNeg(g->b, a, ""));
}

/* ---------------------------------------------------------------- arith: compare, select, constant */

static bool predicate_of(ptoc_op *op, uint32_t n, uint32_t *out)
{
    ptoc_attr *a = ptoc_op_attr(op, "predicate");
    if (!a || a->kind != PTOC_ATTR_INTEGER || a->u.integer.value < 0 || a->u.integer.value >= (int64_t)n) {
        ptoc_op_emit_error(op, "internal error: bad comparison predicate");
        return false;
    }
    *out = (uint32_t)a->u.integer.value;
    return true;
}

static bool lower_cmpi(cg *g, ptoc_op *op, const cg_rule *rule)
{
    static const LLVMIntPredicate preds[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT,
                                             LLVMIntSGE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    uint32_t p;
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    return scalar_operands(op) && predicate_of(op, 10, &p) && a && b &&
           set_result(g, op, 0, LLVMBuildICmp(g->b, preds[p], a, b, ""));
}

static bool lower_cmpf(cg *g, ptoc_op *op, const cg_rule *rule)
{
    /* MLIR's numbering, which differs from LLVM's (uno comes last in MLIR) */
    static const LLVMRealPredicate preds[] = {
        LLVMRealPredicateFalse, LLVMRealOEQ, LLVMRealOGT, LLVMRealOGE, LLVMRealOLT, LLVMRealOLE,
        LLVMRealONE, LLVMRealORD, LLVMRealUEQ, LLVMRealUGT, LLVMRealUGE, LLVMRealULT,
        LLVMRealULE, LLVMRealUNE, LLVMRealUNO, LLVMRealPredicateTrue};
    const ptoc_type *t = ptoc_op_operand(op, 0)->type;
    uint32_t p;
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    return scalar_operands(op) && predicate_of(op, 16, &p) && a && b &&
           set_result(g, op, 0, LLVMBuildFCmp(g->b, preds[p], widen(g, a, t), widen(g, b, t), ""));
}

static bool lower_select(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef c = operand(g, op, 0), a = operand(g, op, 1), b = operand(g, op, 2);
    return scalar_operands(op) && c && a && b && set_result(g, op, 0, LLVMBuildSelect(g->b, c, a, b, ""));
}

/* `dense<[a, b, ...]> : vector<NxT>`, or the splat `dense<a> : vector<NxT>`,
 * as a constant of the vector type `ty` (integer or float lanes); NULL when
 * the text is not of that form. */
static LLVMValueRef vector_constant(const ptoc_attr *v, LLVMTypeRef ty)
{
    const char *p = v->u.opaque.body->str;
    unsigned n = LLVMGetVectorSize(ty);
    LLVMTypeRef lane = LLVMGetElementType(ty);
    bool is_int = LLVMGetTypeKind(lane) == LLVMIntegerTypeKind;
    LLVMValueRef lanes[64];
    if (strncmp(p, "dense<", 6) != 0 || n > sizeof lanes / sizeof lanes[0])
        return NULL;
    p += 6;
    bool splat = *p != '[';
    p += !splat;
    for (unsigned i = 0; i < n; i++) {
        char *end;
        if (i > 0 && splat) {
            lanes[i] = lanes[0];
            continue;
        }
        while (*p == ' ' || (i > 0 && *p == ','))
            p++;
        if (is_int) {
            bool t = strncmp(p, "true", 4) == 0, f = strncmp(p, "false", 5) == 0;
            long long k = t ? 1 : f ? 0 : strtoll(p, &end, 0);
            end = t ? (char *)p + 4 : f ? (char *)p + 5 : end;
            lanes[i] = LLVMConstInt(lane, (unsigned long long)k, true);
        } else {
            lanes[i] = LLVMConstReal(lane, strtod(p, &end));
        }
        if (end == p)
            return NULL;
        p = end;
    }
    while (*p == ' ')
        p++;
    return (splat ? *p == '>' : *p == ']') ? LLVMConstVector(lanes, n) : NULL;
}

static bool lower_constant(cg *g, ptoc_op *op, const cg_rule *rule)
{
    const ptoc_type *t = op->results[0].type;
    ptoc_attr *v = ptoc_op_attr(op, "value");
    LLVMTypeRef ty = cg_type(g, t, op->loc);
    if (!ty)
        return false;
    if (v && v->kind == PTOC_ATTR_INTEGER && ptoc_type_is_int_or_index(t))
        return set_result(g, op, 0, LLVMConstInt(ty, (unsigned long long)v->u.integer.value, true));
    if (v && v->kind == PTOC_ATTR_BOOL && ptoc_type_is_int(t))
        return set_result(g, op, 0, LLVMConstInt(ty, v->u.boolean ? 1 : 0, false));
    if (v && v->kind == PTOC_ATTR_FLOAT && ptoc_type_is_float(t))
        return set_result(g, op, 0, LLVMConstReal(ty, v->u.fp.value));
    LLVMValueRef vec = v && v->kind == PTOC_ATTR_OPAQUE && t->kind == PTOC_TYPE_VECTOR ? vector_constant(v, ty) : NULL;
    if (vec)
        return set_result(g, op, 0, vec);
    ptoc_op_emit_error(op, "with this value is not supported by the cpu target yet");
    return false;
}

/* ---------------------------------------------------------------- arith: casts */

enum cast_kind { CAST_SEXT, CAST_ZEXT, CAST_TRUNC, CAST_INDEX_S, CAST_INDEX_U };

/* Integer width changes: extsi, extui, trunci, index_cast(ui). */
static bool lower_int_cast(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef a = operand(g, op, 0);
    LLVMTypeRef to = cg_type(g, op->results[0].type, op->loc);
    if (!scalar_operands(op) || !a || !to)
        return false;
    unsigned fw = LLVMGetIntTypeWidth(LLVMTypeOf(a)), tw = LLVMGetIntTypeWidth(to);
    bool zext = rule->arg == CAST_ZEXT || rule->arg == CAST_INDEX_U;
    LLVMValueRef v = fw == tw ? a
                     : fw > tw ? LLVMBuildTrunc(g->b, a, to, "")
                     : zext    ? LLVMBuildZExt(g->b, a, to, "")
                               : LLVMBuildSExt(g->b, a, to, "");
    return set_result(g, op, 0, v);
}

/* sitofp/uitofp (arg: unsigned). To f16/bf16 through double, which holds every
 * integer up to 2^53 exactly, so the value is rounded once. */
static bool lower_int_to_float(cg *g, ptoc_op *op, const cg_rule *rule)
{
    const ptoc_type *t = op->results[0].type;
    LLVMValueRef a = operand(g, op, 0);
    LLVMTypeRef to = cg_type(g, t, op->loc);
    if (!scalar_operands(op) || !a || !to)
        return false;
    LLVMTypeRef via = is_half_like(t) ? g->f64 : to;
    LLVMValueRef v = rule->arg ? LLVMBuildUIToFP(g->b, a, via, "") : LLVMBuildSIToFP(g->b, a, via, "");
    return set_result(g, op, 0, is_half_like(t) ? narrow(g, v, t) : v);
}

/* fptosi/fptoui (arg: unsigned), saturating: out-of-range values clamp and NaN
 * gives 0 (MLIR leaves them poison). */
static bool lower_float_to_int(cg *g, ptoc_op *op, const cg_rule *rule)
{
    const ptoc_type *from = ptoc_op_operand(op, 0)->type;
    LLVMValueRef a = operand(g, op, 0);
    LLVMTypeRef to = cg_type(g, op->results[0].type, op->loc);
    if (!scalar_operands(op) || !a || !to)
        return false;
    return set_result(g, op, 0, cg_float_to_int_sat(g, widen(g, a, from), to, rule->arg));
}

/* extf/truncf: through the compute types, rounding once into f16/bf16. */
static bool lower_float_cast(cg *g, ptoc_op *op, const cg_rule *rule)
{
    const ptoc_type *from = ptoc_op_operand(op, 0)->type, *t = op->results[0].type;
    LLVMValueRef a = operand(g, op, 0);
    LLVMTypeRef to = cg_type(g, t, op->loc);
    if (!scalar_operands(op) || !a || !to)
        return false;
    if (is_half_like(t) && is_half_like(from))
        return set_result(g, op, 0, narrow(g, widen(g, a, from), t));
    if (is_half_like(t))
        return set_result(g, op, 0, t->u.fp.kind == PTOC_F16 ? LLVMBuildFPTrunc(g->b, a, to, "") : narrow(g, a, t));
    a = widen(g, a, from);
    LLVMValueRef v = LLVMTypeOf(a) == to         ? a
                     : rule->arg /* truncf */    ? LLVMBuildFPTrunc(g->b, a, to, "")
                                                 : LLVMBuildFPExt(g->b, a, to, "");
    return set_result(g, op, 0, v);
}

static bool lower_bitcast(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef a = operand(g, op, 0);
    LLVMTypeRef to = cg_type(g, op->results[0].type, op->loc);
    return scalar_operands(op) && a && to && set_result(g, op, 0, LLVMBuildBitCast(g->b, a, to, ""));
}

/* ---------------------------------------------------------------- arith: extended */

static bool lower_addui_extended(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    if (!scalar_operands(op) || !a || !b)
        return false;
    LLVMValueRef sum = LLVMBuildAdd(g->b, a, b, "");
    set_result(g, op, 0, sum);
    return set_result(g, op, 1, LLVMBuildICmp(g->b, LLVMIntULT, sum, a, ""));
}

/* mului/mulsi_extended (arg: signed): the low and high halves of the double-width product. */
static bool lower_mul_extended(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    if (!scalar_operands(op) || !a || !b)
        return false;
    LLVMTypeRef ty = LLVMTypeOf(a);
    unsigned w = LLVMGetIntTypeWidth(ty);
    LLVMTypeRef wide = LLVMIntTypeInContext(g->llctx, 2 * w);
    LLVMValueRef wa = rule->arg ? LLVMBuildSExt(g->b, a, wide, "") : LLVMBuildZExt(g->b, a, wide, "");
    LLVMValueRef wb = rule->arg ? LLVMBuildSExt(g->b, b, wide, "") : LLVMBuildZExt(g->b, b, wide, "");
    LLVMValueRef p = LLVMBuildMul(g->b, wa, wb, "");
    set_result(g, op, 0, LLVMBuildTrunc(g->b, p, ty, ""));
    LLVMValueRef hi = LLVMBuildLShr(g->b, p, LLVMConstInt(wide, w, false), "");
    return set_result(g, op, 1, LLVMBuildTrunc(g->b, hi, ty, ""));
}

/* ---------------------------------------------------------------- func */

/* The LLVM values of operands [from, from+n) of `op`; NULL after an error. */
static LLVMValueRef *operand_values(cg *g, ptoc_op *op, uint32_t from, uint32_t n)
{
    LLVMValueRef *vals = calloc(n + 1, sizeof *vals);
    if (!vals)
        ptoc_fatal("out of memory");
    for (uint32_t i = 0; i < n; i++) {
        vals[i] = cg_get(g, ptoc_op_operand(op, from + i));
        if (!vals[i]) {
            free(vals);
            return NULL;
        }
    }
    return vals;
}

static bool lower_return(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef *vals = operand_values(g, op, 0, op->noperands);
    if (!vals)
        return false;
    for (uint32_t i = 0; i < op->noperands; i++)
        vals[i] = cg_to_abi(g, vals[i], ptoc_op_operand(op, i)->type);
    if (op->noperands == 0)
        LLVMBuildRetVoid(g->b);
    else if (op->noperands == 1)
        LLVMBuildRet(g->b, vals[0]);
    else
        LLVMBuildAggregateRet(g->b, vals, op->noperands);
    free(vals);
    return true;
}

static bool lower_call(cg *g, ptoc_op *op, const cg_rule *rule)
{
    ptoc_attr *callee = ptoc_op_attr(op, "callee");
    LLVMValueRef fn = callee && callee->kind == PTOC_ATTR_SYMREF
                          ? LLVMGetNamedFunction(g->mod, callee->u.symref.root->str) : NULL;
    if (!fn) {
        ptoc_op_emit_error(op, "internal error: callee was not declared");
        return false;
    }
    LLVMValueRef *args = operand_values(g, op, 0, op->noperands);
    if (!args)
        return false;
    for (uint32_t i = 0; i < op->noperands; i++)
        args[i] = cg_to_abi(g, args[i], ptoc_op_operand(op, i)->type);
    LLVMValueRef call = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fn), fn, args, op->noperands, "");
    free(args);
    for (uint32_t i = 0; i < op->nresults; i++) {
        LLVMValueRef r = op->nresults == 1 ? call : LLVMBuildExtractValue(g->b, call, i, "");
        cg_set(g, ptoc_op_result(op, i), cg_from_abi(g, r, op->results[i].type));
    }
    return true;
}

/* ---------------------------------------------------------------- scf */

/* Lowers the single block of region `r` with its arguments bound to `args`;
 * returns its terminator (whose operands the caller reads), NULL on error. */
static ptoc_op *lower_region(cg *g, ptoc_op *parent, ptoc_region *r, LLVMValueRef const *args, uint32_t nargs)
{
    ptoc_block *b = r->first;
    if (!b || b->next) {
        ptoc_op_emit_error(parent, "with %s blocks in a region is not supported by the cpu target yet",
                           b ? "several" : "no");
        return NULL;
    }
    for (uint32_t i = 0; i < b->nargs && i < nargs; i++)
        cg_set(g, b->args[i], args[i]);
    ptoc_op *term = ptoc_block_terminator(b);
    if (!cg_lower_block(g, b))
        return NULL;
    if (!term)
        ptoc_op_emit_error(parent, "internal error: region without a terminator");
    return term;
}

/* Moves `bb` after the function's last block, so blocks print in source order
 * (a construct's end block is made before its body's blocks). */
static void move_to_end(LLVMBasicBlockRef bb)
{
    LLVMBasicBlockRef last = LLVMGetLastBasicBlock(LLVMGetBasicBlockParent(bb));
    if (last != bb)
        LLVMMoveBasicBlockAfter(bb, last);
}

/* Phis in the current block for operands [from, from+n) of `op`, each with
 * that operand's value coming from `pred`; the back edges are added later. */
static LLVMValueRef *build_phis(cg *g, ptoc_op *op, uint32_t from, uint32_t n, LLVMBasicBlockRef pred)
{
    LLVMValueRef *phis = calloc(n + 1, sizeof *phis);
    if (!phis)
        ptoc_fatal("out of memory");
    for (uint32_t i = 0; i < n; i++) {
        LLVMValueRef init = cg_get(g, ptoc_op_operand(op, from + i));
        if (!init) {
            free(phis);
            return NULL;
        }
        phis[i] = LLVMBuildPhi(g->b, LLVMTypeOf(init), "");
        LLVMAddIncoming(phis[i], &init, &pred, 1);
    }
    return phis;
}

/* Adds the operands [from, from+n) of terminator `term` as incoming values
 * from the current block. */
static bool add_back_edges(cg *g, LLVMValueRef *phis, ptoc_op *term, uint32_t from, uint32_t n)
{
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
    for (uint32_t i = 0; i < n; i++) {
        LLVMValueRef v = cg_get(g, ptoc_op_operand(term, from + i));
        if (!v)
            return false;
        LLVMAddIncoming(phis[i], &v, &latch, 1);
    }
    return true;
}

/* scf.for %iv = %lb to %ub step %s iter_args(...): header (phis, signed
 * compare), body, latch (iv += step), exit. Operands: lb, ub, step, inits. */
static bool lower_for(cg *g, ptoc_op *op, const cg_rule *rule)
{
    uint32_t niter = op->noperands - 3;
    LLVMValueRef lb = operand(g, op, 0), ub = operand(g, op, 1), step = operand(g, op, 2);
    if (!lb || !ub || !step)
        return false;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef header = cg_block(g, "for.header"), body = cg_block(g, "for.body"),
                      exit = cg_block(g, "for.exit");
    LLVMBuildBr(g->b, header);
    LLVMPositionBuilderAtEnd(g->b, header);
    LLVMValueRef iv = LLVMBuildPhi(g->b, LLVMTypeOf(lb), "iv");
    LLVMAddIncoming(iv, &lb, &pre, 1);
    LLVMValueRef *iters = build_phis(g, op, 3, niter, pre);
    LLVMValueRef *args = calloc(niter + 2, sizeof *args);
    if (!iters || !args)
        ptoc_fatal("out of memory");
    args[0] = iv;
    for (uint32_t i = 0; i < niter; i++)
        args[i + 1] = iters[i];
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, iv, ub, ""), body, exit);
    LLVMPositionBuilderAtEnd(g->b, body);
    ptoc_op *yield = lower_region(g, op, &op->regions[0], args, niter + 1);
    bool ok = yield && add_back_edges(g, iters, yield, 0, niter);
    if (ok) {
        LLVMValueRef next = LLVMBuildAdd(g->b, iv, step, "iv.next");
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
        LLVMAddIncoming(iv, &next, &latch, 1);
        LLVMBuildBr(g->b, header);
        move_to_end(exit);
        LLVMPositionBuilderAtEnd(g->b, exit);
        for (uint32_t i = 0; i < niter; i++)
            cg_set(g, ptoc_op_result(op, i), iters[i]);
    }
    free(args);
    free(iters);
    return ok;
}

/* One arm of an scf.if: lowers it and records its yields and end block. */
static bool lower_if_arm(cg *g, ptoc_op *op, ptoc_region *r, LLVMBasicBlockRef bb, LLVMBasicBlockRef merge,
                         LLVMValueRef *phis)
{
    LLVMPositionBuilderAtEnd(g->b, bb);
    ptoc_op *yield = lower_region(g, op, r, NULL, 0);
    if (!yield || !add_back_edges(g, phis, yield, 0, op->nresults))
        return false;
    LLVMBuildBr(g->b, merge);
    return true;
}

static bool lower_if(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef cond = operand(g, op, 0);
    if (!cond)
        return false;
    bool has_else = op->nregions > 1 && op->regions[1].first;
    LLVMBasicBlockRef then_bb = cg_block(g, "if.then");
    LLVMBasicBlockRef else_bb = has_else ? cg_block(g, "if.else") : NULL;
    LLVMBasicBlockRef merge = cg_block(g, "if.end");
    LLVMBuildCondBr(g->b, cond, then_bb, has_else ? else_bb : merge);
    /* the phis go first in the merge block; their incoming values come later */
    LLVMPositionBuilderAtEnd(g->b, merge);
    LLVMValueRef *phis = calloc(op->nresults + 1, sizeof *phis);
    if (!phis)
        ptoc_fatal("out of memory");
    bool ok = true;
    for (uint32_t i = 0; ok && i < op->nresults; i++) {
        LLVMTypeRef ty = cg_type(g, op->results[i].type, op->loc);
        ok = ty != NULL;
        if (ok)
            phis[i] = LLVMBuildPhi(g->b, ty, "");
    }
    ok = ok && lower_if_arm(g, op, &op->regions[0], then_bb, merge, phis);
    ok = ok && (!has_else || lower_if_arm(g, op, &op->regions[1], else_bb, merge, phis));
    move_to_end(merge);
    LLVMPositionBuilderAtEnd(g->b, merge);
    for (uint32_t i = 0; ok && i < op->nresults; i++)
        cg_set(g, ptoc_op_result(op, i), phis[i]);
    free(phis);
    return ok;
}

/* scf.while: the before region is the loop header (phis for its arguments,
 * then scf.condition's branch); the after region is the body, whose yield
 * feeds the phis. The forwarded values are defined in the header, so they are
 * used directly by the body and as the results. */
static bool lower_while(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef header = cg_block(g, "while.cond"), body = cg_block(g, "while.body"),
                      exit = cg_block(g, "while.end");
    LLVMBuildBr(g->b, header);
    LLVMPositionBuilderAtEnd(g->b, header);
    LLVMValueRef *phis = build_phis(g, op, 0, op->noperands, pre);
    if (!phis)
        return false;
    ptoc_op *cond = lower_region(g, op, &op->regions[0], phis, op->noperands);
    LLVMValueRef c = cond ? cg_get(g, ptoc_op_operand(cond, 0)) : NULL;
    LLVMValueRef *fwd = c ? operand_values(g, cond, 1, cond->noperands - 1) : NULL;
    bool ok = fwd != NULL;
    if (ok) {
        LLVMBuildCondBr(g->b, c, body, exit);
        LLVMPositionBuilderAtEnd(g->b, body);
        ptoc_op *yield = lower_region(g, op, &op->regions[1], fwd, cond->noperands - 1);
        ok = yield && add_back_edges(g, phis, yield, 0, op->noperands);
    }
    if (ok) {
        LLVMBuildBr(g->b, header);
        move_to_end(exit);
        LLVMPositionBuilderAtEnd(g->b, exit);
        for (uint32_t i = 0; i < op->nresults; i++)
            cg_set(g, ptoc_op_result(op, i), fwd[i]);
    }
    free(fwd);
    free(phis);
    return ok;
}

static bool lower_execute_region(cg *g, ptoc_op *op, const cg_rule *rule)
{
    ptoc_op *yield = lower_region(g, op, &op->regions[0], NULL, 0);
    if (!yield)
        return false;
    for (uint32_t i = 0; i < op->nresults; i++) {
        LLVMValueRef v = cg_get(g, ptoc_op_operand(yield, i));
        if (!v)
            return false;
        cg_set(g, ptoc_op_result(op, i), v);
    }
    return true;
}

/* ---------------------------------------------------------------- the table */

const cg_rule cg_std_rules[] = {
    {STD("arith.constant"), lower_constant, 0},
    {STD("arith.addi"), lower_int_binop, LLVMAdd},
    {STD("arith.subi"), lower_int_binop, LLVMSub},
    {STD("arith.muli"), lower_int_binop, LLVMMul},
    {STD("arith.andi"), lower_int_binop, LLVMAnd},
    {STD("arith.ori"), lower_int_binop, LLVMOr},
    {STD("arith.xori"), lower_int_binop, LLVMXor},
    {STD("arith.shli"), lower_shift, LLVMShl},
    {STD("arith.shrsi"), lower_shift, LLVMAShr},
    {STD("arith.shrui"), lower_shift, LLVMLShr},
    {STD("arith.divsi"), lower_div, DIV_S},
    {STD("arith.divui"), lower_div, DIV_U},
    {STD("arith.remsi"), lower_div, REM_S},
    {STD("arith.remui"), lower_div, REM_U},
    {STD("arith.ceildivsi"), lower_div, CEILDIV_S},
    {STD("arith.ceildivui"), lower_div, CEILDIV_U},
    {STD("arith.floordivsi"), lower_div, FLOORDIV_S},
    {STD("arith.maxsi"), lower_minmax, 0},
    {STD("arith.maxui"), lower_minmax, 1},
    {STD("arith.minsi"), lower_minmax, 2},
    {STD("arith.minui"), lower_minmax, 3},
    {STD("arith.maximumf"), lower_minmax, 4},
    {STD("arith.minimumf"), lower_minmax, 5},
    {STD("arith.maxnumf"), lower_minmax, 6},
    {STD("arith.minnumf"), lower_minmax, 7},
    {STD("arith.addf"), lower_float_binop, LLVMFAdd},
    {STD("arith.subf"), lower_float_binop, LLVMFSub},
    {STD("arith.mulf"), lower_float_binop, LLVMFMul},
    {STD("arith.divf"), lower_float_binop, LLVMFDiv},
    {STD("arith.remf"), lower_float_binop, LLVMFRem},
    {STD("arith.negf"), lower_negf, 0},
    {STD("arith.cmpi"), lower_cmpi, 0},
    {STD("arith.cmpf"), lower_cmpf, 0},
    {STD("arith.select"), lower_select, 0},
    {STD("arith.index_cast"), lower_int_cast, CAST_INDEX_S},
    {STD("arith.index_castui"), lower_int_cast, CAST_INDEX_U},
    {STD("arith.extsi"), lower_int_cast, CAST_SEXT},
    {STD("arith.extui"), lower_int_cast, CAST_ZEXT},
    {STD("arith.trunci"), lower_int_cast, CAST_TRUNC},
    {STD("arith.sitofp"), lower_int_to_float, 0},
    {STD("arith.uitofp"), lower_int_to_float, 1},
    {STD("arith.fptosi"), lower_float_to_int, 0},
    {STD("arith.fptoui"), lower_float_to_int, 1},
    {STD("arith.extf"), lower_float_cast, 0},
    {STD("arith.truncf"), lower_float_cast, 1},
    {STD("arith.bitcast"), lower_bitcast, 0},
    {STD("arith.addui_extended"), lower_addui_extended, 0},
    {STD("arith.mului_extended"), lower_mul_extended, 0},
    {STD("arith.mulsi_extended"), lower_mul_extended, 1},
    {STD("func.return"), lower_return, 0},
    {STD("func.call"), lower_call, 0},
    {STD("scf.for"), lower_for, 0},
    {STD("scf.if"), lower_if, 0},
    {STD("scf.while"), lower_while, 0},
    {STD("scf.execute_region"), lower_execute_region, 0},
};
const size_t cg_std_rule_count = sizeof cg_std_rules / sizeof cg_std_rules[0];
