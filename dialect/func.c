/* func.c: the func dialect: func.func, func.return and func.call, as in MLIR 19.
 *
 *   func.func [private|public|nested] @f(%a: i32 {attrs}, ...) -> (T {attrs}, ...)
 *             [attributes {...}] { body }
 *   func.func private @decl(i32, f32) -> f32           (a declaration has no body)
 *   return %a, %b : i32, f32                           (func.return)
 *   %r = call @f(%a) : (i32) -> f32                    (func.call)
 *
 * A function keeps its signature in `function_type` (a type attribute), its name
 * in `sym_name`, its visibility in `sym_visibility`, and per-argument/-result
 * attribute dictionaries in `arg_attrs`/`res_attrs` (arrays, present only when
 * some dictionary is non-empty). The entry block's arguments are the inputs.
 * Inside a function the default dialect is func, so the printer writes `return`
 * and `call` (the parser and printer handle that; the hooks here see the rest).
 * A function that is a kernel entry also follows the pto dialect's entry rules
 * (ptoc_pto_verify_entry: on a hardware target it returns nothing and does not
 * recurse); a function's pto.auto_sync_tail_hint must be one of its spellings
 * (ptoc_pto_verify_tail_hint).
 */
#include "ptoc/pto.h"
#include "ptoc/ptoc.h"
#include "ptoc/util.h"

#include <string.h>

#include "dialect/upstream.h"

/* ---------------------------------------------------------------- func.func parse */

/* The signature as parsed: argument (named or not) and result lists. */
typedef struct fn_sig {
    ptoc_region_arg *args;
    ptoc_type **inputs, **results;
    ptoc_attr **arg_attrs, **res_attrs;
    uint32_t nargs, cap_args, ninputs, cap_inputs, nresults, cap_results;
    uint32_t narg_attrs, cap_arg_attrs, nres_attrs, cap_res_attrs;
    bool named;                /* `%a: T` (a definition) rather than `T` */
} fn_sig;

/* An optional `loc(...)` after an argument; an unknown one keeps its position. */
static bool parse_fn_arg_loc(ptoc_parser *p, ptoc_region_arg *arg)
{
    ptoc_loc loc;
    if (ptoc_parse_optional_trailing_loc(p, &loc) && loc.file)
        arg->loc = loc;
    return !ptoc_parser_failed(p);
}

static bool parse_fn_arg(ptoc_parser *p, fn_sig *sig, uint32_t index)
{
    ptoc_arena *arena = ptoc_parser_arena(p);
    ptoc_operand_ref ref;
    ptoc_type *type;
    bool named = ptoc_parse_optional_operand(p, &ref);
    if (ptoc_parser_failed(p))
        return false;
    if (index > 0 && named != sig->named)
        return ptoc_parser_error(p, "expected all arguments to be named or all unnamed");
    sig->named = named;
    if (named && !ptoc_parse_expect(p, ":"))
        return false;
    if (!ptoc_parse_type(p, &type))
        return false;
    if (named) {
        ptoc_region_arg *arg = PTOC_VARR_PUSH_FIELDS(NULL, arena, sig->args, sig->nargs, sig->cap_args);
        arg->ref = ref;
        arg->type = type;
        arg->loc = ref.loc;
    }
    *PTOC_VARR_PUSH_FIELDS(NULL, arena, sig->inputs, sig->ninputs, sig->cap_inputs) = type;
    /* `%a: T {attrs} loc(...)` as mlir-opt --mlir-print-debuginfo prints it; the
     * loc is also accepted before the attributes, where our printer puts it. */
    if (named && !parse_fn_arg_loc(p, &sig->args[sig->nargs - 1]))
        return false;
    ptoc_attr **attrs = PTOC_VARR_PUSH_FIELDS(NULL, arena, sig->arg_attrs, sig->narg_attrs, sig->cap_arg_attrs);
    if (!ptoc_upstream_parse_dict(p, attrs))
        return false;
    return !named || parse_fn_arg_loc(p, &sig->args[sig->nargs - 1]);
}

static bool parse_fn_args(ptoc_parser *p, fn_sig *sig)
{
    if (!ptoc_parse_expect(p, "("))
        return false;
    if (ptoc_parse_optional(p, ")"))
        return true;
    uint32_t i = 0;
    do {
        if (!parse_fn_arg(p, sig, i++))
            return false;
    } while (ptoc_parse_optional(p, ","));
    return ptoc_parse_expect(p, ")");
}

