// canonicalize simplifies scf as MLIR 19 does (checked against mlir-opt
// --canonicalize): scf.if on a constant condition becomes the branch taken;
// scf.for with constant bounds and no trip becomes its inits; unused scf.if
// results go; an scf.for iter_arg goes when the body yields it unchanged or
// yields its init, or when neither it nor its result is used; dead loops and
// ifs without effects go; the folds run to a fixed point (the condition of
// an if is itself folded first).
// RUN: %python %S/../Inputs/mlir_oracle.py --constants-anywhere canonicalize --canonicalize %s
// RUN: ptoc-opt %s -p canonicalize --verify-each | FileCheck %s
// CHECK-LABEL: func.func @constant_if
// CHECK-NOT: scf.if
// CHECK: arith.addi %arg0, %arg0
// CHECK-NOT: arith.muli
// CHECK-LABEL: func.func @zero_trip
// CHECK-NOT: scf.for
// CHECK: return %arg0
// CHECK-LABEL: func.func @unused_results
// CHECK: scf.if %arg1 -> (i32)
// CHECK-LABEL: func.func @iter_args
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %arg0) -> (i32)

func.func @constant_if(%x: i32) -> (i32, i32) {
  %a = arith.constant 3 : i32
  %b = arith.constant 4 : i32
  %c = arith.cmpi slt, %a, %b : i32
  %r = scf.if %c -> i32 {
    %s = arith.addi %x, %x : i32
    scf.yield %s : i32
  } else {
    %m = arith.muli %x, %x : i32
    scf.yield %m : i32
  }
  %f = arith.constant false
  %q = scf.if %f -> i32 {
    %m = arith.muli %x, %x : i32
    scf.yield %m : i32
  } else {
    scf.yield %x : i32
  }
  scf.if %f {
    %m = arith.muli %x, %x : i32
  }
  return %r, %q : i32, i32
}

func.func @zero_trip(%x: i32, %n: index) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %s = scf.for %i = %c4 to %c0 step %c1 iter_args(%acc = %x) -> i32 {
    %z = arith.addi %acc, %x : i32
    scf.yield %z : i32
  }
  %e = scf.for %i = %c4 to %c4 step %c1 iter_args(%acc = %x) -> i32 {
    %z = arith.muli %acc, %x : i32
    scf.yield %z : i32
  }
  %lo = arith.constant 5 : i32
  %hi = arith.constant -5 : i32
  %one = arith.constant 1 : i32
  scf.for %i = %lo to %hi step %one : i32 {
    %z = arith.muli %x, %x : i32
  }
  return %s, %e : i32, i32
}

func.func @unused_results(%x: i32, %c: i1) -> i32 {
  %r:3 = scf.if %c -> (i32, i32, i32) {
    %a = arith.addi %x, %x : i32
    %b = arith.muli %x, %x : i32
    scf.yield %a, %b, %x : i32, i32, i32
  } else {
    %d = arith.addi %x, %x : i32
    scf.yield %x, %d, %x : i32, i32, i32
  }
  %dead = scf.if %c -> i32 {
    scf.yield %x : i32
  } else {
    %e = arith.muli %x, %x : i32
    scf.yield %e : i32
  }
  return %r#1 : i32
}

func.func @iter_args(%x: i32, %y: i32, %n: index) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%same = %x, %acc = %x, %init = %y, %unused = %y) -> (i32, i32, i32, i32) {
    %s = arith.addi %acc, %same : i32
    %u = arith.muli %y, %y : i32
    scf.yield %same, %s, %y, %u : i32, i32, i32, i32
  }
  return %r#0, %r#1, %r#2 : i32, i32, i32
}
