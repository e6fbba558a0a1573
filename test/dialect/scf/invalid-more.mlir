// An induction variable or loop-carried argument is a new name: `%x#1` is an
// error, not silently read as `%x`.
// RUN: ptoc-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: index) {
  // expected-error@+1 {{expected a plain SSA name, not a result number}}
  scf.for %i#1 = %a to %a step %a {
  }
  return
}

// -----

func.func @f(%a: index) {
  // expected-error@+1 {{expected a plain SSA name, not a result number}}
  %r = scf.while (%x#1 = %a) : (index) -> index {
    %c = arith.constant true
    scf.condition(%c) %x : index
  } do {
  ^bb0(%y: index):
    scf.yield %y : index
  }
  return
}
