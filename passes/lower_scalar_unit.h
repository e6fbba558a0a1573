/* lower_scalar_unit.h: the ops the model passes (pto-lower-a2a3,
 * pto-lower-a5) run element by element on the scalar unit
 * (lower_scalar_unit.c). scalar_unit_lowers: the opcodes it can take;
 * scalar_unit_claims: the ops it takes before the vector lowerings, those the
 * dialect puts on the S pipe for the arch (ptoc_pto_op_pipe); scalar_unit_lower
 * replaces such an op by its loops, or leaves it in place when it cannot. */
#ifndef PTOC_PASSES_LOWER_SCALAR_UNIT_H
#define PTOC_PASSES_LOWER_SCALAR_UNIT_H

#include "passes/vop_builder.h"

bool scalar_unit_lowers(ptoc_pto_op_id opcode);
bool scalar_unit_claims(ptoc_op *op);
void scalar_unit_lower(vop_builder *L, ptoc_op *op);

#endif
