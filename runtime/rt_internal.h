/* rt_internal.h: what the launcher (launch.c) and the GM checks (gm.c) need
 * from the per-thread core state (rt.c). Private to libptoc_rt.
 */
#ifndef PTOC_RUNTIME_RT_INTERNAL_H
#define PTOC_RUNTIME_RT_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

/* Makes the calling thread simulated core `idx` of `num`: fresh memory (zeroed,
 * or filled with 0xA5 when `poison`), and traps that record their message and
 * longjmp to `*jump` instead of aborting. */
void ptoc_rt_block_begin(int64_t idx, int64_t num, bool poison, jmp_buf *jump);
/* Ends the block: releases the thread's simulated memory, restores the plain
 * defaults (block 0 of 1, traps abort) and returns the trap message (malloc'd)
 * or NULL when the block did not trap. */
char *ptoc_rt_block_end(void);
/* Whether the calling thread's memory was filled with 0xA5 (the block's
 * cores get the same). */
bool ptoc_rt_block_poison(void);
/* Ends the kernel run with "where: message" (printf-style): the launcher
 * reports it when one waits on this thread, else it goes to stderr and the
 * process aborts. `where` may be "" for no location. */
_Noreturn void ptoc_rt_fail(const char *where, const char *fmt, ...);

/* The pipe simulator's cross-core flags (pipesim.c): a set/wait pair between
 * a core's own pipes standing for a flag another core sets. They pair among
 * themselves only, and a set nothing waits for, or set again before its wait,
 * is no error (the hardware's cross-core flags count). */
void ptoc_rt_pipe_xset(int32_t src, int32_t dst, int32_t id, const char *where);
void ptoc_rt_pipe_xwait(int32_t src, int32_t dst, int32_t id, const char *where);

#endif
