/* lower_a5_reduce.c: pto-lower-a5's row and column reductions.
 *
 * Each op becomes a pto.vecscope holding the micro-op program of pto-isa's
 * include/pto/npu/a5 kernel for it, which computes in the order the cpu
 * target's reductions follow (codegen/lower_pto_reduce.c):
 *
 *   trowsum trowmax trowmin   (TRowReduce.hpp) per row: acc = vbr(identity); per
 *                             register of the row (plt of the columns left): vlds,
 *                             vcadd/vcmax/vcmin under that predicate, then
 *                             acc = vadd/vmax/vmin(acc, it) on lane 0; vsts lane 0
 *   trowprod                  (TRowProd.hpp) per row: d = vbr(1); per register
 *                             vmul(d, it) MERGING under the tail predicate; then
 *                             log2(lanes) steps of vintlv(d, ones) and vmul of the
 *                             two halves; vsts lane 0
 *   tcolsum tcolmax tcolmin   (TColReduceOps.hpp, the default PostUpdate kernel)
 *   tcolprod                  per register of the columns: acc = row 0, then
 *                             acc = OP(acc, OP(row 2k+1, row 2k+2)), then OP(acc,
 *                             the last row) when one is left; vsts
 *
 * Two departures from the library, neither changing a value: its i16 vcadd
 * gives i32 vb_lanes that vcvt truncates back, ptoc's sums i16 lanes with the
 * same low bits; its 8-bit vcmax/vcmin widen to 16 bits (vcvt EVEN and ODD,
 * two vcmax, a vmax), ptoc's vcmax takes the 8-bit lanes. A float sum or
 * product ends with a vcmp/vsel that makes a NaN the quiet NaN 0x7fc00000:
 * the host's vadd makes x86's negative default NaN of inf - inf, where the
 * cpu target and its reference give 0x7fc00000 (docs/decisions.md).
 *
 *   tcolargmax tcolargmin     (TColReduceIdx.hpp, TColReduceIdxChunk16_32) per
 *                             register of the columns: old = row 0, index old =
 *                             new = 0; per later row: new += 1 (vadds), vcmp gt
 *                             (lt) of the row against old, vsel of both; vsts of
 *                             the index. 16-bit data keep 16-bit indices (the
 *                             library's vector_s16) that vcvt EVEN and ODD, vintlv
 *                             and two vsts widen into the 32-bit index tile;
 *                             8-bit data (TColReduceIdxChunk8) compare as their
 *                             even and odd bytes widened to 16 bits (vcvt EVEN,
 *                             ODD), their indices vintlv'ed back into order
 *
 *   trowargmax trowargmin     (TRowReduceIdx.hpp) per row: value = vbr(the
 *                             identity), index = base = 0; per register of the
 *                             row: vlds, vcmax/vcmin under the tail predicate
 *                             (value in lane 0, its index in lane 1), vdintlv
 *                             with zeros splits them, vbitcast reads the index
 *                             as the index tile's type, vadd adds base; vcmp lt
 *                             (gt) of value against the new one, vsel of both;
 *                             base += lanes (vadds); vsts lane 0 of the index
 *
 * The column programs' strict ordered compare takes the first best and never
 * a NaN, as the cpu target does. The row program above is for integer
 * data: with a NaN in a row, vcmax's tree (max as vmax) can lose the row's
 * best value, and a NaN first element wins on the cpu target but not across
 * registers in the library's sequence, so float rows take compares and
 * selects instead (lower_a5_argf.c, docs/decisions.md). tmp, when present, is unused, as
 * on the hardware. A 64-bit column reduction keeps its accumulator in an
 * scf.for's iteration argument, which pto-split-u64 does not split: it runs
 * as 64-bit micro-ops.
 */
#include "passes/lower_a5.h"
#include "passes/passes.h"
#include "passes/vop_builder.h"
#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <math.h>
#include <string.h>

bool a5_reduce_lowers(ptoc_pto_op_id opcode);
void a5_reduce_lower(vop_builder *L, ptoc_op *op);

typedef enum red_kind { RED_SUM, RED_MAX, RED_MIN, RED_PROD } red_kind;

typedef struct red_row { ptoc_pto_op_id op; red_kind kind; bool row; } red_row;

