/* rt.c: the per-thread state of a simulated core, as kernels see it.
 *
 * Each host thread is one core: it has its own simulated on-chip memory (one
 * byte array per address space), its block index and count, and a trap
 * handler. A thread nobody set up is block 0 of 1, gets zeroed memory on first
 * use, and aborts with a message on a trap, which is what a plain C program
 * linking a kernel object wants. The launcher (launch.c) sets up each block's
 * thread through rt_internal.h so that a trap ends the block with a message.
 *
 * Generated code asks for a space's base once per function, with the capacity
 * it was compiled for; every function of a module asks for the same capacity,
 * so the array is allocated once. It only grows when modules compiled with
 * different capacities share a thread: the contents are kept (a caller's cached
 * base would then be stale, so mixing capacities within one call chain is not
 * supported).
 */
#include "ptoc/runtime.h"
#include "runtime/rt_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

enum { RT_SPACES = 16, RT_POISON_BYTE = 0xA5 };

typedef struct rt_space {
    unsigned char *data;
    size_t size;
} rt_space;

typedef struct rt_core {
    rt_space spaces[RT_SPACES];
    int64_t block_idx, block_num;
    bool poison;
    jmp_buf *trap_jump;        /* set by the launcher: where a trap goes */
    char *trap_message;        /* what the trap said (malloc'd) */
} rt_core;

static _Thread_local rt_core core = {.block_num = 1};

/* ---------------------------------------------------------------- memory */

/* A plain C thread's memory is released when the thread exits (a tss key's
 * destructor); the main thread's at process exit, by the system. */
static once_flag release_once = ONCE_FLAG_INIT;
static tss_t release_key;
static bool release_key_ok;

static void release_spaces(void *p)
{
    rt_core *c = p;
    for (int i = 0; i < RT_SPACES; i++) {
        free(c->spaces[i].data);
        c->spaces[i] = (rt_space){0};
    }
}

static void create_release_key(void)
{
    release_key_ok = tss_create(&release_key, release_spaces) == thrd_success;
}

static void register_release(void)
{
    call_once(&release_once, create_release_key);
    if (release_key_ok)
        tss_set(release_key, &core);
}

static const char *space_name(int32_t space)
{
    static const char *const names[] = {"zero", "gm", "mat", "left", "right", "acc", "vec", "bias", "scaling"};
    return space >= 0 && (size_t)space < sizeof names / sizeof names[0] ? names[space] : "an unknown space";
}

void *ptoc_rt_space_base(int32_t space, int64_t bytes)
{
    if (space < 0 || space >= RT_SPACES || bytes < 0)
        ptoc_rt_fail("", "internal error: simulated memory asked for space %" PRId32 " with %" PRId64 " bytes",
                     space, bytes);
    rt_space *s = &core.spaces[space];
    size_t want = bytes > 0 ? (size_t)bytes : 1;
    if (s->data && s->size >= want)
        return s->data;
    /* The bytes asked for, one space's memory sized by its capacity (above),
     * not an array that grows by appends; and a margin after them, which a
     * micro-op register load near the end of the space reads: vlds reads 256
     * bytes (two registers for vldsx2) whatever its predicate, as hardware does,
     * and the stores that follow write only the active lanes. */
    enum { REGISTER_READ_MARGIN = 512 };
    unsigned char *data = realloc(s->data, want + REGISTER_READ_MARGIN);
    if (!data)
        ptoc_rt_fail("", "cannot allocate %" PRId64 " bytes of simulated %s memory", bytes, space_name(space));
    if (!s->data)
        register_release();
    memset(data + s->size, core.poison ? RT_POISON_BYTE : 0, want + REGISTER_READ_MARGIN - s->size);
    s->data = data;
    s->size = want;
    return data;
}

int64_t ptoc_rt_block_idx(void)
{
    return core.block_idx;
}

int64_t ptoc_rt_block_num(void)
{
    return core.block_num;
}

bool ptoc_rt_block_poison(void)
{
    return core.poison;
}

/* ---------------------------------------------------------------- traps */

/* Ends the kernel run with "where: message": back to the launcher when one is
 * waiting on this thread, otherwise on stderr and abort() (rt_internal.h). */
