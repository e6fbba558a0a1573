/* pto_internal.h: what the pto dialect's files share and nobody else sees.
 *
 * pto_types.c parses and prints the types, pto_attrs.c the attributes, pto_ops.c
 * holds the op table with the parse/print hooks, pto_verify.c the verifiers and
 * the target-arch query, pto_dtypes.c (pto_dtypes.h) the element type table the
 * verifiers read, pto_entry.c the kernel entry rules, pto_tail_hint.c the
 * accepted spellings of pto.auto_sync_tail_hint. The dialect object itself
 * lives in pto_ops.c.
 */
#ifndef PTOC_DIALECT_PTO_INTERNAL_H
#define PTOC_DIALECT_PTO_INTERNAL_H

#include "ptoc/pto.h"
#include "ptoc/syntax.h"

/* The dialect object (defined in pto_ops.c). */
extern const ptoc_dialect pto_dialect;

/* pto_arch.c: `name` equals `want` (lower case) in any case. */
bool pto_same_name(const char *name, const char *want);

/* pto_types.c */
ptoc_type *pto_parse_type(ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed);
void pto_print_type(ptoc_printer *p, const ptoc_type *t);
/* Bytes of one element of a tile dtype (1 for i1/i8 ..., 0 when unknown). */
uint32_t pto_elem_bytes(const ptoc_type *elem);
/* The same type, or a tile and a tile_buf of one description (PTO-AS's
 * !pto.tile names a tile whatever its storage). */
bool pto_same_tile(const ptoc_type *a, const ptoc_type *b);
/* A type where a pto op's syntax expects one: any type, or PTOAS's custom-type
 * fallback, the bare body of the pto type `kind` without `!pto.mnemonic`
 * (`<loc=vec, dtype=f32, ...>` is a tile_buf in a DPS type list, `<f32>` a
 * pointer in addptr's). The list form reads `T, T, ...` (at least one). */
bool pto_parse_type_or_bare(ptoc_parser *p, ptoc_pto_type_kind kind, ptoc_type **out);
bool pto_parse_type_list_or_bare(ptoc_parser *p, ptoc_pto_type_kind kind, ptoc_type ***out, uint32_t *n);

/* pto_ops.c: the pieces of the DPS form the other forms reuse. */
void pto_add_attr(ptoc_parser *p, ptoc_op_state *st, const char *name, ptoc_attr *a);
/* `operandSegmentSizes = array<i32: sizes...>` */
void pto_add_segments(ptoc_parser *p, ptoc_op_state *st, uint32_t n, const int64_t *sizes);
/* The segment sizes of an op, or NULL (n = 0) when it has none. */
const int64_t *pto_op_segments(const ptoc_op *op, uint32_t *n);
/* An optional `-> T` (false only on a parse error). */
bool pto_parse_arrow(ptoc_parser *p, ptoc_op_state *st);
/* `KEYWORD(%a, %b [{attrs}] : T, U)` when the keyword is there; n = 0 otherwise. */
bool pto_parse_optional_group(ptoc_parser *p, ptoc_op_state *st, const char *keyword, uint32_t *n);
/* ` KEYWORD(%a, %b [{attrs}] : T, U)` for operands [from, from+n). */
void pto_print_group(ptoc_printer *p, const ptoc_op *op, const char *keyword, uint32_t from, uint32_t n,
                     bool attrs_inside);
/* The DPS form's hooks (which also read and print the Level-1 SSA form). */
bool pto_parse_dps(ptoc_parser *p, ptoc_op_state *st);
void pto_print_dps(ptoc_printer *p, const ptoc_op *op);

/* pto_forms.c: the toolkit of the PTOAS-syntax forms. A key block is the
 * `{key = value, ...}` PTOAS writes before an op's operands: each key is stored
 * as the attribute `attr`, in this order, optional keys may be left out. */
