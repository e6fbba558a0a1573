/* lower_pto_vops.c: the executable semantics of the vector micro-ops
 * (dialect/pto_vops.def), as LLVM vector IR: the one place that says what
 * each computes.
 *
 * A vector register is <N x T>; a predicate is <256 x i1>, one bit per byte of
 * a register, so a lane of b bytes (b = the element width, 4 for a 64-bit
 * pair) is its bit i*b and an op that makes a predicate sets each active
 * lane's b bits. A UB pointer is a plain pointer; `%p[%off]` is p + off
 * elements. Predicated arithmetic computes every lane, then keeps the active
 * ones: ZEROING gives 0 elsewhere, MERGING the first source's lane. Integer
 * division and max/min compute as the tile ops do (docs/targets.md). pset's
 * PAT_M3 and PAT_M4, and arithmetic on f64 lanes, are not lowered yet: each
 * is an error at the op. bf16 lanes compute in float, rounded on the way
 * back.
 *
 * Also here: the bridges from tiles (tile_ptr: the tile's address in its
 * space; tile_valid: its valid shape) and pto.vecscope, whose body is lowered
 * in place: a vector function is straight-line code of its caller.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/ptoc.h"
#include "ptoc/runtime.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- lanes and predicates */

static const ptoc_pto_vreg *vreg_of(const ptoc_type *t) { return ptoc_pto_vreg_type(t); }

/* Bytes per lane of a vector type's predicate: its element's, 4 for a 64-bit pair. */
static unsigned lane_bytes(const ptoc_type *vt) { return ptoc_pto_vreg_lane_bits(vreg_of(vt)) / 8; }

static unsigned lanes_of_type(const ptoc_type *vt) { return (unsigned)vreg_of(vt)->lanes; }

/* The constant <n x i32> {f(0), ..., f(n - 1)}. */
static LLVMValueRef shuffle_of(cg *g, unsigned n, unsigned (*f)(unsigned i, unsigned arg), unsigned arg)
{
    LLVMValueRef *e = malloc(sizeof *e * n);
    if (!e)
        ptoc_fatal("out of memory");
    for (unsigned i = 0; i < n; i++)
        e[i] = LLVMConstInt(g->i32, f(i, arg), false);
    LLVMValueRef v = LLVMConstVector(e, n);
    free(e);
    return v;
}

/* i * mul / div + add, the three packed in arg (a byte each, mul lowest). */
static unsigned affine(unsigned i, unsigned arg) { return i * (arg & 0xff) / ((arg >> 8) & 0xff) + (arg >> 16); }

/* The constant <n x i32> {i * mul / div + add} (each at most 255). */
static LLVMValueRef index_vector(cg *g, unsigned n, unsigned mul, unsigned div, unsigned add)
{
    return shuffle_of(g, n, affine, mul | div << 8 | add << 16);
}

/* The lanes of v at the indexes idx (a constant vector). */
static LLVMValueRef gathered(cg *g, LLVMValueRef v, LLVMValueRef idx)
{
    return LLVMBuildShuffleVector(g->b, v, LLVMGetPoison(LLVMTypeOf(v)), idx, "");
}

/* Lane i of a:b interleaved, a0 b0 a1 b1 ..., b's lanes from `lanes` on
 * (arg's low 16 bits), from lane `half` * lanes / 2 of each (arg >> 16). */
static unsigned interleaved(unsigned i, unsigned arg)
{
    unsigned lanes = arg & 0xffff, half = arg >> 16;
    return half * lanes / 2 + i / 2 + (i % 2) * lanes;
}

/* The active lanes of predicate `p` for `lanes` lanes of `bytes` bytes: <lanes x i1>. */
static LLVMValueRef lane_mask(cg *g, LLVMValueRef p, unsigned lanes, unsigned bytes)
{
    return LLVMBuildShuffleVector(g->b, p, LLVMGetPoison(LLVMTypeOf(p)), index_vector(g, lanes, bytes, 1, 0), "lanes");
}

/* The predicate whose lanes of `bytes` bytes are `lanes_v` (<lanes x i1>). */
static LLVMValueRef predicate_of(cg *g, LLVMValueRef lanes_v, unsigned bytes)
{
    return LLVMBuildShuffleVector(g->b, lanes_v, LLVMGetPoison(LLVMTypeOf(lanes_v)),
                                  index_vector(g, CG_MASK_BITS, 1, bytes, 0), "pred");
}

/* <256 x i1> of bits j with j / bytes < n (n an i32 or i64 count, unsigned).
 * The lanes are compared as i16 and then spread to their bytes, so that a
 * lane_mask of the same width folds back to the compare: a 256-lane compare
 * of i64s is what LLVM's x86 backend would otherwise spend its time on. */
static LLVMValueRef first_lanes(cg *g, LLVMValueRef n, unsigned bytes)
{
    unsigned lanes = CG_MASK_BITS / bytes;
    LLVMTypeRef nt = LLVMTypeOf(n);
    LLVMValueRef cap = LLVMConstInt(nt, lanes, false);
    LLVMValueRef clamped = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, n, cap, ""), n, cap, "");
    LLVMValueRef n16 = LLVMBuildTrunc(g->b, clamped, g->i16, "");
    LLVMTypeRef i32s = LLVMVectorType(g->i32, lanes);
    LLVMValueRef iota = LLVMBuildZExtOrBitCast(g->b, index_vector(g, lanes, 1, 1, 0), i32s, "");
    iota = LLVMBuildTrunc(g->b, iota, LLVMVectorType(g->i16, lanes), "");
    LLVMValueRef c = LLVMBuildICmp(g->b, LLVMIntULT, iota, cg_splat(g, n16, lanes), "first");
    return predicate_of(g, c, bytes);
}

static LLVMValueRef all_bits(cg *g, bool on)
{
    LLVMTypeRef vt = LLVMVectorType(g->i1, CG_MASK_BITS);
    return on ? LLVMConstAllOnes(vt) : LLVMConstNull(vt);
}

/* The op's vector type: its first vector result's, else its first vector operand's. */
static const ptoc_type *op_vreg(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++)
        if (vreg_of(op->results[i].type))
            return op->results[i].type;
    for (uint32_t i = 0; i < op->noperands; i++)
        if (vreg_of(ptoc_op_operand(op, i)->type))
            return ptoc_op_operand(op, i)->type;
    return NULL;
}

static const char *string_attr(const ptoc_op *op, const char *name, const char *fallback)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : fallback;
}

/* The kept lanes of a predicated result: r where active, else 0 (ZEROING) or `merge`. */
static LLVMValueRef predicated(cg *g, const ptoc_op *op, LLVMValueRef r, LLVMValueRef pred, LLVMValueRef merge)
{
    const ptoc_type *vt = op_vreg(op);
    LLVMValueRef active = lane_mask(g, pred, lanes_of_type(vt), lane_bytes(vt));
    bool merging = !strcmp(string_attr(op, "mode", "ZEROING"), "MERGING");
    return LLVMBuildSelect(g->b, active, r, merging ? merge : LLVMConstNull(LLVMTypeOf(r)), "");
}

static bool unsupported(const ptoc_op *op, const char *what)
{
    ptoc_op_emit_error(op, "%s is not lowered yet", what);
    return false;
}

static bool is_bf16(const ptoc_type *e) { return e->kind == PTOC_TYPE_FLOAT && e->u.fp.kind == PTOC_BF16; }

/* The element type computes here: integers, f16, bf16 and f32. */
static bool computable(const ptoc_op *op)
{
    const ptoc_type *e = vreg_of(op_vreg(op))->elem;
    if (ptoc_type_is_int(e) || is_bf16(e) ||
        (e->kind == PTOC_TYPE_FLOAT && (e->u.fp.kind == PTOC_F16 || e->u.fp.kind == PTOC_F32)))
        return true;
    return unsupported(op, "arithmetic on this element type");
}

/* bf16 lanes compute in float and round to nearest even on the way back, as
 * the tile ops compute (LLVM legalises f16 lanes the same way by itself). */
static LLVMValueRef widen(cg *g, const ptoc_op *op, LLVMValueRef v)
{
    return is_bf16(vreg_of(op_vreg(op))->elem) ? cg_bf16_to_f32(g, v) : v;
}

static LLVMValueRef narrow(cg *g, const ptoc_op *op, LLVMValueRef v)
{
    return is_bf16(vreg_of(op_vreg(op))->elem) ? cg_f32_to_bf16(g, v) : v;
}

/* `lanes` copies of a scalar, as a register of type vt (a bf16 one's bits). */
static LLVMValueRef splat_as(cg *g, LLVMValueRef s, const ptoc_type *vt)
{
    LLVMValueRef r = cg_splat(g, s, lanes_of_type(vt));
    LLVMTypeRef want = cg_type(g, vt, ptoc_loc_unknown());
    return LLVMTypeOf(r) == want ? r : LLVMBuildBitCast(g->b, r, want, "");
}

static const ptoc_type *vreg_elem(const ptoc_op *op) { return vreg_of(op_vreg(op))->elem; }
static bool is_unsigned_vreg(const ptoc_op *op) { return cg_is_unsigned(vreg_elem(op)); }

static LLVMValueRef operand(cg *g, const ptoc_op *op, uint32_t i) { return cg_get(g, ptoc_op_operand(op, i)); }

/* ---------------------------------------------------------------- arithmetic
 *
 * On lanes of element type `elem` (bf16 ones already widened to float):
 * codegen_internal.h's cg_vop_binary, cg_vop_unary and cg_vop_compare, which
 * the A2/A3 repeat ops (lower_a2a3.c) compute by too. */

/* max: a > b ? a : b, min: a < b ? a : b, the pages' formulas; on floats the
 * compare is ordered, so a NaN in b is kept and a NaN in a is not (as the
 * tile ops compute, docs/targets.md). */
static LLVMValueRef min_max(cg *g, const ptoc_type *elem, bool max, LLVMValueRef a, LLVMValueRef b)
{
    if (ptoc_type_is_float(elem))
        return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, max ? LLVMRealOGT : LLVMRealOLT, a, b, ""), a, b, "");
    LLVMValueRef args[2] = {a, b};
    const char *name = cg_is_unsigned(elem) ? (max ? "llvm.umax" : "llvm.umin") : (max ? "llvm.smax" : "llvm.smin");
    return cg_call_intrinsic(g, name, LLVMTypeOf(a), args, 2);
}

/* a << b, a >> b per lane; an amount at least the width gives 0 (or the sign). */
static LLVMValueRef shift(cg *g, const ptoc_type *elem, bool left, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    unsigned bits = LLVMGetIntTypeWidth(LLVMGetElementType(t)), lanes = LLVMGetVectorSize(t);
    LLVMValueRef width = cg_splat(g, LLVMConstInt(LLVMGetElementType(t), bits - 1, false), lanes);
    LLVMValueRef big = LLVMBuildICmp(g->b, LLVMIntUGT, b, width, "");
    LLVMValueRef amt = LLVMBuildSelect(g->b, big, width, b, "");
    if (left) {
        LLVMValueRef r = LLVMBuildShl(g->b, a, amt, "");
        return LLVMBuildSelect(g->b, big, LLVMConstNull(t), r, "");
    }
    if (!cg_is_unsigned(elem))
        return LLVMBuildAShr(g->b, a, amt, "");   /* past the width: the sign, as >> width - 1 */
    LLVMValueRef r = LLVMBuildLShr(g->b, a, amt, "");
    return LLVMBuildSelect(g->b, big, LLVMConstNull(t), r, "");
}

