/* pto_asm.c: PTO-AS, the assembly spelling of the pto ops, as pto-isa's
 * docs/isa/syntax-and-operands/assembly-model.md and its per-op pages write it.
 *
 * In a file read as assembly (ptoc_parse_options.assembly; docs/syntax.md) an op
 * of the table that has a Level-1 form may be written without `pto.`:
 *
 *   tadd %dst, %src0, %src1 : !pto.tile<f32, 16, 16>   DPS: the destination first
 *   tcmps %mask, %src, 0 #cmp=gt                        an immediate and a #key=value
 *   %dst = tcolexpandadd %src0, %src1 : T0, T1 -> T     Level 1: a named result
 *   %dst = tsels %mask, %src, %scalar : T               Level 1, the result's type only
 *
 * Operands are SSA values or immediates. A value takes its type from its
 * definition (so it is defined before the statement), unless the statement
 * gives the operand's type. Without a named result the statement is the DPS op:
 * the first operands are its outs (as many as the op has; a statement cannot
 * say how many an op with a choice takes), the rest its ins, as in the C++
 * intrinsics (TADD(dst, src0, src1)); tstore is written as the ISA pages write
 * it, `tstore %tile, %view`, ins first. With results it is the Level-1 op and
 * every operand is an in.
 *
 * Types after the colon. DPS: none, one (the destinations' type; a
 * `!pto.tile<...>` also names a tile_buf of the same description), or one per
 * operand in statement order. Level 1: the types after `->` are the results';
 * those before it are the first operands', in order. Without `->`: one type is
 * the result's; one per operand gives the operands' and the result has the
 * first one's (`%d = tadds %s, %x : T, f32`); operands' then results' types
 * (`%d = texpands %x : f32, T`). Operand types may be in parentheses.
 *
 * Immediates: a decimal integer, a float, or a hex integer, which is the raw
 * bits of its type (`0x3F800000` is 1.0 for f32). Its type is the operand's
 * written type, else the destination's element type (tcmps: its source's), as
 * a signless integer for integer elements. Each becomes an arith.constant just
 * before the op. Attributes: an attr-dict after the operands, and `#key=value`
 * pairs after the operands or the types: `#cmp=gt` is cmpMode = #pto<cmp gt>,
 * any other key names the attribute and its value is an attribute (`#byte=2`).
 *
 * Printing (pto_print_asm) writes the same shapes: a DPS op whose out count is
 * fixed, or a Level-1 op with results; operand types are left to their
 * definitions and the destination's or the result's type is written. Any other
 * op prints in its usual form, so the text always reads back to the same IR.
 */
#include <string.h>

#include "dialect/pto_internal.h"
#include "ptoc/util.h"

static const char *const segment_attr = PTOC_SEGMENT_SIZES_ATTR;

/* `#key=value` keys that stand for another attribute of an enum kind. */
static const struct {
    const char *key, *attr;
    ptoc_pto_enum_kind kind;
} asm_keys[] = {
    {"cmp", "cmpMode", PTOC_PTO_ENUM_CMP},
    {"cmpMode", "cmpMode", PTOC_PTO_ENUM_CMP},
};

typedef struct asm_operand {
    bool immediate;
    ptoc_operand_ref ref;
    ptoc_number number;
    ptoc_value *value;                 /* once resolved */
} asm_operand;

typedef struct asm_stmt {
    asm_operand *ops;
    uint32_t nops, cap;
    ptoc_type **types;                 /* before `->`, or all without one */
    uint32_t ntypes;
    bool arrow;
    ptoc_type **results;               /* after `->` */
    uint32_t nresults;
    ptoc_loc types_loc;
} asm_stmt;

static ptoc_context *pctx(ptoc_parser *p) { return ptoc_parser_context(p); }

static const ptoc_pto_op_info *info_of(const ptoc_op_state *st) { return st->def->data; }

/* ---------------------------------------------------------------- reading */

