/* ref_convert.c: the C reference of tcvt, element by element over dst's
 * valid region (ref.h ref_tcvt; docs/decisions.md for the rules).
 *
 * Every source value is first held exactly: floats and integers of up to 32
 * bits in a double; a 64-bit integer is cut to 53 significant bits with a
 * sticky last bit (round to odd), which keeps the one rounding after it
 * exact. A float result is rounded from the double by scaling it to an
 * integer count of the result's last-place unit: the count's integer part
 * and fraction decide the mode's increment, and the count placed over the
 * biased exponent gives the encoding, a carry rippling into the exponent.
 * Nothing here depends on the host's rounding mode.
 */
#include "ref.h"

#include <math.h>

/* A float format: mantissa bits and exponent bias; width 16 or 32. */
typedef struct ref_fmt { int man, bias, bits; } ref_fmt;

static ref_fmt fmt_of(ref_dtype t)
{
    return t == REF_F16 ? (ref_fmt){10, 15, 16} : t == REF_BF16 ? (ref_fmt){7, 127, 16} : (ref_fmt){23, 127, 32};
}

static uint64_t inf_of(ref_fmt f) { return (((uint64_t)1 << (f.bits - 1 - f.man)) - 1) << f.man; }

/* The double's integral neighbour by mode (O: ties to odd), keeping the
 * sign as IEEE rounding does (-0.3 truncates to -0). */
static double integral_magnitude(double v, ref_round mode);
static double integral(double v, ref_round mode) { return copysign(integral_magnitude(v, mode), v); }

static double integral_magnitude(double v, ref_round mode)
{
    if (!isfinite(v))
        return v;
    double f = floor(v), frac = v - f;
    switch (mode) {
    case REF_ROUND_A: return frac > 0.5 || (frac == 0.5 && v > 0) ? f + 1 : f;
    case REF_ROUND_F: return f;
    case REF_ROUND_C: return frac > 0 ? f + 1 : f;
    case REF_ROUND_Z: return v < 0 && frac > 0 ? f + 1 : f;
    case REF_ROUND_O: return frac > 0.5 ? f + 1 : frac < 0.5 ? f : fmod(f, 2.0) != 0 ? f : f + 1;
    default: return frac > 0.5 ? f + 1 : frac < 0.5 ? f : fmod(f, 2.0) != 0 ? f + 1 : f;
    }
}

/* |x| (finite, not 0) rounded into f by mode, the sign given apart; the
 * encoding, maybe at or past infinity's. */
static uint64_t round_magnitude(double x, bool neg, ref_fmt f, ref_round mode)
{
    int e;
    (void)frexp(x, &e);                               /* x = m * 2^e, m in [0.5, 1) */
    int emin = 1 - f.bias;
    int q = (e - 1 > emin ? e - 1 : emin) - f.man;    /* the last place's exponent */
    double scaled = ldexp(x, -q), i = floor(scaled), frac = scaled - i;
    bool up = false;
    switch (mode) {
    case REF_ROUND_A: up = frac >= 0.5; break;
    case REF_ROUND_F: up = neg && frac > 0; break;
    case REF_ROUND_C: up = !neg && frac > 0; break;
    case REF_ROUND_Z: break;
    case REF_ROUND_O: if (frac > 0) i = fmod(i, 2.0) != 0 ? i : i + 1; break;
    default: up = frac > 0.5 || (frac == 0.5 && fmod(i, 2.0) != 0); break;
    }
    uint64_t n = (uint64_t)i + up;
    return ((uint64_t)(q + f.man + f.bias) << f.man) + n - ((uint64_t)1 << f.man);
}

/* The double x (exact) in dst's float format. */
static uint64_t to_float(double x, ref_dtype t, ref_round mode, bool sat)
{
    ref_fmt f = fmt_of(t);
    uint64_t inf = inf_of(f), sign = (uint64_t)signbit(x) << (f.bits - 1);
    bool neg = signbit(x) != 0;
    if (isinf(x))
        return sign | (sat ? inf - 1 : inf);
    if (x == 0)
        return sign;
    uint64_t r = round_magnitude(fabs(x), neg, f, mode);
    if (r >= inf) {
        bool to_inf = !sat && (mode == REF_ROUND_R || mode == REF_ROUND_A || (mode == REF_ROUND_F && neg) ||
                               (mode == REF_ROUND_C && !neg));
        r = to_inf ? inf : inf - 1;
    }
    return sign | r;
}

/* A NaN of src's float format as a quiet NaN of dst's, its top payload kept. */
static uint64_t nan_to(uint64_t bits, ref_dtype s, ref_dtype d)
{
    ref_fmt fs = fmt_of(s), fd = fmt_of(d);
    uint64_t payload = bits & (((uint64_t)1 << fs.man) - 1);
    payload = fd.man >= fs.man ? payload << (fd.man - fs.man) : payload >> (fs.man - fd.man);
    uint64_t sign = (bits >> (fs.bits - 1)) & 1;
    return sign << (fd.bits - 1) | inf_of(fd) | (uint64_t)1 << (fd.man - 1) | payload;
}

