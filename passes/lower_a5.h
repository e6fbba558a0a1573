/* lower_a5.h: the families of tile ops pto-lower-a5 (lower_a5.c) hands to
 * files of their own, each as a test of the opcode and a lowering that
 * leaves the op in place when it cannot lower it. */
#ifndef PTOC_PASSES_LOWER_A5_H
#define PTOC_PASSES_LOWER_A5_H

#include "passes/vop_builder.h"

/* tcvt (lower_a5_convert.c). */
bool a5_convert_lowers(ptoc_pto_op_id opcode);
void a5_convert_lower(vop_builder *L, ptoc_op *op);

#endif
