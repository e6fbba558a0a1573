/* core_internal.h: what the IR core's files share and nothing outside ir/ needs.
 *
 * The context and arena structs, the open-addressing hash table every interning
 * table and registry is built on, the hash mixing functions, and the byte order
 * used for attribute names. Other layers see ptoc_context and ptoc_arena only as
 * opaque pointers through include/ptoc/ir.h.
 */
#ifndef PTOC_IR_CORE_INTERNAL_H
#define PTOC_IR_CORE_INTERNAL_H

#include "ptoc/ir.h"

/* ---------------------------------------------------------------- hashing */

#define PTOC_HASH_SEED UINT64_C(0xcbf29ce484222325)

/* Mixes `v` into the running hash `h` (a 64-bit multiply-xorshift step). */
static inline uint64_t ptoc_hash_mix(uint64_t h, uint64_t v)
{
    h ^= v + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
    h *= UINT64_C(0xff51afd7ed558ccd);
    return h ^ (h >> 33);
}
static inline uint64_t ptoc_hash_ptr(uint64_t h, const void *p)
{
    return ptoc_hash_mix(h, (uint64_t)(uintptr_t)p);
}
uint64_t ptoc_hash_bytes(uint64_t h, const void *data, size_t len);
static inline uint32_t ptoc_hash_finish(uint64_t h) { return (uint32_t)(h ^ (h >> 32)); }

/* Attribute names are ordered by their bytes, then by length. */
int ptoc_name_cmp(const char *a, size_t alen, const char *b, size_t blen);

/* ---------------------------------------------------------------- hash table */

/* Open addressing with linear probing; grows at 70% load. Items are non-NULL
 * pointers whose hash the table keeps beside them, so growing never calls back. */
typedef struct ptoc_htab {
    ptoc_context *ctx;
    uint32_t *hashes;
    void **items;
    size_t cap, count;
} ptoc_htab;

/* Does `item` match the lookup `key`? */
typedef bool (*ptoc_htab_eq)(const void *item, const void *key);

void ptoc_htab_init(ptoc_htab *t, ptoc_context *ctx);
void ptoc_htab_free(ptoc_htab *t);
void *ptoc_htab_find(const ptoc_htab *t, uint32_t hash, ptoc_htab_eq eq, const void *key);
/* Adds an item known to be absent. */
void ptoc_htab_insert(ptoc_htab *t, uint32_t hash, void *item);

/* A name -> pointer row, for the registries (op defs, dialects, options). Looked up
 * by bytes so that probing an unknown name interns nothing. */
typedef struct ptoc_named_entry {
    ptoc_ident *name;
    const void *value;
} ptoc_named_entry;
typedef struct ptoc_name_key {
    const char *s;
    size_t len;
} ptoc_name_key;
uint32_t ptoc_name_hash(const char *s, size_t len);   /* the hash an ident gets */
ptoc_named_entry *ptoc_registry_find(const ptoc_htab *t, const char *s, size_t len);
/* Adds (or returns the existing) row for `name`. */
ptoc_named_entry *ptoc_registry_upsert(ptoc_htab *t, const char *s, size_t len);

/* ---------------------------------------------------------------- arenas */

typedef struct ptoc_arena_chunk ptoc_arena_chunk;

struct ptoc_arena {
    ptoc_context *ctx;
    ptoc_arena_chunk *chunks;   /* newest first; the first one is being filled */
    char *cur, *end;
    size_t bytes;               /* bytes reserved from the allocator */
    ptoc_arena *prev, *next;    /* the context's list of live arenas */
};

/* ---------------------------------------------------------------- context */

/* A source buffer registered for diagnostics; `lines` (line start offsets) is
 * built the first time a line is asked for. */
typedef struct ptoc_source {
    ptoc_ident *file;
    char *text;
    size_t len;
    size_t *lines;
    size_t nlines;
} ptoc_source;

struct ptoc_context {
    ptoc_allocator allocator;
    ptoc_arena *perm;
    ptoc_arena *arenas;            /* every live arena, perm included */
    ptoc_htab idents, types, attrs;
    ptoc_htab dialects;            /* ptoc_named_entry: name -> ptoc_dialect */
    ptoc_htab op_defs;             /* ptoc_named_entry: "dialect.op" -> ptoc_op_def */
    ptoc_htab unregistered_ops;    /* ptoc_named_entry: name -> ptoc_op_def made here */
    ptoc_htab options;             /* ptoc_named_entry: key -> copied value string */
    ptoc_htab extensions;          /* ptoc_named_entry: key -> a layer's own state */
    bool allow_unregistered;
    ptoc_diag_handler diag_handler;
    void *diag_user;
    size_t error_count;
    ptoc_source *sources;
    uint32_t nsources, sources_cap;
};

/* Frees what the diagnostics part of the context holds (source buffers). */
void ptoc_diag_release(ptoc_context *ctx);
/* The default handler: ptoc_diag_print to stderr; `user` is the context. */
void ptoc_diag_default_handler(void *user, const ptoc_diagnostic *d);

#endif
