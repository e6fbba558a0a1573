/* harness.c: compile a batch of e2e programs with ptoc (parse, verify with
 * the target's arch (cpu, or a5 / a2a3 for the target models), in Level-1 mode the
 * auto-mode passes and sync insertion, the target's lowering passes, lower
 * with the pipe simulator's events and the GM checks, -O2, JIT), run each case
 * through ptoc_rt_launch (its buffers registered at their exact sizes, so any
 * access outside them fails the run) and the C reference on identical
 * inputs, and compare every byte of every GM buffer; the pipe simulator must
 * find no race, deadlock or id set twice in any run (manual kernels carry
 * their own sync). On a target model, a case its verifier rejects is skipped
 * and counted: it is not legal there; so is one the target does not generate
 * code for after its lowering passes (an op its lowering does not cover
 * yet): it is not lowered there. On A2/A3 the reference compares as the
 * hardware library does (ref_tcmp_a2a3), and the cases whose compare meets
 * one of its quirks are counted.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"

#include "ptoc/codegen.h"
#include "ptoc/pass.h"
#include "ptoc/pto.h"
#include "ptoc/ptoc.h"
#include "ptoc/runtime.h"
#include "ptoc/syntax.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------- random data */

uint64_t rng_next(e2e_rng *r)
{
    /* splitmix64: fast, and good enough for test data */
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

uint64_t rng_below(e2e_rng *r, uint64_t n)
{
    return n ? rng_next(r) % n : 0;
}

static uint64_t dtype_mask(ref_dtype t)
{
    uint32_t bits = 8 * ref_dtype_size(t);
    return bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
}

static uint64_t float_to_dtype(ref_dtype t, float f)
{
    return t == REF_F16 ? ref_float_to_f16(f) : t == REF_BF16 ? ref_float_to_bf16(f) : ref_float_bits(f);
}

static uint64_t random_int(e2e_rng *r, ref_dtype t)
{
    uint64_t mask = dtype_mask(t), pick = rng_below(r, 16);
    if (pick < 2) {
        const uint64_t extremes[5] = {0, 1, mask, (mask >> 1) + 1, mask >> 1};   /* 0 1 -1 MIN MAX */
        return extremes[rng_below(r, 5)];
    }
    if (pick < 6)                                    /* small values: divisions, equal compares */
        return ((uint64_t)rng_below(r, 17) - 8) & mask;
    return rng_next(r) & mask;
}

/* Only one NaN pattern: x86 propagates the first operand's payload, and the
 * reference and LLVM may order commutative operands differently. */
static uint64_t random_float(e2e_rng *r, ref_dtype t)
{
    uint64_t pick = rng_below(r, 32);
    switch (pick) {
    case 0: return float_to_dtype(t, NAN) & (t == REF_F32 ? 0x7fffffffu : 0x7fffu);
    case 1: return float_to_dtype(t, INFINITY);
    case 2: return float_to_dtype(t, -INFINITY);
    case 3: return float_to_dtype(t, -0.0f);
    case 4: return 0;
    case 5: return 1 + rng_below(r, 0x3f);           /* a subnormal of every float dtype */
    default: break;
    }
    if (pick < 14)
        return float_to_dtype(t, (float)((int)rng_below(r, 9) - 4));
    double u = (double)(rng_next(r) >> 11) * 0x1p-53;
    return float_to_dtype(t, (float)(u * 200.0 - 100.0));
}

uint64_t rng_value(e2e_rng *r, ref_dtype t)
{
    return ref_dtype_is_float(t) ? random_float(r, t) : random_int(r, t);
}

static void store_elem(uint8_t *p, uint32_t size, uint64_t v)
{
    for (uint32_t i = 0; i < size; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t load_elem(const uint8_t *p, uint32_t size)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < size; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t hash_name(const char *s, int salt)
{
    uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)salt;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3u;
    return h;
}

/* ---------------------------------------------------------------- statistics */

static int stat_index(e2e_suite *s, const char *op)
{
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].op, op) == 0)
            return i;
    s->stats[s->nstats] = (e2e_stat){.op = op};
    return s->nstats++;
}

