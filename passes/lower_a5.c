/* lower_a5.c: the "pto-lower-a5" pass: vec tile ops to the A5 vector micro-ops.
 *
 * Each tile op that has an A5 lowering here becomes a pto.vecscope (a vector
 * function: the hardware library's __VEC_SCOPE__) with the op's ins and outs,
 * whose region is the micro-op program that pto-isa's include/pto/npu/a5
 * runs for the op: 256-byte registers (64 lanes of a 64-bit type, a lo/hi
 * pair), one tail predicate per register from plt_bN, NORM loads and stores.
 *
 *   tadd tsub tmul tdiv tmax tmin     vlds a, vlds b, vOP, vsts (TBinOp.hpp)
 *   tadds tsubs tmuls tmaxs tmins     vlds a, vOPs with the scalar, vsts (TBinSOp.hpp)
 *   tdivs, either operand order       the scalar broadcast by vbr once, then vdiv
 *   tmov vec -> vec                   vlds, vsts (any layout when both tiles share it and
 *                                     are valid as a whole: a flat copy)
 *   the tcolexpand family             the row read at the column offset (TColExpandBinOp.hpp)
 *   tcmp, tcmps                       vcmp, psts of the bits (TCmp.hpp; below)
 *   tsel, tsels                       plds of the bits, vsel (TSel.hpp, TSels.hpp; below)
 *   thistogram                        chistv2 banks into u32 bins (THistogram.hpp; below)
 *   tcvt                              vcvt chains (TCvt.hpp; lower_a5_convert.c)
 *   the unary ops, the remaining      one micro-op or a few per register (TUnaryOp.hpp ...;
 *   elementwise ops                   lower_a5_unary.c, lower_a5_ewx.c)
 *
 * The elementwise loops are the library's: when every tile's rows are contiguous (its
 * static valid columns are its columns, or it has one row) one loop runs over
 * the valid elements as a flat array (TBinOps_1D); otherwise a loop over dst's
 * valid rows holds a loop over the row's registers, each tile addressed by its
 * own row stride (TBinOps_2D). The tail predicate leaves the bytes past the
 * valid region as they were.
 *
 * An op the pass cannot lower (another op, a layout other than row_major
 * none_box, a scalar it would have to convert between int and float) stays
 * as it is; the a5 backend then says it is not supported yet.
 *
 * Requires: the DPS form on tiles with addresses (manual mode, or after
 *           pto-auto-mode); sync already inserted (a vecscope runs on V, as
 *           the op it replaces did, and touches the same tiles).
 * Produces: pto.vecscope ops in place of the lowered ones.
 */
#include "passes/lower_a5.h"
#include "passes/lower_scalar_unit.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <stdio.h>
#include <string.h>

typedef vop_builder lower;
typedef vb_loop loop;

/* ---------------------------------------------------------------- registers */

/* What one register of a tile's elements is. */
typedef struct lanes {
    ptoc_type *elem, *vreg, *mask;
    unsigned bits;              /* the predicate's granularity: the lane width, 32 for 64-bit pairs */
    int64_t count;              /* elements per register */
} lanes;

static lanes lanes_of(lower *L, ptoc_type *elem)
{
    unsigned ebits = ptoc_type_bitwidth(elem);
    lanes r = {elem, NULL, NULL, ebits == 64 ? 32 : ebits, ebits == 64 ? 64 : 2048 / ebits};
    r.vreg = ptoc_pto_vreg_type_get(L->ctx, elem, r.count);
    r.mask = ptoc_pto_mask_type_get(L->ctx, r.bits);
    return r;
}

static const char *store_dist(unsigned bits)
{
    return bits == 8 ? "NORM_B8" : bits == 16 ? "NORM_B16" : "NORM_B32";
}

/* The predicate of the first min(rem, count) lanes. */
static ptoc_value *tail_mask(lower *L, const lanes *ln, ptoc_value *rem)
{
    ptoc_type *types[2] = {ln->mask, L->index};
    return vb_result0(vb_vop(L, vb_plt(ln->bits), 1, &rem, 2, types, NULL, NULL, NULL, NULL));
}

static ptoc_value *load(lower *L, const lanes *ln, ptoc_value *ptr, ptoc_value *off)
{
    ptoc_value *ops[2] = {ptr, off};
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_VLDS, 2, ops, 1, &ln->vreg, "dist", "NORM", NULL, NULL));
}

static void store(lower *L, const lanes *ln, ptoc_value *v, ptoc_value *ptr, ptoc_value *off, ptoc_value *mask)
{
    ptoc_value *ops[4] = {v, ptr, off, mask};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, ops, 0, NULL, "dist", store_dist(ln->bits), NULL, NULL);
}

/* ---------------------------------------------------------------- elementwise */

/* How an elementwise op computes one register. */
typedef enum ew_form {
    EW_TILE_TILE,       /* vOP a, b */
    EW_TILE_SCALAR,     /* vOPs a, s */
    EW_BROADCAST,       /* vOP a, vbr(s) (or vbr(s), a when the scalar comes first) */
    EW_COPY,            /* a */
    EW_EXPDIF,          /* e^(a - b): vexpdif; on f16 vsub then vexp (TColExpandExpdif.hpp) */
} ew_form;

/* `expand`: one tile in is a row broadcast down dst's rows (the tcolexpand
 * family, TColExpandBinOp.hpp): src1 when src0's valid shape is dst's, else
 * src0; the result is src0 OP src1 either way. */
typedef struct ew_row { ptoc_pto_op_id op; ptoc_pto_vop_id vop; ew_form form; bool expand; } ew_row;

