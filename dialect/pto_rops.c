/* pto_rops.c: the rules of the A2/A3 repeat intrinsics, the a2a3.* rows of
 * dialect/pto_vops.def. pto_vops.c reads and prints them as it does the A5
 * micro-ops and checks their operand counts and kinds; this file checks what
 * each rule adds:
 *   - the pointers of an arithmetic op share one element type, and its
 *     scalar is of that type; a compare writes its bits to a u8 (or
 *     signless i8) destination;
 *   - the element types the A2/A3 vector unit computes on: f16, f32, i16,
 *     i32 (pto-isa a2a3: every vector program casts to these), floats only
 *     for the transcendental ops, integers only for the bitwise ones;
 *   - blk and rep list one stride per pointer (vbrcb and vector_dup: the
 *     destination's only), each 0..255 (the intrinsics' uint8 fields);
 *   - vsel's sel_mode is CMPMASK_SPR, TENSOR_SCALAR or TENSOR_TENSOR;
 *   - the copies' two pointers share one element type (the bursts count
 *     bytes or blocks, so any type moves).
 *   - ub_addr gives an integer address (i32 or i64, as the programs cast
 *     it: TSel.hpp's uint32_t), ub_ptr takes one.
 *   - vconv converts between a pair a2a3 TCvt.hpp converts with one vconv_*
 *     instruction (vconv_deq aside); rnd is R A F C Z or O (O from f32 to f16
 *     only, the one vconv_*o), sat SAT or NOSAT, rep two strides.
 *   - ld_ub / st_ub move one element of the pointer's element type.
 *   - vgather moves 16- or 32-bit elements at u32 offsets (vgatherb whole
 *     blocks of any type, and reports as vgather does); vreducev2 packs
 *     16- or 32-bit elements.
 *   - vbitsort sorts f16 or f32 values with 32-bit indices; vmrgsort4's
 *     lists and destination share one element type, f16 or f32.
 * The counts (repeat, the burst fields) are values: their ranges are the
 * lowering's to keep (repeats above 255 split) and the definition's to
 * check at run time.
 */
#include "dialect/pto_internal.h"

#include <stdio.h>
#include <string.h>

static const ptoc_type *ptr_elem(const ptoc_type *t)
{
    const ptoc_type *e = ptoc_pto_ub_ptr_elem(t);
    return e ? e : ptoc_pto_ptr_elem(t);
}

/* The computed element types: f16, f32, i16, i32 (either sign). */
static bool computable(const ptoc_type *e, bool floats, bool ints)
{
    unsigned bits = ptoc_type_bitwidth(e);
    if (ptoc_type_is_float(e))
        return floats && (e->u.fp.kind == PTOC_F16 || e->u.fp.kind == PTOC_F32);
    return ints && ptoc_type_is_int(e) && (bits == 16 || bits == 32);
}

static bool check_elem(const ptoc_op *op, const ptoc_type *e, bool floats, bool ints)
{
    if (computable(e, floats, ints))
        return true;
    ptoc_op_emit_error(op, "computes on %s", floats && ints ? "f16, f32, i16 or i32 elements"
                                             : floats      ? "f16 or f32 elements"
                                                           : "i16 or i32 elements");
    return false;
}

/* A stride list's n entries, each an integer 0..255, when the list is there. */
static bool check_stride_list(const ptoc_op *op, const char *name, uint32_t n)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    if (!a)
        return true;
    bool ok = a->kind == PTOC_ATTR_ARRAY && a->u.array.n == n;
    for (uint32_t i = 0; ok && i < n; i++) {
        const ptoc_attr *e = a->u.array.elems[i];
        ok = e->kind == PTOC_ATTR_INTEGER && e->u.integer.value >= 0 && e->u.integer.value <= 255;
    }
    if (!ok)
        ptoc_op_emit_error(op, "%s lists %u strides, each 0..255 (32-byte blocks)", name, n);
    return ok;
}

/* The element type shared by the pointer operands from `first` on (NULL
 * after an error). */
static const ptoc_type *shared_elem(const ptoc_op *op, const ptoc_type *const *types, const char *kinds, uint32_t n,
                                    uint32_t first)
{
    const ptoc_type *e = NULL;
    for (uint32_t i = first; i < n; i++) {
        if (kinds[i] != 'p' && kinds[i] != 'g')
            continue;
        const ptoc_type *here = ptr_elem(types[i]);
        if (e && here != e) {
            ptoc_op_emit_error(op, "its pointers must have one element type");
            return NULL;
        }
        e = here;
    }
    return e;
}

static bool scalar_is(const ptoc_op *op, const ptoc_type *const *types, const char *kinds, uint32_t n,
                      const ptoc_type *e)
{
    for (uint32_t i = 0; i < n; i++) {
        const ptoc_type *t = types[i];
        if (kinds[i] != 's' || t == e)
            continue;
        if (ptoc_type_is_int(t) && ptoc_type_is_int(e) && t->u.integer.sign == PTOC_SIGNLESS &&
            ptoc_type_bitwidth(t) == ptoc_type_bitwidth(e))
            continue;
        ptoc_op_emit_error(op, "its scalar must have the pointers' element type");
        return false;
    }
    return true;
}

