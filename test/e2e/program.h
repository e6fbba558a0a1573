/* program.h: the differential tests' description of one kernel.
 *
 * A program is a straight-line manual-mode kernel: tiles at fixed UB addresses,
 * loads from and stores to GM pointer parameters through (2-D or 5-D) views,
 * and tile ops between them. The same description is used twice:
 *   - printed as .pto text (program_emit), which ptoc parses, lowers and JITs;
 *   - interpreted with the C reference (program_reference) on a simulated,
 *     zero-initialised UB.
 * Both get identical GM buffers and scalar arguments, and the buffers after the
 * run must be equal byte for byte.
 *
 * Valid dimensions are either static (>= 0) or the kernel's index parameters
 * %vr / %vc (E2E_DYN_R / E2E_DYN_C), which every dynamic program takes last.
 */
#ifndef PTOC_E2E_PROGRAM_H
#define PTOC_E2E_PROGRAM_H

#include "ref.h"

#include "ptoc/pto.h"

#include <stdio.h>

#define E2E_DYN_R (-1)     /* the %vr parameter */
#define E2E_DYN_C (-2)     /* the %vc parameter */
#define E2E_MAX_PARAMS 12
#define E2E_MAX_TILES 10
#define E2E_MAX_STEPS 16
#define E2E_UB_BYTES (256 * 1024)

typedef enum e2e_param_kind { E2E_PTR, E2E_SCALAR } e2e_param_kind;

typedef struct e2e_param {
    e2e_param_kind kind;
    ref_dtype dtype;           /* pointee, or the scalar's dtype */
    int64_t elems;             /* E2E_PTR: buffer length */
    int64_t ld;                /* E2E_PTR: elements per row, for messages */
    bool index;                /* E2E_SCALAR of REF_I64 passed as an `index` */
} e2e_param;

typedef struct e2e_tile {
    ref_dtype dtype;
    int64_t rows, cols, vrows, vcols;   /* vrows/vcols may be E2E_DYN_R/C */
    ref_layout layout;
    ref_box box;
    int64_t addr;              /* byte offset in UB */
    int pad;                   /* tile_buf pad= (0 none, 1 zero, 2 max, 3 min) */
    int alias_of;              /* the tile whose bytes this one reinterprets, or -1 */
} e2e_tile;

/* A view of a pointer parameter: make_tensor_view + partition_view, with a
 * GM layout (ref_gm_layout, nd by default) written on the make_tensor_view or,
 * with layout_on_op, on the tload/tstore (manual form; Level 1 writes it on
 * the view). */
typedef struct e2e_view {
    int param;
    int rank;                  /* 2 or 5 */
    int64_t shape[5], stride[5], offset[5], size[5];   /* size may be E2E_DYN_R/C */
    ref_gm_layout layout;
    bool layout_on_op;
} e2e_view;

typedef enum e2e_step_kind { E2E_LOAD, E2E_STORE, E2E_OP } e2e_step_kind;

/* An operand of an op step: a tile (index into tiles), a scalar parameter, or
 * (constant) the index constant `index` (textract's row and column). */
typedef struct e2e_operand {
    bool scalar;               /* also set for a constant: not a tile */
    int index;
    bool constant;
} e2e_operand;

typedef struct e2e_step {
    e2e_step_kind kind;
    int tile;                  /* LOAD/STORE: the tile; OP: the destination */
    e2e_view view;             /* LOAD/STORE */
    int pad_scalar;            /* LOAD: param index of pad_value, or -1 */
    ptoc_pto_op_id op;         /* OP: an op of the table (program_reference lists those it computes) */
    e2e_operand in[6];         /* OP: its ins; their kinds pick the form (tdivs ins(%s, %t), tcmps of two tiles) */
    int nin;
    ref_cmp cmp;               /* tcmp / tcmps */
    int byte;                  /* thistogram: 0..3 */
    int is_msb;                /* thistogram: -1 byte = N, else isMSB = true|false */
    int rmode;                 /* tcvt: 0 none written, else 1 + the #pto<round_mode> value (NONE .. CAST_RINT) */
    int sat;                   /* tcvt: 0 none written, 1 sat_mode ON, 2 OFF */
    int mode;                  /* tci descending, ttri upperOrLower, trandom rounds, tquant quant_type
                                  (0 INT8_SYM, 1 INT8_ASYM), tfillpad*: dst's pad (reference only) */
    bool exhausted;            /* tmrgsort of lists: {exhausted = true} */
    int mask;                  /* tgather mask form: the #pto.mask_pattern value (1 P0101 .. 7 P1111), 0 none */
    int cdst;                  /* tgather compare form: 1 + its cdst tile (cmp: eq or gt), 0 none */
    int offset;                /* tgather compare form: its offset attribute */
} e2e_step;

