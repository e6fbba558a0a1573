/* dma.c: tload and tstore as a target's DMA burst copies.
 *
 * lower_pto_mem.c ("DMA bursts") shapes a transfer as pto-isa's TLoad and
 * TStore programs do, the same way for every target with DMA copies: groups
 * of n_burst bursts of len_burst bytes with start-to-start strides on both
 * sides, and for a load the pad elements after each burst. This file turns
 * each group into the target's instructions (cg_dma_model, one per target):
 *
 *   a5    copy_gm_to_ubuf_align_v2 / copy_ubuf_to_gm_align_v2 (dst, src,
 *         n_burst, len_burst, src_stride, dst_stride), strides in bytes
 *         (pto-isa a5 TLoad.hpp, TStore.hpp). A definition of its own: a
 *         loop of memcpys. Loads do not pad in the burst; the caller fills
 *         the tails after it.
 *   a2a3  set_mov_pad_val(value), then copy_gm_to_ubuf (dst, src, n_burst,
 *         len_burst, left_pad, right_pad, gm_gap, ub_gap) and
 *         copy_ubuf_to_gm (..., ub_gap, gm_gap): gaps after each burst, in
 *         bytes on GM and in 32-byte blocks on UB after the burst's extent
 *         rounded up to 32 (pto-isa a2a3 TLoad.hpp, TStore.hpp and
 *         tload_common.hpp, which call copy_gm_to_ubuf_align_b8/b16/b32).
 *         The instructions are the pto.a2a3 intrinsics an op of the dialect
 *         becomes, named and defined as such an op's (lower_a2a3.c), with
 *         the function's vector state first.
 *
 * Where a value is past its field's range it is split, never truncated: a
 * count above the limit into groups of at most the limit, a length into
 * pieces of the limit rounded down to 32 bytes (so that each piece starts a
 * UB block), and bursts whose gaps do not fit (a negative or huge GM stride,
 * a UB stride that is no whole number of blocks past the burst) into one
 * instruction per burst. Values known at compile time are split at compile
 * time; the others by loops and tests at run time.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/syntax.h"

#include <stdio.h>

const cg_dma_model *cg_dma(const cg *g)
{
    return g->intrinsics ? g->target->backend->dma : NULL;
}

/* ---------------------------------------------------------------- definitions */

typedef void (*body_fn)(cg *g, LLVMValueRef fn, const cg_dma_call *c);

/* The function `name` of g's module, defined in the intrinsics module by
 * body (linkonce_odr, alwaysinline) on first use. */
static LLVMValueRef intrinsic(cg *g, const char *name, LLVMTypeRef fnty, body_fn body, const cg_dma_call *c)
{
    LLVMValueRef def = LLVMGetNamedFunction(g->intrinsics, name);
    if (def && LLVMGlobalGetValueType(def) != fnty)
        ptoc_unreachable("two signatures under one intrinsic name");
    if (!def) {
        def = LLVMAddFunction(g->intrinsics, name, fnty);
        LLVMSetLinkage(def, LLVMLinkOnceODRLinkage);
        cg_add_fn_attr(g, def, "alwaysinline", 0);
        cg_add_fn_attr(g, def, "nounwind", 0);
        cg_func f;
        cg_caller caller;
        LLVMModuleRef mod = g->mod;
        g->mod = g->intrinsics;
        cg_enter_function(g, &f, def, &caller);
        body(g, def, c);
        LLVMBuildRetVoid(g->b);
        cg_leave_function(g, &caller);
        g->mod = mod;
    }
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (!fn) {
        fn = LLVMAddFunction(g->mod, name, fnty);
        cg_add_fn_attr(g, fn, "nounwind", 0);
    }
    return fn;
}

static LLVMValueRef byte_gep(cg *g, LLVMValueRef p, LLVMValueRef bytes)
{
    if (LLVMIsAConstantInt(bytes) && LLVMConstIntGetSExtValue(bytes) == 0)
        return p;
    return LLVMBuildGEP2(g->b, g->i8, p, &bytes, 1, "");
}

/* ---------------------------------------------------------------- a5 */

