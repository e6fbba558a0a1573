/* codegen.h: lowering a verified module to LLVM, and what to do with the result.
 *
 *   ptoc_codegen_options o = ptoc_codegen_defaults();          // cpu, -O2, host CPU
 *   o.target = ptoc_target_find("cpu");                        // or any entry of the list
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
#include "ptoc/pto.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptoc_emit_kind { PTOC_EMIT_LLVM, PTOC_EMIT_ASM, PTOC_EMIT_OBJ } ptoc_emit_kind;

/* ---------------------------------------------------------------- targets
 *
 * The targets ptoc knows form one list (codegen/targets.c): one entry per
 * target, and everything that differs between targets is in its entry. The
 * driver has no per-target branch: -target's names, its help text, the arch a
 * target implies, the pipeline run before code generation and whether code is
 * generated or run all come from the entry. What lowers a module for a target
 * (its rules, its type mapping, its target machine and its runtime in the JIT)
 * is the entry's backend, which only codegen/ sees (codegen_internal.h); an
 * entry without one verifies only. */
typedef struct ptoc_target_backend ptoc_target_backend;

typedef struct ptoc_target {
    const char *name;              /* what -target takes: "a2a3" */
    const char *const *aliases;    /* other spellings, NULL-terminated (or NULL): {"a2", "a3", NULL} */
    /* The pto arch the target implies, as an arch name (ptoc_pto_arch_from_name).
     * A spelling of the target that is an arch name of its own names that arch
     * (ptoc_target_arch_name): -target=a2 keeps the A2 rules. */
    const char *arch;
    /* The named pipeline the driver runs before code generation, for the PTO
     * level (1..3) and the sync setting. */
    const char *(*pipeline)(unsigned level, bool insert_sync);
    /* The passes the driver runs after that pipeline to lower tile ops to
     * the target's instructions ("pto-lower-a5"); NULL: none. */
    const char *lowering;
    /* Whether those passes turn the pto op `opcode` into what the backend
     * lowers (NULL: no op); the op table's target columns read it. */
    bool (*lowers)(ptoc_pto_op_id opcode);
    /* How the target lowers (codegen_internal.h); NULL: verify only. */
    const ptoc_target_backend *backend;
} ptoc_target;

/* The entry named `name` or one of its aliases, in any case; NULL if none. */
const ptoc_target *ptoc_target_find(const char *name);
/* The target used when the options name none: cpu. */
const ptoc_target *ptoc_target_default(void);
/* Iteration, in the list's order (built-in entries, then registered ones):
 * for (size_t i = 0; i < ptoc_target_count(); i++) ptoc_target_at(i) ... */
size_t ptoc_target_count(void);
const ptoc_target *ptoc_target_at(size_t i);
/* Adds `t` (kept by pointer, so static storage) after the built-in entries;
 * false if the list is full or one of its spellings is taken already. Not
 * thread-safe: register before compiling. */
bool ptoc_target_register(const ptoc_target *t);
/* Whether `t` generates code (it has rules), and whether ptoc can run what it
 * generates in this process (its backend sets up a runtime for the JIT). */
bool ptoc_target_generates_code(const ptoc_target *t);
bool ptoc_target_runs(const ptoc_target *t);
/* The arch name `spelling` (a name or alias of `t`) implies: the spelling
 * itself when it is an arch name, else the entry's arch. */
const char *ptoc_target_arch_name(const ptoc_target *t, const char *spelling);

/* ---------------------------------------------------------------- options */

typedef struct ptoc_codegen_options {
    const ptoc_target *target; /* ptoc_codegen_defaults: ptoc_target_default() */
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
    /* Keep a target's intrinsics (a5: @pto.a5.vadd.v64f32 ...) as calls of
     * declared functions: ptoc_llvm_optimize then does not link their
     * definitions in, and the module shows the target's program as
     * `-emit=llvm` prints it; it does not run or link on the host. Off: the
     * definitions are linked in and inlined. */
    bool keep_intrinsics;
} ptoc_codegen_options;

ptoc_codegen_options ptoc_codegen_defaults(void);

typedef struct ptoc_llvm_module ptoc_llvm_module;

/* Lowers every func.func of `module` (verified, no auto-mode work left except
 * address-less tiles, which get sequential placement per function). Returns NULL
 * after emitting diagnostics on the module's context. */
ptoc_llvm_module *ptoc_llvm_lower(ptoc_op *module, const ptoc_codegen_options *opts);
void ptoc_llvm_module_destroy(ptoc_llvm_module *m);

/* Whether target `t` lowers the op named `name` ("pto.tadd", "arith.addi"):
 * its entry has a rule for it. docs/ops.md's target columns are generated from
 * the entries. */
bool ptoc_llvm_supports_op(const ptoc_target *t, const char *name);
/* The same for the pto op `opcode` (false for PTOC_PTO_OP_NONE). */
bool ptoc_llvm_supports_pto_op(const ptoc_target *t, ptoc_pto_op_id opcode);
/* Whether target t lowers the vector micro-op `vop` (codegen/lower_pto_vops.c). */
bool ptoc_llvm_supports_vop(const ptoc_target *t, ptoc_pto_vop_id vop);
/* Whether code generation itself has a rule for the pto op `opcode` on t,
 * not counting what t's lowering passes lower: a tile op those passes left
 * (a layout they do not take) is one code generation refuses unless this
 * holds. */
bool ptoc_llvm_rule_lowers_pto_op(const ptoc_target *t, ptoc_pto_op_id opcode);

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

/* The pipe simulator's rules for `arch` (ptoc_rt_arch_rules, runtime.h),
 * from its row of the arch table: its in-order pipes and event ids, its
 * clock and DMA bandwidths; the default arch's for an invalid one. */
struct ptoc_rt_arch_rules ptoc_pipe_rules(ptoc_pto_arch arch);

typedef struct ptoc_jit ptoc_jit;
/* Compiles `m` with ORC LLJIT (taking ownership of m, even on failure); its
 * target's backend defines the runtime (for cpu: the entry points of
 * ptoc/runtime.h, and libm resolved in the process). Fails with *err set for
 * a target that does not run (ptoc_target_runs). */
ptoc_jit *ptoc_jit_create(ptoc_llvm_module *m, char **err);
void *ptoc_jit_lookup(ptoc_jit *j, const char *name);
void ptoc_jit_destroy(ptoc_jit *j);

#ifdef __cplusplus
}
#endif
#endif
