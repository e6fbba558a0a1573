/* test_vops_exec.c: the vector micro-ops' semantics (codegen/lower_pto_vops.c)
 * against plain C references, on random registers.
 *
 * Each kernel loads two registers from host buffers (standing for UB), makes
 * a tail predicate with plt (n lanes), applies one micro-op under it and
 * stores every lane of the result; the reference computes the same lane by
 * lane. Every case runs with n = 0, 1, a part of the lanes, all of them and
 * more, in ZEROING and MERGING mode where the op has one. Covered: the
 * arithmetic, the scalar forms, the unary ops (vexp, texp's fixed sequence as the
 * C reference's ref_exp_f32, and vsqrt on f32), vintlv
 * and vdintlv, vsel under every compare mode of vcmp, the carries (vaddc,
 * vsubc, vaddcs, vsubcs) and vmull, the pair load and store (vldsx2 DINTLV,
 * vstsx2 INTLV), vlds's distributions (BRC, US, DS, SPLT2CHN, DINTLV_B32,
 * UNPK into lanes of either width, at an offset), the predicate ops (pset
 * patterns, pand, por, pxor, pnot, psel, punpack, pdintlv_b8, pintlv_b16,
 * plds NORM/US, psts PK) seen through masked stores, on lanes of f32, f16,
 * i32, ui32, i16 and i8; and vcvt between floats, floats and integers and
 * integers of those and bf16, ui16, ui8, narrowing (into either part),
 * widening (from either part) and keeping the width, by every rnd, with and
 * without sat, on ties, NaNs, infinities, subnormals and values past the
 * result's range, against references that find the two neighbours of the
 * exact value in double arithmetic.
 */
#include "check.h"
#include "jit_kernel.h"

#include "ptoc/codegen.h"
#include "ptoc/ptoc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The one exp of every target, as the C reference computes it (ref_reduce.c). */
float ref_exp_f32(float x);

#define BYTES 256

/* ---------------------------------------------------------------- compiling */

typedef void (*kernel2)(void *, void *, void *, int32_t);

/* ---------------------------------------------------------------- element types */

typedef enum elem { E_F32, E_F16, E_I32, E_U32, E_I16, E_I8 } elem;
static const char *const elem_name[] = {"f32", "f16", "i32", "ui32", "i16", "i8"};
static const unsigned elem_bytes[] = {4, 2, 4, 4, 2, 1};

static unsigned lanes_of(elem e) { return BYTES / elem_bytes[e]; }
static bool is_float(elem e) { return e == E_F32 || e == E_F16; }

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A lane's value as a double (floats) or an int64 (integers, sign- or zero-extended). */
static double get_f(elem e, const void *buf, unsigned i)
{
    if (e == E_F32)
        return ((const float *)buf)[i];
    return ptoc_float_from_bits(PTOC_F16, ((const uint16_t *)buf)[i]);
}

static int64_t get_i(elem e, const void *buf, unsigned i)
{
    switch (e) {
    case E_I32: return ((const int32_t *)buf)[i];
    case E_U32: return ((const uint32_t *)buf)[i];
    case E_I16: return ((const int16_t *)buf)[i];
    default: return ((const int8_t *)buf)[i];
    }
}

static void put_f(elem e, void *buf, unsigned i, double v)
{
    if (e == E_F32)
        ((float *)buf)[i] = (float)v;
    else if (isnan(v))          /* the default NaN, its sign kept (as a conversion keeps it) */
        ((uint16_t *)buf)[i] = signbit(v) ? 0xfe00 : 0x7e00;
    else
        ((uint16_t *)buf)[i] = (uint16_t)ptoc_float_to_bits(PTOC_F16, ptoc_float_round(PTOC_F16, (float)v));
}

static void put_i(elem e, void *buf, unsigned i, int64_t v)
{
    switch (e) {
    case E_I32: ((int32_t *)buf)[i] = (int32_t)v; break;
    case E_U32: ((uint32_t *)buf)[i] = (uint32_t)v; break;
    case E_I16: ((int16_t *)buf)[i] = (int16_t)v; break;
    default: ((int8_t *)buf)[i] = (int8_t)v; break;
    }
}

/* Random lanes: floats in [-8, 8) with some exact zeros and NaNs, integers
 * over their range. */
static void fill(elem e, void *buf)
{
    for (unsigned i = 0; i < lanes_of(e); i++) {
        uint64_t r = next_random();
        if (is_float(e))
            put_f(e, buf, i, r % 11 == 0 ? 0.0 : r % 13 == 0 ? NAN : (double)(int64_t)(r % 4096) / 256.0 - 8.0);
        else
            put_i(e, buf, i, (int64_t)r);
    }
}

/* ---------------------------------------------------------------- binary ops */

typedef enum bop { B_ADD, B_SUB, B_MUL, B_DIV, B_MAX, B_MIN, B_AND, B_OR, B_XOR, B_SHL, B_SHR } bop;
static const char *const bop_name[] = {"vadd", "vsub", "vmul", "vdiv", "vmax", "vmin",
                                       "vand", "vor", "vxor", "vshl", "vshr"};

static int64_t wrap(elem e, int64_t v)
{
    unsigned bits = elem_bytes[e] * 8;
    uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1, u = (uint64_t)v & m;
    if (e == E_U32)
        return (int64_t)u;
    return bits < 64 && (u >> (bits - 1)) ? (int64_t)(u | ~m) : (int64_t)u;
}

static int64_t int_ref(elem e, bop op, int64_t a, int64_t b)
{
    unsigned bits = elem_bytes[e] * 8;
    uint64_t mask = (1ull << bits) - 1, ua = (uint64_t)a & mask, ub = (uint64_t)b & mask;
    switch (op) {
    case B_ADD: return wrap(e, a + b);
    case B_SUB: return wrap(e, a - b);
    case B_MUL: return wrap(e, (int64_t)((uint64_t)a * (uint64_t)b));
    case B_DIV:                 /* x / 0 = all ones, INT_MIN / -1 = INT_MIN (docs/targets.md) */
        if (b == 0)
            return wrap(e, -1);
        return e != E_U32 && b == -1 ? wrap(e, -a) : a / b;
    case B_MAX: return a > b ? a : b;
    case B_MIN: return a < b ? a : b;
    case B_AND: return wrap(e, a & b);
    case B_OR: return wrap(e, a | b);
    case B_XOR: return wrap(e, a ^ b);
    case B_SHL: return ub >= bits ? 0 : wrap(e, (int64_t)(ua << ub));
    case B_SHR:
        if (e == E_U32)
            return ub >= bits ? 0 : (int64_t)(ua >> ub);
        return a >> (ub >= bits ? bits - 1 : ub);
    default: return 0;
    }
}

static double float_ref(bop op, double a, double b)
{
    switch (op) {
    case B_ADD: return a + b;
    case B_SUB: return a - b;
    case B_MUL: return a * b;
    case B_DIV: return a / b;
    /* the page's formulas: a NaN in b is kept, a NaN in a is not */
    case B_MAX: return a > b ? a : b;
    case B_MIN: return a < b ? a : b;
    default: return 0;
    }
}

/* The reference of a float op in the lane's format: f32 computes in float,
 * f16 in float rounded to f16 (as the hardware and LLVM do). */
static double rounded(elem e, double v)
{
    if (isnan(v))
        return v;
    return e == E_F32 ? (double)(float)v : ptoc_float_round(PTOC_F16, (float)v);
}

static bool same_lane(elem e, const void *x, const void *y, unsigned i)
{
    return !memcmp((const char *)x + i * elem_bytes[e], (const char *)y + i * elem_bytes[e], elem_bytes[e]);
}

static const char *granule(elem e) { return elem_bytes[e] == 1 ? "b8" : elem_bytes[e] == 2 ? "b16" : "b32"; }

/* The kernel around `body`: a, b and c are UB pointers of e's lanes, n the
 * tail count (and `extra` more parameters); %m is plt(n), %x a's register,
 * and c gets every lane of the body's %z. */
