/* lower_a2a3_rowprod.c: pto-lower-a2a3's trowprod (pto-isa a2a3 TRowProd.hpp).
 *
 *   trowprod src[, tmp] -> dst     dst[r, 0] = the product of row r's valid
 *                                  elements (f16 f32 i16 i32)
 *
 * Per valid row in counter mode, in the cpu target's order: vector_dup one
 * 256-byte chunk (E lanes) of 1s into the buffer (the tmp tile when it holds
 * E elements, else the hidden scratch window as a 1 x E tile), then vmul of
 * each of the row's whole chunks into it, the tail chunk under the count of
 * its elements: lane l holds the product of columns l, l + E, l + 2E ... in
 * order. A tree of vmuls (lane k times lane k + half, half = E/2 .. 1) then
 * leaves the product in lane 0, which the scalar unit (V -> S, S -> V
 * set_flag/wait_flag around it) stores as dst[r, 0] (tsetval), a NaN made
 * the quiet NaN the cpu target's products give (0x7fc00000, f16 0x7e00).
 * TRowProd folds 32-byte blocks instead and multiplies their lanes left to
 * right on the scalar unit: another rounding of float products, which ptoc
 * does not follow (docs/decisions.md). Integers wrap: the same bits in any
 * order.
 */
#include "passes/lower_a2a3.h"
#include "ptoc/ptoc.h"

bool a2_rowprod_lowers(ptoc_pto_op_id opcode) { return opcode == PTOC_PTO_OP_TROWPROD; }

static bool vec_none_box(const ptoc_value *v, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(v->type);
    return d && d->loc == PTOC_PTO_AS_VEC && d->slayout == PTOC_PTO_SL_NONE_BOX && d->elem == elem;
}

/* Element (r, 0)'s offset in the tile's storage. */
static ptoc_value *first_of_row(vop_builder *L, ptoc_value *tile, ptoc_value *r)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(tile->type);
    return d->blayout == PTOC_PTO_BL_COL_MAJOR ? r : vb_arith(L, "arith.muli", r, vb_index(L, d->cols));
}

/* A 1 x E tile at the hidden scratch window (before the op). */
static ptoc_value *window_tile(vop_builder *L, ptoc_type *elem, int64_t E)
{
    ptoc_pto_tile_desc d = ptoc_pto_tile_desc_init(elem, 1, E);
    ptoc_type *t = ptoc_pto_tile_type(L->ctx, PTOC_PTO_TYPE_TILE_BUF, &d);
    ptoc_value *addr = vb_int(L, ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS),
                              (int64_t)ptoc_pto_arch_info_of(PTOC_PTO_ARCH_A3)->scratch_begin);
    ptoc_op *a = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_ALLOC_TILE), 1, &addr, 1, &t, 0, NULL, 0);
    ptoc_op_set_segment_sizes(a, L->b.arena, 3, (int64_t[3]){1, 0, 0});
    return vb_result0(a);
}

/* vmul buf, buf, src[off] over the count set now (the lanes of one chunk). */
static void mul_block(a2_prog *P, ptoc_value *off)
{
    ptoc_value *offs[3] = {a2_index(P, 0), a2_index(P, 0), off};
    (void)a2_instr(P, offs, a2_index(P, 1), NULL);
}

static ptoc_value *get(vop_builder *L, ptoc_value *tile, ptoc_value *at, ptoc_type *ty)
{
    ptoc_value *ops[2] = {tile, at};
    ptoc_op *load = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TGETVAL), 2, ops, 1, &ty, 0, NULL, 0);
    ptoc_op_set_segment_sizes(load, L->b.arena, 2, (int64_t[2]){2, 0});
    return vb_result0(load);
}

/* buf[0 .. half) *= buf[half .. 2 half) for half = E/2 .. 1, each under its count. */
static void tree(vop_builder *L, ptoc_value *buf, ptoc_type *elem, int64_t E)
{
    a2_prog T;
    a2_prog_init(&T, L, PTOC_PTO_VOP_A2A3_VMUL, elem);
    for (int i = 0; i < 3; i++)
        a2_ptr(&T, buf, elem, 0);
    for (int64_t half = E / 2; half >= 1; half /= 2) {
        a2_set_mask(&T, a2_i64(&T, 0), a2_i64(&T, half));
        ptoc_value *offs[3] = {a2_index(&T, 0), a2_index(&T, 0), a2_index(&T, half)};
        (void)a2_instr(&T, offs, a2_index(&T, 1), NULL);
    }
}

