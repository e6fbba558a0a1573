/* lower_pto_select.c: masks and selection for the cpu target (tcmp, tcmps,
 * tsel, tsels), plus the scalar element access ops tgetval/tsetval, which
 * every target's backend takes as they are (cg_pto_scalar_rules).
 *
 * The mask layout is the hardware's (docs/decisions.md): element (i, j) is bit j % 8
 * of byte j / 8 of mask row i, LSB first, and mask row i starts at
 * i * (mask row stride in elements) * (mask element size) bytes. The mask dtype
 * may be any integer type: on a little-endian host the bits of a u16/u32/u64
 * mask word are the same bytes. The mask tile must be row_major none_box.
 *
 *   tcmp  ins(src0, src1 {cmpMode}) outs(mask)   bit = src0[i,j] CMP src1[i,j]
 *   tcmps ins(src, rhs {cmpMode}) outs(mask)      bit = src[i,j] CMP rhs, where rhs
 *         is a scalar or, in the tile form, rhs[0,0] (as A2/A3 and A5 do)
 *   tsel  ins(mask, src0, src1[, tmp]) outs(dst)   dst = bit ? src0 : src1
 *   tsels ins(mask, src[, tmp], scalar) outs(dst)  dst = bit ? src : scalar
 *
 * cmpMode defaults to eq (as PTOAS). Float compares are ordered except ne,
 * which is unordered (C's !=); unsigned dtypes compare unsigned. A scalar
 * operand is first converted to the tile's dtype and rounded to it (hardware
 * takes a scalar of the tile's dtype): tcmps of f16 against 0.1 compares with
 * the f16 nearest to 0.1. tcmp/tcmps iterate over src's valid region and write
 * whole mask bytes 0 .. ceil(vcols/8)-1 of each valid row, with bits at or past
 * vcols zero; nothing else of the mask is written. tsel/tsels iterate over dst's
 * valid region; `tmp` is unused on cpu, so both forms give the same bytes.
 * Selection moves raw element bits, so NaN payloads and f16/bf16 values pass
 * through unchanged.
 *
 * Speed: one mask byte governs 8 consecutive elements, so both directions go
 * a byte per loop iteration in 8 lanes. tcmp/tcmps load 8 elements of each
 * operand as vectors, compare them at once and bitcast the <8 x i1> result to
 * the byte (vmovmskps on x86). tsel/tsels do an 8-lane vector select (splat
 * the byte, AND with <1,2,4..128>, compare with zero, select, store). When
 * vcols % 8 != 0, tcmp's ragged last byte of a row is the same 8-lane compare
 * once more with the bits of lanes past vcols cleared, and tsel's last
 * columns go one at a time, in a loop LLVM is told not to vectorise. This
 * needs rows of a multiple of 8 columns, so the 8 lanes stay inside the row;
 * other tiles, and boxed layouts, go one element at a time. It holds at every -O level and leaves
 * LLVM nothing to vectorise or unroll: the code is fast, and cheap to compile.
 *
 * tgetval/tsetval read or write one element of a tile at a flat offset in its
 * storage (offset = r * cols + c for a row_major none_box tile), as PTOAS's
 * `Tile::GetValue/SetValue`:
 *   %v = pto.tgetval ins(%tile, %offset : !tile, index) -> T
 *   pto.tsetval ins(%offset, %v : index, T) outs(%tile : !tile)
 * The scalar must have the element's type, except that integers only need the
 * element's width: arith has only signless integers, so an i32 reads a ui32
 * element. An offset outside rows x cols traps at run time
 * (PTOC_RT_TRAP_ELEMENT: the offset and rows * cols).
 */
#include "codegen/codegen_internal.h"
#include "ptoc/runtime.h"

#include <llvm-c/Target.h>

enum { RHS_TILE, RHS_SCALAR };          /* tcmp / tcmps; tsel / tsels */

/* ---------------------------------------------------------------- compare */

