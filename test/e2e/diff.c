/* diff.c: end-to-end differential tests of the cpu target.
 *
 *   e2e_diff FAMILY [--only NAME] [--dump DIR] [--corrupt] [--verbose] [--level1 [--seeded]]
 *
 * FAMILY is elementwise, colexpand, select, histogram, convert, mem, padvalue (tload's
 * pad_value clause), unary, reduce, ewx (ewx.c) or selftest. For
 * every op x dtype x shape class of the family it builds a manual-mode kernel
 * (program.h), compiles it through the ptoc library (parse, verify with
 * pto-arch=cpu, lower, -O2, JIT; one module per op group and dtype), runs it on
 * fixed-seed random inputs and compares every byte of every GM buffer with the
 * C reference (test/reference). Shape classes: aligned 16x64, a ragged valid
 * region 13x37 of 16x64, one row (valid 1x100 of 1x128), a wide row of 8 KiB
 * (2 rows), and a dynamic valid shape (16x64 tiles, valid %vr x %vc, run at
 * several shapes). Exit status 0 only if nothing differs. `selftest` corrupts
 * the reference on purpose and checks that every run is reported.
 *
 * --level1 writes the same kernels in Level 1 (tile values, no
 * addresses) and runs pto-bufferize, pto-plan-memory, pto-insert-tassign
 * before lowering. The manual kernels also store each whole physical tile
 * through an alias; Level 1 cannot alias, so those stores are left out and
 * only the valid-region outputs (and the inputs) are compared. Kernels that
 * need an alias or tload's pad_value clause have no Level-1 form and are
 * skipped (counted in the summary; --verbose names them).
 *
 * Every kernel is lowered with the pipe simulator's events and every run must
 * be free of races, deadlocks and ids set twice; --level1 inserts sync
 * (pto-insert-sync) after the auto-mode passes. --seeded (with --level1)
 * takes every Level-1 case, deletes each wait_flag the pass inserted in turn, and
 * reruns: the simulator must report a race, else the pair was redundant
 * (counted; exit status 1 when there is one).
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- shape classes */

static int full_tile(e2e_program *p, ref_dtype t, const shape_class *k)
{
    int i = program_tile(p, t, k->rows, k->cols, k->vrows, k->vcols);
    p->tiles[i].layout = k->layout;
    p->tiles[i].box = k->box;
    return i;
}

/* A 1-row tile holding one value per column (the tcolexpand operand). */
static int row_tile(e2e_program *p, ref_dtype t, const shape_class *k)
{
    return program_tile(p, t, 1, k->cols, 1, k->vcols);
}

/* A column-major rows x cols buffer and the 2-D dn view of `tile`'s valid
 * region in it: element (r, c) at r + c * rows. */
static e2e_view dn_tile_view(e2e_program *p, int tile)
{
    const e2e_tile *t = &p->tiles[tile];
    e2e_view v = {program_ptr(p, t->dtype, t->rows * t->cols, t->rows), 2, {t->rows, t->cols}, {1, t->rows},
                  {0, 0}, {t->vrows, t->vcols}, REF_GM_DN, false};
    return v;
}

/* Makes scalar parameters of dtype t equal to an element of the first buffer's
 * valid region half the time, so compares against them hit equality. */
static void scalars_from_input(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars,
                               e2e_rng *rng)
{
    const e2e_program *p = &c->prog;
    const e2e_tile *a = &p->tiles[0];
    int64_t vr = a->vrows < 0 ? run->vr : a->vrows, vc = a->vcols < 0 ? run->vc : a->vcols;
    uint32_t es = ref_dtype_size(a->dtype);
    for (int i = 0; i < p->nparams; i++) {
        if (p->params[i].kind != E2E_SCALAR || p->params[i].dtype != a->dtype || rng_below(rng, 2))
            continue;
        int64_t e = (int64_t)rng_below(rng, (uint64_t)vr) * a->cols + (int64_t)rng_below(rng, (uint64_t)vc);
        uint64_t v = 0;
        for (uint32_t b = 0; b < es; b++)
            v |= (uint64_t)bufs[0][e * es + b] << (8 * b);
        scalars[i] = v;
    }
}

/* ---------------------------------------------------------------- elementwise */

static const ref_dtype all_dtypes[] = {REF_I8, REF_I16, REF_I32, REF_I64, REF_U8, REF_U16,
                                       REF_U32, REF_U64, REF_F16, REF_BF16, REF_F32};
enum { DTYPE_COUNT = sizeof all_dtypes / sizeof all_dtypes[0] };

/* The tdivs cases' second data variant: a scalar at the edge of integer
 * division (0 for src / s: every element x / 0; INT_MIN, or UINT_MAX, for
 * s / src, which meets the -1 and 0 elements of the random data), and 0 for
 * floats (infinities and NaNs). */