static asm_operand *next_operand(ptoc_parser *p, asm_stmt *s)
{
    if (s->nops == s->cap)
        s->ops = ptoc_varr_grow(NULL, ptoc_parser_scratch(p), s->ops, s->nops, &s->cap, s->nops + 1,
                                sizeof *s->ops, _Alignof(asm_operand));
    asm_operand *o = &s->ops[s->nops++];
    memset(o, 0, sizeof *o);
    return o;
}

/* `%v` or an immediate, separated by commas; possibly none. */
static bool parse_operands(ptoc_parser *p, asm_stmt *s)
{
    ptoc_operand_ref ref;
    ptoc_number num;
    bool first = true;
    do {
        bool is_ref = ptoc_parse_optional_operand(p, &ref);
        bool is_num = !is_ref && ptoc_parse_optional_number(p, &num);
        if (ptoc_parser_failed(p))
            return false;
        if (!is_ref && !is_num)
            return first ? true : ptoc_parser_error(p, "expected an operand: an SSA value or an immediate");
        asm_operand *o = next_operand(p, s);
        o->immediate = is_num;
        if (is_ref)
            o->ref = ref;
        else
            o->number = num;
        first = false;
    } while (ptoc_parse_optional(p, ","));
    return !ptoc_parser_failed(p);
}

static bool parse_hash_attr_value(ptoc_parser *p, ptoc_op_state *st, ptoc_ident *key)
{
    for (size_t i = 0; i < sizeof asm_keys / sizeof asm_keys[0]; i++) {
        if (strcmp(asm_keys[i].key, key->str) != 0)
            continue;
        ptoc_attr *a;
        if (!pto_parse_enum_value_attr(p, asm_keys[i].kind, true, &a))
            return false;
        ptoc_state_add_attr(st, ptoc_ident_cstr(pctx(p), asm_keys[i].attr), a);
        return true;
    }
    ptoc_attr *a;
    if (!ptoc_parse_attr(p, &a))
        return false;
    ptoc_state_add_attr(st, key, a);
    return true;
}

/* `#key=value`* */
static bool parse_hash_attrs(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_ident *key;
    while (ptoc_parse_optional_hash_key(p, &key))
        if (!parse_hash_attr_value(p, st, key))
            return false;
    return !ptoc_parser_failed(p);
}

/* `: T, U [-> R]`, `: (T, U) -> R`, or nothing. */
static bool parse_types(ptoc_parser *p, asm_stmt *s)
{
    if (!ptoc_parse_optional(p, ":"))
        return !ptoc_parser_failed(p);
    s->types_loc = ptoc_parser_loc(p);
    bool paren = ptoc_parse_optional(p, "(");
    if (!(paren && ptoc_parser_peek(p, ")")) && !ptoc_parse_type_list(p, &s->types, &s->ntypes))
        return false;
    if (paren && !ptoc_parse_expect(p, ")"))
        return false;
    s->arrow = ptoc_parse_optional(p, "->");
    if (!s->arrow)
        return !ptoc_parser_failed(p);
    if (ptoc_parse_optional(p, "(")) {
        if (ptoc_parse_optional(p, ")"))
            return true;
        return ptoc_parse_type_list(p, &s->results, &s->nresults) && ptoc_parse_expect(p, ")");
    }
    s->results = PTOC_NEW_ARRAY(ptoc_parser_scratch(p), ptoc_type *, 1);
    s->nresults = 1;
    return ptoc_parse_type(p, &s->results[0]);
}

/* ---------------------------------------------------------------- immediates */

/* The scalar type an immediate of a tile of element `elem` has. */
static ptoc_type *scalar_type_of(ptoc_context *ctx, const ptoc_type *elem)
{
    if (elem && ptoc_type_is_int(elem))
        return ptoc_type_int(ctx, ptoc_type_bitwidth(elem), PTOC_SIGNLESS);
    return elem && ptoc_type_is_float(elem) ? (ptoc_type *)elem : NULL;
}

