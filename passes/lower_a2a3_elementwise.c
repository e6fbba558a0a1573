/* lower_a2a3_elementwise.c: pto-lower-a2a3's elementwise family.
 *
 *   tadd tsub tmul tdiv tmax tmin tand tor   vOP dst, src0, src1 (TBinOp.hpp)
 *   tadds tmuls tmaxs tmins                  vOPs dst, src, s (TBinSOp.hpp)
 *   tsubs (floats)                           vadds of -s (TSubS.hpp): exact but
 *                                            for the sign of a NaN scalar
 *   tdivs (floats)                           vector_dup of s into dst, then
 *                                            vdiv dst, src, dst (s / src: vdiv
 *                                            dst, dst, src); in place (dst and
 *                                            src at one address, checked at run
 *                                            time) vmuls by 1/s (TDivS.hpp)
 *   tdivs (integers)                         element by element on the scalar
 *                                            unit (TDivs_naive, TSDiv_naive):
 *                                            tgetval, arith.divsi, tsetval
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

typedef struct a_row { ptoc_pto_op_id op; ptoc_pto_vop_id vop; bool scalar, negate, divs; } a_row;

static const a_row a_rows[] = {
    {PTOC_PTO_OP_TADD, PTOC_PTO_VOP_A2A3_VADD},   {PTOC_PTO_OP_TSUB, PTOC_PTO_VOP_A2A3_VSUB},
    {PTOC_PTO_OP_TMUL, PTOC_PTO_VOP_A2A3_VMUL},   {PTOC_PTO_OP_TDIV, PTOC_PTO_VOP_A2A3_VDIV},
    {PTOC_PTO_OP_TMAX, PTOC_PTO_VOP_A2A3_VMAX},   {PTOC_PTO_OP_TMIN, PTOC_PTO_VOP_A2A3_VMIN},
    {PTOC_PTO_OP_TAND, PTOC_PTO_VOP_A2A3_VAND},   {PTOC_PTO_OP_TOR, PTOC_PTO_VOP_A2A3_VOR},
    {PTOC_PTO_OP_TADDS, PTOC_PTO_VOP_A2A3_VADDS, true}, {PTOC_PTO_OP_TSUBS, PTOC_PTO_VOP_A2A3_VADDS, true, true},
    {PTOC_PTO_OP_TMULS, PTOC_PTO_VOP_A2A3_VMULS, true}, {PTOC_PTO_OP_TMAXS, PTOC_PTO_VOP_A2A3_VMAXS, true},
    {PTOC_PTO_OP_TMINS, PTOC_PTO_VOP_A2A3_VMINS, true},
    {PTOC_PTO_OP_TDIVS, PTOC_PTO_VOP_A2A3_VDIV, true, false, true},
};

static const a_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof a_rows / sizeof a_rows[0]; i++)
        if (a_rows[i].op == opcode)
            return &a_rows[i];
    return NULL;
}

bool a2_elementwise_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

/* The op's operands: the tile ins, then dst; the scalar of a tile-scalar op
 * (in 1, or in 0 for tdivs' s / src). */
typedef struct a_op {
    const a_row *row;
    ptoc_value *tiles[3];
    uint32_t ntiles;
    ptoc_value *scalar;
    bool scalar_first;
} a_op;

static bool scalar_at(const a_row *row, uint32_t i) { return row->scalar && (i == 1 || (i == 0 && row->divs)); }

static bool read_operands(const ptoc_op *op, const a_row *row, a_op *out)
{
    int nins = vb_dps_ins(op);
    if (nins < 0)
        return false;
    ptoc_value *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d)
        return false;
    *out = (a_op){.row = row};
    for (uint32_t i = 0; i < (uint32_t)nins; i++) {
        ptoc_value *v = ptoc_op_operand(op, i);
        if (vb_tile_desc(v->type) && out->ntiles < 2)
            out->tiles[out->ntiles++] = v;
        else if (!vb_tile_desc(v->type) && scalar_at(row, i) && !out->scalar) {
            out->scalar = v;
            out->scalar_first = i == 0;
        } else
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
        const ptoc_pto_tile_desc *d = vb_tile_desc(e->tiles[i]->type);
        all_full &= d->valid_cols == d->cols;
        all_one_row &= d->rows == 1;
    }
    return all_full || all_one_row;
}

/* ---------------------------------------------------------------- the paths */

/* The library's path for the op's tiles and dst's valid shape, chosen once
 * and run by each instruction of the op (tdivs runs two). */
typedef enum a_path { PATH_EMPTY, PATH_NORM, PATH_CHUNKS, PATH_COUNT_WHOLE, PATH_COUNT_ROWS } a_path;

typedef struct a_shape {
    a_path path;
    int64_t vr, vc;             /* static valid shape (PATH_NORM, PATH_CHUNKS) */
    ptoc_value *vrows, *vcols;  /* the valid shape as values (the counter paths) */
} a_shape;

