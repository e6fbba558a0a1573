// func.func (definitions, declarations, visibility, argument and result
// attributes), func.return and func.call round-trip, and match MLIR's representation.
// RUN: ptoc-opt %s | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | %mlir_opt | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: func.func private @decl(i32, f32) -> f32
// GENERIC: function_type = (i32, f32) -> f32, sym_name = "decl", sym_visibility = "private"
func.func private @decl(i32, f32) -> f32

// CHECK: func.func private @no_results(index)
func.func private @no_results(index)

// CHECK: func.func nested @nested_decl() -> (i32, i64)
func.func nested @nested_decl() -> (i32, i64)

// CHECK: func.func private @decl_attrs(i32 {foo.a}, f32) -> (i1 {foo.r = 1 : i32})
// GENERIC: arg_attrs = [{foo.a}, {}]
// GENERIC-SAME: res_attrs = [{foo.r = 1 : i32}]
func.func private @decl_attrs(i32 {foo.a}, f32) -> (i1 {foo.r = 1 : i32})

// CHECK-LABEL: func.func @empty() {
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @empty() {
  return
}

// CHECK-LABEL: func.func public @caller(%{{.*}}: i32, %{{.*}}: f32) -> f32 {
func.func public @caller(%a: i32, %b: f32) -> f32 {
  // CHECK: %[[R:.*]] = call @decl(%{{.*}}, %{{.*}}) : (i32, f32) -> f32
  // GENERIC: "func.call"({{.*}}) {{.*}}callee = @decl{{.*}} : (i32, f32) -> f32
  %r = func.call @decl(%a, %b) : (i32, f32) -> f32
  // CHECK: call @no_results(%{{.*}}) : (index) -> ()
  %i = arith.constant 3 : index
  call @no_results(%i) : (index) -> ()
  // CHECK: call @nested_decl() {foo.tag} : () -> (i32, i64)
  %x:2 = func.call @nested_decl() {foo.tag} : () -> (i32, i64)
  // CHECK: return %[[R]] : f32
  return %r : f32
}

// CHECK-LABEL: func.func @multi(%{{.*}}: i32 {foo.arg}, %{{.*}}: index) -> (i32 {foo.res}, index) attributes {foo.fn = "x"} {
// CHECK: return %{{.*}}, %{{.*}} : i32, index
func.func @multi(%a: i32 {foo.arg}, %i: index) -> (i32 {foo.res}, index) attributes {foo.fn = "x"} {
  return %a, %i : i32, index
}

// CHECK-LABEL: func.func @recursive(%{{.*}}: i32) -> i32 {
func.func @recursive(%a: i32) -> i32 {
  // CHECK: call @recursive(%{{.*}}) : (i32) -> i32
  %r = call @recursive(%a) : (i32) -> i32
  // Calls to functions defined later in the module resolve too.
  // CHECK: call @later() : () -> ()
  call @later() : () -> ()
  return %r : i32
}

// CHECK-LABEL: func.func @later()
func.func @later() {
  // The default dialect inside a function is func: `return`, not `func.return`.
  // CHECK-NEXT: {{^ *}}return
  "func.return"() : () -> ()
}

// CHECK-LABEL: func.func @"quoted name"()
func.func @"quoted name"() {
  return
}
