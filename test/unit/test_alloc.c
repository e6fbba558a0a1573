/* test_alloc.c: every byte goes through the context's allocator and comes back.
 * A counting allocator watches a context do a bit of everything (interning, ops,
 * arenas left alive, diagnostics, sources, the verifier) and checks that
 * destroying the context returns the live byte count to zero, and that each
 * free gets the size its allocation asked for. */
#include "check.h"
#include "count_alloc.h"
#include "unit_dialect.h"

#include <stdlib.h>
#include <string.h>

static void quiet(void *user, const ptoc_diagnostic *d) { (void)user; (void)d; }

static void do_work(ptoc_context *ctx)
{
    ptoc_arena *arena = ptoc_arena_create(ctx), *scratch = ptoc_arena_create(ctx);
    ptoc_builder b;
    ptoc_block *body = ptoc_block_create(arena);
    ptoc_op *func, *prev = NULL;
    ptoc_type *i32 = ptoc_type_int(ctx, 32, PTOC_SIGNLESS);
    ptoc_diag_verifier *v;
    ptoc_strbuf sb;
    char name[32];
    int i;
    ptoc_context_set_diag_handler(ctx, quiet, NULL, NULL);
    ptoc_builder_init(&b, ctx, arena);
    func = ptoc_builder_create(&b, "t.func", 0, NULL, 0, NULL, 0, NULL, 1);
    ptoc_region_append(&func->regions[0], body);
    ptoc_builder_set_end(&b, body);
    for (i = 0; i < 20000; i++) {
        ptoc_named_attr attr;
        ptoc_value *operand;
        snprintf(name, sizeof name, "attr%d", i % 100);
        attr.name = ptoc_ident_cstr(ctx, name);
        attr.value = ptoc_attr_int(ctx, i32, i);
        operand = prev ? ptoc_op_result(prev, 0) : NULL;
        prev = ptoc_builder_create(&b, "t.add", operand ? 1 : 0, &operand, 1, &i32, 1, &attr, 0);
    }
    ptoc_builder_create(&b, "t.ret", 0, NULL, 0, NULL, 0, NULL, 0);
    ptoc_verify(func);
    ptoc_arena_alloc(scratch, 1 << 20, 8);
    ptoc_context_set_option(ctx, "k", "v");
    ptoc_source_add(ctx, ptoc_ident_cstr(ctx, "f"), "text\nmore\n", 10);
    ptoc_source_add(ctx, ptoc_ident_cstr(ctx, "f"), "again\n", 6);
    v = ptoc_diag_verifier_create(ctx, ptoc_ident_cstr(ctx, "f"), "// expected-error {{x}}\n", 23);
    ptoc_diag_verifier_handle(v, &(ptoc_diagnostic){PTOC_SEV_ERROR, {NULL, 0, 0}, "y"});
    ptoc_diag_verifier_destroy(v);
    ptoc_emit_error(ctx, ptoc_loc_unknown(), "%s", "an error");
    ptoc_strbuf_init(&sb, ctx);
    ptoc_strbuf_printf(&sb, "%0500d", 1);
    ptoc_strbuf_free(&sb);
    ptoc_arena_destroy(scratch);      /* `arena` stays alive: the context frees it */
}

int main(void)
{
    counter c = {0};
    ptoc_allocator a = {count_alloc, count_free, &c};
    ptoc_context *ctx = unit_context(&a);
    CHECK(ptoc_context_allocator(ctx)->user == &c);
    do_work(ctx);
    CHECK(c.live > 0 && c.calls > 10);
    ptoc_context_destroy(ctx);
    CHECK(c.live == 0);
    CHECK(c.bad_sizes == 0);
    return CHECK_DONE();
}
