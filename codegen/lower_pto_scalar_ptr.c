/* lower_pto_scalar_ptr.c: the cpu target's meaning for pointers and scalars in
 * GM, the ops that name tile storage without moving data, and the debugging
 * ops.
 *
 * GM pointers and scalars (a !pto.ptr or a GM memref is the host pointer):
 *  - addptr %p, %off: p + off elements of p's element type;
 *  - load_scalar %p[%i] / store_scalar %v, %p[%i]: element i of p. With the
 *    codegen option gm_checks (--run) each access is checked against the
 *    buffer p points into first, as tload's window is (ptoc_rt_gm_check);
 *  - get_tensor_view_dim %tv, %i: extent i of the view as written (dim 0 is
 *    its first); an index outside the rank is an error, at run time
 *    PTOC_RT_TRAP_DIM;
 *  - memref.reinterpret_cast of a GM memref: the pointer moved by the offset
 *    operand; the result's strides (its strided<> layout) are what tload and
 *    tstore then read it with.
 *
 * Tile storage (the result shares the source's storage: pto-isa's TRESHAPE
 * re-points its tile at the source's data, PTOAS's bitcast/subset/bind_tile
 * are views of the source's buffer):
 *  - pointer_cast(%a0, ...): a tile of its memref type at byte offset a0 of
 *    its space (PTOAS assigns the first address; the others are its
 *    multi-buffer slots); bind_tile %m: m's storage as the result memref;
 *  - declare_tile / declare_tile_memref: a tile with storage of its own,
 *    placed as an address-less alloc_tile is;
 *  - subset %t[%i, %j] sizes [r, c]: the tile whose element (0, 0) is t's
 *    element (i, j). The result keeps t's element spacing, so it is a tile of
 *    its own shape only when its rows (row_major) or columns (col_major) are
 *    whole: sizes that cut a line of a none_box tile are a diagnostic;
 *  - bitcast: the same bytes and valid shape read with another element type;
 *  - treshape: the same bytes with another shape; the valid shape is the
 *    result type's, or where that is dynamic the source's when both shapes
 *    agree, else the whole result.
 * An on-chip memref is a row_major none_box tile on the cpu target (its type
 * has no layout), so a `config` asking for another layout is a diagnostic, as
 * is a valid shape smaller than the memref (a memref tile is valid whole).
 *
 * Debugging:
 *  - print "fmt", %x: printf of one scalar to stdout. The format holds exactly
 *    one conversion, which must suit the scalar (d i u o x X for integers,
 *    f F e E g G a A for floats; an empty format is "%f", as PTOAS emits it)
 *    and reads it as C's printf would after the default promotions (%d of a
 *    ui32 all ones is -1); its length modifier is codegen's;
 *  - tprint %t: the valid region as pto-isa's cpu TPRINT prints it
 *    (runtime/print.c), f16 and bf16 as floats;
 *  - trap: ends the run at the op with "the kernel trapped (pto.trap)"
 *    (PTOC_RT_TRAP_KERNEL).
 */
#include <stdio.h>
#include <string.h>

#include "codegen/codegen_internal.h"
#include "ptoc/runtime.h"

#define RANK PTOC_PTO_MAX_VIEW_RANK

/* ---------------------------------------------------------------- GM pointers */

/* The element type of a !pto.ptr or GM memref, else NULL. */
static const ptoc_type *pointee(const ptoc_type *t)
{
    const ptoc_type *elem = ptoc_pto_ptr_elem(t);
    ptoc_pto_address_space as;
    if (!elem && t->kind == PTOC_TYPE_MEMREF && ptoc_pto_memref_space(t, &as) && as == PTOC_PTO_AS_GM)
        elem = t->u.shaped.elem;
    return elem;
}

/* `p + off` elements of `elem`. */
static LLVMValueRef element_at(cg *g, const ptoc_type *elem, LLVMValueRef p, LLVMValueRef off)
{
    return LLVMBuildGEP2(g->b, cg_elem_type(g, elem), p, &off, 1, "elem");
}

