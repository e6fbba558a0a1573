/* lower_a2a3_fillpad.c: pto-lower-a2a3's tfillpad, tfillpad_expand and
 * tfillpad_inplace (pto-isa a2a3 TFillPad.hpp), with the cpu target's result:
 * over dst's whole physical shape, src's valid region copied and every other
 * element dst's pad value; nothing when dst's valid shape is empty.
 *
 * The elements are moved as bits: lanes of u16 (1- and 2-byte elements, a
 * byte pair per lane as the library's B8 -> B16 view) or u32. The program:
 *   - copy_ubuf_to_ubuf of src's valid rows, whole 32-byte blocks up to the
 *     valid columns (none when src and dst are one SSA value);
 *   - per valid row, the pad from the first lane past the valid columns: the
 *     rest of its 32-byte block by vector_dup in norm mode under a lane mask
 *     (Handle32BAlignedPad_Other), then vector_dup in counter mode from the
 *     next block to the row's end (PadRightSingleRow, one per row);
 *   - a byte tile with odd valid columns: the lane holding the last valid
 *     byte gets its high byte from the pad by vand with 0x00ff and vor with
 *     pad << 8 (two blocks in the hidden scratch window), under a one-lane
 *     mask, where the library stores the byte from the scalar unit;
 *   - the rows below src's valid rows, one vector_dup in counter mode.
 * The library pads only up to dst's valid rows and copies src's whole rows;
 * the cpu target (and so this program) pads dst's whole physical shape and
 * copies the valid region (docs/decisions.md, "A2/A3 tfillpad").
 */
#include "passes/lower_a2a3.h"

bool a2_fillpad_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TFILLPAD || opcode == PTOC_PTO_OP_TFILLPAD_EXPAND ||
           opcode == PTOC_PTO_OP_TFILLPAD_INPLACE;
}

typedef struct fp_op {
    ptoc_value *src, *dst;
    const ptoc_pto_tile_desc *s, *d;
    unsigned esize;             /* bytes per element */
    ptoc_type *lane;            /* i16 or i32 */
    int64_t per_lane;           /* elements per lane: 2 for bytes, else 1 */
    int64_t pad;                /* one lane of pad bits */
} fp_op;

/* pto-isa PadValueMap: max is +inf / the integer maximum, min -inf / the minimum. */
static bool pad_bits(const ptoc_type *elem, uint32_t pad, uint64_t *out)
{
    unsigned bits = ptoc_type_bitwidth(elem);
    bool max = pad == PTOC_PTO_PAD_MAX;
    if (pad == PTOC_PTO_PAD_ZERO) {
        *out = 0;
        return true;
    }
    if (pad != PTOC_PTO_PAD_MAX && pad != PTOC_PTO_PAD_MIN)
        return false;
    if (ptoc_type_is_float(elem)) {
        switch (elem->u.fp.kind) {
        case PTOC_F16: *out = max ? 0x7c00u : 0xfc00u; return true;
        case PTOC_BF16: *out = max ? 0x7f80u : 0xff80u; return true;
        case PTOC_F32: *out = max ? 0x7f800000u : 0xff800000u; return true;
        default: return false;
        }
    }
    uint64_t ones = (UINT64_C(1) << bits) - 1;
    if (elem->u.integer.sign == PTOC_UNSIGNED)
        *out = max ? ones : 0;
    else
        *out = max ? ones >> 1 : (ones >> 1) + 1;
    return true;
}

/* A row-major none_box vec tile of 1-, 2- or 4-byte elements. */
static bool plain(const ptoc_pto_tile_desc *t)
{
    unsigned bits = t ? ptoc_type_bitwidth(t->elem) : 0;
    return t && t->loc == PTOC_PTO_AS_VEC && t->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           t->slayout == PTOC_PTO_SL_NONE_BOX && (bits == 8 || bits == 16 || bits == 32) &&
           (ptoc_type_is_int(t->elem) || ptoc_type_is_float(t->elem)) && (t->cols * bits / 8) % 32 == 0;
}

