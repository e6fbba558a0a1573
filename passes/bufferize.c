/* bufferize.c: the "pto-bufferize" pass, which gives every Level-1 tile value a buffer.
 *
 * Requires: a func.func whose tiles may be Level-1 SSA values (`!pto.tile`),
 *           produced by pto ops written `%r = pto.op %a, %b : ... -> !pto.tile<..>`
 *           and flowing through scf.for/if/while, block arguments, func.call and
 *           the function's own arguments and results.
 * Produces: Level 2 (DPS) only, no `!pto.tile` left. Each op with tile results
 *           becomes `pto.op ins(...) outs(%b)`, where %b is either a new
 *           `pto.alloc_tile` (no addr; valid_row/valid_col when the valid shape is
 *           dynamic) placed just before the op, or a dying operand's buffer when
 *           the op may write in place over it. `pto.tstore %t, %v` becomes
 *           `pto.tstore ins(%t) outs(%v)`. Block arguments, scf/func.call results
 *           and the function type are retyped from `!pto.tile<D>` to
 *           `!pto.tile_buf<D>`: a value is then its buffer, so a yield into an
 *           iter_arg means the loop carries that buffer (pto-plan-memory aliases them).
 *           Where pto-plan-memory's aliasing would otherwise be unsound, a copy
 *           `pto.tmov ins(%src) outs(%dst)` is inserted (see "control flow").
 *           A tsel/tsels written without its tmp (3 ins), Level 1 or 2, gets an
 *           address-less scratch buffer as tmp where the arch's select needs
 *           one (A2/A3: ptoc_pto_select_scratch).
 * Method:   retype first (types only, no new ops), then visit the pto ops in program
 *           order (pre-order, so every operand is already a buffer). The op table's
 *           effects say over which operands an op may write in place, and from
 *           which operand a dynamic valid shape comes. In place is taken only when
 *           it is plainly safe: the operand's buffer has the result's type, comes from
 *           an alloc_tile in the op's own block or is an iter_arg of the scf.for whose
 *           body that block is (so never a value from outside the loop the op is in, nor
 *           a function argument), and every other use of it is a result-less pto op
 *           earlier in that block (so no later use, and no alias made by a yield, an
 *           init, a call or a view op). Last, control flow is made to own its buffers,
 *           since the planner gives a loop's init, iter_arg, yields and result one
 *           buffer, and an scf.if's result and yields one buffer: a loop init still used
 *           elsewhere is copied, a body yields its value into the carried buffer
 *           (copying unless it was written there in place), and an scf.if branch yields
 *           a buffer defined in that branch (copying a value from outside it).
 */
#include "passes/passes.h"

#include "ptoc/pto.h"
#include "ptoc/util.h"

#include <string.h>

/* ---------------------------------------------------------------- valid shapes */

enum {
    SHAPE_NONE = -1,      /* a dynamic valid shape cannot be derived: diagnose */
    SHAPE_VIEW = -2,      /* tload: from the partition view's sizes */
    SHAPE_SAME_TYPE = -3, /* the first operand of the result's own type */
};

/* The operand whose valid shape a dynamic result of `op` has, or SHAPE_*: the
 * op table's vshape column, as in-place writes are its inpl column
 * (ptoc_pto_op_effects). */
static int shape_from(const ptoc_op *op)
{
    switch (ptoc_pto_op_effects(op)->vshape) {
    case PTOC_PTO_VSHAPE_IN0: return 0;
    case PTOC_PTO_VSHAPE_IN1: return 1;
    case PTOC_PTO_VSHAPE_VIEW: return SHAPE_VIEW;
    case PTOC_PTO_VSHAPE_SAME_TYPE: return SHAPE_SAME_TYPE;
    case PTOC_PTO_VSHAPE_NONE: break;
    }
    return SHAPE_NONE;
}

/* ---------------------------------------------------------------- state */

typedef struct bz {
    ptoc_context *ctx;
    ptoc_arena *arena;
    ptoc_op_varr ops;     /* pto ops to rewrite, in program order */
    bool failed;
} bz;

static ptoc_type *buf_type_of(ptoc_context *ctx, const ptoc_type *t)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile(t);
    return d ? ptoc_pto_tile_type(ctx, PTOC_PTO_TYPE_TILE_BUF, d) : NULL;
}

/* ---------------------------------------------------------------- retyping */

