/* pto_types.c: the pto dialect's types: parsing, printing, accessors, tile rules.
 *
 * Each type is a blob (pto.h): views keep up to five dims, tile_buf and tile
 * share one description struct. The tile grammars:
 *
 *   compact   !pto.tile_buf<vec, 16x128xf32[, valid=16x1][, blayout=col_major]
 *                          [, slayout=..][, fractal=N][, pad=N][, compact=N]>
 *             (optional keys in any order, none repeated; `loc,` may be left out
 *             for !pto.tile, where it defaults to vec: !pto.tile<32x32xf32>)
 *   key form  !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16,
 *                          blayout=row_major, slayout=none_box, fractal=512, pad=0[, compact=0]>
 *             (loc first, then every other key once, in any order; v_row/v_col
 *             `?` or -1 = dynamic)
 *   pto-isa   !pto.tile<loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Zero>
 *             (loc, dtype, rows, cols, blayout, slayout, fractal (None = 512), pad;
 *             `loc=L,` may be left out (vec), as the fields after cols, from
 *             the end: !pto.tile<f32, 16, 16>, as PTO-AS writes it)
 *
 * All of them build the same interned type. The printer writes the compact form,
 * leaving out keys equal to their defaults (as PTOAS prints); !pto.tile also
 * leaves out `vec,`. Tile rules (ptoc_pto_tile_check) are checked when the type is
 * parsed, so the diagnostic points at the type.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "dialect/pto_internal.h"
#include "ptoc/util.h"

/* ---------------------------------------------------------------- accessors */

static const void *pto_type_data(const ptoc_type *t, ptoc_pto_type_kind kind)
{
    return t ? ptoc_type_dialect_data(t, &pto_dialect, (uint32_t)kind) : NULL;
}

bool ptoc_pto_type_is(const ptoc_type *t, ptoc_pto_type_kind kind)
{
    return pto_type_data(t, kind) != NULL;
}

ptoc_type *ptoc_pto_ptr_elem(const ptoc_type *t)
{
    ptoc_type *const *elem = pto_type_data(t, PTOC_PTO_TYPE_PTR);
    return elem ? *elem : NULL;
}

ptoc_type *ptoc_pto_ub_ptr_elem(const ptoc_type *t)
{
    ptoc_type *const *elem = pto_type_data(t, PTOC_PTO_TYPE_UB_PTR);
    return elem ? *elem : NULL;
}

const ptoc_pto_view *ptoc_pto_tensor_view(const ptoc_type *t)
{
    return pto_type_data(t, PTOC_PTO_TYPE_TENSOR_VIEW);
}

const ptoc_pto_view *ptoc_pto_partition_view(const ptoc_type *t)
{
    return pto_type_data(t, PTOC_PTO_TYPE_PARTITION_VIEW);
}

const ptoc_pto_tile_desc *ptoc_pto_tile_buf(const ptoc_type *t)
{
    return pto_type_data(t, PTOC_PTO_TYPE_TILE_BUF);
}

const ptoc_pto_tile_desc *ptoc_pto_tile(const ptoc_type *t)
{
    return pto_type_data(t, PTOC_PTO_TYPE_TILE);
}

const ptoc_pto_tile_desc *ptoc_pto_tile_like(const ptoc_type *t)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(t);
    return d ? d : ptoc_pto_tile(t);
}

const ptoc_pto_vreg *ptoc_pto_vreg_type(const ptoc_type *t)
{
    return pto_type_data(t, PTOC_PTO_TYPE_VREG);
}

bool ptoc_pto_memref_space(const ptoc_type *t, ptoc_pto_address_space *out)
{
    if (!t || t->kind != PTOC_TYPE_MEMREF)
        return false;
    if (!t->u.shaped.memspace) {
        *out = PTOC_PTO_AS_GM;
        return true;
    }
    uint32_t v;
    if (!ptoc_pto_enum_value(t->u.shaped.memspace, PTOC_PTO_ENUM_ADDRESS_SPACE, &v))
        return false;
    *out = (ptoc_pto_address_space)v;
    return true;
}

/* ---------------------------------------------------------------- constructors */

ptoc_type *ptoc_pto_ptr_type(ptoc_context *ctx, ptoc_type *elem)
{
    return ptoc_type_dialect(ctx, &pto_dialect, PTOC_PTO_TYPE_PTR, &elem, sizeof elem);
}

ptoc_type *ptoc_pto_ub_ptr_type(ptoc_context *ctx, ptoc_type *elem)
{
    return ptoc_type_dialect(ctx, &pto_dialect, PTOC_PTO_TYPE_UB_PTR, &elem, sizeof elem);
}

ptoc_type *ptoc_pto_vreg_type_get(ptoc_context *ctx, ptoc_type *elem, int64_t lanes)
{
    ptoc_pto_vreg v;
    memset(&v, 0, sizeof v);
    v.elem = elem;
    v.lanes = lanes;
    return ptoc_type_dialect(ctx, &pto_dialect, PTOC_PTO_TYPE_VREG, &v, sizeof v);
}