/* One row per cmpMode: the predicate for signed ints, unsigned ints, floats. */
static const struct {
    LLVMIntPredicate s, u;
    LLVMRealPredicate f;
} cmp_preds[] = {
    [PTOC_PTO_CMP_EQ] = {LLVMIntEQ, LLVMIntEQ, LLVMRealOEQ},
    [PTOC_PTO_CMP_NE] = {LLVMIntNE, LLVMIntNE, LLVMRealUNE},
    [PTOC_PTO_CMP_LT] = {LLVMIntSLT, LLVMIntULT, LLVMRealOLT},
    [PTOC_PTO_CMP_LE] = {LLVMIntSLE, LLVMIntULE, LLVMRealOLE},
    [PTOC_PTO_CMP_GT] = {LLVMIntSGT, LLVMIntUGT, LLVMRealOGT},
    [PTOC_PTO_CMP_GE] = {LLVMIntSGE, LLVMIntUGE, LLVMRealOGE},
};

static uint32_t cmp_mode(const ptoc_op *op)
{
    uint32_t mode = PTOC_PTO_CMP_EQ;
    ptoc_attr *a = ptoc_op_attr(op, "cmpMode");
    if (a && !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_CMP, &mode))
        mode = PTOC_PTO_CMP_EQ;        /* unreachable after the verifier */
    return mode < sizeof cmp_preds / sizeof cmp_preds[0] ? mode : PTOC_PTO_CMP_EQ;
}

/* a CMP b on compute-type values of `elem`, as i1. */
static LLVMValueRef build_cmp(cg *g, uint32_t mode, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b)
{
    if (ptoc_type_is_float(elem))
        return LLVMBuildFCmp(g->b, cmp_preds[mode].f, a, b, "cmp");
    return LLVMBuildICmp(g->b, cg_is_unsigned(elem) ? cmp_preds[mode].u : cmp_preds[mode].s, a, b, "cmp");
}

/* ---------------------------------------------------------------- mask tiles */

static bool check_mask_tile(ptoc_op *op, const char *name, const cg_tile *m)
{
    if (!ptoc_type_is_int(m->elem)) {
        ptoc_op_emit_error(op, "%s must be an integer tile", name);
        return false;
    }
    if (m->desc.blayout != PTOC_PTO_BL_ROW_MAJOR || m->desc.slayout != PTOC_PTO_SL_NONE_BOX) {
        ptoc_op_emit_error(op, "%s must be a row_major none_box tile on the cpu target", name);
        return false;
    }
    return true;
}

/* The mask must hold vrows rows of vcols bits. The verifier checks static
 * shapes of tile operands; this checks what it cannot: memref operands here,
 * dynamic valid shapes with a run-time trap. */
static bool guard_mask(cg *g, ptoc_op *op, const cg_tile *m, LLVMValueRef vrows, LLVMValueRef vcols)
{
    int64_t row_bits = m->desc.cols * (int64_t)m->esize * 8;
    if (LLVMIsAConstantInt(vrows) && LLVMIsAConstantInt(vcols)) {
        int64_t r = LLVMConstIntGetSExtValue(vrows), c = LLVMConstIntGetSExtValue(vcols);
        if (r <= m->desc.rows && c <= row_bits)
            return true;
        ptoc_op_emit_error(op, "the mask (%lld rows of %lld bits) cannot hold %lld rows of %lld bits",
                           (long long)m->desc.rows, (long long)row_bits, (long long)r, (long long)c);
        return false;
    }
    LLVMValueRef bad = LLVMBuildOr(g->b, LLVMBuildICmp(g->b, LLVMIntUGT, vrows, cg_i64(g, m->desc.rows), ""),
                                   LLVMBuildICmp(g->b, LLVMIntUGT, vcols, cg_i64(g, row_bits), ""), "mask.short");
    cg_trap_if(g, bad, PTOC_RT_TRAP_VALID_SHAPE, op->loc, vrows, vcols, cg_i64(g, row_bits));
    return true;
}

