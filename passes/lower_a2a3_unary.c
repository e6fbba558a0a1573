/* lower_a2a3_unary.c: pto-lower-a2a3's unary family (pto-isa a2a3 TUnaryOp.hpp).
 *
 *   tabs tsqrt trelu tnot      vabs vsqrt vrelu vnot dst, src
 *   trsqrt                     vrsqrt dst, src (RsqrtOp, the default precision);
 *                              the form with tmp too: the library's high-precision
 *                              vsqrt then vdiv rounds twice, the cpu target's
 *                              1 / sqrt(x) once, and vrsqrt gives the latter
 *   trecip (floats)            vrec dst, src (the library has no TRECIP; vrec is
 *                              its one-instruction 1 / x)
 *   tneg                       vmuls dst, src, -1 (TNEG_IMPL is TMULS by -1)
 *   texp tlog                  vexp vln dst, src (TExp, TLog: one instruction)
 *
 * trelu takes f16, f32 and i32 (TRELU_IMPL's types); tnot runs on the
 * element as it is, where the library views 32-bit lanes as pairs of 16-bit
 * ones (the same bits either way). vexp and vln compute the one exp and log
 * of every target (the cpu target's fixed float sequences, cg_exp_f32 and
 * cg_log_f32), f16 in f32 rounded once. Integer trecip stays: the library
 * has no program for it.
 *
 * The program is the elementwise family's (a2_elementwise_program): for an
 * operation applied lane by lane the library's unary paths (Unary1L*,
 * Unary2L*) and binary ones cover the same elements with the same
 * instruction, so the results are the same bits.
 */
#include "passes/lower_a2a3.h"

typedef struct u_row { ptoc_pto_op_id op; ptoc_pto_vop_id vop; bool floats, ints; } u_row;

static const u_row u_rows[] = {
    {PTOC_PTO_OP_TABS, PTOC_PTO_VOP_A2A3_VABS, true, false},
    {PTOC_PTO_OP_TSQRT, PTOC_PTO_VOP_A2A3_VSQRT, true, false},
    {PTOC_PTO_OP_TRSQRT, PTOC_PTO_VOP_A2A3_VRSQRT, true, false},
    {PTOC_PTO_OP_TRECIP, PTOC_PTO_VOP_A2A3_VREC, true, false},
    {PTOC_PTO_OP_TRELU, PTOC_PTO_VOP_A2A3_VRELU, true, true},
    {PTOC_PTO_OP_TNOT, PTOC_PTO_VOP_A2A3_VNOT, false, true},
    {PTOC_PTO_OP_TNEG, PTOC_PTO_VOP_A2A3_VMULS, true, true},
    {PTOC_PTO_OP_TEXP, PTOC_PTO_VOP_A2A3_VEXP, true, false},
    {PTOC_PTO_OP_TLOG, PTOC_PTO_VOP_A2A3_VLN, true, false},
};

static const u_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof u_rows / sizeof u_rows[0]; i++)
        if (u_rows[i].op == opcode)
            return &u_rows[i];
    return NULL;
}

bool a2_unary_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

/* Whether the row takes elem: trelu's integers are i32 only. */
static bool takes(const u_row *row, const ptoc_type *elem)
{
    if (ptoc_type_is_float(elem))
        return row->floats;
    if (row->op == PTOC_PTO_OP_TRELU)
        return ptoc_type_bitwidth(elem) == 32 && elem->u.integer.sign != PTOC_UNSIGNED;
    return row->ints;
}

void a2_unary_lower(vop_builder *L, ptoc_op *op)
{
    const u_row *row = row_of(ptoc_pto_opcode(op));
    int nins = vb_dps_ins(op);
    if (nins != 1 && !(nins == 2 && row->op == PTOC_PTO_OP_TRSQRT))
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *d = vb_tile_desc(dst->type);
    if (!d || !a2_plain_tile(dst->type, d->elem) || !a2_plain_tile(src->type, d->elem) ||
        !takes(row, d->elem))
        return;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    ptoc_value *minus_one = NULL;
    if (row->op == PTOC_PTO_OP_TNEG)
        minus_one = ptoc_type_is_float(d->elem) ? vb_float(L, d->elem, -1.0) : vb_int(L, d->elem, -1);
    a2_elementwise_program(L, row->vop, &src, 1, dst, minus_one);
    ptoc_op_erase(op);
}
