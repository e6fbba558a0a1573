/* plan_memory_place.c: placement for pto-plan-memory.
 *
 * Buffers that hand their bytes over in place are merged into groups
 * (plan_memory_merge.c); each space is then placed by best or first fit
 * under several orderings (the smallest peak wins), the cube's operand
 * buffers double-buffered where that saves a wait. With the path graph
 * (plan_memory_paths.c) each space is placed under several merge orders and,
 * when small, also coloured size class by size class, the smallest peak
 * kept. The lower bound, the overflow diagnostic and the --test-print-memplan
 * listing are made here too.
 */
#include "passes/plan_memory.h"

/* ---------------------------------------------------------------- occupancy tree */

/* A segment tree over program points; each placed buffer's pieces sit in the
 * canonical nodes of their intervals, with their via; `count` is the number of
 * entries in a subtree, so a query skips empty parts. */
typedef struct occ_tree {
    uint32_t leaves;
    uint32_t *head, *count;      /* per node */
    struct occ_entry { uint32_t buf, next, via; } *entries;
    uint32_t nentries, entries_cap;
    ptoc_arena *arena;
} occ_tree;

static void tree_init(occ_tree *t, ptoc_arena *a, uint32_t npoints)
{
    t->arena = a;
    t->leaves = 1;
    while (t->leaves < npoints)
        t->leaves *= 2;
    t->head = PTOC_NEW_ARRAY(a, uint32_t, 2 * t->leaves);
    t->count = PTOC_NEW_ARRAY(a, uint32_t, 2 * t->leaves);
    t->entries = NULL;
    t->entries_cap = 0;
}

static void tree_clear(occ_tree *t)
{
    for (uint32_t i = 0; i < 2 * t->leaves; i++) {
        t->head[i] = NO_SET;
        t->count[i] = 0;
    }
    t->nentries = 0;
}

static void tree_insert(occ_tree *t, uint32_t n, uint32_t lo, uint32_t hi, span b, uint32_t id)
{
    if (b.hi < lo || b.lo > hi)
        return;
    t->count[n]++;
    if (b.lo <= lo && hi <= b.hi) {
        struct occ_entry e = {id, t->head[n], b.via};
        *PTOC_VARR_PUSH_FIELDS(NULL, t->arena, t->entries, t->nentries, t->entries_cap) = e;
        t->head[n] = t->nentries - 1;
        return;
    }
    uint32_t mid = lo + (hi - lo) / 2;
    tree_insert(t, 2 * n, lo, mid, b, id);
    tree_insert(t, 2 * n + 1, mid + 1, hi, b, id);
}

typedef struct query {
    uint32_t *out, n, *scratch;  /* scratch: for sorting, as long as out */
    uint32_t *seen, stamp;       /* per buffer: dedup, a buffer sits in several nodes */
} query;

static void tree_query(const occ_tree *t, uint32_t n, uint32_t lo, uint32_t hi, span b, query *q)
{
    if (t->count[n] == 0 || b.hi < lo || b.lo > hi)
        return;
    for (uint32_t e = t->head[n]; e != NO_SET; e = t->entries[e].next) {
        uint32_t id = t->entries[e].buf;
        if (b.via && t->entries[e].via == b.via)
            continue;                    /* both there only through one carrier: it holds one */
        if (q->seen[id] != q->stamp) {
            q->seen[id] = q->stamp;
            q->out[q->n++] = id;
        }
    }
    if (lo == hi)
        return;
    uint32_t mid = lo + (hi - lo) / 2;
    tree_query(t, 2 * n, lo, mid, b, q);
    tree_query(t, 2 * n + 1, mid + 1, hi, b, q);
}

/* ---------------------------------------------------------------- placement */

typedef struct space_plan {
    uint32_t space, n;           /* buffers of this space: ids into pl->bufs */
    uint32_t *ids;
    uint64_t capacity, align, peak, lower_bound;
    uint32_t lb_point;
    int scratch;                 /* index of the scratch reservation in bufs, or -1 */
} space_plan;

/* Buffer orderings take the buffers they compare, so sorting needs no global
 * (qsort has no user pointer in C17) and two planners may run at once. */
typedef int (*buf_cmp)(const buffer *, const buffer *);

static void insertion_sort(const buffer *bufs, uint32_t *ids, uint32_t n, buf_cmp cmp)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t id = ids[i], j = i;
        for (; j > 0 && cmp(&bufs[ids[j - 1]], &bufs[id]) > 0; j--)
            ids[j] = ids[j - 1];
        ids[j] = id;
    }
}

/* A stable merge sort of buffer ids; `scratch` holds n ids. Short runs use
 * insertion sort (occupant lists are usually a few dozen ids). */
static void sort_ids(const buffer *bufs, uint32_t *ids, uint32_t *scratch, uint32_t n, buf_cmp cmp)
{
    if (n <= 24) {
        insertion_sort(bufs, ids, n, cmp);
        return;
    }
    uint32_t half = n / 2, i = 0, j = half, k = 0;
    sort_ids(bufs, ids, scratch, half, cmp);
    sort_ids(bufs, ids + half, scratch, n - half, cmp);
    while (i < half && j < n)
        scratch[k++] = cmp(&bufs[ids[j]], &bufs[ids[i]]) < 0 ? ids[j++] : ids[i++];
    while (i < half)
        scratch[k++] = ids[i++];
    memcpy(ids, scratch, (size_t)k * sizeof *ids);   /* ids[j..n) are already in place */
}

