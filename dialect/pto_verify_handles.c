/* pto_verify_handles.c: the rules of the ops pto_forms.c reads: pointers and
 * scalar access, handles on tiles (bind_tile, subset, set_validshape,
 * pointer_cast, declare_*), event-id arrays, tgather and tmov, as PTOAS's
 * verifiers state them. subset's result type is inferred here too, so the
 * parser and the verifier derive it the same way.
 *
 * As everywhere in the dialect, an op with a memref operand or result is
 * checked for structure only where its rules are about tile layouts.
 */
#include <string.h>

#include "dialect/pto_internal.h"

/* ---------------------------------------------------------------- helpers */

bool pto_check_type(const ptoc_op *op, const char *name, const ptoc_type *t, bool ok, const char *want)
{
    if (ok)
        return true;
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    ptoc_print_type_to(&sb, t);
    ptoc_op_emit_error(op, "%s must be %s, got %s", name, want, ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
    return false;
}

static bool fail_type(const ptoc_op *op, const char *name, const ptoc_type *t, const char *want)
{
    return pto_check_type(op, name, t, false, want);
}

static bool is_index(const ptoc_type *t) { return t->kind == PTOC_TYPE_INDEX; }

/* Operands [from, from+n) are indexes. */
static bool expect_indexes(const ptoc_op *op, const char *name, uint32_t from, uint32_t n)
{
    for (uint32_t i = from; i < from + n && i < op->noperands; i++)
        if (!pto_check_type(op, name, ptoc_op_operand(op, i)->type, is_index(ptoc_op_operand(op, i)->type), "index"))
            return false;
    return true;
}

static bool any_memref(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++)
        if (ptoc_op_operand(op, i)->type->kind == PTOC_TYPE_MEMREF)
            return true;
    return op->nresults > 0 && op->results[0].type->kind == PTOC_TYPE_MEMREF;
}

/* The integer an arith.constant gives `v` (through index casts), if any. */
static bool constant_int(const ptoc_value *v, int64_t *out)
{
    const ptoc_op *def = ptoc_value_def(v);
    while (def && ptoc_op_is(def, "arith.index_cast") && def->noperands == 1)
        def = ptoc_value_def(ptoc_op_operand(def, 0));
    ptoc_attr *a = def && ptoc_op_is(def, "arith.constant") ? ptoc_op_attr(def, "value") : NULL;
    if (!a || a->kind != PTOC_ATTR_INTEGER)
        return false;
    *out = a->u.integer.value;
    return true;
}

static void type_text(ptoc_strbuf *sb, const ptoc_op *op, const ptoc_type *t)
{
    ptoc_strbuf_init(sb, ptoc_op_context(op));
    ptoc_print_type_to(sb, t);
}

/* ---------------------------------------------------------------- pointers and scalars */

bool pto_verify_addptr(const ptoc_op *op)
{
    if (!pto_verify_structure(op))
        return false;
    const ptoc_type *ptr = ptoc_op_operand(op, 0)->type;
    return pto_check_type(op, "the pointer", ptr, ptoc_pto_ptr_elem(ptr) != NULL, "a !pto.ptr") &&
           expect_indexes(op, "the offset", 1, 1) &&
           pto_check_type(op, "the result", op->results[0].type, op->results[0].type == ptr,
                       "the pointer's type");
}

/* load_scalar (ptr, offset -> value) and store_scalar (ptr, offset, value): a
 * !pto.ptr or a GM memref, and a value of its element type. */
bool pto_verify_scalar_access(const ptoc_op *op)
{
    if (!pto_verify_structure(op))
        return false;
    const ptoc_type *ptr = ptoc_op_operand(op, 0)->type;
    ptoc_type *elem = ptoc_pto_ptr_elem(ptr);
    ptoc_pto_address_space as;
    if (!elem && ptr->kind == PTOC_TYPE_MEMREF && ptoc_pto_memref_space(ptr, &as) && as == PTOC_PTO_AS_GM)
        elem = ptr->u.shaped.elem;
    if (!pto_check_type(op, "the pointer", ptr, elem != NULL, "a !pto.ptr or a GM memref") ||
        !expect_indexes(op, "the offset", 1, 1))
        return false;
    bool load = ptoc_pto_is(op, PTOC_PTO_OP_LOAD_SCALAR);
    const ptoc_type *value = load ? op->results[0].type : ptoc_op_operand(op, 2)->type;
    return pto_check_type(op, load ? "the result" : "the stored value", value, value == elem,
                       "the pointer's element type");
}