static const red_row red_rows[] = {
    {PTOC_PTO_OP_TROWSUM, RED_SUM, true},  {PTOC_PTO_OP_TROWMAX, RED_MAX, true},
    {PTOC_PTO_OP_TROWMIN, RED_MIN, true},  {PTOC_PTO_OP_TROWPROD, RED_PROD, true},
    {PTOC_PTO_OP_TCOLSUM, RED_SUM, false}, {PTOC_PTO_OP_TCOLMAX, RED_MAX, false},
    {PTOC_PTO_OP_TCOLMIN, RED_MIN, false}, {PTOC_PTO_OP_TCOLPROD, RED_PROD, false},
};

static const red_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof red_rows / sizeof red_rows[0]; i++)
        if (red_rows[i].op == opcode)
            return &red_rows[i];
    return NULL;
}

static bool col_arg(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TCOLARGMAX || opcode == PTOC_PTO_OP_TCOLARGMIN;
}

static bool row_arg(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TROWARGMAX || opcode == PTOC_PTO_OP_TROWARGMIN;
}

bool a5_reduce_lowers(ptoc_pto_op_id opcode)
{
    return row_of(opcode) != NULL || col_arg(opcode) || row_arg(opcode);
}

/* ---------------------------------------------------------------- registers */

/* The predicate of the first min(n, count) lanes. */
static ptoc_value *load(vop_builder *L, const vb_lanes *ln, ptoc_value *ptr, ptoc_value *off)
{
    ptoc_value *ops[2] = {ptr, off};
    return vb_vop1(L, PTOC_PTO_VOP_VLDS, 2, ops, ln->vreg, "dist", "NORM");
}

static void store(vop_builder *L, const vb_lanes *ln, ptoc_value *v, ptoc_value *ptr, ptoc_value *off,
                  ptoc_value *m)
{
    ptoc_value *ops[4] = {v, ptr, off, m};
    const char *dist = ln->bits == 8 ? "NORM_B8" : ln->bits == 16 ? "NORM_B16" : "NORM_B32";
    vb_vop(L, PTOC_PTO_VOP_VSTS, 4, ops, 0, NULL, "dist", dist, NULL, NULL);
}

static ptoc_value *binary(vop_builder *L, const vb_lanes *ln, ptoc_pto_vop_id id, ptoc_value *a, ptoc_value *b,
                          ptoc_value *m)
{
    ptoc_value *ops[3] = {a, b, m};
    return vb_vop1(L, id, 3, ops, ln->vreg, NULL, NULL);
}

static ptoc_value *broadcast(vop_builder *L, const vb_lanes *ln, ptoc_value *s)
{
    return vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &s, ln->vreg, NULL, NULL);
}

/* ---------------------------------------------------------------- loops carrying registers */

enum { CARRY_MAX = 5 };       /* the most registers a loop carries (8-bit tcolargmax) */

/* ---------------------------------------------------------------- the programs */

static ptoc_pto_vop_id join_vop(red_kind k)
{
    static const ptoc_pto_vop_id ids[] = {PTOC_PTO_VOP_VADD, PTOC_PTO_VOP_VMAX, PTOC_PTO_VOP_VMIN,
                                          PTOC_PTO_VOP_VMUL};
    return ids[k];
}

/* The identity of the reduction as a scalar of the element type. */
static ptoc_value *identity(vop_builder *L, red_kind k, ptoc_type *elem)
{
    if (ptoc_type_is_float(elem))
        return vb_float(L, elem, k == RED_SUM    ? 0.0
                                 : k == RED_PROD ? 1.0
                                 : k == RED_MAX  ? -INFINITY
                                                 : INFINITY);
    unsigned bits = ptoc_type_bitwidth(elem);
    bool u = elem->u.integer.sign == PTOC_UNSIGNED;
    int64_t top = (int64_t)((uint64_t)1 << (bits - 1));      /* the sign bit's value, wrapped */
    int64_t v = k == RED_SUM ? 0 : k == RED_PROD ? 1 : k == RED_MAX ? (u ? 0 : top) : (u ? -1 : ~top);
    return vb_int(L, ptoc_type_int(L->ctx, bits, PTOC_SIGNLESS), v);
}

