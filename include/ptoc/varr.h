/* varr.h: the growth rule of ptoc's growable arrays, on its own.
 *
 * Capacities double from 8 until they hold what is needed, and stay below
 * 2^32 elements. This header depends on nothing but the C library, so the
 * runtime (which links nothing else of ptoc) grows its malloc'd arrays by the
 * same rule as the containers of ptoc/util.h, which build on it.
 */
#ifndef PTOC_VARR_H
#define PTOC_VARR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The capacity an array of `cap` elements of `size` bytes (size > 0) grows to
 * so that it holds `need`, in *out; false when that many would not fit in 2^32
 * elements or in size_t bytes. */
static inline bool ptoc_varr_next_cap(uint32_t cap, uint32_t need, size_t size, uint32_t *out)
{
    uint64_t want = cap ? cap : 8;
    while (want < need)
        want *= 2;
    if (want > UINT32_MAX || want > SIZE_MAX / size)
        return false;
    *out = (uint32_t)want;
    return true;
}

/* A malloc'd array of *cap elements of `size` bytes with room for `need`:
 * `data` itself when it has the room, else `data` realloc'd by the rule above,
 * with *cap updated. NULL, with `data` and *cap untouched, when out of memory,
 * so a caller keeps what it had:
 *     void *grown = ptoc_varr_realloc(xs, &cap, n + 1, sizeof *xs);
 *     if (!grown) return false;
 *     xs = grown;  */
static inline void *ptoc_varr_realloc(void *data, uint32_t *cap, uint32_t need, size_t size)
{
    uint32_t want;
    if (data && need <= *cap)
        return data;
    if (!ptoc_varr_next_cap(*cap, need, size, &want))
        return NULL;
    void *grown = realloc(data, (size_t)want * size);
    if (grown)
        *cap = want;
    return grown;
}

#endif
