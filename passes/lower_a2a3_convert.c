/* lower_a2a3_convert.c: pto-lower-a2a3's tcvt (pto-isa a2a3 TCvt.hpp).
 *
 * tcvt becomes the library's vconv program over dst's static valid shape
 * (TCvt: TCvtHead, TCvtTail), a repeat being 256 bytes of the wider type (E
 * elements), the pointers' repeat strides 8 blocks for the wider type and
 * 8 * narrower / wider for the other:
 *
 *   for each valid row: vconv over the row's whole repeats (groups of at
 *                       most 255), blocks contiguous
 *   the rows' tails:    the continuous mask of the tail's n < E elements,
 *                       one vconv whose repeats are the rows (groups of at
 *                       most 255), its repeat strides the row strides in
 *                       blocks; then every lane on again
 *
 * Each vconv carries the conversion's rounding (rnd: RINT R, ROUND A, FLOOR
 * F, CEIL C, TRUNC Z, ODD O; no rmode: R) and saturation (sat: the
 * sat_mode, else the library's default: OFF for its narrowing pairs f16 ->
 * u8/i8/i16, f32 -> i16, i32 -> i16, i64 -> i32, ON for the others; CTRL[59],
 * which TCvt sets before its vconvs).
 *
 * The pairs lowered are those TCvt.hpp converts with one vconv_* (the
 * table below), each by ptoc's one conversion (cg_convert_bits). Through
 * the hidden scratch window UB[184 KiB, 192 KiB) in two vconvs (via_window):
 * f32/f16 -> i16 without saturation (the library's NonSatTorch) and i32 ->
 * f16 (ptoc's replacement of vconv_deq). f16 -> i8 without saturation is
 * the f16 -> u8 vconv without saturation (the same low 8 bits; the library
 * runs a five-step NonSatTorch program to the same bytes). ODD other than
 * f32 -> f16 is lower_a2a3_convert_odd.c's program. Not lowered (the op
 * stays, and the a2a3 backend says so): ODD on s32 -> f16, an explicit NONE where the pair rounds to or from an integer
 * (the library's switch falls back to another rounding than ptoc's RINT);
 * every other pair; a non-row-major tile.
 *
 * Two programs are ptoc's where the library's computes its masks at run time
 * (the same elements converted the same way): a dynamic valid shape runs in
 * counter mode, one vconv per valid row with its valid columns as the count
 * (the elementwise family's Bin2LCountMode); a row stride past 255 blocks
 * (the vconv's repeat stride field) runs the tails one repeat per row.
 */
#include "passes/lower_a2a3.h"
#include "ptoc/ptoc.h"

#include <string.h>

bool a2_convert_lowers(ptoc_pto_op_id opcode) { return opcode == PTOC_PTO_OP_TCVT; }

/* ptoc's rmode numbers (pto_attrs.c): NONE RINT ROUND FLOOR CEIL TRUNC ODD CAST_RINT. */
enum { RM_NONE, RM_RINT, RM_ROUND, RM_FLOOR, RM_CEIL, RM_TRUNC, RM_ODD, RM_CAST_RINT };

/* How a pair rounds: FF_ODD f32 -> f16 (R A F C Z O), FF the other
 * narrowing float pairs (R A F C Z), TO_INT float -> int and TO_FLOAT int ->
 * float (R A F C Z; an explicit NONE is the library's default instruction,
 * which truncates or has no suffix, so it stays), EXACT the pairs without
 * rounding (any rmode). NOSAT_STAYS: the pair's unsaturated program is the
 * library's NonSatTorch one through the scratch window, not lowered yet. */
enum { FF_ODD, FF, TO_INT, TO_FLOAT, EXACT };

typedef struct pair_row {
    const char *src, *dst;
    int rounds;
    bool narrowing;     /* sat OFF when the op has no sat_mode (the library's default) */
    bool nosat_stays;
} pair_row;

