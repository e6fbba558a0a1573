/* lower_pto_unary.c: the unary tile ops on the cpu target.
 *
 *   tabs tneg tnot trelu       dst[i,j] = f(src[i,j]), as the vector micro-ops
 *                              compute them (cg_vop_unary): integers wrap
 *                              (abs(INT_MIN) = INT_MIN), tneg flips a float's
 *                              sign bit, trelu is src > 0 ? src : 0
 *   tsqrt trsqrt trecip        sqrt(x), 1 / sqrt(x), 1 / x: IEEE operations,
 *                              correctly rounded in the compute type; integer
 *                              trecip is 1 / x with x/0 = -1 (cg_int_div)
 *   texp tlog                  a fixed sequence of float operations (below)
 *
 * One loop nest over dst's valid region, one element at a time through
 * cg_tile_elem_ptr; every operation here vectorises, so LLVM's loop vectoriser
 * does the rest. f16 computes in float and rounds on store.
 *
 * exp and log are not libm's: a kernel must give the same bits on every host,
 * whatever its libm or its vector extensions, so both are written out here as
 * float additions, multiplications, one division (log) and bit operations, in
 * an order the C reference (test/reference/ref_reduce.c) repeats operation for
 * operation. No fused multiply-add: LLVM contracts nothing without fast-math
 * flags. exp: Cody-Waite reduction by ln 2 (n rounded to nearest even by the
 * 1.5 * 2^23 trick), a degree-7 Taylor polynomial on |r| <= ln2/2 in Horner
 * form, and 2^n applied as two exact power-of-two factors so that results
 * near overflow and in the subnormal range round once. log: x = 2^e * m with m
 * in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s), s = (m-1)/(m+1), as a series in
 * s^2 to s^9; subnormals are scaled by 2^23 first. docs/decisions.md gives
 * the error bounds against the exact functions. They are the one exp and log
 * of every target: cg_exp_f32 and cg_log_f32 (scalars or vectors) also define
 * expdif's e^ and the models' vexp/vln (codegen_internal.h).
 */
#include "codegen/codegen_internal.h"

#include <math.h>

typedef enum un_op { UN_ABS, UN_NEG, UN_NOT, UN_RELU, UN_SQRT, UN_RSQRT, UN_RECIP, UN_EXP, UN_LOG } un_op;

/* ---------------------------------------------------------------- exp and log */

/* The sequences run on an f32 value or a vector of them (the target models'
 * blocks and registers); `x` gives the shape every constant takes. */
static LLVMValueRef shaped(cg *g, LLVMValueRef x, LLVMValueRef c)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? cg_splat(g, c, LLVMGetVectorSize(t)) : c;
}

static LLVMTypeRef shaped_type(LLVMValueRef x, LLVMTypeRef scalar)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMVectorType(scalar, LLVMGetVectorSize(t)) : scalar;
}

static LLVMValueRef fconst(cg *g, LLVMValueRef x, float v) { return shaped(g, x, LLVMConstReal(g->f32, v)); }

static LLVMValueRef iconst(cg *g, LLVMValueRef x, int32_t v) { return shaped(g, x, cg_i32(g, v)); }

static LLVMValueRef fbits(cg *g, LLVMValueRef i32)
{
    return LLVMBuildBitCast(g->b, i32, shaped_type(i32, g->f32), "");
}

/* 2^k as a float for an i32 k in [-126, 127]. */
static LLVMValueRef pow2(cg *g, LLVMValueRef k)
{
    LLVMValueRef e = LLVMBuildAdd(g->b, k, iconst(g, k, 127), "");
    return fbits(g, LLVMBuildShl(g->b, e, iconst(g, k, 23), ""));
}

static LLVMValueRef fsel(cg *g, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b, LLVMValueRef t,
                         LLVMValueRef f)
{
    return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, p, a, b, ""), t, f, "");
}

static LLVMValueRef horner(cg *g, LLVMValueRef x, const float *c, int n)
{
    LLVMValueRef p = fconst(g, x, c[0]);
    for (int i = 1; i < n; i++)
        p = LLVMBuildFAdd(g->b, LLVMBuildFMul(g->b, p, x, ""), fconst(g, x, c[i]), "");
    return p;
}

/* Cephes' split of ln 2: C1 exact in 9 bits, C1 + C2 = ln 2. */
#define LN2_C1 0.693359375f
#define LN2_C2 (-2.12194440e-4f)