static bool parse_fn_result(ptoc_parser *p, fn_sig *sig, bool with_attrs)
{
    ptoc_arena *arena = ptoc_parser_arena(p);
    ptoc_type *type;
    if (!ptoc_parse_type(p, &type))
        return false;
    *PTOC_VARR_PUSH_FIELDS(NULL, arena, sig->results, sig->nresults, sig->cap_results) = type;
    ptoc_attr **attrs = PTOC_VARR_PUSH_FIELDS(NULL, arena, sig->res_attrs, sig->nres_attrs, sig->cap_res_attrs);
    if (with_attrs)
        return ptoc_upstream_parse_dict(p, attrs);
    *attrs = ptoc_attr_dict(ptoc_parser_context(p), 0, NULL);
    return true;
}

/* `-> T` or `-> (T {attrs}, ...)`; absent is fine. */
static bool parse_fn_results(ptoc_parser *p, fn_sig *sig)
{
    if (!ptoc_parse_optional(p, "->"))
        return true;
    if (!ptoc_parse_optional(p, "("))
        return parse_fn_result(p, sig, false);
    if (ptoc_parse_optional(p, ")"))
        return true;
    do {
        if (!parse_fn_result(p, sig, true))
            return false;
    } while (ptoc_parse_optional(p, ","));
    return ptoc_parse_expect(p, ")");
}

/* An array of the dictionaries, or NULL when all are empty (MLIR leaves it out). */
static ptoc_attr *dict_array_or_null(ptoc_context *ctx, ptoc_attr **dicts, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (dicts[i]->u.dict.n > 0)
            return ptoc_attr_array(ctx, n, dicts);
    return NULL;
}

static bool parse_visibility(ptoc_parser *p, ptoc_op_state *st)
{
    static const char *const keywords[] = {"private", "public", "nested"};
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
        if (ptoc_parse_optional(p, keywords[i])) {
            ptoc_upstream_add_attr(p, st, "sym_visibility",
                                   ptoc_attr_string(ptoc_parser_context(p), keywords[i],
                                                    strlen(keywords[i])));
            return true;
        }
    }
    return !ptoc_parser_failed(p);
}

static bool func_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_context *ctx = ptoc_parser_context(p);
    fn_sig sig;
    memset(&sig, 0, sizeof sig);
    ptoc_ident *name;
    if (!parse_visibility(p, st) || !ptoc_parse_symbol_name(p, &name) ||
        !parse_fn_args(p, &sig) || !parse_fn_results(p, &sig))
        return false;
    if (!ptoc_parse_optional_attr_dict_with_keyword(p, st) && ptoc_parser_failed(p))
        return false;
    ptoc_type *fn = ptoc_type_function(ctx, sig.ninputs, sig.inputs, sig.nresults, sig.results);
    ptoc_upstream_add_attr(p, st, "sym_name", ptoc_attr_string(ctx, name->str, name->len));
    ptoc_upstream_add_attr(p, st, "function_type", ptoc_attr_type(ctx, fn));
    ptoc_attr *arg_attrs = dict_array_or_null(ctx, sig.arg_attrs, sig.narg_attrs);
    ptoc_attr *res_attrs = dict_array_or_null(ctx, sig.res_attrs, sig.nres_attrs);
    if (arg_attrs)
        ptoc_upstream_add_attr(p, st, "arg_attrs", arg_attrs);
    if (res_attrs)
        ptoc_upstream_add_attr(p, st, "res_attrs", res_attrs);
    ptoc_region *body = ptoc_state_add_region(st);
    if (!ptoc_parser_peek_region(p))
        return true;                    /* a declaration */
    if (sig.ninputs > 0 && !sig.named)
        return ptoc_parser_error(p, "expected named arguments in a function with a body");
    return ptoc_parse_region(p, body, sig.args, sig.nargs, NULL);
}

/* ---------------------------------------------------------------- func.func print */

/* ` {attrs}` for entry `i` of an `arg_attrs`/`res_attrs` array, if non-empty. */
static void print_entry_attrs(ptoc_printer *p, const ptoc_attr *array, uint32_t i)
{
    if (!array || array->kind != PTOC_ATTR_ARRAY || i >= array->u.array.n)
        return;
    const ptoc_attr *dict = array->u.array.elems[i];
    if (dict->kind == PTOC_ATTR_DICT && dict->u.dict.n == 0)
        return;
    ptoc_print_str(p, " ");
    ptoc_print_attr(p, dict);
}

