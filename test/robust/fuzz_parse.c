/* fuzz_parse.c: an in-process mutation fuzzer for the parser, verifier and printer.
 *
 *   fuzz_parse [--seed S] [--iterations N] [--seconds T] [--save-dir D] DIR...
 *
 * It enforces the two promises of the textual language on every .mlir/.pto file
 * under DIR (Inputs/ folders skipped), and every .ptoas file read as PTO-AS,
 * one `// -----` chunk at a time:
 *   - bad input gives at least one error diagnostic, every error diagnostic has a
 *     location (file and line), and nothing crashes (run it under ASan+UBSan);
 *   - IR that parses and verifies prints to text that parses and verifies again
 *     and prints identically (custom form P1 == P2), and its generic form G1
 *     and its PTO-AS form A1 (read as PTO-AS) parse back to the same custom
 *     form P1.
 * First each corpus chunk is checked as is; then mutants of the chunks (made with
 * a seeded xorshift generator, so a run is reproducible) are checked until
 * --iterations or --seconds runs out. Each input is written to
 * D/fuzz-last-input.mlir before it runs, so a crash leaves its input behind; a
 * failing input is kept as D/fuzz-failure-<n>.mlir. The exit status is non-zero
 * on any failure.
 */
/* opendir, stat and strdup are POSIX. */
#define _POSIX_C_SOURCE 200809L

#include "ptoc/ptoc.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define MAX_MUTANT_LEN (1u << 20)

/* ---------------------------------------------------------------- buffers */

typedef struct buf {
    char *data;
    size_t len, cap;
} buf;

static void buf_reserve(buf *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return;
    b->cap = (b->len + extra) * 2 + 64;
    b->data = realloc(b->data, b->cap);
    if (!b->data) {
        fprintf(stderr, "fuzz_parse: out of memory\n");
        exit(2);
    }
}

static void buf_append(buf *b, const void *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static void buf_set(buf *b, const void *s, size_t n)
{
    b->len = 0;
    buf_append(b, s, n);
}

/* ---------------------------------------------------------------- the corpus */

typedef struct chunk {
    const char *file;         /* path, for messages */
    char *text;
    size_t len;
    uint32_t first_line;
    bool assembly;            /* a .ptoas file: read as PTO-AS (mutants too) */
} chunk;

typedef struct corpus {
    char **files;
    size_t nfiles, files_cap;
    chunk *chunks;
    size_t nchunks, chunks_cap;
} corpus;

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect_files(corpus *c, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        char path[4096];
        struct stat st;
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "Inputs"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st))
            continue;
        if (S_ISDIR(st.st_mode)) {
            collect_files(c, path);
        } else if (has_suffix(path, ".mlir") || has_suffix(path, ".pto") || has_suffix(path, ".ptoas")) {
            if (c->nfiles == c->files_cap) {
                c->files_cap = c->files_cap ? c->files_cap * 2 : 64;
                c->files = realloc(c->files, c->files_cap * sizeof *c->files);
            }
            c->files[c->nfiles++] = strdup(path);
        }
    }
    closedir(d);
}

static bool read_file(const char *path, buf *out)
{
    FILE *f = fopen(path, "rb");
    char tmp[65536];
    size_t n;
    if (!f)
        return false;
    out->len = 0;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        buf_append(out, tmp, n);
    fclose(f);
    return true;
}

typedef struct split_ctx {
    corpus *c;
    const char *file;
} split_ctx;

static bool add_chunk(void *user, const char *text, size_t len, uint32_t first_line)
{
    split_ctx *s = user;
    corpus *c = s->c;
    if (c->nchunks == c->chunks_cap) {
        c->chunks_cap = c->chunks_cap ? c->chunks_cap * 2 : 64;
        c->chunks = realloc(c->chunks, c->chunks_cap * sizeof *c->chunks);
    }
    chunk *k = &c->chunks[c->nchunks++];
    k->file = s->file;
    k->text = malloc(len + 1);
    memcpy(k->text, text, len);
    k->text[len] = '\0';
    k->len = len;
    k->first_line = first_line;
    k->assembly = has_suffix(s->file, ".ptoas");
    return true;
}

/* ---------------------------------------------------------------- checking */

/* Counts error diagnostics and those without a location. */
typedef struct diag_count {
    size_t errors, unlocated;
    char first_unlocated[256];
} diag_count;

static void count_diag(void *user, const ptoc_diagnostic *d)
{
    diag_count *dc = user;
    if (d->severity != PTOC_SEV_ERROR)
        return;
    dc->errors++;
    if (!d->loc.file || d->loc.line < 1) {
        if (!dc->unlocated++)
            snprintf(dc->first_unlocated, sizeof dc->first_unlocated, "%s", d->message);
    }
}

