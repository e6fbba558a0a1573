/* pass_util.c: small helpers the passes under passes/ share. */
#include "passes/passes.h"

#include <string.h>

bool ptoc_pass_flag(const char *value)
{
    return value && (strcmp(value, "true") == 0 || strcmp(value, "1") == 0);
}

const char *ptoc_pass_func_name(const ptoc_op *func)
{
    ptoc_attr *a = ptoc_op_attr(func, "sym_name");
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : "?";
}
