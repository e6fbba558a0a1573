/* insert_sync.c: the "pto-insert-sync" pass, which orders the pipes of a kernel.
 *
 * Requires: structured control flow (scf.for/if/while, single-execution region
 *           ops); on-chip buffers with constant addresses (alloc_tile addr = %c,
 *           pto.tassign, memref pto.addr: after pto-plan-memory and
 *           pto-insert-tassign, or manual); runs on each func.func. A function
 *           that already has set_flag/wait_flag(_dyn), pipe_barrier, barrier,
 *           record_event/wait_event or barrier_sync is manual: left untouched.
 * Produces: `pto.set_flag[<SRC>, <DST>, <EVENT_IDn>]` after a producer and
 *           `pto.wait_flag[...]` before its consumer on another pipe;
 *           `pto.pipe_barrier <P>` before a consumer on the producer's pipe when
 *           the arch does not order that pipe itself (A2/A3: every pipe but S;
 *           A5 and cpu: every pipe but V; the arch is ptoc_pto_target_arch, as
 *           for every other rule); `pto.barrier <PIPE_ALL>` where no
 *           event id is free or no set/wait placement exists; the tail
 *           before a return while pipe work may still run (below). Never
 *           fails (a hint it overrules is a warning). `{print=true}` prints
 *           the decisions to stdout (format below).
 * Method:
 *   Accesses: the access model's (ptoc_pto_op_accesses, dialect/pto_access.c):
 *     a pipe op reads its ins and writes its outs, the scratch ins it uses
 *     (tsel/tsels' tmp) and, in the Level-1 form, its result tiles; a tile
 *     covers its bytes in its space when its address is a constant, else the
 *     whole space; GM is a byte range from the pointer argument a view stands
 *     on (its root). Different pointer arguments are assumed not to alias:
 *     that is the kernel ABI we document. Conflict = the accesses overlap
 *     (same space, same or unknown root, common bytes) and one writes:
 *     physical overlap, never buffer identity; except that a write into a
 *     buffer no op ever reads (an alloc whose every use only writes it) does
 *     not conflict with an earlier write: no read can tell which landed last,
 *     and a later write of the bytes that is read is ordered after both.
 *   Analysis: a forward abstract interpretation of the structured program.
 *     The state is a list of access entries (op, access, pipe, stamp) with,
 *     per pipe q, seen[q]: the stamp from which q's ops are ordered after the
 *     access (NEVER when not). Visiting an op X on pipe Q at stamp t:
 *     - other pipes: the latest unseen conflicting entry e (pipe P) asks for a
 *       P->Q pair; Q then sees every f with f on P and f.stamp <= e.stamp (a
 *       set_flag fires when its pipe has finished everything before it) or with
 *       f.seen[P] <= e.stamp (transitivity); repeat until nothing conflicts.
 *       So a pair already implied by earlier pairs/barriers is never asked for.
 *     - same pipe, after the pairs (which may order Q's own accesses through
 *       another pipe): an unseen conflicting entry of Q asks for a
 *       pipe_barrier before X; every Q entry is then seen by Q from t;
 *     - X's own entries replace its older instances (ordering after the new
 *       one implies ordering after the old one), then entries seen by every
 *       pipe the function uses are dropped.
 *     scf.if: both arms from copies, merged (union; per pipe the later seen,
 *     NEVER wins). scf.for: the body is iterated from merge(entry, back edge)
 *     until the entry set and seen-ness repeat (loop-carried hazards through
 *     reused buffers come out of the back edge); the exit state is that merge
 *     (zero trips included), or the last body's when constant bounds make
 *     the loop run at least once. scf.while: before; exit; after; back edge. Past
 *     16 rounds (never seen) a PIPE_ALL barrier at the body start and after
 *     the loop makes it safe.
 *   Placement of a pair (producer e, consumer X): in the deepest block B
 *     holding both, a = e's ancestor and b = X's. a before b: forward, set
 *     after a, wait before b (sets sink out of loops/ifs, waits hoist out of
 *     them). Otherwise the hazard is loop-carried: climb through scf.if (and
 *     single-execution region ops) to the innermost scf.for L whose body holds
 *     both; set after a, wait before b in the body, plus a compensation set
 *     before L and wait after L so each wait has its set, zero trips too.
 *     No such loop, an scf.while on the way, or a == b not an scf.if: a
 *     PIPE_ALL barrier before X instead. Pairs with the same pipes and wait
 *     whose sets lie in one block keep only the latest set.
 *   Event ids: every op has an entry and an exit position (pre-order); a
 *     forward pair holds its id over [exit(a), entry(b)], a carried one over
 *     its whole loop plus the compensation. Per (src, dst), pairs sorted by
 *     start get the lowest id not held by an overlapping pair (interval
 *     colouring, optimal for 8); with none free the pair becomes a PIPE_ALL
 *     barrier before its wait. No id is reserved.
 *   The tail: a function returns only after its pipe work has completed
 *     (docs/decisions.md). At each return of the function body, an entry not
 *     seen by S (the scalar unit, which runs the return) may still be
 *     running: then `pto.barrier <PIPE_ALL>` goes right before the return,
 *     after every other insertion there. With pto.auto_sync_tail_hint naming
 *     the MTE3 -> S form (ptoc_pto_tail_hint) the tail is instead
 *     set_flag/wait_flag[<PIPE_MTE3>, <PIPE_S>, <EVENT_ID0>] when every such
 *     entry is on MTE3 or seen by MTE3; else a warning names the op it would
 *     leave running and the barrier is used. Its EVENT_ID0 must be free at the
 *     return among the allocated (MTE3, S) pairs. Dropping entries seen by
 *     every used pipe keeps the state exact for this: a dropped entry is
 *     ordered before a later op of another pipe still in the state; with one
 *     pipe only, S joins the pipes that must see an entry before it goes.
 *   Conservative: a partial write still counts as a conflict with later
 *     writes (WAW); tiles reached through views, iter_args or non-constant
 *     addresses cover their whole space; PIPE_ALL fallbacks do not prune
 *     other pairs; a function call is not looked into: PIPE_ALL barriers go
 *     before and after it (its callee orders its own pipes).
 * Print format (stable, one line per decision, after `sync @FUNC`):
 *   manual                                    (the function was left as it is)
 *   barrier PIPE before L:C                   (same-pipe, before the consumer)
 *   pair SRC -> DST L:C -> L:C forward|carried event N
 *   pair SRC -> DST L:C -> L:C barrier-all (WHY)
 *   tail barrier-all before L:C [(mte3-to-s leaves PIPE L:C running)]
 *   tail mte3-to-s event 0 before L:C
 * where a pair's locations are the producer's and the consumer's, a tail's
 * the return's (and the op the hint would leave running).
 */
