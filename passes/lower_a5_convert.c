/* lower_a5_convert.c: tcvt on A5, as a5/TCvt.hpp's 2D paths convert.
 *
 * A loop over dst's valid rows holds a loop over the row's chunks of E
 * elements, E the lane count of the chain's widest type; each chunk is
 *
 *   vlds        NORM, or UNPK_Bn when the first vcvt widens (the chunk's n-bit
 *               elements in the even lanes)
 *   vcvt ...    one conversion, or the library's chain (below), each under an
 *               all-true predicate of its source's lanes
 *   vsts        NORM_Bn, or PK_B2n when the last vcvt narrows (its EVEN
 *               lanes packed), under the tail predicate of the chunk's
 *               min(E, rest) elements: the bytes past dst's valid columns stay
 *
 * Each vcvt keeps, halves or doubles the lane count (a widening one reads
 * the EVEN lanes, a narrowing one writes them). The chains:
 *
 *   float -> 32-bit int            one vcvt, saturating: the hardware gives a
 *                                  32-bit integer its range either way
 *   f32 -> i16 without sat         f32 -> i32 sat, then i32 -> i16 wrapping
 *                                  (cast32to16_NonSatTorch)
 *   f16 -> i16 without sat         f16 -> i32 sat (widening), i32 -> i16
 *                                  wrapping (cast16to16_NonSatTorch)
 *   f16 -> i8/u8 without sat       f16 -> i16 wrapping, AND 255, i16 -> f16,
 *                                  f16 -> 8 bits wrapping (cast16to8_NonSatTorch)
 *   every other pair               one vcvt by the op's rmode and saturation
 *
 *   8-bit -> 32-bit integers       UNPK4_B8 (byte k in lane 4k), vcvt part P0
 *   32-bit -> 8-bit integers       through 16 bits (each step saturating or
 *                                  not), the bytes stored by PK4_B32
 *   s32 <-> s64, f32 <-> s64       on 32-bit words (int64_program)
 *
 * Where no vcvt rounds as the cpu target does, a step is a sequence of
 * micro-ops (the library falls back to another rounding there):
 *
 *   rmode ODD into a float         round to odd: vcvt Z, converted back (Z),
 *                                  the last bit set by vor where the value
 *                                  shrank in magnitude (an integer: changed)
 *   rmode ODD into an integer      ties to odd: vcvt A, or Z where x is a tie
 *                                  (2x an odd integer: its F and C agree) and
 *                                  A is even; f16 and bf16 widened to f32
 *                                  first for a 32-bit integer, a narrower
 *                                  integer reached through s32 or s16
 *   f32 -> f32                     an integral value: through s32 by the
 *                                  rmode where |x| < 2^23, the sign kept;
 *                                  x itself above (a NaN quieted)
 *
 * Not lowered (the op stays, and the a5 backend says so): the other 64-bit
 * pairs, int -> narrower float (A5 has none), and an explicit NONE to an
 * integer other than s64 (the library truncates; ptoc's NONE is RINT).
 */
#include "passes/lower_a5.h"
#include "ptoc/ptoc.h"

#include <stdio.h>
#include <string.h>

typedef vop_builder lower;

/* rmode values (pto_attrs.c): NONE RINT ROUND FLOOR CEIL TRUNC ODD CAST_RINT. */
enum { RM_NONE = 0, RM_ODD = 6, RM_ABSENT = 100 };

/* What a step computes: one vcvt, or a sequence for a rounding no vcvt has
 * (the cpu target's ODD: ties to odd into an integer, round to odd into a
 * float; f32 -> f32, an integral value). */
typedef enum cvt_kind { CK_VCVT, CK_TIES_ODD, CK_ROUND_ODD, CK_INTEGRAL } cvt_kind;

/* One step of a chain: to `to`, with its rnd (NULL: none) and sat. */
typedef struct cvt_step {
    ptoc_type *to;
    const char *rnd;
    bool sat;
    bool and255;        /* an AND with 255 before this step (the f16 -> 8-bit chain) */
    cvt_kind kind;
} cvt_step;

enum { MAX_STEPS = 3 };

typedef struct cvt_plan {
    ptoc_value *src, *dst;
    ptoc_type *from;
    cvt_step steps[MAX_STEPS];
    int nsteps;
} cvt_plan;

bool a5_convert_lowers(ptoc_pto_op_id opcode) { return opcode == PTOC_PTO_OP_TCVT; }

/* ---------------------------------------------------------------- the plan */

static bool is_fkind(const ptoc_type *t, ptoc_float_kind k) { return ptoc_type_is_float(t) && t->u.fp.kind == k; }
static bool is_unsigned(const ptoc_type *t) { return ptoc_type_is_int(t) && t->u.integer.sign == PTOC_UNSIGNED; }
static unsigned bits_of(const ptoc_type *t) { return ptoc_type_bitwidth(t); }

/* The pairs whose library default is no saturation (as the cpu target's tcvt). */
static bool narrowing_pair(const ptoc_type *se, const ptoc_type *de)
{
    bool int_dst = ptoc_type_is_int(de) && !is_unsigned(de);
    if (is_fkind(se, PTOC_F16))
        return (ptoc_type_is_int(de) && bits_of(de) == 8) || (int_dst && bits_of(de) == 16);
    if (is_fkind(se, PTOC_F32))
        return int_dst && bits_of(de) == 16;
    bool int_src = ptoc_type_is_int(se) && !is_unsigned(se);
    return int_src && int_dst && ((bits_of(se) == 64 && bits_of(de) == 32) || (bits_of(se) == 32 && bits_of(de) == 16));
}

