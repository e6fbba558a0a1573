/* test_util.c: the growable array and the pointer map of include/ptoc/util.h,
 * and the growth rule of include/ptoc/varr.h under them.
 * Arrays grow from empty through many doublings on each of the three memory
 * sources and keep every element in order; a counting allocator checks that a
 * context-backed array and map give back every byte with the size they took.
 * The growth rule is checked against its statement (capacities double from 8
 * until they hold what is needed, below 2^32 elements and SIZE_MAX bytes); an
 * array with room is handed back as it is, without allocating.
 * The map holds thousands of keys in a table kept at most 70% full, so probes
 * run past occupied slots (collisions) all the time; every key must still find
 * its own value, keys never put must stay absent, and iteration must give the
 * keys in the order they were first put, whatever the table's layout. */
#include "check.h"
#include "count_alloc.h"

#include "ptoc/util.h"

#include <stdlib.h>

typedef struct pair {
    int a;
    double b;
} pair;

PTOC_VARR_DEF(int, int_varr)
PTOC_VARR_DEF(pair, pair_varr)

enum { N = 5000 };

/* Pushes 0..N-1 and checks every element survived each growth. */
static void fill_and_check(int_varr *v)
{
    bool ok = true;
    for (int i = 0; i < N; i++)
        ok &= int_varr_push(v, i * 3);
    CHECK(ok);
    CHECK(int_varr_length(v) == N);
    CHECK(v->cap >= N);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += v->data[i] != i * 3;
    CHECK(wrong == 0);
}

static void test_varr(ptoc_context *ctx)
{
    int_varr v;
    int_varr_init(&v, NULL);                       /* malloc */
    CHECK(int_varr_length(&v) == 0 && v.data == NULL);
    fill_and_check(&v);
    int_varr_free(&v);
    CHECK(v.len == 0 && v.cap == 0 && v.data == NULL);
    fill_and_check(&v);                            /* usable again after free */
    int_varr_free(&v);

    int_varr_init(&v, ctx);
    fill_and_check(&v);
    int_varr_free(&v);

    ptoc_arena *arena = ptoc_arena_create(ctx);
    int_varr_init_arena(&v, arena);
    fill_and_check(&v);
    int_varr_free(&v);                             /* no-op: the arena owns it */
    ptoc_arena_destroy(arena);

    /* reserve takes room in one step and keeps what is there */
    int_varr_init(&v, ctx);
    CHECK(int_varr_push(&v, 7));
    CHECK(int_varr_reserve(&v, 1000));
    CHECK(v.cap >= 1000 && v.len == 1 && v.data[0] == 7);
    uint32_t cap = v.cap;
    CHECK(int_varr_reserve(&v, 10) && v.cap == cap);
    int_varr_free(&v);

    /* add gives zeroed slots of a struct element */
    pair_varr pv;
    pair_varr_init(&pv, ctx);
    for (int i = 0; i < 100; i++) {
        pair *p = pair_varr_add(&pv);
        CHECK(p && p->a == 0 && p->b == 0.0);
        if (p)
            p->a = i;
    }
    CHECK(pv.len == 100 && pv.data[99].a == 99 && pv.data[0].a == 0);
    pair_varr_free(&pv);
}

/* The rule of ptoc/varr.h, and ptoc_varr_realloc on malloc'd memory. */
static void test_growth_rule(void)
{
    uint32_t cap = 0;
    CHECK(ptoc_varr_next_cap(0, 1, 4, &cap) && cap == 8);
    CHECK(ptoc_varr_next_cap(8, 9, 4, &cap) && cap == 16);
    CHECK(ptoc_varr_next_cap(16, 100, 4, &cap) && cap == 128);   /* several doublings at once */
    CHECK(ptoc_varr_next_cap(0, 0, 4, &cap) && cap == 8);
    cap = 77;
    CHECK(!ptoc_varr_next_cap(8, (UINT32_C(1) << 31) + 1, 1, &cap) && cap == 77);  /* 2^32 elements */
    CHECK(!ptoc_varr_next_cap(0, 8, SIZE_MAX / 4, &cap) && cap == 77);             /* SIZE_MAX bytes */

    int *xs = NULL;
    uint32_t n = 0;
    cap = 0;
    bool ok = true;
    for (int i = 0; i < N; i++) {
        int *grown = ptoc_varr_realloc(xs, &cap, n + 1, sizeof *xs);
        ok &= grown != NULL && cap >= n + 1;
        if (!grown)
            break;
        xs = grown;
        xs[n++] = i * 5;
    }
    CHECK(ok && n == N && cap == 8192);          /* the first power of two from 8 holding N */
    int wrong = 0;
    for (uint32_t i = 0; i < n; i++)
        wrong += xs[i] != (int)i * 5;
    CHECK(wrong == 0);
    CHECK(ptoc_varr_realloc(xs, &cap, cap, sizeof *xs) == xs && cap == 8192);   /* room: itself */
    /* too many: NULL, and the array and its capacity as they were */
    CHECK(ptoc_varr_realloc(xs, &cap, UINT32_MAX, sizeof *xs) == NULL && cap == 8192 && xs[N - 1] == (N - 1) * 5);
    free(xs);
}

