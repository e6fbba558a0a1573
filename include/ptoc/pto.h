/* pto.h: the pto dialect's types, attributes, op table and target query.
 *
 * Passes and backends read pto types and attributes through the accessors here
 * instead of decoding blobs themselves. Every enum uses PTOAS's numbering, so a
 * value printed by ptoc means what it means in PTOAS and pto-isa.
 *
 *   const ptoc_pto_tile_desc *tb = ptoc_pto_tile_buf(value->type);
 *   if (tb && tb->loc == PTOC_PTO_AS_VEC) { ... tb->rows, tb->valid_cols ... }
 *
 * The dialect is registered with ptoc_register_pto_dialect (ptoc.h).
 */
#ifndef PTOC_PTO_H
#define PTOC_PTO_H

#include "ptoc/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The registered dialect object (for ptoc_type_dialect_data and friends). */
const ptoc_dialect *ptoc_pto_dialect(void);

/* ---------------------------------------------------------------- enums */

/* #pto.address_space<...>, the `loc` of a tile. */
typedef enum ptoc_pto_address_space {
    PTOC_PTO_AS_ZERO = 0, PTOC_PTO_AS_GM = 1, PTOC_PTO_AS_MAT = 2, PTOC_PTO_AS_LEFT = 3,
    PTOC_PTO_AS_RIGHT = 4, PTOC_PTO_AS_ACC = 5, PTOC_PTO_AS_VEC = 6, PTOC_PTO_AS_BIAS = 7,
    PTOC_PTO_AS_SCALING = 8,
    PTOC_PTO_AS_COUNT,
} ptoc_pto_address_space;

/* #pto.pipe<...> */
typedef enum ptoc_pto_pipe {
    PTOC_PTO_PIPE_S = 0, PTOC_PTO_PIPE_V = 1, PTOC_PTO_PIPE_M = 2, PTOC_PTO_PIPE_MTE1 = 3,
    PTOC_PTO_PIPE_MTE2 = 4, PTOC_PTO_PIPE_MTE3 = 5, PTOC_PTO_PIPE_ALL = 6, PTOC_PTO_PIPE_MTE4 = 7,
    PTOC_PTO_PIPE_MTE5 = 8, PTOC_PTO_PIPE_V2 = 9, PTOC_PTO_PIPE_FIX = 10,
    PTOC_PTO_PIPE_VIRTUAL_MTE2_L1A = 11, PTOC_PTO_PIPE_VIRTUAL_MTE2_L1B = 12,
    PTOC_PTO_PIPE_NUM = 13, PTOC_PTO_PIPE_UNASSIGNED = 99,
    PTOC_PTO_PIPE_NONE = -1,         /* op table only: the op runs on no pipe */
    PTOC_PTO_PIPE_BY_SPACES = -2,    /* op table only: the pipe of its spaces' move row */
} ptoc_pto_pipe;

/* #pto.pipe_event_type<...> (alias #pto.sync_op_type<...>) */
typedef enum ptoc_pto_pipe_event {
    PTOC_PTO_EV_TLOAD = 0, PTOC_PTO_EV_TSTORE_ACC, PTOC_PTO_EV_TSTORE_VEC, PTOC_PTO_EV_TMOV_M2L,
    PTOC_PTO_EV_TMOV_M2S, PTOC_PTO_EV_TMOV_M2B, PTOC_PTO_EV_TMOV_M2V, PTOC_PTO_EV_TMOV_V2M,
    PTOC_PTO_EV_TMATMUL, PTOC_PTO_EV_TVEC, PTOC_PTO_EV_TVECWAIT_EVENT,
} ptoc_pto_pipe_event;

typedef enum ptoc_pto_blayout { PTOC_PTO_BL_ROW_MAJOR = 0, PTOC_PTO_BL_COL_MAJOR = 1 } ptoc_pto_blayout;
typedef enum ptoc_pto_slayout {
    PTOC_PTO_SL_NONE_BOX = 0, PTOC_PTO_SL_ROW_MAJOR = 1, PTOC_PTO_SL_COL_MAJOR = 2
} ptoc_pto_slayout;
typedef enum ptoc_pto_pad {
    PTOC_PTO_PAD_NULL = 0, PTOC_PTO_PAD_ZERO = 1, PTOC_PTO_PAD_MAX = 2, PTOC_PTO_PAD_MIN = 3
} ptoc_pto_pad;
typedef enum ptoc_pto_compact {
    PTOC_PTO_COMPACT_NULL = 0, PTOC_PTO_COMPACT_NORMAL = 1, PTOC_PTO_COMPACT_ROW_PLUS_ONE = 2
} ptoc_pto_compact;
typedef enum ptoc_pto_layout { PTOC_PTO_LAYOUT_ND = 0, PTOC_PTO_LAYOUT_DN = 1, PTOC_PTO_LAYOUT_NZ = 2 } ptoc_pto_layout;
typedef enum ptoc_pto_cmp {
    PTOC_PTO_CMP_EQ = 0, PTOC_PTO_CMP_NE, PTOC_PTO_CMP_LT, PTOC_PTO_CMP_LE, PTOC_PTO_CMP_GT,
    PTOC_PTO_CMP_GE,
} ptoc_pto_cmp;

/* Every enum attribute kind of the dialect: one row each in pto_attrs.c. The
 * attribute's blob is a uint32_t holding the enum's numeric value. */