/* ---------------------------------------------------------------- compiling */

typedef struct compiled {
    ptoc_context *ctx;
    ptoc_jit *jit;
} compiled;

static const ptoc_target *target_of(const e2e_suite *s)
{
    return s->target ? s->target : ptoc_target_default();
}

static char *module_text(const e2e_suite *s, e2e_case *cases, int n, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    fprintf(out, "module attributes {pto.target_arch = \"%s\"} {\n", target_of(s)->arch);
    for (int i = 0; i < n; i++)
        if (s->level1)
            program_emit_level1(&cases[i].prog, out);
        else
            program_emit(&cases[i].prog, target_of(s)->arch, out);
    fputs("}\n", out);
    fclose(out);
    return text;
}

static void dump_module(const e2e_suite *s, const char *name, const char *text, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.pto", s->dump_dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return;
    }
    fwrite(text, 1, len, f);
    fclose(f);
}

/* Auto mode, as `ptoc` runs it on a kernel with Level-1 tiles (which has no
 * sync of its own: pto-insert-sync gives it its pairs and barriers). */
static const char *const level1_pipeline = "pto-bufferize,pto-plan-memory,pto-insert-tassign,pto-insert-sync";

static bool run_passes(ptoc_context *ctx, ptoc_op *module, ptoc_arena *arena, const char *name,
                       const char *pipeline)
{
    ptoc_pm_config config = {.verify_each = true};
    ptoc_pm *pm = ptoc_pm_create(ctx, &config);
    bool ok = ptoc_pm_parse(pm, pipeline) && ptoc_pm_run(pm, module, arena);
    ptoc_pm_destroy(pm);
    if (!ok)
        fprintf(stderr, "%s: %s failed\n", name, pipeline);
    return ok;
}

typedef struct nth_op { const char *name; int k; ptoc_op *found; int count; } nth_op;

static ptoc_walk_result find_nth(ptoc_op *op, void *user)
{
    nth_op *n = user;
    if (ptoc_op_is(op, n->name) && n->count++ == n->k)
        n->found = op;
    return PTOC_WALK_ADVANCE;
}

/* After the passes: erase the drop_wait-th pto.wait_flag (when >= 0), and
 * count the wait_flags in *nwaits (when not NULL). False: no such wait. */
static bool seed_waits(ptoc_op *module, int drop_wait, int *nwaits)
{
    nth_op n = {"pto.wait_flag", drop_wait, NULL, 0};
    ptoc_walk_pre(module, find_nth, &n);
    if (nwaits)
        *nwaits = n.count;
    if (drop_wait < 0)
        return true;
    if (n.found)
        ptoc_op_erase(n.found);
    return n.found != NULL;
}

/* A context for `target`'s arch (its diagnostics to `handler`, when not
 * NULL), and `text` parsed and verified in it; NULL when either fails. */
static ptoc_op *parse_verified(ptoc_context **ctx, ptoc_arena **arena, const ptoc_target *target, const char *name,
                               const char *text, size_t len, ptoc_diag_handler handler, void *user)
{
    *ctx = ptoc_context_create(NULL);
    ptoc_register_all(*ctx);
    ptoc_context_set_option(*ctx, "pto-arch", target->arch);
    if (handler)
        ptoc_context_set_diag_handler(*ctx, handler, user, NULL);
    *arena = ptoc_arena_create(*ctx);
    ptoc_source_add(*ctx, ptoc_ident_cstr(*ctx, name), text, len);
    ptoc_op *module = ptoc_parse(*ctx, *arena, text, len, name, NULL);
    return module && ptoc_verify(module) ? module : NULL;
}