/* The values keep their uses; only the type changes, so the use-lists stay valid. */
static void retype_value(ptoc_context *ctx, ptoc_value *v)
{
    ptoc_type *t = buf_type_of(ctx, v->type);
    if (t)
        v->type = t;
}

static ptoc_type *retype_function_type(ptoc_context *ctx, ptoc_arena *arena, const ptoc_type *fn)
{
    uint32_t ni = fn->u.func.ninputs, nr = fn->u.func.nresults;
    ptoc_type **types = PTOC_NEW_ARRAY(arena, ptoc_type *, ni + nr + 1);
    for (uint32_t i = 0; i < ni + nr; i++) {
        ptoc_type *t = i < ni ? fn->u.func.inputs[i] : fn->u.func.results[i - ni];
        ptoc_type *b = buf_type_of(ctx, t);
        types[i] = b ? b : t;
    }
    return ptoc_type_function(ctx, ni, types, nr, types + ni);
}

static bool retype_function(bz *st, ptoc_op *func)
{
    ptoc_attr *a = ptoc_op_attr(func, "function_type");
    if (!a || a->kind != PTOC_ATTR_TYPE || a->u.type->kind != PTOC_TYPE_FUNCTION) {
        ptoc_op_emit_error(func, "cannot retype tile arguments: no 'function_type' attribute");
        return false;
    }
    ptoc_type *fn = retype_function_type(st->ctx, st->arena, a->u.type);
    ptoc_op_set_attr(func, st->arena, ptoc_ident_cstr(st->ctx, "function_type"), ptoc_attr_type(st->ctx, fn));
    return true;
}

static bool has_tile_result(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++)
        if (ptoc_pto_tile(op->results[i].type))
            return true;
    return false;
}

/* Ops other than pto ones whose tile results are just retyped: control flow
 * carries the buffer, a call returns what the (also bufferized) callee returns. */
static bool carries_buffers(const ptoc_op *op)
{
    return strncmp(op->name->str, "scf.", 4) == 0 || ptoc_op_is(op, "func.call");
}

static ptoc_walk_result retype_op(ptoc_op *op, void *user)
{
    bz *st = user;
    for (uint32_t r = 0; r < op->nregions; r++)
        for (ptoc_block *b = op->regions[r].first; b; b = b->next)
            for (uint32_t i = 0; i < b->nargs; i++)
                retype_value(st->ctx, b->args[i]);
    if (ptoc_pto_op_info_of(op)) {
        if (has_tile_result(op) || ptoc_pto_is(op, PTOC_PTO_OP_TSTORE))
            ptoc_op_varr_push(&st->ops, op);
        return PTOC_WALK_ADVANCE;
    }
    if (!has_tile_result(op))
        return PTOC_WALK_ADVANCE;
    if (!carries_buffers(op)) {
        ptoc_op_emit_error(op, "cannot bufferize a !pto.tile result of an op that is neither a pto op nor "
                           "control flow");
        st->failed = true;
        return PTOC_WALK_ADVANCE;
    }
    for (uint32_t i = 0; i < op->nresults; i++)
        retype_value(st->ctx, &op->results[i]);
    return PTOC_WALK_ADVANCE;
}

/* ---------------------------------------------------------------- in place */

/* `op`'s ancestor (or itself) that sits directly in `block`, or NULL. */
static ptoc_op *ancestor_in(ptoc_op *op, const ptoc_block *block)
{
    while (op && op->block != block)
        op = ptoc_op_parent(op);
    return op;
}

static bool comes_before(const ptoc_op *a, const ptoc_op *b)
{
    for (const ptoc_op *o = a->next; o; o = o->next)
        if (o == b)
            return true;
    return false;
}

/* A use that reads or writes the buffer and makes no alias of it. */
static bool is_plain_use(const ptoc_op *user)
{
    return ptoc_pto_op_info_of(user) && user->nresults == 0;
}

/* An iter_arg of the scf.for whose body is `block`: the loop owns its buffer
 * (see own_loop_inits), so the body may write over it once it is dead. */
static bool is_for_iter_arg(const ptoc_value *v, const ptoc_block *block)
{
    ptoc_op *loop = block->region ? block->region->owner : NULL;
    return v->kind == PTOC_VALUE_BLOCK_ARG && v->owner.block == block && v->index > 0 && loop &&
           ptoc_op_is(loop, "scf.for");
}

