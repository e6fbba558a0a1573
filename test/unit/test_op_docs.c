/* test_op_docs.c: docs/ops.md's generated tables say what the code says.
 *
 * Three sections of the doc end in a table built from the code:
 *   "Element types per target"  a row per row of the element type table
 *                               (dialect/pto_dtypes.def), in order;
 *   "Op table"                  a row per op of the op table (dialect/pto_ops.def),
 *                               in order: its forms, pipe, counts and verifier,
 *                               then a column per entry of codegen's list of
 *                               targets saying whether that target lowers it
 *                               (ptoc_llvm_supports_pto_op);
 *   "Pipes of data movements"   a row per move row of the op table: the pipe
 *                               of a move from one space to another;
 *   "Vector micro-ops"          a row per A5 row of the micro-op table
 *   "A2/A3 repeat intrinsics"   and per A2/A3 row (pto.a2a3.*)
 *                               (dialect/pto_vops.def): signatures, attributes,
 *                               what the op computes, and a column per target
 *                               saying whether it lowers the op
 *                               (ptoc_llvm_supports_vop).
 * The test builds each table's text and compares it with the doc's, byte for
 * byte. On a difference it prints the table as it should read and writes the
 * doc with every table as it should read (the prose around them unchanged) to
 * ops.md in its build directory (and removes that file when they agree):
 * copying it over docs/ops.md refreshes the doc. A new op or lowering therefore cannot land without its doc row or
 * cell, nor a cell claim a lowering that does not exist. */
#include "check.h"

#include "ptoc/codegen.h"
#include "ptoc/pto.h"

#include <stdlib.h>
#include <string.h>

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

/* ---------------------------------------------------------------- element types */

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

/* The element type table: a line per row of dialect/pto_dtypes.def. */
static void dtype_table(ptoc_strbuf *sb)
{
    const ptoc_pto_arch archs[3] = {PTOC_PTO_ARCH_A3, PTOC_PTO_ARCH_A5, PTOC_PTO_ARCH_CPU};
    ptoc_strbuf_puts(sb, "| op | operand | when | a2/a3 | a5 | cpu |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < ptoc_pto_dtype_rule_count(); i++) {
        const ptoc_pto_dtype_rule *r = ptoc_pto_dtype_rule_at(i);
        ptoc_strbuf_printf(sb, "| `%s` | %s | %s |", ptoc_pto_op_name(r->op), r->role, r->when);
        for (int k = 0; k < 3; k++) {
            char set[160];
            if (r->same_as)
                snprintf(set, sizeof set, "as %s", r->same_as);
            else
                set_text(ptoc_pto_dtype_rule_set(r, archs[k]), set, sizeof set);
            ptoc_strbuf_printf(sb, " %s |", set);
        }
        ptoc_strbuf_putc(sb, '\n');
    }
}

/* ---------------------------------------------------------------- the op table */

/* How an op is written: its form, then "/ SSA" when it also reads the Level-1
 * form. A DPS row without the Level-1 form parses a DPS form of its own. */
static const char *forms_text(const ptoc_pto_op_info *info)
{
    switch (info->form) {
    case PTOC_PTO_FORM_DPS:
        return info->level1 ? "DPS / SSA" : "custom DPS";
    case PTOC_PTO_FORM_DPS_ATTR_INS:
        return info->level1 ? "DPS (attrs in ins) / SSA" : "DPS (attrs in ins)";
    case PTOC_PTO_FORM_CUSTOM:
        return info->level1 ? "custom / SSA" : "custom";
    }
    return "?";
}

/* "2", "1-3", "1+"; "any" when neither the ins nor the outs are bounded. */
static void count_text(const ptoc_pto_op_info *info, bool ins, char *buf, size_t n)
{
    unsigned lo = ins ? info->min_ins : info->min_outs, hi = ins ? info->max_ins : info->max_outs;
    bool unbounded = info->min_ins == 0 && info->max_ins == PTOC_PTO_VARIADIC && info->min_outs == 0 &&
                     info->max_outs == PTOC_PTO_VARIADIC;
    if (unbounded)
        snprintf(buf, n, "any");
    else if (hi == PTOC_PTO_VARIADIC)
        snprintf(buf, n, "%u+", lo);
    else if (lo == hi)
        snprintf(buf, n, "%u", lo);
    else
        snprintf(buf, n, "%u-%u", lo, hi);
}

/* The pipe without its "PIPE_" prefix ("MTE2"), "-" for none. */
static const char *pipe_text(int pipe)
{
    if (pipe == PTOC_PTO_PIPE_BY_SPACES)
        return "by spaces";
    const char *name = pipe == PTOC_PTO_PIPE_NONE ? NULL : ptoc_pto_enum_name(PTOC_PTO_ENUM_PIPE, (uint32_t)pipe);
    if (!name)
        return "-";
    return strncmp(name, "PIPE_", 5) == 0 ? name + 5 : name;
}

