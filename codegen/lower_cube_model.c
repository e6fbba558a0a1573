/* lower_cube_model.c: the cube unit on the target models (a5, a2a3).
 *
 * Each op of the cube unit becomes one call of an intrinsic named after the
 * hardware instruction pto-isa's include/pto/npu/a5 and a2a3 issue for it
 * (TLoad.hpp, TMov.hpp, TExtract.hpp, TMatmul.hpp, TStore.hpp):
 *
 *   tload GM -> mat            copy_gm_to_cbuf (nd -> nz: _multi_nd2nz)   MTE2
 *   tmov, textract mat -> left load_cbuf_to_ca                            MTE1
 *   tmov, textract mat -> right load_cbuf_to_cb                           MTE1
 *   tmov mat -> bias           copy_cbuf_to_bt                            MTE1
 *   tmov mat -> scaling        copy_cbuf_to_fbuf                          FIX
 *   tmatmul, tgemv (.acc .bias) mad                                       M
 *   tmov, textract, tinsert acc -> mat   copy_matrix_cc_to_cbuf            FIX
 *   tmov acc -> vec            copy_matrix_cc_to_ub (A5 only)             FIX
 *   tstore, tstore_fp acc -> GM copy_matrix_cc_to_gm                      FIX
 *   tmov vec -> mat            copy_ubuf_to_cbuf (A5 only)                MTE3
 *
 * The pipes are the ops' own (ptoc_pto_op_pipe: pto-insert-sync and the pipe
 * simulator read them). An intrinsic's definition is the cpu target's
 * lowering of the op (cg_intrinsic_call): the cube computes what the cpu
 * target computes, which follows the hardware where it matters (products
 * summed in ascending k, the FIX pipe's conversions, relu and quant modes).
 * Its name is the prefix, the instruction, dst's and src's element types
 * and a hash of the op's name, types and attributes (its definition bakes
 * in the tiles' shapes and layouts): pto.a5.mad.f32.f16.h1a2b3c4d.
 *
 * Each op's pipe event is costed by the target's cube figures
 * (cg_cube_costs): a move its bytes over its path's bandwidth, mad
 * head + slope x its 16 x (32 bytes of K) x 16 fractal steps.
 *
 * The mx forms (A5 only) are mad_mx; a move into a scaling tile that they
 * read as a_scale or b_scale is load_cbuf_to_ca_mx or load_cbuf_to_cb_mx
 * (MTE1 on hardware; the op's pipe stays the move row's), since such a tile
 * lives in the scale buffer beside L0A or L0B (ScaleLeft, ScaleRight), which
 * pto-plan-memory plans from offset 0 each and codegen holds as spaces of
 * their own (cg_tile_space). tget_scale_addr is the cpu target's address
 * arithmetic (a scalar builtin on hardware).
 *
 * A move the hardware has no path for on the target (A2/A3: L0C to UB) is
 * refused; tload and tstore of other spaces lower as the DMA ops they are
 * (lower_pto_mem.c), and a move between vec tiles stays the vector
 * lowering's.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/syntax.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- the paths */

enum { SPACE_GM = PTOC_PTO_AS_GM };

typedef struct cube_move {
    uint32_t src, dst;
    cg_cube_path path;
    const char *instr;
} cube_move;

static const cube_move moves[] = {
    {PTOC_PTO_AS_GM, PTOC_PTO_AS_MAT, CG_CUBE_GM_TO_L1, "copy_gm_to_cbuf"},
    {PTOC_PTO_AS_MAT, PTOC_PTO_AS_LEFT, CG_CUBE_L1_TO_L0A, "load_cbuf_to_ca"},
    {PTOC_PTO_AS_MAT, PTOC_PTO_AS_RIGHT, CG_CUBE_L1_TO_L0B, "load_cbuf_to_cb"},
    {PTOC_PTO_AS_MAT, PTOC_PTO_AS_BIAS, CG_CUBE_L1_TO_BT, "copy_cbuf_to_bt"},
    {PTOC_PTO_AS_MAT, PTOC_PTO_AS_SCALING, CG_CUBE_L1_TO_FB, "copy_cbuf_to_fbuf"},
    {PTOC_PTO_AS_ACC, PTOC_PTO_AS_MAT, CG_CUBE_L0C_TO_L1, "copy_matrix_cc_to_cbuf"},
    {PTOC_PTO_AS_ACC, PTOC_PTO_AS_VEC, CG_CUBE_L0C_TO_UB, "copy_matrix_cc_to_ub"},
    {PTOC_PTO_AS_ACC, PTOC_PTO_AS_GM, CG_CUBE_L0C_TO_GM, "copy_matrix_cc_to_gm"},
    {PTOC_PTO_AS_VEC, PTOC_PTO_AS_MAT, CG_CUBE_UB_TO_L1, "copy_ubuf_to_cbuf"},
};

