/* plan_memory.c: the "pto-plan-memory" pass, which gives every on-chip buffer an offset.
 *
 * Requires: Level 2 (tile_bufs, after pto-bufferize) and structured control flow
 *           (scf.for/if/while/execute_region); runs on each func.func.
 * Produces: `pto.planned_offset = N : i64` (bytes in its address space) on every
 *           `pto.alloc_tile` without addr and every `memref.alloc`/`alloca` in an
 *           on-chip #pto.address_space (an alloc_tile reused for unrelated
 *           contents may be split into copies, see Webs); no two buffers live at the same time
 *           overlap; offsets are aligned per space (ptoc_pto_space_alignment) and
 *           the plan fits ptoc_pto_planned_capacity (the arch's figure, or
 *           the context's pto-ub-size for UB), else a diagnostic at the
 *           function names the space, the bytes needed and those available, with
 *           a note at each buffer live at the worst program point.
 * Method:   (plan_memory_live.c and plan_memory_place.c hold the parts.)
 *           Points: point 0 is the function's entry; each op gets two points,
 *           the op and the gap after it; an op with regions also gets an end
 *           point (and gap) after them, and each region is followed by a
 *           point of no region, so one arm's end never touches the next arm.
 *           Buffers: each alloc is one buffer with its own address. Values
 *           that are the same memory are unioned: the result of a region-less
 *           op and its buffer operands (pto.tassign, views, casts). Values that
 *           may hold a buffer at run time are linked by flows: scf.for init
 *           and yield -> iter_arg -> result (yield -> result alone when
 *           constant bounds give a trip); scf.while init and after-yield ->
 *           before arg, condition args -> after arg and result; scf.if and
 *           execute_region yields -> results. A buffer's carriers are its set
 *           and the sets its flows reach; a set's holders are the buffers
 *           whose carriers it is (plan_memory_live.c: find_holders). Carriers
 *           whose values always equal one value (an iter_arg its body yields
 *           back, a result passed on from a loop or an if whose arms yield one
 *           value) count as that one carrier (same_values).
 *           Liveness: a backward walk over the structured program per buffer;
 *           it is live where some path reads a carrier before a write that
 *           replaces the carrier's contents whole (a DPS out whose op writes its
 *           whole valid region, ptoc_pto_effects, on a tile whose valid region
 *           is its whole static shape, through a value that is a whole buffer),
 *           and at every op touching a carrier. Such a write ends the needs
 *           through every carrier equal to the one written (they hold the same
 *           tile), and all of the buffer's needs when the value written can
 *           hold no other buffer (its own alloc's value, or a carrier only it
 *           reaches). Region ops translate the needs through their values,
 *           so a branch that yields another buffer does not keep this one
 *           alive. A buffer read before any write is live from the entry (its
 *           contents are kept, whatever they are). scf.for with constant
 *           bounds that run at least once has no zero-trip path.
 *           Webs: an alloc_tile that no other value stands for (no views, no
 *           flows) and that is written whole more than once is split into its
 *           webs (the writes and the reads they reach); each web is a buffer,
 *           and the webs not placed at the alloc's offset get a copy of the
 *           alloc_tile (right after it) with their uses moved to it.
 *           Confinement: a buffer whose allocs all lie in one arm of an scf.if,
 *           that is dead where the if starts, not touched in the other arm and
 *           not carried by a block argument of a loop around the if (which
 *           would hand it from one run of the if to the next), holds contents
 *           only on paths through that arm: it may share bytes with one
 *           confined to the other arm, even after the if.
 *           One carrier: where a buffer is live or touched only through one
 *           scf value (an iter_arg, a while argument, an scf result: not its
 *           own alloc's value), or through values equal to one, it may share
 *           bytes with another buffer that is there only through the same
 *           value, which holds one of them at run time (the init of a loop and
 *           the tile its body yields; the tiles two arms yield). Pieces carry
 *           that value (span.via).
 *           In place: an op that reads a buffer for the last time through an in
 *           the op table lets its out be written over on the arch
 *           (ptoc_pto_inplace_allowed: which ins, and how the two types must
 *           match) while writing one born there, no larger, gives the two one
 *           offset; the op is their only common point, or they meet elsewhere
 *           only through one carrier. An in or out used through an scf value
 *           stands for each of its holders (at most MAX_HOLDERS): each holder
 *           that dies there (or is born there) joins the other side's group,
 *           provided no other operand of the op, not written in place too, may
 *           be it; a holder's pieces through the other side's carrier do not
 *           count against that (where the carrier holds it, the op writes it
 *           over itself). Otherwise two buffers used by one op never share
 *           bytes (a tmp operand never meets its dst).
 *           A buffer no op touches takes no bytes (offset 0).
 *           Paths: the function is also run on its bindings, each carrier
 *           bound to the buffer it holds and each constant-bound loop to its
 *           trip phase (plan_memory_paths.c); two buffers that no node of
 *           that graph needs or touches together never share a path, and may
 *           share bytes even where their pieces overlap. With the graph, the
 *           in-place merges above are chosen per space from its pairs (an in
 *           dying into an out at a node, meeting it nowhere else), in three
 *           orders, each placed, the smallest peak kept.
 *           Placement per space: three orderings (size desc, start asc,
 *           size*length desc), each with best fit and with first fit among
 *           the gaps left by the placed buffers live at the same points, plus
 *           16 shuffled orderings when the space has at most 256 buffers; the
 *           smallest peak wins. With the graph, a small space without pinned
 *           buffers is also coloured size class by size class. In left, right and acc a buffer also keeps
 *           off one released within four ops of it when reusing those bytes
 *           would make its writer wait for the other's reader on another
 *           pipe, if the space has room (double buffering, as pto-isa's GEMM
 *           kernels do; plan_memory_place.c). Overlap queries use a segment tree over the
 *           points, so a query costs about the number of overlapping buffers
 *           times log(points). The lower bound is the most bytes live at one
 *           point on one path (a confined buffer counts in full in its arm;
 *           after the if, an if adds the smaller of its two arms' sums; the
 *           buffers there only through one carrier count once); where the
 *           plan beats it (it counted buffers no path holds together) and
 *           the space has no pinned buffer, the path graph's is printed: the
 *           most bytes one of its nodes holds.
 *           Buffers with a constant manual address (alloc_tile addr, tassign) are
 *           not planned; their bytes are reserved for the whole function. So are
 *           a pto.reserve_buffer's (vec or mat): at its `base`, else at the
 *           lowest multiple of 256 bytes free of those, which becomes its
 *           `base` (the address its result stands for); a misaligned base or
 *           bytes beyond the capacity are an error at the op. The
 *           arch's scratch window (the arch table; on A2/A3 UB [184 KiB,
 *           192 KiB)) is reserved when an op that uses it on the arch appears
 *           (ptoc_pto_op_uses_window: the op table's window column, TROWEXPAND*,
 *           TCVT, TEXTRACT*, TCMP*, the reductions ... on A2/A3, and the byte-lane
 *           ops on 8-bit tiles).
 *
 * `pto-plan-memory{print=true}` (ptoc-opt --test-print-memplan) writes the plan to
 * stdout before the IR, one line per item, in this stable format:
 *   memplan @FUNC
 *     SPACE buffer LINE:COL live [START, END]... [arm A]... [in-place L:C] offset OFFSET size SIZE
 *                          (its pieces; the arms it is confined to: 2k then, 2k+1 else;
 *                          the group it shares bytes with in place, named by its first
 *                          buffer; a split alloc prints one line per web)
 *     SPACE reserve_buffer LINE:COL offset OFFSET size SIZE
 *     SPACE fixed LINE:COL offset OFFSET size SIZE
 *     SPACE reserved offset OFFSET size SIZE
 *     SPACE unknown LINE:COL size SIZE       (pinned by a non-constant address)
 *     SPACE unused LINE:COL offset 0 size SIZE  (nothing reads or writes it)
 *     SPACE peak PEAK lower-bound LB capacity CAP
 * SPACE is VEC, MAT, LEFT, RIGHT, ACC, BIAS or SCALING; LINE:COL is the buffer's
 * first alloc; START/END are program points (the numbering above); buffers are
 * listed by start point, then by position in the source.
 */
