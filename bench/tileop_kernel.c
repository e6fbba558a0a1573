/* tileop_kernel.c: the synthetic kernels of the per-tile-op compile time
 * figures (ptoc-bench-compile's second table).
 *
 * bench_tileop_kernel(n) writes a module with one function of n tile ops: the
 * first n of a fixed cycle of 24 (repeated when n > 24) that mixes the ops the
 * cpu target lowers (the vector unit's and the cube's), six dtypes and the
 * tile shapes below, with static, ragged
 * static (60x50 of 64x64) and dynamic (?x?, from the function's arguments)
 * valid shapes. Every op works on tiles allocated once at the top of the
 * function (address-less, so codegen places them one after another), which
 * keeps UB use the same whatever n is; the ops do not depend on each other's
 * data, as compile time does not care. Scaffolding (constants, the GM view,
 * alloc_tile) is not counted as tile ops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_common.h"

/* Tile types: one class per (dtype, shape, valid shape), with the row tile of
 * the tcolexpand ops, the mask of the compares and the histogram's operands. */
static const char kernel_head[] =
    "!F = !pto.tile_buf<vec, 16x64xf32>\n"
    "!FR = !pto.tile_buf<vec, 1x64xf32>\n"
    "!FM = !pto.tile_buf<vec, 16x32xui8>\n"
    "!H = !pto.tile_buf<vec, 32x32xf16>\n"
    "!HR = !pto.tile_buf<vec, 1x32xf16>\n"
    "!I = !pto.tile_buf<vec, 8x128xi32, valid=?x?>\n"
    "!B = !pto.tile_buf<vec, 16x128xbf16>\n"
    "!S = !pto.tile_buf<vec, 32x64xi16, valid=?x?>\n"
    "!SM = !pto.tile_buf<vec, 32x32xui8>\n"
    "!R = !pto.tile_buf<vec, 64x64xf32, valid=60x50>\n"
    "!U = !pto.tile_buf<vec, 16x128xui16>\n"
    "!UI = !pto.tile_buf<vec, 32x1xui8, valid=16x1, blayout=col_major>\n"
    "!UD = !pto.tile_buf<vec, 16x256xui32>\n"
    "!FH = !pto.tile_buf<vec, 16x64xf16>\n"
    "!FC = !pto.tile_buf<vec, 16x8xf32, valid=16x1>\n"
    "!RR = !pto.tile_buf<vec, 1x64xf32, valid=1x50>\n"
    "!FS = !pto.tile_buf<vec, 16x16xf32>\n"
    "!L = !pto.tile_buf<loc=left, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, "
    "slayout=row_major, fractal=512, pad=0>\n"
    "!RT = !pto.tile_buf<loc=right, dtype=f16, rows=32, cols=16, v_row=32, v_col=16, blayout=row_major, "
    "slayout=col_major, fractal=512, pad=0>\n"
    "!C = !pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, "
    "slayout=row_major, fractal=1024, pad=0>\n"
    "!PV = !pto.partition_tensor_view<16x64xf32>\n"
    "\n"
    "module attributes {pto.target_arch = \"cpu\"} {\n"
    "func.func @tileops(%gm: !pto.ptr<f32>, %vr: index, %vc: index, %sf: f32, %si: i32) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c16 = arith.constant 16 : index\n"
    "  %c64 = arith.constant 64 : index\n"
    "  %view = pto.make_tensor_view %gm, shape = [%c16, %c64], strides = [%c64, %c1] : "
    "!pto.tensor_view<?x?xf32>\n"
    "  %pv = pto.partition_view %view, offsets = [%c0, %c0], sizes = [%c16, %c64] : "
    "!pto.tensor_view<?x?xf32> -> !PV\n";

/* alloc_tile lines: name, type, whether the valid shape comes from %vr, %vc. */
static const struct {
    const char *name, *type;
    int dynamic;
} tiles[] = {
    {"fa", "F", 0},  {"fb", "F", 0},  {"fd", "F", 0},  {"fr", "FR", 0}, {"fm", "FM", 0},
    {"ha", "H", 0},  {"hb", "H", 0},  {"hd", "H", 0},  {"hr", "HR", 0}, {"ia", "I", 1},
    {"ib", "I", 1},  {"id", "I", 1},  {"ba", "B", 0},  {"bb", "B", 0},  {"bd", "B", 0},
    {"sa", "S", 1},  {"sb", "S", 1},  {"sd", "S", 1},  {"sm", "SM", 0}, {"ra", "R", 0},
    {"rb", "R", 0},  {"rd", "R", 0},  {"ua", "U", 0},  {"ui", "UI", 0}, {"ud", "UD", 0},
    {"fh", "FH", 0}, {"fc", "FC", 0}, {"rr", "RR", 0}, {"fs", "FS", 0}, {"l", "L", 0},
    {"rt", "RT", 0}, {"acc", "C", 0},
};

