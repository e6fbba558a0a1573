/* lower_pto_histogram.c: thistogram, the radix-select byte histogram.
 *
 * For each valid source row r, dst[r,b] (b = 0..255) becomes the number of
 * counted elements of row r whose selected byte is <= b: an inclusive
 * cumulative histogram (docs/decisions.md). The selected byte is `byte = 0..3` (0 =
 * LSB), or PTOAS's isMSB (u16: true = byte 1, false = byte 0); by default the
 * unfiltered high-byte pass (u16 byte 1, u32 byte 3). Lower bytes are filtered
 * on the bytes above them: u16 byte 0 counts elements whose high byte equals
 * idx[r,0] (one filter per row); u32 byte k < 3 counts elements whose bytes
 * 3, 2, 1 (as far as they lie above k) equal idx[0,0], idx[1,0], idx[2,0]
 * (one filter per tile). dst may be 8..64 bits wide; counts wrap.
 *
 * Speed (the radix-select kernels run this over large tiles). Counting is one
 * read-modify-write of a counter per element, which is what bounds it: stores
 * to different cache lines leave the core at one per cycle (measured on Zen
 * 3), so random bins cost at least a cycle each. Everything else is kept off
 * that path:
 *  - HIST_WAYS sub-histograms of i32 counters on the stack, element k of each
 *    group of HIST_WAYS to sub-histogram k, so a hot bin is HIST_WAYS
 *    independent store-to-load chains instead of one (skewed data runs as fast
 *    as uniform data); the sub-histograms lie HIST_WAY_STRIDE (not 256)
 *    counters apart, so that one bin's counters in the different
 *    sub-histograms do not share their address bits below 4 KiB (x86 checks
 *    those first when it matches a load to older stores);
 *  - the source is read as 64-bit words (two u32 or four u16 elements);
 *  - the filter is branch-free (the compare result is added), so skewed
 *    filters cost no mispredictions;
 *  - the counters are zeroed once per op, not per row: each row's counts are
 *    the growth of the counters' sums since the previous row;
 *  - the per-row sum over the sub-histograms and the prefix sum are vector
 *    code, a loop over 8 bins at a time, stored straight into a u32 dst; the
 *    scan shifts within 128-bit halves (cheap on x86) and its carry is one add
 *    per step.
 * Not kept (measured no faster on Zen 3): one vector load per 8 elements with the bins
 * moved to an integer register; 16-bit counters; 4 or 16 sub-histograms;
 * cumulating a row during the next row's counting (double-buffered).
 */
#include "codegen/codegen_internal.h"

#include <llvm-c/Target.h>

#define HIST_BINS 256
#define HIST_WAYS 8
#define HIST_WAY_STRIDE (HIST_BINS + 16)        /* i32 between sub-histograms (see above) */
#define HIST_SCAN_LANES 8                       /* i32 lanes of one prefix-sum step */

/* What one thistogram counts: element v of a row counts when
 * (v & mask) == want, in bin (v >> shift) & 0xff. */
typedef struct hist_plan {
    LLVMTypeRef ty;             /* the source element as an integer (i16, i32) */
    unsigned shift;             /* 8 * byte */
    bool filtered;
    bool per_row;               /* u16 byte 0: want comes from idx[r,0] */
    LLVMValueRef mask;          /* the bytes above the selected one */
    LLVMValueRef want;          /* per-tile filter value (u32), NULL per row */
} hist_plan;

/* ---------------------------------------------------------------- the plan */

/* The selected byte, from `byte` or `isMSB` (the verifier has checked them;
 * this repeats the checks so a bad op is a diagnostic, never a crash). */
static bool selected_byte(ptoc_op *op, unsigned bits, int64_t *byte)
{
    ptoc_attr *b = ptoc_op_attr(op, "byte"), *msb = ptoc_op_attr(op, "isMSB");
    int64_t max = bits == 16 ? 1 : 3;
    *byte = max;
    if (msb && msb->kind == PTOC_ATTR_BOOL && bits == 16)
        *byte = msb->u.boolean ? 1 : 0;
    else if (msb) {
        ptoc_op_emit_error(op, "isMSB must be a bool attribute on a 16-bit source");
        return false;
    }
    if (b && b->kind == PTOC_ATTR_INTEGER && !msb)
        *byte = b->u.integer.value;
    else if (b) {
        ptoc_op_emit_error(op, "byte must be an integer attribute (and not given with isMSB)");
        return false;
    }
    if (*byte < 0 || *byte > max) {
        ptoc_op_emit_error(op, "byte = %lld is out of range for a %u-bit source (0..%lld)", (long long)*byte,
                           bits, (long long)max);
        return false;
    }
    return true;
}

