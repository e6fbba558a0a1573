/* codegen_internal.h: the lowering context shared by the codegen/ files.
 *
 * One `cg` lowers one builtin.module to one LLVM module. Every ptoc value maps
 * to exactly one LLVM value (cg_get/cg_set), whatever its type:
 *
 *   scalars (iN, index, fN)       the LLVM scalar (index is i64; f16/bf16 are
 *                                 `half`/`bfloat` in registers, see cg_load_elem)
 *   !pto.vreg<NxT>, !pto.mask     <N x T> (bf16 lanes as <N x i16> bits), <256 x i1>
 *   !pto.ptr<T>, GM memref        ptr
 *   tile_buf, tile, memref in an  cg->tile_ty = { i64 byte offset in its address
 *   on-chip address space           space, i64 valid rows, i64 valid cols }
 *   tensor_view, partition view   cg->view_ty = { ptr base of element 0,
 *                                   [5 x i64] shape, [5 x i64] strides (elements),
 *                                   ptr origin: the pointer it was made from }
 *
 * Because tiles and views are plain first-class aggregates they flow through
 * phis, scf.yield and calls with no special case; LLVM folds the extractvalues
 * of constants, so static shapes stay static. The static facts of a tile
 * (dtype, physical shape, layout) come from its ptoc type, never from LLVM.
 *
 * Ops are lowered by rules: rows {op, lowering function, small integer} in
 * tables, one table per file (cg_std_rules in lower_std.c, ...); module.c
 * collects the tables. A pto op's row names it by its opcode (PTO(TADD)), any
 * other op's by its name (STD("arith.addi")), so that a pto op's rule is found
 * by indexing an array and no codegen file spells a pto op's name. A lowering
 * function emits at the builder's position, sets the results with cg_set, and
 * returns false after a diagnostic.
 *
 * Simulated memory: the base of an address space comes from the runtime
 * (ptoc_rt_space_base, once per function, in its entry block). A tile's address
 * is base(space) + offset. Address-less tiles (alloc_tile without addr,
 * memref.alloc in a space, Level-1 results) get sequential placement per
 * function: a bump offset per space, 32-byte aligned (512 for L0), with a
 * diagnostic when a space overflows.
 */
#ifndef PTOC_CODEGEN_INTERNAL_H
#define PTOC_CODEGEN_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/TargetMachine.h>

#include "ptoc/codegen.h"
#include "ptoc/pto.h"

#define CG_MAX_SPACES 16

/* What ptoc_llvm_lower returns (codegen.h keeps it opaque). The LLVM context
 * belongs to an ORC thread-safe context so that the JIT can take the module
 * without copying it. */
struct ptoc_llvm_module {
    LLVMOrcThreadSafeContextRef tsc;
    LLVMContextRef llctx;      /* = LLVMOrcThreadSafeContextGetContext(tsc) */
    LLVMModuleRef mod;         /* NULL once the JIT has taken it */
    LLVMTargetMachineRef tm;   /* the backend's machine (cpu: emit.c, cg_cpu_machine) */
    ptoc_codegen_options opts; /* opts.target: the entry it was lowered for */
    char *c_decls;             /* module.c: one C prototype per line, per exported function */
    /* intrinsics.c: the definitions of the target's intrinsics that the
     * module calls, until cg_link_intrinsics links them in (NULL then, and
     * on targets without intrinsics) */
    LLVMModuleRef intrinsics;
};
/* Links m->intrinsics into m->mod (once; nothing to do without them). */
bool cg_link_intrinsics(ptoc_llvm_module *m, char **err);

/* emit.c: creates m->tm for the options (the host CPU unless given) and sets the
 * module's triple and data layout: the cpu target's machine. */
bool cg_cpu_machine(ptoc_llvm_module *m, char **err);
/* jit.c: the cpu target's runtime in the JIT: the entry points of
 * ptoc/runtime.h at their addresses in this process, and the process's
 * libraries (libm) for anything else. */
LLVMErrorRef cg_cpu_jit_runtime(LLVMOrcLLJITRef jit, LLVMOrcJITDylibRef jd);

typedef struct cg cg;
typedef struct cg_rule cg_rule;

/* Lowers `op` at the builder's position. */
typedef bool (*cg_lower_fn)(cg *g, ptoc_op *op, const cg_rule *rule);

struct cg_rule {
    ptoc_pto_op_id opcode;     /* the pto op it lowers; PTOC_PTO_OP_NONE for other ops */
    const char *name;          /* another dialect's op ("arith.addi"); NULL for a pto op */
    cg_lower_fn lower;
    int arg;                   /* the rule's own selector (an opcode, a cmp kind ...) */
    ptoc_pto_vop_id vop;       /* a row with neither opcode nor name: the micro-op it lowers */
};

/* The op a row lowers, its first two fields: {PTO(TADD), lower_tile_tile, EW_ADD},
 * {STD("arith.addi"), lower_int_binop, LLVMAdd}. */
#define PTO(id) PTOC_PTO_OP_##id, NULL
#define STD(name) PTOC_PTO_OP_NONE, name
/* A micro-op's row: {VOP(VADD, lower_vbinary, LLVMFAdd)}. */
#define VOP(id, lower, arg) {PTOC_PTO_OP_NONE, NULL, lower, arg, PTOC_PTO_VOP_##id}

