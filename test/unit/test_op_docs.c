/* test_op_docs.c: docs/ops.md agrees with the code. Every pto op of the
 * dialect's table has exactly one row in the doc's op table, and the row's cpu
 * column says "yes" exactly when the cpu target has a rule for the op
 * (ptoc_llvm_supports_op). A new lowering therefore cannot land without its
 * doc row, nor a doc row claim a lowering that does not exist. The doc's
 * element type section lists the rows of the element type table
 * (dialect/pto_dtypes.def), in order, and nothing else; on a difference the
 * test prints the section as it should read. */
#include "check.h"

#include "ptoc/codegen.h"
#include "ptoc/pto.h"

#include <stdlib.h>
#include <string.h>

/* The cpu column ("yes"/"no") of the row of `name` in `doc`; NULL if the doc
 * has no row, or more than one, for it. */
static const char *cpu_column(const char *doc, const char *name, char *buf, size_t n)
{
    char key[128];
    snprintf(key, sizeof key, "\n| `%s` |", name);
    const char *row = strstr(doc, key);
    if (!row || strstr(row + 1, key))
        return NULL;
    const char *end = strchr(row + 1, '\n');
    if (!end)
        return NULL;
    const char *bar = end - 1;                  /* the row ends in "| yes |" */
    while (bar > row && *bar == ' ')
        bar--;
    const char *cell = bar - 1;
    while (cell > row && *cell != '|')
        cell--;
    size_t len = (size_t)(bar - cell - 1);
    if (len >= n)
        return NULL;
    memcpy(buf, cell + 1, len);
    buf[len] = '\0';
    char *s = buf;
    while (*s == ' ')
        s++;
    for (char *e = s + strlen(s); e > s && e[-1] == ' ';)
        *--e = '\0';
    return s;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    if (text && fread(text, 1, (size_t)len, f) != (size_t)len) {
        free(text);
        text = NULL;
    }
    if (text)
        text[len] = '\0';
    fclose(f);
    return text;
}

/* "i16 i32 f16 f32", "none" or "any" for a class set. */
static void set_text(uint32_t set, char *buf, size_t n)
{
    buf[0] = '\0';
    if (set == (1u << PTOC_PTO_DT_COUNT) - 1) {
        snprintf(buf, n, "any");
        return;
    }
    for (unsigned i = 0; i < PTOC_PTO_DT_COUNT; i++)
        if (set & (1u << i))
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? " " : "", ptoc_pto_dtype_class_name(1u << i));
    if (!buf[0])
        snprintf(buf, n, "none");
}

/* The doc line of element type row `r`. */
static void dtype_line(const ptoc_pto_dtype_rule *r, char *buf, size_t n)
{
    char sets[3][160];
    const ptoc_pto_arch archs[3] = {PTOC_PTO_ARCH_A3, PTOC_PTO_ARCH_A5, PTOC_PTO_ARCH_CPU};
    for (int k = 0; k < 3; k++) {
        if (r->same_as)
            snprintf(sets[k], sizeof sets[k], "as %s", r->same_as);
        else
            set_text(ptoc_pto_dtype_rule_set(r, archs[k]), sets[k], sizeof sets[k]);
    }
    snprintf(buf, n, "| `%s` | %s | %s | %s | %s | %s |", r->op, r->role, r->when, sets[0], sets[1], sets[2]);
}

/* The element type section: its table rows are the table's, in order. */
static void check_dtype_section(const char *doc)
{
    const char *start = strstr(doc, "\n## Element types per target\n");
    CHECK(start != NULL);
    if (!start)
        return;
    const char *end = strstr(start + 1, "\n## ");
    const char *p = strstr(start, "\n|---");
    p = p ? strchr(p + 1, '\n') : NULL;
    bool same = p != NULL && (!end || p < end);
    for (size_t i = 0; same && i < ptoc_pto_dtype_rule_count(); i++) {
        char line[640];
        dtype_line(ptoc_pto_dtype_rule_at(i), line, sizeof line);
        size_t len = strlen(line);
        same = strncmp(p + 1, line, len) == 0 && p[1 + len] == '\n';
        p += 1 + len;
    }
    same = same && p[1] != '|';
    if (!same) {
        fprintf(stderr, "docs/ops.md: the element type section should list:\n");
        for (size_t i = 0; i < ptoc_pto_dtype_rule_count(); i++) {
            char line[640];
            dtype_line(ptoc_pto_dtype_rule_at(i), line, sizeof line);
            fprintf(stderr, "%s\n", line);
        }
    }
    CHECK(same);
}

int main(void)
{
    char *doc = read_file(PTOC_SRC_ROOT "/docs/ops.md");
    CHECK(doc != NULL);
    if (!doc)
        return CHECK_DONE();
    const char *op_table = strstr(doc, "\n## Op table\n");
    CHECK(op_table != NULL);
    if (!op_table)
        return CHECK_DONE();
    const ptoc_target *cpu = ptoc_target_find("cpu");
    CHECK(cpu != NULL);
    size_t lowered = 0;
    for (size_t i = 0; i < ptoc_pto_op_count(); i++) {
        const char *name = ptoc_pto_op_info_at(i)->name;
        char buf[16];
        const char *cell = cpu_column(op_table, name, buf, sizeof buf);
        bool supported = ptoc_llvm_supports_op(cpu, name);
        lowered += supported;
        if (!cell || strcmp(cell, supported ? "yes" : "no") != 0) {
            fprintf(stderr, "docs/ops.md: the row of %s should end in | %s |\n", name,
                    supported ? "yes" : "no");
            CHECK(false);
        }
    }
    CHECK(lowered > 0);
    CHECK(!ptoc_llvm_supports_op(cpu, "pto.no_such_op"));
    CHECK(ptoc_llvm_supports_op(cpu, "arith.addi"));
    check_dtype_section(doc);
    free(doc);
    return CHECK_DONE();
}
