/* plan_memory_paths.c: which buffers may be live together on one path, for
 * pto-plan-memory.
 *
 * The pieces of plan_memory_live.c are sets of program points: two buffers
 * live at one point may still never be live together on one run, when the
 * scf values that keep them hold them on different paths (an iter_arg holds
 * the init only in the first trip; an scf.if result holds the then arm's tile
 * only after the then arm; a write through an iter_arg replaces the init in
 * the first trip and the yielded tile later). So the function is also run
 * abstractly on those bindings. A state binds each carrier (a union set that
 * flows enter: iter_args, while arguments, region results) to the buffer it
 * holds, and each scf.for with constant bounds to its trip phase (the first,
 * a middle or the last trip: the first cannot be the last of a loop of two or
 * more). The states reachable at each step of the program form a finite
 * graph: both ways at every scf.if and scf.while condition, any number of
 * trips of a loop without constant bounds. Every run of the program is a
 * path in it. A backward liveness over that graph gives what each node needs
 * (buffers read before they are written whole, through what that node's
 * state binds), and two buffers conflict (pl->exact) when one node needs or
 * touches both, unless there the node's op writes one over the other in
 * place as the in dies, as the op table allows (pl->exact_soft: the two may
 * share one base). Placement keeps an overlap of pieces only when the two
 * conflict here too: both relations hold for every run, so their
 * intersection does; plan_memory_place.c chooses the in-place merges from
 * pl->exact_soft. pl->exact_lb is the most bytes one node holds.
 * Where the graph cannot be built, pl->exact stays NULL and the pieces alone
 * decide: a region op other than scf.for, scf.while, scf.if and
 * scf.execute_region, a region of several blocks, a union set that both
 * holds an alloc and is entered by flows or that two flow targets share, or
 * a graph beyond MAX_NODES nodes or MAX_LIVE_WORDS words of liveness.
 */
#include "passes/plan_memory.h"
#include "ptoc/ptoc.h"

#define MAX_NODES (1u << 16)
#define MAX_LIVE_WORDS (1u << 21)
#define MAX_BUFFERS 2048u

/* Trip phases of an scf.for with constant bounds (state values). */
enum { PHASE_FIRST = 1, PHASE_MIDDLE, PHASE_LAST, PHASE_DONE };

typedef enum step_kind {
    ST_OP,                       /* a region-less op: uses [first, first + count) */
    ST_MOVE,                     /* bindings change: moves [first, first + count), all read first */
    ST_BRANCH,                   /* on to next or to alt */
    ST_HEAD,                     /* a loop's test: into the body (next) or out (alt), as the phase allows */
    ST_BACK,                     /* a loop's back edge: the phase advances, on to the head (next) */
    ST_END,
} step_kind;

typedef struct step {
    step_kind kind;
    uint32_t next, alt, first, count;
    uint32_t phase;              /* ST_HEAD, ST_BACK: the loop's phase slot, NO_SET without constant bounds */
    uint64_t trips;
} step;

/* state[dst] = slot != NO_SET ? state[slot] : buf (NO_SET: no buffer). */
typedef struct move { uint32_t dst, slot, buf; } move;

typedef struct path_graph {
    planner *pl;
    const uint32_t *buf_of;
    uint32_t *slot_of;           /* per union set root: its carrier slot, or NO_SET */
    uint32_t nslots;             /* carriers, then one phase slot per loop with constant bounds */
    step *steps;
    uint32_t nsteps, steps_cap;
    move *moves;
    uint32_t nmoves, moves_cap;
    uint32_t *defined;           /* carrier slots bound so far in the regions being compiled (a stack) */
    uint32_t ndefined, defined_cap;
    ptoc_ptrmap first_use;       /* ptoc_op* -> its first use record */
    bool bad;
} path_graph;

/* ---------------------------------------------------------------- carriers */

static uint32_t set_of_value(planner *pl, const ptoc_value *v)
{
    uint32_t node;
    return v && map_find(&pl->node_of, v, &node) ? memplan_find(pl, node) : NO_SET;
}

/* Every set that flows enter gets a slot; false when one also holds an
 * alloc or two flow targets share it (the bindings would not say what it
 * holds). */
