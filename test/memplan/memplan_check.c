/* memplan_check.c: an independent checker of memory plans.
 *
 * It reads the plan from the IR (each pto.alloc_tile's `addr = %c` constant, or
 * its pto.planned_offset attribute) and judges it against liveness computed here,
 * without the planner's code or its notion of live ranges: the function is
 * executed abstractly along many paths (all-then, all-else and random choices
 * for every dynamic scf.if; every scf.for runs min(trips, 3) times, 3 without
 * constant bounds: a first, a middle and a last trip, which shows each value
 * carried around the back edge and a trip that is neither first nor last; an
 * scf.while's condition continues like an if's then, at most three times). On
 * a path, each op is one step;
 * tile_buf SSA values (alloc results, iter_args, for/if/while results) are bound to the
 * alloc they stand for at run time, so aliases follow the path taken. A DPS op
 * reads its tile ins and writes (wholly) its tile outs. A buffer is live from a
 * write to the last read before its next write: one segment per write.
 *
 * Two segments of different buffers that share a step must not share a byte,
 * with one exception: an op may write its out at a dying in's base address (in
 * place) when the op table allows it for that in on the arch
 * (ptoc_pto_inplace_allowed, the rule the hardware library gives) and the
 * out's buffer is no larger than the in's. Every buffer must be aligned for
 * its space and end within its capacity. The lower bound of a space is the
 * largest total size of segments sharing a step (such an in-place handover
 * counts once).
 * MEMPLAN_TRACE=1 in the environment prints every path's segments.
 */
#include "memplan.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- growable arrays */

#define GROW(arr, n, cap)                                                                          \
    do {                                                                                           \
        if ((n) == (cap)) {                                                                        \
            (cap) = (cap) ? 2 * (cap) : 64;                                                        \
            void *grown_ = realloc((arr), sizeof *(arr) * (size_t)(cap));                          \
            if (!grown_)                                                                           \
                abort();                                                                           \
            (arr) = grown_;                                                                        \
        }                                                                                          \
    } while (0)

typedef struct buffer {
    ptoc_op *alloc;
    uint32_t space;
    uint64_t size, offset;
    bool has_offset;
    bool touched;                       /* some path reads or writes it */
} buffer;

typedef struct segment {
    uint32_t buf, start, end;
    bool starts_by_write, ends_by_read;
    bool continues;                     /* the buffer's previous segment ends at `start` (in place) */
} segment;

/* An op at `step` that may write its out (buffer `out`) over its dying in
 * (buffer `in`) in place (ptoc_pto_inplace_allowed). */
typedef struct share { uint32_t step, in, out; } share;

/* Per buffer while a path runs: the open segment. */
typedef struct open_seg {
    int64_t start, last_read;           /* -1: none */
    bool by_write, continues;
} open_seg;

/* SSA value -> buffer index, open addressing on the pointer. */
typedef struct env_slot {
    const ptoc_value *key;
    uint32_t buf;
} env_slot;

typedef struct checker {
    const mp_check_options *opts;
    ptoc_pto_arch arch;
    buffer *bufs;
    uint32_t nbufs, bufs_cap;
    env_slot *env;                      /* on the current path */
    env_slot *allocs;                   /* alloc_tile result -> its buffer, fixed */
    uint32_t env_cap;                   /* power of two, both tables */
    segment *segs;
    uint32_t nsegs, segs_cap;
    share *shares;                      /* on the current path, in step order */
    uint32_t nshares, shares_cap;
    uint8_t *together;                  /* nbufs x nbufs: live at one step of some path, not in place */
    open_seg *open;
    uint32_t step;
    int path_mode;                      /* 0 all-then, 1 all-else, 2 random */
    uint64_t rng;
    mp_report *report;
    /* the first pair of buffers found live together in one space (corruption test) */
    int64_t live_pair[2];
} checker;

/* ---------------------------------------------------------------- environment */