bool pto_verify_get_tensor_view_dim(const ptoc_op *op)
{
    if (!pto_verify_structure(op))
        return false;
    const ptoc_type *tv = ptoc_op_operand(op, 0)->type;
    return pto_check_type(op, "the view", tv, ptoc_pto_tensor_view(tv) || tv->kind == PTOC_TYPE_MEMREF,
                       "a !pto.tensor_view or memref") &&
           expect_indexes(op, "the dimension", 1, 1) &&
           pto_check_type(op, "the result", op->results[0].type, is_index(op->results[0].type), "index");
}

/* ---------------------------------------------------------------- handles on tiles */

/* Segments (n0, valid_row, valid_col) with valid_row and valid_col together. */
static bool check_valid_segments(const ptoc_op *op, uint32_t *first, bool *valid)
{
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    if (!seg || nseg != 3 || seg[0] < 0 || seg[1] != seg[2] || seg[1] < 0 || seg[1] > 1 ||
        (uint64_t)seg[0] + 2 * (uint64_t)seg[1] != op->noperands) {
        ptoc_op_emit_error(op, "'" PTOC_SEGMENT_SIZES_ATTR "' must be array<i32: n, v, v> with v = 0 or 1 "
                               "(valid_row and valid_col together)");
        return false;
    }
    *first = (uint32_t)seg[0];
    *valid = seg[1] == 1;
    return true;
}

static bool check_config(const ptoc_op *op, bool required)
{
    ptoc_attr *c = ptoc_op_attr(op, "config");
    if ((!c && !required) || (c && ptoc_pto_tile_config_attr(c)))
        return true;
    ptoc_op_emit_error(op, "%s", c ? "config must be a #pto.tile_buf_config<...>"
                                   : "requires attribute 'config' (a #pto.tile_buf_config<...>)");
    return false;
}

bool pto_verify_bind_tile(const ptoc_op *op)
{
    uint32_t first;
    bool valid;
    if (!pto_verify_structure(op) || !check_valid_segments(op, &first, &valid) || !check_config(op, true))
        return false;
    if (first != 1) {
        ptoc_op_emit_error(op, "takes one source memref, got %u", first);
        return false;
    }
    return pto_check_type(op, "the source", ptoc_op_operand(op, 0)->type,
                       ptoc_op_operand(op, 0)->type->kind == PTOC_TYPE_MEMREF, "a memref") &&
           expect_indexes(op, "valid_row and valid_col", 1, valid ? 2 : 0) &&
           pto_check_type(op, "the result", op->results[0].type, op->results[0].type->kind == PTOC_TYPE_MEMREF,
                       "a memref");
}

bool pto_verify_pointer_cast(const ptoc_op *op)
{
    uint32_t first;
    bool valid;
    if (!pto_verify_structure(op) || !check_valid_segments(op, &first, &valid) || !check_config(op, false))
        return false;
    for (uint32_t i = 0; i < first; i++) {
        const ptoc_type *t = ptoc_op_operand(op, i)->type;
        if (!pto_check_type(op, "an address", t, ptoc_type_is_int(t) && ptoc_type_bitwidth(t) == 64, "i64"))
            return false;
    }
    return expect_indexes(op, "valid_row and valid_col", first, valid ? 2 : 0) &&
           pto_check_type(op, "the result", op->results[0].type, op->results[0].type->kind == PTOC_TYPE_MEMREF,
                       "a memref");
}

bool pto_verify_declare(const ptoc_op *op)
{
    if (!pto_verify_structure(op))
        return false;
    const ptoc_type *t = op->results[0].type;
    if (ptoc_pto_is(op, PTOC_PTO_OP_DECLARE_EVENTID_ARRAY))
        return pto_check_type(op, "the result", t, ptoc_pto_type_is(t, PTOC_PTO_TYPE_EVENTID_ARRAY),
                           "a !pto.eventid_array");
    if (ptoc_pto_is(op, PTOC_PTO_OP_DECLARE_TILE_MEMREF))
        return pto_check_type(op, "the result", t, t->kind == PTOC_TYPE_MEMREF, "a memref");
    return pto_check_type(op, "the result", t, ptoc_pto_tile_like(t) || t->kind == PTOC_TYPE_MEMREF, "a tile");
}