/* `%q = pto.addptr %p, %off : <T> -> <T>` */
static bool lower_addptr(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    LLVMValueRef p = cg_get(g, ptoc_op_operand(op, 0)), off = cg_get(g, ptoc_op_operand(op, 1));
    if (!p || !off)
        return false;
    cg_set(g, &op->results[0], element_at(g, pointee(ptoc_op_operand(op, 0)->type), p, off));
    return true;
}

/* With gm_checks: the one element at `at`, inside the buffer `origin` points into. */
static void check_scalar_access(cg *g, ptoc_op *op, const ptoc_type *elem, LLVMValueRef origin,
                                LLVMValueRef at, bool write)
{
    if (!g->opts->gm_checks)
        return;
    enum { N = 3 + 2 * RANK };
    LLVMTypeRef arr = LLVMArrayType2(g->i64, N);
    LLVMValueRef window = cg_alloca(g, arr, "gm.window");
    for (int k = 0; k < N; k++) {
        /* {esize, write, rank 1, shape 1 x 5, strides 0 x 5} */
        int64_t v = k == 0 ? cg_elem_size(elem) : k == 1 ? write : k == 2 ? 1 : k < 3 + RANK ? 1 : 0;
        LLVMValueRef idx[2] = {cg_i32(g, 0), cg_i32(g, k)};
        LLVMBuildStore(g->b, cg_i64(g, v), LLVMBuildInBoundsGEP2(g->b, arr, window, idx, 2, ""));
    }
    LLVMValueRef args[5] = {cg_where(g, op->loc), cg_op_name(g, op->name->str), origin, at, window};
    cg_call_runtime(g, "ptoc_rt_gm_check", args, 5);
}

/* `%v = pto.load_scalar %p[%i] : P -> T` / `pto.store_scalar %v, %p[%i] : P, T` */
static bool lower_scalar_access(cg *g, ptoc_op *op, const cg_rule *rule)
{
    bool store = rule->arg;
    const ptoc_type *elem = pointee(ptoc_op_operand(op, 0)->type);
    LLVMValueRef p = cg_get(g, ptoc_op_operand(op, 0)), off = cg_get(g, ptoc_op_operand(op, 1));
    const ptoc_type *vt = store ? ptoc_op_operand(op, 2)->type : op->results[0].type;
    LLVMTypeRef ty = cg_type(g, vt, op->loc);
    if (!p || !off || !ty)
        return false;
    LLVMValueRef at = element_at(g, elem, p, off);
    check_scalar_access(g, op, elem, p, at, store);
    if (store) {
        LLVMValueRef v = cg_get(g, ptoc_op_operand(op, 2));
        if (!v)
            return false;
        LLVMBuildStore(g->b, v, at);
    } else {
        cg_set(g, &op->results[0], LLVMBuildLoad2(g->b, ty, at, "scalar"));
    }
    return true;
}

/* The static extent of memref dim `i`, or an error. */
static bool memref_dim(cg *g, ptoc_op *op, const ptoc_type *t, LLVMValueRef index)
{
    uint32_t rank = t->u.shaped.rank;
    if (!LLVMIsAConstantInt(index)) {
        ptoc_op_emit_error(op,
                           "get_tensor_view_dim of a memref needs a constant dimension on the cpu target");
        return false;
    }
    int64_t i = LLVMConstIntGetSExtValue(index);
    if (i < 0 || i >= (int64_t)rank || t->u.shaped.shape[i] == PTOC_DYNAMIC) {
        ptoc_op_emit_error(op,
                           "dimension %lld of a rank-%u memref has no static extent on the cpu target "
                           "(a memref is a bare pointer: its dynamic sizes are not passed)",
                           (long long)i, rank);
        return false;
    }
    cg_set(g, &op->results[0], cg_i64(g, t->u.shaped.shape[i]));
    return true;
}