enum { NMOVES = sizeof moves / sizeof moves[0] };

static const cube_move *move_of(uint32_t src, uint32_t dst)
{
    for (size_t i = 0; i < NMOVES; i++)
        if (moves[i].src == src && moves[i].dst == dst)
            return &moves[i];
    return NULL;
}

/* A tile's description; an on-chip memref is the row_major none_box tile of
 * its shape (cg_tile_desc_of), as on the cpu target. Valid until the next call. */
static const ptoc_pto_tile_desc *tile_desc(const ptoc_value *v)
{
    static ptoc_pto_tile_desc memref_desc;
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(v->type);
    if (d || !cg_tile_desc_of(v->type, &memref_desc))
        return d;
    return &memref_desc;
}

/* The DPS out of a move (tmov's second segment, else the operand after the ins). */
static const ptoc_value *out_operand(const ptoc_op *op)
{
    uint32_t nins = 0, nouts = 0;
    if (ptoc_pto_is(op, PTOC_PTO_OP_TMOV))
        return op->noperands > 1 ? ptoc_op_operand(op, 1) : NULL;
    if (!ptoc_pto_dps_split(op, &nins, &nouts) || nouts == 0 || nins >= op->noperands)
        return NULL;
    return ptoc_op_operand(op, nins);
}

/* The op's source and destination spaces: GM for a view. */
static bool spaces_of(const ptoc_op *op, uint32_t *src, uint32_t *dst)
{
    const ptoc_pto_tile_desc *s, *d;
    uint32_t s_loc;
    switch (ptoc_pto_opcode(op)) {
    case PTOC_PTO_OP_TLOAD:
        d = op->noperands > 1 ? tile_desc(ptoc_op_operand(op, 1)) : NULL;
        *src = SPACE_GM;
        *dst = d ? d->loc : PTOC_PTO_AS_VEC;
        return d != NULL;
    case PTOC_PTO_OP_TSTORE: case PTOC_PTO_OP_TSTORE_FP:
        s = op->noperands ? tile_desc(ptoc_op_operand(op, 0)) : NULL;
        *src = s ? s->loc : PTOC_PTO_AS_VEC;
        *dst = SPACE_GM;
        return s != NULL;
    default: {
        const ptoc_value *out = out_operand(op);
        s = op->noperands ? tile_desc(ptoc_op_operand(op, 0)) : NULL;
        if (!s)
            return false;
        s_loc = s->loc;
        d = out ? tile_desc(out) : NULL;
        if (!d)
            return false;
        *src = s_loc;
        *dst = d->loc;
        return true;
    }
    }
}

static bool is_matmul(ptoc_pto_op_id id)
{
    switch (id) {
    case PTOC_PTO_OP_TMATMUL: case PTOC_PTO_OP_TMATMUL_ACC: case PTOC_PTO_OP_TMATMUL_BIAS:
    case PTOC_PTO_OP_TGEMV: case PTOC_PTO_OP_TGEMV_ACC: case PTOC_PTO_OP_TGEMV_BIAS:
    case PTOC_PTO_OP_TMATMUL_MX: case PTOC_PTO_OP_TMATMUL_MX_ACC: case PTOC_PTO_OP_TMATMUL_MX_BIAS:
    case PTOC_PTO_OP_TGEMV_MX: case PTOC_PTO_OP_TGEMV_MX_ACC: case PTOC_PTO_OP_TGEMV_MX_BIAS:
        return true;
    default:
        return false;
    }
}

