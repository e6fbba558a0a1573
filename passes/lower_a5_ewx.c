/* lower_a5_ewx.c: pto-lower-a5's remaining elementwise ops (pto-isa
 * include/pto/npu/a5), on a5_map's loop (lower_a5_ew.h).
 *
 *   tand tor txor              vand, vor, vxor (TAnd.hpp...: registers of the
 *   tands tors txors           element's bits, an unsigned integer of its width,
 *                              so float tiles too); the scalar forms vbr the
 *                              scalar's bits once, before the loop
 *   tshl tshr                  vshl, vshr (TShl.hpp, TShr.hpp); tshls tshrs: vshls,
 *   tshls tshrs                vshrs; 64-bit types through pto-split-u64
 *   tprelu tlrelu              a > 0 ? a : a * slope: vcmps gt 0, vmul (vmuls),
 *                              vsel; the library's vprelu and vlrelu compute the
 *                              same (TPrelu.hpp, TLRelu.hpp)
 *   taddc tsubc                vadd / vsub, then vadd of the third tile; taddsc
 *   taddsc tsubsc              tsubsc: vadds / vsubs first (the library has none);
 *                              on floats a NaN first step is kept (vcmp ne of it
 *                              with itself, vsel): which of two NaNs a vadd
 *                              returns is LLVM's choice, the cpu target fixes it
 *   tpartadd tpartmul          over dst's valid region, by rows: each source's
 *   tpartmax tpartmin          predicate (its valid columns when the row is one of
 *                              its valid rows), vOP where both hold, else the
 *                              source that holds, else 0: vsel twice
 *                              (TPartBinOps.hpp's vmov merge, for any shapes)
 *   tfmod tfmods (integers)    a - (a / b) * b: vdiv, vmul, vsub (TFMod.hpp's
 *                              integer path); x / 0 = -1 makes x % 0 = x
 *   trem trems (integers)      that, then + b where r != 0 and a, b lie on
 *                              different sides of 0 (vcmps, pxor, pand, vadd
 *                              under that predicate)
 *
 *   taxpy                      vmuls then vadd, dst read as a second in (the
 *                              library's vaxpy is fused; the cpu target rounds
 *                              the product); a NaN dst is kept (vcmp ne, vsel);
 *                              an f16 src of an f32 dst is read into f32 lanes
 *                              (UNPK_B16, vcvt EVEN, as TAxpy.hpp widens)
 *
 * Not lowered (they stay; the a5 backend says so): float trem, tfmod (the
 * library's division and truncation differ from the exact fmod the cpu target
 * computes). The tmp operand is not touched.
 */
#include "passes/lower_a5_ew.h"
#include "ptoc/ptoc.h"

typedef enum x_kind { K_BITWISE, K_SHIFT, K_PRELU, K_ADDC, K_PART, K_FMOD, K_REM, K_AXPY } x_kind;

/* `vop` computes the first step; `scalar`: the form with a scalar in. */
typedef struct x_row { ptoc_pto_op_id op; x_kind kind; ptoc_pto_vop_id vop; bool scalar; } x_row;

static const x_row x_rows[] = {
    {PTOC_PTO_OP_TAND, K_BITWISE, PTOC_PTO_VOP_VAND, false},
    {PTOC_PTO_OP_TOR, K_BITWISE, PTOC_PTO_VOP_VOR, false},
    {PTOC_PTO_OP_TXOR, K_BITWISE, PTOC_PTO_VOP_VXOR, false},
    {PTOC_PTO_OP_TANDS, K_BITWISE, PTOC_PTO_VOP_VAND, true},
    {PTOC_PTO_OP_TORS, K_BITWISE, PTOC_PTO_VOP_VOR, true},
    {PTOC_PTO_OP_TXORS, K_BITWISE, PTOC_PTO_VOP_VXOR, true},
    {PTOC_PTO_OP_TSHL, K_SHIFT, PTOC_PTO_VOP_VSHL, false},
    {PTOC_PTO_OP_TSHR, K_SHIFT, PTOC_PTO_VOP_VSHR, false},
    {PTOC_PTO_OP_TSHLS, K_SHIFT, PTOC_PTO_VOP_VSHLS, true},
    {PTOC_PTO_OP_TSHRS, K_SHIFT, PTOC_PTO_VOP_VSHRS, true},
    {PTOC_PTO_OP_TPRELU, K_PRELU, PTOC_PTO_VOP_VMUL, false},
    {PTOC_PTO_OP_TLRELU, K_PRELU, PTOC_PTO_VOP_VMULS, true},
    {PTOC_PTO_OP_TADDC, K_ADDC, PTOC_PTO_VOP_VADD, false},
    {PTOC_PTO_OP_TSUBC, K_ADDC, PTOC_PTO_VOP_VSUB, false},
    {PTOC_PTO_OP_TADDSC, K_ADDC, PTOC_PTO_VOP_VADDS, true},
    {PTOC_PTO_OP_TSUBSC, K_ADDC, PTOC_PTO_VOP_VSUBS, true},
    {PTOC_PTO_OP_TPARTADD, K_PART, PTOC_PTO_VOP_VADD, false},
    {PTOC_PTO_OP_TPARTMUL, K_PART, PTOC_PTO_VOP_VMUL, false},
    {PTOC_PTO_OP_TPARTMAX, K_PART, PTOC_PTO_VOP_VMAX, false},
    {PTOC_PTO_OP_TPARTMIN, K_PART, PTOC_PTO_VOP_VMIN, false},
    {PTOC_PTO_OP_TFMOD, K_FMOD, PTOC_PTO_VOP_VDIV, false},
    {PTOC_PTO_OP_TFMODS, K_FMOD, PTOC_PTO_VOP_VDIV, true},
    {PTOC_PTO_OP_TREM, K_REM, PTOC_PTO_VOP_VDIV, false},
    {PTOC_PTO_OP_TREMS, K_REM, PTOC_PTO_VOP_VDIV, true},
    {PTOC_PTO_OP_TAXPY, K_AXPY, PTOC_PTO_VOP_VMULS, true},
};

