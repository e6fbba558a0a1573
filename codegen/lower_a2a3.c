/* lower_a2a3.c: the executable semantics of the A2/A3 repeat intrinsics (the
 * a2a3.* rows of dialect/pto_vops.def), as LLVM IR: the one place that says
 * what each computes. The cpu target runs them; a backend for a2a3 is to
 * take these rules as its intrinsics' definitions.
 *
 * What it models (pto-isa include/pto/npu/a2a3, the CCE intrinsics its
 * programs call; docs/targets.md "a2a3"):
 *
 *   - The core's vector state, one per LLVM function (cg_a2a3_state): the
 *     128-bit vector mask (mask_hi: lanes 64-127, mask_lo: lanes 0-63), the
 *     mode (norm or counter), CMPMASK (128 bits) and the DMA's pad value
 *     (64 bits). It starts in norm mode with every lane on and CMPMASK 0,
 *     the state the library restores after each program (set_mask_norm;
 *     set_vector_mask(-1, -1)), and pad 0. The set_* ops write it;
 *     set_cmpmask loads its 16 bytes from UB.
 *   - The walk. An instruction runs `repeat` repeats of 8 blocks of 32 bytes,
 *     B = 32 / esize lanes a block, L = 8 * B a repeat. Operand X's element
 *     (r, b, e) is at X + (r * rep_X + b * blk_X) * 32 bytes + e * esize
 *     (blk 1, rep 8 when the lists are absent). Norm mode: lane j = b * B + e
 *     is on when bit j of the mask is. Counter mode: repeat is ignored; with
 *     n = mask_lo, element k < n is lane k % L of repeat k / L. An off lane's
 *     destination bytes are untouched. Each block is one LLVM vector of B
 *     lanes (loaded, computed, selected by its lanes, stored); a block with no
 *     lane on is not touched at all. The loops stay rolled.
 *   - The arithmetic is the micro-ops' (cg_vop_binary, cg_vop_unary,
 *     cg_vop_compare): on f16 lanes as LLVM computes half (in float, rounded
 *     to f16 after each op), x/0 = -1 on integers, max/min by ordered
 *     compares. vrec is 1 / x; vrsqrt 1 / sqrt(x), both in f32 and rounded
 *     once to the lane (as the cpu target's trsqrt). vexp and vln are the one
 *     exp and log of every target (cg_exp_f32, cg_log_f32: fixed float
 *     sequences, not the host's libm), f16 lanes in f32 rounded once.
 *   - vcmpv_* / vcmpvs_*: one bit per lane, LSB first; repeat r's L bits at
 *     dst + r * L / 8 bytes whatever dst's strides (pto-isa a2a3 TCmp.hpp
 *     places the next 240 repeats' bits 240 * L / 8 bytes on); the sources
 *     walk their strides. Every repeat that runs writes all its L bits, 0 for
 *     an off lane (the library runs them under the full mask in norm mode).
 *   - vsel: dst = bit ? a : b, lane by lane. CMPMASK_SPR: the bits are
 *     CMPMASK's, bit j for lane j of every repeat. TENSOR_SCALAR: repeat r's
 *     bits at the third pointer + r * L / 8 bytes, b the element at the start
 *     of CMPMASK (TSels.hpp stores the scalar there, then set_cmpmask).
 *     TENSOR_TENSOR: a, b the two sources, repeat r's bits at the UB address
 *     in CMPMASK's low 32 bits + r * L / 8 (TSel.hpp vector_dups the mask
 *     row's address, a uint32, into the buffer it then set_cmpmasks). A UB
 *     address is a byte offset from the base of the simulated vec space, as a
 *     tile's address is (codegen_internal.h, "Simulated memory").
 *   - vbrcb: unmasked, in either mode, `repeat` repeats: source elements 8r
 *     .. 8r + 7 (contiguous), element i filling block i of repeat r of dst.
 *   - vector_dup: every lane on gets the scalar.
 *   - vshl, vshr: each lane shifted by the scalar; vshr logical whatever the
 *     sign (TBitwiseSOp.hpp passes isArithmetic false); an amount of the
 *     width or more gives 0 (the cpu target's shift; the stubs say nothing).
 *   - ld_ub / st_ub: the scalar unit's load and store of one element in UB;
 *     an element outside UB traps.
 *   - vgather: element k (as the mode walks them, contiguous) = the element
 *     at UB byte address base + off[k] (u32); past UB's end traps.
 *   - vgatherb: unmasked, dst's blocks 8r + b (contiguous) = the 32 bytes at UB
 *     byte address base + off[8r + b]; past UB's end traps.
 *   - vreducev2: per repeat, the lanes on that its pattern selects (or the
 *     bits of its third pointer), packed contiguously into dst after the
 *     previous repeat's; in counter mode every repeat reads the count's
 *     first lanes (the library passes its row count as the repeat and its
 *     valid columns as the count); the number written is RSVD_CNT, which
 *     get_rsvd_cnt reads (a state field, 0 at the start).
 *   - vbitsort: unmasked; per repeat 32 pairs ranked by tsort32's order
 *     (cg_sort_precedes), each written whole (an f16 value's upper half 0).
 *   - vmrgsort4: unmasked; the merge of the cpu target's tmrgsort (ties to
 *     the earlier list, a NaN head never replaces another), every pair of
 *     the lists in use (count's fields) unless exhausted stops it after the
 *     step that empties one; VMS4_SR (get_vms4_sr) the pairs taken per list.
 *   - copy_gm_to_ubuf / copy_ubuf_to_gm (dst, src, n_burst, len_burst,
 *     left_pad, right_pad, src gap, dst gap): n_burst bursts of len_burst
 *     bytes. Between bursts the GM address advances by len_burst + its gap
 *     (bytes), the UB address by the burst's UB extent rounded up to 32 + its
 *     gap * 32: a2a3 TStore.hpp's ubGap is (Rows - shape) * esize >> 5, which
 *     with the rounded burst gives back the tile's pitch. A load writes
 *     left_pad elements before each burst and right_pad after it (its UB
 *     extent is all three), each the low bytes of the pad register, which
 *     set_mov_pad_val writes (cg_a2a3_set_pad_value; 0 at the start): the
 *     a2a3 TLoad ND2ND/DN2DN programs pad each line's tail so, up to its
 *     next 32 bytes. A store does not pad: a nonzero pad traps.
 *   - copy_ubuf_to_ubuf (dst, src, n_burst, len_burst, src gap, dst gap):
 *     n_burst bursts of len_burst 32-byte blocks; between bursts each address
 *     advances by len_burst + its gap blocks. Whole blocks, whatever the
 *     element type; the mask and mode do not apply.
 *   - ub_addr: the UB address of ptr + off (a byte offset from the base of
 *     the simulated vec space), in the result's integer type; ub_ptr: the
 *     pointer at a UB address. Neither is an instruction: a CCE program
 *     casts between __ubuf__ pointers and integers (TSel.hpp's mask row
 *     address, the library's scratch window at a fixed address).
 *   - vconv: a repeat is L = 256 / w elements, w the wider element size, 8
 *     groups of B = L / 8 (lane j = b * B + e as for the others: the mask
 *     counts elements, not the narrower type's lanes); group b of repeat r is
 *     at X + r * rep_X * 32 + b * B * esize_X bytes (blocks contiguous, as
 *     every TCvt.hpp call has them; rep 8 * esize_X / w when absent). Each
 *     element converts as tcvt does on every target (cg_convert_bits): by
 *     rnd (R when absent), saturating unless sat is NOSAT (CTRL[59], which
 *     TCvt.hpp sets from the op's saturation mode before its vconvs).
 *   - vcadd / vcmax / vcmin (dst, src, repeat): each repeat's L lanes, an
 *     off lane taken as the identity (0, -inf / +inf, the integer's least /
 *     greatest), reduced by a tree (lane k with lane k + half, half = L/2
 *     .. 1, as A5's vcadd) into one element at dst + r * rep[0] elements
 *     (rep[0] counts elements, not blocks; 1 when absent); the source walks
 *     blk[1] and rep[1] as the others do. A NaN sum is the quiet NaN, as the
 *     cpu target's reductions give it. The index vcmax / vcmin can pack
 *     beside the value (ONLY_VALUE off) is not modelled.
 *   - A repeat count above 255 (norm mode, or vbrcb) traps at run time
 *     (PTOC_RT_TRAP_A2A3_FIELD); the strides are attributes, 0..255 by the
 *     verifier.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/ptoc.h"
#include "ptoc/runtime.h"

#include <math.h>
#include <string.h>

/* The a2a3.* rows, by name: rows are appended to the table's end. */
bool cg_vop_is_a2a3(ptoc_pto_vop_id id)
{
    const ptoc_pto_vop_info *info = id < 0 ? NULL : ptoc_pto_vop_info_at((size_t)id);
    return info && !strncmp(info->name, "pto.a2a3.", 9);
}

/* ---------------------------------------------------------------- the vector state */

enum { ST_MASK_HI, ST_MASK_LO, ST_COUNTER, ST_CMPMASK, ST_PAD, ST_RSVD, ST_VMS4, ST_FIELDS };

static LLVMTypeRef i128_of(cg *g) { return LLVMIntTypeInContext(g->llctx, 128); }