static bool compile(compiled *c, const e2e_suite *s, const char *name, const char *text, size_t len, bool level1,
                    int drop_wait, int *nwaits)
{
    char *err = NULL;
    const ptoc_target *target = target_of(s);
    ptoc_arena *arena;
    c->jit = NULL;
    ptoc_op *module = parse_verified(&c->ctx, &arena, target, name, text, len, NULL, NULL);
    if (!module) {
        fprintf(stderr, "%s: parse/verify failed\n", name);
        return false;
    }
    if (level1 && !run_passes(c->ctx, module, arena, name, level1_pipeline))
        return false;
    if (!seed_waits(module, drop_wait, nwaits))
        return false;
    if (target->lowering && !run_passes(c->ctx, module, arena, name, target->lowering))
        return false;
    ptoc_codegen_options opts = ptoc_codegen_defaults();
    opts.target = target;
    /* The host's features (so the vector code paths run) with the generic
     * x86-64 scheduling model: the host model's post-RA scheduler makes JIT
     * compilation of the many small kernels several times slower. */
    opts.cpu = getenv("PTOC_E2E_HOST_CPU") ? NULL : "x86-64";
    opts.pipe_events = true;           /* every run is checked by the pipe simulator */
    opts.gm_checks = true;             /* and no access leaves its buffer */
    ptoc_llvm_module *m = ptoc_llvm_lower(module, &opts);
    if (!m) {
        fprintf(stderr, "%s: lowering failed\n", name);
        return false;
    }
    if (!ptoc_llvm_optimize(m, &err)) {
        fprintf(stderr, "%s: optimisation failed: %s\n", name, err ? err : "?");
        free(err);
        ptoc_llvm_module_destroy(m);
        return false;
    }
    c->jit = ptoc_jit_create(m, &err);
    if (!c->jit) {
        fprintf(stderr, "%s: JIT failed: %s\n", name, err ? err : "?");
        free(err);
        return false;
    }
    return true;
}

static void release(compiled *c)
{
    if (c->jit)
        ptoc_jit_destroy(c->jit);
    ptoc_context_destroy(c->ctx);
}

/* ---------------------------------------------------------------- one run */

typedef struct run_buffers {
    uint8_t *init[E2E_MAX_PARAMS], *got[E2E_MAX_PARAMS], *want[E2E_MAX_PARAMS];
    uint64_t scalars[E2E_MAX_PARAMS];
} run_buffers;

static size_t param_bytes(const e2e_param *q)
{
    return (size_t)q->elems * ref_dtype_size(q->dtype);
}

static void make_inputs(const e2e_case *c, const e2e_run *run, int run_index, run_buffers *b)
{
    const e2e_program *p = &c->prog;
    e2e_rng rng = {hash_name(p->name, run_index)};
    for (int i = 0; i < p->nparams; i++) {
        const e2e_param *q = &p->params[i];
        if (q->kind == E2E_SCALAR) {
            b->scalars[i] = rng_value(&rng, q->dtype);
            continue;
        }
        b->init[i] = malloc(param_bytes(q));
        uint32_t es = ref_dtype_size(q->dtype);
        for (int64_t e = 0; e < q->elems; e++)
            store_elem(b->init[i] + e * es, es, rng_value(&rng, q->dtype));
    }
    if (c->fill)
        c->fill(c, run, b->init, b->scalars, &rng);
    for (int i = 0; i < p->nparams; i++)
        if (p->params[i].kind == E2E_PTR) {
            size_t n = param_bytes(&p->params[i]);
            b->got[i] = malloc(n);
            b->want[i] = malloc(n);
            memcpy(b->got[i], b->init[i], n);
            memcpy(b->want[i], b->init[i], n);
        }
}

static void free_buffers(const e2e_program *p, run_buffers *b)
{
    for (int i = 0; i < p->nparams; i++) {
        free(b->init[i]);
        free(b->got[i]);
        free(b->want[i]);
    }
}

