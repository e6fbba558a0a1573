/* lower_a2a3_bitwise.c: pto-lower-a2a3's txor and bitwise tile-scalar ops
 * (pto-isa a2a3 TXor.hpp, TBitwiseSOp.hpp). A2/A3 has no vxor and no
 * bitwise vector-scalar instructions; the library composes them:
 *
 *   txor a, b, tmp -> dst     vor tmp, a, b; vand dst, a, b; vnot dst, dst;
 *                             vand dst, dst, tmp   ((a | b) & ~(a & b))
 *   tands src, s -> dst       texpands dst, s; vand dst, src, dst
 *   tors src, s -> dst        texpands dst, s; vor dst, src, dst
 *   txors src, s, tmp -> dst  tors tmp, src, s; tands dst, src, s;
 *                             vnot dst, dst; vand dst, dst, tmp
 *
 * Each step is the elementwise family's program (a2_elementwise_program) or
 * texpands' (a2_fill_program), so the ops take what those take: 16- and
 * 32-bit integers of either sign on plain row-major tiles. tmp is scratch the
 * library writes; it must have dst's valid shape. The tile-scalar ops fill
 * dst before reading src, as the library does: with dst and src one tile the
 * library's result is s & s (s | s), not src & s; ptoc follows the library.
 */
#include "passes/lower_a2a3.h"

static bool lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TXOR || opcode == PTOC_PTO_OP_TANDS || opcode == PTOC_PTO_OP_TORS ||
           opcode == PTOC_PTO_OP_TXORS;
}

bool a2_bitwise_lowers(ptoc_pto_op_id opcode) { return lowers(opcode); }

/* Whether t is a plain integer tile of elem with dst's valid shape. */
static bool fits(const ptoc_value *t, const ptoc_pto_tile_desc *d)
{
    const ptoc_pto_tile_desc *td = vb_tile_desc(t->type);
    return td && ptoc_type_is_int(d->elem) && a2_plain_tile(t->type, d->elem) &&
           td->valid_rows == d->valid_rows && td->valid_cols == d->valid_cols;
}

static void binary(vop_builder *L, ptoc_pto_vop_id vop, ptoc_value *a, ptoc_value *b, ptoc_value *dst)
{
    ptoc_value *ins[2] = {a, b};
    a2_elementwise_program(L, vop, ins, 2, dst, NULL);
}

/* dst = src OP s, OP the vand or vor `vop`: s into dst, then vop dst, src, dst. */
static void with_scalar(vop_builder *L, ptoc_pto_vop_id vop, ptoc_value *src, ptoc_value *s, ptoc_value *dst)
{
    a2_fill_program(L, dst, s);
    binary(L, vop, src, dst, dst);
}

/* dst = ~dst & tmp, the last two steps of both xors. */
static void not_and(vop_builder *L, ptoc_value *tmp, ptoc_value *dst)
{
    a2_elementwise_program(L, PTOC_PTO_VOP_A2A3_VNOT, &dst, 1, dst, NULL);
    binary(L, PTOC_PTO_VOP_A2A3_VAND, dst, tmp, dst);
}

void a2_bitwise_lower(vop_builder *L, ptoc_op *op)
{
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    bool xor = opcode == PTOC_PTO_OP_TXOR || opcode == PTOC_PTO_OP_TXORS;
    bool scalar = opcode != PTOC_PTO_OP_TXOR;
    int nins = vb_dps_ins(op);
    if (nins != (xor ? 3 : 2))
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *b = ptoc_op_operand(op, 1);
    ptoc_value *tmp = xor ? ptoc_op_operand(op, 2) : NULL, *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d || !fits(dst, d) || !fits(src, d) || (tmp && !fits(tmp, d)))
        return;
    if (scalar ? vb_tile_desc(b->type) || !vb_scalar_fits(b->type, d->elem) : !fits(b, d))
        return;
    /* The ins, then tmp and dst (both written). */
    ptoc_value *tiles[4];
    uint32_t n = 0;
    tiles[n++] = src;
    if (!scalar)
        tiles[n++] = b;
    if (tmp)
        tiles[n++] = tmp;
    tiles[n++] = dst;
    vb_open_vecscope(L, op, tiles, n, tmp ? 2 : 1);
    switch (opcode) {
    case PTOC_PTO_OP_TXOR:
        binary(L, PTOC_PTO_VOP_A2A3_VOR, src, b, tmp);
        binary(L, PTOC_PTO_VOP_A2A3_VAND, src, b, dst);
        not_and(L, tmp, dst);
        break;
    case PTOC_PTO_OP_TANDS: with_scalar(L, PTOC_PTO_VOP_A2A3_VAND, src, b, dst); break;
    case PTOC_PTO_OP_TORS: with_scalar(L, PTOC_PTO_VOP_A2A3_VOR, src, b, dst); break;
    default:
        with_scalar(L, PTOC_PTO_VOP_A2A3_VOR, src, b, tmp);
        with_scalar(L, PTOC_PTO_VOP_A2A3_VAND, src, b, dst);
        not_and(L, tmp, dst);
        break;
    }
    ptoc_op_erase(op);
}
