/* lower_a2a3_window.c: pto-lower-a2a3's textract and tinsert between
 * row_major none_box vec tiles (pto-isa a2a3/TExtract.hpp
 * TExtractVecToVecND*, TInsert.hpp TInsertVecToVecND*).
 *
 * textract ins(src, r, c) outs(dst): dst's valid region = src's window at
 * (r, c); tinsert ins(src, r, c) outs(dst): src's valid region into dst at
 * (r, c). The region is the smaller tile's valid shape (dst's for textract,
 * src's for tinsert), as on the cpu target. The indices are constants or
 * run-time values, the valid shapes static or dynamic.
 *
 *   column c a whole number of       per row the region's whole 32-byte blocks by one
 *   32-byte blocks (a run-time one   copy_ubuf_to_ubuf (the library's aligned path,
 *   tested when the op runs), both   its bursts the rows); a partial last block a vor
 *   row strides too                  of the row with itself in count mode, the row's
 *                                    remaining elements as the count (the library's
 *                                    vcopy of the tail: every bit moves unchanged);
 *                                    8-bit elements, which have no vector lanes, by
 *                                    the scalar unit's ld_ub / st_ub
 *   any other column                 the scalar unit moves the region element by
 *                                    element (the library's TExtractVecToVecNDScalar
 *                                    loop, which it takes for a 1 x 1 window)
 *
 * The library asserts a 32-byte aligned column for any other window (an A2/A3
 * limitation); a vector copy cannot start inside a block, so here such a
 * window goes through the scalar unit and gives the cpu target's bytes.
 * Nothing past the valid region is written (the library's vcopy tail does
 * the same). The cpu target traps on a window past the tile; with constant
 * indices and static shapes the window is checked here and an op whose
 * window does not fit stays (the backend then reports it); with run-time
 * indices the model, as the library, does not check (a UB access past UB
 * still traps). An on-chip memref in vec is the row_major none_box tile of
 * its shape.
 */
#include "passes/lower_a2a3.h"
#include "ptoc/ptoc.h"

bool a2_window_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TEXTRACT || opcode == PTOC_PTO_OP_TINSERT;
}

/* A tile's description: a tile_buf's, or for an on-chip memref of rank 2 in
 * vec the row_major none_box tile of its static shape, valid as a whole
 * (PTOAS kernels pass buffers so; the cpu target reads them the same way). */
static bool desc_of(const ptoc_value *v, ptoc_pto_tile_desc *out)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(v->type);
    ptoc_pto_address_space space;
    if (d) {
        *out = *d;
        return true;
    }
    if (!ptoc_pto_memref_space(v->type, &space) || space != PTOC_PTO_AS_VEC || v->type->u.shaped.rank != 2)
        return false;
    const int64_t *shape = v->type->u.shaped.shape;
    if (shape[0] == PTOC_DYNAMIC || shape[1] == PTOC_DYNAMIC)
        return false;
    *out = ptoc_pto_tile_desc_init(v->type->u.shaped.elem, shape[0], shape[1]);
    out->loc = PTOC_PTO_AS_VEC;
    return true;
}

static bool nd_vec(const ptoc_pto_tile_desc *d)
{
    unsigned bits = ptoc_type_bitwidth(d->elem);
    return d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && (bits == 8 || bits == 16 || bits == 32);
}

/* The region's extent: a static one as a constant, else the tile's valid shape. */
static ptoc_value *extent(vop_builder *L, ptoc_value *tile, int64_t n, unsigned which)
{
    return n != PTOC_DYNAMIC ? vb_index(L, n) : ptoc_op_result(vb_tile_valid(L, tile), which);
}

typedef struct window {
    vop_builder *L;
    ptoc_value *src, *dst;          /* the tiles */
    ptoc_type *bits;                /* the signless integer of the element's width */
    int64_t B;                      /* elements per 32-byte block */
    int64_t s_stride, d_stride;     /* row strides, in elements */
    ptoc_value *s_at, *d_at;        /* the region's first element in each tile */
    ptoc_value *rows, *cols;        /* the region's shape */
} window;