static int cmp_u64_desc(uint64_t x, uint64_t y) { return (x < y) - (x > y); }
static int cmp_u64_asc(uint64_t x, uint64_t y) { return (x > y) - (x < y); }
static int cmp_u32_asc(uint32_t x, uint32_t y) { return (x > y) - (x < y); }

static int by_offset(const buffer *x, const buffer *y) { return cmp_u64_asc(x->offset, y->offset); }

/* Best fit among the gaps left by `occ` (sorted by offset); on top otherwise.
 * First fit (`lowest`) takes the lowest gap instead. */
static uint64_t fit(const buffer *bufs, const uint32_t *occ, uint32_t n, uint64_t size, uint64_t align, bool lowest)
{
    uint64_t cursor = 0, best = UINT64_MAX, best_gap = UINT64_MAX;
    for (uint32_t i = 0; i < n; i++) {
        const buffer *o = &bufs[occ[i]];
        uint64_t start = align_up(cursor, align);
        if (o->offset >= start + size && o->offset - start < best_gap) {
            if (lowest)
                return start;
            best_gap = o->offset - start;
            best = start;
        }
        if (o->offset + o->size > cursor)
            cursor = o->offset + o->size;
    }
    return best != UINT64_MAX ? best : align_up(cursor, align);
}

static int tie(const buffer *x, const buffer *y)
{
    int c = cmp_u32_asc(x->start, y->start);
    return c ? c : cmp_u32_asc(x->root_point, y->root_point);
}

static int order_size(const buffer *x, const buffer *y)
{
    int c = cmp_u64_desc(x->size, y->size);
    return c ? c : tie(x, y);
}

static int order_start(const buffer *x, const buffer *y)
{
    int c = cmp_u32_asc(x->start, y->start);
    return c ? c : order_size(x, y);
}

static int order_area(const buffer *x, const buffer *y)
{
    int c = cmp_u64_desc(x->size * (x->end - x->start + 1), y->size * (y->end - y->start + 1));
    return c ? c : order_size(x, y);
}

static const buf_cmp orderings[] = {order_size, order_start, order_area};

/* Buffers the placement and the lower bound ignore: pinned elsewhere, or unused
 * (offset 0, overlapping anything, since nothing reads or writes them). */
static bool is_placed(const buffer *b) { return !is_pinned(b) && !b->unused && !b->merged; }

/* Two buffers confined to the two arms of one scf.if are never live together. */
static bool exclusive(const planner *pl, const buffer *x, const buffer *y)
{
    for (uint32_t i = 0; i < x->nconfined; i++)
        for (uint32_t j = 0; j < y->nconfined; j++)
            if ((pl->confined_to[x->confined + i] ^ 1) == pl->confined_to[y->confined + j])
                return true;
    return false;
}

static void drop_exclusive(const planner *pl, const buffer *b, query *q)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < q->n; i++)
        if (!b->nconfined || !exclusive(pl, b, &pl->bufs[q->out[i]]))
            q->out[kept++] = q->out[i];
    q->n = kept;
}

/* Keeps, of the placed buffers live at b's points, those that may be live
 * with it on one path (pl->exact_groups) and the pinned ones. */
static void drop_apart(const planner *pl, uint32_t b, query *q)
{
    if (!pl->exact_groups)
        return;
    const uint64_t *row = &pl->exact_groups[(size_t)b * pl->exact_words];
    uint32_t kept = 0;
    for (uint32_t i = 0; i < q->n; i++) {
        uint32_t o = q->out[i];
        if (is_pinned(&pl->bufs[o]) || bit_of(row, o))
            q->out[kept++] = o;
    }
    q->n = kept;
}

static void insert_buffer(planner *pl, occ_tree *t, uint32_t id)
{
    const buffer *b = &pl->bufs[id];
    for (uint32_t k = 0; k < b->npieces; k++)
        tree_insert(t, 1, 0, t->leaves - 1, pl->pieces[b->pieces + k], id);
}

/* Puts the pinned buffers of `sp` in the tree; returns the peak they make
 * (the scratch reservation excluded: it is not a buffer of the kernel). */
static uint64_t insert_pinned(planner *pl, space_plan *sp, occ_tree *t)
{
    uint64_t peak = 0;
    tree_clear(t);
    for (uint32_t i = 0; i < sp->n; i++) {
        buffer *b = &pl->bufs[sp->ids[i]];
        if (!b->fixed)
            continue;
        insert_buffer(pl, t, sp->ids[i]);
        if ((int)sp->ids[i] != sp->scratch && b->offset + b->bytes > peak)
            peak = b->offset + b->bytes;
    }
    return peak;
}

/* The buffers of `sp` that placement gives offsets; returns their count. */
static uint32_t placed_ids(const planner *pl, const space_plan *sp, uint32_t *order)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < sp->n; i++)
        if (is_placed(&pl->bufs[sp->ids[i]]))
            order[n++] = sp->ids[i];
    return n;
}

/* ---------------------------------------------------------------- double buffering */