/* Pointer to byte `idx` (i64) of a mask row. */
static LLVMValueRef byte_ptr(cg *g, LLVMValueRef row, LLVMValueRef idx)
{
    return LLVMBuildGEP2(g->b, g->i8, row, &idx, 1, "mask.byte");
}

/* ---------------------------------------------------------------- tcmp, tcmps */

typedef struct cmp_args {
    cg_tile src, rhs_tile, mask;
    LLVMValueRef rhs;          /* tcmps: the compute-type rhs; tcmp: NULL */
    LLVMValueRef rhs8;         /* tcmps: rhs in 8 lanes; tcmp: NULL */
    uint32_t mode;
} cmp_args;

/* Mask byte jb of row i: bit k = element 8*jb + k compares true and is inside
 * the valid columns. Lanes past vcols read the last valid column (so no read
 * leaves the row) and are masked off: no branch, every lane the same code.
 * Any layout: the bytes of boxed tiles. */
static LLVMValueRef cmp_byte(cg *g, const cmp_args *c, LLVMValueRef i, LLVMValueRef jb)
{
    LLVMValueRef last = LLVMBuildSub(g->b, c->src.vcols, cg_i64(g, 1), "last");
    LLVMValueRef j0 = LLVMBuildShl(g->b, jb, cg_i64(g, 3), "j0");
    LLVMValueRef byte = LLVMConstInt(g->i8, 0, false);
    for (int k = 0; k < 8; k++) {
        LLVMValueRef j = LLVMBuildAdd(g->b, j0, cg_i64(g, k), "j");
        LLVMValueRef in = LLVMBuildICmp(g->b, LLVMIntULT, j, c->src.vcols, "in");
        LLVMValueRef jc = LLVMBuildSelect(g->b, in, j, last, "jc");
        LLVMValueRef a = cg_load_elem(g, c->src.elem, cg_tile_elem_ptr(g, &c->src, i, jc));
        LLVMValueRef b = c->rhs ? c->rhs : cg_load_elem(g, c->src.elem, cg_tile_elem_ptr(g, &c->rhs_tile, i, jc));
        LLVMValueRef bit = LLVMBuildAnd(g->b, build_cmp(g, c->mode, c->src.elem, a, b), in, "bit");
        LLVMValueRef wide = LLVMBuildZExt(g->b, bit, g->i8, "");
        byte = LLVMBuildOr(g->b, byte, LLVMBuildShl(g->b, wide, LLVMConstInt(g->i8, (unsigned)k, false), ""),
                           "byte");
    }
    return byte;
}

/* <8 x i1> -> i8 with lane k in bit k. A bitcast puts lane 0 in the lowest
 * bit on a little-endian target and in the highest on a big-endian one. */
static LLVMValueRef pack_lanes(cg *g, LLVMValueRef bits)
{
    if (LLVMByteOrder(LLVMGetModuleDataLayout(g->mod)) == LLVMBigEndian) {
        LLVMValueRef reverse[8];
        for (int k = 0; k < 8; k++)
            reverse[k] = cg_i32(g, 7 - k);
        bits = LLVMBuildShuffleVector(g->b, bits, LLVMGetPoison(LLVMTypeOf(bits)), LLVMConstVector(reverse, 8), "");
    }
    return LLVMBuildBitCast(g->b, bits, g->i8, "byte");
}

/* Mask byte jb in tiles with plain rows (rows[0], rows[1]: the rows of src and
 * of the rhs tile, NULL for tcmps): one 8-lane compare, the same compares as
 * cmp_byte's. `lanes` (<8 x i1>) are the valid columns of a ragged last byte,
 * the only bits set; NULL for a whole byte. */
