/* lower_pto_gather.c: the gathers and scatters through an index tile on the
 * cpu target. They move elements as bits (no conversion), and an index that
 * would select outside what it indexes ends the run (PTOC_RT_TRAP_INDEX, the
 * index and the count it must stay under) instead of reading or writing there;
 * the hardware leaves such indices undefined (docs/decisions.md, "gathers").
 *
 *   tgather, index form   ins(src, indices, tmp) outs(dst):
 *       dst[i,j] = src's element k = indices[i,j] of its rows x cols storage
 *       (row k / cols, column k % cols), over dst's valid region; tmp is the
 *       A2/A3 hardware's scratch and is not used.
 *   tgather, compare form ins(src, kValue, tmp) outs(dst, cdst) {cmpMode, offset}:
 *       for each valid row i of src, the numbers offset + i * cols + j of the
 *       valid columns j whose src[i,j] == kValue (cmpMode eq, the default) or
 *       > kValue (gt) are packed, in order, at the start of dst's row i, and
 *       element i of cdst's storage gets how many there were; dst's other
 *       elements keep their values (A2/A3's vreducev2 + get_rsvd_cnt).
 *   tgather, mask form    ins(src, {maskPattern}) outs(dst):
 *       the columns j < src's valid columns the pattern selects (P0101: j % 2
 *       == 0, P1010: j % 2 == 1, P0001/P0010/P0100/P1000: j % 4 == 0/1/2/3,
 *       P1111: all) of each valid row of src, in row order, packed into dst's
 *       storage from its first element (A5's vsqz + unaligned stores).
 *   tgatherb ins(src, offsets) outs(dst):
 *       the 32-byte block b of dst's row i (32 / element size elements) is
 *       the 32 bytes at byte offsets[i,b] of src's storage; the offset must
 *       start a whole block inside src (A5's vgatherb).
 *   tscatter ins(src, indexes) outs(dst):
 *       dst's whole storage zeroed first, as both NPU libraries do
 *       (include/pto/npu/a5 and a2a3 TScatter.hpp: InitUBBuffer / vector_dup
 *       of DstTile::Numel zeros); then element indexes[i,j] of dst's storage
 *       = src[i,j], over src's valid region in row order (the last write to
 *       an element wins).
 *   mgather ins(mem, idx) outs(dst):
 *       dst[i,j] = element idx[i,j] of the GM view mem (its row-major order),
 *       over dst's valid region (pto-isa's cpu default, Coalesce::Elem).
 *   mscatter ins(src, idx) outs(mem):
 *       element idx[i,j] of the GM view mem = src[i,j], over src's valid region.
 *
 * The index tiles are read at the same (row, column) as the element they
 * place and must hold that region; a region larger than a tile is a
 * diagnostic when the shapes are static and a run-time check when not.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/runtime.h"

/* ---------------------------------------------------------------- helpers */

/* Copies one element of `esize` bytes from src to dst as its bits. */
static void copy_bits(cg *g, uint32_t esize, LLVMValueRef dst, LLVMValueRef src)
{
    LLVMTypeRef t = LLVMIntTypeInContext(g->llctx, esize * 8);
    LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, t, src, "bits"), dst);
}

/* Pointer to element k (i64) of the tile's storage, in storage order. */
static LLVMValueRef storage_ptr(cg *g, const cg_tile *t, LLVMValueRef k)
{
    return LLVMBuildInBoundsGEP2(g->b, cg_elem_type(g, t->elem), t->base, &k, 1, "");
}

static bool is_const(LLVMValueRef v) { return LLVMIsAConstantInt(v) != NULL; }

