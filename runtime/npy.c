/* npy.c: reading and writing arrays as .npy files and raw FILE:DTYPE:SHAPE data.
 *
 * A .npy file is a magic string, a version, a header that is a Python dict
 * literal ({'descr': '<f4', 'fortran_order': False, 'shape': (64, 64), }) and
 * the elements. Only the three keys matter, so the header is scanned for them
 * rather than parsed as Python. Hosts are little-endian (x86-64, AArch64), so
 * element bytes are copied as they are: '<' and '|' dtypes are accepted, '>'
 * only for one-byte types. See npy.h for the bf16 convention.
 */
#include "ptoc/npy.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- dtypes */

/* One row per dtype: our name, size, the .npy descr we write and the code
 * (without byte order) we read. */
static const struct dtype_row {
    const char *name;
    size_t size;
    const char *descr;
    const char *code;
} dtypes[PTOC_DTYPE_COUNT] = {
    [PTOC_DTYPE_BOOL] = {"bool", 1, "|b1", "b1"}, [PTOC_DTYPE_I8] = {"i8", 1, "|i1", "i1"},
    [PTOC_DTYPE_I16] = {"i16", 2, "<i2", "i2"},   [PTOC_DTYPE_I32] = {"i32", 4, "<i4", "i4"},
    [PTOC_DTYPE_I64] = {"i64", 8, "<i8", "i8"},   [PTOC_DTYPE_U8] = {"u8", 1, "|u1", "u1"},
    [PTOC_DTYPE_U16] = {"u16", 2, "<u2", "u2"},   [PTOC_DTYPE_U32] = {"u32", 4, "<u4", "u4"},
    [PTOC_DTYPE_U64] = {"u64", 8, "<u8", "u8"},   [PTOC_DTYPE_F16] = {"f16", 2, "<f2", "f2"},
    [PTOC_DTYPE_BF16] = {"bf16", 2, "<u2", NULL}, /* read back as u16: NumPy has no bf16 */
    [PTOC_DTYPE_F32] = {"f32", 4, "<f4", "f4"},   [PTOC_DTYPE_F64] = {"f64", 8, "<f8", "f8"},
};

const char *ptoc_dtype_name(ptoc_dtype d)
{
    return (unsigned)d < PTOC_DTYPE_COUNT ? dtypes[d].name : "?";
}

size_t ptoc_dtype_size(ptoc_dtype d)
{
    return (unsigned)d < PTOC_DTYPE_COUNT ? dtypes[d].size : 0;
}

bool ptoc_dtype_parse(const char *name, ptoc_dtype *out)
{
    for (int d = 0; d < PTOC_DTYPE_COUNT; d++)
        if (strcmp(dtypes[d].name, name) == 0) {
            *out = (ptoc_dtype)d;
            return true;
        }
    return false;
}

/* ---------------------------------------------------------------- errors and memory */

/* Sets *err to "'path': message" (malloc'd) and returns false. */
static bool fail(char **err, const char *path, const char *fmt, ...)
{
    if (!err)
        return false;
    char text[1024];
    int n = snprintf(text, sizeof text, "'%s': ", path);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof text)
        vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
    va_end(ap);
    *err = malloc(strlen(text) + 1);
    if (*err)
        strcpy(*err, text);
    return false;
}

/* Element storage: 64-byte aligned (kernels vectorise over it), never NULL for
 * a zero-size array. */
static void *alloc_elements(size_t bytes)
{
    size_t rounded = bytes == 0 ? 64 : (bytes + 63) / 64 * 64;
    return rounded < bytes ? NULL : aligned_alloc(64, rounded);
}

void ptoc_array_free(ptoc_array *a)
{
    free(a->data);
    a->data = NULL;
}

/* Sets out->count from the shape; false on overflow of the byte size. */
static bool set_count(ptoc_array *out)
{
    size_t count = 1;
    for (uint32_t i = 0; i < out->ndim; i++) {
        if (out->shape[i] < 0)
            return false;
        uint64_t dim = (uint64_t)out->shape[i];
        if (dim != 0 && count > SIZE_MAX / 16 / dim)
            return false;
        count *= (size_t)dim;
    }
    out->count = count;
    return true;
}

