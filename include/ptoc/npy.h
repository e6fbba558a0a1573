/* npy.h: arrays in files, for kernel launchers (ptoc --run) and tests.
 *
 * Two formats:
 *   FILE.npy                  NumPy's format (versions 1.0, 2.0 and 3.0), C order,
 *                             little-endian or byte-order-free dtypes: b1 i1 i2 i4
 *                             i8 u1 u2 u4 u8 f2 f4 f8.
 *   FILE:DTYPE:SHAPE          raw little-endian elements, e.g. `x.bin:f32:64x64`;
 *                             the file holds exactly the shape's element count.
 * DTYPE names: bool i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64.
 *
 * NumPy has no bfloat16: a bf16 array is written as '<u2' (its bit patterns)
 * and an '<u2' file reads as u16; launchers accept u16 data for bf16
 * parameters. Part of libptoc_rt; nothing here exits or aborts: every problem
 * is a malloc'd message naming the file.
 */
#ifndef PTOC_NPY_H
#define PTOC_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptoc_dtype {
    PTOC_DTYPE_BOOL, PTOC_DTYPE_I8, PTOC_DTYPE_I16, PTOC_DTYPE_I32, PTOC_DTYPE_I64,
    PTOC_DTYPE_U8, PTOC_DTYPE_U16, PTOC_DTYPE_U32, PTOC_DTYPE_U64,
    PTOC_DTYPE_F16, PTOC_DTYPE_BF16, PTOC_DTYPE_F32, PTOC_DTYPE_F64,
    PTOC_DTYPE_COUNT
} ptoc_dtype;

/* "f32"; and back (false for an unknown name). */
const char *ptoc_dtype_name(ptoc_dtype d);
bool ptoc_dtype_parse(const char *name, ptoc_dtype *out);
size_t ptoc_dtype_size(ptoc_dtype d);

#define PTOC_ARRAY_MAX_DIMS 8

typedef struct ptoc_array {
    ptoc_dtype dtype;
    uint32_t ndim;                         /* 0: a single element */
    int64_t shape[PTOC_ARRAY_MAX_DIMS];
    size_t count;                          /* elements (the shape's product) */
    void *data;                            /* count elements, 64-byte aligned; ptoc_array_free */
} ptoc_array;

/* Reads `spec`: FILE.npy, or FILE:DTYPE:SHAPE for raw data (a spec with two
 * colons after its last '/' is raw; anything else must be .npy). */
bool ptoc_array_read(const char *spec, ptoc_array *out, char **err);
bool ptoc_npy_read(const char *path, ptoc_array *out, char **err);
bool ptoc_raw_read(const char *path, ptoc_dtype dtype, uint32_t ndim, const int64_t *shape, ptoc_array *out,
                   char **err);
/* Writes a version 1.0 .npy file through a temporary file and a rename. */
bool ptoc_npy_write(const char *path, const ptoc_array *a, char **err);
/* "64x64" for the array's shape ("scalar" when ndim is 0), into buf. */
const char *ptoc_array_shape_string(const ptoc_array *a, char *buf, size_t size);
void ptoc_array_free(ptoc_array *a);

#ifdef __cplusplus
}
#endif
#endif
