/* lower_a2a3_rowexpand.c: pto-lower-a2a3's row-expand binary ops (pto-isa
 * a2a3 TRowExpandBinOp.hpp, TRowExpand{Add,Sub,Mul,Div,Max,Min,Expdif}.hpp).
 *
 *   trowexpand{add,sub,mul,max,min} dst, src0, src1    vadd vsub vmul vmax vmin
 *   trowexpanddiv (floats)                            vdiv
 *   trowexpandexpdif (floats)                         vsub, then vexp on dst
 *                                                     (TROWEXPANDSUB, TEXP)
 *
 * The row vector is src1 when src0's valid shape is dst's, else src0 (the cpu
 * target's run-time rule, decided here from static valid shapes, or from the
 * tiles' shapes when a valid shape is dynamic). A col_major one-column vector
 * (one value per row) is broadcast first (TRowExpandBinaryInstr):
 *
 *   vbrcb          the vector's ceil(vrows / 8) groups of 8 values into the
 *                  hidden scratch window UB[184 KiB, ...), or into the tmp
 *                  tile of the tmp form: row i's value fills block i
 *
 * a row_major vector of one 32-byte block per row is read in place
 * (TRowExpandBinaryInstr32B). Then the binary instruction, the vector at
 * block stride 0:
 *
 *   count mode     (a repeat stride past 255 blocks, more column repeats than
 *                  rows, or a dynamic valid shape) per valid row one
 *                  instruction, the valid columns as the count
 *   norm mode      the rows as repeats at the row strides: one instruction
 *                  under the continuous mask of vcols when a row stride is
 *                  below one repeat, else per chunk of E columns, the tail
 *                  chunk under its continuous mask
 *
 * The instruction's operands are in the cpu target's order, src0 OP src1,
 * also when the vector is src0; the library passes the full tile first in
 * both cases, which differs for sub, div and expdif (docs/decisions.md).
 *
 * Not lowered yet (the op stays): 256 rows or more, element types other than
 * f16 f32 i16 i32, a dynamic valid shape where both operands could be the
 * vector. trowexpand itself is lower_a2a3_rowexpand_dup.c's.
 */
#include "passes/lower_a2a3.h"
#include "ptoc/ptoc.h"

typedef struct rx_row { ptoc_pto_op_id op; ptoc_pto_vop_id vop; bool ints; } rx_row;

static const rx_row rx_rows[] = {
    {PTOC_PTO_OP_TROWEXPANDADD, PTOC_PTO_VOP_A2A3_VADD, true},
    {PTOC_PTO_OP_TROWEXPANDSUB, PTOC_PTO_VOP_A2A3_VSUB, true},
    {PTOC_PTO_OP_TROWEXPANDMUL, PTOC_PTO_VOP_A2A3_VMUL, true},
    {PTOC_PTO_OP_TROWEXPANDDIV, PTOC_PTO_VOP_A2A3_VDIV, false},
    {PTOC_PTO_OP_TROWEXPANDMAX, PTOC_PTO_VOP_A2A3_VMAX, true},
    {PTOC_PTO_OP_TROWEXPANDMIN, PTOC_PTO_VOP_A2A3_VMIN, true},
    {PTOC_PTO_OP_TROWEXPANDEXPDIF, PTOC_PTO_VOP_A2A3_VSUB, false},
};

static const rx_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof rx_rows / sizeof rx_rows[0]; i++)
        if (rx_rows[i].op == opcode)
            return &rx_rows[i];
    return NULL;
}

bool a2_rowexpand_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

/* A col_major none_box vec tile of one column of `elem`. */
static bool col_vector(const ptoc_type *t, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(t);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_COL_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && d->elem == elem && d->cols == 1;
}

/* A row_major tile of one 32-byte block per row. */
static bool block_vector(const ptoc_type *t, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(t);
    return a2_plain_tile(t, elem) && d->cols * (int64_t)ptoc_type_bitwidth(elem) == 256;
}

static bool is_vector(const ptoc_type *t, const ptoc_type *elem)
{
    return col_vector(t, elem) || block_vector(t, elem);
}

static bool valid_static(const ptoc_type *t)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(t);
    return d && d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC;
}

/* Which operand (0 or 1) is the row vector; -1: undecided here. */
static int vector_operand(const ptoc_value *src0, const ptoc_value *src1, const ptoc_value *dst)
{
    const ptoc_pto_tile_desc *a = vb_tile_desc(src0->type), *d = vb_tile_desc(dst->type);
    ptoc_type *elem = d->elem;
    if (valid_static(src0->type) && valid_static(dst->type))
        return a->valid_rows == d->valid_rows && a->valid_cols == d->valid_cols ? 1 : 0;
    bool v0 = is_vector(src0->type, elem), v1 = is_vector(src1->type, elem);
    return v0 == v1 ? -1 : v1 ? 1 : 0;
}