typedef enum pto_key_value {
    PTO_KV_I8, PTO_KV_I32,          /* a bare integer, stored as an i8 / i32 attribute */
    PTO_KV_BOOL, PTO_KV_STRING,
    PTO_KV_SYMBOL,                  /* @name */
    PTO_KV_SPACE,                   /* #pto.address_space<vec> or <vec> */
} pto_key_value;
typedef struct pto_form_key {
    const char *key;                /* as written */
    const char *attr;               /* as stored (PTOAS's ODS name) */
    pto_key_value value;
    bool optional;
} pto_form_key;
#define PTO_MAX_FORM_KEYS 8
bool pto_parse_key_block(ptoc_parser *p, ptoc_op_state *st, const pto_form_key *keys, uint32_t n);
void pto_print_key_block(ptoc_printer *p, const ptoc_op *op, const pto_form_key *keys, uint32_t n);
/* The attr-dict without the keys' attributes and operandSegmentSizes. */
void pto_print_attrs_besides(ptoc_printer *p, const ptoc_op *op, const pto_form_key *keys, uint32_t n);
/* Each key's attribute is present (unless optional) and of its kind; an error
 * on the op otherwise. */
bool pto_check_keys(const ptoc_op *op, const pto_form_key *keys, uint32_t n);
/* `%x : T` resolved and added; T may be the bare body of pto type `bare`. */
bool pto_parse_typed_operand(ptoc_parser *p, ptoc_op_state *st, ptoc_pto_type_kind bare);
/* `(%a, %b : T, U)` resolved and added; *n gets the count. */
bool pto_parse_paren_operands(ptoc_parser *p, ptoc_op_state *st, uint32_t *n);
void pto_print_paren_operands(ptoc_printer *p, const ptoc_op *op, uint32_t from, uint32_t n);
/* A pto type without `!pto.mnemonic` (`<f32>`), as PTOAS prints an unqualified `type($x)`. */
void pto_print_type_bare(ptoc_printer *p, const ptoc_type *t);
/* ` %a, %b {attrs} : T` for the first n operands, T the first one's type. */
void pto_print_operands_then_type(ptoc_printer *p, const ptoc_op *op, uint32_t n);
/* `{attrs} -> T` (the op's one result) and ` -> T`. */
bool pto_parse_attrs_result(ptoc_parser *p, ptoc_op_state *st);
void pto_print_result(ptoc_printer *p, const ptoc_op *op);

