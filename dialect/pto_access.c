/* pto_access.c: how ops touch memory, the one access model.
 *
 * Two layers. The effects rows say what the ISA lets a pto op do to its tile
 * operands; ptoc_pto_op_accesses turns them and the op's form into the list
 * of memory accesses of one op, which pto-plan-memory (liveness), pto-insert-
 * sync (hazards) and codegen's pipe events (the simulator's ranges) all read,
 * so that none of them can disagree with another.
 *
 * Effects, the effects columns of pto_ops.def (inpl ... vshape) expanded
 * into one row per opcode; every op that is not a pto op gets the
 * conservative answer (no in-place, outs not written whole). Why the rows say
 * what they say:
 *  - inplace_ins, inplace_ins_a2a3, inplace_rule: the hardware library lets the
 *    out be exactly in i (dst == src, one base address) on A5 (cpu follows A5)
 *    and on A2/A3, when the two types match as the rule says. pto-isa's
 *    implementations (include/pto/npu/a2a3, a5) read each source element
 *    before they write the destination bytes over it:
 *    - elementwise (tadd ... tmin, tand, tor), tile-scalar (tadds ... tmins,
 *      tlrelu) and unary ops (tabs, tneg, texp, tlog, tsqrt, trelu, tnot):
 *      with either in, same layout (SAME). A2/A3 issue one vector instruction
 *      per repeat with one offset for every operand (a2a3/TBinOp.hpp,
 *      TAdd.hpp:24,30, TUnaryOp.hpp:352-438, TNEG = TMULS :449-452); A5 loads
 *      a chunk, computes in registers and stores it (a5/TBinOp.hpp:35-38).
 *    - tfmod, trem, tprelu: A5 only. A2/A3 re-read src0 after writing dst
 *      (a2a3/TFmod.hpp:23-33, TRem.hpp:30-65, TPrelu.hpp:45-65).
 *    - tdivs: the tile in, A5 only. With the scalar first A2/A3 fill dst
 *      with the scalar and then divide by src (a2a3/TDivS.hpp:73-75, 96-98);
 *      with the tile first, in place, a float tdivs multiplies by 1/s instead
 *      (its alias guard, TDivS.hpp:104-113, 137-143), which may differ from
 *      x/s in the last bit, so the planner must not make it share there.
 *    - tcvt, tpack: NARROW. A2/A3 only with one element size ("A3 has no
 *      in-place tcvt", docs/isa/TQUANT.md:129; wider or narrower repeats
 *      overrun the source, a2a3/TCvt.hpp:983-1006, 1187-1213); A5 also when the
 *      out's element is narrower, row-major: chunk i is loaded before dst
 *      elements [iE, (i+1)E) are stored at or below it (a5/TCvt.hpp:79-135).
 *      tpack (A5 only: removed from pto-isa in 83f16ef4, whose a5/TPack.hpp was
 *      the same load-then-narrower-store loop).
 *    - tpartadd/max/min/mul: on A2/A3 only over the source with the out's
 *      valid shape, since with a narrower other source it copies that one
 *      into dst first (a2a3/TPartOp.hpp:174-181); either source on A5
 *      (a5/TPartBinOps.hpp:36-56) (FULL_A2A3).
 *    - trowexpand*: the full operand (in 0) only; the broadcast operand is read
 *      per row after earlier rows were stored (a2a3/TRowExpandBinOp.hpp:63-93,
 *      a5/TRowExpandBinOp.hpp:112-151). tcolexpand*: the in whose valid
 *      shape is the out's (FULL): row 0 of the broadcast operand is read for
 *      every row.
 *    - textract: only the identity window (ORIGIN: indices constant 0, one
 *      row stride, the out's rows no more than the in's), which copies every
 *      byte onto itself; any other window over its own source is a shifted
 *      copy whose order over overlapping bytes copy_ubuf_to_ubuf does not
 *      document (a2a3/TExtract.hpp:80-118, a5/TExtract.hpp:676-838).
 *    Not: taxpy (its out is also an in, so it is never written whole),
 *    tgather (its mask and compare forms store a compacted prefix of each
 *    row, not the whole valid region: a2a3/TGather.hpp:130, 258-262, so its
 *    out is never born at it),
 *    tcmp/tcmps, tsel/tsels, thistogram and the other transfers, which write
 *    parts of dst before they have read all of their sources, and tinsert (a
 *    window of its dst).
 *  - writes_valid: the op writes every element of its outs' valid regions and
 *    reads none of them first, so a write kills the old contents when the valid
 *    region is the whole tile: tload, tmov, the elementwise and tile-scalar ops,
 *    texpands (a scalar into every valid element), the tcolexpand family, tsel
 *    and tsels. Not tcmp/tcmps (a mask row gets the bytes the source's valid
 *    columns need, the rest keep their contents), thistogram (rows of dst
 *    follow the source's valid rows) nor tsetval (one element).
 *  - reads_outs (W = RW): the op reads its outs before it writes them:
 *    taxpy accumulates into dst (dst = src * s + dst), so dst's contents are
 *    needed up to it and sync orders an earlier write of dst before it.
 *  - scratch_ins: ins the op writes as scratch, so sync orders them as writes:
 *    the tmp of tsel (in 3) and tsels (in 2) in their 4-in forms, which A2/A3
 *    fill for set_cmpmask (ptoc_pto_select_scratch). In the 3-in form of
 *    tsels in 2 is the scalar, no buffer, so the bit changes nothing there.
 *  - window_archs: the archs whose hardware library stages the op's rows in
 *    the arch's hidden scratch window (pto_arch.c): on A2/A3, TROWEXPAND*,
 *    TCVT and TEXTRACT* use UB[184 KiB, 192 KiB), so the planner keeps it
 *    free in a function that has one of them.
 *  - vshape: the operand whose valid shape an op's result has, so that
 *    pto-bufferize can size the buffer of a result with a dynamic one: an
 *    elementwise op's first in (tsel/tsels: the first data in), tload's view,
 *    the tcolexpand family's and tdivs' in of the result's type (tdivs' scalar
 *    may come first).
 *
 * Accesses. Only memory counts: tiles, memrefs and tensor views; scalars and
 * handles have none. By the op's form:
 *  - DPS (operandSegmentSizes): its ins are read, its outs written; the
 *    operands after the outs (tload's clause operands, tmov's fp tile) are
 *    read. A scratch in is written and killed, never read.
 *  - Level 1 (no segments, on a row that has the Level-1 form): its operands
 *    are its ins and its results its outs, except an out it does not return,
 *    which is its last operand (tstore's view). Role k is the k-th of ins then
 *    outs in both forms, so the two forms of one op get the same list.
 *  - anything else (a pto op with a form of its own, or another dialect's
 *    op): every operand is read and written and every result written, never
 *    killed: the conservative answer.
 * An out is killed when the op writes its whole valid region (writes_valid)
 * and that region is the whole static tile (compact=row_plus_one keeps a row
 * the op does not write) or the whole on-chip memref. Bytes: a tile or on-chip memref whose address is a
 * constant (ptoc_pto_buffer_addr, memref pto.addr) covers [addr, addr +
 * ptoc_pto_buffer_bytes); a partition of a tensor view with constant offsets,
 * sizes and strides covers [lowest, highest + 1) byte from the pointer
 * argument it stands on (its root); anything else covers its whole space.
 */
