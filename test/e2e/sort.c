/* sort.c: the e2e family of tsort32 and tmrgsort.
 *
 *   sort   tsort32 without tmp (whole 32-element blocks) and with it (the
 *          tail block too), with a per-row idx and a one-row idx, on static
 *          and dynamic valid shapes; tmrgsort ins(src, blockLen) with a valid
 *          and an invalid blockLen (a scalar parameter) and a dst that holds
 *          one group or two; tmrgsort of 2, 3 and 4 lists of different
 *          lengths, with and without {exhausted = true}, into a dst that
 *          holds every pair or fewer
 *
 * f16 and f32 (the ops' dtypes) against test/reference/ref_sort.c, bit for
 * bit. Random data has ties, infinities and NaNs; idx values are small so
 * that equal values meet equal indices. The lists of a merge are random
 * pairs, not sorted ones: the merge is defined step by step for any input.
 * sort_reference_op is program.c's reference for these ops.
 */
#include "harness.h"

#include <stdlib.h>

static const ref_dtype sort_dtypes[] = {REF_F16, REF_F32};

/* A shape class of its own: a name and the valid shape, static or dynamic. */
static shape_class sort_class(const char *name, int64_t rows, int64_t cols, int64_t vrows, int64_t vcols)
{
    shape_class k = {name, rows, cols, vrows, vcols, vrows < 0, REF_ROW_MAJOR, REF_NONE_BOX};
    return k;
}

/* ---------------------------------------------------------------- tsort32 */

/* Small idx values (0..15) in the buffer of parameter c->aux. */
static void small_indices(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars,
                          e2e_rng *rng)
{
    uint32_t *idx = (uint32_t *)bufs[c->aux];
    for (int64_t i = 0; i < c->prog.params[c->aux].elems; i++)
        idx[i] = (uint32_t)rng_below(rng, 16);
    (void)run;
    (void)scalars;
}

typedef enum sort_form { SF_BLOCKS, SF_TMP, SF_IDX_ROW, SF_FORM_COUNT } sort_form;

static void build_tsort32(e2e_case *c, sort_form form, ref_dtype t, const shape_class *k)
{
    e2e_program *p = &c->prog;
    int64_t per = 8 / ref_dtype_size(t); /* dst elements per src element */
    int src = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    int idx = form == SF_IDX_ROW ? program_tile(p, REF_U32, 1, k->cols, 1, k->vcols)
                                 : program_tile(p, REF_U32, k->rows, k->cols, k->vrows, k->vcols);
    int dst = program_tile(p, t, k->rows, k->cols * per, k->vrows, k->cols * per);
    program_load_tile(p, src);
    program_load_tile(p, idx);
    program_load_tile(p, dst); /* what the op leaves alone stays as loaded */
    e2e_operand in[3] = {tile_operand(src), tile_operand(idx)};
    int nin = 2;
    if (form != SF_BLOCKS)
        in[nin++] = tile_operand(program_tile(p, t, 1, k->cols, 1, k->cols));
    program_op(p, PTOC_PTO_OP_TSORT32, dst, nin, in);
    program_store_tile(p, dst);
    c->fill = small_indices;
    c->aux = 1; /* idx's buffer: the second load */
}

/* ---------------------------------------------------------------- tmrgsort */

/* The blockLen parameter: a valid length (64 elements) in variant 0, one
 * that is not whole pairs (3) in variant 1. */
static void block_len(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars, e2e_rng *rng)
{
    for (int i = 0; i < c->prog.nparams; i++)
        if (c->prog.params[i].kind == E2E_SCALAR)
            scalars[i] = run->variant ? 3 : 64;
    (void)bufs;
    (void)rng;
}

/* src: 2 groups of 4 lists of 64 elements; dst valid `vcols`. */
static void build_blocks(e2e_case *c, ref_dtype t, int64_t vcols)
{
    e2e_program *p = &c->prog;
    int src = program_tile(p, t, 1, 512, 1, 512), dst = program_tile(p, t, 1, 512, 1, vcols);
    program_load_tile(p, src);
    program_load_tile(p, dst);
    e2e_operand in[2] = {tile_operand(src), scalar_operand(program_scalar(p, REF_I32))};
    program_op(p, PTOC_PTO_OP_TMRGSORT, dst, 2, in);
    program_store_tile(p, dst);
    c->fill = block_len;
    c->nruns = 0;
    for (int v = 0; v < 2; v++)
        for (int r = 0; r < 2; r++)
            c->runs[c->nruns++] = (e2e_run){0, 0, v};
}

