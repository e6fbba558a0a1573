/* pipe_events.c: the calls that feed the pipe simulator (ptoc_codegen_options
 * .pipe_events; runtime/pipesim.c analyses what they record).
 *
 * cg_pipe_events runs after an op's own rule (module.c, cg_lower_op), so the
 * op's results exist (a Level-1 op's out tile) and the events keep program
 * order:
 *   - a pto op with a pipe (ptoc_pto_op_pipe) calls
 *       ptoc_rt_pipe_op(pipe, "pto.name", "file:line:col", n, accesses)
 *     with one access per access of the access model (ptoc_pto_op_accesses:
 *     ins read, outs, scratch ins and Level-1 result tiles written). A tile
 *     is [offset, offset + ptoc_pto_buffer_bytes) in its space: the whole
 *     physical tile, since that is what the planner hands out. A view is the
 *     host-address range [lowest, highest + 1) byte of its window, computed at
 *     run time from its shape and strides (empty when a dim is 0);
 *   - set_flag/wait_flag (and the _dyn forms, whose id is read at run time)
 *     call ptoc_rt_pipe_set/wait(src, dst, id, where); pipe_barrier and
 *     barrier call ptoc_rt_pipe_barrier(pipe, where) (PIPE_ALL for barrier
 *     <PIPE_ALL>); record_event/wait_event are set_flag/wait_flag between the
 *     pipes their op types name (ptoc_pto_pipe_event_pipe).
 * A vecscope on a backend with a vector-function model reports the cycles
 * its micro-ops counted (ptoc_rt_pipe_op_cycles; lower_pto_vops.c).
 * Pipes between cores record their own events (lower_pto_xcore.c, xcore.c);
 * sync.set/wait record nothing. The other sync ops (get_buf, rls_buf, barrier_sync,
 * tsync) are not modelled yet: with the option on they are a diagnostic rather than silently
 * unordered. Requires: the op has been lowered (its operands and results have
 * LLVM values). Produces: calls at the builder's position, nothing else.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cg_pipe_events(cg *g, ptoc_op *op);

/* ---------------------------------------------------------------- calls */

/* void name(params...), declared on first use. */
static void call_void(cg *g, const char *name, LLVMTypeRef *params, unsigned n, LLVMValueRef *args)
{
    LLVMTypeRef fnty = LLVMFunctionType(g->void_ty, params, n, false);
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (!fn) {
        fn = LLVMAddFunction(g->mod, name, fnty);
        unsigned kind = LLVMGetEnumAttributeKindForName("nounwind", 8);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->llctx, kind, 0));
    }
    LLVMBuildCall2(g->b, fnty, fn, args, n, "");
}

/* ---------------------------------------------------------------- sync ops */

static bool pipe_attr(ptoc_op *op, const char *name, ptoc_pto_enum_kind kind, uint32_t *out)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    if (a && ptoc_pto_enum_value(a, kind, out))
        return true;
    ptoc_op_emit_error(op, "internal error: the pipe simulator found no '%s' attribute", name);
    return false;
}

/* set_flag / wait_flag [src, dst, id]; the _dyn forms take the id operand. */
static bool emit_flag(cg *g, ptoc_op *op, bool set, bool dyn)
{
    uint32_t src, dst, id = 0;
    if (!pipe_attr(op, "src_pipe", PTOC_PTO_ENUM_PIPE, &src) || !pipe_attr(op, "dst_pipe", PTOC_PTO_ENUM_PIPE, &dst) ||
        (!dyn && !pipe_attr(op, "event_id", PTOC_PTO_ENUM_EVENT, &id)))
        return false;
    LLVMValueRef idv = cg_i32(g, (int32_t)id);
    if (dyn) {
        LLVMValueRef v = cg_get(g, ptoc_op_operand(op, 0));
        if (!v)
            return false;
        idv = LLVMBuildTrunc(g->b, v, g->i32, "event.id");
    }
    LLVMTypeRef params[4] = {g->i32, g->i32, g->i32, g->ptr};
    LLVMValueRef args[4] = {cg_i32(g, (int32_t)src), cg_i32(g, (int32_t)dst), idv, cg_where(g, op->loc)};
    call_void(g, set ? "ptoc_rt_pipe_set" : "ptoc_rt_pipe_wait", params, 4, args);
    const cg_vf_model *model = g->target->backend->vf_model;
    if (!set && src == PTOC_PTO_PIPE_V && g->vf_state[0] && model && model->flush)
        model->flush(g);        /* a wait on the vector pipe inside a vecscope */
    return true;
}

