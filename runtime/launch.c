/* launch.c: running a kernel on N simulated cores.
 *
 * ptoc_rt_launch calls the kernel through libffi (the argument list is only
 * known at run time) once per block, each block on its own host thread with
 * fresh simulated memory and its block index; a single block runs on the
 * calling thread, set up the same way. A trap in a block longjmps back to the
 * block's frame here (rt.c) with its message; the launch then fails with every
 * block's message, in block order.
 */
#include "ptoc/runtime.h"
#include "runtime/rt_internal.h"

#include <ffi.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

/* One prepared call, shared read-only by the blocks. */
typedef struct launch_call {
    ffi_cif cif;
    void *fn;
    void **values;             /* pointers to each argument's value */
    bool poison;
    uint32_t blocks;
} launch_call;

/* What one block's thread needs and reports. */
typedef struct launch_block {
    const launch_call *call;
    uint32_t idx;
    char *message;             /* the trap message, or NULL */
} launch_block;

static ffi_type *ffi_type_of(ptoc_rt_arg_kind kind)
{
    static ffi_type *const types[] = {
        [PTOC_RT_ARG_PTR] = &ffi_type_pointer, [PTOC_RT_ARG_I8] = &ffi_type_sint8,
        [PTOC_RT_ARG_I16] = &ffi_type_sint16,  [PTOC_RT_ARG_I32] = &ffi_type_sint32,
        [PTOC_RT_ARG_I64] = &ffi_type_sint64,  [PTOC_RT_ARG_F32] = &ffi_type_float,
        [PTOC_RT_ARG_F64] = &ffi_type_double,
    };
    return (size_t)kind < sizeof types / sizeof types[0] ? types[kind] : NULL;
}

/* The argument's value in its C type, stored in `slot` (aligned for all of them). */
typedef union arg_slot {
    void *p;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
} arg_slot;

static void store_arg(const ptoc_rt_arg *a, arg_slot *slot)
{
    switch (a->kind) {
    case PTOC_RT_ARG_PTR: slot->p = a->value.ptr; break;
    case PTOC_RT_ARG_I8: slot->i8 = (int8_t)a->value.i; break;
    case PTOC_RT_ARG_I16: slot->i16 = (int16_t)a->value.i; break;
    case PTOC_RT_ARG_I32: slot->i32 = (int32_t)a->value.i; break;
    case PTOC_RT_ARG_I64: slot->i64 = a->value.i; break;
    case PTOC_RT_ARG_F32: slot->f32 = (float)a->value.f; break;
    case PTOC_RT_ARG_F64: slot->f64 = a->value.f; break;
    }
}

/* Runs block b->idx on the calling thread. The call sits in its own function so
 * that nothing live across setjmp is modified after it. */
static void run_block(launch_block *b)
{
    jmp_buf jump;
    ptoc_rt_block_begin(b->idx, b->call->blocks, b->call->poison, &jump);
    if (setjmp(jump) == 0) {
        ffi_arg ignored;
        ffi_call((ffi_cif *)&b->call->cif, FFI_FN(b->call->fn), &ignored, b->call->values);
    }
    b->message = ptoc_rt_block_end();
}

static int block_thread(void *p)
{
    run_block(p);
    return 0;
}

static char *dup_message(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}

/* "msg" for one block, "block i: msg" lines otherwise (malloc'd). */
static char *join_messages(const launch_block *blocks, uint32_t n)
{
    size_t len = 1;
    for (uint32_t i = 0; i < n; i++)
        if (blocks[i].message)
            len += strlen(blocks[i].message) + 32;
    char *s = malloc(len);
    if (!s)
        return NULL;
    size_t at = 0;
    s[0] = '\0';
    for (uint32_t i = 0; i < n; i++) {
        if (!blocks[i].message)
            continue;
        if (n == 1)
            at += (size_t)snprintf(s + at, len - at, "%s", blocks[i].message);
        else
            at += (size_t)snprintf(s + at, len - at, "%sblock %" PRIu32 ": %s", at ? "\n" : "", i,
                                   blocks[i].message);
    }
    return s;
}

/* Runs every block (threads when more than one); a block whose thread cannot
 * be started gets a message saying so. */
static void run_blocks(launch_block *blocks, uint32_t n)
{
    if (n == 1) {
        run_block(&blocks[0]);
        return;
    }
    thrd_t *threads = malloc(n * sizeof *threads);
    bool *started = calloc(n, sizeof *started);
    for (uint32_t i = 0; i < n; i++) {
        started[i] = threads && started && thrd_create(&threads[i], block_thread, &blocks[i]) == thrd_success;
        if (!started[i])
            blocks[i].message = dup_message("cannot start a host thread for this block");
    }
    for (uint32_t i = 0; i < n; i++)
        if (started[i])
            thrd_join(threads[i], NULL);
    free(threads);
    free(started);
}

bool ptoc_rt_launch(void *fn, const ptoc_rt_arg *args, uint32_t nargs, const ptoc_rt_launch_options *opts,
                    char **err)
{
    uint32_t nblocks = opts && opts->blocks > 0 ? opts->blocks : 1;
    launch_call call = {.fn = fn, .poison = opts && opts->poison, .blocks = nblocks};
    ffi_type **types = malloc((nargs + 1) * sizeof *types);
    arg_slot *slots = malloc((nargs + 1) * sizeof *slots);
    call.values = malloc((nargs + 1) * sizeof *call.values);
    launch_block *blocks = calloc(nblocks, sizeof *blocks);
    const char *problem = !types || !slots || !call.values || !blocks ? "out of memory" : NULL;
    for (uint32_t i = 0; !problem && i < nargs; i++) {
        types[i] = ffi_type_of(args[i].kind);
        if (!types[i])
            problem = "internal error: bad argument kind";
        store_arg(&args[i], &slots[i]);
        call.values[i] = &slots[i];
    }
    if (!problem && ffi_prep_cif(&call.cif, FFI_DEFAULT_ABI, nargs, &ffi_type_void, types) != FFI_OK)
        problem = "internal error: libffi cannot describe the call";
    bool ok = !problem;
    char *message = problem ? dup_message(problem) : NULL;
    if (ok) {
        for (uint32_t i = 0; i < nblocks; i++)
            blocks[i] = (launch_block){.call = &call, .idx = i};
        run_blocks(blocks, nblocks);
        for (uint32_t i = 0; i < nblocks; i++)
            ok = ok && !blocks[i].message;
        if (!ok)
            message = join_messages(blocks, nblocks);
        for (uint32_t i = 0; i < nblocks; i++)
            free(blocks[i].message);
    }
    free(types);
    free(slots);
    free(call.values);
    free(blocks);
    if (!ok && err)
        *err = message;
    else
        free(message);
    return ok;
}
