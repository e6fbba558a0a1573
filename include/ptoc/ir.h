/* ir.h: the MLIR-style IR core of ptoc.
 *
 * One context owns everything: interned identifiers, types and attributes live in
 * its permanent arena and are compared by pointer; operations, blocks and regions
 * live in an arena the caller chooses (one per module, usually), so a module is
 * freed by destroying its arena. All allocation goes through a pluggable allocator.
 *
 * The core knows no dialect. Builtin types and attributes (integers, floats, index,
 * functions, memref/vector/tensor, strings, arrays, dictionaries ...) are part of
 * the core, as in MLIR. Dialect types and attributes are a dialect pointer, a kind
 * number and a blob of plain bytes that the dialect defines; blobs are interned by
 * their bytes, so a dialect must zero a blob before filling it (padding included).
 * Types and attributes of dialects that are not registered are kept as opaque text.
 *
 * Structs are public so passes read fields directly; mutate only through the
 * functions here, which keep use-lists and parent links consistent.
 */
#ifndef PTOC_IR_H
#define PTOC_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptoc_context ptoc_context;
typedef struct ptoc_arena ptoc_arena;
typedef struct ptoc_ident ptoc_ident;
typedef struct ptoc_type ptoc_type;
typedef struct ptoc_attr ptoc_attr;
typedef struct ptoc_op ptoc_op;
typedef struct ptoc_value ptoc_value;
typedef struct ptoc_use ptoc_use;
typedef struct ptoc_block ptoc_block;
typedef struct ptoc_region ptoc_region;
typedef struct ptoc_dialect ptoc_dialect;
typedef struct ptoc_op_def ptoc_op_def;
typedef struct ptoc_op_state ptoc_op_state;
typedef struct ptoc_parser ptoc_parser;
typedef struct ptoc_printer ptoc_printer;

/* ---------------------------------------------------------------- allocation */

/* A pluggable allocator. `free` gets the size that was asked for, so a test
 * allocator can count bytes. NULL in ptoc_context_create means malloc/free. */
typedef struct ptoc_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} ptoc_allocator;

/* Out of memory is not user input: it ends the process with a message. */
void ptoc_fatal(const char *fmt, ...);
/* An internal invariant is broken (a bug in ptoc, never bad input). */
#define ptoc_unreachable(msg) ptoc_fatal("internal error: %s (%s:%d)", (msg), __FILE__, __LINE__)

ptoc_context *ptoc_context_create(const ptoc_allocator *allocator);
/* Frees the context and everything it owns: its permanent arena and every arena
 * created from it that is still alive. */
void ptoc_context_destroy(ptoc_context *ctx);
const ptoc_allocator *ptoc_context_allocator(ptoc_context *ctx);
void *ptoc_alloc(ptoc_context *ctx, size_t size);              /* through the allocator */
void ptoc_free(ptoc_context *ctx, void *ptr, size_t size);

/* Arenas: bump allocation in chunks; memory comes back zeroed; freed all at once. */
ptoc_arena *ptoc_arena_create(ptoc_context *ctx);
void ptoc_arena_destroy(ptoc_arena *arena);
void *ptoc_arena_alloc(ptoc_arena *arena, size_t size, size_t align);
void *ptoc_arena_dup(ptoc_arena *arena, const void *src, size_t size);
char *ptoc_arena_strndup(ptoc_arena *arena, const char *s, size_t len);
size_t ptoc_arena_bytes(const ptoc_arena *arena);            /* bytes reserved so far */
ptoc_arena *ptoc_context_perm_arena(ptoc_context *ctx);
#define PTOC_NEW(arena, T) ((T *)ptoc_arena_alloc((arena), sizeof(T), _Alignof(T)))
#define PTOC_NEW_ARRAY(arena, T, n) ((T *)ptoc_arena_alloc((arena), sizeof(T) * (size_t)(n), _Alignof(T)))

/* A growable byte string (heap through the context allocator, or plain malloc when
 * ctx is NULL). Used by the printer and diagnostics. */
