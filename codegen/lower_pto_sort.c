/* lower_pto_sort.c: tsort32 and tmrgsort on the cpu target.
 *
 * Both work on 8-byte (value, index) pairs, the ISA's sorted-list format: an
 * f32 value then its u32 index, or an f16 value, 16 zero bits, then the u32
 * index. A list is one tile row of such pairs (2 f32 or 4 f16 elements each).
 *
 *   tsort32 ins(src, idx[, tmp]) outs(dst)
 *     Each row of src is cut into blocks of 32 elements; each block's pairs
 *     (src[i,32b+k], idx[i',32b+k]) are sorted and written as pairs to dst
 *     row i from byte 256*b (i' = 0 when idx has one valid row, as the A5
 *     library's zero idx stride gives, else i). Order: descending value,
 *     ties by the smaller index, then by position; a NaN sorts after every
 *     number (the ISA pads a tail with NaN to land it at the bottom). Without
 *     tmp only whole blocks are sorted (a5/TSort32.hpp: validCol / 32 repeats,
 *     the tail left alone); with tmp the tail block is sorted too and only its
 *     valid pairs are written (pto-isa's CPU model; the hardware also writes
 *     the NaN pads after them). The sort is a ranking: each pair's position is
 *     the number of pairs of its block that precede it.
 *   tmrgsort ins(src, blockLen) outs(dst)
 *     Row 0 of src holds groups of 4 sorted lists of blockLen elements each;
 *     each whole group inside dst's valid columns is merged into the same
 *     columns of dst. A blockLen that is 0 or not a whole number of pairs
 *     merges nothing (the CPU model's check).
 *   tmrgsort ins(src0, ..., src{n-1}, tmp) outs(dst[, executed]), n = 2..4
 *     The n lists (src_k's valid columns in pairs) are merged into dst until
 *     dst's valid columns are full or every list is used up; with
 *     {exhausted = true}, also as soon as one list is used up. The counts of
 *     pairs taken from each list (the hardware's VMS4_SR, `executed`) are a
 *     value operand in the IR that nothing can read after the op; they are not
 *     kept. tmp, the hardware's merge buffer, is not written.
 *   Both merges repeat pto-isa's CPU model (cpu/TMrgSort.hpp): the head of the
 *   first list that has one is the candidate, and a later list's head replaces
 *   it only when its value is strictly greater, so ties go to the earlier list.
 *
 * The A5 sort micro-ops (dialect/pto_vops.def) are the same sort and merge on
 * UB addresses, so a lowering to them keeps these bytes:
 *   vbitsort dst, src, indices, repeat   each group of 32 pairs as one tsort32
 *                                        block; the group is read first, so
 *                                        its output may overlap its input
 *   vmrgsort4 dst, s0..s3, count, config the merge above per repeat, lists of
 *                                        count's lengths, config's enable bits
 */
#include "codegen/codegen_internal.h"

/* Elements of `elem` in one 8-byte pair. */
static unsigned pair_elems(const cg_tile *t)
{
    return 8 / t->esize;
}

static bool is_f16_or_f32(const ptoc_type *t)
{
    return ptoc_type_is_float(t) && (t->u.fp.kind == PTOC_F16 || t->u.fp.kind == PTOC_F32);
}

/* Pointer to pair p (i64) of row `row` of a list tile. */
static LLVMValueRef pair_ptr(cg *g, const cg_tile *t, LLVMValueRef row, LLVMValueRef p)
{
    LLVMValueRef col = LLVMBuildMul(g->b, p, cg_i64(g, pair_elems(t)), "");
    return cg_tile_elem_ptr(g, t, row, col);
}

/* ---------------------------------------------------------------- tsort32 */

/* Whether pair (va, ia, a) precedes pair (vb, ib, b) in a sorted block: the
 * greater value first, a NaN after every number, then the smaller index,
 * then the earlier position. A strict total order, so ranks are distinct.
 * (The A2/A3 model's vbitsort sorts by it too: cg_sort_precedes.) */
