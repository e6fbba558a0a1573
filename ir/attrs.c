/* attrs.c: interned attributes, built like types (types.c): a stack key hashed
 * over its contents, looked up, and copied with its arrays into the permanent
 * arena on a miss. Values are normalised before hashing so that equal meanings
 * are one pointer: integers are truncated and re-extended to their type's width,
 * floats rounded to their type, dictionary entries sorted by name.
 */
#include "ir/core_internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_ptr_array(uint64_t h, const void *const *p, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        h = ptoc_hash_ptr(h, p[i]);
    return ptoc_hash_mix(h, n);
}

static uint32_t attr_hash(const ptoc_attr *a)
{
    uint64_t h = ptoc_hash_mix(PTOC_HASH_SEED, (uint64_t)a->kind);
    uint32_t i;
    switch (a->kind) {
    case PTOC_ATTR_UNIT:
        break;
    case PTOC_ATTR_BOOL:
        h = ptoc_hash_mix(h, a->u.boolean);
        break;
    case PTOC_ATTR_INTEGER:
        h = ptoc_hash_mix(ptoc_hash_ptr(h, a->u.integer.type), (uint64_t)a->u.integer.value);
        break;
    case PTOC_ATTR_FLOAT:
        h = ptoc_hash_bytes(ptoc_hash_ptr(h, a->u.fp.type), &a->u.fp.value, sizeof(double));
        break;
    case PTOC_ATTR_STRING:
        h = ptoc_hash_ptr(h, a->u.string);
        break;
    case PTOC_ATTR_TYPE:
        h = ptoc_hash_ptr(h, a->u.type);
        break;
    case PTOC_ATTR_ARRAY:
        h = hash_ptr_array(h, (const void *const *)a->u.array.elems, a->u.array.n);
        break;
    case PTOC_ATTR_DICT:
        for (i = 0; i < a->u.dict.n; i++)
            h = ptoc_hash_ptr(ptoc_hash_ptr(h, a->u.dict.entries[i].name), a->u.dict.entries[i].value);
        h = ptoc_hash_mix(h, a->u.dict.n);
        break;
    case PTOC_ATTR_SYMREF:
        h = ptoc_hash_ptr(h, a->u.symref.root);
        h = hash_ptr_array(h, (const void *const *)a->u.symref.nested, a->u.symref.nnested);
        break;
    case PTOC_ATTR_DENSE_ARRAY:
        h = ptoc_hash_ptr(h, a->u.dense.elem);
        h = ptoc_hash_bytes(h, a->u.dense.values, a->u.dense.n * sizeof(int64_t));
        break;
    case PTOC_ATTR_DIALECT:
        h = ptoc_hash_ptr(ptoc_hash_mix(h, a->u.dialect.kind), a->u.dialect.dialect);
        h = ptoc_hash_bytes(h, a->u.dialect.data, a->u.dialect.size);
        break;
    case PTOC_ATTR_OPAQUE:
        h = ptoc_hash_ptr(ptoc_hash_ptr(ptoc_hash_ptr(h, a->u.opaque.dialect), a->u.opaque.body), a->u.opaque.type);
        break;
    }
    return ptoc_hash_finish(h);
}

static bool same_bytes(const void *a, const void *b, size_t n) { return n == 0 || memcmp(a, b, n) == 0; }

static bool attr_eq(const void *item, const void *key)
{
    const ptoc_attr *a = item, *b = key;
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case PTOC_ATTR_UNIT:
        return true;
    case PTOC_ATTR_BOOL:
        return a->u.boolean == b->u.boolean;
    case PTOC_ATTR_INTEGER:
        return a->u.integer.type == b->u.integer.type && a->u.integer.value == b->u.integer.value;
    case PTOC_ATTR_FLOAT:   /* by bits: -0.0 differs from 0.0 and a NaN equals itself */
        return a->u.fp.type == b->u.fp.type && same_bytes(&a->u.fp.value, &b->u.fp.value, sizeof(double));
    case PTOC_ATTR_STRING:
        return a->u.string == b->u.string;
    case PTOC_ATTR_TYPE:
        return a->u.type == b->u.type;
    case PTOC_ATTR_ARRAY:
        return a->u.array.n == b->u.array.n &&
               same_bytes(a->u.array.elems, b->u.array.elems, a->u.array.n * sizeof(ptoc_attr *));
    case PTOC_ATTR_DICT:
        return a->u.dict.n == b->u.dict.n &&
               same_bytes(a->u.dict.entries, b->u.dict.entries, a->u.dict.n * sizeof(ptoc_named_attr));
    case PTOC_ATTR_SYMREF:
        return a->u.symref.root == b->u.symref.root && a->u.symref.nnested == b->u.symref.nnested &&
               same_bytes(a->u.symref.nested, b->u.symref.nested, a->u.symref.nnested * sizeof(ptoc_ident *));
    case PTOC_ATTR_DENSE_ARRAY:
        return a->u.dense.elem == b->u.dense.elem && a->u.dense.n == b->u.dense.n &&
               same_bytes(a->u.dense.values, b->u.dense.values, a->u.dense.n * sizeof(int64_t));
    case PTOC_ATTR_DIALECT:
        return a->u.dialect.dialect == b->u.dialect.dialect && a->u.dialect.kind == b->u.dialect.kind &&
               a->u.dialect.size == b->u.dialect.size &&
               same_bytes(a->u.dialect.data, b->u.dialect.data, a->u.dialect.size);
    case PTOC_ATTR_OPAQUE:
        return a->u.opaque.dialect == b->u.opaque.dialect && a->u.opaque.body == b->u.opaque.body &&
               a->u.opaque.type == b->u.opaque.type;
    }
    return false;
}