/* Tables of rules, each defined in its own file. */
extern const cg_rule cg_std_rules[];            /* lower_std.c: arith, func, scf, memref (GM) */
extern const size_t cg_std_rule_count;
extern const cg_rule cg_pto_mem_rules[];        /* lower_pto_mem.c: alloc, views, tload/tstore, sync, blocks */
extern const size_t cg_pto_mem_rule_count;
extern const cg_rule cg_pto_elementwise_rules[];/* lower_pto_elementwise.c: tadd.., tadds.., tcolexpand* */
extern const size_t cg_pto_elementwise_rule_count;
extern const cg_rule cg_pto_select_rules[];     /* lower_pto_select.c: tcmp, tcmps, tsel, tsels */
extern const size_t cg_pto_select_rule_count;
extern const cg_rule cg_pto_scalar_rules[];     /* lower_pto_select.c: tgetval, tsetval */
extern const size_t cg_pto_scalar_rule_count;
extern const cg_rule cg_pto_unary_rules[];      /* lower_pto_unary.c: tabs tneg tnot trelu tsqrt trsqrt trecip texp tlog */
extern const size_t cg_pto_unary_rule_count;
extern const cg_rule cg_pto_reduce_rules[];     /* lower_pto_reduce.c: trow{sum,max,min,prod}, tcol{...} */
extern const size_t cg_pto_reduce_rule_count;
extern const cg_rule cg_pto_rowexpand_rules[];  /* lower_pto_rowexpand.c: trowexpand, trowexpand{add..} */
extern const size_t cg_pto_rowexpand_rule_count;
extern const cg_rule cg_pto_sort_rules[];       /* lower_pto_sort.c: tsort32, tmrgsort */
extern const size_t cg_pto_sort_rule_count;
extern const cg_rule cg_pto_sort_vop_rules[];   /* lower_pto_sort.c: vbitsort, vmrgsort4 */
extern const size_t cg_pto_sort_vop_rule_count;
/* Whether sorted pair (va, ia) at position a precedes (vb, ib) at b (lower_pto_sort.c). */
LLVMValueRef cg_sort_precedes(cg *g, LLVMValueRef va, LLVMValueRef ia, LLVMValueRef a, LLVMValueRef vb,
                              LLVMValueRef ib, LLVMValueRef b);
extern const cg_rule cg_pto_gather_rules[];     /* lower_pto_gather.c: tgather tgatherb tscatter mgather mscatter */
extern const size_t cg_pto_gather_rule_count;
extern const cg_rule cg_pto_layout_rules[];     /* lower_pto_layout.c: ttrans tconcat tpack */
extern const size_t cg_pto_layout_rule_count;
extern const cg_rule cg_pto_histogram_rules[];  /* lower_pto_histogram.c: thistogram */
extern const size_t cg_pto_histogram_rule_count;
extern const cg_rule cg_pto_ewx_rules[];        /* lower_pto_ewx.c: trem tfmod tand.. tpart* taddc taxpy.. */
extern const size_t cg_pto_ewx_rule_count;
extern const cg_rule cg_pto_cube_rules[];       /* lower_pto_cube.c: tmatmul, tmatmul.acc, tmatmul.bias */
extern const size_t cg_pto_cube_rule_count;
extern const cg_rule cg_pto_convert_rules[];    /* lower_pto_convert.c: tcvt */
extern const size_t cg_pto_convert_rule_count;
extern const cg_rule cg_pto_misc_rules[];       /* lower_pto_misc.c: the cpu target's own rows (tprefetch) */
extern const size_t cg_pto_misc_rule_count;
extern const cg_rule cg_pto_core_rules[];       /* lower_pto_misc.c: reserved buffers, sections, sub-blocks, valid shapes */
extern const size_t cg_pto_core_rule_count;
extern const cg_rule cg_pto_fill_rules[];       /* lower_pto_fill.c: texpands tfillpad* tci ttri trandom */
extern const size_t cg_pto_fill_rule_count;
extern const cg_rule cg_pto_quant_rules[];      /* lower_pto_quant.c: tquant tdequant */
extern const size_t cg_pto_quant_rule_count;
extern const cg_rule cg_pto_xcore_rules[];      /* lower_pto_xcore.c: pipes, cross-core sync, async, event ids */
extern const size_t cg_pto_xcore_rule_count;
extern const cg_rule cg_pto_scalar_ptr_rules[]; /* lower_pto_scalar_ptr.c: GM scalars, tile views, print, trap */
extern const size_t cg_pto_scalar_ptr_rule_count;
extern const cg_rule cg_pto_vop_rules[];        /* lower_pto_vops.c: the vector micro-ops' semantics */
extern const size_t cg_pto_vop_rule_count;
extern const cg_rule cg_pto_scope_rules[];      /* lower_pto_vops.c: pto.vecscope and its bridges */
extern const size_t cg_pto_scope_rule_count;
extern const cg_rule cg_a2a3_rules[];           /* lower_a2a3.c: the A2/A3 repeat intrinsics' semantics */
extern const size_t cg_a2a3_rule_count;

/* lower_pto_elementwise.c, shared with the tile ops built on the same
 * arithmetic (lower_pto_rowexpand.c). What one element computes from a (the
 * tile element) and b: a OP b, or for EW_RDIV b / a (the scalar-first tdivs). */
typedef enum ew_op { EW_ADD, EW_SUB, EW_MUL, EW_DIV, EW_MAX, EW_MIN, EW_EXPDIF, EW_COPY, EW_RDIV } ew_op;
/* a OP b on compute-type values (scalars or vectors) of element type `elem`,
 * as the elementwise ops compute it (docs/targets.md: integer division,
 * max/min selects, expdif with an f16 difference rounded first). */
