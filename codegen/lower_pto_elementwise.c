/* lower_pto_elementwise.c: the elementwise tile ops and the tcolexpand family.
 *
 * Every op here is one loop nest over dst's valid region, rows outside and
 * columns inside, computing one element from one or two operands:
 *
 *   tadd tsub tmul tdiv tmax tmin       dst[i,j] = a[i,j] OP b[i,j]
 *   tadds tsubs tmuls tdivs tmaxs tmins dst[i,j] = a[i,j] OP s
 *   tdivs with the scalar first         dst[i,j] = s / a[i,j] (PTOAS picks
 *                                       pto-isa's TDIVS(dst, scalar, src)
 *                                       overload by the operand order)
 *   tmov                                dst[i,j] = a[i,j] (raw bits)
 *   tcolexpand                          dst[i,j] = a[0,j]
 *   tcolexpand{add,...,expdif}          dst[i,j] = a[i,j] OP b[0,j]; or, when a's
 *                                       valid shape is not dst's (roles swapped, as
 *                                       on hardware), dst[i,j] = a[0,j] OP b[i,j]
 *
 * Row-major unboxed operands are addressed through a row pointer and a plain
 * element index, and each row is vector code that codegen writes itself: a
 * loop over 32-byte vectors of dst's elements (8 f32, 16 f16 computed as 16
 * f32, 32 i8; an AVX register of f32) while whole vectors fit in the valid
 * columns, then a column loop for the rest, which LLVM is told not to
 * vectorise. The same vector code at every -O level, and nothing left for
 * LLVM's loop vectoriser to analyse, version or give a scalar epilogue: that
 * was most of what the vectoriser cost in compile time. Integer division and
 * expdif stay one element at a time (x86 has neither in vector form, so a
 * vector would only be split again), as do other layouts, through
 * cg_tile_elem_ptr, which LLVM still vectorises where it can. The
 * arithmetic (docs/targets.md): integers wrap, x/0 = -1, INT_MIN/-1 = INT_MIN,
 * max(a,b) = a > b ? a : b and min(a,b) = a < b ? a : b, f16/bf16 compute in
 * float and round on store, expdif is exp(a - b) (the one exp, cg_exp_f32),
 * on f16 with a - b rounded to f16 first (as the hardware subtracts in f16).
 */
#include "codegen/codegen_internal.h"


/* One tile operand of the loop nest. */
typedef struct ew_src {
    cg_tile tile;
    bool row0;                  /* reads row 0 for every dst row (the broadcast row) */
} ew_src;

/* ---------------------------------------------------------------- arithmetic */

static LLVMValueRef float_op(cg *g, ew_op op, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = g->b;
    switch (op) {
    case EW_ADD: return LLVMBuildFAdd(B, a, b, "");
    case EW_SUB: return LLVMBuildFSub(B, a, b, "");
    case EW_MUL: return LLVMBuildFMul(B, a, b, "");
    case EW_DIV: return LLVMBuildFDiv(B, a, b, "");
    case EW_RDIV: return LLVMBuildFDiv(B, b, a, "");
    /* Ordered compares: a NaN in b propagates, a NaN in a does not (x86 maxps). */
    case EW_MAX: return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOGT, a, b, ""), a, b, "");
    case EW_MIN: return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOLT, a, b, ""), a, b, "");
    case EW_EXPDIF: {
        LLVMValueRef d = LLVMBuildFSub(B, a, b, "");
        return cg_exp_f32(g, d);
    }
    case EW_COPY: return a;
    }
    return a;
}

static LLVMValueRef int_op(cg *g, ew_op op, LLVMValueRef a, LLVMValueRef b, bool is_unsigned)
{
    LLVMBuilderRef B = g->b;
    switch (op) {
    case EW_ADD: return LLVMBuildAdd(B, a, b, "");
    case EW_SUB: return LLVMBuildSub(B, a, b, "");
    case EW_MUL: return LLVMBuildMul(B, a, b, "");
    case EW_DIV: return cg_int_div(g, a, b, is_unsigned);
    case EW_RDIV: return cg_int_div(g, b, a, is_unsigned);
    case EW_MAX:
        return LLVMBuildSelect(B, LLVMBuildICmp(B, is_unsigned ? LLVMIntUGT : LLVMIntSGT, a, b, ""), a, b, "");
    case EW_MIN:
        return LLVMBuildSelect(B, LLVMBuildICmp(B, is_unsigned ? LLVMIntULT : LLVMIntSLT, a, b, ""), a, b, "");
    case EW_EXPDIF:             /* the verifier allows f16/f32 only */
    case EW_COPY: return a;
    }
    return a;
}

