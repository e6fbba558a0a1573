/* a5_costs.c: the A5 model's vector-function costs (cg_vf_model).
 *
 * The figures are pto-isa's A5 VfSim parameters (its cost model's isa.csv and
 * uarch.csv, quoted for f32): a vector function starts in 23 cycles and
 * drains in 12; two issue ports; each micro-op holds a port for its
 * throughput figure and has its latency. A vecscope then costs startup +
 * ceil(the issue cycles of the micro-ops it ran / 2) + the longest latency
 * among them + drain: the loop bodies overlap, so throughput bounds them, and
 * the last result still takes its latency. The same figures serve every
 * element type (VfSim lists f32); ops without a figure of their own take the
 * default row. The issue cycles are counted at run time, so loops count as
 * many times as they run.
 */
#include "codegen/codegen_internal.h"

typedef struct vop_cost { ptoc_pto_vop_id vop; uint32_t latency, issue; } vop_cost;

static const vop_cost costs[] = {
    {PTOC_PTO_VOP_VADD, 7, 2},   {PTOC_PTO_VOP_VSUB, 7, 2},   {PTOC_PTO_VOP_VADDS, 7, 2},
    {PTOC_PTO_VOP_VSUBS, 7, 2},  {PTOC_PTO_VOP_VMAX, 7, 2},   {PTOC_PTO_VOP_VMIN, 7, 2},
    {PTOC_PTO_VOP_VMAXS, 7, 2},  {PTOC_PTO_VOP_VMINS, 7, 2},  {PTOC_PTO_VOP_VADDC, 7, 2},
    {PTOC_PTO_VOP_VADDCS, 7, 2}, {PTOC_PTO_VOP_VSUBC, 7, 2},  {PTOC_PTO_VOP_VSUBCS, 7, 2},
    {PTOC_PTO_VOP_VMUL, 8, 2},   {PTOC_PTO_VOP_VMULS, 8, 2},  {PTOC_PTO_VOP_VMULL, 8, 2},
    {PTOC_PTO_VOP_VMULA, 8, 2},  {PTOC_PTO_VOP_VEXP, 16, 4},  {PTOC_PTO_VOP_VEXPDIF, 16, 4},
    {PTOC_PTO_VOP_VDIV, 17, 4},  {PTOC_PTO_VOP_VSEL, 6, 1},   {PTOC_PTO_VOP_VCMP, 6, 1},
    {PTOC_PTO_VOP_VCMPS, 6, 1},  {PTOC_PTO_VOP_VLDS, 9, 1},   {PTOC_PTO_VOP_VLDSX2, 9, 2},
    {PTOC_PTO_VOP_VSTS, 9, 1},   {PTOC_PTO_VOP_VSTSX2, 9, 2},
    /* VfSim isa.csv, fp32: VCADD latency 22, VCMAX/VCMIN 16, each EXU0_ONLY (one port: issue 2) */
    {PTOC_PTO_VOP_VCADD, 22, 2}, {PTOC_PTO_VOP_VCMAX, 16, 2}, {PTOC_PTO_VOP_VCMIN, 16, 2},
    /* pto-isa publishes no figure for vgather2 / vscatter (vgather2.md: "not publicly published"):
     * a NORM load's or store's latency, and a port for 8 cycles (a register's 256 bytes as eight
     * 32-byte block accesses); vci takes the default row */
    {PTOC_PTO_VOP_VGATHER2, 9, 8}, {PTOC_PTO_VOP_VSCATTER, 9, 8},
    /* vstus: docs/isa/scalar/ops/micro-instruction/align-type.md gives 9 cycles; vstas has no
     * published figure and takes vsts's; vci none either (the default); init_align is state only */
    {PTOC_PTO_VOP_VSTUS, 9, 1},  {PTOC_PTO_VOP_VSTAS, 9, 1},  {PTOC_PTO_VOP_INIT_ALIGN, 0, 0},
    {PTOC_PTO_VOP_TILE_PTR, 0, 0}, {PTOC_PTO_VOP_TILE_VALID, 0, 0},   /* bridges: no instruction */
    {PTOC_PTO_VOP_VBITCAST, 0, 0},   /* a register reference cast: no instruction */
    /* vbitsort / vmrgsort4: pto-isa publishes no A5 figure (vmrgsort.md: "consult the target
     * profile"); its A2/A3 figures for vmrgsort (startup 14 + completion 26; 18-cycle interval)
     * serve both, for one group or repeat */
    {PTOC_PTO_VOP_VBITSORT, 40, 18}, {PTOC_PTO_VOP_VMRGSORT4, 40, 18},
    /* vgatherb: no published figure either; vgather2's (a load's latency, eight block accesses) */
    {PTOC_PTO_VOP_VGATHERB, 9, 8},
    /* vgather2_bc: no published figure (vgather2-bc.md gives none); vgather2's */
    {PTOC_PTO_VOP_VGATHER2_BC, 9, 8},
    /* vsqz: pto-isa publishes no figure (vsqz.md and data-rearrangement.md give none); a
     * register-to-register op's, vsel's and vcmp's (6 cycles, one port) */
    {PTOC_PTO_VOP_VSQZ, 6, 1},
};

