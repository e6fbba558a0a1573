/* lower_a2a3_quant.c: pto-lower-a2a3's tquant and tdequant (pto-isa a2a3
 * TQuant.hpp, TDequant.hpp), with the cpu target's result (lower_pto_quant.c).
 *
 * Both run one valid row at a time in counter mode, the valid columns as the
 * count. A row's parameters (fp, offset; scale, offset) are element [p, 0]
 * of their row-major f32 tiles, p the row or the tile's last valid row when
 * it has fewer; vbrcb of the 8 elements from there fills 8 blocks of the
 * hidden scratch window UB[184 KiB, 192 KiB), and the block holding [p, 0]
 * is the second operand at block and repeat stride 0 (the library's
 * TROWEXPANDMUL / TROWEXPANDADD). A row goes in chunks of at most 960
 * columns (CHUNK), each staged in the window (A, B: 3840 bytes each).
 *
 *   tquant src, fp[, offset] -> dst (INT8_SYM i8, INT8_ASYM ui8):
 *     vmul A = src * fp; (asym) vadd A = A + offset; vconv B (s32) = A (R,
 *     SAT); vconv A (s16) = B (SAT); vconv B (f16) = A; vconv dst = B (R, SAT)
 *   tdequant src, scale, offset -> dst (f32), src i8 or i16:
 *     (i8) vconv A (f16) = src, vconv dst = A; (i16) vconv dst = src;
 *     vsub dst = dst - offset; vmul dst = dst * scale
 *
 * tquant's conversions are the library's f32 -> s32 -> f16 -> int8 chain
 * but for s32 -> s16 (SAT) -> f16 in place of its vconv_deq s32 -> f16: the
 * integers that reach f16 are then below 32768 in magnitude, exact in f16 up
 * to 2048 and past the int8 range beyond, so the last vconv's saturation
 * gives what the cpu target's round-then-saturate does (docs/decisions.md,
 * "A2/A3 tquant"). The library scales src in place and uses a tmp tile;
 * ptoc leaves src as it is and stages in the window.
 */
#include "passes/lower_a2a3.h"
#include "ptoc/ptoc.h"

enum { WIN_ROW = 512, CHUNK = 960 };   /* 512 + 8 * CHUNK bytes: the 8 KiB window */

bool a2_quant_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TQUANT || opcode == PTOC_PTO_OP_TDEQUANT;
}

static bool row_major(const ptoc_value *v, int bits, bool is_float)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(v->type);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && (int)ptoc_type_bitwidth(d->elem) == bits &&
           (is_float ? ptoc_type_is_float(d->elem) : ptoc_type_is_int(d->elem));
}

static const ptoc_pto_tile_desc *desc(const ptoc_value *v) { return vb_tile_desc(v->type); }

typedef struct q_prog {
    vop_builder *L;
    ptoc_type *i64;
} q_prog;

static void set_list(q_prog *Q, ptoc_op *op, const char *name, uint32_t n, const int64_t *v)
{
    ptoc_attr *a[3];
    for (uint32_t i = 0; i < n; i++)
        a[i] = ptoc_attr_int(Q->L->ctx, Q->i64, v[i]);
    ptoc_op_set_attr(op, Q->L->b.arena, ptoc_ident_cstr(Q->L->ctx, name), ptoc_attr_array(Q->L->ctx, n, a));
}

/* vbrcb of the 8 f32 from element p * cols of `param` into the window's first 8 blocks at `off`. */
static void broadcast(q_prog *Q, ptoc_value *param, ptoc_value *r, int64_t off)
{
    vop_builder *L = Q->L;
    ptoc_op *valid = vb_tile_valid(L, param);
    ptoc_value *one = vb_index(L, 1);
    ptoc_value *rows = vb_arith(L, "arith.maxui", ptoc_op_result(valid, 0), one);
    ptoc_value *last = vb_arith(L, "arith.subi", rows, one);
    ptoc_value *p = vb_arith(L, "arith.minui", r, last);
    ptoc_type *f32 = desc(param)->elem;
    ptoc_value *ops[5] = {a2_window_ptr(Q->L, f32, off), vb_index(L, 0), vb_tile_ptr(L, param, f32),
                          vb_arith(L, "arith.muli", p, vb_index(L, desc(param)->cols)), vb_index(L, 1)};
    ptoc_op *op = vb_vop(L, PTOC_PTO_VOP_A2A3_VBRCB, 5, ops, 0, NULL, NULL, NULL, NULL, NULL);
    set_list(Q, op, "blk", 1, (int64_t[1]){1});
    set_list(Q, op, "rep", 1, (int64_t[1]){8});
}

