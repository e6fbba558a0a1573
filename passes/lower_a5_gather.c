/* lower_a5_gather.c: pto-lower-a5's gathers through an index tile.
 *
 *   tgather, index form  (TGather.hpp TGather_b32 / _b16 / _b8) per valid row
 *                        of dst and register of its columns: vlds of the
 *                        indices (as unsigned lanes), vgather2 from src's
 *                        storage at them, vsts NORM (8-bit data: 128 indices
 *                        a register, PK_B16 store of the gathered bytes)
 *
 * An index past src's storage reads whatever UB holds there, as on the
 * hardware; one that leaves UB traps (vgather2's semantics). The cpu target
 * traps at src's storage instead (docs/decisions.md).
 *
 *   tscatter             (TScatter.hpp TScatterImpl) dst's whole storage
 *                        zeroed first (InitUBBuffer: vbr 0, vsts per register
 *                        under plt of the elements left), then per valid row of
 *                        src and register of indices: vlds of src (8-bit data:
 *                        UNPK_B8, byte k in lane 2k) and of the indices as
 *                        unsigned lanes, vscatter into dst's storage
 *
 * An index past src's storage reads whatever UB holds there, as on the
 * hardware; one that leaves UB traps (vgather2's semantics). The cpu target
 * traps at src's storage instead (docs/decisions.md). tscatter likewise: an
 * index past dst's storage writes UB there. tscatter walks src's valid region
 * (the cpu target's), which the library takes from the index tile.
 *
 *   tgatherb             (TGatherB.hpp) per valid row of dst and register of
 *                        its columns (8 blocks of 32 bytes): vlds of 8 block
 *                        offsets, vgatherb from src at them under plt of the
 *                        columns left, vsts NORM
 *
 *   tscatter, 64-bit     as u32 words (the library's Int64Scatter splits them
 *   integers             too): words zeroed, then per register vldsx2
 *                        DINTLV_B32 of src's words and two vscatters, the low
 *                        words to word 2 * index, the high to 2 * index + 1
 *
 *   tgather, mask form   per valid row of src and register of its selected
 *                        columns: vci / vmuls / vadds of their element
 *                        numbers, vgather2 (8-bit data: 16-bit indices, the
 *                        bytes packed by vdintlv), vstus into one unaligned
 *                        stream over dst's storage, vstas at its end
 *
 *   tgather, compare     per valid row of src: a fresh unaligned stream, then
 *   form                 per register of its valid columns (64 of 32-bit data,
 *                        128 of 16-bit: vlds, vcmps eq/gt with kValue under plt,
 *                        punpack LOWER/HIGHER to two b32 halves), vci of the
 *                        elements' numbers offset + row * cols + column, vsqz of
 *                        them under the hits, vstus of the count at the row's
 *                        next place in dst; vstas at the row's end, and the row's
 *                        count into element row of cdst (vbr, vsts under plt 1).
 *                        The library (TGather_float_gt ...) compares f32 data
 *                        converted to s32 and f16 data as their bits, and keeps
 *                        the count in the AR register (vsqz MODE_STORED, vstur,
 *                        sprsts); ptoc compares in the element type, as the cpu
 *                        target does, and takes vsqz's count as a result.
 *
 * 16-bit data with 32-bit indices (TGather_b16_bc): 64 indices a register,
 * vgather2_bc of the elements into the even 16-bit lanes, vsts PK_B32.
 *
 * Not lowered (the op stays): 64-bit tgather, and tiles
 * other than row_major none_box vec tiles.
 */
#include "passes/lower_a5.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

static bool plain_vec(const ptoc_pto_tile_desc *t)
{
    return t && t->loc == PTOC_PTO_AS_VEC && t->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           t->slayout == PTOC_PTO_SL_NONE_BOX;
}