static uint32_t rmode_of(const ptoc_op *op)
{
    ptoc_attr *a = ptoc_op_attr(op, "rmode");
    uint32_t v;
    return a && ptoc_pto_enum_value(a, PTOC_PTO_ENUM_ROUND_MODE, &v) ? v : RM_ABSENT;
}

static bool sat_of(const ptoc_op *op, const ptoc_type *se, const ptoc_type *de)
{
    ptoc_attr *a = ptoc_op_attr(op, "sat_mode");
    uint32_t v;
    if (a && ptoc_pto_enum_value(a, PTOC_PTO_ENUM_SATURATION_MODE, &v))
        return v == 0;
    return !narrowing_pair(se, de);
}

/* Whether every value of int type `i` is a value of float type `f`. */
static bool exact_in(const ptoc_type *i, const ptoc_type *f)
{
    unsigned digits = is_fkind(f, PTOC_F32) ? 24 : is_fkind(f, PTOC_F16) ? 11 : 8;
    return bits_of(i) - (is_unsigned(i) ? 0 : 1) <= digits;
}

/* Whether the conversion from se to de rounds (so that rnd matters). */
static bool rounds(const ptoc_type *se, const ptoc_type *de)
{
    bool sf = ptoc_type_is_float(se), df = ptoc_type_is_float(de);
    if (sf && df)
        return !(is_fkind(de, PTOC_F32) || (is_fkind(se, PTOC_F16) && is_fkind(de, PTOC_F64)));
    if (!sf && df)
        return !exact_in(se, de);
    return sf;
}

/* vcvt's rnd letter for an rmode (RINT when absent). */
static const char *rnd_letter(uint32_t rmode)
{
    static const char *const letters[] = {"R", "R", "A", "F", "C", "Z", "O", "R"};
    return rmode < sizeof letters / sizeof letters[0] ? letters[rmode] : "R";
}

static void push(cvt_plan *p, ptoc_type *to, const char *rnd, bool sat)
{
    p->steps[p->nsteps++] = (cvt_step){to, rnd, sat, false, CK_VCVT};
}

static void push_kind(cvt_plan *p, ptoc_type *to, const char *rnd, bool sat, cvt_kind kind)
{
    p->steps[p->nsteps++] = (cvt_step){to, rnd, sat, false, kind};
}

/* ODD where vcvt has no such rounding: into a float, truncate and set the
 * last bit when inexact; into an integer, ties to odd at the source's lane
 * width (f16 and bf16 widened exactly to f32 first for a 32-bit integer,
 * narrowed after by an integer vcvt with the op's saturation). */
static bool plan_odd(lower *L, cvt_plan *p, bool sat)
{
    ptoc_type *se = p->from, *de = vb_tile_desc(p->dst->type)->elem;
    if (!ptoc_type_is_float(se) || ptoc_type_is_float(de)) {
        if (bits_of(de) > bits_of(se))
            return false;
        push_kind(p, de, "Z", sat, CK_ROUND_ODD);
        return true;
    }
    ptoc_type *from = se;
    if (bits_of(se) == 16 && bits_of(de) == 32) {
        from = ptoc_type_float(L->ctx, PTOC_F32);
        push(p, from, NULL, false);
    }
    unsigned w = bits_of(from);
    if (bits_of(de) == w) {
        push_kind(p, de, "A", sat || w == 32, CK_TIES_ODD);
    } else {
        push_kind(p, ptoc_type_int(L->ctx, w, PTOC_SIGNED), "A", sat || w == 32, CK_TIES_ODD);
        push(p, de, NULL, sat);
    }
    return true;
}

/* Whether two lane widths are equal or one is twice the other. */
static bool twofold(unsigned a, unsigned b) { return a == b || a == 2 * b || b == 2 * a; }

static bool plan_steps(lower *L, cvt_plan *p, uint32_t rmode, bool sat)
{
    ptoc_type *se = p->from, *de = vb_tile_desc(p->dst->type)->elem;
    bool sf = ptoc_type_is_float(se), df = ptoc_type_is_float(de);
    unsigned sb = bits_of(se), db = bits_of(de);
    if (is_fkind(se, PTOC_F32) && se == de) {
        push_kind(p, de, rnd_letter(rmode), false, CK_INTEGRAL);
        return true;
    }
    if (!sf && !df && sb == 8 && db == 32) {          /* one vcvt reading part P0 */
        push(p, de, NULL, sat);
        return true;
    }
    if (!sf && !df && sb == 32 && db == 8) {          /* through 16 bits, each step saturating or not */
        push(p, ptoc_type_int(L->ctx, 16, is_unsigned(se) ? PTOC_UNSIGNED : PTOC_SIGNED), NULL, sat);
        push(p, de, NULL, sat);
        return true;
    }
    if (se == de || sb == 64 || db == 64 || !twofold(sb, db) || (!sf && df && db < sb))
        return false;
    bool r = rounds(se, de);
    if (r && rmode == RM_ODD && !(is_fkind(se, PTOC_F32) && is_fkind(de, PTOC_F16)))
        return plan_odd(L, p, sat);
    if (r && rmode == RM_NONE && sf && !df)
        return false;
    const char *rnd = r ? rnd_letter(rmode) : NULL;
    ptoc_type *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNED), *i16 = ptoc_type_int(L->ctx, 16, PTOC_SIGNED);
    if (!sf || df || db >= 32 || sat) {
        push(p, de, rnd, sat || (sf && !df));
    } else if (sb == 32 || db == 16) {  /* f32 -> i16, f16 -> i16: through i32 */
        push(p, i32, rnd, true);
        push(p, de, NULL, false);
    } else {                            /* f16 -> i8, u8: the low byte, through f16 */
        push(p, i16, rnd, false);
        push(p, se, "R", false);
        p->steps[1].and255 = true;
        push(p, de, "R", false);
    }
    return true;
}

