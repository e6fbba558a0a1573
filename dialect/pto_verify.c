/* pto_verify.c: the pto op verifiers and the target-arch query.
 *
 * Each op family has one verify function (the op table points at it). All start
 * with the structural check (ins/outs counts from the table), then check the
 * operands as tiles, then the family's rules (docs/ops.md), some of which
 * depend on the target arch. Element types are the table's (pto_dtypes.def,
 * read through pto_check_dtype_rules); the ops with no rule but that table
 * have the verifier pto_verify_tile_dtypes. Operands are named by their roles
 * in the table's PTO_OPERANDS rows.
 *
 * As in PTOAS, an op with a memref operand is checked for structure only (the
 * "decoded memref bypass"): memrefs carry no tile layout to check against.
 */
#include <ctype.h>
#include <string.h>

#include "dialect/pto_dtypes.h"
#include "dialect/pto_internal.h"

/* ---------------------------------------------------------------- target arch */

/* One rule for every pass and tool (pto.h): the context option "pto-arch" (the
 * tools' --pto-arch or -target), then the module's pto.target_arch, then cpu. */

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
        *spelling = ptoc_pto_arch_name(PTOC_PTO_ARCH_DEFAULT);
    return PTOC_PTO_ARCH_DEFAULT;
}

/* ---------------------------------------------------------------- level */

static const char *const level_names[] = {"level1", "level2", "level3"};

ptoc_pto_level ptoc_pto_level_from_name(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, level_names[i]) == 0)
            return (ptoc_pto_level)(PTOC_PTO_LEVEL1 + i);
    return PTOC_PTO_LEVEL_INVALID;
}

ptoc_pto_level ptoc_pto_target_level(ptoc_context *ctx)
{
    const char *opt = ptoc_context_option(ctx, "pto-level");
    return opt ? ptoc_pto_level_from_name(opt) : PTOC_PTO_LEVEL2;
}

bool ptoc_pto_is_addressless_buffer(const ptoc_op *op)
{
    ptoc_pto_address_space space;
    if (ptoc_pto_is(op, PTOC_PTO_OP_ALLOC_TILE))
        return !ptoc_pto_buffer_addr(op).given;
    return (ptoc_op_is(op, "memref.alloc") || ptoc_op_is(op, "memref.alloca")) && op->nresults == 1 &&
           ptoc_pto_memref_space(op->results[0].type, &space) && space != PTOC_PTO_AS_GM &&
           !ptoc_op_attr(op, "pto.addr");
}

bool ptoc_pto_check_level_address(const ptoc_op *op)
{
    if (ptoc_pto_target_level(ptoc_op_context(op)) != PTOC_PTO_LEVEL3 || !ptoc_pto_is_addressless_buffer(op))
        return true;
    if (ptoc_pto_is(op, PTOC_PTO_OP_ALLOC_TILE))
        ptoc_op_emit_error(op, "requires 'addr' operand when --pto-level=level3");
    else
        ptoc_op_emit_error(op, "requires a 'pto.addr' attribute for an on-chip buffer when --pto-level=level3");
    return false;
}

/* The arch for an op's checks; an unknown name is an error on the op. */
static bool op_arch(const ptoc_op *op, ptoc_pto_arch *arch)
{
    const char *spelling;
    *arch = ptoc_pto_target_arch(op, &spelling);
    if (*arch != PTOC_PTO_ARCH_INVALID)
        return true;
    char names[128];
    ptoc_pto_arch_names(names, sizeof names);
    ptoc_op_emit_error(op, "unknown pto target arch '%s' (expected %s)", spelling, names);
    return false;
}

bool pto_verify_arch(const ptoc_op *op, ptoc_pto_arch *arch)
{
    return op_arch(op, arch);
}

static bool arch_is_a2a3(ptoc_pto_arch a) { return a == PTOC_PTO_ARCH_A2 || a == PTOC_PTO_ARCH_A3; }

static void append_type(ptoc_strbuf *sb, const ptoc_type *t)
{
    ptoc_print_type_to(sb, t);
}

/* An op the hardware does not implement on `arch` (the table has no element
 * type for it there): "thistogram is only supported on A5". */