#include "ptoc/pto.h"
#include "ptoc/ptoc.h"

#include <string.h>

/* ---------------------------------------------------------------- effects */

/* The inpl column packs IP(ins, ins on A2/A3, rule) (pto_ops.def). */
#define IP_INS(x) ((x) & 0xffu)
#define IP_INS_A2A3(x) (((x) >> 8) & 0xffu)
#define IP_RULE(x) ((ptoc_pto_inplace_rule)((x) >> 16))
#define PTO_OP(id, name, form, level1, pipe, ilo, ihi, olo, ohi, flags, parse, print, verify, parse_asm, print_asm, \
               inplace, whole, scratch, window, vshape)                                                          \
    [PTOC_PTO_OP_##id] = {IP_INS(inplace), IP_INS_A2A3(inplace), IP_RULE(inplace), (whole) == 1, (whole) == 2,    \
                          scratch, window, vshape},
static const ptoc_pto_effects effect_rows[PTOC_PTO_OP_COUNT] = {
#include "dialect/pto_ops.def"
};
#undef PTO_OP
#undef IP_RULE
#undef IP_INS_A2A3
#undef IP_INS

static const ptoc_pto_effects no_effects = {0, 0, PTOC_PTO_INPLACE_SAME, false, 0, 0, PTOC_PTO_VSHAPE_NONE};

