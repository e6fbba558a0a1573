// Every arith op in its custom form survives a round trip through ptoc-opt, in
// the custom and in the generic form, and through upstream mlir-opt.
// RUN: ptoc-opt %s | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | %mlir_opt | ptoc-opt | FileCheck %s
// RUN: ptoc-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @constants
func.func @constants() -> (i32, f32, i1, index, i64, f16) {
  // CHECK: arith.constant 42 : i32
  // GENERIC: "arith.constant"() {{.*}}value = 42 : i32
  %c = arith.constant 42 : i32
  // CHECK: arith.constant 1.5{{0*e\+00}} : f32
  %f = arith.constant 1.5 : f32
  // CHECK: arith.constant true
  %t = arith.constant true
  // CHECK: arith.constant 0 : index
  %i = arith.constant 0 : index
  // CHECK: arith.constant -7 : i64
  %n = arith.constant -7 : i64
  // CHECK: arith.constant {foo.bar} 2.5{{0*e\+00}} : f16
  %h = arith.constant {foo.bar} 2.5 : f16
  return %c, %f, %t, %i, %n, %h : i32, f32, i1, index, i64, f16
}

// Elements constants take their vector or tensor type from the value, as in
// MLIR (PTOAS's tmrgsort takes its executed-count list this way).
// CHECK-LABEL: func.func @dense_constants
func.func @dense_constants() -> (vector<4xi16>, vector<4xi16>, tensor<2xi32>) {
  // CHECK: %cst = arith.constant dense<[128, 64, 0, 0]> : vector<4xi16>
  // GENERIC: "arith.constant"() {{.*}}value = dense<[128, 64, 0, 0]> : vector<4xi16>{{.*}} : () -> vector<4xi16>
  %v = arith.constant dense<[128, 64, 0, 0]> : vector<4xi16>
  // CHECK: %cst_0 = arith.constant dense<0> : vector<4xi16>
  %z = arith.constant dense<0> : vector<4xi16>
  // CHECK: arith.constant dense<[1, 2]> : tensor<2xi32>
  %t = arith.constant dense<[1, 2]> : tensor<2xi32>
  return %v, %z, %t : vector<4xi16>, vector<4xi16>, tensor<2xi32>
}

// CHECK-LABEL: func.func @integer
func.func @integer(%a: i32, %b: i32, %i: index, %v: vector<4xi32>) {
  // CHECK: arith.addi %{{.*}}, %{{.*}} : i32
  // GENERIC: "arith.addi"{{.*}}overflowFlags = #arith.overflow<none>
  %0 = arith.addi %a, %b : i32
  // CHECK: arith.addi %{{.*}}, %{{.*}} overflow<nsw, nuw> : i32
  // GENERIC: "arith.addi"{{.*}}overflowFlags = #arith.overflow<nsw, nuw>
  %1 = arith.addi %a, %b overflow<nsw, nuw> : i32
  // CHECK: arith.subi %{{.*}}, %{{.*}} overflow<nsw> : i32
  %2 = arith.subi %a, %b overflow<nsw> : i32
  // CHECK: arith.muli %{{.*}}, %{{.*}} overflow<nuw> : index
  %3 = arith.muli %i, %i overflow<nuw> : index
  // CHECK: arith.divsi %{{.*}} : i32
  %4 = arith.divsi %a, %b : i32
  // CHECK: arith.divui %{{.*}} : i32
  %5 = arith.divui %a, %b : i32
  // CHECK: arith.ceildivsi %{{.*}} : i32
  %6 = arith.ceildivsi %a, %b : i32
  // CHECK: arith.ceildivui %{{.*}} : i32
  %7 = arith.ceildivui %a, %b : i32
  // CHECK: arith.floordivsi %{{.*}} : i32
  %8 = arith.floordivsi %a, %b : i32
  // CHECK: arith.remsi %{{.*}} : i32
  %9 = arith.remsi %a, %b : i32
  // CHECK: arith.remui %{{.*}} : i32
  %10 = arith.remui %a, %b : i32
  // CHECK: arith.andi %{{.*}} : i32
  %11 = arith.andi %a, %b : i32
  // CHECK: arith.ori %{{.*}} : i32
  %12 = arith.ori %a, %b : i32
  // CHECK: arith.xori %{{.*}} : vector<4xi32>
  %13 = arith.xori %v, %v : vector<4xi32>
  // CHECK: arith.shli %{{.*}} overflow<nsw> : i32
  %14 = arith.shli %a, %b overflow<nsw> : i32
  // CHECK: arith.shrsi %{{.*}} : i32
  %15 = arith.shrsi %a, %b : i32
  // CHECK: arith.shrui %{{.*}} : i32
  %16 = arith.shrui %a, %b : i32
  // CHECK: arith.maxsi %{{.*}} : i32
  %17 = arith.maxsi %a, %b : i32
  // CHECK: arith.maxui %{{.*}} : i32
  %18 = arith.maxui %a, %b : i32
  // CHECK: arith.minsi %{{.*}} : index
  %19 = arith.minsi %i, %i : index
  // CHECK: arith.minui %{{.*}} : i32
  %20 = arith.minui %a, %b : i32
  // CHECK: arith.addi %{{.*}} {foo.x = 1 : i32} : i32
  %21 = arith.addi %a, %b {foo.x = 1 : i32} : i32
  return
}