/* The rule of the header: `buf` may be overwritten by `op` producing `want`. */
static bool may_overwrite(ptoc_op *op, ptoc_value *buf, const ptoc_type *want)
{
    ptoc_op *def = ptoc_value_def(buf);
    bool local_alloc = def && ptoc_pto_is(def, PTOC_PTO_OP_ALLOC_TILE) && def->block == op->block;
    if (buf->type != want || !(local_alloc || is_for_iter_arg(buf, op->block)))
        return false;
    for (ptoc_use *u = buf->uses; u; u = u->next) {
        if (u->owner == op)
            continue;
        ptoc_op *at = ancestor_in(u->owner, op->block);
        if (!is_plain_use(u->owner) || !at || !comes_before(at, op))
            return false;
    }
    return true;
}

/* A dying in the op may write its result over on its arch (the op table's
 * inpl column, ptoc_pto_inplace_allowed), or NULL. */
static ptoc_value *inplace_buffer(ptoc_op *op, const ptoc_type *want)
{
    ptoc_pto_arch arch = ptoc_pto_target_arch(op, NULL);
    for (uint32_t i = 0; i < op->noperands && i < 32; i++) {
        ptoc_value *in = ptoc_op_operand(op, i);
        if (ptoc_pto_inplace_allowed(op, arch, i, in->type, want) && may_overwrite(op, in, want))
            return in;
    }
    return NULL;
}

/* ---------------------------------------------------------------- valid shapes */

static ptoc_value *index_constant(bz *st, ptoc_builder *b, int64_t v)
{
    ptoc_type *index = ptoc_type_index(st->ctx);
    ptoc_named_attr value = {ptoc_ident_cstr(st->ctx, "value"), ptoc_attr_int(st->ctx, index, v)};
    return ptoc_op_result(ptoc_builder_create(b, "arith.constant", 0, NULL, 1, &index, 1, &value, 0), 0);
}

/* tload: rows and cols of a rank-2 partition view's `sizes = [%r, %c]`. */
static bool view_valid_dims(ptoc_op *op, const bool need[2], ptoc_value *dims[2])
{
    ptoc_op *view = ptoc_value_def(ptoc_op_operand(op, 0));
    ptoc_attr *seg = view ? ptoc_op_segment_attr(view) : NULL;
    if (!view || !ptoc_pto_is(view, PTOC_PTO_OP_PARTITION_VIEW) || !seg || seg->u.dense.n != 3 ||
        seg->u.dense.values[2] != 2) {
        ptoc_op_emit_error(op, "cannot bufferize a dynamic valid shape: the source is not a rank-2 "
                           "pto.partition_view whose sizes give it");
        return false;
    }
    uint32_t first = 1 + (uint32_t)seg->u.dense.values[1];
    for (int k = 0; k < 2; k++)
        dims[k] = need[k] ? ptoc_op_operand(view, first + (uint32_t)k) : NULL;
    return true;
}

/* The valid_row/valid_col operands of the alloc_tile that defines `buf`. */
static void alloc_valid_operands(const ptoc_value *buf, ptoc_value *given[2])
{
    ptoc_op *def = ptoc_value_def(buf);
    if (def)
        ptoc_pto_alloc_tile_valid(def, given);
    else
        given[0] = given[1] = NULL;
}

static int shape_operand(const ptoc_op *op, const ptoc_type *want)
{
    int from = shape_from(op);
    if (from != SHAPE_SAME_TYPE)
        return from;
    for (uint32_t i = 0; i < op->noperands; i++)
        if (ptoc_op_operand(op, i)->type == want)
            return (int)i;
    return SHAPE_NONE;
}

/* The run-time valid dims of a tile operand that `need` says are wanted: its
 * alloc's operands, or constants where the operand's own dim is static. */
static bool buffer_valid_dims(bz *st, ptoc_builder *b, ptoc_op *op, ptoc_value *src, const bool need[2],
                              ptoc_value *dims[2])
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(src->type);
    ptoc_value *given[2];
    alloc_valid_operands(src, given);
    int64_t valid[2] = {d ? d->valid_rows : PTOC_DYNAMIC, d ? d->valid_cols : PTOC_DYNAMIC};
    for (int k = 0; k < 2; k++) {
        if (!need[k])
            continue;
        dims[k] = valid[k] != PTOC_DYNAMIC ? index_constant(st, b, valid[k]) : given[k];
        if (!dims[k]) {
            ptoc_diag *d = ptoc_op_diag_error(op, "cannot bufferize a dynamic valid shape: the valid %s of its "
                                              "source are not known here", k ? "cols" : "rows");
            if (ptoc_value_def(src))
                ptoc_diag_op_note(d, ptoc_value_def(src), "source buffer defined here");
            else
                ptoc_diag_note(d, src->loc, "source is this block argument");
            ptoc_diag_report(d);
            return false;
        }
    }
    return true;
}