static void tdivs_edges(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars, e2e_rng *rng)
{
    const e2e_program *p = &c->prog;
    bool scalar_first = c->aux;
    uint32_t bits = 8 * ref_dtype_size(c->dtype);
    uint64_t edge = ref_dtype_is_signed(c->dtype) ? (uint64_t)1 << (bits - 1) : ~(uint64_t)0 >> (64 - bits);
    for (int i = 0; run->variant == 1 && i < p->nparams; i++)
        if (p->params[i].kind == E2E_SCALAR)
            scalars[i] = scalar_first && !ref_dtype_is_float(c->dtype) ? edge : 0;
    (void)bufs;
    (void)rng;
}

/* An elementwise case's op, and for tdivs whether the scalar comes first
 * (tdivs ins(%s, %t): dst = s / t). */
typedef struct elementwise_op {
    ptoc_pto_op_id op;
    bool scalar_first;
} elementwise_op;

static void build_elementwise(e2e_case *c, elementwise_op eo, ref_dtype t, const shape_class *k)
{
    e2e_program *p = &c->prog;
    int a = full_tile(p, t, k), b = full_tile(p, t, k), d = full_tile(p, t, k);
    ptoc_pto_op_id op = eo.op;
    bool scalar_first = eo.scalar_first;
    bool scalar = op == PTOC_PTO_OP_TADDS || op == PTOC_PTO_OP_TMULS || op == PTOC_PTO_OP_TDIVS;
    program_load_tile(p, a);
    if (!scalar)
        program_load_tile(p, b);
    e2e_operand in[2] = {tile_operand(a), scalar ? scalar_operand(program_scalar(p, t)) : tile_operand(b)};
    if (scalar_first) {
        e2e_operand swapped[2] = {in[1], in[0]};
        program_op(p, op, d, 2, swapped);
    } else {
        program_op(p, op, d, 2, in);
    }
    program_store_tile(p, d);
    if (op == PTOC_PTO_OP_TDIVS) {
        c->fill = tdivs_edges;
        c->aux = scalar_first;
        set_runs(c, k, 2);
    }
}

