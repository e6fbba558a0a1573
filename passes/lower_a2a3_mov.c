/* lower_a2a3_mov.c: pto-lower-a2a3's tmov vec -> vec (pto-isa a2a3/TMov.hpp
 * TMovToVec: copy_ubuf_to_ubuf of 32-byte blocks).
 *
 *   two tiles of one layout and shape,    one copy of the whole tile's blocks (the
 *   each valid as a whole                 library's one-burst path)
 *   row_major none_box -> row_major       the lines' whole blocks in one copy, a burst
 *   none_box; col_major none_box ->       per line with the gaps of the row strides (the
 *   col_major none_box                    library's strided path), the partial last block
 *                                         a vor of src with itself under the mask
 *   row_major none_box -> nz (col_major   per column block one copy of a block per row,
 *   row_major, fractal 512)               the source gap a row's other blocks; a partial
 *                                         last column block a vor over the rows
 *
 * A line is a row of a row_major tile, a column of a col_major one (the
 * library treats a col_major tile as the transposed row_major one). The
 * region is dst's valid shape, as on the cpu target (the library copies the
 * smaller of the two valid shapes, the same when src's covers dst's).
 *
 * The library's strided path copies a line's last block whole, writing the
 * bytes past the valid region. Here the copy stops at the last whole block
 * and the partial one is a vor of the line with itself on the element's bits
 * (every bit moves unchanged: NaN payloads, -0.0), so nothing past the valid
 * region is written, as on the cpu target (lower_a2a3_colexpand.c does the
 * same). 8-bit elements have no vector lanes for it: their partial block
 * goes through the scalar unit (ld_ub / st_ub), element by element. A2/A3's TMovToVec has no nd -> nz conversion (it copies bytes at
 * the row strides); the nz form here is the layout change the cpu target
 * makes, by the DMA's block strides, for valid columns of whole blocks.
 *
 * An op it cannot lower (other layouts, element types of different sizes,
 * attributes, a partial block it cannot write) stays.
 */
#include "passes/lower_a2a3.h"

bool a2_mov_lowers(ptoc_pto_op_id opcode) { return opcode == PTOC_PTO_OP_TMOV; }

static const ptoc_pto_tile_desc *desc(const ptoc_value *v) { return vb_tile_desc(v->type); }

static bool vec_none_box(const ptoc_pto_tile_desc *d, uint32_t blayout)
{
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == blayout && d->slayout == PTOC_PTO_SL_NONE_BOX;
}

static bool whole(const ptoc_pto_tile_desc *d)
{
    return d->valid_rows == d->rows && d->valid_cols == d->cols;
}

/* The same layout and shape, both valid as a whole: one flat array of bytes. */
static bool flat_copy(const ptoc_pto_tile_desc *s, const ptoc_pto_tile_desc *d)
{
    return s->loc == PTOC_PTO_AS_VEC && d->loc == PTOC_PTO_AS_VEC && s->rows == d->rows &&
           s->cols == d->cols && s->blayout == d->blayout && s->slayout == d->slayout &&
           s->fractal == d->fractal && whole(s) && whole(d);
}

static bool nd_to_nz(const ptoc_pto_tile_desc *s, const ptoc_pto_tile_desc *d)
{
    return vec_none_box(s, PTOC_PTO_BL_ROW_MAJOR) && d->loc == PTOC_PTO_AS_VEC &&
           d->blayout == PTOC_PTO_BL_COL_MAJOR && d->slayout == PTOC_PTO_SL_ROW_MAJOR && d->fractal == 512;
}

static ptoc_type *i64_of(vop_builder *L) { return ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS); }

static ptoc_value *as_i64(vop_builder *L, ptoc_value *v)
{
    return v->type == i64_of(L) ? v : vb_cast(L, "arith.index_cast", v, i64_of(L));
}

