/* ref.c: the plain C reference of the PTO tile ops (see ref.h).
 *
 * Every op is a scalar loop over the destination's valid region, element by
 * element, with no attempt at speed: the point is to be obviously right. The
 * f16/bf16 conversions are done in software (round to nearest even) so the
 * reference does not depend on the compiler's _Float16 support or on F16C.
 */
#include "ref.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- dtypes */

typedef struct dtype_info {
    const char *name;
    uint32_t size;
    bool is_float, is_signed;
} dtype_info;

static const dtype_info dtypes[REF_DTYPE_COUNT] = {
    [REF_I8] = {"i8", 1, false, true},     [REF_I16] = {"i16", 2, false, true},
    [REF_I32] = {"i32", 4, false, true},   [REF_I64] = {"i64", 8, false, true},
    [REF_U8] = {"ui8", 1, false, false},   [REF_U16] = {"ui16", 2, false, false},
    [REF_U32] = {"ui32", 4, false, false}, [REF_U64] = {"ui64", 8, false, false},
    [REF_F16] = {"f16", 2, true, false},   [REF_BF16] = {"bf16", 2, true, false},
    [REF_F32] = {"f32", 4, true, false},
};

uint32_t ref_dtype_size(ref_dtype t) { return dtypes[t].size; }
bool ref_dtype_is_float(ref_dtype t) { return dtypes[t].is_float; }
bool ref_dtype_is_signed(ref_dtype t) { return dtypes[t].is_signed; }
const char *ref_dtype_name(ref_dtype t) { return dtypes[t].name; }

static uint64_t width_mask(ref_dtype t)
{
    uint32_t bits = 8 * dtypes[t].size;
    return bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
}

/* The signed value of an integer bit pattern of dtype t (sign-extended). */
static int64_t as_signed(ref_dtype t, uint64_t bits)
{
    uint32_t w = 8 * dtypes[t].size;
    if (w == 64)
        return (int64_t)bits;
    uint64_t sign = (uint64_t)1 << (w - 1);
    return (int64_t)((bits ^ sign) - sign);  /* wraps in unsigned, then fits int64 */
}

uint32_t ref_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

float ref_bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Drops `shift` low bits of `m`, rounding to nearest, ties to even. */
static uint32_t round_shift(uint32_t m, uint32_t shift)
{
    uint32_t kept = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    return kept + (rem > half || (rem == half && (kept & 1)));
}

uint16_t ref_float_to_f16(float f)
{
    uint32_t x = ref_float_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t exp = (x >> 23) & 0xff, man = x & 0x7fffff;
    if (exp == 0xff)                                   /* inf; NaN keeps its top payload, quiet */
        return (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00);
    if (e <= 0) {                                      /* f16 subnormal or zero */
        if (e < -10)
            return sign;
        return (uint16_t)(sign | round_shift(man | 0x800000, (uint32_t)(14 - e)));
    }
    /* A carry out of the mantissa correctly bumps the exponent (up to inf). */
    return (uint16_t)(sign | round_shift(((uint32_t)e << 23) | man, 13));
}

