/* codegen.h: lowering a verified module to LLVM, and what to do with the result.
 *
 *   ptoc_codegen_options o = ptoc_codegen_defaults();          // cpu, -O2, host CPU
 *   ptoc_llvm_module *m = ptoc_llvm_lower(module, &o);         // NULL: diagnostics emitted
 *   ptoc_llvm_optimize(m);                                     // LLVMRunPasses default<O2>
 *   ptoc_llvm_emit_file(m, PTOC_EMIT_OBJ, "k.o", &err);        // or ptoc_llvm_emit_string
 *   ptoc_jit *j = ptoc_jit_create(m, &err);                    // takes ownership of m
 *   void *fn = ptoc_jit_lookup(j, "kernel");
 *
 * The public headers say nothing about LLVM: a ptoc_llvm_module owns its own LLVM
 * context, module and target machine. Strings returned through `err` are malloc'd
 * and freed by the caller.
 *
 * The ABI of a lowered function (what a C caller or the --run launcher passes):
 *   !pto.ptr<T>, memref<...> in GM  -> a pointer to the first element (T *)
 *   index, i64 / i32 / i16 / i8 / i1 -> int64_t / int32_t / int16_t / int8_t / bool
 *   f32, f64                         -> float, double
 *   f16, bf16 scalars                -> uint16_t holding the bits
 *   tiles and views                  -> internal only (functions taking them are
 *                                       callable from other kernels, not from C)
 * Simulated on-chip memory belongs to the runtime (ptoc/runtime.h), one set of
 * buffers per host thread: a C program that links a kernel object links
 * libptoc_rt too.
 */
#ifndef PTOC_CODEGEN_H
#define PTOC_CODEGEN_H

#include "ptoc/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptoc_emit_kind { PTOC_EMIT_LLVM, PTOC_EMIT_ASM, PTOC_EMIT_OBJ } ptoc_emit_kind;

typedef struct ptoc_codegen_options {
    const char *target;        /* "cpu" (the only one for now) */
    int opt_level;             /* 0..3 */
    /* NULL: the host's CPU and its features (the environment variables
     * PTOC_HOST_CPU and PTOC_HOST_FEATURES override what the host is). A CPU
     * given here comes with its own features, never the host's; `features`
     * ("+avx2,-fma") adds to or removes from those of the CPU chosen. */
    const char *cpu;
    const char *features;
    /* Simulated capacity of each address space in bytes (indexed by
     * ptoc_pto_address_space); 0 keeps the arch's figure (docs/decisions.md). Benchmarks
     * raise UB to run tiles larger than the hardware has. */
    uint64_t capacity[16];
    /* Report every pto op that runs on a pipe (with the byte ranges it
     * touches) and every set_flag/wait_flag/barrier to the pipe simulator
     * (ptoc_rt_pipe_* in runtime.h; codegen/pipe_events.c). Off: no change. */
    bool pipe_events;
    /* Check every GM access (tload, tstore) against the buffer registered for
     * its pointer, once per op (ptoc_rt_gm_* in runtime.h); `ptoc --run` sets
     * it. Off (the default, and every object ptoc writes): no change. */
    bool gm_checks;
} ptoc_codegen_options;

ptoc_codegen_options ptoc_codegen_defaults(void);

typedef struct ptoc_llvm_module ptoc_llvm_module;

/* Lowers every func.func of `module` (verified, no auto-mode work left except
 * address-less tiles, which get sequential placement per function). Returns NULL
 * after emitting diagnostics on the module's context. */
ptoc_llvm_module *ptoc_llvm_lower(ptoc_op *module, const ptoc_codegen_options *opts);
void ptoc_llvm_module_destroy(ptoc_llvm_module *m);

/* Whether the cpu target lowers the op named `name` ("pto.tadd"): it has a
 * rule in codegen's tables. docs/ops.md's cpu column is checked against it. */
bool ptoc_llvm_supports_op(const char *name);

/* Makes (and drops) the target machine of `opts`; false with *err set when LLVM
 * refuses. LLVM-C cannot say whether a CPU or feature name is known: LLVM
 * accepts any, writes "'x' is not a recognized processor for this target
 * (ignoring processor)" (or "... feature ...") to stderr while the machine is
 * made and goes on with a generic CPU. A tool that wants unknown names to be
 * errors calls this with stderr captured (ptoc does). */
bool ptoc_llvm_check_machine(const ptoc_codegen_options *opts, char **err);

/* Runs the new pass manager at the options' level with the target machine. */
bool ptoc_llvm_optimize(ptoc_llvm_module *m, char **err);
/* Textual IR, assembly or an object file. */
bool ptoc_llvm_emit_file(ptoc_llvm_module *m, ptoc_emit_kind kind, const char *path, char **err);
/* Textual IR or assembly into a malloc'd NUL-terminated string. */
char *ptoc_llvm_emit_string(ptoc_llvm_module *m, ptoc_emit_kind kind, char **err);
/* A C header declaring every exported function of the lowered module with the
 * ABI above (malloc'd). `guard` names the include guard. */
char *ptoc_llvm_c_header(ptoc_llvm_module *m, const char *guard);

/* The kernel-facing description of a lowered function's parameters, for
 * launchers: read from the IR signature. */
typedef enum ptoc_param_kind { PTOC_PARAM_POINTER, PTOC_PARAM_SCALAR, PTOC_PARAM_UNSUPPORTED } ptoc_param_kind;
typedef struct ptoc_param_info {
    ptoc_param_kind kind;
    const ptoc_type *type;     /* the IR type of the parameter */
    const ptoc_type *elem;     /* pointee element type for POINTER, the type for SCALAR */
    int64_t static_elems;      /* POINTER from a static-shape memref: element count; -1 unknown */
} ptoc_param_info;
/* Fills `out` (up to `max`) for func.func `fn`; returns the parameter count. */
uint32_t ptoc_llvm_param_info(const ptoc_op *fn, ptoc_param_info *out, uint32_t max);

typedef struct ptoc_jit ptoc_jit;
/* Compiles `m` with ORC LLJIT (taking ownership of m, even on failure). The
 * runtime's entry points (ptoc/runtime.h) and libm are resolved in the process. */
ptoc_jit *ptoc_jit_create(ptoc_llvm_module *m, char **err);
void *ptoc_jit_lookup(ptoc_jit *j, const char *name);
void ptoc_jit_destroy(ptoc_jit *j);

#ifdef __cplusplus
}
#endif
#endif