/* The cycle of tile ops. */
static const char *const tile_ops[BENCH_TILEOP_CYCLE] = {
    "pto.tload ins(%pv : !PV) outs(%fa : !F)",
    "pto.tadd ins(%fa, %fb : !F, !F) outs(%fd : !F)",
    "pto.tmuls ins(%ha, %sf : !H, f32) outs(%hd : !H)",
    "pto.tcolexpandadd ins(%fa, %fr : !F, !FR) outs(%fd : !F)",
    "pto.tsub ins(%ia, %ib : !I, !I) outs(%id : !I)",
    "pto.tcmps ins(%fa, %sf {cmpMode = #pto<cmp gt>} : !F, f32) outs(%fm : !FM)",
    "pto.tsels ins(%fm, %fa, %fb, %sf : !FM, !F, !F, f32) outs(%fd : !F)",
    "pto.tmax ins(%ba, %bb : !B, !B) outs(%bd : !B)",
    "pto.tdiv ins(%ha, %hb : !H, !H) outs(%hd : !H)",
    "pto.tcolexpandexpdif ins(%ha, %hr : !H, !HR) outs(%hd : !H)",
    "pto.thistogram ins(%ua, %ui : !U, !UI) outs(%ud : !UD)",
    "pto.tmins ins(%sa, %si : !S, i32) outs(%sd : !S)",
    "pto.tcmp ins(%sa, %sb {cmpMode = #pto<cmp lt>} : !S, !S) outs(%sm : !SM)",
    "pto.tsel ins(%sm, %sa, %sb, %sd : !SM, !S, !S, !S) outs(%sd : !S)",
    "pto.tmul ins(%ra, %rb : !R, !R) outs(%rd : !R)",
    "pto.tcvt ins(%fa {rmode = #pto<round_mode CAST_RINT>} : !F) outs(%fh : !FH)",
    "pto.trowsum ins(%fa : !F) outs(%fc : !FC)",
    "pto.tcolmax ins(%ra : !R) outs(%rr : !RR)",
    "pto.texp ins(%fa : !F) outs(%fd : !F)",
    "pto.tabs ins(%sa : !S) outs(%sd : !S)",
    "pto.trelu ins(%ha : !H) outs(%hd : !H)",
    "pto.tmatmul ins(%l, %rt : !L, !RT) outs(%acc : !C)",
    "pto.tmov ins(%acc : !C) outs(%fs : !FS)",
    "pto.tstore ins(%fd : !F) outs(%pv : !PV)",
};

/* Appends `text` to the malloc'd string *s of length *len; *s becomes NULL
 * when memory runs out (and stays NULL). */
static void append(char **s, size_t *len, const char *text)
{
    size_t n = strlen(text);
    char *grown = *s ? realloc(*s, *len + n + 1) : NULL;
    if (!grown) {
        free(*s);
        *s = NULL;
        return;
    }
    memcpy(grown + *len, text, n + 1);
    *s = grown;
    *len += n;
}

char *bench_tileop_kernel(int nops)
{
    size_t len = 0;
    char *s = malloc(1), line[256];
    if (s)
        *s = '\0';
    append(&s, &len, kernel_head);
    for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++) {
        snprintf(line, sizeof line, "  %%%s = pto.alloc_tile%s : !%s\n", tiles[i].name,
                 tiles[i].dynamic ? " valid_row = %vr valid_col = %vc" : "", tiles[i].type);
        append(&s, &len, line);
    }
    for (int k = 0; k < nops; k++) {
        snprintf(line, sizeof line, "  %s\n", tile_ops[k % BENCH_TILEOP_CYCLE]);
        append(&s, &len, line);
    }
    append(&s, &len, "  return\n}\n}\n");
    return s;
}