LLVMValueRef cg_ew_apply(cg *g, ew_op op, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b);
/* Of a two-source op, the source (0 or 1) whose physical shape is dst's: it
 * gives a Level-1 result its valid shape when the result type leaves it dynamic. */
uint32_t cg_ew_full_operand(const ptoc_op *op);

/* One table of a target's rules (the count is read through a pointer because
 * each file defines its own). */
typedef struct cg_rule_table {
    const cg_rule *rules;
    const size_t *count;
} cg_rule_table;

/* What a target's entry (ptoc_target, codegen.h) lowers with; targets.c holds
 * the cpu one. ptoc_llvm_lower calls machine, then init_types, then lowers each
 * op by the first of `tables` with a rule for it; cg_type asks `type`;
 * ptoc_jit_create calls jit_runtime. */
struct ptoc_target_backend {
    const cg_rule_table *tables;                /* the first table to claim an op wins */
    size_t ntables;
    /* The type mapping: the LLVM types of `g` (i1 .. f64, ptr, tile_ty,
     * view_ty), then the LLVM type of a value of ptoc type `t` (NULL after an
     * error at `loc`). */
    void (*init_types)(cg *g);
    LLVMTypeRef (*type)(cg *g, const ptoc_type *t, ptoc_loc loc);
    /* The target machine of m->opts and the module's triple and data layout. */
    bool (*machine)(ptoc_llvm_module *m, char **err);
    /* Defines what kernels call at run time in the JIT's dylib; NULL: the
     * target does not run in this process. */
    LLVMErrorRef (*jit_runtime)(LLVMOrcLLJITRef jit, LLVMOrcJITDylibRef jd);
    /* Non-NULL: micro-ops become calls of this target's intrinsics, named
     * with this prefix ("pto.a5"; intrinsics.c). */
    const char *intrinsic_prefix;
    /* Non-NULL: tload and tstore move their lines as bursts of the target's
     * DMA copy intrinsics (lower_pto_mem.c, dma.c), not as the cpu target's
     * copies. */
    const struct cg_dma_model *dma;
    /* Non-NULL: with pipe_events, a vecscope counts the cycles of the
     * micro-ops it runs by this model and reports them (a5: a5_costs.c). */
    const struct cg_vf_model *vf_model;
    /* Non-NULL: the cube unit's moves and mad are the target's intrinsics
     * (lower_cube_model.c), each op costed by these figures for its pipe
     * event (a5_costs.c, a2a3_costs.c). */
    const struct cg_cube_costs *cube_costs;
};

/* The cube unit's data paths on a target model (lower_cube_model.c): GM to
 * L1 (mat), L1 to L0A (left), L0B (right), the bias table and the fixpipe
 * buffer (scaling), L0C (acc) out to L1, UB or GM, UB to L1. */
typedef enum cg_cube_path {
    CG_CUBE_GM_TO_L1, CG_CUBE_L1_TO_L0A, CG_CUBE_L1_TO_L0B, CG_CUBE_L1_TO_BT, CG_CUBE_L1_TO_FB,
    CG_CUBE_L0C_TO_L1, CG_CUBE_L0C_TO_UB, CG_CUBE_L0C_TO_GM, CG_CUBE_UB_TO_L1,
    CG_CUBE_L1_TO_SCALE_LEFT, CG_CUBE_L1_TO_SCALE_RIGHT,    /* A5's MX scale buffers beside L0A, L0B */
    CG_CUBE_PATHS
} cg_cube_path;
/* A target model's cube costs: each path's bandwidth in GiB/s at clock_hz
 * (0: the hardware has no such path), and mad's head plus cycles per
 * 16 x (32 bytes of K) x 16 fractal step, f32 operands taking slope_f32. */
typedef struct cg_cube_costs {
    double gib_per_s[CG_CUBE_PATHS];
    double clock_hz;
    uint32_t mad_head, mad_slope, mad_slope_f32;
} cg_cube_costs;
extern const cg_cube_costs cg_a5_cube_costs;     /* a5_costs.c */
extern const cg_cube_costs cg_a2a3_cube_costs;   /* a2a3_costs.c */
/* lower_cube_model.c: the modelled cycles of cube op `op` (lowered just
 * now) for its pipe event; NULL for an op that is no cube instruction. */
LLVMValueRef cg_cube_cycles(cg *g, ptoc_op *op);
extern const cg_rule cg_cube_model_rules[];      /* lower_cube_model.c: the cube unit on a5 and a2a3 */
extern const size_t cg_cube_model_rule_count;
extern const cg_rule cg_cube_mx_model_rules[];   /* lower_cube_model.c: the mx forms, on a5 */
extern const size_t cg_cube_mx_model_rule_count;

/* A target's model of a vector function's time, counted as the kernel runs:
 * `begin` where the vecscope starts (it makes its counters, g->vf_state),
 * `count` after each micro-op's intrinsic call, `end` after the body, giving
 * the vecscope's cycles (i64) for its pipe event; `flush` (optional) at a
 * wait_flag from PIPE_V inside the vecscope. */
typedef struct cg_vf_model {
    void (*begin)(cg *g, ptoc_op *scope);
    void (*count)(cg *g, const ptoc_op *op);
    LLVMValueRef (*end)(cg *g, ptoc_op *scope);
    void (*flush)(cg *g);
} cg_vf_model;
extern const cg_vf_model cg_a5_vf_model;     /* a5_costs.c */
extern const cg_vf_model cg_a2a3_vf_model;   /* a2a3_costs.c */
/* Whether the A2/A3 model prices the repeat intrinsic (a cost row, or a count of its own);
 * false for the ones that cost the vector pipe nothing. */