static LLVMValueRef cmp_byte_vector(cg *g, const cmp_args *c, const LLVMValueRef *rows, LLVMValueRef jb,
                                    LLVMValueRef lanes)
{
    const ptoc_type *elem = c->src.elem;
    LLVMTypeRef et = cg_elem_type(g, elem);
    LLVMValueRef j0 = LLVMBuildShl(g->b, jb, cg_i64(g, 3), "j0");
    LLVMValueRef a = cg_load_elems(g, elem, LLVMBuildInBoundsGEP2(g->b, et, rows[0], &j0, 1, ""), 8);
    LLVMValueRef b = c->rhs8 ? c->rhs8
                             : cg_load_elems(g, elem, LLVMBuildInBoundsGEP2(g->b, et, rows[1], &j0, 1, ""), 8);
    LLVMValueRef bits = build_cmp(g, c->mode, elem, a, b);
    return pack_lanes(g, lanes ? LLVMBuildAnd(g->b, bits, lanes, "") : bits);
}

/* Rows that the 8-lane code can take: row_major none_box, a multiple of 8
 * columns, so that the 8 lanes of a row's ragged last byte still lie inside
 * the row (the lanes past vcols are read and dropped, never used). Tiles of
 * up to 4-byte elements always qualify: hardware rows are 32-byte aligned. */
static bool plain_rows(const cg_tile *t)
{
    return t->desc.blayout == PTOC_PTO_BL_ROW_MAJOR && t->desc.slayout == PTOC_PTO_SL_NONE_BOX &&
           t->desc.cols % 8 == 0;
}

static LLVMValueRef splat8(cg *g, LLVMValueRef v)
{
    return cg_splat(g, v, 8);
}

/* ---------------------------------------------------------------- rows, byte by byte */

/* A tcmp row of plain tiles is whole mask bytes in a loop, then, when vcols %
 * 8 is not 0, its ragged last byte once, whose lanes past vcols are dropped.
 * `ragged_begin` returns false when a static vcols has no ragged byte;
 * otherwise the builder is in code that runs only when there is one, and
 * ragged_end joins the row's code again. */
typedef struct ragged {
    LLVMBasicBlockRef done;     /* NULL when vcols is static */
    LLVMValueRef jb;            /* the ragged byte: vcols / 8 */
    LLVMValueRef lanes;         /* its valid lanes, <8 x i1> */
} ragged;

static bool ragged_begin(cg *g, LLVMValueRef vcols, ragged *r)
{
    LLVMValueRef rem = LLVMBuildAnd(g->b, vcols, cg_i64(g, 7), "ragged.cols");
    r->done = NULL;
    if (LLVMIsAConstantInt(rem) && LLVMConstIntGetZExtValue(rem) == 0)
        return false;
    if (!LLVMIsAConstantInt(rem)) {
        LLVMBasicBlockRef body = cg_block(g, "ragged");
        r->done = cg_block(g, "ragged.done");
        LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, rem, cg_i64(g, 0), ""), body, r->done);
        LLVMPositionBuilderAtEnd(g->b, body);
    }
    r->jb = LLVMBuildLShr(g->b, vcols, cg_i64(g, 3), "ragged.byte");
    LLVMValueRef k[8];
    for (int i = 0; i < 8; i++)
        k[i] = cg_i64(g, i);
    LLVMValueRef j = LLVMBuildAdd(g->b, splat8(g, LLVMBuildShl(g->b, r->jb, cg_i64(g, 3), "")), LLVMConstVector(k, 8), "");
    r->lanes = LLVMBuildICmp(g->b, LLVMIntULT, j, splat8(g, vcols), "ragged.lanes");
    return true;
}

static void ragged_end(cg *g, const ragged *r)
{
    if (!r->done)
        return;
    LLVMBuildBr(g->b, r->done);
    LLVMPositionBuilderAtEnd(g->b, r->done);
}

