#!/usr/bin/env python3
"""masked_clamp.py: inputs and check for examples/masked_clamp.pto.

  masked_clamp.py gen DIR     writes DIR/x.npy and DIR/y.npy (32x100 f32)
  masked_clamp.py check DIR   compares DIR/out/arg1.npy bit for bit with
                              t = x if x <= HI else HI; y = t if t >= LO else LO

Run the kernel with `--arg -0.5 --arg 0.75` (LO, HI). x holds multiples of
1/256 in [-1.5, 1.5] plus lo and hi themselves, +-0, +-inf and NaN (ordered
compares: NaN becomes HI).
"""
import math
import os
import sys

sys.dont_write_bytecode = True      # keep the source tree clean of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402

ROWS, COLS = 32, 100
LO, HI = -0.5, 0.75
SPECIAL = [LO, HI, 0.0, -0.0, math.inf, -math.inf, math.nan]


def make_x():
    rng = npy.Lcg(7)
    xs = [(rng.below(769) - 384) / 256 for _ in range(ROWS * COLS)]
    for i in range(0, len(xs), 13):
        xs[i] = SPECIAL[(i // 13) % len(SPECIAL)]
    return xs


def clamp(x):
    t = x if x <= HI else HI
    return t if t >= LO else LO


def gen(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    npy.save(os.path.join(out_dir, "x.npy"), "<f4", (ROWS, COLS), make_x())
    npy.save(os.path.join(out_dir, "y.npy"), "<f4", (ROWS, COLS), [0.0] * (ROWS * COLS))


def check(out_dir):
    _, _, xs = npy.load(os.path.join(out_dir, "x.npy"))
    _, _, ys = npy.load(os.path.join(out_dir, "out", "arg1.npy"))
    bad = [i for i, (x, y) in enumerate(zip(xs, ys)) if npy.f32_bits(y) != npy.f32_bits(clamp(x))]
    for i in bad[:5]:
        print(f"masked_clamp: [{i // COLS},{i % COLS}] x = {xs[i]!r}: got {ys[i]!r}, expected {clamp(xs[i])!r}")
    clamped = sum(1 for x in xs if npy.f32_bits(clamp(x)) != npy.f32_bits(x))
    print(f"masked_clamp: {'ok' if not bad else 'MISMATCH'} ({ROWS}x{COLS} f32 clamped to [{LO}, {HI}], "
          f"{clamped} changed, {len(xs) - len(bad)}/{len(xs)} bit-exact)")
    return not bad


if __name__ == "__main__":
    npy.main(__doc__, gen, check)