typedef struct ptoc_strbuf {
    char *data;
    size_t len, cap;
    ptoc_context *ctx;
} ptoc_strbuf;
void ptoc_strbuf_init(ptoc_strbuf *sb, ptoc_context *ctx);
void ptoc_strbuf_free(ptoc_strbuf *sb);
void ptoc_strbuf_append(ptoc_strbuf *sb, const char *s, size_t len);
void ptoc_strbuf_puts(ptoc_strbuf *sb, const char *s);
void ptoc_strbuf_putc(ptoc_strbuf *sb, char c);
void ptoc_strbuf_printf(ptoc_strbuf *sb, const char *fmt, ...);
void ptoc_strbuf_vprintf(ptoc_strbuf *sb, const char *fmt, va_list ap);
const char *ptoc_strbuf_cstr(ptoc_strbuf *sb);                /* NUL-terminated view */

/* ---------------------------------------------------------------- identifiers */

/* An interned string: equal strings give the same pointer. May hold any bytes. */
struct ptoc_ident {
    uint32_t len;
    uint32_t hash;
    char str[];        /* NUL-terminated copy of the bytes */
};
ptoc_ident *ptoc_ident_get(ptoc_context *ctx, const char *s, size_t len);
ptoc_ident *ptoc_ident_cstr(ptoc_context *ctx, const char *s);

/* Context options: string key/value pairs a tool sets and a dialect reads (for
 * example "pto-arch" = "a5"). Keys and values are copied. */
void ptoc_context_set_option(ptoc_context *ctx, const char *key, const char *value);
const char *ptoc_context_option(ptoc_context *ctx, const char *key); /* NULL if unset */

/* Extensions: per-context state of a layer the core does not know (the pass
 * registry, a dialect's caches), found by a key. The context does not free
 * `state`: put it in the permanent arena so it goes with the context. */
void ptoc_context_set_extension(ptoc_context *ctx, const char *key, void *state);
void *ptoc_context_extension(ptoc_context *ctx, const char *key); /* NULL if unset */

/* ---------------------------------------------------------------- locations */

/* file NULL means unknown. line and col start at 1. */
typedef struct ptoc_loc {
    ptoc_ident *file;
    uint32_t line, col;
} ptoc_loc;
static inline ptoc_loc ptoc_loc_unknown(void) { ptoc_loc l = {0, 0, 0}; return l; }

/* ---------------------------------------------------------------- types */

typedef enum ptoc_type_kind {
    PTOC_TYPE_INDEX,
    PTOC_TYPE_INTEGER,   /* i1, i32, si8, ui16 ... */
    PTOC_TYPE_FLOAT,     /* f16, bf16, f32 ... */
    PTOC_TYPE_NONE,
    PTOC_TYPE_FUNCTION,  /* (inputs) -> results */
    PTOC_TYPE_MEMREF,    /* memref<4x?xf32, #space> */
    PTOC_TYPE_VECTOR,    /* vector<4xf32> */
    PTOC_TYPE_TENSOR,    /* tensor<4x?xf32> (ranked only) */
    PTOC_TYPE_DIALECT,   /* a registered dialect's type: kind + blob */
    PTOC_TYPE_OPAQUE,    /* !foo.bar<...> of an unregistered dialect, kept as text */
} ptoc_type_kind;

typedef enum ptoc_signedness { PTOC_SIGNLESS, PTOC_SIGNED, PTOC_UNSIGNED } ptoc_signedness;

/* The float types MLIR 19 spells; PTOAS kernels use f16, bf16, f32, f8E4M3(FN). */
typedef enum ptoc_float_kind {
    PTOC_F16, PTOC_BF16, PTOC_F32, PTOC_F64, PTOC_F80, PTOC_F128, PTOC_TF32,
    PTOC_F8E4M3, PTOC_F8E4M3FN, PTOC_F8E5M2, PTOC_F8E4M3FNUZ, PTOC_F8E5M2FNUZ,
    PTOC_F8E4M3B11FNUZ,
    PTOC_FLOAT_KIND_COUNT
} ptoc_float_kind;

/* A dynamic dimension (`?`), as MLIR's ShapedType::kDynamic. */
#define PTOC_DYNAMIC INT64_MIN
/* Largest static dimension accepted; larger ones are a diagnostic, not an overflow. */
#define PTOC_MAX_DIM (INT64_C(1) << 40)

