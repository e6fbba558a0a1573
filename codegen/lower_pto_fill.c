/* lower_pto_fill.c: the tile ops that fill or generate a tile, on the cpu target.
 *
 *   texpands          dst[i,j] = scalar over dst's valid region; the scalar is
 *                     converted to dst's dtype once (cg_op_scalar_slot: f16/bf16
 *                     round to nearest even, float -> int saturates) and its bits
 *                     stored, so every element is the same pattern
 *   tfillpad          over dst's whole physical shape: dst[i,j] = src[i,j] inside
 *   tfillpad_expand   src's valid region, else dst's pad value (pad=zero: 0,
 *   tfillpad_inplace  max: +inf / the integer maximum, min: -inf / the integer
 *                     minimum, cg_pad_bits); nothing when dst's valid shape is
 *                     empty. Bits are copied, never converted. tfillpad and
 *                     tfillpad_inplace take tiles of one physical shape,
 *                     tfillpad_expand a dst at least as large; without an outs
 *                     tile the op fills src itself
 *   tci               dst[0,j] = S + j (descending: S - j) for j < dst's valid
 *                     columns, wrapping in dst's dtype; dst has one row
 *   ttri              dst[i,j] = 1 where j <= i + diagonal (upperOrLower = 0,
 *                     lower) or j >= i + diagonal (1, upper), else 0, over dst's
 *                     valid region
 *   trandom           pto-isa's counter-based generator (below), `rounds` 7 or
 *                     10, into a row_major i32/ui32 dst
 *
 * These are pto-isa's cpu model's definitions (include/pto/cpu TExpands.hpp,
 * TFillPad.hpp, TCI.hpp, TTRI.hpp, TRandom.hpp); docs/decisions.md, "Fill and
 * generate ops", says where the NPU libraries differ and which one this follows.
 *
 * trandom: a Philox-style 4 x 32-bit block cipher. For element (r, c) of a row
 * of `cols` physical columns, with L = ceil(valid cols / 256) chunks per row:
 * chunk k = c / 256, w = (c % 256) / 64 and lane = c % 64; the 128-bit counter
 * (counter0 the low word) plus (r * L + k) * (cols / 4) + lane goes through
 * `rounds` rounds of
 *     (x0, x1, x2, x3) <- (hi(x2 * K1) ^ x1 ^ k0, lo(x2 * K1),
 *                          hi(x0 * K0) ^ x3 ^ k1, lo(x0 * K0))
 *     k0 += 0x9E3779B9, k1 += 0xBB67AE85
 * with K0 = 0xD2511F53, K1 = 0xCD9E8D57, starting from (key0, key1); word w of
 * the result is the element.
 */
#include "codegen/codegen_internal.h"

/* ---------------------------------------------------------------- shared */

/* The raw bits of an element of `t` (an integer of its width). */
static LLVMTypeRef bits_type(cg *g, const cg_tile *t)
{
    return LLVMIntTypeInContext(g->llctx, t->esize * 8);
}

/* An integer operand as an i64 (sign-extended) or i32 (truncated): the
 * generators' scalars may be any integer type. */
static LLVMValueRef int_operand(cg *g, ptoc_op *op, uint32_t i, LLVMTypeRef to)
{
    const ptoc_value *v = i < op->noperands ? ptoc_op_operand(op, i) : NULL;
    LLVMValueRef llv = v ? cg_get(g, v) : NULL;
    if (!llv)
        return NULL;
    if (LLVMGetTypeKind(LLVMTypeOf(llv)) != LLVMIntegerTypeKind) {
        ptoc_op_emit_error(op, "operand #%u must be an integer", i);
        return NULL;
    }
    return LLVMBuildIntCast2(g->b, llv, to, !cg_is_unsigned(v->type), "");
}

/* The integer attribute `name`, or `dflt` when absent; false after an error. */
static bool int_attr(ptoc_op *op, const char *name, int64_t dflt, int64_t *out)
{
    const ptoc_attr *a = ptoc_op_attr(op, name);
    *out = dflt;
    if (!a)
        return true;
    if (a->kind == PTOC_ATTR_INTEGER) {
        *out = a->u.integer.value;
        return true;
    }
    if (a->kind == PTOC_ATTR_BOOL) {
        *out = a->u.boolean;
        return true;
    }
    ptoc_op_emit_error(op, "attribute '%s' must be an integer or a boolean", name);
    return false;
}

/* ---------------------------------------------------------------- texpands */

