/* ops.c: operations, values, blocks and regions, and what builds and walks them.
 *
 * An op holds its operands as an array of ptoc_use: each use sits in the used
 * value's intrusive, doubly-linked (next + back-pointer) use-list, so setting an
 * operand or erasing an op is O(1) per operand, and replacing all uses of a value
 * is O(its uses). Results are an array of values inside the op; attributes are an
 * array kept sorted by name. Everything lives in the arena the caller passes.
 * Nothing here scans a block or a use-list on a hot path.
 */
#include "ir/core_internal.h"
#include "ptoc/util.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- use-lists */

static void use_link(ptoc_use *u, ptoc_value *v)
{
    u->value = v;
    u->next = v->uses;
    if (v->uses)
        v->uses->prevp = &u->next;
    u->prevp = &v->uses;
    v->uses = u;
}

static void use_unlink(ptoc_use *u)
{
    if (!u->prevp)
        return;
    *u->prevp = u->next;
    if (u->next)
        u->next->prevp = u->prevp;
    u->next = NULL;
    u->prevp = NULL;
}

bool ptoc_value_has_uses(const ptoc_value *v) { return v->uses != NULL; }

size_t ptoc_value_num_uses(const ptoc_value *v)
{
    size_t n = 0;
    const ptoc_use *u;
    for (u = v->uses; u; u = u->next)
        n++;
    return n;
}

void ptoc_value_replace_all_uses(ptoc_value *from, ptoc_value *to)
{
    ptoc_use *u, *last = NULL;
    if (from == to || !from->uses)
        return;
    for (u = from->uses; u; u = u->next) {
        u->value = to;
        last = u;
    }
    /* Splice the whole list in front of `to`'s uses. */
    last->next = to->uses;
    if (to->uses)
        to->uses->prevp = &last->next;
    to->uses = from->uses;
    to->uses->prevp = &to->uses;
    from->uses = NULL;
}

ptoc_op *ptoc_value_def(const ptoc_value *v) { return v->kind == PTOC_VALUE_RESULT ? v->owner.op : NULL; }

ptoc_block *ptoc_value_block(const ptoc_value *v)
{
    return v->kind == PTOC_VALUE_RESULT ? v->owner.op->block : v->owner.block;
}

/* ---------------------------------------------------------------- op state */

void ptoc_state_init(ptoc_op_state *st, ptoc_arena *arena, const ptoc_op_def *def, ptoc_loc loc)
{
    memset(st, 0, sizeof *st);
    st->arena = arena;
    st->def = def;
    st->loc = loc;
}

void ptoc_state_add_operand(ptoc_op_state *st, ptoc_value *v)
{
    *PTOC_VARR_PUSH_FIELDS(NULL, st->arena, st->operands, st->noperands, st->operands_cap) = v;
}

void ptoc_state_add_result(ptoc_op_state *st, ptoc_type *t)
{
    *PTOC_VARR_PUSH_FIELDS(NULL, st->arena, st->result_types, st->nresult_types, st->results_cap) = t;
}

/* Index of `name` in a sorted attribute array, or where it would go (*found false). */
static uint32_t attr_search(const ptoc_named_attr *attrs, uint32_t n, const char *name, size_t len, bool *found)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = ptoc_name_cmp(attrs[mid].name->str, attrs[mid].name->len, name, len);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = false;
    return lo;
}

/* Sets `name` in a sorted array with capacity, growing it in `arena`. */
static ptoc_named_attr *attr_put(ptoc_arena *arena, ptoc_named_attr *attrs, uint32_t *n, uint32_t *cap,
                                 ptoc_ident *name, ptoc_attr *value)
{
    bool found;
    uint32_t i = attr_search(attrs, *n, name->str, name->len, &found);
    if (found) {
        attrs[i].value = value;
        return attrs;
    }
    attrs = ptoc_varr_grow(NULL, arena, attrs, *n, cap, *n + 1, sizeof *attrs, _Alignof(ptoc_named_attr));
    memmove(attrs + i + 1, attrs + i, (*n - i) * sizeof *attrs);
    attrs[i].name = name;
    attrs[i].value = value;
    (*n)++;
    return attrs;
}

void ptoc_state_add_attr(ptoc_op_state *st, ptoc_ident *name, ptoc_attr *value)
{
    st->attrs = attr_put(st->arena, st->attrs, &st->nattrs, &st->attrs_cap, name, value);
}

ptoc_attr *ptoc_state_attr(const ptoc_op_state *st, const char *name)
{
    bool found;
    uint32_t i = attr_search(st->attrs, st->nattrs, name, strlen(name), &found);
    return found ? st->attrs[i].value : NULL;
}

