/* arith.c: the arith dialect of MLIR 19: constants, integer and float arithmetic,
 * comparisons, select and casts. Every op is pure.
 *
 *   %c = arith.constant 42 : i32          %t = arith.constant true
 *   %r = arith.addi %a, %b [overflow<nsw, nuw>] : i32
 *   %r = arith.addf %a, %b [fastmath<fast>] : f32      %n = arith.negf %a : f32
 *   %p = arith.cmpi slt, %a, %b : i32     %q = arith.cmpf olt, %x, %y : f32
 *   %s = arith.select %p, %a, %b : i32    (vector conditions: `: vector<4xi1>, vector<4xi32>`)
 *   %i = arith.index_cast %a : index to i32
 *   %sum, %ovf = arith.addui_extended %a, %b : i32, i1
 *   %lo, %hi = arith.mului_extended %a, %b : i32
 *
 * Representation as MLIR: `value` on constants, `predicate = N : i64` (MLIR's
 * numbering) on comparisons, `overflowFlags = #arith.overflow<...>` on addi, subi,
 * muli and shli, `fastmath = #arith.fastmath<...>` on float arithmetic and cmpf.
 * The two flag attributes are real attributes of this dialect (a uint32_t bit set).
 * A custom form without flags gets the default `none` attribute, as MLIR's parser
 * does, and the printer leaves a `none` out.
 *
 * One row per op; the row's data is an arith_info that says which form the op
 * takes and which kinds of types it accepts, so one parse/print/verify function
 * serves each form.
 */
#include "ptoc/ptoc.h"

#include <string.h>

#include "dialect/upstream.h"

static const ptoc_dialect arith_dialect;

/* ---------------------------------------------------------------- op descriptions */

typedef enum arith_cat {          /* what a type (or its element type) must be */
    CAT_INT_OR_INDEX,             /* signless integer or index */
    CAT_INT,                      /* signless integer */
    CAT_FLOAT,
    CAT_INT_OR_FLOAT,             /* signless integer or float (bitcast) */
} arith_cat;

static const char *const cat_names[] = {
    [CAT_INT_OR_INDEX] = "signless-integer-like",
    [CAT_INT] = "signless-fixed-width-integer-like",
    [CAT_FLOAT] = "floating-point-like",
    [CAT_INT_OR_FLOAT] = "signless-integer-or-float-like",
};

typedef enum arith_flags_kind { FLAGS_NONE, FLAGS_OVERFLOW, FLAGS_FASTMATH } arith_flags_kind;

typedef enum cast_rule {          /* how a cast's result width relates to its operand's */
    CAST_ANY, CAST_WIDER, CAST_NARROWER, CAST_SAME_WIDTH,
    CAST_INDEX,                   /* exactly one side is index */
} cast_rule;

typedef struct arith_info {
    arith_cat in, out;            /* operand and result categories */
    arith_flags_kind flags;
    cast_rule rule;               /* casts */
    const char *const *predicates; /* comparisons: MLIR's numbering */
    uint32_t npredicates;
} arith_info;

static const char *const cmpi_predicates[] = {
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
};
static const char *const cmpf_predicates[] = {
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
};

static const arith_info int_op = {CAT_INT_OR_INDEX, CAT_INT_OR_INDEX, FLAGS_NONE, CAST_ANY, NULL, 0};
static const arith_info int_ovf_op = {CAT_INT_OR_INDEX, CAT_INT_OR_INDEX, FLAGS_OVERFLOW, CAST_ANY, NULL, 0};
static const arith_info float_op = {CAT_FLOAT, CAT_FLOAT, FLAGS_FASTMATH, CAST_ANY, NULL, 0};
static const arith_info cmpi_op = {CAT_INT_OR_INDEX, CAT_INT, FLAGS_NONE, CAST_ANY, cmpi_predicates, 10};
static const arith_info cmpf_op = {CAT_FLOAT, CAT_INT, FLAGS_FASTMATH, CAST_ANY, cmpf_predicates, 16};
static const arith_info plain_op = {CAT_INT_OR_INDEX, CAT_INT_OR_INDEX, FLAGS_NONE, CAST_ANY, NULL, 0};
static const arith_info index_cast = {CAT_INT_OR_INDEX, CAT_INT_OR_INDEX, FLAGS_NONE, CAST_INDEX, NULL, 0};
static const arith_info int_extend = {CAT_INT, CAT_INT, FLAGS_NONE, CAST_WIDER, NULL, 0};
static const arith_info int_truncate = {CAT_INT, CAT_INT, FLAGS_NONE, CAST_NARROWER, NULL, 0};
static const arith_info int_to_float = {CAT_INT, CAT_FLOAT, FLAGS_NONE, CAST_ANY, NULL, 0};
static const arith_info float_to_int = {CAT_FLOAT, CAT_INT, FLAGS_NONE, CAST_ANY, NULL, 0};
static const arith_info float_extend = {CAT_FLOAT, CAT_FLOAT, FLAGS_NONE, CAST_WIDER, NULL, 0};
static const arith_info float_truncate = {CAT_FLOAT, CAT_FLOAT, FLAGS_NONE, CAST_NARROWER, NULL, 0};
static const arith_info bit_cast = {CAT_INT_OR_FLOAT, CAT_INT_OR_FLOAT, FLAGS_NONE, CAST_SAME_WIDTH, NULL, 0};

