// memref.alloc, memref.alloca and memref.dealloc round-trip and match MLIR's
// representation (operandSegmentSizes in the generic form).
// RUN: ptoc-opt %s | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | %mlir_opt | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @buffers
func.func @buffers(%n: index, %s: index) {
  // CHECK: %[[A:.*]] = memref.alloc() : memref<16xf32>
  // GENERIC: "memref.alloc"() {{.*}}operandSegmentSizes = array<i32: 0, 0>{{.*}} : () -> memref<16xf32>
  %a = memref.alloc() : memref<16xf32>
  // CHECK: memref.alloc(%{{.*}}) : memref<?x16xf32>
  // GENERIC: "memref.alloc"(%{{.*}}) {{.*}}operandSegmentSizes = array<i32: 1, 0>
  %b = memref.alloc(%n) : memref<?x16xf32>
  // CHECK: memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf16>
  %c = memref.alloc(%n, %n) {alignment = 64 : i64} : memref<?x?xf16>
  // CHECK: memref.alloc(%{{.*}})[%{{.*}}] : memref<?x16xf32, strided<[?, 1]>>
  // GENERIC: "memref.alloc"(%{{.*}}, %{{.*}}) {{.*}}operandSegmentSizes = array<i32: 1, 1>
  %d = memref.alloc(%n)[%s] : memref<?x16xf32, strided<[?, 1]>>
  // CHECK: memref.alloca() : memref<4xi32>
  %e = memref.alloca() : memref<4xi32>
  // CHECK: memref.dealloc %[[A]] : memref<16xf32>
  // GENERIC: "memref.dealloc"(%{{.*}}) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  // CHECK: memref.dealloc %{{.*}} {foo.x} : memref<?x16xf32>
  memref.dealloc %b {foo.x} : memref<?x16xf32>
  return
}