/* record_event / wait_event [src_op, dst_op, id]: set_flag / wait_flag between
 * the pipes their op types name (ptoc_pto_pipe_event_pipe). */
static bool emit_event(cg *g, ptoc_op *op, bool set)
{
    uint32_t src, dst, id;
    if (!pipe_attr(op, "src_op", PTOC_PTO_ENUM_PIPE_EVENT_TYPE, &src) ||
        !pipe_attr(op, "dst_op", PTOC_PTO_ENUM_PIPE_EVENT_TYPE, &dst) ||
        !pipe_attr(op, "event_id", PTOC_PTO_ENUM_EVENT, &id))
        return false;
    LLVMTypeRef params[4] = {g->i32, g->i32, g->i32, g->ptr};
    LLVMValueRef args[4] = {cg_i32(g, (int32_t)ptoc_pto_pipe_event_pipe(src)),
                            cg_i32(g, (int32_t)ptoc_pto_pipe_event_pipe(dst)), cg_i32(g, (int32_t)id),
                            cg_where(g, op->loc)};
    call_void(g, set ? "ptoc_rt_pipe_set" : "ptoc_rt_pipe_wait", params, 4, args);
    return true;
}

static bool emit_barrier(cg *g, ptoc_op *op)
{
    uint32_t pipe;
    if (!pipe_attr(op, "pipe", PTOC_PTO_ENUM_PIPE, &pipe))
        return false;
    LLVMTypeRef params[2] = {g->i32, g->ptr};
    LLVMValueRef args[2] = {cg_i32(g, (int32_t)pipe), cg_where(g, op->loc)};
    call_void(g, "ptoc_rt_pipe_barrier", params, 2, args);
    return true;
}

/* ---------------------------------------------------------------- accesses */

/* One ptoc_rt_access as i32/i64 values. */
typedef struct access {
    int32_t space;
    int32_t write;                  /* PTOC_RT_READ, PTOC_RT_WRITE or PTOC_RT_READ_WRITE */
    LLVMValueRef begin, end;
} access;

static LLVMValueRef field(cg *g, LLVMValueRef agg, unsigned idx)
{
    return LLVMBuildExtractValue(g->b, agg, idx, "");
}

static bool tile_access(cg *g, const ptoc_value *v, const ptoc_pto_tile_desc *d, access *out)
{
    LLVMValueRef agg = cg_get(g, v);
    uint64_t bytes;
    if (!agg || !ptoc_pto_buffer_bytes(v->type, &bytes))
        return false;
    out->space = (int32_t)d->loc;
    out->begin = field(g, agg, 0);
    out->end = LLVMBuildAdd(g->b, out->begin, cg_i64(g, (int64_t)bytes), "");
    return true;
}

/* [lowest, highest + 1) byte of a window at `base` with these dims. */
static void window_access(cg *g, LLVMValueRef base, const LLVMValueRef *shape, const LLVMValueRef *stride,
                          uint32_t rank, uint32_t esize, access *out)
{
    LLVMValueRef lo = cg_i64(g, 0), hi = cg_i64(g, 0), empty = LLVMConstInt(g->i1, 0, false);
    for (uint32_t k = 0; k < rank; k++) {
        LLVMValueRef d = LLVMBuildMul(g->b, LLVMBuildSub(g->b, shape[k], cg_i64(g, 1), ""), stride[k], "");
        LLVMValueRef pos = LLVMBuildICmp(g->b, LLVMIntSGT, d, cg_i64(g, 0), "");
        hi = LLVMBuildAdd(g->b, hi, LLVMBuildSelect(g->b, pos, d, cg_i64(g, 0), ""), "");
        lo = LLVMBuildAdd(g->b, lo, LLVMBuildSelect(g->b, pos, cg_i64(g, 0), d, ""), "");
        empty = LLVMBuildOr(g->b, empty, LLVMBuildICmp(g->b, LLVMIntSLE, shape[k], cg_i64(g, 0), ""), "");
    }
    LLVMValueRef addr = LLVMBuildPtrToInt(g->b, base, g->i64, "");
    LLVMValueRef es = cg_i64(g, esize);
    out->space = PTOC_PTO_AS_GM;
    out->begin = LLVMBuildAdd(g->b, addr, LLVMBuildMul(g->b, lo, es, ""), "");
    LLVMValueRef end = LLVMBuildAdd(g->b, addr, LLVMBuildMul(g->b, LLVMBuildAdd(g->b, hi, cg_i64(g, 1), ""), es, ""), "");
    out->end = LLVMBuildSelect(g->b, empty, out->begin, end, "");
}