/* A float sum's or product's NaN vb_lanes made the quiet NaN (see the header). */
static ptoc_value *quiet_nan(vop_builder *L, const vb_lanes *ln, red_kind k, ptoc_value *v, ptoc_value *m,
                             ptoc_value *nan)
{
    if (!ptoc_type_is_float(ln->elem) || k == RED_MAX || k == RED_MIN)
        return v;
    ptoc_value *cops[3] = {v, v, m};
    ptoc_op *cmp = vb_vop(L, PTOC_PTO_VOP_VCMP, 3, cops, 1, &ln->mask, "cmp_mode", "ne", NULL, NULL);
    ptoc_value *is_nan = vb_result0(cmp);
    ptoc_value *sops[3] = {nan, v, is_nan};
    return vb_vop1(L, PTOC_PTO_VOP_VSEL, 3, sops, ln->vreg, NULL, NULL);
}

static ptoc_value *nan_register(vop_builder *L, const vb_lanes *ln, red_kind k)
{
    if (!ptoc_type_is_float(ln->elem) || k == RED_MAX || k == RED_MIN)
        return NULL;
    return broadcast(L, ln, vb_float(L, ln->elem, NAN));
}

typedef struct red_op { const red_row *row; ptoc_value *src, *dst; } red_op;

/* An Nx1 col_major none_box tile: a row reduction's dst in PTOAS's kernels. */
static bool one_column(const ptoc_pto_tile_desc *t)
{
    return t->loc == PTOC_PTO_AS_VEC && t->blayout == PTOC_PTO_BL_COL_MAJOR && t->slayout == PTOC_PTO_SL_NONE_BOX &&
           t->cols == 1;
}

/* trowsum, trowmax, trowmin, trowprod. */
static void row_program(vop_builder *L, const red_op *r)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(r->src->type), *d = vb_tile_desc(r->dst->type);
    red_kind k = r->row->kind;
    vb_lanes ln = vb_lanes_of(L, s->elem);
    ptoc_value *sp = vb_tile_ptr(L, r->src, s->elem), *dp = vb_tile_ptr(L, r->dst, s->elem);
    ptoc_op *valid = vb_tile_valid(L, r->src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    /* a one-column col_major dst (PTOAS's kernels' Nx1 DN tile) holds its rows contiguously */
    ptoc_value *sstride = vb_index(L, s->cols), *dstride = vb_index(L, one_column(d) ? 1 : d->cols);
    ptoc_value *lane0 = vb_first(L, &ln, one), *all = k == RED_PROD ? vb_first(L, &ln, step) : NULL;
    ptoc_value *init = broadcast(L, &ln, identity(L, k, s->elem));
    ptoc_value *nan = nan_register(L, &ln, k);
    vb_loop rows;
    vb_carried chunks;
    ptoc_value *row = vb_loop_begin(L, &rows, zero, vrows, one);
    ptoc_value *base = vb_arith(L, "arith.muli", row, sstride), *acc;
    ptoc_value *c = vb_carry_begin(L, &chunks, zero, vcols, step, init, &acc);
    ptoc_value *tail = vb_first(L, &ln, vb_arith(L, "arith.subi", vcols, c));
    ptoc_value *x = load(L, &ln, sp, vb_arith(L, "arith.addi", base, c));
    if (k == RED_PROD) {
        ptoc_value *ops[3] = {acc, x, tail};
        acc = vb_vop1(L, PTOC_PTO_VOP_VMUL, 3, ops, ln.vreg, "mode", "MERGING");
    } else {
        static const ptoc_pto_vop_id cross[] = {PTOC_PTO_VOP_VCADD, PTOC_PTO_VOP_VCMAX, PTOC_PTO_VOP_VCMIN};
        ptoc_value *ops[2] = {x, tail};
        ptoc_value *t = vb_vop1(L, cross[k], 2, ops, ln.vreg, NULL, NULL);
        acc = binary(L, &ln, join_vop(k), acc, t, lane0);
    }
    acc = vb_carry_end(L, &chunks, acc);
    for (int64_t n = ln.count; k == RED_PROD && n > 1; n /= 2) {
        ptoc_value *ops[2] = {acc, init};
        ptoc_type *two[2] = {ln.vreg, ln.vreg};
        ptoc_op *pair = vb_vop(L, PTOC_PTO_VOP_VINTLV, 2, ops, 2, two, NULL, NULL, NULL, NULL);
        acc = binary(L, &ln, PTOC_PTO_VOP_VMUL, ptoc_op_result(pair, 0), ptoc_op_result(pair, 1), all);
    }
    acc = quiet_nan(L, &ln, k, acc, lane0, nan);
    store(L, &ln, acc, dp, vb_arith(L, "arith.muli", row, dstride), lane0);
    vb_loop_end(L, &rows);
}

