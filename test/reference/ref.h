/* ref.h: a plain C reference implementation of the PTO tile ops that ptoc lowers
 * for the cpu target, used by the differential tests in test/e2e.
 *
 * It is written from the ISA notes (pto-isa's pages and kernels; docs/decisions.md#semantics) and knows
 * nothing of ptoc's IR or code generator: a tile is a byte pointer plus its
 * static facts, and every op is a scalar loop over the destination's valid
 * region. Semantics (binding, docs/decisions.md):
 *   - integers wrap (two's complement); signless iN is signed, uiN unsigned;
 *     x / 0 = all ones, INT_MIN / -1 = INT_MIN;
 *   - f16 and bf16 compute in float and round to nearest even on store;
 *   - max(a,b) = a > b ? a : b, min(a,b) = a < b ? a : b;
 *   - exp and log are ref_exp_f32 and ref_log_f32, fixed float sequences the
 *     cpu target repeats operation for operation (not libm).
 * Elements and scalars travel as `uint64_t` bit patterns in the dtype's own
 * encoding (zero-extended), so one signature serves every dtype.
 */
#ifndef PTOC_TEST_REF_H
#define PTOC_TEST_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum ref_dtype {
    REF_I8, REF_I16, REF_I32, REF_I64,
    REF_U8, REF_U16, REF_U32, REF_U64,
    REF_F16, REF_BF16, REF_F32,
    REF_DTYPE_COUNT
} ref_dtype;

/* The outer (blayout) and inner box (slayout) layouts. Boxes are 512 bytes:
 * 16 x (32/esize) elements for row-major boxes, (32/esize) x 16 for col-major
 * ones (pto-isa's Tile: Nz, Zn, Zz); the tile's shape is a multiple of the box. */
typedef enum ref_layout { REF_ROW_MAJOR, REF_COL_MAJOR } ref_layout;
typedef enum ref_box { REF_NONE_BOX, REF_BOX_ROW_MAJOR, REF_BOX_COL_MAJOR } ref_box;

typedef struct ref_tile {
    ref_dtype dtype;
    int64_t rows, cols;        /* physical shape */
    int64_t vrows, vcols;      /* valid region [0,vrows) x [0,vcols) */
    ref_layout layout;
    ref_box box;
    uint8_t *data;             /* first byte of the tile */
} ref_tile;

/* How a GM view's five dims map to tile rows and columns (pto-isa's
 * GlobalTensor layouts): ND rows over dims 0..3, columns dim 4; DN rows dim 3,
 * columns over dims 0,1,2,4; NZ rows over dims 2,3, columns over 0,1,4. */
typedef enum ref_gm_layout { REF_GM_ND, REF_GM_DN, REF_GM_NZ } ref_gm_layout;

/* A 5-D global-memory view: element (i0..i4) is at base + sum(i_k*stride_k)
 * elements. 2-D views are {1,1,1,R,C}. */
typedef struct ref_view {
    uint8_t *base;
    int64_t shape[5], stride[5];
    ref_gm_layout layout;
} ref_view;

/* ---------------------------------------------------------------- dtypes */

uint32_t ref_dtype_size(ref_dtype t);
bool ref_dtype_is_float(ref_dtype t);
bool ref_dtype_is_signed(ref_dtype t);       /* signed integers only */
const char *ref_dtype_name(ref_dtype t);     /* MLIR spelling: "i8", "ui16", "bf16" ... */

/* f16 / bf16 <-> float, round to nearest even; NaN stays NaN (quiet). */
float ref_f16_to_float(uint16_t h);
uint16_t ref_float_to_f16(float f);
float ref_bf16_to_float(uint16_t h);
uint16_t ref_float_to_bf16(float f);
uint32_t ref_float_bits(float f);
float ref_bits_float(uint32_t u);
/* A float dtype's bit pattern as the float it computes in (f32), and a float
 * back to the dtype's bits, rounded to nearest even. */
float ref_float_of(ref_dtype t, uint64_t bits);
/* The bits of dtype t (all ones in its width), and an integer element's bits
 * sign-extended from its width. */
uint64_t ref_mask_of(ref_dtype t);
int64_t ref_signed_of(ref_dtype t, uint64_t v);
uint64_t ref_bits_of(ref_dtype t, float f);

