/* lower_pto_mem.c: tiles, views and data movement for the cpu target.
 *
 * Tiles: alloc_tile, tassign and memref.alloc/alloca in an on-chip space build
 * the tile aggregate {offset, valid rows, valid cols} (cg_tile_make checks the
 * offset against its space); an address-less tile gets sequential placement
 * (cg_place). GM buffers are never allocated by a kernel: they come from the
 * caller as pointers, so memref.alloc in GM is a diagnostic.
 *
 * Views: make_tensor_view and partition_view build the view aggregate {base,
 * [5 x i64] shape, [5 x i64] strides, origin}. A rank-k view fills the last k
 * slots (leading slots: shape 1, stride 0), as pto-isa's 5-D GlobalTensor
 * does, so every later rule sees five dims; origin is the pointer the view was
 * made from, kept through partitions for the GM checks. A GM memref operand is
 * read as a view with row-major strides from its static shape.
 *
 * tload/tstore move a view's window to or from a tile's valid region with the
 * mapping of the view's GM layout (layout_maps below: nd, dn, nz, as pto-isa's
 * GlobalTensor layouts), which also fixes the valid shape the tile must have;
 * the layout is the op's `layout` attribute, else the one of the
 * make_tensor_view its view comes from, else nd. A transfer walks lines (tile
 * rows; tile columns for dn): a line goes through llvm.memcpy when it is
 * contiguous on both sides, otherwise element by element; on a target with
 * DMA copies (a5, a2a3) lines go as bursts of them instead (DMA bursts
 * below). With the codegen option gm_checks each transfer first
 * calls ptoc_rt_gm_check with its window.
 *
 * Padding: a tload may then fill each valid line's tail, elements [valid,
 * min(extent, round_up(valid, 32 / esize))) along the line, as the NPU's DMA
 * does (rows from an nd view, columns of a col_major tile from a dn view; the
 * NZ load never pads); nothing else of the tile is written. The value comes
 * from tload's `pad_mode` clause, else from the tile type:
 *   PadValue      `pad_value = %v : T`, converted to the tile's dtype as a
 *                 compute op's store converts (cg_convert: float -> int
 *                 truncates and saturates, NaN -> 0; int -> int keeps the
 *                 low bits; f16/bf16 round to nearest even); overrides pad=.
 *   PadFirstElem  the line's own first element (tile element (r, 0) of a
 *                 row), HIVM's rule: hivm.hir.load, whose clauses pto.tload
 *                 copies, pads with the source's [.., 0:1] slice broadcast
 *                 along the row.
 *   PadNull / no clause   the tile type's pad= (null: no padding). PTOAS
 *                 drops the clause when it emits TLOAD(dst, src), so the tile
 *                 type is what it pads with; PadNull is the clause's default.
 * pad_value without PadValue, PadValue without pad_value, and the other DMA
 * clauses (left/right_padding_num, init_out_buffer, init_condition) are
 * diagnostics.
 *
 * Static facts are checked at compile time when the values are constants (the
 * LLVM builder folds constant arithmetic, and known_member below reads fields
 * of aggregates built in the same function), and at run time otherwise:
 * PTOC_RT_TRAP_VIEW (offset, size, extent) for a partition_view out of bounds,
 * PTOC_RT_TRAP_VIEW_SHAPE (tile valid extent, view extent, dim 0 rows / 1
 * cols) for a tload/tstore whose shapes disagree.
 *
 * Sync ops lower to nothing (a plain run is synchronous); with the codegen
 * option pipe_events, pipe_events.c adds their calls to the pipe simulator
 * after them. get_block_idx/num call the runtime.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen_internal.h"
#include "ptoc/runtime.h"
#include "ptoc/syntax.h"

#define RANK PTOC_PTO_MAX_VIEW_RANK

/* Fields of cg->view_ty. */
enum { VIEW_BASE, VIEW_SHAPE, VIEW_STRIDES, VIEW_ORIGIN };

/* A view operand resolved for emission: i64 values, constants where known.
 * `origin` is the pointer the view was made from (the GM checks find its
 * buffer by it); `base` is the window's element 0. */
typedef struct view {
    LLVMValueRef base, origin;
    LLVMValueRef shape[RANK], stride[RANK];
    const ptoc_type *elem;
    uint32_t rank;             /* as written: its dims are the last `rank` of the five */
} view;

/* ---------------------------------------------------------------- small arithmetic */

static bool const_of(LLVMValueRef v, int64_t *out)
{
    if (!v || !LLVMIsAConstantInt(v))
        return false;
    *out = LLVMConstIntGetSExtValue(v);
    return true;
}

static bool is_const(LLVMValueRef v, int64_t want)
{
    int64_t k;
    return const_of(v, &k) && k == want;
}

/* add/mul that fold neutral and zero operands, so -O0 output stays readable. */
static LLVMValueRef add(cg *g, LLVMValueRef a, LLVMValueRef b)
{
    if (is_const(a, 0))
        return b;
    if (is_const(b, 0))
        return a;
    return LLVMBuildAdd(g->b, a, b, "");
}

static LLVMValueRef mul(cg *g, LLVMValueRef a, LLVMValueRef b)
{
    if (is_const(a, 0) || is_const(b, 0))
        return cg_i64(g, 0);
    if (is_const(a, 1))
        return b;
    if (is_const(b, 1))
        return a;
    return LLVMBuildMul(g->b, a, b, "");
}

static LLVMValueRef min_i64(cg *g, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, a, b, ""), a, b, "");
}

/* An integer type as wide as one element: elements are moved as bits. */
static LLVMTypeRef bits_type(cg *g, uint32_t esize)
{
    return LLVMIntTypeInContext(g->llctx, esize * 8);
}

/* ---------------------------------------------------------------- aggregates */

/* Member `idx` of `agg` when it is known without emitting code: `agg` is a
 * constant or a chain of insertvalues built in this function. */
static LLVMValueRef known_member(LLVMValueRef agg, unsigned idx)
{
    while (agg && LLVMIsAInsertValueInst(agg)) {
        if (LLVMGetNumIndices(agg) == 1 && LLVMGetIndices(agg)[0] == idx)
            return LLVMGetOperand(agg, 1);
        agg = LLVMGetOperand(agg, 0);
    }
    if (agg && LLVMIsAConstant(agg) && !LLVMIsUndef(agg) && !LLVMIsPoison(agg))
        return LLVMGetAggregateElement(agg, idx);
    return NULL;
}

static LLVMValueRef view_member(cg *g, LLVMValueRef agg, unsigned idx)
{
    LLVMValueRef v = known_member(agg, idx);
    return v ? v : LLVMBuildExtractValue(g->b, agg, idx, "");
}

static LLVMValueRef build_dims(cg *g, const LLVMValueRef *dims)
{
    LLVMValueRef arr = LLVMGetUndef(LLVMArrayType2(g->i64, RANK));
    for (unsigned k = 0; k < RANK; k++)
        arr = LLVMBuildInsertValue(g->b, arr, dims[k], k, "");
    return arr;
}

static LLVMValueRef build_view(cg *g, const view *v)
{
    LLVMValueRef agg = LLVMGetUndef(g->view_ty);
    agg = LLVMBuildInsertValue(g->b, agg, v->base, VIEW_BASE, "");
    agg = LLVMBuildInsertValue(g->b, agg, build_dims(g, v->shape), VIEW_SHAPE, "");
    agg = LLVMBuildInsertValue(g->b, agg, build_dims(g, v->stride), VIEW_STRIDES, "");
    return LLVMBuildInsertValue(g->b, agg, v->origin, VIEW_ORIGIN, "view");
}

/* The static strides of a `strided<[s0, s1, ...], offset: X>` layout (its
 * offset is in the memref's pointer: memref.reinterpret_cast applies it); false
 * for another layout or a dynamic stride. */
static bool strided_layout(const ptoc_attr *layout, uint32_t rank, int64_t *strides)
{
    if (layout->kind != PTOC_ATTR_OPAQUE || strncmp(layout->u.opaque.body->str, "strided<[", 9) != 0)
        return false;
    const char *p = layout->u.opaque.body->str + 9;
    for (uint32_t k = 0; k < rank; k++) {
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p)
            return false;
        strides[k] = v;
        for (p = end; *p == ' ' || (*p == ',' && k + 1 < rank); p++)
            ;
    }
    return *p == ']';
}

/* A GM memref as a view: row-major strides from its static shape, or the
 * static strides of its strided<> layout. */
