/* pto_attrs.c: the pto dialect's attributes.
 *
 * Almost every pto attribute is an enum: one table row per kind (its mnemonic,
 * whether MLIR spells it `#pto.kind<value>` or `#pto<kind value>`, and its
 * values with PTOAS's numbers) serves the parser, the printer and the accessors
 * in pto.h. Either spelling is accepted on input for every kind (PTOAS's own
 * comments write `#pto.cmp<gt>`); each kind prints in its canonical one. The blob
 * of an enum attribute is its uint32_t value.
 *
 * The one structured attribute is #pto.tile_buf_config<key=value, ...>, whose
 * keys come in any order and whose values may be integers, bare keywords or the
 * matching enum attribute.
 */
#include <string.h>

#include "dialect/pto_internal.h"

typedef struct pto_enum_value {
    const char *name;
    uint32_t value;
} pto_enum_value;

typedef struct pto_enum_def {
    const char *mnemonic;
    bool enclosed;                    /* canonical spelling `#pto<kind value>` */
    const pto_enum_value *values;
    size_t count;
} pto_enum_def;

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const pto_enum_value address_space_values[] = {
    {"zero", 0}, {"gm", 1}, {"mat", 2}, {"left", 3}, {"right", 4},
    {"acc", 5}, {"vec", 6}, {"bias", 7}, {"scaling", 8},
};
static const pto_enum_value pipe_values[] = {
    {"PIPE_S", 0}, {"PIPE_V", 1}, {"PIPE_M", 2}, {"PIPE_MTE1", 3}, {"PIPE_MTE2", 4},
    {"PIPE_MTE3", 5}, {"PIPE_ALL", 6}, {"PIPE_MTE4", 7}, {"PIPE_MTE5", 8}, {"PIPE_V2", 9},
    {"PIPE_FIX", 10}, {"VIRTUAL_PIPE_MTE2_L1A", 11}, {"VIRTUAL_PIPE_MTE2_L1B", 12},
    {"PIPE_NUM", 13}, {"PIPE_UNASSIGNED", 99},
};
static const pto_enum_value event_values[] = {
    {"EVENT_ID0", 0}, {"EVENT_ID1", 1}, {"EVENT_ID2", 2}, {"EVENT_ID3", 3},
    {"EVENT_ID4", 4}, {"EVENT_ID5", 5}, {"EVENT_ID6", 6}, {"EVENT_ID7", 7},
};
static const pto_enum_value pipe_event_values[] = {
    {"TLOAD", 0}, {"TSTORE_ACC", 1}, {"TSTORE_VEC", 2}, {"TMOV_M2L", 3}, {"TMOV_M2S", 4},
    {"TMOV_M2B", 5}, {"TMOV_M2V", 6}, {"TMOV_V2M", 7}, {"TMATMUL", 8}, {"TVEC", 9},
    {"TVECWAIT_EVENT", 10},
};
static const pto_enum_value layout_values[] = {{"nd", 0}, {"dn", 1}, {"nz", 2}};
static const pto_enum_value blayout_values[] = {{"row_major", 0}, {"col_major", 1}};
static const pto_enum_value slayout_values[] = {{"none_box", 0}, {"row_major", 1}, {"col_major", 2}};
static const pto_enum_value pad_values[] = {{"null", 0}, {"zero", 1}, {"max", 2}, {"min", 3}};
static const pto_enum_value compact_values[] = {{"null", 0}, {"normal", 1}, {"row_plus_one", 2}};
static const pto_enum_value kernel_kind_values[] = {{"cube", 0}, {"vector", 1}};
static const pto_enum_value core_type_values[] = {
    {"AIC", 1}, {"AIV", 2}, {"MIX", 3}, {"AIC_OR_AIV", 4},
};
static const pto_enum_value mask_pattern_values[] = {
    {"P0101", 1}, {"P1010", 2}, {"P0001", 3}, {"P0010", 4}, {"P0100", 5}, {"P1000", 6}, {"P1111", 7},
};
static const pto_enum_value acc_to_vec_values[] = {
    {"single_mode_vec0", 0}, {"single_mode_vec1", 1}, {"dual_mode_split_m", 2}, {"dual_mode_split_n", 3},
};
static const pto_enum_value padmode_values[] = {{"PadNull", 0}, {"PadFirstElem", 1}, {"PadValue", 2}};
static const pto_enum_value cmp_values[] = {
    {"eq", 0}, {"ne", 1}, {"lt", 2}, {"le", 3}, {"gt", 4}, {"ge", 5},
};
static const pto_enum_value round_mode_values[] = {
    {"NONE", 0}, {"RINT", 1}, {"ROUND", 2}, {"FLOOR", 3}, {"CEIL", 4}, {"TRUNC", 5},
    {"ODD", 6}, {"CAST_RINT", 7},
};
static const pto_enum_value saturation_values[] = {{"ON", 0}, {"OFF", 1}};
static const pto_enum_value st_phase_values[] = {{"unspecified", 0}, {"partial", 2}, {"final", 3}};
static const pto_enum_value atomic_values[] = {{"atomic_none", 0}, {"atomic_add", 1}};
static const pto_enum_value relu_values[] = {{"no_relu", 0}, {"normal_relu", 1}};
static const pto_enum_value gather_oob_values[] = {
    {"undefined", 0}, {"clamp", 1}, {"wrap", 2}, {"zero", 3},
};
static const pto_enum_value scatter_atomic_values[] = {{"none", 0}, {"add", 1}, {"max", 2}, {"min", 3}};
static const pto_enum_value scatter_oob_values[] = {
    {"undefined", 0}, {"skip", 1}, {"clamp", 2}, {"wrap", 3},
};
static const pto_enum_value quant_values[] = {{"INT8_SYM", 0}, {"INT8_ASYM", 1}};

