/* pto_vops.c: the vector micro-ops of dialect/pto_vops.def: their one textual
 * form, read and printed from the row's operand signature, and their verifier.
 *
 * The form is the ISA pages' SSA form:
 *   %r = pto.vadd %a, %b, %m {mode = "MERGING"} : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
 *   %v = pto.vlds %ub[%off] {dist = "NORM"} : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
 *   %p = pto.vcmp %a, %b, %seed, "lt" : ... -> !pto.mask<b32>
 *   %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
 * The operands come in the signature's order; a bracketed offset is an index
 * and a string literal becomes the string attribute the signature names, so
 * neither appears in the type list. The operand types may also be written in
 * parentheses, as some pages do, and an offset's `index` may be listed. An op
 * with no typed operand lists its result types after the colon, without an
 * arrow; one with neither (pto.a2a3.set_mask_norm) has no colon. Printing writes the form back with the types unparenthesised.
 */
#include "dialect/pto_internal.h"
#include "ptoc/ptoc.h"

#include <stdlib.h>
#include <string.h>

/* The rules of the rule column, beyond what the signature fixes. */
typedef enum vop_rule {
    VR_SAME,        /* one vector type for every v; s is its element type; masks at its granularity */
    VR_SAME_INT,    /* VR_SAME on integer elements */
    VR_SAME_FLOAT,  /* VR_SAME on float elements */
    VR_CARRY,       /* VR_SAME_INT on unsigned elements, the carry a predicate like the others */
    VR_CARRY_IN,    /* VR_CARRY with a carry in */
    VR_MULL,        /* VR_SAME on 32-bit integer elements */
    VR_CMP,         /* VR_SAME, and cmp_mode one of eq ne lt le gt ge */
    VR_LOAD,        /* the pointer's element type is the vector's (or UNPK's half as wide); dist a load distribution */
    VR_LOAD2,       /* VR_LOAD with DINTLV_B8/B16/B32 */
    VR_STORE,       /* the pointer's element type is the vector's; dist a store distribution */
    VR_STORE2,      /* VR_STORE with INTLV_B8/B16/B32 */
    VR_PLT8, VR_PLT16, VR_PLT32,     /* an i32 or index count; the mask of that granularity */
    VR_PSET8, VR_PSET16, VR_PSET32,  /* a pattern; the mask of that granularity */
    VR_PRED,        /* masks of one granularity */
    VR_PRED8, VR_PRED16,             /* masks of that granularity */
    VR_BITS8,       /* masks of any granularity in, read as their bits; b8 results (TCmp.hpp's pdintlv_b8 of b32 compares) */
    VR_PUNPACK,     /* part LOWER or HIGHER; the result one granularity wider */
    VR_PLDS, VR_PSTS,                /* dist NORM/US (load) or NORM/PK (store) */
    VR_BROADCAST,   /* s is the result's element type */
    VR_DUP,         /* a scalar of the element type or a register of the result's type */
    VR_PAIR,        /* one vector type for all four */
    VR_CVT,         /* two element types, the lanes kept, halved or doubled; the mask at the source's granularity */
    VR_HIST,        /* acc u16 x 128, src u8 x 256, a b8 mask, bank N0 or N1 */
    VR_GATHER,      /* unsigned 16- or 32-bit indices, one per data lane (per even lane of 8-bit data) */
    VR_TILE_PTR,    /* the pointer's element type is the tile's */
    VR_TILE_VALID,  /* index results */
    VR_INDEX,       /* integer lanes, s their type, order ASC or DESC */
    VR_ALIGN,       /* an align state (the signature fixes it) */
    VR_STORE_U,     /* the pointer's element type is the vector's */
    VR_FLUSH,       /* an align state and a pointer (the signature fixes them) */
    VR_BITCAST,     /* two vector types of one size */
    VR_SORT,        /* dst and src pointers of f16 or f32, one type; 32-bit integer indices */
    VR_MERGE,       /* five pointers of f16 or f32, one type */
    VR_GATHERB,     /* u32 block offsets; the pointer's element type the result's; the mask at its width */
    /* The A2/A3 repeat intrinsics' rules, pto_rops.c's in its order. */
    VR_REP_BINARY, VR_REP_BINARY_INT, VR_REP_UNARY, VR_REP_UNARY_FLOAT, VR_REP_UNARY_INT, VR_REP_SCALAR,
    VR_REP_CMP, VR_REP_CMPS, VR_REP_SEL, VR_REP_BRCB, VR_REP_DUP, VR_SET_MASK, VR_MODE, VR_SET_CMPMASK,
    VR_COPY_IN, VR_COPY_OUT, VR_COPY_UB, VR_UB_ADDR, VR_UB_PTR, VR_REP_CONV, VR_REP_SCALAR_INT,
    VR_UB_SCALAR, VR_REP_GATHER, VR_REP_SORT,
} vop_rule;
_Static_assert(VR_UB_PTR - VR_REP_BINARY == PTO_ROP_UB_PTR, "the repeat rules in pto_rops.c's order");
_Static_assert(VR_REP_CONV - VR_REP_BINARY == PTO_ROP_CONV, "the repeat rules in pto_rops.c's order");
_Static_assert(VR_REP_SCALAR_INT - VR_REP_BINARY == PTO_ROP_SCALAR_INT, "the repeat rules in pto_rops.c's order");
_Static_assert(VR_REP_SORT - VR_REP_BINARY == PTO_ROP_SORT, "the repeat rules in pto_rops.c's order");
_Static_assert(VR_REP_GATHER - VR_REP_BINARY == PTO_ROP_GATHER, "the repeat rules in pto_rops.c's order");
_Static_assert(VR_UB_SCALAR - VR_REP_BINARY == PTO_ROP_UB_SCALAR, "the repeat rules in pto_rops.c's order");

typedef struct vop_row {
    ptoc_pto_vop_info info;
    vop_rule rule;
} vop_row;