bool cg_a2a3_has_cost(ptoc_pto_vop_id vop);

/* Per-function state. */
typedef struct cg_func {
    const ptoc_op *op;                          /* the func.func */
    LLVMValueRef fn;
    LLVMBasicBlockRef entry;                    /* holds the space bases, allocas */
    LLVMValueRef space_base[CG_MAX_SPACES];     /* cached ptoc_rt_space_base calls */
    uint64_t next_offset[CG_MAX_SPACES];        /* sequential placement */
    LLVMValueRef a2a3_state;                    /* cg_a2a3_state's alloca, once made */
} cg_func;

typedef struct cg_valmap cg_valmap;             /* ptoc_value * -> LLVMValueRef (module.c) */

struct cg {
    ptoc_context *ctx;
    const ptoc_codegen_options *opts;
    const ptoc_target *target;                  /* = opts->target, which has a backend */
    ptoc_pto_arch arch;                         /* the arch whose capacities apply */
    LLVMContextRef llctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMTypeRef i1, i8, i16, i32, i64, f16, bf16, f32, f64, ptr, void_ty;
    LLVMTypeRef tile_ty;                        /* { i64, i64, i64 } */
    LLVMTypeRef view_ty;                        /* { ptr, [5 x i64], [5 x i64], ptr } */
    cg_valmap *values;
    cg_func *fn;                                /* the function being lowered */
    struct cg_loop *loop;                       /* the innermost cg_loop being emitted */
    struct cg_shared *shared;                   /* shared_ops.c: the signatures that repeat */
    LLVMValueRef where;                         /* in a shared op's function: its location parameter */
    LLVMModuleRef intrinsics;                   /* = the ptoc_llvm_module's, while lowering */
    LLVMValueRef vf_state[2];                   /* in a counted vecscope: its model's i64 counters */
    LLVMValueRef vf_cycles;                     /* a vecscope's modelled cycles, for its pipe event */
    bool xcore;                                 /* the module runs as a block's cores (lower_pto_xcore.c) */
};

/* Lowering nested regions, for the rules of ops with regions
 * (scf.for, scf.if ...). cg_lower_op lowers one op by its rule (an error at the
 * op when no rule claims it); cg_lower_block lowers every op of `b` in order
 * except its terminator, whose operands the parent's rule reads itself. */
bool cg_lower_op(cg *g, ptoc_op *op);
bool cg_lower_block(cg *g, ptoc_block *b);
/* shared_ops.c: a tile op whose signature repeats in the module is lowered
 * once into a function that each such op calls; any other op by its rule in
 * place. cg_shared_count walks the module first. */
typedef struct cg_shared cg_shared;
cg_shared *cg_shared_count(ptoc_op *module);
void cg_shared_free(cg_shared *s);
bool cg_shared_lower(cg *g, ptoc_op *op, const cg_rule *rule);
/* intrinsics.c: a micro-op as a call of its intrinsic when g's target has
 * them (its definition made by `rule` on first use); anything else by its
 * rule, in place. */
bool cg_intrinsic_lower(cg *g, ptoc_op *op, const cg_rule *rule);
/* intrinsics.c: a tile op as a call of the intrinsic `name`, defined by
 * `rule` as on the cpu target (lower_cube_model.c). */
bool cg_intrinsic_call(cg *g, ptoc_op *op, const cg_rule *rule, const char *name);
/* dma.c: tload and tstore on a target with DMA copies. A transfer asks for
 * n_burst bursts of len_burst bytes, burst i from src + i * src_stride to
 * dst + i * dst_stride (i64 byte counts), a load's bursts each followed by
 * right_pad pad elements (NULL: none). cg_dma_bursts issues the target's
 * instructions for it: split where a count, length or gap is past its
 * field's range, never truncated. */
typedef struct cg_dma_call {
    bool to_ub;
    LLVMValueRef dst, src, n_burst, len_burst, src_stride, dst_stride;
    LLVMValueRef right_pad;
    const ptoc_type *elem;
    ptoc_loc loc;            /* the op's, for a trap in an instruction's definition */
} cg_dma_call;
/* A target's DMA: its fields' ranges (inclusive; INT64_MAX: never split)
 * and instructions. max_gm_gap 0: the instruction takes start-to-start
 * strides (a5); else GM and UB gaps (bytes, 32-byte blocks) after each
 * burst (a2a3). emit's src_field and dst_field are those strides or gaps. */
typedef struct cg_dma_model {
    int64_t max_n_burst, max_len_burst, max_gm_gap, max_ub_gap;
    bool element_bursts;     /* a line with an along stride: a burst per element (else element copies) */
    bool pads;               /* loads pad in the burst, with the value set_pad gives */
    bool cpu_store_options;  /* tstore's atomic add, relu and quantisation as on cpu (element by element) */
    /* the value a load pads with: the element's bits as i64 */
    void (*set_pad)(cg *g, LLVMValueRef bits);
    /* one instruction, every field in range */
    void (*emit)(cg *g, const cg_dma_call *c, LLVMValueRef src_field, LLVMValueRef dst_field);
} cg_dma_model;
extern const cg_dma_model cg_a5_dma, cg_a2a3_dma;
/* The target's DMA when tload/tstore use it, else NULL. */
const cg_dma_model *cg_dma(const cg *g);
void cg_dma_bursts(cg *g, const cg_dma_call *c);
/* pipe_events.c: with the option pipe_events, the pipe simulator's calls for
 * `op` (its pipe and the bytes it read and wrote, or its sync), after its rule. */
