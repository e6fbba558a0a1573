/* lower_a2a3_gather.c: pto-lower-a2a3's tgather, its three forms (pto-isa a2a3 TGather.hpp).
 *
 *   index form    counter mode, per valid row of dst under its valid columns
 *                 as the count: vmuls of the i32 indices by the element size
 *                 (into dst itself for 32-bit data, into tmp for 16-bit), then
 *                 vgather of dst's row at those byte offsets from src's UB
 *                 address (ub_addr)
 *   mask form     counter mode, src's valid columns as the count: one
 *                 vreducev2 of dst from src with the pattern, src's rows as
 *                 the repeats at its row stride (a row stride past 255 blocks:
 *                 one vreducev2 per row, at the packed count so far)
 *   compare form  per valid row of src, in chunks of 1024 columns: the numbers
 *                 offset + row * cols + column stored by the scalar unit
 *                 (st_ub) into the hidden scratch window UB[184 KiB, 192 KiB),
 *                 vcmpvs_eq / _gt of src's chunk with kValue into bits after
 *                 them, vreducev2 of the numbers under those bits (pattern 0)
 *                 to dst's row after the ones so far, get_rsvd_cnt; the row's
 *                 count stored into cdst's element row (st_ub)
 *
 * The compare form differs from the library's sequence in where it keeps its
 * scratch and in the chunks: the library fills the numbers for src's whole
 * storage and the bits for every row past tmp's end, which need not be UB
 * the op owns; the window holds a chunk (4 KiB of numbers, its bits). kValue
 * is a scalar (PTOAS's form), so the library's conversion of a k tile goes.
 * Tiles other than row_major none_box vec tiles stay unlowered.
 *
 *   tgatherb      (TGatherB.hpp) per valid row of dst: vgatherb of its whole
 *                 256-byte repeats (8 blocks, each the 32 bytes at src's UB
 *                 address + its offset), then the columns after them by the
 *                 scalar unit (the library's tail vgatherb writes whole
 *                 repeats past dst's valid columns, which the cpu target
 *                 leaves alone)
 *   tscatter      (TScatter.hpp) dst's whole storage zeroed by vector_dup in
 *                 counter mode (its u32 words for 4-byte data, else u16),
 *                 then the scalar unit: dst's element idx[r, c] = src[r, c]
 *                 over src's valid region in row order (ld_ub, st_ub; an
 *                 index past dst's storage writes UB there, one past UB traps)
 */
#include "passes/lower_a2a3.h"

#include "ptoc/ptoc.h"

enum { CMP_CHUNK = 1024 };

bool a2_gather_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TGATHER || opcode == PTOC_PTO_OP_TSCATTER || opcode == PTOC_PTO_OP_TGATHERB;
}

static const ptoc_pto_tile_desc *plain(const ptoc_value *v)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(v->type);
    unsigned bits = d ? ptoc_type_bitwidth(d->elem) : 0;
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
                   d->slayout == PTOC_PTO_SL_NONE_BOX && (bits == 16 || bits == 32)
               ? d
               : NULL;
}

static ptoc_type *i64_of(vop_builder *L) { return ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS); }
static ptoc_type *int_of(vop_builder *L, unsigned bits) { return ptoc_type_int(L->ctx, bits, PTOC_SIGNLESS); }
static ptoc_value *i64v(vop_builder *L, int64_t v) { return vb_int(L, i64_of(L), v); }
static ptoc_value *as_i64(vop_builder *L, ptoc_value *v) { return vb_cast(L, "arith.index_cast", v, i64_of(L)); }

