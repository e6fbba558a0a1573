// RUN: ptoc-opt %s --print-debuginfo | FileCheck %s
// RUN: ptoc-opt %s --print-debuginfo | ptoc-opt --print-debuginfo | FileCheck %s

// `#name = attr` and `!name = type` definitions (an alias may name another) are
// resolved while parsing; `loc(...)` sets an op's location. Named and fused
// locations keep their first file:line:col.
#m = {k = 1 : i32}
!t = memref<4xf32>
!u = !t

// CHECK: func.func @f(%{{[a-z0-9]+}}: memref<4xf32> loc({{.*}}), %{{[a-z0-9]+}}: memref<4xf32> loc({{.*}})) attributes {a.b = {k = 1 : i32}} {
// CHECK-NEXT: return loc(unknown)
// CHECK-NEXT: } loc("x.mlir":4:2)
func.func @f(%x: !t, %y: !u) attributes {a.b = #m} {
  return loc(unknown)
} loc("x.mlir":4:2)

// CHECK: func.func @g() {
// CHECK-NEXT: return loc("file.mlir":1:2)
// CHECK-NEXT: } loc("a.mlir":1:1)
func.func @g() {
  return loc("named"("file.mlir":1:2))
} loc(fused["a.mlir":1:1, "b.mlir":2:2])

// Without loc(...), an op's location is where it is written.
// CHECK: func.func @h() {
// CHECK-NEXT: return loc("{{.*}}aliases-and-locations.mlir":[[@LINE+2]]:3)
func.func @h() {
  return
}