/* The op uses rows x cols (i64) of tile t from (0, 0): t must have them. */
static bool covers(cg *g, ptoc_op *op, const cg_tile *t, const char *name, LLVMValueRef rows,
                   LLVMValueRef cols)
{
    if (is_const(rows) && is_const(cols)) {
        long long r = LLVMConstIntGetSExtValue(rows), c = LLVMConstIntGetSExtValue(cols);
        if (r <= t->desc.rows && c <= t->desc.cols)
            return true;
        ptoc_op_emit_error(op, "%s (%lldx%lld) does not hold the %lldx%lld elements the op uses in it", name,
                           (long long)t->desc.rows, (long long)t->desc.cols, r, c);
        return false;
    }
    LLVMValueRef big_r = LLVMBuildICmp(g->b, LLVMIntUGT, rows, cg_i64(g, t->desc.rows), "");
    LLVMValueRef big_c = LLVMBuildICmp(g->b, LLVMIntUGT, cols, cg_i64(g, t->desc.cols), "");
    LLVMValueRef big = LLVMBuildOr(g->b, big_r, big_c, "");
    cg_trap_if(g, big, PTOC_RT_TRAP_VALID_SHAPE, op->loc, rows, cols, cg_i64(g, 0));
    return true;
}

/* The op writes n (i64) elements of t's storage from its first: t must have them. */
static bool holds(cg *g, ptoc_op *op, const cg_tile *t, const char *name, LLVMValueRef n)
{
    int64_t have = t->desc.rows * t->desc.cols;
    if (is_const(n)) {
        if (LLVMConstIntGetSExtValue(n) <= have)
            return true;
        ptoc_op_emit_error(op, "%s (%lld elements) does not hold the %lld elements the op writes", name,
                           (long long)have, (long long)LLVMConstIntGetSExtValue(n));
        return false;
    }
    LLVMValueRef last = LLVMBuildSub(g->b, n, cg_i64(g, 1), "");
    LLVMValueRef over = LLVMBuildICmp(g->b, LLVMIntSGT, n, cg_i64(g, have), "");
    cg_trap_if(g, over, PTOC_RT_TRAP_ELEMENT, op->loc, last, cg_i64(g, have), cg_i64(g, 0));
    return true;
}

static bool int_index_tile(ptoc_op *op, const cg_tile *t, const char *name)
{
    if (ptoc_type_is_int(t->elem))
        return true;
    ptoc_op_emit_error(op, "%s must have integer elements", name);
    return false;
}

/* The index at (r, c) of tile idx as an i64, by its element type's sign. */
static LLVMValueRef index_at(cg *g, const cg_tile *idx, LLVMValueRef r, LLVMValueRef c)
{
    LLVMValueRef at = cg_tile_elem_ptr(g, idx, r, c);
    LLVMValueRef v = LLVMBuildLoad2(g->b, cg_elem_type(g, idx->elem), at, "index");
    return LLVMBuildIntCast2(g->b, v, g->i64, !cg_is_unsigned(idx->elem), "");
}

/* Traps unless 0 <= k < n; `what` is the trap's third value (runtime.h). */
static void check_index(cg *g, ptoc_op *op, LLVMValueRef k, int64_t n, int64_t what)
{
    LLVMValueRef bad = LLVMBuildICmp(g->b, LLVMIntUGE, k, cg_i64(g, n), "index.out");
    cg_trap_if(g, bad, PTOC_RT_TRAP_INDEX, op->loc, k, cg_i64(g, n), cg_i64(g, what));
}

static bool same_size(ptoc_op *op, const cg_tile *a, const cg_tile *b, const char *an, const char *bn)
{
    if (a->esize == b->esize)
        return true;
    ptoc_op_emit_error(op, "%s and %s must have elements of the same size", an, bn);
    return false;
}

/* ---------------------------------------------------------------- tgather */

static bool gather_index(cg *g, ptoc_op *op)
{
    cg_tile src, idx, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_in(g, op, 1, &idx) || !cg_op_in(g, op, 3, &dst) ||
        !same_size(op, &src, &dst, "src", "dst") || !int_index_tile(op, &idx, "indices") ||
        !covers(g, op, &idx, "indices", dst.vrows, dst.vcols))
        return false;
    int64_t cols = src.desc.cols;
    cg_loop r, c;
    cg_loop_begin(g, &r, cg_i64(g, 0), dst.vrows, "gather.row");
    cg_loop_begin(g, &c, cg_i64(g, 0), dst.vcols, "gather.col");
    LLVMValueRef k = index_at(g, &idx, r.iv, c.iv);
    check_index(g, op, k, src.desc.rows * cols, 0);
    LLVMValueRef from = cg_tile_elem_ptr(g, &src, LLVMBuildUDiv(g->b, k, cg_i64(g, cols), ""),
                                         LLVMBuildURem(g->b, k, cg_i64(g, cols), ""));
    copy_bits(g, dst.esize, cg_tile_elem_ptr(g, &dst, r.iv, c.iv), from);
    cg_loop_end(g, &c);
    cg_loop_end(g, &r);
    return true;
}

