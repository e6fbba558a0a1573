/* unit_dialect.h: a tiny dialect for the unit tests (ir/ has none of its own):
 * a module-like container, a function-like isolated op, a terminator, a pure
 * op and a side-effecting one. `t.bad` has a verify hook that always fails. */
#ifndef PTOC_TEST_UNIT_DIALECT_H
#define PTOC_TEST_UNIT_DIALECT_H

#include "ptoc/ir.h"

static bool unit_verify_bad(const ptoc_op *op)
{
    ptoc_op_emit_error(op, "is always bad");
    return false;
}

static const ptoc_op_def unit_ops[] = {
    {.name = "t.module", .flags = PTOC_OPF_NO_TERMINATOR | PTOC_OPF_SINGLE_BLOCK | PTOC_OPF_ISOLATED},
    {.name = "t.func", .flags = PTOC_OPF_ISOLATED},
    {.name = "t.region", .flags = PTOC_OPF_SINGLE_BLOCK},
    {.name = "t.ret", .flags = PTOC_OPF_TERMINATOR},
    {.name = "t.const", .flags = PTOC_OPF_PURE},
    {.name = "t.add", .flags = PTOC_OPF_PURE},
    {.name = "t.store"},
    {.name = "t.bad", .verify = unit_verify_bad},
};

static const ptoc_dialect unit_dialect = {
    .name = "t",
    .ops = unit_ops,
    .nops = sizeof unit_ops / sizeof unit_ops[0],
};

/* A context with the test dialect registered. */
static inline ptoc_context *unit_context(const ptoc_allocator *allocator)
{
    ptoc_context *ctx = ptoc_context_create(allocator);
    ptoc_context_register_dialect(ctx, &unit_dialect);
    return ctx;
}

#endif
