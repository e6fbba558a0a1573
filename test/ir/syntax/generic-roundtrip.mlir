// RUN: ptoc-opt %s --allow-unregistered-dialect --mlir-print-op-generic | ptoc-opt - --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s
// RUN: ptoc-opt %s --allow-unregistered-dialect --mlir-print-op-generic | %mlir_opt --allow-unregistered-dialect > /dev/null

// The generic form round-trips and upstream mlir-opt reads it.

// CHECK-LABEL: "builtin.module"() ({
// CHECK: %[[F:.*]] = "x.def"() : () -> i64
// CHECK: %[[A:.*]]:2 = "x.two"() : () -> (i32, memref<4x?x8xf32>)
// CHECK: "x.use"(%[[A]]#0, %[[A]]#1, %[[F]]) : (i32, memref<4x?x8xf32>, i64) -> ()
// CHECK: "x.blocks"() ({
// CHECK-NEXT: ^bb0(%arg0: i32, %arg1: f32):
// CHECK-NEXT: "x.br"() : () -> ()
// CHECK-NEXT: ^bb1:
// CHECK-NEXT: "x.u"(%arg0) : (i32) -> ()
// CHECK-NEXT: ^bb2(%arg2: i64):
// CHECK: }, {
// CHECK-NEXT: }) : () -> ()
!t = memref<4x?x8xf32>
%fwd = "x.def"() : () -> i64 loc(#loc1)
%0:2 = "x.two"() : () -> (i32, !t)
"x.use"(%0#0, %0#1, %fwd) : (i32, memref<4x?x8xf32>, i64) -> ()
"x.blocks"() ({
^bb0(%a: i32, %b: f32):
  "x.br"() : () -> ()
^bb1:
  "x.u"(%a) : (i32) -> ()
^bb5(%c: i64):
  "x.u"(%c, %fwd) : (i64, i64) -> ()
}, {
}) : () -> ()
#loc1 = loc("z.mlir":9:9)