/* tcolsum, tcolmax, tcolmin, tcolprod. */
static void col_program(vop_builder *L, const red_op *r)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(r->src->type);
    red_kind k = r->row->kind;
    ptoc_pto_vop_id vop = join_vop(k);
    vb_lanes ln = vb_lanes_of(L, s->elem);
    ptoc_value *sp = vb_tile_ptr(L, r->src, s->elem), *dp = vb_tile_ptr(L, r->dst, s->elem);
    ptoc_op *valid = vb_tile_valid(L, r->src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *two = vb_index(L, 2);
    ptoc_value *step = vb_index(L, ln.count), *sstride = vb_index(L, s->cols);
    ptoc_value *nan = nan_register(L, &ln, k);
    ptoc_value *rest = vb_arith(L, "arith.subi", vrows, one);
    ptoc_value *pairs = vb_arith(L, "arith.divui", rest, two), *odd = vb_arith(L, "arith.remui", rest, two);
    vb_loop cols;
    vb_carried pair_loop, odd_loop;
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *m = vb_first(L, &ln, vb_arith(L, "arith.subi", vcols, c)), *acc;
    ptoc_value *j = vb_carry_begin(L, &pair_loop, zero, pairs, one, load(L, &ln, sp, c), &acc);
    ptoc_value *r1 = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", j, two), one);
    ptoc_value *o1 = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r1, sstride), c);
    ptoc_value *a = load(L, &ln, sp, o1), *b = load(L, &ln, sp, vb_arith(L, "arith.addi", o1, sstride));
    acc = vb_carry_end(L, &pair_loop, binary(L, &ln, vop, acc, binary(L, &ln, vop, a, b, m), m));
    (void)vb_carry_begin(L, &odd_loop, zero, odd, one, acc, &acc);         /* the row left over: 0 or 1 times */
    ptoc_value *last_row = vb_arith(L, "arith.muli", rest, sstride);
    ptoc_value *last = load(L, &ln, sp, vb_arith(L, "arith.addi", last_row, c));
    acc = vb_carry_end(L, &odd_loop, binary(L, &ln, vop, acc, last, m));
    store(L, &ln, quiet_nan(L, &ln, k, acc, m, nan), dp, c, m);
    vb_loop_end(L, &cols);
}

/* ---------------------------------------------------------------- operands */

static bool plain_vec(const ptoc_pto_tile_desc *t, const ptoc_type *elem)
{
    return t && t->loc == PTOC_PTO_AS_VEC && t->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           t->slayout == PTOC_PTO_SL_NONE_BOX && t->elem == elem;
}

static bool operands(const ptoc_op *op, red_op *out)
{
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return false;
    *out = (red_op){row_of(ptoc_pto_opcode(op)), ptoc_op_operand(op, 0), ptoc_op_operand(op, (uint32_t)nins)};
    const ptoc_pto_tile_desc *s = vb_tile_desc(out->src->type), *d = vb_tile_desc(out->dst->type);
    if (!s || !d || !plain_vec(s, s->elem) ||
        !(plain_vec(d, s->elem) || (out->row->row && one_column(d) && d->elem == s->elem)))
        return false;
    const ptoc_type *e = s->elem;
    unsigned bits = ptoc_type_bitwidth(e);
    bool f64 = e->kind == PTOC_TYPE_FLOAT && bits == 64;
    /* vcadd and the row programs' vintlv tree: no 64-bit lanes */
    return !f64 && (!out->row->row || bits != 64);
}

/* ---------------------------------------------------------------- tcolargmax, tcolargmin */

