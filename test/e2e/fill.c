/* fill.c: the e2e family of the fill, generate and quantisation ops.
 *
 *   texpands                      a scalar of the tile's dtype into the valid region
 *   tfillpad, tfillpad_expand,    src (any of the five valid shapes) into a dst of
 *   tfillpad_inplace              pad zero, max and min (one per case, by class);
 *                                 expand's dst is 3 rows and 32 bytes larger;
 *                                 inplace's dst is a full-valid alias of src
 *   tci                           ascending and descending, into a one-row tile
 *   ttri                          lower and upper, a small diagonal (-20 .. 19)
 *   trandom                       7 and 10 rounds, random keys and counters
 *   tquant                        INT8_SYM into i8, INT8_ASYM into ui8
 *   tdequant                      i8 and i16 into f32
 *
 * over every dtype the cpu verifier accepts (pto_dtypes.def) and the five
 * shape classes, against test/reference/ref_fill.c, bit for bit. Each case
 * stores its dst's valid region and its whole physical extent. With --level1
 * only texpands runs (the other ops have no Level-1 use in kernels yet).
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static const ref_dtype all_dtypes[] = {REF_I8, REF_I16, REF_I32, REF_I64, REF_U8,   REF_U16,
                                       REF_U32, REF_U64, REF_F16, REF_BF16, REF_F32};
enum { ALL_DTYPES = sizeof all_dtypes / sizeof all_dtypes[0] };

static e2e_case *fill_case(e2e_case *cases, int *n, ptoc_pto_op_id op, const char *variant, ref_dtype t,
                           const shape_class *k)
{
    char name[64];
    const char *key = program_op_name(op);
    snprintf(name, sizeof name, "%s%s_%s_%s", key, variant, ref_dtype_name(t), k->name);
    return new_case(cases, n, key, t, k, name);
}

/* ---------------------------------------------------------------- input hooks */

static float moderate(e2e_rng *rng, float scale)
{
    return ((float)rng_below(rng, 4001) - 2000.0f) * scale;
}

/* f32 buffer `param`: three elements in four moderate values (x scale). */
static void moderate_f32(const e2e_case *c, uint8_t **bufs, int param, float scale, e2e_rng *rng)
{
    float *f = (float *)bufs[param];
    for (int64_t i = 0; i < c->prog.params[param].elems; i++)
        if (rng_below(rng, 4) != 0)
            f[i] = moderate(rng, scale);
}

/* ttri: the diagonal (scalar param 0) in -20 .. 19. */
static void fill_diagonal(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars,
                          e2e_rng *rng)
{
    (void)c, (void)run, (void)bufs;
    scalars[0] = (uint32_t)((int32_t)rng_below(rng, 40) - 20);
}

/* tquant: params src 0, fp 1[, offset 2]; tdequant: src 0, scale 1, offset 2. */
static void fill_quant(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars, e2e_rng *rng)
{
    (void)run, (void)scalars;
    bool quant = c->aux;
    if (quant)
        moderate_f32(c, bufs, 0, 1.0f / 16, rng);
    moderate_f32(c, bufs, 1, 1.0f / 1024, rng);
    if (c->prog.nparams > 2 && c->prog.params[2].kind == E2E_PTR && c->prog.params[2].dtype == REF_F32)
        moderate_f32(c, bufs, 2, 1.0f / 16, rng);
}

/* ---------------------------------------------------------------- cases */

static void add_texpands(e2e_case *cases, int *n, ref_dtype t, const shape_class *k)
{
    e2e_case *c = fill_case(cases, n, PTOC_PTO_OP_TEXPANDS, "", t, k);
    e2e_program *p = &c->prog;
    int s = program_scalar(p, t);
    int d = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    e2e_operand in[1] = {scalar_operand(s)};
    program_op(p, PTOC_PTO_OP_TEXPANDS, d, 1, in);
    program_store_tile(p, d);
}