static void index_program(vop_builder *L, ptoc_value *src, ptoc_value *idx, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *i = vb_tile_desc(idx->type);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    unsigned bits = ptoc_type_bitwidth(d->elem), ib = ptoc_type_bitwidth(i->elem);
    int64_t count = 2048 / ib;
    ptoc_type *iu = ptoc_type_int(L->ctx, ib, PTOC_UNSIGNED);
    vb_lanes il = vb_lanes_of(L, iu);                 /* count lanes of ib-bit indices */
    ptoc_type *dvreg = ptoc_pto_vreg_type_get(L->ctx, d->elem, 2048 / bits);
    ptoc_value *sp = vb_tile_ptr(L, src, s->elem), *ip = vb_tile_ptr(L, idx, iu);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, count);
    ptoc_value *istride = vb_index(L, i->cols), *dstride = vb_index(L, d->cols);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *irow = vb_arith(L, "arith.muli", r, istride), *drow = vb_arith(L, "arith.muli", r, dstride);
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *rest = vb_arith(L, "arith.subi", vcols, c);
    ptoc_value *m = vb_first(L, &il, rest);
    ptoc_value *lops[2] = {ip, vb_arith(L, "arith.addi", irow, c)};
    ptoc_value *index = vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, lops, il.vreg, "dist", "NORM");
    ptoc_value *gops[3] = {sp, index, m};
    bool bc = bits == 16 && ib == 32;      /* 16-bit data in the even lanes, stored packed */
    ptoc_value *v = vb_vop1(L, bc ? PTOC_PTO_VOP_VGATHER2_BC : PTOC_PTO_VOP_VGATHER2, 3, gops, dvreg, NULL, NULL);
    ptoc_value *sops[4] = {v, dp, vb_arith(L, "arith.addi", drow, c), m};
    const char *dist = bits == 8 ? "PK_B16" : bc ? "PK_B32" : bits == 16 ? "NORM_B16" : "NORM_B32";
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, sops, 0, NULL, "dist", dist, NULL, NULL);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

/* InitUBBuffer: every element of dst's storage (rows x cols) zero. */
static void zero_storage(vop_builder *L, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    unsigned bits = ptoc_type_bitwidth(d->elem);
    int64_t count = 2048 / bits;
    ptoc_type *mask = ptoc_pto_mask_type_get(L->ctx, bits);
    ptoc_type *vreg = ptoc_pto_vreg_type_get(L->ctx, d->elem, count);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_value *zero = ptoc_type_is_float(d->elem) ? vb_float(L, d->elem, 0.0)
                                                   : vb_int(L, ptoc_type_int(L->ctx, bits, PTOC_SIGNLESS), 0);
    ptoc_value *zeros = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &zero, vreg, NULL, NULL);
    ptoc_value *numel = vb_index(L, d->rows * d->cols);
    vb_loop regs;
    ptoc_value *at = vb_loop_begin(L, &regs, vb_index(L, 0), numel, vb_index(L, count));
    ptoc_value *rest = vb_arith(L, "arith.subi", numel, at);
    ptoc_type *plt_types[2] = {mask, L->index};
    ptoc_pto_vop_id plt = vb_plt(bits);
    ptoc_value *m = vb_result0(vb_vop(L, plt, 1, &rest, 2, plt_types, NULL, NULL, NULL, NULL));
    ptoc_value *sops[4] = {zeros, dp, at, m};
    const char *dist = bits == 8 ? "NORM_B8" : bits == 16 ? "NORM_B16" : "NORM_B32";
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, sops, 0, NULL, "dist", dist, NULL, NULL);
    vb_loop_end(L, &regs);
}