typedef enum ptoc_pto_enum_kind {
    PTOC_PTO_ENUM_ADDRESS_SPACE,    /* #pto.address_space<vec> */
    PTOC_PTO_ENUM_PIPE,             /* #pto.pipe<PIPE_V> */
    PTOC_PTO_ENUM_EVENT,            /* #pto.event<EVENT_ID0>, values 0..7 */
    PTOC_PTO_ENUM_PIPE_EVENT_TYPE,  /* #pto.pipe_event_type<TLOAD> */
    PTOC_PTO_ENUM_SYNC_OP_TYPE,     /* #pto.sync_op_type<TLOAD> (deprecated alias) */
    PTOC_PTO_ENUM_LAYOUT,           /* #pto.layout<nd> */
    PTOC_PTO_ENUM_BLAYOUT,          /* #pto.blayout<row_major> */
    PTOC_PTO_ENUM_SLAYOUT,          /* #pto.slayout<none_box> */
    PTOC_PTO_ENUM_PAD_VALUE,        /* #pto.pad_value<zero> */
    PTOC_PTO_ENUM_COMPACT_MODE,     /* #pto.compact_mode<normal> */
    PTOC_PTO_ENUM_KERNEL_KIND,      /* #pto.kernel_kind<vector> */
    PTOC_PTO_ENUM_FUNC_CORE_TYPE,   /* #pto.func_core_type<AIV> */
    PTOC_PTO_ENUM_MODULE_CORE_TYPE, /* #pto.module_core_type<AIV> */
    PTOC_PTO_ENUM_MASK_PATTERN,     /* #pto.mask_pattern<P0101> */
    PTOC_PTO_ENUM_ACC_TO_VEC_MODE,  /* #pto.acc_to_vec_mode<single_mode_vec0> */
    PTOC_PTO_ENUM_PADMODE,          /* #pto.padmode<PadValue> */
    PTOC_PTO_ENUM_CMP,              /* #pto<cmp lt> */
    PTOC_PTO_ENUM_ROUND_MODE,       /* #pto<round_mode CAST_RINT> */
    PTOC_PTO_ENUM_SATURATION_MODE,  /* #pto<saturation_mode ON> */
    PTOC_PTO_ENUM_ST_PHASE,         /* #pto<st_phase final> */
    PTOC_PTO_ENUM_ATOMIC_TYPE,      /* #pto<atomic_type atomic_add> */
    PTOC_PTO_ENUM_RELU_PRE_MODE,    /* #pto<relu_pre_mode normal_relu> */
    PTOC_PTO_ENUM_GATHER_OOB,       /* #pto<gather_oob clamp> */
    PTOC_PTO_ENUM_SCATTER_ATOMIC_OP,/* #pto<scatter_atomic_op add> */
    PTOC_PTO_ENUM_SCATTER_OOB,      /* #pto<scatter_oob skip> */
    PTOC_PTO_ENUM_QUANT_TYPE,       /* #pto<quant_type INT8_SYM> */
    PTOC_PTO_ENUM_KIND_COUNT
} ptoc_pto_enum_kind;

/* Attribute kinds beyond the enums share the numbering space after them. */
#define PTOC_PTO_ATTR_TILE_BUF_CONFIG ((uint32_t)PTOC_PTO_ENUM_KIND_COUNT)

/* The enum attribute `kind` with numeric `value`; NULL if `value` is not one of
 * the kind's values. */
ptoc_attr *ptoc_pto_enum_attr(ptoc_context *ctx, ptoc_pto_enum_kind kind, uint32_t value);
/* If `a` is a pto enum attribute of `kind`, stores its value and returns true. */
bool ptoc_pto_enum_value(const ptoc_attr *a, ptoc_pto_enum_kind kind, uint32_t *value);
/* The spelling of a value ("PIPE_V", "vec", "lt"), or NULL. */
const char *ptoc_pto_enum_name(ptoc_pto_enum_kind kind, uint32_t value);

/* #pto.tile_buf_config<blayout=..., slayout=..., s_fractal_size=..., pad=..., compact=...> */
typedef struct ptoc_pto_tile_config {
    uint32_t blayout, slayout, fractal, pad, compact;
} ptoc_pto_tile_config;
const ptoc_pto_tile_config *ptoc_pto_tile_config_attr(const ptoc_attr *a);

/* ---------------------------------------------------------------- types */

typedef enum ptoc_pto_type_kind {
    PTOC_PTO_TYPE_PTR,              /* !pto.ptr<f32> */
    PTOC_PTO_TYPE_TENSOR_VIEW,      /* !pto.tensor_view<?x?xf16> */
    PTOC_PTO_TYPE_PARTITION_VIEW,   /* !pto.partition_tensor_view<16x16xf32> */
    PTOC_PTO_TYPE_TILE_BUF,         /* !pto.tile_buf<vec, 16x16xf32> */
    PTOC_PTO_TYPE_TILE,             /* !pto.tile<16x16xf32> (Level-1 value) */
    PTOC_PTO_TYPE_VREG,             /* !pto.vreg<64xf32> */
    PTOC_PTO_TYPE_MASK,             /* !pto.mask<b32> */
    PTOC_PTO_TYPE_EVENTID_ARRAY,    /* !pto.eventid_array<4> */
    PTOC_PTO_TYPE_PIPE,             /* !pto.pipe */
    PTOC_PTO_TYPE_ASYNC_SESSION,    /* !pto.async_session */
    PTOC_PTO_TYPE_ASYNC_EVENT,      /* !pto.async_event */
    PTOC_PTO_TYPE_UB_PTR,           /* !pto.ptr<f32, ub>: a UB address, as the vector micro-ops take */
    PTOC_PTO_TYPE_ALIGN,            /* !pto.align: an unaligned-store stream's pending bytes (vstus, vstas) */
    PTOC_PTO_TYPE_KIND_COUNT
} ptoc_pto_type_kind;

