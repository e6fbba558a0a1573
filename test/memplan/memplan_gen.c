/* memplan_gen.c: random Level-2 kernels for the memory-planning checker.
 *
 * A kernel has a few tile types (vec, sometimes one in mat; f32, f16 or i8 with
 * 32-byte rows), one partition view and one scalar parameter per type, and four
 * i1 parameters the ifs branch on. Its body is built statement by statement:
 * alloc_tile (address-less, or with a hand-made addr, see mp_addr_mode), tload,
 * tadd/tmul, tadds, tcvt (A5 kernels: from an f32 type to its f16 twin of one
 * shape, which A5 may write in place with fewer bytes), tstore, scf.for (constant trip count 2..4, sometimes with a
 * buffer in iter_args), scf.while (carrying a buffer; its condition is an i1
 * parameter) and scf.if (sometimes yielding a buffer), nested up to depth 3. Only buffers written on every path are read, so every read sees a
 * write. A per-kernel row limit spreads the live size around the capacity: most
 * kernels fit, some do not (the planner must then report the overflow).
 */
#include "memplan.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TYPES 5
#define MAX_VALS 1024
#define MAX_DEPTH 3

/* i8 elementwise arithmetic exists on A5 only (and tmul not even there): A2/A3
 * kernels use i16 instead. */
static const char *const elem_name[4] = {"f32", "f16", "i8", "i16"};
static const uint32_t elem_bytes[4] = {4, 2, 1, 2};
static const char *const arch_names[4] = {"a5", "a5", "a3", "a2"};

typedef struct gen_type {
    bool mat;
    int elem;
    uint32_t rows, cols;
    int narrow_of;    /* the f32 type this f16 type has the shape of (tcvt's out), or -1 */
} gen_type;

typedef struct gen_val {
    int id;           /* %v<id> */
    int type;
    bool defined;     /* written on every path so far */
} gen_val;

typedef struct gen {
    uint64_t rng;
    mp_addr_mode mode;
    unsigned omit;                    /* MP_NO_* */
    char *text;
    size_t len, cap;
    int arch, ntypes;
    gen_type types[MAX_TYPES];
    gen_val vals[MAX_VALS];
    int nvals, next_id, next_iv, budget;
    uint64_t next_addr[MP_MAX_SPACES];
} gen;

static uint64_t rnd(gen *g)
{
    g->rng ^= g->rng << 13;
    g->rng ^= g->rng >> 7;
    g->rng ^= g->rng << 17;
    return g->rng;
}

static int below(gen *g, int n) { return (int)(rnd(g) % (uint64_t)n); }

static void emit(gen *g, int depth, const char *fmt, ...)
{
    char line[512];
    int n = 2 * (depth + 1) < 64 ? 2 * (depth + 1) : 64;
    memset(line, ' ', (size_t)n);
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    if (g->len + (size_t)n + 2 > g->cap) {
        g->cap = (g->cap + (size_t)n + 2) * 2;
        g->text = realloc(g->text, g->cap);
        if (!g->text)
            abort();
    }
    memcpy(g->text + g->len, line, (size_t)n);
    g->len += (size_t)n;
    g->text[g->len++] = '\n';
    g->text[g->len] = 0;
}

static uint64_t type_bytes(const gen_type *t) { return (uint64_t)t->rows * t->cols * elem_bytes[t->elem]; }

/* ---------------------------------------------------------------- values in scope */

static gen_val *push_val(gen *g, int type, bool defined)
{
    if (g->nvals == MAX_VALS)
        abort();
    gen_val *v = &g->vals[g->nvals++];
    v->id = g->next_id++;
    v->type = type;
    v->defined = defined;
    return v;
}

/* A random value of `type` (any type when < 0), defined ones only if asked; NULL if none. */
static gen_val *pick(gen *g, int type, bool need_defined)
{
    int n = 0;
    for (int i = 0; i < g->nvals; i++)
        n += (type < 0 || g->vals[i].type == type) && (!need_defined || g->vals[i].defined);
    if (!n)
        return NULL;
    int k = below(g, n);
    for (int i = 0; i < g->nvals; i++)
        if ((type < 0 || g->vals[i].type == type) && (!need_defined || g->vals[i].defined) && k-- == 0)
            return &g->vals[i];
    return NULL;
}

/* ---------------------------------------------------------------- statements */

