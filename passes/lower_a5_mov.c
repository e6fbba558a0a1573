/* lower_a5_mov.c: pto-lower-a5's moves between vec tiles that the
 * elementwise copy (lower_a5.c) leaves (pto-isa a5/TMov.hpp, TExtract.hpp,
 * TInsert.hpp):
 *
 *   tmov col_major none_box ->      line by line: vlds, vsts under the tail predicate
 *   col_major none_box              (TMovVecToVec); a col_major tile's lines are its
 *                                   columns, as the library treats it as the
 *                                   transposed row_major tile
 *   tmov row_major none_box -> nz   per 32-byte column block of dst, per row: vlds
 *   (col_major row_major, 512)      of the row's block, vsts of it under the block's
 *                                   predicate (TMovToVecNd2Nz; below)
 *   textract, tinsert between       the window's rows by vlds, vsts (TExtractVecToVecND,
 *   row_major none_box tiles        TInsertVecToVecND), at constant indices whose column
 *                                   is a whole number of 32-byte blocks; other columns
 *                                   and run-time indices through the window's element
 *                                   numbers (vci): vgather2 / vscatter (below)
 *
 * The region is the cpu target's: dst's valid shape for tmov and textract,
 * src's for tinsert (the library's tmov copies the smaller of the two valid
 * shapes, the same when src's covers dst's).
 *
 * nd -> nz: the library stores each source row with vsstb, a store of a
 * register's 32-byte blocks at a block stride, which ptoc has no micro-op
 * for; storing one block per vsts gives the same bytes with more stores. The
 * column block's stride is dst's rows (rounded up to 16, the nz box), the
 * cpu target's layout; the library's is the valid rows rounded to 16, the
 * same for a tile valid in all its rows.
 *
 * textract and tinsert: the cpu target traps on a window past the tile; with
 * constant indices and static valid shapes the window is checked here, and
 * an op whose window does not fit stays (the backend then reports it). An
 * on-chip memref in vec is the row_major none_box tile of its shape. The
 * library reads an unaligned column with vldas / vldus and writes it with
 * the DMA or unaligned stores; ptoc gathers / scatters the window's elements
 * by their numbers instead, the same bytes (16-bit numbers below 32-bit data,
 * so the big tile must hold at most 65536 elements; 64-bit data stay). A
 * run-time window past the tile is not checked: it reads or writes the UB
 * beyond it (vgather2 / vscatter trap only outside UB), where the cpu target
 * traps (docs/decisions.md).
 */
#include "passes/lower_a5.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

/* A tile's description: a tile_buf's, or for an on-chip memref of rank 2 in
 * vec the row_major none_box tile of its shape, valid as a whole (PTOAS
 * kernels pass buffers so; the cpu target reads them the same way). */
typedef struct mov_desc { ptoc_pto_tile_desc d; bool ok; } mov_desc;

static mov_desc desc_of(const ptoc_value *v)
{
    mov_desc m = {{0}, false};
    const ptoc_pto_tile_desc *d = vb_tile_desc(v->type);
    ptoc_pto_address_space space;
    if (d) {
        m.d = *d;
        m.ok = true;
    } else if (ptoc_pto_memref_space(v->type, &space) && space == PTOC_PTO_AS_VEC &&
               v->type->u.shaped.rank == 2 && v->type->u.shaped.shape[0] != PTOC_DYNAMIC &&
               v->type->u.shaped.shape[1] != PTOC_DYNAMIC) {
        const int64_t *shape = v->type->u.shaped.shape;
        m.d = ptoc_pto_tile_desc_init(v->type->u.shaped.elem, shape[0], shape[1]);
        m.d.loc = PTOC_PTO_AS_VEC;
        m.ok = true;
    }
    return m;
}

static bool vec_none_box(const ptoc_pto_tile_desc *d, uint32_t blayout)
{
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == blayout && d->slayout == PTOC_PTO_SL_NONE_BOX;
}

bool a5_mov_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TEXTRACT || opcode == PTOC_PTO_OP_TINSERT;
}

/* A copy of `lines` lines of `len` elements: line j of src at s_base + j *
 * s_stride, of dst at d_base + j * d_stride. */
typedef struct lines_copy {
    ptoc_value *src, *dst;
    ptoc_value *lines, *len;
    int64_t s_base, d_base, s_stride, d_stride;
} lines_copy;

