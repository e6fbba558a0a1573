/* pto_dtypes.c: the per-target element type table (pto_dtypes.def) and the
 * checks that read it.
 *
 * The table is expanded twice: once into the rule rows (set and same-type
 * rows, in file order) and once into the operand-role rows. A verifier calls
 * pto_check_dtype_rules after its structural checks; the rows of the op are
 * checked in order and the first one broken is the diagnostic. A row applies
 * when its `when` conditions hold for the op in hand, so conditional rows (a
 * tcvt destination per source type, a textract per location pair) need no
 * code of their own.
 */
#include <pthread.h>
#include <string.h>

#include "dialect/pto_dtypes.h"
#include "dialect/pto_internal.h"

/* ---------------------------------------------------------------- the table */

static const ptoc_pto_dtype_rule rules[] = {
#define PTO_DTYPES(op, role, when, a2a3, a5, cpu)                                                              \
    {PTOC_PTO_OP_##op, role, when, NULL, (a2a3), (a5), (cpu) == PTO_DTYPES_UNION ? (a2a3) | (a5) : (cpu)},
#define PTO_SAME(op, role, when, as) {PTOC_PTO_OP_##op, role, when, as, 0, 0, 0},
#include "dialect/pto_dtypes.def"
};
#define NRULES (sizeof rules / sizeof rules[0])

static const struct {
    ptoc_pto_op_id op;
    const char *ins, *outs, *both;
} operand_rows[] = {
#define PTO_OPERANDS(op, ins, outs) {PTOC_PTO_OP_##op, ins, outs, ins " | " outs},
#include "dialect/pto_dtypes.def"
};
#define NOPERAND_ROWS (sizeof operand_rows / sizeof operand_rows[0])

size_t ptoc_pto_dtype_rule_count(void) { return NRULES; }

const ptoc_pto_dtype_rule *ptoc_pto_dtype_rule_at(size_t i)
{
    return i < NRULES ? &rules[i] : NULL;
}

uint32_t ptoc_pto_dtype_rule_set(const ptoc_pto_dtype_rule *rule, ptoc_pto_arch arch)
{
    const ptoc_pto_arch_info *row = ptoc_pto_arch_info_of(arch);
    if (!row)
        return 0;
    switch (row->dtypes) {
    case PTOC_PTO_DTYPE_COLUMN_A2A3: return rule->a2a3;
    case PTOC_PTO_DTYPE_COLUMN_A5: return rule->a5;
    case PTOC_PTO_DTYPE_COLUMN_UNION: return rule->cpu;
    }
    return 0;
}

/* ---------------------------------------------------------------- the index */

/* Each opcode's rows, from one pass over the table: its rule rows are one run
 * (the table keeps an op's rows together), so the first and the last bound it.
 * Filled once, before the first lookup, by whichever thread comes first;
 * pthread_once, as the op table's set-up (pto_ops.c), so that ThreadSanitizer
 * sees the order. */
static pto_dtype_rows op_rows[PTOC_PTO_OP_COUNT];
static pthread_once_t op_rows_once = PTHREAD_ONCE_INIT;

static void index_rows(void)
{
    for (size_t op = 0; op < PTOC_PTO_OP_COUNT; op++)
        op_rows[op] = (pto_dtype_rows){0, 0, -1};
    for (size_t i = NRULES; i-- > 0;) {
        pto_dtype_rows *r = &op_rows[rules[i].op];
        r->begin = (uint16_t)i;
        if (!r->end)
            r->end = (uint16_t)(i + 1);
    }
    for (size_t i = 0; i < NOPERAND_ROWS; i++)
        op_rows[operand_rows[i].op].operands = (int16_t)i;
}

static const pto_dtype_rows *rows_of(ptoc_pto_op_id opcode)
{
    static const pto_dtype_rows none = {0, 0, -1};
    if (opcode < 0 || opcode >= PTOC_PTO_OP_COUNT)
        return &none;
    pthread_once(&op_rows_once, index_rows);
    return &op_rows[opcode];
}

const pto_dtype_rows *pto_op_dtype_rows(const ptoc_op *op) { return rows_of(ptoc_pto_opcode(op)); }

const char *ptoc_pto_op_roles(ptoc_pto_op_id opcode)
{
    int r = rows_of(opcode)->operands;
    return r < 0 ? NULL : operand_rows[r].both;
}

/* ---------------------------------------------------------------- classes */

static const char *const class_names[PTOC_PTO_DT_COUNT] = {
    "i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "ui64", "f16", "bf16", "f32", "f8E4M3", "f8E5M2", "other",
};

const char *ptoc_pto_dtype_class_name(uint32_t bit)
{
    for (unsigned i = 0; i < PTOC_PTO_DT_COUNT; i++)
        if (bit == 1u << i)
            return class_names[i];
    return NULL;
}

static uint32_t class_by_name(const char *s, size_t n)
{
    for (unsigned i = 0; i < PTOC_PTO_DT_COUNT; i++)
        if (strlen(class_names[i]) == n && strncmp(class_names[i], s, n) == 0)
            return 1u << i;
    return 0;
}

static uint32_t int_class(unsigned width, bool is_unsigned)
{
    switch (width) {
    case 8: return is_unsigned ? PTOC_PTO_DT_U8 : PTOC_PTO_DT_I8;
    case 16: return is_unsigned ? PTOC_PTO_DT_U16 : PTOC_PTO_DT_I16;
    case 32: return is_unsigned ? PTOC_PTO_DT_U32 : PTOC_PTO_DT_I32;
    case 64: return is_unsigned ? PTOC_PTO_DT_U64 : PTOC_PTO_DT_I64;
    default: return PTOC_PTO_DT_OTHER;
    }
}

static uint32_t float_class(ptoc_float_kind kind)
{
    switch (kind) {
    case PTOC_F16: return PTOC_PTO_DT_F16;
    case PTOC_BF16: return PTOC_PTO_DT_BF16;
    case PTOC_F32: return PTOC_PTO_DT_F32;
    case PTOC_F8E4M3: case PTOC_F8E4M3FN: case PTOC_F8E4M3FNUZ: case PTOC_F8E4M3B11FNUZ:
        return PTOC_PTO_DT_F8E4M3;
    case PTOC_F8E5M2: case PTOC_F8E5M2FNUZ: return PTOC_PTO_DT_F8E5M2;
    default: return PTOC_PTO_DT_OTHER;
    }
}

uint32_t ptoc_pto_dtype_class(const ptoc_type *elem)
{
    if (ptoc_type_is_int(elem))
        return int_class(elem->u.integer.width, elem->u.integer.sign == PTOC_UNSIGNED);
    if (ptoc_type_is_float(elem))
        return float_class(elem->u.fp.kind);
    return PTOC_PTO_DT_OTHER;
}

/* ---------------------------------------------------------------- roles */

/* Position of `role` in the space-separated `list`, or -1. */
static int role_index(const char *list, const char *role)
{
    size_t n = strlen(role);
    int i = 0;
    for (const char *p = list; *p; i++) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (len == n && strncmp(p, role, n) == 0)
            return i;
        p += len;
        while (*p == ' ')
            p++;
    }
    return -1;
}