static bool plain_vec(const ptoc_type *t)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(t);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX;
}

static bool plan_of(lower *L, const ptoc_op *op, cvt_plan *p)
{
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return false;
    *p = (cvt_plan){.src = ptoc_op_operand(op, 0), .dst = ptoc_op_operand(op, (uint32_t)nins)};
    if (!plain_vec(p->src->type) || !plain_vec(p->dst->type))
        return false;
    p->from = vb_tile_desc(p->src->type)->elem;
    const ptoc_type *de = vb_tile_desc(p->dst->type)->elem;
    return plan_steps(L, p, rmode_of(op), sat_of(op, p->from, de));
}

/* ---------------------------------------------------------------- the program */

/* A register of `elem`: 256 bytes. */
static ptoc_type *vreg_of(lower *L, ptoc_type *elem)
{
    return ptoc_pto_vreg_type_get(L->ctx, elem, 2048 / bits_of(elem));
}

static ptoc_type *mask_of(lower *L, unsigned bits) { return ptoc_pto_mask_type_get(L->ctx, bits); }

static ptoc_pto_vop_id pset_of(unsigned bits)
{
    return bits == 8 ? PTOC_PTO_VOP_PSET_B8 : bits == 16 ? PTOC_PTO_VOP_PSET_B16 : PTOC_PTO_VOP_PSET_B32;
}

static ptoc_value *all_lanes(lower *L, unsigned bits)
{
    ptoc_type *m = mask_of(L, bits);
    return vb_result0(vb_vop(L, pset_of(bits), 0, NULL, 1, &m, "pattern", "PAT_ALL", NULL, NULL));
}

/* The chain's widest lane: a chunk is one register of it. */
static unsigned widest(const cvt_plan *p)
{
    unsigned w = bits_of(p->from);
    for (int i = 0; i < p->nsteps; i++)
        w = bits_of(p->steps[i].to) > w ? bits_of(p->steps[i].to) : w;
    return w;
}

/* One vcvt step of `v` (of type `from`), under `all` (from's lanes). */
static ptoc_value *convert(lower *L, const cvt_step *s, ptoc_type *from, ptoc_value *v, ptoc_value *all)
{
    ptoc_type *to = vreg_of(L, s->to);
    unsigned fb = bits_of(from), tb = bits_of(s->to);
    ptoc_value *ops[2] = {v, all};
    ptoc_op *c = vb_vop(L, PTOC_PTO_VOP_VCVT, 2, ops, 1, &to, "sat", s->sat ? "SAT" : "NOSAT",
                        s->rnd ? "rnd" : NULL, s->rnd);
    if (fb != tb) {
        const char *part = fb * 4 == tb ? "P0" : "EVEN";
        ptoc_op_set_attr(c, L->b.arena, ptoc_ident_cstr(L->ctx, "part"), ptoc_attr_string(L->ctx, part, strlen(part)));
    }
    return vb_result0(c);
}

static ptoc_type *elem_of_reg(const ptoc_value *v) { return ptoc_pto_vreg_type(v->type)->elem; }

/* v converted to `to` by one vcvt, under `all` (v's lanes). */
static ptoc_value *vcvt_to(lower *L, ptoc_value *v, ptoc_type *to, const char *rnd, bool sat, ptoc_value *all)
{
    cvt_step s = {to, rnd, sat, false, CK_VCVT};
    return convert(L, &s, elem_of_reg(v), v, all);
}

static ptoc_value *vop2(lower *L, ptoc_pto_vop_id id, ptoc_value *a, ptoc_value *b, ptoc_value *m)
{
    ptoc_value *ops[3] = {a, b, m};
    return vb_vop1(L, id, 3, ops, a->type, NULL, NULL);
}

static ptoc_value *abs_of(lower *L, ptoc_value *v, ptoc_value *m)
{
    ptoc_value *ops[2] = {v, m};
    return vb_vop1(L, PTOC_PTO_VOP_VABS, 2, ops, v->type, NULL, NULL);
}

static ptoc_value *bitcast(lower *L, ptoc_value *v, ptoc_type *elem)
{
    return vb_vop1(L, PTOC_PTO_VOP_VBITCAST, 1, &v, vreg_of(L, elem), NULL, NULL);
}

/* Every lane the integer k (v's lane width). */
static ptoc_value *splat(lower *L, ptoc_type *vt, int64_t k)
{
    ptoc_value *c = vb_int(L, ptoc_type_int(L->ctx, bits_of(ptoc_pto_vreg_type(vt)->elem), PTOC_SIGNLESS), k);
    return vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &c, vt, NULL, NULL);
}

