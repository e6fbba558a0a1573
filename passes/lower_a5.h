/* lower_a5.h: the families of tile ops pto-lower-a5 (lower_a5.c) hands to
 * files of their own, each as a test of the opcode and a lowering that
 * leaves the op in place when it cannot lower it. */
#ifndef PTOC_PASSES_LOWER_A5_H
#define PTOC_PASSES_LOWER_A5_H

#include "passes/vop_builder.h"


/* tcvt (lower_a5_convert.c). */
bool a5_convert_lowers(ptoc_pto_op_id opcode);
void a5_convert_lower(vop_builder *L, ptoc_op *op);
/* The row and column reductions (lower_a5_reduce.c). */
bool a5_reduce_lowers(ptoc_pto_op_id opcode);
void a5_reduce_lower(vop_builder *L, ptoc_op *op);
/* trowargmax/trowargmin of f32, f16, bf16 rows (lower_a5_argf.c), in a vecscope. */
void a5_row_argf_program(vop_builder *L, ptoc_op *op, ptoc_value *src, ptoc_value *dst, int64_t dst_stride);
/* The trowexpand family (lower_a5_rowexpand.c). */
bool a5_rowexpand_lowers(ptoc_pto_op_id opcode);
void a5_rowexpand_lower(vop_builder *L, ptoc_op *op);
/* texpands (lower_a5_fill.c). */
bool a5_fill_lowers(ptoc_pto_op_id opcode);
void a5_fill_lower(vop_builder *L, ptoc_op *op);
/* The unary ops (lower_a5_unary.c). */
bool a5_unary_lowers(ptoc_pto_op_id opcode);
void a5_unary_lower(vop_builder *L, ptoc_op *op);
/* The remaining elementwise ops (lower_a5_ewx.c). */
bool a5_ewx_lowers(ptoc_pto_op_id opcode);
void a5_ewx_lower(vop_builder *L, ptoc_op *op);

/* ttrans, tconcat, tpack (lower_a5_layout.c). */
bool a5_layout_lowers(ptoc_pto_op_id opcode);
void a5_layout_lower(vop_builder *L, ptoc_op *op);
/* tgather's index form (lower_a5_gather.c). */
bool a5_gather_lowers(ptoc_pto_op_id opcode);
void a5_gather_lower(vop_builder *L, ptoc_op *op);
/* tsort32, tmrgsort (lower_a5_sort.c). */
bool a5_sort_lowers(ptoc_pto_op_id opcode);
void a5_sort_lower(vop_builder *L, ptoc_op *op);
/* tquant, tdequant (lower_a5_quant.c), reached through the fill hooks. */
bool a5_quant_lowers(ptoc_pto_op_id opcode);
void a5_quant_lower(vop_builder *L, ptoc_op *op);
/* trandom (lower_a5_random.c), reached through the fill hooks. */
void a5_random_lower(vop_builder *L, ptoc_op *op);
/* tmov vec -> vec that the elementwise copy leaves, textract and tinsert
 * vec -> vec (lower_a5_mov.c). */
bool a5_mov_lowers(ptoc_pto_op_id opcode);
void a5_mov_lower(vop_builder *L, ptoc_op *op);

#endif