struct ptoc_type {
    ptoc_type_kind kind;
    uint32_t hash;
    union {
        struct { uint32_t width; ptoc_signedness sign; } integer;
        struct { ptoc_float_kind kind; } fp;
        struct { uint32_t ninputs, nresults; ptoc_type *const *inputs, *const *results; } func;
        struct {                                   /* memref, vector, tensor */
            uint32_t rank;
            const int64_t *shape;                  /* PTOC_DYNAMIC for `?` */
            ptoc_type *elem;
            ptoc_attr *layout;                     /* memref only; NULL = identity */
            ptoc_attr *memspace;                   /* memref only; NULL = default */
        } shaped;
        struct {
            const ptoc_dialect *dialect;
            uint32_t kind;                         /* the dialect's own numbering */
            uint32_t size;
            const void *data;                      /* interned blob */
        } dialect;
        struct { ptoc_ident *dialect; ptoc_ident *body; } opaque; /* body: "bar<...>" */
    } u;
};

ptoc_type *ptoc_type_index(ptoc_context *ctx);
ptoc_type *ptoc_type_none(ptoc_context *ctx);
ptoc_type *ptoc_type_int(ptoc_context *ctx, uint32_t width, ptoc_signedness sign);
ptoc_type *ptoc_type_float(ptoc_context *ctx, ptoc_float_kind kind);
ptoc_type *ptoc_type_function(ptoc_context *ctx, uint32_t ninputs, ptoc_type *const *inputs,
                              uint32_t nresults, ptoc_type *const *results);
ptoc_type *ptoc_type_memref(ptoc_context *ctx, uint32_t rank, const int64_t *shape,
                            ptoc_type *elem, ptoc_attr *layout, ptoc_attr *memspace);
ptoc_type *ptoc_type_vector(ptoc_context *ctx, uint32_t rank, const int64_t *shape, ptoc_type *elem);
ptoc_type *ptoc_type_tensor(ptoc_context *ctx, uint32_t rank, const int64_t *shape, ptoc_type *elem);
ptoc_type *ptoc_type_dialect(ptoc_context *ctx, const ptoc_dialect *d, uint32_t kind,
                             const void *data, size_t size);
ptoc_type *ptoc_type_opaque(ptoc_context *ctx, ptoc_ident *dialect, ptoc_ident *body);

bool ptoc_type_is_int(const ptoc_type *t);           /* PTOC_TYPE_INTEGER */
bool ptoc_type_is_int_or_index(const ptoc_type *t);
bool ptoc_type_is_float(const ptoc_type *t);
bool ptoc_type_is_shaped(const ptoc_type *t);        /* memref, vector, tensor */
/* Bit width of an integer or float type; 64 for index; 0 otherwise. */
uint32_t ptoc_type_bitwidth(const ptoc_type *t);
/* The blob of a dialect type if it belongs to `d` with kind `kind`, else NULL. */
const void *ptoc_type_dialect_data(const ptoc_type *t, const ptoc_dialect *d, uint32_t kind);
const char *ptoc_float_kind_name(ptoc_float_kind k);  /* "f16", "bf16", ... */
uint32_t ptoc_float_kind_width(ptoc_float_kind k);
/* Rounds `v` to the nearest value of format `k` (ties to even; overflow to inf). */
double ptoc_float_round(ptoc_float_kind k, double v);
/* The bit pattern of `v` (already exact in `k`) in format `k`, and back. F80 and
 * F128 are handled as f64 values (their hex form is not supported). */
uint64_t ptoc_float_to_bits(ptoc_float_kind k, double v);
double ptoc_float_from_bits(ptoc_float_kind k, uint64_t bits);

/* ---------------------------------------------------------------- attributes */

typedef enum ptoc_attr_kind {
    PTOC_ATTR_UNIT,         /* a name with no value */
    PTOC_ATTR_BOOL,         /* true / false */
    PTOC_ATTR_INTEGER,      /* 42 : i32, 7 : index (default type i64) */
    PTOC_ATTR_FLOAT,        /* 1.5 : f32 (default type f64) */
    PTOC_ATTR_STRING,       /* "text" */
    PTOC_ATTR_TYPE,         /* a type used as an attribute */
    PTOC_ATTR_ARRAY,        /* [a, b] */
    PTOC_ATTR_DICT,         /* {a = 1, b} */
    PTOC_ATTR_SYMREF,       /* @f or @m::@f */
    PTOC_ATTR_DENSE_ARRAY,  /* array<i32: 1, 2> */
    PTOC_ATTR_DIALECT,      /* a registered dialect's attribute: kind + blob */
    PTOC_ATTR_OPAQUE,       /* #foo.bar<...> or #foo<...> of an unregistered dialect */
} ptoc_attr_kind;

