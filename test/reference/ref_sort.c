/* ref_sort.c: the C reference of tsort32 and tmrgsort.
 *
 * A pair is 8 bytes: an f32 value and its u32 index, or an f16 value, two
 * zero bytes and the u32 index (pto-isa's sorted-list format). tsort32 sorts
 * each 32-element block of a row by descending value (a NaN after every
 * number), ties by the smaller index, then by position; the merges follow
 * pto-isa's CPU model (include/pto/cpu/TMrgSort.hpp): the first list with a
 * head gives the candidate, a later head replaces it only when strictly
 * greater.
 */
#include "ref.h"

#include <math.h>
#include <string.h>

typedef struct ref_pair {
    float value;
    uint64_t bits; /* the value's bits in the tile's dtype */
    uint32_t index;
    int64_t pos;
} ref_pair;

static int64_t pair_elems(ref_dtype t)
{
    return 8 / (int64_t)ref_dtype_size(t);
}

static bool precedes(const ref_pair *a, const ref_pair *b)
{
    bool an = isnan(a->value), bn = isnan(b->value);
    if (an != bn)
        return bn; /* numbers before NaNs */
    if (!an && a->value != b->value)
        return a->value > b->value;
    if (a->index != b->index)
        return a->index < b->index;
    return a->pos < b->pos;
}

static void write_pair(const ref_tile *dst, int64_t row, int64_t slot, const ref_pair *p)
{
    uint8_t *q = ref_elem_ptr(dst, row, slot * pair_elems(dst->dtype));
    uint32_t es = ref_dtype_size(dst->dtype);
    memset(q, 0, 4);
    memcpy(q, &p->bits, es); /* little-endian: the low bytes */
    memcpy(q + 4, &p->index, 4);
}

void ref_tsort32(const ref_tile *dst, const ref_tile *src, const ref_tile *idx, bool with_tmp)
{
    int64_t vcols = src->vcols;
    int64_t nblocks = with_tmp ? (vcols + 31) / 32 : vcols / 32;
    int64_t fit = dst->cols * (int64_t)ref_dtype_size(dst->dtype) / 256;
    if (nblocks > fit)
        nblocks = fit;
    for (int64_t i = 0; i < dst->vrows; i++) {
        int64_t irow = idx->vrows == 1 ? 0 : i;
        for (int64_t b = 0; b < nblocks; b++) {
            ref_pair block[32];
            int64_t n = vcols - 32 * b < 32 ? vcols - 32 * b : 32;
            for (int64_t k = 0; k < n; k++) {
                uint64_t bits = ref_get(src, i, 32 * b + k);
                block[k] = (ref_pair){ref_float_of(src->dtype, bits), bits,
                                      (uint32_t)ref_get(idx, irow, 32 * b + k), k};
            }
            for (int64_t k = 0; k < n; k++) {
                int64_t rank = 0;
                for (int64_t j = 0; j < n; j++)
                    rank += precedes(&block[j], &block[k]);
                write_pair(dst, i, 32 * b + rank, &block[k]);
            }
        }
    }
}

/* A list of pairs [base, base + len) of row 0 of `tile`. */
typedef struct ref_list {
    const ref_tile *tile;
    int64_t base, len, at;
} ref_list;

static float head_value(const ref_list *l)
{
    return ref_float_of(l->tile->dtype, ref_get(l->tile, 0, (l->base + l->at) * pair_elems(l->tile->dtype)));
}

static void merge(ref_list *l, int n, const ref_tile *dst, int64_t out_base, int64_t out_len,
                  bool stop_on_empty)
{
    for (int64_t out = 0; out < out_len; out++) {
        int pick = -1;
        float best = 0.0f;
        for (int k = 0; k < n; k++)
            if (l[k].at < l[k].len && (pick < 0 || head_value(&l[k]) > best)) {
                pick = k;
                best = head_value(&l[k]);
            }
        if (pick < 0)
            return;
        int64_t pe = pair_elems(dst->dtype);
        memcpy(ref_elem_ptr(dst, 0, (out_base + out) * pe),
               ref_elem_ptr(l[pick].tile, 0, (l[pick].base + l[pick].at) * pe), 8);
        l[pick].at++;
        bool emptied = false;
        for (int k = 0; k < n; k++)
            emptied |= l[k].at == l[k].len;
        if (stop_on_empty && emptied)
            return;
    }
}

void ref_tmrgsort_blocks(const ref_tile *dst, const ref_tile *src, uint64_t block_len)
{
    int64_t pe = pair_elems(dst->dtype);
    if (block_len == 0 || block_len % (uint64_t)pe != 0)
        return;
    int64_t len = (int64_t)block_len, pairs = len / pe;
    for (int64_t base = 0; base + 4 * len <= dst->vcols; base += 4 * len) {
        ref_list l[4];
        for (int k = 0; k < 4; k++)
            l[k] = (ref_list){src, base / pe + k * pairs, pairs, 0};
        merge(l, 4, dst, base / pe, 4 * pairs, false);
    }
}

void ref_tmrgsort_lists(const ref_tile *dst, const ref_tile *const *srcs, int n, bool exhausted)
{
    int64_t pe = pair_elems(dst->dtype);
    ref_list l[4];
    for (int k = 0; k < n; k++)
        l[k] = (ref_list){srcs[k], 0, srcs[k]->vcols / pe, 0};
    merge(l, n, dst, 0, dst->vcols / pe, exhausted);
}
