/* memplan_test.c: random kernels through the memory planner, judged by the
 * independent checker (memplan_check.c), and the figures docs/testing.md reports.
 *
 *   memplan_test [--seeds N] [--first S] [--plan pass|seq|zero] [--corrupt]
 *                [--paths K] [--dump SEED] [--verbose] [--no-if-results] [--no-iter-args] [--no-while]
 *                [--pipeline P] [--require-within PCT] [--require-worst R]
 *
 * --plan pass (the default) generates address-less kernels and runs
 * `pto-plan-memory,pto-insert-tassign` on them (or --pipeline P; the checker
 * also reads pto.planned_offset attributes). Every plan must pass the checker,
 * and a kernel the planner rejects must not fit with 10% to spare. It prints
 * the figures: over the planned kernels, peak / lower bound per (kernel, space),
 * median and worst, where peak = max over the space's buffers of offset+size
 * (buffers no op touches left out) and the lower bound is the larger of the
 * checker's two: the step bound (the largest total size live at one step of
 * one path) and the clique bound (the largest total size of buffers pairwise
 * live together on some path; no plan can give two of them one byte). Peak /
 * step bound is printed too: the step bound can be out of reach of any plan
 * (buffers live together only on different paths still need their own bytes).
 * The other modes test the checker itself on hand-made plans: `seq` gives every
 * buffer its own bytes (every plan within capacity must pass), `zero` puts all
 * buffers at 0 (most kernels must fail). --corrupt then moves one buffer of each
 * kernel onto another it is live with, and the checker must report an overlap.
 * --no-if-results / --no-iter-args / --no-while leave those constructs out of the kernels
 * (the same seeds give other kernels), to see which construct a failure needs.
 * --require-within PCT guards the figures: the run fails when fewer than PCT
 * percent of the pairs have peak / lower bound within 1.10, or the median is
 * above 1.00; --require-worst R when some pair is above R. --paths K (100
 * unless given) is the number of random paths the checker walks per kernel:
 * the lower bound only counts what its paths show, so fewer paths give a
 * weaker bound and higher ratios (with 30, one kernel of the first 20000
 * shows 2.00 where 3000 paths show 1.00).
 * Exit status: 0 pass, 1 fail, 77 when the planner passes are not registered.
 */
#include "memplan.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PIPELINE "pto-plan-memory,pto-insert-tassign"
#define MAX_REPORTED 20   /* failing seeds described; the rest are counted */

typedef enum plan_mode { PLAN_PASS, PLAN_SEQ, PLAN_ZERO } plan_mode;

typedef struct options {
    uint64_t first, seeds;
    plan_mode plan;
    bool corrupt, verbose;
    unsigned omit;
    uint32_t paths;
    int64_t dump;
    const char *pipeline;
    double require_within;       /* percent; < 0: no requirement */
    double require_worst;        /* < 0: no requirement */
} options;

/* What the whole run saw. */
typedef struct tally {
    uint64_t kernels, failures, beyond, overflows, expected_overflows, tight_overflows, overlapping, corrupted;
    uint64_t buffers;
    double *ratios, *step_ratios;
    size_t nratios, nstep_ratios;
} tally;

/* Diagnostics: counted, the first error kept, printed when verbose. */
typedef struct diag_log {
    uint32_t errors, notes;
    char first_error[256];
    bool verbose;
} diag_log;

static void on_diag(void *user, const ptoc_diagnostic *d)
{
    diag_log *log = user;
    if (d->severity == PTOC_SEV_ERROR && log->errors++ == 0)
        snprintf(log->first_error, sizeof log->first_error, "%s", d->message);
    log->notes += (uint32_t)d->nnotes + (d->severity == PTOC_SEV_NOTE);
    if (log->verbose)
        fprintf(stderr, "    diag: %s\n", d->message);
    for (size_t i = 0; log->verbose && i < d->nnotes; i++)
        fprintf(stderr, "    diag: %s\n", d->notes[i].message);
}