#define PTO_VOP(id, name, operands, results, attrs, rule, summary) \
    {{PTOC_PTO_VOP_##id, "pto." name, operands, results, attrs, summary}, rule},
static const vop_row vop_rows[] = {
#include "dialect/pto_vops.def"
};
#undef PTO_VOP

#define NVOPS (sizeof vop_rows / sizeof vop_rows[0])
_Static_assert(NVOPS == PTOC_PTO_VOP_COUNT, "one row per micro-op id");

static const vop_row *vop_row_of_def(const ptoc_op_def *def)
{
    if (!def || def->data < (const void *)vop_rows || def->data >= (const void *)(vop_rows + NVOPS))
        return NULL;
    return def->data;
}

ptoc_pto_vop_id ptoc_pto_vop(const ptoc_op *op)
{
    const vop_row *r = vop_row_of_def(op->def);
    return r ? r->info.id : PTOC_PTO_VOP_NONE;
}

size_t ptoc_pto_vop_count(void) { return NVOPS; }

const ptoc_pto_vop_info *ptoc_pto_vop_info_at(size_t i) { return i < NVOPS ? &vop_rows[i].info : NULL; }

/* ---------------------------------------------------------------- signatures */

/* One item of a signature: its kind letter ('v', 'm', 's', 'i', 'x', 'p',
 * 'g', 'o' for p[]'s or g[]'s offset, '\'' for a string) and, for a string,
 * its key. */
typedef struct sig_item { char kind; char key[24]; } sig_item;
#define MAX_ITEMS 16

/* Splits a signature ("v p[] 'dist' m") into items; p[] gives 'p' then 'o'. */
static uint32_t split_sig(const char *sig, sig_item *out)
{
    uint32_t n = 0;
    for (const char *s = sig; *s && n < MAX_ITEMS;) {
        if (*s == ' ') {
            s++;
            continue;
        }
        sig_item it = {*s, ""};
        if (*s == '\'') {
            const char *end = strchr(s + 1, '\'');
            size_t len = end ? (size_t)(end - s - 1) : 0;
            memcpy(it.key, s + 1, len < sizeof it.key - 1 ? len : sizeof it.key - 1);
            s = end ? end + 1 : s + strlen(s);
        } else
            s++;
        out[n++] = it;
        if ((it.kind == 'p' || it.kind == 'g') && s[0] == '[' && s[1] == ']') {
            s += 2;
            if (n < MAX_ITEMS)
                out[n++] = (sig_item){'o', ""};
        }
    }
    return n;
}

/* An item that is an SSA operand written with its type: not an offset, not a string. */
static bool typed(char kind) { return kind != 'o' && kind != '\''; }
static bool operand(char kind) { return kind != '\''; }

/* ---------------------------------------------------------------- parsing */

/* The operand items: `%a`, `%p[%off]`, `"text"`, comma-separated. */
static bool parse_items(ptoc_parser *p, ptoc_op_state *st, const sig_item *items, uint32_t n,
                        ptoc_operand_ref *refs, uint32_t *nrefs)
{
    *nrefs = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (k > 0 && items[k].kind != 'o' && !ptoc_parse_expect(p, ","))
            return false;
        if (items[k].kind == '\'') {
            ptoc_ident *text;
            if (!ptoc_parse_string(p, &text))
                return false;
            ptoc_state_add_attr(st, ptoc_ident_cstr(ptoc_parser_context(p), items[k].key),
                                ptoc_attr_string(ptoc_parser_context(p), text->str, text->len));
        } else if (items[k].kind == 'o') {
            if (!ptoc_parse_expect(p, "[") || !ptoc_parse_operand(p, &refs[(*nrefs)++]) || !ptoc_parse_expect(p, "]"))
                return false;
        } else if (!ptoc_parse_operand(p, &refs[(*nrefs)++]))
            return false;
    }
    return true;
}

/* The types after the colon, one per operand item (offsets: index unless the
 * list names them too), then the results'. */
static bool parse_vop_types(ptoc_parser *p, ptoc_op_state *st, const sig_item *items, uint32_t n, uint32_t nres,
                            ptoc_type **operand_types)
{
    uint32_t ntyped = 0, noperands = 0, ntypes = 0;
    for (uint32_t k = 0; k < n; k++) {
        ntyped += typed(items[k].kind);
        noperands += operand(items[k].kind);
    }
    ptoc_type **types = NULL, **results = NULL;
    uint32_t nresults = 0;
    ptoc_loc loc = ptoc_parser_loc(p);
    if (ntyped == 0 && nres == 0)        /* no type to list: nothing after the attributes */
        return true;
    if (!ptoc_parse_expect(p, ":"))
        return false;
    if (ntyped == 0) {                   /* `: R`: the result types alone */
        if (nres && !pto_parse_ssa_types(p, &results, &nresults))
            return false;
    } else {
        if (!pto_parse_ssa_types(p, &types, &ntypes))
            return false;
        if (ptoc_parse_optional(p, "->") && !pto_parse_ssa_types(p, &results, &nresults))
            return false;
    }
    if (ntypes != ntyped && ntypes != noperands)
        return ptoc_parser_error_at(p, loc, "'%s' takes %u operand types, got %u", st->def->name, ntyped, ntypes);
    if (nresults != nres)
        return ptoc_parser_error_at(p, loc, "'%s' has %u results, got %u types", st->def->name, nres, nresults);
    ptoc_type *index = ptoc_type_index(ptoc_parser_context(p));
    for (uint32_t k = 0, t = 0, o = 0; k < n; k++) {
        if (!operand(items[k].kind))
            continue;
        operand_types[o++] = typed(items[k].kind) || ntypes == noperands ? types[t++] : index;
    }
    for (uint32_t i = 0; i < nresults; i++)
        ptoc_state_add_result(st, results[i]);
    return true;
}

bool pto_parse_vop(ptoc_parser *p, ptoc_op_state *st)
{
    const vop_row *row = vop_row_of_def(st->def);
    if (!row)
        ptoc_unreachable("pto_parse_vop on an op that is no micro-op");
    sig_item items[MAX_ITEMS], res[MAX_ITEMS];
    uint32_t n = split_sig(row->info.operands, items), nres = split_sig(row->info.results, res);
    ptoc_operand_ref refs[MAX_ITEMS];
    ptoc_type *types[MAX_ITEMS];
    uint32_t nrefs;
    ptoc_loc loc = ptoc_parser_loc(p);
    if (!parse_items(p, st, items, n, refs, &nrefs) || !ptoc_parse_optional_attr_dict(p, st) ||
        !parse_vop_types(p, st, items, n, nres, types))
        return false;
    return ptoc_parse_resolve_list(p, refs, nrefs, types, nrefs, loc, st);
}

/* ---------------------------------------------------------------- printing */

void pto_print_vop(ptoc_printer *p, const ptoc_op *op)
{
    const vop_row *row = vop_row_of_def(op->def);
    sig_item items[MAX_ITEMS];
    uint32_t n = row ? split_sig(row->info.operands, items) : 0, o = 0, nkeys = 0;
    const char *keys[MAX_ITEMS] = {NULL};
    for (uint32_t k = 0; k < n; k++) {
        if (items[k].kind == '\'') {
            ptoc_attr *a = ptoc_op_attr(op, items[k].key);
            if (!a || a->kind != PTOC_ATTR_STRING)
                goto generic;
            keys[nkeys++] = items[k].key;
        } else if (o++ >= op->noperands)
            goto generic;
    }
    if (o != op->noperands)
        goto generic;
    o = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (items[k].kind == 'o') {
            ptoc_print_str(p, "[");
            ptoc_print_value(p, ptoc_op_operand(op, o++));
            ptoc_print_str(p, "]");
            continue;
        }
        ptoc_print_str(p, k ? ", " : " ");
        if (items[k].kind == '\'') {
            const ptoc_ident *s = ptoc_op_attr(op, items[k].key)->u.string;
            ptoc_print_string_lit(p, s->str, s->len);
        } else
            ptoc_print_value(p, ptoc_op_operand(op, o++));
    }
    ptoc_print_attr_dict(p, op, keys, nkeys);
    bool any_typed = false, first = true;
    for (uint32_t k = 0; k < n; k++)
        any_typed |= typed(items[k].kind);
    if (!any_typed && op->nresults == 0)
        return;
    ptoc_print_str(p, " : ");
    for (uint32_t k = 0, i = 0; k < n; k++) {
        if (!operand(items[k].kind))
            continue;
        if (typed(items[k].kind)) {
            ptoc_print_str(p, first ? "" : ", ");
            ptoc_print_value_type(p, ptoc_op_operand(op, i));
            first = false;
        }
        i++;
    }
    for (uint32_t r = 0; r < op->nresults; r++) {
        ptoc_print_str(p, r ? ", " : first ? "" : " -> ");
        ptoc_print_type(p, op->results[r].type);
    }
    return;
generic:                                 /* malformed: the verifier says how */
    ptoc_print_str(p, " ");
    ptoc_print_operands(p, op, 0, op->noperands);
    ptoc_print_attr_dict(p, op, NULL, 0);
    ptoc_print_str(p, " : ");
    ptoc_print_operand_types(p, op, 0, op->noperands);
    ptoc_print_arrow_result_types(p, op);
}