static void kernel_text(char *text, size_t size, elem e, const char *extra, const char *body)
{
    char vt[32], pt[40];
    snprintf(vt, sizeof vt, "!pto.vreg<%ux%s>", lanes_of(e), elem_name[e]);
    snprintf(pt, sizeof pt, "!pto.ptr<%s, ub>", elem_name[e]);
    const char *g = granule(e);
    snprintf(text, size,
             "func.func @k(%%a: %s, %%b: %s, %%c: %s, %%n: i32%s) {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  %%m, %%r = pto.plt_%s %%n : i32 -> !pto.mask<%s>, i32\n"
             "  %%x = pto.vlds %%a[%%c0] : %s -> %s\n"
             "%s"
             "  %%all = pto.pset_%s \"PAT_ALL\" : !pto.mask<%s>\n"
             "  pto.vsts %%z, %%c[%%c0], %%all : %s, %s, !pto.mask<%s>\n"
             "  return\n}\n",
             pt, pt, pt, extra, g, g, pt, vt, body, g, g, vt, pt, g);
}

/* Calls a scalar form's kernel with lane 0 of b as its scalar, in the ABI's
 * type (an f16 travels as its bits). */
static void call_scalar(const compiled *c, elem e, void *a, void *b, void *out, int32_t n)
{
    int64_t s = e == E_F16 ? (int64_t)((uint16_t *)b)[0] : e == E_F32 ? 0 : get_i(e, b, 0);
    switch (e) {
    case E_F32: {
        void (*k)(void *, void *, void *, int32_t, float);
        memcpy(&k, &c->fn, sizeof k);
        k(a, b, out, n, ((float *)b)[0]);
        break;
    }
    case E_F16: case E_I16: {
        void (*k)(void *, void *, void *, int32_t, int16_t);
        memcpy(&k, &c->fn, sizeof k);
        k(a, b, out, n, (int16_t)s);
        break;
    }
    case E_I8: {
        void (*k)(void *, void *, void *, int32_t, int8_t);
        memcpy(&k, &c->fn, sizeof k);
        k(a, b, out, n, (int8_t)s);
        break;
    }
    default: {
        void (*k)(void *, void *, void *, int32_t, int32_t);
        memcpy(&k, &c->fn, sizeof k);
        k(a, b, out, n, (int32_t)s);
        break;
    }
    }
}


static void check_binary(elem e, bop op, bool merging, bool scalar)
{
    char text[4096], body[512], vt[32], pt[40], extra[32] = "";
    snprintf(vt, sizeof vt, "!pto.vreg<%ux%s>", lanes_of(e), elem_name[e]);
    snprintf(pt, sizeof pt, "!pto.ptr<%s, ub>", elem_name[e]);
    const char *g = granule(e), *mode = merging ? "MERGING" : "ZEROING";
    if (scalar) {
        snprintf(extra, sizeof extra, ", %%s1: %s", elem_name[e]);
        snprintf(body, sizeof body, "  %%z = pto.%ss %%x, %%s1, %%m {mode = \"%s\"} : %s, %s, !pto.mask<%s> -> %s\n",
                 bop_name[op], mode, vt, elem_name[e], g, vt);
    } else
        snprintf(body, sizeof body,
                 "  %%y = pto.vlds %%b[%%c0] : %s -> %s\n"
                 "  %%z = pto.%s %%x, %%y, %%m {mode = \"%s\"} : %s, %s, !pto.mask<%s> -> %s\n",
                 pt, vt, bop_name[op], mode, vt, vt, g, vt);
    kernel_text(text, sizeof text, e, extra, body);
    compiled c = compile(text);
    CHECK(c.fn != NULL);
    if (!c.fn) {
        release(&c);
        return;
    }
    unsigned lanes = lanes_of(e);
    int32_t ns[] = {0, 1, (int32_t)lanes / 2 + 3, (int32_t)lanes, (int32_t)lanes + 5};
    for (unsigned t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        _Alignas(64) unsigned char a[BYTES], b[BYTES], out[BYTES], want[BYTES];
        fill(e, a);
        fill(e, b);
        if (op == B_SHL || op == B_SHR)
            for (unsigned i = 0; i < lanes; i++)
                put_i(e, b, i, (int64_t)(next_random() % (elem_bytes[e] * 8 + 4)));
        if (op == B_DIV && is_float(e))
            for (unsigned i = 0; i < lanes; i++)
                if (get_f(e, b, i) == 0)
                    put_f(e, b, i, 0.5);
        if (op == B_DIV && !is_float(e))
            for (unsigned i = 0; i < lanes; i += 7)   /* the edges: x / 0, INT_MIN / -1 */
                put_i(e, b, i, i % 2 ? 0 : -1), put_i(e, a, i, i % 3 ? get_i(e, a, i) : INT64_MIN);
        union { float f; unsigned char bytes[4]; } s;
        memcpy(s.bytes, b, 4);
        if (scalar)
            call_scalar(&c, e, a, b, out, ns[t]);
        else {
            kernel2 k;
            memcpy(&k, &c.fn, sizeof k);
            k(a, b, out, ns[t]);
        }
        for (unsigned i = 0; i < lanes; i++) {
            unsigned j = scalar ? 0 : i;
            bool active = i < (unsigned)ns[t];
            if (!active) {
                if (merging)
                    memcpy(want + i * elem_bytes[e], a + i * elem_bytes[e], elem_bytes[e]);
                else
                    memset(want + i * elem_bytes[e], 0, elem_bytes[e]);
            } else if (is_float(e))
                put_f(e, want, i, rounded(e, float_ref(op, get_f(e, a, i), get_f(e, b, j))));
            else
                put_i(e, want, i, int_ref(e, op, get_i(e, a, i), get_i(e, b, j)));
        }
        bool ok = true;
        for (unsigned i = 0; i < lanes && ok; i++)
            if (!same_lane(e, out, want, i)) {
                ok = false;
                fprintf(stderr, "%s%s %s %s n=%d: lane %u differs\n", bop_name[op], scalar ? "s" : "", elem_name[e],
                        merging ? "MERGING" : "ZEROING", ns[t], i);
            }
        CHECK(ok);
    }
    release(&c);
}

/* ---------------------------------------------------------------- unary ops and rearrangements */

/* test/reference/ref_reduce.c (linked in; ref.h's other names clash with this file's). */
float ref_exp_f32(float x);

typedef enum uop { U_ABS, U_NEG, U_RELU, U_NOT, U_EXP, U_SQRT } uop;
static const char *const uop_name[] = {"vabs", "vneg", "vrelu", "vnot", "vexp", "vsqrt"};

static void check_unary(elem e, uop op)
{
    char text[2048], body[256], vt[32];
    snprintf(vt, sizeof vt, "!pto.vreg<%ux%s>", lanes_of(e), elem_name[e]);
    snprintf(body, sizeof body, "  %%z = pto.%s %%x, %%m : %s, !pto.mask<%s> -> %s\n", uop_name[op], vt, granule(e), vt);
    kernel_text(text, sizeof text, e, "", body);
    compiled c = compile(text);
    CHECK(c.fn != NULL);
    unsigned lanes = lanes_of(e);
    for (int32_t n = 0; c.fn && n <= (int32_t)lanes; n += (int32_t)lanes / 2 + 1) {
        _Alignas(64) unsigned char a[BYTES], b[BYTES], out[BYTES], want[BYTES];
        fill(e, a);
        if (op == U_SQRT)
            for (unsigned i = 0; i < lanes; i++)
                put_f(e, a, i, fabs(get_f(e, a, i)));
        kernel2 k;
        memcpy(&k, &c.fn, sizeof k);
        k(a, b, out, n);
        for (unsigned i = 0; i < lanes; i++) {
            if (i >= (unsigned)n) {
                memset(want + i * elem_bytes[e], 0, elem_bytes[e]);
                continue;
            }
            if (is_float(e)) {
                double x = get_f(e, a, i);
                double r = op == U_ABS ? fabs(x) : op == U_NEG ? -x : op == U_RELU ? (x > 0 ? x : 0.0)
                           : op == U_EXP ? (double)ref_exp_f32((float)x) : (double)sqrtf((float)x);
                put_f(e, want, i, rounded(e, r));
            } else {
                int64_t x = get_i(e, a, i);
                int64_t r = op == U_ABS ? (e == E_U32 ? x : x < 0 ? -x : x) : op == U_NEG ? -x
                            : op == U_RELU ? (x > 0 ? x : 0) : ~x;
                put_i(e, want, i, wrap(e, r));
            }
        }
        bool ok = true;
        for (unsigned i = 0; i < lanes; i++)
            ok &= same_lane(e, out, want, i);
        if (!ok)
            for (unsigned i = 0; i < lanes; i++)
                if (!same_lane(e, out, want, i))
                    fprintf(stderr, "%s %s n=%d: lane %u differs\n", uop_name[op], elem_name[e], n, i);
        CHECK(ok);
    }
    release(&c);
}