static void op0(vop_builder *L, ptoc_pto_vop_id id, uint32_t n, ptoc_value *const *ops)
{
    (void)vb_vop(L, id, n, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

static void set_mask(vop_builder *L, ptoc_value *hi, ptoc_value *lo)
{
    ptoc_value *ops[2] = {hi, lo};
    op0(L, PTOC_PTO_VOP_A2A3_SET_VECTOR_MASK, 2, ops);
}

static void count_mode(vop_builder *L) { op0(L, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL); }

static void norm_mode(vop_builder *L)
{
    op0(L, PTOC_PTO_VOP_A2A3_SET_MASK_NORM, 0, NULL);
    set_mask(L, i64v(L, -1), i64v(L, -1));
}

/* vreducev2 dst[doff], src[soff], bits[boff], pattern, src_rep, 0, repeat. */
static void reducev2(vop_builder *L, ptoc_value *const *ptrs, ptoc_value *const *offs, int64_t pattern,
                     int64_t src_rep, ptoc_value *repeat)
{
    ptoc_value *ops[10] = {ptrs[0], offs[0], ptrs[1], offs[1], ptrs[2], offs[2],
                           i64v(L, pattern), i64v(L, src_rep), i64v(L, 0), repeat};
    op0(L, PTOC_PTO_VOP_A2A3_VREDUCEV2, 10, ops);
}

/* ---------------------------------------------------------------- index form */

static void index_form(vop_builder *L, ptoc_op *op)
{
    ptoc_value *src = ptoc_op_operand(op, 0), *idx = ptoc_op_operand(op, 1), *tmp = ptoc_op_operand(op, 2);
    ptoc_value *dst = ptoc_op_operand(op, 3);
    const ptoc_pto_tile_desc *s = plain(src), *i = plain(idx), *t = plain(tmp), *d = plain(dst);
    if (!s || !i || !t || !d || ptoc_type_bitwidth(i->elem) != 32 || !ptoc_type_is_int(i->elem) ||
        ptoc_type_bitwidth(t->elem) != 32)
        return;
    unsigned bits = ptoc_type_bitwidth(d->elem);
    ptoc_value *tiles[4] = {src, idx, tmp, dst};
    vb_open_vecscope(L, op, tiles, 4, 1);
    ptoc_type *i32 = int_of(L, 32), *u = ptoc_type_int(L->ctx, bits, PTOC_UNSIGNED);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1);
    ptoc_value *icols = vb_index(L, i->cols), *ocols = vb_index(L, bits == 32 ? d->cols : t->cols);
    ptoc_value *dcols = vb_index(L, d->cols);
    ptoc_value *addr_ops[2] = {vb_tile_ptr(L, src, s->elem), zero};
    ptoc_type *i64 = i64_of(L);
    ptoc_value *base = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_UB_ADDR, 2, addr_ops, 1, &i64, NULL, NULL, NULL, NULL));
    ptoc_value *ip = vb_tile_ptr(L, idx, i32), *op_ = vb_tile_ptr(L, bits == 32 ? dst : tmp, i32);
    ptoc_value *dp = vb_tile_ptr(L, dst, u);
    ptoc_value *vrows = ptoc_op_result(vb_tile_valid(L, dst), 0), *vcols = ptoc_op_result(vb_tile_valid(L, dst), 1);
    ptoc_value *esize = vb_int(L, i32, bits / 8);
    count_mode(L);
    vb_loop l;
    ptoc_value *r = vb_loop_begin(L, &l, zero, vrows, one);
    set_mask(L, i64v(L, 0), as_i64(L, vcols));
    ptoc_value *ooff = vb_arith(L, "arith.muli", r, ocols);
    ptoc_value *muls[6] = {op_, ooff, ip, vb_arith(L, "arith.muli", r, icols), esize, zero};
    op0(L, PTOC_PTO_VOP_A2A3_VMULS, 6, muls);
    ptoc_value *gather[6] = {dp, vb_arith(L, "arith.muli", r, dcols), op_, ooff, base, one};
    op0(L, PTOC_PTO_VOP_A2A3_VGATHER, 6, gather);
    vb_loop_end(L, &l);
    norm_mode(L);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- mask form */

