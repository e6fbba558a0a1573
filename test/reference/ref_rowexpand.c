/* ref_rowexpand.c: the C reference of the trowexpand family.
 *
 * Plain loops over dst's valid region. The row vector (the operand whose
 * valid shape is not dst's; src1 when src0's is) gives row i one value when
 * it is col_major (v[i,0]) and a 32-byte block repeated along the row when it
 * is row_major (v[i, j mod 32/esize]), as pto-isa's A5 kernels load it
 * (TRowExpandBinOp.hpp: BRC and BLK loads); the arithmetic is ref_apply's.
 */
#include "ref.h"

void ref_trowexpand(const ref_tile *dst, const ref_tile *src)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++)
            ref_set(dst, i, j, ref_get(src, i, 0));
}

/* Column j of row i of the row vector v. */
static uint64_t vector_elem(const ref_tile *v, int64_t i, int64_t j)
{
    int64_t block = 32 / (int64_t)ref_dtype_size(v->dtype);
    return ref_get(v, i, v->layout == REF_ROW_MAJOR ? j % block : 0);
}

void ref_trowexpand_binary(ref_binop op, const ref_tile *dst, const ref_tile *src0, const ref_tile *src1)
{
    bool src1_vec = src0->vrows == dst->vrows && src0->vcols == dst->vcols;
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++) {
            uint64_t a = src1_vec ? ref_get(src0, i, j) : vector_elem(src0, i, j);
            uint64_t b = src1_vec ? vector_elem(src1, i, j) : ref_get(src1, i, j);
            ref_set(dst, i, j, ref_apply(op, dst->dtype, a, b));
        }
}
