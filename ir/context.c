/* context.c: the context and its tables. It owns the permanent arena, the
 * open-addressing hash table that interning and the registries share, interned
 * identifiers, tool options, and the registry of dialects and op definitions
 * (including the defs made on demand for ops of unregistered dialects).
 */
#include "ir/core_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- hashing */

uint64_t ptoc_hash_bytes(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    size_t i;
    for (i = 0; i < len; i++) {                 /* FNV-1a, then a final mix */
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return ptoc_hash_mix(h, len);
}

int ptoc_name_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c)
        return c;
    return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/* ---------------------------------------------------------------- hash table */

void ptoc_htab_init(ptoc_htab *t, ptoc_context *ctx)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
}

void ptoc_htab_free(ptoc_htab *t)
{
    ptoc_free(t->ctx, t->hashes, t->cap * sizeof *t->hashes);
    ptoc_free(t->ctx, t->items, t->cap * sizeof *t->items);
    t->hashes = NULL;
    t->items = NULL;
    t->cap = t->count = 0;
}

void *ptoc_htab_find(const ptoc_htab *t, uint32_t hash, ptoc_htab_eq eq, const void *key)
{
    size_t mask = t->cap - 1, i;
    if (!t->cap)
        return NULL;
    for (i = hash & mask; t->items[i]; i = (i + 1) & mask)
        if (t->hashes[i] == hash && eq(t->items[i], key))
            return t->items[i];
    return NULL;
}

static void place(uint32_t *hashes, void **items, size_t cap, uint32_t hash, void *item)
{
    size_t i = hash & (cap - 1);
    while (items[i])
        i = (i + 1) & (cap - 1);
    hashes[i] = hash;
    items[i] = item;
}

static void grow(ptoc_htab *t)
{
    size_t cap = t->cap ? t->cap * 2 : 64, i;
    uint32_t *hashes = ptoc_alloc(t->ctx, cap * sizeof *hashes);
    void **items = ptoc_alloc(t->ctx, cap * sizeof *items);
    memset(items, 0, cap * sizeof *items);
    for (i = 0; i < t->cap; i++)
        if (t->items[i])
            place(hashes, items, cap, t->hashes[i], t->items[i]);
    ptoc_free(t->ctx, t->hashes, t->cap * sizeof *t->hashes);
    ptoc_free(t->ctx, t->items, t->cap * sizeof *t->items);
    t->hashes = hashes;
    t->items = items;
    t->cap = cap;
}

void ptoc_htab_insert(ptoc_htab *t, uint32_t hash, void *item)
{
    if ((t->count + 1) * 10 > t->cap * 7)
        grow(t);
    place(t->hashes, t->items, t->cap, hash, item);
    t->count++;
}

/* ---------------------------------------------------------------- identifiers */

uint32_t ptoc_name_hash(const char *s, size_t len)
{
    return ptoc_hash_finish(ptoc_hash_bytes(PTOC_HASH_SEED, s, len));
}

static bool ident_eq(const void *item, const void *key)
{
    const ptoc_ident *id = item;
    const ptoc_name_key *k = key;
    return id->len == k->len && memcmp(id->str, k->s, k->len) == 0;
}

ptoc_ident *ptoc_ident_get(ptoc_context *ctx, const char *s, size_t len)
{
    ptoc_name_key key = {s, len};
    uint32_t hash = ptoc_name_hash(s, len);
    ptoc_ident *id = ptoc_htab_find(&ctx->idents, hash, ident_eq, &key);
    if (id)
        return id;
    if (len > UINT32_MAX)
        ptoc_fatal("identifier too long (%zu bytes)", len);
    id = ptoc_arena_alloc(ctx->perm, sizeof *id + len + 1, _Alignof(ptoc_ident));
    id->len = (uint32_t)len;
    id->hash = hash;
    if (len)
        memcpy(id->str, s, len);
    id->str[len] = '\0';
    ptoc_htab_insert(&ctx->idents, hash, id);
    return id;
}

ptoc_ident *ptoc_ident_cstr(ptoc_context *ctx, const char *s)
{
    return ptoc_ident_get(ctx, s, strlen(s));
}

/* ---------------------------------------------------------------- registries */

static bool entry_eq(const void *item, const void *key)
{
    return ident_eq(((const ptoc_named_entry *)item)->name, key);
}

ptoc_named_entry *ptoc_registry_find(const ptoc_htab *t, const char *s, size_t len)
{
    ptoc_name_key key = {s, len};
    return ptoc_htab_find(t, ptoc_name_hash(s, len), entry_eq, &key);
}

ptoc_named_entry *ptoc_registry_upsert(ptoc_htab *t, const char *s, size_t len)
{
    ptoc_named_entry *e = ptoc_registry_find(t, s, len);
    if (e)
        return e;
    e = PTOC_NEW(t->ctx->perm, ptoc_named_entry);
    e->name = ptoc_ident_get(t->ctx, s, len);
    ptoc_htab_insert(t, e->name->hash, e);
    return e;
}