/* Indexed by ptoc_pto_enum_kind. */
static const pto_enum_def enum_defs[PTOC_PTO_ENUM_KIND_COUNT] = {
    [PTOC_PTO_ENUM_ADDRESS_SPACE] = {"address_space", false, address_space_values, N(address_space_values)},
    [PTOC_PTO_ENUM_PIPE] = {"pipe", false, pipe_values, N(pipe_values)},
    [PTOC_PTO_ENUM_EVENT] = {"event", false, event_values, N(event_values)},
    [PTOC_PTO_ENUM_PIPE_EVENT_TYPE] = {"pipe_event_type", false, pipe_event_values, N(pipe_event_values)},
    [PTOC_PTO_ENUM_SYNC_OP_TYPE] = {"sync_op_type", false, pipe_event_values, N(pipe_event_values)},
    [PTOC_PTO_ENUM_LAYOUT] = {"layout", false, layout_values, N(layout_values)},
    [PTOC_PTO_ENUM_BLAYOUT] = {"blayout", false, blayout_values, N(blayout_values)},
    [PTOC_PTO_ENUM_SLAYOUT] = {"slayout", false, slayout_values, N(slayout_values)},
    [PTOC_PTO_ENUM_PAD_VALUE] = {"pad_value", false, pad_values, N(pad_values)},
    [PTOC_PTO_ENUM_COMPACT_MODE] = {"compact_mode", false, compact_values, N(compact_values)},
    [PTOC_PTO_ENUM_KERNEL_KIND] = {"kernel_kind", false, kernel_kind_values, N(kernel_kind_values)},
    [PTOC_PTO_ENUM_FUNC_CORE_TYPE] = {"func_core_type", false, core_type_values, N(core_type_values)},
    [PTOC_PTO_ENUM_MODULE_CORE_TYPE] = {"module_core_type", false, core_type_values, N(core_type_values)},
    [PTOC_PTO_ENUM_MASK_PATTERN] = {"mask_pattern", false, mask_pattern_values, N(mask_pattern_values)},
    [PTOC_PTO_ENUM_ACC_TO_VEC_MODE] = {"acc_to_vec_mode", false, acc_to_vec_values, N(acc_to_vec_values)},
    [PTOC_PTO_ENUM_PADMODE] = {"padmode", false, padmode_values, N(padmode_values)},
    [PTOC_PTO_ENUM_CMP] = {"cmp", true, cmp_values, N(cmp_values)},
    [PTOC_PTO_ENUM_ROUND_MODE] = {"round_mode", true, round_mode_values, N(round_mode_values)},
    [PTOC_PTO_ENUM_SATURATION_MODE] = {"saturation_mode", true, saturation_values, N(saturation_values)},
    [PTOC_PTO_ENUM_ST_PHASE] = {"st_phase", true, st_phase_values, N(st_phase_values)},
    [PTOC_PTO_ENUM_ATOMIC_TYPE] = {"atomic_type", true, atomic_values, N(atomic_values)},
    [PTOC_PTO_ENUM_RELU_PRE_MODE] = {"relu_pre_mode", true, relu_values, N(relu_values)},
    [PTOC_PTO_ENUM_GATHER_OOB] = {"gather_oob", true, gather_oob_values, N(gather_oob_values)},
    [PTOC_PTO_ENUM_SCATTER_ATOMIC_OP] = {"scatter_atomic_op", true, scatter_atomic_values, N(scatter_atomic_values)},
    [PTOC_PTO_ENUM_SCATTER_OOB] = {"scatter_oob", true, scatter_oob_values, N(scatter_oob_values)},
    [PTOC_PTO_ENUM_QUANT_TYPE] = {"quant_type", true, quant_values, N(quant_values)},
};