/* idx[row, 0] widened to the source integer type. */
static LLVMValueRef idx_byte(cg *g, const cg_tile *idx, LLVMValueRef row, LLVMTypeRef ty)
{
    LLVMValueRef v = cg_load_elem(g, idx->elem, cg_tile_elem_ptr(g, idx, row, cg_i64(g, 0)));
    return LLVMBuildZExt(g->b, v, ty, "hist.idx");
}

/* u32 byte k < 3: the filter bytes idx[0,0], idx[1,0], ... match bytes 3, 2,
 * ... down to byte k+1, packed into one compare value. */
static LLVMValueRef tile_filter(cg *g, const cg_tile *idx, LLVMTypeRef ty, int64_t byte)
{
    LLVMValueRef want = LLVMConstNull(ty);
    for (int64_t m = 0; m < 3 - byte; m++) {
        LLVMValueRef b = idx_byte(g, idx, cg_i64(g, m), ty);
        want = LLVMBuildOr(g->b, want, LLVMBuildShl(g->b, b, LLVMConstInt(ty, (unsigned)(24 - 8 * m), 0), ""), "");
    }
    return want;
}

static bool make_plan(cg *g, ptoc_op *op, const cg_tile *src, const cg_tile *idx, hist_plan *p)
{
    unsigned bits = ptoc_type_bitwidth(src->elem);
    int64_t byte;
    if (!ptoc_type_is_int(src->elem) || (bits != 16 && bits != 32)) {
        ptoc_op_emit_error(op, "src element type must be a 16- or 32-bit integer");
        return false;
    }
    if (!selected_byte(op, bits, &byte))
        return false;
    p->ty = LLVMIntTypeInContext(g->llctx, bits);
    p->shift = (unsigned)(8 * byte);
    p->filtered = byte * 8 + 8 < (int64_t)bits;
    p->per_row = p->filtered && bits == 16;
    p->mask = LLVMConstInt(p->ty, ((1ULL << bits) - 1) & ~((1ULL << (p->shift + 8)) - 1), 0);
    p->want = NULL;
    if (p->filtered && (!ptoc_type_is_int(idx->elem) || ptoc_type_bitwidth(idx->elem) != 8)) {
        ptoc_op_emit_error(op, "idx must be an 8-bit integer tile");
        return false;
    }
    if (p->filtered && !p->per_row)
        p->want = tile_filter(g, idx, p->ty, byte);
    return true;
}

/* ---------------------------------------------------------------- counting */

/* counters[way][bin(v)] += (v passes the filter). */
static void count_one(cg *g, const hist_plan *p, LLVMValueRef counters, unsigned way, LLVMValueRef v,
                      LLVMValueRef want)
{
    LLVMBuilderRef B = g->b;
    LLVMValueRef bin = LLVMBuildLShr(B, v, LLVMConstInt(p->ty, p->shift, 0), "");
    bin = LLVMBuildAnd(B, bin, LLVMConstInt(p->ty, 0xff, 0), "");
    bin = LLVMBuildZExt(B, bin, g->i64, "");
    LLVMValueRef slot = LLVMBuildAdd(B, bin, cg_i64(g, (int64_t)way * HIST_WAY_STRIDE), "");
    LLVMValueRef ptr = LLVMBuildInBoundsGEP2(B, g->i32, counters, &slot, 1, "hist.slot");
    LLVMValueRef inc = cg_i32(g, 1);
    if (p->filtered) {
        LLVMValueRef hit = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, v, p->mask, ""), want, "hist.hit");
        inc = LLVMBuildZExt(B, hit, g->i32, "");
    }
    LLVMValueRef n = LLVMBuildLoad2(B, g->i32, ptr, "");
    LLVMBuildStore(B, LLVMBuildAdd(B, n, inc, ""), ptr);
}

static LLVMValueRef load_src(cg *g, const cg_tile *src, LLVMValueRef row_ptr, LLVMValueRef col)
{
    LLVMValueRef ptr = LLVMBuildInBoundsGEP2(g->b, cg_elem_type(g, src->elem), row_ptr, &col, 1, "");
    return cg_load_elem(g, src->elem, ptr);
}

