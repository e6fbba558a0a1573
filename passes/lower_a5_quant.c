/* lower_a5_quant.c: pto-lower-a5's quantisation ops, as a5/TQuant.hpp
 * (TQuant_Int8Sym, TQuant_Int8Asym) and a5/TDeQuant.hpp compute them.
 *
 *   tquant     per valid row of src, the row's fp (and offset) by vlds BRC_B32;
 *              per register of 64 f32: vlds, vmul by fp (vadd the offset for
 *              INT8_ASYM), then the library's rounding chain: vcvt to i32
 *              (round to nearest even, saturating), back to f32, to f16 and to
 *              the 8-bit dtype (saturating, into the EVEN lanes each time), and
 *              vsts PK4_B32 of every fourth byte under the tail predicate.
 *   tdequant   per valid row of dst, scale and offset by vlds BRC_B32; per
 *              register of 64 f32: an i16 src by vlds UNPK_B16 and vcvt of its
 *              EVEN lanes to f32, an i8 one by vlds UNPK4_B8, vcvt of lanes
 *              4i to i32 (P0) and to f32; then vsub the offset, vmul the
 *              scale, vsts.
 *
 * A parameter tile's element [r, 0] is read at r times its row stride, and
 * rows past its valid rows read its last valid row (the cpu target's rule;
 * TQuant.hpp reads element r of the tile, which is [r, 0] for the one-column
 * col_major parameter tiles it expects, and TDeQuant.hpp r times the row
 * stride). Only row_major none_box tiles are lowered.
 */
#include "passes/lower_a5.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <string.h>

bool a5_quant_lowers(ptoc_pto_op_id opcode);
void a5_quant_lower(vop_builder *L, ptoc_op *op);

bool a5_quant_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TQUANT || opcode == PTOC_PTO_OP_TDEQUANT;
}

static const ptoc_pto_tile_desc *plain_tile(ptoc_value *v)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(v->type);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
                   d->slayout == PTOC_PTO_SL_NONE_BOX ? d : NULL;
}

static bool is_f32(const ptoc_type *t) { return ptoc_type_is_float(t) && t->u.fp.kind == PTOC_F32; }

static ptoc_type *vreg(vop_builder *L, ptoc_type *elem)
{
    return ptoc_pto_vreg_type_get(L->ctx, elem, 2048 / ptoc_type_bitwidth(elem));
}

static ptoc_value *op1(vop_builder *L, ptoc_pto_vop_id id, uint32_t n, ptoc_value **ops, ptoc_type *t,
                       const char *k0, const char *v0, const char *k1, const char *v1)
{
    return vb_result0(vb_vop(L, id, n, ops, 1, &t, k0, v0, k1, v1));
}

/* A parameter tile: its pointer, last valid row and row stride (made at the program's top). */
typedef struct param { ptoc_value *ptr, *last, *stride; ptoc_type *vreg; } param;

static param param_of(vop_builder *L, ptoc_value *tile)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(tile->type);
    param p = {vb_tile_ptr(L, tile, d->elem), NULL, vb_index(L, d->cols), vreg(L, d->elem)};
    p.last = vb_arith(L, "arith.subi", ptoc_op_result(vb_tile_valid(L, tile), 0), vb_index(L, 1));
    return p;
}

/* A parameter tile's [min(r, valid rows - 1), 0], in every lane (vlds BRC_B32). */
static ptoc_value *param_row(vop_builder *L, const param *p, ptoc_value *row)
{
    ptoc_value *r = vb_arith(L, "arith.maxsi", vb_arith(L, "arith.minsi", row, p->last), vb_index(L, 0));
    ptoc_value *ops[2] = {p->ptr, vb_arith(L, "arith.muli", r, p->stride)};
    return op1(L, PTOC_PTO_VOP_VLDS, 2, ops, p->vreg, "dist", "BRC_B32", NULL, NULL);
}

/* Element c of row r in a tile of `cols` columns (the constant made at the program's top). */
static ptoc_value *line_at(vop_builder *L, ptoc_value *r, int64_t cols, ptoc_value *c)
{
    return vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, vb_index(L, cols)), c);
}

static ptoc_value *tail32(vop_builder *L, ptoc_value *rest)
{
    ptoc_type *types[2] = {ptoc_pto_mask_type_get(L->ctx, 32), L->index};
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_PLT_B32, 1, &rest, 2, types, NULL, NULL, NULL, NULL));
}

