/* lower_a5_unary.c: pto-lower-a5's unary ops (pto-isa include/pto/npu/a5
 * TUnaryOp.hpp, TRsqrt.hpp, common/pto_instr.hpp), and the elementwise
 * register loop the families outside lower_a5.c share (lower_a5_ew.h).
 *
 *   tabs trelu tsqrt tnot      vabs, vrelu, vsqrt, vnot
 *   texp tlog                  vexp, vln (which compute the cpu target's fixed
 *                              f32 sequences, lower_pto_vops.c)
 *   tneg                       integers: vmuls by -1 (TNEG_IMPL is TMULS by -1);
 *                              floats: vneg, the sign flip the cpu target
 *                              defines (a NaN keeps its payload)
 *   trsqrt                     vsqrt, then vdiv of a register of ones by it
 *                              (TRsqrt.hpp's default path; tmp is unused); f16
 *                              in f32 lanes (vcvt there and back): on f16
 *                              registers the library rounds the root to f16
 *                              before dividing, the cpu target rounds once
 *   trecip                     vdiv of a register of ones by src (TRECIP is
 *                              TDIVS(dst, 1, src))
 *
 * The register of ones is a vbr made once, before the loop, as the library's
 * vdup. An op on another layout or on element types that differ stays.
 */
#include "passes/lower_a5_ew.h"
#include "passes/passes.h"
#include "ptoc/ptoc.h"

/* ---------------------------------------------------------------- the shared loop */

ptoc_value *a5_vop(vop_builder *L, const vb_lanes *ln, ptoc_pto_vop_id id, uint32_t n,
                   ptoc_value *const *ops)
{
    return vb_result0(vb_vop(L, id, n, ops, 1, &ln->vreg, NULL, NULL, NULL, NULL));
}

ptoc_value *a5_elem_const(vop_builder *L, const vb_lanes *ln, double v)
{
    if (ptoc_type_is_float(ln->elem))
        return vb_float(L, ln->elem, v);
    return vb_int(L, ptoc_type_int(L->ctx, ptoc_type_bitwidth(ln->elem), PTOC_SIGNLESS), (int64_t)v);
}

bool a5_plain_tile(const ptoc_value *tile, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(tile->type);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && d->elem == elem;
}

void a5_open_vecscope(vop_builder *L, ptoc_op *op)
{
    uint32_t nins, nouts;
    ptoc_pto_dps_split(op, &nins, &nouts);
    ptoc_value **tiles = PTOC_NEW_ARRAY(L->b.arena, ptoc_value *, op->noperands);
    uint32_t n = 0;
    for (uint32_t i = 0; i < op->noperands; i++)
        if (vb_tile_desc(ptoc_op_operand(op, i)->type))
            tiles[n++] = ptoc_op_operand(op, i);
    vb_open_vecscope(L, op, tiles, n, nouts);
}

static const char *store_dist(unsigned bits)
{
    return bits == 8 ? "NORM_B8" : bits == 16 ? "NORM_B16" : "NORM_B32";
}

static ptoc_value *all_lanes(vop_builder *L, unsigned bits)
{
    ptoc_type *m = ptoc_pto_mask_type_get(L->ctx, bits);
    ptoc_pto_vop_id id = bits == 16 ? PTOC_PTO_VOP_PSET_B16 : PTOC_PTO_VOP_PSET_B32;
    return vb_result0(vb_vop(L, id, 0, NULL, 1, &m, "pattern", "PAT_ALL", NULL, NULL));
}

/* The f16 elements in v's EVEN lanes (an UNPK_B16 load) as f32 lanes: exact. */
static ptoc_value *widen_f16(vop_builder *L, const vb_lanes *ln, ptoc_value *v, ptoc_value *all16)
{
    ptoc_value *ops[2] = {v, all16};
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_VCVT, 2, ops, 1, &ln->vreg, "part", "EVEN", NULL, NULL));
}

/* f32 lanes rounded to f16 (nearest even, overflow to inf) into the EVEN lanes. */
static ptoc_value *narrow_f16(vop_builder *L, ptoc_type *half, ptoc_value *v, ptoc_value *all32)
{
    ptoc_value *ops[2] = {v, all32};
    ptoc_op *c = vb_vop(L, PTOC_PTO_VOP_VCVT, 2, ops, 1, &half, "rnd", "R", "part", "EVEN");
    ptoc_op_set_attr(c, L->b.arena, ptoc_ident_cstr(L->ctx, "sat"), ptoc_attr_string(L->ctx, "NOSAT", 5));
    return vb_result0(c);
}