static bool check_implemented(const ptoc_op *op, ptoc_pto_arch arch)
{
    if (!pto_op_unimplemented_on(op, arch))
        return true;
    ptoc_op_emit_error(op, "%s is only supported on A5", op->def->name + strlen("pto."));
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
    ptoc_attr *a = ptoc_op_segment_attr(op);
    if (!a)
        return true;
    if (a->kind != PTOC_ATTR_DENSE_ARRAY || (want && a->u.dense.n != want)) {
        ptoc_op_emit_error(op, "'" PTOC_SEGMENT_SIZES_ATTR "' must be an array<i32> of %u sizes", want);
        return false;
    }
    uint64_t sum = 0;
    for (uint32_t i = 0; i < a->u.dense.n; i++) {
        if (a->u.dense.values[i] < 0) {
            ptoc_op_emit_error(op, "'" PTOC_SEGMENT_SIZES_ATTR "' has a negative size");
            return false;
        }
        sum += (uint64_t)a->u.dense.values[i];
    }
    if (sum != op->noperands) {
        ptoc_op_emit_error(op, "'" PTOC_SEGMENT_SIZES_ATTR "' adds up to %llu but the op has %u operands",
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
    if (!ptoc_op_segment_attr(op) && op->nresults == 0) {
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
    if (!ptoc_op_segment_attr(op) && op->nresults > 0)
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
    if (!ptoc_op_segment_attr(op) && op->nresults > 0)
        return &op->results[i];
    return ptoc_op_operand(op, nins + i);
}

/* Notes on `d` where `op`'s operand `v` is defined, unless that is `op` itself. */
static void note_def(ptoc_diag *d, const ptoc_op *op, const ptoc_value *v, const char *name)
{
    ptoc_op *def = ptoc_value_def(v);
    ptoc_loc loc = def ? def->loc : v->loc;
    if (def == op || !loc.file)
        return;
    ptoc_diag_note(d, loc, "%s defined here", name);
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
        ptoc_op_emit_error(op, "%s is missing: a DPS op without results needs '" PTOC_SEGMENT_SIZES_ATTR "'", name);
        return NULL;
    }
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    append_type(&sb, t);
    ptoc_op_emit_error(op, "%s must be a !pto.tile_buf, !pto.tile or memref, got %s", name, ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
    return NULL;
}

/* Fetches the DPS operands (ins first, then outs) as tiles, named by their
 * roles in the op's PTO_OPERANDS row; bit i of `scalars` marks operand i as
 * not a tile (left NULL). */
static bool get_tiles(const ptoc_op *op, uint32_t scalars, uint32_t nins, uint32_t nouts,
                      const ptoc_pto_tile_desc **out)
{
    for (uint32_t i = 0; i < nins + nouts; i++) {
        ptoc_type *t = i < nins ? dps_in(op, i) : dps_out(op, i - nins);
        out[i] = scalars & (1u << i) || !t ? NULL : ptoc_pto_tile_like(t);
        if (out[i] || scalars & (1u << i))
            continue;
        char buf[32];                     /* the role is named only for the error */
        const char *name = pto_role_name(op, i >= nins, i < nins ? i : i - nins, buf, sizeof buf);
        if (!tile_of(op, name ? name : "operand", t))
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

/* ---------------------------------------------------------------- A2/A3 quirks */

/* The A2/A3 hardware library's quirks, which the a2a3 target reproduces
 * (docs/decisions.md): the compares' (warn_a2a3_cmp_quirks) and tdivs in
 * place (warn_a2a3_divs_in_place). A kernel that meets one gets a warning at
 * the op, once: the verifier runs again after each pass, so the places
 * warned are kept in the context. */
enum { QUIRK_INT32_EQ, QUIRK_INT16_AS_HALF, QUIRK_DIVS_IN_PLACE };

typedef struct warned_quirk {
    ptoc_loc loc;
    const ptoc_op *op;          /* for an op without a location */
    int quirk;
    struct warned_quirk *next;
} warned_quirk;

#define WARNED_QUIRKS_KEY "pto.a2a3-quirks-warned"

/* Whether the quirk was already reported at op's place; records it if not. */
static bool quirk_warned(const ptoc_op *op, int quirk)
{
    ptoc_context *ctx = ptoc_op_context(op);
    warned_quirk *head = ptoc_context_extension(ctx, WARNED_QUIRKS_KEY);
    const ptoc_op *key = op->loc.line ? NULL : op;
    for (const warned_quirk *w = head; w; w = w->next)
        if (w->quirk == quirk && w->op == key && w->loc.file == op->loc.file && w->loc.line == op->loc.line &&
            w->loc.col == op->loc.col)
            return true;
    warned_quirk *w = PTOC_NEW(ptoc_context_perm_arena(ctx), warned_quirk);
    *w = (warned_quirk){op->loc, key, quirk, head};
    ptoc_context_set_extension(ctx, WARNED_QUIRKS_KEY, w);
    return false;
}

/* ---------------------------------------------------------------- elementwise */

/* Every tile in vec, the element types from the table, and the sources of
 * dst's shape. On the hardware archs every tile is row_major none_box: the
 * hardware libraries assert row_major (a5/TAdd.hpp, a2a3/TAdd.hpp) and
 * address a tile's rows by its row stride, which a boxed layout does not
 * have (docs/decisions.md). `names[i]` NULL: t[i] is not a tile. */
static bool check_elementwise_tiles(const ptoc_op *op, const char *const *names, const ptoc_pto_tile_desc **t,
                                    uint32_t n, ptoc_pto_arch arch)
{
    const ptoc_pto_tile_desc *dst = t[n - 1];
    for (uint32_t i = 0; i < n; i++)
        if (names[i] && (!check_loc_vec(op, names[i], t[i]) ||
                         (arch != PTOC_PTO_ARCH_CPU && !check_row_major(op, names[i], t[i], true))))
            return false;
    if (!pto_check_dtype_rules(op, arch))
        return false;
    for (uint32_t i = 0; i + 1 < n; i++)
        if (names[i] && !check_same_shape(op, names[n - 1], dst, names[i], t[i]))
            return false;
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
    return op_arch(op, &arch) && get_tiles(op, 0, 2, 1, t) && check_elementwise_tiles(op, names, t, 3, arch);
}

/* A float tdivs whose dst is its src on A2/A3 computes what the hardware
 * library does in place (a2a3/TDivS.hpp): the tile first, x * (1/s) rounded
 * twice (its alias guard); the scalar first, dst filled with s before it is
 * divided by itself. The planner never shares them (dialect/pto_access.c);
 * a kernel that writes one in place gets a warning, once. */
static void warn_a2a3_divs_in_place(const ptoc_op *op, const ptoc_pto_tile_desc *dst, ptoc_pto_arch arch,
                                    bool scalar_first)
{
    uint32_t nins, nouts;
    if (!arch_is_a2a3(arch) || !ptoc_type_is_float(dst->elem) || !ptoc_op_segment_attr(op) ||
        !ptoc_pto_dps_split(op, &nins, &nouts) || nouts != 1 ||
        ptoc_op_operand(op, scalar_first ? 1 : 0) != ptoc_op_operand(op, nins) || quirk_warned(op, QUIRK_DIVS_IN_PLACE))
        return;
    if (scalar_first)
        ptoc_op_emit_warning(op, "on %s a tdivs of the scalar by its own dst fills dst with the scalar before it "
                                 "divides (pto-isa a2a3 TDivS.hpp): every element becomes s / s",
                             ptoc_pto_arch_name(arch));
    else
        ptoc_op_emit_warning(op, "on %s a float tdivs in place multiplies by the reciprocal 1/s, as the A2/A3 "
                                 "hardware library does (pto-isa a2a3 TDivS.hpp), which may differ from x / s "
                                 "in the last bit", ptoc_pto_arch_name(arch));
}

/* tadds tsubs tmuls tdivs tmaxs tmins: `src, scalar -> dst`; tdivs also takes
 * the scalar first (scalar / tile), as PTOAS does. */
bool pto_verify_scalar_elementwise(const ptoc_op *op)
{
    static const char *const names[] = {"src", NULL, "dst"};
    const ptoc_pto_tile_desc *t[3] = {NULL, NULL, NULL};
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op))
        return false;
    bool scalar_first = ptoc_pto_is(op, PTOC_PTO_OP_TDIVS) && !ptoc_pto_tile_like(dps_in(op, 0)) &&
                        ptoc_pto_tile_like(dps_in(op, 1));
    if (!check_scalar(op, "scalar", dps_in(op, scalar_first ? 0 : 1), false))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!op_arch(op, &arch) || !(t[0] = tile_of(op, "src", dps_in(op, scalar_first ? 1 : 0))) ||
        !(t[2] = tile_of(op, "dst", dps_out(op, 0))) || !check_elementwise_tiles(op, names, t, 3, arch))
        return false;
    if (ptoc_pto_is(op, PTOC_PTO_OP_TDIVS))
        warn_a2a3_divs_in_place(op, t[2], arch, scalar_first);
    return true;
}

/* The ops whose verifier is their element types from the table, on tiles:
 * every operand a set row names must be a tile. */
static bool check_row_operands_are_tiles(const ptoc_op *op)
{
    const pto_dtype_rows *rows = pto_op_dtype_rows(op);
    for (size_t i = rows->begin; i < rows->end; i++) {
        const ptoc_pto_dtype_rule *r = ptoc_pto_dtype_rule_at(i);
        if (r->same_as)
            continue;
        ptoc_type *t = pto_role_type(op, r->role);
        if (t && !tile_of(op, r->role, t))
            return false;
    }
    return true;
}

bool pto_verify_tile_dtypes(const ptoc_op *op)
{
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op) || !op_arch(op, &arch) || !check_implemented(op, arch))
        return false;
    if (has_memref_operand(op))
        return true;
    return check_row_operands_are_tiles(op) && pto_check_dtype_rules(op, arch);
}

/* ---------------------------------------------------------------- tsort32 */

/* tsort32 writes each 32-element block of src's valid columns as 32 eight-byte
 * value/index pairs (pto-isa TSort32; with a tmp a partial last block too), so a
 * dst row must hold them all: on hardware a shorter row is written past. Only
 * static shapes are checked; a dynamic one sorts the blocks that fit. */
static bool check_sort_fits(const ptoc_op *op)
{
    uint32_t nins, nouts;
    if (!ptoc_pto_dps_split(op, &nins, &nouts) || nouts < 1)
        return true;
    const ptoc_pto_tile_desc *src = ptoc_pto_tile_like(dps_in(op, 0)), *dst = ptoc_pto_tile_like(dps_out(op, 0));
    if (!src || !dst || src->valid_cols == PTOC_DYNAMIC || dst->cols == PTOC_DYNAMIC)
        return true;
    int64_t blocks = nins > 2 ? (src->valid_cols + 31) / 32 : src->valid_cols / 32;
    int64_t row_bytes = dst->cols * (int64_t)ptoc_pto_elem_bytes(dst->elem);
    if (blocks * 256 <= row_bytes)
        return true;
    ptoc_op_emit_error(op,
                       "dst rows of %lld bytes cannot hold the sorted pairs of src's valid columns (%lld "
                       "bytes: 8 per element, whole 32-element blocks)",
                       (long long)row_bytes, (long long)blocks * 256);
    return false;
}

bool pto_verify_tsort32(const ptoc_op *op)
{
    return pto_verify_tile_dtypes(op) && check_sort_fits(op);
}

/* ---------------------------------------------------------------- tquant */

static ptoc_type *data_elem(const ptoc_type *t);

/* tquant's operands follow its quant_type (pto-isa TQuant): INT8_SYM is
 * ins(src, fp) into an i8 dst, INT8_ASYM ins(src, fp, offset) into a ui8 one.
 * Memref operands too: their element types are the same. Without a
 * quant_type only the dtype rules apply. */
