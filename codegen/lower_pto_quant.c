/* lower_pto_quant.c: quantisation to int8 and back, on the cpu target.
 *
 *   tquant    ins(%src, %fp[, %offset]) outs(%dst) {quant_type = ...}, over
 *             src's valid region, with s = fp[r, 0] and z = offset[r, 0]:
 *               INT8_SYM   dst (i8)  = sat_i8(round(src * s))
 *               INT8_ASYM  dst (ui8) = sat_ui8(round(src * s + z))
 *             in f32, the multiply and the add rounded each (no fused
 *             multiply-add), round to nearest even, then saturated to the
 *             dtype's range; NaN gives 0
 *   tdequant  ins(%src, %scale, %offset) outs(%dst), over dst's valid region:
 *               dst (f32) = (f32(src) - offset[r, 0]) * scale[r, 0]
 *
 * The parameter row is r, or the parameter tile's last valid row when it has
 * fewer. pto-isa's cpu model (include/pto/cpu TQuant.hpp, TDeQuant.hpp) and
 * the NPU libraries agree on all of this but tdequant's parameter column, which
 * the cpu model takes per column and both NPUs as each row's first element;
 * this file follows the NPUs (docs/decisions.md, "Quantisation").
 */
#include "codegen/codegen_internal.h"

typedef enum quant_kind { QUANT_SYM = 0, QUANT_ASYM = 1 } quant_kind;

static bool is_f32(const cg_tile *t)
{
    return ptoc_type_is_float(t->elem) && t->elem->u.fp.kind == PTOC_F32;
}

/* Element [min(r, vrows - 1), 0] of a parameter tile, as f32. */
static LLVMValueRef param_at(cg *g, const cg_tile *p, LLVMValueRef r)
{
    LLVMBuilderRef B = g->b;
    LLVMValueRef last = LLVMBuildSub(B, p->vrows, cg_i64(g, 1), "");
    LLVMValueRef row = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, r, last, ""), r, last, "");
    LLVMValueRef below = LLVMBuildICmp(B, LLVMIntSLT, row, cg_i64(g, 0), "");
    row = LLVMBuildSelect(B, below, cg_i64(g, 0), row, "param.row");
    return cg_load_elem(g, p->elem, cg_tile_elem_ptr(g, p, row, cg_i64(g, 0)));
}

static bool quant_kind_of(ptoc_op *op, uint32_t nins, quant_kind *out)
{
    uint32_t v = 0;
    const ptoc_attr *a = ptoc_op_attr(op, "quant_type");
    if (!a || !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_QUANT_TYPE, &v)) {
        ptoc_op_emit_error(op, "needs quant_type = #pto<quant_type INT8_SYM> or INT8_ASYM on the cpu target");
        return false;
    }
    *out = (quant_kind)v;
    return true;                 /* the operand count per quant_type: pto_verify_tquant */
}

/* The sources' type; dst's per quant_type is the verifier's (pto_verify_tquant). */
static bool check_quant_sources(ptoc_op *op, const cg_tile *t, int ntiles)
{
    for (int i = 0; i < ntiles; i++)
        if (!is_f32(&t[i])) {
            ptoc_op_emit_error(op, "takes f32 src, fp and offset tiles on the cpu target");
            return false;
        }
    return true;
}

/* The number of ins of a DPS op or of a Level-1 one (all its operands). */
static uint32_t ins_of(const ptoc_op *op)
{
    uint32_t nins = op->noperands, nouts = 0;
    if (op->nresults == 0)
        ptoc_pto_dps_split(op, &nins, &nouts);
    return nins;
}

static bool lower_tquant(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    quant_kind kind;
    uint32_t nins = ins_of(op);
    cg_tile in[3], dst;   /* src, fp, offset */
    if (!quant_kind_of(op, nins, &kind))
        return false;
    for (uint32_t i = 0; i < nins; i++)
        if (!cg_op_in(g, op, i, &in[i]))
            return false;
    if (!cg_op_out(g, op, 0, &dst) || !check_quant_sources(op, in, (int)nins))
        return false;
    LLVMBuilderRef B = g->b;
    cg_loop rows, cols;
    cg_loop_begin(g, &rows, cg_i64(g, 0), in[0].vrows, "quant.row");
    LLVMValueRef s = param_at(g, &in[1], rows.iv);
    LLVMValueRef z = kind == QUANT_ASYM ? param_at(g, &in[2], rows.iv) : NULL;
    cg_loop_begin(g, &cols, cg_i64(g, 0), in[0].vcols, "quant.col");
    LLVMValueRef x = cg_load_elem(g, in[0].elem, cg_tile_elem_ptr(g, &in[0], rows.iv, cols.iv));
    LLVMValueRef v = LLVMBuildFMul(B, x, s, "");
    if (z)
        v = LLVMBuildFAdd(B, v, z, "");
    v = cg_call_intrinsic(g, "llvm.roundeven", g->f32, &v, 1);
    v = cg_float_to_int_sat(g, v, g->i8, kind == QUANT_ASYM);
    LLVMBuildStore(B, v, cg_tile_elem_ptr(g, &dst, rows.iv, cols.iv));
    cg_loop_end(g, &cols);
    cg_loop_end(g, &rows);
    return true;
}

static bool lower_tdequant(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile in[3], dst;   /* src, scale, offset */
    if (ins_of(op) != 3) {
        ptoc_op_emit_error(op, "takes ins(src, scale, offset)");
        return false;
    }
    for (uint32_t i = 0; i < 3; i++)
        if (!cg_op_in(g, op, i, &in[i]))
            return false;
    if (!cg_op_out(g, op, 0, &dst))
        return false;
    bool int_src = !ptoc_type_is_float(in[0].elem) && (in[0].esize == 1 || in[0].esize == 2);
    if (!is_f32(&dst) || !is_f32(&in[1]) || !is_f32(&in[2]) || !int_src) {
        ptoc_op_emit_error(op, "takes an i8 or i16 src, f32 scale and offset, and an f32 destination");
        return false;
    }
    LLVMBuilderRef B = g->b;
    cg_loop rows, cols;
    cg_loop_begin(g, &rows, cg_i64(g, 0), dst.vrows, "dequant.row");
    LLVMValueRef scale = param_at(g, &in[1], rows.iv), offset = param_at(g, &in[2], rows.iv);
    cg_loop_begin(g, &cols, cg_i64(g, 0), dst.vcols, "dequant.col");
    LLVMValueRef x = cg_load_elem(g, in[0].elem, cg_tile_elem_ptr(g, &in[0], rows.iv, cols.iv));
    x = cg_convert(g, x, in[0].elem, dst.elem);
    LLVMValueRef v = LLVMBuildFMul(B, LLVMBuildFSub(B, x, offset, ""), scale, "");
    LLVMBuildStore(B, v, cg_tile_elem_ptr(g, &dst, rows.iv, cols.iv));
    cg_loop_end(g, &cols);
    cg_loop_end(g, &rows);
    return true;
}

const cg_rule cg_pto_quant_rules[] = {
    {PTO(TQUANT), lower_tquant, 0},
    {PTO(TDEQUANT), lower_tdequant, 0},
};
const size_t cg_pto_quant_rule_count = sizeof cg_pto_quant_rules / sizeof cg_pto_quant_rules[0];