/* vintlv then vdintlv gives the registers back; vintlv's halves are a0 b0 a1 b1 ... */
static void check_interleave(void)
{
    const char *v = "!pto.vreg<64xi32>", *p = "!pto.ptr<i32, ub>", *m = "!pto.mask<b32>";
    char text[2048];
    snprintf(text, sizeof text,
             "func.func @k(%%a: %s, %%b: %s, %%lo: %s, %%hi: %s, %%x2: %s, %%y2: %s) {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  %%all = pto.pset_b32 \"PAT_ALL\" : %s\n"
             "  %%x = pto.vlds %%a[%%c0] : %s -> %s\n"
             "  %%y = pto.vlds %%b[%%c0] : %s -> %s\n"
             "  %%l, %%h = pto.vintlv %%x, %%y : %s, %s -> %s, %s\n"
             "  %%u, %%w = pto.vdintlv %%l, %%h : %s, %s -> %s, %s\n"
             "  pto.vsts %%l, %%lo[%%c0], %%all : %s, %s, %s\n"
             "  pto.vsts %%h, %%hi[%%c0], %%all : %s, %s, %s\n"
             "  pto.vsts %%u, %%x2[%%c0], %%all : %s, %s, %s\n"
             "  pto.vsts %%w, %%y2[%%c0], %%all : %s, %s, %s\n"
             "  return\n}\n",
             p, p, p, p, p, p, m, p, v, p, v, v, v, v, v, v, v, v, v, v, p, m, v, p, m, v, p, m, v, p, m);
    compiled c = compile(text);
    CHECK(c.fn != NULL);
    if (c.fn) {
        int32_t a[64], b[64], lo[64], hi[64], x2[64], y2[64];
        for (unsigned i = 0; i < 64; i++) {
            a[i] = (int32_t)next_random();
            b[i] = (int32_t)next_random();
        }
        void (*k)(void *, void *, void *, void *, void *, void *);
        memcpy(&k, &c.fn, sizeof k);
        k(a, b, lo, hi, x2, y2);
        bool ok = true;
        for (unsigned i = 0; i < 64; i++) {
            int32_t want_lo = i % 2 ? b[i / 2] : a[i / 2], want_hi = i % 2 ? b[32 + i / 2] : a[32 + i / 2];
            ok &= lo[i] == want_lo && hi[i] == want_hi && x2[i] == a[i] && y2[i] == b[i];
        }
        CHECK(ok);
    }
    release(&c);
}

/* ---------------------------------------------------------------- load distributions */

/* Element i of `bytes`-byte elements at a, as an unsigned value (the host is little-endian). */
static uint64_t elem_at(const unsigned char *a, unsigned i, unsigned bytes)
{
    uint64_t v = 0;
    memcpy(&v, a + i * bytes, bytes);
    return v;
}

/* Lane i of a vlds from a (vlds.md's C semantics), elements of `bytes` bytes. */
typedef uint64_t (*load_ref)(const unsigned char *a, unsigned i, unsigned bytes);

static uint64_t ref_brc(const unsigned char *a, unsigned i, unsigned b) { (void)i; return elem_at(a, 0, b); }
static uint64_t ref_upsample(const unsigned char *a, unsigned i, unsigned b) { return elem_at(a, i / 2, b); }
static uint64_t ref_every_other(const unsigned char *a, unsigned i, unsigned b) { return elem_at(a, 2 * i, b); }
/* UNPK into lanes of the element's width: element i/2 in the even lanes, 0 in the odd ones */
static uint64_t ref_unpack_spaced(const unsigned char *a, unsigned i, unsigned b)
{
    return i % 2 ? 0 : elem_at(a, i / 2, b);
}
/* UNPK into lanes twice as wide: element i, zero-extended */
static uint64_t ref_unpack_wide(const unsigned char *a, unsigned i, unsigned b) { return elem_at(a, i, b); }

/* pto.vlds %a[3] {dist} of `pelem` pointer elements into a !pto.vreg<lanes x velem>, stored whole. */
static void check_vlds(const char *dist, const char *pelem, unsigned pbytes, unsigned lanes, const char *velem,
                       load_ref want)
{
    unsigned lbytes = BYTES / lanes;
    char text[2048], vt[40], g[8];
    snprintf(vt, sizeof vt, "!pto.vreg<%ux%s>", lanes, velem);
    snprintf(g, sizeof g, "b%u", lbytes * 8);
    snprintf(text, sizeof text,
             "func.func @k(%%a: !pto.ptr<%s, ub>, %%c: !pto.ptr<%s, ub>) {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  %%c3 = arith.constant 3 : index\n"
             "  %%x = pto.vlds %%a[%%c3] {dist = \"%s\"} : !pto.ptr<%s, ub> -> %s\n"
             "  %%all = pto.pset_%s \"PAT_ALL\" : !pto.mask<%s>\n"
             "  pto.vsts %%x, %%c[%%c0], %%all : %s, !pto.ptr<%s, ub>, !pto.mask<%s>\n"
             "  return\n}\n",
             pelem, velem, dist, pelem, vt, g, g, vt, velem, g);
    compiled c = compile(text);
    CHECK(c.fn != NULL);
    if (c.fn) {
        _Alignas(64) unsigned char a[4 * BYTES], out[BYTES];
        for (unsigned i = 0; i < sizeof a; i++)
            a[i] = (unsigned char)next_random();
        void (*k)(void *, void *);
        memcpy(&k, &c.fn, sizeof k);
        k(a, out);
        bool ok = true;
        for (unsigned i = 0; i < lanes; i++)
            ok &= elem_at(out, i, lbytes) == want(a + 3 * pbytes, i, pbytes);
        if (!ok)
            fprintf(stderr, "vlds %s %s -> %s differs\n", dist, pelem, vt);
        CHECK(ok);
    }
    release(&c);
}

