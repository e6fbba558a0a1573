// RUN: not ptoc-opt %s --split-input-file 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// Outputs of the chunks are joined by `// -----` lines as mlir-opt joins them;
// a chunk that fails prints nothing, the others still print, and the exit
// status is 1. Diagnostics give lines of the whole file.

// CHECK-LABEL: func.func @first
// CHECK: // -----
// CHECK-NOT: @broken
// CHECK: // -----
// CHECK-LABEL: func.func @third
func.func @first() {
  return
}

// -----

func.func @broken() {
  // ERR: split-input-file.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = arith.addi %undefined, %undefined : i32
  return
}

// -----

func.func @third() {
  return
}