static bool assign_slots(path_graph *g)
{
    planner *pl = g->pl;
    uint32_t *target = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 1);
    g->slot_of = PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nnodes + 1);
    for (uint32_t x = 0; x < pl->nnodes; x++)
        g->slot_of[x] = target[x] = NO_SET;
    for (uint32_t i = 0; i < pl->nflows; i++) {
        uint32_t to = pl->flows[i].to, set = memplan_find(pl, to);
        if (g->buf_of[set] != NO_SET || (target[set] != NO_SET && target[set] != to))
            return false;
        target[set] = to;
        if (g->slot_of[set] == NO_SET)
            g->slot_of[set] = g->nslots++;
    }
    return true;
}

/* ---------------------------------------------------------------- the program as steps */

/* Appends a step; a `next` of 0 means the step after it (no step goes back
 * to step 0: a loop's head and a while's top follow the moves of its inits). */
static uint32_t emit(path_graph *g, step s)
{
    uint32_t at = g->nsteps;
    if (s.next == 0)
        s.next = at + 1;
    *PTOC_VARR_PUSH_FIELDS(NULL, g->pl->tmp, g->steps, g->nsteps, g->steps_cap) = s;
    return at;
}

static void add_move(path_graph *g, uint32_t dst, uint32_t slot, uint32_t buf)
{
    if (dst == NO_SET)
        return;
    move m = {dst, slot, buf};
    *PTOC_VARR_PUSH_FIELDS(NULL, g->pl->tmp, g->moves, g->nmoves, g->moves_cap) = m;
}

/* The carrier slot of `v`, or NO_SET when it is none. */
static uint32_t slot_of_value(path_graph *g, const ptoc_value *v)
{
    uint32_t set = set_of_value(g->pl, v);
    return set == NO_SET ? NO_SET : g->slot_of[set];
}

/* dst takes what `v` holds: its carrier's binding, or its own buffer. */
static void move_value(path_graph *g, uint32_t dst, const ptoc_value *v)
{
    uint32_t set = set_of_value(g->pl, v);
    if (set == NO_SET)
        add_move(g, dst, NO_SET, NO_SET);
    else if (g->slot_of[set] != NO_SET)
        add_move(g, dst, g->slot_of[set], NO_SET);
    else
        add_move(g, dst, NO_SET, g->buf_of[set]);
}

static void define(path_graph *g, uint32_t slot)
{
    if (slot != NO_SET)
        *PTOC_VARR_PUSH_FIELDS(NULL, g->pl->tmp, g->defined, g->ndefined, g->defined_cap) = slot;
}

static void define_block_args(path_graph *g, const ptoc_block *b, uint32_t from)
{
    for (uint32_t i = from; b && i < b->nargs; i++)
        define(g, slot_of_value(g, b->args[i]));
}

/* One move step: first the slots bound since `mark` are cleared (the values
 * of a region that is left), then dsts[i] takes srcs[i] (parallel: the
 * sources are read before any is cleared). Returns the step. */
typedef struct binding { const ptoc_value *const *dsts, *const *srcs; uint32_t n; } binding;

static uint32_t emit_moves(path_graph *g, uint32_t mark, binding bind)
{
    uint32_t first = g->nmoves;
    for (uint32_t i = mark; i < g->ndefined; i++)
        add_move(g, g->defined[i], NO_SET, NO_SET);
    for (uint32_t i = 0; i < bind.n; i++)
        if (bind.dsts[i] && bind.srcs[i])
            move_value(g, slot_of_value(g, bind.dsts[i]), bind.srcs[i]);
    return emit(g, (step){ST_MOVE, 0, 0, first, g->nmoves - first, NO_SET, 0});
}

/* op's operands from `from` on, as an array (NULL when op is). */
static const ptoc_value *const *operands_from(path_graph *g, ptoc_op *op, uint32_t from)
{
    if (!op || from >= op->noperands)
        return NULL;
    const ptoc_value **vals = PTOC_NEW_ARRAY(g->pl->tmp, const ptoc_value *, op->noperands - from);
    for (uint32_t i = from; i < op->noperands; i++)
        vals[i - from] = ptoc_op_operand(op, i);
    return vals;
}

static void compile_op(path_graph *g, ptoc_op *op);