/* ---------------------------------------------------------------- flag attributes */

enum { ARITH_ATTR_OVERFLOW, ARITH_ATTR_FASTMATH };

typedef struct flag_name { const char *name; uint32_t bits; } flag_name;

/* Names in MLIR's printing order; a name covering several bits is printed only
 * when the value is exactly those bits (`fast`). */
static const flag_name overflow_names[] = {{"none", 0}, {"nsw", 1}, {"nuw", 2}};
static const flag_name fastmath_names[] = {
    {"none", 0}, {"reassoc", 1}, {"nnan", 2}, {"ninf", 4}, {"nsz", 8},
    {"arcp", 16}, {"contract", 32}, {"afn", 64}, {"fast", 127},
};

typedef struct flag_set {
    const char *mnemonic;         /* `#arith.<mnemonic><...>` and the custom-form keyword */
    const char *attr_name;        /* the op attribute holding it */
    const char *separator;        /* MLIR prints `nsw, nuw` but `nnan,ninf` */
    const char *constraint;       /* for the verifier's message */
    const flag_name *names;
    size_t nnames;
} flag_set;

static const flag_set flag_sets[] = {
    [ARITH_ATTR_OVERFLOW] = {"overflow", "overflowFlags", ", ", "Integer overflow arith flags",
                             overflow_names, sizeof overflow_names / sizeof overflow_names[0]},
    [ARITH_ATTR_FASTMATH] = {"fastmath", "fastmath", ",", "Floating point fast math flags",
                             fastmath_names, sizeof fastmath_names / sizeof fastmath_names[0]},
};

static const flag_set *flag_set_of(arith_flags_kind kind)
{
    return kind == FLAGS_OVERFLOW   ? &flag_sets[ARITH_ATTR_OVERFLOW]
           : kind == FLAGS_FASTMATH ? &flag_sets[ARITH_ATTR_FASTMATH]
                                    : NULL;
}

static ptoc_attr *flag_attr(ptoc_context *ctx, const flag_set *set, uint32_t bits)
{
    uint32_t kind = (uint32_t)(set - flag_sets);
    return ptoc_attr_dialect(ctx, &arith_dialect, kind, &bits, sizeof bits);
}

/* The bits of a flag attribute of `set`; false if `a` is not one. */
static bool flag_bits(const ptoc_attr *a, const flag_set *set, uint32_t *bits)
{
    const void *data = ptoc_attr_dialect_data(a, &arith_dialect, (uint32_t)(set - flag_sets));
    if (!data)
        return false;
    memcpy(bits, data, sizeof *bits);
    return true;
}

/* `<name, name>` with the `<` still to come. */
static bool parse_flag_list(ptoc_parser *p, const flag_set *set, uint32_t *bits)
{
    *bits = 0;
    if (!ptoc_parse_expect(p, "<"))
        return false;
    do {
        ptoc_loc loc = ptoc_parser_loc(p);
        ptoc_ident *word;
        if (!ptoc_parse_keyword(p, &word, "a flag name"))
            return false;
        size_t i = 0;
        while (i < set->nnames && strcmp(set->names[i].name, word->str))
            i++;
        if (i == set->nnames) {
            ptoc_strbuf all;
            ptoc_strbuf_init(&all, NULL);
            for (size_t j = 0; j < set->nnames; j++)
                ptoc_strbuf_printf(&all, "%s%s", j ? ", " : "", set->names[j].name);
            ptoc_parser_error_at(p, loc, "expected %s flag to be one of: %s", set->mnemonic,
                                 ptoc_strbuf_cstr(&all));
            ptoc_strbuf_free(&all);
            return false;
        }
        *bits |= set->names[i].bits;
    } while (ptoc_parse_optional(p, ","));
    return ptoc_parse_expect(p, ">");
}

static void print_flag_list(ptoc_printer *p, const flag_set *set, uint32_t bits)
{
    ptoc_print_str(p, "<");
    for (size_t i = 0; i < set->nnames; i++) {
        if (set->names[i].bits == bits) {
            ptoc_print_fmt(p, "%s>", set->names[i].name);
            return;
        }
    }
    const char *sep = "";
    for (size_t i = 0; i < set->nnames; i++) {
        uint32_t b = set->names[i].bits;
        bool single = b != 0 && (b & (b - 1)) == 0;
        if (single && (bits & b)) {
            ptoc_print_fmt(p, "%s%s", sep, set->names[i].name);
            sep = set->separator;
        }
    }
    ptoc_print_str(p, ">");
}