static const ew_row ew_rows[] = {
    {PTOC_PTO_OP_TADD, PTOC_PTO_VOP_VADD, EW_TILE_TILE},   {PTOC_PTO_OP_TSUB, PTOC_PTO_VOP_VSUB, EW_TILE_TILE},
    {PTOC_PTO_OP_TMUL, PTOC_PTO_VOP_VMUL, EW_TILE_TILE},   {PTOC_PTO_OP_TDIV, PTOC_PTO_VOP_VDIV, EW_TILE_TILE},
    {PTOC_PTO_OP_TMAX, PTOC_PTO_VOP_VMAX, EW_TILE_TILE},   {PTOC_PTO_OP_TMIN, PTOC_PTO_VOP_VMIN, EW_TILE_TILE},
    {PTOC_PTO_OP_TADDS, PTOC_PTO_VOP_VADDS, EW_TILE_SCALAR}, {PTOC_PTO_OP_TSUBS, PTOC_PTO_VOP_VSUBS, EW_TILE_SCALAR},
    {PTOC_PTO_OP_TMULS, PTOC_PTO_VOP_VMULS, EW_TILE_SCALAR}, {PTOC_PTO_OP_TMAXS, PTOC_PTO_VOP_VMAXS, EW_TILE_SCALAR},
    {PTOC_PTO_OP_TMINS, PTOC_PTO_VOP_VMINS, EW_TILE_SCALAR}, {PTOC_PTO_OP_TDIVS, PTOC_PTO_VOP_VDIV, EW_BROADCAST},
    {PTOC_PTO_OP_TMOV, PTOC_PTO_VOP_NONE, EW_COPY},
    {PTOC_PTO_OP_TCOLEXPAND, PTOC_PTO_VOP_NONE, EW_COPY, true},
    {PTOC_PTO_OP_TCOLEXPANDADD, PTOC_PTO_VOP_VADD, EW_TILE_TILE, true},
    {PTOC_PTO_OP_TCOLEXPANDSUB, PTOC_PTO_VOP_VSUB, EW_TILE_TILE, true},
    {PTOC_PTO_OP_TCOLEXPANDMUL, PTOC_PTO_VOP_VMUL, EW_TILE_TILE, true},
    {PTOC_PTO_OP_TCOLEXPANDDIV, PTOC_PTO_VOP_VDIV, EW_TILE_TILE, true},
    {PTOC_PTO_OP_TCOLEXPANDMAX, PTOC_PTO_VOP_VMAX, EW_TILE_TILE, true},
    {PTOC_PTO_OP_TCOLEXPANDMIN, PTOC_PTO_VOP_VMIN, EW_TILE_TILE, true},
    {PTOC_PTO_OP_TCOLEXPANDEXPDIF, PTOC_PTO_VOP_VEXPDIF, EW_EXPDIF, true},
};

static const ew_row *ew_row_of_opcode(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof ew_rows / sizeof ew_rows[0]; i++)
        if (ew_rows[i].op == opcode)
            return &ew_rows[i];
    return NULL;
}

static const ew_row *ew_row_of(const ptoc_op *op) { return ew_row_of_opcode(ptoc_pto_opcode(op)); }

bool ptoc_lower_a5_lowers(ptoc_pto_op_id opcode)
{
    return ew_row_of_opcode(opcode) != NULL || a5_reduce_lowers(opcode) || a5_rowexpand_lowers(opcode) ||
           a5_fill_lowers(opcode) || a5_convert_lowers(opcode) || a5_layout_lowers(opcode) ||
           a5_gather_lowers(opcode) || opcode == PTOC_PTO_OP_TSEL ||
           opcode == PTOC_PTO_OP_TSELS || opcode == PTOC_PTO_OP_TCMP || opcode == PTOC_PTO_OP_TCMPS ||
           opcode == PTOC_PTO_OP_THISTOGRAM || a5_unary_lowers(opcode) || a5_ewx_lowers(opcode) ||
           a5_sort_lowers(opcode) || a5_mov_lowers(opcode);
}

/* The op's operands, as the program reads them. */
typedef struct ew_op {
    const ew_row *row;
    ptoc_value *tiles[3];       /* the tile ins, then dst */
    uint32_t ntiles;
    ptoc_value *scalar;         /* the scalar in, or NULL */
    bool scalar_first;          /* tdivs ins(%s, %t) */
    int bcast;                  /* the tile in read as one row broadcast down dst's rows, or -1 */
} ew_op;

static bool plain_vec_tile(const ptoc_type *t, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(t);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && d->elem == elem;
}

/* Two vec tiles of one layout and shape, each valid as a whole: their bytes
 * are one flat array in the same order, whatever the layout (a tmov of
 * them is a flat copy). */
static bool whole_same_layout(const ptoc_type *a, const ptoc_type *b)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(a), *d = vb_tile_desc(b);
    return s && d && s->loc == PTOC_PTO_AS_VEC && d->loc == PTOC_PTO_AS_VEC && s->elem == d->elem &&
           s->rows == d->rows && s->cols == d->cols && s->blayout == d->blayout && s->slayout == d->slayout &&
           s->fractal == d->fractal && s->valid_rows == s->rows && s->valid_cols == s->cols &&
           d->valid_rows == d->rows && d->valid_cols == d->cols;
}

/* Reads the op's operands; false when this lowering does not apply. */
static bool ew_operands(const ptoc_op *op, const ew_row *row, ew_op *out)
{
    int nins = vb_dps_ins(op);
    if (nins < 0)
        return false;
    ptoc_value *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d)
        return false;
    *out = (ew_op){.row = row};
    for (uint32_t i = 0; i < (uint32_t)nins; i++) {
        ptoc_value *v = ptoc_op_operand(op, i);
        if (vb_tile_desc(v->type)) {
            if (out->ntiles == 2)
                return false;
            out->tiles[out->ntiles++] = v;
        } else if (out->scalar || row->form == EW_TILE_TILE || row->form == EW_COPY || row->form == EW_EXPDIF) {
            return false;
        } else {
            out->scalar = v;
            out->scalar_first = i == 0;
        }
    }
    out->tiles[out->ntiles++] = dst;
    bool whole_copy = row->form == EW_COPY && !row->expand && out->ntiles == 2 &&
                      whole_same_layout(out->tiles[0]->type, dst->type);
    for (uint32_t i = 0; i < out->ntiles && !whole_copy; i++)
        if (!plain_vec_tile(out->tiles[i]->type, d->elem))
            return false;
    bool scalar_form = row->form == EW_TILE_SCALAR || row->form == EW_BROADCAST;
    bool binary = row->form == EW_TILE_TILE || row->form == EW_EXPDIF;
    out->bcast = row->expand && !binary ? 0 : -1;
    return out->ntiles == (binary ? 3u : 2u) && (out->scalar != NULL) == scalar_form &&
           (row->form != EW_COPY || op->nattrs <= 1);
}