static void scatter_program(vop_builder *L, ptoc_value *src, ptoc_value *idx, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *i = vb_tile_desc(idx->type);
    unsigned bits = ptoc_type_bitwidth(s->elem), ib = ptoc_type_bitwidth(i->elem);
    int64_t count = 2048 / ib;
    ptoc_type *iu = ptoc_type_int(L->ctx, ib, PTOC_UNSIGNED);
    vb_lanes il = vb_lanes_of(L, iu);                 /* count lanes of ib-bit indices */
    ptoc_type *svreg = ptoc_pto_vreg_type_get(L->ctx, s->elem, 2048 / bits);
    zero_storage(L, dst);
    ptoc_value *sp = vb_tile_ptr(L, src, s->elem), *ip = vb_tile_ptr(L, idx, iu);
    ptoc_value *dp = vb_tile_ptr(L, dst, s->elem);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, count);
    ptoc_value *istride = vb_index(L, i->cols), *sstride = vb_index(L, s->cols);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *irow = vb_arith(L, "arith.muli", r, istride), *srow = vb_arith(L, "arith.muli", r, sstride);
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *rest = vb_arith(L, "arith.subi", vcols, c);
    ptoc_value *m = vb_first(L, &il, rest);
    ptoc_value *vops[2] = {sp, vb_arith(L, "arith.addi", srow, c)};
    ptoc_value *v = vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, vops, svreg, "dist", bits == 8 ? "UNPK_B8" : "NORM");
    ptoc_value *lops[2] = {ip, vb_arith(L, "arith.addi", irow, c)};
    ptoc_value *index = vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, lops, il.vreg, "dist", "NORM");
    ptoc_value *sops[4] = {v, dp, index, m};
    vb_vop(L, PTOC_PTO_VOP_VSCATTER, 4, sops, 0, NULL, NULL, NULL, NULL, NULL);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

/* 64-bit data with 32-bit indices, as u32 words: dst's storage zeroed word
 * by word, then per register of 64 indices the src words deinterleaved
 * (vldsx2 DINTLV_B32: low words, high words) and scattered to words 2i and
 * 2i + 1 of dst (vadd of the index to itself, vadds 1). */
static void scatter64_program(vop_builder *L, ptoc_value *src, ptoc_value *idx, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *i = vb_tile_desc(idx->type);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    ptoc_type *u32 = ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED);
    vb_lanes ln = vb_lanes_of(L, u32);
    ptoc_value *sp = vb_tile_ptr(L, src, u32), *ip = vb_tile_ptr(L, idx, u32), *dp = vb_tile_ptr(L, dst, u32);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    ptoc_value *c0 = vb_int(L, ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS), 0);
    ptoc_value *zeros = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &c0, ln.vreg, NULL, NULL);
    ptoc_value *words = vb_index(L, d->rows * d->cols * 2);
    vb_loop regs, rows, cols;
    ptoc_value *at = vb_loop_begin(L, &regs, zero, words, step);
    ptoc_value *zops[4] = {zeros, dp, at, vb_first(L, &ln, vb_arith(L, "arith.subi", words, at))};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, zops, 0, NULL, "dist", "NORM_B32", NULL, NULL);
    vb_loop_end(L, &regs);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *c1 = vb_int(L, ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS), 1);
    ptoc_value *r = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *irow = vb_arith(L, "arith.muli", r, vb_index(L, i->cols));
    ptoc_value *srow = vb_arith(L, "arith.muli", r, vb_index(L, s->cols));
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *m = vb_first(L, &ln, vb_arith(L, "arith.subi", vcols, c));
    ptoc_value *wops[2] = {sp, vb_arith(L, "arith.muli", vb_arith(L, "arith.addi", srow, c), vb_index(L, 2))};
    ptoc_type *pair[2] = {ln.vreg, ln.vreg};
    ptoc_op *lh = vb_vop(L, PTOC_PTO_VOP_VLDSX2, 2, wops, 2, pair, "dist", "DINTLV_B32", NULL, NULL);
    ptoc_value *lops[2] = {ip, vb_arith(L, "arith.addi", irow, c)};
    ptoc_value *index = vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, lops, ln.vreg, "dist", "NORM");
    ptoc_value *dops[3] = {index, index, m};
    ptoc_value *lo = vb_vop1(L, PTOC_PTO_VOP_VADD, 3, dops, ln.vreg, NULL, NULL);
    ptoc_value *hops[3] = {lo, c1, m};
    ptoc_value *hi = vb_vop1(L, PTOC_PTO_VOP_VADDS, 3, hops, ln.vreg, NULL, NULL);
    ptoc_value *sl[4] = {ptoc_op_result(lh, 0), dp, lo, m}, *sh[4] = {ptoc_op_result(lh, 1), dp, hi, m};
    vb_vop(L, PTOC_PTO_VOP_VSCATTER, 4, sl, 0, NULL, NULL, NULL, NULL, NULL);
    vb_vop(L, PTOC_PTO_VOP_VSCATTER, 4, sh, 0, NULL, NULL, NULL, NULL, NULL);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

