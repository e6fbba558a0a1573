/* cube.c: the cube family of the differential tests (cpu target, and the
 * A5 and A2/A3 models with --target: their cube intrinsics, after the
 * target's passes with sync inserted, each run checked by the pipe
 * simulator under the target's rules; a case the target's verifier rejects
 * is skipped and counted).
 *
 * Each case is one kernel written here as .pto text, since its tiles live in
 * the cube's spaces rather than UB (program.h's kernels): A (M x K) and B
 * (K x N) load from GM into nz mat tiles, move to a zz left and a zn right
 * tile; the bias row (tmatmul.bias) loads into a mat row and moves to a bias
 * tile; then tmatmul, tmatmul.acc (after a tmatmul into the same acc tile:
 * dst = A*B, then dst += A*B) or tmatmul.bias runs into an nz acc tile, which
 * is stored to GM. Inputs are random from a seed fixed per case name: floats
 * k/128 for k in [-1000, 1000] rounded to the input type (f32 sums then round
 * at most steps), i8 over its whole range. The result must equal
 * ref_tmatmul's (test/reference/ref_cube.c) bit for bit: both sum with one
 * fused multiply-add per k in ascending k, which is exact-rounding, so the
 * order is the only choice and it is the pto-isa CPU reference's.
 *
 * Shapes: aligned (M, K, N = 16, 32, 32) and ragged (valid 13 x 27 x 19 of the
 * same tiles). The tgemv forms run the same kernels with one valid row
 * (M = 1), which is what a gemv computes, so ref_tmatmul is their reference.
 */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */

#include "harness.h"

#include "ptoc/codegen.h"
#include "ptoc/pass.h"
#include "ptoc/ptoc.h"
#include "ptoc/runtime.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum cube_form { CUBE_PLAIN, CUBE_ACC, CUBE_BIAS } cube_form;

typedef struct cube_case {
    ref_dtype in, acc;
    cube_form form;
    bool gemv;                 /* tgemv*: one row (m = 1) */
    bool mx;                   /* the mx forms: in is u8 holding lf8 (lhs) and rf8 (rhs) bits */
    ref_f8 lf8, rf8;
    ref_dtype scale;           /* u8: e8m0 exponents; or a float */
    int64_t m, k, n;           /* valid; the tiles are 16 x 32 x 32 */
    char name[64];
} cube_case;

enum { TM = 16, TK = 32, TKX = 64, TN = 32 };   /* TKX: the mx forms' K */

static const char *const form_suffix[] = {"", ".acc", ".bias"};

/* ---------------------------------------------------------------- the kernel */

static void tile_type(char *buf, size_t n, const char *loc, ref_dtype t, int64_t rows, int64_t cols, int64_t vr,
                      int64_t vc, const char *bl, const char *sl, int fractal)
{
    snprintf(buf, n, "!pto.tile_buf<loc=%s, dtype=%s, rows=%lld, cols=%lld, v_row=%lld, v_col=%lld, blayout=%s, "
                     "slayout=%s, fractal=%d, pad=0>",
             loc, ref_dtype_name(t), (long long)rows, (long long)cols, (long long)vr, (long long)vc, bl, sl, fractal);
}

/* A GM pointer %NAME of rows x cols (row-major, dense) viewed as !P<name>. */
static void emit_view(FILE *f, const char *name, const char *d, int64_t rows, int64_t cols)
{
    fprintf(f,
            "    %%r_%s = arith.constant %lld : index\n    %%c_%s = arith.constant %lld : index\n"
            "    %%tv_%s = pto.make_tensor_view %%%s, shape = [%%r_%s, %%c_%s], strides = [%%c_%s, %%one] : "
            "!pto.tensor_view<?x?x%s>\n"
            "    %%pv_%s = pto.partition_view %%tv_%s, offsets = [%%zero, %%zero], sizes = [%%r_%s, %%c_%s] : "
            "!pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%lldx%lldx%s>\n",
            name, (long long)rows, name, (long long)cols, name, name, name, name, name, d, name, name, name, name, d,
            (long long)rows, (long long)cols, d);
}

static const char *const f8_name[] = {"f8E4M3FN", "f8E5M2"};

/* The dtype spelled in the kernel: the f8 kind of an mx operand, else its own. */
static const char *in_name(const cube_case *c, bool rhs)
{
    return c->mx ? f8_name[rhs ? c->rf8 : c->lf8] : ref_dtype_name(c->in);
}

/* Scale tiles of an mx case: G = ceil(K/32) groups; a_scale M x G, b_scale G x N
 * in GM; on chip a_scale is TM x (32 bytes), b_scale 2 x TN. */
static int64_t groups(const cube_case *c) { return (c->k + 31) / 32; }
static int64_t scale_cols(const cube_case *c) { return 32 / ref_dtype_size(c->scale); }

/* GM pointer %NAME viewed as rows x cols, loaded into mat tile %mNAME of type mt,
 * then moved into %NAME_t of type t. */
