/* lower_pto_ewx.c: the remaining elementwise tile ops on the cpu target.
 *
 *   trem trems           a - floor(a/b)*b as pto-isa's cpu model computes it:
 *                        r = fmod(a, b) (integers: a % b), then r += b when
 *                        r != 0 and (a >= 0) != (b >= 0): the sign of b (a NaN
 *                        r stays)
 *   tfmod tfmods         fmod(a, b) (integers: a % b): the sign of a
 *   tand tor txor        a & b, a | b, a ^ b on the elements' bits (float
 *   tands tors txors     tiles too: the A5 library takes any 1-, 2-, 4-byte type)
 *   tshl tshr            a << b, a >> b (arithmetic for signed types); an
 *   tshls tshrs          amount of the width or more (unsigned) gives 0, or
 *                        the sign for a signed >>
 *   tprelu tlrelu        a > 0 ? a : a * b (b the slope tile or the scalar)
 *   taddc tsubc          (a + b) + c, (a - b) + c, each step rounded to the dtype
 *   taddsc tsubsc        (a + s) + c, (a - s) + c, likewise
 *   taxpy                dst = dst + src * s, each step rounded to dst's dtype
 *                        (src f16 into an f32 dst: widened first)
 *                        In these three a NaN first step is the result (x86's
 *                        first-operand NaN, fixed so that LLVM cannot swap it).
 *   tpartadd tpartmul    over dst's valid region: a OP b where both sources
 *   tpartmax tpartmin    are valid, the valid one's element where one is,
 *                        0 where neither is (pto-isa's cpu TPartInstr)
 *
 * Integers wrap, x % 0 = x and INT_MIN % -1 = 0 (nothing traps: docs/targets.md);
 * max/min are a > b ? a : b and a < b ? a : b as for tmax/tmin; f16/bf16
 * compute in float and round on store. The tmp operand of trem, txor, trems,
 * txors and tprelu is hardware scratch: the cpu target neither reads nor
 * writes it. One loop nest over dst's valid region, one element at a time
 * through cg_tile_elem_ptr (LLVM vectorises what it can); docs/decisions.md
 * says where each choice comes from.
 */
#include "codegen/codegen_internal.h"

typedef enum ewx_op {
    X_REM, X_FMOD, X_AND, X_OR, X_XOR, X_SHL, X_SHR, X_PRELU,
    X_ADD, X_SUB, X_MUL, X_MAX, X_MIN, X_ADDC, X_SUBC, X_AXPY
} ewx_op;

static bool is_bitwise(ewx_op k)
{
    return k == X_AND || k == X_OR || k == X_XOR;
}

/* ---------------------------------------------------------------- elements */

/* Bitwise ops see an element as its bits (an integer of its size); the rest
 * as its compute type. */
static LLVMValueRef load(cg *g, const ptoc_type *elem, LLVMValueRef ptr, bool bits)
{
    if (!bits)
        return cg_load_elem(g, elem, ptr);
    LLVMValueRef v = LLVMBuildLoad2(g->b, LLVMIntTypeInContext(g->llctx, 8 * cg_elem_size(elem)), ptr, "");
    LLVMSetAlignment(v, cg_elem_size(elem));
    return v;
}

static void store(cg *g, const ptoc_type *elem, LLVMValueRef ptr, LLVMValueRef v, bool bits)
{
    if (!bits) {
        cg_store_elem(g, elem, ptr, v);
        return;
    }
    LLVMSetAlignment(LLVMBuildStore(g->b, v, ptr), cg_elem_size(elem));
}

/* A compute-type value rounded to elem's precision (f16, bf16) and back: an
 * intermediate result as a store would leave it. */
static LLVMValueRef round_to(cg *g, const ptoc_type *elem, LLVMValueRef v)
{
    if (!ptoc_type_is_float(elem) || LLVMTypeOf(v) == cg_elem_type(g, elem))
        return v;
    if (elem->u.fp.kind == PTOC_BF16)
        return cg_bf16_to_f32(g, cg_f32_to_bf16(g, v));
    return LLVMBuildFPExt(g->b, LLVMBuildFPTrunc(g->b, v, cg_elem_type(g, elem), ""), LLVMTypeOf(v), "");
}