static void own_arrays(ptoc_arena *perm, ptoc_attr *a)
{
    switch (a->kind) {
    case PTOC_ATTR_ARRAY:
        a->u.array.elems = ptoc_arena_dup(perm, a->u.array.elems, a->u.array.n * sizeof(ptoc_attr *));
        break;
    case PTOC_ATTR_DICT:
        a->u.dict.entries = ptoc_arena_dup(perm, a->u.dict.entries, a->u.dict.n * sizeof(ptoc_named_attr));
        break;
    case PTOC_ATTR_SYMREF:
        a->u.symref.nested = ptoc_arena_dup(perm, a->u.symref.nested, a->u.symref.nnested * sizeof(ptoc_ident *));
        break;
    case PTOC_ATTR_DENSE_ARRAY:
        a->u.dense.values = ptoc_arena_dup(perm, a->u.dense.values, a->u.dense.n * sizeof(int64_t));
        break;
    case PTOC_ATTR_DIALECT:
        a->u.dialect.data = ptoc_arena_dup(perm, a->u.dialect.data, a->u.dialect.size);
        break;
    default:
        break;
    }
}

static ptoc_attr *intern(ptoc_context *ctx, ptoc_attr *key)
{
    ptoc_attr *a;
    key->hash = attr_hash(key);
    a = ptoc_htab_find(&ctx->attrs, key->hash, attr_eq, key);
    if (a)
        return a;
    a = PTOC_NEW(ctx->perm, ptoc_attr);
    *a = *key;
    own_arrays(ctx->perm, a);
    ptoc_htab_insert(&ctx->attrs, a->hash, a);
    return a;
}

static ptoc_attr key_of(ptoc_attr_kind kind)
{
    ptoc_attr a;
    memset(&a, 0, sizeof a);
    a.kind = kind;
    return a;
}

ptoc_attr *ptoc_attr_unit(ptoc_context *ctx)
{
    ptoc_attr k = key_of(PTOC_ATTR_UNIT);
    return intern(ctx, &k);
}

ptoc_attr *ptoc_attr_bool(ptoc_context *ctx, bool value)
{
    ptoc_attr k = key_of(PTOC_ATTR_BOOL);
    k.u.boolean = value;
    return intern(ctx, &k);
}

/* Truncates `v` to the type's width and extends it back as the type says:
 * i1 is 0 or 1, unsigned types zero-extend, the others sign-extend. */
static int64_t normalise_int(const ptoc_type *t, int64_t v)
{
    uint32_t width = t->kind == PTOC_TYPE_INTEGER ? t->u.integer.width : 64;
    uint64_t mask, u = (uint64_t)v;
    if (width >= 64)
        return v;
    if (width == 1)
        return v & 1;
    mask = (UINT64_C(1) << width) - 1;
    u &= mask;
    if (t->u.integer.sign != PTOC_UNSIGNED && (u >> (width - 1)))
        u |= ~mask;
    return (int64_t)u;
}

ptoc_attr *ptoc_attr_int(ptoc_context *ctx, ptoc_type *type, int64_t value)
{
    ptoc_attr k = key_of(PTOC_ATTR_INTEGER);
    k.u.integer.type = type ? type : ptoc_type_int(ctx, 64, PTOC_SIGNLESS);
    k.u.integer.value = normalise_int(k.u.integer.type, value);
    return intern(ctx, &k);
}

ptoc_attr *ptoc_attr_float(ptoc_context *ctx, ptoc_type *type, double value)
{
    ptoc_attr k = key_of(PTOC_ATTR_FLOAT);
    k.u.fp.type = type ? type : ptoc_type_float(ctx, PTOC_F64);
    k.u.fp.value = k.u.fp.type->kind == PTOC_TYPE_FLOAT ? ptoc_float_round(k.u.fp.type->u.fp.kind, value) : value;
    return intern(ctx, &k);
}