static void mask_form(vop_builder *L, ptoc_op *op)
{
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, 1);
    const ptoc_pto_tile_desc *s = plain(src), *d = plain(dst);
    uint32_t pattern = 0;
    if (!s || !d || ptoc_type_bitwidth(s->elem) != ptoc_type_bitwidth(d->elem) ||
        !ptoc_pto_enum_value(ptoc_op_attr(op, "maskPattern"), PTOC_PTO_ENUM_MASK_PATTERN, &pattern) ||
        pattern < 1 || pattern > 7)
        return;
    static const int64_t every[8] = {1, 2, 2, 4, 4, 4, 4, 1}, first[8] = {0, 0, 1, 0, 1, 2, 3, 0};
    unsigned bits = ptoc_type_bitwidth(s->elem);
    int64_t src_rep = s->cols * (bits / 8) / 32;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    ptoc_type *u = ptoc_type_int(L->ctx, bits, PTOC_UNSIGNED);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *scols = vb_index(L, s->cols);
    ptoc_value *sp = vb_tile_ptr(L, src, u), *dp = vb_tile_ptr(L, dst, u);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *ptrs[3] = {dp, sp, sp};
    count_mode(L);
    set_mask(L, i64v(L, 0), as_i64(L, vcols));
    if (src_rep <= A2_STRIDE_MAX) {
        ptoc_value *offs[3] = {zero, zero, zero};
        reducev2(L, ptrs, offs, pattern, src_rep, as_i64(L, vrows));
    } else {
        /* the selected columns of a row: ceil((vcols - first) / every) */
        ptoc_value *up = vb_arith(L, "arith.addi", vcols, vb_index(L, every[pattern] - 1 - first[pattern]));
        ptoc_value *per_row = vb_arith(L, "arith.divui", up, vb_index(L, every[pattern]));
        vb_loop l;
        ptoc_value *r = vb_loop_begin(L, &l, zero, vrows, one);
        ptoc_value *soff = vb_arith(L, "arith.muli", r, scols);
        ptoc_value *offs[3] = {vb_arith(L, "arith.muli", r, per_row), soff, soff};
        reducev2(L, ptrs, offs, pattern, 0, i64v(L, 1));
        vb_loop_end(L, &l);
    }
    norm_mode(L);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- compare form */

typedef struct cmp_prog {
    vop_builder *L;
    ptoc_pto_vop_id vcmp;
    ptoc_value *src, *dst, *nums, *bits, *k;   /* pointers (nums, bits: the window), kValue */
    ptoc_value *scols, *dcols;                  /* row strides */
    ptoc_type *i32;
    int64_t offset, L_;                         /* the numbers' offset; lanes a repeat */
} cmp_prog;

/* One chunk of `n` columns at column c0 of row r, packed after `so_far`; returns the new count. */
static ptoc_value *cmp_chunk(cmp_prog *C, ptoc_value *r, ptoc_value *c0, ptoc_value *n, ptoc_value *so_far)
{
    vop_builder *L = C->L;
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1);
    ptoc_value *flat = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, C->scols), c0);
    vb_loop fl;
    ptoc_value *j = vb_loop_begin(L, &fl, zero, n, one);
    ptoc_value *num = vb_cast(L, "arith.index_cast", vb_arith(L, "arith.addi", flat, j), C->i32);
    ptoc_value *st[3] = {vb_arith(L, "arith.addi", num, vb_int(L, C->i32, C->offset)), C->nums, j};
    op0(L, PTOC_PTO_VOP_A2A3_ST_UB, 3, st);
    vb_loop_end(L, &fl);
    /* the bits: norm mode, every lane, ceil(n / L) repeats */
    ptoc_value *reps = vb_arith(L, "arith.divui", vb_arith(L, "arith.addi", n, vb_index(L, C->L_ - 1)),
                                vb_index(L, C->L_));
    ptoc_value *cmp[6] = {C->bits, zero, C->src, flat, C->k, reps};
    op0(L, C->vcmp, 6, cmp);
    count_mode(L);
    set_mask(L, i64v(L, 0), as_i64(L, n));
    ptoc_value *ptrs[3] = {C->dst, C->nums, C->bits};
    ptoc_value *offs[3] = {vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, C->dcols), so_far), zero, zero};
    reducev2(L, ptrs, offs, 0, 0, i64v(L, 1));
    ptoc_type *i64 = i64_of(L);
    ptoc_value *cnt = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_GET_RSVD_CNT, 0, NULL, 1, &i64, NULL, NULL, NULL, NULL));
    norm_mode(L);
    return vb_arith(L, "arith.addi", so_far, vb_cast(L, "arith.index_cast", cnt, L->index));
}