ptoc_type *ptoc_pto_mask_type_get(ptoc_context *ctx, unsigned bits)
{
    char g[8];
    snprintf(g, sizeof g, "b%u", bits);
    ptoc_pto_mask m = {ptoc_ident_cstr(ctx, g)};
    return ptoc_type_dialect(ctx, &pto_dialect, PTOC_PTO_TYPE_MASK, &m, sizeof m);
}

ptoc_type *ptoc_pto_align_type_get(ptoc_context *ctx)
{
    uint8_t none = 0;                      /* no parameters: parse_unit_type's blob */
    return ptoc_type_dialect(ctx, &pto_dialect, PTOC_PTO_TYPE_ALIGN, &none, sizeof none);
}

ptoc_type *ptoc_pto_view_type(ptoc_context *ctx, ptoc_pto_type_kind kind, uint32_t rank,
                              const int64_t *shape, ptoc_type *elem)
{
    ptoc_pto_view v;
    memset(&v, 0, sizeof v);               /* blobs are interned by their bytes */
    if (rank > PTOC_PTO_MAX_VIEW_RANK)
        ptoc_unreachable("view rank above PTOC_PTO_MAX_VIEW_RANK");
    v.elem = elem;
    v.rank = rank;
    memcpy(v.shape, shape, sizeof(int64_t) * rank);
    return ptoc_type_dialect(ctx, &pto_dialect, (uint32_t)kind, &v, sizeof v);
}

ptoc_type *ptoc_pto_tile_type(ptoc_context *ctx, ptoc_pto_type_kind kind, const ptoc_pto_tile_desc *desc)
{
    ptoc_pto_tile_desc d;
    memset(&d, 0, sizeof d);
    d = *desc;
    return ptoc_type_dialect(ctx, &pto_dialect, (uint32_t)kind, &d, sizeof d);
}

ptoc_pto_tile_desc ptoc_pto_tile_desc_init(ptoc_type *elem, int64_t rows, int64_t cols)
{
    ptoc_pto_tile_desc d;
    memset(&d, 0, sizeof d);
    d.elem = elem;
    d.rows = d.valid_rows = rows;
    d.cols = d.valid_cols = cols;
    d.loc = PTOC_PTO_AS_VEC;
    d.blayout = PTOC_PTO_BL_ROW_MAJOR;
    d.slayout = PTOC_PTO_SL_NONE_BOX;
    d.fractal = 512;
    d.pad = PTOC_PTO_PAD_NULL;
    d.compact = PTOC_PTO_COMPACT_NULL;
    return d;
}

/* ---------------------------------------------------------------- tile rules */

uint32_t pto_elem_bytes(const ptoc_type *elem)
{
    uint32_t bits = (ptoc_type_is_int(elem) || ptoc_type_is_float(elem)) ? ptoc_type_bitwidth(elem) : 0;
    return bits == 0 ? 0 : (bits + 7) / 8;
}

static bool is_onchip_space(uint32_t loc)
{
    return loc != PTOC_PTO_AS_ZERO && loc != PTOC_PTO_AS_GM;
}

/* Why a none_box tile's rows (row_major) or columns (col_major) must fill
 * whole 32-byte blocks: a note after the error, in `buf`. PTOAS does not check
 * this, so kernels written for it can break the rule. */
static const char *block_rule_note(const ptoc_pto_tile_desc *tb, uint32_t bits, char *buf, size_t size)
{
    bool rows = tb->blayout == PTOC_PTO_BL_ROW_MAJOR;
    snprintf(buf, size, "a %s none_box tile stores each %s contiguously, and the hardware moves whole 32-byte "
             "blocks, so pto-isa's Tile refuses this layout: give the tile a multiple of %u %s",
             rows ? "row_major" : "col_major", rows ? "row" : "column", 256 / (bits < 256 ? bits : 256),
             rows ? "cols" : "rows");
    return buf;
}

/* The first tile rule `tb` breaks, as a message (in `buf` when formatted), or
 * NULL; `*note` gets the reason behind it when there is more to say. */