const char *ptoc_array_shape_string(const ptoc_array *a, char *buf, size_t size)
{
    if (a->ndim == 0) {
        snprintf(buf, size, "scalar");
        return buf;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < a->ndim && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, "%s%" PRId64, i ? "x" : "", a->shape[i]);
    return buf;
}

/* ---------------------------------------------------------------- files */

/* The whole file in a malloc'd buffer, or NULL after an error. The buffer
 * doubles from 64 KiB by its own rule, not ptoc/varr.h's: an array file may be
 * larger than the 4 GiB an array's 32-bit capacity allows. */
static unsigned char *read_file(const char *path, size_t *len, char **err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, path, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *bigger = cap * 2 > cap ? realloc(buf, cap * 2) : NULL;
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    bool bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        fail(err, path, buf ? "read error" : "out of memory");
        return NULL;
    }
    *len = n;
    return buf;
}

/* Writes through a fresh temporary file next to `path` (C11 "x" mode) and a
 * rename, so a failure leaves no partial file. */
static bool write_file(const char *path, const void *head, size_t head_len, const void *body, size_t body_len,
                       char **err)
{
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    FILE *f = NULL;
    for (unsigned attempt = 0; tmp && !f && attempt < 100; attempt++) {
        snprintf(tmp, n, "%s.tmp%u", path, attempt);
        f = fopen(tmp, "wbx");
    }
    if (!f) {
        free(tmp);
        return fail(err, path, "cannot create a temporary file next to it");
    }
    bool ok = fwrite(head, 1, head_len, f) == head_len && fwrite(body, 1, body_len, f) == body_len;
    ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok)
        remove(tmp);
    free(tmp);
    return ok ? true : fail(err, path, "cannot write: %s", strerror(errno));
}

/* ---------------------------------------------------------------- .npy header */

/* The text after `'key':` in the header (spaces skipped), or NULL. */
static const char *header_value(const char *header, const char *key)
{
    char quoted[32];
    snprintf(quoted, sizeof quoted, "'%s'", key);
    const char *p = strstr(header, quoted);
    if (!p) {
        snprintf(quoted, sizeof quoted, "\"%s\"", key);
        p = strstr(header, quoted);
    }
    if (!p)
        return NULL;
    p += strlen(quoted);
    while (isspace((unsigned char)*p))
        p++;
    if (*p++ != ':')
        return NULL;
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

static bool parse_descr(const char *path, const char *header, ptoc_dtype *out, char **err)
{
    const char *v = header_value(header, "descr");
    if (!v || (*v != '\'' && *v != '"'))
        return fail(err, path, "the .npy header has no 'descr' string (structured dtypes are not supported)");
    char quote = *v++;
    const char *end = strchr(v, quote);
    char descr[16];
    if (!end || (size_t)(end - v) >= sizeof descr)
        return fail(err, path, "the .npy header has a bad 'descr'");
    memcpy(descr, v, (size_t)(end - v));
    descr[end - v] = '\0';
    char order = strchr("<>|=", descr[0]) ? descr[0] : '=';
    const char *code = descr + (strchr("<>|=", descr[0]) ? 1 : 0);
    for (int d = 0; d < PTOC_DTYPE_COUNT; d++) {
        if (!dtypes[d].code || strcmp(dtypes[d].code, code) != 0)
            continue;
        if (order == '>' && dtypes[d].size > 1)
            return fail(err, path, "dtype '%s' is big-endian; only little-endian data is supported", descr);
        *out = (ptoc_dtype)d;
        return true;
    }
    return fail(err, path, "dtype '%s' is not supported (expected b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4 or f8)",
                descr);
}

static bool parse_fortran_order(const char *path, const char *header, char **err)
{
    const char *v = header_value(header, "fortran_order");
    if (v && strncmp(v, "False", 5) == 0)
        return true;
    if (v && strncmp(v, "True", 4) == 0)
        return fail(err, path, "Fortran-order arrays are not supported; save a C-order array "
                               "(numpy.ascontiguousarray)");
    return fail(err, path, "the .npy header has no 'fortran_order' flag");
}

static bool parse_shape(const char *path, const char *header, ptoc_array *out, char **err)
{
    const char *p = header_value(header, "shape");
    if (!p || *p++ != '(')
        return fail(err, path, "the .npy header has no 'shape' tuple");
    out->ndim = 0;
    for (;;) {
        while (isspace((unsigned char)*p) || *p == ',')
            p++;
        if (*p == ')')
            break;
        if (!isdigit((unsigned char)*p))
            return fail(err, path, "the .npy header has a bad 'shape'");
        if (out->ndim == PTOC_ARRAY_MAX_DIMS)
            return fail(err, path, "more than %d dimensions", PTOC_ARRAY_MAX_DIMS);
        char *end;
        errno = 0;
        unsigned long long dim = strtoull(p, &end, 10);
        if (errno || dim > INT64_MAX)
            return fail(err, path, "the .npy header has a bad 'shape'");
        out->shape[out->ndim++] = (int64_t)dim;
        p = end;
    }
    return set_count(out) ? true : fail(err, path, "the array is too large");
}

/* Reads the header at `buf` (magic, version, dict); sets *data_offset. */
static bool parse_npy_header(const char *path, const unsigned char *buf, size_t len, ptoc_array *out,
                             size_t *data_offset, char **err)
{
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0)
        return fail(err, path, "not a .npy file (raw data needs FILE:DTYPE:SHAPE, e.g. x.bin:f32:64x64)");
    unsigned major = buf[6], minor = buf[7];
    size_t header_len, start;
    if (major == 1) {
        header_len = (size_t)buf[8] | (size_t)buf[9] << 8;
        start = 10;
    } else if ((major == 2 || major == 3) && len >= 12) {
        header_len = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        start = 12;
    } else {
        return fail(err, path, "unsupported .npy version %u.%u", major, minor);
    }
    if (header_len > len - start)
        return fail(err, path, "the .npy header is truncated");
    char *header = malloc(header_len + 1);
    if (!header)
        return fail(err, path, "out of memory");
    memcpy(header, buf + start, header_len);
    header[header_len] = '\0';
    bool ok = parse_descr(path, header, &out->dtype, err) && parse_fortran_order(path, header, err) &&
              parse_shape(path, header, out, err);
    free(header);
    *data_offset = start + header_len;
    return ok;
}

