// An unterminated location after an argument is a diagnostic.
func.func @f(%a: i32 loc(
