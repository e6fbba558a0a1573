// RUN: ptoc-opt %s --split-input-file --verify-diagnostics | FileCheck %s
// RUN: %python %S/Inputs/exit_status.py ptoc-opt %S/Inputs/invalid.mlir --verify-diagnostics | FileCheck %s --check-prefix=UNEXPECTED

// With every expectation met the exit status is 0, and chunks that succeed are
// still printed.
// CHECK: func.func @fine
// CHECK-NOT: @bad

func.func @fine() {
  return
}

// -----

func.func @bad() {
  // expected-error@+1 {{use of undeclared SSA value}}
  %0 = arith.addi %nope, %nope : i32
  return
}

// An unexpected diagnostic fails: exit status 1.
// UNEXPECTED: invalid.mlir:2:{{[0-9]+}}: error:
// UNEXPECTED: exit status 1
