/* pipesim.c: the pipe simulator behind `ptoc --run --check-races` and
 * `--trace=FILE.json` (docs/targets.md).
 *
 * Recording. A kernel lowered with the codegen option `pipe_events` calls
 * ptoc_rt_pipe_op after each pto op that runs on a pipe (with the byte ranges
 * it read and wrote at run time) and ptoc_rt_pipe_set/wait/barrier for the sync
 * ops. Each host thread appends to its own log (a thread is a block), so
 * recording takes no lock; the logs are chained on a global list under a mutex
 * when a thread records its first event after a reset.
 *
 * Replay. After the run each log is replayed on its own (blocks are separate
 * cores; ordering between blocks is not modelled): one queue per pipe holds the
 * pipe's events in program order (a barrier on PIPE_ALL is in every queue);
 * the head of a queue runs unless it is a wait whose set has not run yet, or a
 * PIPE_ALL barrier that has not reached the head of every queue. The set a wait
 * pairs with is the k-th set_flag of the same (src, dst, id) for the k-th
 * wait_flag, in program order. When no head can run while events remain, every
 * blocked wait is a deadlock.
 *
 * Happens-before is tracked with vector clocks over "checkpoints": each pipe
 * counts its set_flags and barriers (and, on a pipe the arch keeps in order, each
 * op). An op on pipe p is complete at the next checkpoint of p after it, its
 * stamp; op b happens after op a when b's clock for a's pipe has reached a's
 * stamp. A set_flag carries its pipe's clock to the wait that pairs with it; a
 * barrier publishes its pipe's checkpoint to the pipe's later events; PIPE_ALL
 * joins every pipe's clock. Two accesses of different ops, at least one a
 * write, in the same space with overlapping bytes and no happens-before either
 * way are a race, reported once per pair of source locations; except that
 * two writes of on-chip bytes (neither reading them) race only once a later
 * access reads their common bytes before a write ordered after both covers
 * them: which one landed last is otherwise unobservable (pto-insert-sync
 * leaves writes into never-read buffers unordered). GM writes always race:
 * the host reads GM after the kernel. Which pipes keep their own order
 * comes from the arch's rules (ptoc_rt_arch_rules, which the driver fills
 * from the arch table): on A2/A3 only S, on A5 (and the cpu target, which
 * follows A5) only V; every other pipe needs a pipe_barrier between two
 * conflicting ops.
 *
 * Event ids. A set_flag of (src, dst, id) while an earlier set of it has not
 * been waited for, in program order, is an error at the second set; a set no
 * wait consumes is an error at the set ("never waited for").
 *
 * The end. The end of a log is the kernel's return, an event on S after
 * everything S ran (no call marks it: the log ends there). An op is complete
 * at the end when S's clock for its pipe has reached its stamp; on a pipe the
 * arch keeps in order that covers the pipe's earlier ops too. Every op that is
 * not is an error, reported only when no other op that is still running was
 * ordered after it (ending that one ends it too): "still in flight" when it
 * writes GM, "still running" otherwise. A replay that deadlocks has no end.
 *
 * Timing. Each pipe runs its events one after another: an op takes the
 * cycles it reported (a vector function a target's model priced), else its
 * bytes over the arch's bandwidth for its DMA path (pipe and on-chip space,
 * from the arch table: A2/A3's), else its cost from cost_table (a rough
 * model: one row per op class; a row naming an op wins over its pipe's row);
 * a wait starts no earlier than its set, a PIPE_ALL barrier starts when every
 * pipe is free. The trace shows this replay in cycles, with the arch's clock.
 */
#include "ptoc/runtime.h"
#include "ptoc/varr.h"
#include "runtime/rt_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

enum {
    NPIPE = PTOC_RT_PIPE_COUNT,
    PIPE_S = 0, PIPE_V = 1, PIPE_ALL = PTOC_RT_PIPE_ALL,
    NIDS = 8,                       /* ids tracked per (src, dst) pair: EVENT_ID0..7 */
    MAX_EVENTS = 1 << 22,           /* per block; later events are dropped with a warning */
    MAX_REPORTS = 100,              /* printed; more are counted */
    MAX_DEFERRED = 4096,            /* write pairs waiting for a read; more are reported at once */
};

typedef enum ev_kind { EV_OP, EV_SET, EV_WAIT, EV_BARRIER } ev_kind;

/* One recorded event. For a set/wait `pipe` is the pipe it runs on (src for a
 * set, dst for a wait). */
typedef struct ev {
    uint8_t kind;
    uint8_t cross;                  /* a set/wait of a cross-core flag (xcore.c) */
    int8_t pipe, src, dst;
    int32_t id;
    const char *op, *where;
    uint32_t acc, nacc;             /* the op's accesses in the log's array */
    uint64_t cycles;                /* an op's modelled cost; 0: the cost table's */
} ev;

typedef struct rt_log {
    struct rt_log *next;
    int64_t block;
    ev *evs;
    uint32_t nev, capev;
    ptoc_rt_access *acc;
    uint32_t nacc, capacc;
    bool truncated;
} rt_log;

/* ---------------------------------------------------------------- recording */

static once_flag init_once = ONCE_FLAG_INIT;
static mtx_t logs_mutex;
static rt_log *logs;
static atomic_uint_fast64_t generation = 1;
static _Thread_local rt_log *my_log;
static _Thread_local uint64_t my_generation;

static void init_mutex(void)
{
    if (mtx_init(&logs_mutex, mtx_plain) != thrd_success) {
        fprintf(stderr, "ptoc runtime error: cannot create the pipe simulator's mutex\n");
        abort();
    }
}

/* The calling thread's log for the current generation (NULL when out of memory). */
static rt_log *current_log(void)
{
    uint64_t gen = atomic_load(&generation);
    if (my_log && my_generation == gen)
        return my_log;
    call_once(&init_once, init_mutex);
    rt_log *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->block = ptoc_rt_block_idx();
    mtx_lock(&logs_mutex);
    l->next = logs;
    logs = l;
    mtx_unlock(&logs_mutex);
    my_log = l;
    my_generation = gen;
    return l;
}

