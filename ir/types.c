/* types.c: interned types. A type is built on the stack as a key, hashed over its
 * contents (element types and attributes by pointer, since those are interned
 * too), and looked up in the context's type table; on a miss it is copied, with
 * its arrays, into the permanent arena. Equal types are therefore one pointer.
 */
#include "ir/core_internal.h"

#include <string.h>

static uint64_t hash_ptrs(uint64_t h, ptoc_type *const *p, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        h = ptoc_hash_ptr(h, p[i]);
    return ptoc_hash_mix(h, n);
}

static uint32_t type_hash(const ptoc_type *t)
{
    uint64_t h = ptoc_hash_mix(PTOC_HASH_SEED, (uint64_t)t->kind);
    switch (t->kind) {
    case PTOC_TYPE_INDEX:
    case PTOC_TYPE_NONE:
        break;
    case PTOC_TYPE_INTEGER:
        h = ptoc_hash_mix(ptoc_hash_mix(h, t->u.integer.width), (uint64_t)t->u.integer.sign);
        break;
    case PTOC_TYPE_FLOAT:
        h = ptoc_hash_mix(h, (uint64_t)t->u.fp.kind);
        break;
    case PTOC_TYPE_FUNCTION:
        h = hash_ptrs(h, t->u.func.inputs, t->u.func.ninputs);
        h = hash_ptrs(h, t->u.func.results, t->u.func.nresults);
        break;
    case PTOC_TYPE_MEMREF:
    case PTOC_TYPE_VECTOR:
    case PTOC_TYPE_TENSOR:
        h = ptoc_hash_bytes(h, t->u.shaped.shape, t->u.shaped.rank * sizeof(int64_t));
        h = ptoc_hash_ptr(h, t->u.shaped.elem);
        h = ptoc_hash_ptr(ptoc_hash_ptr(h, t->u.shaped.layout), t->u.shaped.memspace);
        break;
    case PTOC_TYPE_DIALECT:
        h = ptoc_hash_ptr(ptoc_hash_mix(h, t->u.dialect.kind), t->u.dialect.dialect);
        h = ptoc_hash_bytes(h, t->u.dialect.data, t->u.dialect.size);
        break;
    case PTOC_TYPE_OPAQUE:
        h = ptoc_hash_ptr(ptoc_hash_ptr(h, t->u.opaque.dialect), t->u.opaque.body);
        break;
    }
    return ptoc_hash_finish(h);
}

static bool same_ptrs(ptoc_type *const *a, ptoc_type *const *b, uint32_t n)
{
    return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

static bool type_eq(const void *item, const void *key)
{
    const ptoc_type *a = item, *b = key;
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case PTOC_TYPE_INDEX:
    case PTOC_TYPE_NONE:
        return true;
    case PTOC_TYPE_INTEGER:
        return a->u.integer.width == b->u.integer.width && a->u.integer.sign == b->u.integer.sign;
    case PTOC_TYPE_FLOAT:
        return a->u.fp.kind == b->u.fp.kind;
    case PTOC_TYPE_FUNCTION:
        return a->u.func.ninputs == b->u.func.ninputs && a->u.func.nresults == b->u.func.nresults &&
               same_ptrs(a->u.func.inputs, b->u.func.inputs, a->u.func.ninputs) &&
               same_ptrs(a->u.func.results, b->u.func.results, a->u.func.nresults);
    case PTOC_TYPE_MEMREF:
    case PTOC_TYPE_VECTOR:
    case PTOC_TYPE_TENSOR:
        return a->u.shaped.rank == b->u.shaped.rank && a->u.shaped.elem == b->u.shaped.elem &&
               a->u.shaped.layout == b->u.shaped.layout &&
               a->u.shaped.memspace == b->u.shaped.memspace &&
               (a->u.shaped.rank == 0 ||
                memcmp(a->u.shaped.shape, b->u.shaped.shape, a->u.shaped.rank * sizeof(int64_t)) == 0);
    case PTOC_TYPE_DIALECT:
        return a->u.dialect.dialect == b->u.dialect.dialect && a->u.dialect.kind == b->u.dialect.kind &&
               a->u.dialect.size == b->u.dialect.size &&
               (a->u.dialect.size == 0 || memcmp(a->u.dialect.data, b->u.dialect.data, a->u.dialect.size) == 0);
    case PTOC_TYPE_OPAQUE:
        return a->u.opaque.dialect == b->u.opaque.dialect && a->u.opaque.body == b->u.opaque.body;
    }
    return false;
}

/* Moves the key's arrays into the permanent arena so the interned copy owns them. */
static void own_arrays(ptoc_arena *perm, ptoc_type *t)
{
    switch (t->kind) {
    case PTOC_TYPE_FUNCTION:
        t->u.func.inputs = ptoc_arena_dup(perm, t->u.func.inputs, t->u.func.ninputs * sizeof(ptoc_type *));
        t->u.func.results = ptoc_arena_dup(perm, t->u.func.results, t->u.func.nresults * sizeof(ptoc_type *));
        break;
    case PTOC_TYPE_MEMREF:
    case PTOC_TYPE_VECTOR:
    case PTOC_TYPE_TENSOR:
        t->u.shaped.shape = ptoc_arena_dup(perm, t->u.shaped.shape, t->u.shaped.rank * sizeof(int64_t));
        break;
    case PTOC_TYPE_DIALECT:
        t->u.dialect.data = ptoc_arena_dup(perm, t->u.dialect.data, t->u.dialect.size);
        break;
    default:
        break;
    }
}