/* copy_ubuf_to_ubuf dst[doff], src[soff]: n bursts of len blocks, the gaps in blocks. */
static void copy(vop_builder *L, ptoc_value *dp, ptoc_value *doff, ptoc_value *sp, ptoc_value *soff,
                 ptoc_value *n, ptoc_value *len, int64_t sgap, int64_t dgap)
{
    ptoc_value *ops[8] = {dp, doff, sp, soff, as_i64(L, n), as_i64(L, len), vb_int(L, i64_of(L), sgap),
                          vb_int(L, i64_of(L), dgap)};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_COPY_UBUF_TO_UBUF, 8, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

/* For i < n and j in [from, to): dst[d_at + i * d_stride + j] = src[s_at +
 * i * s_stride + j], by the scalar unit's ld_ub / st_ub: an 8-bit partial
 * block, which the vector unit has no lanes to write alone. */
static void scalar_part(vop_builder *L, ptoc_value *dst, ptoc_value *d_at, int64_t d_stride, ptoc_value *src,
                        ptoc_value *s_at, int64_t s_stride, ptoc_value *n, ptoc_value *from, ptoc_value *to)
{
    ptoc_type *e = ptoc_type_int(L->ctx, 8, PTOC_SIGNLESS);
    ptoc_value *dp = vb_tile_ptr(L, dst, e), *sp = vb_tile_ptr(L, src, e), *one = vb_index(L, 1);
    vb_loop il, jl;
    ptoc_value *i = vb_loop_begin(L, &il, vb_index(L, 0), n, one);
    ptoc_value *drow = vb_arith(L, "arith.addi", d_at, vb_arith(L, "arith.muli", i, vb_index(L, d_stride)));
    ptoc_value *srow = vb_arith(L, "arith.addi", s_at, vb_arith(L, "arith.muli", i, vb_index(L, s_stride)));
    ptoc_value *j = vb_loop_begin(L, &jl, from, to, one);
    ptoc_value *ld[2] = {sp, vb_arith(L, "arith.addi", srow, j)};
    ptoc_value *v = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_LD_UB, 2, ld, 1, &e, NULL, NULL, NULL, NULL));
    ptoc_value *st[3] = {v, dp, vb_arith(L, "arith.addi", drow, j)};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_ST_UB, 3, st, 0, NULL, NULL, NULL, NULL, NULL);
    vb_loop_end(L, &jl);
    vb_loop_end(L, &il);
}

/* ---------------------------------------------------------------- lines */

typedef struct lines {
    ptoc_value *src, *dst;
    ptoc_type *elem;
    int64_t esize, B;               /* bytes per element, elements per block */
    int64_t s_stride, d_stride;     /* line strides, in elements */
    bool col_major;
} lines;

/* The vor lanes for a partial block: the element's bits, a 64-bit element as
 * two 32-bit lanes (`*per` lanes per element); NULL for 8-bit elements. */
static ptoc_type *tail_lanes(vop_builder *L, const lines *m, int64_t *per)
{
    *per = m->esize == 8 ? 2 : 1;
    if (m->esize == 1)
        return NULL;
    if (m->esize == 8)       /* a 64-bit tile's words are read as ui32 (pto.tile_ptr's rule) */
        return ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED);
    return ptoc_type_int(L->ctx, (unsigned)m->esize * 8, PTOC_SIGNLESS);
}

static void tail_setup(a2_prog *P, vop_builder *L, const lines *m, ptoc_type *lane, int64_t per)
{
    a2_prog_init(P, L, PTOC_PTO_VOP_A2A3_VOR, lane);
    a2_ptr(P, m->dst, lane, m->d_stride * per);
    a2_ptr(P, m->src, lane, m->s_stride * per);
    a2_ptr(P, m->src, lane, m->s_stride * per);
}

/* Static shape: nlines lines of len elements. */
static void lines_static(vop_builder *L, const lines *m, int64_t nlines, int64_t len)
{
    int64_t blocks = len / m->B, tail = len % m->B, per;
    if (nlines <= 0 || len <= 0)
        return;
    if (blocks) {
        ptoc_value *zero = vb_index(L, 0);
        copy(L, vb_tile_ptr(L, m->dst, m->elem), zero, vb_tile_ptr(L, m->src, m->elem), zero,
             vb_index(L, nlines), vb_index(L, blocks), m->s_stride / m->B - blocks,
             m->d_stride / m->B - blocks);
    }
    if (!tail)
        return;
    ptoc_type *lane = tail_lanes(L, m, &per);
    if (!lane) {
        ptoc_value *zero = vb_index(L, 0);
        scalar_part(L, m->dst, zero, m->d_stride, m->src, zero, m->s_stride, vb_index(L, nlines),
                    vb_index(L, blocks * m->B), vb_index(L, len));
        return;
    }
    a2_prog P;
    tail_setup(&P, L, m, lane, per);
    a2_cont_mask(&P, tail * per);
    a2_chunk_rows(&P, a2_index(&P, blocks * m->B * per), nlines);
    a2_full_mask(&P);
}

