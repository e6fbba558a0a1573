// A DPS compute op in generic form with neither results nor operandSegmentSizes
// has no out operand: a diagnostic, not a read past the operand array.
// RUN: not ptoc-opt %s 2>&1 | FileCheck %s

!T = !pto.tile_buf<vec, 16x16xf32>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // CHECK: fuzz-dps-missing-out.mlir:[[@LINE+1]]:3: error: 'pto.tadd' op dst is missing
  "pto.tadd"(%a, %b, %c) : (!T, !T, !T) -> ()
  return
}
