/* lower_pto_cube.c: the cube unit's matrix multiply on the cpu target.
 *
 *   tmatmul       dst[i,j] = sum_k lhs[i,k] * rhs[k,j]
 *   tmatmul.acc   dst[i,j] = acc_in[i,j] + sum_k lhs[i,k] * rhs[k,j]
 *   tmatmul.bias  dst[i,j] = (sum_k lhs[i,k] * rhs[k,j]) + bias[0,j]
 *
 * over i < M = lhs's valid rows, j < N = rhs's valid columns, k < K = lhs's
 * valid columns, as pto-isa's CPU reference (include/pto/cpu/TMatmul.hpp,
 * TMatmulNzZn) computes it: each product is formed in the accumulator's type
 * (f16/bf16/f32 widen to f32 exactly, i8 sign-extends to i32) and summed in
 * ascending k from zero; an f32 sum is one fused multiply-add per k (llvm.fma,
 * correctly rounded, so the host's fmaf gives the same bits), an i32 sum wraps.
 * The accumulator or the bias is added once, after the sum.
 *
 *   tgemv, .acc, .bias   the same for row 0 alone (M = 1), K = rhs's valid
 *                rows: the A5 implementation hands the cube m = 1 whatever
 *                lhs's shape (pto-isa's CPU reference would use lhs's rows)
 *   tmatmul.mx, tgemv.mx (.acc, .bias)   f8 operands with scale tiles:
 *                sum += a[i,k] * b[k,j] * (a_scale[i,k/32] * b_scale[k/32,j]),
 *                product and scales in double, the sum rounded to f32 at each
 *                step (the CPU reference's TMatmulMX); a scale is an e8m0
 *                exponent held in an 8-bit integer tile, or a float tile's value
 *
 * f8 operands (any of MLIR's f8 kinds) widen to f32 exactly through a table.
 *
 * Operands sit in the cube's spaces: lhs in left, rhs in right, dst and acc_in
 * in acc, bias in bias (one row); their fractal layouts are the ones the
 * reference's CheckMadValid asserts. Elements are addressed through
 * cg_tile_elem_ptr, so every boxed layout (nz, zn, zz) is indexed by its own
 * fractal arithmetic. The checks are the lowering's: the verifier's generated
 * dtype tests write these ops on vec tiles for every arch.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/runtime.h"

#include <math.h>

/* Which of the three forms a rule lowers, and (or-ed in) whether it is a gemv
 * (one row) and an mx op (scale tiles after lhs and rhs). */
typedef enum mm_form { MM_PLAIN, MM_ACC, MM_BIAS } mm_form;
enum { MM_FORM_MASK = 3, MM_GEMV = 4, MM_MX = 8 };

/* The operands of one matmul-family op. */
typedef struct mm_ops {
    mm_form form;
    bool gemv, mx;
    cg_tile lhs, rhs, extra, dst, lscale, rscale;
} mm_ops;

/* ---------------------------------------------------------------- checks */

static const char *space_name(uint32_t loc)
{
    static const char *const names[] = {"zero", "gm", "mat", "left", "right", "acc", "vec", "bias", "scaling"};
    return loc < sizeof names / sizeof names[0] ? names[loc] : "?";
}

static bool check_loc(ptoc_op *op, const char *role, const cg_tile *t, uint32_t want)
{
    if (t->desc.loc == want)
        return true;
    ptoc_op_emit_error(op, "%s must be a tile in loc=%s, got loc=%s", role, space_name(want), space_name(t->desc.loc));
    return false;
}

/* The fractal the cube reads: blayout any (-1) or the one given, slayout given. */
static bool check_fractal(ptoc_op *op, const char *role, const cg_tile *t, int blayout, uint32_t slayout)
{
    static const char *const bl[] = {"row_major", "col_major"};
    static const char *const sl[] = {"none_box", "row_major", "col_major"};
    if ((blayout < 0 || t->desc.blayout == (uint32_t)blayout) && t->desc.slayout == slayout)
        return true;
    ptoc_op_emit_error(op, "%s needs the cube's fractal blayout=%s, slayout=%s, got blayout=%s, slayout=%s", role,
                       blayout < 0 ? "any" : bl[blayout], sl[slayout], bl[t->desc.blayout & 1],
                       sl[t->desc.slayout % 3]);
    return false;
}

static bool has_memref_operand(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++)
        if (ptoc_op_operand(op, i)->type->kind == PTOC_TYPE_MEMREF)
            return true;
    return false;
}

static bool check_shapes(ptoc_op *op, const cg_tile *lhs, const cg_tile *rhs, const cg_tile *dst)
{
    const ptoc_pto_tile_desc *a = &lhs->desc, *b = &rhs->desc, *c = &dst->desc;
    if (a->rows == c->rows && a->cols == b->rows && b->cols == c->cols)
        return true;
    ptoc_op_emit_error(op, "shapes do not chain: lhs %lldx%lld, rhs %lldx%lld, dst %lldx%lld (want MxK, KxN, MxN)",
                       (long long)a->rows, (long long)a->cols, (long long)b->rows, (long long)b->cols,
                       (long long)c->rows, (long long)c->cols);
    return false;
}

/* An f8 type: the cube reads it (widened exactly), no other cpu op does. */
static bool is_f8(const ptoc_type *e)
{
    return ptoc_type_is_float(e) && e->u.fp.kind >= PTOC_F8E4M3 && e->u.fp.kind <= PTOC_F8E4M3B11FNUZ;
}

static bool check_input_elem(ptoc_op *op, const char *role, const ptoc_type *e)
{
    return is_f8(e) || cg_check_computable(op, role, e);
}

/* An mx scale tile: in loc=scaling, one element per 32 of K (a_scale M x
 * ceil(K/32) at least, b_scale ceil(K/32) x N at least), read as an e8m0
 * exponent (8-bit integer) or as the float it holds. */