static const pair_row pairs[] = {
    {"f32", "f16", FF_ODD, false, false},   {"f32", "bf16", FF, false, false},
    {"f32", "f32", FF, false, false},       {"f16", "f32", EXACT, false, false},
    {"bf16", "f32", EXACT, false, false},   {"f32", "s32", TO_INT, false, false},
    {"f32", "s64", TO_INT, false, false},   {"f32", "s16", TO_INT, true, true},
    {"f16", "s32", TO_INT, false, false},   {"f16", "s16", TO_INT, true, true},
    {"f16", "s8", TO_INT, true, true},      {"f16", "u8", TO_INT, true, false},
    {"bf16", "s32", TO_INT, false, false},  {"s16", "f16", TO_FLOAT, false, false},
    {"s32", "f32", TO_FLOAT, false, false}, {"s64", "f32", TO_FLOAT, false, false},
    {"s16", "f32", EXACT, false, false},    {"u8", "f16", EXACT, false, false},
    {"s8", "f16", EXACT, false, false},     {"s32", "s64", EXACT, false, false},
    {"s32", "s16", EXACT, true, false},     {"s64", "s32", EXACT, true, false},
};

static const pair_row *pair_of(const ptoc_type *se, const ptoc_type *de)
{
    const char *src = ptoc_pto_vconv_type_name(se), *dst = ptoc_pto_vconv_type_name(de);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (!strcmp(pairs[i].src, src) && !strcmp(pairs[i].dst, dst))
            return &pairs[i];
    return NULL;
}

/* The vconv's rnd for the pair and the op's rmode ("" for none), NULL when
 * not lowered. */
static const char *rnd_of(const ptoc_op *op, const pair_row *pr)
{
    static const char *const rnds[] = {"R", "R", "A", "F", "C", "Z", "O", "R"};
    uint32_t m = RM_NONE;
    ptoc_attr *a = ptoc_op_attr(op, "rmode");
    if (a && (!ptoc_pto_enum_value(a, PTOC_PTO_ENUM_ROUND_MODE, &m) || m > RM_CAST_RINT))
        return NULL;
    if (pr->rounds == EXACT)
        return "";
    if (m == RM_ODD && pr->rounds != FF_ODD)
        return NULL;
    if (a && m == RM_NONE && (pr->rounds == TO_INT || pr->rounds == TO_FLOAT))
        return NULL;
    return rnds[m];
}

/* The op's sat_mode (ON is 0), else the pair's default; NULL when not lowered. */
static const char *sat_of(const ptoc_op *op, const pair_row *pr)
{
    uint32_t v = pr->narrowing;
    ptoc_attr *a = ptoc_op_attr(op, "sat_mode");
    if (a && !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_SATURATION_MODE, &v))
        return NULL;
    if (v != 0 && pr->nosat_stays)
        return NULL;
    return v != 0 ? "NOSAT" : "SAT";
}

/* The op's saturation for the ODD program (sat_of without its NonSatTorch exclusion). */
static bool odd_sat(const ptoc_op *op, const pair_row *pr)
{
    uint32_t v = pr->narrowing;
    ptoc_attr *a = ptoc_op_attr(op, "sat_mode");
    if (a)
        (void)ptoc_pto_enum_value(a, PTOC_PTO_ENUM_SATURATION_MODE, &v);
    return v == 0;
}

/* A row-major none_box vec tile whose rows are whole blocks. */
static bool plain(const ptoc_pto_tile_desc *d)
{
    if (!d || d->loc != PTOC_PTO_AS_VEC || d->blayout != PTOC_PTO_BL_ROW_MAJOR || d->slayout != PTOC_PTO_SL_NONE_BOX)
        return false;
    return d->cols * (int64_t)(ptoc_type_bitwidth(d->elem) / 8) % 32 == 0;
}

typedef struct conv {
    a2_prog P;                  /* ptrs[0] dst, ptrs[1] src; E of the wider type */
    const char *rnd, *sat;
    int64_t esize[2];           /* dst's, src's */
} conv;