const ptoc_pto_effects *ptoc_pto_op_effects(const ptoc_op *op)
{
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    return opcode == PTOC_PTO_OP_NONE ? &no_effects : &effect_rows[opcode];
}

/* ---------------------------------------------------------------- sizes */

uint64_t ptoc_pto_elem_bytes(const ptoc_type *elem)
{
    uint32_t bits = elem ? ptoc_type_bitwidth(elem) : 0;
    return bits < 8 ? 1 : (bits + 7) / 8;
}

bool ptoc_pto_buffer_bytes(const ptoc_type *t, uint64_t *bytes)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(t);
    ptoc_pto_address_space space;
    if (d) {
        uint64_t rows = (uint64_t)d->rows + (d->compact == PTOC_PTO_COMPACT_ROW_PLUS_ONE);
        *bytes = rows * (uint64_t)d->cols * ptoc_pto_elem_bytes(d->elem);
        return true;
    }
    if (!ptoc_pto_memref_space(t, &space))
        return false;
    uint64_t n = ptoc_pto_elem_bytes(t->u.shaped.elem);
    for (uint32_t i = 0; i < t->u.shaped.rank; i++) {
        int64_t s = t->u.shaped.shape[i];
        if (s == PTOC_DYNAMIC || s < 0)
            return false;
        n *= (uint64_t)s;
    }
    *bytes = n;
    return true;
}

/* ---------------------------------------------------------------- byte ranges */

/* The pointer argument a view or a GM memref stands on, else NULL. */
static const ptoc_value *gm_root(const ptoc_value *v)
{
    for (int depth = 0; depth < 64; depth++) {
        ptoc_op *d = ptoc_value_def(v);
        if (!d) {
            const ptoc_op *owner = v->owner.block->region ? v->owner.block->region->owner : NULL;
            return owner && ptoc_op_is(owner, "func.func") ? v : NULL;
        }
        bool view = ptoc_pto_is(d, PTOC_PTO_OP_PARTITION_VIEW) || ptoc_pto_is(d, PTOC_PTO_OP_MAKE_TENSOR_VIEW) ||
                    ptoc_op_is(d, "memref.subview") || ptoc_op_is(d, "memref.reinterpret_cast") ||
                    ptoc_op_is(d, "memref.cast");
        if (!view || d->noperands == 0)
            return NULL;
        v = ptoc_op_operand(d, 0);
    }
    return NULL;
}

static bool index_list(const ptoc_op *op, uint32_t first, uint32_t n, int64_t *out)
{
    for (uint32_t i = 0; i < n; i++)
        if (!ptoc_arith_int_constant(ptoc_op_operand(op, first + i), &out[i]) || out[i] < 0 ||
            out[i] > PTOC_MAX_DIM)
            return false;
    return true;
}

/* [lowest, highest + 1) byte of a partition of a tensor view, when constant. */
static void gm_range(const ptoc_value *v, const ptoc_type *elem, ptoc_pto_access *a)
{
    ptoc_op *pv = ptoc_value_def(v);
    ptoc_op *tv = pv && ptoc_pto_is(pv, PTOC_PTO_OP_PARTITION_VIEW) ? ptoc_value_def(ptoc_op_operand(pv, 0)) : NULL;
    uint32_t np = 0, nt = 0;
    const int64_t *ps = pv ? ptoc_op_segment_sizes(pv, &np) : NULL;
    const int64_t *ts = tv && ptoc_pto_is(tv, PTOC_PTO_OP_MAKE_TENSOR_VIEW) ? ptoc_op_segment_sizes(tv, &nt) : NULL;
    if (!ps || !ts || np != 3 || nt != 3)
        return;
    uint32_t rank = (uint32_t)ps[1];
    int64_t off[PTOC_PTO_MAX_VIEW_RANK], size[PTOC_PTO_MAX_VIEW_RANK], stride[PTOC_PTO_MAX_VIEW_RANK];
    if (rank == 0 || rank > PTOC_PTO_MAX_VIEW_RANK || ps[2] != ps[1] || ts[2] != ps[1] ||
        !index_list(pv, 1, rank, off) || !index_list(pv, 1 + rank, rank, size) ||
        !index_list(tv, 1 + (uint32_t)ts[1], rank, stride))
        return;
    uint64_t lo = 0, span = 0;
    for (uint32_t i = 0; i < rank; i++) {
        if (size[i] == 0)
            return;
        lo += (uint64_t)off[i] * (uint64_t)stride[i];
        span += (uint64_t)(size[i] - 1) * (uint64_t)stride[i];
    }
    a->known = true;
    a->lo = lo * ptoc_pto_elem_bytes(elem);
    a->hi = (lo + span + 1) * ptoc_pto_elem_bytes(elem);
}