/* A tile handle set_validshape may update: made in this function (alloc_tile,
 * declare_tile, bind_tile, pointer_cast), possibly through bitcast/treshape. */
static bool locally_bound(const ptoc_value *v)
{
    const ptoc_op *def = ptoc_value_def(v);
    while (def && (ptoc_pto_is(def, PTOC_PTO_OP_BITCAST) || ptoc_pto_is(def, PTOC_PTO_OP_TRESHAPE)) &&
           def->noperands == 1)
        def = ptoc_value_def(ptoc_op_operand(def, 0));
    return def && (ptoc_pto_is(def, PTOC_PTO_OP_ALLOC_TILE) || ptoc_pto_is(def, PTOC_PTO_OP_DECLARE_TILE) ||
                   ptoc_pto_is(def, PTOC_PTO_OP_BIND_TILE) || ptoc_pto_is(def, PTOC_PTO_OP_POINTER_CAST));
}

bool pto_verify_set_validshape(const ptoc_op *op)
{
    if (!pto_verify_structure(op) || !expect_indexes(op, "valid_row and valid_col", 1, 2))
        return false;
    const ptoc_value *src = ptoc_op_operand(op, 0);
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(src->type);
    if (src->type->kind == PTOC_TYPE_MEMREF) {
        ptoc_op_emit_error(op, "takes a !pto.tile_buf: a memref source is only PTOAS's internal lowered form");
        return false;
    }
    if (!pto_check_type(op, "the source", src->type, d != NULL, "a !pto.tile_buf"))
        return false;
    if (d->valid_rows != PTOC_DYNAMIC || d->valid_cols != PTOC_DYNAMIC)
        return fail_type(op, "the source", src->type, "a tile_buf with a dynamic valid shape (valid=?x?)");
    if (!locally_bound(src)) {
        ptoc_op_emit_error(op, "needs a tile made in this function (alloc_tile, declare_tile, bind_tile, "
                               "pointer_cast): a function argument's valid shape belongs to its caller");
        return false;
    }
    int64_t dims[2] = {d->rows, d->cols}, v;
    for (uint32_t i = 0; i < 2; i++) {
        if (!constant_int(ptoc_op_operand(op, 1 + i), &v) || (v >= 0 && v <= dims[i]))
            continue;
        ptoc_op_emit_error(op, "valid_%s = %lld is outside the tile's %lld %s", i ? "col" : "row", (long long)v,
                           (long long)dims[i], i ? "cols" : "rows");
        return false;
    }
    return true;
}

/* subset's valid dim `i`: from the source's, as PTOAS infers it. A constant
 * offset reads the source's valid extent as a period (a 32x64 buffer holding
 * two 32x32 tiles at valid 32x32 gives each half 32 valid columns). */
static int64_t subset_valid_dim(int64_t size, int64_t parent_valid, ptoc_value *const *offsets, uint32_t noffsets,
                                uint32_t i)
{
    int64_t off;
    if (parent_valid == PTOC_DYNAMIC || i >= noffsets || !constant_int(offsets[i], &off))
        return PTOC_DYNAMIC;
    int64_t left = 0;
    if (parent_valid > 0) {
        int64_t mod = off % parent_valid;
        left = parent_valid - (mod < 0 ? mod + parent_valid : mod);
    }
    return size < left ? size : left;
}

ptoc_type *pto_subset_result_type(ptoc_context *ctx, ptoc_value *const *operands, uint32_t n,
                                  const ptoc_attr *sizes, char *why, size_t size)
{
    const ptoc_pto_tile_desc *src = n > 0 ? ptoc_pto_tile_buf(operands[0]->type) : NULL;
    int64_t dims[2];
    if (!src) {
        snprintf(why, size, "subset's source must be a !pto.tile_buf");
        return NULL;
    }
    if (!sizes || sizes->kind != PTOC_ATTR_ARRAY || sizes->u.array.n != 2) {
        snprintf(why, size, "subset sizes must be an array of two integers, as [32, 32]");
        return NULL;
    }
    for (uint32_t i = 0; i < 2; i++) {
        const ptoc_attr *e = sizes->u.array.elems[i];
        if (e->kind != PTOC_ATTR_INTEGER || e->u.integer.value <= 0) {
            snprintf(why, size, "subset sizes must be positive integers");
            return NULL;
        }
        dims[i] = e->u.integer.value;
    }
    ptoc_pto_tile_desc d = *src;
    d.rows = dims[0];
    d.cols = dims[1];
    d.valid_rows = subset_valid_dim(dims[0], src->valid_rows, operands + 1, n - 1, 0);
    d.valid_cols = subset_valid_dim(dims[1], src->valid_cols, operands + 1, n - 1, 1);
    return ptoc_pto_tile_type(ctx, PTOC_PTO_TYPE_TILE_BUF, &d);
}

