/* lower_a2a3.h: what the files of the "pto-lower-a2a3" pass share.
 *
 * lower_a2a3.c holds the pass and the repeat-program builder below; each
 * family of tile ops has a file of its own (lower_a2a3_elementwise.c, ...)
 * that says which ops it lowers and lowers one, listed in lower_a2a3.c's
 * family table.
 *
 * A program (a2_prog) is built into a pto.vecscope: up to three UB pointers
 * (the intrinsics' order: dst first), each with its row stride in elements,
 * an optional scalar operand, and the instruction `vop` that a2_instr emits.
 * A pointer whose row stride is 0 reads the same row for every row: the
 * repeat stride 0 of a column broadcast. The paths (a2_whole_norm, a2_chunks,
 * ...) are the hardware library's (pto-isa include/pto/npu/a2a3 TBinOp.hpp);
 * a program leaves the core in norm mode with every lane on, as it found it.
 */
#ifndef PTOC_PASSES_LOWER_A2A3_H
#define PTOC_PASSES_LOWER_A2A3_H

#include "passes/lower_scalar_unit.h"
#include "passes/vop_builder.h"
#include "ptoc/pto.h"

enum { A2_REPEAT_MAX = 255, A2_STRIDE_MAX = 255 };

typedef struct a2_prog {
    vop_builder *L;
    ptoc_pto_vop_id vop;        /* the instruction a2_instr emits */
    ptoc_value *tiles[3];       /* dst, then the sources */
    ptoc_value *ptrs[3];        /* their addresses */
    int64_t cols[3];            /* their row strides, in elements (0: one row for all) */
    uint32_t nptrs;
    ptoc_value *scalar;         /* the vector-scalar ops' scalar, after the pointers */
    ptoc_pto_vop_id then_vop;   /* a unary op run in place on dst after each instruction
                                   (expdif's vexp after vsub); PTOC_PTO_VOP_NONE: none */
    int64_t E, B;               /* elements per repeat, per 32-byte block */
    ptoc_type *i64;
} a2_prog;

/* A program over `elem` lanes running `vop`; the pointers are added with a2_ptr. */
void a2_prog_init(a2_prog *P, vop_builder *L, ptoc_pto_vop_id vop, ptoc_type *elem);
/* Adds tile t as the next pointer, its row stride `cols` elements (the same
 * tile added twice shares one pto.tile_ptr). */
void a2_ptr(a2_prog *P, ptoc_value *tile, ptoc_type *elem, int64_t cols);

ptoc_value *a2_index(a2_prog *P, int64_t v);     /* an index constant */
ptoc_value *a2_i64(a2_prog *P, int64_t v);       /* an i64 constant */
ptoc_value *a2_as_i64(a2_prog *P, ptoc_value *v);
/* An op without results (set_mask_norm, set_cmpmask, ...). */
void a2_vop0(a2_prog *P, ptoc_pto_vop_id id, uint32_t n, ptoc_value *const *ops);
void a2_set_mask(a2_prog *P, ptoc_value *hi, ptoc_value *lo);
void a2_full_mask(a2_prog *P);
/* The continuous mask of the first n lanes (SetContMaskByDType), 0 < n < E. */
void a2_cont_mask(a2_prog *P, int64_t n);
/* set_mask_count and the count; a2_count_end: back to norm mode, every lane on. */
void a2_count_begin(a2_prog *P, ptoc_value *count);
void a2_count_end(a2_prog *P);

/* One instruction: pointer i at element offset offs[i], `repeat` repeats,
 * the repeat strides `rep` in blocks (NULL: contiguous repeats, no lists);
 * then then_vop, when set, on dst's same elements. */
ptoc_op *a2_instr(a2_prog *P, ptoc_value *const *offs, ptoc_value *repeat, const int64_t *rep);
/* Offsets row * cols[i] + col (col NULL: 0) of each pointer. */
void a2_row_offsets(a2_prog *P, ptoc_value *row, ptoc_value *col, ptoc_value **offs);

/* The paths. Bin1LNormMode: n static contiguous elements, at most 255
 * repeats: head repeats, then the tail under the continuous mask. */