/* The ops of a block up to its terminator (scf.yield or scf.condition),
 * which it returns for the region op to bind (NULL when there is none). */
static ptoc_op *compile_block(path_graph *g, const ptoc_region *r)
{
    if (!r->first)
        return NULL;
    if (r->first->next)
        g->bad = true;
    for (ptoc_op *op = r->first->first; op && !g->bad; op = op->next) {
        if (!op->next && (ptoc_op_is(op, "scf.yield") || ptoc_op_is(op, "scf.condition")))
            return op;
        compile_op(g, op);
    }
    return NULL;
}

static void define_results(path_graph *g, const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++)
        define(g, slot_of_value(g, &op->results[i]));
}

/* The op's results take term's operands[from ..). */
static uint32_t emit_results(path_graph *g, uint32_t mark, ptoc_op *op, ptoc_op *term, uint32_t from)
{
    const ptoc_value **dsts = PTOC_NEW_ARRAY(g->pl->tmp, const ptoc_value *, op->nresults + 1);
    for (uint32_t i = 0; i < op->nresults; i++)
        dsts[i] = &op->results[i];
    uint32_t n = term && term->noperands > from ? term->noperands - from : 0;
    return emit_moves(g, mark, (binding){dsts, operands_from(g, term, from), n < op->nresults ? n : op->nresults});
}

/* scf.if: both arms, each binding the results from its yield, meet after. */
static void compile_if(path_graph *g, ptoc_op *op)
{
    uint32_t branch = emit(g, (step){ST_BRANCH, 0, 0, 0, 0, NO_SET, 0}), jumps[2] = {NO_SET, NO_SET};
    for (uint32_t r = 0; r < 2; r++) {
        if (r == 1)
            g->steps[branch].alt = g->nsteps;
        uint32_t mark = g->ndefined;
        ptoc_op *term = r < op->nregions ? compile_block(g, &op->regions[r]) : NULL;
        jumps[r] = emit_results(g, mark, op, term, 0);
        g->ndefined = mark;
    }
    g->steps[jumps[0]].next = g->nsteps;
    g->steps[jumps[1]].next = g->nsteps;
    define_results(g, op);
}

static bool constant_trips(const ptoc_op *op, uint64_t *trips)
{
    int64_t lb, ub, st;
    if (op->noperands < 3 || !ptoc_arith_int_constant(ptoc_op_operand(op, 0), &lb) ||
        !ptoc_arith_int_constant(ptoc_op_operand(op, 1), &ub) ||
        !ptoc_arith_int_constant(ptoc_op_operand(op, 2), &st) || st <= 0)
        return false;
    *trips = ub > lb ? (uint64_t)((ub - lb + st - 1) / st) : 0;
    return true;
}

static const ptoc_value *const *block_args_from(const ptoc_region *r, uint32_t from)
{
    return r->first && from <= r->first->nargs ? (const ptoc_value *const *)r->first->args + from : NULL;
}

static uint32_t nargs_from(const ptoc_region *r, uint32_t from)
{
    return r->first && from <= r->first->nargs ? r->first->nargs - from : 0;
}

/* scf.for: inits to iter_args, the head, the body, yields to iter_args and
 * the back edge, then iter_args to results. Constant bounds give a phase;
 * no trip at all skips the body. */