static bool integer_immediate(ptoc_parser *p, const ptoc_number *n, ptoc_type *t, int64_t *out)
{
    uint32_t w = ptoc_type_bitwidth(t);
    uint64_t umax = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    uint64_t neg_max = w >= 64 ? UINT64_C(1) << 63 : UINT64_C(1) << (w - 1);
    if (n->is_float)
        return ptoc_parser_error_at(p, n->loc, "a float immediate for an integer scalar (%u bits): write an integer",
                                    w);
    if (n->negative ? n->magnitude > neg_max : n->magnitude > umax)
        return ptoc_parser_error_at(p, n->loc, "immediate out of range for a %u-bit scalar", w);
    *out = n->negative ? (int64_t)(0 - n->magnitude) : (int64_t)n->magnitude;
    return true;
}

static bool float_immediate(ptoc_parser *p, const ptoc_number *n, ptoc_type *t, double *out)
{
    uint32_t w = ptoc_float_kind_width(t->u.fp.kind);
    if (!n->is_hex) {
        *out = n->is_float ? n->fp : n->negative ? -(double)n->magnitude : (double)n->magnitude;
        return true;
    }
    if (n->negative || (w < 64 && n->magnitude >> w) || w > 64)
        return ptoc_parser_error_at(p, n->loc, "a hex immediate is the %u raw bits of its float type: no sign, "
                                    "at most %u bits", w, w);
    *out = ptoc_float_from_bits(t->u.fp.kind, n->magnitude);
    return true;
}

/* `arith.constant` of the immediate's value, just before the op. */
static ptoc_value *make_immediate(ptoc_parser *p, const ptoc_number *n, ptoc_type *t)
{
    ptoc_context *ctx = pctx(p);
    ptoc_attr *value;
    if (ptoc_type_is_int_or_index(t)) {
        int64_t v = 0;
        if (!integer_immediate(p, n, t, &v))
            return NULL;
        value = ptoc_attr_int(ctx, t, v);
    } else {
        double v = 0;
        if (!float_immediate(p, n, t, &v))
            return NULL;
        value = ptoc_attr_float(ctx, t, v);
    }
    const ptoc_op_def *def = ptoc_context_op_def(ctx, "arith.constant", strlen("arith.constant"));
    if (!def) {
        ptoc_parser_error_at(p, n->loc, "an immediate needs the arith dialect");
        return NULL;
    }
    ptoc_op_state st;
    ptoc_state_init(&st, ptoc_parser_arena(p), def, n->loc);
    ptoc_state_add_attr(&st, ptoc_ident_cstr(ctx, "value"), value);
    ptoc_state_add_result(&st, t);
    return ptoc_op_result(ptoc_parser_insert_op(p, &st), 0);
}

/* ---------------------------------------------------------------- resolving */

/* Resolves every value operand at its written type (the first ntypes) or its
 * definition's type. */
static bool resolve_values(ptoc_parser *p, asm_stmt *s, ptoc_type *const *types, uint32_t ntypes)
{
    for (uint32_t i = 0; i < s->nops; i++) {
        asm_operand *o = &s->ops[i];
        if (o->immediate)
            continue;
        ptoc_type *t = i < ntypes ? types[i] : ptoc_parser_defined_type(p, &o->ref);
        if (!t)
            return ptoc_parser_error_at(p, o->ref.loc, "'%%%s' is not defined yet: a PTO-AS operand takes its type "
                                        "from its definition, or from the statement's operand types",
                                        o->ref.name->str);
        if (!ptoc_parse_resolve(p, &o->ref, t, &o->value))
            return false;
    }
    return true;
}

/* The element type immediates default to: `dst`'s, or the first tile
 * source's for the ops that compare against their scalar (tcmps: the
 * immediate goes with the source rather than the destination). */
static const ptoc_type *default_elem(const ptoc_op_state *st, const asm_stmt *s, const ptoc_type *dst,
                                     uint32_t first_src)
{
    if (info_of(st)->opcode == PTOC_PTO_OP_TCMPS)
        for (uint32_t k = first_src; k < s->nops; k++)
            if (s->ops[k].value && ptoc_pto_tile_like(s->ops[k].value->type))
                return ptoc_pto_tile_like(s->ops[k].value->type)->elem;
    const ptoc_pto_tile_desc *d = dst ? ptoc_pto_tile_like(dst) : NULL;
    return d ? d->elem : dst && dst->kind == PTOC_TYPE_MEMREF ? dst->u.shaped.elem : NULL;
}

