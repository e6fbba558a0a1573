/* canonicalize.h: the parts of the canonicalize pass (canonicalize.c drives,
 * canonicalize_fold.c folds arith ops). Private to passes/.
 */
#ifndef PTOC_PASSES_CANONICALIZE_H
#define PTOC_PASSES_CANONICALIZE_H

#include "passes/passes.h"

/* The value of `v` when an arith.constant with a scalar integer, index, bool or
 * float value defines it; NULL otherwise. */
ptoc_attr *ptoc_fold_constant_of(const ptoc_value *v);

typedef enum ptoc_fold_result {
    PTOC_FOLD_NONE,      /* nothing to fold */
    PTOC_FOLD_CONSTANT,  /* the op's one result is the constant *value */
    PTOC_FOLD_FORWARD,   /* the op's one result is the value *forward */
} ptoc_fold_result;

/* What folding the arith op `op` gives, as MLIR 19's arith folders give it for
 * constant operands: integer arithmetic wraps at the type's width (index: 64
 * bits); division or remainder by zero, signed division overflow and shifts by
 * the width or more are not folded; floats are computed in double and rounded
 * to the result type (exact for + - * / and fmod); arith.select with a
 * constant condition forwards an operand. Scalars only. */
ptoc_fold_result ptoc_fold_arith(ptoc_op *op, ptoc_attr **value, ptoc_value **forward);

#endif
