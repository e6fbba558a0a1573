/* pto_forms_pipe.c: the custom forms of the cube/vector push-pop ops, their
 * reserved buffers and the async DMA ops, as PTOAS's assemblyFormats write
 * them (the toolkit is in pto_forms.c; the rules in pto_verify_pipes.c).
 *
 *   pto.aic_initialize_pipe {dir_mask = 1, slot_size = 1024[, nosplit = true]}
 *       ([gm_slot_buffer = %g : <f32>, ]c2v_consumer_buf = %a : i32, v2c_consumer_buf = %b : i32)
 *   pto.tpush_to_aiv(%t : T) {split = 0}            (also tpush_to_aic)
 *   %t = pto.tpop_from_aic[(%r, %c)] {split = 0} -> T (also tpop_from_aiv)
 *   pto.tfree_from_aic {split = 0}                  (also tfree_from_aiv)
 *   %a = pto.reserve_buffer {name = "fifo", size = 8192, location = <vec>, auto = true[, base = 0]} -> i32
 *   %a = pto.import_reserved_buffer {name = "fifo", peer_func = @vector_kernel} -> i32
 *   %p = pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8[, local_slot_num = 8]
 *            [, flag_base = 0][, nosplit = false]}(%gm : G, %local : i32[, %peer : i32]) -> !pto.pipe
 *   %p = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8[, flag_base = 0]
 *            [, nosplit = false]}(%local : i32[, %peer : i32]) -> !pto.pipe
 *   pto.tpush(%t, %p : T, !pto.pipe) {split = 0}    (also tpop)
 *   pto.tfree(%p : !pto.pipe) {split = 0}
 *   %s = pto.build_async_session(%scratch, %ws : T, W) {attrs} -> !pto.async_session
 *   %e = pto.tput_async(%dst, %src, %s : D, S, !pto.async_session) -> !pto.async_event (also tget_async)
 *   %b = pto.wait_async_event(%e, %s : !pto.async_event, !pto.async_session) -> i1 (also test_async_event)
 *
 * The brace blocks are attributes with the names of PTOAS's ODS (`auto` is
 * stored as autoAlloc); optional keys may be left out, each in its place. A
 * later optional key may also come without an earlier one, which PTOAS's
 * generated parser refuses.
 */
#include "dialect/pto_internal.h"

#define NKEYS(k) ((uint32_t)(sizeof(k) / sizeof((k)[0])))

static const pto_form_key frontend_init_keys[] = {
    {"dir_mask", "dir_mask", PTO_KV_I8, false},
    {"slot_size", "slot_size", PTO_KV_I32, false},
    {"nosplit", "nosplit", PTO_KV_BOOL, true},
};
static const pto_form_key split_keys[] = {{"split", "split", PTO_KV_I8, false}};
static const pto_form_key reserve_keys[] = {
    {"name", "name", PTO_KV_STRING, false},
    {"size", "size", PTO_KV_I32, false},
    {"location", "location", PTO_KV_SPACE, false},
    {"auto", "autoAlloc", PTO_KV_BOOL, false},
    {"base", "base", PTO_KV_I32, true},
};
static const pto_form_key import_keys[] = {
    {"name", "name", PTO_KV_STRING, false},
    {"peer_func", "peer_func", PTO_KV_SYMBOL, false},
};
static const pto_form_key l2g2l_keys[] = {
    {"dir_mask", "dir_mask", PTO_KV_I8, false},
    {"slot_size", "slot_size", PTO_KV_I32, false},
    {"slot_num", "slot_num", PTO_KV_I32, false},
    {"local_slot_num", "local_slot_num", PTO_KV_I32, true},
    {"flag_base", "flag_base", PTO_KV_I32, true},
    {"nosplit", "nosplit", PTO_KV_BOOL, true},
};
static const pto_form_key l2l_keys[] = {
    {"dir_mask", "dir_mask", PTO_KV_I8, false},
    {"slot_size", "slot_size", PTO_KV_I32, false},
    {"slot_num", "slot_num", PTO_KV_I32, false},
    {"flag_base", "flag_base", PTO_KV_I32, true},
    {"nosplit", "nosplit", PTO_KV_BOOL, true},
};

