// Every diagnostic of the func verifiers and custom-form parsers.
// RUN: ptoc-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: i32) -> i32 {
  // expected-error@+1 {{'func.return' op has 0 operands, but enclosing function (@f) returns 1}}
  return
}

// -----

func.func @f(%a: i32) -> i32 {
  %0 = arith.constant 1 : i64
  // expected-error@+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @f}}
  return %0 : i64
}

// -----

func.func @f() {
  return
}
// expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
"func.return"() : () -> ()

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'func.call' op 'g' does not reference a valid function}}
  %0 = func.call @g(%a) : (i32) -> i32
  return
}

// -----

module attributes {foo.g} {
  func.func @f(%a: i32) {
    // expected-error@+1 {{'func.call' op 'x' does not reference a valid function}}
    %0 = func.call @x(%a) : (i32) -> i32
    return
  }
  module @x {}
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i32) {
  // expected-error@+1 {{'func.call' op incorrect number of operands for callee}}
  %0 = func.call @g() : () -> i32
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i64) {
  // expected-error@+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0}}
  %0 = func.call @g(%a) : (i64) -> i32
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i32) {
  // expected-error@+1 {{'func.call' op incorrect number of results for callee}}
  func.call @g(%a) : (i32) -> ()
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i32) {
  // expected-error@+3 {{'func.call' op result type mismatch at index 0}}
  // expected-note@+2 {{op result types: 'i64'}}
  // expected-note@+1 {{function result types: 'i32'}}
  %0 = func.call @g(%a) : (i32) -> i64
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'func.call' op requires attribute 'callee'}}
  "func.call"() : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'func.call' op attribute 'callee' failed to satisfy constraint: flat symbol reference attribute}}
  "func.call"() {callee = @a::@b} : () -> ()
  return
}

// -----

// expected-error@+1 {{'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() ({
^bb0(%a: i64):
  "func.return"() : () -> ()
}) {function_type = (i32) -> (), sym_name = "f"} : () -> ()

// -----

// expected-error@+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() ({
^bb0(%a: i32, %b: i32):
  "func.return"() : () -> ()
}) {function_type = (i32) -> (), sym_name = "f"} : () -> ()

// -----

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func public @f()

// -----

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @f(i32)

// -----

// expected-error@+1 {{'func.func' op visibility expected to be one of ["public", "private", "nested"], but got "bogus"}}
"func.func"() ({
}) {function_type = (i32) -> (), sym_name = "f", sym_visibility = "bogus"} : () -> ()

// -----

// expected-error@+1 {{'func.func' op attribute 'function_type' failed to satisfy constraint: type attribute of function type}}
"func.func"() ({
}) {function_type = i32, sym_name = "f", sym_visibility = "private"} : () -> ()

// -----

// expected-error@+1 {{'func.func' op requires attribute 'function_type'}}
"func.func"() ({
}) {sym_name = "f", sym_visibility = "private"} : () -> ()

// -----

// expected-error@+1 {{'func.func' op requires attribute 'sym_name'}}
"func.func"() ({
}) {function_type = (i32) -> (), sym_visibility = "private"} : () -> ()

// -----

// expected-error@+1 {{'func.func' op attribute 'sym_name' failed to satisfy constraint: string attribute}}
"func.func"() ({
}) {function_type = (i32) -> (), sym_name = 3 : i32, sym_visibility = "private"} : () -> ()

// -----

// expected-error@+1 {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"func.func"() ({
}) {function_type = (i32) -> (), sym_name = "f", sym_visibility = "private", arg_attrs = [{}, {}]} : () -> ()

// -----

// expected-error@+1 {{'func.func' op expects result attribute dictionaries in 'res_attrs'}}
"func.func"() ({
}) {function_type = () -> i32, sym_name = "f", sym_visibility = "private", res_attrs = [1 : i32]} : () -> ()

// -----

// expected-error@+1 {{'func.func' op expects result attribute array 'res_attrs' to be an array}}
"func.func"() ({
}) {function_type = () -> i32, sym_name = "f", sym_visibility = "private", res_attrs = 1 : i32} : () -> ()

// -----

// expected-error@+1 {{expected all arguments to be named or all unnamed}}
func.func private @f(%a: i32, i32)

// -----

// expected-error@+1 {{expected named arguments in a function with a body}}
func.func @f(i32) {
  return
}
