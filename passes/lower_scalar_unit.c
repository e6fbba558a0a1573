/* lower_scalar_unit.c: the element-by-element ops of the model passes, run
 * on the scalar unit (the S pipe) one element at a time through tgetval /
 * tsetval, as the A2/A3 library's integer tdivs does (TDivs_naive).
 * pto-lower-a2a3 runs all of these there (ptoc_pto_a2a3_scalar_unit),
 * pto-lower-a5 the float remainders (ptoc_pto_a5_scalar_unit):
 *
 *   trem trems tfmod tfmods        the cpu target's remainder (floor and
 *                                  truncated): the library's vector sequence
 *                                  (vdiv, a rounding vconv, vmul, vsub) is not
 *                                  fmod's exact result
 *   taddc tsubc taddsc tsubsc      (a +- b) + c, each step rounded to the
 *                                  element; a NaN first step is the result
 *   taxpy                          dst + src * s (the library's fused vaxpy
 *                                  rounds once)
 *   tprelu tlrelu                  a > 0 ? a : a * b (vlrelu's zero sign
 *                                  differs: docs/decisions.md)
 *   tand tor txor tands tors txors, tnot   8-bit elements on tiles the byte
 *                                  lowering does not take (not row-major
 *                                  none_box: lower_a2a3_bytes.c)
 *   tshrs (signed)                 arithmetic a >> s (the vector shift is logical)
 *   trecip (integers)              1 / x, x / 0 = -1 (arith.divsi's rule)
 *
 * Each element is computed with the arith ops the cpu target's lowering uses
 * (codegen/lower_pto_ewx.c), so the bytes are the cpu target's; bf16
 * computes in f32 and rounds each step. The tmp operands are scratch, unused.
 */
#include "passes/lower_scalar_unit.h"
#include "ptoc/ptoc.h"

typedef enum s_kind { K_REM, K_FMOD, K_ADDC, K_SUBC, K_AXPY, K_PRELU, K_AND, K_OR, K_XOR, K_NOT, K_SHR, K_RECIP } s_kind;

/* ins: tile ins used (a tile or the scalar at `scalar_at`, -1: none), in order a, b, c. */
typedef struct s_row { ptoc_pto_op_id op; s_kind kind; int nused; int scalar_at; } s_row;

static const s_row s_rows[] = {
    {PTOC_PTO_OP_TREM, K_REM, 2, -1},     {PTOC_PTO_OP_TREMS, K_REM, 2, 1},
    {PTOC_PTO_OP_TFMOD, K_FMOD, 2, -1},   {PTOC_PTO_OP_TFMODS, K_FMOD, 2, 1},
    {PTOC_PTO_OP_TADDC, K_ADDC, 3, -1},   {PTOC_PTO_OP_TSUBC, K_SUBC, 3, -1},
    {PTOC_PTO_OP_TADDSC, K_ADDC, 3, 1},   {PTOC_PTO_OP_TSUBSC, K_SUBC, 3, 1},
    {PTOC_PTO_OP_TAXPY, K_AXPY, 2, 1},    {PTOC_PTO_OP_TPRELU, K_PRELU, 2, -1},
    {PTOC_PTO_OP_TLRELU, K_PRELU, 2, 1},  {PTOC_PTO_OP_TAND, K_AND, 2, -1},
    {PTOC_PTO_OP_TOR, K_OR, 2, -1},       {PTOC_PTO_OP_TXOR, K_XOR, 2, -1},
    {PTOC_PTO_OP_TANDS, K_AND, 2, 1},     {PTOC_PTO_OP_TORS, K_OR, 2, 1},
    {PTOC_PTO_OP_TXORS, K_XOR, 2, 1},     {PTOC_PTO_OP_TNOT, K_NOT, 1, -1},
    {PTOC_PTO_OP_TSHRS, K_SHR, 2, 1},     {PTOC_PTO_OP_TRECIP, K_RECIP, 1, -1},
};

static const s_row *row_of(ptoc_pto_op_id opcode)
{
    for (size_t i = 0; i < sizeof s_rows / sizeof s_rows[0]; i++)
        if (s_rows[i].op == opcode)
            return &s_rows[i];
    return NULL;
}

bool scalar_unit_lowers(ptoc_pto_op_id opcode) { return row_of(opcode) != NULL; }