/* Element access by bit pattern (zero-extended to 64 bits). */
uint64_t ref_get(const ref_tile *t, int64_t r, int64_t c);
void ref_set(const ref_tile *t, int64_t r, int64_t c, uint64_t bits);
uint8_t *ref_elem_ptr(const ref_tile *t, int64_t r, int64_t c);

/* Formats an element of dtype `t` for messages ("1.5 (0x3fc00000)", "-3"). */
void ref_format(char *buf, size_t n, ref_dtype t, uint64_t bits);

/* ---------------------------------------------------------------- ops */

typedef enum ref_binop { REF_ADD, REF_SUB, REF_MUL, REF_DIV, REF_MAX, REF_MIN, REF_EXPDIF } ref_binop;
typedef enum ref_cmp { REF_EQ, REF_NE, REF_LT, REF_LE, REF_GT, REF_GE } ref_cmp;

/* One element of `a OP b` in dtype t (EXPDIF: exp(a - b), floats only). */
uint64_t ref_apply(ref_binop op, ref_dtype t, uint64_t a, uint64_t b);
bool ref_compare(ref_cmp mode, ref_dtype t, uint64_t a, uint64_t b);

/* TLOAD: copies view -> tile valid region (its shape is the view's under the
 * layout: ND (s0 s1 s2 s3) x s4, DN s3 x (s0 s1 s2 s4), NZ (s2 s3) x
 * (s0 s1 s4)) and, when `pad` is set, fills [vcols, min(cols, roundup(vcols,
 * 32/esize))) of each valid row with `pad_bits` (DN: the same down each valid
 * column; NZ never pads). TSTORE: tile valid region -> view. */
void ref_tload(const ref_tile *dst, const ref_view *src, bool pad, uint64_t pad_bits);
void ref_tstore(const ref_view *dst, const ref_tile *src);
/* The pad bit pattern of a tile's pad= kind (1 zero, 2 max, 3 min) for dtype t. */
uint64_t ref_pad_bits(ref_dtype t, int kind);

/* tadd tsub tmul tdiv tmax tmin: dst = src0 OP src1 over dst's valid region. */
void ref_binary(ref_binop op, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1);
/* tadds, tmuls, tdivs: dst = src OP scalar. */
void ref_binary_scalar(ref_binop op, const ref_tile *dst, const ref_tile *src, uint64_t scalar);
/* tdivs with the scalar first: dst = scalar OP src. */
void ref_scalar_binary(ref_binop op, const ref_tile *dst, uint64_t scalar, const ref_tile *src);

/* tcolexpand: dst[i,j] = src[0,j]. */
void ref_tcolexpand(const ref_tile *dst, const ref_tile *src);
/* tcolexpand{add..expdif}: dst[i,j] = src0[i,j] OP src1[0,j]; when src1, not
 * src0, has dst's physical shape the roles swap: dst[i,j] = src0[0,j] OP src1[i,j]. */
void ref_tcolexpand_binary(ref_binop op, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1);

/* ref_rowexpand.c. trowexpand: dst[i,j] = src[i,0]. trowexpand{add..expdif}:
 * dst[i,j] = src0[i,j] OP v(i,j) with v = src1 when src0's valid shape is
 * dst's, else dst[i,j] = v(i,j) OP src1[i,j] with v = src0; v(i,j) is v[i,0]
 * for a col_major v, v[i, j mod 32/esize] (a 32-byte block per row) for a
 * row_major one. */
void ref_trowexpand(const ref_tile *dst, const ref_tile *src);
void ref_trowexpand_binary(ref_binop op, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1);

/* ref_sort.c. Pairs are 8 bytes: an f32 value and its u32 index, or an f16
 * value, two zero bytes and the index. tsort32: each 32-element block of
 * each valid row of src (idx row 0 when idx has one valid row) sorted into
 * dst row i from pair 32*b: descending value, a NaN after every number, ties
 * by the smaller index, then by position; whole blocks only without tmp, the
 * tail block's valid pairs too with it; no more blocks than dst's row holds.
 * tmrgsort_blocks: groups of 4 lists of block_len elements of src row 0,
 * each whole group inside dst's valid columns merged into the same columns
 * (block_len 0 or not whole pairs: nothing). tmrgsort_lists: n lists (each
 * src's valid columns) merged into dst until it is full or every list is
 * used up (exhausted: until one is). A merge takes the first list's head
 * unless a later one is strictly greater. */