/* `%d = pto.get_tensor_view_dim %tv, %i : TV -> index` */
static bool lower_get_tensor_view_dim(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_value *src = ptoc_op_operand(op, 0);
    LLVMValueRef index = cg_get(g, ptoc_op_operand(op, 1));
    if (!index)
        return false;
    if (src->type->kind == PTOC_TYPE_MEMREF)
        return memref_dim(g, op, src->type, index);
    const ptoc_pto_view *vt = ptoc_pto_tensor_view(src->type);
    LLVMValueRef agg = cg_get(g, src);
    if (!vt || !agg)
        return false;
    int64_t rank = vt->rank, lead = RANK - rank;
    LLVMValueRef shape = LLVMBuildExtractValue(g->b, agg, 1, "shape");
    if (LLVMIsAConstantInt(index)) {
        int64_t i = LLVMConstIntGetSExtValue(index);
        if (i < 0 || i >= rank) {
            ptoc_op_emit_error(op, "dimension %lld is outside the view's %lld dimensions", (long long)i,
                               (long long)rank);
            return false;
        }
        cg_set(g, &op->results[0], LLVMBuildExtractValue(g->b, shape, (unsigned)(lead + i), "dim"));
        return true;
    }
    LLVMValueRef bad = LLVMBuildICmp(g->b, LLVMIntUGE, index, cg_i64(g, rank), "");
    cg_trap_if(g, bad, PTOC_RT_TRAP_DIM, op->loc, index, cg_i64(g, rank), cg_i64(g, 0));
    LLVMTypeRef arr = LLVMArrayType2(g->i64, RANK);
    LLVMValueRef slot = cg_alloca(g, arr, "dims");
    LLVMBuildStore(g->b, shape, slot);
    LLVMValueRef idx[2] = {cg_i64(g, 0), LLVMBuildAdd(g->b, index, cg_i64(g, lead), "")};
    cg_set(g, &op->results[0],
           LLVMBuildLoad2(g->b, g->i64, LLVMBuildInBoundsGEP2(g->b, arr, slot, idx, 2, ""), "dim"));
    return true;
}

/* `memref.reinterpret_cast %m to offset: [%o], sizes: [...], strides: [...]`
 * of a GM memref: the pointer moved by the offset (static or the operand). */
static bool lower_reinterpret_cast(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    const ptoc_type *src = ptoc_op_operand(op, 0)->type, *res = op->results[0].type;
    ptoc_pto_address_space as;
    if (!ptoc_pto_memref_space(src, &as) || as != PTOC_PTO_AS_GM) {
        ptoc_op_emit_error(op,
                           "memref.reinterpret_cast of an on-chip memref is not supported by the cpu target "
                           "(a tile's layout comes from its type)");
        return false;
    }
    ptoc_attr *st = ptoc_op_attr(op, "static_offsets");
    LLVMValueRef p = cg_get(g, ptoc_op_operand(op, 0)), off = NULL;
    if (!p)
        return false;
    bool one = st && st->kind == PTOC_ATTR_DENSE_ARRAY && st->u.dense.n == 1; /* as the verifier requires */
    int64_t k = one ? st->u.dense.values[0] : 0;
    off = k != PTOC_DYNAMIC ? cg_i64(g, k) : op->noperands > 1 ? cg_get(g, ptoc_op_operand(op, 1)) : NULL;
    if (!off)
        return false;
    cg_set(g, &op->results[0], element_at(g, res->u.shaped.elem, p, off));
    return true;
}

/* ---------------------------------------------------------------- tile storage */

/* A memref tile's `config` must describe the layout its type gives it. */
static bool check_memref_config(ptoc_op *op)
{
    ptoc_attr *a = ptoc_op_attr(op, "config");
    const ptoc_pto_tile_config *c = a ? ptoc_pto_tile_config_attr(a) : NULL;
    if (!c || (c->blayout == PTOC_PTO_BL_ROW_MAJOR && c->slayout == PTOC_PTO_SL_NONE_BOX))
        return true;
    ptoc_op_emit_error(op,
                       "a config with a layout other than row_major none_box is not supported by the cpu "
                       "target, which lays out an on-chip memref row_major none_box (use a !pto.tile_buf of "
                       "that layout)");
    return false;
}

