// RUN: ptoc-opt %s -p dce,strip-debuginfo --print-ir-after=dce -o %t.out 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: ptoc-opt %s -p dce,strip-debuginfo --print-ir-before=all -o %t.out 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: ptoc-opt %s -p dce,strip-debuginfo --print-ir-after-all -o %t.out 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: ptoc-opt %s --pass-pipeline='builtin.module(func.func(dce))' --print-ir-after=dce -o %t.out 2>&1 | FileCheck %s --check-prefix=NESTED

// AFTER: // -----// IR Dump After dce //----- //
// AFTER-NEXT: module {
// AFTER-NOT: arith.muli
// AFTER-NOT: IR Dump

// BEFORE: // -----// IR Dump Before dce //----- //
// BEFORE: arith.muli
// BEFORE: // -----// IR Dump Before strip-debuginfo //----- //
// BEFORE-NOT: arith.muli

// ALL: IR Dump After dce
// ALL: IR Dump After strip-debuginfo

// A pass in a nest dumps the op it ran on.
// NESTED: // -----// IR Dump After dce ('func.func' operation: @f) //----- //
// NESTED-NEXT: func.func @f
// NESTED: // -----// IR Dump After dce ('func.func' operation: @g) //----- //

func.func @f(%x: i32) {
  %0 = arith.muli %x, %x : i32
  return
}

func.func @g() {
  return
}
