/* syntax.h: reading and writing MLIR's textual form.
 *
 * Entry points parse a buffer into a builtin.module and print an op tree. The
 * rest is the toolkit dialects use in their custom parse/print hooks, modelled on
 * MLIR's OpAsmParser/OpAsmPrinter.
 *
 * Parser error model: the first error emits a diagnostic and makes the parser
 * "failed"; from then on every parse function returns false at once and emits
 * nothing more. `ptoc_parse_optional_*` functions return false both when the
 * construct is absent (nothing consumed, no diagnostic) and on error; a hook
 * that needs to tell them apart checks ptoc_parser_failed().
 */
#ifndef PTOC_SYNTAX_H
#define PTOC_SYNTAX_H

#include "ptoc/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- entry points */

typedef struct ptoc_parse_options {
    uint32_t first_line;      /* line number of the buffer's first line (split files); 0 = 1 */
    uint32_t max_depth;       /* nesting limit for regions/types/attributes; 0 = 256 */
    /* Assembly statements (PTO-AS for the pto dialect): an op name that is not
     * found as written (nor as builtin.NAME or in the default dialect) names the
     * op `asm_dialect`.NAME, whose parse_asm hook reads the statement, when
     * `assembly` is set. When it is not, such a name is an error that ends with
     * `asm_hint` (how to read the file as assembly), if given. */
    const char *asm_dialect;
    bool assembly;
    const char *asm_hint;
} ptoc_parse_options;

/* Parses `text` (`len` bytes, not necessarily NUL-terminated) named `filename`.
 * Top-level ops other than a single builtin.module are wrapped in an implicit
 * module, as MLIR does. Ops are allocated in `arena`. Returns NULL on error; the
 * diagnostics went to the context's handler. The caller should have added the
 * whole file with ptoc_source_add so diagnostics can quote it. */
ptoc_op *ptoc_parse(ptoc_context *ctx, ptoc_arena *arena, const char *text, size_t len,
                    const char *filename, const ptoc_parse_options *opts);

/* Splits a buffer at lines that are exactly `// -----` (surrounding spaces
 * allowed), calling `fn` for each chunk with the number of its first line. */
typedef bool (*ptoc_chunk_fn)(void *user, const char *text, size_t len, uint32_t first_line);
bool ptoc_split_input(const char *text, size_t len, ptoc_chunk_fn fn, void *user);

typedef struct ptoc_print_options {
    bool generic;             /* "op.name"(...) form for every op */
    bool debuginfo;           /* print loc(...) after each op */
    bool assembly;            /* ops with a print_asm hook as assembly statements */
} ptoc_print_options;

/* Appends the text of `op` (a module or any op) to `out`, with a final newline. */
void ptoc_print_op(ptoc_strbuf *out, const ptoc_op *op, const ptoc_print_options *opts);
void ptoc_print_type_to(ptoc_strbuf *out, const ptoc_type *t);
void ptoc_print_attr_to(ptoc_strbuf *out, const ptoc_attr *a);

/* ---------------------------------------------------------------- parser toolkit */

ptoc_context *ptoc_parser_context(ptoc_parser *p);
ptoc_arena *ptoc_parser_arena(ptoc_parser *p);
/* Memory that lives as long as the parse (a hook's working lists), not the IR. */
ptoc_arena *ptoc_parser_scratch(ptoc_parser *p);
ptoc_loc ptoc_parser_loc(ptoc_parser *p);               /* location of the next token */
bool ptoc_parser_failed(ptoc_parser *p);
/* In a dialect's parse_type/parse_attr hook: where the `!dialect...` or
 * `#dialect...` being parsed starts, for errors about the whole type (such as
 * an unknown mnemonic). */
ptoc_loc ptoc_parser_hook_loc(ptoc_parser *p);
/* Emits an error at the next token (or at `loc`) and marks the parser failed.
 * Always returns false, so hooks can `return ptoc_parser_error(...)`. */
bool ptoc_parser_error(ptoc_parser *p, const char *fmt, ...);
bool ptoc_parser_error_at(ptoc_parser *p, ptoc_loc loc, const char *fmt, ...);
/* The same error in flight, to attach notes to before ptoc_diag_report; NULL
 * when the parser has already failed (its first error is the one reported). */
ptoc_diag *ptoc_parser_diag_at(ptoc_parser *p, ptoc_loc loc, const char *fmt, ...);

/* Punctuation and keywords by spelling: "(", ")", "[", "]", "{", "}", "<", ">",
 * ",", ":", "=", "->", "?", "*", "+", "|", "..." or a bare keyword such as "ins"
 * (a keyword matches a bare identifier token with exactly that text). */
bool ptoc_parse_optional(ptoc_parser *p, const char *spelling);
bool ptoc_parse_expect(ptoc_parser *p, const char *spelling); /* error "expected 'x'" */
/* Is the next token this spelling? Consumes nothing. */
bool ptoc_parser_peek(ptoc_parser *p, const char *spelling);
/* A bare identifier (letters, digits, `_`, `$`, `.`); fails with "expected <what>". */
bool ptoc_parse_keyword(ptoc_parser *p, ptoc_ident **out, const char *what);
bool ptoc_parse_optional_keyword(ptoc_parser *p, ptoc_ident **out);
/* Integer literal, decimal or hex, with an optional leading `-`. Values outside
 * int64 (or uint64 for non-negative hex/decimal) are an error. */