static bool read_op(vop_builder *L, ptoc_op *op, fp_op *f)
{
    int nins = vb_dps_ins(op);
    if (nins != 1 && !(op->noperands == 1 && op->nresults == 0))
        return false;
    *f = (fp_op){.src = ptoc_op_operand(op, 0)};
    f->dst = nins == 1 ? ptoc_op_operand(op, 1) : f->src;
    f->s = vb_tile_desc(f->src->type);
    f->d = vb_tile_desc(f->dst->type);
    if (!plain(f->s) || !plain(f->d) || ptoc_type_bitwidth(f->s->elem) != ptoc_type_bitwidth(f->d->elem))
        return false;
    bool expand = ptoc_pto_opcode(op) == PTOC_PTO_OP_TFILLPAD_EXPAND;
    if (expand ? f->s->rows > f->d->rows || f->s->cols > f->d->cols
               : f->s->rows != f->d->rows || f->s->cols != f->d->cols)
        return false;
    uint64_t pad;
    if (!pad_bits(f->d->elem, f->d->pad, &pad))
        return false;
    f->esize = ptoc_type_bitwidth(f->d->elem) / 8;
    f->per_lane = f->esize == 1 ? 2 : 1;
    f->lane = ptoc_type_int(L->ctx, f->esize == 4 ? 32 : 16, PTOC_SIGNLESS);
    f->pad = (int64_t)(f->esize == 1 ? pad | pad << 8 : pad);
    return true;
}

static ptoc_value *mul(vop_builder *L, ptoc_value *x, ptoc_value *y)
{
    return vb_arith(L, "arith.muli", x, y);
}

static ptoc_value *add(vop_builder *L, ptoc_value *x, ptoc_value *y)
{
    return vb_arith(L, "arith.addi", x, y);
}

static ptoc_value *sub(vop_builder *L, ptoc_value *x, ptoc_value *y)
{
    return vb_arith(L, "arith.subi", x, y);
}


/* src's valid rows into dst: whole blocks up to the valid columns, one burst a row. */
static void copy_valid(vop_builder *L, const fp_op *f, ptoc_value *svr, ptoc_value *svc)
{
    ptoc_type *i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS);
    int64_t per_block = 32 / f->esize;
    vb_if some;
    vb_if_begin(L, &some, vb_cmpi(L, VB_CMP_NE, mul(L, svr, svc), vb_index(L, 0)));
    ptoc_value *up = add(L, svc, vb_index(L, per_block - 1));
    ptoc_value *blocks = vb_arith(L, "arith.divui", up, vb_index(L, per_block));
    ptoc_value *len = vb_cast(L, "arith.index_cast", blocks, i64);
    ptoc_value *sgap = sub(L, vb_int(L, i64, f->s->cols / per_block), len);
    ptoc_value *dgap = sub(L, vb_int(L, i64, f->d->cols / per_block), len);
    ptoc_value *zero = vb_index(L, 0);
    ptoc_value *ops[8] = {vb_tile_ptr(L, f->dst, f->lane), zero, vb_tile_ptr(L, f->src, f->lane), zero,
                          vb_cast(L, "arith.index_cast", svr, i64), len, sgap, dgap};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_COPY_UBUF_TO_UBUF, 8, ops, 0, NULL, NULL, NULL, NULL, NULL);
    vb_if_end(L, &some);
}

/* One instruction of P per row r < rows at lane offset r * row_lanes + col. */
static void per_row(a2_prog *P, ptoc_value *rows, int64_t row_lanes, ptoc_value *col)
{
    vb_loop l;
    ptoc_value *r = vb_loop_begin(P->L, &l, a2_index(P, 0), rows, a2_index(P, 1));
    ptoc_value *off = add(P->L, mul(P->L, r, a2_index(P, row_lanes)), col);
    ptoc_value *offs[3] = {off, off, a2_index(P, 0)};
    a2_instr(P, offs, a2_index(P, 1), NULL);
    vb_loop_end(P->L, &l);
}

