/* emit.c: the target machine of a lowered module and what comes out of it.
 *
 * cg_cpu_machine makes the module's target machine: the native target, the
 * default triple, the CPU and features (machine_cpu: -mcpu=NAME means NAME's
 * own features, not the host's; the host can be overridden with PTOC_HOST_CPU
 * and PTOC_HOST_FEATURES), with position-independent code so objects link into
 * PIE programs.
 * ptoc_llvm_optimize runs the new pass manager's default<On> pipeline with that
 * machine (so vectorisation sees the real vector width), without LLVM's loop
 * unroller below -O3. The emitters write
 * textual IR, assembly or an object through a temporary file and a rename, so a
 * failure never leaves a partial output; ptoc_llvm_c_header wraps the C
 * prototypes that module.c collected into a header.
 *
 * Code generation mutates the IR it runs on (codegen-only IR passes), so the
 * assembly and object emitters work on a clone: a module can be emitted
 * several times, and JIT-compiled afterwards.
 */
#include "codegen/codegen_internal.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

/* ---------------------------------------------------------------- errors */

/* Sets *err (if wanted) to "prefix: detail" and returns false. */
static bool fail(char **err, const char *prefix, const char *detail)
{
    if (err) {
        size_t n = strlen(prefix) + strlen(detail) + 3;
        *err = malloc(n);
        if (*err)
            snprintf(*err, n, "%s: %s", prefix, detail);
    }
    return false;
}

/* Same for an LLVM message, which is disposed. */
static bool fail_llvm(char **err, const char *prefix, char *llvm_msg)
{
    fail(err, prefix, llvm_msg ? llvm_msg : "unknown LLVM error");
    LLVMDisposeMessage(llvm_msg);
    return false;
}

/* Same for an LLVMErrorRef, which is consumed. */
static bool fail_error(char **err, const char *prefix, LLVMErrorRef e)
{
    char *msg = LLVMGetErrorMessage(e);
    fail(err, prefix, msg);
    LLVMDisposeErrorMessage(msg);
    return false;
}

/* ---------------------------------------------------------------- target */

/* "a,b": `a`, then `b` after a comma when both are non-empty (malloc'd; NULL
 * when out of memory). */
static char *comma_join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = b ? strlen(b) : 0;
    char *s = malloc(na + nb + 2);
    if (s)
        snprintf(s, na + nb + 2, "%s%s%s", a, na && nb ? "," : "", b ? b : "");
    return s;
}

static once_flag native_once = ONCE_FLAG_INIT;
static bool native_ok;

static void init_native(void)
{
    native_ok = !LLVMInitializeNativeTarget() && !LLVMInitializeNativeAsmPrinter() &&
                !LLVMInitializeNativeAsmParser();
}

static LLVMCodeGenOptLevel codegen_level(int opt_level)
{
    static const LLVMCodeGenOptLevel levels[] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess,
                                                 LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
    return levels[opt_level < 0 ? 0 : opt_level > 3 ? 3 : opt_level];
}

/* The host ptoc compiles for when no -mcpu is given: LLVM's view of this
 * machine, unless PTOC_HOST_CPU names another CPU (then its own features) and
 * PTOC_HOST_FEATURES adds or removes features (`-avx512f`), so tests can pretend
 * to run on another host. Both strings are malloc'd. */
static void host_machine(char **cpu, char **features)
{
    const char *env_cpu = getenv("PTOC_HOST_CPU");
    const char *env_features = getenv("PTOC_HOST_FEATURES");
    char *llvm_cpu = env_cpu && *env_cpu ? NULL : LLVMGetHostCPUName();
    char *llvm_features = env_cpu && *env_cpu ? NULL : LLVMGetHostCPUFeatures();
    *cpu = comma_join(llvm_cpu ? llvm_cpu : env_cpu, NULL);
    *features = comma_join(llvm_features ? llvm_features : "", env_features);
    LLVMDisposeMessage(llvm_cpu);
    LLVMDisposeMessage(llvm_features);
}