/* Grows `*p` (of *cap elements of `size`) to hold `need`, by ptoc/varr.h's
 * rule; false, with `*p` as it was, when it cannot. */
static bool reserve(void **p, uint32_t *cap, size_t need, size_t size)
{
    void *q = need <= UINT32_MAX ? ptoc_varr_realloc(*p, cap, (uint32_t)need, size) : NULL;
    if (q)
        *p = q;
    return q != NULL;
}

static void record(const ev *e, int32_t n, const ptoc_rt_access *acc)
{
    rt_log *l = current_log();
    if (!l || l->truncated)
        return;
    size_t nacc = n > 0 && acc ? (size_t)n : 0;
    if (l->nev >= MAX_EVENTS || !reserve((void **)&l->evs, &l->capev, l->nev + 1, sizeof *l->evs) ||
        !reserve((void **)&l->acc, &l->capacc, l->nacc + nacc, sizeof *l->acc)) {
        l->truncated = true;
        return;
    }
    ev *d = &l->evs[l->nev++];
    *d = *e;
    d->acc = (uint32_t)l->nacc;
    d->nacc = (uint32_t)nacc;
    if (nacc)
        memcpy(l->acc + l->nacc, acc, nacc * sizeof *acc);
    l->nacc += (uint32_t)nacc;
}

static int8_t small(int32_t v)
{
    return v >= 0 && v < NPIPE ? (int8_t)v : -1;
}

void ptoc_rt_pipe_op(int32_t pipe, const char *op, const char *where, int32_t n, const ptoc_rt_access *acc)
{
    ev e = {.kind = EV_OP, .pipe = small(pipe), .op = op, .where = where};
    record(&e, n, acc);
}

void ptoc_rt_pipe_op_cycles(int32_t pipe, const char *op, const char *where, int32_t n, const ptoc_rt_access *acc,
                            uint64_t cycles)
{
    ev e = {.kind = EV_OP, .pipe = small(pipe), .op = op, .where = where, .cycles = cycles};
    record(&e, n, acc);
}

void ptoc_rt_pipe_set(int32_t src, int32_t dst, int32_t id, const char *where)
{
    ev e = {.kind = EV_SET, .pipe = small(src), .src = small(src), .dst = small(dst), .id = id, .where = where};
    record(&e, 0, NULL);
}

void ptoc_rt_pipe_wait(int32_t src, int32_t dst, int32_t id, const char *where)
{
    ev e = {.kind = EV_WAIT, .pipe = small(dst), .src = small(src), .dst = small(dst), .id = id, .where = where};
    record(&e, 0, NULL);
}

void ptoc_rt_pipe_xset(int32_t src, int32_t dst, int32_t id, const char *where)
{
    ev e = {.kind = EV_SET, .cross = 1, .pipe = small(src), .src = small(src), .dst = small(dst), .id = id,
            .where = where};
    record(&e, 0, NULL);
}

void ptoc_rt_pipe_xwait(int32_t src, int32_t dst, int32_t id, const char *where)
{
    ev e = {.kind = EV_WAIT, .cross = 1, .pipe = small(dst), .src = small(src), .dst = small(dst), .id = id,
            .where = where};
    record(&e, 0, NULL);
}

void ptoc_rt_pipe_barrier(int32_t pipe, const char *where)
{
    ev e = {.kind = EV_BARRIER, .pipe = small(pipe), .where = where};
    record(&e, 0, NULL);
}

void ptoc_rt_pipe_reset(void)
{
    call_once(&init_once, init_mutex);
    mtx_lock(&logs_mutex);
    while (logs) {
        rt_log *next = logs->next;
        free(logs->evs);
        free(logs->acc);
        free(logs);
        logs = next;
    }
    atomic_fetch_add(&generation, 1);
    mtx_unlock(&logs_mutex);
}

/* ---------------------------------------------------------------- text */

typedef struct text {
    char *s;
    size_t len;
    uint32_t cap;                   /* a text past 4 GiB counts as out of memory */
    bool failed;                    /* out of memory: the text is incomplete */
} text;

static void text_printf(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve((void **)&t->s, &t->cap, t->len + (size_t)n + 1, 1)) {
        t->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* A JSON string literal (the source locations come from file names). */
static void text_json_string(text *t, const char *s)
{
    text_printf(t, "\"");
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            text_printf(t, "\\%c", c);
        else if (c < 0x20)
            text_printf(t, "\\u%04x", c);
        else
            text_printf(t, "%c", c);
    }
    text_printf(t, "\"");
}

static const char *pipe_name(int p)
{
    static const char *const names[NPIPE] = {
        "PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL",
        "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2", "PIPE_FIX", "PIPE_VIRTUAL_MTE2_L1A", "PIPE_VIRTUAL_MTE2_L1B",
    };
    return p >= 0 && p < NPIPE ? names[p] : "PIPE_?";
}

