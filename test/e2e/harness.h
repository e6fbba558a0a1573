/* harness.h: compiling e2e programs with ptoc, running them, and comparing the
 * results with the C reference.
 *
 * Cases are compiled in batches (one module, one JIT per batch, several
 * functions) to keep compile time low. Each case runs one or more times
 * ("runs": a dynamic valid shape, a data variant) on inputs from a fixed-seed
 * generator derived from the case name, so every failure is reproducible on
 * its own with `e2e_diff FAMILY --only NAME`.
 */
#ifndef PTOC_E2E_HARNESS_H
#define PTOC_E2E_HARNESS_H

#include "program.h"
#include "ptoc/codegen.h"

#define E2E_MAX_RUNS 4

typedef struct e2e_rng {
    uint64_t state;
} e2e_rng;

uint64_t rng_next(e2e_rng *r);
uint64_t rng_below(e2e_rng *r, uint64_t n);
/* A random element of dtype t, with extremes, zeros, small integers and (for
 * floats) inf, -0, subnormals and a canonical quiet NaN mixed in. */
uint64_t rng_value(e2e_rng *r, ref_dtype t);

typedef struct e2e_run {
    int64_t vr, vc;            /* dynamic valid shape */
    int variant;               /* data variant for the fill hook (0 = default) */
} e2e_run;

typedef struct e2e_case e2e_case;
/* Adjusts the random inputs of a run (histogram data, idx values ...). */
typedef void (*e2e_fill_fn)(const e2e_case *c, const e2e_run *run, uint8_t **bufs, uint64_t *scalars,
                            e2e_rng *rng);

struct e2e_case {
    e2e_program prog;
    const char *op;            /* statistics key, e.g. "tadd" */
    ref_dtype dtype;
    const char *cls;           /* shape class */
    e2e_run runs[E2E_MAX_RUNS];
    int nruns;
    e2e_fill_fn fill;
    int ulp;                   /* tolerated ulp distance in float outputs (expdif) */
    int aux;                   /* for the fill hook */
};

typedef struct e2e_stat {
    const char *op;
    int cases, runs, mismatches, failures;
    int ulp_bound, max_ulp;    /* the tolerance of the op's cases, the largest distance seen */
} e2e_stat;

typedef struct e2e_suite {
    const char *family;
    const char *only;          /* run only the case with this name */
    const char *dump_dir;      /* write each module's .pto here */
    bool corrupt;              /* self-test: corrupt the reference output */
    bool verbose;
    bool level1;               /* emit Level-1 kernels and run the auto-mode passes first */
    const ptoc_target *target; /* what to compile for: cpu (NULL) or a target model (a5) */
    int illegal;               /* cases the target's verifier rejects (skipped) */
    int unlowered;             /* cases the target does not generate code for yet (skipped) */
    int skipped;               /* level1: cases without a Level-1 form */
    int quirky;                /* a2a3: cases whose compare meets an A2/A3 quirk (A2/A3 reference) */
    e2e_stat stats[32];
    int nstats;
    int table[32][REF_DTYPE_COUNT];   /* cases per op x dtype, same order as stats */
    int caught;                /* corrupt mode: runs whose corruption was detected */
    /* --seeded (Level 1): in every case, each inserted wait_flag deleted in turn */
    bool seeded;
    int seeded_waits, seeded_caught, seeded_redundant, seeded_failures;
} e2e_suite;

/* ---------------------------------------------------------------- shape classes */

/* A shape class: the tiles' physical and valid shapes, and their layout. */
typedef struct shape_class {
    const char *name;
    int64_t rows, cols, vrows, vcols;
    bool dynamic;
    ref_layout layout;         /* of the data tiles */
    ref_box box;
} shape_class;

/* The five shape classes every op runs on (aligned, ragged, one row, a wide
 * row of 8 KiB of t, a dynamic valid shape), then the other layouts
 * (col_major, and the boxed Nz, Zn, Zz) for the ops that accept them. */
enum { CLASS_COUNT = 5, CLASS_ALL = 9, CLASS_ZN = 7 };
shape_class class_of(int k, ref_dtype t);

/* Sets the runs of a case, per data variant: static shapes run twice (fresh
 * data; the harness starts odd runs from poisoned memory), dynamic ones at
 * three valid shapes (two when there are two variants). */
void set_runs(e2e_case *c, const shape_class *k, int variants);
/* The next case of `cases` (*n counts them), named `name`, for op key `op`,
 * dtype t and class k, with one data variant's runs. */
e2e_case *new_case(e2e_case *cases, int *n, const char *op, ref_dtype t, const shape_class *k, const char *name);
/* n zeroed cases (exits on no memory). */
e2e_case *case_array(int n);

/* Compiles `cases` as one module and runs every case against the reference. */
void e2e_run_batch(e2e_suite *s, e2e_case *cases, int n, const char *module_name);
/* Prints the per-op summary; returns the process exit status. */
int e2e_report(e2e_suite *s);

/* cube.c: the cube family (cpu only); returns the exit status. */
int e2e_cube(e2e_suite *s);
/* reduce.c: the unary and reduction families, and their reference (program.c). */
void family_unary(e2e_suite *s);
void family_reduce(e2e_suite *s);
void reduce_reference_op(const e2e_step *s, const ref_tile *t);
/* fill.c: the fill, generate and quantisation family, and its reference. */
void family_fill(e2e_suite *s);
void fill_reference_op(const e2e_step *s, const ref_tile *t, const uint64_t *scalars);
/* Whether the cpu verifier takes dtype t for operand `role` of op: every
 * unconditional dtype row of that role must allow it (false: no such row). */
bool cpu_allows(ptoc_pto_op_id op, const char *role, ref_dtype t);
/* ewx.c: the remaining elementwise ops, and their reference (program.c):
 * false for an op that is not one of them. */
void family_ewx(e2e_suite *s);
bool ewx_reference_op(const e2e_step *s, const ref_tile *t, const uint64_t *scalars);
/* rowexpand.c: the trowexpand family; its reference (false: not its op). */
void family_rowexpand(e2e_suite *s);
bool rowexpand_reference_op(const e2e_step *s, const ref_tile *t);
/* sort.c: tsort32 and tmrgsort; their reference (false: not its op). */
void family_sort(e2e_suite *s);
bool sort_reference_op(const e2e_step *s, const ref_tile *t, const uint64_t *scalars);
/* gather.c: the gather and layout families, and their reference (program.c). */
void family_gather(e2e_suite *s);
void family_layout(e2e_suite *s);
void gather_reference_op(const e2e_step *s, const ref_tile *t, const uint64_t *scalars);

#endif