LLVMValueRef cg_vop_binary(cg *g, cg_vbin k, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b)
{
    bool fp = ptoc_type_is_float(elem);
    switch (k) {
    case VB_ADD: return fp ? LLVMBuildFAdd(g->b, a, b, "") : LLVMBuildAdd(g->b, a, b, "");
    case VB_SUB: return fp ? LLVMBuildFSub(g->b, a, b, "") : LLVMBuildSub(g->b, a, b, "");
    case VB_MUL: return fp ? LLVMBuildFMul(g->b, a, b, "") : LLVMBuildMul(g->b, a, b, "");
    case VB_DIV: return fp ? LLVMBuildFDiv(g->b, a, b, "") : cg_int_div(g, a, b, cg_is_unsigned(elem));
    case VB_MAX: return min_max(g, elem, true, a, b);
    case VB_MIN: return min_max(g, elem, false, a, b);
    case VB_AND: return LLVMBuildAnd(g->b, a, b, "");
    case VB_OR: return LLVMBuildOr(g->b, a, b, "");
    case VB_XOR: return LLVMBuildXor(g->b, a, b, "");
    case VB_SHL: return shift(g, elem, true, a, b);
    case VB_SHR: return shift(g, elem, false, a, b);
    case VB_EXPDIF: {
        LLVMValueRef d = LLVMBuildFSub(g->b, a, b, "");
        return cg_exp_log_lanes(g, false, d);
    }
    }
    return NULL;
}

/* v v m -> v, and v s m -> v (the scalar in every lane). */
static bool lower_binary(cg *g, ptoc_op *op, const cg_rule *rule)
{
    if (!computable(op))
        return false;
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    if (!vreg_of(ptoc_op_operand(op, 1)->type))
        b = splat_as(g, b, op_vreg(op));
    LLVMValueRef r = narrow(g, op, cg_vop_binary(g, (cg_vbin)rule->arg, vreg_elem(op), widen(g, op, a), widen(g, op, b)));
    cg_set(g, &op->results[0], predicated(g, op, r, operand(g, op, 2), a));
    return true;
}

LLVMValueRef cg_vop_unary(cg *g, cg_vun k, const ptoc_type *elem, LLVMValueRef a)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    bool fp = ptoc_type_is_float(elem);
    switch (k) {
    case VU_ABS:
        if (fp)
            return cg_call_intrinsic(g, "llvm.fabs", t, &a, 1);
        if (cg_is_unsigned(elem))
            return a;
        return cg_call_intrinsic(g, "llvm.abs", t, (LLVMValueRef[]){a, LLVMConstInt(g->i1, 0, false)}, 2);
    case VU_NEG: return fp ? LLVMBuildFNeg(g->b, a, "") : LLVMBuildNeg(g->b, a, "");
    case VU_NOT: return LLVMBuildNot(g->b, a, "");
    case VU_EXP: return cg_exp_log_lanes(g, false, a);
    case VU_LN: return cg_exp_log_lanes(g, true, a);
    case VU_SQRT: return cg_call_intrinsic(g, "llvm.sqrt", t, &a, 1);
    case VU_RELU: return min_max(g, elem, true, a, LLVMConstNull(t));
    }
    return NULL;
}

static bool lower_unary(cg *g, ptoc_op *op, const cg_rule *rule)
{
    if (!computable(op))
        return false;
    LLVMValueRef a = operand(g, op, 0);
    cg_vun k = (cg_vun)rule->arg;   /* vexp, vln: the cpu target's fixed sequences (cg_exp_log_lanes) */
    LLVMValueRef r = narrow(g, op, cg_vop_unary(g, k, vreg_elem(op), widen(g, op, a)));
    cg_set(g, &op->results[0], predicated(g, op, r, operand(g, op, 1), a));
    return true;
}

/* vmula: acc + a * b (the low bits). */
static bool lower_mula(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef acc = operand(g, op, 0);
    LLVMValueRef r = LLVMBuildAdd(g->b, acc, LLVMBuildMul(g->b, operand(g, op, 1), operand(g, op, 2), ""), "");
    cg_set(g, &op->results[0], predicated(g, op, r, operand(g, op, 3), acc));
    return true;
}

/* vmull: the 64-bit product of 32-bit lanes, low halves then high halves. */
static bool lower_mull(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1), pred = operand(g, op, 2);
    unsigned lanes = lanes_of_type(op_vreg(op));
    LLVMTypeRef wide = LLVMVectorType(g->i64, lanes), narrow = LLVMTypeOf(a);
    bool u = is_unsigned_vreg(op);
    LLVMValueRef wa = u ? LLVMBuildZExt(g->b, a, wide, "") : LLVMBuildSExt(g->b, a, wide, "");
    LLVMValueRef wb = u ? LLVMBuildZExt(g->b, b, wide, "") : LLVMBuildSExt(g->b, b, wide, "");
    LLVMValueRef p = LLVMBuildMul(g->b, wa, wb, "");
    LLVMValueRef lo = LLVMBuildTrunc(g->b, p, narrow, "");
    LLVMValueRef hi = LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, p, cg_splat(g, cg_i64(g, 32), lanes), ""), narrow, "");
    cg_set(g, &op->results[0], predicated(g, op, lo, pred, a));
    cg_set(g, &op->results[1], predicated(g, op, hi, pred, a));
    return true;
}

/* x + y (sub: x - y) on unsigned lanes, wrapping, and its carry (borrow)
 * out: the sum wrapped below x, or y above x. */
static LLVMValueRef add_with_carry(cg *g, bool sub, LLVMValueRef x, LLVMValueRef y, LLVMValueRef *carry)
{
    LLVMValueRef r = sub ? LLVMBuildSub(g->b, x, y, "") : LLVMBuildAdd(g->b, x, y, "");
    *carry = sub ? LLVMBuildICmp(g->b, LLVMIntULT, x, y, "borrow") : LLVMBuildICmp(g->b, LLVMIntULT, r, x, "carry");
    return r;
}

/* vaddc, vsubc, vaddcs, vsubcs. rule->arg: 1 subtracts; a fourth operand
 * means a carry (borrow) in, added as a second step whose carry joins the
 * first's (at most one of them is set). The carries are compares in the
 * lanes' own width: a sum in twice the width is what LLVM's x86 backend
 * would spend its time legalising (64 lanes of i64). */
static bool lower_carry(cg *g, ptoc_op *op, const cg_rule *rule)
{
    bool sub = rule->arg & 1, carry_in = op->noperands == 4;
    const ptoc_type *vt = op_vreg(op);
    unsigned lanes = lanes_of_type(vt), bytes = lane_bytes(vt);
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1), pred = operand(g, op, carry_in ? 3 : 2);
    LLVMTypeRef narrow = LLVMTypeOf(a);
    LLVMValueRef out, r = add_with_carry(g, sub, a, b, &out);
    if (carry_in) {
        LLVMValueRef cin = LLVMBuildZExt(g->b, lane_mask(g, operand(g, op, 2), lanes, bytes), narrow, ""), out2;
        r = add_with_carry(g, sub, r, cin, &out2);
        out = LLVMBuildOr(g->b, out, out2, "");
    }
    LLVMValueRef active = lane_mask(g, pred, lanes, bytes);
    cg_set(g, &op->results[0], LLVMBuildSelect(g->b, active, r, LLVMConstNull(narrow), ""));
    cg_set(g, &op->results[1], predicate_of(g, LLVMBuildAnd(g->b, out, active, ""), bytes));
    return true;
}

/* ---------------------------------------------------------------- the rest */

static bool lower_vsel(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *vt = op_vreg(op);
    LLVMValueRef sel = lane_mask(g, operand(g, op, 2), lanes_of_type(vt), lane_bytes(vt));
    cg_set(g, &op->results[0], LLVMBuildSelect(g->b, sel, operand(g, op, 0), operand(g, op, 1), ""));
    return true;
}

/* a CMP b per lane: ordered float compares (ne: unordered or unequal),
 * integers signed or unsigned by the element type. */
