// cse merges repeated pure ops as MLIR 19's cse (checked against mlir-opt
// --cse): the later of two equal ops (name, operands, attributes, result
// types) goes when the earlier dominates it, also from an enclosing block into
// a region; the two arms of an scf.if do not share; functions do not share;
// different predicates or types are different ops; calls are never merged;
// a pure op unused when it is reached goes too.
// RUN: %python %S/../Inputs/mlir_oracle.py cse --cse %s
// RUN: ptoc-opt %s -p cse --verify-each | FileCheck %s
// CHECK-LABEL: func.func @block
// CHECK-COUNT-1: arith.addi %arg0, %arg1
// CHECK-NOT: arith.addi %arg0, %arg1
// CHECK-LABEL: func.func @regions
// CHECK: %[[OUT:.*]] = arith.muli %arg0, %arg0
// CHECK: scf.if
// CHECK-NEXT: %[[T:.*]] = arith.subi %arg0, %arg0
// CHECK-NEXT: arith.addi %[[OUT]], %[[T]]
// CHECK: } else {
// CHECK-NEXT: arith.subi %arg0, %arg0

func.func @block(%a: i32, %b: i32) -> (i32, i32, i1, i1, i64) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b : i32
  %2 = arith.muli %0, %1 : i32
  %3 = arith.muli %1, %0 : i32
  %4 = arith.cmpi slt, %a, %b : i32
  %5 = arith.cmpi sgt, %a, %b : i32
  %6 = arith.extsi %a : i32 to i64
  %7 = arith.extsi %a : i32 to i64
  %8 = arith.addi %6, %7 : i64
  %9 = arith.addi %a, %a : i32
  return %2, %3, %4, %5, %8 : i32, i32, i1, i1, i64
}

func.func private @effect(i32) -> i32

func.func @regions(%a: i32, %c: i1) -> (i32, i32, i32) {
  %m = arith.muli %a, %a : i32
  %r = scf.if %c -> i32 {
    %t = arith.subi %a, %a : i32
    %m2 = arith.muli %a, %a : i32
    %s = arith.addi %m2, %t : i32
    scf.yield %s : i32
  } else {
    %t = arith.subi %a, %a : i32
    scf.yield %t : i32
  }
  %t3 = arith.subi %a, %a : i32
  %x = func.call @effect(%a) : (i32) -> i32
  %y = func.call @effect(%a) : (i32) -> i32
  %s = arith.addi %x, %t3 : i32
  %s2 = arith.addi %y, %m : i32
  return %r, %s, %s2 : i32, i32, i32
}

func.func @other(%a: i32) -> i32 {
  %m = arith.muli %a, %a : i32
  %c = arith.constant 1 : i32
  %d = arith.constant 1 : i32
  %e = arith.constant 2 : i32
  %0 = arith.addi %m, %c : i32
  %1 = arith.addi %0, %d : i32
  %2 = arith.addi %1, %e : i32
  return %2 : i32
}