/* ptoc_varr_grow hands back an array that has room without allocating, and
 * PTOC_VARR_PUSH_FIELDS appends to arrays kept as fields, in a context or an arena. */
static void test_fields(ptoc_context *ctx, counter *c)
{
    int *xs = NULL;
    uint32_t n = 0, cap = 0;
    for (int i = 0; i < N; i++)
        *PTOC_VARR_PUSH_FIELDS(ctx, NULL, xs, n, cap) = i * 7;
    CHECK(n == N && cap >= N);
    int wrong = 0;
    for (uint32_t i = 0; i < n; i++)
        wrong += xs[i] != (int)i * 7;
    CHECK(wrong == 0);
    size_t calls = c->calls;
    CHECK(ptoc_varr_grow(ctx, NULL, xs, n, &cap, cap, sizeof *xs, _Alignof(int)) == xs);
    CHECK(c->calls == calls);
    ptoc_varr_release(ctx, NULL, xs, cap, sizeof *xs);

    ptoc_arena *arena = ptoc_arena_create(ctx);
    pair *ps = NULL;
    n = cap = 0;
    for (int i = 0; i < N; i++)
        PTOC_VARR_PUSH_FIELDS(NULL, arena, ps, n, cap)->a = i;
    wrong = 0;
    for (uint32_t i = 0; i < n; i++)
        wrong += ps[i].a != (int)i || ps[i].b != 0.0;       /* arena slots start zeroed */
    CHECK(n == N && wrong == 0);
    ptoc_arena_destroy(arena);
}

static void test_ptrmap(ptoc_context *ctx, ptoc_context *no_ctx)
{
    static char keys[2 * N];                       /* distinct addresses to use as keys */
    ptoc_ptrmap m;
    ptoc_ptrmap_init(&m, no_ctx);
    CHECK(ptoc_ptrmap_get(&m, &keys[0]) == NULL);  /* empty map: no table yet */
    CHECK(ptoc_ptrmap_count(&m) == 0);

    /* keys put in a scattered order: k = (i * 7919) % N */
    bool ok = true;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t k = (i * 7919u) % N;
        ok &= ptoc_ptrmap_put_int(&m, &keys[k], (uint64_t)k * 10);
    }
    CHECK(ok);
    CHECK(ptoc_ptrmap_count(&m) == N);
    CHECK((uint64_t)m.count * 10 <= (uint64_t)m.slots_cap * 7);
    int wrong = 0, present = 0;
    for (uint32_t k = 0; k < N; k++) {
        uint64_t v = 0;
        wrong += !ptoc_ptrmap_get_int(&m, &keys[k], &v) || v != (uint64_t)k * 10;
        present += ptoc_ptrmap_find(&m, &keys[N + k]) != NULL;
    }
    CHECK(wrong == 0);
    CHECK(present == 0);

    /* insertion order, not address or slot order */
    wrong = 0;
    for (uint32_t i = 0; i < ptoc_ptrmap_count(&m); i++)
        wrong += m.entries[i].key != &keys[(i * 7919u) % N];
    CHECK(wrong == 0);

    /* a second put replaces the value and keeps the key's place */
    CHECK(ptoc_ptrmap_put_int(&m, &keys[(3 * 7919u) % N], 42));
    CHECK(ptoc_ptrmap_count(&m) == N);
    CHECK(m.entries[3].val.num == 42);
    ptoc_ptrmap_free(&m);
    CHECK(ptoc_ptrmap_count(&m) == 0 && ptoc_ptrmap_get(&m, &keys[0]) == NULL);

    /* pointer values, memory from the context, upsert */
    ptoc_ptrmap_init(&m, ctx);
    for (uint32_t k = 0; k < N; k++)
        CHECK(ptoc_ptrmap_put(&m, &keys[k], &keys[N + k]) || k == N);
    ptoc_ptrmap_entry *e = ptoc_ptrmap_upsert(&m, &keys[N]);
    CHECK(e && e->val.ptr == NULL && ptoc_ptrmap_count(&m) == N + 1);
    CHECK(ptoc_ptrmap_upsert(&m, &keys[5]) == &m.entries[5]);
    CHECK(ptoc_ptrmap_get(&m, &keys[17]) == &keys[N + 17]);
    ptoc_ptrmap_free(&m);
}

int main(void)
{
    counter c = {0};
    ptoc_allocator a = {count_alloc, count_free, &c};
    ptoc_context *ctx = ptoc_context_create(&a);
    size_t base = c.live;
    test_varr(ctx);
    test_growth_rule();
    test_fields(ctx, &c);
    test_ptrmap(ctx, NULL);
    CHECK(c.calls > 0);
    CHECK(c.live == base);                         /* arrays and maps gave all back */
    CHECK(c.bad_sizes == 0);
    ptoc_context_destroy(ctx);
    CHECK(c.live == 0);
    return CHECK_DONE();
}