/* ---------------------------------------------------------------- verifier */

unsigned ptoc_pto_vreg_lane_bits(const ptoc_pto_vreg *v)
{
    unsigned bits = ptoc_type_bitwidth(v->elem);
    return bits == 64 ? 32 : bits;
}


/* A vector register holds 256 bytes, or a 512-byte pair of 64-bit elements. */
static bool check_vreg(const ptoc_op *op, const ptoc_type *t, const char *what)
{
    const ptoc_pto_vreg *v = ptoc_pto_vreg_type(t);
    unsigned bits = v ? ptoc_type_bitwidth(v->elem) : 0;
    if (!v || !bits || (!ptoc_type_is_int(v->elem) && !ptoc_type_is_float(v->elem))) {
        ptoc_op_emit_error(op, "%s must be a !pto.vreg of integers or floats", what);
        return false;
    }
    int64_t bytes = v->lanes * (int64_t)(bits / 8);
    if (bytes != 256 && !(bits == 64 && v->lanes == 64)) {
        ptoc_op_emit_error(op, "%s holds %lld bytes: a vector register is 256 (%lld lanes of %u bits)", what,
                           (long long)bytes, (long long)(2048 / bits), bits);
        return false;
    }
    return true;
}

unsigned ptoc_pto_mask_bits(const ptoc_type *t)
{
    const ptoc_pto_mask *m = ptoc_type_dialect_data(t, ptoc_pto_dialect(), PTOC_PTO_TYPE_MASK);
    if (!m || !m->granularity)
        return 0;
    const char *g = m->granularity->str;
    return !strcmp(g, "b8") ? 8 : !strcmp(g, "b16") ? 16 : !strcmp(g, "b32") ? 32 : 0;
}

static bool check_mask(const ptoc_op *op, const ptoc_type *t, unsigned want, const char *what)
{
    unsigned g = ptoc_pto_mask_bits(t);
    if (!g) {
        ptoc_op_emit_error(op, "%s must be a !pto.mask<b8>, <b16> or <b32>", what);
        return false;
    }
    if (want && g != want) {
        ptoc_op_emit_error(op, "%s is a !pto.mask<b%u>; the op's lanes are b%u", what, g, want);
        return false;
    }
    return true;
}

/* The value and kind of each item, operands then results. */
typedef struct vop_view {
    const ptoc_op *op;
    const vop_row *row;
    sig_item items[MAX_ITEMS], res[MAX_ITEMS];
    uint32_t nitems, nres;
    const ptoc_type *types[2 * MAX_ITEMS];   /* per typed operand item, then per result */
    char kinds[2 * MAX_ITEMS];
    uint32_t ntypes;
} vop_view;

static bool check_counts(vop_view *w)
{
    const ptoc_op *op = w->op;
    uint32_t noperands = 0;
    for (uint32_t k = 0; k < w->nitems; k++)
        noperands += operand(w->items[k].kind);
    if (op->noperands != noperands || op->nresults != w->nres) {
        ptoc_op_emit_error(op, "expects %u operands and %u results, got %u and %u", noperands, w->nres,
                           op->noperands, op->nresults);
        return false;
    }
    for (uint32_t k = 0, o = 0; k < w->nitems; k++) {
        if (!operand(w->items[k].kind))
            continue;
        const ptoc_type *t = ptoc_op_operand(op, o++)->type;
        if (w->items[k].kind == 'o') {
            if (!ptoc_type_is_int_or_index(t)) {
                ptoc_op_emit_error(op, "operand %u, an offset, must be an index or an integer", o - 1);
                return false;
            }
            continue;
        }
        w->types[w->ntypes] = t;
        w->kinds[w->ntypes++] = w->items[k].kind;
    }
    for (uint32_t r = 0; r < w->nres; r++) {
        w->types[w->ntypes] = op->results[r].type;
        w->kinds[w->ntypes++] = w->res[r].kind;
    }
    return true;
}

