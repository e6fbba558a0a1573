/* test_op_spellings.c: every op of the pto table that has a Level-1 form reads
 * the same in each of the spellings the ISA pages give it. For each such row,
 * with the op's own operand and result counts, these texts must parse to the
 * same IR (compared as generic-form text, which shows every operand, type and
 * attribute):
 *   %r = pto.OP %a0, %a1 : T, T -> T              the Level-1 form ptoc prints
 *   %r = pto.OP %a0, %a1 : (T, T) -> T            the ISA's parenthesised list
 *   %r = OP %a0, %a1 : T                          PTO-AS (types from definitions)
 * and, for a row with a fixed out count, the DPS form and its PTO-AS statement:
 *   pto.OP ins(%a1 : T) outs(%a0 : T)  =  OP %a0, %a1  (tstore: ins first)
 * Only parsing is checked: the operands are all tiles of one type, which the
 * verifiers of many ops would refuse. */
#include "check.h"

#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <stdlib.h>
#include <string.h>

#define TILE "!pto.tile<16x16xf32>"

/* Parses `body` inside a function of `nargs` tile arguments (PTO-AS when
 * `assembly`) and returns its generic form (malloc'd), or NULL. */
static char *generic_of(ptoc_context *ctx, const char *body, uint32_t nargs, bool assembly)
{
    ptoc_strbuf src, out;
    ptoc_strbuf_init(&src, ctx);
    ptoc_strbuf_puts(&src, "func.func @f(");
    for (uint32_t i = 0; i < nargs; i++)
        ptoc_strbuf_printf(&src, "%s%%a%u: " TILE, i ? ", " : "", i);
    ptoc_strbuf_printf(&src, ") {\n  %s\n  return\n}\n", body);
    ptoc_ident *file = ptoc_ident_cstr(ctx, "spelling.pto");
    ptoc_source_add(ctx, file, src.data, src.len);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_parse_options opts = {.asm_dialect = "pto", .assembly = assembly};
    ptoc_op *module = ptoc_parse(ctx, arena, src.data, src.len, file->str, &opts);
    char *text = NULL;
    if (module) {
        ptoc_strbuf_init(&out, NULL);
        ptoc_print_options popts = {.generic = true};
        ptoc_print_op(&out, module, &popts);
        text = malloc(out.len + 1);
        memcpy(text, out.data, out.len);
        text[out.len] = '\0';
        ptoc_strbuf_free(&out);
    } else {
        fprintf(stderr, "could not parse:\n%s", src.data);
    }
    ptoc_arena_destroy(arena);
    ptoc_strbuf_free(&src);
    return text;
}

/* `%a<from>, ...` (n of them) and `T, ...` (n of them). */
static void operands(ptoc_strbuf *sb, uint32_t from, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        ptoc_strbuf_printf(sb, "%s%%a%u", i ? ", " : "", from + i);
}

static void types(ptoc_strbuf *sb, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        ptoc_strbuf_printf(sb, "%s" TILE, i ? ", " : "");
}

/* ` ins(%a1 : T)`: a DPS group of n operands from `from`, nothing when n is 0. */
static void group(ptoc_strbuf *sb, const char *keyword, uint32_t from, uint32_t n)
{
    if (!n)
        return;
    ptoc_strbuf_printf(sb, " %s(", keyword);
    operands(sb, from, n);
    ptoc_strbuf_puts(sb, " : ");
    types(sb, n);
    ptoc_strbuf_puts(sb, ")");
}

static void results(ptoc_strbuf *sb, uint32_t nres)
{
    if (nres == 1)
        ptoc_strbuf_puts(sb, "%r = ");
    else if (nres > 1)
        ptoc_strbuf_printf(sb, "%%r:%u = ", nres);
}

static void result_types(ptoc_strbuf *sb, uint32_t nres)
{
    ptoc_strbuf_puts(sb, nres == 1 ? " -> " : " -> (");
    types(sb, nres);
    if (nres != 1)
        ptoc_strbuf_puts(sb, ")");
}

/* Both strings present and equal; otherwise says which op and spelling. */
static void same(const char *op, const char *what, const char *a, const char *b)
{
    bool ok = a && b && strcmp(a, b) == 0;
    if (!ok)
        fprintf(stderr, "%s: the %s spelling differs:\n%s\nvs\n%s\n", op, what, a ? a : "(none)", b ? b : "(none)");
    CHECK(ok);
}

