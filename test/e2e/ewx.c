/* ewx.c: the e2e family of the remaining elementwise ops.
 *
 *   tile-tile     trem tfmod tand tor txor tshl tshr tprelu, taddc tsubc
 *   tile-scalar   trems tfmods tands tors txors tshls tshrs tlrelu, taddsc
 *                 tsubsc, taxpy (dst read first; f16 src into f32 dst too)
 *   partial       tpart{add,mul,max,min}, with src0 or src1 the smaller
 *                 valid region (half of dst's, rounded up; in the dynamic
 *                 class 8 x 32, which may exceed the run's dst)
 *
 * Each op runs on every dtype its cpu verifier rows accept (pto_dtypes.def;
 * the ops without rows, taddc tsubc taddsc tsubsc, on every dtype) and on the
 * five shape classes, against test/reference/ref_ewx.c, bit for bit. The tmp
 * operand of trem txor trems txors tprelu is a tile of dst's type. Shift
 * amounts are mostly 0 .. width + 1, the rest random (negative, huge).
 * ewx_reference_op is program.c's reference for these ops.
 */
#include "harness.h"

#include <stdlib.h>

static const ref_dtype ewx_dtypes[] = {REF_I8, REF_I16, REF_I32, REF_I64, REF_U8, REF_U16,
                                       REF_U32, REF_U64, REF_F16, REF_BF16, REF_F32};
enum { EWX_DTYPES = sizeof ewx_dtypes / sizeof ewx_dtypes[0] };

/* How a case is built. */
typedef enum ewx_form {
    F_BINARY, F_BINARY_TMP, F_SCALAR, F_SCALAR_TMP, F_TERNARY, F_TERNARY_SCALAR, F_AXPY, F_PART
} ewx_form;

typedef struct ewx_case_op {
    ptoc_pto_op_id op;
    ewx_form form;
    ref_ewx_op kind;           /* F_BINARY.. F_SCALAR_TMP */
} ewx_case_op;

static const ewx_case_op ewx_ops[] = {
    {PTOC_PTO_OP_TREM, F_BINARY_TMP, REF_X_REM},    {PTOC_PTO_OP_TFMOD, F_BINARY, REF_X_FMOD},
    {PTOC_PTO_OP_TAND, F_BINARY, REF_X_AND},        {PTOC_PTO_OP_TOR, F_BINARY, REF_X_OR},
    {PTOC_PTO_OP_TXOR, F_BINARY_TMP, REF_X_XOR},    {PTOC_PTO_OP_TSHL, F_BINARY, REF_X_SHL},
    {PTOC_PTO_OP_TSHR, F_BINARY, REF_X_SHR},        {PTOC_PTO_OP_TPRELU, F_BINARY_TMP, REF_X_PRELU},
    {PTOC_PTO_OP_TREMS, F_SCALAR_TMP, REF_X_REM},   {PTOC_PTO_OP_TFMODS, F_SCALAR, REF_X_FMOD},
    {PTOC_PTO_OP_TANDS, F_SCALAR, REF_X_AND},       {PTOC_PTO_OP_TORS, F_SCALAR, REF_X_OR},
    {PTOC_PTO_OP_TXORS, F_SCALAR_TMP, REF_X_XOR},   {PTOC_PTO_OP_TSHLS, F_SCALAR, REF_X_SHL},
    {PTOC_PTO_OP_TSHRS, F_SCALAR, REF_X_SHR},       {PTOC_PTO_OP_TLRELU, F_SCALAR, REF_X_PRELU},
    {PTOC_PTO_OP_TADDC, F_TERNARY, 0},              {PTOC_PTO_OP_TSUBC, F_TERNARY, 0},
    {PTOC_PTO_OP_TADDSC, F_TERNARY_SCALAR, 0},      {PTOC_PTO_OP_TSUBSC, F_TERNARY_SCALAR, 0},
    {PTOC_PTO_OP_TAXPY, F_AXPY, 0},                 {PTOC_PTO_OP_TPARTADD, F_PART, 0},
    {PTOC_PTO_OP_TPARTMUL, F_PART, 0},              {PTOC_PTO_OP_TPARTMAX, F_PART, 0},
    {PTOC_PTO_OP_TPARTMIN, F_PART, 0},
};
enum { EWX_OPS = sizeof ewx_ops / sizeof ewx_ops[0] };

static bool has_rows(ptoc_pto_op_id op)
{
    return op != PTOC_PTO_OP_TADDC && op != PTOC_PTO_OP_TSUBC && op != PTOC_PTO_OP_TADDSC &&
           op != PTOC_PTO_OP_TSUBSC;
}

/* ---------------------------------------------------------------- cases */

static int data_tile(e2e_program *p, ref_dtype t, const shape_class *k)
{
    return program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
}

/* Shift amounts (param 1): 0 .. width + 1 for 7 elements in 8, the random value else. */
static void shift_amounts(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars,
                          e2e_rng *rng)
{
    const e2e_program *p = &c->prog;
    uint32_t es = ref_dtype_size(c->dtype);
    (void)run;
    const e2e_param *q = &p->params[1];   /* the amounts: src1's buffer, or the scalar */
    if (q->kind == E2E_SCALAR) {
        scalars[1] = rng_below(rng, 8 * es + 2);
        return;
    }
    for (int64_t e = 0; e < q->elems; e++) {
        if (rng_below(rng, 8) == 0)
            continue;
        uint64_t v = rng_below(rng, 8 * es + 2);
        for (uint32_t b = 0; b < es; b++)
            bufs[1][e * es + b] = (uint8_t)(v >> (8 * b));
    }
}

