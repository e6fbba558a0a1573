/* pto_verify.c: the pto op verifiers and the target-arch query.
 *
 * Each op family has one verify function (the op table points at it). All start
 * with the structural check (ins/outs counts from the table), then check the
 * operands as tiles, then the family's rules (DESIGN §6, ptoas-notes §2.1-2.3),
 * some of which depend on the target arch.
 *
 * As in PTOAS, an op with a memref operand is checked for structure only (the
 * "decoded memref bypass"): memrefs carry no tile layout to check against.
 */
#include <ctype.h>
#include <string.h>

#include "dialect/pto_internal.h"

/* ---------------------------------------------------------------- target arch */

static const char *const arch_names[] = {"a2", "a3", "a5", "cpu"};

/* The names an arch goes by, case-insensitively. `a2a3` (PTOAS's name for the
 * shared A2/A3 rules, which the Qwen3 samples write) is a3: the two have the
 * same rules everywhere ptoc checks them. PTOAS reads every name but a5 as
 * A2/A3; ptoc rejects names it does not know instead. */
static const struct { const char *name; ptoc_pto_arch arch; } arch_spellings[] = {
    {"a2", PTOC_PTO_ARCH_A2}, {"a3", PTOC_PTO_ARCH_A3}, {"a2a3", PTOC_PTO_ARCH_A3},
    {"a5", PTOC_PTO_ARCH_A5}, {"cpu", PTOC_PTO_ARCH_CPU},
};

ptoc_pto_arch ptoc_pto_arch_from_name(const char *name)
{
    for (size_t a = 0; a < sizeof arch_spellings / sizeof arch_spellings[0]; a++) {
        const char *want = arch_spellings[a].name;
        size_t i = 0;
        while (name[i] && want[i] && tolower((unsigned char)name[i]) == want[i])
            i++;
        if (!name[i] && !want[i])
            return arch_spellings[a].arch;
    }
    return PTOC_PTO_ARCH_INVALID;
}

const char *ptoc_pto_arch_name(ptoc_pto_arch arch)
{
    return (unsigned)arch < 4 ? arch_names[arch] : "invalid";
}

ptoc_pto_arch ptoc_pto_sync_arch(const ptoc_op *op)
{
    for (const ptoc_op *m = op; m; m = ptoc_op_parent(m)) {
        ptoc_attr *a = ptoc_op_is(m, "builtin.module") ? ptoc_op_attr(m, "pto.target_arch") : NULL;
        if (a && a->kind == PTOC_ATTR_STRING && ptoc_pto_arch_from_name(a->u.string->str) != PTOC_PTO_ARCH_INVALID)
            return ptoc_pto_arch_from_name(a->u.string->str);
    }
    return ptoc_pto_target_arch(op, NULL);
}

ptoc_pto_arch ptoc_pto_target_arch(const ptoc_op *op, const char **spelling)
{
    const char *opt = ptoc_context_option(ptoc_op_context(op), "pto-arch");
    if (opt) {
        if (spelling)
            *spelling = opt;
        return ptoc_pto_arch_from_name(opt);
    }
    for (const ptoc_op *m = op; m; m = ptoc_op_parent(m)) {
        if (!ptoc_op_is(m, "builtin.module"))
            continue;
        ptoc_attr *a = ptoc_op_attr(m, "pto.target_arch");
        if (!a)
            continue;
        if (a->kind != PTOC_ATTR_STRING) {
            if (spelling)
                *spelling = "(not a string)";
            return PTOC_PTO_ARCH_INVALID;
        }
        if (spelling)
            *spelling = a->u.string->str;
        return ptoc_pto_arch_from_name(a->u.string->str);
    }
    if (spelling)
        *spelling = arch_names[PTOC_PTO_ARCH_DEFAULT];
    return PTOC_PTO_ARCH_DEFAULT;
}

/* The arch for an op's checks; an unknown name is an error on the op. */
static bool op_arch(const ptoc_op *op, ptoc_pto_arch *arch)
{
    const char *spelling;
    *arch = ptoc_pto_target_arch(op, &spelling);
    if (*arch != PTOC_PTO_ARCH_INVALID)
        return true;
    ptoc_op_emit_error(op, "unknown pto target arch '%s' (expected a2, a3, a2a3, a5 or cpu)", spelling);
    return false;
}

bool pto_verify_arch(const ptoc_op *op, ptoc_pto_arch *arch)
{
    return op_arch(op, arch);
}

static bool arch_is_a2a3(ptoc_pto_arch a) { return a == PTOC_PTO_ARCH_A2 || a == PTOC_PTO_ARCH_A3; }

/* ---------------------------------------------------------------- element type classes */

/* One bit per element type class; signless integers count as signed. */
enum {
    DT_I8 = 1u << 0, DT_U8 = 1u << 1, DT_I16 = 1u << 2, DT_U16 = 1u << 3, DT_I32 = 1u << 4,
    DT_U32 = 1u << 5, DT_I64 = 1u << 6, DT_U64 = 1u << 7, DT_F16 = 1u << 8, DT_BF16 = 1u << 9,
    DT_F32 = 1u << 10, DT_OTHER = 1u << 11,
};
#define DT_ANY 0xfffu
static const char *const dt_names[] = {"i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "ui64",
                                       "f16", "bf16", "f32", "other"};

static uint32_t dt_class(const ptoc_type *t)
{
    if (ptoc_type_is_int(t)) {
        bool u = t->u.integer.sign == PTOC_UNSIGNED;
        switch (t->u.integer.width) {
        case 8: return u ? DT_U8 : DT_I8;
        case 16: return u ? DT_U16 : DT_I16;
        case 32: return u ? DT_U32 : DT_I32;
        case 64: return u ? DT_U64 : DT_I64;
        default: return DT_OTHER;
        }
    }
    if (ptoc_type_is_float(t)) {
        switch (t->u.fp.kind) {
        case PTOC_F16: return DT_F16;
        case PTOC_BF16: return DT_BF16;
        case PTOC_F32: return DT_F32;
        default: return DT_OTHER;
        }
    }
    return DT_OTHER;
}

static void append_type(ptoc_strbuf *sb, const ptoc_type *t)
{
    ptoc_print_type_to(sb, t);
}