static const char *tile_rule_break(const ptoc_pto_tile_desc *tb, char *buf, size_t size, const char **note,
                                   char *note_buf, size_t note_size)
{
    *note = NULL;
    uint32_t bits = (ptoc_type_is_int(tb->elem) || ptoc_type_is_float(tb->elem)) ? ptoc_type_bitwidth(tb->elem) : 0;
    const char *why = NULL;
    if (bits == 0) {
        why = "tile element type must be an integer or float type";
    } else if (!is_onchip_space(tb->loc)) {
        snprintf(buf, size, "tile loc must be an on-chip space (vec, mat, left, right, acc, bias, scaling), got %s",
                 ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, tb->loc));
        why = buf;
    } else if (tb->rows <= 0 || tb->cols <= 0) {
        snprintf(buf, size, "tile rows and cols must be positive, got %lldx%lld",
                 (long long)tb->rows, (long long)tb->cols);
        why = buf;
    } else if ((tb->valid_rows != PTOC_DYNAMIC && (tb->valid_rows < 0 || tb->valid_rows > tb->rows)) ||
               (tb->valid_cols != PTOC_DYNAMIC && (tb->valid_cols < 0 || tb->valid_cols > tb->cols))) {
        snprintf(buf, size, "tile valid shape must lie within the shape %lldx%lld",
                 (long long)tb->rows, (long long)tb->cols);
        why = buf;
    } else if (tb->fractal != 16 && tb->fractal != 32 && tb->fractal != 512 && tb->fractal != 1024) {
        snprintf(buf, size, "tile fractal must be 16, 32, 512 or 1024, got %u", tb->fractal);
        why = buf;
    } else if (tb->pad > 3) {
        snprintf(buf, size, "tile pad must be 0..3 (null, zero, max, min), got %u", tb->pad);
        why = buf;
    } else if (tb->compact > 2) {
        snprintf(buf, size, "tile compact must be 0..2 (null, normal, row_plus_one), got %u", tb->compact);
        why = buf;
    } else if (tb->blayout > 1 || tb->slayout > 2) {
        why = "tile layout out of range";
    } else if (tb->slayout == PTOC_PTO_SL_NONE_BOX && tb->blayout == PTOC_PTO_BL_ROW_MAJOR &&
               (tb->cols * bits) % 256 != 0) {
        snprintf(buf, size, "row_major none_box tile needs rows of a multiple of 32 bytes, got %lld cols of %u bits",
                 (long long)tb->cols, bits);
        why = buf;
        *note = block_rule_note(tb, bits, note_buf, note_size);
    } else if (tb->slayout == PTOC_PTO_SL_NONE_BOX && tb->blayout == PTOC_PTO_BL_COL_MAJOR &&
               (tb->rows * bits) % 256 != 0) {
        snprintf(buf, size, "col_major none_box tile needs columns of a multiple of 32 bytes, got %lld rows of %u bits",
                 (long long)tb->rows, bits);
        why = buf;
        *note = block_rule_note(tb, bits, note_buf, note_size);
    }
    return why;
}

bool ptoc_pto_tile_check(ptoc_context *ctx, ptoc_loc loc, const ptoc_pto_tile_desc *tb)
{
    char buf[200], note_buf[240];
    const char *note, *why = tile_rule_break(tb, buf, sizeof buf, &note, note_buf, sizeof note_buf);
    if (why) {
        ptoc_diag *d = ptoc_diag_begin(ctx, PTOC_SEV_ERROR, loc, "%s", why);
        if (note)
            ptoc_diag_note(d, loc, "%s", note);
        ptoc_diag_report(d);
    }
    return why == NULL;
}

/* ---------------------------------------------------------------- parse helpers */

static bool open_params(ptoc_parser *p, bool enclosed)
{
    return enclosed || ptoc_parse_expect(p, "<");
}

static bool close_params(ptoc_parser *p, bool enclosed)
{
    return enclosed || ptoc_parse_expect(p, ">");
}

/* `?`, `-1` (both dynamic) or a non-negative integer. */
static bool parse_dim_value(ptoc_parser *p, int64_t *out, const char *what)
{
    if (ptoc_parse_optional(p, "?")) {
        *out = PTOC_DYNAMIC;
        return true;
    }
    ptoc_loc loc = ptoc_parser_loc(p);
    if (!ptoc_parse_integer(p, out))
        return false;
    if (*out == -1) {
        *out = PTOC_DYNAMIC;
        return true;
    }
    if (*out < 0 || *out > PTOC_MAX_DIM)
        return ptoc_parser_error_at(p, loc, "%s out of range: %lld", what, (long long)*out);
    return true;
}

/* `RxC` where each side is `?` or an integer and no element type follows. The
 * lexer splits `16x8` into `16` and the identifier `x8`, and `16x?` into `16`,
 * `x` and `?`, as MLIR's does. */
static bool parse_2d_valid(ptoc_parser *p, int64_t *r, int64_t *c)
{
    if (!parse_dim_value(p, r, "valid rows"))
        return false;
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_ident *x;
    if (!ptoc_parse_keyword(p, &x, "'x' in valid shape") || x->str[0] != 'x')
        return ptoc_parser_failed(p) ? false : ptoc_parser_error_at(p, loc, "expected 'x' in valid shape");
    if (x->len == 1)
        return parse_dim_value(p, c, "valid cols");
    int64_t v = 0;
    for (uint32_t i = 1; i < x->len; i++) {
        if (x->str[i] < '0' || x->str[i] > '9')
            return ptoc_parser_error_at(p, loc, "expected a valid shape RxC, got '%s'", x->str);
        if (v <= PTOC_MAX_DIM)              /* saturates: too many digits is out of range */
            v = v * 10 + (x->str[i] - '0');
    }
    if (v > PTOC_MAX_DIM)
        return ptoc_parser_error_at(p, loc, "valid cols out of range");
    *c = v;
    return true;
}

/* Value names also accepted in their pto-isa CamelCase spelling. */
static const struct { const char *camel, *name; } camel_names[] = {
    {"RowMajor", "row_major"}, {"ColMajor", "col_major"}, {"NoneBox", "none_box"},
    {"Null", "null"}, {"Zero", "zero"}, {"Max", "max"}, {"Min", "min"},
};

static bool lookup_enum_word(ptoc_pto_enum_kind kind, const char *word, uint32_t *value)
{
    if (pto_enum_lookup(kind, word, value))
        return true;
    for (size_t i = 0; i < sizeof camel_names / sizeof camel_names[0]; i++)
        if (strcmp(camel_names[i].camel, word) == 0)
            return pto_enum_lookup(kind, camel_names[i].name, value);
    return false;
}

