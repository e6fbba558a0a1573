/* test_target_seam.c: the list of targets is the one place a target is
 * described. A dummy target registered with a single rule (func.return, which
 * leaves a marker global in the module) is found by its name and its alias in
 * any case, as -target finds a target; iteration lists it after the built-in
 * entries; codegen asks its rules and no other (the marker appears, an op it
 * has no rule for is refused in its name, the cpu target's own rules do not
 * apply). The built-in entries say what the driver relies on: a2a3 answers to
 * a2 and a3, which keep their own arch; a2a3, a5 and cpu generate code and
 * run (a5 after its lowering passes, pto-lower-a5); cpu is the default. A
 * registered entry without a backend verifies only: codegen refuses it.
 */
#include "check.h"
#include "lower_text.h"

#include "codegen/codegen_internal.h"
#include "ptoc/codegen.h"
#include "ptoc/ptoc.h"

#include <stdlib.h>
#include <string.h>

enum { MARKER_VALUE = 42 };

/* The dummy target's one rule: a global that says it ran, then `ret void`. */
static bool lower_marked_return(cg *g, ptoc_op *op, const cg_rule *rule)
{
    (void)op;
    LLVMValueRef marker = LLVMAddGlobal(g->mod, g->i32, "dummy_rule_ran");
    LLVMSetInitializer(marker, LLVMConstInt(g->i32, (unsigned long long)rule->arg, false));
    LLVMBuildRetVoid(g->b);
    return true;
}

static const cg_rule dummy_rules[] = {{STD("func.return"), lower_marked_return, MARKER_VALUE}};
static const size_t dummy_rule_count = 1;
static const cg_rule_table dummy_tables[] = {{dummy_rules, &dummy_rule_count}};
static const char *const dummy_aliases[] = {"dummy-alias", NULL};

/* Its type mapping and machine are the cpu target's (copied in main); it does
 * not run. */
static ptoc_target_backend dummy_backend;
static const ptoc_target dummy = {.name = "dummy", .aliases = dummy_aliases, .arch = "cpu",
                                  .pipeline = ptoc_level_pipeline, .backend = &dummy_backend};

static const char empty_kernel[] = "func.func @k() {\n  return\n}\n";
static const char constant_kernel[] =
    "func.func @k() {\n"
    "  %c = arith.constant 1 : i32\n"
    "  return\n"
    "}\n";

static void check_builtin_entries(void)
{
    const ptoc_target *cpu = ptoc_target_find("cpu"), *a5 = ptoc_target_find("a5");
    const ptoc_target *a2a3 = ptoc_target_find("a2a3");
    CHECK(cpu && a5 && a2a3);
    if (!cpu || !a5 || !a2a3)
        return;
    CHECK(ptoc_target_default() == cpu);
    CHECK(ptoc_codegen_defaults().target == cpu);
    CHECK(ptoc_target_find("a2") == a2a3 && ptoc_target_find("A3") == a2a3);
    CHECK(ptoc_target_find("x86") == NULL);
    CHECK(ptoc_target_generates_code(cpu) && ptoc_target_runs(cpu));
    CHECK(ptoc_target_generates_code(a5) && ptoc_target_runs(a5) && a5->lowering &&
          strcmp(a5->lowering, "pto-lower-a5,pto-split-u64") == 0 && !cpu->lowering);
    CHECK(ptoc_target_generates_code(a2a3) && ptoc_target_runs(a2a3));
    /* a spelling that is an arch name keeps that arch: a2 is not a3 */
    CHECK(strcmp(ptoc_target_arch_name(a2a3, "a2"), "a2") == 0);
    CHECK(ptoc_pto_arch_from_name(ptoc_target_arch_name(a2a3, "a2a3")) == PTOC_PTO_ARCH_A3);
    CHECK(ptoc_pto_arch_from_name(ptoc_target_arch_name(a5, "a5")) == PTOC_PTO_ARCH_A5);
    CHECK(ptoc_llvm_supports_op(cpu, "arith.addi") && ptoc_llvm_supports_op(a2a3, "arith.addi"));
    /* a5 lowers tadd through pto-lower-a5, tmatmul and tmatmul.mx by rules of
     * their own (the cube's intrinsics) */
    CHECK(ptoc_llvm_supports_pto_op(a5, PTOC_PTO_OP_TADD) && ptoc_llvm_supports_pto_op(a5, PTOC_PTO_OP_TMATMUL) &&
          ptoc_llvm_supports_pto_op(a5, PTOC_PTO_OP_TMATMUL_MX));
}

static void check_registration(void)
{
    size_t before = ptoc_target_count();
    CHECK(ptoc_target_find("dummy") == NULL);
    CHECK(ptoc_target_register(&dummy));
    CHECK(ptoc_target_count() == before + 1 && ptoc_target_at(before) == &dummy);
    CHECK(ptoc_target_find("Dummy") == &dummy && ptoc_target_find("DUMMY-ALIAS") == &dummy);
    CHECK(!ptoc_target_register(&dummy));                   /* its names are taken now */
    static const char *const takes_cpu[] = {"cpu", NULL};
    static const ptoc_target clash = {.name = "other", .aliases = takes_cpu, .arch = "cpu"};
    CHECK(!ptoc_target_register(&clash) && ptoc_target_find("other") == NULL);
    CHECK(strcmp(ptoc_target_arch_name(&dummy, "dummy-alias"), "cpu") == 0);
    CHECK(ptoc_target_generates_code(&dummy) && !ptoc_target_runs(&dummy));
    /* a target without rules is refused by codegen itself, not only by the driver */
    static const ptoc_target verify_only = {.name = "verify-only", .arch = "cpu"};
    CHECK(ptoc_target_register(&verify_only) && !ptoc_target_generates_code(&verify_only));
    CHECK(lower_text(&verify_only, NULL, empty_kernel) == NULL);
    CHECK(strstr(lower_text_error, "code generation for target 'verify-only' is not implemented") != NULL);
}

static void check_lowering(void)
{
    CHECK(ptoc_llvm_supports_op(&dummy, "func.return"));
    CHECK(!ptoc_llvm_supports_op(&dummy, "arith.constant"));
    char *ir = lower_text(&dummy, NULL, empty_kernel);
    CHECK(ir && strstr(ir, "@dummy_rule_ran = global i32 42") && strstr(ir, "ret void"));
    free(ir);
    ir = lower_text(ptoc_target_find("cpu"), NULL, empty_kernel);
    CHECK(ir && !strstr(ir, "dummy_rule_ran"));
    free(ir);
    CHECK(lower_text(&dummy, NULL, constant_kernel) == NULL);
    CHECK(strcmp(lower_text_error, "2:8: 'arith.constant' op is not supported by the dummy target yet") == 0);
}

int main(void)
{
    dummy_backend = *ptoc_target_default()->backend;
    dummy_backend.tables = dummy_tables;
    dummy_backend.ntables = 1;
    dummy_backend.jit_runtime = NULL;
    check_builtin_entries();
    check_registration();
    check_lowering();
    return CHECK_DONE();
}