bool ptoc_parse_integer(ptoc_parser *p, int64_t *out);
bool ptoc_parse_optional_integer(ptoc_parser *p, int64_t *out);
bool ptoc_parse_float(ptoc_parser *p, double *out);     /* also accepts integers */
bool ptoc_parse_string(ptoc_parser *p, ptoc_ident **out);
bool ptoc_parse_optional_string(ptoc_parser *p, ptoc_ident **out);
/* `@name` */
bool ptoc_parse_symbol_name(ptoc_parser *p, ptoc_ident **out);
bool ptoc_parse_optional_symbol_name(ptoc_parser *p, ptoc_ident **out);
/* An assembly attribute's `#key=` (a `#name` without a dot, then `=`): consumes
 * both and gives the key; false, consuming nothing, when the next tokens are not
 * that (a `#dialect.attr` or an alias stays for ptoc_parse_attr). */
bool ptoc_parse_optional_hash_key(ptoc_parser *p, ptoc_ident **key);
/* A number as written, for hooks that give its spelling a meaning (an assembly
 * immediate: a hex integer is a bit pattern): an integer (decimal or hex) or a
 * float literal, with an optional leading `-`. False when the next token is
 * neither (nothing consumed), or on error (a literal beyond 64 bits). */
typedef struct ptoc_number {
    bool is_float;            /* a float literal: value in `fp` */
    bool is_hex;              /* an integer written 0x...: */
    bool negative;            /* a leading `-` */
    uint64_t magnitude;       /* the integer's digits, without the sign */
    double fp;                /* the float's value, sign included */
    ptoc_loc loc;
} ptoc_number;
bool ptoc_parse_optional_number(ptoc_parser *p, ptoc_number *out);

bool ptoc_parse_type(ptoc_parser *p, ptoc_type **out);
bool ptoc_parse_optional_type(ptoc_parser *p, ptoc_type **out);
/* `T, T, ...` (at least one) */
bool ptoc_parse_type_list(ptoc_parser *p, ptoc_type ***out, uint32_t *n);
/* Optional `: T, T` ; false with n = 0 when there is no colon. */
bool ptoc_parse_optional_colon_type_list(ptoc_parser *p, ptoc_type ***out, uint32_t *n);
/* Optional `-> T` or `-> (T, U)` or `-> ()`, results added to state. */
bool ptoc_parse_optional_arrow_types(ptoc_parser *p, ptoc_op_state *st);
/* `(T, U) -> V` or `(T) -> (V, W)` */
bool ptoc_parse_function_type(ptoc_parser *p, ptoc_type **out);
/* A dimension list `4x?x8x` for shaped types, up to and including the last `x`
 * before the element type; *rank may be 0. */
bool ptoc_parse_dimension_list(ptoc_parser *p, int64_t **shape, uint32_t *rank, bool allow_dynamic);

/* Any attribute, with its `: type` suffix where MLIR writes one. */
bool ptoc_parse_attr(ptoc_parser *p, ptoc_attr **out);
bool ptoc_parse_optional_attr(ptoc_parser *p, ptoc_attr **out);
/* `{name = attr, name}`; absent is fine. Added to the state. Duplicate names are an error. */
bool ptoc_parse_optional_attr_dict(ptoc_parser *p, ptoc_op_state *st);
/* `attributes {...}`, absent is fine. */
bool ptoc_parse_optional_attr_dict_with_keyword(ptoc_parser *p, ptoc_op_state *st);

/* SSA operand references, resolved against a type later (as MLIR does). */
typedef struct ptoc_operand_ref {
    ptoc_ident *name;         /* without `%`, e.g. "arg0" or "12" */
    uint32_t number;          /* `%x#1` -> 1 */
    ptoc_loc loc;
} ptoc_operand_ref;
bool ptoc_parse_operand(ptoc_parser *p, ptoc_operand_ref *out);
bool ptoc_parse_optional_operand(ptoc_parser *p, ptoc_operand_ref *out);
/* `%a, %b, ...`, possibly empty (a list is empty when the next token is not `%`). */
bool ptoc_parse_operand_list(ptoc_parser *p, ptoc_operand_ref **out, uint32_t *n);
/* Resolves one reference at type `t`: an earlier definition must have that type
 * (error otherwise); a not-yet-defined name becomes a forward reference. */
bool ptoc_parse_resolve(ptoc_parser *p, const ptoc_operand_ref *ref, ptoc_type *t, ptoc_value **out);
/* The type of the value `ref` names when it is already defined, else NULL
 * (not defined yet, or no such result number): for forms whose operands take
 * their types from their definitions. Reports nothing. */