/* "'op' op NAME element type T is not supported on ARCH (expected one of ...)" */
static bool check_dtype(const ptoc_op *op, const char *name, const ptoc_type *elem, uint32_t allowed,
                        ptoc_pto_arch arch)
{
    if (dt_class(elem) & allowed)
        return true;
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    append_type(&sb, elem);
    ptoc_strbuf_puts(&sb, " is not supported on ");
    ptoc_strbuf_puts(&sb, ptoc_pto_arch_name(arch));
    ptoc_strbuf_puts(&sb, " (expected one of");
    for (unsigned i = 0; i < 11; i++)
        if (allowed & (1u << i))
            ptoc_strbuf_printf(&sb, " %s", dt_names[i]);
    ptoc_strbuf_puts(&sb, ")");
    ptoc_op_emit_error(op, "%s element type %s", name, ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
    return false;
}

/* ---------------------------------------------------------------- structure */

static bool check_count(const ptoc_op *op, const char *what, uint32_t n, uint32_t lo, uint32_t hi)
{
    if (n >= lo && (hi == PTOC_PTO_VARIADIC || n <= hi))
        return true;
    /* "1 result", "2 results"; ins and outs stay as they are spelled. */
    int len = (int)strlen(what);
    if (lo == hi && lo == 1 && strcmp(what, "ins") != 0 && strcmp(what, "outs") != 0)
        len--;
    if (lo == hi)
        ptoc_op_emit_error(op, "expects %u %.*s, got %u", lo, len, what, n);
    else if (hi == PTOC_PTO_VARIADIC)
        ptoc_op_emit_error(op, "expects at least %u %s, got %u", lo, what, n);
    else
        ptoc_op_emit_error(op, "expects %u to %u %s, got %u", lo, hi, what, n);
    return false;
}

/* operandSegmentSizes, when present, must have `want` entries (0: any) that
 * add up to the operand count. */
static bool check_segments(const ptoc_op *op, uint32_t want)
{
    ptoc_attr *a = ptoc_op_attr(op, "operandSegmentSizes");
    if (!a)
        return true;
    if (a->kind != PTOC_ATTR_DENSE_ARRAY || (want && a->u.dense.n != want)) {
        ptoc_op_emit_error(op, "'operandSegmentSizes' must be an array<i32> of %u sizes", want);
        return false;
    }
    uint64_t sum = 0;
    for (uint32_t i = 0; i < a->u.dense.n; i++) {
        if (a->u.dense.values[i] < 0) {
            ptoc_op_emit_error(op, "'operandSegmentSizes' has a negative size");
            return false;
        }
        sum += (uint64_t)a->u.dense.values[i];
    }
    if (sum != op->noperands) {
        ptoc_op_emit_error(op, "'operandSegmentSizes' adds up to %llu but the op has %u operands",
                           (unsigned long long)sum, op->noperands);
        return false;
    }
    return true;
}

static bool verify_dps_counts(const ptoc_op *op, const ptoc_pto_op_info *info, uint32_t nsegments)
{
    if (!check_segments(op, nsegments))
        return false;
    uint32_t nins, nouts;
    ptoc_pto_dps_split(op, &nins, &nouts);
    if (!ptoc_op_attr(op, "operandSegmentSizes") && op->nresults == 0) {
        /* Level-1 form with no result (tstore %t, %view): all operands count. */
        uint32_t hi = info->max_ins == PTOC_PTO_VARIADIC || info->max_outs == PTOC_PTO_VARIADIC
                          ? PTOC_PTO_VARIADIC : (uint32_t)info->max_ins + info->max_outs;
        return check_count(op, "operands", op->noperands, (uint32_t)info->min_ins + info->min_outs, hi);
    }
    return check_count(op, "ins", nins, info->min_ins, info->max_ins) &&
           check_count(op, "outs", nouts, info->min_outs, info->max_outs);
}

bool pto_verify_structure(const ptoc_op *op)
{
    const ptoc_pto_op_info *info = ptoc_pto_op_info_of(op);
    if (!info)
        return true;
    if (info->form != PTOC_PTO_FORM_CUSTOM)
        return verify_dps_counts(op, info, 2);
    return check_count(op, "operands", op->noperands, info->min_ins, info->max_ins) &&
           check_count(op, "results", op->nresults, info->min_outs, info->max_outs);
}

/* ---------------------------------------------------------------- operand access */

/* The type of in `i` / out `j` of a DPS op in either form. */
static ptoc_type *dps_in(const ptoc_op *op, uint32_t i)
{
    return ptoc_op_operand(op, i)->type;
}

static ptoc_type *dps_out(const ptoc_op *op, uint32_t j)
{
    uint32_t nins, nouts;
    ptoc_pto_dps_split(op, &nins, &nouts);
    if (!ptoc_op_attr(op, "operandSegmentSizes") && op->nresults > 0)
        return op->results[j].type;
    /* A generic DPS op with neither results nor operandSegmentSizes counts every
     * operand as an in, so it has no out operand to return. */
    if (nins + j >= op->noperands)
        return NULL;
    return ptoc_op_operand(op, nins + j)->type;
}

/* The value behind in `i` / out `j`, for notes at their definitions. */
static const ptoc_value *dps_value(const ptoc_op *op, bool out, uint32_t i)
{
    uint32_t nins, nouts;
    ptoc_pto_dps_split(op, &nins, &nouts);
    if (!out)
        return ptoc_op_operand(op, i);
    if (!ptoc_op_attr(op, "operandSegmentSizes") && op->nresults > 0)
        return &op->results[i];
    return ptoc_op_operand(op, nins + i);
}

static void note_def(const ptoc_op *op, const ptoc_value *v, const char *name)
{
    ptoc_op *def = ptoc_value_def(v);
    ptoc_loc loc = def ? def->loc : v->loc;
    if (def == op || !loc.file)
        return;
    ptoc_emit_note(ptoc_op_context(op), loc, "%s defined here", name);
}

static bool has_memref_operand(const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++)
        if (ptoc_op_operand(op, i)->type->kind == PTOC_TYPE_MEMREF)
            return true;
    for (uint32_t i = 0; i < op->nresults; i++)
        if (op->results[i].type->kind == PTOC_TYPE_MEMREF)
            return true;
    return false;
}