static bool memref_view(cg *g, const ptoc_value *val, ptoc_loc loc, view *out)
{
    const ptoc_type *t = val->type;
    ptoc_pto_address_space space;
    uint32_t rank = t->u.shaped.rank;
    int64_t strides[RANK];
    if (!ptoc_pto_memref_space(t, &space) || space != PTOC_PTO_AS_GM || rank > RANK ||
        (t->u.shaped.layout && !strided_layout(t->u.shaped.layout, rank, strides))) {
        ptoc_emit_error(g->ctx, loc, "only a GM memref of rank <= 5 with the identity layout or static strides "
                        "can be used as a view by the cpu target");
        return false;
    }
    int64_t stride = 1;
    for (uint32_t k = 0; k < RANK; k++) {
        out->shape[k] = cg_i64(g, 1);
        out->stride[k] = cg_i64(g, 0);
    }
    for (uint32_t k = rank; k-- > 0;) {
        int64_t d = t->u.shaped.shape[k];
        if (d == PTOC_DYNAMIC) {
            ptoc_emit_error(g->ctx, loc, "a GM memref used as a view needs a static shape on the cpu target "
                            "(a memref argument is a bare pointer: its dynamic sizes are not passed)");
            return false;
        }
        out->shape[RANK - rank + k] = cg_i64(g, d);
        out->stride[RANK - rank + k] = cg_i64(g, t->u.shaped.layout ? strides[k] : stride);
        stride *= d;
    }
    out->base = out->origin = cg_get(g, val);
    out->elem = t->u.shaped.elem;
    out->rank = rank;
    return out->base != NULL;
}

/* Resolves a tensor_view, partition view or GM memref operand. Dims the type
 * makes static are taken from the type. */
static bool view_of(cg *g, const ptoc_value *val, ptoc_loc loc, view *out)
{
    if (val->type->kind == PTOC_TYPE_MEMREF)
        return memref_view(g, val, loc, out);
    const ptoc_pto_view *vt = ptoc_pto_partition_view(val->type);
    if (!vt)
        vt = ptoc_pto_tensor_view(val->type);
    if (!vt) {
        ptoc_emit_error(g->ctx, loc, "expected a view or a GM memref here: other operands are not supported by "
                        "the cpu target");
        return false;
    }
    LLVMValueRef agg = cg_get(g, val);
    if (!agg)
        return false;
    LLVMValueRef shape = view_member(g, agg, VIEW_SHAPE), strides = view_member(g, agg, VIEW_STRIDES);
    out->base = view_member(g, agg, VIEW_BASE);
    out->origin = view_member(g, agg, VIEW_ORIGIN);
    out->elem = vt->elem;
    out->rank = vt->rank;
    for (uint32_t k = 0; k < RANK; k++) {
        uint32_t lead = RANK - vt->rank;
        int64_t d = k >= lead ? vt->shape[k - lead] : 1;
        out->shape[k] = d != PTOC_DYNAMIC ? cg_i64(g, d) : view_member(g, shape, k);
        out->stride[k] = view_member(g, strides, k);
    }
    return true;
}

/* ---------------------------------------------------------------- tiles */

static uint64_t tile_bytes(const ptoc_pto_tile_desc *d)
{
    return (uint64_t)d->rows * (uint64_t)d->cols * cg_elem_size(d->elem);
}

/* Sets `result` to a tile of its type at `offset` (NULL: placed sequentially). */
static bool make_tile(cg *g, const ptoc_value *result, LLVMValueRef offset, LLVMValueRef vrows,
                      LLVMValueRef vcols, ptoc_loc loc)
{
    ptoc_pto_tile_desc d;
    if (!cg_tile_desc_of(result->type, &d)) {
        ptoc_emit_error(g->ctx, loc, "this tile type is not supported by the cpu target (tiles are 2-D)");
        return false;
    }
    if (!offset && !(offset = cg_place(g, d.loc, tile_bytes(&d), loc)))
        return false;
    LLVMValueRef agg = cg_tile_make(g, result->type, offset, vrows, vcols, loc);
    if (!agg)
        return false;
    cg_set(g, result, agg);
    return true;
}

/* A valid dim: the operand when given, else the static one from the type (a
 * dynamic dim without an operand starts as the whole physical dim). */
static LLVMValueRef valid_dim(cg *g, const ptoc_value *operand, int64_t valid, int64_t physical)
{
    if (operand)
        return cg_get(g, operand);
    return cg_i64(g, valid != PTOC_DYNAMIC ? valid : physical);
}

/* The address ptoc_pto_buffer_addr gives `op`'s buffer as an i64, or NULL (no
 * address given: *given false, nothing emitted; an error: *given true). */
static LLVMValueRef buffer_addr(cg *g, ptoc_op *op, bool *given)
{
    ptoc_pto_addr a = ptoc_pto_buffer_addr(op);
    *given = a.given;
    if (!a.given)
        return NULL;
    return a.value ? cg_get(g, a.value) : cg_i64(g, a.offset);
}

/* `pto.alloc_tile [addr = %a] [valid_row = %r] [valid_col = %c] : T` */
static bool lower_alloc_tile(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(op->results[0].type);
    ptoc_value *given[2];                               /* valid_row, valid_col */
    ptoc_pto_alloc_tile_valid(op, given);
    bool placed;
    LLVMValueRef offset = buffer_addr(g, op, &placed);
    if (placed && !offset)
        return false;
    LLVMValueRef vrows = valid_dim(g, given[0], d->valid_rows, d->rows);
    LLVMValueRef vcols = valid_dim(g, given[1], d->valid_cols, d->cols);
    return vrows && vcols && make_tile(g, &op->results[0], offset, vrows, vcols, op->loc);
}

/* `pto.tassign %tile, %addr : T -> T` (or `tile(N)`): the same tile (valid
 * shape kept) at the address. */
static bool lower_tassign(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile t;
    bool given;
    LLVMValueRef addr = buffer_addr(g, op, &given);
    return addr && cg_op_in(g, op, 0, &t) &&
           make_tile(g, &op->results[0], addr, t.vrows, t.vcols, op->loc);
}

/* memref.alloc / memref.alloca: a tile in an on-chip space, placed sequentially. */
static bool lower_memref_alloc(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *t = op->results[0].type;
    ptoc_pto_address_space space;
    if (!ptoc_pto_memref_space(t, &space)) {
        ptoc_op_emit_error(op, "a memref whose memory space is not a #pto.address_space is not supported by the "
                           "cpu target");
        return false;
    }
    if (space == PTOC_PTO_AS_GM || space == PTOC_PTO_AS_ZERO) {
        ptoc_op_emit_error(op, "a memref in GM is not supported by the cpu target: GM buffers come from the "
                           "caller (pass a pointer or memref argument); allocate on-chip memory with "
                           "#pto.address_space<...>");
        return false;
    }
    if (op->noperands > 0) {
        ptoc_op_emit_error(op, "an on-chip memref with dynamic sizes is not supported by the cpu target");
        return false;
    }
    ptoc_pto_tile_desc d;
    if (!cg_tile_desc_of(t, &d)) {
        ptoc_op_emit_error(op, "this on-chip memref is not supported by the cpu target (a tile is a memref "
                           "of rank 1 to 5 with a static shape)");
        return false;
    }
    /* pto-insert-tassign gives a planned memref its offset as `pto.addr`. */
    ptoc_attr *addr = ptoc_op_attr(op, "pto.addr");
    LLVMValueRef offset = NULL;
    if (addr && addr->kind == PTOC_ATTR_INTEGER)
        offset = cg_i64(g, addr->u.integer.value);
    else if (addr) {
        ptoc_op_emit_error(op, "pto.addr must be an integer attribute (a byte offset)");
        return false;
    }
    return make_tile(g, &op->results[0], offset, cg_i64(g, d.valid_rows), cg_i64(g, d.valid_cols), op->loc);
}

/* memref.dealloc: sequential placement never reuses memory, so nothing to do. */
static bool lower_nothing(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)g;
    (void)op;
    (void)rule;
    return true;
}

/* ---------------------------------------------------------------- views */

/* Operand `first + k` for k < n as i64 values. */
static bool operand_list(cg *g, ptoc_op *op, uint32_t first, uint32_t n, LLVMValueRef *out)
{
    for (uint32_t k = 0; k < n; k++)
        if (!(out[k] = cg_get(g, ptoc_op_operand(op, first + k))))
            return false;
    return true;
}

