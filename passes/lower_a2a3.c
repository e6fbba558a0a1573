/* lower_a2a3.c: the "pto-lower-a2a3" pass: vec tile ops to the A2/A3 repeat
 * intrinsics (the a2a3.* rows of dialect/pto_vops.def).
 *
 * Each tile op lowered here becomes a pto.vecscope with the op's ins and
 * outs whose region is the repeat program pto-isa's include/pto/npu/a2a3
 * runs for it: instructions over `repeat` repeats of 256 bytes (E elements),
 * under the vector mask in norm mode or an element count in counter mode.
 * Each family of ops has a file of its own (the family table below); this
 * file holds the pass and the program builder they share (lower_a2a3.h):
 *
 *   - whole-tile, norm mode (Bin1LNormMode): head repeats of E elements, then
 *     the tail repeat under the continuous mask of its first n lanes;
 *   - whole-tile, counter mode (Bin1LCountMode): set_mask_count, the element
 *     count as the mask, one instruction with repeat 0;
 *   - per column chunk (Bin2LNormModeRowRpt): per chunk of E columns one
 *     instruction whose repeats are the rows, its repeat stride each
 *     pointer's row stride in blocks; the tail chunk under the continuous
 *     mask. More than 255 rows are split into instructions of at most 255
 *     repeats (REPEAT_MAX); a row stride above 255 blocks (strideOverFlag)
 *     runs one instruction of one repeat per row;
 *   - per row, counter mode (Bin2LCountMode): the valid columns as the count,
 *     one instruction per row.
 * A program leaves the core in norm mode with every lane on, as it found it
 * (set_mask_norm; set_vector_mask -1, -1 after each count or mask).
 *
 * An op a family cannot lower (another layout or element type, a scalar it
 * would convert between int and float) stays; the a2a3 backend then says it
 * is not supported yet.
 *
 * Requires: the DPS form on tiles with addresses; sync already inserted.
 * Produces: pto.vecscope ops in place of the lowered ones.
 */
#include "passes/lower_a2a3.h"
#include "passes/passes.h"
#include "ptoc/ptoc.h"

/* ---------------------------------------------------------------- the families */

typedef struct a2_family {
    bool (*lowers)(ptoc_pto_op_id opcode);
    void (*lower_one)(vop_builder *L, ptoc_op *op);
} a2_family;

static const a2_family families[] = {
    {a2_elementwise_lowers, a2_elementwise_lower},
    {a2_colexpand_lowers, a2_colexpand_lower},
    {a2_select_lowers, a2_select_lower},
    {a2_unary_lowers, a2_unary_lower},
    {a2_fill_lowers, a2_fill_lower},
    {a2_reduce_lowers, a2_reduce_lower},
    {a2_convert_lowers, a2_convert_lower},
    {a2_rowexpand_lowers, a2_rowexpand_lower},
    {a2_bitwise_lowers, a2_bitwise_lower},
    {a2_shift_lowers, a2_shift_lower},
    {a2_fillpad_lowers, a2_fillpad_lower},
    {a2_quant_lowers, a2_quant_lower},
    {a2_prefetch_lowers, a2_prefetch_lower},
    {a2_mov_lowers, a2_mov_lower},
    {a2_rowexpand_dup_lowers, a2_rowexpand_dup_lower},
    {a2_rowprod_lowers, a2_rowprod_lower},
    {a2_argreduce_lowers, a2_argreduce_lower},
    {a2_layout_lowers, a2_layout_lower},
    {a2_gather_lowers, a2_gather_lower},
    {a2_sort_lowers, a2_sort_lower},
    {scalar_unit_lowers, scalar_unit_lower},
    {a2_part_lowers, a2_part_lower},
    {a2_window_lowers, a2_window_lower},
};

enum { NFAMILIES = sizeof families / sizeof families[0] };

static const a2_family *family_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < NFAMILIES; i++)
        if (families[i].lowers(opcode))
            return &families[i];
    return NULL;
}