/* The word at position `i` of `list` into buf, or NULL. */
static const char *role_at(const char *list, uint32_t i, char *buf, size_t n)
{
    const char *p = list;
    for (uint32_t k = 0;; k++) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            return NULL;
        if (k == i) {
            snprintf(buf, n, "%.*s", (int)len, p);
            return buf;
        }
        p += len;
    }
}

static bool is_tile_type(const ptoc_type *t)
{
    return t && ptoc_pto_tile_like(t);
}

/* tdivs takes its scalar first too (scalar / tile): its roles then swap. */
static bool scalar_first(const ptoc_op *op, uint32_t nins)
{
    return nins == 2 && !is_tile_type(ptoc_op_operand(op, 0)->type) && is_tile_type(ptoc_op_operand(op, 1)->type) &&
           ptoc_pto_is(op, PTOC_PTO_OP_TDIVS);
}

ptoc_type *pto_role_type(const ptoc_op *op, const char *role)
{
    int r = pto_op_dtype_rows(op)->operands;
    uint32_t nins, nouts;
    if (r < 0 || !ptoc_pto_dps_split(op, &nins, &nouts))
        return NULL;
    int i = role_index(operand_rows[r].ins, role);
    if (i >= 0) {
        if (scalar_first(op, nins))
            i = 1 - i;
        return (uint32_t)i < nins && (uint32_t)i < op->noperands ? ptoc_op_operand(op, (uint32_t)i)->type : NULL;
    }
    int j = role_index(operand_rows[r].outs, role);
    if (j < 0 || (uint32_t)j >= nouts)
        return NULL;
    if (!ptoc_op_segment_attr(op) && op->nresults > 0)
        return (uint32_t)j < op->nresults ? op->results[j].type : NULL;
    return nins + (uint32_t)j < op->noperands ? ptoc_op_operand(op, nins + (uint32_t)j)->type : NULL;
}

const char *pto_role_name(const ptoc_op *op, bool out, uint32_t i, char *buf, size_t n)
{
    int r = pto_op_dtype_rows(op)->operands;
    return r < 0 ? NULL : role_at(out ? operand_rows[r].outs : operand_rows[r].ins, i, buf, n);
}

ptoc_pto_scaling_buffer ptoc_pto_scaling_buffer_of(const ptoc_op *op, uint32_t i)
{
    char buf[32];
    const char *role = ptoc_pto_op_info_of(op) ? pto_role_name(op, false, i, buf, sizeof buf) : NULL;
    if (role && strcmp(role, "a_scale") == 0)
        return PTOC_PTO_SCALING_LEFT;
    if (role && strcmp(role, "b_scale") == 0)
        return PTOC_PTO_SCALING_RIGHT;
    return PTOC_PTO_SCALING_FB;
}

/* ---------------------------------------------------------------- conditions */

