/* test_xcore.c: the block's cores on threads (runtime/xcore.c), driven from C
 * as lowered kernels drive them: a cube that pushes 12 tiles of 4x4 int32
 * through a pipe of 4 slots, split in row halves, to two vector cores that
 * check their halves and free them; sync.set/wait between them; and a kernel
 * whose vector cores pop a tile nobody pushes, which must end in a deadlock
 * report rather than hang. scripts/tsan.sh runs it under ThreadSanitizer (it
 * links only the runtime).
 */
#include "check.h"
#include "ptoc/runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TILES = 12, ROWS = 4, COLS = 4, SLOT = ROWS * COLS * 4 };

static pthread_mutex_t bad_mu = PTHREAD_MUTEX_INITIALIZER;
static int bad;                /* wrong elements seen by the vector cores */

static void note_bad(void)
{
    pthread_mutex_lock(&bad_mu);
    bad++;
    pthread_mutex_unlock(&bad_mu);
}

static void cube(void *pipe)
{
    for (int t = 0; t < TILES; t++) {
        int64_t stride;
        int32_t *slot = ptoc_rt_xpipe_push(pipe, 1, 4, ROWS, COLS, &stride, "push", "cube:1:1");
        for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < COLS; c++)
                slot[r * stride + c] = t * 100 + r * COLS + c;
        ptoc_rt_xpipe_pushed(pipe, "cube:1:1");
    }
    ptoc_rt_xsync_wait(2, "cube:2:1");
}

static void vector(void *pipe)
{
    int64_t half = ptoc_rt_subblock_idx();
    for (int t = 0; t < TILES; t++) {
        int64_t geom[4];
        const int32_t *slot = ptoc_rt_xpipe_pop(pipe, 1, 4, ROWS / 2, COLS, geom, "pop", "vec:1:1");
        if (geom[0] != ROWS / 2 || geom[1] != COLS)
            note_bad();
        for (int r = 0; r < geom[0]; r++)
            for (int c = 0; c < geom[1]; c++)
                if (slot[r * geom[2] + c] != t * 100 + (half * ROWS / 2 + r) * COLS + c)
                    note_bad();
        ptoc_rt_xpipe_free(pipe, "free", "vec:2:1");
    }
    ptoc_rt_xsync_set(2, "vec:3:1");
}

static void body(void *arg)
{
    (void)arg;
    void *pipe = ptoc_rt_xpipe_init(0, 1, SLOT, 4, 0, 0, "init:1:1");
    if (ptoc_rt_core_runs(1))
        cube(pipe);
    else
        vector(pipe);
}

static void kernel(void)
{
    ptoc_rt_cores_run(body, NULL, 1);
}

static void starved(void *arg)
{
    (void)arg;
    void *pipe = ptoc_rt_xpipe_init(0, 1, SLOT, 4, 0, 0, "init:1:1");
    int64_t geom[4];
    if (!ptoc_rt_core_runs(1))
        ptoc_rt_xpipe_pop(pipe, 1, 4, ROWS / 2, COLS, geom, "pto.tpop", "starved:7:3");
}

static void starved_kernel(void)
{
    ptoc_rt_cores_run(starved, NULL, 0);
}

/* The address of a kernel as ptoc_rt_launch takes it (ISO C has no cast from
 * a function pointer to void *). */
static void *address_of(void (*fn)(void))
{
    void *p;
    memcpy(&p, &fn, sizeof p);
    return p;
}

int main(void)
{
    char *err = NULL;
    for (int round = 0; round < 20; round++) {
        CHECK(ptoc_rt_launch(address_of(kernel), NULL, 0, NULL, &err));
        if (err) {
            fprintf(stderr, "%s\n", err);
            free(err);
            err = NULL;
        }
    }
    CHECK(bad == 0);
    /* One block, on this thread: the launcher's block threads are C11 threads,
     * which ThreadSanitizer does not intercept. */
    CHECK(!ptoc_rt_launch(address_of(starved_kernel), NULL, 0, NULL, &err));
    CHECK(err && strstr(err, "starved:7:3: deadlock"));
    CHECK(err && strstr(err, "vector 1 waits in 'pto.tpop' at starved:7:3 for a tile from the cube"));
    CHECK(err && strstr(err, "the cube has returned"));
    free(err);
    return CHECK_DONE();
}