/* Views (tensor_view, partition_tensor_view) are at most rank 5, as GlobalTensor. */
#define PTOC_PTO_MAX_VIEW_RANK 5

typedef struct ptoc_pto_view {
    ptoc_type *elem;
    uint32_t rank;
    uint32_t reserved;                         /* zero */
    int64_t shape[PTOC_PTO_MAX_VIEW_RANK];     /* PTOC_DYNAMIC for `?`; unused dims zero */
} ptoc_pto_view;

/* One blob for both tile_buf and tile: a 2-D on-chip buffer and its layout.
 * valid_rows/valid_cols are PTOC_DYNAMIC when decided at run time. */
typedef struct ptoc_pto_tile_desc {
    ptoc_type *elem;
    int64_t rows, cols;
    int64_t valid_rows, valid_cols;
    uint32_t loc;                              /* ptoc_pto_address_space */
    uint32_t blayout;                          /* ptoc_pto_blayout */
    uint32_t slayout;                          /* ptoc_pto_slayout */
    uint32_t fractal;                          /* 16, 32, 512 or 1024 */
    uint32_t pad;                              /* ptoc_pto_pad */
    uint32_t compact;                          /* ptoc_pto_compact */
} ptoc_pto_tile_desc;

typedef struct ptoc_pto_vreg { ptoc_type *elem; int64_t lanes; } ptoc_pto_vreg;
/* !pto.mask<G>: G is the granularity keyword (b8, b16, b32 ...), kept as an ident. */
typedef struct ptoc_pto_mask { ptoc_ident *granularity; } ptoc_pto_mask;

bool ptoc_pto_type_is(const ptoc_type *t, ptoc_pto_type_kind kind);
/* NULL unless `t` is that kind of pto type. */
ptoc_type *ptoc_pto_ptr_elem(const ptoc_type *t);
ptoc_type *ptoc_pto_ub_ptr_elem(const ptoc_type *t);
const ptoc_pto_view *ptoc_pto_tensor_view(const ptoc_type *t);
const ptoc_pto_view *ptoc_pto_partition_view(const ptoc_type *t);
const ptoc_pto_tile_desc *ptoc_pto_tile_buf(const ptoc_type *t);
const ptoc_pto_tile_desc *ptoc_pto_tile(const ptoc_type *t);
/* A tile_buf or a tile: what tile ops look at. */
const ptoc_pto_tile_desc *ptoc_pto_tile_like(const ptoc_type *t);
const ptoc_pto_vreg *ptoc_pto_vreg_type(const ptoc_type *t);
/* The address space of a memref's #pto.address_space memory space (GM when absent);
 * false if `t` is not a memref or its memory space is something else. */
bool ptoc_pto_memref_space(const ptoc_type *t, ptoc_pto_address_space *out);

/* Constructors. The tile ones check nothing: the verifier checks the rules. */
ptoc_type *ptoc_pto_ptr_type(ptoc_context *ctx, ptoc_type *elem);
ptoc_type *ptoc_pto_ub_ptr_type(ptoc_context *ctx, ptoc_type *elem);
/* !pto.vreg<lanes x elem> and !pto.mask<b`bits`>. */
ptoc_type *ptoc_pto_vreg_type_get(ptoc_context *ctx, ptoc_type *elem, int64_t lanes);
ptoc_type *ptoc_pto_mask_type_get(ptoc_context *ctx, unsigned bits);
/* !pto.align. */
ptoc_type *ptoc_pto_align_type_get(ptoc_context *ctx);
ptoc_type *ptoc_pto_view_type(ptoc_context *ctx, ptoc_pto_type_kind kind, uint32_t rank,
                              const int64_t *shape, ptoc_type *elem);
/* kind is PTOC_PTO_TYPE_TILE_BUF or PTOC_PTO_TYPE_TILE. */
ptoc_type *ptoc_pto_tile_type(ptoc_context *ctx, ptoc_pto_type_kind kind, const ptoc_pto_tile_desc *desc);
/* A vec row_major none_box tile description with default config and valid = shape. */
ptoc_pto_tile_desc ptoc_pto_tile_desc_init(ptoc_type *elem, int64_t rows, int64_t cols);

/* Checks a tile description against the tile rules (fractal, pad, compact, valid
 * within shape, rows/cols > 0, 32-byte rows/columns for none_box layouts);
 * emits an error at `loc` and returns false on the first rule broken. */
bool ptoc_pto_tile_check(ptoc_context *ctx, ptoc_loc loc, const ptoc_pto_tile_desc *tb);

/* ---------------------------------------------------------------- target arch */

