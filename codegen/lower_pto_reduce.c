/* lower_pto_reduce.c: the row and column reductions on the cpu target.
 *
 *   trowsum trowmax trowmin trowprod   dst[i,0] = OP over src[i, 0..vcols)
 *   tcolsum tcolmax tcolmin tcolprod   dst[0,j] = OP over src[0..vrows, j]
 *   trowargmax trowargmin              dst[i,0] = the column of row i's max/min
 *   tcolargmax tcolargmin              dst[0,j] = the row of column j's max/min
 *
 * Float sums and products depend on the order of their operations, so each
 * reduction runs in the order of pto-isa's A5 hardware library, and every
 * intermediate result is rounded to the element type (f16 sums round at each
 * step, as an f16 vector register does); test/reference/ref_reduce.c repeats
 * the same order:
 *
 *   trowsum/max/min (a5/TRowReduce.hpp): a row goes in chunks of one vector
 *     register (256 bytes: 64 f32, 128 f16); each chunk is reduced by a tree
 *     (vcadd, vcmax, vcmin), lanes past the valid columns holding the
 *     identity, and the chunk's result joins an accumulator that starts at the
 *     identity: acc = OP(acc, tree(chunk)).
 *   trowprod (a5/TRowProd.hpp): lane l multiplies the l-th element of every
 *     chunk in turn (vmul with merging), then one tree over the lanes.
 *   The tree: stage by stage, lane k takes OP(lane k, lane k + half) for half
 *     = lanes/2 .. 1 (TRowProd's vintlv/vmul pairs; vcadd's tree is not
 *     specified by the ISA page, and ptoc takes the same one).
 *   tcol* (a5/TColReduceOps.hpp, TColReduceInstr_PostUpdate): acc = row 0,
 *     then acc = OP(acc, OP(row 2k+1, row 2k+2)) for each pair, then
 *     OP(acc, last row) when one is left over.
 *
 * max/min are the elementwise ops' selects (a > b ? a : b with a the running
 * value); integers wrap. The optional tmp operand is the hardware's scratch
 * and is not used here.
 *
 * The arg reductions scan in index order from element 0 and move to an
 * element only when it compares strictly greater (less), as pto-isa's CPU
 * model (cpu/TReduceIdx.hpp) and the A5 kernels (TRowReduceIdx.hpp: vcmax per
 * chunk, vcmp_lt across chunks; TColReduceIdx.hpp: vcmp_gt row by row) do:
 * a tie gives the first index, and a NaN, which compares false, is never
 * taken unless it is element 0, which then stays. Integers compare signed or
 * unsigned by their dtype. The index is written as an i32/ui32.
 */
#include "codegen/codegen_internal.h"

#include <math.h>

typedef enum red_op { RED_SUM, RED_MAX, RED_MIN, RED_PROD } red_op;

/* OP(a, b); a NaN from a float sum or product is the quiet NaN 0x7fc00000:
 * which NaN an addition returns depends on the host (x86 makes a negative
 * one) and on the operand order, which LLVM may commute. */
static LLVMValueRef combine(cg *g, red_op k, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b)
{
    static const cg_vbin ops[] = {VB_ADD, VB_MAX, VB_MIN, VB_MUL};
    LLVMValueRef r = cg_vop_binary(g, ops[k], elem, a, b);
    if (!ptoc_type_is_float(elem) || k == RED_MAX || k == RED_MIN)
        return r;
    LLVMTypeRef t = LLVMTypeOf(r);
    LLVMValueRef nan = t == g->f64 ? LLVMConstBitCast(LLVMConstInt(g->i64, 0x7ff8000000000000ull, false), t)
                                   : LLVMConstBitCast(LLVMConstInt(g->i32, 0x7fc00000, false), t);
    return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealUNO, r, r, ""), nan, r, "");
}

/* The value that leaves the other operand unchanged, in the compute type. */
static LLVMValueRef identity(cg *g, red_op k, const ptoc_type *elem)
{
    LLVMTypeRef t = cg_compute_type(g, elem);
    if (ptoc_type_is_float(elem)) {
        double v = k == RED_SUM ? 0.0 : k == RED_PROD ? 1.0 : k == RED_MAX ? -INFINITY : INFINITY;
        return LLVMConstReal(t, v);
    }
    unsigned bits = LLVMGetIntTypeWidth(t);
    unsigned long long top = 1ull << (bits - 1), ones = bits == 64 ? ~0ull : (1ull << bits) - 1;
    bool u = cg_is_unsigned(elem);
    switch (k) {
    case RED_SUM: return LLVMConstInt(t, 0, false);
    case RED_PROD: return LLVMConstInt(t, 1, false);
    case RED_MAX: return LLVMConstInt(t, u ? 0 : top, false);
    case RED_MIN: return LLVMConstInt(t, u ? ones : top - 1, false);
    }
    return NULL;
}