static bool check_quant_form(const ptoc_op *op)
{
    uint32_t nins, nouts, v;
    const ptoc_attr *a = ptoc_op_attr(op, "quant_type");
    if (!a || !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_QUANT_TYPE, &v) || !ptoc_pto_dps_split(op, &nins, &nouts) ||
        nouts != 1)
        return true;
    bool asym = v == 1;
    if (nins != (asym ? 3u : 2u)) {
        ptoc_op_emit_error(op, asym ? "INT8_ASYM needs an offset operand: ins(src, fp, offset)"
                                    : "INT8_SYM takes no offset operand: ins(src, fp)");
        return false;
    }
    const ptoc_type *dst = data_elem(ptoc_op_operand(op, nins)->type);
    bool is_u8 = dst && ptoc_type_is_int(dst) && ptoc_type_bitwidth(dst) == 8 &&
                 dst->u.integer.sign == PTOC_UNSIGNED;
    bool is_i8 = dst && ptoc_type_is_int(dst) && ptoc_type_bitwidth(dst) == 8 && !is_u8;
    if (asym ? !is_u8 : !is_i8) {
        ptoc_op_emit_error(op, asym ? "INT8_ASYM quantises into a ui8 dst" : "INT8_SYM quantises into an i8 dst");
        return false;
    }
    return true;
}

bool pto_verify_tquant(const ptoc_op *op)
{
    return pto_verify_tile_dtypes(op) && check_quant_form(op);
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
        ptoc_diag *d = ptoc_op_diag_error(op, "idx must be an 8-bit integer tile");
        note_def(d, op, dps_value(op, false, 1), "idx");
        ptoc_diag_report(d);
        return false;
    }
    if (src_bits == 32) {
        int64_t want = 3 - byte;
        if (known_rows(idx) != want) {
            ptoc_diag *d = ptoc_op_diag_error(op, "byte = %lld needs an idx tile with %lld row%s, got %lld",
                                              (long long)byte, (long long)want, want == 1 ? "" : "s",
                                              (long long)known_rows(idx));
            note_def(d, op, dps_value(op, false, 1), "idx");
            ptoc_diag_report(d);
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
        ptoc_diag *d = ptoc_op_diag_error(op, "byte = 0 of a 16-bit source needs a col_major idx tile with 1 "
                                              "column");
        note_def(d, op, dps_value(op, false, 1), "idx");
        ptoc_diag_report(d);
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
    if (!check_loc_vec(op, "dst", dst) || !check_row_major(op, "dst", dst, true) ||
        !pto_check_dtype_rules(op, arch))
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
    const ptoc_pto_tile_desc *t[3];
    ptoc_pto_arch arch;
    int64_t byte;
    if (!pto_verify_structure(op) || !op_arch(op, &arch) || !check_implemented(op, arch))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!get_tiles(op, 0, 2, 1, t))
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
    const ptoc_pto_tile_desc *t[2];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op))
        return false;
    if (has_memref_operand(op))
        return true;
    return op_arch(op, &arch) && get_tiles(op, 0, 1, 1, t) && check_loc_vec(op, "src", t[0]) &&
           check_loc_vec(op, "dst", t[1]) && check_row_major(op, "src", t[0], true) &&
           check_row_major(op, "dst", t[1], true) && pto_check_dtype_rules(op, arch) &&
           check_valid_cols(op, "src", t[0], t[1]);
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
    if (!op_arch(op, &arch) || !get_tiles(op, 0, 2, 1, t))
        return false;
    for (int i = 0; i < 3; i++)
        if (!check_row_major(op, names[i], t[i], false))
            return false;
    if (!pto_check_dtype_rules(op, arch))
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

/* The scratch tile of tsel/tsels (the `tmp` in). A2/A3 select through
 * set_cmpmask, which reads 128 bits from UB: tsel first copies each mask row's
 * address there (as u32 words), tsels its scalar (in the source's dtype). A5
 * selects with predicate registers and never reads tmp; neither does cpu. The
 * ISA pages write both ops without tmp, so ptoc takes 3 ins as well as 4. */
typedef struct select_form {
    const char *name;
    uint32_t tmp;               /* tmp's position among the 4 ins (0-based) */
    const char *ins4;           /* the 4-in spelling, for the diagnostic */
    const char *why;
} select_form;

static const select_form select_forms[] = {
    {"pto.tsel", 3, "ins(%mask, %src0, %src1, %tmp : ...)",
     "A2/A3 copy each mask row's address there as u32 words for set_cmpmask"},
    {"pto.tsels", 2, "ins(%mask, %src, %tmp, %scalar : ...)",
     "A2/A3 keep the scalar there, in the source's dtype, for set_cmpmask"},
};

static const select_form *select_form_of(const ptoc_op *op)
{
    for (size_t i = 0; i < sizeof select_forms / sizeof select_forms[0]; i++)
        if (ptoc_op_is(op, select_forms[i].name))
            return &select_forms[i];
    return NULL;
}

/* set_cmpmask reads 128 bits; a tile row is at least 32 bytes. */
#define SELECT_SCRATCH_BYTES 32

ptoc_type *ptoc_pto_select_scratch(const ptoc_op *op, uint32_t *tmp_index)
{
    const select_form *f = select_form_of(op);
    if (!f || !arch_is_a2a3(ptoc_pto_target_arch(op, NULL)) || op->noperands < 2)
        return NULL;
    if (tmp_index)
        *tmp_index = f->tmp;
    ptoc_context *ctx = ptoc_op_context(op);
    const ptoc_type *src = ptoc_op_operand(op, 1)->type;
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(src);
    ptoc_type *elem = ptoc_pto_is(op, PTOC_PTO_OP_TSEL) ? ptoc_type_int(ctx, 32, PTOC_UNSIGNED)
                      : d ? d->elem : src->kind == PTOC_TYPE_MEMREF ? src->u.shaped.elem : NULL;
    uint32_t bytes = elem ? pto_elem_bytes(elem) : 0;
    if (bytes == 0 || bytes > SELECT_SCRATCH_BYTES)
        return NULL;
    ptoc_pto_tile_desc t = ptoc_pto_tile_desc_init(elem, 1, SELECT_SCRATCH_BYTES / bytes);
    return ptoc_pto_tile_type(ctx, PTOC_PTO_TYPE_TILE_BUF, &t);
}

/* Whether the author placed `v`'s buffer: an address on its alloc_tile, a
 * tassign, a memref's pto.addr, a function argument (the caller's buffer), or
 * a loop-carried value whose init is one of those. */
static bool placed_by_author(const ptoc_value *v, uint32_t depth)
{
    ptoc_op *def = ptoc_value_def(v);
    if (def)
        return ptoc_pto_buffer_addr(def).given || ptoc_op_attr(def, "pto.addr") != NULL;
    ptoc_op *owner = ptoc_block_parent_op(v->owner.block);
    if (owner && ptoc_op_is(owner, "func.func"))
        return true;
    bool iter_arg = owner && ptoc_op_is(owner, "scf.for") && v->index > 0 && 2 + v->index < owner->noperands;
    return iter_arg && depth < 64 && placed_by_author(ptoc_op_operand(owner, 2 + v->index), depth + 1);
}

/* Without tmp, on an arch that needs one: pto-bufferize supplies it in auto
 * mode; in manual mode the author must. */