typedef enum ptoc_pto_arch {
    PTOC_PTO_ARCH_A2, PTOC_PTO_ARCH_A3, PTOC_PTO_ARCH_A5, PTOC_PTO_ARCH_CPU,
    PTOC_PTO_ARCH_INVALID,           /* the option or attribute names no known arch */
} ptoc_pto_arch;
#define PTOC_PTO_ARCH_DEFAULT PTOC_PTO_ARCH_CPU

/* The arch whose rules apply to `op`: its verifiers, memory capacities, sync
 * insertion and the pipe simulator all follow it. The context option "pto-arch"
 * wins (ptoc-opt/ptoc --pto-arch, ptoc -target), then the string attribute
 * `pto.target_arch` of the nearest enclosing builtin.module, then
 * PTOC_PTO_ARCH_DEFAULT: cpu, the target ptoc generates code for, whose rules
 * accept the union of the hardware dtype sets (PTOAS defaults to a3).
 * `spelling`, when not NULL, gets the text that was read (for diagnostics about
 * an invalid name). */
ptoc_pto_arch ptoc_pto_target_arch(const ptoc_op *op, const char **spelling);
/* Which column of the element type table (pto_dtypes.def) an arch's verifiers
 * read: a hardware generation's, or (cpu) the union of them. */
typedef enum ptoc_pto_dtype_column {
    PTOC_PTO_DTYPE_COLUMN_A2A3, PTOC_PTO_DTYPE_COLUMN_A5, PTOC_PTO_DTYPE_COLUMN_UNION,
} ptoc_pto_dtype_column;

/* The arch table (dialect/pto_arch.c): one row per arch, the only place its
 * names and figures are written. */
#define PTOC_PTO_ARCH_MAX_ALIASES 2
/* A DMA path's bandwidth: what `pipe` moves into or out of on-chip space
 * `space`, in GiB/s. */
typedef struct ptoc_pto_arch_bandwidth {
    int pipe;                                       /* ptoc_pto_pipe */
    ptoc_pto_address_space space;
    double gib_per_s;
} ptoc_pto_arch_bandwidth;
enum { PTOC_PTO_ARCH_MAX_BANDWIDTHS = 8 };

typedef struct ptoc_pto_arch_info {
    ptoc_pto_arch arch;
    const char *name;                               /* "a3", lower case */
    const char *aliases[PTOC_PTO_ARCH_MAX_ALIASES]; /* other names ("a2a3"); NULL-terminated when short */
    uint64_t capacity[PTOC_PTO_AS_COUNT];           /* bytes per on-chip space; 0: GM, zero */
    uint32_t alignment[PTOC_PTO_AS_COUNT];          /* bytes per on-chip space */
    uint32_t in_order_pipes;                        /* bit p: pipe p keeps its own ops in order */
    uint64_t scratch_begin, scratch_end;            /* UB bytes ops use as hidden scratch; equal: none */
    uint32_t event_ids;                             /* per (source pipe, destination pipe) pair */
    ptoc_pto_dtype_column dtypes;
    uint64_t mx_scale_capacity;                     /* bytes of each MX scale buffer (ScaleLeft, ScaleRight); 0: none */
    /* the cost model: the core clock (0: not known, cycles only) and the DMA
     * bandwidths (a path not listed takes the pipe simulator's rough figure) */
    double clock_hz;
    ptoc_pto_arch_bandwidth bandwidth[PTOC_PTO_ARCH_MAX_BANDWIDTHS];
} ptoc_pto_arch_info;
/* The row of `arch`, NULL for PTOC_PTO_ARCH_INVALID. */
const ptoc_pto_arch_info *ptoc_pto_arch_info_of(ptoc_pto_arch arch);
/* A row's name or one of its aliases, in any case; INVALID for anything else. */
ptoc_pto_arch ptoc_pto_arch_from_name(const char *name);
const char *ptoc_pto_arch_name(ptoc_pto_arch arch);          /* the row's name, "invalid" */
/* Every name and alias of the table, "a2, a3, a2a3, a5 or cpu", into buf (n
 * bytes, truncated to fit); returns the full length, as snprintf does. */
size_t ptoc_pto_arch_names(char *buf, size_t n);
/* The same list joined by `sep`, with `last_sep` before the last name
 * ("|" and "|" give the metavar "a2|a3|a2a3|a5|cpu"). */
size_t ptoc_pto_arch_names_joined(char *buf, size_t n, const char *sep, const char *last_sep);
/* Whether `pipe` keeps its own ops in order on `arch`. */
bool ptoc_pto_pipe_in_order(ptoc_pto_arch arch, int pipe);

/* Capacity in bytes of an on-chip address space on `arch` (the row's; cpu has
 * the A5 figures), 0 for GM/unknown spaces; and its alignment (32, 512 in L0). */
uint64_t ptoc_pto_space_capacity(ptoc_pto_arch arch, ptoc_pto_address_space space);
uint32_t ptoc_pto_space_alignment(ptoc_pto_arch arch, ptoc_pto_address_space space);
/* The capacity passes plan `space` with: ptoc_pto_space_capacity, except that
 * the context option "pto-ub-size" (a decimal byte count: ptoc -ub-size,
 * ptoc-opt --ub-size) replaces the vec (UB) figure, for experiments with tiles
 * larger than a real UB. */
uint64_t ptoc_pto_planned_capacity(ptoc_context *ctx, ptoc_pto_arch arch, ptoc_pto_address_space space);

/* ---------------------------------------------------------------- level */