#include "passes/passes.h"
#include "ptoc/pto.h"
#include "ptoc/util.h"
#include "ptoc/ptoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPIPE 16                  /* pipe enum values are below 16 */
#define NEVER INT64_MAX           /* seen[q]: pipe q is not ordered after the access */
#define MAX_ROUNDS 16

typedef ptoc_pto_access access;   /* the access model's, dialect/pto_access.c */

typedef struct entry {
    ptoc_op *op;
    uint32_t idx;                 /* which access of op */
    int pipe;
    access a;
    int64_t stamp;
    int64_t seen[NPIPE];
} entry;

typedef struct state { entry *v; uint32_t n, cap; } state;

typedef enum pair_kind { PAIR_FORWARD, PAIR_CARRIED, PAIR_BARRIER } pair_kind;

typedef struct pair {
    ptoc_op *prod, *cons;
    int src, dst;
    pair_kind kind;
    ptoc_op *set_after, *wait_before, *loop;
    int64_t lo, hi;               /* positions over which the event id is held */
    int id;
    const char *why;              /* PAIR_BARRIER: the reason */
    bool dead;                    /* pruned */
} pair;

typedef struct barrier_req { ptoc_op *before; int pipe; } barrier_req;

typedef enum tail_kind { TAIL_BARRIER, TAIL_MTE3_TO_S } tail_kind;

/* The end of a function at one return where pipe work may be in flight. */
typedef struct tail {
    ptoc_op *ret;
    tail_kind kind;
    const ptoc_op *left;          /* TAIL_BARRIER over the hint: an op the pair would leave running */
    int left_pipe;
    const char *why;              /* TAIL_BARRIER over the hint for another reason (printed) */
} tail;

typedef struct posent { const ptoc_op *op; int64_t pos, end; } posent;

typedef struct sync_pass {
    ptoc_context *ctx;
    ptoc_arena *arena, *tmp;
    ptoc_op *func;
    ptoc_pto_arch arch;
    ptoc_pto_tail_mode tail_mode;
    uint32_t used_pipes, drop_pipes;
    int64_t clock, counter;
    posent *pos;
    uint32_t pos_cap;
    pair *pairs;
    uint32_t npairs, pairs_cap;
    barrier_req *bars;
    uint32_t nbars, bars_cap;
    tail *tails;
    uint32_t ntails, tails_cap;
    ptoc_ptrmap never_read;       /* value -> 1 + never_read(value), computed once */
} sync_pass;

/* ---------------------------------------------------------------- helpers */

static int op_pipe(const ptoc_op *op)
{
    if (op->nregions)
        return PTOC_PTO_PIPE_NONE;
    int p = (int)ptoc_pto_op_pipe(op);
    return p >= 0 && p < NPIPE && p != PTOC_PTO_PIPE_ALL ? p : PTOC_PTO_PIPE_NONE;
}

/* ---------------------------------------------------------------- positions */

static posent *pos_slot(sync_pass *sp, const ptoc_op *op)
{
    size_t h = ((size_t)(uintptr_t)op >> 4) * 0x9E3779B97F4A7C15ull;
    for (uint32_t i = (uint32_t)h & (sp->pos_cap - 1);; i = (i + 1) & (sp->pos_cap - 1))
        if (sp->pos[i].op == op || !sp->pos[i].op)
            return &sp->pos[i];
}

static int64_t pos_of(sync_pass *sp, const ptoc_op *op) { return pos_slot(sp, op)->pos; }
static int64_t end_of(sync_pass *sp, const ptoc_op *op) { return pos_slot(sp, op)->end; }

static ptoc_walk_result count_op(ptoc_op *op, void *user)
{
    sync_pass *sp = user;
    sp->counter++;
    int p = op_pipe(op);
    if (p != PTOC_PTO_PIPE_NONE)
        sp->used_pipes |= 1u << p;
    return PTOC_WALK_ADVANCE;
}

