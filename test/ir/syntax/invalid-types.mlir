// Parser diagnostics for builtin types: function types, dimension lists,
// shaped types and dialect types.
// RUN: ptoc-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

// expected-error@+1 {{expected '->' in function type}}
"x.a"() {a = (i32) i32} : () -> ()

// -----

func.func @f() {
  // expected-error@+1 {{expected function type}}
  %r = scf.while : i32 {
  } do {
  }
  return
}

// -----

// expected-error@+1 {{expected 'x' in dimension list}}
"x.a"() : () -> memref<4y8xf32>

// -----

// expected-error@+1 {{expected 'x' in dimension list}}
"x.a"() : () -> memref<4x8yf32>

// -----

// expected-error@+1 {{expected static shape}}
"x.a"() : () -> vector<?xf32>

// -----

// expected-error@+1 {{unranked tensors are not supported}}
"x.a"() : () -> tensor<*xf32>

// -----

// expected-error@+1 {{expected type mnemonic}}
"x.a"() : () -> !pto<1>

// -----

// expected-error@+1 {{dialect 'func' does not define types}}
"x.a"() : () -> !func.foo