static bool bits_destination(const ptoc_op *op, const ptoc_type *dst)
{
    const ptoc_type *e = ptr_elem(dst);
    if (ptoc_type_is_int(e) && ptoc_type_bitwidth(e) == 8 && e->u.integer.sign != PTOC_SIGNED)
        return true;
    ptoc_op_emit_error(op, "writes its bits to a !pto.ptr<ui8, ub>");
    return false;
}

/* Arithmetic on one element type: its pointers from `first`, its scalars. */
static bool check_arith(const ptoc_op *op, const ptoc_type *const *types, const char *kinds, uint32_t n,
                        uint32_t first, bool floats, bool ints, uint32_t nstrides)
{
    const ptoc_type *e = shared_elem(op, types, kinds, n, first);
    return e && check_elem(op, e, floats, ints) && scalar_is(op, types, kinds, n, e) &&
           check_stride_list(op, "blk", nstrides) && check_stride_list(op, "rep", nstrides);
}

static bool check_sel(const ptoc_op *op, const ptoc_type *const *types, const char *kinds, uint32_t n)
{
    ptoc_attr *mode = ptoc_op_attr(op, "sel_mode");
    const char *m = mode ? mode->u.string->str : "";
    if (strcmp(m, "CMPMASK_SPR") && strcmp(m, "TENSOR_SCALAR") && strcmp(m, "TENSOR_TENSOR")) {
        ptoc_op_emit_error(op, "sel_mode must be CMPMASK_SPR, TENSOR_SCALAR or TENSOR_TENSOR");
        return false;
    }
    /* TENSOR_SCALAR's third pointer holds the bits, not elements */
    uint32_t data = strcmp(m, "TENSOR_SCALAR") ? n : 2;
    return check_arith(op, types, kinds, data, 0, true, true, 3);
}

/* A UB address as an integer: i32 or i64 of any sign (UB is 192 KiB). */
static bool ub_address(const ptoc_op *op, const ptoc_type *t)
{
    unsigned bits = ptoc_type_is_int(t) ? ptoc_type_bitwidth(t) : 0;
    if (bits == 32 || bits == 64)
        return true;
    ptoc_op_emit_error(op, "a UB address is an i32 or i64");
    return false;
}

const char *ptoc_pto_vconv_type_name(const ptoc_type *e)
{
    if (ptoc_type_is_float(e)) {
        ptoc_float_kind k = e->u.fp.kind;
        return k == PTOC_F16 ? "f16" : k == PTOC_BF16 ? "bf16" : k == PTOC_F32 ? "f32" : "";
    }
    if (!ptoc_type_is_int(e))
        return "";
    bool u = e->u.integer.sign == PTOC_UNSIGNED;
    switch (ptoc_type_bitwidth(e)) {
    case 8: return u ? "u8" : "s8";
    case 16: return u ? "" : "s16";
    case 32: return u ? "" : "s32";
    case 64: return u ? "" : "s64";
    }
    return "";
}

/* The pairs of a2a3 TCvt.hpp's vconv_* instructions, "src>dst". */
static const char *const conv_pairs[] = {
    "f32>f16", "f32>f32", "f32>bf16", "f32>s16", "f32>s32", "f32>s64", "f16>f32", "f16>s32", "f16>s16",
    "f16>s8",  "f16>u8",  "bf16>f32", "bf16>s32", "s16>f16", "s16>f32", "s32>f32", "s32>s16", "s32>s64",
    "s64>f32", "s64>s32", "u8>f16",   "s8>f16",
};

static bool check_conv(const ptoc_op *op, const ptoc_type *const *types)
{
    char pair[16];
    snprintf(pair, sizeof pair, "%s>%s", ptoc_pto_vconv_type_name(ptr_elem(types[1])),
             ptoc_pto_vconv_type_name(ptr_elem(types[0])));
    bool known = false;
    for (size_t i = 0; i < sizeof conv_pairs / sizeof conv_pairs[0]; i++)
        known |= !strcmp(conv_pairs[i], pair);
    if (!known) {
        ptoc_op_emit_error(op, "has no vconv from its source's element type to its destination's");
        return false;
    }
    ptoc_attr *rnd = ptoc_op_attr(op, "rnd"), *sat = ptoc_op_attr(op, "sat");
    const char *r = rnd ? rnd->u.string->str : "R", *s = sat ? sat->u.string->str : "SAT";
    if (strlen(r) != 1 || !strchr("RAFCZO", r[0]) || (r[0] == 'O' && strcmp(pair, "f32>f16"))) {
        ptoc_op_emit_error(op, "rnd must be R, A, F, C, Z, or O from f32 to f16");
        return false;
    }
    if (strcmp(s, "SAT") && strcmp(s, "NOSAT")) {
        ptoc_op_emit_error(op, "sat must be SAT or NOSAT");
        return false;
    }
    return check_stride_list(op, "rep", 2);
}