static void emit_load_move(FILE *f, const char *name, const char *dt, int64_t rows, int64_t cols,
                           const char *mt, const char *t)
{
    fprintf(f, "    %%m%s = pto.alloc_tile : %s\n    %%%s_t = pto.alloc_tile : %s\n", name, mt, name, t);
    fprintf(f, "    pto.tload ins(%%pv_%s : !pto.partition_tensor_view<%lldx%lldx%s>) outs(%%m%s : %s)\n",
            name, (long long)rows, (long long)cols, dt, name, mt);
    fprintf(f, "    pto.tmov ins(%%m%s : %s) outs(%%%s_t : %s)\n", name, mt, name, t);
}

static void emit_kernel(FILE *f, const cube_case *c)
{
    char ma[256], mb[256], ms[256], l[256], r[256], s[256], acc[256], mls[256], mrs[256], ls[256], rs[256];
    const char *dl = in_name(c, false), *dr = in_name(c, true), *dacc = ref_dtype_name(c->acc);
    const char *dsc = ref_dtype_name(c->scale);
    const char *mm = c->gemv ? "tgemv" : "tmatmul";
    int64_t tk = c->mx ? TKX : TK, g = groups(c), sc = scale_cols(c);
    /* tile_type takes a ref_dtype for its name: spell f8 tiles by hand. */
    snprintf(ma, sizeof ma,
             "!pto.tile_buf<loc=mat, dtype=%s, rows=%d, cols=%lld, v_row=%lld, v_col=%lld, "
             "blayout=col_major, slayout=row_major, fractal=512, pad=0>",
             dl, TM, (long long)tk, (long long)c->m, (long long)c->k);
    snprintf(mb, sizeof mb,
             "!pto.tile_buf<loc=mat, dtype=%s, rows=%lld, cols=%d, v_row=%lld, v_col=%lld, "
             "blayout=col_major, slayout=row_major, fractal=512, pad=0>",
             dr, (long long)tk, TN, (long long)c->k, (long long)c->n);
    snprintf(l, sizeof l,
             "!pto.tile_buf<loc=left, dtype=%s, rows=%d, cols=%lld, v_row=%lld, v_col=%lld, "
             "blayout=row_major, slayout=row_major, fractal=512, pad=0>",
             dl, TM, (long long)tk, (long long)c->m, (long long)c->k);
    snprintf(r, sizeof r,
             "!pto.tile_buf<loc=right, dtype=%s, rows=%lld, cols=%d, v_row=%lld, v_col=%lld, "
             "blayout=row_major, slayout=col_major, fractal=512, pad=0>",
             dr, (long long)tk, TN, (long long)c->k, (long long)c->n);
    tile_type(ms, sizeof ms, "mat", c->acc, 1, TN, 1, c->n, "row_major", "none_box", 512);
    tile_type(s, sizeof s, "bias", c->acc, 1, TN, 1, c->n, "row_major", "none_box", 512);
    tile_type(acc, sizeof acc, "acc", c->acc, TM, TN, c->m, c->n, "col_major", "row_major", 1024);
    tile_type(mls, sizeof mls, "mat", c->scale, TM, sc, c->m, g, "row_major", "none_box", 512);
    tile_type(ls, sizeof ls, "scaling", c->scale, TM, sc, c->m, g, "row_major", "none_box", 512);
    tile_type(mrs, sizeof mrs, "mat", c->scale, 2, TN, g, c->n, "row_major", "none_box", 512);
    tile_type(rs, sizeof rs, "scaling", c->scale, 2, TN, g, c->n, "row_major", "none_box", 512);
    fprintf(f, "  func.func @%s(%%a: !pto.ptr<%s>, %%b: !pto.ptr<%s>, %%s: !pto.ptr<%s>, %%c: !pto.ptr<%s>, "
               "%%as: !pto.ptr<%s>, %%bs: !pto.ptr<%s>) {\n", c->name, dl, dr, dacc, dacc, dsc, dsc);
    fprintf(f, "    %%zero = arith.constant 0 : index\n    %%one = arith.constant 1 : index\n");
    emit_view(f, "a", dl, c->m, c->k);
    emit_view(f, "b", dr, c->k, c->n);
    emit_view(f, "s", dacc, 1, c->n);
    emit_view(f, "c", dacc, c->m, c->n);
    emit_load_move(f, "a", dl, c->m, c->k, ma, l);
    emit_load_move(f, "b", dr, c->k, c->n, mb, r);
    fprintf(f, "    %%acc = pto.alloc_tile : %s\n", acc);
    char ins[2048];
    const char *pre = c->form == CUBE_ACC ? "%acc, " : "";
    if (c->mx) {
        emit_view(f, "as", dsc, c->m, g);
        emit_view(f, "bs", dsc, g, c->n);
        emit_load_move(f, "as", dsc, c->m, g, mls, ls);
        emit_load_move(f, "bs", dsc, g, c->n, mrs, rs);
        snprintf(ins, sizeof ins, "%%a_t, %%as_t, %%b_t, %%bs_t%s : %s, %s, %s, %s%s%s",
                 c->form == CUBE_BIAS ? ", %s_t" : "", l, ls, r, rs, c->form == CUBE_BIAS ? ", " : "",
                 c->form == CUBE_BIAS ? s : "");
    } else {
        snprintf(ins, sizeof ins, "%%a_t, %%b_t%s : %s, %s%s%s", c->form == CUBE_BIAS ? ", %s_t" : "", l, r,
                 c->form == CUBE_BIAS ? ", " : "", c->form == CUBE_BIAS ? s : "");
    }
    const char *x = c->mx ? ".mx" : "";
    if (c->form == CUBE_BIAS) {
        emit_load_move(f, "s", dacc, 1, c->n, ms, s);
        fprintf(f, "    pto.%s%s.bias ins(%s) outs(%%acc : %s)\n", mm, x, ins, acc);
    } else {
        fprintf(f, "    pto.%s%s ins(%s) outs(%%acc : %s)\n", mm, x, ins, acc);
        if (c->form == CUBE_ACC) {
            /* ins with the accumulator first: "%acc, " + ins, and its type before the others */
            const char *colon = strchr(ins, ':');
            fprintf(f, "    pto.%s%s.acc ins(%s%.*s: %s, %s) outs(%%acc : %s)\n", mm, x, pre,
                    (int)(colon - ins), ins, acc, colon + 2, acc);
        }
    }
    fprintf(f, "    pto.tstore ins(%%acc : %s) outs(%%pv_c : !pto.partition_tensor_view<%lldx%lldx%s>)\n", acc,
            (long long)c->m, (long long)c->n, dacc);
    fprintf(f, "    return\n  }\n");
}