/* The tile description of a named operand, or an error. */
static const ptoc_pto_tile_desc *tile_of(const ptoc_op *op, const char *name, const ptoc_type *t)
{
    const ptoc_pto_tile_desc *d = t ? ptoc_pto_tile_like(t) : NULL;
    if (d)
        return d;
    if (!t) {
        ptoc_op_emit_error(op, "%s is missing: a DPS op without results needs 'operandSegmentSizes'", name);
        return NULL;
    }
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    append_type(&sb, t);
    ptoc_op_emit_error(op, "%s must be a !pto.tile_buf, !pto.tile or memref, got %s", name, ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
    return NULL;
}

/* Fetches the named DPS operands (ins first, then outs) as tiles. */
static bool get_tiles(const ptoc_op *op, const char *const *names, uint32_t nins, uint32_t nouts,
                      const ptoc_pto_tile_desc **out)
{
    for (uint32_t i = 0; i < nins + nouts; i++) {
        ptoc_type *t = i < nins ? dps_in(op, i) : dps_out(op, i - nins);
        if (!names[i])
            continue;                     /* not a tile (a scalar) */
        if (!(out[i] = tile_of(op, names[i], t)))
            return false;
    }
    return true;
}

static bool dim_compatible(int64_t a, int64_t b)
{
    return a == PTOC_DYNAMIC || b == PTOC_DYNAMIC || a == b;
}

static void dim_str(char *buf, size_t n, int64_t d)
{
    if (d == PTOC_DYNAMIC)
        snprintf(buf, n, "?");
    else
        snprintf(buf, n, "%lld", (long long)d);
}

static bool check_same_elem(const ptoc_op *op, const char *a_name, const ptoc_pto_tile_desc *a,
                            const char *b_name, const ptoc_pto_tile_desc *b)
{
    if (a->elem == b->elem)
        return true;
    ptoc_strbuf sa, sb;
    ptoc_strbuf_init(&sa, ptoc_op_context(op));
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    append_type(&sa, a->elem);
    append_type(&sb, b->elem);
    ptoc_op_emit_error(op, "%s element type %s does not match %s element type %s", b_name,
                       ptoc_strbuf_cstr(&sb), a_name, ptoc_strbuf_cstr(&sa));
    ptoc_strbuf_free(&sa);
    ptoc_strbuf_free(&sb);
    return false;
}

static bool check_same_shape(const ptoc_op *op, const char *a_name, const ptoc_pto_tile_desc *a,
                             const char *b_name, const ptoc_pto_tile_desc *b)
{
    if (a->rows != b->rows || a->cols != b->cols) {
        ptoc_op_emit_error(op, "%s shape %lldx%lld does not match %s shape %lldx%lld", b_name,
                           (long long)b->rows, (long long)b->cols, a_name, (long long)a->rows, (long long)a->cols);
        return false;
    }
    if (!dim_compatible(a->valid_rows, b->valid_rows) || !dim_compatible(a->valid_cols, b->valid_cols)) {
        char ar[24], ac[24], br[24], bc[24];
        dim_str(ar, sizeof ar, a->valid_rows);
        dim_str(ac, sizeof ac, a->valid_cols);
        dim_str(br, sizeof br, b->valid_rows);
        dim_str(bc, sizeof bc, b->valid_cols);
        ptoc_op_emit_error(op, "%s valid shape %sx%s does not match %s valid shape %sx%s", b_name, br, bc,
                           a_name, ar, ac);
        return false;
    }
    return true;
}

static bool check_loc_vec(const ptoc_op *op, const char *name, const ptoc_pto_tile_desc *t)
{
    if (t->loc == PTOC_PTO_AS_VEC)
        return true;
    ptoc_op_emit_error(op, "%s must be in loc=vec, got loc=%s", name,
                       ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, t->loc));
    return false;
}

static bool check_row_major(const ptoc_op *op, const char *name, const ptoc_pto_tile_desc *t, bool none_box)
{
    if (t->blayout == PTOC_PTO_BL_ROW_MAJOR && (!none_box || t->slayout == PTOC_PTO_SL_NONE_BOX))
        return true;
    ptoc_op_emit_error(op, "%s must be %s, got blayout=%s slayout=%s", name,
                       none_box ? "row_major none_box" : "row_major",
                       ptoc_pto_enum_name(PTOC_PTO_ENUM_BLAYOUT, t->blayout),
                       ptoc_pto_enum_name(PTOC_PTO_ENUM_SLAYOUT, t->slayout));
    return false;
}

static bool is_scalar_type(const ptoc_type *t)
{
    return ptoc_type_is_int_or_index(t) || ptoc_type_is_float(t);
}

static bool check_scalar(const ptoc_op *op, const char *name, const ptoc_type *t, bool tile_ok)
{
    if (is_scalar_type(t) || (tile_ok && ptoc_pto_tile_like(t)))
        return true;
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    append_type(&sb, t);
    ptoc_op_emit_error(op, "%s must be an integer, index or float scalar, got %s", name, ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
    return false;
}

/* ---------------------------------------------------------------- elementwise */

/* tadd tsub tmul tdiv tmax tmin: A2/A3 i16 i32 f16 f32 (tdiv f16 f32); A5 adds
 * i8 ui8 ui16 ui32 bf16; the cpu target takes every class. */
static uint32_t elementwise_dtypes(const ptoc_op *op, ptoc_pto_arch arch)
{
    bool div = ptoc_op_is(op, "pto.tdiv");
    if (arch == PTOC_PTO_ARCH_CPU)
        return DT_ANY & ~DT_OTHER;
    uint32_t base = div ? DT_F16 | DT_F32 : DT_I16 | DT_I32 | DT_F16 | DT_F32;
    if (arch == PTOC_PTO_ARCH_A5)
        base |= div ? DT_BF16 : DT_I8 | DT_U8 | DT_U16 | DT_U32 | DT_BF16;
    return base;
}

static bool check_elementwise_tiles(const ptoc_op *op, const char *const *names, const ptoc_pto_tile_desc **t,
                                    uint32_t n, ptoc_pto_arch arch, uint32_t dtypes)
{
    const ptoc_pto_tile_desc *dst = t[n - 1];
    const char *dst_name = names[n - 1];
    if (!check_loc_vec(op, dst_name, dst) || !check_dtype(op, dst_name, dst->elem, dtypes, arch))
        return false;
    for (uint32_t i = 0; i + 1 < n; i++) {
        if (!names[i])
            continue;
        if (!check_loc_vec(op, names[i], t[i]) || !check_same_elem(op, dst_name, dst, names[i], t[i]) ||
            !check_same_shape(op, dst_name, dst, names[i], t[i]))
            return false;
    }
    return true;
}

bool pto_verify_elementwise(const ptoc_op *op)
{
    static const char *const names[] = {"src0", "src1", "dst"};
    const ptoc_pto_tile_desc *t[3];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op))
        return false;
    if (has_memref_operand(op))
        return true;
    return op_arch(op, &arch) && get_tiles(op, names, 2, 1, t) &&
           check_elementwise_tiles(op, names, t, 3, arch, elementwise_dtypes(op, arch));
}