static bool parse_enum_word(ptoc_parser *p, ptoc_pto_enum_kind kind, const char *what, uint32_t *out)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_ident *w;
    if (!ptoc_parse_keyword(p, &w, what))
        return false;
    if (!lookup_enum_word(kind, w->str, out))
        return ptoc_parser_error_at(p, loc, "unknown %s: %s", what, w->str);
    return true;
}

static bool parse_u32(ptoc_parser *p, const char *what, uint32_t *out)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    int64_t v;
    if (!ptoc_parse_integer(p, &v))
        return false;
    if (v < 0 || v > UINT32_MAX)
        return ptoc_parser_error_at(p, loc, "%s out of range: %lld", what, (long long)v);
    *out = (uint32_t)v;
    return true;
}

/* pad and compact: an integer (PTOAS) or a value name. */
static bool parse_u32_or_enum(ptoc_parser *p, ptoc_pto_enum_kind kind, const char *what, uint32_t *out)
{
    int64_t v;
    ptoc_loc loc = ptoc_parser_loc(p);
    if (ptoc_parse_optional_integer(p, &v)) {
        if (v < 0 || v > UINT32_MAX)
            return ptoc_parser_error_at(p, loc, "%s out of range: %lld", what, (long long)v);
        *out = (uint32_t)v;
        return true;
    }
    return !ptoc_parser_failed(p) && parse_enum_word(p, kind, what, out);
}

static bool parse_loc_word(ptoc_parser *p, uint32_t *loc)
{
    return parse_enum_word(p, PTOC_PTO_ENUM_ADDRESS_SPACE, "loc", loc);
}

/* ---------------------------------------------------------------- tile grammars */

/* The keys of the two keyed grammars. The key form (after `loc=L,`) takes
 * dtype..pad, all required, and compact; PTOAS reads them only in this order,
 * ptoc in any, since each names itself (PTOAS's own MatMul sample writes
 * blayout before v_row). The compact form (after `RxCxT`) takes valid and the
 * layout keys, all optional. Neither repeats a key. */
typedef enum tile_key { TK_DTYPE, TK_ROWS, TK_COLS, TK_V_ROW, TK_V_COL, TK_VALID, TK_BLAYOUT, TK_SLAYOUT,
                        TK_FRACTAL, TK_PAD, TK_COMPACT, TK_COUNT } tile_key;
enum { KEY_FORM = 1, COMPACT_FORM = 2, REQUIRED = 4 };
static const struct { const char *name; uint8_t forms; } tile_keys[TK_COUNT] = {
    [TK_DTYPE] = {"dtype", KEY_FORM | REQUIRED},     [TK_ROWS] = {"rows", KEY_FORM | REQUIRED},
    [TK_COLS] = {"cols", KEY_FORM | REQUIRED},       [TK_V_ROW] = {"v_row", KEY_FORM | REQUIRED},
    [TK_V_COL] = {"v_col", KEY_FORM | REQUIRED},     [TK_VALID] = {"valid", COMPACT_FORM},
    [TK_BLAYOUT] = {"blayout", KEY_FORM | REQUIRED | COMPACT_FORM},
    [TK_SLAYOUT] = {"slayout", KEY_FORM | REQUIRED | COMPACT_FORM},
    [TK_FRACTAL] = {"fractal", KEY_FORM | REQUIRED | COMPACT_FORM},
    [TK_PAD] = {"pad", KEY_FORM | REQUIRED | COMPACT_FORM},
    [TK_COMPACT] = {"compact", KEY_FORM | COMPACT_FORM},
};

static bool parse_tile_key_value(ptoc_parser *p, tile_key key, ptoc_pto_tile_desc *d)
{
    switch (key) {
    case TK_DTYPE: return ptoc_parse_type(p, &d->elem);
    case TK_ROWS: return ptoc_parse_integer(p, &d->rows);
    case TK_COLS: return ptoc_parse_integer(p, &d->cols);
    case TK_V_ROW: return parse_dim_value(p, &d->valid_rows, "v_row");
    case TK_V_COL: return parse_dim_value(p, &d->valid_cols, "v_col");
    case TK_VALID: return parse_2d_valid(p, &d->valid_rows, &d->valid_cols);
    case TK_BLAYOUT: return parse_enum_word(p, PTOC_PTO_ENUM_BLAYOUT, "blayout", &d->blayout);
    case TK_SLAYOUT: return parse_enum_word(p, PTOC_PTO_ENUM_SLAYOUT, "slayout", &d->slayout);
    case TK_FRACTAL: return parse_u32(p, "fractal", &d->fractal);
    case TK_PAD: return parse_u32_or_enum(p, PTOC_PTO_ENUM_PAD_VALUE, "pad", &d->pad);
    case TK_COMPACT: return parse_u32_or_enum(p, PTOC_PTO_ENUM_COMPACT_MODE, "compact", &d->compact);
    case TK_COUNT: break;
    }
    ptoc_unreachable("bad tile key");
    return false;
}

