// Every diagnostic of the memref verifiers and custom-form parsers.
// RUN: ptoc-opt %s --split-input-file --verify-diagnostics

func.func @f() {
  // expected-error@+1 {{'memref.alloc' op dimension operand count does not equal memref dynamic dimension count}}
  %0 = memref.alloc() : memref<?xf32>
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'memref.alloca' op dimension operand count does not equal memref dynamic dimension count}}
  %0 = memref.alloca(%i) : memref<4xf32>
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 0, got 1}}
  %0 = memref.alloc()[%i] : memref<4xf32>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloc' op result #0 must be memref of any type values, but got 'i32'}}
  %0 = "memref.alloc"() {operandSegmentSizes = array<i32: 0, 0>} : () -> i32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloc' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0}}
  %0 = memref.alloc() {alignment = -1 : i64} : memref<4xf32>
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'memref.alloc' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  %0 = "memref.alloc"(%i) {operandSegmentSizes = array<i32: 0, 0>} : (index) -> memref<?xf32>
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'memref.alloc' op attribute 'operandSegmentSizes' must be array<i32: sizes, symbols>}}
  %0 = "memref.alloc"(%i) {operandSegmentSizes = array<i64: 1, 0>} : (index) -> memref<?xf32>
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'memref.alloc' op operand #0 must be index, but got 'i32'}}
  %0 = "memref.alloc"(%i) : (i32) -> memref<?xf32>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{invalid kind of type specified: expected a memref}}
  %0 = memref.alloc() : i32
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{invalid kind of type specified: expected a memref}}
  memref.dealloc %i : index
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'memref.dealloc' op operand #0 must be ranked or unranked memref of any type values, but got 'index'}}
  "memref.dealloc"(%i) : (index) -> ()
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'memref.dealloc' op expected 1 operand and no results}}
  "memref.dealloc"() : () -> ()
  return
}