/* ld_ub / st_ub: the value is of the pointer's element type. */
static bool ub_scalar(const ptoc_op *op, const ptoc_type *const *types, const char *kinds)
{
    bool load = kinds[0] == 'p';
    const ptoc_type *e = ptr_elem(types[load ? 0 : 1]), *v = types[load ? 1 : 0];
    if (e == v || (ptoc_type_is_int(e) && ptoc_type_is_int(v) && ptoc_type_bitwidth(e) == ptoc_type_bitwidth(v)))
        return true;
    ptoc_op_emit_error(op, "moves an element of its UB pointer's element type");
    return false;
}

/* vgather: 16- or 32-bit data, 32-bit integer offsets; vreducev2: 16- or
 * 32-bit data, the source of the same width. */
static bool check_gather(const ptoc_op *op, const ptoc_type *const *types, uint32_t n)
{
    const ptoc_type *d = ptr_elem(types[0]), *s = ptr_elem(types[1]);
    unsigned bits = ptoc_type_bitwidth(d);
    bool gather = n == 4;
    if (gather && ptoc_pto_vop(op) == PTOC_PTO_VOP_A2A3_VGATHERB && ptoc_type_is_int(s) &&
        ptoc_type_bitwidth(s) == 32)
        return true;   /* vgatherb moves whole blocks: any element type */
    if ((bits == 16 || bits == 32) &&
        (gather ? ptoc_type_is_int(s) && ptoc_type_bitwidth(s) == 32 : ptoc_type_bitwidth(s) == bits))
        return true;
    ptoc_op_emit_error(op, gather ? "gathers 16- or 32-bit elements at 32-bit integer offsets"
                                  : "packs 16- or 32-bit elements from a source of their width");
    return false;
}

/* vbitsort: f16 or f32 dst and src, 32-bit integer indices; vmrgsort4: the
 * five pointers share one element type, f16 or f32. */
static bool check_sort(const ptoc_op *op, const ptoc_type *const *types, uint32_t n)
{
    const ptoc_type *e = ptr_elem(types[0]);
    bool ok = computable(e, true, false);
    uint32_t nptrs = n == 4 ? 2 : 5;
    for (uint32_t i = 1; i < nptrs; i++)
        ok = ok && ptr_elem(types[i]) == e;
    if (n == 4) {
        const ptoc_type *ix = ptr_elem(types[2]);
        ok = ok && ptoc_type_is_int(ix) && ptoc_type_bitwidth(ix) == 32;
    }
    if (ok)
        return true;
    ptoc_op_emit_error(op, n == 4 ? "sorts f16 or f32 values with 32-bit integer indices"
                                  : "merges lists of one element type, f16 or f32");
    return false;
}

bool pto_check_rop(const ptoc_op *op, pto_rop_rule rule, const ptoc_type *const *types, const char *kinds,
                   uint32_t n)
{
    switch (rule) {
    case PTO_ROP_BINARY: return check_arith(op, types, kinds, n, 0, true, true, 3);
    case PTO_ROP_BINARY_INT: return check_arith(op, types, kinds, n, 0, false, true, 3);
    case PTO_ROP_UNARY: return check_arith(op, types, kinds, n, 0, true, true, 2);
    case PTO_ROP_UNARY_FLOAT: return check_arith(op, types, kinds, n, 0, true, false, 2);
    case PTO_ROP_UNARY_INT: return check_arith(op, types, kinds, n, 0, false, true, 2);
    case PTO_ROP_SCALAR: return check_arith(op, types, kinds, n, 0, true, true, 2);
    case PTO_ROP_SCALAR_INT: return check_arith(op, types, kinds, n, 0, false, true, 2);
    case PTO_ROP_CMP: return bits_destination(op, types[0]) && check_arith(op, types, kinds, n, 1, true, true, 3);
    case PTO_ROP_CMPS: return bits_destination(op, types[0]) && check_arith(op, types, kinds, n, 1, true, true, 2);
    case PTO_ROP_SEL: return check_sel(op, types, kinds, n);
    case PTO_ROP_BRCB: return check_arith(op, types, kinds, n, 0, true, true, 1);
    case PTO_ROP_DUP: return check_arith(op, types, kinds, n, 0, true, true, 1);
    case PTO_ROP_COPY_IN:
    case PTO_ROP_COPY_OUT:
    case PTO_ROP_COPY_UB: return shared_elem(op, types, kinds, n, 0) != NULL;
    case PTO_ROP_UB_ADDR:
    case PTO_ROP_UB_PTR: return ub_address(op, types[rule == PTO_ROP_UB_ADDR ? 1 : 0]);
    case PTO_ROP_CONV: return check_conv(op, types);
    case PTO_ROP_UB_SCALAR: return ub_scalar(op, types, kinds);
    case PTO_ROP_GATHER: return check_gather(op, types, n);
    case PTO_ROP_SORT: return check_sort(op, types, n);
    case PTO_ROP_SET_MASK:
    case PTO_ROP_MODE:
    case PTO_ROP_SET_CMPMASK: return true;
    }
    return true;
}