/* ---------------------------------------------------------------- accessors */

bool pto_enum_lookup(ptoc_pto_enum_kind kind, const char *name, uint32_t *value)
{
    const pto_enum_def *d = &enum_defs[kind];
    for (size_t i = 0; i < d->count; i++) {
        if (strcmp(d->values[i].name, name) == 0) {
            *value = d->values[i].value;
            return true;
        }
    }
    return false;
}

const char *ptoc_pto_enum_name(ptoc_pto_enum_kind kind, uint32_t value)
{
    if ((unsigned)kind >= PTOC_PTO_ENUM_KIND_COUNT)
        return NULL;
    const pto_enum_def *d = &enum_defs[kind];
    for (size_t i = 0; i < d->count; i++)
        if (d->values[i].value == value)
            return d->values[i].name;
    return NULL;
}

ptoc_attr *ptoc_pto_enum_attr(ptoc_context *ctx, ptoc_pto_enum_kind kind, uint32_t value)
{
    if (!ptoc_pto_enum_name(kind, value))
        return NULL;
    return ptoc_attr_dialect(ctx, &pto_dialect, (uint32_t)kind, &value, sizeof value);
}

bool ptoc_pto_enum_value(const ptoc_attr *a, ptoc_pto_enum_kind kind, uint32_t *value)
{
    if (!a || a->kind != PTOC_ATTR_DIALECT || a->u.dialect.dialect != &pto_dialect)
        return false;
    uint32_t k = a->u.dialect.kind;
    /* sync_op_type is a deprecated alias of pipe_event_type: either answers both. */
    bool alias = (k == PTOC_PTO_ENUM_SYNC_OP_TYPE && kind == PTOC_PTO_ENUM_PIPE_EVENT_TYPE) ||
                 (k == PTOC_PTO_ENUM_PIPE_EVENT_TYPE && kind == PTOC_PTO_ENUM_SYNC_OP_TYPE);
    if (k != (uint32_t)kind && !alias)
        return false;
    memcpy(value, a->u.dialect.data, sizeof *value);
    return true;
}