/* Whether every tile's rows follow each other without a gap, all with one
 * row stride (the library's 1D forms). */
static bool flat_tiles(ptoc_value *const *tiles, uint32_t n)
{
    bool all_full = true, all_one_row = true;
    int64_t cols = vb_tile_desc(tiles[0]->type)->cols;
    for (uint32_t i = 0; i < n; i++) {
        const ptoc_pto_tile_desc *d = vb_tile_desc(tiles[i]->type);
        all_full &= d->valid_cols == d->cols && d->cols == cols;
        all_one_row &= d->rows == 1;
    }
    return all_full || all_one_row;
}

void a5_map(vop_builder *L, const a5_map_spec *m)
{
    enum { MAX_TILES = 4 };
    ptoc_value *tiles[MAX_TILES + 1], *ptrs[MAX_TILES + 1], *offs[MAX_TILES + 1], *regs[MAX_TILES];
    uint32_t nin = m->nin, nt = nin + 1;
    for (uint32_t i = 0; i < nin; i++)
        tiles[i] = m->ins[i];
    tiles[nin] = m->dst;
    ptoc_type *elem = m->elem ? m->elem : vb_tile_desc(m->dst->type)->elem;
    vb_lanes ln = vb_lanes_of(L, m->f16_in_f32 ? ptoc_type_float(L->ctx, PTOC_F32) : elem);
    for (uint32_t i = 0; i < nt; i++) {
        uint32_t j = 0;
        while (tiles[j] != tiles[i])    /* an in-place op reads and writes one tile: one pointer */
            j++;
        bool h = m->f16_in_f32 || (i < nin && (m->widen_ins >> i & 1));
        ptrs[i] = j < i ? ptrs[j] : vb_tile_ptr(L, tiles[i], h ? ptoc_type_float(L->ctx, PTOC_F16) : ln.elem);
    }
    bool halves = m->f16_in_f32 || m->widen_ins;
    ptoc_value *all16 = halves ? all_lanes(L, 16) : NULL, *all32 = m->f16_in_f32 ? all_lanes(L, 32) : NULL;
    ptoc_op *valid = vb_tile_valid(L, m->dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *step = vb_index(L, ln.count);
    bool flat = !m->by_rows && flat_tiles(tiles, nt);
    vb_loop rows, cols;
    ptoc_value *n = vcols, *r = NULL;
    if (flat)
        n = vb_arith(L, "arith.muli", vrows, vcols);
    else
        r = vb_loop_begin(L, &rows, zero, vrows, vb_index(L, 1));
    ptoc_value *c = vb_loop_begin(L, &cols, zero, n, step);
    ptoc_type *types[2] = {ln.mask, L->index};
    ptoc_value *rem = vb_arith(L, "arith.subi", n, c);
    a5_pos at = {r, c, vb_result0(vb_vop(L, vb_plt(ln.bits), 1, &rem, 2, types, NULL, NULL, NULL, NULL))};
    for (uint32_t i = 0; i < nt; i++) {
        int64_t stride = vb_tile_desc(tiles[i]->type)->cols;
        uint32_t j = 0;
        while (vb_tile_desc(tiles[j]->type)->cols != stride)     /* one offset per row stride */
            j++;
        if (flat || j < i) {
            offs[i] = flat ? c : offs[j];
            continue;
        }
        offs[i] = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, vb_index(L, stride)), c);
    }
    ptoc_type *f16 = ptoc_type_float(L->ctx, PTOC_F16);
    ptoc_type *half = halves ? ptoc_pto_vreg_type_get(L->ctx, f16, 128) : ln.vreg;
    for (uint32_t i = 0; i < nin; i++) {
        bool h = m->f16_in_f32 || (m->widen_ins >> i & 1);
        ptoc_value *ops[2] = {ptrs[i], offs[i]};
        regs[i] = vb_result0(vb_vop(L, PTOC_PTO_VOP_VLDS, 2, ops, 1, h ? &half : &ln.vreg, "dist",
                                    h ? "UNPK_B16" : "NORM", NULL, NULL));
        if (h)
            regs[i] = widen_f16(L, &ln, regs[i], all16);
    }
    ptoc_value *res = m->f(L, &ln, regs, &at, m->ctx);
    if (m->f16_in_f32)
        res = narrow_f16(L, half, res, all32);
    ptoc_value *ops[4] = {res, ptrs[nin], offs[nin], at.mask};
    const char *dist = m->f16_in_f32 ? "PK_B32" : store_dist(ln.bits);
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, ops, 0, NULL, "dist", dist, NULL, NULL);
    vb_loop_end(L, &cols);
    if (!flat)
        vb_loop_end(L, &rows);
}