/* One condition "role=class" or "role@loc" of `when`, `len` bytes at `c`. */
static bool condition_holds(const ptoc_op *op, const char *c, size_t len)
{
    size_t cut = strcspn(c, "=@");
    char role[32];
    if (cut >= len || cut >= sizeof role)
        return false;
    snprintf(role, sizeof role, "%.*s", (int)cut, c);
    ptoc_type *t = pto_role_type(op, role);
    const ptoc_pto_tile_desc *d = t ? ptoc_pto_tile_like(t) : NULL;
    if (!d)
        return false;
    const char *value = c + cut + 1;
    size_t vlen = len - cut - 1;
    if (c[cut] == '=')
        return ptoc_pto_dtype_class(d->elem) == class_by_name(value, vlen);
    const char *loc = ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, d->loc);
    return loc && strlen(loc) == vlen && strncmp(loc, value, vlen) == 0;
}

static bool when_holds(const ptoc_op *op, const char *when)
{
    for (const char *p = when; *p;) {
        size_t len = strcspn(p, " ");
        if (len && !condition_holds(op, p, len))
            return false;
        p += len;
        while (*p == ' ')
            p++;
    }
    return true;
}

/* " when src is f32 and dst is in loc=mat" for a `when` of "src=f32 dst@mat". */
static void append_when(ptoc_strbuf *sb, const char *when)
{
    const char *sep = " when ";
    for (const char *p = when; *p;) {
        size_t len = strcspn(p, " ");
        size_t cut = strcspn(p, "=@");
        if (len && cut < len)
            ptoc_strbuf_printf(sb, "%s%.*s is %s%.*s", sep, (int)cut, p, p[cut] == '@' ? "in loc=" : "",
                               (int)(len - cut - 1), p + cut + 1);
        sep = " and ";
        p += len;
        while (*p == ' ')
            p++;
    }
}

/* ---------------------------------------------------------------- checks */

static void append_type(ptoc_strbuf *sb, const ptoc_type *t) { ptoc_print_type_to(sb, t); }

bool pto_check_dtype_set(const ptoc_op *op, const char *role, const char *when, const ptoc_type *elem, uint32_t set,
                         ptoc_pto_arch arch)
{
    if (ptoc_pto_dtype_class(elem) & set)
        return true;
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    append_type(&sb, elem);
    ptoc_strbuf_printf(&sb, " is not supported on %s", ptoc_pto_arch_name(arch));
    append_when(&sb, when);
    ptoc_strbuf_puts(&sb, set ? " (expected one of" : " (the hardware implements none");
    for (unsigned i = 0; i < PTOC_PTO_DT_COUNT; i++)
        if (set & (1u << i))
            ptoc_strbuf_printf(&sb, " %s", class_names[i]);
    ptoc_strbuf_puts(&sb, ")");
    ptoc_op_emit_error(op, "%s element type %s", role, ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sb);
    return false;
}

static bool check_set_row(const ptoc_op *op, const ptoc_pto_dtype_rule *r, const ptoc_type *elem,
                          ptoc_pto_arch arch)
{
    return pto_check_dtype_set(op, r->role, r->when, elem, ptoc_pto_dtype_rule_set(r, arch), arch);
}

static bool check_same_row(const ptoc_op *op, const ptoc_pto_dtype_rule *r, const ptoc_type *elem)
{
    ptoc_type *other = pto_role_type(op, r->same_as);
    const ptoc_pto_tile_desc *d = other ? ptoc_pto_tile_like(other) : NULL;
    if (!d || d->elem == elem)
        return true;
    ptoc_strbuf sa, sb;
    ptoc_strbuf_init(&sa, ptoc_op_context(op));
    ptoc_strbuf_init(&sb, ptoc_op_context(op));
    append_type(&sa, elem);
    append_type(&sb, d->elem);
    ptoc_op_emit_error(op, "%s element type %s does not match %s element type %s", r->role, ptoc_strbuf_cstr(&sa),
                       r->same_as, ptoc_strbuf_cstr(&sb));
    ptoc_strbuf_free(&sa);
    ptoc_strbuf_free(&sb);
    return false;
}

bool pto_check_dtype_rules(const ptoc_op *op, ptoc_pto_arch arch)
{
    const pto_dtype_rows *rows = pto_op_dtype_rows(op);
    for (size_t i = rows->begin; i < rows->end; i++) {
        const ptoc_pto_dtype_rule *r = &rules[i];
        ptoc_type *t = pto_role_type(op, r->role);
        const ptoc_pto_tile_desc *d = t ? ptoc_pto_tile_like(t) : NULL;
        if (!d || !when_holds(op, r->when))
            continue;                  /* absent, a scalar or a view: other checks' business */
        if (r->same_as ? !check_same_row(op, r, d->elem) : !check_set_row(op, r, d->elem, arch))
            return false;
    }
    return true;
}

bool pto_op_unimplemented_on(const ptoc_op *op, ptoc_pto_arch arch)
{
    const pto_dtype_rows *rows = pto_op_dtype_rows(op);
    bool any = false;
    for (size_t i = rows->begin; i < rows->end; i++) {
        if (rules[i].same_as)
            continue;
        if (ptoc_pto_dtype_rule_set(&rules[i], arch))
            return false;
        any = true;
    }
    return any;
}
