/* test_a2a3_exec.c: the A2/A3 repeat intrinsics' semantics (codegen/lower_a2a3.c)
 * against a plain C model of the walk, on random buffers.
 *
 * Each kernel sets the mode and the vector mask from its parameters, runs one
 * pto.a2a3 op over UB buffers (host buffers here; the bits of vsel's
 * TENSOR_TENSOR mode in the simulated vec space, whose offsets are UB
 * addresses) and returns. The model (`ref_walk`) visits repeat r, block b,
 * lane e as docs/targets.md "a2a3" says and applies a per-element reference
 * written from the semantics, never from ptoc's output. Every destination
 * byte starts as a poison byte, so that the bytes of lanes off and between
 * strided blocks are checked to keep it. Covered: f32, f16, i32, i16 (and
 * ui16 compares), norm mode under full, lo-only, hi-only and ragged masks,
 * counter mode with counts not a multiple of a repeat, block strides 2,
 * repeat strides 0, 9..20, repeats 1 and 255, NaNs for max/min/compares,
 * integer division by zero, vsel's three modes, vbrcb, vector_dup, the
 * burst copies, and ub_addr / ub_ptr.
 */
#include "check.h"
#include "jit_kernel.h"

#include "ptoc/codegen.h"
#include "ptoc/ptoc.h"
#include "ptoc/runtime.h"
#include "ref.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BUF (256 * 24 * 32 + 4096)   /* 255 repeats at repeat stride 20, block stride 2 */
#define POISON 0xA5

/* ---------------------------------------------------------------- elements */

typedef enum elem { E_F32, E_F16, E_I32, E_I16, E_U16 } elem;
static const char *const elem_name[] = {"f32", "f16", "i32", "i16", "ui16"};
static const unsigned elem_bytes[] = {4, 2, 4, 2, 2};
static bool is_float(elem e) { return e == E_F32 || e == E_F16; }

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double get_f(elem e, const unsigned char *p)
{
    if (e == E_F32) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    uint16_t h;
    memcpy(&h, p, 2);
    return ptoc_float_from_bits(PTOC_F16, h);
}

static int64_t get_i(elem e, const unsigned char *p)
{
    int32_t i32;
    int16_t i16;
    uint16_t u16;
    switch (e) {
    case E_I32: memcpy(&i32, p, 4); return i32;
    case E_I16: memcpy(&i16, p, 2); return i16;
    default: memcpy(&u16, p, 2); return u16;
    }
}

/* A float result in the lane's format (f16: from float, as LLVM rounds half). */
static void put_f(elem e, unsigned char *p, double v)
{
    if (e == E_F32) {
        float f = (float)v;
        memcpy(p, &f, 4);
        return;
    }
    uint16_t h = isnan(v) ? 0x7e00 : (uint16_t)ptoc_float_to_bits(PTOC_F16, ptoc_float_round(PTOC_F16, (float)v));
    memcpy(p, &h, 2);
}

static void put_i(elem e, unsigned char *p, int64_t v)
{
    if (elem_bytes[e] == 4) {
        int32_t x = (int32_t)(uint32_t)v;
        memcpy(p, &x, 4);
    } else {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
    }
}

/* Random elements: floats in [-8, 8) with zeros and NaNs, integers over their range with zeros. */
static void fill(elem e, unsigned char *buf, size_t bytes)
{
    for (size_t i = 0; i + elem_bytes[e] <= bytes; i += elem_bytes[e]) {
        uint64_t r = next_random();
        if (is_float(e))
            put_f(e, buf + i, r % 11 == 0 ? 0.0 : r % 13 == 0 ? NAN : (double)(int64_t)(r % 4096) / 256.0 - 8.0);
        else
            put_i(e, buf + i, r % 9 == 0 ? 0 : (int64_t)(r >> 7));
    }
}

/* Two lanes agree: the same bits, or both NaN. */
static bool same(elem e, const unsigned char *x, const unsigned char *y)
{
    if (!memcmp(x, y, elem_bytes[e]))
        return true;
    return is_float(e) && isnan(get_f(e, x)) && isnan(get_f(e, y));
}

/* ---------------------------------------------------------------- the model */

/* The vector state a kernel sets, and the op's strides. */
typedef struct setup {
    bool counter;
    uint64_t hi, lo;
    int64_t repeat;
    int blk[3], rep[3];
} setup;

/* The per-element reference: lane (r, j) with its element addresses. */
typedef void (*elem_ref)(const void *ctx, elem e, unsigned char *const *at, unsigned r, unsigned j);

/* Visits every lane that is on, with each operand's element address
 * (operand k at base[k] + (r * rep[k] + b * blk[k]) * 32 + e * esize). */
