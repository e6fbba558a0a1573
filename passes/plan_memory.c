/* plan_memory.c: the "pto-plan-memory" pass, which gives every on-chip buffer an offset.
 *
 * Requires: Level 2 (tile_bufs, after pto-bufferize) and structured control flow
 *           (scf.for/if/while/execute_region); runs on each func.func.
 * Produces: `pto.planned_offset = N : i64` (bytes in its address space) on every
 *           `pto.alloc_tile` without addr and every `memref.alloc`/`alloca` in an
 *           on-chip #pto.address_space; no two buffers live at the same time
 *           overlap; offsets are aligned per space (ptoc_pto_space_alignment) and
 *           the plan fits ptoc_pto_space_capacity, else a diagnostic at the
 *           function names the space, the bytes needed and those available, with
 *           a note at each buffer live at the worst program point.
 * Method:   ops are numbered in pre-order; an op with regions also gets an end
 *           point after its body, so a loop's body lies inside [begin, end].
 *           Each alloc is one buffer with its own address. Values that are the
 *           same memory are unioned (union-find): the result of a region-less op
 *           and its buffer operands (pto.tassign, views, casts). Values that may
 *           hold a buffer at run time are linked by flows: scf.for init and yield
 *           -> iter_arg -> result; scf.while init and after-yield -> before arg,
 *           condition args -> after arg and result; scf.if/execute_region yields
 *           -> results. A buffer lives from the first to the last use of any
 *           value it may flow to (inclusive); when it is also allocated or used
 *           outside a loop that contains one of those uses, or flows along the
 *           loop's back edge (a yield to an iter_arg), it lives across that whole
 *           loop. Its range has holes at the arms of an scf.if where it is
 *           dead on every path: the else arm when all its allocs are in the
 *           then arm (only the if's results can carry it out), the then arm
 *           when it ends in the else arm and is not used in the then arm; the
 *           rest are its live pieces. A buffer whose allocs and range start lie
 *           in one arm is confined to it (live only on paths through it): it
 *           may share bytes with one confined to the other arm of that if, even
 *           after the if (the yields of the two arms to one result share a slot).
 *           A buffer no op reads or writes through any of those values
 *           (no uses, or only yields and loop inits that hand it on) has an
 *           empty range: offset 0, taking no bytes, sharing them with anything.
 *           One only written (DPS outs, never an in or any other op's operand)
 *           holds nothing anyone sees: it is live at its writes only.
 *           Flows rather than unions keep a tile that an scf.if yields from
 *           one branch apart from one the other branch yields while it is still
 *           live (PTOAS merges them). Inclusive intervals make every two buffers
 *           used by the same op overlap, so a tmp/scratch operand never shares
 *           memory with its op's dst (in-place reuse is pto-bufferize's
 *           decision, not ours). Known limit: an alloc inside a loop whose
 *           previous iteration's tile is still read after the new one is
 *           written needs two addresses; the planner gives one (bufferize must
 *           not produce that).
 *           Placement per space: three orderings (size desc, start asc,
 *           size*length desc); for each, a buffer goes into the smallest gap
 *           left by the already placed buffers whose pieces overlap its own
 *           (best fit), else on top; the smallest peak wins. Overlap queries use
 *           a segment tree over program points, so a query costs about the
 *           number of overlapping buffers times log(points), not the number of
 *           buffers. The lower bound is the largest total size live at one point
 *           on every path there (a confined buffer counts inside its arm only).
 *           Buffers with a constant manual address (alloc_tile addr, tassign) are
 *           not planned; their bytes are reserved for the whole function. On A2/A3,
 *           UB [184 KiB, 192 KiB) is reserved when TROWEXPAND*, TCVT or TEXTRACT
 *           appear (their hidden scratch).
 *
 * `pto-plan-memory{print=true}` (ptoc-opt --test-print-memplan) writes the plan to
 * stdout before the IR, one line per item, in this stable format:
 *   memplan @FUNC
 *     SPACE buffer LINE:COL live [START, END]... [arm A]... offset OFFSET size SIZE
 *                          (its pieces; the arms it is confined to: 2k then, 2k+1 else)
 *     SPACE fixed LINE:COL offset OFFSET size SIZE
 *     SPACE reserved offset OFFSET size SIZE
 *     SPACE unknown LINE:COL size SIZE       (pinned by a non-constant address)
 *     SPACE unused LINE:COL offset 0 size SIZE  (nothing reads or writes it)
 *     SPACE peak PEAK lower-bound LB capacity CAP
 * SPACE is VEC, MAT, LEFT, RIGHT, ACC, BIAS or SCALING; LINE:COL is the buffer's
 * first alloc; START/END are program points (the pre-order numbering above);
 * buffers are listed by start point, then by position in the source.
 */
#include "passes/passes.h"
#include "ptoc/pto.h"

#include <stdlib.h>
#include <string.h>

#define SCRATCH_BEGIN (184u * 1024u)  /* A2/A3 hidden scratch of TROWEXPAND*, TCVT, TEXTRACT */
#define SCRATCH_END (192u * 1024u)
#define NO_LOOP UINT32_MAX
#define NO_SET UINT32_MAX
#define NO_ARM UINT32_MAX

/* ---------------------------------------------------------------- pointer map */

/* Open addressing, pointer -> uint32; grows at half full. */
typedef struct ptr_map {
    const void **keys;
    uint32_t *vals;
    uint32_t cap, n;
} ptr_map;

static uint32_t ptr_hash(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= (uintptr_t)0x9E3779B97F4A7C15u;
    return (uint32_t)(x ^ (x >> 29));
}

static uint32_t *map_slot(ptr_map *m, const void *key, bool *found)
{
    uint32_t i = ptr_hash(key) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    *found = m->keys[i] != NULL;
    m->keys[i] = key;
    return &m->vals[i];
}

static void map_init(ptr_map *m, ptoc_arena *a, uint32_t cap)
{
    m->cap = cap;
    m->n = 0;
    m->keys = PTOC_NEW_ARRAY(a, const void *, cap);
    m->vals = PTOC_NEW_ARRAY(a, uint32_t, cap);
}

