/* strbuf.c: a growable byte string for the printer and diagnostics. With a context
 * it allocates through the context's allocator (so leak-counting tests see it),
 * without one through malloc. The bytes are always NUL-terminated once any
 * exist, so ptoc_strbuf_cstr is free.
 */
#include "ir/core_internal.h"

#include <stdlib.h>
#include <string.h>

void ptoc_strbuf_init(ptoc_strbuf *sb, ptoc_context *ctx)
{
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->ctx = ctx;
}

void ptoc_strbuf_free(ptoc_strbuf *sb)
{
    if (sb->ctx)
        ptoc_free(sb->ctx, sb->data, sb->cap);
    else
        free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

/* Makes room for `extra` more bytes plus the terminating NUL. */
static void reserve(ptoc_strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1, cap;
    char *data;
    if (need <= sb->cap)
        return;
    cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap *= 2;
    if (sb->ctx) {
        data = ptoc_alloc(sb->ctx, cap);
        if (sb->len)
            memcpy(data, sb->data, sb->len);
        ptoc_free(sb->ctx, sb->data, sb->cap);
    } else {
        data = realloc(sb->data, cap);
        if (!data)
            ptoc_fatal("out of memory (%zu bytes)", cap);
    }
    sb->data = data;
    sb->cap = cap;
}

void ptoc_strbuf_append(ptoc_strbuf *sb, const char *s, size_t len)
{
    reserve(sb, len);
    if (len)
        memcpy(sb->data + sb->len, s, len);
    sb->len += len;
    sb->data[sb->len] = '\0';
}

void ptoc_strbuf_puts(ptoc_strbuf *sb, const char *s) { ptoc_strbuf_append(sb, s, strlen(s)); }

void ptoc_strbuf_putc(ptoc_strbuf *sb, char c) { ptoc_strbuf_append(sb, &c, 1); }

void ptoc_strbuf_vprintf(ptoc_strbuf *sb, const char *fmt, va_list ap)
{
    va_list probe;
    int n;
    va_copy(probe, ap);
    n = vsnprintf(NULL, 0, fmt, probe);
    va_end(probe);
    if (n < 0)
        ptoc_unreachable("bad format string");
    reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void ptoc_strbuf_printf(ptoc_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptoc_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

const char *ptoc_strbuf_cstr(ptoc_strbuf *sb)
{
    reserve(sb, 0);
    sb->data[sb->len] = '\0';
    return sb->data;
}
