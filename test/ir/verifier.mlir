// RUN: ptoc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// The structural checks the verifier driver makes on every op, registered or
// not: dominance, isolation, terminators, single-block regions.

func.func @use_before_def(%x: i32) {
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %0 = arith.addi %1, %x : i32
  // expected-note@+1 {{operand defined here}}
  %1 = arith.constant 1 : i32
  return
}

// -----

// An isolated region cannot even name an outer value: the parser rejects it
// before the verifier's isolation check (which guards IR built through the API).
func.func @isolated(%x: i32) {
  "func.func"() ({
    // expected-error@+1 {{use of undeclared SSA value name}}
    %0 = arith.addi %x, %x : i32
    "func.return"() : () -> ()
  }) {function_type = () -> (), sym_name = "inner"} : () -> ()
  return
}

// -----

func.func @terminator_not_last() {
  // expected-error@+1 {{must be the last operation in the parent block}}
  "func.return"() : () -> ()
  // expected-error@+1 {{block with no terminator}}
  %0 = arith.constant 1 : i32
}

// -----

func.func @no_terminator() {
^bb0:
  // expected-error@+1 {{block with no terminator}}
  %0 = arith.constant 1 : i32
}

// -----

// expected-error@+1 {{expects region #0 to have 0 or 1 blocks}}
"builtin.module"() ({
  "t.a"() : () -> ()
^bb1:
  "t.b"() : () -> ()
}) : () -> ()

// -----

// Uses in a nested region of a value defined before the op are fine; a value
// defined later in the block does not dominate the region.
func.func @nested(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %0 = arith.addi %i, %c1 : index
    // expected-error@+1 {{operand #0 does not dominate this use}}
    %1 = arith.addi %later, %c1 : index
  }
  // expected-note@+1 {{operand defined here}}
  %later = arith.constant 5 : index
  return
}
