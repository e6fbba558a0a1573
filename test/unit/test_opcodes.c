/* test_opcodes.c: the opcode enum and the rows of the op table agree. Row i
 * has opcode i and ptoc_pto_op_name(i) is its name; an op built by that name
 * answers that opcode; other ops answer PTOC_PTO_OP_NONE. The enum names are
 * checked against names written here by hand (PTOC_PTO_OP_<NAME>, '.' as '_'),
 * and the effects columns against pto_access.c's stated rules for a few ops. */
#include "check.h"

#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <string.h>

static ptoc_op *build(ptoc_builder *b, const char *name)
{
    return ptoc_builder_create(b, name, 0, NULL, 0, NULL, 0, NULL, 0);
}

static void check_rows(ptoc_builder *b)
{
    CHECK(ptoc_pto_op_count() == (size_t)PTOC_PTO_OP_COUNT);
    for (size_t i = 0; i < ptoc_pto_op_count(); i++) {
        const ptoc_pto_op_info *info = ptoc_pto_op_info_at(i);
        CHECK(info->opcode == (ptoc_pto_op_id)i);
        CHECK(ptoc_pto_op_name(info->opcode) == info->name);
        CHECK(strncmp(info->name, "pto.", 4) == 0);
        ptoc_op *op = build(b, info->name);
        CHECK(ptoc_pto_opcode(op) == info->opcode && ptoc_pto_is(op, info->opcode));
        CHECK(ptoc_pto_op_info_of(op) == info);
    }
    CHECK(ptoc_pto_op_name(PTOC_PTO_OP_NONE) == NULL);
    CHECK(ptoc_pto_op_name(PTOC_PTO_OP_COUNT) == NULL);
}

static void check_names(void)
{
    static const struct { ptoc_pto_op_id opcode; const char *name; } pairs[] = {
        {PTOC_PTO_OP_TADD, "pto.tadd"},
        {PTOC_PTO_OP_TLOAD, "pto.tload"},
        {PTOC_PTO_OP_ALLOC_TILE, "pto.alloc_tile"},
        {PTOC_PTO_OP_TMATMUL_ACC, "pto.tmatmul.acc"},
        {PTOC_PTO_OP_TMATMUL_MX_BIAS, "pto.tmatmul.mx.bias"},
        {PTOC_PTO_OP_TMOV_FP, "pto.tmov.fp"},
        {PTOC_PTO_OP_SYNC_SET, "pto.sync.set"},
        {PTOC_PTO_OP_SECTION_VECTOR, "pto.section.vector"},
        {PTOC_PTO_OP_TRAP, "pto.trap"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const char *name = ptoc_pto_op_name(pairs[i].opcode);
        CHECK(name && strcmp(name, pairs[i].name) == 0);
    }
}

static void check_others(ptoc_builder *b)
{
    ptoc_op *add = build(b, "arith.addi");
    CHECK(ptoc_pto_opcode(add) == PTOC_PTO_OP_NONE && !ptoc_pto_is(add, PTOC_PTO_OP_TADD));
    CHECK(ptoc_pto_op_effects(add)->inplace_ins == 0 && !ptoc_pto_op_effects(add)->writes_valid);
}

/* pto_access.c: tadd may write over either in on every arch and writes its
 * whole valid region; tfmod over either in on A5 and cpu only; tcvt's rule
 * allows a narrower out; tcmp neither; tsel writes its tmp (in 3) as scratch; on A2/A3 (and
 * only there) trowexpand and tcvt use the arch's hidden scratch window, tadd
 * does not; a dynamic valid shape comes from tadd's in 0, tsel's in 1 (after
 * the mask), tload's view, tdivs' in of the result's type, and not from tmatmul. */
static void check_effects(ptoc_builder *b)
{
    const ptoc_pto_effects *tadd = ptoc_pto_op_effects(build(b, "pto.tadd"));
    const ptoc_pto_effects *tcmp = ptoc_pto_op_effects(build(b, "pto.tcmp"));
    const ptoc_pto_effects *tsel = ptoc_pto_op_effects(build(b, "pto.tsel"));
    CHECK(tadd->inplace_ins == 3u && tadd->writes_valid && tadd->scratch_ins == 0);
    CHECK(tadd->inplace_ins_a2a3 == 3u && tadd->inplace_rule == PTOC_PTO_INPLACE_SAME);
    ptoc_op *tfmod = build(b, "pto.tfmod"), *tcvt = build(b, "pto.tcvt");
    CHECK(ptoc_pto_inplace_ins(tfmod, PTOC_PTO_ARCH_A5) == 3u && ptoc_pto_inplace_ins(tfmod, PTOC_PTO_ARCH_CPU) == 3u);
    CHECK(ptoc_pto_inplace_ins(tfmod, PTOC_PTO_ARCH_A2) == 0 && ptoc_pto_inplace_ins(tfmod, PTOC_PTO_ARCH_A3) == 0);
    CHECK(ptoc_pto_op_effects(tcvt)->inplace_rule == PTOC_PTO_INPLACE_NARROW);
    CHECK(tcmp->inplace_ins == 0 && !tcmp->writes_valid && tcmp->scratch_ins == 0);
    CHECK(tsel->inplace_ins == 0 && tsel->writes_valid && tsel->scratch_ins == 1u << 3);
    uint32_t a2a3 = (1u << PTOC_PTO_ARCH_A2) | (1u << PTOC_PTO_ARCH_A3);
    CHECK(ptoc_pto_op_effects(build(b, "pto.trowexpand"))->window_archs == a2a3);
    CHECK(ptoc_pto_op_effects(build(b, "pto.tcvt"))->window_archs == a2a3);
    CHECK(tadd->window_archs == 0 && tsel->window_archs == 0);
    CHECK(tadd->vshape == PTOC_PTO_VSHAPE_IN0 && tsel->vshape == PTOC_PTO_VSHAPE_IN1);
    CHECK(ptoc_pto_op_effects(build(b, "pto.tload"))->vshape == PTOC_PTO_VSHAPE_VIEW);
    CHECK(ptoc_pto_op_effects(build(b, "pto.tdivs"))->vshape == PTOC_PTO_VSHAPE_SAME_TYPE);
    CHECK(ptoc_pto_op_effects(build(b, "pto.tmatmul"))->vshape == PTOC_PTO_VSHAPE_NONE);
}

int main(void)
{
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_builder b;
    ptoc_builder_init(&b, ctx, arena);
    check_rows(&b);
    check_names();
    check_others(&b);
    check_effects(&b);
    ptoc_arena_destroy(arena);
    ptoc_context_destroy(ctx);
    return CHECK_DONE();
}