#include "passes/plan_memory.h"
#include "ptoc/ptoc.h"

static const struct { const char *name; uint32_t kind; } op_kinds[] = {
    {"memref.alloc", OP_MEMREF_ALLOC}, {"memref.alloca", OP_MEMREF_ALLOC}, {"scf.for", OP_FOR},
    {"scf.while", OP_WHILE},           {"scf.yield", OP_PASS},            {"scf.condition", OP_PASS},
    {"scf.if", OP_IF},                 {"scf.execute_region", OP_EXECUTE},
};

/* A pto op's kind: the buffer-defining ops, and the ops that use the arch's
 * hidden scratch window on this arch (the op table's window column). */
static uint32_t classify_pto(const planner *pl, const ptoc_op *op, ptoc_pto_op_id opcode)
{
    if (opcode == PTOC_PTO_OP_ALLOC_TILE)
        return OP_ALLOC_TILE;
    if (opcode == PTOC_PTO_OP_TASSIGN)
        return OP_TASSIGN;
    if (opcode == PTOC_PTO_OP_RESERVE_BUFFER)
        return OP_RESERVE;
    bool window = ptoc_pto_op_uses_window(op, pl->arch);
    return OP_OTHER | (window ? OP_SCRATCH : 0);
}

static uint32_t classify(const planner *pl, const ptoc_op *op)
{
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    if (opcode != PTOC_PTO_OP_NONE)
        return classify_pto(pl, op, opcode);
    for (size_t i = 0; i < sizeof op_kinds / sizeof op_kinds[0]; i++)
        if (ptoc_op_is(op, op_kinds[i].name))
            return op_kinds[i].kind;
    return OP_OTHER;
}