/* Pre-order entry and exit positions, 4 apart so a loop's compensation fits. */
static void number_op(sync_pass *sp, ptoc_op *op)
{
    posent *e = pos_slot(sp, op);
    e->op = op;
    e->pos = sp->counter;
    sp->counter += 4;
    for (uint32_t r = 0; r < op->nregions; r++)
        for (ptoc_block *b = op->regions[r].first; b; b = b->next)
            for (ptoc_op *o = b->first; o; o = o->next)
                number_op(sp, o);
    e = pos_slot(sp, op);
    e->end = sp->counter;
    sp->counter += 4;
}

static void number_ops(sync_pass *sp)
{
    sp->counter = 0;
    ptoc_walk_pre(sp->func, count_op, sp);
    sp->pos_cap = 64;
    while (sp->pos_cap < 2 * sp->counter + 2)
        sp->pos_cap *= 2;
    sp->pos = PTOC_NEW_ARRAY(sp->tmp, posent, sp->pos_cap);
    sp->counter = 4;
    number_op(sp, sp->func);
    /* With one pipe, dropping its entries (seen by that pipe alone) would
     * forget ops still running at a return: the end, on S, must see them. */
    sp->drop_pipes = sp->used_pipes;
    if ((sp->used_pipes & (sp->used_pipes - 1)) == 0)
        sp->drop_pipes |= 1u << PTOC_PTO_PIPE_S;
}

/* ---------------------------------------------------------------- accesses */

/* The accesses of a pipe op. A partial write still conflicts with later
 * writes (WAW), so only read and write matter here. */
static access *op_accesses(sync_pass *sp, const ptoc_op *op, uint32_t *n)
{
    access *acc = PTOC_NEW_ARRAY(sp->tmp, access, ptoc_pto_op_max_accesses(op));
    *n = ptoc_pto_op_accesses(op, acc);
    return acc;
}

static bool conflict(const access *x, const access *y)
{
    return (x->write || y->write) && ptoc_pto_accesses_overlap(x, y);
}

/* Whether `v` is a buffer no op ever reads: an alloc_tile or memref.alloc
 * whose every use is a pipe op that only writes it. Anything else (a view, a
 * yield, a call, an unknown op) may read it. */
static bool find_never_read(sync_pass *sp, const ptoc_value *v)
{
    if (!v || v->kind != PTOC_VALUE_RESULT ||
        !(ptoc_pto_is(v->owner.op, PTOC_PTO_OP_ALLOC_TILE) || ptoc_op_is(v->owner.op, "memref.alloc")))
        return false;
    for (const ptoc_use *u = v->uses; u; u = u->next) {
        if (op_pipe(u->owner) == PTOC_PTO_PIPE_NONE)
            return false;
        uint32_t n;
        const access *acc = op_accesses(sp, u->owner, &n);
        for (uint32_t i = 0; i < n; i++)
            if (acc[i].value == v && acc[i].read)
                return false;
    }
    return true;
}

static bool never_read(sync_pass *sp, const ptoc_value *v)
{
    uint64_t known;
    if (!v)
        return false;
    if (ptoc_ptrmap_get_int(&sp->never_read, v, &known))
        return known == 2;
    bool r = find_never_read(sp, v);
    ptoc_ptrmap_put_int(&sp->never_read, v, r ? 2 : 1);
    return r;
}

/* A write into a buffer no op reads need not land after an earlier write of
 * the same bytes (WAW): no read can tell which landed last, and a later write
 * of those bytes that is read is ordered after both (each stays an entry). */
static bool unobservable_waw(sync_pass *sp, const access *earlier, const access *later)
{
    return !earlier->read && !later->read && never_read(sp, later->value);
}

/* Whether an access of a later op conflicts with entry e. */
static bool entry_conflicts(sync_pass *sp, const entry *e, const access *acc, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (conflict(&e->a, &acc[i]) && !unobservable_waw(sp, &e->a, &acc[i]))
            return true;
    return false;
}

/* ---------------------------------------------------------------- states */

static void push_entry(sync_pass *sp, state *s, const entry *e)
{
    *PTOC_VARR_PUSH_FIELDS(NULL, sp->tmp, s->v, s->n, s->cap) = *e;
}

static state copy_state(sync_pass *sp, const state *s)
{
    state r = {NULL, 0, 0};
    for (uint32_t i = 0; i < s->n; i++)
        push_entry(sp, &r, &s->v[i]);
    return r;
}

static entry *find_entry(state *s, const ptoc_op *op, uint32_t idx)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i].op == op && s->v[i].idx == idx)
            return &s->v[i];
    return NULL;
}

/* Paths join: an access is ordered for q only when it is on every path that has it. */
static state merge(sync_pass *sp, const state *x, const state *y)
{
    state r = copy_state(sp, x);
    for (uint32_t i = 0; i < y->n; i++) {
        const entry *e = &y->v[i];
        entry *m = find_entry(&r, e->op, e->idx);
        if (!m) {
            push_entry(sp, &r, e);
            continue;
        }
        if (e->stamp > m->stamp)
            m->stamp = e->stamp;
        for (int q = 0; q < NPIPE; q++)
            if (e->seen[q] > m->seen[q])
                m->seen[q] = e->seen[q];
    }
    return r;
}