static void check_load_dists(void)
{
    static const struct { const char *dist, *pelem; unsigned pbytes, lanes; const char *velem; load_ref want; } cases[] = {
        {"BRC_B16", "i16", 2, 128, "i16", ref_brc},
        {"US_B8", "ui8", 1, 256, "ui8", ref_upsample},
        {"US_B16", "bf16", 2, 128, "bf16", ref_upsample},
        {"DS_B8", "i8", 1, 256, "i8", ref_every_other},
        {"DS_B16", "f16", 2, 128, "f16", ref_every_other},
        {"SPLT2CHN_B8", "ui8", 1, 256, "ui8", ref_every_other},
        {"SPLT2CHN_B16", "i16", 2, 128, "i16", ref_every_other},
        {"DINTLV_B32", "f32", 4, 64, "f32", ref_every_other},
        {"UNPK_B8", "ui8", 1, 256, "ui8", ref_unpack_spaced},
        {"UNPK_B8", "i8", 1, 128, "ui16", ref_unpack_wide},
        {"UNPK_B16", "f16", 2, 128, "f16", ref_unpack_spaced},
        {"UNPK_B16", "i16", 2, 64, "i32", ref_unpack_wide},
        {"UNPK_B32", "i32", 4, 64, "i32", ref_unpack_spaced},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_vlds(cases[i].dist, cases[i].pelem, cases[i].pbytes, cases[i].lanes, cases[i].velem, cases[i].want);
}

/* ---------------------------------------------------------------- conversions */

static double round_by(const char *rnd, double x)
{
    switch (rnd[0]) {
    case 'A': return round(x);
    case 'F': return floor(x);
    case 'C': return ceil(x);
    case 'Z': return trunc(x);
    default: return nearbyint(x);   /* the default rounding: to nearest even */
    }
}

/* The kernel of a conversion: a's register of `from` under plt_`g`(n), `body`
 * making %z of `to`, stored whole to c. */
static void cvt_kernel(char *text, size_t size, const char *from, const char *g, const char *to, const char *gto,
                       const char *body)
{
    char fe[8], te[8];
    sscanf(strchr(from, 'x') + 1, "%7[^>]", fe);
    sscanf(strchr(to, 'x') + 1, "%7[^>]", te);
    snprintf(text, size,
             "func.func @k(%%a: !pto.ptr<%s, ub>, %%c: !pto.ptr<%s, ub>, %%n: i32) {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  %%m, %%r = pto.plt_%s %%n : i32 -> !pto.mask<%s>, i32\n"
             "  %%x = pto.vlds %%a[%%c0] : !pto.ptr<%s, ub> -> %s\n"
             "%s"
             "  %%all = pto.pset_%s \"PAT_ALL\" : !pto.mask<%s>\n"
             "  pto.vsts %%z, %%c[%%c0], %%all : %s, !pto.ptr<%s, ub>, !pto.mask<%s>\n"
             "  return\n}\n",
             fe, te, g, g, fe, from, body, gto, gto, to, te, gto);
}

/* The lane types of the conversion checks. */
typedef enum ct { T_F32, T_F16, T_BF16, T_I32, T_U32, T_I16, T_U16, T_I8, T_U8 } ct;
static const char *const ct_name[] = {"f32", "f16", "bf16", "i32", "ui32", "i16", "ui16", "i8", "ui8"};
static const unsigned ct_bytes[] = {4, 2, 2, 4, 4, 2, 2, 1, 1};
static bool ct_float(ct t) { return t <= T_BF16; }
static bool ct_unsigned(ct t) { return t == T_U32 || t == T_U16 || t == T_U8; }
static uint64_t ct_mask(ct t) { return ct_bytes[t] == 4 ? 0xffffffffu : ct_bytes[t] == 2 ? 0xffffu : 0xffu; }

/* A binary float format: width and mantissa bits. */
typedef struct ffmt { unsigned bits, man; } ffmt;
static ffmt ffmt_of(ct t) { return t == T_F32 ? (ffmt){32, 23} : t == T_F16 ? (ffmt){16, 10} : (ffmt){16, 7}; }
static int ebias(ffmt f) { return (1 << (f.bits - f.man - 2)) - 1; }
static uint64_t inf_of(ffmt f) { return ((1ull << (f.bits - 1 - f.man)) - 1) << f.man; }

static bool is_nan_bits(ffmt f, uint64_t b) { return (b & ((1ull << (f.bits - 1)) - 1)) > inf_of(f); }

/* A lane's value: floats decoded by hand (NaN aside), integers sign- or zero-extended. */
static double lane_value(ct t, uint64_t b)
{
    if (!ct_float(t)) {
        unsigned w = ct_bytes[t] * 8;
        return ct_unsigned(t) || !(b >> (w - 1)) ? (double)b : (double)b - ldexp(1.0, (int)w);
    }
    ffmt f = ffmt_of(t);
    uint64_t m = b & ((1ull << f.man) - 1), e = (b & ((1ull << (f.bits - 1)) - 1)) >> f.man;
    double sign = (b >> (f.bits - 1)) ? -1.0 : 1.0;
    if (e == inf_of(f) >> f.man)
        return sign * INFINITY;
    if (e == 0)
        return sign * ldexp((double)m, 1 - ebias(f) - (int)f.man);
    return sign * ldexp((double)(m | 1ull << f.man), (int)e - ebias(f) - (int)f.man);
}

/* The magnitude a > 0 rounded into f by rnd (vcvt.md; A to nearest with ties
 * away, O von Neumann's: the odd one of the two neighbours when inexact),
 * from the two neighbours a lies between; may exceed f's largest. */
static double round_magnitude(ffmt f, double a, bool neg, char rnd)
{
    int e;
    frexp(a, &e);
    int q = e - 1 - (int)f.man, qmin = 1 - ebias(f) - (int)f.man;
    double ulp = ldexp(1.0, q < qmin ? qmin : q), lo = floor(a / ulp) * ulp, hi = lo + ulp;
    if (a == lo)
        return a;
    bool lo_odd = fmod(lo / ulp, 2.0) != 0;
    double below = a - lo, above = hi - a;
    switch (rnd) {
    case 'A': return below < above ? lo : hi;
    case 'F': return neg ? hi : lo;
    case 'C': return neg ? lo : hi;
    case 'Z': return lo;
    case 'O': return lo_odd ? lo : hi;
    default: return below < above ? lo : below > above ? hi : lo_odd ? hi : lo;
    }
}

/* The bits of the magnitude r (representable in f, or infinite), signed. */
static uint64_t encode_float(ffmt f, bool neg, double r)
{
    uint64_t sign = (uint64_t)neg << (f.bits - 1);
    if (isinf(r))
        return sign | inf_of(f);
    if (r < ldexp(1.0, 1 - ebias(f)))
        return sign | (uint64_t)ldexp(r, ebias(f) - 1 + (int)f.man);
    int e;
    double fr = frexp(r, &e);
    return sign | (uint64_t)(e - 1 + ebias(f)) << f.man | (uint64_t)ldexp(fr * 2 - 1, (int)f.man);
}

/* x (no NaN) into f by rnd: past the largest, infinity or the largest as the
 * rounding direction says (toward zero: the largest); with sat, the largest,
 * infinities too (but sat has no effect into f32: a5/TCvt.hpp). */
static uint64_t ref_to_float(ffmt f, double x, char rnd, bool sat)
{
    bool neg = signbit(x);
    double a = fabs(x), max = ldexp(2.0 - ldexp(1.0, -(int)f.man), ebias(f));
    double r = a == 0 || isinf(a) ? a : round_magnitude(f, a, neg, rnd);
    bool to_max = rnd == 'Z' || rnd == 'O' || (rnd == 'F' && !neg) || (rnd == 'C' && neg);
    if (r > max)
        r = sat || (!isinf(a) && to_max) ? max : INFINITY;
    return encode_float(f, neg, r);
}

/* A NaN of format s in format t: its sign, the top of its payload, quiet. */
static uint64_t ref_nan(ffmt s, ffmt t, uint64_t b)
{
    uint64_t m = b & ((1ull << s.man) - 1);
    m = s.man > t.man ? m >> (s.man - t.man) : m << (t.man - s.man);
    return (b >> (s.bits - 1)) << (t.bits - 1) | inf_of(t) | 1ull << (t.man - 1) | m;
}

/* float -> int: rounded by rnd, NaN 0; with sat clamped to the range, else
 * the low bits of the value saturated to 64 bits. */
static uint64_t ref_to_int(ct to, double x, char rnd, bool sat)
{
    if (isnan(x))
        return 0;
    double r = round_by((char[]){rnd, 0}, x);
    unsigned w = ct_bytes[to] * 8;
    if (sat) {
        double lo = ct_unsigned(to) ? 0 : -ldexp(1.0, (int)w - 1);
        double hi = ct_unsigned(to) ? ldexp(1.0, (int)w) - 1 : ldexp(1.0, (int)w - 1) - 1;
        return (uint64_t)(int64_t)(r < lo ? lo : r > hi ? hi : r) & ct_mask(to);
    }
    int64_t v = r >= 0x1p63 ? INT64_MAX : r < -0x1p63 ? INT64_MIN : (int64_t)r;
    return (uint64_t)v & ct_mask(to);
}

/* int -> int: with sat clamped to the result's range, else the low bits. */
static uint64_t ref_int_to_int(ct to, double x, bool sat)
{
    unsigned w = ct_bytes[to] * 8;
    double lo = ct_unsigned(to) ? 0 : -ldexp(1.0, (int)w - 1);
    double hi = ct_unsigned(to) ? ldexp(1.0, (int)w) - 1 : ldexp(1.0, (int)w - 1) - 1;
    if (sat)
        x = x < lo ? lo : x > hi ? hi : x;
    return (uint64_t)(int64_t)x & ct_mask(to);
}

typedef struct cvt_case { ct from, to; char rnd; bool sat, odd; } cvt_case;

/* The result lane of one source lane's bits. */
static uint64_t ref_convert(const cvt_case *c, uint64_t b)
{
    double x = lane_value(c->from, b);
    if (ct_float(c->from) && is_nan_bits(ffmt_of(c->from), b))
        x = NAN;
    if (ct_float(c->to)) {
        ffmt t = ffmt_of(c->to);
        if (isnan(x))
            return ref_nan(ffmt_of(c->from), t, b);
        return ref_to_float(t, x, c->rnd, c->sat && c->to != T_F32);
    }
    return ct_float(c->from) ? ref_to_int(c->to, x, c->rnd, c->sat) : ref_int_to_int(c->to, x, c->sat);
}

/* Source lanes for a conversion from t: f16, bf16 and integers random bits
 * (every class of value), with the extremes; f32 random values of every
 * magnitude that matters, ties of f16 and bf16, halves, and specials. */
static uint64_t source_lane(ct t, unsigned i)
{
    static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, 65504.0f, 65519.99f, 65520.0f, -65520.0f,
                                     65536.0f, 1e6f, 0x1p-25f, 0x1p-24f, 0x1.8p-24f, 1e-8f, 3e9f, -3e9f,
                                     0x1p31f, -0x1p31f, 0x1p32f, 1e20f, 0x1p-149f, 3.4e38f, 32767.5f, -32768.5f,
                                     127.5f, 255.5f, -0.5f, 0.5f, 1.5f, 2.5f};
    uint64_t r = next_random();
    if (t != T_F32) {   /* integers: 0, 1, -1, the largest, the least; floats: zeros, infinities, NaNs, signalling too */
        uint64_t inf = ct_float(t) ? inf_of(ffmt_of(t)) : 0, sign = (ct_mask(t) >> 1) + 1;
        uint64_t edges[] = {0, 1, ct_mask(t), ct_mask(t) >> 1, sign, inf, inf | sign, inf | 1, inf | sign | 5,
                            (inf | inf >> 1) + 3};
        unsigned nedges = ct_float(t) ? 10 : 5;
        return i % 16 < nedges ? edges[i % 16] : r & ct_mask(t);
    }
    float f;
    uint32_t bits;
    switch (i % 8) {
    case 0: f = specials[r % (sizeof specials / sizeof specials[0])]; break;
    case 1: {   /* halfway between two f16 values */
        uint64_t h = r % 0x7bff;
        f = (float)((lane_value(T_F16, h) + lane_value(T_F16, h + 1)) / 2 * (r >> 40 & 1 ? -1 : 1));
        break;
    }
    case 2:     /* halfway between two bf16 values, or just off it */
        bits = (uint32_t)(r % 0x7f7f) << 16 | (0x7fff + (uint32_t)(r >> 32) % 3);
        memcpy(&f, &bits, 4);
        break;
    case 3: f = (float)((double)(int64_t)(r % 200000) - 100000.0) + 0.5f; break;
    case 4:     /* NaNs of both kinds, signed (some infinities) */
        bits = ((uint32_t)r & 0x807fffffu) | 0x7f800000u;
        memcpy(&f, &bits, 4);
        break;
    default:    /* sign, an exponent from 2^-30 to 2^36, a random mantissa */
        bits = (uint32_t)(r >> 63) << 31 | (uint32_t)(97 + r % 67) << 23 | ((uint32_t)(r >> 8) & 0x7fffff);
        memcpy(&f, &bits, 4);
        break;
    }
    memcpy(&bits, &f, 4);
    return bits;
}