/* vOP d[doff] = s[soff] OP window block at woff (block and repeat stride 0). */
static void with_param(q_prog *Q, ptoc_pto_vop_id vop, ptoc_value *d, ptoc_value *doff, ptoc_value *s,
                       ptoc_value *soff, ptoc_value *w)
{
    vop_builder *L = Q->L;
    ptoc_value *ops[7] = {d, doff, s, soff, w, vb_index(L, 0), vb_index(L, 0)};
    ptoc_op *op = vb_vop(L, vop, 7, ops, 0, NULL, NULL, NULL, NULL, NULL);
    set_list(Q, op, "blk", 3, (int64_t[3]){1, 1, 0});
    set_list(Q, op, "rep", 3, (int64_t[3]){8, 8, 0});
}

/* vconv d[doff] = s[soff], the repeat strides of 256 bytes of the wider type. */
static void conv(q_prog *Q, ptoc_value *d, ptoc_value *doff, unsigned dbytes, ptoc_value *s, ptoc_value *soff,
                 unsigned sbytes)
{
    vop_builder *L = Q->L;
    unsigned wide = dbytes > sbytes ? dbytes : sbytes;
    ptoc_value *ops[5] = {d, doff, s, soff, vb_index(L, 0)};
    ptoc_op *op = vb_vop(L, PTOC_PTO_VOP_A2A3_VCONV, 5, ops, 0, NULL, NULL, NULL, NULL, NULL);
    set_list(Q, op, "rep", 2, (int64_t[2]){8 * dbytes / wide, 8 * sbytes / wide});
}

/* The chunks of a row of vcols columns: *c the first column, the count set
 * to min(CHUNK, vcols - c); close with vb_loop_end. */
static ptoc_value *chunk_begin(a2_prog *P, vb_loop *l, ptoc_value *vcols)
{
    vop_builder *L = P->L;
    ptoc_value *c = vb_loop_begin(L, l, vb_index(L, 0), vcols, vb_index(L, CHUNK));
    ptoc_value *n = vb_arith(L, "arith.minui", vb_index(L, CHUNK), vb_arith(L, "arith.subi", vcols, c));
    a2_set_mask(P, a2_i64(P, 0), a2_as_i64(P, n));
    return c;
}

static ptoc_value *at(vop_builder *L, ptoc_value *r, int64_t cols, ptoc_value *c)
{
    return vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, vb_index(L, cols)), c);
}

