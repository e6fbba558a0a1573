/* a2a3_costs.c: the A2/A3 model's vector-function costs (cg_vf_model).
 *
 * The figures are pto-isa's A2/A3 cost model (include/pto/costmodel/a2a3,
 * the stubs of the CCE intrinsics): each repeat instruction costs
 * slope * repeats, plus its head when the vector pipe's queue is empty, and
 * leaves a tail that is paid at the next synchronisation. The binary ALU
 * ops (vadd vsub vmul vdiv vmax vmin vand vor) pay a flat 16 cycles more in
 * counter mode (count-mask dispatch). Instructions the stubs price with no
 * figures of their own (vrec, most compares) take their default (head 6,
 * slope 2, tail 0). copy_ubuf_to_ubuf costs its bytes at the UB-to-UB
 * bandwidth (1024 GiB/s at 1.85 GHz). Everything else a vector function
 * runs (the mask and CMPMASK writes, address casts, bridges, ld_ub and st_ub:
 * the scalar unit's loads and stores, which the cost model's stubs do not
 * price) is scalar work and costs the vector pipe nothing.
 *
 * A vecscope runs one program with nothing else on the queue, so it costs
 * the head of its first instruction + the slopes and floors of all it runs
 * + the tail of its last: the vadd row gives a 64-repeat f32 TADD (64 x 64)
 * 10 + 128 + 14 = 152 cycles, where the hardware profile pto-isa quotes
 * is 160. Repeats are counted as they run: in counter mode they are
 * ceil(count / lanes), not the instruction's repeat field.
 */
#include "codegen/codegen_internal.h"

typedef struct rep_cost {
    ptoc_pto_vop_id vop;
    uint32_t head, slope, tail;
    bool count_floor;           /* pays COUNT_FLOOR in counter mode */
} rep_cost;

#define DEFAULT 6, 2, 0      /* the stubs' EstimateLinearCycles defaults */

static const rep_cost costs[] = {
    {PTOC_PTO_VOP_A2A3_VADD, 10, 2, 14, true},  {PTOC_PTO_VOP_A2A3_VSUB, 10, 2, 14, true},
    {PTOC_PTO_VOP_A2A3_VMUL, 10, 2, 15, true},  {PTOC_PTO_VOP_A2A3_VDIV, 11, 4, 19, true},
    {PTOC_PTO_VOP_A2A3_VMAX, 10, 2, 14, true},  {PTOC_PTO_VOP_A2A3_VMIN, 10, 2, 14, true},
    {PTOC_PTO_VOP_A2A3_VAND, 8, 2, 12, true},   {PTOC_PTO_VOP_A2A3_VOR, 8, 2, 12, true},
    {PTOC_PTO_VOP_A2A3_VEXP, 13, 2, 18},        {PTOC_PTO_VOP_A2A3_VLN, 13, 2, 20},
    {PTOC_PTO_VOP_A2A3_VSQRT, 14, 2, 25},       {PTOC_PTO_VOP_A2A3_VREC, DEFAULT},
    {PTOC_PTO_VOP_A2A3_VABS, 13, 1, 16},        {PTOC_PTO_VOP_A2A3_VRELU, 10, 1, 13},
    {PTOC_PTO_VOP_A2A3_VNOT, 8, 2, 12},         {PTOC_PTO_VOP_A2A3_VADDS, 13, 1, 18},
    {PTOC_PTO_VOP_A2A3_VMULS, 11, 1, 15},       {PTOC_PTO_VOP_A2A3_VMAXS, 10, 1, 13},
    {PTOC_PTO_VOP_A2A3_VMINS, 14, 1, 16},       {PTOC_PTO_VOP_A2A3_VCMPV_EQ, DEFAULT},
    {PTOC_PTO_VOP_A2A3_VCMPV_NE, 14, 2, 22},    {PTOC_PTO_VOP_A2A3_VCMPV_LT, DEFAULT},
    {PTOC_PTO_VOP_A2A3_VCMPV_LE, DEFAULT},      {PTOC_PTO_VOP_A2A3_VCMPV_GT, DEFAULT},
    {PTOC_PTO_VOP_A2A3_VCMPV_GE, 14, 2, 22},    {PTOC_PTO_VOP_A2A3_VCMPVS_EQ, DEFAULT},
    {PTOC_PTO_VOP_A2A3_VCMPVS_NE, DEFAULT},     {PTOC_PTO_VOP_A2A3_VCMPVS_LT, DEFAULT},
    {PTOC_PTO_VOP_A2A3_VCMPVS_LE, DEFAULT},     {PTOC_PTO_VOP_A2A3_VCMPVS_GT, DEFAULT},
    {PTOC_PTO_VOP_A2A3_VCMPVS_GE, DEFAULT},     {PTOC_PTO_VOP_A2A3_VSEL, 13, 2, 14},
    {PTOC_PTO_VOP_A2A3_VBRCB, 0, 0, 18},        {PTOC_PTO_VOP_A2A3_VECTOR_DUP, 11, 1, 13},
    /* vrsqrt: the stub's 910B3 fit (cce_costmodel_vector_compute.hpp) */
    {PTOC_PTO_VOP_A2A3_VRSQRT, 10, 1, 14},
    /* vconv: the stubs' common vconv_* model (cce_costmodel_core.hpp EstimateVconvCycles) */
    {PTOC_PTO_VOP_A2A3_VCONV, 14, 2, 18},
    /* the whole reduces: the stubs' vcadd figures; vcmax, vcmin take the defaults */
    {PTOC_PTO_VOP_A2A3_VCADD, 14, 7, 32},       {PTOC_PTO_VOP_A2A3_VCMAX, DEFAULT},
    {PTOC_PTO_VOP_A2A3_VCMIN, DEFAULT},
    /* vshl, vshr: the stubs' defaults (cce_costmodel_vector_compute.hpp) */
    {PTOC_PTO_VOP_A2A3_VSHL, DEFAULT},          {PTOC_PTO_VOP_A2A3_VSHR, DEFAULT},
    /* vgather: the stub's 910B3 fit (head 24, slope 2); vreducev2: its (14, 14, 20);
     * vbitsort, vgatherb: the defaults. vmrgsort4 (head 20, 78 a repeat: the stub's fit) is
     * counted apart: its repeat is config's low byte. */
    {PTOC_PTO_VOP_A2A3_VBITSORT, DEFAULT},      {PTOC_PTO_VOP_A2A3_VGATHERB, DEFAULT},
    {PTOC_PTO_VOP_A2A3_VGATHER, 24, 2, 0},      {PTOC_PTO_VOP_A2A3_VREDUCEV2, 14, 14, 20},
};

