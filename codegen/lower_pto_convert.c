/* lower_pto_convert.c: tcvt, the tile conversion between element types.
 *
 * One loop nest over dst's valid region (rows outside, columns inside, 8
 * elements a step while whole steps fit in an unboxed row-major row, then one
 * at a time). Elements move as their bits, so nothing is rounded by a load or
 * a store; each conversion is computed on the bits, the same at every -O
 * level and on every host:
 *
 *   float -> narrower float   cg_round_float by rmode (float_round.c), an
 *                             overflow to the largest finite value with
 *                             saturation, else as IEEE rounding does
 *   float -> wider float      exact (a NaN comes out quiet)
 *   f32 -> f32                rounded to an integral value by rmode
 *   float -> int              rounded to an integer by rmode (ODD: ties to
 *                             odd), then saturated (NaN gives 0); without
 *                             saturation, saturated to 32 bits and the low
 *                             bits kept (a5/TCvt.hpp's NonSatTorch paths)
 *   int -> float              exactly to f64 (a 64-bit integer compressed
 *                             to 53 bits with a sticky bit, which keeps the
 *                             one rounding exact), then rounded by rmode
 *   int -> int                extended or truncated; with saturation,
 *                             clamped to dst's range
 *
 * rmode defaults to RINT (NONE and CAST_RINT are RINT too); sat_mode
 * defaults as the hardware library's TCVT without one: OFF for the narrowing
 * pairs f16->ui8/i8/i16, f32->i16, i64->i32, i32->i16, ON for every other
 * (docs/decisions.md).
 */
#include "codegen/codegen_internal.h"

#include <string.h>

/* How one tcvt converts. */
typedef struct cvt_how {
    cg_round_mode mode;
    bool sat;
    const ptoc_type *se, *de;
} cvt_how;

/* ---------------------------------------------------------------- attributes */

static cg_round_mode round_mode_of(const ptoc_op *op)
{
    /* NONE RINT ROUND FLOOR CEIL TRUNC ODD CAST_RINT, as pto_attrs.c numbers them */
    static const cg_round_mode modes[] = {CG_ROUND_R, CG_ROUND_R, CG_ROUND_A, CG_ROUND_F,
                                          CG_ROUND_C, CG_ROUND_Z, CG_ROUND_O, CG_ROUND_R};
    ptoc_attr *a = ptoc_op_attr(op, "rmode");
    uint32_t v;
    if (!a || !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_ROUND_MODE, &v) || v >= sizeof modes / sizeof modes[0])
        return CG_ROUND_R;
    return modes[v];
}

static bool is_kind(const ptoc_type *t, ptoc_float_kind k) { return ptoc_type_is_float(t) && t->u.fp.kind == k; }

static bool is_int_of(const ptoc_type *t, unsigned bits, bool is_unsigned)
{
    return ptoc_type_is_int(t) && ptoc_type_bitwidth(t) == bits && cg_is_unsigned(t) == is_unsigned;
}

/* The pairs whose hardware default is no saturation (a2a3/TCvt.hpp's
 * narrowing list; a5/TCvt.hpp's NonSatTorch paths). */
static bool narrowing_pair(const ptoc_type *se, const ptoc_type *de)
{
    if (is_kind(se, PTOC_F16))
        return is_int_of(de, 8, true) || is_int_of(de, 8, false) || is_int_of(de, 16, false);
    if (is_kind(se, PTOC_F32))
        return is_int_of(de, 16, false);
    return (is_int_of(se, 64, false) && is_int_of(de, 32, false)) ||
           (is_int_of(se, 32, false) && is_int_of(de, 16, false));
}

static bool saturating(const ptoc_op *op, const ptoc_type *se, const ptoc_type *de)
{
    ptoc_attr *a = ptoc_op_attr(op, "sat_mode");
    uint32_t v;
    if (a && ptoc_pto_enum_value(a, PTOC_PTO_ENUM_SATURATION_MODE, &v))
        return v == 0;   /* ON */
    return !narrowing_pair(se, de);
}

/* ---------------------------------------------------------------- conversions */

static LLVMTypeRef lanes_of(LLVMTypeRef elem, unsigned n) { return LLVMVectorType(elem, n); }