const pto_form_key *pto_pipe_op_keys(const ptoc_op *op, uint32_t *n)
{
    static const struct { const char *op; const pto_form_key *keys; uint32_t n; } table[] = {
        {"pto.aic_initialize_pipe", frontend_init_keys, NKEYS(frontend_init_keys)},
        {"pto.aiv_initialize_pipe", frontend_init_keys, NKEYS(frontend_init_keys)},
        {"pto.tpush_to_aiv", split_keys, NKEYS(split_keys)},
        {"pto.tpush_to_aic", split_keys, NKEYS(split_keys)},
        {"pto.tpop_from_aic", split_keys, NKEYS(split_keys)},
        {"pto.tpop_from_aiv", split_keys, NKEYS(split_keys)},
        {"pto.tfree_from_aic", split_keys, NKEYS(split_keys)},
        {"pto.tfree_from_aiv", split_keys, NKEYS(split_keys)},
        {"pto.reserve_buffer", reserve_keys, NKEYS(reserve_keys)},
        {"pto.import_reserved_buffer", import_keys, NKEYS(import_keys)},
        {"pto.initialize_l2g2l_pipe", l2g2l_keys, NKEYS(l2g2l_keys)},
        {"pto.initialize_l2l_pipe", l2l_keys, NKEYS(l2l_keys)},
        {"pto.tpush", split_keys, NKEYS(split_keys)},
        {"pto.tpop", split_keys, NKEYS(split_keys)},
        {"pto.tfree", split_keys, NKEYS(split_keys)},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (ptoc_op_is(op, table[i].op)) {
            *n = table[i].n;
            return table[i].keys;
        }
    *n = 0;
    return NULL;
}

/* `{keys} {attrs}` and its printer, for the ops that are nothing else. As
 * MLIR's generated printers, ptoc writes no space between the op name and a
 * `{` or `(`, and one after a `)` or `}`. */
static bool parse_keys_only(ptoc_parser *p, ptoc_op_state *st, const pto_form_key *keys, uint32_t n)
{
    return pto_parse_key_block(p, st, keys, n) && ptoc_parse_optional_attr_dict(p, st);
}

static void print_keys_only(ptoc_printer *p, const ptoc_op *op, const pto_form_key *keys, uint32_t n)
{
    pto_print_key_block(p, op, keys, n);
    pto_print_attrs_besides(p, op, keys, n);
}

/* `{keys} {attrs} -> T` */
static bool parse_keys_result(ptoc_parser *p, ptoc_op_state *st, const pto_form_key *keys, uint32_t n)
{
    return pto_parse_key_block(p, st, keys, n) && pto_parse_attrs_result(p, st);
}

static void print_keys_result(ptoc_printer *p, const ptoc_op *op, const pto_form_key *keys, uint32_t n)
{
    print_keys_only(p, op, keys, n);
    pto_print_result(p, op);
}

/* `NAME = %x : T` inside the frontend init's parentheses. */
static bool parse_named_operand(ptoc_parser *p, ptoc_op_state *st, const char *name)
{
    return ptoc_parse_expect(p, name) && ptoc_parse_expect(p, "=") &&
           pto_parse_typed_operand(p, st, PTOC_PTO_TYPE_PTR);
}

/* `%x : T` printed with T bare when it is a pto pointer, as PTOAS prints
 * `type($gm_slot_buffer)`. */
static void print_named_operand(ptoc_printer *p, const ptoc_op *op, const char *name, uint32_t i, bool bare)
{
    const ptoc_value *v = ptoc_op_operand(op, i);
    ptoc_print_fmt(p, "%s = ", name);
    ptoc_print_value(p, v);
    ptoc_print_str(p, " : ");
    if (bare)
        pto_print_type_bare(p, v->type);
    else
        ptoc_print_type(p, v->type);
}

/* ---------------------------------------------------------------- frontend push/pop */

/* Operands: [gm_slot_buffer,] c2v_consumer_buf, v2c_consumer_buf (PTOAS has no
 * segment sizes here: a third operand is the slot buffer). */
bool pto_parse_frontend_init(ptoc_parser *p, ptoc_op_state *st)
{
    if (!pto_parse_key_block(p, st, frontend_init_keys, NKEYS(frontend_init_keys)) || !ptoc_parse_expect(p, "("))
        return false;
    if (ptoc_parser_peek(p, "gm_slot_buffer") &&
        (!parse_named_operand(p, st, "gm_slot_buffer") || !ptoc_parse_expect(p, ",")))
        return false;
    return parse_named_operand(p, st, "c2v_consumer_buf") && ptoc_parse_expect(p, ",") &&
           parse_named_operand(p, st, "v2c_consumer_buf") && ptoc_parse_expect(p, ")") &&
           ptoc_parse_optional_attr_dict(p, st);
}

void pto_print_frontend_init(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands < 2 || op->noperands > 3) {
        pto_print_dps(p, op);
        return;
    }
    uint32_t first = op->noperands - 2;
    pto_print_key_block(p, op, frontend_init_keys, NKEYS(frontend_init_keys));
    ptoc_print_str(p, " (");
    if (first == 1) {
        print_named_operand(p, op, "gm_slot_buffer", 0, true);
        ptoc_print_str(p, ", ");
    }
    print_named_operand(p, op, "c2v_consumer_buf", first, false);
    ptoc_print_str(p, ", ");
    print_named_operand(p, op, "v2c_consumer_buf", first + 1, false);
    ptoc_print_str(p, ")");
    pto_print_attrs_besides(p, op, frontend_init_keys, NKEYS(frontend_init_keys));
}

