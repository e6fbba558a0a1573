// memref.alloc, memref.alloca, memref.dealloc and memref.reinterpret_cast
// round-trip and match MLIR's representation (operandSegmentSizes and the
// static_* arrays in the generic form).
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

// CHECK-LABEL: func.func @views
func.func @views(%m: memref<16xi16>, %o: index, %n: index) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  // CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, %{{.*}}] : memref<16xi16> to memref<1x16xi16, strided<[16, 1], offset: ?>>
  // GENERIC: "memref.reinterpret_cast"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {{.*}}{operandSegmentSizes = array<i32: 1, 1, 2, 2>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: -9223372036854775808, -9223372036854775808>, static_strides = array<i64: -9223372036854775808, -9223372036854775808>}{{.*}} : (memref<16xi16>, index, index, index, index, index) -> memref<1x16xi16, strided<[16, 1], offset: ?>>
  %a = memref.reinterpret_cast %m to offset: [%o], sizes: [%c1, %c16], strides: [%c16, %c1] : memref<16xi16> to memref<1x16xi16, strided<[16, 1], offset: ?>>
  // Static entries, a dynamic size, the identity layout.
  // CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2, 8], strides: [8, 1] : memref<16xi16> to memref<2x8xi16>
  %b = memref.reinterpret_cast %m to offset: [0], sizes: [2, 8], strides: [8, 1] : memref<16xi16> to memref<2x8xi16>
  // CHECK: memref.reinterpret_cast %{{.*}} to offset: [4], sizes: [%{{.*}}], strides: [2] {foo.x} : memref<16xi16> to memref<?xi16, strided<[2], offset: 4>>
  %c = memref.reinterpret_cast %m to offset: [4], sizes: [%n], strides: [2] {foo.x} : memref<16xi16> to memref<?xi16, strided<[2], offset: 4>>
  return
}
