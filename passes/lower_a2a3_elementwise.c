/* lower_a2a3_elementwise.c: pto-lower-a2a3's elementwise family.
 *
 *   tadd tsub tmul tdiv tmax tmin tand tor   vOP dst, src0, src1 (TBinOp.hpp)
 *   tadds tmuls tmaxs tmins                  vOPs dst, src, s (TBinSOp.hpp)
 *   tsubs (floats)                           vadds of -s (TSubS.hpp): exact but
 *                                            for the sign of a NaN scalar
 *
 * The program is one of the library's four paths (lower_a2a3.h), chosen from
 * the static tile shapes and the static valid shape of dst:
 *   - whole-tile norm mode: the valid region is contiguous (every tile's
 *     valid columns are its columns, or each has one row) and at most 255
 *     repeats long;
 *   - whole-tile counter mode: contiguous, but longer than 255 repeats, a row
 *     longer than E and not a multiple of it, or a dynamic valid shape;
 *   - per column chunk: a ragged static region, each row stride a whole
 *     number of 32-byte blocks;
 *   - per row, counter mode: any other ragged region (a dynamic valid shape,
 *     a row stride not a whole number of blocks).
 */
#include "passes/lower_a2a3.h"

typedef struct a_row { ptoc_pto_op_id op; ptoc_pto_vop_id vop; bool scalar, negate; } a_row;

static const a_row a_rows[] = {
    {PTOC_PTO_OP_TADD, PTOC_PTO_VOP_A2A3_VADD},   {PTOC_PTO_OP_TSUB, PTOC_PTO_VOP_A2A3_VSUB},
    {PTOC_PTO_OP_TMUL, PTOC_PTO_VOP_A2A3_VMUL},   {PTOC_PTO_OP_TDIV, PTOC_PTO_VOP_A2A3_VDIV},
    {PTOC_PTO_OP_TMAX, PTOC_PTO_VOP_A2A3_VMAX},   {PTOC_PTO_OP_TMIN, PTOC_PTO_VOP_A2A3_VMIN},
    {PTOC_PTO_OP_TAND, PTOC_PTO_VOP_A2A3_VAND},   {PTOC_PTO_OP_TOR, PTOC_PTO_VOP_A2A3_VOR},
    {PTOC_PTO_OP_TADDS, PTOC_PTO_VOP_A2A3_VADDS, true}, {PTOC_PTO_OP_TSUBS, PTOC_PTO_VOP_A2A3_VADDS, true, true},
    {PTOC_PTO_OP_TMULS, PTOC_PTO_VOP_A2A3_VMULS, true}, {PTOC_PTO_OP_TMAXS, PTOC_PTO_VOP_A2A3_VMAXS, true},
    {PTOC_PTO_OP_TMINS, PTOC_PTO_VOP_A2A3_VMINS, true},
};

static const a_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof a_rows / sizeof a_rows[0]; i++)
        if (a_rows[i].op == opcode)
            return &a_rows[i];
    return NULL;
}

bool a2_elementwise_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

/* The op's operands: the tile ins, then dst; the scalar of a tile-scalar op. */
typedef struct a_op {
    const a_row *row;
    ptoc_value *tiles[3];
    uint32_t ntiles;
    ptoc_value *scalar;
} a_op;

static bool read_operands(const ptoc_op *op, const a_row *row, a_op *out)
{
    int nins = vb_dps_ins(op);
    if (nins < 0)
        return false;
    ptoc_value *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(dst->type);
    if (!d)
        return false;
    *out = (a_op){.row = row};
    for (uint32_t i = 0; i < (uint32_t)nins; i++) {
        ptoc_value *v = ptoc_op_operand(op, i);
        if (ptoc_pto_tile_buf(v->type) && out->ntiles < 2)
            out->tiles[out->ntiles++] = v;
        else if (!ptoc_pto_tile_buf(v->type) && row->scalar && !out->scalar && i == 1)
            out->scalar = v;
        else
            return false;
    }
    out->tiles[out->ntiles++] = dst;
    for (uint32_t i = 0; i < out->ntiles; i++)
        if (!a2_plain_tile(out->tiles[i]->type, d->elem))
            return false;
    if (row->scalar && (!out->scalar || !vb_scalar_fits(out->scalar->type, d->elem)))
        return false;
    if (row->negate && !ptoc_type_is_float(d->elem))
        return false;
    return out->ntiles == (row->scalar ? 2u : 3u);
}

static bool contiguous(const a_op *e)
{
    bool all_full = true, all_one_row = true;
    for (uint32_t i = 0; i < e->ntiles; i++) {
        const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(e->tiles[i]->type);
        all_full &= d->valid_cols == d->cols;
        all_one_row &= d->rows == 1;
    }
    return all_full || all_one_row;
}

/* dst, then the sources, each at its own row stride; the scalar as the lanes'. */
static void setup(a2_prog *P, vop_builder *L, const a_op *e)
{
    ptoc_value *dst = e->tiles[e->ntiles - 1];
    ptoc_type *elem = ptoc_pto_tile_buf(dst->type)->elem;
    a2_prog_init(P, L, e->row->vop, elem);
    for (uint32_t i = 0; i < e->ntiles; i++) {
        ptoc_value *t = e->tiles[i == 0 ? e->ntiles - 1 : i - 1];
        a2_ptr(P, t, elem, ptoc_pto_tile_buf(t->type)->cols);
    }
    if (e->scalar) {
        P->scalar = vb_scalar_as(L, e->scalar, elem);
        if (e->row->negate)
            P->scalar = vb_result0(ptoc_builder_create(&L->b, "arith.negf", 1, &P->scalar, 1, &elem, 0, NULL, 0));
    }
}

static void program(vop_builder *L, const a_op *e)
{
    a2_prog P;
    setup(&P, L, e);
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(e->tiles[e->ntiles - 1]->type);
    bool known = d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC;
    int64_t vr = d->valid_rows, vc = d->valid_cols;
    if (known && (vr == 0 || vc == 0))
        return;
    bool flat = contiguous(e);
    if (flat && known && (vr * vc + P.E - 1) / P.E <= A2_REPEAT_MAX && !(vc > P.E && vc % P.E)) {
        a2_whole_norm(&P, vr * vc);
        return;
    }
    if (!flat && known && a2_blocks_whole(&P)) {
        a2_chunks(&P, vr, vc);
        return;
    }
    ptoc_op *valid = known ? NULL : vb_tile_valid(L, e->tiles[e->ntiles - 1]);
    ptoc_value *vrows = known ? a2_index(&P, vr) : ptoc_op_result(valid, 0);
    ptoc_value *vcols = known ? a2_index(&P, vc) : ptoc_op_result(valid, 1);
    if (flat)
        a2_whole_count(&P, vb_arith(L, "arith.muli", vrows, vcols));
    else
        a2_rows_count(&P, vrows, vcols);
}

void a2_elementwise_lower(vop_builder *L, ptoc_op *op)
{
    a_op e;
    if (!read_operands(op, row_of(ptoc_pto_opcode(op)), &e))
        return;
    vb_open_vecscope(L, op, e.tiles, e.ntiles, 1);
    program(L, &e);
    ptoc_op_erase(op);
}