/* A boxed (slayout != none_box) source keeps its inner boxes whole: sizes and
 * constant offsets are multiples of the box, and a row_major box keeps every
 * column (col_major: every row). */
static bool check_boxed_subset(const ptoc_op *op, const ptoc_pto_tile_desc *src, const ptoc_pto_tile_desc *dst)
{
    uint32_t bytes = pto_elem_bytes(src->elem);
    int64_t inner[2] = {16, 16};
    if (src->fractal == 32)
        inner[1] = 2;
    else if (src->fractal == 512)
        inner[src->slayout == PTOC_PTO_SL_ROW_MAJOR ? 1 : 0] = bytes ? 32 / bytes : 1;
    int64_t sizes[2] = {dst->rows, dst->cols}, off;
    for (uint32_t i = 0; i < 2; i++) {
        if (sizes[i] % inner[i] != 0) {
            ptoc_op_emit_error(op, "a boxed source's subset sizes must be multiples of its %lldx%lld box",
                               (long long)inner[0], (long long)inner[1]);
            return false;
        }
        if (op->noperands > 1 + i && constant_int(ptoc_op_operand(op, 1 + i), &off) && (off < 0 || off % inner[i])) {
            ptoc_op_emit_error(op, "a boxed source's subset offsets must be non-negative multiples of its "
                                   "%lldx%lld box", (long long)inner[0], (long long)inner[1]);
            return false;
        }
    }
    uint32_t keep = src->blayout == PTOC_PTO_BL_ROW_MAJOR ? 1 : 0;
    int64_t full = keep ? src->cols : src->rows;
    if (sizes[keep] != full || op->noperands <= 1 + keep || !constant_int(ptoc_op_operand(op, 1 + keep), &off) ||
        off != 0) {
        ptoc_op_emit_error(op, "a boxed %s source's subset keeps every %s (offset 0, size %lld)",
                           keep ? "row_major" : "col_major", keep ? "column" : "row", (long long)full);
        return false;
    }
    return true;
}

bool pto_verify_subset(const ptoc_op *op)
{
    if (!pto_verify_structure(op) || !expect_indexes(op, "an offset", 1, op->noperands - 1))
        return false;
    if (any_memref(op))
        return true;
    if (op->noperands != 3) {
        ptoc_op_emit_error(op, "takes two offsets (row, col), got %u", op->noperands - 1);
        return false;
    }
    char why[160];
    ptoc_value *ops[3] = {ptoc_op_operand(op, 0), ptoc_op_operand(op, 1), ptoc_op_operand(op, 2)};
    ptoc_type *want = pto_subset_result_type(ptoc_op_context(op), ops, 3, ptoc_op_attr(op, "sizes"), why, sizeof why);
    if (!want) {
        ptoc_op_emit_error(op, "%s", why);
        return false;
    }
    if (op->results[0].type != want)
        return fail_type(op, "the result", op->results[0].type, "the subset's inferred type");
    const ptoc_pto_tile_desc *src = ptoc_pto_tile_buf(ops[0]->type), *dst = ptoc_pto_tile_buf(want);
    if (!ptoc_pto_tile_check(ptoc_op_context(op), op->loc, dst))
        return false;
    return src->slayout == PTOC_PTO_SL_NONE_BOX || check_boxed_subset(op, src, dst);
}

/* ---------------------------------------------------------------- event-id arrays */

bool pto_verify_eventid_access(const ptoc_op *op)
{
    if (!pto_verify_structure(op))
        return false;
    const ptoc_type *a = ptoc_op_operand(op, 0)->type;
    bool get = ptoc_pto_is(op, PTOC_PTO_OP_EVENTID_ARRAY_GET);
    return pto_check_type(op, "the array", a, ptoc_pto_type_is(a, PTOC_PTO_TYPE_EVENTID_ARRAY), "a !pto.eventid_array") &&
           expect_indexes(op, get ? "the index" : "the index and the value", 1, op->noperands - 1) &&
           (!get || pto_check_type(op, "the result", op->results[0].type, is_index(op->results[0].type), "index"));
}

