/* lower_a2a3_convert_odd.c: tcvt with rmode ODD on A2/A3, where no vconv
 * rounds as the cpu target does.
 *
 * The library has one round-to-odd vconv (f32 -> f16, lowered by
 * lower_a2a3_convert.c); for the other pairs its switch falls back to RINT or
 * to truncation. ptoc's ODD is built from vconvs by other roundings and
 * integer arithmetic, per valid row, per chunk of at most 256 elements in
 * counter mode, its intermediates in the hidden scratch window UB[184 KiB,
 * 192 KiB) (eight 32-bit buffers of a chunk):
 *
 *   into a float (round to odd: the truncation with its last bit set when
 *   inexact): F and C, floor and ceiling in dst's type, are equal or
 *   neighbours, and the odd one is the result; on dst's bits as integers,
 *   F + ((C - F) & ((F & 1) - 1)).
 *
 *   into an integer or f32 -> f32 (to nearest, ties to odd): the value as
 *   f32 (f16 and bf16 widened exactly), then R - D with
 *   D = (2R - F - C) * tie, R F C its roundings to s32 (saturated), tie 1
 *   where 2x is an odd integer (F and C of 2x equal and odd): at a tie R is
 *   even and F + C - R the odd neighbour; elsewhere, and where the s32 values
 *   saturate, D is 0. D is subtracted from R as an f32 (R by the f32 -> f32
 *   vconv, which keeps a zero's sign and quiets a NaN), then converted to dst
 *   as lower_a2a3_convert.c converts the integral value: exactly, by R.
 *
 * f32 -> f16 by ODD is lower_a2a3_convert.c's; pairs without the vconvs
 * above stay.
 */
#include "passes/lower_a2a3.h"
#include "ptoc/ptoc.h"

#include <string.h>

enum { CHUNK = 256, RM_ODD = 6 };

typedef struct buf { ptoc_value *ptr, *off; } buf;

typedef struct odd_prog {
    a2_prog P;          /* its constants and mode ops */
    vop_builder *L;
} odd_prog;

static unsigned bits_of(const ptoc_type *t) { return ptoc_type_bitwidth(t); }
static const ptoc_type *elem_of(const buf *b) { return ptoc_pto_ub_ptr_elem(b->ptr->type); }

/* Buffer k of the scratch window, as `elem` elements. */
static buf window(odd_prog *o, int k, ptoc_type *elem)
{
    int64_t at = (int64_t)ptoc_pto_arch_info_of(PTOC_PTO_ARCH_A3)->scratch_begin + (int64_t)k * CHUNK * 4;
    ptoc_value *addr = a2_i64(&o->P, at);
    ptoc_type *pt = ptoc_pto_ub_ptr_type(o->L->ctx, elem);
    ptoc_value *p = vb_result0(vb_vop(o->L, PTOC_PTO_VOP_A2A3_UB_PTR, 1, &addr, 1, &pt, NULL, NULL, NULL, NULL));
    return (buf){p, a2_index(&o->P, 0)};
}

static void set_list(odd_prog *o, ptoc_op *op, const char *name, uint32_t n, const int64_t *v)
{
    ptoc_context *ctx = o->L->ctx;
    ptoc_attr *a[3];
    for (uint32_t i = 0; i < n; i++)
        a[i] = ptoc_attr_int(ctx, o->P.i64, v[i]);
    ptoc_op_set_attr(op, o->L->b.arena, ptoc_ident_cstr(ctx, name), ptoc_attr_array(ctx, n, a));
}

/* One instruction over the count: pointers b (dst first), an optional
 * scalar; repeat strides of 256 bytes of the widest element, block stride 1
 * (a vconv takes no block strides). */
static ptoc_op *rop(odd_prog *o, ptoc_pto_vop_id id, const buf *b, uint32_t nb, ptoc_value *scalar)
{
    ptoc_value *ops[8];
    uint32_t n = 0;
    unsigned wide = 0;
    for (uint32_t i = 0; i < nb; i++) {
        ops[n++] = b[i].ptr, ops[n++] = b[i].off;
        wide = bits_of(elem_of(&b[i])) > wide ? bits_of(elem_of(&b[i])) : wide;
    }
    if (scalar)
        ops[n++] = scalar;
    ops[n++] = a2_index(&o->P, 0);
    ptoc_op *op = vb_vop(o->L, id, n, ops, 0, NULL, NULL, NULL, NULL, NULL);
    int64_t rep[3], blk[3] = {1, 1, 1};
    for (uint32_t i = 0; i < nb; i++)
        rep[i] = 8 * (int64_t)bits_of(elem_of(&b[i])) / wide;
    if (id != PTOC_PTO_VOP_A2A3_VCONV)
        set_list(o, op, "blk", nb, blk);
    set_list(o, op, "rep", nb, rep);
    return op;
}

static void bin(odd_prog *o, ptoc_pto_vop_id id, buf d, buf a, buf b) { rop(o, id, (buf[3]){d, a, b}, 3, NULL); }

