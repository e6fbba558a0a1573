/* jit.c: running a lowered module in this process with ORC LLJIT.
 *
 * The JIT compiles for the same CPU and features as the module's own target
 * machine (so -mcpu/-mattr mean the same for --run as for -emit=obj). What
 * kernels call at run time is the target's (its backend's jit_runtime). The
 * cpu target's, cg_cpu_jit_runtime, is here: the entry points of the runtime
 * (ptoc/runtime.h) are defined in the JIT as absolute symbols at their
 * addresses in this process, which works whether or not the executable exports
 * them; anything else a kernel calls (libm's expf, memcpy, memset) is found by
 * searching the process's loaded libraries.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ptoc_jit {
    LLVMOrcLLJITRef jit;
};

/* Sets *err to "prefix: <the error's message>" (malloc'd), consuming `e`. */
static void set_error(char **err, const char *prefix, LLVMErrorRef e)
{
    char *msg = LLVMGetErrorMessage(e);
    if (err) {
        size_t n = strlen(prefix) + strlen(msg) + 3;
        *err = malloc(n);
        if (*err)
            snprintf(*err, n, "%s: %s", prefix, msg);
    }
    LLVMDisposeErrorMessage(msg);
}

static void set_message(char **err, const char *msg)
{
    if (err) {
        *err = malloc(strlen(msg) + 1);
        if (*err)
            strcpy(*err, msg);
    }
}

/* The runtime entry points kernels may call: one row each. (C lets any pointer,
 * a function pointer too, convert to an integer: that is the symbol's address.) */
typedef struct rt_symbol {
    const char *name;
    void (*fn)(void);
} rt_symbol;

static const rt_symbol runtime_symbols[] = {
    {"ptoc_rt_space_base", (void (*)(void))ptoc_rt_space_base},
    {"ptoc_rt_block_idx", (void (*)(void))ptoc_rt_block_idx},
    {"ptoc_rt_block_num", (void (*)(void))ptoc_rt_block_num},
    {"ptoc_rt_trap", (void (*)(void))ptoc_rt_trap},
    {"ptoc_rt_gm_check", (void (*)(void))ptoc_rt_gm_check},
    {"ptoc_rt_pipe_op", (void (*)(void))ptoc_rt_pipe_op},
    {"ptoc_rt_pipe_op_cycles", (void (*)(void))ptoc_rt_pipe_op_cycles},
    {"ptoc_rt_pipe_set", (void (*)(void))ptoc_rt_pipe_set},
    {"ptoc_rt_pipe_wait", (void (*)(void))ptoc_rt_pipe_wait},
    {"ptoc_rt_pipe_barrier", (void (*)(void))ptoc_rt_pipe_barrier},
    {"ptoc_rt_cores_run", (void (*)(void))ptoc_rt_cores_run},
    {"ptoc_rt_core_runs", (void (*)(void))ptoc_rt_core_runs},
    {"ptoc_rt_subblock_idx", (void (*)(void))ptoc_rt_subblock_idx},
    {"ptoc_rt_subblock_num", (void (*)(void))ptoc_rt_subblock_num},
    {"ptoc_rt_xsync_set", (void (*)(void))ptoc_rt_xsync_set},
    {"ptoc_rt_xsync_wait", (void (*)(void))ptoc_rt_xsync_wait},
    {"ptoc_rt_xpipe_init", (void (*)(void))ptoc_rt_xpipe_init},
    {"ptoc_rt_xpipe_frontend", (void (*)(void))ptoc_rt_xpipe_frontend},
    {"ptoc_rt_xpipe_push", (void (*)(void))ptoc_rt_xpipe_push},
    {"ptoc_rt_xpipe_pushed", (void (*)(void))ptoc_rt_xpipe_pushed},
    {"ptoc_rt_xpipe_pop", (void (*)(void))ptoc_rt_xpipe_pop},
    {"ptoc_rt_xpipe_free", (void (*)(void))ptoc_rt_xpipe_free},
    {"ptoc_rt_xpipe_pop_events", (void (*)(void))ptoc_rt_xpipe_pop_events},
    {"ptoc_rt_xpipe_free_events", (void (*)(void))ptoc_rt_xpipe_free_events},
    {"ptoc_rt_async_copy", (void (*)(void))ptoc_rt_async_copy},
    {"ptoc_rt_async_wait", (void (*)(void))ptoc_rt_async_wait},
    {"ptoc_rt_print", (void (*)(void))ptoc_rt_print},
    {"ptoc_rt_tprint_begin", (void (*)(void))ptoc_rt_tprint_begin},
    {"ptoc_rt_tprint_value", (void (*)(void))ptoc_rt_tprint_value},
    {"ptoc_rt_tprint_row_end", (void (*)(void))ptoc_rt_tprint_row_end},
    {"ptoc_rt_tprint_end", (void (*)(void))ptoc_rt_tprint_end},
};
enum { RUNTIME_SYMBOL_COUNT = sizeof runtime_symbols / sizeof runtime_symbols[0] };

