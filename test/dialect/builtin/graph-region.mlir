// A module body is a graph region, as in MLIR: a top-level op may use a value
// defined further down. Inside a function body dominance still applies.
// RUN: ptoc-opt --allow-unregistered-dialect --split-input-file %s | FileCheck %s
// RUN: ptoc-opt --allow-unregistered-dialect --split-input-file %s | ptoc-opt --allow-unregistered-dialect --split-input-file | FileCheck %s
// RUN: not ptoc-opt --allow-unregistered-dialect %S/Inputs/graph-region-func.mlir 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: module {
// CHECK-NEXT: "t.use"(%0) : (i32) -> ()
// CHECK-NEXT: %0 = "t.def"() : () -> i32
"t.use"(%x) : (i32) -> ()
%x = "t.def"() : () -> i32

// -----

// CHECK: module @m {
// CHECK-NEXT: "t.use"(%0) : (i32) -> ()
// CHECK-NEXT: %0 = "t.def"() : () -> i32
module @m {
  "t.use"(%y) : (i32) -> ()
  %y = "t.def"() : () -> i32
}

// ERR: graph-region-func.mlir:3:3: error: 't.use' op operand #0 does not dominate this use