ptoc_region *ptoc_state_add_region(ptoc_op_state *st)
{
    ptoc_region *r = PTOC_VARR_PUSH_FIELDS(NULL, st->arena, st->regions, st->nregions, st->regions_cap);
    memset(r, 0, sizeof *r);
    return r;
}

/* ---------------------------------------------------------------- ops */

static int attr_cmp(const void *pa, const void *pb)
{
    const ptoc_named_attr *a = pa, *b = pb;
    return ptoc_name_cmp(a->name->str, a->name->len, b->name->str, b->name->len);
}

static bool attrs_sorted(const ptoc_named_attr *attrs, uint32_t n)
{
    uint32_t i;
    for (i = 1; i < n; i++)
        if (attr_cmp(&attrs[i - 1], &attrs[i]) > 0)
            return false;
    return true;
}

ptoc_op *ptoc_op_create(ptoc_arena *arena, const ptoc_op_state *st)
{
    ptoc_op *op = PTOC_NEW(arena, ptoc_op);
    ptoc_block *b;
    uint32_t i;
    op->def = st->def;
    op->ctx = arena->ctx;
    op->name = ptoc_ident_cstr(arena->ctx, st->def->name);
    op->loc = st->loc;
    op->noperands = st->noperands;
    op->operands = PTOC_NEW_ARRAY(arena, ptoc_use, st->noperands);
    for (i = 0; i < st->noperands; i++) {
        op->operands[i].owner = op;
        op->operands[i].index = i;
        use_link(&op->operands[i], st->operands[i]);
    }
    op->nresults = st->nresult_types;
    op->results = PTOC_NEW_ARRAY(arena, ptoc_value, st->nresult_types);
    for (i = 0; i < st->nresult_types; i++) {
        op->results[i].type = st->result_types[i];
        op->results[i].kind = PTOC_VALUE_RESULT;
        op->results[i].index = i;
        op->results[i].owner.op = op;
        op->results[i].loc = st->loc;
    }
    op->nattrs = op->attrs_cap = st->nattrs;
    op->attrs = ptoc_arena_dup(arena, st->attrs, st->nattrs * sizeof *op->attrs);
    if (!attrs_sorted(op->attrs, op->nattrs))   /* a state filled by hand */
        qsort(op->attrs, op->nattrs, sizeof *op->attrs, attr_cmp);
    op->nregions = st->nregions;
    op->regions = PTOC_NEW_ARRAY(arena, ptoc_region, st->nregions);
    for (i = 0; i < st->nregions; i++) {
        op->regions[i] = st->regions[i];
        op->regions[i].owner = op;
        for (b = op->regions[i].first; b; b = b->next)
            b->region = &op->regions[i];
    }
    return op;
}

ptoc_context *ptoc_op_context(const ptoc_op *op) { return op->ctx; }

bool ptoc_op_is(const ptoc_op *op, const char *name) { return strcmp(op->name->str, name) == 0; }

ptoc_op *ptoc_op_parent(const ptoc_op *op) { return op->block ? ptoc_block_parent_op(op->block) : NULL; }

ptoc_value *ptoc_op_operand(const ptoc_op *op, uint32_t i) { return op->operands[i].value; }

ptoc_value *ptoc_op_result(ptoc_op *op, uint32_t i) { return &op->results[i]; }

void ptoc_op_set_operand(ptoc_op *op, uint32_t i, ptoc_value *v)
{
    use_unlink(&op->operands[i]);
    use_link(&op->operands[i], v);
}

void ptoc_op_set_operands(ptoc_op *op, ptoc_arena *arena, uint32_t n, ptoc_value *const *vals)
{
    uint32_t i;
    for (i = 0; i < op->noperands; i++)
        use_unlink(&op->operands[i]);
    if (n > op->noperands)
        op->operands = PTOC_NEW_ARRAY(arena, ptoc_use, n);
    op->noperands = n;
    for (i = 0; i < n; i++) {
        op->operands[i].owner = op;
        op->operands[i].index = i;
        use_link(&op->operands[i], vals[i]);
    }
}

ptoc_attr *ptoc_op_attr(const ptoc_op *op, const char *name)
{
    bool found;
    uint32_t i = attr_search(op->attrs, op->nattrs, name, strlen(name), &found);
    return found ? op->attrs[i].value : NULL;
}

void ptoc_op_set_attr(ptoc_op *op, ptoc_arena *arena, ptoc_ident *name, ptoc_attr *value)
{
    op->attrs = attr_put(arena, op->attrs, &op->nattrs, &op->attrs_cap, name, value);
}