static const char *granule_of(ct t) { return ct_bytes[t] == 1 ? "b8" : ct_bytes[t] == 2 ? "b16" : "b32"; }

/* One vcvt of 256 source bytes under plt(n), every lane of the result against
 * ref_convert: a widening reads source lane 2j + part, a narrowing writes
 * result lane 2i + part and 0 in the other. */
static void check_cvt(const cvt_case *c)
{
    unsigned sl = BYTES / ct_bytes[c->from], dl = BYTES / ct_bytes[c->to], db = ct_bytes[c->to];
    char from[32], to[32], attrs[96] = "", body[512], text[2048];
    snprintf(from, sizeof from, "!pto.vreg<%ux%s>", sl, ct_name[c->from]);
    snprintf(to, sizeof to, "!pto.vreg<%ux%s>", dl, ct_name[c->to]);
    snprintf(attrs, sizeof attrs, "rnd = \"%c\", sat = \"%s\"%s", c->rnd, c->sat ? "SAT" : "NOSAT",
             sl == dl ? "" : c->odd ? ", part = \"ODD\"" : ", part = \"EVEN\"");
    snprintf(body, sizeof body, "  %%z = pto.vcvt %%x, %%m {%s} : %s, !pto.mask<%s> -> %s\n", attrs, from,
             granule_of(c->from), to);
    cvt_kernel(text, sizeof text, from, granule_of(c->from), to, granule_of(c->to), body);
    compiled k = compile(text);
    CHECK(k.fn != NULL);
    int32_t ns[] = {0, 1, (int32_t)sl / 2 + 3, (int32_t)sl};
    for (unsigned t = 0; k.fn && t < sizeof ns / sizeof ns[0]; t++) {
        _Alignas(64) unsigned char a[BYTES], out[BYTES];
        for (unsigned i = 0; i < sl; i++) {
            uint64_t b = source_lane(c->from, i);
            memcpy(a + i * ct_bytes[c->from], &b, ct_bytes[c->from]);
        }
        void (*fn)(void *, void *, int32_t);
        memcpy(&fn, &k.fn, sizeof fn);
        fn(a, out, ns[t]);
        bool ok = true;
        for (unsigned j = 0; j < dl && ok; j++) {
            unsigned i = dl < sl ? 2 * j + c->odd : dl > sl ? j / 2 : j;
            bool placed = dl <= sl || j % 2 == (unsigned)c->odd;
            uint64_t want = placed && i < (unsigned)ns[t] ? ref_convert(c, elem_at(a, i, ct_bytes[c->from])) : 0;
            if (elem_at(out, j, db) != want) {
                ok = false;
                fprintf(stderr, "vcvt %s -> %s {%s} n=%d: lane %u is %#llx, want %#llx (source %#llx)\n",
                        ct_name[c->from], ct_name[c->to], attrs, ns[t], j, (unsigned long long)elem_at(out, j, db),
                        (unsigned long long)want, (unsigned long long)elem_at(a, i, ct_bytes[c->from]));
            }
        }
        CHECK(ok);
    }
    release(&k);
}

/* Every conversion pair vcvt.md lists that ptoc's registers hold (and the
 * f16/bf16 pairs), each by the rnds listed, saturating and not (one of the
 * two, in turn, where nothing can overflow), by both parts in turn where the
 * lane count changes. */