static bool parse_args(int argc, char **argv, options *o)
{
    *o = (options){.first = 1, .seeds = 2000, .plan = PLAN_PASS, .paths = 100, .dump = -1,
                   .pipeline = PIPELINE, .require_within = -1, .require_worst = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--corrupt"))
            o->corrupt = true;
        else if (!strcmp(a, "--verbose"))
            o->verbose = true;
        else if (!strcmp(a, "--no-if-results"))
            o->omit |= MP_NO_IF_RESULTS;
        else if (!strcmp(a, "--no-iter-args"))
            o->omit |= MP_NO_ITER_ARGS;
        else if (!strcmp(a, "--no-while"))
            o->omit |= MP_NO_WHILE;
        else if (v && !strcmp(a, "--seeds"))
            o->seeds = strtoull(argv[++i], NULL, 10);
        else if (v && !strcmp(a, "--first"))
            o->first = strtoull(argv[++i], NULL, 10);
        else if (v && !strcmp(a, "--paths"))
            o->paths = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (v && !strcmp(a, "--pipeline"))
            o->pipeline = argv[++i];
        else if (v && !strcmp(a, "--dump"))
            o->dump = strtoll(argv[++i], NULL, 10);
        else if (v && !strcmp(a, "--require-within"))
            o->require_within = strtod(argv[++i], NULL);
        else if (v && !strcmp(a, "--require-worst"))
            o->require_worst = strtod(argv[++i], NULL);
        else if (v && !strcmp(a, "--plan") && (!strcmp(v, "pass") || !strcmp(v, "seq") || !strcmp(v, "zero"))) {
            o->plan = !strcmp(v, "pass") ? PLAN_PASS : !strcmp(v, "seq") ? PLAN_SEQ : PLAN_ZERO;
            i++;
        } else {
            fprintf(stderr, "usage: memplan_test [--seeds N] [--first S] [--plan pass|seq|zero] [--corrupt]"
                            " [--paths K] [--dump SEED] [--verbose] [--no-if-results] [--no-iter-args] [--no-while]"
                            " [--pipeline P] [--require-within PCT] [--require-worst R]\n");
            return false;
        }
    }
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void add_ratio(double **ratios, size_t *n, double r)
{
    if (*n % 1024 == 0) {
        *ratios = realloc(*ratios, sizeof **ratios * (*n + 1024));
        if (!*ratios)
            abort();
    }
    (*ratios)[(*n)++] = r;
}

static void print_module(ptoc_context *ctx, ptoc_op *module)
{
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ctx);
    ptoc_print_op(&sb, module, NULL);
    fputs(ptoc_strbuf_cstr(&sb), stdout);
    ptoc_strbuf_free(&sb);
}

/* Lower bound against capacity over every space: 1 all fit with 10% to spare,
 * 0 some space fits tightly, -1 some space cannot fit. */
static int fit(const mp_report *r)
{
    int verdict = 1;
    for (int k = 0; k < MP_MAX_SPACES; k++) {
        if (!r->lower[k])
            continue;
        if (r->lower[k] > r->capacity[k])
            return -1;
        if (r->lower[k] * 11 > r->capacity[k] * 10)
            verdict = 0;
    }
    return verdict;
}

/* The planner rejected the kernel: fine if it cannot fit, or fits tightly. */
static bool judge_overflow(uint64_t seed, tally *t, const mp_report *r, const diag_log *log)
{
    t->overflows++;
    int f = fit(r);
    if (f < 0 && log->errors > 0) {
        t->expected_overflows++;
        return true;
    }
    if (f == 0) {
        t->tight_overflows++;
        return true;
    }
    fprintf(stderr, "seed %llu: the planner failed (%s) though the lower bound fits with 10%% to spare\n",
            (unsigned long long)seed, log->errors ? log->first_error : "no error diagnostic");
    return false;
}

