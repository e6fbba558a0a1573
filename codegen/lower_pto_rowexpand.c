/* lower_pto_rowexpand.c: the trowexpand family, the row-wise mirror of
 * tcolexpand (lower_pto_elementwise.c):
 *
 *   trowexpand                      dst[i,j] = src[i,0] (raw bits)
 *   trowexpand{add,sub,mul,div,     dst[i,j] = src0[i,j] OP v_i(j), v the row-vector
 *     max,min,expdif}               operand src1; or, when src0's valid shape is not
 *                                   dst's (roles swapped, as on hardware),
 *                                   dst[i,j] = v_i(j) OP src1[i,j] with v = src0
 *
 * What the row vector gives column j is decided by its layout, as the A5
 * library decides (a5/TRowExpandBinOp.hpp): a col_major operand is one scalar
 * per row, v_i(j) = v[i,0] (its BRC load); a row_major one is a 32-byte block
 * per row repeated along the row, v_i(j) = v[i, j mod 32/esize] (its BLK
 * load). The ISA pages (trowexpandsub.md, "Mode 1" and "Mode 2") say the same
 * and require 1, resp. 32/esize, valid columns; pto-isa's CPU model reads
 * v[i, j mod validCol], equal on that domain. The optional tmp operand is the
 * A2/A3 library's broadcast buffer (A5 and the CPU model ignore it); it is
 * not used here.
 *
 * The arithmetic is the elementwise ops' (cg_ew_apply): integers wrap, x/0 =
 * -1, max/min are selects, f16/bf16 compute in float and round on store,
 * expdif is exp(a - b) (cg_exp_f32), on f16 with a - b rounded to f16 first. Row-major
 * unboxed tiles whose rows hold whole 32-byte vectors go a vector at a time
 * (the row vector splat, or its block loaded as one vector: a block is one
 * vector), the rest of a row one element at a time; integer division and
 * expdif always go one element at a time, as in the elementwise ops.
 */
#include "codegen/codegen_internal.h"

static bool unboxed_row_major(const cg_tile *t)
{
    return t->desc.blayout == PTOC_PTO_BL_ROW_MAJOR && t->desc.slayout == PTOC_PTO_SL_NONE_BOX;
}

static bool check_same_elem(ptoc_op *op, const cg_tile *a, const cg_tile *dst)
{
    if (a->elem == dst->elem)
        return true;
    ptoc_op_emit_error(op, "source and destination element types differ");
    return false;
}

/* ---------------------------------------------------------------- trowexpand */

/* dst[i,j] = src[i,0], copied as raw bits (a NaN payload survives). */
static bool lower_rowexpand(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_out(g, op, 0, &dst) || !check_same_elem(op, &src, &dst))
        return false;
    LLVMTypeRef bits = LLVMIntTypeInContext(g->llctx, dst.esize * 8);
    LLVMValueRef zero = cg_i64(g, 0);
    cg_loop r, c;
    cg_loop_begin(g, &r, zero, dst.vrows, "rowexpand.row");
    LLVMValueRef v = LLVMBuildLoad2(g->b, bits, cg_tile_elem_ptr(g, &src, r.iv, zero), "");
    cg_loop_begin(g, &c, zero, dst.vcols, "rowexpand.col");
    LLVMBuildStore(g->b, v, cg_tile_elem_ptr(g, &dst, r.iv, c.iv));
    cg_loop_end(g, &c);
    cg_loop_end(g, &r);
    return true;
}

/* ---------------------------------------------------------------- binary forms */

/* The operands of one loop nest: the full operand, the row vector, and which
 * of the op's sources the row vector is (the result is still src0 OP src1). */
typedef struct rx_nest {
    ew_op kind;
    const cg_tile *dst, *full, *vec;
    bool vec_is_src0;
    bool blocks;    /* the row vector is a 32-byte block per row (row_major) */
    unsigned block; /* elements in 32 bytes */
} rx_nest;

static LLVMValueRef combine(cg *g, const rx_nest *n, LLVMValueRef full, LLVMValueRef vec)
{
    return n->vec_is_src0 ? cg_ew_apply(g, n->kind, n->dst->elem, vec, full)
                          : cg_ew_apply(g, n->kind, n->dst->elem, full, vec);
}

