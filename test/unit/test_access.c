/* test_access.c: the access model (ptoc_pto_op_accesses) against its stated
 * rules (dialect/pto_access.c).
 *  - Forms: for every row of the op table with a Level-1 form and a fixed out
 *    count, the Level-1 op and its DPS form give the same list of accesses
 *    (role, read, write, kills, space): the ins read, the outs and the
 *    scratch ins written.
 *  - Ranges and kinds, on one kernel: constant tile addresses give
 *    [addr, addr + bytes); a partial valid region is written, not killed;
 *    tsel's tmp is written and killed, never read; a partition view's range
 *    comes from its constant offsets, sizes and strides over its pointer
 *    argument; Level-1 tstore writes its view; an op of a form of its own
 *    reads and writes all it touches.
 *  - Overlap: different spaces or GM roots never overlap, an unknown root
 *    meets every root, ranges must share a byte. */
#include "check.h"

#include "ptoc/ptoc.h"
#include "ptoc/pto.h"

#include <stdlib.h>
#include <string.h>

#define TILE "!pto.tile<16x16xf32>"
#define MAX_OPS 16
#define MAX_ACC 16

typedef struct op_list { ptoc_op *ops[MAX_OPS]; uint32_t n; } op_list;

static ptoc_walk_result collect(ptoc_op *op, void *user)
{
    op_list *l = user;
    if (ptoc_pto_opcode(op) != PTOC_PTO_OP_NONE && l->n < MAX_OPS)
        l->ops[l->n++] = op;
    return PTOC_WALK_ADVANCE;
}

/* The pto ops of `text` in program order; NULL module when it does not parse. */
static ptoc_op *parse(ptoc_context *ctx, ptoc_arena *arena, const char *text, op_list *l)
{
    ptoc_op *module = ptoc_parse(ctx, arena, text, strlen(text), "access.pto", NULL);
    l->n = 0;
    if (module)
        ptoc_walk_pre(module, collect, l);
    else
        fprintf(stderr, "could not parse:\n%s", text);
    return module;
}

static uint32_t accesses(const ptoc_op *op, ptoc_pto_access *acc)
{
    CHECK(ptoc_pto_op_max_accesses(op) <= MAX_ACC);
    return ptoc_pto_op_max_accesses(op) <= MAX_ACC ? ptoc_pto_op_accesses(op, acc) : 0;
}

/* ---------------------------------------------------------------- forms */

static void args(ptoc_strbuf *sb, const char *sep, uint32_t from, uint32_t n, bool with_types)
{
    for (uint32_t i = 0; i < n; i++)
        ptoc_strbuf_printf(sb, "%s%%a%u", i ? sep : "", from + i);
    if (with_types && n) {
        ptoc_strbuf_puts(sb, " : ");
        for (uint32_t i = 0; i < n; i++)
            ptoc_strbuf_printf(sb, "%s" TILE, i ? ", " : "");
    }
}

/* The function around one op, taking `nargs` tiles. */
static void function(ptoc_strbuf *sb, uint32_t nargs)
{
    ptoc_strbuf_puts(sb, "func.func @f(");
    for (uint32_t i = 0; i < nargs; i++)
        ptoc_strbuf_printf(sb, "%s%%a%u: " TILE, i ? ", " : "", i);
    ptoc_strbuf_puts(sb, ") {\n  ");
}

static void same_accesses(const char *name, const ptoc_op *l1, const ptoc_op *dps, uint32_t nins)
{
    ptoc_pto_access a[MAX_ACC], b[MAX_ACC];
    uint32_t na = accesses(l1, a), nb = accesses(dps, b);
    uint32_t scratch = ptoc_pto_op_effects(dps)->scratch_ins;
    bool reads_outs = ptoc_pto_op_effects(dps)->reads_outs;
    bool ok = na == nb;
    for (uint32_t k = 0; ok && k < na; k++) {
        bool out = a[k].role >= nins, written = out || (scratch & (1u << a[k].role));
        ok = a[k].role == b[k].role && a[k].read == b[k].read && a[k].write == b[k].write &&
             a[k].kills == b[k].kills && a[k].space == b[k].space &&
             a[k].read == (!written || (out && reads_outs)) && a[k].write == written;
    }
    if (!ok)
        fprintf(stderr, "%s: the Level-1 and DPS forms touch memory differently\n", name);
    CHECK(ok);
}