LLVMValueRef cg_sort_precedes(cg *g, LLVMValueRef va, LLVMValueRef ia, LLVMValueRef a, LLVMValueRef vb,
                             LLVMValueRef ib, LLVMValueRef b)
{
    LLVMBuilderRef B = g->b;
    LLVMValueRef gt = LLVMBuildFCmp(B, LLVMRealOGT, va, vb, "");
    LLVMValueRef a_nan = LLVMBuildFCmp(B, LLVMRealUNO, va, va, "");
    LLVMValueRef b_nan = LLVMBuildFCmp(B, LLVMRealUNO, vb, vb, "");
    LLVMValueRef num_before_nan = LLVMBuildAnd(B, LLVMBuildNot(B, a_nan, ""), b_nan, "");
    LLVMValueRef tie =
        LLVMBuildOr(B, LLVMBuildFCmp(B, LLVMRealOEQ, va, vb, ""), LLVMBuildAnd(B, a_nan, b_nan, ""), "");
    LLVMValueRef by_index = LLVMBuildOr(
        B, LLVMBuildICmp(B, LLVMIntULT, ia, ib, ""),
        LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntEQ, ia, ib, ""), LLVMBuildICmp(B, LLVMIntULT, a, b, ""), ""),
        "");
    return LLVMBuildOr(B, LLVMBuildOr(B, gt, num_before_nan, ""), LLVMBuildAnd(B, tie, by_index, ""),
                       "sort.precedes");
}

typedef struct sort_operands {
    cg_tile src, idx, dst;
    LLVMValueRef idx_row; /* i64: 0 when idx has one valid row, else the row */
    /* vbitsort: the group's values, indices and output pairs in UB (row and
     * the tiles unused) */
    LLVMValueRef src_at, idx_at, dst_at;
} sort_operands;

/* Element `col` of src's (or, is_idx, idx's) row, or of the raw group. */
static LLVMValueRef block_in(cg *g, const sort_operands *o, bool is_idx, LLVMValueRef row, LLVMValueRef col)
{
    LLVMValueRef at = is_idx ? o->idx_at : o->src_at;
    if (!at)
        return cg_tile_elem_ptr(g, is_idx ? &o->idx : &o->src, row, col);
    LLVMTypeRef t = is_idx ? g->i32 : cg_elem_type(g, o->src.elem);
    return LLVMBuildInBoundsGEP2(g->b, t, at, &col, 1, "");
}

/* Pair `slot` of dst's row, or of the raw output. */
static LLVMValueRef block_out(cg *g, const sort_operands *o, LLVMValueRef row, LLVMValueRef slot)
{
    if (!o->dst_at)
        return pair_ptr(g, &o->dst, row, slot);
    return LLVMBuildInBoundsGEP2(g->b, g->i64, o->dst_at, &slot, 1, "");
}

/* Sorts block `blk` (n valid elements, i64) of row `row` into dst. */
static void emit_block(cg *g, const sort_operands *o, LLVMValueRef row, LLVMValueRef blk, LLVMValueRef n)
{
    LLVMBuilderRef B = g->b;
    const ptoc_type *elem = o->src.elem;
    LLVMValueRef zero = cg_i64(g, 0), first = LLVMBuildMul(B, blk, cg_i64(g, 32), "sort.first");
    LLVMValueRef irow = o->idx_row ? o->idx_row : row;
    if (!irow)
        irow = zero;
    LLVMValueRef rank = cg_alloca(g, g->i64, "sort.rank");
    cg_loop k, j;
    cg_loop_begin(g, &k, zero, n, "sort.elem");
    LLVMValueRef ck = LLVMBuildAdd(B, first, k.iv, "");
    LLVMValueRef pk = block_in(g, o, false, row, ck);
    LLVMValueRef vk = cg_load_elem(g, elem, pk);
    LLVMValueRef bk = LLVMBuildLoad2(B, LLVMIntTypeInContext(g->llctx, o->src.esize * 8), pk, ""); /* as is */
    LLVMValueRef ik = LLVMBuildLoad2(B, g->i32, block_in(g, o, true, irow, ck), "");
    LLVMBuildStore(B, zero, rank);
    cg_loop_begin(g, &j, zero, n, "sort.other");
    LLVMValueRef cj = LLVMBuildAdd(B, first, j.iv, "");
    LLVMValueRef vj = cg_load_elem(g, elem, block_in(g, o, false, row, cj));
    LLVMValueRef ij = LLVMBuildLoad2(B, g->i32, block_in(g, o, true, irow, cj), "");
    LLVMValueRef before = LLVMBuildZExt(B, cg_sort_precedes(g, vj, ij, j.iv, vk, ik, k.iv), g->i64, "");
    LLVMBuildStore(B, LLVMBuildAdd(B, LLVMBuildLoad2(B, g->i64, rank, ""), before, ""), rank);
    cg_loop_end(g, &j);
    /* pair (vk, ik) goes to pair slot 32*blk + rank of dst's row */
    LLVMValueRef slot = LLVMBuildAdd(B, first, LLVMBuildLoad2(B, g->i64, rank, ""), "sort.slot");
    LLVMValueRef p = block_out(g, o, row, slot);
    LLVMBuildStore(B, bk, p);
    if (o->src.esize == 2) { /* f16: the value's upper half of the 4-byte slot is zero */
        LLVMValueRef one = cg_i64(g, 1);
        LLVMBuildStore(B, LLVMConstInt(g->i16, 0, false), LLVMBuildInBoundsGEP2(B, g->i16, p, &one, 1, ""));
    }
    LLVMValueRef four = cg_i64(g, 4);
    LLVMBuildStore(B, ik, LLVMBuildInBoundsGEP2(B, g->i8, p, &four, 1, ""));
    cg_loop_end(g, &k);
}