/* `pto.make_tensor_view %ptr, shape = [...], strides = [...] : !pto.tensor_view<...>` */
static bool lower_make_tensor_view(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_pto_view *vt = ptoc_pto_tensor_view(op->results[0].type);
    uint32_t rank = vt->rank, lead = RANK - rank;
    view v = {.rank = rank};
    for (uint32_t k = 0; k < lead; k++) {
        v.shape[k] = cg_i64(g, 1);
        v.stride[k] = cg_i64(g, 0);
    }
    if (!(v.base = v.origin = cg_get(g, ptoc_op_operand(op, 0))) || !operand_list(g, op, 1, rank, v.shape + lead) ||
        !operand_list(g, op, 1 + rank, rank, v.stride + lead))
        return false;
    for (uint32_t k = 0; k < rank; k++) {
        int64_t given;
        if (vt->shape[k] != PTOC_DYNAMIC && const_of(v.shape[lead + k], &given) && given != vt->shape[k]) {
            ptoc_op_emit_error(op, "shape operand %u is %lld but the view type says %lld", k, (long long)given,
                               (long long)vt->shape[k]);
            return false;
        }
    }
    cg_set(g, &op->results[0], build_view(g, &v));
    return true;
}

/* offset + size <= extent (and offset >= 0), at compile time when all three are
 * constants, else at run time. */
static bool check_window(cg *g, ptoc_op *op, uint32_t dim, LLVMValueRef offset, LLVMValueRef size,
                         LLVMValueRef extent)
{
    int64_t o, s, e;
    if (const_of(offset, &o) && const_of(size, &s) && const_of(extent, &e)) {
        if (o >= 0 && s >= 0 && o <= e && s <= e - o)
            return true;
        ptoc_op_emit_error(op, "partition out of bounds in dim %u: offset %lld + size %lld > extent %lld", dim,
                           (long long)o, (long long)s, (long long)e);
        return false;
    }
    LLVMValueRef bad = LLVMBuildICmp(g->b, LLVMIntSGT, LLVMBuildAdd(g->b, offset, size, ""), extent, "");
    if (!const_of(offset, &o) || o < 0)
        bad = LLVMBuildOr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, offset, cg_i64(g, 0), ""), bad, "");
    cg_trap_if(g, bad, PTOC_RT_TRAP_VIEW, op->loc, offset, size, extent);
    return true;
}

/* `pto.partition_view %tv, offsets = [...], sizes = [...] : A -> B`: the window
 * keeps the source's strides; its base moves by sum(offset_i * stride_i). */
static bool lower_partition_view(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_pto_view *to = ptoc_pto_partition_view(op->results[0].type);
    view src, v;
    if (!view_of(g, ptoc_op_operand(op, 0), op->loc, &src))
        return false;
    uint32_t rank = (op->noperands - 1) / 2, lead = RANK - rank;
    if (to->rank != rank) {
        ptoc_op_emit_error(op, "a rank-%u partition of a rank-%u view is not supported by the cpu target",
                           to->rank, rank);
        return false;
    }
    LLVMValueRef offsets[RANK], sizes[RANK];
    if (!operand_list(g, op, 1, rank, offsets) || !operand_list(g, op, 1 + rank, rank, sizes))
        return false;
    v = src;
    for (uint32_t k = 0; k < rank; k++) {
        v.shape[lead + k] = to->shape[k] != PTOC_DYNAMIC ? cg_i64(g, to->shape[k]) : sizes[k];
        if (!check_window(g, op, k, offsets[k], v.shape[lead + k], src.shape[lead + k]))
            return false;
    }
    LLVMValueRef elem_offset = cg_i64(g, 0);
    for (uint32_t k = 0; k < rank; k++)
        elem_offset = add(g, elem_offset, mul(g, offsets[k], src.stride[lead + k]));
    LLVMTypeRef et = bits_type(g, cg_elem_size(src.elem));
    if (!is_const(elem_offset, 0))
        v.base = LLVMBuildGEP2(g->b, et, src.base, &elem_offset, 1, "part");
    cg_set(g, &op->results[0], build_view(g, &v));
    return true;
}

/* ---------------------------------------------------------------- transfers */

typedef enum direction { TO_TILE, TO_VIEW } direction;

/* How a GM layout maps tile element (r, c) to a view element, after
 * pto-isa's GlobalTensor layouts (the cpu model's index mapping, which the
 * NPU's DMA implements for the tile layouts it pairs with each). A transfer
 * walks "lines", tile rows or (DN) tile columns; the element offset is
 * split(line over line_dims) + split(i over along_dims), i the index along
 * the line, each split fastest dim first (split_offset):
 *   nd  line r over dims 3,2,1,0   along c over dim 4      (s0 s1 s2 s3) x s4
 *   dn  line c over dims 4,2,1,0   along r over dim 3      s3 x (s0 s1 s2 s4)
 *   nz  line r over dims 3,2       along c over dims 4,1,0 (s2 s3) x (s0 s1 s4)
 * the last column being the tile's valid shape each layout requires. */
typedef struct layout_map {
    const char *name;
    bool by_columns;                 /* lines are tile columns */
    int line_dims[4], nline;
    int along_dims[3], nalong;
    const char *rule;                /* the valid shape it requires, for diagnostics */
} layout_map;

static const layout_map layout_maps[] = {
    [PTOC_PTO_LAYOUT_ND] = {"nd", false, {3, 2, 1, 0}, 4, {4}, 1, "s0*s1*s2*s3 rows and s4 columns"},
    [PTOC_PTO_LAYOUT_DN] = {"dn", true, {4, 2, 1, 0}, 4, {3}, 1, "s3 rows and s0*s1*s2*s4 columns"},
    [PTOC_PTO_LAYOUT_NZ] = {"nz", false, {3, 2}, 2, {4, 1, 0}, 3, "s2*s3 rows and s0*s1*s4 columns"},
};

/* The padding of a tload: none, one value for every line (the tile type's
 * pad= or a PadValue clause), or each line's own first element (PadFirstElem). */
typedef enum pad_fill { FILL_NONE, FILL_VALUE, FILL_FIRST_ELEM } pad_fill;

/* What one tload/tstore moves. */
typedef struct transfer {
    direction dir;
    const layout_map *map;
    view v;
    cg_tile t;
    LLVMTypeRef et;            /* iN of the element's width */
    bool contiguous_lines;     /* a tile line is contiguous (none_box, rows of row_major, columns of col_major) */
    pad_fill fill;             /* what the tail of each valid line gets */
    LLVMValueRef pad_value;    /* FILL_VALUE: the pad pattern as iN */
    ptoc_loc loc;              /* the op's */
    /* tstore on the cpu target: a tile in acc goes through the FIX pipe's
     * conversion (fix); atomic adds each element into GM. Both move element
     * by element. */
    bool convert, atomic;
    cg_fix fix;
    const cg_tile *quant_fp;   /* the fix's fp tile or pre-quant scalar, if any */
    LLVMValueRef quant_word;
} transfer;

/* The layout of a transfer: the op's own `layout` attribute, else that of the
 * partition_view / make_tensor_view chain its view comes from (PTOAS's rule),
 * else nd: a GM memref, or a view that reaches the op through a block
 * argument, whose layout only the op's attribute can give. */
static bool transfer_layout(ptoc_op *op, const ptoc_value *view_val, const layout_map **out)
{
    uint32_t layout = PTOC_PTO_LAYOUT_ND;
    ptoc_attr *own = ptoc_op_attr(op, "layout");
    if (own && !ptoc_pto_enum_value(own, PTOC_PTO_ENUM_LAYOUT, &layout)) {
        ptoc_op_emit_error(op, "layout must be a #pto.layout<nd|dn|nz> attribute");
        return false;
    }
    for (ptoc_op *def = ptoc_value_def(view_val); !own && def; def = ptoc_value_def(ptoc_op_operand(def, 0))) {
        ptoc_pto_op_id opcode = ptoc_pto_opcode(def);
        if (opcode != PTOC_PTO_OP_PARTITION_VIEW && opcode != PTOC_PTO_OP_MAKE_TENSOR_VIEW)
            break;
        ptoc_attr *a = ptoc_op_attr(def, "layout");
        if (a && ptoc_pto_enum_value(a, PTOC_PTO_ENUM_LAYOUT, &layout))
            break;
        if (opcode == PTOC_PTO_OP_MAKE_TENSOR_VIEW)
            break;
    }
    *out = &layout_maps[layout < sizeof layout_maps / sizeof layout_maps[0] ? layout : PTOC_PTO_LAYOUT_ND];
    return true;
}

