/* lower_a5_rowexpand.c: pto-lower-a5's trowexpand family.
 *
 * Each op becomes a pto.vecscope holding the micro-op program of pto-isa's
 * include/pto/npu/a5 kernel for it:
 *
 *   trowexpand          (TRowExpand.hpp) per row: vlds of the row at src[i,0],
 *                       vdup of its lowest lane, vsts over dst's row
 *   trowexpand{add,sub, (TRowExpandBinOp.hpp, its 2D kernels) per row: the row
 *     mul,div,max,min,  vector's register, then per register of the row: vlds of
 *     expdif}           the full operand, vOP, vsts under the tail predicate
 *
 * The row vector is src1 when src0's valid shape is dst's, else src0 (the
 * result is then v OP src1, the library's Op2), decided at run time (an
 * scf.if) when a shape is dynamic. Its register by its layout: col_major,
 * one value per row, vlds BRC of v[i,0]; row_major, one 32-byte block per
 * row, vlds BLK of the block (its vb_lanes the block repeated). expdif is
 * vexpdif on f32, vsub then vexp on f16. The library's 1D kernels for short
 * contiguous tiles compute the same lanes; ptoc always takes the 2D ones.
 * The tmp operand is unused, as on A5. A row_major vector with more columns
 * than its block is not lowered (the library's address arithmetic assumes
 * one block per row).
 */
#include "passes/lower_a5.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <string.h>

bool a5_rowexpand_lowers(ptoc_pto_op_id opcode);
void a5_rowexpand_lower(vop_builder *L, ptoc_op *op);

typedef struct rx_row { ptoc_pto_op_id op; ptoc_pto_vop_id vop; } rx_row;

static const rx_row rx_rows[] = {
    {PTOC_PTO_OP_TROWEXPAND, PTOC_PTO_VOP_NONE},        {PTOC_PTO_OP_TROWEXPANDADD, PTOC_PTO_VOP_VADD},
    {PTOC_PTO_OP_TROWEXPANDSUB, PTOC_PTO_VOP_VSUB},     {PTOC_PTO_OP_TROWEXPANDMUL, PTOC_PTO_VOP_VMUL},
    {PTOC_PTO_OP_TROWEXPANDDIV, PTOC_PTO_VOP_VDIV},     {PTOC_PTO_OP_TROWEXPANDMAX, PTOC_PTO_VOP_VMAX},
    {PTOC_PTO_OP_TROWEXPANDMIN, PTOC_PTO_VOP_VMIN},     {PTOC_PTO_OP_TROWEXPANDEXPDIF, PTOC_PTO_VOP_VEXPDIF},
};

static const rx_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof rx_rows / sizeof rx_rows[0]; i++)
        if (rx_rows[i].op == opcode)
            return &rx_rows[i];
    return NULL;
}

bool a5_rowexpand_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

/* ---------------------------------------------------------------- registers */

static ptoc_value *load(vop_builder *L, const vb_lanes *ln, ptoc_value *ptr, ptoc_value *off, const char *dist)
{
    ptoc_value *ops[2] = {ptr, off};
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_VLDS, 2, ops, 1, &ln->vreg, "dist", dist, NULL, NULL));
}

static void store(vop_builder *L, const vb_lanes *ln, ptoc_value *v, ptoc_value *ptr, ptoc_value *off,
                  ptoc_value *m)
{
    ptoc_value *ops[4] = {v, ptr, off, m};
    const char *dist = ln->bits == 8 ? "NORM_B8" : ln->bits == 16 ? "NORM_B16" : "NORM_B32";
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, ops, 0, NULL, "dist", dist, NULL, NULL);
}

/* ---------------------------------------------------------------- operands */

typedef struct rx_op {
    const rx_row *row;
    ptoc_value *src0, *src1, *dst;
    ptoc_value **tiles;         /* every tile operand, dst last */
    uint32_t ntiles;
} rx_op;

static bool plain(const ptoc_pto_tile_desc *t, const ptoc_type *elem)
{
    return t && t->loc == PTOC_PTO_AS_VEC && t->slayout == PTOC_PTO_SL_NONE_BOX && t->elem == elem;
}

/* Whether tile v can be the full operand (dst's shape, row_major). */
static bool can_be_full(const ptoc_value *v, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *t = vb_tile_desc(v->type);
    return plain(t, elem) && t->blayout == PTOC_PTO_BL_ROW_MAJOR;
}

