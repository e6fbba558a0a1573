/* lower_pto_xcore.c: the cpu target's meaning for the cross-core ops (the
 * cube/vector pipes and flags), the async GM copies and event id arrays.
 *
 * A module with a cross-core op (cg_xcore_module: sync.set/wait, a pipe's
 * initialisation, push, pop or free) runs each block as its three cores, on
 * host threads (runtime/xcore.c has the model and its ordering):
 *  - each exported function becomes a wrapper that packs its arguments and
 *    calls ptoc_rt_cores_run with a trampoline to the real body (NAME.core);
 *    the cores run that body, each with its own simulated memory;
 *  - a cube section or a function of kernel_kind cube runs on the cube only, a
 *    vector one on both vector cores; on A5 a vector scope that uses a pipe
 *    with no split and asks for no sub-block runs on vector 0 only (as PTOAS
 *    emits it: `if (get_subblockid() == 0)`); get_subblock_idx/num are the
 *    core's (0 or 1, of 2);
 *  - aic/aiv_initialize_pipe set up the core's frontend pipe (8 slots, 4 per
 *    direction for dir_mask 3, as PTOAS lowers them), initialize_l2l_pipe and
 *    initialize_l2g2l_pipe the pipe of their flag_base (the GM slot buffer is
 *    not used: the slots are the runtime's);
 *  - tpush copies the tile's valid elements into its slot, tpop copies the
 *    slot (the core's half with a split) into the tile: tpop_from_* into a new
 *    tile at the slot's place in the core's consumer buffer, tpop into its
 *    tile operand; the popped tile's valid shape is the explicit one, else its
 *    type's, else the part's; tfree releases the slot;
 *  - sync.set/sync.wait count flags between the cores; set_ffts does nothing
 *    (the flags need no FFTS base address here).
 * Any other module keeps running on the caller's thread (sections in place).
 *
 * Without threads too: build_async_session is a null handle; tput_async and
 * tget_async record a copy of the GM buffer's bytes, which wait_async_event or
 * test_async_event performs (both give true); an event id array is an array
 * of index values on the stack (zeros when declared), indexed with a check.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MASK_CUBE = 1, MASK_VEC0 = 2, MASK_VECS = 6, SPLIT_NONE = 0 };

/* ---------------------------------------------------------------- which modules */

static bool is_cross_core(const ptoc_op *op)
{
    switch (ptoc_pto_opcode(op)) {
    case PTOC_PTO_OP_SYNC_SET: case PTOC_PTO_OP_SYNC_WAIT:
    case PTOC_PTO_OP_AIC_INITIALIZE_PIPE: case PTOC_PTO_OP_AIV_INITIALIZE_PIPE:
    case PTOC_PTO_OP_INITIALIZE_L2G2L_PIPE: case PTOC_PTO_OP_INITIALIZE_L2L_PIPE:
    case PTOC_PTO_OP_TPUSH_TO_AIV: case PTOC_PTO_OP_TPUSH_TO_AIC: case PTOC_PTO_OP_TPUSH:
    case PTOC_PTO_OP_TPOP_FROM_AIC: case PTOC_PTO_OP_TPOP_FROM_AIV: case PTOC_PTO_OP_TPOP:
    case PTOC_PTO_OP_TFREE_FROM_AIC: case PTOC_PTO_OP_TFREE_FROM_AIV: case PTOC_PTO_OP_TFREE:
        return true;
    default:
        return false;
    }
}

static ptoc_walk_result find_cross_core(ptoc_op *op, void *user)
{
    if (!is_cross_core(op))
        return PTOC_WALK_ADVANCE;
    *(bool *)user = true;
    return PTOC_WALK_INTERRUPT;
}

bool cg_xcore_module(ptoc_op *module)
{
    bool found = false;
    ptoc_walk_pre(module, find_cross_core, &found);
    return found;
}