static bool check_scratch_supplied(const ptoc_op *op, const select_form *f, uint32_t nins, ptoc_pto_arch arch)
{
    ptoc_type *scratch = nins == 3 ? ptoc_pto_select_scratch(op, NULL) : NULL;
    bool level1 = !ptoc_op_segment_attr(op) && op->nresults > 0;
    if (!scratch || level1 || nins >= op->noperands || !placed_by_author(ptoc_op_operand(op, nins), 0))
        return true;
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    append_type(&sb, scratch);
    ptoc_op_emit_error(op, "needs a scratch tile on %s (%s), and its buffers are placed by hand, so the compiler "
                       "supplies none: pass it as %%tmp in `%s`, a vec tile of %d bytes such as %s",
                       ptoc_pto_arch_name(arch), f->why, f->ins4, SELECT_SCRATCH_BYTES, ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
    return false;
}

/* With tmp, on A2/A3: a UB tile that holds what set_cmpmask reads. */
static bool check_scratch_tile(const ptoc_op *op, const ptoc_pto_tile_desc *tmp, ptoc_pto_arch arch)
{
    uint64_t bytes = (uint64_t)tmp->rows * (uint64_t)tmp->cols * pto_elem_bytes(tmp->elem);
    if (!arch_is_a2a3(arch) || (tmp->loc == PTOC_PTO_AS_VEC && bytes >= 16))
        return true;
    ptoc_op_emit_error(op, "tmp must be a vec tile of at least 16 bytes on %s (set_cmpmask reads 128 bits "
                       "from it), got %llu bytes in %s", ptoc_pto_arch_name(arch), (unsigned long long)bytes,
                       ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, tmp->loc));
    return false;
}

/* The tiles of tsel/tsels in either form, at their 4-in positions plus dst:
 * the tmp slot is NULL (and t[tmp] too) when there are 3 ins, and so is
 * tsels' scalar. A result-less Level-1 form counts its out among the ins: the
 * missing dst is reported. */
static bool select_tiles(const ptoc_op *op, uint32_t nins, const ptoc_pto_tile_desc *t[5], ptoc_pto_arch *arch)
{
    const select_form *f = select_form_of(op);
    if (nins > 4)
        nins = 4;
    uint32_t scalars = ptoc_pto_is(op, PTOC_PTO_OP_TSELS) ? 1u << (nins - 1) : 0;   /* its scalar is the last in */
    const ptoc_pto_tile_desc *got[5] = {NULL};
    if (!op_arch(op, arch) || !get_tiles(op, scalars, nins, 1, got))
        return false;
    for (uint32_t i = 0, k = 0; i < 5; i++)
        t[i] = nins == 4 || i != f->tmp ? got[k++] : NULL;
    return check_scratch_supplied(op, f, nins, *arch) && (!t[f->tmp] || check_scratch_tile(op, t[f->tmp], *arch));
}

bool pto_verify_tsel(const ptoc_op *op)
{
    const ptoc_pto_tile_desc *t[5];
    ptoc_pto_arch arch;
    uint32_t nins, nouts;
    if (!pto_verify_structure(op) || !ptoc_pto_dps_split(op, &nins, &nouts))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!select_tiles(op, nins, t, &arch))
        return false;
    const ptoc_pto_tile_desc *dst = t[4];
    bool hw = arch != PTOC_PTO_ARCH_CPU;    /* none_box too on hardware: see check_elementwise_tiles */
    return check_row_major(op, "dst", dst, hw) && check_row_major(op, "src0", t[1], hw) &&
           check_row_major(op, "src1", t[2], hw) && pto_check_dtype_rules(op, arch) &&
           check_same_shape(op, "dst", dst, "src0", t[1]) && check_same_shape(op, "dst", dst, "src1", t[2]) &&
           check_mask(op, "mask", t[0], dst->valid_rows, dst->valid_cols);
}

bool pto_verify_tsels(const ptoc_op *op)
{
    const ptoc_pto_tile_desc *t[5];
    ptoc_pto_arch arch;
    uint32_t nins, nouts;
    if (!pto_verify_structure(op) || !ptoc_pto_dps_split(op, &nins, &nouts) ||
        !check_scalar(op, "scalar", dps_in(op, nins - 1), false))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!select_tiles(op, nins, t, &arch))
        return false;
    const ptoc_pto_tile_desc *dst = t[4];
    bool hw = arch != PTOC_PTO_ARCH_CPU;
    return check_row_major(op, "dst", dst, hw) && check_row_major(op, "src", t[1], hw) &&
           pto_check_dtype_rules(op, arch) && check_same_shape(op, "dst", dst, "src", t[1]) &&
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

/* The compare result: packed bits per row in an integer tile (its element
 * types per arch are the table's). */
static bool check_cmp_dst(const ptoc_op *op, const ptoc_pto_tile_desc *src, const ptoc_pto_tile_desc *dst)
{
    if (!dim_compatible(dst->valid_rows, src->valid_rows)) {
        ptoc_op_emit_error(op, "dst valid rows must equal src valid rows");
        return false;
    }
    return check_mask(op, "dst", dst, src->valid_rows, src->valid_cols);
}

/* pto-isa include/pto/npu/a2a3 TCmp.hpp CmpCall and TCmps.hpp GenCmpCall
 * compare a 32-bit integer with vcmpv(s)_eq whatever the mode (NE stays NE:
 * the eq bits are inverted after), and TCmps.hpp reinterprets a 16-bit
 * integer source and its scalar as half. */
static void warn_a2a3_cmp_quirks(const ptoc_op *op, const ptoc_pto_tile_desc *src, ptoc_pto_arch arch, bool tcmps)
{
    static const char *const modes[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    uint32_t mode = PTOC_PTO_CMP_EQ, bits = ptoc_type_bitwidth(src->elem);
    ptoc_attr *a = ptoc_op_attr(op, "cmpMode");
    if (!arch_is_a2a3(arch) || !ptoc_type_is_int(src->elem) || (a && !ptoc_pto_enum_value(a, PTOC_PTO_ENUM_CMP, &mode)) ||
        mode > PTOC_PTO_CMP_GE)
        return;
    const char *name = ptoc_pto_arch_name(arch);
    if (bits == 32 && mode != PTOC_PTO_CMP_EQ && mode != PTOC_PTO_CMP_NE && !quirk_warned(op, QUIRK_INT32_EQ))
        ptoc_op_emit_warning(op, "on %s a 32-bit integer compare is eq whatever cmpMode: the A2/A3 hardware library "
                                 "compares int32 with vcmp%s_eq (pto-isa a2a3 %s), so cmpMode %s gives the eq bits",
                             name, tcmps ? "vs" : "v", tcmps ? "TCmps.hpp" : "TCmp.hpp", modes[mode]);
    if (tcmps && bits == 16 && !quirk_warned(op, QUIRK_INT16_AS_HALF))
        ptoc_op_emit_warning(op, "on %s a tcmps of 16-bit integers compares them as fp16: the A2/A3 hardware library "
                                 "reads the source and the scalar as half (pto-isa a2a3 TCmps.hpp)", name);
}

bool pto_verify_tcmp(const ptoc_op *op)
{
    const ptoc_pto_tile_desc *t[3];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op) || !check_cmp_mode(op))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!op_arch(op, &arch) || !get_tiles(op, 0, 2, 1, t))
        return false;
    /* a5/TCmp.hpp asserts row_major, and both libraries address rows by their
     * stride; none_box as for elementwise */
    bool hw = arch != PTOC_PTO_ARCH_CPU;
    bool ok = check_loc_vec(op, "src0", t[0]) && (!hw || (check_row_major(op, "src0", t[0], true) &&
                                                           check_row_major(op, "src1", t[1], true))) &&
              pto_check_dtype_rules(op, arch) && check_same_shape(op, "src0", t[0], "src1", t[1]) &&
              check_cmp_dst(op, t[0], t[2]);
    if (ok)
        warn_a2a3_cmp_quirks(op, t[0], arch, false);
    return ok;
}