float ref_f16_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f)
        return ref_bits_float(sign | 0x7f800000 | (man << 13) | (man ? 0x400000 : 0));
    if (exp == 0) {                                    /* subnormal: man * 2^-24, exact in float */
        float v = (float)man * 0x1p-24f;
        return sign ? -v : v;
    }
    return ref_bits_float(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t ref_float_to_bf16(float f)
{
    uint32_t x = ref_float_bits(f);
    if ((x & 0x7fffffff) > 0x7f800000)
        return (uint16_t)((x >> 16) | 0x40);
    return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

float ref_bf16_to_float(uint16_t h)
{
    uint32_t x = (uint32_t)h << 16;
    if ((x & 0x7fffffff) > 0x7f800000)
        x |= 0x400000;
    return ref_bits_float(x);
}

float ref_float_of(ref_dtype t, uint64_t bits)
{
    switch (t) {
    case REF_F16: return ref_f16_to_float((uint16_t)bits);
    case REF_BF16: return ref_bf16_to_float((uint16_t)bits);
    default: return ref_bits_float((uint32_t)bits);
    }
}

uint64_t ref_bits_of(ref_dtype t, float f)
{
    switch (t) {
    case REF_F16: return ref_float_to_f16(f);
    case REF_BF16: return ref_float_to_bf16(f);
    default: return ref_float_bits(f);
    }
}

void ref_format(char *buf, size_t n, ref_dtype t, uint64_t bits)
{
    if (dtypes[t].is_float)
        snprintf(buf, n, "%.9g (0x%0*llx)", (double)ref_float_of(t, bits), (int)(2 * dtypes[t].size),
                 (unsigned long long)bits);
    else if (dtypes[t].is_signed)
        snprintf(buf, n, "%lld", (long long)as_signed(t, bits));
    else
        snprintf(buf, n, "%llu", (unsigned long long)bits);
}

/* ---------------------------------------------------------------- elements */

/* Element index of (r, c) in a boxed tile: which box (in the outer order),
 * then the place inside the box (in the inner order). */
static int64_t boxed_index(const ref_tile *t, int64_t r, int64_t c)
{
    bool inner_row = t->box == REF_BOX_ROW_MAJOR;
    int64_t per_block = 32 / dtypes[t->dtype].size;
    int64_t box_rows = inner_row ? 16 : per_block, box_cols = inner_row ? per_block : 16;
    int64_t br = r / box_rows, ir = r % box_rows, bc = c / box_cols, ic = c % box_cols;
    int64_t box = t->layout == REF_ROW_MAJOR ? br * (t->cols / box_cols) + bc : bc * (t->rows / box_rows) + br;
    int64_t inner = inner_row ? ir * box_cols + ic : ic * box_rows + ir;
    return box * box_rows * box_cols + inner;
}

uint8_t *ref_elem_ptr(const ref_tile *t, int64_t r, int64_t c)
{
    int64_t idx = t->box != REF_NONE_BOX      ? boxed_index(t, r, c)
                  : t->layout == REF_ROW_MAJOR ? r * t->cols + c
                                               : c * t->rows + r;
    return t->data + idx * (int64_t)dtypes[t->dtype].size;
}

static uint64_t load_bits(const uint8_t *p, uint32_t size)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < size; i++)                /* little-endian, like the host */
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void store_bits(uint8_t *p, uint32_t size, uint64_t v)
{
    for (uint32_t i = 0; i < size; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint64_t ref_get(const ref_tile *t, int64_t r, int64_t c)
{
    return load_bits(ref_elem_ptr(t, r, c), dtypes[t->dtype].size);
}

void ref_set(const ref_tile *t, int64_t r, int64_t c, uint64_t bits)
{
    store_bits(ref_elem_ptr(t, r, c), dtypes[t->dtype].size, bits);
}

/* ---------------------------------------------------------------- scalar semantics */

static uint64_t apply_float(ref_binop op, ref_dtype t, uint64_t a_bits, uint64_t b_bits)
{
    float a = ref_float_of(t, a_bits), b = ref_float_of(t, b_bits), r = 0;
    switch (op) {
    case REF_ADD: r = a + b; break;
    case REF_SUB: r = a - b; break;
    case REF_MUL: r = a * b; break;
    case REF_DIV: r = a / b; break;
    case REF_MAX: r = a > b ? a : b; break;
    case REF_MIN: r = a < b ? a : b; break;
    /* f16: the difference is rounded to f16 first, as the hardware's vsub then vexp */
    case REF_EXPDIF: r = ref_exp_f32(t == REF_F16 ? ref_float_of(t, ref_bits_of(t, a - b)) : a - b); break;
    }
    return ref_bits_of(t, r);
}

/* Division as RISC-V defines it: x/0 = all ones, INT_MIN/-1 = INT_MIN. */
static uint64_t divide_int(ref_dtype t, uint64_t a, uint64_t b)
{
    uint64_t mask = width_mask(t);
    if (b == 0)
        return mask;
    if (!dtypes[t].is_signed)
        return a / b;
    int64_t sa = as_signed(t, a), sb = as_signed(t, b);
    int64_t min = dtypes[t].size == 8 ? INT64_MIN : -((int64_t)1 << (8 * dtypes[t].size - 1));
    if (sa == min && sb == -1)
        return a;
    return (uint64_t)(sa / sb) & mask;
}

static bool less_int(ref_dtype t, uint64_t a, uint64_t b)
{
    return dtypes[t].is_signed ? as_signed(t, a) < as_signed(t, b) : a < b;
}

static uint64_t apply_int(ref_binop op, ref_dtype t, uint64_t a, uint64_t b)
{
    uint64_t mask = width_mask(t);
    switch (op) {
    case REF_ADD: return (a + b) & mask;
    case REF_SUB: return (a - b) & mask;
    case REF_MUL: return (a * b) & mask;
    case REF_DIV: return divide_int(t, a, b);
    case REF_MAX: return less_int(t, b, a) ? a : b;     /* a > b ? a : b */
    case REF_MIN: return less_int(t, a, b) ? a : b;
    case REF_EXPDIF: break;
    }
    return 0;
}

uint64_t ref_apply(ref_binop op, ref_dtype t, uint64_t a, uint64_t b)
{
    return dtypes[t].is_float ? apply_float(op, t, a, b) : apply_int(op, t, a, b);
}

bool ref_compare(ref_cmp mode, ref_dtype t, uint64_t a_bits, uint64_t b_bits)
{
    if (dtypes[t].is_float) {
        float a = ref_float_of(t, a_bits), b = ref_float_of(t, b_bits);
        switch (mode) {
        case REF_EQ: return a == b;
        case REF_NE: return !(a == b);                  /* unordered: NaN != anything */
        case REF_LT: return a < b;
        case REF_LE: return a <= b;
        case REF_GT: return a > b;
        case REF_GE: return a >= b;
        }
        return false;
    }
    switch (mode) {
    case REF_EQ: return a_bits == b_bits;
    case REF_NE: return a_bits != b_bits;
    case REF_LT: return less_int(t, a_bits, b_bits);
    case REF_LE: return !less_int(t, b_bits, a_bits);
    case REF_GT: return less_int(t, b_bits, a_bits);
    case REF_GE: return !less_int(t, a_bits, b_bits);
    }
    return false;
}

/* ---------------------------------------------------------------- data movement */

/* The tile shape a view gives under its layout. */
static void view_tile_shape(const ref_view *v, int64_t *rows, int64_t *cols)
{
    const int64_t *s = v->shape;
    switch (v->layout) {
    case REF_GM_DN:
        *rows = s[3];
        *cols = s[0] * s[1] * s[2] * s[4];
        return;
    case REF_GM_NZ:
        *rows = s[2] * s[3];
        *cols = s[0] * s[1] * s[4];
        return;
    case REF_GM_ND:
        break;
    }
    *rows = s[0] * s[1] * s[2] * s[3];
    *cols = s[4];
}

/* Tile element (r, c) in the view: the five indices of the layout's mapping
 * (ND: i4 = c and r = ((i0*s1 + i1)*s2 + i2)*s3 + i3; DN: i3 = r and
 * c = ((i0*s1 + i1)*s2 + i2)*s4 + i4; NZ: r = i2*s3 + i3 and
 * c = (i0*s1 + i1)*s4 + i4), then sum(i_k * stride_k). */
static uint8_t *view_elem(const ref_view *v, uint32_t esize, int64_t r, int64_t c)
{
    const int64_t *s = v->shape;
    int64_t i[5];
    switch (v->layout) {
    case REF_GM_DN:
        i[3] = r;
        i[4] = c % s[4];
        i[2] = c / s[4] % s[2];
        i[1] = c / (s[4] * s[2]) % s[1];
        i[0] = c / (s[4] * s[2] * s[1]);
        break;
    case REF_GM_NZ:
        i[2] = r / s[3];
        i[3] = r % s[3];
        i[4] = c % s[4];
        i[1] = c / s[4] % s[1];
        i[0] = c / s[4] / s[1];
        break;
    case REF_GM_ND:
    default:
        i[4] = c;
        i[3] = r % s[3];
        i[2] = r / s[3] % s[2];
        i[1] = r / (s[3] * s[2]) % s[1];
        i[0] = r / (s[3] * s[2] * s[1]);
        break;
    }
    int64_t off = 0;
    for (int k = 0; k < 5; k++)
        off += i[k] * v->stride[k];
    return v->base + off * (int64_t)esize;
}

/* Hardware pads only up to the next 32-byte boundary of each valid row (of
 * each valid column from a DN view); the NZ load does not pad. */
static void pad_tail(const ref_tile *dst, const ref_view *src, int64_t rows, int64_t cols, uint64_t pad_bits)
{
    bool down = src->layout == REF_GM_DN;
    int64_t per_block = 32 / dtypes[dst->dtype].size, n = down ? rows : cols, extent = down ? dst->rows : dst->cols;
    int64_t end = (n + per_block - 1) / per_block * per_block;
    if (end > extent)
        end = extent;
    if (src->layout == REF_GM_NZ)
        return;
    for (int64_t line = 0; line < (down ? cols : rows); line++)
        for (int64_t k = n; k < end; k++)
            ref_set(dst, down ? k : line, down ? line : k, pad_bits);
}

void ref_tload(const ref_tile *dst, const ref_view *src, bool pad, uint64_t pad_bits)
{
    uint32_t es = dtypes[dst->dtype].size;
    int64_t rows, cols;
    view_tile_shape(src, &rows, &cols);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            ref_set(dst, r, c, load_bits(view_elem(src, es, r, c), es));
    if (pad)
        pad_tail(dst, src, rows, cols, pad_bits);
}

void ref_tstore(const ref_view *dst, const ref_tile *src)
{
    uint32_t es = dtypes[src->dtype].size;
    int64_t rows, cols;
    view_tile_shape(dst, &rows, &cols);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            store_bits(view_elem(dst, es, r, c), es, ref_get(src, r, c));
}

uint64_t ref_pad_bits(ref_dtype t, int kind)
{
    bool max = kind == 2;
    if (kind != 2 && kind != 3)
        return 0;
    switch (t) {
    case REF_F32: return max ? 0x7f800000u : 0xff800000u;
    case REF_F16: return max ? 0x7c00u : 0xfc00u;
    case REF_BF16: return max ? 0x7f80u : 0xff80u;
    default: break;
    }
    uint64_t mask = width_mask(t);
    if (!dtypes[t].is_signed)
        return max ? mask : 0;
    return max ? mask >> 1 : (mask >> 1) + 1;          /* INT_MAX, INT_MIN */
}

/* ---------------------------------------------------------------- compute ops */

void ref_binary(ref_binop op, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++)
            ref_set(dst, i, j, ref_apply(op, dst->dtype, ref_get(src0, i, j), ref_get(src1, i, j)));
}

void ref_binary_scalar(ref_binop op, const ref_tile *dst, const ref_tile *src, uint64_t scalar)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++)
            ref_set(dst, i, j, ref_apply(op, dst->dtype, ref_get(src, i, j), scalar));
}