typedef struct ptoc_named_attr {
    ptoc_ident *name;
    ptoc_attr *value;
} ptoc_named_attr;

struct ptoc_attr {
    ptoc_attr_kind kind;
    uint32_t hash;
    union {
        bool boolean;
        /* The value is stored sign-extended from the type's width for signless and
         * signed types, zero-extended for unsigned ones; index is 64-bit. */
        struct { ptoc_type *type; int64_t value; } integer;
        /* The value is exact in the attribute's type (rounded on creation). */
        struct { ptoc_type *type; double value; } fp;
        ptoc_ident *string;
        ptoc_type *type;
        struct { uint32_t n; ptoc_attr *const *elems; } array;
        struct { uint32_t n; const ptoc_named_attr *entries; } dict; /* sorted by name bytes */
        struct { ptoc_ident *root; uint32_t nnested; ptoc_ident *const *nested; } symref;
        struct { ptoc_type *elem; uint32_t n; const int64_t *values; } dense;
        struct {
            const ptoc_dialect *dialect;
            uint32_t kind;
            uint32_t size;
            const void *data;
        } dialect;
        /* body: "bar<...>" or "<...>"; type: the `: T` of a typed builtin kept as
         * text (`dense<[1, 2]> : vector<2xi16>`, whose body includes " : T"), else NULL. */
        struct { ptoc_ident *dialect; ptoc_ident *body; ptoc_type *type; } opaque;
    } u;
};

ptoc_attr *ptoc_attr_unit(ptoc_context *ctx);
ptoc_attr *ptoc_attr_bool(ptoc_context *ctx, bool value);
ptoc_attr *ptoc_attr_int(ptoc_context *ctx, ptoc_type *type, int64_t value);
ptoc_attr *ptoc_attr_float(ptoc_context *ctx, ptoc_type *type, double value);
ptoc_attr *ptoc_attr_string(ptoc_context *ctx, const char *s, size_t len);
ptoc_attr *ptoc_attr_type(ptoc_context *ctx, ptoc_type *type);
ptoc_attr *ptoc_attr_array(ptoc_context *ctx, uint32_t n, ptoc_attr *const *elems);
/* Entries in any order; they are sorted. Duplicate names are the caller's error. */
ptoc_attr *ptoc_attr_dict(ptoc_context *ctx, uint32_t n, const ptoc_named_attr *entries);
ptoc_attr *ptoc_attr_symref(ptoc_context *ctx, ptoc_ident *root, uint32_t nnested,
                            ptoc_ident *const *nested);
ptoc_attr *ptoc_attr_dense(ptoc_context *ctx, ptoc_type *elem, uint32_t n, const int64_t *values);
ptoc_attr *ptoc_attr_dialect(ptoc_context *ctx, const ptoc_dialect *d, uint32_t kind,
                             const void *data, size_t size);
ptoc_attr *ptoc_attr_opaque(ptoc_context *ctx, ptoc_ident *dialect, ptoc_ident *body);
/* An opaque attribute that has a type: a builtin `dense<...> : T` kept as text. */
ptoc_attr *ptoc_attr_opaque_typed(ptoc_context *ctx, ptoc_ident *dialect, ptoc_ident *body, ptoc_type *type);
const void *ptoc_attr_dialect_data(const ptoc_attr *a, const ptoc_dialect *d, uint32_t kind);
/* Looks `name` up in a dictionary attribute; NULL if absent. */
ptoc_attr *ptoc_attr_dict_get(const ptoc_attr *dict, const char *name);

/* ---------------------------------------------------------------- dialects */

enum ptoc_op_flag {
    PTOC_OPF_TERMINATOR = 1u << 0,      /* must end its block */
    PTOC_OPF_ISOLATED = 1u << 1,        /* regions see no values from outside */
    PTOC_OPF_NO_TERMINATOR = 1u << 2,   /* its blocks need no terminator (module) */
    PTOC_OPF_PURE = 1u << 3,            /* no side effects: dead if results unused */
    PTOC_OPF_SINGLE_BLOCK = 1u << 4,    /* each region holds at most one block */
    PTOC_OPF_SYMBOL_TABLE = 1u << 5,    /* its region defines symbols (module) */
    PTOC_OPF_UNREGISTERED = 1u << 6,    /* an op of an unknown dialect, generic only */
    /* Its regions are graph regions (module): ops may use values defined
     * later in the same block, so no dominance is required. */
    PTOC_OPF_GRAPH_REGION = 1u << 7,
};