/* scf.for %iv = lb to ub step s iter_args(acc[0..n)): the builder in the body, acc its arguments. */
static ptoc_value *carry_step_begin(vop_builder *L, vb_carried *l, ptoc_value *lb, ptoc_value *ub, ptoc_value *step,
                                    uint32_t n, ptoc_value **acc)
{
    ptoc_value *ops[3 + CARRY_MAX] = {lb, ub, step};
    ptoc_type *types[CARRY_MAX];
    for (uint32_t i = 0; i < n; i++) {
        ops[3 + i] = acc[i];
        types[i] = acc[i]->type;
    }
    l->op = ptoc_builder_create(&L->b, "scf.for", 3 + n, ops, n, types, 0, NULL, 1);
    ptoc_block *body = ptoc_block_create(L->b.arena);
    ptoc_value *iv = ptoc_block_add_arg(body, L->b.arena, L->index, L->b.loc);
    for (uint32_t i = 0; i < n; i++)
        acc[i] = ptoc_block_add_arg(body, L->b.arena, types[i], L->b.loc);
    ptoc_region_append(&l->op->regions[0], body);
    l->after = L->b;
    ptoc_builder_set_end(&L->b, body);
    return iv;
}

/* The same with step 1. */
static ptoc_value *carry_n_begin(vop_builder *L, vb_carried *l, ptoc_value *lb, ptoc_value *ub, uint32_t n,
                                 ptoc_value **acc)
{
    return carry_step_begin(L, l, lb, ub, vb_index(L, 1), n, acc);
}

/* Yields acc[0..n); acc the loop's results, the builder after it. */
static void carry_n_end(vop_builder *L, vb_carried *l, uint32_t n, ptoc_value **acc)
{
    ptoc_builder_create(&L->b, "scf.yield", n, acc, 0, NULL, 0, NULL, 0);
    L->b = l->after;
    for (uint32_t i = 0; i < n; i++)
        acc[i] = ptoc_op_result(l->op, i);
}

/* TColReduceIdxStoreParts: 16-bit indices widened into two registers of 32-bit lanes. */
static void store_wide(vop_builder *L, ptoc_value *idx, const vb_lanes *ln, ptoc_type *out, ptoc_value *dp,
                       ptoc_value *c, ptoc_value *vcols)
{
    vb_lanes w = vb_lanes_of(L, out);     /* c: where idx's lane 0 goes; the columns past vcols are not stored */
    ptoc_value *all = vb_first(L, ln, vb_index(L, ln->count)), *parts[2];
    ptoc_value *ops[2] = {idx, all};
    parts[0] = vb_vop1(L, PTOC_PTO_VOP_VCVT, 2, ops, w.vreg, "part", "EVEN");
    parts[1] = vb_vop1(L, PTOC_PTO_VOP_VCVT, 2, ops, w.vreg, "part", "ODD");
    ptoc_type *two[2] = {w.vreg, w.vreg};
    ptoc_op *pair = vb_vop(L, PTOC_PTO_VOP_VINTLV, 2, parts, 2, two, NULL, NULL, NULL, NULL);
    for (uint32_t h = 0; h < 2; h++) {
        ptoc_value *at = vb_arith(L, "arith.addi", c, vb_index(L, h * w.count));
        ptoc_value *left = vb_arith(L, "arith.subi", vcols, vb_arith(L, "arith.minui", at, vcols));
        store(L, &w, ptoc_op_result(pair, h), dp, at, vb_first(L, &w, left));
    }
}