static void check_conversions(void)
{
    static const struct { ct from, to; const char *rnds; bool exact; } pairs[] = {
        {T_F32, T_F16, "RAFCZO", 0}, {T_F32, T_BF16, "RAFCZ", 0}, {T_F16, T_BF16, "RAFCZ", 0},
        {T_BF16, T_F16, "RAFCZ", 0}, {T_F16, T_F32, "R", 1},      {T_BF16, T_F32, "RZ", 1},
        {T_F32, T_I32, "RAFCZ", 0},  {T_F32, T_U32, "AC", 0},     {T_F32, T_I16, "RAFCZ", 0},
        {T_F16, T_I32, "RZ", 0},     {T_F16, T_I16, "RAF", 0},    {T_F16, T_I8, "RCZ", 0},
        {T_F16, T_U8, "RAZ", 0},     {T_BF16, T_I32, "RF", 0},    {T_I32, T_F32, "RAFCZ", 1},
        {T_U32, T_F32, "RFC", 1},    {T_I16, T_F16, "RAFCZ", 1},  {T_U16, T_F16, "RC", 0},
        {T_I16, T_BF16, "RZ", 1},    {T_I16, T_F32, "RZ", 1},     {T_U8, T_F16, "RZ", 1},
        {T_I8, T_F16, "RZ", 1},      {T_I32, T_I16, "R", 0},      {T_I32, T_U16, "R", 0},
        {T_U32, T_U16, "R", 0},      {T_U32, T_I16, "R", 0},      {T_I16, T_U8, "R", 0},
        {T_U16, T_U8, "R", 0},       {T_I16, T_I8, "R", 0},       {T_U8, T_U16, "RZ", 1},
        {T_I8, T_I16, "RZ", 1},      {T_I16, T_I32, "RZ", 1},     {T_I16, T_U32, "R", 0},
        {T_U16, T_U32, "RZ", 1},     {T_U32, T_I32, "R", 0},      {T_I32, T_U32, "R", 0},
    };
    unsigned turn = 0;
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        for (const char *r = pairs[p].rnds; *r; r++)
            for (unsigned sat = 0; sat < 2; sat++) {
                if (pairs[p].exact && sat == (r - pairs[p].rnds) % 2)
                    continue;
                cvt_case c = {pairs[p].from, pairs[p].to, *r, sat, turn++ % 3 == 1};
                check_cvt(&c);
            }
}

/* ---------------------------------------------------------------- compares and selects */

static const char *const cmp_name[] = {"eq", "ne", "lt", "le", "gt", "ge"};

static bool cmp_ref(unsigned k, double a, double b)
{
    switch (k) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
    }
}

/* z = vsel(x, y, vcmp(x, y, plt(n), mode)): x where the compare holds on an active lane. */
static void check_compare(elem e, unsigned k)
{
    char text[2048], body[512], vt[32], pt[40];
    snprintf(vt, sizeof vt, "!pto.vreg<%ux%s>", lanes_of(e), elem_name[e]);
    snprintf(pt, sizeof pt, "!pto.ptr<%s, ub>", elem_name[e]);
    const char *g = granule(e);
    snprintf(body, sizeof body,
             "  %%y = pto.vlds %%b[%%c0] : %s -> %s\n"
             "  %%p = pto.vcmp %%x, %%y, %%m, \"%s\" : %s, %s, !pto.mask<%s> -> !pto.mask<%s>\n"
             "  %%z = pto.vsel %%x, %%y, %%p : %s, %s, !pto.mask<%s> -> %s\n",
             pt, vt, cmp_name[k], vt, vt, g, g, vt, vt, g, vt);
    kernel_text(text, sizeof text, e, "", body);
    compiled c = compile(text);
    CHECK(c.fn != NULL);
    unsigned lanes = lanes_of(e);
    for (int32_t n = 0; c.fn && n <= (int32_t)lanes; n += (int32_t)lanes / 3 + 1) {
        _Alignas(64) unsigned char a[BYTES], b[BYTES], out[BYTES];
        fill(e, a);
        fill(e, b);
        for (unsigned i = 0; i < lanes; i += 3)  /* some equal lanes */
            memcpy(b + i * elem_bytes[e], a + i * elem_bytes[e], elem_bytes[e]);
        kernel2 kf;
        memcpy(&kf, &c.fn, sizeof kf);
        kf(a, b, out, n);
        bool ok = true;
        for (unsigned i = 0; i < lanes; i++) {
            double x = is_float(e) ? get_f(e, a, i) : (double)get_i(e, a, i);
            double y = is_float(e) ? get_f(e, b, i) : (double)get_i(e, b, i);
            bool take_a = i < (unsigned)n && cmp_ref(k, x, y);
            ok &= same_lane(e, out, take_a ? a : b, i);
        }
        if (!ok)
            fprintf(stderr, "vcmp %s %s n=%d differs\n", cmp_name[k], elem_name[e], n);
        CHECK(ok);
    }
    release(&c);
}

/* ---------------------------------------------------------------- carries and products */

/* ui32: r, carry = vaddc(x, y); r2, carry2 = vaddcs(y, x, carry) (or the
 * vsub forms); lo, hi = vmull(x, y). Out: r2, lo and hi, and 1 where carry2
 * (a masked store of ones into zeros). */
/* chistv2: lane b of the accumulator (bin base + b) gains the number of
 * active bytes at most base + b; and the widening vcvt of u16 lanes by part. */
static void check_chistv2(void)
{
    char text[2048];
    snprintf(text, sizeof text,
             "func.func @k(%%acc: !pto.ptr<ui16, ub>, %%src: !pto.ptr<ui8, ub>, %%r0: !pto.ptr<ui16, ub>, "
             "%%r1: !pto.ptr<ui16, ub>, %%w: !pto.ptr<ui32, ub>, %%n: i32) {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  %%m, %%rest = pto.plt_b8 %%n : i32 -> !pto.mask<b8>, i32\n"
             "  %%a = pto.vlds %%acc[%%c0] : !pto.ptr<ui16, ub> -> !pto.vreg<128xui16>\n"
             "  %%s = pto.vlds %%src[%%c0] : !pto.ptr<ui8, ub> -> !pto.vreg<256xui8>\n"
             "  %%h0 = pto.chistv2 %%a, %%s, %%m, \"N0\" : !pto.vreg<128xui16>, !pto.vreg<256xui8>, !pto.mask<b8> -> !pto.vreg<128xui16>\n"
             "  %%h1 = pto.chistv2 %%a, %%s, %%m, \"N1\" : !pto.vreg<128xui16>, !pto.vreg<256xui8>, !pto.mask<b8> -> !pto.vreg<128xui16>\n"
             "  %%all16 = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n"
             "  pto.vsts %%h0, %%r0[%%c0], %%all16 : !pto.vreg<128xui16>, !pto.ptr<ui16, ub>, !pto.mask<b16>\n"
             "  pto.vsts %%h1, %%r1[%%c0], %%all16 : !pto.vreg<128xui16>, !pto.ptr<ui16, ub>, !pto.mask<b16>\n"
             "  %%odd = pto.vcvt %%h1, %%all16 {part = \"ODD\"} : !pto.vreg<128xui16>, !pto.mask<b16> -> !pto.vreg<64xui32>\n"
             "  %%all32 = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
             "  pto.vsts %%odd, %%w[%%c0], %%all32 : !pto.vreg<64xui32>, !pto.ptr<ui32, ub>, !pto.mask<b32>\n"
             "  return\n}\n");
    compiled c = compile(text);
    CHECK(c.fn != NULL);
    for (int32_t n = 0; c.fn && n <= 300; n += 75) {
        uint16_t acc[128], r0[128], r1[128];
        uint8_t src[256];
        uint32_t w[64];
        for (unsigned i = 0; i < 128; i++)
            acc[i] = (uint16_t)(next_random() % 1000);
        for (unsigned i = 0; i < 256; i++)   /* skewed: some bins hot, some empty */
            src[i] = (uint8_t)(i % 3 ? next_random() : 200 + i % 7);
        void (*k)(void *, void *, void *, void *, void *, int32_t);
        memcpy(&k, &c.fn, sizeof k);
        k(acc, src, r0, r1, w, n);
        bool ok = true;
        for (unsigned b = 0; b < 128; b++) {
            unsigned le0 = 0, le1 = 0;
            for (unsigned i = 0; i < 256 && i < (unsigned)n; i++) {
                le0 += src[i] <= b;
                le1 += src[i] <= 128 + b;
            }
            ok &= r0[b] == (uint16_t)(acc[b] + le0) && r1[b] == (uint16_t)(acc[b] + le1);
            ok &= b % 2 == 0 || w[b / 2] == r1[b];
        }
        if (!ok)
            fprintf(stderr, "chistv2 n=%d differs\n", n);
        CHECK(ok);
    }
    release(&c);
}