/* ---------------------------------------------------------------- data and reference */

static uint64_t random_elem(e2e_rng *g, ref_dtype t)
{
    if (t == REF_I8 || t == REF_I32)
        return rng_next(g) & (t == REF_I8 ? 0xff : 0xffffffffu);
    float v = (float)((int64_t)rng_below(g, 2001) - 1000) / 128.0f;
    switch (t) {
    case REF_F16: return ref_float_to_f16(v);
    case REF_BF16: return ref_float_to_bf16(v);
    default: return ref_float_bits(v);
    }
}

/* A finite f8 of kind k, any of them (specials excluded: NaN payloads are no
 * part of the comparison). */
static uint64_t random_f8(e2e_rng *g, ref_f8 k)
{
    for (;;) {
        uint8_t b = (uint8_t)rng_next(g);
        if (isfinite(ref_f8_value(k, b)))
            return b;
    }
}

/* A scale: an e8m0 exponent near 127 (2^-8 .. 2^8), or such a power of two. */
static uint64_t random_scale(e2e_rng *g, ref_dtype t)
{
    int e = (int)rng_below(g, 17) - 8;
    return t == REF_U8 ? (uint64_t)(127 + e) : ref_bits_of(t, ldexpf(1.0f, e));
}

static ref_tile dense(ref_dtype t, int64_t rows, int64_t cols, uint8_t *data)
{
    return (ref_tile){t, rows, cols, rows, cols, REF_ROW_MAJOR, REF_NONE_BOX, data};
}

/* kind: 0 the dtype's own values, 1 + f8 kind an f8's bits (t is u8), -1 scales. */
static uint8_t *random_buffer(e2e_rng *g, ref_dtype t, int64_t elems, int kind)
{
    uint8_t *p = calloc((size_t)elems, ref_dtype_size(t));
    ref_tile row = dense(t, 1, elems, p);
    for (int64_t i = 0; i < elems; i++)
        ref_set(&row, 0, i, kind > 0 ? random_f8(g, (ref_f8)(kind - 1)) : kind < 0 ? random_scale(g, t)
                                                                                  : random_elem(g, t));
    return p;
}

static uint64_t seed_of(const char *name)
{
    uint64_t h = 1469598103934665603ull;
    for (; *name; name++)
        h = (h ^ (uint8_t)*name) * 1099511628211ull;
    return h;
}