/* `pto.texpands ins(%scalar : T) outs(%dst : tile)`. */
static bool lower_texpands(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile dst;
    if (!cg_op_out(g, op, 0, &dst) || !cg_check_computable(op, "dst", dst.elem))
        return false;
    LLVMValueRef slot = cg_op_scalar_slot(g, op, 0, dst.elem);
    if (!slot)
        return false;
    LLVMValueRef bits = LLVMBuildLoad2(g->b, bits_type(g, &dst), slot, "expands.bits");
    cg_loop rows, cols;
    cg_loop_begin(g, &rows, cg_i64(g, 0), dst.vrows, "expands.row");
    cg_loop_begin(g, &cols, cg_i64(g, 0), dst.vcols, "expands.col");
    LLVMBuildStore(g->b, bits, cg_tile_elem_ptr(g, &dst, rows.iv, cols.iv));
    cg_loop_end(g, &cols);
    cg_loop_end(g, &rows);
    return true;
}

/* ---------------------------------------------------------------- tfillpad */

typedef enum fill_kind { FILL_SAME, FILL_EXPAND } fill_kind;

static bool check_fillpad(ptoc_op *op, fill_kind kind, const cg_tile *src, const cg_tile *dst, uint64_t *pad)
{
    if (src->esize != dst->esize) {
        ptoc_op_emit_error(op, "source and destination element sizes differ");
        return false;
    }
    bool same = src->desc.rows == dst->desc.rows && src->desc.cols == dst->desc.cols;
    bool covers = src->desc.rows <= dst->desc.rows && src->desc.cols <= dst->desc.cols;
    if (kind == FILL_SAME && !same) {
        ptoc_op_emit_error(op, "needs source and destination tiles of one shape (tfillpad_expand takes a "
                               "larger destination)");
        return false;
    }
    if (kind == FILL_EXPAND && !covers) {
        ptoc_op_emit_error(op, "needs a destination at least as large as the source in rows and columns");
        return false;
    }
    if (dst->desc.pad == PTOC_PTO_PAD_NULL || !cg_pad_bits(dst->elem, dst->desc.pad, pad)) {
        ptoc_op_emit_error(op, "needs a destination with a pad value for its element type "
                               "(pad = zero, max or min)");
        return false;
    }
    return true;
}

/* `pto.tfillpad[_expand|_inplace] ins(%src) outs(%dst)`. */
static bool lower_tfillpad(cg *g, ptoc_op *op, const cg_rule *rule)
{
    cg_tile src, dst;
    uint64_t pad = 0;
    bool has_out = op->nresults > 0 || op->noperands > 1;
    if (!cg_op_in(g, op, 0, &src) || (has_out && !cg_op_out(g, op, 0, &dst)))
        return false;
    if (!has_out)
        dst = src;
    if (!check_fillpad(op, (fill_kind)rule->arg, &src, &dst, &pad))
        return false;
    LLVMBuilderRef B = g->b;
    LLVMTypeRef bits = bits_type(g, &dst);
    LLVMValueRef zero = cg_i64(g, 0), pad_v = LLVMConstInt(bits, pad, false);
    /* nothing at all when dst's valid shape is empty (pto-isa checks it first) */
    LLVMValueRef empty = LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntEQ, dst.vrows, zero, ""),
                                     LLVMBuildICmp(B, LLVMIntEQ, dst.vcols, zero, ""), "");
    LLVMValueRef nrows = LLVMBuildSelect(B, empty, zero, cg_i64(g, dst.desc.rows), "fill.rows");
    cg_loop rows, copy, fill;
    cg_loop_begin(g, &rows, zero, nrows, "fill.row");
    LLVMValueRef in_src = LLVMBuildICmp(B, LLVMIntULT, rows.iv, src.vrows, "");
    LLVMValueRef ncopy = LLVMBuildSelect(B, in_src, src.vcols, zero, "fill.copy");
    cg_loop_begin(g, &copy, zero, ncopy, "fill.copy");
    LLVMValueRef v = LLVMBuildLoad2(B, bits, cg_tile_elem_ptr(g, &src, rows.iv, copy.iv), "");
    LLVMBuildStore(B, v, cg_tile_elem_ptr(g, &dst, rows.iv, copy.iv));
    cg_loop_end(g, &copy);
    cg_loop_begin(g, &fill, ncopy, cg_i64(g, dst.desc.cols), "fill.pad");
    LLVMBuildStore(B, pad_v, cg_tile_elem_ptr(g, &dst, rows.iv, fill.iv));
    cg_loop_end(g, &fill);
    cg_loop_end(g, &rows);
    return true;
}

/* ---------------------------------------------------------------- tci, ttri */