static ptoc_type *intern(ptoc_context *ctx, ptoc_type *key)
{
    ptoc_type *t;
    key->hash = type_hash(key);
    t = ptoc_htab_find(&ctx->types, key->hash, type_eq, key);
    if (t)
        return t;
    t = PTOC_NEW(ctx->perm, ptoc_type);
    *t = *key;
    own_arrays(ctx->perm, t);
    ptoc_htab_insert(&ctx->types, t->hash, t);
    return t;
}

static ptoc_type key_of(ptoc_type_kind kind)
{
    ptoc_type t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    return t;
}

ptoc_type *ptoc_type_index(ptoc_context *ctx)
{
    ptoc_type k = key_of(PTOC_TYPE_INDEX);
    return intern(ctx, &k);
}

ptoc_type *ptoc_type_none(ptoc_context *ctx)
{
    ptoc_type k = key_of(PTOC_TYPE_NONE);
    return intern(ctx, &k);
}

ptoc_type *ptoc_type_int(ptoc_context *ctx, uint32_t width, ptoc_signedness sign)
{
    ptoc_type k = key_of(PTOC_TYPE_INTEGER);
    k.u.integer.width = width;
    k.u.integer.sign = sign;
    return intern(ctx, &k);
}

ptoc_type *ptoc_type_float(ptoc_context *ctx, ptoc_float_kind kind)
{
    ptoc_type k = key_of(PTOC_TYPE_FLOAT);
    k.u.fp.kind = kind;
    return intern(ctx, &k);
}

ptoc_type *ptoc_type_function(ptoc_context *ctx, uint32_t ninputs, ptoc_type *const *inputs,
                              uint32_t nresults, ptoc_type *const *results)
{
    ptoc_type k = key_of(PTOC_TYPE_FUNCTION);
    k.u.func.ninputs = ninputs;
    k.u.func.inputs = inputs;
    k.u.func.nresults = nresults;
    k.u.func.results = results;
    return intern(ctx, &k);
}

static ptoc_type *shaped(ptoc_context *ctx, ptoc_type_kind kind, uint32_t rank, const int64_t *shape,
                         ptoc_type *elem, ptoc_attr *layout, ptoc_attr *memspace)
{
    ptoc_type k = key_of(kind);
    k.u.shaped.rank = rank;
    k.u.shaped.shape = shape;
    k.u.shaped.elem = elem;
    k.u.shaped.layout = layout;
    k.u.shaped.memspace = memspace;
    return intern(ctx, &k);
}

ptoc_type *ptoc_type_memref(ptoc_context *ctx, uint32_t rank, const int64_t *shape,
                            ptoc_type *elem, ptoc_attr *layout, ptoc_attr *memspace)
{
    return shaped(ctx, PTOC_TYPE_MEMREF, rank, shape, elem, layout, memspace);
}

ptoc_type *ptoc_type_vector(ptoc_context *ctx, uint32_t rank, const int64_t *shape, ptoc_type *elem)
{
    return shaped(ctx, PTOC_TYPE_VECTOR, rank, shape, elem, NULL, NULL);
}

ptoc_type *ptoc_type_tensor(ptoc_context *ctx, uint32_t rank, const int64_t *shape, ptoc_type *elem)
{
    return shaped(ctx, PTOC_TYPE_TENSOR, rank, shape, elem, NULL, NULL);
}

ptoc_type *ptoc_type_dialect(ptoc_context *ctx, const ptoc_dialect *d, uint32_t kind,
                             const void *data, size_t size)
{
    ptoc_type k = key_of(PTOC_TYPE_DIALECT);
    if (size > UINT32_MAX)
        ptoc_unreachable("dialect type blob too large");
    k.u.dialect.dialect = d;
    k.u.dialect.kind = kind;
    k.u.dialect.size = (uint32_t)size;
    k.u.dialect.data = data;
    return intern(ctx, &k);
}

ptoc_type *ptoc_type_opaque(ptoc_context *ctx, ptoc_ident *dialect, ptoc_ident *body)
{
    ptoc_type k = key_of(PTOC_TYPE_OPAQUE);
    k.u.opaque.dialect = dialect;
    k.u.opaque.body = body;
    return intern(ctx, &k);
}

bool ptoc_type_is_int(const ptoc_type *t) { return t->kind == PTOC_TYPE_INTEGER; }

bool ptoc_type_is_int_or_index(const ptoc_type *t)
{
    return t->kind == PTOC_TYPE_INTEGER || t->kind == PTOC_TYPE_INDEX;
}

bool ptoc_type_is_float(const ptoc_type *t) { return t->kind == PTOC_TYPE_FLOAT; }

bool ptoc_type_is_shaped(const ptoc_type *t)
{
    return t->kind == PTOC_TYPE_MEMREF || t->kind == PTOC_TYPE_VECTOR || t->kind == PTOC_TYPE_TENSOR;
}

uint32_t ptoc_type_bitwidth(const ptoc_type *t)
{
    switch (t->kind) {
    case PTOC_TYPE_INTEGER:
        return t->u.integer.width;
    case PTOC_TYPE_FLOAT:
        return ptoc_float_kind_width(t->u.fp.kind);
    case PTOC_TYPE_INDEX:
        return 64;
    default:
        return 0;
    }
}

const void *ptoc_type_dialect_data(const ptoc_type *t, const ptoc_dialect *d, uint32_t kind)
{
    if (!t || t->kind != PTOC_TYPE_DIALECT || t->u.dialect.dialect != d || t->u.dialect.kind != kind)
        return NULL;
    return t->u.dialect.data;
}