void ref_tsort32(const ref_tile *dst, const ref_tile *src, const ref_tile *idx, bool with_tmp);
void ref_tmrgsort_blocks(const ref_tile *dst, const ref_tile *src, uint64_t block_len);
void ref_tmrgsort_lists(const ref_tile *dst, const ref_tile *const *srcs, int n, bool exhausted);

/* tcmp / tcmps: packed bits per row, LSB first, into mask tile `dst` (any
 * integer dtype, row-major: row i starts at byte i*cols*esize). Only bytes
 * 0..ceil(vcols/8)-1 of rows < src.vrows are written; bits past vcols are 0. */
void ref_tcmp(ref_cmp mode, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1);
void ref_tcmps(ref_cmp mode, const ref_tile *dst, const ref_tile *src, uint64_t scalar);
/* The tile form of tcmps compares with src1[0,0]. */
void ref_tcmps_tile(ref_cmp mode, const ref_tile *dst, const ref_tile *src, const ref_tile *src1);
/* The same on A2/A3, whose hardware library (pto-isa include/pto/npu/a2a3
 * TCmp.hpp CmpCall, TCmps.hpp GenCmpCall) compares a 32-bit integer with
 * vcmpv(s)_eq whatever the mode (NE stays NE: the library inverts the eq bits
 * after) and a 16-bit integer tcmps as the fp16 values of the bit patterns. */
void ref_tcmp_a2a3(ref_cmp mode, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1);
void ref_tcmps_a2a3(ref_cmp mode, const ref_tile *dst, const ref_tile *src, uint64_t scalar);
void ref_tcmps_tile_a2a3(ref_cmp mode, const ref_tile *dst, const ref_tile *src, const ref_tile *src1);
/* Whether that compare can differ from the ISA's: a 32-bit integer with a
 * mode other than eq and ne, a 16-bit integer tcmps. */
bool ref_a2a3_cmp_quirk(ref_cmp mode, ref_dtype t, bool tcmps);

/* Mask bit (i,j): bit j%8 of byte j/8 of mask row i. */
bool ref_mask_bit(const ref_tile *mask, int64_t i, int64_t j);
/* tsel: dst = bit ? src0 : src1. tsels: dst = bit ? src : scalar. */
void ref_tsel(const ref_tile *dst, const ref_tile *mask, const ref_tile *src0, const ref_tile *src1);
void ref_tsels(const ref_tile *dst, const ref_tile *mask, const ref_tile *src, uint64_t scalar);

/* thistogram: for each row r < src.vrows, the inclusive cumulative counts of
 * the selected byte over the columns that pass the filter, into dst[r, 0..255]
 * (counts wrap modulo dst's width). u16: byte 1 unfiltered, byte 0 counts
 * elements whose high byte is idx[r,0]. u32: byte k counts elements whose
 * bytes 3..k+1 equal idx[0,0], idx[1,0], ... (per tile). */
void ref_thistogram(const ref_tile *dst, const ref_tile *src, const ref_tile *idx, int byte);

/* ---------------------------------------------------------------- cube (ref_cube.c) */

/* tmatmul: dst[i,j] = sum_k lhs[i,k] * rhs[k,j] over lhs.vrows x rhs.vcols,
 * k < lhs.vcols, summed in the accumulator's type (f32: fmaf in ascending k;
 * i32 from i8: wrapping); then acc_in[i,j] + sum (tmatmul.acc, acc_in not
 * NULL) or sum + bias[0,j] (tmatmul.bias, bias not NULL). */
void ref_tmatmul(const ref_tile *dst, const ref_tile *acc_in, const ref_tile *lhs, const ref_tile *rhs,
                 const ref_tile *bias);
/* The two f8 formats of the mx matmul (OCP): E4M3FN (bias 7, S.1111.111 is
 * NaN, no infinity) and E5M2 (bias 15, IEEE specials). Their tiles are u8. */