static void lower_tquant(vop_builder *L, ptoc_op *op)
{
    uint32_t qt = 0;
    ptoc_attr *a = ptoc_op_attr(op, "quant_type");
    int nins = vb_dps_ins(op);
    if (!a || !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_QUANT_TYPE, &qt) || nins != (qt ? 3 : 2))
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    for (int i = 0; i < nins; i++)
        if (!row_major(ptoc_op_operand(op, (uint32_t)i), 32, true))
            return;
    if (!row_major(dst, 8, false))
        return;
    ptoc_value *tiles[4] = {src, ptoc_op_operand(op, 1), ptoc_op_operand(op, (uint32_t)nins - 1), dst};
    if (nins == 2)
        tiles[2] = dst;
    vb_open_vecscope(L, op, tiles, nins == 3 ? 4 : 3, 1);
    q_prog Q = {L, ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS)};
    ptoc_type *f32 = desc(src)->elem, *s32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    ptoc_type *s16 = ptoc_type_int(L->ctx, 16, PTOC_SIGNLESS), *f16 = ptoc_type_float(L->ctx, PTOC_F16);
    int64_t b_off = WIN_ROW + 4 * CHUNK;
    ptoc_value *A = a2_window_ptr(Q.L, f32, WIN_ROW), *A16 = a2_window_ptr(Q.L, s16, WIN_ROW);
    ptoc_value *B = a2_window_ptr(Q.L, s32, b_off), *B16 = a2_window_ptr(Q.L, f16, b_off);
    ptoc_value *W0 = a2_window_ptr(Q.L, f32, 0), *W1 = a2_window_ptr(Q.L, f32, 256);
    ptoc_value *sp = vb_tile_ptr(L, src, f32), *dp = vb_tile_ptr(L, dst, desc(dst)->elem);
    ptoc_op *valid = vb_tile_valid(L, src);
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VMUL, f32);
    a2_vop0(&P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, vb_index(L, 0), ptoc_op_result(valid, 0), vb_index(L, 1));
    ptoc_value *zero = vb_index(L, 0);
    broadcast(&Q, ptoc_op_operand(op, 1), r, 0);
    if (qt)
        broadcast(&Q, ptoc_op_operand(op, 2), r, 256);
    ptoc_value *c = chunk_begin(&P, &cols, ptoc_op_result(valid, 1));
    with_param(&Q, PTOC_PTO_VOP_A2A3_VMUL, A, zero, sp, at(L, r, desc(src)->cols, c), W0);
    if (qt)
        with_param(&Q, PTOC_PTO_VOP_A2A3_VADD, A, zero, A, zero, W1);
    conv(&Q, B, zero, 4, A, zero, 4);
    conv(&Q, A16, zero, 2, B, zero, 4);
    conv(&Q, B16, zero, 2, A16, zero, 2);
    conv(&Q, dp, at(L, r, desc(dst)->cols, c), 1, B16, zero, 2);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
    a2_count_end(&P);
    ptoc_op_erase(op);
}

static void lower_tdequant(vop_builder *L, ptoc_op *op)
{
    if (vb_dps_ins(op) != 3)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *scale = ptoc_op_operand(op, 1);
    ptoc_value *offset = ptoc_op_operand(op, 2), *dst = ptoc_op_operand(op, 3);
    bool bytes = row_major(src, 8, false);
    if ((!bytes && !row_major(src, 16, false)) || !row_major(scale, 32, true) ||
        !row_major(offset, 32, true) || !row_major(dst, 32, true))
        return;
    vb_open_vecscope(L, op, (ptoc_value *[4]){src, scale, offset, dst}, 4, 1);
    q_prog Q = {L, ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS)};
    ptoc_type *f32 = desc(dst)->elem, *f16 = ptoc_type_float(L->ctx, PTOC_F16);
    ptoc_value *sp = vb_tile_ptr(L, src, desc(src)->elem), *dp = vb_tile_ptr(L, dst, f32);
    ptoc_value *A = a2_window_ptr(Q.L, f16, WIN_ROW), *W0 = a2_window_ptr(Q.L, f32, 0), *W1 = a2_window_ptr(Q.L, f32, 256);
    ptoc_op *valid = vb_tile_valid(L, dst);
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VMUL, f32);
    a2_vop0(&P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, vb_index(L, 0), ptoc_op_result(valid, 0), vb_index(L, 1));
    ptoc_value *zero = vb_index(L, 0);
    broadcast(&Q, scale, r, 0);
    broadcast(&Q, offset, r, 256);
    ptoc_value *c = chunk_begin(&P, &cols, ptoc_op_result(valid, 1));
    ptoc_value *soff = at(L, r, desc(src)->cols, c), *doff = at(L, r, desc(dst)->cols, c);
    if (bytes) {
        conv(&Q, A, zero, 2, sp, soff, 1);
        conv(&Q, dp, doff, 4, A, zero, 2);
    } else
        conv(&Q, dp, doff, 4, sp, soff, 2);
    with_param(&Q, PTOC_PTO_VOP_A2A3_VSUB, dp, doff, dp, doff, W1);
    with_param(&Q, PTOC_PTO_VOP_A2A3_VMUL, dp, doff, dp, doff, W0);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
    a2_count_end(&P);
    ptoc_op_erase(op);
}

void a2_quant_lower(vop_builder *L, ptoc_op *op)
{
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TQUANT)
        lower_tquant(L, op);
    else
        lower_tdequant(L, op);
}