/* The CPU and features of the options: -mcpu=NAME takes NAME's own features
 * (never the host's, so the output does not depend on the machine), -mattr
 * adds to or removes from those of the CPU chosen. Later entries of a feature
 * string win in LLVM, so -mattr goes last. Both strings are malloc'd. */
static void machine_cpu(const ptoc_codegen_options *opts, char **cpu, char **features)
{
    char *base = NULL;
    if (opts->cpu) {
        *cpu = comma_join(opts->cpu, NULL);
    } else {
        host_machine(cpu, &base);
    }
    *features = comma_join(base ? base : "", opts->features);
    free(base);
}

/* A target machine for the options; shared by the module (emit) and the JIT. */
static LLVMTargetMachineRef create_machine(const ptoc_codegen_options *opts, char **err)
{
    call_once(&native_once, init_native);
    if (!native_ok) {
        fail(err, "cannot initialise the native LLVM target", "no native target in this LLVM");
        return NULL;
    }
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target = NULL;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
        LLVMDisposeMessage(triple);
        fail_llvm(err, "no LLVM target for the host triple", msg);
        return NULL;
    }
    char *cpu, *features;
    machine_cpu(opts, &cpu, &features);
    LLVMTargetMachineRef tm =
        cpu && features ? LLVMCreateTargetMachine(target, triple, cpu, features, codegen_level(opts->opt_level),
                                                  LLVMRelocPIC, LLVMCodeModelDefault)
                        : NULL;
    free(cpu);
    free(features);
    LLVMDisposeMessage(triple);
    if (!tm)
        fail(err, "cannot create an LLVM target machine", "unknown CPU or features?");
    return tm;
}

bool ptoc_llvm_check_machine(const ptoc_codegen_options *opts, char **err)
{
    LLVMTargetMachineRef tm = create_machine(opts, err);
    if (tm)
        LLVMDisposeTargetMachine(tm);
    return tm != NULL;
}

bool cg_cpu_machine(ptoc_llvm_module *m, char **err)
{
    m->tm = create_machine(&m->opts, err);
    if (!m->tm)
        return false;
    char *triple = LLVMGetTargetMachineTriple(m->tm);
    LLVMSetTarget(m->mod, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(m->tm);
    LLVMSetModuleDataLayout(m->mod, layout);
    LLVMDisposeTargetData(layout);
    return true;
}

/* ---------------------------------------------------------------- optimisation */

/* LLVM's loop unroller stays off below -O3: on tile code it multiplies the
 * vectorised loops (runtime and partial unrolling on CPUs with a loop buffer,
 * such as Zen) and the short ones entirely, which costs most of the compile
 * time and gains nothing measurable on the memory-bound tile loops. The loop
 * vectoriser and its interleaving stay on. -O3 runs LLVM's pipeline as it is,
 * except that row loops are never unrolled (cg_loop_end). */
bool ptoc_llvm_optimize(ptoc_llvm_module *m, char **err)
{
    if (!m->opts.keep_intrinsics && !cg_link_intrinsics(m, err))
        return false;
    char *msg = NULL;
    if (LLVMVerifyModule(m->mod, LLVMReturnStatusAction, &msg))
        return fail_llvm(err, "internal error: the lowered LLVM module is invalid", msg);
    LLVMDisposeMessage(msg);
    static const char *const pipelines[] = {"default<O0>", "default<O1>", "default<O2>", "default<O3>"};
    int level = m->opts.opt_level < 0 ? 0 : m->opts.opt_level > 3 ? 3 : m->opts.opt_level;
    LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopUnrolling(pbo, level >= 3);
    LLVMErrorRef e = LLVMRunPasses(m->mod, pipelines[level], m->tm, pbo);
    LLVMDisposePassBuilderOptions(pbo);
    if (e)
        return fail_error(err, "LLVM optimisation failed", e);
    return true;
}

/* ---------------------------------------------------------------- emission */

/* The bytes of `kind` for the module: a memory buffer to dispose, or NULL. */
static LLVMMemoryBufferRef emit_buffer(ptoc_llvm_module *m, ptoc_emit_kind kind, char **err)
{
    if (kind == PTOC_EMIT_LLVM) {
        char *text = LLVMPrintModuleToString(m->mod);
        LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "ir");
        LLVMDisposeMessage(text);
        return buf;
    }
    if (!m->opts.keep_intrinsics && !cg_link_intrinsics(m, err))
        return NULL;
    LLVMModuleRef copy = LLVMCloneModule(m->mod);
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    LLVMCodeGenFileType type = kind == PTOC_EMIT_ASM ? LLVMAssemblyFile : LLVMObjectFile;
    if (LLVMTargetMachineEmitToMemoryBuffer(m->tm, copy, type, &msg, &buf)) {
        fail_llvm(err, "LLVM code generation failed", msg);
        buf = NULL;
    }
    LLVMDisposeModule(copy);
    return buf;
}

