/* plan_memory_live.c: the live pieces of every buffer, for pto-plan-memory.
 *
 * The flows give each union set its holders (the buffers its values may hold)
 * and the value its values always equal; a backward liveness walk over the
 * structured program gives each buffer the program points where it is live
 * (its pieces); a forward walk of reaching writes splits a reused alloc_tile
 * into webs; confinement marks buffers whose contents exist only on paths
 * through one arm of an scf.if. plan_memory.c documents the rules; the
 * comments here say how.
 */
#include "passes/plan_memory.h"

/* Items grouped by union-find set: set x owns items[start[x] .. start[x + 1]). */
typedef struct grouping { uint32_t *start, *items; } grouping;

static grouping group_by_set(planner *pl, uint32_t n, const uint32_t *set_of_item)
{
    grouping g = {PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 2), PTOC_NEW_ARRAY(pl->tmp, uint32_t, n + 1)};
    for (uint32_t i = 0; i < n; i++)
        g.start[set_of_item[i] + 2]++;
    for (uint32_t x = 0; x < pl->nnodes; x++)
        g.start[x + 2] += g.start[x + 1];
    for (uint32_t i = 0; i < n; i++)
        g.items[g.start[set_of_item[i] + 1]++] = i;
    return g;
}

typedef struct reach {
    grouping uses, flows;        /* uses and outgoing flows of each set */
    uint32_t *queue, *seen, stamp;
} reach;

/* The sets whose values may hold buffer `b` at run time: its own, and every set
 * reachable from it by flows. Returns their count (in r->queue). */
static uint32_t reachable_sets(planner *pl, reach *r, uint32_t root)
{
    uint32_t n = 0;
    r->stamp++;
    r->queue[n++] = root;
    r->seen[root] = r->stamp;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t x = r->queue[k];
        for (uint32_t e = r->flows.start[x]; e < r->flows.start[x + 1]; e++) {
            uint32_t y = memplan_find(pl, pl->flows[r->flows.items[e]].to);
            if (r->seen[y] != r->stamp) {
                r->seen[y] = r->stamp;
                r->queue[n++] = y;
            }
        }
    }
    return n;
}

/* Per set, the buffers its values may hold at run time (pl->holders), found
 * from the sources: the sets that hold an alloc and those no flow enters (a
 * function argument, an unknown op's result, standing for no buffer we know:
 * NO_SET). More than MAX_HOLDERS, or an unknown one, and the set counts as
 * holding too many to name. */
static void find_holders(planner *pl, reach *r, const bool *source, const uint32_t *buf_of)
{
    pl->holders = PTOC_NEW_ARRAY(pl->tmp, uint32_t, (size_t)pl->nnodes * MAX_HOLDERS + 1);
    pl->nholders = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 1);
    for (uint32_t x = 0; x < pl->nnodes; x++) {
        if (memplan_find(pl, x) != x || !source[x])
            continue;
        uint32_t n = reachable_sets(pl, r, x), b = buf_of[x];
        for (uint32_t k = 0; k < n; k++) {
            uint32_t y = r->queue[k], *count = &pl->nholders[y], *list = &pl->holders[(size_t)y * MAX_HOLDERS];
            bool known = false;
            for (uint32_t i = 0; i < *count && i < MAX_HOLDERS; i++)
                known |= list[i] == b;
            if (known || *count > MAX_HOLDERS)
                continue;
            if (b == NO_SET || *count == MAX_HOLDERS)
                *count = MAX_HOLDERS + 1;
            else
                list[(*count)++] = b;
        }
    }
}

/* Per set, the set whose value its values always equal (itself when none):
 * carriers that hold one value hold one buffer, so a buffer live only through
 * them is live through that one carrier (span.via). A set that holds an alloc
 * or that no flow enters is its own; another one equals the value all its
 * inflows equal, inflows that equal itself left out (an iter_arg its body
 * yields back, a loop result through the loop's yield). Iterated to the
 * fixpoint, from every set equal to itself; past MAX_SAME_ROUNDS rounds every
 * set stays its own. */
#define MAX_SAME_ROUNDS 64

static uint32_t same_value_of(const planner *pl, const grouping *in, const uint32_t *same, uint32_t x)
{
    uint32_t value = NO_SET;
    for (uint32_t e = in->start[x]; e < in->start[x + 1]; e++) {
        uint32_t v = same[memplan_find((planner *)pl, pl->flows[in->items[e]].from)];
        if (v == x)
            continue;
        if (value != NO_SET && v != value)
            return x;
        value = v;
    }
    return value == NO_SET ? x : value;
}

static uint32_t *same_values(planner *pl, const bool *source)
{
    uint32_t *key = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nflows + 1);
    uint32_t *same = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 1);
    for (uint32_t i = 0; i < pl->nflows; i++)
        key[i] = memplan_find(pl, pl->flows[i].to);
    grouping in = group_by_set(pl, pl->nflows, key);
    for (uint32_t x = 0; x < pl->nnodes; x++)
        same[x] = memplan_find(pl, x);
    for (uint32_t round = 0;; round++) {
        bool changed = false;
        for (uint32_t x = 0; x < pl->nnodes; x++) {
            if (memplan_find(pl, x) != x)
                continue;                /* not a set's root: takes its root's below */
            uint32_t v = source[x] ? x : same_value_of(pl, &in, same, x);
            changed |= v != same[x];
            same[x] = v;
        }
        if (!changed)
            break;
        if (round == MAX_SAME_ROUNDS) {
            for (uint32_t x = 0; x < pl->nnodes; x++)
                same[x] = x;
            break;
        }
    }
    for (uint32_t x = 0; x < pl->nnodes; x++)
        same[x] = same[memplan_find(pl, x)];
    return same;
}

