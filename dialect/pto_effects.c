/* pto_effects.c: how pto ops touch their tile operands, for the passes that
 * reason about memory (pto-bufferize, pto-plan-memory, pto-insert-sync).
 *
 * The facts are the effects columns of pto_ops.def (inpl, whole, scratch),
 * expanded here into one row per opcode; every op that is not a pto op gets
 * the conservative answer (no in-place, outs not written whole). Why the rows
 * say what they say:
 *  - inplace_ins: the ISA allows the out to be exactly in i (dst == src, same
 *    bytes). True of the elementwise ops, which read an element before writing
 *    it; not of tcmp/tcmps, tsel/tsels, thistogram or the transfers, which
 *    write parts of dst before they have read all of their sources.
 *  - writes_valid: the op writes every element of its outs' valid regions and
 *    reads none of them first, so a write kills the old contents when the valid
 *    region is the whole tile: tload, tmov, the elementwise and tile-scalar ops,
 *    texpands (a scalar into every valid element), the tcolexpand family, tsel
 *    and tsels. Not tcmp/tcmps (a mask row gets the bytes the source's valid
 *    columns need, the rest keep their contents), thistogram (rows of dst
 *    follow the source's valid rows) nor tsetval (one element).
 *  - scratch_ins: ins the op writes as scratch, so sync orders them as writes:
 *    the tmp of tsel (in 3) and tsels (in 2) in their 4-in forms, which A2/A3
 *    fill for set_cmpmask (ptoc_pto_select_scratch). In the 3-in form of
 *    tsels in 2 is the scalar, no buffer, so the bit changes nothing there.
 */
#include "ptoc/pto.h"

#define PTO_OP(id, name, form, level1, pipe, ilo, ihi, olo, ohi, flags, parse, print, verify, parse_asm, print_asm, \
               inplace, whole, scratch)                                                                          \
    [PTOC_PTO_OP_##id] = {inplace, whole, scratch},
static const ptoc_pto_effects effect_rows[PTOC_PTO_OP_COUNT] = {
#include "dialect/pto_ops.def"
};
#undef PTO_OP

static const ptoc_pto_effects no_effects = {0, false, 0};

const ptoc_pto_effects *ptoc_pto_op_effects(const ptoc_op *op)
{
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    return opcode == PTOC_PTO_OP_NONE ? &no_effects : &effect_rows[opcode];
}