static void col_arg_program(vop_builder *L, ptoc_op *op, ptoc_value *src, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    bool wide = ptoc_type_bitwidth(s->elem) == 16, max = ptoc_pto_opcode(op) == PTOC_PTO_OP_TCOLARGMAX;
    vb_lanes ln = vb_lanes_of(L, s->elem);
    ptoc_type *ielem = wide ? ptoc_type_int(L->ctx, 16, PTOC_SIGNED) : d->elem;
    ptoc_type *ivreg = ptoc_pto_vreg_type_get(L->ctx, ielem, ln.count);
    ptoc_value *sp = vb_tile_ptr(L, src, s->elem), *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    ptoc_value *sstride = vb_index(L, s->cols);
    ptoc_type *iint = ptoc_type_int(L->ctx, ptoc_type_bitwidth(ielem), PTOC_SIGNLESS);
    ptoc_value *izero = vb_int(L, iint, 0), *ione = vb_int(L, iint, 1);
    vb_loop cols;
    vb_carried rows;
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *m = wide ? vb_first(L, &ln, step) : vb_first(L, &ln, vb_arith(L, "arith.subi", vcols, c));
    ptoc_value *acc[3] = {load(L, &ln, sp, c), vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &izero, ivreg, NULL, NULL), NULL};
    acc[2] = acc[1];
    ptoc_value *i = carry_n_begin(L, &rows, one, vrows, 3, acc);
    ptoc_value *aops[3] = {acc[2], ione, m};
    ptoc_value *next = vb_vop1(L, PTOC_PTO_VOP_VADDS, 3, aops, ivreg, "mode", "ZEROING");
    ptoc_value *x = load(L, &ln, sp, vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", i, sstride), c));
    ptoc_value *cops[3] = {x, acc[0], m};
    ptoc_value *better = vb_result0(vb_vop(L, PTOC_PTO_VOP_VCMP, 3, cops, 1, &ln.mask, "cmp_mode",
                                           max ? "gt" : "lt", NULL, NULL));
    ptoc_value *iops[3] = {next, acc[1], better}, *vops[3] = {x, acc[0], better};
    ptoc_value *out[3] = {vb_vop1(L, PTOC_PTO_VOP_VSEL, 3, vops, ln.vreg, NULL, NULL),
                          vb_vop1(L, PTOC_PTO_VOP_VSEL, 3, iops, ivreg, NULL, NULL), next};
    carry_n_end(L, &rows, 3, out);
    if (wide) {
        store_wide(L, out[1], &ln, d->elem, dp, c, vcols);
    } else {
        vb_lanes il = vb_lanes_of(L, d->elem);
        store(L, &il, out[1], dp, c, m);
    }
    vb_loop_end(L, &cols);
}

/* TColReduceIdxChunk8: each register's even and odd bytes widened to 16 bits
 * (vcvt EVEN, ODD) and compared apart; their 16-bit indices vintlv'ed back
 * into column order and widened as store_wide does. */
