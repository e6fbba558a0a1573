/* test_dtype_table.c: the pto verifier agrees with its element type table
 * (dialect/pto_dtypes.def) for every row, arch and element type class.
 *
 * For each set row, each of a2, a3, a5 and cpu and each class C, an op is
 * built from its fixture (dtype_fixtures.inc, which generate.py writes with
 * the lit tests of test/dialect/pto/dtypes): the row's operand gets class C,
 * so do the operands the table ties to it by same-type rows, the row's
 * conditions are met, and the other operands take the fixture's defaults. The
 * test evaluates the table itself on that assignment (the op's rows in order,
 * as the table's header states them) and requires the verifier to accept
 * exactly when the table does. Every row must also be accepted for some class
 * on each arch whose set is not empty, so no row is only ever seen rejecting.
 * A same-type row: its operand with another type than its partner is
 * rejected. And the rows of one op are contiguous, as the verifier's lookup
 * of them requires.
 */
#include "check.h"

#include "ptoc/pto.h"
#include "ptoc/ptoc.h"
#include "ptoc/syntax.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- fixtures */

typedef struct operand {
    char role[24], loc[16], shape[16], dflt[16], extra[64];
    char kind;                       /* 't' tile, 's' scalar, 'i' index */
    bool out;
} operand;

typedef struct fixture {
    ptoc_pto_op_id op;
    const char *locs, *overrides;
    operand operands[12];
    int n;
} fixture;

static const struct {
    ptoc_pto_op_id op;
    const char *locs, *ins, *outs, *overrides;
} fixture_text[] = {
#define FIXTURE(op, locs, ins, outs, overrides) {PTOC_PTO_OP_##op, locs, ins, outs, overrides},
#include "dtype_fixtures.inc"
#undef FIXTURE
};
#define NFIXTURES (sizeof fixture_text / sizeof fixture_text[0])

/* Splits `field` of `s` (fields separated by `sep`) into buf. */
static void field(const char *s, char sep, int k, char *buf, size_t n)
{
    for (int i = 0; i < k && s; i++) {
        s = strchr(s, sep);
        s = s ? s + 1 : NULL;
    }
    size_t len = s ? strcspn(s, (char[]){sep, '\0'}) : 0;
    snprintf(buf, n, "%.*s", (int)len, s ? s : "");
}

static void parse_operands(fixture *f, const char *list, bool out)
{
    for (int k = 0;; k++) {
        char item[160];
        field(list, ';', k, item, sizeof item);
        if (!item[0])
            return;
        operand *o = &f->operands[f->n++];
        memset(o, 0, sizeof *o);
        o->out = out;
        field(item, ':', 0, o->role, sizeof o->role);
        char kind[4];
        field(item, ':', 1, kind, sizeof kind);
        o->kind = kind[0];
        field(item, ':', 2, o->kind == 's' ? o->dflt : o->loc, sizeof o->loc);
        field(item, ':', 3, o->shape, sizeof o->shape);
        if (o->kind == 't') {
            field(item, ':', 4, o->dflt, sizeof o->dflt);
            field(item, ':', 5, o->extra, sizeof o->extra);
        }
    }
}

/* The loc conditions of `when` ("src@acc src=f32" -> "src@acc"). */
static void loc_part(const char *when, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int k = 0;; k++) {
        char w[48];
        field(when, ' ', k, w, sizeof w);
        if (!w[0])
            return;
        if (strchr(w, '@'))
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? " " : "", w);
    }
}

static bool find_fixture(ptoc_pto_op_id op, const char *when, fixture *f)
{
    char locs[96];
    loc_part(when, locs, sizeof locs);
    for (size_t i = 0; i < NFIXTURES; i++) {
        if (fixture_text[i].op != op || strcmp(fixture_text[i].locs, locs))
            continue;
        memset(f, 0, sizeof *f);
        f->op = op;
        f->locs = fixture_text[i].locs;
        f->overrides = fixture_text[i].overrides;
        parse_operands(f, fixture_text[i].ins, false);
        parse_operands(f, fixture_text[i].outs, true);
        return true;
    }
    return false;
}

static const operand *operand_of(const fixture *f, const char *role)
{
    for (int i = 0; i < f->n; i++)
        if (!strcmp(f->operands[i].role, role))
            return &f->operands[i];
    return NULL;
}

/* ---------------------------------------------------------------- assignments */

/* The class name of each tile operand (by its index in the fixture). */
typedef struct assignment {
    char cls[12][16];                /* as long as an operand's default */
} assignment;

static int index_of(const fixture *f, const char *role)
{
    const operand *o = operand_of(f, role);
    return o && o->kind == 't' ? (int)(o - f->operands) : -1;
}