static void compare_form(vop_builder *L, ptoc_op *op)
{
    ptoc_value *src = ptoc_op_operand(op, 0), *k = ptoc_op_operand(op, 1), *tmp = ptoc_op_operand(op, 2);
    ptoc_value *dst = ptoc_op_operand(op, 3), *cdst = ptoc_op_operand(op, 4);
    const ptoc_pto_tile_desc *s = plain(src), *d = plain(dst), *c = plain(cdst);
    ptoc_attr *m = ptoc_op_attr(op, "cmpMode"), *o = ptoc_op_attr(op, "offset");
    uint32_t mode = PTOC_PTO_CMP_EQ;
    if (!s || !d || !c || !vb_tile_desc(tmp->type) || (m && !ptoc_pto_enum_value(m, PTOC_PTO_ENUM_CMP, &mode)))
        return;
    ptoc_value *tiles[4] = {src, tmp, dst, cdst};
    vb_open_vecscope(L, op, tiles, 4, 2);
    cmp_prog C = {.L = L, .vcmp = mode == PTOC_PTO_CMP_GT ? PTOC_PTO_VOP_A2A3_VCMPVS_GT : PTOC_PTO_VOP_A2A3_VCMPVS_EQ,
                  .k = k, .i32 = int_of(L, 32), .offset = o && o->kind == PTOC_ATTR_INTEGER ? o->u.integer.value : 0,
                  .L_ = 2048 / ptoc_type_bitwidth(s->elem)};
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *chunk = vb_index(L, CMP_CHUNK);
    (void)vb_index(L, C.L_ - 1);
    (void)vb_index(L, C.L_);
    C.scols = vb_index(L, s->cols);
    C.dcols = vb_index(L, d->cols);
    C.src = vb_tile_ptr(L, src, s->elem);
    C.dst = vb_tile_ptr(L, dst, C.i32);
    C.nums = a2_window_ptr(L, C.i32, 0);
    C.bits = a2_window_ptr(L, ptoc_type_int(L->ctx, 8, PTOC_UNSIGNED), CMP_CHUNK * 4);
    ptoc_value *cp = vb_tile_ptr(L, cdst, C.i32);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    vb_loop rl;
    ptoc_value *r = vb_loop_begin(L, &rl, zero, vrows, one);
    vb_carried cl;
    ptoc_value *so_far;
    ptoc_value *c0 = vb_carry_begin(L, &cl, zero, vcols, chunk, zero, &so_far);
    ptoc_value *left = vb_arith(L, "arith.subi", vcols, c0);
    ptoc_value *n = vb_arith(L, "arith.minui", left, chunk);
    ptoc_value *total = vb_carry_end(L, &cl, cmp_chunk(&C, r, c0, n, so_far));
    ptoc_value *st[3] = {vb_cast(L, "arith.index_cast", total, C.i32), cp, r};
    op0(L, PTOC_PTO_VOP_A2A3_ST_UB, 3, st);
    vb_loop_end(L, &rl);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- tscatter */

static void scatter(vop_builder *L, ptoc_op *op)
{
    ptoc_value *src = ptoc_op_operand(op, 0), *idx = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *i = plain(idx), *d = vb_tile_desc(dst->type);
    unsigned bits = d ? ptoc_type_bitwidth(d->elem) : 0;
    if (!s || !i || !d || s->elem != d->elem || (bits != 8 && bits != 16 && bits != 32) ||
        (bits == 8 && !ptoc_type_is_int(d->elem)) || d->loc != PTOC_PTO_AS_VEC || s->loc != PTOC_PTO_AS_VEC ||
        d->blayout != PTOC_PTO_BL_ROW_MAJOR || s->blayout != PTOC_PTO_BL_ROW_MAJOR ||
        d->slayout != PTOC_PTO_SL_NONE_BOX || s->slayout != PTOC_PTO_SL_NONE_BOX ||
        d->rows * d->cols * (int64_t)bits % 16)
        return;
    unsigned wbits = bits == 32 ? 32 : 16;   /* InitUBBuffer's words: u32 for 4-byte data, else u16 */
    ptoc_value *tiles[3] = {src, idx, dst};
    vb_open_vecscope(L, op, tiles, 3, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1);
    ptoc_value *scols = vb_index(L, s->cols), *icols = vb_index(L, i->cols);
    ptoc_type *w = int_of(L, wbits), *e = int_of(L, bits), *ie = int_of(L, ptoc_type_bitwidth(i->elem));
    /* dst's whole storage zeroed: counter mode, its words as the count */
    count_mode(L);
    set_mask(L, i64v(L, 0), i64v(L, d->rows * d->cols * (int64_t)bits / wbits));
    ptoc_value *dup[4] = {vb_tile_ptr(L, dst, w), zero, vb_int(L, w, 0), zero};
    op0(L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, 4, dup);
    norm_mode(L);
    /* then the scalar unit: dst[idx[r, c]] = src[r, c] over src's valid region */
    ptoc_value *sp = vb_tile_ptr(L, src, e), *ip = vb_tile_ptr(L, idx, ie), *dp = vb_tile_ptr(L, dst, e);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    vb_loop rl, cl;
    ptoc_value *r = vb_loop_begin(L, &rl, zero, vrows, one);
    ptoc_value *srow = vb_arith(L, "arith.muli", r, scols), *irow = vb_arith(L, "arith.muli", r, icols);
    ptoc_value *c = vb_loop_begin(L, &cl, zero, vcols, one);
    ptoc_value *ld_i[2] = {ip, vb_arith(L, "arith.addi", irow, c)};
    ptoc_value *k = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_LD_UB, 2, ld_i, 1, &ie, NULL, NULL, NULL, NULL));
    ptoc_value *ld_s[2] = {sp, vb_arith(L, "arith.addi", srow, c)};
    ptoc_value *v = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_LD_UB, 2, ld_s, 1, &e, NULL, NULL, NULL, NULL));
    bool is_signed = i->elem->u.integer.sign != PTOC_UNSIGNED;
    ptoc_value *st[3] = {v, dp, vb_cast(L, is_signed ? "arith.index_cast" : "arith.index_castui", k, L->index)};
    op0(L, PTOC_PTO_VOP_A2A3_ST_UB, 3, st);
    vb_loop_end(L, &cl);
    vb_loop_end(L, &rl);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- tgatherb */