/* One `key=value` of grammar `form` (named `grammar` in errors). */
static bool parse_tile_pair(ptoc_parser *p, ptoc_pto_tile_desc *d, int form, const char *grammar, bool *seen)
{
    ptoc_loc kloc = ptoc_parser_loc(p);
    ptoc_ident *name;
    if (!ptoc_parse_keyword(p, &name, form == KEY_FORM ? "tile_buf key" : "tile key"))
        return false;
    int key = -1;
    for (int k = 0; k < TK_COUNT; k++)
        if ((tile_keys[k].forms & form) && strcmp(tile_keys[k].name, name->str) == 0)
            key = k;
    if (key < 0)
        return ptoc_parser_error_at(p, kloc, "unknown key in %s: %s", grammar, name->str);
    if (seen[key])
        return ptoc_parser_error_at(p, kloc, "duplicate %s in %s", name->str, grammar);
    seen[key] = true;
    return ptoc_parse_expect(p, "=") && parse_tile_key_value(p, (tile_key)key, d);
}

/* After `loc=L,`: `key=value` pairs, each key once. */
static bool parse_tile_key_form(ptoc_parser *p, ptoc_pto_tile_desc *d)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    bool seen[TK_COUNT] = {false};
    do {
        if (!parse_tile_pair(p, d, KEY_FORM, "tile_buf key form", seen))
            return false;
    } while (ptoc_parse_optional(p, ","));
    for (int k = 0; k < TK_COUNT; k++)
        if ((tile_keys[k].forms & REQUIRED) && !seen[k])
            return ptoc_parser_error_at(p, loc, "tile_buf key form needs '%s'", tile_keys[k].name);
    return !ptoc_parser_failed(p);
}

/* blayout, slayout, fractal (None = the default), pad of the positional form,
 * each optional from the end: `RowMajor, NoneBox` leaves fractal and pad at
 * their defaults. */
static bool parse_positional_layout(ptoc_parser *p, ptoc_pto_tile_desc *d)
{
    if (!ptoc_parse_optional(p, ","))
        return !ptoc_parser_failed(p);
    if (!parse_enum_word(p, PTOC_PTO_ENUM_BLAYOUT, "blayout", &d->blayout))
        return false;
    if (!ptoc_parse_optional(p, ","))
        return !ptoc_parser_failed(p);
    if (!parse_enum_word(p, PTOC_PTO_ENUM_SLAYOUT, "slayout", &d->slayout))
        return false;
    if (!ptoc_parse_optional(p, ","))
        return !ptoc_parser_failed(p);
    if (!ptoc_parse_optional(p, "None") && !parse_u32(p, "fractal", &d->fractal))
        return false;
    if (!ptoc_parse_optional(p, ","))
        return !ptoc_parser_failed(p);
    return parse_u32_or_enum(p, PTOC_PTO_ENUM_PAD_VALUE, "pad", &d->pad);
}

/* After `loc=L,` (or with no loc: vec), the element type already read:
 * rows, cols[, blayout, slayout, fractal, pad] (the pto-isa docs). */
static bool parse_tile_positional_form(ptoc_parser *p, ptoc_pto_tile_desc *d)
{
    int64_t rows, cols;
    if (!ptoc_parse_expect(p, ",") || !ptoc_parse_integer(p, &rows) || !ptoc_parse_expect(p, ",") ||
        !ptoc_parse_integer(p, &cols))
        return false;
    d->rows = d->valid_rows = rows;
    d->cols = d->valid_cols = cols;
    return parse_positional_layout(p, d);
}

/* `RxCxT` then `, key=value` pairs in any order, none repeated. */
static bool parse_tile_compact_form(ptoc_parser *p, ptoc_pto_tile_desc *d)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    int64_t *shape;
    uint32_t rank;
    if (!ptoc_parse_dimension_list(p, &shape, &rank, false) || !ptoc_parse_type(p, &d->elem))
        return false;
    if (rank != 2)
        return ptoc_parser_error_at(p, loc, "tile shape must have exactly two dims, got %u", rank);
    d->rows = d->valid_rows = shape[0];
    d->cols = d->valid_cols = shape[1];
    bool seen[TK_COUNT] = {false};
    while (ptoc_parse_optional(p, ","))
        if (!parse_tile_pair(p, d, COMPACT_FORM, "tile compact syntax", seen))
            return false;
    return !ptoc_parser_failed(p);
}

/* Is the next token a key of the key form (`dtype`, `rows` ...)? The positional
 * form has a type there instead. */
static bool peek_tile_key(ptoc_parser *p)
{
    for (int k = 0; k < TK_COUNT; k++)
        if ((tile_keys[k].forms & KEY_FORM) && ptoc_parser_peek(p, tile_keys[k].name))
            return true;
    return false;
}

/* Picks the grammar by the first word: an element type (positional form, loc
 * vec), `loc` (key or positional form), a loc name (compact form), or nothing
 * but dims (compact form of !pto.tile, loc vec). */