static bool blocks_whole(const a_op *e, int64_t B)
{
    for (uint32_t i = 0; i < e->ntiles; i++)
        if (vb_tile_desc(e->tiles[i]->type)->cols % B)
            return false;
    return true;
}

/* Makes the valid shape's values (pto.tile_valid when dynamic) where the builder is. */
static a_shape choose_path(vop_builder *L, const a_op *e, int64_t E, int64_t B)
{
    ptoc_value *dst = e->tiles[e->ntiles - 1];
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    bool known = d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC;
    a_shape sh = {.vr = d->valid_rows, .vc = d->valid_cols};
    bool flat = contiguous(e);
    if (known && (sh.vr == 0 || sh.vc == 0))
        sh.path = PATH_EMPTY;
    else if (flat && known && (sh.vr * sh.vc + E - 1) / E <= A2_REPEAT_MAX && !(sh.vc > E && sh.vc % E))
        sh.path = PATH_NORM;
    else if (!flat && known && blocks_whole(e, B))
        sh.path = PATH_CHUNKS;
    else
        sh.path = flat ? PATH_COUNT_WHOLE : PATH_COUNT_ROWS;
    if (sh.path < PATH_COUNT_WHOLE)
        return sh;
    ptoc_op *valid = known ? NULL : vb_tile_valid(L, dst);
    sh.vrows = known ? vb_int(L, L->index, sh.vr) : ptoc_op_result(valid, 0);
    sh.vcols = known ? vb_int(L, L->index, sh.vc) : ptoc_op_result(valid, 1);
    return sh;
}

static void run_path(a2_prog *P, const a_shape *sh)
{
    switch (sh->path) {
    case PATH_EMPTY: return;
    case PATH_NORM: a2_whole_norm(P, sh->vr * sh->vc); return;
    case PATH_CHUNKS: a2_chunks(P, sh->vr, sh->vc); return;
    case PATH_COUNT_WHOLE: a2_whole_count(P, vb_arith(P->L, "arith.muli", sh->vrows, sh->vcols)); return;
    case PATH_COUNT_ROWS: a2_rows_count(P, sh->vrows, sh->vcols); return;
    }
}

/* ---------------------------------------------------------------- the programs */

static ptoc_type *elem_of(const a_op *e) { return vb_tile_desc(e->tiles[e->ntiles - 1]->type)->elem; }

/* `vop` over `tiles` (dst first), each at its own row stride, with `scalar`. */
static void run(vop_builder *L, const a_shape *sh, ptoc_pto_vop_id vop, ptoc_type *elem, ptoc_value *const *tiles,
                uint32_t n, ptoc_value *scalar)
{
    a2_prog P;
    a2_prog_init(&P, L, vop, elem);
    for (uint32_t i = 0; i < n; i++)
        a2_ptr(&P, tiles[i], elem, vb_tile_desc(tiles[i]->type)->cols);
    P.scalar = scalar;
    run_path(&P, sh);
}

/* The row's vop over dst and the sources; tsubs adds -s. */
static void plain_program(vop_builder *L, const a_op *e, const a_shape *sh)
{
    ptoc_type *elem = elem_of(e);
    ptoc_value *tiles[3] = {e->tiles[e->ntiles - 1], e->tiles[0], e->tiles[1]};
    ptoc_value *s = e->scalar ? vb_scalar_as(L, e->scalar, elem) : NULL;
    if (e->row->negate)
        s = vb_result0(ptoc_builder_create(&L->b, "arith.negf", 1, &s, 1, &elem, 0, NULL, 0));
    run(L, sh, e->row->vop, elem, tiles, e->ntiles, s);
}

/* The library's in-place reciprocal, rounded to the element: (T)(1.0f / (float)s). */
static ptoc_value *reciprocal(vop_builder *L, ptoc_value *s, ptoc_type *elem)
{
    ptoc_type *f32 = ptoc_type_float(L->ctx, PTOC_F32);
    bool narrow = elem != f32;
    ptoc_value *x = narrow ? vb_cast(L, "arith.extf", s, f32) : s;
    ptoc_value *r = vb_arith(L, "arith.divf", vb_float(L, f32, 1.0), x);
    return narrow ? vb_cast(L, "arith.truncf", r, elem) : r;
}

static ptoc_value *ub_addr(vop_builder *L, ptoc_value *tile, ptoc_type *elem)
{
    ptoc_type *i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS);
    ptoc_value *ops[2] = {vb_tile_ptr(L, tile, elem), vb_int(L, L->index, 0)};
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_UB_ADDR, 2, ops, 1, &i64, NULL, NULL, NULL, NULL));
}

