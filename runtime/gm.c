/* gm.c: the GM buffers a launch passes, and the bounds check generated code
 * makes before each GM access (ptoc/runtime.h, codegen option gm_checks).
 *
 * The table is a plain array searched linearly: a kernel has a handful of
 * pointer parameters, and a check runs once per op, not per element. A buffer
 * is found by the view's origin (the pointer make_tensor_view was given), so
 * the error names the parameter even when the window starts outside it. The
 * window's extent is computed here in checked 64-bit arithmetic, relative to
 * the buffer's first byte, so that no wrap-around of host addresses or of huge
 * strides can make an access outside the buffer look like one inside it.
 */
#include "ptoc/runtime.h"
#include "ptoc/varr.h"
#include "runtime/rt_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { RANK = 5 };

typedef struct gm_buffer {
    uintptr_t begin;
    uint64_t bytes;
    char *name;
} gm_buffer;

static gm_buffer *buffers;
static uint32_t nbuffers, capacity;

/* ---------------------------------------------------------------- the table */

bool ptoc_rt_gm_register(const void *base, uint64_t bytes, const char *name)
{
    gm_buffer *grown = ptoc_varr_realloc(buffers, &capacity, nbuffers + 1, sizeof *buffers);
    if (!grown)
        return false;
    buffers = grown;
    char *copy = malloc(strlen(name) + 1);
    if (!copy)
        return false;
    strcpy(copy, name);
    buffers[nbuffers++] = (gm_buffer){(uintptr_t)base, bytes, copy};
    return true;
}

void ptoc_rt_gm_clear(void)
{
    for (uint32_t i = 0; i < nbuffers; i++)
        free(buffers[i].name);
    free(buffers);
    buffers = NULL;
    nbuffers = capacity = 0;
}

/* The buffer starting at `origin`, else the one holding it; NULL if none. */
static const gm_buffer *find_buffer(uintptr_t origin)
{
    for (size_t i = 0; i < nbuffers; i++)
        if (buffers[i].begin == origin)
            return &buffers[i];
    for (size_t i = 0; i < nbuffers; i++)
        if (origin > buffers[i].begin && origin - buffers[i].begin < buffers[i].bytes)
            return &buffers[i];
    return NULL;
}

/* ---------------------------------------------------------------- checked arithmetic */

static bool mul_ok(int64_t a, int64_t b, int64_t *out)
{
    const int64_t small = INT64_C(1) << 31;     /* below it, the product fits: no division */
    if (a > -small && a < small && b > -small && b < small) {
        *out = a * b;
        return true;
    }
    if (a != 0 && b != 0) {
        bool neg = (a < 0) != (b < 0);
        uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
        uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        if (ua > limit / ub)
            return false;
        uint64_t p = ua * ub;
        *out = neg ? (p == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)p) : (int64_t)p;
        return true;
    }
    *out = 0;
    return true;
}

static bool add_ok(int64_t a, int64_t b, int64_t *out)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return false;
    *out = a + b;
    return true;
}

/* (int64_t)(a - b) for host addresses, wrapping as two's complement. */
static int64_t address_difference(uintptr_t a, uintptr_t b)
{
    uint64_t d = (uint64_t)a - (uint64_t)b;
    return d <= (uint64_t)INT64_MAX ? (int64_t)d : -(int64_t)(~d) - 1;
}

/* Bytes [*first, *end) of the window at `base` relative to `begin`; false on
 * overflow. The window is not empty (every dim >= 1). */
static bool window_bytes(uintptr_t begin, uintptr_t base, const int64_t *window, int64_t *first, int64_t *end)
{
    int64_t esize = window[0], lo = 0, hi = 0;
    const int64_t *shape = window + 3, *stride = window + 3 + RANK;
    for (int k = 0; k < RANK; k++) {
        int64_t span;
        if (!mul_ok(shape[k] - 1, stride[k], &span) || !add_ok(span > 0 ? hi : lo, span, span > 0 ? &hi : &lo))
            return false;
    }
    int64_t rel = address_difference(base, begin), lo_bytes, hi_bytes;
    return mul_ok(lo, esize, &lo_bytes) && mul_ok(hi, esize, &hi_bytes) && add_ok(hi_bytes, esize, &hi_bytes) &&
           add_ok(rel, lo_bytes, first) && add_ok(rel, hi_bytes, end);
}

/* ---------------------------------------------------------------- the check */

void ptoc_rt_gm_check(const char *where, const char *op, const void *origin, const void *base,
                      const int64_t *window)
{
    const char *verb = window[1] ? "writes" : "reads";
    int64_t lead = RANK - window[2];                /* dims the view's rank leaves at 1 */
    for (int k = 0; k < RANK; k++) {
        if (window[3 + k] < 0)
            ptoc_rt_fail(where, "'%s' %s a GM view whose dim %" PRId64 " has the negative size %" PRId64, op,
                         verb, k - lead, window[3 + k]);
        if (window[3 + k] == 0)
            return;                                 /* an empty window touches nothing */
    }
    const gm_buffer *buf = find_buffer((uintptr_t)origin);
    if (!buf)
        ptoc_rt_fail(where, "'%s' %s through a GM pointer that is not a registered buffer (ptoc_rt_gm_register)",
                     op, verb);
    int64_t first, end;
    if (!window_bytes(buf->begin, (uintptr_t)base, window, &first, &end))
        ptoc_rt_fail(where, "'%s' %s a window of %s too large to address (its byte range overflows 64 bits)", op,
                     verb, buf->name);
    if (first < 0 || (uint64_t)end > buf->bytes)
        ptoc_rt_fail(where, "'%s' %s bytes [%" PRId64 ", %" PRId64 ") of %s, which holds %" PRIu64 " bytes", op,
                     verb, first, end, buf->name, buf->bytes);
}
