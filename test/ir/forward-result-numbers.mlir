// RUN: ptoc-opt --pto-arch=cpu --allow-unregistered-dialect %s | FileCheck %s

// Uses in a graph region (the top-level module) may come before the op that
// defines them, naming its results by number in any order, past the first
// eight. Each use must end up on the result of its number: the results have
// distinct types (result #k is i(k+1)), and the types the uses were declared
// with are checked against them when the definition arrives.

// CHECK: "t.use"(%[[R:[0-9a-z_]+]]#9, %[[R]]#0, %[[R]]#4) : (i10, i1, i5) -> ()
// CHECK-NEXT: "t.use"(%[[R]]#12, %[[R]]#4) : (i13, i5) -> ()
// CHECK-NEXT: %[[R]]:13 = "t.def"()
"t.use"(%x#9, %x#0, %x#4) : (i10, i1, i5) -> ()
"t.use"(%x#12, %x#4) : (i13, i5) -> ()
%x:13 = "t.def"() : () -> (i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13)