/* `pto.tci ins(%S {descending = B} : T) outs(%dst)`. */
static bool lower_tci(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile dst;
    int64_t descending = 0;
    if (!cg_op_out(g, op, 0, &dst) || !int_attr(op, "descending", 0, &descending))
        return false;
    if (dst.desc.rows != 1 || ptoc_type_is_float(dst.elem)) {
        ptoc_op_emit_error(op, "needs a one-row integer destination (rows = 1) on the cpu target");
        return false;
    }
    LLVMTypeRef bits = bits_type(g, &dst);
    LLVMValueRef start = int_operand(g, op, 0, bits);
    if (!start)
        return false;
    cg_loop cols;
    cg_loop_begin(g, &cols, cg_i64(g, 0), dst.vcols, "tci.col");
    LLVMValueRef j = LLVMBuildTrunc(g->b, cols.iv, bits, "");
    LLVMValueRef v = descending ? LLVMBuildSub(g->b, start, j, "") : LLVMBuildAdd(g->b, start, j, "");
    LLVMBuildStore(g->b, v, cg_tile_elem_ptr(g, &dst, cg_i64(g, 0), cols.iv));
    cg_loop_end(g, &cols);
    return true;
}

/* `pto.ttri ins(%diagonal {upperOrLower = 0|1} : iN) outs(%dst)`. */
static bool lower_ttri(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile dst;
    int64_t upper = 0;
    if (!cg_op_out(g, op, 0, &dst) || !cg_check_computable(op, "dst", dst.elem) ||
        !int_attr(op, "upperOrLower", 0, &upper))
        return false;
    if (upper != 0 && upper != 1) {
        ptoc_op_emit_error(op, "upperOrLower must be 0 (lower) or 1 (upper)");
        return false;
    }
    LLVMValueRef diag = int_operand(g, op, 0, g->i64);
    if (!diag)
        return false;
    LLVMTypeRef ct = cg_compute_type(g, dst.elem);
    bool fp = ptoc_type_is_float(dst.elem);
    LLVMValueRef one = fp ? LLVMConstReal(ct, 1.0) : LLVMConstInt(ct, 1, false);
    LLVMValueRef zero = fp ? LLVMConstReal(ct, 0.0) : LLVMConstInt(ct, 0, false);
    cg_loop rows, cols;
    cg_loop_begin(g, &rows, cg_i64(g, 0), dst.vrows, "tri.row");
    LLVMValueRef edge = LLVMBuildAdd(g->b, rows.iv, diag, "tri.edge");
    cg_loop_begin(g, &cols, cg_i64(g, 0), dst.vcols, "tri.col");
    LLVMValueRef on = LLVMBuildICmp(g->b, upper ? LLVMIntSGE : LLVMIntSLE, cols.iv, edge, "");
    LLVMValueRef v = LLVMBuildSelect(g->b, on, one, zero, "");
    cg_store_elem(g, dst.elem, cg_tile_elem_ptr(g, &dst, rows.iv, cols.iv), v);
    cg_loop_end(g, &cols);
    cg_loop_end(g, &rows);
    return true;
}

/* ---------------------------------------------------------------- trandom */

/* The rounds over counter words x[4] (i32) and key words k0, k1. */
static void random_rounds(cg *g, LLVMValueRef x[4], LLVMValueRef k0, LLVMValueRef k1, int rounds)
{
    LLVMBuilderRef B = g->b;
    LLVMValueRef c32 = LLVMConstInt(g->i64, 32, false);
    LLVMValueRef m0 = LLVMConstInt(g->i64, 0xD2511F53u, false), m1 = LLVMConstInt(g->i64, 0xCD9E8D57u, false);
    for (int i = 0; i < rounds; i++) {
        LLVMValueRef p0 = LLVMBuildMul(B, LLVMBuildZExt(B, x[0], g->i64, ""), m0, "");
        LLVMValueRef p1 = LLVMBuildMul(B, LLVMBuildZExt(B, x[2], g->i64, ""), m1, "");
        LLVMValueRef hi0 = LLVMBuildTrunc(B, LLVMBuildLShr(B, p0, c32, ""), g->i32, "");
        LLVMValueRef hi1 = LLVMBuildTrunc(B, LLVMBuildLShr(B, p1, c32, ""), g->i32, "");
        LLVMValueRef n0 = LLVMBuildXor(B, LLVMBuildXor(B, hi1, x[1], ""), k0, "");
        LLVMValueRef n2 = LLVMBuildXor(B, LLVMBuildXor(B, hi0, x[3], ""), k1, "");
        x[1] = LLVMBuildTrunc(B, p1, g->i32, "");
        x[3] = LLVMBuildTrunc(B, p0, g->i32, "");
        x[0] = n0;
        x[2] = n2;
        k0 = LLVMBuildAdd(B, k0, cg_i32(g, (int32_t)0x9E3779B9u), "");
        k1 = LLVMBuildAdd(B, k1, cg_i32(g, (int32_t)0xBB67AE85u), "");
    }
}