static ptoc_rt_arg scalar_arg(ref_dtype t, uint64_t bits)
{
    ptoc_rt_arg a = {PTOC_RT_ARG_I64, {.i = 0}};
    switch (ref_dtype_size(t)) {
    case 1: a.kind = PTOC_RT_ARG_I8; break;
    case 2: a.kind = PTOC_RT_ARG_I16; break;          /* f16/bf16 travel as their bits */
    case 4: a.kind = t == REF_F32 ? PTOC_RT_ARG_F32 : PTOC_RT_ARG_I32; break;
    default: break;
    }
    if (a.kind == PTOC_RT_ARG_F32)
        a.value.f = (double)ref_bits_float((uint32_t)bits);
    else
        a.value.i = (int64_t)bits;
    return a;
}

/* Odd runs start from poisoned on-chip memory (--poison-ub), even runs from
 * zeros: zeros written outside a valid region only show on the former. */
static uint8_t ub_fill(int run_index)
{
    return run_index % 2 ? 0xA5 : 0;
}

static bool launch(void *fn, const e2e_program *p, const e2e_run *run, int run_index, run_buffers *b, char **err)
{
    ptoc_rt_arg args[E2E_MAX_PARAMS + 2];
    uint32_t n = 0;
    for (int i = 0; i < p->nparams; i++)
        args[n++] = p->params[i].kind == E2E_PTR ? (ptoc_rt_arg){PTOC_RT_ARG_PTR, {.ptr = b->got[i]}}
                                                 : scalar_arg(p->params[i].dtype, b->scalars[i]);
    if (p->dynamic) {
        args[n++] = (ptoc_rt_arg){PTOC_RT_ARG_I64, {.i = run->vr}};
        args[n++] = (ptoc_rt_arg){PTOC_RT_ARG_I64, {.i = run->vc}};
    }
    ptoc_rt_launch_options opts = {1, ub_fill(run_index) != 0};
    ptoc_rt_pipe_reset();
    bool ok = true;
    for (int i = 0; i < p->nparams; i++) {
        char name[16];
        snprintf(name, sizeof name, "%%p%d", i);
        if (p->params[i].kind == E2E_PTR)
            ok = ok && ptoc_rt_gm_register(b->got[i], param_bytes(&p->params[i]), name);
    }
    ok = ok && ptoc_rt_launch(fn, args, n, &opts, err);
    ptoc_rt_gm_clear();
    return ok;
}

/* The sync rules of the arch the cases are compiled for, from the arch table. */
static const ptoc_pto_arch_info *sync_arch;

static ptoc_rt_arch_rules sync_rules(void)
{
    return ptoc_pipe_rules(sync_arch ? sync_arch->arch : PTOC_PTO_ARCH_CPU);
}

/* The pipe simulator's verdict on the last launch (the arch's rules): no race, no
 * deadlock, no id set twice. Prints the reports when there are some. */
static bool pipes_clean(const e2e_program *p, int run_index)
{
    char *reports = NULL;
    ptoc_rt_arch_rules rules = sync_rules();
    uint32_t n = ptoc_rt_pipe_check(&rules, &reports);
    if (n)
        printf("FAILED %s run %d: the pipe simulator found %u errors:\n%s", p->name, run_index, n,
               reports ? reports : "");
    free(reports);
    ptoc_rt_pipe_reset();
    return n == 0;
}

/* Distance in representable values between two floats of dtype t. */
static int64_t ulp_distance(ref_dtype t, uint64_t a, uint64_t b)
{
    uint32_t w = 8 * ref_dtype_size(t);
    uint64_t sign = (uint64_t)1 << (w - 1);
    int64_t ia = (a & sign) ? -(int64_t)(a & ~sign) : (int64_t)a;
    int64_t ib = (b & sign) ? -(int64_t)(b & ~sign) : (int64_t)b;
    return ia > ib ? ia - ib : ib - ia;
}

/* Compares one buffer; reports the first differing element. Returns the number
 * of elements that differ beyond the case's ulp tolerance. */