static void ref_walk(const setup *s, elem e, unsigned nops, unsigned char *const *base, elem_ref f, const void *ctx)
{
    unsigned B = 32 / elem_bytes[e], L = 8 * B;
    uint64_t reps = s->counter ? (s->lo + L - 1) / L : (uint64_t)s->repeat;
    for (uint64_t r = 0; r < reps; r++)
        for (unsigned b = 0; b < 8; b++)
            for (unsigned l = 0; l < B; l++) {
                unsigned j = b * B + l;
                bool on = s->counter ? r * L + j < s->lo : ((j < 64 ? s->lo >> j : s->hi >> (j - 64)) & 1);
                if (!on)
                    continue;
                unsigned char *at[3];
                for (unsigned k = 0; k < nops; k++)
                    at[k] = base[k] + (r * (unsigned)s->rep[k] + b * (unsigned)s->blk[k]) * 32 + l * elem_bytes[e];
                f(ctx, e, at, (unsigned)r, j);
            }
}

/* ---------------------------------------------------------------- kernels */

/* The kernel of `text`, checked to compile. */
static bool compiled_ok(compiled *c, const char *text)
{
    *c = compile(text);
    CHECK(c->fn != NULL);
    if (!c->fn)
        release(c);
    return c->fn != NULL;
}

static void ptr_type(char *out, size_t n, const char *e) { snprintf(out, n, "!pto.ptr<%s, ub>", e); }

/* The stride attribute of the first n entries, "" when contiguous. */
static void strides_text(char *out, size_t size, const setup *s, unsigned n)
{
    bool plain = true;
    for (unsigned k = 0; k < n; k++)
        plain &= s->blk[k] == 1 && s->rep[k] == 8;
    if (plain) {
        out[0] = 0;
        return;
    }
    if (n == 1)
        snprintf(out, size, " {blk = [%d], rep = [%d]}", s->blk[0], s->rep[0]);
    else if (n == 2)
        snprintf(out, size, " {blk = [%d, %d], rep = [%d, %d]}", s->blk[0], s->blk[1], s->rep[0], s->rep[1]);
    else
        snprintf(out, size, " {blk = [%d, %d, %d], rep = [%d, %d, %d]}", s->blk[0], s->blk[1], s->blk[2], s->rep[0],
                 s->rep[1], s->rep[2]);
}

/* func @k(%d, %a, %b: pointers, %cm: a ui8 pointer, %hi, %lo: i64, %n: index, %s: scalar):
 * the mode, the mask, `pre` then `body`. */
static void kernel_text(char *text, size_t size, bool counter, const char *types[3], const char *scalar,
                        const char *pre, const char *body)
{
    snprintf(text, size,
             "func.func @k(%%d: %s, %%a: %s, %%b: %s, %%cm: !pto.ptr<ui8, ub>, %%hi: i64, %%lo: i64, %%n: index, "
             "%%s: %s) {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  pto.a2a3.%s\n"
             "  pto.a2a3.set_vector_mask %%hi, %%lo : i64, i64\n"
             "%s  %s\n"
             "  return\n}\n",
             types[0], types[1], types[2], scalar, counter ? "set_mask_count" : "set_mask_norm", pre, body);
}

typedef void (*kernel_f32)(void *, void *, void *, void *, uint64_t, uint64_t, int64_t, float);
typedef void (*kernel_i32)(void *, void *, void *, void *, uint64_t, uint64_t, int64_t, int32_t);
typedef void (*kernel_i16)(void *, void *, void *, void *, uint64_t, uint64_t, int64_t, int16_t);

/* Calls the kernel with scalar bits `sbits` in e's ABI type. */
static void call(const compiled *c, elem e, unsigned char *const *p, unsigned char *cm, const setup *s, uint64_t sbits)
{
    if (e == E_F32) {
        kernel_f32 k;
        float f;
        uint32_t b32 = (uint32_t)sbits;
        memcpy(&f, &b32, 4);
        memcpy(&k, &c->fn, sizeof k);
        k(p[0], p[1], p[2], cm, s->hi, s->lo, s->repeat, f);
    } else if (e == E_I32) {
        kernel_i32 k;
        memcpy(&k, &c->fn, sizeof k);
        k(p[0], p[1], p[2], cm, s->hi, s->lo, s->repeat, (int32_t)sbits);
    } else {
        kernel_i16 k;
        memcpy(&k, &c->fn, sizeof k);
        k(p[0], p[1], p[2], cm, s->hi, s->lo, s->repeat, (int16_t)sbits);
    }
}

/* ---------------------------------------------------------------- the cases */

/* The run-time states each kernel runs under: norm mode with every lane,
 * lo only, hi only, ragged, repeat 1 and 255; counter mode with counts that
 * end inside a repeat and a block. */