/* Runs case c from `fn`; true when ptoc's bytes equal the reference's. */
static bool run_case(void *fn, const cube_case *c, bool verbose)
{
    e2e_rng g = {seed_of(c->name)};
    uint32_t osize = ref_dtype_size(c->acc);
    size_t cbytes = (size_t)(c->m * c->n) * osize;
    int64_t gr = groups(c);
    uint8_t *a = random_buffer(&g, c->in, c->m * c->k, c->mx ? 1 + (int)c->lf8 : 0);
    uint8_t *b = random_buffer(&g, c->in, c->k * c->n, c->mx ? 1 + (int)c->rf8 : 0);
    uint8_t *s = random_buffer(&g, c->acc, c->n, 0);
    uint8_t *as = random_buffer(&g, c->scale, c->m * gr, -1),
            *bs = random_buffer(&g, c->scale, gr * c->n, -1);
    uint8_t *got = malloc(cbytes), *want = malloc(cbytes);
    memset(got, 0x5a, cbytes);
    memset(want, 0x5a, cbytes);
    ref_tile ta = dense(c->in, c->m, c->k, a), tb = dense(c->in, c->k, c->n, b);
    ref_tile ts = dense(c->acc, 1, c->n, s), tc = dense(c->acc, c->m, c->n, want);
    ref_tile tas = dense(c->scale, c->m, gr, as), tbs = dense(c->scale, gr, c->n, bs);
    const ref_tile *bias = c->form == CUBE_BIAS ? &ts : NULL;
    if (c->mx) {
        ref_tmatmul_mx(&tc, NULL, &ta, c->lf8, &tas, &tb, c->rf8, &tbs, bias);
        if (c->form == CUBE_ACC)
            ref_tmatmul_mx(&tc, &tc, &ta, c->lf8, &tas, &tb, c->rf8, &tbs, NULL);
    } else {
        ref_tmatmul(&tc, NULL, &ta, &tb, bias);
        if (c->form == CUBE_ACC)
            ref_tmatmul(&tc, &tc, &ta, &tb, NULL);
    }
    ptoc_rt_arg args[6] = {{PTOC_RT_ARG_PTR, {.ptr = a}}, {PTOC_RT_ARG_PTR, {.ptr = b}},
                           {PTOC_RT_ARG_PTR, {.ptr = s}}, {PTOC_RT_ARG_PTR, {.ptr = got}},
                           {PTOC_RT_ARG_PTR, {.ptr = as}}, {PTOC_RT_ARG_PTR, {.ptr = bs}}};
    ptoc_rt_launch_options opts = {1, false};
    char *err = NULL;
    bool ok = ptoc_rt_launch(fn, args, 6, &opts, &err);
    if (!ok)
        printf("FAIL %s: %s\n", c->name, err ? err : "trap");
    for (size_t i = 0; ok && i < cbytes; i += osize)
        if (memcmp(got + i, want + i, osize) != 0) {
            char gs[64], ws[64];
            uint64_t gv = 0, wv = 0;
            memcpy(&gv, got + i, osize);
            memcpy(&wv, want + i, osize);
            ref_format(gs, sizeof gs, c->acc, gv);
            ref_format(ws, sizeof ws, c->acc, wv);
            printf("FAIL %s: c[%zu] = %s, reference %s\n", c->name, i / osize, gs, ws);
            ok = false;
        }
    if (ok && verbose)
        printf("ok %s\n", c->name);
    free(err);
    free(a), free(b), free(s), free(as), free(bs), free(got), free(want);
    return ok;
}

/* ---------------------------------------------------------------- the family */

/* Compiles `text` for the cpu target and runs case i (named names(cases, i))
 * through run(fn, cases, i, verbose) for every i < n. */
typedef bool (*case_runner)(void *fn, const void *cases, int i, bool verbose);
typedef const char *(*case_namer)(const void *cases, int i);

static const ptoc_target *target_of(const e2e_suite *s)
{
    return s->target ? s->target : ptoc_target_find("cpu");
}

/* A model target's pipeline before code generation: Level 2 with sync, then its lowering. */
static bool run_target_passes(ptoc_context *ctx, ptoc_op *module, ptoc_arena *arena, const ptoc_target *t)
{
    if (!t->lowering)
        return true;
    char pipeline[512];
    snprintf(pipeline, sizeof pipeline, "%s,%s", t->pipeline(2, true), t->lowering);
    ptoc_pm_config config = {.verify_each = true};
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    bool ok = ptoc_pm_parse(pm, pipeline) && ptoc_pm_run(pm, module, arena);
    ptoc_pm_destroy(pm);
    return ok;
}

/* Whether `text` (a module of one kernel) verifies under the target's rules, silently. */
static void quiet(void *user, const ptoc_diagnostic *d) { (void)user, (void)d; }

static bool legal_on_target(const e2e_suite *s, const char *text, size_t len)
{
    if (!s->target)
        return true;
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    ptoc_context_set_option(ctx, "pto-arch", s->target->arch);
    ptoc_context_set_diag_handler(ctx, quiet, NULL, NULL);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = ptoc_parse(ctx, arena, text, len, "case.pto", NULL);
    bool ok = module && ptoc_verify(module);
    ptoc_context_destroy(ctx);
    return ok;
}

/* The pipe simulator's verdict on the last launch, under the target's rules. */
static bool pipes_clean(const e2e_suite *s, const char *name)
{
    char *reports = NULL;
    ptoc_rt_arch_rules rules = ptoc_pipe_rules(ptoc_pto_arch_from_name(target_of(s)->arch));
    uint32_t n = ptoc_rt_pipe_check(&rules, &reports);
    if (n)
        printf("FAIL %s: the pipe simulator found %u errors:\n%s", name, n, reports ? reports : "");
    free(reports);
    ptoc_rt_pipe_reset();
    return n == 0;
}