/* Same entries with the same seen-ness: a loop has reached its fixpoint. */
static bool same_shape(state *x, state *y)
{
    if (x->n != y->n)
        return false;
    for (uint32_t i = 0; i < x->n; i++) {
        entry *m = find_entry(y, x->v[i].op, x->v[i].idx);
        if (!m)
            return false;
        for (int q = 0; q < NPIPE; q++)
            if ((m->seen[q] == NEVER) != (x->v[i].seen[q] == NEVER))
                return false;
    }
    return true;
}

static bool fully_seen(const sync_pass *sp, const entry *e)
{
    for (int q = 0; q < NPIPE; q++)
        if ((sp->drop_pipes & (1u << q)) && e->seen[q] == NEVER)
            return false;
    return true;
}

/* ---------------------------------------------------------------- requests */

static void add_barrier(sync_pass *sp, ptoc_op *before, int pipe)
{
    for (uint32_t i = 0; i < sp->nbars; i++)
        if (sp->bars[i].before == before && sp->bars[i].pipe == pipe)
            return;
    *PTOC_VARR_PUSH_FIELDS(NULL, sp->tmp, sp->bars, sp->nbars, sp->bars_cap) = (barrier_req){before, pipe};
}

/* The ancestor of `op` (or op) that lies in `blk`, or NULL. */
static ptoc_op *ancestor_in(ptoc_op *op, const ptoc_block *blk)
{
    for (; op; op = ptoc_op_parent(op))
        if (op->block == blk)
            return op;
    return NULL;
}

static void place_fallback(pair *p, const char *why)
{
    p->kind = PAIR_BARRIER;
    p->wait_before = p->cons;
    p->why = why;
}

/* Loop-carried from a (after b, or a == b an scf.if) in block of a: climb to a loop. */
static void place_carried(sync_pass *sp, pair *p, ptoc_op *a, ptoc_op *b)
{
    if (a == b && !ptoc_op_is(a, "scf.if")) {
        place_fallback(p, "no placement");
        return;
    }
    for (;;) {
        ptoc_op *owner = ptoc_block_parent_op(a->block);
        if (!owner || owner == sp->func || ptoc_op_is(owner, "scf.while")) {
            place_fallback(p, "no placement");
            return;
        }
        if (ptoc_op_is(owner, "scf.for")) {
            p->kind = PAIR_CARRIED;
            p->set_after = a;
            p->wait_before = b;
            p->loop = owner;
            p->lo = pos_of(sp, owner) - 2;
            p->hi = end_of(sp, owner) + 2;
            return;
        }
        a = b = owner;
    }
}

static void place(sync_pass *sp, pair *p)
{
    ptoc_op *a, *b = NULL;
    for (a = p->prod; a && a != sp->func; a = ptoc_op_parent(a))
        if ((b = ancestor_in(p->cons, a->block)) != NULL)
            break;
    if (!b) {
        place_fallback(p, "no placement");
        return;
    }
    if (a != b && pos_of(sp, a) < pos_of(sp, b)) {
        p->kind = PAIR_FORWARD;
        p->set_after = a;
        p->wait_before = b;
        p->lo = end_of(sp, a);
        p->hi = pos_of(sp, b);
        return;
    }
    place_carried(sp, p, a, b);
}

static void add_pair(sync_pass *sp, ptoc_op *prod, ptoc_op *cons, int src, int dst)
{
    for (uint32_t i = 0; i < sp->npairs; i++)
        if (sp->pairs[i].prod == prod && sp->pairs[i].cons == cons)
            return;
    pair *p = PTOC_VARR_PUSH_FIELDS(NULL, sp->tmp, sp->pairs, sp->npairs, sp->pairs_cap);
    *p = (pair){prod, cons, src, dst, PAIR_FORWARD, NULL, NULL, NULL, 0, 0, -1, NULL, false};
    place(sp, p);
}

/* ---------------------------------------------------------------- analysis */

static void visit_block(sync_pass *sp, state *s, ptoc_block *b);

/* A barrier on q before `op` at `now`: q sees all of q's earlier accesses. */
static void order_same_pipe(sync_pass *sp, state *s, ptoc_op *op, int q, const access *acc, uint32_t n,
                            int64_t now)
{
    bool need = false;
    for (uint32_t i = 0; i < s->n && !need; i++)
        need = s->v[i].pipe == q && s->v[i].seen[q] == NEVER && entry_conflicts(sp, &s->v[i], acc, n);
    if (!need)
        return;
    add_barrier(sp, op, q);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i].pipe == q && s->v[i].seen[q] > now)
            s->v[i].seen[q] = now;
}

/* One pair for the latest unordered conflicting access of another pipe;
 * false when none is left. */
