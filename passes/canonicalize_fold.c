/* canonicalize_fold.c: folding arith ops whose operands are constants, for the
 * canonicalize pass (canonicalize.h says what is folded and what is not).
 *
 * Integers are handled as their bit pattern in a uint64_t, masked to the
 * type's width (index is 64 bits); signed operations sign-extend first. MLIR's
 * rules for what does not fold are kept, because a fold there would choose a
 * value for something the semantics leave undefined (poison): x / 0, x % 0,
 * INT_MIN / -1, shifts by the width or more, float-to-int conversions out of
 * range or of NaN. Floats are doubles rounded to the result type with
 * ptoc_float_round, which gives the correctly rounded IEEE result for the
 * operations folded here (a double holds more than twice the bits of every
 * narrower format); f80 and f128 are not folded, nor int-to-float
 * conversions of values a double cannot hold exactly.
 */
#include "passes/canonicalize.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- values */

ptoc_attr *ptoc_fold_constant_of(const ptoc_value *v)
{
    ptoc_op *def = ptoc_value_def(v);
    if (!def || !ptoc_op_is(def, "arith.constant") || def->nresults != 1)
        return NULL;
    ptoc_attr *a = ptoc_op_attr(def, "value");
    bool scalar = a && (a->kind == PTOC_ATTR_BOOL || a->kind == PTOC_ATTR_INTEGER || a->kind == PTOC_ATTR_FLOAT);
    return scalar ? a : NULL;
}

/* Bits of an integer type: 64 for index, 0 for anything else. */
static unsigned int_width(const ptoc_type *t)
{
    return t->kind == PTOC_TYPE_INDEX ? 64 : t->kind == PTOC_TYPE_INTEGER ? t->u.integer.width : 0;
}