/* a % b that never traps: x % 0 = x, INT_MIN % -1 = 0 (the sign of a). */
static LLVMValueRef int_rem(cg *g, LLVMValueRef a, LLVMValueRef b, bool is_unsigned)
{
    LLVMBuilderRef B = g->b;
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef zero_div = LLVMBuildICmp(B, LLVMIntEQ, b, LLVMConstNull(ty), "");
    LLVMValueRef unsafe = zero_div;
    if (!is_unsigned)   /* INT_MIN % -1 overflows in LLVM: divide by 1 instead, same remainder 0 */
        unsafe = LLVMBuildOr(B, zero_div, LLVMBuildICmp(B, LLVMIntEQ, b, LLVMConstAllOnes(ty), ""), "");
    LLVMValueRef divisor = LLVMBuildSelect(B, unsafe, cg_const_int(ty, 1), b, "");
    LLVMValueRef r = is_unsigned ? LLVMBuildURem(B, a, divisor, "") : LLVMBuildSRem(B, a, divisor, "");
    return LLVMBuildSelect(B, zero_div, a, r, "");
}

/* trem: fmod / % then, when r != 0 and a and b lie on different sides of 0
 * (a >= 0 differs from b >= 0; NaN is on neither), r + b. */
static LLVMValueRef floor_rem(cg *g, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = g->b;
    LLVMTypeRef ty = LLVMTypeOf(a);
    if (ptoc_type_is_float(elem)) {
        LLVMValueRef r = LLVMBuildFRem(B, a, b, ""), zero = LLVMConstNull(ty);
        LLVMValueRef sides = LLVMBuildXor(B, LLVMBuildFCmp(B, LLVMRealOGE, a, zero, ""),
                                          LLVMBuildFCmp(B, LLVMRealOGE, b, zero, ""), "");
        /* a NaN r stays as it is: r + b could take b's NaN instead */
        LLVMValueRef fix = LLVMBuildAnd(B, sides, LLVMBuildFCmp(B, LLVMRealONE, r, zero, ""), "");
        return LLVMBuildSelect(B, fix, LLVMBuildFAdd(B, r, b, ""), r, "");
    }
    if (cg_is_unsigned(elem))
        return int_rem(g, a, b, true);
    LLVMValueRef r = int_rem(g, a, b, false), zero = LLVMConstNull(ty);
    LLVMValueRef sides = LLVMBuildXor(B, LLVMBuildICmp(B, LLVMIntSGE, a, zero, ""),
                                      LLVMBuildICmp(B, LLVMIntSGE, b, zero, ""), "");
    LLVMValueRef fix = LLVMBuildAnd(B, sides, LLVMBuildICmp(B, LLVMIntNE, r, zero, ""), "");
    return LLVMBuildSelect(B, fix, LLVMBuildAdd(B, r, b, ""), r, "");
}

/* a << b, a >> b; an amount past width - 1 (unsigned) gives 0, or the sign. */
static LLVMValueRef shift(cg *g, const ptoc_type *elem, bool left, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef last = cg_const_int(ty, LLVMGetIntTypeWidth(ty) - 1);
    LLVMValueRef big = LLVMBuildICmp(g->b, LLVMIntUGT, b, last, "");
    LLVMValueRef amt = LLVMBuildSelect(g->b, big, last, b, "");
    if (!left && !cg_is_unsigned(elem))
        return LLVMBuildAShr(g->b, a, amt, "");
    LLVMValueRef r = left ? LLVMBuildShl(g->b, a, amt, "") : LLVMBuildLShr(g->b, a, amt, "");
    return LLVMBuildSelect(g->b, big, LLVMConstNull(ty), r, "");
}

static LLVMValueRef max_min(cg *g, const ptoc_type *elem, bool max, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef gt;
    if (ptoc_type_is_float(elem))
        gt = LLVMBuildFCmp(g->b, max ? LLVMRealOGT : LLVMRealOLT, a, b, "");
    else if (cg_is_unsigned(elem))
        gt = LLVMBuildICmp(g->b, max ? LLVMIntUGT : LLVMIntULT, a, b, "");
    else
        gt = LLVMBuildICmp(g->b, max ? LLVMIntSGT : LLVMIntSLT, a, b, "");
    return LLVMBuildSelect(g->b, gt, a, b, "");
}