/* Whether this family, not a vector one, takes the op: the ops the dialect
 * puts on the S pipe for the target arch (ptoc_pto_op_pipe), so that sync
 * orders them. */
bool scalar_unit_claims(ptoc_op *op)
{
    return row_of(ptoc_pto_opcode(op)) && ptoc_pto_op_pipe(op) == PTOC_PTO_PIPE_S;
}

/* ---------------------------------------------------------------- elements */

typedef struct s_ctx {
    vop_builder *L;
    ptoc_type *elem;    /* dst's element type */
    ptoc_type *ctype;   /* the compute type: signless ints, f32 for bf16 */
    bool is_float, is_unsigned, bf16;
    bool s_in_order;    /* the arch keeps the S pipe's ops in order */
} s_ctx;

/* MLIR arith.cmpf / arith.cmpi predicate numbers. */
enum { F_OGT = 2, F_OGE = 3, F_ONE = 6, F_UNO = 14, I_NE = 1, I_SGT = 4, I_SGE = 5, I_UGT = 8 };

static ptoc_value *cmp(s_ctx *S, int64_t pred, ptoc_value *x, ptoc_value *y)
{
    if (!S->is_float)
        return vb_cmpi(S->L, pred, x, y);
    vop_builder *L = S->L;
    ptoc_type *i1 = ptoc_type_int(L->ctx, 1, PTOC_SIGNLESS);
    ptoc_value *ops[2] = {x, y};
    ptoc_named_attr p = {ptoc_ident_cstr(L->ctx, "predicate"),
                         ptoc_attr_int(L->ctx, ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS), pred)};
    return vb_result0(ptoc_builder_create(&L->b, "arith.cmpf", 2, ops, 1, &i1, 1, &p, 0));
}

static ptoc_value *sel(s_ctx *S, ptoc_value *c, ptoc_value *x, ptoc_value *y)
{
    ptoc_value *ops[3] = {c, x, y};
    return vb_result0(ptoc_builder_create(&S->L->b, "arith.select", 3, ops, 1, &x->type, 0, NULL, 0));
}

static ptoc_value *op2(s_ctx *S, const char *f, const char *i, ptoc_value *x, ptoc_value *y)
{
    return vb_arith(S->L, S->is_float ? f : i, x, y);
}

static ptoc_value *zero(s_ctx *S)
{
    return S->is_float ? vb_float(S->L, S->ctype, 0.0) : vb_int(S->L, S->ctype, 0);
}

/* A compute-type step's result rounded to the element and back (bf16 only). */
static ptoc_value *round_step(s_ctx *S, ptoc_value *v)
{
    if (!S->bf16)
        return v;
    return vb_cast(S->L, "arith.extf", vb_cast(S->L, "arith.truncf", v, S->elem), S->ctype);
}

/* x + y where x is an earlier step's result: a NaN x is the result. */
static ptoc_value *add_step(s_ctx *S, ptoc_value *x, ptoc_value *y)
{
    if (!S->is_float)
        return vb_arith(S->L, "arith.addi", x, y);
    return sel(S, cmp(S, F_UNO, x, x), x, vb_arith(S->L, "arith.addf", x, y));
}

static ptoc_value *rem(s_ctx *S, ptoc_value *a, ptoc_value *b)
{
    return S->is_float ? vb_arith(S->L, "arith.remf", a, b)
                       : vb_arith(S->L, S->is_unsigned ? "arith.remui" : "arith.remsi", a, b);
}

/* fmod / % then r + b when r != 0 and a, b lie on different sides of 0. */
static ptoc_value *floor_rem(s_ctx *S, ptoc_value *a, ptoc_value *b)
{
    ptoc_value *r = rem(S, a, b);
    if (!S->is_float && S->is_unsigned)
        return r;
    ptoc_value *z = zero(S);
    int64_t ge = S->is_float ? F_OGE : I_SGE, ne = S->is_float ? F_ONE : I_NE;
    ptoc_value *sides = vb_arith(S->L, "arith.xori", cmp(S, ge, a, z), cmp(S, ge, b, z));
    ptoc_value *fix = vb_arith(S->L, "arith.andi", sides, cmp(S, ne, r, z));
    return sel(S, fix, op2(S, "arith.addf", "arith.addi", r, b), r);
}

