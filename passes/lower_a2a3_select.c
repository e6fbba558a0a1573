/* lower_a2a3_select.c: pto-lower-a2a3's compare and select family, the
 * programs of pto-isa include/pto/npu/a2a3 TCmp.hpp, TCmps.hpp, TSel.hpp and
 * TSels.hpp on row_major none_box vec tiles.
 *
 *   tsels   the scalar into tmp (vector_dup of one element, in place of the
 *           scalar unit's store), set_cmpmask from tmp; in counter mode with
 *           the valid columns as the count, per valid row one vsel
 *           TENSOR_SCALAR of (dst row, src row, mask row).
 *   tsel    in counter mode, per valid row: the mask row's UB address
 *           (ub_addr) vector_dup'd into tmp as u32 words (4 for 16-bit data, 2
 *           for 32-bit, as TSel.hpp), set_cmpmask from tmp, then one vsel
 *           TENSOR_TENSOR of (dst row, src0 row, src1 row).
 *   tcmp    per valid row, in norm mode under the full mask, vcmpv_<mode> over
 *   tcmps   the row's repeats in instructions of at most 240 (TCMP_REPEAT_MAX),
 *           vcmpvs_<mode> with the scalar; the tile form of tcmps compares
 *           with src1[0,0], broadcast by vbrcb into the scratch window and
 *           read at block and repeat stride 0 (the library reads it with the
 *           scalar unit). NE is vcmpv_eq and then vnot of the row's bits, as
 *           the library does it.
 * Selects move bits: their data is half or float by width (TSel.hpp's T), so
 * bf16, u16, u32 and i32 tiles select as well. Their vecscope lists the tiles
 * the op reads and writes as the op does, without tmp: scratch the program
 * writes and reads back itself, as the window is (pto-insert-sync took the
 * op's tmp as written and its old contents as dead; A5's vecscope has none).
 *
 * The A2/A3 quirks are the library's, reproduced (the verifier warns at the
 * op, docs/decisions.md): a 32-bit integer tcmp or tcmps compares with
 * vcmpv(s)_eq whatever the mode (NE still holds: eq, then vnot), and a 16-bit
 * integer tcmps compares its source and scalar as fp16 bit patterns.
 *
 * Where ptoc parts from the library: a compare writes all L/8 bytes of each
 * repeat it runs, and the library runs the last one under the full mask, so
 * its bits past the valid columns are compares of whatever lies there, and
 * NE's vnot covers whole mask rows. ptoc keeps the cpu target's mask bytes
 * (docs/targets.md "Semantics": ceil(vcols/8) bytes a row, bits past vcols
 * zero): the last repeat runs in counter mode with the lanes left as the
 * count (its bits past vcols 0), the vnot covers the repeats run, and the
 * bytes of the last repeat past the valid ones are saved before and put back
 * after, as 16-bit words: T = bits & K before, then bits (& V for NE) | T.
 * K (the kept bytes) and V (the valid bits) are built once per op by
 * vector_dup in the hidden scratch window UB[184 KiB, 192 KiB), which the op
 * table's window column reserves for TCMP and TCMPS on A2/A3.
 */
#include "passes/lower_a2a3.h"

#include <string.h>

bool a2_select_lowers(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TCMP || opcode == PTOC_PTO_OP_TCMPS || opcode == PTOC_PTO_OP_TSEL ||
           opcode == PTOC_PTO_OP_TSELS;
}

/* ---------------------------------------------------------------- tiles */

/* A row_major none_box vec tile whose elements are `bits` wide (0: any). */
static bool row_tile(const ptoc_value *v, unsigned bits)
{
    const ptoc_pto_tile_desc *d = vb_tile_desc(v->type);
    return d && d->loc == PTOC_PTO_AS_VEC && d->blayout == PTOC_PTO_BL_ROW_MAJOR &&
           d->slayout == PTOC_PTO_SL_NONE_BOX && (!bits || ptoc_type_bitwidth(d->elem) == bits);
}