typedef struct e2e_program {
    char name[64];
    e2e_param params[E2E_MAX_PARAMS];
    int nparams;
    bool dynamic;              /* takes %vr, %vc after the params */
    e2e_tile tiles[E2E_MAX_TILES];
    int ntiles;
    e2e_step steps[E2E_MAX_STEPS];
    int nsteps;
    int64_t next_addr;         /* for program_tile */
} e2e_program;

/* Building. */
void program_init(e2e_program *p, const char *name, bool dynamic);
int program_ptr(e2e_program *p, ref_dtype t, int64_t elems, int64_t ld);
int program_scalar(e2e_program *p, ref_dtype t);
/* A scalar parameter of type index (an i64 on the host). */
int program_index(e2e_program *p);
/* A tile at the next free UB address (256-byte aligned). */
int program_tile(e2e_program *p, ref_dtype t, int64_t rows, int64_t cols, int64_t vrows, int64_t vcols);
/* A second tile at `of`'s address with its own shape (an alias, manual mode). */
int program_alias(e2e_program *p, int of, ref_dtype t, int64_t rows, int64_t cols, int64_t vrows, int64_t vcols,
                  ref_layout layout, ref_box box);
/* A 2-D view covering `tile`'s valid region of a fresh rows x cols buffer. */
e2e_view program_tile_view(e2e_program *p, int tile);
void program_load(e2e_program *p, int tile, e2e_view v, int pad_scalar);
void program_store(e2e_program *p, int tile, e2e_view v);
/* Loads `tile` from a fresh buffer holding its whole physical shape. */
void program_load_tile(e2e_program *p, int tile);
/* Stores `tile`'s valid region to a fresh buffer, and its whole physical extent
 * (through a full-valid alias) to another: the second shows anything written
 * outside the valid region. */
void program_store_tile(e2e_program *p, int tile);
/* The second half alone: the whole physical extent to a fresh buffer. */
void program_store_whole(e2e_program *p, int tile);
e2e_step *program_op(e2e_program *p, ptoc_pto_op_id op, int dst, int nin, const e2e_operand *in);
e2e_operand tile_operand(int tile);
e2e_operand scalar_operand(int param);
e2e_operand index_operand(int value);

/* The .pto text of a function for `p` (appended to `out`), synced for the
 * pipes its ops run on on `arch` (a pto.target_arch name). */
void program_emit(const e2e_program *p, const char *arch, FILE *out);
/* The Level-1 (auto mode) text of the same kernel: tile values instead of
 * buffers (`%s = pto.tload`, `%s = pto.tadd`, `pto.tstore %s`), no addresses,
 * no flags. Stores of aliases are left out, since Level 1 cannot alias: the
 * Level-1 kernel writes only the valid-region outputs. */
void program_emit_level1(const e2e_program *p, FILE *out);
/* Whether `p` has a Level-1 form; if not, *why says what Level 1 lacks. */
bool program_level1_ok(const e2e_program *p, const char **why);
/* Whether the Level-1 form of `p` leaves pointer parameter `param` as the
 * manual form leaves it: false for the buffers only alias stores write. */
bool program_level1_compares(const e2e_program *p, int param);
/* The MLIR type of a scalar parameter of dtype t ("f32", "i16" for ui16 ...). */
const char *program_scalar_type(ref_dtype t);

/* Runs `p` with the C reference: `bufs[i]` are the pointer parameters' buffers
 * (changed in place), `scalars[i]` the scalar parameters' bit patterns, vr/vc
 * the dynamic valid shape. UB starts as `ub_fill` bytes (0, or the runtime's
 * 0xA5 poison, which shows writes of zeros outside the valid region). a2a3:
 * compares as the A2/A3 hardware does (ref_tcmp_a2a3: its quirks). */
void program_reference(const e2e_program *p, uint8_t **bufs, const uint64_t *scalars, int64_t vr, int64_t vc,
                       uint8_t ub_fill, bool a2a3);
/* Whether a compare of `p` meets an A2/A3 quirk (ref_a2a3_cmp_quirk). */
bool program_a2a3_cmp_quirk(const e2e_program *p);

/* The op's name without "pto." ("tadd"), for case names and statistics keys. */
const char *program_op_name(ptoc_pto_op_id op);

#endif