/* tscatter ins(src, indexes) outs(dst): 8- to 32-bit data, indices of the library's widths. */
static void lower_scatter(vop_builder *L, ptoc_op *op)
{
    if (vb_dps_ins(op) != 2)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *idx = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *i = vb_tile_desc(idx->type);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!plain_vec(s) || !plain_vec(i) || !plain_vec(d) || s->elem != d->elem || !ptoc_type_is_int(i->elem))
        return;
    unsigned bits = ptoc_type_bitwidth(d->elem), ib = ptoc_type_bitwidth(i->elem);
    if (bits == 64 && ib == 32 && ptoc_type_is_int(d->elem)) {
        vb_open_vecscope(L, op, (ptoc_value *[3]){src, idx, dst}, 3, 1);
        scatter64_program(L, src, idx, dst);
        ptoc_op_erase(op);
        return;
    }
    if (bits > 32 || ib != (bits == 32 ? 32u : 16u))
        return;
    vb_open_vecscope(L, op, (ptoc_value *[3]){src, idx, dst}, 3, 1);
    scatter_program(L, src, idx, dst);
    ptoc_op_erase(op);
}

/* tgatherb ins(src, offsets) outs(dst): 32-bit offsets, 8 a register. */
static void lower_gatherb(vop_builder *L, ptoc_op *op)
{
    if (vb_dps_ins(op) != 2)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *off = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *o = vb_tile_desc(off->type);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!plain_vec(s) || !plain_vec(o) || !plain_vec(d) || s->elem != d->elem || !ptoc_type_is_int(o->elem) ||
        ptoc_type_bitwidth(o->elem) != 32 || ptoc_type_bitwidth(d->elem) > 32)
        return;
    vb_open_vecscope(L, op, (ptoc_value *[3]){src, off, dst}, 3, 1);
    vb_lanes ln = vb_lanes_of(L, d->elem);
    ptoc_type *u32 = ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED);
    ptoc_type *ovreg = ptoc_pto_vreg_type_get(L->ctx, u32, 64);
    ptoc_value *sp = vb_tile_ptr(L, src, d->elem), *offp = vb_tile_ptr(L, off, u32);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *orow = vb_arith(L, "arith.muli", r, vb_index(L, o->cols));
    ptoc_value *drow = vb_arith(L, "arith.muli", r, vb_index(L, d->cols));
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *m = vb_first(L, &ln, vb_arith(L, "arith.subi", vcols, c));
    ptoc_value *block = vb_arith(L, "arith.divui", c, vb_index(L, ln.count / 8));
    ptoc_value *lops[2] = {offp, vb_arith(L, "arith.addi", orow, block)};
    ptoc_value *offs = vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, lops, ovreg, "dist", "NORM");
    ptoc_value *gops[3] = {sp, offs, m};
    ptoc_value *v = vb_vop1(L, PTOC_PTO_VOP_VGATHERB, 3, gops, ln.vreg, NULL, NULL);
    ptoc_value *sops[4] = {v, dp, vb_arith(L, "arith.addi", drow, c), m};
    const char *dist = ln.bits == 8 ? "NORM_B8" : ln.bits == 16 ? "NORM_B16" : "NORM_B32";
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, sops, 0, NULL, "dist", dist, NULL, NULL);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
    ptoc_op_erase(op);
}

/* The mask form's columns: every `every`th from `first` (TGather.hpp's patterns). */
static bool mask_pattern(ptoc_op *op, int64_t *every, int64_t *first)
{
    static const int64_t pat[8][2] = {{1, 0}, {2, 0}, {2, 1}, {4, 0}, {4, 1}, {4, 2}, {4, 3}, {1, 0}};
    uint32_t v = 0;
    if (!ptoc_pto_enum_value(ptoc_op_attr(op, "maskPattern"), PTOC_PTO_ENUM_MASK_PATTERN, &v) || v > 7)
        return false;
    *every = pat[v][0];
    *first = pat[v][1];
    return true;
}