/* A scratch of n elements of `elem` in the entry block; stores through it
 * round as a tile's do. */
static LLVMValueRef scratch(cg *g, const ptoc_type *elem, unsigned n)
{
    return cg_alloca(g, LLVMArrayType2(cg_elem_type(g, elem), n), "red.buf");
}

static LLVMValueRef slot(cg *g, const ptoc_type *elem, LLVMValueRef buf, LLVMValueRef i)
{
    return LLVMBuildInBoundsGEP2(g->b, cg_elem_type(g, elem), buf, &i, 1, "");
}

/* buf[k] = OP(buf[k], buf[k + half]) for half = lanes/2 .. 1. */
static void emit_tree(cg *g, red_op k, const ptoc_type *elem, LLVMValueRef buf, unsigned lanes)
{
    for (unsigned half = lanes / 2; half >= 1; half /= 2) {
        cg_loop l;
        cg_loop_begin(g, &l, cg_i64(g, 0), cg_i64(g, half), "red.tree");
        LLVMValueRef p = slot(g, elem, buf, l.iv);
        LLVMValueRef q = slot(g, elem, buf, LLVMBuildAdd(g->b, l.iv, cg_i64(g, half), ""));
        cg_store_elem(g, elem, p, combine(g, k, elem, cg_load_elem(g, elem, p), cg_load_elem(g, elem, q)));
        cg_loop_end(g, &l);
    }
}

/* src[row, col] when col < vcols, else `otherwise` (the column clamped so
 * that the load stays inside the tile). */
static LLVMValueRef load_or(cg *g, const cg_tile *src, LLVMValueRef row, LLVMValueRef col, LLVMValueRef otherwise)
{
    LLVMValueRef in = LLVMBuildICmp(g->b, LLVMIntULT, col, src->vcols, "");
    LLVMValueRef last = LLVMBuildSub(g->b, src->vcols, cg_i64(g, 1), "");
    LLVMValueRef c = LLVMBuildSelect(g->b, in, col, last, "");
    LLVMValueRef v = cg_load_elem(g, src->elem, cg_tile_elem_ptr(g, src, row, c));
    return LLVMBuildSelect(g->b, in, v, otherwise, "");
}

static void emit_row(cg *g, red_op k, const cg_tile *src, const cg_tile *dst, LLVMValueRef row)
{
    const ptoc_type *elem = src->elem;
    unsigned lanes = 256 / src->esize;
    LLVMValueRef id = identity(g, k, elem), E = cg_i64(g, lanes);
    LLVMValueRef buf = scratch(g, elem, lanes), acc = scratch(g, elem, 1);
    LLVMValueRef nchunks = LLVMBuildUDiv(g->b, LLVMBuildAdd(g->b, src->vcols, cg_i64(g, lanes - 1), ""), E, "");
    cg_loop l, j;
    if (k == RED_PROD) {
        cg_loop_begin(g, &l, cg_i64(g, 0), E, "red.init");
        cg_store_elem(g, elem, slot(g, elem, buf, l.iv), id);
        cg_loop_end(g, &l);
    } else {
        cg_store_elem(g, elem, acc, id);
    }
    cg_loop_begin(g, &j, cg_i64(g, 0), nchunks, "red.chunk");
    cg_loop_begin(g, &l, cg_i64(g, 0), E, "red.lane");
    LLVMValueRef col = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, j.iv, E, ""), l.iv, "");
    LLVMValueRef p = slot(g, elem, buf, l.iv);
    if (k == RED_PROD) {
        LLVMValueRef cur = cg_load_elem(g, elem, p);
        LLVMValueRef x = load_or(g, src, row, col, id);   /* x 1 past the valid columns: merging */
        cg_store_elem(g, elem, p, combine(g, k, elem, cur, x));
    } else {
        cg_store_elem(g, elem, p, load_or(g, src, row, col, id));
    }
    cg_loop_end(g, &l);
    if (k != RED_PROD) {
        emit_tree(g, k, elem, buf, lanes);
        LLVMValueRef r = combine(g, k, elem, cg_load_elem(g, elem, acc), cg_load_elem(g, elem, buf));
        cg_store_elem(g, elem, acc, r);
    }
    cg_loop_end(g, &j);
    if (k == RED_PROD) {
        emit_tree(g, k, elem, buf, lanes);
        acc = buf;
    }
    LLVMValueRef v = cg_load_elem(g, elem, acc);
    cg_store_elem(g, elem, cg_tile_elem_ptr(g, dst, row, cg_i64(g, 0)), v);
}

