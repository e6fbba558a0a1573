/* ref_layout.c: the C reference of the layout ops (ttrans, tconcat, tpack, tmov,
 * textract, tinsert):
 * plain loops moving elements as bit patterns; like ref.c it knows nothing of
 * ptoc. */
#include "ref.h"

#include <string.h>

void ref_ttrans(const ref_tile *dst, const ref_tile *src)
{
    for (int64_t r = 0; r < src->vrows; r++)
        for (int64_t c = 0; c < src->vcols; c++)
            ref_set(dst, c, r, ref_get(src, r, c));
}

void ref_tconcat(const ref_tile *dst, const ref_tile *src0, const ref_tile *src1)
{
    for (int64_t r = 0; r < dst->vrows; r++) {
        for (int64_t c = 0; c < src0->vcols; c++)
            ref_set(dst, r, c, ref_get(src0, r, c));
        for (int64_t c = 0; c < src1->vcols; c++)
            ref_set(dst, r, src0->vcols + c, ref_get(src1, r, c));
    }
}

void ref_tpack(const ref_tile *dst, const ref_tile *src)
{
    uint32_t bits = 8 * ref_dtype_size(dst->dtype);
    uint64_t mask = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    for (int64_t r = 0; r < dst->vrows; r++)
        for (int64_t c = 0; c < dst->vcols; c++)
            ref_set(dst, r, c, ref_get(src, r, c) & mask);
}

void ref_tmov(const ref_tile *dst, const ref_tile *src)
{
    for (int64_t r = 0; r < dst->vrows; r++)
        for (int64_t c = 0; c < dst->vcols; c++)
            ref_set(dst, r, c, ref_get(src, r, c));
}

void ref_textract(const ref_tile *dst, const ref_tile *src, int64_t row, int64_t col)
{
    for (int64_t r = 0; r < dst->vrows; r++)
        for (int64_t c = 0; c < dst->vcols; c++)
            ref_set(dst, r, c, ref_get(src, row + r, col + c));
}

void ref_tinsert(const ref_tile *dst, const ref_tile *src, int64_t row, int64_t col)
{
    for (int64_t r = 0; r < src->vrows; r++)
        for (int64_t c = 0; c < src->vcols; c++)
            ref_set(dst, row + r, col + c, ref_get(src, r, c));
}
