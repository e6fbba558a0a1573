/* rowexpand.c: the e2e family of the trowexpand ops.
 *
 *   rowexpand  trowexpand (a col_major one-column source), and
 *              trowexpand{add,sub,mul,div,max,min,expdif} in their forms:
 *              src1 a col_major one-column row vector (one value per row),
 *              src1 a row_major 32-byte block per row, the roles swapped
 *              (src0 the row vector), and the 3-operand form with a tmp tile
 *
 * Each op runs on every dtype its cpu verifier row accepts (pto_dtypes.def)
 * and on the five shape classes of the harness, against
 * test/reference/ref_rowexpand.c, bit for bit (expdif's exp is the fixed
 * sequence on both sides; 1 ulp still tolerated as in the tcolexpand family). The block form's
 * data differs along each block, so reading the wrong column shows.
 * rowexpand_reference_op is program.c's reference for these ops.
 */
#include "harness.h"

#include <stdlib.h>

static const ref_dtype rx_dtypes[] = {REF_I8,  REF_I16, REF_I32, REF_I64,  REF_U8, REF_U16,
                                      REF_U32, REF_U64, REF_F16, REF_BF16, REF_F32};
enum { RX_DTYPES = sizeof rx_dtypes / sizeof rx_dtypes[0] };

static const ptoc_pto_op_id rx_ops[] = {PTOC_PTO_OP_TROWEXPAND,    PTOC_PTO_OP_TROWEXPANDADD,
                                        PTOC_PTO_OP_TROWEXPANDSUB, PTOC_PTO_OP_TROWEXPANDMUL,
                                        PTOC_PTO_OP_TROWEXPANDDIV, PTOC_PTO_OP_TROWEXPANDMAX,
                                        PTOC_PTO_OP_TROWEXPANDMIN, PTOC_PTO_OP_TROWEXPANDEXPDIF};
static const ref_binop rx_kinds[] = {REF_ADD, REF_ADD, REF_SUB, REF_MUL,
                                     REF_DIV, REF_MAX, REF_MIN, REF_EXPDIF};
enum { RX_OPS = sizeof rx_ops / sizeof rx_ops[0] };

/* The operand forms of the binary ops. */
typedef enum rx_form { RX_COL, RX_BLOCK, RX_SWAP, RX_TMP, RX_FORM_COUNT } rx_form;

/* A col_major one-column tile with one value per valid row of class k (its
 * column padded to 32 bytes). */
static int col_vector(e2e_program *p, ref_dtype t, const shape_class *k)
{
    int64_t per_block = 32 / ref_dtype_size(t);
    int64_t rows = (k->rows + per_block - 1) / per_block * per_block;
    int i = program_tile(p, t, rows, 1, k->vrows, 1);
    p->tiles[i].layout = REF_COL_MAJOR;
    return i;
}

/* A row_major tile of one 32-byte block per valid row of class k. */
static int block_vector(e2e_program *p, ref_dtype t, const shape_class *k)
{
    int64_t per_block = 32 / ref_dtype_size(t);
    return program_tile(p, t, k->rows, per_block, k->vrows, per_block);
}

static void build(e2e_case *c, ptoc_pto_op_id op, rx_form form, ref_dtype t, const shape_class *k)
{
    e2e_program *p = &c->prog;
    if (op == PTOC_PTO_OP_TROWEXPAND) {
        int v = col_vector(p, t, k), d = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
        program_load_tile(p, v);
        e2e_operand in[1] = {tile_operand(v)};
        program_op(p, op, d, 1, in);
        program_store_tile(p, d);
        return;
    }
    int full = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    int v = form == RX_BLOCK ? block_vector(p, t, k) : col_vector(p, t, k);
    int d = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    program_load_tile(p, full);
    program_load_tile(p, v);
    e2e_operand in[3] = {tile_operand(form == RX_SWAP ? v : full), tile_operand(form == RX_SWAP ? full : v)};
    int nin = 2;
    if (form == RX_TMP) { /* the A2/A3 broadcast buffer: 8 KiB covers any row count */
        int tmp = program_tile(p, t, 32, 256 / ref_dtype_size(t), 32, 256 / ref_dtype_size(t));
        program_load_tile(p, tmp); /* a value for Level 1, where a tile is defined before use */
        in[nin++] = tile_operand(tmp);
    }
    program_op(p, op, d, nin, in);
    program_store_tile(p, d);
}

void family_rowexpand(e2e_suite *s)
{
    static const char *const suffix[RX_FORM_COUNT] = {"", "_block", "_swap", "_tmp"};
    static const char *const key[RX_FORM_COUNT] = {"", " (block)", " (swapped)", " (tmp)"};
    static char keys[RX_OPS][RX_FORM_COUNT][40]; /* statistics keys outlive the cases */
    for (int oi = 0; oi < RX_OPS; oi++)
        for (int f = 0; f < RX_FORM_COUNT; f++)
            snprintf(keys[oi][f], sizeof keys[oi][f], "%s%s", program_op_name(rx_ops[oi]), key[f]);
    for (int di = 0; di < RX_DTYPES; di++) {
        ref_dtype t = rx_dtypes[di];
        e2e_case *cases = case_array(CLASS_COUNT * RX_OPS * RX_FORM_COUNT);
        int n = 0;
        for (int oi = 0; oi < RX_OPS; oi++) {
            if (!cpu_allows(rx_ops[oi], "dst", t))
                continue;
            int nforms = rx_ops[oi] == PTOC_PTO_OP_TROWEXPAND ? 1 : RX_FORM_COUNT;
            for (int f = 0; f < nforms; f++)
                for (int ki = 0; ki < CLASS_COUNT; ki++) {
                    if (f == RX_TMP && ki != 1)
                        continue; /* one class is enough for this form */
                    if (f == RX_TMP && rx_ops[oi] == PTOC_PTO_OP_TROWEXPANDADD)
                        continue; /* trowexpandadd takes no tmp */
                    shape_class k = class_of(ki, t);
                    char name[64];
                    snprintf(name, sizeof name, "%s%s_%s_%s", program_op_name(rx_ops[oi]), suffix[f],
                             ref_dtype_name(t), k.name);
                    e2e_case *c = new_case(cases, &n, keys[oi][f], t, &k, name);
                    c->ulp = rx_ops[oi] == PTOC_PTO_OP_TROWEXPANDEXPDIF ? 1 : 0;
                    build(c, rx_ops[oi], (rx_form)f, t, &k);
                }
        }
        char module[64];
        snprintf(module, sizeof module, "rowexpand_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

bool rowexpand_reference_op(const e2e_step *s, const ref_tile *t)
{
    for (int i = 0; i < RX_OPS; i++) {
        if (rx_ops[i] != s->op)
            continue;
        if (i == 0)
            ref_trowexpand(&t[s->tile], &t[s->in[0].index]);
        else
            ref_trowexpand_binary(rx_kinds[i], &t[s->tile], &t[s->in[0].index], &t[s->in[1].index]);
        return true;
    }
    return false;
}
