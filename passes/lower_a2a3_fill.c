/* lower_a2a3_fill.c: pto-lower-a2a3's texpands (pto-isa a2a3 TExpandS.hpp).
 *
 *   texpands s -> dst          vector_dup dst, s in counter mode: the scalar
 *                              converted once to dst's element type
 *                              (vb_scalar_as), into every valid element
 *
 * The library's two programs: one count over the whole valid region when it
 * is contiguous (one row, or dst's valid columns are its columns: statically,
 * or a dynamic valid shape of one row), else one instruction per valid row
 * with the valid columns as the count. dst of f16, f32, i16 or i32 (either
 * sign); bf16 and 8-bit integers as u16 lanes (the library's byte pairs), an
 * odd byte count's last byte set alone (halfword_program).
 *
 *   tci S -> dst               element by element on the scalar unit (TCI.hpp's
 *                              TCI_IMPL): dst[0, j] = S + j (descending: S - j)
 *                              for j < dst's valid columns, wrapping in the
 *                              element; tsetval in a loop (PIPE_S on A2/A3).
 *                              A one-row dst of 16- or 32-bit integers.
 *   ttri d -> dst              TTri.hpp in counter mode, per valid row i: lower
 *                              (upperOrLower 0): vector_dup 0 over the valid
 *                              columns, then 1 over the first min(i + d + 1,
 *                              valid columns) when i + d >= 0; upper: 1, then 0
 *                              over the first min(i + d, valid columns).
 */
#include "passes/lower_a2a3.h"

bool a2_fill_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TEXPANDS || opcode == PTOC_PTO_OP_TCI || opcode == PTOC_PTO_OP_TTRI;
}

static void lower_tci(vop_builder *L, ptoc_op *op)
{
    ptoc_value *s = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    ptoc_attr *desc = ptoc_op_attr(op, "descending");
    if (!d || d->rows != 1 || !ptoc_type_is_int(d->elem) || !a2_plain_tile(dst->type, d->elem) ||
        !ptoc_type_is_int(s->type) || (desc && desc->kind != PTOC_ATTR_INTEGER && desc->kind != PTOC_ATTR_BOOL))
        return;
    bool descending = desc && (desc->kind == PTOC_ATTR_BOOL ? desc->u.boolean : desc->u.integer.value != 0);
    ptoc_builder_set_before(&L->b, op);
    L->b.loc = op->loc;
    ptoc_type *ielem = ptoc_type_int(L->ctx, ptoc_type_bitwidth(d->elem), PTOC_SIGNLESS);
    ptoc_value *start = vb_scalar_as(L, s, d->elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    vb_loop cols;
    ptoc_value *j = vb_loop_begin(L, &cols, vb_index(L, 0), ptoc_op_result(valid, 1), vb_index(L, 1));
    ptoc_value *step = vb_cast(L, "arith.index_cast", j, ielem);
    ptoc_value *v = vb_arith(L, descending ? "arith.subi" : "arith.addi", start, step);
    ptoc_value *ops[3] = {j, v, dst};
    ptoc_op *store = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TSETVAL), 3, ops, 0, NULL, 0, NULL, 0);
    ptoc_op_set_segment_sizes(store, L->b.arena, 2, (int64_t[2]){2, 1});
    vb_loop_end(L, &cols);
    ptoc_op_erase(op);
}

void a2_fill_program(vop_builder *L, ptoc_value *dst, ptoc_value *s)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, d->elem);
    a2_ptr(&P, dst, d->elem, d->cols);
    P.scalar = vb_scalar_as(L, s, d->elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    bool contiguous = d->rows == 1 || (d->valid_cols != PTOC_DYNAMIC && d->valid_cols == d->cols);
    if (contiguous)
        a2_whole_count(&P, vb_arith(L, "arith.muli", vrows, vcols));
    else
        a2_rows_count(&P, vrows, vcols);
}

/* One vector_dup of `v` over the first n (index) elements of row `off` (counter mode). */
static void dup_count(a2_prog *P, ptoc_value *off, ptoc_value *n, ptoc_value *v)
{
    a2_set_mask(P, a2_i64(P, 0), a2_as_i64(P, n));
    P->scalar = v;
    ptoc_value *offs[1] = {off};
    a2_instr(P, offs, a2_index(P, 1), NULL);
}

