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
    /* Added by the A2/A3 repeat intrinsics: field c (0 the repeat count, 1
     * the left pad, 2 the right pad of a burst copy) holds a, outside 0..b. */
    PTOC_RT_TRAP_A2A3_FIELD,
    /* Added by textract/tinsert: a window of b rows (or columns) starting at
     * a does not fit the tile's c. */
    PTOC_RT_TRAP_WINDOW,
    /* Added by the gathers and scatters: index a, read from an index tile,
     * selects outside the b things it indexes; c says what they are (0:
     * elements of a tile, 1: bytes of a tile, where a must start a whole
     * 32-byte block, 2: elements of a GM view, 3: elements from an A5
     * gather's or scatter's pointer to the end of UB). */
    PTOC_RT_TRAP_INDEX,
    /* eventid_array_get/set at index a of an array of b entries. */
    PTOC_RT_TRAP_EVENTID_INDEX,
    /* pto.trap: the kernel stops itself (no values). */
    PTOC_RT_TRAP_KERNEL,
    /* get_tensor_view_dim: dimension a of a view of rank b. */
    PTOC_RT_TRAP_DIM,
} ptoc_rt_trap_kind;
void ptoc_rt_trap(int32_t kind, const char *where, int64_t a, int64_t b, int64_t c);

/* ---------------------------------------------------------------- cores of a block
 *
 * runtime/xcore.c. A kernel with cross-core ops (pipes, sync.set/wait) runs
 * its body through ptoc_rt_cores_run: on three threads, the block's cube
 * (core 0) and vector cores 0 and 1 (cores 1, 2), each with fresh simulated
 * memory, and returns when all have; a trap in a core or a deadlock (every
 * core still running waits) ends the run with their messages. Called from a
 * core, it runs `body` in place. `a5`: A5's rules, else A2/A3's (xcore.c). */
void ptoc_rt_cores_run(void (*body)(void *), void *args, int32_t a5);
/* 1 when the calling core is in `mask` (bit 0 cube, 1 vector 0, 2 vector 1),
 * or when the thread is not a block's core. */
int32_t ptoc_rt_core_runs(int32_t mask);
int64_t ptoc_rt_subblock_idx(void);
int64_t ptoc_rt_subblock_num(void);
/* sync.set / sync.wait of cross-core event `id`. */
void ptoc_rt_xsync_set(int32_t id, const char *where);
void ptoc_rt_xsync_wait(int32_t id, const char *where);
/* A pipe of the block, found by `key` (the frontend pipe: -1; others their
 * flag_base) or made by the first core that initialises it; the caller's own
 * consumer buffers (byte offsets in its mat or vec space) per direction. */
void *ptoc_rt_xpipe_init(int32_t key, int32_t dir_mask, int32_t slot_size, int32_t slot_num,
                         int32_t c2v_local, int32_t v2c_local, const char *where);
/* The frontend pipe this core initialised. */
void *ptoc_rt_xpipe_frontend(const char *op, const char *where);
/* A push of a rows x cols tile of esize-byte elements: waits for its slot and
 * returns where element (r, c) goes: at + (r * *stride + c) * esize. Then the
 * caller copies and calls ptoc_rt_xpipe_pushed. */
void *ptoc_rt_xpipe_push(void *pipe, int32_t split, int64_t esize, int64_t rows, int64_t cols,
                         int64_t *stride, const char *op, const char *where);
void ptoc_rt_xpipe_pushed(void *pipe, const char *where);
/* A pop into a tile of at most max_rows x max_cols: waits for the tile and
 * returns where its element (r, c) is, as push does; out[] = {rows, cols,
 * stride, the slot's byte offset in the caller's consumer buffer}. */
void *ptoc_rt_xpipe_pop(void *pipe, int32_t split, int64_t esize, int64_t max_rows, int64_t max_cols,
                        int64_t *out, const char *op, const char *where);