static void print_fn_args(ptoc_printer *p, const ptoc_op *op, const ptoc_type *fn)
{
    const ptoc_block *entry = op->nregions ? op->regions[0].first : NULL;
    const ptoc_attr *arg_attrs = ptoc_op_attr(op, "arg_attrs");
    uint32_t n = entry ? entry->nargs : fn->u.func.ninputs;
    ptoc_print_str(p, "(");
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            ptoc_print_str(p, ", ");
        if (entry)
            ptoc_print_block_arg(p, entry->args[i], true);
        else
            ptoc_print_type(p, fn->u.func.inputs[i]);
        print_entry_attrs(p, arg_attrs, i);
    }
    ptoc_print_str(p, ")");
}

static void print_fn_results(ptoc_printer *p, const ptoc_op *op, const ptoc_type *fn)
{
    uint32_t n = fn->u.func.nresults;
    if (n == 0)
        return;
    const ptoc_attr *res_attrs = ptoc_op_attr(op, "res_attrs");
    bool parens = n > 1 || fn->u.func.results[0]->kind == PTOC_TYPE_FUNCTION ||
                  (res_attrs && res_attrs->kind == PTOC_ATTR_ARRAY && res_attrs->u.array.n > 0 &&
                   res_attrs->u.array.elems[0]->kind == PTOC_ATTR_DICT &&
                   res_attrs->u.array.elems[0]->u.dict.n > 0);
    ptoc_print_str(p, parens ? " -> (" : " -> ");
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            ptoc_print_str(p, ", ");
        ptoc_print_type(p, fn->u.func.results[i]);
        print_entry_attrs(p, res_attrs, i);
    }
    if (parens)
        ptoc_print_str(p, ")");
}

static void func_print(ptoc_printer *p, const ptoc_op *op)
{
    static const char *const elided[] = {"sym_name", "sym_visibility", "function_type",
                                         "arg_attrs", "res_attrs"};
    ptoc_context *ctx = ptoc_printer_context(p);
    const char *visibility = ptoc_upstream_str_attr(op, "sym_visibility");
    ptoc_attr *name = ptoc_op_attr(op, "sym_name");
    const ptoc_type *fn = ptoc_upstream_fn_type_attr(op, "function_type");
    if (!fn)
        fn = ptoc_type_function(ctx, 0, NULL, 0, NULL);
    if (visibility)
        ptoc_print_fmt(p, " %s", visibility);
    ptoc_print_str(p, " ");
    ptoc_print_attr(p, ptoc_attr_symref(ctx, name && name->kind == PTOC_ATTR_STRING
                                                 ? name->u.string : ptoc_ident_cstr(ctx, ""),
                                        0, NULL));
    print_fn_args(p, op, fn);
    print_fn_results(p, op, fn);
    ptoc_print_attr_dict_with_keyword(p, op, elided, sizeof elided / sizeof elided[0]);
    if (op->nregions && op->regions[0].first) {
        ptoc_print_str(p, " ");
        ptoc_print_region(p, &op->regions[0], false, NULL);
    }
}

/* ---------------------------------------------------------------- func.func verify */

static bool verify_attr_array(const ptoc_op *op, const char *name, uint32_t expected,
                              const char *what)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    if (!a)
        return true;
    if (a->kind != PTOC_ATTR_ARRAY) {
        ptoc_op_emit_error(op, "expects %s attribute array '%s' to be an array", what, name);
        return false;
    }
    if (a->u.array.n != expected) {
        ptoc_op_emit_error(op, "expects %s attribute array to have the same number of "
                               "elements as the number of function %ss, got %u, but expected %u",
                           what, what, a->u.array.n, expected);
        return false;
    }
    for (uint32_t i = 0; i < a->u.array.n; i++) {
        if (a->u.array.elems[i]->kind != PTOC_ATTR_DICT) {
            ptoc_op_emit_error(op, "expects %s attribute dictionaries in '%s'", what, name);
            return false;
        }
    }
    return true;
}

static bool verify_entry_block(const ptoc_op *op, const ptoc_type *fn)
{
    const ptoc_block *entry = op->regions[0].first;
    if (entry->nargs != fn->u.func.ninputs) {
        ptoc_op_emit_error(op, "entry block must have %u arguments to match function signature",
                           fn->u.func.ninputs);
        return false;
    }
    for (uint32_t i = 0; i < entry->nargs; i++) {
        if (entry->args[i]->type != fn->u.func.inputs[i]) {
            ptoc_op_emit_error(op, "type of entry block argument #%u('%s') must match the type "
                                   "of the corresponding argument in function signature('%s')",
                               i, ptoc_upstream_type_text(entry->args[i]->type).text,
                               ptoc_upstream_type_text(fn->u.func.inputs[i]).text);
            return false;
        }
    }
    return true;
}