/* Element e of a 64-bit word loaded from memory holding 64/bits elements. */
static LLVMValueRef word_elem(cg *g, const hist_plan *p, LLVMValueRef word, unsigned e)
{
    unsigned bits = LLVMGetIntTypeWidth(p->ty), per_word = 64 / bits;
    bool big = LLVMByteOrder(LLVMGetModuleDataLayout(g->mod)) == LLVMBigEndian;
    unsigned shift = (big ? per_word - 1 - e : e) * bits;
    LLVMValueRef v = shift ? LLVMBuildLShr(g->b, word, LLVMConstInt(g->i64, shift, 0), "") : word;
    return LLVMBuildTrunc(g->b, v, p->ty, "");
}

/* Counts row_ptr[0, cols) into the sub-histograms: groups of HIST_WAYS, then
 * the tail into sub-histogram 0. A group is read as 64-bit words (two u32 or
 * four u16 elements each): one load fewer per element relieves the address
 * units, which the counter read-modify-writes keep busy. */
static void count_row(cg *g, const hist_plan *p, const cg_tile *src, LLVMValueRef row_ptr, LLVMValueRef cols,
                      LLVMValueRef counters, LLVMValueRef want)
{
    LLVMBuilderRef B = g->b;
    cg_loop groups, tail;
    unsigned per_word = 64 / LLVMGetIntTypeWidth(p->ty);
    LLVMValueRef ngroups = LLVMBuildUDiv(B, cols, cg_i64(g, HIST_WAYS), "hist.groups");
    cg_loop_begin(g, &groups, cg_i64(g, 0), ngroups, "hist.group");
    LLVMValueRef first = LLVMBuildMul(B, groups.iv, cg_i64(g, HIST_WAYS), "");
    for (unsigned w = 0; w < HIST_WAYS / per_word; w++) {
        LLVMValueRef col = LLVMBuildAdd(B, first, cg_i64(g, w * per_word), "");
        LLVMValueRef ptr = LLVMBuildInBoundsGEP2(B, p->ty, row_ptr, &col, 1, "");
        LLVMValueRef word = LLVMBuildLoad2(B, g->i64, ptr, "hist.word");
        LLVMSetAlignment(word, LLVMGetIntTypeWidth(p->ty) / 8);
        for (unsigned e = 0; e < per_word; e++)
            count_one(g, p, counters, w * per_word + e, word_elem(g, p, word, e), want);
    }
    cg_loop_end(g, &groups);
    cg_loop_begin(g, &tail, LLVMBuildMul(B, ngroups, cg_i64(g, HIST_WAYS), ""), cols, "hist.tail");
    count_one(g, p, counters, 0, load_src(g, src, row_ptr, tail.iv), want);
    cg_loop_end(g, &tail);
}

/* Step `lanes` (1, 2, 4) of the in-vector inclusive prefix sum: what is added
 * to each lane. Steps 1 and 2 move lanes up within each 128-bit half of
 * the vector (x86: one pslldq, no cross-lane shuffle); step 4 adds the lower
 * quad's total to the upper quad. Zeros come in. */
_Static_assert(HIST_SCAN_LANES == 8, "the scan steps assume two quads of i32");
static LLVMValueRef scan_addend(cg *g, LLVMValueRef v, unsigned lanes)
{
    LLVMValueRef mask[HIST_SCAN_LANES];
    for (unsigned i = 0; i < HIST_SCAN_LANES; i++) {
        unsigned from = HIST_SCAN_LANES;        /* a lane of the zero vector */
        if (lanes < 4 && i % 4 >= lanes)
            from = i - lanes;
        else if (lanes == 4 && i >= 4)
            from = 3;
        mask[i] = cg_i32(g, (int32_t)from);
    }
    return LLVMBuildShuffleVector(g->b, v, LLVMConstNull(LLVMTypeOf(v)), LLVMConstVector(mask, HIST_SCAN_LANES), "");
}

/* Every lane of `v` set to its lane `lane`. */
static LLVMValueRef broadcast_lane(cg *g, LLVMValueRef v, unsigned lane)
{
    LLVMValueRef mask[HIST_SCAN_LANES];
    for (unsigned i = 0; i < HIST_SCAN_LANES; i++)
        mask[i] = cg_i32(g, (int32_t)lane);
    return LLVMBuildShuffleVector(g->b, v, LLVMGetUndef(LLVMTypeOf(v)), LLVMConstVector(mask, HIST_SCAN_LANES), "");
}

/* The HIST_SCAN_LANES i32 starting at element `first` (an i64) of `base`;
 * 32-byte aligned (every array is 64-byte aligned, every `first` a multiple
 * of 8 plus a multiple of HIST_WAY_STRIDE). */
