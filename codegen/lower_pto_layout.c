/* lower_pto_layout.c: the ops that rearrange a tile's elements on the cpu
 * target, moving them as bits.
 *
 *   ttrans  ins(src, tmp) outs(dst)   dst[j,i] = src[i,j] over src's valid
 *           region (pto-isa's cpu TTrans_Impl; tmp is the hardware's staging
 *           buffer and is not used). dst's valid shape is src's transposed.
 *   tconcat ins(src0, src1) outs(dst) row i of dst is row i of src0's valid
 *           columns followed by row i of src1's, over dst's valid rows; the
 *           valid rows are equal and dst's valid columns are the sum.
 *   tpack   ins(src) outs(dst)        dst[i,j] = the low bits of src[i,j]
 *           (4 -> 2, 4 -> 1 or 2 -> 1 bytes), over the valid region the two
 *           share. pto-isa has no implementation of tpack; it narrows as the
 *           vector ISA's vpack does in its truncating form (docs/decisions.md).
 *           It may write in place (dst at src's address, its rows no more
 *           bytes apart than src's): in row order each element is read before
 *           any write reaches it.
 *
 * A valid shape that does not match is a diagnostic when the shapes are
 * static; when they are not, only the tiles' storage is checked at run time
 * (PTOC_RT_TRAP_VALID_SHAPE), so no element outside a tile is touched.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/runtime.h"

static void copy_bits(cg *g, uint32_t esize, LLVMValueRef dst, LLVMValueRef src)
{
    LLVMTypeRef t = LLVMIntTypeInContext(g->llctx, esize * 8);
    LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, t, src, "bits"), dst);
}

static bool is_const(LLVMValueRef v) { return LLVMIsAConstantInt(v) != NULL; }
static long long value_of(LLVMValueRef v) { return LLVMConstIntGetSExtValue(v); }

/* The op uses rows x cols (i64) of tile t from (0, 0): checks at run time
 * that t has them, when they are not constants (the static cases are the
 * callers' diagnostics). */
static void check_storage(cg *g, ptoc_op *op, const cg_tile *t, LLVMValueRef rows, LLVMValueRef cols)
{
    if (is_const(rows) && is_const(cols) && value_of(rows) <= t->desc.rows && value_of(cols) <= t->desc.cols)
        return;
    LLVMValueRef big_r = LLVMBuildICmp(g->b, LLVMIntUGT, rows, cg_i64(g, t->desc.rows), "");
    LLVMValueRef big_c = LLVMBuildICmp(g->b, LLVMIntUGT, cols, cg_i64(g, t->desc.cols), "");
    LLVMValueRef big = LLVMBuildOr(g->b, big_r, big_c, "");
    cg_trap_if(g, big, PTOC_RT_TRAP_VALID_SHAPE, op->loc, rows, cols, cg_i64(g, 0));
}

/* False when a and b are both constants and differ. */
static bool may_equal(LLVMValueRef a, LLVMValueRef b)
{
    return !is_const(a) || !is_const(b) || value_of(a) == value_of(b);
}

static bool lower_ttrans(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (src.esize != dst.esize) {
        ptoc_op_emit_error(op, "src and dst must have elements of the same size");
        return false;
    }
    if (!may_equal(dst.vrows, src.vcols) || !may_equal(dst.vcols, src.vrows)) {
        ptoc_op_emit_error(op, "dst's valid shape must be src's transposed (%lldx%lld)",
                           (long long)src.desc.valid_cols, (long long)src.desc.valid_rows);
        return false;
    }
    check_storage(g, op, &dst, src.vcols, src.vrows);
    cg_loop r, c;
    cg_loop_begin(g, &r, cg_i64(g, 0), src.vrows, "trans.row");
    cg_loop_begin(g, &c, cg_i64(g, 0), src.vcols, "trans.col");
    copy_bits(g, dst.esize, cg_tile_elem_ptr(g, &dst, c.iv, r.iv), cg_tile_elem_ptr(g, &src, r.iv, c.iv));
    cg_loop_end(g, &c);
    cg_loop_end(g, &r);
    return true;
}