static bool verify_visibility(const ptoc_op *op, bool is_declaration)
{
    ptoc_attr *vis = ptoc_op_attr(op, "sym_visibility");
    const char *v = vis && vis->kind == PTOC_ATTR_STRING ? vis->u.string->str : NULL;
    if (vis && (!v || (strcmp(v, "public") && strcmp(v, "private") && strcmp(v, "nested")))) {
        ptoc_op_emit_error(op, "visibility expected to be one of [\"public\", \"private\", "
                               "\"nested\"], but got \"%s\"", v ? v : "?");
        return false;
    }
    if (is_declaration && (!v || !strcmp(v, "public"))) {
        ptoc_op_emit_error(op, "symbol declaration cannot have public visibility");
        return false;
    }
    return true;
}

static bool func_verify(const ptoc_op *op)
{
    ptoc_attr *name = ptoc_op_attr(op, "sym_name");
    if (!name) {
        ptoc_op_emit_error(op, "requires attribute 'sym_name'");
        return false;
    }
    if (name->kind != PTOC_ATTR_STRING) {
        ptoc_op_emit_error(op, "attribute 'sym_name' failed to satisfy constraint: string attribute");
        return false;
    }
    if (!ptoc_op_attr(op, "function_type")) {
        ptoc_op_emit_error(op, "requires attribute 'function_type'");
        return false;
    }
    const ptoc_type *fn = ptoc_upstream_fn_type_attr(op, "function_type");
    if (!fn) {
        ptoc_op_emit_error(op, "attribute 'function_type' failed to satisfy constraint: "
                               "type attribute of function type");
        return false;
    }
    if (op->nregions != 1) {
        ptoc_op_emit_error(op, "requires one region");
        return false;
    }
    bool is_declaration = op->regions[0].first == NULL;
    return verify_visibility(op, is_declaration) && ptoc_pto_verify_tail_hint(op) &&
           verify_attr_array(op, "arg_attrs", fn->u.func.ninputs, "argument") &&
           verify_attr_array(op, "res_attrs", fn->u.func.nresults, "result") &&
           (is_declaration || (verify_entry_block(op, fn) && ptoc_pto_verify_entry(op)));
}

/* ---------------------------------------------------------------- func.return */

static bool return_verify(const ptoc_op *op)
{
    const ptoc_op *fn_op = ptoc_op_parent(op);
    if (!fn_op || !ptoc_op_is(fn_op, "func.func")) {
        ptoc_op_emit_error(op, "expects parent op 'func.func'");
        return false;
    }
    const ptoc_type *fn = ptoc_upstream_fn_type_attr(fn_op, "function_type");
    const char *name = ptoc_upstream_str_attr(fn_op, "sym_name");
    if (!fn)
        return true;                    /* the function's own verifier reports it */
    if (op->noperands != fn->u.func.nresults) {
        ptoc_op_emit_error(op, "has %u operands, but enclosing function (@%s) returns %u",
                           op->noperands, name ? name : "", fn->u.func.nresults);
        return false;
    }
    for (uint32_t i = 0; i < op->noperands; i++) {
        ptoc_type *t = ptoc_op_operand(op, i)->type;
        if (t != fn->u.func.results[i]) {
            ptoc_emit_error(ptoc_op_context(op), op->loc,
                            "type of return operand %u ('%s') doesn't match function result "
                            "type ('%s') in function @%s", i, ptoc_upstream_type_text(t).text,
                            ptoc_upstream_type_text(fn->u.func.results[i]).text, name ? name : "");
            return false;
        }
    }
    return true;
}

/* ---------------------------------------------------------------- func.call */

static bool call_parse(ptoc_parser *p, ptoc_op_state *st)
{
    ptoc_context *ctx = ptoc_parser_context(p);
    ptoc_ident *callee;
    ptoc_operand_ref *refs;
    uint32_t nrefs;
    ptoc_type *fn;
    if (!ptoc_parse_symbol_name(p, &callee) || !ptoc_parse_expect(p, "("))
        return false;
    ptoc_loc loc = ptoc_parser_loc(p);
    if (!ptoc_parse_operand_list(p, &refs, &nrefs) || !ptoc_parse_expect(p, ")"))
        return false;
    if (!ptoc_parse_optional_attr_dict(p, st) && ptoc_parser_failed(p))
        return false;
    if (!ptoc_parse_expect(p, ":") || !ptoc_parse_function_type(p, &fn))
        return false;
    if (!ptoc_parse_resolve_list(p, refs, nrefs, (ptoc_type *const *)fn->u.func.inputs,
                                 fn->u.func.ninputs, loc, st))
        return false;
    for (uint32_t i = 0; i < fn->u.func.nresults; i++)
        ptoc_state_add_result(st, fn->u.func.results[i]);
    ptoc_upstream_add_attr(p, st, "callee", ptoc_attr_symref(ctx, callee, 0, NULL));
    return true;
}