/* ---------------------------------------------------------------- buffer types */

/* The on-chip space of a tile_buf or memref type; false for anything else. */
bool memplan_buffer_space(const ptoc_type *t, uint32_t *space)
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

/* Bytes of a buffer type (ptoc_pto_buffer_bytes); false (after a diagnostic)
 * when the shape is dynamic. */
static bool buffer_bytes(const ptoc_op *op, const ptoc_type *t, uint64_t *bytes)
{
    if (ptoc_pto_buffer_bytes(t, bytes))
        return true;
    for (uint32_t i = 0; i < t->u.shaped.rank; i++)
        if (t->u.shaped.shape[i] == PTOC_DYNAMIC) {
            ptoc_op_emit_error(op, "cannot plan a buffer with a dynamic shape (dimension %u)", i);
            break;
        }
    return false;
}

/* ---------------------------------------------------------------- union-find */

static uint32_t node(planner *pl, const ptoc_value *v)
{
    uint32_t id = map_get_or_put(&pl->node_of, v, pl->nnodes);
    if (id == pl->nnodes)
        *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->parent, pl->nnodes, pl->nodes_cap) = id;
    return id;
}

uint32_t memplan_find(planner *pl, uint32_t x)
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
    if (!memplan_buffer_space(a->type, &s) || !memplan_buffer_space(b->type, &s))
        return;
    uint32_t x = memplan_find(pl, node(pl, a)), y = memplan_find(pl, node(pl, b));
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
static void add_flow(planner *pl, const ptoc_value *from, const ptoc_value *to)
{
    uint32_t s;
    if (!from || !to || !memplan_buffer_space(from->type, &s) || !memplan_buffer_space(to->type, &s))
        return;
    flow_rec f = {node(pl, from), node(pl, to)};
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->flows, pl->nflows, pl->flows_cap) = f;
}

/* operands[from + i] of `t` flow to values[i], for each i both have. */
static void flow_operands(planner *pl, ptoc_op *t, uint32_t from, ptoc_value *(*get)(ptoc_op *, uint32_t, uint32_t),
                          ptoc_op *owner, uint32_t region, uint32_t arg_from)
{
    for (uint32_t i = 0; t && from + i < t->noperands; i++)
        add_flow(pl, ptoc_op_operand(t, from + i), get(owner, region, arg_from + i));
}

static ptoc_value *result_at(ptoc_op *op, uint32_t region, uint32_t i)
{
    (void)region;
    return i < op->nresults ? &op->results[i] : NULL;
}

static bool runs_once(const ptoc_op *op);

/* scf.for: init i (operand 3+i) and yield i flow to iter_arg i (arg 1+i), which
 * flows to result i; when constant bounds give a trip, only yield i does (the
 * result is the last iteration's yield, never the init). */
static void alias_for(planner *pl, ptoc_op *op)
{
    flow_operands(pl, op, 3, block_arg, op, 0, 1);
    flow_operands(pl, terminator(op, 0), 0, block_arg, op, 0, 1);
    if (runs_once(op)) {
        flow_operands(pl, terminator(op, 0), 0, result_at, op, 0, 0);
        return;
    }
    for (uint32_t i = 0; i < op->nresults; i++)
        add_flow(pl, block_arg(op, 0, 1 + i), &op->results[i]);
}

/* scf.while: init i and after-yield i flow to before arg i; condition arg i+1
 * flows to after arg i and result i. */
static void alias_while(planner *pl, ptoc_op *op)
{
    flow_operands(pl, op, 0, block_arg, op, 0, 0);
    flow_operands(pl, terminator(op, 1), 0, block_arg, op, 0, 0);
    flow_operands(pl, terminator(op, 0), 1, block_arg, op, 1, 0);
    flow_operands(pl, terminator(op, 0), 1, result_at, op, 0, 0);
}

/* Every other op: yields flow to region results; a buffer result of a region-less
 * op is the same memory as its buffer operands (tassign, views, casts). */