static bool check_scale(ptoc_op *op, const char *role, const cg_tile *s, int64_t rows, int64_t cols)
{
    if (!check_loc(op, role, s, PTOC_PTO_AS_SCALING))
        return false;
    const ptoc_type *e = s->elem;
    if (!(ptoc_type_is_int(e) && ptoc_type_bitwidth(e) == 8) && !cg_check_computable(op, role, e))
        return false;
    if (ptoc_type_is_int(e) && ptoc_type_bitwidth(e) != 8) {
        ptoc_op_emit_error(op, "%s must hold e8m0 exponents (i8 or ui8) or floats", role);
        return false;
    }
    if (s->desc.rows >= rows && s->desc.cols >= cols)
        return true;
    ptoc_op_emit_error(
        op, "%s is %lldx%lld, too small for one scale per 32 elements of K (want at least %lldx%lld)", role,
        (long long)s->desc.rows, (long long)s->desc.cols, (long long)rows, (long long)cols);
    return false;
}

static bool check_operands(ptoc_op *op, const mm_ops *o)
{
    const cg_tile *lhs = &o->lhs, *rhs = &o->rhs, *extra = &o->extra, *dst = &o->dst;
    if (!check_loc(op, "lhs", lhs, PTOC_PTO_AS_LEFT) || !check_loc(op, "rhs", rhs, PTOC_PTO_AS_RIGHT) ||
        !check_loc(op, "dst", dst, PTOC_PTO_AS_ACC))
        return false;
    /* Memrefs carry no layout: they are read as the other ops read them. */
    if (!has_memref_operand(op) && (!check_fractal(op, "lhs", lhs, -1, PTOC_PTO_SL_ROW_MAJOR) ||
                                    !check_fractal(op, "rhs", rhs, PTOC_PTO_BL_ROW_MAJOR, PTOC_PTO_SL_COL_MAJOR) ||
                                    !check_fractal(op, "dst", dst, PTOC_PTO_BL_COL_MAJOR, PTOC_PTO_SL_ROW_MAJOR)))
        return false;
    if (!check_shapes(op, lhs, rhs, dst))
        return false;
    if (!check_input_elem(op, "lhs", lhs->elem) || !check_input_elem(op, "rhs", rhs->elem) ||
        !cg_check_computable(op, "dst", dst->elem))
        return false;
    if (o->mx) {
        int64_t groups = (lhs->desc.cols + 31) / 32;
        if (!check_scale(op, "a_scale", &o->lscale, lhs->desc.rows, groups) ||
            !check_scale(op, "b_scale", &o->rscale, groups, rhs->desc.cols))
            return false;
    }
    if (o->form == MM_ACC &&
        (!check_loc(op, "acc_in", extra, PTOC_PTO_AS_ACC) || !check_shapes(op, lhs, rhs, extra)))
        return false;
    if (o->form == MM_BIAS) {
        if (!check_loc(op, "bias", extra, PTOC_PTO_AS_BIAS))
            return false;
        if (extra->desc.rows != 1 || extra->desc.cols != dst->desc.cols) {
            ptoc_op_emit_error(op, "bias must be one row of dst's %lld columns, got %lldx%lld",
                               (long long)dst->desc.cols, (long long)extra->desc.rows, (long long)extra->desc.cols);
            return false;
        }
    }
    if (o->form != MM_PLAIN && extra->elem != dst->elem) {
        ptoc_op_emit_error(op, "%s must have dst's element type", o->form == MM_ACC ? "acc_in" : "bias");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- f8 and e8m0 */

/* The value of f8 encoding `bits` of kind k: IEEE-like E5M2 and E4M3 (an
 * all-ones exponent is infinity or NaN), E4M3FN (only S.1111.111 is NaN), the
 * FNUZ kinds (0x80 is NaN, no infinity, no -0; biases 8, 16, 11). */
static float f8_value(ptoc_float_kind k, unsigned bits)
{
    unsigned mb = k == PTOC_F8E5M2 || k == PTOC_F8E5M2FNUZ ? 2 : 3, eb = 7 - mb;
    int bias = k == PTOC_F8E5M2 ? 15 : k == PTOC_F8E5M2FNUZ ? 16 : k == PTOC_F8E4M3FNUZ ? 8
             : k == PTOC_F8E4M3B11FNUZ ? 11 : 7;
    bool fnuz = k == PTOC_F8E4M3FNUZ || k == PTOC_F8E5M2FNUZ || k == PTOC_F8E4M3B11FNUZ;
    unsigned e = (bits >> mb) & ((1u << eb) - 1), m = bits & ((1u << mb) - 1), emax = (1u << eb) - 1;
    float sign = bits & 0x80 ? -1.0f : 1.0f;
    if (fnuz && bits == 0x80)
        return NAN;
    if (k == PTOC_F8E4M3FN && e == emax && m == 7)
        return sign * NAN;
    if ((k == PTOC_F8E5M2 || k == PTOC_F8E4M3) && e == emax)
        return m ? sign * NAN : sign * INFINITY;
    float frac = (float)m / (float)(1u << mb);
    return sign * (e ? ldexpf(1.0f + frac, (int)e - bias) : ldexpf(frac, 1 - bias));
}

/* A table of the 256 f8 values of kind k as f32 (exact: every f8 value is one). */
static LLVMValueRef f8_table(cg *g, ptoc_float_kind k)
{
    char name[32];
    snprintf(name, sizeof name, "ptoc.f8.%d", (int)k);
    LLVMValueRef gv = LLVMGetNamedGlobal(g->mod, name);
    if (gv)
        return gv;
    LLVMValueRef vals[256];
    for (unsigned i = 0; i < 256; i++)
        vals[i] = LLVMConstReal(g->f32, f8_value(k, i));
    LLVMValueRef init = LLVMConstArray(g->f32, vals, 256);
    gv = LLVMAddGlobal(g->mod, LLVMTypeOf(init), name);
    LLVMSetInitializer(gv, init);
    LLVMSetGlobalConstant(gv, true);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    return gv;
}

/* The f8 element at p as f32. */
static LLVMValueRef load_f8(cg *g, const ptoc_type *e, LLVMValueRef p)
{
    LLVMValueRef bits = LLVMBuildLoad2(g->b, g->i8, p, "f8");
    LLVMValueRef idx[2] = {cg_i64(g, 0), LLVMBuildZExt(g->b, bits, g->i64, "")};
    LLVMValueRef tab = f8_table(g, e->u.fp.kind);
    LLVMValueRef at = LLVMBuildInBoundsGEP2(g->b, LLVMArrayType(g->f32, 256), tab, idx, 2, "");
    return LLVMBuildLoad2(g->b, g->f32, at, "");
}

/* A scale element as a double: an 8-bit integer is an e8m0 exponent,
 * 2^(e-127) (e = 255 is NaN, as the OCP MX format has it); a float its value. */
static LLVMValueRef load_scale(cg *g, const cg_tile *s, LLVMValueRef r, LLVMValueRef c)
{
    LLVMBuilderRef B = g->b;
    LLVMValueRef p = cg_tile_elem_ptr(g, s, r, c);
    if (ptoc_type_is_float(s->elem))
        return LLVMBuildFPExt(B, cg_load_elem(g, s->elem, p), g->f64, "");
    LLVMValueRef e = LLVMBuildZExt(B, LLVMBuildLoad2(B, g->i8, p, "e8m0"), g->i64, "");
    LLVMValueRef bits = LLVMBuildShl(B, LLVMBuildAdd(B, e, cg_i64(g, 1023 - 127), ""), cg_i64(g, 52), "");
    LLVMValueRef nan = LLVMConstReal(g->f64, NAN);
    LLVMValueRef is_nan = LLVMBuildICmp(B, LLVMIntEQ, e, cg_i64(g, 255), "");
    return LLVMBuildSelect(B, is_nan, nan, LLVMBuildBitCast(B, bits, g->f64, ""), "scale");
}

/* ---------------------------------------------------------------- the loop nest */

/* One operand element, loaded and converted to the accumulator's type. */
static LLVMValueRef load_as(cg *g, const cg_tile *t, LLVMValueRef r, LLVMValueRef c, const ptoc_type *to)
{
    LLVMValueRef p = cg_tile_elem_ptr(g, t, r, c);
    if (is_f8(t->elem))
        return load_f8(g, t->elem, p);   /* only ever into an f32 accumulator */
    return cg_convert(g, cg_load_elem(g, t->elem, p), t->elem, to);
}

/* sum += a * b * scale as pto-isa's CPU reference forms it for mx: the product
 * and the scale in double (exact), the sum rounded back to f32 each step. */
static LLVMValueRef mx_step(cg *g, const mm_ops *o, LLVMValueRef i, LLVMValueRef j, LLVMValueRef k,
                            LLVMValueRef a, LLVMValueRef b, LLVMValueRef s)
{
    LLVMBuilderRef B = g->b;
    LLVMValueRef grp = LLVMBuildUDiv(B, k, cg_i64(g, 32), "");
    LLVMValueRef sf =
        LLVMBuildFMul(B, load_scale(g, &o->lscale, i, grp), load_scale(g, &o->rscale, grp, j), "");
    LLVMValueRef ab =
        LLVMBuildFMul(B, LLVMBuildFPExt(B, a, g->f64, ""), LLVMBuildFPExt(B, b, g->f64, ""), "");
    LLVMValueRef sum = LLVMBuildFAdd(B, LLVMBuildFPExt(B, s, g->f64, ""), LLVMBuildFMul(B, ab, sf, ""), "");
    return LLVMBuildFPTrunc(B, sum, g->f32, "");
}

/* One step of a sum: s + a * b, fused for floats (rounded once), wrapping
 * for integers; mx's own step (mx_step) is not one of these. */
static LLVMValueRef mm_step(cg *g, LLVMTypeRef ty, bool fp, LLVMValueRef a, LLVMValueRef b, LLVMValueRef s)
{
    if (!fp)
        return LLVMBuildAdd(g->b, s, LLVMBuildMul(g->b, a, b, ""), "");
    LLVMValueRef args[3] = {a, b, s};
    return cg_call_intrinsic(g, "llvm.fma", ty, args, 3);
}

/* dst[i,j] = sum (+ acc_in[i,j] or bias[0,j], added once after the sum). */
static void store_result(cg *g, const mm_ops *o, LLVMValueRef i, LLVMValueRef j, LLVMValueRef v)
{
    LLVMBuilderRef B = g->b;
    const ptoc_type *acc_t = o->dst.elem;
    bool fp = ptoc_type_is_float(acc_t);
    if (o->form != MM_PLAIN) {
        bool acc = o->form == MM_ACC;
        LLVMValueRef e = load_as(g, &o->extra, acc ? i : cg_i64(g, 0), j, acc_t);
        v = acc ? (fp ? LLVMBuildFAdd(B, e, v, "") : LLVMBuildAdd(B, e, v, ""))
                : (fp ? LLVMBuildFAdd(B, v, e, "") : LLVMBuildAdd(B, v, e, ""));
    }
    cg_store_elem(g, acc_t, cg_tile_elem_ptr(g, &o->dst, i, j), v);
}

/* The mx forms, i-j-k: one sum at a time, each step mx_step. */
static void emit_matmul_mx(cg *g, const mm_ops *o, LLVMValueRef m, LLVMValueRef kn, LLVMValueRef n)
{
    LLVMBuilderRef B = g->b;
    const ptoc_type *acc_t = o->dst.elem;
    LLVMTypeRef ty = cg_compute_type(g, acc_t);
    LLVMValueRef sum = cg_alloca(g, ty, "mm.sum");
    LLVMValueRef zero = cg_i64(g, 0);
    cg_loop i, j, k;
    cg_loop_begin(g, &i, zero, m, "mm.i");
    cg_loop_begin(g, &j, zero, n, "mm.j");
    LLVMBuildStore(B, LLVMConstReal(ty, 0.0), sum);
    cg_loop_begin(g, &k, zero, kn, "mm.k");
    LLVMValueRef a = load_as(g, &o->lhs, i.iv, k.iv, acc_t);
    LLVMValueRef b = load_as(g, &o->rhs, k.iv, j.iv, acc_t);
    LLVMBuildStore(B, mx_step(g, o, i.iv, j.iv, k.iv, a, b, LLVMBuildLoad2(B, ty, sum, "")), sum);
    cg_loop_end(g, &k);
    store_result(g, o, i.iv, j.iv, LLVMBuildLoad2(B, ty, sum, ""));
    cg_loop_end(g, &j);
    cg_loop_end(g, &i);
}

/* dst[i,j] over i < m, j < n of the sum over k < kn, as the header says.
 * The loops run i-k-j with row i's n sums in a stack array: every sum still
 * adds its products in ascending k from zero (the same bits as one sum at a
 * time), but the n sums are independent chains, so the j loop runs at the
 * multiply-add units' throughput instead of one fused multiply-add's latency
 * per step, and vectorises. */
static void emit_matmul(cg *g, const mm_ops *o, LLVMValueRef m, LLVMValueRef kn, LLVMValueRef n)
{
    if (o->mx) {
        emit_matmul_mx(g, o, m, kn, n);
        return;
    }
    LLVMBuilderRef B = g->b;
    const ptoc_type *acc_t = o->dst.elem;
    bool fp = ptoc_type_is_float(acc_t);
    LLVMTypeRef ty = cg_compute_type(g, acc_t);
    LLVMValueRef row = cg_alloca(g, LLVMArrayType2(ty, (uint64_t)o->dst.desc.cols), "mm.row");
    LLVMValueRef zero = cg_i64(g, 0);
    cg_loop i, j, k;
    cg_loop_begin(g, &i, zero, m, "mm.i");
    cg_loop_begin(g, &j, zero, n, "mm.zero");
    LLVMBuildStore(B, fp ? LLVMConstReal(ty, 0.0) : LLVMConstInt(ty, 0, false), LLVMBuildGEP2(B, ty, row, &j.iv, 1, ""));
    cg_loop_end(g, &j);
    cg_loop_begin(g, &k, zero, kn, "mm.k");
    LLVMValueRef a = load_as(g, &o->lhs, i.iv, k.iv, acc_t);
    cg_loop_begin(g, &j, zero, n, "mm.j");
    LLVMValueRef slot = LLVMBuildGEP2(B, ty, row, &j.iv, 1, "");
    LLVMValueRef b = load_as(g, &o->rhs, k.iv, j.iv, acc_t);
    LLVMBuildStore(B, mm_step(g, ty, fp, a, b, LLVMBuildLoad2(B, ty, slot, "")), slot);
    cg_loop_end(g, &j);
    cg_loop_end(g, &k);
    cg_loop_begin(g, &j, zero, n, "mm.out");
    store_result(g, o, i.iv, j.iv, LLVMBuildLoad2(B, ty, LLVMBuildGEP2(B, ty, row, &j.iv, 1, ""), ""));
    cg_loop_end(g, &j);
    cg_loop_end(g, &i);
}

/* ---------------------------------------------------------------- the FIX pipe */

/* A move out of acc (tmov to vec or mat, textract, tinsert, tstore) is the FIX
 * pipe's copy-out. Without quantisation each element is converted to dst's
 * type as pto-isa's CPU reference (include/pto/cpu/TMov.hpp) does it:
 * cg_convert's rules (f32 to f16/bf16 and i32 to floats round to nearest
 * even, f32 to i32 truncates saturating, NaN gives 0), then with
 * reluPreMode=normal_relu a value below zero becomes zero (-0 and NaN pass).
 *
 * With an fp tile (one 64-bit quant word per src column: a per-channel
 * "vector" quantisation; a tile of another type is read as 64-bit words) or a pre-quant scalar (one word for
 * all), the element is quantised as the CPU reference's quantize_element (include/pto/cpu/common.hpp) does,
 * by the (acc, dst) pair's quant mode: B8     f32 or i32 to i8/ui8: round_even(x * scale + offset), clamped
 * to
 *          [-128, 127] when the word's sign bit is set, else [0, 255]
 *   F16    f32 to f16: x * scale, a finite value clamped to +-65504
 *   BF16   f32 to bf16: x * scale
 *   DEQF16 i32 to f16: x * scale clamped to +-65504
 *   S16    i32 to i16: x >> (shift + 1), saturated to i16 (the reference casts
 *          to int16_t before its clamp, which then clamps nothing)
 * then relu (v > 0 ? v : 0) when asked, then the conversion to dst (floats
 * round to nearest even; an integer result is exact, NaN gives 0). The word:
 * scale is the f32 in bits 0..31 (scalar form), or for the vector form the
 * 19-bit float in bits 13..31 (sign, 8 exponent bits, 10 mantissa bits; zero
 * when both fields are); offset bits 37..45, sign bit 46, shift bits 32..35. */
enum { FQ_NONE, FQ_B8, FQ_F16, FQ_BF16, FQ_DEQF16, FQ_S16 };

static bool is_float_of(const ptoc_type *t, ptoc_float_kind k)
{
    return ptoc_type_is_float(t) && t->u.fp.kind == k;
}

static bool is_int_of(const ptoc_type *t, unsigned bits)
{
    return ptoc_type_is_int(t) && ptoc_type_bitwidth(t) == bits;
}

static int quant_mode(const ptoc_type *from, const ptoc_type *to)
{
    if (is_float_of(from, PTOC_F32))
        return is_int_of(to, 8) ? FQ_B8 : is_float_of(to, PTOC_F16) ? FQ_F16
             : is_float_of(to, PTOC_BF16) ? FQ_BF16 : FQ_NONE;
    if (is_int_of(from, 32))
        return is_int_of(to, 8) ? FQ_B8 : is_float_of(to, PTOC_F16) ? FQ_DEQF16
             : is_int_of(to, 16) && !cg_is_unsigned(to) ? FQ_S16 : FQ_NONE;
    return FQ_NONE;
}

bool cg_fix_init(cg *g, ptoc_op *op, cg_fix *fix, const cg_tile *src, const ptoc_type *to, const cg_tile *fp,
                 LLVMValueRef word)
{
    const ptoc_type *from = src->elem;
    (void)g;
    uint32_t relu = 0;
    ptoc_pto_enum_value(ptoc_op_attr(op, "reluPreMode"), PTOC_PTO_ENUM_RELU_PRE_MODE, &relu);
    *fix = (cg_fix){.relu = relu != 0, .vector = fp != NULL, .word = word, .from = from, .to = to};
    if (!cg_check_computable(op, "src", from) || !cg_check_computable(op, "dst", to))
        return false;
    if (!fp && !word)
        return true;
    fix->mode = quant_mode(from, to);
    if (fix->mode == FQ_NONE) {
        ptoc_op_emit_error(op, "a quantising move out of acc needs f32 to i8/ui8/f16/bf16 or i32 to "
                               "i8/ui8/f16/i16 (the FIX pipe's quant modes)");
        return false;
    }
    if (fp) {
        if (!check_loc(op, "fp", fp, PTOC_PTO_AS_SCALING))
            return false;
        /* The fixpipe buffer is read as 64-bit words whatever the tile's declared
         * type (PTOAS's kernels declare f16 and f32 ones): word j is the 8 bytes
         * at byte 8j, which for an i64/ui64 tile is element j of its row. */
        int64_t words = fp->desc.rows * fp->desc.cols * (int64_t)fp->esize / 8;
        if (!is_int_of(fp->elem, 64) && words < src->desc.cols) {
            ptoc_op_emit_error(op, "the fp tile holds %lld 64-bit quant words, fewer than src's %lld columns",
                               (long long)words, (long long)src->desc.cols);
            return false;
        }
        fix->fp = *fp;
    }
    return true;
}

/* The scale of quant word q as f32 (see above). */
static LLVMValueRef quant_scale(cg *g, const cg_fix *fix, LLVMValueRef q)
{
    LLVMBuilderRef B = g->b;
    if (!fix->vector)
        return LLVMBuildBitCast(B, LLVMBuildTrunc(B, q, g->i32, ""), g->f32, "scale");
    LLVMValueRef m1 = LLVMBuildAnd(B, LLVMBuildLShr(B, q, cg_i64(g, 13), ""), cg_i64(g, 0x7ffff), "");
    LLVMValueRef sign = LLVMBuildLShr(B, m1, cg_i64(g, 18), "");
    LLVMValueRef e = LLVMBuildAnd(B, LLVMBuildLShr(B, m1, cg_i64(g, 10), ""), cg_i64(g, 0xff), "");
    LLVMValueRef m = LLVMBuildAnd(B, m1, cg_i64(g, 0x3ff), "");
    /* sign * (1 + m/1024) * 2^(e-127), exact in double; rounded (only e = 255
     * overflows, to infinity) into f32 */
    LLVMValueRef bits = LLVMBuildOr(
        B, LLVMBuildShl(B, sign, cg_i64(g, 63), ""),
        LLVMBuildOr(B, LLVMBuildShl(B, LLVMBuildAdd(B, e, cg_i64(g, 1023 - 127), ""), cg_i64(g, 52), ""),
                    LLVMBuildShl(B, m, cg_i64(g, 42), ""), ""),
        "");
    LLVMValueRef f = LLVMBuildFPTrunc(B, LLVMBuildBitCast(B, bits, g->f64, ""), g->f32, "");
    LLVMValueRef zero = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildOr(B, e, m, ""), cg_i64(g, 0), "");
    return LLVMBuildSelect(B, zero, LLVMConstReal(g->f32, 0.0), f, "scale");
}

/* v < lo ? lo : hi < v ? hi : v, as std::clamp (NaN passes). */
static LLVMValueRef clamp_f(cg *g, LLVMValueRef v, LLVMValueRef lo, LLVMValueRef hi)
{
    LLVMBuilderRef B = g->b;
    LLVMValueRef up = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOLT, hi, v, ""), hi, v, "");
    return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOLT, v, lo, ""), lo, up, "");
}

