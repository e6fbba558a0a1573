// Parser diagnostics for attribute and type aliases and for locations.
// RUN: ptoc-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

// expected-error@+1 {{attribute names with a '.' are reserved for dialect-defined names}}
#a.b = 1

// -----

#a = 1
// expected-error@+1 {{redefinition of attribute alias id 'a'}}
#a = 2

// -----

// expected-error@+1 {{type names with a '.' are reserved for dialect-defined names}}
!a.b = i32

// -----

!a = i32
// expected-error@+1 {{redefinition of type alias id 'a'}}
!a = i64

// -----

// expected-error@+1 {{expected integer in location}}
"x.a"() : () -> () loc("f":x:1)

// -----

// expected-error@+1 {{location line or column too large}}
"x.a"() : () -> () loc("f":99999999999:1)
