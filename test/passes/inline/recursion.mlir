// inline respects recursion as MLIR's inliner does: a function that calls
// itself is never inlined (its callers keep the call, its body is unchanged),
// and no function is inlined into itself, so mutual recursion ends once one
// function of the cycle calls itself: @even's call of @odd is inlined, after
// which @even calls itself and stays a call in @odd.
// RUN: ptoc-opt %s -p inline --verify-each | FileCheck %s
// CHECK-LABEL: func.func @fact(
// CHECK: call @fact(
// CHECK-LABEL: func.func @use_fact(
// CHECK: call @fact(
// CHECK-LABEL: func.func @even(
// CHECK-NOT: call @odd
// CHECK: call @even(
// CHECK-NOT: call @odd
// CHECK-LABEL: func.func @odd(
// CHECK: call @even(
// CHECK-NOT: call

func.func @fact(%n: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %m = arith.subi %n, %c1 : i32
  %r = func.call @fact(%m) : (i32) -> i32
  %p = arith.muli %n, %r : i32
  return %p : i32
}
func.func @use_fact(%n: i32) -> i32 {
  %r = func.call @fact(%n) : (i32) -> i32
  return %r : i32
}
func.func @even(%n: i32) -> i32 {
  %r = func.call @odd(%n) : (i32) -> i32
  return %r : i32
}
func.func @odd(%n: i32) -> i32 {
  %r = func.call @even(%n) : (i32) -> i32
  return %r : i32
}