static void family_elementwise(e2e_suite *s)
{
    static const elementwise_op ops[] = {
        {PTOC_PTO_OP_TADD, false},  {PTOC_PTO_OP_TSUB, false},  {PTOC_PTO_OP_TMUL, false},
        {PTOC_PTO_OP_TDIV, false},  {PTOC_PTO_OP_TMAX, false},  {PTOC_PTO_OP_TMIN, false},
        {PTOC_PTO_OP_TADDS, false}, {PTOC_PTO_OP_TMULS, false}, {PTOC_PTO_OP_TDIVS, false},
        {PTOC_PTO_OP_TDIVS, true},
    };
    enum { NOPS = sizeof ops / sizeof ops[0] };
    static char keys[NOPS][40];                    /* statistics keys outlive the cases */
    for (int oi = 0; oi < NOPS; oi++)
        snprintf(keys[oi], sizeof keys[oi], "%s%s", program_op_name(ops[oi].op),
                 ops[oi].scalar_first ? " (scalar first)" : "");
    for (int di = 0; di < DTYPE_COUNT; di++) {
        ref_dtype t = all_dtypes[di];
        e2e_case *cases = case_array(CLASS_ALL * NOPS);
        int n = 0;
        for (int ki = 0; ki < CLASS_ALL; ki++)
            for (int oi = 0; oi < NOPS; oi++) {
                shape_class k = class_of(ki, t);
                char name[64];
                snprintf(name, sizeof name, "%s%s_%s_%s", program_op_name(ops[oi].op),
                         ops[oi].scalar_first ? "_sf" : "", ref_dtype_name(t), k.name);
                e2e_case *c = new_case(cases, &n, keys[oi], t, &k, name);
                build_elementwise(c, ops[oi], t, &k);
            }
        char module[64];
        snprintf(module, sizeof module, "elementwise_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

/* ---------------------------------------------------------------- tcolexpand family */

/* The operand forms of the binary tcolexpand ops: src1 a 1-row tile, src1 a
 * full tile of which row 0 is used, or the roles swapped (src0 the row). */
typedef enum colexpand_form { CE_ROW, CE_FULL_SRC1, CE_SWAPPED, CE_FORM_COUNT } colexpand_form;

static void build_colexpand(e2e_case *c, ptoc_pto_op_id op, colexpand_form form, ref_dtype t,
                            const shape_class *k)
{
    e2e_program *p = &c->prog;
    if (op == PTOC_PTO_OP_TCOLEXPAND) {
        int row = row_tile(p, t, k), d = full_tile(p, t, k);
        program_load_tile(p, row);
        e2e_operand in[1] = {tile_operand(row)};
        program_op(p, op, d, 1, in);
        program_store_tile(p, d);
        return;
    }
    int full = full_tile(p, t, k), row = form == CE_FULL_SRC1 ? full_tile(p, t, k) : row_tile(p, t, k);
    int d = full_tile(p, t, k);
    bool swapped = form == CE_SWAPPED;
    program_load_tile(p, full);
    program_load_tile(p, row);
    e2e_operand in[2] = {tile_operand(swapped ? row : full), tile_operand(swapped ? full : row)};
    program_op(p, op, d, 2, in);
    program_store_tile(p, d);
}

static void family_colexpand(e2e_suite *s)
{
    static const ptoc_pto_op_id ops[] = {PTOC_PTO_OP_TCOLEXPAND,    PTOC_PTO_OP_TCOLEXPANDADD,
                                         PTOC_PTO_OP_TCOLEXPANDSUB, PTOC_PTO_OP_TCOLEXPANDMUL,
                                         PTOC_PTO_OP_TCOLEXPANDDIV, PTOC_PTO_OP_TCOLEXPANDMAX,
                                         PTOC_PTO_OP_TCOLEXPANDMIN, PTOC_PTO_OP_TCOLEXPANDEXPDIF};
    enum { NOPS = sizeof ops / sizeof ops[0] };
    static const char *const form_suffix[CE_FORM_COUNT] = {"", "_full", "_swap"};
    static const char *const form_key[CE_FORM_COUNT] = {"", "(full src1)", "(swapped)"};
    static char keys[NOPS][CE_FORM_COUNT][40];     /* statistics keys outlive the cases */
    for (int oi = 0; oi < NOPS; oi++)
        for (int f = 0; f < CE_FORM_COUNT; f++)
            snprintf(keys[oi][f], sizeof keys[oi][f], "%s%s", program_op_name(ops[oi]), form_key[f]);
    for (int di = 0; di < DTYPE_COUNT; di++) {
        ref_dtype t = all_dtypes[di];
        e2e_case *cases = case_array(96);
        int n = 0;
        for (int ki = 0; ki < CLASS_COUNT; ki++)
            for (int oi = 0; oi < NOPS; oi++)
                for (int f = 0; f < (ops[oi] == PTOC_PTO_OP_TCOLEXPAND ? 1 : CE_FORM_COUNT); f++) {
                    if (ops[oi] == PTOC_PTO_OP_TCOLEXPANDEXPDIF && t != REF_F16 && t != REF_F32)
                        continue;
                    if (f == CE_FULL_SRC1 && ki != 1)
                        continue;                 /* one class is enough for this form */
                    shape_class k = class_of(ki, t);
                    char name[64];
                    snprintf(name, sizeof name, "%s%s_%s_%s", program_op_name(ops[oi]), form_suffix[f],
                             ref_dtype_name(t), k.name);
                    e2e_case *c = new_case(cases, &n, keys[oi][f], t, &k, name);
                    c->ulp = ops[oi] == PTOC_PTO_OP_TCOLEXPANDEXPDIF ? 1 : 0;
                    build_colexpand(c, ops[oi], (colexpand_form)f, t, &k);
                }
        char module[64];
        snprintf(module, sizeof module, "colexpand_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

/* ---------------------------------------------------------------- select and compare */

/* The mask tile of a class: one bit per column, rows padded to 32 bytes, in
 * dtype m (u8 mostly; other widths on some classes, as the cpu target allows). */
static int mask_tile(e2e_program *p, ref_dtype m, const shape_class *k)
{
    int64_t bytes = ((k->cols + 7) / 8 + 31) / 32 * 32;
    return program_tile(p, m, k->rows, bytes / ref_dtype_size(m), k->vrows, bytes / ref_dtype_size(m));
}

typedef enum select_kind { SEL_TCMP_TSEL, SEL_TCMPS_TSELS, SEL_TCMPS_TILE_TSEL } select_kind;

/* with_tmp: tsel/tsels in PTOAS's 4-in form (with the tmp tile), else in the
 * ISA pages' 3-in form. */
static void build_select(e2e_case *c, select_kind kind, ref_cmp mode, ref_dtype t, ref_dtype m,
                         const shape_class *k, bool with_tmp)
{
    e2e_program *p = &c->prog;
    int a = full_tile(p, t, k), b = full_tile(p, t, k), mask = mask_tile(p, m, k);
    int d = full_tile(p, t, k), tmp = with_tmp ? full_tile(p, t, k) : -1;
    program_load_tile(p, a);
    if (kind != SEL_TCMPS_TSELS)
        program_load_tile(p, b);
    if (with_tmp)
        program_load_tile(p, tmp);  /* scratch, but a Level-1 operand needs a definition */
    int nsel = with_tmp ? 4 : 3;
    e2e_step *cmp;
    if (kind == SEL_TCMPS_TSELS) {
        int s0 = program_scalar(p, t), s1 = program_scalar(p, t);
        e2e_operand cin[2] = {tile_operand(a), scalar_operand(s0)};
        cmp = program_op(p, PTOC_PTO_OP_TCMPS, mask, 2, cin);
        e2e_operand sin[4] = {tile_operand(mask), tile_operand(a), tile_operand(tmp), scalar_operand(s1)};
        if (!with_tmp)
            sin[2] = sin[3];
        program_op(p, PTOC_PTO_OP_TSELS, d, nsel, sin);
    } else {
        e2e_operand cin[2] = {tile_operand(a), tile_operand(b)};
        /* tcmps of two tiles compares with src1's [0,0] */
        cmp = program_op(p, kind == SEL_TCMP_TSEL ? PTOC_PTO_OP_TCMP : PTOC_PTO_OP_TCMPS, mask, 2, cin);
        e2e_operand sin[4] = {tile_operand(mask), tile_operand(kind == SEL_TCMP_TSEL ? a : b),
                              tile_operand(kind == SEL_TCMP_TSEL ? b : a), tile_operand(tmp)};
        program_op(p, PTOC_PTO_OP_TSEL, d, nsel, sin);
    }
    cmp->cmp = mode;
    program_store_tile(p, mask);
    program_store_tile(p, d);
}

/* A compare, then a select of its mask, per kind, compare mode, dtype and
 * class; the select is written with tmp (4 ins) or without (3 ins, "/3" in the
 * statistics) in alternate cases, so each kind and dtype runs both forms. */
static void family_select(e2e_suite *s)
{
    static const char *const kind_names[2][3] = {{"tcmp+tsel/3", "tcmps+tsels/3", "tcmps(tile)+tsel/3"},
                                                 {"tcmp+tsel", "tcmps+tsels", "tcmps(tile)+tsel"}};
    static const char *const short_names[] = {"tcmp_tsel", "tcmps_tsels", "tcmpst_tsel"};
    static const char *const mode_names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    /* tsel/tsels take row_major outer layouts: the five classes, Zn and Zz */
    static const int classes[] = {0, 1, 2, 3, 4, CLASS_ZN, CLASS_ZN + 1};
    static const ref_dtype mask_dtypes[CLASS_ALL] = {REF_U8, REF_U32, REF_U16, REF_U8, REF_U8,
                                                     REF_U8, REF_U8, REF_U8, REF_U8};
    for (int di = 0; di < DTYPE_COUNT; di++) {
        ref_dtype t = all_dtypes[di];
        e2e_case *cases = case_array(64);
        int n = 0;
        for (size_t ci = 0; ci < sizeof classes / sizeof classes[0]; ci++)
            for (int kind = 0; kind < 3; kind++)
                for (int mode = 0; mode < 6; mode++) {
                    /* every mode on aligned tiles; two rotating modes elsewhere (one for the tile form) */
                    int ki = classes[ci];
                    bool keep = ki == 0 || mode == (ki + di) % 6 ||
                                (kind != SEL_TCMPS_TILE_TSEL && mode == (ki + di + 3) % 6);
                    if (!keep)
                        continue;
                    /* half the cases write tsel/tsels without tmp (the ISA pages' form) */
                    bool with_tmp = ((ki + di) / 2 + mode) % 2 == 0;
                    shape_class k = class_of(ki, t);
                    char name[64];
                    snprintf(name, sizeof name, "%s%s_%s_%s_%s", short_names[kind], with_tmp ? "" : "3",
                             mode_names[mode], ref_dtype_name(t), k.name);
                    e2e_case *c = new_case(cases, &n, kind_names[with_tmp][kind], t, &k, name);
                    c->fill = scalars_from_input;
                    build_select(c, (select_kind)kind, (ref_cmp)mode, t, mask_dtypes[ki], &k, with_tmp);
                }
        char module[64];
        snprintf(module, sizeof module, "select_%s", ref_dtype_name(t));
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

/* ---------------------------------------------------------------- thistogram */

/* Uniform (variant 0) or skewed (variant 1: 80% of elements near a few hot
 * values) source data, and filter bytes taken from the data so that filtered
 * passes count something: u16 byte 0 per row, u32 per tile. */
static void histogram_fill(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars,
                           e2e_rng *rng)
{
    const e2e_program *p = &c->prog;
    const e2e_tile *src = &p->tiles[0];
    uint32_t es = ref_dtype_size(src->dtype);
    uint64_t mask = es == 2 ? 0xffff : 0xffffffff, hot[3];
    for (int i = 0; i < 3; i++)
        hot[i] = rng_next(rng) & mask;
    for (int64_t e = 0; e < p->params[0].elems; e++) {
        uint64_t v = rng_next(rng) & mask;
        if (run->variant == 1 && rng_below(rng, 5) != 0)
            v = (hot[rng_below(rng, 3)] + rng_below(rng, 3)) & mask;
        for (uint32_t b = 0; b < es; b++)
            bufs[0][e * es + b] = (uint8_t)(v >> (8 * b));
    }
    int byte = c->aux;
    bool filtered = es == 2 ? byte == 0 : byte < 3;
    if (!filtered)
        return;
    int64_t vr = src->vrows < 0 ? run->vr : src->vrows, vc = src->vcols < 0 ? run->vc : src->vcols;
    for (int64_t r = 0; r < (es == 2 ? vr : 1); r++) {
        /* an element of row r (u16) or of any valid row (u32) supplies the filter */
        int64_t row = es == 2 ? r : (int64_t)rng_below(rng, (uint64_t)vr);
        int64_t e = row * src->cols + (int64_t)rng_below(rng, (uint64_t)vc);
        uint64_t v = 0;
        for (uint32_t b = 0; b < es; b++)
            v |= (uint64_t)bufs[0][e * es + b] << (8 * b);
        if (es == 2)
            bufs[1][r] = (uint8_t)(v >> 8);
        else
            for (int j = 0; j < 3 - byte; j++)          /* idx row j holds byte 3-j */
                bufs[1][j * p->tiles[1].cols] = (uint8_t)(v >> (8 * (3 - j)));
    }
    (void)scalars;
}

static void build_histogram(e2e_case *c, ref_dtype src_t, int byte, int is_msb, ref_dtype dst_t,
                            const shape_class *k)
{
    e2e_program *p = &c->prog;
    int src = full_tile(p, src_t, k), idx;
    program_load_tile(p, src);
    bool u16 = ref_dtype_size(src_t) == 2;
    if (u16 && byte == 0) {
        /* a col_major u8 column (rows a multiple of 32), loaded through a dn view */
        int64_t rows32 = (k->rows + 31) / 32 * 32;
        idx = program_tile(p, REF_U8, rows32, 1, k->vrows, 1);
        p->tiles[idx].layout = REF_COL_MAJOR;
        program_load(p, idx, dn_tile_view(p, idx), -1);
    } else if (!u16 && byte < 3) {
        /* as many columns as src, as A5 requires (a multiple of 32 here) */
        idx = program_tile(p, REF_U8, 3 - byte, k->cols, 3 - byte, 1);
        program_load_tile(p, idx);
    } else {
        /* unused by the op, but loaded: a Level-1 operand needs a definition */
        idx = program_tile(p, REF_U8, 1, 32, 1, 32);
        program_load_tile(p, idx);
    }
    int dst = program_tile(p, dst_t, k->rows, 256, k->vrows, 256);
    e2e_operand in[2] = {tile_operand(src), tile_operand(idx)};
    e2e_step *h = program_op(p, PTOC_PTO_OP_THISTOGRAM, dst, 2, in);
    h->byte = byte;
    h->is_msb = is_msb;
    program_store_tile(p, dst);
    c->aux = byte;
    c->fill = histogram_fill;
    set_runs(c, k, 2);
}

void family_convert(e2e_suite *s);   /* convert.c: tcvt */

static void family_histogram(e2e_suite *s)
{
    static const ref_dtype dst_types[] = {REF_U8, REF_U16, REF_U32, REF_U64};
    static const struct { ref_dtype src; int byte; const char *key; } passes[] = {
        {REF_U16, 1, "u16 BYTE_1"}, {REF_U16, 0, "u16 BYTE_0"}, {REF_U32, 3, "u32 BYTE_3"},
        {REF_U32, 2, "u32 BYTE_2"}, {REF_U32, 1, "u32 BYTE_1"}, {REF_U32, 0, "u32 BYTE_0"},
    };
    for (size_t pi = 0; pi < sizeof passes / sizeof passes[0]; pi++) {
        e2e_case *cases = case_array(32);
        int n = 0;
        ref_dtype st = passes[pi].src;
        for (int ki = 0; ki < CLASS_COUNT; ki++)
            for (size_t di = 0; di < sizeof dst_types / sizeof dst_types[0]; di++) {
                shape_class k = class_of(ki, st);
                char name[64];
                snprintf(name, sizeof name, "hist_%s_b%d_%s_%s", ref_dtype_name(st), passes[pi].byte,
                         ref_dtype_name(dst_types[di]), k.name);
                e2e_case *c = new_case(cases, &n, passes[pi].key, dst_types[di], &k, name);
                build_histogram(c, st, passes[pi].byte, -1, dst_types[di], &k);
            }
        {                                         /* signless source, signed counts: same bits */
            shape_class k = class_of(1, st);
            ref_dtype signless = st == REF_U16 ? REF_I16 : REF_I32, counts = st == REF_U16 ? REF_I32 : REF_I64;
            char name[64];
            snprintf(name, sizeof name, "hist_%s_b%d_%s_ragged", ref_dtype_name(signless), passes[pi].byte,
                     ref_dtype_name(counts));
            e2e_case *c = new_case(cases, &n, passes[pi].key, counts, &k, name);
            build_histogram(c, signless, passes[pi].byte, -1, counts, &k);
        }
        if (st == REF_U16) {                      /* PTOAS's isMSB spelling of the same pass */
            shape_class k = class_of(0, st);
            char name[64];
            snprintf(name, sizeof name, "hist_ui16_msb%d_aligned", passes[pi].byte);
            e2e_case *c = new_case(cases, &n, passes[pi].key, REF_U32, &k, name);
            build_histogram(c, st, passes[pi].byte, passes[pi].byte, REF_U32, &k);
        }
        char module[64];
        snprintf(module, sizeof module, "histogram_%s_b%d", ref_dtype_name(st), passes[pi].byte);
        e2e_run_batch(s, cases, n, module);
        free(cases);
    }
}

/* ---------------------------------------------------------------- data movement */

static void build_copy(e2e_case *c, ref_dtype t, const shape_class *k, int pad, bool pad_value)
{
    e2e_program *p = &c->prog;
    int a = full_tile(p, t, k);
    p->tiles[a].pad = pad;
    int ps = pad_value ? program_scalar(p, t) : -1;
    program_load(p, a, program_tile_view(p, a), ps);
    program_store_tile(p, a);
}

/* A partition at an offset of a larger 2-D tensor, stored into another one. */
static void build_view2d(e2e_case *c, ref_dtype t)
{
    e2e_program *p = &c->prog;
    int a = program_tile(p, t, 16, 64, 13, 37);
    int src = program_ptr(p, t, 32 * 100, 100), dst = program_ptr(p, t, 40 * 90, 90);
    program_load(p, a, (e2e_view){src, 2, {32, 100}, {100, 1}, {5, 7}, {13, 37}}, -1);
    program_store(p, a, (e2e_view){dst, 2, {40, 90}, {90, 1}, {3, 50}, {13, 37}});
}

/* Column-strided 2-D views (every other element of a row) at offsets, with
 * the tile's pad= value filling the loaded rows' tails: the DMA moves such a
 * row as one burst per element. */
static void build_view_strided(e2e_case *c, ref_dtype t, int pad)
{
    e2e_program *p = &c->prog;
    int a = program_tile(p, t, 16, 64, 13, 37);
    p->tiles[a].pad = pad;
    int src = program_ptr(p, t, 32 * 100, 100), dst = program_ptr(p, t, 40 * 90, 90);
    program_load(p, a, (e2e_view){src, 2, {32, 50}, {100, 2}, {5, 3}, {13, 37}}, -1);
    program_store(p, a, (e2e_view){dst, 2, {40, 45}, {90, 2}, {3, 4}, {13, 37}});
    program_store_whole(p, a);
}

/* 5-D ND views: tile rows come from dims 0..3, columns from dim 4. */
static void build_view5d(e2e_case *c, ref_dtype t)
{
    e2e_program *p = &c->prog;
    int a = program_tile(p, t, 8, 64, 8, 37);
    const int64_t shape[5] = {1, 2, 3, 8, 48}, stride[5] = {2 * 3 * 8 * 48, 3 * 8 * 48, 8 * 48, 48, 1};
    int src = program_ptr(p, t, 2 * 3 * 8 * 48, 48), dst = program_ptr(p, t, 2 * 3 * 8 * 48, 48);
    e2e_view in = {src, 5, {0}, {0}, {0, 1, 1, 2, 5}, {1, 1, 2, 4, 37}};
    e2e_view out = {dst, 5, {0}, {0}, {0, 0, 0, 3, 11}, {1, 1, 2, 4, 37}};
    memcpy(in.shape, shape, sizeof shape);
    memcpy(in.stride, stride, sizeof stride);
    memcpy(out.shape, shape, sizeof shape);
    memcpy(out.stride, stride, sizeof stride);
    program_load(p, a, in, -1);
    program_store(p, a, out);
}

/* ---------------------------------------------------------------- dn and nz views */

/* A col_major tile loaded and stored through 2-D dn views (with a pad= value
 * filling each valid column's tail), then stored whole. */
static void build_dn_copy(e2e_case *c, ref_dtype t, const shape_class *k, int pad)
{
    e2e_program *p = &c->prog;
    int a = full_tile(p, t, k);
    p->tiles[a].pad = pad;
    program_load(p, a, dn_tile_view(p, a), -1);
    e2e_view out = dn_tile_view(p, a);
    out.layout_on_op = true;                    /* {layout = dn} on the tstore */
    program_store(p, a, out);
    program_store_whole(p, a);
}

static void set_view5(e2e_view *v, const int64_t *shape, const int64_t *stride, const int64_t *offset,
                      const int64_t *size)
{
    v->rank = 5;
    memcpy(v->shape, shape, sizeof v->shape);
    memcpy(v->stride, stride, sizeof v->stride);
    memcpy(v->offset, offset, sizeof v->offset);
    memcpy(v->size, size, sizeof v->size);
}

/* A 5-D dn view: the tile's 29 rows are dim 3, its 2*3*7 = 42 columns run
 * over dims 4, 2, 1 (4 fastest), in column-major 32x8 slabs. */
static void build_dn5d(e2e_case *c, ref_dtype t)
{
    e2e_program *p = &c->prog;
    int a = program_tile(p, t, 32, 64, 29, 42);
    p->tiles[a].layout = REF_COL_MAJOR;
    const int64_t shape[5] = {1, 2, 3, 32, 8}, stride[5] = {2 * 3 * 256, 3 * 256, 256, 1, 32};
    const int64_t size[5] = {1, 2, 3, 29, 7}, in_at[5] = {0, 0, 0, 1, 1}, out_at[5] = {0, 0, 0, 3, 0};
    e2e_view in = {program_ptr(p, t, 2 * 3 * 256, 32), .layout = REF_GM_DN};
    e2e_view out = {program_ptr(p, t, 2 * 3 * 256, 32), .layout = REF_GM_DN};
    set_view5(&in, shape, stride, in_at, size);
    set_view5(&out, shape, stride, out_at, size);
    program_load(p, a, in, -1);
    program_store(p, a, out);
    program_store_whole(p, a);
}

/* An nz tensor [2, 2, 3, 16, C0] (C0 = 32 / esize: column blocks of 16 x
 * 32-byte fractals) and Nz tiles of 48 x 4*C0: a window of 1 x 2 x 1 blocks
 * (valid 16 x 2*C0, the layout written on the tload) and the whole tensor. */
static void build_nz(e2e_case *c, ref_dtype t, bool whole)
{
    e2e_program *p = &c->prog;
    int64_t c0 = 32 / ref_dtype_size(t), n = 2 * 2 * 3 * 16 * c0;
    int a = program_tile(p, t, 48, 4 * c0, whole ? 48 : 16, whole ? 4 * c0 : 2 * c0);
    p->tiles[a].layout = REF_COL_MAJOR;
    p->tiles[a].box = REF_BOX_ROW_MAJOR;
    const int64_t shape[5] = {2, 2, 3, 16, c0}, stride[5] = {2 * 3 * 16 * c0, 3 * 16 * c0, 16 * c0, c0, 1};
    const int64_t part[5] = {1, 2, 1, 16, c0}, in_at[5] = {1, 0, 2, 0, 0}, out_at[5] = {0, 0, 1, 0, 0};
    const int64_t all[5] = {2, 2, 3, 16, c0}, zero[5] = {0};
    e2e_view in = {program_ptr(p, t, n, c0), .layout = REF_GM_NZ, .layout_on_op = !whole};
    e2e_view out = {program_ptr(p, t, n, c0), .layout = REF_GM_NZ};
    set_view5(&in, shape, stride, whole ? zero : in_at, whole ? all : part);
    set_view5(&out, shape, stride, whole ? zero : out_at, whole ? all : part);
    program_load(p, a, in, -1);
    program_store(p, a, out);
    program_store_whole(p, a);
}

/* The dn and nz cases of one dtype: 2-D dn copies (ragged col_major, a
 * dynamic valid shape, pad= on the ragged one), a 5-D dn view, nz windows. */
static void add_layout_cases(e2e_case *cases, int *n, ref_dtype t)
{
    shape_class ragged = class_of(5, t);         /* col_major, valid 45x13 of 64x16 */
    shape_class dyn = {"dn_dynamic", 64, 64, E2E_DYN_R, E2E_DYN_C, true, REF_COL_MAJOR, REF_NONE_BOX};
    shape_class k = class_of(1, t);
    char name[64];
    snprintf(name, sizeof name, "dn_%s_col_major", ref_dtype_name(t));
    build_dn_copy(new_case(cases, n, "dn 2-D", t, &ragged, name), t, &ragged, 0);
    snprintf(name, sizeof name, "dn_%s_dynamic", ref_dtype_name(t));
    build_dn_copy(new_case(cases, n, "dn 2-D", t, &dyn, name), t, &dyn, 0);
    for (int pad = 1; pad <= (ref_dtype_size(t) == 8 ? 1 : 3); pad++) {
        snprintf(name, sizeof name, "dn_pad%d_%s_col_major", pad, ref_dtype_name(t));
        build_dn_copy(new_case(cases, n, "dn pad=", t, &ragged, name), t, &ragged, pad);
    }
    snprintf(name, sizeof name, "dn5d_%s", ref_dtype_name(t));
    build_dn5d(new_case(cases, n, "dn 5-D", t, &k, name), t);
    for (int whole = 0; whole < 2; whole++) {
        snprintf(name, sizeof name, "nz_%s_%s", ref_dtype_name(t), whole ? "whole" : "window");
        build_nz(new_case(cases, n, "nz 5-D", t, &k, name), t, whole);
    }
}

/* Which mem cases to run: tload's pad_value clause has a family of its own
 * (the cpu target lacks it so far); the self-test needs plain copies only. */
typedef enum mem_cases { MEM_ALL, MEM_PAD_VALUE, MEM_COPIES } mem_cases;

static void family_mem(e2e_suite *s, mem_cases kind)
{
    bool copies_only = kind == MEM_COPIES;
    for (int di = 0; di < DTYPE_COUNT; di++) {
        ref_dtype t = all_dtypes[di];
        bool wide64 = ref_dtype_size(t) == 8;
        e2e_case *cases = case_array(64), *padval = case_array(CLASS_COUNT);
        int n = 0, npadval = 0;
        char name[64];
        for (int ki = 0; ki < CLASS_ALL; ki++) {
            shape_class k = class_of(ki, t);
            snprintf(name, sizeof name, "copy_%s_%s", ref_dtype_name(t), k.name);
            build_copy(new_case(cases, &n, "tload+tstore", t, &k, name), t, &k, 0, false);
            if (copies_only || k.vcols == k.cols || k.layout != REF_ROW_MAJOR || k.box != REF_NONE_BOX)
                continue;                       /* padding needs a ragged row-major row */
            for (int pad = 1; pad <= (wide64 ? 1 : 3); pad++) {
                snprintf(name, sizeof name, "pad%d_%s_%s", pad, ref_dtype_name(t), k.name);
                build_copy(new_case(cases, &n, "tload pad=", t, &k, name), t, &k, pad, false);
            }
            snprintf(name, sizeof name, "padval_%s_%s", ref_dtype_name(t), k.name);
            build_copy(new_case(padval, &npadval, "tload pad_value", t, &k, name), t, &k, 0, true);
        }
        if (!copies_only) {
            shape_class rows_only = {"dynamic_rows", 16, 64, E2E_DYN_R, 37, true, REF_ROW_MAJOR, REF_NONE_BOX};
            snprintf(name, sizeof name, "pad1_%s_dynamic_rows", ref_dtype_name(t));
            build_copy(new_case(cases, &n, "tload pad=", t, &rows_only, name), t, &rows_only, 1, false);
            shape_class k = class_of(1, t);
            snprintf(name, sizeof name, "view2d_%s", ref_dtype_name(t));
            build_view2d(new_case(cases, &n, "2-D partition", t, &k, name), t);
            snprintf(name, sizeof name, "strided_%s", ref_dtype_name(t));
            build_view_strided(new_case(cases, &n, "2-D strided", t, &k, name), t, 0);
            snprintf(name, sizeof name, "strided_pad1_%s", ref_dtype_name(t));
            build_view_strided(new_case(cases, &n, "2-D strided pad=", t, &k, name), t, 1);
            snprintf(name, sizeof name, "view5d_%s", ref_dtype_name(t));
            build_view5d(new_case(cases, &n, "5-D partition", t, &k, name), t);
            add_layout_cases(cases, &n, t);
        }
        char module[64];
        snprintf(module, sizeof module, "mem%s_%s", kind == MEM_PAD_VALUE ? "_padval" : "", ref_dtype_name(t));
        if (kind == MEM_PAD_VALUE)
            e2e_run_batch(s, padval, npadval, module);
        else
            e2e_run_batch(s, cases, n, module);
        free(cases);
        free(padval);
    }
}

/* ---------------------------------------------------------------- main */

static int usage(void)
{
    fprintf(stderr, "usage: e2e_diff elementwise|colexpand|select|histogram|mem|padvalue|selftest|gather|layout "
                    "[--only NAME] [--dump DIR] [--corrupt] [--verbose] [--level1 [--seeded]] [--target a5|a2a3]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    e2e_suite s;
    memset(&s, 0, sizeof s);
    s.family = argv[1];
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            s.only = argv[++i];
        else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc)
            s.dump_dir = argv[++i];
        else if (strcmp(argv[i], "--corrupt") == 0)
            s.corrupt = true;
        else if (strcmp(argv[i], "--verbose") == 0)
            s.verbose = true;
        else if (strcmp(argv[i], "--level1") == 0)
            s.level1 = true;
        else if (strcmp(argv[i], "--seeded") == 0)
            s.seeded = s.level1 = true;    /* the waits of inserted sync: Level 1 only */
        else if (strcmp(argv[i], "--target") == 0 && i + 1 < argc) {
            s.target = ptoc_target_find(argv[++i]);
            if (!s.target || !ptoc_target_runs(s.target))
                return usage();
        }
        else
            return usage();
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (strcmp(s.family, "cube") == 0)
        return e2e_cube(&s);                    /* cube.c: its own kernels and report */
    if (strcmp(s.family, "elementwise") == 0)
        family_elementwise(&s);
    else if (strcmp(s.family, "colexpand") == 0)
        family_colexpand(&s);
    else if (strcmp(s.family, "select") == 0)
        family_select(&s);
    else if (strcmp(s.family, "histogram") == 0)
        family_histogram(&s);
    else if (strcmp(s.family, "convert") == 0)
        family_convert(&s);            /* convert.c */
    else if (strcmp(s.family, "mem") == 0)
        family_mem(&s, MEM_ALL);
    else if (strcmp(s.family, "padvalue") == 0)
        family_mem(&s, MEM_PAD_VALUE);
    else if (strcmp(s.family, "unary") == 0)
        family_unary(&s);
    else if (strcmp(s.family, "reduce") == 0)
        family_reduce(&s);
    else if (strcmp(s.family, "fill") == 0)
        family_fill(&s);
    else if (strcmp(s.family, "ewx") == 0)
        family_ewx(&s);            /* ewx.c */
    else if (strcmp(s.family, "rowexpand") == 0)
        family_rowexpand(&s);          /* rowexpand.c */
    else if (strcmp(s.family, "sort") == 0)
        family_sort(&s);               /* sort.c */
    else if (strcmp(s.family, "gather") == 0)
        family_gather(&s);             /* gather.c */
    else if (strcmp(s.family, "layout") == 0)
        family_layout(&s);
    else if (strcmp(s.family, "selftest") == 0) {
        s.corrupt = true;                       /* the comparison must catch every corrupted run */
        family_mem(&s, MEM_COPIES);
    } else
        return usage();
    return e2e_report(&s);
}