static bool order_other_pipe(sync_pass *sp, state *s, ptoc_op *op, int q, const access *acc, uint32_t n,
                             int64_t now)
{
    entry *best = NULL;
    for (uint32_t i = 0; i < s->n; i++) {
        entry *e = &s->v[i];
        if (e->pipe != q && e->seen[q] == NEVER && (!best || e->stamp > best->stamp) &&
            entry_conflicts(sp, e, acc, n))
            best = e;
    }
    if (!best)
        return false;
    int p = best->pipe;
    int64_t t = best->stamp;
    add_pair(sp, best->op, op, p, q);
    for (uint32_t i = 0; i < s->n; i++) {
        entry *f = &s->v[i];
        if (((f->pipe == p && f->stamp <= t) || f->seen[p] <= t) && f->seen[q] > now)
            f->seen[q] = now;
    }
    return true;
}

static void record(sync_pass *sp, state *s, ptoc_op *op, int q, const access *acc, uint32_t n, int64_t now)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i].op != op && !fully_seen(sp, &s->v[i]))
            s->v[k++] = s->v[i];
    s->n = k;
    for (uint32_t i = 0; i < n; i++) {
        entry e = {op, i, q, acc[i], now, {0}};
        for (int p = 0; p < NPIPE; p++)
            e.seen[p] = NEVER;
        if (ptoc_pto_pipe_in_order(sp->arch, q))
            e.seen[q] = now;
        push_entry(sp, s, &e);
    }
}

static void visit_pipe_op(sync_pass *sp, state *s, ptoc_op *op, int q)
{
    uint32_t n;
    access *acc = op_accesses(sp, op, &n);
    int64_t now = ++sp->clock;
    while (order_other_pipe(sp, s, op, q, acc, n, now)) {
    }
    order_same_pipe(sp, s, op, q, acc, n, now);   /* after: pairs may already order q */
    record(sp, s, op, q, acc, n, now);
}

static void visit_region(sync_pass *sp, state *s, ptoc_region *r)
{
    for (ptoc_block *b = r->first; b; b = b->next)
        visit_block(sp, s, b);
}

static void visit_if(sync_pass *sp, state *s, ptoc_op *op)
{
    state t = copy_state(sp, s);
    state e = copy_state(sp, s);
    visit_region(sp, &t, &op->regions[0]);
    if (op->nregions > 1)
        visit_region(sp, &e, &op->regions[1]);
    *s = merge(sp, &t, &e);
}

/* No fixpoint (never seen in practice): barriers make the loop safe. */
static void loop_fallback(sync_pass *sp, state *s, ptoc_op *loop, ptoc_region *body)
{
    if (body->first && body->first->first)
        add_barrier(sp, body->first->first, PTOC_PTO_PIPE_ALL);
    if (loop->next)
        add_barrier(sp, loop->next, PTOC_PTO_PIPE_ALL);
    s->n = 0;
}

/* A call may run pipe ops of its own on any buffer (its callee is ordered by
 * itself, as a function): PIPE_ALL barriers before and after it order
 * everything around it. */
static void visit_call(sync_pass *sp, state *s, ptoc_op *op)
{
    add_barrier(sp, op, PTOC_PTO_PIPE_ALL);
    if (op->next)
        add_barrier(sp, op->next, PTOC_PTO_PIPE_ALL);
    s->n = 0;
}

/* Whether an scf.for runs its body at least once: constant bounds, lb < ub. */
static bool runs_once_at_least(const ptoc_op *op)
{
    int64_t lb, ub, step;
    return op->noperands >= 3 && ptoc_arith_int_constant(ptoc_op_operand(op, 0), &lb) &&
           ptoc_arith_int_constant(ptoc_op_operand(op, 1), &ub) &&
           ptoc_arith_int_constant(ptoc_op_operand(op, 2), &step) && step > 0 && lb < ub;
}

/* The exit state is the fixpoint's (entry and back edge merged: zero trips
 * included), or the last body's when the loop surely runs. */
static void visit_for(sync_pass *sp, state *s, ptoc_op *op)
{
    state entry = copy_state(sp, s), head = copy_state(sp, s);
    for (int round = 0; round < MAX_ROUNDS; round++) {
        state body = copy_state(sp, &head);
        visit_region(sp, &body, &op->regions[0]);
        state next = merge(sp, &entry, &body);
        if (same_shape(&next, &head)) {
            *s = runs_once_at_least(op) ? body : next;
            return;
        }
        head = next;
    }
    loop_fallback(sp, s, op, &op->regions[0]);
}

/* before; (exit) after; back to before. */
static void visit_while(sync_pass *sp, state *s, ptoc_op *op)
{
    state entry = copy_state(sp, s), head = copy_state(sp, s), exit = {NULL, 0, 0};
    for (int round = 0; round < MAX_ROUNDS; round++) {
        state body = copy_state(sp, &head);
        visit_region(sp, &body, &op->regions[0]);
        exit = merge(sp, &exit, &body);
        if (op->nregions > 1)
            visit_region(sp, &body, &op->regions[1]);
        state next = merge(sp, &entry, &body);
        if (same_shape(&next, &head)) {
            *s = exit;
            return;
        }
        head = next;
    }
    loop_fallback(sp, s, op, &op->regions[0]);
}

/* The latest entry a return is not ordered after: not seen by S, the scalar
 * unit that runs the return, nor, with `mte3_pair`, ordered before an
 * MTE3 -> S pair at the return (its set fires when MTE3 has finished
 * everything before it, which includes what MTE3 was ordered after). */