bool pto_verify_tcmps(const ptoc_op *op)
{
    const ptoc_pto_tile_desc *t[3];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op) || !check_cmp_mode(op) || !check_scalar(op, "scalar", dps_in(op, 1), true))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!op_arch(op, &arch) || !get_tiles(op, 1u << 1, 2, 1, t))
        return false;
    bool hw = arch != PTOC_PTO_ARCH_CPU;   /* a2a3/TCmps.hpp and a5 assert row_major */
    bool ok = check_loc_vec(op, "src", t[0]) && (!hw || check_row_major(op, "src", t[0], true)) &&
              pto_check_dtype_rules(op, arch) && check_cmp_dst(op, t[0], t[2]);
    if (ok)
        warn_a2a3_cmp_quirks(op, t[0], arch, true);
    return ok;
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
    ptoc_attr *seg = ptoc_op_segment_attr(op);
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
    uint32_t from = ptoc_pto_dtype_class(src->elem);
    uint32_t ok = !(from & (DT_I32 | DT_F32)) ? 0
                  : !prequant                 ? DT_I32 | DT_F32 | DT_F16 | DT_BF16
                  : from & DT_I32             ? DT_I8 | DT_U8 | DT_F16 | (a5 ? DT_BF16 : 0)
                                              : DT_I8 | DT_U8 | (a5 ? DT_F16 | DT_BF16 | DT_F32 : 0);
    if (!pto_check_dtype_set(op, "acc tile", "", src->elem, DT_I32 | DT_F32, arch) ||
        !pto_check_dtype_set(op, prequant ? "the pre-quantised destination" : "the destination", "", to, ok, arch))
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
    if (!ptoc_op_segment_attr(op) && op->nresults == 0) {
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

/* ---------------------------------------------------------------- tcvt */

static bool check_enum_attr(const ptoc_op *op, const char *name, ptoc_pto_enum_kind kind, const char *spelled)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    uint32_t v;
    if (!a || ptoc_pto_enum_value(a, kind, &v))
        return true;
    ptoc_op_emit_error(op, "%s must be a %s attribute", name, spelled);
    return false;
}

/* tcvt ins(%src[, %tmp]) outs(%dst) {rmode, sat_mode}: both in UB (the
 * kernels of both targets address them as __ubuf__), one shape and valid
 * shape (dst's valid region is converted element for element), the pair of
 * element types the table has a kernel for. */
bool pto_verify_tcvt(const ptoc_op *op)
{
    const ptoc_pto_tile_desc *t[3];
    ptoc_pto_arch arch;
    uint32_t nins, nouts;
    if (!pto_verify_structure(op) ||
        !check_enum_attr(op, "rmode", PTOC_PTO_ENUM_ROUND_MODE, "#pto<round_mode ...>") ||
        !check_enum_attr(op, "sat_mode", PTOC_PTO_ENUM_SATURATION_MODE, "#pto<saturation_mode ON|OFF>"))
        return false;
    if (has_memref_operand(op))
        return true;
    ptoc_pto_dps_split(op, &nins, &nouts);
    if (!op_arch(op, &arch) || !get_tiles(op, 0, nins, 1, t))
        return false;
    const ptoc_pto_tile_desc *src = t[0], *dst = t[nins];
    return check_loc_vec(op, "src", src) && check_loc_vec(op, "dst", dst) && pto_check_dtype_rules(op, arch) &&
           check_same_shape(op, "dst", dst, "src", src);
}

/* ---------------------------------------------------------------- textract, tinsert */

/* The layouts the move kernels tell apart, as bits (a tile has one, plus
 * L_ROW1 when it is one row_major row). */
enum {
    L_ND = 1u << 0,       /* row_major, none_box */
    L_DN = 1u << 1,       /* col_major, none_box */
    L_NZ = 1u << 2,       /* col_major, row_major boxes */
    L_ZN = 1u << 3,       /* row_major, col_major boxes */
    L_ZZ = 1u << 4,       /* row_major, row_major boxes */
    L_NN = 1u << 5,       /* col_major, col_major boxes */
    L_ROW1 = 1u << 6,     /* a single row_major row */
    L_ANY = 0x7fu,
};
static const char *const layout_names[] = {"ND (row_major, none_box)", "DN (col_major, none_box)",
                                           "NZ (col_major, row_major boxes)", "ZN (row_major, col_major boxes)",
                                           "ZZ (row_major, row_major boxes)", "NN (col_major, col_major boxes)",
                                           "a single row_major row"};

/* The name of the one base layout among `bits`. */
static const char *base_layout_name(uint32_t bits)
{
    for (unsigned i = 0; i < 6; i++)
        if (bits & (1u << i))
            return layout_names[i];
    return "?";
}

static uint32_t layout_of(const ptoc_pto_tile_desc *t)
{
    bool row = t->blayout == PTOC_PTO_BL_ROW_MAJOR;
    uint32_t l = t->slayout == PTOC_PTO_SL_NONE_BOX ? (row ? L_ND : L_DN)
                 : t->slayout == PTOC_PTO_SL_ROW_MAJOR ? (row ? L_ZZ : L_NZ)
                                                       : (row ? L_ZN : L_NN);
    return l | (row && t->rows == 1 ? L_ROW1 : 0);
}

/* One way a textract or tinsert moves data: the locations, the layouts each
 * side may have, and the archs with a kernel for it. `same_layout`: source and
 * destination must have one layout (the vec->vec kernels copy as they are). */
typedef struct move_path {
    const char *op;
    bool a2a3, a5;
    uint8_t src_loc, dst_loc;
    uint32_t src_layouts, dst_layouts;
    bool same_layout;
} move_path;

/* From TEXTRACT_IMPL / TINSERT_IMPL of a2a3/TExtract.hpp, a2a3/TInsert.hpp,
 * a5/TExtract.hpp, a5/TInsert.hpp: vec->vec (both ND or both NZ), mat->left
 * and mat->right (textract_common.hpp TExtractToLeft/Right: a ZN or NZ source,
 * a left dst with row_major boxes, a right dst ZN; a left tile's blayout is
 * the arch's own, ZZ on A2/A3 and NZ on A5, which PTOAS's parser writes over
 * whatever the text says, so either is accepted), acc->mat (CheckTMovAccToMat:
 * NZ to NZ; A5 CheckTMovAccValid: NZ to NZ, ND or DN), and on A5 acc->vec,
 * vec->mat, mat->scaling (the MX scale tiles). */
static const move_path move_paths[] = {
    {"pto.textract", true, true, PTOC_PTO_AS_VEC, PTOC_PTO_AS_VEC, L_ND | L_NZ, L_ND | L_NZ, true},
    {"pto.textract", true, true, PTOC_PTO_AS_MAT, PTOC_PTO_AS_LEFT, L_ZN | L_NZ | L_ROW1, L_ZZ | L_NZ, false},
    {"pto.textract", true, true, PTOC_PTO_AS_MAT, PTOC_PTO_AS_RIGHT, L_ZN | L_NZ, L_ZN, false},
    {"pto.textract", true, false, PTOC_PTO_AS_ACC, PTOC_PTO_AS_MAT, L_NZ, L_NZ, false},
    {"pto.textract", false, true, PTOC_PTO_AS_ACC, PTOC_PTO_AS_MAT, L_NZ, L_NZ | L_ND, false},
    {"pto.textract", false, true, PTOC_PTO_AS_ACC, PTOC_PTO_AS_VEC, L_NZ, L_NZ | L_ND, false},
    {"pto.textract", false, true, PTOC_PTO_AS_VEC, PTOC_PTO_AS_MAT, L_ANY, L_ANY, false},
    {"pto.textract", false, true, PTOC_PTO_AS_MAT, PTOC_PTO_AS_SCALING, L_ANY, L_ANY, false},
    {"pto.tinsert", true, true, PTOC_PTO_AS_VEC, PTOC_PTO_AS_VEC, L_ND | L_NZ, L_ND | L_NZ, true},
    {"pto.tinsert", true, false, PTOC_PTO_AS_ACC, PTOC_PTO_AS_MAT, L_NZ, L_NZ, false},
    {"pto.tinsert", false, true, PTOC_PTO_AS_ACC, PTOC_PTO_AS_MAT, L_NZ, L_NZ | L_ND | L_DN, false},
    {"pto.tinsert", false, true, PTOC_PTO_AS_ACC, PTOC_PTO_AS_VEC, L_NZ, L_NZ | L_ND | L_DN, false},
    {"pto.tinsert", false, true, PTOC_PTO_AS_VEC, PTOC_PTO_AS_MAT, L_ND | L_NZ, L_NZ, false},
};

