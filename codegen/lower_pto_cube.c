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
 * Operands sit in the cube's spaces: lhs in left, rhs in right, dst and acc_in
 * in acc, bias in bias (one row); their fractal layouts are the ones the
 * reference's CheckMadValid asserts. Elements are addressed through
 * cg_tile_elem_ptr, so every boxed layout (nz, zn, zz) is indexed by its own
 * fractal arithmetic. The checks are the lowering's: the verifier's generated
 * dtype tests write these ops on vec tiles for every arch.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/runtime.h"

/* Which of the three forms a rule lowers. */
typedef enum mm_form { MM_PLAIN, MM_ACC, MM_BIAS } mm_form;

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

static bool check_operands(ptoc_op *op, mm_form form, const cg_tile *lhs, const cg_tile *rhs, const cg_tile *extra,
                           const cg_tile *dst)
{
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
    if (!cg_check_computable(op, "lhs", lhs->elem) || !cg_check_computable(op, "rhs", rhs->elem))
        return false;
    if (form == MM_ACC && (!check_loc(op, "acc_in", extra, PTOC_PTO_AS_ACC) || !check_shapes(op, lhs, rhs, extra)))
        return false;
    if (form == MM_BIAS) {
        if (!check_loc(op, "bias", extra, PTOC_PTO_AS_BIAS))
            return false;
        if (extra->desc.rows != 1 || extra->desc.cols != dst->desc.cols) {
            ptoc_op_emit_error(op, "bias must be one row of dst's %lld columns, got %lldx%lld",
                               (long long)dst->desc.cols, (long long)extra->desc.rows, (long long)extra->desc.cols);
            return false;
        }
    }
    if (form != MM_PLAIN && extra->elem != dst->elem) {
        ptoc_op_emit_error(op, "%s must have dst's element type", form == MM_ACC ? "acc_in" : "bias");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- the loop nest */

/* One operand element, loaded and converted to the accumulator's type. */
static LLVMValueRef load_as(cg *g, const cg_tile *t, LLVMValueRef r, LLVMValueRef c, const ptoc_type *to)
{
    LLVMValueRef v = cg_load_elem(g, t->elem, cg_tile_elem_ptr(g, t, r, c));
    return cg_convert(g, v, t->elem, to);
}

static void emit_matmul(cg *g, mm_form form, const cg_tile *lhs, const cg_tile *rhs, const cg_tile *extra,
                        const cg_tile *dst)
{
    LLVMBuilderRef B = g->b;
    const ptoc_type *acc_t = dst->elem;
    bool fp = ptoc_type_is_float(acc_t);
    LLVMTypeRef ty = cg_compute_type(g, acc_t);
    LLVMValueRef sum = cg_alloca(g, ty, "mm.sum");
    LLVMValueRef zero = cg_i64(g, 0);
    cg_loop i, j, k;
    cg_loop_begin(g, &i, zero, lhs->vrows, "mm.i");
    cg_loop_begin(g, &j, zero, rhs->vcols, "mm.j");
    LLVMBuildStore(B, fp ? LLVMConstReal(ty, 0.0) : LLVMConstInt(ty, 0, false), sum);
    cg_loop_begin(g, &k, zero, lhs->vcols, "mm.k");
    LLVMValueRef a = load_as(g, lhs, i.iv, k.iv, acc_t);
    LLVMValueRef b = load_as(g, rhs, k.iv, j.iv, acc_t);
    LLVMValueRef s = LLVMBuildLoad2(B, ty, sum, "");
    if (fp) {
        LLVMValueRef args[3] = {a, b, s};
        s = cg_call_intrinsic(g, "llvm.fma", ty, args, 3);
    } else {
        s = LLVMBuildAdd(B, s, LLVMBuildMul(B, a, b, ""), "");
    }
    LLVMBuildStore(B, s, sum);
    cg_loop_end(g, &k);
    LLVMValueRef v = LLVMBuildLoad2(B, ty, sum, "");
    if (form != MM_PLAIN) {
        LLVMValueRef e = form == MM_ACC ? load_as(g, extra, i.iv, j.iv, acc_t) : load_as(g, extra, zero, j.iv, acc_t);
        v = form == MM_ACC ? (fp ? LLVMBuildFAdd(B, e, v, "") : LLVMBuildAdd(B, e, v, ""))
                           : (fp ? LLVMBuildFAdd(B, v, e, "") : LLVMBuildAdd(B, v, e, ""));
    }
    cg_store_elem(g, acc_t, cg_tile_elem_ptr(g, dst, i.iv, j.iv), v);
    cg_loop_end(g, &j);
    cg_loop_end(g, &i);
}

/* ---------------------------------------------------------------- acc moves */

/* tmov from acc to vec or mat: the FIX pipe's copy-out, element-wise over
 * dst's valid shape, as pto-isa's CPU reference (include/pto/cpu/TMov.hpp)
 * does it: each element converted to dst's type, then, with
 * reluPreMode=normal_relu, a value below zero replaced by zero (of dst's
 * type; -0 and NaN pass). The conversion is cg_convert's: f32 to f16/bf16
 * rounds to nearest even, f32 to i32 truncates saturating (NaN gives 0),
 * i32 to f32/f16/bf16 rounds to nearest even. accToVecMode only picks which
 * vector core receives which half on hardware; the cpu target's one core gets
 * it all. The quantising forms (an fp tile or a pre-quant scalar) are
 * rejected by the caller, lower_tmov. */
/* dst[i+dr, j+dc] = fix(src[i+sr, j+sc]) over i < rows, j < cols: the one
 * element-wise move of tmov, textract and tinsert. Only a source in acc
 * converts or applies relu (the verifier keeps other moves to one type). */
static void emit_window_move(cg *g, ptoc_op *op, const cg_tile *src, LLVMValueRef sr, LLVMValueRef sc,
                             const cg_tile *dst, LLVMValueRef dr, LLVMValueRef dc, LLVMValueRef rows,
                             LLVMValueRef cols)
{
    uint32_t relu = 0;
    ptoc_pto_enum_value(ptoc_op_attr(op, "reluPreMode"), PTOC_PTO_ENUM_RELU_PRE_MODE, &relu);
    LLVMBuilderRef B = g->b;
    const ptoc_type *to = dst->elem;
    LLVMTypeRef ty = cg_compute_type(g, to);
    bool fp = ptoc_type_is_float(to);
    LLVMValueRef zero = cg_i64(g, 0);
    cg_loop i, j;
    cg_loop_begin(g, &i, zero, rows, "fix.i");
    cg_loop_begin(g, &j, zero, cols, "fix.j");
    LLVMValueRef v = load_as(g, src, LLVMBuildAdd(B, i.iv, sr, ""), LLVMBuildAdd(B, j.iv, sc, ""), to);
    if (relu) {
        LLVMValueRef z = fp ? LLVMConstReal(ty, 0.0) : LLVMConstInt(ty, 0, false);
        LLVMValueRef neg = fp ? LLVMBuildFCmp(B, LLVMRealOLT, v, z, "")
                              : LLVMBuildICmp(B, cg_is_unsigned(to) ? LLVMIntULT : LLVMIntSLT, v, z, "");
        v = LLVMBuildSelect(B, neg, z, v, "fix.relu");
    }
    cg_store_elem(g, to, cg_tile_elem_ptr(g, dst, LLVMBuildAdd(B, i.iv, dr, ""), LLVMBuildAdd(B, j.iv, dc, "")), v);
    cg_loop_end(g, &j);
    cg_loop_end(g, &i);
}

bool cg_lower_tmov_from_acc(cg *g, ptoc_op *op, const cg_tile *src, const cg_tile *dst)
{
    if (dst->desc.loc != PTOC_PTO_AS_VEC && dst->desc.loc != PTOC_PTO_AS_MAT) {
        ptoc_op_emit_error(op, "a move from acc needs dst in loc=vec or loc=mat, got loc=%s",
                           space_name(dst->desc.loc));
        return false;
    }
    if (!cg_check_computable(op, "src", src->elem) || !cg_check_computable(op, "dst", dst->elem))
        return false;
    LLVMValueRef zero = cg_i64(g, 0);
    emit_window_move(g, op, src, zero, zero, dst, zero, zero, dst->vrows, dst->vcols);
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
    bool extract = rule->arg != 0;
    cg_tile src, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_out(g, op, 0, &dst))
        return false;
    LLVMValueRef r = index_operand(g, op, 1), c = index_operand(g, op, 2);
    if (!r || !c)
        return false;
    if (!cg_check_computable(op, "src", src.elem) || !cg_check_computable(op, "dst", dst.elem))
        return false;
    const cg_tile *big = extract ? &src : &dst, *small = extract ? &dst : &src;
    check_window(g, op, r, small->vrows, big->desc.rows);
    check_window(g, op, c, small->vcols, big->desc.cols);
    LLVMValueRef zero = cg_i64(g, 0);
    if (extract)
        emit_window_move(g, op, &src, r, c, &dst, zero, zero, dst.vrows, dst.vcols);
    else
        emit_window_move(g, op, &src, zero, zero, &dst, r, c, src.vrows, src.vcols);
    return true;
}

/* ---------------------------------------------------------------- rules */

/* tmatmul ins(lhs, rhs), tmatmul.acc ins(acc_in, lhs, rhs), tmatmul.bias
 * ins(lhs, rhs, bias); outs(dst). */
static bool lower_matmul(cg *g, ptoc_op *op, const cg_rule *rule)
{
    mm_form form = (mm_form)rule->arg;
    uint32_t first = form == MM_ACC ? 1 : 0;
    cg_tile lhs, rhs, extra, dst;
    if (!cg_op_in(g, op, first, &lhs) || !cg_op_in(g, op, first + 1, &rhs))
        return false;
    if (form != MM_PLAIN && !cg_op_in(g, op, form == MM_ACC ? 0 : 2, &extra))
        return false;
    if (!cg_op_out(g, op, form == MM_ACC ? 0 : first, &dst))
        return false;
    if (!check_operands(op, form, &lhs, &rhs, &extra, &dst))
        return false;
    emit_matmul(g, form, &lhs, &rhs, &extra, &dst);
    return true;
}

const cg_rule cg_pto_cube_rules[] = {
    {PTO(TMATMUL), lower_matmul, MM_PLAIN},
    {PTO(TMATMUL_ACC), lower_matmul, MM_ACC},
    {PTO(TMATMUL_BIAS), lower_matmul, MM_BIAS},
    {PTO(TEXTRACT), lower_window, 1},
    {PTO(TINSERT), lower_window, 0},
};
const size_t cg_pto_cube_rule_count = sizeof cg_pto_cube_rules / sizeof cg_pto_cube_rules[0];
