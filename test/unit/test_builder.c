/* test_builder.c: insertion points, attributes on ops and states, the walk
 * orders (with SKIP, INTERRUPT and erasing in post-order), unregistered ops. */
#include "check.h"
#include "unit_dialect.h"

#include <string.h>

static ptoc_op *op0(ptoc_builder *b, const char *name)
{
    return ptoc_builder_create(b, name, 0, NULL, 0, NULL, 0, NULL, 0);
}

static void test_insertion_points(ptoc_context *ctx, ptoc_arena *arena)
{
    ptoc_builder b;
    ptoc_block *blk = ptoc_block_create(arena);
    ptoc_op *a, *c, *d, *e, *detached;
    ptoc_builder_init(&b, ctx, arena);
    detached = op0(&b, "t.store");
    CHECK(detached && detached->block == NULL);
    ptoc_builder_set_end(&b, blk);
    a = op0(&b, "t.const");
    c = op0(&b, "t.add");
    ptoc_builder_set_before(&b, c);
    d = op0(&b, "t.store");          /* a d c */
    ptoc_builder_set_after(&b, a);
    e = op0(&b, "t.ret");            /* a e d c */
    CHECK(blk->first == a && a->next == e && e->next == d && d->next == c && c->next == NULL);
    CHECK(blk->last == c && c->prev == d && d->prev == e && e->prev == a && a->prev == NULL);
    CHECK(ptoc_block_terminator(blk) == NULL);
    ptoc_op_unlink(e);
    ptoc_block_append(blk, e);
    CHECK(ptoc_block_terminator(blk) == e);
    ptoc_block_insert_before(blk, a, detached);
    CHECK(blk->first == detached && detached->next == a);
    CHECK(ptoc_op_is(a, "t.const") && !ptoc_op_is(a, "t.add") && a->name == ptoc_ident_cstr(ctx, "t.const"));
    CHECK(ptoc_op_context(a) == ctx);
}

static void test_attrs(ptoc_context *ctx, ptoc_arena *arena)
{
    ptoc_builder b;
    ptoc_named_attr attrs[2];
    ptoc_op *op;
    ptoc_op_state st;
    ptoc_builder_init(&b, ctx, arena);
    attrs[0].name = ptoc_ident_cstr(ctx, "z");
    attrs[0].value = ptoc_attr_int(ctx, NULL, 1);
    attrs[1].name = ptoc_ident_cstr(ctx, "a");
    attrs[1].value = ptoc_attr_int(ctx, NULL, 2);
    op = ptoc_builder_create(&b, "t.store", 0, NULL, 0, NULL, 2, attrs, 0);
    CHECK(op->nattrs == 2 && op->attrs[0].name == attrs[1].name);
    CHECK(ptoc_op_attr(op, "z") == attrs[0].value && ptoc_op_attr(op, "q") == NULL);
    ptoc_op_set_attr(op, arena, ptoc_ident_cstr(ctx, "m"), ptoc_attr_unit(ctx));
    ptoc_op_set_attr(op, arena, ptoc_ident_cstr(ctx, "a"), ptoc_attr_unit(ctx));
    ptoc_op_set_attr(op, arena, ptoc_ident_cstr(ctx, "b"), ptoc_attr_unit(ctx));
    CHECK(op->nattrs == 4 && strcmp(op->attrs[1].name->str, "b") == 0 && strcmp(op->attrs[2].name->str, "m") == 0);
    CHECK(ptoc_op_attr(op, "a") == ptoc_attr_unit(ctx));
    CHECK(ptoc_op_remove_attr(op, "b") && !ptoc_op_remove_attr(op, "b"));
    CHECK(op->nattrs == 3 && strcmp(op->attrs[1].name->str, "m") == 0);

    ptoc_state_init(&st, arena, ptoc_context_op_def(ctx, "t.store", 7), ptoc_loc_unknown());
    ptoc_state_add_attr(&st, ptoc_ident_cstr(ctx, "y"), ptoc_attr_unit(ctx));
    ptoc_state_add_attr(&st, ptoc_ident_cstr(ctx, "x"), ptoc_attr_bool(ctx, true));
    ptoc_state_add_attr(&st, ptoc_ident_cstr(ctx, "y"), ptoc_attr_bool(ctx, false));
    CHECK(st.nattrs == 2 && ptoc_state_attr(&st, "y") == ptoc_attr_bool(ctx, false));
    CHECK(ptoc_state_attr(&st, "nope") == NULL);
}

/* Builds t.func { t.const; t.region { t.add; t.store }; t.ret } into *names. */
static ptoc_op *build_tree(ptoc_context *ctx, ptoc_arena *arena)
{
    ptoc_builder b;
    ptoc_block *body = ptoc_block_create(arena), *inner = ptoc_block_create(arena);
    ptoc_op *func, *region;
    ptoc_builder_init(&b, ctx, arena);
    func = ptoc_builder_create(&b, "t.func", 0, NULL, 0, NULL, 0, NULL, 1);
    ptoc_region_append(&func->regions[0], body);
    ptoc_builder_set_end(&b, body);
    op0(&b, "t.const");
    region = ptoc_builder_create(&b, "t.region", 0, NULL, 0, NULL, 0, NULL, 1);
    op0(&b, "t.ret");
    ptoc_region_append(&region->regions[0], inner);
    ptoc_builder_set_end(&b, inner);
    op0(&b, "t.add");
    op0(&b, "t.store");
    return func;
}