static int64_t signed_of(uint64_t bits, uint32_t w)
{
    return w == 64 ? (int64_t)bits : (int64_t)(bits ^ (1ull << (w - 1))) - (int64_t)(1ull << (w - 1));
}

/* An integer as a double with the same rounding to any narrower format. */
static double int_value(uint64_t bits, ref_dtype t)
{
    uint32_t w = 8 * ref_dtype_size(t);
    bool neg = ref_dtype_is_signed(t) && signed_of(bits, w) < 0;
    uint64_t m = neg ? (uint64_t)0 - bits : bits;
    if (w < 64)
        m &= ((uint64_t)1 << w) - 1;
    int drop = 0;
    while ((m >> drop) >= ((uint64_t)1 << 53))
        drop++;
    uint64_t kept = (m >> drop) | ((m & (((uint64_t)1 << drop) - 1)) != 0);
    double d = ldexp((double)kept, drop);
    return neg ? -d : d;
}

/* An integral double saturated to w bits (signed or not); NaN gives 0. */
static uint64_t saturate(double v, uint32_t w, bool is_signed)
{
    if (isnan(v))
        return 0;
    double hi = is_signed ? ldexp(1, (int)w - 1) : ldexp(1, (int)w), lo = is_signed ? -ldexp(1, (int)w - 1) : 0;
    uint64_t mask = w == 64 ? ~0ull : ((uint64_t)1 << w) - 1;
    if (v >= hi)
        return (is_signed ? ((uint64_t)1 << (w - 1)) - 1 : ~0ull) & mask;
    if (v <= lo)
        return is_signed ? ((uint64_t)1 << (w - 1)) & mask : 0;
    return (v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v) & mask;
}

static uint64_t int_to_int(uint64_t bits, ref_dtype s, ref_dtype d, bool sat)
{
    uint32_t sw = 8 * ref_dtype_size(s), dw = 8 * ref_dtype_size(d);
    uint64_t dmask = dw == 64 ? ~0ull : ((uint64_t)1 << dw) - 1;
    bool ss = ref_dtype_is_signed(s), ds = ref_dtype_is_signed(d);
    uint64_t ext = ss ? (uint64_t)signed_of(bits, sw) : bits;
    if (!sat)
        return ext & dmask;
    uint64_t dmax = ds ? dmask >> 1 : dmask;
    if (ss && (int64_t)ext < 0) {
        if (!ds)
            return 0;
        int64_t dmin = -(int64_t)(dmax) - 1;
        return ((int64_t)ext < dmin ? (uint64_t)dmin : ext) & dmask;
    }
    return (ext > dmax ? dmax : ext) & dmask;
}

uint64_t ref_convert(uint64_t bits, ref_dtype s, ref_dtype d, ref_round mode, bool sat)
{
    bool sf = ref_dtype_is_float(s), df = ref_dtype_is_float(d);
    if (!sf && !df)
        return int_to_int(bits, s, d, sat);
    if (!sf)
        return to_float(int_value(bits, s), d, mode, sat);
    double v = (double)ref_float_of(s, bits);
    if (df) {
        if (isnan(v))
            return nan_to(bits, s, d);
        if (s == REF_F32 && d == REF_F32)
            return ref_float_bits((float)integral(v, mode));
        if (d == REF_F32)
            return ref_float_bits((float)v);
        return to_float(v, d, mode, sat);
    }
    uint32_t dw = 8 * ref_dtype_size(d);
    double i = integral(v, mode);
    if (sat)
        return saturate(i, dw, ref_dtype_is_signed(d));
    uint64_t low = saturate(i, dw > 32 ? 64 : 32, true);
    return dw == 64 ? low : low & (((uint64_t)1 << dw) - 1);
}

bool ref_tcvt_default_sat(ref_dtype s, ref_dtype d)
{
    bool narrowing = (s == REF_F16 && (d == REF_U8 || d == REF_I8 || d == REF_I16)) ||
                     (s == REF_F32 && d == REF_I16) || (s == REF_I64 && d == REF_I32) ||
                     (s == REF_I32 && d == REF_I16);
    return !narrowing;
}

void ref_tcvt(const ref_tile *dst, const ref_tile *src, ref_round mode, bool sat)
{
    for (int64_t r = 0; r < dst->vrows; r++)
        for (int64_t c = 0; c < dst->vcols; c++)
            ref_set(dst, r, c, ref_convert(ref_get(src, r, c), src->dtype, dst->dtype, mode, sat));
}