// CHECK-LABEL: func.func @float
func.func @float(%x: f32, %y: f32, %h: f16, %v: vector<8xf16>) {
  // CHECK: arith.addf %{{.*}}, %{{.*}} : f32
  // GENERIC: "arith.addf"{{.*}}fastmath = #arith.fastmath<none>
  %0 = arith.addf %x, %y : f32
  // CHECK: arith.subf %{{.*}} fastmath<fast> : f32
  // GENERIC: "arith.subf"{{.*}}fastmath = #arith.fastmath<fast>
  %1 = arith.subf %x, %y fastmath<fast> : f32
  // CHECK: arith.mulf %{{.*}} fastmath<nnan,ninf> : f32
  %2 = arith.mulf %x, %y fastmath<ninf,nnan> : f32
  // CHECK: arith.divf %{{.*}} : f16
  %3 = arith.divf %h, %h : f16
  // CHECK: arith.remf %{{.*}} : f32
  %4 = arith.remf %x, %y : f32
  // CHECK: arith.maximumf %{{.*}} : vector<8xf16>
  %5 = arith.maximumf %v, %v : vector<8xf16>
  // CHECK: arith.minimumf %{{.*}} : f32
  %6 = arith.minimumf %x, %y : f32
  // CHECK: arith.maxnumf %{{.*}} : f32
  %7 = arith.maxnumf %x, %y : f32
  // CHECK: arith.minnumf %{{.*}} : f32
  %8 = arith.minnumf %x, %y : f32
  // CHECK: arith.negf %{{.*}} : f32
  %9 = arith.negf %x : f32
  // CHECK: arith.negf %{{.*}} fastmath<reassoc,contract> : f32
  %10 = arith.negf %x fastmath<contract, reassoc> : f32
  return
}