static const x_row *x_row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof x_rows / sizeof x_rows[0]; i++)
        if (x_rows[i].op == opcode)
            return &x_rows[i];
    return NULL;
}

bool a5_ewx_lowers(ptoc_pto_op_id opcode) { return x_row_of(opcode) != NULL; }

/* The op's operands and what the loop body needs, made before the loop. */
typedef struct x_op {
    const x_row *row;
    ptoc_value *tiles[3];       /* the data tile ins (not tmp) */
    uint32_t ntiles;
    ptoc_value *dst, *scalar;   /* scalar: as the registers' element type */
    ptoc_value *scalar_reg;     /* the scalar broadcast (bitwise, fmod, rem) */
    ptoc_value *zero;           /* a scalar 0 of the element type (prelu, rem) */
    ptoc_value *zero_reg;       /* a register of zeros (tpart) */
    ptoc_value *valid[2][2];    /* tpart: each source's valid rows and columns */
} x_op;

/* ---------------------------------------------------------------- one register */

static ptoc_value *vop2(vop_builder *L, const vb_lanes *ln, ptoc_pto_vop_id id, ptoc_value *a, ptoc_value *b,
                        ptoc_value *mask)
{
    ptoc_value *ops[3] = {a, b, mask};
    return a5_vop(L, ln, id, 3, ops);
}

static ptoc_value *sel(vop_builder *L, const vb_lanes *ln, ptoc_value *a, ptoc_value *b, ptoc_value *pred)
{
    return vop2(L, ln, PTOC_PTO_VOP_VSEL, a, b, pred);
}

static ptoc_value *cmps(vop_builder *L, const vb_lanes *ln, ptoc_value *a, ptoc_value *s, const char *mode,
                        ptoc_value *mask)
{
    ptoc_value *ops[3] = {a, s, mask};
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_VCMPS, 3, ops, 1, &ln->mask, "cmp_mode", mode, NULL, NULL));
}

static ptoc_value *pred_op(vop_builder *L, const vb_lanes *ln, ptoc_pto_vop_id id, ptoc_value *a,
                           ptoc_value *b, ptoc_value *within)
{
    ptoc_value *ops[3] = {a, b, within};
    return vb_result0(vb_vop(L, id, 3, ops, 1, &ln->mask, NULL, NULL, NULL, NULL));
}

/* a - (a / b) * b, then for trem + b where r != 0 and (a >= 0) != (b >= 0). */
static ptoc_value *int_remainder(vop_builder *L, const vb_lanes *ln, const x_op *x, ptoc_value *a,
                                 ptoc_value *b, ptoc_value *mask)
{
    ptoc_value *q = vop2(L, ln, PTOC_PTO_VOP_VDIV, a, b, mask);
    ptoc_value *r = vop2(L, ln, PTOC_PTO_VOP_VSUB, a, vop2(L, ln, PTOC_PTO_VOP_VMUL, q, b, mask), mask);
    if (x->row->kind == K_FMOD || ln->elem->u.integer.sign == PTOC_UNSIGNED)
        return r;
    ptoc_value *sides = pred_op(L, ln, PTOC_PTO_VOP_PXOR, cmps(L, ln, a, x->zero, "ge", mask),
                                cmps(L, ln, b, x->zero, "ge", mask), mask);
    ptoc_value *fix = pred_op(L, ln, PTOC_PTO_VOP_PAND, sides, cmps(L, ln, r, x->zero, "ne", mask), mask);
    return sel(L, ln, vop2(L, ln, PTOC_PTO_VOP_VADD, r, b, mask), r, fix);
}

