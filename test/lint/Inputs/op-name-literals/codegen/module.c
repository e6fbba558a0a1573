/* A rule row outside codegen/lower_*.c is not a rule table's. */
static const cg_rule rules[] = {
    {"pto.tadd", lower_tile_tile, 0},
};
