/* test_op_docs.c: docs/ops.md's op table agrees with the code. Every pto op
 * of the dialect's table has exactly one row in the doc, and the row's cpu
 * column says "yes" exactly when codegen has a rule for the op
 * (ptoc_llvm_supports_op). A new lowering therefore cannot land without its
 * doc row, nor a doc row claim a lowering that does not exist. */
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

int main(void)
{
    char *doc = read_file(PTOC_SRC_ROOT "/docs/ops.md");
    CHECK(doc != NULL);
    if (!doc)
        return CHECK_DONE();
    size_t lowered = 0;
    for (size_t i = 0; i < ptoc_pto_op_count(); i++) {
        const char *name = ptoc_pto_op_info_at(i)->name;
        char buf[16];
        const char *cell = cpu_column(doc, name, buf, sizeof buf);
        bool supported = ptoc_llvm_supports_op(name);
        lowered += supported;
        if (!cell || strcmp(cell, supported ? "yes" : "no") != 0) {
            fprintf(stderr, "docs/ops.md: the row of %s should end in | %s |\n", name,
                    supported ? "yes" : "no");
            CHECK(false);
        }
    }
    CHECK(lowered > 0);
    CHECK(!ptoc_llvm_supports_op("pto.no_such_op"));
    CHECK(ptoc_llvm_supports_op("arith.addi"));
    free(doc);
    return CHECK_DONE();
}