static int run_module(const char *text, size_t len, const void *cases, int n, case_namer name,
                      case_runner run, const e2e_suite *s)
{
    const ptoc_target *target = target_of(s);
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    ptoc_context_set_option(ctx, "pto-arch", target->arch);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_source_add(ctx, ptoc_ident_cstr(ctx, "cube.pto"), text, len);
    ptoc_op *module = ptoc_parse(ctx, arena, text, len, "cube.pto", NULL);
    int failures = 0;
    char *err = NULL;
    ptoc_jit *jit = NULL;
    ptoc_codegen_options opts = ptoc_codegen_defaults();
    opts.target = target;
    opts.pipe_events = target->lowering != NULL;
    bool ready = module && ptoc_verify(module) && run_target_passes(ctx, module, arena, target);
    ptoc_llvm_module *m = ready ? ptoc_llvm_lower(module, &opts) : NULL;
    if (m && ptoc_llvm_optimize(m, &err))
        jit = ptoc_jit_create(m, &err);
    if (!jit) {
        printf("FAIL cube: compile failed%s%s\n", err ? ": " : "", err ? err : "");
        failures = n;
    }
    for (int i = 0; jit && i < n; i++)
        if (!s->only || strcmp(s->only, name(cases, i)) == 0) {
            ptoc_rt_pipe_reset();
            bool ok = run(ptoc_jit_lookup(jit, name(cases, i)), cases, i, s->verbose);
            failures += !(target->lowering ? pipes_clean(s, name(cases, i)) && ok : ok);
        }
    free(err);
    if (jit)
        ptoc_jit_destroy(jit);
    ptoc_context_destroy(ctx);
    return failures;
}

static const char *cube_name(const void *cases, int i) { return ((const cube_case *)cases)[i].name; }

static bool cube_run(void *fn, const void *cases, int i, bool verbose)
{
    return run_case(fn, &((const cube_case *)cases)[i], verbose);
}

/* The module of the cases legal on the target, each kernel emitted by
 * `emit`; the others leave `cases` (elements of `size` bytes, *n of them)
 * and are counted in s->illegal. */
typedef void (*kernel_emitter)(FILE *f, const void *c);

static char *module_of(e2e_suite *s, void *cases, size_t size, int *n, kernel_emitter emit, size_t *len)
{
    const char *arch = target_of(s)->arch;
    int kept = 0;
    for (int i = 0; i < *n; i++) {
        char *one = NULL;
        size_t one_len = 0;
        FILE *f = open_memstream(&one, &one_len);
        fprintf(f, "module attributes {pto.target_arch = \"%s\"} {\n", arch);
        emit(f, (char *)cases + (size_t)i * size);
        fprintf(f, "}\n");
        fclose(f);
        if (legal_on_target(s, one, one_len))
            memmove((char *)cases + (size_t)kept++ * size, (char *)cases + (size_t)i * size, size);
        else
            s->illegal++;
        free(one);
    }
    *n = kept;
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    fprintf(f, "module attributes {pto.target_arch = \"%s\"} {\n", arch);
    for (int i = 0; i < kept; i++)
        emit(f, (char *)cases + (size_t)i * size);
    fprintf(f, "}\n");
    fclose(f);
    return text;
}

static void emit_cube_kernel(FILE *f, const void *c) { emit_kernel(f, c); }