/* The cube's operand buffers (L0A, L0B, L0C) are double-buffered, as
 * pto-isa's GEMM kernels do: a buffer placed over one whose reader has just
 * released it makes its writer (MTE1 into L0A/L0B, M into L0C) wait for that
 * reader (M, FIX) on another pipe, a pair the sync pass must insert and no
 * overlap of the two stages. So, when the space has room, a buffer there
 * keeps off the bytes of a buffer that dies in the PINGPONG_POINTS points
 * (four ops) before it starts, or starts in those after it dies, unless the
 * later op already waits for the earlier one: they share a pipe the arch
 * keeps in order, or the later op reads (through the ops between them) what
 * the earlier one wrote. Webs of one alloc stay as the kernel wrote them. */
#define PINGPONG_POINTS 8
#define CHAIN_NODES 16

typedef struct point_index { uint32_t *first; } point_index;   /* first use at each point, or NO_SET */

static point_index index_points(planner *pl)
{
    point_index ix = {PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->npoints + 1)};
    for (uint32_t p = 0; p <= pl->npoints; p++)
        ix.first[p] = NO_SET;
    for (uint32_t i = pl->nuses; i-- > 0;)
        if (pl->uses[i].point <= pl->npoints)
            ix.first[pl->uses[i].point] = i;
    return ix;
}

static const ptoc_op *op_at(const planner *pl, const point_index *ix, uint32_t point)
{
    return point <= pl->npoints && ix->first[point] != NO_SET ? pl->uses[ix->first[point]].op : NULL;
}

static bool in_set(const uint32_t *set, uint32_t n, uint32_t x)
{
    for (uint32_t i = 0; i < n; i++)
        if (set[i] == x)
            return true;
    return false;
}

/* Whether the op at point `to` reads, through the ops at the points between,
 * something the op at point `from` writes (RAW all the way). */
static bool raw_chain(planner *pl, const point_index *ix, uint32_t from, uint32_t to)
{
    uint32_t set[CHAIN_NODES], n = 0;
    for (uint32_t p = from; p <= to; p++) {
        const ptoc_op *op = op_at(pl, ix, p);
        bool reads = p == from;
        for (uint32_t u = op ? ix->first[p] : NO_SET; u != NO_SET && u < pl->nuses && pl->uses[u].op == op; u++)
            reads |= pl->uses[u].reads && in_set(set, n, memplan_find(pl, pl->uses[u].node));
        if (!reads)
            continue;
        if (p == to && p != from)
            return true;
        for (uint32_t u = op ? ix->first[p] : NO_SET; u != NO_SET && u < pl->nuses && pl->uses[u].op == op; u++)
            if (pl->uses[u].touches && !pl->uses[u].reads && n < CHAIN_NODES)
                set[n++] = memplan_find(pl, pl->uses[u].node);
    }
    return false;
}

/* Whether reusing bytes between the op at `from` (its last use of a buffer)
 * and the op at `to` (the next one's first) costs the later op a wait. */
static bool reuse_waits(planner *pl, const point_index *ix, uint32_t from, uint32_t to)
{
    const ptoc_op *a = op_at(pl, ix, from), *b = op_at(pl, ix, to);
    if (!a || !b || a == b)
        return false;
    ptoc_pto_pipe pa = ptoc_pto_op_pipe(a), pb = ptoc_pto_op_pipe(b);
    if (pa == PTOC_PTO_PIPE_NONE || pb == PTOC_PTO_PIPE_NONE || (pa == pb && ptoc_pto_pipe_in_order(pl->arch, pa)))
        return false;
    return !raw_chain(pl, ix, from, to);
}

static bool double_buffered(uint32_t space)
{
    return space == PTOC_PTO_AS_LEFT || space == PTOC_PTO_AS_RIGHT || space == PTOC_PTO_AS_ACC;
}

/* Adds to q the placed buffers b should keep off to be double-buffered. */
static void add_released(planner *pl, const point_index *ix, occ_tree *t, query *q, const buffer *b)
{
    uint32_t live = q->n;
    if (b->start > 0) {
        span before = {b->start > PINGPONG_POINTS ? b->start - PINGPONG_POINTS : 0, b->start - 1, 0};
        tree_query(t, 1, 0, t->leaves - 1, before, q);
    }
    span after = {b->end + 1, b->end + PINGPONG_POINTS, 0};
    tree_query(t, 1, 0, t->leaves - 1, after, q);
    uint32_t kept = live;
    for (uint32_t i = live; i < q->n; i++) {
        const buffer *o = &pl->bufs[q->out[i]];
        if (o->root != b->root &&       /* webs of one alloc: the kernel chose to reuse it */
            ((o->end < b->start && reuse_waits(pl, ix, o->end, b->start)) ||
             (o->start > b->end && reuse_waits(pl, ix, b->end, o->start))))
            q->out[kept++] = q->out[i];
    }
    q->n = kept;
}

/* The offset for b among the buffers q holds (those live with it): best or
 * first fit; in a double-buffered space away from the released ones too,
 * when that still fits. */
