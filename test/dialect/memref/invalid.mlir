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

// -----

// memref.reinterpret_cast: MLIR's rules.
func.func @f(%m: memref<16xi16>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type with size = 16 instead of 8 in dim = 1}}
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [1, 16], strides: [16, 1] : memref<16xi16> to memref<1x8xi16>
  return
}

// -----

func.func @f(%m: memref<16xi16>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type with offset = 4 instead of 0}}
  %v = memref.reinterpret_cast %m to offset: [4], sizes: [8], strides: [1] : memref<16xi16> to memref<8xi16>
  return
}

// -----

func.func @f(%m: memref<16xi16>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type with stride = 2 instead of 1 in dim = 0}}
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [8], strides: [2] : memref<16xi16> to memref<8xi16, strided<[1]>>
  return
}

// -----

func.func @f(%m: memref<16xi16>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type to have strided layout but found 'memref<8xi16, affine_map<(d0) -> (d0)>>'}}
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [8], strides: [1] : memref<16xi16> to memref<8xi16, affine_map<(d0) -> (d0)>>
  return
}

// -----

func.func @f(%m: memref<16xi16>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected 2 sizes values, got 1}}
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [16], strides: [1] : memref<16xi16> to memref<1x16xi16>
  return
}

// -----

func.func @f(%m: memref<16xi16>, %i: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected 0 dynamic offset values}}
  %v = "memref.reinterpret_cast"(%m, %i) {operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 16>, static_strides = array<i64: 1>} : (memref<16xi16>, index) -> memref<16xi16>
  return
}

// -----

func.func @f(%m: memref<16xi16>, %i: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op 'operandSegmentSizes' must be array<i32: 1, offsets, sizes, strides> and add up to the operand count}}
  %v = "memref.reinterpret_cast"(%m, %i) {static_offsets = array<i64: 0>, static_sizes = array<i64: 16>, static_strides = array<i64: 1>} : (memref<16xi16>, index) -> memref<16xi16>
  return
}

// -----

func.func @f(%m: memref<16xi16>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op different element types specified for source and result}}
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [16], strides: [1] : memref<16xi16> to memref<16xf16>
  return
}

// -----

func.func @f(%m: memref<16xi16>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op different memory spaces specified for source and result}}
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [16], strides: [1] : memref<16xi16> to memref<16xi16, 1>
  return
}

// -----

func.func @f(%m: memref<16xi16>, %i: i32) {
  // expected-error@+1 {{'memref.reinterpret_cast' op operand #1 must be index, but got 'i32'}}
  %v = "memref.reinterpret_cast"(%m, %i) {operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 16>, static_strides = array<i64: 1>} : (memref<16xi16>, i32) -> memref<16xi16, strided<[1], offset: ?>>
  return
}

// -----

func.func @f(%t: tensor<16xi16>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected a memref source and result, got 'tensor<16xi16>' to 'memref<16xi16>'}}
  %v = "memref.reinterpret_cast"(%t) {operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 16>, static_strides = array<i64: 1>} : (tensor<16xi16>) -> memref<16xi16>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected a source operand and one result}}
  "memref.reinterpret_cast"() : () -> ()
  return
}

// -----

func.func @f(%m: memref<16xi16>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op requires attribute 'static_strides' (array<i64: ...>)}}
  %v = "memref.reinterpret_cast"(%m) {operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 16>} : (memref<16xi16>) -> memref<16xi16>
  return
}
