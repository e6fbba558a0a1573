/* targets.c: the list of targets (codegen.h's ptoc_target), one entry each.
 *
 * An entry says everything that differs between targets: its names, the pto
 * arch it implies, the pipeline the driver runs before code generation and its
 * backend (codegen_internal.h): the rule tables that lower its ops, its type
 * mapping, its target machine and its runtime in the JIT. An entry without a
 * backend verifies only. The driver and module.c read the entries and never
 * compare target names.
 *
 * The built-in entries come first, in the order -target's help lists them;
 * ptoc_target_register appends entries of its caller's own (a library user's
 * target, a unit test's). Names are matched in any case, like arch names.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/ptoc.h"

#include <ctype.h>
#include <stdbool.h>

/* ---------------------------------------------------------------- the cpu backend */

/* The cpu target lowers every op by codegen's own tables (the A2/A3 repeat
 * intrinsics too: lower_a2a3.c runs them on the host). */
static const cg_rule_table cpu_rule_tables[] = {
    {cg_std_rules, &cg_std_rule_count},
    {cg_pto_xcore_rules, &cg_pto_xcore_rule_count},
    {cg_pto_mem_rules, &cg_pto_mem_rule_count},
    {cg_pto_elementwise_rules, &cg_pto_elementwise_rule_count},
    {cg_pto_select_rules, &cg_pto_select_rule_count},
    {cg_pto_scalar_rules, &cg_pto_scalar_rule_count},
    {cg_pto_histogram_rules, &cg_pto_histogram_rule_count},
    {cg_pto_ewx_rules, &cg_pto_ewx_rule_count},
    {cg_pto_cube_rules, &cg_pto_cube_rule_count},
    {cg_pto_convert_rules, &cg_pto_convert_rule_count},
    {cg_pto_misc_rules, &cg_pto_misc_rule_count},
    {cg_pto_core_rules, &cg_pto_core_rule_count},
    {cg_pto_scalar_ptr_rules, &cg_pto_scalar_ptr_rule_count},
    {cg_pto_unary_rules, &cg_pto_unary_rule_count},
    {cg_pto_reduce_rules, &cg_pto_reduce_rule_count},
    {cg_pto_fill_rules, &cg_pto_fill_rule_count},
    {cg_pto_quant_rules, &cg_pto_quant_rule_count},
    {cg_pto_rowexpand_rules, &cg_pto_rowexpand_rule_count},
    {cg_pto_sort_rules, &cg_pto_sort_rule_count},
    {cg_pto_gather_rules, &cg_pto_gather_rule_count},
    {cg_pto_layout_rules, &cg_pto_layout_rule_count},
    {cg_pto_scope_rules, &cg_pto_scope_rule_count},
    {cg_pto_vop_rules, &cg_pto_vop_rule_count},
    {cg_pto_sort_vop_rules, &cg_pto_sort_vop_rule_count},
    {cg_a2a3_rules, &cg_a2a3_rule_count},
};

/* Scalars as LLVM has them; tiles and views as the aggregates of
 * codegen_internal.h's table. */
static void cpu_init_types(cg *g)
{
    LLVMContextRef c = g->llctx;
    g->i1 = LLVMInt1TypeInContext(c);
    g->i8 = LLVMInt8TypeInContext(c);
    g->i16 = LLVMInt16TypeInContext(c);
    g->i32 = LLVMInt32TypeInContext(c);
    g->i64 = LLVMInt64TypeInContext(c);
    g->f16 = LLVMHalfTypeInContext(c);
    g->bf16 = LLVMBFloatTypeInContext(c);
    g->f32 = LLVMFloatTypeInContext(c);
    g->f64 = LLVMDoubleTypeInContext(c);
    g->ptr = LLVMPointerTypeInContext(c, 0);
    g->void_ty = LLVMVoidTypeInContext(c);
    LLVMTypeRef tile[3] = {g->i64, g->i64, g->i64};
    g->tile_ty = LLVMStructTypeInContext(c, tile, 3, false);
    LLVMTypeRef dims = LLVMArrayType2(g->i64, PTOC_PTO_MAX_VIEW_RANK);
    LLVMTypeRef view[4] = {g->ptr, dims, dims, g->ptr};
    g->view_ty = LLVMStructTypeInContext(c, view, 4, false);
}