bool ptoc_lower_a2a3_lowers(ptoc_pto_op_id opcode) { return family_of(opcode) != NULL; }

/* ---------------------------------------------------------------- tiles */

ptoc_value *a2_window_ptr(vop_builder *L, ptoc_type *elem, int64_t off)
{
    const ptoc_pto_arch_info *a3 = ptoc_pto_arch_info_of(PTOC_PTO_ARCH_A3);
    ptoc_value *addr = vb_int(L, ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS), (int64_t)a3->scratch_begin + off);
    ptoc_type *pt = ptoc_pto_ub_ptr_type(L->ctx, elem);
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_UB_PTR, 1, &addr, 1, &pt, NULL, NULL, NULL, NULL));
}

/* Tiles are read through vb_tile_desc (vop_builder.h), so a static 2-D vec
 * memref lowers as the row_major none_box tile of its shape. */
bool a2_plain_tile(const ptoc_type *t, const ptoc_type *elem)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(t);
    if (!d || d->loc != PTOC_PTO_AS_VEC || d->blayout != PTOC_PTO_BL_ROW_MAJOR ||
        d->slayout != PTOC_PTO_SL_NONE_BOX || d->elem != elem)
        return false;
    unsigned bits = ptoc_type_bitwidth(elem);
    if (ptoc_type_is_float(elem))
        return elem->u.fp.kind == PTOC_F16 || elem->u.fp.kind == PTOC_F32;
    return ptoc_type_is_int(elem) && (bits == 16 || bits == 32);
}

/* ---------------------------------------------------------------- the program */

void a2_prog_init(a2_prog *P, vop_builder *L, ptoc_pto_vop_id vop, ptoc_type *elem)
{
    unsigned esize = ptoc_type_bitwidth(elem) / 8;
    *P = (a2_prog){.L = L, .vop = vop, .then_vop = PTOC_PTO_VOP_NONE, .E = 256 / esize, .B = 32 / esize};
    P->i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS);
}

void a2_ptr(a2_prog *P, ptoc_value *tile, ptoc_type *elem, int64_t cols)
{
    ptoc_value *ptr = NULL;
    for (uint32_t j = 0; j < P->nptrs && !ptr; j++)
        if (P->tiles[j] == tile)
            ptr = P->ptrs[j];
    P->tiles[P->nptrs] = tile;
    P->ptrs[P->nptrs] = ptr ? ptr : vb_tile_ptr(P->L, tile, elem);
    P->cols[P->nptrs++] = cols;
}

ptoc_value *a2_index(a2_prog *P, int64_t v) { return vb_int(P->L, P->L->index, v); }
ptoc_value *a2_i64(a2_prog *P, int64_t v) { return vb_int(P->L, P->i64, v); }
ptoc_value *a2_as_i64(a2_prog *P, ptoc_value *v) { return vb_cast(P->L, "arith.index_cast", v, P->i64); }

void a2_vop0(a2_prog *P, ptoc_pto_vop_id id, uint32_t n, ptoc_value *const *ops)
{
    (void)vb_vop(P->L, id, n, ops, 0, NULL, NULL, NULL, NULL, NULL);
}

void a2_set_mask(a2_prog *P, ptoc_value *hi, ptoc_value *lo)
{
    ptoc_value *ops[2] = {hi, lo};
    a2_vop0(P, PTOC_PTO_VOP_A2A3_SET_VECTOR_MASK, 2, ops);
}

void a2_full_mask(a2_prog *P) { a2_set_mask(P, a2_i64(P, -1), a2_i64(P, -1)); }

void a2_cont_mask(a2_prog *P, int64_t n)
{
    uint64_t lo = n >= 64 ? ~0ull : (1ull << n) - 1;
    uint64_t hi = n <= 64 ? 0 : n >= 128 ? ~0ull : (1ull << (n - 64)) - 1;
    a2_set_mask(P, a2_i64(P, (int64_t)hi), a2_i64(P, (int64_t)lo));
}