/* One element of dst, from compute-type values a and b (b unused by EW_COPY). */
LLVMValueRef cg_ew_apply(cg *g, ew_op op, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b)
{
    if (op == EW_COPY)
        return a;
    if (op == EW_EXPDIF && elem->kind == PTOC_TYPE_FLOAT && elem->u.fp.kind == PTOC_F16) {
        /* f16: the difference rounds to f16 before e^, as the hardware's
         * vsub then vexp does (a5/TColExpandExpdif.hpp) */
        LLVMValueRef d = LLVMBuildFSub(g->b, a, b, "");
        LLVMTypeRef half = LLVMGetTypeKind(LLVMTypeOf(d)) == LLVMVectorTypeKind
                               ? LLVMVectorType(g->f16, LLVMGetVectorSize(LLVMTypeOf(d)))
                               : g->f16;
        d = LLVMBuildFPExt(g->b, LLVMBuildFPTrunc(g->b, d, half, ""), LLVMTypeOf(d), "");
        return cg_exp_f32(g, d);
    }
    if (ptoc_type_is_float(elem))
        return float_op(g, op, a, b);
    return int_op(g, op, a, b, cg_is_unsigned(elem));
}

/* ---------------------------------------------------------------- the loop nest */

static bool unboxed_row_major(const cg_tile *t)
{
    return t->desc.blayout == PTOC_PTO_BL_ROW_MAJOR && t->desc.slayout == PTOC_PTO_SL_NONE_BOX;
}

/* How the inner loop reaches one operand's elements in the current row. */
typedef struct ew_row {
    const cg_tile *tile;
    LLVMValueRef row;           /* i64 row index */
    LLVMValueRef row_ptr;       /* start of the row (unboxed row-major), else NULL */
} ew_row;

static ew_row row_of(cg *g, const cg_tile *t, LLVMValueRef row)
{
    ew_row r = {t, row, NULL};
    if (unboxed_row_major(t))
        r.row_ptr = cg_tile_row_ptr(g, t, row);
    return r;
}

static LLVMValueRef elem_ptr(cg *g, const ew_row *r, LLVMValueRef col)
{
    if (r->row_ptr)
        return LLVMBuildInBoundsGEP2(g->b, cg_elem_type(g, r->tile->elem), r->row_ptr, &col, 1, "");
    return cg_tile_elem_ptr(g, r->tile, r->row, col);
}

/* dst[row, col ..) = OP(src[0], src[1] or b) for one element, or for `lanes`
 * elements as vectors (b is then a vector too). */
static void emit_step(cg *g, ew_op op, const cg_tile *dst, const ew_row *out, const ew_src *src, const ew_row *in,
                      unsigned nsrc, LLVMValueRef b, LLVMValueRef col, unsigned lanes)
{
    LLVMValueRef v[2] = {NULL, b};
    for (unsigned k = 0; k < nsrc; k++) {
        LLVMValueRef p = elem_ptr(g, &in[k], col);
        v[k] = lanes > 1 ? cg_load_elems(g, src[k].tile.elem, p, lanes) : cg_load_elem(g, src[k].tile.elem, p);
    }
    cg_store_elem(g, dst->elem, elem_ptr(g, out, col), cg_ew_apply(g, op, dst->elem, v[0], v[1]));
}

/* The lanes of one vector step: 32 bytes of dst's elements (8 f32, 16 f16
 * computed as 16 f32, 32 i8), when every tile has unboxed row-major rows of
 * a multiple of that many columns (tiles of up to 16-byte elements: hardware
 * rows are 32-byte aligned); 0 when elements go one at a time. */
static unsigned vector_lanes(ew_op op, const cg_tile *dst, const ew_src *src, unsigned nsrc)
{
    unsigned lanes = 32 / dst->esize;
    if (op == EW_EXPDIF || (op == EW_DIV && !ptoc_type_is_float(dst->elem)))
        return 0;   /* exp's long sequence and integer division: one element at a time */
    if (lanes < 2 || !unboxed_row_major(dst) || dst->desc.cols % lanes != 0)
        return 0;
    for (unsigned k = 0; k < nsrc; k++)
        if (!unboxed_row_major(&src[k].tile) || src[k].tile.desc.cols % lanes != 0)
            return 0;
    return lanes;
}

