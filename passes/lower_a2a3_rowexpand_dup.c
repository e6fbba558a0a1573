/* lower_a2a3_rowexpand_dup.c: pto-lower-a2a3's trowexpand (pto-isa a2a3
 * TRowExpand.hpp).
 *
 *   trowexpand src -> dst      dst[i, j] = src[i, 0] over dst's valid region
 *
 * TRowExpand: counter mode with dst's valid columns as the count; per valid
 * row the scalar unit reads src's value (tgetval, the S pipe, between a
 * V -> S and an S -> V set_flag/wait_flag on the last event id) and
 * vector_dup writes it along the row. 8-bit elements are duplicated as 16-bit pairs
 * (B82B16Trait: the byte in both halves, ceil(vcols / 2) pairs, so an odd
 * valid width also writes the byte after the row's valid ones, in dst's
 * padding); bf16 and the unsigned types are dup'ed as the signless integer
 * of their width (the same bits).
 *
 * TRowExpandBrcb, the library's fast path for a static [M, 1] (or [1, M])
 * src into a static [M, 32 bytes] dst of 16- or 32-bit elements: vbrcb, one
 * 32-byte block per value, in instructions of at most 254 repeats.
 *
 * src is a none_box vec tile of dst's element type, col_major (value i at i)
 * or row_major (value i at i * cols); dst row_major none_box.
 */
#include "passes/lower_a2a3.h"
#include "ptoc/ptoc.h"

bool a2_rowexpand_dup_lowers(ptoc_pto_op_id opcode) { return opcode == PTOC_PTO_OP_TROWEXPAND; }

static bool vec_none_box(const ptoc_pto_tile_desc *d, const ptoc_type *elem)
{
    return d && d->loc == PTOC_PTO_AS_VEC && d->slayout == PTOC_PTO_SL_NONE_BOX && d->elem == elem;
}

static bool all_static(const ptoc_pto_tile_desc *d)
{
    return d->valid_rows == d->rows && d->valid_cols == d->cols;
}

/* TRowExpandBrcb's condition. */
static bool brcb_shape(const ptoc_pto_tile_desc *s, const ptoc_pto_tile_desc *d, unsigned bits)
{
    bool one_line = s->blayout == PTOC_PTO_BL_ROW_MAJOR ? s->rows == 1 && s->cols == d->rows
                                                        : s->cols == 1 && s->rows == d->rows;
    return (bits == 16 || bits == 32) && all_static(s) && all_static(d) && one_line &&
           d->cols * (int64_t)bits == 256;
}

static void brcb_program(vop_builder *L, ptoc_value *src, ptoc_value *dst, int64_t values, ptoc_type *lane)
{
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VBRCB, lane);
    a2_ptr(&P, dst, lane, P.B);
    a2_ptr(&P, src, lane, 8);
    ptoc_attr *one = ptoc_attr_int(L->ctx, P.i64, 1), *eight = ptoc_attr_int(L->ctx, P.i64, 8);
    for (int64_t g = 0; g < values / 8; g += A2_REPEAT_MAX - 1) {
        int64_t n = values / 8 - g < A2_REPEAT_MAX - 1 ? values / 8 - g : A2_REPEAT_MAX - 1;
        ptoc_value *offs[2] = {a2_index(&P, g * P.E), a2_index(&P, g * 8)};
        ptoc_op *op = a2_instr(&P, offs, a2_index(&P, n), NULL);
        ptoc_op_set_attr(op, L->b.arena, ptoc_ident_cstr(L->ctx, "blk"), ptoc_attr_array(L->ctx, 1, &one));
        ptoc_op_set_attr(op, L->b.arena, ptoc_ident_cstr(L->ctx, "rep"), ptoc_attr_array(L->ctx, 1, &eight));
    }
}

/* set_flag then wait_flag from pipe `src` to `dst`, on the last event id:
 * pto-insert-sync allocates ids from 0, so the id is free here unless every
 * id of the pair is held across the op. */
void a2_handshake(vop_builder *L, ptoc_pto_pipe src, ptoc_pto_pipe dst)
{
    uint32_t id = ptoc_pto_arch_info_of(PTOC_PTO_ARCH_A3)->event_ids - 1;
    ptoc_named_attr attrs[3] = {
        {ptoc_ident_cstr(L->ctx, "src_pipe"), ptoc_pto_enum_attr(L->ctx, PTOC_PTO_ENUM_PIPE, (uint32_t)src)},
        {ptoc_ident_cstr(L->ctx, "dst_pipe"), ptoc_pto_enum_attr(L->ctx, PTOC_PTO_ENUM_PIPE, (uint32_t)dst)},
        {ptoc_ident_cstr(L->ctx, "event_id"), ptoc_pto_enum_attr(L->ctx, PTOC_PTO_ENUM_EVENT, id)},
    };
    ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_SET_FLAG), 0, NULL, 0, NULL, 3, attrs, 0);
    ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_WAIT_FLAG), 0, NULL, 0, NULL, 3, attrs, 0);
}