void a2_whole_norm(a2_prog *P, int64_t n);
/* Bin1LCountMode: n contiguous elements as one count. */
void a2_whole_count(a2_prog *P, ptoc_value *n);
/* Bin2LNormModeRowRpt: static rows x cols at the pointers' row strides (each
 * a whole number of blocks): per chunk of E columns one instruction whose
 * repeats are the rows (groups of at most 255; one repeat per row when a
 * stride is past 255 blocks), the tail chunk under the continuous mask. */
void a2_chunks(a2_prog *P, int64_t rows, int64_t cols);
/* One column chunk of a2_chunks at column `col`, under the mask set now. */
void a2_chunk_rows(a2_prog *P, ptoc_value *col, int64_t rows);
/* Bin2LCountMode: vcols as the count, one instruction per row of vrows. */
void a2_rows_count(a2_prog *P, ptoc_value *vrows, ptoc_value *vcols);
/* Whether every row stride is a whole number of 32-byte blocks. */
bool a2_blocks_whole(const a2_prog *P);

/* A UB pointer to `elem` at byte `off` of the A2/A3 hidden scratch window
 * UB[184 KiB, 192 KiB) (the arch table's), made where the builder is. */
ptoc_value *a2_window_ptr(vop_builder *L, ptoc_type *elem, int64_t off);

/* A row_major none_box vec tile of `elem`, an element type the vector unit
 * computes on (f16, f32, i16, i32 of either sign). */
bool a2_plain_tile(const ptoc_type *t, const ptoc_type *elem);

/* The families: elementwise (lower_a2a3_elementwise.c), tcolexpand
 * (lower_a2a3_colexpand.c), compare and select (lower_a2a3_select.c). */
bool a2_elementwise_lowers(ptoc_pto_op_id opcode);
void a2_elementwise_lower(vop_builder *L, ptoc_op *op);
bool a2_colexpand_lowers(ptoc_pto_op_id opcode);
void a2_colexpand_lower(vop_builder *L, ptoc_op *op);
bool a2_select_lowers(ptoc_pto_op_id opcode);
void a2_select_lower(vop_builder *L, ptoc_op *op);
/* The elementwise family's program (its path chosen as for tadd): `vop` over
 * dst and nins (at most 2) source tiles, with `scalar` (or NULL), in the open
 * vecscope. */
void a2_elementwise_program(vop_builder *L, ptoc_pto_vop_id vop, ptoc_value *const *ins, uint32_t nins,
                            ptoc_value *dst, ptoc_value *scalar);
/* The unary ops (lower_a2a3_unary.c), texpands (lower_a2a3_fill.c). */
bool a2_unary_lowers(ptoc_pto_op_id opcode);
void a2_unary_lower(vop_builder *L, ptoc_op *op);
bool a2_fill_lowers(ptoc_pto_op_id opcode);
void a2_fill_lower(vop_builder *L, ptoc_op *op);
/* texpands' program: s (converted to dst's element) into dst's valid region,
 * in the open vecscope. */
void a2_fill_program(vop_builder *L, ptoc_value *dst, ptoc_value *s);
/* txor and the bitwise tile-scalar ops (lower_a2a3_bitwise.c). */
bool a2_bitwise_lowers(ptoc_pto_op_id opcode);
void a2_bitwise_lower(vop_builder *L, ptoc_op *op);
/* tshl tshr (element by element), tshls tshrs (lower_a2a3_shift.c). */
bool a2_shift_lowers(ptoc_pto_op_id opcode);
void a2_shift_lower(vop_builder *L, ptoc_op *op);
/* The column reductions (lower_a2a3_reduce.c). */
bool a2_reduce_lowers(ptoc_pto_op_id opcode);
void a2_reduce_lower(vop_builder *L, ptoc_op *op);
/* tcvt (lower_a2a3_convert.c). */
bool a2_convert_lowers(ptoc_pto_op_id opcode);
void a2_convert_lower(vop_builder *L, ptoc_op *op);
/* tcvt by rmode ODD (lower_a2a3_convert_odd.c); false: not this program. */
bool a2_convert_odd_lower(vop_builder *L, ptoc_op *op, ptoc_value *src, ptoc_value *dst, int nins, bool sat);
/* The row-expand binary ops (lower_a2a3_rowexpand.c). */
bool a2_rowexpand_lowers(ptoc_pto_op_id opcode);
void a2_rowexpand_lower(vop_builder *L, ptoc_op *op);
/* tfillpad, tfillpad_expand, tfillpad_inplace (lower_a2a3_fillpad.c). */
bool a2_fillpad_lowers(ptoc_pto_op_id opcode);
void a2_fillpad_lower(vop_builder *L, ptoc_op *op);
/* A byte tile viewed as u16 lanes: in lane q of each of the first `rows` rows
 * (row_lanes lanes apart), the high (hi) or low byte set to `both`'s (an
 * i16 holding the byte twice), in the open vecscope. */