bool ptoc_npy_read(const char *path, ptoc_array *out, char **err)
{
    *out = (ptoc_array){0};
    size_t len = 0, offset = 0;
    unsigned char *buf = read_file(path, &len, err);
    if (!buf)
        return false;
    bool ok = parse_npy_header(path, buf, len, out, &offset, err);
    size_t bytes = out->count * ptoc_dtype_size(out->dtype);
    if (ok && len - offset != bytes)
        ok = fail(err, path, "holds %zu bytes of data, but its header says %zu (%zu elements of %s)", len - offset,
                  bytes, out->count, ptoc_dtype_name(out->dtype));
    if (ok && !(out->data = alloc_elements(bytes)))
        ok = fail(err, path, "out of memory");
    if (ok)
        memcpy(out->data, buf + offset, bytes);
    free(buf);
    return ok;
}

/* ---------------------------------------------------------------- raw data */

bool ptoc_raw_read(const char *path, ptoc_dtype dtype, uint32_t ndim, const int64_t *shape, ptoc_array *out,
                   char **err)
{
    *out = (ptoc_array){.dtype = dtype, .ndim = ndim};
    if (ndim > PTOC_ARRAY_MAX_DIMS)
        return fail(err, path, "more than %d dimensions", PTOC_ARRAY_MAX_DIMS);
    memcpy(out->shape, shape, ndim * sizeof *shape);
    if (!set_count(out))
        return fail(err, path, "the shape is too large");
    size_t len = 0;
    unsigned char *buf = read_file(path, &len, err);
    if (!buf)
        return false;
    size_t bytes = out->count * ptoc_dtype_size(dtype);
    char shape_text[128];
    bool ok = len == bytes ||
              fail(err, path, "holds %zu bytes, but %s %s needs %zu", len,
                   ptoc_array_shape_string(out, shape_text, sizeof shape_text), ptoc_dtype_name(dtype), bytes);
    if (ok && !(out->data = alloc_elements(bytes)))
        ok = fail(err, path, "out of memory");
    if (ok)
        memcpy(out->data, buf, bytes);
    free(buf);
    return ok;
}