static LLVMValueRef f32c(cg *g, double v) { return LLVMConstReal(g->f32, v); }

/* The quantised value of v (f32 or i32) by word q, before relu. */
static LLVMValueRef quantise(cg *g, const cg_fix *fix, LLVMValueRef v, LLVMValueRef q)
{
    LLVMBuilderRef B = g->b;
    if (fix->mode == FQ_S16) {
        LLVMValueRef shift = LLVMBuildAdd(
            B, LLVMBuildAnd(B, LLVMBuildLShr(B, q, cg_i64(g, 32), ""), cg_i64(g, 15), ""), cg_i64(g, 1), "");
        LLVMValueRef s = LLVMBuildAShr(B, v, LLVMBuildTrunc(B, shift, g->i32, ""), "");
        LLVMValueRef lo = cg_i32(g, -32768), hi = cg_i32(g, 32767);
        s = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, s, lo, ""), lo, s, "");
        return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, s, hi, ""), hi, s, "");
    }
    LLVMValueRef x = ptoc_type_is_int(fix->from) ? LLVMBuildSIToFP(B, v, g->f32, "") : v;
    LLVMValueRef r = LLVMBuildFMul(B, x, quant_scale(g, fix, q), "");
    if (fix->mode == FQ_B8) {
        LLVMValueRef off = LLVMBuildAnd(B, LLVMBuildLShr(B, q, cg_i64(g, 37), ""), cg_i64(g, 0x1ff), "");
        LLVMValueRef sign = LLVMBuildTrunc(B, LLVMBuildLShr(B, q, cg_i64(g, 46), ""), g->i1, "");
        LLVMValueRef args[1] = {LLVMBuildFAdd(B, r, LLVMBuildUIToFP(B, off, g->f32, ""), "")};
        r = cg_call_intrinsic(g, "llvm.roundeven", g->f32, args, 1);
        return clamp_f(g, r, LLVMBuildSelect(B, sign, f32c(g, -128), f32c(g, 0), ""),
                       LLVMBuildSelect(B, sign, f32c(g, 127), f32c(g, 255), ""));
    }
    if (fix->mode == FQ_DEQF16)
        return clamp_f(g, r, f32c(g, -65504), f32c(g, 65504));
    if (fix->mode == FQ_F16) {
        LLVMValueRef args[1] = {r};
        LLVMValueRef mag = cg_call_intrinsic(g, "llvm.fabs", g->f32, args, 1);
        LLVMValueRef finite = LLVMBuildFCmp(B, LLVMRealOLT, mag, f32c(g, INFINITY), "");
        return LLVMBuildSelect(B, finite, clamp_f(g, r, f32c(g, -65504), f32c(g, 65504)), r, "");
    }
    return r;                                   /* FQ_BF16: clamping to +-FLT_MAX changes no finite value */
}