typedef struct checker {
    const char *save_dir;
    unsigned long passed, failed, rejected;
    char reason[512];
} checker;

/* Parses (as PTO-AS when `assembly`) and verifies `text`; NULL (diagnostics
 * counted) if either fails. */
static ptoc_op *parse_verified(ptoc_context *ctx, const char *text, size_t len,
                               const char *name, uint32_t first_line, bool assembly)
{
    ptoc_parse_options opts = {.first_line = first_line, .asm_dialect = "pto", .assembly = assembly};
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module;
    ptoc_source_add(ctx, ptoc_ident_cstr(ctx, name), text, len);
    module = ptoc_parse(ctx, arena, text, len, name, &opts);
    if (module && !ptoc_verify(module))
        module = NULL;
    return module;
}

static void print_to(ptoc_strbuf *sb, const ptoc_op *op, bool generic, bool assembly)
{
    ptoc_print_options opts = {generic, false, assembly};
    sb->len = 0;
    ptoc_print_op(sb, op, &opts);
}

/* `text` (read as PTO-AS when `assembly`) parses, verifies and prints as `want`
 * in the custom form; else k->reason says which print (`what`) failed. */
static bool reads_back(checker *k, ptoc_context *ctx, const ptoc_strbuf *text, bool assembly,
                       const ptoc_strbuf *want, ptoc_strbuf *got, const char *what)
{
    ptoc_op *again = parse_verified(ctx, text->data, text->len, "<printed>", 1, assembly);
    if (!again) {
        snprintf(k->reason, sizeof k->reason, "the %s print does not parse and verify", what);
        return false;
    }
    print_to(got, again, false, false);
    if (want->len == got->len && !memcmp(want->data, got->data, want->len))
        return true;
    snprintf(k->reason, sizeof k->reason, "the %s print does not read back to the same IR", what);
    return false;
}

/* Checks the round-trip promises on verified `module`: the custom print P1
 * reads back to P1 (idempotent), and so do the PTO-AS and the generic prints.
 * False with k->reason set. */
static bool check_round_trip(checker *k, ptoc_context *ctx, const ptoc_op *module,
                             diag_count *dc)
{
    ptoc_strbuf p1, p2, g1, a1;
    ptoc_strbuf_init(&p1, NULL);
    ptoc_strbuf_init(&p2, NULL);
    ptoc_strbuf_init(&g1, NULL);
    ptoc_strbuf_init(&a1, NULL);
    print_to(&p1, module, false, false);
    print_to(&g1, module, true, false);
    print_to(&a1, module, false, true);
    bool ok = reads_back(k, ctx, &p1, false, &p1, &p2, "custom") &&
              reads_back(k, ctx, &a1, true, &p1, &p2, "PTO-AS") &&
              reads_back(k, ctx, &g1, false, &p1, &p2, "generic");
    if (!ok) {
        fprintf(stderr, "--- P1\n%.*s--- G1\n%.*s--- A1\n%.*s--- read back\n%.*s", (int)p1.len,
                p1.data ? p1.data : "", (int)g1.len, g1.data ? g1.data : "", (int)a1.len,
                a1.data ? a1.data : "", (int)p2.len, p2.data ? p2.data : "");
    }
    (void)dc;
    ptoc_strbuf_free(&p1);
    ptoc_strbuf_free(&p2);
    ptoc_strbuf_free(&g1);
    ptoc_strbuf_free(&a1);
    return ok;
}

/* Text with `loc(...)` may give an op an unknown or name-only location on
 * purpose (`loc(unknown)`, `loc("name")`), so its errors may lack a file:line. */
static bool explicit_locations(const char *text, size_t len)
{
    static const char needle[] = "loc(";
    size_t i;
    for (i = 0; i + sizeof needle - 1 <= len; i++)
        if (!memcmp(text + i, needle, sizeof needle - 1))
            return true;
    return false;
}

/* Runs one input through every check; false with k->reason set on failure. */
static bool check_input(checker *k, const char *text, size_t len, const char *name,
                        uint32_t first_line, bool assembly)
{
    ptoc_context *ctx = ptoc_context_create(NULL);
    diag_count dc = {0, 0, {0}};
    ptoc_op *module;
    bool ok = true;
    ptoc_register_all(ctx);
    ptoc_context_allow_unregistered(ctx, true);
    ptoc_context_set_diag_handler(ctx, count_diag, &dc, NULL);
    module = parse_verified(ctx, text, len, name, first_line, assembly);
    if (!module) {
        k->rejected++;
        if (dc.errors == 0) {
            snprintf(k->reason, sizeof k->reason, "rejected without an error diagnostic");
            ok = false;
        } else if (dc.unlocated && !explicit_locations(text, len)) {
            snprintf(k->reason, sizeof k->reason, "%zu error(s) without a location, first: %s",
                     dc.unlocated, dc.first_unlocated);
            ok = false;
        }
    } else if (dc.errors) {
        snprintf(k->reason, sizeof k->reason, "accepted but emitted %zu error(s)", dc.errors);
        ok = false;
    } else {
        ok = check_round_trip(k, ctx, module, &dc);
    }
    ptoc_context_destroy(ctx);
    return ok;
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(text, 1, len, f);
    fclose(f);
}

