/* print.c: what pto.print and pto.tprint write, on the process's stdout.
 *
 * pto.print formats one scalar with the kernel's printf format, which codegen
 * has checked to hold exactly one conversion of the scalar's kind and has given
 * the `ll` length of an int64_t (integers) or none (doubles), so the call
 * below always passes the argument the format reads.
 *
 * pto.tprint writes a tile as pto-isa's cpu model does: a "TPRINT RxC" line,
 * then each valid row on a line, elements separated by one space, each right
 * aligned in 8 characters; floating-point values fixed with 4 decimals. The
 * kernel sends the elements one by one (begin; per row, a value per element
 * and a row end; end); the text is built per thread and written with one call, so
 * that the blocks of a multi-block run do not interleave inside a tile.
 */
#include "ptoc/runtime.h"
#include "runtime/rt_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ptoc_rt_print(const char *fmt, int32_t kind, int64_t i, double f)
{
    if (kind == PTOC_RT_PRINT_FLOAT)
        printf(fmt, f);
    else if (kind == PTOC_RT_PRINT_UNSIGNED)
        printf(fmt, (unsigned long long)(uint64_t)i);
    else
        printf(fmt, (long long)i);
    fflush(stdout);
}

/* The tile being printed by this thread. */
typedef struct tprint_text {
    char *text;
    size_t len, cap;
    bool row_started; /* an element of the current row is written */
} tprint_text;

static _Thread_local tprint_text tile;

static void append(const char *s, size_t n)
{
    if (tile.len + n + 1 > tile.cap) {
        size_t cap = tile.cap ? tile.cap : 256;
        while (cap < tile.len + n + 1)
            cap *= 2;
        char *grown = realloc(tile.text, cap);
        if (!grown)
            ptoc_rt_fail("", "cannot allocate %zu bytes for pto.tprint's text", cap);
        tile.text = grown;
        tile.cap = cap;
    }
    memcpy(tile.text + tile.len, s, n);
    tile.len += n;
    tile.text[tile.len] = '\0';
}

void ptoc_rt_tprint_begin(int64_t rows, int64_t cols)
{
    char head[64];
    tile.len = 0;
    tile.row_started = false;
    append(head, (size_t)snprintf(head, sizeof head, "TPRINT %" PRId64 "x%" PRId64 "\n", rows, cols));
}

void ptoc_rt_tprint_value(int32_t kind, int64_t i, double f)
{
    char item[512];
    const char *sep = tile.row_started ? " " : "";
    int n;
    if (kind == PTOC_RT_PRINT_FLOAT)
        n = snprintf(item, sizeof item, "%s%8.4f", sep, f);
    else if (kind == PTOC_RT_PRINT_UNSIGNED)
        n = snprintf(item, sizeof item, "%s%8" PRIu64, sep, (uint64_t)i);
    else
        n = snprintf(item, sizeof item, "%s%8" PRId64, sep, i);
    append(item, n < (int)sizeof item ? (size_t)n : sizeof item - 1);
    tile.row_started = true;
}

void ptoc_rt_tprint_row_end(void)
{
    append("\n", 1);
    tile.row_started = false;
}

void ptoc_rt_tprint_end(void)
{
    if (tile.text)
        fputs(tile.text, stdout);
    fflush(stdout);
    free(tile.text);
    tile = (tprint_text){0};
}
