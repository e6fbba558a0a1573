static const char *strip(const char *name) { return strncmp(name, "pto.", 4) == 0 ? name + 4 : name; }
static const char *op = "pto.tadd";