static const ptoc_target_backend cpu_backend = {
    .tables = cpu_rule_tables,
    .ntables = sizeof cpu_rule_tables / sizeof cpu_rule_tables[0],
    .init_types = cpu_init_types,
    .type = cg_cpu_type,
    .machine = cg_cpu_machine,
    .jit_runtime = cg_cpu_jit_runtime,
};

/* ---------------------------------------------------------------- the a5 backend */

/* The a5 target runs pto-lower-a5 first, so its vector work arrives as
 * micro-ops in vecscopes; each micro-op becomes a call of its intrinsic
 * (intrinsics.c), defined by the micro-op's rule. The DMA ops (tload,
 * tstore) move their lines as bursts of A5's copies (dma.c); the views, the
 * tile aliases (treshape, bitcast, subset ...), GM scalars, print and the sync
 * lower as on cpu, and the kernel runs on
 * the host with the cpu target's types, machine and runtime: the A5 model
 * is executable. */
static const cg_rule_table a5_rule_tables[] = {
    {cg_std_rules, &cg_std_rule_count},
    {cg_cube_model_rules, &cg_cube_model_rule_count},
    {cg_cube_mx_model_rules, &cg_cube_mx_model_rule_count},
    {cg_pto_xcore_rules, &cg_pto_xcore_rule_count},
    {cg_pto_core_rules, &cg_pto_core_rule_count},
    {cg_pto_mem_rules, &cg_pto_mem_rule_count},
    {cg_pto_scalar_rules, &cg_pto_scalar_rule_count},
    {cg_pto_scalar_ptr_rules, &cg_pto_scalar_ptr_rule_count},
    {cg_pto_scope_rules, &cg_pto_scope_rule_count},
    {cg_pto_vop_rules, &cg_pto_vop_rule_count},
    {cg_pto_sort_vop_rules, &cg_pto_sort_vop_rule_count},
};

static const ptoc_target_backend a5_backend = {
    .tables = a5_rule_tables,
    .ntables = sizeof a5_rule_tables / sizeof a5_rule_tables[0],
    .init_types = cpu_init_types,
    .type = cg_cpu_type,
    .machine = cg_cpu_machine,
    .jit_runtime = cg_cpu_jit_runtime,
    .intrinsic_prefix = "pto.a5",
    .dma = &cg_a5_dma,
    .vf_model = &cg_a5_vf_model,
    .cube_costs = &cg_a5_cube_costs,
};

/* ---------------------------------------------------------------- the a2a3 backend */

/* The a2a3 target's vector work arrives as A2/A3 repeat intrinsics; each
 * becomes a call of its intrinsic (intrinsics.c), defined by its rule
 * (lower_a2a3.c) and given the function's vector state. tload and tstore
 * move their lines as copy_gm_to_ubuf / copy_ubuf_to_gm bursts (dma.c); the
 * rest lowers as on cpu, and the kernel runs on the host with the cpu
 * target's types, machine and runtime: the A2/A3 model is executable. */
static const cg_rule_table a2a3_rule_tables[] = {
    {cg_std_rules, &cg_std_rule_count},
    {cg_cube_model_rules, &cg_cube_model_rule_count},
    {cg_pto_xcore_rules, &cg_pto_xcore_rule_count},
    {cg_pto_core_rules, &cg_pto_core_rule_count},
    {cg_pto_mem_rules, &cg_pto_mem_rule_count},
    {cg_pto_scalar_rules, &cg_pto_scalar_rule_count},
    {cg_pto_scalar_ptr_rules, &cg_pto_scalar_ptr_rule_count},
    {cg_pto_scope_rules, &cg_pto_scope_rule_count},
    {cg_a2a3_rules, &cg_a2a3_rule_count},
};

