/* arena.c: allocation. Every byte ptoc takes goes through the context's allocator
 * (ptoc_alloc / ptoc_free); arenas sit on top of it and hand out zeroed memory by
 * bumping a pointer through chunks, and give everything back at once. The context
 * keeps a list of live arenas so that destroying it frees the ones still alive.
 * ptoc_fatal also lives here: it is the one way out for out-of-memory.
 */
#include "ir/core_internal.h"

#include <stdlib.h>
#include <string.h>

/* Chunk sizes grow from MIN to MAX by doubling, so small modules stay small and
 * big ones take few chunks. Requests above a quarter chunk get their own chunk. */
#define CHUNK_MIN ((size_t)4096)
#define CHUNK_MAX ((size_t)1 << 20)

struct ptoc_arena_chunk {
    ptoc_arena_chunk *next;
    size_t size;                     /* bytes of the whole chunk, header included */
    _Alignas(max_align_t) char data[];
};

void ptoc_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ptoc: fatal: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

void *ptoc_alloc(ptoc_context *ctx, size_t size)
{
    const ptoc_allocator *a = &ctx->allocator;
    void *p = a->alloc ? a->alloc(a->user, size) : malloc(size);
    if (!p && size)
        ptoc_fatal("out of memory (%zu bytes)", size);
    return p;
}

void ptoc_free(ptoc_context *ctx, void *ptr, size_t size)
{
    const ptoc_allocator *a = &ctx->allocator;
    if (!ptr)
        return;
    if (a->free)
        a->free(a->user, ptr, size);
    else
        free(ptr);
}

const ptoc_allocator *ptoc_context_allocator(ptoc_context *ctx) { return &ctx->allocator; }

ptoc_arena *ptoc_arena_create(ptoc_context *ctx)
{
    ptoc_arena *arena = ptoc_alloc(ctx, sizeof *arena);
    memset(arena, 0, sizeof *arena);
    arena->ctx = ctx;
    arena->next = ctx->arenas;
    if (ctx->arenas)
        ctx->arenas->prev = arena;
    ctx->arenas = arena;
    return arena;
}

void ptoc_arena_destroy(ptoc_arena *arena)
{
    ptoc_context *ctx;
    ptoc_arena_chunk *c, *next;
    if (!arena)
        return;
    ctx = arena->ctx;
    for (c = arena->chunks; c; c = next) {
        next = c->next;
        ptoc_free(ctx, c, c->size);
    }
    if (arena->prev)
        arena->prev->next = arena->next;
    else
        ctx->arenas = arena->next;
    if (arena->next)
        arena->next->prev = arena->prev;
    ptoc_free(ctx, arena, sizeof *arena);
}

/* A zeroed chunk with at least `need` usable bytes. */
static ptoc_arena_chunk *chunk_new(ptoc_arena *arena, size_t need)
{
    size_t size = arena->chunks ? arena->chunks->size * 2 : CHUNK_MIN;
    ptoc_arena_chunk *c;
    if (size > CHUNK_MAX)
        size = CHUNK_MAX;
    if (need > SIZE_MAX - sizeof *c)
        ptoc_fatal("arena request too large (%zu bytes)", need);
    if (size < need + sizeof *c)
        size = need + sizeof *c;
    c = ptoc_alloc(arena->ctx, size);
    memset(c, 0, size);
    c->size = size;
    arena->bytes += size;
    return c;
}

void *ptoc_arena_alloc(ptoc_arena *arena, size_t size, size_t align)
{
    uintptr_t p;
    ptoc_arena_chunk *c;
    if (align == 0)
        align = 1;
    p = ((uintptr_t)arena->cur + (align - 1)) & ~(uintptr_t)(align - 1);
    if (arena->cur && p + size <= (uintptr_t)arena->end && p >= (uintptr_t)arena->cur) {
        arena->cur = (char *)(p + size);
        return (void *)p;
    }
    /* The chunk data is max_align_t-aligned; extra alignment costs padding. */
    if (size + align > CHUNK_MIN / 4) {
        /* A big request gets its own chunk behind the current one, which stays in use. */
        c = chunk_new(arena, size + align);
        if (arena->chunks) {
            c->next = arena->chunks->next;
            arena->chunks->next = c;
        } else {
            c->next = NULL;
            arena->chunks = c;
            arena->cur = arena->end = c->data + (c->size - sizeof *c);
        }
        p = ((uintptr_t)c->data + (align - 1)) & ~(uintptr_t)(align - 1);
        return (void *)p;
    }
    c = chunk_new(arena, size + align);
    c->next = arena->chunks;
    arena->chunks = c;
    arena->cur = c->data;
    arena->end = (char *)c + c->size;
    p = ((uintptr_t)arena->cur + (align - 1)) & ~(uintptr_t)(align - 1);
    arena->cur = (char *)(p + size);
    return (void *)p;
}

void *ptoc_arena_dup(ptoc_arena *arena, const void *src, size_t size)
{
    void *p = ptoc_arena_alloc(arena, size ? size : 1, _Alignof(max_align_t));
    if (size)
        memcpy(p, src, size);
    return p;
}

char *ptoc_arena_strndup(ptoc_arena *arena, const char *s, size_t len)
{
    char *p = ptoc_arena_alloc(arena, len + 1, 1);
    if (len)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

size_t ptoc_arena_bytes(const ptoc_arena *arena) { return arena->bytes; }