void ptoc_rt_xpipe_free(void *pipe, const char *op, const char *where);
/* With pipe_events: what a pop (of a tile at [begin, end) of `space`) and a
 * free mean to the pipe simulator, on the calling core (xcore.c). */
void ptoc_rt_xpipe_pop_events(void *pipe, int32_t space, int64_t begin, int64_t end, const char *op,
                              const char *where);
void ptoc_rt_xpipe_free_events(void *pipe, const char *where);
/* tput_async / tget_async: a copy of `bytes` from src to dst, done when
 * ptoc_rt_async_wait is called with the event it returns (which gives 1). */
int64_t ptoc_rt_async_copy(void *dst, const void *src, int64_t bytes, const char *where);
int32_t ptoc_rt_async_wait(int64_t event, const char *where);

/* ---------------------------------------------------------------- printing
 *
 * runtime/print.c: pto.print and pto.tprint write to stdout. ptoc_rt_print
 * formats one value with `fmt`, a printf format with exactly one conversion,
 * which reads a long long (kind PTOC_RT_PRINT_SIGNED), an unsigned long long
 * (UNSIGNED) or a double (FLOAT): `i` or `f`. A tile is printed as pto-isa's
 * cpu TPRINT prints it: ptoc_rt_tprint_begin with its valid shape, then for
 * each row a ptoc_rt_tprint_value per element and ptoc_rt_tprint_row_end,
 * then ptoc_rt_tprint_end, which writes the text in one piece. */
enum { PTOC_RT_PRINT_SIGNED = 0, PTOC_RT_PRINT_UNSIGNED = 1, PTOC_RT_PRINT_FLOAT = 2 };
void ptoc_rt_print(const char *fmt, int32_t kind, int64_t i, double f);
void ptoc_rt_tprint_begin(int64_t rows, int64_t cols);
void ptoc_rt_tprint_value(int32_t kind, int64_t i, double f);
void ptoc_rt_tprint_row_end(void);
void ptoc_rt_tprint_end(void);

/* ---------------------------------------------------------------- GM bounds checks
 *
 * Code lowered with the codegen option `gm_checks` (which `ptoc --run` always
 * sets) checks every GM access once per op, before it moves anything: the
 * byte range the op's view window covers must lie inside the buffer registered
 * for the pointer the view was made from (its origin), else the run ends with
 * "where: 'pto.tload' reads bytes [a, b) of NAME, which holds N bytes". A
 * driver registers each buffer it passes before the launch and clears the
 * table after it; the table is shared by every thread and must not change
 * while a kernel runs. Code lowered without the option calls none of this. */

/* Registers [base, base + bytes) under `name` (copied), e.g. "parameter 0 of
 * @k (!pto.ptr<f32>)". False when out of memory. */
bool ptoc_rt_gm_register(const void *base, uint64_t bytes, const char *name);
/* Forgets every registered buffer. */
void ptoc_rt_gm_clear(void);
/* Called by kernels. `window` is {element bytes, 1 for a write (0 read),
 * the view's rank as written, shape[5], strides[5] (elements; a rank-k view
 * in the last k)} of the view at `base`, made from the registered pointer
 * `origin`; `op` is the op's name, `where` its location. */
void ptoc_rt_gm_check(const char *where, const char *op, const void *origin, const void *base,
                      const int64_t *window);

/* ---------------------------------------------------------------- the pipe simulator
 *
 * runtime/pipesim.c. Code lowered with the codegen option
 * `pipe_events` reports every pto op that runs on a pipe, and every set_flag,
 * wait_flag and barrier, in program order; each host thread (block) keeps its
 * own log. After the run, ptoc_rt_pipe_check replays each log as one queue per
 * pipe under the arch's ordering rules and reports races, deadlocks, event
 * ids set twice, and, at the end of the log (the kernel's return), ops still
 * running and set_flags never waited for; ptoc_rt_pipe_trace_json gives the
 * same replay as a Chrome trace. Numbering: pipes and address spaces as
 * ptoc_pto_pipe and ptoc_pto_address_space (pto.h).
 *
 * The `op` and `where` strings are not copied: they must outlive the check
 * (they are constants of the kernel's module, so check before the JIT goes). */