static bool compare_mode(ptoc_op *op, cg_vcmp *mode, int64_t *offset)
{
    ptoc_attr *m = ptoc_op_attr(op, "cmpMode"), *o = ptoc_op_attr(op, "offset");
    uint32_t v = PTOC_PTO_CMP_EQ;
    if (m && !ptoc_pto_enum_value(m, PTOC_PTO_ENUM_CMP, &v))
        return false;   /* the verifier reports it */
    *mode = v == PTOC_PTO_CMP_GT ? CG_CMP_GT : CG_CMP_EQ;
    *offset = o && o->kind == PTOC_ATTR_INTEGER ? o->u.integer.value : 0;
    return true;
}

static bool gather_compare(cg *g, ptoc_op *op)
{
    cg_tile src, dst, cdst;
    cg_vcmp mode;
    int64_t offset;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_in(g, op, 3, &dst) || !cg_op_in(g, op, 4, &cdst) ||
        !compare_mode(op, &mode, &offset) || !cg_check_computable(op, "src", src.elem) ||
        !covers(g, op, &dst, "dst", src.vrows, src.vcols) || !holds(g, op, &cdst, "cdst", src.vrows))
        return false;
    LLVMValueRef slot = cg_op_scalar_slot(g, op, 1, src.elem);
    if (!slot)
        return false;
    LLVMValueRef kv = cg_load_elem(g, src.elem, slot), count = cg_alloca(g, g->i64, "gather.count");
    LLVMTypeRef it = cg_elem_type(g, dst.elem);
    cg_loop r, c;
    cg_loop_begin(g, &r, cg_i64(g, 0), src.vrows, "gather.row");
    LLVMBuildStore(g->b, cg_i64(g, 0), count);
    cg_loop_begin(g, &c, cg_i64(g, 0), src.vcols, "gather.col");
    LLVMValueRef v = cg_load_elem(g, src.elem, cg_tile_elem_ptr(g, &src, r.iv, c.iv));
    LLVMValueRef hit = cg_vop_compare(g, mode, src.elem, v, kv);
    LLVMBasicBlockRef take = cg_block(g, "gather.hit"), next = cg_block(g, "gather.next");
    LLVMBuildCondBr(g->b, hit, take, next);
    LLVMPositionBuilderAtEnd(g->b, take);
    LLVMValueRef n = LLVMBuildLoad2(g->b, g->i64, count, "");
    LLVMValueRef flat = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, r.iv, cg_i64(g, src.desc.cols), ""), c.iv, "");
    LLVMValueRef number = LLVMBuildAdd(g->b, flat, cg_i64(g, offset), "");
    LLVMBuildStore(g->b, LLVMBuildTrunc(g->b, number, it, ""), cg_tile_elem_ptr(g, &dst, r.iv, n));
    LLVMBuildStore(g->b, LLVMBuildAdd(g->b, n, cg_i64(g, 1), ""), count);
    LLVMBuildBr(g->b, next);
    LLVMPositionBuilderAtEnd(g->b, next);
    cg_loop_end(g, &c);
    LLVMValueRef total = LLVMBuildTrunc(g->b, LLVMBuildLoad2(g->b, g->i64, count, ""), it, "");
    LLVMBuildStore(g->b, total, storage_ptr(g, &cdst, r.iv));
    cg_loop_end(g, &r);
    return true;
}