static bool vec_row_major(const ptoc_pto_tile_desc *d)
{
    unsigned bits = d ? ptoc_type_bitwidth(d->elem) : 0;
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && (bits == 8 || bits == 16 || bits == 32);
}

static void gatherb(vop_builder *L, ptoc_op *op)
{
    ptoc_value *src = ptoc_op_operand(op, 0), *off = ptoc_op_operand(op, 1), *dst = ptoc_op_operand(op, 2);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *o = plain(off), *d = vb_tile_desc(dst->type);
    if (!vec_row_major(s) || !vec_row_major(d) || !o || ptoc_type_bitwidth(o->elem) != 32 ||
        !ptoc_type_is_int(o->elem) || ptoc_type_bitwidth(s->elem) != ptoc_type_bitwidth(d->elem))
        return;
    unsigned bits = ptoc_type_bitwidth(d->elem);
    int64_t B = 256 / bits, E = 8 * B;
    ptoc_value *tiles[3] = {src, off, dst};
    vb_open_vecscope(L, op, tiles, 3, 1);
    ptoc_type *e = int_of(L, bits), *u32 = int_of(L, 32), *i64 = i64_of(L);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *vB = vb_index(L, B), *vE = vb_index(L, E);
    ptoc_value *dcols = vb_index(L, d->cols), *ocols = vb_index(L, o->cols);
    ptoc_value *addr_ops[2] = {vb_tile_ptr(L, src, e), zero};
    ptoc_value *base = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_UB_ADDR, 2, addr_ops, 1, &i64, NULL, NULL, NULL, NULL));
    ptoc_value *dp = vb_tile_ptr(L, dst, e), *op_ = vb_tile_ptr(L, off, u32);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *full = vb_arith(L, "arith.divui", vcols, vE);
    vb_loop rl, cl;
    ptoc_value *r = vb_loop_begin(L, &rl, zero, vrows, one);
    ptoc_value *drow = vb_arith(L, "arith.muli", r, dcols), *orow = vb_arith(L, "arith.muli", r, ocols);
    /* the whole repeats: vgatherb (8 blocks a repeat) */
    ptoc_value *g[6] = {dp, drow, op_, orow, base, full};
    op0(L, PTOC_PTO_VOP_A2A3_VGATHERB, 6, g);
    /* the columns after them by the scalar unit, so that nothing past the valid ones is written */
    ptoc_value *c = vb_loop_begin(L, &cl, vb_arith(L, "arith.muli", full, vE), vcols, one);
    ptoc_value *ld_o[2] = {op_, vb_arith(L, "arith.addi", orow, vb_arith(L, "arith.divui", c, vB))};
    ptoc_value *ob = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_LD_UB, 2, ld_o, 1, &u32, NULL, NULL, NULL, NULL));
    ptoc_value *in_blk = vb_arith(L, "arith.muli", vb_arith(L, "arith.remui", c, vB), vb_index(L, bits / 8));
    ptoc_value *at = vb_arith(L, "arith.addi", vb_arith(L, "arith.addi", base, vb_cast(L, "arith.extui", ob, i64)),
                              vb_cast(L, "arith.index_cast", in_blk, i64));
    ptoc_type *pt = ptoc_pto_ub_ptr_type(L->ctx, e);
    ptoc_value *p = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_UB_PTR, 1, &at, 1, &pt, NULL, NULL, NULL, NULL));
    ptoc_value *ld_v[2] = {p, zero};
    ptoc_value *v = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_LD_UB, 2, ld_v, 1, &e, NULL, NULL, NULL, NULL));
    ptoc_value *st[3] = {v, dp, vb_arith(L, "arith.addi", drow, c)};
    op0(L, PTOC_PTO_VOP_A2A3_ST_UB, 3, st);
    vb_loop_end(L, &cl);
    vb_loop_end(L, &rl);
    ptoc_op_erase(op);
}

void a2_gather_lower(vop_builder *L, ptoc_op *op)
{
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TGATHERB) {
        gatherb(L, op);
        return;
    }
    if (ptoc_pto_opcode(op) == PTOC_PTO_OP_TSCATTER) {
        scatter(L, op);
        return;
    }
    uint32_t nins = 0, nouts = 1;
    ptoc_pto_dps_split(op, &nins, &nouts);
    if (ptoc_op_attr(op, "maskPattern"))
        mask_form(L, op);
    else if (nouts == 2 && nins == 3)
        compare_form(L, op);
    else if (nouts == 1 && nins == 3)
        index_form(L, op);
}
