/* lower_a2a3_argreduce.c: pto-lower-a2a3's arg reductions on the scalar unit.
 *
 *   trowargmax trowargmin src[, tmp] -> dst   dst[i, 0] = the column of row
 *                                             i's first strict best element
 *   tcolargmax tcolargmin src, tmp -> dst     dst[0, j] = the row of column
 *                                             j's first strict best element
 *
 * Per line of src's valid region, between a V -> S and an S -> V
 * set_flag/wait_flag: the index of the best so far is carried, each element
 * read (tgetval) and compared with the best (re-read at that index) by an
 * ordered compare (floats in f32: f16 and bf16 widen exactly), and the index
 * stored into dst (tsetval). This is the cpu target's rule (a tie keeps the
 * earlier index, a NaN never becomes the best, a NaN at index 0 stays). The
 * library's vector programs (TColReduceIdx.hpp: vcmp_ge + vsel + vmax row by
 * row; TRowReduceIdxOps.hpp: vcmax with its index) take a NaN's index where
 * the cpu target keeps the earlier best, and count f16 indices in 16 bits;
 * the scalar program gives the cpu target's bytes for every element type.
 * tmp is not used.
 */
#include "passes/lower_a2a3.h"
#include "ptoc/ptoc.h"

typedef struct arg_row { ptoc_pto_op_id op; bool row, max; } arg_row;

static const arg_row arg_rows[] = {
    {PTOC_PTO_OP_TROWARGMAX, true, true},
    {PTOC_PTO_OP_TROWARGMIN, true, false},
    {PTOC_PTO_OP_TCOLARGMAX, false, true},
    {PTOC_PTO_OP_TCOLARGMIN, false, false},
};

static const arg_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof arg_rows / sizeof arg_rows[0]; i++)
        if (arg_rows[i].op == opcode)
            return &arg_rows[i];
    return NULL;
}

bool a2_argreduce_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

static bool vec_none_box(const ptoc_pto_tile_desc *d)
{
    return d && d->loc == PTOC_PTO_AS_VEC && d->slayout == PTOC_PTO_SL_NONE_BOX;
}

/* Element (r, c)'s offset in the tile's storage. */
static ptoc_value *offset_of(vop_builder *L, ptoc_value *tile, ptoc_value *r, ptoc_value *c)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(tile->type);
    bool col = d->blayout == PTOC_PTO_BL_COL_MAJOR;
    ptoc_value *major = vb_arith(L, "arith.muli", col ? c : r, vb_index(L, col ? d->rows : d->cols));
    return vb_arith(L, "arith.addi", major, col ? r : c);
}

/* src's element at `at` as the type it is compared in (floats: f32). */
static ptoc_value *element(vop_builder *L, ptoc_value *src, ptoc_value *at)
{
    ptoc_type *elem = vb_tile_desc(src->type)->elem;
    unsigned bits = ptoc_type_bitwidth(elem);
    bool bf16 = ptoc_type_is_float(elem) && elem->u.fp.kind == PTOC_BF16;
    ptoc_type *ty = ptoc_type_is_float(elem) && !bf16 ? elem : ptoc_type_int(L->ctx, bits, PTOC_SIGNLESS);
    ptoc_value *ops[2] = {src, at};
    ptoc_op *load = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TGETVAL), 2, ops, 1, &ty, 0, NULL, 0);
    ptoc_op_set_segment_sizes(load, L->b.arena, 2, (int64_t[2]){2, 0});
    ptoc_value *x = vb_result0(load);
    ptoc_type *f32 = ptoc_type_float(L->ctx, PTOC_F32), *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    if (bf16) {
        ptoc_value *w = vb_arith(L, "arith.shli", vb_cast(L, "arith.extui", x, i32), vb_int(L, i32, 16));
        return vb_cast(L, "arith.bitcast", w, f32);
    }
    return ptoc_type_is_float(ty) && ty != f32 ? vb_cast(L, "arith.extf", x, f32) : x;
}

/* cur better than best: an ordered float compare, or a signed / unsigned one. */
static ptoc_value *better(vop_builder *L, const arg_row *row, const ptoc_type *elem, ptoc_value *cur,
                          ptoc_value *best)
{
    ptoc_type *i1 = ptoc_type_int(L->ctx, 1, PTOC_SIGNLESS);
    bool fp = ptoc_type_is_float(elem);
    bool is_unsigned = !fp && elem->u.integer.sign == PTOC_UNSIGNED;
    /* MLIR's numbering: cmpf ogt 2, olt 4; cmpi slt 2, sgt 4, ult 6, ugt 8 */
    int64_t pred = fp ? (row->max ? 2 : 4) : is_unsigned ? (row->max ? 8 : 6) : (row->max ? 4 : 2);
    ptoc_value *ops[2] = {cur, best};
    ptoc_named_attr p = {ptoc_ident_cstr(L->ctx, "predicate"),
                         ptoc_attr_int(L->ctx, ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS), pred)};
    return vb_result0(ptoc_builder_create(&L->b, fp ? "arith.cmpf" : "arith.cmpi", 2, ops, 1, &i1, 1, &p, 0));
}

void a2_argreduce_lower(vop_builder *L, ptoc_op *op)
{
    const arg_row *row = row_of(ptoc_pto_opcode(op));
    int nins = vb_dps_ins(op);
    if (nins != 1 && nins != 2)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    if (!vec_none_box(s) || !vec_none_box(d) || !ptoc_type_is_int(d->elem) || ptoc_type_bitwidth(d->elem) != 32 ||
        ptoc_type_bitwidth(s->elem) > 32)
        return;
    ptoc_value *tiles[2] = {src, dst};
    vb_open_vecscope(L, op, tiles, 2, 1);
    ptoc_op *valid = vb_tile_valid(L, src);
    ptoc_value *vrows = ptoc_op_result(valid, 0), *vcols = ptoc_op_result(valid, 1);
    ptoc_value *zero = vb_index(L, 0), *one = vb_index(L, 1);
    /* the strides' constants here, where they dominate every use (vb_index caches them) */
    (void)vb_index(L, s->rows), (void)vb_index(L, s->cols), (void)vb_index(L, d->rows), (void)vb_index(L, d->cols);
    a2_handshake(L, PTOC_PTO_PIPE_V, PTOC_PTO_PIPE_S);
    vb_loop lines;
    ptoc_value *line = vb_loop_begin(L, &lines, zero, row->row ? vrows : vcols, one);
    vb_carried scan;
    ptoc_value *at;
    ptoc_value *k = vb_carry_begin(L, &scan, one, row->row ? vcols : vrows, one, zero, &at);
    ptoc_value *best = element(L, src, row->row ? offset_of(L, src, line, at) : offset_of(L, src, at, line));
    ptoc_value *cur = element(L, src, row->row ? offset_of(L, src, line, k) : offset_of(L, src, k, line));
    ptoc_value *next = vb_select(L, better(L, row, s->elem, cur, best), k, at);
    at = vb_carry_end(L, &scan, next);
    ptoc_type *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    ptoc_value *where = row->row ? offset_of(L, dst, line, zero) : offset_of(L, dst, zero, line);
    ptoc_value *ops[3] = {where, vb_cast(L, "arith.index_cast", at, i32), dst};
    ptoc_op *store = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TSETVAL), 3, ops, 0, NULL, 0, NULL, 0);
    ptoc_op_set_segment_sizes(store, L->b.arena, 2, (int64_t[2]){2, 1});
    vb_loop_end(L, &lines);
    a2_handshake(L, PTOC_PTO_PIPE_S, PTOC_PTO_PIPE_V);
    ptoc_op_erase(op);
}