static bool valid_dims(bz *st, ptoc_builder *b, ptoc_op *op, const ptoc_type *want, const bool need[2],
                       ptoc_value *dims[2])
{
    int from = shape_operand(op, want);
    if (from == SHAPE_VIEW)
        return view_valid_dims(op, need, dims);
    if (from < 0 || (uint32_t)from >= op->noperands) {
        ptoc_op_emit_error(op, "cannot bufferize a dynamic valid shape: this op's result does not take the "
                           "valid shape of an operand");
        return false;
    }
    return buffer_valid_dims(st, b, op, ptoc_op_operand(op, (uint32_t)from), need, dims);
}

/* ---------------------------------------------------------------- rewriting */

static void add_segments(bz *st, ptoc_op_state *s, uint32_t n, const int64_t *sizes)
{
    ptoc_state_set_segment_sizes(s, st->ctx, n, sizes);
}

/* `%b = pto.alloc_tile [valid_row = %r] [valid_col = %c] : want` at `b`, with a
 * valid operand for each non-NULL entry of `dims`. */
static ptoc_value *alloc_buffer(bz *st, ptoc_builder *b, ptoc_type *want, ptoc_value *const dims[2])
{
    const char *alloc = ptoc_pto_op_name(PTOC_PTO_OP_ALLOC_TILE);
    ptoc_op_state s;
    ptoc_state_init(&s, st->arena, ptoc_context_op_def(st->ctx, alloc, strlen(alloc)), b->loc);
    int64_t seg[3] = {0, dims[0] != NULL, dims[1] != NULL};
    for (int k = 0; k < 2; k++)
        if (dims[k])
            ptoc_state_add_operand(&s, dims[k]);
    add_segments(st, &s, 3, seg);
    ptoc_state_add_result(&s, want);
    return ptoc_op_result(ptoc_builder_insert(b, &s), 0);
}

static void dynamic_dims(const ptoc_type *t, bool dynamic[2])
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(t);
    dynamic[0] = d->valid_rows == PTOC_DYNAMIC;
    dynamic[1] = d->valid_cols == PTOC_DYNAMIC;
}

/* The buffer `op`'s result of type `want` gets when it is not written in place. */
static ptoc_value *new_buffer(bz *st, ptoc_builder *b, ptoc_op *op, ptoc_type *want)
{
    ptoc_value *dims[2] = {NULL, NULL};
    bool dynamic[2];
    dynamic_dims(want, dynamic);
    if ((dynamic[0] || dynamic[1]) && !valid_dims(st, b, op, want, dynamic, dims))
        return NULL;
    return alloc_buffer(st, b, want, dims);
}

/* `pto.op ins(operands) outs(outs)` with op's attributes, before op. tload keeps
 * its six segments (its clause operands are none at Level 1). */
static void build_dps(bz *st, ptoc_builder *b, ptoc_op *op, uint32_t nouts, ptoc_value *const *outs)
{
    ptoc_op_state s;
    ptoc_state_init(&s, st->arena, op->def, op->loc);
    for (uint32_t i = 0; i < op->noperands; i++)
        ptoc_state_add_operand(&s, ptoc_op_operand(op, i));
    for (uint32_t i = 0; i < nouts; i++)
        ptoc_state_add_operand(&s, outs[i]);
    for (uint32_t i = 0; i < op->nattrs; i++)
        ptoc_state_add_attr(&s, op->attrs[i].name, op->attrs[i].value);
    int64_t seg[6] = {op->noperands, nouts, 0, 0, 0, 0};
    add_segments(st, &s, ptoc_pto_is(op, PTOC_PTO_OP_TLOAD) ? 6 : 2, seg);
    ptoc_builder_insert(b, &s);
}

/* Ops whose tile result is a view of their operand's memory, not a new value:
 * a copy would change their meaning, so Level-1 uses of them are refused. */