static LLVMValueRef dims_product(cg *g, const view *v, const int *dims, int n)
{
    LLVMValueRef p = cg_i64(g, 1);
    for (int k = n; k-- > 0;)
        p = mul(g, p, v->shape[dims[k]]);
    return p;
}

/* The tile shape the view gives under the layout. */
static void view_tile_shape(cg *g, const layout_map *m, const view *v, LLVMValueRef *rows, LLVMValueRef *cols)
{
    LLVMValueRef lines = dims_product(g, v, m->line_dims, m->nline);
    LLVMValueRef along = dims_product(g, v, m->along_dims, m->nalong);
    *rows = m->by_columns ? along : lines;
    *cols = m->by_columns ? lines : along;
}

static void dim_text(char *buf, size_t n, LLVMValueRef v)
{
    int64_t k;
    if (const_of(v, &k))
        snprintf(buf, n, "%lld", (long long)k);
    else
        snprintf(buf, n, "?");
}

/* An nz view holds 16 x 32-byte fractals: dims 3 and 4 must be 16 and
 * 32/esize, known at compile time (pto-isa's static NZ shape rule). */
static bool check_nz_fractal(ptoc_op *op, const transfer *x)
{
    int64_t rows, cols, want = 32 / (int64_t)x->t.esize;
    if (x->map != &layout_maps[PTOC_PTO_LAYOUT_NZ] ||
        (const_of(x->v.shape[3], &rows) && rows == 16 && const_of(x->v.shape[4], &cols) && cols == want))
        return true;
    char t[2][24];
    dim_text(t[0], sizeof t[0], x->v.shape[3]);
    dim_text(t[1], sizeof t[1], x->v.shape[4]);
    ptoc_op_emit_error(op, "an nz view needs dims 3 and 4 of 16 and %lld elements (one 16 x 32-byte fractal), "
                       "known at compile time; this view has %s and %s", (long long)want, t[0], t[1]);
    return false;
}

/* The tile's valid shape must be the one the view gives under its layout: an
 * error when a dim is known to differ, else a run-time check of the unknown. */
static bool check_shapes(cg *g, ptoc_op *op, const transfer *x)
{
    if (!check_nz_fractal(op, x))
        return false;
    LLVMValueRef want[2], have[2] = {x->t.vrows, x->t.vcols};
    view_tile_shape(g, x->map, &x->v, &want[0], &want[1]);
    for (int k = 0; k < 2; k++) {
        int64_t w, h;
        if (!const_of(want[k], &w) || !const_of(have[k], &h) || w == h)
            continue;
        char t[4][24];
        dim_text(t[0], sizeof t[0], have[0]);
        dim_text(t[1], sizeof t[1], have[1]);
        dim_text(t[2], sizeof t[2], want[0]);
        dim_text(t[3], sizeof t[3], want[1]);
        ptoc_op_emit_error(op, "the tile's valid shape %sx%s does not match the view's %sx%s (layout %s: %s)", t[0],
                           t[1], t[2], t[3], x->map->name, x->map->rule);
        return false;
    }
    for (int k = 0; k < 2; k++)
        cg_trap_if(g, LLVMBuildICmp(g->b, LLVMIntNE, have[k], want[k], ""), PTOC_RT_TRAP_VIEW_SHAPE, op->loc,
                   have[k], want[k], cg_i64(g, k));
    return true;
}

/* Element offset of index `idx` split over `dims` (fastest first) of the view:
 * dims of extent 1 contribute nothing, and the outermost other dim takes what
 * is left (idx is below the product of the extents). */
static LLVMValueRef split_offset(cg *g, const view *v, LLVMValueRef idx, const int *dims, int n)
{
    int top = n - 1;
    while (top > 0 && is_const(v->shape[dims[top]], 1))
        top--;
    LLVMValueRef off = cg_i64(g, 0), rest = idx;
    for (int k = 0; k <= top; k++) {
        int d = dims[k];
        if (is_const(v->shape[d], 1))
            continue;
        LLVMValueRef i = k == top ? rest : LLVMBuildURem(g->b, rest, v->shape[d], "");
        off = add(g, off, mul(g, i, v->stride[d]));
        if (k < top)
            rest = LLVMBuildUDiv(g->b, rest, v->shape[d], "");
    }
    return off;
}

static LLVMValueRef view_elem_ptr(cg *g, const transfer *x, LLVMValueRef elem_offset)
{
    if (is_const(elem_offset, 0))
        return x->v.base;
    return LLVMBuildGEP2(g->b, x->et, x->v.base, &elem_offset, 1, "");
}

/* Tile element `i` of line `line`. */
static LLVMValueRef tile_elem_ptr(cg *g, const transfer *x, LLVMValueRef line, LLVMValueRef i)
{
    return x->map->by_columns ? cg_tile_elem_ptr(g, &x->t, i, line) : cg_tile_elem_ptr(g, &x->t, line, i);
}

/* Valid lines, valid elements along a line, and the tile's physical extent along one. */
static LLVMValueRef line_count(const transfer *x)
{
    return x->map->by_columns ? x->t.vcols : x->t.vrows;
}

static LLVMValueRef along_count(const transfer *x)
{
    return x->map->by_columns ? x->t.vrows : x->t.vcols;
}

static int64_t along_extent(const transfer *x)
{
    return x->map->by_columns ? x->t.desc.rows : x->t.desc.cols;
}

/* *ptr += v (v in elem's compute type) as one atomic update: a compare-and-
 * swap loop on the element's bits, so that blocks storing into the same GM
 * element (one host thread each) do not lose updates. The sum is formed and
 * rounded as a plain add and store would (f16/bf16 in float, rounded to
 * nearest even; integers wrap). */
static void atomic_add_elem(cg *g, const ptoc_type *elem, LLVMValueRef ptr, LLVMValueRef v)
{
    LLVMBuilderRef B = g->b;
    unsigned size = cg_elem_size(elem);
    LLVMTypeRef bits = LLVMIntTypeInContext(g->llctx, size * 8);
    LLVMValueRef old_slot = cg_alloca(g, bits, "atomic.old"), new_slot = cg_alloca(g, bits, "atomic.new");
    LLVMValueRef first = LLVMBuildLoad2(B, bits, ptr, "");
    LLVMSetAlignment(first, size);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B), retry = cg_block(g, "atomic.retry"),
                      done = cg_block(g, "atomic.done");
    LLVMBuildBr(B, retry);
    LLVMPositionBuilderAtEnd(B, retry);
    LLVMValueRef seen = LLVMBuildPhi(B, bits, "");
    LLVMBuildStore(B, seen, old_slot);
    LLVMValueRef cur = cg_load_elem(g, elem, old_slot);
    cg_store_elem(g, elem, new_slot,
                  ptoc_type_is_float(elem) ? LLVMBuildFAdd(B, cur, v, "") : LLVMBuildAdd(B, cur, v, ""));
    LLVMValueRef want = LLVMBuildLoad2(B, bits, new_slot, "");
    LLVMValueRef cas = LLVMBuildAtomicCmpXchg(B, ptr, seen, want, LLVMAtomicOrderingMonotonic,
                                              LLVMAtomicOrderingMonotonic, false);
    LLVMSetAlignment(cas, size);
    LLVMValueRef got = LLVMBuildExtractValue(B, cas, 0, ""), ok = LLVMBuildExtractValue(B, cas, 1, "");
    LLVMValueRef in_vals[2] = {first, got};
    LLVMBasicBlockRef in_blocks[2] = {pre, LLVMGetInsertBlock(B)};
    LLVMAddIncoming(seen, in_vals, in_blocks, 2);
    LLVMBuildCondBr(B, ok, done, retry);
    LLVMPositionBuilderAtEnd(B, done);
}

/* A tstore's element that converts or adds: tile column `col` (the channel
 * of a quant word). */
static void store_elem_fixed(cg *g, const transfer *x, LLVMValueRef view_ptr, LLVMValueRef tile_ptr,
                             LLVMValueRef col)
{
    LLVMValueRef v = cg_load_elem(g, x->t.elem, tile_ptr);
    if (x->convert)
        v = cg_fix_value(g, &x->fix, v, col);
    if (x->atomic) {
        /* the converted value is the element type's (rounded) before it is added */
        LLVMValueRef slot = cg_alloca(g, cg_elem_type(g, x->v.elem), "atomic.value");
        cg_store_elem(g, x->v.elem, slot, v);
        atomic_add_elem(g, x->v.elem, view_ptr, cg_load_elem(g, x->v.elem, slot));
    }
    else
        cg_store_elem(g, x->v.elem, view_ptr, v);
}