/* Float lanes from their bits, as f32 exactly (f16 and bf16 widen), NaNs quiet. */
static LLVMValueRef float_value(cg *g, LLVMValueRef bits, const ptoc_type *se, unsigned n)
{
    LLVMValueRef v;
    if (is_kind(se, PTOC_F16))
        v = LLVMBuildFPExt(g->b, LLVMBuildBitCast(g->b, bits, lanes_of(g->f16, n), ""), lanes_of(g->f32, n), "");
    else if (is_kind(se, PTOC_BF16))
        v = LLVMBuildBitCast(g->b, cg_bf16_to_f32(g, bits), lanes_of(g->f32, n), "");   /* 1 lane: a scalar */
    else
        v = LLVMBuildBitCast(g->b, bits, lanes_of(g->f32, n), "");
    LLVMTypeRef it = lanes_of(g->i32, n);
    LLVMValueRef raw = LLVMBuildBitCast(g->b, v, it, "");
    LLVMValueRef quiet = LLVMBuildOr(g->b, raw, cg_const_int(it, 0x400000), "");
    LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, v, v, "");
    return LLVMBuildBitCast(g->b, LLVMBuildSelect(g->b, nan, quiet, raw, ""), LLVMTypeOf(v), "");
}

/* v rounded to an integral value by mode; O rounds to nearest with ties to
 * odd (cpu/TCvt.hpp's CAST_ODD for integers). */
static LLVMValueRef integral(cg *g, LLVMValueRef v, cg_round_mode mode)
{
    static const char *const fns[] = {"llvm.roundeven", "llvm.round", "llvm.floor", "llvm.ceil", "llvm.trunc"};
    LLVMTypeRef t = LLVMTypeOf(v);
    if (mode != CG_ROUND_O)
        return cg_call_intrinsic(g, fns[mode], t, &v, 1);
    LLVMBuilderRef b = g->b;
    LLVMValueRef half = LLVMConstReal(LLVMGetElementType(t), 0.5);
    half = cg_splat(g, half, LLVMGetVectorSize(t));
    LLVMValueRef f = cg_call_intrinsic(g, "llvm.floor", t, &v, 1);
    LLVMValueRef up = LLVMBuildFAdd(b, f, LLVMBuildFAdd(b, half, half, ""), "");
    LLVMValueRef frac = LLVMBuildFSub(b, v, f, "");
    LLVMValueRef h = LLVMBuildFMul(b, f, half, "");
    LLVMValueRef f_odd = LLVMBuildFCmp(b, LLVMRealONE, h, cg_call_intrinsic(g, "llvm.floor", t, &h, 1), "");
    LLVMValueRef tie = LLVMBuildSelect(b, f_odd, f, up, "");
    LLVMValueRef r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, frac, half, ""), up, f, "");
    r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, frac, half, ""), tie, r, "");
    /* the sign kept as IEEE rounding keeps it (-0.3 to -0); infinities and
     * NaNs pass through (frac is NaN there) */
    LLVMValueRef sv[2] = {r, v};
    r = cg_call_intrinsic(g, "llvm.copysign", t, sv, 2);
    return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, frac, frac, ""), v, r, "");
}

static LLVMValueRef float_to_float(cg *g, const cvt_how *h, LLVMValueRef bits, unsigned n)
{
    LLVMValueRef v = float_value(g, bits, h->se, n);
    ptoc_float_kind to = h->de->u.fp.kind;
    if (to == PTOC_F32 && is_kind(h->se, PTOC_F32))
        return LLVMBuildBitCast(g->b, integral(g, v, h->mode), lanes_of(g->i32, n), "");
    if (to == PTOC_F32)
        return LLVMBuildBitCast(g->b, v, lanes_of(g->i32, n), "");
    return cg_round_float(g, v, to, h->mode, h->sat);
}

static LLVMValueRef float_to_int(cg *g, const cvt_how *h, LLVMValueRef bits, unsigned n)
{
    LLVMValueRef v = integral(g, float_value(g, bits, h->se, n), h->mode);
    unsigned dw = ptoc_type_bitwidth(h->de);
    LLVMTypeRef ty = lanes_of(LLVMIntTypeInContext(g->llctx, dw), n);
    if (h->sat)
        return cg_float_to_int_sat(g, v, ty, cg_is_unsigned(h->de));
    LLVMValueRef w = cg_float_to_int_sat(g, v, lanes_of(dw > 32 ? g->i64 : g->i32, n), false);
    return LLVMTypeOf(w) == ty ? w : LLVMBuildTrunc(g->b, w, ty, "");
}

/* A 64-bit integer as a double with the same rounding to any narrower
 * format: its magnitude cut to 53 significant bits, a dropped 1 kept as a
 * sticky last bit (round to odd), which the double holds exactly. */