/* a OP b for the two-operand kinds (the compute type; the store rounds). */
static LLVMValueRef apply(cg *g, ewx_op k, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = g->b;
    bool fp = ptoc_type_is_float(elem);
    switch (k) {
    case X_REM: return floor_rem(g, elem, a, b);
    case X_FMOD: return fp ? LLVMBuildFRem(B, a, b, "") : int_rem(g, a, b, cg_is_unsigned(elem));
    case X_AND: return LLVMBuildAnd(B, a, b, "");
    case X_OR: return LLVMBuildOr(B, a, b, "");
    case X_XOR: return LLVMBuildXor(B, a, b, "");
    case X_SHL: return shift(g, elem, true, a, b);
    case X_SHR: return shift(g, elem, false, a, b);
    case X_PRELU: {
        LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(a));
        LLVMValueRef pos = fp ? LLVMBuildFCmp(B, LLVMRealOGT, a, zero, "")
                              : LLVMBuildICmp(B, cg_is_unsigned(elem) ? LLVMIntUGT : LLVMIntSGT, a, zero, "");
        return LLVMBuildSelect(B, pos, a, fp ? LLVMBuildFMul(B, a, b, "") : LLVMBuildMul(B, a, b, ""), "");
    }
    case X_ADD: case X_ADDC: return fp ? LLVMBuildFAdd(B, a, b, "") : LLVMBuildAdd(B, a, b, "");
    case X_SUB: case X_SUBC: return fp ? LLVMBuildFSub(B, a, b, "") : LLVMBuildSub(B, a, b, "");
    case X_MUL: case X_AXPY: return fp ? LLVMBuildFMul(B, a, b, "") : LLVMBuildMul(B, a, b, "");
    case X_MAX: return max_min(g, elem, true, a, b);
    case X_MIN: return max_min(g, elem, false, a, b);
    }
    return a;
}

/* a + b where a is an earlier step's result: a NaN a is the result. Which
 * NaN a + b gives when both are NaN is LLVM's choice (it may swap the
 * operands), so the first NaN is taken explicitly. */
static LLVMValueRef add_step(cg *g, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b)
{
    if (!ptoc_type_is_float(elem))
        return LLVMBuildAdd(g->b, a, b, "");
    LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, a, a, "");
    return LLVMBuildSelect(g->b, nan, a, LLVMBuildFAdd(g->b, a, b, ""), "");
}

/* ---------------------------------------------------------------- operands */

/* One operand of the loop body: a tile, or a scalar value. */
typedef struct ewx_in {
    cg_tile tile;
    LLVMValueRef scalar;       /* non-NULL: this operand is the scalar */
} ewx_in;

static bool is_tile_operand(ptoc_op *op, uint32_t i)
{
    ptoc_pto_tile_desc d;
    return i < op->noperands && cg_tile_desc_of(ptoc_op_operand(op, i)->type, &d);
}

static bool same_elem(ptoc_op *op, const cg_tile *a, const cg_tile *dst)
{
    if (a->elem == dst->elem)
        return true;
    ptoc_op_emit_error(op, "source and destination element types differ");
    return false;
}

/* Operand i as a tile. */
static bool tile_in(cg *g, ptoc_op *op, uint32_t i, ewx_in *out)
{
    out->scalar = NULL;
    return cg_op_in(g, op, i, &out->tile);
}

/* The tiles of `in` have dst's element type. */
static bool same_elems(ptoc_op *op, const ewx_in *in, unsigned n, const cg_tile *dst)
{
    for (unsigned i = 0; i < n; i++)
        if (!in[i].scalar && !same_elem(op, &in[i].tile, dst))
            return false;
    return true;
}

/* Operand i as the scalar, in elem's dtype as the hardware receives it (its
 * bits for a bitwise op). The verifier lets a tile through on memrefs. */