/* The valid operands (valid_row, valid_col) of a memref tile: the whole memref. */
static bool check_memref_valid(cg *g, ptoc_op *op, uint32_t first, const ptoc_pto_tile_desc *d)
{
    if (op->noperands < first + 2)
        return true;
    int64_t dims[2] = {d->rows, d->cols};
    for (uint32_t i = 0; i < 2; i++) {
        LLVMValueRef v = cg_get(g, ptoc_op_operand(op, first + i));
        if (!v)
            return false;
        if (!LLVMIsAConstantInt(v) || LLVMConstIntGetSExtValue(v) != dims[i]) {
            ptoc_op_emit_error(
                op,
                "a valid shape other than the memref's whole %lldx%lld is not supported by the "
                "cpu target (an on-chip memref tile is valid whole; use a !pto.tile_buf with "
                "valid=?x?)",
                (long long)d->rows, (long long)d->cols);
            return false;
        }
    }
    return true;
}

/* The on-chip tile description of a memref result, or an error. */
static bool memref_result(ptoc_op *op, ptoc_pto_tile_desc *d)
{
    if (cg_tile_desc_of(op->results[0].type, d))
        return true;
    ptoc_op_emit_error(op,
                       "the result must be an on-chip memref of rank 1 to 5 with a static shape on the cpu "
                       "target (a GM buffer comes from the caller)");
    return false;
}

/* `%m = pto.pointer_cast(%a0, ...) [%r, %c] {config} : memref<..., space>` */
static bool lower_pointer_cast(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    ptoc_attr *seg = ptoc_op_attr(op, PTOC_SEGMENT_SIZES_ATTR);
    uint32_t naddrs = seg && seg->kind == PTOC_ATTR_DENSE_ARRAY ? (uint32_t)seg->u.dense.values[0] : 1;
    ptoc_pto_tile_desc d;
    if (!memref_result(op, &d) || !check_memref_config(op) || !check_memref_valid(g, op, naddrs, &d))
        return false;
    if (naddrs == 0) {
        ptoc_op_emit_error(op, "pointer_cast needs an address");
        return false;
    }
    LLVMValueRef addr = cg_get(g, ptoc_op_operand(op, 0));
    LLVMValueRef agg =
        addr ? cg_tile_make(g, op->results[0].type, addr, cg_i64(g, d.rows), cg_i64(g, d.cols), op->loc)
             : NULL;
    if (!agg)
        return false;
    cg_set(g, &op->results[0], agg);
    return true;
}

/* The byte offset of a lowered tile value. */
static LLVMValueRef tile_offset(cg *g, const ptoc_value *v)
{
    LLVMValueRef agg = cg_get(g, v);
    return agg ? LLVMBuildExtractValue(g->b, agg, 0, "offset") : NULL;
}

/* `%b = pto.bind_tile %m[, %r, %c] {config} : M -> R` */
static bool lower_bind_tile(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    ptoc_pto_tile_desc d, src;
    if (!memref_result(op, &d) || !check_memref_config(op) || !check_memref_valid(g, op, 1, &d))
        return false;
    if (!cg_tile_desc_of(ptoc_op_operand(op, 0)->type, &src) || src.loc != d.loc) {
        ptoc_op_emit_error(op, "bind_tile needs an on-chip memref source in the result's address space");
        return false;
    }
    LLVMValueRef offset = tile_offset(g, ptoc_op_operand(op, 0));
    LLVMValueRef agg =
        offset ? cg_tile_make(g, op->results[0].type, offset, cg_i64(g, d.rows), cg_i64(g, d.cols), op->loc)
               : NULL;
    if (!agg)
        return false;
    cg_set(g, &op->results[0], agg);
    return true;
}