static env_slot *table_find(env_slot *table, uint32_t cap, const ptoc_value *v)
{
    uint32_t h = (uint32_t)(((uintptr_t)v >> 4) * 2654435761u) & (cap - 1);
    while (table[h].key && table[h].key != v)
        h = (h + 1) & (cap - 1);
    return &table[h];
}

static void env_bind(checker *c, const ptoc_value *v, uint32_t buf)
{
    env_slot *s = table_find(c->env, c->env_cap, v);
    s->key = v;
    s->buf = buf;
}

/* The buffer a tile_buf value stands for on this path, or -1. */
static int64_t env_get(checker *c, const ptoc_value *v)
{
    env_slot *s = table_find(c->env, c->env_cap, v);
    return s->key ? (int64_t)s->buf : -1;
}

/* ---------------------------------------------------------------- the plan */

static bool is_tile_buf(const ptoc_value *v) { return ptoc_pto_tile_buf(v->type) != NULL; }

static uint64_t tile_bytes(const ptoc_pto_tile_desc *d)
{
    return (uint64_t)d->rows * (uint64_t)d->cols * ((ptoc_type_bitwidth(d->elem) + 7) / 8);
}

/* The constant address of an alloc_tile: its `addr = %c` (ptoc_pto_buffer_addr)
 * or the pto.planned_offset attribute. */
static bool alloc_offset(const ptoc_op *op, uint64_t *out)
{
    ptoc_pto_addr addr = ptoc_pto_buffer_addr(op);
    if (addr.given) {
        *out = (uint64_t)addr.offset;
        return addr.known;
    }
    const ptoc_attr *planned = ptoc_op_attr(op, "pto.planned_offset");
    if (!planned || planned->kind != PTOC_ATTR_INTEGER)
        return false;
    *out = (uint64_t)planned->u.integer.value;
    return true;
}

static ptoc_walk_result collect_alloc(ptoc_op *op, void *user)
{
    checker *c = user;
    if (!ptoc_op_is(op, "pto.alloc_tile") || op->nresults != 1)
        return PTOC_WALK_ADVANCE;
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(op->results[0].type);
    if (!d)
        return PTOC_WALK_ADVANCE;
    GROW(c->bufs, c->nbufs, c->bufs_cap);
    buffer *b = &c->bufs[c->nbufs++];
    b->alloc = op;
    b->space = d->loc;
    b->size = tile_bytes(d);
    b->has_offset = alloc_offset(op, &b->offset);
    b->touched = false;
    return PTOC_WALK_ADVANCE;
}

/* ---------------------------------------------------------------- diagnostics */

static void describe(checker *c, uint32_t i, char *out, size_t n)
{
    const buffer *b = &c->bufs[i];
    snprintf(out, n, "buffer #%u (line %u, %s) [%llu, %llu)", i, b->alloc->loc.line,
             ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, b->space), (unsigned long long)b->offset,
             (unsigned long long)(b->offset + b->size));
}

static void violation(checker *c, uint32_t *counter, const char *what, int64_t a, int64_t b, uint32_t step)
{
    (*counter)++;
    c->report->violations++;
    if (!c->opts->log || c->report->violations > 10)
        return;
    char da[160] = "", db[160] = "";
    if (a >= 0)
        describe(c, (uint32_t)a, da, sizeof da);
    if (b >= 0)
        describe(c, (uint32_t)b, db, sizeof db);
    fprintf(c->opts->log, "  violation: %s: %s%s%s (step %u, path mode %d)\n", what, da, b >= 0 ? " and " : "",
            db, step, c->path_mode);
}

static void check_placement(checker *c)
{
    for (uint32_t i = 0; i < c->nbufs; i++) {
        const buffer *b = &c->bufs[i];
        if (!b->has_offset) {
            violation(c, &c->report->unplanned, "no constant address", i, -1, 0);
            continue;
        }
        uint64_t cap = ptoc_pto_space_capacity(c->arch, b->space);
        if (b->offset % ptoc_pto_space_alignment(c->arch, b->space) != 0)
            violation(c, &c->report->misaligned, "misaligned", i, -1, 0);
        if (b->offset + b->size > cap)
            violation(c, &c->report->out_of_bounds, "beyond the space's capacity", i, -1, 0);
        if (b->space < MP_MAX_SPACES)
            c->report->capacity[b->space] = cap;
    }
}