/* What the replay needs of the arch; drivers fill it from the arch table
 * (ptoc_pto_arch_info, pto.h). */
typedef struct ptoc_rt_bandwidth {
    int32_t pipe, space;       /* an op on `pipe` moving bytes into or out of on-chip `space` */
    double bytes_per_cycle;
} ptoc_rt_bandwidth;
enum { PTOC_RT_MAX_BANDWIDTHS = 8 };
typedef struct ptoc_rt_arch_rules {
    const char *name;          /* in traces */
    uint32_t in_order_pipes;   /* bit p: pipe p keeps its own ops in order */
    uint32_t event_ids;        /* per (source, destination) pipe pair; at most 8 are tracked */
    double clock_hz;           /* 0: not known; --stats and traces then give cycles only */
    /* DMA paths the arch's cost model knows: such an op costs its bytes /
     * bytes_per_cycle; others the replay's rough cost table */
    uint32_t nbandwidths;
    ptoc_rt_bandwidth bandwidths[PTOC_RT_MAX_BANDWIDTHS];
} ptoc_rt_arch_rules;
enum { PTOC_RT_PIPE_ALL = 6, PTOC_RT_PIPE_COUNT = 13, PTOC_RT_SPACE_GM = 1 };

/* One byte range an op touches: on-chip spaces as offsets in the space, GM as
 * host addresses; [begin, end). `write` is PTOC_RT_READ, PTOC_RT_WRITE (a
 * write that reads nothing of the range first) or PTOC_RT_READ_WRITE. */
enum { PTOC_RT_READ = 0, PTOC_RT_WRITE = 1, PTOC_RT_READ_WRITE = 2 };
typedef struct ptoc_rt_access {
    int32_t space;
    int32_t write;
    uint64_t begin, end;
} ptoc_rt_access;

/* Called by kernels. `op` is the op's name ("pto.tload"), `where` its
 * "file:line:col". */
void ptoc_rt_pipe_op(int32_t pipe, const char *op, const char *where, int32_t n, const ptoc_rt_access *acc);
void ptoc_rt_pipe_set(int32_t src, int32_t dst, int32_t id, const char *where);
void ptoc_rt_pipe_wait(int32_t src, int32_t dst, int32_t id, const char *where);
/* An op whose cost the kernel modelled itself (an A5 vector function: the
 * cycles of the micro-ops it ran), instead of the cost table's. */
void ptoc_rt_pipe_op_cycles(int32_t pipe, const char *op, const char *where, int32_t n, const ptoc_rt_access *acc,
                            uint64_t cycles);
/* A barrier on one pipe, or on every pipe with PTOC_RT_PIPE_ALL. */
void ptoc_rt_pipe_barrier(int32_t pipe, const char *where);

/* Called by drivers. Forgets every recorded event (call before a launch). */
void ptoc_rt_pipe_reset(void);
/* Analyses every block's log under `arch`'s rules. Returns the number of
 * errors; *reports gets them as "file:line:col: error: ..." lines (malloc'd,
 * NULL when there are none). */
uint32_t ptoc_rt_pipe_check(const ptoc_rt_arch_rules *arch, char **reports);
/* The replay as Chrome trace-event JSON (malloc'd): one process per block, one
 * thread row per pipe used, an "X" event per op with ts/dur in modelled
 * cycles, the total cycles and the arch's clock in "otherData". NULL when out
 * of memory. */
char *ptoc_rt_pipe_trace_json(const ptoc_rt_arch_rules *arch);
/* The replay's modelled cycles as text (malloc'd; NULL when out of memory):
 * per pipe used, the cycles it ran ops and how many ops, summed over the
 * blocks, then the total (the latest pipe's end, the slowest block), in
 * microseconds too when the arch's clock is known. */
char *ptoc_rt_pipe_stats(const ptoc_rt_arch_rules *arch);

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