typedef enum ref_f8 { REF_F8_E4M3FN, REF_F8_E5M2 } ref_f8;
float ref_f8_value(ref_f8 kind, uint8_t bits);
/* tmatmul.mx: per k, sum = (float)(sum + a * b * (lscale[i,k/32] * rscale[k/32,j]))
 * in double, sum from 0 in ascending k (pto-isa's CPU TMatmulMX); then
 * acc_in[i,j] + sum or sum + bias[0,j] in float. A u8 scale tile holds e8m0
 * exponents (2^(e-127), 255 NaN), a float one its values. */
void ref_tmatmul_mx(const ref_tile *dst, const ref_tile *acc_in, const ref_tile *lhs, ref_f8 lk,
                    const ref_tile *lscale, const ref_tile *rhs, ref_f8 rk, const ref_tile *rscale,
                    const ref_tile *bias);
/* The FIX pipe's quantisation of one acc element (f32 or i32 bits) into `to`
 * by a 64-bit quant word (a pre-quant scalar, or vector: one of an fp tile's),
 * relu after it, as pto-isa's CPU quantize_element: f32/i32 to i8/ui8:
 * nearbyint(x * scale + offset) clamped to [-128, 127] (word bit 46 set) or
 * [0, 255]; f32 to f16 (finite values) and i32 to f16: x * scale clamped to
 * +-65504; f32 to bf16: x * scale; i32 to i16: x >> (shift + 1) saturated.
 * scale: the word's low 32 bits as f32, or (vector) bits 13..31 as a 19-bit
 * float; offset bits 37..45; shift bits 32..35. relu: v > 0 ? v : 0. */
uint64_t ref_fix_quant(ref_dtype from, ref_dtype to, uint64_t bits, uint64_t word, bool vector, bool relu);
/* tcvt: dst = src converted element by element over dst's valid region
 * (ref_convert.c). Rounding modes are pto-isa's RoundMode: R to nearest even,
 * A to nearest away from zero, F down, C up, Z toward zero, O to odd (into a
 * float: truncate and set the last bit when inexact; into an integer: to
 * nearest, ties to odd). sat: saturate into dst's range (a float's largest
 * finite value, an integer's bounds); without it a float overflows as IEEE
 * rounding does and a float to integer keeps the low bits of the value
 * saturated to 32 bits (64 for a 64-bit dst). NaN to an integer gives 0. */
typedef enum ref_round { REF_ROUND_R, REF_ROUND_A, REF_ROUND_F, REF_ROUND_C, REF_ROUND_Z, REF_ROUND_O } ref_round;
uint64_t ref_convert(uint64_t bits, ref_dtype src, ref_dtype dst, ref_round mode, bool sat);
/* The saturation tcvt has without a sat_mode: off for the narrowing pairs
 * f16 -> ui8/i8/i16, f32 -> i16, i64 -> i32, i32 -> i16, on for the rest. */
bool ref_tcvt_default_sat(ref_dtype src, ref_dtype dst);
void ref_tcvt(const ref_tile *dst, const ref_tile *src, ref_round mode, bool sat);
/* ---------------------------------------------------------------- unary ops and reductions (ref_reduce.c) */

/* tabs tneg tnot trelu tsqrt trsqrt trecip texp tlog: dst[i,j] = f(src[i,j]).
 * Floats compute in float (f16/bf16 round on store): abs clears and neg flips
 * the sign bit, relu is a > 0 ? a : +0, sqrt/rsqrt/recip are IEEE float
 * operations, exp/log are ref_exp_f32/ref_log_f32. Integers wrap (abs(MIN) =
 * MIN), recip is 1 / a with x/0 = all ones, unsigned abs and relu are a. */
typedef enum ref_unop { REF_ABS, REF_NEG, REF_NOT, REF_RELU, REF_SQRT, REF_RSQRT, REF_RECIP, REF_EXP, REF_LOG } ref_unop;
void ref_unary(ref_unop op, const ref_tile *dst, const ref_tile *src);
/* exp and log as fixed float sequences, the cpu target's (codegen/lower_pto_unary.c). */
float ref_exp_f32(float x);
float ref_log_f32(float x);
/* trowsum/max/min/prod (op REF_ADD, REF_MAX, REF_MIN, REF_MUL): dst[i,0] for
 * each valid row i, in the A5 library's order (codegen/lower_pto_reduce.c):
 * chunks of 256 bytes, each reduced by the halving tree (lanes past the valid
 * columns hold the identity) into acc = OP(acc, chunk); prod multiplies lane
 * by lane across the chunks first, then one tree. Each step rounds to t. */