ptoc_type *ptoc_parser_defined_type(ptoc_parser *p, const ptoc_operand_ref *ref);
/* Resolves `n` refs against `ntypes` types (error if the counts differ) and adds
 * them to state's operands. `where` names the list in the count error. */
bool ptoc_parse_resolve_list(ptoc_parser *p, const ptoc_operand_ref *refs, uint32_t n,
                             ptoc_type *const *types, uint32_t ntypes, ptoc_loc where,
                             ptoc_op_state *st);

/* For a custom form that changes a value in place (`pto.tassign %t, ...` with
 * no result named): once the op being parsed is created, `ref`'s name stands
 * for its first result, so later uses read the new value. The value must be
 * defined in the block the op goes in (an error otherwise). */
bool ptoc_parser_rebind_to_result(ptoc_parser *p, const ptoc_operand_ref *ref);
/* Creates `st` as an op of its own just before the op being parsed (in the
 * same block), e.g. an arith.constant for an assembly immediate. */
ptoc_op *ptoc_parser_insert_op(ptoc_parser *p, const ptoc_op_state *st);

/* An optional `loc(...)`, as after a function argument's type. Returns true
 * when one was parsed; *loc is then its first file:line:col (unknown if it has
 * none or names a location alias defined further down). */
bool ptoc_parse_optional_trailing_loc(ptoc_parser *p, ptoc_loc *loc);

/* Region arguments: `%x : T [loc(...)]` (with_type) or `%x`. */
typedef struct ptoc_region_arg {
    ptoc_operand_ref ref;
    ptoc_type *type;
    ptoc_loc loc;
} ptoc_region_arg;
bool ptoc_parse_region_arg(ptoc_parser *p, ptoc_region_arg *out, bool with_type);
/* `{ ... }` into `r`. When `nargs` > 0 the entry block gets those arguments (the
 * text must then not declare its own entry label with arguments). When
 * `add_implicit` names an op (e.g. "scf.yield"), a block that does not end with a
 * terminator gets that op with no operands appended, as MLIR's custom forms do. */
bool ptoc_parse_region(ptoc_parser *p, ptoc_region *r, const ptoc_region_arg *args,
                       uint32_t nargs, const char *add_implicit);
bool ptoc_parser_peek_region(ptoc_parser *p);            /* next token is `{` */

/* The generic op form after the name: `(operands) [<{props}>] [(regions)] [{attrs}] : fn-type`. */
bool ptoc_parse_generic_op_body(ptoc_parser *p, ptoc_op_state *st);

/* ---------------------------------------------------------------- printer toolkit */

ptoc_context *ptoc_printer_context(ptoc_printer *p);
bool ptoc_printer_generic(ptoc_printer *p);
void ptoc_print_str(ptoc_printer *p, const char *s);
void ptoc_print_fmt(ptoc_printer *p, const char *fmt, ...);
void ptoc_print_int(ptoc_printer *p, int64_t v);
/* A string literal with MLIR escapes. */
void ptoc_print_string_lit(ptoc_printer *p, const char *s, size_t len);
void ptoc_print_value(ptoc_printer *p, const ptoc_value *v);          /* %name */
void ptoc_print_value_type(ptoc_printer *p, const ptoc_value *v);     /* its type */
void ptoc_print_type(ptoc_printer *p, const ptoc_type *t);
void ptoc_print_attr(ptoc_printer *p, const ptoc_attr *a);            /* with `: type` */
void ptoc_print_attr_no_type(ptoc_printer *p, const ptoc_attr *a);    /* integers/floats bare */
/* `%a, %b` for operands [from, from+n). */
void ptoc_print_operands(ptoc_printer *p, const ptoc_op *op, uint32_t from, uint32_t n);
/* `T, U` for the types of operands [from, from+n). */
void ptoc_print_operand_types(ptoc_printer *p, const ptoc_op *op, uint32_t from, uint32_t n);
/* ` -> T` or ` -> (T, U)`, nothing when the op has no results. */
void ptoc_print_arrow_result_types(ptoc_printer *p, const ptoc_op *op);
/* ` {a = 1}` (leading space) when the op has attributes not in `elided`. */
void ptoc_print_attr_dict(ptoc_printer *p, const ptoc_op *op, const char *const *elided, size_t nelided);
void ptoc_print_attr_dict_with_keyword(ptoc_printer *p, const ptoc_op *op,
                                       const char *const *elided, size_t nelided);
/* `{` newline, the blocks indented, `}`. The entry block's label and arguments are
 * printed only if print_entry_args (and it has arguments) or it has several
 * blocks. A terminator that is `omit_terminator` with no operands and no
 * attributes is left out (as scf.for does with an empty scf.yield). */
void ptoc_print_region(ptoc_printer *p, const ptoc_region *r, bool print_entry_args,
                       const char *omit_terminator);
/* `%x: T` for a block argument (a region's argument list in a custom form). */
void ptoc_print_block_arg(ptoc_printer *p, const ptoc_value *arg, bool with_type);
void ptoc_print_newline(ptoc_printer *p);                /* newline + current indent */

#ifdef __cplusplus
}
#endif
#endif