/* The mask form: per valid row of src and register of
 * its selected columns, vci of the selection's numbers, vmuls / vadds to
 * src's element numbers, vgather2, and vstus into one unaligned stream over
 * dst's storage (the row's selections at row * their count), vstas at its
 * end. The library squeezes (vsqz) a register of src per step instead; the
 * gather gives the same elements in the same order. 8-bit data take 16-bit
 * indices, 128 a register. */
static void mask_program(vop_builder *L, ptoc_value *src, ptoc_value *dst, int64_t every, int64_t first)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type);
    unsigned bits = ptoc_type_bitwidth(s->elem), ib = bits == 8 ? 16 : bits;
    vb_lanes ln = vb_lanes_of(L, s->elem), il = vb_lanes_of(L, ptoc_type_int(L->ctx, ib, PTOC_UNSIGNED));
    ptoc_type *it = ptoc_type_int(L->ctx, ib, PTOC_SIGNLESS), *align = ptoc_pto_align_type_get(L->ctx);
    ptoc_type *ivreg = il.vreg;
    ptoc_value *sp = vb_tile_ptr(L, src, s->elem), *dp = vb_tile_ptr(L, dst, s->elem);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1);
    ptoc_value *up = vb_arith(L, "arith.addi", vcols, vb_index(L, every - 1 - first));
    ptoc_value *per_row = vb_arith(L, "arith.divui", up, vb_index(L, every));
    ptoc_value *stride = vb_int(L, it, every);
    ptoc_op *fresh = vb_vop(L, PTOC_PTO_VOP_INIT_ALIGN, 0, NULL, 1, &align, NULL, NULL, NULL, NULL);
    ptoc_value *init = vb_result0(fresh);
    vb_carried rows, regs;
    ptoc_value *row_state, *state;
    ptoc_value *r = vb_carry_begin(L, &rows, zero, vrows, one, init, &row_state);
    ptoc_value *row0 = vb_arith(L, "arith.muli", r, vb_index(L, s->cols));
    ptoc_value *from = vb_arith(L, "arith.addi", row0, vb_index(L, first));
    ptoc_value *out = vb_arith(L, "arith.muli", r, per_row);
    ptoc_value *k = vb_carry_begin(L, &regs, zero, per_row, vb_index(L, il.count), row_state, &state);
    ptoc_value *n = vb_arith(L, "arith.minui", vb_arith(L, "arith.subi", per_row, k), vb_index(L, il.count));
    ptoc_value *m = vb_first(L, &il, n);
    ptoc_value *kk = vb_cast(L, "arith.index_cast", k, it);
    ptoc_value *idx = vb_vop1(L, PTOC_PTO_VOP_VCI, 1, &kk, ivreg, "order", "ASC");
    ptoc_value *mops[3] = {idx, stride, m};
    idx = vb_vop1(L, PTOC_PTO_VOP_VMULS, 3, mops, ivreg, NULL, NULL);
    ptoc_value *aops[3] = {idx, vb_cast(L, "arith.index_cast", from, it), m};
    idx = vb_vop1(L, PTOC_PTO_VOP_VADDS, 3, aops, ivreg, NULL, NULL);
    ptoc_value *gops[3] = {sp, idx, m};
    ptoc_value *v = vb_vop1(L, PTOC_PTO_VOP_VGATHER2, 3, gops, ln.vreg, NULL, NULL);
    if (bits == 8) {   /* byte k in lane 2k: the even lanes packed into the first half */
        ptoc_value *pair[2] = {v, v};
        ptoc_type *types[2] = {ln.vreg, ln.vreg};
        v = vb_result0(vb_vop(L, PTOC_PTO_VOP_VDINTLV, 2, pair, 2, types, NULL, NULL, NULL, NULL));
    }
    ptoc_value *sops[5] = {state, n, v, dp, vb_arith(L, "arith.addi", out, k)};
    ptoc_value *next = vb_result0(vb_vop(L, PTOC_PTO_VOP_VSTUS, 5, sops, 1, &align, NULL, NULL, NULL, NULL));
    ptoc_value *row_next = vb_carry_end(L, &regs, next);
    ptoc_value *last = vb_carry_end(L, &rows, row_next);
    ptoc_value *flush[3] = {last, dp, vb_arith(L, "arith.muli", vrows, per_row)};
    vb_vop(L, PTOC_PTO_VOP_VSTAS, 3, flush, 0, NULL, NULL, NULL, NULL, NULL);
}