void ref_trow_reduce(ref_binop op, const ref_tile *dst, const ref_tile *src);
/* tcolsum/max/min/prod: dst[0,j] = row 0, OP (row 2k+1 OP row 2k+2) per pair,
 * OP the last row when one is left over. */
void ref_tcol_reduce(ref_binop op, const ref_tile *dst, const ref_tile *src);
/* trowargmax/trowargmin: dst[i,0] = the first column of row i holding its
 * max (min); tcolargmax/tcolargmin: dst[0,j] = the first row of column j.
 * Only a strictly greater (less) element moves the index, so a NaN is taken
 * only at index 0. dst holds i32/ui32 indices. */
void ref_trow_argreduce(bool max, const ref_tile *dst, const ref_tile *src);
void ref_tcol_argreduce(bool max, const ref_tile *dst, const ref_tile *src);

/* ---------------------------------------------------------------- fill, generate, quantise (ref_fill.c) */

/* texpands: every element of dst's valid region is `bits` (already dst's dtype). */
void ref_texpands(const ref_tile *dst, uint64_t bits);
/* tfillpad, tfillpad_expand, tfillpad_inplace: over dst's whole physical
 * shape, src[i,j] inside src's valid region, else `pad_bits`; nothing when
 * dst's valid shape is empty. */
void ref_tfillpad(const ref_tile *dst, const ref_tile *src, uint64_t pad_bits);
/* tci: dst[0,j] = start + j (descending: start - j), wrapping, j < dst.vcols. */
void ref_tci(const ref_tile *dst, uint64_t start, bool descending);
/* ttri: 1 where j <= i + diagonal (lower) or j >= i + diagonal (upper), else 0. */
void ref_ttri(const ref_tile *dst, int64_t diagonal, bool upper);
/* trandom: pto-isa's counter-based generator (include/pto/cpu/TRandom.hpp),
 * row_major i32/ui32 dst, 7 or 10 rounds. */
void ref_trandom(const ref_tile *dst, const uint32_t key[2], const uint32_t counter[4], int rounds);
/* One trandom block: `rounds` rounds on counter words ctr[4] with key[2]. */
void ref_random_block(uint32_t ctr[4], const uint32_t key[2], int rounds);
/* tquant over src's valid region: sat(round_even(src * fp[r,0] (+ offset[r,0]))),
 * i8 for INT8_SYM (offset NULL), ui8 for INT8_ASYM; NaN gives 0. Parameter
 * rows past their tile's valid rows read its last valid row. */
void ref_tquant(const ref_tile *dst, const ref_tile *src, const ref_tile *fp, const ref_tile *offset);
/* tdequant over dst's valid region: (f32(src) - offset[r,0]) * scale[r,0]. */
void ref_tdequant(const ref_tile *dst, const ref_tile *src, const ref_tile *scale, const ref_tile *offset);
/* ---------------------------------------------------------------- remaining elementwise ops (ref_ewx.c) */

/* trem: fmod(a, b) (integers a % b), plus b when that is nonzero and a, b lie
 * on different sides of 0 (a >= 0 differs from b >= 0): the sign of b.
 * tfmod: fmod(a, b), a % b: the sign of a. Integer x % 0 = x, INT_MIN % -1 = 0.
 * and/or/xor on the bits (floats too); shl/shr with an amount (unsigned) of
 * the width or more give 0, or the sign for a signed shr. prelu: a > 0 ? a :
 * a * b (rounded). */
typedef enum ref_ewx_op { REF_X_REM, REF_X_FMOD, REF_X_AND, REF_X_OR, REF_X_XOR, REF_X_SHL, REF_X_SHR,
                          REF_X_PRELU } ref_ewx_op;
