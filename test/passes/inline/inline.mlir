// inline replaces calls by the callee's body as MLIR 19's inliner without its
// simplification pipeline (checked against mlir-opt
// --inline='default-pipeline='): arguments map to the call's operands, results
// to what the callee returns, calls inside scf regions and callee bodies with
// regions and several results are handled, calls brought in by an inlined body
// are inlined too, and a private callee left without calls is erased; a
// public callee stays.
// RUN: %python %S/../Inputs/mlir_oracle.py inline --inline=default-pipeline= %s
// RUN: ptoc-opt %s -p inline --verify-each | FileCheck %s
// CHECK-NOT: @leaf
// CHECK-LABEL: func.func @pub(
// CHECK-LABEL: func.func @main(
// CHECK-NOT: call
// CHECK: return

func.func private @leaf(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  return %0 : i32
}
func.func private @two(%a: i32, %b: i32) -> (i32, i32) {
  %0 = func.call @leaf(%a) : (i32) -> i32
  %1 = arith.addi %0, %b : i32
  return %1, %0 : i32, i32
}
func.func private @loop(%n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> i32 {
    %s = func.call @leaf(%acc) : (i32) -> i32
    scf.yield %s : i32
  }
  return %r : i32
}
func.func @pub(%a: i32) -> i32 {
  %0 = arith.subi %a, %a : i32
  return %0 : i32
}
func.func @main(%x: i32, %y: i32, %n: index, %c: i1) -> (i32, i32, i32, i32) {
  %p:2 = func.call @two(%x, %y) : (i32, i32) -> (i32, i32)
  %q = scf.if %c -> i32 {
    %l = func.call @loop(%n, %p#0) : (index, i32) -> i32
    scf.yield %l : i32
  } else {
    scf.yield %y : i32
  }
  %z = func.call @pub(%q) : (i32) -> i32
  return %p#0, %p#1, %q, %z : i32, i32, i32, i32
}