static void with_scalar(odd_prog *o, ptoc_pto_vop_id id, buf d, buf a, int64_t k)
{
    ptoc_value *s = vb_int(o->L, ptoc_type_int(o->L->ctx, bits_of(elem_of(&d)), PTOC_SIGNLESS), k);
    rop(o, id, (buf[2]){d, a}, 2, s);
}

static void dup(odd_prog *o, buf d, int64_t k)
{
    ptoc_value *s = vb_int(o->L, ptoc_type_int(o->L->ctx, bits_of(elem_of(&d)), PTOC_SIGNLESS), k);
    rop(o, PTOC_PTO_VOP_A2A3_VECTOR_DUP, &d, 1, s);
}

/* dst <- src by one vconv, rnd ("" for none) and sat. */
static void vconv(odd_prog *o, buf d, buf s, const char *rnd, bool sat)
{
    ptoc_op *op = rop(o, PTOC_PTO_VOP_A2A3_VCONV, (buf[2]){d, s}, 2, NULL);
    ptoc_context *ctx = o->L->ctx;
    const char *st = sat ? "SAT" : "NOSAT";
    if (rnd[0])
        ptoc_op_set_attr(op, o->L->b.arena, ptoc_ident_cstr(ctx, "rnd"), ptoc_attr_string(ctx, rnd, strlen(rnd)));
    ptoc_op_set_attr(op, o->L->b.arena, ptoc_ident_cstr(ctx, "sat"), ptoc_attr_string(ctx, st, strlen(st)));
}

/* Into a float: the odd one of F and C, on dst's bits as integers. */
static void round_odd(odd_prog *o, buf src, buf dst_bits, ptoc_type *de, bool sat)
{
    ptoc_type *it = ptoc_type_int(o->L->ctx, bits_of(de), PTOC_SIGNED);
    vconv(o, window(o, 0, de), src, "F", sat);
    vconv(o, window(o, 1, de), src, "C", sat);
    buf f = window(o, 0, it), c = window(o, 1, it), e = window(o, 2, it), p = window(o, 3, it);
    buf one = window(o, 4, it);
    bin(o, PTOC_PTO_VOP_A2A3_VSUB, e, c, f);
    dup(o, one, 1);
    bin(o, PTOC_PTO_VOP_A2A3_VAND, p, f, one);
    with_scalar(o, PTOC_PTO_VOP_A2A3_VADDS, p, p, -1);
    bin(o, PTOC_PTO_VOP_A2A3_VAND, e, e, p);
    bin(o, PTOC_PTO_VOP_A2A3_VADD, dst_bits, f, e);
}

/* x (f32) rounded to an integral f32, ties to odd, into `out`. */
static void ties_odd(odd_prog *o, buf x, buf out)
{
    ptoc_type *f32 = ptoc_type_float(o->L->ctx, PTOC_F32), *s32 = ptoc_type_int(o->L->ctx, 32, PTOC_SIGNED);
    buf r = window(o, 1, s32), f = window(o, 2, s32), c = window(o, 3, s32), d = window(o, 4, s32);
    buf f2 = window(o, 5, s32), c2 = window(o, 6, s32), one = window(o, 7, s32), y = window(o, 4, f32);
    bin(o, PTOC_PTO_VOP_A2A3_VADD, y, x, x);
    vconv(o, f2, y, "F", true);
    vconv(o, c2, y, "C", true);
    bin(o, PTOC_PTO_VOP_A2A3_VSUB, c2, f2, c2);               /* F2 - C2: 0 or -1 */
    with_scalar(o, PTOC_PTO_VOP_A2A3_VADDS, c2, c2, 1);       /* 2x integral */
    dup(o, one, 1);
    bin(o, PTOC_PTO_VOP_A2A3_VAND, f2, f2, one);              /* 2x odd */
    bin(o, PTOC_PTO_VOP_A2A3_VMUL, f2, f2, c2);               /* tie */
    vconv(o, r, x, "R", true);
    vconv(o, f, x, "F", true);
    vconv(o, c, x, "C", true);
    bin(o, PTOC_PTO_VOP_A2A3_VADD, d, r, r);
    bin(o, PTOC_PTO_VOP_A2A3_VSUB, d, d, f);
    bin(o, PTOC_PTO_VOP_A2A3_VSUB, d, d, c);
    bin(o, PTOC_PTO_VOP_A2A3_VMUL, d, d, f2);                 /* D */
    buf df = window(o, 6, f32), rf = window(o, 7, f32);
    vconv(o, df, d, "R", true);
    vconv(o, rf, x, "R", true);
    bin(o, PTOC_PTO_VOP_A2A3_VSUB, out, rf, df);
}

/* The integral f32 `v` into dst by R (exact), as the pair's program does. */
static void from_integral(odd_prog *o, buf v, buf dst, const ptoc_type *de, bool sat)
{
    ptoc_context *ctx = o->L->ctx;
    unsigned db = bits_of(de);
    if (db >= 32) {
        vconv(o, dst, v, "R", true);
    } else if (db == 16 && !sat) {       /* saturated to 32 bits, the low 16 bits */
        buf w = window(o, 2, ptoc_type_int(ctx, 32, PTOC_SIGNED));
        vconv(o, w, v, "R", true);
        vconv(o, dst, w, "", false);
    } else if (db == 16) {
        vconv(o, dst, v, "R", true);
    } else {                            /* 8 bits through f16, which holds the value (infinities too) */
        buf h = window(o, 2, ptoc_type_float(ctx, PTOC_F16));
        vconv(o, h, v, "R", false);
        vconv(o, dst, h, "R", sat);
    }
}