/* Float tdivs: dst filled with s, then divided (DivSOp, SDivOp). */
static void divs_program(vop_builder *L, const a_op *e, const a_shape *sh)
{
    ptoc_type *elem = elem_of(e);
    ptoc_value *src = e->tiles[0], *dst = e->tiles[1];
    ptoc_value *s = vb_scalar_as(L, e->scalar, elem);
    vb_if alias;
    if (!e->scalar_first) {
        ptoc_value *dst_addr = ub_addr(L, dst, elem), *src_addr = ub_addr(L, src, elem);
        vb_if_begin(L, &alias, vb_cmpi(L, VB_CMP_EQ, dst_addr, src_addr));
        ptoc_value *in_place[2] = {dst, src};
        run(L, sh, PTOC_PTO_VOP_A2A3_VMULS, elem, in_place, 2, reciprocal(L, s, elem));
        vb_if_else(L, &alias);
    }
    run(L, sh, PTOC_PTO_VOP_A2A3_VECTOR_DUP, elem, &dst, 1, s);
    ptoc_value *div[3] = {dst, src, dst}, *rdiv[3] = {dst, dst, src};
    run(L, sh, PTOC_PTO_VOP_A2A3_VDIV, elem, e->scalar_first ? rdiv : div, 3, NULL);
    if (!e->scalar_first)
        vb_if_end(L, &alias);
}

/* Integer tdivs, one element at a time (the op is on the S pipe, ptoc_pto_op_pipe):
 *   for r, c in the valid shape: dst[r, c] = src[r, c] / s (or s / src[r, c]). */
static void scalar_divs(vop_builder *L, const a_op *e)
{
    ptoc_value *src = e->tiles[0], *dst = e->tiles[1];
    ptoc_type *elem = elem_of(e);
    ptoc_type *ielem = ptoc_type_int(L->ctx, ptoc_type_bitwidth(elem), PTOC_SIGNLESS);
    ptoc_value *s = vb_scalar_as(L, e->scalar, elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, ptoc_op_result(valid, 0), one);
    ptoc_value *c = vb_loop_begin(L, &cols, zero, ptoc_op_result(valid, 1), one);
    ptoc_value *at[2];
    for (uint32_t i = 0; i < 2; i++) {
        int64_t cols_i = vb_tile_desc(e->tiles[i]->type)->cols;
        at[i] = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, vb_int(L, L->index, cols_i)), c);
    }
    ptoc_value *get[2] = {src, at[0]};
    ptoc_op *load = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TGETVAL), 2, get, 1, &ielem, 0, NULL, 0);
    ptoc_op_set_segment_sizes(load, L->b.arena, 2, (int64_t[2]){2, 0});
    ptoc_value *x = vb_result0(load);
    bool is_unsigned = elem->u.integer.sign == PTOC_UNSIGNED;
    const char *div = is_unsigned ? "arith.divui" : "arith.divsi";
    ptoc_value *q = e->scalar_first ? vb_arith(L, div, s, x) : vb_arith(L, div, x, s);
    ptoc_value *set[3] = {at[1], q, dst};
    ptoc_op *store = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TSETVAL), 3, set, 0, NULL, 0, NULL, 0);
    ptoc_op_set_segment_sizes(store, L->b.arena, 2, (int64_t[2]){2, 1});
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

void a2_elementwise_lower(vop_builder *L, ptoc_op *op)
{
    a_op e;
    if (!read_operands(op, row_of(ptoc_pto_opcode(op)), &e))
        return;
    if (e.row->divs && !ptoc_type_is_float(elem_of(&e))) {
        ptoc_builder_set_before(&L->b, op);
        L->b.loc = op->loc;
        scalar_divs(L, &e);
        ptoc_op_erase(op);
        return;
    }
    vb_open_vecscope(L, op, e.tiles, e.ntiles, 1);
    unsigned esize = ptoc_type_bitwidth(elem_of(&e)) / 8;
    a_shape sh = choose_path(L, &e, 256 / esize, 32 / esize);
    if (e.row->divs)
        divs_program(L, &e, &sh);
    else
        plain_program(L, &e, &sh);
    ptoc_op_erase(op);
}

void a2_elementwise_program(vop_builder *L, ptoc_pto_vop_id vop, ptoc_value *const *ins, uint32_t nins,
                            ptoc_value *dst, ptoc_value *scalar)
{
    a_op e = {.ntiles = 0};
    ptoc_value *tiles[3] = {dst};
    for (uint32_t i = 0; i < nins && i < 2; i++)
        e.tiles[e.ntiles++] = tiles[i + 1] = ins[i];
    e.tiles[e.ntiles++] = dst;
    unsigned esize = ptoc_type_bitwidth(elem_of(&e)) / 8;
    a_shape sh = choose_path(L, &e, 256 / esize, 32 / esize);
    run(L, &sh, vop, elem_of(&e), tiles, e.ntiles, scalar);
}
