// Every diagnostic of the scf verifiers and custom-form parsers.
// RUN: ptoc-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: i32, %i: index) {
  // expected-error@+1 {{'scf.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%a, %i, %i) ({
  ^bb0(%iv: index):
    scf.yield
  }) : (i32, index, index) -> ()
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'scf.for' op operand #0 must be signless integer or index, but got 'f32'}}
  scf.for %i = %a to %a step %a : f32 {
  }
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'scf.for' op expected at least 3 operands (lower bound, upper bound, step), but found 2}}
  "scf.for"(%i, %i) ({
  ^bb0(%iv: index):
    scf.yield
  }) : (index, index) -> ()
  return
}

// -----

func.func @f(%a: f32, %i: index) {
  // expected-error@+1 {{'scf.for' op region control flow edge from Region #0 to Region #0: source has 0 operands, but target successor needs 1}}
  %0 = scf.for %iv = %i to %i step %i iter_args(%x = %a) -> (f32) {
    scf.yield
  }
  return
}

// -----

func.func @f(%a: f32, %i: index) {
  // expected-error@+1 {{'scf.for' op along control flow edge from Region #0 to Region #0: source type #0 'index' should match input type #0 'f32'}}
  %0 = scf.for %iv = %i to %i step %i iter_args(%x = %a) -> (f32) {
    scf.yield %i : index
  }
  return
}

// -----