/* `%t = pto.declare_tile -> T` / `declare_tile_memref -> M`: storage of its own. */
static bool lower_declare_tile(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    ptoc_pto_tile_desc d;
    if (!cg_tile_desc_of(op->results[0].type, &d)) {
        ptoc_op_emit_error(op,
                           "the result must be a tile or an on-chip memref with a static shape on the cpu "
                           "target");
        return false;
    }
    uint64_t bytes = (uint64_t)d.rows * (uint64_t)d.cols * cg_elem_size(d.elem);
    LLVMValueRef offset = cg_place(g, d.loc, bytes, op->loc);
    int64_t vr = d.valid_rows != PTOC_DYNAMIC ? d.valid_rows : d.rows;
    int64_t vc = d.valid_cols != PTOC_DYNAMIC ? d.valid_cols : d.cols;
    LLVMValueRef agg =
        offset ? cg_tile_make(g, op->results[0].type, offset, cg_i64(g, vr), cg_i64(g, vc), op->loc) : NULL;
    if (!agg)
        return false;
    cg_set(g, &op->results[0], agg);
    return true;
}

/* The one source tile and the result of an SSA view op (bitcast, treshape). */
static bool view_operands(cg *g, ptoc_op *op, cg_tile *src, ptoc_pto_tile_desc *res)
{
    if (op->noperands != 1 || op->nresults != 1) {
        ptoc_op_emit_error(op, "takes one tile and gives one on the cpu target (%%r = %s %%t : A -> B)",
                           op->name->str);
        return false;
    }
    if (!cg_tile_desc_of(op->results[0].type, res) ||
        !cg_tile_desc_of(ptoc_op_operand(op, 0)->type, &src->desc)) {
        ptoc_op_emit_error(op, "takes and gives tiles");
        return false;
    }
    if (res->loc != src->desc.loc) {
        ptoc_op_emit_error(op, "the source and the result must be in one address space");
        return false;
    }
    return cg_tile_of(g, ptoc_op_operand(op, 0), src);
}

/* `%r = pto.bitcast %t : A -> B`: same shape, valid shape and bytes. */
static bool lower_bitcast(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src;
    ptoc_pto_tile_desc res;
    if (!view_operands(g, op, &src, &res))
        return false;
    if (res.rows != src.desc.rows || res.cols != src.desc.cols || cg_elem_size(res.elem) > src.esize) {
        ptoc_op_emit_error(op,
                           "bitcast keeps the shape and needs no more bytes than the source (use treshape "
                           "to change the shape)");
        return false;
    }
    LLVMValueRef agg = cg_tile_make(g, op->results[0].type, LLVMBuildExtractValue(g->b, src.agg, 0, ""),
                                    src.vrows, src.vcols, op->loc);
    if (!agg)
        return false;
    cg_set(g, &op->results[0], agg);
    return true;
}

/* `%r = pto.treshape %t : A -> B`: the same bytes, another shape. */
static bool lower_treshape(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src;
    ptoc_pto_tile_desc res;
    if (!view_operands(g, op, &src, &res))
        return false;
    uint64_t from = (uint64_t)src.desc.rows * (uint64_t)src.desc.cols * src.esize;
    uint64_t to = (uint64_t)res.rows * (uint64_t)res.cols * cg_elem_size(res.elem);
    if (from != to || (src.desc.slayout == PTOC_PTO_SL_NONE_BOX) != (res.slayout == PTOC_PTO_SL_NONE_BOX)) {
        ptoc_op_emit_error(op, "treshape keeps the byte size (%llu, here %llu) and the boxing of the source",
                           (unsigned long long)from, (unsigned long long)to);
        return false;
    }
    bool same = res.rows == src.desc.rows && res.cols == src.desc.cols;
    LLVMValueRef vr = res.valid_rows != PTOC_DYNAMIC ? cg_i64(g, res.valid_rows)
                      : same                         ? src.vrows
                                                     : cg_i64(g, res.rows);
    LLVMValueRef vc = res.valid_cols != PTOC_DYNAMIC ? cg_i64(g, res.valid_cols)
                      : same                         ? src.vcols
                                                     : cg_i64(g, res.cols);
    LLVMValueRef agg =
        cg_tile_make(g, op->results[0].type, LLVMBuildExtractValue(g->b, src.agg, 0, ""), vr, vc, op->loc);
    if (!agg)
        return false;
    cg_set(g, &op->results[0], agg);
    return true;
}

