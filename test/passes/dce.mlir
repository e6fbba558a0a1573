// Its functions return values, as host code does: verified for the cpu target
// (on a hardware target a module's only function is a kernel, which returns nothing).
// RUN: ptoc-opt --pto-arch=cpu %s --split-input-file --allow-unregistered-dialect -p dce | FileCheck %s

// A chain of dead pure ops disappears entirely (fixed point).
// CHECK-LABEL: func.func @dead_chain
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @dead_chain(%x: i32) {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.subi %1, %0 : i32
  return
}

// -----

// Live values and what they use stay.
// CHECK-LABEL: func.func @live
// CHECK: %[[C:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[S:.*]] = arith.addi %{{.*}}, %[[C]] : i32
// CHECK-NEXT: return %[[S]] : i32
func.func @live(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %dead = arith.muli %x, %c2 : i32
  %0 = arith.addi %x, %c2 : i32
  return %0 : i32
}

// -----

// Ops with side effects stay, and so does what they use: unregistered ops and
// calls are never pure.
// CHECK-LABEL: func.func @effects
// CHECK: arith.constant 3
// CHECK: "test.effect"
// CHECK: call @callee
func.func private @callee() -> i32

func.func @effects() {
  %c3 = arith.constant 3 : i32
  "test.effect"(%c3) : (i32) -> ()
  %r = func.call @callee() : () -> i32
  return
}

// -----

// Dead ops inside loop bodies go too; the loop itself has effects and stays.
// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK-NOT: arith.muli
// CHECK: return
func.func @in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    "test.use"(%i) : (index) -> ()
    %sq = arith.muli %i, %i : index
  }
  return
}