static uint64_t choose_offset(planner *pl, const point_index *ix, space_plan *sp, occ_tree *t, query *q,
                              const buffer *b, bool lowest)
{
    sort_ids(pl->bufs, q->out, q->scratch, q->n, by_offset);
    uint64_t offset = fit(pl->bufs, q->out, q->n, b->size, sp->align, lowest);
    if (!double_buffered(sp->space))
        return offset;
    uint32_t live = q->n;
    add_released(pl, ix, t, q, b);
    if (q->n == live)
        return offset;
    sort_ids(pl->bufs, q->out, q->scratch, q->n, by_offset);
    uint64_t apart = fit(pl->bufs, q->out, q->n, b->size, sp->align, lowest);
    return apart + b->bytes <= sp->capacity ? apart : offset;
}

/* ---------------------------------------------------------------- placing */

/* Places order[0 .. n) in turn; returns the peak. */
static uint64_t place_all(planner *pl, const point_index *ix, space_plan *sp, occ_tree *t, query *q,
                          const uint32_t *order, uint32_t n, bool lowest)
{
    uint64_t peak = insert_pinned(pl, sp, t);
    for (uint32_t i = 0; i < n; i++) {
        buffer *b = &pl->bufs[order[i]];
        q->n = 0;
        q->stamp++;
        for (uint32_t k = 0; k < b->npieces; k++)
            tree_query(t, 1, 0, t->leaves - 1, pl->pieces[b->pieces + k], q);
        drop_exclusive(pl, b, q);
        drop_apart(pl, order[i], q);
        b->offset = choose_offset(pl, ix, sp, t, q, b, lowest);
        if (b->offset + b->bytes > peak)
            peak = b->offset + b->bytes;
        insert_buffer(pl, t, order[i]);
    }
    return peak;
}

#define SMALL_SPACE 256      /* buffers in a space up to which shuffled orders are tried too */
#define SHUFFLES 16

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Order number `o` of a space with n buffers: the fixed orderings with best
 * fit, then (small spaces) with first fit, then shuffles with both fits
 * alternating. Returns false past the last; *lowest: first fit. */
static bool next_order(const planner *pl, uint32_t *order, uint32_t *scratch, uint32_t n, uint32_t o, uint64_t *rng,
                       bool *lowest)
{
    uint32_t fixed = (uint32_t)(sizeof orderings / sizeof orderings[0]);
    bool small = n <= SMALL_SPACE;
    if (o >= (small ? 2 * fixed + SHUFFLES : fixed))
        return false;
    *lowest = o >= fixed && (o < 2 * fixed || o % 2);
    if (o < 2 * fixed) {
        sort_ids(pl->bufs, order, scratch, n, orderings[o % fixed]);
        return true;
    }
    for (uint32_t i = n; i > 1; i--) {   /* Fisher-Yates, deterministic */
        uint32_t j = (uint32_t)(xorshift(rng) % i), x = order[i - 1];
        order[i - 1] = order[j];
        order[j] = x;
    }
    return true;
}

/* Tries the orders and keeps the offsets of the smallest peak. Large spaces
 * get the three orderings with best fit only: first fit and shuffles showed
 * no gain there for the time. */
static void place_space(planner *pl, space_plan *sp)
{
    occ_tree t;
    tree_init(&t, pl->tmp, pl->npoints ? pl->npoints : 1);
    query q = {PTOC_NEW_ARRAY(pl->tmp, uint32_t, sp->n + 1), 0, PTOC_NEW_ARRAY(pl->tmp, uint32_t, sp->n + 1),
               PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nbufs + 1), 0};
    uint32_t *order = PTOC_NEW_ARRAY(pl->tmp, uint32_t, sp->n + 1);
    uint64_t *best = PTOC_NEW_ARRAY(pl->tmp, uint64_t, sp->n + 1);
    uint32_t n = placed_ids(pl, sp, order);
    point_index ix = double_buffered(sp->space) ? index_points(pl) : (point_index){NULL};
    uint64_t rng = 0x9E3779B97F4A7C15u;
    bool lowest;
    sp->peak = UINT64_MAX;
    for (uint32_t o = 0; next_order(pl, order, q.scratch, n, o, &rng, &lowest); o++) {
        uint64_t peak = place_all(pl, &ix, sp, &t, &q, order, n, lowest);
        if (peak >= sp->peak)
            continue;
        sp->peak = peak;
        for (uint32_t i = 0; i < sp->n; i++)
            best[i] = pl->bufs[sp->ids[i]].offset;
    }
    for (uint32_t i = 0; i < sp->n; i++)
        pl->bufs[sp->ids[i]].offset = best[i];
}

/* The lower bound: the most bytes some path holds live at one point. A
 * buffer that is not confined counts wherever it is live. One confined to an
 * arm counts in full inside that arm; after the if, a path holds either the
 * buffers confined to the then arm or those confined to the else arm (the
 * innermost arm of each), so that if adds the smaller of the two sums. Pieces
 * there only through one carrier (span.via) count once per carrier: it holds
 * one of them, and all have its type. A sweep over the points keeps, per if,
 * the two sums and their minimum, and per carrier the number of pieces. */
typedef struct lb_event {
    uint32_t point, arm, via;    /* arm NO_ARM: counts in full; via: see below */
    int64_t bytes;
} lb_event;

static int event_by_point(const void *a, const void *b)
{
    uint32_t x = ((const lb_event *)a)->point, y = ((const lb_event *)b)->point;
    return (x > y) - (x < y);
}