/* The lanes of one vector step (32 bytes of dst's elements, as many as a
 * block holds), or 0 when elements go one at a time. */
static unsigned vector_lanes(const rx_nest *n)
{
    unsigned lanes = n->block;
    if (n->kind == EW_EXPDIF || (n->kind == EW_DIV && !ptoc_type_is_float(n->dst->elem)))
        return 0; /* exp's long sequence and integer division: one element at a time */
    if (lanes < 2 || !unboxed_row_major(n->dst) || !unboxed_row_major(n->full))
        return 0;
    if (n->dst->desc.cols % lanes != 0 || n->full->desc.cols % lanes != 0)
        return 0;
    if (n->blocks && !unboxed_row_major(n->vec))
        return 0;
    return lanes;
}

/* dst[i,j] = full OP vec (or vec OP full) over dst's valid region: whole
 * vectors of a row first, then its remaining columns one at a time. */
static void emit_nest(cg *g, const rx_nest *n)
{
    LLVMBuilderRef B = g->b;
    const ptoc_type *elem = n->dst->elem;
    LLVMValueRef zero = cg_i64(g, 0);
    unsigned lanes = vector_lanes(n);
    cg_loop rows, vecs, cols;
    cg_loop_begin(g, &rows, zero, n->dst->vrows, "rowexpand.row");
    LLVMValueRef i = rows.iv;
    /* the scalar of a col_major row vector, read once per row */
    LLVMValueRef scalar = n->blocks ? NULL : cg_load_elem(g, elem, cg_tile_elem_ptr(g, n->vec, i, zero));
    LLVMValueRef first = zero;
    if (lanes) {
        LLVMValueRef vrow = n->blocks ? cg_load_elems(g, elem, cg_tile_row_ptr(g, n->vec, i), lanes)
                                      : cg_splat(g, scalar, lanes);
        LLVMValueRef frow = cg_tile_row_ptr(g, n->full, i), drow = cg_tile_row_ptr(g, n->dst, i);
        LLVMValueRef nvecs = LLVMBuildUDiv(B, n->dst->vcols, cg_i64(g, lanes), "rowexpand.vecs");
        cg_loop_begin(g, &vecs, zero, nvecs, "rowexpand.vec");
        LLVMValueRef col = LLVMBuildMul(B, vecs.iv, cg_i64(g, lanes), "");
        LLVMTypeRef et = cg_elem_type(g, elem);
        LLVMValueRef a = cg_load_elems(g, elem, LLVMBuildInBoundsGEP2(B, et, frow, &col, 1, ""), lanes);
        cg_store_elem(g, elem, LLVMBuildInBoundsGEP2(B, et, drow, &col, 1, ""), combine(g, n, a, vrow));
        cg_loop_end(g, &vecs);
        first = LLVMBuildMul(B, nvecs, cg_i64(g, lanes), "rowexpand.rest");
    }
    cg_loop_begin(g, &cols, first, n->dst->vcols, "rowexpand.col");
    LLVMValueRef j = cols.iv;
    LLVMValueRef a = cg_load_elem(g, elem, cg_tile_elem_ptr(g, n->full, i, j));
    LLVMValueRef v = scalar;
    if (n->blocks) {
        LLVMValueRef vj = LLVMBuildURem(B, j, cg_i64(g, n->block), "");
        v = cg_load_elem(g, elem, cg_tile_elem_ptr(g, n->vec, i, vj));
    }
    cg_store_elem(g, elem, cg_tile_elem_ptr(g, n->dst, i, j), combine(g, n, a, v));
    cols.remainder = lanes != 0;
    cg_loop_end(g, &cols);
    cg_loop_end(g, &rows);
}

static bool rx_nest_of(ptoc_op *op, rx_nest *n, ew_op kind, const cg_tile *dst, const cg_tile *full,
                       const cg_tile *vec, bool vec_is_src0)
{
    bool blocks = vec->desc.blayout == PTOC_PTO_BL_ROW_MAJOR;
    *n = (rx_nest){kind, dst, full, vec, vec_is_src0, blocks, 32 / dst->esize};
    /* A block per row must lie inside the row (the hardware's BLK load reads
     * 32 bytes from each row's start whatever the valid columns). */
    if (n->blocks && vec->desc.cols < (int64_t)n->block) {
        ptoc_op_emit_error(op,
                           "a row_major row-vector operand must have rows of at least 32 bytes (one block "
                           "per row); use a col_major one-column tile for one value per row");
        return false;
    }
    return true;
}