static int64_t compare_param(e2e_suite *s, const e2e_case *c, int run_index, int param, const uint8_t *want,
                             const uint8_t *got, int *max_ulp)
{
    const e2e_param *q = &c->prog.params[param];
    uint32_t es = ref_dtype_size(q->dtype);
    int64_t bad = 0;
    for (int64_t e = 0; e < q->elems; e++) {
        uint64_t w = load_elem(want + e * es, es), g = load_elem(got + e * es, es);
        if (w == g)
            continue;
        if (c->ulp && ref_dtype_is_float(q->dtype)) {
            int64_t d = ulp_distance(q->dtype, w, g);
            if (d <= c->ulp) {
                if (d > *max_ulp)
                    *max_ulp = (int)d;
                continue;
            }
        }
        if (bad++ == 0 && !s->corrupt) {
            char ws[64], gs[64];
            ref_format(ws, sizeof ws, q->dtype, w);
            ref_format(gs, sizeof gs, q->dtype, g);
            char shape[64] = "";
            if (c->prog.dynamic)
                snprintf(shape, sizeof shape, " (valid %lldx%lld)", (long long)c->runs[run_index].vr,
                         (long long)c->runs[run_index].vc);
            printf("MISMATCH %s [%s %s %s] run %d%s: buffer %%p%d element %lld (row %lld, col %lld):"
                   " expected %s, got %s\n",
                   c->prog.name, c->op, ref_dtype_name(c->dtype), c->cls, run_index, shape, param, (long long)e,
                   (long long)(e / q->ld), (long long)(e % q->ld), ws, gs);
        }
    }
    if (bad && !s->corrupt)
        printf("  (%lld differing elements in %%p%d)\n", (long long)bad, param);
    return bad;
}

/* Self-test: flip one bit the kernel is known to write (element 0 of the first
 * store's view), so a working comparison must report it. */
static void corrupt_reference(const e2e_program *p, run_buffers *b)
{
    for (int i = 0; i < p->nsteps; i++)
        if (p->steps[i].kind == E2E_STORE) {
            const e2e_view *v = &p->steps[i].view;
            int64_t off = 0;
            for (int d = 0; d < v->rank; d++)
                off += v->offset[d] * v->stride[d];
            b->want[v->param][off * ref_dtype_size(p->params[v->param].dtype)] ^= 1;
            return;
        }
}

/* On A2/A3 the reference compares as the hardware library does (its quirks). */
static bool a2a3_target(const e2e_suite *s)
{
    ptoc_pto_arch a = ptoc_pto_arch_from_name(target_of(s)->arch);
    return a == PTOC_PTO_ARCH_A2 || a == PTOC_PTO_ARCH_A3;
}

static bool run_case(e2e_suite *s, const e2e_case *c, void *fn, int run_index, e2e_stat *st)
{
    const e2e_program *p = &c->prog;
    const e2e_run *run = &c->runs[run_index];
    run_buffers b;
    memset(&b, 0, sizeof b);
    make_inputs(c, run, run_index, &b);
    char *err = NULL;
    bool ok = launch(fn, p, run, run_index, &b, &err);
    if (!ok) {
        printf("FAILED %s run %d: launch: %s\n", p->name, run_index, err ? err : "?");
        free(err);
    } else {
        bool clean = pipes_clean(p, run_index);
        program_reference(p, b.want, b.scalars, run->vr, run->vc, ub_fill(run_index), a2a3_target(s));
        if (s->corrupt)
            corrupt_reference(p, &b);
        int64_t bad = 0;
        for (int i = 0; i < p->nparams; i++)
            if (p->params[i].kind == E2E_PTR && (!s->level1 || program_level1_compares(p, i)))
                bad += compare_param(s, c, run_index, i, b.want[i], b.got[i], &st->max_ulp);
        ok = bad == 0 && clean;
        if (s->corrupt && bad)
            s->caught++;
    }
    free_buffers(p, &b);
    return ok;
}

/* ---------------------------------------------------------------- seeded sync bugs */

/* Runs run 0 of `c` with the k-th wait_flag of its synced kernel deleted;
 * returns whether the pipe simulator reported a race, *ran whether it ran. */
