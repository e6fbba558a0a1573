static const cg_rule rules[] = {
    {"pto.tadd", lower_tile_tile, EW_ADD},
    {PTO(TADD), lower_tile_tile, EW_ADD},       /* by opcode: not a literal */
    {STD("arith.addi"), lower_int_binop, 0},    /* not a pto op */
};
static bool is_alloc(const ptoc_op *op) { return ptoc_op_is(op, "pto.alloc_tile"); }