/* One register of dst from the registers at element offset `off` of the tile ins. */
static ptoc_value *ew_compute(lower *L, const ew_op *e, const lanes *ln, ptoc_value *const *ptrs,
                              ptoc_value *const *offs, ptoc_value *scalar, ptoc_value *mask)
{
    ptoc_value *a = load(L, ln, ptrs[0], offs[0]);
    if (e->row->form == EW_COPY)
        return a;
    bool binary = e->row->form == EW_TILE_TILE || e->row->form == EW_EXPDIF;
    ptoc_value *b = binary ? load(L, ln, ptrs[1], offs[1]) : scalar;
    ptoc_value *ops[3] = {a, b, mask};
    if (e->scalar_first) {
        ops[0] = b;
        ops[1] = a;
    }
    bool half = ln->elem->kind == PTOC_TYPE_FLOAT && ln->elem->u.fp.kind == PTOC_F16;
    if (e->row->form == EW_EXPDIF && half) {
        ptoc_value *d[2] = {vb_result0(vb_vop(L, PTOC_PTO_VOP_VSUB, 3, ops, 1, &ln->vreg, NULL, NULL, NULL, NULL)), mask};
        return vb_result0(vb_vop(L, PTOC_PTO_VOP_VEXP, 2, d, 1, &ln->vreg, NULL, NULL, NULL, NULL));
    }
    return vb_result0(vb_vop(L, e->row->vop, 3, ops, 1, &ln->vreg, NULL, NULL, NULL, NULL));
}

static int64_t row_stride(const ptoc_value *tile) { return vb_tile_desc(tile->type)->cols; }

/* Whether every tile's rows follow each other without a gap (TBinOps_1D);
 * never with a broadcast row. */
static bool contiguous(const ew_op *e)
{
    if (e->bcast >= 0)
        return false;
    bool all_full = true, all_one_row = true;
    for (uint32_t i = 0; i < e->ntiles; i++) {
        const ptoc_pto_tile_desc *d = vb_tile_desc(e->tiles[i]->type);
        all_full &= d->valid_cols == d->cols;
        all_one_row &= d->rows == 1;
    }
    return all_full || all_one_row;
}

/* The first i' <= i with the same tile (an in-place op reads and writes one). */
static uint32_t first_same(const ew_op *e, uint32_t i)
{
    uint32_t j = 0;
    while (e->tiles[j] != e->tiles[i])
        j++;
    return j;
}

static void ew_program(lower *L, const ew_op *e)
{
    uint32_t nt = e->ntiles, last = nt - 1;
    const ptoc_pto_tile_desc *d = vb_tile_desc(e->tiles[last]->type);
    lanes ln = lanes_of(L, d->elem);
    ptoc_value *ptrs[3], *offs[3], *row_base[3] = {NULL, NULL, NULL};
    for (uint32_t i = 0; i < nt; i++)
        ptrs[i] = first_same(e, i) < i ? ptrs[first_same(e, i)] : vb_tile_ptr(L, e->tiles[i], d->elem);
    ptoc_op *valid = vb_tile_valid(L, e->tiles[last]);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *scalar = e->scalar ? vb_scalar_as(L, e->scalar, d->elem) : NULL;
    if (scalar && e->row->form == EW_BROADCAST)
        scalar = vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &scalar, 1, &ln.vreg, NULL, NULL, NULL, NULL));
    bool flat = contiguous(e);
    ptoc_value *zero = vb_index(L, 0), *step = vb_index(L, ln.count);
    for (uint32_t i = 0; !flat && i < nt; i++)
        if ((int)i != e->bcast)
            (void)vb_index(L, row_stride(e->tiles[i]));
    loop rows, cols;
    ptoc_value *n = vcols;
    if (flat) {
        n = vb_arith(L, "arith.muli", vrows, vcols);
    } else {
        ptoc_value *r = vb_loop_begin(L, &rows, zero, vrows, vb_index(L, 1));
        for (uint32_t i = 0; i < nt; i++) {
            if ((int)i == e->bcast)
                continue;               /* the broadcast row: every row reads it */
            uint32_t j = 0;
            while ((int)j == e->bcast || row_stride(e->tiles[j]) != row_stride(e->tiles[i]))
                j++;
            row_base[i] = j < i ? row_base[j] : vb_arith(L, "arith.muli", r, vb_index(L, row_stride(e->tiles[i])));
        }
    }
    ptoc_value *c = vb_loop_begin(L, &cols, zero, n, step);
    ptoc_value *mask = tail_mask(L, &ln, vb_arith(L, "arith.subi", n, c));
    for (uint32_t i = 0; i < nt; i++) {
        uint32_t j = 0;
        while (row_base[j] != row_base[i])
            j++;
        offs[i] = j < i ? offs[j] : row_base[i] ? vb_arith(L, "arith.addi", row_base[i], c) : c;
    }
    ptoc_value *v = ew_compute(L, e, &ln, ptrs, offs, scalar, mask);
    store(L, &ln, v, ptrs[last], offs[last], mask);
    vb_loop_end(L, &cols);
    if (!flat)
        vb_loop_end(L, &rows);
}

/* Whether src0's valid shape is dst's, when both are static (*known). */
static bool src0_full(const ew_op *e, bool *known)
{
    const ptoc_pto_tile_desc *a = vb_tile_desc(e->tiles[0]->type), *d = vb_tile_desc(e->tiles[2]->type);
    *known = a->valid_rows != PTOC_DYNAMIC && a->valid_cols != PTOC_DYNAMIC && d->valid_rows != PTOC_DYNAMIC &&
             d->valid_cols != PTOC_DYNAMIC;
    return a->valid_rows == d->valid_rows && a->valid_cols == d->valid_cols;
}

/* The binary tcolexpand ops: src1 is the row when src0's valid shape is dst's,
 * else src0, decided at run time (an scf.if) when a shape is dynamic, as the
 * hardware library decides it. */