/* a CMP b (a register, or a scalar of a's element type) under the seed. */
static ptoc_value *compare(lower *L, ptoc_value *a, ptoc_value *b, const char *mode, ptoc_value *seed)
{
    ptoc_value *ops[3] = {a, b, seed};
    bool reg = ptoc_pto_vreg_type(b->type) != NULL;
    return vb_vop1(L, reg ? PTOC_PTO_VOP_VCMP : PTOC_PTO_VOP_VCMPS, 3, ops, seed->type, "cmp_mode", mode);
}

/* The lanes of integer register v whose low bit is `bit`, under the seed. */
static ptoc_value *parity(lower *L, ptoc_value *v, int bit, ptoc_value *seed, ptoc_value *all)
{
    ptoc_value *low = vop2(L, PTOC_PTO_VOP_VAND, v, splat(L, v->type, 1), all);
    ptoc_type *sl = ptoc_type_int(L->ctx, bits_of(elem_of_reg(v)), PTOC_SIGNLESS);
    return compare(L, low, vb_int(L, sl, 0), bit ? "ne" : "eq", seed);
}

/* x rounded to the nearest integer of `to` (x's lane width), ties to odd:
 * rounded away from zero (A), or toward zero (Z) where x is a tie and A is
 * even. x is a tie where 2x is an odd integer below 2^digits (F and C of
 * 2x agree), which holds every tie and keeps 2x exact in the integer. */
static ptoc_value *ties_odd(lower *L, ptoc_value *x, ptoc_type *to, bool sat, ptoc_value *all)
{
    ptoc_type *fe = elem_of_reg(x);
    unsigned w = bits_of(fe), digits = is_fkind(fe, PTOC_F32) ? 24 : is_fkind(fe, PTOC_F16) ? 11 : 8;
    ptoc_value *a = vcvt_to(L, x, to, "A", sat, all), *z = vcvt_to(L, x, to, "Z", sat, all);
    ptoc_type *si = ptoc_type_int(L->ctx, w, PTOC_SIGNED);
    ptoc_value *y = vop2(L, PTOC_PTO_VOP_VADD, x, x, all);
    ptoc_value *fy = vcvt_to(L, y, si, "F", true, all), *cy = vcvt_to(L, y, si, "C", true, all);
    ptoc_value *tie = compare(L, fy, cy, "eq", all);
    tie = parity(L, fy, 1, tie, all);
    ptoc_value *bound = vb_int(L, ptoc_type_int(L->ctx, w, PTOC_SIGNLESS), (int64_t)1 << digits);
    tie = compare(L, abs_of(L, fy, all), bound, "lt", tie);
    return vop2(L, PTOC_PTO_VOP_VSEL, z, a, parity(L, a, 0, tie, all));
}

/* x converted to float type `to` by round to odd: truncated (Z), the last
 * bit set where that was inexact (the truncation, converted back exactly or
 * by Z, is smaller in magnitude, or another integer). */
static ptoc_value *round_odd(lower *L, ptoc_value *x, ptoc_type *to, bool sat, ptoc_value *all)
{
    ptoc_type *se = elem_of_reg(x);
    ptoc_value *r = vcvt_to(L, x, to, "Z", sat, all);
    bool sf = ptoc_type_is_float(se);
    ptoc_value *all_to = bits_of(to) == bits_of(se) ? all : all_lanes(L, bits_of(to));
    ptoc_value *back = vcvt_to(L, r, se, "Z", !sf, all_to);
    ptoc_value *inexact = sf ? compare(L, abs_of(L, back, all), abs_of(L, x, all), "lt", all)
                             : compare(L, back, x, "ne", all);
    ptoc_type *bits = ptoc_type_int(L->ctx, bits_of(se), PTOC_UNSIGNED);
    ptoc_value *rb = bitcast(L, r, bits);
    rb = vop2(L, PTOC_PTO_VOP_VSEL, vop2(L, PTOC_PTO_VOP_VOR, rb, splat(L, rb->type, 1), all), rb, inexact);
    return vb_vop1(L, PTOC_PTO_VOP_VBITCAST, 1, &rb, r->type, NULL, NULL);
}

/* f32 x rounded to an integral f32 by rnd (O: ties to odd): through i32
 * where |x| < 2^23 (above, x is integral; infinities stay, a NaN comes out
 * quiet), the sign of x kept (-0.3 to -0). */
static ptoc_value *integral(lower *L, ptoc_value *x, const char *rnd, ptoc_value *all)
{
    ptoc_type *f32 = elem_of_reg(x), *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNED);
    ptoc_type *u32 = ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED);
    ptoc_value *i = !strcmp(rnd, "O") ? ties_odd(L, x, i32, true, all) : vcvt_to(L, x, i32, rnd, true, all);
    ptoc_value *back = bitcast(L, vcvt_to(L, i, f32, "R", false, all), u32);
    ptoc_value *sign = vop2(L, PTOC_PTO_VOP_VAND, bitcast(L, x, u32), splat(L, back->type, 0x80000000), all);
    ptoc_value *r = bitcast(L, vop2(L, PTOC_PTO_VOP_VOR, back, sign, all), f32);
    ptoc_value *quiet = vop2(L, PTOC_PTO_VOP_VOR, bitcast(L, x, u32), splat(L, back->type, 0x400000), all);
    ptoc_value *big = vop2(L, PTOC_PTO_VOP_VSEL, bitcast(L, quiet, f32), x, compare(L, x, x, "ne", all));
    ptoc_value *small = compare(L, abs_of(L, x, all), vb_float(L, f32, 8388608.0), "lt", all);
    return vop2(L, PTOC_PTO_VOP_VSEL, r, big, small);
}

