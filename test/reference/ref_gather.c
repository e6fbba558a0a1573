/* ref_gather.c: the C reference of the gathers and scatters through an index
 * tile (tgather's three forms, tgatherb, tscatter). Plain loops moving
 * elements as bit patterns; like ref.c it knows nothing of ptoc. */
#include "ref.h"

#include <string.h>

/* The index at (r, c), sign-extended for a signed dtype. */
static int64_t index_at(const ref_tile *idx, int64_t r, int64_t c)
{
    uint64_t v = ref_get(idx, r, c);
    uint32_t bits = 8 * ref_dtype_size(idx->dtype);
    if (ref_dtype_is_signed(idx->dtype) && bits < 64 && (v >> (bits - 1)) & 1)
        v |= ~(uint64_t)0 << bits;
    return (int64_t)v;
}

/* Element k of the tile's storage, in storage order. */
static uint8_t *storage(const ref_tile *t, int64_t k)
{
    return t->data + k * ref_dtype_size(t->dtype);
}

void ref_tgather_index(const ref_tile *dst, const ref_tile *src, const ref_tile *idx)
{
    for (int64_t r = 0; r < dst->vrows; r++)
        for (int64_t c = 0; c < dst->vcols; c++) {
            int64_t k = index_at(idx, r, c);
            if (k < 0 || k >= src->rows * src->cols)
                continue;
            memcpy(ref_elem_ptr(dst, r, c), ref_elem_ptr(src, k / src->cols, k % src->cols),
                   ref_dtype_size(dst->dtype));
        }
}

void ref_tgather_mask(const ref_tile *dst, const ref_tile *src, int every, int first)
{
    int64_t k = 0;
    for (int64_t r = 0; r < src->vrows; r++)
        for (int64_t c = first; c < src->vcols; c += every)
            memcpy(storage(dst, k++), ref_elem_ptr(src, r, c), ref_dtype_size(dst->dtype));
}

void ref_tgather_compare(const ref_tile *dst, const ref_tile *cdst, const ref_tile *src, uint64_t k, bool gt,
                         int32_t offset)
{
    for (int64_t r = 0; r < src->vrows; r++) {
        uint32_t n = 0;
        for (int64_t c = 0; c < src->vcols; c++) {
            if (!ref_compare(gt ? REF_GT : REF_EQ, src->dtype, ref_get(src, r, c), k))
                continue;
            uint32_t number = (uint32_t)offset + (uint32_t)(r * src->cols + c);
            ref_set(dst, r, n++, number);
        }
        memcpy(storage(cdst, r), &n, sizeof n);
    }
}

void ref_tgatherb(const ref_tile *dst, const ref_tile *src, const ref_tile *off)
{
    uint32_t es = ref_dtype_size(dst->dtype), per_block = 32 / es;
    for (int64_t r = 0; r < dst->vrows; r++)
        for (int64_t c = 0; c < dst->vcols; c++) {
            uint32_t o = (uint32_t)ref_get(off, r, c / per_block);
            memcpy(ref_elem_ptr(dst, r, c), src->data + o + (c % per_block) * es, es);
        }
}

void ref_tscatter(const ref_tile *dst, const ref_tile *src, const ref_tile *idx)
{
    /* the whole of dst is zeroed first, as the NPU libraries' TScatter does */
    memset(dst->data, 0, (size_t)(dst->rows * dst->cols) * ref_dtype_size(dst->dtype));
    for (int64_t r = 0; r < src->vrows; r++)
        for (int64_t c = 0; c < src->vcols; c++) {
            int64_t k = index_at(idx, r, c);
            if (k >= 0 && k < dst->rows * dst->cols)
                memcpy(storage(dst, k), ref_elem_ptr(src, r, c), ref_dtype_size(dst->dtype));
        }
}