static bool cmp_operands(cg *g, ptoc_op *op, bool scalar, cmp_args *c)
{
    if (!cg_op_in(g, op, 0, &c->src) || !cg_check_computable(op, "src", c->src.elem))
        return false;
    c->rhs = c->rhs8 = NULL;
    c->mode = cmp_mode(op);
    ptoc_pto_tile_desc rhs_desc;
    if (!scalar || cg_tile_desc_of(ptoc_op_operand(op, 1)->type, &rhs_desc)) {
        if (!cg_op_in(g, op, 1, &c->rhs_tile))
            return false;
        if (scalar) {          /* the tile form of tcmps compares with rhs[0,0] */
            const ptoc_type *rt = c->rhs_tile.elem;
            LLVMValueRef v = cg_load_elem(g, rt, cg_tile_elem_ptr(g, &c->rhs_tile, cg_i64(g, 0), cg_i64(g, 0)));
            c->rhs = cg_load_elem(g, c->src.elem, cg_elem_slot(g, v, rt, c->src.elem));
        }
    } else {
        LLVMValueRef slot = cg_op_scalar_slot(g, op, 1, c->src.elem);
        if (!slot)
            return false;
        c->rhs = cg_load_elem(g, c->src.elem, slot);
    }
    if (c->rhs)
        c->rhs8 = splat8(g, c->rhs);
    return cg_op_out(g, op, 0, &c->mask) && check_mask_tile(op, "dst", &c->mask) &&
           guard_mask(g, op, &c->mask, c->src.vrows, c->src.vcols);
}

/* Row i of plain tiles: whole bytes in 8-lane compares, then the ragged one. */
static void cmp_row_vector(cg *g, const cmp_args *c, LLVMValueRef i, LLVMValueRef mrow)
{
    LLVMValueRef rows[2] = {cg_tile_row_ptr(g, &c->src, i), c->rhs ? NULL : cg_tile_row_ptr(g, &c->rhs_tile, i)};
    LLVMValueRef nfull = LLVMBuildLShr(g->b, c->src.vcols, cg_i64(g, 3), "full.bytes");
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), nfull, "cmp.byte");
    LLVMBuildStore(g->b, cmp_byte_vector(g, c, rows, l.iv, NULL), byte_ptr(g, mrow, l.iv));
    cg_loop_end(g, &l);
    ragged r;
    if (ragged_begin(g, c->src.vcols, &r)) {
        LLVMBuildStore(g->b, cmp_byte_vector(g, c, rows, r.jb, r.lanes), byte_ptr(g, mrow, r.jb));
        ragged_end(g, &r);
    }
}

/* Row i of any layout: ceil(vcols/8) bytes through cmp_byte. */
static void cmp_row_scalar(cg *g, const cmp_args *c, LLVMValueRef i, LLVMValueRef mrow)
{
    LLVMValueRef nbytes = LLVMBuildLShr(g->b, LLVMBuildAdd(g->b, c->src.vcols, cg_i64(g, 7), ""), cg_i64(g, 3),
                                        "mask.bytes");
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), nbytes, "cmp.byte");
    LLVMBuildStore(g->b, cmp_byte(g, c, i, l.iv), byte_ptr(g, mrow, l.iv));
    cg_loop_end(g, &l);
}

static bool lower_tcmp(cg *g, ptoc_op *op, const cg_rule *rule)
{
    cmp_args c;
    if (!cmp_operands(g, op, rule->arg == RHS_SCALAR, &c))
        return false;
    bool vector = plain_rows(&c.src) && (c.rhs || plain_rows(&c.rhs_tile));
    cg_loop rows;
    cg_loop_begin(g, &rows, cg_i64(g, 0), c.src.vrows, "cmp.row");
    LLVMValueRef mrow = cg_tile_row_ptr(g, &c.mask, rows.iv);
    if (vector)
        cmp_row_vector(g, &c, rows.iv, mrow);
    else
        cmp_row_scalar(g, &c, rows.iv, mrow);
    cg_loop_end(g, &rows);
    if (op->nresults == 1)
        cg_set(g, ptoc_op_result(op, 0), c.mask.agg);
    return true;
}

/* ---------------------------------------------------------------- tsel, tsels */