static LLVMTypeRef state_type(cg *g)
{
    LLVMTypeRef fields[ST_FIELDS] = {g->i64, g->i64, g->i1, i128_of(g), g->i64, g->i64, g->i64};
    return LLVMStructTypeInContext(g->llctx, fields, ST_FIELDS, false);
}

LLVMValueRef cg_a2a3_state(cg *g)
{
    if (g->fn->a2a3_state)
        return g->fn->a2a3_state;
    LLVMValueRef st = cg_alloca(g, state_type(g), "a2a3.state");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(g->llctx);
    LLVMPositionBuilderAtEnd(b, g->fn->entry);   /* no terminator until the body is done */
    LLVMValueRef init[ST_FIELDS] = {LLVMConstAllOnes(g->i64), LLVMConstAllOnes(g->i64), LLVMConstNull(g->i1),
                                    LLVMConstNull(i128_of(g)), LLVMConstNull(g->i64), LLVMConstNull(g->i64),
                                    LLVMConstNull(g->i64)};
    LLVMBuildStore(b, LLVMConstNamedStruct(state_type(g), init, ST_FIELDS), st);
    LLVMDisposeBuilder(b);
    return g->fn->a2a3_state = st;
}

static LLVMValueRef field_ptr(cg *g, unsigned field)
{
    return LLVMBuildStructGEP2(g->b, state_type(g), cg_a2a3_state(g), field, "");
}

static LLVMValueRef field(cg *g, unsigned f)
{
    static const char *const names[] = {"mask.hi", "mask.lo", "counter", "cmpmask", "pad", "rsvd", "vms4"};
    LLVMTypeRef ty = f == ST_COUNTER ? g->i1 : f == ST_CMPMASK ? i128_of(g) : g->i64;
    return LLVMBuildLoad2(g->b, ty, field_ptr(g, f), names[f]);
}

static void set_field(cg *g, unsigned f, LLVMValueRef v) { LLVMBuildStore(g->b, v, field_ptr(g, f)); }

/* ---------------------------------------------------------------- operands */

static LLVMValueRef operand(cg *g, const ptoc_op *op, uint32_t i) { return cg_get(g, ptoc_op_operand(op, i)); }

/* A count or mask operand as i64: narrower integers sign-extended (so -1 :
 * i32 is every bit). */
static LLVMValueRef as_i64(cg *g, const ptoc_op *op, uint32_t i)
{
    LLVMValueRef v = operand(g, op, i);
    return LLVMTypeOf(v) == g->i64 ? v : LLVMBuildSExt(g->b, v, g->i64, "");
}

static const ptoc_type *ptr_elem(const ptoc_op *op, uint32_t i)
{
    const ptoc_type *t = ptoc_op_operand(op, i)->type, *e = ptoc_pto_ub_ptr_elem(t);
    return e ? e : ptoc_pto_ptr_elem(t);
}

/* Pointer operand i plus its offset (operand i + 1) in elements. */
static LLVMValueRef address(cg *g, const ptoc_op *op, uint32_t i)
{
    LLVMValueRef off = as_i64(g, op, i + 1);
    return LLVMBuildGEP2(g->b, cg_elem_type(g, ptr_elem(op, i)), operand(g, op, i), &off, 1, "");
}

static LLVMValueRef byte_gep(cg *g, LLVMValueRef p, LLVMValueRef bytes)
{
    return LLVMBuildGEP2(g->b, g->i8, p, &bytes, 1, "");
}

/* Entry k of the stride list `name`, or `fallback` without one. */
static int64_t stride(const ptoc_op *op, const char *name, uint32_t k, int64_t fallback)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    if (!a || a->kind != PTOC_ATTR_ARRAY || k >= a->u.array.n)
        return fallback;
    return a->u.array.elems[k]->u.integer.value;
}

static void trap_outside(cg *g, const ptoc_op *op, LLVMValueRef cond, LLVMValueRef v, int64_t most, int64_t which)
{
    cg_trap_if(g, cond, PTOC_RT_TRAP_A2A3_FIELD, op->loc, v, cg_i64(g, most), cg_i64(g, which));
}

/* ---------------------------------------------------------------- the walk */

typedef struct a2_walk a2_walk;
/* One block's result: B lanes of the element type (a compare's: <B x i1>). */
typedef LLVMValueRef (*block_fn)(cg *g, const ptoc_op *op, const a2_walk *w);

struct a2_walk {
    const ptoc_type *elem;     /* the lanes' element type */
    LLVMTypeRef lane, bits_ty; /* its LLVM type, the integer of its width */
    unsigned esize, B, L;
    bool unmasked;             /* vbrcb: every lane of `repeat` repeats */
    bool bits_out;             /* a compare: dst gets the block's bits */
    int arg;                   /* the rule's: its cg_vbin, cg_vun (A2_REC: vrec) or cg_vcmp */
    LLVMValueRef r, b;         /* the repeat and block (i64), in the body */
    LLVMValueRef active;       /* <B x i1>, in the body */
};

static LLVMValueRef i64c(cg *g, int64_t v) { return cg_i64(g, v); }

/* The element (r, b, 0) of pointer operand i, its strides at entry k. */
static LLVMValueRef block_address(cg *g, const ptoc_op *op, const a2_walk *w, uint32_t i, uint32_t k)
{
    LLVMValueRef rep = LLVMBuildMul(g->b, w->r, i64c(g, stride(op, "rep", k, 8)), "");
    LLVMValueRef blk = LLVMBuildMul(g->b, w->b, i64c(g, stride(op, "blk", k, 1)), "");
    LLVMValueRef bytes = LLVMBuildMul(g->b, LLVMBuildAdd(g->b, rep, blk, ""), i64c(g, 32), "");
    return byte_gep(g, address(g, op, i), bytes);
}

/* B lanes at addr, in the element's LLVM type. */
static LLVMValueRef load_block(cg *g, const a2_walk *w, LLVMValueRef addr)
{
    LLVMValueRef v = LLVMBuildLoad2(g->b, LLVMVectorType(w->lane, w->B), addr, "");
    LLVMSetAlignment(v, w->esize);
    return v;
}

static LLVMValueRef block_of(cg *g, const ptoc_op *op, const a2_walk *w, uint32_t i, uint32_t k)
{
    return load_block(g, w, block_address(g, op, w, i, k));
}

static LLVMValueRef splat_block(cg *g, const a2_walk *w, LLVMValueRef s) { return cg_splat(g, s, w->B); }

/* The B bits of this block among a repeat's L at `bits` + r * L / 8 bytes (u8s). */
static LLVMValueRef repeat_bits(cg *g, const a2_walk *w, LLVMValueRef bits)
{
    LLVMValueRef byte = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, w->r, i64c(g, w->L / 8), ""),
                                     LLVMBuildMul(g->b, w->b, i64c(g, w->B / 8), ""), "");
    return byte_gep(g, bits, byte);
}

static LLVMValueRef as_lanes(cg *g, const a2_walk *w, LLVMValueRef bits)
{
    return LLVMBuildBitCast(g->b, bits, LLVMVectorType(g->i1, w->B), "");
}

/* The block's B bits of a 128-bit value, bit b * B first. */
static LLVMValueRef bits_of_block(cg *g, const a2_walk *w, LLVMValueRef v128)
{
    LLVMValueRef at = LLVMBuildZExt(g->b, LLVMBuildMul(g->b, w->b, i64c(g, w->B), ""), i128_of(g), "");
    return LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, v128, at, ""), LLVMIntTypeInContext(g->llctx, w->B), "");
}

/* Counter mode: the lanes e of the block with r * L + b * B + e < n. */
static LLVMValueRef counted_bits(cg *g, const a2_walk *w, LLVMValueRef n)
{
    LLVMValueRef first = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, w->r, i64c(g, w->L), ""),
                                      LLVMBuildMul(g->b, w->b, i64c(g, w->B), ""), "");
    LLVMValueRef past = LLVMBuildICmp(g->b, LLVMIntUGE, first, n, "");
    LLVMValueRef left = LLVMBuildSelect(g->b, past, i64c(g, 0), LLVMBuildSub(g->b, n, first, ""), "");
    LLVMValueRef full = LLVMBuildICmp(g->b, LLVMIntUGE, left, i64c(g, w->B), "");
    left = LLVMBuildSelect(g->b, full, i64c(g, w->B), left, "");
    LLVMValueRef ones = LLVMBuildSub(g->b, LLVMBuildShl(g->b, i64c(g, 1), left, ""), i64c(g, 1), "");
    return LLVMBuildTrunc(g->b, ones, LLVMIntTypeInContext(g->llctx, w->B), "");
}

/* The lanes on in this block, as the state's mode says. */
static LLVMValueRef block_active(cg *g, const a2_walk *w)
{
    if (w->unmasked)
        return LLVMConstAllOnes(LLVMVectorType(g->i1, w->B));
    LLVMValueRef mask = LLVMBuildOr(g->b, LLVMBuildShl(g->b, LLVMBuildZExt(g->b, field(g, ST_MASK_HI), i128_of(g), ""),
                                                       LLVMConstInt(i128_of(g), 64, false), ""),
                                    LLVMBuildZExt(g->b, field(g, ST_MASK_LO), i128_of(g), ""), "");
    LLVMValueRef bits = LLVMBuildSelect(g->b, field(g, ST_COUNTER), counted_bits(g, w, field(g, ST_MASK_LO)),
                                        bits_of_block(g, w, mask), "");
    return as_lanes(g, w, bits);
}