const ptoc_pto_tile_config *ptoc_pto_tile_config_attr(const ptoc_attr *a)
{
    return a ? ptoc_attr_dialect_data(a, &pto_dialect, PTOC_PTO_ATTR_TILE_BUF_CONFIG) : NULL;
}

/* ---------------------------------------------------------------- enum parsing */

static int enum_kind_of_mnemonic(const char *mnemonic)
{
    for (int k = 0; k < PTOC_PTO_ENUM_KIND_COUNT; k++)
        if (strcmp(enum_defs[k].mnemonic, mnemonic) == 0)
            return k;
    return -1;
}

static void append_value_list(ptoc_strbuf *sb, ptoc_pto_enum_kind kind)
{
    const pto_enum_def *d = &enum_defs[kind];
    for (size_t i = 0; i < d->count; i++) {
        if (i)
            ptoc_strbuf_puts(sb, ", ");
        ptoc_strbuf_puts(sb, d->values[i].name);
    }
}

/* Reads the value keyword of `kind` (the text between the brackets). */
static ptoc_attr *parse_enum_keyword(ptoc_parser *p, ptoc_pto_enum_kind kind)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_ident *word;
    if (!ptoc_parse_keyword(p, &word, enum_defs[kind].mnemonic))
        return NULL;
    uint32_t value;
    if (!pto_enum_lookup(kind, word->str, &value)) {
        ptoc_strbuf sb;
        ptoc_strbuf_init(&sb, ptoc_parser_context(p));
        append_value_list(&sb, kind);
        ptoc_parser_error_at(p, loc, "unknown %s value '%s' (expected one of: %s)",
                             enum_defs[kind].mnemonic, word->str, ptoc_strbuf_cstr(&sb));
        ptoc_strbuf_free(&sb);
        return NULL;
    }
    return ptoc_pto_enum_attr(ptoc_parser_context(p), kind, value);
}

bool pto_parse_enum_value_attr(ptoc_parser *p, ptoc_pto_enum_kind kind, bool allow_bare,
                               ptoc_attr **out)
{
    if (ptoc_parse_optional(p, "<")) {
        *out = parse_enum_keyword(p, kind);
        return *out && ptoc_parse_expect(p, ">");
    }
    if (allow_bare) {
        ptoc_ident *word;
        ptoc_loc loc = ptoc_parser_loc(p);
        if (ptoc_parse_optional_keyword(p, &word)) {
            uint32_t value;
            if (!pto_enum_lookup(kind, word->str, &value))
                return ptoc_parser_error_at(p, loc, "unknown %s value '%s'",
                                            enum_defs[kind].mnemonic, word->str);
            *out = ptoc_pto_enum_attr(ptoc_parser_context(p), kind, value);
            return true;
        }
    }
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_attr *a;
    if (!ptoc_parse_attr(p, &a))
        return false;
    uint32_t value;
    if (!ptoc_pto_enum_value(a, kind, &value))
        return ptoc_parser_error_at(p, loc, "expected a #pto.%s<...> attribute",
                                    enum_defs[kind].mnemonic);
    *out = a;
    return true;
}

void pto_print_enum_stripped(ptoc_printer *p, const ptoc_attr *a)
{
    uint32_t kind = a->u.dialect.kind, value;
    memcpy(&value, a->u.dialect.data, sizeof value);
    ptoc_print_fmt(p, "<%s>", ptoc_pto_enum_name((ptoc_pto_enum_kind)kind, value));
}

/* ---------------------------------------------------------------- tile_buf_config */

typedef enum config_key { KEY_BLAYOUT, KEY_SLAYOUT, KEY_FRACTAL, KEY_PAD, KEY_COMPACT, KEY_COUNT } config_key;