bool cg_pipe_events(cg *g, ptoc_op *op);
/* The call ABI of codegen.h. Parameters and results of functions
 * have cg_type except f16/bf16 scalars, which travel as their i16 bits (C's
 * uint16_t); cg_to_abi/cg_from_abi convert a value of ptoc type `t` between its
 * register form (cg_type) and that ABI form. cg_func_type is the LLVM type of a
 * func.func of type `fn` (void, the one result, or a struct of several). */
LLVMTypeRef cg_abi_type(cg *g, const ptoc_type *t, ptoc_loc loc);
LLVMValueRef cg_to_abi(cg *g, LLVMValueRef v, const ptoc_type *t);
LLVMValueRef cg_from_abi(cg *g, LLVMValueRef v, const ptoc_type *t);
LLVMTypeRef cg_func_type(cg *g, const ptoc_type *fn, ptoc_loc loc);

/* lower_pto_xcore.c: a module whose blocks run as their cores, on threads.
 * cg_xcore_module: whether `module` has a cross-core op; cg_xcore_entry makes
 * the exported `pub` run the cores and returns the function to lower its body
 * into (NULL after an error); cg_xcore_kind_guard returns early from a
 * function of pto.kernel_kind on the other cores; cg_xcore_section lowers a
 * section's body for its cores only; cg_xcore_subblock gives
 * get_subblock_idx (which 0) or get_subblock_num (1). */
bool cg_xcore_module(ptoc_op *module);
LLVMValueRef cg_xcore_entry(cg *g, ptoc_op *fnop, LLVMValueRef pub);
void cg_xcore_kind_guard(cg *g, ptoc_op *fnop);
bool cg_xcore_section(cg *g, ptoc_op *op, bool cube);
bool cg_xcore_subblock(cg *g, ptoc_op *op, int which);

/* ---------------------------------------------------------------- values and types */

/* The LLVM value of `v`; emits an internal error (and returns NULL) when `v` has
 * not been lowered, which means a rule is missing. */
LLVMValueRef cg_get(cg *g, const ptoc_value *v);
void cg_set(cg *g, const ptoc_value *v, LLVMValueRef llv);
/* Gives `v`, a tile that pto.set_validshape writes, the value `llv` from here
 * on, in every path (module.c keeps such values in an alloca); false after an
 * error at `loc` when `v` is not one an op of this function defines. */
bool cg_assign(cg *g, const ptoc_value *v, LLVMValueRef llv, ptoc_loc loc);
/* The LLVM type a ptoc type lowers to on g's target (its backend's `type`);
 * NULL after an error at `loc` for a type the target does not support.
 * cg_cpu_type (helpers.c) is the cpu mapping, the table above. */
LLVMTypeRef cg_type(cg *g, const ptoc_type *t, ptoc_loc loc);
LLVMTypeRef cg_cpu_type(cg *g, const ptoc_type *t, ptoc_loc loc);
/* The in-memory type of a tile/view element: i8..i64, half, bfloat, float, double. */
LLVMTypeRef cg_elem_type(cg *g, const ptoc_type *elem);
uint32_t cg_elem_size(const ptoc_type *elem);   /* bytes */
/* Element types with no LLVM arithmetic type here (the f8 formats, tf32) are
 * their bits, an integer of cg_elem_size bytes: rules that only move or
 * select elements take them as they are; rules that compute on elements call
 * cg_check_computable first, which reports the op (naming `role`) otherwise. */
bool cg_check_computable(ptoc_op *op, const char *role, const ptoc_type *elem);
bool cg_is_unsigned(const ptoc_type *t);        /* ui8..ui64 (signless and si are signed) */
LLVMValueRef cg_i64(cg *g, int64_t v);
LLVMValueRef cg_i32(cg *g, int32_t v);
/* A predicate (!pto.mask) is <256 x i1>: one bit per byte of a vector
 * register, as the hardware's; a lane of b bytes is active when its first bit is. */
#define CG_MASK_BITS 256
/* Vectors that codegen builds itself have at most this many lanes (32 bytes
 * of i8). */
#define CG_MAX_LANES 32
/* The integer constant `v` of type `ty`, in every lane when ty is a vector
 * (of at most CG_MASK_BITS lanes: a register's bytes). */
LLVMValueRef cg_const_int(LLVMTypeRef ty, unsigned long long v);
/* `v` in each of `lanes` lanes (at most CG_MAX_LANES). */
LLVMValueRef cg_splat(cg *g, LLVMValueRef v, unsigned lanes);
/* A private constant "file:line:col" string for `loc` (traps, diagnostics);
 * inside a shared op's function, its location parameter (g->where). */
LLVMValueRef cg_where(cg *g, ptoc_loc loc);
/* The op's name ("pto.tload") as a private constant string, one per module
 * and name (pipe events, GM checks). */
LLVMValueRef cg_op_name(cg *g, const char *name);
/* Calls a runtime entry point of ptoc/runtime.h by name (declared on first use). */
LLVMValueRef cg_call_runtime(cg *g, const char *name, LLVMValueRef *args, unsigned nargs);
/* Calls an overloaded LLVM intrinsic ("llvm.exp", overloaded on `ty`). */
/* Adds the enum attribute `name` (with `value`, 0 for most) to function fn. */
void cg_add_fn_attr(cg *g, LLVMValueRef fn, const char *name, uint64_t value);
LLVMValueRef cg_call_intrinsic(cg *g, const char *name, LLVMTypeRef ty, LLVMValueRef *args, unsigned nargs);
/* if (cond) ptoc_rt_trap(kind, where(loc), a, b, c); continues after. */
void cg_trap_if(cg *g, LLVMValueRef cond, int kind, ptoc_loc loc, LLVMValueRef a, LLVMValueRef b,
                LLVMValueRef c);