/* pto_forms.c: hooks of the forms (pto_ops.c's table points at them). */
bool pto_parse_addptr(ptoc_parser *p, ptoc_op_state *st);
void pto_print_addptr(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_load_scalar(ptoc_parser *p, ptoc_op_state *st);
void pto_print_load_scalar(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_store_scalar(ptoc_parser *p, ptoc_op_state *st);
void pto_print_store_scalar(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_get_tensor_view_dim(ptoc_parser *p, ptoc_op_state *st);
void pto_print_get_tensor_view_dim(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_bind_tile(ptoc_parser *p, ptoc_op_state *st);
void pto_print_bind_tile(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_subset(ptoc_parser *p, ptoc_op_state *st);
void pto_print_subset(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_set_validshape(ptoc_parser *p, ptoc_op_state *st);
void pto_print_set_validshape(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_pointer_cast(ptoc_parser *p, ptoc_op_state *st);
void pto_print_pointer_cast(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_declare(ptoc_parser *p, ptoc_op_state *st);
void pto_print_declare(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_eventid_array_get(ptoc_parser *p, ptoc_op_state *st);
bool pto_parse_eventid_array_set(ptoc_parser *p, ptoc_op_state *st);
void pto_print_eventid_access(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_tgather(ptoc_parser *p, ptoc_op_state *st);
void pto_print_tgather(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_tmov(ptoc_parser *p, ptoc_op_state *st);
void pto_print_tmov(ptoc_printer *p, const ptoc_op *op);

/* pto_forms_pipe.c: hooks of the push/pop and async forms. */
bool pto_parse_frontend_init(ptoc_parser *p, ptoc_op_state *st);      /* aic_/aiv_initialize_pipe */
void pto_print_frontend_init(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_frontend_push(ptoc_parser *p, ptoc_op_state *st);      /* tpush_to_aiv/aic */
void pto_print_frontend_push(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_frontend_pop(ptoc_parser *p, ptoc_op_state *st);       /* tpop_from_aic/aiv */
void pto_print_frontend_pop(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_split_only(ptoc_parser *p, ptoc_op_state *st);         /* tfree_from_aic/aiv */
void pto_print_split_only(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_reserve_buffer(ptoc_parser *p, ptoc_op_state *st);
void pto_print_reserve_buffer(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_import_reserved_buffer(ptoc_parser *p, ptoc_op_state *st);
void pto_print_import_reserved_buffer(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_l2g2l_pipe(ptoc_parser *p, ptoc_op_state *st);
void pto_print_l2g2l_pipe(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_l2l_pipe(ptoc_parser *p, ptoc_op_state *st);
void pto_print_l2l_pipe(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_pipe_data(ptoc_parser *p, ptoc_op_state *st);          /* tpush tpop tfree */
void pto_print_pipe_data(ptoc_printer *p, const ptoc_op *op);
bool pto_parse_async(ptoc_parser *p, ptoc_op_state *st);              /* the async DMA ops */
void pto_print_async(ptoc_printer *p, const ptoc_op *op);
/* The key block of a push/pop op (NULL, n = 0, for ops without one). */
const pto_form_key *pto_pipe_op_keys(const ptoc_op *op, uint32_t *n);

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

/* pto_asm.c: PTO-AS statements (the assembly spelling of the DPS/SSA ops). */
bool pto_parse_asm(ptoc_parser *p, ptoc_op_state *st);
bool pto_print_asm(ptoc_printer *p, const ptoc_op *op);

/* pto_verify.c: one verifier per op family (the op table points at them). */
bool pto_verify_structure(const ptoc_op *op);      /* counts, segment sizes */
/* pto_ops.c: `T, U`, `(T, U)` or `()` after a Level-1 form's colon (n may be 0) */
bool pto_parse_ssa_types(ptoc_parser *p, ptoc_type ***types, uint32_t *n);
/* pto_vops.c: the vector micro-ops' form, verifier and defs */
bool pto_parse_vop(ptoc_parser *p, ptoc_op_state *st);
void pto_print_vop(ptoc_printer *p, const ptoc_op *op);
bool pto_verify_vop(const ptoc_op *op);
/* pto_rops.c: the rules of the A2/A3 repeat intrinsics (pto_vops.def's
 * a2a3.* rows), given an op whose operand count and kinds pto_verify_vop
 * has checked: its typed operands in signature order, with their letters. */
typedef enum pto_rop_rule {
    PTO_ROP_BINARY, PTO_ROP_BINARY_INT, PTO_ROP_UNARY, PTO_ROP_UNARY_FLOAT, PTO_ROP_UNARY_INT, PTO_ROP_SCALAR,
    PTO_ROP_CMP, PTO_ROP_CMPS, PTO_ROP_SEL, PTO_ROP_BRCB, PTO_ROP_DUP, PTO_ROP_SET_MASK, PTO_ROP_MODE,
    PTO_ROP_SET_CMPMASK, PTO_ROP_COPY_IN, PTO_ROP_COPY_OUT, PTO_ROP_COPY_UB, PTO_ROP_UB_ADDR, PTO_ROP_UB_PTR,
    PTO_ROP_CONV,
    PTO_ROP_SCALAR_INT,
    PTO_ROP_UB_SCALAR, PTO_ROP_GATHER, PTO_ROP_SORT,
} pto_rop_rule;
bool pto_check_rop(const ptoc_op *op, pto_rop_rule rule, const ptoc_type *const *types, const char *kinds,
                   uint32_t n);
void pto_fill_vop_defs(ptoc_op_def *defs);
bool pto_verify_elementwise(const ptoc_op *op);    /* tadd tsub tmul tdiv tmax tmin */
bool pto_verify_scalar_elementwise(const ptoc_op *op); /* tadds tsubs tmuls tdivs tmaxs tmins */
bool pto_verify_tile_dtypes(const ptoc_op *op);    /* tiles whose rule is the dtype table */
bool pto_verify_tsort32(const ptoc_op *op);        /* the dtype table; dst rows hold the pairs */
bool pto_verify_tquant(const ptoc_op *op);         /* the dtype table, and the form its quant_type asks */
bool pto_verify_tcvt(const ptoc_op *op);
bool pto_verify_textract(const ptoc_op *op);
bool pto_verify_tinsert(const ptoc_op *op);
bool pto_verify_tget_scale_addr(const ptoc_op *op);
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

/* pto_verify_pipes.c: push/pop, reserved buffers, async DMA. */
bool pto_verify_frontend_init(const ptoc_op *op);  /* aic_/aiv_initialize_pipe */
bool pto_verify_frontend_push(const ptoc_op *op);  /* tpush_to_aiv/aic */
bool pto_verify_frontend_pop(const ptoc_op *op);   /* tpop_from_aic/aiv */
bool pto_verify_frontend_free(const ptoc_op *op);  /* tfree_from_aic/aiv */
bool pto_verify_reserve_buffer(const ptoc_op *op);
bool pto_verify_import_reserved_buffer(const ptoc_op *op);
bool pto_verify_pipe_init(const ptoc_op *op);      /* initialize_l2l_pipe, initialize_l2g2l_pipe */
bool pto_verify_pipe_data(const ptoc_op *op);      /* tpush tpop tfree */
/* The module-wide rules of the logical pipe an init op belongs to. */
bool pto_verify_pipe_peers(const ptoc_op *op);
bool pto_verify_build_async_session(const ptoc_op *op);
bool pto_verify_async_transfer(const ptoc_op *op); /* tput_async tget_async */
bool pto_verify_async_event(const ptoc_op *op);    /* wait_async_event test_async_event */

/* pto_verify_handles.c: pointers, handles on tiles, event-id arrays, tgather, tmov. */
/* `NAME must be WANT, got T` on the op unless `ok`; returns ok. */
bool pto_check_type(const ptoc_op *op, const char *name, const ptoc_type *t, bool ok, const char *want);
bool pto_verify_addptr(const ptoc_op *op);
bool pto_verify_scalar_access(const ptoc_op *op);  /* load_scalar store_scalar */
bool pto_verify_get_tensor_view_dim(const ptoc_op *op);
bool pto_verify_bind_tile(const ptoc_op *op);
bool pto_verify_subset(const ptoc_op *op);
bool pto_verify_set_validshape(const ptoc_op *op);
bool pto_verify_pointer_cast(const ptoc_op *op);
bool pto_verify_declare(const ptoc_op *op);        /* declare_tile declare_tile_memref declare_eventid_array */
bool pto_verify_eventid_access(const ptoc_op *op); /* eventid_array_get eventid_array_set */
bool pto_verify_tgather(const ptoc_op *op);
bool pto_verify_tmov(const ptoc_op *op);
/* subset's result: the source tile_buf cut to `sizes` (an array of two
 * integers), its valid dims derived from the source's and the constant
 * offsets (operands 1..); NULL with the reason in `why` if it has none. */
ptoc_type *pto_subset_result_type(ptoc_context *ctx, ptoc_value *const *operands, uint32_t n,
                                  const ptoc_attr *sizes, char *why, size_t size);
/* pto_verify.c: the arch an op is checked for; an error on the op if unknown. */
bool pto_verify_arch(const ptoc_op *op, ptoc_pto_arch *arch);

#endif
