// Parser diagnostics for operations, SSA values, regions and blocks.
// RUN: ptoc-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

// expected-note@+1 {{previously used here with type 'i32'}}
"x.a"(%f#0) : (i32) -> ()
// expected-error@+1 {{definition of SSA value '%f#0' has type 'i64'}}
%f:2 = "x.b"() : () -> (i64, i32)

// -----

%a = "x.a"() : () -> i32
// expected-error@+1 {{reference to invalid result number}}
"x.b"(%a#1) : (i32) -> ()

// -----

// expected-error@+1 {{reference to invalid result number}}
"x.a"(%f#3) : (i32) -> ()
%f:2 = "x.b"() : () -> (i32, i32)

// -----

func.func @g(%a: i32, %b: i32) {
  // expected-error@+1 {{2 operands present, but expected 1}}
  func.call @g(%a, %b) : (i32) -> ()
  return
}

// -----

"x.r"() ({
// expected-error@+1 {{expected a plain SSA name, not a result number}}
^bb0(%a#1: i32):
  "x.t"() : () -> ()
}) : () -> ()

// -----

"x.r"() ({
^bb0:
  "x.t"() : () -> ()
// expected-error@+1 {{redefinition of block '^bb0'}}
^bb0:
  "x.t"() : () -> ()
}) : () -> ()

// -----

func.func @f() {
  %0 = arith.constant 0 : index
  scf.for %i = %0 to %0 step %0 {
  // expected-error@+1 {{invalid block name in region with named arguments}}
  ^bb0(%j: index):
    scf.yield
  }
  return
}

// -----

// expected-error@+1 {{block successors are not supported}}
"x.a"()[^bb1] : () -> ()

// -----

// expected-error@+1 {{expected '{' to start the properties}}
"x.a"() <1> : () -> ()

// -----

// expected-error@+1 {{expected SSA result name}}
%a, = "x.a"() : () -> i32

// -----

// expected-error@+1 {{expected integer number of results}}
%a:0 = "x.a"() : () -> ()

// -----

// expected-error@+1 {{unregistered operation 'arith.foo' found in dialect ('arith') that does not allow unknown operations}}
"arith.foo"() : () -> ()

// -----

// expected-error@+1 {{invalid operation name}}
""() : () -> ()

// -----

func.func @f() {
  // expected-error@+1 {{expected symbol name}}
  func.call f() : () -> ()
  return
}
