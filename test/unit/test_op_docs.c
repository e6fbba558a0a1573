/* test_op_docs.c: docs/ops.md agrees with the code. Every pto op of the
 * dialect's table has exactly one row in the doc's op table, the table has a
 * column per entry of codegen's list of targets, and each (op, target) cell
 * says "yes" exactly when that target has a rule for the op
 * (ptoc_llvm_supports_op). A new lowering therefore cannot land without its
 * doc cell, nor a cell claim a lowering that does not exist. The doc's
 * element type section lists the rows of the element type table
 * (dialect/pto_dtypes.def), in order, and nothing else; on a difference the
 * test prints the section as it should read. */
#include "check.h"

#include "ptoc/codegen.h"
#include "ptoc/pto.h"

#include <stdlib.h>
#include <string.h>

/* Cell `col` (0: the op's name) of the table row that starts with `key` in
 * `doc`, trimmed, in buf; NULL if the doc has no such row, more than one, or
 * fewer cells. */
static const char *row_cell(const char *doc, const char *key, int col, char *buf, size_t n)
{
    const char *row = strstr(doc, key);
    if (!row || strstr(row + 1, key))
        return NULL;
    row = strchr(row + 1, '|');                 /* the row's first bar */
    for (int c = 0; row && c < col; c++)
        row = strchr(row + 1, '|');
    const char *end = row ? strchr(row + 1, '|') : NULL;
    const char *nl = row ? strchr(row + 1, '\n') : NULL;
    if (!end || (nl && nl < end))
        return NULL;
    while (row + 1 < end && row[1] == ' ')
        row++;
    while (end > row + 1 && end[-1] == ' ')
        end--;
    size_t len = (size_t)(end - row - 1);
    if (len >= n)
        return NULL;
    memcpy(buf, row + 1, len);
    buf[len] = '\0';
    return buf;
}

/* The column of the op table's header naming target `name`, or -1. */
static int target_column(const char *op_table, const char *name)
{
    char buf[64];
    for (int col = 1; col < 32; col++) {
        const char *cell = row_cell(op_table, "\n| op | forms |", col, buf, sizeof buf);
        if (!cell)
            return -1;
        if (strcmp(cell, name) == 0)
            return col;
    }
    return -1;
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
    snprintf(buf, n, "| `%s` | %s | %s | %s | %s | %s |", ptoc_pto_op_name(r->op), r->role, r->when, sets[0], sets[1],
             sets[2]);
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
    /* Every (op, target) cell says whether the target has a rule for the op. */
    size_t lowered = 0;
    for (size_t t = 0; t < ptoc_target_count(); t++) {
        const ptoc_target *target = ptoc_target_at(t);
        int col = target_column(op_table, target->name);
        if (col < 0) {
            fprintf(stderr, "docs/ops.md: the op table has no column for target %s\n", target->name);
            CHECK(false);
            continue;
        }
        for (size_t i = 0; i < ptoc_pto_op_count(); i++) {
            const char *name = ptoc_pto_op_info_at(i)->name;
            char key[128], buf[16];
            snprintf(key, sizeof key, "\n| `%s` |", name);
            const char *cell = row_cell(op_table, key, col, buf, sizeof buf);
            bool supported = ptoc_llvm_supports_op(target, name);
            lowered += supported;
            if (!cell || strcmp(cell, supported ? "yes" : "no") != 0) {
                fprintf(stderr, "docs/ops.md: %s's %s cell should be %s\n", name, target->name,
                        supported ? "yes" : "no");
                CHECK(false);
            }
        }
    }
    CHECK(lowered > 0);
    const ptoc_target *cpu = ptoc_target_find("cpu");
    CHECK(cpu != NULL);
    CHECK(!ptoc_llvm_supports_op(cpu, "pto.no_such_op"));
    CHECK(ptoc_llvm_supports_op(cpu, "arith.addi"));
    check_dtype_section(doc);
    free(doc);
    return CHECK_DONE();
}