/* Where a buffer's allocs are: points [lo, hi], the first alloc's arm. */
typedef struct alloc_site { uint32_t set, lo, hi, arm; } alloc_site;

#define FOR_USES(pl, r, n, u)                                                       \
    for (uint32_t k_ = 0; k_ < (n); k_++)                                            \
        for (uint32_t i_ = (r)->uses.start[(r)->queue[k_]]; i_ < (r)->uses.start[(r)->queue[k_] + 1]; i_++) \
            for (const use_rec *u = &(pl)->uses[(r)->uses.items[i_]]; u; u = NULL)

/* ---------------------------------------------------------------- liveness */

/* A buffer's pieces come from a backward liveness walk over the structured
 * program. The values that may hold the buffer X fall into its carrier sets
 * (its own union set and those its flows reach); the walk's state is the set
 * of carriers through which X's contents are still needed (a bit mask). An op
 * that reads a carrier needs it; a DPS out that writes a carrier whole
 * (use_kills) ends the need before it, through it and the carriers equal to
 * it, or every need when it can hold only X (assign_bits). X is live where
 * some carrier is needed,
 * and at every op that touches a carrier (a write must not clobber anything).
 * Region ops translate the needs through their values, so a branch that
 * yields another buffer does not keep X alive:
 *  - scf.if: an arm ends needing what is needed after the if, with each
 *    result replaced by the arm's yield operand; an absent arm passes the
 *    needs through;
 *  - scf.for: the body ends needing what the loop exit needs (results
 *    replaced by yields) and what the next iteration's start needs (iter_args
 *    replaced by yields), to the fixpoint; the loop needs the body's start
 *    (iter_args replaced by inits) and, unless constant bounds give it a
 *    trip, what its exit needs (results replaced by inits);
 *  - scf.while: the before region ends in the exit or the after region, the
 *    after region ends in the before region (condition and yield operands
 *    replace results and block arguments), to the fixpoint;
 *  - scf.execute_region and other one-region ops: the region once (an op that
 *    may skip it also passes the needs through); an op with more regions
 *    holds X over all of itself.
 * Only the ops that touch a carrier and the region ops around them are
 * visited; dry walks (no pieces) of a scope are memoised per need, so nested
 * loops cost about linear time. With more than 64 carriers, bits are shared
 * and a shared bit is never ended by a write (conservative). */
typedef uint64_t needs;

typedef struct walk_memo { uint32_t stamp; needs out, in; } walk_memo;

typedef struct live_walk {
    planner *pl;
    reach *r;                    /* r->seen marks X's carrier sets (r->stamp) */
    uint32_t *bit_of;            /* carrier set -> bit index */
    needs shared;                /* bits that stand for several sets */
    needs all;                   /* every carrier's bit */
    const uint32_t *buf_of;      /* set -> buffer (make_buffers) */
    uint32_t set_of_bit[64];     /* the carrier set of each unshared bit */
    needs ends[64];              /* per bit: the needs a whole write through its carrier ends */
    uint32_t own_set;            /* X's own set: it always holds X */
    const use_rec **u;           /* the touching uses of X's carriers, by point */
    uint32_t n;
    bool emit;                   /* false: a dry walk, only the answer */
    span *out;                   /* emitted spans (unsorted, may overlap) */
    uint32_t nout, out_cap;
    walk_memo *memo;             /* two per scope */
    uint32_t stamp;
} live_walk;

/* The via of points where X is live or touched through the carriers `bits`:
 * the one value they all equal (same_values), when it is not X's own set
 * (which always holds X), else 0. */
static uint32_t via_of(const live_walk *w, needs bits)
{
    if (!bits || (bits & w->shared))
        return 0;
    uint32_t via = NO_SET;
    for (uint32_t bit = 0; bit < 64; bit++)
        if ((bits >> bit) & 1) {
            uint32_t c = w->pl->same_as[w->set_of_bit[bit]];
            if (via != NO_SET && c != via)
                return 0;
            via = c;
        }
    return via == w->own_set ? 0 : via + 1;
}

static void live_span(live_walk *w, uint32_t lo, uint32_t hi, needs bits)
{
    if (w->emit && lo <= hi)
        *PTOC_VARR_PUSH_FIELDS(NULL, w->pl->tmp, w->out, w->nout, w->out_cap) = (span){lo, hi, via_of(w, bits)};
}

/* The bit of the carrier a value belongs to, 0 when it carries no part of X. */
static needs bit_of_value(live_walk *w, const ptoc_value *v)
{
    uint32_t space;
    if (!v || !memplan_buffer_space(v->type, &space))
        return 0;
    uint32_t id;
    if (!map_find(&w->pl->node_of, v, &id))
        return 0;
    uint32_t set = memplan_find(w->pl, id);
    return w->r->seen[set] == w->r->stamp ? (needs)1 << w->bit_of[set] : 0;
}

/* Bits that a write may end: owned by one carrier. */
static needs endable(const live_walk *w, needs bits) { return bits & ~w->shared; }

/* The needs `live` after values to[i] become needs of the values from[i]:
 * to[i]'s bit is replaced by from[i]'s. from(op, k) and to(op, k) give the k-th
 * pair, NULL past the end. */