typedef struct sel_args {
    cg_tile mask, src0, src1, dst;
    LLVMTypeRef bits;          /* iN of the element's width: selection moves bits */
    LLVMValueRef fill;         /* tsels: the scalar's bits; tsel: NULL */
    LLVMValueRef fill8;        /* tsels: fill splat to <8 x iN> */
} sel_args;

/* Columns [from, vcols) of row i, one element at a time (any layout). From
 * past 0, they are the remainder after whole bytes: fewer than 8. */
static void sel_row_scalar(cg *g, const sel_args *s, LLVMValueRef mrow, LLVMValueRef i, LLVMValueRef from)
{
    cg_loop l;
    cg_loop_begin(g, &l, from, s->dst.vcols, "sel.col");
    LLVMValueRef m = LLVMBuildLoad2(g->b, g->i8, byte_ptr(g, mrow, LLVMBuildLShr(g->b, l.iv, cg_i64(g, 3), "")), "m");
    LLVMValueRef sh = LLVMBuildTrunc(g->b, LLVMBuildAnd(g->b, l.iv, cg_i64(g, 7), ""), g->i8, "");
    LLVMValueRef bit = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, m, sh, ""), LLVMConstInt(g->i8, 1, false), "");
    LLVMValueRef on = LLVMBuildICmp(g->b, LLVMIntNE, bit, LLVMConstInt(g->i8, 0, false), "on");
    LLVMValueRef a = LLVMBuildLoad2(g->b, s->bits, cg_tile_elem_ptr(g, &s->src0, i, l.iv), "a");
    LLVMValueRef b = s->fill ? s->fill : LLVMBuildLoad2(g->b, s->bits, cg_tile_elem_ptr(g, &s->src1, i, l.iv), "b");
    LLVMBuildStore(g->b, LLVMBuildSelect(g->b, on, a, b, "sel"), cg_tile_elem_ptr(g, &s->dst, i, l.iv));
    l.remainder = !LLVMIsAConstantInt(from) || LLVMConstIntGetZExtValue(from) != 0;
    cg_loop_end(g, &l);
}

/* Pointer to element j of a row (row_major none_box). */
static LLVMValueRef row_elem(cg *g, LLVMTypeRef bits, LLVMValueRef row, LLVMValueRef j)
{
    return LLVMBuildGEP2(g->b, bits, row, &j, 1, "");
}

static LLVMValueRef load_aligned(cg *g, LLVMTypeRef ty, LLVMValueRef ptr, unsigned align)
{
    LLVMValueRef v = LLVMBuildLoad2(g->b, ty, ptr, "");
    LLVMSetAlignment(v, align);
    return v;
}

static void store_aligned(cg *g, LLVMValueRef v, LLVMValueRef ptr, unsigned align)
{
    LLVMSetAlignment(LLVMBuildStore(g->b, v, ptr), align);
}

/* The 8 elements of mask byte jb as one select (rows: dst, src0, src1 or
 * NULL for tsels). */
static void sel_byte_vector(cg *g, const sel_args *s, const LLVMValueRef *rows, LLVMValueRef mrow, LLVMValueRef jb)
{
    unsigned align = s->dst.esize;
    LLVMTypeRef vt = LLVMVectorType(s->bits, 8);
    LLVMValueRef lane_bits[8];
    for (unsigned k = 0; k < 8; k++)
        lane_bits[k] = LLVMConstInt(s->bits, 1u << k, false);
    LLVMValueRef m = LLVMBuildLoad2(g->b, g->i8, byte_ptr(g, mrow, jb), "m");
    LLVMValueRef mw = LLVMBuildZExtOrBitCast(g->b, m, s->bits, "");
    LLVMValueRef on = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildAnd(g->b, splat8(g, mw), LLVMConstVector(lane_bits, 8), ""),
                                    LLVMConstNull(vt), "on");
    LLVMValueRef j = LLVMBuildShl(g->b, jb, cg_i64(g, 3), "j");
    LLVMValueRef va = load_aligned(g, vt, row_elem(g, s->bits, rows[1], j), align);
    LLVMValueRef vb = s->fill ? s->fill8 : load_aligned(g, vt, row_elem(g, s->bits, rows[2], j), align);
    store_aligned(g, LLVMBuildSelect(g->b, on, va, vb, "sel"), row_elem(g, s->bits, rows[0], j), align);
}