bool pto_verify_scalar_elementwise(const ptoc_op *op)
{
    static const char *const names[] = {"src", NULL, "dst"};
    const ptoc_pto_tile_desc *t[3];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op))
        return false;
    if (!check_scalar(op, "scalar", dps_in(op, 1), false))
        return false;
    if (has_memref_operand(op))
        return true;
    return op_arch(op, &arch) && get_tiles(op, names, 2, 1, t) &&
           check_elementwise_tiles(op, names, t, 3, arch, elementwise_dtypes(op, arch));
}

/* ---------------------------------------------------------------- thistogram */

/* Which byte a thistogram counts: `byte = 0..3`, or PTOAS's isMSB (u16: true =
 * byte 1, false = byte 0); by default the unfiltered high-byte pass. */
static bool histogram_byte(const ptoc_op *op, uint32_t src_bits, int64_t *byte)
{
    ptoc_attr *b = ptoc_op_attr(op, "byte"), *msb = ptoc_op_attr(op, "isMSB");
    *byte = src_bits == 16 ? 1 : 3;
    if (b && msb) {
        ptoc_op_emit_error(op, "takes either byte or isMSB, not both");
        return false;
    }
    if (msb) {
        if (msb->kind != PTOC_ATTR_BOOL) {
            ptoc_op_emit_error(op, "isMSB must be a bool attribute");
            return false;
        }
        if (src_bits != 16) {
            ptoc_op_emit_error(op, "isMSB applies to 16-bit sources; use byte = 0..3 for a 32-bit source");
            return false;
        }
        *byte = msb->u.boolean ? 1 : 0;
    }
    if (b) {
        if (b->kind != PTOC_ATTR_INTEGER) {
            ptoc_op_emit_error(op, "byte must be an integer attribute");
            return false;
        }
        *byte = b->u.integer.value;
        int64_t max = src_bits == 16 ? 1 : 3;
        if (*byte < 0 || *byte > max) {
            ptoc_op_emit_error(op, "byte = %lld is out of range for a %u-bit source (0..%lld)",
                               (long long)*byte, src_bits, (long long)max);
            return false;
        }
    }
    return true;
}

static int64_t known_rows(const ptoc_pto_tile_desc *t)
{
    return t->valid_rows == PTOC_DYNAMIC ? t->rows : t->valid_rows;
}

/* The idx operand: which rows it must have depends on the source width and byte. */
static bool check_histogram_idx(const ptoc_op *op, const ptoc_pto_tile_desc *src, const ptoc_pto_tile_desc *idx,
                                uint32_t src_bits, int64_t byte, ptoc_pto_arch arch)
{
    bool unfiltered = (src_bits == 16 && byte == 1) || (src_bits == 32 && byte == 3);
    if (unfiltered)
        return true;                     /* idx is an unused placeholder */
    if (!check_loc_vec(op, "idx", idx))
        return false;
    if (ptoc_type_bitwidth(idx->elem) != 8 || !ptoc_type_is_int(idx->elem)) {
        ptoc_op_emit_error(op, "idx must be an 8-bit integer tile");
        note_def(op, dps_value(op, false, 1), "idx");
        return false;
    }
    if (src_bits == 32) {
        int64_t want = 3 - byte;
        if (known_rows(idx) != want) {
            ptoc_op_emit_error(op, "byte = %lld needs an idx tile with %lld row%s, got %lld", (long long)byte,
                               (long long)want, want == 1 ? "" : "s", (long long)known_rows(idx));
            note_def(op, dps_value(op, false, 1), "idx");
            return false;
        }
        if (arch == PTOC_PTO_ARCH_A5 && idx->cols != src->cols) {
            ptoc_op_emit_error(op, "idx must have as many columns as src on a5 (%lld), got %lld",
                               (long long)src->cols, (long long)idx->cols);
            return false;
        }
        return true;
    }
    /* u16 byte 0: one filter byte per row, an 8-bit col_major column. */
    if (idx->blayout != PTOC_PTO_BL_COL_MAJOR || idx->cols != 1) {
        ptoc_op_emit_error(op, "byte = 0 of a 16-bit source needs a col_major idx tile with 1 column");
        note_def(op, dps_value(op, false, 1), "idx");
        return false;
    }
    if (!dim_compatible(idx->valid_rows, src->valid_rows)) {
        ptoc_op_emit_error(op, "idx valid rows must equal src's");
        return false;
    }
    return true;
}

static bool check_histogram_dst(const ptoc_op *op, const ptoc_pto_tile_desc *src, const ptoc_pto_tile_desc *dst,
                                ptoc_pto_arch arch)
{
    uint32_t dst_ok = arch == PTOC_PTO_ARCH_CPU ? DT_U8 | DT_I8 | DT_U16 | DT_I16 | DT_U32 | DT_I32 | DT_U64 | DT_I64
                                                : DT_U32 | DT_I32;
    if (!check_loc_vec(op, "dst", dst) || !check_row_major(op, "dst", dst, true) ||
        !check_dtype(op, "dst", dst->elem, dst_ok, arch))
        return false;
    if (arch == PTOC_PTO_ARCH_A5 ? dst->cols != 256 : dst->cols < 256) {
        ptoc_op_emit_error(op, "dst must have %s256 columns, got %lld", arch == PTOC_PTO_ARCH_A5 ? "" : "at least ",
                           (long long)dst->cols);
        return false;
    }
    if (dst->rows != src->rows || !dim_compatible(dst->valid_rows, src->valid_rows)) {
        ptoc_op_emit_error(op, "dst rows must equal src's (%lld)", (long long)src->rows);
        return false;
    }
    return true;
}