static bool lower_tsort32(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    sort_operands o = {.idx_row = NULL};
    if (!cg_op_in(g, op, 0, &o.src) || !cg_op_in(g, op, 1, &o.idx) || !cg_op_out(g, op, 0, &o.dst))
        return false;
    if (o.src.elem != o.dst.elem || !is_f16_or_f32(o.src.elem) || o.idx.esize != 4) {
        ptoc_op_emit_error(op, "tsort32 takes f16 or f32 src and dst of one element type and a 32-bit idx");
        return false;
    }
    uint32_t nins = 0, nouts = 0;
    bool with_tmp = op->nresults ? op->noperands > 2 : (ptoc_pto_dps_split(op, &nins, &nouts) && nins > 2);
    LLVMBuilderRef B = g->b;
    LLVMValueRef vcols = o.src.vcols, c32 = cg_i64(g, 32);
    LLVMValueRef nblocks = with_tmp ? LLVMBuildUDiv(B, LLVMBuildAdd(B, vcols, cg_i64(g, 31), ""), c32, "")
                                    : LLVMBuildUDiv(B, vcols, c32, "sort.blocks");
    /* A dst row holds cols*esize/256 blocks of pairs; the hardware writes past
     * a shorter row. The verifier refuses static shapes that do; dynamic ones
     * sort only the blocks that fit. */
    int64_t fit = o.dst.desc.cols * (int64_t)o.dst.esize / 256;
    LLVMValueRef fits = cg_i64(g, fit);
    nblocks = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, nblocks, fits, ""), nblocks, fits, "");
    LLVMValueRef one_row = LLVMBuildICmp(B, LLVMIntEQ, o.idx.vrows, cg_i64(g, 1), "");
    cg_loop r, b;
    cg_loop_begin(g, &r, cg_i64(g, 0), o.dst.vrows, "sort.row");
    o.idx_row = LLVMBuildSelect(B, one_row, cg_i64(g, 0), r.iv, "sort.idx_row");
    cg_loop_begin(g, &b, cg_i64(g, 0), nblocks, "sort.block");
    LLVMValueRef left = LLVMBuildSub(B, vcols, LLVMBuildMul(B, b.iv, c32, ""), "");
    LLVMValueRef n = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, left, c32, ""), left, c32, "sort.n");
    emit_block(g, &o, r.iv, b.iv, n);
    cg_loop_end(g, &b);
    cg_loop_end(g, &r);
    return true;
}

/* ---------------------------------------------------------------- tmrgsort */

/* One list of a merge: pairs [0, len) of row 0 of `tile` from pair `base`;
 * `at` (an i64 alloca) counts the pairs taken. */