/* tgather ins(src, {maskPattern}) outs(dst): dst as large as src (the cpu
 * target's rule), element numbers that fit the indices' width. */
static void lower_mask(vop_builder *L, ptoc_op *op)
{
    int64_t every, first;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    if (!mask_pattern(op, &every, &first) || !plain_vec(s) || !plain_vec(d) || s->elem != d->elem ||
        d->rows * d->cols < s->rows * s->cols)
        return;
    unsigned bits = ptoc_type_bitwidth(s->elem);
    if (bits > 32 || (bits < 32 && s->rows * s->cols > 0x8000))
        return;
    vb_open_vecscope(L, op, (ptoc_value *[2]){src, dst}, 2, 1);
    mask_program(L, src, dst, every, first);
    ptoc_op_erase(op);
}

/* scf.for %iv = lb to ub step s iter_args(a, b): the builder left in the
 * body, *sa and *sb the carried values there. */
typedef struct carry2 { ptoc_op *op; ptoc_builder after; } carry2;

static ptoc_value *carry2_begin(vop_builder *L, carry2 *l, ptoc_value *const bounds[3], ptoc_value *a,
                                ptoc_value *b, ptoc_value **sa, ptoc_value **sb)
{
    ptoc_value *ops[5] = {bounds[0], bounds[1], bounds[2], a, b};
    ptoc_type *types[2] = {a->type, b->type};
    l->op = ptoc_builder_create(&L->b, "scf.for", 5, ops, 2, types, 0, NULL, 1);
    ptoc_block *body = ptoc_block_create(L->b.arena);
    ptoc_value *iv = ptoc_block_add_arg(body, L->b.arena, L->index, L->b.loc);
    *sa = ptoc_block_add_arg(body, L->b.arena, a->type, L->b.loc);
    *sb = ptoc_block_add_arg(body, L->b.arena, b->type, L->b.loc);
    ptoc_region_append(&l->op->regions[0], body);
    l->after = L->b;
    ptoc_builder_set_end(&L->b, body);
    return iv;
}

static void carry2_end(vop_builder *L, carry2 *l, ptoc_value *a, ptoc_value *b)
{
    ptoc_value *next[2] = {a, b};
    ptoc_builder_create(&L->b, "scf.yield", 2, next, 0, NULL, 0, NULL, 0);
    L->b = l->after;
}

/* The compare form's operands and attributes. */
typedef struct cmp_gather {
    ptoc_value *src, *k, *dst, *cdst;
    const char *mode;       /* vcmps's cmp_mode: eq or gt */
    int64_t offset;
} cmp_gather;

/* One register of hits: the numbers `first` + lane as i32, squeezed under
 * `hit` and stored at dst's element `at`; the stream's state and the count
 * of hits so far, updated. */