void ref_scalar_binary(ref_binop op, const ref_tile *dst, uint64_t scalar, const ref_tile *src)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++)
            ref_set(dst, i, j, ref_apply(op, dst->dtype, scalar, ref_get(src, i, j)));
}

void ref_tcolexpand(const ref_tile *dst, const ref_tile *src)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++)
            ref_set(dst, i, j, ref_get(src, 0, j));
}

void ref_tcolexpand_binary(ref_binop op, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1)
{
    bool src0_full = src0->rows == dst->rows && src0->cols == dst->cols;
    bool src1_full = src1->rows == dst->rows && src1->cols == dst->cols;
    bool swapped = !src0_full && src1_full;
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++) {
            uint64_t a = ref_get(src0, swapped ? 0 : i, j), b = ref_get(src1, swapped ? i : 0, j);
            ref_set(dst, i, j, ref_apply(op, dst->dtype, a, b));
        }
}

static uint8_t *mask_row(const ref_tile *mask, int64_t i)
{
    return mask->data + i * mask->cols * (int64_t)dtypes[mask->dtype].size;
}

/* Packs the predicates of row i into bytes 0..ceil(vcols/8)-1 of mask row i. */
typedef bool (*row_pred)(const void *user, int64_t i, int64_t j);

static void pack_rows(const ref_tile *mask, int64_t vrows, int64_t vcols, row_pred pred, const void *user)
{
    for (int64_t i = 0; i < vrows; i++) {
        uint8_t *row = mask_row(mask, i);
        for (int64_t byte = 0; byte * 8 < vcols; byte++) {
            uint8_t v = 0;
            for (int64_t bit = 0; bit < 8 && byte * 8 + bit < vcols; bit++)
                v |= (uint8_t)(pred(user, i, byte * 8 + bit) << bit);
            row[byte] = v;
        }
    }
}