static const struct {
    const char *name;
    int enum_kind;                    /* -1: a plain integer */
} config_keys[KEY_COUNT] = {
    [KEY_BLAYOUT] = {"blayout", PTOC_PTO_ENUM_BLAYOUT},
    [KEY_SLAYOUT] = {"slayout", PTOC_PTO_ENUM_SLAYOUT},
    [KEY_FRACTAL] = {"s_fractal_size", -1},
    [KEY_PAD] = {"pad", PTOC_PTO_ENUM_PAD_VALUE},
    [KEY_COMPACT] = {"compact", PTOC_PTO_ENUM_COMPACT_MODE},
};

/* A config value: an integer (the layouts, pad and compact also as an integer
 * attribute, `1 : i32`, which PTOAS's parser reads), a bare value keyword, or
 * the enum attribute. */
static bool parse_config_value(ptoc_parser *p, config_key key, uint32_t *out)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    int64_t n;
    if (ptoc_parse_optional_integer(p, &n)) {
        if (n < 0 || n > UINT32_MAX)
            return ptoc_parser_error_at(p, loc, "tile_buf_config %s out of range: %lld",
                                        config_keys[key].name, (long long)n);
        ptoc_type *t;
        ptoc_loc tloc = ptoc_parser_loc(p);
        if (config_keys[key].enum_kind >= 0 && ptoc_parse_optional(p, ":") &&
            ptoc_parse_type(p, &t) && !ptoc_type_is_int(t))
            return ptoc_parser_error_at(p, tloc, "tile_buf_config %s takes an integer type", config_keys[key].name);
        *out = (uint32_t)n;
        return !ptoc_parser_failed(p);
    }
    if (ptoc_parser_failed(p))
        return false;
    if (config_keys[key].enum_kind < 0)
        return ptoc_parser_error(p, "expected an integer for tile_buf_config %s", config_keys[key].name);
    ptoc_attr *a;
    if (!pto_parse_enum_value_attr(p, (ptoc_pto_enum_kind)config_keys[key].enum_kind, true, &a))
        return false;
    return ptoc_pto_enum_value(a, (ptoc_pto_enum_kind)config_keys[key].enum_kind, out);
}

static bool check_config(ptoc_parser *p, ptoc_loc loc, const ptoc_pto_tile_config *c)
{
    if (c->fractal != 16 && c->fractal != 32 && c->fractal != 512 && c->fractal != 1024)
        return ptoc_parser_error_at(p, loc, "unsupported s_fractal_size: %u (expected 16, 32, 512 or 1024)",
                                    c->fractal);
    if (!ptoc_pto_enum_name(PTOC_PTO_ENUM_BLAYOUT, c->blayout))
        return ptoc_parser_error_at(p, loc, "unsupported blayout value: %u", c->blayout);
    if (!ptoc_pto_enum_name(PTOC_PTO_ENUM_SLAYOUT, c->slayout))
        return ptoc_parser_error_at(p, loc, "unsupported slayout value: %u", c->slayout);
    if (!ptoc_pto_enum_name(PTOC_PTO_ENUM_PAD_VALUE, c->pad))
        return ptoc_parser_error_at(p, loc, "unsupported pad value: %u", c->pad);
    if (!ptoc_pto_enum_name(PTOC_PTO_ENUM_COMPACT_MODE, c->compact))
        return ptoc_parser_error_at(p, loc, "unsupported compact value: %u", c->compact);
    return true;
}