/* Each item is of its kind. */
/* The element type of a tile in vec: a !pto.tile_buf, or an on-chip memref
 * in vec (a row_major none_box tile of its shape, as PTOAS kernels pass
 * buffers); NULL for anything else. */
static const ptoc_type *vec_tile_elem(const ptoc_type *t)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(t);
    ptoc_pto_address_space space;
    if (d)
        return d->loc == PTOC_PTO_AS_VEC ? d->elem : NULL;
    if (ptoc_pto_memref_space(t, &space) && space == PTOC_PTO_AS_VEC)
        return t->u.shaped.elem;
    return NULL;
}

static bool check_kinds(const vop_view *w)
{
    for (uint32_t i = 0; i < w->ntypes; i++) {
        const ptoc_type *t = w->types[i];
        bool ok = true;
        switch (w->kinds[i]) {
        case 'v': ok = check_vreg(w->op, t, "a vector operand or result"); break;
        case 'm': ok = check_mask(w->op, t, 0, "a predicate operand or result"); break;
        case 'p':
            if (!ptoc_pto_ub_ptr_elem(t)) {
                ptoc_op_emit_error(w->op, "a pointer operand must be a UB pointer (!pto.ptr<T, ub>)");
                ok = false;
            }
            break;
        case 'g':
            if (!ptoc_pto_ptr_elem(t)) {
                ptoc_op_emit_error(w->op, "a GM pointer operand must be a !pto.ptr<T>");
                ok = false;
            }
            break;
        case 'i':
            if (!ptoc_type_is_int_or_index(t)) {
                ptoc_op_emit_error(w->op, "a count must be an integer or an index");
                ok = false;
            }
            break;
        case 't': {
            if (!vec_tile_elem(t)) {
                ptoc_op_emit_error(w->op, "a tile operand must be a !pto.tile_buf in vec");
                ok = false;
            }
            break;
        }
        case 'a':
            if (!ptoc_pto_type_is(t, PTOC_PTO_TYPE_ALIGN)) {
                ptoc_op_emit_error(w->op, "an align operand or result must be a !pto.align");
                ok = false;
            }
            break;
        case 's':
            if (!ptoc_type_is_int_or_index(t) && !ptoc_type_is_float(t)) {
                ptoc_op_emit_error(w->op, "a scalar operand must be an integer or a float");
                ok = false;
            }
            break;
        default: break;
        }
        if (!ok)
            return false;
    }
    return true;
}

/* Whether `word` is one of the space-separated words of `list`. */
static bool in_words(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *s = strstr(list, word); s && len; s = strstr(s + 1, word))
        if ((s == list || s[-1] == ' ') && (s[len] == ' ' || s[len] == '\0'))
            return true;
    return false;
}

/* The attribute dict holds only the row's attributes and its string operands'
 * keys, each a string (post_update: a unit attribute; blk, rep: lists). */
static bool check_attrs(const vop_view *w)
{
    const ptoc_op *op = w->op;
    for (uint32_t i = 0; i < op->nattrs; i++) {
        const char *name = op->attrs[i].name->str;
        bool known = false;
        for (uint32_t k = 0; k < w->nitems; k++)
            known |= w->items[k].kind == '\'' && !strcmp(w->items[k].key, name);
        known |= in_words(w->row->info.attrs, name);
        if (!known) {
            ptoc_op_emit_error(op, "has no attribute '%s' (it takes: %s)", name,
                               *w->row->info.attrs ? w->row->info.attrs : "none");
            return false;
        }
        ptoc_attr *a = op->attrs[i].value;
        bool unit = !strcmp(name, "post_update"), list = !strcmp(name, "blk") || !strcmp(name, "rep");
        ptoc_attr_kind want = unit ? PTOC_ATTR_UNIT : list ? PTOC_ATTR_ARRAY : PTOC_ATTR_STRING;
        if (a->kind != want) {
            ptoc_op_emit_error(op, "attribute '%s' must be %s", name,
                               unit ? "a unit attribute" : list ? "a list of strides" : "a string");
            return false;
        }
    }
    return true;
}

/* A string attribute's value among `choices` (space-separated), if present
 * (a string operand's is: pto_verify_vop checks that first). */
static bool check_choice(const ptoc_op *op, const char *name, const char *choices)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    if (!a)
        return true;
    if (in_words(choices, a->u.string->str))
        return true;
    ptoc_op_emit_error(op, "%s '%s' is not one of: %s", name, a->u.string->str, choices);
    return false;
}

/* ---------------------------------------------------------------- the rules */

/* Every 'v' item has the type of the first; returns it (NULL after an error). */
static const ptoc_type *same_vectors(const vop_view *w)
{
    const ptoc_type *vt = NULL;
    for (uint32_t i = 0; i < w->ntypes; i++) {
        if (w->kinds[i] != 'v')
            continue;
        if (!vt)
            vt = w->types[i];
        else if (w->types[i] != vt) {
            ptoc_op_emit_error(w->op, "its vector operands and results must have one type");
            return NULL;
        }
    }
    return vt;
}

static bool masks_at(const vop_view *w, unsigned g)
{
    for (uint32_t i = 0; i < w->ntypes; i++)
        if (w->kinds[i] == 'm' && !check_mask(w->op, w->types[i], g, "a predicate"))
            return false;
    return true;
}

/* A scalar has the element type; an unsigned vector's may also be the
 * signless integer of its width (arith's integers are signless). */
