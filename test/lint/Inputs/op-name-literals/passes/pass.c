/* A pass that compares "pto.tadd" in a comment: not a literal. */
static bool is_add(const ptoc_op *op) { return ptoc_op_is(op, "pto.tadd"); }
static const char *attr = "pto.addr";           /* an attribute, not an op */
static const char *msg = "pto.tadd needs ins";  /* a message that starts with one */
// "pto.alloc_tile" in a line comment
static const char c = '"';
static const char *alloc = "pto.alloc_tile";