static void set_class(const fixture *f, assignment *a, const char *role, const char *cls, bool force)
{
    int i = index_of(f, role);
    if (i >= 0 && (force || !a->cls[i][0]))
        snprintf(a->cls[i], sizeof a->cls[i], "%s", cls);
}

/* Whether the condition `w` ("role=class" or "role@loc") holds. */
static bool fact_holds(const fixture *f, const assignment *a, const char *w)
{
    char role[24], value[24];
    size_t cut = strcspn(w, "=@");
    snprintf(role, sizeof role, "%.*s", (int)cut, w);
    snprintf(value, sizeof value, "%s", w[cut] ? w + cut + 1 : "");
    int i = index_of(f, role);
    if (i < 0)
        return false;
    return w[cut] == '=' ? !strcmp(a->cls[i], value) : !strcmp(f->operands[i].loc, value);
}

static bool when_holds(const fixture *f, const assignment *a, const char *when)
{
    for (int k = 0;; k++) {
        char w[48];
        field(when, ' ', k, w, sizeof w);
        if (!w[0])
            return true;
        if (!fact_holds(f, a, w))
            return false;
    }
}

/* Gives `role` class `cls`, and every operand a same-type row ties to it. */
static void set_with_partners(const fixture *f, assignment *a, const char *role, const char *cls)
{
    set_class(f, a, role, cls, true);
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < ptoc_pto_dtype_rule_count(); i++) {
            const ptoc_pto_dtype_rule *r = ptoc_pto_dtype_rule_at(i);
            if (!r->same_as || r->op != f->op)
                continue;
            char locs[96];
            loc_part(r->when, locs, sizeof locs);
            if (strcmp(locs, "") && strcmp(locs, f->locs))
                continue;
            int x = index_of(f, r->role), y = index_of(f, r->same_as);
            if (x < 0 || y < 0)
                continue;
            int from = !strcmp(a->cls[x], cls) ? x : !strcmp(a->cls[y], cls) ? y : -1;
            int to = from == x ? y : x;
            if (from >= 0 && strcmp(a->cls[to], cls)) {
                snprintf(a->cls[to], sizeof a->cls[to], "%s", cls);
                changed = true;
            }
        }
    }
}

static void apply_overrides(const fixture *f, assignment *a)
{
    for (int k = 0;; k++) {
        char ov[96], fact[48], sets[64];
        field(f->overrides, ';', k, ov, sizeof ov);
        if (!ov[0])
            return;
        field(ov, '>', 0, fact, sizeof fact);
        field(ov, '>', 1, sets, sizeof sets);
        if (!fact_holds(f, a, fact))
            continue;
        for (int j = 0;; j++) {
            char s[32], role[24], cls[12];
            field(sets, ',', j, s, sizeof s);
            if (!s[0])
                break;
            field(s, '=', 0, role, sizeof role);
            field(s, '=', 1, cls, sizeof cls);
            set_class(f, a, role, cls, false);
        }
    }
}

static void apply_defaults(const fixture *f, assignment *a)
{
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < f->n; i++) {
            const operand *o = &f->operands[i];
            if (o->kind != 't' || a->cls[i][0])
                continue;
            int from = o->dflt[0] == '=' ? index_of(f, o->dflt + 1) : -1;
            if (o->dflt[0] != '=')
                snprintf(a->cls[i], sizeof a->cls[i], "%s", o->dflt);
            else if (from >= 0 && from != i && a->cls[from][0])
                memcpy(a->cls[i], a->cls[from], sizeof a->cls[i]);
        }
}

/* The row's operand of class `cls`, the row's conditions, then the rest. */
static assignment assign(const fixture *f, const ptoc_pto_dtype_rule *r, const char *cls)
{
    assignment a;
    memset(&a, 0, sizeof a);
    set_with_partners(f, &a, r->role, cls);
    for (int k = 0;; k++) {
        char w[48], role[24];
        field(r->when, ' ', k, w, sizeof w);
        if (!w[0])
            break;
        if (!strchr(w, '='))
            continue;
        field(w, '=', 0, role, sizeof role);
        set_class(f, &a, role, strchr(w, '=') + 1, false);
    }
    apply_overrides(f, &a);
    apply_defaults(f, &a);
    return a;
}

/* ---------------------------------------------------------------- the table's verdict */

static uint32_t class_bit(const char *name)
{
    for (unsigned i = 0; i < PTOC_PTO_DT_COUNT; i++)
        if (!strcmp(ptoc_pto_dtype_class_name(1u << i), name))
            return 1u << i;
    return 0;
}

