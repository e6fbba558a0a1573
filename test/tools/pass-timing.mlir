// RUN: ptoc-opt %s --pass-timing -p dce,strip-debuginfo -o %t.out 2>&1 | FileCheck %s
// RUN: ptoc-opt %s --pass-timing --pass-pipeline='builtin.module(func.func(dce))' -o %t.out 2>&1 | FileCheck %s --check-prefix=NEST
// RUN: ptoc-opt %s --pass-timing --split-input-file -p dce -o %t.out 2>&1 | FileCheck %s --check-prefix=SPLIT

// CHECK: ... Pass execution timing report ...
// CHECK: Total Execution Time: {{[0-9.]+}} seconds
// CHECK: ----Wall Time----  ----Name----
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  dce
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  strip-debuginfo
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  verifier
// CHECK-NEXT: {{[0-9.]+}} (100.0%)  Total

// NEST: 'func.func' Pipeline
// NEST-NEXT: {{^ +[0-9.]+ \( *[0-9.]+%\)    dce$}}

// One report covers all chunks.
// SPLIT-COUNT-1: Pass execution timing report
// SPLIT-NOT: Pass execution timing report

func.func @f(%x: i32) {
  %0 = arith.muli %x, %x : i32
  return
}

// -----

func.func @g() {
  return
}
