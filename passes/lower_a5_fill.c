/* lower_a5_fill.c: pto-lower-a5's fill and generate ops.
 *
 *   texpands   (a5/TExpandS.hpp) the scalar in every valid element of dst: per
 *              line of dst's valid region, per register of the line, vdup of
 *              the scalar under the tail predicate and vsts. A row_major tile's
 *              lines are its rows; a col_major one's are its columns, as the
 *              library treats it as the transposed row_major tile. 64-bit
 *              tiles take vbr once (Int64Fill's vbr of the words), which
 *              pto-split-u64 makes the word pair and its vstsx2.
 *   tci        (a5/Tci.hpp, its vector form) per register of dst's valid
 *              columns, vci of S + k*N (ascending) or of S - N + 1 - k*N in
 *              DESC order (descending), vsts under the tail predicate.
 *   ttri       (a5/TTri.hpp) vbr of 1 and 0; per valid row, the first value
 *              (0 for lower, 1 for upper) over the valid columns, then the
 *              other over the first i + diagonal (+ 1 for lower) columns, from
 *              the first row that has any. 64-bit tiles take the same program
 *              on register pairs (Int64Tri's vsel and INTLV store give the
 *              same elements).
 *   tfillpad, tfillpad_expand, tfillpad_inplace   (a5/TFillPad.hpp) on the
 *              elements' bits: src's valid region copied (vlds, vsts); per
 *              valid row of src the columns from src's valid columns to dst's
 *              last as an unaligned stream of the pad value (vstus per
 *              register, vstas to flush); the rows below as one flat run of
 *              predicated vsts.
 *
 * The scalar is converted as vb_scalar_as says (the elementwise ops' rule); a
 * scalar that would need an int/float conversion, a boxed layout or a 64-bit
 * float tile is not lowered. Where the library writes past what the cpu
 * target writes, or less, ptoc follows the cpu target (docs/decisions.md):
 * Int64Fill stores one register (64 elements) per row, ptoc every valid
 * column; TTri's second run is not clamped to the valid columns, ptoc's is;
 * TFillPad pads the rows up to dst's valid rows and skips the copy in place,
 * ptoc pads up to dst's rows, copies, and writes nothing when dst's valid
 * shape is empty.
 */
#include "passes/lower_a5.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

bool a5_fill_lowers(ptoc_pto_op_id opcode);
void a5_fill_lower(vop_builder *L, ptoc_op *op);

bool a5_fill_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TEXPANDS || opcode == PTOC_PTO_OP_TCI || opcode == PTOC_PTO_OP_TTRI ||
           opcode == PTOC_PTO_OP_TFILLPAD || opcode == PTOC_PTO_OP_TFILLPAD_EXPAND ||
           opcode == PTOC_PTO_OP_TFILLPAD_INPLACE || a5_quant_lowers(opcode) ||
           opcode == PTOC_PTO_OP_TRANDOM;
}

/* ---------------------------------------------------------------- registers */

static void store(vop_builder *L, const vb_lanes *ln, ptoc_value *v, ptoc_value *ptr, ptoc_value *off,
                  ptoc_value *m)
{
    ptoc_value *ops[4] = {v, ptr, off, m};
    const char *dist = ln->bits == 8 ? "NORM_B8" : ln->bits == 16 ? "NORM_B16" : "NORM_B32";
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, ops, 0, NULL, "dist", dist, NULL, NULL);
}

/* ---------------------------------------------------------------- texpands */

static void expands_program(vop_builder *L, ptoc_value *scalar, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    bool by_rows = d->blayout == PTOC_PTO_BL_ROW_MAJOR;
    vb_lanes ln = vb_lanes_of(L, d->elem);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *lines = ptoc_op_result(valid, by_rows ? 0 : 1), *len = ptoc_op_result(valid, by_rows ? 1 : 0);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    ptoc_value *stride = vb_index(L, by_rows ? d->cols : d->rows);
    ptoc_value *s = vb_scalar_as(L, scalar, d->elem);
    bool wide = ptoc_type_bitwidth(d->elem) == 64;
    ptoc_value *splat = NULL;
    if (wide)
        splat = vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &s, 1, &ln.vreg, NULL, NULL, NULL, NULL));
    vb_loop outer, inner;
    ptoc_value *i = vb_loop_begin(L, &outer, zero, lines, one);
    ptoc_value *base = vb_arith(L, "arith.muli", i, stride);
    ptoc_value *c = vb_loop_begin(L, &inner, zero, len, step);
    ptoc_value *m = vb_first(L, &ln, vb_arith(L, "arith.subi", len, c));
    ptoc_value *v = splat;
    if (!wide) {
        ptoc_value *ops[2] = {s, m};
        v = vb_result0(vb_vop(L, PTOC_PTO_VOP_VDUP, 2, ops, 1, &ln.vreg, NULL, NULL, NULL, NULL));
    }
    store(L, &ln, v, dp, vb_arith(L, "arith.addi", base, c), m);
    vb_loop_end(L, &inner);
    vb_loop_end(L, &outer);
}