static void expand_program(lower *L, ew_op *e)
{
    bool known, full = src0_full(e, &known);
    if (known) {
        e->bcast = full ? 1 : 0;
        ew_program(L, e);
        return;
    }
    ptoc_value *cond = vb_same_valid(L, e->tiles[0], e->tiles[2]);
    ptoc_op *branch = ptoc_builder_create(&L->b, "scf.if", 1, &cond, 0, NULL, 0, NULL, 2);
    ptoc_builder after = L->b;
    for (uint32_t k = 0; k < 2; k++) {
        ptoc_block *blk = ptoc_block_create(L->b.arena);
        ptoc_region_append(&branch->regions[k], blk);
        ptoc_builder_set_end(&L->b, blk);
        L->nconsts = 0;                 /* constants do not dominate the other branch */
        e->bcast = k == 0 ? 1 : 0;
        ew_program(L, e);
        ptoc_builder_create(&L->b, "scf.yield", 0, NULL, 0, NULL, 0, NULL, 0);
    }
    L->b = after;
}

/* ---------------------------------------------------------------- the vecscope */

/* ---------------------------------------------------------------- tcmp, tcmps */

/* tcmp ins(src0, src1 {cmpMode}) and tcmps ins(src, rhs {cmpMode}) outs(mask):
 * bit j % 8 of byte j / 8 of mask row i is src[i, j] CMP rhs (rhs[0, 0] for
 * a tile rhs of tcmps). Per register of src (a5/TCmp.hpp): vcmp (vcmps)
 * under the tail predicate, so the bits past the valid columns are 0, then
 * psts of the predicate into the row's bytes: NORM for b8 lanes, PK for b16,
 * and for b32 lanes (64-bit ones too, after pto-split-u64) pdintlv_b8 with an
 * empty predicate first, which leaves two bits per lane, then PK. The
 * library pairs two b32 registers per psts; one at a time computes the same.
 * psts writes 32 or 16 bytes; tcmp writes the row's ceil(valid cols / 8)
 * bytes only, so the program loads the chunk's old bytes first and stores
 * back those past the valid ones (docs/decisions.md). */
typedef struct cmp_op {
    ptoc_value *src, *rhs, *mask;   /* rhs: a tile (tcmp, or tcmps' tile form) or a scalar */
    const char *mode;
    bool scalar;                    /* tcmps */
} cmp_op;

static bool cmp_operands(const ptoc_op *op, cmp_op *out)
{
    uint32_t mode = PTOC_PTO_CMP_EQ;
    if (vb_dps_ins(op) != 2)
        return false;
    ptoc_attr *a = ptoc_op_attr(op, "cmpMode");
    if (a && !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_CMP, &mode))
        return false;
    static const char *const modes[] = {[PTOC_PTO_CMP_EQ] = "eq", [PTOC_PTO_CMP_NE] = "ne", [PTOC_PTO_CMP_LT] = "lt",
                                        [PTOC_PTO_CMP_LE] = "le", [PTOC_PTO_CMP_GT] = "gt", [PTOC_PTO_CMP_GE] = "ge"};
    if (mode >= sizeof modes / sizeof modes[0] || !modes[mode])
        return false;
    *out = (cmp_op){ptoc_op_operand(op, 0), ptoc_op_operand(op, 1), ptoc_op_operand(op, 2), modes[mode],
                    ptoc_pto_is(op, PTOC_PTO_OP_TCMPS)};
    const ptoc_pto_tile_desc *s = vb_tile_desc(out->src->type), *m = vb_tile_desc(out->mask->type);
    if (!s || !m || !ptoc_type_is_int(m->elem) || !plain_vec_tile(out->src->type, s->elem) ||
        !plain_vec_tile(out->mask->type, m->elem))
        return false;
    if (vb_tile_desc(out->rhs->type))
        return plain_vec_tile(out->rhs->type, s->elem);
    return out->scalar && vb_scalar_fits(out->rhs->type, s->elem);
}

/* The packed bits of a compare predicate, ready for psts PK (b16, b32) or
 * NORM (b8). */
static ptoc_value *packable(lower *L, const lanes *ln, ptoc_value *p)
{
    if (ln->bits != 32)
        return p;
    ptoc_type *b8 = ptoc_pto_mask_type_get(L->ctx, 8), *two[2] = {b8, b8};
    ptoc_value *none = vb_result0(vb_vop(L, PTOC_PTO_VOP_PSET_B8, 0, NULL, 1, &b8, "pattern", "PAT_ALLF", NULL, NULL));
    ptoc_value *ops[2] = {p, none};
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_PDINTLV_B8, 2, ops, 2, two, NULL, NULL, NULL, NULL));
}