/* Row i of row_major none_box tiles: whole mask bytes as 8-lane selects, then
 * the columns of a ragged last byte one at a time. */
static void sel_row_vector(cg *g, const sel_args *s, LLVMValueRef mrow, LLVMValueRef i)
{
    LLVMValueRef rows[3] = {cg_tile_row_ptr(g, &s->dst, i), cg_tile_row_ptr(g, &s->src0, i),
                            s->fill ? NULL : cg_tile_row_ptr(g, &s->src1, i)};
    LLVMValueRef nfull = LLVMBuildLShr(g->b, s->dst.vcols, cg_i64(g, 3), "full.bytes");
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), nfull, "sel.byte");
    sel_byte_vector(g, s, rows, mrow, l.iv);
    cg_loop_end(g, &l);
    LLVMValueRef rest = LLVMBuildShl(g->b, nfull, cg_i64(g, 3), "rest");
    if (!(LLVMIsAConstantInt(rest) && LLVMIsAConstantInt(s->dst.vcols) &&
          LLVMConstIntGetZExtValue(rest) == LLVMConstIntGetZExtValue(s->dst.vcols)))
        sel_row_scalar(g, s, mrow, i, rest);
}

static bool sel_operands(cg *g, ptoc_op *op, bool scalar, sel_args *s)
{
    s->fill = s->fill8 = NULL;
    if (!cg_op_in(g, op, 0, &s->mask) || !cg_op_in(g, op, 1, &s->src0) || !cg_op_out(g, op, 1, &s->dst))
        return false;
    s->bits = LLVMIntTypeInContext(g->llctx, s->dst.esize * 8);
    uint32_t nins, nouts;
    if (scalar && !ptoc_pto_dps_split(op, &nins, &nouts))
        return false;
    if (scalar) {
        /* the last in: ins(mask, src, [tmp,] scalar) */
        LLVMValueRef slot = cg_op_scalar_slot(g, op, nins - 1, s->dst.elem);
        if (!slot)
            return false;
        s->fill = LLVMBuildLoad2(g->b, s->bits, slot, "fill");
        s->fill8 = splat8(g, s->fill);
    } else if (!cg_op_in(g, op, 2, &s->src1)) {
        return false;
    }
    return check_mask_tile(op, "mask", &s->mask) && guard_mask(g, op, &s->mask, s->dst.vrows, s->dst.vcols);
}

static bool lower_tsel(cg *g, ptoc_op *op, const cg_rule *rule)
{
    sel_args s;
    bool scalar = rule->arg == RHS_SCALAR;
    if (!sel_operands(g, op, scalar, &s))
        return false;
    bool vector = plain_rows(&s.dst) && plain_rows(&s.src0) && (scalar || plain_rows(&s.src1));
    cg_loop rows;
    cg_loop_begin(g, &rows, cg_i64(g, 0), s.dst.vrows, "sel.row");
    LLVMValueRef mrow = cg_tile_row_ptr(g, &s.mask, rows.iv);
    if (vector)
        sel_row_vector(g, &s, mrow, rows.iv);
    else
        sel_row_scalar(g, &s, mrow, rows.iv, cg_i64(g, 0));
    cg_loop_end(g, &rows);
    if (op->nresults == 1)
        cg_set(g, ptoc_op_result(op, 0), s.dst.agg);
    return true;
}

/* ---------------------------------------------------------------- tgetval, tsetval */