static gen_val *gen_alloc(gen *g, int depth, int type)
{
    gen_val *v = push_val(g, type, false);
    if (g->mode == MP_ADDR_NONE) {
        emit(g, depth, "%%v%d = pto.alloc_tile : !T%d", v->id, type);
        return v;
    }
    int space = g->types[type].mat ? PTOC_PTO_AS_MAT : PTOC_PTO_AS_VEC;
    uint64_t addr = g->mode == MP_ADDR_ZERO ? 0 : g->next_addr[space];
    g->next_addr[space] += (type_bytes(&g->types[type]) + 31) & ~UINT64_C(31);
    emit(g, depth, "%%a%d = arith.constant %llu : i64", v->id, (unsigned long long)addr);
    emit(g, depth, "%%v%d = pto.alloc_tile addr = %%a%d : !T%d", v->id, v->id, type);
    return v;
}

static void gen_tload(gen *g, int depth, gen_val *dst)
{
    emit(g, depth, "pto.tload ins(%%p%d : !P%d) outs(%%v%d : !T%d)", dst->type, dst->type, dst->id, dst->type);
    dst->defined = true;
}

/* A defined value of `type`, loading one into a (maybe new) buffer when none is. */
static gen_val *defined_of(gen *g, int depth, int type)
{
    gen_val *v = pick(g, type, true);
    if (v)
        return v;
    v = pick(g, type, false);
    if (!v || below(g, 2))
        v = gen_alloc(g, depth, type);
    gen_tload(g, depth, v);
    return v;
}

/* A destination of `type`: an existing buffer or a new one. */
static gen_val *dest_of(gen *g, int depth, int type)
{
    gen_val *v = below(g, 3) ? pick(g, type, false) : NULL;
    return v ? v : gen_alloc(g, depth, type);
}

static void gen_binary(gen *g, int depth)
{
    int t = below(g, g->ntypes);
    if (g->types[t].mat) {              /* mat tiles only move: load and store */
        gen_tload(g, depth, dest_of(g, depth, t));
        return;
    }
    gen_val *a = defined_of(g, depth, t), *b = defined_of(g, depth, t);
    gen_val *d = dest_of(g, depth, t);
    /* A5's tmul has no 8-bit types (the hardware's list): i8 tiles add. */
    bool add = below(g, 2) || g->types[t].elem == 2;
    emit(g, depth, "pto.%s ins(%%v%d, %%v%d : !T%d, !T%d) outs(%%v%d : !T%d)", add ? "tadd" : "tmul",
         a->id, b->id, t, t, d->id, t);
    d->defined = true;
}

static void gen_scalar(gen *g, int depth)
{
    int t = below(g, g->ntypes);
    if (g->types[t].mat)
        return;
    gen_val *a = defined_of(g, depth, t), *d = dest_of(g, depth, t);
    emit(g, depth, "pto.tadds ins(%%v%d, %%s%d : !T%d, %s) outs(%%v%d : !T%d)", a->id, t, t,
         elem_name[g->types[t].elem], d->id, t);
    d->defined = true;
}

/* tcvt from an f32 type to its f16 twin; a tadd/tmul when there is none. */
static void gen_convert(gen *g, int depth)
{
    int u = -1;
    for (int i = 0; i < g->ntypes && u < 0; i++)
        if (g->types[i].narrow_of >= 0)
            u = i;
    if (u < 0) {
        gen_binary(g, depth);
        return;
    }
    int t = g->types[u].narrow_of;
    gen_val *a = defined_of(g, depth, t), *d = dest_of(g, depth, u);
    emit(g, depth, "pto.tcvt ins(%%v%d : !T%d) outs(%%v%d : !T%d)", a->id, t, d->id, u);
    d->defined = true;
}

static void gen_tstore(gen *g, int depth)
{
    gen_val *v = pick(g, -1, true);
    if (v)
        emit(g, depth, "pto.tstore ins(%%v%d : !T%d) outs(%%p%d : !P%d)", v->id, v->type, v->type, v->type);
}

static void gen_block(gen *g, int depth, int nstmts);

/* Remembers and restores the `defined` flags of the values in scope. */
static bool *save_defined(gen *g)
{
    bool *d = malloc(sizeof *d * (size_t)(g->nvals + 1));
    for (int i = 0; i < g->nvals; i++)
        d[i] = g->vals[i].defined;
    return d;
}