/* The columns a mask pattern selects: those with j % every == first. */
static bool mask_pattern(ptoc_op *op, int64_t *every, int64_t *first)
{
    static const int64_t pat[8][2] = {{1, 0}, {2, 0}, {2, 1}, {4, 0}, {4, 1}, {4, 2}, {4, 3}, {1, 0}};
    uint32_t v = 0;
    if (!ptoc_pto_enum_value(ptoc_op_attr(op, "maskPattern"), PTOC_PTO_ENUM_MASK_PATTERN, &v) || v > 7)
        return false;   /* the verifier reports it */
    *every = pat[v][0];
    *first = pat[v][1];
    return true;
}

static bool gather_mask(cg *g, ptoc_op *op)
{
    cg_tile src, dst;
    int64_t every, first;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_in(g, op, 1, &dst) || !mask_pattern(op, &every, &first) ||
        !same_size(op, &src, &dst, "src", "dst"))
        return false;
    LLVMValueRef up = LLVMBuildAdd(g->b, src.vcols, cg_i64(g, every - 1 - first), "");
    LLVMValueRef per_row = LLVMBuildUDiv(g->b, up, cg_i64(g, every), "selected");
    if (!holds(g, op, &dst, "dst", LLVMBuildMul(g->b, src.vrows, per_row, "")))
        return false;
    cg_loop r, j;
    cg_loop_begin(g, &r, cg_i64(g, 0), src.vrows, "gather.row");
    cg_loop_begin(g, &j, cg_i64(g, 0), per_row, "gather.sel");
    LLVMValueRef col = LLVMBuildMul(g->b, j.iv, cg_i64(g, every), "");
    col = LLVMBuildAdd(g->b, col, cg_i64(g, first), "");
    LLVMValueRef k = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, r.iv, per_row, ""), j.iv, "");
    copy_bits(g, dst.esize, storage_ptr(g, &dst, k), cg_tile_elem_ptr(g, &src, r.iv, col));
    cg_loop_end(g, &j);
    cg_loop_end(g, &r);
    return true;
}

static bool lower_tgather(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    uint32_t nins = 0, nouts = 1;   /* the verifier has checked the form's operand counts */
    ptoc_pto_dps_split(op, &nins, &nouts);
    if (ptoc_op_attr(op, "maskPattern"))
        return gather_mask(g, op);
    return nouts == 2 ? gather_compare(g, op) : gather_index(g, op);
}

/* ---------------------------------------------------------------- tgatherb, tscatter */

static bool lower_tgatherb(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src, off, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_in(g, op, 1, &off) || !cg_op_out(g, op, 0, &dst) ||
        !int_index_tile(op, &off, "offsets"))
        return false;
    int64_t per_block = 32 / dst.esize, src_bytes = src.desc.rows * src.desc.cols * src.esize;
    LLVMValueRef blocks = LLVMBuildUDiv(g->b, LLVMBuildAdd(g->b, dst.vcols, cg_i64(g, per_block - 1), ""),
                                        cg_i64(g, per_block), "blocks");
    if (!covers(g, op, &off, "offsets", dst.vrows, blocks))
        return false;
    cg_loop r, c;
    cg_loop_begin(g, &r, cg_i64(g, 0), dst.vrows, "gatherb.row");
    cg_loop_begin(g, &c, cg_i64(g, 0), dst.vcols, "gatherb.col");
    LLVMValueRef b = LLVMBuildUDiv(g->b, c.iv, cg_i64(g, per_block), "");
    /* offsets are unsigned 32-bit byte counts (vgatherb reads them as u32) */
    LLVMValueRef o = LLVMBuildLoad2(g->b, cg_elem_type(g, off.elem), cg_tile_elem_ptr(g, &off, r.iv, b), "");
    o = LLVMBuildZExt(g->b, LLVMBuildIntCast2(g->b, o, g->i32, false, ""), g->i64, "offset");
    LLVMValueRef misaligned = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildAnd(g->b, o, cg_i64(g, 31), ""),
                                            cg_i64(g, 0), "");
    LLVMValueRef past = LLVMBuildICmp(g->b, LLVMIntUGT, o, cg_i64(g, src_bytes - 32), "");
    LLVMValueRef bad = LLVMBuildOr(g->b, misaligned, past, "");
    cg_trap_if(g, bad, PTOC_RT_TRAP_INDEX, op->loc, o, cg_i64(g, src_bytes), cg_i64(g, 1));
    LLVMValueRef lane = LLVMBuildMul(g->b, LLVMBuildURem(g->b, c.iv, cg_i64(g, per_block), ""),
                                     cg_i64(g, dst.esize), "");
    LLVMValueRef at = LLVMBuildAdd(g->b, o, lane, "");
    LLVMValueRef from = LLVMBuildInBoundsGEP2(g->b, g->i8, src.base, &at, 1, "");
    copy_bits(g, dst.esize, cg_tile_elem_ptr(g, &dst, r.iv, c.iv), from);
    cg_loop_end(g, &c);
    cg_loop_end(g, &r);
    return true;
}

