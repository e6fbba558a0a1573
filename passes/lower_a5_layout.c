/* lower_a5_layout.c: pto-lower-a5's layout ops: ttrans, tconcat, tpack.
 *
 * Each op becomes a pto.vecscope holding the micro-op program of pto-isa's
 * include/pto/npu/a5 kernel for it (tpack, which pto-isa does not implement,
 * as its truncating narrowing says):
 *
 *   ttrans   (TTrans.hpp) src's tile shape picks the side read in order: with
 *            fewer rows than columns (RowWise) each register of a src row is
 *            loaded and vscatter'ed down dst's column, at indices vci(chunk)
 *            clamped to the valid columns by vmins, times dst's row stride,
 *            plus the row; otherwise (ColWise) each dst row is vgather2'ed
 *            from src's column the same way and stored. 32-bit elements take
 *            u32 indices, 16- and 8-bit ones u16 (8-bit data through the
 *            b8 forms: 128 elements a register, UNPK_B8 loads, PK_B16 stores).
 *   tconcat  (TConcat.hpp) per row: src0's valid columns copied by vlds/vsts,
 *            then src1's vscatter'ed after them at indices vci(row * dst's
 *            stride + src0's valid columns + chunk). The library's 8-bit
 *            path indexes with 8-bit lanes, which no vscatter form takes: ptoc
 *            scatters 8-bit data as ttrans does, by its b8 form.
 *   tpack    per row and register of src: vlds through unsigned pointers of
 *            the two widths (the elements move as bits), a wrapping vcvt to
 *            the narrow width (its EVEN lanes) and a PK store of them; 4 to 1
 *            bytes narrows twice, a vdintlv between packing the first step's
 *            lanes so that the second's even lanes are the elements in order.
 *
 * Not lowered (the op stays): tiles other than row_major none_box vec tiles,
 * 64-bit elements (the library has no ttrans or tconcat of them), and tiles
 * whose last element's offset a 16-bit index cannot reach.
 */
#include "passes/lower_a5.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <string.h>

typedef struct lanes {
    ptoc_type *elem, *vreg, *mask;
    unsigned bits;              /* the predicate's granularity */
    int64_t count;              /* elements per register */
} lanes;

/* `count` lanes of elem, read under a predicate of `bits` (the b8 forms: 128 lanes at b16). */
static lanes lanes_at(vop_builder *L, ptoc_type *elem, unsigned bits)
{
    lanes r = {elem, NULL, NULL, bits, 2048 / bits};
    r.vreg = ptoc_pto_vreg_type_get(L->ctx, elem, 2048 / ptoc_type_bitwidth(elem));
    r.mask = ptoc_pto_mask_type_get(L->ctx, bits);
    return r;
}

static ptoc_type *uint_of(vop_builder *L, unsigned bits)
{
    return ptoc_type_int(L->ctx, bits, PTOC_UNSIGNED);
}

static ptoc_value *first(vop_builder *L, const lanes *ln, ptoc_value *n)
{
    ptoc_pto_vop_id id = vb_plt(ln->bits);
    ptoc_type *types[2] = {ln->mask, L->index};
    return vb_result0(vb_vop(L, id, 1, &n, 2, types, NULL, NULL, NULL, NULL));
}

static ptoc_value *load(vop_builder *L, const lanes *ln, ptoc_value *ptr, ptoc_value *off, const char *dist)
{
    ptoc_value *ops[2] = {ptr, off};
    return vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, ops, ln->vreg, "dist", dist);
}

static void store(vop_builder *L, ptoc_value *v, ptoc_value *ptr, ptoc_value *off, ptoc_value *m,
                  const char *dist)
{
    ptoc_value *ops[4] = {v, ptr, off, m};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, ops, 0, NULL, "dist", dist, NULL, NULL);
}

static const char *norm_store(unsigned bits)
{
    return bits == 8 ? "NORM_B8" : bits == 16 ? "NORM_B16" : "NORM_B32";
}