LLVMValueRef cg_vop_compare(cg *g, cg_vcmp k, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b)
{
    static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
    static const LLVMIntPredicate si[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate ui[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    if (ptoc_type_is_float(elem))
        return LLVMBuildFCmp(g->b, fp[k], a, b, "");
    return LLVMBuildICmp(g->b, cg_is_unsigned(elem) ? ui[k] : si[k], a, b, "");
}

static bool lower_vcmp(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    static const char *const modes[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    const ptoc_type *vt = op_vreg(op);
    unsigned lanes = lanes_of_type(vt), bytes = lane_bytes(vt), k = 0;
    const char *mode = string_attr(op, "cmp_mode", "eq");
    while (k < 5 && strcmp(modes[k], mode))
        k++;
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    if (!vreg_of(ptoc_op_operand(op, 1)->type))
        b = splat_as(g, b, vt);
    LLVMValueRef c = cg_vop_compare(g, (cg_vcmp)k, vreg_elem(op), widen(g, op, a), widen(g, op, b));
    LLVMValueRef seed = lane_mask(g, operand(g, op, 2), lanes, bytes);
    cg_set(g, &op->results[0], predicate_of(g, LLVMBuildAnd(g->b, c, seed, ""), bytes));
    return true;
}

/* vbr (unpredicated) and vdup of a scalar, or of a register's lowest or highest lane. */
static bool lower_dup(cg *g, ptoc_op *op, const cg_rule *rule)
{
    const ptoc_type *vt = op->results[0].type;
    unsigned lanes = lanes_of_type(vt);
    LLVMValueRef src = operand(g, op, 0);
    if (vreg_of(ptoc_op_operand(op, 0)->type)) {
        bool highest = !strcmp(string_attr(op, "position", "LOWEST"), "HIGHEST");
        src = LLVMBuildExtractElement(g->b, src, cg_i32(g, highest ? (int32_t)lanes - 1 : 0), "");
    }
    LLVMValueRef r = splat_as(g, src, vt);
    if (rule->arg)                       /* vdup: predicated */
        r = predicated(g, op, r, operand(g, op, 1), LLVMConstNull(LLVMTypeOf(r)));
    cg_set(g, &op->results[0], r);
    return true;
}

/* vdintlv (arg 1): lanes 2i and 2i + 1 of a:b; vintlv: a0 b0 a1 b1 ..., the
 * second result from lane N/2 of each. */
static bool lower_vintlv(cg *g, ptoc_op *op, const cg_rule *rule)
{
    unsigned lanes = lanes_of_type(op_vreg(op));
    LLVMValueRef a = operand(g, op, 0), b = operand(g, op, 1);
    for (unsigned half = 0; half < 2; half++) {
        LLVMValueRef idx = rule->arg ? index_vector(g, lanes, 2, 1, half)
                                     : shuffle_of(g, lanes, interleaved, lanes | half << 16);
        cg_set(g, &op->results[half], LLVMBuildShuffleVector(g->b, a, b, idx, ""));
    }
    return true;
}

/* ---------------------------------------------------------------- cross-lane reductions */

/* The identity of a vcadd (arg VB_ADD), vcmax or vcmin lane, of the compute type's element. */
static LLVMValueRef reduce_identity(cg *g, cg_vbin k, const ptoc_type *elem, LLVMTypeRef t)
{
    if (ptoc_type_is_float(elem))
        return LLVMConstReal(t, k == VB_ADD ? 0.0 : k == VB_MAX ? -HUGE_VAL : HUGE_VAL);
    unsigned bits = LLVMGetIntTypeWidth(t);
    unsigned long long top = 1ull << (bits - 1), ones = bits == 64 ? ~0ull : (1ull << bits) - 1;
    bool u = cg_is_unsigned(elem);
    if (k == VB_ADD)
        return LLVMConstInt(t, 0, false);
    return LLVMConstInt(t, k == VB_MAX ? (u ? 0 : top) : (u ? ones : top - 1), false);
}

/* The halves of v: lanes [from, from + n). */
static LLVMValueRef lanes_from(cg *g, LLVMValueRef v, unsigned n, unsigned from)
{
    return gathered(g, v, index_vector(g, n, 1, 1, from));
}

/* The first active lane of x equal to r (ordered; a NaN r: the first NaN
 * lane), as an i64; lanes when there is none. */
static LLVMValueRef first_lane_of(cg *g, LLVMValueRef x, LLVMValueRef r, LLVMValueRef active, unsigned lanes)
{
    LLVMValueRef rs = cg_splat(g, r, lanes), eq;
    if (LLVMGetTypeKind(LLVMTypeOf(r)) == LLVMIntegerTypeKind)
        eq = LLVMBuildICmp(g->b, LLVMIntEQ, x, rs, "");
    else {
        LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, r, r, "");
        LLVMValueRef same = LLVMBuildFCmp(g->b, LLVMRealOEQ, x, rs, "");
        LLVMValueRef x_nan = LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, "");
        eq = LLVMBuildSelect(g->b, cg_splat(g, nan, lanes), x_nan, same, "");
    }
    eq = LLVMBuildAnd(g->b, eq, active, "");
    LLVMValueRef idx = LLVMBuildSelect(g->b, eq, index_vector(g, lanes, 1, 1, 0), cg_splat(g, cg_i32(g, lanes), lanes),
                                       "");
    return cg_call_intrinsic(g, "llvm.vector.reduce.umin", LLVMTypeOf(idx), &idx, 1);
}

/* v (a register of its storage type) with lane 1 holding the index i (an
 * integer of the lane's width: vcmax's and vcmin's packed index). */
static LLVMValueRef with_index(cg *g, LLVMValueRef v, LLVMValueRef i, unsigned bits)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    unsigned lanes = LLVMGetVectorSize(ty);
    LLVMTypeRef lane = LLVMIntTypeInContext(g->llctx, bits);
    LLVMValueRef iv = LLVMBuildBitCast(g->b, v, LLVMVectorType(lane, lanes), "");
    iv = LLVMBuildInsertElement(g->b, iv, LLVMBuildIntCast2(g->b, i, lane, false, ""), cg_i32(g, 1), "");
    return LLVMBuildBitCast(g->b, iv, ty, "");
}

/* vcadd, vcmax, vcmin: inactive lanes the identity, then the tree lane k OP
 * lane k + half (half = N/2 .. 1), each step rounded to the element type (a
 * bf16 step through float); the result in lane 0, 0 in the others. A NaN sum
 * is the quiet NaN 0x7fc00000 (x86 would make its negative default NaN), as
 * the cpu target's reductions give it. */
static bool lower_reduce(cg *g, ptoc_op *op, const cg_rule *rule)
{
    if (!computable(op))
        return false;
    cg_vbin k = (cg_vbin)rule->arg;
    const ptoc_type *vt = op_vreg(op), *elem = vreg_elem(op);
    unsigned lanes = lanes_of_type(vt);
    LLVMValueRef x0 = widen(g, op, operand(g, op, 0)), x = x0;
    LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(x));
    LLVMValueRef active = lane_mask(g, operand(g, op, 1), lanes, lane_bytes(vt));
    x = LLVMBuildSelect(g->b, active, x, cg_splat(g, reduce_identity(g, k, elem, et), lanes), "");
    for (unsigned half = lanes / 2; half >= 1; half /= 2) {
        /* the last step on two lanes (x and x's lanes swapped): the bf16 helpers take no 1-lane vectors */
        bool last = half == 1;
        LLVMValueRef swap[2] = {cg_i32(g, 1), cg_i32(g, 0)};
        LLVMValueRef a = last ? x : lanes_from(g, x, half, 0);
        LLVMValueRef b = last ? gathered(g, x, LLVMConstVector(swap, 2)) : lanes_from(g, x, half, half);
        x = cg_vop_binary(g, k, elem, a, b);
        if (is_bf16(elem))
            x = cg_bf16_to_f32(g, cg_f32_to_bf16(g, x));
    }
    LLVMValueRef r = LLVMBuildExtractElement(g->b, x, cg_i32(g, 0), "");
    if (ptoc_type_is_float(elem) && k == VB_ADD) {
        LLVMValueRef nan = LLVMConstReal(et, NAN);
        r = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealUNO, r, r, ""), nan, r, "");
    }
    LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(et, lanes));
    LLVMValueRef v = narrow(g, op, LLVMBuildInsertElement(g->b, zeros, r, cg_i32(g, 0), ""));
    if (k != VB_ADD)
        v = with_index(g, v, first_lane_of(g, x0, r, active, lanes), lane_bytes(vt) * 8);
    cg_set(g, &op->results[0], v);
    return true;
}

/* ---------------------------------------------------------------- conversions */

static cg_round_mode round_mode(const ptoc_op *op)
{
    static const char modes[] = "RAFCZO";
    const char *rnd = string_attr(op, "rnd", "R"), *at = rnd[0] ? strchr(modes, rnd[0]) : NULL;
    return at ? (cg_round_mode)(at - modes) : CG_ROUND_R;
}

/* sat: SAT saturates; NOSAT, vcvt.md's default, does not. */
static bool saturating(const ptoc_op *op) { return !strcmp(string_attr(op, "sat", "NOSAT"), "SAT"); }

/* Float lanes as f32, exactly (f16 and bf16 widen; f32 and f64 stay). */
static LLVMValueRef widened_float(cg *g, LLVMValueRef v, const ptoc_type *e)
{
    if (is_bf16(e))
        return cg_bf16_to_f32(g, v);
    if (e->u.fp.kind == PTOC_F16)
        return LLVMBuildFPExt(g->b, v, LLVMVectorType(g->f32, LLVMGetVectorSize(LLVMTypeOf(v))), "");
    return v;
}

/* f32 lanes with their NaNs quiet, as fpext makes them (a bf16 lane widens
 * by its bits, which keeps a signalling NaN signalling). */
static LLVMValueRef quieted(cg *g, LLVMValueRef v)
{
    LLVMTypeRef bits_ty = LLVMVectorType(g->i32, LLVMGetVectorSize(LLVMTypeOf(v)));
    LLVMValueRef bits = LLVMBuildBitCast(g->b, v, bits_ty, "");
    LLVMValueRef quiet = LLVMBuildOr(g->b, bits, cg_const_int(bits_ty, 0x400000), "");
    LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, v, v, "");
    return LLVMBuildBitCast(g->b, LLVMBuildSelect(g->b, nan, quiet, bits, ""), LLVMTypeOf(v), "");
}

/* float -> float: exact where the result holds every source value (its NaNs
 * quiet; sat has nothing to clamp, as the hardware has no saturation into
 * f32, a5/TCvt.hpp), else rounded by rnd, overflowing by sat, from f32 or
 * f64 (cg_round_float). */
static LLVMValueRef float_to_float(cg *g, const ptoc_op *op, LLVMValueRef v, const ptoc_type *se,
                                   const ptoc_type *de, LLVMTypeRef ty)
{
    v = widened_float(g, v, se);
    ptoc_float_kind to = de->u.fp.kind;
    if (to == PTOC_F64 || (to == PTOC_F32 && LLVMGetElementType(LLVMTypeOf(v)) == g->f32)) {
        v = is_bf16(se) ? quieted(g, v) : v;
        return LLVMTypeOf(v) == ty ? v : LLVMBuildFPExt(g->b, v, ty, "");
    }
    return LLVMBuildBitCast(g->b, cg_round_float(g, v, to, round_mode(op), saturating(op)), ty, "");
}

/* float -> int: rounded to an integer by rnd, then saturated (NaN gives 0);
 * without sat, the low bits of the value saturated to 64 bits: integers
 * wrap (docs/decisions.md). */
static LLVMValueRef float_to_int(cg *g, const ptoc_op *op, LLVMValueRef v, const ptoc_type *se,
                                 const ptoc_type *de, LLVMTypeRef ty)
{
    static const char *const fns[] = {"llvm.rint", "llvm.round", "llvm.floor", "llvm.ceil", "llvm.trunc"};
    cg_round_mode mode = round_mode(op);
    if (mode == CG_ROUND_O)
        ptoc_unreachable("vcvt to an integer by rnd O (the verifier rejects it)");
    v = widened_float(g, v, se);
    v = cg_call_intrinsic(g, fns[mode], LLVMTypeOf(v), &v, 1);
    if (saturating(op))
        return cg_float_to_int_sat(g, v, ty, cg_is_unsigned(de));
    LLVMValueRef w = cg_float_to_int_sat(g, v, LLVMVectorType(g->i64, LLVMGetVectorSize(ty)), false);
    return LLVMTypeOf(w) == ty ? w : LLVMBuildTrunc(g->b, w, ty, "");
}

/* int -> float: exactly to f64 (every integer of at most 32 bits is one),
 * then rounded by rnd; a 64-bit integer by LLVM's conversion, which rounds
 * to nearest even (R, the only rnd the verifier lets it take). */
static LLVMValueRef int_to_float(cg *g, const ptoc_op *op, LLVMValueRef v, const ptoc_type *se,
                                 const ptoc_type *de, LLVMTypeRef ty)
{
    bool u = cg_is_unsigned(se);
    LLVMTypeRef via = ptoc_type_bitwidth(se) == 64 ? ty : LLVMVectorType(g->f64, LLVMGetVectorSize(ty));
    v = u ? LLVMBuildUIToFP(g->b, v, via, "") : LLVMBuildSIToFP(g->b, v, via, "");
    if (via == ty)
        return v;
    return LLVMBuildBitCast(g->b, cg_round_float(g, v, de->u.fp.kind, round_mode(op), saturating(op)), ty, "");
}

