// scf.for, scf.if, scf.while, scf.execute_region, scf.yield and scf.condition
// round-trip in every form, and match MLIR's representation.
// RUN: ptoc-opt %s | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | %mlir_opt | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @loops
func.func @loops(%n: index, %x: f32, %a: i32, %b: i32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // The empty yield is implicit and not printed.
  // CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK-NEXT: arith.index_cast %[[IV]]
  // CHECK-NEXT: }
  // GENERIC: "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}) ({
  // GENERIC: "scf.yield"() : () -> ()
  // GENERIC: }) : (index, index, index) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %k = arith.index_cast %i : index to i32
  }
  // CHECK: %[[S:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
  // CHECK-NEXT: %[[N:.*]] = arith.addf %[[ACC]], %{{.*}} : f32
  // CHECK-NEXT: scf.yield %[[N]] : f32
  // CHECK-NEXT: }
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %next = arith.addf %acc, %x : f32
    scf.yield %next : f32
  }
  // Integer bounds print their type.
  // CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
  scf.for %j = %a to %b step %a : i32 {
  }
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, i32) : i32 {
  // CHECK: scf.yield %{{.*}}, %{{.*}} : f32, i32
  %r:2 = scf.for %j = %a to %b step %a iter_args(%p = %x, %q = %a) -> (f32, i32) : i32 {
    scf.yield %p, %q : f32, i32
  }
  // CHECK: scf.for {{.*}} {
  // CHECK-NEXT: } {foo.unroll = 2 : i32}
  scf.for %i = %c0 to %n step %c1 {
  } {foo.unroll = 2 : i32}
  return %sum, %r#0 : f32, f32
}

// CHECK-LABEL: func.func @conditionals
func.func @conditionals(%c: i1, %a: i32, %b: i32) -> i32 {
  // CHECK: scf.if %{{.*}} {
  // CHECK-NEXT: }
  // CHECK-NOT: else
  // GENERIC: "scf.if"(%{{.*}}) ({
  // GENERIC-NEXT: "scf.yield"() : () -> ()
  // GENERIC-NEXT: }, {
  // GENERIC-NEXT: }) : (i1) -> ()
  scf.if %c {
  }
  // CHECK: scf.if %{{.*}} {
  // CHECK-NEXT: arith.addi
  // CHECK-NEXT: } else {
  // CHECK-NEXT: arith.subi
  // CHECK-NEXT: }
  scf.if %c {
    %0 = arith.addi %a, %b : i32
  } else {
    %1 = arith.subi %a, %b : i32
  }
  // CHECK: %[[R:.*]] = scf.if %{{.*}} -> (i32) {
  // CHECK-NEXT: scf.yield %{{.*}} : i32
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %{{.*}} : i32
  // CHECK-NEXT: }
  %r = scf.if %c -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  // A bare result type is accepted too.
  // CHECK: scf.if %{{.*}} -> (i32, i32) {
  %p:2 = scf.if %c -> (i32, i32) {
    scf.yield %a, %b : i32, i32
  } else {
    scf.yield %b, %a : i32, i32
  }
  // CHECK: scf.if %{{.*}} -> (i32) {
  %q = scf.if %c -> i32 {
    scf.yield %a : i32
  } else {
    scf.yield %r : i32
  }
  return %q : i32
}

// CHECK-LABEL: func.func @loops_while
func.func @loops_while(%a: i32, %b: i32) -> i32 {
  // CHECK: %{{.*}} = scf.while (%[[X:.*]] = %{{.*}}) : (i32) -> i32 {
  // CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %[[X]], %{{.*}} : i32
  // CHECK-NEXT: scf.condition(%[[C]]) %[[X]] : i32
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%[[Y:.*]]: i32):
  // CHECK-NEXT: %[[Z:.*]] = arith.addi %[[Y]], %{{.*}} : i32
  // CHECK-NEXT: scf.yield %[[Z]] : i32
  // CHECK-NEXT: }
  // GENERIC: "scf.while"(%{{.*}}) ({
  // GENERIC: "scf.condition"(%{{.*}}, %{{.*}}) : (i1, i32) -> ()
  // GENERIC: }) : (i32) -> i32
  %w = scf.while (%x = %a) : (i32) -> i32 {
    %cond = arith.cmpi slt, %x, %b : i32
    scf.condition(%cond) %x : i32
  } do {
  ^bb0(%y: i32):
    %z = arith.addi %y, %a : i32
    scf.yield %z : i32
  }
  // No loop-carried values; different types before and after.
  // CHECK: scf.while : () -> () {
  // CHECK: scf.condition(%{{.*}})
  // CHECK: } do {
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: }
  scf.while : () -> () {
    %t = arith.constant false
    scf.condition(%t)
  } do {
    scf.yield
  }
  // CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i32, i32) -> (i1, i32) {
  // CHECK: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : i1, i32
  // CHECK: ^bb0(%{{.*}}: i1, %{{.*}}: i32):
  // CHECK: } attributes {foo.w}
  %v:2 = scf.while (%x = %a, %y = %b) : (i32, i32) -> (i1, i32) {
    %c = arith.cmpi ne, %x, %y : i32
    scf.condition(%c) %c, %y : i1, i32
  } do {
  ^bb0(%p: i1, %q: i32):
    scf.yield %q, %q : i32, i32
  } attributes {foo.w}
  return %w : i32
}

// CHECK-LABEL: func.func @region
func.func @region(%a: i32) -> i32 {
  // CHECK: %{{.*}} = scf.execute_region -> i32 {
  // CHECK-NEXT: scf.yield %{{.*}} : i32
  // CHECK-NEXT: }
  %r = scf.execute_region -> i32 {
    scf.yield %a : i32
  }
  // CHECK: scf.execute_region {
  scf.execute_region {
    scf.yield
  }
  return %r : i32
}