/* for (i = 0; i < n; i++) memcpy(dst + i * dst_stride, src + i * src_stride, len) */
static void a5_copy_body(cg *g, LLVMValueRef fn, const cg_dma_call *c)
{
    (void)c;
    LLVMValueRef p[6];
    for (unsigned i = 0; i < 6; i++)
        p[i] = LLVMGetParam(fn, i);
    cg_loop bursts;
    cg_loop_begin(g, &bursts, cg_i64(g, 0), p[2], "burst");
    LLVMValueRef to = byte_gep(g, p[0], LLVMBuildMul(g->b, bursts.iv, p[5], ""));
    LLVMValueRef from = byte_gep(g, p[1], LLVMBuildMul(g->b, bursts.iv, p[4], ""));
    LLVMBuildMemCpy(g->b, to, 1, from, 1, p[3]);
    cg_loop_end(g, &bursts);
}

static void a5_emit(cg *g, const cg_dma_call *c, LLVMValueRef src_stride, LLVMValueRef dst_stride)
{
    char name[96];
    snprintf(name, sizeof name, "%s.%s", g->target->backend->intrinsic_prefix,
             c->to_ub ? "copy_gm_to_ubuf_align_v2" : "copy_ubuf_to_gm_align_v2");
    LLVMTypeRef params[6] = {g->ptr, g->ptr, g->i64, g->i64, g->i64, g->i64};
    LLVMTypeRef fnty = LLVMFunctionType(g->void_ty, params, 6, false);
    LLVMValueRef args[6] = {c->dst, c->src, c->n_burst, c->len_burst, src_stride, dst_stride};
    LLVMBuildCall2(g->b, fnty, intrinsic(g, name, fnty, a5_copy_body, c), args, 6, "");
}

/* Fields as wide as the model's i64: A5's copies are never split here. */
const cg_dma_model cg_a5_dma = {
    .max_n_burst = INT64_MAX, .max_len_burst = INT64_MAX,
    .element_bursts = true,
    .emit = a5_emit,
};

/* ---------------------------------------------------------------- a2a3 */

/* pto.a2a3.copy_gm_to_ubuf.pf32.gf32.i64: the name an op with these pointers
 * and i64 fields gets (intrinsics.c), so that both share one definition. */
static void a2a3_name(cg *g, const cg_dma_call *c, char *name, size_t size)
{
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, NULL);
    ptoc_print_type_to(&sb, c->elem);
    const char *t = ptoc_strbuf_cstr(&sb);
    snprintf(name, size, "%s.%s.%c%s.%c%s.i64", g->target->backend->intrinsic_prefix,
             c->to_ub ? "copy_gm_to_ubuf" : "copy_ubuf_to_gm", c->to_ub ? 'p' : 'g', t, c->to_ub ? 'g' : 'p', t);
    ptoc_strbuf_free(&sb);
}

/* (state, dst, dst offset, src, src offset, n_burst, len_burst, left_pad,
 * right_pad, src gap, dst gap): lower_a2a3.c's copy. */
static void a2a3_copy_body(cg *g, LLVMValueRef fn, const cg_dma_call *c)
{
    g->fn->a2a3_state = LLVMGetParam(fn, 0);
    LLVMTypeRef et = cg_elem_type(g, c->elem);
    LLVMValueRef off[2] = {LLVMGetParam(fn, 2), LLVMGetParam(fn, 4)}, f[6];
    LLVMValueRef dst = LLVMBuildGEP2(g->b, et, LLVMGetParam(fn, 1), &off[0], 1, "");
    LLVMValueRef src = LLVMBuildGEP2(g->b, et, LLVMGetParam(fn, 3), &off[1], 1, "");
    for (unsigned k = 0; k < 6; k++)
        f[k] = LLVMGetParam(fn, 5 + k);
    cg_a2a3_copy(g, c->to_ub, cg_elem_size(c->elem), dst, src, f, c->loc);
}

static void a2a3_emit(cg *g, const cg_dma_call *c, LLVMValueRef src_gap, LLVMValueRef dst_gap)
{
    char name[96];
    a2a3_name(g, c, name, sizeof name);
    LLVMTypeRef params[11] = {g->ptr, g->ptr, g->i64, g->ptr};
    for (unsigned k = 4; k < 11; k++)
        params[k] = g->i64;
    LLVMTypeRef fnty = LLVMFunctionType(g->void_ty, params, 11, false);
    LLVMValueRef zero = cg_i64(g, 0);
    LLVMValueRef args[11] = {cg_a2a3_state(g), c->dst, zero, c->src, zero, c->n_burst, c->len_burst, zero,
                             c->right_pad ? c->right_pad : zero, src_gap, dst_gap};
    LLVMBuildCall2(g->b, fnty, intrinsic(g, name, fnty, a2a3_copy_body, c), args, 11, "");
}