void a2_count_begin(a2_prog *P, ptoc_value *count)
{
    a2_vop0(P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    a2_set_mask(P, a2_i64(P, 0), a2_as_i64(P, count));
}

void a2_count_end(a2_prog *P)
{
    a2_vop0(P, PTOC_PTO_VOP_A2A3_SET_MASK_NORM, 0, NULL);
    a2_full_mask(P);
}

/* The stride lists of an instruction over n pointers: block stride 1, repeat strides rep. */
static void set_strides(a2_prog *P, ptoc_op *op, uint32_t n, const int64_t *rep)
{
    ptoc_context *ctx = P->L->ctx;
    ptoc_attr *blk[3], *rp[3];
    for (uint32_t i = 0; i < n; i++) {
        blk[i] = ptoc_attr_int(ctx, P->i64, 1);
        rp[i] = ptoc_attr_int(ctx, P->i64, rep[i]);
    }
    ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "blk"), ptoc_attr_array(ctx, n, blk));
    ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "rep"), ptoc_attr_array(ctx, n, rp));
}

/* then_vop dst, dst over the instruction's repeats, at dst's repeat stride. */
static void then_in_place(a2_prog *P, ptoc_value *off, ptoc_value *repeat, const int64_t *rep)
{
    ptoc_value *ops[5] = {P->ptrs[0], off, P->ptrs[0], off, repeat};
    ptoc_op *op = vb_vop(P->L, P->then_vop, 5, ops, 0, NULL, NULL, NULL, NULL, NULL);
    if (rep)
        set_strides(P, op, 2, (int64_t[2]){rep[0], rep[0]});
}

ptoc_op *a2_instr(a2_prog *P, ptoc_value *const *offs, ptoc_value *repeat, const int64_t *rep)
{
    ptoc_value *ops[8];
    uint32_t n = 0;
    for (uint32_t i = 0; i < P->nptrs; i++) {
        ops[n++] = P->ptrs[i];
        ops[n++] = offs[i];
    }
    if (P->scalar)
        ops[n++] = P->scalar;
    ops[n++] = repeat;
    ptoc_op *op = vb_vop(P->L, P->vop, n, ops, 0, NULL, NULL, NULL, NULL, NULL);
    if (rep)
        set_strides(P, op, P->nptrs, rep);
    if (P->then_vop != PTOC_PTO_VOP_NONE)
        then_in_place(P, offs[0], repeat, rep);
    return op;
}

/* Every pointer at the same offset. */
static void instr_at(a2_prog *P, ptoc_value *off, ptoc_value *repeat, const int64_t *rep)
{
    ptoc_value *offs[3] = {off, off, off};
    a2_instr(P, offs, repeat, rep);
}

void a2_row_offsets(a2_prog *P, ptoc_value *row, ptoc_value *col, ptoc_value **offs)
{
    for (uint32_t i = 0; i < P->nptrs; i++) {
        ptoc_value *base = vb_arith(P->L, "arith.muli", row, a2_index(P, P->cols[i]));
        offs[i] = col ? vb_arith(P->L, "arith.addi", base, col) : base;
    }
}

void a2_whole_count(a2_prog *P, ptoc_value *n)
{
    a2_count_begin(P, n);
    instr_at(P, a2_index(P, 0), a2_index(P, 0), NULL);
    a2_count_end(P);
}

void a2_whole_norm(a2_prog *P, int64_t n)
{
    int64_t head = n / P->E, tail = n % P->E;
    if (head)
        instr_at(P, a2_index(P, 0), a2_index(P, head), NULL);
    if (tail) {
        a2_cont_mask(P, tail);
        instr_at(P, a2_index(P, head * P->E), a2_index(P, 1), NULL);
        a2_full_mask(P);
    }
}

