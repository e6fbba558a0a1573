/* gather.c: the e2e families of the gathers and scatters and of the layout ops.
 *
 *   gather   tgather (index form, 16-bit data also at i32 indices; mask
 *            form, two patterns per dtype and class so that every pattern
 *            runs; compare form, eq and gt), tgatherb, tscatter
 *   layout   ttrans, tconcat, tpack; tmov between vec tiles of the class's
 *            layout, and from row_major into nz (the class's shape);
 *            textract and tinsert between vec tiles (8-, 16-, 32-bit) at a
 *            block-aligned and an unaligned constant column and at run-time
 *            indices (either column) (Level 1: textract of static shapes only)
 *
 * Each op runs on the dtypes its cpu verifier accepts and on the shape
 * classes of harness.h (ttrans leaves out the wide row, whose transpose would
 * not fit UB; tconcat the dynamic class, whose dst would need vc + vc valid
 * columns), against test/reference/ref_gather.c and ref_layout.c, bit for bit.
 * The index data is random but valid (fill hooks): an index or offset outside
 * what it selects traps, which the lit tests (gather-run.pto) show.
 * gather_reference_op is program.c's reference for these ops.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static const ref_dtype all_dtypes[] = {REF_I8, REF_I16, REF_I32, REF_I64, REF_U8, REF_U16,
                                       REF_U32, REF_U64, REF_F16, REF_BF16, REF_F32};
enum { ALL_DTYPES = sizeof all_dtypes / sizeof all_dtypes[0] };

static e2e_case *named_case(e2e_case *cases, int *n, const char *key, const char *form, ref_dtype t,
                            const shape_class *k)
{
    char name[64];
    snprintf(name, sizeof name, "%s%s_%s_%s", key, form, ref_dtype_name(t), k->name);
    return new_case(cases, n, key, t, k, name);
}

static int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

/* Loads a fresh tile of the given shape; returns it. */
static int loaded(e2e_program *p, ref_dtype t, int64_t rows, int64_t cols, int64_t vrows, int64_t vcols)
{
    int i = program_tile(p, t, rows, cols, vrows, vcols);
    program_load_tile(p, i);
    return i;
}

/* ---------------------------------------------------------------- fill hooks */

static void put(uint8_t *buf, int64_t e, uint32_t es, uint64_t v)
{
    for (uint32_t b = 0; b < es; b++)
        buf[e * es + b] = (uint8_t)(v >> (8 * b));
}

static uint64_t get(const uint8_t *buf, int64_t e, uint32_t es)
{
    uint64_t v = 0;
    for (uint32_t b = 0; b < es; b++)
        v |= (uint64_t)buf[e * es + b] << (8 * b);
    return v;
}

/* A random index below n, the ends 0 and n - 1 often. */
static uint64_t some_index(e2e_rng *rng, uint64_t n)
{
    uint64_t pick = rng_below(rng, 8);
    return pick == 0 ? 0 : pick == 1 ? n - 1 : rng_below(rng, n);
}

/* c->aux: the index buffer's parameter (bits 0-7), the tile whose elements
 * the indices select (bits 8-15: tgather's src, tscatter's dst) and, in bit
 * 16, tgatherb's byte offsets: 32 times a block number of that tile. */
enum { FILL_BLOCKS = 1 << 16 };

static void index_fill(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars,
                       e2e_rng *rng)
{
    const e2e_program *p = &c->prog;
    int param = c->aux & 0xff;
    const e2e_tile *bound = &p->tiles[(c->aux >> 8) & 0xff];
    uint32_t es = ref_dtype_size(p->params[param].dtype);
    uint64_t n = (uint64_t)(bound->rows * bound->cols);
    bool blocks = c->aux & FILL_BLOCKS;
    if (blocks)
        n = n * ref_dtype_size(bound->dtype) / 32;
    for (int64_t e = 0; e < p->params[param].elems; e++)
        put(bufs[param], e, es, blocks ? 32 * some_index(rng, n) : some_index(rng, n));
    (void)run;
    (void)scalars;
}

/* The compare form: kValue (the parameter c->aux >> 8) is one of src's
 * elements; for eq (c->aux & 1), a third of the elements are set to it so
 * that rows match several times. */