/* One step of the chain (convert for a plain vcvt). */
static ptoc_value *step_of(lower *L, const cvt_step *s, ptoc_type *from, ptoc_value *v, ptoc_value *all)
{
    switch (s->kind) {
    case CK_TIES_ODD: return ties_odd(L, v, s->to, s->sat, all);
    case CK_ROUND_ODD: return round_odd(L, v, s->to, s->sat, all);
    case CK_INTEGRAL: return integral(L, v, s->rnd, all);
    default: return convert(L, s, from, v, all);
    }
}

/* v & 255 on its i16 lanes. */
static ptoc_value *low_byte(lower *L, ptoc_value *v, ptoc_value *all16)
{
    ptoc_type *vt = v->type;
    ptoc_value *k = vb_int(L, ptoc_type_int(L->ctx, 16, PTOC_SIGNLESS), 255);
    ptoc_value *b = vb_result0(vb_vop(L, PTOC_PTO_VOP_VBR, 1, &k, 1, &vt, NULL, NULL, NULL, NULL));
    ptoc_value *ops[3] = {v, b, all16};
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_VAND, 3, ops, 1, &vt, NULL, NULL, NULL, NULL));
}

static void convert_program(lower *L, const cvt_plan *p)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(p->src->type), *d = vb_tile_desc(p->dst->type);
    unsigned wide = widest(p), sb = bits_of(p->from), db = bits_of(d->elem);
    int64_t chunk = 2048 / wide;
    ptoc_value *sp = vb_tile_ptr(L, p->src, p->from), *dp = vb_tile_ptr(L, p->dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, p->dst);
    ptoc_value *alls[MAX_STEPS];
    ptoc_type *from = p->from;
    for (int i = 0; i < p->nsteps; i++) {
        alls[i] = all_lanes(L, bits_of(from));
        from = p->steps[i].to;
    }
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, chunk);
    ptoc_value *scols = vb_index(L, s->cols), *dcols = vb_index(L, d->cols);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, ptoc_op_result(valid, 0), one);
    ptoc_value *srow = vb_arith(L, "arith.muli", r, scols), *drow = vb_arith(L, "arith.muli", r, dcols);
    ptoc_value *vc = ptoc_op_result(valid, 1);
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vc, step);
    /* the store's predicate: one lane per element at dst's width, or at the wider
     * width a packed store reads */
    bool packed = db < wide && 2048 / db != chunk, packed4 = db * 4 == wide;
    unsigned store_bits = packed4 ? 32 : packed ? 2 * db : db;
    ptoc_type *tail_types[2] = {mask_of(L, store_bits), L->index};
    ptoc_value *rest = vb_arith(L, "arith.subi", vc, c);
    ptoc_value *tail = vb_result0(vb_vop(L, vb_plt(store_bits), 1, &rest, 2, tail_types, NULL, NULL, NULL, NULL));
    bool unpacked = sb < wide && 2048 / sb != chunk;
    char dist[24];
    snprintf(dist, sizeof dist, sb * 4 == wide ? "UNPK4_B%u" : "UNPK_B%u", sb);
    ptoc_type *sv = vreg_of(L, p->from);
    ptoc_value *lops[2] = {sp, vb_arith(L, "arith.addi", srow, c)};
    ptoc_value *v = vb_result0(vb_vop(L, PTOC_PTO_VOP_VLDS, 2, lops, 1, &sv, "dist", unpacked ? dist : "NORM", NULL,
                                      NULL));
    from = p->from;
    for (int i = 0; i < p->nsteps; i++) {
        if (p->steps[i].and255)
            v = low_byte(L, v, alls[0]);
        v = step_of(L, &p->steps[i], from, v, alls[i]);
        from = p->steps[i].to;
    }
    snprintf(dist, sizeof dist, "%s_B%u", packed4 ? "PK4" : packed ? "PK" : "NORM", store_bits);
    ptoc_value *sops[4] = {v, dp, vb_arith(L, "arith.addi", drow, c), tail};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, sops, 0, NULL, "dist", dist, NULL, NULL);
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

/* ---------------------------------------------------------------- 64-bit integers */

/* A 64-bit integer is a (lo, hi) pair of 32-bit words in memory, handled
 * as i32 lanes: s32 -> s64 interleaves x with its sign (x >> 31) by vintlv
 * and stores the two registers (f32 -> s64: the words of f32_words);
 * s64 -> s32 deinterleaves two registers by vdintlv and keeps lo, or with
 * saturation the bound of the value's sign where hi is not lo's sign
 * (s64 -> f32: words_f32). A chunk is 64 elements: one register of 32-bit
 * words, two of pairs. */