static bool lower_tscatter(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src, idx, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_in(g, op, 1, &idx) || !cg_op_out(g, op, 0, &dst) ||
        !same_size(op, &src, &dst, "src", "dst") || !int_index_tile(op, &idx, "indexes") ||
        !covers(g, op, &idx, "indexes", src.vrows, src.vcols))
        return false;
    LLVMBuildMemSet(g->b, dst.base, LLVMConstNull(g->i8), cg_i64(g, dst.desc.rows * dst.desc.cols * dst.esize), 1);
    cg_loop r, c;
    cg_loop_begin(g, &r, cg_i64(g, 0), src.vrows, "scatter.row");
    cg_loop_begin(g, &c, cg_i64(g, 0), src.vcols, "scatter.col");
    LLVMValueRef k = index_at(g, &idx, r.iv, c.iv);
    check_index(g, op, k, dst.desc.rows * dst.desc.cols, 0);
    copy_bits(g, dst.esize, storage_ptr(g, &dst, k), cg_tile_elem_ptr(g, &src, r.iv, c.iv));
    cg_loop_end(g, &c);
    cg_loop_end(g, &r);
    return true;
}

/* ---------------------------------------------------------------- mgather, mscatter */

#define RANK PTOC_PTO_MAX_VIEW_RANK

/* A GM view operand: its element 0, the pointer it was made from, its five
 * dims (a rank-k view in the last k) and strides in elements. */
typedef struct gm_view {
    LLVMValueRef base, origin, shape[RANK], stride[RANK], count;
    const ptoc_type *elem;
    uint32_t rank;
} gm_view;

static bool gm_view_of(cg *g, ptoc_op *op, const ptoc_value *val, gm_view *out)
{
    const ptoc_pto_view *vt = ptoc_pto_partition_view(val->type);
    if (!vt)
        vt = ptoc_pto_tensor_view(val->type);
    if (!vt) {
        ptoc_op_emit_error(op, "the GM operand must be a tensor_view or partition_view on the cpu target");
        return false;
    }
    LLVMValueRef agg = cg_get(g, val);
    if (!agg)
        return false;
    LLVMValueRef shape = LLVMBuildExtractValue(g->b, agg, 1, "");
    LLVMValueRef strides = LLVMBuildExtractValue(g->b, agg, 2, "");
    out->base = LLVMBuildExtractValue(g->b, agg, 0, "");
    out->origin = LLVMBuildExtractValue(g->b, agg, 3, "");
    out->elem = vt->elem;
    out->rank = vt->rank;
    out->count = cg_i64(g, 1);
    for (uint32_t k = 0; k < RANK; k++) {
        uint32_t lead = RANK - vt->rank;
        int64_t d = k >= lead ? vt->shape[k - lead] : 1;
        out->shape[k] = d != PTOC_DYNAMIC ? cg_i64(g, d) : LLVMBuildExtractValue(g->b, shape, k, "");
        out->stride[k] = LLVMBuildExtractValue(g->b, strides, k, "");
        out->count = LLVMBuildMul(g->b, out->count, out->shape[k], "");
    }
    return true;
}

/* With the codegen option gm_checks: the whole view must lie in the buffer
 * of its pointer (ptoc_rt_gm_check, runtime.h), checked once before the op;
 * the indices then stay inside the view. */
