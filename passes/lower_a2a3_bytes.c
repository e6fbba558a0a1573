/* lower_a2a3_bytes.c: pto-lower-a2a3's bitwise ops on 8-bit integer tiles:
 *
 *   tand tor tnot        vand / vor / vnot
 *   tands tors           texpands dst, s; vand / vor dst, src, dst
 *   txor                 vor tmp, a, b; vand dst, a, b; vnot dst, dst;
 *                        vand dst, dst, tmp
 *   txors                tors tmp, src, s; tands dst, src, s; vnot dst, dst;
 *                        vand dst, dst, tmp
 *
 * The library has no byte lanes for these (pto-isa a2a3 TAnd.hpp, TOr.hpp,
 * TUnaryOp.hpp's TNOT, TExpandS.hpp, TXor.hpp, TBitwiseSOp.hpp): it views a
 * byte tile as u16 lanes (B82B16Trait: half the columns, a scalar held twice
 * in a lane), where a bitwise op on a pair of bytes is the op on each byte.
 * Each step above runs so: the valid region's byte pairs as lanes (one count
 * over the whole region when it is contiguous, else one per row), then, when
 * the valid columns (the element count of a contiguous region) are odd, the
 * last byte of each row, which shares its lane with a byte outside the valid
 * region. The library runs the whole lane and so writes that outside byte;
 * ptoc keeps it (the cpu target writes only the valid region): per row, under
 * the one-lane mask, dst's lane is saved into the hidden scratch window, the
 * step runs on the lane, and the outside byte is put back (vand with 0x00ff,
 * vand of the saved lane with 0xff00, vor). As in lower_a2a3_bitwise.c the
 * tile-scalar ops fill dst before they read src, the library's order.
 *
 * The tiles are row-major none_box vec tiles of dst's element type with dst's
 * valid shape, each row a whole number of 32-byte blocks; tmp is scratch the
 * ops write. These ops run on the vector pipe (ptoc_pto_op_pipe).
 */
#include "passes/lower_a2a3.h"

static const ptoc_pto_op_id byte_ops[] = {PTOC_PTO_OP_TAND, PTOC_PTO_OP_TOR, PTOC_PTO_OP_TXOR,
                                          PTOC_PTO_OP_TANDS, PTOC_PTO_OP_TORS, PTOC_PTO_OP_TXORS,
                                          PTOC_PTO_OP_TNOT};

static bool byte_op(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof byte_ops / sizeof byte_ops[0]; i++)
        if (byte_ops[i] == opcode)
            return true;
    return false;
}

/* A row-major none_box vec tile of 8-bit integers, rows of whole blocks. */
static bool byte_tile(const ptoc_pto_tile_desc *d)
{
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && ptoc_type_is_int(d->elem) &&
           ptoc_type_bitwidth(d->elem) == 8 && d->cols % 32 == 0;
}

bool a2_bytes_claims(ptoc_op *op)
{
    int nins = vb_dps_ins(op);
    if (!byte_op(ptoc_pto_opcode(op)) || nins < 1)
        return false;
    const ptoc_pto_tile_desc *d = vb_tile_desc(ptoc_op_operand(op, (uint32_t)nins)->type);
    return d && ptoc_type_is_int(d->elem) && ptoc_type_bitwidth(d->elem) == 8;
}

/* ---------------------------------------------------------------- one step */

typedef struct b_ctx {
    vop_builder *L;
    ptoc_type *lane;            /* i16 */
    bool contiguous;            /* one count over the whole valid region */
    ptoc_value *rows, *lanes;   /* rows (1 when contiguous), whole lanes per row */
    ptoc_value *odd;            /* i1: a last byte alone in its lane; NULL: never */
    ptoc_value *window;         /* the scratch window as u16 lanes */
} b_ctx;

static int64_t row_lanes(ptoc_value *tile) { return vb_tile_desc(tile->type)->cols / 2; }

/* One instruction of one repeat: vop over ptrs[i] at offs[i] (dst first). */
static void one_repeat(b_ctx *C, ptoc_pto_vop_id vop, uint32_t n, ptoc_value *const *ptrs,
                       ptoc_value *const *offs, ptoc_value *scalar)
{
    a2_prog P;
    a2_prog_init(&P, C->L, vop, C->lane);
    for (uint32_t i = 0; i < n; i++)
        P.ptrs[i] = ptrs[i];
    P.nptrs = n;
    P.scalar = scalar;
    a2_instr(&P, offs, a2_index(&P, 1), NULL);
}

/* The last byte of each row (the low byte of lane q): P's step on lane q,
 * dst's high byte kept. Window blocks: 0 holds 0x00ff, 1 0xff00, 2 the saved lane. */