static void cmp_program(lower *L, const cmp_op *c)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(c->src->type), *m = vb_tile_desc(c->mask->type);
    const ptoc_pto_tile_desc *rt = vb_tile_desc(c->rhs->type);
    lanes ln = lanes_of(L, s->elem);
    ptoc_type *u8 = ptoc_type_int(L->ctx, 8, PTOC_UNSIGNED);
    lanes bytes = lanes_of(L, u8);
    ptoc_value *ps = vb_tile_ptr(L, c->src, s->elem), *pr = rt ? vb_tile_ptr(L, c->rhs, s->elem) : NULL;
    ptoc_value *pm = vb_tile_ptr(L, c->mask, u8);
    ptoc_op *valid = vb_tile_valid(L, c->src);
    int64_t chunk = ln.bits == 8 ? 32 : 16;            /* the bytes one psts writes */
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *seven = vb_index(L, 7), *three = vb_index(L, 3);
    ptoc_value *step = vb_index(L, ln.count), *nchunk = vb_index(L, chunk);
    ptoc_value *mstride = vb_index(L, m->cols * (int64_t)ptoc_pto_elem_bytes(m->elem));
    ptoc_value *sstride = vb_index(L, s->cols), *rstride = rt && !c->scalar ? vb_index(L, rt->cols) : NULL;
    ptoc_value *rhs = NULL;             /* the scalar (or rhs[0,0]) in every lane */
    if (c->scalar && rt) {
        ptoc_value *ops[2] = {pr, zero};
        char dist[8];
        snprintf(dist, sizeof dist, "BRC_B%u", ln.bits);
        rhs = vb_result0(vb_vop(L, PTOC_PTO_VOP_VLDS, 2, ops, 1, &ln.vreg, "dist", dist, NULL, NULL));
    }
    ptoc_value *scalar = c->scalar && !rt ? vb_scalar_as(L, c->rhs, s->elem) : NULL;
    loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, ptoc_op_result(valid, 0), one);
    ptoc_value *mrow = vb_arith(L, "arith.muli", r, mstride), *srow = vb_arith(L, "arith.muli", r, sstride);
    ptoc_value *rrow = rstride ? vb_arith(L, "arith.muli", r, rstride) : NULL;
    ptoc_value *vc = ptoc_op_result(valid, 1);
    ptoc_value *col = vb_loop_begin(L, &cols, zero, vc, step);
    ptoc_value *left = vb_arith(L, "arith.subi", vc, col);
    ptoc_value *tail = tail_mask(L, &ln, left);
    ptoc_value *x = load(L, &ln, ps, vb_arith(L, "arith.addi", srow, col));
    ptoc_value *y = rrow ? load(L, &ln, pr, vb_arith(L, "arith.addi", rrow, col)) : rhs ? rhs : scalar;
    ptoc_value *cops[3] = {x, y, tail};
    ptoc_value *bits = vb_result0(vb_vop(L, scalar ? PTOC_PTO_VOP_VCMPS : PTOC_PTO_VOP_VCMP, 3, cops, 1, &ln.mask,
                                         "cmp_mode", c->mode, NULL, NULL));
    ptoc_value *boff = vb_arith(L, "arith.addi", mrow, vb_arith(L, "arith.shrui", col, three));
    ptoc_value *old = load(L, &bytes, pm, boff);       /* before psts overwrites the chunk */
    ptoc_value *sops[3] = {packable(L, &ln, bits), pm, boff};
    vb_vop(L, PTOC_PTO_VOP_PSTS, 3, sops, 0, NULL, "dist", ln.bits == 8 ? "NORM" : "PK", NULL, NULL);
    /* the chunk's bytes past the valid ones: ceil(left / 8) of them are the row's */
    ptoc_value *valid_bytes = vb_arith(L, "arith.shrui", vb_arith(L, "arith.addi", left, seven), three);
    ptoc_value *in_chunk = tail_mask(L, &bytes, nchunk), *kept = tail_mask(L, &bytes, valid_bytes);
    ptoc_value *pops[2] = {kept, in_chunk};
    ptoc_value *restore = vb_result0(vb_vop(L, PTOC_PTO_VOP_PNOT, 2, pops, 1, &bytes.mask, NULL, NULL, NULL, NULL));
    store(L, &bytes, old, pm, boff, restore);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

static void replace_cmp(lower *L, ptoc_op *op, const cmp_op *c)
{
    ptoc_value *tiles[3] = {c->src, c->rhs, c->mask};
    bool tile_rhs = vb_tile_desc(c->rhs->type) != NULL;
    if (!tile_rhs)
        tiles[1] = c->mask;
    vb_open_vecscope(L, op, tiles, tile_rhs ? 3 : 2, 1);
    cmp_program(L, c);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- thistogram */

/* thistogram ins(src, idx) outs(dst): dst[r, b] = the number of counted
 * elements of row r whose selected byte is at most b (cumulative). The
 * program is a5/THistogram.hpp's: per 256 elements of a row, the selected
 * byte as one u8 register (u16 src: vldsx2 DINTLV_B8 of the row's bytes; u32
 * src: two such loads and vdintlv of their halves), the filter as vcmp eq of
 * the bytes above it against idx (u16: idx[r,0], u32: idx[0..2,0]) chained as
 * seeds, chistv2 into both u16 banks, each widened by vcvt EVEN/ODD and
 * added to four u32 accumulators, stored per row by vstsx2 INTLV_B32: bins
 * 0-127, then 128-255. */
typedef struct hist_op {
    ptoc_value *src, *idx, *dst;
    int byte;                       /* the selected byte, 0 = LSB */
} hist_op;

static bool hist_operands(const ptoc_op *op, hist_op *out)
{
    if (vb_dps_ins(op) != 2)
        return false;
    *out = (hist_op){ptoc_op_operand(op, 0), ptoc_op_operand(op, 1), ptoc_op_operand(op, 2), 0};
    const ptoc_pto_tile_desc *s = vb_tile_desc(out->src->type), *i = vb_tile_desc(out->idx->type);
    const ptoc_pto_tile_desc *d = vb_tile_desc(out->dst->type);
    if (!s || !i || !d || !ptoc_type_is_int(s->elem) || !ptoc_type_is_int(i->elem) ||
        ptoc_type_bitwidth(i->elem) != 8 || !plain_vec_tile(out->src->type, s->elem) ||
        !plain_vec_tile(out->dst->type, d->elem) || ptoc_type_bitwidth(d->elem) != 32 || d->cols < 256 ||
        i->slayout != PTOC_PTO_SL_NONE_BOX)
        return false;
    unsigned bits = ptoc_type_bitwidth(s->elem);
    if (bits != 16 && bits != 32)
        return false;
    ptoc_attr *b = ptoc_op_attr(op, "byte"), *msb = ptoc_op_attr(op, "isMSB");
    out->byte = bits == 16 ? 1 : 3;
    if (msb && msb->kind == PTOC_ATTR_BOOL)
        out->byte = msb->u.boolean ? 1 : 0;
    else if (b && b->kind == PTOC_ATTR_INTEGER)
        out->byte = (int)b->u.integer.value;
    return out->byte >= 0 && out->byte <= (bits == 16 ? 1 : 3);
}

/* The offset of idx[row, 0] in elements. */
static ptoc_value *idx_offset(lower *L, const ptoc_pto_tile_desc *i, ptoc_value *row)
{
    return i->blayout == PTOC_PTO_BL_COL_MAJOR ? row : vb_arith(L, "arith.muli", row, vb_index(L, i->cols));
}

static ptoc_value *broadcast_byte(lower *L, const lanes *b8, ptoc_value *iptr, ptoc_value *off)
{
    ptoc_value *ops[2] = {iptr, off};
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_VLDS, 2, ops, 1, &b8->vreg, "dist", "BRC_B8", NULL, NULL));
}