static void col_arg8_program(vop_builder *L, ptoc_op *op, ptoc_value *src, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    bool max = ptoc_pto_opcode(op) == PTOC_PTO_OP_TCOLARGMAX;
    vb_lanes ln = vb_lanes_of(L, s->elem);
    vb_lanes h = vb_lanes_of(L, ptoc_type_int(L->ctx, 16, s->elem->u.integer.sign));
    ptoc_type *ivreg = ptoc_pto_vreg_type_get(L->ctx, ptoc_type_int(L->ctx, 16, PTOC_SIGNED), h.count);
    ptoc_value *sp = vb_tile_ptr(L, src, s->elem), *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    ptoc_value *sstride = vb_index(L, s->cols);
    ptoc_type *i16 = ptoc_type_int(L->ctx, 16, PTOC_SIGNLESS);
    ptoc_value *izero = vb_int(L, i16, 0), *ione = vb_int(L, i16, 1);
    ptoc_value *all8 = vb_first(L, &ln, step), *all16 = vb_first(L, &h, vb_index(L, h.count));
    vb_loop cols;
    vb_carried rows;
    ptoc_value *c = vb_loop_begin(L, &cols, zero, vcols, step);
    ptoc_value *old = load(L, &ln, sp, c), *ops[2] = {old, all8};
    ptoc_value *izeros = vb_vop1(L, PTOC_PTO_VOP_VBR, 1, &izero, ivreg, NULL, NULL);
    /* acc: old even, old odd, index even, index odd, the row's index */
    ptoc_value *acc[5] = {vb_vop1(L, PTOC_PTO_VOP_VCVT, 2, ops, h.vreg, "part", "EVEN"),
                          vb_vop1(L, PTOC_PTO_VOP_VCVT, 2, ops, h.vreg, "part", "ODD"), izeros, izeros, izeros};
    ptoc_value *i = carry_n_begin(L, &rows, one, vrows, 5, acc);
    ptoc_value *aops[3] = {acc[4], ione, all16};
    ptoc_value *next = vb_vop1(L, PTOC_PTO_VOP_VADDS, 3, aops, ivreg, "mode", "ZEROING");
    ptoc_value *x = load(L, &ln, sp, vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", i, sstride), c));
    ptoc_value *out[5];
    for (int part = 0; part < 2; part++) {
        ptoc_value *xops[2] = {x, all8};
        ptoc_value *xh = vb_vop1(L, PTOC_PTO_VOP_VCVT, 2, xops, h.vreg, "part", part ? "ODD" : "EVEN");
        ptoc_value *cops[3] = {xh, acc[part], all16};
        ptoc_value *better = vb_result0(vb_vop(L, PTOC_PTO_VOP_VCMP, 3, cops, 1, &h.mask, "cmp_mode",
                                               max ? "gt" : "lt", NULL, NULL));
        ptoc_value *vops[3] = {xh, acc[part], better}, *iops[3] = {next, acc[2 + part], better};
        out[part] = vb_vop1(L, PTOC_PTO_VOP_VSEL, 3, vops, h.vreg, NULL, NULL);
        out[2 + part] = vb_vop1(L, PTOC_PTO_VOP_VSEL, 3, iops, ivreg, NULL, NULL);
    }
    out[4] = next;
    carry_n_end(L, &rows, 5, out);
    ptoc_type *two[2] = {ivreg, ivreg};
    ptoc_op *pair = vb_vop(L, PTOC_PTO_VOP_VINTLV, 2, &out[2], 2, two, NULL, NULL, NULL, NULL);
    vb_lanes il = vb_lanes_of(L, ptoc_type_int(L->ctx, 16, PTOC_SIGNED));
    store_wide(L, ptoc_op_result(pair, 0), &il, d->elem, dp, c, vcols);
    store_wide(L, ptoc_op_result(pair, 1), &il, d->elem, dp, vb_arith(L, "arith.addi", c, vb_index(L, h.count)),
               vcols);
    vb_loop_end(L, &cols);
}

/* ---------------------------------------------------------------- trowargmax, trowargmin */

/* A b16 predicate as the b32 one of its lower half (the library uses one
 * MaskReg for both widths; only lane 0 is read here). */
static ptoc_value *as_index_mask(vop_builder *L, ptoc_value *m, const vb_lanes *data, const vb_lanes *idx)
{
    if (data->bits == idx->bits)
        return m;
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_PUNPACK, 1, &m, 1, &idx->mask, "part", "LOWER", NULL, NULL));
}