typedef const ptoc_value *(*value_at)(const ptoc_op *op, uint32_t k);

static needs translate(live_walk *w, needs live, const ptoc_op *op, value_at to, value_at from)
{
    needs kept = live, added = 0;
    for (uint32_t k = 0;; k++) {
        const ptoc_value *t = to(op, k), *f = from(op, k);
        if (!t)
            break;
        needs tb = bit_of_value(w, t);
        if (tb & live)
            added |= bit_of_value(w, f);
        kept &= ~endable(w, tb);
    }
    return kept | added;
}

static const ptoc_value *region_arg(const ptoc_op *op, uint32_t region, uint32_t k)
{
    ptoc_block *b = region < op->nregions ? op->regions[region].first : NULL;
    return b && k < b->nargs ? b->args[k] : NULL;
}

static const ptoc_value *region_yield(const ptoc_op *op, uint32_t region, uint32_t from, uint32_t k)
{
    ptoc_block *b = region < op->nregions ? op->regions[region].first : NULL;
    ptoc_op *t = b ? ptoc_block_terminator(b) : NULL;
    return t && from + k < t->noperands ? ptoc_op_operand(t, from + k) : NULL;
}

static const ptoc_value *op_result(const ptoc_op *op, uint32_t k) { return k < op->nresults ? &op->results[k] : NULL; }
static const ptoc_value *then_yield(const ptoc_op *op, uint32_t k) { return region_yield(op, 0, 0, k); }
static const ptoc_value *else_yield(const ptoc_op *op, uint32_t k) { return region_yield(op, 1, 0, k); }
static const ptoc_value *for_iter_arg(const ptoc_op *op, uint32_t k) { return region_arg(op, 0, 1 + k); }
static const ptoc_value *for_init(const ptoc_op *op, uint32_t k)
{
    return 3 + k < op->noperands ? ptoc_op_operand(op, 3 + k) : NULL;
}
static const ptoc_value *while_before_arg(const ptoc_op *op, uint32_t k) { return region_arg(op, 0, k); }
static const ptoc_value *while_after_arg(const ptoc_op *op, uint32_t k) { return region_arg(op, 1, k); }
static const ptoc_value *while_init(const ptoc_op *op, uint32_t k)
{
    return k < op->noperands ? ptoc_op_operand(op, k) : NULL;
}
static const ptoc_value *while_condition_arg(const ptoc_op *op, uint32_t k) { return region_yield(op, 0, 1, k); }
static const ptoc_value *while_after_yield(const ptoc_op *op, uint32_t k) { return region_yield(op, 1, 0, k); }

/* The child of scope `parent` that contains scope `s`. */
static uint32_t child_scope(const planner *pl, uint32_t s, uint32_t parent)
{
    while (pl->scopes[s].parent != parent)
        s = pl->scopes[s].parent;
    return s;
}

static needs walk_scope(live_walk *w, uint32_t c, uint32_t lo, uint32_t hi, needs live_out);

/* Backward over the uses u[lo, hi), which lie in region `reg` of scope `s`;
 * `live` holds after the region. Returns what holds at its entry. */
static needs walk_seq(live_walk *w, uint32_t s, uint32_t lo, uint32_t hi, span reg, needs live)
{
    uint32_t after = reg.hi, i = hi;     /* the last point `live` holds at */
    while (i > lo) {
        const use_rec *u = w->u[i - 1];
        uint32_t j = i - 1;
        if (u->scope == s) {             /* one op: all its uses share the point */
            needs reads = 0, kills = 0, touches = 0;
            while (j > lo && w->u[j - 1]->point == u->point)
                j--;
            for (uint32_t k = j; k < i; k++) {
                uint32_t index = w->bit_of[memplan_find(w->pl, w->u[k]->node)];
                needs bit = (needs)1 << index;
                reads |= w->u[k]->reads ? bit : 0;
                kills |= w->u[k]->kills ? w->ends[index] : 0;
                touches |= w->u[k]->touches ? bit : 0;
            }
            i = j;
            if (!touches)
                continue;                /* a yield: the scope translates what it hands on */
            if (live)
                live_span(w, u->point + 1, after, live);
            live_span(w, u->point, u->point, touches | (live & ~kills) | reads);
            live = reads | (live & ~kills);
            after = u->point - 1;
            continue;
        } else {                         /* the uses inside one region op */
            uint32_t c = child_scope(w->pl, u->scope, s);
            const scope_info *sc = &w->pl->scopes[c];
            while (j > lo && w->u[j - 1]->point >= sc->begin)
                j--;
            if (live)
                live_span(w, sc->end, after, live);
            live = walk_scope(w, c, j, i, live);
            after = sc->begin - 1;
        }
        i = j;
    }
    if (live)
        live_span(w, reg.lo, after, live);
    return live;
}

/* The first of the uses u[lo, hi) (sorted by point) after point `p`. */
static uint32_t first_after(const use_rec *const *u, uint32_t lo, uint32_t hi, uint32_t p)
{
    while (lo < hi && u[lo]->point <= p)
        lo++;
    return lo;
}

static needs walk_if(live_walk *w, uint32_t c, uint32_t lo, uint32_t hi, needs live)
{
    const scope_info *sc = &w->pl->scopes[c];
    uint32_t mid = first_after(w->u, lo, hi, sc->region[0].hi);
    needs in = walk_seq(w, c, lo, mid, sc->region[0], translate(w, live, sc->op, op_result, then_yield));
    if (sc->nregions < 2)
        return in | live;                /* no else: the needs pass by */
    return in | walk_seq(w, c, mid, hi, sc->region[1], translate(w, live, sc->op, op_result, else_yield));
}