static void compare_fill(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars,
                         e2e_rng *rng)
{
    const e2e_program *p = &c->prog;
    uint32_t es = ref_dtype_size(p->tiles[0].dtype);
    int64_t n = p->params[0].elems;
    uint64_t k = get(bufs[0], (int64_t)rng_below(rng, (uint64_t)n), es);
    if (c->aux)
        for (int64_t e = 0; e < n; e++)
            if (rng_below(rng, 3) == 0)
                put(bufs[0], e, es, k);
    scalars[c->aux >> 8] = k;
    (void)run;
}

/* ---------------------------------------------------------------- gather family */

static bool tgather_index_dtype(ref_dtype t) { return t != REF_I64 && t != REF_U64 && t != REF_BF16; }

/* The index dtype for elements of t: b32 with 4-byte data, b16 otherwise (an
 * unsigned one for 1-byte data, and for f32, to read both signs). */
static ref_dtype index_dtype(ref_dtype t)
{
    uint32_t es = ref_dtype_size(t);
    if (es == 1)
        return REF_U16;
    if (es == 2)
        return REF_I16;
    return t == REF_F32 ? REF_U32 : REF_I32;
}

static void build_index(e2e_case *c, ref_dtype t, ref_dtype it, const shape_class *k)
{
    e2e_program *p = &c->prog;
    int64_t dvc = k->dynamic ? k->vcols : k->cols;               /* dst and indices: every column valid */
    int src = loaded(p, t, k->rows, k->cols, k->vrows, k->vcols);
    int idx = loaded(p, it, k->rows, k->cols, k->vrows, dvc);
    int dst = program_tile(p, t, k->rows, k->cols, k->vrows, dvc);
    e2e_operand in[3] = {tile_operand(src), tile_operand(idx), tile_operand(idx)};
    program_op(p, PTOC_PTO_OP_TGATHER, dst, 3, in);
    program_store_tile(p, dst);
    c->aux = (src << 8) | 1;
    c->fill = index_fill;
}

static void build_mask(e2e_case *c, ref_dtype t, const shape_class *k, int pattern)
{
    e2e_program *p = &c->prog;
    int src = loaded(p, t, k->rows, k->cols, k->vrows, k->vcols);
    int dst = program_tile(p, t, k->rows, k->cols, k->rows, k->cols);
    e2e_operand in[1] = {tile_operand(src)};
    program_op(p, PTOC_PTO_OP_TGATHER, dst, 1, in)->mask = pattern;
    program_store_tile(p, dst);
}

static void build_compare(e2e_case *c, ref_dtype t, const shape_class *k, bool gt, int offset)
{
    e2e_program *p = &c->prog;
    int src = loaded(p, t, k->rows, k->cols, k->vrows, k->vcols);
    int kv = program_scalar(p, t);
    int tmp = program_tile(p, REF_U8, 1, 32, 1, 32);
    int dst = program_tile(p, REF_I32, k->rows, k->cols, k->rows, k->cols);
    int cdst = program_tile(p, REF_I32, 1, round_up(k->rows, 8), 1, round_up(k->rows, 8));
    e2e_operand in[3] = {tile_operand(src), scalar_operand(kv), tile_operand(tmp)};
    e2e_step *s = program_op(p, PTOC_PTO_OP_TGATHER, dst, 3, in);
    s->cdst = 1 + cdst;
    s->cmp = gt ? REF_GT : REF_EQ;
    s->offset = offset;
    program_store_tile(p, dst);
    program_store_tile(p, cdst);
    c->aux = (kv << 8) | !gt;
    c->fill = compare_fill;
}

static void build_gatherb(e2e_case *c, ref_dtype t, const shape_class *k)
{
    e2e_program *p = &c->prog;
    int64_t per_block = 32 / ref_dtype_size(t), ocols = round_up((k->cols + per_block - 1) / per_block, 8);
    int src = loaded(p, t, k->rows, k->cols, k->rows, k->cols);
    int off = loaded(p, REF_U32, k->rows, ocols, k->rows, ocols);
    int dst = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    e2e_operand in[2] = {tile_operand(src), tile_operand(off)};
    program_op(p, PTOC_PTO_OP_TGATHERB, dst, 2, in);
    program_store_tile(p, dst);
    c->aux = FILL_BLOCKS | (src << 8) | 1;
    c->fill = index_fill;
}