static bool plain_vec(const ptoc_pto_tile_desc *t, const ptoc_type *elem)
{
    return t && t->loc == PTOC_PTO_AS_VEC && t->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           t->slayout == PTOC_PTO_SL_NONE_BOX && t->elem == elem;
}

static unsigned elem_bits(const ptoc_value *tile)
{
    return ptoc_type_bitwidth(vb_tile_desc(tile->type)->elem);
}

/* The index lanes for elements of `bits`: u32 for 32-bit data, u16 otherwise. */
static unsigned index_bits(unsigned bits) { return bits == 32 ? 32 : 16; }

/* Whether every element offset of the tile fits an index of `bits`. */
static bool reachable(const ptoc_value *tile, unsigned bits)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(tile->type);
    return bits == 32 || d->rows * d->cols <= 65536;
}

/* ---------------------------------------------------------------- index registers */

/* An index-typed value (a loop's iv, a valid shape) as a scalar of the index lanes. */
static ptoc_value *as_lane(vop_builder *L, ptoc_value *v, unsigned bits)
{
    return vb_cast(L, "arith.index_cast", v, ptoc_type_int(L->ctx, bits, PTOC_SIGNLESS));
}

/* vci(start), then vmins(clamp), vmuls(mul), vadds(add) when given, under m. */
static ptoc_value *indices(vop_builder *L, const lanes *ix, ptoc_value *start, ptoc_value *clamp,
                           ptoc_value *mul, ptoc_value *add, ptoc_value *m)
{
    unsigned bits = ix->bits;
    ptoc_value *s = as_lane(L, start, bits);
    ptoc_value *r = vb_vop1(L, PTOC_PTO_VOP_VCI, 1, &s, ix->vreg, "order", "ASC");
    ptoc_value *scalars[3] = {clamp, mul, add};
    static const ptoc_pto_vop_id ids[3] = {PTOC_PTO_VOP_VMINS, PTOC_PTO_VOP_VMULS, PTOC_PTO_VOP_VADDS};
    for (int k = 0; k < 3; k++) {
        if (!scalars[k])
            continue;
        ptoc_value *ops[3] = {r, as_lane(L, scalars[k], bits), m};
        r = vb_vop1(L, ids[k], 3, ops, ix->vreg, NULL, NULL);
    }
    return r;
}