/* The predicate of source k's valid lanes in this register of row at->row. */
static ptoc_value *part_pred(vop_builder *L, const vb_lanes *ln, const x_op *x, int k, const a5_pos *at)
{
    enum { CMP_ULT = 6 };
    ptoc_value *in_row = vb_cmpi(L, CMP_ULT, at->row, x->valid[k][0]);
    ptoc_value *sops[3] = {in_row, x->valid[k][1], vb_index(L, 0)};
    ptoc_value *n = vb_result0(ptoc_builder_create(&L->b, "arith.select", 3, sops, 1, &L->index, 0, NULL, 0));
    ptoc_value *rem = vb_arith(L, "arith.maxsi", vb_arith(L, "arith.subi", n, at->col), vb_index(L, 0));
    ptoc_type *types[2] = {ln->mask, L->index};
    ptoc_pto_vop_id plt = vb_plt(ln->bits);
    return vb_result0(vb_vop(L, plt, 1, &rem, 2, types, NULL, NULL, NULL, NULL));
}

static ptoc_value *x_reg(vop_builder *L, const vb_lanes *ln, ptoc_value *const *in, const a5_pos *at,
                         const void *ctx)
{
    const x_op *x = ctx;
    ptoc_value *m = at->mask, *a = in[0];
    ptoc_value *b = x->row->scalar ? (x->scalar_reg ? x->scalar_reg : x->scalar) : in[1];
    switch (x->row->kind) {
    case K_BITWISE: case K_SHIFT:
        return vop2(L, ln, x->row->vop, a, b, m);
    case K_PRELU:
        return sel(L, ln, a, vop2(L, ln, x->row->vop, a, b, m), cmps(L, ln, a, x->zero, "gt", m));
    case K_AXPY: {               /* dst + round(src * s): not fused; a NaN dst is the result */
        ptoc_value *d = in[1];
        ptoc_value *ops[3] = {d, d, m};
        ptoc_value *nan =
            vb_result0(vb_vop(L, PTOC_PTO_VOP_VCMP, 3, ops, 1, &ln->mask, "cmp_mode", "ne", NULL, NULL));
        return sel(L, ln, d, vop2(L, ln, PTOC_PTO_VOP_VADD, d, vop2(L, ln, x->row->vop, a, b, m), m), nan);
    }
    case K_ADDC: {
        ptoc_value *r = vop2(L, ln, x->row->vop, a, b, m);
        ptoc_value *sum = vop2(L, ln, PTOC_PTO_VOP_VADD, r, in[x->row->scalar ? 1 : 2], m);
        if (!ptoc_type_is_float(ln->elem))
            return sum;
        ptoc_value *ops[3] = {r, r, m};     /* a NaN first step is the result, as on the cpu target */
        ptoc_value *nan =
            vb_result0(vb_vop(L, PTOC_PTO_VOP_VCMP, 3, ops, 1, &ln->mask, "cmp_mode", "ne", NULL, NULL));
        return sel(L, ln, r, sum, nan);
    }
    case K_PART: {
        ptoc_value *p0 = part_pred(L, ln, x, 0, at), *p1 = part_pred(L, ln, x, 1, at);
        ptoc_value *one = sel(L, ln, a, sel(L, ln, b, x->zero_reg, p1), p0);
        ptoc_value *both = pred_op(L, ln, PTOC_PTO_VOP_PAND, p0, p1, m);
        return sel(L, ln, vop2(L, ln, x->row->vop, a, b, m), one, both);
    }
    case K_FMOD: case K_REM:
        return int_remainder(L, ln, x, a, b, m);
    }
    return a;
}

/* ---------------------------------------------------------------- operands */

static bool is_f(const ptoc_type *t, ptoc_float_kind k) { return ptoc_type_is_float(t) && t->u.fp.kind == k; }

/* taxpy's widening form: an f16 src with an f32 dst (a5/TAxpy.hpp's vcvt). */
static bool f16_into_f32(const ptoc_value *src, const ptoc_type *dst_elem)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type);
    return s && is_f(s->elem, PTOC_F16) && is_f(dst_elem, PTOC_F32) && a5_plain_tile(src, s->elem);
}