static void alias_op(planner *pl, ptoc_op *op, uint32_t kind)
{
    if (kind == OP_FOR) {
        alias_for(pl, op);
        return;
    }
    if (kind == OP_WHILE) {
        alias_while(pl, op);
        return;
    }
    for (uint32_t r = 0; r < op->nregions; r++) {
        ptoc_op *t = terminator(op, r);
        if (t && ptoc_op_is(t, "scf.yield"))
            flow_operands(pl, t, 0, result_at, op, 0, 0);
    }
    if (op->nregions || kind == OP_ALLOC_TILE)
        return;
    for (uint32_t r = 0; r < op->nresults; r++)
        for (uint32_t i = 0; i < op->noperands; i++)
            unite(pl, &op->results[r], ptoc_op_operand(op, i));
}

/* ---------------------------------------------------------------- allocs */

static void add_alloc(planner *pl, ptoc_op *op, const ptoc_value *v, uint32_t point,
                      alloc_kind kind, int64_t offset)
{
    alloc_rec r = {op, node(pl, v), point, pl->cur_arm, kind, 0, 0, (uint64_t)offset};
    memplan_buffer_space(v->type, &r.space);
    if (!buffer_bytes(op, v->type, &r.size))
        pl->bad = true;
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->allocs, pl->nallocs, pl->allocs_cap) = r;
}

/* Records the buffer an op creates or pins, if any. */
static void note_alloc(planner *pl, ptoc_op *op, uint32_t kind, uint32_t point)
{
    uint32_t space;
    if (op->nresults != 1 || !memplan_buffer_space(op->results[0].type, &space))
        return;
    ptoc_value *res = &op->results[0];
    if (kind == OP_ALLOC_TILE || kind == OP_TASSIGN) {
        ptoc_pto_addr addr = ptoc_pto_buffer_addr(op);
        alloc_kind k = !addr.given ? ALLOC_PLANNED : addr.known ? ALLOC_FIXED : ALLOC_UNKNOWN;
        if (kind == OP_ALLOC_TILE || addr.given)
            add_alloc(pl, op, res, point, k, addr.offset);
    } else if (kind == OP_MEMREF_ALLOC) {
        ptoc_attr *addr = ptoc_op_attr(op, "pto.addr");
        bool fixed = addr && addr->kind == PTOC_ATTR_INTEGER;
        add_alloc(pl, op, res, point, fixed ? ALLOC_FIXED : ALLOC_PLANNED, fixed ? addr->u.integer.value : 0);
    }
}

/* ---------------------------------------------------------------- numbering walk */

static void number_op(planner *pl, ptoc_op *op);

/* The ops of region r of `op`, numbered in order; their points go into the
 * current scope's record (its first two regions). */
static void number_region(planner *pl, ptoc_op *op, uint32_t r)
{
    uint32_t first = pl->npoints;
    pl->cur_region = r;
    for (ptoc_block *b = op->regions[r].first; b; b = b->next)
        for (ptoc_op *o = b->first; o; o = o->next)
            number_op(pl, o);
    if (r < 2 && pl->cur_scope != NO_SCOPE)
        pl->scopes[pl->cur_scope].region[r] = (span){first, pl->npoints - 1};  /* lo > hi: empty */
    pl->npoints++;                       /* a point of no region: the end of one arm does not touch
                                          * the start of the next */
}

/* The two regions of an scf.if, each recorded as an arm. */
static void number_arms(planner *pl, ptoc_op *op)
{
    uint32_t id = pl->narms, outer = pl->cur_arm;
    arm_info a = {0, 0, outer, pl->npoints - 2};
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->arms, pl->narms, pl->arms_cap) = a;
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->arms, pl->narms, pl->arms_cap) = a;
    for (uint32_t r = 0; r < 2; r++) {
        pl->arms[id + r].begin = pl->npoints;
        pl->cur_arm = id + r;
        number_region(pl, op, r);
        pl->arms[id + r].end = pl->npoints - 2;    /* the separator excluded; below begin when empty */
    }
    pl->cur_arm = outer;
}

static uint32_t op_kind_of(planner *pl, const ptoc_op *op)
{
    uint32_t kind = map_get_or_put(&pl->kind_of, op->def, UINT32_MAX);
    if (kind == UINT32_MAX) {
        kind = classify(pl, op);
        ptoc_ptrmap_put_int(&pl->kind_of, op->def, kind);
    }
    return kind;
}

/* Whether `v` stands for a whole buffer (an alloc_tile or memref.alloc, a
 * block argument or a region op's result); a view or an alias may cover
 * less, so a write through it kills nothing. */