/* Integers match by width (arith is signless); anything else must be equal. */
static bool scalar_fits_elem(ptoc_op *op, const ptoc_type *s, const ptoc_type *elem)
{
    bool ints = ptoc_type_is_int(s) && ptoc_type_is_int(elem);
    if (ints ? ptoc_type_bitwidth(s) == ptoc_type_bitwidth(elem) : s == elem)
        return true;
    ptoc_op_emit_error(op, "the scalar must have the tile's element type (integers: its width)");
    return false;
}

/* Pointer to element `off` (an index or integer value) of the tile's storage;
 * traps when off is outside rows x cols. */
static LLVMValueRef flat_elem_ptr(cg *g, ptoc_op *op, const cg_tile *t, const ptoc_value *off)
{
    LLVMValueRef o = cg_get(g, off);
    if (!o)
        return NULL;
    if (!ptoc_type_is_int_or_index(off->type)) {
        ptoc_op_emit_error(op, "the offset must be an index or integer");
        return NULL;
    }
    o = LLVMBuildIntCast2(g->b, o, g->i64, !cg_is_unsigned(off->type), "offset");
    int64_t n = t->desc.rows * t->desc.cols;
    LLVMValueRef out = LLVMBuildICmp(g->b, LLVMIntUGE, o, cg_i64(g, n), "offset.out");
    cg_trap_if(g, out, PTOC_RT_TRAP_ELEMENT, op->loc, o, cg_i64(g, n), cg_i64(g, 0));
    return LLVMBuildGEP2(g->b, cg_elem_type(g, t->elem), t->base, &o, 1, "elem");
}

static bool lower_tgetval(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile t;
    if (op->noperands < 2 || op->nresults != 1) {
        ptoc_op_emit_error(op, "expected ins(tile, offset) and one scalar result");
        return false;
    }
    ptoc_value *res = ptoc_op_result(op, 0);
    if (!cg_op_in(g, op, 0, &t) || !scalar_fits_elem(op, res->type, t.elem))
        return false;
    LLVMTypeRef ty = cg_type(g, res->type, op->loc);
    LLVMValueRef p = ty ? flat_elem_ptr(g, op, &t, ptoc_op_operand(op, 1)) : NULL;
    if (!p)
        return false;
    cg_set(g, res, load_aligned(g, ty, p, t.esize));
    return true;
}

static bool lower_tsetval(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile t;
    uint32_t nins, nouts;
    if (!ptoc_pto_dps_split(op, &nins, &nouts) || nins != 2 || nouts != 1 || op->nresults != 0) {
        ptoc_op_emit_error(op, "expected ins(offset, value) outs(tile)");
        return false;
    }
    const ptoc_value *val = ptoc_op_operand(op, 1);
    if (!cg_op_in(g, op, 2, &t) || !scalar_fits_elem(op, val->type, t.elem))
        return false;
    LLVMValueRef v = cg_get(g, val);
    LLVMValueRef p = v ? flat_elem_ptr(g, op, &t, ptoc_op_operand(op, 0)) : NULL;
    if (!p)
        return false;
    store_aligned(g, v, p, t.esize);
    return true;
}

const cg_rule cg_pto_select_rules[] = {
    {PTO(TCMP), lower_tcmp, RHS_TILE},
    {PTO(TCMPS), lower_tcmp, RHS_SCALAR},
    {PTO(TSEL), lower_tsel, RHS_TILE},
    {PTO(TSELS), lower_tsel, RHS_SCALAR},
};
const size_t cg_pto_select_rule_count = sizeof cg_pto_select_rules / sizeof cg_pto_select_rules[0];

/* The scalar unit's element access, which every target has as it is. */
const cg_rule cg_pto_scalar_rules[] = {
    {PTO(TGETVAL), lower_tgetval, 0},
    {PTO(TSETVAL), lower_tsetval, 0},
};
const size_t cg_pto_scalar_rule_count = sizeof cg_pto_scalar_rules / sizeof cg_pto_scalar_rules[0];