/* n lists of 128-element tiles with valid 128, 96, 64, 32 elements; dst of
 * `out` valid elements. */
static void build_lists(e2e_case *c, ref_dtype t, int n, int64_t out, bool exhausted)
{
    e2e_program *p = &c->prog;
    static const int64_t valid[4] = {128, 96, 64, 32};
    e2e_operand in[5];
    for (int k = 0; k < n; k++) {
        int s = program_tile(p, t, 1, 128, 1, valid[k]);
        program_load_tile(p, s);
        in[k] = tile_operand(s);
    }
    int dst = program_tile(p, t, 1, 384, 1, out);
    in[n] = tile_operand(program_tile(p, t, 1, 384, 1, 384));
    program_load_tile(p, dst);
    e2e_step *s = program_op(p, PTOC_PTO_OP_TMRGSORT, dst, n + 1, in);
    s->exhausted = exhausted;
    program_store_tile(p, dst);
}

/* ---------------------------------------------------------------- family */

void family_sort(e2e_suite *s)
{
    static const char *const form_key[SF_FORM_COUNT] = {"tsort32", "tsort32 (tmp)", "tsort32 (one idx row)"};
    static const char *const form_name[SF_FORM_COUNT] = {"", "_tmp", "_idxrow"};
    for (int di = 0; di < 2; di++) {
        ref_dtype t = sort_dtypes[di];
        e2e_case *cases = case_array(64);
        int n = 0;
        char name[64];
        const shape_class classes[] = {
            sort_class("aligned", 4, 64, 4, 64),
            sort_class("ragged", 4, 64, 3, 45),
            sort_class("row", 1, 128, 1, 100),
            sort_class("dynamic", 16, 64, E2E_DYN_R, E2E_DYN_C),
        };
        for (int f = 0; f < SF_FORM_COUNT; f++)
            for (size_t ki = 0; ki < sizeof classes / sizeof classes[0]; ki++) {
                snprintf(name, sizeof name, "tsort32%s_%s_%s", form_name[f], ref_dtype_name(t),
                         classes[ki].name);
                e2e_case *c = new_case(cases, &n, form_key[f], t, &classes[ki], name);
                build_tsort32(c, (sort_form)f, t, &classes[ki]);
            }
        shape_class one = sort_class("list", 1, 512, 1, 512);
        for (int g = 1; g <= 2; g++) {
            snprintf(name, sizeof name, "tmrgsort_blocks_%s_%dgroup", ref_dtype_name(t), g);
            build_blocks(new_case(cases, &n, "tmrgsort (blockLen)", t, &one, name), t, g == 1 ? 400 : 512);
        }
        for (int lists = 2; lists <= 4; lists++)
            for (int ex = 0; ex < 2; ex++)
                for (int full = 0; full < 2; full++) {
                    static const int64_t total[5] = {0, 0, 224, 288, 320};
                    int64_t out = full ? total[lists] : 160;
                    snprintf(name, sizeof name, "tmrgsort_%dlists%s_%s_%s", lists, ex ? "_exhausted" : "",
                             ref_dtype_name(t), full ? "all" : "short");
                    e2e_case *c = new_case(cases, &n, ex ? "tmrgsort (lists, exhausted)" : "tmrgsort (lists)",
                                           t, &one, name);
                    build_lists(c, t, lists, out, ex);
                }
        char module[64];
        snprintf(module, sizeof module, "sort_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

bool sort_reference_op(const e2e_step *s, const ref_tile *t, const uint64_t *scalars)
{
    const ref_tile *d = &t[s->tile];
    if (s->op == PTOC_PTO_OP_TSORT32) {
        ref_tsort32(d, &t[s->in[0].index], &t[s->in[1].index], s->nin > 2);
        return true;
    }
    if (s->op != PTOC_PTO_OP_TMRGSORT)
        return false;
    if (s->nin == 2 && s->in[1].scalar) {
        ref_tmrgsort_blocks(d, &t[s->in[0].index], scalars[s->in[1].index]);
        return true;
    }
    const ref_tile *lists[4];
    for (int k = 0; k + 1 < s->nin && k < 4; k++)
        lists[k] = &t[s->in[k].index];
    ref_tmrgsort_lists(d, lists, s->nin - 1, s->exhausted);
    return true;
}