static void squeeze_store(vop_builder *L, ptoc_value *dp, ptoc_value *first, ptoc_value *hit, ptoc_value **state,
                          ptoc_value **count, ptoc_value *drow)
{
    ptoc_type *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    vb_lanes il = vb_lanes_of(L, i32);
    ptoc_type *align = ptoc_pto_align_type_get(L->ctx);
    ptoc_value *s32 = vb_cast(L, "arith.index_cast", first, i32);
    ptoc_value *numbers = vb_vop1(L, PTOC_PTO_VOP_VCI, 1, &s32, il.vreg, "order", "ASC");
    ptoc_value *qops[2] = {numbers, hit};
    ptoc_type *qtypes[2] = {il.vreg, L->index};
    ptoc_op *sq = vb_vop(L, PTOC_PTO_VOP_VSQZ, 2, qops, 2, qtypes, NULL, NULL, NULL, NULL);
    ptoc_value *n = ptoc_op_result(sq, 1);
    ptoc_value *sops[5] = {*state, n, vb_result0(sq), dp, vb_arith(L, "arith.addi", drow, *count)};
    *state = vb_result0(vb_vop(L, PTOC_PTO_VOP_VSTUS, 5, sops, 1, &align, NULL, NULL, NULL, NULL));
    *count = vb_arith(L, "arith.addi", *count, n);
}

static void compare_program(vop_builder *L, const cmp_gather *g)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(g->src->type), *d = vb_tile_desc(g->dst->type);
    ptoc_type *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS), *align = ptoc_pto_align_type_get(L->ctx);
    vb_lanes ln = vb_lanes_of(L, s->elem), il = vb_lanes_of(L, i32);
    ptoc_value *sp = vb_tile_ptr(L, g->src, s->elem), *dp = vb_tile_ptr(L, g->dst, i32);
    ptoc_value *cp = vb_tile_ptr(L, g->cdst, i32);
    ptoc_value *k = vb_scalar_as(L, g->k, s->elem);
    ptoc_op *valid = vb_tile_valid(L, g->src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *half = vb_index(L, il.count);
    vb_loop rows;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *srow = vb_arith(L, "arith.muli", r, vb_index(L, s->cols));
    ptoc_value *drow = vb_arith(L, "arith.muli", r, vb_index(L, d->cols));
    ptoc_value *base = vb_arith(L, "arith.addi", srow, vb_index(L, g->offset));
    ptoc_value *fresh = vb_result0(vb_vop(L, PTOC_PTO_VOP_INIT_ALIGN, 0, NULL, 1, &align, NULL, NULL, NULL, NULL));
    carry2 regs;
    ptoc_value *state, *count;
    ptoc_value *c = carry2_begin(L, &regs, (ptoc_value *[3]){zero, vcols, vb_index(L, ln.count)}, fresh, zero,
                                 &state, &count);
    ptoc_value *m = vb_first(L, &ln, vb_arith(L, "arith.subi", vcols, c));
    ptoc_value *lops[2] = {sp, vb_arith(L, "arith.addi", srow, c)};
    ptoc_value *x = vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, lops, ln.vreg, "dist", "NORM");
    ptoc_value *cops[3] = {x, k, m};
    ptoc_value *hit = vb_vop1(L, PTOC_PTO_VOP_VCMPS, 3, cops, ln.mask, "cmp_mode", g->mode);
    ptoc_value *first = vb_arith(L, "arith.addi", base, c);
    if (ln.bits == 32) {
        squeeze_store(L, dp, first, hit, &state, &count, drow);
    } else {   /* 16-bit data: the hits of lanes 0..63 and 64..127 as two b32 predicates */
        ptoc_value *lo = vb_vop1(L, PTOC_PTO_VOP_PUNPACK, 1, &hit, il.mask, "part", "LOWER");
        ptoc_value *hi = vb_vop1(L, PTOC_PTO_VOP_PUNPACK, 1, &hit, il.mask, "part", "HIGHER");
        squeeze_store(L, dp, first, lo, &state, &count, drow);
        squeeze_store(L, dp, vb_arith(L, "arith.addi", first, half), hi, &state, &count, drow);
    }
    carry2_end(L, &regs, state, count);
    state = ptoc_op_result(regs.op, 0);
    count = ptoc_op_result(regs.op, 1);
    ptoc_value *flush[3] = {state, dp, vb_arith(L, "arith.addi", drow, count)};
    vb_vop(L, PTOC_PTO_VOP_VSTAS, 3, flush, 0, NULL, NULL, NULL, NULL, NULL);
    ptoc_value *n32 = vb_cast(L, "arith.index_cast", count, i32);
    ptoc_value *all = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &n32, il.vreg, NULL, NULL);
    ptoc_value *cops2[4] = {all, cp, r, vb_first(L, &il, one)};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, cops2, 0, NULL, "dist", "NORM_B32", NULL, NULL);
    vb_loop_end(L, &rows);
}