/* scf.for: what the body needs at its end, given what it needs at its start. */
static needs for_body_out(live_walk *w, const ptoc_op *op, needs after, needs start)
{
    return translate(w, after, op, op_result, then_yield) | translate(w, start, op, for_iter_arg, then_yield);
}

static needs walk_for(live_walk *w, uint32_t c, uint32_t lo, uint32_t hi, needs live)
{
    const scope_info *sc = &w->pl->scopes[c];
    bool emit = w->emit;
    needs start = 0, prev;
    w->emit = false;
    do {                                 /* monotone in the bits: at most 65 rounds */
        prev = start;
        start = walk_seq(w, c, lo, hi, sc->region[0], for_body_out(w, sc->op, live, start));
    } while (start != prev);
    w->emit = emit;
    walk_seq(w, c, lo, hi, sc->region[0], for_body_out(w, sc->op, live, start));
    needs zero_trips = sc->runs ? 0 : translate(w, live, sc->op, op_result, for_init);
    return translate(w, start, sc->op, for_iter_arg, for_init) | zero_trips;
}

static needs walk_while(live_walk *w, uint32_t c, uint32_t lo, uint32_t hi, needs live)
{
    const scope_info *sc = &w->pl->scopes[c];
    const ptoc_op *op = sc->op;
    uint32_t mid = first_after(w->u, lo, hi, sc->region[0].hi);
    bool emit = w->emit;
    needs before = 0, after = 0, prev_before, prev_after;
    w->emit = false;
    do {
        prev_before = before;
        prev_after = after;
        before = walk_seq(w, c, lo, mid, sc->region[0],
                          translate(w, live, op, op_result, while_condition_arg) |
                              translate(w, after, op, while_after_arg, while_condition_arg));
        after = walk_seq(w, c, mid, hi, sc->region[1], translate(w, before, op, while_before_arg, while_after_yield));
    } while (before != prev_before || after != prev_after);
    w->emit = emit;
    walk_seq(w, c, mid, hi, sc->region[1], translate(w, before, op, while_before_arg, while_after_yield));
    walk_seq(w, c, lo, mid, sc->region[0],
             translate(w, live, op, op_result, while_condition_arg) |
                 translate(w, after, op, while_after_arg, while_condition_arg));
    return translate(w, before, op, while_before_arg, while_init);
}

static needs walk_scope_body(live_walk *w, uint32_t c, uint32_t lo, uint32_t hi, needs live)
{
    const scope_info *sc = &w->pl->scopes[c];
    if (sc->kind == OP_FOR && sc->nregions == 1)
        return walk_for(w, c, lo, hi, live);
    if (sc->kind == OP_WHILE && sc->nregions == 2)
        return walk_while(w, c, lo, hi, live);
    if (sc->kind == OP_EXECUTE && sc->nregions == 1)
        return walk_seq(w, c, lo, hi, sc->region[0], translate(w, live, sc->op, op_result, then_yield));
    if (sc->kind == OP_IF || (sc->kind == OP_OTHER && sc->nregions == 1))
        return walk_if(w, c, lo, hi, live);
    live_span(w, sc->begin, sc->end, w->all);   /* unknown: held over the whole op */
    return w->all;
}

static needs walk_scope(live_walk *w, uint32_t c, uint32_t lo, uint32_t hi, needs live)
{
    const scope_info *sc = &w->pl->scopes[c];
    walk_memo *m = &w->memo[2 * c];
    needs in;
    if (!w->emit)
        for (int k = 0; k < 2; k++)
            if (m[k].stamp == w->stamp && m[k].out == live)
                return m[k].in;
    in = walk_scope_body(w, c, lo, hi, live);
    if (!w->emit) {
        m[1] = m[0];
        m[0] = (walk_memo){w->stamp, live, in};
    }
    if (in)
        live_span(w, sc->begin, sc->begin + 1, in);
    if (live)
        live_span(w, sc->end, sc->end + 1, live);
    return in;
}

static int use_by_point(const void *a, const void *b)
{
    const use_rec *x = *(const use_rec *const *)a, *y = *(const use_rec *const *)b;
    return x->point != y->point ? (x->point > y->point) - (x->point < y->point) : (x > y) - (x < y);
}

/* A span's start or end (exclusive) in the sweep of memplan_add_pieces. */
typedef struct piece_edge { uint32_t point, via; int32_t delta; } piece_edge;

static int edge_by_point(const void *a, const void *b)
{
    uint32_t x = ((const piece_edge *)a)->point, y = ((const piece_edge *)b)->point;
    return (x > y) - (x < y);
}

/* How many active spans have each via (a buffer has few). */
typedef struct via_count { uint32_t via, count; } via_count;

/* The via of points the active spans cover: the one nonzero via all of them
 * share, else 0. */
static uint32_t common_via(const via_count *vc, uint32_t n)
{
    uint32_t via = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (!vc[i].count)
            continue;
        if (vc[i].via == 0 || (via != UINT32_MAX && via != vc[i].via))
            return 0;
        via = vc[i].via;
    }
    return via == UINT32_MAX ? 0 : via;
}