/* Row `info` with n ins and nouts outs, in both forms. */
static void check_forms(ptoc_context *ctx, const ptoc_pto_op_info *info, uint32_t n, uint32_t nouts)
{
    ptoc_strbuf l1, dps;
    ptoc_strbuf_init(&l1, ctx);
    ptoc_strbuf_init(&dps, ctx);
    function(&l1, n);
    ptoc_strbuf_printf(&l1, "%s%s ", nouts ? "%r = " : "", info->name);
    args(&l1, ", ", 0, n, true);
    ptoc_strbuf_puts(&l1, nouts ? " -> " TILE "\n  return\n}\n" : "\n  return\n}\n");
    function(&dps, n + nouts);
    ptoc_strbuf_printf(&dps, "%s ins(", info->name);
    args(&dps, ", ", 0, n, true);
    ptoc_strbuf_puts(&dps, ")");
    if (nouts) {
        ptoc_strbuf_puts(&dps, " outs(");
        args(&dps, ", ", n, nouts, true);
        ptoc_strbuf_puts(&dps, ")");
    }
    ptoc_strbuf_puts(&dps, "\n  return\n}\n");
    ptoc_arena *arena = ptoc_arena_create(ctx);
    op_list a, b;
    if (parse(ctx, arena, ptoc_strbuf_cstr(&l1), &a) && parse(ctx, arena, ptoc_strbuf_cstr(&dps), &b) &&
        a.n == 1 && b.n == 1)
        same_accesses(info->name, a.ops[0], b.ops[0], n);
    else
        CHECK(!"both forms parse to one op");
    ptoc_arena_destroy(arena);
    ptoc_strbuf_free(&l1);
    ptoc_strbuf_free(&dps);
}

static void check_all_forms(ptoc_context *ctx)
{
    size_t rows = 0;
    for (size_t i = 0; i < ptoc_pto_op_count(); i++) {
        const ptoc_pto_op_info *info = ptoc_pto_op_info_at(i);
        if (!info->level1 || info->min_outs != info->max_outs || info->max_outs > 1 ||
            info->max_ins == PTOC_PTO_VARIADIC)
            continue;
        uint32_t n = info->min_ins ? info->min_ins : info->max_ins;
        check_forms(ctx, info, n, info->max_outs);
        rows++;
    }
    fprintf(stderr, "%zu ops compared in their Level-1 and DPS forms\n", rows);
    CHECK(rows > 100);
}

/* ---------------------------------------------------------------- rules */

static const char kernel[] =
    "!T = !pto.tile_buf<vec, 16x16xf32>\n"
    "!H = !pto.tile_buf<vec, 16x16xf32, valid=16x8>\n"
    "!M = !pto.tile_buf<vec, 16x32xui8>\n"
    "!S = !pto.tile_buf<vec, 1x8xui32>\n"
    "!V = !pto.tensor_view<?x?xf32>\n"
    "!P = !pto.partition_tensor_view<1x16xf32>\n"
    "func.func @k(%p: !pto.ptr<f32>, %q: !pto.ptr<f32>, %x: !pto.tile<1x16xf32>) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c16 = arith.constant 16 : index\n"
    "  %a0 = arith.constant 0 : i64\n"
    "  %a1 = arith.constant 1024 : i64\n"
    "  %a2 = arith.constant 4096 : i64\n"
    "  %a3 = arith.constant 8192 : i64\n"
    "  %a4 = arith.constant 12288 : i64\n"
    "  %vp = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !V\n"
    "  %vq = pto.make_tensor_view %q, shape = [%c16, %c16], strides = [%c16, %c1] : !V\n"
    "  %pp = pto.partition_view %vp, offsets = [%c1, %c0], sizes = [%c1, %c16] : !V -> !P\n"
    "  %pq = pto.partition_view %vq, offsets = [%c1, %c0], sizes = [%c1, %c16] : !V -> !P\n"
    "  %t = pto.alloc_tile addr = %a0 : !T\n"
    "  %u = pto.alloc_tile addr = %a1 : !T\n"
    "  %h = pto.alloc_tile addr = %a2 : !H\n"
    "  %m = pto.alloc_tile addr = %a3 : !M\n"
    "  %s = pto.alloc_tile addr = %a4 : !S\n"
    "  pto.tadd ins(%t, %t : !T, !T) outs(%u : !T)\n"
    "  pto.tadd ins(%t, %t : !T, !T) outs(%h : !H)\n"
    "  pto.tsel ins(%m, %t, %u, %s : !M, !T, !T, !S) outs(%u : !T)\n"
    "  pto.tload ins(%pp : !P) outs(%t : !T)\n"
    "  pto.tstore %x, %pq : !pto.tile<1x16xf32>, !P\n"
    "  pto.set_validshape %h, %c16, %c1 : !H\n"
    "  return\n"
    "}\n";

