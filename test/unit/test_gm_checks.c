/* test_gm_checks.c: the runtime side of the GM bounds checks (runtime/gm.c),
 * called the way generated code calls it, inside ptoc_rt_launch so that a
 * failed check comes back as the launch's message. Windows are written by
 * hand: {element bytes, write, rank, shape[5], strides[5]}; the expected
 * byte ranges follow from [sum of negative spans, sum of positive spans + 1)
 * elements from the base. */
#include "check.h"

#include "ptoc/runtime.h"

#include <stdlib.h>
#include <string.h>

enum { N = 13 };

/* What the kernel checks: one window. */
static const void *the_origin, *the_base;
static int64_t the_window[N];

static void kernel(void)
{
    ptoc_rt_gm_check("k.pto:3:5", "pto.tload", the_origin, the_base, the_window);
}

/* A 2-D f32 window of rows x cols, row stride ld, as a rank-2 view writes it. */
static void window_2d(int64_t rows, int64_t cols, int64_t ld)
{
    const int64_t w[N] = {4, 0, 2, 1, 1, 1, rows, cols, 0, 0, 0, ld, 1};
    memcpy(the_window, w, sizeof w);
}

/* The launch's message (malloc'd), NULL when the check passed. */
static char *check(const void *origin, const void *base)
{
    the_origin = origin;
    the_base = base;
    void (*fn)(void) = kernel;
    void *p;
    memcpy(&p, &fn, sizeof p);
    ptoc_rt_launch_options opts = {1, false};
    char *err = NULL;
    return ptoc_rt_launch(p, NULL, 0, &opts, &err) ? NULL : err;
}

static bool fails_with(const void *origin, const void *base, const char *text)
{
    char *err = check(origin, base);
    bool ok = err && strstr(err, text);
    if (!ok)
        fprintf(stderr, "expected '%s', got '%s'\n", text, err ? err : "(no error)");
    free(err);
    return ok;
}

int main(void)
{
    float *buf = calloc(200, sizeof *buf);
    const char *bytes = (const char *)buf;
    CHECK(buf && ptoc_rt_gm_register(buf, 400, "A"));

    /* 10 rows of 10 at stride 10: bytes [0, 400), exactly the buffer. */
    window_2d(10, 10, 10);
    CHECK(check(buf, buf) == NULL);
    /* One element further: [4, 404). */
    CHECK(fails_with(buf, bytes + 4, "k.pto:3:5: 'pto.tload' reads bytes [4, 404) of A, which holds 400 bytes"));
    /* An interior origin finds the buffer that holds it. */
    window_2d(1, 10, 10);
    CHECK(check(bytes + 40, bytes + 40) == NULL);
    window_2d(10, 10, 10);
    CHECK(fails_with(bytes + 40, bytes + 40, "bytes [40, 440) of A"));
    /* A row stride of -10: row 1 lies 40 bytes before row 0. */
    window_2d(2, 10, -10);
    CHECK(fails_with(buf, buf, "bytes [-40, 40) of A"));
    /* A write says so. */
    window_2d(11, 10, 10);
    the_window[1] = 1;
    CHECK(fails_with(buf, buf, "'pto.tload' writes bytes [0, 440)"));
    /* A span of 2^62 elements of 4 bytes overflows. */
    window_2d(2, 1, INT64_C(1) << 62);
    CHECK(fails_with(buf, buf, "a window of A too large to address"));
    /* A negative size, numbered as the rank-2 view's dims. */
    window_2d(8, -1, 10);
    CHECK(fails_with(buf, buf, "whose dim 1 has the negative size -1"));
    /* An empty window touches nothing: not even its pointer is looked up. */
    window_2d(0, 10, 10);
    CHECK(check(NULL, NULL) == NULL);
    /* A pointer nobody registered. */
    window_2d(1, 1, 1);
    CHECK(fails_with(bytes + 4000, bytes + 4000, "through a GM pointer that is not a registered buffer"));

    /* Two buffers: B starts where the origin is, inside a larger A2 too. B wins. */
    ptoc_rt_gm_clear();
    CHECK(ptoc_rt_gm_register(buf, 800, "A2") && ptoc_rt_gm_register(bytes + 400, 400, "B"));
    window_2d(15, 10, 10);
    CHECK(fails_with(bytes + 400, bytes + 400, "bytes [0, 600) of B, which holds 400 bytes"));

    /* After clearing, nothing is registered. */
    ptoc_rt_gm_clear();
    window_2d(1, 1, 1);
    CHECK(fails_with(buf, buf, "not a registered buffer"));
    free(buf);
    return CHECK_DONE();
}