static bool is_a5(const cg *g)
{
    return g->arch != PTOC_PTO_ARCH_A2 && g->arch != PTOC_PTO_ARCH_A3;
}

static int64_t int_attr_or(const ptoc_op *op, const char *name, int64_t fallback)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    return a && a->kind == PTOC_ATTR_INTEGER ? a->u.integer.value : fallback;
}

/* ---------------------------------------------------------------- the cores */

/* The exported function `pub` as a wrapper running the cores; returns the
 * function its body is lowered into (NULL after an error). */
LLVMValueRef cg_xcore_entry(cg *g, ptoc_op *fnop, LLVMValueRef pub)
{
    LLVMTypeRef fty = LLVMGlobalGetValueType(pub);
    if (LLVMGetTypeKind(LLVMGetReturnType(fty)) != LLVMVoidTypeKind) {
        ptoc_op_emit_error(fnop, "a kernel with cross-core ops must return nothing on the cpu target "
                           "(its cores run on threads)");
        return NULL;
    }
    size_t len;
    const char *name = LLVMGetValueName2(pub, &len);
    char body_name[512], tramp_name[512];
    snprintf(body_name, sizeof body_name, "%.*s.core", (int)len, name);
    snprintf(tramp_name, sizeof tramp_name, "%.*s.cores", (int)len, name);
    LLVMValueRef body = LLVMAddFunction(g->mod, body_name, fty);
    LLVMSetLinkage(body, LLVMInternalLinkage);
    cg_add_fn_attr(g, body, "nounwind", 0);
    unsigned n = LLVMCountParams(pub);
    LLVMTypeRef *ptys = malloc((n + 1) * sizeof *ptys);
    LLVMValueRef *args = malloc((n + 1) * sizeof *args);
    if (!ptys || !args)
        ptoc_unreachable("out of memory");
    LLVMGetParamTypes(fty, ptys);
    LLVMTypeRef pack = LLVMStructTypeInContext(g->llctx, ptys, n, false);
    LLVMBasicBlockRef saved = LLVMGetInsertBlock(g->b);

    /* NAME.cores(ptr args): each core's call of the body */
    LLVMTypeRef tty = LLVMFunctionType(g->void_ty, &g->ptr, 1, false);
    LLVMValueRef tramp = LLVMAddFunction(g->mod, tramp_name, tty);
    LLVMSetLinkage(tramp, LLVMInternalLinkage);
    cg_add_fn_attr(g, tramp, "nounwind", 0);
    LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->llctx, tramp, "entry"));
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef field = LLVMBuildStructGEP2(g->b, pack, LLVMGetParam(tramp, 0), i, "");
        args[i] = LLVMBuildLoad2(g->b, ptys[i], field, "");
    }
    LLVMBuildCall2(g->b, fty, body, args, n, "");
    LLVMBuildRetVoid(g->b);

    /* NAME(params): pack them, run the cores */
    LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->llctx, pub, "entry"));
    LLVMValueRef packed = LLVMBuildAlloca(g->b, pack, "args");
    for (unsigned i = 0; i < n; i++)
        LLVMBuildStore(g->b, LLVMGetParam(pub, i), LLVMBuildStructGEP2(g->b, pack, packed, i, ""));
    LLVMValueRef run[] = {tramp, packed, cg_i32(g, is_a5(g))};
    cg_call_runtime(g, "ptoc_rt_cores_run", run, 3);
    LLVMBuildRetVoid(g->b);
    if (saved)
        LLVMPositionBuilderAtEnd(g->b, saved);
    free(ptys);
    free(args);
    return body;
}

/* Whether a split-0 pipe op is in `op` and no sub-block query: PTOAS's A5
 * vector scopes that run on vector 0 alone. */
typedef struct nosplit_scan {
    bool nosplit, subblock;
} nosplit_scan;