static void add_fillpad(e2e_case *cases, int *n, ptoc_pto_op_id op, ref_dtype t, const shape_class *k, int ki)
{
    e2e_case *c = fill_case(cases, n, op, "", t, k);
    e2e_program *p = &c->prog;
    int pad = 1 + ki % 3;      /* zero, max, min */
    int a = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    int d;
    if (op == PTOC_PTO_OP_TFILLPAD_INPLACE) {
        d = program_alias(p, a, t, k->rows, k->cols, k->rows, k->cols, k->layout, k->box);
    } else {
        int64_t rows = k->rows, cols = k->cols;
        if (op == PTOC_PTO_OP_TFILLPAD_EXPAND) {
            rows += 3;
            cols += 32 / ref_dtype_size(t);
        }
        d = program_tile(p, t, rows, cols, rows, cols);
    }
    p->tiles[d].pad = pad;
    program_load_tile(p, a);
    e2e_operand in[1] = {tile_operand(a)};
    program_op(p, op, d, 1, in)->mode = pad;
    program_store_tile(p, d);
}

static void add_tci(e2e_case *cases, int *n, ref_dtype t, const shape_class *k, int descending)
{
    e2e_case *c = fill_case(cases, n, PTOC_PTO_OP_TCI, descending ? "_desc" : "", t, k);
    e2e_program *p = &c->prog;
    int s = program_scalar(p, t);
    int d = program_tile(p, t, 1, k->cols, 1, k->vcols);
    e2e_operand in[1] = {scalar_operand(s)};
    program_op(p, PTOC_PTO_OP_TCI, d, 1, in)->mode = descending;
    program_store_tile(p, d);
}

static void add_ttri(e2e_case *cases, int *n, ref_dtype t, const shape_class *k, int upper)
{
    e2e_case *c = fill_case(cases, n, PTOC_PTO_OP_TTRI, upper ? "_upper" : "_lower", t, k);
    e2e_program *p = &c->prog;
    c->fill = fill_diagonal;
    int s = program_scalar(p, REF_I32);
    int d = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    e2e_operand in[1] = {scalar_operand(s)};
    program_op(p, PTOC_PTO_OP_TTRI, d, 1, in)->mode = upper;
    program_store_tile(p, d);
}

static void add_trandom(e2e_case *cases, int *n, ref_dtype t, const shape_class *k, int rounds)
{
    e2e_case *c = fill_case(cases, n, PTOC_PTO_OP_TRANDOM, rounds == 7 ? "_r7" : "_r10", t, k);
    e2e_program *p = &c->prog;
    e2e_operand in[6];
    for (int i = 0; i < 6; i++)
        in[i] = scalar_operand(program_scalar(p, REF_I32));
    int d = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    program_op(p, PTOC_PTO_OP_TRANDOM, d, 6, in)->mode = rounds;
    program_store_tile(p, d);
}

/* The parameter tiles of tquant/tdequant: one f32 per valid row, in a
 * 32-byte-wide tile. */
static int param_tile(e2e_program *p, const shape_class *k)
{
    int t = program_tile(p, REF_F32, k->rows, 8, k->vrows, 1);
    program_load_tile(p, t);
    return t;
}

static void add_tquant(e2e_case *cases, int *n, int asym, const shape_class *k)
{
    ref_dtype out = asym ? REF_U8 : REF_I8;
    e2e_case *c = fill_case(cases, n, PTOC_PTO_OP_TQUANT, asym ? "_asym" : "_sym", out, k);
    e2e_program *p = &c->prog;
    c->fill = fill_quant;
    c->aux = 1;
    int a = program_tile(p, REF_F32, k->rows, k->cols, k->vrows, k->vcols);
    program_load_tile(p, a);
    e2e_operand in[3] = {tile_operand(a), tile_operand(param_tile(p, k)), {0}};
    if (asym)
        in[2] = tile_operand(param_tile(p, k));
    int d = program_tile(p, out, k->rows, k->cols, k->vrows, k->vcols);
    program_op(p, PTOC_PTO_OP_TQUANT, d, asym ? 3 : 2, in)->mode = asym;
    program_store_tile(p, d);
}

static void add_tdequant(e2e_case *cases, int *n, ref_dtype src, const shape_class *k)
{
    e2e_case *c = fill_case(cases, n, PTOC_PTO_OP_TDEQUANT, "", src, k);
    e2e_program *p = &c->prog;
    c->fill = fill_quant;
    int a = program_tile(p, src, k->rows, k->cols, k->vrows, k->vcols);
    program_load_tile(p, a);
    int scale = param_tile(p, k), offset = param_tile(p, k);
    int d = program_tile(p, REF_F32, k->rows, k->cols, k->vrows, k->vcols);
    e2e_operand in[3] = {tile_operand(a), tile_operand(scale), tile_operand(offset)};
    program_op(p, PTOC_PTO_OP_TDEQUANT, d, 3, in);
    program_store_tile(p, d);
}