/* ---------------------------------------------------------------- element types */

enum {
    ET_I8 = 1u << 0, ET_I16 = 1u << 1, ET_I32 = 1u << 2, ET_F16 = 1u << 3, ET_BF16 = 1u << 4, ET_F32 = 1u << 5,
    ET_F8 = 1u << 6,
};

/* The class of a tile element type (integers of any signedness). */
static uint32_t elem_class(const ptoc_type *t)
{
    if (ptoc_type_is_int(t)) {
        uint32_t w = ptoc_type_bitwidth(t);
        return w == 8 ? ET_I8 : w == 16 ? ET_I16 : w == 32 ? ET_I32 : 0;
    }
    if (!ptoc_type_is_float(t))
        return 0;
    switch (t->u.fp.kind) {
    case PTOC_F16: return ET_F16;
    case PTOC_BF16: return ET_BF16;
    case PTOC_F32: return ET_F32;
    default: return ptoc_type_bitwidth(t) == 8 ? ET_F8 : 0;
    }
}

static bool expect_elem(const ptoc_op *op, const char *name, const ptoc_type *elem, uint32_t ok, ptoc_pto_arch arch,
                        const char *allowed)
{
    if (elem_class(elem) & ok)
        return true;
    ptoc_strbuf sb;
    type_text(&sb, op, elem);
    ptoc_op_emit_error(op, "%s element type %s is not supported on %s (expected %s)", name, ptoc_strbuf_cstr(&sb),
                       ptoc_pto_arch_name(arch), allowed);
    ptoc_strbuf_free(&sb);
    return false;
}

/* A tile operand in vec with the row_major blayout. */
static bool expect_vec_row_major(const ptoc_op *op, const char *name, const ptoc_pto_tile_desc *t)
{
    if (t->loc == PTOC_PTO_AS_VEC && t->blayout == PTOC_PTO_BL_ROW_MAJOR)
        return true;
    ptoc_op_emit_error(op, "%s must be a row_major tile in loc=vec, got loc=%s blayout=%s", name,
                       ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, t->loc),
                       ptoc_pto_enum_name(PTOC_PTO_ENUM_BLAYOUT, t->blayout));
    return false;
}

/* A tile whose valid columns are all of its columns (or unknown). */
static bool expect_full_cols(const ptoc_op *op, const char *name, const ptoc_pto_tile_desc *t)
{
    if (t->valid_cols == PTOC_DYNAMIC || t->valid_cols == t->cols)
        return true;
    ptoc_op_emit_error(op, "%s must have all its %lld columns valid, got %lld", name, (long long)t->cols,
                       (long long)t->valid_cols);
    return false;
}

/* The tile descriptions of operands [0, n) (ins then outs); false when an
 * operand is not a tile. */
static bool tiles_of(const ptoc_op *op, const char *const *names, uint32_t n, const ptoc_pto_tile_desc **out)
{
    for (uint32_t i = 0; i < n; i++) {
        if (!names[i])
            continue;
        const ptoc_type *t = ptoc_op_operand(op, i)->type;
        if (!(out[i] = ptoc_pto_tile_like(t)))
            return fail_type(op, names[i], t, "a tile");
    }
    return true;
}

/* ---------------------------------------------------------------- tgather */

/* Stored as ins ++ outs: index form (src, indices, tmp | dst), compare form
 * (src, kValue, tmp | dst, cdst), mask form (src | dst) with maskPattern. */
static bool verify_gather_mask(const ptoc_op *op, ptoc_pto_arch arch)
{
    static const char *const names[] = {"src", "dst"};
    const ptoc_pto_tile_desc *t[2];
    bool a5 = arch != PTOC_PTO_ARCH_A2 && arch != PTOC_PTO_ARCH_A3;
    if (!tiles_of(op, names, 2, t) || !expect_vec_row_major(op, "src", t[0]) ||
        !expect_vec_row_major(op, "dst", t[1]) || !expect_full_cols(op, "dst", t[1]))
        return false;
    if (pto_elem_bytes(t[0]->elem) != pto_elem_bytes(t[1]->elem)) {
        ptoc_op_emit_error(op, "src and dst elements must have the same size");
        return false;
    }
    uint32_t ok = a5 ? ET_I8 | ET_I16 | ET_I32 | ET_F16 | ET_BF16 | ET_F32 | ET_F8 : ET_I16 | ET_I32 | ET_F16 | ET_F32;
    const char *allowed = a5 ? "8-, 16- or 32-bit integers, f16, bf16, f32 or an f8 type" : "2- or 4-byte elements";
    return expect_elem(op, "mask-form src", t[0]->elem, ok, arch, allowed);
}