bool ptoc_op_remove_attr(ptoc_op *op, const char *name)
{
    bool found;
    uint32_t i = attr_search(op->attrs, op->nattrs, name, strlen(name), &found);
    if (!found)
        return false;
    memmove(op->attrs + i, op->attrs + i + 1, (op->nattrs - i - 1) * sizeof *op->attrs);
    op->nattrs--;
    return true;
}

/* ---------------------------------------------------------------- operand segments */

ptoc_attr *ptoc_op_segment_attr(const ptoc_op *op) { return ptoc_op_attr(op, PTOC_SEGMENT_SIZES_ATTR); }

const int64_t *ptoc_op_segment_sizes(const ptoc_op *op, uint32_t *n)
{
    ptoc_attr *a = ptoc_op_segment_attr(op);
    if (!a || a->kind != PTOC_ATTR_DENSE_ARRAY) {
        *n = 0;
        return NULL;
    }
    *n = a->u.dense.n;
    return a->u.dense.values;
}

static ptoc_attr *segment_sizes(ptoc_context *ctx, uint32_t n, const int64_t *sizes)
{
    return ptoc_attr_dense(ctx, ptoc_type_int(ctx, 32, PTOC_SIGNLESS), n, sizes);
}

void ptoc_state_set_segment_sizes(ptoc_op_state *st, ptoc_context *ctx, uint32_t n, const int64_t *sizes)
{
    ptoc_state_add_attr(st, ptoc_ident_cstr(ctx, PTOC_SEGMENT_SIZES_ATTR), segment_sizes(ctx, n, sizes));
}

void ptoc_op_set_segment_sizes(ptoc_op *op, ptoc_arena *arena, uint32_t n, const int64_t *sizes)
{
    ptoc_context *ctx = ptoc_op_context(op);
    ptoc_op_set_attr(op, arena, ptoc_ident_cstr(ctx, PTOC_SEGMENT_SIZES_ATTR), segment_sizes(ctx, n, sizes));
}

void ptoc_op_unlink(ptoc_op *op)
{
    ptoc_block *b = op->block;
    if (!b)
        return;
    if (op->prev)
        op->prev->next = op->next;
    else
        b->first = op->next;
    if (op->next)
        op->next->prev = op->prev;
    else
        b->last = op->prev;
    op->prev = op->next = NULL;
    op->block = NULL;
}

static ptoc_walk_result drop_uses(ptoc_op *op, void *user)
{
    uint32_t i;
    (void)user;
    for (i = 0; i < op->noperands; i++)
        use_unlink(&op->operands[i]);
    return PTOC_WALK_ADVANCE;
}

static ptoc_walk_result check_unused(ptoc_op *op, void *user)
{
    uint32_t i;
    (void)user;
    for (i = 0; i < op->nresults; i++)
        if (op->results[i].uses)
            return PTOC_WALK_INTERRUPT;
    return PTOC_WALK_ADVANCE;
}

void ptoc_op_erase(ptoc_op *op)
{
    /* Uses inside the tree go first, so values defined and used inside it are free. */
    ptoc_walk_pre(op, drop_uses, NULL);
    if (!ptoc_walk_pre(op, check_unused, NULL))
        ptoc_unreachable("erasing an op whose results are still used");
    ptoc_op_unlink(op);
}

/* ---------------------------------------------------------------- blocks, regions */

ptoc_block *ptoc_block_create(ptoc_arena *arena) { return PTOC_NEW(arena, ptoc_block); }

ptoc_value *ptoc_block_add_arg(ptoc_block *b, ptoc_arena *arena, ptoc_type *t, ptoc_loc loc)
{
    ptoc_value *v = PTOC_NEW(arena, ptoc_value);
    v->type = t;
    v->kind = PTOC_VALUE_BLOCK_ARG;
    v->index = b->nargs;
    v->owner.block = b;
    v->loc = loc;
    *PTOC_VARR_PUSH_FIELDS(NULL, arena, b->args, b->nargs, b->args_cap) = v;
    return v;
}

void ptoc_block_insert_before(ptoc_block *b, ptoc_op *before, ptoc_op *op)
{
    if (op->block)
        ptoc_unreachable("inserting an op that is already in a block");
    op->block = b;
    op->next = before;
    op->prev = before ? before->prev : b->last;
    if (op->prev)
        op->prev->next = op;
    else
        b->first = op;
    if (before)
        before->prev = op;
    else
        b->last = op;
}

void ptoc_block_append(ptoc_block *b, ptoc_op *op) { ptoc_block_insert_before(b, NULL, op); }

