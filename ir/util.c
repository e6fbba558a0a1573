/* util.c: the growable array's growth and the pointer map (include/ptoc/util.h).
 *
 * Memory comes from a context, an arena or malloc, as the container was set up;
 * only the malloc path can report out-of-memory, the others stop the program in
 * ptoc_fatal as the rest of the core does.
 */
#include "ptoc/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- memory */

static void *take(ptoc_context *ctx, ptoc_arena *arena, size_t bytes, size_t align)
{
    if (arena)
        return ptoc_arena_alloc(arena, bytes, align);
    if (ctx)
        return ptoc_alloc(ctx, bytes);
    return malloc(bytes);
}

static void give_back(ptoc_context *ctx, ptoc_arena *arena, void *p, size_t bytes)
{
    if (arena || !p)
        return;
    if (ctx)
        ptoc_free(ctx, p, bytes);
    else
        free(p);
}

/* ---------------------------------------------------------------- growable arrays */

void *ptoc_varr_grow(ptoc_context *ctx, ptoc_arena *arena, void *data, uint32_t len, uint32_t *cap,
                     uint32_t need, size_t size, size_t align)
{
    if (!arena && !ctx)
        return ptoc_varr_realloc(data, cap, need, size);
    if (data && need <= *cap)
        return data;
    uint32_t want = 0;                  /* ptoc_fatal does not return */
    if (!ptoc_varr_next_cap(*cap, need, size, &want))
        ptoc_fatal("out of memory (an array of %" PRIu32 " elements of %zu bytes)", need, size);
    void *grown = take(ctx, arena, (size_t)want * size, align);
    if (len)
        memcpy(grown, data, (size_t)len * size);
    give_back(ctx, arena, data, (size_t)*cap * size);
    *cap = want;
    return grown;
}

void ptoc_varr_release(ptoc_context *ctx, ptoc_arena *arena, void *data, uint32_t cap, size_t size)
{
    give_back(ctx, arena, data, (size_t)cap * size);
}

/* ---------------------------------------------------------------- pointer map */

static uint32_t first_slot(const void *key, uint32_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)key;
    h ^= h >> 29;
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    h ^= h >> 32;
    return (uint32_t)h & (cap - 1);
}

void ptoc_ptrmap_init(ptoc_ptrmap *m, ptoc_context *ctx)
{
    memset(m, 0, sizeof *m);
    m->ctx = ctx;
}

void ptoc_ptrmap_free(ptoc_ptrmap *m)
{
    give_back(m->ctx, NULL, m->entries, (size_t)m->entries_cap * sizeof *m->entries);
    give_back(m->ctx, NULL, m->slots, (size_t)m->slots_cap * sizeof *m->slots);
    ptoc_ptrmap_init(m, m->ctx);
}

/* The slot holding `key`, or the empty slot where it would go. */
static uint32_t slot_of(const ptoc_ptrmap *m, const void *key)
{
    uint32_t i = first_slot(key, m->slots_cap);
    while (m->slots[i] && m->entries[m->slots[i] - 1].key != key)
        i = (i + 1) & (m->slots_cap - 1);
    return i;
}

ptoc_ptrmap_entry *ptoc_ptrmap_find(const ptoc_ptrmap *m, const void *key)
{
    if (!m->slots_cap)
        return NULL;
    uint32_t e = m->slots[slot_of(m, key)];
    return e ? &m->entries[e - 1] : NULL;
}

/* A table twice as large (at least 16 slots), the entries placed again. */
static bool grow_slots(ptoc_ptrmap *m)
{
    uint32_t cap = m->slots_cap ? m->slots_cap * 2 : 16;
    if (cap <= m->slots_cap)
        return false;
    uint32_t *slots = take(m->ctx, NULL, (size_t)cap * sizeof *slots, _Alignof(uint32_t));
    if (!slots)
        return false;
    memset(slots, 0, (size_t)cap * sizeof *slots);
    give_back(m->ctx, NULL, m->slots, (size_t)m->slots_cap * sizeof *m->slots);
    m->slots = slots;
    m->slots_cap = cap;
    for (uint32_t e = 0; e < m->count; e++)
        m->slots[slot_of(m, m->entries[e].key)] = e + 1;
    return true;
}

static bool grow_entries(ptoc_ptrmap *m)
{
    void *grown = ptoc_varr_grow(m->ctx, NULL, m->entries, m->count, &m->entries_cap, m->count + 1,
                                 sizeof *m->entries, _Alignof(ptoc_ptrmap_entry));
    if (!grown)
        return false;
    m->entries = grown;
    return true;
}

ptoc_ptrmap_entry *ptoc_ptrmap_upsert(ptoc_ptrmap *m, const void *key)
{
    ptoc_ptrmap_entry *found = ptoc_ptrmap_find(m, key);
    if (found)
        return found;
    if ((uint64_t)(m->count + 1) * 10 > (uint64_t)m->slots_cap * 7 && !grow_slots(m))
        return NULL;
    if (m->count == m->entries_cap && !grow_entries(m))
        return NULL;
    ptoc_ptrmap_entry *e = &m->entries[m->count];
    memset(e, 0, sizeof *e);
    e->key = key;
    m->slots[slot_of(m, key)] = m->count + 1;
    m->count++;
    return e;
}

bool ptoc_ptrmap_put(ptoc_ptrmap *m, const void *key, void *val)
{
    ptoc_ptrmap_entry *e = ptoc_ptrmap_upsert(m, key);
    if (e)
        e->val.ptr = val;
    return e != NULL;
}

bool ptoc_ptrmap_put_int(ptoc_ptrmap *m, const void *key, uint64_t val)
{
    ptoc_ptrmap_entry *e = ptoc_ptrmap_upsert(m, key);
    if (e)
        e->val.num = val;
    return e != NULL;
}

void *ptoc_ptrmap_get(const ptoc_ptrmap *m, const void *key)
{
    ptoc_ptrmap_entry *e = ptoc_ptrmap_find(m, key);
    return e ? e->val.ptr : NULL;
}

bool ptoc_ptrmap_get_int(const ptoc_ptrmap *m, const void *key, uint64_t *val)
{
    ptoc_ptrmap_entry *e = ptoc_ptrmap_find(m, key);
    if (e)
        *val = e->val.num;
    return e != NULL;
}