/* An arithmetic a >> s, an amount past width - 1 giving the sign. */
static ptoc_value *shr(s_ctx *S, ptoc_value *a, ptoc_value *s)
{
    ptoc_value *last = vb_int(S->L, S->ctype, (int64_t)ptoc_type_bitwidth(S->ctype) - 1);
    ptoc_value *amt = sel(S, vb_cmpi(S->L, I_UGT, s, last), last, s);
    return vb_arith(S->L, "arith.shrsi", a, amt);
}

static ptoc_value *compute(s_ctx *S, s_kind k, ptoc_value *a, ptoc_value *b, ptoc_value *c)
{
    switch (k) {
    case K_REM: return floor_rem(S, a, b);
    case K_FMOD: return rem(S, a, b);
    case K_ADDC: return add_step(S, round_step(S, op2(S, "arith.addf", "arith.addi", a, b)), c);
    case K_SUBC: return add_step(S, round_step(S, op2(S, "arith.subf", "arith.subi", a, b)), c);
    case K_AXPY: return add_step(S, c, round_step(S, op2(S, "arith.mulf", "arith.muli", a, b)));
    case K_PRELU: {
        int64_t gt = S->is_float ? F_OGT : S->is_unsigned ? I_UGT : I_SGT;
        return sel(S, cmp(S, gt, a, zero(S)), a, op2(S, "arith.mulf", "arith.muli", a, b));
    }
    case K_AND: return vb_arith(S->L, "arith.andi", a, b);
    case K_OR: return vb_arith(S->L, "arith.ori", a, b);
    case K_XOR: return vb_arith(S->L, "arith.xori", a, b);
    case K_NOT: return vb_arith(S->L, "arith.xori", a, vb_int(S->L, S->ctype, -1));
    case K_SHR: return shr(S, a, b);
    case K_RECIP:
        return vb_arith(S->L, S->is_unsigned ? "arith.divui" : "arith.divsi", vb_int(S->L, S->ctype, 1), a);
    }
    return a;
}

/* ---------------------------------------------------------------- the loop */

/* tile[idx] in the compute type (tgetval gives the element's bits type). */
static ptoc_value *get(s_ctx *S, ptoc_value *tile, ptoc_value *idx)
{
    vop_builder *L = S->L;
    ptoc_type *elem = vb_tile_desc(tile->type)->elem;
    ptoc_type *t = ptoc_type_is_int(elem) ? ptoc_type_int(L->ctx, ptoc_type_bitwidth(elem), PTOC_SIGNLESS) : elem;
    ptoc_value *ops[2] = {tile, idx};
    ptoc_op *load = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TGETVAL), 2, ops, 1, &t, 0, NULL, 0);
    ptoc_op_set_segment_sizes(load, L->b.arena, 2, (int64_t[2]){2, 0});
    ptoc_value *v = vb_result0(load);
    return t != S->ctype ? vb_cast(L, "arith.extf", v, S->ctype) : v;
}

/* On an arch whose S pipe does not keep its own ops in order (A5), a
 * pipe_barrier PIPE_S: the element's reads before its write, its write
 * before the next element's reads and write (the tiles may be one). */
static void s_barrier(s_ctx *S)
{
    if (S->s_in_order)
        return;
    vop_builder *L = S->L;
    ptoc_named_attr pipe = {ptoc_ident_cstr(L->ctx, "pipe"),
                            ptoc_pto_enum_attr(L->ctx, PTOC_PTO_ENUM_PIPE, PTOC_PTO_PIPE_S)};
    ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_PIPE_BARRIER), 0, NULL, 0, NULL, 1, &pipe, 0);
}

static void set(s_ctx *S, ptoc_value *dst, ptoc_value *idx, ptoc_value *v)
{
    vop_builder *L = S->L;
    if (S->bf16)
        v = vb_cast(L, "arith.truncf", v, S->elem);
    s_barrier(S);
    ptoc_value *ops[3] = {idx, v, dst};
    ptoc_op *store = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_TSETVAL), 3, ops, 0, NULL, 0, NULL, 0);
    ptoc_op_set_segment_sizes(store, L->b.arena, 2, (int64_t[2]){2, 1});
    s_barrier(S);
}

static ptoc_value *flat_index(s_ctx *S, ptoc_value *tile, ptoc_value *r, ptoc_value *c)
{
    int64_t cols = vb_tile_desc(tile->type)->cols;
    return vb_arith(S->L, "arith.addi", vb_arith(S->L, "arith.muli", r, vb_int(S->L, S->L->index, cols)), c);
}