/* dst[i,j] = OP(src[0], src[1] or scalar) over dst's valid region. `nsrc` is
 * 1 or 2; with 1 source the scalar (a compute-type value, or NULL) is b. Each
 * row goes `lanes` columns at a time while whole vectors fit in its valid
 * columns, then one column at a time for the rest. */
static void emit_loop_nest(cg *g, ew_op op, const cg_tile *dst, const ew_src *src, unsigned nsrc,
                           LLVMValueRef scalar)
{
    cg_loop rows, vecs, cols;
    ew_row in[2];
    LLVMValueRef zero = cg_i64(g, 0);
    unsigned lanes = vector_lanes(op, dst, src, nsrc);
    LLVMValueRef splat = scalar && lanes ? cg_splat(g, scalar, lanes) : NULL;
    cg_loop_begin(g, &rows, zero, dst->vrows, "ew.row");
    ew_row out = row_of(g, dst, rows.iv);
    for (unsigned k = 0; k < nsrc; k++)
        in[k] = row_of(g, &src[k].tile, src[k].row0 ? zero : rows.iv);
    LLVMValueRef first = zero;
    if (lanes) {
        LLVMValueRef nvecs = LLVMBuildUDiv(g->b, dst->vcols, cg_i64(g, lanes), "ew.vecs");
        cg_loop_begin(g, &vecs, zero, nvecs, "ew.vec");
        LLVMValueRef col = LLVMBuildMul(g->b, vecs.iv, cg_i64(g, lanes), "");
        emit_step(g, op, dst, &out, src, in, nsrc, splat, col, lanes);
        cg_loop_end(g, &vecs);
        first = LLVMBuildMul(g->b, nvecs, cg_i64(g, lanes), "ew.rest");
    }
    if (!(LLVMIsAConstantInt(first) && LLVMIsAConstantInt(dst->vcols) &&
          LLVMConstIntGetZExtValue(first) == LLVMConstIntGetZExtValue(dst->vcols))) {
        cg_loop_begin(g, &cols, first, dst->vcols, "ew.col");
        emit_step(g, op, dst, &out, src, in, nsrc, scalar, cols.iv, 1);
        cols.remainder = lanes != 0;
        cg_loop_end(g, &cols);
    }
    cg_loop_end(g, &rows);
}

/* ---------------------------------------------------------------- checks */

/* Ops on memrefs reach here checked for structure only (the verifier's memref
 * bypass): make sure the tiles agree before computing on them. */
static bool check_same_elem(ptoc_op *op, const cg_tile *a, const cg_tile *dst)
{
    if (a->elem == dst->elem)
        return true;
    ptoc_op_emit_error(op, "source and destination element types differ");
    return false;
}

/* ---------------------------------------------------------------- rules */

