/* util.h: the small containers every layer uses instead of writing its own.
 *
 * A typed growable array (PTOC_VARR_DEF) and a pointer-keyed map (ptoc_ptrmap).
 * Both take their memory from one of three places, chosen at init:
 *   - a context (ptoc_alloc / ptoc_free, so a test allocator sees every byte),
 *   - an arena (for arrays: the old copy stays in the arena, free is a no-op),
 *   - neither (NULL): plain malloc / realloc / free, for code without a context
 *     such as the runtime.
 * Growth reports running out of memory by returning false (NULL for slots) and
 * leaves the container as it was. Through a context or an arena memory never
 * runs out in the caller's sight: their allocators stop the program with
 * ptoc_fatal, the core's one way out for out-of-memory. The growth rule itself
 * is in ptoc/varr.h, which the runtime uses on its own.
 */
#ifndef PTOC_UTIL_H
#define PTOC_UTIL_H

#include "ptoc/ir.h"
#include "ptoc/varr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------- growable arrays */

/* Returns a block with room for at least `need` elements of `size` bytes holding
 * the `len` elements of `data`: `data` itself when it has the room, else a new
 * block by the rule of ptoc/varr.h, with *cap set to its capacity. Without a
 * context or an arena (both NULL) it is ptoc_varr_realloc: NULL, with `data`
 * untouched, when malloc fails. Through a context or an arena it never returns
 * NULL (running out, even of capacity, is ptoc_fatal). The functions
 * PTOC_VARR_DEF defines use it; so do arrays kept as separate pointer, count and
 * capacity fields (PTOC_VARR_PUSH_FIELDS below). */
void *ptoc_varr_grow(ptoc_context *ctx, ptoc_arena *arena, void *data, uint32_t len, uint32_t *cap,
                     uint32_t need, size_t size, size_t align);
void ptoc_varr_release(ptoc_context *ctx, ptoc_arena *arena, void *data, uint32_t cap, size_t size);

/* Appends a slot to an array kept as separate fields, with memory from a
 * context or an arena (the other NULL), and yields a pointer to the slot:
 *     *PTOC_VARR_PUSH_FIELDS(NULL, arena, b->args, b->nargs, b->args_cap) = v;
 * `arr`, `n` and `cap` (n and cap uint32_t) are plain lvalues, evaluated more
 * than once. The slot is not cleared. Elements are aligned for any type, as a
 * macro cannot name the element's type. Malloc'd arrays, which can run out,
 * use ptoc_varr_grow or ptoc_varr_realloc and test the result instead. */
#define PTOC_VARR_PUSH_FIELDS(ctx, arena, arr, n, cap)                                               \
    ((arr) = ptoc_varr_grow((ctx), (arena), (arr), (n), &(cap), (n) + 1, sizeof *(arr),              \
                            _Alignof(max_align_t)),                                                 \
     &(arr)[(n)++])

/* Defines `name`, an array of T, and its functions:
 *   name_init(v, ctx)          memory from the context, or malloc when ctx is NULL
 *   name_init_arena(v, arena)  memory from the arena
 *   name_reserve(v, n)         room for n elements in all; false when out of memory
 *   name_push(v, x)            appends x; false when out of memory
 *   name_add(v)                appends a zeroed slot and returns it; NULL when out of memory
 *   name_pop(v)                removes and returns the last element (v must not be empty)
 *   name_length(v)             the number of elements
 *   name_free(v)               gives the memory back; v is empty and usable again
 * The elements are v->data[0 .. v->len). */
