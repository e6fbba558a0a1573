/* memplan.h: the random program generator and the independent plan checker of
 * the memory-planning tests (memplan_gen.c, memplan_check.c, memplan_test.c).
 *
 * The checker shares no code with passes/: it computes liveness its own way (by
 * executing the program abstractly along many paths) and judges a plan by the
 * addresses the IR carries.
 */
#ifndef PTOC_TEST_MEMPLAN_H
#define PTOC_TEST_MEMPLAN_H

#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- generator */

/* How the generated alloc_tiles get their addresses. */
typedef enum mp_addr_mode {
    MP_ADDR_NONE,        /* address-less: the planner's input */
    MP_ADDR_SEQUENTIAL,  /* hand plan: every buffer its own bytes (always valid) */
    MP_ADDR_ZERO,        /* hand plan: every buffer at 0 (invalid once two are live) */
} mp_addr_mode;

/* Constructs that can be left out (to find which one a failure needs). */
enum {
    MP_NO_IF_RESULTS = 1u << 0,       /* scf.if never yields a buffer */
    MP_NO_ITER_ARGS = 1u << 1,        /* scf.for never carries a buffer */
    MP_NO_WHILE = 1u << 2,            /* no scf.while */
};

/* A random Level-2 kernel (straight-line code, scf.for with and without a
 * buffer in iter_args, scf.if with and without results, nesting) for `seed`, as
 * NUL-terminated text the caller frees. Deterministic in `seed` and `omit`. */
char *mp_generate(uint64_t seed, mp_addr_mode mode, unsigned omit);

/* ---------------------------------------------------------------- checker */

#define MP_MAX_SPACES 9   /* ptoc_pto_address_space values */

typedef struct mp_report {
    bool ok;                          /* no violation found */
    uint32_t nbufs;
    uint32_t violations;              /* the sum of the four below */
    uint32_t overlaps;                /* pairs of live buffers sharing bytes (counted per path) */
    uint32_t out_of_bounds, misaligned, unplanned;
    uint64_t peak[MP_MAX_SPACES];     /* max offset+size over a space's buffers that some op touches */
    uint64_t lower[MP_MAX_SPACES];    /* largest total size live at one step */
    /* the largest total size of buffers pairwise live at one step of some path
     * (an in-place handover the op table allows excepted): what any plan of this program
     * needs, since each alloc has one address (memplan_check.c) */
    uint64_t lower_clique[MP_MAX_SPACES];
    uint64_t capacity[MP_MAX_SPACES];
} mp_report;

typedef struct mp_check_options {
    uint32_t random_paths;            /* paths with random if-choices, besides all-then/all-else */
    uint64_t path_seed;
    FILE *log;                        /* where violations are described; NULL: silent */
    /* Corruption test: after reading the plan, move one buffer onto another it is
     * live with (in the same space); `corrupted` tells whether a pair was found. */
    bool corrupt;
    bool *corrupted;
} mp_check_options;

/* Checks the plan carried by the alloc_tiles of every func.func under `module`
 * (addr = arith.constant, or a pto.planned_offset attribute). */
void mp_check_module(ptoc_op *module, const mp_check_options *opts, mp_report *out);

#endif