/* How many repeats run: ceil(n / L) in counter mode, else `repeat`. */
static LLVMValueRef repeats_run(cg *g, const ptoc_op *op, const a2_walk *w)
{
    LLVMValueRef repeat = as_i64(g, op, op->noperands - 1);
    LLVMValueRef counter = w->unmasked ? LLVMConstNull(g->i1) : field(g, ST_COUNTER);
    if (w->unmasked)
        return repeat;
    LLVMValueRef n = field(g, ST_MASK_LO);
    LLVMValueRef whole = LLVMBuildUDiv(g->b, n, i64c(g, w->L), "");
    LLVMValueRef part = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildURem(g->b, n, i64c(g, w->L), ""), i64c(g, 0), "");
    LLVMValueRef counted = LLVMBuildAdd(g->b, whole, LLVMBuildZExt(g->b, part, g->i64, ""), "");
    return LLVMBuildSelect(g->b, counter, counted, repeat, "repeats");
}

/* repeats_run, after a trap when `repeat` is above 255 in norm mode. */
static LLVMValueRef repeats(cg *g, const ptoc_op *op, const a2_walk *w)
{
    LLVMValueRef repeat = as_i64(g, op, op->noperands - 1);
    LLVMValueRef counter = w->unmasked ? LLVMConstNull(g->i1) : field(g, ST_COUNTER);
    LLVMValueRef big = LLVMBuildICmp(g->b, LLVMIntUGT, repeat, i64c(g, 255), "");
    trap_outside(g, op, LLVMBuildAnd(g->b, big, LLVMBuildNot(g->b, counter, ""), ""), repeat, 255, 0);
    return repeats_run(g, op, w);
}

/* A compare's block: its bits, 0 for the lanes off, at dst + r * L / 8 + b * B / 8. */
static void store_bits(cg *g, const ptoc_op *op, const a2_walk *w, LLVMValueRef c)
{
    LLVMValueRef bits = LLVMBuildBitCast(g->b, LLVMBuildAnd(g->b, c, w->active, ""),
                                         LLVMIntTypeInContext(g->llctx, w->B), "");
    LLVMValueRef st = LLVMBuildStore(g->b, bits, repeat_bits(g, w, address(g, op, 0)));
    LLVMSetAlignment(st, 1);
}

/* A block of results into dst's lanes that are on (its other bytes kept). */
static void store_active(cg *g, const ptoc_op *op, const a2_walk *w, LLVMValueRef v)
{
    LLVMTypeRef bits = LLVMVectorType(w->bits_ty, w->B);
    LLVMValueRef at = block_address(g, op, w, 0, 0);
    LLVMValueRef old = LLVMBuildLoad2(g->b, bits, at, "");
    LLVMSetAlignment(old, w->esize);
    LLVMValueRef merged = LLVMBuildSelect(g->b, w->active, LLVMBuildBitCast(g->b, v, bits, ""), old, "");
    LLVMSetAlignment(LLVMBuildStore(g->b, merged, at), w->esize);
}

/* The block's body: a compare's bits, or when any lane is on, the results. */
static void walk_block(cg *g, const ptoc_op *op, a2_walk *w, block_fn f)
{
    w->active = block_active(g, w);
    if (w->bits_out) {
        store_bits(g, op, w, f(g, op, w));
        return;
    }
    LLVMValueRef any = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildBitCast(g->b, w->active, LLVMIntTypeInContext(g->llctx, w->B), ""),
                                     LLVMConstNull(LLVMIntTypeInContext(g->llctx, w->B)), "");
    LLVMBasicBlockRef on = cg_block(g, "a2a3.block"), next = cg_block(g, "a2a3.next");
    LLVMBuildCondBr(g->b, any, on, next);
    LLVMPositionBuilderAtEnd(g->b, on);
    store_active(g, op, w, f(g, op, w));
    LLVMBuildBr(g->b, next);
    LLVMPositionBuilderAtEnd(g->b, next);
}

/* The repeats and their 8 blocks, over lanes of `elem`. */
static bool walk(cg *g, const ptoc_op *op, const ptoc_type *elem, block_fn f, int arg, bool unmasked, bool bits_out)
{
    a2_walk w = {.elem = elem, .lane = cg_elem_type(g, elem), .esize = cg_elem_size(elem),
                 .unmasked = unmasked, .bits_out = bits_out, .arg = arg};
    w.bits_ty = LLVMIntTypeInContext(g->llctx, 8 * w.esize);
    w.B = 32 / w.esize;
    w.L = 8 * w.B;
    cg_loop rep, blk;
    cg_loop_begin(g, &rep, i64c(g, 0), repeats(g, op, &w), "a2a3.repeat");
    cg_loop_begin(g, &blk, i64c(g, 0), i64c(g, 8), "a2a3.blk");
    w.r = rep.iv;
    w.b = blk.iv;
    walk_block(g, op, &w, f);
    cg_loop_end(g, &blk);
    cg_loop_end(g, &rep);
    return true;
}

/* ---------------------------------------------------------------- the blocks */

/* vrec's and vrsqrt's rule->arg, past the cg_vun kinds. */
enum { A2_REC = 100, A2_RSQRT };

/* vrsqrt: 1 / sqrt(a) in f32 (f16 lanes widened first), rounded once to the lane. */
static LLVMValueRef rsqrt_block(cg *g, const a2_walk *w, LLVMValueRef a)
{
    LLVMTypeRef f32s = LLVMVectorType(g->f32, w->B);
    bool narrow = w->lane != g->f32;
    LLVMValueRef x = narrow ? LLVMBuildFPExt(g->b, a, f32s, "") : a;
    LLVMValueRef r = LLVMBuildFDiv(g->b, cg_splat(g, LLVMConstReal(g->f32, 1.0), w->B),
                                   cg_call_intrinsic(g, "llvm.sqrt", f32s, &x, 1), "");
    return narrow ? LLVMBuildFPTrunc(g->b, r, LLVMTypeOf(a), "") : r;
}

static LLVMValueRef binary_block(cg *g, const ptoc_op *op, const a2_walk *w)
{
    return cg_vop_binary(g, (cg_vbin)w->arg, w->elem, block_of(g, op, w, 2, 1), block_of(g, op, w, 4, 2));
}

static LLVMValueRef unary_block(cg *g, const ptoc_op *op, const a2_walk *w)
{
    LLVMValueRef a = block_of(g, op, w, 2, 1);
    if (w->arg == A2_REC)
        return LLVMBuildFDiv(g->b, splat_block(g, w, LLVMConstReal(w->lane, 1.0)), a, "");
    if (w->arg == A2_RSQRT)
        return rsqrt_block(g, w, a);
    return cg_vop_unary(g, (cg_vun)w->arg, w->elem, a);
}

static LLVMValueRef scalar_block(cg *g, const ptoc_op *op, const a2_walk *w)
{
    LLVMValueRef s = splat_block(g, w, operand(g, op, 4));
    return cg_vop_binary(g, (cg_vbin)w->arg, w->elem, block_of(g, op, w, 2, 1), s);
}

/* vshl, vshr (logical whatever the sign: the library calls it with
 * isArithmetic false): an amount of the width or more gives 0. */
static LLVMValueRef shift_block(cg *g, const ptoc_op *op, const a2_walk *w)
{
    LLVMValueRef a = block_of(g, op, w, 2, 1), s = splat_block(g, w, operand(g, op, 4));
    LLVMValueRef last = splat_block(g, w, LLVMConstInt(w->lane, 8 * w->esize - 1, false));
    LLVMValueRef big = LLVMBuildICmp(g->b, LLVMIntUGT, s, last, "");
    LLVMValueRef amt = LLVMBuildSelect(g->b, big, last, s, "");
    LLVMValueRef r = w->arg ? LLVMBuildShl(g->b, a, amt, "") : LLVMBuildLShr(g->b, a, amt, "");
    return LLVMBuildSelect(g->b, big, LLVMConstNull(LLVMTypeOf(a)), r, "");
}

static LLVMValueRef cmp_block(cg *g, const ptoc_op *op, const a2_walk *w)
{
    return cg_vop_compare(g, (cg_vcmp)w->arg, w->elem, block_of(g, op, w, 2, 1), block_of(g, op, w, 4, 2));
}

static LLVMValueRef cmps_block(cg *g, const ptoc_op *op, const a2_walk *w)
{
    LLVMValueRef s = splat_block(g, w, operand(g, op, 4));
    return cg_vop_compare(g, (cg_vcmp)w->arg, w->elem, block_of(g, op, w, 2, 1), s);
}

static LLVMValueRef dup_block(cg *g, const ptoc_op *op, const a2_walk *w)
{
    return splat_block(g, w, operand(g, op, 2));
}

/* vbrcb: source element 8r + b in every lane of block b. */
static LLVMValueRef brcb_block(cg *g, const ptoc_op *op, const a2_walk *w)
{
    LLVMValueRef k = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, w->r, i64c(g, 8), ""), w->b, "");
    LLVMValueRef at = LLVMBuildGEP2(g->b, w->lane, address(g, op, 2), &k, 1, "");
    LLVMValueRef s = LLVMBuildLoad2(g->b, w->lane, at, "");
    LLVMSetAlignment(s, w->esize);
    return splat_block(g, w, s);
}

typedef enum sel_mode { SEL_CMPMASK_SPR, SEL_TENSOR_SCALAR, SEL_TENSOR_TENSOR } sel_mode;