/* tpush_to_aiv/aic: `(%t : T) {split = N} {attrs}` */
bool pto_parse_frontend_push(ptoc_parser *p, ptoc_op_state *st)
{
    return ptoc_parse_expect(p, "(") && pto_parse_typed_operand(p, st, PTOC_PTO_TYPE_TILE_BUF) &&
           ptoc_parse_expect(p, ")") && parse_keys_only(p, st, split_keys, NKEYS(split_keys));
}

void pto_print_frontend_push(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands != 1) {
        pto_print_dps(p, op);
        return;
    }
    ptoc_print_str(p, "(");
    ptoc_print_value(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, " : ");
    ptoc_print_value_type(p, ptoc_op_operand(op, 0));
    ptoc_print_str(p, ") ");
    print_keys_only(p, op, split_keys, NKEYS(split_keys));
}

/* tpop_from_aic/aiv: `[(%r, %c)] {split = N} {attrs} -> T`, segments (valid_row, valid_col). */
bool pto_parse_frontend_pop(ptoc_parser *p, ptoc_op_state *st)
{
    int64_t valid = 0;
    if (ptoc_parse_optional(p, "(")) {
        ptoc_operand_ref refs[2];
        ptoc_value *v;
        if (!ptoc_parse_operand(p, &refs[0]) || !ptoc_parse_expect(p, ",") || !ptoc_parse_operand(p, &refs[1]) ||
            !ptoc_parse_expect(p, ")"))
            return false;
        for (int i = 0; i < 2; i++) {
            if (!ptoc_parse_resolve(p, &refs[i], ptoc_type_index(ptoc_parser_context(p)), &v))
                return false;
            ptoc_state_add_operand(st, v);
        }
        valid = 1;
    }
    if (ptoc_parser_failed(p) || !parse_keys_result(p, st, split_keys, NKEYS(split_keys)))
        return false;
    pto_add_segments(p, st, 2, (int64_t[2]){valid, valid});
    return true;
}

void pto_print_frontend_pop(ptoc_printer *p, const ptoc_op *op)
{
    if (op->noperands == 2) {
        ptoc_print_str(p, "(");
        ptoc_print_operands(p, op, 0, 2);
        ptoc_print_str(p, ") ");
    }
    print_keys_result(p, op, split_keys, NKEYS(split_keys));
}

/* tfree_from_aic/aiv: `{split = N} {attrs}` */
bool pto_parse_split_only(ptoc_parser *p, ptoc_op_state *st)
{
    return parse_keys_only(p, st, split_keys, NKEYS(split_keys));
}

void pto_print_split_only(ptoc_printer *p, const ptoc_op *op)
{
    print_keys_only(p, op, split_keys, NKEYS(split_keys));
}

/* ---------------------------------------------------------------- reserved buffers */

bool pto_parse_reserve_buffer(ptoc_parser *p, ptoc_op_state *st)
{
    return parse_keys_result(p, st, reserve_keys, NKEYS(reserve_keys));
}

