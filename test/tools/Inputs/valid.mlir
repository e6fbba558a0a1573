func.func @f(%x: i32) {
  %0 = arith.addi %x, %x : i32
  return
}