/* Whether tile v can be the row vector: col_major, or row_major of one block a row. */
static bool can_be_vector(const ptoc_value *v, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *t = vb_tile_desc(v->type);
    bool one_block = t && t->cols * (int64_t)ptoc_pto_elem_bytes(elem) == 32;
    return plain(t, elem) &&
           (t->blayout == PTOC_PTO_BL_COL_MAJOR || (t->blayout == PTOC_PTO_BL_ROW_MAJOR && one_block));
}

static bool operands(vop_builder *L, const ptoc_op *op, rx_op *out)
{
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return false;
    *out = (rx_op){.row = row_of(ptoc_pto_opcode(op)), .src0 = ptoc_op_operand(op, 0),
                   .dst = ptoc_op_operand(op, (uint32_t)nins)};
    const ptoc_pto_tile_desc *d = vb_tile_desc(out->dst->type);
    if (!d || !can_be_full(out->dst, d->elem))
        return false;
    out->tiles = PTOC_NEW_ARRAY(L->b.arena, ptoc_value *, op->noperands);
    for (uint32_t i = 0; i < op->noperands; i++) {
        ptoc_value *v = ptoc_op_operand(op, i);
        if (!vb_tile_desc(v->type))
            return false;
        out->tiles[out->ntiles++] = v;
    }
    if (out->row->vop == PTOC_PTO_VOP_NONE) {
        const ptoc_pto_tile_desc *s = vb_tile_desc(out->src0->type);
        return plain(s, d->elem) && nins == 1;
    }
    if (nins < 2)
        return false;
    out->src1 = ptoc_op_operand(op, 1);
    return true;
}

/* ---------------------------------------------------------------- the programs */

/* The element offset of tile t's element (row, 0). */
static ptoc_value *row_start(vop_builder *L, const ptoc_value *t, ptoc_value *row, ptoc_value *stride)
{
    bool col_major = vb_tile_desc(t->type)->blayout == PTOC_PTO_BL_COL_MAJOR;
    return col_major ? row : vb_arith(L, "arith.muli", row, stride);
}