static bool is_view_op(const ptoc_op *op)
{
    switch (ptoc_pto_opcode(op)) {
    case PTOC_PTO_OP_BIND_TILE: case PTOC_PTO_OP_SUBSET: case PTOC_PTO_OP_SET_VALIDSHAPE:
    case PTOC_PTO_OP_BITCAST: case PTOC_PTO_OP_TRESHAPE: case PTOC_PTO_OP_POINTER_CAST:
    case PTOC_PTO_OP_DECLARE_TILE: case PTOC_PTO_OP_TASSIGN:
        return true;
    default:
        return false;
    }
}

static bool check_level1(const ptoc_op *op)
{
    if (is_view_op(op)) {
        ptoc_op_emit_error(op, "cannot bufferize a view of a !pto.tile: write it on a !pto.tile_buf");
        return false;
    }
    if (ptoc_op_segment_attr(op)) {
        ptoc_op_emit_error(op, "has both ins/outs and a !pto.tile result: mixed Level-1 and Level-2 form");
        return false;
    }
    if (ptoc_pto_is(op, PTOC_PTO_OP_TLOAD) && op->noperands != 1) {
        ptoc_op_emit_error(op, "a Level-1 tload takes exactly one operand, the view");
        return false;
    }
    for (uint32_t i = 0; i < op->nresults; i++)
        if (!ptoc_pto_tile(op->results[i].type)) {
            ptoc_op_emit_error(op, "cannot bufferize: result %u is not a !pto.tile while another is", i);
            return false;
        }
    return true;
}

static bool bufferize_tile_op(bz *st, ptoc_op *op)
{
    if (!check_level1(op))
        return false;
    ptoc_builder b;
    ptoc_builder_init(&b, st->ctx, st->arena);
    ptoc_builder_set_before(&b, op);
    b.loc = op->loc;
    ptoc_value **outs = PTOC_NEW_ARRAY(st->arena, ptoc_value *, op->nresults);
    for (uint32_t i = 0; i < op->nresults; i++) {
        ptoc_type *want = buf_type_of(st->ctx, op->results[i].type);
        outs[i] = op->nresults == 1 ? inplace_buffer(op, want) : NULL;
        if (!outs[i])
            outs[i] = new_buffer(st, &b, op, want);
        if (!outs[i])
            return false;
    }
    build_dps(st, &b, op, op->nresults, outs);
    for (uint32_t i = 0; i < op->nresults; i++)
        ptoc_value_replace_all_uses(&op->results[i], outs[i]);
    ptoc_op_erase(op);
    return true;
}

/* Marks `op` as a DPS op of `nins` ins and `nouts` outs (how pto_ops.c stores them). */
static void set_dps_segments(bz *st, ptoc_op *op, uint32_t nins, uint32_t nouts)
{
    int64_t seg[2] = {nins, nouts};
    ptoc_op_set_segment_sizes(op, st->arena, 2, seg);
}

/* `pto.tstore %t[, %q], %v` -> `pto.tstore ins(%t[, %q]) outs(%v)`: same operands. */
static bool bufferize_tstore(bz *st, ptoc_op *op)
{
    if (ptoc_op_segment_attr(op) || op->noperands < 2)
        return true;
    set_dps_segments(st, op, op->noperands - 1, 1);
    return true;
}

/* ---------------------------------------------------------------- control flow */

/* pto-plan-memory gives a loop's init, iter_arg, yield and result one buffer, and
 * an scf.if's result and the yields of both branches one buffer. Bufferize keeps
 * that sound: a loop owns its iter_arg buffers, and a branch yields a buffer of
 * its own. Where that is not already so, a copy (pto.tmov) makes it so. */

static ptoc_value *copy_to(bz *st, ptoc_builder *b, ptoc_value *src, ptoc_value *dst)
{
    ptoc_value *ops[2] = {src, dst};
    ptoc_op *mov = ptoc_builder_create(b, ptoc_pto_op_name(PTOC_PTO_OP_TMOV), 2, ops, 0, NULL, 0, NULL, 0);
    set_dps_segments(st, mov, 1, 1);
    return dst;
}

/* A fresh buffer (same type, valid shape taken from `src`) holding a copy of
 * `src`; `at` is where a diagnostic goes. */