static void lower_ttri(vop_builder *L, ptoc_op *op)
{
    ptoc_value *diag = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    ptoc_attr *which = ptoc_op_attr(op, "upperOrLower");
    if (!d || !a2_plain_tile(dst->type, d->elem) || !ptoc_type_is_int(diag->type) ||
        (which && which->kind != PTOC_ATTR_INTEGER && which->kind != PTOC_ATTR_BOOL))
        return;
    bool upper = which && (which->kind == PTOC_ATTR_BOOL ? which->u.boolean : which->u.integer.value != 0);
    vb_open_vecscope(L, op, &dst, 1, 1);
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, d->elem);
    a2_ptr(&P, dst, d->elem, d->cols);
    bool fp = ptoc_type_is_float(d->elem);
    ptoc_type *lane = fp ? d->elem : ptoc_type_int(L->ctx, ptoc_type_bitwidth(d->elem), PTOC_SIGNLESS);
    ptoc_value *one = fp ? vb_float(L, lane, 1.0) : vb_int(L, lane, 1);
    ptoc_value *zero = fp ? vb_float(L, lane, 0.0) : vb_int(L, lane, 0);
    ptoc_value *dg = ptoc_type_bitwidth(diag->type) == 64 ? diag : vb_cast(L, "arith.extsi", diag, P.i64);
    dg = vb_cast(L, "arith.index_cast", dg, L->index);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vcols = ptoc_op_result(valid, 1);
    a2_vop0(&P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    vb_loop rows;
    ptoc_value *r = vb_loop_begin(L, &rows, vb_index(L, 0), ptoc_op_result(valid, 0), vb_index(L, 1));
    ptoc_value *off = vb_arith(L, "arith.muli", r, vb_index(L, d->cols));
    dup_count(&P, off, vcols, upper ? one : zero);
    ptoc_value *last = vb_arith(L, "arith.addi", r, dg);
    vb_if some;
    vb_if_begin(L, &some, vb_cmpi(L, 5 /* sge */, last, vb_index(L, 0)));
    ptoc_value *want = upper ? last : vb_arith(L, "arith.addi", last, vb_index(L, 1));
    dup_count(&P, off, vb_arith(L, "arith.minsi", want, vcols), upper ? zero : one);
    vb_if_end(L, &some);
    vb_loop_end(L, &rows);
    a2_count_end(&P);
    ptoc_op_erase(op);
}

/* A row-major none_box vec tile of bf16 or 8-bit integers: texpands by u16 lanes. */
static bool halfword_tile(const ptoc_pto_tile_desc *d)
{
    bool bf16 = ptoc_type_is_float(d->elem) && d->elem->u.fp.kind == PTOC_BF16;
    bool byte = ptoc_type_is_int(d->elem) && ptoc_type_bitwidth(d->elem) == 8;
    return d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && (bf16 || byte) && (d->cols * ptoc_type_bitwidth(d->elem) / 8) % 32 == 0;
}

/* texpands into a bf16 or byte tile: the element's bits as u16 lanes (bytes
 * twice per lane, TExpandS.hpp's B82B16Trait); a byte tile's odd element
 * count leaves one byte, set alone (a2_set_half_lane) where the library
 * writes the whole lane. */
static void halfword_program(vop_builder *L, ptoc_value *dst, ptoc_value *s)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    ptoc_type *lane = ptoc_type_int(L->ctx, 16, PTOC_SIGNLESS);
    bool bytes = ptoc_type_bitwidth(d->elem) == 8;
    ptoc_value *v = vb_scalar_as(L, s, d->elem);
    if (bytes) {
        ptoc_value *b = vb_cast(L, "arith.extui", v, lane);
        v = vb_arith(L, "arith.ori", b, vb_arith(L, "arith.shli", b, vb_int(L, lane, 8)));
    } else
        v = vb_cast(L, "arith.bitcast", v, lane);
    int64_t per = bytes ? 2 : 1, row_lanes = d->cols / per;
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, lane);
    a2_ptr(&P, dst, lane, row_lanes);
    P.scalar = v;
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    bool contiguous = d->rows == 1 || (d->valid_cols != PTOC_DYNAMIC && d->valid_cols == d->cols);
    ptoc_value *n = contiguous ? vb_arith(L, "arith.muli", vrows, vcols) : vcols;
    ptoc_value *rows = contiguous ? vb_index(L, 1) : vrows;
    ptoc_value *lanes = bytes ? vb_arith(L, "arith.divui", n, vb_index(L, 2)) : n;
    vb_if some;
    vb_if_begin(L, &some, vb_cmpi(L, VB_CMP_UGT, lanes, vb_index(L, 0)));
    if (contiguous)
        a2_whole_count(&P, lanes);
    else
        a2_rows_count(&P, rows, lanes);
    vb_if_end(L, &some);
    if (!bytes)
        return;
    vb_if odd;
    ptoc_value *rem = vb_arith(L, "arith.remui", n, vb_index(L, 2));
    vb_if_begin(L, &odd, vb_cmpi(L, VB_CMP_NE, rem, vb_index(L, 0)));
    a2_set_half_lane(L, dst, rows, row_lanes, lanes, false, v);
    vb_if_end(L, &odd);
}

void a2_fill_lower(vop_builder *L, ptoc_op *op)
{
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TTRI) {
        if (vb_dps_ins(op) == 1)
            lower_ttri(L, op);
        return;
    }
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TCI) {
        if (vb_dps_ins(op) == 1)
            lower_tci(L, op);
        return;
    }
    if (vb_dps_ins(op) != 1)
        return;
    ptoc_value *s = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (d && !vb_tile_desc(s->type) && halfword_tile(d) && vb_scalar_fits(s->type, d->elem)) {
        vb_open_vecscope(L, op, &dst, 1, 1);
        halfword_program(L, dst, s);
        ptoc_op_erase(op);
        return;
    }
    if (!d || vb_tile_desc(s->type) || !a2_plain_tile(dst->type, d->elem) ||
        !vb_scalar_fits(s->type, d->elem))
        return;
    vb_open_vecscope(L, op, &dst, 1, 1);
    a2_fill_program(L, dst, s);
    ptoc_op_erase(op);
}