bool pto_verify_thistogram(const ptoc_op *op)
{
    static const char *const names[] = {"src", "idx", "dst"};
    const ptoc_pto_tile_desc *t[3];
    ptoc_pto_arch arch;
    int64_t byte;
    if (!pto_verify_structure(op) || !op_arch(op, &arch))
        return false;
    if (arch_is_a2a3(arch)) {
        ptoc_op_emit_error(op, "thistogram is only supported on A5");
        return false;
    }
    if (has_memref_operand(op))
        return true;
    if (!get_tiles(op, names, 2, 1, t))
        return false;
    const ptoc_pto_tile_desc *src = t[0];
    uint32_t bits = ptoc_type_bitwidth(src->elem);
    if (!ptoc_type_is_int(src->elem) || (bits != 16 && bits != 32) || src->elem->u.integer.sign == PTOC_SIGNED) {
        ptoc_op_emit_error(op, "src element type must be a 16- or 32-bit unsigned or signless integer");
        return false;
    }
    return check_loc_vec(op, "src", src) && check_row_major(op, "src", src, true) &&
           histogram_byte(op, bits, &byte) && check_histogram_idx(op, src, t[1], bits, byte, arch) &&
           check_histogram_dst(op, src, t[2], arch);
}

/* ---------------------------------------------------------------- tcolexpand family */

/* A2/A3 i16 i32 f16 f32; A5 adds i8 ui8 ui16 ui32 bf16 (and 64-bit through
 * register pairs); cpu everything. div and expdif: f16 f32 on A2/A3, expdif
 * f16 f32 everywhere. */
static uint32_t colexpand_dtypes(const ptoc_op *op, ptoc_pto_arch arch)
{
    bool expdif = ptoc_op_is(op, "pto.tcolexpandexpdif");
    bool div = ptoc_op_is(op, "pto.tcolexpanddiv");
    if (expdif)
        return DT_F16 | DT_F32;
    if (arch == PTOC_PTO_ARCH_CPU)
        return DT_ANY & ~DT_OTHER;
    if (arch == PTOC_PTO_ARCH_A5)
        return DT_I8 | DT_U8 | DT_I16 | DT_U16 | DT_I32 | DT_U32 | DT_I64 | DT_U64 | DT_F16 | DT_BF16 | DT_F32;
    return div ? DT_F16 | DT_F32 : DT_I16 | DT_I32 | DT_F16 | DT_F32;
}

static bool check_valid_cols(const ptoc_op *op, const char *name, const ptoc_pto_tile_desc *a,
                             const ptoc_pto_tile_desc *dst)
{
    if (dim_compatible(a->valid_cols, dst->valid_cols))
        return true;
    ptoc_op_emit_error(op, "%s valid cols (%lld) must equal dst valid cols (%lld)", name,
                       (long long)a->valid_cols, (long long)dst->valid_cols);
    return false;
}

bool pto_verify_tcolexpand(const ptoc_op *op)
{
    static const char *const names[] = {"src", "dst"};
    const ptoc_pto_tile_desc *t[2];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op))
        return false;
    if (has_memref_operand(op))
        return true;
    return op_arch(op, &arch) && get_tiles(op, names, 1, 1, t) && check_loc_vec(op, "src", t[0]) &&
           check_loc_vec(op, "dst", t[1]) && check_row_major(op, "src", t[0], true) &&
           check_row_major(op, "dst", t[1], true) &&
           check_dtype(op, "dst", t[1]->elem, colexpand_dtypes(op, arch), arch) &&
           check_same_elem(op, "dst", t[1], "src", t[0]) && check_valid_cols(op, "src", t[0], t[1]);
}

bool pto_verify_tcolexpand_binary(const ptoc_op *op)
{
    static const char *const names[] = {"src0", "src1", "dst"};
    const ptoc_pto_tile_desc *t[3];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!op_arch(op, &arch) || !get_tiles(op, names, 2, 1, t))
        return false;
    for (int i = 0; i < 3; i++)
        if (!check_row_major(op, names[i], t[i], false) ||
            !check_dtype(op, names[i], t[i]->elem, colexpand_dtypes(op, arch), arch))
            return false;
    if (!check_same_elem(op, "dst", t[2], "src0", t[0]) || !check_same_elem(op, "dst", t[2], "src1", t[1]))
        return false;
    /* The full-size operand is src0, or src1 with the roles swapped (as hardware does). */
    bool src0_full = t[0]->rows == t[2]->rows && t[0]->cols == t[2]->cols;
    bool src1_full = t[1]->rows == t[2]->rows && t[1]->cols == t[2]->cols;
    if (!src0_full && src1_full)
        return check_same_shape(op, "dst", t[2], "src1", t[1]) && check_valid_cols(op, "src0", t[0], t[2]);
    return check_same_shape(op, "dst", t[2], "src0", t[0]) && check_valid_cols(op, "src1", t[1], t[2]);
}

/* ---------------------------------------------------------------- select and compare */

/* A mask tile: integer elements, each row holding at least `bits` bits, and at
 * least `rows` rows. */
static bool check_mask(const ptoc_op *op, const char *name, const ptoc_pto_tile_desc *m, int64_t rows,
                       int64_t bits)
{
    if (!ptoc_type_is_int(m->elem)) {
        ptoc_op_emit_error(op, "%s must be an integer tile", name);
        return false;
    }
    int64_t row_bits = m->cols * (int64_t)ptoc_type_bitwidth(m->elem);
    if (bits != PTOC_DYNAMIC && row_bits < bits) {
        ptoc_op_emit_error(op, "%s rows hold %lld bits, but %lld are needed", name, (long long)row_bits,
                           (long long)bits);
        return false;
    }
    if (rows != PTOC_DYNAMIC && m->rows < rows) {
        ptoc_op_emit_error(op, "%s has %lld rows, but %lld are needed", name, (long long)m->rows, (long long)rows);
        return false;
    }
    return true;
}