static void last_bytes(b_ctx *C, a2_prog *P)
{
    vop_builder *L = C->L;
    ptoc_value *w = C->window, *at[3] = {a2_index(P, 0), a2_index(P, P->B), a2_index(P, 2 * P->B)};
    a2_cont_mask(P, P->B);
    one_repeat(C, PTOC_PTO_VOP_A2A3_VECTOR_DUP, 1, &w, &at[0], vb_int(L, C->lane, 0x00ff));
    one_repeat(C, PTOC_PTO_VOP_A2A3_VECTOR_DUP, 1, &w, &at[1], vb_int(L, C->lane, 0xff00));
    ptoc_value *q = C->lanes, *bit = vb_arith(L, "arith.remui", q, a2_index(P, P->B));
    ptoc_value *base = vb_arith(L, "arith.subi", q, bit);
    a2_set_mask(P, a2_i64(P, 0), vb_arith(L, "arith.shli", a2_i64(P, 1), a2_as_i64(P, bit)));
    vb_loop l;
    ptoc_value *r = vb_loop_begin(L, &l, a2_index(P, 0), C->rows, a2_index(P, 1));
    ptoc_value *offs[3];
    a2_row_offsets(P, r, base, offs);
    ptoc_value *d = P->ptrs[0], *o = offs[0];
    ptoc_value *save_p[3] = {w, d, d}, *save_o[3] = {at[2], o, o};
    one_repeat(C, PTOC_PTO_VOP_A2A3_VOR, 3, save_p, save_o, NULL);
    a2_instr(P, offs, a2_index(P, 1), NULL);
    ptoc_value *lo_p[3] = {d, d, w}, *lo_o[3] = {o, o, at[0]};
    one_repeat(C, PTOC_PTO_VOP_A2A3_VAND, 3, lo_p, lo_o, NULL);
    ptoc_value *hi_p[3] = {w, w, w}, *hi_o[3] = {at[2], at[2], at[1]};
    one_repeat(C, PTOC_PTO_VOP_A2A3_VAND, 3, hi_p, hi_o, NULL);
    ptoc_value *or_p[3] = {d, d, w}, *or_o[3] = {o, o, at[2]};
    one_repeat(C, PTOC_PTO_VOP_A2A3_VOR, 3, or_p, or_o, NULL);
    vb_loop_end(L, &l);
    a2_full_mask(P);
}

/* vop over dst and the sources (NULL: none) as lanes, with `scalar` (a lane). */
static void step(b_ctx *C, ptoc_pto_vop_id vop, ptoc_value *dst, ptoc_value *a, ptoc_value *b,
                 ptoc_value *scalar)
{
    vop_builder *L = C->L;
    a2_prog P;
    a2_prog_init(&P, L, vop, C->lane);
    a2_ptr(&P, dst, C->lane, row_lanes(dst));
    if (a)
        a2_ptr(&P, a, C->lane, row_lanes(a));
    if (b)
        a2_ptr(&P, b, C->lane, row_lanes(b));
    P.scalar = scalar;
    vb_if some;
    vb_if_begin(L, &some, vb_cmpi(L, VB_CMP_UGT, C->lanes, a2_index(&P, 0)));
    if (C->contiguous)
        a2_whole_count(&P, C->lanes);
    else
        a2_rows_count(&P, C->rows, C->lanes);
    vb_if_end(L, &some);
    if (!C->odd)
        return;
    vb_if odd;
    vb_if_begin(L, &odd, C->odd);
    last_bytes(C, &P);
    vb_if_end(L, &odd);
}

/* ---------------------------------------------------------------- the op */

/* Whether t is a byte tile of dst's element type and valid shape. */
static bool fits(const ptoc_value *t, const ptoc_pto_tile_desc *d)
{
    const ptoc_pto_tile_desc *td = vb_tile_desc(t->type);
    return byte_tile(td) && td->elem == d->elem && td->valid_rows == d->valid_rows &&
           td->valid_cols == d->valid_cols;
}