static const char *loc_name(uint32_t loc) { return ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, loc); }

static bool path_on(const move_path *p, ptoc_pto_arch arch)
{
    switch (ptoc_pto_arch_info_of(arch)->dtypes) {
    case PTOC_PTO_DTYPE_COLUMN_A2A3: return p->a2a3;
    case PTOC_PTO_DTYPE_COLUMN_A5: return p->a5;
    case PTOC_PTO_DTYPE_COLUMN_UNION: return p->a2a3 || p->a5;
    }
    return false;
}

/* The path of `op` from src to dst on `arch`, or NULL after listing the
 * pairs there are. */
static const move_path *find_move_path(const ptoc_op *op, const ptoc_pto_tile_desc *src, const ptoc_pto_tile_desc *dst,
                                       ptoc_pto_arch arch)
{
    ptoc_strbuf sb;
    const char *sep = "";
    const move_path *found = NULL;
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    for (size_t i = 0; i < sizeof move_paths / sizeof move_paths[0]; i++) {
        const move_path *p = &move_paths[i];
        if (!ptoc_op_is(op, p->op) || !path_on(p, arch))
            continue;
        if (p->src_loc == src->loc && p->dst_loc == dst->loc && !found)
            found = p;
        char pair[32];
        snprintf(pair, sizeof pair, "%s->%s", loc_name(p->src_loc), loc_name(p->dst_loc));
        if (!strstr(ptoc_strbuf_cstr(&sb), pair))
            ptoc_strbuf_printf(&sb, "%s%s", sep, pair);
        sep = ", ";
    }
    if (!found)
        ptoc_op_emit_error(op, "moves src in loc=%s to dst in loc=%s, which %s has no kernel for (expected %s)",
                           loc_name(src->loc), loc_name(dst->loc), ptoc_pto_arch_name(arch), ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
    return found;
}

static bool check_layout(const ptoc_op *op, const char *name, const ptoc_pto_tile_desc *t, uint32_t allowed,
                         const move_path *p)
{
    if (layout_of(t) & allowed)
        return true;
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    const char *sep = "";
    for (unsigned i = 0; i < sizeof layout_names / sizeof layout_names[0]; i++)
        if (allowed & (1u << i)) {
            ptoc_strbuf_printf(&sb, "%s%s", sep, layout_names[i]);
            sep = " or ";
        }
    ptoc_op_emit_error(op, "%s of the %s->%s move must be %s, got blayout=%s slayout=%s", name, loc_name(p->src_loc),
                       loc_name(p->dst_loc), ptoc_strbuf_cstr(&sb), ptoc_pto_enum_name(PTOC_PTO_ENUM_BLAYOUT, t->blayout),
                       ptoc_pto_enum_name(PTOC_PTO_ENUM_SLAYOUT, t->slayout));
    ptoc_strbuf_free(&sb);
    return false;
}

static bool check_path_layouts(const ptoc_op *op, const move_path *p, const ptoc_pto_tile_desc *src,
                               const ptoc_pto_tile_desc *dst)
{
    if (!check_layout(op, "src", src, p->src_layouts, p) || !check_layout(op, "dst", dst, p->dst_layouts, p))
        return false;
    if (!p->same_layout || ((layout_of(src) ^ layout_of(dst)) & ~(uint32_t)L_ROW1) == 0)
        return true;
    ptoc_op_emit_error(op, "src and dst of the %s->%s move must have one layout (both ND or both NZ), got %s and %s",
                       loc_name(p->src_loc), loc_name(p->dst_loc),
                       base_layout_name(layout_of(src)), base_layout_name(layout_of(dst)));
    return false;
}

/* The value of an index operand when it is an arith.constant, else -1 with
 * *known false. */
static int64_t constant_index(const ptoc_value *v, bool *known)
{
    ptoc_op *def = ptoc_value_def(v);
    ptoc_attr *a = def && ptoc_op_is(def, "arith.constant") ? ptoc_op_attr(def, "value") : NULL;
    *known = a && a->kind == PTOC_ATTR_INTEGER;
    return *known ? a->u.integer.value : -1;
}

/* indexRow, indexCol (ins 1 and 2): index values, non-negative when known,
 * and the window `rows x cols` at them inside `outer`. */
static bool check_window(const ptoc_op *op, const char *inner_name, const ptoc_pto_tile_desc *inner,
                         const char *outer_name, const ptoc_pto_tile_desc *outer)
{
    static const char *const names[2] = {"indexRow", "indexCol"};
    int64_t extent[2] = {inner->rows, inner->cols}, limit[2] = {outer->rows, outer->cols};
    for (uint32_t k = 0; k < 2; k++) {
        const ptoc_value *v = ptoc_op_operand(op, 1 + k);
        if (v->type->kind != PTOC_TYPE_INDEX) {
            ptoc_op_emit_error(op, "%s must be an index", names[k]);
            return false;
        }
        bool known;
        int64_t at = constant_index(v, &known);
        if (known && at < 0) {
            ptoc_op_emit_error(op, "%s is negative (%lld)", names[k], (long long)at);
            return false;
        }
        if (extent[k] > limit[k]) {
            ptoc_op_emit_error(op, "%s %s (%lld) exceed %s %s (%lld)", inner_name, k ? "cols" : "rows",
                               (long long)extent[k], outer_name, k ? "cols" : "rows", (long long)limit[k]);
            return false;
        }
        if (known && at > limit[k] - extent[k]) {
            ptoc_op_emit_error(op, "%s %s (%lld) at %s %lld do not fit in %s %s (%lld)", inner_name,
                               k ? "cols" : "rows", (long long)extent[k], names[k], (long long)at, outer_name,
                               k ? "cols" : "rows", (long long)limit[k]);
            return false;
        }
    }
    return true;
}

/* textract ins(%src, %indexRow, %indexCol) outs(%dst): the window of dst's
 * shape at (indexRow, indexCol) of src. tinsert ins(%src, %indexRow,
 * %indexCol) outs(%dst): src into dst at (indexRow, indexCol). */
static bool verify_move(const ptoc_op *op, bool extract)
{
    const ptoc_pto_tile_desc *t[4];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op))
        return false;
    if (has_memref_operand(op))
        return true;
    if (!op_arch(op, &arch) || !get_tiles(op, 1u << 1 | 1u << 2, 3, 1, t))
        return false;
    const ptoc_pto_tile_desc *src = t[0], *dst = t[3];
    const move_path *p = find_move_path(op, src, dst, arch);
    return p && check_path_layouts(op, p, src, dst) && pto_check_dtype_rules(op, arch) &&
           (extract ? check_window(op, "dst", dst, "src", src) : check_window(op, "src", src, "dst", dst));
}

bool pto_verify_textract(const ptoc_op *op) { return verify_move(op, true); }

bool pto_verify_tinsert(const ptoc_op *op) { return verify_move(op, false); }

/* tget_scale_addr ins(%src) outs(%dst): dst is the MX scale tile of src, at
 * src's address shifted by the hardware's scale (a5/TGetScaleAddr.hpp, A5
 * alone): a scaling tile of src's shape and valid shape. */