static const ptoc_pto_tile_desc *desc(const ptoc_value *v) { return vb_tile_desc(v->type); }

/* A mask tile: 8-bit integers, its rows a whole number of `unit` bytes. */
static bool mask_tile(const ptoc_value *v, int64_t unit)
{
    return row_tile(v, 8) && ptoc_type_is_int(desc(v)->elem) && desc(v)->cols % unit == 0;
}

/* half or float by width: the type a select moves its data as (TSel.hpp). */
static ptoc_type *moved_type(ptoc_context *ctx, const ptoc_type *elem)
{
    return ptoc_type_float(ctx, ptoc_type_bitwidth(elem) == 16 ? PTOC_F16 : PTOC_F32);
}

/* `tile` as a UB pointer to `elem`: its tile_ptr when the bridge allows the
 * type, else the program's cast of its address (ub_addr, then ub_ptr). */
static ptoc_value *tile_as(vop_builder *L, ptoc_value *tile, ptoc_type *elem)
{
    const ptoc_type *te = desc(tile)->elem;
    if (ptoc_type_bitwidth(te) == ptoc_type_bitwidth(elem))
        return vb_tile_ptr(L, tile, elem);
    ptoc_type *i64 = ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS);
    ptoc_value *ops[2] = {vb_tile_ptr(L, tile, desc(tile)->elem), vb_int(L, L->index, 0)};
    ptoc_value *addr = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_UB_ADDR, 2, ops, 1, &i64, NULL, NULL, NULL, NULL));
    ptoc_type *pt = ptoc_pto_ub_ptr_type(L->ctx, elem);
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_UB_PTR, 1, &addr, 1, &pt, NULL, NULL, NULL, NULL));
}

/* The valid rows and columns of `tile`: constants when static. */
static void valid_of(a2_prog *P, ptoc_value *tile, ptoc_value **vr, ptoc_value **vc)
{
    const ptoc_pto_tile_desc *d = desc(tile);
    if (d->valid_rows != PTOC_DYNAMIC && d->valid_cols != PTOC_DYNAMIC) {
        *vr = a2_index(P, d->valid_rows);
        *vc = a2_index(P, d->valid_cols);
        return;
    }
    ptoc_op *valid = vb_tile_valid(P->L, tile);
    *vr = ptoc_op_result(valid, 0);
    *vc = ptoc_op_result(valid, 1);
}

/* ---------------------------------------------------------------- program pieces */

static ptoc_value *idx_op(a2_prog *P, const char *name, ptoc_value *x, int64_t k)
{
    return vb_arith(P->L, name, x, a2_index(P, k));
}

/* One instruction of P at the given offsets, repeat `repeat`. */
static ptoc_op *instr(a2_prog *P, ptoc_value *o0, ptoc_value *o1, ptoc_value *o2, ptoc_value *repeat)
{
    ptoc_value *offs[3] = {o0, o1, o2};
    return a2_instr(P, offs, repeat, NULL);
}

static void set_string(a2_prog *P, ptoc_op *op, const char *key, const char *value)
{
    ptoc_context *ctx = P->L->ctx;
    ptoc_op_set_attr(op, P->L->b.arena, ptoc_ident_cstr(ctx, key), ptoc_attr_string(ctx, value, strlen(value)));
}

/* Counter mode's count (the mode already set): set_vector_mask 0, n. */
static void count(a2_prog *P, ptoc_value *n) { a2_set_mask(P, a2_i64(P, 0), a2_as_i64(P, n)); }

static void norm_full(a2_prog *P)
{
    a2_vop0(P, PTOC_PTO_VOP_A2A3_SET_MASK_NORM, 0, NULL);
    a2_full_mask(P);
}

/* vector_dup of `s` into n elements at ptr[off] (counter mode). */
static void dup(vop_builder *L, ptoc_value *ptr, ptoc_type *elem, ptoc_value *off, ptoc_value *s, ptoc_value *n)
{
    a2_prog D;
    a2_prog_init(&D, L, PTOC_PTO_VOP_A2A3_VECTOR_DUP, elem);
    D.ptrs[0] = ptr;
    D.nptrs = 1;
    D.scalar = s;
    count(&D, n);
    instr(&D, off, NULL, NULL, a2_index(&D, 1));
}