/* The dialect's attribute hooks: `#arith.overflow<...>` and `#arith.fastmath<...>`. */
static ptoc_attr *arith_parse_attr(ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed)
{
    (void)enclosed;     /* `#arith<overflow<nsw>>` reads the same up to the final `>` */
    for (size_t i = 0; i < sizeof flag_sets / sizeof flag_sets[0]; i++) {
        uint32_t bits;
        if (strcmp(mnemonic->str, flag_sets[i].mnemonic))
            continue;
        if (!parse_flag_list(p, &flag_sets[i], &bits))
            return NULL;
        return flag_attr(ptoc_parser_context(p), &flag_sets[i], bits);
    }
    ptoc_parser_error(p, "unknown attribute '#arith.%s'", mnemonic->str);
    return NULL;
}

static void arith_print_attr(ptoc_printer *p, const ptoc_attr *a)
{
    const flag_set *set = &flag_sets[a->u.dialect.kind];
    uint32_t bits = 0;
    flag_bits(a, set, &bits);
    ptoc_print_fmt(p, "#arith.%s", set->mnemonic);
    print_flag_list(p, set, bits);
}

/* `overflow<...>` / `fastmath<...>` in a custom form; adds the attribute (the
 * default `none` when absent). */
static bool parse_flags_clause(ptoc_parser *p, ptoc_op_state *st, arith_flags_kind kind)
{
    const flag_set *set = flag_set_of(kind);
    uint32_t bits = 0;
    if (!set)
        return true;
    if (ptoc_parse_optional(p, set->mnemonic)) {
        if (!parse_flag_list(p, set, &bits))
            return false;
    } else if (ptoc_parser_failed(p)) {
        return false;
    }
    ptoc_upstream_add_attr(p, st, set->attr_name, flag_attr(ptoc_parser_context(p), set, bits));
    return true;
}

/* ` overflow<...>` unless the flags are the default. */
static void print_flags_clause(ptoc_printer *p, const ptoc_op *op, arith_flags_kind kind)
{
    const flag_set *set = flag_set_of(kind);
    ptoc_attr *a = set ? ptoc_op_attr(op, set->attr_name) : NULL;
    uint32_t bits;
    if (!a || !flag_bits(a, set, &bits) || bits == 0)
        return;
    ptoc_print_fmt(p, " %s", set->mnemonic);
    print_flag_list(p, set, bits);
}

/* Prints the attribute dictionary without the flags attribute (and `extra`). */
static void print_attrs_except(ptoc_printer *p, const ptoc_op *op, arith_flags_kind kind,
                               const char *extra)
{
    const char *elided[2];
    size_t n = 0;
    const flag_set *set = flag_set_of(kind);
    ptoc_attr *a = set ? ptoc_op_attr(op, set->attr_name) : NULL;
    uint32_t bits;
    /* A flags attribute that is not ours would be lost if elided; print it. */
    if (a && flag_bits(a, set, &bits))
        elided[n++] = set->attr_name;
    if (extra)
        elided[n++] = extra;
    ptoc_print_attr_dict(p, op, elided, n);
}

/* ---------------------------------------------------------------- verifier helpers */

static bool is_signless_int(const ptoc_type *t)
{
    return ptoc_type_is_int(t) && t->u.integer.sign == PTOC_SIGNLESS;
}

static bool in_category(const ptoc_type *t, arith_cat cat)
{
    const ptoc_type *e = ptoc_upstream_elem(t);
    switch (cat) {
    case CAT_INT_OR_INDEX: return is_signless_int(e) || e->kind == PTOC_TYPE_INDEX;
    case CAT_INT: return is_signless_int(e);
    case CAT_FLOAT: return ptoc_type_is_float(e);
    case CAT_INT_OR_FLOAT: return is_signless_int(e) || ptoc_type_is_float(e);
    }
    return false;
}

static bool check_category(const ptoc_op *op, const char *what, uint32_t index,
                           const ptoc_type *t, arith_cat cat)
{
    if (in_category(t, cat))
        return true;
    ptoc_op_emit_error(op, "%s #%u must be %s, but got '%s'", what, index, cat_names[cat],
                       ptoc_upstream_type_text(t).text);
    return false;
}

static bool check_counts(const ptoc_op *op, uint32_t noperands, uint32_t nresults)
{
    if (op->noperands != noperands) {
        ptoc_op_emit_error(op, "expected %u operands, but found %u", noperands, op->noperands);
        return false;
    }
    if (op->nresults != nresults) {
        ptoc_op_emit_error(op, "expected %u results, but found %u", nresults, op->nresults);
        return false;
    }
    return true;
}

static bool check_flags(const ptoc_op *op, arith_flags_kind kind)
{
    const flag_set *set = flag_set_of(kind);
    ptoc_attr *a = set ? ptoc_op_attr(op, set->attr_name) : NULL;
    uint32_t bits;
    if (a && !flag_bits(a, set, &bits)) {
        ptoc_op_emit_error(op, "attribute '%s' failed to satisfy constraint: %s",
                           set->attr_name, set->constraint);
        return false;
    }
    return true;
}