static bool seeded_run(e2e_suite *s, const e2e_case *c, const char *text, size_t len, int k, bool *ran)
{
    compiled comp;
    *ran = false;
    bool race = false;
    if (compile(&comp, s, c->prog.name, text, len, true, k, NULL)) {
        void *fn = ptoc_jit_lookup(comp.jit, c->prog.name);
        run_buffers b;
        memset(&b, 0, sizeof b);
        make_inputs(c, &c->runs[0], 0, &b);
        char *err = NULL, *reports = NULL;
        if (fn && launch(fn, &c->prog, &c->runs[0], 0, &b, &err)) {
            *ran = true;
            ptoc_rt_arch_rules rules = sync_rules();
            ptoc_rt_pipe_check(&rules, &reports);
            race = reports && strstr(reports, "race:");
        }
        ptoc_rt_pipe_reset();
        free(reports);
        free(err);
        free_buffers(&c->prog, &b);
    }
    release(&comp);
    return race;
}

/* --seeded: each wait_flag pto-insert-sync put in the case's kernel is
 * deleted in turn; the pipe simulator must then report a race, or the pair
 * was redundant (counted; the target is none). */
static void seed_case(e2e_suite *s, e2e_case *c)
{
    size_t len = 0;
    char *text = module_text(s, c, 1, &len);
    compiled comp;
    int nwaits = 0;
    bool built = compile(&comp, s, c->prog.name, text, len, true, -1, &nwaits);
    release(&comp);
    if (!built) {
        s->seeded_failures++;
        free(text);
        return;
    }
    for (int k = 0; k < nwaits; k++) {
        bool ran;
        bool race = seeded_run(s, c, text, len, k, &ran);
        s->seeded_waits++;
        if (!ran)
            s->seeded_failures++;
        else if (race)
            s->seeded_caught++;
        else {
            s->seeded_redundant++;
            printf("redundant: %s, wait_flag #%d\n", c->prog.name, k);
        }
    }
    free(text);
}

/* Collects the first diagnostic of a verification, silently. */
typedef struct first_diag { char text[512]; } first_diag;

static void keep_first(void *user, const ptoc_diagnostic *d)
{
    first_diag *f = user;
    if (!f->text[0] && d->severity == PTOC_SEV_ERROR)
        snprintf(f->text, sizeof f->text, "%s", d->message);
}

/* A pto op or micro-op left after the lowering passes that code generation
 * has no rule for on the target: the case would fail there. */
typedef struct unlowered_walk { const ptoc_target *target; const char *op; } unlowered_walk;

static ptoc_walk_result find_unlowered(ptoc_op *op, void *user)
{
    unlowered_walk *w = user;
    ptoc_pto_vop_id vop = ptoc_pto_vop(op);
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    bool has_rule = vop != PTOC_PTO_VOP_NONE         ? ptoc_llvm_supports_vop(w->target, vop)
                    : opcode != PTOC_PTO_OP_NONE     ? ptoc_llvm_rule_lowers_pto_op(w->target, opcode)
                                                     : true;       /* the std dialects: every target's */
    if (op->nregions == 0 && !has_rule) {
        w->op = op->name->str;
        return PTOC_WALK_INTERRUPT;
    }
    return PTOC_WALK_ADVANCE;
}

/* What the target makes of a case (cpu: it fits). ILLEGAL: its verifier
 * rejects the case. UNLOWERED: after its lowering passes a pto op is left
 * that code generation has no rule for (a lowering that does not cover an
 * op or a layout yet), found without building LLVM IR. *why gets the first
 * error or the op. One parse serves both. */
typedef enum case_fit { FITS, ILLEGAL, UNLOWERED } case_fit;