static void count_via(planner *pl, via_count **vc, uint32_t *n, uint32_t *cap, uint32_t via, int32_t delta)
{
    for (uint32_t i = 0; i < *n; i++)
        if ((*vc)[i].via == via) {
            (*vc)[i].count = (uint32_t)((int32_t)(*vc)[i].count + delta);
            return;
        }
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, *vc, *n, *cap) = (via_count){via, (uint32_t)delta};
}

static void push_piece(planner *pl, uint32_t *count, span p)
{
    span *last = *count ? &pl->pieces[pl->npieces - 1] : NULL;
    if (last && last->hi + 1 == p.lo && last->via == p.via)
        last->hi = p.hi;
    else {
        *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->pieces, pl->npieces, pl->pieces_cap) = p;
        (*count)++;
    }
}

uint32_t memplan_add_pieces(planner *pl, span *spans, uint32_t n)
{
    piece_edge *edges = PTOC_NEW_ARRAY(pl->tmp, piece_edge, 2 * n + 1);
    for (uint32_t i = 0; i < n; i++) {
        edges[2 * i] = (piece_edge){spans[i].lo, spans[i].via, 1};
        edges[2 * i + 1] = (piece_edge){spans[i].hi + 1, spans[i].via, -1};
    }
    if (n)
        qsort(edges, 2 * n, sizeof *edges, edge_by_point);
    via_count *vc = NULL;
    uint32_t nvc = 0, vc_cap = 0, count = 0, active = 0;
    for (uint32_t i = 0; i < 2 * n;) {
        uint32_t point = edges[i].point;
        for (; i < 2 * n && edges[i].point == point; i++) {
            count_via(pl, &vc, &nvc, &vc_cap, edges[i].via, edges[i].delta);
            active = (uint32_t)((int32_t)active + edges[i].delta);
        }
        if (active && i < 2 * n)         /* [point, next edge) is covered */
            push_piece(pl, &count, (span){point, edges[i].point - 1, common_via(vc, nvc)});
    }
    return count;
}

/* w->out as the pieces of `b`. */
static void set_pieces(planner *pl, live_walk *w, buffer *b)
{
    b->pieces = pl->npieces;
    b->npieces = memplan_add_pieces(pl, w->out, w->nout);
    b->own_pieces = b->pieces;
    b->own_npieces = b->npieces;
    b->start = b->npieces ? pl->pieces[b->pieces].lo : b->root_point;
    b->end = b->npieces ? pl->pieces[b->pieces + b->npieces - 1].hi : b->root_point;
}

/* The bits of X's n carrier sets r->queue[0 .. n): which set each stands for,
 * which are shared, and what a whole write through each ends. */
static void assign_bits(live_walk *w, const reach *r, uint32_t n)
{
    needs used = 0, mixed = 0;           /* mixed: bits of a set that may hold another buffer */
    w->shared = 0;
    for (uint32_t k = 0; k < n; k++) {
        needs bit = (needs)1 << (k % 64);
        w->bit_of[r->queue[k]] = k % 64;
        w->set_of_bit[k % 64] = r->queue[k];
        w->shared |= used & bit;
        used |= bit;
        uint32_t nh;
        const uint32_t *held = set_holders(w->pl, r->queue[k], &nh);
        mixed |= nh != 1 || held[0] != w->buf_of[r->queue[0]] ? bit : 0;
    }
    w->own_set = r->queue[0];
    w->all = used;
    for (uint32_t i = 0; i < 64 && i < n; i++) {
        needs bit = (needs)1 << i;
        w->ends[i] = 0;
        if (!(mixed & bit))
            w->ends[i] = used;           /* it can hold only X: X is rewritten */
        else if (!(w->shared & bit))     /* the carriers that equal it: they hold what it holds */
            for (uint32_t j = 0; j < 64 && j < n; j++)
                if (!(w->shared & ((needs)1 << j)) &&
                    w->pl->same_as[w->set_of_bit[j]] == w->pl->same_as[w->set_of_bit[i]])
                    w->ends[i] |= (needs)1 << j;
    }
}

/* The pieces of buffer `b` (index id), whose carrier sets are r->queue[0 .. n). */
static void walk_buffer(planner *pl, reach *r, live_walk *w, uint32_t id, uint32_t n)
{
    buffer *b = &pl->bufs[id];
    assign_bits(w, r, n);
    w->n = 0;
    FOR_USES(pl, r, n, u)
        if (!b->split || u->web == id)   /* yields and region operands too: they lead the walk into scopes */
            w->u[w->n++] = u;
    if (n > 1)                           /* several sets: merge their uses by point */
        qsort(w->u, w->n, sizeof *w->u, use_by_point);
    w->nout = 0;
    w->stamp++;
    w->emit = true;
    span body = {0, pl->npoints ? pl->npoints - 1 : 0};
    walk_seq(w, NO_SCOPE, 0, w->n, body, 0);
    set_pieces(pl, w, b);
}

/* ---------------------------------------------------------------- arms */

/* Whether a touching use of one of the n carriers in r->queue lies in arm a. */
static bool touched_in_arm(planner *pl, reach *r, uint32_t n, const arm_info *a)
{
    FOR_USES(pl, r, n, u)
        if (u->touches && u->point >= a->begin && u->point <= a->end)
            return true;
    return false;
}

/* The scope of the op at `point` that has regions (scopes are numbered in
 * program order). */