/* ---------------------------------------------------------------- elements */

/* Elements are computed in a "compute type": f16 and bf16 widen to float (the
 * result is rounded back on store: correctly rounded for + - * / since float
 * holds more than twice their precision), every other type computes as itself.
 * cg_store_elem and the conversions take vectors of lanes too (the value's
 * type says how many); cg_load_elems loads them. */
LLVMTypeRef cg_compute_type(cg *g, const ptoc_type *elem);
LLVMValueRef cg_load_elem(cg *g, const ptoc_type *elem, LLVMValueRef ptr);
/* `lanes` consecutive elements (2..CG_MAX_LANES) as a vector of the compute
 * type, converted lane by lane exactly as cg_load_elem converts one. */
LLVMValueRef cg_load_elems(cg *g, const ptoc_type *elem, LLVMValueRef ptr, unsigned lanes);
void cg_store_elem(cg *g, const ptoc_type *elem, LLVMValueRef ptr, LLVMValueRef v);
/* Converts a compute-type value of `from` to the compute type of `to` (int
 * widths by sign of `from`, int<->float, float widths). */
LLVMValueRef cg_convert(cg *g, LLVMValueRef v, const ptoc_type *from, const ptoc_type *to);
/* How a value between two representable ones rounds (vcvt's rnd, in this
 * order: "RAFCZO"): to nearest with ties to even (R) or away from zero (A),
 * down (F), up (C), toward zero (Z), or to odd (O, von Neumann's: toward
 * zero, the last bit set when inexact). */
typedef enum cg_round_mode { CG_ROUND_R, CG_ROUND_A, CG_ROUND_F, CG_ROUND_C, CG_ROUND_Z, CG_ROUND_O } cg_round_mode;
/* A vector of f32 or f64 rounded to the narrower format `to` (f16, bf16, or
 * f32 from f64) by `mode`, as the format's bits (<n x i16>, <n x i32>). A
 * finite value past the largest becomes infinity (R, A; F when negative, C
 * when positive) or the largest (Z, O; F when positive, C when negative);
 * with `saturate` it and an infinity become the largest, signed. A NaN keeps
 * its sign and the top of its payload and is quiet (codegen/float_round.c). */
LLVMValueRef cg_round_float(cg *g, LLVMValueRef v, ptoc_float_kind to, cg_round_mode mode, bool saturate);
/* n lanes of se's bits converted to n lanes of de's bits, as tcvt converts
 * (lower_pto_convert.c): rounded by mode, saturating by sat. */
LLVMValueRef cg_convert_bits(cg *g, const ptoc_type *se, const ptoc_type *de, cg_round_mode mode, bool sat,
                             LLVMValueRef bits, unsigned n);
/* float -> int (or vectors: ity is then one), saturating: out-of-range
 * values clamp and NaN gives 0, so every value converts to a defined one. */
LLVMValueRef cg_float_to_int_sat(cg *g, LLVMValueRef v, LLVMTypeRef ity, bool is_unsigned);
/* a / b on integers (or vectors of them) that never traps: x/0 = -1 (all
 * ones) and, signed, INT_MIN/-1 = INT_MIN (docs/targets.md). */
LLVMValueRef cg_int_div(cg *g, LLVMValueRef a, LLVMValueRef b, bool is_unsigned);
/* f32 -> bf16 bits, round to nearest even, NaN kept quiet (done in IR: LLVM's
 * own fptrunc to bfloat needs a libgcc routine Debian 12 does not have); a
 * vector of floats gives a vector of bits. */
LLVMValueRef cg_f32_to_bf16(cg *g, LLVMValueRef f);
/* bf16 values (`bfloat` or their i16 bits, scalar or vector) -> float, exactly. */
LLVMValueRef cg_bf16_to_f32(cg *g, LLVMValueRef v);

/* lower_pto_vops.c: the vector micro-ops' arithmetic on lanes (vectors) of
 * element type `elem`, which the A2/A3 repeat ops (lower_a2a3.c) compute by
 * too: integers wrap, x/0 = -1 (cg_int_div), max(a, b) = a > b ? a : b and
 * min(a, b) = a < b ? a : b by ordered compares (a NaN in b is kept), shifts
 * past the width give 0 (or the sign). */
