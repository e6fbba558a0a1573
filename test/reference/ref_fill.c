/* ref_fill.c: the reference of the fill, generate and quantisation ops, written
 * from pto-isa's cpu model (include/pto/cpu TExpands.hpp, TFillPad.hpp,
 * TCI.hpp, TTRI.hpp, TRandom.hpp, TQuant.hpp, TDeQuant.hpp), but for the
 * quantisation parameters' column, which is each row's first element as on
 * the NPUs (docs/decisions.md). trandom keeps the model's loop structure
 * (a chunk counter carried from row to row, one block per lane) rather than
 * the per-element formula the code generator uses, so the two check each other.
 */
#include "ref.h"

#include <math.h>

void ref_texpands(const ref_tile *dst, uint64_t bits)
{
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++)
            ref_set(dst, i, j, bits);
}

void ref_tfillpad(const ref_tile *dst, const ref_tile *src, uint64_t pad_bits)
{
    if (dst->vrows == 0 || dst->vcols == 0)
        return;
    for (int64_t i = 0; i < dst->rows; i++)
        for (int64_t j = 0; j < dst->cols; j++)
            ref_set(dst, i, j, i < src->vrows && j < src->vcols ? ref_get(src, i, j) : pad_bits);
}

void ref_tci(const ref_tile *dst, uint64_t start, bool descending)
{
    for (int64_t j = 0; j < dst->vcols; j++)
        /* ref_set keeps the dtype's low bits: the sequence wraps */
        ref_set(dst, 0, j, descending ? start - (uint64_t)j : start + (uint64_t)j);
}

void ref_ttri(const ref_tile *dst, int64_t diagonal, bool upper)
{
    uint64_t one = ref_dtype_is_float(dst->dtype) ? ref_bits_of(dst->dtype, 1.0f) : 1;
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++) {
            bool on = upper ? j >= i + diagonal : j <= i + diagonal;
            ref_set(dst, i, j, on ? one : 0);
        }
}

void ref_random_block(uint32_t ctr[4], const uint32_t key[2], int rounds)
{
    uint32_t k0 = key[0], k1 = key[1];
    for (int i = 0; i < rounds; i++) {
        uint64_t p0 = (uint64_t)ctr[0] * 0xD2511F53u, p1 = (uint64_t)ctr[2] * 0xCD9E8D57u;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ ctr[1] ^ k0, n2 = (uint32_t)(p0 >> 32) ^ ctr[3] ^ k1;
        ctr[1] = (uint32_t)p1;
        ctr[3] = (uint32_t)p0;
        ctr[0] = n0;
        ctr[2] = n2;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

/* The 128-bit counter c[0] (low) .. c[3] plus v. */
static void counter_add(uint32_t c[4], uint64_t v)
{
    for (int i = 0; i < 4 && v; i++) {
        v += c[i];
        c[i] = (uint32_t)v;
        v >>= 32;
    }
}

void ref_trandom(const ref_tile *dst, const uint32_t key[2], const uint32_t counter[4], int rounds)
{
    enum { LANES = 64, WORDS = 4 };
    int64_t chunks = (dst->vcols + WORDS * LANES - 1) / (WORDS * LANES);
    uint32_t row_ctr[4] = {counter[0], counter[1], counter[2], counter[3]};
    for (int64_t r = 0; r < dst->vrows; r++)
        for (int64_t k = 0; k < chunks; k++) {
            for (int lane = 0; lane < LANES; lane++) {
                uint32_t c[4] = {row_ctr[0], row_ctr[1], row_ctr[2], row_ctr[3]};
                counter_add(c, (uint64_t)lane);
                ref_random_block(c, key, rounds);
                for (int w = 0; w < WORDS; w++) {
                    int64_t col = k * WORDS * LANES + w * LANES + lane;
                    if (col < dst->vcols)
                        ref_set(dst, r, col, c[w]);
                }
            }
            counter_add(row_ctr, (uint64_t)(dst->cols / 4));
        }
}

/* Element [min(r, vrows - 1), 0] of a parameter tile (f32). */
static float param_at(const ref_tile *p, int64_t r)
{
    int64_t row = r < p->vrows - 1 ? r : p->vrows - 1;
    return ref_bits_float((uint32_t)ref_get(p, row < 0 ? 0 : row, 0));
}

void ref_tquant(const ref_tile *dst, const ref_tile *src, const ref_tile *fp, const ref_tile *offset)
{
    float lo = offset ? 0.0f : -128.0f, hi = offset ? 255.0f : 127.0f;
    for (int64_t i = 0; i < src->vrows; i++)
        for (int64_t j = 0; j < src->vcols; j++) {
            float v = ref_bits_float((uint32_t)ref_get(src, i, j)) * param_at(fp, i);
            if (offset)
                v = v + param_at(offset, i);
            v = nearbyintf(v);
            int64_t q = isnan(v) ? 0 : v < lo ? (int64_t)lo : v > hi ? (int64_t)hi : (int64_t)v;
            ref_set(dst, i, j, (uint64_t)q);
        }
}

void ref_tdequant(const ref_tile *dst, const ref_tile *src, const ref_tile *scale, const ref_tile *offset)
{
    bool i8 = ref_dtype_size(src->dtype) == 1;
    for (int64_t i = 0; i < dst->vrows; i++)
        for (int64_t j = 0; j < dst->vcols; j++) {
            uint64_t b = ref_get(src, i, j);
            float x = i8 ? (float)(int8_t)b : (float)(int16_t)b;
            ref_set(dst, i, j, ref_float_bits((x - param_at(offset, i)) * param_at(scale, i)));
        }
}