static void compile_for(path_graph *g, ptoc_op *op)
{
    const ptoc_region *body = &op->regions[0];
    const ptoc_value *const *iter_args = block_args_from(body, 1);
    uint32_t niter = nargs_from(body, 1), mark = g->ndefined;
    uint64_t trips = 0;
    bool known = constant_trips(op, &trips);
    if (known && trips == 0) {
        emit_results(g, mark, op, op, 3);
        define_results(g, op);
        return;
    }
    uint32_t phase = known ? g->nslots++ : NO_SET;
    uint32_t ninit = op->noperands > 3 ? op->noperands - 3 : 0;
    uint32_t enter = emit_moves(g, mark, (binding){iter_args, operands_from(g, op, 3), niter < ninit ? niter : ninit});
    add_move(g, phase, NO_SET, PHASE_FIRST);
    g->steps[enter].count = g->nmoves - g->steps[enter].first;
    define_block_args(g, body->first, 1);
    uint32_t head = emit(g, (step){ST_HEAD, 0, 0, 0, 0, phase, trips});
    uint32_t inner = g->ndefined;
    ptoc_op *term = compile_block(g, body);
    uint32_t nyield = term ? term->noperands : 0;
    emit_moves(g, inner, (binding){iter_args, operands_from(g, term, 0), niter < nyield ? niter : nyield});
    g->ndefined = inner;
    emit(g, (step){ST_BACK, head, 0, 0, 0, phase, trips});
    g->steps[head].alt = g->nsteps;
    const ptoc_value **dsts = PTOC_NEW_ARRAY(g->pl->tmp, const ptoc_value *, op->nresults + 1);
    for (uint32_t i = 0; i < op->nresults; i++)
        dsts[i] = &op->results[i];
    uint32_t leave = emit_moves(g, mark, (binding){dsts, iter_args, niter < op->nresults ? niter : op->nresults});
    add_move(g, phase, NO_SET, NO_SET);
    g->steps[leave].count = g->nmoves - g->steps[leave].first;
    g->ndefined = mark;
    define_results(g, op);
}

/* scf.while: inits to the before args; the before region; its condition
 * either continues into the after region (whose yield goes back to the
 * before args) or leaves with the results. */
static void compile_while(path_graph *g, ptoc_op *op)
{
    if (op->nregions < 2) {
        g->bad = true;
        return;
    }
    const ptoc_region *before = &op->regions[0], *after = &op->regions[1];
    uint32_t mark = g->ndefined;
    uint32_t nbefore = nargs_from(before, 0);
    emit_moves(g, mark, (binding){block_args_from(before, 0), operands_from(g, op, 0),
                                  nbefore < op->noperands ? nbefore : op->noperands});
    define_block_args(g, before->first, 0);
    uint32_t top = g->nsteps, inner = g->ndefined;
    ptoc_op *cond = compile_block(g, before);
    if (!cond || !ptoc_op_is(cond, "scf.condition")) {
        g->bad = true;
        return;
    }
    uint32_t branch = emit(g, (step){ST_BRANCH, 0, 0, 0, 0, NO_SET, 0});
    uint32_t leave = emit_results(g, mark, op, cond, 1);
    g->steps[branch].alt = leave;
    uint32_t nafter = nargs_from(after, 0), ncond = cond->noperands ? cond->noperands - 1 : 0;
    uint32_t cont = emit_moves(g, inner, (binding){block_args_from(after, 0), operands_from(g, cond, 1),
                                                   nafter < ncond ? nafter : ncond});
    g->steps[branch].next = cont;       /* after the call: emitting may move g->steps */
    g->ndefined = inner;
    define_block_args(g, after->first, 0);
    ptoc_op *yield = compile_block(g, after);
    uint32_t nyield = yield ? yield->noperands : 0;
    uint32_t back = emit_moves(g, inner, (binding){block_args_from(before, 0), operands_from(g, yield, 0),
                                                   nbefore < nyield ? nbefore : nyield});
    g->steps[back].next = top;
    g->steps[leave].next = g->nsteps;
    g->ndefined = mark;
    define_results(g, op);
}

static void compile_op(path_graph *g, ptoc_op *op)
{
    if (op->nregions == 0) {
        uint32_t first;
        if (!map_find(&g->first_use, op, &first))
            return;
        uint32_t n = 0;
        while (first + n < g->pl->nuses && g->pl->uses[first + n].op == op)
            n++;
        emit(g, (step){ST_OP, 0, 0, first, n, NO_SET, 0});
        return;
    }
    if (ptoc_op_is(op, "scf.if"))
        compile_if(g, op);
    else if (ptoc_op_is(op, "scf.for"))
        compile_for(g, op);
    else if (ptoc_op_is(op, "scf.while"))
        compile_while(g, op);
    else if (ptoc_op_is(op, "scf.execute_region") && op->nregions == 1) {
        uint32_t mark = g->ndefined;
        emit_results(g, mark, op, compile_block(g, &op->regions[0]), 0);
        g->ndefined = mark;
        define_results(g, op);
    } else
        g->bad = true;
}

/* ---------------------------------------------------------------- the graph of states */

/* An open-addressing table of ids, grown at half load; `same` and `hash`
 * say what an id stands for. */