static void gen_for(gen *g, int depth)
{
    int iv = g->next_iv++, trips = 2 + below(g, 3);
    int outer = g->nvals;
    if (below(g, 2) && !(g->omit & MP_NO_ITER_ARGS)) {   /* a buffer carried in iter_args */
        gen_val *init = pick(g, -1, true);
        if (!init)
            init = defined_of(g, depth, below(g, g->ntypes));
        int t = init->type, init_id = init->id;
        int res_id = g->next_id++;     /* the result is in scope after the loop only */
        gen_val *acc = push_val(g, t, true);
        emit(g, depth, "%%v%d = scf.for %%i%d = %%c0 to %%c%d step %%c1 iter_args(%%v%d = %%v%d) -> (!T%d) {",
             res_id, iv, trips, acc->id, init_id, t);
        gen_block(g, depth + 1, 1 + below(g, 6));
        gen_val *y = defined_of(g, depth + 1, t);
        emit(g, depth + 1, "scf.yield %%v%d : !T%d", y->id, t);
        g->nvals = outer;
        push_val(g, t, true)->id = res_id;
    } else {
        emit(g, depth, "scf.for %%i%d = %%c0 to %%c%d step %%c1 {", iv, trips);
        gen_block(g, depth + 1, 1 + below(g, 6));
        g->nvals = outer;
    }
    emit(g, depth, "}");
}

/* scf.while carrying one buffer: the before region may update it and hands a
 * buffer of its type to the condition; the after region reads that one and
 * yields the next iteration's. */
static void gen_while(gen *g, int depth)
{
    gen_val *init = pick(g, -1, true);
    if (!init)
        init = defined_of(g, depth, below(g, g->ntypes));
    int t = init->type, init_id = init->id, cond = below(g, 4);
    int res_id = g->next_id++;         /* in scope after the loop only */
    int outer = g->nvals;
    gen_val *arg = push_val(g, t, true);
    emit(g, depth, "%%v%d = scf.while (%%v%d = %%v%d) : (!T%d) -> !T%d {", res_id, arg->id, init_id, t, t);
    gen_block(g, depth + 1, 1 + below(g, 4));
    gen_val *c = defined_of(g, depth + 1, t);
    emit(g, depth + 1, "scf.condition(%%q%d) %%v%d : !T%d", cond, c->id, t);
    g->nvals = outer;
    emit(g, depth, "} do {");
    bool *before = save_defined(g);    /* the after region may not run */
    gen_val *after = push_val(g, t, true);
    emit(g, depth, "^bb0(%%v%d: !T%d):", after->id, t);
    gen_block(g, depth + 1, 1 + below(g, 4));
    gen_val *y = defined_of(g, depth + 1, t);
    emit(g, depth + 1, "scf.yield %%v%d : !T%d", y->id, t);
    g->nvals = outer;
    for (int i = 0; i < outer; i++)
        g->vals[i].defined = before[i];
    free(before);
    emit(g, depth, "}");
    push_val(g, t, true)->id = res_id;
}

static void gen_if(gen *g, int depth)
{
    int cond = below(g, 4);
    int t = below(g, 2) ? below(g, g->ntypes) : -1;
    if (g->omit & MP_NO_IF_RESULTS)
        t = -1;
    int res_id = -1;
    if (t >= 0) {
        res_id = g->next_id++;         /* in scope after the if only */
        emit(g, depth, "%%v%d = scf.if %%q%d -> (!T%d) {", res_id, cond, t);
    } else {
        emit(g, depth, "scf.if %%q%d {", cond);
    }
    int scope = g->nvals;
    bool *before = save_defined(g), *after_then;
    for (int branch = 0; branch < 2; branch++) {
        if (branch) {
            emit(g, depth, "} else {");
            for (int i = 0; i < scope; i++)
                g->vals[i].defined = before[i];
        }
        gen_block(g, depth + 1, 1 + below(g, 5));
        if (t >= 0) {
            gen_val *y = defined_of(g, depth + 1, t);
            emit(g, depth + 1, "scf.yield %%v%d : !T%d", y->id, t);
        }
        g->nvals = scope;
        if (!branch)
            after_then = save_defined(g);
    }
    for (int i = 0; i < scope; i++)     /* defined after the if: defined on both arms */
        g->vals[i].defined = g->vals[i].defined && after_then[i];
    if (t >= 0)
        push_val(g, t, true)->id = res_id;
    free(before);
    free(after_then);
    emit(g, depth, "}");
}

