/* vop_builder.h: building micro-op programs, for the passes that write them
 * (pto-lower-a5, pto-lower-a2a3, pto-split-u64).
 *
 * A vop_builder is a ptoc_builder with the index type at hand and a small
 * cache of index constants, so a program asks for each constant once, at its
 * top, and its loops reuse it. vb_vop creates a micro-op from its id
 * (dialect/pto_vops.def) with at most two string attributes; vb_loop_begin /
 * vb_loop_end bracket an scf.for whose body the builder is in between.
 */
#ifndef PTOC_PASSES_VOP_BUILDER_H
#define PTOC_PASSES_VOP_BUILDER_H

#include "ptoc/ir.h"
#include "ptoc/pto.h"

enum { VB_MAX_CONSTS = 8 };

typedef struct vop_builder {
    ptoc_builder b;
    ptoc_context *ctx;
    ptoc_type *index;
    /* the index constants of the program being built, each made once */
    int64_t const_value[VB_MAX_CONSTS];
    ptoc_value *const_of[VB_MAX_CONSTS];
    uint32_t nconsts;
} vop_builder;

void vb_init(vop_builder *L, ptoc_context *ctx, ptoc_arena *arena);
ptoc_value *vb_result0(ptoc_op *op);
/* The index constant v (the first request makes it, where the builder is). */
ptoc_value *vb_index(vop_builder *L, int64_t v);
/* The integer constant v of type t (not cached). */
ptoc_value *vb_int(vop_builder *L, ptoc_type *t, int64_t v);
/* The float constant v of float type t (not cached; v must be exact in t). */
ptoc_value *vb_float(vop_builder *L, ptoc_type *t, double v);
/* A binary arith op ("arith.addi") on x and y, of x's type. */
ptoc_value *vb_arith(vop_builder *L, const char *name, ptoc_value *x, ptoc_value *y);
/* arith.select c, a, b (of a's type). */
ptoc_value *vb_select(vop_builder *L, ptoc_value *c, ptoc_value *a, ptoc_value *b);
/* x, or the quiet NaN 0x7fc00000 (as x's float type) when x is a NaN. */
ptoc_value *vb_quiet_nan(vop_builder *L, ptoc_value *x);
/* A cast ("arith.trunci") of x to `to`. */
ptoc_value *vb_cast(vop_builder *L, const char *name, ptoc_value *x, ptoc_type *to);
/* A micro-op with at most two string attributes (key, value pairs; NULL key: none). */
ptoc_op *vb_vop(vop_builder *L, ptoc_pto_vop_id id, uint32_t n, ptoc_value *const *operands, uint32_t nres,
                ptoc_type *const *types, const char *k0, const char *v0, const char *k1, const char *v1);
/* scf.for %iv = lb to ub step s { ... }: vb_loop_begin leaves the builder in
 * the body and returns %iv; vb_loop_end closes it with scf.yield and puts the
 * builder after the loop. */
typedef struct vb_loop { ptoc_builder after; } vb_loop;
ptoc_value *vb_loop_begin(vop_builder *L, vb_loop *l, ptoc_value *lb, ptoc_value *ub, ptoc_value *step);
void vb_loop_end(vop_builder *L, vb_loop *l);

/* The same loop carrying one value (iter_args(%state = init)):
 * vb_carry_begin returns %iv and sets *state to the body's carried value;
 * vb_carry_end yields `next` and returns the loop's result. */
typedef struct vb_carried { ptoc_op *op; ptoc_builder after; } vb_carried;
ptoc_value *vb_carry_begin(vop_builder *L, vb_carried *l, ptoc_value *lb, ptoc_value *ub, ptoc_value *step,
                           ptoc_value *init, ptoc_value **state);
ptoc_value *vb_carry_end(vop_builder *L, vb_carried *l, ptoc_value *next);

/* One A5 register of a tile's elements: its vreg and mask types, the
 * predicate's granularity (the lane width; 32 for 64-bit lanes, a lo/hi
 * pair) and the elements a register holds (256 bytes; 64 of a 64-bit type). */
