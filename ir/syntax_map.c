/* syntax_map.c: a pointer-keyed hash map for the parser and printer.
 *
 * The parser maps interned names to SSA entries and aliases; the printer maps ops,
 * values and blocks to their printed numbers. Both need O(1) lookups so that a
 * file of 100k ops parses and prints in linear time. Keys are pointers compared
 * by identity; entries are never deleted.
 */
#include "ir/syntax_internal.h"

#include <string.h>

static size_t slot_of(const void *key, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)key;
    h ^= h >> 29;
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    h ^= h >> 32;
    return (size_t)h & (cap - 1);
}

void ptoc_pmap_init(ptoc_pmap *m, ptoc_context *ctx)
{
    memset(m, 0, sizeof *m);
    m->ctx = ctx;
}

void ptoc_pmap_free(ptoc_pmap *m)
{
    if (m->cap) {
        ptoc_free(m->ctx, m->keys, m->cap * sizeof *m->keys);
        ptoc_free(m->ctx, m->vals, m->cap * sizeof *m->vals);
    }
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->count = 0;
}

void *ptoc_pmap_get(const ptoc_pmap *m, const void *key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key)
            return m->vals[i];
        if (!m->keys[i])
            return NULL;
    }
}

static void grow(ptoc_pmap *m)
{
    size_t old_cap = m->cap;
    const void **old_keys = m->keys;
    void **old_vals = m->vals;
    m->cap = old_cap ? old_cap * 2 : 16;
    m->keys = ptoc_alloc(m->ctx, m->cap * sizeof *m->keys);
    m->vals = ptoc_alloc(m->ctx, m->cap * sizeof *m->vals);
    memset(m->keys, 0, m->cap * sizeof *m->keys);
    m->count = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old_keys[i])
            ptoc_pmap_put(m, old_keys[i], old_vals[i]);
    if (old_cap) {
        ptoc_free(m->ctx, old_keys, old_cap * sizeof *old_keys);
        ptoc_free(m->ctx, old_vals, old_cap * sizeof *old_vals);
    }
}

void ptoc_pmap_put(ptoc_pmap *m, const void *key, void *val)
{
    if ((m->count + 1) * 10 > m->cap * 7)
        grow(m);
    size_t i = slot_of(key, m->cap);
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->keys[i]) {
        m->keys[i] = key;
        m->count++;
    }
    m->vals[i] = val;
}