static bool is_kind(const ptoc_type *t, ptoc_float_kind k) { return ptoc_type_is_float(t) && t->u.fp.kind == k; }

/* Whether the pair takes the ODD program, and the dst element type its
 * pointer is viewed as (an integer of dst's width into a float; u8 for an
 * unsaturated s8, whose low 8 bits the u8 vconv writes). */
static ptoc_type *dst_view(vop_builder *L, const ptoc_type *se, const ptoc_type *de, bool sat)
{
    const char *s = ptoc_pto_vconv_type_name(se), *d = ptoc_pto_vconv_type_name(de);
    if (ptoc_type_is_float(de) && !(is_kind(se, PTOC_F32) && is_kind(de, PTOC_F32))) {
        bool ok = (!strcmp(s, "f32") && !strcmp(d, "bf16")) || (!strcmp(s, "s16") && !strcmp(d, "f16")) ||
                  (!strcmp(s, "s32") && !strcmp(d, "f32")) || (!strcmp(s, "s64") && !strcmp(d, "f32"));
        return ok ? ptoc_type_int(L->ctx, bits_of(de), PTOC_SIGNED) : NULL;
    }
    if (!is_kind(se, PTOC_F32) && !is_kind(se, PTOC_F16) && !is_kind(se, PTOC_BF16))
        return NULL;
    if (is_kind(de, PTOC_F32))
        return (ptoc_type *)de;
    static const char *const ok[] = {"s64", "s32", "s16", "s8", "u8"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(d, ok[i]))
            return !strcmp(d, "s8") && !sat ? ptoc_type_int(L->ctx, 8, PTOC_UNSIGNED) : (ptoc_type *)de;
    return NULL;
}

static uint32_t rmode_of(const ptoc_op *op)
{
    ptoc_attr *a = ptoc_op_attr(op, "rmode");
    uint32_t v;
    return a && ptoc_pto_enum_value(a, PTOC_PTO_ENUM_ROUND_MODE, &v) ? v : 0;
}

bool a2_convert_odd_lower(vop_builder *L, ptoc_op *op, ptoc_value *src, ptoc_value *dst, int nins, bool sat)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    if (rmode_of(op) != RM_ODD || (is_kind(s->elem, PTOC_F32) && is_kind(d->elem, PTOC_F16)))
        return false;
    ptoc_type *view = dst_view(L, s->elem, d->elem, sat);
    if (!view)
        return false;
    ptoc_value *tiles[3] = {src, nins == 2 ? ptoc_op_operand(op, 1) : dst, dst};
    vb_open_vecscope(L, op, tiles, (uint32_t)nins + 1, 1);
    ptoc_type *f32 = ptoc_type_float(L->ctx, PTOC_F32);
    odd_prog o = {.L = L};
    a2_prog_init(&o.P, L, PTOC_PTO_VOP_A2A3_VCONV, f32);
    ptoc_value *sp = vb_tile_ptr(L, src, s->elem), *dp = vb_tile_ptr(L, dst, view);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vcols = ptoc_op_result(valid, 1), *zero = a2_index(&o.P, 0);
    (void)a2_index(&o.P, CHUNK), (void)a2_index(&o.P, s->cols), (void)a2_index(&o.P, d->cols);
    a2_vop0(&o.P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    vb_loop rows, chunks;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, ptoc_op_result(valid, 0), a2_index(&o.P, 1));
    ptoc_value *j = vb_loop_begin(L, &chunks, zero, vcols, a2_index(&o.P, CHUNK));
    ptoc_value *n = vb_arith(L, "arith.minsi", vb_arith(L, "arith.subi", vcols, j), a2_index(&o.P, CHUNK));
    a2_set_mask(&o.P, a2_i64(&o.P, 0), a2_as_i64(&o.P, n));
    buf sb = {sp, vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, a2_index(&o.P, s->cols)), j)};
    buf db = {dp, vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, a2_index(&o.P, d->cols)), j)};
    if (ptoc_type_is_float(d->elem) && !(is_kind(s->elem, PTOC_F32) && is_kind(d->elem, PTOC_F32))) {
        round_odd(&o, sb, db, d->elem, sat);
    } else {
        buf x = sb;
        if (!is_kind(s->elem, PTOC_F32)) {
            x = window(&o, 0, f32);
            vconv(&o, x, sb, "", true);
        }
        if (is_kind(d->elem, PTOC_F32)) {
            ties_odd(&o, x, db);
        } else {
            buf v = window(&o, 1, f32);
            ties_odd(&o, x, v);
            from_integral(&o, v, db, view, sat);
        }
    }
    vb_loop_end(L, &chunks);
    vb_loop_end(L, &rows);
    a2_count_end(&o.P);
    ptoc_op_erase(op);
    return true;
}
