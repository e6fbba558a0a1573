/* pto_internal.h: what the pto dialect's files share and nobody else sees.
 *
 * pto_types.c parses and prints the types, pto_attrs.c the attributes, pto_ops.c
 * holds the op table with the parse/print hooks, pto_verify.c the verifiers and
 * the target-arch query. The dialect object itself lives in pto_ops.c.
 */
#ifndef PTOC_DIALECT_PTO_INTERNAL_H
#define PTOC_DIALECT_PTO_INTERNAL_H

#include "ptoc/pto.h"
#include "ptoc/syntax.h"

/* The dialect object (defined in pto_ops.c). */
extern const ptoc_dialect pto_dialect;

/* pto_effects.c: the effects row of op `name` ("pto.tadd"); a row with no
 * effects for unknown names and NULL. */
const ptoc_pto_effects *pto_effects_lookup(const char *name);

/* pto_types.c */
ptoc_type *pto_parse_type(ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed);
void pto_print_type(ptoc_printer *p, const ptoc_type *t);
/* Bytes of one element of a tile dtype (1 for i1/i8 ..., 0 when unknown). */
uint32_t pto_elem_bytes(const ptoc_type *elem);
/* A type where a pto op's syntax expects one: any type, or PTOAS's custom-type
 * fallback, the bare body of the pto type `kind` without `!pto.mnemonic`
 * (`<loc=vec, dtype=f32, ...>` is a tile_buf in a DPS type list, `<f32>` a
 * pointer in addptr's). The list form reads `T, T, ...` (at least one). */
bool pto_parse_type_or_bare(ptoc_parser *p, ptoc_pto_type_kind kind, ptoc_type **out);
bool pto_parse_type_list_or_bare(ptoc_parser *p, ptoc_pto_type_kind kind, ptoc_type ***out, uint32_t *n);

/* pto_attrs.c */
ptoc_attr *pto_parse_attr(ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed);
void pto_print_attr(ptoc_printer *p, const ptoc_attr *a);
/* Looks `name` up among the values of `kind`. */
bool pto_enum_lookup(ptoc_pto_enum_kind kind, const char *name, uint32_t *value);
/* Parses the value of an enum attribute of `kind` in any of its spellings: the
 * full `#pto.pipe<PIPE_V>`, the stripped `<PIPE_V>`, or a bare `PIPE_V` when
 * allow_bare. Errors name `what`. */
bool pto_parse_enum_value_attr(ptoc_parser *p, ptoc_pto_enum_kind kind, bool allow_bare,
                               ptoc_attr **out);
/* Prints `<PIPE_V>`, the stripped form used inside sync brackets. */
void pto_print_enum_stripped(ptoc_printer *p, const ptoc_attr *a);

/* pto_verify.c: one verifier per op family (the op table points at them). */
bool pto_verify_structure(const ptoc_op *op);      /* counts, segment sizes */
bool pto_verify_elementwise(const ptoc_op *op);    /* tadd tsub tmul tdiv tmax tmin */
bool pto_verify_scalar_elementwise(const ptoc_op *op); /* tadds tmuls */
bool pto_verify_thistogram(const ptoc_op *op);
bool pto_verify_tcolexpand(const ptoc_op *op);
bool pto_verify_tcolexpand_binary(const ptoc_op *op);
bool pto_verify_tsel(const ptoc_op *op);
bool pto_verify_tsels(const ptoc_op *op);
bool pto_verify_tcmp(const ptoc_op *op);
bool pto_verify_tcmps(const ptoc_op *op);
bool pto_verify_tload(const ptoc_op *op);
bool pto_verify_tstore(const ptoc_op *op);
bool pto_verify_alloc_tile(const ptoc_op *op);
bool pto_verify_make_tensor_view(const ptoc_op *op);
bool pto_verify_partition_view(const ptoc_op *op);
bool pto_verify_tassign(const ptoc_op *op);
bool pto_verify_sync_flag(const ptoc_op *op);      /* set_flag wait_flag */
bool pto_verify_event_op(const ptoc_op *op);       /* record_event wait_event */
bool pto_verify_barrier(const ptoc_op *op);

#endif