typedef struct id_table { uint32_t *slots, mask, count; } id_table;

typedef struct explored {
    uint32_t width;              /* slots per state */
    uint32_t *states, nwords, words_cap;
    id_table state_ids, node_ids;
    uint32_t *node_step, *node_state, *succ;   /* succ: two per node, NO_SET when absent */
    uint32_t nnodes, step_cap, state_cap, succ_cap;
} explored;

static uint64_t hash_words(const uint32_t *w, uint32_t n, uint64_t h)
{
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ w[i]) * 0x100000001B3u;
    return h ^ (h >> 29);
}

static const uint32_t *state_words(const explored *x, uint32_t id) { return &x->states[(size_t)id * x->width]; }

static uint64_t state_hash(const explored *x, const uint32_t *s) { return hash_words(s, x->width, 0xCBF29CE484222325u); }

static uint64_t node_hash(uint32_t step, uint32_t state)
{
    return hash_words((uint32_t[]){step, state}, 2, 0x84222325CBF29CE4u);
}

static uint64_t id_hash(const explored *x, const id_table *t, uint32_t id)
{
    return t == &x->state_ids ? state_hash(x, state_words(x, id)) : node_hash(x->node_step[id], x->node_state[id]);
}

/* Room for one more id in t (rehashing every id when it is half full). */
static void table_reserve(planner *pl, explored *x, id_table *t)
{
    if (2 * (t->count + 1) <= t->mask + 1)
        return;
    uint32_t size = t->mask ? 2 * (t->mask + 1) : 256;
    uint32_t *old = t->slots, old_size = t->mask ? t->mask + 1 : 0;
    t->slots = PTOC_NEW_ARRAY(pl->tmp, uint32_t, size);
    memset(t->slots, 0xff, size * sizeof *t->slots);
    t->mask = size - 1;
    for (uint32_t i = 0; i < old_size; i++)
        if (old[i] != NO_SET) {
            uint32_t k = (uint32_t)id_hash(x, t, old[i]) & t->mask;
            while (t->slots[k] != NO_SET)
                k = (k + 1) & t->mask;
            t->slots[k] = old[i];
        }
}

static uint32_t intern_state(planner *pl, explored *x, const uint32_t *s)
{
    table_reserve(pl, x, &x->state_ids);
    id_table *t = &x->state_ids;
    uint32_t k = (uint32_t)state_hash(x, s) & t->mask;
    for (; t->slots[k] != NO_SET; k = (k + 1) & t->mask)
        if (!memcmp(state_words(x, t->slots[k]), s, x->width * sizeof *s))
            return t->slots[k];
    uint32_t id = t->count++;
    for (uint32_t i = 0; i < x->width; i++)
        *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, x->states, x->nwords, x->words_cap) = s[i];
    t->slots[k] = id;
    return id;
}

/* The node (step, state), made when new; NO_SET past MAX_NODES. */
static uint32_t node_at(planner *pl, explored *x, uint32_t step, uint32_t state)
{
    table_reserve(pl, x, &x->node_ids);
    id_table *t = &x->node_ids;
    uint32_t k = (uint32_t)node_hash(step, state) & t->mask;
    for (; t->slots[k] != NO_SET; k = (k + 1) & t->mask)
        if (x->node_step[t->slots[k]] == step && x->node_state[t->slots[k]] == state)
            return t->slots[k];
    if (x->nnodes == MAX_NODES)
        return NO_SET;
    uint32_t id = x->nnodes, n = id, nsucc = 2 * id;
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, x->node_step, n, x->step_cap) = step;
    n = id;
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, x->node_state, n, x->state_cap) = state;
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, x->succ, nsucc, x->succ_cap) = NO_SET;
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, x->succ, nsucc, x->succ_cap) = NO_SET;
    x->nnodes++;
    t->count++;
    t->slots[k] = id;
    return id;
}

/* The phases a loop's back edge leads to from phase p (one or two). */
static uint32_t next_phases(uint32_t p, uint64_t trips, uint32_t out[2])
{
    if (p == PHASE_FIRST && trips <= 2) {
        out[0] = trips == 1 ? PHASE_DONE : PHASE_LAST;
        return 1;
    }
    if (p == PHASE_FIRST || p == PHASE_MIDDLE) {
        out[0] = PHASE_MIDDLE;
        out[1] = PHASE_LAST;
        return 2;
    }
    out[0] = PHASE_DONE;
    return 1;
}