static unsigned states(bool counter, elem e, setup *out, const setup *base)
{
    unsigned L = 256 / elem_bytes[e], n = 0;
    if (counter) {
        uint64_t counts[] = {1, L - 1, L + 5, 3 * L + L / 2 + 1, 20 * L + 3};
        for (unsigned i = 0; i < 5; i++) {
            out[n] = *base;
            out[n].hi = 0, out[n].lo = counts[i], out[n].repeat = 0, out[n].counter = true;
            n++;
        }
        return n;
    }
    uint64_t r1 = next_random(), r2 = next_random();
    struct { uint64_t hi, lo; int64_t rep; } st[] = {
        {~0ull, ~0ull, 3}, {0, r1, 5}, {r2, 0, 2}, {r1 & 0x00ff00ff00f0f00full, r2 & 0xf0f0ff00ff00aa55ull, 1},
        {~0ull, ~0ull, 255}, {r2, r1, 7},
    };
    for (unsigned i = 0; i < 6; i++) {
        out[n] = *base;
        out[n].hi = st[i].hi, out[n].lo = st[i].lo, out[n].repeat = st[i].rep;
        n++;
    }
    return n;
}

/* The stride configurations: contiguous; dst blocks 2 apart with b
 * broadcast (repeat stride 0); repeat strides past 8. */
static setup config(unsigned i)
{
    static const setup cs[] = {
        {.blk = {1, 1, 1}, .rep = {8, 8, 8}},
        {.blk = {2, 2, 1}, .rep = {16, 16, 0}},
        {.blk = {1, 1, 2}, .rep = {9, 12, 20}},
    };
    return cs[i % 3];
}

typedef struct arith_ctx { int kind; elem e; uint64_t sbits; bool scalar; } arith_ctx;

typedef enum akind { A_ADD, A_SUB, A_MUL, A_DIV, A_MAX, A_MIN, A_AND, A_OR,
                     A_EXP, A_LN, A_SQRT, A_REC, A_ABS, A_RELU, A_NOT, A_DUP } akind;
static const char *const akind_name[] = {"vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vand", "vor",
                                         "vexp", "vln", "vsqrt", "vrec", "vabs", "vrelu", "vnot", "vector_dup"};

static double float_ref(int k, double a, double b)
{
    switch (k) {
    case A_ADD: return a + b;
    case A_SUB: return a - b;
    case A_MUL: return a * b;
    case A_DIV: return a / b;
    case A_MAX: return a > b ? a : b;    /* ordered: a NaN in b is kept, in a not */
    case A_MIN: return a < b ? a : b;
    case A_EXP: return ref_exp_f32((float)a);   /* the one exp and log, not libm's */
    case A_LN: return ref_log_f32((float)a);
    case A_SQRT: return sqrtf((float)a);
    case A_REC: return 1.0f / (float)a;
    case A_ABS: return fabs(a);
    case A_RELU: return a > 0 ? a : 0;
    default: return b;
    }
}

static int64_t int_ref(int k, elem e, int64_t a, int64_t b)
{
    switch (k) {
    case A_ADD: return a + b;
    case A_SUB: return a - b;
    case A_MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
    case A_DIV:            /* x / 0 = -1, INT_MIN / -1 = INT_MIN */
        return b == 0 ? -1 : b == -1 ? -a : a / b;
    case A_MAX: return a > b ? a : b;
    case A_MIN: return a < b ? a : b;
    case A_AND: return a & b;
    case A_OR: return a | b;
    case A_ABS: return a < 0 ? -a : a;
    case A_RELU: return a > 0 ? a : 0;
    case A_NOT: return ~a;
    default: (void)e; return b;
    }
}

static void arith_elem(const void *ctx, elem e, unsigned char *const *at, unsigned r, unsigned j)
{
    (void)r, (void)j;
    const arith_ctx *c = ctx;
    bool unary = c->kind >= A_EXP;
    unsigned char sb[4];
    memcpy(sb, &c->sbits, 4);
    const unsigned char *bp = c->scalar ? sb : unary ? at[1] : at[2];
    if (c->kind == A_DUP)
        bp = sb;
    if (is_float(e))
        put_f(e, at[0], float_ref(c->kind, get_f(e, at[1]), get_f(e, bp)));
    else
        put_i(e, at[0], int_ref(c->kind, e, get_i(e, at[1]), get_i(e, bp)));
}

typedef struct buffers { unsigned char *p[3], *want, *cm; } buffers;

/* Destination and expectation poisoned, the first `nsrc` sources random. */
static void reset(buffers *bf, elem e, unsigned nsrc)
{
    memset(bf->p[0], POISON, BUF);
    memset(bf->want, POISON, BUF);
    for (unsigned k = 1; k <= nsrc; k++)
        fill(e, bf->p[k], BUF);
}