/* One row per op. Everything the core needs to know about an op. */
struct ptoc_op_def {
    const char *name;                  /* "pto.tadd" */
    uint32_t flags;                    /* enum ptoc_op_flag */
    /* Custom form: called after the op name (and after `%r = `, whose count is in
     * state->nresults_expected); fills `state`. NULL means generic form only. */
    bool (*parse)(ptoc_parser *p, ptoc_op_state *state);
    /* Custom form: prints everything after the op name. NULL means generic. */
    void (*print)(ptoc_printer *p, const ptoc_op *op);
    /* Op-specific checks; the driver has already checked structure (terminators,
     * dominance, isolation). Emits diagnostics on the op and returns false. */
    bool (*verify)(const ptoc_op *op);
    const void *data;                  /* the dialect's own row for this op */
    const char *summary;
    /* Suggests a name for the op's results, as MLIR's getAsmResultNames does:
     * writes e.g. "c0" or "cst" into `name` (letters, digits, `_`, `$`, `.`, `-`,
     * not starting with a digit); the printer makes it unique with `_N`. Writing
     * nothing, or a NULL hook, means plain numbers (%0, %1). */
    void (*result_name)(const ptoc_op *op, ptoc_strbuf *name);
    /* Assembly statement (ptoc_parse_options.assembly): called after the bare
     * name (the op's name without its dialect prefix), like `parse`. NULL: the
     * op has none. */
    bool (*parse_asm)(ptoc_parser *p, ptoc_op_state *state);
    /* Prints the op as an assembly statement from its bare name on (the results
     * and ` = ` are already printed), or returns false having printed nothing
     * when this op has no assembly form; the printer then uses the usual one. */
    bool (*print_asm)(ptoc_printer *p, const ptoc_op *op);
};

struct ptoc_dialect {
    const char *name;                  /* "pto" */
    const ptoc_op_def *ops;
    size_t nops;
    /* `!name.mnemonic...`: called with the parser just after the mnemonic. When
     * `enclosed` is true the text was `!name<mnemonic ...>`: the hook parses up to,
     * not including, the closing `>`. NULL when the dialect has no types. */
    ptoc_type *(*parse_type)(ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed);
    void (*print_type)(ptoc_printer *p, const ptoc_type *t);  /* prints the whole `!...` */
    ptoc_attr *(*parse_attr)(ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed);
    void (*print_attr)(ptoc_printer *p, const ptoc_attr *a);  /* prints the whole `#...` */
    const void *data;
};

void ptoc_context_register_dialect(ptoc_context *ctx, const ptoc_dialect *d);
const ptoc_dialect *ptoc_context_dialect(ptoc_context *ctx, const char *name, size_t len);
/* The def of a registered op, or NULL. */
const ptoc_op_def *ptoc_context_op_def(ptoc_context *ctx, const char *name, size_t len);
/* A def for an op name no dialect registers (flag UNREGISTERED); created once. */
const ptoc_op_def *ptoc_context_unregistered_op(ptoc_context *ctx, const char *name, size_t len);
void ptoc_context_allow_unregistered(ptoc_context *ctx, bool allow);
bool ptoc_context_allows_unregistered(ptoc_context *ctx);

/* ---------------------------------------------------------------- operations */

struct ptoc_use {
    ptoc_value *value;        /* the value used; never NULL in a created op */
    ptoc_use *next;           /* next use of the same value */
    ptoc_use **prevp;         /* the link pointing at this use: O(1) unlink */
    ptoc_op *owner;
    uint32_t index;           /* operand number in owner */
};

typedef enum ptoc_value_kind { PTOC_VALUE_RESULT, PTOC_VALUE_BLOCK_ARG } ptoc_value_kind;

struct ptoc_value {
    ptoc_type *type;
    ptoc_use *uses;           /* head of the use-list */
    ptoc_value_kind kind;
    uint32_t index;           /* result number or argument number */
    union { ptoc_op *op; ptoc_block *block; } owner;
    ptoc_loc loc;             /* block arguments: where declared */
};

struct ptoc_region {
    ptoc_block *first, *last;
    ptoc_op *owner;           /* NULL while detached */
};