/* Pad from lane `ls` to the end of each of the first `rows` rows. */
static void pad_right(a2_prog *P, const fp_op *f, ptoc_value *rows, ptoc_value *ls)
{
    vop_builder *L = P->L;
    int64_t row_lanes = f->d->cols / f->per_lane;
    ptoc_value *B = a2_index(P, P->B), *head = vb_arith(L, "arith.remui", ls, B);
    ptoc_value *base = sub(L, ls, head);
    vb_if partial;
    vb_if_begin(L, &partial, vb_cmpi(L, VB_CMP_NE, head, a2_index(P, 0)));
    /* lanes [head, B) of the block holding lane ls */
    ptoc_value *low = sub(L, vb_arith(L, "arith.shli", a2_i64(P, 1), a2_as_i64(P, head)), a2_i64(P, 1));
    a2_set_mask(P, a2_i64(P, 0), vb_arith(L, "arith.xori", a2_i64(P, (INT64_C(1) << P->B) - 1), low));
    per_row(P, rows, row_lanes, base);
    a2_full_mask(P);
    vb_if_end(L, &partial);
    ptoc_value *next = mul(L, vb_arith(L, "arith.divui", add(L, ls, a2_index(P, P->B - 1)), B), B);
    ptoc_value *count = sub(L, a2_index(P, row_lanes), next);
    vb_if rest;
    vb_if_begin(L, &rest, vb_cmpi(L, VB_CMP_UGT, count, a2_index(P, 0)));
    a2_count_begin(P, count);
    per_row(P, rows, row_lanes, next);
    a2_count_end(P);
    vb_if_end(L, &rest);
}

/* A byte tile: in lane q of each of the first `rows` rows, the high byte
 * (hi) or the low byte becomes the new one: vand with the kept byte's mask
 * (scratch block 0), vor with the new byte (block 1: `both`'s, an i16 holding
 * the byte twice, or src's lane q in its first row when src is given), under
 * the one-lane mask. */
static void half_lane(vop_builder *L, ptoc_value *dst, ptoc_value *rows, int64_t row_lanes, ptoc_value *q,
                      bool hi, ptoc_value *both, ptoc_value *src)
{
    ptoc_type *lane = ptoc_type_int(L->ctx, 16, PTOC_SIGNLESS);
    a2_prog D;
    a2_prog_init(&D, L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, lane);
    D.ptrs[0] = a2_window_ptr(D.L, lane, 0);
    D.nptrs = 1;
    a2_cont_mask(&D, D.B);
    ptoc_value *at0[1] = {a2_index(&D, 0)}, *at1[1] = {a2_index(&D, D.B)};
    ptoc_value *bit = vb_arith(L, "arith.remui", q, a2_index(&D, D.B));
    ptoc_value *base = sub(L, q, bit);
    ptoc_value *keep = vb_int(L, lane, hi ? 0x00ff : 0xff00), *put = vb_int(L, lane, hi ? 0xff00 : 0x00ff);
    D.scalar = keep;
    a2_instr(&D, at0, a2_index(&D, 1), NULL);
    D.scalar = src ? put : vb_arith(L, "arith.andi", both, put);
    a2_instr(&D, at1, a2_index(&D, 1), NULL);
    if (src) {
        /* block 1 = the block of src's first row holding lane q, its new byte kept */
        a2_prog S;
        a2_prog_init(&S, L, PTOC_PTO_VOP_A2A3_VAND, lane);
        S.ptrs[0] = S.ptrs[2] = D.ptrs[0];
        S.ptrs[1] = vb_tile_ptr(L, src, lane);
        S.nptrs = 3;
        ptoc_value *offs[3] = {at1[0], base, at1[0]};
        a2_instr(&S, offs, a2_index(&S, 1), NULL);
    }
    a2_set_mask(&D, a2_i64(&D, 0), vb_arith(L, "arith.shli", a2_i64(&D, 1), a2_as_i64(&D, bit)));
    for (int k = 0; k < 2; k++) {
        a2_prog P;
        a2_prog_init(&P, L, k ? PTOC_PTO_VOP_A2A3_VOR : PTOC_PTO_VOP_A2A3_VAND, lane);
        a2_ptr(&P, dst, lane, row_lanes);
        a2_ptr(&P, dst, lane, row_lanes);
        P.ptrs[2] = D.ptrs[0];
        P.tiles[2] = NULL;
        P.cols[2] = 0;
        P.nptrs = 3;
        vb_loop l;
        ptoc_value *r = vb_loop_begin(L, &l, a2_index(&P, 0), rows, a2_index(&P, 1));
        ptoc_value *off = add(L, mul(L, r, a2_index(&P, row_lanes)), base);
        ptoc_value *offs[3] = {off, off, a2_index(&P, k ? D.B : 0)};
        a2_instr(&P, offs, a2_index(&P, 1), NULL);
        vb_loop_end(L, &l);
    }
    a2_full_mask(&D);
}