static uint32_t select_dtypes(ptoc_pto_arch arch)
{
    if (arch == PTOC_PTO_ARCH_CPU)
        return DT_ANY & ~DT_OTHER;
    uint32_t base = DT_I16 | DT_I32 | DT_F16 | DT_F32;
    return arch == PTOC_PTO_ARCH_A5 ? base | DT_I8 : base;
}

bool pto_verify_tsel(const ptoc_op *op)
{
    static const char *const names[] = {"mask", "src0", "src1", "tmp", "dst"};
    const ptoc_pto_tile_desc *t[5];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!op_arch(op, &arch) || !get_tiles(op, names, 4, 1, t))
        return false;
    const ptoc_pto_tile_desc *dst = t[4];
    return check_row_major(op, "dst", dst, false) && check_row_major(op, "src0", t[1], false) &&
           check_row_major(op, "src1", t[2], false) && check_dtype(op, "dst", dst->elem, select_dtypes(arch), arch) &&
           check_same_elem(op, "dst", dst, "src0", t[1]) && check_same_elem(op, "dst", dst, "src1", t[2]) &&
           check_same_shape(op, "dst", dst, "src0", t[1]) && check_same_shape(op, "dst", dst, "src1", t[2]) &&
           check_mask(op, "mask", t[0], dst->valid_rows, dst->valid_cols);
}

bool pto_verify_tsels(const ptoc_op *op)
{
    static const char *const names[] = {"mask", "src", "tmp", NULL, "dst"};
    const ptoc_pto_tile_desc *t[5];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op) || !check_scalar(op, "scalar", dps_in(op, 3), false))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!op_arch(op, &arch) || !get_tiles(op, names, 4, 1, t))
        return false;
    const ptoc_pto_tile_desc *dst = t[4];
    return check_row_major(op, "dst", dst, false) && check_row_major(op, "src", t[1], false) &&
           check_dtype(op, "dst", dst->elem, select_dtypes(arch), arch) &&
           check_same_elem(op, "dst", dst, "src", t[1]) && check_same_shape(op, "dst", dst, "src", t[1]) &&
           check_mask(op, "mask", t[0], dst->valid_rows, dst->valid_cols);
}

static bool check_cmp_mode(const ptoc_op *op)
{
    ptoc_attr *mode = ptoc_op_attr(op, "cmpMode");
    uint32_t v;
    if (!mode || ptoc_pto_enum_value(mode, PTOC_PTO_ENUM_CMP, &v))
        return true;
    ptoc_op_emit_error(op, "cmpMode must be a #pto<cmp eq|ne|lt|le|gt|ge> attribute");
    return false;
}

/* The compare result: packed bits per row in an integer tile, u8 on A2/A3,
 * u8 or u32 on A5, any integer width on cpu. */
static bool check_cmp_dst(const ptoc_op *op, const ptoc_pto_tile_desc *src, const ptoc_pto_tile_desc *dst,
                          ptoc_pto_arch arch)
{
    uint32_t ok = arch == PTOC_PTO_ARCH_CPU ? DT_I8 | DT_U8 | DT_I16 | DT_U16 | DT_I32 | DT_U32 | DT_I64 | DT_U64
                  : arch == PTOC_PTO_ARCH_A5 ? DT_I8 | DT_U8 | DT_I32 | DT_U32
                                             : DT_I8 | DT_U8;
    if (!check_dtype(op, "dst", dst->elem, ok, arch))
        return false;
    if (!dim_compatible(dst->valid_rows, src->valid_rows)) {
        ptoc_op_emit_error(op, "dst valid rows must equal src valid rows");
        return false;
    }
    return check_mask(op, "dst", dst, src->valid_rows, src->valid_cols);
}

bool pto_verify_tcmp(const ptoc_op *op)
{
    static const char *const names[] = {"src0", "src1", "dst"};
    const ptoc_pto_tile_desc *t[3];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op) || !check_cmp_mode(op))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!op_arch(op, &arch) || !get_tiles(op, names, 2, 1, t))
        return false;
    uint32_t src_ok = arch == PTOC_PTO_ARCH_CPU ? DT_ANY & ~DT_OTHER
                      : arch == PTOC_PTO_ARCH_A5 ? DT_I8 | DT_I16 | DT_I32 | DT_F16 | DT_BF16 | DT_F32
                                                 : DT_I32 | DT_F16 | DT_F32;
    return check_loc_vec(op, "src0", t[0]) && check_dtype(op, "src0", t[0]->elem, src_ok, arch) &&
           check_same_elem(op, "src0", t[0], "src1", t[1]) && check_same_shape(op, "src0", t[0], "src1", t[1]) &&
           check_cmp_dst(op, t[0], t[2], arch);
}

bool pto_verify_tcmps(const ptoc_op *op)
{
    static const char *const names[] = {"src", NULL, "dst"};
    const ptoc_pto_tile_desc *t[3];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op) || !check_cmp_mode(op) || !check_scalar(op, "scalar", dps_in(op, 1), true))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!op_arch(op, &arch) || !get_tiles(op, names, 2, 1, t))
        return false;
    uint32_t src_ok = arch == PTOC_PTO_ARCH_CPU ? DT_ANY & ~DT_OTHER : select_dtypes(arch);
    return check_loc_vec(op, "src", t[0]) && check_dtype(op, "src", t[0]->elem, src_ok, arch) &&
           check_cmp_dst(op, t[0], t[2], arch);
}

/* ---------------------------------------------------------------- data movement */

/* The element type of a view, memref or tile operand; NULL for anything else. */
static ptoc_type *data_elem(const ptoc_type *t)
{
    if (!t)
        return NULL;            /* a missing DPS out (see dps_out) */
    const ptoc_pto_view *v = ptoc_pto_partition_view(t);
    if (!v)
        v = ptoc_pto_tensor_view(t);
    if (v)
        return v->elem;
    if (t->kind == PTOC_TYPE_MEMREF)
        return t->u.shaped.elem;
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(t);
    return d ? d->elem : NULL;
}