static bool is_mx(ptoc_pto_op_id id)
{
    return id == PTOC_PTO_OP_TMATMUL_MX || id == PTOC_PTO_OP_TMATMUL_MX_ACC || id == PTOC_PTO_OP_TMATMUL_MX_BIAS ||
           id == PTOC_PTO_OP_TGEMV_MX || id == PTOC_PTO_OP_TGEMV_MX_ACC || id == PTOC_PTO_OP_TGEMV_MX_BIAS;
}

static bool is_acc_form(ptoc_pto_op_id id)
{
    return id == PTOC_PTO_OP_TMATMUL_ACC || id == PTOC_PTO_OP_TGEMV_ACC || id == PTOC_PTO_OP_TMATMUL_MX_ACC ||
           id == PTOC_PTO_OP_TGEMV_MX_ACC;
}

static bool is_gemv(ptoc_pto_op_id id)
{
    return id == PTOC_PTO_OP_TGEMV || id == PTOC_PTO_OP_TGEMV_ACC || id == PTOC_PTO_OP_TGEMV_BIAS ||
           id == PTOC_PTO_OP_TGEMV_MX || id == PTOC_PTO_OP_TGEMV_MX_ACC || id == PTOC_PTO_OP_TGEMV_MX_BIAS;
}

/* ---------------------------------------------------------------- the cpu rules */

/* The cpu target's rule for `opcode`: its definition of the intrinsic. */
static const cg_rule *cpu_rule(ptoc_pto_op_id opcode)
{
    static const cg_rule_table tables[] = {
        {cg_pto_cube_rules, &cg_pto_cube_rule_count},
        {cg_pto_elementwise_rules, &cg_pto_elementwise_rule_count},
        {cg_pto_mem_rules, &cg_pto_mem_rule_count},
    };
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        for (size_t k = 0; k < *tables[t].count; k++)
            if (tables[t].rules[k].opcode == opcode)
                return &tables[t].rules[k];
    ptoc_unreachable("a cube op without a cpu rule");
    return NULL;
}

/* ---------------------------------------------------------------- names */

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* What the definition depends on beyond the LLVM types: the op, its
 * operand and result types, its attributes. */
static uint32_t op_hash(const ptoc_op *op)
{
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, NULL);
    uint64_t h = fnv(1469598103934665603ull, op->name->str);
    for (uint32_t i = 0; i < op->noperands; i++)
        ptoc_print_type_to(&sb, ptoc_op_operand(op, i)->type), ptoc_strbuf_putc(&sb, ';');
    for (uint32_t i = 0; i < op->nresults; i++)
        ptoc_print_type_to(&sb, op->results[i].type), ptoc_strbuf_putc(&sb, ';');
    for (uint32_t i = 0; i < op->nattrs; i++) {
        ptoc_strbuf_puts(&sb, op->attrs[i].name->str);
        ptoc_strbuf_putc(&sb, '=');
        ptoc_print_attr_to(&sb, op->attrs[i].value);
        ptoc_strbuf_putc(&sb, ';');
    }
    h = fnv(h, ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
    return (uint32_t)(h ^ (h >> 32));
}

static void elem_name(const ptoc_type *t, char *out, size_t size)
{
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, NULL);
    ptoc_print_type_to(&sb, t);
    snprintf(out, size, "%s", ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
}

/* The element type of a tile or view value. */
static const ptoc_type *elem_of(const ptoc_value *v)
{
    const ptoc_pto_tile_desc *d = tile_desc(v);
    const ptoc_pto_view *pv = ptoc_pto_partition_view(v->type);
    if (!pv)
        pv = ptoc_pto_tensor_view(v->type);
    if (!d && !pv && v->type->kind == PTOC_TYPE_MEMREF)     /* a GM memref */
        return v->type->u.shaped.elem;
    return d ? d->elem : pv ? pv->elem : v->type;
}

/* prefix.instr.<dst elem>.<src elem>.h<hash>. */
static void intrinsic_name(cg *g, const ptoc_op *op, const char *instr, const ptoc_value *dst,
                           const ptoc_value *src, char *name, size_t size)
{
    char d[32], s[32];
    elem_name(elem_of(dst), d, sizeof d);
    elem_name(elem_of(src), s, sizeof s);
    snprintf(name, size, "%s.%s.%s.%s.h%08x", g->target->backend->intrinsic_prefix, instr, d, s, op_hash(op));
}