typedef struct vb_lanes {
    ptoc_type *elem, *vreg, *mask;
    unsigned bits;
    int64_t count;
} vb_lanes;
vb_lanes vb_lanes_of(vop_builder *L, ptoc_type *elem);
/* plt_bN: the predicate of the first n lanes. */
ptoc_value *vb_first(vop_builder *L, const vb_lanes *ln, ptoc_value *n);
/* The plt_bN micro-op of a predicate granularity (8, 16 or 32 bits). */
ptoc_pto_vop_id vb_plt(unsigned bits);
/* A micro-op with one result of type t (and at most one string attribute). */
ptoc_value *vb_vop1(vop_builder *L, ptoc_pto_vop_id id, uint32_t n, ptoc_value *const *ops, ptoc_type *t,
                    const char *k, const char *v);

/* scf.if without results: vb_if_begin leaves the builder in the then block,
 * vb_if_else in the else block, vb_if_end after the op. The index constants
 * made in a branch are forgotten when it ends: they do not dominate what
 * follows it. */
typedef struct vb_if {
    ptoc_op *op;
    ptoc_builder after;
    uint32_t nconsts;
} vb_if;
void vb_if_begin(vop_builder *L, vb_if *f, ptoc_value *cond);
void vb_if_else(vop_builder *L, vb_if *f);
void vb_if_end(vop_builder *L, vb_if *f);
/* arith.cmpi with an MLIR predicate number. */
enum { VB_CMP_EQ = 0, VB_CMP_NE = 1, VB_CMP_UGT = 8 };
ptoc_value *vb_cmpi(vop_builder *L, int64_t predicate, ptoc_value *x, ptoc_value *y);
/* Whether tiles a and b have the same valid shape, read at run time (an i1). */
ptoc_value *vb_same_valid(vop_builder *L, ptoc_value *a, ptoc_value *b);

/* The number of ins of a DPS op without results whose one out is its last
 * operand (the tile ops the lowerings take), or -1 for any other op. */
int vb_dps_ins(const ptoc_op *op);

/* A tile operand's description: a tile_buf's, or for an on-chip vec memref
 * of static 2-D shape (PTOAS kernels pass buffers so) the row_major none_box
 * tile of that shape, valid as a whole; NULL for anything else. */
const ptoc_pto_tile_desc *vb_tile_desc(const ptoc_type *t);
/* The tile's address as a pointer to `elem` (its element type, or ui8 for
 * its bytes): pto.tile_ptr. */
ptoc_value *vb_tile_ptr(vop_builder *L, ptoc_value *tile, ptoc_type *elem);
/* The tile's valid rows and columns (results 0 and 1): pto.tile_valid. */
ptoc_op *vb_tile_valid(vop_builder *L, ptoc_value *tile);
/* Whether vb_scalar_as can give a scalar of type `t` the element type: both
 * integers or both floats. */
bool vb_scalar_fits(const ptoc_type *t, const ptoc_type *elem);
/* The scalar as the element type (an unsigned tile's scalar is its signless
 * integer), converted as the hardware receives it: floats rounded to the
 * element's width, integers wrapped or extended by sign. NULL when the
 * conversion is between integers and floats. */
ptoc_value *vb_scalar_as(vop_builder *L, ptoc_value *s, ptoc_type *elem);
/* A pto.vecscope in place of `op` over `n` tiles, the last `nouts` of them
 * its outs, `from` naming op; the builder left in its body, the constant
 * cache empty. */
void vb_open_vecscope(vop_builder *L, ptoc_op *op, ptoc_value *const *tiles, uint32_t n, uint32_t nouts);
/* A lowering pass's run: every op of `func` whose opcode `lowers` names,
 * collected first (lowering erases them), handed to lower_one with a
 * builder on `arena`; lower_one leaves an op it cannot lower in place. */
void vb_lower_each(ptoc_op *func, ptoc_arena *arena, bool (*lowers)(ptoc_pto_op_id),
                   void (*lower_one)(vop_builder *L, ptoc_op *op));

#endif