static const entry *in_flight(const state *s, bool mte3_pair)
{
    const entry *last = NULL;
    for (uint32_t i = 0; i < s->n; i++) {
        const entry *e = &s->v[i];
        if (e->seen[PTOC_PTO_PIPE_S] != NEVER ||
            (mte3_pair && (e->pipe == PTOC_PTO_PIPE_MTE3 || e->seen[PTOC_PTO_PIPE_MTE3] != NEVER)))
            continue;
        if (!last || e->stamp > last->stamp)
            last = e;
    }
    return last;
}

/* A return with pipe work in flight gets a tail: the hint's MTE3 -> S pair
 * when that orders everything, else a PIPE_ALL barrier. An entry dropped from
 * the state is ordered before a later op of another pipe that is still in it
 * (or the end sees it: number_ops), so the state alone decides. */
static void plan_tail(sync_pass *sp, const state *s, ptoc_op *ret)
{
    if (!in_flight(s, false))
        return;
    tail t = {ret, TAIL_BARRIER, NULL, PTOC_PTO_PIPE_NONE, NULL};
    if (sp->tail_mode == PTOC_PTO_TAIL_MTE3_TO_S) {
        const entry *left = in_flight(s, true);
        if (left) {
            t.left = left->op;
            t.left_pipe = left->pipe;
        } else {
            t.kind = TAIL_MTE3_TO_S;
        }
    }
    *PTOC_VARR_PUSH_FIELDS(NULL, sp->tmp, sp->tails, sp->ntails, sp->tails_cap) = t;
}

static void visit_op(sync_pass *sp, state *s, ptoc_op *op)
{
    if (ptoc_op_is(op, "func.return") && ptoc_op_parent(op) == sp->func) {
        plan_tail(sp, s, op);
        return;
    }
    if (ptoc_op_is(op, "scf.for") && op->nregions == 1) {
        visit_for(sp, s, op);
        return;
    }
    if (ptoc_op_is(op, "scf.if")) {
        visit_if(sp, s, op);
        return;
    }
    if (ptoc_op_is(op, "scf.while")) {
        visit_while(sp, s, op);
        return;
    }
    if (ptoc_op_is(op, "func.call") || ptoc_op_is(op, "func.call_indirect")) {
        visit_call(sp, s, op);
        return;
    }
    for (uint32_t r = 0; r < op->nregions; r++)   /* regions that run once, in order */
        visit_region(sp, s, &op->regions[r]);
    int q = op_pipe(op);
    if (q != PTOC_PTO_PIPE_NONE)
        visit_pipe_op(sp, s, op, q);
}

static void visit_block(sync_pass *sp, state *s, ptoc_block *b)
{
    for (ptoc_op *op = b->first; op; op = op->next)
        visit_op(sp, s, op);
}

/* ---------------------------------------------------------------- pruning, event ids */

/* Same pipes, same wait, sets in one block: the latest set covers the others. */
static void prune_pairs(sync_pass *sp)
{
    for (uint32_t i = 0; i < sp->npairs; i++) {
        pair *p = &sp->pairs[i];
        for (uint32_t j = 0; j < sp->npairs && !p->dead; j++) {
            pair *o = &sp->pairs[j];
            if (j == i || o->dead || o->kind != p->kind || o->src != p->src || o->dst != p->dst ||
                o->wait_before != p->wait_before || o->loop != p->loop)
                continue;
            if (p->kind == PAIR_BARRIER || pos_of(sp, o->set_after) > pos_of(sp, p->set_after) ||
                (o->set_after == p->set_after && j < i))
                p->dead = true;
        }
    }
}