// CHECK-LABEL: func.func @compare_select
func.func @compare_select(%a: i32, %b: i32, %x: f32, %v: vector<4xi32>) -> (i32, vector<4xi32>) {
  // CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i32
  // GENERIC: "arith.cmpi"{{.*}}predicate = 0 : i64
  %0 = arith.cmpi eq, %a, %b : i32
  // CHECK: arith.cmpi ne,
  %1 = arith.cmpi ne, %a, %b : i32
  // CHECK: arith.cmpi slt,
  // GENERIC: "arith.cmpi"{{.*}}predicate = 2 : i64
  %2 = arith.cmpi slt, %a, %b : i32
  // CHECK: arith.cmpi sle,
  %3 = arith.cmpi sle, %a, %b : i32
  // CHECK: arith.cmpi sgt,
  %4 = arith.cmpi sgt, %a, %b : i32
  // CHECK: arith.cmpi sge,
  %5 = arith.cmpi sge, %a, %b : i32
  // CHECK: arith.cmpi ult,
  %6 = arith.cmpi ult, %a, %b : i32
  // CHECK: arith.cmpi ule,
  %7 = arith.cmpi ule, %a, %b : i32
  // CHECK: arith.cmpi ugt,
  %8 = arith.cmpi ugt, %a, %b : i32
  // CHECK: arith.cmpi uge,
  // GENERIC: "arith.cmpi"{{.*}}predicate = 9 : i64
  %9 = arith.cmpi uge, %a, %b : i32
  // CHECK: arith.cmpf false,
  // GENERIC: "arith.cmpf"{{.*}}predicate = 0 : i64
  %10 = arith.cmpf false, %x, %x : f32
  // CHECK: arith.cmpf oeq,
  %11 = arith.cmpf oeq, %x, %x : f32
  // CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
  // GENERIC: "arith.cmpf"{{.*}}predicate = 4 : i64
  %12 = arith.cmpf olt, %x, %x : f32
  // CHECK: arith.cmpf une, %{{.*}}, %{{.*}} fastmath<fast> : f32
  %13 = arith.cmpf une, %x, %x fastmath<fast> : f32
  // CHECK: arith.cmpf uno,
  %14 = arith.cmpf uno, %x, %x : f32
  // CHECK: arith.cmpf true,
  // GENERIC: "arith.cmpf"{{.*}}predicate = 15 : i64
  %15 = arith.cmpf true, %x, %x : f32
  // CHECK: %[[VC:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : vector<4xi32>
  %vc = arith.cmpi sge, %v, %v : vector<4xi32>
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  %s = arith.select %2, %a, %b : i32
  // CHECK: arith.select %[[VC]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi32>
  %vs = arith.select %vc, %v, %v : vector<4xi1>, vector<4xi32>
  return %s, %vs : i32, vector<4xi32>
}

// CHECK-LABEL: func.func @casts
func.func @casts(%a: i32, %i: index, %x: f32, %d: f64, %h: f16) {
  // CHECK: arith.index_cast %{{.*}} : index to i32
  %0 = arith.index_cast %i : index to i32
  // CHECK: arith.index_cast %{{.*}} : i32 to index
  %1 = arith.index_cast %a : i32 to index
  // CHECK: arith.index_castui %{{.*}} : i32 to index
  %2 = arith.index_castui %a : i32 to index
  // CHECK: arith.extsi %{{.*}} : i32 to i64
  %3 = arith.extsi %a : i32 to i64
  // CHECK: arith.extui %{{.*}} : i32 to i64
  %4 = arith.extui %a : i32 to i64
  // CHECK: arith.trunci %{{.*}} : i32 to i8
  %5 = arith.trunci %a : i32 to i8
  // CHECK: arith.sitofp %{{.*}} : i32 to f32
  %6 = arith.sitofp %a : i32 to f32
  // CHECK: arith.uitofp %{{.*}} : i32 to f16
  %7 = arith.uitofp %a : i32 to f16
  // CHECK: arith.fptosi %{{.*}} : f32 to i32
  %8 = arith.fptosi %x : f32 to i32
  // CHECK: arith.fptoui %{{.*}} : f32 to i64
  %9 = arith.fptoui %x : f32 to i64
  // CHECK: arith.extf %{{.*}} : f16 to f32
  %10 = arith.extf %h : f16 to f32
  // CHECK: arith.truncf %{{.*}} : f64 to f32
  %11 = arith.truncf %d : f64 to f32
  // CHECK: arith.bitcast %{{.*}} : i32 to f32
  %12 = arith.bitcast %a : i32 to f32
  // CHECK: arith.bitcast %{{.*}} : f16 to i16
  %13 = arith.bitcast %h : f16 to i16
  return
}

// CHECK-LABEL: func.func @extended
func.func @extended(%a: i32, %b: i32) -> (i32, i1, i32, i32) {
  // CHECK: arith.addui_extended %{{.*}}, %{{.*}} : i32, i1
  %sum, %carry = arith.addui_extended %a, %b : i32, i1
  // CHECK: arith.mului_extended %{{.*}}, %{{.*}} : i32
  %lo, %hi = arith.mului_extended %a, %b : i32
  // CHECK: arith.mulsi_extended %{{.*}}, %{{.*}} : i32
  %r:2 = arith.mulsi_extended %a, %b : i32
  return %sum, %carry, %lo, %r#1 : i32, i1, i32, i32
}