/* The value stored for `key`, inserting `fresh` when absent. */
static uint32_t map_get_or_put(ptr_map *m, ptoc_arena *a, const void *key, uint32_t fresh)
{
    if (2 * (m->n + 1) > m->cap) {
        ptr_map old = *m;
        map_init(m, a, old.cap * 2);
        for (uint32_t i = 0; i < old.cap; i++) {
            bool f;
            if (old.keys[i])
                *map_slot(m, old.keys[i], &f) = old.vals[i];
        }
        m->n = old.n;
    }
    bool found;
    uint32_t *v = map_slot(m, key, &found);
    if (!found) {
        *v = fresh;
        m->n++;
    }
    return *v;
}

/* ---------------------------------------------------------------- growable arrays */

#define VEC_PUSH(arena, arr, n, cap, item)                                         \
    do {                                                                           \
        if ((n) == (cap)) {                                                        \
            size_t ncap_ = (cap) ? (size_t)(cap) * 2 : 64;                         \
            void *p_ = ptoc_arena_alloc((arena), ncap_ * sizeof *(arr), _Alignof(max_align_t)); \
            if (n)                                                                 \
                memcpy(p_, (arr), (size_t)(n) * sizeof *(arr));                    \
            (arr) = p_;                                                            \
            (cap) = (uint32_t)ncap_;                                               \
        }                                                                          \
        (arr)[(n)++] = (item);                                                     \
    } while (0)

/* ---------------------------------------------------------------- op kinds */

/* What the planner needs to know about an op, from its name; looked up once per
 * op def (a pointer map), since string compares per op showed in profiles. */
typedef enum op_kind {
    OP_OTHER, OP_ALLOC_TILE, OP_MEMREF_ALLOC, OP_TASSIGN, OP_FOR, OP_WHILE,
    OP_PASS,                     /* a terminator that only hands its operands on */
    OP_IF,
    OP_SCRATCH = 1u << 4,        /* flag: uses the A2/A3 hidden UB scratch */
} op_kind;
#define OP_KIND_MASK 15u

static const struct { const char *name; uint32_t kind; } op_kinds[] = {
    {"pto.alloc_tile", OP_ALLOC_TILE}, {"memref.alloc", OP_MEMREF_ALLOC}, {"memref.alloca", OP_MEMREF_ALLOC},
    {"pto.tassign", OP_TASSIGN},       {"scf.for", OP_FOR},               {"scf.while", OP_WHILE},
    {"scf.yield", OP_PASS},            {"scf.condition", OP_PASS},        {"scf.if", OP_IF},
};
static const char *const scratch_prefixes[] = {"pto.trowexpand", "pto.tcvt", "pto.textract"};

static uint32_t classify_name(const char *name)
{
    uint32_t kind = OP_OTHER;
    for (size_t i = 0; i < sizeof op_kinds / sizeof op_kinds[0]; i++)
        if (strcmp(name, op_kinds[i].name) == 0)
            kind = op_kinds[i].kind;
    for (size_t i = 0; i < sizeof scratch_prefixes / sizeof scratch_prefixes[0]; i++)
        if (strncmp(name, scratch_prefixes[i], strlen(scratch_prefixes[i])) == 0)
            kind |= OP_SCRATCH;
    return kind;
}

/* ---------------------------------------------------------------- facts gathered */

typedef enum alloc_kind { ALLOC_PLANNED, ALLOC_FIXED, ALLOC_UNKNOWN } alloc_kind;

typedef struct loop_info { uint32_t begin, end, parent; } loop_info;
/* `touches`: the op may read or write the buffer; a yield or a region op's
 * operand only hands it on (what it flows to is counted by its own uses).
 * `reads`: it touches it other than as a DPS out (any non-DPS op counts). */
typedef struct use_rec { uint32_t node, point, loop, arm; bool touches, reads; } use_rec;
/* The points of one arm of an scf.if with two; arms come in pairs, then (even
 * id) and else (odd id); `parent` is the innermost arm around the if. */
typedef struct arm_info { uint32_t begin, end, parent; } arm_info;
typedef struct span { uint32_t lo, hi; } span;
/* A flow between union-find nodes; `loop` is set for a back edge (a yield to
 * an iter_arg): what flows there is live across that whole loop. */
typedef struct flow_rec { uint32_t from, to, loop; } flow_rec;
typedef struct alloc_rec {
    ptoc_op *op;                 /* alloc_tile, memref.alloc/alloca, or tassign (FIXED/UNKNOWN) */
    uint32_t node, point, loop, arm;
    alloc_kind kind;
    uint32_t space;
    uint64_t size, offset;       /* offset: FIXED only */
} alloc_rec;

/* One buffer: a union set with at least one alloc. */
typedef struct buffer {
    ptoc_op *root;               /* its first alloc, for locations */
    uint32_t space, start, end, root_point;
    uint64_t size, offset;
    bool fixed, unknown;
    bool unused;                 /* nothing touches it: empty range, offset 0, no bytes taken */
    bool write_only;             /* only DPS outs touch it: live at those points only */
    uint32_t holes, nholes;      /* pl->holes[holes ..): arms inside [start, end] where it is
                                  * dead; for a write_only buffer, its write points instead */
    uint32_t pieces, npieces;    /* pl->pieces[pieces ..): [start, end] minus the holes */
    uint32_t confined, nconfined; /* pl->confined_to[confined ..): arms it is live only through, innermost first */
} buffer;

typedef struct planner {
    ptoc_context *ctx;
    ptoc_arena *tmp;
    ptoc_op *func;
    ptoc_pto_arch arch;
    bool bad, needs_scratch;
    uint32_t npoints;
    ptr_map node_of;             /* ptoc_value* -> union-find node */
    ptr_map kind_of;             /* ptoc_op_def* -> op_kind */
    uint32_t *parent, nnodes, nodes_cap;
    loop_info *loops;
    uint32_t nloops, loops_cap;
    use_rec *uses;
    uint32_t nuses, uses_cap;
    flow_rec *flows;
    uint32_t nflows, flows_cap;
    alloc_rec *allocs;
    uint32_t nallocs, allocs_cap;
    arm_info *arms;
    uint32_t narms, arms_cap, cur_arm;
    span *holes, *pieces;
    uint32_t nholes, holes_cap, npieces, pieces_cap;
    uint32_t *confined_to, nconfined, confined_cap;
    buffer *bufs;
    uint32_t nbufs, bufs_cap;
} planner;

/* ---------------------------------------------------------------- buffer types */

static bool on_chip(uint32_t space)
{
    return space >= PTOC_PTO_AS_MAT && space <= PTOC_PTO_AS_SCALING;
}

