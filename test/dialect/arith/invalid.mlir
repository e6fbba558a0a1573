// Every diagnostic of the arith verifiers and custom-form parsers.
// RUN: ptoc-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = arith.addi %a, %a : f32
  return
}

// -----

func.func @f(%a: si32) {
  // expected-error@+1 {{operand #0 must be signless-integer-like, but got 'si32'}}
  %0 = arith.muli %a, %a : si32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.addf %a, %a : i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.negf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.negf %a : i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.subi' op expected 2 operands, but found 1}}
  %0 = "arith.subi"(%a) : (i32) -> i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.subi' op expected 1 results, but found 2}}
  %0:2 = "arith.subi"(%a, %a) : (i32, i32) -> (i32, i32)
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.addi' op attribute 'overflowFlags' failed to satisfy constraint: Integer overflow arith flags}}
  %0 = "arith.addi"(%a, %a) {overflowFlags = 1 : i32} : (i32, i32) -> i32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.mulf' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "arith.mulf"(%a, %a) {fastmath = #arith.overflow<nsw>} : (f32, f32) -> f32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{expected overflow flag to be one of: none, nsw, nuw}}
  %0 = arith.addi %a, %a overflow<foo> : i32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{expected fastmath flag to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  %0 = arith.addf %a, %a fastmath<fastest> : f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{unknown attribute '#arith.bogus'}}
  %0 = "arith.addf"(%a, %a) {fastmath = #arith.bogus<fast>} : (f32, f32) -> f32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() {value = 1 : i32} : () -> i64
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op requires attribute 'value'}}
  %0 = "arith.constant"() : () -> i64
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op value must be an integer, float or boolean attribute, or dense<...> of a vector or tensor type}}
  %0 = "arith.constant"() {value = "text"} : () -> i64
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant 3 : ui8
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{expected an integer, float or boolean constant, or dense<...> of a vector or tensor type}}
  %0 = arith.constant "text"
  return
}

// -----

func.func @f() {
  // A dense value needs a vector or tensor type: a memref is no constant.
  // expected-error@+1 {{expected an integer, float or boolean constant, or dense<...> of a vector or tensor type}}
  %0 = arith.constant dense<0> : memref<4xi16>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() {value = dense<0> : vector<4xi16>} : () -> vector<4xi32>
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.constant' op expected 0 operands, but found 1}}
  %0 = "arith.constant"(%a) {value = 1 : i32} : (i32) -> i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0 to 9}}
  %0 = "arith.cmpi"(%a, %a) {predicate = 42 : i64} : (i32, i32) -> i1
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.cmpf' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0 to 15}}
  %0 = "arith.cmpf"(%a, %a) {predicate = 16 : i64} : (f32, f32) -> i1
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op requires attribute 'predicate'}}
  %0 = "arith.cmpi"(%a, %a) : (i32, i32) -> i1
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{expected one of the following predicates: [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi foo, %a, %a : i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  %0 = "arith.cmpi"(%a, %a) {predicate = 0 : i64} : (i32, i32) -> i32
  return
}

// -----

func.func @f(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %0 = "arith.cmpi"(%a, %b) {predicate = 0 : i64} : (i32, i64) -> i1
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.cmpf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.cmpf olt, %a, %a : i32
  return
}

// -----

func.func @f(%c: i1, %a: i32, %b: i64) {
  // expected-error@+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %a, %b) : (i1, i32, i64) -> i32
  return
}

// -----

func.func @f(%c: i32, %a: i32) {
  // expected-error@+1 {{'arith.select' op expected condition type to be i1 or to have the same shape as the result type, got 'i32'}}
  %0 = "arith.select"(%c, %a, %a) : (i32, i32, i32) -> i32
  return
}

// -----

func.func @f(%c: vector<2xi1>, %a: vector<4xi32>) {
  // expected-error@+1 {{'arith.select' op expected condition type to be i1 or to have the same shape as the result type, got 'vector<2xi1>'}}
  %0 = arith.select %c, %a, %a : vector<2xi1>, vector<4xi32>
  return
}

// -----

func.func @f(%c: i1, %a: i32) {
  // expected-error@+1 {{expected one or two types, got 3}}
  %0 = arith.select %c, %a, %a : i1, i32, i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.trunci %a : i32 to i64
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  %0 = arith.extsi %a : i32 to i16
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.extui' op operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %a : i32 to i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_cast %a : i32 to i64
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'f32'}}
  %0 = arith.sitofp %a : f32 to f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.fptosi' op result #0 must be signless-fixed-width-integer-like, but got 'f16'}}
  %0 = arith.fptosi %a : f32 to f16
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
  %0 = arith.extf %a : f32 to f16
  return
}

// -----

func.func @f(%a: f16) {
  // expected-error@+1 {{'arith.truncf' op operand type 'f16' and result type 'f32' are cast incompatible}}
  %0 = arith.truncf %a : f16 to f32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.bitcast' op operand type 'i32' and result type 'f64' are cast incompatible}}
  %0 = arith.bitcast %a : i32 to f64
  return
}

// -----

func.func @f(%a: index) {
  // expected-error@+1 {{'arith.bitcast' op operand #0 must be signless-integer-or-float-like, but got 'index'}}
  %0 = arith.bitcast %a : index to i64
  return
}

// -----

func.func @f(%a: vector<4xi32>) {
  // expected-error@+1 {{'arith.extsi' op operand type 'vector<4xi32>' and result type 'vector<2xi64>' are cast incompatible}}
  %0 = arith.extsi %a : vector<4xi32> to vector<2xi64>
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.addui_extended' op result #1 must be bool-like, but got 'i32'}}
  %0:2 = arith.addui_extended %a, %a : i32, i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.mului_extended' op requires the same type for all operands and results}}
  %0:2 = "arith.mului_extended"(%a, %a) : (i32, i32) -> (i32, i64)
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.mulsi_extended' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0:2 = arith.mulsi_extended %a, %a : f32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.mulsi_extended' op expected 2 results, but found 1}}
  %0 = "arith.mulsi_extended"(%a, %a) : (i32, i32) -> i32
  return
}