/* ---------------------------------------------------------------- one path */

static void close_segment(checker *c, uint32_t buf)
{
    open_seg *o = &c->open[buf];
    if (o->start < 0)
        return;
    c->bufs[buf].touched = true;
    GROW(c->segs, c->nsegs, c->segs_cap);
    segment *s = &c->segs[c->nsegs++];
    s->buf = buf;
    s->start = (uint32_t)o->start;
    s->end = (uint32_t)(o->last_read > o->start ? o->last_read : o->start);
    s->starts_by_write = o->by_write;
    s->ends_by_read = o->last_read >= 0 && (uint32_t)o->last_read == s->end;
    s->continues = o->continues;
    o->start = o->last_read = -1;
}

static void note_read(checker *c, const ptoc_value *v)
{
    int64_t b = env_get(c, v);
    if (b < 0)
        return;
    open_seg *o = &c->open[b];
    if (o->start < 0) {                 /* read before any write: live from the start */
        o->start = 0;
        o->by_write = o->continues = false;
    }
    o->last_read = c->step;
}

static void note_write(checker *c, const ptoc_value *v)
{
    int64_t b = env_get(c, v);
    if (b < 0)
        return;
    bool read_here = c->open[b].last_read == (int64_t)c->step;
    close_segment(c, (uint32_t)b);
    c->open[b].start = c->step;
    c->open[b].by_write = true;
    c->open[b].continues = read_here;
}

static bool choose_then(checker *c)
{
    if (c->path_mode < 2)
        return c->path_mode == 0;
    c->rng ^= c->rng << 13;
    c->rng ^= c->rng >> 7;
    c->rng ^= c->rng << 17;
    return c->rng & 1;
}

static bool constant_index(const ptoc_value *v, int64_t *out)
{
    const ptoc_op *def = ptoc_value_def(v);
    const ptoc_attr *a = def && ptoc_op_is(def, "arith.constant") ? ptoc_op_attr(def, "value") : NULL;
    if (!a || a->kind != PTOC_ATTR_INTEGER)
        return false;
    *out = a->u.integer.value;
    return true;
}

static ptoc_op *run_block(checker *c, ptoc_block *b);

/* Binds `n` targets to the buffers of `n` sources (iter_args, results). */
static void bind_all(checker *c, ptoc_value *const *targets, const ptoc_use *sources, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (is_tile_buf(targets[i])) {
            int64_t b = env_get(c, sources[i].value);
            if (b >= 0)
                env_bind(c, targets[i], (uint32_t)b);
        }
}

static void bind_results(checker *c, ptoc_op *op, const ptoc_op *yield)
{
    for (uint32_t i = 0; yield && i < op->nresults && i < yield->noperands; i++)
        if (is_tile_buf(&op->results[i])) {
            int64_t b = env_get(c, yield->operands[i].value);
            if (b >= 0)
                env_bind(c, &op->results[i], (uint32_t)b);
        }
}

static void run_for(checker *c, ptoc_op *op)
{
    int64_t lo = 0, hi = 3, st = 1, trips = 3;
    if (constant_index(ptoc_op_operand(op, 0), &lo) && constant_index(ptoc_op_operand(op, 1), &hi) &&
        constant_index(ptoc_op_operand(op, 2), &st) && st > 0)
        trips = hi > lo ? (hi - lo + st - 1) / st : 0;
    if (trips > 3)
        trips = 3;
    ptoc_block *body = op->regions[0].first;
    uint32_t ncarried = op->noperands - 3;
    /* before the first iteration, iter_args are the inits; results too if no trip */
    bind_all(c, body->args + 1, op->operands + 3, ncarried);
    ptoc_value *results[64];
    for (uint32_t i = 0; i < op->nresults && i < 64; i++)
        results[i] = &op->results[i];
    bind_all(c, results, op->operands + 3, op->nresults < 64 ? op->nresults : 64);
    for (int64_t t = 0; t < trips; t++) {
        ptoc_op *yield = run_block(c, body);
        if (!yield)
            continue;
        bind_all(c, body->args + 1, yield->operands, ncarried < yield->noperands ? ncarried : yield->noperands);
        bind_results(c, op, yield);
    }
}