/* ---------------------------------------------------------------- the MX scale buffers */

/* A move into a scaling tile that an MX matmul reads as its a_scale or b_scale
 * fills the scale buffer beside L0A or L0B (A5: a5/TMov.hpp and TExtract.hpp,
 * TExtractToAmx / TExtractToBmx), not the fixpipe's; codegen holds those
 * buffers as spaces of their own (cg_tile_space). */
static const cube_move scale_moves[] = {
    {PTOC_PTO_AS_MAT, CG_SPACE_SCALE_LEFT, CG_CUBE_L1_TO_SCALE_LEFT, "load_cbuf_to_ca_mx"},
    {PTOC_PTO_AS_MAT, CG_SPACE_SCALE_RIGHT, CG_CUBE_L1_TO_SCALE_RIGHT, "load_cbuf_to_cb_mx"},
};

/* `m`, or the scale buffer's move when the op's destination is one. */
static const cube_move *scale_move_of(cg *g, const ptoc_op *op, const cube_move *m)
{
    if (!m || m->dst != PTOC_PTO_AS_SCALING)
        return m;
    const ptoc_value *out = out_operand(op);
    uint32_t space = out ? cg_tile_space(g, out, PTOC_PTO_AS_SCALING) : PTOC_PTO_AS_SCALING;
    for (size_t i = 0; i < sizeof scale_moves / sizeof scale_moves[0]; i++)
        if (scale_moves[i].src == m->src && scale_moves[i].dst == space)
            return &scale_moves[i];
    return m;
}

/* ---------------------------------------------------------------- the rules */

static bool refuse(cg *g, ptoc_op *op)
{
    ptoc_op_emit_error(op, "is not supported by the %s target yet", g->target->name);
    return false;
}

/* Whether the tload's view is nd (or has no layout) and its tile is nz: the
 * DMA's nd2nz conversion. */
static bool nd_to_nz(const ptoc_op *op)
{
    const ptoc_pto_tile_desc *d = tile_desc(ptoc_op_operand(op, 1));
    ptoc_attr *layout = ptoc_op_attr(op, "layout");
    uint32_t l = PTOC_PTO_LAYOUT_ND;
    if (layout)
        ptoc_pto_enum_value(layout, PTOC_PTO_ENUM_LAYOUT, &l);
    return l == PTOC_PTO_LAYOUT_ND && d->blayout == PTOC_PTO_BL_COL_MAJOR && d->slayout == PTOC_PTO_SL_ROW_MAJOR;
}

/* A move between two spaces: the path's instruction, or the cpu rule of a
 * tload or tstore that does not touch the cube's buffers. */
static bool lower_move(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    bool dma = opcode == PTOC_PTO_OP_TLOAD || opcode == PTOC_PTO_OP_TSTORE;
    uint32_t src, dst;
    if (op->nresults || !spaces_of(op, &src, &dst))
        return dma && !op->nresults ? cpu_rule(opcode)->lower(g, op, cpu_rule(opcode)) : refuse(g, op);
    const cube_move *m = scale_move_of(g, op, move_of(src, dst));
    if (!m && dma)                      /* GM <-> UB: the DMA op it is */
        return cpu_rule(opcode)->lower(g, op, cpu_rule(opcode));
    if (!m)
        return refuse(g, op);
    if (g->target->backend->cube_costs->gib_per_s[m->path] <= 0) {
        ptoc_op_emit_error(op, "the %s target has no path from loc=%s to loc=%s (%s)", g->target->name,
                           ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, src),
                           ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, dst), m->instr);
        return false;
    }
    const char *instr = m->instr;
    if (m->path == CG_CUBE_GM_TO_L1 && nd_to_nz(op))
        instr = "copy_gm_to_cbuf_multi_nd2nz";
    const ptoc_value *from = ptoc_op_operand(op, 0);
    const ptoc_value *to = opcode == PTOC_PTO_OP_TLOAD ? ptoc_op_operand(op, 1)
                         : dst == SPACE_GM            ? ptoc_op_operand(op, op->noperands - 1)
                                                      : out_operand(op);
    char name[160];
    intrinsic_name(g, op, instr, to, from, name, sizeof name);
    return cg_intrinsic_call(g, op, cpu_rule(opcode), name);
}

