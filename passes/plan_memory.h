/* plan_memory.h: what the files of the pto-plan-memory pass share.
 *
 * plan_memory.c gathers the facts (program points, uses, allocs, unions and
 * flows, scopes) and drives the pass; plan_memory_live.c turns them into each
 * set's holders and equal value and each buffer's live pieces (liveness walk,
 * webs, confinement); plan_memory_paths.c runs the function on its bindings
 * (which buffers may be live on one path); plan_memory_merge.c merges
 * in-place handovers; plan_memory_place.c places the buffers and computes
 * the lower bound.
 * The pass's own header comment (plan_memory.c) says what it does.
 */
#ifndef PTOC_PASSES_PLAN_MEMORY_H
#define PTOC_PASSES_PLAN_MEMORY_H

#include "passes/passes.h"
#include "ptoc/pto.h"
#include "ptoc/util.h"

#include <stdlib.h>
#include <string.h>

#define NO_SET UINT32_MAX
#define NO_ARM UINT32_MAX
#define NO_SCOPE UINT32_MAX

/* ---------------------------------------------------------------- pointer map */

/* The value stored for `key` (a uint32 in a ptoc_ptrmap), inserting `fresh` when absent. */
static inline uint32_t map_get_or_put(ptoc_ptrmap *m, const void *key, uint32_t fresh)
{
    uint32_t before = ptoc_ptrmap_count(m);
    ptoc_ptrmap_entry *e = ptoc_ptrmap_upsert(m, key);
    if (ptoc_ptrmap_count(m) != before)
        e->val.num = fresh;
    return (uint32_t)e->val.num;
}

static inline bool map_find(const ptoc_ptrmap *m, const void *key, uint32_t *val)
{
    uint64_t v;
    if (!ptoc_ptrmap_get_int(m, key, &v))
        return false;
    *val = (uint32_t)v;
    return true;
}

/* ---------------------------------------------------------------- op kinds */

/* What the planner needs to know about an op, from its name; looked up once per
 * op def (a pointer map), since string compares per op showed in profiles. */
typedef enum op_kind {
    OP_OTHER, OP_ALLOC_TILE, OP_MEMREF_ALLOC, OP_TASSIGN, OP_FOR, OP_WHILE,
    OP_PASS,                     /* a terminator that only hands its operands on */
    OP_IF, OP_EXECUTE,
    OP_RESERVE,                  /* pto.reserve_buffer: bytes of its space for the whole function */
    OP_SCRATCH = 1u << 4,        /* flag: uses the arch's hidden scratch window */
} op_kind;
#define OP_KIND_MASK 15u

/* ---------------------------------------------------------------- facts gathered */

typedef enum alloc_kind { ALLOC_PLANNED, ALLOC_FIXED, ALLOC_UNKNOWN } alloc_kind;

/* Points [lo, hi]. For a buffer's piece, `via` is 0, or 1 + the one carrier
 * set through which alone the buffer is live or touched there: buffers that
 * are there only through the same carrier may share bytes, since at run time
 * the carrier holds one of them (an iter_arg holding the init in the first
 * iteration and the yielded tile later, an scf.if result holding either
 * arm's tile). */
typedef struct span { uint32_t lo, hi, via; } span;
/* `touches`: the op may read or write the buffer; a yield or a region op's
 * operand only hands it on (what it flows to is counted by its own uses).
 * `reads`: it touches it other than as a DPS out (any non-DPS op counts).
 * `kills`: a DPS out of the alloc's own value, written whole (see use_kills).
 * `scope`, `region`: the innermost op with regions around the op, and which of
 * its regions (NO_SCOPE: the function body). */
typedef struct use_rec {
    ptoc_op *op;
    uint32_t operand, node, point, arm, scope, region;
    uint32_t web;                /* the buffer of its web when its alloc is split (split_webs), else NO_SET */
    bool touches, reads, kills;
} use_rec;
/* An op with regions: its point and end point, and the points of its first two
 * regions' ops (lo > hi when a region is empty or absent). */
typedef struct scope_info {
    const ptoc_op *op;
    uint32_t kind, begin, end, parent, nregions;
    span region[2];
    bool runs;                   /* an scf.for with constant bounds that runs at least once */
} scope_info;
/* An op that may write its out over in `in` in place (ptoc_pto_effects), when
 * the two have one type: the indices of the two uses. */
typedef struct handover { uint32_t point, in, out; } handover;
/* The points of one arm of an scf.if with two; arms come in pairs, then (even
 * id) and else (odd id); `parent` is the innermost arm around the if. */