enum { OP_VIEWS = 4, OP_ALLOCS = 5 };   /* pto ops of `kernel` before the ones checked */

static bool is(const ptoc_pto_access *a, bool read, bool write, bool kills)
{
    return a->read == read && a->write == write && a->kills == kills;
}

static bool range(const ptoc_pto_access *a, int32_t space, uint64_t lo, uint64_t hi)
{
    return a->space == space && a->known && a->lo == lo && a->hi == hi;
}

static void check_rules(ptoc_context *ctx)
{
    ptoc_arena *arena = ptoc_arena_create(ctx);
    op_list l;
    ptoc_op *module = parse(ctx, arena, kernel, &l);
    CHECK(module && l.n == OP_VIEWS + OP_ALLOCS + 6);
    if (!module || l.n != OP_VIEWS + OP_ALLOCS + 6) {
        ptoc_arena_destroy(arena);
        return;
    }
    ptoc_op **op = l.ops + OP_VIEWS + OP_ALLOCS;
    ptoc_pto_access a[MAX_ACC];
    const ptoc_value *p = ptoc_op_operand(l.ops[0], 0), *q = ptoc_op_operand(l.ops[1], 0);

    /* tadd into a whole tile: ins read, the out written whole, 1 KiB each. */
    CHECK(accesses(op[0], a) == 3);
    CHECK(is(&a[0], true, false, false) && range(&a[0], PTOC_PTO_AS_VEC, 0, 1024));
    CHECK(is(&a[2], false, true, true) && range(&a[2], PTOC_PTO_AS_VEC, 1024, 2048) && a[2].role == 2);
    /* into a tile whose valid region is half of it: written, not killed. */
    CHECK(accesses(op[1], a) == 3 && is(&a[2], false, true, false) && range(&a[2], PTOC_PTO_AS_VEC, 4096, 5120));
    /* tsel with its tmp (in 3): the tmp is written and killed, never read. */
    CHECK(accesses(op[2], a) == 5 && is(&a[0], true, false, false) && is(&a[3], false, true, true) &&
          range(&a[3], PTOC_PTO_AS_VEC, 12288, 12320) && range(&a[0], PTOC_PTO_AS_VEC, 8192, 8704));
    /* tload of row 1 of a 16x16 f32 view of %p: bytes [64, 128) from %p. */
    CHECK(accesses(op[3], a) == 2 && is(&a[0], true, false, false) && a[0].root == p &&
          range(&a[0], PTOC_PTO_AS_GM, 64, 128) && is(&a[1], false, true, true));
    /* Level-1 tstore: its view is its out. */
    CHECK(accesses(op[4], a) == 2 && is(&a[0], true, false, false) && a[0].space == PTOC_PTO_AS_VEC &&
          !a[0].known && a[0].hi == UINT64_MAX && is(&a[1], false, true, false) && a[1].root == q &&
          a[1].role == 1 && range(&a[1], PTOC_PTO_AS_GM, 64, 128));
    /* a form of its own: everything it touches is read and written. */
    CHECK(accesses(op[5], a) == 1 && is(&a[0], true, true, false));
    /* views and allocs: no memory operand; an alloc's result is written. */
    CHECK(accesses(l.ops[0], a) == 1 && a[0].root == p && is(&a[0], false, true, false));

    /* Overlap. */
    ptoc_pto_access x = {.space = PTOC_PTO_AS_GM, .root = p, .lo = 0, .hi = 64};
    ptoc_pto_access y = x, z = x;
    y.root = q;
    CHECK(ptoc_pto_accesses_overlap(&x, &z) && !ptoc_pto_accesses_overlap(&x, &y));
    z.root = NULL;
    CHECK(ptoc_pto_accesses_overlap(&z, &y));
    z.lo = 64, z.hi = 128;
    CHECK(!ptoc_pto_accesses_overlap(&x, &z));
    y = x;
    y.space = PTOC_PTO_AS_VEC;
    CHECK(!ptoc_pto_accesses_overlap(&x, &y));
    y.space = PTOC_PTO_SPACE_ANY;
    CHECK(ptoc_pto_accesses_overlap(&x, &y));
    ptoc_arena_destroy(arena);
}

int main(void)
{
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    check_all_forms(ctx);
    check_rules(ctx);
    ptoc_context_destroy(ctx);
    return CHECK_DONE();
}