static bool whole_buffer(planner *pl, const ptoc_value *v)
{
    ptoc_op *def = ptoc_value_def(v);
    uint32_t kind = def ? op_kind_of(pl, def) & OP_KIND_MASK : OP_OTHER;
    return !def || def->nregions > 0 || kind == OP_ALLOC_TILE || kind == OP_MEMREF_ALLOC;
}

static void record_use(planner *pl, ptoc_op *op, uint32_t i, uint32_t point, bool touches, bool reads, bool kills)
{
    use_rec u = {op, i, node(pl, ptoc_op_operand(op, i)), point, pl->cur_arm, pl->cur_scope, pl->cur_region,
                 NO_SET, touches, reads, kills};
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->uses, pl->nuses, pl->uses_cap) = u;
}

/* The buffer operands of an op without regions, as the access model reads
 * them: a read needs the contents, a kill ends the need (the op writes every
 * byte first: an out written whole, a scratch in), every access touches. An
 * op that only passes buffers on (scf.yield ...) touches nothing. */
static void record_uses(planner *pl, ptoc_op *op, uint32_t kind, uint32_t point)
{
    ptoc_pto_access *acc = PTOC_NEW_ARRAY(pl->tmp, ptoc_pto_access, ptoc_pto_op_max_accesses(op));
    uint32_t n = ptoc_pto_op_accesses(op, acc), space;
    for (uint32_t k = 0; k < n; k++) {
        const ptoc_pto_access *a = &acc[k];
        if (a->index >= op->noperands || !memplan_buffer_space(a->value->type, &space))
            continue;
        bool touches = kind != OP_PASS;
        record_use(pl, op, a->index, point, touches, touches && a->read,
                   touches && a->kills && whole_buffer(pl, a->value));
    }
}

/* The use of `operand` among the op's uses (from first_use on), or NO_SET. */
static uint32_t use_of_operand(const planner *pl, uint32_t first_use, uint32_t operand)
{
    for (uint32_t k = first_use; k < pl->nuses; k++)
        if (pl->uses[k].operand == operand)
            return k;
    return NO_SET;
}

/* The ins a DPS op may overwrite in place with its one out on the arch (the op
 * table's inpl column: ptoc_pto_inplace_allowed, which looks at both types). */
static void record_handovers(planner *pl, ptoc_op *op, uint32_t point, uint32_t first_use)
{
    uint32_t nins, nouts, space;
    if (!ptoc_pto_inplace_ins(op, pl->arch) || !ptoc_pto_dps_split(op, &nins, &nouts) || nouts != 1 ||
        nins + 1 != op->noperands)
        return;
    ptoc_value *out = ptoc_op_operand(op, nins);
    for (uint32_t i = 0; i < nins && i < 32; i++) {
        ptoc_value *in = ptoc_op_operand(op, i);
        if (ptoc_pto_inplace_allowed(op, pl->arch, i, in->type, out->type) &&
            memplan_buffer_space(in->type, &space)) {
            handover h = {point, use_of_operand(pl, first_use, i), use_of_operand(pl, first_use, nins)};
            if (h.in != NO_SET && h.out != NO_SET)
                *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->handovers, pl->nhandovers, pl->handovers_cap) = h;
        }
    }
}

/* A record for an op with regions, made the current scope. */
/* An scf.for whose constant bounds give it at least one trip. */
static bool runs_once(const ptoc_op *op)
{
    int64_t lb, ub, step;
    return op->noperands >= 3 && ptoc_arith_int_constant(ptoc_op_operand(op, 0), &lb) &&
           ptoc_arith_int_constant(ptoc_op_operand(op, 1), &ub) &&
           ptoc_arith_int_constant(ptoc_op_operand(op, 2), &step) && step > 0 && lb < ub;
}

static void open_scope(planner *pl, const ptoc_op *op, uint32_t kind, uint32_t point)
{
    scope_info sc = {op, kind, point, 0, pl->cur_scope, op->nregions, {{1, 0}, {1, 0}}, kind == OP_FOR && runs_once(op)};
    pl->cur_scope = pl->nscopes;
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->scopes, pl->nscopes, pl->scopes_cap) = sc;
}

/* Gives `op` its point (and an end point after its regions), records its buffer
 * uses and allocs, and unions its aliases. */