void a2_set_half_lane(vop_builder *L, ptoc_value *dst, ptoc_value *rows, int64_t row_lanes, ptoc_value *q,
                      bool hi, ptoc_value *both)
{
    half_lane(L, dst, rows, row_lanes, q, hi, both, NULL);
}

void a2_copy_half_lane(vop_builder *L, ptoc_value *dst, ptoc_value *rows, int64_t row_lanes, ptoc_value *q,
                       bool hi, ptoc_value *src)
{
    half_lane(L, dst, rows, row_lanes, q, hi, NULL, src);
}

static void program(vop_builder *L, const fp_op *f)
{
    ptoc_op *dv = vb_tile_valid(L, f->dst), *sv = vb_tile_valid(L, f->src);
    ptoc_value *svr = ptoc_op_result(sv, 0), *svc = ptoc_op_result(sv, 1);
    ptoc_value *zero = vb_index(L, 0);
    vb_if some;
    vb_if_begin(L, &some, vb_cmpi(L, VB_CMP_NE, mul(L, ptoc_op_result(dv, 0), ptoc_op_result(dv, 1)), zero));
    if (f->src != f->dst)
        copy_valid(L, f, svr, svc);
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, f->lane);
    a2_ptr(&P, f->dst, f->lane, f->d->cols / f->per_lane);
    P.scalar = vb_int(L, f->lane, f->pad);
    int64_t row_lanes = f->d->cols / f->per_lane;
    ptoc_value *ls = svc;
    if (f->per_lane == 2)
        ls = vb_arith(L, "arith.divui", add(L, svc, vb_index(L, 1)), vb_index(L, 2));
    pad_right(&P, f, svr, ls);
    if (f->per_lane == 2) {
        vb_if odd;
        vb_if_begin(L, &odd, vb_cmpi(L, VB_CMP_NE, vb_arith(L, "arith.remui", svc, vb_index(L, 2)), zero));
        a2_set_half_lane(L, f->dst, svr, row_lanes, vb_arith(L, "arith.divui", svc, vb_index(L, 2)), true,
                         P.scalar);
        vb_if_end(L, &odd);
    }
    ptoc_value *below = mul(L, sub(L, vb_index(L, f->d->rows), svr), vb_index(L, row_lanes));
    vb_if bottom;
    vb_if_begin(L, &bottom, vb_cmpi(L, VB_CMP_UGT, below, zero));
    a2_count_begin(&P, below);
    ptoc_value *offs[1] = {mul(L, svr, vb_index(L, row_lanes))};
    a2_instr(&P, offs, vb_index(L, 0), NULL);
    a2_count_end(&P);
    vb_if_end(L, &bottom);
    vb_if_end(L, &some);
}

void a2_fillpad_lower(vop_builder *L, ptoc_op *op)
{
    fp_op f;
    if (!read_op(L, op, &f))
        return;
    ptoc_value *tiles[2] = {f.src, f.dst};
    if (f.src == f.dst)
        vb_open_vecscope(L, op, &tiles[1], 1, 1);
    else
        vb_open_vecscope(L, op, tiles, 2, 1);
    program(L, &f);
    ptoc_op_erase(op);
}