static bool view_access(cg *g, const ptoc_value *v, const ptoc_pto_view *vt, access *out)
{
    LLVMValueRef agg = cg_get(g, v);
    if (!agg)
        return false;
    LLVMValueRef shapes = field(g, agg, 1), strides = field(g, agg, 2);
    LLVMValueRef shape[PTOC_PTO_MAX_VIEW_RANK], stride[PTOC_PTO_MAX_VIEW_RANK];
    for (unsigned k = 0; k < PTOC_PTO_MAX_VIEW_RANK; k++) {
        shape[k] = field(g, shapes, k);
        stride[k] = field(g, strides, k);
    }
    window_access(g, field(g, agg, 0), shape, stride, PTOC_PTO_MAX_VIEW_RANK, cg_elem_size(vt->elem), out);
    return true;
}

/* A GM memref: its static shape, row-major (codegen accepts no other). */
static bool memref_access(cg *g, const ptoc_value *v, access *out)
{
    const ptoc_type *t = v->type;
    int64_t n = 1;
    for (uint32_t k = 0; k < t->u.shaped.rank; k++) {
        if (t->u.shaped.shape[k] == PTOC_DYNAMIC)
            return false;
        n *= t->u.shaped.shape[k];
    }
    LLVMValueRef base = cg_get(g, v);
    if (!base)
        return false;
    LLVMValueRef one = cg_i64(g, 1), size = cg_i64(g, n);
    window_access(g, base, &size, &one, 1, cg_elem_size(t->u.shaped.elem), out);
    return true;
}

/* The access of value `v`, if it is a tile or GM data (false otherwise). */
static bool access_of(cg *g, const ptoc_value *v, int write, access *out)
{
    ptoc_pto_tile_desc d;
    ptoc_pto_address_space space;
    const ptoc_pto_view *vt = ptoc_pto_partition_view(v->type);
    if (!vt)
        vt = ptoc_pto_tensor_view(v->type);
    out->write = write;
    if (cg_tile_desc_of(v->type, &d))
        return tile_access(g, v, &d, out);
    if (vt)
        return view_access(g, v, vt, out);
    if (ptoc_pto_memref_space(v->type, &space) && space == PTOC_PTO_AS_GM)
        return memref_access(g, v, out);
    return false;
}

/* Stores the accesses into an entry-block array and calls ptoc_rt_pipe_op. */
static void emit_op_call(cg *g, ptoc_op *op, int pipe, const access *acc, uint32_t n)
{
    LLVMTypeRef fields[4] = {g->i32, g->i32, g->i64, g->i64};
    LLVMTypeRef acc_ty = LLVMStructTypeInContext(g->llctx, fields, 4, false);
    LLVMValueRef array = n ? cg_alloca(g, LLVMArrayType2(acc_ty, n), "pipe.acc") : LLVMConstNull(g->ptr);
    for (uint32_t i = 0; i < n; i++) {
        LLVMValueRef vals[4] = {cg_i32(g, acc[i].space), cg_i32(g, acc[i].write), acc[i].begin, acc[i].end};
        for (unsigned f = 0; f < 4; f++) {
            LLVMValueRef idx[3] = {cg_i32(g, 0), cg_i32(g, (int32_t)i), cg_i32(g, (int32_t)f)};
            LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, LLVMArrayType2(acc_ty, n), array, idx, 3, "");
            LLVMBuildStore(g->b, vals[f], p);
        }
    }
    LLVMTypeRef params[6] = {g->i32, g->ptr, g->ptr, g->i32, g->ptr, g->i64};
    ptoc_attr *from = ptoc_op_attr(op, "from");     /* a vecscope: the tile op it runs */
    const char *name = from && from->kind == PTOC_ATTR_STRING ? from->u.string->str : op->name->str;
    LLVMValueRef args[6] = {cg_i32(g, pipe), cg_op_name(g, name), cg_where(g, op->loc),
                            cg_i32(g, (int32_t)n), array, g->vf_cycles};
    if (g->vf_cycles)                   /* a vector function that counted its own cycles */
        call_void(g, "ptoc_rt_pipe_op_cycles", params, 6, args);
    else
        call_void(g, "ptoc_rt_pipe_op", params, 5, args);
    g->vf_cycles = NULL;
}

/* A pto op on a pipe: the accesses of the access model, each with the range
 * its value has at run time. */
