/* lower_a2a3_shift.c: pto-lower-a2a3's shifts (pto-isa a2a3 TShl.hpp,
 * TShr.hpp, TBitwiseSOp.hpp).
 *
 *   tshls src, s -> dst       vshl dst, src, s (the elementwise program)
 *   tshrs src, s -> dst       vshr dst, src, s: unsigned elements only. The
 *                             library's vshr is logical (isArithmetic false),
 *                             where the cpu target shifts signed elements
 *                             arithmetically: a signed tshrs stays.
 *
 * Both on 16- and 32-bit integers (TShiftCheck's types). A2/A3 has no vector
 * shift by a vector of amounts; for tshl and tshr the library shifts element
 * by element on the scalar unit, and so does this program:
 *
 *   for r, c in dst's valid shape:
 *     dst[r, c] = src0[r, c] << src1[r, c]     (tshl: arith.shli)
 *     dst[r, c] = src0[r, c] >> src1[r, c]     (tshr: arith.shrsi for signed
 *                                               elements, arith.shrui else)
 *
 * through tgetval and tsetval. The library shifts in C's int (16-bit elements
 * promoted), so an amount from the width up to 31 gives 0, or the sign for a
 * signed >>; the arith shifts give the same, and define the amounts C leaves
 * undefined (32 or more, negative) as the cpu target does. Integer elements
 * of 8, 16 or 32 bits (the library's types) on row-major vec tiles.
 */
#include "passes/lower_a2a3.h"

bool a2_shift_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TSHL || opcode == PTOC_PTO_OP_TSHR || opcode == PTOC_PTO_OP_TSHLS ||
           opcode == PTOC_PTO_OP_TSHRS;
}

/* tshls, tshrs: one vshl or vshr program. */
static void lower_by_scalar(vop_builder *L, ptoc_op *op)
{
    if (vb_dps_ins(op) != 2)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *s = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    bool left = ptoc_pto_opcode(op) == PTOC_PTO_OP_TSHLS;
    if (!d || !ptoc_type_is_int(d->elem) || !a2_plain_tile(dst->type, d->elem) ||
        !a2_plain_tile(src->type, d->elem) || vb_tile_desc(s->type) || !vb_scalar_fits(s->type, d->elem))
        return;
    if (!left && d->elem->u.integer.sign != PTOC_UNSIGNED)
        return;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    ptoc_pto_vop_id vop = left ? PTOC_PTO_VOP_A2A3_VSHL : PTOC_PTO_VOP_A2A3_VSHR;
    a2_elementwise_program(L, vop, &src, 1, dst, vb_scalar_as(L, s, d->elem));
    ptoc_op_erase(op);
}

/* A row-major, none-box vec tile of the integer elem the library shifts. */
static bool shift_tile(const ptoc_value *t, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(t->type);
    unsigned bits = ptoc_type_bitwidth(elem);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && d->elem == elem && ptoc_type_is_int(elem) &&
           (bits == 8 || bits == 16 || bits == 32);
}

/* tgetval of `tile` at element offset `at`, as the signless `ielem`. */
static ptoc_value *get(vop_builder *L, ptoc_value *tile, ptoc_value *at, ptoc_type *ielem)
{
    ptoc_value *ops[2] = {tile, at};
    ptoc_op *load = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TGETVAL), 2, ops, 1, &ielem, 0, NULL, 0);
    ptoc_op_set_segment_sizes(load, L->b.arena, 2, (int64_t[2]){2, 0});
    return vb_result0(load);
}

static void set(vop_builder *L, ptoc_value *tile, ptoc_value *at, ptoc_value *v)
{
    ptoc_value *ops[3] = {at, v, tile};
    ptoc_op *store = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TSETVAL), 3, ops, 0, NULL, 0, NULL, 0);
    ptoc_op_set_segment_sizes(store, L->b.arena, 2, (int64_t[2]){2, 1});
}

static ptoc_value *offset(vop_builder *L, ptoc_value *tile, ptoc_value *r, ptoc_value *c)
{
    int64_t cols = vb_tile_desc(tile->type)->cols;
    return vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, vb_int(L, L->index, cols)), c);
}

void a2_shift_lower(vop_builder *L, ptoc_op *op)
{
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    if (opcode == PTOC_PTO_OP_TSHLS || opcode == PTOC_PTO_OP_TSHRS) {
        lower_by_scalar(L, op);
        return;
    }
    if (vb_dps_ins(op) != 2)
        return;
    ptoc_value *a = ptoc_op_operand(op, 0), *b = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d || !shift_tile(dst, d->elem) || !shift_tile(a, d->elem) || !shift_tile(b, d->elem))
        return;
    ptoc_builder_set_before(&L->b, op);
    L->b.loc = op->loc;
    ptoc_type *ielem = ptoc_type_int(L->ctx, ptoc_type_bitwidth(d->elem), PTOC_SIGNLESS);
    const char *name = ptoc_pto_opcode(op) == PTOC_PTO_OP_TSHL ? "arith.shli"
                       : d->elem->u.integer.sign == PTOC_UNSIGNED ? "arith.shrui"
                                                                   : "arith.shrsi";
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, ptoc_op_result(valid, 0), one);
    ptoc_value *c = vb_loop_begin(L, &cols, zero, ptoc_op_result(valid, 1), one);
    ptoc_value *x = get(L, a, offset(L, a, r, c), ielem), *n = get(L, b, offset(L, b, r, c), ielem);
    set(L, dst, offset(L, dst, r, c), vb_arith(L, name, x, n));
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
    ptoc_op_erase(op);
}