/* The verifier without its "pto_verify_" prefix ("elementwise"). */
static const char *verifier_text(ptoc_pto_op_id opcode)
{
    const char *name = ptoc_pto_op_verifier_name(opcode);
    if (!name)
        return "?";
    return strncmp(name, "pto_verify_", 11) == 0 ? name + 11 : name;
}

/* A table's header row `head` ("| a | b |"), a column per target after it,
 * and its separator row. */
static void header_with_targets(ptoc_strbuf *sb, const char *head)
{
    ptoc_strbuf_puts(sb, head);
    for (size_t t = 0; t < ptoc_target_count(); t++)
        ptoc_strbuf_printf(sb, " %s |", ptoc_target_at(t)->name);
    ptoc_strbuf_putc(sb, '\n');
    for (const char *c = head; *c; c++)
        if (*c == '|')
            ptoc_strbuf_puts(sb, c[1] ? "|---" : "|");
    for (size_t t = 0; t < ptoc_target_count(); t++)
        ptoc_strbuf_puts(sb, "---|");
    ptoc_strbuf_putc(sb, '\n');
}

/* The op table: a line per op of dialect/pto_ops.def, a column per target. */
static void op_table(ptoc_strbuf *sb)
{
    header_with_targets(sb, "| op | forms | pipe | ins | outs | verifier |");
    for (size_t i = 0; i < ptoc_pto_op_count(); i++) {
        const ptoc_pto_op_info *info = ptoc_pto_op_info_at(i);
        char ins[16], outs[16];
        count_text(info, true, ins, sizeof ins);
        count_text(info, false, outs, sizeof outs);
        ptoc_strbuf_printf(sb, "| `%s` | %s | %s | %s | %s | %s |", info->name, forms_text(info),
                           pipe_text(info->pipe), ins, outs, verifier_text(info->opcode));
        for (size_t t = 0; t < ptoc_target_count(); t++)
            ptoc_strbuf_puts(sb, ptoc_llvm_supports_pto_op(ptoc_target_at(t), info->opcode) ? " yes |" : " no |");
        ptoc_strbuf_putc(sb, '\n');
    }
}

/* The move rows: the pipe of each pair of spaces a data movement runs between. */
static void move_table(ptoc_strbuf *sb)
{
    ptoc_strbuf_puts(sb, "| from | to | pipe |\n|---|---|---|\n");
    ptoc_pto_address_space src, dst;
    ptoc_pto_pipe pipe;
    for (size_t i = 0; ptoc_pto_move_at(i, &src, &dst, &pipe); i++)
        ptoc_strbuf_printf(sb, "| %s | %s | %s |\n", ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, src),
                           ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, dst), pipe_text(pipe));
}

/* The rows of the micro-op table (A5's micro-ops, or with `a2a3` the A2/A3
 * repeat intrinsics, named pto.a2a3.*): their signatures and what they
 * compute. */
static void vop_table(ptoc_strbuf *sb, bool a2a3)
{
    header_with_targets(sb, "| op | operands | results | attributes | computes |");
    for (size_t i = 0; i < ptoc_pto_vop_count(); i++) {
        const ptoc_pto_vop_info *v = ptoc_pto_vop_info_at(i);
        if ((strncmp(v->name, "pto.a2a3.", 9) == 0) != a2a3)
            continue;
        ptoc_strbuf_printf(sb, "| `%s` | %s | %s | %s | %s |", v->name, v->operands, *v->results ? v->results : "-",
                           *v->attrs ? v->attrs : "-", v->summary);
        for (size_t t = 0; t < ptoc_target_count(); t++)
            ptoc_strbuf_puts(sb, ptoc_llvm_supports_vop(ptoc_target_at(t), v->id) ? " yes |" : " no |");
        ptoc_strbuf_putc(sb, '\n');
    }
}

/* ---------------------------------------------------------------- comparing */

/* The table of section `heading` in `doc`: from its first line that starts
 * with '|' to the end of the last such line in a row. False if the doc has no
 * such section or the section no table. */
