/* test_threads.c: contexts made and used on several threads at once. Every
 * thread starts together (so the first registration of the dialects, which
 * fills process-wide tables once, is raced), then each one repeatedly creates a
 * context, registers everything, parses and verifies a small pto module and
 * prints it, and parses a broken one whose error must arrive with its note.
 * Each thread's printed module must equal the one printed afterwards on the
 * main thread alone. scripts/tsan.sh runs this test under ThreadSanitizer,
 * which also reports any data race among the threads. (POSIX threads, not
 * C11 thrd_create: ThreadSanitizer does not intercept the latter.)
 */
#include "check.h"
#include "ptoc/ptoc.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { NTHREADS = 4, ROUNDS = 8 };

static const char good_module[] =
    "!tile = !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, "
    "slayout=none_box, fractal=512, pad=0>\n"
    "!view = !pto.tensor_view<?x?xf32>\n"
    "!part = !pto.partition_tensor_view<16x16xf32>\n"
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "  func.func @add(%a: !pto.ptr<f32>, %c: !pto.ptr<f32>) {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c16 = arith.constant 16 : index\n"
    "    %va = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : !view\n"
    "    %vc = pto.make_tensor_view %c, shape = [%c16, %c16], strides = [%c16, %c1] : !view\n"
    "    %pa = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c16, %c16] : !view -> !part\n"
    "    %pc = pto.partition_view %vc, offsets = [%c0, %c0], sizes = [%c16, %c16] : !view -> !part\n"
    "    %ta = pto.alloc_tile : !tile\n"
    "    %tc = pto.alloc_tile : !tile\n"
    "    pto.tload ins(%pa : !part) outs(%ta : !tile)\n"
    "    pto.tadd ins(%ta, %ta : !tile, !tile) outs(%tc : !tile)\n"
    "    pto.tstore ins(%tc : !tile) outs(%pc : !part)\n"
    "    return\n"
    "  }\n"
    "}\n";

/* Line 3 redefines %x of line 2: one error, with a note at line 2. */
static const char bad_module[] =
    "func.func @f() {\n"
    "  %x = arith.constant 0 : index\n"
    "  %x = arith.constant 1 : index\n"
    "  return\n"
    "}\n";

/* What one thread's diagnostic handler saw. */
typedef struct seen {
    int calls, errors;
    size_t nnotes;
    uint32_t error_line, note_line;
    char note[64];
} seen;

static void remember(void *user, const ptoc_diagnostic *d)
{
    seen *s = user;
    s->calls++;
    s->errors += d->severity == PTOC_SEV_ERROR;
    s->error_line = d->loc.line;
    s->nnotes = d->nnotes;
    if (d->nnotes) {
        s->note_line = d->notes[0].loc.line;
        snprintf(s->note, sizeof s->note, "%s", d->notes[0].message);
    }
}

/* Parses, verifies and prints the good module; the text is malloc'd, NULL on failure. */
static char *print_good_module(void)
{
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = ptoc_parse(ctx, arena, good_module, sizeof good_module - 1, "good.pto", NULL);
    char *text = NULL;
    if (module && ptoc_verify(module) && ptoc_context_error_count(ctx) == 0) {
        ptoc_strbuf sb;
        ptoc_strbuf_init(&sb, ctx);
        ptoc_print_op(&sb, module, NULL);
        text = malloc(sb.len + 1);
        if (text)
            memcpy(text, ptoc_strbuf_cstr(&sb), sb.len + 1);
        ptoc_strbuf_free(&sb);
    }
    ptoc_context_destroy(ctx);
    return text;
}

/* Whether the bad module fails with its error and the note attached. */
static bool bad_module_fails_with_note(void)
{
    ptoc_context *ctx = ptoc_context_create(NULL);
    seen s = {0};
    ptoc_register_all(ctx);
    ptoc_context_set_diag_handler(ctx, remember, &s, NULL);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = ptoc_parse(ctx, arena, bad_module, sizeof bad_module - 1, "bad.pto", NULL);
    ptoc_context_destroy(ctx);
    return !module && s.calls == 1 && s.errors == 1 && s.error_line == 3 && s.nnotes == 1 && s.note_line == 2 &&
           strcmp(s.note, "previously defined here") == 0;
}

typedef struct worker {
    char *printed;        /* the last round's module text */
    int good_rounds, bad_rounds;
} worker;

static atomic_bool go;        /* set once every thread is created, so they start together */

static void *work(void *arg)
{
    worker *w = arg;
    while (!atomic_load(&go))
        sched_yield();
    for (int round = 0; round < ROUNDS; round++) {
        char *text = print_good_module();
        if (text) {
            w->good_rounds++;
            free(w->printed);
            w->printed = text;
        }
        w->bad_rounds += bad_module_fails_with_note();
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[NTHREADS];
    worker workers[NTHREADS] = {{0}};
    bool started[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        started[i] = pthread_create(&threads[i], NULL, work, &workers[i]) == 0;
    atomic_store(&go, true);
    for (int i = 0; i < NTHREADS; i++) {
        CHECK(started[i]);
        if (started[i])
            pthread_join(threads[i], NULL);
    }
    char *reference = print_good_module();
    CHECK(reference != NULL && strstr(reference, "pto.tadd") != NULL);
    CHECK(bad_module_fails_with_note());
    for (int i = 0; i < NTHREADS; i++) {
        CHECK(workers[i].good_rounds == ROUNDS && workers[i].bad_rounds == ROUNDS);
        CHECK(reference && workers[i].printed && strcmp(workers[i].printed, reference) == 0);
        free(workers[i].printed);
    }
    free(reference);
    return CHECK_DONE();
}