static bool scalar_fits(const ptoc_type *t, const ptoc_type *elem)
{
    return t == elem || (ptoc_type_is_int(t) && ptoc_type_is_int(elem) && t->u.integer.sign == PTOC_SIGNLESS &&
                         ptoc_type_bitwidth(t) == ptoc_type_bitwidth(elem));
}

static bool scalars_are(const vop_view *w, const ptoc_type *elem)
{
    for (uint32_t i = 0; i < w->ntypes; i++)
        if (w->kinds[i] == 's' && !scalar_fits(w->types[i], elem)) {
            ptoc_op_emit_error(w->op, "its scalar operand must have the vector's element type");
            return false;
        }
    return true;
}

static const ptoc_type *elem_of(const ptoc_type *vt) { return ptoc_pto_vreg_type(vt)->elem; }

/* The rules on one vector type: VR_SAME and its refinements. */
static bool check_same(const vop_view *w, vop_rule rule)
{
    const ptoc_type *vt = same_vectors(w);
    if (!vt)
        return false;
    const ptoc_type *e = elem_of(vt);
    unsigned bits = ptoc_type_bitwidth(e);
    bool is_int = ptoc_type_is_int(e), is_unsigned = is_int && e->u.integer.sign == PTOC_UNSIGNED;
    const char *need = NULL;
    if ((rule == VR_SAME_INT || rule == VR_CARRY || rule == VR_CARRY_IN || rule == VR_MULL) && !is_int)
        need = "integer";
    else if (rule == VR_SAME_FLOAT && is_int)
        need = "float";
    else if ((rule == VR_CARRY || rule == VR_CARRY_IN) && !is_unsigned)
        need = "unsigned integer";
    else if (rule == VR_MULL && bits != 32)
        need = "32-bit integer";
    if (need) {
        ptoc_op_emit_error(w->op, "works on %s elements", need);
        return false;
    }
    if (!masks_at(w, ptoc_pto_vreg_lane_bits(ptoc_pto_vreg_type(vt))) || !scalars_are(w, e))
        return false;
    return rule != VR_CMP || check_choice(w->op, "cmp_mode", "eq ne lt le gt ge");
}

/* The width suffix of a distribution (NORM_B32 -> 32), 0 when none. */
static unsigned dist_width(const char *dist)
{
    const char *b = strrchr(dist, 'B');
    return b && b > dist && b[-1] == '_' ? (unsigned)atoi(b + 1) : 0;
}

/* The paired loads and the stores: the pointer's element type is the
 * vector's, the distribution one of `choices`, a width suffix the lanes'. */
static bool check_memory(const vop_view *w, const char *choices)
{
    const ptoc_type *vt = same_vectors(w);
    if (!vt)
        return false;
    const ptoc_type *e = elem_of(vt), *pe = NULL;
    for (uint32_t i = 0; i < w->ntypes && !pe; i++)
        if (w->kinds[i] == 'p')
            pe = ptoc_pto_ub_ptr_elem(w->types[i]);
    if (pe != e) {
        ptoc_op_emit_error(w->op, "the pointer's element type must be the vector's");
        return false;
    }
    if (!check_choice(w->op, "dist", choices))
        return false;
    ptoc_attr *dist = ptoc_op_attr(w->op, "dist");
    const char *d = dist ? dist->u.string->str : "";
    unsigned bits = ptoc_type_bitwidth(e), dw = dist_width(d);
    if (dw && dw != ptoc_pto_vreg_lane_bits(ptoc_pto_vreg_type(vt))) {
        ptoc_op_emit_error(w->op, "dist %s is for %u-bit elements, the vector's are %u-bit", d, dw, bits);
        return false;
    }
    return masks_at(w, ptoc_pto_vreg_lane_bits(ptoc_pto_vreg_type(vt)));
}

static bool packed_store(const vop_view *w)
{
    ptoc_attr *dist = ptoc_op_attr(w->op, "dist");
    return dist && dist->kind == PTOC_ATTR_STRING &&
           (!strncmp(dist->u.string->str, "PK_B", 4) || !strcmp(dist->u.string->str, "PK4_B32"));
}

/* vsts PK_B16 / PK_B32 (a5/TCvt.hpp's narrowing stores): the low half of
 * each n-bit lane, packed, so a vector of n/2-bit elements (a narrowing
 * vcvt's EVEN result) under a predicate of granularity n. PK4_B32
 * (a5/TQuant.hpp's int8 stores): the low byte of each 32-bit lane. */
static bool check_packed_store(const vop_view *w)
{
    const char *d = ptoc_op_attr(w->op, "dist")->u.string->str;
    const ptoc_type *e = elem_of(w->types[0]), *pe = NULL;
    for (uint32_t i = 0; i < w->ntypes && !pe; i++)
        if (w->kinds[i] == 'p')
            pe = ptoc_pto_ub_ptr_elem(w->types[i]);
    unsigned n = dist_width(d), bits = ptoc_type_bitwidth(e);
    if (!strcmp(d, "PK4_B32")) {
        if (bits != 8 || pe != e) {
            ptoc_op_emit_error(w->op, "dist PK4_B32 packs the low bytes of 32-bit lanes: a vector and "
                                      "pointer of 8-bit elements");
            return false;
        }
        return masks_at(w, 32);
    }
    if ((n != 16 && n != 32) || bits * 2 != n || pe != e) {
        ptoc_op_emit_error(w->op, "dist %s packs the low halves of %u-bit lanes: a vector and pointer of %u-bit "
                                  "elements", d, n ? n : 16, n ? n / 2 : 8);
        return false;
    }
    return masks_at(w, n);
}

#define LOAD_DISTS "NORM BRC_B8 BRC_B16 BRC_B32 US_B8 US_B16 DS_B8 DS_B16 UNPK_B8 UNPK_B16 UNPK_B32 " \
                   "UNPK4_B8 " \
                   "DINTLV_B32 SPLT2CHN_B8 SPLT2CHN_B16 BLK"

static bool is_signed_int(const ptoc_type *t) { return ptoc_type_is_int(t) && t->u.integer.sign == PTOC_SIGNED; }

/* vlds: every distribution reads elements of the vector's type, of the
 * width its suffix names, except UNPK_Bn, which may also zero-extend its
 * n-bit integers into integers twice as wide (not signed ones: the bits are
 * zero-extended). A 64-bit register (a lo/hi pair) loads by NORM or BRC_B32. */
