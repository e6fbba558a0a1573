/* count_alloc.h: a counting allocator for the unit tests. Each block carries its
 * size in front, so count_free can check that a free gets the size its
 * allocation asked for; `live` is the bytes not yet given back. */
#ifndef PTOC_TEST_COUNT_ALLOC_H
#define PTOC_TEST_COUNT_ALLOC_H

#include <stddef.h>
#include <stdlib.h>

typedef struct counter {
    size_t live, peak, calls;
    int bad_sizes;
} counter;

/* Each block carries its size in front so frees can be checked. */
static void *count_alloc(void *user, size_t size)
{
    counter *c = user;
    max_align_t *p = malloc(sizeof(max_align_t) + size);
    if (!p)
        return NULL;
    *(size_t *)p = size;
    c->live += size;
    c->calls++;
    if (c->live > c->peak)
        c->peak = c->live;
    return p + 1;
}

static void count_free(void *user, void *ptr, size_t size)
{
    counter *c = user;
    max_align_t *p = (max_align_t *)ptr - 1;
    if (*(size_t *)p != size)
        c->bad_sizes++;
    c->live -= *(size_t *)p;
    free(p);
}

#endif