static ptoc_value *all_of(vop_builder *L, unsigned bits)
{
    ptoc_type *m = ptoc_pto_mask_type_get(L->ctx, bits);
    ptoc_pto_vop_id id = bits == 8    ? PTOC_PTO_VOP_PSET_B8
                         : bits == 16 ? PTOC_PTO_VOP_PSET_B16
                                      : PTOC_PTO_VOP_PSET_B32;
    return vb_result0(vb_vop(L, id, 0, NULL, 1, &m, "pattern", "PAT_ALL", NULL, NULL));
}

/* vcvt of v to `to` under m, rounding to nearest even, saturating when
 * `sat`, into the EVEN lanes when narrowing. */
static ptoc_value *cvt(vop_builder *L, ptoc_value *v, ptoc_value *m, ptoc_type *to, bool sat, bool even)
{
    ptoc_value *ops[2] = {v, m};
    ptoc_op *c = vb_vop(L, PTOC_PTO_VOP_VCVT, 2, ops, 1, &to, "rnd", "R", "sat", sat ? "SAT" : "NOSAT");
    if (even)
        ptoc_op_set_attr(c, L->b.arena, ptoc_ident_cstr(L->ctx, "part"), ptoc_attr_string(L->ctx, "EVEN", 4));
    return vb_result0(c);
}

/* ---------------------------------------------------------------- tquant */

static void quant_program(vop_builder *L, ptoc_value *const *ins, uint32_t nins, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(ins[0]->type), *d = vb_tile_desc(dst->type);
    ptoc_type *f32 = s->elem, *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    ptoc_type *f16 = ptoc_type_float(L->ctx, PTOC_F16);
    ptoc_type *vf32 = vreg(L, f32), *vi32 = vreg(L, i32), *vf16 = vreg(L, f16), *v8 = vreg(L, d->elem);
    ptoc_value *sp = vb_tile_ptr(L, ins[0], f32), *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, ins[0]);
    ptoc_value *rows = ptoc_op_result(valid, 0), *cols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, 64);
    vb_index(L, s->cols);
    vb_index(L, d->cols);
    ptoc_value *all32 = all_of(L, 32), *all16 = all_of(L, 16);
    param fp = param_of(L, ins[1]), zp = nins > 2 ? param_of(L, ins[2]) : fp;
    vb_loop row_loop, reg_loop;
    ptoc_value *r = vb_loop_begin(L, &row_loop, zero, rows, one);
    ptoc_value *scale = param_row(L, &fp, r), *offset = nins > 2 ? param_row(L, &zp, r) : NULL;
    ptoc_value *c = vb_loop_begin(L, &reg_loop, zero, cols, step);
    ptoc_value *m = tail32(L, vb_arith(L, "arith.subi", cols, c));
    ptoc_value *at[2] = {sp, line_at(L, r, s->cols, c)};
    ptoc_value *x = op1(L, PTOC_PTO_VOP_VLDS, 2, at, vf32, "dist", "NORM", NULL, NULL);
    ptoc_value *mul[3] = {x, scale, m};
    x = op1(L, PTOC_PTO_VOP_VMUL, 3, mul, vf32, NULL, NULL, NULL, NULL);
    if (offset) {
        ptoc_value *add[3] = {x, offset, m};
        x = op1(L, PTOC_PTO_VOP_VADD, 3, add, vf32, NULL, NULL, NULL, NULL);
    }
    /* round once at f32 (the i32 round trip), then exactly to f16 and the 8-bit dtype */
    x = cvt(L, cvt(L, x, all32, vi32, true, false), all32, vf32, false, false);
    ptoc_value *b = cvt(L, cvt(L, x, all32, vf16, true, true), all16, v8, true, true);
    ptoc_value *st[4] = {b, dp, line_at(L, r, d->cols, c), m};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, st, 0, NULL, "dist", "PK4_B32", NULL, NULL);
    vb_loop_end(L, &reg_loop);
    vb_loop_end(L, &row_loop);
}

/* ---------------------------------------------------------------- tdequant */