static bool check_load(const vop_view *w)
{
    const ptoc_type *e = elem_of(w->types[1]), *pe = ptoc_pto_ub_ptr_elem(w->types[0]);
    unsigned bits = ptoc_type_bitwidth(e), pbits = ptoc_type_bitwidth(pe);
    if (!check_choice(w->op, "dist", LOAD_DISTS))
        return false;
    ptoc_attr *dist = ptoc_op_attr(w->op, "dist");
    const char *d = dist ? dist->u.string->str : "NORM";
    bool unpk = !strncmp(d, "UNPK", 4), widened = unpk && pe != e;
    if (widened && !(ptoc_type_is_int(pe) && ptoc_type_is_int(e) && !is_signed_int(e) && pbits * 2 == bits)) {
        ptoc_op_emit_error(w->op, "dist %s gives the pointer's elements, or zero-extends integers into unsigned "
                                  "(or signless) integers twice as wide", d);
        return false;
    }
    if (pe != e && !widened) {
        ptoc_op_emit_error(w->op, "the pointer's element type must be the vector's");
        return false;
    }
    if (bits == 64 && strcmp(d, "NORM") && strcmp(d, "BRC_B32")) {
        ptoc_op_emit_error(w->op, "a 64-bit register loads by NORM or BRC_B32, not %s", d);
        return false;
    }
    unsigned dw = dist_width(d), lane = bits == 64 ? 32 : pbits;
    if (dw && dw != lane) {
        ptoc_op_emit_error(w->op, "dist %s is for %u-bit elements, the %s are %u-bit", d, dw,
                           widened ? "pointer's" : "vector's", pbits);
        return false;
    }
    return true;
}

/* plt_bN and pset_bN: the mask of that granularity; plt's count out has the count's type. */
static bool check_pred_make(const vop_view *w, unsigned g, bool plt)
{
    if (!masks_at(w, g))
        return false;
    if (plt && w->types[0] != w->types[w->ntypes - 1]) {
        ptoc_op_emit_error(w->op, "the count it gives back has the count's type");
        return false;
    }
    if (plt)
        return true;
    const char *pat = ptoc_op_attr(w->op, "pattern")->u.string->str;
    if (!strncmp(pat, "PAT_VL", 6) && atoi(pat + 6) > 0 && atoi(pat + 6) <= (int)(2048 / g))
        return true;
    return check_choice(w->op, "pattern", "PAT_ALL PAT_ALLF PAT_H PAT_Q PAT_M3 PAT_M4 PAT_VL<n>");
}

/* All predicates of one granularity (`g`, or the first's when 0). */
static bool check_preds(const vop_view *w, unsigned g)
{
    for (uint32_t i = 0; i < w->ntypes && !g; i++)
        if (w->kinds[i] == 'm')
            g = ptoc_pto_mask_bits(w->types[i]);
    return masks_at(w, g);
}

static bool check_punpack(const vop_view *w)
{
    unsigned in = ptoc_pto_mask_bits(w->types[0]), out = ptoc_pto_mask_bits(w->types[1]);
    if (out != 2 * in) {
        ptoc_op_emit_error(w->op, "widens a predicate one granularity: b8 to b16 or b16 to b32");
        return false;
    }
    return check_choice(w->op, "part", "LOWER HIGHER");
}

static bool check_dup(const vop_view *w, bool broadcast)
{
    const ptoc_type *src = w->types[0], *vt = w->types[w->ntypes - 1];
    const ptoc_type *e = elem_of(vt);
    bool from_reg = ptoc_pto_vreg_type(src) != NULL;
    if (from_reg ? src != vt : !scalar_fits(src, e)) {
        ptoc_op_emit_error(w->op, "its source must be a scalar of the result's element type%s",
                           broadcast ? "" : " or a register of the result's type");
        return false;
    }
    if (!broadcast && from_reg && !check_choice(w->op, "position", "LOWEST HIGHEST"))
        return false;
    return masks_at(w, ptoc_pto_vreg_lane_bits(ptoc_pto_vreg_type(vt)));
}

static bool is_float_kind(const ptoc_type *t, ptoc_float_kind k) { return ptoc_type_is_float(t) && t->u.fp.kind == k; }

/* vcvt (vcvt.md): to another element type, the lane count kept, halved or
 * doubled (part only then); no integer narrowed to a float (TCVT.md: A5 has
 * no i32 -> f16); rnd O from f32 to f16 only (the pair a5/TCvt.hpp rounds to
 * odd); a 64-bit integer to a float by rnd R only (nothing rounds it once
 * by the others). */
static bool check_cvt(const vop_view *w)
{
    const ptoc_pto_vreg *src = ptoc_pto_vreg_type(w->types[0]), *dst = ptoc_pto_vreg_type(w->types[2]);
    if (!masks_at(w, ptoc_pto_vreg_lane_bits(src)) || !check_choice(w->op, "rnd", "R A F C Z O") ||
        !check_choice(w->op, "sat", "SAT NOSAT"))
        return false;
    const ptoc_type *se = src->elem, *de = dst->elem;
    bool changes = dst->lanes != src->lanes, to_float = ptoc_type_is_int(se) && ptoc_type_is_float(de);
    ptoc_attr *rnd = ptoc_op_attr(w->op, "rnd"), *part = ptoc_op_attr(w->op, "part");
    const char *r = rnd ? rnd->u.string->str : "R", *why = NULL;
    bool quarter = part && part->u.string->str[0] == 'P';
    if (se == de)
        why = "converts to another element type";
    else if (changes && dst->lanes * 2 != src->lanes && dst->lanes != src->lanes * 2 &&
             !(dst->lanes * 4 == src->lanes && quarter))
        why = "keeps, halves or doubles the lane count, or quarters it reading part P0..P3 (8-bit to "
              "32-bit lanes; 32-bit to 8-bit is not taken)";
    else if (quarter && dst->lanes * 4 != src->lanes)
        why = "reads a part P0..P3 only when it quarters the lane count";
    else if (!changes && ptoc_op_attr(w->op, "part"))
        why = "takes a part only where the lane count changes";
    else if (to_float && dst->lanes > src->lanes)
        why = "narrows no integer to a float";
    else if (!strcmp(r, "O") && !(is_float_kind(se, PTOC_F32) && is_float_kind(de, PTOC_F16)))
        why = "rounds to odd (rnd O) from f32 to f16 only";
    else if (to_float && ptoc_type_bitwidth(se) == 64 && strcmp(r, "R"))
        why = "converts a 64-bit integer to a float by rnd R only";
    if (why)
        ptoc_op_emit_error(w->op, "%s", why);
    return !why;
}