/* trowexpand: src[i,0] in every valid column of dst's row i. */
static void expand_program(vop_builder *L, const rx_op *r)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(r->src0->type), *d = vb_tile_desc(r->dst->type);
    vb_lanes ln = vb_lanes_of(L, d->elem);
    ptoc_value *sp = vb_tile_ptr(L, r->src0, d->elem), *dp = vb_tile_ptr(L, r->dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, r->dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    ptoc_value *sstride = vb_index(L, s->cols), *dstride = vb_index(L, d->cols);
    ptoc_value *all = vb_first(L, &ln, step);
    vb_loop rows, cols;
    ptoc_value *i = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *x = load(L, &ln, sp, row_start(L, r->src0, i, sstride), "NORM");
    ptoc_value *dops[2] = {x, all};
    ptoc_op *dup = vb_vop(L, PTOC_PTO_VOP_VDUP, 2, dops, 1, &ln.vreg, "position", "LOWEST", NULL, NULL);
    ptoc_value *v = vb_result0(dup);
    ptoc_value *base = vb_arith(L, "arith.muli", i, dstride);
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *tail = vb_first(L, &ln, vb_arith(L, "arith.subi", vcols, c));
    store(L, &ln, v, dp, vb_arith(L, "arith.addi", base, c), tail);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

/* x OP v, or v OP x (swapped); expdif on f16 is vsub then vexp. */
static ptoc_value *compute(vop_builder *L, const vb_lanes *ln, ptoc_pto_vop_id vop, ptoc_value *x, ptoc_value *v,
                           bool swapped, ptoc_value *m)
{
    ptoc_value *ops[3] = {swapped ? v : x, swapped ? x : v, m};
    bool half = ln->elem->kind == PTOC_TYPE_FLOAT && ln->elem->u.fp.kind == PTOC_F16;
    if (vop == PTOC_PTO_VOP_VEXPDIF && half) {
        ptoc_op *sub = vb_vop(L, PTOC_PTO_VOP_VSUB, 3, ops, 1, &ln->vreg, NULL, NULL, NULL, NULL);
        ptoc_value *e[2] = {vb_result0(sub), m};
        return vb_result0(vb_vop(L, PTOC_PTO_VOP_VEXP, 2, e, 1, &ln->vreg, NULL, NULL, NULL, NULL));
    }
    return vb_result0(vb_vop(L, vop, 3, ops, 1, &ln->vreg, NULL, NULL, NULL, NULL));
}

/* The binary ops with `vec` the row vector and `full` the other source. */
static void binary_program(vop_builder *L, const rx_op *r, bool swapped)
{
    ptoc_value *full = swapped ? r->src1 : r->src0, *vec = swapped ? r->src0 : r->src1;
    const ptoc_pto_tile_desc *f = vb_tile_desc(full->type), *t = vb_tile_desc(vec->type);
    const ptoc_pto_tile_desc *d = vb_tile_desc(r->dst->type);
    vb_lanes ln = vb_lanes_of(L, d->elem);
    bool brc = t->blayout == PTOC_PTO_BL_COL_MAJOR;
    const char *vdist = !brc ? "BLK" : ln.bits == 8 ? "BRC_B8" : ln.bits == 16 ? "BRC_B16" : "BRC_B32";
    ptoc_value *fp = vb_tile_ptr(L, full, d->elem), *vp = vb_tile_ptr(L, vec, d->elem);
    ptoc_value *dp = vb_tile_ptr(L, r->dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, r->dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    ptoc_value *fstride = vb_index(L, f->cols), *vstride = vb_index(L, t->cols);
    ptoc_value *dstride = vb_index(L, d->cols);
    vb_loop rows, cols;
    ptoc_value *i = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *v = load(L, &ln, vp, row_start(L, vec, i, vstride), vdist);
    ptoc_value *fbase = vb_arith(L, "arith.muli", i, fstride);
    ptoc_value *dbase = f->cols == d->cols ? fbase : vb_arith(L, "arith.muli", i, dstride);
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *m = vb_first(L, &ln, vb_arith(L, "arith.subi", vcols, c));
    ptoc_value *foff = vb_arith(L, "arith.addi", fbase, c);
    ptoc_value *x = load(L, &ln, fp, foff, "NORM");
    ptoc_value *y = compute(L, &ln, r->row->vop, x, v, swapped, m);
    store(L, &ln, y, dp, dbase == fbase ? foff : vb_arith(L, "arith.addi", dbase, c), m);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

/* Whether src0's valid shape is dst's, when both are static (*known). */
static bool src0_full(const rx_op *r, bool *known)
{
    const ptoc_pto_tile_desc *a = vb_tile_desc(r->src0->type), *d = vb_tile_desc(r->dst->type);
    *known = a->valid_rows != PTOC_DYNAMIC && a->valid_cols != PTOC_DYNAMIC &&
             d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC;
    return a->valid_rows == d->valid_rows && a->valid_cols == d->valid_cols;
}

/* src0 == dst's valid shape, as an i1 (both shapes read at run time). */
static ptoc_value *src0_full_now(vop_builder *L, const rx_op *r)
{
    return vb_same_valid(L, r->src0, r->dst);
}

/* Which roles the binary op can take: bit 0 src1 the vector, bit 1 src0 the vector. */
static unsigned roles(const rx_op *r)
{
    const ptoc_type *e = vb_tile_desc(r->dst->type)->elem;
    bool known, full = src0_full(r, &known);
    unsigned ok = (can_be_full(r->src0, e) && can_be_vector(r->src1, e) ? 1u : 0u) |
                  (can_be_full(r->src1, e) && can_be_vector(r->src0, e) ? 2u : 0u);
    return known ? ok & (full ? 1u : 2u) : ok;
}

void a5_rowexpand_lower(vop_builder *L, ptoc_op *op)
{
    rx_op r;
    if (!operands(L, op, &r))
        return;
    unsigned ok = r.row->vop == PTOC_PTO_VOP_NONE ? 1u : roles(&r);
    if (!ok)
        return;
    vb_open_vecscope(L, op, r.tiles, r.ntiles, 1);
    if (r.row->vop == PTOC_PTO_VOP_NONE) {
        expand_program(L, &r);
    } else if (ok != 3) {
        binary_program(L, &r, ok == 2);
    } else {
        vb_if f;
        vb_if_begin(L, &f, src0_full_now(L, &r));
        binary_program(L, &r, false);
        vb_if_else(L, &f);
        binary_program(L, &r, true);
        vb_if_end(L, &f);
    }
    ptoc_op_erase(op);
}