/* i1, or a vector/tensor of i1 shaped like `like`. */
static bool is_bool_like(const ptoc_type *t, const ptoc_type *like)
{
    const ptoc_type *e = ptoc_upstream_elem(t);
    return is_signless_int(e) && e->u.integer.width == 1 && ptoc_upstream_same_shape(t, like);
}

/* i1 shaped like `t` (a scalar i1, or vector/tensor of i1 with t's shape). */
static ptoc_type *bool_like(ptoc_context *ctx, const ptoc_type *t)
{
    ptoc_type *i1 = ptoc_type_int(ctx, 1, PTOC_SIGNLESS);
    if (t->kind == PTOC_TYPE_VECTOR)
        return ptoc_type_vector(ctx, t->u.shaped.rank, t->u.shaped.shape, i1);
    if (t->kind == PTOC_TYPE_TENSOR)
        return ptoc_type_tensor(ctx, t->u.shaped.rank, t->u.shaped.shape, i1);
    return i1;
}

/* ---------------------------------------------------------------- arith.constant */

/* The type a constant's value has, NULL for kinds a constant cannot hold: an
 * integer, float or bool, or an elements attribute of vector or tensor type
 * (`dense<[1, 2]> : vector<2xi16>`, kept as text with its type). */
static const ptoc_type *constant_value_type(ptoc_context *ctx, const ptoc_attr *value)
{
    switch (value->kind) {
    case PTOC_ATTR_INTEGER: return value->u.integer.type;
    case PTOC_ATTR_FLOAT: return value->u.fp.type;
    case PTOC_ATTR_BOOL: return ptoc_type_int(ctx, 1, PTOC_SIGNLESS);
    case PTOC_ATTR_OPAQUE: {
        const ptoc_type *t = value->u.opaque.type;
        return t && (t->kind == PTOC_TYPE_VECTOR || t->kind == PTOC_TYPE_TENSOR) ? t : NULL;
    }
    default: return NULL;
    }
}

static bool constant_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_attr *value;
    ptoc_loc loc;
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    loc = ptoc_parser_loc(p);
    if (!ptoc_parse_attr(p, &value))
        return false;
    const ptoc_type *t = constant_value_type(ptoc_parser_context(p), value);
    if (!t)
        return ptoc_parser_error_at(p, loc, "expected an integer, float or boolean constant, or dense<...> "
                                            "of a vector or tensor type");
    ptoc_state_add_result(st, (ptoc_type *)t);
    ptoc_upstream_add_attr(p, st, "value", value);
    return true;
}

static void constant_print(ptoc_printer *p, const ptoc_op *op)
{
    static const char *const elided[] = {"value"};
    ptoc_attr *value = ptoc_op_attr(op, "value");
    ptoc_print_attr_dict(p, op, elided, 1);
    ptoc_print_str(p, " ");
    if (value)
        ptoc_print_attr(p, value);
}

/* MLIR's names: %c42 (index), %c42_i32, %true / %false, %cst (floats). */
static void constant_result_name(const ptoc_op *op, ptoc_strbuf *name)
{
    const ptoc_attr *value = ptoc_op_attr(op, "value");
    const ptoc_type *t = op->nresults == 1 ? op->results[0].type : NULL;
    if (!value || !t)
        return;
    if (value->kind == PTOC_ATTR_BOOL || (value->kind == PTOC_ATTR_INTEGER && t->kind == PTOC_TYPE_INTEGER &&
                                          t->u.integer.width == 1)) {
        bool v = value->kind == PTOC_ATTR_BOOL ? value->u.boolean : value->u.integer.value != 0;
        ptoc_strbuf_puts(name, v ? "true" : "false");
    } else if (value->kind == PTOC_ATTR_FLOAT || value->kind == PTOC_ATTR_OPAQUE) {
        ptoc_strbuf_puts(name, "cst");
    } else if (value->kind == PTOC_ATTR_INTEGER) {
        ptoc_strbuf_printf(name, "c%lld", (long long)value->u.integer.value);
        if (t->kind != PTOC_TYPE_INDEX)
            ptoc_strbuf_printf(name, "_%s", ptoc_upstream_type_text(t).text);
    }
}