static unsigned char *big(void)
{
    unsigned char *p = malloc(BUF);
    if (!p)
        abort();
    return p;
}

static bool compare_out(elem e, const unsigned char *got, const unsigned char *want, const char *what)
{
    for (size_t i = 0; i < BUF; i += elem_bytes[e])
        if (!same(e, got + i, want + i)) {
            fprintf(stderr, "%s: byte %zu differs (got %02x %02x, want %02x %02x)\n", what, i, got[i], got[i + 1],
                    want[i], want[i + 1]);
            return false;
        }
    return true;
}

/* One compiled kernel under each state: `nsrc` sources (1 or 2), the scalar form, or vector_dup. */
static void check_arith(buffers *bf, akind k, elem e, bool counter, unsigned cfg, bool scalar)
{
    char text[4096], body[1024], pt[40], at[128];
    ptr_type(pt, sizeof pt, elem_name[e]);
    const char *types[3] = {pt, pt, pt};
    setup base = config(cfg), st[8];
    bool unary = k >= A_EXP && k != A_DUP;
    const char *name = akind_name[k];
    char sname[16];
    if (k == A_DUP) {
        strides_text(at, sizeof at, &base, 1);
        snprintf(body, sizeof body, "pto.a2a3.vector_dup %%d[%%c0], %%s, %%n%s : %s, %s, index", at, pt, elem_name[e]);
    } else if (scalar) {
        snprintf(sname, sizeof sname, "%ss", name);
        strides_text(at, sizeof at, &base, 2);
        snprintf(body, sizeof body, "pto.a2a3.%s %%d[%%c0], %%a[%%c0], %%s, %%n%s : %s, %s, %s, index", sname, at, pt,
                 pt, elem_name[e]);
    } else if (unary) {
        strides_text(at, sizeof at, &base, 2);
        snprintf(body, sizeof body, "pto.a2a3.%s %%d[%%c0], %%a[%%c0], %%n%s : %s, %s, index", name, at, pt, pt);
    } else {
        strides_text(at, sizeof at, &base, 3);
        snprintf(body, sizeof body, "pto.a2a3.%s %%d[%%c0], %%a[%%c0], %%b[%%c0], %%n%s : %s, %s, %s, index", name, at,
                 pt, pt, pt);
    }
    kernel_text(text, sizeof text, counter, types, elem_name[e], "", body);
    compiled c;
    if (!compiled_ok(&c, text))
        return;
    unsigned n = states(counter, e, st, &base);
    for (unsigned t = 0; t < n; t++) {
        reset(bf, e, 2);
        if (k == A_DIV && is_float(e))
            for (size_t i = 0; i < BUF; i += elem_bytes[e])
                if (get_f(e, bf->p[2] + i) == 0)
                    put_f(e, bf->p[2] + i, 0.5);
        uint64_t sbits = 0;
        memcpy(&sbits, bf->p[2] + 4 * elem_bytes[e], elem_bytes[e]);
        arith_ctx ctx = {k, e, sbits, scalar};
        unsigned char *refp[3] = {bf->want, bf->p[1], bf->p[2]};
        ref_walk(&st[t], e, unary || scalar || k == A_DUP ? 2 : 3, refp, arith_elem, &ctx);
        call(&c, e, bf->p, bf->cm, &st[t], sbits);
        char what[160];
        snprintf(what, sizeof what, "%s%s %s %s cfg %u state %u", name, scalar ? "s" : "", elem_name[e],
                 counter ? "count" : "norm", cfg, t);
        CHECK(compare_out(e, bf->p[0], bf->want, what));
    }
    release(&c);
}

/* ---------------------------------------------------------------- compares */

static const char *const cmp_name[] = {"eq", "ne", "lt", "le", "gt", "ge"};

static bool cmp_ref(int k, bool fl, double fa, double fb, int64_t a, int64_t b)
{
    if (fl) {
        switch (k) {
        case 0: return fa == fb;
        case 1: return !(fa == fb);     /* unordered: true */
        case 2: return fa < fb;
        case 3: return fa <= fb;
        case 4: return fa > fb;
        default: return fa >= fb;
        }
    }
    switch (k) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
    }
}

typedef struct cmp_ctx { int kind; uint64_t sbits; bool scalar; unsigned char *bits; } cmp_ctx;

static void cmp_elem(const void *ctx, elem e, unsigned char *const *at, unsigned r, unsigned j)
{
    const cmp_ctx *c = ctx;
    unsigned char sb[4];
    memcpy(sb, &c->sbits, 4);
    const unsigned char *bp = c->scalar ? sb : at[2];
    bool fl = is_float(e);
    bool v = cmp_ref(c->kind, fl, fl ? get_f(e, at[1]) : 0, fl ? get_f(e, bp) : 0, fl ? 0 : get_i(e, at[1]),
                     fl ? 0 : get_i(e, bp));
    unsigned bit = r * (256 / elem_bytes[e]) + j;
    if (v)
        c->bits[bit / 8] |= (unsigned char)(1u << (bit % 8));
}