/* One vconv at the offsets, `repeat` repeats at the repeat strides rep. */
static void vconv(conv *c, ptoc_value *const *offs, int64_t repeat, const int64_t *rep)
{
    a2_prog *P = &c->P;
    ptoc_value *ops[5] = {P->ptrs[0], offs[0], P->ptrs[1], offs[1], a2_index(P, repeat)};
    ptoc_op *op = vb_vop(P->L, PTOC_PTO_VOP_A2A3_VCONV, 5, ops, 0, NULL, c->rnd[0] ? "rnd" : "sat",
                         c->rnd[0] ? c->rnd : c->sat, c->rnd[0] ? "sat" : NULL, c->sat);
    ptoc_context *ctx = P->L->ctx;
    ptoc_attr *rp[2] = {ptoc_attr_int(ctx, P->i64, rep[0]), ptoc_attr_int(ctx, P->i64, rep[1])};
    ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, "rep"), ptoc_attr_array(ctx, 2, rp));
}

/* TCvtHead: per row, its `head` whole repeats in groups of at most 255. */
static void head_rows(conv *c, int64_t rows, int64_t head)
{
    a2_prog *P = &c->P;
    int64_t rep[2] = {8 * c->esize[0] * P->E / 256, 8 * c->esize[1] * P->E / 256};
    vb_loop l;
    ptoc_value *r = rows == 1 ? a2_index(P, 0) : vb_loop_begin(P->L, &l, a2_index(P, 0), a2_index(P, rows),
                                                                a2_index(P, 1));
    for (int64_t j = 0; j < head; j += A2_REPEAT_MAX) {
        ptoc_value *offs[2];
        a2_row_offsets(P, r, a2_index(P, j * P->E), offs);
        vconv(c, offs, head - j < A2_REPEAT_MAX ? head - j : A2_REPEAT_MAX, rep);
    }
    if (rows != 1)
        vb_loop_end(P->L, &l);
}

/* TCvtTail: the rows' `tail` elements at column `col`, the rows as repeats. */
static void tail_rows(conv *c, int64_t rows, int64_t col, int64_t tail)
{
    a2_prog *P = &c->P;
    int64_t rep[2] = {P->cols[0] * c->esize[0] / 32, P->cols[1] * c->esize[1] / 32};
    a2_cont_mask(P, tail);
    if (rep[0] > A2_STRIDE_MAX || rep[1] > A2_STRIDE_MAX) {   /* one repeat per row */
        vb_loop l;
        ptoc_value *r = vb_loop_begin(P->L, &l, a2_index(P, 0), a2_index(P, rows), a2_index(P, 1)), *offs[2];
        a2_row_offsets(P, r, a2_index(P, col), offs);
        vconv(c, offs, 1, (int64_t[2]){0, 0});
        vb_loop_end(P->L, &l);
        a2_full_mask(P);
        return;
    }
    for (int64_t g = 0; g < rows; g += A2_REPEAT_MAX) {
        ptoc_value *offs[2];
        a2_row_offsets(P, a2_index(P, g), a2_index(P, col), offs);
        vconv(c, offs, rows - g < A2_REPEAT_MAX ? rows - g : A2_REPEAT_MAX, rep);
    }
    a2_full_mask(P);
}

/* A dynamic valid shape: per valid row, its valid columns as the count. */
static void count_rows(conv *c, ptoc_value *dst)
{
    a2_prog *P = &c->P;
    ptoc_op *valid = vb_tile_valid(P->L, dst);
    a2_count_begin(P, ptoc_op_result(valid, 1));
    vb_loop l;
    ptoc_value *r = vb_loop_begin(P->L, &l, a2_index(P, 0), ptoc_op_result(valid, 0), a2_index(P, 1)), *offs[2];
    a2_row_offsets(P, r, NULL, offs);
    int64_t rep[2] = {8 * c->esize[0] * P->E / 256, 8 * c->esize[1] * P->E / 256};
    vconv(c, offs, 0, rep);
    vb_loop_end(P->L, &l);
    a2_count_end(P);
}