static void copy_elem(cg *g, const transfer *x, LLVMValueRef view_ptr, LLVMValueRef tile_ptr)
{
    LLVMValueRef from = x->dir == TO_TILE ? view_ptr : tile_ptr, to = x->dir == TO_TILE ? tile_ptr : view_ptr;
    LLVMValueRef v = LLVMBuildLoad2(g->b, x->et, from, "");
    LLVMSetAlignment(v, (unsigned)cg_elem_size(x->v.elem));
    LLVMSetAlignment(LLVMBuildStore(g->b, v, to), (unsigned)cg_elem_size(x->v.elem));
}

/* One line: one memcpy, or one element at a time. */
static void copy_line(cg *g, const transfer *x, LLVMValueRef line, bool memcpy_line)
{
    LLVMValueRef start = split_offset(g, &x->v, line, x->map->line_dims, x->map->nline);
    unsigned align = (unsigned)x->t.esize;
    if (memcpy_line) {
        LLVMValueRef vp = view_elem_ptr(g, x, start);
        LLVMValueRef tp = x->map->by_columns ? tile_elem_ptr(g, x, line, cg_i64(g, 0))
                                             : cg_tile_row_ptr(g, &x->t, line);
        LLVMValueRef bytes = mul(g, along_count(x), cg_i64(g, x->t.esize));
        if (x->dir == TO_TILE)
            LLVMBuildMemCpy(g->b, tp, align, vp, align, bytes);
        else
            LLVMBuildMemCpy(g->b, vp, align, tp, align, bytes);
        return;
    }
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), along_count(x), x->map->by_columns ? "row" : "col");
    LLVMValueRef along = split_offset(g, &x->v, l.iv, x->map->along_dims, x->map->nalong);
    LLVMValueRef vp = view_elem_ptr(g, x, add(g, start, along));
    if (x->convert || x->atomic)
        store_elem_fixed(g, x, vp, tile_elem_ptr(g, x, line, l.iv), x->map->by_columns ? line : l.iv);
    else
        copy_elem(g, x, vp, tile_elem_ptr(g, x, line, l.iv));
    cg_loop_end(g, &l);
}

/* min(extent, round_up(n, 32 / esize)), n the valid elements along a line:
 * the end of the tail the DMA pads on hardware. */
static LLVMValueRef pad_end(cg *g, const transfer *x)
{
    int64_t per_block = 32 / (int64_t)x->t.esize;
    LLVMValueRef end = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, along_count(x), cg_i64(g, per_block - 1), ""),
                                    cg_i64(g, -per_block), "");
    return min_i64(g, end, cg_i64(g, along_extent(x)));
}

/* Fills the line's elements [n, pad_end) with the pad value: the tail the
 * DMA writes on hardware, and nothing else. */
static void pad_line(cg *g, const transfer *x, LLVMValueRef line)
{
    int64_t n;
    LLVMValueRef valid = along_count(x), end = pad_end(g, x);
    if (const_of(valid, &n) && is_const(end, n))
        return;
    LLVMValueRef value = x->pad_value;
    if (x->fill == FILL_FIRST_ELEM) {           /* element 0 of the line, just copied */
        value = LLVMBuildLoad2(g->b, x->et, tile_elem_ptr(g, x, line, cg_i64(g, 0)), "first");
        LLVMSetAlignment(value, (unsigned)x->t.esize);
    }
    cg_loop l;
    cg_loop_begin(g, &l, valid, end, "pad");
    LLVMValueRef st = LLVMBuildStore(g->b, value, tile_elem_ptr(g, x, line, l.iv));
    LLVMSetAlignment(st, (unsigned)x->t.esize);
    cg_loop_end(g, &l);
}

static void copy_lines(cg *g, const transfer *x, bool memcpy_lines)
{
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), line_count(x), x->map->by_columns ? "col" : "row");
    copy_line(g, x, l.iv, memcpy_lines);
    if (x->fill != FILL_NONE)
        pad_line(g, x, l.iv);
    cg_loop_end(g, &l);
}

/* ---------------------------------------------------------------- DMA bursts */

/* On a target with DMA copies (cg_dma: a5, a2a3) a transfer moves its lines
 * as bursts (dma.c issues the target's instructions for them), in the shapes
 * of pto-isa's TLoad/TStore programs for vec tiles (a5 TLoadVecND2ND,
 * TLoadVecDN2DN, TLoadVecNZ2NZ; a2a3 TLoadGm2ubNd2nd, Dn2dn, Nz2nz and the
 * TStore peers), which agree:
 *   nd, dn with lines contiguous in the tile and an along stride of 1: per
 *     group of the innermost line dim d (nd 3, dn 4), shape[d] bursts of a
 *     line's valid bytes, strides stride[d] * esize in GM and the tile's
 *     line pitch in UB. The groups (dims 2, 1, 0: a5's loop registers and
 *     scalar loop, a2a3's three scalar loops) are one loop here. A load
 *     with a pad value pads each burst's tail up to its next 32 bytes in
 *     the burst on a target whose copies pad (a2a3: set_mov_pad_val, then
 *     right_pad = the elements to the block's end, as the library's ubPad);
 *     elsewhere, and for a line's own first element or 64-bit elements
 *     (whose pads the A2/A3 library does not take), pad_line fills the
 *     tails after the bursts.
 *   the same with another along stride: on a5 each line is `along` bursts
 *     of one element; A2/A3's copies need 32-byte aligned UB addresses, so
 *     there the elements are copied one by one as on the cpu target.
 *   nz onto an nz tile, with the packed strides the hardware assumes (1,
 *     32 / esize, 512 / esize for dims 4, 3, 2): per dim-0 index, shape[1]
 *     bursts of valid rows x 32 bytes (one column of fractals), strides
 *     stride[1] * esize and rows x 32 bytes.
 * A tile not contiguous along its lines, or an nz transfer without those
 * strides, is moved element by element as on the cpu target. */
static void burst_call(cg *g, const transfer *x, LLVMValueRef gm, LLVMValueRef ub, LLVMValueRef n, LLVMValueRef len,
                       LLVMValueRef gm_stride, LLVMValueRef ub_stride, LLVMValueRef right_pad)
{
    cg_dma_call c = {.to_ub = x->dir == TO_TILE, .n_burst = n, .len_burst = len, .right_pad = right_pad,
                     .elem = x->t.elem, .loc = x->loc};
    c.dst = c.to_ub ? ub : gm;
    c.src = c.to_ub ? gm : ub;
    c.src_stride = c.to_ub ? gm_stride : ub_stride;
    c.dst_stride = c.to_ub ? ub_stride : gm_stride;
    cg_dma_bursts(g, &c);
}

/* Whether the target's copies pad this load's lines: a value for every line
 * of elements of at most 4 bytes (the A2/A3 library's pad values). */
static bool pads_in_burst(cg *g, const transfer *x)
{
    return cg_dma(g)->pads && x->fill == FILL_VALUE && x->t.esize <= 4;
}

/* The pad elements after a line: pad_line's, to its next 32 bytes within
 * the tile (the library's ubPad, (extent - valid) % (32 / esize), for a
 * tile line of whole blocks). */
static LLVMValueRef right_pad(cg *g, const transfer *x)
{
    return LLVMBuildSub(g->b, pad_end(g, x), along_count(x), "right.pad");
}

static LLVMValueRef tile_line_ptr(cg *g, const transfer *x, LLVMValueRef line)
{
    return x->map->by_columns ? tile_elem_ptr(g, x, line, cg_i64(g, 0)) : cg_tile_row_ptr(g, &x->t, line);
}

/* nd and dn, along stride 1: groups of shape[d] bursts of whole lines. */
static void burst_line_groups(cg *g, const transfer *x)
{
    const layout_map *m = x->map;
    int d = m->line_dims[0];
    LLVMValueRef es = cg_i64(g, x->t.esize), per = x->v.shape[d], pad = NULL;
    LLVMValueRef len = mul(g, along_count(x), es), pitch = cg_i64(g, along_extent(x) * x->t.esize);
    if (pads_in_burst(g, x)) {
        cg_dma(g)->set_pad(g, LLVMBuildZExt(g->b, x->pad_value, g->i64, ""));
        pad = right_pad(g, x);
    }
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), dims_product(g, &x->v, m->line_dims + 1, m->nline - 1), "bursts");
    LLVMValueRef first = mul(g, l.iv, per);
    LLVMValueRef gm = view_elem_ptr(g, x, split_offset(g, &x->v, first, m->line_dims, m->nline));
    burst_call(g, x, gm, tile_line_ptr(g, x, first), per, len, mul(g, x->v.stride[d], es), pitch, pad);
    if (x->fill != FILL_NONE && !pad) {
        cg_loop p;
        cg_loop_begin(g, &p, cg_i64(g, 0), per, "pad.line");
        pad_line(g, x, add(g, first, p.iv));
        cg_loop_end(g, &p);
    }
    cg_loop_end(g, &l);
}