static void check_cmp(buffers *bf, int k, elem e, bool counter, unsigned cfg, bool scalar)
{
    char text[4096], body[1024], pt[40], at[128];
    ptr_type(pt, sizeof pt, elem_name[e]);
    const char *types[3] = {"!pto.ptr<ui8, ub>", pt, pt};
    setup base = config(cfg), st[8];
    strides_text(at, sizeof at, &base, scalar ? 2 : 3);
    if (scalar)
        snprintf(body, sizeof body, "pto.a2a3.vcmpvs_%s %%d[%%c0], %%a[%%c0], %%s, %%n%s : !pto.ptr<ui8, ub>, %s, %s, index",
                 cmp_name[k], at, pt, elem_name[e]);
    else
        snprintf(body, sizeof body,
                 "pto.a2a3.vcmpv_%s %%d[%%c0], %%a[%%c0], %%b[%%c0], %%n%s : !pto.ptr<ui8, ub>, %s, %s, index",
                 cmp_name[k], at, pt, pt);
    kernel_text(text, sizeof text, counter, types, elem_name[e], "", body);
    compiled c;
    if (!compiled_ok(&c, text))
        return;
    unsigned n = states(counter, e, st, &base), L = 256 / elem_bytes[e];
    for (unsigned t = 0; t < n; t++) {
        reset(bf, e, 2);
        for (size_t i = 0; i < BUF; i += 3 * elem_bytes[e])   /* some equal lanes */
            memcpy(bf->p[2] + i, bf->p[1] + i, elem_bytes[e]);
        uint64_t sbits = 0;
        memcpy(&sbits, bf->p[1] + 6 * elem_bytes[e], elem_bytes[e]);
        /* every repeat that runs writes its L bits: 0 for the lanes off */
        uint64_t reps = st[t].counter ? (st[t].lo + L - 1) / L : (uint64_t)st[t].repeat;
        memset(bf->want, 0, reps * L / 8);
        cmp_ctx ctx = {k, sbits, scalar, bf->want};
        unsigned char *refp[3] = {bf->want, bf->p[1], bf->p[2]};
        ref_walk(&st[t], e, scalar ? 2 : 3, refp, cmp_elem, &ctx);
        call(&c, e, bf->p, bf->cm, &st[t], sbits);
        char what[160];
        snprintf(what, sizeof what, "vcmpv%s_%s %s %s cfg %u state %u", scalar ? "s" : "", cmp_name[k], elem_name[e],
                 counter ? "count" : "norm", cfg, t);
        CHECK(compare_out(E_U16, bf->p[0], bf->want, what));
    }
    release(&c);
}

/* ---------------------------------------------------------------- vsel */

typedef enum smode { S_SPR, S_TS, S_TT } smode;
static const char *const smode_name[] = {"CMPMASK_SPR", "TENSOR_SCALAR", "TENSOR_TENSOR"};

typedef struct sel_ctx { smode m; const unsigned char *bits, *cmpmask; } sel_ctx;

static void sel_elem(const void *ctx, elem e, unsigned char *const *at, unsigned r, unsigned j)
{
    const sel_ctx *c = ctx;
    unsigned L = 256 / elem_bytes[e];
    bool bit = c->m == S_SPR ? (c->cmpmask[j / 8] >> (j % 8)) & 1
                             : (c->bits[(r * L + j) / 8] >> ((r * L + j) % 8)) & 1;
    const unsigned char *b = c->m == S_TS ? c->cmpmask : at[2];
    memcpy(at[0], bit ? at[1] : b, elem_bytes[e]);
}