static ptoc_value *fresh_copy(bz *st, ptoc_builder *b, ptoc_op *at, ptoc_value *src)
{
    ptoc_value *dims[2] = {NULL, NULL};
    bool dynamic[2];
    dynamic_dims(src->type, dynamic);
    if ((dynamic[0] || dynamic[1]) && !buffer_valid_dims(st, b, at, src, dynamic, dims))
        return NULL;
    return copy_to(st, b, src, alloc_buffer(st, b, src->type, dims));
}

static bool is_tile_buf(const ptoc_value *v) { return ptoc_pto_tile_buf(v->type) != NULL; }

static bool used_twice(const ptoc_op *op, uint32_t from, uint32_t i)
{
    for (uint32_t j = from; j < op->noperands; j++)
        if (j != i && ptoc_op_operand(op, j) == ptoc_op_operand(op, i))
            return true;
    return false;
}

/* The operands of a loop that initialise its carried values: scf.for's after
 * lb, ub and step; all of scf.while's. */
static uint32_t first_init(const ptoc_op *loop)
{
    return ptoc_op_is(loop, "scf.for") ? 3 : 0;
}

/* Replaces each operand i >= first of `op` for which `needs_copy` holds by a
 * fresh copy built just before `op`. */
static bool copy_operands_where(bz *st, ptoc_op *op, uint32_t first,
                                bool (*needs_copy)(ptoc_op *op, uint32_t first, uint32_t i))
{
    ptoc_builder b;
    ptoc_builder_init(&b, st->ctx, st->arena);
    ptoc_builder_set_before(&b, op);
    b.loc = op->loc;
    for (uint32_t i = first; i < op->noperands; i++) {
        if (!needs_copy(op, first, i))
            continue;
        ptoc_value *copy = fresh_copy(st, &b, op, ptoc_op_operand(op, i));
        if (!copy)
            return false;
        ptoc_op_set_operand(op, i, copy);
    }
    return true;
}

/* Inits the loop may not write over (used elsewhere, a block argument, passed
 * twice) are copied into a buffer of the loop's own. */
static bool init_needs_copy(ptoc_op *loop, uint32_t first, uint32_t i)
{
    ptoc_value *init = ptoc_op_operand(loop, i);
    return is_tile_buf(init) && !(may_overwrite(loop, init, init->type) && !used_twice(loop, first, i));
}

static bool own_loop_inits(bz *st, ptoc_op *loop)
{
    return copy_operands_where(st, loop, first_init(loop), init_needs_copy);
}

/* The buffer carried in position i: scf.for's iter_arg, scf.while's (owned)
 * init, which is in scope in both of its regions. */
static ptoc_value *carried_buffer(ptoc_op *loop, ptoc_block *body, uint32_t i)
{
    return ptoc_op_is(loop, "scf.for") ? body->args[i + 1] : ptoc_op_operand(loop, i);
}

/* Whether a yielded `y` may be some position's carried buffer, overwritten by
 * that position's copy before it is read: a block argument of the body (after
 * in-place writes, a value is its buffer) or a carried buffer itself. */
static bool may_be_overwritten(ptoc_op *loop, ptoc_block *body, const ptoc_op *yield, const ptoc_value *y)
{
    if (y->kind == PTOC_VALUE_BLOCK_ARG && y->owner.block == body)
        return true;
    for (uint32_t k = 0; k < yield->noperands; k++)
        if (carried_buffer(loop, body, k) == y)
            return true;
    return false;
}

/* The loop body yields into the carried buffers: a yielded buffer that is not
 * the carried one is copied into it. A yielded buffer that may itself be carried
 * (a swap of iter_args) goes through a temporary first, so no copy reads a
 * buffer already overwritten. */
static bool yield_into_carried(bz *st, ptoc_op *loop, ptoc_block *body)
{
    ptoc_op *yield = body ? ptoc_block_terminator(body) : NULL;
    if (!yield || !ptoc_op_is(yield, "scf.yield"))
        return true;
    ptoc_builder b;
    ptoc_builder_init(&b, st->ctx, st->arena);
    ptoc_builder_set_before(&b, yield);
    b.loc = yield->loc;
    for (uint32_t i = 0; i < yield->noperands; i++) {
        ptoc_value *y = ptoc_op_operand(yield, i);
        if (is_tile_buf(y) && y != carried_buffer(loop, body, i) && may_be_overwritten(loop, body, yield, y)) {
            ptoc_value *tmp = fresh_copy(st, &b, yield, y);
            if (!tmp)
                return false;
            ptoc_op_set_operand(yield, i, tmp);
        }
    }
    for (uint32_t i = 0; i < yield->noperands; i++) {
        ptoc_value *y = ptoc_op_operand(yield, i), *carried = carried_buffer(loop, body, i);
        if (is_tile_buf(y) && y != carried)
            ptoc_op_set_operand(yield, i, copy_to(st, &b, y, carried));
    }
    return true;
}