static ptoc_walk_result scan_nosplit(ptoc_op *op, void *user)
{
    nosplit_scan *s = user;
    if (ptoc_pto_is(op, PTOC_PTO_OP_GET_SUBBLOCK_IDX) || ptoc_pto_is(op, PTOC_PTO_OP_GET_SUBBLOCK_NUM))
        s->subblock = true;
    else if (is_cross_core(op) && ptoc_op_attr(op, "split") && int_attr_or(op, "split", -1) == SPLIT_NONE)
        s->nosplit = true;
    return PTOC_WALK_ADVANCE;
}

static int32_t vector_mask(cg *g, ptoc_op *scope)
{
    nosplit_scan s = {false, false};
    ptoc_walk_pre(scope, scan_nosplit, &s);
    return is_a5(g) && s.nosplit && !s.subblock ? MASK_VEC0 : MASK_VECS;
}

/* The condition "the calling core is in `mask`" (i1). */
static LLVMValueRef core_runs(cg *g, int32_t mask)
{
    LLVMValueRef m = cg_i32(g, mask);
    return LLVMBuildICmp(g->b, LLVMIntNE, cg_call_runtime(g, "ptoc_rt_core_runs", &m, 1), cg_i32(g, 0), "");
}

/* A section's body on the cores of its kind only. */
bool cg_xcore_section(cg *g, ptoc_op *op, bool cube)
{
    LLVMBasicBlockRef then = cg_block(g, "section"), cont = cg_block(g, "section.end");
    LLVMBuildCondBr(g->b, core_runs(g, cube ? MASK_CUBE : vector_mask(g, op)), then, cont);
    LLVMPositionBuilderAtEnd(g->b, then);
    bool ok = cg_lower_block(g, op->regions[0].first);
    if (ok)
        LLVMBuildBr(g->b, cont);
    LLVMPositionBuilderAtEnd(g->b, cont);
    return ok;
}

/* At the top of a function of a pto.kernel_kind: return on the other cores. */
void cg_xcore_kind_guard(cg *g, ptoc_op *fnop)
{
    uint32_t kind;
    ptoc_attr *a = ptoc_op_attr(fnop, "pto.kernel_kind");
    if (!a || !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_KERNEL_KIND, &kind))
        return;
    bool cube = strcmp(ptoc_pto_enum_name(PTOC_PTO_ENUM_KERNEL_KIND, kind), "cube") == 0;
    LLVMBasicBlockRef leave = cg_block(g, "other.core"), stay = cg_block(g, "this.core");
    LLVMBuildCondBr(g->b, core_runs(g, cube ? MASK_CUBE : vector_mask(g, fnop)), stay, leave);
    LLVMPositionBuilderAtEnd(g->b, leave);
    LLVMTypeRef ret = LLVMGetReturnType(LLVMGlobalGetValueType(g->fn->fn));
    if (LLVMGetTypeKind(ret) == LLVMVoidTypeKind)
        LLVMBuildRetVoid(g->b);
    else
        LLVMBuildRet(g->b, LLVMConstNull(ret));
    LLVMPositionBuilderAtEnd(g->b, stay);
}

/* get_subblock_idx / get_subblock_num of the core (rule->arg 0 / 1). */
bool cg_xcore_subblock(cg *g, ptoc_op *op, int which)
{
    LLVMTypeRef ty = cg_type(g, op->results[0].type, op->loc);
    if (!ty)
        return false;
    LLVMValueRef v = cg_call_runtime(g, which ? "ptoc_rt_subblock_num" : "ptoc_rt_subblock_idx", NULL, 0);
    cg_set(g, &op->results[0], LLVMBuildIntCast2(g->b, v, ty, false, ""));
    return true;
}

/* ---------------------------------------------------------------- flags */