/* `%s = pto.subset %t[%i, %j] sizes [r, c] : T` */
static bool lower_subset(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile src;
    ptoc_pto_tile_desc res;
    if (op->noperands != 3 || !cg_tile_desc_of(op->results[0].type, &res) ||
        !cg_tile_desc_of(ptoc_op_operand(op, 0)->type, &src.desc)) {
        ptoc_op_emit_error(op, "takes and gives tiles");
        return false;
    }
    if (!cg_tile_of(g, ptoc_op_operand(op, 0), &src))
        return false;
    bool row_major = src.desc.blayout == PTOC_PTO_BL_ROW_MAJOR;
    bool whole =
        row_major ? res.cols == src.desc.cols || res.rows == 1 : res.rows == src.desc.rows || res.cols == 1;
    if (!whole) {
        ptoc_op_emit_error(op,
                           "a %lldx%lld subset of a %lldx%lld %s tile is not supported by the cpu target: it "
                           "keeps the source's %s, so its %s must be whole",
                           (long long)res.rows, (long long)res.cols, (long long)src.desc.rows,
                           (long long)src.desc.cols, row_major ? "row_major" : "col_major",
                           row_major ? "row pitch" : "column pitch", row_major ? "rows" : "columns");
        return false;
    }
    LLVMValueRef i = cg_get(g, ptoc_op_operand(op, 1)), j = cg_get(g, ptoc_op_operand(op, 2));
    if (!i || !j)
        return false;
    LLVMValueRef first = cg_tile_elem_ptr(g, &src, i, j);
    LLVMValueRef base = cg_space_base(g, src.desc.loc);
    LLVMValueRef offset = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, first, g->i64, ""),
                                       LLVMBuildPtrToInt(g->b, base, g->i64, ""), "offset");
    /* the valid shape the type infers; a dynamic one from the source's, read periodically as the
     * verifier does */
    LLVMValueRef dims[2];
    LLVMValueRef offs[2] = {i, j}, pv[2] = {src.vrows, src.vcols};
    int64_t size[2] = {res.rows, res.cols}, stat[2] = {res.valid_rows, res.valid_cols};
    for (int k = 0; k < 2; k++) {
        if (stat[k] != PTOC_DYNAMIC) {
            dims[k] = cg_i64(g, stat[k]);
            continue;
        }
        LLVMValueRef nonzero = LLVMBuildICmp(g->b, LLVMIntSGT, pv[k], cg_i64(g, 0), "");
        LLVMValueRef safe = LLVMBuildSelect(g->b, nonzero, pv[k], cg_i64(g, 1), "");
        LLVMValueRef mod = LLVMBuildSRem(g->b, offs[k], safe, "");
        mod = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, mod, cg_i64(g, 0), ""),
                              LLVMBuildAdd(g->b, mod, safe, ""), mod, "");
        LLVMValueRef left =
            LLVMBuildSelect(g->b, nonzero, LLVMBuildSub(g->b, pv[k], mod, ""), cg_i64(g, 0), "");
        LLVMValueRef sz = cg_i64(g, size[k]);
        dims[k] = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, sz, left, ""), sz, left, "");
    }
    LLVMValueRef agg = cg_tile_make(g, op->results[0].type, offset, dims[0], dims[1], op->loc);
    if (!agg)
        return false;
    cg_set(g, &op->results[0], agg);
    return true;
}

/* ---------------------------------------------------------------- debugging */

/* An element or scalar of `t`, in its compute type `v`, as the i64 or double
 * argument of the runtime's printing (the other one 0): its kind. */
static int32_t print_args(cg *g, const ptoc_type *t, LLVMValueRef v, LLVMValueRef *i, LLVMValueRef *f)
{
    if (ptoc_type_is_float(t)) {
        *i = cg_i64(g, 0);
        *f = LLVMTypeOf(v) == g->f64 ? v : LLVMBuildFPExt(g->b, v, g->f64, "");
        return PTOC_RT_PRINT_FLOAT;
    }
    bool is_unsigned = cg_is_unsigned(t) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 1;
    unsigned width = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    *i = width == 64   ? v
         : is_unsigned ? LLVMBuildZExt(g->b, v, g->i64, "")
                       : LLVMBuildSExt(g->b, v, g->i64, "");
    *f = LLVMConstReal(g->f64, 0);
    return is_unsigned ? PTOC_RT_PRINT_UNSIGNED : PTOC_RT_PRINT_SIGNED;
}