static uint64_t low_ones(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static uint64_t int_max(unsigned bits, bool is_unsigned) { return low_ones(is_unsigned ? bits : bits - 1); }

/* int -> int: the low bits, extended by the source's sign; with sat,
 * clamped to the result's range (compared in the source's type, which
 * holds the bound it is compared with). */
static LLVMValueRef int_to_int(cg *g, const ptoc_op *op, LLVMValueRef v, const ptoc_type *se, const ptoc_type *de,
                               LLVMTypeRef ty)
{
    unsigned sw = ptoc_type_bitwidth(se), dw = ptoc_type_bitwidth(de);
    bool su = cg_is_unsigned(se), du = cg_is_unsigned(de);
    LLVMTypeRef st = LLVMTypeOf(v);
    LLVMValueRef r = sw > dw ? LLVMBuildTrunc(g->b, v, ty, "") : sw == dw ? v
                     : su    ? LLVMBuildZExt(g->b, v, ty, "") : LLVMBuildSExt(g->b, v, ty, "");
    if (!saturating(op))
        return r;
    uint64_t dmax = int_max(dw, du);
    if (dmax < int_max(sw, su)) {   /* above the result's largest */
        LLVMValueRef big = LLVMBuildICmp(g->b, su ? LLVMIntUGT : LLVMIntSGT, v, cg_const_int(st, dmax), "");
        r = LLVMBuildSelect(g->b, big, cg_const_int(ty, dmax), r, "");
    }
    if (!su && (du || dw < sw)) {   /* below the result's least: 0, or -2^(dw-1) */
        LLVMValueRef least = cg_const_int(st, du ? 0 : (~0ull << (dw - 1)) & low_ones(sw));
        LLVMValueRef small = LLVMBuildICmp(g->b, LLVMIntSLT, v, least, "");
        r = LLVMBuildSelect(g->b, small, cg_const_int(ty, du ? 0 : 1ull << (dw - 1)), r, "");
    }
    return r;
}

/* Lane j of a narrowing vcvt's result: lane j/2 of the converted lanes where
 * j's parity is the part, else lane `lanes` (of the zeros after them). arg:
 * lanes | part << 16. */
static unsigned placed(unsigned j, unsigned arg)
{
    unsigned lanes = arg & 0xffff, part = arg >> 16;
    return j % 2 == part ? j / 2 : lanes;
}

/* vcvt: each lane converts to the result's element type (float_to_float,
 * float_to_int, int_to_float, int_to_int say how; rnd R and sat NOSAT when
 * absent, vcvt.md's defaults), and an inactive one gives 0. A conversion
 * that halves the lane count (widening) reads the EVEN or ODD source lanes
 * (part, EVEN when absent); one that doubles it (narrowing) writes source
 * lane i to result lane 2i (EVEN) or 2i + 1 (ODD) and 0 to the other, so that
 * vor joins an EVEN and an ODD result (vcvt.md, a5/TCvt.hpp cast32to16). Not
 * taken (the verifier rejects them): a lane count changed fourfold (8-bit to
 * 32-bit lanes and back, by the library's PART_P0..P3), an integer narrowed
 * to a float, rnd O other than f32 to f16, a 64-bit integer to a float by
 * another rnd than R. */
static bool lower_vcvt(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *st = ptoc_op_operand(op, 0)->type, *dt = op->results[0].type;
    const ptoc_type *se = vreg_of(st)->elem, *de = vreg_of(dt)->elem;
    unsigned sl = lanes_of_type(st), dl = lanes_of_type(dt);
    const char *part = string_attr(op, "part", "EVEN");
    /* the lane read in each group: EVEN 0, ODD 1, Pk k (lane 4i + k) */
    unsigned odd = part[0] == 'P' ? (unsigned)(part[1] - '0') : !strcmp(part, "ODD");
    LLVMValueRef v = operand(g, op, 0), active = lane_mask(g, operand(g, op, 1), sl, lane_bytes(st));
    if (dl < sl) {
        LLVMValueRef idx = index_vector(g, dl, sl / dl, 1, odd);
        v = gathered(g, v, idx);
        active = gathered(g, active, idx);
    }
    unsigned n = dl < sl ? dl : sl;
    LLVMTypeRef ty = LLVMVectorType(LLVMGetElementType(cg_type(g, dt, op->loc)), n);
    bool sf = ptoc_type_is_float(se), df = ptoc_type_is_float(de);
    LLVMValueRef r = sf && df ? float_to_float(g, op, v, se, de, ty)
                     : sf     ? float_to_int(g, op, v, se, de, ty)
                     : df     ? int_to_float(g, op, v, se, de, ty)
                              : int_to_int(g, op, v, se, de, ty);
    r = LLVMBuildSelect(g->b, active, r, LLVMConstNull(ty), "");
    if (dl > sl)
        r = LLVMBuildShuffleVector(g->b, r, LLVMConstNull(ty), shuffle_of(g, dl, placed, sl | odd << 16), "");
    cg_set(g, &op->results[0], r);
    return true;
}

/* ---------------------------------------------------------------- memory */

/* ptr + off elements of the pointer's type. */
static LLVMValueRef element_address(cg *g, const ptoc_op *op, uint32_t ptr_operand)
{
    const ptoc_type *elem = ptoc_pto_ub_ptr_elem(ptoc_op_operand(op, ptr_operand)->type);
    LLVMValueRef off = operand(g, op, ptr_operand + 1);
    if (LLVMTypeOf(off) != g->i64)
        off = LLVMBuildSExt(g->b, off, g->i64, "");
    return LLVMBuildGEP2(g->b, cg_elem_type(g, elem), operand(g, op, ptr_operand), &off, 1, "");
}

/* `count` lanes of type `lane` from `addr` (one: a scalar), unaligned. */
static LLVMValueRef load_lanes(cg *g, LLVMTypeRef lane, unsigned count, LLVMValueRef addr)
{
    LLVMValueRef v = LLVMBuildLoad2(g->b, count > 1 ? LLVMVectorType(lane, count) : lane, addr, "");
    LLVMSetAlignment(v, 1);
    return v;
}

/* UNPK_Bn: 128 bytes of n-bit elements, each zero-extended to 2n bits, as
 * the register's type (n-bit lanes: element i in lane 2i, 0 in lane 2i + 1). */
static LLVMValueRef unpacked_load(cg *g, const ptoc_op *op, LLVMValueRef addr, LLVMTypeRef ty,
                                  unsigned factor)
{
    unsigned n = ptoc_type_bitwidth(ptoc_pto_ub_ptr_elem(ptoc_op_operand(op, 0)->type));
    unsigned count = 2048 / factor / n;
    LLVMValueRef v = load_lanes(g, LLVMIntTypeInContext(g->llctx, n), count, addr);
    v = LLVMBuildZExt(g->b, v, LLVMVectorType(LLVMIntTypeInContext(g->llctx, factor * n), count), "");
    return LLVMBuildBitCast(g->b, v, ty, "");
}

/* Lane i of a BLK load: element i mod (the elements of a 32-byte block, arg). */
static unsigned block_lane(unsigned i, unsigned per_block) { return i % per_block; }

/* vlds by dist (vlds.md's C semantics): NORM the N elements at ptr + off;
 * BLK the 32 bytes at ptr + off in every 32-byte block (TRowExpandBinOp.hpp);
 * BRC element 0 in every lane; US lane i element i/2 (N/2 elements read,
 * each twice); DS, SPLT2CHN and DINTLV_B32 lane i element 2i (every other
 * one of 2N); UNPK as unpacked_load says. */
static bool lower_vlds(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *vt = op->results[0].type;
    LLVMTypeRef ty = cg_type(g, vt, op->loc), lane = LLVMGetElementType(ty);
    unsigned n = lanes_of_type(vt);
    LLVMValueRef addr = element_address(g, op, 0), v;
    const char *dist = string_attr(op, "dist", "NORM");
    if (!strcmp(dist, "NORM"))
        v = load_lanes(g, lane, n, addr);
    else if (!strncmp(dist, "BRC_", 4))
        v = cg_splat(g, load_lanes(g, lane, 1, addr), n);
    else if (!strncmp(dist, "US_", 3))
        v = gathered(g, load_lanes(g, lane, n / 2, addr), index_vector(g, n, 1, 2, 0));
    else if (!strncmp(dist, "UNPK_", 5))
        v = unpacked_load(g, op, addr, ty, 2);
    else if (!strncmp(dist, "UNPK4_", 6))
        v = unpacked_load(g, op, addr, ty, 4);
    else if (!strcmp(dist, "BLK")) {
        unsigned per_block = 256 / ptoc_type_bitwidth(vreg_of(vt)->elem);     /* 32 bytes */
        v = gathered(g, load_lanes(g, lane, per_block, addr), shuffle_of(g, n, block_lane, per_block));
    }
    else   /* DS_Bn, SPLT2CHN_Bn, DINTLV_B32 */
        v = gathered(g, load_lanes(g, lane, 2 * n - 1, addr), index_vector(g, n, 2, 1, 0));
    cg_set(g, &op->results[0], v);
    return true;
}

/* `v`'s lanes where `active` stored to addr. Lanes of 32 and 64 bits go
 * through llvm.masked.store (AVX's masked moves); narrower ones as a load,
 * a select and a store of the whole register, since x86 has no masked store
 * of bytes or halves and LLVM would emit a branch and a store per lane. The
 * inactive lanes are written back as they were: the same bytes, in memory
 * no other thread writes (a core's simulated UB is its own) and inside the
 * margin every simulated space has past its end. */
static void masked_store(cg *g, LLVMValueRef v, LLVMValueRef addr, LLVMValueRef active)
{
    LLVMTypeRef vt = LLVMTypeOf(v), et = LLVMGetElementType(vt);
    LLVMTypeKind kind = LLVMGetTypeKind(et);
    if ((kind == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(et) < 32) || kind == LLVMHalfTypeKind ||
        kind == LLVMBFloatTypeKind) {
        LLVMValueRef old = LLVMBuildLoad2(g->b, vt, addr, "");
        LLVMSetAlignment(old, 1);
        LLVMValueRef st = LLVMBuildStore(g->b, LLVMBuildSelect(g->b, active, v, old, ""), addr);
        LLVMSetAlignment(st, 1);
        return;
    }
    LLVMTypeRef tys[2] = {LLVMTypeOf(v), g->ptr};
    unsigned id = LLVMLookupIntrinsicID("llvm.masked.store", strlen("llvm.masked.store"));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, tys, 2);
    LLVMValueRef args[4] = {v, addr, cg_i32(g, 1), active};
    LLVMBuildCall2(g->b, LLVMIntrinsicGetType(g->llctx, id, tys, 2), fn, args, 4, "");
}

