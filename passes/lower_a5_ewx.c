/* lower_a5_ewx.c: pto-lower-a5's remaining elementwise ops (pto-isa
 * include/pto/npu/a5).
 */
#include "passes/lower_a5_ew.h"
#include "ptoc/ptoc.h"

bool a5_ewx_lowers(ptoc_pto_op_id opcode)
{
    (void)opcode;
    return false;
}

void a5_ewx_lower(vop_builder *L, ptoc_op *op)
{
    (void)L;
    (void)op;
}