typedef struct arm_info { uint32_t begin, end, parent, if_point; } arm_info;
/* A flow between union-find nodes: a value of `from` may reach `to`. */
typedef struct flow_rec { uint32_t from, to; } flow_rec;
typedef struct alloc_rec {
    ptoc_op *op;                 /* alloc_tile, memref.alloc/alloca, or tassign (FIXED/UNKNOWN) */
    uint32_t node, point, arm;
    alloc_kind kind;
    uint32_t space;
    uint64_t size, offset;       /* offset: FIXED only */
} alloc_rec;

/* One buffer: a union set with at least one alloc. */
typedef struct buffer {
    ptoc_op *root;               /* its first alloc, for locations */
    uint32_t space, start, end, root_point;
    uint64_t size, offset;        /* size: aligned up to the space's alignment */
    bool fixed, unknown;
    bool unused;                 /* nothing touches it: empty range, offset 0, no bytes taken */
    bool reserve;                /* a pto.reserve_buffer's bytes (fixed, root the op) */
    uint32_t pieces, npieces;    /* pl->pieces[pieces ..): the points where it is live, sorted
                                  * (a group's leader: the whole group's) */
    uint32_t own_pieces, own_npieces; /* its own pieces, before any in-place merge */
    uint32_t confined, nconfined; /* pl->confined_to[confined ..): arms it is live only through, innermost first */
    bool merged;                 /* written in place over buffer `leader`: shares its offset */
    uint32_t leader;
    bool split;                  /* one web of a split alloc: its uses carry its index (use_rec.web) */
    uint32_t web;                /* which web of its alloc, in program order (0: the alloc's own) */
    uint32_t webs_from, webs_to; /* web 0 of a split alloc: its other webs are bufs[webs_from, webs_to) */
    uint32_t nallocs, alloc_node; /* allocs in its set; the first one's node */
    uint64_t bytes;               /* what it holds (size unaligned): the peak counts these */
} buffer;

/* Planning spaces past the address spaces: the MX scale buffers beside L0A
 * and L0B, which the dialect's scaling space also stands for (pto.h,
 * ptoc_pto_scaling_buffer); each is planned from offset 0 in its own bytes. */
#define MEMPLAN_SCALE_LEFT PTOC_PTO_AS_COUNT
#define MEMPLAN_SCALE_RIGHT (PTOC_PTO_AS_COUNT + 1)
#define MEMPLAN_SPACES (PTOC_PTO_AS_COUNT + 2)

typedef struct planner {
    ptoc_context *ctx;
    ptoc_arena *tmp;
    ptoc_op *func;
    ptoc_pto_arch arch;
    bool bad, needs_scratch;
    ptoc_op *reserve;               /* the function's pto.reserve_buffer, or NULL */
    uint32_t npoints;
    ptoc_ptrmap node_of;            /* ptoc_value* -> union-find node */
    ptoc_ptrmap kind_of;            /* ptoc_op_def* -> op_kind */
    uint32_t *parent, nnodes, nodes_cap;
    use_rec *uses;
    uint32_t nuses, uses_cap;
    flow_rec *flows;
    uint32_t nflows, flows_cap;
    alloc_rec *allocs;
    uint32_t nallocs, allocs_cap;
    arm_info *arms;
    uint32_t narms, arms_cap, cur_arm;
    scope_info *scopes;
    uint32_t nscopes, scopes_cap, cur_scope, cur_region;
    handover *handovers;
    uint32_t nhandovers, handovers_cap;
    span *pieces;
    uint32_t npieces, pieces_cap;
    uint32_t *confined_to, nconfined, confined_cap;
    buffer *bufs;
    uint32_t nbufs, bufs_cap;
    uint32_t *holders, *nholders;   /* per set: the buffers its values may hold (set_holders) */
    uint32_t *same_as;              /* per set: the set whose value its values always equal */
    uint64_t *exact;                /* per buffer, a bitset of the buffers it may be live with on one
                                     * path (memplan_exact_conflicts), NULL when not known */
    uint64_t *exact_soft;           /* per buffer, those an op writes over it in place where it
                                     * dies (where they meet otherwise, pl->exact says so too) */
    uint64_t *exact_groups;         /* per group leader, of leaders: the two above, once merged */
    uint32_t exact_words;           /* words per row of all three */
    uint64_t exact_lb[MEMPLAN_SPACES];  /* per planning space, the most bytes of planned
                                     * buffers one node of the path graph holds: no plan needs less */
} planner;

/* ---------------------------------------------------------------- shared functions */