/* Appends node id's successors; false when the graph grows too large. */
static bool expand(path_graph *g, explored *x, uint32_t id, uint32_t *scratch, uint32_t *vals)
{
    const step *s = &g->steps[x->node_step[id]];
    uint32_t state = x->node_state[id], targets[2], states[2] = {state, state}, n = 0;
    const uint32_t *cur = state_words(x, state);
    switch (s->kind) {
    case ST_OP: targets[n++] = s->next; break;
    case ST_BRANCH: targets[n++] = s->next; targets[n++] = s->alt; break;
    case ST_HEAD:
        if (s->phase == NO_SET || cur[s->phase] != PHASE_DONE)
            targets[n++] = s->next;
        if (s->phase == NO_SET || cur[s->phase] == PHASE_DONE)
            targets[n++] = s->alt;
        break;
    case ST_MOVE:
        memcpy(scratch, cur, x->width * sizeof *scratch);
        for (uint32_t k = 0; k < s->count; k++) {
            const move *m = &g->moves[s->first + k];
            vals[k] = m->slot != NO_SET ? cur[m->slot] : m->buf;
        }
        for (uint32_t k = 0; k < s->count; k++)
            scratch[g->moves[s->first + k].dst] = vals[k];
        states[0] = intern_state(g->pl, x, scratch);
        targets[n++] = s->next;
        break;
    case ST_BACK: {
        uint32_t phases[2], np = s->phase == NO_SET ? 0 : next_phases(cur[s->phase], s->trips, phases);
        for (uint32_t k = 0; k < (np ? np : 1); k++) {
            memcpy(scratch, state_words(x, state), x->width * sizeof *scratch);   /* interning may move states */
            if (np)
                scratch[s->phase] = phases[k];
            states[n] = intern_state(g->pl, x, scratch);
            targets[n++] = s->next;
        }
        break;
    }
    case ST_END: break;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t to = node_at(g->pl, x, targets[k], states[k]);
        if (to == NO_SET)
            return false;
        x->succ[2 * id + k] = to;
    }
    return true;
}

static bool explore(path_graph *g, explored *x)
{
    planner *pl = g->pl;
    x->width = g->nslots ? g->nslots : 1;
    uint32_t *scratch = PTOC_NEW_ARRAY(pl->tmp, uint32_t, x->width);
    uint32_t *vals = PTOC_NEW_ARRAY(pl->tmp, uint32_t, g->nmoves + 1);
    for (uint32_t k = 0; k < x->width; k++)
        scratch[k] = NO_SET;
    node_at(pl, x, 0, intern_state(pl, x, scratch));
    for (uint32_t id = 0; id < x->nnodes; id++)
        if (!expand(g, x, id, scratch, vals))
            return false;
    return true;
}

/* ---------------------------------------------------------------- liveness over the graph */

/* The buffer use u touches in a state: its web's, its carrier's binding, or its own. */
static uint32_t use_target(const path_graph *g, const uint32_t *state, uint32_t u)
{
    const use_rec *r = &g->pl->uses[u];
    if (r->web != NO_SET)
        return r->web;
    uint32_t set = memplan_find(g->pl, r->node);
    return g->slot_of[set] != NO_SET ? state[g->slot_of[set]] : g->buf_of[set];
}

static void clear_bit(uint64_t *w, uint32_t b) { w[b / 64] &= ~(1ull << (b % 64)); }