static sel_mode sel_mode_of(const ptoc_op *op)
{
    ptoc_attr *a = ptoc_op_attr(op, "sel_mode");
    const char *m = a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : "";
    return !strcmp(m, "TENSOR_SCALAR") ? SEL_TENSOR_SCALAR : !strcmp(m, "TENSOR_TENSOR") ? SEL_TENSOR_TENSOR
                                                                                        : SEL_CMPMASK_SPR;
}

/* The block's select bits by the mode: CMPMASK's, or a repeat's L bits in UB. */
static LLVMValueRef sel_bits(cg *g, const ptoc_op *op, const a2_walk *w, sel_mode m)
{
    if (m == SEL_CMPMASK_SPR)
        return as_lanes(g, w, bits_of_block(g, w, field(g, ST_CMPMASK)));
    LLVMValueRef base = address(g, op, 4);
    if (m == SEL_TENSOR_TENSOR) {
        LLVMValueRef ub = LLVMBuildZExt(g->b, LLVMBuildTrunc(g->b, field(g, ST_CMPMASK), g->i32, ""), g->i64, "");
        base = byte_gep(g, cg_space_base(g, PTOC_PTO_AS_VEC), ub);
    }
    LLVMValueRef bits = LLVMBuildLoad2(g->b, LLVMIntTypeInContext(g->llctx, w->B), repeat_bits(g, w, base), "");
    LLVMSetAlignment(bits, 1);
    return as_lanes(g, w, bits);
}

static LLVMValueRef sel_block(cg *g, const ptoc_op *op, const a2_walk *w)
{
    sel_mode m = sel_mode_of(op);
    LLVMValueRef a = block_of(g, op, w, 2, 1), b;
    if (m == SEL_TENSOR_SCALAR) {
        LLVMValueRef s = LLVMBuildTrunc(g->b, field(g, ST_CMPMASK), w->bits_ty, "");
        b = splat_block(g, w, LLVMBuildBitCast(g->b, s, w->lane, ""));
    } else
        b = block_of(g, op, w, 4, 2);
    return LLVMBuildSelect(g->b, sel_bits(g, op, w, m), a, b, "");
}

/* ---------------------------------------------------------------- vconv */

static size_t conv_wide(const ptoc_op *op)
{
    size_t ds = cg_elem_size(ptr_elem(op, 0)), ss = cg_elem_size(ptr_elem(op, 2));
    return ds > ss ? ds : ss;
}

static cg_round_mode conv_mode(const ptoc_op *op)
{
    static const char modes[] = "RAFCZO";
    ptoc_attr *a = ptoc_op_attr(op, "rnd");
    const char *at = a && a->kind == PTOC_ATTR_STRING && a->u.string->str[0] ? strchr(modes, a->u.string->str[0]) : NULL;
    return at ? (cg_round_mode)(at - modes) : CG_ROUND_R;
}

static bool conv_sat(const ptoc_op *op)
{
    ptoc_attr *a = ptoc_op_attr(op, "sat");
    return !(a && a->kind == PTOC_ATTR_STRING && !strcmp(a->u.string->str, "NOSAT"));
}

/* Group b of repeat r of pointer operand i (esize bytes an element), its repeat stride at entry k. */
static LLVMValueRef conv_address(cg *g, const ptoc_op *op, const a2_walk *w, uint32_t i, uint32_t k, size_t esize)
{
    int64_t wide = (int64_t)conv_wide(op);
    LLVMValueRef rep = LLVMBuildMul(g->b, w->r, i64c(g, 32 * stride(op, "rep", k, 8 * (int64_t)esize / wide)), "");
    LLVMValueRef grp = LLVMBuildMul(g->b, w->b, i64c(g, (int64_t)(w->B * esize)), "");
    return byte_gep(g, address(g, op, i), LLVMBuildAdd(g->b, rep, grp, ""));
}

/* One group: its B source elements converted into dst's lanes that are on. */
static void conv_group(cg *g, const ptoc_op *op, a2_walk *w)
{
    const ptoc_type *se = ptr_elem(op, 2);
    size_t ss = cg_elem_size(se);
    LLVMTypeRef sty = LLVMVectorType(LLVMIntTypeInContext(g->llctx, 8 * (unsigned)ss), w->B);
    LLVMValueRef ld = LLVMBuildLoad2(g->b, sty, conv_address(g, op, w, 2, 1, ss), "");
    LLVMSetAlignment(ld, (unsigned)ss);
    LLVMValueRef v = cg_convert_bits(g, se, w->elem, conv_mode(op), conv_sat(op), ld, w->B);
    LLVMTypeRef dty = LLVMVectorType(w->bits_ty, w->B);
    v = LLVMBuildBitCast(g->b, v, dty, "");
    LLVMValueRef at = conv_address(g, op, w, 0, 0, w->esize);
    LLVMValueRef old = LLVMBuildLoad2(g->b, dty, at, "");
    LLVMSetAlignment(old, w->esize);
    LLVMSetAlignment(LLVMBuildStore(g->b, LLVMBuildSelect(g->b, w->active, v, old, ""), at), w->esize);
}

static bool lower_conv(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *de = ptr_elem(op, 0);
    a2_walk w = {.elem = de, .lane = cg_elem_type(g, de), .esize = cg_elem_size(de)};
    w.bits_ty = LLVMIntTypeInContext(g->llctx, 8 * w.esize);
    w.B = 32 / (unsigned)conv_wide(op);
    w.L = 8 * w.B;
    cg_loop rep, blk;
    cg_loop_begin(g, &rep, i64c(g, 0), repeats(g, op, &w), "a2a3.repeat");
    cg_loop_begin(g, &blk, i64c(g, 0), i64c(g, 8), "a2a3.blk");
    w.r = rep.iv;
    w.b = blk.iv;
    w.active = block_active(g, &w);
    LLVMTypeRef bits = LLVMIntTypeInContext(g->llctx, w.B);
    LLVMValueRef any = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildBitCast(g->b, w.active, bits, ""), LLVMConstNull(bits), "");
    LLVMBasicBlockRef on = cg_block(g, "a2a3.block"), next = cg_block(g, "a2a3.next");
    LLVMBuildCondBr(g->b, any, on, next);
    LLVMPositionBuilderAtEnd(g->b, on);
    conv_group(g, op, &w);
    LLVMBuildBr(g->b, next);
    LLVMPositionBuilderAtEnd(g->b, next);
    cg_loop_end(g, &blk);
    cg_loop_end(g, &rep);
    return true;
}

/* ---------------------------------------------------------------- for the cost model */

static bool writes_bits(ptoc_pto_vop_id id)
{
    return id >= PTOC_PTO_VOP_A2A3_VCMPV_EQ && id <= PTOC_PTO_VOP_A2A3_VCMPVS_GE;
}

LLVMValueRef cg_a2a3_repeats_run(cg *g, const ptoc_op *op)
{
    ptoc_pto_vop_id id = ptoc_pto_vop(op);
    const ptoc_type *elem = ptr_elem(op, writes_bits(id) ? 2 : 0);
    a2_walk w = {.esize = cg_elem_size(elem), .unmasked = id == PTOC_PTO_VOP_A2A3_VBRCB};
    if (id == PTOC_PTO_VOP_A2A3_VCONV)
        w.esize = (unsigned)conv_wide(op);
    w.L = 8 * (32 / w.esize);
    return repeats_run(g, op, &w);
}

LLVMValueRef cg_a2a3_counter_mode(cg *g) { return field(g, ST_COUNTER); }

/* ---------------------------------------------------------------- the rules */

typedef enum a2_shape { SH_BINARY, SH_UNARY, SH_SCALAR, SH_CMP, SH_CMPS, SH_SEL, SH_BRCB, SH_DUP, SH_SHIFT } a2_shape;

static bool lower_walk(cg *g, ptoc_op *op, const cg_rule *rule, a2_shape shape)
{
    static const block_fn fns[] = {binary_block, unary_block, scalar_block, cmp_block,
                                   cmps_block,   sel_block,   brcb_block,   dup_block, shift_block};
    bool bits = shape == SH_CMP || shape == SH_CMPS;
    return walk(g, op, ptr_elem(op, bits ? 2 : 0), fns[shape], rule->arg, shape == SH_BRCB, bits);
}

static bool lower_binary(cg *g, ptoc_op *op, const cg_rule *rule) { return lower_walk(g, op, rule, SH_BINARY); }
static bool lower_unary(cg *g, ptoc_op *op, const cg_rule *rule) { return lower_walk(g, op, rule, SH_UNARY); }
static bool lower_scalar(cg *g, ptoc_op *op, const cg_rule *rule) { return lower_walk(g, op, rule, SH_SCALAR); }
static bool lower_cmp(cg *g, ptoc_op *op, const cg_rule *rule) { return lower_walk(g, op, rule, SH_CMP); }
static bool lower_cmps(cg *g, ptoc_op *op, const cg_rule *rule) { return lower_walk(g, op, rule, SH_CMPS); }
static bool lower_sel(cg *g, ptoc_op *op, const cg_rule *rule) { return lower_walk(g, op, rule, SH_SEL); }
static bool lower_brcb(cg *g, ptoc_op *op, const cg_rule *rule) { return lower_walk(g, op, rule, SH_BRCB); }
static bool lower_dup(cg *g, ptoc_op *op, const cg_rule *rule) { return lower_walk(g, op, rule, SH_DUP); }
static bool lower_shift(cg *g, ptoc_op *op, const cg_rule *rule) { return lower_walk(g, op, rule, SH_SHIFT); }