static bool int64_pair(const ptoc_type *se, const ptoc_type *de)
{
    if (is_fkind(se, PTOC_F32) && ptoc_type_is_int(de) && !is_unsigned(de) && bits_of(de) == 64)
        return true;
    if (is_fkind(de, PTOC_F32) && ptoc_type_is_int(se) && !is_unsigned(se) && bits_of(se) == 64)
        return true;
    bool s_signed = ptoc_type_is_int(se) && !is_unsigned(se), d_signed = ptoc_type_is_int(de) && !is_unsigned(de);
    return s_signed && d_signed &&
           ((bits_of(se) == 32 && bits_of(de) == 64) || (bits_of(se) == 64 && bits_of(de) == 32));
}

static ptoc_value *plt32(lower *L, ptoc_value *n, ptoc_value **rest)
{
    ptoc_type *types[2] = {mask_of(L, 32), L->index};
    ptoc_op *o = vb_vop(L, PTOC_PTO_VOP_PLT_B32, 1, &n, 2, types, NULL, NULL, NULL, NULL);
    if (rest)
        *rest = ptoc_op_result(o, 1);
    return ptoc_op_result(o, 0);
}

static ptoc_value *load32(lower *L, ptoc_value *ptr, ptoc_value *off, ptoc_type *vt)
{
    ptoc_value *ops[2] = {ptr, off};
    return vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, ops, vt, "dist", "NORM");
}

static void store32(lower *L, ptoc_value *v, ptoc_value *ptr, ptoc_value *off, ptoc_value *m)
{
    ptoc_value *ops[4] = {v, ptr, off, m};
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, ops, 0, NULL, "dist", "NORM_B32", NULL, NULL);
}

static void pair_of_regs(lower *L, ptoc_pto_vop_id id, ptoc_value *a, ptoc_value *b, ptoc_value **out)
{
    ptoc_value *ops[2] = {a, b};
    ptoc_type *types[2] = {a->type, a->type};
    ptoc_op *o = vb_vop(L, id, 2, ops, 2, types, NULL, NULL, NULL, NULL);
    out[0] = ptoc_op_result(o, 0), out[1] = ptoc_op_result(o, 1);
}

/* s64 -> s32 of the words lo, hi: lo, or saturated. */
static ptoc_value *narrow64(lower *L, ptoc_value *lo, ptoc_value *hi, bool sat, ptoc_value *all)
{
    if (!sat)
        return lo;
    ptoc_type *s32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    ptoc_value *sign = vop2(L, PTOC_PTO_VOP_VSHRS, lo, vb_int(L, s32, 31), all);
    ptoc_value *fits = compare(L, hi, sign, "eq", all);
    ptoc_value *neg = compare(L, hi, vb_int(L, s32, 0), "lt", all);
    ptoc_value *bound = vop2(L, PTOC_PTO_VOP_VSEL, splat(L, lo->type, INT32_MIN), splat(L, lo->type, INT32_MAX), neg);
    return vop2(L, PTOC_PTO_VOP_VSEL, lo, bound, fits);
}

static ptoc_value *one_op(lower *L, ptoc_pto_vop_id id, ptoc_value *a, ptoc_value *m)
{
    ptoc_value *ops[2] = {a, m};
    return vb_vop1(L, id, 2, ops, a->type, NULL, NULL);
}

static ptoc_value *sel(lower *L, ptoc_value *a, ptoc_value *b, ptoc_value *m)
{
    return vop2(L, PTOC_PTO_VOP_VSEL, a, b, m);
}

/* The words (lo, hi) of s64 of f32 x, rounded by rnd: an integral f32 v
 * (integral()), then below 2^31 by vcvt to s32 and its sign; below 2^63 its
 * significand m shifted by s = exponent - 150 (8..39) across the words, and
 * negated as a pair; above, the bound of its sign; NaN 0. */