static uint32_t scope_at(const planner *pl, uint32_t point)
{
    uint32_t lo = 0, hi = pl->nscopes;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (pl->scopes[mid].begin < point)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether a carrier of the buffer (r->seen) is a block argument of an op
 * around scope s that may run s again (a loop, or an op we do not model):
 * the buffer may then reach a later run of s from an earlier one. */
static bool carried_around(planner *pl, const reach *r, uint32_t s)
{
    for (uint32_t p = pl->scopes[s].parent; p != NO_SCOPE; p = pl->scopes[p].parent) {
        const ptoc_op *op = pl->scopes[p].op;
        if (pl->scopes[p].kind == OP_IF || pl->scopes[p].kind == OP_EXECUTE)
            continue;
        for (uint32_t g = 0; g < op->nregions; g++)
            for (uint32_t k = 0; region_arg(op, g, k); k++) {
                uint32_t id;
                if (map_find(&pl->node_of, region_arg(op, g, k), &id) && r->seen[memplan_find(pl, id)] == r->stamp)
                    return true;
            }
    }
    return false;
}

/* The arms of scf.ifs the buffer is confined to: all its allocs lie in the arm,
 * it is dead where the if starts, no carrier of it is touched in the other
 * arm, and none is a loop's block argument around the if. A path through the
 * other arm then never gives it contents (its allocs do not run, by dominance
 * only the if's results can carry it out, and no earlier run of the if hands
 * it to a later one), so it may share bytes with a buffer confined to that
 * other arm, even after the if where both seem live (each path holds one of
 * them). Innermost first. */
static void confine(planner *pl, reach *r, uint32_t n, buffer *b, const alloc_site *site)
{
    b->confined = pl->nconfined;
    for (uint32_t a = site->arm; a != NO_ARM; a = pl->arms[a].parent) {
        const arm_info *own = &pl->arms[a], *other = &pl->arms[a ^ 1];
        uint32_t if_point = own->if_point;
        if (site->lo < own->begin || site->hi > own->end || live_at(pl, b, if_point) ||
            touched_in_arm(pl, r, n, other) || carried_around(pl, r, scope_at(pl, if_point)))
            continue;
        *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->confined_to, pl->nconfined, pl->confined_cap) = a;
        b->nconfined++;
    }
}

/* ---------------------------------------------------------------- webs */

/* A Level-2 kernel may reuse one alloc_tile for unrelated contents (load, use,
 * load again, use). Each web (a set of writes and the reads they reach) may
 * then have its own address. A buffer is split when its alloc_tile has no
 * address, its result is the only value that stands for it (no views, no
 * flows through scf values) and no unknown region op uses it: each web
 * becomes a buffer of its own, and annotate gives every web but the first a
 * copy of the alloc_tile and moves the web's uses to it.
 * Webs come from a forward walk of the reaching writes: a write that kills
 * (use_kills) starts a web, named by its use; a read joins the webs that
 * reach it (union-find over the uses); an op that reads and writes without
 * killing extends the web it reads. scf.if joins its arms' reaching sets;
 * loops and scf.while are walked until the set reaching their start stops
 * growing. A reaching set of more than WEB_REACH webs is joined into one
 * (fewer, larger webs: always safe). */
#define WEB_REACH 8

typedef struct reaching { uint32_t n, web[WEB_REACH]; } reaching;

typedef struct web_walk {
    const use_rec **u;           /* the buffer's uses, by point */
    uint32_t n;
    uint32_t *parent;            /* union-find over indices into u */
    uint32_t *tag;               /* per use: the web (an index into u) it belongs to */
    const planner *pl;
    bool unknown_region;         /* a use inside an op with regions we do not model */
} web_walk;

static uint32_t web_find(web_walk *ww, uint32_t x)
{
    while (ww->parent[x] != x) {
        ww->parent[x] = ww->parent[ww->parent[x]];
        x = ww->parent[x];
    }
    return x;
}

static void web_unite(web_walk *ww, uint32_t a, uint32_t b)
{
    a = web_find(ww, a);
    b = web_find(ww, b);
    if (a != b)
        ww->parent[a > b ? a : b] = a < b ? a : b;
}

static void reach_add(web_walk *ww, reaching *r, uint32_t web)
{
    web = web_find(ww, web);
    for (uint32_t k = 0; k < r->n; k++)
        if (web_find(ww, r->web[k]) == web)
            return;
    if (r->n == WEB_REACH) {             /* too many: join them all */
        for (uint32_t k = 1; k < r->n; k++)
            web_unite(ww, r->web[0], r->web[k]);
        web_unite(ww, r->web[0], web);
        r->n = 1;
        return;
    }
    r->web[r->n++] = web;
}

static reaching reach_join(web_walk *ww, reaching a, const reaching *b)
{
    for (uint32_t k = 0; k < b->n; k++)
        reach_add(ww, &a, b->web[k]);
    return a;
}

/* Whether a grew past b (as sets of webs). */
static bool reach_grew(web_walk *ww, const reaching *a, const reaching *b)
{
    reaching joined = reach_join(ww, *b, a);
    return joined.n != b->n;
}

/* The one web the reaching webs become when read; `fresh` when none reach. */
static uint32_t reach_read(web_walk *ww, reaching *r, uint32_t fresh)
{
    for (uint32_t k = 1; k < r->n; k++)
        web_unite(ww, r->web[0], r->web[k]);
    uint32_t web = r->n ? web_find(ww, r->web[0]) : fresh;
    r->n = 1;
    r->web[0] = web;
    return web;
}