void a2_rows_count(a2_prog *P, ptoc_value *vrows, ptoc_value *vcols)
{
    a2_count_begin(P, vcols);
    vb_loop l;
    ptoc_value *r = vb_loop_begin(P->L, &l, a2_index(P, 0), vrows, a2_index(P, 1));
    ptoc_value *offs[3];
    a2_row_offsets(P, r, NULL, offs);
    a2_instr(P, offs, a2_index(P, 0), NULL);
    vb_loop_end(P->L, &l);
    a2_count_end(P);
}

static bool stride_over(const a2_prog *P)
{
    for (uint32_t i = 0; i < P->nptrs; i++)
        if (P->cols[i] / P->B > A2_STRIDE_MAX)
            return true;
    return false;
}

/* One column chunk at `col` over `rows` static rows, the rows as repeats
 * (groups of at most 255), or one repeat per row when a stride overflows. */
void a2_chunk_rows(a2_prog *P, ptoc_value *col, int64_t rows)
{
    ptoc_value *offs[3];
    vb_loop l;
    if (stride_over(P)) {
        ptoc_value *r = rows == 1 ? a2_index(P, 0) : vb_loop_begin(P->L, &l, a2_index(P, 0), a2_index(P, rows), a2_index(P, 1));
        a2_row_offsets(P, r, col, offs);
        a2_instr(P, offs, a2_index(P, 1), NULL);
        if (rows != 1)
            vb_loop_end(P->L, &l);
        return;
    }
    int64_t rep[3];
    for (uint32_t i = 0; i < P->nptrs; i++)
        rep[i] = P->cols[i] / P->B;
    for (int64_t g = 0; g < rows; g += A2_REPEAT_MAX) {
        a2_row_offsets(P, a2_index(P, g), col, offs);
        a2_instr(P, offs, a2_index(P, rows - g < A2_REPEAT_MAX ? rows - g : A2_REPEAT_MAX), rep);
    }
}

void a2_chunks(a2_prog *P, int64_t rows, int64_t cols)
{
    int64_t full = cols / P->E, tail = cols % P->E;
    vb_loop l;
    if (full == 1)
        a2_chunk_rows(P, a2_index(P, 0), rows);
    else if (full > 1) {
        ptoc_value *c = vb_loop_begin(P->L, &l, a2_index(P, 0), a2_index(P, full * P->E), a2_index(P, P->E));
        a2_chunk_rows(P, c, rows);
        vb_loop_end(P->L, &l);
    }
    if (tail) {
        a2_cont_mask(P, tail);
        a2_chunk_rows(P, a2_index(P, full * P->E), rows);
        a2_full_mask(P);
    }
}

bool a2_blocks_whole(const a2_prog *P)
{
    for (uint32_t i = 0; i < P->nptrs; i++)
        if (P->cols[i] % P->B)
            return false;
    return true;
}

/* ---------------------------------------------------------------- the pass */

static bool lowers_any(ptoc_pto_op_id opcode) { return family_of(opcode) != NULL; }

static void lower_one(vop_builder *L, ptoc_op *op)
{
    if (scalar_unit_claims(op)) {
        scalar_unit_lower(L, op);
        return;
    }
    if (a2_bytes_claims(op)) {
        a2_bytes_lower(L, op);
        return;
    }
    family_of(ptoc_pto_opcode(op))->lower_one(L, op);
}

static bool run_lower_a2a3(ptoc_op *func, ptoc_arena *arena, const ptoc_pass_options *opts)
{
    (void)opts;
    vb_lower_each(func, arena, lowers_any, lower_one);
    return true;
}

const ptoc_pass_def ptoc_lower_a2a3_pass = {
    .name = "pto-lower-a2a3",
    .summary = "Lower vec tile ops to A2/A3 repeat intrinsics in pto.vecscope functions",
    .anchor = "func.func",
    .run = run_lower_a2a3,
    .option_names = NULL,
};