/* Binds `n` targets to the buffers of operands [from, from + n) of `op`. */
static void bind_operands(checker *c, ptoc_value *const *targets, const ptoc_op *op, uint32_t from, uint32_t n)
{
    for (uint32_t i = 0; i < n && from + i < op->noperands; i++)
        if (is_tile_buf(targets[i])) {
            int64_t b = env_get(c, op->operands[from + i].value);
            if (b >= 0)
                env_bind(c, targets[i], (uint32_t)b);
        }
}

/* scf.while: the before region runs, then its scf.condition continues (like an
 * if's then, at most three times) into the after region, whose args get the
 * condition's operands and whose yield becomes the before region's args, or
 * exits with the condition's operands as results. */
static void run_while(checker *c, ptoc_op *op)
{
    ptoc_block *before = op->regions[0].first, *after = op->nregions > 1 ? op->regions[1].first : NULL;
    if (!before || !after)
        return;
    bind_operands(c, before->args, op, 0, before->nargs);
    for (int iter = 0;; iter++) {
        ptoc_op *cond = run_block(c, before);
        if (!cond)
            return;
        if (iter == 3 || !choose_then(c)) {
            ptoc_value *results[64];
            for (uint32_t i = 0; i < op->nresults && i < 64; i++)
                results[i] = &op->results[i];
            bind_operands(c, results, cond, 1, op->nresults < 64 ? op->nresults : 64);
            return;
        }
        bind_operands(c, after->args, cond, 1, after->nargs);
        ptoc_op *yield = run_block(c, after);
        if (yield)
            bind_operands(c, before->args, yield, 0, before->nargs);
    }
}

static void run_if(checker *c, ptoc_op *op)
{
    bool then = choose_then(c);
    ptoc_region *r = &op->regions[then ? 0 : 1];
    if (!r->first)
        return;
    ptoc_op *yield = run_block(c, r->first);
    bind_results(c, op, yield);
}

/* The ins of a DPS op with one tile out that the op table lets it write that
 * out over in place on the arch, as shares of this step. */
static void note_shares(checker *c, ptoc_op *op, uint32_t nins, uint32_t nouts)
{
    if (nouts != 1 || nins >= op->noperands || !is_tile_buf(op->operands[nins].value))
        return;
    const ptoc_value *out = op->operands[nins].value;
    for (uint32_t i = 0; i < nins; i++) {
        const ptoc_value *in = op->operands[i].value;
        int64_t a = env_get(c, in), b = env_get(c, out);
        if (a < 0 || b < 0 || !is_tile_buf(in) || !ptoc_pto_inplace_allowed(op, c->arch, i, in->type, out->type))
            continue;
        GROW(c->shares, c->nshares, c->shares_cap);
        c->shares[c->nshares++] = (share){c->step, (uint32_t)a, (uint32_t)b};
    }
}

/* A DPS pto op (tload too, whose form is custom) reads its tile ins and writes
 * its tile outs, and the ins it uses as scratch (ptoc_pto_effects.scratch_ins:
 * tsel/tsels' tmp), whose old contents it never reads; any other op with tile
 * operands is taken to read them. */