static uint64_t mask_of(unsigned w)
{
    return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

static int64_t sign_extend(uint64_t u, unsigned w)
{
    if (w >= 64)
        return (int64_t)u;
    uint64_t sign = UINT64_C(1) << (w - 1);
    return (int64_t)(((u & mask_of(w)) ^ sign) - sign);
}

static bool int_bits(const ptoc_attr *a, unsigned w, uint64_t *out)
{
    if (a->kind == PTOC_ATTR_BOOL)
        *out = a->u.boolean;
    else if (a->kind == PTOC_ATTR_INTEGER)
        *out = (uint64_t)a->u.integer.value & mask_of(w);
    else
        return false;
    return true;
}

static bool float_value(const ptoc_attr *a, double *out)
{
    if (a->kind != PTOC_ATTR_FLOAT)
        return false;
    *out = a->u.fp.value;
    return true;
}

/* The constant `bits` of integer type `t`: `true`/`false` for i1, as MLIR prints. */
static ptoc_attr *int_attr(ptoc_context *ctx, ptoc_type *t, uint64_t bits)
{
    unsigned w = int_width(t);
    if (w == 1)
        return ptoc_attr_bool(ctx, bits & 1);
    return ptoc_attr_int(ctx, t, sign_extend(bits, w));
}

/* Float kinds folded here: those a double rounds to exactly. */
static bool foldable_float(const ptoc_type *t)
{
    return t->kind == PTOC_TYPE_FLOAT && t->u.fp.kind != PTOC_F80 && t->u.fp.kind != PTOC_F128;
}

static ptoc_attr *float_attr(ptoc_context *ctx, ptoc_type *t, double v)
{
    return ptoc_attr_float(ctx, t, ptoc_float_round(t->u.fp.kind, v));
}

/* ---------------------------------------------------------------- integer arithmetic */

typedef bool (*int_binary_fn)(uint64_t a, uint64_t b, unsigned w, uint64_t *out);

static bool f_addi(uint64_t a, uint64_t b, unsigned w, uint64_t *o) { (void)w; *o = a + b; return true; }
static bool f_subi(uint64_t a, uint64_t b, unsigned w, uint64_t *o) { (void)w; *o = a - b; return true; }
static bool f_muli(uint64_t a, uint64_t b, unsigned w, uint64_t *o) { (void)w; *o = a * b; return true; }
static bool f_andi(uint64_t a, uint64_t b, unsigned w, uint64_t *o) { (void)w; *o = a & b; return true; }
static bool f_ori(uint64_t a, uint64_t b, unsigned w, uint64_t *o) { (void)w; *o = a | b; return true; }
static bool f_xori(uint64_t a, uint64_t b, unsigned w, uint64_t *o) { (void)w; *o = a ^ b; return true; }
static bool f_maxui(uint64_t a, uint64_t b, unsigned w, uint64_t *o) { (void)w; *o = a > b ? a : b; return true; }
static bool f_minui(uint64_t a, uint64_t b, unsigned w, uint64_t *o) { (void)w; *o = a < b ? a : b; return true; }

static bool f_maxsi(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    *o = sign_extend(a, w) > sign_extend(b, w) ? a : b;
    return true;
}

static bool f_minsi(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    *o = sign_extend(a, w) < sign_extend(b, w) ? a : b;
    return true;
}

static bool f_divui(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    (void)w;
    if (b == 0)
        return false;
    *o = a / b;
    return true;
}

static bool f_remui(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    (void)w;
    if (b == 0)
        return false;
    *o = a % b;
    return true;
}

static bool f_ceildivui(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    (void)w;
    if (b == 0)
        return false;
    *o = a / b + (a % b != 0);
    return true;
}

/* Signed division: the truncated quotient and remainder, unless b is 0 or the
 * quotient overflows (INT_MIN / -1). */
static bool signed_divide(uint64_t a, uint64_t b, unsigned w, int64_t *q, int64_t *r)
{
    int64_t sa = sign_extend(a, w), sb = sign_extend(b, w);
    if (sb == 0 || (sb == -1 && sa == sign_extend(UINT64_C(1) << (w - 1), w)))
        return false;
    *q = sa / sb;
    *r = sa % sb;
    return true;
}

static bool f_divsi(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    int64_t q, r;
    if (!signed_divide(a, b, w, &q, &r))
        return false;
    *o = (uint64_t)q;
    return true;
}

static bool f_ceildivsi(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    int64_t q, r;
    if (!signed_divide(a, b, w, &q, &r))
        return false;
    *o = (uint64_t)q + (r != 0 && (r > 0) == (sign_extend(b, w) > 0));
    return true;
}

static bool f_floordivsi(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    int64_t q, r;
    if (!signed_divide(a, b, w, &q, &r))
        return false;
    *o = (uint64_t)q - (r != 0 && (r < 0) != (sign_extend(b, w) < 0));
    return true;
}

/* x % -1 is 0, also for INT_MIN (whose C remainder would overflow). */
static bool f_remsi(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    int64_t sb = sign_extend(b, w);
    if (sb == 0)
        return false;
    *o = sb == -1 ? 0 : (uint64_t)(sign_extend(a, w) % sb);
    return true;
}

static bool f_shli(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    if (b >= w)
        return false;
    *o = a << b;
    return true;
}

static bool f_shrui(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    if (b >= w)
        return false;
    *o = (a & mask_of(w)) >> b;
    return true;
}

/* Arithmetic shift without relying on C's implementation-defined >> of a
 * negative value: shift the bits, then fill from the sign. */
static bool f_shrsi(uint64_t a, uint64_t b, unsigned w, uint64_t *o)
{
    if (b >= w)
        return false;
    uint64_t shifted = (a & mask_of(w)) >> b;
    bool negative = (a >> (w - 1)) & 1;
    *o = negative ? shifted | (mask_of(w) & ~(mask_of(w) >> b)) : shifted;
    return true;
}

static const struct { const char *name; int_binary_fn fn; } int_binary[] = {
    {"arith.addi", f_addi}, {"arith.subi", f_subi}, {"arith.muli", f_muli},
    {"arith.divsi", f_divsi}, {"arith.divui", f_divui}, {"arith.ceildivsi", f_ceildivsi},
    {"arith.ceildivui", f_ceildivui}, {"arith.floordivsi", f_floordivsi},
    {"arith.remsi", f_remsi}, {"arith.remui", f_remui}, {"arith.andi", f_andi},
    {"arith.ori", f_ori}, {"arith.xori", f_xori}, {"arith.shli", f_shli},
    {"arith.shrsi", f_shrsi}, {"arith.shrui", f_shrui}, {"arith.maxsi", f_maxsi},
    {"arith.maxui", f_maxui}, {"arith.minsi", f_minsi}, {"arith.minui", f_minui},
};

/* MLIR's cmpi predicate numbering: eq ne slt sle sgt sge ult ule ugt uge. */
static bool compare_ints(int64_t pred, uint64_t a, uint64_t b, unsigned w, bool *out)
{
    int64_t sa = sign_extend(a, w), sb = sign_extend(b, w);
    switch (pred) {
    case 0: *out = a == b; return true;
    case 1: *out = a != b; return true;
    case 2: *out = sa < sb; return true;
    case 3: *out = sa <= sb; return true;
    case 4: *out = sa > sb; return true;
    case 5: *out = sa >= sb; return true;
    case 6: *out = a < b; return true;
    case 7: *out = a <= b; return true;
    case 8: *out = a > b; return true;
    case 9: *out = a >= b; return true;
    default: return false;
    }
}

/* ---------------------------------------------------------------- float arithmetic */

typedef double (*float_binary_fn)(double a, double b);

static double g_addf(double a, double b) { return a + b; }
static double g_subf(double a, double b) { return a - b; }
static double g_mulf(double a, double b) { return a * b; }
static double g_divf(double a, double b) { return a / b; }
static double g_remf(double a, double b) { return fmod(a, b); }

/* maximumf/minimumf propagate NaN and order -0 below +0; maxnumf/minnumf
 * return the number when one operand is NaN (LLVM's APFloat maximum/maxnum). */
static double g_maximumf(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}

static double g_minimumf(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}

static double g_maxnumf(double a, double b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return g_maximumf(a, b);
}

static double g_minnumf(double a, double b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return g_minimumf(a, b);
}

static const struct { const char *name; float_binary_fn fn; } float_binary[] = {
    {"arith.addf", g_addf}, {"arith.subf", g_subf}, {"arith.mulf", g_mulf},
    {"arith.divf", g_divf}, {"arith.remf", g_remf}, {"arith.maximumf", g_maximumf},
    {"arith.minimumf", g_minimumf}, {"arith.maxnumf", g_maxnumf}, {"arith.minnumf", g_minnumf},
};

/* MLIR's cmpf numbering: false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true. */
static bool compare_floats(int64_t pred, double a, double b, bool *out)
{
    bool unordered = isnan(a) || isnan(b);
    bool eq = !unordered && a == b, lt = !unordered && a < b, gt = !unordered && a > b;
    bool ordered_result[] = {false, eq, gt, gt || eq, lt, lt || eq, lt || gt, !unordered};
    if (pred < 0 || pred > 15)
        return false;
    if (pred == 15) {
        *out = true;
        return true;
    }
    /* ueq..une (8..13) are "unordered or" the ordered predicate 1..6; uno is 14. */
    *out = pred < 8 ? ordered_result[pred] : pred == 14 ? unordered : unordered || ordered_result[pred - 7];
    return true;
}

/* ---------------------------------------------------------------- casts */

/* A double's value as an integer of `w` bits, truncated toward zero, when it
 * fits (MLIR folds fptosi/fptoui only then). */
static bool float_to_int(double v, unsigned w, bool is_signed, uint64_t *out)
{
    if (isnan(v))
        return false;
    double t = trunc(v);
    double lo = is_signed ? -ldexp(1.0, (int)w - 1) : 0.0;
    double hi = is_signed ? ldexp(1.0, (int)w - 1) : ldexp(1.0, (int)w);
    if (t < lo || t >= hi)
        return false;
    *out = t < 0 ? (uint64_t)(int64_t)t : (uint64_t)t;
    return true;
}

/* An integer `bits` of width `from_w` converted to a double, when exact. */
static bool int_to_double(uint64_t bits, unsigned from_w, bool is_signed, double *out)
{
    const double limit = 9007199254740992.0;      /* 2^53 */
    if (is_signed) {
        int64_t s = sign_extend(bits, from_w);
        *out = (double)s;
    } else {
        *out = (double)(bits & mask_of(from_w));
    }
    return fabs(*out) <= limit;
}

/* Integer-to-integer casts: sign- or zero-extension, or truncation. */
static bool int_cast(const char *name, uint64_t bits, unsigned from_w, unsigned to_w, uint64_t *out)
{
    bool widen = to_w > from_w;
    bool sign = strcmp(name, "arith.extsi") == 0 || strcmp(name, "arith.index_cast") == 0;
    if (strcmp(name, "arith.extsi") == 0 || strcmp(name, "arith.extui") == 0 || strcmp(name, "arith.trunci") == 0 ||
        strcmp(name, "arith.index_cast") == 0 || strcmp(name, "arith.index_castui") == 0) {
        *out = widen && sign ? (uint64_t)sign_extend(bits, from_w) : bits & mask_of(from_w);
        *out &= mask_of(to_w);
        return true;
    }
    return false;
}

static ptoc_attr *fold_cast(ptoc_op *op, const ptoc_attr *in)
{
    ptoc_context *ctx = ptoc_op_context(op);
    ptoc_type *from = ptoc_op_operand(op, 0)->type, *to = op->results[0].type;
    const char *name = op->name->str;
    unsigned fw = int_width(from), tw = int_width(to);
    uint64_t bits;
    double v;
    if (fw && tw && int_bits(in, fw, &bits))
        return int_cast(name, bits, fw, tw, &bits) ? int_attr(ctx, to, bits) : NULL;
    bool is_signed = strcmp(name, "arith.sitofp") == 0 || strcmp(name, "arith.fptosi") == 0;
    if ((!strcmp(name, "arith.sitofp") || !strcmp(name, "arith.uitofp")) && fw && foldable_float(to) &&
        int_bits(in, fw, &bits))
        return int_to_double(bits, fw, is_signed, &v) ? float_attr(ctx, to, v) : NULL;
    if ((!strcmp(name, "arith.fptosi") || !strcmp(name, "arith.fptoui")) && tw && float_value(in, &v))
        return float_to_int(v, tw, is_signed, &bits) ? int_attr(ctx, to, bits) : NULL;
    bool rounding_given = ptoc_op_attr(op, "roundingmode") != NULL;
    if ((!strcmp(name, "arith.extf") || (!strcmp(name, "arith.truncf") && !rounding_given)) &&
        foldable_float(to) && float_value(in, &v))
        return float_attr(ctx, to, v);
    return NULL;
}

/* ---------------------------------------------------------------- dispatch */

static ptoc_fold_result fold_int_binary(ptoc_op *op, int_binary_fn fn, ptoc_attr **value)
{
    ptoc_attr *a = ptoc_fold_constant_of(ptoc_op_operand(op, 0));
    ptoc_attr *b = ptoc_fold_constant_of(ptoc_op_operand(op, 1));
    unsigned w = int_width(op->results[0].type);
    uint64_t x, y, r;
    if (!a || !b || !w || !int_bits(a, w, &x) || !int_bits(b, w, &y) || !fn(x, y, w, &r))
        return PTOC_FOLD_NONE;
    *value = int_attr(ptoc_op_context(op), op->results[0].type, r & mask_of(w));
    return PTOC_FOLD_CONSTANT;
}

static ptoc_fold_result fold_float_binary(ptoc_op *op, float_binary_fn fn, ptoc_attr **value)
{
    ptoc_attr *a = ptoc_fold_constant_of(ptoc_op_operand(op, 0));
    ptoc_attr *b = ptoc_fold_constant_of(ptoc_op_operand(op, 1));
    double x, y;
    if (!a || !b || !foldable_float(op->results[0].type) || !float_value(a, &x) || !float_value(b, &y))
        return PTOC_FOLD_NONE;
    *value = float_attr(ptoc_op_context(op), op->results[0].type, fn(x, y));
    return PTOC_FOLD_CONSTANT;
}

static ptoc_fold_result fold_compare(ptoc_op *op, ptoc_attr **value)
{
    ptoc_attr *a = ptoc_fold_constant_of(ptoc_op_operand(op, 0));
    ptoc_attr *b = ptoc_fold_constant_of(ptoc_op_operand(op, 1));
    ptoc_attr *pred = ptoc_op_attr(op, "predicate");
    if (!a || !b || !pred || pred->kind != PTOC_ATTR_INTEGER)
        return PTOC_FOLD_NONE;
    unsigned w = int_width(ptoc_op_operand(op, 0)->type);
    uint64_t x, y;
    double fx, fy;
    bool r;
    bool ok = ptoc_op_is(op, "arith.cmpi")
                  ? w && int_bits(a, w, &x) && int_bits(b, w, &y) && compare_ints(pred->u.integer.value, x, y, w, &r)
                  : float_value(a, &fx) && float_value(b, &fy) && compare_floats(pred->u.integer.value, fx, fy, &r);
    if (!ok)
        return PTOC_FOLD_NONE;
    *value = ptoc_attr_bool(ptoc_op_context(op), r);
    return PTOC_FOLD_CONSTANT;
}

static ptoc_fold_result fold_select(ptoc_op *op, ptoc_value **forward)
{
    ptoc_attr *c = ptoc_fold_constant_of(ptoc_op_operand(op, 0));
    uint64_t bit;
    if (!c || !int_bits(c, 1, &bit))
        return PTOC_FOLD_NONE;
    *forward = ptoc_op_operand(op, bit ? 1 : 2);
    return PTOC_FOLD_FORWARD;
}

static ptoc_fold_result fold_unary(ptoc_op *op, ptoc_attr **value)
{
    ptoc_attr *a = ptoc_fold_constant_of(ptoc_op_operand(op, 0));
    double v;
    if (!a)
        return PTOC_FOLD_NONE;
    if (ptoc_op_is(op, "arith.negf")) {
        if (!foldable_float(op->results[0].type) || !float_value(a, &v))
            return PTOC_FOLD_NONE;
        *value = float_attr(ptoc_op_context(op), op->results[0].type, -v);
    } else {
        *value = fold_cast(op, a);
    }
    return *value ? PTOC_FOLD_CONSTANT : PTOC_FOLD_NONE;
}

ptoc_fold_result ptoc_fold_arith(ptoc_op *op, ptoc_attr **value, ptoc_value **forward)
{
    const char *name = op->name->str;
    if (op->nresults != 1 || strncmp(name, "arith.", 6) != 0)
        return PTOC_FOLD_NONE;
    if (op->noperands == 2) {
        for (size_t i = 0; i < sizeof int_binary / sizeof int_binary[0]; i++)
            if (strcmp(name, int_binary[i].name) == 0)
                return fold_int_binary(op, int_binary[i].fn, value);
        for (size_t i = 0; i < sizeof float_binary / sizeof float_binary[0]; i++)
            if (strcmp(name, float_binary[i].name) == 0)
                return fold_float_binary(op, float_binary[i].fn, value);
        if (ptoc_op_is(op, "arith.cmpi") || ptoc_op_is(op, "arith.cmpf"))
            return fold_compare(op, value);
        return PTOC_FOLD_NONE;
    }
    if (op->noperands == 3 && ptoc_op_is(op, "arith.select"))
        return fold_select(op, forward);
    if (op->noperands == 1 && !ptoc_op_is(op, "arith.bitcast"))
        return fold_unary(op, value);
    return PTOC_FOLD_NONE;
}