LLVMValueRef cg_exp_f32(cg *g, LLVMValueRef x0)
{
    static const float taylor[] = {1.0f / 5040, 1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f, 1.0f, 1.0f};
    LLVMBuilderRef B = g->b;
    LLVMValueRef x = fsel(g, LLVMRealOGT, x0, fconst(g, x0, 89.0f), fconst(g, x0, 89.0f), x0);
    x = fsel(g, LLVMRealOLT, x, fconst(g, x0, -104.0f), fconst(g, x0, -104.0f), x);
    LLVMValueRef t = LLVMBuildFAdd(B, LLVMBuildFMul(B, x, fconst(g, x0, 1.44269504f), ""),
                                   fconst(g, x0, 12582912.0f), "");
    LLVMValueRef nf = LLVMBuildFSub(B, t, fconst(g, x0, 12582912.0f), "exp.n");
    LLVMValueRef r = LLVMBuildFSub(B, x, LLVMBuildFMul(B, nf, fconst(g, x0, LN2_C1), ""), "");
    r = LLVMBuildFSub(B, r, LLVMBuildFMul(B, nf, fconst(g, x0, LN2_C2), ""), "exp.r");
    LLVMValueRef p = horner(g, r, taylor, 8);
    LLVMValueRef n = LLVMBuildFPToSI(B, nf, shaped_type(x0, g->i32), "");
    LLVMValueRef n1 = LLVMBuildSDiv(B, n, iconst(g, x0, 2), "");
    LLVMValueRef n2 = LLVMBuildSub(B, n, n1, "");
    LLVMValueRef y = LLVMBuildFMul(B, LLVMBuildFMul(B, p, pow2(g, n1), ""), pow2(g, n2), "exp");
    return fsel(g, LLVMRealUNO, x0, x0, x0, y);
}

LLVMValueRef cg_log_f32(cg *g, LLVMValueRef x0)
{
    static const float series[] = {2.0f / 9, 2.0f / 7, 2.0f / 5, 2.0f / 3};
    LLVMBuilderRef B = g->b;
    LLVMValueRef tiny = LLVMBuildFCmp(B, LLVMRealOLT, x0, fconst(g, x0, 0x1p-126f), "");
    LLVMValueRef x = LLVMBuildSelect(B, tiny, LLVMBuildFMul(B, x0, fconst(g, x0, 0x1p23f), ""), x0, "");
    LLVMValueRef e = LLVMBuildSelect(B, tiny, iconst(g, x0, -23), iconst(g, x0, 0), "");
    LLVMValueRef u = LLVMBuildBitCast(B, x, shaped_type(x0, g->i32), "");
    e = LLVMBuildAdd(B, e, LLVMBuildSub(B, LLVMBuildLShr(B, u, iconst(g, x0, 23), ""), iconst(g, x0, 127), ""), "");
    LLVMValueRef m = fbits(g, LLVMBuildOr(B, LLVMBuildAnd(B, u, iconst(g, x0, 0x007fffff), ""),
                                          iconst(g, x0, 0x3f800000), ""));
    LLVMValueRef big = LLVMBuildFCmp(B, LLVMRealOGT, m, fconst(g, x0, 1.41421356f), "");
    m = LLVMBuildSelect(B, big, LLVMBuildFMul(B, m, fconst(g, x0, 0.5f), ""), m, "");
    e = LLVMBuildAdd(B, e, LLVMBuildZExt(B, big, shaped_type(x0, g->i32), ""), "");
    LLVMValueRef f = LLVMBuildFSub(B, m, fconst(g, x0, 1.0f), "");
    LLVMValueRef s = LLVMBuildFDiv(B, f, LLVMBuildFAdd(B, fconst(g, x0, 2.0f), f, ""), "log.s");
    LLVMValueRef z = LLVMBuildFMul(B, s, s, "");
    LLVMValueRef R = LLVMBuildFMul(B, z, horner(g, z, series, 4), "");
    LLVMValueRef lm = LLVMBuildFAdd(B, LLVMBuildFMul(B, fconst(g, x0, 2.0f), s, ""), LLVMBuildFMul(B, s, R, ""), "");
    LLVMValueRef ef = LLVMBuildSIToFP(B, e, shaped_type(x0, g->f32), "");
    LLVMValueRef y = LLVMBuildFAdd(B, lm, LLVMBuildFMul(B, ef, fconst(g, x0, LN2_C2), ""), "");
    y = LLVMBuildFAdd(B, y, LLVMBuildFMul(B, ef, fconst(g, x0, LN2_C1), ""), "log");
    LLVMValueRef inf = fconst(g, x0, INFINITY);
    y = fsel(g, LLVMRealOEQ, x0, inf, inf, y);
    y = fsel(g, LLVMRealOLT, x0, fconst(g, x0, 0.0f), fbits(g, iconst(g, x0, 0x7fc00000)), y);
    y = fsel(g, LLVMRealOEQ, x0, fconst(g, x0, 0.0f), LLVMBuildFNeg(B, inf, ""), y);
    return fsel(g, LLVMRealUNO, x0, x0, x0, y);
}