/* PTOAS's --pto-level: level1 and level2 plan memory for buffers without an
 * address; at level3 addresses are the author's, and an on-chip buffer without
 * one is a verifier error at its op. */
typedef enum ptoc_pto_level {
    PTOC_PTO_LEVEL1 = 1, PTOC_PTO_LEVEL2, PTOC_PTO_LEVEL3,
    PTOC_PTO_LEVEL_INVALID,
} ptoc_pto_level;
/* The context option "pto-level" ("level1", "level2", "level3"); level2 when
 * unset; INVALID for another value. */
ptoc_pto_level ptoc_pto_target_level(ptoc_context *ctx);
ptoc_pto_level ptoc_pto_level_from_name(const char *name);    /* INVALID if unknown */
/* An on-chip buffer the planner must place: a pto.alloc_tile without `addr`, or
 * a memref.alloc/alloca in an on-chip space without a `pto.addr` attribute. */
bool ptoc_pto_is_addressless_buffer(const ptoc_op *op);
/* At level3, an error at `op` (and false) when it is an address-less buffer. */
bool ptoc_pto_check_level_address(const ptoc_op *op);

/* ---------------------------------------------------------------- element types per target */

/* Element type classes, one bit each, as the hardware implementations name
 * them: signless integers count as signed (int8_t ...), every f8E4M3 variant is
 * float8_e4m3_t and every f8E5M2 variant float8_e5m2_t (as PTOAS maps them);
 * OTHER is everything else (i1, f64, tf32 ...). */
enum {
    PTOC_PTO_DT_I8 = 1u << 0, PTOC_PTO_DT_U8 = 1u << 1, PTOC_PTO_DT_I16 = 1u << 2, PTOC_PTO_DT_U16 = 1u << 3,
    PTOC_PTO_DT_I32 = 1u << 4, PTOC_PTO_DT_U32 = 1u << 5, PTOC_PTO_DT_I64 = 1u << 6, PTOC_PTO_DT_U64 = 1u << 7,
    PTOC_PTO_DT_F16 = 1u << 8, PTOC_PTO_DT_BF16 = 1u << 9, PTOC_PTO_DT_F32 = 1u << 10,
    PTOC_PTO_DT_F8E4M3 = 1u << 11, PTOC_PTO_DT_F8E5M2 = 1u << 12, PTOC_PTO_DT_OTHER = 1u << 13,
};
#define PTOC_PTO_DT_COUNT 14
/* The class bit of a tile element type. */
uint32_t ptoc_pto_dtype_class(const ptoc_type *elem);
/* The name of class `bit` ("i8", "ui16", "f8E4M3", "other"), NULL if not one bit. */
const char *ptoc_pto_dtype_class_name(uint32_t bit);

/* The rules of a kernel entry (a pto.entry function, or a module's only
 * function with a body) on the hardware targets: it returns nothing and does
 * not call itself through func.call. func.func's verifier calls it. */
bool ptoc_pto_verify_entry(const ptoc_op *fn);

/* How pto-insert-sync ends a function whose pipe work may still be in flight
 * at a return, chosen by its pto.auto_sync_tail_hint (dialect/pto_tail_hint.c). */
typedef enum ptoc_pto_tail_mode {
    PTOC_PTO_TAIL_BARRIER_ALL,  /* pto.barrier <PIPE_ALL>: the default */
    PTOC_PTO_TAIL_MTE3_TO_S,    /* set_flag/wait_flag[<PIPE_MTE3>, <PIPE_S>, <EVENT_ID0>] */
} ptoc_pto_tail_mode;
/* The mode `fn`'s hint names (barrier-all without one); false when the hint
 * is not a string of PTOAS's spellings. */
bool ptoc_pto_tail_hint(const ptoc_op *fn, ptoc_pto_tail_mode *mode);
/* func.func's verifier: a located error for a hint ptoc_pto_tail_hint refuses. */
bool ptoc_pto_verify_tail_hint(const ptoc_op *fn);

/* ---------------------------------------------------------------- ops */

/* How an op is written. */
typedef enum ptoc_pto_op_form {
    PTOC_PTO_FORM_DPS,          /* ins(...) outs(...) {attrs}, or Level-1 `%r = pto.op %a : T -> R` */
    PTOC_PTO_FORM_DPS_ATTR_INS, /* DPS with the attr-dict inside ins (tcmp, tcmps, ttri, tci) */
    PTOC_PTO_FORM_CUSTOM,       /* its own parse/print (views, alloc, sync, queries ...) */
} ptoc_pto_op_form;

/* One opcode per row of the op table (dialect/pto_ops.def), in its order:
 * PTOC_PTO_OP_TADD, PTOC_PTO_OP_TMATMUL_ACC ("pto.tmatmul.acc"). Passes and
 * backends test an op by its opcode, never by comparing its name. */
typedef enum ptoc_pto_op_id {
    PTOC_PTO_OP_NONE = -1,      /* not a pto op */
#define PTO_OP(id, ...) PTOC_PTO_OP_##id,
#include "../../dialect/pto_ops.def"
#undef PTO_OP
    PTOC_PTO_OP_COUNT
} ptoc_pto_op_id;

/* One id per row of the vector micro-op table (dialect/pto_vops.def): the A5
 * vector micro-ISA, PTOC_PTO_VOP_VADD ("pto.vadd"). These are not tile ops:
 * ptoc_pto_opcode gives PTOC_PTO_OP_NONE for them. */