/* nd and dn, another along stride: per line, one burst per element. */
static void burst_elements(cg *g, const transfer *x)
{
    const layout_map *m = x->map;
    LLVMValueRef es = cg_i64(g, x->t.esize);
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), line_count(x), m->by_columns ? "col" : "row");
    LLVMValueRef gm = view_elem_ptr(g, x, split_offset(g, &x->v, l.iv, m->line_dims, m->nline));
    burst_call(g, x, gm, tile_line_ptr(g, x, l.iv), along_count(x), es, mul(g, x->v.stride[m->along_dims[0]], es),
               es, NULL);
    if (x->fill != FILL_NONE)
        pad_line(g, x, l.iv);
    cg_loop_end(g, &l);
}

/* Whether an nz transfer has an nz tile and the packed fractal strides. */
static bool nz_bursts(const transfer *x)
{
    int64_t per_block = 32 / (int64_t)x->t.esize;
    const ptoc_pto_tile_desc *d = &x->t.desc;
    return x->map == &layout_maps[PTOC_PTO_LAYOUT_NZ] && d->blayout == PTOC_PTO_BL_COL_MAJOR &&
           d->slayout == PTOC_PTO_SL_ROW_MAJOR && d->fractal == 512 && is_const(x->v.stride[4], 1) &&
           is_const(x->v.stride[3], per_block) && is_const(x->v.stride[2], 16 * per_block);
}

static void burst_fractal_columns(cg *g, const transfer *x)
{
    LLVMValueRef es = cg_i64(g, x->t.esize), strip = cg_i64(g, x->t.desc.rows * 32);
    int64_t per_block = 32 / (int64_t)x->t.esize;
    cg_loop l;
    cg_loop_begin(g, &l, cg_i64(g, 0), x->v.shape[0], "nz.d0");
    LLVMValueRef gm = view_elem_ptr(g, x, mul(g, l.iv, x->v.stride[0]));
    LLVMValueRef col = mul(g, mul(g, l.iv, x->v.shape[1]), cg_i64(g, per_block));
    burst_call(g, x, gm, cg_tile_elem_ptr(g, &x->t, cg_i64(g, 0), col), x->v.shape[1], mul(g, x->t.vrows,
               cg_i64(g, 32)), mul(g, x->v.stride[1], es), strip, NULL);
    cg_loop_end(g, &l);
}

typedef void (*lines_fn)(cg *g, const transfer *x);

static void copy_lines_memcpy(cg *g, const transfer *x)
{
    copy_lines(g, x, true);
}

static void copy_lines_elementwise(cg *g, const transfer *x)
{
    copy_lines(g, x, false);
}

/* unit(x) when the along stride is 1, other(x) when not; with a stride only
 * known at run time, both behind a test of it. */
static void by_along_stride(cg *g, const transfer *x, lines_fn unit, lines_fn other)
{
    int64_t inner;
    LLVMValueRef stride = x->v.stride[x->map->along_dims[0]];
    if (const_of(stride, &inner)) {
        (inner == 1 ? unit : other)(g, x);
        return;
    }
    LLVMBasicBlockRef fast = cg_block(g, "lines.unit"), slow = cg_block(g, "lines.strided"),
                      done = cg_block(g, "lines.done");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, stride, cg_i64(g, 1), ""), fast, slow);
    LLVMPositionBuilderAtEnd(g->b, fast);
    unit(g, x);
    LLVMBuildBr(g->b, done);
    LLVMPositionBuilderAtEnd(g->b, slow);
    other(g, x);
    LLVMBuildBr(g->b, done);
    LLVMPositionBuilderAtEnd(g->b, done);
}

/* Copies the valid region: in bursts on a target with DMA copies (above);
 * otherwise lines go through llvm.memcpy when both sides are contiguous along
 * them (a single along dim of stride 1, a contiguous tile line). */
static void emit_transfer(cg *g, const transfer *x)
{
    const cg_dma_model *dma = cg_dma(g);
    if (x->convert || x->atomic)
        copy_lines(g, x, false);
    else if (dma && nz_bursts(x))
        burst_fractal_columns(g, x);
    else if (!x->contiguous_lines || x->map->nalong != 1)
        copy_lines(g, x, false);
    else if (dma)
        by_along_stride(g, x, burst_line_groups, dma->element_bursts ? burst_elements : copy_lines_elementwise);
    else
        by_along_stride(g, x, copy_lines_memcpy, copy_lines_elementwise);
}

/* With the codegen option gm_checks: one ptoc_rt_gm_check call before the
 * transfer, with the view's window (runtime.h), so that the run stops at this
 * op when the window is not inside the buffer of the view's pointer. Every
 * element of the window is moved (the valid shape equals the view's), so its
 * extent is the op's. */
static void emit_gm_check(cg *g, ptoc_op *op, const transfer *x)
{
    if (!g->opts->gm_checks)
        return;
    enum { N = 3 + 2 * RANK };
    LLVMTypeRef arr = LLVMArrayType2(g->i64, N);
    LLVMValueRef window = cg_alloca(g, arr, "gm.window"), vals[N];
    vals[0] = cg_i64(g, cg_elem_size(x->v.elem));
    vals[1] = cg_i64(g, x->dir == TO_VIEW);
    vals[2] = cg_i64(g, x->v.rank);
    for (int k = 0; k < RANK; k++) {
        vals[3 + k] = x->v.shape[k];
        vals[3 + RANK + k] = x->v.stride[k];
    }
    for (int k = 0; k < N; k++) {
        LLVMValueRef idx[2] = {cg_i32(g, 0), cg_i32(g, k)};
        LLVMBuildStore(g->b, vals[k], LLVMBuildInBoundsGEP2(g->b, arr, window, idx, 2, ""));
    }
    LLVMValueRef args[5] = {cg_where(g, op->loc), cg_op_name(g, op->name->str), x->v.origin, x->v.base, window};
    cg_call_runtime(g, "ptoc_rt_gm_check", args, 5);
}

/* The pad pattern (pto-isa PadValueMap): max is +inf / INT_MAX / all ones,
 * min is -inf / INT_MIN / 0. */
bool cg_pad_bits(const ptoc_type *elem, uint32_t pad, uint64_t *out)
{
    uint32_t bits = cg_elem_size(elem) * 8;
    bool max = pad == PTOC_PTO_PAD_MAX;
    if (pad == PTOC_PTO_PAD_ZERO) {
        *out = 0;
        return true;
    }
    if (ptoc_type_is_float(elem)) {
        static const struct { ptoc_float_kind kind; uint64_t pos_inf, neg_inf; } inf[] = {
            {PTOC_F16, 0x7c00u, 0xfc00u},
            {PTOC_BF16, 0x7f80u, 0xff80u},
            {PTOC_F32, 0x7f800000u, 0xff800000u},
            {PTOC_F64, UINT64_C(0x7ff0000000000000), UINT64_C(0xfff0000000000000)},
        };
        for (size_t i = 0; i < sizeof inf / sizeof inf[0]; i++)
            if (inf[i].kind == elem->u.fp.kind) {
                *out = max ? inf[i].pos_inf : inf[i].neg_inf;
                return true;
            }
        return false;
    }
    uint64_t ones = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    if (cg_is_unsigned(elem))
        *out = max ? ones : 0;
    else
        *out = max ? ones >> 1 : (ones >> 1) + 1;
    return true;
}

/* tload's padding clause: `pad_mode = #pto.padmode<M> [pad_value = %v : T]`
 * (mode PADMODE_NULL when absent). The pad_value operand follows ins and outs. */
enum { PADMODE_NULL = 0, PADMODE_FIRST_ELEM = 1, PADMODE_VALUE = 2 };
typedef struct pad_clause {
    uint32_t mode;
} pad_clause;

/* The PadValue scalar converted to the tile's dtype (as a store of a compute
 * op converts: cg_convert, then cg_store_elem's rounding), as the
 * iN bits of one element. The scalar is defined before the tload, so this runs
 * once, outside the row loop. */
