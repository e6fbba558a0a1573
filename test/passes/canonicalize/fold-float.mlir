// canonicalize folds float arith ops on constants as MLIR 19 does (checked
// against mlir-opt --canonicalize), rounding to the result type: f32, f16,
// bf16, f64; maximum/minimum vs maxnum/minnum with signed zeros; every cmpf
// predicate on ordered and NaN operands; and float <-> int casts.
// RUN: %python %S/../Inputs/mlir_oracle.py --constants-anywhere canonicalize --canonicalize %s
// RUN: ptoc-opt %s -p canonicalize --verify-each | FileCheck %s
// Stated rules: 0.1 + 0.2 in f32 is the f32 nearest 0.3 (printed 0.3);
// 1/3 in bf16 is 0.333984375 (8 significant bits); 1e4 * 7 overflows f16
// (max 65504) to +inf, 0x7C00.
// CHECK-LABEL: func.func @round
// CHECK-DAG: arith.constant 3.000000e-01 : f32
// CHECK-DAG: arith.constant 3.339844e-01 : bf16
// CHECK-DAG: arith.constant 0x7C00 : f16

func.func @round() -> (f32, f16, bf16, f64, f32, f32) {
  %a = arith.constant 0.1 : f32
  %b = arith.constant 0.2 : f32
  %0 = arith.addf %a, %b : f32
  %h = arith.constant 1.0e+04 : f16
  %h2 = arith.constant 7.0 : f16
  %1 = arith.mulf %h, %h2 : f16
  %one = arith.constant 1.0 : bf16
  %three = arith.constant 3.0 : bf16
  %2 = arith.divf %one, %three : bf16
  %d = arith.constant 1.0e+300 : f64
  %3 = arith.mulf %d, %d : f64
  %x = arith.constant 7.5 : f32
  %y = arith.constant -2.0 : f32
  %4 = arith.remf %x, %y : f32
  %5 = arith.subf %y, %x : f32
  return %0, %1, %2, %3, %4, %5 : f32, f16, bf16, f64, f32, f32
}

func.func @extremes() -> (f32, f32, f32, f32, f32, f32, f32) {
  %p = arith.constant 0.0 : f32
  %n = arith.constant -0.0 : f32
  %a = arith.constant 2.5 : f32
  %b = arith.constant -4.0 : f32
  %0 = arith.maximumf %p, %n : f32
  %1 = arith.minimumf %p, %n : f32
  %2 = arith.maxnumf %a, %b : f32
  %3 = arith.minnumf %a, %b : f32
  %4 = arith.maximumf %a, %b : f32
  %5 = arith.negf %b : f32
  %6 = arith.minimumf %n, %p : f32
  return %0, %1, %2, %3, %4, %5, %6 : f32, f32, f32, f32, f32, f32, f32
}

func.func @compare() -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %a = arith.constant 1.0 : f32
  %b = arith.constant 2.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.cmpf false, %a, %b : f32
  %1 = arith.cmpf oeq, %a, %a : f32
  %2 = arith.cmpf ogt, %b, %a : f32
  %3 = arith.cmpf oge, %a, %b : f32
  %4 = arith.cmpf olt, %a, %b : f32
  %5 = arith.cmpf ole, %b, %b : f32
  %6 = arith.cmpf one, %a, %b : f32
  %7 = arith.cmpf ord, %a, %nan : f32
  %8 = arith.cmpf ueq, %a, %nan : f32
  %9 = arith.cmpf ugt, %a, %b : f32
  %10 = arith.cmpf uge, %nan, %b : f32
  %11 = arith.cmpf ult, %a, %b : f32
  %12 = arith.cmpf ule, %b, %a : f32
  %13 = arith.cmpf une, %a, %a : f32
  %14 = arith.cmpf uno, %nan, %a : f32
  %15 = arith.cmpf true, %a, %b : f32
  %16 = arith.cmpf one, %a, %nan : f32
  %17 = arith.cmpf olt, %nan, %b : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

func.func @casts() -> (f32, f32, i32, i8, f64, f16, i64, i8, index, i32, index, i16) {
  %i = arith.constant -3 : i32
  %0 = arith.sitofp %i : i32 to f32
  %1 = arith.uitofp %i : i32 to f32
  %f = arith.constant -2.75 : f32
  %2 = arith.fptosi %f : f32 to i32
  %big = arith.constant 300.0 : f32
  %3 = arith.fptoui %big : f32 to i8
  %4 = arith.extf %f : f32 to f64
  %5 = arith.truncf %f : f32 to f16
  %6 = arith.extsi %i : i32 to i64
  %7 = arith.trunci %i : i32 to i8
  %8 = arith.index_cast %i : i32 to index
  %k = arith.constant 4294967295 : index
  %9 = arith.index_cast %k : index to i32
  %10 = arith.index_castui %i : i32 to index
  %11 = arith.extui %7 : i8 to i16
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : f32, f32, i32, i8, f64, f16, i64, i8, index, i32, index, i16
}