/* Reads the op's operands; false when this lowering does not apply. */
static bool x_operands(const ptoc_op *op, const x_row *row, x_op *x)
{
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return false;
    *x = (x_op){.row = row, .dst = ptoc_op_operand(op, (uint32_t)nins)};
    const ptoc_pto_tile_desc *d = vb_tile_desc(x->dst->type);
    if (!d || !a5_plain_tile(x->dst, d->elem))
        return false;
    uint32_t want = row->kind == K_ADDC ? 2 + !row->scalar : 1 + !row->scalar;
    for (uint32_t i = 0; i < (uint32_t)nins; i++) {
        ptoc_value *v = ptoc_op_operand(op, i);
        if (!vb_tile_desc(v->type)) {
            if (x->scalar || !row->scalar)
                return false;
            x->scalar = v;
        } else if (x->ntiles < want) {
            if (!a5_plain_tile(v, d->elem) && !(row->kind == K_AXPY && f16_into_f32(v, d->elem)))
                return false;
            x->tiles[x->ntiles++] = v;
        }
    }
    if (row->kind == K_AXPY && x->ntiles == want)
        x->tiles[x->ntiles] = x->dst;   /* read as the second in */
    return x->ntiles == want && (x->scalar != NULL) == row->scalar;
}

/* Whether the element type is one this lowering computes the op on. */
static bool x_elem_ok(const x_row *row, const ptoc_type *elem)
{
    bool fp = ptoc_type_is_float(elem);
    switch (row->kind) {
    case K_SHIFT: return !fp;   /* 64-bit: pto-split-u64 splits the shifts */
    case K_PRELU: return fp;
    case K_FMOD: case K_REM: return !fp;
    case K_AXPY: return fp;
    default: return true;
    }
}

/* The registers' element type: a bitwise op's is the unsigned integer of the element's width. */
static ptoc_type *x_reg_elem(vop_builder *L, const x_row *row, ptoc_type *elem)
{
    if (row->kind == K_BITWISE && ptoc_type_is_float(elem))
        return ptoc_type_int(L->ctx, ptoc_type_bitwidth(elem), PTOC_UNSIGNED);
    return elem;
}

/* The scalar as the registers' element type (a float's bits for a bitwise op). */
static ptoc_value *x_scalar(vop_builder *L, ptoc_value *s, ptoc_type *elem, ptoc_type *reg_elem)
{
    ptoc_value *v = vb_scalar_as(L, s, elem);
    if (v && reg_elem != elem)
        v = vb_cast(L, "arith.bitcast", v, ptoc_type_int(L->ctx, ptoc_type_bitwidth(elem), PTOC_SIGNLESS));
    return v;
}

void a5_ewx_lower(vop_builder *L, ptoc_op *op)
{
    x_op x;
    const x_row *row = x_row_of(ptoc_pto_opcode(op));
    if (!x_operands(op, row, &x))
        return;
    ptoc_type *elem = vb_tile_desc(x.dst->type)->elem, *reg_elem = x_reg_elem(L, row, elem);
    if (!x_elem_ok(row, elem) || (x.scalar && !vb_scalar_fits(x.scalar->type, elem)))
        return;
    ptoc_type *src_elem = vb_tile_desc(x.tiles[0]->type)->elem;
    bool widen = src_elem != elem;      /* taxpy f16 -> f32: the scalar is src's type, then f32 */
    a5_open_vecscope(L, op);
    vb_lanes ln = vb_lanes_of(L, reg_elem);
    if (x.scalar && widen)
        x.scalar = vb_cast(L, "arith.extf", vb_scalar_as(L, x.scalar, src_elem), elem);
    else if (x.scalar)
        x.scalar = x_scalar(L, x.scalar, elem, reg_elem);
    if (x.scalar && (row->kind == K_BITWISE || row->kind == K_FMOD || row->kind == K_REM))
        x.scalar_reg =
            vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &x.scalar, 1, &ln.vreg, NULL, NULL, NULL, NULL));
    if (row->kind == K_PRELU || row->kind == K_REM || row->kind == K_PART)
        x.zero = a5_elem_const(L, &ln, 0.0);
    if (row->kind == K_PART) {
        x.zero_reg = vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &x.zero, 1, &ln.vreg, NULL, NULL, NULL, NULL));
        for (int k = 0; k < 2; k++) {
            ptoc_op *v = vb_tile_valid(L, x.tiles[k]);
            x.valid[k][0] = ptoc_op_result(v, 0);
            x.valid[k][1] = ptoc_op_result(v, 1);
        }
    }
    a5_map_spec m = {.ins = x.tiles, .nin = x.ntiles + (row->kind == K_AXPY), .dst = x.dst, .elem = reg_elem,
                     .widen_ins = widen,
                     .by_rows = row->kind == K_PART, .f = x_reg, .ctx = &x};
    a5_map(L, &m);
    ptoc_op_erase(op);
}