static bool verify_gather_index(const ptoc_op *op, ptoc_pto_arch arch)
{
    static const char *const names[] = {"src", "indices", "tmp", "dst"};
    const ptoc_pto_tile_desc *t[4];
    bool a5 = arch != PTOC_PTO_ARCH_A2 && arch != PTOC_PTO_ARCH_A3;
    if (!tiles_of(op, names, 4, t))
        return false;
    if (t[0]->elem != t[3]->elem) {
        ptoc_op_emit_error(op, "src and dst must have the same element type");
        return false;
    }
    uint32_t ok = a5 ? ET_I8 | ET_I16 | ET_I32 | ET_F16 | ET_F32 : ET_I16 | ET_I32 | ET_F16 | ET_F32;
    if (!expect_elem(op, "index-form src", t[0]->elem, ok, arch, a5 ? "i8, i16, i32, f16 or f32" : "i16, i32, f16 or f32") ||
        !expect_elem(op, "indices", t[1]->elem, a5 ? ET_I16 | ET_I32 : ET_I32, arch, a5 ? "i16 or i32" : "i32") ||
        !ptoc_type_is_int(t[1]->elem) || !expect_full_cols(op, "dst", t[3]) || !expect_full_cols(op, "indices", t[1]))
        return false;
    if (!a5 && (t[2]->elem != t[1]->elem || t[2]->valid_rows != t[1]->valid_rows ||
                t[2]->valid_cols != t[1]->valid_cols)) {
        ptoc_op_emit_error(op, "tmp must have the indices' element type and valid shape on %s",
                           ptoc_pto_arch_name(arch));
        return false;
    }
    return true;
}

static bool verify_gather_compare(const ptoc_op *op, ptoc_pto_arch arch)
{
    static const char *const names[] = {"src", NULL, "tmp", "dst", "cdst"};
    const ptoc_pto_tile_desc *t[5];
    bool a5 = arch != PTOC_PTO_ARCH_A2 && arch != PTOC_PTO_ARCH_A3;
    uint32_t mode = PTOC_PTO_CMP_EQ;
    ptoc_attr *m = ptoc_op_attr(op, "cmpMode");
    if (!tiles_of(op, names, 5, t))
        return false;
    if (m && !ptoc_pto_enum_value(m, PTOC_PTO_ENUM_CMP, &mode)) {
        ptoc_op_emit_error(op, "cmpMode must be a #pto<cmp ...> attribute");
        return false;
    }
    if (mode != PTOC_PTO_CMP_EQ && mode != PTOC_PTO_CMP_GT) {
        ptoc_op_emit_error(op, "the compare form compares with eq or gt, got %s",
                           ptoc_pto_enum_name(PTOC_PTO_ENUM_CMP, mode));
        return false;
    }
    if (!(elem_class(t[3]->elem) & ET_I32) || t[4]->elem != t[3]->elem) {
        ptoc_op_emit_error(op, "dst and cdst must both have 32-bit integer elements");
        return false;
    }
    const ptoc_type *k = ptoc_op_operand(op, 1)->type;
    if (k != t[0]->elem)
        return fail_type(op, "kValue", k, "src's element type");
    uint32_t ok = a5 || mode == PTOC_PTO_CMP_EQ ? ET_I32 | ET_F16 | ET_F32 : ET_F16 | ET_F32;
    if (a5)
        ok |= ET_I16;
    if (!expect_elem(op, "compare-form src", t[0]->elem, ok, arch,
                     a5 ? "i16, i32, f16 or f32" : "f16 or f32, or i32 with cmpMode = eq"))
        return false;
    static const char *const order[] = {"src", "tmp", "dst", "cdst"};
    const ptoc_pto_tile_desc *all[] = {t[0], t[2], t[3], t[4]};
    for (uint32_t i = 0; i < 4; i++)
        if (!expect_vec_row_major(op, order[i], all[i]))
            return false;
    return true;
}