func.func @f(%a: f32, %i: index) {
  // expected-error@+1 {{'scf.for' op along control flow edge from parent operands to Region #0: source type #0 'f32' should match input type #0 'i32'}}
  %0 = "scf.for"(%i, %i, %i, %a) ({
  ^bb0(%iv: index, %x: i32):
    scf.yield %x : i32
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @f(%a: f32, %i: index) {
  // expected-error@+1 {{'scf.for' op along control flow edge from Region #0 to parent results: source type #0 'f32' should match input type #0 'i32'}}
  %0 = "scf.for"(%i, %i, %i, %a) ({
  ^bb0(%iv: index, %x: f32):
    scf.yield %x : f32
  }) : (index, index, index, f32) -> i32
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'scf.for' op mismatch in number of loop-carried values and defined values}}
  %0 = "scf.for"(%i, %i, %i) ({
  ^bb0(%iv: index):
    scf.yield
  }) : (index, index, index) -> i32
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'scf.for' op expected induction variable to be same type as bounds and step}}
  "scf.for"(%i, %i, %i) ({
  ^bb0(%iv: i32):
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'scf.for' op expected the body to have 1 arguments (the induction variable and one per iter_arg), but it has 0}}
  "scf.for"(%i, %i, %i) ({
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%i: index) {
  // Another terminator in the body: its own parent check reports it first.
  "scf.for"(%i, %i, %i) ({
  ^bb0(%iv: index):
    // expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
    "func.return"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%a: f32, %i: index) {
  // expected-error@+1 {{expected 1 types after '->' (one per iter_arg), got 2}}
  %0:2 = scf.for %iv = %i to %i step %i iter_args(%x = %a) -> (f32, f32) {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%a: f32, %i: index) {
  // expected-error@+1 {{expected '->'}}
  %0 = scf.for %iv = %i to %i step %i iter_args(%x = %a) {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%c: i1, %a: f32) {
  // expected-error@+1 {{'scf.if' op must have an else block if defining values}}
  %0 = scf.if %c -> (f32) {
    scf.yield %a : f32
  }
  return
}

// -----

func.func @f(%c: i1, %a: f32) {
  // expected-error@+1 {{'scf.if' op along control flow edge from Region #0 to parent results: source type #0 'i1' should match input type #0 'f32'}}
  %0 = scf.if %c -> (f32) {
    scf.yield %c : i1
  } else {
    scf.yield %a : f32
  }
  return
}

// -----

func.func @f(%c: i1, %a: f32) {
  // expected-error@+1 {{'scf.if' op region control flow edge from Region #1 to parent results: source has 0 operands, but target successor needs 1}}
  %0 = scf.if %c -> (f32) {
    scf.yield %a : f32
  } else {
    scf.yield
  }
  return
}

// -----

func.func @f(%c: i32) {
  // expected-error@+1 {{'scf.if' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "scf.if"(%c) ({
    scf.yield
  }, {
  }) : (i32) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.if' op requires 2 regions}}
  "scf.if"(%c) ({
    scf.yield
  }) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.if' op region #0 ('thenRegion') failed to verify constraint: region with 1 blocks}}
  "scf.if"(%c) ({
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  "scf.if"(%c) ({
    // expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
    "func.return"() : () -> ()
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
  scf.yield
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.condition' op expects parent op 'scf.while'}}
  scf.condition(%c)
}

// -----

func.func @f(%c: i32) {
  scf.while : () -> () {
    // expected-error@+1 {{'scf.condition' op operand #0 must be 1-bit signless integer, but got 'i32'}}
    "scf.condition"(%c) : (i32) -> ()
  } do {
    scf.yield
  }
  return
}

// -----

func.func @f(%c: i1, %a: f32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Region #0 to Region #1: source type #0 'f32' should match input type #0 'i32'}}
  %0 = scf.while (%x = %a) : (f32) -> f32 {
    scf.condition(%c) %x : f32
  } do {
  ^bb0(%y: i32):
    scf.yield %a : f32
  }
  return
}

// -----

func.func @f(%c: i1, %a: f32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Region #0 to parent results: source type #0 'i1' should match input type #0 'f32'}}
  %0 = scf.while (%x = %a) : (f32) -> f32 {
    scf.condition(%c) %c : i1
  } do {
  ^bb0(%y: i1):
    scf.yield %a : f32
  }
  return
}

// -----

func.func @f(%c: i1, %a: f32) {
  // expected-error@+1 {{'scf.while' op region control flow edge from Region #1 to Region #0: source has 0 operands, but target successor needs 1}}
  %0 = scf.while (%x = %a) : (f32) -> f32 {
    scf.condition(%c) %x : f32
  } do {
  ^bb0(%y: f32):
    scf.yield
  }
  return
}

// -----

func.func @f(%c: i1, %a: f32) {
  // expected-error@+1 {{expected as many input types as operands (expected 1 got 2)}}
  %0 = scf.while (%x = %a) : (f32, f32) -> f32 {
    scf.condition(%c) %x : f32
  } do {
  ^bb0(%y: f32):
    scf.yield %y : f32
  }
  return
}

// -----

func.func @f(%c: i1, %a: f32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from parent operands to Region #0: source type #0 'f32' should match input type #0 'i32'}}
  %0 = "scf.while"(%a) ({
  ^bb0(%x: i32):
    scf.condition(%c) %a : f32
  }, {
  ^bb0(%y: f32):
    scf.yield %y : f32
  }) : (f32) -> f32
  return
}

// -----

func.func @f(%c: i1, %a: f32) {
  // expected-error@+1 {{'scf.while' op expects the 'after' region to terminate with 'scf.yield'}}
  %0 = "scf.while"(%a) ({
  ^bb0(%x: f32):
    scf.condition(%c) %a : f32
  }, {
  ^bb0(%y: f32):
    "scf.condition"(%c) : (i1) -> ()
  }) : (f32) -> f32
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.while' op expects the 'before' region to terminate with 'scf.condition'}}
  "scf.while"() ({
    scf.yield
  }, {
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'scf.execute_region' op region control flow edge from Region #0 to parent results: source has 0 operands, but target successor needs 1}}
  %0 = scf.execute_region -> i32 {
    scf.yield
  }
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'scf.execute_region' op region needs to have at least one block}}
  "scf.execute_region"() ({
  }) : () -> ()
  return
}