static LLVMValueRef load_lanes(cg *g, LLVMValueRef base, LLVMValueRef first)
{
    LLVMValueRef ptr = LLVMBuildInBoundsGEP2(g->b, g->i32, base, &first, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(g->b, LLVMVectorType(g->i32, HIST_SCAN_LANES), ptr, "");
    LLVMSetAlignment(v, 32);
    return v;
}

static void store_lanes(cg *g, LLVMValueRef v, LLVMValueRef base, LLVMValueRef first, unsigned align)
{
    LLVMValueRef ptr = LLVMBuildInBoundsGEP2(g->b, g->i32, base, &first, 1, "");
    LLVMSetAlignment(LLVMBuildStore(g->b, v, ptr), align);
}

/* The row's cumulative histogram into out[0..256), HIST_SCAN_LANES bins per
 * iteration of a loop (LLVM does not vectorise a scan, so the loop is vector
 * code already; a loop, not straight-line code, because 32 copies of it cost
 * more compile time than the whole rest of the op and run no faster):
 *  - the bins' counts summed over the sub-histograms. The counters are never
 *    cleared between rows (that would be a memset of all of them per row):
 *    they run on, and `prev` keeps their sums at the end of the previous row,
 *    so the row's count is the difference (exact modulo 2^32);
 *  - the inclusive prefix sum within the vector in log2(lanes) shift-and-add
 *    steps, plus the running total of the bins before it (`carry`, kept in a
 *    stack slot that SROA turns into a register). */
static void cumulate_row(cg *g, LLVMValueRef counters, LLVMValueRef prev, LLVMValueRef out, unsigned out_align)
{
    LLVMBuilderRef B = g->b;
    LLVMTypeRef lanes_ty = LLVMVectorType(g->i32, HIST_SCAN_LANES);
    LLVMValueRef carry_slot = cg_alloca(g, lanes_ty, "hist.carry");
    LLVMBuildStore(B, LLVMConstNull(lanes_ty), carry_slot);
    cg_loop chunks;
    cg_loop_begin(g, &chunks, cg_i64(g, 0), cg_i64(g, HIST_BINS / HIST_SCAN_LANES), "hist.scan");
    LLVMValueRef first = LLVMBuildMul(B, chunks.iv, cg_i64(g, HIST_SCAN_LANES), "hist.first");
    LLVMValueRef total = load_lanes(g, counters, first);
    for (int64_t k = 1; k < HIST_WAYS; k++) {
        LLVMValueRef way_first = LLVMBuildAdd(B, first, cg_i64(g, k * HIST_WAY_STRIDE), "");
        total = LLVMBuildAdd(B, total, load_lanes(g, counters, way_first), "");
    }
    LLVMValueRef v = LLVMBuildSub(B, total, load_lanes(g, prev, first), "hist.count");
    store_lanes(g, total, prev, first, 32);
    for (unsigned lanes = 1; lanes < HIST_SCAN_LANES; lanes *= 2)
        v = LLVMBuildAdd(B, v, scan_addend(g, v, lanes), "");
    LLVMValueRef carry = LLVMBuildLoad2(B, lanes_ty, carry_slot, "hist.carry");
    store_lanes(g, LLVMBuildAdd(B, v, carry, "hist.cumulative"), out, first, out_align);
    LLVMBuildStore(B, LLVMBuildAdd(B, carry, broadcast_lane(g, v, HIST_SCAN_LANES - 1), "hist.carry.next"),
                   carry_slot);
    cg_loop_end(g, &chunks);
}

/* dst[r, b] = scan[b] for b < nbins, wrapping to a narrower dst (u8, u16) or
 * widening (u64). A plain copy loop: vectorises. */
static void store_row(cg *g, const cg_tile *dst, LLVMValueRef row, LLVMValueRef scan, LLVMValueRef nbins)
{
    LLVMBuilderRef B = g->b;
    cg_loop bins;
    LLVMTypeRef dst_ty = cg_compute_type(g, dst->elem);
    unsigned width = LLVMGetIntTypeWidth(dst_ty);
    LLVMValueRef dst_row = cg_tile_row_ptr(g, dst, row);
    cg_loop_begin(g, &bins, cg_i64(g, 0), nbins, "hist.bin");
    LLVMValueRef n = LLVMBuildLoad2(B, g->i32, LLVMBuildInBoundsGEP2(B, g->i32, scan, &bins.iv, 1, ""), "");
    LLVMValueRef out = width < 32 ? LLVMBuildTrunc(B, n, dst_ty, "") : width > 32 ? LLVMBuildZExt(B, n, dst_ty, "") : n;
    LLVMValueRef ptr = LLVMBuildInBoundsGEP2(B, cg_elem_type(g, dst->elem), dst_row, &bins.iv, 1, "");
    cg_store_elem(g, dst->elem, ptr, out);
    cg_loop_end(g, &bins);
}

/* A 64-byte aligned array of n i32 (an alloca in the entry block), zeroed here,
 * i.e. each time the op runs. */
static LLVMValueRef counter_array(cg *g, unsigned n, const char *name)
{
    LLVMValueRef a = cg_alloca(g, LLVMArrayType(g->i32, n), name);
    LLVMSetAlignment(a, 64);
    LLVMBuildMemSet(g->b, a, LLVMConstNull(g->i8), cg_i64(g, (int64_t)n * 4), 64);
    return a;
}

/* Whether dst rows take the 256 cumulative i32 counts as they are (32-bit
 * elements, all 256 bins valid), so they need no staging buffer. */
static bool whole_i32_rows(const cg_tile *dst, LLVMValueRef nbins)
{
    return ptoc_type_bitwidth(dst->elem) == 32 && LLVMIsAConstantInt(nbins) &&
           LLVMConstIntGetZExtValue(nbins) == HIST_BINS;
}

static LLVMValueRef umin(cg *g, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, a, b, ""), a, b, "");
}

