/* lower_a5_ew.h: the elementwise register loop that pto-lower-a5's unary
 * (lower_a5_unary.c, which defines it) and remaining elementwise ops
 * (lower_a5_ewx.c) share; their entry points are in lower_a5.h.
 *
 * a5_map builds, in a vecscope, the library's elementwise loop (pto-isa
 * include/pto/npu/a5 TUnaryOp.hpp, TBinOp.hpp): one register of each tile in
 * at the same element offset, a callback's register of dst from them, a NORM
 * store under the tail predicate. When every tile's rows are contiguous one
 * loop runs over the valid elements as a flat array (the 1D forms), else a
 * loop over dst's valid rows holds one over the row's registers (2D).
 */
#ifndef PTOC_PASSES_LOWER_A5_EW_H
#define PTOC_PASSES_LOWER_A5_EW_H

#include "passes/lower_a5.h"
#include "passes/vop_builder.h"

/* A micro-op of the register type: `n` operands, one register result. */
ptoc_value *a5_vop(vop_builder *L, const vb_lanes *ln, ptoc_pto_vop_id id, uint32_t n,
                   ptoc_value *const *ops);
/* The scalar v of the element type (an integer tile's is signless), for vbr and the vOPs forms. */
ptoc_value *a5_elem_const(vop_builder *L, const vb_lanes *ln, double v);

/* Where the loop is: dst's row (NULL in the flat loop), the register's first
 * column (the element offset in the flat loop), the tail predicate. */
typedef struct a5_pos { ptoc_value *row, *col, *mask; } a5_pos;
/* dst's register from the loaded registers `in` (one per tile in). */
typedef ptoc_value *(*a5_reg_fn)(vop_builder *L, const vb_lanes *ln, ptoc_value *const *in, const a5_pos *at,
                                 const void *ctx);
typedef struct a5_map_spec {
    ptoc_value *const *ins;
    uint32_t nin;
    ptoc_value *dst;
    ptoc_type *elem;            /* the registers' element type: NULL for dst's (bitwise ops: an integer) */
    bool by_rows;               /* the row loop even when the rows are contiguous */
    bool f16_in_f32;            /* f16 tiles computed in f32 lanes: UNPK_B16 loads widened by vcvt,
                                 * results rounded to f16 once (vcvt R) and stored PK_B32 */
    uint32_t widen_ins;         /* bit i: in i is an f16 tile read into f32 lanes (UNPK_B16, vcvt) */
    a5_reg_fn f;
    const void *ctx;
} a5_map_spec;
/* The loop over dst's valid region; the builder in the vecscope body. */
void a5_map(vop_builder *L, const a5_map_spec *m);
/* Whether a5_map takes the tile: a vec tile, row_major none_box, of element type elem. */
bool a5_plain_tile(const ptoc_value *tile, const ptoc_type *elem);
/* A pto.vecscope in place of `op` over all its tile operands. */
void a5_open_vecscope(vop_builder *L, ptoc_op *op);

#endif