void pto_print_reserve_buffer(ptoc_printer *p, const ptoc_op *op)
{
    print_keys_result(p, op, reserve_keys, NKEYS(reserve_keys));
}

bool pto_parse_import_reserved_buffer(ptoc_parser *p, ptoc_op_state *st)
{
    return parse_keys_result(p, st, import_keys, NKEYS(import_keys));
}

void pto_print_import_reserved_buffer(ptoc_printer *p, const ptoc_op *op)
{
    print_keys_result(p, op, import_keys, NKEYS(import_keys));
}

/* ---------------------------------------------------------------- internal pipes */

/* `{keys}(%a : T, %b : U[, %c : V]) {attrs} -> !pto.pipe` with `fixed` operands
 * before the optional peer_local_addr (no segment sizes: one more operand is the peer). */
static bool parse_pipe_init(ptoc_parser *p, ptoc_op_state *st, const pto_form_key *keys, uint32_t n, int fixed)
{
    if (!pto_parse_key_block(p, st, keys, n) || !ptoc_parse_expect(p, "("))
        return false;
    for (int i = 0; i < fixed; i++)
        if ((i > 0 && !ptoc_parse_expect(p, ",")) || !pto_parse_typed_operand(p, st, PTOC_PTO_TYPE_PTR))
            return false;
    if (ptoc_parse_optional(p, ",") && !pto_parse_typed_operand(p, st, PTOC_PTO_TYPE_PTR))
        return false;
    return !ptoc_parser_failed(p) && ptoc_parse_expect(p, ")") && pto_parse_attrs_result(p, st);
}

static void print_pipe_init(ptoc_printer *p, const ptoc_op *op, const pto_form_key *keys, uint32_t n)
{
    pto_print_key_block(p, op, keys, n);
    ptoc_print_str(p, " (");
    for (uint32_t i = 0; i < op->noperands; i++) {
        ptoc_print_str(p, i ? ", " : "");
        ptoc_print_value(p, ptoc_op_operand(op, i));
        ptoc_print_str(p, " : ");
        ptoc_print_value_type(p, ptoc_op_operand(op, i));
    }
    ptoc_print_str(p, ")");
    pto_print_attrs_besides(p, op, keys, n);
    pto_print_result(p, op);
}

bool pto_parse_l2g2l_pipe(ptoc_parser *p, ptoc_op_state *st)
{
    return parse_pipe_init(p, st, l2g2l_keys, NKEYS(l2g2l_keys), 2);
}

void pto_print_l2g2l_pipe(ptoc_printer *p, const ptoc_op *op)
{
    print_pipe_init(p, op, l2g2l_keys, NKEYS(l2g2l_keys));
}

bool pto_parse_l2l_pipe(ptoc_parser *p, ptoc_op_state *st)
{
    return parse_pipe_init(p, st, l2l_keys, NKEYS(l2l_keys), 1);
}

void pto_print_l2l_pipe(ptoc_printer *p, const ptoc_op *op)
{
    print_pipe_init(p, op, l2l_keys, NKEYS(l2l_keys));
}

/* tpush, tpop: `(%t, %p : T, !pto.pipe) {split = N}`; tfree: `(%p : !pto.pipe) {split = N}` */
bool pto_parse_pipe_data(ptoc_parser *p, ptoc_op_state *st)
{
    uint32_t n;
    return pto_parse_paren_operands(p, st, &n) && parse_keys_only(p, st, split_keys, NKEYS(split_keys));
}

void pto_print_pipe_data(ptoc_printer *p, const ptoc_op *op)
{
    pto_print_paren_operands(p, op, 0, op->noperands);
    ptoc_print_str(p, " ");
    print_keys_only(p, op, split_keys, NKEYS(split_keys));
}

/* ---------------------------------------------------------------- async DMA */

/* `(%a, %b : T, U) {attrs} -> R` */
bool pto_parse_async(ptoc_parser *p, ptoc_op_state *st)
{
    uint32_t n;
    return pto_parse_paren_operands(p, st, &n) && pto_parse_attrs_result(p, st);
}

void pto_print_async(ptoc_printer *p, const ptoc_op *op)
{
    pto_print_paren_operands(p, op, 0, op->noperands);
    ptoc_print_attr_dict(p, op, NULL, 0);
    pto_print_result(p, op);
}