static bool check_transfer(const ptoc_op *op, const ptoc_type *from, const ptoc_type *to)
{
    ptoc_type *a = data_elem(from), *b = data_elem(to);
    if (!a || !b) {
        ptoc_op_emit_error(op, "%s must be a view, memref or tile", !a ? "source" : "destination");
        return false;
    }
    if (a == b)
        return true;
    ptoc_strbuf sa, sb;
    ptoc_strbuf_init(&sa, ptoc_op_context(op));
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    append_type(&sa, a);
    append_type(&sb, b);
    ptoc_op_emit_error(op, "source element type %s does not match destination element type %s",
                       ptoc_strbuf_cstr(&sa), ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sa);
    ptoc_strbuf_free(&sb);
    return false;
}

bool pto_verify_tload(const ptoc_op *op)
{
    const ptoc_pto_op_info *info = ptoc_pto_op_info_of(op);
    ptoc_attr *seg = ptoc_op_attr(op, "operandSegmentSizes");
    if (!verify_dps_counts(op, info, seg ? 6 : 2))
        return false;
    ptoc_attr *mode = ptoc_op_attr(op, "pad_mode"), *init = ptoc_op_attr(op, "init_out_buffer");
    uint32_t v;
    if (mode && !ptoc_pto_enum_value(mode, PTOC_PTO_ENUM_PADMODE, &v)) {
        ptoc_op_emit_error(op, "pad_mode must be a #pto.padmode<...> attribute");
        return false;
    }
    if (init && init->kind != PTOC_ATTR_BOOL) {
        ptoc_op_emit_error(op, "init_out_buffer must be true or false");
        return false;
    }
    return check_transfer(op, dps_in(op, 0), dps_out(op, 0));
}

/* A store from acc goes through the FIX pipe, which converts: i32 or f32
 * accumulators to i32/f32/f16/bf16, or with a pre-quant scalar to 8-bit
 * integers (i32 also to f16; on a5 also to bf16, f32 also to f16/bf16/f32).
 * Relu and the pre-quant scalar exist only on that path. */
typedef enum store_kind { STORE_PLAIN, STORE_ACC_OK, STORE_BAD } store_kind;

static store_kind check_acc_store(const ptoc_op *op, const ptoc_pto_tile_desc *src, const ptoc_type *to, bool prequant)
{
    ptoc_pto_arch arch;
    uint32_t relu = 0;
    bool acc = src && src->loc == PTOC_PTO_AS_ACC;
    ptoc_pto_enum_value(ptoc_op_attr(op, "reluPreMode"), PTOC_PTO_ENUM_RELU_PRE_MODE, &relu);
    if (!acc && (prequant || relu)) {
        ptoc_op_emit_error(op, "%s needs a tile in loc=acc", prequant ? "a pre-quant scalar" : "reluPreMode");
        return STORE_BAD;
    }
    if (!acc)
        return STORE_PLAIN;              /* the element types must match */
    if (!op_arch(op, &arch))
        return STORE_BAD;
    bool a5 = !arch_is_a2a3(arch);
    uint32_t from = dt_class(src->elem);
    uint32_t ok = !(from & (DT_I32 | DT_F32)) ? 0
                  : !prequant                 ? DT_I32 | DT_F32 | DT_F16 | DT_BF16
                  : from & DT_I32             ? DT_I8 | DT_U8 | DT_F16 | (a5 ? DT_BF16 : 0)
                                              : DT_I8 | DT_U8 | (a5 ? DT_F16 | DT_BF16 | DT_F32 : 0);
    if (!check_dtype(op, "acc tile", src->elem, DT_I32 | DT_F32, arch) ||
        !check_dtype(op, prequant ? "the pre-quantised destination" : "the destination", to, ok, arch))
        return STORE_BAD;
    if (!a5 && src->cols > 4095) {
        ptoc_op_emit_error(op, "an acc tile stores at most 4095 columns on %s", ptoc_pto_arch_name(arch));
        return STORE_BAD;
    }
    return STORE_ACC_OK;
}

bool pto_verify_tstore(const ptoc_op *op)
{
    if (!verify_dps_counts(op, ptoc_pto_op_info_of(op), 2))
        return false;
    uint32_t nins, nouts;
    ptoc_pto_dps_split(op, &nins, &nouts);
    const ptoc_type *dst;
    if (!ptoc_op_attr(op, "operandSegmentSizes") && op->nresults == 0) {
        nins = op->noperands - 1;        /* Level 1: tstore %t, %view */
        dst = ptoc_op_operand(op, nins)->type;
    } else {
        dst = dps_out(op, 0);
    }
    if (nins == 2 && !ptoc_type_is_int(dps_in(op, 1))) {
        ptoc_op_emit_error(op, "the pre-quant scalar must be an integer");
        return false;
    }
    ptoc_type *to = data_elem(dst);
    store_kind kind = to ? check_acc_store(op, ptoc_pto_tile_like(dps_in(op, 0)), to, nins == 2) : STORE_PLAIN;
    return kind == STORE_ACC_OK || (kind == STORE_PLAIN && check_transfer(op, dps_in(op, 0), dst));
}

/* ---------------------------------------------------------------- alloc, views, tassign */

bool pto_verify_alloc_tile(const ptoc_op *op)
{
    if (!pto_verify_structure(op) || !check_segments(op, 3))
        return false;
    const ptoc_pto_tile_desc *tb = ptoc_pto_tile_buf(op->results[0].type);
    if (!tb) {
        ptoc_op_emit_error(op, "result must be a !pto.tile_buf");
        return false;
    }
    ptoc_attr *seg = ptoc_op_attr(op, "operandSegmentSizes");
    int64_t has[3] = {0, 0, 0};
    if (seg)
        memcpy(has, seg->u.dense.values, sizeof has);
    else if (op->noperands > 0) {
        ptoc_op_emit_error(op, "operands need 'operandSegmentSizes' (addr, valid_row, valid_col)");
        return false;
    }
    static const char *const names[2] = {"valid_row", "valid_col"};
    int64_t valid[2] = {tb->valid_rows, tb->valid_cols};
    for (int k = 0; k < 2; k++) {
        if (has[k + 1] && valid[k] != PTOC_DYNAMIC) {
            ptoc_op_emit_error(op, "%s given, but the tile's valid %s are static (%lld)", names[k],
                               k ? "cols" : "rows", (long long)valid[k]);
            return false;
        }
    }
    return true;
}