LLVMValueRef cg_fix_value(cg *g, const cg_fix *fix, LLVMValueRef v, LLVMValueRef col)
{
    LLVMBuilderRef B = g->b;
    LLVMTypeRef ty = cg_compute_type(g, fix->to);
    if (fix->mode == FQ_NONE) {
        v = cg_convert(g, v, fix->from, fix->to);
        if (!fix->relu)
            return v;
        bool fp = ptoc_type_is_float(fix->to);
        LLVMValueRef z = fp ? LLVMConstReal(ty, 0.0) : LLVMConstInt(ty, 0, false);
        LLVMValueRef neg = fp ? LLVMBuildFCmp(B, LLVMRealOLT, v, z, "")
                              : LLVMBuildICmp(B, cg_is_unsigned(fix->to) ? LLVMIntULT : LLVMIntSLT, v, z, "");
        return LLVMBuildSelect(B, neg, z, v, "fix.relu");
    }
    LLVMValueRef q = fix->word;
    if (fix->vector) {
        LLVMValueRef at = is_int_of(fix->fp.elem, 64) ? cg_tile_elem_ptr(g, &fix->fp, cg_i64(g, 0), col)
                                                      : LLVMBuildGEP2(B, g->i64, fix->fp.base, &col, 1, "");
        LLVMValueRef w = LLVMBuildLoad2(B, g->i64, at, "quant.word");
        LLVMSetAlignment(w, 1);
        q = w;
    }
    LLVMValueRef r = quantise(g, fix, v, q);
    if (fix->mode == FQ_S16) {
        if (fix->relu)
            r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, r, cg_i32(g, 0), ""), r, cg_i32(g, 0), "");
        return LLVMBuildTrunc(B, r, ty, "");
    }
    if (fix->relu)
        r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOGT, r, f32c(g, 0), ""), r, f32c(g, 0), "fix.relu");
    if (fix->mode == FQ_B8)                     /* exact after the clamp; NaN gives 0 */
        return LLVMBuildTrunc(B, cg_float_to_int_sat(g, r, g->i32, false), ty, "");
    return r;                                   /* f16 / bf16 round to nearest even on store */
}