/* Row r's first `cols` elements of src to dst's row r from column `at`. */
static void copy_row_part(cg *g, const cg_tile *dst, const cg_tile *src, LLVMValueRef r, LLVMValueRef at,
                          LLVMValueRef cols)
{
    cg_loop c;
    cg_loop_begin(g, &c, cg_i64(g, 0), cols, "concat.col");
    LLVMValueRef to = cg_tile_elem_ptr(g, dst, r, LLVMBuildAdd(g->b, at, c.iv, ""));
    copy_bits(g, dst->esize, to, cg_tile_elem_ptr(g, src, r, c.iv));
    cg_loop_end(g, &c);
}

static bool lower_tconcat(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile a, b, dst;
    if (!cg_op_in(g, op, 0, &a) || !cg_op_in(g, op, 1, &b) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (a.esize != dst.esize || b.esize != dst.esize) {
        ptoc_op_emit_error(op, "src0, src1 and dst must have elements of the same size");
        return false;
    }
    LLVMValueRef cols = LLVMBuildAdd(g->b, a.vcols, b.vcols, "concat.cols");
    if (!may_equal(a.vrows, dst.vrows) || !may_equal(b.vrows, dst.vrows) || !may_equal(cols, dst.vcols)) {
        ptoc_op_emit_error(op, "src0, src1 and dst must have the same valid rows, and dst's valid "
                               "columns must be the sum of src0's and src1's");
        return false;
    }
    check_storage(g, op, &a, dst.vrows, a.vcols);
    check_storage(g, op, &b, dst.vrows, b.vcols);
    check_storage(g, op, &dst, dst.vrows, cols);
    cg_loop r;
    cg_loop_begin(g, &r, cg_i64(g, 0), dst.vrows, "concat.row");
    copy_row_part(g, &dst, &a, r.iv, cg_i64(g, 0), a.vcols);
    copy_row_part(g, &dst, &b, r.iv, a.vcols, b.vcols);
    cg_loop_end(g, &r);
    return true;
}

static bool lower_tpack(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (dst.esize >= src.esize) {
        ptoc_op_emit_error(op, "tpack narrows: dst's elements must be smaller than src's");
        return false;
    }
    if (!may_equal(src.vrows, dst.vrows) || !may_equal(src.vcols, dst.vcols)) {
        ptoc_op_emit_error(op, "src and dst must have the same valid shape");
        return false;
    }
    check_storage(g, op, &src, dst.vrows, dst.vcols);
    LLVMTypeRef wide = LLVMIntTypeInContext(g->llctx, src.esize * 8);
    LLVMTypeRef narrow = LLVMIntTypeInContext(g->llctx, dst.esize * 8);
    cg_loop r, c;
    cg_loop_begin(g, &r, cg_i64(g, 0), dst.vrows, "pack.row");
    cg_loop_begin(g, &c, cg_i64(g, 0), dst.vcols, "pack.col");
    LLVMValueRef v = LLVMBuildLoad2(g->b, wide, cg_tile_elem_ptr(g, &src, r.iv, c.iv), "");
    LLVMBuildStore(g->b, LLVMBuildTrunc(g->b, v, narrow, ""), cg_tile_elem_ptr(g, &dst, r.iv, c.iv));
    cg_loop_end(g, &c);
    cg_loop_end(g, &r);
    return true;
}

const cg_rule cg_pto_layout_rules[] = {
    {PTO(TTRANS), lower_ttrans, 0},
    {PTO(TCONCAT), lower_tconcat, 0},
    {PTO(TPACK), lower_tpack, 0},
};
const size_t cg_pto_layout_rule_count = sizeof cg_pto_layout_rules / sizeof cg_pto_layout_rules[0];