typedef struct cmp_args {
    ref_cmp mode;
    ref_dtype as;                  /* the dtype the bits compare as */
    const ref_tile *src0, *src1;   /* src1 NULL: compare with scalar */
    uint64_t scalar;
} cmp_args;

static bool cmp_pred(const void *user, int64_t i, int64_t j)
{
    const cmp_args *a = user;
    uint64_t rhs = a->src1 ? ref_get(a->src1, i, j) : a->scalar;
    return ref_compare(a->mode, a->as, ref_get(a->src0, i, j), rhs);
}

void ref_tcmp(ref_cmp mode, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1)
{
    cmp_args a = {mode, src0->dtype, src0, src1, 0};
    pack_rows(dst, src0->vrows, src0->vcols, cmp_pred, &a);
}

void ref_tcmps(ref_cmp mode, const ref_tile *dst, const ref_tile *src, uint64_t scalar)
{
    cmp_args a = {mode, src->dtype, src, NULL, scalar};
    pack_rows(dst, src->vrows, src->vcols, cmp_pred, &a);
}

void ref_tcmps_tile(ref_cmp mode, const ref_tile *dst, const ref_tile *src, const ref_tile *src1)
{
    ref_tcmps(mode, dst, src, ref_get(src1, 0, 0));
}

static bool int_of_bits(ref_dtype t, uint32_t bits) { return !dtypes[t].is_float && dtypes[t].size * 8 == bits; }

