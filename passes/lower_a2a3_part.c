/* lower_a2a3_part.c: pto-lower-a2a3's tpartadd tpartmax tpartmin tpartmul
 * (pto-isa a2a3 TPartAdd.hpp, TPartMax.hpp, TPartMin.hpp, TPartMul.hpp,
 * TPartOp.hpp). Over dst's valid region: src0 OP src1 where both sources are
 * valid, the valid one's element where one is, 0 where neither is (the cpu
 * target's rule, codegen/lower_pto_ewx.c).
 *
 * The library copies the source whose valid shape is dst's into dst, then
 * runs vadd / vmax / vmin / vmul over the smaller source's region (TPartInstr;
 * both sources of dst's shape: the op alone). ptoc does the same, with two
 * differences that keep the cpu target's bytes:
 *   - the copy is vor of the element's bits as integer lanes, per row under
 *     the valid column count, where the library's copy_ubuf_to_ubuf copies
 *     whole 32-byte blocks (bytes past the valid columns too);
 *   - the op reads src0 and src1 in that order (src0 OP src1, as the cpu
 *     target: a NaN operand's sign and payload depend on the order), where the
 *     library's reads the smaller source first and then dst.
 * When the tile types do not show a source covering dst's valid shape (a
 * dynamic valid shape), the program is the general one: dst's region set to
 * 0, src1 copied over its part of it, src0 over its part, then the op over
 * the part both cover. Each region runs as the library's TPartOps does: per
 * column chunk in norm mode, the rows as repeats, unless the rows are fewer
 * than the instructions that would take or a row stride is past 255 blocks
 * (then per row in counter mode); a dynamic region per row in counter mode.
 */
#include "passes/lower_a2a3.h"

static ptoc_pto_vop_id vop_of(ptoc_pto_op_id opcode)
{
    switch (opcode) {
    case PTOC_PTO_OP_TPARTADD: return PTOC_PTO_VOP_A2A3_VADD;
    case PTOC_PTO_OP_TPARTMAX: return PTOC_PTO_VOP_A2A3_VMAX;
    case PTOC_PTO_OP_TPARTMIN: return PTOC_PTO_VOP_A2A3_VMIN;
    case PTOC_PTO_OP_TPARTMUL: return PTOC_PTO_VOP_A2A3_VMUL;
    default: return PTOC_PTO_VOP_NONE;
    }
}

bool a2_part_lowers(ptoc_pto_op_id opcode) { return vop_of(opcode) != PTOC_PTO_VOP_NONE; }

/* An extent: static (s >= 0) or only a value. */
typedef struct extent { int64_t s; ptoc_value *v; } extent;

typedef struct region { extent rows, cols; } region;

static region valid_of(vop_builder *L, ptoc_value *tile)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(tile->type);
    ptoc_op *valid = vb_tile_valid(L, tile);
    region r = {{d->valid_rows, ptoc_op_result(valid, 0)}, {d->valid_cols, ptoc_op_result(valid, 1)}};
    if (r.rows.s == PTOC_DYNAMIC)
        r.rows.s = -1;
    if (r.cols.s == PTOC_DYNAMIC)
        r.cols.s = -1;
    return r;
}

static extent min_of(vop_builder *L, extent a, extent b)
{
    if (a.s >= 0 && b.s >= 0)
        return a.s <= b.s ? a : b;
    return (extent){-1, vb_arith(L, "arith.minui", a.v, b.v)};
}

static region meet(vop_builder *L, region a, region b)
{
    return (region){min_of(L, a.rows, b.rows), min_of(L, a.cols, b.cols)};
}

/* Whether the types show that src covers dst's valid region. */
static bool covers(region src, region dst)
{
    return src.rows.s >= 0 && src.cols.s >= 0 && dst.rows.s >= 0 && dst.cols.s >= 0 &&
           src.rows.s >= dst.rows.s && src.cols.s >= dst.cols.s;
}