static void check_sel(buffers *bf, smode m, elem e, bool counter, unsigned cfg)
{
    char text[4096], body[1024], pt[40], at[160], attrs[200];
    ptr_type(pt, sizeof pt, elem_name[e]);
    const char *types[3] = {pt, pt, m == S_TS ? "!pto.ptr<ui8, ub>" : pt};
    setup base = config(cfg), st[8];
    if (m == S_TS)   /* the third pointer holds bits: contiguous */
        base.blk[2] = 1, base.rep[2] = 8;
    strides_text(at, sizeof at, &base, 3);
    if (at[0])
        snprintf(attrs, sizeof attrs, " {sel_mode = \"%s\", %s", smode_name[m], at + 2);
    else
        snprintf(attrs, sizeof attrs, " {sel_mode = \"%s\"}", smode_name[m]);
    snprintf(body, sizeof body, "pto.a2a3.vsel %%d[%%c0], %%a[%%c0], %%b[%%c0], %%n%s : %s, %s, %s, index", attrs, pt,
             pt, types[2]);
    kernel_text(text, sizeof text, counter, types, elem_name[e],
                "  pto.a2a3.set_cmpmask %cm[%c0] : !pto.ptr<ui8, ub>\n", body);
    compiled c;
    if (!compiled_ok(&c, text))
        return;
    /* TENSOR_TENSOR's bits in the simulated UB, at a UB address (a byte
     * offset in the vec space) that CMPMASK's low 32 bits hold */
    unsigned char *ub = ptoc_rt_space_base(PTOC_PTO_AS_VEC, 1 << 21);
    const uint32_t ub_bits = 4096;
    unsigned n = states(counter, e, st, &base);
    for (unsigned t = 0; t < n; t++) {
        reset(bf, e, 2);
        unsigned char *bits = m == S_TT ? ub + ub_bits : bf->p[2];
        for (size_t i = 0; i < 255 * 16; i++)
            bits[i] = (unsigned char)next_random();
        for (int i = 0; i < 16; i++)
            bf->cm[i] = (unsigned char)next_random();
        if (m == S_TT)
            memcpy(bf->cm, &ub_bits, 4);
        sel_ctx ctx = {m, bits, bf->cm};
        unsigned char *refp[3] = {bf->want, bf->p[1], bf->p[2]};
        ref_walk(&st[t], e, 3, refp, sel_elem, &ctx);
        call(&c, e, bf->p, bf->cm, &st[t], 0);
        char what[160];
        snprintf(what, sizeof what, "vsel %s %s %s cfg %u state %u", smode_name[m], elem_name[e],
                 counter ? "count" : "norm", cfg, t);
        CHECK(compare_out(e, bf->p[0], bf->want, what));
    }
    release(&c);
}

/* ---------------------------------------------------------------- vbrcb, the copies */

/* vbrcb: unmasked; source elements 8r .. 8r + 7 into the blocks of repeat r. */
static void check_brcb(buffers *bf, elem e, int blk, int rep)
{
    char text[4096], body[512], pt[40];
    ptr_type(pt, sizeof pt, elem_name[e]);
    const char *types[3] = {pt, pt, pt};
    snprintf(body, sizeof body, "pto.a2a3.vbrcb %%d[%%c0], %%a[%%c0], %%n {blk = [%d], rep = [%d]} : %s, %s, index",
             blk, rep, pt, pt);
    kernel_text(text, sizeof text, false, types, elem_name[e], "", body);
    compiled c;
    if (!compiled_ok(&c, text))
        return;
    int64_t counts[] = {1, 5, 255};
    for (unsigned t = 0; t < 3; t++) {
        reset(bf, e, 1);
        unsigned B = 32 / elem_bytes[e];
        for (int64_t r = 0; r < counts[t]; r++)
            for (unsigned i = 0; i < 8; i++)
                for (unsigned l = 0; l < B; l++)
                    memcpy(bf->want + (r * rep + i * blk) * 32 + l * elem_bytes[e],
                           bf->p[1] + (r * 8 + i) * elem_bytes[e], elem_bytes[e]);
        setup s = {.hi = 0, .lo = 3, .repeat = counts[t]};   /* the mask does not apply */
        call(&c, e, bf->p, bf->cm, &s, 0);
        char what[64];
        snprintf(what, sizeof what, "vbrcb %s blk %d rep %d x%lld", elem_name[e], blk, rep, (long long)counts[t]);
        CHECK(compare_out(E_U16, bf->p[0], bf->want, what));
    }
    release(&c);
}

/* copy_gm_to_ubuf (in) / copy_ubuf_to_gm of esize-byte elements: burst i
 * from src + i * src_step to dst + i * dst_step; GM steps len + gap bytes,
 * UB steps round_up(left + len + right, 32) + gap * 32, the pads (in
 * elements, loads only) being the pad register's value, 0 at the start, in
 * the left and right elements around each burst's bytes. */
