/* xcore.c: the cores of one block, as host threads, and what passes between
 * them: cube/vector pipes (tpush, tpop, tfree), cross-core flags (sync.set,
 * sync.wait), and the async GM copies (tput_async, tget_async).
 *
 * A block has one cube core and two vector cores (A5 and A2/A3 alike). A kernel
 * with cross-core ops is lowered so that its exported function calls
 * ptoc_rt_cores_run, which runs the kernel's body on three threads, one per
 * core, each with its own simulated memory and the caller's block index, and
 * waits for them. Code in a cube section (or a function of kernel_kind cube)
 * runs on the cube's thread only, vector code on both vector threads; code
 * outside sections runs on all three, as the one binary does on hardware.
 *
 * The ordering is the hardware's, with no timing:
 *  - a pipe is a ring of slot_num slots of slot_size bytes per direction, in
 *    host memory. A push waits until its slot has been freed by every consumer
 *    of the tile that used it slot_num tiles before, copies its tile (or its
 *    half) in and commits; a pop waits until every producer of the next tile
 *    has committed and copies its tile (or half) into the consumer's memory;
 *    a free releases the oldest popped slot. With a split (1 rows, 2 columns)
 *    the cube's tile is split in two halves, vector core k's the k-th; with no
 *    split the whole tile goes to vector 0 alone on A5 and to both vector cores
 *    on A2/A3 (PTO-ISA's TPUSH: A2/A3's no-split mode needs both AIVs);
 *  - a flag is a counter per (core, id): sync.set on the cube adds one to flag
 *    id of both vector cores; on vector core k it adds one to the cube's flag
 *    id + 16 * k (PTO-ISA A5's mirrored ids). sync.wait takes one from the
 *    waiting core's flag id, blocking while it is zero; on A2/A3 the cube's
 *    wait takes one from each vector core's (ffts mode 2: both AIVs set);
 *  - tput_async/tget_async record a copy; wait_async_event or
 *    test_async_event does it (both then report it complete).
 *
 * Deadlocks: a core that has to wait sleeps on the block's condition variable
 * (no timeouts). When every core that has not returned is asleep, none can be
 * woken: the run ends with a "deadlock" diagnostic naming each waiting core,
 * its op and location, instead of hanging, as hardware would.
 */
#include "ptoc/runtime.h"
#include "runtime/rt_internal.h"