/* The instruction's stride lists: blocks contiguous but the vector's (0). */
static void set_lists(a2_prog *P, ptoc_op *op, uint32_t vec, const int64_t *rep)
{
    ptoc_context *ctx = P->L->ctx;
    ptoc_attr *blk[3], *rp[3];
    for (uint32_t i = 0; i < 3; i++) {
        blk[i] = ptoc_attr_int(ctx, P->i64, i == vec ? 0 : 1);
        rp[i] = ptoc_attr_int(ctx, P->i64, rep[i]);
    }
    ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "blk"), ptoc_attr_array(ctx, 3, blk));
    ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "rep"), ptoc_attr_array(ctx, 3, rp));
}

static void instr(a2_prog *P, uint32_t vec, ptoc_value *const *offs, ptoc_value *repeat, const int64_t *rep)
{
    /* a2_instr's then_vop (expdif's vexp) takes dst's own lists; the lists
     * are set on the binary instruction, the one before it */
    ptoc_pto_vop_id then = P->then_vop;
    P->then_vop = PTOC_PTO_VOP_NONE;
    set_lists(P, a2_instr(P, offs, repeat, NULL), vec, rep);
    if (then != PTOC_PTO_VOP_NONE) {
        ptoc_value *ops[5] = {P->ptrs[0], offs[0], P->ptrs[0], offs[0], repeat};
        ptoc_op *op = vb_vop(P->L, then, 5, ops, 0, NULL, NULL, NULL, NULL, NULL);
        ptoc_context *ctx = P->L->ctx;
        ptoc_attr *blk[2] = {ptoc_attr_int(ctx, P->i64, 1), ptoc_attr_int(ctx, P->i64, 1)};
        ptoc_attr *rp[2] = {ptoc_attr_int(ctx, P->i64, rep[0]), ptoc_attr_int(ctx, P->i64, rep[0])};
        ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "blk"), ptoc_attr_array(ctx, 2, blk));
        ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "rep"), ptoc_attr_array(ctx, 2, rp));
    }
    P->then_vop = then;
}

/* TRowExpandBinaryCountMode: per valid row, the valid columns as the count. */
static void count_rows(a2_prog *P, uint32_t vec, ptoc_value *vrows, ptoc_value *vcols)
{
    a2_count_begin(P, vcols);
    vb_loop l;
    ptoc_value *r = vb_loop_begin(P->L, &l, a2_index(P, 0), vrows, a2_index(P, 1)), *offs[3];
    a2_row_offsets(P, r, NULL, offs);
    int64_t rep[3] = {8, 8, 8};
    rep[vec] = 0;
    instr(P, vec, offs, a2_index(P, 0), rep);
    vb_loop_end(P->L, &l);
    a2_count_end(P);
}

/* TRowExpandBinaryNormModeTail over static rows x cols; `full` is src0's or
 * src1's pointer index, the one that is not the vector. */
static void norm_rows(a2_prog *P, uint32_t vec, int64_t rows, int64_t cols)
{
    uint32_t full = vec == 1 ? 2 : 1;
    int64_t rep[3];
    for (uint32_t i = 0; i < 3; i++)
        rep[i] = P->cols[i] / P->B;
    ptoc_value *offs[3] = {a2_index(P, 0), a2_index(P, 0), a2_index(P, 0)};
    if (P->cols[0] < P->E || P->cols[full] < P->E) {
        a2_cont_mask(P, cols);
        instr(P, vec, offs, a2_index(P, rows), rep);
        a2_full_mask(P);
        return;
    }
    int64_t nfull = cols / P->E, tail = cols % P->E;
    for (int64_t j = 0; j < nfull; j++) {
        offs[0] = offs[full] = a2_index(P, j * P->E);
        instr(P, vec, offs, a2_index(P, rows), rep);
    }
    if (tail) {
        a2_cont_mask(P, tail);
        offs[0] = offs[full] = a2_index(P, nfull * P->E);
        instr(P, vec, offs, a2_index(P, rows), rep);
        a2_full_mask(P);
    }
}

/* vbrcb of the col_major vector `src` into `window`: ceil(vrows / 8) repeats
 * of 8 values, one 32-byte block each. */