/* tgetval of src's value for row r, as `ty`. */
static ptoc_value *get_value(vop_builder *L, ptoc_value *src, ptoc_value *r, ptoc_type *ty)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type);
    ptoc_value *at = s->blayout == PTOC_PTO_BL_ROW_MAJOR ? vb_arith(L, "arith.muli", r, vb_index(L, s->cols)) : r;
    ptoc_value *ops[2] = {src, at};
    ptoc_op *load = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TGETVAL), 2, ops, 1, &ty, 0, NULL, 0);
    ptoc_op_set_segment_sizes(load, L->b.arena, 2, (int64_t[2]){2, 0});
    return vb_result0(load);
}

/* An odd count of bytes: the last one by tsetval, so that the byte after
 * the valid ones keeps its value (the cpu target's bytes). */
static void last_byte(vop_builder *L, ptoc_value *dst, ptoc_value *r, ptoc_value *vcols, ptoc_value *x)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    vb_if odd;
    ptoc_value *rem = vb_arith(L, "arith.remsi", vcols, vb_index(L, 2));
    vb_if_begin(L, &odd, vb_cmpi(L, 1 /* ne */, rem, vb_index(L, 0)));
    ptoc_value *row = vb_arith(L, "arith.muli", r, vb_index(L, d->cols));
    ptoc_value *at = vb_arith(L, "arith.addi", row, vb_arith(L, "arith.subi", vcols, vb_index(L, 1)));
    ptoc_value *ops[3] = {at, x, dst};
    ptoc_op *store = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TSETVAL), 3, ops, 0, NULL, 0, NULL, 0);
    ptoc_op_set_segment_sizes(store, L->b.arena, 2, (int64_t[2]){2, 1});
    vb_if_end(L, &odd);
}

/* Row r's value of src as a `lane` scalar (8-bit: the byte twice, after
 * writing an odd row's last byte). */
static ptoc_value *row_value(vop_builder *L, ptoc_value *src, ptoc_value *dst, ptoc_value *r,
                             ptoc_value *vcols, ptoc_type *lane)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type);
    unsigned bits = ptoc_type_bitwidth(s->elem);
    ptoc_type *ty = ptoc_type_is_float(s->elem) ? s->elem : ptoc_type_int(L->ctx, bits, PTOC_SIGNLESS);
    ptoc_value *x = get_value(L, src, r, ty);
    if (ptoc_type_is_float(ty))
        return ty == lane ? x : vb_cast(L, "arith.bitcast", x, lane);
    if (bits != 8)
        return x;
    last_byte(L, dst, r, vcols, x);
    ptoc_value *w = vb_cast(L, "arith.extui", x, lane);
    return vb_arith(L, "arith.ori", w, vb_arith(L, "arith.shli", w, vb_int(L, lane, 8)));
}

void a2_rowexpand_dup_lower(vop_builder *L, ptoc_op *op)
{
    if (vb_dps_ins(op) != 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type), *s = vb_tile_desc(src->type);
    if (!d || !vec_none_box(d, d->elem) || d->blayout != PTOC_PTO_BL_ROW_MAJOR || !vec_none_box(s, d->elem))
        return;
    unsigned bits = ptoc_type_bitwidth(d->elem);
    if (bits != 8 && bits != 16 && bits != 32)
        return;
    bool f = ptoc_type_is_float(d->elem) && d->elem->u.fp.kind != PTOC_BF16;
    ptoc_type *lane = f ? d->elem : ptoc_type_int(L->ctx, bits == 8 ? 16 : bits, PTOC_SIGNLESS);
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    if (brcb_shape(s, d, bits)) {
        brcb_program(L, src, dst, s->rows * s->cols, lane);
        ptoc_op_erase(op);
        return;
    }
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, lane);
    int64_t per = bits == 8 ? 2 : 1; /* elements per lane */
    a2_ptr(&P, dst, lane, d->cols / per);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vcols = ptoc_op_result(valid, 1);
    ptoc_value *count = per == 2 ? vb_arith(L, "arith.divsi", vcols, a2_index(&P, 2)) : vcols;
    a2_count_begin(&P, count);
    vb_loop rows;
    ptoc_value *r = vb_loop_begin(L, &rows, a2_index(&P, 0), ptoc_op_result(valid, 0), a2_index(&P, 1));
    a2_handshake(L, PTOC_PTO_PIPE_V, PTOC_PTO_PIPE_S);
    P.scalar = row_value(L, src, dst, r, vcols, lane);
    a2_handshake(L, PTOC_PTO_PIPE_S, PTOC_PTO_PIPE_V);
    ptoc_value *offs[1] = {vb_arith(L, "arith.muli", r, a2_index(&P, P.cols[0]))};
    a2_instr(&P, offs, a2_index(&P, 0), NULL);
    vb_loop_end(L, &rows);
    a2_count_end(&P);
    ptoc_op_erase(op);
}