static int cmp_pair_lo(const void *x, const void *y)
{
    const pair *a = *(pair *const *)x, *b = *(pair *const *)y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The ids of (src, dst) that pairs given one hold somewhere in [lo, hi). */
static uint32_t ids_held(const sync_pass *sp, int src, int dst, int64_t lo, int64_t hi)
{
    uint32_t busy = 0;
    for (uint32_t j = 0; j < sp->npairs; j++) {
        const pair *o = &sp->pairs[j];
        if (!o->dead && o->kind != PAIR_BARRIER && o->id >= 0 && o->src == src && o->dst == dst &&
            o->lo < hi && lo < o->hi)
            busy |= 1u << o->id;
    }
    return busy;
}

/* Interval colouring per (src, dst) in order of start. The tails come after
 * every pair: their MTE3 -> S pair must find EVENT_ID0 free at the return. */
static void allocate_ids(sync_pass *sp)
{
    pair **order = PTOC_NEW_ARRAY(sp->tmp, pair *, sp->npairs + 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < sp->npairs; i++)
        if (!sp->pairs[i].dead && sp->pairs[i].kind != PAIR_BARRIER)
            order[n++] = &sp->pairs[i];
    qsort(order, n, sizeof *order, cmp_pair_lo);
    for (uint32_t i = 0; i < n; i++) {
        pair *p = order[i];
        uint32_t busy = ids_held(sp, p->src, p->dst, p->lo, p->hi);
        for (int id = 0; id < (int)ptoc_pto_arch_info_of(sp->arch)->event_ids && id < 32 && p->id < 0; id++)
            if (!(busy & (1u << id)))
                p->id = id;
        if (p->id < 0)
            place_fallback(p, "no free event id");
    }
    for (uint32_t i = 0; i < sp->ntails; i++) {
        tail *t = &sp->tails[i];
        int64_t at = pos_of(sp, t->ret);
        if (t->kind == TAIL_MTE3_TO_S && (ids_held(sp, PTOC_PTO_PIPE_MTE3, PTOC_PTO_PIPE_S, at - 2, at) & 1u)) {
            t->kind = TAIL_BARRIER;
            t->why = "event id 0 held";
        }
    }
}

/* ---------------------------------------------------------------- emission */

static ptoc_attr *pipe_attr(sync_pass *sp, int pipe)
{
    return ptoc_pto_enum_attr(sp->ctx, PTOC_PTO_ENUM_PIPE, (uint32_t)pipe);
}

static void emit_flag(sync_pass *sp, ptoc_pto_op_id opcode, const pair *p, ptoc_op *before, ptoc_block *blk)
{
    ptoc_builder b;
    ptoc_builder_init(&b, sp->ctx, sp->arena);
    if (before)
        ptoc_builder_set_before(&b, before);
    else
        ptoc_builder_set_end(&b, blk);
    b.loc = (before ? before : p->cons)->loc;
    ptoc_named_attr attrs[3] = {
        {ptoc_ident_cstr(sp->ctx, "src_pipe"), pipe_attr(sp, p->src)},
        {ptoc_ident_cstr(sp->ctx, "dst_pipe"), pipe_attr(sp, p->dst)},
        {ptoc_ident_cstr(sp->ctx, "event_id"),
         ptoc_pto_enum_attr(sp->ctx, PTOC_PTO_ENUM_EVENT, (uint32_t)p->id)},
    };
    ptoc_builder_create(&b, ptoc_pto_op_name(opcode), 0, NULL, 0, NULL, 3, attrs, 0);
}

/* Sets first, so a set and a wait at one point read set-then-wait. */
static void emit_sets(sync_pass *sp, const pair *p)
{
    if (p->kind == PAIR_BARRIER) {
        add_barrier(sp, p->wait_before, PTOC_PTO_PIPE_ALL);
        return;
    }
    emit_flag(sp, PTOC_PTO_OP_SET_FLAG, p, p->set_after->next, p->set_after->block);
    if (p->kind == PAIR_CARRIED)
        emit_flag(sp, PTOC_PTO_OP_SET_FLAG, p, p->loop, NULL);
}

static void emit_waits(sync_pass *sp, const pair *p)
{
    if (p->kind == PAIR_BARRIER)
        return;
    emit_flag(sp, PTOC_PTO_OP_WAIT_FLAG, p, p->wait_before, NULL);
    if (p->kind == PAIR_CARRIED)
        emit_flag(sp, PTOC_PTO_OP_WAIT_FLAG, p, p->loop->next, p->loop->block);
}

static void emit_barrier(sync_pass *sp, const barrier_req *r)
{
    ptoc_builder b;
    ptoc_builder_init(&b, sp->ctx, sp->arena);
    ptoc_builder_set_before(&b, r->before);
    b.loc = r->before->loc;
    ptoc_named_attr attr = {ptoc_ident_cstr(sp->ctx, "pipe"), pipe_attr(sp, r->pipe)};
    ptoc_pto_op_id opcode = r->pipe == PTOC_PTO_PIPE_ALL ? PTOC_PTO_OP_BARRIER : PTOC_PTO_OP_PIPE_BARRIER;
    ptoc_builder_create(&b, ptoc_pto_op_name(opcode), 0, NULL, 0, NULL, 1, &attr, 0);
}

/* Right before the return, after every other insertion there (a loop's
 * compensation wait included), so nothing runs between the tail and the end. */
static void emit_tail(sync_pass *sp, const tail *t)
{
    if (t->kind == TAIL_BARRIER) {
        emit_barrier(sp, &(barrier_req){t->ret, PTOC_PTO_PIPE_ALL});
        return;
    }
    pair p = {.cons = t->ret, .src = PTOC_PTO_PIPE_MTE3, .dst = PTOC_PTO_PIPE_S, .id = 0};
    emit_flag(sp, PTOC_PTO_OP_SET_FLAG, &p, t->ret, NULL);
    emit_flag(sp, PTOC_PTO_OP_WAIT_FLAG, &p, t->ret, NULL);
}

/* The hint asked for the MTE3 -> S pair, which would let the function end
 * while `t->left` runs: say so where the hint is. */
static void warn_hint_overruled(const sync_pass *sp, const tail *t)
{
    ptoc_attr *hint = ptoc_op_attr(sp->func, "pto.auto_sync_tail_hint");
    ptoc_op_emit_warning(sp->func, "pto.auto_sync_tail_hint '%s' orders only PIPE_MTE3 before the return at "
                         "%u:%u, but '%s' at %u:%u (%s) may still be running there: using barrier-all instead",
                         hint && hint->kind == PTOC_ATTR_STRING ? hint->u.string->str : "?", t->ret->loc.line,
                         t->ret->loc.col, t->left->name->str, t->left->loc.line, t->left->loc.col,
                         ptoc_pto_enum_name(PTOC_PTO_ENUM_PIPE, (uint32_t)t->left_pipe));
}

/* ---------------------------------------------------------------- printing */

static const char *pipe_name(int pipe)
{
    const char *n = ptoc_pto_enum_name(PTOC_PTO_ENUM_PIPE, (uint32_t)pipe);
    return n ? n : "?";
}

static void print_decisions(const sync_pass *sp)
{
    for (uint32_t i = 0; i < sp->nbars; i++)
        if (sp->bars[i].pipe != PTOC_PTO_PIPE_ALL)
            printf("  barrier %s before %u:%u\n", pipe_name(sp->bars[i].pipe), sp->bars[i].before->loc.line,
                   sp->bars[i].before->loc.col);
    for (uint32_t i = 0; i < sp->npairs; i++) {
        const pair *p = &sp->pairs[i];
        if (p->dead)
            continue;
        printf("  pair %s -> %s %u:%u -> %u:%u ", pipe_name(p->src), pipe_name(p->dst), p->prod->loc.line,
               p->prod->loc.col, p->cons->loc.line, p->cons->loc.col);
        if (p->kind == PAIR_BARRIER)
            printf("barrier-all (%s)\n", p->why);
        else
            printf("%s event %d\n", p->kind == PAIR_FORWARD ? "forward" : "carried", p->id);
    }
    for (uint32_t i = 0; i < sp->ntails; i++) {
        const tail *t = &sp->tails[i];
        printf("  tail %s before %u:%u", t->kind == TAIL_BARRIER ? "barrier-all" : "mte3-to-s event 0",
               t->ret->loc.line, t->ret->loc.col);
        if (t->left)
            printf(" (mte3-to-s leaves %s %u:%u running)\n", pipe_name(t->left_pipe), t->left->loc.line,
                   t->left->loc.col);
        else if (t->why)
            printf(" (%s)\n", t->why);
        else
            printf("\n");
    }
}

/* ---------------------------------------------------------------- driver */

static ptoc_walk_result find_manual(ptoc_op *op, void *user)
{
    switch (ptoc_pto_opcode(op)) {
    case PTOC_PTO_OP_SET_FLAG: case PTOC_PTO_OP_WAIT_FLAG: case PTOC_PTO_OP_SET_FLAG_DYN:
    case PTOC_PTO_OP_WAIT_FLAG_DYN: case PTOC_PTO_OP_PIPE_BARRIER: case PTOC_PTO_OP_BARRIER:
    case PTOC_PTO_OP_RECORD_EVENT: case PTOC_PTO_OP_WAIT_EVENT: case PTOC_PTO_OP_BARRIER_SYNC:
        *(bool *)user = true;
        return PTOC_WALK_INTERRUPT;
    default:
        return PTOC_WALK_ADVANCE;
    }
}

static bool print_requested(const ptoc_pass_options *opts)
{
    return ptoc_pass_flag(opts ? ptoc_pass_option(opts, "print") : NULL);
}

static void insert_sync(sync_pass *sp)
{
    state s = {NULL, 0, 0};
    number_ops(sp);
    visit_region(sp, &s, &sp->func->regions[0]);
    prune_pairs(sp);
    allocate_ids(sp);
    for (uint32_t i = 0; i < sp->npairs; i++)
        if (!sp->pairs[i].dead)
            emit_sets(sp, &sp->pairs[i]);
    for (uint32_t i = 0; i < sp->npairs; i++)
        if (!sp->pairs[i].dead)
            emit_waits(sp, &sp->pairs[i]);
    for (uint32_t i = 0; i < sp->nbars; i++)
        emit_barrier(sp, &sp->bars[i]);
    for (uint32_t i = 0; i < sp->ntails; i++) {
        emit_tail(sp, &sp->tails[i]);
        if (sp->tails[i].left)
            warn_hint_overruled(sp, &sp->tails[i]);
    }
}

static bool run_insert_sync(ptoc_op *func, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    if (!func->nregions || !func->regions[0].first)
        return true;                   /* a declaration */
    bool manual = false, print = print_requested(opts);
    ptoc_walk_pre(func, find_manual, &manual);
    if (print)
        printf("sync @%s\n", ptoc_pass_func_name(func));
    if (manual) {
        if (print)
            printf("  manual\n");
        return true;
    }
    ptoc_context *ctx = ptoc_op_context(func);
    ptoc_pto_arch arch;
    if (!ptoc_pass_target_arch(func, &arch))
        return false;
    sync_pass sp = {0};
    sp.ctx = ctx;
    sp.arena = arena;
    sp.tmp = ptoc_arena_create(ctx);
    sp.func = func;
    sp.arch = arch;
    ptoc_pto_tail_hint(func, &sp.tail_mode);   /* a refused spelling (a verifier error) is barrier-all */
    ptoc_ptrmap_init(&sp.never_read, ctx);
    insert_sync(&sp);
    if (print)
        print_decisions(&sp);
    ptoc_ptrmap_free(&sp.never_read);
    ptoc_arena_destroy(sp.tmp);
    return true;
}

static const char *const insert_sync_options[] = {"print", NULL};

const ptoc_pass_def ptoc_insert_sync_pass = {
    .name = "pto-insert-sync",
    .summary = "Insert set_flag/wait_flag, pipe_barrier and PIPE_ALL fallbacks between conflicting pipe ops",
    .anchor = "func.func",
    .run = run_insert_sync,
    .option_names = insert_sync_options,
};