/* The smaller valid extent of a tpart source. */
static int64_t half_of(int64_t v, int64_t phys)
{
    return v < 0 ? phys / 2 : (v + 1) / 2;
}

static void build(e2e_case *c, const ewx_case_op *eo, ref_dtype t, ref_dtype src_t, const shape_class *k,
                  int small)
{
    e2e_program *p = &c->prog;
    int a = data_tile(p, src_t, k), b = -1, x = -1, tmp = -1, d;
    int64_t hr = half_of(k->vrows, k->rows), hc = half_of(k->vcols, k->cols);
    e2e_operand in[4];
    int nin = 0;
    switch (eo->form) {
    case F_PART:
        if (small == 0)
            a = program_tile(p, t, k->rows, k->cols, hr, hc);
        b = small == 1 ? program_tile(p, t, k->rows, k->cols, hr, hc) : data_tile(p, t, k);
        break;
    case F_BINARY: case F_BINARY_TMP: case F_TERNARY: b = data_tile(p, t, k); break;
    default: break;
    }
    if (eo->form == F_TERNARY || eo->form == F_TERNARY_SCALAR)
        x = data_tile(p, t, k);
    if (eo->form == F_BINARY_TMP || eo->form == F_SCALAR_TMP)
        tmp = data_tile(p, t, k);
    d = data_tile(p, t, k);
    program_load_tile(p, a);
    in[nin++] = tile_operand(a);
    if (b >= 0) {
        program_load_tile(p, b);
        in[nin++] = tile_operand(b);
    } else if (eo->form != F_PART) {
        in[nin++] = scalar_operand(program_scalar(p, src_t));
    }
    if (x >= 0) {
        program_load_tile(p, x);
        in[nin++] = tile_operand(x);
    }
    if (tmp >= 0) {
        program_load_tile(p, tmp);   /* Level 1 reads only tiles defined before */
        in[nin++] = tile_operand(tmp);
    }
    if (eo->form == F_AXPY)
        program_load_tile(p, d);
    program_op(p, eo->op, d, nin, in);
    program_store_tile(p, d);
    if (eo->kind == REF_X_SHL || eo->kind == REF_X_SHR)
        c->fill = shift_amounts;
}

/* The dtypes of an op's cases: dst's, and src's when it may differ (taxpy). */
static void add_cases(e2e_case *cases, int *n, const ewx_case_op *eo, ref_dtype t, const char *key)
{
    static char widen_key[] = "taxpy (f16 src)";
    bool axpy_widen = eo->form == F_AXPY && t == REF_F32;
    int variants = eo->form == F_PART ? 2 : 1;
    for (int w = 0; w <= (axpy_widen ? 1 : 0); w++)
        for (int v = 0; v < variants; v++)
            for (int ki = 0; ki < CLASS_COUNT; ki++) {
                shape_class k = class_of(ki, t);
                char name[64];
                snprintf(name, sizeof name, "%s%s%s_%s_%s", key, w ? "_f16src" : "",
                         variants > 1 ? (v ? "_s1small" : "_s0small") : "", ref_dtype_name(t), k.name);
                e2e_case *c = new_case(cases, n, w ? widen_key : key, t, &k, name);
                build(c, eo, t, w ? REF_F16 : t, &k, eo->form == F_PART ? v : -1);
            }
}

void family_ewx(e2e_suite *s)
{
    for (int di = 0; di < EWX_DTYPES; di++) {
        ref_dtype t = ewx_dtypes[di];
        e2e_case *cases = case_array(CLASS_COUNT * EWX_OPS * 2);
        int n = 0;
        for (int oi = 0; oi < EWX_OPS; oi++) {
            const ewx_case_op *eo = &ewx_ops[oi];
            if (has_rows(eo->op) && !cpu_allows(eo->op, "dst", t))
                continue;
            add_cases(cases, &n, eo, t, program_op_name(eo->op));
        }
        char module[64];
        snprintf(module, sizeof module, "ewx_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

/* ---------------------------------------------------------------- reference */

static ref_binop part_kind(ptoc_pto_op_id op)
{
    switch (op) {
    case PTOC_PTO_OP_TPARTMUL: return REF_MUL;
    case PTOC_PTO_OP_TPARTMAX: return REF_MAX;
    case PTOC_PTO_OP_TPARTMIN: return REF_MIN;
    default: return REF_ADD;
    }
}

bool ewx_reference_op(const e2e_step *s, const ref_tile *t, const uint64_t *scalars)
{
    const ewx_case_op *eo = NULL;
    for (int i = 0; i < EWX_OPS; i++)
        if (ewx_ops[i].op == s->op)
            eo = &ewx_ops[i];
    if (!eo)
        return false;
    const ref_tile *d = &t[s->tile];
#define IN(i) (&t[s->in[i].index])
#define SC(i) (scalars[s->in[i].index])
    bool sub = s->op == PTOC_PTO_OP_TSUBC || s->op == PTOC_PTO_OP_TSUBSC;
    switch (eo->form) {
    case F_BINARY: case F_BINARY_TMP: ref_ewx_binary(eo->kind, d, IN(0), IN(1)); break;
    case F_SCALAR: case F_SCALAR_TMP: ref_ewx_scalar(eo->kind, d, IN(0), SC(1)); break;
    case F_TERNARY: ref_ewx_ternary(sub, d, IN(0), IN(1), 0, IN(2)); break;
    case F_TERNARY_SCALAR: ref_ewx_ternary(sub, d, IN(0), NULL, SC(1), IN(2)); break;
    case F_AXPY: ref_taxpy(d, IN(0), SC(1)); break;
    case F_PART: ref_tpart(part_kind(s->op), d, IN(0), IN(1)); break;
    }
#undef IN
#undef SC
    return true;
}