/* Dynamic shape: per line its whole blocks, then the partial one by a count. */
static void lines_dynamic(vop_builder *L, const lines *m, ptoc_value *nlines, ptoc_value *len)
{
    int64_t per;
    ptoc_type *lane = tail_lanes(L, m, &per);
    ptoc_value *B = vb_index(L, m->B), *zero = vb_index(L, 0);
    ptoc_value *blocks = vb_arith(L, "arith.divui", len, B);
    ptoc_value *head = vb_arith(L, "arith.muli", blocks, B), *tail = vb_arith(L, "arith.subi", len, head);
    ptoc_value *dp = vb_tile_ptr(L, m->dst, m->elem), *sp = vb_tile_ptr(L, m->src, m->elem);
    vb_loop l;
    vb_if f;
    vb_if_begin(L, &f, vb_cmpi(L, VB_CMP_UGT, blocks, zero));
    ptoc_value *i = vb_loop_begin(L, &l, vb_index(L, 0), nlines, vb_index(L, 1));
    copy(L, dp, vb_arith(L, "arith.muli", i, vb_index(L, m->d_stride)), sp,
         vb_arith(L, "arith.muli", i, vb_index(L, m->s_stride)), vb_index(L, 1), blocks, 0, 0);
    vb_loop_end(L, &l);
    vb_if_end(L, &f);
    if (!lane) {
        scalar_part(L, m->dst, zero, m->d_stride, m->src, zero, m->s_stride, nlines, head, len);
        return;
    }
    vb_if_begin(L, &f, vb_cmpi(L, VB_CMP_UGT, tail, vb_index(L, 0)));
    a2_prog P;
    tail_setup(&P, L, m, lane, per);
    ptoc_value *n = per == 1 ? tail : vb_arith(L, "arith.muli", tail, vb_index(L, per));
    ptoc_value *at = per == 1 ? head : vb_arith(L, "arith.muli", head, vb_index(L, per));
    a2_count_begin(&P, n);
    i = vb_loop_begin(L, &l, a2_index(&P, 0), nlines, a2_index(&P, 1));
    ptoc_value *offs[3];
    a2_row_offsets(&P, i, at, offs);
    a2_instr(&P, offs, a2_index(&P, 0), NULL);
    vb_loop_end(L, &l);
    a2_count_end(&P);
    vb_if_end(L, &f);
}

/* Whether the lines lower: strides of whole blocks. */
static bool lines_lower(const lines *m, const ptoc_pto_tile_desc *d)
{
    return m->s_stride % m->B == 0 && m->d_stride % m->B == 0;
}

static void lines_program(vop_builder *L, const lines *m, const ptoc_pto_tile_desc *d)
{
    int64_t nl = m->col_major ? d->valid_cols : d->valid_rows;
    int64_t len = m->col_major ? d->valid_rows : d->valid_cols;
    if (nl != PTOC_DYNAMIC && len != PTOC_DYNAMIC) {
        lines_static(L, m, nl, len);
        return;
    }
    ptoc_op *valid = vb_tile_valid(L, m->dst);
    ptoc_value *rows = ptoc_op_result(valid, 0), *cols = ptoc_op_result(valid, 1);
    lines_dynamic(L, m, m->col_major ? cols : rows, m->col_major ? rows : cols);
}

/* ---------------------------------------------------------------- nd -> nz */

/* Column block k of dst (rows16 x B elements at k * rows16 * B) from src's
 * columns k*B .. k*B + B: a burst of one block per row. */
