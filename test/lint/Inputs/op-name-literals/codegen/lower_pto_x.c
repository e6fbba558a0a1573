static const cg_rule rules[] = {
    {"pto.tadd", lower_tile_tile, EW_ADD},
};
static bool is_alloc(const ptoc_op *op) { return ptoc_op_is(op, "pto.alloc_tile"); }