static void gen_statement(gen *g, int depth)
{
    int r = below(g, 100);
    bool nest = depth < MAX_DEPTH && g->budget > 8;
    if (r < 2)                          /* rare: a buffer nothing may touch */
        gen_alloc(g, depth, below(g, g->ntypes));
    else if (r < 12)
        gen_tload(g, depth, gen_alloc(g, depth, below(g, g->ntypes)));
    else if (r < 30)
        gen_tload(g, depth, dest_of(g, depth, below(g, g->ntypes)));
    else if (r < 52)
        gen_binary(g, depth);
    else if (r < 55)
        gen_convert(g, depth);
    else if (r < 65)
        gen_scalar(g, depth);
    else if (r < 78)
        gen_tstore(g, depth);
    else if (r < 86 && nest)
        gen_for(g, depth);
    else if (r < 90 && nest && !(g->omit & MP_NO_WHILE))
        gen_while(g, depth);
    else if (nest)
        gen_if(g, depth);
}

static void gen_block(gen *g, int depth, int nstmts)
{
    for (int i = 0; i < nstmts && g->budget > 0; i++, g->budget--)
        gen_statement(g, depth);
}

/* ---------------------------------------------------------------- kernel */

static void gen_types(gen *g)
{
    static const uint32_t row_limits[] = {4, 8, 16, 32, 64, 96, 256};
    uint32_t max_rows = row_limits[below(g, 7)];
    g->arch = below(g, 4);
    g->ntypes = 1 + below(g, MAX_TYPES);
    for (int i = 0; i < g->ntypes; i++) {
        gen_type *t = &g->types[i];
        t->mat = i > 0 && below(g, 6) == 0;
        t->elem = below(g, 3);
        if (t->elem == 2 && g->arch >= 2)
            t->elem = 3;
        t->cols = (32u << below(g, 5)) / elem_bytes[t->elem];
        t->rows = 1 + (uint32_t)below(g, (int)max_rows);
        t->narrow_of = -1;
        const gen_type *prev = i > 0 ? &g->types[i - 1] : NULL;
        bool twin = prev && g->arch < 2 && !prev->mat && prev->elem == 0 && prev->cols >= 16 && below(g, 3) == 0;
        if (twin)                       /* f16 rows of 16 f32 columns still have 32 bytes */
            *t = (gen_type){false, 1, prev->rows, prev->cols, i - 1};
    }
}

static void gen_header(gen *g)
{
    for (int i = 0; i < g->ntypes; i++) {
        const gen_type *t = &g->types[i];
        emit(g, -1, "!T%d = !pto.tile_buf<%s, %ux%ux%s>", i, t->mat ? "mat" : "vec", t->rows, t->cols,
             elem_name[t->elem]);
        emit(g, -1, "!P%d = !pto.partition_tensor_view<%ux%ux%s>", i, t->rows, t->cols, elem_name[t->elem]);
    }
    emit(g, -1, "module attributes {pto.target_arch = \"%s\"} {", arch_names[g->arch]);
    char params[1024];
    size_t n = 0;
    for (int i = 0; i < g->ntypes; i++)
        n += (size_t)snprintf(params + n, sizeof params - n, "%%p%d: !P%d, %%s%d: %s, ", i, i, i,
                              elem_name[g->types[i].elem]);
    snprintf(params + n, sizeof params - n, "%%q0: i1, %%q1: i1, %%q2: i1, %%q3: i1");
    emit(g, -1, "func.func @kernel(%s) {", params);
    for (int c = 0; c <= 4; c++)
        emit(g, 0, "%%c%d = arith.constant %d : index", c, c);
}

char *mp_generate(uint64_t seed, mp_addr_mode mode, unsigned omit)
{
    gen g = {0};
    g.omit = omit;
    g.rng = seed * UINT64_C(0x9E3779B97F4A7C15) + 0x2545F4914F6CDD1D;
    g.mode = mode;
    for (int i = 0; i < 4; i++)
        rnd(&g);
    gen_types(&g);
    gen_header(&g);
    g.budget = 10 + below(&g, 70);
    gen_block(&g, 0, g.budget);
    for (int i = 0; i < 3; i++)         /* some values live to the end */
        gen_tstore(&g, 0);
    emit(&g, 0, "return");
    emit(&g, -1, "}");
    emit(&g, -1, "}");
    return g.text;
}