static bool find_table(const char *doc, const char *heading, size_t *start, size_t *end)
{
    char key[128];
    snprintf(key, sizeof key, "\n## %s\n", heading);
    const char *sec = strstr(doc, key);
    if (!sec)
        return false;
    const char *sec_end = strstr(sec + 1, "\n## ");
    const char *p = strstr(sec, "\n|");
    if (!p || (sec_end && p > sec_end))
        return false;
    *start = (size_t)(p + 1 - doc);
    for (p++; *p == '|';) {
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    *end = (size_t)(p - doc);
    return true;
}

/* Replaces, in `doc` (malloc'ed), the table of section `heading` by `want`;
 * records a failure, with the table as it should read, when they differ. */
static char *check_table(char *doc, const char *heading, const char *want)
{
    size_t start, end;
    if (!find_table(doc, heading, &start, &end)) {
        fprintf(stderr, "docs/ops.md: no section \"## %s\" with a table\n", heading);
        CHECK(false);
        return doc;
    }
    size_t len = strlen(want), doc_len = strlen(doc);
    if (end - start == len && memcmp(doc + start, want, len) == 0)
        return doc;
    fprintf(stderr, "docs/ops.md: the table of \"## %s\" should read:\n%s", heading, want);
    CHECK(false);
    char *fixed = malloc(doc_len - (end - start) + len + 1);
    if (!fixed)
        return doc;
    memcpy(fixed, doc, start);
    memcpy(fixed + start, want, len);
    memcpy(fixed + start + len, doc + end, doc_len - end + 1);
    free(doc);
    return fixed;
}

#define FIXED_DOC PTOC_UNIT_BUILD_DIR "/ops.md"

/* Writes the doc as it should read next to the test, for copying over docs/ops.md. */
static void write_fixed(const char *fixed)
{
    const char *path = FIXED_DOC;
    FILE *f = fopen(path, "wb");
    if (f && fputs(fixed, f) >= 0 && fclose(f) == 0)
        fprintf(stderr, "docs/ops.md as it should read: %s (copy it over docs/ops.md)\n", path);
    else
        fprintf(stderr, "cannot write %s\n", path);
}

/* ptoc_llvm_supports_op (by name) agrees with ptoc_llvm_supports_pto_op for
 * every op and target, and some op is lowered somewhere. */
static void check_supports(void)
{
    size_t lowered = 0;
    for (size_t t = 0; t < ptoc_target_count(); t++) {
        const ptoc_target *target = ptoc_target_at(t);
        CHECK(!ptoc_llvm_supports_pto_op(target, PTOC_PTO_OP_NONE));
        CHECK(!ptoc_llvm_supports_pto_op(target, PTOC_PTO_OP_COUNT));
        for (size_t i = 0; i < ptoc_pto_op_count(); i++) {
            const ptoc_pto_op_info *info = ptoc_pto_op_info_at(i);
            bool by_opcode = ptoc_llvm_supports_pto_op(target, info->opcode);
            CHECK(ptoc_llvm_supports_op(target, info->name) == by_opcode);
            lowered += by_opcode;
        }
    }
    CHECK(lowered > 0);
    const ptoc_target *cpu = ptoc_target_find("cpu");
    CHECK(cpu != NULL);
    CHECK(!ptoc_llvm_supports_op(cpu, "pto.no_such_op"));
    CHECK(ptoc_llvm_supports_op(cpu, "arith.addi"));
    CHECK(ptoc_llvm_supports_pto_op(cpu, PTOC_PTO_OP_TADD));
}

int main(void)
{
    check_supports();
    char *doc = read_file(PTOC_SRC_ROOT "/docs/ops.md");
    CHECK(doc != NULL);
    if (!doc)
        return CHECK_DONE();
    ptoc_strbuf dtypes, ops, moves, vops, rops;
    ptoc_strbuf_init(&dtypes, NULL);
    ptoc_strbuf_init(&ops, NULL);
    ptoc_strbuf_init(&moves, NULL);
    ptoc_strbuf_init(&vops, NULL);
    ptoc_strbuf_init(&rops, NULL);
    dtype_table(&dtypes);
    op_table(&ops);
    move_table(&moves);
    vop_table(&vops, false);
    vop_table(&rops, true);
    int failures = check_failures;
    doc = check_table(doc, "Element types per target", ptoc_strbuf_cstr(&dtypes));
    doc = check_table(doc, "Op table", ptoc_strbuf_cstr(&ops));
    doc = check_table(doc, "Pipes of data movements", ptoc_strbuf_cstr(&moves));
    doc = check_table(doc, "Vector micro-ops", ptoc_strbuf_cstr(&vops));
    doc = check_table(doc, "A2/A3 repeat intrinsics", ptoc_strbuf_cstr(&rops));
    if (check_failures != failures)
        write_fixed(doc);
    else
        remove(FIXED_DOC);                      /* none stale from an earlier run */
    ptoc_strbuf_free(&dtypes);
    ptoc_strbuf_free(&ops);
    ptoc_strbuf_free(&moves);
    ptoc_strbuf_free(&vops);
    ptoc_strbuf_free(&rops);
    free(doc);
    return CHECK_DONE();
}
