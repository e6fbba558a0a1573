/* test_uses.c: use-lists stay consistent through op creation, set_operand,
 * set_operands, replace-all-uses and erase; RAUW on a heavily used value is fast. */
#include "check.h"
#include "unit_dialect.h"

#include <time.h>

static ptoc_op *make(ptoc_builder *b, const char *name, uint32_t n, ptoc_value *const *ops, bool result)
{
    ptoc_type *i32 = ptoc_type_int(b->ctx, 32, PTOC_SIGNLESS);
    return ptoc_builder_create(b, name, n, ops, result ? 1 : 0, &i32, 0, NULL, 0);
}

/* Every use in v's list points at v and back-links correctly. */
static bool list_ok(const ptoc_value *v)
{
    ptoc_use *const *link = &v->uses;
    const ptoc_use *u;
    for (u = v->uses; u; link = &u->next, u = u->next)
        if (u->value != v || u->prevp != link || &u->owner->operands[u->index] != u)
            return false;
    return true;
}

static void test_basic(ptoc_context *ctx, ptoc_arena *arena)
{
    ptoc_builder b;
    ptoc_block *blk = ptoc_block_create(arena);
    ptoc_op *c1, *c2, *add, *add2;
    ptoc_value *x, *y, *ops[2];
    ptoc_builder_init(&b, ctx, arena);
    ptoc_builder_set_end(&b, blk);
    c1 = make(&b, "t.const", 0, NULL, true);
    c2 = make(&b, "t.const", 0, NULL, true);
    x = ptoc_op_result(c1, 0);
    y = ptoc_op_result(c2, 0);
    ops[0] = x;
    ops[1] = x;
    add = make(&b, "t.add", 2, ops, true);
    CHECK(ptoc_value_num_uses(x) == 2 && list_ok(x));
    CHECK(!ptoc_value_has_uses(y));
    CHECK(ptoc_op_operand(add, 1) == x && ptoc_value_def(x) == c1 && ptoc_value_block(x) == blk);

    ptoc_op_set_operand(add, 0, y);
    CHECK(ptoc_value_num_uses(x) == 1 && ptoc_value_num_uses(y) == 1 && list_ok(x) && list_ok(y));
    ops[0] = y;
    ops[1] = ptoc_op_result(add, 0);
    add2 = make(&b, "t.add", 2, ops, true);
    ptoc_value_replace_all_uses(y, x);
    CHECK(!ptoc_value_has_uses(y) && ptoc_value_num_uses(x) == 3 && list_ok(x));
    CHECK(ptoc_op_operand(add2, 0) == x && ptoc_op_operand(add, 0) == x);
    ptoc_value_replace_all_uses(x, x);
    CHECK(ptoc_value_num_uses(x) == 3 && list_ok(x));

    ops[0] = y;
    ptoc_op_set_operands(add2, arena, 1, ops);
    CHECK(add2->noperands == 1 && ptoc_value_num_uses(x) == 2 && ptoc_value_num_uses(y) == 1);
    CHECK(!ptoc_value_has_uses(ptoc_op_result(add, 0)));
    ptoc_op_set_operands(add2, arena, 2, (ptoc_value *[]){x, y});
    CHECK(add2->noperands == 2 && ptoc_value_num_uses(x) == 3 && list_ok(x) && list_ok(y));

    ptoc_op_erase(add2);
    CHECK(ptoc_value_num_uses(x) == 2 && !ptoc_value_has_uses(y) && list_ok(x));
    CHECK(blk->last == add && add->next == NULL);
    ptoc_op_erase(add);
    ptoc_op_erase(c2);
    CHECK(!ptoc_value_has_uses(x) && blk->first == c1 && blk->last == c1);
}

/* Erasing an op with a region drops the uses its nested ops hold. */
static void test_erase_nested(ptoc_context *ctx, ptoc_arena *arena)
{
    ptoc_builder b;
    ptoc_block *blk = ptoc_block_create(arena), *inner = ptoc_block_create(arena);
    ptoc_op *c, *region_op, *in1;
    ptoc_value *x, *ops[2];
    ptoc_builder_init(&b, ctx, arena);
    ptoc_builder_set_end(&b, blk);
    c = make(&b, "t.const", 0, NULL, true);
    x = ptoc_op_result(c, 0);
    region_op = ptoc_builder_create(&b, "t.region", 0, NULL, 0, NULL, 0, NULL, 1);
    ptoc_region_append(&region_op->regions[0], inner);
    ptoc_builder_set_end(&b, inner);
    in1 = make(&b, "t.add", 1, &x, true);
    ops[0] = x;
    ops[1] = ptoc_op_result(in1, 0);
    make(&b, "t.add", 2, ops, false);
    CHECK(ptoc_value_num_uses(x) == 2);
    CHECK(ptoc_op_parent(in1) == region_op && ptoc_block_parent_op(inner) == region_op);
    ptoc_op_erase(region_op);
    CHECK(!ptoc_value_has_uses(x) && blk->first == c && blk->last == c);
}

/* RAUW touches each use once: 200k uses move in well under a second, and
 * set_operand on one of them afterwards is O(1). */
static void test_rauw_scale(ptoc_context *ctx, ptoc_arena *arena)
{
    enum { N = 200000 };
    ptoc_builder b;
    ptoc_block *blk = ptoc_block_create(arena);
    ptoc_op *c1, *c2, *last = NULL;
    ptoc_value *x, *y;
    clock_t t0;
    int i;
    ptoc_builder_init(&b, ctx, arena);
    ptoc_builder_set_end(&b, blk);
    c1 = make(&b, "t.const", 0, NULL, true);
    c2 = make(&b, "t.const", 0, NULL, true);
    x = ptoc_op_result(c1, 0);
    y = ptoc_op_result(c2, 0);
    for (i = 0; i < N; i++)
        last = make(&b, "t.store", 1, &x, false);
    t0 = clock();
    ptoc_value_replace_all_uses(x, y);
    for (i = 0; i < N; i++)
        ptoc_op_set_operand(last, 0, i % 2 ? y : x);
    CHECK((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0);
    CHECK(ptoc_value_num_uses(y) == N && list_ok(y));
}

int main(void)
{
    ptoc_context *ctx = unit_context(NULL);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    test_basic(ctx, arena);
    test_erase_nested(ctx, arena);
    test_rauw_scale(ctx, arena);
    ptoc_context_destroy(ctx);
    return CHECK_DONE();
}