static bool op_implemented(ptoc_pto_op_id op, ptoc_pto_arch arch)
{
    bool any = false;
    for (size_t i = 0; i < ptoc_pto_dtype_rule_count(); i++) {
        const ptoc_pto_dtype_rule *r = ptoc_pto_dtype_rule_at(i);
        if (r->op != op || r->same_as)
            continue;
        any = true;
        if (ptoc_pto_dtype_rule_set(r, arch))
            return true;
    }
    return !any;
}

/* What the table says of the instance: every applying row holds. */
static bool table_accepts(const fixture *f, const assignment *a, ptoc_pto_arch arch)
{
    if (!op_implemented(f->op, arch))
        return false;
    /* thistogram's own rule comes first: a 16- or 32-bit integer source. */
    int src = index_of(f, "src");
    if (f->op == PTOC_PTO_OP_THISTOGRAM && !(class_bit(a->cls[src]) & (PTOC_PTO_DT_I16 | PTOC_PTO_DT_U16 |
                                                                       PTOC_PTO_DT_I32 | PTOC_PTO_DT_U32)))
        return false;
    for (size_t i = 0; i < ptoc_pto_dtype_rule_count(); i++) {
        const ptoc_pto_dtype_rule *r = ptoc_pto_dtype_rule_at(i);
        int x = index_of(f, r->role);
        if (r->op != f->op || x < 0 || !when_holds(f, a, r->when))
            continue;
        if (!r->same_as && !(class_bit(a->cls[x]) & ptoc_pto_dtype_rule_set(r, arch)))
            return false;
        int y = r->same_as ? index_of(f, r->same_as) : -1;
        if (y >= 0 && strcmp(a->cls[x], a->cls[y]))
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------- the verifier's verdict */

static const char *type_of_class(const char *cls)
{
    return !strcmp(cls, "f8E4M3") ? "f8E4M3FN" : !strcmp(cls, "other") ? "f64" : cls;
}

static void append_group(char *text, size_t n, const fixture *f, const assignment *a, bool out, char *args,
                         size_t nargs)
{
    char names[256] = "", types[1024] = "";
    for (int i = 0; i < f->n; i++) {
        const operand *o = &f->operands[i];
        if (o->out != out)
            continue;
        char ty[160];
        if (o->kind == 'i')
            snprintf(ty, sizeof ty, "index");
        else if (o->kind == 's')
            snprintf(ty, sizeof ty, "%s", o->dflt);
        else
            snprintf(ty, sizeof ty, "!pto.tile_buf<%s, %sx%s%s>", o->loc, o->shape, type_of_class(a->cls[i]),
                     o->extra);
        char name[16];
        snprintf(name, sizeof name, o->kind == 'i' ? "%%c0" : "%%a%d", i);
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? ", " : "", name);
        snprintf(types + strlen(types), sizeof types - strlen(types), "%s%s", types[0] ? ", " : "", ty);
        if (o->kind != 'i')
            snprintf(args + strlen(args), nargs - strlen(args), "%s%s: %s", args[0] ? ", " : "", name, ty);
    }
    snprintf(text + strlen(text), n - strlen(text), " %s(%s : %s)", out ? "outs" : "ins", names, types);
}

static void ignore(void *user, const ptoc_diagnostic *d)
{
    (void)user;
    (void)d;
}

static bool verifier_accepts(ptoc_context *ctx, const fixture *f, const assignment *a, ptoc_pto_arch arch)
{
    char op[2048] = "", args[2048] = "", text[4608];
    snprintf(op, sizeof op, "%s", ptoc_pto_op_name(f->op));
    append_group(op, sizeof op, f, a, false, args, sizeof args);
    append_group(op, sizeof op, f, a, true, args, sizeof args);
    snprintf(text, sizeof text,
             "module attributes {pto.target_arch = \"%s\"} {\n  func.func @k(%s) {\n    %%c0 = arith.constant 0 : "
             "index\n    %s\n    return\n  }\n}\n",
             ptoc_pto_arch_name(arch), args, op);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = ptoc_parse(ctx, arena, text, strlen(text), "k.pto", NULL);
    bool ok = module && ptoc_verify(module);
    if (!module)
        fprintf(stderr, "fixture does not parse:\n%s", text);
    CHECK(module != NULL);
    ptoc_arena_destroy(arena);
    return ok;
}

/* ---------------------------------------------------------------- the walk */

static const ptoc_pto_arch archs[] = {PTOC_PTO_ARCH_A2, PTOC_PTO_ARCH_A3, PTOC_PTO_ARCH_A5, PTOC_PTO_ARCH_CPU};

static void check_set_row(ptoc_context *ctx, const ptoc_pto_dtype_rule *r, const fixture *f)
{
    for (size_t k = 0; k < sizeof archs / sizeof archs[0]; k++) {
        int accepted = 0;
        for (unsigned c = 0; c < PTOC_PTO_DT_COUNT; c++) {
            assignment a = assign(f, r, ptoc_pto_dtype_class_name(1u << c));
            bool want = table_accepts(f, &a, archs[k]), got = verifier_accepts(ctx, f, &a, archs[k]);
            accepted += got;
            if (want != got)
                fprintf(stderr, "%s %s when '%s' on %s with %s: the table %s, the verifier %s\n",
                        ptoc_pto_op_name(r->op), r->role, r->when, ptoc_pto_arch_name(archs[k]),
                        ptoc_pto_dtype_class_name(1u << c), want ? "accepts" : "rejects", got ? "accepts" : "rejects");
            CHECK(want == got);
        }
        if (ptoc_pto_dtype_rule_set(r, archs[k]) && !accepted)
            fprintf(stderr, "%s %s when '%s' on %s: no class accepted\n", ptoc_pto_op_name(r->op), r->role,
                    r->when, ptoc_pto_arch_name(archs[k]));
        CHECK(accepted > 0 || !ptoc_pto_dtype_rule_set(r, archs[k]));
    }
}

/* A same-type row: with its partner's type it may verify, with another it must not. */
static void check_same_row(ptoc_context *ctx, const ptoc_pto_dtype_rule *r, const fixture *f)
{
    if (index_of(f, r->role) < 0)
        return;                               /* a scalar in this fixture */
    for (unsigned c = 0; c < PTOC_PTO_DT_COUNT; c++) {
        assignment a = assign(f, r, ptoc_pto_dtype_class_name(1u << c));
        if (!table_accepts(f, &a, PTOC_PTO_ARCH_A5))
            continue;
        const char *other = strcmp(a.cls[index_of(f, r->role)], "f16") ? "f16" : "f32";
        snprintf(a.cls[index_of(f, r->role)], sizeof a.cls[0], "%s", other);
        CHECK(!verifier_accepts(ctx, f, &a, PTOC_PTO_ARCH_A5));
        return;
    }
    fprintf(stderr, "%s %s: no accepted instance to break\n", ptoc_pto_op_name(r->op), r->role);
    CHECK(false);
}

/* A fixture names the op's operands as the table does: its ins a prefix of
 * the op's roles (optional trailing ins may be left out), its outs all. */
static void check_fixture_roles(const fixture *f)
{
    const char *roles = ptoc_pto_op_roles(f->op);
    CHECK(roles != NULL);
    if (!roles)
        return;
    char ins[160] = "", outs[160] = "";
    for (int i = 0; i < f->n; i++) {
        char *list = f->operands[i].out ? outs : ins;
        snprintf(list + strlen(list), 160 - strlen(list), "%s%s", list[0] ? " " : "", f->operands[i].role);
    }
    const char *bar = strstr(roles, " | ");
    bool ok = bar && !strncmp(roles, ins, strlen(ins)) && (roles[strlen(ins)] == ' ' || !ins[0]) &&
              !strcmp(bar + 3, outs);
    if (!ok)
        fprintf(stderr, "fixture of %s names %s | %s, the table %s\n", ptoc_pto_op_name(f->op), ins, outs, roles);
    CHECK(ok);
}

/* The rows of each op form one run in the table. */
static void check_contiguous(void)
{
    for (size_t i = 1; i < ptoc_pto_dtype_rule_count(); i++) {
        ptoc_pto_op_id op = ptoc_pto_dtype_rule_at(i)->op;
        if (op == ptoc_pto_dtype_rule_at(i - 1)->op)
            continue;
        for (size_t j = 0; j + 1 < i; j++)
            if (ptoc_pto_dtype_rule_at(j)->op == op) {
                fprintf(stderr, "the rows of %s are split (rows %zu and %zu)\n", ptoc_pto_op_name(op), j, i);
                CHECK(false);
                break;
            }
    }
}

int main(void)
{
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all_dialects(ctx);
    ptoc_context_set_diag_handler(ctx, ignore, NULL, NULL);
    CHECK(ptoc_pto_dtype_rule_count() > 0);
    check_contiguous();
    for (size_t i = 0; i < ptoc_pto_dtype_rule_count(); i++) {
        const ptoc_pto_dtype_rule *r = ptoc_pto_dtype_rule_at(i);
        fixture f;
        bool found = find_fixture(r->op, r->when, &f);
        if (!found)
            fprintf(stderr, "no fixture for %s when '%s'\n", ptoc_pto_op_name(r->op), r->when);
        CHECK(found);
        if (found)
            check_fixture_roles(&f);
        if (found && r->same_as)
            check_same_row(ctx, r, &f);
        else if (found)
            check_set_row(ctx, r, &f);
    }
    ptoc_context_destroy(ctx);
    return CHECK_DONE();
}