/* Saves, runs and records one input. */
static void run_input(checker *k, const char *text, size_t len, const char *origin,
                      uint32_t first_line, bool assembly)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/fuzz-last-input.mlir", k->save_dir);
    write_file(path, text, len);
    k->reason[0] = '\0';
    if (check_input(k, text, len, "fuzz.mlir", first_line, assembly)) {
        k->passed++;
        return;
    }
    k->failed++;
    snprintf(path, sizeof path, "%s/fuzz-failure-%lu.mlir", k->save_dir, k->failed);
    write_file(path, text, len);
    fprintf(stderr, "FAIL (%s): %s; input saved as %s\n", origin, k->reason, path);
}

/* ---------------------------------------------------------------- mutations */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

/* Uniform enough in [0, n); n > 0. */
static size_t rng_below(size_t n) { return (size_t)(rng_next() % n); }

static const char *const dictionary[] = {
    "{", "}", "(", ")", "<", ">", "[", "]", "%0", "%arg0", "^bb0:", "^bb1", "!pto.tile_buf<",
    "#pto<", "!pto.tile<", "#pto.address_space<", "\"", "-> ", ": ", ", ", "= ", "loc(",
    "loc(\"f\":1:2)", "9999999999999999999999", "-9223372036854775809", "0x",
    "0x7FC00000", "1.0e400", "\xff\xfe", "\0", "\n// -----\n", "?x", "x", "i1", "i64", "f16",
    "index", "memref<", "tensor<", "vector<", "dense<", "array<i32: ", "#map = ", "!alias = ",
    "@f", "@", "func.func ", "scf.yield", "func.return", "builtin.module", "module {",
    "attributes ", "\"t.op\"() : () -> ()", "<{", "}>", "#", "!", "%", "...", "\\", "\"\\",
    "#cmp=gt", "tadd ", "tsels ", "tile(0x100)", "0x3F800000", "-1.5", " : !pto.tile<f32, 16, 16>",
};

static void mutate_truncate(buf *b) { b->len = b->len ? rng_below(b->len) : 0; }

static size_t range_len(const buf *b)
{
    size_t max = b->len / 4 + 1;
    return 1 + rng_below(max < 64 ? max : 64);
}

static void mutate_delete(buf *b)
{
    size_t at, n;
    if (!b->len)
        return;
    at = rng_below(b->len);
    n = range_len(b);
    if (at + n > b->len)
        n = b->len - at;
    memmove(b->data + at, b->data + at + n, b->len - at - n);
    b->len -= n;
}

static void insert_bytes(buf *b, size_t at, const char *s, size_t n)
{
    buf_reserve(b, n);
    memmove(b->data + at + n, b->data + at, b->len - at);
    memcpy(b->data + at, s, n);
    b->len += n;
}

static void mutate_duplicate(buf *b)
{
    size_t from, n;
    char *copy;
    if (!b->len)
        return;
    from = rng_below(b->len);
    n = range_len(b);
    if (from + n > b->len)
        n = b->len - from;
    copy = malloc(n);
    memcpy(copy, b->data + from, n);
    insert_bytes(b, rng_below(b->len + 1), copy, n);
    free(copy);
}

static void mutate_swap(buf *b)
{
    size_t n, a, c, i;
    if (b->len < 4)
        return;
    n = 1 + rng_below(b->len / 4 < 32 ? b->len / 4 : 32);
    a = rng_below(b->len - 2 * n + 1);
    c = a + n + rng_below(b->len - a - 2 * n + 1);
    for (i = 0; i < n; i++) {
        char t = b->data[a + i];
        b->data[a + i] = b->data[c + i];
        b->data[c + i] = t;
    }
}

static void mutate_flip(buf *b)
{
    size_t i, n = 1 + rng_below(4);
    for (i = 0; i < n && b->len; i++)
        b->data[rng_below(b->len)] ^= (char)(1u << rng_below(8));
}

static void mutate_insert_token(buf *b)
{
    size_t i = rng_below(sizeof dictionary / sizeof dictionary[0]);
    /* "\0" is one NUL byte: strlen would make it empty. */
    size_t n = dictionary[i][0] ? strlen(dictionary[i]) : 1;
    insert_bytes(b, rng_below(b->len + 1), dictionary[i], n);
}