/* The event id of sync.set/wait (attribute or operand) as i32. */
static LLVMValueRef event_id(cg *g, ptoc_op *op)
{
    if (op->noperands == 1) {
        LLVMValueRef v = cg_get(g, ptoc_op_operand(op, 0));
        return v ? LLVMBuildIntCast2(g->b, v, g->i32, false, "") : NULL;
    }
    return cg_i32(g, (int32_t)int_attr_or(op, "event_id", 0));
}

/* sync.set (arg 0) / sync.wait (arg 1) */
static bool lower_sync(cg *g, ptoc_op *op, const cg_rule *rule)
{
    int64_t mode = int_attr_or(op, "ffts_mode", 2);
    if (mode != 2) {
        ptoc_op_emit_error(op, "ffts_mode %lld is not supported by the cpu target (mode 2: between the cube "
                           "and its vector cores)", (long long)mode);
        return false;
    }
    LLVMValueRef id = event_id(g, op);
    if (!id)
        return false;
    LLVMValueRef args[] = {id, cg_where(g, op->loc)};
    cg_call_runtime(g, rule->arg ? "ptoc_rt_xsync_wait" : "ptoc_rt_xsync_set", args, 2);
    return true;
}

static bool lower_nothing(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)g;
    (void)op;
    (void)rule;
    return true;
}

/* ---------------------------------------------------------------- pipes */

static LLVMValueRef i32_operand(cg *g, ptoc_op *op, uint32_t i)
{
    LLVMValueRef v = cg_get(g, ptoc_op_operand(op, i));
    return v ? LLVMBuildIntCast2(g->b, v, g->i32, false, "") : NULL;
}

static LLVMValueRef pipe_init(cg *g, ptoc_op *op, int32_t key, int32_t slot_num, LLVMValueRef c2v,
                              LLVMValueRef v2c)
{
    LLVMValueRef args[] = {cg_i32(g, key),
                           cg_i32(g, (int32_t)int_attr_or(op, "dir_mask", 1)),
                           cg_i32(g, (int32_t)int_attr_or(op, "slot_size", 0)),
                           cg_i32(g, slot_num),
                           c2v,
                           v2c,
                           cg_where(g, op->loc)};
    return cg_call_runtime(g, "ptoc_rt_xpipe_init", args, 7);
}

/* aic/aiv_initialize_pipe {dir_mask, slot_size}([gm,] c2v, v2c) */
static bool lower_frontend_init(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    uint32_t first = op->noperands - 2;
    LLVMValueRef c2v = i32_operand(g, op, first), v2c = i32_operand(g, op, first + 1);
    if (!c2v || !v2c)
        return false;
    pipe_init(g, op, -1, int_attr_or(op, "dir_mask", 1) == 3 ? 4 : 8, c2v, v2c);
    return true;
}

/* initialize_l2l_pipe (arg 1 fixed operand) / initialize_l2g2l_pipe (arg 2):
 * (... local[, peer]) -> !pto.pipe */
static bool lower_pipe_init(cg *g, ptoc_op *op, const cg_rule *rule)
{
    uint32_t local_i = (uint32_t)rule->arg - 1;
    LLVMValueRef local = i32_operand(g, op, local_i);
    LLVMValueRef peer = op->noperands > local_i + 1 ? i32_operand(g, op, local_i + 1) : cg_i32(g, 0);
    if (!local || !peer)
        return false;
    int64_t dir = int_attr_or(op, "dir_mask", 1);
    LLVMValueRef c2v = dir == 2 ? cg_i32(g, 0) : local;
    LLVMValueRef v2c = dir == 2 ? local : dir == 3 ? peer : cg_i32(g, 0);
    int32_t key = (int32_t)int_attr_or(op, "flag_base", 0), slots = (int32_t)int_attr_or(op, "slot_num", 8);
    cg_set(g, &op->results[0], pipe_init(g, op, key, slots, c2v, v2c));
    return true;
}

