/* runtime.h: what lowered kernels call at run time, and how to launch them.
 *
 * Generated code calls the ptoc_rt_* entry points below; they are part of
 * libptoc_rt (runtime/), which a C program linking a kernel object links too,
 * and which the JIT resolves in the process. Nothing here includes LLVM.
 *
 * Simulated on-chip memory: one zero-initialised byte array per address space
 * per host thread (a thread is one simulated core). Generated code asks for a
 * space's base once per function with the capacity it was compiled for; the
 * runtime grows the thread's array to at least that size. A plain C caller needs
 * no set-up (block 0 of 1, memory allocated on first use); the launcher below
 * runs N blocks on N threads and turns run-time traps into an error result.
 */
#ifndef PTOC_RUNTIME_H
#define PTOC_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- called by kernels */

/* Base of the calling thread's simulated memory for address space `space`
 * (ptoc_pto_address_space numbering), at least `bytes` long. */
void *ptoc_rt_space_base(int32_t space, int64_t bytes);
int64_t ptoc_rt_block_idx(void);
int64_t ptoc_rt_block_num(void);

/* Run-time error traps. They do not return: under ptoc_rt_launch the run is
 * abandoned and reported; otherwise the message is printed and abort() called.
 * `where` is "file:line:col" of the op (a constant string in the module). */
typedef enum ptoc_rt_trap_kind {
    PTOC_RT_TRAP_ADDRESS,      /* a tile at [a, a+b) outside its space of c bytes */
    PTOC_RT_TRAP_VALID_SHAPE,  /* a dynamic valid shape a x b larger than the tile */
    PTOC_RT_TRAP_VIEW,         /* a view/partition out of bounds: offset a, size b, extent c */
    /* Added by the driver helper: a tload/tstore whose tile valid extent a
     * differs from the view's extent b in dim c (0 rows, 1 columns). */
    PTOC_RT_TRAP_VIEW_SHAPE,
    /* Added by the pad helper: tgetval/tsetval at flat element offset a of a
     * tile of b elements (rows x cols), a outside [0, b). */
    PTOC_RT_TRAP_ELEMENT,
} ptoc_rt_trap_kind;
void ptoc_rt_trap(int32_t kind, const char *where, int64_t a, int64_t b, int64_t c);

/* ---------------------------------------------------------------- launching */

/* The C type of one kernel argument, as libffi sees it. */
typedef enum ptoc_rt_arg_kind {
    PTOC_RT_ARG_PTR, PTOC_RT_ARG_I8, PTOC_RT_ARG_I16, PTOC_RT_ARG_I32, PTOC_RT_ARG_I64,
    PTOC_RT_ARG_F32, PTOC_RT_ARG_F64,
} ptoc_rt_arg_kind;

typedef struct ptoc_rt_arg {
    ptoc_rt_arg_kind kind;
    union { void *ptr; int64_t i; double f; } value;   /* i/f converted to the kind */
} ptoc_rt_arg;

typedef struct ptoc_rt_launch_options {
    uint32_t blocks;           /* >= 1: one host thread per block */
    bool poison;               /* fill on-chip memory with 0xA5 instead of zeros */
} ptoc_rt_launch_options;

/* Calls `fn(args...)` (void result) once per block, each on its own thread with
 * fresh simulated memory and get_block_idx/num set. Returns false and a malloc'd
 * message in *err if any block trapped. */
bool ptoc_rt_launch(void *fn, const ptoc_rt_arg *args, uint32_t nargs,
                    const ptoc_rt_launch_options *opts, char **err);

#ifdef __cplusplus
}
#endif
#endif