static ptoc_value *add(vop_builder *L, ptoc_value *a, ptoc_value *b) { return vb_arith(L, "arith.addi", a, b); }
static ptoc_value *mul(vop_builder *L, ptoc_value *a, ptoc_value *b) { return vb_arith(L, "arith.muli", a, b); }

static ptoc_value *as_index(vop_builder *L, ptoc_value *v)
{
    ptoc_type *index = ptoc_type_index(L->ctx);
    return v->type == index ? v : vb_cast(L, "arith.index_cast", v, index);
}

/* Per row i < rows, column j in [from, cols): dst[d_at + i, j] = src[s_at + i, j] by the scalar unit. */
static void scalar_copy(const window *w, ptoc_value *from)
{
    vop_builder *L = w->L;
    ptoc_value *sp = vb_tile_ptr(L, w->src, w->bits), *dp = vb_tile_ptr(L, w->dst, w->bits);
    ptoc_value *one = vb_index(L, 1);
    vb_loop rl, jl;
    ptoc_value *i = vb_loop_begin(L, &rl, vb_index(L, 0), w->rows, one);
    ptoc_value *srow = add(L, w->s_at, mul(L, i, vb_index(L, w->s_stride)));
    ptoc_value *drow = add(L, w->d_at, mul(L, i, vb_index(L, w->d_stride)));
    ptoc_value *j = vb_loop_begin(L, &jl, from, w->cols, one);
    ptoc_value *ld[2] = {sp, add(L, srow, j)};
    ptoc_value *v = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_LD_UB, 2, ld, 1, &w->bits, NULL, NULL, NULL, NULL));
    ptoc_value *st[3] = {v, dp, add(L, drow, j)};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_ST_UB, 3, st, 0, NULL, NULL, NULL, NULL, NULL);
    vb_loop_end(L, &jl);
    vb_loop_end(L, &rl);
}

/* The rows' whole blocks: one copy_ubuf_to_ubuf, a burst per row. */
static void block_copy(const window *w, ptoc_value *blocks)
{
    vop_builder *L = w->L;
    ptoc_type *i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS);
    ptoc_value *zero = vb_index(L, 0);
    ptoc_value *go = vb_arith(L, "arith.andi", vb_cmpi(L, VB_CMP_UGT, blocks, zero),
                              vb_cmpi(L, VB_CMP_UGT, w->rows, zero));
    vb_if f;
    vb_if_begin(L, &f, go);
    ptoc_value *n = vb_cast(L, "arith.index_cast", w->rows, i64);
    ptoc_value *len = vb_cast(L, "arith.index_cast", blocks, i64);
    ptoc_value *sgap = vb_arith(L, "arith.subi", vb_int(L, i64, w->s_stride / w->B), len);
    ptoc_value *dgap = vb_arith(L, "arith.subi", vb_int(L, i64, w->d_stride / w->B), len);
    ptoc_value *ops[8] = {vb_tile_ptr(L, w->dst, w->bits), w->d_at, vb_tile_ptr(L, w->src, w->bits), w->s_at,
                          n, len, sgap, dgap};
    (void)vb_vop(L, PTOC_PTO_VOP_A2A3_COPY_UBUF_TO_UBUF, 8, ops, 0, NULL, NULL, NULL, NULL, NULL);
    vb_if_end(L, &f);
}

/* The rows' partial last block, from column `head`: a vor of src with itself
 * per row, in count mode with the remaining columns as the count. */
static void tail_vor(const window *w, ptoc_value *head)
{
    vop_builder *L = w->L;
    ptoc_value *tail = vb_arith(L, "arith.subi", w->cols, head);
    vb_if f;
    vb_if_begin(L, &f, vb_cmpi(L, VB_CMP_UGT, tail, vb_index(L, 0)));
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VOR, w->bits);
    a2_ptr(&P, w->dst, w->bits, w->d_stride);
    a2_ptr(&P, w->src, w->bits, w->s_stride);
    a2_ptr(&P, w->src, w->bits, w->s_stride);
    a2_count_begin(&P, tail);
    vb_loop l;
    ptoc_value *i = vb_loop_begin(L, &l, a2_index(&P, 0), w->rows, a2_index(&P, 1));
    ptoc_value *s_off = add(L, add(L, w->s_at, mul(L, i, a2_index(&P, w->s_stride))), head);
    ptoc_value *d_off = add(L, add(L, w->d_at, mul(L, i, a2_index(&P, w->d_stride))), head);
    ptoc_value *offs[3] = {d_off, s_off, s_off};
    a2_instr(&P, offs, a2_index(&P, 1), NULL);
    vb_loop_end(L, &l);
    a2_count_end(&P);
    vb_if_end(L, &f);
}