static void a2a3_pad_body(cg *g, LLVMValueRef fn, const cg_dma_call *c)
{
    (void)c;
    g->fn->a2a3_state = LLVMGetParam(fn, 0);
    cg_a2a3_set_pad_value(g, LLVMGetParam(fn, 1));
}

static void a2a3_set_pad(cg *g, LLVMValueRef bits)
{
    char name[64];
    snprintf(name, sizeof name, "%s.set_mov_pad_val", g->target->backend->intrinsic_prefix);
    LLVMTypeRef params[2] = {g->ptr, g->i64};
    LLVMTypeRef fnty = LLVMFunctionType(g->void_ty, params, 2, false);
    LLVMValueRef args[2] = {cg_a2a3_state(g), bits};
    LLVMBuildCall2(g->b, fnty, intrinsic(g, name, fnty, a2a3_pad_body, NULL), args, 2, "");
}

/* pto-isa's A2/A3 programs assert n_burst < 4096 (a 12-bit field) and pass
 * len_burst and the gaps as uint32; the burst length is taken as a 21-bit
 * field, the width of the DMA's UB address (docs/decisions.md). A tstore
 * with an atomic add (a2a3 TStore.hpp's SetAtomicAdd on the MTE3 path), relu
 * or a quantisation (the FIX pipe from acc) computes as on the cpu target. */
const cg_dma_model cg_a2a3_dma = {
    .max_n_burst = 4095, .max_len_burst = (INT64_C(1) << 21) - 1,
    .max_gm_gap = UINT32_MAX, .max_ub_gap = UINT32_MAX,
    .pads = true,
    .cpu_store_options = true,
    .set_pad = a2a3_set_pad,
    .emit = a2a3_emit,
};

/* ---------------------------------------------------------------- splitting */

typedef void (*chunk_fn)(cg *g, const cg_dma_call *c, LLVMValueRef first, LLVMValueRef count);

static bool const_at_most(LLVMValueRef v, int64_t most)
{
    return LLVMIsAConstantInt(v) && LLVMConstIntGetSExtValue(v) <= most;
}

/* f(first, count) for the chunks of [0, total) at most `most` long: one call
 * each when total is known and gives a few chunks, else a loop over
 * ceil(total / most). */
static void chunks(cg *g, const cg_dma_call *c, LLVMValueRef total, int64_t most, chunk_fn f)
{
    enum { FEW = 8 };
    if (most == INT64_MAX || const_at_most(total, most)) {
        f(g, c, cg_i64(g, 0), total);
        return;
    }
    if (const_at_most(total, most * FEW)) {
        int64_t t = LLVMConstIntGetSExtValue(total);
        for (int64_t first = 0; first < t; first += most)
            f(g, c, cg_i64(g, first), cg_i64(g, t - first < most ? t - first : most));
        return;
    }
    LLVMValueRef m = cg_i64(g, most);
    LLVMValueRef n = LLVMBuildSDiv(g->b, LLVMBuildAdd(g->b, total, cg_i64(g, most - 1), ""), m, "");
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), n, "dma.split");
    LLVMValueRef first = LLVMBuildMul(g->b, l.iv, m, "");
    LLVMValueRef left = LLVMBuildSub(g->b, total, first, "");
    f(g, c, first, LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, left, m, ""), left, m, ""));
    cg_loop_end(g, &l);
}

/* Bursts [first, first + count) of c. */
static cg_dma_call burst_range(cg *g, const cg_dma_call *c, LLVMValueRef first, LLVMValueRef count)
{
    cg_dma_call r = *c;
    r.src = byte_gep(g, c->src, LLVMBuildMul(g->b, first, c->src_stride, ""));
    r.dst = byte_gep(g, c->dst, LLVMBuildMul(g->b, first, c->dst_stride, ""));
    r.n_burst = count;
    return r;
}

static void one_burst(cg *g, const cg_dma_call *c, LLVMValueRef first, LLVMValueRef count)
{
    cg_dma_call r = burst_range(g, c, first, count);
    cg_dma(g)->emit(g, &r, cg_i64(g, 0), cg_i64(g, 0));
}