typedef struct merge_list {
    const cg_tile *tile; /* NULL: the list is in UB at `ptr` (vmrgsort4) */
    LLVMValueRef base, len, at, ptr;
    LLVMValueRef on;     /* i1, vmrgsort4's enable bit (NULL: enabled); a disabled list is never emptied */
} merge_list;

/* Pair p of row 0 of `tile`, or of the pairs at `ptr` when tile is NULL. */
static LLVMValueRef list_pair(cg *g, const cg_tile *tile, LLVMValueRef ptr, LLVMValueRef p)
{
    if (tile)
        return pair_ptr(g, tile, cg_i64(g, 0), p);
    return LLVMBuildInBoundsGEP2(g->b, g->i64, ptr, &p, 1, "");
}

/* Merges `n` lists into dst's pairs [out_base, out_base + out_len): each
 * step takes the head of the first non-empty list unless a later head is
 * strictly greater; stops when no list has a head, or (`stop_on_empty`)
 * after the step that empties a list. */
static void emit_merge(cg *g, merge_list *l, unsigned n, const cg_tile *dst, LLVMValueRef dst_ptr,
                       const ptoc_type *elem, LLVMValueRef out_base, LLVMValueRef out_len,
                       LLVMValueRef stop_on_empty)
{
    LLVMBuilderRef B = g->b;
    LLVMTypeRef vt = cg_compute_type(g, elem);
    LLVMValueRef zero = cg_i64(g, 0), one = cg_i64(g, 1);
    LLVMValueRef out = cg_alloca(g, g->i64, "merge.out");
    LLVMValueRef pick = cg_alloca(g, g->i64, "merge.pick");
    LLVMValueRef best = cg_alloca(g, vt, "merge.best");
    LLVMValueRef src = cg_alloca(g, LLVMPointerTypeInContext(g->llctx, 0), "merge.src");
    LLVMBuildStore(B, zero, out);
    for (unsigned k = 0; k < n; k++)
        LLVMBuildStore(B, zero, l[k].at);
    LLVMBasicBlockRef head = cg_block(g, "merge.step"), body = cg_block(g, "merge.pick");
    LLVMBasicBlockRef take = cg_block(g, "merge.take"), done = cg_block(g, "merge.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, LLVMBuildLoad2(B, g->i64, out, ""), out_len, ""), body,
                    done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMBuildStore(B, cg_i64(g, -1), pick);
    LLVMBuildStore(B, LLVMConstNull(vt), best);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef at = LLVMBuildLoad2(B, g->i64, l[k].at, "");
        LLVMValueRef has = LLVMBuildICmp(B, LLVMIntULT, at, l[k].len, "");
        /* the head's pointer, clamped inside the list so the load is harmless */
        LLVMValueRef last = LLVMBuildSub(B, l[k].len, one, "");
        LLVMValueRef safe = LLVMBuildSelect(
            B, has, at, LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, l[k].len, zero, ""), zero, last, ""),
            "");
        LLVMValueRef p = list_pair(g, l[k].tile, l[k].ptr, LLVMBuildAdd(B, l[k].base, safe, ""));
        LLVMValueRef v = cg_load_elem(g, elem, p);
        LLVMValueRef none = LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildLoad2(B, g->i64, pick, ""), zero, "");
        LLVMValueRef greater = LLVMBuildFCmp(B, LLVMRealOGT, v, LLVMBuildLoad2(B, vt, best, ""), "");
        LLVMValueRef choose = LLVMBuildAnd(B, has, LLVMBuildOr(B, none, greater, ""), "merge.choose");
        LLVMBuildStore(B, LLVMBuildSelect(B, choose, cg_i64(g, k), LLVMBuildLoad2(B, g->i64, pick, ""), ""),
                       pick);
        LLVMBuildStore(B, LLVMBuildSelect(B, choose, v, LLVMBuildLoad2(B, vt, best, ""), ""), best);
        LLVMTypeRef pt = LLVMPointerTypeInContext(g->llctx, 0);
        LLVMBuildStore(B, LLVMBuildSelect(B, choose, p, LLVMBuildLoad2(B, pt, src, ""), ""), src);
    }
    LLVMValueRef picked = LLVMBuildLoad2(B, g->i64, pick, "merge.picked");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGE, picked, zero, ""), take, done);
    LLVMPositionBuilderAtEnd(B, take);
    /* the whole 8-byte pair, bits as they are */
    LLVMValueRef o = LLVMBuildLoad2(B, g->i64, out, "");
    LLVMValueRef pair =
        LLVMBuildLoad2(B, g->i64, LLVMBuildLoad2(B, LLVMPointerTypeInContext(g->llctx, 0), src, ""), "");
    LLVMBuildStore(B, pair, list_pair(g, dst, dst_ptr, LLVMBuildAdd(B, out_base, o, "")));
    LLVMBuildStore(B, LLVMBuildAdd(B, o, one, ""), out);
    LLVMValueRef emptied = LLVMConstInt(g->i1, 0, false);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef mine = LLVMBuildICmp(B, LLVMIntEQ, picked, cg_i64(g, k), "");
        LLVMValueRef at =
            LLVMBuildAdd(B, LLVMBuildLoad2(B, g->i64, l[k].at, ""), LLVMBuildZExt(B, mine, g->i64, ""), "");
        LLVMBuildStore(B, at, l[k].at);
        LLVMValueRef now = LLVMBuildICmp(B, LLVMIntEQ, at, l[k].len, "");
        emptied = LLVMBuildOr(B, emptied, l[k].on ? LLVMBuildAnd(B, l[k].on, now, "") : now, "");
    }
    LLVMBuildCondBr(B, LLVMBuildAnd(B, stop_on_empty, emptied, ""), done, head);
    LLVMPositionBuilderAtEnd(B, done);
}