enum { COUNT_FLOOR = 16 };
#define NONE_YET (-1)
/* UB to UB: 1024 GiB/s at 1.85 GHz (pto-isa costmodel/arch_config.hpp). */
#define UB_TO_UB_BYTES_PER_CYCLE (1024.0 * 1024 * 1024 * 1024 / 1.85e9)

/* The repeat instruction's row, NULL for anything else. */
static const rep_cost *cost_of(ptoc_pto_vop_id id)
{
    for (size_t i = 0; i < sizeof costs / sizeof costs[0]; i++)
        if (costs[i].vop == id)
            return &costs[i];
    return NULL;
}

/* The counters: the cycles so far, and the tail of the last instruction
 * (NONE_YET before the first, which pays its head). */
static void begin(cg *g, ptoc_op *scope)
{
    (void)scope;
    g->vf_state[0] = cg_alloca(g, g->i64, "vf.cycles");
    g->vf_state[1] = cg_alloca(g, g->i64, "vf.tail");
    LLVMBuildStore(g->b, cg_i64(g, 0), g->vf_state[0]);
    LLVMBuildStore(g->b, cg_i64(g, NONE_YET), g->vf_state[1]);
}

/* copy_ubuf_to_ubuf's n_burst x len_burst blocks of 32 bytes over the UB-to-UB bandwidth. */
static LLVMValueRef copy_cycles(cg *g, const ptoc_op *op)
{
    LLVMValueRef n = LLVMBuildSExt(g->b, cg_get(g, ptoc_op_operand(op, 4)), g->i64, "");
    LLVMValueRef len = LLVMBuildSExt(g->b, cg_get(g, ptoc_op_operand(op, 5)), g->i64, "");
    LLVMValueRef bytes = LLVMBuildMul(g->b, LLVMBuildMul(g->b, n, len, ""), cg_i64(g, 32), "");
    LLVMValueRef f = LLVMBuildFDiv(g->b, LLVMBuildUIToFP(g->b, bytes, g->f64, ""),
                                   LLVMConstReal(g->f64, UB_TO_UB_BYTES_PER_CYCLE), "");
    return LLVMBuildFPToUI(g->b, f, g->i64, "");
}

static void add_cycles(cg *g, LLVMValueRef n)
{
    LLVMValueRef so_far = LLVMBuildLoad2(g->b, g->i64, g->vf_state[0], "");
    LLVMBuildStore(g->b, LLVMBuildAdd(g->b, so_far, n, ""), g->vf_state[0]);
}