/* ---------------------------------------------------------------- tsel, tsels */

/* A select's program: the vsel over (dst, src0, src1 or the mask) as T, each
 * at its row stride, tmp as a pointer, the valid shape. */
typedef struct sel_prog {
    a2_prog P;
    ptoc_type *T;
    ptoc_value *tmp, *vr, *vc;
} sel_prog;

/* Opens op's vecscope (its tiles but tmp) and sets up the vsel over
 * `data` (dst first, then the sources; a u8 mask as the third). */
static void sel_begin(sel_prog *S, vop_builder *L, ptoc_op *op, ptoc_value *const *data, ptoc_value *mask,
                      ptoc_value *tmp, ptoc_type *tmp_elem)
{
    ptoc_value *tiles[4] = {mask, data[1], data[2] ? data[2] : data[0], data[0]};
    vb_open_vecscope(L, op, tiles, data[2] ? 4 : 3, 1);
    S->T = moved_type(L->ctx, desc(data[0])->elem);
    a2_prog_init(&S->P, L, PTOC_PTO_VOP_A2A3_VSEL, S->T);
    valid_of(&S->P, data[0], &S->vr, &S->vc);
    S->tmp = tile_as(L, tmp, tmp_elem ? tmp_elem : S->T);
    for (uint32_t i = 0; i < 3; i++) {
        ptoc_value *t = data[i] ? data[i] : mask;
        S->P.ptrs[i] = data[i] ? tile_as(L, t, S->T) : vb_tile_ptr(L, t, ptoc_type_int(L->ctx, 8, PTOC_UNSIGNED));
        S->P.cols[i] = desc(t)->cols;
    }
    S->P.nptrs = 3;
    a2_vop0(&S->P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
}

/* set_cmpmask from tmp. */
static void cmpmask_from_tmp(sel_prog *S)
{
    ptoc_value *cm[2] = {S->tmp, a2_index(&S->P, 0)};
    a2_vop0(&S->P, PTOC_PTO_VOP_A2A3_SET_CMPMASK, 2, cm);
}

/* Row r's vsel in `mode`, the valid columns as the count (set before). */
static void sel_row(sel_prog *S, ptoc_value *r, const char *mode)
{
    ptoc_value *offs[3];
    a2_row_offsets(&S->P, r, NULL, offs);
    set_string(&S->P, a2_instr(&S->P, offs, a2_index(&S->P, 1), NULL), "sel_mode", mode);
}

/* tsels ins(mask, src, tmp, scalar) outs(dst) (TSels.hpp): the scalar into
 * tmp, set_cmpmask, then per row vsel TENSOR_SCALAR with the mask row. */
static void lower_tsels(vop_builder *L, ptoc_op *op)
{
    ptoc_value *data[3] = {ptoc_op_operand(op, 4), ptoc_op_operand(op, 1), NULL};
    sel_prog S;
    sel_begin(&S, L, op, data, ptoc_op_operand(op, 0), ptoc_op_operand(op, 2), NULL);
    ptoc_value *scalar = vb_scalar_as(L, ptoc_op_operand(op, 3), desc(data[0])->elem);
    if (scalar->type != S.T)
        scalar = vb_cast(L, "arith.bitcast", scalar, S.T);
    dup(L, S.tmp, S.T, a2_index(&S.P, 0), scalar, a2_index(&S.P, 1));     /* *scalarPtr = scalar */
    count(&S.P, S.vc);
    cmpmask_from_tmp(&S);
    vb_loop l;
    sel_row(&S, vb_loop_begin(L, &l, a2_index(&S.P, 0), S.vr, a2_index(&S.P, 1)), "TENSOR_SCALAR");
    vb_loop_end(L, &l);
    norm_full(&S.P);
    ptoc_op_erase(op);
}

/* tsel ins(mask, src0, src1, tmp) outs(dst) (TSel.hpp): per row, the mask
 * row's UB address into tmp as u32 words (128 bits for 16-bit data, 64 for
 * 32-bit), set_cmpmask, vsel TENSOR_TENSOR. */
static void lower_tsel(vop_builder *L, ptoc_op *op)
{
    ptoc_value *data[3] = {ptoc_op_operand(op, 4), ptoc_op_operand(op, 1), ptoc_op_operand(op, 2)};
    ptoc_value *mask = ptoc_op_operand(op, 0);
    ptoc_type *u32 = ptoc_type_int(L->ctx, 32, PTOC_UNSIGNED), *i32 = ptoc_type_int(L->ctx, 32, PTOC_SIGNLESS);
    sel_prog S;
    sel_begin(&S, L, op, data, mask, ptoc_op_operand(op, 3), u32);
    int64_t words = ptoc_type_bitwidth(S.T) == 16 ? 4 : 2;
    ptoc_value *mp = vb_tile_ptr(L, mask, ptoc_type_int(L->ctx, 8, PTOC_UNSIGNED));
    vb_loop l;
    ptoc_value *r = vb_loop_begin(L, &l, a2_index(&S.P, 0), S.vr, a2_index(&S.P, 1));
    ptoc_value *at[2] = {mp, vb_arith(L, "arith.muli", r, a2_index(&S.P, desc(mask)->cols))};
    ptoc_value *addr = vb_result0(vb_vop(L, PTOC_PTO_VOP_A2A3_UB_ADDR, 2, at, 1, &i32, NULL, NULL, NULL, NULL));
    dup(L, S.tmp, u32, a2_index(&S.P, 0), addr, a2_index(&S.P, words));
    cmpmask_from_tmp(&S);
    count(&S.P, S.vc);
    sel_row(&S, r, "TENSOR_TENSOR");
    vb_loop_end(L, &l);
    norm_full(&S.P);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- tcmp, tcmps */

enum { CMP_REPEAT_MAX = 240 };          /* TCMP_REPEAT_MAX, TCMPS_REPEAT_MAX */
/* Byte offsets in the scratch window: the broadcast rhs (a repeat), the kept
 * bytes' and the valid bits' words, the saved bytes. */
enum { W_RHS = 0, W_KEEP = 256, W_VALID = 288, W_SAVED = 320 };

typedef struct cmp_op {
    ptoc_value *src, *rhs, *mask;
    uint32_t mode;              /* the op's cmpMode */
    bool scalar;                /* the rhs is a scalar (tcmps) */
    bool tile_form;             /* tcmps of two tiles: src1[0,0] */
    ptoc_type *lane;            /* what the compare reads: src's type, f16 for 16-bit integers in tcmps */
} cmp_op;

static bool cmp_operands(const ptoc_op *op, cmp_op *c)
{
    uint32_t mode = PTOC_PTO_CMP_EQ;
    if (vb_dps_ins(op) != 2)
        return false;
    ptoc_attr *a = ptoc_op_attr(op, "cmpMode");
    if ((a && !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_CMP, &mode)) || mode > PTOC_PTO_CMP_GE)
        return false;
    bool tcmps = ptoc_pto_is(op, PTOC_PTO_OP_TCMPS);
    *c = (cmp_op){ptoc_op_operand(op, 0), ptoc_op_operand(op, 1), ptoc_op_operand(op, 2), mode};
    if (!row_tile(c->src, 0) || !a2_plain_tile(c->src->type, desc(c->src)->elem))
        return false;
    ptoc_type *elem = desc(c->src)->elem;
    c->tile_form = tcmps && vb_tile_desc(c->rhs->type);
    c->scalar = tcmps && !c->tile_form;
    bool half_ints = tcmps && ptoc_type_is_int(elem) && ptoc_type_bitwidth(elem) == 16;    /* TCmps.hpp */
    c->lane = half_ints ? ptoc_type_float(ptoc_op_context(op), PTOC_F16) : elem;
    if (!mask_tile(c->mask, 256 / (ptoc_type_bitwidth(elem) / 8) / 8))
        return false;
    if (c->scalar)
        return vb_scalar_fits(c->rhs->type, elem);
    return row_tile(c->rhs, 0) && desc(c->rhs)->elem == elem;
}

/* The instruction the library runs for the mode on this type (CmpCall,
 * GenCmpCall): eq for 32-bit integers and for NE. */
static ptoc_pto_vop_id cmp_vop(const cmp_op *c)
{
    static const ptoc_pto_vop_id tensor[] = {
        [PTOC_PTO_CMP_EQ] = PTOC_PTO_VOP_A2A3_VCMPV_EQ, [PTOC_PTO_CMP_NE] = PTOC_PTO_VOP_A2A3_VCMPV_EQ,
        [PTOC_PTO_CMP_LT] = PTOC_PTO_VOP_A2A3_VCMPV_LT, [PTOC_PTO_CMP_LE] = PTOC_PTO_VOP_A2A3_VCMPV_LE,
        [PTOC_PTO_CMP_GT] = PTOC_PTO_VOP_A2A3_VCMPV_GT, [PTOC_PTO_CMP_GE] = PTOC_PTO_VOP_A2A3_VCMPV_GE};
    static const ptoc_pto_vop_id scalar[] = {
        [PTOC_PTO_CMP_EQ] = PTOC_PTO_VOP_A2A3_VCMPVS_EQ, [PTOC_PTO_CMP_NE] = PTOC_PTO_VOP_A2A3_VCMPVS_EQ,
        [PTOC_PTO_CMP_LT] = PTOC_PTO_VOP_A2A3_VCMPVS_LT, [PTOC_PTO_CMP_LE] = PTOC_PTO_VOP_A2A3_VCMPVS_LE,
        [PTOC_PTO_CMP_GT] = PTOC_PTO_VOP_A2A3_VCMPVS_GT, [PTOC_PTO_CMP_GE] = PTOC_PTO_VOP_A2A3_VCMPVS_GE};
    bool int32 = ptoc_type_is_int(c->lane) && ptoc_type_bitwidth(c->lane) == 32 &&
                 c->lane->u.integer.sign != PTOC_UNSIGNED;                 /* int32_t */
    uint32_t mode = int32 ? PTOC_PTO_CMP_EQ : c->mode;
    return c->scalar ? scalar[mode] : tensor[mode];
}

/* What a compare program works with: the pointers and the row's shape. */
typedef struct cmp_prog {
    a2_prog P;                  /* the compare: bits (u8), src, rhs (or the scalar) */
    a2_prog W;                  /* 16-bit words: the mask's, the saved bytes' */
    ptoc_value *mask16, *keep, *valid, *saved;
    int64_t E, RB;              /* lanes of a repeat, the bytes of its bits */
    ptoc_value *nfull;          /* the row's repeats before its last */
    ptoc_value *last;           /* the lanes of the last repeat (0 when vcols is) */
    ptoc_value *nrep;           /* all its repeats */
    bool ne;
} cmp_prog;

/* The mask's kept bytes (K) and, for NE, valid bits (V) over the last
 * repeat's RB bytes, as 16-bit words (counter mode on entry). */
static void build_patterns(cmp_prog *C, vop_builder *L, ptoc_value *vcols)
{
    a2_prog *P = &C->P;
    ptoc_type *i16 = ptoc_type_int(L->ctx, 16, PTOC_SIGNLESS);
    ptoc_value *words = a2_index(P, C->RB / 2), *zero = a2_index(P, 0);
    ptoc_value *ones = vb_int(L, i16, -1), *none = vb_int(L, i16, 0);
    /* the bytes of the last repeat that hold valid bits: ceil(vcols/8) - nfull * RB */
    ptoc_value *vbytes = idx_op(P, "arith.ceildivsi", vcols, 8);
    ptoc_value *nv = vb_arith(L, "arith.subi", vbytes, idx_op(P, "arith.muli", C->nfull, C->RB));
    ptoc_value *half = idx_op(P, "arith.shrui", nv, 1);
    ptoc_value *odd = vb_cast(L, "arith.index_cast", idx_op(P, "arith.andi", nv, 1), i16);
    ptoc_value *edge = vb_arith(L, "arith.subi", ones, vb_arith(L, "arith.muli", odd, vb_int(L, i16, 255)));
    dup(L, C->keep, i16, zero, ones, words);
    dup(L, C->keep, i16, zero, none, half);
    dup(L, C->keep, i16, half, edge, a2_index(P, 1));          /* 0xFF00 when a valid byte shares it */
    if (!C->ne)
        return;
    ptoc_value *bits16 = idx_op(P, "arith.shrui", C->last, 4);
    ptoc_value *rest = vb_cast(L, "arith.index_cast", idx_op(P, "arith.andi", C->last, 15), i16);
    ptoc_value *low = vb_arith(L, "arith.subi", vb_arith(L, "arith.shli", vb_int(L, i16, 1), rest), vb_int(L, i16, 1));
    dup(L, C->valid, i16, zero, none, words);
    dup(L, C->valid, i16, zero, ones, bits16);
    dup(L, C->valid, i16, bits16, low, a2_index(P, 1));        /* the low vcols % 16 bits */
}

/* One 16-bit word instruction `vop` over n words at the given word offsets
 * (counter mode): dst = a OP b. */
static void words_op(cmp_prog *C, ptoc_pto_vop_id vop, ptoc_value *const *ptrs, ptoc_value *const *offs,
                     uint32_t nptrs, ptoc_value *n)
{
    a2_prog *W = &C->W;
    W->vop = vop;
    W->nptrs = nptrs;
    for (uint32_t i = 0; i < nptrs; i++)
        W->ptrs[i] = ptrs[i];
    count(W, n);
    a2_instr(W, offs, a2_index(W, 1), NULL);
}

/* One compare at the offsets; the broadcast rhs (row stride 0) is read at
 * block and repeat stride 0, so every lane reads its block 0. */
static void cmp_instr(cmp_prog *C, ptoc_value *const *offs, ptoc_value *repeat)
{
    a2_prog *P = &C->P;
    ptoc_op *cmp = a2_instr(P, offs, repeat, NULL);
    if (P->nptrs < 3 || P->cols[2])
        return;
    ptoc_context *ctx = P->L->ctx;
    ptoc_attr *blk[3], *rep[3];
    for (int i = 0; i < 3; i++) {
        blk[i] = ptoc_attr_int(ctx, P->i64, i < 2);
        rep[i] = ptoc_attr_int(ctx, P->i64, i < 2 ? 8 : 0);
    }
    ptoc_op_set_attr(cmp, P->L->b.arena, ptoc_ident_cstr(ctx, "blk"), ptoc_attr_array(ctx, 3, blk));
    ptoc_op_set_attr(cmp, P->L->b.arena, ptoc_ident_cstr(ctx, "rep"), ptoc_attr_array(ctx, 3, rep));
}

/* The offsets of repeat `k` (an index) of the row at row_offs. */
static void repeat_offsets(cmp_prog *C, ptoc_value *const *row_offs, ptoc_value *k, ptoc_value **offs)
{
    a2_prog *P = &C->P;
    offs[0] = vb_arith(P->L, "arith.addi", row_offs[0], idx_op(P, "arith.muli", k, C->RB));
    for (uint32_t i = 1; i < P->nptrs; i++)
        offs[i] = P->cols[i] ? vb_arith(P->L, "arith.addi", row_offs[i], idx_op(P, "arith.muli", k, C->E))
                             : row_offs[i];
}

/* The row's repeats before its last, in norm mode under the full mask, at
 * most 240 an instruction. */
static void full_repeats(cmp_prog *C, ptoc_value *const *row_offs)
{
    a2_prog *P = &C->P;
    vop_builder *L = P->L;
    norm_full(P);
    vb_loop l;
    ptoc_value *j = vb_loop_begin(L, &l, a2_index(P, 0), C->nfull, a2_index(P, CMP_REPEAT_MAX));
    ptoc_value *rep = vb_arith(L, "arith.minsi", a2_index(P, CMP_REPEAT_MAX), vb_arith(L, "arith.subi", C->nfull, j));
    ptoc_value *offs[3];
    repeat_offsets(C, row_offs, j, offs);
    cmp_instr(C, offs, rep);
    vb_loop_end(L, &l);
}

/* One mask row: save the kept bytes of its last repeat, compare, (NE: vnot
 * the bits, clear those past vcols), put the kept bytes back. */
static void cmp_row(cmp_prog *C, ptoc_value *r)
{
    a2_prog *P = &C->P;
    vop_builder *L = P->L;
    ptoc_value *row_offs[3];
    a2_row_offsets(P, r, NULL, row_offs);
    ptoc_value *last_byte = vb_arith(L, "arith.addi", row_offs[0], idx_op(P, "arith.muli", C->nfull, C->RB));
    ptoc_value *last_word = idx_op(P, "arith.shrui", last_byte, 1), *zero = a2_index(P, 0);
    ptoc_value *words = a2_index(P, C->RB / 2);
    a2_vop0(P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    ptoc_value *save[3] = {C->saved, C->mask16, C->keep}, *save_at[3] = {zero, last_word, zero};
    words_op(C, PTOC_PTO_VOP_A2A3_VAND, save, save_at, 3, words);
    full_repeats(C, row_offs);
    a2_vop0(P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    count(P, C->last);
    ptoc_value *offs[3];
    repeat_offsets(C, row_offs, C->nfull, offs);
    cmp_instr(C, offs, a2_index(P, 1));
    ptoc_value *m[3] = {C->mask16, C->mask16, C->valid}, *at[3] = {last_word, last_word, zero};
    if (C->ne) {
        ptoc_value *first = idx_op(P, "arith.shrui", row_offs[0], 1), *row_at[2] = {first, first};
        words_op(C, PTOC_PTO_VOP_A2A3_VNOT, m, row_at, 2, idx_op(P, "arith.muli", C->nrep, C->RB / 2));
        words_op(C, PTOC_PTO_VOP_A2A3_VAND, m, at, 3, words);
    }
    m[2] = C->saved;
    words_op(C, PTOC_PTO_VOP_A2A3_VOR, m, at, 3, words);
}

/* The compare's pointers: the mask's bits, src, and the rhs (tcmp's tile;
 * tcmps' src1[0,0] broadcast by vbrcb into the window) or the scalar. */
static void cmp_pointers(cmp_prog *C, vop_builder *L, const cmp_op *c)
{
    a2_prog *P = &C->P;
    ptoc_context *ctx = L->ctx;
    a2_prog_init(P, L, cmp_vop(c), c->lane);
    P->ptrs[0] = vb_tile_ptr(L, c->mask, ptoc_type_int(ctx, 8, PTOC_UNSIGNED)), P->cols[0] = desc(c->mask)->cols;
    P->ptrs[1] = tile_as(L, c->src, c->lane), P->cols[1] = desc(c->src)->cols;
    P->nptrs = 2;
    if (c->scalar) {
        ptoc_value *s = vb_scalar_as(L, c->rhs, desc(c->src)->elem);
        P->scalar = s->type == c->lane ? s : vb_cast(L, "arith.bitcast", s, c->lane);
        return;
    }
    P->ptrs[2] = tile_as(L, c->rhs, c->lane), P->cols[2] = desc(c->rhs)->cols;
    P->nptrs = 3;
    if (!c->tile_form)
        return;
    a2_prog B;
    a2_prog_init(&B, L, PTOC_PTO_VOP_A2A3_VBRCB, c->lane);
    B.ptrs[0] = a2_window_ptr(P->L, c->lane, W_RHS), B.ptrs[1] = P->ptrs[2];
    B.nptrs = 2;
    instr(&B, a2_index(P, 0), a2_index(P, 0), NULL, a2_index(P, 1));
    P->ptrs[2] = B.ptrs[0], P->cols[2] = 0;
}

static void cmp_program(vop_builder *L, const cmp_op *c)
{
    cmp_prog C = {.ne = c->mode == PTOC_PTO_CMP_NE};
    cmp_pointers(&C, L, c);
    a2_prog *P = &C.P;
    ptoc_type *i16 = ptoc_type_int(L->ctx, 16, PTOC_SIGNLESS);
    C.E = P->E, C.RB = P->E / 8;
    a2_prog_init(&C.W, L, PTOC_PTO_VOP_A2A3_VAND, i16);
    C.mask16 = vb_tile_ptr(L, c->mask, i16);
    C.keep = a2_window_ptr(P->L, i16, W_KEEP), C.saved = a2_window_ptr(P->L, i16, W_SAVED);
    C.valid = C.ne ? a2_window_ptr(P->L, i16, W_VALID) : NULL;
    ptoc_value *vr, *vc;
    valid_of(P, c->src, &vr, &vc);
    C.nrep = idx_op(P, "arith.ceildivsi", vc, C.E);
    C.nfull = vb_arith(L, "arith.subi", C.nrep, vb_arith(L, "arith.minsi", C.nrep, a2_index(P, 1)));
    C.last = vb_arith(L, "arith.subi", vc, idx_op(P, "arith.muli", C.nfull, C.E));
    a2_vop0(P, PTOC_PTO_VOP_A2A3_SET_MASK_COUNT, 0, NULL);
    build_patterns(&C, L, vc);
    vb_loop l;
    ptoc_value *r = vb_loop_begin(L, &l, a2_index(P, 0), vr, a2_index(P, 1));
    cmp_row(&C, r);
    vb_loop_end(L, &l);
    norm_full(P);
}

static void lower_cmp(vop_builder *L, ptoc_op *op)
{
    cmp_op c;
    if (!cmp_operands(op, &c))
        return;
    ptoc_value *tiles[3] = {c.src, c.rhs, c.mask};
    bool tile_rhs = !c.scalar;
    if (!tile_rhs)
        tiles[1] = c.mask;
    vb_open_vecscope(L, op, tiles, tile_rhs ? 3 : 2, 1);
    cmp_program(L, &c);
    ptoc_op_erase(op);
}

/* ---------------------------------------------------------------- the family */

/* A select's tiles: 16- or 32-bit row_major data of one width, a u8 mask,
 * and tmp (the 4-in form: pto-bufferize supplies it on A2/A3, the verifier
 * asks a hand-placed kernel for it). */
static bool select_ok(const ptoc_op *op, bool scalar)
{
    if (vb_dps_ins(op) != 4)
        return false;
    ptoc_value *dst = ptoc_op_operand(op, 4);
    const ptoc_pto_tile_desc *d = desc(dst);
    unsigned bits = d ? ptoc_type_bitwidth(d->elem) : 0;
    if ((bits != 16 && bits != 32) || !row_tile(dst, bits) || !mask_tile(ptoc_op_operand(op, 0), 1) ||
        !row_tile(ptoc_op_operand(op, 1), bits))
        return false;
    ptoc_value *tmp = ptoc_op_operand(op, scalar ? 2 : 3);
    if (!vb_tile_desc(tmp->type) || desc(tmp)->loc != PTOC_PTO_AS_VEC)
        return false;
    if (scalar)
        return vb_scalar_fits(ptoc_op_operand(op, 3)->type, d->elem);
    return row_tile(ptoc_op_operand(op, 2), bits);
}

void a2_select_lower(vop_builder *L, ptoc_op *op)
{
    switch (ptoc_pto_opcode(op)) {
    case PTOC_PTO_OP_TSELS:
        if (select_ok(op, true))
            lower_tsels(L, op);
        break;
    case PTOC_PTO_OP_TSEL:
        if (select_ok(op, false))
            lower_tsel(L, op);
        break;
    default: lower_cmp(L, op); break;
    }
}