static bool scalar_in(cg *g, ptoc_op *op, uint32_t i, const ptoc_type *elem, bool bits, ewx_in *out)
{
    if (i >= op->noperands || is_tile_operand(op, i)) {
        ptoc_op_emit_error(op, "scalar operand must not be a tile");
        return false;
    }
    LLVMValueRef slot = cg_op_scalar_slot(g, op, i, elem);
    out->scalar = slot ? load(g, elem, slot, bits) : NULL;
    return out->scalar != NULL;
}

/* The value of `in` at (r, c). */
static LLVMValueRef value_at(cg *g, const ewx_in *in, LLVMValueRef r, LLVMValueRef c, bool bits)
{
    if (in->scalar)
        return in->scalar;
    return load(g, in->tile.elem, cg_tile_elem_ptr(g, &in->tile, r, c), bits);
}

/* The checks common to every rule: dst computable (bitwise ops move bits of
 * any type), shifts on integers only. */
static bool check_dst(ptoc_op *op, ewx_op k, const cg_tile *dst)
{
    if (is_bitwise(k))
        return true;
    if (!cg_check_computable(op, "dst", dst->elem))
        return false;
    if ((k == X_SHL || k == X_SHR) && ptoc_type_is_float(dst->elem)) {
        ptoc_op_emit_error(op, "is not supported for this element type by the cpu target");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- rules */

/* dst[i,j] = in[0] OP in[1] (OP then + in[2] for taddc..tsubsc). */
static void emit_nest(cg *g, ewx_op k, const cg_tile *dst, const ewx_in *in, unsigned nin)
{
    bool bits = is_bitwise(k);
    cg_loop rows, cols;
    cg_loop_begin(g, &rows, cg_i64(g, 0), dst->vrows, "ewx.row");
    cg_loop_begin(g, &cols, cg_i64(g, 0), dst->vcols, "ewx.col");
    LLVMValueRef a = value_at(g, &in[0], rows.iv, cols.iv, bits);
    LLVMValueRef v = apply(g, k, dst->elem, a, value_at(g, &in[1], rows.iv, cols.iv, bits));
    if (nin == 3)
        v = add_step(g, dst->elem, round_to(g, dst->elem, v), value_at(g, &in[2], rows.iv, cols.iv, bits));
    store(g, dst->elem, cg_tile_elem_ptr(g, dst, rows.iv, cols.iv), v, bits);
    cg_loop_end(g, &cols);
    cg_loop_end(g, &rows);
}

/* trem tfmod tand tor txor tshl tshr tprelu: ins(src0, src1[, tmp]). */
static bool lower_tile_tile(cg *g, ptoc_op *op, const cg_rule *rule)
{
    ewx_op k = (ewx_op)rule->arg;
    ewx_in in[2];
    cg_tile dst;
    if (!tile_in(g, op, 0, &in[0]) || !tile_in(g, op, 1, &in[1]) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (!same_elems(op, in, 2, &dst) || !check_dst(op, k, &dst))
        return false;
    emit_nest(g, k, &dst, in, 2);
    return true;
}

/* trems tfmods tands tors txors tshls tshrs tlrelu: ins(src, scalar[, tmp]). */
static bool lower_tile_scalar(cg *g, ptoc_op *op, const cg_rule *rule)
{
    ewx_op k = (ewx_op)rule->arg;
    ewx_in in[2];
    cg_tile dst;
    if (!tile_in(g, op, 0, &in[0]) || !cg_op_out(g, op, 0, &dst) || !same_elems(op, in, 1, &dst) ||
        !check_dst(op, k, &dst) || !scalar_in(g, op, 1, dst.elem, is_bitwise(k), &in[1]))
        return false;
    emit_nest(g, k, &dst, in, 2);
    return true;
}

/* taddc tsubc: ins(src0, src1, src2); taddsc tsubsc (with_scalar): ins(src0,
 * scalar, src1). */
static bool lower_three(cg *g, ptoc_op *op, ewx_op k, bool with_scalar)
{
    ewx_in in[3];
    cg_tile dst;
    if (!tile_in(g, op, 0, &in[0]) || (!with_scalar && !tile_in(g, op, 1, &in[1])) ||
        !tile_in(g, op, 2, &in[2]) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (!same_elems(op, in, 1, &dst) || (!with_scalar && !same_elems(op, &in[1], 1, &dst)) ||
        !same_elems(op, &in[2], 1, &dst) || !check_dst(op, k, &dst))
        return false;
    if (with_scalar && !scalar_in(g, op, 1, dst.elem, false, &in[1]))
        return false;
    emit_nest(g, k, &dst, in, 3);
    return true;
}

static bool lower_ternary(cg *g, ptoc_op *op, const cg_rule *rule)
{
    return lower_three(g, op, (ewx_op)rule->arg, false);
}

static bool lower_ternary_scalar(cg *g, ptoc_op *op, const cg_rule *rule)
{
    return lower_three(g, op, (ewx_op)rule->arg, true);
}

/* taxpy ins(src, scalar) outs(dst): dst = dst + round(src * s); the scalar
 * has src's type (f16 src into an f32 dst: both widen exactly to float). */
static bool lower_axpy(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    ewx_in in[2];
    cg_tile dst;
    if (!tile_in(g, op, 0, &in[0]) || !cg_op_out(g, op, 0, &dst) || !check_dst(op, X_AXPY, &dst))
        return false;
    const ptoc_type *se = in[0].tile.elem;
    bool widen = ptoc_type_is_float(se) && se->u.fp.kind == PTOC_F16 && ptoc_type_is_float(dst.elem) &&
                 dst.elem->u.fp.kind == PTOC_F32;
    if (se != dst.elem && !widen) {
        ptoc_op_emit_error(op, "src must have dst's element type, or be f16 with an f32 dst");
        return false;
    }
    if (!scalar_in(g, op, 1, se, false, &in[1]))
        return false;
    cg_loop rows, cols;
    cg_loop_begin(g, &rows, cg_i64(g, 0), dst.vrows, "axpy.row");
    cg_loop_begin(g, &cols, cg_i64(g, 0), dst.vcols, "axpy.col");
    LLVMValueRef p = apply(g, X_MUL, dst.elem, value_at(g, &in[0], rows.iv, cols.iv, false), in[1].scalar);
    LLVMValueRef at = cg_tile_elem_ptr(g, &dst, rows.iv, cols.iv);
    LLVMValueRef sum = add_step(g, dst.elem, cg_load_elem(g, dst.elem, at), round_to(g, dst.elem, p));
    cg_store_elem(g, dst.elem, at, sum);
    cg_loop_end(g, &cols);
    cg_loop_end(g, &rows);
    return true;
}

/* Whether (r, c) lies in t's valid region. */
static LLVMValueRef in_valid(cg *g, const cg_tile *t, LLVMValueRef r, LLVMValueRef c)
{
    LLVMValueRef in_r = LLVMBuildICmp(g->b, LLVMIntULT, r, t->vrows, "");
    return LLVMBuildAnd(g->b, in_r, LLVMBuildICmp(g->b, LLVMIntULT, c, t->vcols, ""), "");
}

/* src's element at (r, c) when `valid`, else its element (0, 0): a load that
 * stays inside the tile whatever the shapes (the value is then not used). */
static LLVMValueRef load_if_valid(cg *g, const cg_tile *t, LLVMValueRef valid, LLVMValueRef r, LLVMValueRef c)
{
    LLVMValueRef zero = cg_i64(g, 0);
    LLVMValueRef first = cg_tile_elem_ptr(g, t, zero, zero);
    LLVMValueRef p = LLVMBuildSelect(g->b, valid, cg_tile_elem_ptr(g, t, r, c), first, "");
    return cg_load_elem(g, t->elem, p);
}

/* The source that gives a Level-1 result a dynamic valid shape: the one
 * whose valid region is not inside the other's (src0 when they are equal). */
static uint32_t full_operand(const cg_tile *a, const cg_tile *b)
{
    bool b_rows = LLVMIsAConstantInt(a->vrows) && LLVMIsAConstantInt(b->vrows) &&
                  LLVMConstIntGetZExtValue(b->vrows) > LLVMConstIntGetZExtValue(a->vrows);
    bool b_cols = LLVMIsAConstantInt(a->vcols) && LLVMIsAConstantInt(b->vcols) &&
                  LLVMConstIntGetZExtValue(b->vcols) > LLVMConstIntGetZExtValue(a->vcols);
    return b_rows || b_cols ? 1 : 0;
}

/* tpartadd tpartmul tpartmax tpartmin: ins(src0, src1) over dst's valid region. */
static bool lower_part(cg *g, ptoc_op *op, const cg_rule *rule)
{
    ewx_op k = (ewx_op)rule->arg;
    cg_tile a, b, dst;
    if (!cg_op_in(g, op, 0, &a) || !cg_op_in(g, op, 1, &b) || !cg_op_out(g, op, full_operand(&a, &b), &dst))
        return false;
    if (!same_elem(op, &a, &dst) || !same_elem(op, &b, &dst) || !check_dst(op, k, &dst))
        return false;
    LLVMBuilderRef B = g->b;
    cg_loop rows, cols;
    cg_loop_begin(g, &rows, cg_i64(g, 0), dst.vrows, "part.row");
    cg_loop_begin(g, &cols, cg_i64(g, 0), dst.vcols, "part.col");
    LLVMValueRef in_a = in_valid(g, &a, rows.iv, cols.iv), in_b = in_valid(g, &b, rows.iv, cols.iv);
    LLVMValueRef va = load_if_valid(g, &a, in_a, rows.iv, cols.iv);
    LLVMValueRef vb = load_if_valid(g, &b, in_b, rows.iv, cols.iv);
    LLVMValueRef only_b = LLVMBuildSelect(B, in_b, vb, LLVMConstNull(LLVMTypeOf(vb)), "");
    LLVMValueRef with_a = LLVMBuildSelect(B, in_b, apply(g, k, dst.elem, va, vb), va, "");
    cg_store_elem(g, dst.elem, cg_tile_elem_ptr(g, &dst, rows.iv, cols.iv),
                  LLVMBuildSelect(B, in_a, with_a, only_b, "part.v"));
    cg_loop_end(g, &cols);
    cg_loop_end(g, &rows);
    return true;
}

const cg_rule cg_pto_ewx_rules[] = {
    {PTO(TREM), lower_tile_tile, X_REM},      {PTO(TFMOD), lower_tile_tile, X_FMOD},
    {PTO(TAND), lower_tile_tile, X_AND},      {PTO(TOR), lower_tile_tile, X_OR},
    {PTO(TXOR), lower_tile_tile, X_XOR},      {PTO(TSHL), lower_tile_tile, X_SHL},
    {PTO(TSHR), lower_tile_tile, X_SHR},      {PTO(TPRELU), lower_tile_tile, X_PRELU},
    {PTO(TREMS), lower_tile_scalar, X_REM},   {PTO(TFMODS), lower_tile_scalar, X_FMOD},
    {PTO(TANDS), lower_tile_scalar, X_AND},   {PTO(TORS), lower_tile_scalar, X_OR},
    {PTO(TXORS), lower_tile_scalar, X_XOR},   {PTO(TSHLS), lower_tile_scalar, X_SHL},
    {PTO(TSHRS), lower_tile_scalar, X_SHR},   {PTO(TLRELU), lower_tile_scalar, X_PRELU},
    {PTO(TADDC), lower_ternary, X_ADDC},      {PTO(TSUBC), lower_ternary, X_SUBC},
    {PTO(TADDSC), lower_ternary_scalar, X_ADDC}, {PTO(TSUBSC), lower_ternary_scalar, X_SUBC},
    {PTO(TAXPY), lower_axpy, X_AXPY},         {PTO(TPARTADD), lower_part, X_ADD},
    {PTO(TPARTMUL), lower_part, X_MUL},       {PTO(TPARTMAX), lower_part, X_MAX},
    {PTO(TPARTMIN), lower_part, X_MIN},
};
const size_t cg_pto_ewx_rule_count = sizeof cg_pto_ewx_rules / sizeof cg_pto_ewx_rules[0];