static void record_figures(const options *o, uint64_t seed, tally *t, const mp_report *r)
{
    for (int k = 0; o->verbose && k < MP_MAX_SPACES; k++)
        if (r->lower[k])
            fprintf(stderr, "seed %llu %s: peak %llu, step bound %llu, clique bound %llu\n",
                    (unsigned long long)seed, ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, (uint32_t)k),
                    (unsigned long long)r->peak[k], (unsigned long long)r->lower[k],
                    (unsigned long long)r->lower_clique[k]);
    for (int k = 0; k < MP_MAX_SPACES; k++)
        if (r->lower[k]) {
            uint64_t bound = r->lower_clique[k] > r->lower[k] ? r->lower_clique[k] : r->lower[k];
            add_ratio(&t->ratios, &t->nratios, (double)r->peak[k] / (double)bound);
            add_ratio(&t->step_ratios, &t->nstep_ratios, (double)r->peak[k] / (double)r->lower[k]);
        }
}

/* One kernel: generate, parse, plan, check. False on a failure. */
static bool run_seed(const options *o, uint64_t seed, tally *t)
{
    static const mp_addr_mode addr_of[] = {MP_ADDR_NONE, MP_ADDR_SEQUENTIAL, MP_ADDR_ZERO};
    char *text = mp_generate(seed, addr_of[o->plan], o->omit);
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    diag_log log = {.verbose = o->verbose};
    ptoc_context_set_diag_handler(ctx, on_diag, &log, NULL);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_source_add(ctx, ptoc_ident_cstr(ctx, "memplan.pto"), text, strlen(text));
    ptoc_op *module = ptoc_parse(ctx, arena, text, strlen(text), "memplan.pto", NULL);
    bool ok = module != NULL;
    if (!ok)
        fprintf(stderr, "seed %llu: the generated kernel does not parse: %s\n", (unsigned long long)seed,
                log.first_error);
    bool planned = ok;
    if (ok && o->plan == PLAN_PASS) {
        ptoc_pm *pm = ptoc_pm_create(ctx, &(ptoc_pm_config){.verify_each = true});
        planned = ptoc_pm_parse(pm, o->pipeline) && ptoc_pm_run(pm, module, arena);
        ptoc_pm_destroy(pm);
    }
    if (ok && (int64_t)seed == o->dump) {
        fputs(text, stdout);
        puts("// ----- planned:");
        print_module(ctx, module);
    }
    mp_report r;
    bool corrupted = false;
    mp_check_options co = {.random_paths = o->paths, .path_seed = seed, .log = o->verbose ? stderr : NULL,
                           .corrupt = o->corrupt, .corrupted = &corrupted};
    if (ok) {
        mp_check_module(module, &co, &r);
        t->kernels++;
        t->buffers += r.nbufs;
    }
    if (ok && !planned) {
        ok = judge_overflow(seed, t, &r, &log);
    } else if (ok && o->corrupt) {
        t->corrupted += corrupted;
        if (corrupted && !r.overlaps) {
            if (t->failures < MAX_REPORTED)
            fprintf(stderr, "seed %llu: a corrupted plan passed the checker\n", (unsigned long long)seed);
            ok = false;
        }
    } else if (ok && o->plan == PLAN_ZERO) {
        t->overlapping += r.overlaps > 0;
    } else if (ok && o->plan == PLAN_SEQ && r.violations == r.out_of_bounds && r.out_of_bounds) {
        t->beyond++;                     /* the no-reuse hand plan overflows: nothing else wrong */
    } else if (ok && r.violations) {
        if (t->failures < MAX_REPORTED)
            fprintf(stderr,
                    "seed %llu: %u violations (%u overlaps, %u out of bounds, %u misaligned, %u unplanned);"
                    " rerun with --first %llu --seeds 1 --verbose --dump %llu (and the same --no-* flags)\n",
                    (unsigned long long)seed, r.violations, r.overlaps, r.out_of_bounds, r.misaligned, r.unplanned,
                    (unsigned long long)seed, (unsigned long long)seed);
        ok = false;
    } else if (ok) {
        record_figures(o, seed, t, &r);
    }
    ptoc_arena_destroy(arena);
    ptoc_context_destroy(ctx);
    free(text);
    return ok;
}

/* The figures of one ratio: the median, the percentage within 1.10, the worst. */
typedef struct ratio_figures { double median, within, worst; } ratio_figures;

