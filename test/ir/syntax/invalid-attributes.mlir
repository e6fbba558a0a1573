// Parser diagnostics for attributes: number literals and their types, attribute
// dictionaries, dense arrays, dialect attributes and the `attributes` keyword.
// RUN: ptoc-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

// expected-error@+1 {{hexadecimal float constant out of range for type}}
"x.a"() {a = 0x7FC00001 : f16} : () -> ()

// -----

// expected-error@+1 {{hexadecimal float literal should not have a leading minus}}
"x.a"() {a = -0x3C00 : f16} : () -> ()

// -----

// expected-error@+1 {{expected integer or floating point literal}}
"x.a"() {a = - : i32} : () -> ()

// -----

// expected-error@+1 {{floating point literal not valid for the specified type}}
"x.a"() {a = 1.5 : memref<4xf32>} : () -> ()

// -----

// expected-error@+1 {{integer literal not valid for the specified type}}
"x.a"() {a = 1 : memref<4xf32>} : () -> ()

// -----

// expected-error@+1 {{floating point value not valid for specified type}}
"x.a"() {a = 1.5 : i32} : () -> ()

// -----

// expected-error@+1 {{expected attribute name}}
"x.a"() {1 = 2} : () -> ()

// -----

// expected-error@+1 {{expected valid attribute name}}
"x.a"() {"" = 2} : () -> ()

// -----

// expected-error@+1 {{duplicate key 'b' in dictionary attribute}}
"x.a"() {a = {b = 1, b = 2}} : () -> ()

// -----

// expected-error@+1 {{expected integer value}}
"x.a"() {a = array<i32: 1, foo>} : () -> ()

// -----

// expected-error@+1 {{expected integer value}}
"x.a"() {a = array<i32: -x>} : () -> ()

// -----

// expected-error@+1 {{expected floating point value}}
"x.a"() {a = array<f32: 1.0, x>} : () -> ()

// -----

// expected-error@+1 {{expected integer or float type in dense array}}
"x.a"() {a = array<index: 1>} : () -> ()

// -----

// expected-error@+1 {{expected attribute mnemonic}}
"x.a"() {a = #pto<1>} : () -> ()

// -----

// expected-error@+1 {{dialect 'func' does not define attributes}}
"x.a"() {a = #func.foo} : () -> ()

// -----

// expected-error@+1 {{expected '{' after 'attributes'}}
func.func @f() attributes 1 {
  return
}
