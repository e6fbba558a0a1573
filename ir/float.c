/* float.c: the float formats of MLIR 19 as a table, and conversion between
 * doubles and their bit patterns with round-to-nearest-even.
 *
 * Each narrow format is (exponent bits, mantissa bits, bias, flavour):
 *   IEEE  - all-ones exponent holds inf (mantissa 0) and NaNs;
 *   FN    - no inf; only all-ones exponent and mantissa is NaN (f8E4M3FN);
 *   FNUZ  - no inf, no negative zero; the lone NaN is the negative-zero pattern.
 * Formats without inf turn overflow (and inf) into NaN, as APFloat does. f64 is
 * the host double; f80 and f128 are carried as doubles (header contract).
 */
#include "ir/core_internal.h"

#include <math.h>
#include <string.h>

typedef enum flavour { IEEE, FN, FNUZ, HOST } flavour;

typedef struct float_format {
    const char *name;
    uint32_t width;       /* storage bits */
    int ebits, mbits, bias;
    flavour flavour;
} float_format;

static const float_format formats[PTOC_FLOAT_KIND_COUNT] = {
    [PTOC_F16] = {"f16", 16, 5, 10, 15, IEEE},
    [PTOC_BF16] = {"bf16", 16, 8, 7, 127, IEEE},
    [PTOC_F32] = {"f32", 32, 8, 23, 127, IEEE},
    [PTOC_F64] = {"f64", 64, 11, 52, 1023, HOST},
    [PTOC_F80] = {"f80", 80, 15, 64, 16383, HOST},
    [PTOC_F128] = {"f128", 128, 15, 112, 16383, HOST},
    [PTOC_TF32] = {"tf32", 19, 8, 10, 127, IEEE},
    [PTOC_F8E4M3] = {"f8E4M3", 8, 4, 3, 7, IEEE},
    [PTOC_F8E4M3FN] = {"f8E4M3FN", 8, 4, 3, 7, FN},
    [PTOC_F8E5M2] = {"f8E5M2", 8, 5, 2, 15, IEEE},
    [PTOC_F8E4M3FNUZ] = {"f8E4M3FNUZ", 8, 4, 3, 8, FNUZ},
    [PTOC_F8E5M2FNUZ] = {"f8E5M2FNUZ", 8, 5, 2, 16, FNUZ},
    [PTOC_F8E4M3B11FNUZ] = {"f8E4M3B11FNUZ", 8, 4, 3, 11, FNUZ},
};

const char *ptoc_float_kind_name(ptoc_float_kind k) { return formats[k].name; }

uint32_t ptoc_float_kind_width(ptoc_float_kind k) { return formats[k].width; }

static uint64_t host_bits(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

static double host_value(uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static uint64_t sign_bit(const float_format *f) { return UINT64_C(1) << (f->ebits + f->mbits); }
static uint64_t max_exp_field(const float_format *f) { return (UINT64_C(1) << f->ebits) - 1; }
static uint64_t mant_mask(const float_format *f) { return (UINT64_C(1) << f->mbits) - 1; }

static uint64_t nan_bits(const float_format *f)
{
    if (f->flavour == FNUZ)
        return sign_bit(f);
    if (f->flavour == FN)
        return (max_exp_field(f) << f->mbits) | mant_mask(f);
    return (max_exp_field(f) << f->mbits) | (UINT64_C(1) << (f->mbits - 1)); /* quiet NaN */
}

/* The largest finite encoding's (exponent field, mantissa field). */
static void max_finite(const float_format *f, uint64_t *exp, uint64_t *mant)
{
    *exp = f->flavour == IEEE ? max_exp_field(f) - 1 : max_exp_field(f);
    *mant = f->flavour == FN ? mant_mask(f) - 1 : mant_mask(f);
}

/* Rounds a non-negative integer-valued scaling `q` to the nearest integer, ties to even. */
static uint64_t round_half_even(double q)
{
    double fl = floor(q), diff = q - fl;
    uint64_t n = (uint64_t)fl;
    if (diff > 0.5 || (diff == 0.5 && (n & 1)))
        n++;
    return n;
}

static uint64_t encode(const float_format *f, double v)
{
    uint64_t sign = signbit(v) ? sign_bit(f) : 0, n, exp, mant, max_e, max_m;
    int e, x, emin = 1 - f->bias;
    double a = fabs(v);
    if (isnan(v))
        return nan_bits(f);
    if (isinf(v))
        return f->flavour == IEEE ? sign | (max_exp_field(f) << f->mbits) : nan_bits(f);
    if (a == 0)
        return f->flavour == FNUZ ? 0 : sign;
    frexp(a, &x);                        /* a = m * 2^x with m in [0.5, 1) */
    e = x - 1 < emin ? emin : x - 1;     /* below emin the value is subnormal */
    n = round_half_even(ldexp(a, f->mbits - e));
    if (n >> (f->mbits + 1)) {           /* rounding carried into the next binade */
        n >>= 1;
        e++;
    }
    if (n >> f->mbits) {
        exp = (uint64_t)(e + f->bias);
        mant = n & mant_mask(f);
    } else {
        exp = 0;
        mant = n;
    }
    max_finite(f, &max_e, &max_m);
    if (e + f->bias > (int)max_e || (exp == max_e && mant > max_m))
        return f->flavour == IEEE ? sign | (max_exp_field(f) << f->mbits) : nan_bits(f);
    if (exp == 0 && mant == 0 && f->flavour == FNUZ)
        return 0;                         /* no negative zero */
    return sign | (exp << f->mbits) | mant;
}

static double decode(const float_format *f, uint64_t bits)
{
    uint64_t exp = (bits >> f->mbits) & max_exp_field(f), mant = bits & mant_mask(f);
    double sign = (bits & sign_bit(f)) ? -1.0 : 1.0;
    if (f->flavour == FNUZ && (bits & (sign_bit(f) * 2 - 1)) == sign_bit(f))
        return NAN;
    if (f->flavour == IEEE && exp == max_exp_field(f))
        return mant ? NAN : sign * INFINITY;
    if (f->flavour == FN && exp == max_exp_field(f) && mant == mant_mask(f))
        return NAN;
    if (exp == 0)
        return sign * ldexp((double)mant, 1 - f->bias - f->mbits);
    return sign * ldexp((double)(mant | (UINT64_C(1) << f->mbits)), (int)exp - f->bias - f->mbits);
}

double ptoc_float_round(ptoc_float_kind k, double v)
{
    const float_format *f = &formats[k];
    return f->flavour == HOST ? v : decode(f, encode(f, v));
}

uint64_t ptoc_float_to_bits(ptoc_float_kind k, double v)
{
    const float_format *f = &formats[k];
    return f->flavour == HOST ? host_bits(v) : encode(f, v);
}

double ptoc_float_from_bits(ptoc_float_kind k, uint64_t bits)
{
    const float_format *f = &formats[k];
    return f->flavour == HOST ? host_value(bits) : decode(f, bits);
}
