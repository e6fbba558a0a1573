/* upstream.h: helpers shared by the upstream MLIR dialects (builtin, func, arith,
 * scf, memref) of ptoc. Private to dialect/; not part of the public API.
 *
 * They cover what every custom form and verifier of these dialects repeats:
 * naming a type in a diagnostic, interned attribute names, element types of
 * shaped values, symbol lookup, and a few parse/print fragments of MLIR's
 * assembly formats (functional types, `(%a = %init, ...)` assignment lists).
 */
#ifndef PTOC_DIALECT_UPSTREAM_H
#define PTOC_DIALECT_UPSTREAM_H

#include "ptoc/syntax.h"

/* A type's text for a diagnostic. Returned by value so it can be used inside the
 * argument list of an emit call; long types are truncated with "...". */
typedef struct ptoc_upstream_text { char text[256]; } ptoc_upstream_text;
ptoc_upstream_text ptoc_upstream_type_text(const ptoc_type *t);

/* Element type of a vector or tensor, the type itself otherwise. */
const ptoc_type *ptoc_upstream_elem(const ptoc_type *t);
/* Do two types have the same container kind and shape (both scalars counts)? */
bool ptoc_upstream_same_shape(const ptoc_type *a, const ptoc_type *b);

/* The string value of a string attribute `name` of `op`, NULL if absent or not a string. */
const char *ptoc_upstream_str_attr(const ptoc_op *op, const char *name);
/* The function type held by a type attribute `name`, NULL when absent or not one. */
const ptoc_type *ptoc_upstream_fn_type_attr(const ptoc_op *op, const char *name);
/* Adds `name = value` to the state a parse hook fills. */
void ptoc_upstream_add_attr(ptoc_parser *p, ptoc_op_state *st, const char *name, ptoc_attr *value);

/* Searches the symbol table enclosing `from` (the nearest ancestor with the
 * SYMBOL_TABLE flag) for an op whose sym_name is `name`. NULL if none. */
ptoc_op *ptoc_upstream_lookup_symbol(const ptoc_op *from, const ptoc_ident *name);

/* Parses an optional `{...}` into a dictionary attribute (empty dict when absent). */
bool ptoc_upstream_parse_dict(ptoc_parser *p, ptoc_attr **out);

/* Parses `(%arg = %init, ...)` after the `(` was consumed: region arguments
 * (types not yet known) and the operand references they are initialised from. */
bool ptoc_upstream_parse_assignments(ptoc_parser *p, ptoc_region_arg **args,
                                     ptoc_operand_ref **inits, uint32_t *n);
/* Prints ` (%arg = %init, ...)` or nothing when n is 0. `keyword` (may be NULL)
 * is printed before the parenthesis, as in ` iter_args(`. */
void ptoc_upstream_print_assignments(ptoc_printer *p, const char *keyword,
                                     ptoc_value *const *args, const ptoc_op *op,
                                     uint32_t from, uint32_t n);

/* `(T, U) -> V` from the op's operand and result types, as MLIR's functional-type
 * directive prints it (`-> ()` when there are no results). */
void ptoc_upstream_print_functional_type(ptoc_printer *p, const ptoc_op *op);
/* A list of types, comma separated. */
void ptoc_upstream_print_types(ptoc_printer *p, ptoc_type *const *types, uint32_t n);

/* The form of func.return and scf.yield: `[{attrs}] [%a, %b : T, U]`. */
bool ptoc_upstream_parse_terminator(ptoc_parser *p, ptoc_op_state *st);
void ptoc_upstream_print_terminator(ptoc_printer *p, const ptoc_op *op);

#endif
