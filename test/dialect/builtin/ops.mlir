// builtin.module (named, with attributes, nested, empty) and
// builtin.unrealized_conversion_cast round-trip and match MLIR's representation.
// Its functions return values, as host code does: verified for the cpu target
// (on a hardware target a module's only function is a kernel, which returns nothing).
// RUN: ptoc-opt --pto-arch=cpu %s | ptoc-opt --pto-arch=cpu | FileCheck %s
// RUN: ptoc-opt --pto-arch=cpu %s --print-op-generic | ptoc-opt --pto-arch=cpu | FileCheck %s
// RUN: ptoc-opt --pto-arch=cpu %s --print-op-generic | %mlir_opt | ptoc-opt --pto-arch=cpu | FileCheck %s
// RUN: ptoc-opt --pto-arch=cpu %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: module @outer attributes {pto.target_arch = "a5"} {
module @outer attributes {pto.target_arch = "a5"} {
  // CHECK: module {
  // CHECK-NEXT: }
  // An empty module still has its block, which the generic form keeps.
  // GENERIC: {{^ +}}"builtin.module"() ({
  // GENERIC-NEXT: ^bb0:
  module {}
  // CHECK: module @inner {
  // CHECK-NEXT: func.func @f
  module @inner {
    func.func @f(%a: i32) -> (i64, f32) {
      // CHECK: %{{.*}} = {{(builtin.)?}}unrealized_conversion_cast %{{.*}} : i32 to i64
      %0 = builtin.unrealized_conversion_cast %a : i32 to i64
      // CHECK: %{{.*}} = {{(builtin.)?}}unrealized_conversion_cast to f32
      %1 = builtin.unrealized_conversion_cast to f32
      // CHECK: {{(builtin.)?}}unrealized_conversion_cast %{{.*}}, %{{.*}} : i32, i32 to i64, i64 {foo.x}
      %2:2 = builtin.unrealized_conversion_cast %a, %a : i32, i32 to i64, i64 {foo.x}
      return %0, %1 : i64, f32
    }
  }
  // CHECK: module attributes {foo.bar} {
  module attributes {foo.bar} {
  }
}
// The outer module's attributes follow its region in the generic form.
// GENERIC: }) {pto.target_arch = "a5", sym_name = "outer"} : () -> ()