/* tmatmul, tgemv and their forms: mad (mad_mx), on the M pipe. */
static bool lower_mad(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    if (op->nresults || op->noperands < 3)
        return refuse(g, op);
    uint32_t lhs = is_acc_form(opcode) ? 1 : 0;
    char name[160];
    intrinsic_name(g, op, "mad", ptoc_op_operand(op, op->noperands - 1),
                   ptoc_op_operand(op, lhs), name, sizeof name);
    return cg_intrinsic_call(g, op, cpu_rule(opcode), name);
}

/* tmatmul.mx, tgemv.mx and their forms: mad_mx (A5), on the M pipe. The
 * scale tiles sit in the buffers beside L0A and L0B, which mad_mx reads
 * implicitly on hardware; the intrinsic takes them as operands. */
static bool lower_mad_mx(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    if (op->nresults || op->noperands < 5 || !ptoc_pto_arch_info_of(g->arch)->mx_scale_capacity)
        return refuse(g, op);
    uint32_t lhs = is_acc_form(opcode) ? 1 : 0;
    char name[160];
    intrinsic_name(g, op, "mad_mx", ptoc_op_operand(op, op->noperands - 1), ptoc_op_operand(op, lhs), name,
                   sizeof name);
    return cg_intrinsic_call(g, op, cpu_rule(opcode), name);
}

/* tget_scale_addr: the scaling tile beside src's L0A or L0B bytes. The
 * hardware computes its address on the scalar unit (a5/TGetScaleAddr.hpp:
 * a compiler builtin, no instruction of the cube), so it lowers as the cpu
 * target's address arithmetic, uncosted. */
static bool lower_scale_addr(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    if (!ptoc_pto_arch_info_of(g->arch)->mx_scale_capacity)
        return refuse(g, op);
    return cpu_rule(PTOC_PTO_OP_TGET_SCALE_ADDR)->lower(g, op, cpu_rule(PTOC_PTO_OP_TGET_SCALE_ADDR));
}

/* ---------------------------------------------------------------- costs */

/* ceil(a / b) on i64 values. */
static LLVMValueRef ceil_div(cg *g, LLVMValueRef a, int64_t b)
{
    return LLVMBuildUDiv(g->b, LLVMBuildAdd(g->b, a, cg_i64(g, b - 1), ""), cg_i64(g, b), "");
}

/* mad: head + slope x ceil(m/16) x ceil(k / (32 bytes of lhs)) x ceil(n/16). */
static LLVMValueRef mad_cycles(cg *g, ptoc_op *op, const cg_cube_costs *c)
{
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    uint32_t at = is_acc_form(opcode) ? 1 : 0, step = is_mx(opcode) ? 2 : 1;
    cg_tile lhs, rhs;
    if (!cg_tile_of(g, ptoc_op_operand(op, at), &lhs) || !cg_tile_of(g, ptoc_op_operand(op, at + step), &rhs))
        return NULL;
    bool gemv = is_gemv(opcode);
    LLVMValueRef m = gemv ? cg_i64(g, 1) : lhs.vrows;
    LLVMValueRef k = gemv && !is_mx(opcode) ? rhs.vrows : lhs.vcols;
    LLVMValueRef steps = LLVMBuildMul(g->b, LLVMBuildMul(g->b, ceil_div(g, m, 16), ceil_div(g, k, 32 / lhs.esize), ""),
                                      ceil_div(g, rhs.vcols, 16), "");
    bool f32 = ptoc_type_is_float(lhs.elem) && lhs.esize == 4;
    LLVMValueRef n = LLVMBuildMul(g->b, steps, cg_i64(g, f32 ? c->mad_slope_f32 : c->mad_slope), "");
    return LLVMBuildAdd(g->b, n, cg_i64(g, c->mad_head), "mad.cycles");
}

/* A move: the valid elements it writes x their size, over the path's
 * bandwidth (truncated, as pto-isa's cost model does). */