_Noreturn void ptoc_rt_fail(const char *where, const char *fmt, ...)
{
    char text[512];
    size_t n = (size_t)snprintf(text, sizeof text, "%s%s", where, *where ? ": " : "");
    if (n >= sizeof text)
        n = sizeof text - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + n, sizeof text - n, fmt, ap);
    va_end(ap);
    if (core.trap_jump) {
        free(core.trap_message);
        core.trap_message = malloc(strlen(text) + 1);
        if (core.trap_message)
            strcpy(core.trap_message, text);
        longjmp(*core.trap_jump, 1);
    }
    fprintf(stderr, "ptoc runtime error: %s\n", text);
    fflush(stderr);
    abort();
}

void ptoc_rt_trap(int32_t kind, const char *where, int64_t a, int64_t b, int64_t c)
{
    if (!where)
        where = "<unknown location>";
    switch (kind) {
    case PTOC_RT_TRAP_ADDRESS:
        if (a >= 0 && b >= 0 && a <= c && b <= c - a)
            ptoc_rt_fail(where, "tile at byte offset %" PRId64 " is not aligned (32 bytes; 512 in L0 spaces)", a);
        ptoc_rt_fail(where,
                     "tile at bytes [%" PRId64 ", %" PRId64 ") is outside its address space (%" PRId64 " bytes)", a,
                     a + b, c);
        break;
    case PTOC_RT_TRAP_VALID_SHAPE:
        ptoc_rt_fail(where, "dynamic valid shape %" PRId64 "x%" PRId64 " is larger than the tile", a, b);
        break;
    case PTOC_RT_TRAP_VIEW:
        ptoc_rt_fail(where, "view access out of bounds (offset %" PRId64 ", size %" PRId64 ", extent %" PRId64 ")", a,
                     b, c);
        break;
    case PTOC_RT_TRAP_VIEW_SHAPE:
        ptoc_rt_fail(where, "the tile's valid %s %" PRId64 " does not match the view's %" PRId64,
                     c == 0 ? "rows" : "columns", a, b);
        break;
    case PTOC_RT_TRAP_ELEMENT:
        ptoc_rt_fail(where, "element offset %" PRId64 " is outside the tile's %" PRId64 " elements", a, b);
        break;
    case PTOC_RT_TRAP_A2A3_FIELD: {
        static const char *const fields[] = {"repeat count", "left pad", "right pad"};
        ptoc_rt_fail(where, "the %s %" PRId64 " is outside 0..%" PRId64 "%s", c >= 0 && c < 3 ? fields[c] : "field", a,
                     b, c == 0 ? " (split the repeats)" : " (a store does not pad: pass 0)");
        break;
    }
    case PTOC_RT_TRAP_WINDOW:
        ptoc_rt_fail(where, "the window [%" PRId64 ", %" PRId64 ") does not fit the tile's %" PRId64 " rows or columns",
                     a, a + b, c);
        break;
    case PTOC_RT_TRAP_INDEX:
        if (c == 1)
            ptoc_rt_fail(where, "the byte offset %" PRId64 " is not a 32-byte block inside the tile's %"
                         PRId64 " bytes", a, b);
        ptoc_rt_fail(where, "the index %" PRId64 " is outside the %" PRId64 " elements of the %s it indexes",
                     a, b, c == 2 ? "view" : c == 3 ? "UB" : "tile");
        break;
    case PTOC_RT_TRAP_EVENTID_INDEX:
        ptoc_rt_fail(where, "index %" PRId64 " is outside the event id array's %" PRId64 " entries", a, b);
        break;
    case PTOC_RT_TRAP_KERNEL:
        ptoc_rt_fail(where, "the kernel trapped (pto.trap)");
        break;
    case PTOC_RT_TRAP_DIM:
        ptoc_rt_fail(where, "dimension %" PRId64 " is outside the view's %" PRId64 " dimensions", a, b);
        break;
    default:
        ptoc_rt_fail(where, "run-time check %" PRId32 " failed (%" PRId64 ", %" PRId64 ", %" PRId64 ")", kind, a, b, c);
        break;
    }
}

/* ---------------------------------------------------------------- launcher hooks */

void ptoc_rt_block_begin(int64_t idx, int64_t num, bool poison, jmp_buf *jump)
{
    release_spaces(&core);
    core.block_idx = idx;
    core.block_num = num;
    core.poison = poison;
    core.trap_jump = jump;
    free(core.trap_message);
    core.trap_message = NULL;
}

char *ptoc_rt_block_end(void)
{
    char *message = core.trap_message;
    release_spaces(&core);
    core = (rt_core){.block_num = 1};
    return message;
}