/* Rewrites `fmt` into `out` for the runtime: its one conversion with the
 * runtime's length (ll for integers, none for doubles), which *conv gets.
 * False, with *why set, when it does not have exactly one conversion that
 * suits a float (is_float) or an integer. */
static bool rewrite_format(const char *fmt, bool is_float, char *out, size_t size, char *conv,
                           const char **why)
{
    size_t n = 0, conversions = 0;
    for (const char *p = fmt; *p; p++) {
        if (n + 8 >= size) {
            *why = "is too long";
            return false;
        }
        out[n++] = *p;
        if (*p != '%')
            continue;
        if (p[1] == '%') {
            out[n++] = *++p;
            continue;
        }
        for (p++; *p && strchr("-+ #0", *p); p++)
            out[n++] = *p;
        for (; *p && strchr("0123456789.", *p); p++)
            out[n++] = *p;
        while (*p && strchr("hlLqjzt", *p))
            p++; /* the length is the runtime's */
        if (!*p || !strchr(is_float ? "fFeEgGaA" : "diouxX", *p)) {
            *why = is_float ? "needs a floating-point conversion (f, e, g or a) for a float scalar"
                            : "needs an integer conversion (d, i, u, o, x or X) for an integer scalar";
            return false;
        }
        if (!is_float) {
            out[n++] = 'l';
            out[n++] = 'l';
        }
        out[n++] = *conv = *p;
        conversions++;
    }
    out[n] = '\0';
    if (conversions != 1) {
        *why = "must have exactly one conversion, for the scalar";
        return false;
    }
    return true;
}

/* An integer `v` of `width` bits (in i64) as printf's conversion reads it after
 * C's promotions: an int at least, signed for d and i, unsigned otherwise. */
static int32_t as_conversion(cg *g, LLVMValueRef *v, unsigned width, char conv)
{
    bool is_signed = conv == 'd' || conv == 'i';
    unsigned promoted = width < 32 ? 32 : width;
    if (promoted < 64) {
        LLVMValueRef low = LLVMBuildTrunc(g->b, *v, LLVMIntTypeInContext(g->llctx, promoted), "");
        *v = is_signed ? LLVMBuildSExt(g->b, low, g->i64, "") : LLVMBuildZExt(g->b, low, g->i64, "");
    }
    return is_signed ? PTOC_RT_PRINT_SIGNED : PTOC_RT_PRINT_UNSIGNED;
}

/* The private constant string `s`. */
static LLVMValueRef const_string(cg *g, const char *s)
{
    LLVMValueRef init = LLVMConstStringInContext(g->llctx, s, (unsigned)strlen(s), false);
    LLVMValueRef gv = LLVMAddGlobal(g->mod, LLVMTypeOf(init), "print.fmt");
    LLVMSetInitializer(gv, init);
    LLVMSetGlobalConstant(gv, true);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(gv, LLVMGlobalUnnamedAddr);
    return gv;
}

/* `pto.print ins("fmt", %x : T)` */
static bool lower_print(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    ptoc_attr *fa = ptoc_op_attr(op, "format");
    const char *fmt = fa && fa->kind == PTOC_ATTR_STRING ? fa->u.string->str : NULL;
    const ptoc_type *t;
    LLVMValueRef v = cg_op_scalar(g, op, 0, &t);
    if (!fmt || !v)
        return false;
    if (!ptoc_type_is_float(t) && !ptoc_type_is_int_or_index(t)) {
        ptoc_op_emit_error(op, "prints an integer, index or float scalar");
        return false;
    }
    char text[512], conv = 0;
    const char *why = NULL;
    if (!rewrite_format(*fmt ? fmt : "%f", ptoc_type_is_float(t), text, sizeof text, &conv, &why)) {
        char shown[256];
        size_t n = 0;
        for (const char *c = fmt; *c && n + 3 < sizeof shown; c++) {
            if (*c == '\n' || *c == '\t' || *c == '"' || *c == '\\')
                shown[n++] = '\\';
            shown[n++] = *c == '\n' ? 'n' : *c == '\t' ? 't' : *c;
        }
        shown[n] = '\0';
        ptoc_op_emit_error(op, "the format \"%s\" %s", shown, why);
        return false;
    }
    LLVMValueRef i, f;
    int32_t kind = print_args(g, t, v, &i, &f);
    if (kind != PTOC_RT_PRINT_FLOAT)
        kind = as_conversion(g, &i, LLVMGetIntTypeWidth(LLVMTypeOf(v)), conv);
    LLVMValueRef args[4] = {const_string(g, text), cg_i32(g, kind), i, f};
    cg_call_runtime(g, "ptoc_rt_print", args, 4);
    return true;
}