static bool emit_op(cg *g, ptoc_op *op, int pipe)
{
    ptoc_pto_access *model = calloc(ptoc_pto_op_max_accesses(op), sizeof *model);
    access *acc = calloc(ptoc_pto_op_max_accesses(op), sizeof *acc);
    if (!model || !acc)
        ptoc_fatal("out of memory");
    if (!g->vf_cycles && g->target->backend->cube_costs)     /* a cube instruction's own cost */
        g->vf_cycles = cg_cube_cycles(g, op);
    uint32_t nmodel = ptoc_pto_op_accesses(op, model), n = 0;
    for (uint32_t i = 0; i < nmodel; i++)
        n += model[i].value &&
             access_of(g, model[i].value,
                       !model[i].write ? PTOC_RT_READ : model[i].read ? PTOC_RT_READ_WRITE : PTOC_RT_WRITE, &acc[n]);
    emit_op_call(g, op, pipe, acc, n);
    free(acc);
    free(model);
    return true;
}

/* ---------------------------------------------------------------- the hook */

bool cg_pipe_events(cg *g, ptoc_op *op)
{
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    switch (opcode) {
    case PTOC_PTO_OP_NONE:
        return true;
    case PTOC_PTO_OP_SET_FLAG: case PTOC_PTO_OP_WAIT_FLAG:
        return emit_flag(g, op, opcode == PTOC_PTO_OP_SET_FLAG, false);
    case PTOC_PTO_OP_SET_FLAG_DYN: case PTOC_PTO_OP_WAIT_FLAG_DYN:
        return emit_flag(g, op, opcode == PTOC_PTO_OP_SET_FLAG_DYN, true);
    case PTOC_PTO_OP_PIPE_BARRIER: case PTOC_PTO_OP_BARRIER:
        return emit_barrier(g, op);
    case PTOC_PTO_OP_RECORD_EVENT: case PTOC_PTO_OP_WAIT_EVENT:
        return emit_event(g, op, opcode == PTOC_PTO_OP_RECORD_EVENT);
    case PTOC_PTO_OP_BARRIER_SYNC: case PTOC_PTO_OP_TSYNC: case PTOC_PTO_OP_GET_BUF: case PTOC_PTO_OP_RLS_BUF:
        ptoc_op_emit_error(op, "is not modelled by the pipe simulator yet (--check-races, --trace): use "
                           "set_flag/wait_flag, pipe_barrier or barrier");
        return false;
    case PTOC_PTO_OP_SYNC_SET: case PTOC_PTO_OP_SYNC_WAIT:
        return true;    /* they order another core's log, which each core's replay does not see */
    case PTOC_PTO_OP_TPUSH_TO_AIV: case PTOC_PTO_OP_TPUSH_TO_AIC: case PTOC_PTO_OP_TPUSH:
    case PTOC_PTO_OP_TPOP_FROM_AIC: case PTOC_PTO_OP_TPOP_FROM_AIV: case PTOC_PTO_OP_TPOP:
        return true;    /* their lowering logs them with the slot's flags (lower_pto_xcore.c, xcore.c) */
    default:
        break;
    }
    int pipe = (int)ptoc_pto_op_pipe(op);
    if (pipe < 0 || pipe >= PTOC_PTO_PIPE_NUM || pipe == PTOC_PTO_PIPE_ALL)
        return true;
    return emit_op(g, op, pipe);
}

/* ---------------------------------------------------------------- the replay's rules */

/* GiB/s at clock_hz as bytes per cycle. */
static double bytes_per_cycle(double gib_per_s, double clock_hz)
{
    return gib_per_s * 1024.0 * 1024.0 * 1024.0 / clock_hz;
}

ptoc_rt_arch_rules ptoc_pipe_rules(ptoc_pto_arch arch)
{
    const ptoc_pto_arch_info *row = ptoc_pto_arch_info_of(arch);
    if (!row)
        row = ptoc_pto_arch_info_of(PTOC_PTO_ARCH_DEFAULT);
    ptoc_rt_arch_rules r = {.name = row->name, .in_order_pipes = row->in_order_pipes,
                            .event_ids = row->event_ids, .clock_hz = row->clock_hz};
    for (uint32_t i = 0; row->clock_hz > 0 && i < PTOC_PTO_ARCH_MAX_BANDWIDTHS && i < PTOC_RT_MAX_BANDWIDTHS; i++) {
        const ptoc_pto_arch_bandwidth *b = &row->bandwidth[i];
        if (b->gib_per_s > 0)
            r.bandwidths[r.nbandwidths++] =
                (ptoc_rt_bandwidth){b->pipe, (int32_t)b->space, bytes_per_cycle(b->gib_per_s, row->clock_hz)};
    }
    return r;
}