static bool check_list_tile(ptoc_op *op, const cg_tile *t, const cg_tile *dst)
{
    if (t->elem == dst->elem && is_f16_or_f32(t->elem))
        return true;
    ptoc_op_emit_error(op, "tmrgsort lists and dst must share one element type, f16 or f32");
    return false;
}

/* ins(src, blockLen) outs(dst): groups of 4 lists of blockLen elements. */
static bool lower_mrgsort_blocks(cg *g, ptoc_op *op)
{
    cg_tile src, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_out(g, op, 0, &dst) || !check_list_tile(op, &src, &dst))
        return false;
    const ptoc_type *lty;
    LLVMValueRef len = cg_op_scalar(g, op, 1, &lty);
    if (!len)
        return false;
    if (!ptoc_type_is_int_or_index(lty)) {
        ptoc_op_emit_error(op, "tmrgsort's blockLen must be an integer");
        return false;
    }
    LLVMBuilderRef B = g->b;
    len = LLVMBuildZExtOrBitCast(B, len, g->i64, "merge.block_len");
    LLVMValueRef per = cg_i64(g, pair_elems(&dst)), zero = cg_i64(g, 0);
    /* blockLen 0 or not whole pairs: nothing (a group count of 0) */
    LLVMValueRef whole =
        LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntNE, len, zero, ""),
                     LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildURem(B, len, per, ""), zero, ""), "");
    LLVMValueRef group = LLVMBuildMul(B, LLVMBuildSelect(B, whole, len, cg_i64(g, 1), ""), cg_i64(g, 4), "");
    LLVMValueRef ngroups =
        LLVMBuildSelect(B, whole, LLVMBuildUDiv(B, dst.vcols, group, ""), zero, "merge.groups");
    LLVMValueRef pairs = LLVMBuildUDiv(B, LLVMBuildSelect(B, whole, len, zero, ""), per, "merge.block_pairs");
    merge_list l[4];
    cg_loop gi;
    cg_loop_begin(g, &gi, zero, ngroups, "merge.group");
    LLVMValueRef base = LLVMBuildMul(B, gi.iv, LLVMBuildMul(B, pairs, cg_i64(g, 4), ""), "merge.base");
    for (unsigned k = 0; k < 4; k++)
        l[k] = (merge_list){&src, LLVMBuildAdd(B, base, LLVMBuildMul(B, pairs, cg_i64(g, k), ""), ""), pairs,
                            cg_alloca(g, g->i64, "merge.at"), NULL, NULL};
    emit_merge(g, l, 4, &dst, NULL, dst.elem, base, LLVMBuildMul(B, pairs, cg_i64(g, 4), ""),
               LLVMConstInt(g->i1, 0, false));
    cg_loop_end(g, &gi);
    return true;
}

