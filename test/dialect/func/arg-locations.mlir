// Function arguments may carry a trailing loc(...), after their attributes, as
// mlir-opt --mlir-print-debuginfo prints them; it becomes the argument's location.
// RUN: ptoc-opt %s | FileCheck %s
// RUN: not ptoc-opt %S/Inputs/arg-location-bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD

#loc = loc("k.py":7:1)
// CHECK-LABEL: func.func @f(%arg0: i32, %arg1: f32 {pto.tag}, %arg2: index)
func.func @f(%arg0: i32 loc("f.py":1:2), %arg1: f32 {pto.tag} loc("f.py":1:9),
             %arg2: index loc(#loc)) {
  return
}

// CHECK-LABEL: func.func private @decl(i32)
func.func private @decl(i32)

// BAD: arg-location-bad.mlir:2:26: error: expected location instance

// Printed with --print-debuginfo, the argument locations come back.
// RUN: ptoc-opt --print-debuginfo %s | ptoc-opt --print-debuginfo | FileCheck %s --check-prefix=DBG
// DBG: func.func @f(%arg0: i32 loc("f.py":1:2), %arg1: f32 {{.*}}loc("f.py":1:9){{.*}}, %arg2: index loc("k.py":7:1))