static void expands_lower(vop_builder *L, ptoc_op *op)
{
    ptoc_value *scalar = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d || vb_tile_desc(scalar->type) || d->loc != PTOC_PTO_AS_VEC ||
        d->slayout != PTOC_PTO_SL_NONE_BOX ||
        (d->blayout != PTOC_PTO_BL_ROW_MAJOR && d->blayout != PTOC_PTO_BL_COL_MAJOR) ||
        !vb_scalar_fits(scalar->type, d->elem) ||
        (ptoc_type_is_float(d->elem) && ptoc_type_bitwidth(d->elem) == 64))
        return;
    vb_open_vecscope(L, op, &dst, 1, 1);
    expands_program(L, scalar, dst);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- shared */

/* A vec row_major none_box tile. */
static const ptoc_pto_tile_desc *plain_tile(ptoc_value *v)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(v->type);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
                   d->slayout == PTOC_PTO_SL_NONE_BOX ? d : NULL;
}

/* An integer attribute of the op (a bool counts), or `dflt`. */
static int64_t int_attr(ptoc_op *op, const char *name, int64_t dflt)
{
    const ptoc_attr *a = ptoc_op_attr(op, name);
    if (!a)
        return dflt;
    return a->kind == PTOC_ATTR_INTEGER ? a->u.integer.value : a->kind == PTOC_ATTR_BOOL ? a->u.boolean : -1;
}

static ptoc_value *imax(vop_builder *L, ptoc_value *a, ptoc_value *b)
{
    return vb_arith(L, "arith.maxsi", a, b);
}

static ptoc_value *imin(vop_builder *L, ptoc_value *a, ptoc_value *b)
{
    return vb_arith(L, "arith.minsi", a, b);
}

static ptoc_value *broadcast(vop_builder *L, const vb_lanes *ln, ptoc_value *s)
{
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &s, 1, &ln->vreg, NULL, NULL, NULL, NULL));
}

/* ---------------------------------------------------------------- tci */

static void tci_program(vop_builder *L, ptoc_value *start, ptoc_value *dst, bool descending)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    vb_lanes ln = vb_lanes_of(L, d->elem);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_value *cols = ptoc_op_result(vb_tile_valid(L, dst), 1);
    ptoc_value *zero = vb_index(L, 0), *step = vb_index(L, ln.count);
    ptoc_value *s = vb_scalar_as(L, start, d->elem);
    if (descending)    /* the register's lane 0 holds its largest: S - N + 1 in DESC order */
        s = vb_arith(L, "arith.subi", s, vb_int(L, s->type, ln.count - 1));
    vb_loop loop;
    ptoc_value *c = vb_loop_begin(L, &loop, zero, cols, step);
    ptoc_value *k = vb_cast(L, "arith.index_cast", c, s->type);
    ptoc_value *base = vb_arith(L, descending ? "arith.subi" : "arith.addi", s, k);
    ptoc_value *v = vb_result0(vb_vop(L, PTOC_PTO_VOP_VCI, 1, &base, 1, &ln.vreg, "order",
                                      descending ? "DESC" : "ASC", NULL, NULL));
    store(L, &ln, v, dp, c, vb_first(L, &ln, vb_arith(L, "arith.subi", cols, c)));
    vb_loop_end(L, &loop);
}

