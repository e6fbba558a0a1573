/* reduce.c: the e2e families of the unary ops and the reductions.
 *
 *   unary      tabs tneg tnot trelu tsqrt trsqrt trecip texp tlog
 *   reduce     trow{sum,max,min,prod} into a one-column dst (rows x 32 bytes,
 *              valid rows x 1), tcol{sum,max,min,prod} into a one-row dst;
 *              trowargmax/trowargmin and tcolargmax/tcolargmin the same way
 *              into i32 or ui32 index tiles (alternating by dtype)
 *
 * Each op runs on every dtype its cpu verifier row accepts (pto_dtypes.def)
 * and on the five shape classes of diff.c (aligned 16x64, ragged 13x37 of
 * 16x64, one row 1x100 of 1x128, a wide 8 KiB row, a dynamic valid shape),
 * against test/reference/ref_reduce.c, bit for bit: exp and log are fixed
 * float sequences on both sides, so no ulp tolerance is needed.
 * reduce_reference_op is program.c's reference for these ops.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- cases */

static const ref_dtype red_dtypes[] = {REF_I8, REF_I16, REF_I32, REF_I64, REF_U8, REF_U16,
                                       REF_U32, REF_U64, REF_F16, REF_BF16, REF_F32};
enum { RED_DTYPES = sizeof red_dtypes / sizeof red_dtypes[0] };

static uint32_t class_bit(ref_dtype t)
{
    static const uint32_t bits[REF_DTYPE_COUNT] = {
        PTOC_PTO_DT_I8,  PTOC_PTO_DT_I16, PTOC_PTO_DT_I32,  PTOC_PTO_DT_I64, PTOC_PTO_DT_U8, PTOC_PTO_DT_U16,
        PTOC_PTO_DT_U32, PTOC_PTO_DT_U64, PTOC_PTO_DT_F16, PTOC_PTO_DT_BF16, PTOC_PTO_DT_F32};
    return bits[t];
}

/* Whether the cpu verifier takes dtype t for operand `role` of op: every
 * unconditional set row of that role must allow it. */
bool cpu_allows(ptoc_pto_op_id op, const char *role, ref_dtype t)
{
    bool seen = false;
    for (size_t i = 0; i < ptoc_pto_dtype_rule_count(); i++) {
        const ptoc_pto_dtype_rule *r = ptoc_pto_dtype_rule_at(i);
        if (r->op != op || r->same_as || r->when[0] || strcmp(r->role, role) != 0)
            continue;
        seen = true;
        if (!(ptoc_pto_dtype_rule_set(r, PTOC_PTO_ARCH_CPU) & class_bit(t)))
            return false;
    }
    return seen;
}

static e2e_case *red_case(e2e_case *cases, int *n, const char *key, ref_dtype t, const shape_class *k)
{
    char name[64];
    snprintf(name, sizeof name, "%s_%s_%s", key, ref_dtype_name(t), k->name);
    return new_case(cases, n, key, t, k, name);
}

/* ---------------------------------------------------------------- unary */

static const ptoc_pto_op_id unary_ops[] = {PTOC_PTO_OP_TABS,  PTOC_PTO_OP_TNEG,   PTOC_PTO_OP_TNOT,
                                           PTOC_PTO_OP_TRELU, PTOC_PTO_OP_TSQRT,  PTOC_PTO_OP_TRSQRT,
                                           PTOC_PTO_OP_TRECIP, PTOC_PTO_OP_TEXP,  PTOC_PTO_OP_TLOG};
enum { UNARY_OPS = sizeof unary_ops / sizeof unary_ops[0] };