static LLVMValueRef int64_as_double(cg *g, LLVMValueRef x, bool is_unsigned, unsigned n)
{
    LLVMBuilderRef b = g->b;
    LLVMTypeRef it = lanes_of(g->i64, n), dt = lanes_of(g->f64, n);
    LLVMValueRef zero = cg_const_int(it, 0);
    LLVMValueRef neg = is_unsigned ? NULL : LLVMBuildICmp(b, LLVMIntSLT, x, zero, "");
    LLVMValueRef m = neg ? LLVMBuildSelect(b, neg, LLVMBuildNeg(b, x, ""), x, "") : x;
    LLVMValueRef args[2] = {m, LLVMConstInt(g->i1, 0, false)};
    LLVMValueRef lz = cg_call_intrinsic(g, "llvm.ctlz", it, args, 2);
    LLVMValueRef over = LLVMBuildSub(b, cg_const_int(it, 11), lz, "");
    LLVMValueRef drop = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, over, zero, ""), over, zero, "");
    LLVMValueRef kept = LLVMBuildLShr(b, m, drop, "");
    LLVMValueRef lost = LLVMBuildAnd(b, m, LLVMBuildSub(b, LLVMBuildShl(b, cg_const_int(it, 1), drop, ""),
                                                        cg_const_int(it, 1), ""), "");
    kept = LLVMBuildOr(b, kept, LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntNE, lost, zero, ""), it, ""), "");
    LLVMValueRef scale = LLVMBuildBitCast(b, LLVMBuildShl(b, LLVMBuildAdd(b, drop, cg_const_int(it, 1023), ""),
                                                          cg_const_int(it, 52), ""), dt, "");
    LLVMValueRef d = LLVMBuildFMul(b, LLVMBuildUIToFP(b, kept, dt, ""), scale, "");
    return neg ? LLVMBuildSelect(b, neg, LLVMBuildFNeg(b, d, ""), d, "") : d;
}

static LLVMValueRef int_to_float(cg *g, const cvt_how *h, LLVMValueRef x, unsigned n)
{
    bool u = cg_is_unsigned(h->se);
    LLVMValueRef d = ptoc_type_bitwidth(h->se) == 64 ? int64_as_double(g, x, u, n)
                     : u ? LLVMBuildUIToFP(g->b, x, lanes_of(g->f64, n), "")
                         : LLVMBuildSIToFP(g->b, x, lanes_of(g->f64, n), "");
    return cg_round_float(g, d, h->de->u.fp.kind, h->mode, h->sat);
}