static void check_copy(buffers *bf, bool in, unsigned esize, int64_t nb, int64_t len, int64_t left, int64_t right,
                       int64_t gm_gap, int64_t ub_gap)
{
    const char *t = esize == 1 ? "ui8" : esize == 2 ? "ui16" : "ui32";
    char text[2048], ops[256], types[128];
    snprintf(ops, sizeof ops, in ? "pto.a2a3.copy_gm_to_ubuf %%u[%%c0], %%g[%%c0], %%n, %%len, %%l, %%r, %%ga, %%gb"
                                 : "pto.a2a3.copy_ubuf_to_gm %%g[%%c0], %%u[%%c0], %%n, %%len, %%l, %%r, %%ga, %%gb");
    snprintf(types, sizeof types, in ? "!pto.ptr<%s, ub>, !pto.ptr<%s>" : "!pto.ptr<%s>, !pto.ptr<%s, ub>", t, t);
    snprintf(text, sizeof text,
             "func.func @k(%%u: !pto.ptr<%s, ub>, %%g: !pto.ptr<%s>, %%n: index, %%len: index, %%l: i64, %%r: i64, "
             "%%ga: i64, %%gb: i64) {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  %s : %s, index, index, i64, i64, i64, i64\n"
             "  return\n}\n",
             t, t, ops, types);
    compiled c;
    if (!compiled_ok(&c, text))
        return;
    unsigned char *src = bf->p[1], *dst = bf->p[0];
    fill(E_I32, src, BUF);
    memset(dst, POISON, BUF);
    memset(bf->want, POISON, BUF);
    int64_t lb = left * esize, rb = right * esize;
    int64_t gm_step = len + gm_gap, ub_step = (lb + len + rb + 31) / 32 * 32 + ub_gap * 32;
    for (int64_t i = 0; i < nb; i++) {
        unsigned char *w = bf->want + i * (in ? ub_step : gm_step);
        memset(w, 0, (size_t)lb);
        memcpy(w + lb, src + i * (in ? gm_step : ub_step), (size_t)len);
        memset(w + lb + len, 0, (size_t)rb);
    }
    void (*k)(void *, void *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);
    memcpy(&k, &c.fn, sizeof k);
    if (in)
        k(dst, src, nb, len, left, right, gm_gap, ub_gap);
    else
        k(src, dst, nb, len, left, right, ub_gap, gm_gap);
    char what[96];
    snprintf(what, sizeof what, "copy %s %s n %lld len %lld pads %lld %lld", in ? "in" : "out", t, (long long)nb,
             (long long)len, (long long)left, (long long)right);
    CHECK(compare_out(E_U16, dst, bf->want, what));
    release(&c);
}

/* copy_ubuf_to_ubuf: burst i of len blocks from src + i * (len + src_gap)
 * blocks to dst + i * (len + dst_gap) blocks; the bytes between untouched. */
static void check_copy_ub(buffers *bf, int64_t nb, int64_t len, int64_t src_gap, int64_t dst_gap)
{
    const char *text =
        "func.func @k(%d: !pto.ptr<f16, ub>, %s: !pto.ptr<f16, ub>, %n: index, %len: i64, %sg: i64, %dg: i64) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  pto.a2a3.copy_ubuf_to_ubuf %d[%c0], %s[%c0], %n, %len, %sg, %dg : !pto.ptr<f16, ub>, !pto.ptr<f16, ub>,"
        " index, i64, i64, i64\n"
        "  return\n}\n";
    compiled c;
    if (!compiled_ok(&c, text))
        return;
    unsigned char *src = bf->p[1], *dst = bf->p[0];
    fill(E_I32, src, BUF);
    memset(dst, POISON, BUF);
    memset(bf->want, POISON, BUF);
    for (int64_t i = 0; i < nb; i++)
        memcpy(bf->want + i * (len + dst_gap) * 32, src + i * (len + src_gap) * 32, (size_t)(len * 32));
    void (*k)(void *, void *, int64_t, int64_t, int64_t, int64_t);
    memcpy(&k, &c.fn, sizeof k);
    k(dst, src, nb, len, src_gap, dst_gap);
    char what[96];
    snprintf(what, sizeof what, "copy ub n %lld len %lld gaps %lld %lld", (long long)nb, (long long)len,
             (long long)src_gap, (long long)dst_gap);
    CHECK(compare_out(E_U16, dst, bf->want, what));
    release(&c);
}

/* ---------------------------------------------------------------- ub_addr, ub_ptr */

/* ub_addr gives ptr + off's byte offset in the vec space (as i64 and i32);
 * ub_ptr addresses the vec space at a byte offset: a vector_dup through it
 * lands there. */