struct ptoc_block {
    ptoc_op *first, *last;
    ptoc_block *prev, *next;
    ptoc_region *region;      /* NULL while detached */
    uint32_t nargs, args_cap;
    ptoc_value **args;
};

struct ptoc_op {
    const ptoc_op_def *def;
    ptoc_ident *name;         /* interned def->name */
    ptoc_loc loc;
    ptoc_op *prev, *next;
    ptoc_block *block;        /* NULL while detached */
    uint32_t noperands, nresults, nattrs, nregions;
    ptoc_use *operands;
    ptoc_value *results;
    ptoc_named_attr *attrs;   /* sorted by name bytes, no duplicates */
    ptoc_region *regions;
    uint32_t attrs_cap;
    ptoc_context *ctx;        /* added by core: the owning context (ptoc_op_context) */
};

/* What an op is made from. Arrays grow in `arena` through the helpers below. */
struct ptoc_op_state {
    ptoc_arena *arena;
    const ptoc_op_def *def;
    ptoc_loc loc;
    uint32_t noperands, nresult_types, nattrs, nregions;
    uint32_t operands_cap, results_cap, attrs_cap, regions_cap;
    ptoc_value **operands;
    ptoc_type **result_types;
    ptoc_named_attr *attrs;
    ptoc_region *regions;     /* detached regions, moved into the op */
    uint32_t nresults_expected; /* parser: results named on the left of `=` */
};
void ptoc_state_init(ptoc_op_state *st, ptoc_arena *arena, const ptoc_op_def *def, ptoc_loc loc);
void ptoc_state_add_operand(ptoc_op_state *st, ptoc_value *v);
void ptoc_state_add_result(ptoc_op_state *st, ptoc_type *t);
/* Replaces an attribute of the same name. */
void ptoc_state_add_attr(ptoc_op_state *st, ptoc_ident *name, ptoc_attr *value);
ptoc_attr *ptoc_state_attr(const ptoc_op_state *st, const char *name);
/* Adds an empty detached region and returns it (valid until the next add). */
ptoc_region *ptoc_state_add_region(ptoc_op_state *st);

/* Creates a detached op from `state`; regions are moved in. */
ptoc_op *ptoc_op_create(ptoc_arena *arena, const ptoc_op_state *state);
ptoc_context *ptoc_op_context(const ptoc_op *op);
bool ptoc_op_is(const ptoc_op *op, const char *name);
ptoc_op *ptoc_op_parent(const ptoc_op *op);              /* enclosing op, or NULL */
ptoc_value *ptoc_op_operand(const ptoc_op *op, uint32_t i);
ptoc_value *ptoc_op_result(ptoc_op *op, uint32_t i);
void ptoc_op_set_operand(ptoc_op *op, uint32_t i, ptoc_value *v);
/* Replaces the whole operand list (allocates from `arena`). */
void ptoc_op_set_operands(ptoc_op *op, ptoc_arena *arena, uint32_t n, ptoc_value *const *vals);
ptoc_attr *ptoc_op_attr(const ptoc_op *op, const char *name);
void ptoc_op_set_attr(ptoc_op *op, ptoc_arena *arena, ptoc_ident *name, ptoc_attr *value);
bool ptoc_op_remove_attr(ptoc_op *op, const char *name);
/* MLIR's operandSegmentSizes: an op whose operands come in variable-length
 * groups stores each group's length in this dense i32 array attribute. The name
 * is spelled here only; read and write it through the functions below. */
#define PTOC_SEGMENT_SIZES_ATTR "operandSegmentSizes"
/* The attribute as it is (any kind, for verifiers), NULL when absent. */
ptoc_attr *ptoc_op_segment_attr(const ptoc_op *op);
/* The group lengths, or NULL (*n = 0) when the op has none or the attribute is
 * not a dense array. */
const int64_t *ptoc_op_segment_sizes(const ptoc_op *op, uint32_t *n);
/* Sets array<i32: sizes...> on a state being built (parsers, builders) or on an op. */
void ptoc_state_set_segment_sizes(ptoc_op_state *st, ptoc_context *ctx, uint32_t n, const int64_t *sizes);
void ptoc_op_set_segment_sizes(ptoc_op *op, ptoc_arena *arena, uint32_t n, const int64_t *sizes);
/* Unlinks `op` from its block, keeping it alive (it can be inserted again). */
void ptoc_op_unlink(ptoc_op *op);
/* Drops every use the op and its nested ops hold, unlinks it. Its results must
 * have no uses left (a bug otherwise). */