static bool is_uint(const ptoc_type *t, unsigned bits)
{
    return ptoc_type_is_int(t) && t->u.integer.sign == PTOC_UNSIGNED && ptoc_type_bitwidth(t) == bits;
}

static bool check_hist(const vop_view *w)
{
    const ptoc_type *acc = w->types[0], *src = w->types[1], *res = w->types[w->ntypes - 1];
    if (acc != res || !is_uint(elem_of(acc), 16) || !is_uint(elem_of(src), 8)) {
        ptoc_op_emit_error(w->op, "counts u8 lanes (!pto.vreg<256xui8>) into u16 bins (!pto.vreg<128xui16>, the "
                                  "accumulator and the result)");
        return false;
    }
    return masks_at(w, 8) && check_choice(w->op, "bank", "N0 N1");
}

/* vgather2 and vscatter (a5/TGather.hpp, TScatter.hpp, TTrans.hpp): the
 * pointer's element type is the data's; the indices are unsigned lanes of
 * the data's width (the library reinterprets signed index tiles), or 16-bit
 * ones for 8-bit data, one per even lane; the predicate is the indices'. */
static bool check_gather(const vop_view *w)
{
    bool scatter = w->nres == 0;
    const ptoc_type *data = w->types[scatter ? 0 : 3], *pe = ptoc_pto_ub_ptr_elem(w->types[scatter ? 1 : 0]);
    const ptoc_type *idx = elem_of(w->types[scatter ? 2 : 1]), *e = elem_of(data);
    unsigned ibits = ptoc_type_bitwidth(idx), dbits = ptoc_type_bitwidth(e);
    bool unsigned_idx = ptoc_type_is_int(idx) && idx->u.integer.sign != PTOC_SIGNED;
    if (w->row->info.id == PTOC_PTO_VOP_VGATHER2_BC) {
        if (!unsigned_idx || ibits != 32 || dbits != 16) {
            ptoc_op_emit_error(w->op, "gathers 16-bit elements at unsigned 32-bit indices");
            return false;
        }
    } else if (!unsigned_idx || (ibits != 16 && ibits != 32) || (ibits != dbits && !(dbits == 8 && ibits == 16))) {
        ptoc_op_emit_error(w->op,
                           "takes unsigned 16- or 32-bit indices of the data's width (16-bit for 8-bit data)");
        return false;
    }
    if (pe != e) {
        ptoc_op_emit_error(w->op, "the pointer's element type must be the vector's");
        return false;
    }
    return masks_at(w, ibits);
}

/* vbitsort (VR_SORT) and vmrgsort4 (VR_MERGE): pairs of an f16 or f32 value. */
static bool check_sort(const vop_view *w, bool merge)
{
    const ptoc_type *e = ptoc_pto_ub_ptr_elem(w->types[0]);
    bool value = ptoc_type_is_float(e) && (e->u.fp.kind == PTOC_F32 || e->u.fp.kind == PTOC_F16);
    for (uint32_t i = 1; i < (merge ? 5u : 2u); i++)
        value = value && ptoc_pto_ub_ptr_elem(w->types[i]) == e;
    if (!value) {
        ptoc_op_emit_error(w->op, "sorts pairs of one value type, f16 or f32, in dst and its lists");
        return false;
    }
    const ptoc_type *ie = ptoc_pto_ub_ptr_elem(w->types[2]);
    if (!merge && !(ptoc_type_is_int(ie) && ptoc_type_bitwidth(ie) == 32)) {
        ptoc_op_emit_error(w->op, "takes 32-bit integer indices");
        return false;
    }
    return true;
}