/* `pto.trandom ins(%key0, %key1, %counter0 .. %counter3 {rounds = N}) outs(%dst)`. */
static bool lower_trandom(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile dst;
    int64_t rounds = 10;
    if (op->noperands < 6) {
        ptoc_op_emit_error(op, "needs key0, key1 and counter0 .. counter3");
        return false;
    }
    if (!cg_op_out(g, op, 0, &dst) || !int_attr(op, "rounds", 10, &rounds))
        return false;
    if (rounds != 7 && rounds != 10) {
        ptoc_op_emit_error(op, "rounds must be 7 or 10");
        return false;
    }
    if (dst.esize != 4 || ptoc_type_is_float(dst.elem) || dst.desc.blayout != PTOC_PTO_BL_ROW_MAJOR) {
        ptoc_op_emit_error(op, "needs a row_major i32 or ui32 destination");
        return false;
    }
    LLVMBuilderRef B = g->b;
    LLVMTypeRef i128 = LLVMIntTypeInContext(g->llctx, 128);
    LLVMValueRef key[2], counter = LLVMConstInt(i128, 0, false);
    for (int i = 0; i < 2; i++)
        if (!(key[i] = int_operand(g, op, (uint32_t)i, g->i32)))
            return false;
    for (int i = 0; i < 4; i++) {
        LLVMValueRef w = int_operand(g, op, (uint32_t)(2 + i), g->i32);
        if (!w)
            return false;
        w = LLVMBuildShl(B, LLVMBuildZExt(B, w, i128, ""), LLVMConstInt(i128, 32u * (unsigned)i, false), "");
        counter = LLVMBuildOr(B, counter, w, "");
    }
    /* chunks of 4 x 64 elements per row, the counter advancing cols / 4 a chunk */
    LLVMValueRef chunks = LLVMBuildAdd(B, dst.vcols, cg_i64(g, 255), "");
    chunks = LLVMBuildUDiv(B, chunks, cg_i64(g, 256), "rand.chunks");
    LLVMValueRef step = cg_i64(g, dst.desc.cols / 4);
    cg_loop rows, cols;
    cg_loop_begin(g, &rows, cg_i64(g, 0), dst.vrows, "rand.row");
    cg_loop_begin(g, &cols, cg_i64(g, 0), dst.vcols, "rand.col");
    LLVMValueRef c = cols.iv;
    LLVMValueRef chunk = LLVMBuildMul(B, rows.iv, chunks, "");
    chunk = LLVMBuildAdd(B, chunk, LLVMBuildLShr(B, c, cg_i64(g, 8), ""), "rand.chunk");
    LLVMValueRef lane = LLVMBuildAnd(B, c, cg_i64(g, 63), "");
    LLVMValueRef add = LLVMBuildAdd(B, LLVMBuildMul(B, chunk, step, ""), lane, "");
    LLVMValueRef ctr = LLVMBuildAdd(B, counter, LLVMBuildZExt(B, add, i128, ""), "rand.ctr");
    LLVMValueRef x[4];
    for (int i = 0; i < 4; i++) {
        LLVMValueRef word = LLVMBuildLShr(B, ctr, LLVMConstInt(i128, 32u * (unsigned)i, false), "");
        x[i] = LLVMBuildTrunc(B, word, g->i32, "");
    }
    random_rounds(g, x, key[0], key[1], (int)rounds);
    LLVMValueRef w = LLVMBuildAnd(B, LLVMBuildLShr(B, c, cg_i64(g, 6), ""), cg_i64(g, 3), "rand.word");
    LLVMValueRef v = x[0];
    for (int i = 1; i < 4; i++)
        v = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, w, cg_i64(g, i), ""), x[i], v, "");
    LLVMBuildStore(B, v, cg_tile_elem_ptr(g, &dst, rows.iv, c));
    cg_loop_end(g, &cols);
    cg_loop_end(g, &rows);
    return true;
}

const cg_rule cg_pto_fill_rules[] = {
    {PTO(TEXPANDS), lower_texpands, 0},
    {PTO(TFILLPAD), lower_tfillpad, FILL_SAME},
    {PTO(TFILLPAD_INPLACE), lower_tfillpad, FILL_SAME},
    {PTO(TFILLPAD_EXPAND), lower_tfillpad, FILL_EXPAND},
    {PTO(TCI), lower_tci, 0},
    {PTO(TTRI), lower_ttri, 0},
    {PTO(TRANDOM), lower_trandom, 0},
};
const size_t cg_pto_fill_rule_count = sizeof cg_pto_fill_rules / sizeof cg_pto_fill_rules[0];