/* The pipe a push/pop/free uses: the frontend one, or operand i. */
static LLVMValueRef pipe_of(cg *g, ptoc_op *op, int operand)
{
    if (operand >= 0)
        return cg_get(g, ptoc_op_operand(op, (uint32_t)operand));
    LLVMValueRef args[] = {cg_op_name(g, op->name->str), cg_where(g, op->loc)};
    return cg_call_runtime(g, "ptoc_rt_xpipe_frontend", args, 2);
}

/* Copies rows x cols elements between tile `t` and the slot at `slot` (row
 * stride `stride` elements): into the slot when `to_slot`. */
static void copy_part(cg *g, const cg_tile *t, LLVMValueRef slot, LLVMValueRef stride, LLVMValueRef rows,
                      LLVMValueRef cols, bool to_slot)
{
    LLVMTypeRef ety = LLVMIntTypeInContext(g->llctx, t->esize * 8);
    cg_loop r, c;
    cg_loop_begin(g, &r, cg_i64(g, 0), rows, "xr");
    cg_loop_begin(g, &c, cg_i64(g, 0), cols, "xc");
    LLVMValueRef tp = cg_tile_elem_ptr(g, t, r.iv, c.iv);
    LLVMValueRef idx = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, r.iv, stride, ""), c.iv, "");
    LLVMValueRef sp = LLVMBuildGEP2(g->b, ety, slot, &idx, 1, "");
    LLVMValueRef from = to_slot ? tp : sp, to = to_slot ? sp : tp;
    LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, ety, from, ""), to);
    cg_loop_end(g, &c);
    cg_loop_end(g, &r);
}

/* ---------------------------------------------------------------- the pipe simulator */

/* Tile `v`'s bytes as {space, begin, end} values (false: not a tile_buf). */
static bool tile_range(cg *g, const ptoc_value *v, LLVMValueRef out[3])
{
    ptoc_pto_tile_desc d;
    uint64_t bytes;
    LLVMValueRef agg = cg_get(g, v);
    if (!agg || !cg_tile_desc_of(v->type, &d) || !ptoc_pto_buffer_bytes(v->type, &bytes))
        return false;
    out[0] = cg_i32(g, (int32_t)d.loc);
    out[1] = LLVMBuildExtractValue(g->b, agg, 0, "");
    out[2] = LLVMBuildAdd(g->b, out[1], cg_i64(g, (int64_t)bytes), "");
    return true;
}

/* With pipe_events, a push is an op on the producer's pipe reading its tile
 * (ptoc_pto_op_pipe: FIX for an L0C tile, MTE3 for a UB tile). */
static void push_event(cg *g, ptoc_op *op)
{
    LLVMValueRef r[3];
    ptoc_pto_pipe pipe = ptoc_pto_op_pipe(op);
    if (!g->opts->pipe_events || pipe == PTOC_PTO_PIPE_NONE || !tile_range(g, ptoc_op_operand(op, 0), r))
        return;
    LLVMTypeRef fields[4] = {g->i32, g->i32, g->i64, g->i64};
    LLVMTypeRef acc_ty = LLVMStructTypeInContext(g->llctx, fields, 4, false);
    LLVMValueRef acc = cg_alloca(g, acc_ty, "push.acc");
    LLVMValueRef vals[4] = {r[0], cg_i32(g, PTOC_RT_READ), r[1], r[2]};
    for (unsigned f = 0; f < 4; f++)
        LLVMBuildStore(g->b, vals[f], LLVMBuildStructGEP2(g->b, acc_ty, acc, f, ""));
    LLVMValueRef args[] = {cg_i32(g, (int32_t)pipe), cg_op_name(g, op->name->str), cg_where(g, op->loc), cg_i32(g, 1), acc};
    cg_call_runtime(g, "ptoc_rt_pipe_op", args, 5);
}