static void row_arg_program(vop_builder *L, ptoc_op *op, ptoc_value *src, ptoc_value *dst)
{
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    bool max = ptoc_pto_opcode(op) == PTOC_PTO_OP_TROWARGMAX;
    vb_lanes ln = vb_lanes_of(L, s->elem), il = vb_lanes_of(L, d->elem);
    ptoc_value *sp = vb_tile_ptr(L, src, s->elem), *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1), *step = vb_index(L, ln.count);
    ptoc_value *sstride = vb_index(L, s->cols), *dstride = vb_index(L, one_column(d) ? 1 : d->cols);
    ptoc_type *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    ptoc_value *lane0 = vb_first(L, &ln, one), *ilane0 = as_index_mask(L, lane0, &ln, &il);
    ptoc_value *zeros = broadcast(L, &ln, ptoc_type_is_float(s->elem) ? vb_float(L, s->elem, 0.0)
                                                                      : identity(L, RED_SUM, s->elem));
    ptoc_value *izero = vb_int(L, i32, 0), *per_reg = vb_int(L, i32, ln.count);
    vb_loop rows;
    vb_carried chunks;
    ptoc_value *row = vb_loop_begin(L, &rows, zero, vrows, one);
    /* acc: the best value so far, its index, the index of the register's lane 0 */
    ptoc_value *acc[3] = {broadcast(L, &ln, identity(L, max ? RED_MAX : RED_MIN, s->elem)),
                          broadcast(L, &il, izero), broadcast(L, &il, izero)};
    ptoc_value *c = carry_step_begin(L, &chunks, zero, vcols, step, 3, acc);
    ptoc_value *tail = vb_first(L, &ln, vb_arith(L, "arith.subi", vcols, c));
    ptoc_value *x = load(L, &ln, sp, vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", row, sstride), c));
    ptoc_value *rops[2] = {x, tail};
    ptoc_value *r = vb_vop1(L, max ? PTOC_PTO_VOP_VCMAX : PTOC_PTO_VOP_VCMIN, 2, rops, ln.vreg, NULL, NULL);
    ptoc_value *dops[2] = {r, zeros};
    ptoc_type *two[2] = {ln.vreg, ln.vreg};
    ptoc_op *split = vb_vop(L, PTOC_PTO_VOP_VDINTLV, 2, dops, 2, two, NULL, NULL, NULL, NULL);
    ptoc_value *val = ptoc_op_result(split, 0), *raw = ptoc_op_result(split, 1);
    ptoc_value *idx = vb_vop1(L, PTOC_PTO_VOP_VBITCAST, 1, &raw, il.vreg, NULL, NULL);
    ptoc_value *aops[3] = {idx, acc[2], ilane0};
    idx = vb_vop1(L, PTOC_PTO_VOP_VADD, 3, aops, il.vreg, "mode", "ZEROING");
    ptoc_value *cops[3] = {acc[0], val, lane0};
    ptoc_value *better = vb_result0(vb_vop(L, PTOC_PTO_VOP_VCMP, 3, cops, 1, &ln.mask, "cmp_mode",
                                           max ? "lt" : "gt", NULL, NULL));
    ptoc_value *vops[3] = {val, acc[0], better};
    ptoc_value *iops[3] = {idx, acc[1], as_index_mask(L, better, &ln, &il)};
    ptoc_value *sops[3] = {acc[2], per_reg, ilane0};
    ptoc_value *out[3] = {vb_vop1(L, PTOC_PTO_VOP_VSEL, 3, vops, ln.vreg, NULL, NULL),
                          vb_vop1(L, PTOC_PTO_VOP_VSEL, 3, iops, il.vreg, NULL, NULL),
                          vb_vop1(L, PTOC_PTO_VOP_VADDS, 3, sops, il.vreg, "mode", "ZEROING")};
    carry_n_end(L, &chunks, 3, out);
    store(L, &il, out[1], dp, vb_arith(L, "arith.muli", row, dstride), ilane0);
    vb_loop_end(L, &rows);
}

static void lower_row_arg(vop_builder *L, ptoc_op *op)
{
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    if (!s || !d || !plain_vec(s, s->elem) || !(plain_vec(d, d->elem) || one_column(d)) ||
        ptoc_type_bitwidth(d->elem) != 32)
        return;
    unsigned bits = ptoc_type_bitwidth(s->elem);
    if (bits != 16 && bits != 32)
        return;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    if (ptoc_type_is_float(s->elem))
        a5_row_argf_program(L, op, src, dst, one_column(d) ? 1 : d->cols);     /* lower_a5_argf.c */
    else
        row_arg_program(L, op, src, dst);
    ptoc_op_erase(op);
}

static void lower_col_arg(vop_builder *L, ptoc_op *op)
{
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    if (!s || !d || !plain_vec(s, s->elem) || !plain_vec(d, d->elem) || ptoc_type_bitwidth(d->elem) != 32)
        return;
    unsigned bits = ptoc_type_bitwidth(s->elem);
    if (bits != 8 && bits != 16 && bits != 32)
        return;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    if (bits == 8)
        col_arg8_program(L, op, src, dst);
    else
        col_arg_program(L, op, src, dst);
    ptoc_op_erase(op);
}

void a5_reduce_lower(vop_builder *L, ptoc_op *op)
{
    if (col_arg(ptoc_pto_opcode(op))) {
        lower_col_arg(L, op);
        return;
    }
    if (row_arg(ptoc_pto_opcode(op))) {
        lower_row_arg(L, op);
        return;
    }
    red_op r;
    if (!operands(op, &r))
        return;
    ptoc_value *tiles[2] = {r.src, r.dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    if (r.row->row)
        row_program(L, &r);
    else
        col_program(L, &r);
    ptoc_op_erase(op);
}