/* The on-chip space of a tile_buf or memref type; false for anything else. */
static bool buffer_space(const ptoc_type *t, uint32_t *space)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(t);
    ptoc_pto_address_space as;
    if (d)
        *space = d->loc;
    else if (ptoc_pto_memref_space(t, &as))
        *space = as;
    else
        return false;
    return on_chip(*space);
}

static uint64_t elem_bytes(const ptoc_type *elem)
{
    uint32_t bits = ptoc_type_bitwidth(elem);
    return bits < 8 ? 1 : bits / 8;
}

/* Bytes of a buffer type, from its static shape; false (after a diagnostic) when
 * the shape is dynamic. compact=row_plus_one stores one more row. */
static bool buffer_bytes(const ptoc_op *op, const ptoc_type *t, uint64_t *bytes)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(t);
    if (d) {
        uint64_t rows = (uint64_t)d->rows + (d->compact == PTOC_PTO_COMPACT_ROW_PLUS_ONE);
        *bytes = rows * (uint64_t)d->cols * elem_bytes(d->elem);
        return true;
    }
    uint64_t n = elem_bytes(t->u.shaped.elem);
    for (uint32_t i = 0; i < t->u.shaped.rank; i++) {
        if (t->u.shaped.shape[i] == PTOC_DYNAMIC) {
            ptoc_op_emit_error(op, "cannot plan a buffer with a dynamic shape (dimension %u)", i);
            return false;
        }
        n *= (uint64_t)t->u.shaped.shape[i];
    }
    *bytes = n;
    return true;
}

/* The integer an arith.constant gives `v`, if it is one. */
static bool constant_of(const ptoc_value *v, int64_t *out)
{
    ptoc_op *def = ptoc_value_def(v);
    ptoc_attr *a = def && ptoc_op_is(def, "arith.constant") ? ptoc_op_attr(def, "value") : NULL;
    if (!a || a->kind != PTOC_ATTR_INTEGER)
        return false;
    *out = a->u.integer.value;
    return true;
}

/* ---------------------------------------------------------------- union-find */

static uint32_t node(planner *pl, const ptoc_value *v)
{
    uint32_t id = map_get_or_put(&pl->node_of, pl->tmp, v, pl->nnodes);
    if (id == pl->nnodes)
        VEC_PUSH(pl->tmp, pl->parent, pl->nnodes, pl->nodes_cap, id);
    return id;
}

static uint32_t find(planner *pl, uint32_t x)
{
    while (pl->parent[x] != x) {
        pl->parent[x] = pl->parent[pl->parent[x]];
        x = pl->parent[x];
    }
    return x;
}

static void unite(planner *pl, const ptoc_value *a, const ptoc_value *b)
{
    uint32_t s;
    if (!buffer_space(a->type, &s) || !buffer_space(b->type, &s))
        return;
    uint32_t x = find(pl, node(pl, a)), y = find(pl, node(pl, b));
    if (x != y)
        pl->parent[x > y ? x : y] = x < y ? x : y;   /* the older node stays root */
}

/* ---------------------------------------------------------------- aliases */

static ptoc_op *terminator(ptoc_op *op, uint32_t region)
{
    ptoc_block *b = region < op->nregions ? op->regions[region].first : NULL;
    return b ? ptoc_block_terminator(b) : NULL;
}

static ptoc_value *block_arg(ptoc_op *op, uint32_t region, uint32_t i)
{
    ptoc_block *b = region < op->nregions ? op->regions[region].first : NULL;
    return b && i < b->nargs ? b->args[i] : NULL;
}

/* A value of `from` may reach `to` at run time (a yield to a result, an init to an
 * iter_arg): `to` keeps whatever buffer `from` holds alive, but the two need not
 * share an address, since each alloc has its own. */
static void add_flow(planner *pl, const ptoc_value *from, const ptoc_value *to, uint32_t back_edge_loop)
{
    uint32_t s;
    if (!from || !to || !buffer_space(from->type, &s) || !buffer_space(to->type, &s))
        return;
    flow_rec f = {node(pl, from), node(pl, to), back_edge_loop};
    VEC_PUSH(pl->tmp, pl->flows, pl->nflows, pl->flows_cap, f);
}

/* operands[from + i] of `t` flow to values[i], for each i both have. */
static void flow_operands(planner *pl, ptoc_op *t, uint32_t from, ptoc_value *(*get)(ptoc_op *, uint32_t, uint32_t),
                          ptoc_op *owner, uint32_t region, uint32_t arg_from, uint32_t back_edge_loop)
{
    for (uint32_t i = 0; t && from + i < t->noperands; i++)
        add_flow(pl, ptoc_op_operand(t, from + i), get(owner, region, arg_from + i), back_edge_loop);
}

static ptoc_value *result_at(ptoc_op *op, uint32_t region, uint32_t i)
{
    (void)region;
    return i < op->nresults ? &op->results[i] : NULL;
}

/* scf.for: init i (operand 3+i) and yield i flow to iter_arg i (arg 1+i), which
 * flows to result i. */
static void alias_for(planner *pl, ptoc_op *op, uint32_t loop)
{
    flow_operands(pl, op, 3, block_arg, op, 0, 1, NO_LOOP);
    flow_operands(pl, terminator(op, 0), 0, block_arg, op, 0, 1, loop);
    for (uint32_t i = 0; i < op->nresults; i++)
        add_flow(pl, block_arg(op, 0, 1 + i), &op->results[i], NO_LOOP);
}

/* scf.while: init i and after-yield i flow to before arg i; condition arg i+1
 * flows to after arg i and result i. */
static void alias_while(planner *pl, ptoc_op *op, uint32_t loop)
{
    flow_operands(pl, op, 0, block_arg, op, 0, 0, NO_LOOP);
    flow_operands(pl, terminator(op, 1), 0, block_arg, op, 0, 0, loop);
    flow_operands(pl, terminator(op, 0), 1, block_arg, op, 1, 0, NO_LOOP);
    flow_operands(pl, terminator(op, 0), 1, result_at, op, 0, 0, NO_LOOP);
}

/* Every other op: yields flow to region results; a buffer result of a region-less
 * op is the same memory as its buffer operands (tassign, views, casts). */