static bool constant_verify(const ptoc_op *op)
{
    if (!check_counts(op, 0, 1))
        return false;
    ptoc_attr *value = ptoc_op_attr(op, "value");
    if (!value) {
        ptoc_op_emit_error(op, "requires attribute 'value'");
        return false;
    }
    const ptoc_type *vt = constant_value_type(ptoc_op_context(op), value);
    if (!vt) {
        ptoc_op_emit_error(op, "value must be an integer, float or boolean attribute, or dense<...> of a vector "
                               "or tensor type");
        return false;
    }
    if (vt != op->results[0].type) {
        ptoc_op_emit_error(op, "failed to verify that all of {value, result} have same type");
        return false;
    }
    if (ptoc_type_is_int(vt) && vt->u.integer.sign != PTOC_SIGNLESS) {
        ptoc_op_emit_error(op, "integer return type must be signless");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- binary and unary ops */

/* `%a, %b [flags] {attrs} : T` (binary) or `%a [flags] {attrs} : T` (unary). */
static bool parse_same_type_op(ptoc_parser *p, ptoc_op_state *st, uint32_t noperands)
{
    const arith_info *info = st->def->data;
    ptoc_operand_ref refs[2];
    ptoc_type *t;
    for (uint32_t i = 0; i < noperands; i++) {
        if ((i && !ptoc_parse_expect(p, ",")) || !ptoc_parse_operand(p, &refs[i]))
            return false;
    }
    if (!parse_flags_clause(p, st, info->flags))
        return false;
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    if (!ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &t))
        return false;
    for (uint32_t i = 0; i < noperands; i++) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &refs[i], t, &v))
            return false;
        ptoc_state_add_operand(st, v);
    }
    ptoc_state_add_result(st, t);
    return true;
}

static bool binary_parse(ptoc_parser *p, ptoc_op_state *st) { return parse_same_type_op(p, st, 2); }
static bool unary_parse(ptoc_parser *p, ptoc_op_state *st) { return parse_same_type_op(p, st, 1); }

static void same_type_print(ptoc_printer *p, const ptoc_op *op)
{
    const arith_info *info = op->def->data;
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, op->noperands);
    print_flags_clause(p, op, info->flags);
    print_attrs_except(p, op, info->flags, NULL);
    ptoc_print_str(p, " : ");
    if (op->nresults > 0)
        ptoc_print_type(p, op->results[0].type);
}

static bool verify_same_type_op(const ptoc_op *op, uint32_t noperands)
{
    const arith_info *info = op->def->data;
    if (!check_counts(op, noperands, 1))
        return false;
    ptoc_type *t = op->results[0].type;
    for (uint32_t i = 0; i < noperands; i++) {
        if (ptoc_op_operand(op, i)->type != t) {
            ptoc_op_emit_error(op, "requires the same type for all operands and results");
            return false;
        }
    }
    return check_category(op, "operand", 0, t, info->in) && check_flags(op, info->flags);
}

static bool binary_verify(const ptoc_op *op) { return verify_same_type_op(op, 2); }
static bool unary_verify(const ptoc_op *op) { return verify_same_type_op(op, 1); }

/* ---------------------------------------------------------------- cmpi, cmpf */

/* A predicate keyword (or string) and its number in `info`'s table. */
static bool parse_predicate(ptoc_parser *p, const arith_info *info, uint32_t *pred)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_ident *word;
    if (!ptoc_parse_optional_string(p, &word) &&
        (ptoc_parser_failed(p) || !ptoc_parse_keyword(p, &word, "a comparison predicate")))
        return false;
    for (*pred = 0; *pred < info->npredicates; ++*pred)
        if (!strcmp(info->predicates[*pred], word->str))
            return true;
    ptoc_strbuf all;
    ptoc_strbuf_init(&all, NULL);
    for (uint32_t j = 0; j < info->npredicates; j++)
        ptoc_strbuf_printf(&all, "%s%s", j ? ", " : "", info->predicates[j]);
    ptoc_parser_error_at(p, loc, "expected one of the following predicates: [%s]",
                         ptoc_strbuf_cstr(&all));
    ptoc_strbuf_free(&all);
    return false;
}

/* `pred, %a, %b [fastmath<...>] {attrs} : T` */
static bool cmp_parse(ptoc_parser *p, ptoc_op_state *st)
{
    const arith_info *info = st->def->data;
    ptoc_context *ctx = ptoc_parser_context(p);
    ptoc_operand_ref lhs, rhs;
    ptoc_type *t;
    ptoc_value *a, *b;
    uint32_t pred;
    if (!parse_predicate(p, info, &pred))
        return false;
    if (!ptoc_parse_expect(p, ",") || !ptoc_parse_operand(p, &lhs) ||
        !ptoc_parse_expect(p, ",") || !ptoc_parse_operand(p, &rhs) ||
        !parse_flags_clause(p, st, info->flags))
        return false;
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    if (!ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &t) ||
        !ptoc_parse_resolve(p, &lhs, t, &a) || !ptoc_parse_resolve(p, &rhs, t, &b))
        return false;
    ptoc_state_add_operand(st, a);
    ptoc_state_add_operand(st, b);
    ptoc_state_add_result(st, bool_like(ctx, t));
    ptoc_upstream_add_attr(p, st, "predicate",
                           ptoc_attr_int(ctx, ptoc_type_int(ctx, 64, PTOC_SIGNLESS), pred));
    return true;
}