static void run_op(checker *c, ptoc_op *op)
{
    uint32_t nins = op->noperands, nouts = 0;
    const ptoc_pto_op_info *info = ptoc_pto_op_info_of(op);
    uint32_t scratch = info ? ptoc_pto_op_effects(op)->scratch_ins : 0;
    if (!info || !ptoc_pto_dps_split(op, &nins, &nouts))
        nins = op->noperands, nouts = 0;
    note_shares(c, op, nins, nouts);
    for (uint32_t i = 0; i < nins && i < op->noperands && i < 32; i++)
        if (is_tile_buf(op->operands[i].value) && (scratch & (1u << i)))
            note_write(c, op->operands[i].value);
    for (uint32_t i = 0; i < op->noperands; i++)
        if (is_tile_buf(op->operands[i].value) && !(i >= nins && i < nins + nouts))
            note_read(c, op->operands[i].value);
    for (uint32_t i = nins; i < nins + nouts && i < op->noperands; i++)
        if (is_tile_buf(op->operands[i].value))
            note_write(c, op->operands[i].value);
    c->step++;
}

/* Runs a block; returns its scf.yield or scf.condition (NULL if none). */
static ptoc_op *run_block(checker *c, ptoc_block *b)
{
    for (ptoc_op *op = b->first; op; op = op->next) {
        if (ptoc_op_is(op, "scf.yield") || ptoc_op_is(op, "scf.condition"))
            return op;
        if (ptoc_op_is(op, "pto.alloc_tile")) {
            env_slot *a = table_find(c->allocs, c->env_cap, &op->results[0]);
            if (a->key)
                env_bind(c, &op->results[0], a->buf);
        } else if (ptoc_op_is(op, "scf.for")) {
            run_for(c, op);
        } else if (ptoc_op_is(op, "scf.if")) {
            run_if(c, op);
        } else if (ptoc_op_is(op, "scf.while")) {
            run_while(c, op);
        } else if (!ptoc_op_is(op, "func.return") && !ptoc_op_is(op, "arith.constant")) {
            run_op(c, op);
        }
    }
    return NULL;
}

/* ---------------------------------------------------------------- judging a path */

static int by_start(const void *a, const void *b)
{
    const segment *x = a, *y = b;
    return x->start != y->start ? (x->start < y->start ? -1 : 1) : 0;
}

static bool bytes_overlap(const buffer *a, const buffer *b)
{
    return a->offset < b->offset + b->size && b->offset < a->offset + a->size;
}

/* The segments meet only at one op that reads x (its last read) and writes y. */
static bool handover(const segment *x, const segment *y)
{
    return (x->end == y->start && x->ends_by_read && y->starts_by_write) ||
           (y->end == x->start && y->ends_by_read && x->starts_by_write);
}

/* Whether the op at `step` may write buffer `out` over buffer `in` in place. */
static bool share_allowed(const checker *c, uint32_t step, uint32_t in, uint32_t out)
{
    uint32_t lo = 0, hi = c->nshares;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->shares[mid].step < step)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < c->nshares && c->shares[lo].step == step; lo++)
        if (c->shares[lo].in == in && c->shares[lo].out == out)
            return true;
    return false;
}

/* Segment x ends by a read at the op that starts y by a write, which may write
 * y's buffer (no larger) over x's in place. */
static bool hands_over(const checker *c, const segment *x, const segment *y)
{
    return x->end == y->start && x->ends_by_read && y->starts_by_write &&
           c->bufs[y->buf].size <= c->bufs[x->buf].size && share_allowed(c, x->end, x->buf, y->buf);
}

/* The two may share bytes in place (in either direction). */
static bool may_share(const checker *c, const segment *x, const segment *y)
{
    return hands_over(c, x, y) || hands_over(c, y, x);
}

/* An op writing its out at a dying in's base address, as the op table allows. */
static bool in_place(const checker *c, const segment *x, const segment *y)
{
    return c->bufs[x->buf].offset == c->bufs[y->buf].offset && may_share(c, x, y);
}