/* chistv2 of `bytes` into a zeroed u16 bank, its even and odd lanes added to acc[0], acc[1]. */
static void count_bank(lower *L, ptoc_value *bytes, ptoc_value *pred, const char *bank, ptoc_value **acc,
                       ptoc_value *zero16, const lanes *b16, const lanes *b32, ptoc_value *all16, ptoc_value *all32)
{
    ptoc_value *hops[3] = {zero16, bytes, pred};
    ptoc_value *h = vb_result0(vb_vop(L, PTOC_PTO_VOP_CHISTV2, 3, hops, 1, &b16->vreg, "bank", bank, NULL, NULL));
    for (int part = 0; part < 2; part++) {
        ptoc_value *cops[2] = {h, all16};
        ptoc_value *w = vb_result0(vb_vop(L, PTOC_PTO_VOP_VCVT, 2, cops, 1, &b32->vreg, "part", part ? "ODD" : "EVEN",
                                          NULL, NULL));
        ptoc_value *aops[3] = {acc[part], w, all32};
        acc[part] = vb_result0(vb_vop(L, PTOC_PTO_VOP_VADD, 3, aops, 1, &b32->vreg, NULL, NULL, NULL, NULL));
    }
}

static void hist_program(lower *L, const hist_op *h)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(h->src->type), *i = vb_tile_desc(h->idx->type);
    const ptoc_pto_tile_desc *d = vb_tile_desc(h->dst->type);
    bool wide = ptoc_type_bitwidth(s->elem) == 32;
    ptoc_type *u8 = ptoc_type_int(L->ctx, 8, PTOC_UNSIGNED), *u16 = ptoc_type_int(L->ctx, 16, PTOC_UNSIGNED);
    ptoc_type *u32 = ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED);
    lanes b8 = lanes_of(L, u8), b16 = lanes_of(L, u16), b32 = lanes_of(L, u32);
    ptoc_value *sp = vb_tile_ptr(L, h->src, u8), *ip = vb_tile_ptr(L, h->idx, u8), *dp = vb_tile_ptr(L, h->dst, u32);
    ptoc_op *valid = vb_tile_valid(L, h->src);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, 256);
    ptoc_value *ebytes = vb_index(L, wide ? 4 : 2), *rbytes = vb_index(L, s->cols * (wide ? 4 : 2));
    ptoc_value *dstride = vb_index(L, d->cols), *half = vb_index(L, 128), *second = vb_index(L, 512);
    ptoc_type *m16 = b16.mask, *m32 = b32.mask;
    ptoc_value *all16 = vb_result0(vb_vop(L, PTOC_PTO_VOP_PSET_B16, 0, NULL, 1, &m16, "pattern", "PAT_ALL", NULL,
                                          NULL));
    ptoc_value *all32 = vb_result0(vb_vop(L, PTOC_PTO_VOP_PSET_B32, 0, NULL, 1, &m32, "pattern", "PAT_ALL", NULL,
                                          NULL));
    ptoc_value *z16 = vb_int(L, ptoc_type_int(L->ctx, 16, PTOC_SIGNLESS), 0);
    ptoc_value *z32 = vb_int(L, ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS), 0);
    ptoc_value *zero16 = vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &z16, 1, &b16.vreg, NULL, NULL, NULL, NULL));
    ptoc_value *zero32 = vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &z32, 1, &b32.vreg, NULL, NULL, NULL, NULL));
    ptoc_value *tile_want[3] = {NULL, NULL, NULL};     /* u32: idx[0..2, 0] against bytes 3, 2, 1 */
    for (int k = 0; wide && k < 3 - h->byte; k++)
        tile_want[k] = broadcast_byte(L, &b8, ip, idx_offset(L, i, vb_index(L, k)));
    loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, ptoc_op_result(valid, 0), one);
    ptoc_value *row_want = !wide && h->byte == 0 ? broadcast_byte(L, &b8, ip, idx_offset(L, i, r)) : NULL;
    ptoc_value *srow = vb_arith(L, "arith.muli", r, rbytes);
    ptoc_value *vc = ptoc_op_result(valid, 1);
    /* the row's chunks: an scf.for carrying the four u32 accumulators */
    ptoc_value *inits[4] = {zero32, zero32, zero32, zero32};
    ptoc_value *ops[7] = {zero, vc, step, inits[0], inits[1], inits[2], inits[3]};
    ptoc_type *accs[4] = {b32.vreg, b32.vreg, b32.vreg, b32.vreg};
    ptoc_op *loop_op = ptoc_builder_create(&L->b, "scf.for", 7, ops, 4, accs, 0, NULL, 1);
    ptoc_block *body = ptoc_block_create(L->b.arena);
    ptoc_value *col = ptoc_block_add_arg(body, L->b.arena, L->index, L->b.loc);
    ptoc_value *acc[4];
    for (int k = 0; k < 4; k++)
        acc[k] = ptoc_block_add_arg(body, L->b.arena, b32.vreg, L->b.loc);
    ptoc_region_append(&loop_op->regions[0], body);
    cols.after = L->b;
    ptoc_builder_set_end(&L->b, body);
    ptoc_value *pred = tail_mask(L, &b8, vb_arith(L, "arith.subi", vc, col));
    ptoc_value *off = vb_arith(L, "arith.addi", srow, vb_arith(L, "arith.muli", col, ebytes));
    ptoc_value *byte[4] = {NULL, NULL, NULL, NULL};
    ptoc_type *two[2] = {b8.vreg, b8.vreg};
    ptoc_value *lops[2] = {sp, off};
    ptoc_op *lo = vb_vop(L, PTOC_PTO_VOP_VLDSX2, 2, lops, 2, two, "dist", "DINTLV_B8", NULL, NULL);
    if (!wide) {
        byte[0] = ptoc_op_result(lo, 0);
        byte[1] = ptoc_op_result(lo, 1);
    } else {
        ptoc_value *hops[2] = {sp, vb_arith(L, "arith.addi", off, second)};
        ptoc_op *hi = vb_vop(L, PTOC_PTO_VOP_VLDSX2, 2, hops, 2, two, "dist", "DINTLV_B8", NULL, NULL);
        for (int k = 0; k < 2; k++) {
            ptoc_value *dops[2] = {ptoc_op_result(lo, (uint32_t)k), ptoc_op_result(hi, (uint32_t)k)};
            ptoc_op *split = vb_vop(L, PTOC_PTO_VOP_VDINTLV, 2, dops, 2, two, NULL, NULL, NULL, NULL);
            byte[k] = ptoc_op_result(split, 0);          /* bytes 0, 1 */
            byte[k + 2] = ptoc_op_result(split, 1);      /* bytes 2, 3 */
        }
    }
    ptoc_value *filter = pred;
    if (row_want) {
        ptoc_value *fops[3] = {byte[1], row_want, filter};
        filter = vb_result0(vb_vop(L, PTOC_PTO_VOP_VCMP, 3, fops, 1, &b8.mask, "cmp_mode", "eq", NULL, NULL));
    }
    for (int k = 0; wide && k < 3 - h->byte; k++) {
        ptoc_value *fops[3] = {byte[3 - k], tile_want[k], filter};
        filter = vb_result0(vb_vop(L, PTOC_PTO_VOP_VCMP, 3, fops, 1, &b8.mask, "cmp_mode", "eq", NULL, NULL));
    }
    count_bank(L, byte[h->byte], filter, "N0", acc, zero16, &b16, &b32, all16, all32);
    count_bank(L, byte[h->byte], filter, "N1", acc + 2, zero16, &b16, &b32, all16, all32);
    ptoc_builder_create(&L->b, "scf.yield", 4, acc, 0, NULL, 0, NULL, 0);
    L->b = cols.after;
    ptoc_value *drow = vb_arith(L, "arith.muli", r, dstride);
    for (int bank = 0; bank < 2; bank++) {
        ptoc_value *at = bank ? vb_arith(L, "arith.addi", drow, half) : drow;
        ptoc_value *sops[5] = {ptoc_op_result(loop_op, (uint32_t)(2 * bank)),
                               ptoc_op_result(loop_op, (uint32_t)(2 * bank + 1)), dp, at, all32};
        vb_vop(L, PTOC_PTO_VOP_VSTSX2, 5, sops, 0, NULL, "dist", "INTLV_B32", NULL, NULL);
    }
    vb_loop_end(L, &rows);
}