/* ---------------------------------------------------------------- the unary ops */

typedef struct un_row { ptoc_pto_op_id op; ptoc_pto_vop_id vop; } un_row;

/* vdiv: trsqrt and trecip divide the register of ones (the ctx). */
static const un_row un_rows[] = {
    {PTOC_PTO_OP_TABS, PTOC_PTO_VOP_VABS},   {PTOC_PTO_OP_TNEG, PTOC_PTO_VOP_VNEG},
    {PTOC_PTO_OP_TNOT, PTOC_PTO_VOP_VNOT},   {PTOC_PTO_OP_TRELU, PTOC_PTO_VOP_VRELU},
    {PTOC_PTO_OP_TSQRT, PTOC_PTO_VOP_VSQRT}, {PTOC_PTO_OP_TRSQRT, PTOC_PTO_VOP_VDIV},
    {PTOC_PTO_OP_TRECIP, PTOC_PTO_VOP_VDIV}, {PTOC_PTO_OP_TEXP, PTOC_PTO_VOP_VEXP},
    {PTOC_PTO_OP_TLOG, PTOC_PTO_VOP_VLN},
};

static const un_row *un_row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof un_rows / sizeof un_rows[0]; i++)
        if (un_rows[i].op == opcode)
            return &un_rows[i];
    return NULL;
}

bool a5_unary_lowers(ptoc_pto_op_id opcode) { return un_row_of(opcode) != NULL; }

typedef struct un_ctx { const un_row *row; ptoc_value *one, *minus_one; } un_ctx;

static ptoc_value *un_reg(vop_builder *L, const vb_lanes *ln, ptoc_value *const *in, const a5_pos *at,
                          const void *ctx)
{
    const un_ctx *u = ctx;
    ptoc_value *mask = at->mask;
    ptoc_value *a = in[0];
    if (u->minus_one) {
        ptoc_value *ops[3] = {a, u->minus_one, mask};
        return a5_vop(L, ln, PTOC_PTO_VOP_VMULS, 3, ops);
    }
    if (u->row->op == PTOC_PTO_OP_TRSQRT) {
        ptoc_value *s[2] = {a, mask};
        a = a5_vop(L, ln, PTOC_PTO_VOP_VSQRT, 2, s);
    }
    if (u->row->vop == PTOC_PTO_VOP_VDIV) {
        ptoc_value *ops[3] = {u->one, a, mask};
        return a5_vop(L, ln, PTOC_PTO_VOP_VDIV, 3, ops);
    }
    ptoc_value *ops[2] = {a, mask};
    return a5_vop(L, ln, u->row->vop, 2, ops);
}

void a5_unary_lower(vop_builder *L, ptoc_op *op)
{
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d || !a5_plain_tile(dst, d->elem) || !a5_plain_tile(src, d->elem))
        return;
    un_ctx u = {un_row_of(ptoc_pto_opcode(op)), NULL, NULL};
    bool neg_int = u.row->op == PTOC_PTO_OP_TNEG && ptoc_type_is_int(d->elem);
    if (ptoc_type_bitwidth(d->elem) == 64 && !neg_int)
        return;                 /* pto-split-u64 splits vmuls, not the other ops */
    /* the library rounds f16 sqrt to f16 before dividing; the cpu target rounds 1/sqrt once, from f32 */
    bool wide = u.row->op == PTOC_PTO_OP_TRSQRT && ptoc_type_bitwidth(d->elem) == 16;
    a5_open_vecscope(L, op);
    vb_lanes ln = vb_lanes_of(L, wide ? ptoc_type_float(L->ctx, PTOC_F32) : d->elem);
    if (u.row->vop == PTOC_PTO_VOP_VDIV) {
        ptoc_value *one = a5_elem_const(L, &ln, 1.0);
        u.one = vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &one, 1, &ln.vreg, NULL, NULL, NULL, NULL));
    }
    if (neg_int)
        u.minus_one = a5_elem_const(L, &ln, -1.0);
    a5_map(L, &(a5_map_spec){.ins = &src, .nin = 1, .dst = dst, .f16_in_f32 = wide, .f = un_reg, .ctx = &u});
    ptoc_op_erase(op);
}