/* One vconv dst[doff] <- src[soff] (counter mode), its pair's repeat strides. */
static void vconv_count(a2_prog *P, ptoc_value *dst, ptoc_value *doff, ptoc_value *src, ptoc_value *soff,
                        const char *rnd, const char *sat, const int64_t *rep)
{
    conv c = {.P = *P, .rnd = rnd, .sat = sat};
    c.P.ptrs[0] = dst, c.P.ptrs[1] = src;
    vconv(&c, (ptoc_value *[2]){doff, soff}, 0, rep);
}

/* A conversion in two vconvs through a 32-bit middle type in the hidden
 * scratch window UB[184 KiB, 192 KiB): per valid row, per chunk of at most
 * 1024 elements, src -> mid (rnd1, sat1) into the window, then mid -> dst
 * (rnd2, sat2); counter mode, the chunk's elements as the count. */
typedef struct two_step { ptoc_type *mid; const char *rnd1, *sat1, *rnd2, *sat2; } two_step;

static void via_window(vop_builder *L, ptoc_value *src, ptoc_value *dst, const two_step *t)
{
    enum { CHUNK = 1024 };
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    a2_prog P;
    a2_prog_init(&P, L, PTOC_PTO_VOP_A2A3_VCONV, t->mid);
    ptoc_value *sp = vb_tile_ptr(L, src, s->elem), *dp = vb_tile_ptr(L, dst, d->elem);
    ptoc_value *addr = a2_i64(&P, (int64_t)ptoc_pto_arch_info_of(PTOC_PTO_ARCH_A3)->scratch_begin);
    ptoc_type *pt = ptoc_pto_ub_ptr_type(L->ctx, t->mid);
    ptoc_value *window = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_UB_PTR, 1, &addr, 1, &pt, NULL, NULL, NULL, NULL));
    int64_t srep = 8 * (int64_t)ptoc_type_bitwidth(s->elem) / 32, drep = 8 * (int64_t)ptoc_type_bitwidth(d->elem) / 32;
    ptoc_op *valid = vb_tile_valid(L, dst);
    ptoc_value *vcols = ptoc_op_result(valid, 1), *zero = a2_index(&P, 0);
    (void)a2_index(&P, CHUNK), (void)a2_index(&P, s->cols), (void)a2_index(&P, d->cols);
    a2_vop0(&P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    vb_loop rows, chunks;
    ptoc_value *r = vb_loop_begin(L, &rows, zero, ptoc_op_result(valid, 0), a2_index(&P, 1));
    ptoc_value *j = vb_loop_begin(L, &chunks, zero, vcols, a2_index(&P, CHUNK));
    ptoc_value *n = vb_arith(L, "arith.minsi", vb_arith(L, "arith.subi", vcols, j), a2_index(&P, CHUNK));
    a2_set_mask(&P, a2_i64(&P, 0), a2_as_i64(&P, n));
    ptoc_value *soff = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, a2_index(&P, s->cols)), j);
    ptoc_value *doff = vb_arith(L, "arith.addi", vb_arith(L, "arith.muli", r, a2_index(&P, d->cols)), j);
    vconv_count(&P, window, zero, sp, soff, t->rnd1, t->sat1, (int64_t[2]){8, srep});
    vconv_count(&P, dp, doff, window, zero, t->rnd2, t->sat2, (int64_t[2]){drep, 8});
    vb_loop_end(L, &chunks);
    vb_loop_end(L, &rows);
    a2_count_end(&P);
}

/* The two-step programs: f16 / f32 -> s16 without saturation (TCvt's
 * NonSatTorch: to s32 with saturation, then s32 -> s16 without, the low 16
 * bits: the cpu target's "saturated to 32 bits, the low bits kept"); s32 ->
 * f16 (the library's vconv_deq, which ptoc lacks, replaced by s32 -> f32 by
 * R, exact below 2^24 where every f16 result lies, then f32 -> f16 by the
 * op's rounding and saturation: above 2^24 both overflow alike). */