static void copy_lines(vop_builder *L, const lines_copy *m)
{
    ptoc_type *elem = desc_of(m->dst).d.elem;
    vb_lanes ln = vb_lanes_of(L, elem);
    const char *dist = ln.bits == 8 ? "NORM_B8" : ln.bits == 16 ? "NORM_B16" : "NORM_B32";
    ptoc_value *sp = vb_tile_ptr(L, m->src, elem), *dp = vb_tile_ptr(L, m->dst, elem);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    ptoc_value *s_stride = vb_index(L, m->s_stride), *d_stride = vb_index(L, m->d_stride);
    ptoc_value *s_first = vb_index(L, m->s_base), *d_first = vb_index(L, m->d_base);
    vb_loop outer, inner;
    ptoc_value *j = vb_loop_begin(L, &outer, zero, m->lines, one);
    ptoc_value *s_base = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", j, s_stride), s_first);
    ptoc_value *d_base = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", j, d_stride), d_first);
    ptoc_value *c = vb_loop_begin(L, &inner, zero, m->len, step);
    ptoc_value *mask = vb_first(L, &ln, vb_arith(L, "arith.subi", m->len, c));
    ptoc_value *at[2] = {sp, vb_arith(L, "arith.addi", s_base, c)};
    ptoc_value *v = vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, at, ln.vreg, "dist", "NORM");
    ptoc_value *st[4] = {v, dp, vb_arith(L, "arith.addi", d_base, c), mask};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, st, 0, NULL, "dist", dist, NULL, NULL);
    vb_loop_end(L, &inner);
    vb_loop_end(L, &outer);
}

/* ---------------------------------------------------------------- tmov */

static bool nz_tile(const ptoc_pto_tile_desc *d)
{
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_COL_MAJOR &&
           d->slayout == PTOC_PTO_SL_ROW_MAJOR && d->fractal == 512;
}

/* dst(r, c) = src(r, c): column block k of dst (B columns, rows16 x B
 * elements at k * rows16 * B, row r at r * B) from row r of src at k * B. */
static void nd_to_nz(vop_builder *L, ptoc_value *src, ptoc_value *dst)
{
    mov_desc ms = desc_of(src), md = desc_of(dst);
    const ptoc_pto_tile_desc *s = &ms.d, *d = &md.d;
    /* a 64-bit element is two u32 words: the nz box of 4 such elements per
     * row is a box of 8 words, so the words move as a 32-bit tile would */
    int64_t words = ptoc_pto_elem_bytes(d->elem) == 8 ? 2 : 1;
    ptoc_type *elem = words == 2 ? ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED) : d->elem;
    vb_lanes ln = vb_lanes_of(L, elem);
    int64_t B = 32 / (int64_t)ptoc_pto_elem_bytes(elem), rows16 = (d->rows + 15) / 16 * 16;
    const char *dist = ln.bits == 8 ? "NORM_B8" : ln.bits == 16 ? "NORM_B16" : "NORM_B32";
    ptoc_value *sp = vb_tile_ptr(L, src, elem), *dp = vb_tile_ptr(L, dst, elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    if (words == 2)
        vcols = vb_arith(L, "arith.muli", vcols, vb_index(L, 2));
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *b = vb_index(L, B);
    ptoc_value *s_stride = vb_index(L, s->cols * words), *box = vb_index(L, rows16 * B);
    vb_loop outer, inner;
    ptoc_value *col = vb_loop_begin(L, &outer, zero, vcols, b);
    ptoc_value *n = vb_arith(L, "arith.minui", vb_arith(L, "arith.subi", vcols, col), b);
    ptoc_value *mask = vb_first(L, &ln, n);
    ptoc_value *d_block = vb_arith(L, "arith.muli", vb_arith(L, "arith.divui", col, b), box);
    ptoc_value *r = vb_loop_begin(L, &inner, zero, vrows, one);
    ptoc_value *at[2] = {sp, vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, s_stride), col)};
    ptoc_value *v = vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, at, ln.vreg, "dist", "NORM");
    ptoc_value *st[4] = {v, dp, vb_arith(L, "arith.addi", d_block, vb_arith(L, "arith.muli", r, b)), mask};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, st, 0, NULL, "dist", dist, NULL, NULL);
    vb_loop_end(L, &inner);
    vb_loop_end(L, &outer);
}