/* The operands: a, b, c (tiles or the scalar); taxpy's c is dst itself. */
typedef struct s_operands { ptoc_value *in[3]; bool is_scalar[3]; ptoc_value *dst; } s_operands;

static bool read_operands(ptoc_op *op, const s_row *row, s_operands *o)
{
    int nins = vb_dps_ins(op);
    if (nins < row->nused)
        return false;
    *o = (s_operands){.dst = ptoc_op_operand(op, (uint32_t)nins)};
    const ptoc_pto_tile_desc *d = vb_tile_desc(o->dst->type);
    for (int i = 0; i < row->nused; i++) {
        o->in[i] = ptoc_op_operand(op, (uint32_t)i);
        o->is_scalar[i] = i == row->scalar_at;
        const ptoc_pto_tile_desc *t = vb_tile_desc(o->in[i]->type);
        if (o->is_scalar[i] ? t != NULL || !vb_scalar_fits(o->in[i]->type, d->elem) : !t)
            return false;
        if (!o->is_scalar[i] && t->elem != d->elem && row->kind != K_AXPY)
            return false;
    }
    if (row->kind == K_AXPY) {
        ptoc_type *se = vb_tile_desc(o->in[0]->type)->elem;
        bool widen = ptoc_type_is_float(se) && se->u.fp.kind == PTOC_F16 && ptoc_type_is_float(d->elem) &&
                     d->elem->u.fp.kind == PTOC_F32;
        if (se != d->elem && !widen)
            return false;
        o->in[2] = o->dst;
    }
    return true;
}

void scalar_unit_lower(vop_builder *L, ptoc_op *op)
{
    const s_row *row = row_of(ptoc_pto_opcode(op));
    s_operands o;
    if (!read_operands(op, row, &o))
        return;
    ptoc_type *elem = vb_tile_desc(o.dst->type)->elem;
    s_ctx S = {.L = L, .elem = elem, .is_float = ptoc_type_is_float(elem)};
    S.bf16 = S.is_float && elem->u.fp.kind == PTOC_BF16;
    S.s_in_order = ptoc_pto_pipe_in_order(ptoc_pto_target_arch(op, NULL), PTOC_PTO_PIPE_S);
    S.is_unsigned = !S.is_float && elem->u.integer.sign == PTOC_UNSIGNED;
    S.ctype = S.bf16 ? ptoc_type_float(L->ctx, PTOC_F32)
              : S.is_float ? elem : ptoc_type_int(L->ctx, ptoc_type_bitwidth(elem), PTOC_SIGNLESS);
    ptoc_builder_set_before(&L->b, op);
    L->b.loc = op->loc;
    ptoc_value *scalar = NULL;
    if (row->scalar_at >= 0) {
        ptoc_type *se = row->kind == K_AXPY ? vb_tile_desc(o.in[0]->type)->elem : elem;
        scalar = vb_scalar_as(L, o.in[row->scalar_at], se);
        if (!scalar)
            return;
        if (se != S.ctype && ptoc_type_is_float(se))
            scalar = vb_cast(L, "arith.extf", scalar, S.ctype);
    }
    ptoc_op *valid = vb_tile_valid(L, o.dst);
    vb_loop rows, cols;
    ptoc_value *r = vb_loop_begin(L, &rows, vb_int(L, L->index, 0), ptoc_op_result(valid, 0), vb_int(L, L->index, 1));
    ptoc_value *c = vb_loop_begin(L, &cols, vb_int(L, L->index, 0), ptoc_op_result(valid, 1), vb_int(L, L->index, 1));
    ptoc_value *v[3] = {NULL, NULL, NULL};
    for (int i = 0; i < (row->kind == K_AXPY ? 3 : row->nused); i++)
        v[i] = o.is_scalar[i] ? scalar : get(&S, o.in[i], flat_index(&S, o.in[i], r, c));
    if (row->kind == K_AXPY && v[0]->type != S.ctype)
        v[0] = vb_cast(L, "arith.extf", v[0], S.ctype);
    set(&S, o.dst, flat_index(&S, o.dst, r, c), compute(&S, row->kind, v[0], v[1], v[2]));
    vb_loop_end(L, &cols);
    vb_loop_end(L, &rows);
    ptoc_op_erase(op);
}