/* Writes the module to the dump directory, when one is given. */
static void dump(const e2e_suite *s, const char *file, const char *text, size_t len)
{
    if (!s->dump_dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", s->dump_dir, file);
    FILE *d = fopen(path, "w");
    if (d)
        fwrite(text, 1, len, d), fclose(d);
}

/* ---------------------------------------------------------------- FIX quantisation */

/* A quantising move out of acc: A (16 x 32) * B (32 x 32) into acc, then
 * tmov with a pre-quant scalar or an fp tile of 32 quant words (loaded from
 * GM into mat, moved to scaling) into a vec tile of `out`, stored to GM; or
 * the same straight from acc to GM by tstore (scalar) or tstore_fp, or by a
 * plain converting tstore, optionally atomic (adding into GM's contents). */
typedef struct fix_case {
    ref_dtype in, acc, out;
    bool vector, relu;
    bool store;                /* tstore (or tstore_fp) from acc instead of tmov + tstore */
    bool quant;                /* false: a plain converting store, no quant word */
    bool atomic;               /* the store adds into GM's contents */
    bool raw;                  /* the fp tile is declared f32 (1 x 64): read as 64-bit words all the same */
    char name[64];
} fix_case;

static void emit_fix_kernel(FILE *f, const fix_case *c)
{
    char ma[256], mb[256], l[256], r[256], acc[256], mw[256], fp[256], v[256];
    const char *din = ref_dtype_name(c->in), *dout = ref_dtype_name(c->out);
    tile_type(ma, sizeof ma, "mat", c->in, TM, TK, TM, TK, "col_major", "row_major", 512);
    tile_type(mb, sizeof mb, "mat", c->in, TK, TN, TK, TN, "col_major", "row_major", 512);
    tile_type(l, sizeof l, "left", c->in, TM, TK, TM, TK, "row_major", "row_major", 512);
    tile_type(r, sizeof r, "right", c->in, TK, TN, TK, TN, "row_major", "col_major", 512);
    tile_type(acc, sizeof acc, "acc", c->acc, TM, TN, TM, TN, "col_major", "row_major", 1024);
    ref_dtype wt = c->raw ? REF_F32 : REF_U64;
    int wn = c->raw ? 2 * TN : TN;
    const char *dw = ref_dtype_name(wt);
    tile_type(mw, sizeof mw, "mat", wt, 1, wn, 1, wn, "row_major", "none_box", 512);
    tile_type(fp, sizeof fp, "scaling", wt, 1, wn, 1, wn, "row_major", "none_box", 512);
    tile_type(v, sizeof v, "vec", c->out, TM, TN, TM, TN, "row_major", "none_box", 512);
    fprintf(f, "  func.func @%s(%%a: !pto.ptr<%s>, %%b: !pto.ptr<%s>, %%w: !pto.ptr<%s>, %%c: !pto.ptr<%s>, "
               "%%q: i64) {\n", c->name, din, din, dw, dout);
    fprintf(f, "    %%zero = arith.constant 0 : index\n    %%one = arith.constant 1 : index\n");
    emit_view(f, "a", din, TM, TK);
    emit_view(f, "b", din, TK, TN);
    emit_view(f, "w", dw, 1, wn);
    emit_view(f, "c", dout, TM, TN);
    emit_load_move(f, "a", din, TM, TK, ma, l);
    emit_load_move(f, "b", din, TK, TN, mb, r);
    fprintf(f, "    %%acc = pto.alloc_tile : %s\n    %%v = pto.alloc_tile : %s\n", acc, v);
    fprintf(f, "    pto.tmatmul ins(%%a_t, %%b_t : %s, %s) outs(%%acc : %s)\n", l, r, acc);
    char quant[320];
    if (c->vector) {
        emit_load_move(f, "w", dw, 1, wn, mw, fp);
        snprintf(quant, sizeof quant, "%%w_t : %s", fp);
    } else {
        snprintf(quant, sizeof quant, "%%q : i64");
    }
    char pv[96], attrs[160];
    snprintf(pv, sizeof pv, "!pto.partition_tensor_view<%dx%dx%s>", TM, TN, dout);
    snprintf(attrs, sizeof attrs, "%s%s%s%s", c->relu || c->atomic ? " {" : "",
             c->relu ? "reluPreMode = #pto<relu_pre_mode normal_relu>" : "", c->relu && c->atomic ? ", " : "",
             c->atomic ? "atomicType = #pto<atomic_type atomic_add>}" : c->relu ? "}" : "");
    if (!c->store) {
        fprintf(f, "    pto.tmov ins(%%acc : %s, %s) outs(%%v : %s)%s\n", acc, quant, v, attrs);
        fprintf(f, "    pto.tstore ins(%%v : %s) outs(%%pv_c : %s)\n", v, pv);
    } else if (c->quant && c->vector) {
        fprintf(f, "    pto.tstore_fp ins(%%acc, %%w_t : %s, %s) outs(%%pv_c : %s)\n", acc, fp, pv);
    } else {
        fprintf(f, "    pto.tstore ins(%%acc : %s%s%s) outs(%%pv_c : %s)%s\n", acc, c->quant ? ", " : "",
                c->quant ? quant : "", pv, attrs);
    }
    fprintf(f, "    return\n  }\n");
}

/* A quant word: a scale +-(1.m) * 2^e, e in [-14, 2] (its low 13 bits, which
 * the vector form drops, random too), shift, offset and sign bit random. */
static uint64_t random_word(e2e_rng *g)
{
    uint32_t e = 127 - 14 + (uint32_t)rng_below(g, 17);
    uint32_t scale = (uint32_t)(rng_next(g) & 0x807fffffu) | e << 23;
    uint64_t shift = rng_below(g, 16), offset = rng_below(g, 512), sign = rng_below(g, 2);
    return scale | shift << 32 | offset << 37 | sign << 46;
}

/* The element a case leaves in GM for accumulator bits `acc` (old: GM's). */
static uint64_t fix_expected(const fix_case *c, uint64_t acc, uint64_t word, uint64_t old)
{
    uint64_t v = c->quant ? ref_fix_quant(c->acc, c->out, acc, word, c->vector, c->relu)
               : c->acc == c->out ? acc : ref_bits_of(c->out, ref_float_of(c->acc, acc));
    if (!c->atomic)
        return v;
    if (ref_dtype_is_float(c->out))
        return ref_bits_of(c->out, ref_float_of(c->out, old) + ref_float_of(c->out, v));
    uint64_t mask = ref_dtype_size(c->out) == 8 ? ~0ull : (1ull << (8 * ref_dtype_size(c->out))) - 1;
    return (old + v) & mask;
}

static bool run_fix_case(void *fn, const void *cases, int idx, bool verbose)
{
    const fix_case *c = &((const fix_case *)cases)[idx];
    e2e_rng g = {seed_of(c->name)};
    uint32_t osize = ref_dtype_size(c->out);
    size_t bytes = (size_t)(TM * TN) * osize;
    uint8_t *a = random_buffer(&g, c->in, TM * TK, 0), *b = random_buffer(&g, c->in, TK * TN, 0);
    uint64_t words[TN];
    for (int j = 0; j < TN; j++)
        words[j] = random_word(&g);
    uint8_t *accv = calloc(TM * TN, 4), *got = random_buffer(&g, c->out, TM * TN, 0), *want = malloc(bytes);
    memcpy(want, got, bytes);   /* what an atomic store adds to */
    ref_tile ta = dense(c->in, TM, TK, a), tb = dense(c->in, TK, TN, b), tacc = dense(c->acc, TM, TN, accv);
    ref_tile tw = dense(c->out, TM, TN, want);
    ref_tmatmul(&tacc, NULL, &ta, &tb, NULL);
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++)
            ref_set(&tw, i, j,
                    fix_expected(c, ref_get(&tacc, i, j), words[c->vector ? j : 0], ref_get(&tw, i, j)));
    ptoc_rt_arg args[5] = {{PTOC_RT_ARG_PTR, {.ptr = a}}, {PTOC_RT_ARG_PTR, {.ptr = b}},
                           {PTOC_RT_ARG_PTR, {.ptr = words}}, {PTOC_RT_ARG_PTR, {.ptr = got}},
                           {PTOC_RT_ARG_I64, {.i = (int64_t)words[0]}}};
    ptoc_rt_launch_options opts = {1, false};
    char *err = NULL;
    bool ok = ptoc_rt_launch(fn, args, 5, &opts, &err);
    if (!ok)
        printf("FAIL %s: %s\n", c->name, err ? err : "trap");
    for (size_t i = 0; ok && i < bytes; i += osize)
        if (memcmp(got + i, want + i, osize) != 0) {
            char gs[64], ws[64], as[64];
            uint64_t gv = 0, wv = 0;
            memcpy(&gv, got + i, osize);
            memcpy(&wv, want + i, osize);
            ref_format(gs, sizeof gs, c->out, gv);
            ref_format(ws, sizeof ws, c->out, wv);
            ref_format(as, sizeof as, c->acc,
                       ref_get(&tacc, (int64_t)(i / osize) / TN, (int64_t)(i / osize) % TN));
            printf("FAIL %s: c[%zu] = %s, reference %s (acc %s, word 0x%016llx)\n", c->name, i / osize, gs,
                   ws, as, (unsigned long long)words[c->vector ? (i / osize) % TN : 0]);
            ok = false;
        }
    if (ok && verbose)
        printf("ok %s\n", c->name);
    free(err);
    free(a), free(b), free(accv), free(got), free(want);
    return ok;
}