/* set_vector_mask hi, lo. */
static bool lower_set_mask(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    set_field(g, ST_MASK_HI, as_i64(g, op, 0));
    set_field(g, ST_MASK_LO, as_i64(g, op, 1));
    return true;
}

/* set_mask_norm (arg 0), set_mask_count (1). */
static bool lower_mode(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)op;
    set_field(g, ST_COUNTER, LLVMConstInt(g->i1, (unsigned long long)rule->arg, false));
    return true;
}

/* set_cmpmask ptr[off]: the 16 bytes there. */
static bool lower_set_cmpmask(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef v = LLVMBuildLoad2(g->b, i128_of(g), address(g, op, 0), "");
    LLVMSetAlignment(v, 1);
    set_field(g, ST_CMPMASK, v);
    return true;
}

/* len rounded up to 32 bytes, plus gap blocks of 32: a burst's UB step. */
static LLVMValueRef ub_step(cg *g, LLVMValueRef len, LLVMValueRef gap)
{
    LLVMValueRef up = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, len, i64c(g, 31), ""), i64c(g, ~(int64_t)31), "");
    return LLVMBuildAdd(g->b, up, LLVMBuildMul(g->b, gap, i64c(g, 32), ""), "");
}

/* Fills `count` elements of esize bytes at p with the low bytes of the pad
 * register. */
static void fill_pad(cg *g, LLVMValueRef p, LLVMValueRef count, unsigned esize)
{
    LLVMTypeRef ety = LLVMIntTypeInContext(g->llctx, 8 * esize);
    LLVMValueRef v = LLVMBuildTrunc(g->b, field(g, ST_PAD), ety, "pad.value");
    cg_loop l;
    cg_loop_begin(g, &l, i64c(g, 0), count, "a2a3.pad");
    LLVMSetAlignment(LLVMBuildStore(g->b, v, LLVMBuildGEP2(g->b, ety, p, &l.iv, 1, "")), 1);
    cg_loop_end(g, &l);
}

void cg_a2a3_set_pad_value(cg *g, LLVMValueRef bits)
{
    set_field(g, ST_PAD, bits);
}

/* The bursts, one memcpy each; a load's burst i lands in UB after left_pad
 * pad elements and is followed by right_pad of them, the burst's UB extent
 * being their bytes rounded up to 32. A store's pads are 0 (A2/A3 TStore
 * passes 0): nonzero ones trap. */
void cg_a2a3_copy(cg *g, bool to_ub, unsigned esize, LLVMValueRef dst, LLVMValueRef src, LLVMValueRef const f[6],
                  ptoc_loc loc)
{
    LLVMValueRef n = f[0], len = f[1], left = f[2], right = f[3], src_gap = f[4], dst_gap = f[5];
    if (!to_ub)
        for (uint32_t pad = 0; pad < 2; pad++)
            cg_trap_if(g, LLVMBuildICmp(g->b, LLVMIntNE, f[2 + pad], i64c(g, 0), ""), PTOC_RT_TRAP_A2A3_FIELD, loc,
                       f[2 + pad], i64c(g, 0), i64c(g, 1 + pad));
    LLVMValueRef es = i64c(g, esize), lbytes = LLVMBuildMul(g->b, left, es, "");
    LLVMValueRef rbytes = LLVMBuildMul(g->b, right, es, "");
    LLVMValueRef ub_len = LLVMBuildAdd(g->b, LLVMBuildAdd(g->b, lbytes, len, ""), rbytes, "");
    LLVMValueRef src_step = to_ub ? LLVMBuildAdd(g->b, len, src_gap, "") : ub_step(g, len, src_gap);
    LLVMValueRef dst_step = to_ub ? ub_step(g, ub_len, dst_gap) : LLVMBuildAdd(g->b, len, dst_gap, "");
    cg_loop burst;
    cg_loop_begin(g, &burst, i64c(g, 0), n, "a2a3.burst");
    LLVMValueRef d = byte_gep(g, dst, LLVMBuildMul(g->b, burst.iv, dst_step, ""));
    LLVMValueRef s = byte_gep(g, src, LLVMBuildMul(g->b, burst.iv, src_step, ""));
    if (to_ub) {
        fill_pad(g, d, left, esize);
        d = byte_gep(g, d, lbytes);
        fill_pad(g, byte_gep(g, d, len), right, esize);
    }
    LLVMBuildMemCpy(g->b, d, 1, s, 1, len);
    cg_loop_end(g, &burst);
}

/* copy_gm_to_ubuf (arg 1) and copy_ubuf_to_gm (0). */
static bool lower_copy(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMValueRef f[6];
    for (uint32_t k = 0; k < 6; k++)
        f[k] = as_i64(g, op, 4 + k);
    cg_a2a3_copy(g, rule->arg, cg_elem_size(ptr_elem(op, 0)), address(g, op, 0), address(g, op, 2), f, op->loc);
    return true;
}

/* copy_ubuf_to_ubuf: burst i of len_burst blocks, from src + i * (len_burst +
 * src_gap) blocks to dst + i * (len_burst + dst_gap) blocks. */
static bool lower_copy_ub(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef n = as_i64(g, op, 4), len = LLVMBuildMul(g->b, as_i64(g, op, 5), i64c(g, 32), "");
    LLVMValueRef src_step = LLVMBuildAdd(g->b, len, LLVMBuildMul(g->b, as_i64(g, op, 6), i64c(g, 32), ""), "");
    LLVMValueRef dst_step = LLVMBuildAdd(g->b, len, LLVMBuildMul(g->b, as_i64(g, op, 7), i64c(g, 32), ""), "");
    LLVMValueRef dst = address(g, op, 0), src = address(g, op, 2);
    cg_loop burst;
    cg_loop_begin(g, &burst, i64c(g, 0), n, "a2a3.burst");
    LLVMValueRef d = byte_gep(g, dst, LLVMBuildMul(g->b, burst.iv, dst_step, ""));
    LLVMValueRef s = byte_gep(g, src, LLVMBuildMul(g->b, burst.iv, src_step, ""));
    LLVMBuildMemMove(g->b, d, 1, s, 1, len);
    cg_loop_end(g, &burst);
    return true;
}

/* The identity of a whole reduce over `elem` lanes. */
static LLVMValueRef reduce_identity(cg *g, cg_vbin k, const ptoc_type *elem, LLVMTypeRef lane)
{
    if (ptoc_type_is_float(elem))
        return LLVMConstReal(lane, k == VB_ADD ? 0.0 : k == VB_MAX ? -INFINITY : INFINITY);
    unsigned bits = ptoc_type_bitwidth(elem);
    bool is_signed = elem->u.integer.sign != PTOC_UNSIGNED;
    uint64_t ones = bits == 64 ? ~0ull : (1ull << bits) - 1, top = 1ull << (bits - 1);
    uint64_t v = k == VB_ADD ? 0 : k == VB_MAX ? (is_signed ? top : 0) : (is_signed ? top - 1 : ones);
    return LLVMConstInt(lane, v, false);
}

/* vcadd / vcmax / vcmin: per repeat, the active lanes reduced by a tree into one element. */
static bool lower_whole_reduce(cg *g, ptoc_op *op, const cg_rule *rule)
{
    const ptoc_type *elem = ptr_elem(op, 0);
    a2_walk w = {.elem = elem, .lane = cg_elem_type(g, elem), .esize = cg_elem_size(elem), .arg = rule->arg};
    w.B = 32 / w.esize;
    w.L = 8 * w.B;
    cg_vbin k = (cg_vbin)rule->arg;
    LLVMValueRef buf = cg_alloca(g, LLVMArrayType(w.lane, w.L), "a2a3.reduce");
    LLVMValueRef id = splat_block(g, &w, reduce_identity(g, k, elem, w.lane));
    cg_loop rep, blk;
    cg_loop_begin(g, &rep, i64c(g, 0), repeats(g, op, &w), "a2a3.repeat");
    w.r = rep.iv;
    cg_loop_begin(g, &blk, i64c(g, 0), i64c(g, 8), "a2a3.blk");
    w.b = blk.iv;
    LLVMValueRef lanes = LLVMBuildSelect(g->b, block_active(g, &w), block_of(g, op, &w, 2, 1), id, "");
    LLVMValueRef at = LLVMBuildMul(g->b, w.b, i64c(g, w.B), "");
    LLVMSetAlignment(LLVMBuildStore(g->b, lanes, LLVMBuildGEP2(g->b, w.lane, buf, &at, 1, "")), w.esize);
    cg_loop_end(g, &blk);
    for (unsigned half = w.L / 2; half >= 1; half /= 2) {
        LLVMTypeRef vt = LLVMVectorType(w.lane, half);
        LLVMValueRef off = i64c(g, half);
        LLVMValueRef lo = LLVMBuildLoad2(g->b, vt, buf, "");
        LLVMValueRef hi = LLVMBuildLoad2(g->b, vt, LLVMBuildGEP2(g->b, w.lane, buf, &off, 1, ""), "");
        LLVMSetAlignment(lo, w.esize);
        LLVMSetAlignment(hi, w.esize);
        LLVMSetAlignment(LLVMBuildStore(g->b, cg_vop_binary(g, k, elem, lo, hi), buf), w.esize);
    }
    LLVMValueRef res = LLVMBuildLoad2(g->b, w.lane, buf, "");
    if (k == VB_ADD && ptoc_type_is_float(elem)) {
        LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, res, res, "");
        res = LLVMBuildSelect(g->b, nan, LLVMConstReal(w.lane, NAN), res, "");
    }
    LLVMValueRef dst_at = LLVMBuildMul(g->b, w.r, i64c(g, stride(op, "rep", 0, 1)), "");
    LLVMValueRef to = LLVMBuildGEP2(g->b, w.lane, address(g, op, 0), &dst_at, 1, "");
    LLVMSetAlignment(LLVMBuildStore(g->b, res, to), w.esize);
    cg_loop_end(g, &rep);
    return true;
}