static void cmp_print(ptoc_printer *p, const ptoc_op *op)
{
    const arith_info *info = op->def->data;
    ptoc_attr *pred = ptoc_op_attr(op, "predicate");
    ptoc_print_str(p, " ");
    if (pred && pred->kind == PTOC_ATTR_INTEGER && pred->u.integer.value >= 0 &&
        pred->u.integer.value < (int64_t)info->npredicates)
        ptoc_print_str(p, info->predicates[pred->u.integer.value]);
    else
        ptoc_print_str(p, "<invalid>");
    ptoc_print_str(p, ", ");
    ptoc_print_operands(p, op, 0, op->noperands);
    print_flags_clause(p, op, info->flags);
    print_attrs_except(p, op, info->flags, "predicate");
    ptoc_print_str(p, " : ");
    if (op->noperands > 0)
        ptoc_print_value_type(p, ptoc_op_operand(op, 0));
}

static bool cmp_verify(const ptoc_op *op)
{
    const arith_info *info = op->def->data;
    if (!check_counts(op, 2, 1))
        return false;
    ptoc_type *t = ptoc_op_operand(op, 0)->type;
    if (ptoc_op_operand(op, 1)->type != t) {
        ptoc_op_emit_error(op, "requires all operands to have the same type");
        return false;
    }
    if (!check_category(op, "operand", 0, t, info->in) || !check_flags(op, info->flags))
        return false;
    if (!is_bool_like(op->results[0].type, t)) {
        ptoc_op_emit_error(op, "result #0 must be bool-like, but got '%s'",
                           ptoc_upstream_type_text(op->results[0].type).text);
        return false;
    }
    ptoc_attr *pred = ptoc_op_attr(op, "predicate");
    if (!pred) {
        ptoc_op_emit_error(op, "requires attribute 'predicate'");
        return false;
    }
    if (pred->kind != PTOC_ATTR_INTEGER || pred->u.integer.type->kind != PTOC_TYPE_INTEGER ||
        pred->u.integer.type->u.integer.width != 64 || pred->u.integer.value < 0 ||
        pred->u.integer.value >= (int64_t)info->npredicates) {
        ptoc_op_emit_error(op, "attribute 'predicate' failed to satisfy constraint: allowed "
                               "64-bit signless integer cases: 0 to %u", info->npredicates - 1);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- arith.select */

/* `%c, %a, %b {attrs} : T` or `: C, T` when the condition is a vector/tensor. */
static bool select_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_context *ctx = ptoc_parser_context(p);
    ptoc_operand_ref refs[3];
    ptoc_type **types;
    uint32_t ntypes;
    ptoc_loc loc = ptoc_parser_loc(p);
    for (uint32_t i = 0; i < 3; i++) {
        if ((i && !ptoc_parse_expect(p, ",")) || !ptoc_parse_operand(p, &refs[i]))
            return false;
    }
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    loc = ptoc_parser_loc(p);
    if (!ptoc_parse_expect(p, ":") || !ptoc_parse_type_list(p, &types, &ntypes))
        return false;
    if (ntypes > 2)
        return ptoc_parser_error_at(p, loc, "expected one or two types, got %u", ntypes);
    ptoc_type *result = types[ntypes - 1];
    ptoc_type *operand_types[3] = {ntypes == 2 ? types[0] : ptoc_type_int(ctx, 1, PTOC_SIGNLESS),
                                   result, result};
    for (uint32_t i = 0; i < 3; i++) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &refs[i], operand_types[i], &v))
            return false;
        ptoc_state_add_operand(st, v);
    }
    ptoc_state_add_result(st, result);
    return true;
}

static void select_print(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, op->noperands);
    ptoc_print_attr_dict(p, op, NULL, 0);
    ptoc_print_str(p, " : ");
    if (op->noperands > 0 && ptoc_type_is_shaped(ptoc_op_operand(op, 0)->type)) {
        ptoc_print_value_type(p, ptoc_op_operand(op, 0));
        ptoc_print_str(p, ", ");
    }
    if (op->nresults > 0)
        ptoc_print_type(p, op->results[0].type);
}

static bool select_verify(const ptoc_op *op)
{
    if (!check_counts(op, 3, 1))
        return false;
    ptoc_type *t = op->results[0].type;
    if (ptoc_op_operand(op, 1)->type != t || ptoc_op_operand(op, 2)->type != t) {
        ptoc_op_emit_error(op, "failed to verify that all of {true_value, false_value, result} "
                               "have same type");
        return false;
    }
    const ptoc_type *cond = ptoc_op_operand(op, 0)->type;
    bool scalar_i1 = !ptoc_type_is_shaped(cond) && is_bool_like(cond, cond);
    if (!scalar_i1 && !is_bool_like(cond, t)) {
        ptoc_op_emit_error(op, "expected condition type to be i1 or to have the same shape "
                               "as the result type, got '%s'", ptoc_upstream_type_text(cond).text);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- casts */

/* `%a {attrs} : T to U` */
static bool cast_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_operand_ref ref;
    ptoc_type *from, *to;
    ptoc_value *v;
    if (!ptoc_parse_operand(p, &ref))
        return false;
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    if (!ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &from) ||
        !ptoc_parse_expect(p, "to") || !ptoc_parse_type(p, &to) ||
        !ptoc_parse_resolve(p, &ref, from, &v))
        return false;
    ptoc_state_add_operand(st, v);
    ptoc_state_add_result(st, to);
    return true;
}