/* The shape of the steps, from dst's valid shape and the tiles' layouts. */
static void shape(b_ctx *C, ptoc_value *const *tiles, uint32_t n)
{
    vop_builder *L = C->L;
    ptoc_value *dst = tiles[n - 1];
    bool full = true, one_row = true;
    for (uint32_t i = 0; i < n; i++) {
        const ptoc_pto_tile_desc *d = vb_tile_desc(tiles[i]->type);
        full &= d->valid_cols != PTOC_DYNAMIC && d->valid_cols == d->cols;
        one_row &= d->rows == 1;
    }
    C->contiguous = full || one_row;
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *elems = C->contiguous ? vb_arith(L, "arith.muli", vrows, vcols) : vcols;
    C->rows = C->contiguous ? vb_index(L, 1) : vrows;
    C->lanes = vb_arith(L, "arith.divui", elems, vb_index(L, 2));
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    bool even = d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC &&
                (C->contiguous ? d->valid_rows * d->valid_cols : d->valid_cols) % 2 == 0;
    if (even)
        return;
    ptoc_value *rem = vb_arith(L, "arith.remui", elems, vb_index(L, 2));
    C->odd = vb_arith(L, "arith.andi", vb_cmpi(L, VB_CMP_NE, rem, vb_index(L, 0)),
                      vb_cmpi(L, VB_CMP_UGT, C->rows, vb_index(L, 0)));
    C->window = a2_window_ptr(L, C->lane, 0);
}

/* s (of the byte type) twice in a lane. */
static ptoc_value *both_bytes(b_ctx *C, ptoc_value *s, ptoc_type *elem)
{
    vop_builder *L = C->L;
    ptoc_value *b = vb_cast(L, "arith.extui", vb_scalar_as(L, s, elem), C->lane);
    return vb_arith(L, "arith.ori", b, vb_arith(L, "arith.shli", b, vb_int(L, C->lane, 8)));
}

void a2_bytes_lower(vop_builder *L, ptoc_op *op)
{
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    bool xor = opcode == PTOC_PTO_OP_TXOR || opcode == PTOC_PTO_OP_TXORS;
    bool scalar = opcode == PTOC_PTO_OP_TANDS || opcode == PTOC_PTO_OP_TORS || opcode == PTOC_PTO_OP_TXORS;
    bool unary = opcode == PTOC_PTO_OP_TNOT;
    int nins = vb_dps_ins(op);
    if (nins != (unary ? 1 : xor ? 3 : 2))
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *b = unary ? NULL : ptoc_op_operand(op, 1);
    ptoc_value *tmp = xor ? ptoc_op_operand(op, 2) : NULL, *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!byte_tile(d) || !fits(src, d) || (tmp && !fits(tmp, d)))
        return;
    if (b && (scalar ? vb_tile_desc(b->type) || !vb_scalar_fits(b->type, d->elem) : !fits(b, d)))
        return;
    ptoc_value *tiles[4];
    uint32_t n = 0;
    tiles[n++] = src;
    if (b && !scalar)
        tiles[n++] = b;
    if (tmp)
        tiles[n++] = tmp;
    tiles[n++] = dst;
    vb_open_vecscope(L, op, tiles, n, tmp ? 2 : 1);
    b_ctx C = {.L = L, .lane = ptoc_type_int(L->ctx, 16, PTOC_SIGNLESS)};
    shape(&C, tiles, n);
    ptoc_value *s = scalar ? both_bytes(&C, b, d->elem) : NULL;
    switch (opcode) {
    case PTOC_PTO_OP_TAND: step(&C, PTOC_PTO_VOP_A2A3_VAND, dst, src, b, NULL); break;
    case PTOC_PTO_OP_TOR: step(&C, PTOC_PTO_VOP_A2A3_VOR, dst, src, b, NULL); break;
    case PTOC_PTO_OP_TNOT: step(&C, PTOC_PTO_VOP_A2A3_VNOT, dst, src, NULL, NULL); break;
    case PTOC_PTO_OP_TXOR:
        step(&C, PTOC_PTO_VOP_A2A3_VOR, tmp, src, b, NULL);
        step(&C, PTOC_PTO_VOP_A2A3_VAND, dst, src, b, NULL);
        break;
    default: {
        /* tands, tors: into dst; txors: src | s into tmp */
        ptoc_value *first = xor ? tmp : dst;
        ptoc_pto_vop_id vop = opcode == PTOC_PTO_OP_TANDS ? PTOC_PTO_VOP_A2A3_VAND : PTOC_PTO_VOP_A2A3_VOR;
        step(&C, PTOC_PTO_VOP_A2A3_VECTOR_DUP, first, NULL, NULL, s);
        step(&C, vop, first, src, first, NULL);
        if (xor) {
            step(&C, PTOC_PTO_VOP_A2A3_VECTOR_DUP, dst, NULL, NULL, s);
            step(&C, PTOC_PTO_VOP_A2A3_VAND, dst, src, dst, NULL);
        }
        break;
    }
    }
    if (xor) {
        step(&C, PTOC_PTO_VOP_A2A3_VNOT, dst, dst, NULL, NULL);
        step(&C, PTOC_PTO_VOP_A2A3_VAND, dst, dst, tmp, NULL);
    }
    ptoc_op_erase(op);
}
