// The pass pipeline language: the short form, the nested form, options, and a
// diagnostic for each mistake (exit status 1, nothing printed).

// RUN: ptoc-opt %s -p dce,strip-debuginfo | FileCheck %s
// RUN: ptoc-opt %s -p ' dce , strip-debuginfo ' | FileCheck %s
// RUN: ptoc-opt %s --pass-pipeline='builtin.module(func.func(dce),strip-debuginfo)' | FileCheck %s
// RUN: ptoc-opt %s --pass-pipeline='func.func(dce)' | FileCheck %s
// RUN: ptoc-opt %s --dce | FileCheck %s
// RUN: ptoc-opt %s -p dce -p strip-debuginfo | FileCheck %s
// RUN: ptoc-opt %s --pass-pipeline='builtin.module()' | FileCheck %s --check-prefix=NOOP
// RUN: ptoc-opt %s -p '' | FileCheck %s --check-prefix=NOOP
// CHECK-LABEL: func.func @f
// CHECK-NOT: arith.muli
// CHECK: return
// NOOP: arith.muli

// RUN: not ptoc-opt %s -p dce,nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown pass 'nope' at column 5 of pass pipeline 'dce,nope'
// UNKNOWN-NOT: func.func

// RUN: not ptoc-opt %s --pass-pipeline='builtin.module(func.func(dce)' 2>&1 | FileCheck %s --check-prefix=PAREN
// PAREN: error: expected ')' at column 30 of pass pipeline 'builtin.module(func.func(dce)'

// RUN: not ptoc-opt %s --pass-pipeline='builtin.module(dce))' 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: error: unbalanced ')' at column 20

// RUN: not ptoc-opt %s -p 'dce,' 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: error: expected a pass name at column 5

// RUN: not ptoc-opt %s -p 'dce{x=1}' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: pass 'dce' has no option 'x' at column 5

// RUN: not ptoc-opt %s -p 'dce{' 2>&1 | FileCheck %s --check-prefix=BRACE
// BRACE: error: expected '}' at column 5

// RUN: not ptoc-opt %s -p 'dce strip-debuginfo' 2>&1 | FileCheck %s --check-prefix=COMMA
// COMMA: error: expected ',' or end of pipeline at column 5

func.func @f(%x: i32) {
  %0 = arith.muli %x, %x : i32
  return
}