/* ub_addr p[off]: the address's byte offset from the vec space's base. */
static bool lower_ub_addr(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef at = LLVMBuildPtrToInt(g->b, address(g, op, 0), g->i64, "");
    LLVMValueRef base = LLVMBuildPtrToInt(g->b, cg_space_base(g, PTOC_PTO_AS_VEC), g->i64, "");
    LLVMValueRef off = LLVMBuildSub(g->b, at, base, "ub.addr");
    LLVMTypeRef ty = cg_type(g, op->results[0].type, op->loc);
    cg_set(g, &op->results[0], ty == g->i64 ? off : LLVMBuildTrunc(g->b, off, ty, ""));
    return true;
}

/* ld_ub (arg 1) / st_ub (0): the scalar unit's one element at ptr + off. */
static bool lower_ub_scalar(cg *g, ptoc_op *op, const cg_rule *rule)
{
    uint32_t p = rule->arg ? 0 : 1;
    unsigned esize = cg_elem_size(ptr_elem(op, p));
    LLVMValueRef at = address(g, op, p);
    /* an element outside UB traps (a scatter's index past its tile may land anywhere) */
    LLVMValueRef base = LLVMBuildPtrToInt(g->b, cg_space_base(g, PTOC_PTO_AS_VEC), g->i64, "");
    LLVMValueRef off = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, at, g->i64, ""), base, "");
    int64_t cap = (int64_t)cg_capacity(g, PTOC_PTO_AS_VEC);
    LLVMValueRef out = LLVMBuildICmp(g->b, LLVMIntUGT, LLVMBuildAdd(g->b, off, i64c(g, esize), ""), i64c(g, cap), "");
    cg_trap_if(g, out, PTOC_RT_TRAP_INDEX, op->loc, LLVMBuildSDiv(g->b, off, i64c(g, esize), ""), i64c(g, cap / esize),
               i64c(g, 3));
    if (rule->arg) {
        LLVMTypeRef ty = cg_type(g, op->results[0].type, op->loc);
        cg_set(g, &op->results[0], LLVMBuildLoad2(g->b, ty, at, "ld_ub"));
    } else {
        LLVMBuildStore(g->b, operand(g, op, 0), at);
    }
    return true;
}

/* Whether lane k of a repeat (k < L) is on in norm mode: bit k of the mask. */
static LLVMValueRef lane_on(cg *g, LLVMValueRef k)
{
    LLVMValueRef hi = LLVMBuildICmp(g->b, LLVMIntUGE, k, i64c(g, 64), "");
    LLVMValueRef word = LLVMBuildSelect(g->b, hi, field(g, ST_MASK_HI), field(g, ST_MASK_LO), "");
    LLVMValueRef at = LLVMBuildSelect(g->b, hi, LLVMBuildSub(g->b, k, i64c(g, 64), ""), k, "");
    LLVMValueRef bit = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, word, at, ""), i64c(g, 1), "");
    return LLVMBuildICmp(g->b, LLVMIntNE, bit, i64c(g, 0), "on");
}

/* Branches to a fresh block when cond holds; returns the block after. */
static LLVMBasicBlockRef when(cg *g, LLVMValueRef cond, const char *name)
{
    LLVMBasicBlockRef yes = cg_block(g, name), next = cg_block(g, "a2a3.next");
    LLVMBuildCondBr(g->b, cond, yes, next);
    LLVMPositionBuilderAtEnd(g->b, yes);
    return next;
}

static void join(cg *g, LLVMBasicBlockRef next)
{
    LLVMBuildBr(g->b, next);
    LLVMPositionBuilderAtEnd(g->b, next);
}

/* vgather dst, off, base, repeat: element k (counter mode k < the count; norm
 * mode k < repeat * L, lane k % L on) = the element at UB byte base + off[k];
 * an element past UB's end traps. */
static bool lower_vgather(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *elem = ptr_elem(op, 0);
    unsigned esize = cg_elem_size(elem), L = 256 / esize;
    LLVMTypeRef bits = LLVMIntTypeInContext(g->llctx, 8 * esize);
    LLVMValueRef counter = field(g, ST_COUNTER);
    LLVMValueRef total = LLVMBuildSelect(g->b, counter, field(g, ST_MASK_LO),
                                         LLVMBuildMul(g->b, as_i64(g, op, 5), i64c(g, L), ""), "");
    LLVMValueRef dst = address(g, op, 0), off = address(g, op, 2), base = as_i64(g, op, 4);
    LLVMValueRef ub = cg_space_base(g, PTOC_PTO_AS_VEC);
    int64_t cap = (int64_t)cg_capacity(g, PTOC_PTO_AS_VEC);
    cg_loop k;
    cg_loop_begin(g, &k, i64c(g, 0), total, "a2a3.vgather");
    LLVMValueRef on = LLVMBuildOr(g->b, counter, lane_on(g, LLVMBuildURem(g->b, k.iv, i64c(g, L), "")), "");
    LLVMBasicBlockRef next = when(g, on, "a2a3.vgather.on");
    LLVMValueRef o = LLVMBuildLoad2(g->b, g->i32, LLVMBuildGEP2(g->b, g->i32, off, &k.iv, 1, ""), "");
    LLVMValueRef at = LLVMBuildAdd(g->b, base, LLVMBuildZExt(g->b, o, g->i64, ""), "");
    LLVMValueRef out = LLVMBuildICmp(g->b, LLVMIntUGT, LLVMBuildAdd(g->b, at, i64c(g, esize), ""), i64c(g, cap), "");
    cg_trap_if(g, out, PTOC_RT_TRAP_INDEX, op->loc, LLVMBuildUDiv(g->b, at, i64c(g, esize), ""),
               i64c(g, cap / esize), i64c(g, 3));
    LLVMValueRef v = LLVMBuildLoad2(g->b, bits, byte_gep(g, ub, at), "");
    LLVMSetAlignment(v, 1);
    LLVMSetAlignment(LLVMBuildStore(g->b, v, LLVMBuildGEP2(g->b, bits, dst, &k.iv, 1, "")), 1);
    join(g, next);
    cg_loop_end(g, &k);
    return true;
}

/* vgatherb dst, off, base, repeat: block 8r + b of dst = the 32 bytes at
 * UB byte address base + off[8r + b]; a block past UB's end traps. */
static bool lower_vgatherb(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef dst = address(g, op, 0), off = address(g, op, 2), base = as_i64(g, op, 4);
    LLVMValueRef ub = cg_space_base(g, PTOC_PTO_AS_VEC);
    int64_t cap = (int64_t)cg_capacity(g, PTOC_PTO_AS_VEC);
    cg_loop k;
    cg_loop_begin(g, &k, i64c(g, 0), LLVMBuildMul(g->b, as_i64(g, op, 5), i64c(g, 8), ""), "a2a3.vgatherb");
    LLVMValueRef o = LLVMBuildLoad2(g->b, g->i32, LLVMBuildGEP2(g->b, g->i32, off, &k.iv, 1, ""), "");
    LLVMValueRef at = LLVMBuildAdd(g->b, base, LLVMBuildZExt(g->b, o, g->i64, ""), "");
    LLVMValueRef out = LLVMBuildICmp(g->b, LLVMIntUGT, LLVMBuildAdd(g->b, at, i64c(g, 32), ""), i64c(g, cap), "");
    cg_trap_if(g, out, PTOC_RT_TRAP_INDEX, op->loc, LLVMBuildUDiv(g->b, at, i64c(g, 32), ""), i64c(g, cap / 32),
               i64c(g, 3));
    LLVMBuildMemMove(g->b, byte_gep(g, dst, LLVMBuildMul(g->b, k.iv, i64c(g, 32), "")), 1, byte_gep(g, ub, at), 1,
                     i64c(g, 32));
    cg_loop_end(g, &k);
    return true;
}

/* Whether vreducev2's pattern p (1-7) selects lane e. */
static LLVMValueRef pattern_selects(cg *g, LLVMValueRef p, LLVMValueRef e)
{
    /* P0101 P1010: e % 2 == p - 1; P0001 .. P1000: e % 4 == p - 3; P1111: all */
    LLVMValueRef two = LLVMBuildICmp(g->b, LLVMIntULE, p, i64c(g, 2), "");
    LLVMValueRef m = LLVMBuildSelect(g->b, two, i64c(g, 2), i64c(g, 4), "");
    LLVMValueRef first = LLVMBuildSub(g->b, p, LLVMBuildSelect(g->b, two, i64c(g, 1), i64c(g, 3), ""), "");
    LLVMValueRef hit = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildURem(g->b, e, m, ""), first, "");
    return LLVMBuildOr(g->b, hit, LLVMBuildICmp(g->b, LLVMIntEQ, p, i64c(g, 7), ""), "");
}

