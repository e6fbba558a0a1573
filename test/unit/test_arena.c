/* test_arena.c: arenas hand out zeroed, aligned memory, keep big requests apart
 * from the chunk being filled, duplicate strings, and are freed by the context. */
#include "check.h"
#include "ptoc/ir.h"

#include <stdint.h>
#include <string.h>

static void test_alignment_and_zeroing(ptoc_context *ctx)
{
    ptoc_arena *a = ptoc_arena_create(ctx);
    size_t align;
    int i;
    for (align = 1; align <= 64; align *= 2) {
        unsigned char *p = ptoc_arena_alloc(a, 13, align);
        CHECK(((uintptr_t)p & (align - 1)) == 0);
        for (i = 0; i < 13; i++)
            CHECK(p[i] == 0);
        memset(p, 0xff, 13);
    }
    ptoc_arena_destroy(a);
}

static void test_many_and_big(ptoc_context *ctx)
{
    ptoc_arena *a = ptoc_arena_create(ctx);
    int64_t *small[1000], *big;
    int i, ok = 1;
    for (i = 0; i < 1000; i++) {
        small[i] = PTOC_NEW(a, int64_t);
        *small[i] = i;
    }
    big = PTOC_NEW_ARRAY(a, int64_t, 100000);
    CHECK(big[0] == 0 && big[99999] == 0);
    big[99999] = 7;
    for (i = 0; i < 1000; i++)
        ok &= *small[i] == i;
    CHECK(ok);
    CHECK(ptoc_arena_bytes(a) >= 100000 * sizeof(int64_t));
    ptoc_arena_destroy(a);
}

static void test_dup(ptoc_context *ctx)
{
    ptoc_arena *a = ptoc_arena_create(ctx);
    char *s = ptoc_arena_strndup(a, "hello world", 5);
    int data[3] = {1, 2, 3};
    int *d = ptoc_arena_dup(a, data, sizeof data);
    CHECK(strcmp(s, "hello") == 0);
    CHECK(d != data && d[0] == 1 && d[2] == 3);
    /* left alive on purpose: the context frees it */
    (void)ptoc_arena_create(ctx);
}

static void test_strbuf(ptoc_context *ctx)
{
    ptoc_strbuf sb;
    int i;
    ptoc_strbuf_init(&sb, ctx);
    CHECK(strcmp(ptoc_strbuf_cstr(&sb), "") == 0);
    for (i = 0; i < 100; i++)
        ptoc_strbuf_printf(&sb, "%d,", i);
    ptoc_strbuf_putc(&sb, '!');
    ptoc_strbuf_puts(&sb, "end");
    CHECK(strncmp(ptoc_strbuf_cstr(&sb), "0,1,2,", 6) == 0);
    CHECK(strcmp(ptoc_strbuf_cstr(&sb) + sb.len - 4, "!end") == 0);
    ptoc_strbuf_free(&sb);
    ptoc_strbuf_init(&sb, NULL);
    ptoc_strbuf_append(&sb, "abc", 3);
    CHECK(sb.len == 3 && strcmp(ptoc_strbuf_cstr(&sb), "abc") == 0);
    ptoc_strbuf_free(&sb);
}

int main(void)
{
    ptoc_context *ctx = ptoc_context_create(NULL);
    test_alignment_and_zeroing(ctx);
    test_many_and_big(ctx);
    test_dup(ctx);
    test_strbuf(ctx);
    CHECK(ptoc_context_perm_arena(ctx) != NULL);
    ptoc_context_destroy(ctx);
    return CHECK_DONE();
}