/* The static address of the buffer `v` names, when it has one. */
static bool buffer_addr(const ptoc_value *v, uint64_t *addr)
{
    ptoc_op *d = ptoc_value_def(v);
    /* A reshape or bitcast of a tile is the same bytes seen another way
     * (pto-isa's TRESHAPE only re-points the tile at its source's data). */
    while (d && (ptoc_pto_is(d, PTOC_PTO_OP_TRESHAPE) || ptoc_pto_is(d, PTOC_PTO_OP_BITCAST)) && d->noperands == 1 &&
           d->nresults == 1 && ptoc_pto_tile_like(ptoc_op_operand(d, 0)->type))
        d = ptoc_value_def(ptoc_op_operand(d, 0));
    if (!d)
        return false;
    if (ptoc_pto_tile_like(v->type)) {
        ptoc_pto_addr a = ptoc_pto_buffer_addr(d);
        *addr = (uint64_t)a.offset;
        return a.known && a.offset >= 0;
    }
    ptoc_attr *attr = ptoc_op_attr(d, "pto.addr");
    *addr = attr && attr->kind == PTOC_ATTR_INTEGER ? (uint64_t)attr->u.integer.value : 0;
    return attr && attr->kind == PTOC_ATTR_INTEGER && attr->u.integer.value >= 0;
}

/* Where `v` lives, if it is memory: space, root and bytes. */
static bool locate(const ptoc_value *v, ptoc_pto_access *a)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(v->type);
    const ptoc_pto_view *pv = ptoc_pto_partition_view(v->type);
    ptoc_pto_address_space space;
    uint64_t addr, bytes;
    a->lo = 0;
    a->hi = UINT64_MAX;
    if (pv || ptoc_pto_tensor_view(v->type)) {
        a->space = PTOC_PTO_AS_GM;
        a->root = gm_root(v);
        if (pv)
            gm_range(v, pv->elem, a);
        return true;
    }
    if (d)
        space = (ptoc_pto_address_space)d->loc;
    else if (!ptoc_pto_memref_space(v->type, &space))
        return false;
    a->space = (int32_t)space;
    if (space == PTOC_PTO_AS_GM)
        a->root = gm_root(v);
    else if (buffer_addr(v, &addr) && ptoc_pto_buffer_bytes(v->type, &bytes)) {
        a->known = true;
        a->lo = addr;
        a->hi = addr + bytes;
    }
    return true;
}

/* ---------------------------------------------------------------- per op */

/* Whether an out of this type is written whole by an op that writes its
 * valid region: a tile whose valid region is all of it, or an on-chip memref
 * of static shape (a memref's valid region is its shape). */
static bool valid_is_whole(const ptoc_type *t)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(t);
    ptoc_pto_address_space space;
    uint64_t bytes;
    if (!d)
        return ptoc_pto_memref_space(t, &space) && space != PTOC_PTO_AS_GM && ptoc_pto_buffer_bytes(t, &bytes);
    return d->valid_rows == d->rows && d->valid_cols == d->cols && d->compact != PTOC_PTO_COMPACT_ROW_PLUS_ONE;
}

uint32_t ptoc_pto_op_max_accesses(const ptoc_op *op)
{
    return op->noperands + op->nresults + 1;
}

typedef enum use_kind { USE_IN, USE_OUT, USE_SCRATCH, USE_AFTER, USE_ANY } use_kind;

static uint32_t add(ptoc_pto_access *out, uint32_t n, const ptoc_value *v, uint32_t index, uint32_t role,
                    use_kind use, const ptoc_pto_effects *fx)
{
    ptoc_pto_access a = {.value = v, .index = index, .role = role};
    if (!locate(v, &a))
        return n;
    a.read = use == USE_IN || use == USE_AFTER || use == USE_ANY || (use == USE_OUT && fx && fx->reads_outs);
    a.write = use == USE_OUT || use == USE_SCRATCH || use == USE_ANY;
    a.kills = use == USE_SCRATCH || (use == USE_OUT && fx && fx->writes_valid && valid_is_whole(v->type));
    out[n] = a;
    return n + 1;
}