static LLVMValueRef pad_value_bits(cg *g, ptoc_op *op, const transfer *x, uint32_t operand)
{
    const ptoc_type *from;
    LLVMValueRef v = cg_op_scalar(g, op, operand, &from);
    if (!v)
        return NULL;
    if (!ptoc_type_is_int_or_index(from) && !ptoc_type_is_float(from)) {
        ptoc_op_emit_error(op, "tload's pad_value must be an integer or float scalar");
        return NULL;
    }
    LLVMValueRef slot = cg_alloca(g, cg_elem_type(g, x->t.elem), "pad.value");
    cg_store_elem(g, x->t.elem, slot, cg_convert(g, v, from, x->t.elem));
    LLVMValueRef bits = LLVMBuildLoad2(g->b, x->et, slot, "pad.bits");
    LLVMSetAlignment(bits, (unsigned)x->t.esize);
    return bits;
}

/* Padding fills the tail of each line: rows of a row_major tile from an nd
 * view, columns of a col_major tile from a dn view (the hardware's ND2ND and
 * DN2DN loads pad; its NZ load never does, so an nz view ignores the tile's
 * pad= and refuses an explicit clause). */
static bool check_pad_layout(ptoc_op *op, const transfer *x, const pad_clause *clause)
{
    if (x->map == &layout_maps[PTOC_PTO_LAYOUT_NZ]) {
        if (clause->mode == PADMODE_NULL)
            return true;
        ptoc_op_emit_error(op, "tload's pad_mode clause has no effect on an nz view (the NZ load does not pad)");
        return false;
    }
    bool col_major = x->t.desc.blayout == PTOC_PTO_BL_COL_MAJOR;
    if (col_major == x->map->by_columns)
        return true;
    ptoc_op_emit_error(op, col_major ? "tload padding into a col_major tile needs a dn view (an nd view pads the "
                                       "rows of a row_major tile)"
                                     : "tload padding into a row_major tile needs an nd view (a dn view pads the "
                                       "columns of a col_major tile)");
    return false;
}

/* What a tload writes past each valid line: PadValue gives the clause's value,
 * PadFirstElem the line's first element, and PadNull (or no clause) the tile
 * type's pad= (pad=null: nothing). A tstore never pads. */
static bool setup_padding(cg *g, ptoc_op *op, transfer *x, const pad_clause *clause)
{
    uint32_t pad = x->t.desc.pad;
    uint64_t bits;
    x->fill = FILL_NONE;
    if (x->dir != TO_TILE || !clause)
        return true;
    if (clause->mode == PADMODE_FIRST_ELEM)
        x->fill = FILL_FIRST_ELEM;
    else if (clause->mode == PADMODE_VALUE || pad != PTOC_PTO_PAD_NULL)
        x->fill = FILL_VALUE;
    if (x->fill == FILL_NONE)
        return true;
    /* The tile type's pad= on a tile whose valid shape is its whole shape
     * pads nothing, whichever way the view's lines run. */
    const ptoc_pto_tile_desc *d = &x->t.desc;
    if (clause->mode == PADMODE_NULL && d->valid_rows == d->rows && d->valid_cols == d->cols) {
        x->fill = FILL_NONE;
        return true;
    }
    if (!check_pad_layout(op, x, clause))
        return false;
    if (x->map == &layout_maps[PTOC_PTO_LAYOUT_NZ]) {
        x->fill = FILL_NONE;
        return true;
    }
    if (clause->mode == PADMODE_VALUE) {
        uint32_t nins, nouts;
        ptoc_pto_dps_split(op, &nins, &nouts);
        return (x->pad_value = pad_value_bits(g, op, x, nins + nouts)) != NULL;
    }
    if (x->fill == FILL_FIRST_ELEM)
        return true;
    if (!cg_pad_bits(x->t.elem, pad, &bits)) {
        ptoc_op_emit_error(op, "tload padding of this element type is not supported by the cpu target");
        return false;
    }
    x->pad_value = LLVMConstInt(x->et, bits, false);
    return true;
}

/* A dynamic valid shape set in this function (alloc_tile with constant or
 * argument operands) is read back from the aggregate, so that it can be
 * checked at compile time and no extractvalue is emitted. */
static void refine_valid_shape(cg_tile *t)
{
    LLVMValueRef r = known_member(t->agg, 1), c = known_member(t->agg, 2);
    if (r && !LLVMIsUndef(r))
        t->vrows = r;
    if (c && !LLVMIsUndef(c))
        t->vcols = c;
}

/* The element types an atomic tstore adds (a5/TStore.hpp SetAtomicAdd). */
static bool atomic_elem_ok(const ptoc_type *t)
{
    if (ptoc_type_is_float(t))
        return t->u.fp.kind == PTOC_F16 || t->u.fp.kind == PTOC_BF16 || t->u.fp.kind == PTOC_F32;
    unsigned w = ptoc_type_bitwidth(t);
    return ptoc_type_is_int(t) && !cg_is_unsigned(t) && (w == 8 || w == 16 || w == 32);
}

/* Checks and emits a transfer between `view_val` and the resolved tile x->t
 * (x->map set); `clause` is tload's padding clause (NULL for tstore). */
static bool lower_transfer(cg *g, ptoc_op *op, transfer *x, const ptoc_value *view_val, const pad_clause *clause)
{
    if (!view_of(g, view_val, op->loc, &x->v))
        return false;
    if (x->convert && !cg_fix_init(g, op, &x->fix, &x->t, x->v.elem, x->quant_fp, x->quant_word))
        return false;
    if (x->atomic && !atomic_elem_ok(x->v.elem)) {
        ptoc_op_emit_error(
            op, "atomic tstore adds f16, bf16, f32, i8, i16 or i32 elements (the hardware's atomic "
                "types)");
        return false;
    }
    if (x->v.elem != x->t.desc.elem && !x->convert) {
        ptoc_strbuf from, to;
        ptoc_strbuf_init(&from, g->ctx);
        ptoc_strbuf_init(&to, g->ctx);
        ptoc_print_type_to(&from, x->t.desc.elem);
        ptoc_print_type_to(&to, x->v.elem);
        ptoc_op_emit_error(op, "converting %s to %s (a store from acc) is not supported by the %s target yet",
                           ptoc_strbuf_cstr(&from), ptoc_strbuf_cstr(&to), g->target->name);
        ptoc_strbuf_free(&from);
        ptoc_strbuf_free(&to);
        return false;
    }
    refine_valid_shape(&x->t);
    /* the view's element: a converting store's differs from the tile's */
    x->et = bits_type(g, cg_elem_size(x->v.elem));
    uint32_t line_layout = x->map->by_columns ? PTOC_PTO_BL_COL_MAJOR : PTOC_PTO_BL_ROW_MAJOR;
    x->contiguous_lines = x->t.desc.blayout == line_layout && x->t.desc.slayout == PTOC_PTO_SL_NONE_BOX;
    if (!setup_padding(g, op, x, clause) || !check_shapes(g, op, x))
        return false;
    emit_gm_check(g, op, x);
    emit_transfer(g, x);
    return true;
}

/* tload's operand clauses, segments 2..5 of operandSegmentSizes. */
static const char *const tload_operand_clauses[4] = {"pad_value", "left_padding_num", "right_padding_num",
                                                     "init_condition"};

/* Reads tload's padding clause. The other DMA options (left/right padding,
 * buffer initialisation) have no cpu lowering yet: refused rather than
 * ignored, and so is a pad_value that PadValue does not use. */
static bool read_tload_clauses(ptoc_op *op, pad_clause *out)
{
    ptoc_attr *seg = ptoc_op_segment_attr(op), *mode = ptoc_op_attr(op, "pad_mode");
    ptoc_attr *init = ptoc_op_attr(op, "init_out_buffer");
    const char *clause = NULL;
    *out = (pad_clause){PADMODE_NULL};
    if (mode && !ptoc_pto_enum_value(mode, PTOC_PTO_ENUM_PADMODE, &out->mode))
        out->mode = PADMODE_NULL;                   /* the verifier reports it */
    bool has_value = seg && seg->u.dense.n > 2 && seg->u.dense.values[2] != 0;
    for (uint32_t k = 3; seg && k < seg->u.dense.n && k < 6 && !clause; k++)
        if (seg->u.dense.values[k] != 0)
            clause = tload_operand_clauses[k - 2];
    if (!clause && init && init->kind == PTOC_ATTR_BOOL && init->u.boolean)
        clause = "init_out_buffer";
    if (clause) {
        ptoc_op_emit_error(op, "tload's '%s' clause is not supported by the cpu target yet", clause);
        return false;
    }
    if (has_value != (out->mode == PADMODE_VALUE)) {
        ptoc_op_emit_error(op, has_value ? "tload's pad_value is only used with pad_mode = #pto.padmode<PadValue>"
                                         : "tload with pad_mode = #pto.padmode<PadValue> needs a pad_value");
        return false;
    }
    return true;
}