static bool two_step_lower(vop_builder *L, ptoc_op *op, ptoc_value *src, ptoc_value *dst, int nins,
                           const pair_row *pr, const char *rnd, const char *sat)
{
    ptoc_context *ctx = L->ctx;
    two_step t;
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type);
    if (pr && rnd && !sat && !strcmp(pr->dst, "s16") && strcmp(pr->src, "s32"))
        t = (two_step){ptoc_type_int(ctx, 32, PTOC_SIGNLESS), rnd, "SAT", "", "NOSAT"};
    else if (!pr && !strcmp(ptoc_pto_vconv_type_name(s->elem), "s32") &&
             !strcmp(ptoc_pto_vconv_type_name(vb_tile_desc(dst->type)->elem), "f16")) {
        ptoc_type *f32 = ptoc_type_float(ctx, PTOC_F32);
        const pair_row *narrow = pair_of(f32, vb_tile_desc(dst->type)->elem);
        const char *r2 = rnd_of(op, narrow), *s2 = sat_of(op, narrow);
        if (!r2 || !s2)
            return false;
        t = (two_step){f32, "R", "SAT", r2, s2};
    } else
        return false;
    ptoc_value *tiles[3] = {src, nins == 2 ? ptoc_op_operand(op, 1) : dst, dst};
    vb_open_vecscope(L, op, tiles, (uint32_t)nins + 1, 1);
    via_window(L, src, dst, &t);
    ptoc_op_erase(op);
    return true;
}

void a2_convert_lower(vop_builder *L, ptoc_op *op)
{
    int nins = vb_dps_ins(op);
    if (nins < 1)
        return;
    ptoc_value *src = ptoc_op_operand(op, 0), *dst = ptoc_op_operand(op, (uint32_t)nins);
    const ptoc_pto_tile_desc *s = vb_tile_desc(src->type), *d = vb_tile_desc(dst->type);
    if (!plain(s) || !plain(d))
        return;
    const pair_row *pr = pair_of(s->elem, d->elem);
    conv c = {.rnd = pr ? rnd_of(op, pr) : NULL, .sat = pr ? sat_of(op, pr) : NULL};
    if (pr && a2_convert_odd_lower(L, op, src, dst, nins, odd_sat(op, pr)))
        return;
    if (two_step_lower(L, op, src, dst, nins, pr, c.rnd, c.sat) || !pr)
        return;
    ptoc_type *delem = d->elem;
    if (c.rnd && !c.sat && !strcmp(pr->dst, "s8")) {
        /* the f16 -> u8 vconv without saturation writes the same low 8 bits */
        delem = ptoc_type_int(L->ctx, 8, PTOC_UNSIGNED);
        pr = pair_of(s->elem, delem);
        c.sat = "NOSAT";
    }
    if (!c.rnd || !c.sat)
        return;
    c.esize[0] = ptoc_type_bitwidth(d->elem) / 8;
    c.esize[1] = ptoc_type_bitwidth(s->elem) / 8;
    ptoc_value *tiles[3] = {src, dst, dst};
    if (nins == 2)
        tiles[1] = ptoc_op_operand(op, 1);
    vb_open_vecscope(L, op, tiles, (uint32_t)nins + 1, 1);
    a2_prog_init(&c.P, L, PTOC_PTO_VOP_A2A3_VCONV, c.esize[0] > c.esize[1] ? delem : s->elem);
    a2_ptr(&c.P, dst, delem, d->cols);
    a2_ptr(&c.P, src, s->elem, s->cols);
    if (d->valid_rows == PTOC_DYNAMIC || d->valid_cols == PTOC_DYNAMIC) {
        count_rows(&c, dst);
        ptoc_op_erase(op);
        return;
    }
    int64_t head = d->valid_cols / c.P.E, tail = d->valid_cols % c.P.E;
    if (head)
        head_rows(&c, d->valid_rows, head);
    if (tail)
        tail_rows(&c, d->valid_rows, head * c.P.E, tail);
    ptoc_op_erase(op);
}