static void lower_tmov(vop_builder *L, ptoc_op *op)
{
    if (vb_dps_ins(op) != 1 || op->nattrs > 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    mov_desc ms = desc_of(src), md = desc_of(dst);
    const ptoc_pto_tile_desc *s = &ms.d, *d = &md.d;
    if (!ms.ok || !md.ok || s->elem != d->elem)
        return;
    ptoc_value *tiles[2] = {src, dst};
    bool memref = !vb_tile_desc(src->type) || !vb_tile_desc(dst->type);
    if (memref && vec_none_box(s, PTOC_PTO_BL_ROW_MAJOR) && vec_none_box(d, PTOC_PTO_BL_ROW_MAJOR) &&
        d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC && d->valid_rows <= s->rows &&
        d->valid_cols <= s->cols) {
        /* a memref's rows (the tile_buf forms are the elementwise copy's) */
        vb_open_vecscope(L, op, tiles, 2, 1);
        lines_copy m = {src, dst, vb_index(L, d->valid_rows), vb_index(L, d->valid_cols),
                        0, 0, s->cols, d->cols};
        copy_lines(L, &m);
    } else if (vec_none_box(s, PTOC_PTO_BL_COL_MAJOR) && vec_none_box(d, PTOC_PTO_BL_COL_MAJOR)) {
        vb_open_vecscope(L, op, tiles, 2, 1);
        ptoc_op *valid = vb_tile_valid(L, dst);
        lines_copy m = {src, dst, ptoc_op_result(valid, 1), ptoc_op_result(valid, 0), 0, 0, s->rows, d->rows};
        copy_lines(L, &m);
    } else if (vec_none_box(s, PTOC_PTO_BL_ROW_MAJOR) && nz_tile(d) &&
               (s->cols * (int64_t)ptoc_pto_elem_bytes(d->elem)) % 32 == 0) {
        vb_open_vecscope(L, op, tiles, 2, 1);
        nd_to_nz(L, src, dst);
    } else {
        return;
    }
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- textract, tinsert */

/* The window's element numbers in the big tile, from vci: per line j of the
 * small tile's valid region and register of its columns, lane i = (r + j) *
 * big's cols + c + col + i (16-bit indices for 8- and 16-bit data, 128 a
 * register; 32-bit ones, 64, for 32-bit data). textract gathers src at them
 * (vgather2; 8-bit data land in the even lanes, stored PK_B16) and stores
 * dst's line aligned; tinsert loads src's line (8-bit data UNPK_B8, byte k in
 * lane 2k) and scatters it to dst at them (vscatter). */
static void window_by_index(vop_builder *L, ptoc_op *op, bool extract)
{
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 3);
    mov_desc ms = desc_of(src), md = desc_of(dst);
    const ptoc_pto_tile_desc *s = &ms.d, *d = &md.d;
    const ptoc_pto_tile_desc *big = extract ? s : d;
    ptoc_value *small = extract ? dst : src;
    unsigned bits = ptoc_type_bitwidth(d->elem), ib = bits == 32 ? 32 : 16;
    vb_lanes ln = vb_lanes_of(L, d->elem), il = vb_lanes_of(L, ptoc_type_int(L->ctx, ib, PTOC_UNSIGNED));
    ptoc_type *it = ptoc_type_int(L->ctx, ib, PTOC_SIGNLESS);
    ptoc_value *sp = vb_tile_ptr(L, src, d->elem), *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_value *vrows, *vcols;
    const ptoc_pto_tile_desc *sd = extract ? d : s;
    if (sd->valid_rows != PTOC_DYNAMIC && sd->valid_cols != PTOC_DYNAMIC) {
        vrows = vb_index(L, sd->valid_rows);
        vcols = vb_index(L, sd->valid_cols);
    } else {
        ptoc_op *valid = vb_tile_valid(L, small);
        vrows = ptoc_op_result(valid, 0);
        vcols = ptoc_op_result(valid, 1);
    }
    ptoc_value *at = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", ptoc_op_operand(op, 1),
                                                         vb_index(L, big->cols)), ptoc_op_operand(op, 2));
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, il.count);
    vb_loop rows, cols;
    ptoc_value *j = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *big_line = vb_arith(L, "arith.addi", at, vb_arith(L, "arith.muli", j, vb_index(L, big->cols)));
    ptoc_value *small_line = vb_arith(L, "arith.muli", j, vb_index(L, sd->cols));
    ptoc_value *col = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *m = vb_first(L, &il, vb_arith(L, "arith.subi", vcols, col));
    ptoc_value *first = vb_cast(L, "arith.index_cast", vb_arith(L, "arith.addi", big_line, col), it);
    ptoc_value *idx = vb_vop1(L, PTOC_PTO_VOP_VCI, 1, &first, il.vreg, "order", "ASC");
    ptoc_value *line_at = vb_arith(L, "arith.addi", small_line, col);
    if (extract) {
        ptoc_value *gops[3] = {sp, idx, m};
        ptoc_value *v = vb_vop1(L, PTOC_PTO_VOP_VGATHER2, 3, gops, ln.vreg, NULL, NULL);
        ptoc_value *sops[4] = {v, dp, line_at, m};
        const char *dist = bits == 8 ? "PK_B16" : bits == 16 ? "NORM_B16" : "NORM_B32";
        vb_vop(L, PTOC_PTO_VOP_VSTS, 4, sops, 0, NULL, "dist", dist, NULL, NULL);
    } else {
        ptoc_value *lops[2] = {sp, line_at};
        ptoc_value *v = vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, lops, ln.vreg, "dist", bits == 8 ? "UNPK_B8" : "NORM");
        ptoc_value *sops[4] = {v, dp, idx, m};
        vb_vop(L, PTOC_PTO_VOP_VSCATTER, 4, sops, 0, NULL, NULL, NULL, NULL, NULL);
    }
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

