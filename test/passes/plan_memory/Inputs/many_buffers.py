"""Writes a kernel with N address-less tiles to stdout, for planning-time runs.

Usage: many_buffers.py N [SEED]

Tile i is allocated and written whole by op i (a texpands of an f16 constant,
so the tile is not live before it) and read again by an op up to 64 ops later
(seeded pseudo-random), so about 32 tiles are live at any point; the reading
op is a tadd that writes the tile over itself in place (a web of its own, at
the same offset). Every 16th group of 256 sits in an scf.for, whose tiles are
read only inside it: a read that would cross the loop's boundary is dropped,
and its tile, written only, is live at its write. Sizes vary between 512 B and
4 KiB so placement has holes to fill.
"""
import random
import sys

n = int(sys.argv[1])
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
shapes = ["16x16xf16", "16x32xf16", "32x32xf16", "32x64xf16"]
kinds = [rng.randrange(len(shapes)) for _ in range(n)]
last = [i + 1 + rng.randrange(64) for i in range(n)]
reads = {}
for i, j in enumerate(last):
    reads.setdefault(min(j, n - 1), []).append(i)
out = ["func.func @many(%n: index) {",
       "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
       "  %h = arith.constant 1.0 : f16"]
open_loop = False
for i in range(n):
    if i % 256 == 0:
        if open_loop:
            out.append("  }")
        open_loop = (i // 256) % 16 == 1
        if open_loop:
            out.append("  scf.for %i" + str(i) + " = %c0 to %n step %c1 {")
    t = f"!pto.tile_buf<vec, {shapes[kinds[i]]}>"
    out.append(f"  %t{i} = pto.alloc_tile : {t}")
    out.append(f"  pto.texpands ins(%h : f16) outs(%t{i} : {t})")
    for r in reads.get(i, []):
        if (r // 256 != i // 256) and ((r // 256) % 16 == 1 or (i // 256) % 16 == 1):
            continue                    # defined in a loop body, not visible here
        tr = f"!pto.tile_buf<vec, {shapes[kinds[r]]}>"
        out.append(f"  pto.tadd ins(%t{r}, %t{r} : {tr}, {tr}) outs(%t{r} : {tr})")
if open_loop:
    out.append("  }")
out += ["  return", "}"]
print("\n".join(out))
