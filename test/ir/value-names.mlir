// RUN: ptoc-opt %s | FileCheck %s
// RUN: ptoc-opt %s | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | %mlir_opt --allow-unregistered-dialect | ptoc-opt | FileCheck %s

// Results are named as mlir-opt names them: arith.constant suggests %cN,
// %cN_type, %true/%false and %cst; a clash gets `_N`; other results are
// numbered; names restart in each function (a region isolated from above).

// CHECK-LABEL: func.func @f
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c0_0 = arith.constant 0 : index
// CHECK-NEXT:    %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    %cst = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:    %0 = arith.addi %c0, %c0_0 : index
// CHECK-NEXT:    %1 = arith.addi %c-1_i32, %c-1_i32 : i32
// CHECK-NEXT:    scf.for %arg0 = %c0 to %0 step %c0_0 {
// CHECK-NEXT:      %c0_1 = arith.constant 0 : index
// CHECK-NEXT:      %2 = arith.addi %arg0, %c0_1 : index
// CHECK-NEXT:    }
func.func @f() {
  %a = arith.constant 0 : index
  %b = arith.constant 0 : index
  %c = arith.constant -1 : i32
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.5 : f32
  %s = arith.addi %a, %b : index
  %u = arith.addi %c, %c : i32
  scf.for %i = %a to %s step %b {
    %z = arith.constant 0 : index
    %w = arith.addi %i, %z : index
  }
  return
}

// CHECK-LABEL: func.func @g
// CHECK-NEXT:    %c0 = arith.constant 0 : index
func.func @g() -> index {
  %a = arith.constant 0 : index
  return %a : index
}