/* "64x64" -> dims; false if not a list of decimal numbers joined by 'x'. */
static bool parse_dims(const char *text, uint32_t *ndim, int64_t *shape)
{
    *ndim = 0;
    const char *p = text;
    do {
        if (!isdigit((unsigned char)*p) || *ndim == PTOC_ARRAY_MAX_DIMS)
            return false;
        char *end;
        errno = 0;
        unsigned long long dim = strtoull(p, &end, 10);
        if (errno || dim > INT64_MAX)
            return false;
        shape[(*ndim)++] = (int64_t)dim;
        p = end;
    } while (*p++ == 'x');
    return p[-1] == '\0';
}

/* Parses `text` (up to `len` bytes) as a dtype name. */
static bool parse_dtype_n(const char *text, size_t len, ptoc_dtype *out)
{
    char name[16];
    if (len >= sizeof name)
        return false;
    memcpy(name, text, len);
    name[len] = '\0';
    return ptoc_dtype_parse(name, out);
}

/* FILE:DTYPE:SHAPE: `dtype_colon` and `shape_colon` point at the two colons. */
static bool read_raw_spec(const char *spec, const char *dtype_colon, const char *shape_colon, ptoc_array *out,
                          char **err)
{
    ptoc_dtype dtype;
    uint32_t ndim;
    int64_t shape[PTOC_ARRAY_MAX_DIMS];
    size_t dtype_len = (size_t)(shape_colon - dtype_colon - 1);
    if (!parse_dtype_n(dtype_colon + 1, dtype_len, &dtype))
        return fail(err, spec, "unknown dtype '%.*s' (expected bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, "
                               "bf16, f32 or f64)", (int)dtype_len, dtype_colon + 1);
    if (!parse_dims(shape_colon + 1, &ndim, shape))
        return fail(err, spec, "bad shape '%s' (expected sizes joined by 'x', e.g. 64x64)", shape_colon + 1);
    size_t path_len = (size_t)(dtype_colon - spec);
    char *path = malloc(path_len + 1);
    if (!path)
        return fail(err, spec, "out of memory");
    memcpy(path, spec, path_len);
    path[path_len] = '\0';
    bool ok = ptoc_raw_read(path, dtype, ndim, shape, out, err);
    free(path);
    return ok;
}

bool ptoc_array_read(const char *spec, ptoc_array *out, char **err)
{
    *out = (ptoc_array){0};
    const char *slash = strrchr(spec, '/');
    const char *name = slash ? slash + 1 : spec;
    const char *shape_colon = strrchr(name, ':');
    if (!shape_colon)
        return ptoc_npy_read(spec, out, err);
    const char *dtype_colon = shape_colon;
    while (dtype_colon > name && dtype_colon[-1] != ':')
        dtype_colon--;
    if (dtype_colon == name)
        return fail(err, spec, "raw data needs FILE:DTYPE:SHAPE, e.g. x.bin:f32:64x64");
    return read_raw_spec(spec, dtype_colon - 1, shape_colon, out, err);
}

/* ---------------------------------------------------------------- writing */

bool ptoc_npy_write(const char *path, const ptoc_array *a, char **err)
{
    char dict[256 + 24 * PTOC_ARRAY_MAX_DIMS];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     dtypes[a->dtype].descr);
    for (uint32_t i = 0; i < a->ndim; i++)
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%s%" PRId64 "%s", i ? ", " : "", a->shape[i],
                      a->ndim == 1 ? "," : "");
    n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
    /* Magic, version, length and dict padded with spaces and a newline to a
     * multiple of 64 bytes, as NumPy writes it. */
    size_t total = ((size_t)n + 10 + 1 + 63) / 64 * 64;
    unsigned char head[sizeof dict + 128];
    memcpy(head, "\x93NUMPY\x01\x00", 8);
    head[8] = (unsigned char)((total - 10) & 0xff);
    head[9] = (unsigned char)((total - 10) >> 8);
    memcpy(head + 10, dict, (size_t)n);
    memset(head + 10 + n, ' ', total - 10 - (size_t)n - 1);
    head[total - 1] = '\n';
    return write_file(path, head, total, a->data, a->count * ptoc_dtype_size(a->dtype), err);
}