static void gm_check(cg *g, ptoc_op *op, const gm_view *v, uint32_t esize, bool write)
{
    if (!g->opts->gm_checks)
        return;
    enum { N = 3 + 2 * RANK };
    LLVMTypeRef arr = LLVMArrayType2(g->i64, N);
    LLVMValueRef window = cg_alloca(g, arr, "gm.window"), vals[N];
    vals[0] = cg_i64(g, esize);
    vals[1] = cg_i64(g, write);
    vals[2] = cg_i64(g, v->rank);
    for (int k = 0; k < RANK; k++) {
        vals[3 + k] = v->shape[k];
        vals[3 + RANK + k] = v->stride[k];
    }
    for (int k = 0; k < N; k++) {
        LLVMValueRef idx[2] = {cg_i32(g, 0), cg_i32(g, k)};
        LLVMBuildStore(g->b, vals[k], LLVMBuildInBoundsGEP2(g->b, arr, window, idx, 2, ""));
    }
    LLVMValueRef args[5] = {cg_where(g, op->loc), cg_op_name(g, op->name->str), v->origin, v->base, window};
    cg_call_runtime(g, "ptoc_rt_gm_check", args, 5);
}

/* Pointer to the view's element k (0 <= k < count) in row-major order of its dims. */
static LLVMValueRef gm_elem_ptr(cg *g, const gm_view *v, LLVMValueRef k)
{
    LLVMValueRef off = cg_i64(g, 0);
    for (int d = RANK - 1; d >= 0; d--) {
        LLVMValueRef at = LLVMBuildURem(g->b, k, v->shape[d], "");
        k = LLVMBuildUDiv(g->b, k, v->shape[d], "");
        off = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, at, v->stride[d], ""), "");
    }
    return LLVMBuildGEP2(g->b, cg_elem_type(g, v->elem), v->base, &off, 1, "");
}

/* mgather (rule arg 0): ins(mem, idx) outs(dst); mscatter (1): ins(src, idx) outs(mem). */
static bool lower_gm_indexed(cg *g, ptoc_op *op, const cg_rule *rule)
{
    bool scatter = rule->arg == 1;
    cg_tile t, idx;
    gm_view v;
    if (!(scatter ? cg_op_in(g, op, 0, &t) : cg_op_out(g, op, 1, &t)) || !cg_op_in(g, op, 1, &idx) ||
        !gm_view_of(g, op, ptoc_op_operand(op, scatter ? 2 : 0), &v) || !int_index_tile(op, &idx, "idx") ||
        !covers(g, op, &idx, "idx", t.vrows, t.vcols))
        return false;
    if (cg_elem_size(v.elem) != t.esize) {
        ptoc_op_emit_error(op, "the view and the tile must have elements of the same size");
        return false;
    }
    gm_check(g, op, &v, t.esize, scatter);
    cg_loop r, c;
    cg_loop_begin(g, &r, cg_i64(g, 0), t.vrows, scatter ? "mscatter.row" : "mgather.row");
    cg_loop_begin(g, &c, cg_i64(g, 0), t.vcols, scatter ? "mscatter.col" : "mgather.col");
    LLVMValueRef k = index_at(g, &idx, r.iv, c.iv);
    LLVMValueRef out = LLVMBuildICmp(g->b, LLVMIntUGE, k, v.count, "index.out");
    cg_trap_if(g, out, PTOC_RT_TRAP_INDEX, op->loc, k, v.count, cg_i64(g, 2));
    LLVMValueRef gm = gm_elem_ptr(g, &v, k), tile = cg_tile_elem_ptr(g, &t, r.iv, c.iv);
    copy_bits(g, t.esize, scatter ? gm : tile, scatter ? tile : gm);
    cg_loop_end(g, &c);
    cg_loop_end(g, &r);
    return true;
}

const cg_rule cg_pto_gather_rules[] = {
    {PTO(TGATHER), lower_tgather, 0},
    {PTO(TGATHERB), lower_tgatherb, 0},
    {PTO(TSCATTER), lower_tscatter, 0},
    {PTO(MGATHER), lower_gm_indexed, 0},
    {PTO(MSCATTER), lower_gm_indexed, 1},
};
const size_t cg_pto_gather_rule_count = sizeof cg_pto_gather_rules / sizeof cg_pto_gather_rules[0];