/* Writes `len` bytes to `path` through a fresh temporary file next to it (C11
 * "x" mode makes it exclusive) and a rename. */
static bool write_atomically(const char *path, const char *data, size_t len, char **err)
{
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp)
        return fail(err, path, "out of memory");
    FILE *f = NULL;
    for (unsigned attempt = 0; !f && attempt < 100; attempt++) {
        snprintf(tmp, n, "%s.tmp%u", path, attempt);
        f = fopen(tmp, "wbx");
    }
    if (!f) {
        free(tmp);
        return fail(err, path, "cannot create a temporary file next to it");
    }
    bool ok = fwrite(data, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok)
        remove(tmp);
    free(tmp);
    return ok ? true : fail(err, path, "cannot write the output file");
}

bool ptoc_llvm_emit_file(ptoc_llvm_module *m, ptoc_emit_kind kind, const char *path, char **err)
{
    LLVMMemoryBufferRef buf = emit_buffer(m, kind, err);
    if (!buf)
        return false;
    bool ok = write_atomically(path, LLVMGetBufferStart(buf), LLVMGetBufferSize(buf), err);
    LLVMDisposeMemoryBuffer(buf);
    return ok;
}

char *ptoc_llvm_emit_string(ptoc_llvm_module *m, ptoc_emit_kind kind, char **err)
{
    if (kind == PTOC_EMIT_OBJ) {
        fail(err, "internal error", "an object file is not text; use ptoc_llvm_emit_file");
        return NULL;
    }
    LLVMMemoryBufferRef buf = emit_buffer(m, kind, err);
    if (!buf)
        return NULL;
    size_t len = LLVMGetBufferSize(buf);
    char *s = malloc(len + 1);
    if (s) {
        memcpy(s, LLVMGetBufferStart(buf), len);
        s[len] = '\0';
    } else {
        fail(err, "out of memory", "emitting text");
    }
    LLVMDisposeMemoryBuffer(buf);
    return s;
}

/* ---------------------------------------------------------------- C header */

static const char header_format[] =
    "/* Generated by ptoc: the kernels of this object, callable from C.\n"
    " * Pointers are the first element of a global-memory array; f16 and bf16\n"
    " * scalars are uint16_t bit patterns. Link the object with libptoc_rt (the\n"
    " * simulated on-chip memory and run-time checks the kernels use). */\n"
    "#ifndef %s\n"
    "#define %s\n"
    "\n"
    "#include <stdbool.h>\n"
    "#include <stdint.h>\n"
    "\n"
    "#ifdef __cplusplus\n"
    "extern \"C\" {\n"
    "#endif\n"
    "\n"
    "%s"
    "\n"
    "#ifdef __cplusplus\n"
    "}\n"
    "#endif\n"
    "#endif /* %s */\n";

char *ptoc_llvm_c_header(ptoc_llvm_module *m, const char *guard)
{
    const char *decls = m->c_decls ? m->c_decls : "";
    int n = snprintf(NULL, 0, header_format, guard, guard, decls, guard);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s)
        snprintf(s, (size_t)n + 1, header_format, guard, guard, decls, guard);
    return s;
}