static void judge_pair(checker *c, const segment *x, const segment *y)
{
    const buffer *a = &c->bufs[x->buf], *b = &c->bufs[y->buf];
    if (x->buf == y->buf || a->space != b->space)
        return;
    if (c->live_pair[0] < 0 && !handover(x, y)) {
        c->live_pair[0] = x->buf;
        c->live_pair[1] = y->buf;
    }
    if (!may_share(c, x, y)) {                        /* else they may share in place */
        c->together[(size_t)x->buf * c->nbufs + y->buf] = 1;
        c->together[(size_t)y->buf * c->nbufs + x->buf] = 1;
    }
    if (a->has_offset && b->has_offset && bytes_overlap(a, b) && !in_place(c, x, y))
        violation(c, &c->report->overlaps, "live at the same time and overlapping", x->buf, y->buf,
                  x->start > y->start ? x->start : y->start);
}

/* Raises `lower` to the most bytes per space that `segs` hold at one step
 * (a difference array over the path's steps). */
/* An op may write its out over a dying in (the in-place exception), so a
 * segment that starts by a write where another, no smaller, ends by a read at
 * an op allowed to do so shares its bytes at that step: count the pair once. */
#define MAX_DYING 4   /* dying reads remembered per step (ops here read at most 3 tiles) */

static void discount_handovers(checker *c, const segment *segs, uint32_t n, int64_t *delta)
{
    uint32_t *dying = calloc((size_t)(c->step + 1) * MAX_DYING, sizeof *dying);   /* segment + 1; 0: none */
    if (!dying)
        abort();
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; segs[i].ends_by_read && k < MAX_DYING; k++)
            if (!dying[(size_t)segs[i].end * MAX_DYING + k]) {
                dying[(size_t)segs[i].end * MAX_DYING + k] = i + 1;
                break;
            }
    for (uint32_t i = 0; i < n; i++) {
        const segment *y = &segs[i];
        const buffer *b = &c->bufs[y->buf];
        for (uint32_t k = 0; y->starts_by_write && !y->continues && k < MAX_DYING; k++) {
            uint32_t *slot = &dying[(size_t)y->start * MAX_DYING + k];
            const buffer *a = *slot ? &c->bufs[segs[*slot - 1].buf] : NULL;
            if (a && a != b && a->space == b->space && b->size <= a->size &&
                share_allowed(c, y->start, segs[*slot - 1].buf, y->buf)) {
                delta[(size_t)y->start * MP_MAX_SPACES + b->space] -= (int64_t)b->size;
                delta[(size_t)(y->start + 1) * MP_MAX_SPACES + b->space] += (int64_t)b->size;
                *slot = 0;
                break;
            }
        }
    }
    free(dying);
}

static void raise_lower_bound(checker *c, const segment *segs, uint32_t n, uint64_t *lower)
{
    int64_t *delta = calloc((size_t)(c->step + 2) * MP_MAX_SPACES, sizeof *delta);
    if (!delta)
        abort();
    discount_handovers(c, segs, n, delta);
    for (uint32_t i = 0; i < n; i++) {
        const buffer *b = &c->bufs[segs[i].buf];
        uint32_t start = segs[i].start + segs[i].continues;   /* count a buffer once per step */
        if (start > segs[i].end)
            continue;
        delta[(size_t)start * MP_MAX_SPACES + b->space] += (int64_t)b->size;
        delta[(size_t)(segs[i].end + 1) * MP_MAX_SPACES + b->space] -= (int64_t)b->size;
    }
    int64_t live[MP_MAX_SPACES] = {0};
    for (uint32_t s = 0; s <= c->step; s++)
        for (uint32_t k = 0; k < MP_MAX_SPACES; k++) {
            live[k] += delta[(size_t)s * MP_MAX_SPACES + k];
            if ((uint64_t)live[k] > lower[k])
                lower[k] = (uint64_t)live[k];
        }
    free(delta);
}