static void alias_op(planner *pl, ptoc_op *op, uint32_t kind, uint32_t loop)
{
    if (kind == OP_FOR) {
        alias_for(pl, op, loop);
        return;
    }
    if (kind == OP_WHILE) {
        alias_while(pl, op, loop);
        return;
    }
    for (uint32_t r = 0; r < op->nregions; r++) {
        ptoc_op *t = terminator(op, r);
        if (t && ptoc_op_is(t, "scf.yield"))
            flow_operands(pl, t, 0, result_at, op, 0, 0, NO_LOOP);
    }
    if (op->nregions || kind == OP_ALLOC_TILE)
        return;
    for (uint32_t r = 0; r < op->nresults; r++)
        for (uint32_t i = 0; i < op->noperands; i++)
            unite(pl, &op->results[r], ptoc_op_operand(op, i));
}

/* ---------------------------------------------------------------- allocs */

static void add_alloc(planner *pl, ptoc_op *op, const ptoc_value *v, uint32_t point, uint32_t loop,
                      alloc_kind kind, int64_t offset)
{
    alloc_rec r = {op, node(pl, v), point, loop, pl->cur_arm, kind, 0, 0, (uint64_t)offset};
    buffer_space(v->type, &r.space);
    if (!buffer_bytes(op, v->type, &r.size))
        pl->bad = true;
    VEC_PUSH(pl->tmp, pl->allocs, pl->nallocs, pl->allocs_cap, r);
}

/* alloc_tile's addr is its first operand when operandSegmentSizes says so. */
static ptoc_value *alloc_tile_addr(const ptoc_op *op)
{
    ptoc_attr *seg = ptoc_op_attr(op, "operandSegmentSizes");
    bool has = seg && seg->kind == PTOC_ATTR_DENSE_ARRAY && seg->u.dense.n == 3 ? seg->u.dense.values[0] == 1
                                                                               : false;
    return has && op->noperands > 0 ? ptoc_op_operand(op, 0) : NULL;
}

/* Records the buffer an op creates or pins, if any. */
static void note_alloc(planner *pl, ptoc_op *op, uint32_t kind, uint32_t point, uint32_t loop)
{
    uint32_t space;
    int64_t offset = 0;
    if (op->nresults != 1 || !buffer_space(op->results[0].type, &space))
        return;
    ptoc_value *res = &op->results[0];
    if (kind == OP_ALLOC_TILE) {
        ptoc_value *addr = alloc_tile_addr(op);
        alloc_kind k = !addr ? ALLOC_PLANNED : constant_of(addr, &offset) ? ALLOC_FIXED : ALLOC_UNKNOWN;
        add_alloc(pl, op, res, point, loop, k, offset);
    } else if (kind == OP_MEMREF_ALLOC) {
        ptoc_attr *addr = ptoc_op_attr(op, "pto.addr");
        bool fixed = addr && addr->kind == PTOC_ATTR_INTEGER;
        add_alloc(pl, op, res, point, loop, fixed ? ALLOC_FIXED : ALLOC_PLANNED, fixed ? addr->u.integer.value : 0);
    } else if (kind == OP_TASSIGN && op->noperands == 2) {
        bool fixed = constant_of(ptoc_op_operand(op, 1), &offset);
        add_alloc(pl, op, res, point, loop, fixed ? ALLOC_FIXED : ALLOC_UNKNOWN, offset);
    }
}

/* ---------------------------------------------------------------- numbering walk */

static void number_op(planner *pl, ptoc_op *op, uint32_t loop);
static void number_arms(planner *pl, ptoc_op *op, uint32_t loop);

static void number_regions(planner *pl, ptoc_op *op, uint32_t loop)
{
    for (uint32_t r = 0; r < op->nregions; r++)
        for (ptoc_block *b = op->regions[r].first; b; b = b->next)
            for (ptoc_op *o = b->first; o; o = o->next)
                number_op(pl, o, loop);
}

/* The two regions of an scf.if, each recorded as an arm. */
static void number_arms(planner *pl, ptoc_op *op, uint32_t loop)
{
    uint32_t id = pl->narms, outer = pl->cur_arm;
    arm_info a = {0, 0, outer};
    VEC_PUSH(pl->tmp, pl->arms, pl->narms, pl->arms_cap, a);
    VEC_PUSH(pl->tmp, pl->arms, pl->narms, pl->arms_cap, a);
    for (uint32_t r = 0; r < 2; r++) {
        pl->arms[id + r].begin = pl->npoints;
        pl->cur_arm = id + r;
        for (ptoc_block *b = op->regions[r].first; b; b = b->next)
            for (ptoc_op *o = b->first; o; o = o->next)
                number_op(pl, o, loop);
        pl->arms[id + r].end = pl->npoints - 1;    /* below begin when the arm is empty */
    }
    pl->cur_arm = outer;
}

static uint32_t op_kind_of(planner *pl, const ptoc_op *op)
{
    uint32_t kind = map_get_or_put(&pl->kind_of, pl->tmp, op->def, UINT32_MAX);
    if (kind == UINT32_MAX) {
        kind = classify_name(op->name->str);
        bool found;
        *map_slot(&pl->kind_of, op->def, &found) = kind;
    }
    return kind;
}

/* Operand i of a DPS op whose operands are exactly its ins then its outs. */
static bool is_dps_out(const ptoc_op *op, uint32_t i)
{
    uint32_t nins, nouts;
    return ptoc_pto_op_info_of(op) && ptoc_pto_dps_split(op, &nins, &nouts) && nins + nouts == op->noperands &&
           i >= nins;
}

/* Gives `op` its point (and an end point after its regions), records its buffer
 * uses and allocs, and unions its aliases. */
static void number_op(planner *pl, ptoc_op *op, uint32_t loop)
{
    uint32_t point = pl->npoints++;
    uint32_t info = op_kind_of(pl, op), kind = info & OP_KIND_MASK;
    uint32_t space;
    for (uint32_t i = 0; i < op->noperands; i++) {
        ptoc_value *v = ptoc_op_operand(op, i);
        if (buffer_space(v->type, &space)) {
            bool touches = kind != OP_PASS && op->nregions == 0;
            use_rec u = {node(pl, v), point, loop, pl->cur_arm, touches, touches && !is_dps_out(op, i)};
            VEC_PUSH(pl->tmp, pl->uses, pl->nuses, pl->uses_cap, u);
        }
    }
    note_alloc(pl, op, kind, point, loop);
    pl->needs_scratch |= (info & OP_SCRATCH) != 0;
    if (op->nregions == 0) {
        alias_op(pl, op, kind, NO_LOOP);
        return;
    }
    uint32_t inner = loop;
    if (kind == OP_FOR || kind == OP_WHILE) {
        loop_info li = {point, 0, loop};
        inner = pl->nloops;
        VEC_PUSH(pl->tmp, pl->loops, pl->nloops, pl->loops_cap, li);
    }
    if (kind == OP_IF && op->nregions == 2)
        number_arms(pl, op, inner);
    else
        number_regions(pl, op, inner);
    if (inner != loop)
        pl->loops[inner].end = pl->npoints;
    pl->npoints++;
    alias_op(pl, op, kind, inner);
}