static reaching web_scope(web_walk *ww, uint32_t c, uint32_t lo, uint32_t hi, reaching in);

/* Forward over the uses u[lo, hi) of region-level scope `s`. */
static reaching web_seq(web_walk *ww, uint32_t s, uint32_t lo, uint32_t hi, reaching r)
{
    uint32_t i = lo;
    while (i < hi) {
        const use_rec *u = ww->u[i];
        uint32_t j = i;
        if (u->scope != s) {             /* the uses inside one region op */
            uint32_t c = child_scope(ww->pl, u->scope, s);
            while (j < hi && ww->u[j]->point < ww->pl->scopes[c].end)
                j++;
            r = web_scope(ww, c, i, j, r);
            i = j;
            continue;
        }
        bool reads = false, kills = false;
        uint32_t first_write = NO_SET;
        for (; j < hi && ww->u[j]->point == u->point; j++) {
            reads |= ww->u[j]->reads;
            kills |= ww->u[j]->kills;
            if (!ww->u[j]->reads && first_write == NO_SET)
                first_write = j;
        }
        uint32_t read_web = reads ? reach_read(ww, &r, i) : NO_SET;
        uint32_t write_web = kills ? first_write : read_web != NO_SET ? read_web : reach_read(ww, &r, i);
        for (uint32_t k = i; k < j; k++)
            ww->tag[k] = ww->u[k]->reads ? read_web : write_web;
        if (first_write != NO_SET)
            r = (reaching){1, {write_web}};
        i = j;
    }
    return r;
}

/* A loop body entered with `in` and, after an iteration, with what reaches its
 * end; returns what reaches its end at the fixpoint. */
static reaching web_loop_body(web_walk *ww, uint32_t c, uint32_t lo, uint32_t hi, reaching in)
{
    reaching start = in, end;
    for (;;) {
        end = web_seq(ww, c, lo, hi, start);
        reaching next = reach_join(ww, in, &end);
        if (!reach_grew(ww, &next, &start))
            return end;
        start = next;
    }
}

static reaching web_scope(web_walk *ww, uint32_t c, uint32_t lo, uint32_t hi, reaching in)
{
    const scope_info *sc = &ww->pl->scopes[c];
    if (sc->kind == OP_FOR && sc->nregions == 1) {
        reaching end = web_loop_body(ww, c, lo, hi, in);
        return sc->runs ? end : reach_join(ww, in, &end);
    }
    if (sc->kind == OP_WHILE && sc->nregions == 2) {
        uint32_t mid = first_after(ww->u, lo, hi, sc->region[0].hi);
        reaching start = in, before;
        for (;;) {                       /* before, then after and back, or out */
            before = web_seq(ww, c, lo, mid, start);
            reaching after = web_seq(ww, c, mid, hi, before);
            reaching next = reach_join(ww, in, &after);
            if (!reach_grew(ww, &next, &start))
                return before;
            start = next;
        }
    }
    if (sc->kind == OP_EXECUTE && sc->nregions == 1)
        return web_seq(ww, c, lo, hi, in);
    if (sc->kind == OP_IF || (sc->kind == OP_OTHER && sc->nregions == 1)) {
        uint32_t mid = first_after(ww->u, lo, hi, sc->region[0].hi);
        reaching out = web_seq(ww, c, lo, mid, in);
        reaching other = sc->nregions == 2 ? web_seq(ww, c, mid, hi, in) : in;
        return reach_join(ww, out, &other);
    }
    ww->unknown_region = true;
    return in;
}

/* Whether buffer b's set holds one planned alloc_tile whose result carries
 * every use, with no flows in or out. */
static bool splittable(const planner *pl, const reach *r, const buffer *b, uint32_t set, const bool *inflow)
{
    if (b->fixed || b->unknown || b->nallocs != 1 || !ptoc_pto_is(b->root, PTOC_PTO_OP_ALLOC_TILE) ||
        r->flows.start[set] != r->flows.start[set + 1] || inflow[set])
        return false;
    for (uint32_t i = r->uses.start[set]; i < r->uses.start[set + 1]; i++)
        if (pl->uses[r->uses.items[i]].node != b->alloc_node)
            return false;                /* a view or an alias of it */
    return true;
}

/* Splits buffer b into its webs (new buffers after the existing ones). `scratch`
 * holds one pointer per use. */