static bool check_rule(const vop_view *w)
{
    vop_rule rule = w->row->rule;
    switch (rule) {
    case VR_SAME: case VR_SAME_INT: case VR_SAME_FLOAT: case VR_CARRY: case VR_CARRY_IN: case VR_MULL:
    case VR_CMP: case VR_PAIR:
        return check_same(w, rule);
    case VR_LOAD:
        return check_load(w);
    case VR_LOAD2: return check_memory(w, "DINTLV_B8 DINTLV_B16 DINTLV_B32");
    case VR_STORE: return packed_store(w) ? check_packed_store(w) : check_memory(w, "NORM_B8 NORM_B16 NORM_B32");
    case VR_STORE2: return check_memory(w, "INTLV_B8 INTLV_B16 INTLV_B32");
    case VR_PLT8: return check_pred_make(w, 8, true);
    case VR_PLT16: return check_pred_make(w, 16, true);
    case VR_PLT32: return check_pred_make(w, 32, true);
    case VR_PSET8: return check_pred_make(w, 8, false);
    case VR_PSET16: return check_pred_make(w, 16, false);
    case VR_PSET32: return check_pred_make(w, 32, false);
    case VR_PRED: return check_preds(w, 0);
    case VR_PRED8: return check_preds(w, 8);
    case VR_BITS8:
        for (uint32_t i = 0; i < w->ntypes; i++)
            if (w->kinds[i] == 'm' && !check_mask(w->op, w->types[i], i < 2 ? 0 : 8, "a predicate"))
                return false;
        return true;
    case VR_PRED16: return check_preds(w, 16);
    case VR_PUNPACK: return check_punpack(w);
    case VR_PLDS: return check_choice(w->op, "dist", "NORM US");
    case VR_PSTS: return check_choice(w->op, "dist", "NORM PK");
    case VR_BROADCAST: return check_dup(w, true);
    case VR_DUP: return check_dup(w, false);
    case VR_CVT: return check_cvt(w);
    case VR_HIST: return check_hist(w);
    case VR_GATHER: return check_gather(w);
    case VR_TILE_PTR: {
        /* a 64-bit tile's elements may also be read as their u32 words (pto-split-u64),
         * an integer tile's as its bytes (mask tiles) or 16-bit words (A2/A3 TCmp.hpp's
         * vnot of the mask), any tile's as another type of its width (A2/A3 TSel.hpp
         * selects on half or float by size) */
        const ptoc_type *pe = ptoc_pto_ub_ptr_elem(w->types[1]), *te = vec_tile_elem(w->types[0]);
        bool words = ptoc_type_is_int(te) && ptoc_type_bitwidth(te) == 64 && is_uint(pe, 32);
        bool bytes = ptoc_type_is_int(te) && ptoc_type_is_int(pe) && ptoc_type_bitwidth(pe) <= 16 &&
                     ptoc_type_bitwidth(pe) >= ptoc_type_bitwidth(te);
        bool same_width = ptoc_type_bitwidth(pe) == ptoc_type_bitwidth(te);
        /* a float tile's bytes as u32 words: the index pads a sort writes into its dst (lower_a5_sort.c) */
        words = words || (ptoc_type_is_float(te) && is_uint(pe, 32));
        if (pe != te && !words && !bytes && !same_width && !(ptoc_type_is_int(te) && is_uint(pe, 8))) {
            ptoc_op_emit_error(w->op, "the pointer's element type must be the tile's, or of its width (ui32 for a "
                                      "64-bit tile, ui8 or a 16-bit integer for an 8-bit integer tile)");
            return false;
        }
        return true;
    }
    case VR_TILE_VALID:
        if (w->types[1]->kind != PTOC_TYPE_INDEX || w->types[2]->kind != PTOC_TYPE_INDEX) {
            ptoc_op_emit_error(w->op, "its results must be indexes");
            return false;
        }
        return true;
    case VR_INDEX:
        if (!ptoc_type_is_int(elem_of(w->types[1]))) {
            ptoc_op_emit_error(w->op, "generates integer lanes");
            return false;
        }
        return scalars_are(w, elem_of(w->types[1])) && check_choice(w->op, "order", "ASC DESC");
    case VR_STORE_U: return check_memory(w, "");
    case VR_ALIGN: case VR_FLUSH: return true;
    case VR_SORT: return check_sort(w, false);
    case VR_MERGE: return check_sort(w, true);
    case VR_GATHERB:
        if (!is_uint(elem_of(w->types[1]), 32)) {
            ptoc_op_emit_error(w->op, "takes its block offsets as ui32 lanes");
            return false;
        }
        if (ptoc_pto_ub_ptr_elem(w->types[0]) != elem_of(w->types[3])) {
            ptoc_op_emit_error(w->op, "the pointer's element type must be the vector's");
            return false;
        }
        return masks_at(w, ptoc_type_bitwidth(elem_of(w->types[3])));
    case VR_BITCAST: {
        const ptoc_pto_vreg *a = ptoc_pto_vreg_type(w->types[0]), *b = ptoc_pto_vreg_type(w->types[1]);
        if (a->lanes * ptoc_type_bitwidth(a->elem) != b->lanes * ptoc_type_bitwidth(b->elem)) {
            ptoc_op_emit_error(w->op, "keeps the register's size: lanes x element bits must agree");
            return false;
        }
        return true;
    }
    case VR_REP_BINARY: case VR_REP_BINARY_INT: case VR_REP_UNARY: case VR_REP_UNARY_FLOAT: case VR_REP_UNARY_INT:
    case VR_REP_SCALAR: case VR_REP_CMP: case VR_REP_CMPS: case VR_REP_SEL: case VR_REP_BRCB: case VR_REP_DUP:
    case VR_SET_MASK: case VR_MODE: case VR_SET_CMPMASK: case VR_COPY_IN: case VR_COPY_OUT: case VR_COPY_UB:
    case VR_UB_ADDR: case VR_UB_PTR: case VR_REP_CONV: case VR_REP_SCALAR_INT:
    case VR_UB_SCALAR: case VR_REP_GATHER: case VR_REP_SORT:
        return pto_check_rop(w->op, (pto_rop_rule)(rule - VR_REP_BINARY), w->types, w->kinds, w->ntypes);
    }
    return true;
}

bool pto_verify_vop(const ptoc_op *op)
{
    vop_view w = {.op = op, .row = vop_row_of_def(op->def)};
    if (!w.row)
        ptoc_unreachable("pto_verify_vop on an op that is no micro-op");
    w.nitems = split_sig(w.row->info.operands, w.items);
    w.nres = split_sig(w.row->info.results, w.res);
    if (!check_counts(&w) || !check_kinds(&w) || !check_attrs(&w))
        return false;
    const char *attrs = w.row->info.attrs;
    if ((in_words(attrs, "mode") && !check_choice(op, "mode", "ZEROING MERGING")) ||
        (in_words(attrs, "part") &&
         !check_choice(op, "part", w.row->rule == VR_CVT ? "EVEN ODD P0 P1 P2 P3" : "EVEN ODD")))
        return false;
    for (uint32_t k = 0; k < w.nitems; k++)
        if (w.items[k].kind == '\'' && !ptoc_op_attr(op, w.items[k].key)) {
            ptoc_op_emit_error(op, "needs the string operand '%s'", w.items[k].key);
            return false;
        }
    return check_rule(&w);
}

/* ---------------------------------------------------------------- registration */

/* The ops' defs, after the tile ops' in the pto dialect's array. One that
 * reads or writes memory (a pointer operand) or the core's vector state (the
 * A2/A3 ops) is not pure: it stays in order. */
void pto_fill_vop_defs(ptoc_op_def *defs)
{
    for (size_t i = 0; i < NVOPS; i++) {
        bool memory = strchr(vop_rows[i].info.operands, 'p') != NULL || vop_rows[i].rule >= VR_REP_BINARY;
        defs[i] = (ptoc_op_def){.name = vop_rows[i].info.name, .flags = memory ? 0 : PTOC_OPF_PURE,
                                .parse = pto_parse_vop, .print = pto_print_vop, .verify = pto_verify_vop,
                                .data = &vop_rows[i]};
    }
}