static void nz_program(vop_builder *L, ptoc_value *src, ptoc_value *dst, int64_t B)
{
    const ptoc_pto_tile_desc *s = desc(src), *d = desc(dst);
    int64_t rows16 = (d->rows + 15) / 16 * 16;
    ptoc_value *vrows = d->valid_rows != PTOC_DYNAMIC ? vb_index(L, d->valid_rows)
                                                        : ptoc_op_result(vb_tile_valid(L, dst), 0);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem), *sp = vb_tile_ptr(L, src, d->elem);
    (void)vb_index(L, rows16 * B);      /* made here, the loop's constants dominate the tail's uses */
    (void)vb_index(L, B);
    vb_loop l;
    ptoc_value *k = vb_loop_begin(L, &l, vb_index(L, 0), vb_index(L, d->valid_cols / B), vb_index(L, 1));
    ptoc_value *d_at = vb_arith(L, "arith.muli", k, vb_index(L, rows16 * B));
    ptoc_value *s_at = vb_arith(L, "arith.muli", k, vb_index(L, B));
    copy(L, dp, d_at, sp, s_at, vrows, vb_index(L, 1), s->cols / B - 1, 0);
    vb_loop_end(L, &l);
    int64_t full = d->valid_cols / B, tail = d->valid_cols % B, per;
    if (!tail)
        return;
    /* the partial column block: a vor per row as repeats under the
     * continuous mask, dst's repeat stride one block, src's a row */
    lines m = {.esize = (int64_t)ptoc_pto_elem_bytes(d->elem)};
    ptoc_type *lane = tail_lanes(L, &m, &per);
    if (!lane) {      /* row r's tail at column block `full`, row r * B of it */
        scalar_part(L, dst, vb_index(L, full * rows16 * B - full * B), B, src, vb_index(L, 0), s->cols, vrows,
                    vb_index(L, full * B), vb_index(L, d->valid_cols));
        return;
    }
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VOR, lane);
    a2_ptr(&P, dst, lane, 0);
    a2_ptr(&P, src, lane, 0);
    a2_ptr(&P, src, lane, 0);
    a2_cont_mask(&P, tail * per);
    ptoc_value *tail_at = a2_index(&P, full * B * per);
    ptoc_value *offs[3] = {a2_index(&P, full * rows16 * B * per), tail_at, tail_at};
    int64_t rep[3] = {1, s->cols / B, s->cols / B};
    a2_instr(&P, offs, vrows, rep);
    a2_full_mask(&P);
}

void a2_mov_lower(vop_builder *L, ptoc_op *op)
{
    if (vb_dps_ins(op) != 1 || op->nattrs > 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *s = desc(src), *d = desc(dst);
    if (!s || !d || s->loc != PTOC_PTO_AS_VEC || d->loc != PTOC_PTO_AS_VEC ||
        ptoc_pto_elem_bytes(s->elem) != ptoc_pto_elem_bytes(d->elem) || s->elem != d->elem)
        return;
    int64_t esize = (int64_t)ptoc_pto_elem_bytes(d->elem), B = 32 / esize;
    ptoc_value *tiles[2] = {src, dst};
    if (flat_copy(s, d) && (d->rows * d->cols * esize) % 32 == 0) {
        vb_open_vecscope(L, op, tiles, 2, 1);
        ptoc_value *zero = vb_index(L, 0);
        copy(L, vb_tile_ptr(L, dst, d->elem), zero, vb_tile_ptr(L, src, d->elem), zero, vb_index(L, 1),
             vb_index(L, d->rows * d->cols * esize / 32), 0, 0);
    } else if (nd_to_nz(s, d)) {
        bool partial = d->valid_cols % B != 0;   /* by vor: 16- and 32-bit lanes, rows as repeats */
        if (d->valid_cols == PTOC_DYNAMIC || (s->cols * esize) % 32 || d->cols % B ||
            (partial && esize != 1 && (d->rows > A2_REPEAT_MAX || s->cols / B > A2_STRIDE_MAX)))
            return;
        vb_open_vecscope(L, op, tiles, 2, 1);
        nz_program(L, src, dst, B);
    } else {
        bool rm = vec_none_box(s, PTOC_PTO_BL_ROW_MAJOR) && vec_none_box(d, PTOC_PTO_BL_ROW_MAJOR);
        bool cm = vec_none_box(s, PTOC_PTO_BL_COL_MAJOR) && vec_none_box(d, PTOC_PTO_BL_COL_MAJOR);
        lines m = {src, dst, d->elem, esize, B, cm ? s->rows : s->cols, cm ? d->rows : d->cols, cm};
        if (!(rm || cm) || !lines_lower(&m, d))
            return;
        vb_open_vecscope(L, op, tiles, 2, 1);
        lines_program(L, &m, d);
    }
    ptoc_op_erase(op);
}