static void add_events(planner *pl, lb_event **ev, uint32_t *n, uint32_t *cap, span p, uint32_t arm,
                       uint64_t size)
{
    if (p.lo > p.hi)
        return;
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, *ev, *n, *cap) = (lb_event){p.lo, arm, p.via, (int64_t)size};
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, *ev, *n, *cap) = (lb_event){p.hi + 1, arm, p.via, -(int64_t)size};
}

/* A piece of a confined buffer: the part inside its innermost arm counts in
 * full, the parts after it count per arm. */
static void confined_events(planner *pl, lb_event **ev, uint32_t *n, uint32_t *cap, const buffer *b, span p)
{
    uint32_t arm = pl->confined_to[b->confined];
    const arm_info *a = &pl->arms[arm];
    span before = {p.lo, p.hi < a->begin ? p.hi : a->begin - 1, p.via};
    span inside = {p.lo > a->begin ? p.lo : a->begin, p.hi < a->end ? p.hi : a->end, p.via};
    span after = {p.lo > a->end ? p.lo : a->end + 1, p.hi, p.via};
    add_events(pl, ev, n, cap, before, arm, b->bytes);
    add_events(pl, ev, n, cap, inside, NO_ARM, b->bytes);
    add_events(pl, ev, n, cap, after, arm, b->bytes);
}

static void lower_bound(planner *pl, space_plan *sp)
{
    lb_event *ev = NULL;
    uint32_t n = 0, cap = 0;
    for (uint32_t i = 0; i < sp->n; i++) {
        const buffer *b = &pl->bufs[sp->ids[i]];
        if ((int)sp->ids[i] == sp->scratch || b->unknown || b->unused || b->merged)
            continue;
        for (uint32_t k = 0; k < b->npieces; k++) {
            if (b->nconfined)
                confined_events(pl, &ev, &n, &cap, b, pl->pieces[b->pieces + k]);
            else
                add_events(pl, &ev, &n, &cap, pl->pieces[b->pieces + k], NO_ARM, b->bytes);
        }
    }
    if (n > 1)
        qsort(ev, n, sizeof *ev, event_by_point);
    int64_t *arm_sum = PTOC_NEW_ARRAY(pl->tmp, int64_t, pl->narms + 2);
    uint32_t *via_pieces = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 2);
    int64_t *via_bytes = PTOC_NEW_ARRAY(pl->tmp, int64_t, pl->nnodes + 2);
    int64_t full = 0, mins = 0;
    sp->lower_bound = 0;
    sp->lb_point = 0;
    for (uint32_t i = 0; i < n; i++) {
        const lb_event *e = &ev[i];
        if (e->via) {                    /* counts while some piece of that carrier is live */
            uint32_t *count = &via_pieces[e->via];
            if (e->bytes > 0 && (*count)++ == 0) {
                via_bytes[e->via] = e->bytes;
                full += e->bytes;
            } else if (e->bytes < 0 && --*count == 0)
                full -= via_bytes[e->via];
        } else if (e->arm == NO_ARM)
            full += e->bytes;
        else {
            int64_t *pair = &arm_sum[e->arm & ~1u];
            int64_t before = pair[0] < pair[1] ? pair[0] : pair[1];
            arm_sum[e->arm] += e->bytes;
            mins += (pair[0] < pair[1] ? pair[0] : pair[1]) - before;
        }
        if ((i + 1 == n || ev[i + 1].point != e->point) && (uint64_t)(full + mins) > sp->lower_bound) {
            sp->lower_bound = (uint64_t)(full + mins);
            sp->lb_point = e->point;
        }
    }
}

static const char *space_name(uint32_t space)
{
    static const char *const names[] = {[PTOC_PTO_AS_MAT] = "MAT", [PTOC_PTO_AS_LEFT] = "LEFT",
                                        [PTOC_PTO_AS_RIGHT] = "RIGHT", [PTOC_PTO_AS_ACC] = "ACC",
                                        [PTOC_PTO_AS_VEC] = "VEC", [PTOC_PTO_AS_BIAS] = "BIAS",
                                        [PTOC_PTO_AS_SCALING] = "SCALING",
                                        [MEMPLAN_SCALE_LEFT] = "SCALE_LEFT", [MEMPLAN_SCALE_RIGHT] = "SCALE_RIGHT"};
    return on_chip(space) || space == MEMPLAN_SCALE_LEFT || space == MEMPLAN_SCALE_RIGHT ? names[space] : "?";
}

/* Only planned buffers can overflow here: a manual address beyond the space is
 * codegen's error, with the address in the message. */
static bool check_capacity(planner *pl, const space_plan *sp)
{
    uint64_t planned_peak = 0;
    for (uint32_t i = 0; i < sp->n; i++) {
        const buffer *b = &pl->bufs[sp->ids[i]];
        if (!is_pinned(b) && b->offset + b->bytes > planned_peak)
            planned_peak = b->offset + b->bytes;
    }
    if (planned_peak <= sp->capacity)
        return true;
    uint64_t needed = sp->lower_bound > sp->capacity ? sp->lower_bound : planned_peak;
    ptoc_diag *d = ptoc_op_diag_error(pl->func, "%s overflow: %llu bytes needed at the peak, %llu available",
                                      space_name(sp->space), (unsigned long long)needed,
                                      (unsigned long long)sp->capacity);
    for (uint32_t i = 0; i < sp->n; i++) {
        const buffer *b = &pl->bufs[sp->ids[i]];
        if ((int)sp->ids[i] != sp->scratch && !b->unknown && !b->merged && live_at(pl, b, sp->lb_point))
            ptoc_diag_op_note(d, b->root, "buffer of %llu bytes live here", (unsigned long long)b->bytes);
    }
    ptoc_diag_report(d);
    return false;
}