static bool stride_over(const a2_prog *P)
{
    for (uint32_t i = 0; i < P->nptrs; i++)
        if (P->cols[i] / P->B > A2_STRIDE_MAX)
            return true;
    return false;
}

/* P over region r (TPartOps' choice of path). */
static void run_region(a2_prog *P, region r)
{
    vop_builder *L = P->L;
    if (r.rows.s >= 0 && r.cols.s >= 0) {
        int64_t rows = r.rows.s, cols = r.cols.s;
        if (rows == 0 || cols == 0)
            return;
        int64_t instrs = (cols + P->E - 1) / P->E * ((rows + A2_REPEAT_MAX - 1) / A2_REPEAT_MAX);
        if (stride_over(P) || rows < instrs)
            a2_rows_count(P, r.rows.v, r.cols.v);
        else
            a2_chunks(P, rows, cols);
        return;
    }
    ptoc_value *zero = vb_index(L, 0);
    ptoc_value *some = vb_arith(L, "arith.andi", vb_cmpi(L, VB_CMP_UGT, r.rows.v, zero),
                                vb_cmpi(L, VB_CMP_UGT, r.cols.v, zero));
    vb_if any;
    vb_if_begin(L, &any, some);
    a2_rows_count(P, r.rows.v, r.cols.v);
    vb_if_end(L, &any);
}

/* vop over tiles (dst first; n of them) as `elem` lanes, with scalar, over r. */
static void program(vop_builder *L, ptoc_pto_vop_id vop, ptoc_type *elem, ptoc_value *const *tiles,
                    uint32_t n, ptoc_value *scalar, region r)
{
    a2_prog P;
    a2_prog_init(&P, L, vop, elem);
    for (uint32_t i = 0; i < n; i++)
        a2_ptr(&P, tiles[i], elem, vb_tile_desc(tiles[i]->type)->cols);
    P.scalar = scalar;
    run_region(&P, r);
}

/* src's bits into dst over r: vor src, src as integer lanes. */
static void copy(vop_builder *L, ptoc_type *bits, ptoc_value *dst, ptoc_value *src, region r)
{
    ptoc_value *tiles[3] = {dst, src, src};
    program(L, PTOC_PTO_VOP_A2A3_VOR, bits, tiles, 3, NULL, r);
}

void a2_part_lower(vop_builder *L, ptoc_op *op)
{
    if (vb_dps_ins(op) != 2)
        return;
    ptoc_value *src0 = ptoc_op_operand(op, 0), *src1 = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d || !a2_plain_tile(dst->type, d->elem) || !a2_plain_tile(src0->type, d->elem) ||
        !a2_plain_tile(src1->type, d->elem))
        return;
    ptoc_value *tiles[3] = {src0, src1, dst};
    vb_open_vecscope(L, op, tiles, 3, 1);
    ptoc_type *bits = ptoc_type_int(L->ctx, ptoc_type_bitwidth(d->elem), PTOC_SIGNLESS);
    region rd = valid_of(L, dst), r0 = valid_of(L, src0), r1 = valid_of(L, src1);
    bool c0 = covers(r0, rd), c1 = covers(r1, rd);
    ptoc_value *ins[3] = {dst, src0, src1};
    if (c0 && c1) {
        program(L, vop_of(ptoc_pto_opcode(op)), d->elem, ins, 3, NULL, rd);
    } else if (c0 || c1) {
        copy(L, bits, dst, c0 ? src0 : src1, rd);
        program(L, vop_of(ptoc_pto_opcode(op)), d->elem, ins, 3, NULL, meet(L, rd, c0 ? r1 : r0));
    } else {
        program(L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, bits, &dst, 1, vb_int(L, bits, 0), rd);
        copy(L, bits, dst, src1, meet(L, rd, r1));
        copy(L, bits, dst, src0, meet(L, rd, r0));
        program(L, vop_of(ptoc_pto_opcode(op)), d->elem, ins, 3, NULL, meet(L, rd, meet(L, r0, r1)));
    }
    ptoc_op_erase(op);
}