/* The tile a Level-1 tload defines: placed sequentially, valid shape from the
 * result type or, where that is dynamic, from the view (its layout's rule). */
static bool place_loaded_tile(cg *g, ptoc_op *op, const ptoc_value *view_val, const layout_map *map, cg_tile *out)
{
    const ptoc_value *res = &op->results[0];
    ptoc_pto_tile_desc d;
    view v;
    if (!cg_tile_desc_of(res->type, &d)) {
        ptoc_op_emit_error(op, "the result of tload must be a tile");
        return false;
    }
    if (!view_of(g, view_val, op->loc, &v))
        return false;
    LLVMValueRef rows, cols;
    view_tile_shape(g, map, &v, &rows, &cols);
    LLVMValueRef vrows = d.valid_rows != PTOC_DYNAMIC ? cg_i64(g, d.valid_rows) : rows;
    LLVMValueRef vcols = d.valid_cols != PTOC_DYNAMIC ? cg_i64(g, d.valid_cols) : cols;
    return make_tile(g, res, NULL, vrows, vcols, op->loc) && cg_tile_of(g, res, out);
}

/* `pto.tload ins(%view : V) outs(%tile : T)` or `%t = pto.tload %view : V -> T` */
static bool lower_tload(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    transfer x = {.dir = TO_TILE, .loc = op->loc};
    const ptoc_value *src = ptoc_op_operand(op, 0);
    pad_clause clause;
    if (!read_tload_clauses(op, &clause) || !transfer_layout(op, src, &x.map))
        return false;
    bool level1 = op->nresults == 1;
    if (level1 ? !place_loaded_tile(g, op, src, x.map, &x.t) : !cg_op_in(g, op, 1, &x.t))
        return false;
    return lower_transfer(g, op, &x, src, &clause);
}

/* tstore's options: the atomic mode, relu and a pre-quant scalar (operand 1
 * when nins is 2), or tstore_fp's fp tile. On the cpu target a tile in acc
 * stores through the FIX pipe's conversion (cg_fix: converts, relu,
 * quantises) and an atomic store adds; so does a2a3 (cpu_store_options)
 * when the store has one of these options; otherwise the DMA targets move bits. */
static bool read_tstore_options(cg *g, ptoc_op *op, transfer *x, uint32_t nins, const cg_tile *fp)
{
    uint32_t atomic = 0, relu = 0;
    ptoc_pto_enum_value(ptoc_op_attr(op, "atomicType"), PTOC_PTO_ENUM_ATOMIC_TYPE, &atomic);
    ptoc_pto_enum_value(ptoc_op_attr(op, "reluPreMode"), PTOC_PTO_ENUM_RELU_PRE_MODE, &relu);
    bool quant = nins > 1 && !fp;
    if (cg_dma(g)) {
        const char *what = quant    ? "tstore with a pre-quant scalar"
                           : fp     ? "tstore_fp"
                           : atomic ? "atomic tstore"
                           : relu   ? "tstore with relu"
                                    : NULL;
        if (!what)
            return true;
        if (!cg_dma(g)->cpu_store_options) {
            ptoc_op_emit_error(op, "%s is not supported by the %s target yet", what, g->target->name);
            return false;
        }
    }
    bool acc = x->t.desc.loc == PTOC_PTO_AS_ACC;
    if (!acc && (quant || fp || relu)) {
        ptoc_op_emit_error(op,
                           "relu, a pre-quant scalar or an fp tile needs a tile in loc=acc (the FIX pipe)");
        return false;
    }
    LLVMValueRef word = NULL;
    if (quant) {
        const ptoc_type *t;
        if (!(word = cg_op_scalar(g, op, 1, &t)))
            return false;
    }
    x->convert = acc;
    x->quant_fp = fp;
    x->quant_word = word;
    x->atomic = atomic != 0;
    return true;
}

/* `pto.tstore ins(%tile [, %scalar]) outs(%view)` or `pto.tstore %tile, %view : T, V` */
static bool lower_tstore(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    transfer x = {.dir = TO_VIEW, .loc = op->loc};
    uint32_t nins = op->noperands - 1, nouts;
    if (ptoc_op_segment_attr(op))
        ptoc_pto_dps_split(op, &nins, &nouts);
    const ptoc_value *dst = ptoc_op_operand(op, nins);
    if (!transfer_layout(op, dst, &x.map) || !cg_op_in(g, op, 0, &x.t) ||
        !read_tstore_options(g, op, &x, nins, NULL))
        return false;
    return lower_transfer(g, op, &x, dst, NULL);
}

/* `pto.tstore_fp ins(%acc, %fp) outs(%view)`: a store from acc quantised per
 * channel by the fp tile's words. */
static bool lower_tstore_fp(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    transfer x = {.dir = TO_VIEW, .loc = op->loc};
    cg_tile fp;
    const ptoc_value *dst = ptoc_op_operand(op, 2);
    if (!transfer_layout(op, dst, &x.map) || !cg_op_in(g, op, 0, &x.t) || !cg_op_in(g, op, 1, &fp))
        return false;
    if (x.t.desc.loc != PTOC_PTO_AS_ACC) {
        ptoc_op_emit_error(op,
                           "relu, a pre-quant scalar or an fp tile needs a tile in loc=acc (the FIX pipe)");
        return false;
    }
    return read_tstore_options(g, op, &x, 2, &fp) && lower_transfer(g, op, &x, dst, NULL);
}

/* ---------------------------------------------------------------- block queries */

/* get_block_idx / get_block_num: a runtime call, converted to the result type. */
static bool lower_block_query(cg *g, ptoc_op *op, const cg_rule *rule)
{
    static const char *const entry[] = {"ptoc_rt_block_idx", "ptoc_rt_block_num"};
    LLVMTypeRef ty = cg_type(g, op->results[0].type, op->loc);
    if (!ty)
        return false;
    LLVMValueRef v = cg_call_runtime(g, entry[rule->arg], NULL, 0);
    if (ty != g->i64)
        v = LLVMBuildIntCast2(g->b, v, ty, true, "");
    cg_set(g, &op->results[0], v);
    return true;
}

/* ---------------------------------------------------------------- the table */

const cg_rule cg_pto_mem_rules[] = {
    {PTO(ALLOC_TILE), lower_alloc_tile, 0},
    {PTO(TASSIGN), lower_tassign, 0},
    {STD("memref.alloc"), lower_memref_alloc, 0},
    {STD("memref.alloca"), lower_memref_alloc, 0},
    {STD("memref.dealloc"), lower_nothing, 0},
    {PTO(MAKE_TENSOR_VIEW), lower_make_tensor_view, 0},
    {PTO(PARTITION_VIEW), lower_partition_view, 0},
    {PTO(TLOAD), lower_tload, 0},
    {PTO(TSTORE), lower_tstore, 0},
    {PTO(TSTORE_FP), lower_tstore_fp, 0},
    {PTO(GET_BLOCK_IDX), lower_block_query, 0},
    {PTO(GET_BLOCK_NUM), lower_block_query, 1},
    /* Sync: a plain run executes every op in program order, so all orderings
     * hold already; the pipe simulator (pipe_events.c) gives them meaning. */
    {PTO(SET_FLAG), lower_nothing, 0},
    {PTO(WAIT_FLAG), lower_nothing, 0},
    {PTO(SET_FLAG_DYN), lower_nothing, 0},
    {PTO(WAIT_FLAG_DYN), lower_nothing, 0},
    {PTO(RECORD_EVENT), lower_nothing, 0},
    {PTO(WAIT_EVENT), lower_nothing, 0},
    {PTO(BARRIER), lower_nothing, 0},
    {PTO(PIPE_BARRIER), lower_nothing, 0},
    {PTO(BARRIER_SYNC), lower_nothing, 0},
    {PTO(TSYNC), lower_nothing, 0},
    {PTO(GET_BUF), lower_nothing, 0},
    {PTO(RLS_BUF), lower_nothing, 0},
    {PTO(SYNC_SET), lower_nothing, 0},
    {PTO(SYNC_WAIT), lower_nothing, 0},
};
const size_t cg_pto_mem_rule_count = sizeof cg_pto_mem_rules / sizeof cg_pto_mem_rules[0];