void a2_rowprod_lower(vop_builder *L, ptoc_op *op)
{
    int nins = vb_dps_ins(op);
    if (nins != 1 && nins != 2)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    ptoc_value *tmp = nins == 2 ? ptoc_op_operand(op, 1) : NULL;
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type);
    if (!s || !a2_plain_tile(src->type, s->elem) || !vec_none_box(dst, s->elem))
        return;
    ptoc_type *elem = s->elem;
    int64_t E = 256 / (int64_t)ptoc_pto_elem_bytes(elem);
    const ptoc_pto_tile_desc *t = tmp ? vb_tile_desc(tmp->type) : NULL;
    if (t && (!a2_plain_tile(tmp->type, elem) || t->cols < E))
        tmp = NULL;                 /* too small a tmp: the window holds the chunk */
    a2_prog P;
    ptoc_builder_set_before(&L->b, op);
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VMUL, elem);
    ptoc_value *buf = tmp ? tmp : window_tile(L, elem, E);
    ptoc_value *tiles[3] = {src, buf, dst};
    vb_open_vecscope(L, op, tiles, 3, 2);
    a2_ptr(&P, buf, elem, 0);
    a2_ptr(&P, buf, elem, 0);
    a2_ptr(&P, src, elem, s->cols);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *nblocks = vb_arith(L, "arith.divsi", vcols, a2_index(&P, E));
    ptoc_value *tail = vb_arith(L, "arith.remsi", vcols, a2_index(&P, E));
    bool fp = ptoc_type_is_float(elem);
    ptoc_value *one = fp ? vb_float(L, elem, 1.0) : vb_int(L, ptoc_type_int(L->ctx, ptoc_type_bitwidth(elem), PTOC_SIGNLESS), 1);

    a2_vop0(&P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    vb_loop rows, blocks;
    ptoc_value *r = vb_loop_begin(L, &rows, a2_index(&P, 0), vrows, a2_index(&P, 1));
    a2_set_mask(&P, a2_i64(&P, 0), a2_i64(&P, E));
    ptoc_value *dops[4] = {P.ptrs[0], a2_index(&P, 0), one, a2_index(&P, 1)};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, 4, dops, 0, NULL, NULL, NULL, NULL, NULL);
    ptoc_value *row = vb_arith(L, "arith.muli", r, a2_index(&P, s->cols));
    ptoc_value *b = vb_loop_begin(L, &blocks, a2_index(&P, 0), nblocks, a2_index(&P, 1));
    mul_block(&P, vb_arith(L, "arith.addi", row, vb_arith(L, "arith.muli", b, a2_index(&P, E))));
    vb_loop_end(L, &blocks);
    vb_if some;
    vb_if_begin(L, &some, vb_cmpi(L, 1 /* ne */, tail, a2_index(&P, 0)));
    a2_set_mask(&P, a2_i64(&P, 0), a2_as_i64(&P, tail));
    mul_block(&P, vb_arith(L, "arith.addi", row, vb_arith(L, "arith.muli", nblocks, a2_index(&P, E))));
    vb_if_end(L, &some);
    tree(L, buf, elem, E);
    a2_handshake(L, PTOC_PTO_PIPE_V, PTOC_PTO_PIPE_S);
    ptoc_type *ty = ptoc_type_is_float(elem) ? elem : ptoc_type_int(L->ctx, ptoc_type_bitwidth(elem), PTOC_SIGNLESS);
    ptoc_value *v = get(L, buf, a2_index(&P, 0), ty);
    if (ptoc_type_is_float(elem))
        v = vb_quiet_nan(L, v);
    ptoc_value *sops[3] = {first_of_row(L, dst, r), v, dst};
    ptoc_op *store = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TSETVAL), 3, sops, 0, NULL, 0, NULL, 0);
    ptoc_op_set_segment_sizes(store, L->b.arena, 2, (int64_t[2]){2, 1});
    a2_handshake(L, PTOC_PTO_PIPE_S, PTOC_PTO_PIPE_V);
    vb_loop_end(L, &rows);
    a2_count_end(&P);
    ptoc_op_erase(op);
}