bool pto_verify_tgather(const ptoc_op *op)
{
    uint32_t nins, nouts;
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op) || !ptoc_pto_dps_split(op, &nins, &nouts))
        return false;
    ptoc_attr *mask = ptoc_op_attr(op, "maskPattern"), *offset = ptoc_op_attr(op, "offset");
    uint32_t v;
    if (mask && !ptoc_pto_enum_value(mask, PTOC_PTO_ENUM_MASK_PATTERN, &v)) {
        ptoc_op_emit_error(op, "maskPattern must be a #pto.mask_pattern<...> attribute");
        return false;
    }
    if (offset && (offset->kind != PTOC_ATTR_INTEGER || ptoc_type_bitwidth(offset->u.integer.type) != 32)) {
        ptoc_op_emit_error(op, "offset must be an i32 attribute");
        return false;
    }
    bool compare = nouts == 2 || (nins >= 2 && !ptoc_pto_tile_like(ptoc_op_operand(op, 1)->type) &&
                                  ptoc_op_operand(op, 1)->type->kind != PTOC_TYPE_MEMREF);
    const char *why = NULL;
    if (mask && (nins != 1 || nouts != 1))
        why = "the mask form takes src and dst only";
    else if (!mask && compare && (nins != 3 || nouts != 2))
        why = "the compare form takes ins(src, kValue, tmp) and outs(dst, cdst)";
    else if (!mask && !compare && (nins != 3 || nouts != 1))
        why = "the index form takes ins(src, indices, tmp) and outs(dst)";
    if (why) {
        ptoc_op_emit_error(op, "%s", why);
        return false;
    }
    if (any_memref(op))
        return true;
    if (!pto_verify_arch(op, &arch))
        return false;
    return mask ? verify_gather_mask(op, arch) : compare ? verify_gather_compare(op, arch) : verify_gather_index(op, arch);
}

/* ---------------------------------------------------------------- tmov */

/* The operands of a tmov in any of its layouts: PTOAS's four segments (src,
 * dst, fp?, preQuantScalar?), the passes' plain copy (src, dst with two
 * segments of one), or Level 1 (src -> result). */
typedef struct tmov_parts { const ptoc_type *src, *dst, *fp, *pre; } tmov_parts;

static bool tmov_parts_of(const ptoc_op *op, tmov_parts *m)
{
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    memset(m, 0, sizeof *m);
    if (!seg) {
        if (op->noperands != 1 || op->nresults != 1) {
            ptoc_op_emit_error(op, "without ins/outs, takes one tile and returns one");
            return false;
        }
        m->src = ptoc_op_operand(op, 0)->type;
        m->dst = op->results[0].type;
        return true;
    }
    bool four = nseg == 4 && seg[2] >= 0 && seg[2] <= 1 && seg[3] >= 0 && seg[3] <= 1;
    if (seg[0] != 1 || seg[1] != 1 || !(four || nseg == 2) ||
        (four ? 2 + seg[2] + seg[3] : 2) != (int64_t)op->noperands) {
        ptoc_op_emit_error(op, "'" PTOC_SEGMENT_SIZES_ATTR "' must be array<i32: 1, 1, f, q> (src, dst, fp, "
                               "preQuantScalar; f, q = 0 or 1)");
        return false;
    }
    m->src = ptoc_op_operand(op, 0)->type;
    m->dst = ptoc_op_operand(op, 1)->type;
    if (four && seg[2])
        m->fp = ptoc_op_operand(op, 2)->type;
    if (four && seg[3])
        m->pre = ptoc_op_operand(op, 2 + (uint32_t)seg[2])->type;
    return true;
}

/* The address-space pairs a tmov moves between. */
static bool tmov_pair_ok(uint32_t s, uint32_t d, bool a5)
{
    bool mat_to_tile = s == PTOC_PTO_AS_MAT && (d == PTOC_PTO_AS_LEFT || d == PTOC_PTO_AS_RIGHT ||
                                                 d == PTOC_PTO_AS_BIAS || d == PTOC_PTO_AS_SCALING);
    bool from_acc = s == PTOC_PTO_AS_ACC && (d == PTOC_PTO_AS_MAT || d == PTOC_PTO_AS_VEC);
    bool vec = s == PTOC_PTO_AS_VEC && (d == PTOC_PTO_AS_VEC || (a5 && d == PTOC_PTO_AS_MAT));
    return mat_to_tile || from_acc || vec;
}