/* Each branch of an scf.if yields a buffer defined in that branch, once. */
static bool yield_needs_copy(ptoc_op *yield, uint32_t first, uint32_t i)
{
    ptoc_value *y = ptoc_op_operand(yield, i);
    ptoc_op *def = ptoc_value_def(y);
    bool inside = def ? ancestor_in(def, yield->block) != NULL : y->owner.block == yield->block;
    return is_tile_buf(y) && !(inside && !used_twice(yield, first, i));
}

static bool yield_own_buffers(bz *st, ptoc_op *yield)
{
    return copy_operands_where(st, yield, 0, yield_needs_copy);
}

static ptoc_walk_result fix_control_flow(ptoc_op *op, void *user)
{
    bz *st = user;
    bool ok = true;
    if (ptoc_op_is(op, "scf.for") || ptoc_op_is(op, "scf.while"))
        ok = own_loop_inits(st, op) && yield_into_carried(st, op, op->regions[op->nregions - 1].first);
    else if (ptoc_op_is(op, "scf.yield") && ptoc_op_is(ptoc_op_parent(op), "scf.if"))
        ok = yield_own_buffers(st, op);
    if (!ok)
        st->failed = true;
    return ok ? PTOC_WALK_ADVANCE : PTOC_WALK_INTERRUPT;
}

/* ---------------------------------------------------------------- select scratch */

/* tsel/tsels written without tmp, on an arch whose select needs one
 * (ptoc_pto_select_scratch): a fresh address-less buffer, placed by the planner
 * like any other, goes in as tmp. */
static ptoc_walk_result supply_scratch(ptoc_op *op, void *user)
{
    bz *st = user;
    uint32_t nins, nouts, at;
    ptoc_type *scratch = ptoc_pto_select_scratch(op, &at);
    if (!scratch || !ptoc_op_segment_attr(op) || !ptoc_pto_dps_split(op, &nins, &nouts) ||
        nins != 3)
        return PTOC_WALK_ADVANCE;
    ptoc_builder b;
    ptoc_builder_init(&b, st->ctx, st->arena);
    ptoc_builder_set_before(&b, op);
    b.loc = op->loc;
    ptoc_value *none[2] = {NULL, NULL};
    ptoc_value *tmp = alloc_buffer(st, &b, scratch, none);
    ptoc_value **operands = PTOC_NEW_ARRAY(st->arena, ptoc_value *, op->noperands + 1);
    for (uint32_t i = 0, k = 0; i <= op->noperands; i++)
        operands[i] = i == at ? tmp : ptoc_op_operand(op, k++);
    ptoc_op_set_operands(op, st->arena, op->noperands + 1, operands);
    set_dps_segments(st, op, nins + 1, nouts);
    return PTOC_WALK_ADVANCE;
}

static bool run_bufferize(ptoc_op *func, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)opts;
    bz st = {ptoc_op_context(func), arena, {0}, false};
    ptoc_op_varr_init(&st.ops, st.ctx);
    ptoc_walk_pre(func, retype_op, &st);
    bool ok = !st.failed && retype_function(&st, func);
    for (uint32_t i = 0; ok && i < st.ops.len; i++)
        ok = ptoc_pto_is(st.ops.data[i], PTOC_PTO_OP_TSTORE) ? bufferize_tstore(&st, st.ops.data[i])
                                                             : bufferize_tile_op(&st, st.ops.data[i]);
    if (ok)
        ok = ptoc_walk_pre(func, fix_control_flow, &st);
    if (ok)
        ptoc_walk_pre(func, supply_scratch, &st);
    ptoc_op_varr_free(&st.ops);
    return ok;
}

const ptoc_pass_def ptoc_bufferize_pass = {
    .name = "pto-bufferize",
    .summary = "Give every Level-1 !pto.tile value a !pto.tile_buf (alloc_tile or in place) and rewrite to DPS",
    .anchor = "func.func",
    .run = run_bufferize,
    .option_names = NULL,
};