static bool parse_tile_body(ptoc_parser *p, ptoc_pto_type_kind kind, ptoc_pto_tile_desc *d)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_ident *first;
    if (ptoc_parse_optional_type(p, &d->elem))
        return parse_tile_positional_form(p, d);
    if (ptoc_parser_failed(p))
        return false;
    if (!ptoc_parse_optional_keyword(p, &first)) {
        if (ptoc_parser_failed(p))
            return false;
        if (kind == PTOC_PTO_TYPE_TILE_BUF)
            return ptoc_parser_error(p, "expected the tile_buf loc (vec, mat, left, right, acc, bias, scaling)");
        return parse_tile_compact_form(p, d);
    }
    if (strcmp(first->str, "loc") == 0) {
        if (!ptoc_parse_expect(p, "=") || !parse_loc_word(p, &d->loc) || !ptoc_parse_expect(p, ","))
            return false;
        if (peek_tile_key(p))
            return parse_tile_key_form(p, d);
        return ptoc_parse_type(p, &d->elem) && parse_tile_positional_form(p, d);
    }
    if (!lookup_enum_word(PTOC_PTO_ENUM_ADDRESS_SPACE, first->str, &d->loc))
        return ptoc_parser_error_at(p, loc, "unknown loc: %s", first->str);
    return ptoc_parse_expect(p, ",") && parse_tile_compact_form(p, d);
}

static ptoc_type *parse_tile(ptoc_parser *p, ptoc_pto_type_kind kind, bool enclosed)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_pto_tile_desc d = ptoc_pto_tile_desc_init(NULL, 0, 0);
    if (!open_params(p, enclosed))
        return NULL;
    if (!parse_tile_body(p, kind, &d) || !close_params(p, enclosed))
        return NULL;
    char buf[200], note_buf[240];
    const char *note, *why = tile_rule_break(&d, buf, sizeof buf, &note, note_buf, sizeof note_buf);
    if (why) {
        ptoc_diag *d = ptoc_parser_diag_at(p, loc, "%s", why);
        if (note)
            ptoc_diag_note(d, loc, "%s", note);
        ptoc_diag_report(d);
        return NULL;
    }
    return ptoc_pto_tile_type(ptoc_parser_context(p), kind, &d);
}

bool pto_same_tile(const ptoc_type *a, const ptoc_type *b)
{
    const ptoc_pto_tile_desc *x = ptoc_pto_tile_like(a), *y = ptoc_pto_tile_like(b);
    return a == b || (x && y && memcmp(x, y, sizeof *x) == 0);
}

/* ---------------------------------------------------------------- other types */

static ptoc_type *parse_ptr(ptoc_parser *p, bool enclosed)
{
    ptoc_type *elem;
    if (!open_params(p, enclosed) || !ptoc_parse_type(p, &elem))
        return NULL;
    bool ub = false;
    if (ptoc_parse_optional(p, ",")) {   /* gm (the default) or ub, the vector micro-ops' */
        ptoc_ident *space;
        ptoc_loc loc = ptoc_parser_loc(p);
        if (!ptoc_parse_keyword(p, &space, "pointer address space (gm or ub)"))
            return NULL;
        if (strcmp(space->str, "gm") && strcmp(space->str, "ub")) {
            ptoc_parser_error_at(p, loc, "!pto.ptr points to gm or ub, not '%s'", space->str);
            return NULL;
        }
        ub = !strcmp(space->str, "ub");
    }
    if (!close_params(p, enclosed))
        return NULL;
    return ub ? ptoc_pto_ub_ptr_type(ptoc_parser_context(p), elem) : ptoc_pto_ptr_type(ptoc_parser_context(p), elem);
}

/* tensor_view, partition_tensor_view (legacy name tile_view): `dims x elem`. */
static ptoc_type *parse_view(ptoc_parser *p, ptoc_pto_type_kind kind, bool enclosed)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    int64_t *shape;
    uint32_t rank;
    ptoc_type *elem;
    if (!open_params(p, enclosed) || !ptoc_parse_dimension_list(p, &shape, &rank, true) ||
        !ptoc_parse_type(p, &elem) || !close_params(p, enclosed))
        return NULL;
    if (rank == 0 || rank > PTOC_PTO_MAX_VIEW_RANK) {
        ptoc_parser_error_at(p, loc, "a pto view has rank 1 to %d, got %u", PTOC_PTO_MAX_VIEW_RANK, rank);
        return NULL;
    }
    return ptoc_pto_view_type(ptoc_parser_context(p), kind, rank, shape, elem);
}

static ptoc_type *parse_vreg(ptoc_parser *p, bool enclosed)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    int64_t *shape;
    uint32_t rank;
    ptoc_pto_vreg v;
    memset(&v, 0, sizeof v);
    if (!open_params(p, enclosed) || !ptoc_parse_dimension_list(p, &shape, &rank, false) ||
        !ptoc_parse_type(p, &v.elem) || !close_params(p, enclosed))
        return NULL;
    if (rank != 1 || shape[0] <= 0) {
        ptoc_parser_error_at(p, loc, "!pto.vreg expects one positive lane count, as in !pto.vreg<64xf32>");
        return NULL;
    }
    v.lanes = shape[0];
    return ptoc_type_dialect(ptoc_parser_context(p), &pto_dialect, PTOC_PTO_TYPE_VREG, &v, sizeof v);
}