static void check_carries(bool sub)
{
    const char *op = sub ? "vsub" : "vadd";
    char text[4096];
    const char *v = "!pto.vreg<64xui32>", *p = "!pto.ptr<ui32, ub>", *m = "!pto.mask<b32>";
    snprintf(text, sizeof text,
             "func.func @k(%%a: %s, %%b: %s, %%w: %s, %%r: %s, %%lo: %s, %%hi: %s, %%cf: %s, %%n: i32, %%one: ui32) {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  %%m, %%rest = pto.plt_b32 %%n : i32 -> %s, i32\n"
             "  %%x = pto.vlds %%a[%%c0] : %s -> %s\n"
             "  %%y = pto.vlds %%b[%%c0] : %s -> %s\n"
             "  %%z = pto.vlds %%w[%%c0] : %s -> %s\n"
             "  %%s1, %%c1 = pto.%sc %%x, %%y, %%m : %s, %s, %s -> %s, %s\n"
             "  %%s2, %%c2 = pto.%scs %%y, %%z, %%c1, %%m : %s, %s, %s, %s -> %s, %s\n"
             "  %%l, %%h = pto.vmull %%x, %%y, %%m : %s, %s, %s -> %s, %s\n"
             "  %%all = pto.pset_b32 \"PAT_ALL\" : %s\n"
             "  pto.vsts %%s2, %%r[%%c0], %%all : %s, %s, %s\n"
             "  pto.vsts %%l, %%lo[%%c0], %%all : %s, %s, %s\n"
             "  pto.vsts %%h, %%hi[%%c0], %%all : %s, %s, %s\n"
             "  %%ones = pto.vbr %%one : ui32 -> %s\n"
             "  pto.vsts %%ones, %%cf[%%c0], %%c2 : %s, %s, %s\n"
             "  return\n}\n",
             p, p, p, p, p, p, p, m, p, v, p, v, p, v, op, v, v, m, v, m, op, v, v, m, m, v, m, v, v, m, v, v, m, v, p,
             m, v, p, m, v, p, m, v, v, p, m);
    compiled c = compile(text);
    CHECK(c.fn != NULL);
    for (int32_t n = 0; c.fn && n <= 70; n += 23) {
        uint32_t a[64], b[64], w[64], r[64], lo[64], hi[64], cf[64] = {0};
        for (unsigned i = 0; i < 64; i++) {
            a[i] = (uint32_t)next_random();
            b[i] = i % 4 == 0 ? ~a[i] : (uint32_t)next_random();   /* carries that ripple */
            /* b + w all ones (b - w zero): the carry (borrow) in ripples out */
            w[i] = i % 4 == 1 ? (sub ? b[i] : ~b[i]) : (uint32_t)next_random();
        }
        void (*k)(void *, void *, void *, void *, void *, void *, void *, int32_t, uint32_t);
        memcpy(&k, &c.fn, sizeof k);
        k(a, b, w, r, lo, hi, cf, n, 1);
        bool ok = true;
        for (unsigned i = 0; i < 64; i++) {
            bool act = i < (unsigned)n;
            uint64_t s1 = sub ? (uint64_t)a[i] - b[i] : (uint64_t)a[i] + b[i];
            unsigned c1 = act && (s1 >> 32) != 0;
            uint64_t s2 = sub ? (uint64_t)b[i] - w[i] - c1 : (uint64_t)b[i] + w[i] + c1;
            uint64_t prod = (uint64_t)a[i] * b[i];
            ok &= r[i] == (act ? (uint32_t)s2 : 0u);
            ok &= cf[i] == (act && (s2 >> 32) != 0 ? 1u : 0u);
            ok &= lo[i] == (act ? (uint32_t)prod : 0u) && hi[i] == (act ? (uint32_t)(prod >> 32) : 0u);
        }
        if (!ok)
            fprintf(stderr, "%s carries n=%d differ\n", op, n);
        CHECK(ok);
    }
    release(&c);
}

/* ---------------------------------------------------------------- predicates */

/* Ones stored under pset_b32 PAT (and, or, xor, not, sel with plt n) into zeros. */
static void check_predicates(void)
{
    static const char *const pats[] = {"PAT_ALL", "PAT_ALLF", "PAT_H", "PAT_Q", "PAT_VL5"};
    static const unsigned pat_lanes[] = {64, 0, 32, 16, 5};
    static const char *const logic[] = {"pand %q, %t, %all", "por %q, %t, %all", "pxor %q, %t, %all",
                                        "pnot %q, %all", "psel %q, %t, %t, %q"};
    for (unsigned pi = 0; pi < 5; pi++)
        for (unsigned li = 0; li < 5; li++) {
            char text[2048];
            const char *m = "!pto.mask<b32>";
            unsigned nops = li == 3 ? 2 : li == 4 ? 4 : 3;
            char types[128] = "";
            for (unsigned i = 0; i < nops; i++)
                snprintf(types + strlen(types), sizeof types - strlen(types), "%s%s", i ? ", " : "", m);
            snprintf(text, sizeof text,
                     "func.func @k(%%out: !pto.ptr<i32, ub>, %%n: i32, %%one: i32) {\n"
                     "  %%c0 = arith.constant 0 : index\n"
                     "  %%all = pto.pset_b32 \"PAT_ALL\" : %s\n"
                     "  %%q = pto.pset_b32 \"%s\" : %s\n"
                     "  %%t, %%rest = pto.plt_b32 %%n : i32 -> %s, i32\n"
                     "  %%p = pto.%s : %s -> %s\n"
                     "  %%ones = pto.vbr %%one : i32 -> !pto.vreg<64xi32>\n"
                     "  pto.vsts %%ones, %%out[%%c0], %%p : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, %s\n"
                     "  return\n}\n",
                     m, pats[pi], m, m, logic[li], types, m, m);
            compiled c = compile(text);
            CHECK(c.fn != NULL);
            for (int32_t n = 0; c.fn && n <= 64; n += 21) {
                int32_t out[64] = {0};
                void (*k)(void *, int32_t, int32_t);
                memcpy(&k, &c.fn, sizeof k);
                k(out, n, 1);
                bool ok = true;
                for (unsigned i = 0; i < 64; i++) {
                    bool q = i < pat_lanes[pi], t = i < (unsigned)n;
                    bool want = li == 0 ? q && t : li == 1 ? q || t : li == 2 ? q != t : li == 3 ? !q : (t ? q : t);
                    ok &= out[i] == (want ? 1 : 0);
                }
                if (!ok)
                    fprintf(stderr, "%s under %s n=%d differs\n", logic[li], pats[pi], n);
                CHECK(ok);
            }
            release(&c);
        }
}

/* ---------------------------------------------------------------- pairs and predicate layouts */

/* vldsx2 DINTLV_B32 of 128 i32 from a into lo, hi (stored to lo, hi); then
 * vstsx2 INTLV_B32 of (hi, lo) under plt(n) into out, whose other lanes keep
 * their sentinel. */
static void check_pairs(void)
{
    const char *text =
        "func.func @k(%a: !pto.ptr<i32, ub>, %lo: !pto.ptr<i32, ub>, %hi: !pto.ptr<i32, ub>, %out: !pto.ptr<i32, ub>, %n: i32) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %all = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
        "  %m, %r = pto.plt_b32 %n : i32 -> !pto.mask<b32>, i32\n"
        "  %x, %y = pto.vldsx2 %a[%c0], \"DINTLV_B32\" : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>, !pto.vreg<64xi32>\n"
        "  pto.vsts %x, %lo[%c0], %all : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>\n"
        "  pto.vsts %y, %hi[%c0], %all : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>\n"
        "  pto.vstsx2 %y, %x, %out[%c0], \"INTLV_B32\", %m : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>\n"
        "  return\n}\n";
    compiled c = compile(text);
    CHECK(c.fn != NULL);
    for (int32_t n = 0; c.fn && n <= 64; n += 13) {
        int32_t a[128], lo[64], hi[64], out[128];
        for (unsigned i = 0; i < 128; i++) {
            a[i] = (int32_t)next_random();
            out[i] = -7;
        }
        void (*k)(void *, void *, void *, void *, int32_t);
        memcpy(&k, &c.fn, sizeof k);
        k(a, lo, hi, out, n);
        bool ok = true;
        for (unsigned i = 0; i < 64; i++) {
            ok &= lo[i] == a[2 * i] && hi[i] == a[2 * i + 1];
            bool act = i < (unsigned)n;
            ok &= out[2 * i] == (act ? a[2 * i + 1] : -7) && out[2 * i + 1] == (act ? a[2 * i] : -7);
        }
        if (!ok)
            fprintf(stderr, "vldsx2/vstsx2 n=%d differ\n", n);
        CHECK(ok);
    }
    release(&c);
}