static void tci_lower(vop_builder *L, ptoc_op *op)
{
    ptoc_value *start = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *d = plain_tile(dst);
    int64_t descending = int_attr(op, "descending", 0);
    unsigned bits = d ? ptoc_type_bitwidth(d->elem) : 0;
    if (!d || d->rows != 1 || !ptoc_type_is_int(d->elem) || (bits != 16 && bits != 32) ||
        (descending != 0 && descending != 1) || !ptoc_type_is_int(start->type) ||
        !vb_scalar_fits(start->type, d->elem))
        return;
    vb_open_vecscope(L, op, &dst, 1, 1);
    tci_program(L, start, dst, descending == 1);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- ttri */

/* v under the first `n` elements of the line at `base`, register by register
 * over the line's `len` (n at most len): the library's loop over every
 * register of the line, each predicate the rest of n. */
static void store_run(vop_builder *L, const vb_lanes *ln, ptoc_value *v, ptoc_value *dp, ptoc_value *base,
                      ptoc_value *len, ptoc_value *n)
{
    vb_loop loop;
    ptoc_value *c = vb_loop_begin(L, &loop, vb_index(L, 0), len, vb_index(L, ln->count));
    ptoc_value *rest = imax(L, vb_arith(L, "arith.subi", n, c), vb_index(L, 0));
    store(L, ln, v, dp, vb_arith(L, "arith.addi", base, c), vb_first(L, ln, rest));
    vb_loop_end(L, &loop);
}

static void ttri_program(vop_builder *L, ptoc_value *diagonal, ptoc_value *dst, bool upper)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    vb_lanes ln = vb_lanes_of(L, d->elem);
    ptoc_value *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *rows = ptoc_op_result(valid, 0), *cols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *stride = vb_index(L, d->cols);
    vb_index(L, ln.count);
    bool fp = ptoc_type_is_float(d->elem);
    ptoc_type *et = d->elem;
    if (ptoc_type_is_int(et))
        et = ptoc_type_int(L->ctx, ptoc_type_bitwidth(et), PTOC_SIGNLESS);
    ptoc_value *v1 = broadcast(L, &ln, fp ? vb_float(L, et, 1.0) : vb_int(L, et, 1));
    ptoc_value *v0 = broadcast(L, &ln, fp ? vb_float(L, et, 0.0) : vb_int(L, et, 0));
    ptoc_value *diag = vb_cast(L, "arith.index_cast", diagonal, L->index);
    /* lower: ones in the first i + diagonal + 1 columns, from row -diagonal;
     * upper: zeros in the first i + diagonal, from row 1 - diagonal */
    ptoc_value *edge = upper ? diag : vb_arith(L, "arith.addi", diag, one);
    ptoc_value *from = imin(L, imax(L, vb_arith(L, "arith.subi", one, edge), zero), rows);
    vb_loop all, part;
    ptoc_value *i = vb_loop_begin(L, &all, zero, rows, one);
    store_run(L, &ln, upper ? v1 : v0, dp, vb_arith(L, "arith.muli", i, stride), cols, cols);
    vb_loop_end(L, &all);
    i = vb_loop_begin(L, &part, from, rows, one);
    ptoc_value *n = imin(L, vb_arith(L, "arith.addi", i, edge), cols);
    store_run(L, &ln, upper ? v0 : v1, dp, vb_arith(L, "arith.muli", i, stride), cols, n);
    vb_loop_end(L, &part);
}