uint64_t ref_ewx_apply(ref_ewx_op op, ref_dtype t, uint64_t a, uint64_t b);
/* dst = src0 OP src1 (trem ... tprelu), dst = src OP scalar (trems ... tlrelu). */
void ref_ewx_binary(ref_ewx_op op, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1);
void ref_ewx_scalar(ref_ewx_op op, const ref_tile *dst, const ref_tile *src, uint64_t scalar);
/* taddc/tsubc (src1 a tile) and taddsc/tsubsc (src1 NULL: the scalar):
 * dst = (src0 +/- b) + src2, each step rounded to the dtype. */
void ref_ewx_ternary(bool sub, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1,
                     uint64_t scalar, const ref_tile *src2);
/* taxpy: dst = dst + round(src * scalar), the scalar in src's dtype (f16 src
 * into an f32 dst: widened), each step rounded to dst's dtype. */
void ref_taxpy(const ref_tile *dst, const ref_tile *src, uint64_t scalar);
/* tpartadd/mul/max/min (op REF_ADD, REF_MUL, REF_MAX, REF_MIN): over dst's
 * valid region, src0 OP src1 where both are valid, the valid one's element
 * where one is, 0 where neither is. */
void ref_tpart(ref_binop op, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1);

/* ---------------------------------------------------------------- gathers and scatters (ref_gather.c) */

/* Elements move as bits. Indices are read by their dtype's sign and must be
 * in range (the tests make them so; codegen traps otherwise).
 * tgather, index form: dst[i,j] = src's storage element k = idx[i,j], at
 * (k / src.cols, k % src.cols), over dst's valid region. */
void ref_tgather_index(const ref_tile *dst, const ref_tile *src, const ref_tile *idx);
/* tgather, mask form: the columns j < src.vcols with j % every == first of
 * each valid row of src, in row order, into dst's storage from element 0
 * (P0101: every 2 first 0, P1010: 2, 1, P0001..P1000: 4, 0..3, P1111: 1, 0). */
void ref_tgather_mask(const ref_tile *dst, const ref_tile *src, int every, int first);
/* tgather, compare form: for each valid row i of src, offset + i * src.cols
 * + j for the valid columns j with src[i,j] == k (gt: >), packed from
 * dst[i,0]; cdst's storage element i = how many (both 32-bit integers). */
void ref_tgather_compare(const ref_tile *dst, const ref_tile *cdst, const ref_tile *src, uint64_t k, bool gt,
                         int32_t offset);
/* tgatherb: dst[i,j] = the element at byte off[i, j / (32/esize)] + (j % (32/esize)) * esize of
 * src's storage, over dst's valid region (offsets unsigned 32-bit). */
void ref_tgatherb(const ref_tile *dst, const ref_tile *src, const ref_tile *off);
/* tscatter: dst's whole storage zeroed (as the NPU libraries do), then its
 * element idx[i,j] = src[i,j] over src's valid region, in row order (the
 * last write wins). */
void ref_tscatter(const ref_tile *dst, const ref_tile *src, const ref_tile *idx);

/* ---------------------------------------------------------------- layout (ref_layout.c) */

/* ttrans: dst[j,i] = src[i,j] over src's valid region. */
void ref_ttrans(const ref_tile *dst, const ref_tile *src);
/* tconcat: row i of dst = row i of src0's valid columns, then src1's, over dst's valid rows. */
void ref_tconcat(const ref_tile *dst, const ref_tile *src0, const ref_tile *src1);
/* tpack: dst[i,j] = the low bits of src[i,j] over dst's valid region. */
void ref_tpack(const ref_tile *dst, const ref_tile *src);
/* tmov between vec tiles: dst[i,j] = src[i,j] over dst's valid region, each
 * tile in its own layout. */
void ref_tmov(const ref_tile *dst, const ref_tile *src);
/* textract between vec tiles: dst[i,j] = src[row + i, col + j] over dst's valid region. */
void ref_textract(const ref_tile *dst, const ref_tile *src, int64_t row, int64_t col);
/* tinsert between vec tiles: dst[row + i, col + j] = src[i,j] over src's valid region. */
void ref_tinsert(const ref_tile *dst, const ref_tile *src, int64_t row, int64_t col);

#endif