/* dst[i+dr, j+dc] = fix(src[i+sr, j+sc]) over i < rows, j < cols: the one
 * element-wise move of tmov, textract and tinsert. Only a source in acc
 * converts or quantises (the verifier keeps other moves to one type); the
 * channel of a quant word is src's column. */
static void emit_window_move(cg *g, const cg_fix *fix, const cg_tile *src, LLVMValueRef sr, LLVMValueRef sc,
                             const cg_tile *dst, LLVMValueRef dr, LLVMValueRef dc, LLVMValueRef rows,
                             LLVMValueRef cols)
{
    LLVMBuilderRef B = g->b;
    LLVMValueRef zero = cg_i64(g, 0);
    cg_loop i, j;
    cg_loop_begin(g, &i, zero, rows, "fix.i");
    cg_loop_begin(g, &j, zero, cols, "fix.j");
    LLVMValueRef c = LLVMBuildAdd(B, j.iv, sc, "");
    LLVMValueRef v = cg_load_elem(g, src->elem, cg_tile_elem_ptr(g, src, LLVMBuildAdd(B, i.iv, sr, ""), c));
    v = cg_fix_value(g, fix, v, c);
    cg_store_elem(g, dst->elem,
                  cg_tile_elem_ptr(g, dst, LLVMBuildAdd(B, i.iv, dr, ""), LLVMBuildAdd(B, j.iv, dc, "")), v);
    cg_loop_end(g, &j);
    cg_loop_end(g, &i);
}