static LLVMErrorRef define_runtime(LLVMOrcLLJITRef jit, LLVMOrcJITDylibRef jd)
{
    LLVMOrcCSymbolMapPair pairs[RUNTIME_SYMBOL_COUNT];
    for (size_t i = 0; i < RUNTIME_SYMBOL_COUNT; i++) {
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit, runtime_symbols[i].name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)runtime_symbols[i].fn;
        pairs[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
        pairs[i].Sym.Flags.TargetFlags = 0;
    }
    return LLVMOrcJITDylibDefine(jd, LLVMOrcAbsoluteSymbols(pairs, RUNTIME_SYMBOL_COUNT));
}

static LLVMErrorRef add_process_symbols(LLVMOrcLLJITRef jit, LLVMOrcJITDylibRef jd)
{
    LLVMOrcDefinitionGeneratorRef gen = NULL;
    LLVMErrorRef e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
        &gen, LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL);
    if (!e)
        LLVMOrcJITDylibAddGenerator(jd, gen);
    return e;
}

/* A target machine builder for the module's CPU and features. The builder takes
 * ownership of the machine it is made from, so it gets a copy of m->tm. */
static LLVMOrcJITTargetMachineBuilderRef machine_builder(const ptoc_llvm_module *m)
{
    char *triple = LLVMGetTargetMachineTriple(m->tm);
    char *cpu = LLVMGetTargetMachineCPU(m->tm);
    char *features = LLVMGetTargetMachineFeatureString(m->tm);
    static const LLVMCodeGenOptLevel levels[] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess,
                                                 LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
    int level = m->opts.opt_level < 0 ? 0 : m->opts.opt_level > 3 ? 3 : m->opts.opt_level;
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(LLVMGetTargetMachineTarget(m->tm), triple, cpu,
                                                      features, levels[level], LLVMRelocPIC,
                                                      LLVMCodeModelJITDefault);
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    return tm ? LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm) : NULL;
}

LLVMErrorRef cg_cpu_jit_runtime(LLVMOrcLLJITRef jit, LLVMOrcJITDylibRef jd)
{
    LLVMErrorRef e = define_runtime(jit, jd);
    return e ? e : add_process_symbols(jit, jd);
}

static LLVMOrcLLJITRef create_lljit(const ptoc_llvm_module *m, char **err)
{
    LLVMOrcJITTargetMachineBuilderRef jtmb = machine_builder(m);
    if (!jtmb) {
        set_message(err, "cannot create a target machine for the JIT");
        return NULL;
    }
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);
    LLVMOrcLLJITRef jit = NULL;
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&jit, builder);
    if (e) {
        set_error(err, "cannot create the JIT", e);
        return NULL;
    }
    e = m->opts.target->backend->jit_runtime(jit, LLVMOrcLLJITGetMainJITDylib(jit));
    if (e) {
        set_error(err, "cannot set up the JIT's symbols", e);
        LLVMOrcDisposeLLJIT(jit);
        return NULL;
    }
    return jit;
}

ptoc_jit *ptoc_jit_create(ptoc_llvm_module *m, char **err)
{
    if (!ptoc_target_runs(m->opts.target) || m->opts.keep_intrinsics) {
        set_message(err, m->opts.keep_intrinsics ? "a module that keeps its intrinsics does not run"
                                                 : "the target does not run in this process");
        ptoc_llvm_module_destroy(m);
        return NULL;
    }
    if (!cg_link_intrinsics(m, err)) {
        ptoc_llvm_module_destroy(m);
        return NULL;
    }
    ptoc_jit *j = calloc(1, sizeof *j);
    LLVMOrcLLJITRef jit = j ? create_lljit(m, err) : NULL;
    if (!jit) {
        if (!j)
            set_message(err, "out of memory");
        free(j);
        ptoc_llvm_module_destroy(m);
        return NULL;
    }
    j->jit = jit;
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m->mod, m->tsc);
    m->mod = NULL;             /* the thread-safe module owns it now */
    ptoc_llvm_module_destroy(m);
    LLVMErrorRef e = LLVMOrcLLJITAddLLVMIRModule(jit, LLVMOrcLLJITGetMainJITDylib(jit), tsm);
    if (e) {
        LLVMOrcDisposeThreadSafeModule(tsm);
        set_error(err, "cannot add the module to the JIT", e);
        ptoc_jit_destroy(j);
        return NULL;
    }
    return j;
}

void *ptoc_jit_lookup(ptoc_jit *j, const char *name)
{
    LLVMOrcExecutorAddress addr = 0;
    LLVMErrorRef e = LLVMOrcLLJITLookup(j->jit, &addr, name);
    if (e) {
        LLVMConsumeError(e);
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}

void ptoc_jit_destroy(ptoc_jit *j)
{
    if (!j)
        return;
    LLVMErrorRef e = LLVMOrcDisposeLLJIT(j->jit);
    if (e)
        LLVMConsumeError(e);
    free(j);
}