void ptoc_op_erase(ptoc_op *op);
bool ptoc_value_has_uses(const ptoc_value *v);
size_t ptoc_value_num_uses(const ptoc_value *v);
void ptoc_value_replace_all_uses(ptoc_value *from, ptoc_value *to);
/* The op that defines a result value, NULL for block arguments. */
ptoc_op *ptoc_value_def(const ptoc_value *v);
/* The block a value belongs to (its def's block, or its block). */
ptoc_block *ptoc_value_block(const ptoc_value *v);

ptoc_block *ptoc_block_create(ptoc_arena *arena);
ptoc_value *ptoc_block_add_arg(ptoc_block *b, ptoc_arena *arena, ptoc_type *t, ptoc_loc loc);
void ptoc_block_insert_before(ptoc_block *b, ptoc_op *before, ptoc_op *op); /* before NULL: at end */
void ptoc_block_append(ptoc_block *b, ptoc_op *op);
ptoc_op *ptoc_block_terminator(const ptoc_block *b);  /* the last op if it is a terminator */
ptoc_op *ptoc_block_parent_op(const ptoc_block *b);
void ptoc_region_append(ptoc_region *r, ptoc_block *b);
/* Moves all blocks of `from` to the end of `to`. */
void ptoc_region_take(ptoc_region *to, ptoc_region *from);

/* Walk: visits every op under (and including) `root`. The callback returns
 * ADVANCE to go on, SKIP to not enter this op's regions (pre-order only), or
 * INTERRUPT to stop. The walk is safe against erasing the visited op in post-order. */
typedef enum ptoc_walk_result { PTOC_WALK_ADVANCE, PTOC_WALK_SKIP, PTOC_WALK_INTERRUPT } ptoc_walk_result;
typedef ptoc_walk_result (*ptoc_walk_fn)(ptoc_op *op, void *user);
/* Returns false if interrupted. */
bool ptoc_walk_pre(ptoc_op *root, ptoc_walk_fn fn, void *user);
bool ptoc_walk_post(ptoc_op *root, ptoc_walk_fn fn, void *user);

/* Builder: creates ops at an insertion point. */
typedef struct ptoc_builder {
    ptoc_context *ctx;
    ptoc_arena *arena;
    ptoc_block *block;        /* NULL: ops are created detached */
    ptoc_op *before;          /* insert before this op; NULL: at the end of block */
    ptoc_loc loc;             /* location given to ops this builder creates */
} ptoc_builder;
void ptoc_builder_init(ptoc_builder *b, ptoc_context *ctx, ptoc_arena *arena);
void ptoc_builder_set_end(ptoc_builder *b, ptoc_block *block);
void ptoc_builder_set_before(ptoc_builder *b, ptoc_op *op);
void ptoc_builder_set_after(ptoc_builder *b, ptoc_op *op);
/* Creates `state` (its loc is replaced by the builder's when unknown) and inserts it. */
ptoc_op *ptoc_builder_insert(ptoc_builder *b, const ptoc_op_state *state);
/* Shorthand: op `name` (must be registered, or unregistered ops allowed) with
 * operands, result types and attributes. Regions: `nregions` empty ones. */
ptoc_op *ptoc_builder_create(ptoc_builder *b, const char *name,
                             uint32_t noperands, ptoc_value *const *operands,
                             uint32_t nresults, ptoc_type *const *result_types,
                             uint32_t nattrs, const ptoc_named_attr *attrs,
                             uint32_t nregions);

/* ---------------------------------------------------------------- diagnostics */

typedef enum ptoc_severity {
    PTOC_SEV_ERROR, PTOC_SEV_WARNING, PTOC_SEV_NOTE, PTOC_SEV_REMARK
} ptoc_severity;

typedef struct ptoc_diagnostic ptoc_diagnostic;
struct ptoc_diagnostic {
    ptoc_severity severity;
    ptoc_loc loc;
    const char *message;      /* valid during the handler call only */
    const ptoc_diagnostic *notes;   /* the notes attached to it, in order (none on a note) */
    size_t nnotes;
};