static void f32_words(lower *L, ptoc_value *x, const char *rnd, ptoc_value *all, ptoc_value **lo, ptoc_value **hi)
{
    ptoc_type *f32 = elem_of_reg(x), *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNED);
    ptoc_type *sl = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    ptoc_value *v = integral(L, x, rnd, all), *av = abs_of(L, v, all);
    ptoc_value *los = vcvt_to(L, v, i32, "R", true, all);
    ptoc_value *his = vop2(L, PTOC_PTO_VOP_VSHRS, los, vb_int(L, sl, 31), all);
    ptoc_value *b = bitcast(L, v, i32);
    ptoc_value *e = vop2(L, PTOC_PTO_VOP_VAND, vop2(L, PTOC_PTO_VOP_VSHRS, b, vb_int(L, sl, 23), all),
                         splat(L, b->type, 255), all);
    ptoc_value *m = vop2(L, PTOC_PTO_VOP_VOR, vop2(L, PTOC_PTO_VOP_VAND, b, splat(L, b->type, 0x7fffff), all),
                         splat(L, b->type, 0x800000), all);
    ptoc_value *sh = vop2(L, PTOC_PTO_VOP_VSUBS, e, vb_int(L, sl, 150), all);
    ptoc_value *s1 = vop2(L, PTOC_PTO_VOP_VMINS, sh, vb_int(L, sl, 31), all);
    ptoc_value *lo1 = vop2(L, PTOC_PTO_VOP_VSHL, m, s1, all);
    ptoc_value *r1 = vop2(L, PTOC_PTO_VOP_VSUB, splat(L, b->type, 32), s1, all);
    ptoc_value *hi1 = vop2(L, PTOC_PTO_VOP_VSHR, m, r1, all);
    ptoc_value *s2 = vop2(L, PTOC_PTO_VOP_VMAXS, vop2(L, PTOC_PTO_VOP_VSUBS, sh, vb_int(L, sl, 32), all),
                          vb_int(L, sl, 0), all);
    ptoc_value *hi2 = vop2(L, PTOC_PTO_VOP_VSHL, m, s2, all);
    ptoc_value *high = compare(L, sh, vb_int(L, sl, 32), "ge", all);
    ptoc_value *blo = sel(L, splat(L, b->type, 0), lo1, high), *bhi = sel(L, hi2, hi1, high);
    ptoc_value *neg = compare(L, b, vb_int(L, sl, 0), "lt", all);
    ptoc_value *nlo = one_op(L, PTOC_PTO_VOP_VNEG, blo, all);
    ptoc_value *lo_zero = compare(L, blo, vb_int(L, sl, 0), "eq", all);
    ptoc_value *nhi = sel(L, one_op(L, PTOC_PTO_VOP_VNEG, bhi, all), one_op(L, PTOC_PTO_VOP_VNOT, bhi, all), lo_zero);
    blo = sel(L, nlo, blo, neg), bhi = sel(L, nhi, bhi, neg);
    ptoc_value *huge = compare(L, av, vb_float(L, f32, 9223372036854775808.0), "ge", all);
    blo = sel(L, sel(L, splat(L, b->type, 0), splat(L, b->type, -1), neg), blo, huge);
    bhi = sel(L, sel(L, splat(L, b->type, INT32_MIN), splat(L, b->type, INT32_MAX), neg), bhi, huge);
    ptoc_value *nan = compare(L, v, v, "ne", all);
    blo = sel(L, splat(L, b->type, 0), blo, nan), bhi = sel(L, splat(L, b->type, 0), bhi, nan);
    ptoc_value *small = compare(L, av, vb_float(L, f32, 2147483648.0), "lt", all);
    *lo = sel(L, los, blo, small), *hi = sel(L, his, bhi, small);
}

/* u32 lanes m to f32 by rnd (O: round to odd). */
static ptoc_value *u32_to_f32(lower *L, ptoc_value *m, const char *rnd, ptoc_value *all)
{
    ptoc_type *f32 = ptoc_type_float(L->ctx, PTOC_F32);
    return !strcmp(rnd, "O") ? round_odd(L, m, f32, false, all) : vcvt_to(L, m, f32, rnd, false, all);
}

/* f32 of the s64 words (lo, hi) by rnd, rounded once: the magnitude M (the
 * pair negated where hi < 0), by a u32 vcvt where M < 2^32; else M >> k
 * with the dropped bits' OR in its last bit (k = hi's bit length, 1..32,
 * from the exponent of hi truncated to f32), 32 significant bits that round
 * as M does, converted and scaled by 2^k (exact). F and C swap for a
 * negative value, whose magnitude rounds the other way. */
static ptoc_value *words_f32(lower *L, ptoc_value *lo, ptoc_value *hi, const char *rnd, ptoc_value *all)
{
    ptoc_type *u32 = ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED), *f32 = ptoc_type_float(L->ctx, PTOC_F32);
    ptoc_type *sl = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    ptoc_value *zero = vb_int(L, sl, 0);
    ptoc_value *neg = compare(L, hi, zero, "lt", all), *lo_zero = compare(L, lo, zero, "eq", all);
    ptoc_value *nhi = sel(L, one_op(L, PTOC_PTO_VOP_VNEG, hi, all), one_op(L, PTOC_PTO_VOP_VNOT, hi, all), lo_zero);
    ptoc_value *mlo = bitcast(L, sel(L, one_op(L, PTOC_PTO_VOP_VNEG, lo, all), lo, neg), u32);
    ptoc_value *mhi = bitcast(L, sel(L, nhi, hi, neg), u32);
    ptoc_value *fh = bitcast(L, vcvt_to(L, mhi, f32, "Z", false, all), u32);
    ptoc_value *k = vop2(L, PTOC_PTO_VOP_VSUBS, vop2(L, PTOC_PTO_VOP_VSHRS, fh, vb_int(L, sl, 23), all),
                         vb_int(L, sl, 126), all);
    k = vop2(L, PTOC_PTO_VOP_VMAXS, vop2(L, PTOC_PTO_VOP_VMINS, k, vb_int(L, sl, 32), all), vb_int(L, sl, 1), all);
    ptoc_value *k1 = vop2(L, PTOC_PTO_VOP_VMINS, k, vb_int(L, sl, 31), all);
    ptoc_value *r1 = vop2(L, PTOC_PTO_VOP_VSUB, splat(L, k->type, 32), k1, all);
    ptoc_value *full = compare(L, k, vb_int(L, sl, 32), "eq", all);
    ptoc_value *top = vop2(L, PTOC_PTO_VOP_VOR, vop2(L, PTOC_PTO_VOP_VSHR, mlo, k1, all),
                           vop2(L, PTOC_PTO_VOP_VSHL, mhi, r1, all), all);
    top = sel(L, mhi, top, full);
    ptoc_value *dropped = sel(L, mlo, vop2(L, PTOC_PTO_VOP_VSHL, mlo, r1, all), full);
    ptoc_value *sticky = compare(L, dropped, zero, "ne", all);
    top = sel(L, vop2(L, PTOC_PTO_VOP_VOR, top, splat(L, top->type, 1), all), top, sticky);
    const char *mirror = !strcmp(rnd, "F") ? "C" : !strcmp(rnd, "C") ? "F" : rnd;
    ptoc_value *scale = bitcast(L, vop2(L, PTOC_PTO_VOP_VSHLS, vop2(L, PTOC_PTO_VOP_VADDS, k, vb_int(L, sl, 127), all),
                                        vb_int(L, sl, 23), all), f32);
    ptoc_value *big_p = vop2(L, PTOC_PTO_VOP_VMUL, u32_to_f32(L, top, rnd, all), scale, all);
    ptoc_value *big_n = vop2(L, PTOC_PTO_VOP_VMUL, u32_to_f32(L, top, mirror, all), scale, all);
    ptoc_value *small_p = u32_to_f32(L, mlo, rnd, all), *small_n = u32_to_f32(L, mlo, mirror, all);
    ptoc_value *big = compare(L, mhi, zero, "ne", all);
    ptoc_value *mag = sel(L, sel(L, big_n, big_p, neg), sel(L, small_n, small_p, neg), big);
    return sel(L, one_op(L, PTOC_PTO_VOP_VNEG, mag, all), mag, neg);
}