typedef enum ptoc_pto_vop_id {
    PTOC_PTO_VOP_NONE = -1,     /* not a micro-op */
#define PTO_VOP(id, ...) PTOC_PTO_VOP_##id,
#include "../../dialect/pto_vops.def"
#undef PTO_VOP
    PTOC_PTO_VOP_COUNT
} ptoc_pto_vop_id;

/* A micro-op's row: its signatures in pto_vops.def's letters. */
typedef struct ptoc_pto_vop_info {
    ptoc_pto_vop_id id;
    const char *name;           /* "pto.vadd" */
    const char *operands;       /* "v v m" */
    const char *results;        /* "v" */
    const char *attrs;          /* the attributes it takes besides its string operands: "mode" */
    const char *summary;        /* what it computes */
} ptoc_pto_vop_info;

ptoc_pto_vop_id ptoc_pto_vop(const ptoc_op *op);
/* The granularity (8, 16 or 32 bits) a vector's lanes are predicated at: its
 * element's width, 32 for 64-bit elements (one bit group per 32-bit half). */
unsigned ptoc_pto_vreg_lane_bits(const ptoc_pto_vreg *v);
/* A !pto.mask's granularity in bits (8, 16, 32); 0 for any other type or a bare mask. */
unsigned ptoc_pto_mask_bits(const ptoc_type *t);
size_t ptoc_pto_vop_count(void);
const ptoc_pto_vop_info *ptoc_pto_vop_info_at(size_t i);   /* NULL past the last */
/* The name a2a3.vconv's pairs give an element type: f16 bf16 f32, or an
 * integer's bits with s (u for the unsigned 8-bit one); "" for any other. */
const char *ptoc_pto_vconv_type_name(const ptoc_type *elem);

/* The dialect's row for one op (ptoc_op_def.data points at it). */
typedef struct ptoc_pto_op_info {
    ptoc_pto_op_id opcode;
    const char *name;           /* "pto.tadd" */
    ptoc_pto_op_form form;
    int pipe;                   /* ptoc_pto_pipe; PTOC_PTO_PIPE_NONE when none */
    uint8_t min_ins, max_ins, min_outs, max_outs;   /* max 255: variadic */
    bool level1;                /* also read in the Level-1 SSA form (and as a PTO-AS statement) */
} ptoc_pto_op_info;
#define PTOC_PTO_VARIADIC 255

/* The row of a pto op, or NULL for other ops. */
const ptoc_pto_op_info *ptoc_pto_op_info_of(const ptoc_op *op);
/* The opcode of `op` (from its row, O(1)), or PTOC_PTO_OP_NONE for other ops. */
ptoc_pto_op_id ptoc_pto_opcode(const ptoc_op *op);
/* The full name of an opcode's op ("pto.tmov"), for building one; NULL for
 * PTOC_PTO_OP_NONE and out-of-range values. */
const char *ptoc_pto_op_name(ptoc_pto_op_id opcode);
/* The C name of an opcode's verifier ("pto_verify_elementwise";
 * "pto_verify_structure" checks the counts and types only), for documentation;
 * NULL for PTOC_PTO_OP_NONE and out-of-range values. */
const char *ptoc_pto_op_verifier_name(ptoc_pto_op_id opcode);
/* Whether `op` is the pto op `opcode`. */
static inline bool ptoc_pto_is(const ptoc_op *op, ptoc_pto_op_id opcode) { return ptoc_pto_opcode(op) == opcode; }
/* The pipe an op runs on: its row's, or for a data movement (tload, tstore,
 * tmov, textract, tinsert and their fp forms) the pipe of the move row of its
 * source's and destination's spaces (pto_ops.def): MAT->LEFT is MTE1, ACC->GM FIX.
 * An integer tdivs on A2/A3 runs on S (the hardware divides it element by
 * element on the scalar unit). */
ptoc_pto_pipe ptoc_pto_op_pipe(const ptoc_op *op);
/* The pipe a record_event / wait_event names by its #pto.pipe_event_type
 * (PTOAS's SyncOpType: TLOAD MTE2, TSTORE_VEC MTE3, TMOV_M2L/M2B MTE1, ...);
 * PTOC_PTO_PIPE_NONE for a value outside the enum. */
ptoc_pto_pipe ptoc_pto_pipe_event_pipe(uint32_t event_type);
/* Whether ptoc runs `opcode` on A2/A3's scalar unit (S pipe), element by
 * element, for a dst element of that kind: the ops whose library vector
 * sequences do not give the cpu target's bytes (trem, tfmod, taddc, tsubc,
 * taddsc, tsubsc, taxpy, tprelu, tlrelu and their scalar forms), the bitwise
 * ops on 8-bit integers, signed tshrs and integer trecip. */
bool ptoc_pto_a2a3_scalar_unit(ptoc_pto_op_id opcode, bool is_int, unsigned bits, bool is_unsigned);
/* Whether ptoc runs `opcode` on A5's scalar unit (PIPE_S) one element at a
 * time: the float remainders (trem, trems, tfmod, tfmods), whose library
 * vector sequence is not fmod's exact result. */