static void mutate_nest(buf *b)
{
    static const char *const openers[] = {"(", "[", "{", "<", "tensor<1x", "\"t.op\"() ({"};
    const char *open = openers[rng_below(sizeof openers / sizeof openers[0])];
    size_t depth = 1 + rng_below(rng_below(2) ? 40 : 400), at = rng_below(b->len + 1), i;
    buf nest = {0, 0, 0};
    for (i = 0; i < depth; i++)
        buf_append(&nest, open, strlen(open));
    insert_bytes(b, at, nest.data, nest.len);
    free(nest.data);
}

static void mutate_splice(buf *b, const corpus *c)
{
    const chunk *other = &c->chunks[rng_below(c->nchunks)];
    size_t keep = b->len ? rng_below(b->len + 1) : 0;
    size_t from = other->len ? rng_below(other->len) : 0;
    b->len = keep;
    buf_append(b, other->text + from, other->len - from);
}

static void mutate(buf *b, const corpus *c)
{
    size_t rounds = 1 + rng_below(rng_below(4) ? 2 : 6), i;
    for (i = 0; i < rounds && b->len < MAX_MUTANT_LEN; i++) {
        switch (rng_below(9)) {
        case 0: mutate_truncate(b); break;
        case 1: mutate_delete(b); break;
        case 2: mutate_duplicate(b); break;
        case 3: mutate_swap(b); break;
        case 4: case 5: mutate_flip(b); break;
        case 6: mutate_insert_token(b); break;
        case 7: mutate_nest(b); break;
        default: mutate_splice(b, c); break;
        }
    }
}

/* ---------------------------------------------------------------- the driver */

static double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(void)
{
    fprintf(stderr, "usage: fuzz_parse [--seed S] [--iterations N] [--seconds T] "
                    "[--save-dir D] DIR...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    unsigned long iterations = 10000, i, corpus_failed;
    double seconds = 20, start;
    corpus c = {0};
    checker k = {".", 0, 0, 0, {0}};
    buf file = {0, 0, 0}, mutant = {0, 0, 0};
    int a;
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--seed") && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "--iterations") && a + 1 < argc)
            iterations = strtoul(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "--seconds") && a + 1 < argc)
            seconds = strtod(argv[++a], NULL);
        else if (!strcmp(argv[a], "--save-dir") && a + 1 < argc)
            k.save_dir = argv[++a];
        else if (argv[a][0] == '-')
            usage();
        else
            collect_files(&c, argv[a]);
    }
    if (!c.nfiles)
        usage();
    qsort(c.files, c.nfiles, sizeof *c.files, compare_strings);
    for (i = 0; i < c.nfiles; i++) {
        split_ctx s = {&c, c.files[i]};
        if (read_file(c.files[i], &file))
            ptoc_split_input(file.data ? file.data : "", file.len, add_chunk, &s);
    }
    if (!c.nchunks)
        usage();
    rng_state = seed * UINT64_C(0x9E3779B97F4A7C15) | 1;
    start = now_seconds();

    for (i = 0; i < c.nchunks; i++) {
        char origin[4200];
        snprintf(origin, sizeof origin, "%s:%u", c.chunks[i].file, (unsigned)c.chunks[i].first_line);
        run_input(&k, c.chunks[i].text, c.chunks[i].len, origin, c.chunks[i].first_line, c.chunks[i].assembly);
    }
    corpus_failed = k.failed;
    printf("corpus: %zu files, %zu chunks, %lu passed, %lu failed\n", c.nfiles, c.nchunks,
           k.passed, k.failed);

    for (i = 0; i < iterations && now_seconds() - start < seconds; i++) {
        const chunk *base = &c.chunks[rng_below(c.nchunks)];
        char origin[4200];
        buf_set(&mutant, base->text, base->len);
        mutate(&mutant, &c);
        snprintf(origin, sizeof origin, "mutant %lu of %s:%u", i, base->file,
                 (unsigned)base->first_line);
        run_input(&k, mutant.data ? mutant.data : "", mutant.len, origin, base->first_line, base->assembly);
    }
    printf("mutants: %lu run in %.1fs (%lu rejected with diagnostics)\n", i,
           now_seconds() - start, k.rejected);
    printf("%lu passed, %lu failed (%lu in the corpus)\n", k.passed, k.failed, corpus_failed);

    for (i = 0; i < c.nchunks; i++)
        free(c.chunks[i].text);
    for (i = 0; i < c.nfiles; i++)
        free(c.files[i]);
    free(c.chunks);
    free(c.files);
    free(file.data);
    free(mutant.data);
    return k.failed ? 1 : 0;
}