/* !pto.mask<b32>, or a bare !pto.mask (granularity unknown). */
static ptoc_type *parse_mask(ptoc_parser *p, bool enclosed)
{
    ptoc_pto_mask m = {NULL};
    if (enclosed || ptoc_parse_optional(p, "<")) {
        if (!ptoc_parse_keyword(p, &m.granularity, "mask granularity (b8, b16, b32)") ||
            !close_params(p, enclosed))
            return NULL;
    }
    return ptoc_type_dialect(ptoc_parser_context(p), &pto_dialect, PTOC_PTO_TYPE_MASK, &m, sizeof m);
}

static ptoc_type *parse_eventid_array(ptoc_parser *p, bool enclosed)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    int64_t n;
    if (!open_params(p, enclosed) || !ptoc_parse_integer(p, &n) || !close_params(p, enclosed))
        return NULL;
    if (n <= 0 || n > 1024) {
        ptoc_parser_error_at(p, loc, "!pto.eventid_array size must be 1..1024, got %lld", (long long)n);
        return NULL;
    }
    return ptoc_type_dialect(ptoc_parser_context(p), &pto_dialect, PTOC_PTO_TYPE_EVENTID_ARRAY, &n, sizeof n);
}

static ptoc_type *parse_unit_type(ptoc_parser *p, ptoc_pto_type_kind kind)
{
    uint8_t none = 0;                      /* a blob of one zero byte: the type has no parameters */
    return ptoc_type_dialect(ptoc_parser_context(p), &pto_dialect, (uint32_t)kind, &none, sizeof none);
}

/* One row per type mnemonic. */
static const struct {
    const char *mnemonic;
    ptoc_pto_type_kind kind;
} type_names[] = {
    {"ptr", PTOC_PTO_TYPE_PTR},
    {"tensor_view", PTOC_PTO_TYPE_TENSOR_VIEW},
    {"partition_tensor_view", PTOC_PTO_TYPE_PARTITION_VIEW},
    {"tile_view", PTOC_PTO_TYPE_PARTITION_VIEW},        /* legacy name */
    {"tile_buf", PTOC_PTO_TYPE_TILE_BUF},
    {"tile", PTOC_PTO_TYPE_TILE},
    {"vreg", PTOC_PTO_TYPE_VREG},
    {"mask", PTOC_PTO_TYPE_MASK},
    {"eventid_array", PTOC_PTO_TYPE_EVENTID_ARRAY},
    {"pipe", PTOC_PTO_TYPE_PIPE},
    {"async_session", PTOC_PTO_TYPE_ASYNC_SESSION},
    {"async_event", PTOC_PTO_TYPE_ASYNC_EVENT},
    {"align", PTOC_PTO_TYPE_ALIGN},
};

ptoc_type *pto_parse_type(ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed)
{
    int kind = -1;
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strcmp(type_names[i].mnemonic, mnemonic->str) == 0)
            kind = (int)type_names[i].kind;
    switch (kind) {
    case PTOC_PTO_TYPE_PTR: return parse_ptr(p, enclosed);
    case PTOC_PTO_TYPE_TENSOR_VIEW:
    case PTOC_PTO_TYPE_PARTITION_VIEW: return parse_view(p, (ptoc_pto_type_kind)kind, enclosed);
    case PTOC_PTO_TYPE_TILE_BUF:
    case PTOC_PTO_TYPE_TILE: return parse_tile(p, (ptoc_pto_type_kind)kind, enclosed);
    case PTOC_PTO_TYPE_VREG: return parse_vreg(p, enclosed);
    case PTOC_PTO_TYPE_MASK: return parse_mask(p, enclosed);
    case PTOC_PTO_TYPE_EVENTID_ARRAY: return parse_eventid_array(p, enclosed);
    case PTOC_PTO_TYPE_PIPE:
    case PTOC_PTO_TYPE_ASYNC_SESSION:
    case PTOC_PTO_TYPE_ASYNC_EVENT:
    case PTOC_PTO_TYPE_ALIGN: return parse_unit_type(p, (ptoc_pto_type_kind)kind);
    default: break;
    }
    ptoc_parser_error_at(p, ptoc_parser_hook_loc(p), "unknown pto type '%s'", mnemonic->str);
    return NULL;
}

/* ---------------------------------------------------------------- types in op type lists */

bool pto_parse_type_or_bare(ptoc_parser *p, ptoc_pto_type_kind kind, ptoc_type **out)
{
    if (!ptoc_parser_peek(p, "<"))
        return ptoc_parse_type(p, out);
    const char *mnemonic = NULL;
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0] && !mnemonic; i++)
        if (type_names[i].kind == kind)
            mnemonic = type_names[i].mnemonic;
    if (!mnemonic)
        ptoc_unreachable("pto type kind without a mnemonic");
    *out = pto_parse_type(p, ptoc_ident_cstr(ptoc_parser_context(p), mnemonic), false);
    return *out != NULL;
}

bool pto_parse_type_list_or_bare(ptoc_parser *p, ptoc_pto_type_kind kind, ptoc_type ***out, uint32_t *n)
{
    ptoc_type_varr types;
    ptoc_type_varr_init_arena(&types, ptoc_parser_arena(p));
    *n = 0;
    do {
        if (!pto_parse_type_or_bare(p, kind, ptoc_type_varr_add(&types)))
            return false;
    } while (ptoc_parse_optional(p, ","));
    *out = types.data;
    *n = types.len;
    return true;
}

