// Parser diagnostics of the arith custom forms not covered by invalid.mlir.
// RUN: ptoc-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{expected a flag name}}
  %0 = arith.addi %a, %b overflow<1> : i32
  return
}

// -----

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{expected a comparison predicate}}
  %0 = arith.cmpi 1, %a, %b : i32
  return
}