/* With pipe_events, what a pop of tile `v` means to the simulator (xcore.c). */
static void pop_event(cg *g, ptoc_op *op, LLVMValueRef pipe, const ptoc_value *v)
{
    LLVMValueRef r[3];
    if (!g->opts->pipe_events || !tile_range(g, v, r))
        return;
    LLVMValueRef args[] = {pipe, r[0], r[1], r[2], cg_op_name(g, op->name->str), cg_where(g, op->loc)};
    cg_call_runtime(g, "ptoc_rt_xpipe_pop_events", args, 6);
}

/* tpush_to_aiv/aic (%t) (arg -1: the frontend pipe) / tpush(%t, %p) (arg 1) */
static bool lower_push(cg *g, ptoc_op *op, const cg_rule *rule)
{
    cg_tile t;
    LLVMValueRef pipe = pipe_of(g, op, rule->arg);
    if (!pipe || !cg_tile_of(g, ptoc_op_operand(op, 0), &t))
        return false;
    LLVMValueRef stride = cg_alloca(g, g->i64, "stride");
    LLVMValueRef name = cg_op_name(g, op->name->str), where = cg_where(g, op->loc);
    LLVMValueRef split = cg_i32(g, (int32_t)int_attr_or(op, "split", 0));
    LLVMValueRef args[] = {pipe, split, cg_i64(g, t.esize), t.vrows, t.vcols, stride, name, where};
    LLVMValueRef slot = cg_call_runtime(g, "ptoc_rt_xpipe_push", args, 8);
    copy_part(g, &t, slot, LLVMBuildLoad2(g->b, g->i64, stride, ""), t.vrows, t.vcols, true);
    LLVMValueRef done[] = {pipe, where};
    cg_call_runtime(g, "ptoc_rt_xpipe_pushed", done, 2);
    push_event(g, op);
    return true;
}

/* The popped part: its slot pointer and {rows, cols, stride, offset}. */
static LLVMValueRef pop_part(cg *g, ptoc_op *op, LLVMValueRef pipe, const ptoc_pto_tile_desc *d,
                             LLVMValueRef geom[4])
{
    LLVMTypeRef arr = LLVMArrayType(g->i64, 4);
    LLVMValueRef out = cg_alloca(g, arr, "popped");
    LLVMValueRef split = cg_i32(g, (int32_t)int_attr_or(op, "split", 0));
    LLVMValueRef args[] = {pipe, split, cg_i64(g, cg_elem_size(d->elem)), cg_i64(g, d->rows),
                           cg_i64(g, d->cols), out, cg_op_name(g, op->name->str), cg_where(g, op->loc)};
    LLVMValueRef slot = cg_call_runtime(g, "ptoc_rt_xpipe_pop", args, 8);
    for (unsigned i = 0; i < 4; i++) {
        LLVMValueRef idx[] = {cg_i64(g, 0), cg_i64(g, i)};
        geom[i] = LLVMBuildLoad2(g->b, g->i64, LLVMBuildGEP2(g->b, arr, out, idx, 2, ""), "");
    }
    return slot;
}

/* `%t = tpop_from_aic/aiv [(%r, %c)] {split} -> T`: a tile at the slot's place
 * in the core's consumer buffer. */
static bool lower_frontend_pop(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *ty = op->results[0].type;
    ptoc_pto_tile_desc d;
    LLVMValueRef pipe = pipe_of(g, op, -1), geom[4];
    if (!pipe || !cg_tile_desc_of(ty, &d))
        return false;           /* the verifier makes it a tile_buf */
    LLVMValueRef slot = pop_part(g, op, pipe, &d, geom);
    LLVMValueRef vr = d.valid_rows == PTOC_DYNAMIC ? geom[0] : cg_i64(g, d.valid_rows);
    LLVMValueRef vc = d.valid_cols == PTOC_DYNAMIC ? geom[1] : cg_i64(g, d.valid_cols);
    if (op->noperands == 2) {
        vr = cg_get(g, ptoc_op_operand(op, 0));
        vc = cg_get(g, ptoc_op_operand(op, 1));
        if (!vr || !vc)
            return false;
    }
    LLVMValueRef agg = cg_tile_make(g, ty, geom[3], vr, vc, op->loc);
    if (!agg)
        return false;
    cg_set(g, &op->results[0], agg);
    cg_tile t;
    if (!cg_tile_of(g, &op->results[0], &t))
        return false;
    copy_part(g, &t, slot, geom[2], geom[0], geom[1], false);
    pop_event(g, op, pipe, &op->results[0]);
    return true;
}