/* Its own pieces, adjacent ones joined (their vias are not shown). */
static void print_pieces(const planner *pl, const buffer *b)
{
    const span *p = &pl->pieces[b->own_pieces];
    for (uint32_t k = 0; k < b->own_npieces;) {
        uint32_t lo = p[k].lo, hi = p[k].hi;
        for (k++; k < b->own_npieces && p[k].lo == hi + 1; k++)
            hi = p[k].hi;
        printf(" [%u, %u]", lo, hi);
    }
}

static void print_space(planner *pl, space_plan *sp)
{
    const char *name = space_name(sp->space);
    sort_ids(pl->bufs, sp->ids, PTOC_NEW_ARRAY(pl->tmp, uint32_t, sp->n + 1), sp->n, tie);
    for (uint32_t i = 0; i < sp->n; i++) {
        const buffer *b = &pl->bufs[sp->ids[i]];
        unsigned long long off = b->offset, size = b->size;
        if ((int)sp->ids[i] == sp->scratch)
            printf("  %s reserved offset %llu size %llu\n", name, off, size);
        else if (b->unknown)
            printf("  %s unknown %u:%u size %llu\n", name, b->root->loc.line, b->root->loc.col, size);
        else if (b->reserve)
            printf("  %s reserve_buffer %u:%u offset %llu size %llu\n", name, b->root->loc.line, b->root->loc.col, off,
                   size);
        else if (b->fixed)
            printf("  %s fixed %u:%u offset %llu size %llu\n", name, b->root->loc.line, b->root->loc.col, off, size);
        else if (b->unused)
            printf("  %s unused %u:%u offset %llu size %llu\n", name, b->root->loc.line, b->root->loc.col, off, size);
        else {
            printf("  %s buffer %u:%u live", name, b->root->loc.line, b->root->loc.col);
            print_pieces(pl, b);
            for (uint32_t k = 0; k < b->nconfined; k++)
                printf(" arm %u", pl->confined_to[b->confined + k]);
            if (b->merged) {
                const ptoc_op *g = pl->bufs[group_of(pl, sp->ids[i])].root;
                printf(" in-place %u:%u", g->loc.line, g->loc.col);
            }
            printf(" offset %llu size %llu\n", off, size);
        }
    }
    printf("  %s peak %llu lower-bound %llu capacity %llu\n", name, (unsigned long long)sp->peak,
           (unsigned long long)sp->lower_bound, (unsigned long long)sp->capacity);
}

/* ---------------------------------------------------------------- colouring by size class */

/* Another plan for a space with the path graph and nothing pinned: the
 * buffers of each size, largest first, are coloured (DSatur) so that no two
 * that may be live together on one path (pieces that overlap and pl->exact)
 * share a colour, and each colour is one slot of that size above the slots
 * of the larger sizes. Where the buffers are few sizes and their conflicts
 * are no interval graph, first fit in any order can need a slot more than a
 * colouring does. Two that meet only in place may share a slot (one base). */
typedef struct colouring {
    uint32_t n, *ids, *adj_start, *adj, *colour, *sat;
    bool *used;
} colouring;

static void colour_neighbours(planner *pl, space_plan *sp, colouring *c)
{
    occ_tree t;
    tree_init(&t, pl->tmp, pl->npoints ? pl->npoints : 1);
    tree_clear(&t);
    query q = {PTOC_NEW_ARRAY(pl->tmp, uint32_t, sp->n + 1), 0, PTOC_NEW_ARRAY(pl->tmp, uint32_t, sp->n + 1),
               PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nbufs + 1), 0};
    for (uint32_t i = 0; i < c->n; i++)
        insert_buffer(pl, &t, c->ids[i]);
    uint32_t *index = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nbufs + 1), cap = 0, nadj = 0;
    for (uint32_t i = 0; i < c->n; i++)
        index[c->ids[i]] = i;
    c->adj_start = PTOC_NEW_ARRAY(pl->tmp, uint32_t, c->n + 1);
    c->adj = NULL;
    for (uint32_t i = 0; i < c->n; i++) {
        const buffer *b = &pl->bufs[c->ids[i]];
        const uint64_t *row = &pl->exact[(size_t)c->ids[i] * pl->exact_words];
        q.n = 0;
        q.stamp++;
        for (uint32_t k = 0; k < b->npieces; k++)
            tree_query(&t, 1, 0, t.leaves - 1, pl->pieces[b->pieces + k], &q);
        drop_exclusive(pl, b, &q);
        c->adj_start[i] = nadj;
        for (uint32_t k = 0; k < q.n; k++)
            if (q.out[k] != c->ids[i] && bit_of(row, q.out[k]))
                *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, c->adj, nadj, cap) = index[q.out[k]];
    }
    c->adj_start[c->n] = nadj;
}

/* Colours the buffers of one size (those with colour UINT32_MAX and that
 * size); returns the colours used. */