static uint64_t low_ones(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static uint64_t int_max(unsigned bits, bool is_unsigned) { return low_ones(is_unsigned ? bits : bits - 1); }

/* The low bits, extended by the source's sign; with saturation clamped to
 * dst's range (compared in the source's type, which holds the bound). */
static LLVMValueRef int_to_int(cg *g, const cvt_how *h, LLVMValueRef v, unsigned n)
{
    unsigned sw = ptoc_type_bitwidth(h->se), dw = ptoc_type_bitwidth(h->de);
    bool su = cg_is_unsigned(h->se), du = cg_is_unsigned(h->de);
    LLVMTypeRef st = LLVMTypeOf(v), ty = lanes_of(LLVMIntTypeInContext(g->llctx, dw), n);
    LLVMValueRef r = sw > dw ? LLVMBuildTrunc(g->b, v, ty, "") : sw == dw ? v
                     : su    ? LLVMBuildZExt(g->b, v, ty, "") : LLVMBuildSExt(g->b, v, ty, "");
    if (!h->sat)
        return r;
    uint64_t dmax = int_max(dw, du);
    if (dmax < int_max(sw, su)) {
        LLVMValueRef big = LLVMBuildICmp(g->b, su ? LLVMIntUGT : LLVMIntSGT, v, cg_const_int(st, dmax), "");
        r = LLVMBuildSelect(g->b, big, cg_const_int(ty, dmax), r, "");
    }
    if (!su && (du || dw < sw)) {
        LLVMValueRef least = cg_const_int(st, du ? 0 : (~0ull << (dw - 1)) & low_ones(sw));
        LLVMValueRef small = LLVMBuildICmp(g->b, LLVMIntSLT, v, least, "");
        r = LLVMBuildSelect(g->b, small, cg_const_int(ty, du ? 0 : 1ull << (dw - 1)), r, "");
    }
    return r;
}

/* n lanes of src's bits -> n lanes of dst's bits. */
static LLVMValueRef convert(cg *g, const cvt_how *h, LLVMValueRef bits, unsigned n)
{
    bool sf = ptoc_type_is_float(h->se), df = ptoc_type_is_float(h->de);
    return sf && df ? float_to_float(g, h, bits, n)
           : sf     ? float_to_int(g, h, bits, n)
           : df     ? int_to_float(g, h, bits, n)
                    : int_to_int(g, h, bits, n);
}

/* The one conversion of every target: the A2/A3 model's vconv converts as tcvt does. */
LLVMValueRef cg_convert_bits(cg *g, const ptoc_type *se, const ptoc_type *de, cg_round_mode mode, bool sat,
                             LLVMValueRef bits, unsigned n)
{
    cvt_how h = {mode, sat, se, de};
    return convert(g, &h, bits, n);
}

/* ---------------------------------------------------------------- the loop nest */

static bool unboxed_row_major(const cg_tile *t)
{
    return t->desc.blayout == PTOC_PTO_BL_ROW_MAJOR && t->desc.slayout == PTOC_PTO_SL_NONE_BOX;
}

static LLVMValueRef lane_ptr(cg *g, const cg_tile *t, LLVMValueRef row_ptr, LLVMValueRef row, LLVMValueRef col)
{
    if (row_ptr)
        return LLVMBuildInBoundsGEP2(g->b, LLVMIntTypeInContext(g->llctx, t->esize * 8), row_ptr, &col, 1, "");
    return cg_tile_elem_ptr(g, t, row, col);
}

/* dst[row, col .. col+n) = convert(src[row, col .. col+n)), as bits. */
static void emit_step(cg *g, const cvt_how *h, const cg_tile *src, const cg_tile *dst, LLVMValueRef const rp[2],
                      LLVMValueRef row, LLVMValueRef col, unsigned n)
{
    LLVMTypeRef st = lanes_of(LLVMIntTypeInContext(g->llctx, src->esize * 8), n);
    LLVMValueRef ld = LLVMBuildLoad2(g->b, st, lane_ptr(g, src, rp[0], row, col), "");
    LLVMSetAlignment(ld, src->esize);
    LLVMValueRef r = convert(g, h, ld, n);
    LLVMValueRef stv = LLVMBuildStore(g->b, r, lane_ptr(g, dst, rp[1], row, col));
    LLVMSetAlignment(stv, dst->esize);
}

static void emit_loop_nest(cg *g, const cvt_how *h, const cg_tile *src, const cg_tile *dst)
{
    enum { LANES = 8 };
    bool rows = unboxed_row_major(src) && unboxed_row_major(dst);
    bool vec = rows && src->desc.cols % LANES == 0 && dst->desc.cols % LANES == 0;
    LLVMValueRef zero = cg_i64(g, 0), first = zero;
    cg_loop r, v, c;
    cg_loop_begin(g, &r, zero, dst->vrows, "cvt.row");
    LLVMValueRef rp[2] = {rows ? cg_tile_row_ptr(g, src, r.iv) : NULL, rows ? cg_tile_row_ptr(g, dst, r.iv) : NULL};
    if (vec) {
        LLVMValueRef nvecs = LLVMBuildUDiv(g->b, dst->vcols, cg_i64(g, LANES), "cvt.vecs");
        cg_loop_begin(g, &v, zero, nvecs, "cvt.vec");
        emit_step(g, h, src, dst, rp, r.iv, LLVMBuildMul(g->b, v.iv, cg_i64(g, LANES), ""), LANES);
        cg_loop_end(g, &v);
        first = LLVMBuildMul(g->b, nvecs, cg_i64(g, LANES), "cvt.rest");
    }
    cg_loop_begin(g, &c, first, dst->vcols, "cvt.col");
    emit_step(g, h, src, dst, rp, r.iv, c.iv, 1);
    c.remainder = vec;
    cg_loop_end(g, &c);
    cg_loop_end(g, &r);
}

/* ---------------------------------------------------------------- rules */

/* tcvt ins(%src[, %tmp]) outs(%dst) {rmode, sat_mode}: tmp is the A2/A3
 * library's scratch; the cpu target needs none. */
static bool lower_tcvt(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (!cg_check_computable(op, "src", src.elem) || !cg_check_computable(op, "dst", dst.elem))
        return false;
    cvt_how h = {round_mode_of(op), saturating(op, src.elem, dst.elem), src.elem, dst.elem};
    emit_loop_nest(g, &h, &src, &dst);
    return true;
}

const cg_rule cg_pto_convert_rules[] = {
    {PTO(TCVT), lower_tcvt, 0},
};
const size_t cg_pto_convert_rule_count = sizeof cg_pto_convert_rules / sizeof cg_pto_convert_rules[0];