static void cast_print(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, op->noperands);
    ptoc_print_attr_dict(p, op, NULL, 0);
    ptoc_print_str(p, " : ");
    ptoc_print_operand_types(p, op, 0, op->noperands);
    ptoc_print_str(p, " to ");
    if (op->nresults > 0)
        ptoc_print_type(p, op->results[0].type);
}

static bool cast_widths_ok(cast_rule rule, const ptoc_type *from, const ptoc_type *to)
{
    uint32_t wf = ptoc_type_bitwidth(from), wt = ptoc_type_bitwidth(to);
    switch (rule) {
    case CAST_ANY: return true;
    case CAST_WIDER: return wt > wf;
    case CAST_NARROWER: return wt < wf;
    case CAST_SAME_WIDTH: return wt == wf;
    case CAST_INDEX: return (from->kind == PTOC_TYPE_INDEX) != (to->kind == PTOC_TYPE_INDEX);
    }
    return false;
}

static bool cast_verify(const ptoc_op *op)
{
    const arith_info *info = op->def->data;
    if (!check_counts(op, 1, 1))
        return false;
    const ptoc_type *from = ptoc_op_operand(op, 0)->type, *to = op->results[0].type;
    if (!check_category(op, "operand", 0, from, info->in) ||
        !check_category(op, "result", 0, to, info->out))
        return false;
    if (!ptoc_upstream_same_shape(from, to) ||
        !cast_widths_ok(info->rule, ptoc_upstream_elem(from), ptoc_upstream_elem(to))) {
        ptoc_op_emit_error(op, "operand type '%s' and result type '%s' are cast incompatible",
                           ptoc_upstream_type_text(from).text, ptoc_upstream_type_text(to).text);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- extended arithmetic */

/* `%a, %b {attrs} : T, i1` (addui_extended) or `%a, %b {attrs} : T` (mul*_extended). */
static bool parse_extended(ptoc_parser *p, ptoc_op_state *st, bool is_add)
{
    ptoc_operand_ref refs[2];
    ptoc_type *t, *second;
    if (!ptoc_parse_operand(p, &refs[0]) || !ptoc_parse_expect(p, ",") ||
        !ptoc_parse_operand(p, &refs[1]))
        return false;
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    if (!ptoc_parse_expect(p, ":") || !ptoc_parse_type(p, &t))
        return false;
    second = t;
    if (is_add && (!ptoc_parse_expect(p, ",") || !ptoc_parse_type(p, &second)))
        return false;
    for (uint32_t i = 0; i < 2; i++) {
        ptoc_value *v;
        if (!ptoc_parse_resolve(p, &refs[i], t, &v))
            return false;
        ptoc_state_add_operand(st, v);
    }
    ptoc_state_add_result(st, t);
    ptoc_state_add_result(st, second);
    return true;
}

static bool add_extended_parse(ptoc_parser *p, ptoc_op_state *st) { return parse_extended(p, st, true); }
static bool mul_extended_parse(ptoc_parser *p, ptoc_op_state *st) { return parse_extended(p, st, false); }

static void extended_print(ptoc_printer *p, const ptoc_op *op)
{
    bool is_add = ptoc_op_is(op, "arith.addui_extended");
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, op->noperands);
    ptoc_print_attr_dict(p, op, NULL, 0);
    ptoc_print_str(p, " : ");
    if (op->nresults < 2)
        return;
    ptoc_print_type(p, op->results[0].type);
    if (is_add) {
        ptoc_print_str(p, ", ");
        ptoc_print_type(p, op->results[1].type);
    }
}

static bool extended_verify(const ptoc_op *op)
{
    bool is_add = ptoc_op_is(op, "arith.addui_extended");
    if (!check_counts(op, 2, 2))
        return false;
    ptoc_type *t = op->results[0].type;
    if (ptoc_op_operand(op, 0)->type != t || ptoc_op_operand(op, 1)->type != t ||
        (!is_add && op->results[1].type != t)) {
        ptoc_op_emit_error(op, "requires the same type for all operands and results");
        return false;
    }
    if (!check_category(op, "operand", 0, t, CAT_INT_OR_INDEX))
        return false;
    if (is_add && !is_bool_like(op->results[1].type, t)) {
        ptoc_op_emit_error(op, "result #1 must be bool-like, but got '%s'",
                           ptoc_upstream_type_text(op->results[1].type).text);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- the op table */

#define OP(name, parse, print, verify, info, summary) \
    {"arith." name, PTOC_OPF_PURE, parse, print, verify, &info, summary}
#define BINARY(name, info, summary) OP(name, binary_parse, same_type_print, binary_verify, info, summary)
#define CAST(name, info, summary) OP(name, cast_parse, cast_print, cast_verify, info, summary)

static const ptoc_op_def arith_ops[] = {
    {"arith.constant", PTOC_OPF_PURE, constant_parse, constant_print, constant_verify, &plain_op,
     "an integer, index, float or boolean constant", constant_result_name},
    /* integer arithmetic (index and vectors of integers too) */
    BINARY("addi", int_ovf_op, "integer addition"),
    BINARY("subi", int_ovf_op, "integer subtraction"),
    BINARY("muli", int_ovf_op, "integer multiplication"),
    BINARY("divsi", int_op, "signed integer division, rounding toward zero"),
    BINARY("divui", int_op, "unsigned integer division"),
    BINARY("ceildivsi", int_op, "signed integer division, rounding toward +infinity"),
    BINARY("ceildivui", int_op, "unsigned integer division, rounding up"),
    BINARY("floordivsi", int_op, "signed integer division, rounding toward -infinity"),
    BINARY("remsi", int_op, "signed integer remainder (sign of the dividend)"),
    BINARY("remui", int_op, "unsigned integer remainder"),
    BINARY("andi", int_op, "bitwise and"),
    BINARY("ori", int_op, "bitwise or"),
    BINARY("xori", int_op, "bitwise exclusive or"),
    BINARY("shli", int_ovf_op, "shift left"),
    BINARY("shrsi", int_op, "arithmetic shift right"),
    BINARY("shrui", int_op, "logical shift right"),
    BINARY("maxsi", int_op, "signed integer maximum"),
    BINARY("maxui", int_op, "unsigned integer maximum"),
    BINARY("minsi", int_op, "signed integer minimum"),
    BINARY("minui", int_op, "unsigned integer minimum"),
    /* float arithmetic */
    BINARY("addf", float_op, "float addition"),
    BINARY("subf", float_op, "float subtraction"),
    BINARY("mulf", float_op, "float multiplication"),
    BINARY("divf", float_op, "float division"),
    BINARY("remf", float_op, "float remainder (fmod)"),
    BINARY("maximumf", float_op, "float maximum, NaN if either operand is NaN"),
    BINARY("minimumf", float_op, "float minimum, NaN if either operand is NaN"),
    BINARY("maxnumf", float_op, "float maximum, the other operand if one is NaN"),
    BINARY("minnumf", float_op, "float minimum, the other operand if one is NaN"),
    OP("negf", unary_parse, same_type_print, unary_verify, float_op, "float negation"),
    /* comparisons and select */
    OP("cmpi", cmp_parse, cmp_print, cmp_verify, cmpi_op,
       "integer comparison: eq ne slt sle sgt sge ult ule ugt uge"),
    OP("cmpf", cmp_parse, cmp_print, cmp_verify, cmpf_op,
       "float comparison: ordered (o..) or unordered (u..) predicates, false, true"),
    OP("select", select_parse, select_print, select_verify, plain_op,
       "picks the second operand if the condition is true, else the third"),
    /* casts */
    CAST("index_cast", index_cast, "integer <-> index, sign-extending or truncating"),
    CAST("index_castui", index_cast, "integer <-> index, zero-extending or truncating"),
    CAST("extsi", int_extend, "sign-extends an integer to a wider one"),
    CAST("extui", int_extend, "zero-extends an integer to a wider one"),
    CAST("trunci", int_truncate, "truncates an integer to a narrower one"),
    CAST("sitofp", int_to_float, "signed integer to float"),
    CAST("uitofp", int_to_float, "unsigned integer to float"),
    CAST("fptosi", float_to_int, "float to signed integer, rounding toward zero"),
    CAST("fptoui", float_to_int, "float to unsigned integer, rounding toward zero"),
    CAST("extf", float_extend, "extends a float to a wider one"),
    CAST("truncf", float_truncate, "rounds a float to a narrower one"),
    CAST("bitcast", bit_cast, "reinterprets the bits as another type of the same width"),
    /* two-result arithmetic */
    OP("addui_extended", add_extended_parse, extended_print, extended_verify, plain_op,
       "unsigned addition with a carry-out (i1) result"),
    OP("mului_extended", mul_extended_parse, extended_print, extended_verify, plain_op,
       "unsigned multiplication giving the low and high halves"),
    OP("mulsi_extended", mul_extended_parse, extended_print, extended_verify, plain_op,
       "signed multiplication giving the low and high halves"),
};

static const ptoc_dialect arith_dialect = {
    .name = "arith",
    .ops = arith_ops,
    .nops = sizeof arith_ops / sizeof arith_ops[0],
    .parse_attr = arith_parse_attr,
    .print_attr = arith_print_attr,
};

bool ptoc_arith_int_constant(const ptoc_value *v, int64_t *out)
{
    ptoc_op *def = ptoc_value_def(v);
    ptoc_attr *a = def && ptoc_op_is(def, "arith.constant") ? ptoc_op_attr(def, "value") : NULL;
    if (!a || a->kind != PTOC_ATTR_INTEGER)
        return false;
    *out = a->u.integer.value;
    return true;
}

void ptoc_register_arith_dialect(ptoc_context *ctx)
{
    ptoc_context_register_dialect(ctx, &arith_dialect);
}
