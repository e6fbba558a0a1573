/* pto_dtypes.h: the element type classes and named class sets the table in
 * pto_dtypes.def is written with, and the checks that read the table.
 *
 * The classes are the public PTOC_PTO_DT_* bits (pto.h) under short names.
 * The named sets follow the way the hardware implementations state their
 * checks: by size (sizeof(T) == 1 covers the 8-bit floats too) or as a list.
 */
#ifndef PTOC_DIALECT_PTO_DTYPES_H
#define PTOC_DIALECT_PTO_DTYPES_H

#include "ptoc/pto.h"

#define DT_I8 PTOC_PTO_DT_I8
#define DT_U8 PTOC_PTO_DT_U8
#define DT_I16 PTOC_PTO_DT_I16
#define DT_U16 PTOC_PTO_DT_U16
#define DT_I32 PTOC_PTO_DT_I32
#define DT_U32 PTOC_PTO_DT_U32
#define DT_I64 PTOC_PTO_DT_I64
#define DT_U64 PTOC_PTO_DT_U64
#define DT_F16 PTOC_PTO_DT_F16
#define DT_BF16 PTOC_PTO_DT_BF16
#define DT_F32 PTOC_PTO_DT_F32
#define DT_F8E4M3 PTOC_PTO_DT_F8E4M3
#define DT_F8E5M2 PTOC_PTO_DT_F8E5M2
#define DT_OTHER PTOC_PTO_DT_OTHER

#define DT_NONE 0u                                       /* no implementation */
#define DT_ANY ((1u << PTOC_PTO_DT_COUNT) - 1)           /* no check on this arch */
#define DT_INT8 (DT_I8 | DT_U8)
#define DT_F8 (DT_F8E4M3 | DT_F8E5M2)
#define DT_B8 (DT_I8 | DT_U8 | DT_F8)                    /* sizeof(T) == 1 */
#define DT_B16 (DT_I16 | DT_U16 | DT_F16 | DT_BF16)      /* sizeof(T) == 2 */
#define DT_B32 (DT_I32 | DT_U32 | DT_F32)                /* sizeof(T) == 4 */
#define DT_B64 (DT_I64 | DT_U64)                         /* sizeof(T) == 8 */
#define DT_INTS (DT_I8 | DT_U8 | DT_I16 | DT_U16 | DT_I32 | DT_U32 | DT_I64 | DT_U64)
#define DT_INTS32 (DT_I8 | DT_U8 | DT_I16 | DT_U16 | DT_I32 | DT_U32)
#define DT_HF (DT_F16 | DT_F32)                          /* half, float */
/* The eleven integer and float classes: what the cpu target computes with,
 * and the list most A5 elementwise checks spell out. */
#define DT_NUM (DT_INTS | DT_F16 | DT_BF16 | DT_F32)
#define DT_NUM32 (DT_INTS32 | DT_F16 | DT_BF16 | DT_F32) /* the same up to 32 bits */
/* The cpu set of a row that is both hardware sets (the table's UNION). */
#define PTO_DTYPES_UNION 0xffffffffu
/* int32, int16, half, float: the list most A2/A3 vector checks spell out. */
#define DT_A2A3_ARITH (DT_I16 | DT_I32 | DT_HF)

/* The table's rows of one op: rule rows [begin, end) (an op's rows are
 * contiguous) and its PTO_OPERANDS row, -1 when it has none. */
typedef struct pto_dtype_rows {
    uint16_t begin, end;
    int16_t operands;
} pto_dtype_rows;
/* The rows of `op`'s opcode, indexed once for all opcodes (no rows for ops
 * that are not pto ops). */
const pto_dtype_rows *pto_op_dtype_rows(const ptoc_op *op);

/* pto_dtypes.c: checks every row of `op`'s table entries against the op in
 * hand on `arch` (roles that are absent or not tiles are skipped) and reports
 * the first row broken. False after an error. */
bool pto_check_dtype_rules(const ptoc_op *op, ptoc_pto_arch arch);
/* One set check with the table's diagnostic: "ROLE element type T is not
 * supported on ARCH[ when ...] (expected one of ...)"; `when` is a condition
 * string of the table's grammar ("" for none). For the rules the table cannot
 * state yet (a store from acc, which depends on a pre-quant operand). */
bool pto_check_dtype_set(const ptoc_op *op, const char *role, const char *when, const ptoc_type *elem, uint32_t set,
                         ptoc_pto_arch arch);
/* True when the table says `op` has no implementation on `arch` (every set
 * row of the op is empty there). */
bool pto_op_unimplemented_on(const ptoc_op *op, ptoc_pto_arch arch);
/* The type of operand `role` of `op` (an in, an out or a Level-1 result), or
 * NULL when the op has no such operand. */
ptoc_type *pto_role_type(const ptoc_op *op, const char *role);
/* The role name of in `i` / out `j` of `op` (from its PTO_OPERANDS row), or
 * NULL. Writes at most `n` bytes into `buf`. */
const char *pto_role_name(const ptoc_op *op, bool out, uint32_t i, char *buf, size_t n);

#endif