/* The A2/A3 library's mode and the dtype its compare reads the bits as. */
static cmp_args a2a3_args(ref_cmp mode, const ref_tile *src0, bool tcmps)
{
    ref_dtype t = src0->dtype;
    cmp_args a = {mode, t, src0, NULL, 0};
    if (int_of_bits(t, 32) && mode != REF_NE)
        a.mode = REF_EQ;                        /* vcmpv(s)_eq; NE is eq, then vnot */
    if (tcmps && int_of_bits(t, 16))
        a.as = REF_F16;                         /* reinterpret_cast<__ubuf__ half *> */
    return a;
}

bool ref_a2a3_cmp_quirk(ref_cmp mode, ref_dtype t, bool tcmps)
{
    return (int_of_bits(t, 32) && mode != REF_EQ && mode != REF_NE) || (tcmps && int_of_bits(t, 16));
}

void ref_tcmp_a2a3(ref_cmp mode, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1)
{
    cmp_args a = a2a3_args(mode, src0, false);
    a.src1 = src1;
    pack_rows(dst, src0->vrows, src0->vcols, cmp_pred, &a);
}

void ref_tcmps_a2a3(ref_cmp mode, const ref_tile *dst, const ref_tile *src, uint64_t scalar)
{
    cmp_args a = a2a3_args(mode, src, true);
    a.scalar = scalar;
    pack_rows(dst, src->vrows, src->vcols, cmp_pred, &a);
}

void ref_tcmps_tile_a2a3(ref_cmp mode, const ref_tile *dst, const ref_tile *src, const ref_tile *src1)
{
    ref_tcmps_a2a3(mode, dst, src, ref_get(src1, 0, 0));
}

bool ref_mask_bit(const ref_tile *mask, int64_t i, int64_t j)
{
    return (mask_row(mask, i)[j / 8] >> (j % 8)) & 1;
}

void ref_tsel(const ref_tile *dst, const ref_tile *mask, const ref_tile *src0, const ref_tile *src1)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++)
            ref_set(dst, i, j, ref_mask_bit(mask, i, j) ? ref_get(src0, i, j) : ref_get(src1, i, j));
}

void ref_tsels(const ref_tile *dst, const ref_tile *mask, const ref_tile *src, uint64_t scalar)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++)
            ref_set(dst, i, j, ref_mask_bit(mask, i, j) ? ref_get(src, i, j) : scalar);
}

/* ---------------------------------------------------------------- thistogram */

/* Does element v of a row pass the filter of pass `byte`, and into which bin? */
static bool histogram_bin(const ref_tile *src, const ref_tile *idx, int64_t r, int byte, uint64_t v,
                          unsigned *bin)
{
    if (dtypes[src->dtype].size == 2) {
        if (byte == 0 && (v >> 8) != (ref_get(idx, r, 0) & 0xff))
            return false;
    } else {
        for (int k = 3; k > byte; k--)                 /* MSB first: idx row 3-k holds byte k */
            if (((v >> (8 * k)) & 0xff) != (ref_get(idx, 3 - k, 0) & 0xff))
                return false;
    }
    *bin = (unsigned)((v >> (8 * byte)) & 0xff);
    return true;
}

void ref_thistogram(const ref_tile *dst, const ref_tile *src, const ref_tile *idx, int byte)
{
    uint64_t mask = width_mask(dst->dtype);
    for (int64_t r = 0; r < src->vrows; r++) {
        uint64_t count[256] = {0};
        unsigned bin;
        for (int64_t c = 0; c < src->vcols; c++)
            if (histogram_bin(src, idx, r, byte, ref_get(src, r, c), &bin))
                count[bin]++;
        uint64_t sum = 0;
        for (int b = 0; b < 256; b++) {
            sum += count[b];
            ref_set(dst, r, b, sum & mask);
        }
    }
}

uint64_t ref_mask_of(ref_dtype t)
{
    uint32_t bits = 8 * ref_dtype_size(t);
    return bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

int64_t ref_signed_of(ref_dtype t, uint64_t v)
{
    uint32_t bits = 8 * ref_dtype_size(t);
    if (bits < 64 && (v >> (bits - 1)) & 1)
        v |= ~ref_mask_of(t);
    return (int64_t)v;
}