/* ---------------------------------------------------------------- buffers and live ranges */

/* Turns union sets with allocs into buffers; returns the set -> buffer map. */
static uint32_t *make_buffers(planner *pl)
{
    uint32_t *buf_of = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes ? pl->nnodes : 1);
    for (uint32_t i = 0; i < pl->nnodes; i++)
        buf_of[i] = NO_SET;
    for (uint32_t i = 0; i < pl->nallocs; i++) {
        alloc_rec *a = &pl->allocs[i];
        uint32_t set = find(pl, a->node);
        if (buf_of[set] == NO_SET) {
            buffer b = {a->op, a->space, a->point, a->point, a->point, 0, 0, false, false, false};
            buf_of[set] = pl->nbufs;
            VEC_PUSH(pl->tmp, pl->bufs, pl->nbufs, pl->bufs_cap, b);
        }
        buffer *b = &pl->bufs[buf_of[set]];
        if (a->size > b->size)
            b->size = a->size;
        if (a->kind == ALLOC_FIXED && !b->fixed) {
            b->fixed = true;
            b->offset = a->offset;
        }
        b->unknown |= a->kind == ALLOC_UNKNOWN;
    }
    return buf_of;
}

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
            uint32_t y = find(pl, pl->flows[r->flows.items[e]].to);
            if (r->seen[y] != r->stamp) {
                r->seen[y] = r->stamp;
                r->queue[n++] = y;
            }
        }
    }
    return n;
}

/* Where a buffer's allocs are: points [lo, hi], the first alloc's arm. */
typedef struct alloc_site { uint32_t set, lo, hi, arm; } alloc_site;

#define FOR_USES(pl, r, n, u)                                                       \
    for (uint32_t k_ = 0; k_ < (n); k_++)                                            \
        for (uint32_t i_ = (r)->uses.start[(r)->queue[k_]]; i_ < (r)->uses.start[(r)->queue[k_] + 1]; i_++) \
            for (const use_rec *u = &(pl)->uses[(r)->uses.items[i_]]; u; u = NULL)

/* [first, last] use of the `n` sets in r->queue; returns the last use (NULL when
 * none) and whether some use touches the memory. */
static const use_rec *range_of_uses(planner *pl, reach *r, uint32_t n, buffer *b, bool *touched, bool *read)
{
    const use_rec *last = NULL;
    *touched = *read = false;
    FOR_USES(pl, r, n, u) {
        *touched |= u->touches;
        *read |= u->reads;
        b->start = last && b->start < u->point ? b->start : u->point;
        if (!last || u->point > last->point)
            last = u;
        b->end = last->point;
    }
    return last;
}

/* A loop containing a use is covered whole when the buffer also lives outside
 * it (allocated before, or used after), or when it is carried around its back
 * edge. */
static void cover_loops(planner *pl, reach *r, uint32_t n, buffer *b, uint32_t lo, uint32_t hi)
{
    FOR_USES(pl, r, n, u) {
        lo = u->point < lo ? u->point : lo;
        hi = u->point > hi ? u->point : hi;
    }
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t e = r->flows.start[r->queue[k]]; e < r->flows.start[r->queue[k] + 1]; e++) {
            uint32_t l = pl->flows[r->flows.items[e]].loop;
            if (l != NO_LOOP) {
                b->start = pl->loops[l].begin < b->start ? pl->loops[l].begin : b->start;
                b->end = pl->loops[l].end > b->end ? pl->loops[l].end : b->end;
            }
        }
    FOR_USES(pl, r, n, u)
        for (uint32_t l = u->loop; l != NO_LOOP; l = pl->loops[l].parent) {
            const loop_info *li = &pl->loops[l];
            if (lo >= li->begin && hi <= li->end)
                continue;
            b->start = li->begin < b->start ? li->begin : b->start;
            b->end = li->end > b->end ? li->end : b->end;
        }
}

static bool used_in_arm(planner *pl, reach *r, uint32_t n, const arm_info *a)
{
    FOR_USES(pl, r, n, u)
        if (u->point >= a->begin && u->point <= a->end)
            return true;
    return false;
}

static void add_hole(planner *pl, buffer *b, const arm_info *a)
{
    if (a->begin > a->end || a->begin <= b->start || a->end >= b->end)
        return;                          /* empty, or not strictly inside the range */
    span h = {a->begin, a->end};
    VEC_PUSH(pl->tmp, pl->holes, pl->nholes, pl->holes_cap, h);
    b->nholes++;
}

/* The arms of an scf.if in which the buffer is dead on every path, though they
 * lie inside [start, end]: when all its allocs are in the then arm (and its range
 * starts there), the else arm cannot reach it (dominance: only the if's results
 * carry it out, and a loop carrying it around would have moved its start out of
 * the arm). Such a buffer is confined to its arm: live only on paths through
 * it, so it never meets a buffer confined to the other arm of the same if,
 * even after the if (each path yields one of them); when its range ends in the else arm and starts before the if,
 * a path through the then arm has passed its last use. Neither applies when no
 * use of it is in the other arm (checked, not assumed), and a loop that covers
 * the if whole already moved start or end out of the arm. */
