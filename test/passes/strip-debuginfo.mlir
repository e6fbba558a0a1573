// Its functions return values, as host code does: verified for the cpu target
// (on a hardware target a module's only function is a kernel, which returns nothing).
// RUN: ptoc-opt --pto-arch=cpu %s --print-debuginfo | FileCheck %s --check-prefix=KEEP
// RUN: ptoc-opt --pto-arch=cpu %s --print-debuginfo -p strip-debuginfo | FileCheck %s --check-prefix=STRIP

// KEEP: arith.addi {{.*}} loc("{{.*}}strip-debuginfo.mlir":[[@LINE+6]]:
// STRIP: func.func @f
// STRIP-NOT: strip-debuginfo.mlir
// STRIP: arith.addi {{.*}} loc(unknown)
// STRIP-NOT: strip-debuginfo.mlir
func.func @f(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