/* vreducev2 dst, src, bits, pattern, src_rep, bits_rep, repeat: per repeat
 * r (counter mode: each repeat reads the count's first lanes), the lanes e
 * on that the pattern (0: bit e at bits + r * bits_rep blocks) selects, of
 * src + r * src_rep blocks, packed into dst; RSVD_CNT = how many. */
static bool lower_vreducev2(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *elem = ptr_elem(op, 0);
    unsigned esize = cg_elem_size(elem), L = 256 / esize;
    LLVMTypeRef bits = LLVMIntTypeInContext(g->llctx, 8 * esize);
    LLVMValueRef counter = field(g, ST_COUNTER);
    LLVMValueRef lanes = LLVMBuildSelect(g->b, counter, field(g, ST_MASK_LO), i64c(g, L), "");
    LLVMValueRef dst = address(g, op, 0), src = address(g, op, 2), mask = address(g, op, 4);
    LLVMValueRef pat = as_i64(g, op, 6), srep = as_i64(g, op, 7), brep = as_i64(g, op, 8);
    LLVMValueRef n = cg_alloca(g, g->i64, "a2a3.packed");
    LLVMBuildStore(g->b, i64c(g, 0), n);
    cg_loop r, e;
    cg_loop_begin(g, &r, i64c(g, 0), as_i64(g, op, 9), "a2a3.vreducev2");
    LLVMValueRef srow = byte_gep(g, src, LLVMBuildMul(g->b, r.iv, LLVMBuildMul(g->b, srep, i64c(g, 32), ""), ""));
    LLVMValueRef brow = byte_gep(g, mask, LLVMBuildMul(g->b, r.iv, LLVMBuildMul(g->b, brep, i64c(g, 32), ""), ""));
    cg_loop_begin(g, &e, i64c(g, 0), lanes, "a2a3.vreducev2.lane");
    LLVMValueRef byte = LLVMBuildLoad2(g->b, g->i8, byte_gep(g, brow, LLVMBuildUDiv(g->b, e.iv, i64c(g, 8), "")), "");
    LLVMValueRef bit = LLVMBuildTrunc(g->b, LLVMBuildURem(g->b, e.iv, i64c(g, 8), ""), g->i8, "");
    LLVMValueRef user = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, byte, bit, ""),
                                                                    LLVMConstInt(g->i8, 1, false), ""),
                                      LLVMConstInt(g->i8, 0, false), "");
    LLVMValueRef sel = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, pat, i64c(g, 0), ""), user,
                                       pattern_selects(g, pat, e.iv), "");
    LLVMValueRef on = LLVMBuildOr(g->b, counter, lane_on(g, LLVMBuildURem(g->b, e.iv, i64c(g, L), "")), "");
    LLVMBasicBlockRef next = when(g, LLVMBuildAnd(g->b, on, sel, ""), "a2a3.vreducev2.take");
    LLVMValueRef v = LLVMBuildLoad2(g->b, bits, LLVMBuildGEP2(g->b, bits, srow, &e.iv, 1, ""), "");
    LLVMValueRef k = LLVMBuildLoad2(g->b, g->i64, n, "");
    LLVMBuildStore(g->b, v, LLVMBuildGEP2(g->b, bits, dst, &k, 1, ""));
    LLVMBuildStore(g->b, LLVMBuildAdd(g->b, k, i64c(g, 1), ""), n);
    join(g, next);
    cg_loop_end(g, &e);
    cg_loop_end(g, &r);
    set_field(g, ST_RSVD, LLVMBuildLoad2(g->b, g->i64, n, ""));
    return true;
}

/* get_rsvd_cnt / get_vms4_sr: the state field rule->arg (ST_RSVD, ST_VMS4),
 * as the result's integer type. */
static bool lower_get_state(cg *g, ptoc_op *op, const cg_rule *rule)
{
    LLVMTypeRef ty = cg_type(g, op->results[0].type, op->loc);
    LLVMValueRef v = field(g, (unsigned)rule->arg);
    cg_set(g, &op->results[0], ty == g->i64 ? v : LLVMBuildTrunc(g->b, v, ty, ""));
    return true;
}

/* vbitsort dst, src, idx, repeat: per repeat, each of the 32 (value, index)
 * pairs goes to the slot its rank gives (cg_sort_precedes, as tsort32). */
static bool lower_vbitsort(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMBuilderRef B = g->b;
    const ptoc_type *elem = ptr_elem(op, 0);
    unsigned esize = cg_elem_size(elem);
    LLVMTypeRef bits = LLVMIntTypeInContext(g->llctx, 8 * esize);
    LLVMValueRef dst = address(g, op, 0), src = address(g, op, 2), idx = address(g, op, 4);
    LLVMValueRef rank = cg_alloca(g, g->i64, "a2a3.rank");
    cg_loop r, k, j;
    cg_loop_begin(g, &r, i64c(g, 0), as_i64(g, op, 6), "a2a3.vbitsort");
    LLVMValueRef first = LLVMBuildMul(B, r.iv, i64c(g, 32), "");
    LLVMValueRef out = byte_gep(g, dst, LLVMBuildMul(B, r.iv, i64c(g, 256), ""));
    cg_loop_begin(g, &k, i64c(g, 0), i64c(g, 32), "a2a3.vbitsort.elem");
    LLVMValueRef ck = LLVMBuildAdd(B, first, k.iv, "");
    LLVMValueRef pk = LLVMBuildGEP2(B, bits, src, &ck, 1, "");
    LLVMValueRef vk = cg_load_elem(g, elem, pk), bk = LLVMBuildLoad2(B, bits, pk, "");
    LLVMValueRef ik = LLVMBuildLoad2(B, g->i32, LLVMBuildGEP2(B, g->i32, idx, &ck, 1, ""), "");
    LLVMBuildStore(B, i64c(g, 0), rank);
    cg_loop_begin(g, &j, i64c(g, 0), i64c(g, 32), "a2a3.vbitsort.other");
    LLVMValueRef cj = LLVMBuildAdd(B, first, j.iv, "");
    LLVMValueRef vj = cg_load_elem(g, elem, LLVMBuildGEP2(B, bits, src, &cj, 1, ""));
    LLVMValueRef ij = LLVMBuildLoad2(B, g->i32, LLVMBuildGEP2(B, g->i32, idx, &cj, 1, ""), "");
    LLVMValueRef before = LLVMBuildZExt(B, cg_sort_precedes(g, vj, ij, j.iv, vk, ik, k.iv), g->i64, "");
    LLVMBuildStore(B, LLVMBuildAdd(B, LLVMBuildLoad2(B, g->i64, rank, ""), before, ""), rank);
    cg_loop_end(g, &j);
    LLVMValueRef slot = byte_gep(g, out, LLVMBuildMul(B, LLVMBuildLoad2(B, g->i64, rank, ""), i64c(g, 8), ""));
    LLVMBuildStore(B, LLVMBuildZExtOrBitCast(B, bk, g->i32, ""), slot);   /* f16: 16 zero bits after the value */
    LLVMBuildStore(B, ik, byte_gep(g, slot, i64c(g, 4)));
    cg_loop_end(g, &k);
    cg_loop_end(g, &r);
    return true;
}