/* A window at a column of whole blocks: the rows' whole blocks by one copy,
 * the partial last one by vor (8-bit: the scalar unit). */
static void aligned_copy(const window *w)
{
    vop_builder *L = w->L;
    ptoc_value *blocks = vb_arith(L, "arith.divui", w->cols, vb_index(L, w->B));
    ptoc_value *head = mul(L, blocks, vb_index(L, w->B));
    block_copy(w, blocks);
    if (w->B == 32)
        scalar_copy(w, head);
    else
        tail_vor(w, head);
}

/* Whether constant indices put a static region past the big tile. */
static bool window_outside(ptoc_op *op, const ptoc_pto_tile_desc *small, const ptoc_pto_tile_desc *big)
{
    int64_t r, c;
    bool rc = ptoc_arith_int_constant(ptoc_op_operand(op, 1), &r);
    bool cc = ptoc_arith_int_constant(ptoc_op_operand(op, 2), &c);
    return (rc && (r < 0 || (small->valid_rows != PTOC_DYNAMIC && r + small->valid_rows > big->rows))) ||
           (cc && (c < 0 || (small->valid_cols != PTOC_DYNAMIC && c + small->valid_cols > big->cols)));
}

static void lower_window(vop_builder *L, ptoc_op *op, bool extract)
{
    if (vb_dps_ins(op) != 3 || op->nattrs > 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 3);
    ptoc_pto_tile_desc sd, dd;
    if (!desc_of(src, &sd) || !desc_of(dst, &dd) || !nd_vec(&sd) || !nd_vec(&dd) || sd.elem != dd.elem)
        return;
    const ptoc_pto_tile_desc *s = &sd, *d = &dd;
    const ptoc_pto_tile_desc *small = extract ? d : s, *big = extract ? s : d;
    if (window_outside(op, small, big))
        return;
    int64_t esize = (int64_t)ptoc_pto_elem_bytes(d->elem), c;
    bool strides = (s->cols * esize) % 32 == 0 && (d->cols * esize) % 32 == 0;
    bool constant = ptoc_arith_int_constant(ptoc_op_operand(op, 2), &c);
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    ptoc_value *region = extract ? dst : src;
    window w = {L, src, dst, ptoc_type_int(L->ctx, (unsigned)esize * 8, PTOC_SIGNLESS), 32 / esize, s->cols,
                d->cols, NULL, NULL, extent(L, region, small->valid_rows, 0), extent(L, region, small->valid_cols, 1)};
    ptoc_value *at = add(L, mul(L, as_index(L, ptoc_op_operand(op, 1)), vb_index(L, big->cols)),
                         as_index(L, ptoc_op_operand(op, 2)));
    w.s_at = extract ? at : vb_index(L, 0);
    w.d_at = extract ? vb_index(L, 0) : at;
    if (!strides || (constant && (c * esize) % 32)) {
        scalar_copy(&w, vb_index(L, 0));
    } else if (constant) {
        aligned_copy(&w);
    } else {      /* a run-time column: the block path when it is whole blocks */
        ptoc_value *col = as_index(L, ptoc_op_operand(op, 2));
        ptoc_value *rem = vb_arith(L, "arith.remui", col, vb_index(L, w.B));
        vb_if f;
        vb_if_begin(L, &f, vb_cmpi(L, VB_CMP_EQ, rem, vb_index(L, 0)));
        aligned_copy(&w);
        vb_if_else(L, &f);
        scalar_copy(&w, vb_index(L, 0));
        vb_if_end(L, &f);
    }
    ptoc_op_erase(op);
}

void a2_window_lower(vop_builder *L, ptoc_op *op)
{
    lower_window(L, op, ptoc_pto_opcode(op) == PTOC_PTO_OP_TEXTRACT);
}
