// RUN: ptoc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: ptoc-opt --allow-unregistered-dialect %s | ptoc-opt --allow-unregistered-dialect | FileCheck %s

// Every builtin attribute kind; attribute dictionaries print sorted by name.
// CHECK: "t.attrs"() {
// CHECK-SAME: b0 = false, b1 = true,
// CHECK-SAME: dense = array<i32: 1, -2, 3>, dense_b = array<i1: true, false>, dense_empty = array<i64>,
// CHECK-SAME: dense_f = array<f32: 1.000000e+00, 2.500000e+00>,
// CHECK-SAME: dict = {a = 2 : i64, b = 1 : i64},
// CHECK-SAME: f = 1.500000e+00 : f64, f16 = 9.9975{{[0-9]+}}e-02 : f16, f32 = 2.000000e+00 : f32,
// CHECK-SAME: fhex = 0x7FC00000 : f32, fneg = -0.000000e+00 : f64,
// CHECK-SAME: fty = (i32, f32) -> index, hex = 31 : i32, i = 42 : i64, i1v = true, i8 = -3 : i8, idx = 7 : index,
// CHECK-SAME: nested = @foo::@bar::@baz,
// CHECK-SAME: opaque = #foo.bar<"x" [1]>,
// CHECK-SAME: s = "a{{\\22|\\"}}b\\c\0A\09\01", si = -1 : si16, sym = @foo, ty = i32, ui = 200 : ui8, unit_attr}
"t.attrs"() {
  unit_attr,
  b1 = true, b0 = false,
  i = 42, i8 = -3 : i8, ui = 200 : ui8, si = -1 : si16, idx = 7 : index, hex = 0x1F : i32,
  i1v = true,
  f = 1.5, f32 = 2.0 : f32, f16 = 0.1 : f16, fhex = 0x7FC00000 : f32, fneg = -0.0 : f64,
  s = "a\"b\\c\n\t\01",
  ty = i32, fty = (i32, f32) -> index,
  dict = {b = 1, a = 2},
  sym = @foo, nested = @foo::@bar::@baz,
  dense = array<i32: 1, -2, 3>, dense_empty = array<i64>, dense_f = array<f32: 1.0, 2.5>, dense_b = array<i1: true, false>,
  opaque = #foo.bar<"x" [1]>
} : () -> ()

// CHECK: "t.arrays"() {a = [], b = [i1, "x", [true]], c = [1{{( : i64)?}}, 2 : i8]} : () -> ()
"t.arrays"() {c = [1, 2 : i8], b = [i1, "x", [true]], a = []} : () -> ()