/* A handler receives each error, warning or remark once, with its notes. */
typedef void (*ptoc_diag_handler)(void *user, const ptoc_diagnostic *d);
/* Returns the previous handler. The default prints to stderr (ptoc_diag_print). */
ptoc_diag_handler ptoc_context_set_diag_handler(ptoc_context *ctx, ptoc_diag_handler h,
                                                void *user, void **prev_user);
/* A diagnostic without notes, reported at once. */
void ptoc_emit(ptoc_context *ctx, ptoc_severity sev, ptoc_loc loc, const char *fmt, ...);
void ptoc_emitv(ptoc_context *ctx, ptoc_severity sev, ptoc_loc loc, const char *fmt, va_list ap);
void ptoc_emit_error(ptoc_context *ctx, ptoc_loc loc, const char *fmt, ...);
/* "'op.name' op " + message, at the op's location. */
void ptoc_op_emit_error(const ptoc_op *op, const char *fmt, ...);
void ptoc_op_emit_warning(const ptoc_op *op, const char *fmt, ...);

/* A diagnostic in flight (MLIR's InFlightDiagnostic): begun with its message,
 * given notes with ptoc_diag_note, then reported with ptoc_diag_report, which
 * hands it and its notes to the handler in one call and frees it. A NULL
 * diagnostic (see ptoc_parser_diag_at) takes notes and reports as a no-op. */
typedef struct ptoc_diag ptoc_diag;
ptoc_diag *ptoc_diag_begin(ptoc_context *ctx, ptoc_severity sev, ptoc_loc loc, const char *fmt, ...);
ptoc_diag *ptoc_diag_beginv(ptoc_context *ctx, ptoc_severity sev, ptoc_loc loc, const char *fmt, va_list ap);
ptoc_diag *ptoc_op_diag_error(const ptoc_op *op, const char *fmt, ...);   /* with the op prefix */
void ptoc_diag_note(ptoc_diag *d, ptoc_loc loc, const char *fmt, ...);
void ptoc_diag_op_note(ptoc_diag *d, const ptoc_op *op, const char *fmt, ...); /* at op, no prefix */
void ptoc_diag_report(ptoc_diag *d);
/* A copy of a diagnostic a handler received, to add notes to and hand on later
 * with ptoc_diag_forward: to `h` directly, not counted again (it was counted
 * when first reported); frees the copy. */
ptoc_diag *ptoc_diag_copy(ptoc_context *ctx, const ptoc_diagnostic *d);
void ptoc_diag_forward(ptoc_diag *d, ptoc_diag_handler h, void *user);
size_t ptoc_context_error_count(ptoc_context *ctx);

/* Source buffers, so diagnostics can quote the line with a caret. The text is
 * copied. */
void ptoc_source_add(ptoc_context *ctx, ptoc_ident *file, const char *text, size_t len);
/* Finds line `line` of `file`; false if unknown. */
bool ptoc_source_line(ptoc_context *ctx, ptoc_ident *file, uint32_t line,
                      const char **text, size_t *len);
/* `file:line:col: error: message`, then the source line and a caret when known,
 * then each note the same way. */
void ptoc_diag_print(ptoc_context *ctx, FILE *out, const ptoc_diagnostic *d);

/* --verify-diagnostics: collects `expected-error|warning|note|remark {{text}}`
 * comments (with `@+N`, `@-N`, `@above`, `@below`) from a buffer, then matches
 * every diagnostic against them. ptoc_diag_verifier_finish reports each unmet
 * expectation and each unexpected diagnostic on `out` and returns false if any. */
typedef struct ptoc_diag_verifier ptoc_diag_verifier;
ptoc_diag_verifier *ptoc_diag_verifier_create(ptoc_context *ctx, ptoc_ident *file,
                                              const char *text, size_t len);
void ptoc_diag_verifier_handle(void *verifier, const ptoc_diagnostic *d); /* a ptoc_diag_handler */
bool ptoc_diag_verifier_finish(ptoc_diag_verifier *v, FILE *out);
void ptoc_diag_verifier_destroy(ptoc_diag_verifier *v);

/* ---------------------------------------------------------------- verifier */

/* Structural checks on `root` and everything under it (terminators, single-block
 * regions, isolation, SSA dominance), then each registered op's verify hook.
 * Emits diagnostics; returns false if any. Unregistered ops get the structural
 * checks only. */
bool ptoc_verify(ptoc_op *root);

#ifdef __cplusplus
}
#endif
#endif