/* vmrgsort4 dst, l0, l1, l2, l3, count, config (the instruction's row in pto_vops.def). */
static bool lower_vmrgsort4(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMBuilderRef B = g->b;
    const ptoc_type *elem = ptr_elem(op, 0);
    LLVMTypeRef vt = cg_compute_type(g, elem), pt = LLVMPointerTypeInContext(g->llctx, 0);
    LLVMValueRef count = as_i64(g, op, 10), config = as_i64(g, op, 11);
    LLVMValueRef repeat = LLVMBuildAnd(B, config, i64c(g, 0xff), "");
    LLVMValueRef exhausted = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, config, i64c(g, 1 << 12), ""), i64c(g, 0), "");
    LLVMValueRef len[4], at[4], base[4], total = i64c(g, 0);
    for (unsigned k = 0; k < 4; k++) {
        LLVMValueRef on = LLVMBuildAnd(B, LLVMBuildLShr(B, config, i64c(g, 8 + k), ""), i64c(g, 1), "");
        LLVMValueRef n = LLVMBuildAnd(B, LLVMBuildLShr(B, count, i64c(g, 16 * k), ""), i64c(g, 0xffff), "");
        len[k] = LLVMBuildMul(B, n, on, "");
        total = LLVMBuildAdd(B, total, len[k], "");
        at[k] = cg_alloca(g, g->i64, "a2a3.at");
    }
    LLVMValueRef out = cg_alloca(g, g->i64, "a2a3.out"), pick = cg_alloca(g, g->i64, "a2a3.pick");
    LLVMValueRef best = cg_alloca(g, vt, "a2a3.best"), from = cg_alloca(g, pt, "a2a3.from");
    cg_loop r;
    cg_loop_begin(g, &r, i64c(g, 0), repeat, "a2a3.vmrgsort4");
    LLVMValueRef shift = LLVMBuildMul(B, LLVMBuildMul(B, r.iv, total, ""), i64c(g, 8), "");
    for (unsigned k = 0; k < 4; k++) {
        base[k] = byte_gep(g, address(g, op, 2 + 2 * k), shift);
        LLVMBuildStore(B, i64c(g, 0), at[k]);
    }
    LLVMValueRef dst = byte_gep(g, address(g, op, 0), shift);
    LLVMBuildStore(B, i64c(g, 0), out);
    LLVMBasicBlockRef step = cg_block(g, "a2a3.merge.step"), take = cg_block(g, "a2a3.merge.take");
    LLVMBasicBlockRef done = cg_block(g, "a2a3.merge.done");
    LLVMBuildBr(B, step);
    LLVMPositionBuilderAtEnd(B, step);
    LLVMBuildStore(B, i64c(g, -1), pick);
    LLVMBuildStore(B, LLVMConstNull(vt), best);
    LLVMBuildStore(B, LLVMConstNull(pt), from);
    for (unsigned k = 0; k < 4; k++) {
        LLVMValueRef a = LLVMBuildLoad2(B, g->i64, at[k], "");
        LLVMValueRef has = LLVMBuildICmp(B, LLVMIntULT, a, len[k], "");
        LLVMValueRef p = byte_gep(g, base[k], LLVMBuildMul(B, LLVMBuildSelect(B, has, a, i64c(g, 0), ""), i64c(g, 8), ""));
        LLVMBasicBlockRef next = when(g, has, "a2a3.merge.head");
        LLVMValueRef v = cg_load_elem(g, elem, p);
        LLVMValueRef none = LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildLoad2(B, g->i64, pick, ""), i64c(g, 0), "");
        LLVMValueRef greater = LLVMBuildFCmp(B, LLVMRealOGT, v, LLVMBuildLoad2(B, vt, best, ""), "");
        LLVMValueRef choose = LLVMBuildOr(B, none, greater, "");
        LLVMBuildStore(B, LLVMBuildSelect(B, choose, i64c(g, k), LLVMBuildLoad2(B, g->i64, pick, ""), ""), pick);
        LLVMBuildStore(B, LLVMBuildSelect(B, choose, v, LLVMBuildLoad2(B, vt, best, ""), ""), best);
        LLVMBuildStore(B, LLVMBuildSelect(B, choose, p, LLVMBuildLoad2(B, pt, from, ""), ""), from);
        join(g, next);
    }
    LLVMValueRef picked = LLVMBuildLoad2(B, g->i64, pick, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGE, picked, i64c(g, 0), ""), take, done);
    LLVMPositionBuilderAtEnd(B, take);
    LLVMValueRef o = LLVMBuildLoad2(B, g->i64, out, "");
    LLVMValueRef pair = LLVMBuildLoad2(B, g->i64, LLVMBuildLoad2(B, pt, from, ""), "");
    LLVMSetAlignment(pair, 1);
    LLVMSetAlignment(LLVMBuildStore(B, pair, byte_gep(g, dst, LLVMBuildMul(B, o, i64c(g, 8), ""))), 1);
    LLVMBuildStore(B, LLVMBuildAdd(B, o, i64c(g, 1), ""), out);
    LLVMValueRef emptied = LLVMConstInt(g->i1, 0, false);
    for (unsigned k = 0; k < 4; k++) {
        LLVMValueRef mine = LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntEQ, picked, i64c(g, k), ""), g->i64, "");
        LLVMValueRef a = LLVMBuildAdd(B, LLVMBuildLoad2(B, g->i64, at[k], ""), mine, "");
        LLVMBuildStore(B, a, at[k]);
        LLVMValueRef in_use = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, LLVMBuildLShr(B, config, i64c(g, 8 + k), ""),
                                                                       i64c(g, 1), ""), i64c(g, 0), "");
        emptied = LLVMBuildOr(B, emptied, LLVMBuildAnd(B, in_use, LLVMBuildICmp(B, LLVMIntEQ, a, len[k], ""), ""), "");
    }
    LLVMBuildCondBr(B, LLVMBuildAnd(B, exhausted, emptied, ""), done, step);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef sr = i64c(g, 0);
    for (unsigned k = 0; k < 4; k++)
        sr = LLVMBuildOr(B, sr, LLVMBuildShl(B, LLVMBuildLoad2(B, g->i64, at[k], ""), i64c(g, 16 * k), ""), "");
    set_field(g, ST_VMS4, sr);
    cg_loop_end(g, &r);
    return true;
}


/* ub_ptr a: the vec space's base plus a bytes. */
static bool lower_ub_ptr(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_set(g, &op->results[0], byte_gep(g, cg_space_base(g, PTOC_PTO_AS_VEC), as_i64(g, op, 0)));
    return true;
}

const cg_rule cg_a2a3_rules[] = {
    VOP(A2A3_VADD, lower_binary, VB_ADD),
    VOP(A2A3_VSUB, lower_binary, VB_SUB),
    VOP(A2A3_VMUL, lower_binary, VB_MUL),
    VOP(A2A3_VDIV, lower_binary, VB_DIV),
    VOP(A2A3_VMAX, lower_binary, VB_MAX),
    VOP(A2A3_VMIN, lower_binary, VB_MIN),
    VOP(A2A3_VAND, lower_binary, VB_AND),
    VOP(A2A3_VOR, lower_binary, VB_OR),
    VOP(A2A3_VEXP, lower_unary, VU_EXP),
    VOP(A2A3_VLN, lower_unary, VU_LN),
    VOP(A2A3_VSQRT, lower_unary, VU_SQRT),
    VOP(A2A3_VREC, lower_unary, A2_REC),
    VOP(A2A3_VABS, lower_unary, VU_ABS),
    VOP(A2A3_VRELU, lower_unary, VU_RELU),
    VOP(A2A3_VNOT, lower_unary, VU_NOT),
    VOP(A2A3_VADDS, lower_scalar, VB_ADD),
    VOP(A2A3_VMULS, lower_scalar, VB_MUL),
    VOP(A2A3_VMAXS, lower_scalar, VB_MAX),
    VOP(A2A3_VMINS, lower_scalar, VB_MIN),
    VOP(A2A3_VCMPV_EQ, lower_cmp, CG_CMP_EQ),
    VOP(A2A3_VCMPV_NE, lower_cmp, CG_CMP_NE),
    VOP(A2A3_VCMPV_LT, lower_cmp, CG_CMP_LT),
    VOP(A2A3_VCMPV_LE, lower_cmp, CG_CMP_LE),
    VOP(A2A3_VCMPV_GT, lower_cmp, CG_CMP_GT),
    VOP(A2A3_VCMPV_GE, lower_cmp, CG_CMP_GE),
    VOP(A2A3_VCMPVS_EQ, lower_cmps, CG_CMP_EQ),
    VOP(A2A3_VCMPVS_NE, lower_cmps, CG_CMP_NE),
    VOP(A2A3_VCMPVS_LT, lower_cmps, CG_CMP_LT),
    VOP(A2A3_VCMPVS_LE, lower_cmps, CG_CMP_LE),
    VOP(A2A3_VCMPVS_GT, lower_cmps, CG_CMP_GT),
    VOP(A2A3_VCMPVS_GE, lower_cmps, CG_CMP_GE),
    VOP(A2A3_VSEL, lower_sel, 0),
    VOP(A2A3_VBRCB, lower_brcb, 0),
    VOP(A2A3_VSHL, lower_shift, 1),
    VOP(A2A3_VSHR, lower_shift, 0),
    VOP(A2A3_VECTOR_DUP, lower_dup, 0),
    VOP(A2A3_VRSQRT, lower_unary, A2_RSQRT),
    VOP(A2A3_SET_VECTOR_MASK, lower_set_mask, 0),
    VOP(A2A3_SET_MASK_NORM, lower_mode, 0),
    VOP(A2A3_SET_MASK_COUNT, lower_mode, 1),
    VOP(A2A3_SET_CMPMASK, lower_set_cmpmask, 0),
    VOP(A2A3_UB_ADDR, lower_ub_addr, 0),
    VOP(A2A3_UB_PTR, lower_ub_ptr, 0),
    VOP(A2A3_COPY_GM_TO_UBUF, lower_copy, 1),
    VOP(A2A3_COPY_UBUF_TO_GM, lower_copy, 0),
    VOP(A2A3_COPY_UBUF_TO_UBUF, lower_copy_ub, 0),
    VOP(A2A3_VCONV, lower_conv, 0),
    VOP(A2A3_VCADD, lower_whole_reduce, VB_ADD),
    VOP(A2A3_VCMAX, lower_whole_reduce, VB_MAX),
    VOP(A2A3_VCMIN, lower_whole_reduce, VB_MIN),
    VOP(A2A3_LD_UB, lower_ub_scalar, 1),
    VOP(A2A3_ST_UB, lower_ub_scalar, 0),
    VOP(A2A3_VGATHER, lower_vgather, 0),
    VOP(A2A3_VREDUCEV2, lower_vreducev2, 0),
    VOP(A2A3_GET_RSVD_CNT, lower_get_state, ST_RSVD),
    VOP(A2A3_VBITSORT, lower_vbitsort, 0),
    VOP(A2A3_VMRGSORT4, lower_vmrgsort4, 0),
    VOP(A2A3_GET_VMS4_SR, lower_get_state, ST_VMS4),
    VOP(A2A3_VGATHERB, lower_vgatherb, 0),
};
const size_t cg_a2a3_rule_count = sizeof cg_a2a3_rules / sizeof cg_a2a3_rules[0];