LLVMValueRef cg_exp_log_lanes(cg *g, bool log, LLVMValueRef a)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    bool narrow = shaped_type(a, g->f32) != t;      /* f16 lanes: in f32, rounded once */
    LLVMValueRef x = narrow ? LLVMBuildFPExt(g->b, a, shaped_type(a, g->f32), "") : a;
    LLVMValueRef y = log ? cg_log_f32(g, x) : cg_exp_f32(g, x);
    return narrow ? LLVMBuildFPTrunc(g->b, y, t, "") : y;
}

/* ---------------------------------------------------------------- one element */

static LLVMValueRef apply(cg *g, un_op op, const ptoc_type *elem, LLVMValueRef a)
{
    LLVMBuilderRef B = g->b;
    LLVMTypeRef t = LLVMTypeOf(a);
    bool fp = ptoc_type_is_float(elem);
    switch (op) {
    case UN_ABS: return cg_vop_unary(g, VU_ABS, elem, a);
    case UN_NEG: return cg_vop_unary(g, VU_NEG, elem, a);
    case UN_NOT: return cg_vop_unary(g, VU_NOT, elem, a);
    case UN_RELU: return cg_vop_unary(g, VU_RELU, elem, a);
    case UN_SQRT: return cg_vop_unary(g, VU_SQRT, elem, a);
    case UN_RSQRT: return LLVMBuildFDiv(B, LLVMConstReal(t, 1.0), cg_vop_unary(g, VU_SQRT, elem, a), "");
    case UN_RECIP:
        if (fp)
            return LLVMBuildFDiv(B, LLVMConstReal(t, 1.0), a, "");
        return cg_int_div(g, LLVMConstInt(t, 1, false), a, cg_is_unsigned(elem));
    case UN_EXP: return cg_exp_f32(g, a);
    case UN_LOG: return cg_log_f32(g, a);
    }
    return a;
}

/* The ops a dtype row allows but that have no meaning on its kind. */
static bool check_kind(ptoc_op *op, un_op k, const ptoc_type *elem)
{
    bool fp = ptoc_type_is_float(elem);
    bool float_only = k == UN_SQRT || k == UN_RSQRT || k == UN_EXP || k == UN_LOG;
    bool f64 = fp && elem->u.fp.kind == PTOC_F64;
    if ((float_only && (!fp || f64)) || (k == UN_NOT && fp)) {
        ptoc_op_emit_error(op, "is not supported for this element type by the cpu target");
        return false;
    }
    return true;
}

static bool lower_unary(cg *g, ptoc_op *op, const cg_rule *rule)
{
    un_op k = (un_op)rule->arg;
    cg_tile src, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (src.elem != dst.elem) {
        ptoc_op_emit_error(op, "source and destination element types differ");
        return false;
    }
    if (!cg_check_computable(op, "dst", dst.elem) || !check_kind(op, k, dst.elem))
        return false;
    cg_loop rows, cols;
    cg_loop_begin(g, &rows, cg_i64(g, 0), dst.vrows, "un.row");
    cg_loop_begin(g, &cols, cg_i64(g, 0), dst.vcols, "un.col");
    LLVMValueRef a = cg_load_elem(g, src.elem, cg_tile_elem_ptr(g, &src, rows.iv, cols.iv));
    cg_store_elem(g, dst.elem, cg_tile_elem_ptr(g, &dst, rows.iv, cols.iv), apply(g, k, dst.elem, a));
    cg_loop_end(g, &cols);
    cg_loop_end(g, &rows);
    return true;
}

const cg_rule cg_pto_unary_rules[] = {
    {PTO(TABS), lower_unary, UN_ABS},     {PTO(TNEG), lower_unary, UN_NEG},
    {PTO(TNOT), lower_unary, UN_NOT},     {PTO(TRELU), lower_unary, UN_RELU},
    {PTO(TSQRT), lower_unary, UN_SQRT},   {PTO(TRSQRT), lower_unary, UN_RSQRT},
    {PTO(TRECIP), lower_unary, UN_RECIP}, {PTO(TEXP), lower_unary, UN_EXP},
    {PTO(TLOG), lower_unary, UN_LOG},
};
const size_t cg_pto_unary_rule_count = sizeof cg_pto_unary_rules / sizeof cg_pto_unary_rules[0];