/* `tpop(%t, %p)`: into the tile operand. */
static bool lower_pop(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile t;
    LLVMValueRef pipe = pipe_of(g, op, 1), geom[4];
    if (!pipe || !cg_tile_of(g, ptoc_op_operand(op, 0), &t))
        return false;
    LLVMValueRef slot = pop_part(g, op, pipe, &t.desc, geom);
    copy_part(g, &t, slot, geom[2], geom[0], geom[1], false);
    pop_event(g, op, pipe, ptoc_op_operand(op, 0));
    return true;
}

/* tfree_from_aic/aiv (arg -1) / tfree(%p) (arg 0) */
static bool lower_free(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef pipe = pipe_of(g, op, rule->arg);
    if (!pipe)
        return false;
    LLVMValueRef args[] = {pipe, cg_op_name(g, op->name->str), cg_where(g, op->loc)};
    cg_call_runtime(g, "ptoc_rt_xpipe_free", args, 3);
    if (g->opts->pipe_events) {
        LLVMValueRef ev[] = {pipe, args[2]};
        cg_call_runtime(g, "ptoc_rt_xpipe_free_events", ev, 2);
    }
    return true;
}

/* ---------------------------------------------------------------- async copies */

/* The address and byte count of a flat GM buffer (a GM memref or a view). */
static LLVMValueRef gm_buffer(cg *g, ptoc_op *op, uint32_t i, int64_t *bytes)
{
    const ptoc_value *v = ptoc_op_operand(op, i);
    LLVMValueRef x = cg_get(g, v);
    const ptoc_type *t = v->type;
    if (!x)
        return NULL;
    if (t->kind != PTOC_TYPE_MEMREF) {
        ptoc_op_emit_error(op, "the cpu target copies asynchronously between GM memrefs only");
        return NULL;
    }
    *bytes = cg_elem_size(t->u.shaped.elem);
    for (uint32_t d = 0; d < t->u.shaped.rank; d++)
        *bytes *= t->u.shaped.shape[d];
    return x;
}

/* `%e = tput_async / tget_async(%dst, %src, %session)` */
static bool lower_async_copy(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    int64_t bytes = 0, src_bytes = 0;
    LLVMValueRef dst = gm_buffer(g, op, 0, &bytes), src = dst ? gm_buffer(g, op, 1, &src_bytes) : NULL;
    if (!src)
        return false;
    LLVMValueRef args[] = {dst, src, cg_i64(g, bytes), cg_where(g, op->loc)};
    cg_set(g, &op->results[0], cg_call_runtime(g, "ptoc_rt_async_copy", args, 4));
    return true;
}

/* `%b = wait_async_event / test_async_event(%e, %session) -> i1` */
static bool lower_async_wait(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef e = cg_get(g, ptoc_op_operand(op, 0));
    if (!e)
        return false;
    LLVMValueRef args[] = {e, cg_where(g, op->loc)};
    LLVMValueRef done = cg_call_runtime(g, "ptoc_rt_async_wait", args, 2);
    cg_set(g, &op->results[0], LLVMBuildICmp(g->b, LLVMIntNE, done, cg_i32(g, 0), ""));
    return true;
}

static bool lower_async_session(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_set(g, &op->results[0], LLVMConstNull(g->ptr));
    return true;
}

/* ---------------------------------------------------------------- event id arrays */