static void check_ub_addresses(void)
{
    const char *text = "func.func @k(%p: !pto.ptr<f32, ub>, %o: index, %a: i64, %v: i32) -> i64 {\n"
                       "  %c0 = arith.constant 0 : index\n"
                       "  %c1 = arith.constant 1 : index\n"
                       "  %z = arith.constant 0 : i64\n"
                       "  %n = arith.constant 3 : i64\n"
                       "  %x = pto.a2a3.ub_addr %p[%o] : !pto.ptr<f32, ub> -> i64\n"
                       "  %y = pto.a2a3.ub_addr %p[%c0] : !pto.ptr<f32, ub> -> i32\n"
                       "  %w = arith.extui %y : i32 to i64\n"
                       "  %r = arith.addi %x, %w : i64\n"
                       "  %q = pto.a2a3.ub_ptr %a : i64 -> !pto.ptr<i32, ub>\n"
                       "  pto.a2a3.set_mask_count\n"
                       "  pto.a2a3.set_vector_mask %z, %n : i64, i64\n"
                       "  pto.a2a3.vector_dup %q[%c0], %v, %c1 : !pto.ptr<i32, ub>, i32, index\n"
                       "  pto.a2a3.set_mask_norm\n"
                       "  return %r : i64\n}\n";
    compiled c;
    if (!compiled_ok(&c, text))
        return;
    unsigned char *ub = ptoc_rt_space_base(PTOC_PTO_AS_VEC, 1 << 21);
    memset(ub + 8192, POISON, 32);
    int64_t (*k)(void *, int64_t, int64_t, int32_t);
    memcpy(&k, &c.fn, sizeof k);
    int64_t r = k(ub + 4096, 5, 8192 + 4, 0x01020304);
    CHECK(r == (4096 + 20) + 4096);                    /* ub_addr p[5], plus p[0] as i32 */
    unsigned char want[32];
    memset(want, POISON, sizeof want);
    for (int i = 0; i < 3; i++)
        memcpy(want + 4 + 4 * i, &(int32_t){0x01020304}, 4);
    CHECK(memcmp(ub + 8192, want, sizeof want) == 0);  /* 3 lanes at UB byte 8196 */
    release(&c);
}

int main(void)
{
    buffers bf = {{big(), big(), big()}, big(), calloc(64, 1)};
    static const elem all[] = {E_F32, E_F16, E_I32, E_I16};
    unsigned cfg = 0;
    for (int k = A_ADD; k <= A_OR; k++)
        for (unsigned t = 0; t < 4; t++) {
            if (k >= A_AND && is_float(all[t]))
                continue;
            for (int counter = 0; counter < 2; counter++)
                check_arith(&bf, (akind)k, all[t], counter, cfg++, false);
        }
    for (int k = A_EXP; k <= A_NOT; k++)
        for (unsigned t = 0; t < 4; t++) {
            bool fl = is_float(all[t]);
            if ((k <= A_REC && !fl) || (k == A_NOT && fl))
                continue;
            check_arith(&bf, (akind)k, all[t], cfg % 2, cfg, false);
            cfg++;
        }
    for (int k = A_ADD; k <= A_MIN; k++) {
        if (k == A_SUB || k == A_DIV)
            continue;    /* no vsubs, vdivs */
        for (unsigned t = 0; t < 4; t++) {
            check_arith(&bf, (akind)k, all[t], cfg % 2, cfg, true);
            cfg++;
        }
    }
    for (unsigned t = 0; t < 4; t++)
        for (int counter = 0; counter < 2; counter++)
            check_arith(&bf, A_DUP, all[t], counter, cfg++, false);
    static const elem cmp_types[] = {E_F32, E_F16, E_I32, E_I16, E_U16};
    for (int k = 0; k < 6; k++)
        for (unsigned t = 0; t < 5; t++)
            for (int scalar = 0; scalar < 2; scalar++) {
                check_cmp(&bf, k, cmp_types[t], cfg % 2, cfg, scalar);
                cfg++;
            }
    for (int m = S_SPR; m <= S_TT; m++)
        for (unsigned t = 0; t < 4; t++)
            for (int counter = 0; counter < 2; counter++)
                check_sel(&bf, (smode)m, all[t], counter, cfg++);
    for (unsigned t = 0; t < 4; t++) {
        check_brcb(&bf, all[t], 1, 8);
        check_brcb(&bf, all[t], 2, 20);
    }
    check_copy(&bf, true, 1, 5, 40, 0, 0, 24, 1);
    check_copy(&bf, true, 1, 3, 64, 0, 0, 0, 0);
    check_copy(&bf, true, 4, 4, 148, 0, 3, 252, 3);      /* a tile row's tail padded to its 32 bytes */
    check_copy(&bf, true, 2, 3, 26, 2, 1, 6, 0);         /* left and right pads: 32 bytes a burst */
    check_copy(&bf, true, 1, 2, 33, 0, 31, 0, 1);
    check_copy(&bf, false, 1, 4, 20, 0, 0, 12, 2);
    check_copy(&bf, false, 1, 1, 7, 0, 0, 0, 0);
    check_copy_ub(&bf, 1, 3, 0, 0);
    check_copy_ub(&bf, 4, 2, 0, 5);     /* one source run into strided rows */
    check_copy_ub(&bf, 3, 1, 2, 1);
    check_ub_addresses();
    for (int i = 0; i < 3; i++)
        free(bf.p[i]);
    free(bf.want);
    free(bf.cm);
    return CHECK_DONE();
}