/* tadd tsub tmul tdiv tmax tmin. */
static bool lower_tile_tile(cg *g, ptoc_op *op, const cg_rule *rule)
{
    ew_src s[2] = {{.row0 = false}, {.row0 = false}};
    cg_tile dst;
    if (!cg_op_in(g, op, 0, &s[0].tile) || !cg_op_in(g, op, 1, &s[1].tile) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (!check_same_elem(op, &s[0].tile, &dst) || !check_same_elem(op, &s[1].tile, &dst) ||
        !cg_check_computable(op, "dst", dst.elem))
        return false;
    emit_loop_nest(g, (ew_op)rule->arg, &dst, s, 2, NULL);
    return true;
}

static bool is_tile_operand(ptoc_op *op, uint32_t i)
{
    ptoc_pto_tile_desc d;
    return i < op->noperands && cg_tile_desc_of(ptoc_op_operand(op, i)->type, &d);
}

/* The verifier checks ops on memrefs for structure only: the operand `tile`
 * may be no tile. (It has checked the scalar's kind already.) */
static bool check_tile_scalar_operands(ptoc_op *op, uint32_t tile)
{
    if (op->noperands < 2 || !is_tile_operand(op, tile)) {
        ptoc_op_emit_error(op, "src must be a tile");
        return false;
    }
    return true;
}

/* tadds tsubs tmuls tdivs tmaxs tmins: dst = src OP scalar; tdivs with the
 * scalar first (a scalar operand 0 and a tile operand 1): dst = scalar / src. */
static bool lower_tile_scalar(cg *g, ptoc_op *op, const cg_rule *rule)
{
    ew_src s = {.row0 = false};
    cg_tile dst;
    ew_op kind = (ew_op)rule->arg;
    bool scalar_first = kind == EW_DIV && !is_tile_operand(op, 0) && is_tile_operand(op, 1);
    uint32_t tile = scalar_first ? 1 : 0;
    if (!check_tile_scalar_operands(op, tile) || !cg_op_in(g, op, tile, &s.tile) || !cg_op_out(g, op, tile, &dst))
        return false;
    if (!check_same_elem(op, &s.tile, &dst) || !cg_check_computable(op, "dst", dst.elem))
        return false;
    /* The hardware takes the scalar in the tile's dtype: round it there first. */
    LLVMValueRef slot = cg_op_scalar_slot(g, op, 1 - tile, dst.elem);
    LLVMValueRef scalar = slot ? cg_load_elem(g, dst.elem, slot) : NULL;
    if (!scalar)
        return false;
    emit_loop_nest(g, scalar_first ? EW_RDIV : kind, &dst, &s, 1, scalar);
    return true;
}

/* tcolexpand: dst[i,j] = src[0,j]. */
static bool lower_colexpand(cg *g, ptoc_op *op, const cg_rule *rule)
{
    ew_src s = {.row0 = true};
    cg_tile dst;
    if (!cg_op_in(g, op, 0, &s.tile) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (!check_same_elem(op, &s.tile, &dst))
        return false;
    emit_loop_nest(g, (ew_op)rule->arg, &dst, &s, 1, NULL);
    return true;
}

/* tmov (vec to vec, mat to left/right/bias): dst[i,j] = src[i,j], copied as
 * raw bits (a NaN payload survives); a move out of acc converts and
 * quantises (cg_lower_tmov_from_acc). Rows of row_major none_box tiles are one memmove each (the tiles
 * may overlap); other layouts copy element by element. pto-bufferize inserts
 * tmov where a loop or a branch must hand its value over in one buffer. */
static bool lower_tmov(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_out(g, op, 0, &dst))
        return false;
    /* The FIX pipe's move: converts, and quantises with the fp tile or the
     * pre-quant scalar that may follow src and dst (the verifier keeps those
     * to moves out of acc). */
    if (src.desc.loc == PTOC_PTO_AS_ACC)
        return cg_lower_tmov_from_acc(g, op, &src, &dst);
    if (dst.desc.loc == PTOC_PTO_AS_BIAS && src.elem != dst.elem)   /* the bias table widens */
        return cg_lower_tmov_widen_bias(g, op, &src, &dst);
    if (!check_same_elem(op, &src, &dst))
        return false;
    bool rows = unboxed_row_major(&src) && unboxed_row_major(&dst);
    LLVMTypeRef bits = LLVMIntTypeInContext(g->llctx, dst.esize * 8);
    cg_loop r;
    cg_loop_begin(g, &r, cg_i64(g, 0), dst.vrows, "mov.row");
    if (rows) {
        LLVMValueRef n = LLVMBuildMul(g->b, dst.vcols, cg_i64(g, dst.esize), "");
        LLVMBuildMemMove(g->b, cg_tile_row_ptr(g, &dst, r.iv), 1, cg_tile_row_ptr(g, &src, r.iv), 1, n);
    } else {
        cg_loop c;
        cg_loop_begin(g, &c, cg_i64(g, 0), dst.vcols, "mov.col");
        LLVMValueRef v = LLVMBuildLoad2(g->b, bits, cg_tile_elem_ptr(g, &src, r.iv, c.iv), "");
        LLVMBuildStore(g->b, v, cg_tile_elem_ptr(g, &dst, r.iv, c.iv));
        cg_loop_end(g, &c);
    }
    cg_loop_end(g, &r);
    return true;
}

/* The source whose physical shape is dst's: it gives a Level-1 result its
 * valid shape when the result type leaves it dynamic. */
uint32_t cg_ew_full_operand(const ptoc_op *op)
{
    const ptoc_pto_tile_desc *a = ptoc_pto_tile_like(ptoc_op_operand(op, 0)->type);
    const ptoc_pto_tile_desc *b = ptoc_pto_tile_like(ptoc_op_operand(op, 1)->type);
    if (a && b && (a->rows < b->rows || a->cols < b->cols))
        return 1;
    return 0;
}

/* tcolexpand{add,sub,mul,div,max,min,expdif}. As on hardware, which operand
 * is the broadcast row is decided at run time: src1 when src0's valid shape is
 * dst's, else src0 (the result is still src0 OP src1). When the shapes are
 * static the comparison folds and only the loop that applies is emitted. */
static bool lower_colexpand_binary(cg *g, ptoc_op *op, const cg_rule *rule)
{
    ew_src s[2] = {{.row0 = false}, {.row0 = true}};
    cg_tile dst;
    if (!cg_op_in(g, op, 0, &s[0].tile) || !cg_op_in(g, op, 1, &s[1].tile) ||
        !cg_op_out(g, op, cg_ew_full_operand(op), &dst))
        return false;
    if (!check_same_elem(op, &s[0].tile, &dst) || !check_same_elem(op, &s[1].tile, &dst) ||
        !cg_check_computable(op, "dst", dst.elem))
        return false;
    ew_op kind = (ew_op)rule->arg;
    LLVMBuilderRef B = g->b;
    LLVMValueRef same_rows = LLVMBuildICmp(B, LLVMIntEQ, s[0].tile.vrows, dst.vrows, "");
    LLVMValueRef same_cols = LLVMBuildICmp(B, LLVMIntEQ, s[0].tile.vcols, dst.vcols, "");
    LLVMValueRef src0_full = LLVMBuildAnd(B, same_rows, same_cols, "colexpand.src0_full");
    ew_src swapped[2] = {{s[0].tile, true}, {s[1].tile, false}};
    if (LLVMIsAConstantInt(src0_full)) {
        emit_loop_nest(g, kind, &dst, LLVMConstIntGetZExtValue(src0_full) ? s : swapped, 2, NULL);
        return true;
    }
    LLVMBasicBlockRef normal = cg_block(g, "colexpand.src1_row");
    LLVMBasicBlockRef swap = cg_block(g, "colexpand.src0_row");
    LLVMBasicBlockRef join = cg_block(g, "colexpand.done");
    LLVMBuildCondBr(B, src0_full, normal, swap);
    LLVMPositionBuilderAtEnd(B, normal);
    emit_loop_nest(g, kind, &dst, s, 2, NULL);
    LLVMBuildBr(B, join);
    LLVMMoveBasicBlockAfter(swap, LLVMGetLastBasicBlock(g->fn->fn));   /* IR in reading order */
    LLVMPositionBuilderAtEnd(B, swap);
    emit_loop_nest(g, kind, &dst, swapped, 2, NULL);
    LLVMBuildBr(B, join);
    LLVMMoveBasicBlockAfter(join, LLVMGetLastBasicBlock(g->fn->fn));
    LLVMPositionBuilderAtEnd(B, join);
    return true;
}

const cg_rule cg_pto_elementwise_rules[] = {
    {PTO(TADD), lower_tile_tile, EW_ADD},
    {PTO(TSUB), lower_tile_tile, EW_SUB},
    {PTO(TMUL), lower_tile_tile, EW_MUL},
    {PTO(TDIV), lower_tile_tile, EW_DIV},
    {PTO(TMAX), lower_tile_tile, EW_MAX},
    {PTO(TMIN), lower_tile_tile, EW_MIN},
    {PTO(TADDS), lower_tile_scalar, EW_ADD},
    {PTO(TSUBS), lower_tile_scalar, EW_SUB},
    {PTO(TMULS), lower_tile_scalar, EW_MUL},
    {PTO(TDIVS), lower_tile_scalar, EW_DIV},
    {PTO(TMAXS), lower_tile_scalar, EW_MAX},
    {PTO(TMINS), lower_tile_scalar, EW_MIN},
    {PTO(TMOV), lower_tmov, EW_COPY},
    {PTO(TCOLEXPAND), lower_colexpand, EW_COPY},
    {PTO(TCOLEXPANDADD), lower_colexpand_binary, EW_ADD},
    {PTO(TCOLEXPANDSUB), lower_colexpand_binary, EW_SUB},
    {PTO(TCOLEXPANDMUL), lower_colexpand_binary, EW_MUL},
    {PTO(TCOLEXPANDDIV), lower_colexpand_binary, EW_DIV},
    {PTO(TCOLEXPANDMAX), lower_colexpand_binary, EW_MAX},
    {PTO(TCOLEXPANDMIN), lower_colexpand_binary, EW_MIN},
    {PTO(TCOLEXPANDEXPDIF), lower_colexpand_binary, EW_EXPDIF},
};
const size_t cg_pto_elementwise_rule_count = sizeof cg_pto_elementwise_rules / sizeof cg_pto_elementwise_rules[0];