static void replace_hist(lower *L, ptoc_op *op, const hist_op *h)
{
    ptoc_value *tiles[3] = {h->src, h->idx, h->dst};
    vb_open_vecscope(L, op, tiles, 3, 1);
    hist_program(L, h);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- tsel, tsels */

/* tsel ins(mask, src0, src1[, tmp]) and tsels ins(mask, src[, tmp], scalar):
 * dst = mask bit ? src0 : src1 (or the scalar), per element, the bit of
 * element (i, j) being bit j % 8 of byte j / 8 of mask row i. The hardware
 * library (a5/TSels.hpp, TSel.hpp) loads each register's bits with plds at
 * the row's byte offset plus one bit per element: NORM for b8 lanes (32
 * bytes, a bit per byte lane), US for b16 (each bit doubled), and for b32
 * lanes US then punpack LOWER (its one-register path, which 64-bit lanes
 * take too). tmp is not used on A5. */
typedef struct sel_op {
    ptoc_value *mask, *src0, *src1, *dst;   /* src1 NULL: tsels */
    ptoc_value *scalar;
} sel_op;

static bool sel_operands(const ptoc_op *op, sel_op *out)
{
    int nins = vb_dps_ins(op);
    bool scalar = ptoc_pto_is(op, PTOC_PTO_OP_TSELS);
    if (nins < 3)
        return false;
    *out = (sel_op){ptoc_op_operand(op, 0), ptoc_op_operand(op, 1), scalar ? NULL : ptoc_op_operand(op, 2),
                    ptoc_op_operand(op, nins), scalar ? ptoc_op_operand(op, nins - 1) : NULL};
    const ptoc_pto_tile_desc *d = vb_tile_desc(out->dst->type), *m = vb_tile_desc(out->mask->type);
    if (!d || !m || !ptoc_type_is_int(m->elem) || !plain_vec_tile(out->mask->type, m->elem) ||
        !plain_vec_tile(out->src0->type, d->elem) || !plain_vec_tile(out->dst->type, d->elem) ||
        (out->src1 && !plain_vec_tile(out->src1->type, d->elem)))
        return false;
    return !out->scalar || vb_scalar_fits(out->scalar->type, d->elem);
}

/* The predicate of the register at element column `col` of mask row `row`. */
static ptoc_value *mask_bits(lower *L, const lanes *ln, ptoc_value *mptr, ptoc_value *row_bytes, ptoc_value *col)
{
    ptoc_value *off = vb_arith(L, "arith.addi", row_bytes, vb_arith(L, "arith.shrui", col, vb_index(L, 3)));
    ptoc_value *ops[2] = {mptr, off};
    unsigned bits = ln->bits;
    ptoc_type *loaded = ptoc_pto_mask_type_get(L->ctx, bits == 8 ? 8 : 16);
    ptoc_value *p = vb_result0(vb_vop(L, PTOC_PTO_VOP_PLDS, 2, ops, 1, &loaded, "dist", bits == 8 ? "NORM" : "US",
                                      NULL, NULL));
    if (bits != 32)
        return p;
    ptoc_value *lower_half[1] = {p};
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_PUNPACK, 1, lower_half, 1, &ln->mask, "part", "LOWER", NULL, NULL));
}