static void broadcast(a2_prog *P, ptoc_value *window, ptoc_value *src, ptoc_type *elem, ptoc_value *vrows)
{
    vop_builder *L = P->L;
    ptoc_value *groups = vb_arith(L, "arith.ceildivsi", vrows, a2_index(P, 8));
    ptoc_value *bops[5] = {window, a2_index(P, 0), vb_tile_ptr(L, src, elem), a2_index(P, 0), groups};
    ptoc_op *brcb = vb_vop(L, PTOC_PTO_VOP_A2A3_VBRCB, 5, bops, 0, NULL, NULL, NULL, NULL, NULL);
    ptoc_attr *one = ptoc_attr_int(L->ctx, P->i64, 1), *eight = ptoc_attr_int(L->ctx, P->i64, 8);
    ptoc_op_set_attr(brcb, L->b.arena, ptoc_ident_cstr(L->ctx, "blk"), ptoc_attr_array(L->ctx, 1, &one));
    ptoc_op_set_attr(brcb, L->b.arena, ptoc_ident_cstr(L->ctx, "rep"), ptoc_attr_array(L->ctx, 1, &eight));
}

/* The broadcast buffer: the tmp tile, else the hidden scratch window. */
static ptoc_value *window_of(a2_prog *P, ptoc_value *tmp, ptoc_type *elem)
{
    vop_builder *L = P->L;
    if (tmp)
        return vb_tile_ptr(L, tmp, elem);
    return a2_window_ptr(L, elem, 0);
}

/* The tmp form's tmp: a row_major none_box vec tile of dst's element type. */
static bool tmp_ok(const ptoc_value *tmp, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *t = vb_tile_desc(tmp->type);
    return t && t->loc == PTOC_PTO_AS_VEC && t->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           t->slayout == PTOC_PTO_SL_NONE_BOX && t->elem == elem;
}

void a2_rowexpand_lower(vop_builder *L, ptoc_op *op)
{
    const rx_row *row = row_of(ptoc_pto_opcode(op));
    int nins = vb_dps_ins(op);
    if (nins != 2 && nins != 3)
        return;
    ptoc_value *srcs[2] = {ptoc_op_operand(op, 0), ptoc_op_operand(op, 1)};
    ptoc_value *tmp = nins == 3 ? ptoc_op_operand(op, 2) : NULL, *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d || !a2_plain_tile(dst->type, d->elem) || d->rows >= 256 ||
        (!row->ints && !ptoc_type_is_float(d->elem)) || (tmp && !tmp_ok(tmp, d->elem)))
        return;
    int v = vector_operand(srcs[0], srcs[1], dst);
    if (v < 0 || !a2_plain_tile(srcs[1 - v]->type, d->elem) || !is_vector(srcs[v]->type, d->elem))
        return;
    ptoc_value *vector = srcs[v], *full = srcs[1 - v];
    bool col = col_vector(vector->type, d->elem);
    const ptoc_pto_tile_desc *f = vb_tile_desc(full->type), *vd = vb_tile_desc(vector->type);
    ptoc_value *tiles[4] = {srcs[0], srcs[1], tmp ? tmp : dst, dst};
    vb_open_vecscope(L, op, tiles, tmp ? 4 : 3, tmp ? 2 : 1);
    a2_prog P;
    a2_prog_init(&P, L, row->vop, d->elem);
    if (row->op == PTOC_PTO_OP_TROWEXPANDEXPDIF)
        P.then_vop = PTOC_PTO_VOP_A2A3_VEXP;

    bool known = d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC;
    ptoc_op *valid = known ? NULL : vb_tile_valid(L, dst);
    ptoc_value *vrows = known ? a2_index(&P, d->valid_rows) : ptoc_op_result(valid, 0);
    ptoc_value *vcols = known ? a2_index(&P, d->valid_cols) : ptoc_op_result(valid, 1);

    /* pointers in the instruction's order: dst, src0, src1 */
    a2_ptr(&P, dst, d->elem, d->cols);
    for (int i = 0; i < 2; i++) {
        if (i != v) {
            a2_ptr(&P, full, d->elem, f->cols);
            continue;
        }
        ptoc_value *window = col ? window_of(&P, tmp, d->elem) : vb_tile_ptr(L, vector, d->elem);
        if (col)
            broadcast(&P, window, vector, d->elem, vrows);
        P.tiles[P.nptrs] = NULL, P.ptrs[P.nptrs] = window, P.cols[P.nptrs++] = col ? P.B : vd->cols;
    }

    uint32_t vec = (uint32_t)v + 1;
    bool over = d->cols / P.B > A2_STRIDE_MAX || f->cols / P.B > A2_STRIDE_MAX;
    if (!known || over || d->valid_cols / P.E > d->valid_rows)
        count_rows(&P, vec, vrows, vcols);
    else
        norm_rows(&P, vec, d->valid_rows, d->valid_cols);
    ptoc_op_erase(op);
}