static void dequant_program(vop_builder *L, ptoc_value *const *ins, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(ins[0]->type), *d = vb_tile_desc(dst->type);
    bool bytes = ptoc_type_bitwidth(s->elem) == 8;
    ptoc_type *vf32 = vreg(L, d->elem), *vs = vreg(L, s->elem);
    ptoc_type *vi32 = vreg(L, ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS));
    ptoc_value *sp = vb_tile_ptr(L, ins[0], s->elem), *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *rows = ptoc_op_result(valid, 0), *cols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, 64);
    vb_index(L, s->cols);
    vb_index(L, d->cols);
    ptoc_value *all_src = all_of(L, bytes ? 8 : 16), *all32 = bytes ? all_of(L, 32) : NULL;
    param scales = param_of(L, ins[1]), offsets = param_of(L, ins[2]);
    vb_loop row_loop, reg_loop;
    ptoc_value *r = vb_loop_begin(L, &row_loop, zero, rows, one);
    ptoc_value *scale = param_row(L, &scales, r), *offset = param_row(L, &offsets, r);
    ptoc_value *c = vb_loop_begin(L, &reg_loop, zero, cols, step);
    ptoc_value *m = tail32(L, vb_arith(L, "arith.subi", cols, c));
    ptoc_value *at[2] = {sp, line_at(L, r, s->cols, c)};
    ptoc_value *x = op1(L, PTOC_PTO_VOP_VLDS, 2, at, vs, "dist", bytes ? "UNPK4_B8" : "UNPK_B16", NULL, NULL);
    if (bytes) {   /* s8 -> s32 from lane 4i (PART_P0), then exactly to f32 (ROUND_Z) */
        ptoc_value *ops[2] = {x, all_src};
        x = op1(L, PTOC_PTO_VOP_VCVT, 2, ops, vi32, "part", "P0", NULL, NULL);
        ptoc_value *to_f[2] = {x, all32};
        x = op1(L, PTOC_PTO_VOP_VCVT, 2, to_f, vf32, "rnd", "Z", NULL, NULL);
    } else {
        ptoc_value *ops[2] = {x, all_src};
        x = op1(L, PTOC_PTO_VOP_VCVT, 2, ops, vf32, "part", "EVEN", NULL, NULL);
    }
    ptoc_value *sub[3] = {x, offset, m};
    x = op1(L, PTOC_PTO_VOP_VSUB, 3, sub, vf32, NULL, NULL, NULL, NULL);
    ptoc_value *mul[3] = {x, scale, m};
    x = op1(L, PTOC_PTO_VOP_VMUL, 3, mul, vf32, NULL, NULL, NULL, NULL);
    ptoc_value *st[4] = {x, dp, line_at(L, r, d->cols, c), m};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, st, 0, NULL, "dist", "NORM_B32", NULL, NULL);
    vb_loop_end(L, &reg_loop);
    vb_loop_end(L, &row_loop);
}

/* ---------------------------------------------------------------- dispatch */

static bool all_plain(ptoc_value *const *tiles, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!plain_tile(tiles[i]))
            return false;
    return true;
}

void a5_quant_lower(vop_builder *L, ptoc_op *op)
{
    int nins = vb_dps_ins(op);
    if (nins < 2 || nins > 3)
        return;
    ptoc_value *tiles[4];
    for (int i = 0; i <= nins; i++)
        tiles[i] = ptoc_op_operand(op, (uint32_t)i);
    if (!all_plain(tiles, (uint32_t)nins + 1))
        return;
    const ptoc_type *se = vb_tile_desc(tiles[0]->type)->elem;
    const ptoc_type *de = vb_tile_desc(tiles[nins]->type)->elem;
    for (int i = 1; i < nins; i++)
        if (!is_f32(vb_tile_desc(tiles[i]->type)->elem))
            return;
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TQUANT) {
        uint32_t kind;
        const ptoc_attr *a = ptoc_op_attr(op, "quant_type");
        if (!a || !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_QUANT_TYPE, &kind) || kind > 1 ||
            nins != (kind ? 3 : 2) || !is_f32(se) || !ptoc_type_is_int(de) || ptoc_type_bitwidth(de) != 8 ||
            (de->u.integer.sign == PTOC_UNSIGNED) != (kind == 1))
            return;
        vb_open_vecscope(L, op, tiles, (uint32_t)nins + 1, 1);
        quant_program(L, tiles, (uint32_t)nins, tiles[nins]);
    } else {
        if (nins != 3 || !is_f32(de) || !ptoc_type_is_int(se) || se->u.integer.sign == PTOC_UNSIGNED ||
            (ptoc_type_bitwidth(se) != 16 && ptoc_type_bitwidth(se) != 8))
            return;
        vb_open_vecscope(L, op, tiles, 4, 1);
        dequant_program(L, tiles, tiles[3]);
    }
    ptoc_op_erase(op);
}
