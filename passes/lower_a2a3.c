/* lower_a2a3.c: the "pto-lower-a2a3" pass: vec tile ops to the A2/A3 repeat
 * intrinsics (the a2a3.* rows of dialect/pto_vops.def).
 *
 * Each tile op lowered here becomes a pto.vecscope with the op's ins and
 * outs whose region is the repeat program pto-isa's include/pto/npu/a2a3
 * runs for it: instructions over `repeat` repeats of 256 bytes (E elements),
 * under the vector mask in norm mode or an element count in counter mode.
 *
 *   tadd tsub tmul tdiv tmax tmin tand tor   vOP dst, src0, src1 (TBinOp.hpp)
 *   tadds tmuls tmaxs tmins                  vOPs dst, src, s (TBinSOp.hpp)
 *   tsubs (floats)                           vadds of -s (TSubS.hpp): exact but
 *                                            for the sign of a NaN scalar
 *
 * The program is one of three of the library's paths, chosen from the static
 * tile shapes and the static valid shape of dst:
 *   - whole-tile, norm mode (Bin1LNormMode): the valid region is contiguous
 *     (every tile's valid columns are its columns, or each has one row) and
 *     at most 255 repeats long: head repeats of E elements, then the tail
 *     repeat under the continuous mask of its first n lanes;
 *   - whole-tile, counter mode (Bin1LCountMode): contiguous, but longer than
 *     255 repeats, a row longer than E and not a multiple of it, or a
 *     dynamic valid shape: set_mask_count, the element count as the mask,
 *     one instruction with repeat 0;
 *   - per column chunk (Bin2LNormModeRowRpt): a ragged static region, each
 *     row stride a whole number of 32-byte blocks: per chunk of E columns
 *     one instruction whose repeats are the rows, its repeat stride each
 *     tile's row stride in blocks; the tail chunk under the continuous mask.
 *     More than 255 rows are split into instructions of at most 255 repeats
 *     (REPEAT_MAX); a row stride above 255 blocks (strideOverFlag) runs one
 *     instruction of one repeat per row;
 *   - per row, counter mode (Bin2LCountMode): any other ragged region (a
 *     dynamic valid shape, a row stride not a whole number of blocks): the
 *     valid columns as the count, one instruction per row.
 * A program leaves the core in norm mode with every lane on, as it found it
 * (set_mask_norm; set_vector_mask -1, -1 after each count or mask).
 *
 * An op the pass cannot lower (another op, layout or element type, a scalar
 * it would convert between int and float) stays; the a2a3 backend then says
 * it is not supported yet.
 *
 * Requires: the DPS form on tiles with addresses; sync already inserted.
 * Produces: pto.vecscope ops in place of the lowered ones.
 */
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <string.h>

typedef vop_builder lower;

enum { REPEAT_MAX = 255, STRIDE_MAX = 255 };

/* ---------------------------------------------------------------- the ops */

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

bool ptoc_lower_a2a3_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

/* The op's operands: the tile ins, then dst; the scalar of a tile-scalar op. */
typedef struct a_op {
    const a_row *row;
    ptoc_value *tiles[3];
    uint32_t ntiles;
    ptoc_value *scalar;
} a_op;

/* A row_major none_box vec tile of `elem`, which the vector unit computes on. */
static bool plain_tile(const ptoc_type *t, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(t);
    if (!d || d->loc != PTOC_PTO_AS_VEC || d->blayout != PTOC_PTO_BL_ROW_MAJOR ||
        d->slayout != PTOC_PTO_SL_NONE_BOX || d->elem != elem)
        return false;
    unsigned bits = ptoc_type_bitwidth(elem);
    if (ptoc_type_is_float(elem))
        return elem->u.fp.kind == PTOC_F16 || elem->u.fp.kind == PTOC_F32;
    return ptoc_type_is_int(elem) && (bits == 16 || bits == 32);
}