void a2_set_half_lane(vop_builder *L, ptoc_value *dst, ptoc_value *rows, int64_t row_lanes, ptoc_value *q,
                      bool hi, ptoc_value *both);
/* The same, the new byte from lane q of src's first row (a column broadcast). */
void a2_copy_half_lane(vop_builder *L, ptoc_value *dst, ptoc_value *rows, int64_t row_lanes, ptoc_value *q,
                       bool hi, ptoc_value *src);
/* tquant, tdequant (lower_a2a3_quant.c). */
bool a2_quant_lowers(ptoc_pto_op_id opcode);
void a2_quant_lower(vop_builder *L, ptoc_op *op);
/* tprefetch (lower_a2a3_prefetch.c). */
bool a2_prefetch_lowers(ptoc_pto_op_id opcode);
void a2_prefetch_lower(vop_builder *L, ptoc_op *op);
/* trowexpand (lower_a2a3_rowexpand_dup.c). */
bool a2_rowexpand_dup_lowers(ptoc_pto_op_id opcode);
void a2_rowexpand_dup_lower(vop_builder *L, ptoc_op *op);
/* set_flag then wait_flag from pipe src to dst, for the scalar reads inside a
 * program (lower_a2a3_rowexpand_dup.c). */
void a2_handshake(vop_builder *L, ptoc_pto_pipe src, ptoc_pto_pipe dst);
/* trowprod (lower_a2a3_rowprod.c). */
bool a2_rowprod_lowers(ptoc_pto_op_id opcode);
void a2_rowprod_lower(vop_builder *L, ptoc_op *op);
/* trowargmax trowargmin tcolargmax tcolargmin (lower_a2a3_argreduce.c). */
bool a2_argreduce_lowers(ptoc_pto_op_id opcode);
void a2_argreduce_lower(vop_builder *L, ptoc_op *op);
/* tconcat (lower_a2a3_layout.c). */
bool a2_layout_lowers(ptoc_pto_op_id opcode);
void a2_layout_lower(vop_builder *L, ptoc_op *op);
/* tgather's three forms (lower_a2a3_gather.c). */
bool a2_gather_lowers(ptoc_pto_op_id opcode);
void a2_gather_lower(vop_builder *L, ptoc_op *op);
/* tsort32, tmrgsort (lower_a2a3_sort.c). */
bool a2_sort_lowers(ptoc_pto_op_id opcode);
void a2_sort_lower(vop_builder *L, ptoc_op *op);
/* Ops run element by element on the scalar unit: lower_scalar_unit.h. */

/* The bitwise ops on 8-bit tiles, as u16 lanes (lower_a2a3_bytes.c);
 * a2_bytes_claims: the ops it takes before the other families. */
bool a2_bytes_claims(ptoc_op *op);
void a2_bytes_lower(vop_builder *L, ptoc_op *op);
/* tpartadd tpartmax tpartmin tpartmul (lower_a2a3_part.c). */
bool a2_part_lowers(ptoc_pto_op_id opcode);
void a2_part_lower(vop_builder *L, ptoc_op *op);

/* tmov vec -> vec (lower_a2a3_mov.c). */
bool a2_mov_lowers(ptoc_pto_op_id opcode);
void a2_mov_lower(vop_builder *L, ptoc_op *op);
/* textract, tinsert vec -> vec (lower_a2a3_window.c). */
bool a2_window_lowers(ptoc_pto_op_id opcode);
void a2_window_lower(vop_builder *L, ptoc_op *op);
#endif