void family_unary(e2e_suite *s)
{
    for (int di = 0; di < RED_DTYPES; di++) {
        ref_dtype t = red_dtypes[di];
        e2e_case *cases = case_array(CLASS_COUNT * UNARY_OPS);
        int n = 0;
        for (int oi = 0; oi < UNARY_OPS; oi++) {
            if (!cpu_allows(unary_ops[oi], "dst", t))
                continue;
            for (int ki = 0; ki < CLASS_COUNT; ki++) {
                shape_class k = class_of(ki, t);
                e2e_case *c = red_case(cases, &n, program_op_name(unary_ops[oi]), t, &k);
                e2e_program *p = &c->prog;
                int a = program_tile(p, t, k.rows, k.cols, k.vrows, k.vcols);
                int d = program_tile(p, t, k.rows, k.cols, k.vrows, k.vcols);
                program_load_tile(p, a);
                e2e_operand in[1] = {tile_operand(a)};
                program_op(p, unary_ops[oi], d, 1, in);
                program_store_tile(p, d);
            }
        }
        char module[64];
        snprintf(module, sizeof module, "unary_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

/* ---------------------------------------------------------------- reductions */

static const ptoc_pto_op_id reduce_ops[] = {PTOC_PTO_OP_TROWSUM, PTOC_PTO_OP_TROWMAX, PTOC_PTO_OP_TROWMIN,
                                            PTOC_PTO_OP_TROWPROD, PTOC_PTO_OP_TCOLSUM, PTOC_PTO_OP_TCOLMAX,
                                            PTOC_PTO_OP_TCOLMIN, PTOC_PTO_OP_TCOLPROD};
static const ref_binop reduce_kinds[] = {REF_ADD, REF_MAX, REF_MIN, REF_MUL, REF_ADD, REF_MAX, REF_MIN, REF_MUL};
enum { REDUCE_OPS = sizeof reduce_ops / sizeof reduce_ops[0], REDUCE_ROW_OPS = 4 };

static const ptoc_pto_op_id arg_ops[] = {PTOC_PTO_OP_TROWARGMAX, PTOC_PTO_OP_TROWARGMIN,
                                         PTOC_PTO_OP_TCOLARGMAX, PTOC_PTO_OP_TCOLARGMIN};
enum { ARG_OPS = sizeof arg_ops / sizeof arg_ops[0], ARG_ROW_OPS = 2 };

/* The arg reductions of source dtype t into index dtype `idx`: a one-column
 * (row ops) or one-row index tile; the tmp tile (required by the column ops,
 * optional for the row ops, given to both) is src's shape and type. */
static void add_arg_cases(e2e_case *cases, int *n, ref_dtype t, ref_dtype idx)
{
    for (int oi = 0; oi < ARG_OPS; oi++) {
        if (!cpu_allows(arg_ops[oi], "src", t) || !cpu_allows(arg_ops[oi], "dst", idx))
            continue;
        bool row = oi < ARG_ROW_OPS;
        for (int ki = 0; ki < CLASS_COUNT; ki++) {
            shape_class k = class_of(ki, t);
            e2e_case *c = red_case(cases, n, program_op_name(arg_ops[oi]), t, &k);
            e2e_program *p = &c->prog;
            int a = program_tile(p, t, k.rows, k.cols, k.vrows, k.vcols);
            int tmp = program_tile(p, t, k.rows, k.cols, k.rows, k.cols);
            int d = row ? program_tile(p, idx, k.rows, 32 / ref_dtype_size(idx), k.vrows, 1)
                        : program_tile(p, idx, 1, k.cols, 1, k.vcols);
            program_load_tile(p, a);
            e2e_operand in[2] = {tile_operand(a), tile_operand(tmp)};
            program_op(p, arg_ops[oi], d, 2, in);
            program_store_tile(p, d);
        }
    }
}

/* Variant 1 of a float row reduction: finite inputs only, so that sums show
 * their order of additions (the random data's NaNs and infinities hide it). */
static void finite_rows(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars, e2e_rng *rng)
{
    const e2e_program *p = &c->prog;
    (void)scalars;
    for (int i = 0; run->variant == 1 && i < p->nparams; i++) {
        uint32_t es = ref_dtype_size(p->params[i].dtype);
        if (p->params[i].kind != E2E_PTR || !ref_dtype_is_float(p->params[i].dtype))
            continue;
        for (int64_t e = 0; e < p->params[i].elems; e++) {
            double u = (double)(rng_next(rng) >> 11) * 0x1p-53;
            uint64_t v = ref_bits_of(p->params[i].dtype, (float)(u * 200.0 - 100.0));
            memcpy(bufs[i] + e * es, &v, es);   /* little-endian host: the low bytes */
        }
    }
}

void family_reduce(e2e_suite *s)
{
    for (int di = 0; di < RED_DTYPES; di++) {
        ref_dtype t = red_dtypes[di];
        e2e_case *cases = case_array(CLASS_COUNT * (REDUCE_OPS + ARG_OPS));
        int n = 0;
        for (int oi = 0; oi < REDUCE_OPS; oi++) {
            if (!cpu_allows(reduce_ops[oi], "src", t))
                continue;
            bool row = oi < REDUCE_ROW_OPS;
            for (int ki = 0; ki < CLASS_COUNT; ki++) {
                shape_class k = class_of(ki, t);
                e2e_case *c = red_case(cases, &n, program_op_name(reduce_ops[oi]), t, &k);
                e2e_program *p = &c->prog;
                int a = program_tile(p, t, k.rows, k.cols, k.vrows, k.vcols);
                int d = row ? program_tile(p, t, k.rows, 32 / ref_dtype_size(t), k.vrows, 1)
                            : program_tile(p, t, 1, k.cols, 1, k.vcols);
                program_load_tile(p, a);
                e2e_operand in[1] = {tile_operand(a)};
                program_op(p, reduce_ops[oi], d, 1, in);
                program_store_tile(p, d);
                if (row && ref_dtype_is_float(t)) {
                    c->fill = finite_rows;
                    set_runs(c, &k, 2);
                }
            }
        }
        add_arg_cases(cases, &n, t, di % 2 ? REF_U32 : REF_I32);
        char module[64];
        snprintf(module, sizeof module, "reduce_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

/* ---------------------------------------------------------------- reference */

static bool unary_of(ptoc_pto_op_id op, ref_unop *k)
{
    static const ref_unop kinds[UNARY_OPS] = {REF_ABS,  REF_NEG,   REF_NOT, REF_RELU, REF_SQRT,
                                              REF_RSQRT, REF_RECIP, REF_EXP, REF_LOG};
    for (int i = 0; i < UNARY_OPS; i++)
        if (unary_ops[i] == op) {
            *k = kinds[i];
            return true;
        }
    return false;
}

void reduce_reference_op(const e2e_step *s, const ref_tile *t)
{
    const ref_tile *d = &t[s->tile];
    ref_unop u;
    if (unary_of(s->op, &u))
        ref_unary(u, d, &t[s->in[0].index]);
    for (int i = 0; i < ARG_OPS; i++)
        if (arg_ops[i] == s->op)
            (i < ARG_ROW_OPS ? ref_trow_argreduce : ref_tcol_argreduce)(i % 2 == 0, d, &t[s->in[0].index]);
    for (int i = 0; i < REDUCE_OPS; i++)
        if (reduce_ops[i] == s->op)
            (i < REDUCE_ROW_OPS ? ref_trow_reduce : ref_tcol_reduce)(reduce_kinds[i], d, &t[s->in[0].index]);
}