static void scatter(vop_builder *L, ptoc_value *v, ptoc_value *ptr, ptoc_value *idx, ptoc_value *m)
{
    ptoc_value *ops[4] = {v, ptr, idx, m};
    vb_vop(L, PTOC_PTO_VOP_VSCATTER, 4, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

static ptoc_value *gather(vop_builder *L, const lanes *data, ptoc_value *ptr, ptoc_value *idx, ptoc_value *m)
{
    ptoc_value *ops[3] = {ptr, idx, m};
    return vb_vop1(L, PTOC_PTO_VOP_VGATHER2, 3, ops, data->vreg, NULL, NULL);
}

/* ---------------------------------------------------------------- ttrans */

static void trans_program(vop_builder *L, ptoc_value *src, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    unsigned bits = ptoc_type_bitwidth(s->elem), ib = index_bits(bits);
    lanes data = lanes_at(L, s->elem, ib), ix = lanes_at(L, uint_of(L, ib), ib);
    bool b8 = bits == 8, row_wise = s->rows < s->cols;
    ptoc_value *sp = vb_tile_ptr(L, src, s->elem), *dp = vb_tile_ptr(L, dst, s->elem);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, data.count);
    ptoc_value *sstride = vb_index(L, s->cols), *dstride = vb_index(L, d->cols);
    /* RowWise walks src's rows and scatters; ColWise walks src's columns (dst's rows) and gathers */
    ptoc_value *outer_n = row_wise ? vrows : vcols, *inner_n = row_wise ? vcols : vrows;
    ptoc_value *last = vb_arith(L, "arith.subi", inner_n, one);
    vb_loop outer, inner;
    ptoc_value *o = vb_loop_begin(L, &outer, zero, outer_n, one);
    ptoc_value *c = vb_loop_begin(L, &inner, zero, inner_n, step);
    ptoc_value *m = first(L, &ix, vb_arith(L, "arith.subi", inner_n, c));
    if (row_wise) {
        ptoc_value *off = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", o, sstride), c);
        ptoc_value *v = load(L, &data, sp, off, b8 ? "UNPK_B8" : "NORM");
        scatter(L, v, dp, indices(L, &ix, c, last, dstride, o, m), m);
    } else {
        ptoc_value *v = gather(L, &data, sp, indices(L, &ix, c, last, sstride, o, m), m);
        ptoc_value *off = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", o, dstride), c);
        store(L, v, dp, off, m, b8 ? "PK_B16" : norm_store(bits));
    }
    vb_loop_end(L, &inner);
    vb_loop_end(L, &outer);
}

/* ---------------------------------------------------------------- tconcat */

static void concat_program(vop_builder *L, ptoc_value *a, ptoc_value *b, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    const ptoc_pto_tile_desc *sa = vb_tile_desc(a->type), *sb = vb_tile_desc(b->type);
    unsigned bits = ptoc_type_bitwidth(d->elem), ib = index_bits(bits);
    lanes full = lanes_at(L, d->elem, bits), data = lanes_at(L, d->elem, ib);
    lanes ix = lanes_at(L, uint_of(L, ib), ib);
    bool b8 = bits == 8;
    ptoc_value *ap = vb_tile_ptr(L, a, d->elem), *bp = vb_tile_ptr(L, b, d->elem);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *dv = vb_tile_valid(L, dst), *av = vb_tile_valid(L, a), *bv = vb_tile_valid(L, b);
    ptoc_value *vrows = ptoc_op_result(dv, 0), *ac = ptoc_op_result(av, 1), *bc = ptoc_op_result(bv, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, full.count);
    ptoc_value *bstep = vb_index(L, data.count);
    ptoc_value *astride = vb_index(L, sa->cols), *bstride = vb_index(L, sb->cols);
    ptoc_value *dstride = vb_index(L, d->cols);
    vb_loop rows, first_cols, second_cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *arow = vb_arith(L, "arith.muli", r, astride), *drow = vb_arith(L, "arith.muli", r, dstride);
    ptoc_value *brow = vb_arith(L, "arith.muli", r, bstride);
    ptoc_value *c = vb_loop_begin(L, &first_cols, zero, ac, step);
    ptoc_value *m = first(L, &full, vb_arith(L, "arith.subi", ac, c));
    ptoc_value *v = load(L, &full, ap, vb_arith(L, "arith.addi", arow, c), "NORM");
    store(L, v, dp, vb_arith(L, "arith.addi", drow, c), m, norm_store(bits));
    vb_loop_end(L, &first_cols);
    ptoc_value *at = vb_arith(L, "arith.addi", drow, ac);
    c = vb_loop_begin(L, &second_cols, zero, bc, bstep);
    m = first(L, &ix, vb_arith(L, "arith.subi", bc, c));
    v = load(L, &data, bp, vb_arith(L, "arith.addi", brow, c), b8 ? "UNPK_B8" : "NORM");
    scatter(L, v, dp, indices(L, &ix, vb_arith(L, "arith.addi", at, c), NULL, NULL, NULL, m), m);
    vb_loop_end(L, &second_cols);
    vb_loop_end(L, &rows);
}

/* ---------------------------------------------------------------- tpack */

/* One wrapping narrowing vcvt of v (lanes of `from` bits) to `to` bits, its EVEN lanes. */
static ptoc_value *narrow(vop_builder *L, ptoc_value *v, unsigned from, unsigned to)
{
    lanes src = lanes_at(L, uint_of(L, from), from), dst = lanes_at(L, uint_of(L, to), to);
    ptoc_value *all = first(L, &src, vb_index(L, src.count));
    ptoc_value *ops[2] = {v, all};
    ptoc_op *c = vb_vop(L, PTOC_PTO_VOP_VCVT, 2, ops, 1, &dst.vreg, "sat", "NOSAT", "part", "EVEN");
    return vb_result0(c);
}

static void pack_program(vop_builder *L, ptoc_value *src, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    unsigned wide = ptoc_type_bitwidth(s->elem), thin = ptoc_type_bitwidth(d->elem);
    lanes in = lanes_at(L, uint_of(L, wide), wide);
    lanes out = lanes_at(L, uint_of(L, thin), thin), mid = lanes_at(L, uint_of(L, 16), 16);
    ptoc_value *sp = vb_tile_ptr(L, src, in.elem), *dp = vb_tile_ptr(L, dst, out.elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, in.count);
    ptoc_value *sstride = vb_index(L, s->cols), *dstride = vb_index(L, d->cols);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *srow = vb_arith(L, "arith.muli", r, sstride), *drow = vb_arith(L, "arith.muli", r, dstride);
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *v = load(L, &in, sp, vb_arith(L, "arith.addi", srow, c), "NORM");
    if (wide == 32 && thin == 8) {
        /* the 16-bit values sit in the even lanes: vdintlv packs them into the low half */
        ptoc_value *h = narrow(L, v, 32, 16), *ops[2] = {h, h};
        ptoc_type *two[2] = {mid.vreg, mid.vreg};
        ptoc_op *packed = vb_vop(L, PTOC_PTO_VOP_VDINTLV, 2, ops, 2, two, NULL, NULL, NULL, NULL);
        v = narrow(L, vb_result0(packed), 16, 8);
    } else
        v = narrow(L, v, wide, thin);
    lanes pk = lanes_at(L, out.elem, 2 * thin);          /* the predicate of a PK store: twice the width */
    ptoc_value *m = first(L, &pk, vb_arith(L, "arith.subi", vcols, c));
    store(L, v, dp, vb_arith(L, "arith.addi", drow, c), m, 2 * thin == 16 ? "PK_B16" : "PK_B32");
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

/* ---------------------------------------------------------------- dispatch */

bool a5_layout_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TTRANS || opcode == PTOC_PTO_OP_TCONCAT || opcode == PTOC_PTO_OP_TPACK;
}

void a5_layout_lower(vop_builder *L, ptoc_op *op)
{
    int nins = vb_dps_ins(op);
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    if (nins < 1)
        return;
    ptoc_value *dst = ptoc_op_operand(op, (uint32_t)nins), *a = ptoc_op_operand(op, 0);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type), *s = vb_tile_desc(a->type);
    if (!d || !s || !plain_vec(d, d->elem) || !plain_vec(s, s->elem) || elem_bits(a) > 32)
        return;
    if (opcode == PTOC_PTO_OP_TPACK) {
        unsigned wide = elem_bits(a), thin = elem_bits(dst);
        if (nins != 1 || thin >= wide)
            return;
        vb_open_vecscope(L, op, (ptoc_value *[2]){a, dst}, 2, 1);
        pack_program(L, a, dst);
    } else if (opcode == PTOC_PTO_OP_TTRANS) {
        unsigned bits = elem_bits(a);
        bool row_wise = s->rows < s->cols;
        if (nins != 2 || s->elem != d->elem || !reachable(row_wise ? dst : a, index_bits(bits)))
            return;
        vb_open_vecscope(L, op, (ptoc_value *[3]){a, ptoc_op_operand(op, 1), dst}, 3, 1);
        trans_program(L, a, dst);
    } else {
        ptoc_value *b = ptoc_op_operand(op, 1);
        if (nins != 2 || !plain_vec(vb_tile_desc(b->type), d->elem) || s->elem != d->elem ||
            !reachable(dst, index_bits(elem_bits(dst))))
            return;
        vb_open_vecscope(L, op, (ptoc_value *[3]){a, b, dst}, 3, 1);
        concat_program(L, a, b, dst);
    }
    ptoc_op_erase(op);
}