static void build_scatter(e2e_case *c, ref_dtype t, const shape_class *k)
{
    e2e_program *p = &c->prog;
    ref_dtype it = ref_dtype_size(t) == 8 ? REF_I32 : ref_dtype_size(t) == 1 ? REF_I16 : index_dtype(t);
    int src = loaded(p, t, k->rows, k->cols, k->vrows, k->vcols);
    int idx = loaded(p, it, k->rows, k->cols, k->vrows, k->vcols);
    int dst = loaded(p, t, k->rows, k->cols, k->rows, k->cols);
    e2e_operand in[2] = {tile_operand(src), tile_operand(idx)};
    program_op(p, PTOC_PTO_OP_TSCATTER, dst, 2, in);
    program_store_tile(p, dst);
    c->aux = (dst << 8) | 1;
    c->fill = index_fill;
}

void family_gather(e2e_suite *s)
{
    static const int offsets[CLASS_COUNT] = {0, 7, -5, 1000, 3};
    for (int di = 0; di < ALL_DTYPES; di++) {
        ref_dtype t = all_dtypes[di];
        e2e_case *cases = case_array(CLASS_COUNT * 8);
        int n = 0;
        bool compare = t == REF_I16 || t == REF_I32 || t == REF_F16 || t == REF_F32;
        bool mask = ref_dtype_size(t) <= 4;
        for (int ki = 0; ki < CLASS_COUNT; ki++) {
            shape_class k = class_of(ki, t);
            if (tgather_index_dtype(t))
                build_index(named_case(cases, &n, "tgather", "_index", t, &k), t, index_dtype(t), &k);
            if (ref_dtype_size(t) == 2 && tgather_index_dtype(t))   /* 16-bit data at i32 indices */
                build_index(named_case(cases, &n, "tgather", "_index32", t, &k), t, REF_I32, &k);
            for (int j = 0; mask && j < 2; j++) {
                int pattern = 1 + (ki + di + 3 * j) % 7;
                char form[16];
                snprintf(form, sizeof form, "_mask%d", pattern);
                build_mask(named_case(cases, &n, "tgather", form, t, &k), t, &k, pattern);
            }
            for (int gt = 0; compare && gt < 2; gt++) {
                e2e_case *c = named_case(cases, &n, "tgather", gt ? "_gt" : "_eq", t, &k);
                build_compare(c, t, &k, gt, offsets[ki]);
            }
            if (cpu_allows(PTOC_PTO_OP_TGATHERB, "dst", t))
                build_gatherb(named_case(cases, &n, "tgatherb", "", t, &k), t, &k);
            if (cpu_allows(PTOC_PTO_OP_TSCATTER, "dst", t))
                build_scatter(named_case(cases, &n, "tscatter", "", t, &k), t, &k);
        }
        char module[64];
        snprintf(module, sizeof module, "gather_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

/* ---------------------------------------------------------------- layout family */

static void build_trans(e2e_case *c, ref_dtype t, const shape_class *k)
{
    e2e_program *p = &c->prog;
    int64_t align = 32 / ref_dtype_size(t);
    int src = loaded(p, t, k->rows, k->cols, k->vrows, k->vcols);
    int tmp = loaded(p, t, k->rows, k->cols, k->rows, k->cols);   /* unused; Level 1 needs its value */
    int dst = program_tile(p, t, k->cols, round_up(k->rows, align), k->vcols, k->vrows);
    e2e_operand in[2] = {tile_operand(src), tile_operand(tmp)};
    program_op(p, PTOC_PTO_OP_TTRANS, dst, 2, in);
    program_store_tile(p, dst);
}

static void build_concat(e2e_case *c, ref_dtype t, const shape_class *k)
{
    e2e_program *p = &c->prog;
    int a = loaded(p, t, k->rows, k->cols, k->vrows, k->vcols);
    int b = loaded(p, t, k->rows, k->cols, k->vrows, k->vcols);
    int dst = program_tile(p, t, k->rows, 2 * k->cols, k->vrows, 2 * k->vcols);
    e2e_operand in[2] = {tile_operand(a), tile_operand(b)};
    program_op(p, PTOC_PTO_OP_TCONCAT, dst, 2, in);
    program_store_tile(p, dst);
}

static void build_pack(e2e_case *c, ref_dtype wide, ref_dtype narrow, const shape_class *k)
{
    e2e_program *p = &c->prog;
    int src = loaded(p, wide, k->rows, k->cols, k->vrows, k->vcols);
    int dst = program_tile(p, narrow, k->rows, k->cols, k->vrows, k->vcols);
    e2e_operand in[1] = {tile_operand(src)};
    program_op(p, PTOC_PTO_OP_TPACK, dst, 1, in);
    program_store_tile(p, dst);
}

/* tmov src -> dst, src in layout (sl, sb), dst in the class's. */
static void build_mov(e2e_case *c, ref_dtype t, const shape_class *k, ref_layout sl, ref_box sb)
{
    e2e_program *p = &c->prog;
    int src = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    p->tiles[src].layout = sl;
    p->tiles[src].box = sb;
    program_load_tile(p, src);
    int dst = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    p->tiles[dst].layout = k->layout;
    p->tiles[dst].box = k->box;
    e2e_operand in = tile_operand(src);
    program_op(p, PTOC_PTO_OP_TMOV, dst, 1, &in);
    program_store_tile(p, dst);
}

/* textract / tinsert windows: at a constant block-aligned column, at a
 * constant column inside a block, at run-time indices (index parameters that
 * window_fill sets from c->aux: row << 16 | col). */
enum { WIN_ALIGNED, WIN_UNALIGNED, WIN_RUNTIME, WIN_RUNTIME_BLOCK, WIN_FORMS };
static const char *const win_forms[WIN_FORMS] = {"_at_block", "_at_col", "_at_param", "_at_param_block"};

static void window_fill(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars, e2e_rng *rng)
{
    const e2e_program *p = &c->prog;
    for (int i = 0; i < p->nsteps; i++)
        if (p->steps[i].kind == E2E_OP) {
            scalars[p->steps[i].in[1].index] = (uint64_t)(c->aux >> 16);
            scalars[p->steps[i].in[2].index] = (uint64_t)(c->aux & 0xffff);
        }
}

/* The big tile: the class's shape with 4 more rows and two more blocks of
 * columns, valid as a whole; the small one the class's. textract takes the
 * small tile's valid shape out of a loaded big one; tinsert writes a loaded
 * small tile into a loaded big one. */
static void build_window(e2e_case *c, ref_dtype t, const shape_class *k, bool extract, int form)
{
    e2e_program *p = &c->prog;
    int64_t B = 32 / ref_dtype_size(t), rows = k->rows + 4, cols = k->cols + 2 * B;
    int64_t at[WIN_FORMS][2] = {{3, B}, {1, 3}, {2, 5}, {1, 2 * B}};
    e2e_operand r = index_operand((int)at[form][0]), col = index_operand((int)at[form][1]);
    if (form >= WIN_RUNTIME) {
        r = scalar_operand(program_index(p));
        col = scalar_operand(program_index(p));
        c->aux = (int)(at[form][0] << 16 | at[form][1]);
        c->fill = window_fill;
    }
    int big = loaded(p, t, rows, cols, rows, cols);
    int small = extract ? program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols)
                        : loaded(p, t, k->rows, k->cols, k->vrows, k->vcols);
    e2e_operand in[3] = {tile_operand(extract ? big : small), r, col};
    program_op(p, extract ? PTOC_PTO_OP_TEXTRACT : PTOC_PTO_OP_TINSERT, extract ? small : big, 3, in);
    program_store_tile(p, extract ? small : big);
}

static void window_cases(e2e_suite *s, e2e_case *cases, int *n, ref_dtype t, const shape_class *k)
{
    for (int x = 0; x < 2; x++) {
        if (ref_dtype_size(t) > 4)       /* vec -> vec: the 8-, 16- and 32-bit types (pto_dtypes.def) */
            continue;
        /* Level 1: a tinsert's result is a new tile, without the big tile's other
         * elements; a dynamic textract's valid shape comes from no operand */
        if (s->level1 && (x == 1 || k->dynamic)) {
            s->skipped += WIN_FORMS;
            continue;
        }
        for (int f = 0; f < WIN_FORMS; f++) {
            build_window(named_case(cases, n, x ? "tinsert" : "textract", win_forms[f], t, k), t, k, x == 0, f);
        }
    }
}

void family_layout(e2e_suite *s)
{
    static const ref_dtype packs[][2] = {{REF_I32, REF_I16}, {REF_I32, REF_I8}, {REF_I16, REF_I8},
                                         {REF_U32, REF_U16}, {REF_U32, REF_U8}, {REF_U16, REF_U8},
                                         {REF_F32, REF_BF16}};
    for (int di = 0; di < ALL_DTYPES; di++) {
        ref_dtype t = all_dtypes[di];
        e2e_case *cases = case_array(CLASS_COUNT * (4 + 2 * WIN_FORMS) + CLASS_ALL);
        int n = 0;
        for (int ki = 0; ki < CLASS_COUNT; ki++) {
            shape_class k = class_of(ki, t);
            if (ki != 3 && cpu_allows(PTOC_PTO_OP_TTRANS, "src", t))
                build_trans(named_case(cases, &n, "ttrans", "", t, &k), t, &k);
            if (!k.dynamic && cpu_allows(PTOC_PTO_OP_TCONCAT, "dst", t))
                build_concat(named_case(cases, &n, "tconcat", "", t, &k), t, &k);
            for (size_t pi = 0; pi < sizeof packs / sizeof packs[0]; pi++) {
                if (packs[pi][0] != t)
                    continue;
                char form[16];
                snprintf(form, sizeof form, "_%s", ref_dtype_name(packs[pi][1]));
                build_pack(named_case(cases, &n, "tpack", form, t, &k), t, packs[pi][1], &k);
            }
            window_cases(s, cases, &n, t, &k);
        }
        for (int ki = 0; ki < CLASS_ALL; ki++) {
            shape_class k = class_of(ki, t);
            if (ki == CLASS_ZN)
                continue;
            if (s->level1 && k.dynamic) {   /* a Level-1 tmov's result has no operand's valid shape to take */
                s->skipped++;
                continue;
            }
            if (k.box == REF_BOX_ROW_MAJOR && k.layout == REF_COL_MAJOR)   /* nz: from row_major */
                build_mov(named_case(cases, &n, "tmov", "_nd", t, &k), t, &k, REF_ROW_MAJOR, REF_NONE_BOX);
            else if (k.box == REF_NONE_BOX)
                build_mov(named_case(cases, &n, "tmov", "", t, &k), t, &k, k.layout, k.box);
        }
        char module[64];
        snprintf(module, sizeof module, "layout_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

/* ---------------------------------------------------------------- reference */

/* textract / tinsert's index operand i: a constant, or an index parameter. */
static int64_t window_index(const e2e_step *s, int i, const uint64_t *scalars)
{
    return s->in[i].constant ? s->in[i].index : (int64_t)scalars[s->in[i].index];
}

void gather_reference_op(const e2e_step *s, const ref_tile *t, const uint64_t *scalars)
{
    static const int patterns[8][2] = {{1, 0}, {2, 0}, {2, 1}, {4, 0}, {4, 1}, {4, 2}, {4, 3}, {1, 0}};
    const ref_tile *d = &t[s->tile], *a = &t[s->in[0].index], *b = s->nin > 1 ? &t[s->in[1].index] : NULL;
    switch (s->op) {
    case PTOC_PTO_OP_TGATHER:
        if (s->mask)
            ref_tgather_mask(d, a, patterns[s->mask][0], patterns[s->mask][1]);
        else if (s->cdst)
            ref_tgather_compare(d, &t[s->cdst - 1], a, scalars[s->in[1].index], s->cmp == REF_GT, s->offset);
        else
            ref_tgather_index(d, a, b);
        break;
    case PTOC_PTO_OP_TGATHERB: ref_tgatherb(d, a, b); break;
    case PTOC_PTO_OP_TSCATTER: ref_tscatter(d, a, b); break;
    case PTOC_PTO_OP_TTRANS: ref_ttrans(d, a); break;
    case PTOC_PTO_OP_TCONCAT: ref_tconcat(d, a, b); break;
    case PTOC_PTO_OP_TPACK: ref_tpack(d, a); break;
    case PTOC_PTO_OP_TMOV: ref_tmov(d, a); break;
    case PTOC_PTO_OP_TEXTRACT: ref_textract(d, a, window_index(s, 1, scalars), window_index(s, 2, scalars)); break;
    case PTOC_PTO_OP_TINSERT: ref_tinsert(d, a, window_index(s, 1, scalars), window_index(s, 2, scalars)); break;
    default: break;
    }
}