static void emit_col(cg *g, red_op k, const cg_tile *src, const cg_tile *dst, LLVMValueRef col)
{
    const ptoc_type *elem = src->elem;
    LLVMBuilderRef B = g->b;
    LLVMValueRef acc = scratch(g, elem, 1), t = scratch(g, elem, 1);
    LLVMValueRef zero = cg_i64(g, 0), one = cg_i64(g, 1), two = cg_i64(g, 2);
    cg_store_elem(g, elem, acc, cg_load_elem(g, elem, cg_tile_elem_ptr(g, src, zero, col)));
    LLVMValueRef rest = LLVMBuildSub(B, src->vrows, one, "");
    cg_loop j;
    cg_loop_begin(g, &j, zero, LLVMBuildUDiv(B, rest, two, ""), "red.pair");
    LLVMValueRef r1 = LLVMBuildAdd(B, LLVMBuildMul(B, j.iv, two, ""), one, "");
    LLVMValueRef a = cg_load_elem(g, elem, cg_tile_elem_ptr(g, src, r1, col));
    LLVMValueRef b = cg_load_elem(g, elem, cg_tile_elem_ptr(g, src, LLVMBuildAdd(B, r1, one, ""), col));
    cg_store_elem(g, elem, t, combine(g, k, elem, a, b));
    cg_store_elem(g, elem, acc, combine(g, k, elem, cg_load_elem(g, elem, acc), cg_load_elem(g, elem, t)));
    cg_loop_end(g, &j);
    /* the odd row left over: a loop of 0 or 1 iterations */
    cg_loop o;
    cg_loop_begin(g, &o, zero, LLVMBuildURem(B, rest, two, ""), "red.odd");
    LLVMValueRef last = cg_load_elem(g, elem, cg_tile_elem_ptr(g, src, rest, col));
    cg_store_elem(g, elem, acc, combine(g, k, elem, cg_load_elem(g, elem, acc), last));
    cg_loop_end(g, &o);
    cg_store_elem(g, elem, cg_tile_elem_ptr(g, dst, zero, col), cg_load_elem(g, elem, acc));
}

static bool operands(cg *g, ptoc_op *op, cg_tile *src, cg_tile *dst)
{
    if (!cg_op_in(g, op, 0, src) || !cg_op_out(g, op, 0, dst))
        return false;
    if (src->elem != dst->elem) {
        ptoc_op_emit_error(op, "source and destination element types differ");
        return false;
    }
    return cg_check_computable(op, "src", src->elem);
}

static bool lower_row(cg *g, ptoc_op *op, const cg_rule *rule)
{
    cg_tile src, dst;
    if (!operands(g, op, &src, &dst))
        return false;
    cg_loop r;
    cg_loop_begin(g, &r, cg_i64(g, 0), src.vrows, "red.row");
    emit_row(g, (red_op)rule->arg, &src, &dst, r.iv);
    cg_loop_end(g, &r);
    return true;
}

static bool lower_col(cg *g, ptoc_op *op, const cg_rule *rule)
{
    cg_tile src, dst;
    if (!operands(g, op, &src, &dst))
        return false;
    cg_loop c;
    cg_loop_begin(g, &c, cg_i64(g, 0), src.vcols, "red.col");
    emit_col(g, (red_op)rule->arg, &src, &dst, c.iv);
    cg_loop_end(g, &c);
    return true;
}

/* ---------------------------------------------------------------- arg reductions */

/* Whether cur is strictly better than best: greater for argmax, less for
 * argmin; ordered float compares, so a NaN is never better. */