static void number_op(planner *pl, ptoc_op *op)
{
    uint32_t point = pl->npoints;
    pl->npoints += 2;                    /* the op, then the gap after it */
    uint32_t info = op_kind_of(pl, op), kind = info & OP_KIND_MASK;
    uint32_t space, first_use = pl->nuses;
    note_alloc(pl, op, kind, point);
    pl->needs_scratch |= (info & OP_SCRATCH) != 0;
    if (kind == OP_RESERVE)
        pl->reserve = op;                /* one per function (its verifier) */
    if (op->nregions == 0) {
        record_uses(pl, op, kind, point);
        record_handovers(pl, op, point, first_use);
        alias_op(pl, op, kind);
        return;
    }
    uint32_t outer_scope = pl->cur_scope, outer_region = pl->cur_region;
    open_scope(pl, op, kind, point);
    uint32_t self = pl->cur_scope;
    for (uint32_t i = 0; i < op->noperands; i++)   /* in its own scope: the walks visit the op */
        if (memplan_buffer_space(ptoc_op_operand(op, i)->type, &space))
            record_use(pl, op, i, point, false, false, false);
    if (kind == OP_IF && op->nregions == 2)
        number_arms(pl, op);
    else
        for (uint32_t r = 0; r < op->nregions; r++)
            number_region(pl, op, r);
    pl->scopes[self].end = pl->npoints;
    pl->cur_scope = outer_scope;
    pl->cur_region = outer_region;
    pl->npoints += 2;
    alias_op(pl, op, kind);
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
        uint32_t set = memplan_find(pl, a->node);
        if (buf_of[set] == NO_SET) {
            buffer b = {a->op, a->space, a->point, a->point, a->point, 0, 0, false, false, false};
            buf_of[set] = pl->nbufs;
            *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->bufs, pl->nbufs, pl->bufs_cap) = b;
        }
        buffer *b = &pl->bufs[buf_of[set]];
        if (b->nallocs++ == 0)
            b->alloc_node = a->node;
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

/* ---------------------------------------------------------------- driver */

/* The arch's hidden scratch window, pinned, when it has one. */
static void add_scratch(planner *pl)
{
    const ptoc_pto_arch_info *row = ptoc_pto_arch_info_of(pl->arch);
    if (!row || row->scratch_end <= row->scratch_begin)
        return;
    buffer b = {pl->func, PTOC_PTO_AS_VEC, 0, 0, 0, row->scratch_end - row->scratch_begin, row->scratch_begin,
                true, false, false};
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->bufs, pl->nbufs, pl->bufs_cap) = b;
}

/* A pinned buffer holds its bytes for the whole function: one piece. */
static void pin_whole_function(planner *pl, buffer *b)
{
    span all = {0, pl->npoints ? pl->npoints - 1 : 0};
    b->start = all.lo;
    b->end = all.hi;
    b->pieces = pl->npieces;
    b->npieces = 1;
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->pieces, pl->npieces, pl->pieces_cap) = all;
}

/* Pinned buffers get their one piece; sizes are aligned. The other pieces
 * come from the walk (walk_buffer). */
static void finish_buffers(planner *pl)
{
    for (uint32_t i = 0; i < pl->nbufs; i++) {
        buffer *b = &pl->bufs[i];
        if (b->fixed)
            pin_whole_function(pl, b);
        b->bytes = b->size;
        b->size = align_up(b->size ? b->size : 1, ptoc_pto_space_alignment(pl->arch, (ptoc_pto_address_space)b->space));
    }
}

/* A scaling tile an MX matmul reads as its a_scale or b_scale lives in the
 * scale buffer beside L0A or L0B, not in the fixpipe's: on an arch that has
 * them (the arch table's mx_scale_capacity) it is planned there. */
static void split_scale_buffers(planner *pl, const uint32_t *buf_of)
{
    const ptoc_pto_arch_info *row = ptoc_pto_arch_info_of(pl->arch);
    if (!row || !row->mx_scale_capacity)
        return;
    for (uint32_t i = 0; i < pl->nuses; i++) {
        uint32_t b = use_buffer(pl, buf_of, i);
        if (b == NO_SET || pl->bufs[b].space != PTOC_PTO_AS_SCALING || is_pinned(&pl->bufs[b]))
            continue;
        switch (ptoc_pto_scaling_buffer_of(pl->uses[i].op, pl->uses[i].operand)) {
        case PTOC_PTO_SCALING_LEFT: pl->bufs[b].space = MEMPLAN_SCALE_LEFT; break;
        case PTOC_PTO_SCALING_RIGHT: pl->bufs[b].space = MEMPLAN_SCALE_RIGHT; break;
        default: break;
        }
    }
}

/* ---------------------------------------------------------------- reserve_buffer */

/* A pto.reserve_buffer's base is a multiple of 256 bytes: PTOAS's rule for
 * the two spaces it reserves in (vec, mat; PTOPlanMemory.cpp's reserve table),
 * which the pipe ops that use the buffer were written against. */
#define RESERVE_ALIGN 256u