static int64_t eventid_array_size(const ptoc_type *t)
{
    int64_t n;
    memcpy(&n, t->u.dialect.data, sizeof n);
    return n;
}

/* `%a = declare_eventid_array -> !pto.eventid_array<N>`: N zeros. */
static bool lower_declare_eventid_array(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    int64_t n = eventid_array_size(op->results[0].type);
    LLVMValueRef a = cg_alloca(g, LLVMArrayType(g->i64, (unsigned)n), "eventids");
    LLVMBuildMemSet(g->b, a, LLVMConstInt(g->i8, 0, false), cg_i64(g, n * 8), 8);
    cg_set(g, &op->results[0], a);
    return true;
}

/* eventid_array_get %a[%i] (arg 0) / eventid_array_set %a[%i], %v (arg 1) */
static bool lower_eventid_access(cg *g, ptoc_op *op, const cg_rule *rule)
{
    const ptoc_value *arr = ptoc_op_operand(op, 0);
    LLVMValueRef a = cg_get(g, arr), i = cg_get(g, ptoc_op_operand(op, 1));
    if (!a || !i)
        return false;
    int64_t n = eventid_array_size(arr->type);
    LLVMValueRef outside = LLVMBuildICmp(g->b, LLVMIntUGE, i, cg_i64(g, n), "");
    cg_trap_if(g, outside, PTOC_RT_TRAP_EVENTID_INDEX, op->loc, i, cg_i64(g, n), cg_i64(g, 0));
    LLVMValueRef p = LLVMBuildGEP2(g->b, g->i64, a, &i, 1, "");
    if (rule->arg) {
        LLVMValueRef v = cg_get(g, ptoc_op_operand(op, 2));
        if (!v)
            return false;
        LLVMBuildStore(g->b, v, p);
    } else {
        cg_set(g, &op->results[0], LLVMBuildLoad2(g->b, g->i64, p, ""));
    }
    return true;
}

const cg_rule cg_pto_xcore_rules[] = {
    {PTO(SYNC_SET), lower_sync, 0},
    {PTO(SYNC_WAIT), lower_sync, 1},
    {PTO(SET_FFTS), lower_nothing, 0},
    {PTO(AIC_INITIALIZE_PIPE), lower_frontend_init, 0},
    {PTO(AIV_INITIALIZE_PIPE), lower_frontend_init, 0},
    {PTO(INITIALIZE_L2L_PIPE), lower_pipe_init, 1},
    {PTO(INITIALIZE_L2G2L_PIPE), lower_pipe_init, 2},
    {PTO(TPUSH_TO_AIV), lower_push, -1},
    {PTO(TPUSH_TO_AIC), lower_push, -1},
    {PTO(TPUSH), lower_push, 1},
    {PTO(TPOP_FROM_AIC), lower_frontend_pop, 0},
    {PTO(TPOP_FROM_AIV), lower_frontend_pop, 0},
    {PTO(TPOP), lower_pop, 0},
    {PTO(TFREE_FROM_AIC), lower_free, -1},
    {PTO(TFREE_FROM_AIV), lower_free, -1},
    {PTO(TFREE), lower_free, 0},
    {PTO(BUILD_ASYNC_SESSION), lower_async_session, 0},
    {PTO(TPUT_ASYNC), lower_async_copy, 0},
    {PTO(TGET_ASYNC), lower_async_copy, 0},
    {PTO(WAIT_ASYNC_EVENT), lower_async_wait, 0},
    {PTO(TEST_ASYNC_EVENT), lower_async_wait, 0},
    {PTO(DECLARE_EVENTID_ARRAY), lower_declare_eventid_array, 0},
    {PTO(EVENTID_ARRAY_GET), lower_eventid_access, 0},
    {PTO(EVENTID_ARRAY_SET), lower_eventid_access, 1},
};
const size_t cg_pto_xcore_rule_count = sizeof cg_pto_xcore_rules / sizeof cg_pto_xcore_rules[0];