/* The cases of one dtype (the quantisation ops go with i8 and i16). */
static int dtype_cases(e2e_suite *s, e2e_case *cases, ref_dtype t)
{
    static const ptoc_pto_op_id pads[] = {PTOC_PTO_OP_TFILLPAD, PTOC_PTO_OP_TFILLPAD_EXPAND,
                                          PTOC_PTO_OP_TFILLPAD_INPLACE};
    int n = 0;
    for (int ki = 0; ki < CLASS_COUNT; ki++) {
        shape_class k = class_of(ki, t), k32 = class_of(ki, REF_F32);
        if (cpu_allows(PTOC_PTO_OP_TEXPANDS, "dst", t))
            add_texpands(cases, &n, t, &k);
        if (s->level1)
            continue;
        for (int i = 0; i < 3; i++)
            if (cpu_allows(pads[i], "dst", t))
                add_fillpad(cases, &n, pads[i], t, &k, ki);
        if (cpu_allows(PTOC_PTO_OP_TCI, "dst", t) && !ref_dtype_is_float(t))   /* integer only (the ISA) */
            for (int desc = 0; desc < 2; desc++)
                add_tci(cases, &n, t, &k, desc);
        if (cpu_allows(PTOC_PTO_OP_TTRI, "dst", t))
            for (int upper = 0; upper < 2; upper++)
                add_ttri(cases, &n, t, &k, upper);
        if (cpu_allows(PTOC_PTO_OP_TRANDOM, "dst", t)) {
            add_trandom(cases, &n, t, &k, 7);
            add_trandom(cases, &n, t, &k, 10);
        }
        if (t == REF_I8 || t == REF_U8)
            add_tquant(cases, &n, t == REF_U8, &k32);
        if (cpu_allows(PTOC_PTO_OP_TDEQUANT, "src", t))
            add_tdequant(cases, &n, t, &k32);
    }
    return n;
}

void family_fill(e2e_suite *s)
{
    for (int di = 0; di < ALL_DTYPES; di++) {
        ref_dtype t = all_dtypes[di];
        e2e_case *cases = case_array(CLASS_COUNT * 16);
        int n = dtype_cases(s, cases, t);
        char module[64];
        snprintf(module, sizeof module, "fill_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

/* ---------------------------------------------------------------- reference */

void fill_reference_op(const e2e_step *s, const ref_tile *t, const uint64_t *scalars)
{
    const ref_tile *d = &t[s->tile];
#define IN(i) (&t[s->in[i].index])
#define SC(i) (scalars[s->in[i].index])
    switch (s->op) {
    case PTOC_PTO_OP_TEXPANDS: ref_texpands(d, SC(0)); break;
    case PTOC_PTO_OP_TFILLPAD: case PTOC_PTO_OP_TFILLPAD_EXPAND: case PTOC_PTO_OP_TFILLPAD_INPLACE:
        ref_tfillpad(d, IN(0), ref_pad_bits(d->dtype, s->mode));
        break;
    case PTOC_PTO_OP_TCI: ref_tci(d, SC(0), s->mode != 0); break;
    case PTOC_PTO_OP_TTRI: ref_ttri(d, (int32_t)SC(0), s->mode != 0); break;
    case PTOC_PTO_OP_TRANDOM: {
        uint32_t key[2] = {(uint32_t)SC(0), (uint32_t)SC(1)};
        uint32_t ctr[4] = {(uint32_t)SC(2), (uint32_t)SC(3), (uint32_t)SC(4), (uint32_t)SC(5)};
        ref_trandom(d, key, ctr, s->mode);
        break;
    }
    case PTOC_PTO_OP_TQUANT: ref_tquant(d, IN(0), IN(1), s->nin > 2 ? IN(2) : NULL); break;
    case PTOC_PTO_OP_TDEQUANT: ref_tdequant(d, IN(0), IN(1), IN(2)); break;
    default: break;
    }
#undef IN
#undef SC
}