static void select_program(lower *L, const sel_op *s)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(s->dst->type), *m = vb_tile_desc(s->mask->type);
    lanes ln = lanes_of(L, d->elem);
    ptoc_value *mptr = vb_tile_ptr(L, s->mask, m->elem), *p0 = vb_tile_ptr(L, s->src0, d->elem);
    ptoc_value *p1 = s->src1 ? vb_tile_ptr(L, s->src1, d->elem) : NULL, *pd = vb_tile_ptr(L, s->dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, s->dst);
    ptoc_value *fill = NULL;
    if (s->scalar) {
        ptoc_value *sc = vb_scalar_as(L, s->scalar, d->elem);
        fill = vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &sc, 1, &ln.vreg, NULL, NULL, NULL, NULL));
    }
    const ptoc_pto_tile_desc *t0 = vb_tile_desc(s->src0->type);
    const ptoc_pto_tile_desc *t1 = s->src1 ? vb_tile_desc(s->src1->type) : d;
    ptoc_value *zero = vb_index(L, 0), *step = vb_index(L, ln.count), *one = vb_index(L, 1);
    ptoc_value *mstride = vb_index(L, m->cols * (int64_t)ptoc_pto_elem_bytes(m->elem));
    ptoc_value *s0 = vb_index(L, t0->cols), *s1 = vb_index(L, t1->cols), *sd = vb_index(L, d->cols);
    (void)vb_index(L, 3);                   /* mask_bits' shift, made here, before the loops */
    loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, ptoc_op_result(valid, 0), one);
    ptoc_value *mrow = vb_arith(L, "arith.muli", r, mstride);
    ptoc_value *b0 = vb_arith(L, "arith.muli", r, s0), *b1 = vb_arith(L, "arith.muli", r, s1);
    ptoc_value *bd = vb_arith(L, "arith.muli", r, sd);
    ptoc_value *vc = ptoc_op_result(valid, 1);
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vc, step);
    ptoc_value *tail = tail_mask(L, &ln, vb_arith(L, "arith.subi", vc, c));
    ptoc_value *sel = mask_bits(L, &ln, mptr, mrow, c);
    ptoc_value *x = load(L, &ln, p0, vb_arith(L, "arith.addi", b0, c));
    ptoc_value *y = p1 ? load(L, &ln, p1, vb_arith(L, "arith.addi", b1, c)) : fill;
    ptoc_value *ops[3] = {x, y, sel};
    ptoc_value *z = vb_result0(vb_vop(L, PTOC_PTO_VOP_VSEL, 3, ops, 1, &ln.vreg, NULL, NULL, NULL, NULL));
    store(L, &ln, z, pd, vb_arith(L, "arith.addi", bd, c), tail);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

static void replace_select(lower *L, ptoc_op *op, const sel_op *s)
{
    ptoc_value *tiles[4] = {s->mask, s->src0, s->src1, s->dst};
    if (!s->src1)
        tiles[2] = s->dst;
    vb_open_vecscope(L, op, tiles, s->src1 ? 4 : 3, 1);
    select_program(L, s);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- the pass */

/* Replaces `op` by a pto.vecscope over the same ins and outs holding the program. */
/* Replaces an elementwise op by a vecscope over its tile operands. */
static void replace_by_vecscope(lower *L, ptoc_op *op, ew_op *e)
{
    uint32_t nins, nouts;
    ptoc_pto_dps_split(op, &nins, &nouts);
    ptoc_value **operands = PTOC_NEW_ARRAY(L->b.arena, ptoc_value *, op->noperands);
    uint32_t n = 0;
    for (uint32_t i = 0; i < op->noperands; i++)
        if (vb_tile_desc(ptoc_op_operand(op, i)->type))
            operands[n++] = ptoc_op_operand(op, i);
    vb_open_vecscope(L, op, operands, n, nouts);
    if (e->row->expand && e->bcast < 0)
        expand_program(L, e);
    else
        ew_program(L, e);
    ptoc_op_erase(op);
}

/* Whether scalar_as can give the scalar the element type. */
static bool lowerable(const ew_op *e)
{
    return !e->scalar || vb_scalar_fits(e->scalar->type, vb_tile_desc(e->tiles[0]->type)->elem);
}

static bool is_select(const ptoc_op *op) { return ptoc_pto_is(op, PTOC_PTO_OP_TSEL) || ptoc_pto_is(op, PTOC_PTO_OP_TSELS); }
static bool is_cmp(const ptoc_op *op) { return ptoc_pto_is(op, PTOC_PTO_OP_TCMP) || ptoc_pto_is(op, PTOC_PTO_OP_TCMPS); }
static bool is_hist(const ptoc_op *op) { return ptoc_pto_is(op, PTOC_PTO_OP_THISTOGRAM); }

static void lower_one(lower *L, ptoc_op *op)
{
    ew_op e;
    sel_op s;
    cmp_op c;
    hist_op h;
    if (scalar_unit_claims(op)) {
        scalar_unit_lower(L, op);
    } else if (a5_convert_lowers(ptoc_pto_opcode(op))) {
        a5_convert_lower(L, op);
    } else if (a5_reduce_lowers(ptoc_pto_opcode(op))) {
        a5_reduce_lower(L, op);
    } else if (a5_rowexpand_lowers(ptoc_pto_opcode(op))) {
        a5_rowexpand_lower(L, op);
    } else if (a5_fill_lowers(ptoc_pto_opcode(op))) {
        a5_fill_lower(L, op);
    } else if (a5_unary_lowers(ptoc_pto_opcode(op))) {
        a5_unary_lower(L, op);
    } else if (a5_ewx_lowers(ptoc_pto_opcode(op))) {
        a5_ewx_lower(L, op);
    } else if (a5_layout_lowers(ptoc_pto_opcode(op))) {
        a5_layout_lower(L, op);
    } else if (a5_gather_lowers(ptoc_pto_opcode(op))) {
        a5_gather_lower(L, op);
    } else if (a5_sort_lowers(ptoc_pto_opcode(op))) {
        a5_sort_lower(L, op);
    } else if (a5_mov_lowers(ptoc_pto_opcode(op))) {
        a5_mov_lower(L, op);
    } else if (is_hist(op)) {
        if (hist_operands(op, &h))
            replace_hist(L, op, &h);
    } else if (is_cmp(op)) {
        if (cmp_operands(op, &c))
            replace_cmp(L, op, &c);
    } else if (is_select(op)) {
        if (sel_operands(op, &s))
            replace_select(L, op, &s);
    } else if (ew_operands(op, ew_row_of(op), &e) && lowerable(&e))
        replace_by_vecscope(L, op, &e);
    else if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TMOV)
        a5_mov_lower(L, op);
}

static bool run_lower_a5(ptoc_op *func, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)opts;
    vb_lower_each(func, arena, ptoc_lower_a5_lowers, lower_one);
    return true;
}

const ptoc_pass_def ptoc_lower_a5_pass = {
    .name = "pto-lower-a5",
    .summary = "Lower vec tile ops to A5 vector micro-ops in pto.vecscope functions",
    .anchor = "func.func",
    .run = run_lower_a5,
    .option_names = NULL,
};