#define PTOC_VARR_DEF(T, name)                                                                      \
    typedef struct name {                                                                           \
        T *data;                                                                                    \
        uint32_t len, cap;                                                                          \
        ptoc_context *ctx;                                                                          \
        ptoc_arena *arena;                                                                          \
    } name;                                                                                         \
    static inline void name##_init(name *v, ptoc_context *ctx) { *v = (name){.ctx = ctx}; }         \
    static inline void name##_init_arena(name *v, ptoc_arena *arena) { *v = (name){.arena = arena}; } \
    static inline bool name##_reserve(name *v, uint32_t n)                                          \
    {                                                                                               \
        if (n <= v->cap)                                                                            \
            return true;                                                                            \
        void *grown = ptoc_varr_grow(v->ctx, v->arena, v->data, v->len, &v->cap, n, sizeof(T),      \
                                     _Alignof(T));                                                  \
        if (!grown)                                                                                 \
            return false;                                                                           \
        v->data = grown;                                                                            \
        return true;                                                                                \
    }                                                                                               \
    static inline T *name##_add(name *v)                                                            \
    {                                                                                               \
        if (v->len == v->cap && !name##_reserve(v, v->len + 1))                                     \
            return NULL;                                                                            \
        T *slot = &v->data[v->len++];                                                               \
        memset(slot, 0, sizeof *slot);                                                              \
        return slot;                                                                                \
    }                                                                                               \
    static inline bool name##_push(name *v, T x)                                                    \
    {                                                                                               \
        if (v->len == v->cap && !name##_reserve(v, v->len + 1))                                     \
            return false;                                                                           \
        v->data[v->len++] = x;                                                                      \
        return true;                                                                                \
    }                                                                                               \
    static inline T name##_pop(name *v) { return v->data[--v->len]; }                               \
    static inline uint32_t name##_length(const name *v) { return v->len; }                          \
    static inline void name##_free(name *v)                                                         \
    {                                                                                               \
        ptoc_varr_release(v->ctx, v->arena, v->data, v->cap, sizeof(T));                            \
        v->data = NULL;                                                                             \
        v->len = v->cap = 0;                                                                        \
    }

/* The arrays most code needs. */
PTOC_VARR_DEF(ptoc_op *, ptoc_op_varr)
PTOC_VARR_DEF(ptoc_type *, ptoc_type_varr)
PTOC_VARR_DEF(int64_t, ptoc_i64_varr)

/* ---------------------------------------------------------------- pointer map */

/* One entry: a non-NULL pointer key and a value that is a pointer or an integer
 * (whichever the map's user stores; the other member is not meaningful). */
typedef struct ptoc_ptrmap_entry {
    const void *key;
    union {
        void *ptr;
        uint64_t num;
    } val;
} ptoc_ptrmap_entry;

/* Keys are compared by identity. Entries sit in insertion order in `entries`
 * (iterate i from 0 to ptoc_ptrmap_count), so output that walks a map is
 * deterministic; an open-addressing table of entry numbers finds them in O(1).
 * Entries are never removed: callers reset the value instead. */
typedef struct ptoc_ptrmap {
    ptoc_context *ctx;               /* NULL: malloc */
    ptoc_ptrmap_entry *entries;
    uint32_t *slots;                 /* 0 empty, else entry number + 1 */
    uint32_t count, entries_cap, slots_cap;
} ptoc_ptrmap;

void ptoc_ptrmap_init(ptoc_ptrmap *m, ptoc_context *ctx);
void ptoc_ptrmap_free(ptoc_ptrmap *m);
/* The entry of `key`, or NULL if absent. */
ptoc_ptrmap_entry *ptoc_ptrmap_find(const ptoc_ptrmap *m, const void *key);
/* The entry of `key`, added with a zero value if absent; NULL when out of memory. */
ptoc_ptrmap_entry *ptoc_ptrmap_upsert(ptoc_ptrmap *m, const void *key);
/* Sets key -> val (replacing an old value); false when out of memory. */
bool ptoc_ptrmap_put(ptoc_ptrmap *m, const void *key, void *val);
bool ptoc_ptrmap_put_int(ptoc_ptrmap *m, const void *key, uint64_t val);
/* The pointer value of `key`, NULL if absent. */
void *ptoc_ptrmap_get(const ptoc_ptrmap *m, const void *key);
/* The integer value of `key` in *val; false (and *val untouched) if absent. */
bool ptoc_ptrmap_get_int(const ptoc_ptrmap *m, const void *key, uint64_t *val);
static inline uint32_t ptoc_ptrmap_count(const ptoc_ptrmap *m) { return m->count; }

#endif