/* tmov's fp tile (segment 2) and pre-quant scalar (segment 3), when present. */
static bool tmov_quant_operands(cg *g, ptoc_op *op, cg_tile *fp, bool *has_fp, LLVMValueRef *word)
{
    ptoc_attr *seg = ptoc_op_segment_attr(op);
    *has_fp = false;
    *word = NULL;
    if (!seg || seg->u.dense.n != 4)
        return true;
    uint32_t at = 2;
    if (seg->u.dense.values[2]) {
        *has_fp = true;
        if (!cg_op_in(g, op, at++, fp))
            return false;
    }
    if (seg->u.dense.values[3]) {
        const ptoc_type *t;
        *word = cg_op_scalar(g, op, at, &t);
        if (!*word)
            return false;
    }
    return true;
}

bool cg_lower_tmov_from_acc(cg *g, ptoc_op *op, const cg_tile *src, const cg_tile *dst)
{
    if (dst->desc.loc != PTOC_PTO_AS_VEC && dst->desc.loc != PTOC_PTO_AS_MAT) {
        ptoc_op_emit_error(op, "a move from acc needs dst in loc=vec or loc=mat, got loc=%s",
                           space_name(dst->desc.loc));
        return false;
    }
    cg_tile fp;
    bool has_fp;
    LLVMValueRef word;
    cg_fix fix;
    if (!tmov_quant_operands(g, op, &fp, &has_fp, &word) ||
        !cg_fix_init(g, op, &fix, src, dst->elem, has_fp ? &fp : NULL, word))
        return false;
    LLVMValueRef zero = cg_i64(g, 0);
    emit_window_move(g, &fix, src, zero, zero, dst, zero, zero, dst->vrows, dst->vcols);
    return true;
}