bool ptoc_pto_a5_scalar_unit(ptoc_pto_op_id opcode, bool is_float);
/* The hardware buffers the `scaling` space stands for: the fixpipe's (FB,
 * tmov.fp and the other fp forms) and, on A5, the MX matmuls' scale buffers
 * beside L0A and L0B (ScaleLeft, ScaleRight). Which one operand `i` of `op`
 * uses: an MX matmul's a_scale or b_scale, else FB. */
typedef enum ptoc_pto_scaling_buffer {
    PTOC_PTO_SCALING_FB, PTOC_PTO_SCALING_LEFT, PTOC_PTO_SCALING_RIGHT
} ptoc_pto_scaling_buffer;
ptoc_pto_scaling_buffer ptoc_pto_scaling_buffer_of(const ptoc_op *op, uint32_t i);
/* The move rows of the op table, in order: row i, or false past the last. */
bool ptoc_pto_move_at(size_t i, ptoc_pto_address_space *src, ptoc_pto_address_space *dst, ptoc_pto_pipe *pipe);
/* For a DPS op: the number of ins and outs (from operandSegmentSizes, or from the
 * Level-1 shape: operands are ins, results are outs). */
bool ptoc_pto_dps_split(const ptoc_op *op, uint32_t *nins, uint32_t *nouts);
/* Where the dynamic valid shape of a Level-1 op's result comes from. */
typedef enum ptoc_pto_vshape {
    PTOC_PTO_VSHAPE_NONE = 0,       /* nowhere: a dynamic valid shape is an error */
    PTOC_PTO_VSHAPE_IN0,            /* in 0's */
    PTOC_PTO_VSHAPE_IN1,            /* in 1's (tsel, tsels: in 0 is the mask) */
    PTOC_PTO_VSHAPE_VIEW,           /* the partition view's sizes (tload) */
    PTOC_PTO_VSHAPE_SAME_TYPE,      /* the first in whose type is the result's */
} ptoc_pto_vshape;
/* How a DPS pto op touches its tile operands (the effects columns of
 * dialect/pto_ops.def); never NULL: other ops get no in-place and no whole writes. */
/* How an in's type must match the out's for the out to be written over the in
 * in place (the op table's inpl column; pto_access.c says why per op). */
typedef enum ptoc_pto_inplace_rule {
    PTOC_PTO_INPLACE_SAME,      /* element (i,j) at one address in both: one element size, shape, layout */
    PTOC_PTO_INPLACE_NARROW,    /* SAME, or (A5, cpu) row-major with a narrower out element */
    PTOC_PTO_INPLACE_FULL,      /* SAME, and the in's valid shape is the out's, both static */
    PTOC_PTO_INPLACE_FULL_A2A3, /* FULL on A2/A3, SAME on A5 and cpu */
    PTOC_PTO_INPLACE_ORIGIN,    /* a window at constant (0, 0), row-major, one row stride: a copy onto itself */
} ptoc_pto_inplace_rule;
typedef struct ptoc_pto_effects {
    uint32_t inplace_ins;       /* bit i: on A5 and cpu the out may be exactly in i (dst == src) */
    uint32_t inplace_ins_a2a3;  /* the same on A2/A3 */
    ptoc_pto_inplace_rule inplace_rule; /* how the in's and the out's types must match for it */
    bool writes_valid;          /* writes every element of its outs' valid regions, reading none first */
    bool reads_outs;            /* reads its outs before writing them (taxpy: dst = src * s + dst) */
    uint32_t scratch_ins;       /* bit i: in i is scratch the op writes (on some arch) before reading it */
    uint32_t window_archs;      /* bit a (ptoc_pto_arch): on arch a it uses the arch's hidden scratch window */
    ptoc_pto_vshape vshape;     /* where a Level-1 result's dynamic valid shape comes from */
} ptoc_pto_effects;
const ptoc_pto_effects *ptoc_pto_op_effects(const ptoc_op *op);
/* Whether `op` uses `arch`'s hidden scratch window: its row's window column,
 * or on A2/A3 an op that ptoc lowers there through byte lanes on an 8-bit
 * tile (texpands, tfillpad*, tcolexpand, the bitwise ops). */
bool ptoc_pto_op_uses_window(const ptoc_op *op, ptoc_pto_arch arch);
/* The ins of `op` its out may be written over on `arch` (bit i: in i), before
 * the types are looked at. */
uint32_t ptoc_pto_inplace_ins(const ptoc_op *op, ptoc_pto_arch arch);
/* Whether `op` may write its one out, of type `out`, over its in `in`, of
 * type `in_type`, in place on `arch`: the in is one of ptoc_pto_inplace_ins and
 * the types match as the row's rule says. */
bool ptoc_pto_inplace_allowed(const ptoc_op *op, ptoc_pto_arch arch, uint32_t in, const ptoc_type *in_type,
                              const ptoc_type *out);

/* ---------------------------------------------------------------- accesses */

/* How an op touches one buffer or GM operand: the one access model that the
 * passes which place or order memory (pto-plan-memory, pto-insert-sync) and
 * codegen's pipe events read (dialect/pto_access.c gives the rules). */