static void judge_path(checker *c)
{
    if (c->nsegs > 1)             /* qsort(NULL, 0, ...) is undefined */
        qsort(c->segs, c->nsegs, sizeof *c->segs, by_start);
    if (getenv("MEMPLAN_TRACE"))
        for (uint32_t i = 0; i < c->nsegs; i++)
            fprintf(stderr, "  path %d: buffer #%u live [%u, %u]%s%s\n", c->path_mode, c->segs[i].buf,
                    c->segs[i].start, c->segs[i].end, c->segs[i].starts_by_write ? " from a write" : "",
                    c->segs[i].ends_by_read ? " to a read" : "");
    for (uint32_t i = 0; i < c->nsegs; i++)
        for (uint32_t j = i + 1; j < c->nsegs && c->segs[j].start <= c->segs[i].end; j++)
            judge_pair(c, &c->segs[i], &c->segs[j]);
    raise_lower_bound(c, c->segs, c->nsegs, c->report->lower);
}

static void run_path(checker *c, ptoc_op *func, int mode)
{
    memset(c->env, 0, sizeof *c->env * c->env_cap);
    for (uint32_t i = 0; i < c->nbufs; i++)
        c->open[i] = (open_seg){-1, -1, false, false};
    c->nsegs = 0;
    c->nshares = 0;
    c->step = 0;
    c->path_mode = mode;
    if (func->nregions && func->regions[0].first)
        run_block(c, func->regions[0].first);
    for (uint32_t i = 0; i < c->nbufs; i++)
        close_segment(c, i);
    judge_path(c);
}

/* ---------------------------------------------------------------- the corruption test */

/* Moves the second buffer of the first live pair onto the first one. */
static bool corrupt_plan(checker *c, ptoc_op *func)
{
    c->live_pair[0] = -1;
    mp_report scratch = {0};
    mp_report *real = c->report;
    c->report = &scratch;
    run_path(c, func, 0);
    for (uint32_t p = 0; c->live_pair[0] < 0 && p < c->opts->random_paths; p++)
        run_path(c, func, 2);
    c->report = real;
    if (c->live_pair[0] < 0)
        return false;
    c->bufs[c->live_pair[1]].offset = c->bufs[c->live_pair[0]].offset;
    return true;
}

/* ---------------------------------------------------------------- entry */

/* The footprint of each space: the highest byte of a buffer some path touches
 * (a buffer no op reads or writes holds nothing, whatever its address). */
static void raise_peak(checker *c)
{
    for (uint32_t i = 0; i < c->nbufs; i++) {
        const buffer *b = &c->bufs[i];
        if (b->touched && b->has_offset && b->space < MP_MAX_SPACES && b->offset + b->size > c->report->peak[b->space])
            c->report->peak[b->space] = b->offset + b->size;
    }
}

/* The clique bound of a space: the largest total size of buffers that are
 * pairwise live at one step of some path (a handover between buffers of one
 * size does not count: they may share bytes in place). Two such buffers can
 * never share a byte, so every plan of this program, which gives each alloc
 * one address, needs at least that much; it is never below the per-step
 * bound (the buffers live at one step are such a set). Branch and bound over
 * the touched buffers, largest first, with a budget of search steps: any set
 * found is a valid bound, so stopping early only makes it weaker. */
typedef struct clique_search {
    const checker *c;
    uint32_t *cand;                     /* candidates, per depth: n slots each */
    uint64_t best, steps;
} clique_search;

#define CLIQUE_BUDGET 2000000u

static void clique_grow(clique_search *s, uint32_t *cand, uint32_t n, uint64_t weight)
{
    if (weight > s->best)
        s->best = weight;
    uint64_t rest = 0;
    for (uint32_t i = 0; i < n; i++)
        rest += s->c->bufs[cand[i]].size;
    for (uint32_t i = 0; i < n && weight + rest > s->best && s->steps < CLIQUE_BUDGET; i++) {
        uint32_t v = cand[i], m = 0;
        uint32_t *next = cand + n;       /* the next depth's slots */
        s->steps++;
        for (uint32_t j = i + 1; j < n; j++)
            if (s->c->together[(size_t)v * s->c->nbufs + cand[j]])
                next[m++] = cand[j];
        clique_grow(s, next, m, weight + s->c->bufs[v].size);
        rest -= s->c->bufs[v].size;
    }
}