bool pto_verify_make_tensor_view(const ptoc_op *op)
{
    if (!pto_verify_structure(op) || !check_segments(op, 3))
        return false;
    const ptoc_pto_view *v = ptoc_pto_tensor_view(op->results[0].type);
    ptoc_attr *seg = ptoc_op_attr(op, "operandSegmentSizes");
    if (!v) {
        ptoc_op_emit_error(op, "result must be a !pto.tensor_view");
        return false;
    }
    if (ptoc_pto_ptr_elem(ptoc_op_operand(op, 0)->type) != v->elem) {
        ptoc_op_emit_error(op, "source must be a !pto.ptr to the view's element type");
        return false;
    }
    if (seg && (seg->u.dense.values[1] != v->rank || seg->u.dense.values[2] != v->rank)) {
        ptoc_op_emit_error(op, "shape and strides need %u values each for a rank-%u view, got %lld and %lld",
                           v->rank, v->rank, (long long)seg->u.dense.values[1], (long long)seg->u.dense.values[2]);
        return false;
    }
    ptoc_attr *layout = ptoc_op_attr(op, "layout");
    uint32_t l;
    if (layout && !ptoc_pto_enum_value(layout, PTOC_PTO_ENUM_LAYOUT, &l)) {
        ptoc_op_emit_error(op, "layout must be a #pto.layout<nd|dn|nz> attribute");
        return false;
    }
    return true;
}

bool pto_verify_partition_view(const ptoc_op *op)
{
    if (!pto_verify_structure(op) || !check_segments(op, 3))
        return false;
    const ptoc_type *src = ptoc_op_operand(op, 0)->type;
    const ptoc_pto_view *from = ptoc_pto_tensor_view(src);
    const ptoc_pto_view *to = ptoc_pto_partition_view(op->results[0].type);
    ptoc_attr *seg = ptoc_op_attr(op, "operandSegmentSizes");
    if (!to) {
        ptoc_op_emit_error(op, "result must be a !pto.partition_tensor_view");
        return false;
    }
    if (!from && src->kind != PTOC_TYPE_MEMREF) {
        ptoc_op_emit_error(op, "source must be a !pto.tensor_view or memref");
        return false;
    }
    uint32_t rank = from ? from->rank : src->u.shaped.rank;
    if (seg && (seg->u.dense.values[1] != rank || seg->u.dense.values[2] != rank)) {
        ptoc_op_emit_error(op, "offsets and sizes need %u values each for a rank-%u source, got %lld and %lld",
                           rank, rank, (long long)seg->u.dense.values[1], (long long)seg->u.dense.values[2]);
        return false;
    }
    return check_transfer(op, src, op->results[0].type);
}

bool pto_verify_tassign(const ptoc_op *op)
{
    if (!pto_verify_structure(op))
        return false;
    const ptoc_type *tile = ptoc_op_operand(op, 0)->type, *addr = ptoc_op_operand(op, 1)->type;
    if (!ptoc_pto_tile_buf(tile) && tile->kind != PTOC_TYPE_MEMREF) {
        ptoc_op_emit_error(op, "operand must be a !pto.tile_buf or memref");
        return false;
    }
    if (!ptoc_type_is_int(addr) || ptoc_type_bitwidth(addr) != 64) {
        ptoc_op_emit_error(op, "address must be i64");
        return false;
    }
    if (op->results[0].type != tile) {
        ptoc_op_emit_error(op, "result type must equal the operand's type");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- sync */

static bool require_enum(const ptoc_op *op, const char *name, ptoc_pto_enum_kind kind, const char *spelled)
{
    uint32_t v;
    if (ptoc_pto_enum_value(ptoc_op_attr(op, name), kind, &v))
        return true;
    ptoc_op_emit_error(op, "requires attribute '%s' of kind %s", name, spelled);
    return false;
}

bool pto_verify_sync_flag(const ptoc_op *op)
{
    if (!pto_verify_structure(op) || !require_enum(op, "src_pipe", PTOC_PTO_ENUM_PIPE, "#pto.pipe") ||
        !require_enum(op, "dst_pipe", PTOC_PTO_ENUM_PIPE, "#pto.pipe"))
        return false;
    if (op->noperands == 1) {
        if (!ptoc_type_is_int_or_index(ptoc_op_operand(op, 0)->type)) {
            ptoc_op_emit_error(op, "dynamic event id must be an index");
            return false;
        }
        return true;
    }
    return require_enum(op, "event_id", PTOC_PTO_ENUM_EVENT, "#pto.event");
}

bool pto_verify_event_op(const ptoc_op *op)
{
    return pto_verify_structure(op) &&
           require_enum(op, "src_op", PTOC_PTO_ENUM_PIPE_EVENT_TYPE, "#pto.pipe_event_type") &&
           require_enum(op, "dst_op", PTOC_PTO_ENUM_PIPE_EVENT_TYPE, "#pto.pipe_event_type") &&
           require_enum(op, "event_id", PTOC_PTO_ENUM_EVENT, "#pto.event");
}

bool pto_verify_barrier(const ptoc_op *op)
{
    return pto_verify_structure(op) && require_enum(op, "pipe", PTOC_PTO_ENUM_PIPE, "#pto.pipe");
}

/* ---------------------------------------------------------------- pipes */

ptoc_pto_pipe ptoc_pto_op_pipe(const ptoc_op *op)
{
    const ptoc_pto_op_info *info = ptoc_pto_op_info_of(op);
    if (!info)
        return PTOC_PTO_PIPE_NONE;
    if (ptoc_op_is(op, "pto.tstore") && op->noperands > 0) {
        const ptoc_pto_tile_desc *src = ptoc_pto_tile_like(ptoc_op_operand(op, 0)->type);
        ptoc_pto_address_space as;
        if ((src && src->loc == PTOC_PTO_AS_ACC) ||
            (ptoc_pto_memref_space(ptoc_op_operand(op, 0)->type, &as) && as == PTOC_PTO_AS_ACC))
            return PTOC_PTO_PIPE_FIX;
    }
    return (ptoc_pto_pipe)info->pipe;
}