/* A store of the active lanes; PK_B16 and PK_B32 store the even lanes (the
 * low halves of the lanes twice as wide, which the predicate counts) packed:
 * N/2 elements; PK4_B32 every fourth (the low bytes of 32-bit lanes): N/4. */
static bool lower_vsts(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *vt = ptoc_op_operand(op, 0)->type;
    unsigned lanes = lanes_of_type(vt), bytes = lane_bytes(vt);
    LLVMValueRef v = operand(g, op, 0);
    const char *dist = string_attr(op, "dist", "NORM");
    unsigned pack = !strncmp(dist, "PK_", 3) ? 2 : !strncmp(dist, "PK4_", 4) ? 4 : 1;
    if (pack > 1) {
        lanes /= pack;
        bytes *= pack;
        v = gathered(g, v, index_vector(g, lanes, pack, 1, 0));
    }
    masked_store(g, v, element_address(g, op, 1), lane_mask(g, operand(g, op, 3), lanes, bytes));
    return true;
}

/* vldsx2 DINTLV: 2N elements from ptr + off; the even ones into the first
 * result, the odd ones into the second. */
static bool lower_vldsx2(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *vt = op->results[0].type;
    unsigned lanes = lanes_of_type(vt);
    LLVMTypeRef both = LLVMVectorType(cg_elem_type(g, vreg_of(vt)->elem), 2 * lanes);
    LLVMValueRef v = LLVMBuildLoad2(g->b, both, element_address(g, op, 0), "");
    LLVMSetAlignment(v, 1);
    for (unsigned half = 0; half < 2; half++)
        cg_set(g, &op->results[half],
               LLVMBuildShuffleVector(g->b, v, LLVMGetPoison(both), index_vector(g, lanes, 2, 1, half), ""));
    return true;
}

/* vstsx2 INTLV: a0 b0 a1 b1 ... to ptr + off, the pair of lane i where lane i is active. */
static bool lower_vstsx2(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *vt = ptoc_op_operand(op, 0)->type;
    unsigned lanes = lanes_of_type(vt);
    LLVMValueRef pairs = LLVMBuildShuffleVector(g->b, operand(g, op, 0), operand(g, op, 1),
                                                shuffle_of(g, 2 * lanes, interleaved, lanes), "");
    LLVMValueRef active = lane_mask(g, operand(g, op, 4), lanes, lane_bytes(vt));
    LLVMValueRef both = LLVMBuildShuffleVector(g->b, active, LLVMGetPoison(LLVMTypeOf(active)),
                                               index_vector(g, 2 * lanes, 1, 2, 0), "");
    masked_store(g, pairs, element_address(g, op, 2), both);
    return true;
}

/* ---------------------------------------------------------------- predicates */

/* Bytes per lane of a predicate (the verifier has checked its granularity). */
static unsigned granularity_bytes(const ptoc_type *mask) { return ptoc_pto_mask_bits(mask) / 8; }

/* The bits of a predicate made from `src` (256 bits, or 512 for two
 * concatenated) by `f`: result bit j = src bit f(j, arg). */
static LLVMValueRef rearranged(cg *g, LLVMValueRef a, LLVMValueRef b, unsigned (*f)(unsigned, unsigned),
                               unsigned arg)
{
    return LLVMBuildShuffleVector(g->b, a, b ? b : LLVMGetPoison(LLVMTypeOf(a)), shuffle_of(g, CG_MASK_BITS, f, arg),
                                  "");
}

/* punpack: result lane i (bytes 2b) is source lane i (+ half the result's
 * lanes for HIGHER) of b bytes. arg: b | HIGHER << 8. */
static unsigned unpacked(unsigned j, unsigned arg)
{
    unsigned in = arg & 0xff, out = 2 * in, lanes_out = CG_MASK_BITS / out;
    return (j / out + (arg >> 8) * lanes_out) * in;
}

static bool lower_punpack(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    unsigned in = granularity_bytes(ptoc_op_operand(op, 0)->type);
    bool higher = !strcmp(string_attr(op, "part", "LOWER"), "HIGHER");
    cg_set(g, &op->results[0], rearranged(g, operand(g, op, 0), NULL, unpacked, in | (unsigned)higher << 8));
    return true;
}

/* pintlv_b16: result lane i (2 bits) of the low (arg 0) or high (arg 1)
 * result is a's lane i/2 (i even) or b's (i odd), from lane 64 for the high one. */
static unsigned b16_interleaved(unsigned j, unsigned half)
{
    unsigned i = j / 2;
    return (i % 2) * CG_MASK_BITS + 2 * (i / 2 + half * 64);
}

/* pdintlv_b8: result lane i of the low (arg 0) or high (arg 1) result is lane 2i (+1) of a:b. */
static unsigned b8_deinterleaved(unsigned j, unsigned half) { return 2 * j + half; }

static bool lower_ppair(cg *g, ptoc_op *op, const cg_rule *rule)
{
    for (unsigned half = 0; half < 2; half++)
        cg_set(g, &op->results[half], rearranged(g, operand(g, op, 0), operand(g, op, 1),
                                                 rule->arg ? b16_interleaved : b8_deinterleaved, half));
    return true;
}

/* ptr + off bytes. */
static LLVMValueRef byte_address(cg *g, const ptoc_op *op, uint32_t ptr_operand)
{
    LLVMValueRef off = operand(g, op, ptr_operand + 1);
    if (LLVMTypeOf(off) != g->i64)
        off = LLVMBuildSExt(g->b, off, g->i64, "");
    return LLVMBuildGEP2(g->b, g->i8, operand(g, op, ptr_operand), &off, 1, "");
}

static unsigned doubled(unsigned j, unsigned unused) { (void)unused; return j / 2; }
static unsigned even_bit(unsigned j, unsigned unused) { (void)unused; return 2 * j; }

static unsigned byte_of_bit(unsigned j, unsigned unused) { (void)unused; return j / 8; }

/* The `bits` bits at addr (bit j: byte j/8, bit j%8) as <bits x i1>: the
 * bytes loaded as bytes, each spread over 8 lanes and tested against its
 * lane's bit. (A load of <bits x i1> itself is legalised on x86 one bit at a
 * time, and so is every predicate shuffle after it.) */
static LLVMValueRef load_bits(cg *g, LLVMValueRef addr, unsigned bits)
{
    LLVMValueRef raw = LLVMBuildLoad2(g->b, LLVMVectorType(g->i8, bits / 8), addr, "");
    LLVMSetAlignment(raw, 1);
    LLVMValueRef spread = LLVMBuildShuffleVector(g->b, raw, LLVMGetPoison(LLVMTypeOf(raw)),
                                                 shuffle_of(g, bits, byte_of_bit, 0), "");
    LLVMValueRef *bit = malloc(sizeof *bit * bits);
    if (!bit)
        ptoc_fatal("out of memory");
    for (unsigned j = 0; j < bits; j++)
        bit[j] = LLVMConstInt(g->i8, 1u << (j % 8), false);
    LLVMValueRef pattern = LLVMConstVector(bit, bits);
    free(bit);
    return LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildAnd(g->b, spread, pattern, ""), LLVMConstNull(LLVMTypeOf(spread)),
                         "bits");
}

/* plds: NORM reads 32 bytes as the 256 bits (bit j: byte j/8, bit j%8); US
 * reads 16 bytes and doubles every bit. */
static bool lower_plds(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    bool us = !strcmp(string_attr(op, "dist", "NORM"), "US");
    LLVMValueRef raw = load_bits(g, byte_address(g, op, 0), us ? CG_MASK_BITS / 2 : CG_MASK_BITS);
    cg_set(g, &op->results[0], us ? LLVMBuildShuffleVector(g->b, raw, LLVMGetPoison(LLVMTypeOf(raw)),
                                                           shuffle_of(g, CG_MASK_BITS, doubled, 0), "")
                                  : raw);
    return true;
}

/* psts: NORM writes the 256 bits as 32 bytes; PK the even bits as 16. */
static bool lower_psts(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef p = operand(g, op, 0);
    if (!strcmp(string_attr(op, "dist", "NORM"), "PK"))
        p = LLVMBuildShuffleVector(g->b, p, LLVMGetPoison(LLVMTypeOf(p)), shuffle_of(g, CG_MASK_BITS / 2, even_bit, 0), "");
    LLVMValueRef st = LLVMBuildStore(g->b, p, byte_address(g, op, 1));
    LLVMSetAlignment(st, 1);
    return true;
}

/* plt_bN: the first min(n, lanes) lanes, and n minus the lanes, at least 0. */
static bool lower_plt(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    unsigned bytes = granularity_bytes(op->results[0].type);
    LLVMValueRef n = operand(g, op, 0);
    LLVMValueRef lanes = LLVMConstInt(LLVMTypeOf(n), CG_MASK_BITS / bytes, false);
    cg_set(g, &op->results[0], first_lanes(g, n, bytes));
    LLVMValueRef more = LLVMBuildICmp(g->b, LLVMIntUGT, n, lanes, "");   /* n is a count: unsigned */
    cg_set(g, &op->results[1], LLVMBuildSelect(g->b, more, LLVMBuildSub(g->b, n, lanes, ""),
                                               LLVMConstNull(LLVMTypeOf(n)), ""));
    return true;
}

static bool lower_pset(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    unsigned bytes = granularity_bytes(op->results[0].type), lanes = CG_MASK_BITS / bytes;
    const char *pat = string_attr(op, "pattern", "PAT_ALL");
    unsigned n = !strcmp(pat, "PAT_ALL") ? lanes : !strcmp(pat, "PAT_ALLF") ? 0 : !strcmp(pat, "PAT_H") ? lanes / 2
                 : !strcmp(pat, "PAT_Q") ? lanes / 4 : !strncmp(pat, "PAT_VL", 6) ? (unsigned)atoi(pat + 6) : ~0u;
    if (n == ~0u)
        return unsupported(op, "this pattern");
    cg_set(g, &op->results[0], n == lanes ? all_bits(g, true) : first_lanes(g, cg_i32(g, (int32_t)n), bytes));
    return true;
}

typedef enum plogic { PL_AND, PL_OR, PL_XOR, PL_NOT, PL_SEL } plogic;

/* pand, por, pxor (a op b), pnot (!a), psel (sel ? a : b), within the last predicate. */
static bool lower_plogic(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef a = operand(g, op, 0), within = operand(g, op, op->noperands - 1), r;
    switch ((plogic)rule->arg) {
    case PL_AND: r = LLVMBuildAnd(g->b, a, operand(g, op, 1), ""); break;
    case PL_OR: r = LLVMBuildOr(g->b, a, operand(g, op, 1), ""); break;
    case PL_XOR: r = LLVMBuildXor(g->b, a, operand(g, op, 1), ""); break;
    case PL_NOT: r = LLVMBuildNot(g->b, a, ""); break;
    default: r = LLVMBuildSelect(g->b, operand(g, op, 2), a, operand(g, op, 1), ""); break;
    }
    cg_set(g, &op->results[0], LLVMBuildAnd(g->b, r, within, ""));
    return true;
}

