// RUN: ptoc-opt %s --allow-unregistered-dialect --verify-diagnostics --split-input-file

// expected-error@+1 {{use of undeclared SSA value name}}
"x.a"(%undef) : (i32) -> ()

// -----

// expected-note@+1 {{previously defined here}}
%0 = "x.a"() : () -> i32
// expected-error@+1 {{redefinition of SSA value '%0'}}
%0 = "x.a"() : () -> i32

// -----

%0 = "x.a"() : () -> i32
// expected-error@+1 {{use of value '%0' expects different type than prior uses: 'i64' vs 'i32'}}
"x.b"(%0) : (i64) -> ()

// -----

// expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
%a, %b = "x.a"() : () -> i32

// -----

// expected-error@+1 {{integer constant out of range for attribute}}
"x.a"() {a = 300 : i8} : () -> ()

// -----

// expected-error@+1 {{integer literal too large}}
"x.a"() {a = 99999999999999999999999} : () -> ()

// -----

// expected-error@+1 {{attribute 'a' occurs more than once in the attribute list}}
"x.a"() {a = 1, a = 2} : () -> ()

// -----

// expected-error@+1 {{dimension too large}}
"x.a"() : () -> memref<99999999999999999999x?xf32>

// -----

// expected-error@+1 {{unknown escape in string literal}}
"x.a"() {s = "\q"} : () -> ()

// -----

// expected-error@+1 {{undefined symbol alias id 'nope'}}
"x.a"() : () -> !nope

// -----

// expected-error@+1 {{unexpected decimal integer literal for a floating point value}}
"x.a"() {a = 1 : f32} : () -> ()

// -----

"x.a"() ({
  %y = "x.d"() : () -> i32
}) : () -> ()
// expected-error@+1 {{use of undeclared SSA value name}}
"x.u"(%y) : (i32) -> ()

// -----

// expected-error@+1 {{custom op 'foo.bar' is unknown}}
foo.bar

// -----

// expected-error@+1 {{expected 0 operand types but had 1}}
"x.a"() : (i32) -> ()

// -----

// expected-error@+1 {{unexpected character}}
"x.a"() : () -> () `