static void emit_fix_case(FILE *f, const void *c) { emit_fix_kernel(f, c); }

static const char *fix_name(const void *cases, int i) { return ((const fix_case *)cases)[i].name; }

static int e2e_cube_fix(e2e_suite *s)
{
    static const ref_dtype pairs[][3] = {{REF_F16, REF_F32, REF_I8},  {REF_F16, REF_F32, REF_U8},
                                         {REF_F16, REF_F32, REF_F16}, {REF_F16, REF_F32, REF_BF16},
                                         {REF_I8, REF_I32, REF_I8},   {REF_I8, REF_I32, REF_U8},
                                         {REF_I8, REF_I32, REF_F16},  {REF_I8, REF_I32, REF_I16}};
    enum { NP = sizeof pairs / sizeof pairs[0] };
    fix_case cases[NP * 7 + 8];
    int n = 0;
    /* A2/A3 has no path from L0C to UB (its TMov moves acc to mat only): such a
     * case is not legal there (the backend refuses it; the verifier, as PTOAS's,
     * accepts the loc pair on every arch). */
    bool acc_to_vec = !s->target || !strcmp(s->target->arch, "a5") || !strcmp(s->target->arch, "cpu");
    for (int p = 0; p < NP; p++)
        for (int vector = 0; vector < 2; vector++)
            for (int relu = 0; relu < 2; relu++) {
                for (int store = 0; store < 2; store++) {
                    if (!store && !acc_to_vec) {
                        s->illegal++;
                        continue;
                    }
                    if (store && vector && relu)
                        continue;                   /* tstore_fp has no relu */
                    if (store && !vector && pairs[p][2] == REF_I16)
                        continue;                   /* tstore's pre-quant scalar stores no i16 (verifier) */
                    fix_case *c = &cases[n++];
                    *c = (fix_case){pairs[p][0], pairs[p][1], pairs[p][2], vector, relu,
                                    store,       true,        false,       false,  ""};
                    snprintf(c->name, sizeof c->name, "%s_quant_%s_%s_%s%s", store ? "tstore" : "tmov",
                             ref_dtype_name(c->acc), ref_dtype_name(c->out), vector ? "fp" : "scalar",
                             relu ? "_relu" : "");
                }
            }
    /* fp tiles declared f32: the same words */
    for (int p = 0; p < 2; p++) {
        if (!p && !acc_to_vec) {
            s->illegal++;
            continue;
        }
        fix_case *c = &cases[n++];
        *c = (fix_case){REF_F16, REF_F32, p ? REF_F16 : REF_I8, true, false, p, true, false, true, ""};
        snprintf(c->name, sizeof c->name, "%s_quant_f32_%s_fp_f32words", p ? "tstore" : "tmov",
                 ref_dtype_name(c->out));
    }
    /* atomic stores from acc: plain, converting, quantising */
    static const struct { ref_dtype in, acc, out; bool quant;
    } atomics[] = {{REF_F16, REF_F32, REF_F32, false}, {REF_F16, REF_F32, REF_F16, false},
                   {REF_F16, REF_F32, REF_BF16, true}, {REF_I8, REF_I32, REF_I32, false},
                   {REF_I8, REF_I32, REF_I8, true},    {REF_I8, REF_I32, REF_F16, true}};
    for (size_t a = 0; a < sizeof atomics / sizeof atomics[0]; a++) {
        fix_case *c = &cases[n++];
        *c = (fix_case){atomics[a].in, atomics[a].acc,   atomics[a].out, false, false,
                        true,          atomics[a].quant, true,           false, ""};
        snprintf(c->name, sizeof c->name, "tstore_atomic_%s_%s%s", ref_dtype_name(c->acc),
                 ref_dtype_name(c->out), c->quant ? "_quant" : "");
    }
    size_t len = 0;
    char *text = module_of(s, cases, sizeof cases[0], &n, emit_fix_case, &len);
    dump(s, "cube_fix.pto", text, len);
    int failures = run_module(text, len, cases, n, fix_name, run_fix_case, s);
    free(text);
    printf(
        "cube: %d FIX cases (tmov, tstore, tstore_fp from f32, i32 acc to i8, ui8, f16, bf16, i16 x scalar, "
        "fp tile x relu; atomic tstore), %d failed\n",
        n, failures);
    return failures;
}