static void raise_clique_bound(checker *c, uint32_t space)
{
    uint32_t n = 0;
    uint32_t *cand = malloc(sizeof *cand * ((size_t)c->nbufs * (c->nbufs + 1) + 1));
    if (!cand)
        abort();
    for (uint32_t i = 0; i < c->nbufs; i++)
        if (c->bufs[i].touched && c->bufs[i].space == space)
            cand[n++] = i;
    for (uint32_t i = 1; i < n; i++) {   /* largest first (insertion sort: a few dozen) */
        uint32_t v = cand[i], j = i;
        for (; j > 0 && c->bufs[cand[j - 1]].size < c->bufs[v].size; j--)
            cand[j] = cand[j - 1];
        cand[j] = v;
    }
    clique_search s = {c, cand, 0, 0};
    clique_grow(&s, cand, n, 0);
    if (s.best > c->report->lower_clique[space])
        c->report->lower_clique[space] = s.best;
    free(cand);
}

static ptoc_walk_result count_op_values(ptoc_op *op, void *user)
{
    uint32_t *n = user;
    *n += op->nresults;
    for (uint32_t r = 0; r < op->nregions; r++)
        for (ptoc_block *b = op->regions[r].first; b; b = b->next)
            *n += b->nargs;
    return PTOC_WALK_ADVANCE;
}

static void check_func(checker *c, ptoc_op *func)
{
    c->arch = ptoc_pto_target_arch(func, NULL);
    c->nbufs = 0;
    ptoc_walk_pre(func, collect_alloc, c);
    uint32_t nvalues = 0;
    ptoc_walk_pre(func, count_op_values, &nvalues);
    c->env_cap = 64;
    while (c->env_cap < 2 * nvalues + 2)
        c->env_cap *= 2;
    c->env = realloc(c->env, sizeof *c->env * c->env_cap);
    c->allocs = calloc(c->env_cap, sizeof *c->allocs);
    c->open = realloc(c->open, sizeof *c->open * (c->nbufs + 1));
    free(c->together);
    c->together = calloc((size_t)c->nbufs * c->nbufs + 1, 1);
    if (!c->env || !c->allocs || !c->open || !c->together)
        abort();
    for (uint32_t i = 0; i < c->nbufs; i++) {
        env_slot *a = table_find(c->allocs, c->env_cap, &c->bufs[i].alloc->results[0]);
        a->key = &c->bufs[i].alloc->results[0];
        a->buf = i;
    }
    c->report->nbufs += c->nbufs;
    if (c->opts->corrupt) {
        bool done = corrupt_plan(c, func);
        if (c->opts->corrupted)
            *c->opts->corrupted = *c->opts->corrupted || done;
    }
    check_placement(c);
    c->rng = c->opts->path_seed * 2 + 1;
    run_path(c, func, 0);
    run_path(c, func, 1);
    for (uint32_t p = 0; p < c->opts->random_paths; p++)
        run_path(c, func, 2);
    free(c->allocs);
    c->allocs = NULL;
    raise_peak(c);
    for (uint32_t k = 0; k < MP_MAX_SPACES; k++)
        raise_clique_bound(c, k);
}

static ptoc_walk_result check_funcs(ptoc_op *op, void *user)
{
    if (!ptoc_op_is(op, "func.func"))
        return PTOC_WALK_ADVANCE;
    check_func(user, op);
    return PTOC_WALK_SKIP;
}

void mp_check_module(ptoc_op *module, const mp_check_options *opts, mp_report *out)
{
    memset(out, 0, sizeof *out);
    checker c = {.opts = opts, .report = out, .live_pair = {-1, -1}};
    ptoc_walk_pre(module, check_funcs, &c);
    out->ok = out->violations == 0;
    free(c.bufs);
    free(c.env);
    free(c.segs);
    free(c.shares);
    free(c.together);
    free(c.open);
}