enum { DEFAULT_LATENCY = 6, DEFAULT_ISSUE = 1 };

static const vop_cost *cost_of(const ptoc_op *op)
{
    ptoc_pto_vop_id id = ptoc_pto_vop(op);
    for (size_t i = 0; i < sizeof costs / sizeof costs[0]; i++)
        if (costs[i].vop == id)
            return &costs[i];
    return NULL;
}

static uint32_t issue(const ptoc_op *op)
{
    const vop_cost *c = cost_of(op);
    return c ? c->issue : DEFAULT_ISSUE;
}

static uint32_t latency(const ptoc_op *op)
{
    const vop_cost *c = cost_of(op);
    return c ? c->latency : DEFAULT_LATENCY;
}

enum { STARTUP = 23, DRAIN = 12, PORTS = 2 };

/* The counter: the issue cycles of the micro-ops run so far. */
static void begin(cg *g, ptoc_op *scope)
{
    (void)scope;
    g->vf_state[0] = cg_alloca(g, g->i64, "vf.issue");
    g->vf_state[1] = NULL;
    LLVMBuildStore(g->b, cg_i64(g, 0), g->vf_state[0]);
}

static void count(cg *g, const ptoc_op *op)
{
    LLVMValueRef n = LLVMBuildLoad2(g->b, g->i64, g->vf_state[0], "");
    LLVMBuildStore(g->b, LLVMBuildAdd(g->b, n, cg_i64(g, issue(op)), ""), g->vf_state[0]);
}

static ptoc_walk_result max_latency(ptoc_op *op, void *user)
{
    uint32_t *most = user;
    if (ptoc_pto_vop(op) != PTOC_PTO_VOP_NONE && latency(op) > *most)
        *most = latency(op);
    return PTOC_WALK_ADVANCE;
}

/* startup + ceil(issue / ports) + the longest latency under the scope + drain. */
static LLVMValueRef end(cg *g, ptoc_op *scope)
{
    LLVMValueRef issued = LLVMBuildLoad2(g->b, g->i64, g->vf_state[0], "");
    LLVMValueRef slots = LLVMBuildUDiv(g->b, LLVMBuildAdd(g->b, issued, cg_i64(g, PORTS - 1), ""), cg_i64(g, PORTS), "");
    uint32_t most = 0;
    ptoc_walk_pre(scope, max_latency, &most);
    return LLVMBuildAdd(g->b, slots, cg_i64(g, STARTUP + most + DRAIN), "vf.cycles");
}

const cg_vf_model cg_a5_vf_model = {.begin = begin, .count = count, .end = end};

/* The cube unit's costs (lower_cube_model.c). pto-isa publishes no A5 figures
 * for the cube (its A5 cost model prices vector functions only), so these
 * are its A2/A3 cost model's (a2a3_costs.c: costmodel/arch_config.hpp and
 * the mad stub), and the two paths A2/A3 lacks take the nearest one's figure:
 * L0C to UB the fixpipe's L0C to L1 (128 GiB/s), UB to L1 the MTE3 engine's
 * UB to GM (188.46 GiB/s). */
const cg_cube_costs cg_a5_cube_costs = {
    .gib_per_s = {[CG_CUBE_GM_TO_L1] = 135.0, [CG_CUBE_L1_TO_L0A] = 441.0, [CG_CUBE_L1_TO_L0B] = 220.5,
                  [CG_CUBE_L1_TO_BT] = 32.0, [CG_CUBE_L1_TO_FB] = 32.0, [CG_CUBE_L0C_TO_L1] = 128.0,
                  [CG_CUBE_L0C_TO_UB] = 128.0, [CG_CUBE_L0C_TO_GM] = 70.0, [CG_CUBE_UB_TO_L1] = 188.46,
                  /* load_cbuf_to_ca_mx / cb_mx (a5/TExtract.hpp TExtractToAmx/Bmx) run on MTE1 from
                   * L1 into the scale buffers beside L0A / L0B: the L1 to L0A / L0B figures */
                  [CG_CUBE_L1_TO_SCALE_LEFT] = 441.0, [CG_CUBE_L1_TO_SCALE_RIGHT] = 220.5},
    .clock_hz = 1.85e9,
    .mad_head = 6, .mad_slope = 1, .mad_slope_f32 = 2,
    /* mad_mx (a5/TMatmul.hpp) is priced as mad on its 8-bit operands: one step per 16 x 32 x 16
     * fractal of f8, the scales read beside L0A / L0B at no extra cost (no published figure) */
};