static void call_print(ptoc_printer *p, const ptoc_op *op)
{
    static const char *const elided[] = {"callee"};
    ptoc_attr *callee = ptoc_op_attr(op, "callee");
    ptoc_print_str(p, " ");
    if (callee)
        ptoc_print_attr(p, callee);
    ptoc_print_str(p, "(");
    ptoc_print_operands(p, op, 0, op->noperands);
    ptoc_print_str(p, ")");
    ptoc_print_attr_dict(p, op, elided, 1);
    ptoc_print_str(p, " : ");
    ptoc_upstream_print_functional_type(p, op);
}

static bool call_check_types(const ptoc_op *op, const ptoc_type *fn)
{
    if (op->noperands != fn->u.func.ninputs) {
        ptoc_op_emit_error(op, "incorrect number of operands for callee");
        return false;
    }
    for (uint32_t i = 0; i < op->noperands; i++) {
        ptoc_type *t = ptoc_op_operand(op, i)->type;
        if (t != fn->u.func.inputs[i]) {
            ptoc_op_emit_error(op, "operand type mismatch: expected operand type '%s', but "
                                   "provided '%s' for operand number %u",
                               ptoc_upstream_type_text(fn->u.func.inputs[i]).text,
                               ptoc_upstream_type_text(t).text, i);
            return false;
        }
    }
    if (op->nresults != fn->u.func.nresults) {
        ptoc_op_emit_error(op, "incorrect number of results for callee");
        return false;
    }
    for (uint32_t i = 0; i < op->nresults; i++) {
        if (op->results[i].type != fn->u.func.results[i]) {
            ptoc_diag *d = ptoc_op_diag_error(op, "result type mismatch at index %u", i);
            ptoc_diag_op_note(d, op, "      op result types: '%s'", ptoc_upstream_type_text(op->results[i].type).text);
            ptoc_diag_op_note(d, op, "function result types: '%s'",
                              ptoc_upstream_type_text(fn->u.func.results[i]).text);
            ptoc_diag_report(d);
            return false;
        }
    }
    return true;
}

static bool call_verify(const ptoc_op *op)
{
    ptoc_attr *callee = ptoc_op_attr(op, "callee");
    if (!callee) {
        ptoc_op_emit_error(op, "requires attribute 'callee'");
        return false;
    }
    if (callee->kind != PTOC_ATTR_SYMREF || callee->u.symref.nnested != 0) {
        ptoc_op_emit_error(op, "attribute 'callee' failed to satisfy constraint: "
                               "flat symbol reference attribute");
        return false;
    }
    const ptoc_op *fn_op = ptoc_upstream_lookup_symbol(op, callee->u.symref.root);
    const ptoc_type *fn = fn_op && ptoc_op_is(fn_op, "func.func")
                              ? ptoc_upstream_fn_type_attr(fn_op, "function_type") : NULL;
    if (!fn) {
        ptoc_op_emit_error(op, "'%s' does not reference a valid function",
                           callee->u.symref.root->str);
        return false;
    }
    return call_check_types(op, fn);
}

/* ---------------------------------------------------------------- the dialect */

static const ptoc_op_def func_ops[] = {
    {"func.func", PTOC_OPF_ISOLATED | PTOC_OPF_SINGLE_BLOCK,
     func_parse, func_print, func_verify, NULL,
     "a function: a symbol with a signature and, unless declared only, a body"},
    {"func.return", PTOC_OPF_TERMINATOR,
     ptoc_upstream_parse_terminator, ptoc_upstream_print_terminator, return_verify, NULL,
     "returns from the enclosing function with its result values"},
    {"func.call", 0,
     call_parse, call_print, call_verify, NULL,
     "calls a function of the enclosing symbol table by name"},
};

static const ptoc_dialect func_dialect = {
    .name = "func",
    .ops = func_ops,
    .nops = sizeof func_ops / sizeof func_ops[0],
};

void ptoc_register_func_dialect(ptoc_context *ctx)
{
    ptoc_context_register_dialect(ctx, &func_dialect);
}
