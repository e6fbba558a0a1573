/* convert.c: the tcvt family of the differential tests (e2e_diff convert).
 *
 * Every source/destination pair the cpu target converts (the union of the
 * A2/A3 and A5 kernels' pairs, 8-bit floats aside) runs on the five shape
 * classes with no attributes (RINT, the pair's default saturation), and on
 * the ragged class with each rounding mode, saturation on and off. Float
 * sources get, besides the harness's random values, exact ties of every
 * narrower format (a half of the last place kept), halves of integers, and
 * values past f16's and the integers' ranges, so every mode's ties and every
 * overflow are met.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

void family_convert(e2e_suite *s);

static int shape_tile(e2e_program *p, ref_dtype t, const shape_class *k)
{
    return program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
}

typedef struct cvt_pair { ref_dtype src, dst; } cvt_pair;

static const cvt_pair pairs[] = {
    {REF_F32, REF_F16}, {REF_F32, REF_F32}, {REF_F32, REF_BF16}, {REF_F32, REF_I16}, {REF_F32, REF_I32},
    {REF_F32, REF_I64}, {REF_F16, REF_F32}, {REF_F16, REF_I32},  {REF_F16, REF_I16}, {REF_F16, REF_I8},
    {REF_F16, REF_U8},  {REF_BF16, REF_F32}, {REF_BF16, REF_I32}, {REF_BF16, REF_F16}, {REF_U8, REF_F16},
    {REF_U8, REF_U16},  {REF_I8, REF_F16},  {REF_I8, REF_I16},   {REF_I8, REF_I32},  {REF_I16, REF_U8},
    {REF_I16, REF_F16}, {REF_I16, REF_F32}, {REF_I16, REF_U32},  {REF_I16, REF_I32}, {REF_I32, REF_F32},
    {REF_I32, REF_I16}, {REF_I32, REF_U16}, {REF_I32, REF_I64},  {REF_I32, REF_U8},  {REF_I32, REF_F16},
    {REF_U32, REF_U8},  {REF_U32, REF_U16}, {REF_U32, REF_I16},  {REF_I64, REF_F32}, {REF_I64, REF_I32},
};
enum { NPAIRS = sizeof pairs / sizeof pairs[0] };

/* rmode values as program.h numbers them: RINT ROUND FLOOR CEIL TRUNC ODD. */
static const int modes[] = {2, 3, 4, 5, 6, 7};
static const char *const mode_names[] = {"rint", "round", "floor", "ceil", "trunc", "odd"};
enum { NMODES = sizeof modes / sizeof modes[0] };

/* A float source element that meets a rounding edge: a tie of f16 or bf16
 * (from f32), a half of an integer, a value past f16's range or an integer
 * type's. Bits of the source dtype. */
static uint64_t edge_value(e2e_rng *r, ref_dtype t)
{
    uint32_t bits = (uint32_t)rng_next(r);
    float f;
    switch (rng_below(r, 5)) {
    case 0: f = ref_bits_float((bits & ~0x1fffu) | 0x1000u); break;      /* an f16 tie */
    case 1: f = ref_bits_float((bits & ~0xffffu) | 0x8000u); break;      /* a bf16 tie */
    case 2: f = (float)((int)rng_below(r, 64) - 32) + 0.5f; break;
    case 3: f = ref_bits_float((bits & 0x807fffffu) | (uint32_t)(127 + 15 + rng_below(r, 50)) << 23); break;
    default: f = (float)((int)rng_below(r, 600) - 300) * 0.25f; break;
    }
    return t == REF_F16 ? ref_float_to_f16(f) : t == REF_BF16 ? ref_float_to_bf16(f) : ref_float_bits(f);
}

/* Replaces half of a float source's elements by edge values. */
static void fill_edges(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars, e2e_rng *rng)
{
    const e2e_program *p = &c->prog;
    ref_dtype t = p->params[0].dtype;
    uint32_t es = ref_dtype_size(t);
    (void)run;
    (void)scalars;
    if (!ref_dtype_is_float(t))
        return;
    for (int64_t e = 0; e < p->params[0].elems; e++) {
        if (rng_below(rng, 2))
            continue;
        uint64_t v = edge_value(rng, t);
        for (uint32_t b = 0; b < es; b++)
            bufs[0][e * es + b] = (uint8_t)(v >> (8 * b));
    }
}

static void build(e2e_case *c, cvt_pair pr, const shape_class *k, int rmode, int sat)
{
    e2e_program *p = &c->prog;
    int s = shape_tile(p, pr.src, k), d = shape_tile(p, pr.dst, k);
    program_load_tile(p, s);
    e2e_operand in = tile_operand(s);
    e2e_step *st = program_op(p, PTOC_PTO_OP_TCVT, d, 1, &in);
    st->rmode = rmode;
    st->sat = sat;
    program_store_tile(p, d);
    c->fill = fill_edges;
}

void family_convert(e2e_suite *s)
{
    /* one statistics key per dst dtype (the summary's table is key x src dtype);
     * keys outlive the cases */
    static char keys[REF_DTYPE_COUNT][24];
    for (int pi = 0; pi < NPAIRS; pi++) {
        cvt_pair pr = pairs[pi];
        char *key = keys[pr.dst];
        snprintf(key, sizeof keys[0], "tcvt to %s", ref_dtype_name(pr.dst));
        e2e_case *cases = calloc(CLASS_COUNT + 2 * NMODES, sizeof *cases);
        if (!cases)
            exit(2);
        int n = 0;
        for (int ki = 0; ki < CLASS_COUNT; ki++) {
            shape_class k = class_of(ki, pr.src);
            char name[64];
            snprintf(name, sizeof name, "tcvt_%s_%s_%s", ref_dtype_name(pr.src), ref_dtype_name(pr.dst), k.name);
            build(new_case(cases, &n, key, pr.src, &k, name), pr, &k, 0, 0);
        }
        shape_class ragged = class_of(1, pr.src);
        for (int mi = 0; mi < NMODES; mi++)
            for (int sat = 1; sat <= 2; sat++) {
                char name[64];
                snprintf(name, sizeof name, "tcvt_%s_%s_%s_%s", ref_dtype_name(pr.src), ref_dtype_name(pr.dst),
                         mode_names[mi], sat == 1 ? "sat" : "nosat");
                build(new_case(cases, &n, key, pr.src, &ragged, name), pr, &ragged, modes[mi], sat);
            }
        char module[64];
        snprintf(module, sizeof module, "convert_%s_%s", ref_dtype_name(pr.src), ref_dtype_name(pr.dst));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}