/* tmov mat -> bias with f16 or bf16 elements into an f32 bias table: the
 * copy into the bias table converts (a2a3 and a5 TMovToBt: convControl for
 * half; a5's static check admits bfloat16 too), exactly. */
bool cg_lower_tmov_widen_bias(cg *g, ptoc_op *op, const cg_tile *src, const cg_tile *dst)
{
    if (!(is_float_of(src->elem, PTOC_F16) || is_float_of(src->elem, PTOC_BF16)) ||
        !is_float_of(dst->elem, PTOC_F32)) {
        ptoc_op_emit_error(op, "a move into bias converts f16 or bf16 to f32 only");
        return false;
    }
    cg_fix fix;
    if (!cg_fix_init(g, op, &fix, src, dst->elem, NULL, NULL))
        return false;
    LLVMValueRef zero = cg_i64(g, 0);
    emit_window_move(g, &fix, src, zero, zero, dst, zero, zero, dst->vrows, dst->vcols);
    return true;
}

/* tmov.fp ins(src, fp) outs(dst): tmov with a per-channel fp tile. */
static bool lower_tmov_fp(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src, fp, dst;
    cg_fix fix;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_in(g, op, 1, &fp) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (!check_loc(op, "src", &src, PTOC_PTO_AS_ACC))
        return false;
    if (dst.desc.loc != PTOC_PTO_AS_VEC && dst.desc.loc != PTOC_PTO_AS_MAT) {
        ptoc_op_emit_error(op, "a move from acc needs dst in loc=vec or loc=mat, got loc=%s",
                           space_name(dst.desc.loc));
        return false;
    }
    if (!cg_fix_init(g, op, &fix, &src, dst.elem, &fp, NULL))
        return false;
    LLVMValueRef zero = cg_i64(g, 0);
    emit_window_move(g, &fix, &src, zero, zero, &dst, zero, zero, dst.vrows, dst.vcols);
    return true;
}

/* An index operand as i64. */
static LLVMValueRef index_operand(cg *g, ptoc_op *op, uint32_t i)
{
    const ptoc_type *t;
    LLVMValueRef v = cg_op_scalar(g, op, i, &t);
    if (!v)
        return NULL;
    return LLVMBuildSExtOrBitCast(g->b, v, LLVMInt64TypeInContext(g->llctx), "");
}

/* Traps unless [at, at + size) lies inside [0, extent): the window's rows or columns. */
static void check_window(cg *g, ptoc_op *op, LLVMValueRef at, LLVMValueRef size, int64_t extent)
{
    LLVMBuilderRef B = g->b;
    LLVMValueRef ext = cg_i64(g, extent);
    LLVMValueRef too_big = LLVMBuildICmp(B, LLVMIntSGT, size, ext, "");
    LLVMValueRef off = LLVMBuildICmp(B, LLVMIntUGT, at, LLVMBuildSub(B, ext, size, ""), "");
    cg_trap_if(g, LLVMBuildOr(B, too_big, off, "window.out"), PTOC_RT_TRAP_WINDOW, op->loc, at, size, ext);
}

/* textract ins(src, row, col) outs(dst): dst = the window of dst's valid
 * shape at (row, col) of src; tinsert ins(src, row, col) outs(dst): src's
 * valid shape into dst at (row, col). As pto-isa's CPU reference
 * (include/pto/cpu/TExtract.hpp, TInsert.hpp), element by element through
 * each tile's own layout, converting and applying relu out of acc as tmov
 * does. The window must lie inside the tile, as the reference asserts: a
 * run-time check traps otherwise. */