/* The op's ins and outs, when its form has them: a row of the DPS forms or
 * with the Level-1 form, read by its segments (`dps`) or by its Level-1
 * shape. In the Level-1 form an out the op does not return is its last
 * operand (tstore's view: `pto.tstore %t, %v`): *nouts counts the outs among
 * the operands, the results come after them. */
static bool split(const ptoc_op *op, uint32_t *nins, uint32_t *nouts, bool *dps)
{
    const ptoc_pto_op_info *info = ptoc_pto_op_info_of(op);
    uint32_t nseg;
    if (!info || (info->form == PTOC_PTO_FORM_CUSTOM && !info->level1))
        return false;
    *dps = ptoc_op_segment_sizes(op, &nseg) != NULL && nseg >= 2;
    if (*dps)
        return ptoc_pto_dps_split(op, nins, nouts);
    uint32_t missing = info->min_outs > op->nresults ? info->min_outs - op->nresults : 0;
    *nouts = missing < op->noperands ? missing : 0;
    *nins = op->noperands - *nouts;
    return true;
}

uint32_t ptoc_pto_op_accesses(const ptoc_op *op, ptoc_pto_access *out)
{
    const ptoc_pto_effects *fx = ptoc_pto_op_effects(op);
    uint32_t nins, nouts, n = 0;
    bool dps;
    if (!split(op, &nins, &nouts, &dps)) {
        for (uint32_t i = 0; i < op->noperands; i++)
            n = add(out, n, ptoc_op_operand(op, i), i, i, USE_ANY, NULL);
        for (uint32_t k = 0; k < op->nresults; k++)
            n = add(out, n, &op->results[k], op->noperands + k, op->noperands + k, USE_OUT, NULL);
        return n;
    }
    for (uint32_t i = 0; i < op->noperands; i++) {
        bool scratch = i < nins && i < 32 && (fx->scratch_ins & (1u << i));
        use_kind use = i < nins ? (scratch ? USE_SCRATCH : USE_IN) : i < nins + nouts ? USE_OUT : USE_AFTER;
        n = add(out, n, ptoc_op_operand(op, i), i, i, use, fx);
    }
    for (uint32_t k = 0; !dps && k < op->nresults; k++)
        n = add(out, n, &op->results[k], op->noperands + k, nins + nouts + k, USE_OUT, fx);
    return n;
}

/* ---------------------------------------------------------------- the scratch window */

/* The element bits of the op's last operand (its dst in the DPS form), 0 when unknown. */
static unsigned dst_bits(const ptoc_op *op)
{
    const ptoc_type *t = op->noperands ? ptoc_op_operand(op, op->noperands - 1)->type : NULL;
    const ptoc_pto_tile_desc *d = t ? ptoc_pto_tile_like(t) : NULL;
    const ptoc_type *e = d ? d->elem : t && t->kind == PTOC_TYPE_MEMREF ? t->u.shaped.elem : NULL;
    return e ? ptoc_type_bitwidth(e) : 0;
}

bool ptoc_pto_op_uses_window(const ptoc_op *op, ptoc_pto_arch arch)
{
    if ((ptoc_pto_op_effects(op)->window_archs >> arch) & 1u)
        return true;
    if (arch != PTOC_PTO_ARCH_A2 && arch != PTOC_PTO_ARCH_A3)
        return false;
    switch (ptoc_pto_opcode(op)) {
    case PTOC_PTO_OP_TEXPANDS: case PTOC_PTO_OP_TFILLPAD: case PTOC_PTO_OP_TFILLPAD_EXPAND:
    case PTOC_PTO_OP_TFILLPAD_INPLACE: case PTOC_PTO_OP_TCOLEXPAND: case PTOC_PTO_OP_TAND: case PTOC_PTO_OP_TOR:
    case PTOC_PTO_OP_TXOR: case PTOC_PTO_OP_TANDS: case PTOC_PTO_OP_TORS: case PTOC_PTO_OP_TXORS:
    case PTOC_PTO_OP_TNOT:
        return dst_bits(op) == 8;
    default:
        return false;
    }
}

/* ---------------------------------------------------------------- in place */