/* The lowest multiple of RESERVE_ALIGN where `bytes` of `space` overlap no
 * pinned buffer (manual addresses, the scratch window). */
static uint64_t lowest_free(const planner *pl, uint32_t space, uint64_t bytes)
{
    uint64_t at = 0;
    for (bool moved = true; moved;) {
        moved = false;
        for (uint32_t i = 0; i < pl->nbufs; i++) {
            const buffer *b = &pl->bufs[i];
            if (b->fixed && b->space == space && b->offset < at + bytes && at < b->offset + b->size) {
                at = align_up(b->offset + b->size, RESERVE_ALIGN);
                moved = true;
            }
        }
    }
    return at;
}

static int64_t int_attr_or(const ptoc_op *op, const char *name, int64_t fallback)
{
    const ptoc_attr *a = ptoc_op_attr(op, name);
    return a && a->kind == PTOC_ATTR_INTEGER ? a->u.integer.value : fallback;
}

/* The function's pto.reserve_buffer takes its bytes for the whole function: a
 * pinned buffer at its `base` (given, or written by an earlier plan), else at
 * the lowest free multiple of 256 bytes; false (after a diagnostic at the op)
 * when the base is misaligned or the bytes end beyond the space's capacity. */
static bool add_reservation(planner *pl)
{
    ptoc_op *op = pl->reserve;
    uint32_t space = 0;
    if (!op || !ptoc_pto_enum_value(ptoc_op_attr(op, "location"), PTOC_PTO_ENUM_ADDRESS_SPACE, &space))
        return true;
    uint64_t size = align_up((uint64_t)int_attr_or(op, "size", 1),
                             ptoc_pto_space_alignment(pl->arch, (ptoc_pto_address_space)space));
    uint64_t cap = ptoc_pto_planned_capacity(pl->ctx, pl->arch, (ptoc_pto_address_space)space);
    int64_t base = int_attr_or(op, "base", -1);
    if (base >= 0 && base % RESERVE_ALIGN != 0) {
        ptoc_op_emit_error(op, "reserve_buffer base %lld is not a multiple of %u bytes", (long long)base,
                           RESERVE_ALIGN);
        return false;
    }
    uint64_t offset = base >= 0 ? (uint64_t)base : lowest_free(pl, space, size);
    if (offset + size > cap) {
        ptoc_op_emit_error(op, "reserve_buffer needs bytes [%llu, %llu) of %s, which has %llu",
                           (unsigned long long)offset, (unsigned long long)(offset + size),
                           ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, space), (unsigned long long)cap);
        return false;
    }
    buffer b = {op, space, 0, 0, 0, size, offset, true, false, false};
    b.reserve = true;
    b.bytes = size;
    *PTOC_VARR_PUSH_FIELDS(NULL, pl->tmp, pl->bufs, pl->nbufs, pl->bufs_cap) = b;
    pin_whole_function(pl, &pl->bufs[pl->nbufs - 1]);
    return true;
}

/* A copy of `alloc` (a split alloc_tile), just after it, at `offset`. */
static ptoc_op *clone_alloc(planner *pl, ptoc_op *alloc, uint64_t offset, ptoc_arena *arena)
{
    ptoc_value **operands = PTOC_NEW_ARRAY(pl->tmp, ptoc_value *, alloc->noperands + 1);
    for (uint32_t i = 0; i < alloc->noperands; i++)
        operands[i] = ptoc_op_operand(alloc, i);
    ptoc_builder bld;
    ptoc_builder_init(&bld, pl->ctx, arena);
    ptoc_builder_set_after(&bld, alloc);
    bld.loc = alloc->loc;
    ptoc_type *type = alloc->results[0].type;
    ptoc_op *copy = ptoc_builder_create(&bld, ptoc_pto_op_name(PTOC_PTO_OP_ALLOC_TILE), alloc->noperands,
                                        operands, 1, &type, alloc->nattrs, alloc->attrs, 0);
    ptoc_op_set_attr(copy, arena, ptoc_ident_cstr(pl->ctx, "pto.planned_offset"),
                     ptoc_attr_int(pl->ctx, ptoc_type_int(pl->ctx, 64, PTOC_SIGNLESS), (int64_t)offset));
    return copy;
}

/* The webs of a split alloc that landed at the alloc's own offset keep it;
 * each other offset gets one copy of the alloc. value[w] is what web w's uses
 * then name. */
