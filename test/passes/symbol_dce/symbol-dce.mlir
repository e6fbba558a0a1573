// symbol-dce erases private symbols no live op references, as MLIR 19's
// symbol-dce (checked against mlir-opt --symbol-dce): a private function
// nobody calls, a private declaration nobody calls, and a private function
// called only by another dead one (liveness goes to a fixed point). Public
// functions stay, and so does everything a live op names, also through a
// call inside a region. Nested modules are symbol tables of their own.
// RUN: %python %S/../Inputs/mlir_oracle.py symbol-dce --symbol-dce %s
// RUN: ptoc-opt %s -p symbol-dce --verify-each | FileCheck %s
// CHECK-NOT: @dead
// CHECK-DAG: func.func private @used_in_region(
// CHECK-DAG: func.func private @called_by_public(
// CHECK-DAG: func.func private @decl_used(
// CHECK-DAG: func.func @public(
// CHECK-DAG: func.func private @inner_used(
// CHECK-NOT: @dead

func.func private @dead_leaf(%a: i32) -> i32 {
  return %a : i32
}
func.func private @dead_caller(%a: i32) -> i32 {
  %0 = func.call @dead_leaf(%a) : (i32) -> i32
  return %0 : i32
}
func.func private @dead_decl(i32) -> i32
func.func private @decl_used(i32) -> i32
func.func private @used_in_region(%a: i32) -> i32 {
  %0 = func.call @decl_used(%a) : (i32) -> i32
  return %0 : i32
}
func.func private @called_by_public(%a: i32) -> i32 {
  return %a : i32
}
func.func @public(%a: i32, %c: i1) -> i32 {
  %r = scf.if %c -> i32 {
    %0 = func.call @used_in_region(%a) : (i32) -> i32
    scf.yield %0 : i32
  } else {
    %1 = func.call @called_by_public(%a) : (i32) -> i32
    scf.yield %1 : i32
  }
  return %r : i32
}
module @inner {
  func.func private @dead_inner() {
    return
  }
  func.func private @inner_used() {
    return
  }
  func.func @inner_public() {
    func.call @inner_used() : () -> ()
    return
  }
}
