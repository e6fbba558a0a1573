/* lower_a5_mov.c: pto-lower-a5's tmov vec -> vec for the tiles the
 * elementwise copy (lower_a5.c) leaves: two col_major none_box tiles of one
 * element type with any valid shapes. a5/TMov.hpp's TMovVecToVec copies line
 * by line (vlds, vsts under the tail predicate); a col_major tile's lines are
 * its columns, as the library treats it as the transposed row_major tile.
 * The lines are dst's valid columns, each dst's valid rows long (the cpu
 * target's region; the library copies the smaller of the two valid shapes,
 * the same when src's covers dst's).
 */
#include "passes/lower_a5.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

void a5_mov_lower(vop_builder *L, ptoc_op *op);

static bool col_major_vec(const ptoc_pto_tile_desc *d)
{
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_COL_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX;
}

static void mov_program(vop_builder *L, ptoc_value *src, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = ptoc_pto_tile_buf(src->type), *d = ptoc_pto_tile_buf(dst->type);
    unsigned bits = ptoc_type_bitwidth(d->elem), lane_bits = bits == 64 ? 32 : bits;
    int64_t count = bits == 64 ? 64 : 2048 / bits;
    ptoc_type *vreg = ptoc_pto_vreg_type_get(L->ctx, d->elem, count);
    ptoc_type *mask[2] = {ptoc_pto_mask_type_get(L->ctx, lane_bits), L->index};
    ptoc_pto_vop_id plt = vb_plt(lane_bits);
    const char *dist = lane_bits == 8 ? "NORM_B8" : lane_bits == 16 ? "NORM_B16" : "NORM_B32";
    ptoc_value *sp = vb_tile_ptr(L, src, d->elem), *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *lines = ptoc_op_result(valid, 1), *len = ptoc_op_result(valid, 0);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, count);
    ptoc_value *s_stride = vb_index(L, s->rows), *d_stride = vb_index(L, d->rows);
    vb_loop outer, inner;
    ptoc_value *j = vb_loop_begin(L, &outer, zero, lines, one);
    ptoc_value *s_base = vb_arith(L, "arith.muli", j, s_stride);
    ptoc_value *d_base = vb_arith(L, "arith.muli", j, d_stride);
    ptoc_value *c = vb_loop_begin(L, &inner, zero, len, step);
    ptoc_value *rest = vb_arith(L, "arith.subi", len, c);
    ptoc_value *m = vb_result0(vb_vop(L, plt, 1, &rest, 2, mask, NULL, NULL, NULL, NULL));
    ptoc_value *at[2] = {sp, vb_arith(L, "arith.addi", s_base, c)};
    ptoc_value *v = vb_result0(vb_vop(L, PTOC_PTO_VOP_VLDS, 2, at, 1, &vreg, "dist", "NORM", NULL, NULL));
    ptoc_value *st[4] = {v, dp, vb_arith(L, "arith.addi", d_base, c), m};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, st, 0, NULL, "dist", dist, NULL, NULL);
    vb_loop_end(L, &inner);
    vb_loop_end(L, &outer);
}

void a5_mov_lower(vop_builder *L, ptoc_op *op)
{
    if (vb_dps_ins(op) != 1 || op->nattrs > 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *s = ptoc_pto_tile_buf(src->type), *d = ptoc_pto_tile_buf(dst->type);
    if (!col_major_vec(s) || !col_major_vec(d) || s->elem != d->elem)
        return;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    mov_program(L, src, dst);
    ptoc_op_erase(op);
}