static uint32_t colour_class(planner *pl, colouring *c, uint64_t size)
{
    uint32_t ncolours = 0;
    for (;;) {
        uint32_t pick = UINT32_MAX;
        for (uint32_t i = 0; i < c->n; i++)
            if (c->colour[i] == UINT32_MAX && pl->bufs[c->ids[i]].size == size &&
                (pick == UINT32_MAX || c->sat[i] > c->sat[pick] ||
                 (c->sat[i] == c->sat[pick] &&
                  c->adj_start[i + 1] - c->adj_start[i] > c->adj_start[pick + 1] - c->adj_start[pick])))
                pick = i;
        if (pick == UINT32_MAX)
            return ncolours;
        memset(c->used, 0, (c->n + 1) * sizeof *c->used);
        for (uint32_t e = c->adj_start[pick]; e < c->adj_start[pick + 1]; e++)
            if (c->colour[c->adj[e]] != UINT32_MAX && pl->bufs[c->ids[c->adj[e]]].size == size)
                c->used[c->colour[c->adj[e]]] = true;
        uint32_t k = 0;
        while (c->used[k])
            k++;
        c->colour[pick] = k;
        ncolours = k + 1 > ncolours ? k + 1 : ncolours;
        for (uint32_t e = c->adj_start[pick]; e < c->adj_start[pick + 1]; e++) {   /* saturation: distinct colours seen */
            uint32_t v = c->adj[e];
            bool seen = false;
            for (uint32_t f = c->adj_start[v]; f < c->adj_start[v + 1]; f++)
                seen |= c->adj[f] != pick && c->colour[c->adj[f]] == k && pl->bufs[c->ids[c->adj[f]]].size == size;
            c->sat[v] += !seen;
        }
    }
}

/* Places the space's unmerged buffers by colouring; returns the peak
 * (UINT64_MAX when the space has pinned buffers, is double-buffered or has
 * more than SMALL_SPACE buffers). */
static uint64_t place_by_colouring(planner *pl, space_plan *sp)
{
    for (uint32_t i = 0; i < sp->n; i++)
        if (is_pinned(&pl->bufs[sp->ids[i]]))
            return UINT64_MAX;
    if (double_buffered(sp->space) || sp->n > SMALL_SPACE)
        return UINT64_MAX;               /* (colouring is quadratic in the buffers) */
    colouring c = {0};
    c.ids = PTOC_NEW_ARRAY(pl->tmp, uint32_t, sp->n + 1);
    c.n = placed_ids(pl, sp, c.ids);
    c.colour = PTOC_NEW_ARRAY(pl->tmp, uint32_t, c.n + 1);
    c.sat = PTOC_NEW_ARRAY(pl->tmp, uint32_t, c.n + 1);
    c.used = PTOC_NEW_ARRAY(pl->tmp, bool, c.n + 1);
    for (uint32_t i = 0; i < c.n; i++)
        c.colour[i] = UINT32_MAX;
    colour_neighbours(pl, sp, &c);
    uint64_t base = 0, peak = 0;
    for (;;) {
        uint64_t size = 0;
        for (uint32_t i = 0; i < c.n; i++)
            if (c.colour[i] == UINT32_MAX && pl->bufs[c.ids[i]].size > size)
                size = pl->bufs[c.ids[i]].size;
        if (!size)
            break;
        for (uint32_t i = 0; i < c.n; i++)
            if (c.colour[i] == UINT32_MAX && pl->bufs[c.ids[i]].size == size)
                c.sat[i] = 0;
        uint32_t ncolours = colour_class(pl, &c, size);
        for (uint32_t i = 0; i < c.n; i++) {
            buffer *b = &pl->bufs[c.ids[i]];
            if (b->size != size)
                continue;
            b->offset = base + (uint64_t)c.colour[i] * size;
            if (b->offset + b->bytes > peak)
                peak = b->offset + b->bytes;
        }
        base += (uint64_t)ncolours * size;
    }
    return peak;
}

/* What in-place pairs a space has: any, and any of two sizes. */
enum { SOFT_ANY = 1, SOFT_SIZES = 2 };

static uint32_t soft_pair_kinds(const planner *pl, const space_plan *sp)
{
    uint32_t kinds = 0, words = pl->exact_words;
    for (uint32_t i = 0; i < sp->n; i++)
        for (uint32_t w = 0; w < words; w++)
            for (uint64_t bits = pl->exact_soft[(size_t)sp->ids[i] * words + w]; bits; bits &= bits - 1) {
                uint32_t b = w * 64 + (uint32_t)__builtin_ctzll(bits);
                kinds |= SOFT_ANY | (pl->bufs[b].size != pl->bufs[sp->ids[i]].size ? SOFT_SIZES : 0);
            }
    return kinds;
}

/* Copies n entries of pl->confined_to (either may be NULL when n is 0). */
static void copy_arms(uint32_t *dst, const uint32_t *src, uint32_t n)
{
    if (n)
        memcpy(dst, src, n * sizeof *dst);
}

/* With the path graph, which pairs a space merges in place changes what fits
 * (a tile that dies into either of two others can join only one): each
 * merge order is placed, and the smallest peak is kept. */