static const ptoc_target_backend a2a3_backend = {
    .tables = a2a3_rule_tables,
    .ntables = sizeof a2a3_rule_tables / sizeof a2a3_rule_tables[0],
    .init_types = cpu_init_types,
    .type = cg_cpu_type,
    .machine = cg_cpu_machine,
    .jit_runtime = cg_cpu_jit_runtime,
    .intrinsic_prefix = "pto.a2a3",
    .vf_model = &cg_a2a3_vf_model,
    .dma = &cg_a2a3_dma,
    .cube_costs = &cg_a2a3_cube_costs,
};

/* ---------------------------------------------------------------- the list */

static const char *const a2a3_aliases[] = {"a2", "a3", NULL};

enum { TARGET_A2A3, TARGET_A5, TARGET_CPU, BUILTIN_COUNT };

static const ptoc_target builtin[BUILTIN_COUNT] = {
    [TARGET_A2A3] = {.name = "a2a3", .aliases = a2a3_aliases, .arch = "a2a3",
                     .pipeline = ptoc_level_pipeline, .lowering = "pto-lower-a2a3",
                     .lowers = ptoc_lower_a2a3_lowers, .backend = &a2a3_backend},
    [TARGET_A5] = {.name = "a5", .arch = "a5", .pipeline = ptoc_level_pipeline, .lowering = "pto-lower-a5,pto-split-u64",
                   .lowers = ptoc_lower_a5_lowers, .backend = &a5_backend},
    [TARGET_CPU] = {.name = "cpu", .arch = "cpu", .pipeline = ptoc_level_pipeline, .backend = &cpu_backend},
};

enum { MAX_REGISTERED = 8 };
static const ptoc_target *registered[MAX_REGISTERED];
static size_t nregistered;

size_t ptoc_target_count(void)
{
    return BUILTIN_COUNT + nregistered;
}

const ptoc_target *ptoc_target_at(size_t i)
{
    return i < BUILTIN_COUNT ? &builtin[i] : i < ptoc_target_count() ? registered[i - BUILTIN_COUNT] : NULL;
}

const ptoc_target *ptoc_target_default(void)
{
    return &builtin[TARGET_CPU];
}

static bool same_name(const char *a, const char *b)
{
    while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b))
        a++, b++;
    return !*a && !*b;
}

static bool spelled(const ptoc_target *t, const char *name)
{
    if (same_name(t->name, name))
        return true;
    for (const char *const *a = t->aliases; a && *a; a++)
        if (same_name(*a, name))
            return true;
    return false;
}

const ptoc_target *ptoc_target_find(const char *name)
{
    for (size_t i = 0; name && i < ptoc_target_count(); i++)
        if (spelled(ptoc_target_at(i), name))
            return ptoc_target_at(i);
    return NULL;
}

bool ptoc_target_register(const ptoc_target *t)
{
    if (!t || !t->name || nregistered == MAX_REGISTERED || ptoc_target_find(t->name))
        return false;
    for (const char *const *a = t->aliases; a && *a; a++)
        if (ptoc_target_find(*a))
            return false;
    registered[nregistered++] = t;
    return true;
}

bool ptoc_target_generates_code(const ptoc_target *t)
{
    return t && t->backend && t->backend->ntables > 0;
}

bool ptoc_target_runs(const ptoc_target *t)
{
    return ptoc_target_generates_code(t) && t->backend->jit_runtime != NULL;
}

const char *ptoc_target_arch_name(const ptoc_target *t, const char *spelling)
{
    return spelling && ptoc_pto_arch_from_name(spelling) != PTOC_PTO_ARCH_INVALID ? spelling : t->arch;
}