ptoc_attr *ptoc_attr_string(ptoc_context *ctx, const char *s, size_t len)
{
    ptoc_attr k = key_of(PTOC_ATTR_STRING);
    k.u.string = ptoc_ident_get(ctx, s, len);
    return intern(ctx, &k);
}

ptoc_attr *ptoc_attr_type(ptoc_context *ctx, ptoc_type *type)
{
    ptoc_attr k = key_of(PTOC_ATTR_TYPE);
    k.u.type = type;
    return intern(ctx, &k);
}

ptoc_attr *ptoc_attr_array(ptoc_context *ctx, uint32_t n, ptoc_attr *const *elems)
{
    ptoc_attr k = key_of(PTOC_ATTR_ARRAY);
    k.u.array.n = n;
    k.u.array.elems = elems;
    return intern(ctx, &k);
}

static int entry_cmp(const void *pa, const void *pb)
{
    const ptoc_named_attr *a = pa, *b = pb;
    return ptoc_name_cmp(a->name->str, a->name->len, b->name->str, b->name->len);
}

ptoc_attr *ptoc_attr_dict(ptoc_context *ctx, uint32_t n, const ptoc_named_attr *entries)
{
    ptoc_attr k = key_of(PTOC_ATTR_DICT), *a;
    ptoc_named_attr *sorted = NULL;
    size_t size = n * sizeof *sorted;
    if (n) {
        sorted = ptoc_alloc(ctx, size);
        memcpy(sorted, entries, size);
        qsort(sorted, n, sizeof *sorted, entry_cmp);
    }
    k.u.dict.n = n;
    k.u.dict.entries = sorted;
    a = intern(ctx, &k);
    ptoc_free(ctx, sorted, size);
    return a;
}

ptoc_attr *ptoc_attr_symref(ptoc_context *ctx, ptoc_ident *root, uint32_t nnested,
                            ptoc_ident *const *nested)
{
    ptoc_attr k = key_of(PTOC_ATTR_SYMREF);
    k.u.symref.root = root;
    k.u.symref.nnested = nnested;
    k.u.symref.nested = nested;
    return intern(ctx, &k);
}

ptoc_attr *ptoc_attr_dense(ptoc_context *ctx, ptoc_type *elem, uint32_t n, const int64_t *values)
{
    ptoc_attr k = key_of(PTOC_ATTR_DENSE_ARRAY);
    k.u.dense.elem = elem;
    k.u.dense.n = n;
    k.u.dense.values = values;
    return intern(ctx, &k);
}

ptoc_attr *ptoc_attr_dialect(ptoc_context *ctx, const ptoc_dialect *d, uint32_t kind,
                             const void *data, size_t size)
{
    ptoc_attr k = key_of(PTOC_ATTR_DIALECT);
    if (size > UINT32_MAX)
        ptoc_unreachable("dialect attribute blob too large");
    k.u.dialect.dialect = d;
    k.u.dialect.kind = kind;
    k.u.dialect.size = (uint32_t)size;
    k.u.dialect.data = data;
    return intern(ctx, &k);
}

ptoc_attr *ptoc_attr_opaque(ptoc_context *ctx, ptoc_ident *dialect, ptoc_ident *body)
{
    return ptoc_attr_opaque_typed(ctx, dialect, body, NULL);
}

ptoc_attr *ptoc_attr_opaque_typed(ptoc_context *ctx, ptoc_ident *dialect, ptoc_ident *body, ptoc_type *type)
{
    ptoc_attr k = key_of(PTOC_ATTR_OPAQUE);
    k.u.opaque.dialect = dialect;
    k.u.opaque.body = body;
    k.u.opaque.type = type;
    return intern(ctx, &k);
}

const void *ptoc_attr_dialect_data(const ptoc_attr *a, const ptoc_dialect *d, uint32_t kind)
{
    if (!a || a->kind != PTOC_ATTR_DIALECT || a->u.dialect.dialect != d || a->u.dialect.kind != kind)
        return NULL;
    return a->u.dialect.data;
}

ptoc_attr *ptoc_attr_dict_get(const ptoc_attr *dict, const char *name)
{
    size_t len = strlen(name);
    uint32_t lo = 0, hi;
    if (!dict || dict->kind != PTOC_ATTR_DICT)
        return NULL;
    hi = dict->u.dict.n;
    while (lo < hi) {                       /* entries are sorted: binary search */
        uint32_t mid = lo + (hi - lo) / 2;
        const ptoc_ident *key = dict->u.dict.entries[mid].name;
        int c = ptoc_name_cmp(key->str, key->len, name, len);
        if (c == 0)
            return dict->u.dict.entries[mid].value;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
