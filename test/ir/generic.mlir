// Its functions return values, as host code does: verified for the cpu target
// (on a hardware target a module's only function is a kernel, which returns nothing).
// RUN: ptoc-opt --pto-arch=cpu --allow-unregistered-dialect %s | FileCheck %s
// RUN: ptoc-opt --pto-arch=cpu --allow-unregistered-dialect %s | ptoc-opt --pto-arch=cpu --allow-unregistered-dialect | FileCheck %s
// RUN: ptoc-opt --pto-arch=cpu --allow-unregistered-dialect --print-op-generic %s | ptoc-opt --pto-arch=cpu --allow-unregistered-dialect | FileCheck %s

// The generic op form: operands, several results (`%0:2`, `%0#1`), properties,
// attributes, regions with entry arguments and several blocks. Top-level ops
// are wrapped in an implicit module.

// CHECK: module {
// CHECK-NEXT: "t.empty"() : () -> ()
"t.empty"() : () -> ()

// CHECK-NEXT: %[[R:.*]]:2 = "t.two"() {a = 1 : i32} : () -> (i32, f32)
// CHECK-NEXT: "t.use"(%[[R]]#1, %[[R]]#0) : (f32, i32) -> ()
%0:2 = "t.two"() {a = 1 : i32} : () -> (i32, f32)
"t.use"(%0#1, %0#0) : (f32, i32) -> ()

// ptoc keeps no separate properties: `<{...}>` entries join the attributes.
// CHECK-NEXT: "t.props"() {a = "s", p = 2 : index, z} : () -> index
%1 = "t.props"() <{p = 2 : index}> {z, a = "s"} : () -> index

// CHECK-NEXT: "t.region"() ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT:   "t.term"(%[[A]]) : (i32) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT:   "t.inner"() : () -> ()
// CHECK-NEXT: }) : () -> ()
"t.region"() ({
^bb0(%a: i32, %b: f32):
  "t.term"(%a) : (i32) -> ()
}, {
  "t.inner"() : () -> ()
}) : () -> ()

// CHECK: "t.blocks"() ({
// CHECK: "t.x"() : () -> ()
// CHECK-NEXT: ^bb1:
// CHECK-NEXT: "t.y"() : () -> ()
// CHECK-NEXT: ^bb2(%[[C:.*]]: index):
// CHECK-NEXT: "t.z"(%[[C]]) : (index) -> ()
"t.blocks"() ({
  "t.x"() : () -> ()
^bb1:
  "t.y"() : () -> ()
^bb2(%c: index):
  "t.z"(%c) : (index) -> ()
}) : () -> ()

// Registered ops in the generic form print in their custom form.
// CHECK: func.func @f(%[[X:.*]]: i32) -> i32 {
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT: return %[[S]] : i32
"func.func"() ({
^bb0(%x: i32):
  %s = "arith.addi"(%x, %x) : (i32, i32) -> i32
  "func.return"(%s) : (i32) -> ()
}) {function_type = (i32) -> i32, sym_name = "f"} : () -> ()