/* trowexpand{add,sub,mul,div,max,min,expdif}. As on hardware, which operand
 * is the row vector is decided at run time: src1 when src0's valid shape is
 * dst's, else src0. When the shapes are static the comparison folds and only
 * the loop nest that applies is emitted. */
static bool lower_rowexpand_binary(cg *g, ptoc_op *op, const cg_rule *rule)
{
    cg_tile s0, s1, dst;
    if (!cg_op_in(g, op, 0, &s0) || !cg_op_in(g, op, 1, &s1) ||
        !cg_op_out(g, op, cg_ew_full_operand(op), &dst))
        return false;
    if (!check_same_elem(op, &s0, &dst) || !check_same_elem(op, &s1, &dst) ||
        !cg_check_computable(op, "dst", dst.elem))
        return false;
    ew_op kind = (ew_op)rule->arg;
    LLVMBuilderRef B = g->b;
    LLVMValueRef same_rows = LLVMBuildICmp(B, LLVMIntEQ, s0.vrows, dst.vrows, "");
    LLVMValueRef same_cols = LLVMBuildICmp(B, LLVMIntEQ, s0.vcols, dst.vcols, "");
    LLVMValueRef src0_full = LLVMBuildAnd(B, same_rows, same_cols, "rowexpand.src0_full");
    bool folded = LLVMIsAConstantInt(src0_full);
    bool want_normal = !folded || LLVMConstIntGetZExtValue(src0_full);
    bool want_swapped = !folded || !LLVMConstIntGetZExtValue(src0_full);
    rx_nest normal, swapped;
    if ((want_normal && !rx_nest_of(op, &normal, kind, &dst, &s0, &s1, false)) ||
        (want_swapped && !rx_nest_of(op, &swapped, kind, &dst, &s1, &s0, true)))
        return false;
    if (folded) {
        emit_nest(g, want_normal ? &normal : &swapped);
        return true;
    }
    LLVMBasicBlockRef bn = cg_block(g, "rowexpand.src1_vec");
    LLVMBasicBlockRef bs = cg_block(g, "rowexpand.src0_vec");
    LLVMBasicBlockRef join = cg_block(g, "rowexpand.done");
    LLVMBuildCondBr(B, src0_full, bn, bs);
    LLVMPositionBuilderAtEnd(B, bn);
    emit_nest(g, &normal);
    LLVMBuildBr(B, join);
    LLVMMoveBasicBlockAfter(bs, LLVMGetLastBasicBlock(g->fn->fn)); /* IR in reading order */
    LLVMPositionBuilderAtEnd(B, bs);
    emit_nest(g, &swapped);
    LLVMBuildBr(B, join);
    LLVMMoveBasicBlockAfter(join, LLVMGetLastBasicBlock(g->fn->fn));
    LLVMPositionBuilderAtEnd(B, join);
    return true;
}

const cg_rule cg_pto_rowexpand_rules[] = {
    {PTO(TROWEXPAND), lower_rowexpand, EW_COPY},
    {PTO(TROWEXPANDADD), lower_rowexpand_binary, EW_ADD},
    {PTO(TROWEXPANDSUB), lower_rowexpand_binary, EW_SUB},
    {PTO(TROWEXPANDMUL), lower_rowexpand_binary, EW_MUL},
    {PTO(TROWEXPANDDIV), lower_rowexpand_binary, EW_DIV},
    {PTO(TROWEXPANDMAX), lower_rowexpand_binary, EW_MAX},
    {PTO(TROWEXPANDMIN), lower_rowexpand_binary, EW_MIN},
    {PTO(TROWEXPANDEXPDIF), lower_rowexpand_binary, EW_EXPDIF},
};
const size_t cg_pto_rowexpand_rule_count = sizeof cg_pto_rowexpand_rules / sizeof cg_pto_rowexpand_rules[0];