uint32_t ptoc_pto_inplace_ins(const ptoc_op *op, ptoc_pto_arch arch)
{
    const ptoc_pto_effects *fx = ptoc_pto_op_effects(op);
    return arch == PTOC_PTO_ARCH_A2 || arch == PTOC_PTO_ARCH_A3 ? fx->inplace_ins_a2a3 : fx->inplace_ins;
}

/* Element (i,j) of both tiles lies at one offset from their base. */
static bool same_addresses(const ptoc_pto_tile_desc *s, const ptoc_pto_tile_desc *d)
{
    return s->loc == d->loc && s->rows == d->rows && s->cols == d->cols && s->blayout == d->blayout &&
           s->slayout == d->slayout && s->fractal == d->fractal && s->compact == d->compact &&
           ptoc_pto_elem_bytes(s->elem) == ptoc_pto_elem_bytes(d->elem);
}

/* Row-major, one shape, the out's element no wider: element k of the out
 * ends at or below where element k of the in ends. */
static bool narrower_addresses(const ptoc_pto_tile_desc *s, const ptoc_pto_tile_desc *d)
{
    return s->loc == d->loc && s->rows == d->rows && s->cols == d->cols && s->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->blayout == PTOC_PTO_BL_ROW_MAJOR && s->slayout == PTOC_PTO_SL_NONE_BOX &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && s->compact == d->compact &&
           ptoc_pto_elem_bytes(d->elem) <= ptoc_pto_elem_bytes(s->elem);
}

static bool same_static_valid(const ptoc_pto_tile_desc *s, const ptoc_pto_tile_desc *d)
{
    return s->valid_rows != PTOC_DYNAMIC && s->valid_cols != PTOC_DYNAMIC && s->valid_rows == d->valid_rows &&
           s->valid_cols == d->valid_cols;
}

/* The op's operands 1 and 2 (textract's row and column) are the constant 0. */
static bool at_origin(const ptoc_op *op)
{
    int64_t row, col;
    return op->noperands > 2 && ptoc_arith_int_constant(ptoc_op_operand(op, 1), &row) && row == 0 &&
           ptoc_arith_int_constant(ptoc_op_operand(op, 2), &col) && col == 0;
}

/* A row-major window of the in's first rows: element (i,j) at one address. */
static bool leading_rows(const ptoc_pto_tile_desc *s, const ptoc_pto_tile_desc *d)
{
    return s->loc == d->loc && s->cols == d->cols && d->rows <= s->rows && s->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->blayout == PTOC_PTO_BL_ROW_MAJOR && s->slayout == PTOC_PTO_SL_NONE_BOX &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && s->compact == d->compact &&
           ptoc_pto_elem_bytes(s->elem) == ptoc_pto_elem_bytes(d->elem);
}

bool ptoc_pto_inplace_allowed(const ptoc_op *op, ptoc_pto_arch arch, uint32_t in, const ptoc_type *in_type,
                              const ptoc_type *out)
{
    if (in >= 32 || !(ptoc_pto_inplace_ins(op, arch) & (1u << in)))
        return false;
    const ptoc_pto_tile_desc *s = ptoc_pto_tile_like(in_type), *d = ptoc_pto_tile_like(out);
    if (!s || !d)
        return in_type == out;               /* memrefs: one type */
    bool a2a3 = arch == PTOC_PTO_ARCH_A2 || arch == PTOC_PTO_ARCH_A3;
    switch (ptoc_pto_op_effects(op)->inplace_rule) {
    case PTOC_PTO_INPLACE_SAME: return same_addresses(s, d);
    case PTOC_PTO_INPLACE_NARROW: return same_addresses(s, d) || (!a2a3 && narrower_addresses(s, d));
    case PTOC_PTO_INPLACE_FULL: return same_addresses(s, d) && same_static_valid(s, d);
    case PTOC_PTO_INPLACE_FULL_A2A3: return same_addresses(s, d) && (!a2a3 || same_static_valid(s, d));
    case PTOC_PTO_INPLACE_ORIGIN: return leading_rows(s, d) && at_origin(op);
    }
    return false;
}

bool ptoc_pto_accesses_overlap(const ptoc_pto_access *x, const ptoc_pto_access *y)
{
    if (x->space != PTOC_PTO_SPACE_ANY && y->space != PTOC_PTO_SPACE_ANY) {
        if (x->space != y->space)
            return false;
        if (x->space == PTOC_PTO_AS_GM && x->root && y->root && x->root != y->root)
            return false;
    }
    return x->lo < y->hi && y->lo < x->hi;
}
