/* pto_effects.c: how pto ops touch their tile operands, for the passes that
 * reason about memory (pto-bufferize, pto-plan-memory).
 *
 * One row per op that has something to say; every other op gets the
 * conservative answer (no in-place, outs not written whole). pto_ops.c looks
 * each op's row up once, when the dialect is first registered
 * (ptoc_pto_op_effects). Three facts so far:
 *  - inplace_ins: the ISA allows the out to be exactly in i (dst == src, same
 *    bytes). True of the elementwise ops, which read an element before writing
 *    it; not of tcmp/tcmps, tsel/tsels, thistogram or the transfers, which
 *    write parts of dst before they have read all of their sources.
 *  - writes_valid: the op writes every element of its outs' valid regions and
 *    reads none of them first, so a write kills the old contents when the valid
 *    region is the whole tile. Not tcmp/tcmps (a mask row gets the bytes the
 *    source's valid columns need, the rest keep their contents), thistogram
 *    (rows of dst follow the source's valid rows) nor tsetval (one element).
 *  - scratch_ins: ins the op writes as scratch, so sync orders them as writes:
 *    the tmp of tsel (in 3) and tsels (in 2) in their 4-in forms, which A2/A3
 *    fill for set_cmpmask (ptoc_pto_select_scratch). In the 3-in form of
 *    tsels in 2 is the scalar, no buffer, so the bit changes nothing there.
 */
#include "dialect/pto_internal.h"

#include <string.h>

#define IN(i) (1u << (i))

static const struct {
    const char *name;
    ptoc_pto_effects effects;
} effect_rows[] = {
    {"pto.tload", {0, true}},
    {"pto.tmov", {0, true}},
    {"pto.tadd", {IN(0) | IN(1), true}},
    {"pto.tsub", {IN(0) | IN(1), true}},
    {"pto.tmul", {IN(0) | IN(1), true}},
    {"pto.tdiv", {IN(0) | IN(1), true}},
    {"pto.tmax", {IN(0) | IN(1), true}},
    {"pto.tmin", {IN(0) | IN(1), true}},
    {"pto.tadds", {IN(0), true}},
    {"pto.tsubs", {IN(0), true}},
    {"pto.tmuls", {IN(0), true}},
    {"pto.tdivs", {IN(0), true}},
    {"pto.tmaxs", {IN(0), true}},
    {"pto.tmins", {IN(0), true}},
    {"pto.texpands", {0, true}},    /* a scalar into every valid element */
    {"pto.tcolexpand", {0, true}},
    {"pto.tcolexpandadd", {IN(0) | IN(1), true}},
    {"pto.tcolexpandsub", {IN(0) | IN(1), true}},
    {"pto.tcolexpandmul", {IN(0) | IN(1), true}},
    {"pto.tcolexpanddiv", {IN(0) | IN(1), true}},
    {"pto.tcolexpandmax", {IN(0) | IN(1), true}},
    {"pto.tcolexpandmin", {IN(0) | IN(1), true}},
    {"pto.tcolexpandexpdif", {IN(0) | IN(1), true}},
    {"pto.tcmp", {0, false}},       /* a mask: only the bytes the source's valid columns need */
    {"pto.tcmps", {0, false}},
    {"pto.tsel", {0, true, IN(3)}},
    {"pto.tsels", {0, true, IN(2)}},
};

static const ptoc_pto_effects no_effects = {0, false, 0};

const ptoc_pto_effects *pto_effects_lookup(const char *name)
{
    for (size_t i = 0; name && i < sizeof effect_rows / sizeof effect_rows[0]; i++)
        if (strcmp(name, effect_rows[i].name) == 0)
            return &effect_rows[i].effects;
    return &no_effects;
}