#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The op an entry point names in its messages, for the entry points that serve
 * one op only (the others get their op's name from the generated code). A
 * label, never compared: ops are told apart by the code that calls here. */
#define OP_LABEL(name) "pto." name

enum { CUBE = 0, VEC0 = 1, VEC1 = 2, NCORES = 3 };
enum { C2V = 0, V2C = 1 };
enum { FLAG_IDS = 16, MAX_PIPES = 16, FRONTEND_KEY = -1 };
enum { MODE_UNSET = 0, MODE_SPLIT = 1, MODE_NOSPLIT = 2 };

static const char *const core_names[NCORES] = {"the cube", "vector 0", "vector 1"};

/* What a slot holds: the whole tile's shape, set by its first producer. */
typedef struct slot_geom {
    uint64_t tile;             /* which tile (count) the shape is for; UINT64_MAX: none yet */
    int64_t rows, cols, esize;
} slot_geom;

typedef struct pipe_dir {
    int mode;                  /* MODE_*: fixed by the direction's first push or pop */
    uint64_t pushed[NCORES], popped[NCORES], freed[NCORES];
    unsigned char *data;       /* slot_num * slot_size */
    slot_geom *geom;
} pipe_dir;

typedef struct xpipe {
    bool used;
    int32_t key, dir_mask, slot_size, slot_num;
    int32_t local[NCORES][2];  /* each core's own consumer buffer per direction */
    pipe_dir dir[2];
    unsigned char *discard[NCORES];   /* A2/A3 no-split V2C: vector 1's copy, unread */
} xpipe;

/* What a waiting core waits in. */
typedef struct wait_note {
    const char *op, *where, *what;
    bool (*ready)(void *);     /* what it waits for, on its stack */
    void *arg;
} wait_note;

typedef struct xgroup {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool a5;
    int live, blocked;
    bool deadlock;
    char deadlock_message[1024];
    bool returned[NCORES];
    wait_note waiting[NCORES];
    int64_t flags[NCORES][2 * FLAG_IDS];
    xpipe pipes[MAX_PIPES];
} xgroup;

/* The calling thread's core: none (-1) outside ptoc_rt_cores_run. */
typedef struct async_copy {
    void *dst;
    const void *src;
    size_t bytes;
    bool done;
} async_copy;

static _Thread_local struct {
    xgroup *group;
    int core;
    xpipe *frontend;
    async_copy *copies;
    size_t ncopies, cap;
} self = {.core = -1};

/* A trap message that says "the deadlock report has it". */
static const char deadlock_mark[] = "\001deadlock";

/* ---------------------------------------------------------------- waiting */

static void describe_deadlock(xgroup *g)
{
    size_t n = 0, cap = sizeof g->deadlock_message;
    const char *first = NULL;
    for (int c = 0; c < NCORES; c++)
        if (g->waiting[c].op && !first)
            first = g->waiting[c].where;
    n += (size_t)snprintf(g->deadlock_message, cap, "%s: deadlock: no core of the block can go on:",
                          first ? first : "");
    for (int c = 0; c < NCORES && n < cap; c++) {
        const wait_note *w = &g->waiting[c];
        if (w->op)
            n += (size_t)snprintf(g->deadlock_message + n, cap - n, "\n  %s waits in '%s' at %s for %s",
                                  core_names[c], w->op, w->where, w->what);
        else if (g->returned[c])
            n += (size_t)snprintf(g->deadlock_message + n, cap - n, "\n  %s has returned", core_names[c]);
    }
}

static void declare_deadlock(xgroup *g)
{
    if (!g->deadlock) {
        g->deadlock = true;
        describe_deadlock(g);
    }
    pthread_cond_broadcast(&g->cv);
}

/* Whether no core can go on: every core still running waits for something
 * not there (a core woken but not yet running again has it). */
static bool stuck(const xgroup *g)
{
    if (g->live == 0 || g->blocked < g->live)
        return false;
    for (int c = 0; c < NCORES; c++)
        if (g->waiting[c].op && g->waiting[c].ready(g->waiting[c].arg))
            return false;
    return true;
}

static _Noreturn void leave_deadlocked(xgroup *g)
{
    pthread_mutex_unlock(&g->mu);
    ptoc_rt_fail("", "%s", deadlock_mark);
}

/* With the group's lock held: sleeps until ready(arg), or ends the core's run
 * when the block deadlocks. */
static void wait_until(xgroup *g, bool (*ready)(void *), void *arg, const char *op, const char *where,
                       const char *what)
{
    while (!ready(arg)) {
        if (g->deadlock)
            leave_deadlocked(g);
        g->waiting[self.core] = (wait_note){op, where ? where : "<unknown location>", what, ready, arg};
        g->blocked++;
        if (stuck(g))
            declare_deadlock(g);
        else
            pthread_cond_wait(&g->cv, &g->mu);
        g->blocked--;
        g->waiting[self.core] = (wait_note){0};
        if (g->deadlock)
            leave_deadlocked(g);
    }
}

static xgroup *lock_group(const char *op, const char *where)
{
    if (!self.group)
        ptoc_rt_fail(where ? where : "", "'%s' outside a kernel's cores (internal error)", op);
    pthread_mutex_lock(&self.group->mu);
    return self.group;
}

static void unlock_group(xgroup *g, bool changed)
{
    if (changed)
        pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* Fails the op with the lock held: releases it first. */
__attribute__((format(printf, 3, 4))) static _Noreturn void fail_locked(xgroup *g, const char *where,
                                                                       const char *fmt, ...)
{
    char text[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    pthread_mutex_unlock(&g->mu);
    ptoc_rt_fail(where ? where : "", "%s", text);
}

/* ---------------------------------------------------------------- the cores */

typedef struct core_run {
    xgroup *group;
    int core;
    void (*body)(void *);
    void *args;
    int64_t block_idx, block_num;
    bool poison;
    char *message;
} core_run;

static void run_core(core_run *r)
{
    jmp_buf jump;
    ptoc_rt_block_begin(r->block_idx, r->block_num, r->poison, &jump);
    self.group = r->group;
    self.core = r->core;
    if (setjmp(jump) == 0)
        r->body(r->args);
    r->message = ptoc_rt_block_end();
    free(self.copies);
    xgroup *g = r->group;
    pthread_mutex_lock(&g->mu);
    g->live--;
    g->returned[r->core] = true;
    if (stuck(g))
        declare_deadlock(g);
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    self.group = NULL;
    self.core = -1;
    self.frontend = NULL;
    self.copies = NULL;
    self.ncopies = self.cap = 0;
}

static void *core_thread(void *p)
{
    run_core(p);
    return NULL;
}

/* "core: message" lines of the cores that trapped, then the deadlock (malloc'd;
 * NULL when all returned). */
static char *join_reports(xgroup *g, core_run *runs)
{
    size_t len = strlen(g->deadlock_message) + 2;
    for (int c = 0; c < NCORES; c++)
        len += runs[c].message ? strlen(runs[c].message) + 32 : 0;
    char *s = malloc(len);
    size_t at = 0;
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int c = 0; c < NCORES; c++)
        if (runs[c].message && strcmp(runs[c].message, deadlock_mark) != 0)
            at += (size_t)snprintf(s + at, len - at, "%s%s: %s", at ? "\n" : "", core_names[c],
                                   runs[c].message);
    if (g->deadlock)
        at += (size_t)snprintf(s + at, len - at, "%s%s", at ? "\n" : "", g->deadlock_message);
    if (at == 0) {
        free(s);
        return NULL;
    }
    return s;
}

static void free_group(xgroup *g)
{
    for (int i = 0; i < MAX_PIPES; i++)
        for (int d = 0; d < 2; d++) {
            free(g->pipes[i].dir[d].data);
            free(g->pipes[i].dir[d].geom);
        }
    for (int i = 0; i < MAX_PIPES; i++)
        for (int c = 0; c < NCORES; c++)
            free(g->pipes[i].discard[c]);
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
    free(g);
}

void ptoc_rt_cores_run(void (*body)(void *), void *args, int32_t a5)
{
    if (self.group) {          /* already one of a block's cores: run in place */
        body(args);
        return;
    }
    xgroup *g = calloc(1, sizeof *g);
    if (!g)
        ptoc_rt_fail("", "out of memory for the block's cores");
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->a5 = a5 != 0;
    g->live = NCORES;
    core_run runs[NCORES];
    pthread_t threads[NCORES];
    bool started[NCORES];
    for (int c = 0; c < NCORES; c++) {
        runs[c] = (core_run){g, c, body, args, ptoc_rt_block_idx(), ptoc_rt_block_num(),
                             ptoc_rt_block_poison(), NULL};
        started[c] = pthread_create(&threads[c], NULL, core_thread, &runs[c]) == 0;
        if (!started[c]) {
            pthread_mutex_lock(&g->mu);
            g->live--;
            g->returned[c] = true;
            pthread_mutex_unlock(&g->mu);
            runs[c].message = malloc(64);
            if (runs[c].message)
                strcpy(runs[c].message, "cannot start a host thread for this core");
        }
    }
    for (int c = 0; c < NCORES; c++)
        if (started[c])
            pthread_join(threads[c], NULL);
    char *report = join_reports(g, runs);
    for (int c = 0; c < NCORES; c++)
        free(runs[c].message);
    free_group(g);
    if (report) {
        char text[2048];
        snprintf(text, sizeof text, "%s", report);
        free(report);
        ptoc_rt_fail("", "%s", text);
    }
}

int32_t ptoc_rt_core_runs(int32_t mask)
{
    return self.core < 0 || (mask >> self.core & 1);
}

int64_t ptoc_rt_subblock_idx(void)
{
    return self.core == VEC1 ? 1 : 0;
}

int64_t ptoc_rt_subblock_num(void)
{
    return self.core < 0 ? 1 : 2;
}

/* ---------------------------------------------------------------- flags */

typedef struct flag_wait {
    xgroup *g;
    int core, id;
} flag_wait;

static bool flag_ready(void *p)
{
    flag_wait *w = p;
    int64_t *f = w->g->flags[w->core];
    bool both = w->core == CUBE && !w->g->a5;
    return f[w->id] > 0 && (!both || f[w->id + FLAG_IDS] > 0);
}

void ptoc_rt_xsync_set(int32_t id, const char *where)
{
    xgroup *g = lock_group(OP_LABEL("sync.set"), where);
    if (id < 0 || id >= FLAG_IDS)
        fail_locked(g, where, "the cross-core event id %" PRId32 " is outside 0..%d", id, FLAG_IDS - 1);
    if (self.core == CUBE) {
        g->flags[VEC0][id]++;
        g->flags[VEC1][id]++;
    } else {
        g->flags[CUBE][id + FLAG_IDS * (self.core - VEC0)]++;
    }
    unlock_group(g, true);
}

void ptoc_rt_xsync_wait(int32_t id, const char *where)
{
    xgroup *g = lock_group(OP_LABEL("sync.wait"), where);
    int32_t limit = self.core == CUBE && g->a5 ? 2 * FLAG_IDS : FLAG_IDS;
    if (id < 0 || id >= limit)
        fail_locked(g, where, "the cross-core event id %" PRId32 " is outside 0..%" PRId32, id, limit - 1);
    flag_wait w = {g, self.core, id};
    wait_until(g, flag_ready, &w, OP_LABEL("sync.wait"), where,
               self.core == CUBE ? "a sync.set of the vector cores" : "a sync.set of the cube");
    g->flags[self.core][id]--;
    if (self.core == CUBE && !g->a5)
        g->flags[self.core][id + FLAG_IDS]--;
    unlock_group(g, false);
}

/* ---------------------------------------------------------------- pipes */

void *ptoc_rt_xpipe_init(int32_t key, int32_t dir_mask, int32_t slot_size, int32_t slot_num,
                         int32_t c2v_local, int32_t v2c_local, const char *where)
{
    xgroup *g = lock_group("pto.initialize_pipe", where);
    if (dir_mask < 1 || dir_mask > 3 || slot_size <= 0 || slot_num <= 0)
        fail_locked(g, where, "a pipe needs dir_mask 1..3 (got %" PRId32 ") and positive slots (size %" PRId32
                    ")", dir_mask, slot_size);
    xpipe *p = NULL;
    for (int i = 0; i < MAX_PIPES && !p; i++)
        if (g->pipes[i].used && g->pipes[i].key == key)
            p = &g->pipes[i];
    if (p && (p->dir_mask != dir_mask || p->slot_size != slot_size || p->slot_num != slot_num))
        fail_locked(g, where,
                    "the cube and the vector cores initialise a pipe differently (dir_mask %" PRId64
                    ", slot_size %" PRId64 " here)", (int64_t)dir_mask, (int64_t)slot_size);
    for (int i = 0; i < MAX_PIPES && !p; i++)
        if (!g->pipes[i].used)
            p = &g->pipes[i];
    if (!p)
        fail_locked(g, where, "more than %d pipes in one kernel", MAX_PIPES);
    if (!p->used) {
        *p = (xpipe){.used = true, .key = key, .dir_mask = dir_mask, .slot_size = slot_size,
                     .slot_num = slot_num};
        for (int d = 0; d < 2; d++) {
            p->dir[d].data = calloc((size_t)slot_num, (size_t)slot_size);
            p->dir[d].geom = malloc((size_t)slot_num * sizeof *p->dir[d].geom);
            if (!p->dir[d].data || !p->dir[d].geom)
                fail_locked(g, where, "out of memory for a pipe of %" PRId64 " slots of %" PRId64 " bytes",
                            (int64_t)slot_num, (int64_t)slot_size);
            for (int32_t s = 0; s < slot_num; s++)
                p->dir[d].geom[s].tile = UINT64_MAX;
        }
    }
    p->local[self.core][C2V] = c2v_local;
    p->local[self.core][V2C] = v2c_local;
    if (key == FRONTEND_KEY)
        self.frontend = p;
    unlock_group(g, false);
    return p;
}

void *ptoc_rt_xpipe_frontend(const char *op, const char *where)
{
    if (!self.frontend)
        ptoc_rt_fail(where ? where : "", "'%s' before this core initialised its pipe (aic_initialize_pipe or "
                     "aiv_initialize_pipe)", op);
    return self.frontend;
}

/* The cores on each side of direction d of a pipe in mode m. */
static bool produces(const xgroup *g, int d, int mode, int core)
{
    if (d == C2V)
        return core == CUBE;
    return core == VEC0 || (core == VEC1 && (mode == MODE_SPLIT || !g->a5));
}

static bool consumes(const xgroup *g, int d, int mode, int core)
{
    if (d == V2C)
        return core == CUBE;
    return core == VEC0 || (core == VEC1 && (mode == MODE_SPLIT || !g->a5));
}

/* Checks that the calling core takes part in direction d with `split`. */
static pipe_dir *join_dir(xgroup *g, xpipe *p, int d, int32_t split, bool producer, const char *op,
                          const char *where)
{
    if (!(p->dir_mask >> d & 1))
        fail_locked(g, where, "'%s': the pipe carries no %s tiles (dir_mask %" PRId32 ")", op,
                    d == C2V ? "cube-to-vector" : "vector-to-cube", p->dir_mask);
    pipe_dir *pd = &p->dir[d];
    int mode = split == 0 ? MODE_NOSPLIT : MODE_SPLIT;
    if (pd->mode == MODE_UNSET)
        pd->mode = mode;
    if (pd->mode != mode)
        fail_locked(g, where, "'%s' mixes split %" PRId32 " with the other split mode on one pipe", op,
                    split);
    if (!(producer ? produces : consumes)(g, d, mode, self.core))
        fail_locked(g, where, "'%s' on vector 1: with no split only vector 0 uses the pipe on A5", op);
    return pd;
}

typedef struct slot_wait {
    xgroup *g;
    pipe_dir *pd;
    int mode, d;
    uint64_t tile, slots;
} slot_wait;

static bool slot_free(void *p)
{
    slot_wait *w = p;
    for (int c = 0; c < NCORES; c++)
        if (consumes(w->g, w->d, w->mode, c) && w->tile >= w->pd->freed[c] + w->slots)
            return false;
    return true;
}

static bool tile_ready(void *p)
{
    slot_wait *w = p;
    for (int c = 0; c < NCORES; c++)
        if (produces(w->g, w->d, w->mode, c) && w->pd->pushed[c] <= w->tile)
            return false;
    return true;
}

void *ptoc_rt_xpipe_push(void *pipe, int32_t split, int64_t esize, int64_t rows, int64_t cols,
                         int64_t *stride, const char *op, const char *where)
{
    xgroup *g = lock_group(op, where);
    xpipe *p = pipe;
    int d = self.core == CUBE ? C2V : V2C;
    pipe_dir *pd = join_dir(g, p, d, split, true, op, where);
    slot_wait w = {g, pd, pd->mode, d, pd->pushed[self.core], (uint64_t)p->slot_num};
    wait_until(g, slot_free, &w, op, where, "a free slot (the consumer's tfree)");
    int64_t full_rows = rows, full_cols = cols, offset = 0;
    int half = self.core == VEC1;
    if (d == V2C && split == 1) {
        full_rows = 2 * rows;
        offset = half * rows * cols;
    } else if (d == V2C && split == 2) {
        full_cols = 2 * cols;
        offset = half * cols;
    }
    if (full_rows * full_cols * esize > p->slot_size)
        fail_locked(g, where, "'%s': a %" PRId64 "-byte tile does not fit the pipe's slots of %" PRId32
                    " bytes", op, full_rows * full_cols * esize, p->slot_size);
    uint64_t slot = w.tile % (uint64_t)p->slot_num;
    slot_geom *geom = &pd->geom[slot];
    if (geom->tile != w.tile)
        *geom = (slot_geom){w.tile, full_rows, full_cols, esize};
    else if (geom->rows != full_rows || geom->cols != full_cols || geom->esize != esize)
        fail_locked(g, where, "'%s': the vector cores push tiles of different shapes (%" PRId64 " and %"
                    PRId64
                    " elements) into one slot", op, full_rows * full_cols, geom->rows * geom->cols);
    unsigned char *at = pd->data + slot * (uint64_t)p->slot_size + (uint64_t)(offset * esize);
    if (d == V2C && split == 0 && self.core == VEC1) {   /* A2/A3: both push the same tile; keep vector 0's */
        if (!p->discard[VEC1])
            p->discard[VEC1] = malloc((size_t)p->slot_size);
        at = p->discard[VEC1];
        if (!at)
            fail_locked(g, where, "out of memory");
    }
    *stride = full_cols;
    unlock_group(g, false);
    return at;
}

void ptoc_rt_xpipe_pushed(void *pipe, const char *where)
{
    xgroup *g = lock_group(OP_LABEL("tpush"), where);
    xpipe *p = pipe;
    p->dir[self.core == CUBE ? C2V : V2C].pushed[self.core]++;
    unlock_group(g, true);
}

void *ptoc_rt_xpipe_pop(void *pipe, int32_t split, int64_t esize, int64_t max_rows, int64_t max_cols,
                        int64_t *out, const char *op, const char *where)
{
    xgroup *g = lock_group(op, where);
    xpipe *p = pipe;
    int d = self.core == CUBE ? V2C : C2V;
    pipe_dir *pd = join_dir(g, p, d, split, false, op, where);
    slot_wait w = {g, pd, pd->mode, d, pd->popped[self.core], (uint64_t)p->slot_num};
    wait_until(g, tile_ready, &w, op, where,
               d == C2V ? "a tile from the cube" : "a tile from the vector cores");
    uint64_t slot = w.tile % (uint64_t)p->slot_num;
    const slot_geom *geom = &pd->geom[slot];
    if (geom->esize != esize)
        fail_locked(g, where, "'%s' pops %" PRId64 "-byte elements from a slot of %" PRId64 "-byte elements",
                    op, esize, geom->esize);
    int64_t rows = geom->rows, cols = geom->cols, offset = 0;
    int half = self.core == VEC1;
    if (d == C2V && split == 1) {
        if (rows % 2)
            fail_locked(g, where, "'%s': the pushed tile's %" PRId64 " rows do not split in two halves",
                        op, rows);
        rows /= 2;
        offset = half * rows * geom->cols;
    } else if (d == C2V && split == 2) {
        if (cols % 2)
            fail_locked(g, where, "'%s': the pushed tile's %" PRId64 " columns do not split in two halves",
                        op, cols);
        cols /= 2;
        offset = half * cols;
    }
    if (rows > max_rows || cols > max_cols)
        fail_locked(g, where, "'%s': the pushed %" PRId64 "-row part does not fit the popped tile (%" PRId64
                    " rows, or fewer columns)", op, rows, max_rows);
    out[0] = rows;
    out[1] = cols;
    out[2] = geom->cols;
    out[3] = p->local[self.core][d] + (int64_t)slot * p->slot_size;
    pd->popped[self.core]++;
    unsigned char *at = pd->data + slot * (uint64_t)p->slot_size + (uint64_t)(offset * esize);
    unlock_group(g, false);
    return at;
}

void ptoc_rt_xpipe_free(void *pipe, const char *op, const char *where)
{
    xgroup *g = lock_group(op, where);
    xpipe *p = pipe;
    pipe_dir *pd = &p->dir[self.core == CUBE ? V2C : C2V];
    if (pd->popped[self.core] <= pd->freed[self.core])
        fail_locked(g, where, "'%s' frees a slot this core has not popped (%" PRIu64 " popped, %" PRIu64
                    " freed)", op, pd->popped[self.core], pd->freed[self.core]);
    pd->freed[self.core]++;
    unlock_group(g, true);
}

/* ---------------------------------------------------------------- the pipe simulator's view */

/* Pipes as pto.h numbers them. */
enum { P_V = 1, P_MTE1 = 3, P_MTE2 = 4, P_MTE3 = 5, P_MTE4 = 7, P_FIX = 10, POP_FLAG = 0, FREE_FLAG = 1 };

/* The producer's pipe in direction d: the cube moves its tile on FIX (L0C ->
 * UB on A5, L0C -> GM on A2/A3), a vector core on MTE3 (pto-isa TPUSH). */
static int producer_pipe(int d)
{
    return d == C2V ? P_FIX : P_MTE3;
}

/* The consumer's pipe that waits for a tile: on A5 V for a vector core's UB
 * and MTE1 for the cube's L1 (the producer wrote the slot); on A2/A3 MTE2,
 * which then loads the tile from the GM slot (pto-isa TPipe::Consumer::wait). */
static int consumer_pipe(const xgroup *g, int d)
{
    return !g->a5 ? P_MTE2 : d == C2V ? P_V : P_MTE1;
}

/* A pop of tile n: on A5 the producer's transfer writes the popped bytes (on
 * its own pipe, priced where it was pushed: 1 cycle here), after the tfree that
 * released the slot slot_num tiles before, then sets the flag the pop waits
 * on; on A2/A3 the consumer's MTE2 loads the bytes after the flag. A read of
 * those bytes that is not ordered after the pop races with the write. */
void ptoc_rt_xpipe_pop_events(void *pipe, int32_t space, int64_t begin, int64_t end, const char *op,
                              const char *where)
{
    xpipe *p = pipe;
    xgroup *g = self.group;
    int d = self.core == CUBE ? V2C : C2V, from = producer_pipe(d), to = consumer_pipe(g, d);
    uint64_t n = p->dir[d].popped[self.core] - 1;
    ptoc_rt_access acc = {space, PTOC_RT_WRITE, (uint64_t)begin, (uint64_t)end};
    if (g->a5) {
        if (n >= (uint64_t)p->slot_num)
            ptoc_rt_pipe_xwait(to, from, FREE_FLAG, where);
        ptoc_rt_pipe_op_cycles(from, op, where, 1, &acc, 1);
    }
    /* A2/A3: the flag comes from the producer's GM store, none of this core's
     * pipes: MTE4, which no op of a block uses, so that it orders nothing here */
    from = g->a5 ? from : P_MTE4;
    ptoc_rt_pipe_xset(from, to, POP_FLAG, where);
    ptoc_rt_pipe_xwait(from, to, POP_FLAG, where);
    if (!g->a5)
        ptoc_rt_pipe_op(to, op, where, 1, &acc);
}

/* A free: the consumer's pipe tells the producer the slot may be written. */
void ptoc_rt_xpipe_free_events(void *pipe, const char *where)
{
    (void)pipe;
    int d = self.core == CUBE ? V2C : C2V;
    if (self.group->a5)
        ptoc_rt_pipe_xset(consumer_pipe(self.group, d), producer_pipe(d), FREE_FLAG, where);
}

/* ---------------------------------------------------------------- async copies */

int64_t ptoc_rt_async_copy(void *dst, const void *src, int64_t bytes, const char *where)
{
    if (self.ncopies == self.cap) {
        size_t cap = self.cap ? 2 * self.cap : 8;
        async_copy *c = realloc(self.copies, cap * sizeof *c);
        if (!c)
            ptoc_rt_fail(where ? where : "", "out of memory for an async copy");
        self.copies = c;
        self.cap = cap;
    }
    self.copies[self.ncopies] = (async_copy){dst, src, (size_t)bytes, false};
    return (int64_t)++self.ncopies;
}

int32_t ptoc_rt_async_wait(int64_t event, const char *where)
{
    if (event <= 0 || (uint64_t)event > self.ncopies)
        ptoc_rt_fail(where ? where : "", "an async event this core did not start");
    async_copy *c = &self.copies[event - 1];
    if (!c->done)
        memmove(c->dst, c->src, c->bytes);
    c->done = true;
    return 1;
}