static void int64_program(lower *L, ptoc_value *src, ptoc_value *dst, bool sat, const char *rnd)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    bool widen = bits_of(d->elem) == 64;
    ptoc_type *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNED), *vt = vreg_of(L, i32);
    ptoc_type *u32 = ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED), *ut = vreg_of(L, u32);
    bool from_f32 = is_fkind(s->elem, PTOC_F32);
    ptoc_value *sp = vb_tile_ptr(L, src, from_f32 ? s->elem : widen ? i32 : u32);
    ptoc_value *dp = vb_tile_ptr(L, dst, widen ? u32 : is_fkind(d->elem, PTOC_F32) ? d->elem : i32);
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *all = all_lanes(L, 32);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *two = vb_index(L, 2), *step = vb_index(L, 64);
    ptoc_value *swords = vb_index(L, s->cols * (widen ? 1 : 2)), *dwords = vb_index(L, d->cols * (widen ? 2 : 1));
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, ptoc_op_result(valid, 0), one);
    ptoc_value *srow = vb_arith(L, "arith.muli", r, swords), *drow = vb_arith(L, "arith.muli", r, dwords);
    ptoc_value *vc = ptoc_op_result(valid, 1);
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vc, step);
    ptoc_value *rest = vb_arith(L, "arith.subi", vc, c), *c2 = vb_arith(L, "arith.muli", c, two);
    if (widen) {
        ptoc_value *x = load32(L, sp, vb_arith(L, "arith.addi", srow, c), from_f32 ? vreg_of(L, s->elem) : vt);
        ptoc_value *w[2], *left, *hi;
        if (from_f32)
            f32_words(L, x, rnd, all, &x, &hi);
        else
            hi = vop2(L, PTOC_PTO_VOP_VSHRS, x, vb_int(L, ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS), 31), all);
        pair_of_regs(L, PTOC_PTO_VOP_VINTLV, x, hi, w);
        ptoc_value *m0 = plt32(L, vb_arith(L, "arith.muli", rest, two), &left), *m1 = plt32(L, left, NULL);
        ptoc_value *at = vb_arith(L, "arith.addi", drow, c2);
        store32(L, bitcast(L, w[0], u32), dp, at, m0);
        store32(L, bitcast(L, w[1], u32), dp, vb_arith(L, "arith.addi", at, step), m1);
    } else {
        ptoc_value *at = vb_arith(L, "arith.addi", srow, c2), *w[2];
        ptoc_value *a = bitcast(L, load32(L, sp, at, ut), i32);
        ptoc_value *b = bitcast(L, load32(L, sp, vb_arith(L, "arith.addi", at, step), ut), i32);
        pair_of_regs(L, PTOC_PTO_VOP_VDINTLV, a, b, w);
        ptoc_value *out = is_fkind(d->elem, PTOC_F32) ? words_f32(L, w[0], w[1], rnd, all)
                                                      : narrow64(L, w[0], w[1], sat, all);
        store32(L, out, dp, vb_arith(L, "arith.addi", drow, c), plt32(L, rest, NULL));
    }
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
}

static bool lower_int64(lower *L, ptoc_op *op)
{
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return false;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    if (!plain_vec(src->type) || !plain_vec(dst->type))
        return false;
    ptoc_type *se = vb_tile_desc(src->type)->elem, *de = vb_tile_desc(dst->type)->elem;
    if (!int64_pair(se, de))
        return false;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    int64_program(L, src, dst, sat_of(op, se, de), rnd_letter(rmode_of(op)));
    ptoc_op_erase(op);
    return true;
}

void a5_convert_lower(lower *L, ptoc_op *op)
{
    cvt_plan p;
    if (lower_int64(L, op) || !plan_of(L, op, &p))
        return;
    ptoc_value *tiles[2] = {p.src, p.dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    convert_program(L, &p);
    ptoc_op_erase(op);
}