static void arm_holes(planner *pl, reach *r, uint32_t n, buffer *b, const alloc_site *site, const use_rec *last)
{
    b->holes = pl->nholes;
    b->confined = pl->nconfined;
    for (uint32_t a = site->arm; a != NO_ARM; a = pl->arms[a].parent) {
        const arm_info *own = &pl->arms[a], *other = &pl->arms[a ^ 1];
        if (site->lo < own->begin || site->hi > own->end || b->start < own->begin || used_in_arm(pl, r, n, other))
            continue;
        VEC_PUSH(pl->tmp, pl->confined_to, pl->nconfined, pl->confined_cap, a);
        b->nconfined++;
        if (a % 2 == 0)
            add_hole(pl, b, other);
    }
    if (last->point != b->end)
        return;
    for (uint32_t a = last->arm; a != NO_ARM; a = pl->arms[a].parent) {
        const arm_info *then = &pl->arms[a ^ 1];
        if (a % 2 == 1 && b->start < then->begin && !used_in_arm(pl, r, n, then))
            add_hole(pl, b, then);
    }
}

/* A buffer nothing reads: what it holds is never seen, so it needs its bytes only
 * while an op writes it (a write must not clobber a live buffer). */
static void write_points(planner *pl, reach *r, uint32_t n, buffer *b)
{
    b->write_only = true;
    b->holes = pl->nholes;
    b->nholes = 0;                       /* replaces the arm holes (wasted, in the arena) */
    FOR_USES(pl, r, n, u)
        if (u->touches) {
            span p = {u->point, u->point};
            VEC_PUSH(pl->tmp, pl->holes, pl->nholes, pl->holes_cap, p);
            b->nholes++;
        }
}

/* One buffer's range: the uses of every value that may hold it give [first,
 * last], widened over loops, with holes at if arms where it is dead. */
static void buffer_range(planner *pl, reach *r, buffer *b, const alloc_site *site)
{
    uint32_t n = reachable_sets(pl, r, site->set);
    bool touched, read;
    const use_rec *last = range_of_uses(pl, r, n, b, &touched, &read);
    if (!touched) {                      /* an empty range: it may share any bytes */
        b->unused = !b->fixed && !b->unknown;
        b->start = b->end = b->root_point;
        return;
    }
    cover_loops(pl, r, n, b, site->lo, site->hi);
    if (b->fixed || b->unknown)
        return;
    arm_holes(pl, r, n, b, site, last);  /* its arms, from the full range, even when write-only */
    if (!read)
        write_points(pl, r, n, b);
}

static void compute_ranges(planner *pl, const uint32_t *buf_of)
{
    uint32_t *key = PTOC_NEW_ARRAY(pl->tmp, uint32_t, (pl->nuses > pl->nflows ? pl->nuses : pl->nflows) + 1);
    reach r;
    for (uint32_t i = 0; i < pl->nuses; i++)
        key[i] = find(pl, pl->uses[i].node);
    r.uses = group_by_set(pl, pl->nuses, key);
    for (uint32_t i = 0; i < pl->nflows; i++)
        key[i] = find(pl, pl->flows[i].from);
    r.flows = group_by_set(pl, pl->nflows, key);
    r.queue = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 1);
    r.seen = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 1);
    r.stamp = 0;
    alloc_site *site = PTOC_NEW_ARRAY(pl->tmp, alloc_site, pl->nbufs + 1);
    for (uint32_t b = 0; b < pl->nbufs; b++)
        site[b] = (alloc_site){NO_SET, pl->bufs[b].root_point, pl->bufs[b].root_point, NO_ARM};
    for (uint32_t i = 0; i < pl->nallocs; i++) {
        const alloc_rec *a = &pl->allocs[i];
        uint32_t set = find(pl, a->node), b = buf_of[set], p = a->point;
        if (site[b].set == NO_SET)
            site[b].arm = a->arm;        /* the first alloc, the buffer's root */
        site[b].set = set;
        site[b].lo = p < site[b].lo ? p : site[b].lo;
        site[b].hi = p > site[b].hi ? p : site[b].hi;
    }
    for (uint32_t b = 0; b < pl->nbufs; b++)
        buffer_range(pl, &r, &pl->bufs[b], &site[b]);
}

/* ---------------------------------------------------------------- occupancy tree */

/* A segment tree over program points; each placed buffer sits in the canonical
 * nodes of its interval; `count` is the number of entries in a subtree, so a
 * query skips empty parts. */