static void count(cg *g, const ptoc_op *op)
{
    ptoc_pto_vop_id id = ptoc_pto_vop(op);
    if (id == PTOC_PTO_VOP_A2A3_COPY_UBUF_TO_UBUF) {
        add_cycles(g, copy_cycles(g, op));
        return;
    }
    if (id == PTOC_PTO_VOP_A2A3_VMRGSORT4) {
        LLVMValueRef config = LLVMBuildSExt(g->b, cg_get(g, ptoc_op_operand(op, 11)), g->i64, "");
        LLVMValueRef rep = LLVMBuildAnd(g->b, config, cg_i64(g, 0xff), "");
        add_cycles(g, LLVMBuildAdd(g->b, LLVMBuildMul(g->b, rep, cg_i64(g, 78), ""), cg_i64(g, 20), ""));
        LLVMBuildStore(g->b, cg_i64(g, 0), g->vf_state[1]);
        return;
    }
    const rep_cost *c = cost_of(id);
    if (!c)
        return;
    LLVMValueRef tail = LLVMBuildLoad2(g->b, g->i64, g->vf_state[1], "");
    LLVMValueRef first = LLVMBuildICmp(g->b, LLVMIntEQ, tail, cg_i64(g, NONE_YET), "");
    LLVMValueRef n = LLVMBuildMul(g->b, cg_a2a3_repeats_run(g, op), cg_i64(g, c->slope), "");
    n = LLVMBuildAdd(g->b, n, LLVMBuildSelect(g->b, first, cg_i64(g, c->head), cg_i64(g, 0), ""), "");
    if (c->count_floor)
        n = LLVMBuildAdd(g->b, n, LLVMBuildSelect(g->b, cg_a2a3_counter_mode(g), cg_i64(g, COUNT_FLOOR), cg_i64(g, 0), ""),
                         "");
    add_cycles(g, n);
    LLVMBuildStore(g->b, cg_i64(g, c->tail), g->vf_state[1]);
}

static LLVMValueRef end(cg *g, ptoc_op *scope)
{
    (void)scope;
    LLVMValueRef cycles = LLVMBuildLoad2(g->b, g->i64, g->vf_state[0], "");
    LLVMValueRef tail = LLVMBuildLoad2(g->b, g->i64, g->vf_state[1], "");
    LLVMValueRef none = LLVMBuildICmp(g->b, LLVMIntEQ, tail, cg_i64(g, NONE_YET), "");
    return LLVMBuildAdd(g->b, cycles, LLVMBuildSelect(g->b, none, cg_i64(g, 0), tail, ""), "vf.cycles");
}

/* A wait_flag from PIPE_V inside the vecscope (TRowExpand's V -> S handshake
 * per row): the pending tail is paid there, as the stubs' wait_flag flushes
 * it (FlushTailsForPipe). The next instruction's head is not paid again:
 * the scalar work between hides it, which is what the hardware profile of
 * TROWEXPAND f32 64x64 (933 cycles) shows; paying it would give 1600. */
static void flush(cg *g)
{
    LLVMValueRef tail = LLVMBuildLoad2(g->b, g->i64, g->vf_state[1], "");
    LLVMValueRef none = LLVMBuildICmp(g->b, LLVMIntEQ, tail, cg_i64(g, NONE_YET), "");
    add_cycles(g, LLVMBuildSelect(g->b, none, cg_i64(g, 0), tail, ""));
    LLVMBuildStore(g->b, LLVMBuildSelect(g->b, none, tail, cg_i64(g, 0), ""), g->vf_state[1]);
}

bool cg_a2a3_has_cost(ptoc_pto_vop_id vop)
{
    return vop == PTOC_PTO_VOP_A2A3_COPY_UBUF_TO_UBUF || vop == PTOC_PTO_VOP_A2A3_VMRGSORT4 || cost_of(vop);
}

const cg_vf_model cg_a2a3_vf_model = {.begin = begin, .count = count, .end = end, .flush = flush};

/* The cube unit's costs (lower_cube_model.c), pto-isa's A2/A3 cost model: the
 * bandwidths of costmodel/arch_config.hpp (kA2A3ArchConfig, GiB/s at 1.85 GHz:
 * GM to L1 135, L1 to L0A 441, L1 to L0B 220.5, L1 to the bias table and to
 * the fixpipe buffer 32, L0C to L1 128, L0C to GM 70) and mad's stub
 * (a2a3/cce_costmodel/cce_costmodel_cube.hpp: head 6, then 1 cycle per
 * 16 x (32 bytes of K) x 16 step, 2 for f32 operands). A2/A3 has no path
 * from L0C to UB nor from UB to L1. */
const cg_cube_costs cg_a2a3_cube_costs = {
    .gib_per_s = {[CG_CUBE_GM_TO_L1] = 135.0, [CG_CUBE_L1_TO_L0A] = 441.0, [CG_CUBE_L1_TO_L0B] = 220.5,
                  [CG_CUBE_L1_TO_BT] = 32.0, [CG_CUBE_L1_TO_FB] = 32.0, [CG_CUBE_L0C_TO_L1] = 128.0,
                  [CG_CUBE_L0C_TO_GM] = 70.0},
    .clock_hz = 1.85e9,
    .mad_head = 6, .mad_slope = 1, .mad_slope_f32 = 2,
};