static ptoc_attr *parse_tile_buf_config(ptoc_parser *p)
{
    ptoc_loc loc = ptoc_parser_loc(p);
    ptoc_pto_tile_config c = {PTOC_PTO_BL_ROW_MAJOR, PTOC_PTO_SL_NONE_BOX, 512, 0, 0};
    uint32_t *fields[KEY_COUNT] = {&c.blayout, &c.slayout, &c.fractal, &c.pad, &c.compact};
    bool seen[KEY_COUNT] = {false};
    if (!ptoc_parse_expect(p, "<"))
        return NULL;
    while (!ptoc_parse_optional(p, ">")) {
        if (ptoc_parser_failed(p))
            return NULL;
        ptoc_loc kloc = ptoc_parser_loc(p);
        ptoc_ident *name;
        if (!ptoc_parse_keyword(p, &name, "tile_buf_config key") || !ptoc_parse_expect(p, "="))
            return NULL;
        int key = -1;
        for (int k = 0; k < KEY_COUNT; k++)
            if (strcmp(config_keys[k].name, name->str) == 0)
                key = k;
        if (key < 0) {
            ptoc_parser_error_at(p, kloc, "unknown key in tile_buf_config: %s", name->str);
            return NULL;
        }
        if (seen[key]) {
            ptoc_parser_error_at(p, kloc, "duplicate %s in tile_buf_config", name->str);
            return NULL;
        }
        seen[key] = true;
        if (!parse_config_value(p, (config_key)key, fields[key]))
            return NULL;
        if (!ptoc_parser_peek(p, ">") && !ptoc_parse_expect(p, ","))
            return NULL;
    }
    if (!check_config(p, loc, &c))
        return NULL;
    return ptoc_attr_dialect(ptoc_parser_context(p), &pto_dialect, PTOC_PTO_ATTR_TILE_BUF_CONFIG, &c, sizeof c);
}

static void print_tile_buf_config(ptoc_printer *p, const ptoc_pto_tile_config *c)
{
    ptoc_print_fmt(p, "#pto.tile_buf_config<blayout=#pto.blayout<%s>, slayout=#pto.slayout<%s>, "
                      "s_fractal_size=%u, pad=#pto.pad_value<%s>, compact=#pto.compact_mode<%s>>",
                   ptoc_pto_enum_name(PTOC_PTO_ENUM_BLAYOUT, c->blayout),
                   ptoc_pto_enum_name(PTOC_PTO_ENUM_SLAYOUT, c->slayout), c->fractal,
                   ptoc_pto_enum_name(PTOC_PTO_ENUM_PAD_VALUE, c->pad),
                   ptoc_pto_enum_name(PTOC_PTO_ENUM_COMPACT_MODE, c->compact));
}

/* ---------------------------------------------------------------- dialect hooks */

ptoc_attr *pto_parse_attr(ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed)
{
    int kind = enum_kind_of_mnemonic(mnemonic->str);
    if (kind >= 0) {
        if (enclosed)
            return parse_enum_keyword(p, (ptoc_pto_enum_kind)kind);
        if (!ptoc_parse_expect(p, "<"))
            return NULL;
        ptoc_attr *a = parse_enum_keyword(p, (ptoc_pto_enum_kind)kind);
        return a && ptoc_parse_expect(p, ">") ? a : NULL;
    }
    if (strcmp(mnemonic->str, "tile_buf_config") == 0 && !enclosed)
        return parse_tile_buf_config(p);
    ptoc_parser_error_at(p, ptoc_parser_hook_loc(p), "unknown pto attribute '%s'", mnemonic->str);
    return NULL;
}

void pto_print_attr(ptoc_printer *p, const ptoc_attr *a)
{
    uint32_t kind = a->u.dialect.kind;
    if (kind == PTOC_PTO_ATTR_TILE_BUF_CONFIG) {
        print_tile_buf_config(p, a->u.dialect.data);
        return;
    }
    if (kind >= PTOC_PTO_ENUM_KIND_COUNT)
        ptoc_unreachable("unknown pto attribute kind");
    uint32_t value;
    memcpy(&value, a->u.dialect.data, sizeof value);
    const pto_enum_def *d = &enum_defs[kind];
    const char *name = ptoc_pto_enum_name((ptoc_pto_enum_kind)kind, value);
    if (d->enclosed)
        ptoc_print_fmt(p, "#pto<%s %s>", d->mnemonic, name);
    else
        ptoc_print_fmt(p, "#pto.%s<%s>", d->mnemonic, name);
}