static case_fit fit_on_target(const e2e_suite *s, e2e_case *c, first_diag *why)
{
    if (!s->target)
        return FITS;
    size_t len = 0;
    char *text = module_text(s, c, 1, &len);
    ptoc_context *ctx;
    ptoc_arena *arena;
    memset(why, 0, sizeof *why);
    ptoc_op *module = parse_verified(&ctx, &arena, s->target, c->prog.name, text, len, keep_first, why);
    case_fit fit = module ? FITS : ILLEGAL;
    if (module && s->target->lowering) {
        bool ok = (!s->level1 || run_passes(ctx, module, arena, c->prog.name, level1_pipeline)) &&
                  run_passes(ctx, module, arena, c->prog.name, s->target->lowering);
        unlowered_walk w = {s->target, NULL};
        if (ok && !ptoc_walk_pre(module, find_unlowered, &w))
            snprintf(why->text, sizeof why->text, "'%s' is left after the lowering", w.op);
        fit = ok && !w.op ? FITS : UNLOWERED;
    }
    ptoc_context_destroy(ctx);
    free(text);
    return fit;
}

void e2e_run_batch(e2e_suite *s, e2e_case *cases, int n, const char *module_name)
{
    int count = 0;
    const char *why = NULL;
    first_diag diag;
    sync_arch = ptoc_pto_arch_info_of(ptoc_pto_arch_from_name(target_of(s)->arch));
    for (int i = 0; i < n; i++) {
        if (s->only && strcmp(cases[i].prog.name, s->only) != 0)
            continue;
        if (s->level1 && !program_level1_ok(&cases[i].prog, &why)) {
            s->skipped++;
            if (s->verbose)
                printf("skipped %s: no Level-1 form: %s\n", cases[i].prog.name, why);
            continue;
        }
        case_fit fit = fit_on_target(s, &cases[i], &diag);
        if (fit != FITS) {
            *(fit == ILLEGAL ? &s->illegal : &s->unlowered) += 1;
            if (s->verbose)
                printf("skipped %s: not %s on %s: %s\n", cases[i].prog.name, fit == ILLEGAL ? "legal" : "lowered",
                       s->target->name, diag.text);
            continue;
        }
        cases[count++] = cases[i];
    }
    if (count == 0)
        return;
    if (s->seeded) {                   /* each case in a module of its own */
        for (int i = 0; i < count; i++)
            seed_case(s, &cases[i]);
        return;
    }
    size_t len = 0;
    char *text = module_text(s, cases, count, &len);
    if (s->dump_dir)
        dump_module(s, module_name, text, len);
    compiled comp;
    double t0 = now_seconds();
    bool built = compile(&comp, s, module_name, text, len, s->level1, -1, NULL);
    double t1 = now_seconds();
    for (int i = 0; i < count; i++) {
        e2e_case *c = &cases[i];
        int k = stat_index(s, c->op);
        e2e_stat *st = &s->stats[k];
        st->cases++;
        s->quirky += a2a3_target(s) && program_a2a3_cmp_quirk(&c->prog);
        if (c->ulp > st->ulp_bound)
            st->ulp_bound = c->ulp;
        s->table[k][c->dtype]++;
        void *fn = built ? ptoc_jit_lookup(comp.jit, c->prog.name) : NULL;
        if (!fn) {
            st->failures++;
            if (built)
                printf("FAILED %s: no symbol in the JIT\n", c->prog.name);
            continue;
        }
        for (int r = 0; r < c->nruns; r++) {
            st->runs++;
            if (!run_case(s, c, fn, r, st))
                st->mismatches++;
        }
    }
    if (s->verbose)
        printf("%s: %d functions, compile %.2f s, runs %.2f s\n", module_name, count, t1 - t0, now_seconds() - t1);
    release(&comp);
    free(text);
}

