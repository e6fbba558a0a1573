/* insert_tassign.c: the "pto-insert-tassign" pass, which writes the memory plan in
 * the manual-mode form.
 *
 * Requires: `pto.planned_offset = N : i64` on buffers (from pto-plan-memory);
 *           runs on each func.func.
 * Produces: each `pto.alloc_tile` with the attribute gets `addr = %cN`, an
 *           `arith.constant N : i64` at the start of the function's entry block
 *           (one constant per offset, shared); each `memref.alloc`/`alloca` keeps
 *           its op and gets `pto.addr = N : i64`, which codegen reads. The
 *           attribute `pto.planned_offset` is gone afterwards; the result is
 *           PTOAS level3 text that prints and parses back. Existing pto.tassign
 *           ops are left as they are.
 * Method:   one walk collects the annotated ops, then each is rewritten; the
 *           constants are looked up in a small table kept sorted by offset.
 */
#include "passes/passes.h"
#include "ptoc/pto.h"
#include "ptoc/util.h"

#include "ptoc/pto.h"

#include <stdlib.h>
#include <string.h>

#define PLANNED "pto.planned_offset"

typedef struct offset_const { int64_t offset; ptoc_value *value; } offset_const;
PTOC_VARR_DEF(offset_const, offset_const_varr)

typedef struct tassign_state {
    ptoc_context *ctx;
    ptoc_arena *arena;            /* the module's: new ops */
    ptoc_arena *tmp;              /* this run's tables */
    ptoc_block *entry;
    ptoc_op *first_const_anchor;  /* constants go before this op (the entry's first) */
    offset_const_varr consts;     /* sorted by offset */
    ptoc_op_varr ops;             /* the ops with a planned offset, in order */
} tassign_state;

static ptoc_walk_result collect(ptoc_op *op, void *user)
{
    if (ptoc_op_attr(op, PLANNED))
        ptoc_op_varr_push(&((tassign_state *)user)->ops, op);
    return PTOC_WALK_ADVANCE;
}

/* Binary search in the sorted table; returns the insertion index when absent. */
static uint32_t find_const(const tassign_state *st, int64_t offset)
{
    uint32_t lo = 0, hi = st->consts.len;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (st->consts.data[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static ptoc_value *make_const(tassign_state *st, int64_t offset, ptoc_loc loc)
{
    ptoc_type *i64 = ptoc_type_int(st->ctx, 64, PTOC_SIGNLESS);
    ptoc_named_attr value = {ptoc_ident_cstr(st->ctx, "value"), ptoc_attr_int(st->ctx, i64, offset)};
    ptoc_builder b;
    ptoc_builder_init(&b, st->ctx, st->arena);
    if (st->first_const_anchor)
        ptoc_builder_set_before(&b, st->first_const_anchor);
    else
        ptoc_builder_set_end(&b, st->entry);
    b.loc = loc;
    return ptoc_op_result(ptoc_builder_create(&b, "arith.constant", 0, NULL, 1, &i64, 1, &value, 0), 0);
}

/* The shared `arith.constant offset : i64`, created on first request. */
static ptoc_value *offset_value(tassign_state *st, int64_t offset, ptoc_loc loc)
{
    uint32_t i = find_const(st, offset);
    offset_const_varr *c = &st->consts;
    if (i < c->len && c->data[i].offset == offset)
        return c->data[i].value;
    offset_const_varr_reserve(c, c->len + 1);
    memmove(&c->data[i + 1], &c->data[i], (c->len - i) * sizeof *c->data);
    c->data[i].offset = offset;
    c->data[i].value = make_const(st, offset, loc);
    c->len++;
    return c->data[i].value;
}

/* alloc_tile's operands are [addr] [valid_row] [valid_col] with operandSegmentSizes. */
static bool give_alloc_tile_addr(tassign_state *st, ptoc_op *op, int64_t offset)
{
    uint32_t nseg;
    const int64_t *seg = ptoc_op_segment_sizes(op, &nseg);
    int64_t sizes[3] = {0, 0, 0};
    if (nseg == 3)
        memcpy(sizes, seg, sizeof sizes);
    if (ptoc_pto_buffer_addr(op).given) {
        ptoc_op_emit_error(op, "has both an addr and a planned offset");
        return false;
    }
    ptoc_value **vals = PTOC_NEW_ARRAY(st->arena, ptoc_value *, op->noperands + 1);
    vals[0] = offset_value(st, offset, op->loc);
    for (uint32_t i = 0; i < op->noperands; i++)
        vals[i + 1] = ptoc_op_operand(op, i);
    ptoc_op_set_operands(op, st->arena, op->noperands + 1, vals);
    sizes[0] = 1;
    ptoc_op_set_segment_sizes(op, st->arena, 3, sizes);
    return true;
}

static bool materialise(tassign_state *st, ptoc_op *op)
{
    ptoc_attr *planned = ptoc_op_attr(op, PLANNED);
    if (planned->kind != PTOC_ATTR_INTEGER || planned->u.integer.value < 0) {
        ptoc_op_emit_error(op, "'" PLANNED "' must be a non-negative integer");
        return false;
    }
    int64_t offset = planned->u.integer.value;
    if (ptoc_pto_is(op, PTOC_PTO_OP_ALLOC_TILE)) {
        if (!give_alloc_tile_addr(st, op, offset))
            return false;
    } else if (ptoc_op_is(op, "memref.alloc") || ptoc_op_is(op, "memref.alloca")) {
        ptoc_op_set_attr(op, st->arena, ptoc_ident_cstr(st->ctx, "pto.addr"), planned);
    } else {
        ptoc_op_emit_error(op, "'" PLANNED "' is only meaningful on pto.alloc_tile and memref.alloc/alloca");
        return false;
    }
    ptoc_op_remove_attr(op, PLANNED);
    return true;
}

static bool run_insert_tassign(ptoc_op *func, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)opts;
    ptoc_block *entry = func->nregions ? func->regions[0].first : NULL;
    if (!entry)
        return true;                   /* a declaration */
    ptoc_context *ctx = ptoc_op_context(func);
    tassign_state st = {ctx, arena, ptoc_arena_create(ctx), entry, entry->first, {0}, {0}};
    offset_const_varr_init_arena(&st.consts, st.tmp);
    ptoc_op_varr_init_arena(&st.ops, st.tmp);
    ptoc_walk_pre(func, collect, &st);
    bool ok = true;
    for (uint32_t i = 0; i < st.ops.len; i++)
        ok &= materialise(&st, st.ops.data[i]);
    ptoc_arena_destroy(st.tmp);
    return ok;
}

const ptoc_pass_def ptoc_insert_tassign_pass = {
    .name = "pto-insert-tassign",
    .summary = "Turn pto.planned_offset into manual addresses (alloc_tile addr = %c, memref pto.addr)",
    .anchor = "func.func",
    .run = run_insert_tassign,
    .option_names = NULL,
};
