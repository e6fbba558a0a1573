// canonicalize folds integer arith ops on constants as MLIR 19 does, checked
// against mlir-opt --canonicalize: wrapping at the width (i8, i32, i64,
// index), signed and unsigned division and remainder, shifts, min/max, every
// cmpi predicate; and leaves unfolded what MLIR leaves (division and
// remainder by zero, INT_MIN / -1, shifts by the width or more).
// RUN: %python %S/../Inputs/mlir_oracle.py --constants-anywhere canonicalize --canonicalize %s
// RUN: ptoc-opt %s -p canonicalize --verify-each | FileCheck %s
// Stated rules, independent of mlir-opt: 127 + 1 wraps to -128 in i8;
// -7 / 2 = -3 (toward zero), ceil -3 -> -3, floor -> -4; x / 0 stays.
// CHECK-DAG: arith.constant -128 : i8
// CHECK-DAG: arith.constant -4 : i32
// CHECK: arith.divsi %{{.*}}, %c0_i32
// CHECK: arith.shli

func.func @wrap() -> (i8, i8, i32, i64, index) {
  %a = arith.constant 127 : i8
  %b = arith.constant 1 : i8
  %c = arith.constant -128 : i8
  %0 = arith.addi %a, %b : i8
  %1 = arith.muli %c, %a : i8
  %x = arith.constant 2147483647 : i32
  %y = arith.constant 3 : i32
  %2 = arith.muli %x, %y : i32
  %m = arith.constant 9223372036854775807 : i64
  %n = arith.constant 2 : i64
  %3 = arith.addi %m, %n : i64
  %i = arith.constant 40 : index
  %j = arith.constant 2 : index
  %4 = arith.subi %j, %i : index
  return %0, %1, %2, %3, %4 : i8, i8, i32, i64, index
}

func.func @division() -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %a = arith.constant -7 : i32
  %b = arith.constant 2 : i32
  %z = arith.constant 0 : i32
  %min = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %0 = arith.divsi %a, %b : i32
  %1 = arith.divui %a, %b : i32
  %2 = arith.remsi %a, %b : i32
  %3 = arith.remui %a, %b : i32
  %4 = arith.ceildivsi %a, %b : i32
  %5 = arith.floordivsi %a, %b : i32
  %6 = arith.ceildivui %a, %b : i32
  %7 = arith.divsi %a, %z : i32
  %8 = arith.divsi %min, %m1 : i32
  %9 = arith.remsi %min, %m1 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}

func.func @bits() -> (i16, i16, i16, i16, i16, i16, i16, i16) {
  %a = arith.constant -21846 : i16
  %b = arith.constant 3 : i16
  %w = arith.constant 16 : i16
  %0 = arith.andi %a, %b : i16
  %1 = arith.ori %a, %b : i16
  %2 = arith.xori %a, %b : i16
  %3 = arith.shli %a, %b : i16
  %4 = arith.shrsi %a, %b : i16
  %5 = arith.shrui %a, %b : i16
  %6 = arith.shli %a, %w : i16
  %7 = arith.shrsi %a, %w : i16
  return %0, %1, %2, %3, %4, %5, %6, %7 : i16, i16, i16, i16, i16, i16, i16, i16
}

func.func @minmax() -> (i32, i32, i32, i32) {
  %a = arith.constant -5 : i32
  %b = arith.constant 3 : i32
  %0 = arith.maxsi %a, %b : i32
  %1 = arith.minsi %a, %b : i32
  %2 = arith.maxui %a, %b : i32
  %3 = arith.minui %a, %b : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

func.func @compare() -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %a = arith.constant -1 : i32
  %b = arith.constant 1 : i32
  %0 = arith.cmpi eq, %a, %b : i32
  %1 = arith.cmpi ne, %a, %b : i32
  %2 = arith.cmpi slt, %a, %b : i32
  %3 = arith.cmpi sle, %a, %a : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  %5 = arith.cmpi sge, %b, %a : i32
  %6 = arith.cmpi ult, %a, %b : i32
  %7 = arith.cmpi ule, %b, %a : i32
  %8 = arith.cmpi ugt, %a, %b : i32
  %9 = arith.cmpi uge, %b, %b : i32
  %t = arith.constant true
  %f = arith.constant false
  %10 = arith.cmpi ult, %f, %t : i1
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}