ptoc_op *ptoc_block_terminator(const ptoc_block *b)
{
    return b->last && (b->last->def->flags & PTOC_OPF_TERMINATOR) ? b->last : NULL;
}

ptoc_op *ptoc_block_parent_op(const ptoc_block *b) { return b->region ? b->region->owner : NULL; }

void ptoc_region_append(ptoc_region *r, ptoc_block *b)
{
    b->region = r;
    b->next = NULL;
    b->prev = r->last;
    if (r->last)
        r->last->next = b;
    else
        r->first = b;
    r->last = b;
}

void ptoc_region_take(ptoc_region *to, ptoc_region *from)
{
    ptoc_block *b;
    if (!from->first)
        return;
    for (b = from->first; b; b = b->next)
        b->region = to;
    from->first->prev = to->last;
    if (to->last)
        to->last->next = from->first;
    else
        to->first = from->first;
    to->last = from->last;
    from->first = from->last = NULL;
}

/* ---------------------------------------------------------------- walk */

bool ptoc_walk_pre(ptoc_op *root, ptoc_walk_fn fn, void *user)
{
    ptoc_walk_result r = fn(root, user);
    ptoc_block *b;
    ptoc_op *op, *next;
    uint32_t i;
    if (r == PTOC_WALK_INTERRUPT)
        return false;
    if (r == PTOC_WALK_SKIP)
        return true;
    for (i = 0; i < root->nregions; i++)
        for (b = root->regions[i].first; b; b = b->next)
            for (op = b->first; op; op = next) {
                next = op->next;
                if (!ptoc_walk_pre(op, fn, user))
                    return false;
            }
    return true;
}

bool ptoc_walk_post(ptoc_op *root, ptoc_walk_fn fn, void *user)
{
    ptoc_block *b;
    ptoc_op *op, *next;
    uint32_t i;
    for (i = 0; i < root->nregions; i++)
        for (b = root->regions[i].first; b; b = b->next)
            for (op = b->first; op; op = next) {
                next = op->next;        /* read first: the callback may erase `op` */
                if (!ptoc_walk_post(op, fn, user))
                    return false;
            }
    return fn(root, user) != PTOC_WALK_INTERRUPT;
}

/* ---------------------------------------------------------------- builder */

void ptoc_builder_init(ptoc_builder *b, ptoc_context *ctx, ptoc_arena *arena)
{
    memset(b, 0, sizeof *b);
    b->ctx = ctx;
    b->arena = arena;
}

void ptoc_builder_set_end(ptoc_builder *b, ptoc_block *block)
{
    b->block = block;
    b->before = NULL;
}

void ptoc_builder_set_before(ptoc_builder *b, ptoc_op *op)
{
    b->block = op->block;
    b->before = op;
}

void ptoc_builder_set_after(ptoc_builder *b, ptoc_op *op)
{
    b->block = op->block;
    b->before = op->next;
}

ptoc_op *ptoc_builder_insert(ptoc_builder *b, const ptoc_op_state *state)
{
    ptoc_op *op = ptoc_op_create(b->arena, state);
    if (!op->loc.file && !op->loc.line)
        op->loc = b->loc;
    if (b->block)
        ptoc_block_insert_before(b->block, b->before, op);
    return op;
}

ptoc_op *ptoc_builder_create(ptoc_builder *b, const char *name,
                             uint32_t noperands, ptoc_value *const *operands,
                             uint32_t nresults, ptoc_type *const *result_types,
                             uint32_t nattrs, const ptoc_named_attr *attrs,
                             uint32_t nregions)
{
    const ptoc_op_def *def = ptoc_context_op_def(b->ctx, name, strlen(name));
    ptoc_op_state st;
    uint32_t i;
    if (!def && ptoc_context_allows_unregistered(b->ctx))
        def = ptoc_context_unregistered_op(b->ctx, name, strlen(name));
    if (!def) {
        ptoc_emit_error(b->ctx, b->loc, "unregistered operation '%s'", name);
        return NULL;
    }
    /* The state borrows the caller's arrays (ptoc_op_create only reads them and
     * sorts its own copy of the attributes), so building costs no scratch. */
    ptoc_state_init(&st, b->arena, def, b->loc);
    st.noperands = noperands;
    st.operands = (ptoc_value **)operands;
    st.nresult_types = nresults;
    st.result_types = (ptoc_type **)result_types;
    st.nattrs = nattrs;
    st.attrs = (ptoc_named_attr *)attrs;
    for (i = 0; i < nregions; i++)
        ptoc_state_add_region(&st);
    return ptoc_builder_insert(b, &st);
}