static void ttri_lower(vop_builder *L, ptoc_op *op)
{
    ptoc_value *diagonal = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *d = plain_tile(dst);
    int64_t upper = int_attr(op, "upperOrLower", 0);
    if (!d || (upper != 0 && upper != 1) || !ptoc_type_is_int(diagonal->type) ||
        (ptoc_type_is_float(d->elem) && ptoc_type_bitwidth(d->elem) == 64))
        return;
    vb_open_vecscope(L, op, &dst, 1, 1);
    ttri_program(L, diagonal, dst, upper == 1);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- tfillpad */

/* The bits of dst's pad value (tload's: 0, or +-inf / the integer's bounds). */
static int64_t pad_bits(const ptoc_type *elem, uint32_t pad)
{
    unsigned bits = ptoc_type_bitwidth(elem);
    bool max = pad == PTOC_PTO_PAD_MAX;
    if (pad == PTOC_PTO_PAD_ZERO)
        return 0;
    if (ptoc_type_is_float(elem)) {
        bool bf16 = elem->u.fp.kind == PTOC_BF16;
        int64_t inf = bits == 32 ? 0x7f800000 : bf16 ? 0x7f80 : 0x7c00, sign = (int64_t)1 << (bits - 1);
        return max ? inf : inf | sign;
    }
    int64_t lo = elem->u.integer.sign == PTOC_UNSIGNED ? 0 : -((int64_t)1 << (bits - 1));
    return max ? lo + (int64_t)(((uint64_t)1 << bits) - 1) : lo;
}

typedef struct fillpad {
    vb_lanes ln;
    ptoc_value *sp, *dp;                 /* the tiles as integers of their width */
    ptoc_value *src_rows, *src_cols;     /* src's valid shape */
    int64_t src_stride, dst_stride, dst_rows;
    ptoc_value *pad;                     /* the pad value in every lane */
} fillpad;

/* src's valid region into dst (CopyValidElementsVec). */
static void fillpad_copy(vop_builder *L, const fillpad *f)
{
    vb_loop rows, regs;
    ptoc_value *i = vb_loop_begin(L, &rows, vb_index(L, 0), f->src_rows, vb_index(L, 1));
    ptoc_value *so = vb_arith(L, "arith.muli", i, vb_index(L, f->src_stride));
    ptoc_value *dof = vb_arith(L, "arith.muli", i, vb_index(L, f->dst_stride));
    ptoc_value *c = vb_loop_begin(L, &regs, vb_index(L, 0), f->src_cols, vb_index(L, f->ln.count));
    ptoc_value *m = vb_first(L, &f->ln, vb_arith(L, "arith.subi", f->src_cols, c));
    ptoc_value *ops[2] = {f->sp, vb_arith(L, "arith.addi", so, c)};
    ptoc_op *ld = vb_vop(L, PTOC_PTO_VOP_VLDS, 2, ops, 1, &f->ln.vreg, "dist", "NORM", NULL, NULL);
    ptoc_value *v = vb_result0(ld);
    store(L, &f->ln, v, f->dp, vb_arith(L, "arith.addi", dof, c), m);
    vb_loop_end(L, &regs);
    vb_loop_end(L, &rows);
}

/* Per valid row of src, the pad value from src's valid columns to the end of
 * dst's row: an unaligned stream, one vstus per register, then vstas at the
 * row's end. */
static void fillpad_columns(vop_builder *L, const fillpad *f)
{
    ptoc_type *align = ptoc_pto_align_type_get(L->ctx);
    ptoc_value *row_len = vb_index(L, f->dst_stride);
    ptoc_value *pad_cols = vb_arith(L, "arith.subi", row_len, f->src_cols);
    vb_loop rows;
    vb_carried regs;
    ptoc_value *i = vb_loop_begin(L, &rows, vb_index(L, 0), f->src_rows, vb_index(L, 1));
    ptoc_value *start = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", i, row_len), f->src_cols);
    ptoc_op *fresh = vb_vop(L, PTOC_PTO_VOP_INIT_ALIGN, 0, NULL, 1, &align, NULL, NULL, NULL, NULL);
    ptoc_value *init = vb_result0(fresh);
    ptoc_value *state;
    ptoc_value *c = vb_carry_begin(L, &regs, vb_index(L, 0), pad_cols, vb_index(L, f->ln.count), init, &state);
    ptoc_value *ops[5] = {state, vb_arith(L, "arith.subi", pad_cols, c), f->pad, f->dp,
                          vb_arith(L, "arith.addi", start, c)};
    ptoc_value *next = vb_result0(vb_vop(L, PTOC_PTO_VOP_VSTUS, 5, ops, 1, &align, NULL, NULL, NULL, NULL));
    state = vb_carry_end(L, &regs, next);
    ptoc_value *flush[3] = {state, f->dp, vb_arith(L, "arith.addi", start, pad_cols)};
    vb_vop(L, PTOC_PTO_VOP_VSTAS, 3, flush, 0, NULL, NULL, NULL, NULL, NULL);
    vb_loop_end(L, &rows);
}

/* The rows of dst below src's valid rows, as one flat run. */
static void fillpad_rows(vop_builder *L, const fillpad *f)
{
    ptoc_value *from = vb_arith(L, "arith.muli", f->src_rows, vb_index(L, f->dst_stride));
    ptoc_value *end = vb_index(L, f->dst_rows * f->dst_stride);
    vb_loop regs;
    ptoc_value *c = vb_loop_begin(L, &regs, from, end, vb_index(L, f->ln.count));
    store(L, &f->ln, f->pad, f->dp, c, vb_first(L, &f->ln, vb_arith(L, "arith.subi", end, c)));
    vb_loop_end(L, &regs);
}

static void fillpad_program(vop_builder *L, ptoc_value *src, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    ptoc_type *bits = ptoc_type_int(L->ctx, ptoc_type_bitwidth(d->elem), PTOC_SIGNLESS);
    fillpad f = {.ln = vb_lanes_of(L, bits), .src_stride = s->cols, .dst_stride = d->cols, .dst_rows = d->rows};
    f.sp = vb_tile_ptr(L, src, bits);
    f.dp = vb_tile_ptr(L, dst, bits);
    ptoc_op *sv = vb_tile_valid(L, src), *dv = vb_tile_valid(L, dst);
    f.src_rows = ptoc_op_result(sv, 0);
    f.src_cols = ptoc_op_result(sv, 1);
    ptoc_value *zero = vb_index(L, 0);
    vb_index(L, 1);
    vb_index(L, f.ln.count);
    vb_index(L, s->cols);
    vb_index(L, d->cols);
    vb_index(L, d->rows * d->cols);
    ptoc_type *mask = f.ln.mask;
    ptoc_pto_vop_id pid = f.ln.bits == 8    ? PTOC_PTO_VOP_PSET_B8
                          : f.ln.bits == 16 ? PTOC_PTO_VOP_PSET_B16
                                            : PTOC_PTO_VOP_PSET_B32;
    ptoc_value *all = vb_result0(vb_vop(L, pid, 0, NULL, 1, &mask, "pattern", "PAT_ALL", NULL, NULL));
    ptoc_value *dup[2] = {vb_int(L, bits, pad_bits(d->elem, d->pad)), all};
    f.pad = vb_result0(vb_vop(L, PTOC_PTO_VOP_VDUP, 2, dup, 1, &f.ln.vreg, NULL, NULL, NULL, NULL));
    /* nothing when dst's valid shape is empty (the cpu target's rule) */
    ptoc_value *rows_on = vb_cmpi(L, VB_CMP_NE, ptoc_op_result(dv, 0), zero);
    ptoc_value *cols_on = vb_cmpi(L, VB_CMP_NE, ptoc_op_result(dv, 1), zero);
    vb_if any;
    vb_if_begin(L, &any, vb_arith(L, "arith.andi", rows_on, cols_on));
    fillpad_copy(L, &f);
    fillpad_columns(L, &f);
    fillpad_rows(L, &f);
    vb_if_end(L, &any);
}

static void fillpad_lower(vop_builder *L, ptoc_op *op)
{
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *s = plain_tile(src), *d = plain_tile(dst);
    if (!s || !d || ptoc_type_bitwidth(s->elem) != ptoc_type_bitwidth(d->elem) ||
        ptoc_type_bitwidth(d->elem) == 64 || d->pad == PTOC_PTO_PAD_NULL || s->rows > d->rows ||
        s->cols > d->cols || (ptoc_pto_opcode(op) != PTOC_PTO_OP_TFILLPAD_EXPAND &&
                              (s->rows != d->rows || s->cols != d->cols)))
        return;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    fillpad_program(L, src, dst);
    ptoc_op_erase(op);
}

void a5_fill_lower(vop_builder *L, ptoc_op *op)
{
    if (a5_quant_lowers(ptoc_pto_opcode(op))) {
        a5_quant_lower(L, op);
        return;
    }
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TRANDOM) {
        a5_random_lower(L, op);         /* lower_a5_random.c */
        return;
    }
    if (vb_dps_ins(op) != 1)
        return;
    switch (ptoc_pto_opcode(op)) {
    case PTOC_PTO_OP_TEXPANDS: expands_lower(L, op); break;
    case PTOC_PTO_OP_TCI: tci_lower(L, op); break;
    case PTOC_PTO_OP_TTRI: ttri_lower(L, op); break;
    default: fillpad_lower(L, op); break;
    }
}