static void materialize_webs(planner *pl, uint32_t first, ptoc_value **value, ptoc_arena *arena)
{
    const buffer *b0 = &pl->bufs[first];
    value[first] = &b0->root->results[0];
    for (uint32_t w = b0->webs_from; w < b0->webs_to; w++) {
        const buffer *web = &pl->bufs[w];
        value[w] = web->offset == b0->offset ? value[first] : NULL;
        for (uint32_t v = b0->webs_from; v < w && !value[w]; v++)
            if (pl->bufs[v].offset == web->offset)
                value[w] = value[v];     /* a copy at this offset exists */
        if (!value[w])
            value[w] = &clone_alloc(pl, b0->root, web->offset, arena)->results[0];
    }
}

/* An auto reserve_buffer gets the offset it was given as its `base`, the
 * address its result stands for. */
static void annotate_reservation(planner *pl, ptoc_arena *arena)
{
    for (uint32_t i = 0; i < pl->nbufs; i++)
        if (pl->bufs[i].reserve && !ptoc_op_attr(pl->bufs[i].root, "base"))
            ptoc_op_set_attr(pl->bufs[i].root, arena, ptoc_ident_cstr(pl->ctx, "base"),
                             ptoc_attr_int(pl->ctx, ptoc_type_int(pl->ctx, 32, PTOC_SIGNLESS),
                                           (int64_t)pl->bufs[i].offset));
}

static void annotate(planner *pl, const uint32_t *buf_of, ptoc_arena *arena)
{
    ptoc_type *i64 = ptoc_type_int(pl->ctx, 64, PTOC_SIGNLESS);
    ptoc_ident *name = ptoc_ident_cstr(pl->ctx, "pto.planned_offset");
    annotate_reservation(pl, arena);
    for (uint32_t i = 0; i < pl->nallocs; i++) {
        const alloc_rec *a = &pl->allocs[i];
        const buffer *b = &pl->bufs[buf_of[memplan_find(pl, a->node)]];
        if (a->kind == ALLOC_PLANNED && !b->unknown)
            ptoc_op_set_attr(a->op, arena, name, ptoc_attr_int(pl->ctx, i64, (int64_t)b->offset));
    }
    ptoc_value **value = PTOC_NEW_ARRAY(pl->tmp, ptoc_value *, pl->nbufs + 1);
    for (uint32_t b = 0; b < pl->nbufs; b++)
        if (pl->bufs[b].split && pl->bufs[b].web == 0)
            materialize_webs(pl, b, value, arena);
    for (uint32_t i = 0; i < pl->nuses; i++)
        if (pl->uses[i].web != NO_SET && value[pl->uses[i].web] != &pl->bufs[pl->uses[i].web].root->results[0])
            ptoc_op_set_operand(pl->uses[i].op, pl->uses[i].operand, value[pl->uses[i].web]);
}

static bool print_requested(ptoc_context *ctx, const ptoc_pass_options *opts)
{
    const char *v = opts ? ptoc_pass_option(opts, "print") : NULL;
    if (!v)
        v = ptoc_context_option(ctx, "pto-test-print-memplan");
    return ptoc_pass_flag(v);
}

static bool run_plan_memory(ptoc_op *func, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    ptoc_context *ctx = ptoc_op_context(func);
    ptoc_pto_arch arch;
    if (!ptoc_pass_target_arch(func, &arch))
        return false;
    planner pl = {0};
    pl.ctx = ctx;
    pl.tmp = ptoc_arena_create(ctx);
    pl.func = func;
    pl.cur_arm = NO_ARM;
    pl.cur_scope = NO_SCOPE;
    pl.arch = arch;
    ptoc_ptrmap_init(&pl.node_of, ctx);
    ptoc_ptrmap_init(&pl.kind_of, ctx);
    pl.npoints = 1;                      /* point 0: the function's entry */
    if (func->nregions)
        number_region(&pl, func, 0);
    bool ok = !pl.bad;
    uint32_t *buf_of = make_buffers(&pl);
    memplan_compute_ranges(&pl, buf_of);
    if (pl.needs_scratch)
        add_scratch(&pl);
    finish_buffers(&pl);
    split_scale_buffers(&pl, buf_of);
    ok = ok && add_reservation(&pl);
    if (ok)
        memplan_exact_conflicts(&pl, buf_of);
    memplan_merge_handovers(&pl, buf_of);
    bool print = print_requested(ctx, opts);
    if (ok && print)
        printf("memplan @%s\n", ptoc_pass_func_name(func));
    for (uint32_t s = PTOC_PTO_AS_MAT; ok && s <= MEMPLAN_SCALE_RIGHT; s++)
        ok = memplan_plan_space(&pl, s, print);
    if (ok)
        annotate(&pl, buf_of, arena);
    ptoc_ptrmap_free(&pl.node_of);
    ptoc_ptrmap_free(&pl.kind_of);
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
