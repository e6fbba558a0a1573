// RUN: ptoc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: ptoc-opt --allow-unregistered-dialect %s | ptoc-opt --allow-unregistered-dialect | FileCheck %s

// Builtin types, function types, shaped types with layouts and memory spaces,
// and types of unregistered dialects (kept as text).
// CHECK: "t.types"() : () -> (index, i1, i7, i128, si8, ui64, f16, bf16, f32, f64, f80, f128, tf32, f8E4M3FN, f8E5M2, none)
"t.types"() : () -> (index, i1, i7, i128, si8, ui64, f16, bf16, f32, f64, f80, f128, tf32, f8E4M3FN, f8E5M2, none)
// CHECK: "t.fn"() : () -> ((i32, f32) -> index, () -> (), (i1) -> (i1, i1), ((i32) -> i32) -> i64)
"t.fn"() : () -> ((i32, f32) -> index, () -> (), (i1) -> (i1, i1), ((i32) -> i32) -> i64)
// CHECK: "t.shaped"() : () -> (memref<4x?xf32>, memref<f32>, memref<2x3xi8, 1>, memref<4xf32, strided<[1], offset: ?>>, vector<4xf32>, tensor<?x8xbf16>, tensor<i1>)
"t.shaped"() : () -> (memref<4x?xf32>, memref<f32>, memref<2x3xi8, 1>, memref<4xf32, strided<[1], offset: ?>>, vector<4xf32>, tensor<?x8xbf16>, tensor<i1>)
// CHECK: "t.opaque"() : () -> (!foo.bar, !foo.baz<"x", [1, 2]>, !foo<"y">)
"t.opaque"() : () -> (!foo.bar, !foo.baz<"x", [1, 2]>, !foo<"y">)