static LLVMValueRef better(cg *g, bool max, const ptoc_type *elem, LLVMValueRef cur, LLVMValueRef best)
{
    if (ptoc_type_is_float(elem))
        return LLVMBuildFCmp(g->b, max ? LLVMRealOGT : LLVMRealOLT, cur, best, "arg.better");
    bool u = cg_is_unsigned(elem);
    LLVMIntPredicate p = max ? (u ? LLVMIntUGT : LLVMIntSGT) : (u ? LLVMIntULT : LLVMIntSLT);
    return LLVMBuildICmp(g->b, p, cur, best, "arg.better");
}

/* The index of the first best element of a row (`row`: along columns) or of
 * a column (along rows) `line` of src, stored at dst[line, 0] or dst[0, line]. */
static void emit_arg(cg *g, bool max, bool row, const cg_tile *src, const cg_tile *dst, LLVMValueRef line)
{
    const ptoc_type *elem = src->elem;
    LLVMBuilderRef B = g->b;
    LLVMValueRef zero = cg_i64(g, 0);
    LLVMValueRef best = cg_alloca(g, cg_compute_type(g, elem), "arg.best");
    LLVMValueRef at = cg_alloca(g, g->i64, "arg.index");
    LLVMBuildStore(B, cg_load_elem(g, elem, row ? cg_tile_elem_ptr(g, src, line, zero)
                                                : cg_tile_elem_ptr(g, src, zero, line)), best);
    LLVMBuildStore(B, zero, at);
    cg_loop k;
    cg_loop_begin(g, &k, cg_i64(g, 1), row ? src->vcols : src->vrows, "arg.scan");
    LLVMValueRef p = row ? cg_tile_elem_ptr(g, src, line, k.iv) : cg_tile_elem_ptr(g, src, k.iv, line);
    LLVMValueRef cur = cg_load_elem(g, elem, p), b = LLVMBuildLoad2(B, cg_compute_type(g, elem), best, "");
    LLVMValueRef take = better(g, max, elem, cur, b);
    LLVMBuildStore(B, LLVMBuildSelect(B, take, cur, b, ""), best);
    LLVMBuildStore(B, LLVMBuildSelect(B, take, k.iv, LLVMBuildLoad2(B, g->i64, at, ""), ""), at);
    cg_loop_end(g, &k);
    LLVMValueRef idx = LLVMBuildTrunc(B, LLVMBuildLoad2(B, g->i64, at, ""), g->i32, "");
    LLVMValueRef out = row ? cg_tile_elem_ptr(g, dst, line, zero) : cg_tile_elem_ptr(g, dst, zero, line);
    cg_store_elem(g, dst->elem, out, idx);
}

/* trowargmax trowargmin (rule arg: ARG_ROW) tcolargmax tcolargmin; | ARG_MAX. */
enum { ARG_ROW = 1, ARG_MAX = 2 };

static bool lower_arg(cg *g, ptoc_op *op, const cg_rule *rule)
{
    cg_tile src, dst;
    if (!cg_op_in(g, op, 0, &src) || !cg_op_out(g, op, 0, &dst) || !cg_check_computable(op, "src", src.elem))
        return false;
    if (!ptoc_type_is_int(dst.elem) || dst.esize != 4) {
        ptoc_op_emit_error(op, "the index destination must have a 32-bit integer element type (i32 or ui32)");
        return false;
    }
    bool row = rule->arg & ARG_ROW, max = rule->arg & ARG_MAX;
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), row ? src.vrows : src.vcols, "arg.line");
    emit_arg(g, max, row, &src, &dst, l.iv);
    cg_loop_end(g, &l);
    return true;
}

const cg_rule cg_pto_reduce_rules[] = {
    {PTO(TROWSUM), lower_row, RED_SUM},   {PTO(TROWMAX), lower_row, RED_MAX},
    {PTO(TROWMIN), lower_row, RED_MIN},   {PTO(TROWPROD), lower_row, RED_PROD},
    {PTO(TCOLSUM), lower_col, RED_SUM},   {PTO(TCOLMAX), lower_col, RED_MAX},
    {PTO(TCOLMIN), lower_col, RED_MIN},   {PTO(TCOLPROD), lower_col, RED_PROD},
    {PTO(TROWARGMAX), lower_arg, ARG_ROW | ARG_MAX},   {PTO(TROWARGMIN), lower_arg, ARG_ROW},
    {PTO(TCOLARGMAX), lower_arg, ARG_MAX},             {PTO(TCOLARGMIN), lower_arg, 0},
};
const size_t cg_pto_reduce_rule_count = sizeof cg_pto_reduce_rules / sizeof cg_pto_reduce_rules[0];