/* Ones stored under predicate %p (the body's last op makes it) at b`bits`
 * lanes into zeros; the reference says lane by lane which must be 1. */
typedef bool (*lane_ref)(unsigned lane, int32_t n, const uint8_t *bytes);

static void check_predicate_layout(const char *what, const char *body, unsigned bits, lane_ref want)
{
    char text[4096], v[32], p[32], m[24];
    unsigned lanes = 2048 / bits;
    snprintf(v, sizeof v, "!pto.vreg<%uxi%u>", lanes, bits);
    snprintf(p, sizeof p, "!pto.ptr<i%u, ub>", bits);
    snprintf(m, sizeof m, "!pto.mask<b%u>", bits);
    snprintf(text, sizeof text,
             "func.func @k(%%out: %s, %%bytes: !pto.ptr<ui8, ub>, %%n: i32, %%one: i%u) {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "%s"
             "  %%ones = pto.vbr %%one : i%u -> %s\n"
             "  pto.vsts %%ones, %%out[%%c0], %%p : %s, %s, %s\n"
             "  return\n}\n",
             p, bits, body, bits, v, v, p, m);
    compiled c = compile(text);
    CHECK(c.fn != NULL);
    for (int32_t n = 0; c.fn && n <= 256; n += 37) {
        uint8_t bytes[32];
        for (unsigned i = 0; i < 32; i++)
            bytes[i] = (uint8_t)next_random();
        _Alignas(64) uint8_t out[BYTES] = {0};
        void (*k)(void *, void *, int32_t, int32_t);
        memcpy(&k, &c.fn, sizeof k);
        k(out, bytes, n, 1);
        bool ok = true;
        for (unsigned i = 0; i < lanes; i++) {
            int64_t got = bits == 8 ? out[i] : bits == 16 ? ((int16_t *)out)[i] : ((int32_t *)out)[i];
            ok &= got == (want(i, n, bytes) ? 1 : 0);
        }
        if (!ok)
            fprintf(stderr, "%s n=%d differs\n", what, n);
        CHECK(ok);
    }
    release(&c);
}

static bool bit_of_bytes(const uint8_t *bytes, unsigned j) { return (bytes[j / 8] >> (j % 8)) & 1; }

static bool ref_unpack_low(unsigned i, int32_t n, const uint8_t *b) { (void)b; return i < (unsigned)n; }
static bool ref_unpack_high(unsigned i, int32_t n, const uint8_t *b) { (void)b; return i + 64 < (unsigned)n; }
static bool ref_plds_norm(unsigned i, int32_t n, const uint8_t *b) { (void)n; return bit_of_bytes(b, i * 4); }
static bool ref_plds_us(unsigned i, int32_t n, const uint8_t *b) { (void)n; return bit_of_bytes(b, i); }
static bool ref_dintlv_low(unsigned i, int32_t n, const uint8_t *b)
{
    (void)b;
    return 2 * i < 256 ? 2 * i < (unsigned)n : true;   /* a = plt_b8 n, b = all */
}
static bool ref_intlv_high(unsigned i, int32_t n, const uint8_t *b)
{
    (void)b;
    return i % 2 ? true : 64 + i / 2 < (unsigned)n;    /* a = plt_b16 n, b = all */
}
static bool ref_roundtrip(unsigned i, int32_t n, const uint8_t *b) { (void)n; return bit_of_bytes(b, i); }

static void check_predicate_layouts(void)
{
    check_predicate_layout("punpack LOWER",
                           "  %t, %r = pto.plt_b16 %n : i32 -> !pto.mask<b16>, i32\n"
                           "  %p = pto.punpack %t, \"LOWER\" : !pto.mask<b16> -> !pto.mask<b32>\n",
                           32, ref_unpack_low);
    check_predicate_layout("punpack HIGHER",
                           "  %t, %r = pto.plt_b16 %n : i32 -> !pto.mask<b16>, i32\n"
                           "  %p = pto.punpack %t, \"HIGHER\" : !pto.mask<b16> -> !pto.mask<b32>\n",
                           32, ref_unpack_high);
    check_predicate_layout("plds NORM at b32", "  %p = pto.plds %bytes[%c0] : !pto.ptr<ui8, ub> -> !pto.mask<b32>\n", 32,
                           ref_plds_norm);
    check_predicate_layout("plds US at b16",
                           "  %p = pto.plds %bytes[%c0] {dist = \"US\"} : !pto.ptr<ui8, ub> -> !pto.mask<b16>\n", 16,
                           ref_plds_us);
    check_predicate_layout("pdintlv_b8 low",
                           "  %t, %r = pto.plt_b8 %n : i32 -> !pto.mask<b8>, i32\n"
                           "  %all = pto.pset_b8 \"PAT_ALL\" : !pto.mask<b8>\n"
                           "  %p, %q = pto.pdintlv_b8 %t, %all : !pto.mask<b8>, !pto.mask<b8> -> !pto.mask<b8>, !pto.mask<b8>\n",
                           8, ref_dintlv_low);
    check_predicate_layout("pintlv_b16 high",
                           "  %t, %r = pto.plt_b16 %n : i32 -> !pto.mask<b16>, i32\n"
                           "  %all = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n"
                           "  %q, %p = pto.pintlv_b16 %t, %all : !pto.mask<b16>, !pto.mask<b16> -> !pto.mask<b16>, !pto.mask<b16>\n",
                           16, ref_intlv_high);
    /* psts PK of a US load gives the 16 bytes back; plds NORM of them, at b8, their bits */
    check_predicate_layout("psts PK after plds US",
                           "  %u = pto.plds %bytes[%c0] {dist = \"US\"} : !pto.ptr<ui8, ub> -> !pto.mask<b16>\n"
                           "  pto.psts %u, %bytes[%c0] {dist = \"PK\"} : !pto.mask<b16>, !pto.ptr<ui8, ub>\n"
                           "  %p = pto.plds %bytes[%c0] : !pto.ptr<ui8, ub> -> !pto.mask<b8>\n",
                           8, ref_roundtrip);
}

int main(void)
{
    static const elem floats[] = {E_F32, E_F16}, ints[] = {E_I32, E_U32, E_I16, E_I8};
    for (unsigned m = 0; m < 2; m++) {
        for (unsigned k = 0; k < 2; k++)
            for (bop op = B_ADD; op <= B_MIN; op++)
                check_binary(floats[k], op, m, false);
        for (unsigned k = 0; k < 4; k++)
            for (bop op = B_ADD; op <= B_SHR; op++)
                check_binary(ints[k], op, m, false);
        check_binary(E_F32, B_MUL, m, true);
        check_binary(E_F16, B_ADD, m, true);
        check_binary(E_I16, B_MAX, m, true);
        check_binary(E_U32, B_SHR, m, true);
    }
    static const elem all[] = {E_F32, E_F16, E_I32, E_U32, E_I16, E_I8};
    for (unsigned k = 0; k < 6; k++)
        for (unsigned e = 0; e < 6; e++)
            check_compare(all[e], k);
    check_carries(false);
    check_carries(true);
    check_chistv2();
    check_predicates();
    check_pairs();
    check_load_dists();
    check_predicate_layouts();
    check_interleave();
    check_conversions();
    for (unsigned k = 0; k < 2; k++)
        for (uop op = U_ABS; op <= U_RELU; op++)
            check_unary(floats[k], op);
    check_unary(E_F32, U_EXP);
    check_unary(E_F32, U_SQRT);
    for (unsigned k = 0; k < 4; k++)
        for (uop op = U_ABS; op <= U_NOT; op++)
            check_unary(ints[k], op);
    return CHECK_DONE();
}