static const char *space_name(int32_t s)
{
    static const char *const names[] = {"zero", "gm", "mat", "left", "right", "acc", "vec", "bias", "scaling"};
    return s >= 0 && (size_t)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static const char *where_of(const ev *e)
{
    return e->where ? e->where : "<unknown location>";
}

/* ---------------------------------------------------------------- reports */

enum { REPORT_RACE, REPORT_DEADLOCK, REPORT_DOUBLE_SET, REPORT_BAD_ID, REPORT_UNWAITED, REPORT_IN_FLIGHT };

/* The reports of every block, once per (kind, location, location). */
typedef struct reports {
    text out;
    uint32_t count, printed;
    struct seen { int kind; const char *a, *b; } *seen;
    uint32_t nseen, capseen;
} reports;

/* True when the report is new (and remembers it). Locations are compared as
 * pointers: one op's location is one constant of the module. */
static bool report_new(reports *r, int kind, const char *a, const char *b)
{
    for (uint32_t i = 0; i < r->nseen; i++)
        if (r->seen[i].kind == kind && r->seen[i].a == a && r->seen[i].b == b)
            return false;
    if (reserve((void **)&r->seen, &r->capseen, r->nseen + 1, sizeof *r->seen))
        r->seen[r->nseen++] = (struct seen){kind, a, b};
    r->count++;
    return r->printed++ < MAX_REPORTS;
}

/* ---------------------------------------------------------------- costs */

/* One row per op class: a row with `op` set is that op only and wins over the
 * row of its pipe. cycles = fixed + bytes / bytes_per_cycle, bytes being the
 * op's largest access. Rough figures: MTE2/MTE3 move 64 B per cycle after 100
 * cycles of latency; V processes one 256-byte vector (64 f32 lanes) per cycle
 * after 20. */
typedef struct cost_row {
    const char *op;
    int pipe;
    uint32_t fixed, bytes_per_cycle;
} cost_row;

static const cost_row cost_table[] = {
    {NULL, 4 /* MTE2 */, 100, 64},
    {NULL, 5 /* MTE3 */, 100, 64},
    {NULL, 3 /* MTE1 */, 50, 128},
    {NULL, 10 /* FIX */, 50, 64},
    {NULL, PIPE_V, 20, 256},
    {NULL, 2 /* M */, 50, 512},
    {NULL, PIPE_S, 10, 0},
};

static uint64_t op_bytes(const rt_log *l, const ev *e)
{
    uint64_t most = 0;
    for (uint32_t i = 0; i < e->nacc; i++) {
        const ptoc_rt_access *a = &l->acc[e->acc + i];
        if (a->end > a->begin && a->end - a->begin > most)
            most = a->end - a->begin;
    }
    return most;
}

/* The arch's DMA path for an op on `pipe`: the bandwidth of its largest
 * on-chip access's space, or NULL when the arch has none for it. */
static const ptoc_rt_bandwidth *dma_path(const ptoc_rt_arch_rules *arch, const rt_log *l, const ev *e, int pipe,
                                         uint64_t *bytes)
{
    const ptoc_rt_access *most = NULL;
    for (uint32_t i = 0; i < e->nacc; i++) {
        const ptoc_rt_access *a = &l->acc[e->acc + i];
        if (a->space != PTOC_RT_SPACE_GM && (!most || a->end - a->begin > most->end - most->begin))
            most = a;
    }
    for (uint32_t i = 0; most && i < arch->nbandwidths; i++)
        if (arch->bandwidths[i].pipe == pipe && arch->bandwidths[i].space == most->space) {
            *bytes = most->end - most->begin;
            return &arch->bandwidths[i];
        }
    return NULL;
}

static uint64_t op_cost(const ptoc_rt_arch_rules *arch, const rt_log *l, const ev *e, int pipe)
{
    if (e->cycles)
        return e->cycles;
    uint64_t moved;
    const ptoc_rt_bandwidth *path = dma_path(arch, l, e, pipe, &moved);
    if (path)       /* the arch's model: bytes / bandwidth, truncated (pto-isa's cost model) */
        return (uint64_t)((double)moved / path->bytes_per_cycle);
    const cost_row *row = NULL;
    size_t n = sizeof cost_table / sizeof cost_table[0];
    for (size_t i = 0; i < n && !row; i++)
        if (cost_table[i].op && e->op && strcmp(cost_table[i].op, e->op) == 0)
            row = &cost_table[i];
    for (size_t i = 0; i < n && !row; i++)
        if (!cost_table[i].op && cost_table[i].pipe == pipe)
            row = &cost_table[i];
    if (!row)
        return 10;
    uint64_t bytes = op_bytes(l, e);
    return row->fixed + (row->bytes_per_cycle ? (bytes + row->bytes_per_cycle - 1) / row->bytes_per_cycle : 0);
}

/* ---------------------------------------------------------------- replay */

/* An access of an op that ran, kept while a later op may still race with it. */
/* Two unordered writes waiting for a read of their common bytes. */
typedef struct deferred_waw {
    uint32_t ev_a, acc_a, stamp_a;
    int pipe_a;
    uint32_t ev_b, acc_b, stamp_b;
    int pipe_b;
} deferred_waw;

typedef struct active {
    uint32_t ev, acc;
    int pipe;
    uint32_t stamp;
    uint64_t seq;                   /* the order the accesses were added in */
} active;

/* One pipe's active accesses, in the order they ran: their stamps never
 * decrease (a pipe's checkpoint count only grows), so the accesses an op
 * already knows to be complete are a prefix, skipped by a binary search. A
 * long scalar loop on S then costs each S op nothing for S's own accesses. */
typedef struct active_list {
    active *a;
    uint32_t n, cap;
} active_list;

typedef struct replay {
    const rt_log *log;
    const ptoc_rt_arch_rules *arch;
    reports *rep;
    text *json;                     /* NULL: no trace */
    uint32_t nev;
    int32_t *match;                 /* wait -> its set, or -1 */
    uint32_t *vc_slot;              /* set -> its clock's index in `clocks` */
    uint32_t *clocks;               /* NPIPE per set */
    bool *done;
    uint64_t *end;                  /* when each event finished */
    uint32_t *stamp;                /* an op's stamp: its pipe's checkpoint that completes it */
    uint32_t *queue[NPIPE];
    size_t qlen[NPIPE], qpos[NPIPE];
    uint32_t ck[NPIPE];             /* checkpoints per pipe */
    uint32_t svc[NPIPE][NPIPE];     /* what an event starting on pipe p knows */
    uint64_t free_at[NPIPE];
    uint64_t busy[NPIPE];           /* cycles each pipe spent running ops */
    uint32_t nops[NPIPE];
    uint32_t last_op[NPIPE];        /* each pipe's latest op that ran (UINT32_MAX: none) */
    uint32_t last_vc[NPIPE][NPIPE]; /* what it knew when it started */
    bool used[NPIPE];
    active_list act[NPIPE];         /* per pipe the op ran on */
    size_t nact;                    /* over every list */
    uint64_t next_seq;
    active *hits;                   /* check_accesses' overlapping unordered accesses */
    uint32_t nhits, caphits;
    size_t prune_at;
    deferred_waw *waw;
    uint32_t nwaw, capwaw;
} replay;

static bool pipe_in_order(const ptoc_rt_arch_rules *arch, int p)
{
    return p >= 0 && p < 32 && (arch->in_order_pipes & (1u << p)) != 0;
}

/* The queue an op or set/wait runs on (an unknown pipe counts as S). */
static int queue_of(const ev *e)
{
    return e->pipe >= 0 && e->pipe != PIPE_ALL ? e->pipe : PIPE_S;
}

/* Cross-core flags have keys of their own: they pair among themselves. */
enum { NKEYS = 2 * NPIPE * NPIPE * NIDS };

static int flag_key(const ev *e)
{
    return ((e->cross * NPIPE + e->src) * NPIPE + e->dst) * NIDS + e->id;
}

/* Real pipes and an id the arch has (the log holds at most NIDS per pair). */
static bool flag_valid(const replay *r, const ev *e)
{
    int32_t nids = r->arch->event_ids < NIDS ? (int32_t)r->arch->event_ids : NIDS;
    return e->src >= 0 && e->dst >= 0 && e->src != PIPE_ALL && e->dst != PIPE_ALL && e->id >= 0 && e->id < nids;
}

static void report_flag(replay *r, const ev *e, int kind, const char *fmt, const ev *other)
{
    if (!report_new(r->rep, kind, e->where, other ? other->where : NULL))
        return;
    text_printf(&r->rep->out, "%s: error: ", where_of(e));
    text_printf(&r->rep->out, fmt, e->kind == EV_SET ? "set_flag" : "wait_flag", pipe_name(e->src),
                pipe_name(e->dst), e->id, other ? where_of(other) : "");
    text_printf(&r->rep->out, "\n");
}

/* The sets of each (src, dst, id) beyond its `nwaits` are never consumed: the
 * kernel returns with them pending (`count` is scratch, one per key). */
static void report_unwaited(replay *r, uint32_t *count, const uint32_t *nwaits)
{
    const rt_log *l = r->log;
    memset(count, 0, NKEYS * sizeof *count);
    for (size_t i = 0; i < l->nev; i++) {
        const ev *e = &l->evs[i];
        if (e->kind == EV_SET && !e->cross && flag_valid(r, e) && count[flag_key(e)]++ >= nwaits[flag_key(e)])
            report_flag(r, e, REPORT_UNWAITED, "%s[%s, %s, EVENT_ID%" PRId32 "] is never waited for: every "
                        "set_flag needs its wait_flag before the kernel returns%s", NULL);
    }
}

/* Pairs the k-th wait of each (src, dst, id) with its k-th set, and reports a
 * set whose id is still set in program order and, at the end, the sets no
 * wait consumes. */
static bool pair_flags(replay *r)
{
    const rt_log *l = r->log;
    uint32_t *nsets = calloc(NKEYS, sizeof *nsets), *nwaits = calloc(NKEYS, sizeof *nwaits);
    uint32_t *first = calloc(NKEYS + 1, sizeof *first), *sets = calloc(l->nev + 1, sizeof *sets);
    bool ok = nsets && nwaits && first && sets;
    for (size_t i = 0; ok && i < l->nev; i++)
        if (l->evs[i].kind == EV_SET && flag_valid(r, &l->evs[i]))
            nsets[flag_key(&l->evs[i])]++;
    for (int k = 0; ok && k < NKEYS; k++)
        first[k + 1] = first[k] + nsets[k];
    if (ok)
        memset(nsets, 0, NKEYS * sizeof *nsets);
    /* Every set's place first: a wait may come before its set in program order. */
    for (size_t i = 0; ok && i < l->nev; i++)
        if (l->evs[i].kind == EV_SET && flag_valid(r, &l->evs[i])) {
            int k = flag_key(&l->evs[i]);
            sets[first[k] + nsets[k]++] = (uint32_t)i;
        }
    if (ok)
        memset(nsets, 0, NKEYS * sizeof *nsets);
    for (size_t i = 0; ok && i < l->nev; i++) {
        const ev *e = &l->evs[i];
        r->match[i] = -1;
        if (e->kind != EV_SET && e->kind != EV_WAIT)
            continue;
        if (!flag_valid(r, e)) {
            report_flag(r, e, REPORT_BAD_ID, "%s[%s, %s, %" PRId32 "%s]: the event id must be 0..7 and the pipes "
                        "real ones", NULL);
            r->done[i] = true;
            continue;
        }
        int k = flag_key(e);
        if (e->kind == EV_SET) {
            if (nsets[k] > nwaits[k] && !e->cross)
                report_flag(r, e, REPORT_DOUBLE_SET, "%s[%s, %s, EVENT_ID%" PRId32 "] sets an event id that is "
                            "still set by the set_flag at %s, which no wait_flag has consumed yet",
                            &l->evs[sets[first[k] + nwaits[k]]]);
            nsets[k]++;
        } else {
            uint32_t j = nwaits[k]++;
            r->match[i] = j < first[k + 1] - first[k] ? (int32_t)sets[first[k] + j] : -1;
        }
    }
    if (ok && !l->truncated)
        report_unwaited(r, nsets, nwaits);
    free(nsets);
    free(nwaits);
    free(first);
    free(sets);
    return ok;
}

/* Fills the per-pipe queues; a PIPE_ALL barrier goes into every queue. */
static bool build_queues(replay *r)
{
    const rt_log *l = r->log;
    size_t count[NPIPE] = {0};
    for (size_t i = 0; i < l->nev; i++) {
        const ev *e = &l->evs[i];
        if (r->done[i])
            continue;
        if (e->kind == EV_BARRIER && e->pipe == PIPE_ALL) {
            for (int p = 0; p < NPIPE; p++)
                count[p] += p != PIPE_ALL;
        } else {
            count[queue_of(e)]++;
        }
    }
    for (int p = 0; p < NPIPE; p++)
        if (!(r->queue[p] = malloc((count[p] + 1) * sizeof *r->queue[p])))
            return false;
    for (size_t i = 0; i < l->nev; i++) {
        const ev *e = &l->evs[i];
        if (r->done[i])
            continue;
        if (e->kind == EV_BARRIER && e->pipe == PIPE_ALL) {
            for (int p = 0; p < NPIPE; p++)
                if (p != PIPE_ALL)
                    r->queue[p][r->qlen[p]++] = (uint32_t)i;
        } else {
            r->queue[queue_of(e)][r->qlen[queue_of(e)]++] = (uint32_t)i;
        }
    }
    return true;
}

static uint32_t head(const replay *r, int p)
{
    return r->qpos[p] < r->qlen[p] ? r->queue[p][r->qpos[p]] : UINT32_MAX;
}

static bool runnable(const replay *r, uint32_t i)
{
    const ev *e = &r->log->evs[i];
    if (e->kind == EV_WAIT)
        return r->match[i] >= 0 && r->done[r->match[i]];
    if (e->kind == EV_BARRIER && e->pipe == PIPE_ALL) {
        for (int p = 0; p < NPIPE; p++)
            if (p != PIPE_ALL && head(r, p) != i)
                return false;
    }
    return true;
}

/* ---- the trace */

static void trace_event(replay *r, const ev *e, int pipe, uint64_t ts, uint64_t dur, bool instant)
{
    if (!r->json)
        return;
    const char *name = e->kind == EV_OP ? (e->op ? e->op : "op") : e->kind == EV_SET ? "set_flag"
                       : e->kind == EV_WAIT ? "wait_flag" : pipe == PIPE_ALL ? "barrier" : "pipe_barrier";
    if (e->kind == EV_OP && strncmp(name, "pto.", 4) == 0)
        name += 4;
    text *t = r->json;
    text_printf(t, ",\n{\"name\":");
    text_json_string(t, name);
    text_printf(t, ",\"cat\":\"%s\",\"ph\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%d,\"ts\":%" PRIu64,
                pipe_name(pipe), instant ? "i" : "X", r->log->block, pipe, ts);
    if (instant)
        text_printf(t, ",\"s\":\"%s\"", pipe == PIPE_ALL ? "p" : "t");
    else
        text_printf(t, ",\"dur\":%" PRIu64, dur);
    text_printf(t, ",\"args\":{\"where\":");
    text_json_string(t, where_of(e));
    if (e->kind == EV_OP)
        text_printf(t, ",\"bytes\":%" PRIu64, op_bytes(r->log, e));
    if (e->kind == EV_SET || e->kind == EV_WAIT)
        text_printf(t, ",\"flag\":\"%s->%s #%" PRId32 "\"", pipe_name(e->src), pipe_name(e->dst), e->id);
    text_printf(t, "}}");
}

/* ---- races */

static bool overlap(const ptoc_rt_access *a, const ptoc_rt_access *b)
{
    return a->space == b->space && (a->write || b->write) && a->begin < b->end && b->begin < a->end &&
           a->begin < a->end && b->begin < b->end;
}

static bool reads(const ptoc_rt_access *a) { return a->write != PTOC_RT_WRITE; }

static void report_race(replay *r, uint32_t ia, const ptoc_rt_access *a, int pa, uint32_t ib,
                        const ptoc_rt_access *b, int pb)
{
    const ev *ea = &r->log->evs[ia < ib ? ia : ib], *eb = &r->log->evs[ia < ib ? ib : ia];
    if (ia > ib) {
        const ptoc_rt_access *t = a;
        a = b;
        b = t;
        int tp = pa;
        pa = pb;
        pb = tp;
    }
    if (!report_new(r->rep, REPORT_RACE, ea->where, eb->where))
        return;
    uint64_t lo = a->begin > b->begin ? a->begin : b->begin, hi = a->end < b->end ? a->end : b->end;
    const char *fmt = a->space == PTOC_RT_SPACE_GM ? "%s [0x%" PRIx64 ", 0x%" PRIx64 ")" : "%s [%" PRIu64 ", %" PRIu64 ")";
    text *t = &r->rep->out;
    text_printf(t, "%s: error: race: %s (%s) %s ", where_of(ea), ea->op ? ea->op : "op", pipe_name(pa),
                a->write ? "writes" : "reads");
    text_printf(t, fmt, space_name(a->space), lo, hi);
    text_printf(t, " and %s (%s) %s it at %s, with no set_flag/wait_flag or barrier ordering them\n",
                eb->op ? eb->op : "op", pipe_name(pb), b->write ? "writes" : "reads", where_of(eb));
}

/* Drops accesses every pipe with events left already knows to be complete. */
static void prune(replay *r)
{
    size_t kept = 0;
    for (int p = 0; p < NPIPE; p++) {
        active_list *list = &r->act[p];
        uint32_t n = 0;
        for (uint32_t i = 0; i < list->n; i++) {
            const active *a = &list->a[i];
            bool dead = true;
            for (int q = 0; q < NPIPE && dead; q++)
                if (r->qpos[q] < r->qlen[q] && r->svc[q][a->pipe] < a->stamp)
                    dead = false;
            if (!dead)
                list->a[n++] = *a;
        }
        list->n = n;
        kept += n;
    }
    r->nact = kept;
    r->prune_at = 2 * (size_t)kept > 4096 ? 2 * (size_t)kept : 4096;
}

/* Two unordered writes of on-chip bytes that neither reads race only if a
 * later access reads those bytes (GM is read by the host after the kernel):
 * until then they wait here. False when there is no room: report it now. */
static bool defer_waw(replay *r, const active *a, uint32_t i, uint32_t acc, int p, uint32_t stamp)
{
    if (r->nwaw == MAX_DEFERRED || !reserve((void **)&r->waw, &r->capwaw, r->nwaw + 1, sizeof *r->waw))
        return false;
    r->waw[r->nwaw++] = (deferred_waw){a->ev, a->acc, a->stamp, a->pipe, i, acc, stamp, p};
    return true;
}

/* Access b of an op that knows clock vc: a read of a deferred pair's common
 * bytes reports the pair; a write of all of them ordered after both writes
 * settles it (what is read later is b's). */
static void settle_deferred(replay *r, const ptoc_rt_access *b, const uint32_t *vc)
{
    const rt_log *l = r->log;
    uint32_t kept = 0;
    for (uint32_t j = 0; j < r->nwaw; j++) {
        const deferred_waw *w = &r->waw[j];
        const ptoc_rt_access *x = &l->acc[w->acc_a], *y = &l->acc[w->acc_b];
        ptoc_rt_access both = {x->space, PTOC_RT_WRITE, x->begin > y->begin ? x->begin : y->begin,
                               x->end < y->end ? x->end : y->end};
        bool covers = b->space == both.space && b->begin <= both.begin && both.end <= b->end &&
                      vc[w->pipe_a] >= w->stamp_a && vc[w->pipe_b] >= w->stamp_b;
        if (reads(b) && overlap(&both, b))
            report_race(r, w->ev_a, x, w->pipe_a, w->ev_b, y, w->pipe_b);
        else if (!(b->write && covers))
            r->waw[kept++] = *w;
    }
    r->nwaw = kept;
}

/* The first of a list's accesses whose stamp is past `known` (a clock the
 * checking op holds for the list's pipe): the ones before it are complete. */
static uint32_t first_unknown(const active_list *list, uint32_t known)
{
    uint32_t lo = 0, hi = list->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (list->a[mid].stamp <= known)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int by_seq(const void *x, const void *y)
{
    const active *a = x, *b = y;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Into r->hits, in the order they were added: the active accesses of other
 * ops that overlap b and that vc does not know complete. */
static void collect_hits(replay *r, uint32_t i, const ptoc_rt_access *b, const uint32_t *vc)
{
    r->nhits = 0;
    for (int q = 0; q < NPIPE; q++) {
        const active_list *list = &r->act[q];
        for (uint32_t j = first_unknown(list, vc[q]); j < list->n; j++) {
            const active *a = &list->a[j];
            if (a->ev == i || !overlap(&r->log->acc[a->acc], b))
                continue;
            if (reserve((void **)&r->hits, &r->caphits, r->nhits + 1, sizeof *r->hits))
                r->hits[r->nhits++] = *a;
        }
    }
    if (r->nhits > 1)
        qsort(r->hits, r->nhits, sizeof *r->hits, by_seq);
}

static void check_accesses(replay *r, uint32_t i, int p, const uint32_t *vc, uint32_t stamp)
{
    const rt_log *l = r->log;
    const ev *e = &l->evs[i];
    for (uint32_t k = 0; k < e->nacc; k++) {
        const ptoc_rt_access *b = &l->acc[e->acc + k];
        if (r->nwaw)
            settle_deferred(r, b, vc);
        collect_hits(r, i, b, vc);
        for (uint32_t j = 0; j < r->nhits; j++) {
            const active *a = &r->hits[j];
            const ptoc_rt_access *aa = &l->acc[a->acc];
            if (reads(aa) || reads(b) || b->space == PTOC_RT_SPACE_GM || !defer_waw(r, a, i, e->acc + k, p, stamp))
                report_race(r, a->ev, aa, a->pipe, i, b, p);
        }
    }
    if (r->nact + e->nacc > r->prune_at)
        prune(r);
    active_list *list = &r->act[p];
    if (!reserve((void **)&list->a, &list->cap, (size_t)list->n + e->nacc, sizeof *list->a))
        return;                     /* out of memory: later races with this op go unseen */
    for (uint32_t k = 0; k < e->nacc; k++)
        list->a[list->n++] = (active){i, e->acc + k, p, stamp, r->next_seq++};
    r->nact += e->nacc;
}

/* ---- running one event */

static void run_op(replay *r, uint32_t i, int p)
{
    const ev *e = &r->log->evs[i];
    uint32_t vc[NPIPE];
    memcpy(vc, r->svc[p], sizeof vc);
    uint32_t stamp;
    if (pipe_in_order(r->arch, p)) {
        stamp = ++r->ck[p];
        r->svc[p][p] = stamp;
    } else {
        stamp = r->ck[p] + 1;
    }
    check_accesses(r, i, p, vc, stamp);
    r->stamp[i] = stamp;
    r->last_op[p] = i;
    memcpy(r->last_vc[p], vc, sizeof vc);
    uint64_t start = r->free_at[p], dur = op_cost(r->arch, r->log, e, p);
    r->end[i] = r->free_at[p] = start + dur;
    r->busy[p] += dur;
    r->nops[p]++;
    trace_event(r, e, p, start, dur, false);
}

static void run_set(replay *r, uint32_t i, int p)
{
    uint32_t *clock = &r->clocks[(size_t)r->vc_slot[i] * NPIPE];
    r->ck[p]++;
    memcpy(clock, r->svc[p], NPIPE * sizeof *clock);
    clock[p] = r->ck[p];
    if (pipe_in_order(r->arch, p))
        r->svc[p][p] = r->ck[p];
    r->end[i] = r->free_at[p];
    trace_event(r, &r->log->evs[i], p, r->end[i], 0, true);
}

static void run_wait(replay *r, uint32_t i, int p)
{
    uint32_t m = (uint32_t)r->match[i];
    const uint32_t *clock = &r->clocks[(size_t)r->vc_slot[m] * NPIPE];
    for (int q = 0; q < NPIPE; q++)
        if (clock[q] > r->svc[p][q])
            r->svc[p][q] = clock[q];
    uint64_t arrive = r->free_at[p], start = r->end[m] > arrive ? r->end[m] : arrive;
    r->end[i] = r->free_at[p] = start;
    trace_event(r, &r->log->evs[i], p, arrive, start - arrive, start == arrive);
}

static void run_barrier_all(replay *r, uint32_t i)
{
    uint32_t joined[NPIPE] = {0};
    uint64_t t = 0;
    for (int q = 0; q < NPIPE; q++) {
        if (q == PIPE_ALL)
            continue;
        joined[q] = ++r->ck[q];
        t = r->free_at[q] > t ? r->free_at[q] : t;
    }
    for (int q = 0; q < NPIPE; q++)
        for (int k = 0; k < NPIPE; k++)
            if (r->svc[q][k] > joined[k])
                joined[k] = r->svc[q][k];
    for (int q = 0; q < NPIPE; q++) {
        memcpy(r->svc[q], joined, sizeof joined);
        r->free_at[q] = t;
    }
    r->end[i] = t;
    trace_event(r, &r->log->evs[i], PIPE_ALL, t, 0, true);
}

static void run_event(replay *r, uint32_t i, int p)
{
    const ev *e = &r->log->evs[i];
    if (e->kind == EV_BARRIER && e->pipe == PIPE_ALL) {
        run_barrier_all(r, i);
        for (int q = 0; q < NPIPE; q++)
            if (q != PIPE_ALL)
                r->qpos[q]++;
        r->used[PIPE_ALL] = true;
    } else {
        r->used[p] = true;
        r->qpos[p]++;
        if (e->kind == EV_OP) {
            run_op(r, i, p);
        } else if (e->kind == EV_SET) {
            run_set(r, i, p);
        } else if (e->kind == EV_WAIT) {
            run_wait(r, i, p);
        } else {
            r->svc[p][p] = ++r->ck[p];
            r->end[i] = r->free_at[p];
            trace_event(r, e, p, r->end[i], 0, true);
        }
    }
    r->done[i] = true;
}

static void report_deadlock(replay *r)
{
    for (int p = 0; p < NPIPE; p++) {
        uint32_t i = head(r, p);
        const ev *e = i != UINT32_MAX ? &r->log->evs[i] : NULL;
        if (!e || e->kind != EV_WAIT)
            continue;
        const ev *set = r->match[i] >= 0 ? &r->log->evs[r->match[i]] : NULL;
        report_flag(r, e, REPORT_DEADLOCK,
                    set ? "deadlock: %s[%s, %s, EVENT_ID%" PRId32 "] waits for the set_flag at %s, which never runs "
                          "(its pipe is blocked)"
                        : "deadlock: %s[%s, %s, EVENT_ID%" PRId32 "] waits for a set_flag that never comes%s",
                    set);
    }
}

/* Runs the queues until they are empty (true) or blocked; the lowest program
 * index among the runnable heads goes first (timing does not depend on the
 * choice). */
static bool simulate(replay *r)
{
    for (;;) {
        uint32_t best = UINT32_MAX;
        int best_pipe = -1;
        bool left = false;
        for (int p = 0; p < NPIPE; p++) {
            uint32_t i = head(r, p);
            if (i == UINT32_MAX)
                continue;
            left = true;
            if (i < best && runnable(r, i)) {
                best = i;
                best_pipe = p;
            }
        }
        if (best == UINT32_MAX) {
            if (left)
                report_deadlock(r);
            return !left;
        }
        run_event(r, best, best_pipe);
    }
}

/* ---- the end of the kernel */

static bool writes_gm(const rt_log *l, const ev *e)
{
    for (uint32_t k = 0; k < e->nacc; k++)
        if (l->acc[e->acc + k].write && l->acc[e->acc + k].space == PTOC_RT_SPACE_GM)
            return true;
    return false;
}

static void report_in_flight(replay *r, uint32_t i, int p)
{
    const ev *e = &r->log->evs[i];
    if (!report_new(r->rep, REPORT_IN_FLIGHT, e->where, NULL))
        return;
    text_printf(&r->rep->out, "%s: error: %s (%s) is still %s when the kernel returns: %sno set_flag/wait_flag to "
                "PIPE_S or barrier orders its completion before the end\n", where_of(e), e->op ? e->op : "op",
                pipe_name(p), writes_gm(r->log, e) ? "in flight" : "running",
                writes_gm(r->log, e) ? "its write to gm may not have landed; " : "");
}

/* Op i is ordered before another pipe's latest op (or its own pipe's, on a
 * pipe that keeps its order), which is still running when i is. */
static bool before_a_later_op(const replay *r, uint32_t i, int p)
{
    for (int q = 0; q < NPIPE; q++)
        if (r->last_op[q] != UINT32_MAX && r->last_op[q] != i && r->last_vc[q][p] >= r->stamp[i])
            return true;
    return false;
}

/* The end of the log is the kernel's return, an event on S after everything
 * S ran: an op is complete there when S's clock for its pipe has reached its
 * stamp. Of the ops still running only the last of each chain is reported
 * (ordering that one before the end orders those before it too). */
static void check_end(replay *r)
{
    const uint32_t *known = r->svc[PIPE_S];
    for (uint32_t i = 0; i < r->log->nev; i++) {
        const ev *e = &r->log->evs[i];
        if (e->kind != EV_OP || !r->done[i])
            continue;
        int p = queue_of(e);
        if (known[p] < r->stamp[i] && !before_a_later_op(r, i, p))
            report_in_flight(r, i, p);
    }
}

static void trace_names(replay *r, uint64_t total)
{
    text *t = r->json;
    if (!t)
        return;
    text_printf(t, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%" PRId64 ",\"args\":{\"name\":\"block %"
                PRId64 "\"}}", r->log->block, r->log->block);
    text_printf(t, ",\n{\"name\":\"process_labels\",\"ph\":\"M\",\"pid\":%" PRId64 ",\"args\":{\"labels\":\"%"
                PRIu64 " cycles\"}}", r->log->block, total);
    for (int p = 0; p < NPIPE; p++)
        if (r->used[p]) {
            text_printf(t, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%d,\"args\":"
                        "{\"name\":\"%s\"}}", r->log->block, p, pipe_name(p));
            text_printf(t, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%d,"
                        "\"args\":{\"sort_index\":%d}}", r->log->block, p, p);
        }
}

static void replay_free(replay *r)
{
    free(r->match);
    free(r->vc_slot);
    free(r->clocks);
    free(r->done);
    free(r->end);
    free(r->stamp);
    for (int p = 0; p < NPIPE; p++)
        free(r->act[p].a);
    free(r->hits);
    free(r->waw);
    for (int p = 0; p < NPIPE; p++)
        free(r->queue[p]);
}

/* What --stats prints: per pipe, the cycles it ran ops and how many, summed
 * over the blocks. */
typedef struct pipe_stats {
    uint64_t busy[NPIPE];
    uint64_t nops[NPIPE];
} pipe_stats;

/* Replays one block's log; returns its total cycles (and adds to *stats when
 * not NULL). False when out of memory. */
static bool replay_log(const rt_log *l, const ptoc_rt_arch_rules *arch, reports *rep, text *json, uint64_t *total,
                       pipe_stats *stats)
{
    replay r;
    memset(&r, 0, sizeof r);
    r.log = l;
    r.arch = arch;
    r.rep = rep;
    r.json = json;
    r.prune_at = 4096;
    size_t n = l->nev + 1, nsets = 0;
    r.match = malloc(n * sizeof *r.match);
    r.vc_slot = calloc(n, sizeof *r.vc_slot);
    r.done = calloc(n, sizeof *r.done);
    r.end = calloc(n, sizeof *r.end);
    r.stamp = calloc(n, sizeof *r.stamp);
    for (int p = 0; p < NPIPE; p++)
        r.last_op[p] = UINT32_MAX;
    for (size_t i = 0; r.vc_slot && i < l->nev; i++)
        if (l->evs[i].kind == EV_SET)
            r.vc_slot[i] = (uint32_t)nsets++;
    r.clocks = calloc((nsets + 1) * NPIPE, sizeof *r.clocks);
    bool ok = r.match && r.vc_slot && r.done && r.end && r.stamp && r.clocks && pair_flags(&r) &&
              build_queues(&r);
    if (ok && simulate(&r) && !l->truncated)
        check_end(&r);
    *total = 0;
    for (int p = 0; p < NPIPE; p++) {
        *total = r.free_at[p] > *total ? r.free_at[p] : *total;
        if (stats) {
            stats->busy[p] += r.busy[p];
            stats->nops[p] += r.nops[p];
        }
    }
    if (ok)
        trace_names(&r, *total);
    replay_free(&r);
    return ok;
}

/* ---------------------------------------------------------------- the entry points */

static int by_block(const void *a, const void *b)
{
    const rt_log *x = *(const rt_log *const *)a, *y = *(const rt_log *const *)b;
    return x->block < y->block ? -1 : x->block > y->block;
}

/* Replays every log in block order, under the mutex (the run is over). */
static bool replay_all(const ptoc_rt_arch_rules *arch, reports *rep, text *json, uint64_t *total, pipe_stats *stats)
{
    call_once(&init_once, init_mutex);
    mtx_lock(&logs_mutex);
    size_t n = 0;
    for (rt_log *l = logs; l; l = l->next)
        n++;
    rt_log **sorted = malloc((n + 1) * sizeof *sorted);
    bool ok = sorted != NULL;
    n = 0;
    for (rt_log *l = logs; ok && l; l = l->next)
        sorted[n++] = l;
    if (ok)
        qsort(sorted, n, sizeof *sorted, by_block);
    *total = 0;
    for (size_t i = 0; ok && i < n; i++) {
        uint64_t t;
        ok = replay_log(sorted[i], arch, rep, json, &t, stats);
        *total = t > *total ? t : *total;
        if (sorted[i]->truncated)
            text_printf(&rep->out, "ptoc: warning: block %" PRId64 " recorded more than %d pipe events; the "
                        "analysis covers only the first ones\n", sorted[i]->block, MAX_EVENTS);
    }
    mtx_unlock(&logs_mutex);
    free(sorted);
    return ok;
}

uint32_t ptoc_rt_pipe_check(const ptoc_rt_arch_rules *arch, char **out)
{
    reports rep;
    memset(&rep, 0, sizeof rep);
    uint64_t total;
    if (!replay_all(arch, &rep, NULL, &total, NULL)) {
        text_printf(&rep.out, "ptoc: error: the pipe simulator ran out of memory\n");
        rep.count++;
    }
    if (rep.printed > MAX_REPORTS)
        text_printf(&rep.out, "ptoc: note: %" PRIu32 " more reports not shown\n", rep.printed - MAX_REPORTS);
    free(rep.seen);
    if (out)
        *out = rep.out.len ? rep.out.s : NULL;
    if (!out || !rep.out.len)
        free(rep.out.s);
    return rep.count;
}

char *ptoc_rt_pipe_trace_json(const ptoc_rt_arch_rules *arch)
{
    reports rep;
    memset(&rep, 0, sizeof rep);
    text json = {0};
    text_printf(&json, "{\"traceEvents\":[");
    size_t first = json.len;
    uint64_t total;
    bool ok = replay_all(arch, &rep, &json, &total, NULL);
    if (!json.failed && json.len > first)
        json.s[first] = ' ';        /* every event starts with ",\n": the first one's comma goes */
    text_printf(&json, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"total_cycles\":%" PRIu64
                ",\"arch\":\"%s\",\"time_unit\":\"cycles\",\"clock_hz\":%.0f,\"cost_model\":\"%s\"}}\n",
                total, arch->name, arch->clock_hz,
                arch->nbandwidths ? "the arch's DMA bandwidths, its vector functions' own cycles, rough costs elsewhere"
                                  : "rough per-pipe costs, vector functions' own cycles");
    free(rep.seen);
    free(rep.out.s);
    if (!ok || json.failed) {
        free(json.s);
        return NULL;
    }
    return json.s;
}

char *ptoc_rt_pipe_stats(const ptoc_rt_arch_rules *arch)
{
    reports rep;
    memset(&rep, 0, sizeof rep);
    pipe_stats stats;
    memset(&stats, 0, sizeof stats);
    uint64_t total;
    bool ok = replay_all(arch, &rep, NULL, &total, &stats);
    free(rep.seen);
    free(rep.out.s);
    text out = {0};
    text_printf(&out, "modelled cycles (%s rules):\n", arch->name);
    for (int p = 0; p < NPIPE; p++)
        if (stats.nops[p])
            text_printf(&out, "  %-10s %10" PRIu64 " cycles busy, %" PRIu64 " ops\n", pipe_name(p), stats.busy[p],
                        stats.nops[p]);
    if (arch->clock_hz > 0)
        text_printf(&out, "  %-10s %10" PRIu64 " cycles, %.3f us at %.2f GHz\n", "total", total,
                    (double)total / arch->clock_hz * 1e6, arch->clock_hz / 1e9);
    else
        text_printf(&out, "  %-10s %10" PRIu64 " cycles\n", "total", total);
    if (!ok || out.failed) {
        free(out.s);
        return NULL;
    }
    return out.s;
}