static LLVMValueRef move_cycles(cg *g, ptoc_op *op, const cg_cube_costs *c)
{
    uint32_t src, dst;
    if (op->nresults || !spaces_of(op, &src, &dst))
        return NULL;
    const cube_move *m = scale_move_of(g, op, move_of(src, dst));
    if (!m || c->gib_per_s[m->path] <= 0)
        return NULL;
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    const ptoc_value *tile_v = opcode == PTOC_PTO_OP_TLOAD ? ptoc_op_operand(op, 1)
                             : dst == SPACE_GM            ? ptoc_op_operand(op, 0)
                                                          : out_operand(op);
    const ptoc_value *written = dst == SPACE_GM ? ptoc_op_operand(op, op->noperands - 1) : tile_v;
    cg_tile t;
    if (!cg_tile_of(g, tile_v, &t))
        return NULL;
    LLVMValueRef bytes =
        LLVMBuildMul(g->b, LLVMBuildMul(g->b, t.vrows, t.vcols, ""), cg_i64(g, cg_elem_size(elem_of(written))), "");
    double per_cycle = c->gib_per_s[m->path] * 1024.0 * 1024.0 * 1024.0 / c->clock_hz;
    LLVMValueRef f = LLVMBuildFDiv(g->b, LLVMBuildUIToFP(g->b, bytes, g->f64, ""), LLVMConstReal(g->f64, per_cycle), "");
    return LLVMBuildFPToUI(g->b, f, g->i64, "move.cycles");
}

LLVMValueRef cg_cube_cycles(cg *g, ptoc_op *op)
{
    const cg_cube_costs *c = g->target->backend->cube_costs;
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    if (!c)
        return NULL;
    if (is_matmul(opcode))
        return mad_cycles(g, op, c);
    switch (opcode) {
    case PTOC_PTO_OP_TLOAD: case PTOC_PTO_OP_TSTORE: case PTOC_PTO_OP_TSTORE_FP: case PTOC_PTO_OP_TMOV:
    case PTOC_PTO_OP_TMOV_FP: case PTOC_PTO_OP_TEXTRACT: case PTOC_PTO_OP_TEXTRACT_FP: case PTOC_PTO_OP_TINSERT:
    case PTOC_PTO_OP_TINSERT_FP:
        return move_cycles(g, op, c);
    default:
        return NULL;
    }
}

/* ---------------------------------------------------------------- the table */

const cg_rule cg_cube_model_rules[] = {
    {PTO(TLOAD), lower_move, 0},        {PTO(TSTORE), lower_move, 0},       {PTO(TSTORE_FP), lower_move, 0},
    {PTO(TMOV), lower_move, 0},         {PTO(TMOV_FP), lower_move, 0},      {PTO(TEXTRACT), lower_move, 0},
    {PTO(TEXTRACT_FP), lower_move, 0},  {PTO(TINSERT), lower_move, 0},      {PTO(TINSERT_FP), lower_move, 0},
    {PTO(TMATMUL), lower_mad, 0},       {PTO(TMATMUL_ACC), lower_mad, 0},   {PTO(TMATMUL_BIAS), lower_mad, 0},
    {PTO(TGEMV), lower_mad, 0},         {PTO(TGEMV_ACC), lower_mad, 0},     {PTO(TGEMV_BIAS), lower_mad, 0},
};
const size_t cg_cube_model_rule_count = sizeof cg_cube_model_rules / sizeof cg_cube_model_rules[0];

/* The mx forms: A5's alone (A2/A3 have no MX scale buffers). */
const cg_rule cg_cube_mx_model_rules[] = {
    {PTO(TMATMUL_MX), lower_mad_mx, 0},      {PTO(TMATMUL_MX_ACC), lower_mad_mx, 0},
    {PTO(TMATMUL_MX_BIAS), lower_mad_mx, 0}, {PTO(TGEMV_MX), lower_mad_mx, 0},
    {PTO(TGEMV_MX_ACC), lower_mad_mx, 0},    {PTO(TGEMV_MX_BIAS), lower_mad_mx, 0},
    {PTO(TGET_SCALE_ADDR), lower_scale_addr, 0},
};
const size_t cg_cube_mx_model_rule_count = sizeof cg_cube_mx_model_rules / sizeof cg_cube_mx_model_rules[0];