/* The Level-1 forms of row `info` with n operands and nres results. */
static void check_level1(ptoc_context *ctx, const ptoc_pto_op_info *info, uint32_t n, uint32_t nres)
{
    const char *bare = info->name + strlen("pto.");
    ptoc_strbuf plain, paren, as;
    ptoc_strbuf_init(&plain, ctx);
    ptoc_strbuf_init(&paren, ctx);
    ptoc_strbuf_init(&as, ctx);
    results(&plain, nres);
    ptoc_strbuf_printf(&plain, "%s ", info->name);
    operands(&plain, 0, n);
    results(&paren, nres);
    ptoc_strbuf_printf(&paren, "%s ", info->name);
    operands(&paren, 0, n);
    if (n) {
        ptoc_strbuf_puts(&plain, " : ");
        types(&plain, n);
    }
    ptoc_strbuf_puts(&paren, " : (");
    types(&paren, n);
    ptoc_strbuf_puts(&paren, ")");
    result_types(&plain, nres);
    result_types(&paren, nres);
    results(&as, nres);
    ptoc_strbuf_printf(&as, "%s ", bare);
    operands(&as, 0, n);
    ptoc_strbuf_puts(&as, " : ");
    if (nres == 1)
        ptoc_strbuf_puts(&as, TILE);
    else {
        ptoc_strbuf_puts(&as, "(");
        types(&as, n);
        ptoc_strbuf_puts(&as, ")");
        result_types(&as, nres);
    }
    char *a = generic_of(ctx, ptoc_strbuf_cstr(&plain), n, false);
    char *b = generic_of(ctx, ptoc_strbuf_cstr(&paren), n, false);
    char *c = nres ? generic_of(ctx, ptoc_strbuf_cstr(&as), n, true) : NULL;
    same(info->name, "parenthesised Level-1", a, b);
    if (nres)
        same(info->name, "PTO-AS Level-1", a, c);
    free(a);
    free(b);
    free(c);
    ptoc_strbuf_free(&plain);
    ptoc_strbuf_free(&paren);
    ptoc_strbuf_free(&as);
}

/* The DPS form with nin ins and nout outs against its PTO-AS statement. */
static void check_dps(ptoc_context *ctx, const ptoc_pto_op_info *info, uint32_t nin, uint32_t nout)
{
    bool ins_first = strcmp(info->name, "pto.tstore") == 0;
    uint32_t first_in = ins_first ? 0 : nout, first_out = ins_first ? nin : 0;
    ptoc_strbuf dps, as;
    ptoc_strbuf_init(&dps, ctx);
    ptoc_strbuf_init(&as, ctx);
    ptoc_strbuf_printf(&dps, "%s", info->name);
    group(&dps, "ins", first_in, nin);
    group(&dps, "outs", first_out, nout);
    ptoc_strbuf_printf(&as, "%s ", info->name + strlen("pto."));
    operands(&as, 0, nin + nout);
    char *a = generic_of(ctx, ptoc_strbuf_cstr(&dps), nin + nout, false);
    char *b = generic_of(ctx, ptoc_strbuf_cstr(&as), nin + nout, true);
    same(info->name, "PTO-AS DPS", a, b);
    free(a);
    free(b);
    ptoc_strbuf_free(&dps);
    ptoc_strbuf_free(&as);
}

int main(void)
{
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    size_t rows = 0;
    for (size_t i = 0; i < ptoc_pto_op_count(); i++) {
        const ptoc_pto_op_info *info = ptoc_pto_op_info_at(i);
        if (!info->level1)
            continue;
        rows++;
        /* Two operands where the op takes them (so lists are lists), else its count. */
        uint32_t n = info->min_ins > 2 ? info->min_ins : info->max_ins < 2 ? info->max_ins : 2;
        uint32_t nres = info->min_outs ? info->min_outs : info->max_outs ? 1 : 0;
        check_level1(ctx, info, n, nres);
        if (info->min_outs == info->max_outs && info->max_outs != PTOC_PTO_VARIADIC)
            check_dps(ctx, info, n, info->max_outs);
    }
    /* Every DPS/SSA row, tload, tstore and tmov: the table has more than 120. */
    CHECK(rows > 120);
    fprintf(stderr, "%zu ops with a Level-1 form\n", rows);
    ptoc_context_destroy(ctx);
    return CHECK_DONE();
}