static ratio_figures print_ratios(const char *what, double *r, size_t n)
{
    if (n == 0) {
        printf("  %s: no (kernel, space) pairs\n", what);
        return (ratio_figures){1.0, 100.0, 1.0};
    }
    qsort(r, n, sizeof *r, cmp_double);
    size_t within = 0;
    while (within < n && r[within] <= 1.10 + 1e-9)
        within++;
    ratio_figures f = {r[n / 2], 100.0 * (double)within / (double)n, r[n - 1]};
    printf("  %s over %zu (kernel, space) pairs: best %.3f, median %.3f, p90 %.3f, p99 %.3f, worst %.3f;"
           " within 1.10: %.1f%%\n",
           what, n, r[0], f.median, r[n * 9 / 10], r[n * 99 / 100], r[n - 1], f.within);
    return f;
}

/* Prints the run's figures; false when --require-within is not met. */
static bool print_summary(const options *o, tally *t, double seconds)
{
    static const char *const plan_names[] = {"pass", "seq", "zero"};
    printf("memplan: %llu kernels (%llu buffers), plan %s%s, %.2f s\n", (unsigned long long)t->kernels,
           (unsigned long long)t->buffers, plan_names[o->plan], o->corrupt ? " + corruption" : "", seconds);
    printf("  failures %llu, rejected by the planner %llu (over capacity %llu, tight %llu)\n",
           (unsigned long long)t->failures, (unsigned long long)t->overflows,
           (unsigned long long)t->expected_overflows, (unsigned long long)t->tight_overflows);
    if (o->plan == PLAN_SEQ)
        printf("  hand plans beyond capacity (not judged) %llu\n", (unsigned long long)t->beyond);
    if (o->corrupt)
        printf("  corrupted plans %llu, all reported as overlaps unless counted in failures\n",
               (unsigned long long)t->corrupted);
    if (o->plan == PLAN_ZERO)
        printf("  kernels with overlaps found %llu\n", (unsigned long long)t->overlapping);
    if (!t->nratios || o->corrupt)
        return true;
    ratio_figures f = print_ratios("peak / lower bound", t->ratios, t->nratios);
    print_ratios("peak / step bound", t->step_ratios, t->nstep_ratios);
    puts("  (target: median 1.00, at least 99% within 1.10, worst <= 1.25)");
    bool ok = true;
    if (o->require_within >= 0 && (f.median > 1.0 + 1e-9 || f.within + 1e-9 < o->require_within)) {
        fprintf(stderr, "memplan: peak / lower bound: median %.3f, %.1f%% within 1.10; required: median 1.00, %.1f%%\n",
                f.median, f.within, o->require_within);
        ok = false;
    }
    if (o->require_worst >= 0 && f.worst > o->require_worst + 1e-9) {
        fprintf(stderr, "memplan: peak / lower bound: worst %.3f; required: at most %.3f\n", f.worst,
                o->require_worst);
        ok = false;
    }
    return ok;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse_args(argc, argv, &o))
        return 2;
    if (o.plan == PLAN_PASS) {
        ptoc_context *ctx = ptoc_context_create(NULL);
        ptoc_register_all(ctx);
        bool have = ptoc_pass_lookup(ctx, "pto-plan-memory") && ptoc_pass_lookup(ctx, "pto-insert-tassign");
        ptoc_context_destroy(ctx);
        if (!have) {
            puts("memplan: skipped, pto-plan-memory or pto-insert-tassign is not registered");
            return 77;
        }
    }
    tally t = {0};
    clock_t start = clock();
    for (uint64_t s = o.first; s < o.first + o.seeds; s++)
        t.failures += !run_seed(&o, s, &t);
    bool figures_ok = print_summary(&o, &t, (double)(clock() - start) / CLOCKS_PER_SEC);
    free(t.ratios);
    free(t.step_ratios);
    bool zero_ok = o.plan != PLAN_ZERO || o.corrupt || t.overlapping * 2 >= t.kernels;
    if (!zero_ok)
        fprintf(stderr, "memplan: the all-at-zero plan passed the checker on most kernels\n");
    return t.failures == 0 && zero_ok && figures_ok ? 0 : 1;
}