/* The mx cases: the f8 pairs with e8m0 scales, one pair with f16 scales. */
static int mx_cases(cube_case *cases)
{
    static const struct { ref_f8 l, r; ref_dtype scale; } kinds[] = {
        {REF_F8_E4M3FN, REF_F8_E4M3FN, REF_U8}, {REF_F8_E4M3FN, REF_F8_E5M2, REF_U8},
        {REF_F8_E5M2, REF_F8_E4M3FN, REF_U8}, {REF_F8_E5M2, REF_F8_E5M2, REF_U8},
        {REF_F8_E4M3FN, REF_F8_E4M3FN, REF_F16}};
    static const int64_t shapes[][3] = {{TM, TKX, TN}, {13, 50, 19}};
    int n = 0;
    for (int gemv = 0; gemv < 2; gemv++)
        for (size_t p = 0; p < sizeof kinds / sizeof kinds[0]; p++)
            for (int form = 0; form < 3; form++)
                for (int sh = 0; sh < 2; sh++) {
                    cube_case *c = &cases[n++];
                    *c = (cube_case){REF_U8,        REF_F32,        (cube_form)form,
                                     gemv,          true,           kinds[p].l,
                                     kinds[p].r,    kinds[p].scale, gemv ? 1 : shapes[sh][0],
                                     shapes[sh][1], shapes[sh][2],  ""};
                    snprintf(c->name, sizeof c->name, "%s_mx%s_%s_%s_%s%s", gemv ? "tgemv" : "tmatmul",
                             form_suffix[form], f8_name[c->lf8], f8_name[c->rf8],
                             kinds[p].scale == REF_U8 ? "" : "f16scale_", sh ? "ragged" : "aligned");
                }
    return n;
}

int e2e_cube(e2e_suite *s)
{
    static const ref_dtype pairs[][2] = {{REF_F16, REF_F32}, {REF_BF16, REF_F32}, {REF_F32, REF_F32}, {REF_I8, REF_I32}};
    static const int64_t shapes[][3] = {{TM, TK, TN}, {13, 27, 19}};
    cube_case cases[4 * 3 * 2 * 2 + 5 * 3 * 2 * 2];
    int n = 0;
    for (int gemv = 0; gemv < 2; gemv++)
        for (int p = 0; p < 4; p++)
            for (int form = 0; form < 3; form++)
                for (int sh = 0; sh < 2; sh++) {
                    cube_case *c = &cases[n++];
                    *c = (cube_case){pairs[p][0],   pairs[p][1],   (cube_form)form,
                                     gemv,          false,         REF_F8_E4M3FN,
                                     REF_F8_E4M3FN, REF_U8,        gemv ? 1 : shapes[sh][0],
                                     shapes[sh][1], shapes[sh][2], ""};
                    snprintf(c->name, sizeof c->name, "%s%s_%s_%s", gemv ? "tgemv" : "tmatmul",
                             form_suffix[form], ref_dtype_name(c->in), sh ? "ragged" : "aligned");
                }
    n += mx_cases(cases + n);   /* A2/A3's verifier rejects them: counted as not legal there */
    for (int i = 0; i < n; i++)
        for (char *q = cases[i].name; *q; q++)
            if (*q == '.')
                *q = '_';
    size_t len = 0;
    char *text = module_of(s, cases, sizeof cases[0], &n, emit_cube_kernel, &len);
    dump(s, "cube.pto", text, len);
    int failures = run_module(text, len, cases, n, cube_name, cube_run, s);
    free(text);
    printf(
        "cube: %d cases (tmatmul, tgemv x plain, .acc, .bias x f16, bf16, f32, i8; the mx forms x f8 pairs; "
        "aligned, ragged), %d failed\n",
        n, failures);
    int fix_failures = e2e_cube_fix(s);
    if (s->target)
        printf("cube: %d cases not legal on %s, %d not lowered there (skipped)\n", s->illegal, s->target->name,
               s->unlowered);
    return failures || fix_failures ? 1 : 0;
}