/* tgather ins(src, kValue, tmp) outs(dst, cdst) {cmpMode, offset}: 16- and
 * 32-bit src, i32 dst and cdst, row_major none_box vec tiles. */
static void lower_compare(vop_builder *L, ptoc_op *op)
{
    cmp_gather g = {ptoc_op_operand(op, 0), ptoc_op_operand(op, 1), ptoc_op_operand(op, 3),
                    ptoc_op_operand(op, 4), "eq", 0};
    const ptoc_pto_tile_desc *s = vb_tile_desc(g.src->type), *d = vb_tile_desc(g.dst->type);
    const ptoc_pto_tile_desc *c = vb_tile_desc(g.cdst->type);
    ptoc_attr *mode = ptoc_op_attr(op, "cmpMode"), *offset = ptoc_op_attr(op, "offset");
    uint32_t v = PTOC_PTO_CMP_EQ;
    if (mode && !ptoc_pto_enum_value(mode, PTOC_PTO_ENUM_CMP, &v))
        return;
    if (v != PTOC_PTO_CMP_EQ && v != PTOC_PTO_CMP_GT)
        return;
    g.mode = v == PTOC_PTO_CMP_GT ? "gt" : "eq";
    g.offset = offset && offset->kind == PTOC_ATTR_INTEGER ? offset->u.integer.value : 0;
    if (!plain_vec(s) || !plain_vec(d) || !plain_vec(c) || vb_tile_desc(g.k->type) ||
        !vb_scalar_fits(g.k->type, s->elem) || ptoc_type_bitwidth(d->elem) != 32 ||
        ptoc_type_bitwidth(c->elem) != 32 || (ptoc_type_bitwidth(s->elem) != 16 && ptoc_type_bitwidth(s->elem) != 32))
        return;
    vb_open_vecscope(L, op, (ptoc_value *[4]){g.src, ptoc_op_operand(op, 2), g.dst, g.cdst}, 4, 2);
    compare_program(L, &g);
    ptoc_op_erase(op);
}

bool a5_gather_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TGATHER || opcode == PTOC_PTO_OP_TSCATTER || opcode == PTOC_PTO_OP_TGATHERB;
}

void a5_gather_lower(vop_builder *L, ptoc_op *op)
{
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TSCATTER) {
        lower_scatter(L, op);
        return;
    }
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TGATHERB) {
        lower_gatherb(L, op);
        return;
    }
    uint32_t ins = 0, outs = 0;
    if (ptoc_pto_dps_split(op, &ins, &outs) && ins == 3 && outs == 2 && op->noperands == 5) {
        lower_compare(L, op);
        return;
    }
    int nins = vb_dps_ins(op);
    if (nins == 1 && ptoc_op_attr(op, "maskPattern")) {
        lower_mask(L, op);
        return;
    }
    if (nins != 3)
        return;                                  /* the index form: ins(src, indices, tmp) outs(dst) */
    ptoc_value *src = ptoc_op_operand(op, 0), *idx = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, 3);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *i = vb_tile_desc(idx->type);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    const ptoc_pto_tile_desc *t = vb_tile_desc(ptoc_op_operand(op, 2)->type);
    if (!plain_vec(s) || !plain_vec(i) || !plain_vec(d) || !t || s->elem != d->elem ||
        !ptoc_type_is_int(i->elem))
        return;
    unsigned bits = ptoc_type_bitwidth(d->elem), ib = ptoc_type_bitwidth(i->elem);
    if ((ib != (bits == 32 ? 32u : 16u) && !(bits == 16 && ib == 32)) || bits > 32)
        return;
    vb_open_vecscope(L, op, (ptoc_value *[4]){src, idx, ptoc_op_operand(op, 2), dst}, 4, 1);
    index_program(L, src, idx, dst);
    ptoc_op_erase(op);
}