static void place_space_exact(planner *pl, space_plan *sp)
{
    buffer *saved = PTOC_NEW_ARRAY(pl->tmp, buffer, sp->n + 1), *best = PTOC_NEW_ARRAY(pl->tmp, buffer, sp->n + 1);
    uint32_t *confined = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nconfined + 1);
    uint32_t *best_confined = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nconfined + 1);
    copy_arms(confined, pl->confined_to, pl->nconfined);
    for (uint32_t i = 0; i < sp->n; i++)
        saved[i] = pl->bufs[sp->ids[i]];
    uint64_t best_peak = UINT64_MAX;
    memplan_group_rows rows = {PTOC_NEW_ARRAY(pl->tmp, uint64_t, (size_t)pl->nbufs * pl->exact_words),
                       PTOC_NEW_ARRAY(pl->tmp, uint64_t, (size_t)pl->nbufs * pl->exact_words)};
    uint32_t kinds = soft_pair_kinds(pl, sp);
    for (uint32_t order = 0; order < MEMPLAN_MERGE_ORDERS; order++) {
        if ((order == 1 && !(kinds & SOFT_ANY)) || (order == 2 && !(kinds & SOFT_SIZES)))
            continue;                    /* it would merge as order 0 did */
        for (uint32_t i = 0; i < sp->n; i++)
            pl->bufs[sp->ids[i]] = saved[i];
        copy_arms(pl->confined_to, confined, pl->nconfined);
        memplan_merge_space(pl, sp->ids, sp->n, order, &rows);
        place_space(pl, sp);
        if (sp->peak >= best_peak)
            continue;
        best_peak = sp->peak;
        for (uint32_t i = 0; i < sp->n; i++)
            best[i] = pl->bufs[sp->ids[i]];
        copy_arms(best_confined, pl->confined_to, pl->nconfined);
        if (best_peak <= pl->exact_lb[sp->space])
            break;                       /* no plan needs less */
    }
    uint64_t coloured = UINT64_MAX;
    if (best_peak > pl->exact_lb[sp->space]) {   /* and by colouring, unmerged */
        for (uint32_t i = 0; i < sp->n; i++)
            pl->bufs[sp->ids[i]] = saved[i];
        copy_arms(pl->confined_to, confined, pl->nconfined);
        memplan_exact_per_group(pl);
        coloured = place_by_colouring(pl, sp);
    }
    if (coloured < best_peak) {
        best_peak = coloured;
        for (uint32_t i = 0; i < sp->n; i++)
            best[i] = pl->bufs[sp->ids[i]];
        copy_arms(best_confined, pl->confined_to, pl->nconfined);
    }
    for (uint32_t i = 0; i < sp->n; i++)
        pl->bufs[sp->ids[i]] = best[i];
    copy_arms(pl->confined_to, best_confined, pl->nconfined);
    sp->peak = best_peak;
}

/* A planning space's capacity: its address space's, or an MX scale buffer's. */
static uint64_t plan_capacity(const planner *pl, uint32_t space)
{
    if (space == MEMPLAN_SCALE_LEFT || space == MEMPLAN_SCALE_RIGHT)
        return ptoc_pto_arch_info_of(pl->arch)->mx_scale_capacity;
    return ptoc_pto_planned_capacity(pl->ctx, pl->arch, (ptoc_pto_address_space)space);
}

bool memplan_plan_space(planner *pl, uint32_t space, bool print)
{
    uint32_t as = space >= PTOC_PTO_AS_COUNT ? PTOC_PTO_AS_SCALING : space;   /* an MX scale buffer is in scaling */
    space_plan sp = {space, 0, PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nbufs + 1), plan_capacity(pl, space),
                     ptoc_pto_space_alignment(pl->arch, (ptoc_pto_address_space)as), 0, 0, 0, -1};
    for (uint32_t i = 0; i < pl->nbufs; i++) {
        if (pl->bufs[i].space != space)
            continue;
        if (pl->bufs[i].root == pl->func)
            sp.scratch = (int)sp.n;
        sp.ids[sp.n++] = i;
    }
    bool any_planned = false;
    for (uint32_t i = 0; i < sp.n; i++)
        any_planned |= !is_pinned(&pl->bufs[sp.ids[i]]) || pl->bufs[sp.ids[i]].reserve;
    if (!any_planned)
        return true;                   /* nothing to place or report: manual addresses only */
    if (sp.scratch >= 0)
        sp.scratch = (int)sp.ids[sp.scratch];
    if (pl->exact)
        place_space_exact(pl, &sp);
    else
        place_space(pl, &sp);
    for (uint32_t i = 0; i < sp.n; i++)
        if (pl->bufs[sp.ids[i]].merged)
            pl->bufs[sp.ids[i]].offset = pl->bufs[group_of(pl, sp.ids[i])].offset;
    lower_bound(pl, &sp);
    bool pinned = false;
    for (uint32_t i = 0; i < sp.n; i++)
        pinned |= is_pinned(&pl->bufs[sp.ids[i]]);
    if (pl->exact && !pinned && sp.peak < sp.lower_bound)
        sp.lower_bound = pl->exact_lb[space];   /* the pieces' bound counted buffers never live together */
    if (print)
        print_space(pl, &sp);
    return check_capacity(pl, &sp);
}

/* pto.planned_offset on every address-less alloc of a planned set. */