/* ins(src0, ..., tmp) outs(dst[, executed]): 2 to 4 lists. */
static bool lower_mrgsort_lists(cg *g, ptoc_op *op, uint32_t nlists)
{
    cg_tile src[4], dst;
    if (!cg_op_out(g, op, 0, &dst))
        return false;
    for (uint32_t k = 0; k < nlists; k++)
        if (!cg_op_in(g, op, k, &src[k]) || !check_list_tile(op, &src[k], &dst))
            return false;
    ptoc_attr *ex = ptoc_op_attr(op, "exhausted");
    if (ex && ex->kind != PTOC_ATTR_BOOL) {
        ptoc_op_emit_error(op, "tmrgsort's exhausted must be true or false");
        return false;
    }
    LLVMValueRef per = cg_i64(g, pair_elems(&dst)), zero = cg_i64(g, 0);
    merge_list l[4];
    for (uint32_t k = 0; k < nlists; k++)
        l[k] = (merge_list){&src[k], zero, LLVMBuildUDiv(g->b, src[k].vcols, per, ""),
                            cg_alloca(g, g->i64, "merge.at"), NULL, NULL};
    emit_merge(g, l, nlists, &dst, NULL, dst.elem, zero, LLVMBuildUDiv(g->b, dst.vcols, per, "merge.out_len"),
               LLVMConstInt(g->i1, ex && ex->u.boolean, false));
    return true;
}

/* The form by its operands: a scalar second in is blockLen; otherwise the
 * tile ins are 2 to 4 lists and tmp. */
static bool lower_tmrgsort(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    uint32_t nins = 0, nouts = 0;
    if (op->nresults)
        nins = op->noperands;
    else if (!ptoc_pto_dps_split(op, &nins, &nouts))
        nins = 0;
    ptoc_pto_tile_desc d;
    if (nins == 2 && !cg_tile_desc_of(ptoc_op_operand(op, 1)->type, &d))
        return lower_mrgsort_blocks(g, op);
    if (nins >= 3 && nins <= 5)
        return lower_mrgsort_lists(g, op, nins - 1);
    ptoc_op_emit_error(
        op, "tmrgsort takes ins(src, blockLen) or ins(src0, ..., srcN, tmp) with 2 to 4 lists on the "
            "cpu target");
    return false;
}

/* ---------------------------------------------------------------- micro-ops */

/* Operand i of a micro-op as i64. */
static LLVMValueRef vop_i64(cg *g, ptoc_op *op, uint32_t i)
{
    LLVMValueRef v = cg_get(g, ptoc_op_operand(op, i));
    return LLVMTypeOf(v) == g->i64 ? v : LLVMBuildZExtOrBitCast(g->b, v, g->i64, "");
}

/* A p[] operand (pointer i, offset i + 1): ptr + off elements. */
static LLVMValueRef vop_address(cg *g, ptoc_op *op, uint32_t i)
{
    const ptoc_type *elem = ptoc_pto_ub_ptr_elem(ptoc_op_operand(op, i)->type);
    LLVMValueRef off = cg_get(g, ptoc_op_operand(op, i + 1));
    if (LLVMTypeOf(off) != g->i64)
        off = LLVMBuildSExt(g->b, off, g->i64, "");
    return LLVMBuildGEP2(g->b, cg_elem_type(g, elem), cg_get(g, ptoc_op_operand(op, i)), &off, 1, "");
}

/* vbitsort dst[o], src[o], indices[o], repeat: group r read into a copy
 * first (values and indices), then ranked into dst's pairs 32r.. */