/* ---------------------------------------------------------------- chistv2 */

/* chistv2 acc, src, p, bank: lane b of the u16 accumulator (bin base + b,
 * base 0 for N0, 128 for N1) gains the number of active bytes of src at most
 * base + b: a cumulative histogram, as THISTOGRAM's result is (pto-isa
 * cpu/THistogram.hpp; a5/THistogram.hpp adds the banks' counts into its
 * cumulative u32 bins). Both banks take the lanes of one function of (src,
 * p), the cumulative counts of all 256 byte values: declared memory(none)
 * and kept out of line, so that LLVM computes it once for the two chistv2 of
 * one register that every THISTOGRAM program issues. */
/* The arrays below are read and written as whole vectors: their allocas and
 * those accesses agree on one alignment (a vector's own would be its size). */
enum { VEC_ALIGN = 32 };

static LLVMValueRef aligned(LLVMValueRef access)
{
    LLVMSetAlignment(access, VEC_ALIGN);
    return access;
}

static LLVMValueRef aligned_alloca(cg *g, LLVMTypeRef ty, const char *name)
{
    return aligned(cg_alloca(g, ty, name));
}

/* counts[v] = the number of active bytes (pred lane 1, not 0) equal to v.
 * The lanes are spread over TABLES tables (lane modulo TABLES), so that a
 * run of equal bytes is TABLES chains of increments, not one; the tables are
 * summed as vectors. */
enum { TABLES = 4 };

static LLVMValueRef byte_counts(cg *g, LLVMValueRef src, LLVMValueRef pred)
{
    LLVMTypeRef table = LLVMArrayType2(g->i16, 256), tables_ty = LLVMArrayType2(table, TABLES);
    LLVMTypeRef bytes_ty = LLVMArrayType2(g->i8, 256), v16 = LLVMVectorType(g->i16, 256);
    LLVMValueRef tables = aligned_alloca(g, tables_ty, "hist.tables");
    LLVMValueRef bytes = aligned_alloca(g, bytes_ty, "hist.bytes"), on = aligned_alloca(g, bytes_ty, "hist.on");
    LLVMBuildMemSet(g->b, tables, LLVMConstNull(g->i8), cg_i64(g, TABLES * 256 * 2), VEC_ALIGN);
    aligned(LLVMBuildStore(g->b, src, bytes));
    aligned(LLVMBuildStore(g->b, pred, on));
    cg_loop group;
    cg_loop_begin(g, &group, cg_i64(g, 0), cg_i64(g, 256 / TABLES), "hist.group");
    for (int k = 0; k < TABLES; k++) {
        LLVMValueRef lane[2] = {cg_i64(g, 0), LLVMBuildAdd(g->b, LLVMBuildMul(g->b, group.iv, cg_i64(g, TABLES), ""),
                                                           cg_i64(g, k), "")};
        LLVMValueRef b = LLVMBuildLoad2(g->b, g->i8, LLVMBuildInBoundsGEP2(g->b, bytes_ty, bytes, lane, 2, ""), "");
        LLVMValueRef p = LLVMBuildLoad2(g->b, g->i8, LLVMBuildInBoundsGEP2(g->b, bytes_ty, on, lane, 2, ""), "");
        LLVMValueRef slot_idx[3] = {cg_i64(g, 0), cg_i64(g, k), LLVMBuildZExt(g->b, b, g->i64, "")};
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(g->b, tables_ty, tables, slot_idx, 3, "");
        LLVMValueRef n = LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, g->i16, slot, ""),
                                      LLVMBuildZExt(g->b, p, g->i16, ""), "");
        LLVMBuildStore(g->b, n, slot);
    }
    cg_loop_end(g, &group);
    LLVMValueRef sum = NULL;
    for (int k = 0; k < TABLES; k++) {
        LLVMValueRef idx[2] = {cg_i64(g, 0), cg_i64(g, k)};
        LLVMValueRef at = LLVMBuildInBoundsGEP2(g->b, tables_ty, tables, idx, 2, "");
        LLVMValueRef t = aligned(LLVMBuildLoad2(g->b, v16, at, ""));
        sum = sum ? LLVMBuildAdd(g->b, sum, t, "") : t;
    }
    return sum;
}

/* The running sum of the 256 counts: eight steps of adding the vector
 * shifted up by 1, 2, 4 ... 128 lanes (zeros shifted in). */
static LLVMValueRef running_sum(cg *g, LLVMValueRef counts)
{
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(counts)), lanes[256];
    for (unsigned by = 1; by < 256; by *= 2) {
        for (unsigned i = 0; i < 256; i++)      /* lane i of (counts ++ zero) or of zero */
            lanes[i] = cg_i32(g, i >= by ? (int32_t)(i - by) : 256);
        LLVMValueRef up = LLVMBuildShuffleVector(g->b, counts, zero, LLVMConstVector(lanes, 256), "");
        counts = LLVMBuildAdd(g->b, counts, up, "");
    }
    return counts;
}

static LLVMValueRef cumulative_counts_fn(cg *g)
{
    static const char name[] = "ptoc.vops.cumulative_byte_counts";
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (fn)
        return fn;
    LLVMTypeRef params[2] = {LLVMVectorType(g->i8, 256), LLVMVectorType(g->i8, 256)};   /* src, pred as 0/1 */
    fn = LLVMAddFunction(g->mod, name, LLVMFunctionType(LLVMVectorType(g->i16, 256), params, 2, false));
    LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    static const char *const attrs[] = {"nounwind", "willreturn", "nosync", "noinline"};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        cg_add_fn_attr(g, fn, attrs[i], 0);
    cg_add_fn_attr(g, fn, "memory", 0);            /* memory(none): a pure function of its operands */
    cg_func f;
    cg_caller caller;
    cg_enter_function(g, &f, fn, &caller);
    LLVMBuildRet(g->b, running_sum(g, byte_counts(g, LLVMGetParam(fn, 0), LLVMGetParam(fn, 1))));
    cg_leave_function(g, &caller);
    return fn;
}

static bool lower_chistv2(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef args[2] = {operand(g, op, 1), LLVMBuildZExt(g->b, operand(g, op, 2), LLVMVectorType(g->i8, 256), "")};
    unsigned base = !strcmp(string_attr(op, "bank", "N0"), "N1") ? 128 : 0;
    LLVMValueRef fn = cumulative_counts_fn(g);
    LLVMValueRef counts = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fn), fn, args, 2, "hist.counts");
    LLVMValueRef lanes[128];
    for (unsigned b = 0; b < 128; b++)
        lanes[b] = cg_i32(g, (int32_t)(base + b));
    LLVMValueRef bank = LLVMBuildShuffleVector(g->b, counts, LLVMGetUndef(LLVMTypeOf(counts)),
                                               LLVMConstVector(lanes, 128), "");
    cg_set(g, &op->results[0], LLVMBuildAdd(g->b, operand(g, op, 0), bank, "hist"));
    return true;
}

/* ---------------------------------------------------------------- indices, gathers, scatters, unaligned stores */

/* vci: lane i = s + i (ASC), or s + N - 1 - i (DESC: a5/Tci.hpp's descending
 * fill starts each register at S - N + 1, so its lane 0 holds the largest). */
static bool lower_vci(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *vt = op->results[0].type;
    unsigned n = lanes_of_type(vt);
    bool desc = !strcmp(string_attr(op, "order", "ASC"), "DESC");
    LLVMTypeRef et = cg_elem_type(g, vreg_elem(op));
    LLVMValueRef *steps = malloc(sizeof *steps * n);
    if (!steps)
        ptoc_fatal("out of memory");
    for (unsigned i = 0; i < n; i++)
        steps[i] = LLVMConstInt(et, desc ? n - 1 - i : i, false);
    LLVMValueRef iota = LLVMConstVector(steps, n);
    free(steps);
    cg_set(g, &op->results[0], LLVMBuildAdd(g->b, splat_as(g, operand(g, op, 0), vt), iota, "vci"));
    return true;
}

/* vsqz v, mask: the active lanes packed to the front in lane order, 0 in
 * the lanes after them, and how many were active. Lane i goes to slot j (the
 * lanes active before it): an active lane's value, an inactive lane's 0, which
 * the next active lane overwrites, so the slots from the count on stay 0. */
static bool lower_vsqz(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *vt = ptoc_op_operand(op, 0)->type;
    unsigned n = lanes_of_type(vt);
    LLVMValueRef v = operand(g, op, 0);
    LLVMTypeRef ty = LLVMTypeOf(v), lane = LLVMGetElementType(ty);
    LLVMValueRef active = lane_mask(g, operand(g, op, 1), n, lane_bytes(vt));
    LLVMValueRef buf = cg_alloca(g, ty, "vsqz.buf"), count = cg_alloca(g, g->i64, "vsqz.count");
    LLVMBuildStore(g->b, LLVMConstNull(ty), buf);
    LLVMBuildStore(g->b, cg_i64(g, 0), count);
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), cg_i64(g, n), "vsqz.lane");
    LLVMValueRef on = LLVMBuildExtractElement(g->b, active, l.iv, "");
    LLVMValueRef j = LLVMBuildLoad2(g->b, g->i64, count, "");
    LLVMValueRef x = LLVMBuildSelect(g->b, on, LLVMBuildExtractElement(g->b, v, l.iv, ""), LLVMConstNull(lane), "");
    LLVMValueRef st = LLVMBuildStore(g->b, x, LLVMBuildGEP2(g->b, lane, buf, &j, 1, ""));
    LLVMSetAlignment(st, 1);
    LLVMBuildStore(g->b, LLVMBuildAdd(g->b, j, LLVMBuildZExt(g->b, on, g->i64, ""), ""), count);
    cg_loop_end(g, &l);
    LLVMValueRef r = LLVMBuildLoad2(g->b, ty, buf, "vsqz");
    LLVMSetAlignment(r, 1);
    cg_set(g, &op->results[0], r);
    LLVMTypeRef ct = cg_type(g, op->results[1].type, op->loc);
    cg_set(g, &op->results[1], LLVMBuildZExtOrBitCast(g->b, LLVMBuildLoad2(g->b, g->i64, count, ""), ct, ""));
    return true;
}

/* vbitcast: the same bits as the result's type. */
static bool lower_vbitcast(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMTypeRef ty = cg_type(g, op->results[0].type, op->loc);
    cg_set(g, &op->results[0], LLVMBuildBitCast(g->b, operand(g, op, 0), ty, "vbitcast"));
    return true;
}

/* The addresses of vgather2's and vscatter's active lanes, ptr + idx[i]
 * elements, each checked to lie inside UB: an index that leaves it ends the
 * run (PTOC_RT_TRAP_INDEX: the largest such index, and how many elements
 * from ptr to UB's end) instead of touching memory outside UB. */