/* live_in of node id from its successors' (into `in`); true when it grew. */
static bool transfer(const path_graph *g, const explored *x, uint64_t *live, uint32_t words, uint32_t id,
                     uint64_t *in)
{
    memset(in, 0, words * sizeof *in);
    for (uint32_t k = 0; k < 2; k++)
        if (x->succ[2 * id + k] != NO_SET)
            for (uint32_t w = 0; w < words; w++)
                in[w] |= live[(size_t)x->succ[2 * id + k] * words + w];
    const step *s = &g->steps[x->node_step[id]];
    const uint32_t *state = state_words(x, x->node_state[id]);
    for (uint32_t pass = 0; s->kind == ST_OP && pass < 2; pass++)   /* kills, then reads */
        for (uint32_t u = s->first; u < s->first + s->count; u++) {
            uint32_t b = use_target(g, state, u);
            const use_rec *r = &g->pl->uses[u];
            if (b == NO_SET || !r->touches)
                continue;
            if (pass == 0 && r->kills)
                clear_bit(in, b);
            if (pass == 1 && r->reads)
                set_bit_of(in, b);
        }
    uint64_t *mine = &live[(size_t)id * words];
    bool grew = memcmp(mine, in, words * sizeof *in) != 0;
    memcpy(mine, in, words * sizeof *in);
    return grew;
}

static void solve_liveness(const path_graph *g, const explored *x, uint64_t *live, uint32_t words, uint64_t *in)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t id = x->nnodes; id-- > 0;)
            changed |= transfer(g, x, live, words, id, in);
    }
}

/* A handover of node id's op whose in dies into its out there: the out is
 * written whole and not read at the op, the in is not needed after it, and
 * no other operand (but another in handed over to the same out) is either;
 * the out no larger. Sets *in, *out. */
static bool dies_in_place(const path_graph *g, const explored *x, const uint64_t *live, uint32_t words, uint32_t id,
                          const handover *h, const uint64_t *out_live, uint32_t *in, uint32_t *out)
{
    const planner *pl = g->pl;
    const step *s = &g->steps[x->node_step[id]];
    const uint32_t *state = state_words(x, x->node_state[id]);
    uint32_t a = use_target(g, state, h->in), b = use_target(g, state, h->out);
    if (a == NO_SET || b == NO_SET || a == b || !pl->uses[h->out].kills || bit_of(out_live, a) ||
        bit_of(&live[(size_t)id * words], b) || pl->bufs[b].size > pl->bufs[a].size ||
        pl->bufs[b].bytes > pl->bufs[a].bytes)
        return false;
    for (uint32_t u = s->first; u < s->first + s->count; u++) {
        uint32_t t = use_target(g, state, u);
        if (u == h->out || (t != a && t != b) || !pl->uses[u].touches)
            continue;
        bool handed = false;
        uint32_t first, end = memplan_handovers_at(pl, h->point, &first);
        for (uint32_t k = first; k < end; k++)
            handed |= pl->handovers[k].in == u && pl->handovers[k].out == h->out;
        if (t == b || !handed)
            return false;
    }
    *in = a;
    *out = b;
    return true;
}

typedef struct marking {
    uint64_t *occ, *row;         /* words each */
    uint32_t *bufs;              /* the node's buffers */
    uint32_t soft[2 * 8], nsoft; /* the node's in-place pairs (in, out) */
} marking;

/* Raises pl->exact_lb per space to the bytes of the node's planned buffers
 * (m->bufs[0 .. n)), an out written over a dying in counted once. */
static void raise_lower_bounds(planner *pl, const marking *m, uint32_t n)
{
    uint64_t sum[MEMPLAN_SPACES] = {0};
    for (uint32_t i = 0; i < n; i++) {
        const buffer *b = &pl->bufs[m->bufs[i]];
        if (!is_pinned(b) && !b->unused && b->space < MEMPLAN_SPACES)
            sum[b->space] += b->bytes;
    }
    for (uint32_t k = 0; k < m->nsoft; k++) {
        uint32_t out = m->soft[2 * k + 1];
        bool counted = false;
        for (uint32_t j = 0; j < k; j++)
            counted |= m->soft[2 * j + 1] == out;
        const buffer *b = &pl->bufs[out];
        if (!counted && !is_pinned(b) && !b->unused && b->space < MEMPLAN_SPACES)
            sum[b->space] -= b->bytes;
    }
    for (uint32_t s = 0; s < MEMPLAN_SPACES; s++)
        if (sum[s] > pl->exact_lb[s])
            pl->exact_lb[s] = sum[s];
}

/* Marks every two buffers that node id needs after it or touches together:
 * in pl->exact_soft (the in's row) when the op writes the out over the in
 * in place as the in dies, else in pl->exact (both rows). */