/* textract ins(src, r, c) outs(dst): dst = src's window at (r, c); tinsert
 * ins(src, r, c) outs(dst): src into dst's window at (r, c). */
static void lower_window(vop_builder *L, ptoc_op *op, bool extract)
{
    int64_t r = 0, c = 0;
    if (vb_dps_ins(op) != 3 || op->nattrs > 1)
        return;
    bool constant = ptoc_arith_int_constant(ptoc_op_operand(op, 1), &r) &&
                    ptoc_arith_int_constant(ptoc_op_operand(op, 2), &c);
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 3);
    mov_desc ms = desc_of(src), md = desc_of(dst);
    const ptoc_pto_tile_desc *s = &ms.d, *d = &md.d;
    if (!ms.ok || !md.ok || !vec_none_box(s, PTOC_PTO_BL_ROW_MAJOR) ||
        !vec_none_box(d, PTOC_PTO_BL_ROW_MAJOR) || s->elem != d->elem)
        return;
    const ptoc_pto_tile_desc *small = extract ? d : s, *big = extract ? s : d;
    int64_t esize = (int64_t)ptoc_pto_elem_bytes(d->elem);
    bool static_valid = small->valid_rows != PTOC_DYNAMIC && small->valid_cols != PTOC_DYNAMIC;
    if (constant && static_valid &&
        (r < 0 || c < 0 || r + small->valid_rows > big->rows || c + small->valid_cols > big->cols))
        return;
    ptoc_value *tiles[2] = {src, dst};
    if (!constant || !static_valid || (c * esize) % 32) {
        /* element numbers of big must fit the indices (16 bits below 32-bit data) */
        if (esize > 4 || (esize < 4 && big->rows * big->cols > 0x10000))
            return;
        vb_open_vecscope(L, op, tiles, 2, 1);
        window_by_index(L, op, extract);
        ptoc_op_erase(op);
        return;
    }
    vb_open_vecscope(L, op, tiles, 2, 1);
    int64_t at = r * big->cols + c;
    lines_copy m = {src, dst, vb_index(L, small->valid_rows), vb_index(L, small->valid_cols),
                    extract ? at : 0, extract ? 0 : at, s->cols, d->cols};
    if (small->valid_rows > 0 && small->valid_cols > 0)
        copy_lines(L, &m);
    ptoc_op_erase(op);
}

void a5_mov_lower(vop_builder *L, ptoc_op *op)
{
    switch (ptoc_pto_opcode(op)) {
    case PTOC_PTO_OP_TMOV: lower_tmov(L, op); break;
    case PTOC_PTO_OP_TEXTRACT: lower_window(L, op, true); break;
    case PTOC_PTO_OP_TINSERT: lower_window(L, op, false); break;
    default: break;
    }
}