/* `pto.tprint ins(%t : T)`: row by row, element by element. */
static bool lower_tprint(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_tile t;
    const ptoc_value *src = ptoc_op_operand(op, 0);
    if (!cg_tile_desc_of(src->type, &t.desc)) {
        ptoc_op_emit_error(op, "tprint of a view is not supported by the cpu target (pto-isa's cpu model "
                               "prints tiles: tload the window first)");
        return false;
    }
    if (!cg_tile_of(g, src, &t) || !cg_check_computable(op, "the tile", t.elem))
        return false;
    LLVMValueRef shape[2] = {t.vrows, t.vcols};
    cg_call_runtime(g, "ptoc_rt_tprint_begin", shape, 2);
    cg_loop rows, cols;
    cg_loop_begin(g, &rows, cg_i64(g, 0), t.vrows, "tprint.row");
    cg_loop_begin(g, &cols, cg_i64(g, 0), t.vcols, "tprint.col");
    LLVMValueRef v = cg_load_elem(g, t.elem, cg_tile_elem_ptr(g, &t, rows.iv, cols.iv));
    LLVMValueRef args[3];
    args[0] = cg_i32(g, print_args(g, t.elem, v, &args[1], &args[2]));
    cg_call_runtime(g, "ptoc_rt_tprint_value", args, 3);
    cg_loop_end(g, &cols);
    cg_call_runtime(g, "ptoc_rt_tprint_row_end", NULL, 0);
    cg_loop_end(g, &rows);
    cg_call_runtime(g, "ptoc_rt_tprint_end", NULL, 0);
    return true;
}

/* `pto.trap` */
static bool lower_trap(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)rule;
    cg_trap_if(g, LLVMConstInt(g->i1, 1, false), PTOC_RT_TRAP_KERNEL, op->loc, cg_i64(g, 0), cg_i64(g, 0),
               cg_i64(g, 0));
    return true;
}

const cg_rule cg_pto_scalar_ptr_rules[] = {
    {PTO(ADDPTR), lower_addptr, 0},
    {PTO(LOAD_SCALAR), lower_scalar_access, 0},
    {PTO(STORE_SCALAR), lower_scalar_access, 1},
    {PTO(GET_TENSOR_VIEW_DIM), lower_get_tensor_view_dim, 0},
    {STD("memref.reinterpret_cast"), lower_reinterpret_cast, 0},
    {PTO(POINTER_CAST), lower_pointer_cast, 0},
    {PTO(BIND_TILE), lower_bind_tile, 0},
    {PTO(DECLARE_TILE), lower_declare_tile, 0},
    {PTO(DECLARE_TILE_MEMREF), lower_declare_tile, 0},
    {PTO(SUBSET), lower_subset, 0},
    {PTO(BITCAST), lower_bitcast, 0},
    {PTO(TRESHAPE), lower_treshape, 0},
    {PTO(PRINT), lower_print, 0},
    {PTO(TPRINT), lower_tprint, 0},
    {PTO(TRAP), lower_trap, 0},
};
const size_t cg_pto_scalar_ptr_rule_count =
    sizeof cg_pto_scalar_ptr_rules / sizeof cg_pto_scalar_ptr_rules[0];