static bool verify_tmov_modes(const ptoc_op *op, const tmov_parts *m, const ptoc_pto_tile_desc *src,
                              const ptoc_pto_tile_desc *dst)
{
    ptoc_attr *acc2vec = ptoc_op_attr(op, "accToVecMode"), *relu = ptoc_op_attr(op, "reluPreMode");
    uint32_t v = 0;
    bool from_acc = src->loc == PTOC_PTO_AS_ACC;
    if (acc2vec && !ptoc_pto_enum_value(acc2vec, PTOC_PTO_ENUM_ACC_TO_VEC_MODE, &v)) {
        ptoc_op_emit_error(op, "accToVecMode must be a #pto.acc_to_vec_mode<...> attribute");
        return false;
    }
    if (relu && !ptoc_pto_enum_value(relu, PTOC_PTO_ENUM_RELU_PRE_MODE, &v)) {
        ptoc_op_emit_error(op, "reluPreMode must be a #pto<relu_pre_mode ...> attribute");
        return false;
    }
    const char *why = acc2vec && !(from_acc && dst->loc == PTOC_PTO_AS_VEC) ? "accToVecMode is for acc-to-vec moves"
                      : relu && v != 0 && !from_acc                          ? "reluPreMode needs an acc source"
                      : m->pre && !from_acc                                  ? "a pre-quant scalar needs an acc source"
                      : m->fp && !from_acc                                   ? "an fp tile needs an acc source"
                                                                             : NULL;
    if (why) {
        ptoc_op_emit_error(op, "%s", why);
        return false;
    }
    if (m->pre && !(ptoc_type_is_int(m->pre) && ptoc_type_bitwidth(m->pre) == 64))
        return fail_type(op, "the pre-quant scalar", m->pre, "i64");
    if (!m->fp)
        return true;
    const ptoc_pto_tile_desc *fp = ptoc_pto_tile_like(m->fp);
    if (!fp || fp->loc != PTOC_PTO_AS_SCALING)
        return fail_type(op, "fp", m->fp, "a tile in loc=scaling");
    if (!(elem_class(src->elem) & (ET_I32 | ET_F32))) {
        ptoc_op_emit_error(op, "the fp form moves f32 or i32 accumulators");
        return false;
    }
    return true;
}

bool pto_verify_tmov(const ptoc_op *op)
{
    tmov_parts m;
    ptoc_pto_arch arch;
    if (!tmov_parts_of(op, &m))          /* its own counts: the row's are DPS counts */
        return false;
    if (m.fp && m.pre) {
        ptoc_op_emit_error(op, "takes an fp tile or a pre-quant scalar, not both");
        return false;
    }
    if (m.src->kind == PTOC_TYPE_MEMREF || m.dst->kind == PTOC_TYPE_MEMREF || (m.fp && m.fp->kind == PTOC_TYPE_MEMREF))
        return true;
    const ptoc_pto_tile_desc *src = ptoc_pto_tile_like(m.src), *dst = ptoc_pto_tile_like(m.dst);
    if (!src)
        return fail_type(op, "src", m.src, "a tile");
    if (!dst)
        return fail_type(op, "dst", m.dst, "a tile");
    if (!pto_verify_arch(op, &arch))
        return false;
    bool a5 = arch != PTOC_PTO_ARCH_A2 && arch != PTOC_PTO_ARCH_A3;
    if (!tmov_pair_ok(src->loc, dst->loc, a5)) {
        ptoc_op_emit_error(op, "cannot move a tile from loc=%s to loc=%s on %s",
                           ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, src->loc),
                           ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, dst->loc), ptoc_pto_arch_name(arch));
        return false;
    }
    if ((src->loc == PTOC_PTO_AS_MAT || !a5) && (src->rows != dst->rows || src->cols != dst->cols)) {
        ptoc_op_emit_error(op, "src shape %lldx%lld does not match dst shape %lldx%lld", (long long)src->rows,
                           (long long)src->cols, (long long)dst->rows, (long long)dst->cols);
        return false;
    }
    return verify_tmov_modes(op, &m, src, dst);
}