void ptoc_context_set_option(ptoc_context *ctx, const char *key, const char *value)
{
    ptoc_named_entry *e = ptoc_registry_upsert(&ctx->options, key, strlen(key));
    e->value = ptoc_arena_strndup(ctx->perm, value, strlen(value));
}

const char *ptoc_context_option(ptoc_context *ctx, const char *key)
{
    ptoc_named_entry *e = ptoc_registry_find(&ctx->options, key, strlen(key));
    return e ? e->value : NULL;
}

void ptoc_context_set_extension(ptoc_context *ctx, const char *key, void *state)
{
    ptoc_registry_upsert(&ctx->extensions, key, strlen(key))->value = state;
}

void *ptoc_context_extension(ptoc_context *ctx, const char *key)
{
    ptoc_named_entry *e = ptoc_registry_find(&ctx->extensions, key, strlen(key));
    return e ? (void *)e->value : NULL;
}

void ptoc_context_register_dialect(ptoc_context *ctx, const ptoc_dialect *d)
{
    size_t i, n = strlen(d->name);
    ptoc_named_entry *e;
    if (ptoc_registry_find(&ctx->dialects, d->name, n))
        return;
    ptoc_registry_upsert(&ctx->dialects, d->name, n)->value = d;
    for (i = 0; i < d->nops; i++) {
        e = ptoc_registry_upsert(&ctx->op_defs, d->ops[i].name, strlen(d->ops[i].name));
        e->value = &d->ops[i];
    }
}

const ptoc_dialect *ptoc_context_dialect(ptoc_context *ctx, const char *name, size_t len)
{
    ptoc_named_entry *e = ptoc_registry_find(&ctx->dialects, name, len);
    return e ? e->value : NULL;
}

const ptoc_op_def *ptoc_context_op_def(ptoc_context *ctx, const char *name, size_t len)
{
    ptoc_named_entry *e = ptoc_registry_find(&ctx->op_defs, name, len);
    return e ? e->value : NULL;
}

const ptoc_op_def *ptoc_context_unregistered_op(ptoc_context *ctx, const char *name, size_t len)
{
    ptoc_named_entry *e = ptoc_registry_upsert(&ctx->unregistered_ops, name, len);
    ptoc_op_def *def;
    if (!e->value) {
        def = PTOC_NEW(ctx->perm, ptoc_op_def);
        def->name = e->name->str;
        def->flags = PTOC_OPF_UNREGISTERED;
        e->value = def;
    }
    return e->value;
}

void ptoc_context_allow_unregistered(ptoc_context *ctx, bool allow) { ctx->allow_unregistered = allow; }

bool ptoc_context_allows_unregistered(ptoc_context *ctx) { return ctx->allow_unregistered; }

/* ---------------------------------------------------------------- lifetime */

ptoc_context *ptoc_context_create(const ptoc_allocator *allocator)
{
    ptoc_allocator a = {0, 0, 0};
    ptoc_context *ctx;
    if (allocator)
        a = *allocator;
    ctx = a.alloc ? a.alloc(a.user, sizeof *ctx) : malloc(sizeof *ctx);
    if (!ctx)
        ptoc_fatal("out of memory (%zu bytes)", sizeof *ctx);
    memset(ctx, 0, sizeof *ctx);
    ctx->allocator = a;
    ctx->perm = ptoc_arena_create(ctx);
    ptoc_htab_init(&ctx->idents, ctx);
    ptoc_htab_init(&ctx->types, ctx);
    ptoc_htab_init(&ctx->attrs, ctx);
    ptoc_htab_init(&ctx->dialects, ctx);
    ptoc_htab_init(&ctx->op_defs, ctx);
    ptoc_htab_init(&ctx->unregistered_ops, ctx);
    ptoc_htab_init(&ctx->options, ctx);
    ptoc_htab_init(&ctx->extensions, ctx);
    ctx->diag_handler = ptoc_diag_default_handler;
    ctx->diag_user = ctx;
    return ctx;
}

void ptoc_context_destroy(ptoc_context *ctx)
{
    if (!ctx)
        return;
    ptoc_diag_release(ctx);
    ptoc_htab_free(&ctx->idents);
    ptoc_htab_free(&ctx->types);
    ptoc_htab_free(&ctx->attrs);
    ptoc_htab_free(&ctx->dialects);
    ptoc_htab_free(&ctx->op_defs);
    ptoc_htab_free(&ctx->unregistered_ops);
    ptoc_htab_free(&ctx->options);
    ptoc_htab_free(&ctx->extensions);
    while (ctx->arenas)
        ptoc_arena_destroy(ctx->arenas);
    ptoc_free(ctx, ctx, sizeof *ctx);
}

ptoc_arena *ptoc_context_perm_arena(ptoc_context *ctx) { return ctx->perm; }
