// A memref in a PTO address space (upstream mlir-opt refuses the #pto memory
// space, so this file is not sent through it).
// RUN: ptoc-opt %s | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | ptoc-opt | FileCheck %s

// CHECK-LABEL: func.func @tile
func.func @tile(%n: index) {
  // CHECK: memref.alloc(%{{.*}}) : memref<?x16xf32, #pto.address_space<vec>>
  %t = memref.alloc(%n) : memref<?x16xf32, #pto.address_space<vec>>
  // CHECK: memref.alloc() : memref<16x16xf16, #pto.address_space<mat>>
  %m = memref.alloc() : memref<16x16xf16, #pto.address_space<mat>>
  // CHECK: memref.dealloc %{{.*}} : memref<?x16xf32, #pto.address_space<vec>>
  memref.dealloc %t : memref<?x16xf32, #pto.address_space<vec>>
  return
}