static bool lower_vbitsort(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMBuilderRef B = g->b;
    const ptoc_type *elem = ptoc_pto_ub_ptr_elem(ptoc_op_operand(op, 0)->type);
    unsigned esize = ptoc_type_bitwidth(elem) / 8;
    LLVMValueRef dst = vop_address(g, op, 0), src = vop_address(g, op, 2), idx = vop_address(g, op, 4);
    LLVMValueRef vals = cg_alloca(g, LLVMArrayType(g->i8, 128), "vbitsort.values");
    LLVMValueRef ids = cg_alloca(g, LLVMArrayType(g->i32, 32), "vbitsort.indices");
    sort_operands o = {.src_at = vals, .idx_at = ids};
    o.src.elem = elem;
    o.src.esize = esize;
    cg_loop r;
    cg_loop_begin(g, &r, cg_i64(g, 0), vop_i64(g, op, 6), "vbitsort.group");
    LLVMValueRef first = LLVMBuildMul(B, r.iv, cg_i64(g, 32), "");
    LLVMValueRef byte0 = LLVMBuildMul(B, first, cg_i64(g, esize), "");
    LLVMValueRef group = LLVMBuildInBoundsGEP2(B, g->i8, src, &byte0, 1, "");
    LLVMBuildMemMove(B, vals, 4, group, 1, cg_i64(g, 32 * esize));
    LLVMBuildMemMove(B, ids, 4, LLVMBuildInBoundsGEP2(B, g->i32, idx, &first, 1, ""), 1, cg_i64(g, 128));
    o.dst_at = LLVMBuildInBoundsGEP2(B, g->i64, dst, &first, 1, "");
    emit_block(g, &o, NULL, cg_i64(g, 0), cg_i64(g, 32));
    cg_loop_end(g, &r);
    return true;
}

/* vmrgsort4 dst[o], s0[o] .. s3[o], count, config: per repeat, the enabled
 * lists (count's 16-bit lengths) merged into dst; every list and dst then
 * advance by the total length. */
static bool lower_vmrgsort4(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMBuilderRef B = g->b;
    const ptoc_type *elem = ptoc_pto_ub_ptr_elem(ptoc_op_operand(op, 0)->type);
    LLVMValueRef count = vop_i64(g, op, 10), config = vop_i64(g, op, 11);
    LLVMValueRef zero = cg_i64(g, 0), total = zero;
    merge_list l[4];
    for (unsigned k = 0; k < 4; k++) {
        LLVMValueRef on = LLVMBuildAnd(B, LLVMBuildLShr(B, config, cg_i64(g, 8 + k), ""), cg_i64(g, 1), "");
        LLVMValueRef len = LLVMBuildLShr(B, count, cg_i64(g, 16 * k), "");
        len = LLVMBuildAnd(B, len, cg_i64(g, 0xffff), "");
        len = LLVMBuildMul(B, len, on, "vmrgsort.len");
        l[k] = (merge_list){NULL, NULL, len, cg_alloca(g, g->i64, "merge.at"), vop_address(g, op, 2 + 2 * k),
                            LLVMBuildTrunc(B, on, g->i1, "")};
        total = LLVMBuildAdd(B, total, len, "");
    }
    LLVMValueRef repeat = LLVMBuildAnd(B, config, cg_i64(g, 0xff), "vmrgsort.repeat");
    LLVMValueRef stop = LLVMBuildTrunc(B, LLVMBuildLShr(B, config, cg_i64(g, 12), ""), g->i1, "");
    cg_loop r;
    cg_loop_begin(g, &r, zero, repeat, "vmrgsort.repeat");
    LLVMValueRef base = LLVMBuildMul(B, r.iv, total, "");
    for (unsigned k = 0; k < 4; k++)
        l[k].base = base;
    emit_merge(g, l, 4, NULL, vop_address(g, op, 0), elem, base, total, stop);
    cg_loop_end(g, &r);
    return true;
}

const cg_rule cg_pto_sort_vop_rules[] = {
    VOP(VBITSORT, lower_vbitsort, 0),
    VOP(VMRGSORT4, lower_vmrgsort4, 0),
};
const size_t cg_pto_sort_vop_rule_count = sizeof cg_pto_sort_vop_rules / sizeof cg_pto_sort_vop_rules[0];

const cg_rule cg_pto_sort_rules[] = {
    {PTO(TSORT32), lower_tsort32, 0},
    {PTO(TMRGSORT), lower_tmrgsort, 0},
};
const size_t cg_pto_sort_rule_count = sizeof cg_pto_sort_rules / sizeof cg_pto_sort_rules[0];