/* ---------------------------------------------------------------- the rule */

static bool check_dst(ptoc_op *op, const cg_tile *dst)
{
    const ptoc_type *e = dst->elem;
    uint32_t w = ptoc_type_bitwidth(e);
    if (ptoc_type_is_int(e) && (w == 8 || w == 16 || w == 32 || w == 64) &&
        dst->desc.blayout == PTOC_PTO_BL_ROW_MAJOR && dst->desc.slayout == PTOC_PTO_SL_NONE_BOX)
        return true;
    ptoc_op_emit_error(op, "dst must be a row_major none_box tile of 8- to 64-bit integers");
    return false;
}

static bool lower_thistogram(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src, idx, dst;
    hist_plan plan;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_in(g, op, 1, &idx) || !cg_op_out(g, op, 0, &dst))
        return false;
    if (src.desc.blayout != PTOC_PTO_BL_ROW_MAJOR || src.desc.slayout != PTOC_PTO_SL_NONE_BOX) {
        ptoc_op_emit_error(op, "src must be a row_major none_box tile");
        return false;
    }
    if (!check_dst(op, &dst) || !make_plan(g, op, &src, &idx, &plan))
        return false;
    LLVMBuilderRef B = g->b;
    LLVMValueRef counters = counter_array(g, HIST_WAYS * HIST_WAY_STRIDE, "hist.counters");
    LLVMValueRef prev = counter_array(g, HIST_BINS, "hist.prev");
    /* Only dst's valid region is written: rows and bins beyond it are skipped. */
    LLVMValueRef nrows = umin(g, src.vrows, dst.vrows);
    LLVMValueRef nbins = umin(g, dst.vcols, cg_i64(g, HIST_BINS));
    cg_loop rows;
    cg_loop_begin(g, &rows, cg_i64(g, 0), nrows, "hist.row");
    LLVMValueRef want = plan.per_row ? LLVMBuildShl(B, idx_byte(g, &idx, rows.iv, plan.ty),
                                                    LLVMConstInt(plan.ty, 8, 0), "hist.want")
                                     : plan.want;
    count_row(g, &plan, &src, cg_tile_row_ptr(g, &src, rows.iv), src.vcols, counters, want);
    if (whole_i32_rows(&dst, nbins)) {
        cumulate_row(g, counters, prev, cg_tile_row_ptr(g, &dst, rows.iv), 4);
    } else {
        LLVMValueRef scan = cg_alloca(g, LLVMArrayType(g->i32, HIST_BINS), "hist.scan");
        LLVMSetAlignment(scan, 64);
        cumulate_row(g, counters, prev, scan, 32);
        store_row(g, &dst, rows.iv, scan, nbins);
    }
    cg_loop_end(g, &rows);
    return true;
}

const cg_rule cg_pto_histogram_rules[] = {
    {PTO(THISTOGRAM), lower_thistogram, 0},
};
const size_t cg_pto_histogram_rule_count = sizeof cg_pto_histogram_rules / sizeof cg_pto_histogram_rules[0];