typedef enum cg_vbin { VB_ADD, VB_SUB, VB_MUL, VB_DIV, VB_MAX, VB_MIN, VB_AND, VB_OR, VB_XOR, VB_SHL, VB_SHR, VB_EXPDIF } cg_vbin;
typedef enum cg_vun { VU_ABS, VU_NEG, VU_NOT, VU_EXP, VU_LN, VU_SQRT, VU_RELU } cg_vun;
typedef enum cg_vcmp { CG_CMP_EQ, CG_CMP_NE, CG_CMP_LT, CG_CMP_LE, CG_CMP_GT, CG_CMP_GE } cg_vcmp;
LLVMValueRef cg_vop_binary(cg *g, cg_vbin k, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cg_vop_unary(cg *g, cg_vun k, const ptoc_type *elem, LLVMValueRef a);
/* The one exp and the one log of every target (lower_pto_unary.c): fixed
 * sequences of float operations on f32 values, scalars or vectors. */
LLVMValueRef cg_exp_f32(cg *g, LLVMValueRef x);
LLVMValueRef cg_log_f32(cg *g, LLVMValueRef x);
/* exp (log: ln) of f32 or f16 lanes, an f16 lane computed in f32 and rounded once. */
LLVMValueRef cg_exp_log_lanes(cg *g, bool log, LLVMValueRef a);
/* <n x i1>: ordered float compares (ne: unordered or unequal), integers
 * signed or unsigned by `elem`. */
LLVMValueRef cg_vop_compare(cg *g, cg_vcmp k, const ptoc_type *elem, LLVMValueRef a, LLVMValueRef b);
/* lower_pto_vops.c: !pto.align as LLVM: { the 32-byte block of its pending
 * bytes, that block's bytes, which of them are pending (<32 x i1>) }. */
LLVMTypeRef cg_align_state_type(cg *g);
/* lower_a2a3.c: the A2/A3 vector state of the function being lowered, an
 * alloca of { i64 mask_hi, i64 mask_lo, i1 counter mode, i128 CMPMASK, i64
 * pad value } made and initialised (norm mode, every lane on, CMPMASK 0, pad
 * 0) in its entry block on first use. */
LLVMValueRef cg_a2a3_state(cg *g);
/* For the cost model, where a repeat instruction `op` was just called: how
 * many repeats it ran (i64: ceil(count / lanes) in counter mode), and
 * whether the core is in counter mode (i1). */
LLVMValueRef cg_a2a3_repeats_run(cg *g, const ptoc_op *op);
LLVMValueRef cg_a2a3_counter_mode(cg *g);
/* set_mov_pad_val: the i64 `bits` into the state's pad value. */
void cg_a2a3_set_pad_value(cg *g, LLVMValueRef bits);
/* lower_pto_mem.c: the bits of a tile's pad= kind (ptoc_pto_pad, not null)
 * for `elem` (pto-isa PadValueMap: max is +inf / the integer maximum, min is
 * -inf / the integer minimum); false for an element type without one. */
bool cg_pad_bits(const ptoc_type *elem, uint32_t pad, uint64_t *out);
/* copy_gm_to_ubuf (to_ub) / copy_ubuf_to_gm of esize-byte elements: f holds
 * n_burst, len_burst, left_pad, right_pad, src gap, dst gap (i64); a store's
 * nonzero pad traps at `loc`. */
void cg_a2a3_copy(cg *g, bool to_ub, unsigned esize, LLVMValueRef dst, LLVMValueRef src, LLVMValueRef const f[6],
                  ptoc_loc loc);
/* Whether micro-op `id` is one of the A2/A3 repeat intrinsics (pto.a2a3.*). */
bool cg_vop_is_a2a3(ptoc_pto_vop_id id);

/* ---------------------------------------------------------------- tiles */

/* A tile operand resolved for emission. */
typedef struct cg_tile {
    ptoc_pto_tile_desc desc;   /* static facts (a memref in a space gets row_major none_box) */
    const ptoc_type *elem;     /* = desc.elem */
    uint32_t esize;            /* bytes per element */
    LLVMValueRef base;         /* ptr to the tile's first byte in simulated memory */
    LLVMValueRef vrows, vcols; /* i64 valid shape (constants when static) */
    LLVMValueRef agg;          /* the {offset, vrows, vcols} value */
} cg_tile;
/* lower_pto_cube.c: tmov whose src is in acc (the FIX pipe: converts, relu,
 * quantises with tmov's fp tile or pre-quant scalar). */
bool cg_lower_tmov_from_acc(cg *g, ptoc_op *op, const cg_tile *src, const cg_tile *dst);
/* lower_pto_cube.c: tmov from mat to bias that widens f16/bf16 to f32. */
bool cg_lower_tmov_widen_bias(cg *g, ptoc_op *op, const cg_tile *src, const cg_tile *dst);
/* The FIX pipe's conversion of one acc element (lower_pto_cube.c), for the ops
 * that leave acc: cg_fix_init checks the pair and reads the op's relu mode;
 * fp (a tile of quant words) or word (an i64 pre-quant scalar) selects the
 * quantisation, neither a plain conversion. cg_fix_value takes the element in
 * its compute type and its column (the channel) and gives dst's compute type. */
typedef struct cg_fix {
    int mode;
    bool relu, vector;
    LLVMValueRef word;
    cg_tile fp;
    const ptoc_type *from, *to;
} cg_fix;
bool cg_fix_init(cg *g, ptoc_op *op, cg_fix *fix, const cg_tile *src, const ptoc_type *to, const cg_tile *fp,
                 LLVMValueRef word);
LLVMValueRef cg_fix_value(cg *g, const cg_fix *fix, LLVMValueRef v, LLVMValueRef col);

/* The static description of a tile-typed ptoc type (tile_buf, tile, memref in an
 * on-chip space); false if `t` is not one. A memref of rank 1 to 5 with a static
 * shape is a row-major tile whose rows are its leading dims flattened (as an nd
 * view's rows are), its columns the last dim. */
bool cg_tile_desc_of(const ptoc_type *t, ptoc_pto_tile_desc *out);
/* Resolves a tile-typed value that has been lowered. */
bool cg_tile_of(cg *g, const ptoc_value *v, cg_tile *out);
/* Builds the aggregate of a tile of type `t` at byte `offset` with the given
 * valid shape, emitting the bounds check of a dynamic offset/valid shape. */
LLVMValueRef cg_tile_make(cg *g, const ptoc_type *t, LLVMValueRef offset, LLVMValueRef vrows,
                          LLVMValueRef vcols, ptoc_loc loc);
/* Pointer to element (r, c) (i64 values) for any layout of the tile (row/col
 * major, boxed: docs/targets.md). */
LLVMValueRef cg_tile_elem_ptr(cg *g, const cg_tile *t, LLVMValueRef r, LLVMValueRef c);
/* For row_major none_box tiles: pointer to the start of row r. */
LLVMValueRef cg_tile_row_ptr(cg *g, const cg_tile *t, LLVMValueRef r);
/* Elements between consecutive rows (row_major none_box: cols). */
int64_t cg_tile_row_stride(const cg_tile *t);

/* Sequential placement: a fresh i64 byte offset for `bytes` in `space`, or NULL
 * after "exceeds capacity" at `loc`. */
LLVMValueRef cg_place(cg *g, uint32_t space, uint64_t bytes, ptoc_loc loc);
uint64_t cg_capacity(cg *g, uint32_t space);
LLVMValueRef cg_space_base(cg *g, uint32_t space);
/* The simulated memory of A5's MX scale buffers (ScaleLeft beside L0A, ScaleRight
 * beside L0B): spaces of their own after the address spaces, since pto-plan-memory
 * plans each from offset 0 (docs/decisions.md). cg_tile_space says which space a
 * tile value's bytes live in: its loc, or for a scaling tile on an arch with MX
 * scale buffers the buffer its uses read it as. */
enum { CG_SPACE_SCALE_LEFT = PTOC_PTO_AS_COUNT, CG_SPACE_SCALE_RIGHT };
uint32_t cg_tile_space(cg *g, const ptoc_value *v, uint32_t loc);

/* The tiles of a compute op, for both forms. DPS: ins are operands
 * [0, nins), the out is operand nins. Level 1: ins are the operands and the out
 * is result 0, placed sequentially with the result type's valid shape (or, when
 * that is dynamic, the valid shape of input `shape_from`). */
bool cg_op_in(cg *g, ptoc_op *op, uint32_t i, cg_tile *out);
bool cg_op_out(cg *g, ptoc_op *op, uint32_t shape_from, cg_tile *out);
/* The scalar input i (a non-tile operand) as its LLVM value and ptoc type.
 * (core: i is the operand index; the value is in its compute type, so an f16
 * or bf16 scalar comes back as float, ready for cg_convert.) */
LLVMValueRef cg_op_scalar(cg *g, ptoc_op *op, uint32_t i, const ptoc_type **type);
/* A one-element slot (an alloca) holding the compute-type value `v` of type
 * `from` converted to `elem` and stored as a tile element would be (f16/bf16
 * rounded to nearest even, integers wrapped, float->int saturated): the scalar
 * of a tile-scalar op as the hardware receives it, in the tile's dtype. Load it
 * with cg_load_elem for arithmetic, or as raw bits to copy it. */
LLVMValueRef cg_elem_slot(cg *g, LLVMValueRef v, const ptoc_type *from, const ptoc_type *elem);
/* The scalar operand i through cg_elem_slot; NULL after an error. */
LLVMValueRef cg_op_scalar_slot(cg *g, ptoc_op *op, uint32_t i, const ptoc_type *elem);

/* ---------------------------------------------------------------- control flow */

/* A counted loop `for (iv = start; iv < end; iv++)` over i64. Between begin and
 * end the builder is in the body; after end it is in the exit block. Loops
 * nest (g->loop is the innermost open one). A row loop, one whose body holds
 * a loop or a memcpy/memmove/memset, is marked llvm.loop.unroll.disable: a
 * tile's rows unrolled copy a row's code per row, and a fully unrolled tile is
 * a block of hundreds of loads and stores whose instruction selection takes
 * quadratic time (a 16-row tload: about 120 ms of code generation unrolled,
 * 1 ms rolled). A loop the caller marks `remainder` (the last columns of a row
 * after whole vectors: fewer iterations than one vector) is marked not to be
 * vectorised or unrolled: that would only add code. Other inner loops stay
 * LLVM's to vectorise and interleave. */
typedef struct cg_loop {
    LLVMBasicBlockRef header, body, exit;
    LLVMValueRef iv;
    struct cg_loop *outer;     /* the enclosing cg_loop, if any */
    bool has_inner;            /* a cg_loop was emitted inside this one */
    bool remainder;            /* set before cg_loop_end: see above */
} cg_loop;
void cg_loop_begin(cg *g, cg_loop *l, LLVMValueRef start, LLVMValueRef end, const char *name);
void cg_loop_end(cg *g, cg_loop *l);
/* Emitting the body of another function (a shared op's, an intrinsic's) in
 * the middle of one: cg_enter_function makes `f` the function being lowered
 * (the LLVM function `fn`, with an entry block and a body block, the builder
 * at the body), keeping the caller's state in `caller`; cg_leave_function
 * ends the entry with a branch to the body and gives the caller back its
 * function, loops and place. */
typedef struct cg_caller {
    cg_func *fn;
    struct cg_loop *loop;
    LLVMBasicBlockRef at, body;
} cg_caller;
void cg_enter_function(cg *g, cg_func *f, LLVMValueRef fn, cg_caller *caller);
void cg_leave_function(cg *g, cg_caller *caller);
/* A fresh block appended to the current function. */
LLVMBasicBlockRef cg_block(cg *g, const char *name);
/* An alloca in the function's entry block (so mem2reg/SROA see it). */
LLVMValueRef cg_alloca(cg *g, LLVMTypeRef ty, const char *name);

#endif