static bool resolve_immediates(ptoc_parser *p, asm_stmt *s, ptoc_type *const *types, uint32_t ntypes,
                               const ptoc_type *elem)
{
    ptoc_type *fallback = scalar_type_of(pctx(p), elem);
    for (uint32_t i = 0; i < s->nops; i++) {
        asm_operand *o = &s->ops[i];
        ptoc_type *t = i < ntypes ? types[i] : fallback;
        if (!o->immediate)
            continue;
        if (!t || !(ptoc_type_is_int_or_index(t) || ptoc_type_is_float(t)))
            return ptoc_parser_error_at(p, o->number.loc, "this immediate has no integer, index or float type: "
                                        "write the statement's operand types");
        if (!(o->value = make_immediate(p, &o->number, t)))
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------- Level 1 */

/* Which written types are the operands' and which the results' (header). */
static bool split_level1_types(ptoc_parser *p, const asm_stmt *s, uint32_t nres, ptoc_loc loc,
                               ptoc_type ***optypes, uint32_t *nopt, ptoc_type ***res)
{
    *optypes = s->types;
    *nopt = s->ntypes;
    if (s->arrow) {
        *res = s->results;
        if (s->nresults != nres)
            return ptoc_parser_error_at(p, s->types_loc, "the statement names %u results but gives %u result types",
                                        nres, s->nresults);
    } else if (s->ntypes == 1 && nres == 1) {
        *res = s->types;
        *nopt = 0;
    } else if (s->ntypes == s->nops + nres) {
        *res = s->types + s->nops;
        *nopt = s->nops;
    } else if (s->ntypes == s->nops && s->nops > 0 && nres == 1) {
        *res = s->types;
    } else {
        return ptoc_parser_error_at(p, s->ntypes ? s->types_loc : loc,
                                    "a PTO-AS statement with results needs their types: `: T` (the result), "
                                    "the operands' types, or `: operand types -> result types`");
    }
    if (*nopt > s->nops)
        return ptoc_parser_error_at(p, s->types_loc, "%u operand types for %u operands", *nopt, s->nops);
    return true;
}

static bool build_level1(ptoc_parser *p, ptoc_op_state *st, asm_stmt *s)
{
    uint32_t nres = st->nresults_expected, nopt = 0;
    ptoc_type **optypes = NULL, **res = NULL;
    if (!split_level1_types(p, s, nres, st->loc, &optypes, &nopt, &res) || !resolve_values(p, s, optypes, nopt) ||
        !resolve_immediates(p, s, optypes, nopt, default_elem(st, s, res[0], 0)))
        return false;
    for (uint32_t i = 0; i < s->nops; i++)
        ptoc_state_add_operand(st, s->ops[i].value);
    for (uint32_t i = 0; i < nres; i++)
        ptoc_state_add_result(st, res[i]);
    return true;
}

/* ---------------------------------------------------------------- DPS */

/* The segment count of an op's DPS form: 2 (ins, outs), but tload's clause
 * operands and tmov's fp tile and pre-quant scalar (PTOAS's operand order) have
 * segments of their own after them. */
static uint32_t own_segments(ptoc_pto_op_id opcode)
{
    return opcode == PTOC_PTO_OP_TLOAD ? 6 : opcode == PTOC_PTO_OP_TMOV ? 4 : 2;
}

/* How many outs a DPS statement of this op has, and where they are. */
static bool dps_outs(ptoc_parser *p, const ptoc_op_state *st, const asm_stmt *s, uint32_t *nouts,
                     uint32_t *first_out)
{
    const ptoc_pto_op_info *info = info_of(st);
    if (info->min_outs != info->max_outs)
        return ptoc_parser_error_at(p, st->loc, "'%s' takes %u to %u outs, which a PTO-AS statement cannot tell "
                                    "apart: write it in the DPS form, `%s ins(...) outs(...)`", info->name,
                                    info->min_outs, info->max_outs, info->name);
    *nouts = info->max_outs;
    if (s->nops < *nouts)
        return ptoc_parser_error_at(p, st->loc, "'%s' writes %u destinations, so its statement starts with them",
                                    info->name, *nouts);
    *first_out = info->opcode == PTOC_PTO_OP_TSTORE ? s->nops - *nouts : 0;
    return true;
}

static bool check_destinations(ptoc_parser *p, const asm_stmt *s, uint32_t first_out, uint32_t nouts,
                               const ptoc_type *want)
{
    for (uint32_t i = first_out; i < first_out + nouts; i++) {
        const asm_operand *o = &s->ops[i];
        if (o->immediate)
            return ptoc_parser_error_at(p, o->number.loc, "a destination must be an SSA value, not an immediate");
        if (want && !pto_same_tile(o->value->type, want)) {
            ptoc_strbuf a, b;
            ptoc_strbuf_init(&a, pctx(p));
            ptoc_strbuf_init(&b, pctx(p));
            ptoc_print_type_to(&a, o->value->type);
            ptoc_print_type_to(&b, want);
            ptoc_parser_error_at(p, o->ref.loc, "destination '%%%s' is a %s, but the statement's type is %s",
                                 o->ref.name->str, ptoc_strbuf_cstr(&a), ptoc_strbuf_cstr(&b));
            ptoc_strbuf_free(&a);
            ptoc_strbuf_free(&b);
            return false;
        }
    }
    return true;
}

static bool build_dps(ptoc_parser *p, ptoc_op_state *st, asm_stmt *s)
{
    uint32_t nouts = 0, first_out = 0;
    if (!dps_outs(p, st, s, &nouts, &first_out))
        return false;
    bool one_type = s->ntypes == 1 && (s->nops != 1 || nouts == 1);
    if (s->arrow || (s->ntypes && !one_type && s->ntypes != s->nops))
        return ptoc_parser_error_at(p, s->types_loc, "a PTO-AS statement without results takes no type, the "
                                    "destination's type, or one type per operand (no '->')");
    ptoc_type *const *optypes = one_type ? NULL : s->types;
    uint32_t nopt = one_type ? 0 : s->ntypes;
    ptoc_type *want = one_type ? s->types[0] : NULL;
    if (!resolve_values(p, s, optypes, nopt) || !check_destinations(p, s, first_out, nouts, want))
        return false;
    uint32_t first_src = first_out == 0 ? nouts : 0;
    const ptoc_type *dst = nouts ? s->ops[first_out].value->type : NULL;
    if (!resolve_immediates(p, s, optypes, nopt, default_elem(st, s, dst, first_src)))
        return false;
    for (uint32_t i = 0; i < s->nops; i++)        /* ins, in statement order */
        if (i < first_out || i >= first_out + nouts)
            ptoc_state_add_operand(st, s->ops[i].value);
    for (uint32_t i = first_out; i < first_out + nouts; i++)
        ptoc_state_add_operand(st, s->ops[i].value);
    /* tload and tmov keep the segments of their optional operands, empty here, as
     * their own forms do. */
    int64_t seg[6] = {s->nops - nouts, nouts, 0, 0, 0, 0};
    uint32_t nseg = own_segments(info_of(st)->opcode);
    ptoc_state_set_segment_sizes(st, pctx(p), nseg, seg);
    return true;
}

bool pto_parse_asm(ptoc_parser *p, ptoc_op_state *st)
{
    asm_stmt s;
    memset(&s, 0, sizeof s);
    if (!parse_operands(p, &s) || !ptoc_parse_optional_attr_dict(p, st) || !parse_hash_attrs(p, st) ||
        !parse_types(p, &s) || !parse_hash_attrs(p, st))
        return false;
    return st->nresults_expected ? build_level1(p, st, &s) : build_dps(p, st, &s);
}

/* ---------------------------------------------------------------- printing */

static const int64_t *segments_of(const ptoc_op *op, uint32_t *n)
{
    const int64_t *sizes = ptoc_op_segment_sizes(op, n);
    return *n ? sizes : NULL;
}

/* A DPS op the statement reads back as itself: the op's fixed out count, every
 * operand an in or an out (tload, tmov: no operands in their extra segments), no
 * results. */
static bool dps_printable(const ptoc_op *op, const int64_t *seg, uint32_t nseg)
{
    const ptoc_pto_op_info *info = ptoc_pto_op_info_of(op);
    uint32_t want_segments = info ? own_segments(info->opcode) : 2;
    if (!info || op->nresults || nseg != want_segments || seg[0] < 0 || seg[1] != info->max_outs ||
        info->min_outs != info->max_outs || (uint64_t)seg[0] + (uint64_t)seg[1] != op->noperands)
        return false;
    for (uint32_t i = 2; i < nseg; i++)
        if (seg[i] != 0)
            return false;
    return true;
}

/* The attributes: cmpMode as `#cmp=...` (after the types), the rest as a dict. */
static ptoc_attr *cmp_attr(const ptoc_op *op)
{
    ptoc_attr *a = ptoc_op_attr(op, "cmpMode");
    uint32_t v;
    return a && ptoc_pto_enum_value(a, PTOC_PTO_ENUM_CMP, &v) ? a : NULL;
}

static void print_attrs(ptoc_printer *p, const ptoc_op *op)
{
    const char *elided[2] = {segment_attr, cmp_attr(op) ? "cmpMode" : ""};
    ptoc_print_attr_dict(p, op, elided, 2);
}

static void print_cmp(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_attr *a = cmp_attr(op);
    uint32_t v;
    if (a && ptoc_pto_enum_value(a, PTOC_PTO_ENUM_CMP, &v))
        ptoc_print_fmt(p, " #cmp=%s", ptoc_pto_enum_name(PTOC_PTO_ENUM_CMP, v));
}

/* Operands [from, from + n) after the `k` printed so far. */
static uint32_t print_operand_run(ptoc_printer *p, const ptoc_op *op, uint32_t from, uint32_t n, uint32_t k)
{
    for (uint32_t i = from; i < from + n; i++, k++) {
        ptoc_print_str(p, k ? ", " : " ");
        ptoc_print_value(p, ptoc_op_operand(op, i));
    }
    return k;
}

static void print_level1(ptoc_printer *p, const ptoc_op *op)
{
    print_operand_run(p, op, 0, op->noperands, 0);
    print_attrs(p, op);
    ptoc_print_str(p, " : ");
    if (op->nresults == 1) {
        ptoc_print_type(p, op->results[0].type);
    } else {
        ptoc_print_str(p, "(");
        ptoc_print_operand_types(p, op, 0, op->noperands);
        ptoc_print_str(p, ")");
        ptoc_print_arrow_result_types(p, op);
    }
    print_cmp(p, op);
}

static void print_dps_statement(ptoc_printer *p, const ptoc_op *op, uint32_t nins, uint32_t nouts)
{
    if (ptoc_pto_is(op, PTOC_PTO_OP_TSTORE))
        print_operand_run(p, op, 0, nins + nouts, 0);      /* as the ISA pages: the tile first */
    else
        print_operand_run(p, op, 0, nins, print_operand_run(p, op, nins, nouts, 0));
    print_attrs(p, op);
    const ptoc_type *dst = nouts ? ptoc_op_operand(op, nins)->type : NULL;
    for (uint32_t i = 1; i < nouts; i++)
        if (ptoc_op_operand(op, nins + i)->type != dst)
            dst = NULL;
    if (dst) {
        ptoc_print_str(p, " : ");
        ptoc_print_type(p, dst);
    }
    print_cmp(p, op);
}

bool pto_print_asm(ptoc_printer *p, const ptoc_op *op)
{
    uint32_t nseg;
    const int64_t *seg = segments_of(op, &nseg);
    bool level1 = !seg && op->nresults > 0;
    if (!level1 && !(seg && dps_printable(op, seg, nseg)))
        return false;
    ptoc_print_str(p, op->name->str + strlen("pto."));
    if (level1)
        print_level1(p, op);
    else
        print_dps_statement(p, op, (uint32_t)seg[0], (uint32_t)seg[1]);
    return true;
}