#define PTOC_PTO_SPACE_ANY (-1)         /* space of an access that may touch anything */
typedef struct ptoc_pto_access {
    const ptoc_value *value;    /* the operand or Level-1 result touched; NULL: anything */
    uint32_t index;             /* operand index; noperands + k for result k */
    uint32_t role;              /* place among the op's ins then outs, equal in its DPS and Level-1 forms */
    bool read;                  /* the op reads the value's contents */
    bool write;                 /* the op writes some of them */
    bool kills;                 /* it writes every byte the value holds before reading any */
    int32_t space;              /* ptoc_pto_address_space, or PTOC_PTO_SPACE_ANY */
    const ptoc_value *root;     /* GM: the pointer argument under the view; NULL when unknown */
    bool known;                 /* the byte range is static; else it is the whole space */
    uint64_t lo, hi;            /* bytes [lo, hi) of the space (GM: from root) */
} ptoc_pto_access;
/* The room ptoc_pto_op_accesses needs for `op`: one per operand and result, plus one. */
uint32_t ptoc_pto_op_max_accesses(const ptoc_op *op);
/* Fills out[0 .. n) with the accesses of `op` and returns n, in operand order
 * then result order, one per operand or result that is a tile, an on-chip or
 * GM memref, or a view (nothing else is memory). */
uint32_t ptoc_pto_op_accesses(const ptoc_op *op, ptoc_pto_access *out);
/* Whether two accesses may touch a common byte (same space, same GM root or
 * an unknown one, overlapping ranges), whatever they read or write. */
bool ptoc_pto_accesses_overlap(const ptoc_pto_access *x, const ptoc_pto_access *y);
/* Bytes of one element of `elem` (1 for types narrower than a byte). */
uint64_t ptoc_pto_elem_bytes(const ptoc_type *elem);
/* Bytes a tile or an on-chip memref occupies: rows * cols * element, with
 * one more row for compact=row_plus_one; false when the shape is dynamic or
 * `t` is not a buffer type. */
bool ptoc_pto_buffer_bytes(const ptoc_type *t, uint64_t *bytes);
/* Where an op places the buffer it defines; every pass and backend reads
 * addresses through this: alloc_tile's `addr` operand, pto.tassign's address
 * operand (PTOAS's `%r = pto.tassign %t, %addr`) or its i64 attribute `addr`
 * (the ISA's `pto.tassign %t, tile(0x1000)`). */
typedef struct ptoc_pto_addr {
    bool given;                 /* the op places its buffer (false: no address, or another op) */
    ptoc_value *value;          /* the address operand; NULL when it is the attribute */
    bool known;                 /* known at compile time (the attribute, or an arith.constant) */
    int64_t offset;             /* then: the byte offset in the tile's address space */
} ptoc_pto_addr;
ptoc_pto_addr ptoc_pto_buffer_addr(const ptoc_op *op);
/* The pto.reserve_buffer a pto.import_reserved_buffer names (the one of its
 * `name` in its `peer_func`), or NULL. */
const ptoc_op *ptoc_pto_imported_reserve(const ptoc_op *import);
/* An alloc_tile's valid_row and valid_col operands, NULL where not given (and
 * both NULL for any other op). */
void ptoc_pto_alloc_tile_valid(const ptoc_op *op, ptoc_value *valid[2]);
/* The scratch tile a pto.tsel/tsels needs, on the arch it is verified for, when
 * it is written without its tmp operand: a !pto.tile_buf of 32 bytes in vec on
 * A2/A3 (u32 words for tsel, the source's dtype for tsels), NULL on A5 and cpu,
 * which need none, and for other ops. `*tmp_index` (when not NULL) gets tmp's
 * place among the four ins: tsel ins(mask, src0, src1, tmp), tsels ins(mask,
 * src, tmp, scalar). pto-bufferize supplies the tile. */
ptoc_type *ptoc_pto_select_scratch(const ptoc_op *op, uint32_t *tmp_index);
/* The table, in order: row i of ptoc_pto_op_count() rows (docs/ops.md lists them). */
size_t ptoc_pto_op_count(void);
const ptoc_pto_op_info *ptoc_pto_op_info_at(size_t i);

/* ---------------------------------------------------------------- element type rows */

/* One row of the per-target element type table (dialect/pto_dtypes.def): the
 * operand `role` of op `op` takes the classes of its arch's set, whenever every
 * condition of `when` holds ("" always; "src=f32": operand src has class f32;
 * "src@acc": operand src is in loc=acc; several are separated by spaces). A row
 * with `same_as` instead requires role's element type to equal same_as's. */
typedef struct ptoc_pto_dtype_rule {
    ptoc_pto_op_id op;           /* PTOC_PTO_OP_TADD */
    const char *role;            /* "dst" */
    const char *when;            /* "" or conditions */
    const char *same_as;         /* NULL for a set row */
    uint32_t a2a3, a5, cpu;      /* class sets; cpu is the union of the hardware's plus its own */
} ptoc_pto_dtype_rule;
/* The table's rows in order (the rows of one op are contiguous). */
size_t ptoc_pto_dtype_rule_count(void);
const ptoc_pto_dtype_rule *ptoc_pto_dtype_rule_at(size_t i);
/* The set of `rule` for `arch` (a2 and a3 share one; 0 for an invalid arch). */
uint32_t ptoc_pto_dtype_rule_set(const ptoc_pto_dtype_rule *rule, ptoc_pto_arch arch);
/* The operand roles of op `opcode` ("src0 src1 | dst": ins, then outs after
 * the bar), for the ops the table has rows for; NULL for others. */
const char *ptoc_pto_op_roles(ptoc_pto_op_id opcode);

#ifdef __cplusplus
}
#endif
#endif
