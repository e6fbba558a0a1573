// Every diagnostic of the builtin verifiers.
// RUN: ptoc-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'foo'}}
module attributes {foo} {
}

// -----

// expected-error@+1 {{'builtin.module' op region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks}}
"builtin.module"() ({
}) : () -> ()

// -----

// expected-error@+1 {{'builtin.module' op requires one region}}
"builtin.module"() ({
^bb0:
}, {
^bb0:
}) : () -> ()

// -----

// expected-error@+1 {{'builtin.module' op attribute 'sym_name' failed to satisfy constraint: string attribute}}
"builtin.module"() ({
^bb0:
}) {sym_name = 1 : i32} : () -> ()

// -----

func.func @f() {
  // expected-error@+1 {{'builtin.unrealized_conversion_cast' op expected at least one result}}
  "builtin.unrealized_conversion_cast"() : () -> ()
  return
}
