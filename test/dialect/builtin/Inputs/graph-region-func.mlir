// A function body is not a graph region: a use before the definition is an error.
func.func @f() {
  "t.use"(%x) : (i32) -> ()
  %x = "t.def"() : () -> i32
  return
}