bool pto_verify_tget_scale_addr(const ptoc_op *op)
{
    const ptoc_pto_tile_desc *t[2];
    ptoc_pto_arch arch;
    if (!pto_verify_structure(op) || !op_arch(op, &arch))
        return false;
    if (arch_is_a2a3(arch)) {
        ptoc_op_emit_error(op, "tget_scale_addr is only supported on A5");
        return false;
    }
    if (has_memref_operand(op))
        return true;
    if (!get_tiles(op, 0, 1, 1, t))
        return false;
    if (t[1]->loc != PTOC_PTO_AS_SCALING) {
        ptoc_op_emit_error(op, "dst must be in loc=scaling (the scale tile of src), got loc=%s", loc_name(t[1]->loc));
        return false;
    }
    return check_same_shape(op, "src", t[0], "dst", t[1]);
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
    ptoc_attr *seg = ptoc_op_segment_attr(op);
    int64_t has[3] = {0, 0, 0};
    if (seg)
        memcpy(has, seg->u.dense.values, sizeof has);
    else if (op->noperands > 0) {
        ptoc_op_emit_error(op, "operands need '" PTOC_SEGMENT_SIZES_ATTR "' (addr, valid_row, valid_col)");
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
    return ptoc_pto_check_level_address(op);
}

bool pto_verify_make_tensor_view(const ptoc_op *op)
{
    if (!pto_verify_structure(op) || !check_segments(op, 3))
        return false;
    const ptoc_pto_view *v = ptoc_pto_tensor_view(op->results[0].type);
    ptoc_attr *seg = ptoc_op_segment_attr(op);
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
    ptoc_attr *seg = ptoc_op_segment_attr(op);
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
    const ptoc_type *tile = ptoc_op_operand(op, 0)->type;
    if (!ptoc_pto_tile_buf(tile) && tile->kind != PTOC_TYPE_MEMREF) {
        ptoc_op_emit_error(op, "operand must be a !pto.tile_buf or memref");
        return false;
    }
    ptoc_attr *attr = ptoc_op_attr(op, "addr");
    if (op->noperands == 2) {
        const ptoc_type *addr = ptoc_op_operand(op, 1)->type;
        if (attr) {
            ptoc_op_emit_error(op, "has both an address operand and an 'addr' attribute");
            return false;
        }
        if (addr->kind != PTOC_TYPE_INDEX && !(ptoc_type_is_int(addr) && ptoc_type_bitwidth(addr) == 64)) {
            ptoc_op_emit_error(op, "address must be i64 or index");
            return false;
        }
    } else if (!attr || attr->kind != PTOC_ATTR_INTEGER || attr->u.integer.value < 0) {
        ptoc_op_emit_error(op, "needs an address: an i64 operand or a non-negative integer attribute 'addr'");
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

ptoc_pto_pipe ptoc_pto_pipe_event_pipe(uint32_t event_type)
{
    /* PTOAS's mapSyncOpTypeToPipe (lib/PTO/IR/PTOSyncUtils.cpp) */
    static const ptoc_pto_pipe pipes[] = {
        [PTOC_PTO_EV_TLOAD] = PTOC_PTO_PIPE_MTE2,    [PTOC_PTO_EV_TSTORE_ACC] = PTOC_PTO_PIPE_FIX,
        [PTOC_PTO_EV_TSTORE_VEC] = PTOC_PTO_PIPE_MTE3, [PTOC_PTO_EV_TMOV_M2L] = PTOC_PTO_PIPE_MTE1,
        [PTOC_PTO_EV_TMOV_M2S] = PTOC_PTO_PIPE_FIX,  [PTOC_PTO_EV_TMOV_M2B] = PTOC_PTO_PIPE_MTE1,
        [PTOC_PTO_EV_TMOV_M2V] = PTOC_PTO_PIPE_V,    [PTOC_PTO_EV_TMOV_V2M] = PTOC_PTO_PIPE_FIX,
        [PTOC_PTO_EV_TMATMUL] = PTOC_PTO_PIPE_M,     [PTOC_PTO_EV_TVEC] = PTOC_PTO_PIPE_V,
        [PTOC_PTO_EV_TVECWAIT_EVENT] = PTOC_PTO_PIPE_V,
    };
    return event_type < sizeof pipes / sizeof pipes[0] ? pipes[event_type] : PTOC_PTO_PIPE_NONE;
}

typedef struct move_row { uint8_t src, dst; int8_t pipe; } move_row;

#define PTO_OP(...)
#define PTO_MOVE(src, dst, pipe) {PTOC_PTO_AS_##src, PTOC_PTO_AS_##dst, PTOC_PTO_PIPE_##pipe},
static const move_row move_rows[] = {
#include "dialect/pto_ops.def"
};
#undef PTO_MOVE
#undef PTO_OP

/* The pipe of a move between two spaces (PTOC_PTO_SPACE_ANY: unknown, taken
 * as vec: a tile always knows its space, so only untyped memory lands here).
 * A load the hardware library has no row for (GM into a cube buffer, which
 * PTOAS accepts) is still a GM read by the DMA engine: MTE2. */
static ptoc_pto_pipe move_pipe(int32_t src, int32_t dst)
{
    src = src == PTOC_PTO_SPACE_ANY ? PTOC_PTO_AS_VEC : src;
    dst = dst == PTOC_PTO_SPACE_ANY ? PTOC_PTO_AS_VEC : dst;
    for (size_t i = 0; i < sizeof move_rows / sizeof move_rows[0]; i++)
        if (move_rows[i].src == src && move_rows[i].dst == dst)
            return (ptoc_pto_pipe)move_rows[i].pipe;
    return src == PTOC_PTO_AS_GM ? PTOC_PTO_PIPE_MTE2 : PTOC_PTO_PIPE_V;
}

/* A move has at most five operands and results (textract_fp's four ins and
 * its out; tmov's src, dst, fp and pre-quant scalar), so its accesses fit
 * here; a malformed op with more is left to its verifier and runs on V. */
#define MOVE_ACCESSES 8

/* A move's source is its first in (access role 0) and its destination the
 * one operand it writes (tinsert's is also read; tmov's fp tile, after its
 * out, is only read). */
static ptoc_pto_pipe op_move_pipe(const ptoc_op *op)
{
    ptoc_pto_access acc[MOVE_ACCESSES];
    if (ptoc_pto_op_max_accesses(op) > MOVE_ACCESSES)
        return PTOC_PTO_PIPE_V;
    uint32_t n = ptoc_pto_op_accesses(op, acc);
    const ptoc_pto_access *src = NULL, *dst = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (acc[i].role == 0)
            src = &acc[i];
        if (acc[i].write && acc[i].role > 0 && !dst)
            dst = &acc[i];
    }
    if (!src || !dst)
        return PTOC_PTO_PIPE_V;
    return move_pipe(src->space, dst->space);
}

bool ptoc_pto_move_at(size_t i, ptoc_pto_address_space *src, ptoc_pto_address_space *dst, ptoc_pto_pipe *pipe)
{
    if (i >= sizeof move_rows / sizeof move_rows[0])
        return false;
    *src = (ptoc_pto_address_space)move_rows[i].src;
    *dst = (ptoc_pto_address_space)move_rows[i].dst;
    *pipe = (ptoc_pto_pipe)move_rows[i].pipe;
    return true;
}

/* Whether `op` is an integer tdivs on A2/A3, which the hardware library runs
 * on the scalar unit, element by element (TDivs_naive and TSDiv_naive in
 * pto-isa include/pto/npu/a2a3/TDivS.hpp): the vector unit divides floats
 * only. Its pipe is S there, so sync orders it against the vector pipe as the
 * library's own V-to-S and S-to-V flags do. tshl and tshr (tile amounts) are
 * scalar loops there too (TShl.hpp, TShr.hpp), and so is tci (TCI.hpp). */
static bool scalar_tdivs(const ptoc_op *op)
{
    if (!ptoc_pto_is(op, PTOC_PTO_OP_TDIVS) && !ptoc_pto_is(op, PTOC_PTO_OP_TSHL) &&
        !ptoc_pto_is(op, PTOC_PTO_OP_TSHR) && !ptoc_pto_is(op, PTOC_PTO_OP_TCI))
        return false;
    if (!op->noperands)
        return false;
    const ptoc_pto_tile_desc *dst = ptoc_pto_tile_buf(ptoc_op_operand(op, op->noperands - 1)->type);
    if (!dst || !ptoc_type_is_int(dst->elem))
        return false;
    const ptoc_pto_arch_info *arch = ptoc_pto_arch_info_of(ptoc_pto_target_arch(op, NULL));
    return arch && arch->dtypes == PTOC_PTO_DTYPE_COLUMN_A2A3;
}

bool ptoc_pto_a2a3_scalar_unit(ptoc_pto_op_id opcode, bool is_int, unsigned bits, bool is_unsigned)
{
    static const ptoc_pto_op_id any[] = {
        PTOC_PTO_OP_TREM, PTOC_PTO_OP_TREMS, PTOC_PTO_OP_TFMOD, PTOC_PTO_OP_TFMODS, PTOC_PTO_OP_TADDC,
        PTOC_PTO_OP_TSUBC, PTOC_PTO_OP_TADDSC, PTOC_PTO_OP_TSUBSC, PTOC_PTO_OP_TAXPY, PTOC_PTO_OP_TPRELU,
        PTOC_PTO_OP_TLRELU};
    for (size_t i = 0; i < sizeof any / sizeof any[0]; i++)
        if (opcode == any[i])
            return true;
    if (opcode == PTOC_PTO_OP_TSHRS)
        return is_int && !is_unsigned;
    return opcode == PTOC_PTO_OP_TRECIP && is_int;
}

/* A bitwise op on 8-bit tiles one of which is not a row-major none_box vec
 * tile of whole 32-byte rows: the vector lowering views bytes as u16 lanes of
 * such rows (passes/lower_a2a3_bytes.c); any other layout runs on the scalar
 * unit. */
static bool scalar_bytes(const ptoc_op *op, const ptoc_type *e)
{
    static const ptoc_pto_op_id bytes[] = {PTOC_PTO_OP_TAND, PTOC_PTO_OP_TOR, PTOC_PTO_OP_TXOR,
                                           PTOC_PTO_OP_TANDS, PTOC_PTO_OP_TORS, PTOC_PTO_OP_TXORS,
                                           PTOC_PTO_OP_TNOT};
    bool listed = false;
    for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++)
        listed |= ptoc_pto_opcode(op) == bytes[i];
    if (!listed || !ptoc_type_is_int(e) || ptoc_type_bitwidth(e) != 8)
        return false;
    for (uint32_t i = 0; i < op->noperands; i++) {
        const ptoc_type *t = ptoc_op_operand(op, i)->type;
        const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(t);
        if (d && (d->loc != PTOC_PTO_AS_VEC || d->blayout != PTOC_PTO_BL_ROW_MAJOR ||
                  d->slayout != PTOC_PTO_SL_NONE_BOX || d->cols % 32 != 0))
            return true;
        if (!d && t->kind == PTOC_TYPE_MEMREF && (t->u.shaped.rank != 2 || t->u.shaped.shape[1] % 32 != 0))
            return true;
    }
    return false;
}

/* The element type of the op's last operand (its dst in the DPS form): a
 * tile_buf's or a memref's; NULL for anything else. */
static const ptoc_type *dst_elem(const ptoc_op *op)
{
    if (!op->noperands)
        return NULL;
    const ptoc_type *t = ptoc_op_operand(op, op->noperands - 1)->type;
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(t);
    return d ? d->elem : t->kind == PTOC_TYPE_MEMREF ? t->u.shaped.elem : NULL;
}

/* Whether `op` on A2/A3 runs on the scalar unit in ptoc (ptoc_pto_a2a3_scalar_unit). */
static bool scalar_a2a3(const ptoc_op *op)
{
    const ptoc_type *e = dst_elem(op);
    const ptoc_pto_arch_info *arch = ptoc_pto_arch_info_of(ptoc_pto_target_arch(op, NULL));
    if (!e || !arch || arch->dtypes != PTOC_PTO_DTYPE_COLUMN_A2A3)
        return false;
    bool is_int = ptoc_type_is_int(e);
    if (scalar_bytes(op, e))
        return true;
    return ptoc_pto_a2a3_scalar_unit(ptoc_pto_opcode(op), is_int, ptoc_type_bitwidth(e),
                                     is_int && e->u.integer.sign == PTOC_UNSIGNED);
}

/* A push reads its tile on the producer's pipe: FIX for an L0C tile (the
 * cube's fixpipe moves C2V data), MTE3 for a UB tile (V2C data leaves by
 * TSTORE/TMOV; pto-isa TPUSH). */
static ptoc_pto_pipe push_pipe(const ptoc_op *op)
{
    const ptoc_pto_tile_desc *d = op->noperands ? ptoc_pto_tile_like(ptoc_op_operand(op, 0)->type) : NULL;
    if (!d)
        return PTOC_PTO_PIPE_NONE;
    return d->loc == PTOC_PTO_AS_ACC ? PTOC_PTO_PIPE_FIX : d->loc == PTOC_PTO_AS_VEC ? PTOC_PTO_PIPE_MTE3
                                                                                   : PTOC_PTO_PIPE_NONE;
}

/* A pop writes its tile, for this core, on the pipe that waits for it: on A5
 * (and cpu, which follows A5) V for a vector core's UB tile and MTE1 for the
 * cube's L1 one (the producer wrote the slot); on A2/A3 MTE2, which loads
 * the tile from the GM slot (pto-isa TPipe::Consumer::wait; the runtime's
 * pipe simulator logs the pop so, runtime/xcore.c). */
static ptoc_pto_pipe pop_pipe(const ptoc_op *op)
{
    const ptoc_value *t = op->nresults ? &op->results[0] : op->noperands ? ptoc_op_operand(op, 0) : NULL;
    const ptoc_pto_tile_desc *d = t ? ptoc_pto_tile_like(t->type) : NULL;
    if (!d || (d->loc != PTOC_PTO_AS_VEC && d->loc != PTOC_PTO_AS_MAT))
        return PTOC_PTO_PIPE_NONE;
    ptoc_pto_arch arch = ptoc_pto_target_arch(op, NULL);
    if (arch == PTOC_PTO_ARCH_A2 || arch == PTOC_PTO_ARCH_A3)
        return PTOC_PTO_PIPE_MTE2;
    return d->loc == PTOC_PTO_AS_VEC ? PTOC_PTO_PIPE_V : PTOC_PTO_PIPE_MTE1;
}

bool ptoc_pto_a5_scalar_unit(ptoc_pto_op_id opcode, bool is_float)
{
    return is_float && (opcode == PTOC_PTO_OP_TREM || opcode == PTOC_PTO_OP_TREMS || opcode == PTOC_PTO_OP_TFMOD ||
                        opcode == PTOC_PTO_OP_TFMODS);
}

/* Whether `op` on A5 runs on the scalar unit in ptoc (ptoc_pto_a5_scalar_unit). */
static bool scalar_a5(const ptoc_op *op)
{
    const ptoc_type *e = dst_elem(op);
    const ptoc_pto_arch_info *arch = ptoc_pto_arch_info_of(ptoc_pto_target_arch(op, NULL));
    return e && arch && arch->dtypes == PTOC_PTO_DTYPE_COLUMN_A5 &&
           ptoc_pto_a5_scalar_unit(ptoc_pto_opcode(op), ptoc_type_is_float(e));
}

ptoc_pto_pipe ptoc_pto_op_pipe(const ptoc_op *op)
{
    const ptoc_pto_op_info *info = ptoc_pto_op_info_of(op);
    if (!info)
        return PTOC_PTO_PIPE_NONE;
    switch (ptoc_pto_opcode(op)) {
    case PTOC_PTO_OP_TPUSH_TO_AIV: case PTOC_PTO_OP_TPUSH_TO_AIC: case PTOC_PTO_OP_TPUSH:
        return push_pipe(op);
    case PTOC_PTO_OP_TPOP_FROM_AIC: case PTOC_PTO_OP_TPOP_FROM_AIV: case PTOC_PTO_OP_TPOP:
        return pop_pipe(op);
    default:
        break;
    }
    if (info->pipe == PTOC_PTO_PIPE_BY_SPACES)
        return op_move_pipe(op);
    if (scalar_tdivs(op) || scalar_a2a3(op) || scalar_a5(op))
        return PTOC_PTO_PIPE_S;
    return (ptoc_pto_pipe)info->pipe;
}