typedef struct occ_tree {
    uint32_t leaves;
    uint32_t *head, *count;      /* per node */
    struct occ_entry { uint32_t buf, next; } *entries;
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
        struct occ_entry e = {id, t->head[n]};
        VEC_PUSH(t->arena, t->entries, t->nentries, t->entries_cap, e);
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

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

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

/* Best fit among the gaps left by `occ` (sorted by offset); on top otherwise. */
static uint64_t best_fit(const buffer *bufs, const uint32_t *occ, uint32_t n, uint64_t size, uint64_t align)
{
    uint64_t cursor = 0, best = UINT64_MAX, best_gap = UINT64_MAX;
    for (uint32_t i = 0; i < n; i++) {
        const buffer *o = &bufs[occ[i]];
        uint64_t start = align_up(cursor, align);
        if (o->offset >= start + size && o->offset - start < best_gap) {
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

static bool is_pinned(const buffer *b) { return b->fixed || b->unknown; }

/* Buffers the placement and the lower bound ignore: pinned elsewhere, or unused
 * (offset 0, overlapping anything, since nothing reads or writes them). */
static bool is_placed(const buffer *b) { return !is_pinned(b) && !b->unused; }

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
        if ((int)sp->ids[i] != sp->scratch && b->offset + b->size > peak)
            peak = b->offset + b->size;
    }
    return peak;
}

static uint64_t place_all(planner *pl, space_plan *sp, occ_tree *t, query *q, buf_cmp order_by,
                          uint32_t *order)
{
    uint64_t peak = insert_pinned(pl, sp, t);
    uint32_t n = 0;
    for (uint32_t i = 0; i < sp->n; i++)
        if (is_placed(&pl->bufs[sp->ids[i]]))
            order[n++] = sp->ids[i];
    sort_ids(pl->bufs, order, q->scratch, n, order_by);
    for (uint32_t i = 0; i < n; i++) {
        buffer *b = &pl->bufs[order[i]];
        q->n = 0;
        q->stamp++;
        for (uint32_t k = 0; k < b->npieces; k++)
            tree_query(t, 1, 0, t->leaves - 1, pl->pieces[b->pieces + k], q);
        drop_exclusive(pl, b, q);
        sort_ids(pl->bufs, q->out, q->scratch, q->n, by_offset);
        b->offset = best_fit(pl->bufs, q->out, q->n, b->size, sp->align);
        if (b->offset + b->size > peak)
            peak = b->offset + b->size;
        insert_buffer(pl, t, order[i]);
    }
    return peak;
}

/* Tries every ordering and keeps the offsets of the smallest peak. */
static void place_space(planner *pl, space_plan *sp)
{
    occ_tree t;
    tree_init(&t, pl->tmp, pl->npoints ? pl->npoints : 1);
    query q = {PTOC_NEW_ARRAY(pl->tmp, uint32_t, sp->n + 1), 0, PTOC_NEW_ARRAY(pl->tmp, uint32_t, sp->n + 1),
               PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nbufs + 1), 0};
    uint32_t *order = PTOC_NEW_ARRAY(pl->tmp, uint32_t, sp->n + 1);
    uint64_t *best = PTOC_NEW_ARRAY(pl->tmp, uint64_t, sp->n + 1);
    sp->peak = UINT64_MAX;
    for (size_t o = 0; o < sizeof orderings / sizeof orderings[0]; o++) {
        uint64_t peak = place_all(pl, sp, &t, &q, orderings[o], order);
        if (peak >= sp->peak)
            continue;
        sp->peak = peak;
        for (uint32_t i = 0; i < sp->n; i++)
            best[i] = pl->bufs[sp->ids[i]].offset;
    }
    for (uint32_t i = 0; i < sp->n; i++)
        pl->bufs[sp->ids[i]].offset = best[i];
}

/* A piece clipped to the buffer's innermost arm: after the if, a path holds it or
 * a buffer of the other arm, so it counts only where every path holds it. */
static span within_arm(const planner *pl, const buffer *b, span p)
{
    if (b->nconfined) {
        const arm_info *a = &pl->arms[pl->confined_to[b->confined]];
        p.lo = p.lo > a->begin ? p.lo : a->begin;
        p.hi = p.hi < a->end ? p.hi : a->end;
    }
    return p;
}

/* The largest total size live at one point on every path there, and that point. */
static void lower_bound(planner *pl, space_plan *sp)
{
    int64_t *delta = PTOC_NEW_ARRAY(pl->tmp, int64_t, pl->npoints + 2);
    for (uint32_t i = 0; i < sp->n; i++) {
        const buffer *b = &pl->bufs[sp->ids[i]];
        if ((int)sp->ids[i] == sp->scratch || b->unknown || b->unused)
            continue;
        for (uint32_t k = 0; k < b->npieces; k++) {
            span p = within_arm(pl, b, pl->pieces[b->pieces + k]);
            if (p.lo > p.hi)
                continue;
            delta[p.lo] += (int64_t)b->size;
            delta[p.hi + 1] -= (int64_t)b->size;
        }
    }
    int64_t live = 0;
    sp->lower_bound = 0;
    sp->lb_point = 0;
    for (uint32_t p = 0; p < pl->npoints; p++) {
        live += delta[p];
        if ((uint64_t)live > sp->lower_bound) {
            sp->lower_bound = (uint64_t)live;
            sp->lb_point = p;
        }
    }
}

static const char *space_name(uint32_t space)
{
    static const char *const names[] = {[PTOC_PTO_AS_MAT] = "MAT", [PTOC_PTO_AS_LEFT] = "LEFT",
                                        [PTOC_PTO_AS_RIGHT] = "RIGHT", [PTOC_PTO_AS_ACC] = "ACC",
                                        [PTOC_PTO_AS_VEC] = "VEC", [PTOC_PTO_AS_BIAS] = "BIAS",
                                        [PTOC_PTO_AS_SCALING] = "SCALING"};
    return on_chip(space) ? names[space] : "?";
}

static bool live_at(const planner *pl, const buffer *b, uint32_t point)
{
    for (uint32_t k = 0; k < b->npieces; k++)
        if (pl->pieces[b->pieces + k].lo <= point && point <= pl->pieces[b->pieces + k].hi)
            return true;
    return false;
}

/* Only planned buffers can overflow here: a manual address beyond the space is
 * codegen's error, with the address in the message. */
static bool check_capacity(planner *pl, const space_plan *sp)
{
    uint64_t planned_peak = 0;
    for (uint32_t i = 0; i < sp->n; i++) {
        const buffer *b = &pl->bufs[sp->ids[i]];
        if (!is_pinned(b) && b->offset + b->size > planned_peak)
            planned_peak = b->offset + b->size;
    }
    if (planned_peak <= sp->capacity)
        return true;
    uint64_t needed = sp->lower_bound > sp->capacity ? sp->lower_bound : planned_peak;
    ptoc_op_emit_error(pl->func, "%s overflow: %llu bytes needed at the peak, %llu available",
                       space_name(sp->space), (unsigned long long)needed, (unsigned long long)sp->capacity);
    for (uint32_t i = 0; i < sp->n; i++) {
        const buffer *b = &pl->bufs[sp->ids[i]];
        if ((int)sp->ids[i] != sp->scratch && !b->unknown && live_at(pl, b, sp->lb_point))
            ptoc_emit_note(pl->ctx, b->root->loc, "buffer of %llu bytes live here", (unsigned long long)b->size);
    }
    return false;
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
        else if (b->fixed)
            printf("  %s fixed %u:%u offset %llu size %llu\n", name, b->root->loc.line, b->root->loc.col, off, size);
        else if (b->unused)
            printf("  %s unused %u:%u offset %llu size %llu\n", name, b->root->loc.line, b->root->loc.col, off, size);
        else {
            printf("  %s buffer %u:%u live", name, b->root->loc.line, b->root->loc.col);
            for (uint32_t k = 0; k < b->npieces; k++)
                printf(" [%u, %u]", pl->pieces[b->pieces + k].lo, pl->pieces[b->pieces + k].hi);
            for (uint32_t k = 0; k < b->nconfined; k++)
                printf(" arm %u", pl->confined_to[b->confined + k]);
            printf(" offset %llu size %llu\n", off, size);
        }
    }
    printf("  %s peak %llu lower-bound %llu capacity %llu\n", name, (unsigned long long)sp->peak,
           (unsigned long long)sp->lower_bound, (unsigned long long)sp->capacity);
}

/* ---------------------------------------------------------------- driver */

static void add_scratch(planner *pl)
{
    buffer b = {pl->func, PTOC_PTO_AS_VEC, 0, 0, 0, SCRATCH_END - SCRATCH_BEGIN, SCRATCH_BEGIN, true, false, false};
    VEC_PUSH(pl->tmp, pl->bufs, pl->nbufs, pl->bufs_cap, b);
}