static void mark_conflicts(const path_graph *g, const explored *x, const uint64_t *live, uint32_t words,
                           uint32_t id, marking *m)
{
    planner *pl = g->pl;
    const step *s = &g->steps[x->node_step[id]];
    const uint32_t *state = state_words(x, x->node_state[id]);
    memset(m->occ, 0, words * sizeof *m->occ);
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t w = 0; x->succ[2 * id + k] != NO_SET && w < words; w++)
            m->occ[w] |= live[(size_t)x->succ[2 * id + k] * words + w];
    m->nsoft = 0;
    if (s->kind == ST_OP && s->count) {
        uint32_t first, end = memplan_handovers_at(pl, pl->uses[s->first].point, &first);
        for (uint32_t k = first; k < end && m->nsoft < 8; k++)
            if (dies_in_place(g, x, live, words, id, &pl->handovers[k], m->occ, &m->soft[2 * m->nsoft],
                              &m->soft[2 * m->nsoft + 1]))
                m->nsoft++;
    }
    for (uint32_t u = s->first; s->kind == ST_OP && u < s->first + s->count; u++) {
        uint32_t b = use_target(g, state, u);
        if (b != NO_SET && pl->uses[u].touches)
            set_bit_of(m->occ, b);
    }
    uint32_t n = 0;
    for (uint32_t w = 0; w < words; w++)
        for (uint64_t bits = m->occ[w]; bits; bits &= bits - 1)
            m->bufs[n++] = w * 64 + (uint32_t)__builtin_ctzll(bits);
    raise_lower_bounds(pl, m, n);
    for (uint32_t i = 0; i < n && n > 1; i++) {
        memcpy(m->row, m->occ, words * sizeof *m->row);
        for (uint32_t k = 0; k < m->nsoft; k++)
            for (uint32_t side = 0; side < 2; side++)
                if (m->soft[2 * k + side] == m->bufs[i]) {
                    uint32_t other = m->soft[2 * k + 1 - side];
                    clear_bit(m->row, other);
                    if (side == 0)      /* the in's row: it dies into `other` */
                        set_bit_of(&pl->exact_soft[(size_t)m->bufs[i] * words], other);
                }
        uint64_t *row = &pl->exact[(size_t)m->bufs[i] * words];
        for (uint32_t w = 0; w < words; w++)
            row[w] |= m->row[w];
    }
}

/* ---------------------------------------------------------------- entry */

void memplan_exact_conflicts(planner *pl, const uint32_t *buf_of)
{
    pl->exact = pl->exact_soft = NULL;
    if (!pl->func->nregions || pl->nbufs > MAX_BUFFERS)
        return;
    path_graph g = {.pl = pl, .buf_of = buf_of};
    if (!assign_slots(&g))
        return;
    ptoc_ptrmap_init(&g.first_use, pl->ctx);
    for (uint32_t u = pl->nuses; u-- > 0;)
        ptoc_ptrmap_put_int(&g.first_use, pl->uses[u].op, u);
    compile_block(&g, &pl->func->regions[0]);
    emit(&g, (step){ST_END, 0, 0, 0, 0, NO_SET, 0});
    ptoc_ptrmap_free(&g.first_use);
    explored x = {0};
    uint32_t words = (pl->nbufs + 63) / 64;
    if (g.bad || !explore(&g, &x) || (uint64_t)x.nnodes * words > MAX_LIVE_WORDS)
        return;
    uint64_t *live = PTOC_NEW_ARRAY(pl->tmp, uint64_t, (size_t)x.nnodes * words);
    uint64_t *in = PTOC_NEW_ARRAY(pl->tmp, uint64_t, words);
    solve_liveness(&g, &x, live, words, in);
    pl->exact_words = words;
    pl->exact = PTOC_NEW_ARRAY(pl->tmp, uint64_t, (size_t)pl->nbufs * words);
    pl->exact_soft = PTOC_NEW_ARRAY(pl->tmp, uint64_t, (size_t)pl->nbufs * words);
    marking m = {in, PTOC_NEW_ARRAY(pl->tmp, uint64_t, words), PTOC_NEW_ARRAY(pl->tmp, uint32_t, pl->nbufs + 1),
                 {0}, 0};
    for (uint32_t id = 0; id < x.nnodes; id++)
        mark_conflicts(&g, &x, live, words, id, &m);
}