/* ---------------------------------------------------------------- printing */

static void print_dim(ptoc_printer *p, int64_t d)
{
    if (d == PTOC_DYNAMIC)
        ptoc_print_str(p, "?");
    else
        ptoc_print_int(p, d);
}

static void print_view(ptoc_printer *p, const char *mnemonic, const ptoc_pto_view *v)
{
    ptoc_print_fmt(p, "!pto.%s<", mnemonic);
    for (uint32_t i = 0; i < v->rank; i++) {
        print_dim(p, v->shape[i]);
        ptoc_print_str(p, "x");
    }
    ptoc_print_type(p, v->elem);
    ptoc_print_str(p, ">");
}

/* The compact form with default keys left out. */
static void print_tile(ptoc_printer *p, const char *mnemonic, bool omit_vec, const ptoc_pto_tile_desc *d)
{
    ptoc_print_fmt(p, "!pto.%s<", mnemonic);
    if (!(omit_vec && d->loc == PTOC_PTO_AS_VEC))
        ptoc_print_fmt(p, "%s, ", ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, d->loc));
    ptoc_print_fmt(p, "%lldx%lldx", (long long)d->rows, (long long)d->cols);
    ptoc_print_type(p, d->elem);
    if (d->valid_rows != d->rows || d->valid_cols != d->cols) {
        ptoc_print_str(p, ", valid=");
        print_dim(p, d->valid_rows);
        /* `0x16` would lex as a hex integer: a zero row count gets a space. */
        ptoc_print_str(p, d->valid_rows == 0 ? " x" : "x");
        print_dim(p, d->valid_cols);
    }
    if (d->blayout != PTOC_PTO_BL_ROW_MAJOR)
        ptoc_print_fmt(p, ", blayout=%s", ptoc_pto_enum_name(PTOC_PTO_ENUM_BLAYOUT, d->blayout));
    if (d->slayout != PTOC_PTO_SL_NONE_BOX)
        ptoc_print_fmt(p, ", slayout=%s", ptoc_pto_enum_name(PTOC_PTO_ENUM_SLAYOUT, d->slayout));
    if (d->fractal != 512)
        ptoc_print_fmt(p, ", fractal=%u", d->fractal);
    if (d->pad != PTOC_PTO_PAD_NULL)
        ptoc_print_fmt(p, ", pad=%u", d->pad);
    if (d->compact != PTOC_PTO_COMPACT_NULL)
        ptoc_print_fmt(p, ", compact=%u", d->compact);
    ptoc_print_str(p, ">");
}

void pto_print_type(ptoc_printer *p, const ptoc_type *t)
{
    const void *data = t->u.dialect.data;
    switch ((ptoc_pto_type_kind)t->u.dialect.kind) {
    case PTOC_PTO_TYPE_PTR:
    case PTOC_PTO_TYPE_UB_PTR:
        ptoc_print_str(p, "!pto.ptr<");
        ptoc_print_type(p, *(ptoc_type *const *)data);
        ptoc_print_str(p, t->u.dialect.kind == PTOC_PTO_TYPE_UB_PTR ? ", ub>" : ">");
        return;
    case PTOC_PTO_TYPE_TENSOR_VIEW: print_view(p, "tensor_view", data); return;
    case PTOC_PTO_TYPE_PARTITION_VIEW: print_view(p, "partition_tensor_view", data); return;
    case PTOC_PTO_TYPE_TILE_BUF: print_tile(p, "tile_buf", false, data); return;
    case PTOC_PTO_TYPE_TILE: print_tile(p, "tile", true, data); return;
    case PTOC_PTO_TYPE_VREG: {
        const ptoc_pto_vreg *v = data;
        ptoc_print_fmt(p, "!pto.vreg<%lldx", (long long)v->lanes);
        ptoc_print_type(p, v->elem);
        ptoc_print_str(p, ">");
        return;
    }
    case PTOC_PTO_TYPE_MASK: {
        const ptoc_pto_mask *m = data;
        if (m->granularity)
            ptoc_print_fmt(p, "!pto.mask<%s>", m->granularity->str);
        else
            ptoc_print_str(p, "!pto.mask");
        return;
    }
    case PTOC_PTO_TYPE_EVENTID_ARRAY: {
        int64_t n;
        memcpy(&n, data, sizeof n);
        ptoc_print_fmt(p, "!pto.eventid_array<%lld>", (long long)n);
        return;
    }
    case PTOC_PTO_TYPE_PIPE: ptoc_print_str(p, "!pto.pipe"); return;
    case PTOC_PTO_TYPE_ASYNC_SESSION: ptoc_print_str(p, "!pto.async_session"); return;
    case PTOC_PTO_TYPE_ASYNC_EVENT: ptoc_print_str(p, "!pto.async_event"); return;
    case PTOC_PTO_TYPE_ALIGN: ptoc_print_str(p, "!pto.align"); return;
    case PTOC_PTO_TYPE_KIND_COUNT: break;
    }
    ptoc_unreachable("unknown pto type kind");
}