static LLVMValueRef checked_addresses(cg *g, ptoc_op *op, uint32_t ptr_operand, LLVMValueRef active)
{
    const ptoc_type *pe = ptoc_pto_ub_ptr_elem(ptoc_op_operand(op, ptr_operand)->type);
    const ptoc_type *it = ptoc_op_operand(op, ptr_operand + 1)->type;
    unsigned n = lanes_of_type(it), esize = ptoc_type_bitwidth(pe) / 8;
    LLVMTypeRef v64 = LLVMVectorType(g->i64, n);
    LLVMValueRef ptr = operand(g, op, ptr_operand);
    LLVMValueRef idx = LLVMBuildZExt(g->b, operand(g, op, ptr_operand + 1), v64, "idx");
    LLVMValueRef bytes = LLVMBuildMul(g->b, idx, cg_splat(g, cg_i64(g, esize), n), "");
    uint64_t cap = cg_capacity(g, PTOC_PTO_AS_VEC);
    LLVMValueRef base = LLVMBuildPtrToInt(g->b, cg_space_base(g, PTOC_PTO_AS_VEC), g->i64, "");
    LLVMValueRef at = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, ptr, g->i64, ""), base, "ub.at");
    LLVMValueRef rel = LLVMBuildAdd(g->b, cg_splat(g, at, n), bytes, "");
    LLVMValueRef last = cg_splat(g, cg_i64(g, (int64_t)(cap - esize)), n);
    LLVMValueRef out = LLVMBuildICmp(g->b, LLVMIntUGT, rel, last, "");
    out = LLVMBuildAnd(g->b, out, active, "index.out");
    LLVMValueRef any = cg_call_intrinsic(g, "llvm.vector.reduce.or", LLVMTypeOf(out), &out, 1);
    LLVMValueRef bad = LLVMBuildSelect(g->b, out, idx, LLVMConstNull(v64), "");
    LLVMValueRef worst = cg_call_intrinsic(g, "llvm.vector.reduce.umax", v64, &bad, 1);
    LLVMValueRef left = LLVMBuildSub(g->b, cg_i64(g, (int64_t)cap), at, "");
    LLVMValueRef room = LLVMBuildUDiv(g->b, left, cg_i64(g, esize), "");
    cg_trap_if(g, any, PTOC_RT_TRAP_INDEX, op->loc, worst, room, cg_i64(g, 3));
    return LLVMBuildGEP2(g->b, g->i8, ptr, &bytes, 1, "lane.addr");
}

/* llvm.masked.gather / scatter over the vector of pointers `addrs`. */
static LLVMValueRef masked_access(cg *g, bool scatter, LLVMValueRef v_or_passthru, LLVMValueRef addrs,
                                  LLVMValueRef active)
{
    const char *name = scatter ? "llvm.masked.scatter" : "llvm.masked.gather";
    LLVMTypeRef tys[2] = {LLVMTypeOf(v_or_passthru), LLVMTypeOf(addrs)};
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, tys, 2);
    LLVMTypeRef fnty = LLVMIntrinsicGetType(g->llctx, id, tys, 2);
    if (scatter) {
        LLVMValueRef args[4] = {v_or_passthru, addrs, cg_i32(g, 1), active};
        return LLVMBuildCall2(g->b, fnty, fn, args, 4, "");
    }
    LLVMValueRef args[4] = {addrs, cg_i32(g, 1), active, v_or_passthru};
    return LLVMBuildCall2(g->b, fnty, fn, args, 4, "gathered");
}

/* The data lanes a gather or scatter moves: every lane, or for 8-bit data
 * with 16-bit indices the even lanes (each index's lane 2i). */
static bool even_lanes_only(const ptoc_type *data, const ptoc_type *idx)
{
    return lanes_of_type(data) == 2 * lanes_of_type(idx);
}

/* vgather2 ptr, idx, mask; vscatter v, ptr, idx, mask (rule arg 1). */
static bool lower_gather(cg *g, ptoc_op *op, const cg_rule *rule)
{
    bool scatter = rule->arg;
    uint32_t p = scatter ? 1 : 0;
    const ptoc_type *it = ptoc_op_operand(op, p + 1)->type;
    const ptoc_type *data = scatter ? ptoc_op_operand(op, 0)->type : op->results[0].type;
    unsigned n = lanes_of_type(it), ibytes = lane_bytes(it);
    LLVMValueRef active = lane_mask(g, operand(g, op, p + 2), n, ibytes);
    LLVMValueRef addrs = checked_addresses(g, op, p, active);
    LLVMTypeRef ty = cg_type(g, data, op->loc), lane = LLVMGetElementType(ty);
    bool even = even_lanes_only(data, it);
    if (scatter) {
        LLVMValueRef v = operand(g, op, 0);
        if (even)
            v = gathered(g, v, index_vector(g, n, 2, 1, 0));
        masked_access(g, true, v, addrs, active);
        return true;
    }
    LLVMValueRef r = masked_access(g, false, LLVMConstNull(LLVMVectorType(lane, n)), addrs, active);
    if (even) {  /* each element zero-extended into its index's lane (8 into 16 bits, 16 into 32) */
        unsigned bits = ibytes * 4;   /* the element's width: half the index's */
        LLVMValueRef as_int = LLVMBuildBitCast(g->b, r, LLVMVectorType(LLVMIntTypeInContext(g->llctx, bits), n), "");
        LLVMTypeRef wide = LLVMVectorType(LLVMIntTypeInContext(g->llctx, 2 * bits), n);
        r = LLVMBuildBitCast(g->b, LLVMBuildZExt(g->b, as_int, wide, ""), ty, "");
    }
    cg_set(g, &op->results[0], r);
    return true;
}

/* Lane i's byte within its 32-byte block, for lanes of `bytes` bytes. */
static unsigned byte_in_block(unsigned i, unsigned bytes) { return i * bytes % 32; }

/* vgatherb ptr, offsets, mask: the 32-byte block b of the result (its lanes
 * i with i * bytes / 32 == b) is the 32 bytes at ptr + offsets[b] bytes, in
 * active lanes (0 elsewhere); a block that leaves UB ends the run, as
 * vgather2's indices do. */
static bool lower_gatherb(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMTypeRef ty = cg_type(g, op->results[0].type, op->loc), lane = LLVMGetElementType(ty);
    unsigned n = lanes_of_type(op->results[0].type), bytes = lane_bytes(op->results[0].type);
    LLVMValueRef active = lane_mask(g, operand(g, op, 2), n, bytes);
    LLVMTypeRef v64 = LLVMVectorType(g->i64, n);
    LLVMValueRef blocks = gathered(g, operand(g, op, 1), index_vector(g, n, bytes, 32, 0));
    LLVMValueRef off = LLVMBuildAdd(g->b, LLVMBuildZExt(g->b, blocks, v64, ""),
                                    LLVMBuildZExt(g->b, shuffle_of(g, n, byte_in_block, bytes), v64, ""), "");
    uint64_t cap = cg_capacity(g, PTOC_PTO_AS_VEC);
    LLVMValueRef ptr = operand(g, op, 0);
    LLVMValueRef base = LLVMBuildPtrToInt(g->b, cg_space_base(g, PTOC_PTO_AS_VEC), g->i64, "");
    LLVMValueRef at = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, ptr, g->i64, ""), base, "ub.at");
    LLVMValueRef rel = LLVMBuildAdd(g->b, cg_splat(g, at, n), off, "");
    LLVMValueRef out = LLVMBuildICmp(g->b, LLVMIntUGT, rel, cg_splat(g, cg_i64(g, (int64_t)(cap - bytes)), n), "");
    out = LLVMBuildAnd(g->b, out, active, "block.out");
    LLVMValueRef any = cg_call_intrinsic(g, "llvm.vector.reduce.or", LLVMTypeOf(out), &out, 1);
    LLVMValueRef bad = LLVMBuildSelect(g->b, out, off, LLVMConstNull(v64), "");
    LLVMValueRef worst = cg_call_intrinsic(g, "llvm.vector.reduce.umax", v64, &bad, 1);
    cg_trap_if(g, any, PTOC_RT_TRAP_INDEX, op->loc, worst, LLVMBuildSub(g->b, cg_i64(g, (int64_t)cap), at, ""),
               cg_i64(g, 1));
    LLVMValueRef addrs = LLVMBuildGEP2(g->b, g->i8, ptr, &off, 1, "block.addr");
    LLVMValueRef r = masked_access(g, false, LLVMConstNull(LLVMVectorType(lane, n)), addrs, active);
    cg_set(g, &op->results[0], LLVMBuildBitCast(g->b, r, ty, ""));
    return true;
}

enum { ALIGN_BLOCK = 32 };

LLVMTypeRef cg_align_state_type(cg *g)
{
    LLVMTypeRef f[3] = {g->ptr, LLVMVectorType(g->i8, ALIGN_BLOCK), LLVMVectorType(g->i1, ALIGN_BLOCK)};
    return LLVMStructTypeInContext(g->llctx, f, 3, false);
}

static bool lower_init_align(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_set(g, &op->results[0], LLVMConstNull(cg_align_state_type(g)));
    return true;
}

/* The start of addr's 32-byte block of UB (blocks counted from the
 * simulated space's base, which the host need not align to 32 bytes). */
static LLVMValueRef block_of(cg *g, LLVMValueRef addr)
{
    LLVMValueRef base = LLVMBuildPtrToInt(g->b, cg_space_base(g, PTOC_PTO_AS_VEC), g->i64, "");
    LLVMValueRef at = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, addr, g->i64, ""), base, "");
    LLVMValueRef low = LLVMBuildAnd(g->b, at, cg_i64(g, ALIGN_BLOCK - 1), "");
    LLVMValueRef back = LLVMBuildNeg(g->b, low, "");
    return LLVMBuildGEP2(g->b, g->i8, addr, &back, 1, "block");
}

/* The bytes of a state where `pending` says, into its block (a masked
 * store: no byte is touched when none is pending, as in a fresh state). */
static void flush_pending(cg *g, LLVMValueRef block, LLVMValueRef bytes, LLVMValueRef pending)
{
    LLVMTypeRef tys[2] = {LLVMTypeOf(bytes), g->ptr};
    unsigned id = LLVMLookupIntrinsicID("llvm.masked.store", strlen("llvm.masked.store"));
    LLVMValueRef args[4] = {bytes, block, cg_i32(g, 1), pending};
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, tys, 2);
    LLVMBuildCall2(g->b, LLVMIntrinsicGetType(g->llctx, id, tys, 2), fn, args, 4, "");
}

/* vstus state, n, v, ptr[off]: the stream's bytes now end at e = ptr + the bytes
 * of min(n, N) elements. Pending bytes of a block before e's are written
 * first; the new bytes below e's block are written; those from e's block
 * on are the new state's pending bytes (joined with the old ones of the
 * same block). */
