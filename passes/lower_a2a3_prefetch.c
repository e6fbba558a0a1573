/* lower_a2a3_prefetch.c: pto-lower-a2a3's tprefetch (pto-isa a2a3
 * TPrefetch.hpp).
 *
 *   tprefetch ins(%view) outs(%tile)   the library copies the view into the
 *                                      tile with copy_gm_to_ubuf (the tile
 *                                      being its scratch): it becomes the
 *                                      pto.tload of the same operands, which
 *                                      the a2a3 backend moves as its DMA
 *                                      bursts (and the model costs as one)
 *   tprefetch ins(%view)               nothing to copy into: erased, as the
 *                                      cpu target does nothing for it
 */
#include "passes/lower_a2a3.h"

bool a2_prefetch_lowers(ptoc_pto_op_id opcode) { return opcode == PTOC_PTO_OP_TPREFETCH; }

void a2_prefetch_lower(vop_builder *L, ptoc_op *op)
{
    if (op->nresults != 0 || op->noperands > 2)
        return;
    if (op->noperands == 2) {
        ptoc_builder_set_before(&L->b, op);
        L->b.loc = op->loc;
        ptoc_value *ops[2] = {ptoc_op_operand(op, 0), ptoc_op_operand(op, 1)};
        const char *tload = ptoc_pto_op_name(PTOC_PTO_OP_TLOAD);
        ptoc_op *load = ptoc_builder_create(&L->b, tload, 2, ops, 0, NULL, 0, NULL, 0);
        ptoc_op_set_segment_sizes(load, L->b.arena, 6, (int64_t[6]){1, 1, 0, 0, 0, 0});
    }
    ptoc_op_erase(op);
}
