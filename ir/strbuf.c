/* strbuf.c: a growable byte string for the printer and diagnostics. With a context
 * it allocates through the context's allocator (so leak-counting tests see it),
 * without one through malloc; either way it grows as util.h's arrays do. The
 * bytes are always NUL-terminated once any exist, so ptoc_strbuf_cstr is free.
 * Running out of memory is ptoc_fatal, as in the rest of the core.
 */
#include "ir/core_internal.h"
#include "ptoc/util.h"

#include <string.h>

void ptoc_strbuf_init(ptoc_strbuf *sb, ptoc_context *ctx)
{
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->ctx = ctx;
}

void ptoc_strbuf_free(ptoc_strbuf *sb)
{
    ptoc_varr_release(sb->ctx, NULL, sb->data, (uint32_t)sb->cap, 1);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

/* Makes room for `extra` more bytes plus the terminating NUL. The capacity
 * stays below 4 GiB (the arrays' limit), which no printed module or message
 * reaches; a string that would pass it is out of memory. */
static void reserve(ptoc_strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    uint32_t cap = (uint32_t)sb->cap;
    char *data = need > UINT32_MAX ? NULL
                                   : ptoc_varr_grow(sb->ctx, NULL, sb->data, (uint32_t)sb->len, &cap,
                                                    (uint32_t)need, 1, 1);
    if (!data)
        ptoc_fatal("out of memory (%zu bytes)", need);
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