static bool lower_vstus(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *vt = ptoc_op_operand(op, 2)->type;
    unsigned lanes = lanes_of_type(vt), esize = (unsigned)ptoc_type_bitwidth(vreg_elem(op)) / 8;
    unsigned nbytes = lanes * esize;
    if (nbytes != CG_MASK_BITS)
        return unsupported(op, "vstus of a 64-bit register pair");
    LLVMValueRef state = operand(g, op, 0), n = operand(g, op, 1), ptr = element_address(g, op, 3);
    n = LLVMBuildZExtOrBitCast(g->b, n, g->i64, "");
    LLVMValueRef cap = cg_i64(g, lanes);
    n = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, n, cap, ""), n, cap, "");
    LLVMValueRef len = LLVMBuildMul(g->b, n, cg_i64(g, esize), "len");
    LLVMValueRef end = LLVMBuildGEP2(g->b, g->i8, ptr, &len, 1, "end"), e = block_of(g, end);
    LLVMValueRef old_block = LLVMBuildExtractValue(g->b, state, 0, "");
    LLVMValueRef old_bytes = LLVMBuildExtractValue(g->b, state, 1, "");
    LLVMValueRef old_pending = LLVMBuildExtractValue(g->b, state, 2, "");
    LLVMValueRef same = LLVMBuildICmp(g->b, LLVMIntEQ, old_block, e, "same");
    LLVMTypeRef pv = LLVMVectorType(g->i1, ALIGN_BLOCK);
    flush_pending(g, old_block, old_bytes, LLVMBuildSelect(g->b, same, LLVMConstNull(pv), old_pending, ""));
    /* the bytes below e's block: the first max(e - ptr, 0) */
    LLVMTypeRef bytes_ty = LLVMVectorType(g->i8, nbytes);
    LLVMValueRef v = LLVMBuildBitCast(g->b, operand(g, op, 2), bytes_ty, "");
    LLVMValueRef below = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, e, g->i64, ""),
                                      LLVMBuildPtrToInt(g->b, ptr, g->i64, ""), "below");
    LLVMValueRef head = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, below, cg_i64(g, 0), ""), below,
                                        cg_i64(g, 0), "");
    masked_store(g, v, ptr, first_lanes(g, head, 1));
    /* e's block: byte j is the register's byte (e - ptr) + j where that is in [0, len) */
    LLVMTypeRef window = LLVMArrayType(g->i8, ALIGN_BLOCK + nbytes + ALIGN_BLOCK);
    LLVMValueRef buf = cg_alloca(g, window, "vstus.window");
    LLVMValueRef at = cg_i64(g, ALIGN_BLOCK);
    LLVMValueRef st = LLVMBuildStore(g->b, v, LLVMBuildGEP2(g->b, g->i8, buf, &at, 1, ""));
    LLVMSetAlignment(st, 1);
    LLVMValueRef from = LLVMBuildAdd(g->b, below, cg_i64(g, ALIGN_BLOCK), "");
    LLVMValueRef tail = load_lanes(g, g->i8, ALIGN_BLOCK, LLVMBuildGEP2(g->b, g->i8, buf, &from, 1, ""));
    LLVMValueRef *steps = malloc(sizeof *steps * ALIGN_BLOCK);
    if (!steps)
        ptoc_fatal("out of memory");
    for (unsigned j = 0; j < ALIGN_BLOCK; j++)
        steps[j] = LLVMConstInt(g->i64, j, false);
    LLVMValueRef iota = LLVMConstVector(steps, ALIGN_BLOCK);
    LLVMValueRef idx = LLVMBuildAdd(g->b, cg_splat(g, below, ALIGN_BLOCK), iota, "");
    free(steps);
    LLVMValueRef from_ok = LLVMBuildICmp(g->b, LLVMIntSGE, idx, LLVMConstNull(LLVMTypeOf(idx)), "");
    LLVMValueRef to_ok = LLVMBuildICmp(g->b, LLVMIntSLT, idx, cg_splat(g, len, ALIGN_BLOCK), "");
    LLVMValueRef in = LLVMBuildAnd(g->b, from_ok, to_ok, "");
    LLVMValueRef kept = LLVMBuildSelect(g->b, same, old_pending, LLVMConstNull(pv), "");
    LLVMValueRef r = LLVMConstNull(cg_align_state_type(g));
    r = LLVMBuildInsertValue(g->b, r, e, 0, "");
    r = LLVMBuildInsertValue(g->b, r, LLVMBuildSelect(g->b, in, tail, old_bytes, ""), 1, "");
    r = LLVMBuildInsertValue(g->b, r, LLVMBuildOr(g->b, in, kept, ""), 2, "");
    cg_set(g, &op->results[0], r);
    return true;
}

/* vstas state, ptr[off]: the pending bytes into the block of ptr + off elements. */
static bool lower_vstas(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef state = operand(g, op, 0);
    flush_pending(g, block_of(g, element_address(g, op, 1)), LLVMBuildExtractValue(g->b, state, 1, ""),
                  LLVMBuildExtractValue(g->b, state, 2, ""));
    return true;
}

/* ---------------------------------------------------------------- bridges */

/* tile_ptr (arg 0): the tile's address; tile_valid (1): its valid rows, columns. */
static bool lower_bridge(cg *g, ptoc_op *op, const cg_rule *rule)
{
    cg_tile t;
    if (!cg_tile_of(g, ptoc_op_operand(op, 0), &t))
        return false;
    cg_set(g, &op->results[0], rule->arg ? t.vrows : t.base);
    if (rule->arg)
        cg_set(g, &op->results[1], t.vcols);
    return true;
}

/* The body in place. With pipe events on a backend with a vector-function
 * model, the model counts the body's micro-ops as they run, and the
 * vecscope's pipe event reports the cycles it gives (codegen_internal.h). */
static bool lower_vecscope(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    if (op->nregions != 1 || !op->regions[0].first)
        return true;
    const cg_vf_model *model = g->target->backend->vf_model;
    if (!g->opts->pipe_events || !model)
        return cg_lower_block(g, op->regions[0].first);
    LLVMValueRef outer[2] = {g->vf_state[0], g->vf_state[1]};
    model->begin(g, op);
    bool ok = cg_lower_block(g, op->regions[0].first);
    g->vf_cycles = model->end(g, op);
    g->vf_state[0] = outer[0];
    g->vf_state[1] = outer[1];
    return ok;
}

/* The vector functions and their bridges to tiles, which every target with
 * a lowering pass (a5, a2a3) takes, apart from the A5 micro-ops. */
const cg_rule cg_pto_scope_rules[] = {
    {PTO(VECSCOPE), lower_vecscope, 0, PTOC_PTO_VOP_NONE},
    VOP(TILE_PTR, lower_bridge, 0),
    VOP(TILE_VALID, lower_bridge, 1),
};
const size_t cg_pto_scope_rule_count = sizeof cg_pto_scope_rules / sizeof cg_pto_scope_rules[0];

const cg_rule cg_pto_vop_rules[] = {
    VOP(VLDS, lower_vlds, 0),
    VOP(VLDSX2, lower_vldsx2, 0),
    VOP(VSTS, lower_vsts, 0),
    VOP(VSTSX2, lower_vstsx2, 0),
    VOP(PLT_B8, lower_plt, 0),
    VOP(PLT_B16, lower_plt, 0),
    VOP(PLT_B32, lower_plt, 0),
    VOP(PSET_B8, lower_pset, 0),
    VOP(PSET_B16, lower_pset, 0),
    VOP(PSET_B32, lower_pset, 0),
    VOP(PAND, lower_plogic, PL_AND),
    VOP(POR, lower_plogic, PL_OR),
    VOP(PXOR, lower_plogic, PL_XOR),
    VOP(PNOT, lower_plogic, PL_NOT),
    VOP(PSEL, lower_plogic, PL_SEL),
    VOP(PINTLV_B16, lower_ppair, 1),
    VOP(PDINTLV_B8, lower_ppair, 0),
    VOP(PUNPACK, lower_punpack, 0),
    VOP(PLDS, lower_plds, 0),
    VOP(PSTS, lower_psts, 0),
    VOP(VADD, lower_binary, VB_ADD),
    VOP(VSUB, lower_binary, VB_SUB),
    VOP(VMUL, lower_binary, VB_MUL),
    VOP(VDIV, lower_binary, VB_DIV),
    VOP(VMAX, lower_binary, VB_MAX),
    VOP(VMIN, lower_binary, VB_MIN),
    VOP(VAND, lower_binary, VB_AND),
    VOP(VOR, lower_binary, VB_OR),
    VOP(VXOR, lower_binary, VB_XOR),
    VOP(VSHL, lower_binary, VB_SHL),
    VOP(VSHR, lower_binary, VB_SHR),
    VOP(VABS, lower_unary, VU_ABS),
    VOP(VNEG, lower_unary, VU_NEG),
    VOP(VNOT, lower_unary, VU_NOT),
    VOP(VEXP, lower_unary, VU_EXP),
    VOP(VLN, lower_unary, VU_LN),
    VOP(VSQRT, lower_unary, VU_SQRT),
    VOP(VRELU, lower_unary, VU_RELU),
    VOP(VADDS, lower_binary, VB_ADD),
    VOP(VSUBS, lower_binary, VB_SUB),
    VOP(VMULS, lower_binary, VB_MUL),
    VOP(VMAXS, lower_binary, VB_MAX),
    VOP(VMINS, lower_binary, VB_MIN),
    VOP(VSHLS, lower_binary, VB_SHL),
    VOP(VSHRS, lower_binary, VB_SHR),
    VOP(VEXPDIF, lower_binary, VB_EXPDIF),
    VOP(VADDC, lower_carry, 0),
    VOP(VSUBC, lower_carry, 1),
    VOP(VADDCS, lower_carry, 0),
    VOP(VSUBCS, lower_carry, 1),
    VOP(VMULL, lower_mull, 0),
    VOP(VMULA, lower_mula, 0),
    VOP(VBR, lower_dup, 0),
    VOP(VDUP, lower_dup, 1),
    VOP(VSEL, lower_vsel, 0),
    VOP(VCMP, lower_vcmp, 0),
    VOP(VCMPS, lower_vcmp, 0),
    VOP(VDINTLV, lower_vintlv, 1),
    VOP(VINTLV, lower_vintlv, 0),
    VOP(VCVT, lower_vcvt, 0),
    VOP(CHISTV2, lower_chistv2, 0),
    VOP(VCADD, lower_reduce, VB_ADD),
    VOP(VCMAX, lower_reduce, VB_MAX),
    VOP(VCMIN, lower_reduce, VB_MIN),
    VOP(VCI, lower_vci, 0),
    VOP(VGATHER2, lower_gather, 0),
    VOP(VGATHER2_BC, lower_gather, 0),
    VOP(VSCATTER, lower_gather, 1),
    VOP(INIT_ALIGN, lower_init_align, 0),
    VOP(VSTUS, lower_vstus, 0),
    VOP(VSTAS, lower_vstas, 0),
    VOP(VBITCAST, lower_vbitcast, 0),
    VOP(VGATHERB, lower_gatherb, 0),
    VOP(VSQZ, lower_vsqz, 0),
};
const size_t cg_pto_vop_rule_count = sizeof cg_pto_vop_rules / sizeof cg_pto_vop_rules[0];