static bool read_operands(const ptoc_op *op, const a_row *row, a_op *out)
{
    uint32_t nins, nouts;
    if (op->nresults != 0 || !ptoc_pto_dps_split(op, &nins, &nouts) || nouts != 1 || nins + nouts != op->noperands)
        return false;
    ptoc_value *dst = ptoc_op_operand(op, nins);
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(dst->type);
    if (!d)
        return false;
    *out = (a_op){.row = row};
    for (uint32_t i = 0; i < nins; i++) {
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
        if (!plain_tile(out->tiles[i]->type, d->elem))
            return false;
    if (row->scalar && (!out->scalar || !vb_scalar_fits(out->scalar->type, d->elem)))
        return false;
    if (row->negate && !ptoc_type_is_float(d->elem))
        return false;
    return out->ntiles == (row->scalar ? 2u : 3u);
}

/* ---------------------------------------------------------------- the program */

/* What the instructions of one program share. */
typedef struct prog {
    lower *L;
    const a_op *e;
    ptoc_value *tiles[3];       /* dst, then the sources: the intrinsics' order */
    ptoc_value *ptrs[3];        /* their addresses */
    int64_t cols[3];            /* their row strides, in elements */
    uint32_t nptrs;
    ptoc_value *scalar;
    int64_t E, B;               /* elements per repeat, per 32-byte block */
    ptoc_type *i64;
} prog;

static ptoc_value *cst(prog *P, int64_t v) { return vb_int(P->L, P->L->index, v); }
static ptoc_value *c64(prog *P, int64_t v) { return vb_int(P->L, P->i64, v); }

static void vop0(prog *P, ptoc_pto_vop_id id, uint32_t n, ptoc_value *const *ops)
{
    (void)vb_vop(P->L, id, n, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

static void set_mask(prog *P, ptoc_value *hi, ptoc_value *lo)
{
    ptoc_value *ops[2] = {hi, lo};
    vop0(P, PTOC_PTO_VOP_A2A3_SET_VECTOR_MASK, 2, ops);
}

static void full_mask(prog *P) { set_mask(P, c64(P, -1), c64(P, -1)); }

/* The continuous mask of the first n lanes (SetContMaskByDType), 0 < n < E. */
static void cont_mask(prog *P, int64_t n)
{
    uint64_t lo = n >= 64 ? ~0ull : (1ull << n) - 1;
    uint64_t hi = n <= 64 ? 0 : n >= 128 ? ~0ull : (1ull << (n - 64)) - 1;
    set_mask(P, c64(P, (int64_t)hi), c64(P, (int64_t)lo));
}

/* One instruction: pointer i at element offset offs[i], `repeat` repeats,
 * the repeat strides `rep` (in blocks; NULL: contiguous repeats). */
static void instr(prog *P, ptoc_value *const *offs, ptoc_value *repeat, const int64_t *rep)
{
    ptoc_value *ops[8];
    uint32_t n = 0;
    for (uint32_t i = 0; i < P->nptrs; i++) {
        ops[n++] = P->ptrs[i];
        ops[n++] = offs[i];
    }
    if (P->scalar)
        ops[n++] = P->scalar;
    ops[n++] = repeat;
    ptoc_op *op = vb_vop(P->L, P->e->row->vop, n, ops, 0, NULL, NULL, NULL, NULL, NULL);
    if (!rep)
        return;
    ptoc_type *i64 = P->i64;
    ptoc_attr *blk[3], *rp[3];
    for (uint32_t i = 0; i < P->nptrs; i++) {
        blk[i] = ptoc_attr_int(P->L->ctx, i64, 1);
        rp[i] = ptoc_attr_int(P->L->ctx, i64, rep[i]);
    }
    ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(P->L->ctx, "blk"), ptoc_attr_array(P->L->ctx, P->nptrs, blk));
    ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(P->L->ctx, "rep"), ptoc_attr_array(P->L->ctx, P->nptrs, rp));
}

/* Every pointer at the same offset. */
static void instr_at(prog *P, ptoc_value *off, ptoc_value *repeat, const int64_t *rep)
{
    ptoc_value *offs[3] = {off, off, off};
    instr(P, offs, repeat, rep);
}

/* Offsets row * cols[i] + col of each pointer. */
static void row_offsets(prog *P, ptoc_value *row, ptoc_value *col, ptoc_value **offs)
{
    for (uint32_t i = 0; i < P->nptrs; i++) {
        ptoc_value *base = vb_arith(P->L, "arith.muli", row, cst(P, P->cols[i]));
        offs[i] = col ? vb_arith(P->L, "arith.addi", base, col) : base;
    }
}

static ptoc_value *as_i64(prog *P, ptoc_value *v) { return vb_cast(P->L, "arith.index_cast", v, P->i64); }

static void count_begin(prog *P, ptoc_value *count)
{
    vop0(P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    set_mask(P, c64(P, 0), as_i64(P, count));
}

static void count_end(prog *P)
{
    vop0(P, PTOC_PTO_VOP_A2A3_SET_MASK_NORM, 0, NULL);
    full_mask(P);
}

/* Bin1LCountMode: the n valid elements as one count. */
static void whole_count(prog *P, ptoc_value *n)
{
    count_begin(P, n);
    instr_at(P, cst(P, 0), cst(P, 0), NULL);
    count_end(P);
}

/* Bin1LNormMode: n static elements, at most 255 repeats. */
static void whole_norm(prog *P, int64_t n)
{
    int64_t head = n / P->E, tail = n % P->E;
    if (head)
        instr_at(P, cst(P, 0), cst(P, head), NULL);
    if (tail) {
        cont_mask(P, tail);
        instr_at(P, cst(P, head * P->E), cst(P, 1), NULL);
        full_mask(P);
    }
}

/* Bin2LCountMode: vcols as the count, one instruction per valid row. */
static void rows_count(prog *P, ptoc_value *vrows, ptoc_value *vcols)
{
    count_begin(P, vcols);
    vb_loop l;
    ptoc_value *r = vb_loop_begin(P->L, &l, cst(P, 0), vrows, cst(P, 1));
    ptoc_value *offs[3];
    row_offsets(P, r, NULL, offs);
    instr(P, offs, cst(P, 0), NULL);
    vb_loop_end(P->L, &l);
    count_end(P);
}

static bool stride_over(const prog *P)
{
    for (uint32_t i = 0; i < P->nptrs; i++)
        if (P->cols[i] / P->B > STRIDE_MAX)
            return true;
    return false;
}

/* One column chunk at `col` over `rows` static rows, the rows as repeats
 * (groups of at most 255), or one repeat per row when a stride overflows. */
static void chunk_rows(prog *P, ptoc_value *col, int64_t rows)
{
    ptoc_value *offs[3];
    vb_loop l;
    if (stride_over(P)) {
        ptoc_value *r = rows == 1 ? cst(P, 0) : vb_loop_begin(P->L, &l, cst(P, 0), cst(P, rows), cst(P, 1));
        row_offsets(P, r, col, offs);
        instr(P, offs, cst(P, 1), NULL);
        if (rows != 1)
            vb_loop_end(P->L, &l);
        return;
    }
    int64_t rep[3];
    for (uint32_t i = 0; i < P->nptrs; i++)
        rep[i] = P->cols[i] / P->B;
    for (int64_t g = 0; g < rows; g += REPEAT_MAX) {
        row_offsets(P, cst(P, g), col, offs);
        instr(P, offs, cst(P, rows - g < REPEAT_MAX ? rows - g : REPEAT_MAX), rep);
    }
}

/* Bin2LNormModeRowRpt: the full chunks of E columns, then the tail chunk
 * under the continuous mask. */
static void chunks(prog *P, int64_t rows, int64_t cols)
{
    int64_t full = cols / P->E, tail = cols % P->E;
    vb_loop l;
    if (full == 1)
        chunk_rows(P, cst(P, 0), rows);
    else if (full > 1) {
        ptoc_value *c = vb_loop_begin(P->L, &l, cst(P, 0), cst(P, full * P->E), cst(P, P->E));
        chunk_rows(P, c, rows);
        vb_loop_end(P->L, &l);
    }
    if (tail) {
        cont_mask(P, tail);
        chunk_rows(P, cst(P, full * P->E), rows);
        full_mask(P);
    }
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

static bool blocks_whole(const prog *P)
{
    for (uint32_t i = 0; i < P->nptrs; i++)
        if (P->cols[i] % P->B)
            return false;
    return true;
}

static void setup(prog *P, lower *L, const a_op *e)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(e->tiles[e->ntiles - 1]->type);
    unsigned esize = ptoc_type_bitwidth(d->elem) / 8;
    *P = (prog){.L = L, .e = e, .nptrs = e->ntiles, .E = 256 / esize, .B = 32 / esize};
    P->i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS);
    for (uint32_t i = 0; i < e->ntiles; i++) {
        ptoc_value *t = e->tiles[i == 0 ? e->ntiles - 1 : i - 1];
        uint32_t j = 0;
        while (j < i && P->tiles[j] != t)
            j++;
        P->tiles[i] = t;
        P->ptrs[i] = j < i ? P->ptrs[j] : vb_tile_ptr(L, t, d->elem);
        P->cols[i] = ptoc_pto_tile_buf(t->type)->cols;
    }
    if (e->scalar) {
        P->scalar = vb_scalar_as(L, e->scalar, d->elem);
        if (e->row->negate)
            P->scalar = vb_result0(ptoc_builder_create(&L->b, "arith.negf", 1, &P->scalar, 1, &d->elem, 0, NULL, 0));
    }
}

static void program(lower *L, const a_op *e)
{
    prog P;
    setup(&P, L, e);
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(e->tiles[e->ntiles - 1]->type);
    bool known = d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC;
    int64_t vr = d->valid_rows, vc = d->valid_cols;
    if (known && (vr == 0 || vc == 0))
        return;
    bool flat = contiguous(e);
    if (flat && known && (vr * vc + P.E - 1) / P.E <= REPEAT_MAX && !(vc > P.E && vc % P.E)) {
        whole_norm(&P, vr * vc);
        return;
    }
    if (!flat && known && blocks_whole(&P)) {
        chunks(&P, vr, vc);
        return;
    }
    ptoc_op *valid = known ? NULL : vb_tile_valid(L, e->tiles[e->ntiles - 1]);
    ptoc_value *vrows = known ? cst(&P, vr) : ptoc_op_result(valid, 0);
    ptoc_value *vcols = known ? cst(&P, vc) : ptoc_op_result(valid, 1);
    if (flat)
        whole_count(&P, vb_arith(L, "arith.muli", vrows, vcols));
    else
        rows_count(&P, vrows, vcols);
}

/* ---------------------------------------------------------------- the pass */

static void replace(lower *L, ptoc_op *op, const a_op *e)
{
    vb_open_vecscope(L, op, e->tiles, e->ntiles, 1);
    program(L, e);
    ptoc_op_erase(op);
}

static void lower_one(lower *L, ptoc_op *op)
{
    a_op e;
    if (read_operands(op, row_of(ptoc_pto_opcode(op)), &e))
        replace(L, op, &e);
}

static bool run_lower_a2a3(ptoc_op *func, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)opts;
    vb_lower_each(func, arena, ptoc_lower_a2a3_lowers, lower_one);
    return true;
}

const ptoc_pass_def ptoc_lower_a2a3_pass = {
    .name = "pto-lower-a2a3",
    .summary = "Lower vec tile ops to A2/A3 repeat intrinsics in pto.vecscope functions",
    .anchor = "func.func",
    .run = run_lower_a2a3,
    .option_names = NULL,
};