static void split_webs(planner *pl, reach *r, const use_rec **scratch, uint32_t b, uint32_t set, const bool *inflow)
{
    if (set == NO_SET || !splittable(pl, r, &pl->bufs[b], set, inflow))
        return;
    web_walk ww = {scratch, 0, NULL, NULL, pl, false};
    for (uint32_t i = r->uses.start[set]; i < r->uses.start[set + 1]; i++)
        if (pl->uses[r->uses.items[i]].touches)
            ww.u[ww.n++] = &pl->uses[r->uses.items[i]];
    if (ww.n < 2)
        return;
    ww.parent = PTOC_NEW_ARRAY(pl->tmp, uint32_t, ww.n);
    ww.tag = PTOC_NEW_ARRAY(pl->tmp, uint32_t, ww.n);
    for (uint32_t i = 0; i < ww.n; i++)
        ww.parent[i] = i;
    web_seq(&ww, NO_SCOPE, 0, ww.n, (reaching){0, {0}});
    if (ww.unknown_region)
        return;
    uint32_t *buf_of_web = PTOC_NEW_ARRAY(pl->tmp, uint32_t, ww.n);
    uint32_t nwebs = 0, webs_from = pl->nbufs;
    for (uint32_t i = 0; i < ww.n; i++)
        buf_of_web[i] = NO_SET;
    for (uint32_t i = 0; i < ww.n; i++) {
        uint32_t web = web_find(&ww, ww.tag[i]);
        if (buf_of_web[web] == NO_SET) {
            buffer copy = pl->bufs[b];
            copy.split = true;
            copy.web = nwebs++;
            copy.leader = b;             /* compute_ranges: whose alloc site */
            buf_of_web[web] = copy.web == 0 ? b : pl->nbufs;
            if (copy.web == 0)
                pl->bufs[b] = copy;
            else
                *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->bufs, pl->nbufs, pl->bufs_cap) = copy;
        }
        ((use_rec *)ww.u[i])->web = buf_of_web[web];
    }
    pl->bufs[b].webs_from = webs_from;
    pl->bufs[b].webs_to = pl->nbufs;
    if (nwebs == 1) {                    /* one web: nothing to split */
        pl->bufs[b].split = false;
        for (uint32_t i = 0; i < ww.n; i++)
            ((use_rec *)ww.u[i])->web = NO_SET;
    }
}

/* One buffer: unused when no op touches a carrier of it; pinned buffers hold
 * their bytes for the whole function (finish_buffers); the rest are walked. */
static void buffer_range(planner *pl, reach *r, live_walk *w, uint32_t id, const alloc_site *site)
{
    buffer *b = &pl->bufs[id];
    uint32_t n = reachable_sets(pl, r, site->set);
    bool touched = false;
    FOR_USES(pl, r, n, u)
        touched |= u->touches;
    b->start = b->end = b->root_point;
    if (!touched)
        b->unused = !b->fixed && !b->unknown;
    if (!touched || b->fixed || b->unknown)
        return;
    walk_buffer(pl, r, w, id, n);
    confine(pl, r, n, &pl->bufs[id], site);
}

void memplan_compute_ranges(planner *pl, const uint32_t *buf_of)
{
    uint32_t *key = PTOC_NEW_ARRAY(pl->tmp, uint32_t, (pl->nuses > pl->nflows ? pl->nuses : pl->nflows) + 1);
    reach r;
    for (uint32_t i = 0; i < pl->nuses; i++)
        key[i] = memplan_find(pl, pl->uses[i].node);
    r.uses = group_by_set(pl, pl->nuses, key);
    for (uint32_t i = 0; i < pl->nflows; i++)
        key[i] = memplan_find(pl, pl->flows[i].from);
    r.flows = group_by_set(pl, pl->nflows, key);
    r.queue = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 1);
    r.seen = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 1);
    r.stamp = 0;
    alloc_site *site = PTOC_NEW_ARRAY(pl->tmp, alloc_site, pl->nbufs + 1);
    for (uint32_t b = 0; b < pl->nbufs; b++)
        site[b] = (alloc_site){NO_SET, pl->bufs[b].root_point, pl->bufs[b].root_point, NO_ARM};
    for (uint32_t i = 0; i < pl->nallocs; i++) {
        const alloc_rec *a = &pl->allocs[i];
        uint32_t set = memplan_find(pl, a->node), b = buf_of[set], p = a->point;
        if (site[b].set == NO_SET)
            site[b].arm = a->arm;        /* the first alloc, the buffer's root */
        site[b].set = set;
        site[b].lo = p < site[b].lo ? p : site[b].lo;
        site[b].hi = p > site[b].hi ? p : site[b].hi;
    }
    live_walk w = {.pl = pl, .r = &r, .bit_of = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 1),
                   .u = PTOC_NEW_ARRAY(pl->tmp, const use_rec *, pl->nuses + 1),
                   .memo = PTOC_NEW_ARRAY(pl->tmp, walk_memo, 2 * pl->nscopes + 2)};
    uint32_t nbufs = pl->nbufs;
    bool *inflow = PTOC_NEW_ARRAY(pl->tmp, bool, pl->nnodes + 1);
    for (uint32_t i = 0; i < pl->nflows; i++)
        inflow[memplan_find(pl, pl->flows[i].to)] = true;
    bool *source = PTOC_NEW_ARRAY(pl->tmp, bool, pl->nnodes + 1);   /* sets that stand for buffers of their own */
    for (uint32_t x = 0; x < pl->nnodes; x++)
        source[x] = !inflow[x];
    for (uint32_t i = 0; i < pl->nallocs; i++)
        source[memplan_find(pl, pl->allocs[i].node)] = true;
    find_holders(pl, &r, source, buf_of);
    pl->same_as = same_values(pl, source);
    w.buf_of = buf_of;
    for (uint32_t b = 0; b < nbufs; b++)
        split_webs(pl, &r, w.u, b, site[b].set, inflow);
    alloc_site *all_sites = PTOC_NEW_ARRAY(pl->tmp, alloc_site, pl->nbufs + 1);
    for (uint32_t b = 0; b < pl->nbufs; b++)
        all_sites[b] = b < nbufs ? site[b] : site[pl->bufs[b].leader];   /* a web: its alloc's buffer */
    for (uint32_t b = 0; b < pl->nbufs; b++)
        buffer_range(pl, &r, &w, b, &all_sites[b]);
    for (uint32_t b = nbufs; b < pl->nbufs; b++)
        pl->bufs[b].leader = b;          /* borrowed above to name the alloc's buffer */
}