typedef struct trace {
    char text[256];
    const char *skip, *stop, *erase;
} trace;

static ptoc_walk_result record(ptoc_op *op, void *user)
{
    trace *t = user;
    strcat(t->text, op->name->str + 2);
    strcat(t->text, " ");
    if (t->erase && ptoc_op_is(op, t->erase))
        ptoc_op_erase(op);
    if (t->stop && ptoc_op_is(op, t->stop))
        return PTOC_WALK_INTERRUPT;
    return t->skip && ptoc_op_is(op, t->skip) ? PTOC_WALK_SKIP : PTOC_WALK_ADVANCE;
}

static void test_walks(ptoc_context *ctx, ptoc_arena *arena)
{
    ptoc_op *tree = build_tree(ctx, arena);
    trace t = {"", NULL, NULL, NULL};
    CHECK(ptoc_walk_pre(tree, record, &t));
    CHECK(strcmp(t.text, "func const region add store ret ") == 0);
    memset(&t, 0, sizeof t);
    CHECK(ptoc_walk_post(tree, record, &t));
    CHECK(strcmp(t.text, "const add store region ret func ") == 0);
    memset(&t, 0, sizeof t);
    t.skip = "t.region";
    CHECK(ptoc_walk_pre(tree, record, &t));
    CHECK(strcmp(t.text, "func const region ret ") == 0);
    memset(&t, 0, sizeof t);
    t.stop = "t.add";
    CHECK(!ptoc_walk_pre(tree, record, &t));
    CHECK(strcmp(t.text, "func const region add ") == 0);
    memset(&t, 0, sizeof t);
    t.stop = "t.add";
    CHECK(!ptoc_walk_post(tree, record, &t));
    CHECK(strcmp(t.text, "const add ") == 0);
    /* Erase every visited op but the root in post-order; the walk must go on. */
    memset(&t, 0, sizeof t);
    t.erase = "t.add";
    CHECK(ptoc_walk_post(tree, record, &t));
    CHECK(strcmp(t.text, "const add store region ret func ") == 0);
    memset(&t, 0, sizeof t);
    t.erase = "t.region";
    CHECK(ptoc_walk_post(tree, record, &t));
    CHECK(strcmp(t.text, "const store region ret func ") == 0);
    memset(&t, 0, sizeof t);
    CHECK(ptoc_walk_pre(tree, record, &t));
    CHECK(strcmp(t.text, "func const ret ") == 0);
}

static void count_errors(void *user, const ptoc_diagnostic *d) { *(int *)user += d->severity == PTOC_SEV_ERROR; }

static void test_unregistered(ptoc_context *ctx, ptoc_arena *arena)
{
    ptoc_builder b;
    int errors = 0;
    void *prev_user;
    ptoc_diag_handler prev = ptoc_context_set_diag_handler(ctx, count_errors, &errors, &prev_user);
    ptoc_op *op;
    ptoc_builder_init(&b, ctx, arena);
    CHECK(op0(&b, "foo.bar") == NULL && errors == 1);
    ptoc_context_allow_unregistered(ctx, true);
    CHECK(ptoc_context_allows_unregistered(ctx));
    op = op0(&b, "foo.bar");
    CHECK(op && (op->def->flags & PTOC_OPF_UNREGISTERED) && ptoc_op_is(op, "foo.bar"));
    CHECK(op->def == ptoc_context_unregistered_op(ctx, "foo.bar", 7));
    CHECK(ptoc_context_op_def(ctx, "foo.bar", 7) == NULL);
    CHECK(ptoc_context_op_def(ctx, "t.add", 5) == &unit_ops[5]);
    CHECK(ptoc_context_dialect(ctx, "t", 1) == &unit_dialect && ptoc_context_dialect(ctx, "u", 1) == NULL);
    ptoc_context_register_dialect(ctx, &unit_dialect);      /* twice: a no-op */
    CHECK(ptoc_context_op_def(ctx, "t.add", 5) == &unit_ops[5]);
    ptoc_context_allow_unregistered(ctx, false);
    ptoc_context_set_diag_handler(ctx, prev, prev_user, NULL);
    CHECK(ptoc_context_error_count(ctx) == 1);
}

static void test_block_args(ptoc_context *ctx, ptoc_arena *arena)
{
    ptoc_block *blk = ptoc_block_create(arena);
    ptoc_region r = {0}, r2 = {0};
    ptoc_value *args[10];
    int i;
    for (i = 0; i < 10; i++)
        args[i] = ptoc_block_add_arg(blk, arena, ptoc_type_index(ctx), ptoc_loc_unknown());
    CHECK(blk->nargs == 10 && blk->args[7] == args[7] && args[7]->index == 7 && args[7]->owner.block == blk);
    CHECK(ptoc_value_block(args[3]) == blk && ptoc_value_def(args[3]) == NULL);
    ptoc_region_append(&r, blk);
    ptoc_region_append(&r, ptoc_block_create(arena));
    ptoc_region_take(&r2, &r);
    CHECK(r.first == NULL && r2.first == blk && r2.last == blk->next && blk->region == &r2 && blk->next->region == &r2);
}

int main(void)
{
    ptoc_context *ctx = unit_context(NULL);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    test_insertion_points(ctx, arena);
    test_attrs(ctx, arena);
    test_walks(ctx, arena);
    test_unregistered(ctx, arena);
    test_block_args(ctx, arena);
    ptoc_context_destroy(ctx);
    return CHECK_DONE();
}