/* plan_memory.c */
uint32_t memplan_find(planner *pl, uint32_t x);                    /* union-find root */
bool memplan_buffer_space(const ptoc_type *t, uint32_t *space);     /* on-chip space of a buffer type */
/* plan_memory_live.c: every buffer's pieces (and webs: new buffers) */
void memplan_compute_ranges(planner *pl, const uint32_t *buf_of);
/* Appends spans[0 .. n) (any order, may overlap; reordered in place) to
 * pl->pieces as sorted disjoint pieces: adjacent ones with the same via
 * joined, overlaps with different vias given via 0. Returns the count; they
 * start at the old pl->npieces. */
uint32_t memplan_add_pieces(planner *pl, span *spans, uint32_t n);
/* plan_memory_merge.c */
void memplan_merge_handovers(planner *pl, const uint32_t *buf_of);
/* Per group leader, bitsets over buffers: what its members may be live with
 * on some path (their pl->exact rows) and the members themselves; scratch for
 * memplan_merge_space, nbufs * exact_words words each. */
typedef struct memplan_group_rows { uint64_t *hard, *members; } memplan_group_rows;
/* The in-place pairs of one space merged in one order, the webs of one
 * alloc before other pairs: 0 by ascending buffer, 1 by descending, 2
 * ascending but only buffers of one size (a smaller tile that keeps its own
 * bytes may fit where the larger one's group would not). */
#define MEMPLAN_MERGE_ORDERS 3
void memplan_merge_space(planner *pl, const uint32_t *ids, uint32_t n, uint32_t order, memplan_group_rows *r);
/* pl->exact_groups from the buffers' rows and the current groups. */
void memplan_exact_per_group(planner *pl);
/* plan_memory_paths.c: pl->exact and pl->exact_soft, before the in-place merges */
void memplan_exact_conflicts(planner *pl, const uint32_t *buf_of);
/* plan_memory_place.c */
bool memplan_plan_space(planner *pl, uint32_t space, bool print);

/* ---------------------------------------------------------------- small shared helpers */

static inline bool on_chip(uint32_t space)
{
    return space >= PTOC_PTO_AS_MAT && space <= PTOC_PTO_AS_SCALING;
}

static inline uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

static inline bool is_pinned(const buffer *b) { return b->fixed || b->unknown; }

/* The buffers the values of union set `set` may hold at run time (*n of
 * them; *n > MAX_HOLDERS: more, or some we do not know). */
#define MAX_HOLDERS 4

static inline const uint32_t *set_holders(const planner *pl, uint32_t set, uint32_t *n)
{
    *n = pl->nholders[set];
    return &pl->holders[(size_t)set * MAX_HOLDERS];
}

/* The buffer a use touches: its web's, or its set's (NO_SET: none). */
static inline uint32_t use_buffer(const planner *pl, const uint32_t *buf_of, uint32_t use)
{
    const use_rec *u = &pl->uses[use];
    return u->web != NO_SET ? u->web : buf_of[memplan_find((planner *)pl, u->node)];   /* finds only compress */
}

/* The buffer whose offset b shares (memplan_merge_handovers), b itself when none. */
static inline uint32_t group_of(const planner *pl, uint32_t b)
{
    while (pl->bufs[b].merged)
        b = pl->bufs[b].leader;
    return b;
}

/* The piece of b around `point`, or an empty span. */
static inline span piece_at(const planner *pl, const buffer *b, uint32_t point)
{
    for (uint32_t k = 0; k < b->npieces; k++)
        if (pl->pieces[b->pieces + k].lo <= point && point <= pl->pieces[b->pieces + k].hi)
            return pl->pieces[b->pieces + k];
    return (span){1, 0};
}

/* The handovers at `point` (pl->handovers is in point order): [*first, return). */
static inline uint32_t memplan_handovers_at(const planner *pl, uint32_t point, uint32_t *first)
{
    uint32_t lo = 0, hi = pl->nhandovers;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (pl->handovers[mid].point < point)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    while (hi < pl->nhandovers && pl->handovers[hi].point == point)
        hi++;
    return hi;
}

static inline bool bit_of(const uint64_t *row, uint32_t b) { return (row[b / 64] >> (b % 64)) & 1; }
static inline void set_bit_of(uint64_t *row, uint32_t b) { row[b / 64] |= 1ull << (b % 64); }

static inline bool live_at(const planner *pl, const buffer *b, uint32_t point)
{
    span p = piece_at(pl, b, point);
    return p.lo <= p.hi;
}

#endif