int e2e_report(e2e_suite *s)
{
    if (s->seeded) {
        printf("%s (Level 1, seeded): %d wait_flags deleted: %d races reported, %d redundant, %d failed to run\n",
               s->family, s->seeded_waits, s->seeded_caught, s->seeded_redundant, s->seeded_failures);
        return s->seeded_waits > 0 && s->seeded_redundant == 0 && s->seeded_failures == 0 ? 0 : 1;
    }
    int cases = 0, runs = 0, bad = 0, failures = 0;
    for (int i = 0; i < s->nstats; i++) {
        const e2e_stat *st = &s->stats[i];
        printf("%-11s %-27s cases %4d  runs %4d  mismatches %3d  compile failures %3d", s->family, st->op, st->cases,
               st->runs, st->mismatches, st->failures);
        if (st->ulp_bound)
            printf("  max ulp %d (bound %d)", st->max_ulp, st->ulp_bound);
        printf("  dtypes:");
        for (int t = 0; t < REF_DTYPE_COUNT; t++)
            if (s->table[i][t])
                printf(" %s:%d", ref_dtype_name((ref_dtype)t), s->table[i][t]);
        printf("\n");
        cases += st->cases;
        runs += st->runs;
        bad += st->mismatches;
        failures += st->failures;
    }
    if (s->corrupt) {
        printf("%s self-test: %d of %d corrupted runs caught\n", s->family, s->caught, runs);
        return runs > 0 && s->caught == runs ? 0 : 1;
    }
    printf("%s%s%s%s: %d cases, %d runs, %d mismatching runs, %d cases not compiled", s->family,
           s->level1 ? " (Level 1)" : "", s->target ? " on " : "", s->target ? s->target->name : "", cases, runs, bad,
           failures);
    if (s->level1)
        printf(", %d cases without a Level-1 form", s->skipped);
    if (s->target)
        printf(", %d cases not legal on %s, %d not lowered on %s", s->illegal, s->target->name, s->unlowered,
               s->target->name);
    if (s->quirky)
        printf(", %d cases meet an A2/A3 compare quirk (A2/A3 reference)", s->quirky);
    printf("\n");
    return bad == 0 && failures == 0 && cases > 0 ? 0 : 1;
}

/* ---------------------------------------------------------------- shape classes */

shape_class class_of(int k, ref_dtype t)
{
    int64_t wide = 8192 / ref_dtype_size(t);       /* 8 KiB rows, beyond 4096 bytes */
    const shape_class classes[CLASS_ALL] = {
        {"aligned", 16, 64, 16, 64, false, REF_ROW_MAJOR, REF_NONE_BOX},
        {"ragged", 16, 64, 13, 37, false, REF_ROW_MAJOR, REF_NONE_BOX},
        {"row", 1, 128, 1, 100, false, REF_ROW_MAJOR, REF_NONE_BOX},
        {"wide", 2, wide, 2, wide, false, REF_ROW_MAJOR, REF_NONE_BOX},
        {"dynamic", 16, 64, E2E_DYN_R, E2E_DYN_C, true, REF_ROW_MAJOR, REF_NONE_BOX},
        {"col_major", 64, 16, 45, 13, false, REF_COL_MAJOR, REF_NONE_BOX},
        {"nz", 32, 64, 29, 45, false, REF_COL_MAJOR, REF_BOX_ROW_MAJOR},
        {"zn", 32, 64, 29, 45, false, REF_ROW_MAJOR, REF_BOX_COL_MAJOR},
        {"zz", 32, 64, 29, 45, false, REF_ROW_MAJOR, REF_BOX_ROW_MAJOR},
    };
    return classes[k];
}

void set_runs(e2e_case *c, const shape_class *k, int variants)
{
    static const int64_t shapes[][2] = {{11, 45}, {16, 64}, {3, 7}};
    int nshapes = k->dynamic ? (variants > 1 ? 2 : 3) : 2;
    c->nruns = 0;
    for (int v = 0; v < variants; v++)
        for (int s = 0; s < nshapes; s++)
            c->runs[c->nruns++] = (e2e_run){shapes[s][0], shapes[s][1], v};
}

e2e_case *new_case(e2e_case *cases, int *n, const char *op, ref_dtype t, const shape_class *k, const char *name)
{
    e2e_case *c = &cases[(*n)++];
    memset(c, 0, sizeof *c);
    program_init(&c->prog, name, k->dynamic);
    c->op = op;
    c->dtype = t;
    c->cls = k->name;
    set_runs(c, k, 1);
    return c;
}

e2e_case *case_array(int n)
{
    e2e_case *c = calloc((size_t)n, sizeof *c);
    if (!c) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return c;
}
