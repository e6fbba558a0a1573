/* ptoc_run.h: `ptoc --run`: JIT a verified module and run one of its functions
 * on arrays and scalars given on the command line (ptoc_run.c).
 */
#ifndef PTOC_TOOLS_PTOC_RUN_H
#define PTOC_TOOLS_PTOC_RUN_H

#include "ptoc/codegen.h"

typedef struct ptoc_run_options {
    const char *entry;         /* NULL: the only public function, or the pto.entry one */
    const char **args;         /* --arg values, in parameter order */
    uint32_t nargs;
    const char *out_dir;       /* NULL: write nothing */
    uint32_t blocks;           /* >= 1 */
    bool poison;               /* on-chip memory starts as 0xA5 bytes */
    /* The pipe simulator (needs ptoc_codegen_options.pipe_events). */
    bool check_races;          /* report races, deadlocks, ids set twice; fail on any */
    const char *trace;         /* NULL, or where to write the Chrome trace JSON */
    bool stats;                /* print the modelled cycles per pipe and in total */
} ptoc_run_options;

/* Picks the entry, reads and checks the arguments, lowers, optimises, JITs and
 * runs it, then writes --out files. Returns the tool's exit status; nothing is
 * written unless everything succeeded. */
int ptoc_run_kernel(ptoc_op *module, const ptoc_codegen_options *cg, const ptoc_run_options *ro);

#endif