static bool lower_window(cg *g, ptoc_op *op, const cg_rule *rule)
{
    bool extract = rule->arg & 1, with_fp = rule->arg & 2;
    uint32_t at = with_fp ? 2 : 1;   /* the index operands follow src (and fp) */
    cg_tile src, dst, fp;
    cg_fix fix;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_out(g, op, 0, &dst) || (with_fp && !cg_op_in(g, op, 1, &fp)))
        return false;
    LLVMValueRef r = index_operand(g, op, at), c = index_operand(g, op, at + 1);
    if (!r || !c)
        return false;
    if (with_fp && !check_loc(op, "src", &src, PTOC_PTO_AS_ACC))
        return false;
    if (!cg_fix_init(g, op, &fix, &src, dst.elem, with_fp ? &fp : NULL, NULL))
        return false;
    const cg_tile *big = extract ? &src : &dst, *small = extract ? &dst : &src;
    check_window(g, op, r, small->vrows, big->desc.rows);
    check_window(g, op, c, small->vcols, big->desc.cols);
    LLVMValueRef zero = cg_i64(g, 0);
    if (extract)
        emit_window_move(g, &fix, &src, r, c, &dst, zero, zero, dst.vrows, dst.vcols);
    else
        emit_window_move(g, &fix, &src, zero, zero, &dst, r, c, src.vrows, src.vcols);
    return true;
}

/* ---------------------------------------------------------------- rules */

/* tmatmul ins(lhs, rhs), .acc ins(acc_in, lhs, rhs), .bias ins(lhs, rhs,
 * bias); the mx forms put a_scale after lhs and b_scale after rhs; tgemv the
 * same operands. outs(dst). */
static bool lower_matmul(cg *g, ptoc_op *op, const cg_rule *rule)
{
    mm_ops o = {
        .form = (mm_form)(rule->arg & MM_FORM_MASK), .gemv = rule->arg & MM_GEMV, .mx = rule->arg & MM_MX};
    uint32_t at = o.form == MM_ACC ? 1 : 0, step = o.mx ? 2 : 1;
    if (!cg_op_in(g, op, at, &o.lhs) || !cg_op_in(g, op, at + step, &o.rhs))
        return false;
    if (o.mx && (!cg_op_in(g, op, at + 1, &o.lscale) || !cg_op_in(g, op, at + step + 1, &o.rscale)))
        return false;
    if (o.form != MM_PLAIN && !cg_op_in(g, op, o.form == MM_ACC ? 0 : at + 2 * step, &o.extra))
        return false;
    if (!cg_op_out(g, op, at, &o.dst) || !check_operands(op, &o))
        return false;
    /* A gemv computes one row; its K is rhs's valid rows (lhs's valid columns
     * for mx), as the A5 implementation passes m = 1 to the cube. */
    LLVMValueRef m = o.gemv ? cg_i64(g, 1) : o.lhs.vrows;
    LLVMValueRef kn = o.gemv && !o.mx ? o.rhs.vrows : o.lhs.vcols;
    emit_matmul(g, &o, m, kn, o.rhs.vcols);
    return true;
}

/* tget_scale_addr ins(src) outs(dst), or %dst = tget_scale_addr %src: dst
 * becomes the scaling tile at src's byte offset shifted right by 4
 * (SHIFT_MX_ADDR of pto-isa's a5/utils.hpp and its CPU memory model), with
 * dst's valid shape. A DPS dst is rebound for the ops after this one, so it
 * must be defined in this op's block (every later use is then dominated). */
static bool lower_get_scale_addr(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src, old;
    const ptoc_value *dst = op->nresults ? &op->results[0] : ptoc_op_operand(op, 1);
    if (!cg_op_in(g, op, 0, &src))
        return false;
    if (!op->nresults && (dst->kind != PTOC_VALUE_RESULT || dst->owner.op->block != op->block)) {
        ptoc_op_emit_error(op, "tget_scale_addr's dst must be defined in the same block on the cpu target");
        return false;
    }
    if (!op->nresults && !cg_tile_of(g, dst, &old))
        return false;
    LLVMValueRef at = LLVMBuildExtractValue(g->b, src.agg, 0, "");
    LLVMValueRef offset = LLVMBuildLShr(g->b, at, cg_i64(g, 4), "scale.addr");
    LLVMValueRef vrows = op->nresults ? src.vrows : old.vrows, vcols = op->nresults ? src.vcols : old.vcols;
    LLVMValueRef agg = cg_tile_make(g, dst->type, offset, vrows, vcols, op->loc);
    if (!agg)
        return false;
    cg_set(g, dst, agg);
    return true;
}

const cg_rule cg_pto_cube_rules[] = {
    {PTO(TMATMUL), lower_matmul, MM_PLAIN},
    {PTO(TMATMUL_ACC), lower_matmul, MM_ACC},
    {PTO(TMATMUL_BIAS), lower_matmul, MM_BIAS},
    {PTO(TGEMV), lower_matmul, MM_GEMV | MM_PLAIN},
    {PTO(TGEMV_ACC), lower_matmul, MM_GEMV | MM_ACC},
    {PTO(TGEMV_BIAS), lower_matmul, MM_GEMV | MM_BIAS},
    {PTO(TMATMUL_MX), lower_matmul, MM_MX | MM_PLAIN},
    {PTO(TMATMUL_MX_ACC), lower_matmul, MM_MX | MM_ACC},
    {PTO(TMATMUL_MX_BIAS), lower_matmul, MM_MX | MM_BIAS},
    {PTO(TGEMV_MX), lower_matmul, MM_GEMV | MM_MX | MM_PLAIN},
    {PTO(TGEMV_MX_ACC), lower_matmul, MM_GEMV | MM_MX | MM_ACC},
    {PTO(TGEMV_MX_BIAS), lower_matmul, MM_GEMV | MM_MX | MM_BIAS},
    {PTO(TGET_SCALE_ADDR), lower_get_scale_addr, 0},
    {PTO(TEXTRACT), lower_window, 1},
    {PTO(TINSERT), lower_window, 0},
    {PTO(TEXTRACT_FP), lower_window, 3},
    {PTO(TINSERT_FP), lower_window, 2},
    {PTO(TMOV_FP), lower_tmov_fp, 0},
};
const size_t cg_pto_cube_rule_count = sizeof cg_pto_cube_rules / sizeof cg_pto_cube_rules[0];