/* The gaps of c's strides, and whether they are in their fields' range. */
static LLVMValueRef gaps_of(cg *g, const cg_dma_model *m, const cg_dma_call *c, LLVMValueRef *gm_gap,
                            LLVMValueRef *ub_gap)
{
    LLVMValueRef gm_stride = c->to_ub ? c->src_stride : c->dst_stride;
    LLVMValueRef ub_stride = c->to_ub ? c->dst_stride : c->src_stride;
    LLVMValueRef extent = c->len_burst;
    if (c->right_pad)
        extent = LLVMBuildAdd(g->b, extent, LLVMBuildMul(g->b, c->right_pad, cg_i64(g, cg_elem_size(c->elem)), ""), "");
    extent = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, extent, cg_i64(g, 31), ""), cg_i64(g, -32), "");
    LLVMValueRef ub_rest = LLVMBuildSub(g->b, ub_stride, extent, "");
    *gm_gap = LLVMBuildSub(g->b, gm_stride, c->len_burst, "");
    *ub_gap = LLVMBuildAShr(g->b, ub_rest, cg_i64(g, 5), "");
    LLVMValueRef in[3] = {
        LLVMBuildICmp(g->b, LLVMIntULE, *gm_gap, cg_i64(g, m->max_gm_gap), ""),
        LLVMBuildICmp(g->b, LLVMIntULE, *ub_gap, cg_i64(g, m->max_ub_gap), ""),
        LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, ub_rest, cg_i64(g, 31), ""), cg_i64(g, 0), ""),
    };
    return LLVMBuildAnd(g->b, LLVMBuildAnd(g->b, in[0], in[1], ""), in[2], "gaps.fit");
}

/* One instruction for c's bursts when its gaps fit, else one per burst with
 * gaps 0; with a test at run time when that is not known. A single burst
 * is one instruction either way, with its gaps when they fit. */
static void gapped(cg *g, const cg_dma_call *c, LLVMValueRef first, LLVMValueRef count)
{
    const cg_dma_model *m = cg_dma(g);
    cg_dma_call r = burst_range(g, c, first, count);
    if (!m->max_gm_gap) {
        m->emit(g, &r, r.src_stride, r.dst_stride);
        return;
    }
    LLVMValueRef gm_gap, ub_gap, fit = gaps_of(g, m, &r, &gm_gap, &ub_gap);
    bool one = LLVMIsAConstantInt(r.n_burst) && LLVMConstIntGetSExtValue(r.n_burst) == 1;
    if (one) {
        gm_gap = LLVMBuildSelect(g->b, fit, gm_gap, cg_i64(g, 0), "");
        ub_gap = LLVMBuildSelect(g->b, fit, ub_gap, cg_i64(g, 0), "");
    }
    if (one || (LLVMIsAConstantInt(fit) && LLVMConstIntGetZExtValue(fit))) {
        m->emit(g, &r, r.to_ub ? gm_gap : ub_gap, r.to_ub ? ub_gap : gm_gap);
        return;
    }
    if (LLVMIsAConstantInt(fit)) {
        chunks(g, &r, r.n_burst, 1, one_burst);
        return;
    }
    LLVMBasicBlockRef yes = cg_block(g, "dma.gaps"), no = cg_block(g, "dma.each"), done = cg_block(g, "dma.done");
    LLVMBuildCondBr(g->b, fit, yes, no);
    LLVMPositionBuilderAtEnd(g->b, yes);
    m->emit(g, &r, r.to_ub ? gm_gap : ub_gap, r.to_ub ? ub_gap : gm_gap);
    LLVMBuildBr(g->b, done);
    LLVMPositionBuilderAtEnd(g->b, no);
    chunks(g, &r, r.n_burst, 1, one_burst);
    LLVMBuildBr(g->b, done);
    LLVMPositionBuilderAtEnd(g->b, done);
}

/* The bytes [first, first + count) of every burst; the pad follows the last
 * piece only. */
static void len_piece(cg *g, const cg_dma_call *c, LLVMValueRef first, LLVMValueRef count)
{
    cg_dma_call r = *c;
    r.src = byte_gep(g, c->src, first);
    r.dst = byte_gep(g, c->dst, first);
    r.len_burst = count;
    if (c->right_pad) {
        LLVMValueRef last = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAdd(g->b, first, count, ""), c->len_burst, "");
        r.right_pad = LLVMBuildSelect(g->b, last, c->right_pad, cg_i64(g, 0), "");
    }
    chunks(g, &r, r.n_burst, cg_dma(g)->max_n_burst, gapped);
}

void cg_dma_bursts(cg *g, const cg_dma_call *c)
{
    int64_t most = cg_dma(g)->max_len_burst;
    chunks(g, c, c->len_burst, most == INT64_MAX ? most : most & ~INT64_C(31), len_piece);
}
