// RUN: ptoc-opt %s --allow-unregistered-dialect | FileCheck %s

// Builtin attributes print as MLIR 19 prints them.

// CHECK: "x.ints"() {a = 1 : i64, b = -1 : i32, c = 31 : i32, d = -1 : i8, e = 255 : ui8, f = -128 : si8, g = 0 : index, h = true, i = false, j = 18446744073709551615 : ui64} : () -> ()
"x.ints"() {a = 1, b = -1 : i32, c = 0x1F : i32, d = 255 : i8, e = 255 : ui8, f = -128 : si8, g = 0 : index,
            h = 1 : i1, i = false, j = 18446744073709551615 : ui64} : () -> ()

// CHECK: "x.floats"() {a = 1.500000e+00 : f64, b = 1.500000e+00 : f32, c = 1.000000e+00 : f32, d = 1.000000e-01 : f32, e = 0x7FC00000 : f32, f = 0xFF800000 : f32, g = -0.000000e+00 : f64, h = 1.500130e-03 : f16} : () -> ()
"x.floats"() {a = 1.5, b = 1.5 : f32, c = 0x3F800000 : f32, d = 0.1 : f32, e = 0x7FC00000 : f32,
              f = 0xFF800000 : f32, g = -0.0, h = 1.5e-3 : f16} : () -> ()

// CHECK: "x.misc"() {"a b" = "q\"\\\0A\09\01", arr = [1 : i64, "s", [i32]], d = {x = 1 : i64, y}, dense = array<i32: 1, -3>, empty = array<i64>, fn = (i32, f32) -> i1, s = @a::@b::@"c d", u} : () -> ()
"x.misc"() {u, "a b" = "q\"\\\n\t\01", arr = [1, "s", [i32]], d = {y, x = 1}, dense = array<i32: 1, -3>,
            empty = array<i64>, fn = (i32, f32) -> (i1), s = @a::@b::@"c d"} : () -> ()

// Builtin forms ptoc keeps as text, and unregistered dialect attributes.
// CHECK: "x.raw"() {a = dense<[1, 2]> : tensor<2xi32>, b = strided<[1, 16], offset: ?>, c = affine_map<(d0) -> (d0 * 2)>, d = #x.foo<"a" -> [b]>, e = #x<bar 1>, f = memref<4x4xf32, strided<[?, 1]>, 3>, g = memref<4xf32, 1>, h = !x.ty<1x2>} : () -> ()
#map = affine_map<(d0) -> (d0 * 2)>
"x.raw"() {a = dense<[1, 2]> : tensor<2xi32>, b = strided<[1, 16], offset: ?>, c = #map, d = #x.foo<"a" -> [b]>,
           e = #x<bar 1>, f = memref<4x4xf32, strided<[?, 1]>, 3>, g = memref<4xf32, 1>, h = !x.ty<1x2>} : () -> ()