static int by_lo(const void *a, const void *b)
{
    uint32_t x = ((const span *)a)->lo, y = ((const span *)b)->lo;
    return (x > y) - (x < y);
}

/* [start, end] minus the buffer's holes, as sorted disjoint pieces. */
static void make_pieces(planner *pl, buffer *b)
{
    span *h = b->nholes ? &pl->holes[b->holes] : NULL;
    if (b->nholes > 1)
        qsort(h, b->nholes, sizeof *h, by_lo);
    b->pieces = pl->npieces;
    b->npieces = 0;
    if (b->unused)
        return;
    if (b->write_only) {                 /* its points, adjacent ones joined */
        for (uint32_t k = 0; k < b->nholes; k++) {
            span *last = b->npieces ? &pl->pieces[pl->npieces - 1] : NULL;
            if (last && h[k].lo <= last->hi + 1)
                last->hi = h[k].hi > last->hi ? h[k].hi : last->hi;
            else {
                VEC_PUSH(pl->tmp, pl->pieces, pl->npieces, pl->pieces_cap, h[k]);
                b->npieces++;
            }
        }
        return;
    }
    uint32_t from = b->start;
    for (uint32_t k = 0; k <= b->nholes; k++) {
        uint32_t to = k < b->nholes ? h[k].lo : b->end + 1;     /* exclusive */
        if (to > from) {
            span p = {from, to - 1};
            VEC_PUSH(pl->tmp, pl->pieces, pl->npieces, pl->pieces_cap, p);
            b->npieces++;
        }
        if (k < b->nholes && h[k].hi + 1 > from)
            from = h[k].hi + 1;
    }
}

/* Pinned buffers hold their bytes for the whole function; sizes are aligned. */
static void finish_buffers(planner *pl)
{
    for (uint32_t i = 0; i < pl->nbufs; i++) {
        buffer *b = &pl->bufs[i];
        if (b->fixed) {
            b->start = 0;
            b->end = pl->npoints ? pl->npoints - 1 : 0;
            b->nholes = 0;
        }
        make_pieces(pl, b);
        b->size = align_up(b->size ? b->size : 1, ptoc_pto_space_alignment((ptoc_pto_address_space)b->space));
    }
}

static bool plan_space(planner *pl, uint32_t space, bool print)
{
    space_plan sp = {space, 0, PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nbufs + 1),
                     ptoc_pto_space_capacity(pl->arch, (ptoc_pto_address_space)space),
                     ptoc_pto_space_alignment((ptoc_pto_address_space)space), 0, 0, 0, -1};
    for (uint32_t i = 0; i < pl->nbufs; i++) {
        if (pl->bufs[i].space != space)
            continue;
        if (pl->bufs[i].root == pl->func)
            sp.scratch = (int)sp.n;
        sp.ids[sp.n++] = i;
    }
    bool any_planned = false;
    for (uint32_t i = 0; i < sp.n; i++)
        any_planned |= !is_pinned(&pl->bufs[sp.ids[i]]);
    if (!any_planned)
        return true;                   /* nothing to place: manual addresses only */
    if (sp.scratch >= 0)
        sp.scratch = (int)sp.ids[sp.scratch];
    place_space(pl, &sp);
    lower_bound(pl, &sp);
    if (print)
        print_space(pl, &sp);
    return check_capacity(pl, &sp);
}

/* pto.planned_offset on every address-less alloc of a planned set. */
static void annotate(planner *pl, const uint32_t *buf_of, ptoc_arena *arena)
{
    ptoc_type *i64 = ptoc_type_int(pl->ctx, 64, PTOC_SIGNLESS);
    ptoc_ident *name = ptoc_ident_cstr(pl->ctx, "pto.planned_offset");
    for (uint32_t i = 0; i < pl->nallocs; i++) {
        const alloc_rec *a = &pl->allocs[i];
        const buffer *b = &pl->bufs[buf_of[find(pl, a->node)]];
        if (a->kind == ALLOC_PLANNED && !b->unknown)
            ptoc_op_set_attr(a->op, arena, name, ptoc_attr_int(pl->ctx, i64, (int64_t)b->offset));
    }
}

static bool print_requested(ptoc_context *ctx, const ptoc_pass_options *opts)
{
    const char *v = opts ? ptoc_pass_option(opts, "print") : NULL;
    if (!v)
        v = ptoc_context_option(ctx, "pto-test-print-memplan");
    return v && (strcmp(v, "true") == 0 || strcmp(v, "1") == 0);
}

static const char *func_name(const ptoc_op *func)
{
    ptoc_attr *a = ptoc_op_attr(func, "sym_name");
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : "?";
}

static bool run_plan_memory(ptoc_op *func, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    ptoc_context *ctx = ptoc_op_context(func);
    planner pl = {0};
    pl.ctx = ctx;
    pl.tmp = ptoc_arena_create(ctx);
    pl.func = func;
    pl.cur_arm = NO_ARM;
    pl.arch = ptoc_pto_target_arch(func, NULL);
    map_init(&pl.node_of, pl.tmp, 256);
    map_init(&pl.kind_of, pl.tmp, 64);
    number_regions(&pl, func, NO_LOOP);
    bool ok = !pl.bad;
    uint32_t *buf_of = make_buffers(&pl);
    compute_ranges(&pl, buf_of);
    if (pl.needs_scratch && (pl.arch == PTOC_PTO_ARCH_A2 || pl.arch == PTOC_PTO_ARCH_A3))
        add_scratch(&pl);
    finish_buffers(&pl);
    bool print = print_requested(ctx, opts);
    if (ok && print)
        printf("memplan @%s\n", func_name(func));
    for (uint32_t s = PTOC_PTO_AS_MAT; ok && s <= PTOC_PTO_AS_SCALING; s++)
        ok = plan_space(&pl, s, print);
    if (ok)
        annotate(&pl, buf_of, arena);
    ptoc_arena_destroy(pl.tmp);
    return ok;
}

static const char *const plan_memory_options[] = {"print", NULL};

const ptoc_pass_def ptoc_plan_memory_pass = {
    .name = "pto-plan-memory",
    .summary = "Give every address-less on-chip buffer an offset (pto.planned_offset)",
    .anchor = "func.func",
    .run = run_plan_memory,
    .option_names = plan_memory_options,
};
