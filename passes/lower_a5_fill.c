/* lower_a5_fill.c: pto-lower-a5's fill ops.
 *
 *   texpands   (a5/TExpandS.hpp) the scalar in every valid element of dst: per
 *              line of dst's valid region, per register of the line, vdup of
 *              the scalar under the tail predicate and vsts. A row_major tile's
 *              lines are its rows; a col_major one's are its columns, as the
 *              library treats it as the transposed row_major tile. 64-bit
 *              tiles take vbr once (Int64Fill's vbr of the words), which
 *              pto-split-u64 makes the word pair and its vstsx2.
 *
 * The scalar is converted as vb_scalar_as says (the elementwise ops' rule); a
 * scalar that would need an int/float conversion, a boxed layout or a 64-bit
 * float tile is not lowered. Int64Fill stores one register (64 elements) per
 * row; ptoc fills every valid column, as the cpu target does
 * (docs/decisions.md).
 */
#include "passes/lower_a5.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

bool a5_fill_lowers(ptoc_pto_op_id opcode);
void a5_fill_lower(vop_builder *L, ptoc_op *op);

bool a5_fill_lowers(ptoc_pto_op_id opcode) { return opcode == PTOC_PTO_OP_TEXPANDS; }

/* ---------------------------------------------------------------- registers */

typedef struct lanes {
    ptoc_type *elem, *vreg, *mask;
    unsigned bits;              /* the predicate's granularity (32 for 64-bit lanes) */
    int64_t count;              /* elements per register */
} lanes;

static lanes lanes_of(vop_builder *L, ptoc_type *elem)
{
    unsigned ebits = ptoc_type_bitwidth(elem);
    lanes r = {elem, NULL, NULL, ebits == 64 ? 32 : ebits, ebits == 64 ? 64 : 2048 / ebits};
    r.vreg = ptoc_pto_vreg_type_get(L->ctx, elem, r.count);
    r.mask = ptoc_pto_mask_type_get(L->ctx, r.bits);
    return r;
}

static ptoc_value *first(vop_builder *L, const lanes *ln, ptoc_value *n)
{
    ptoc_pto_vop_id id = ln->bits == 8 ? PTOC_PTO_VOP_PLT_B8 : ln->bits == 16 ? PTOC_PTO_VOP_PLT_B16
                                                                               : PTOC_PTO_VOP_PLT_B32;
    ptoc_type *types[2] = {ln->mask, L->index};
    return vb_result0(vb_vop(L, id, 1, &n, 2, types, NULL, NULL, NULL, NULL));
}

static void store(vop_builder *L, const lanes *ln, ptoc_value *v, ptoc_value *ptr, ptoc_value *off,
                  ptoc_value *m)
{
    ptoc_value *ops[4] = {v, ptr, off, m};
    const char *dist = ln->bits == 8 ? "NORM_B8" : ln->bits == 16 ? "NORM_B16" : "NORM_B32";
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, ops, 0, NULL, "dist", dist, NULL, NULL);
}

/* ---------------------------------------------------------------- texpands */

static void expands_program(vop_builder *L, ptoc_value *scalar, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(dst->type);
    bool by_rows = d->blayout == PTOC_PTO_BL_ROW_MAJOR;
    lanes ln = lanes_of(L, d->elem);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *lines = ptoc_op_result(valid, by_rows ? 0 : 1), *len = ptoc_op_result(valid, by_rows ? 1 : 0);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    ptoc_value *stride = vb_index(L, by_rows ? d->cols : d->rows);
    ptoc_value *s = vb_scalar_as(L, scalar, d->elem);
    bool wide = ptoc_type_bitwidth(d->elem) == 64;
    ptoc_value *splat = NULL;
    if (wide)
        splat = vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &s, 1, &ln.vreg, NULL, NULL, NULL, NULL));
    vb_loop outer, inner;
    ptoc_value *i = vb_loop_begin(L, &outer, zero, lines, one);
    ptoc_value *base = vb_arith(L, "arith.muli", i, stride);
    ptoc_value *c = vb_loop_begin(L, &inner, zero, len, step);
    ptoc_value *m = first(L, &ln, vb_arith(L, "arith.subi", len, c));
    ptoc_value *v = splat;
    if (!wide) {
        ptoc_value *ops[2] = {s, m};
        v = vb_result0(vb_vop(L, PTOC_PTO_VOP_VDUP, 2, ops, 1, &ln.vreg, NULL, NULL, NULL, NULL));
    }
    store(L, &ln, v, dp, vb_arith(L, "arith.addi", base, c), m);
    vb_loop_end(L, &inner);
    vb_loop_end(L, &outer);
}

void a5_fill_lower(vop_builder *L, ptoc_op *op)
{
    if (vb_dps_ins(op) != 1)
        return;
    ptoc_value *scalar = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(dst->type);
    if (!d || ptoc_pto_tile_buf(scalar->type) || d->loc != PTOC_PTO_AS_VEC ||
        d->slayout != PTOC_PTO_SL_NONE_BOX ||
        (d->blayout != PTOC_PTO_BL_ROW_MAJOR && d->blayout != PTOC_PTO_BL_COL_MAJOR) ||
        !vb_scalar_fits(scalar->type, d->elem) ||
        (ptoc_type_is_float(d->elem) && ptoc_type_bitwidth(d->elem) == 64))
        return;
    vb_open_vecscope(L, op, &dst, 1, 1);
    expands_program(L, scalar, dst);
    ptoc_op_erase(op);
}
