#!/usr/bin/env python3
"""softmax.py: inputs and check for examples/softmax.pto.

  softmax.py gen DIR     writes DIR/x.npy, DIR/z.npy, DIR/y.npy (16x64 f32)
  softmax.py check DIR   checks DIR/out/arg1.npy (z) and DIR/out/arg2.npy (y)

Expected values are computed here in double precision, independently of the
kernel: m_j = max_i x[i,j], z = x - m (exact: x holds multiples of 1/64 in
[-6, 6], so z is exact in f32 and must match bit for bit), and
y[i,j] = exp(x[i,j] - m_j) / sum_i exp(x[i,j] - m_j), which must match within
a relative error of 1e-5 (the kernel's f32 expf, 16-term f32 sum and f32
division are each good to a few 1e-7). Each column of y must also sum to 1
within 1e-5.
"""
import math
import os
import sys

sys.dont_write_bytecode = True      # keep the source tree clean of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402

ROWS, COLS = 16, 64
REL_TOL = 1e-5


def make_x():
    rng = npy.Lcg(99)
    xs = [(rng.below(769) - 384) / 64 for _ in range(ROWS * COLS)]
    for i in range(ROWS):
        xs[i * COLS + 0] = 1.0               # column 0: all equal, y = 1/16
        xs[i * COLS + 1] = -6.0 + i / 64     # column 1: small spread near -6
    xs[5 * COLS + 2] = 6.0                   # column 2: one dominant entry
    return xs


def expected(xs):
    m = [max(xs[i * COLS + j] for i in range(ROWS)) for j in range(COLS)]
    e = [math.exp(xs[k] - m[k % COLS]) for k in range(ROWS * COLS)]
    s = [sum(e[i * COLS + j] for i in range(ROWS)) for j in range(COLS)]
    z = [xs[k] - m[k % COLS] for k in range(ROWS * COLS)]
    y = [e[k] / s[k % COLS] for k in range(ROWS * COLS)]
    return z, y


def gen(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    zeros = [0.0] * (ROWS * COLS)
    npy.save(os.path.join(out_dir, "x.npy"), "<f4", (ROWS, COLS), make_x())
    npy.save(os.path.join(out_dir, "z.npy"), "<f4", (ROWS, COLS), zeros)
    npy.save(os.path.join(out_dir, "y.npy"), "<f4", (ROWS, COLS), zeros)


def check(out_dir):
    _, _, xs = npy.load(os.path.join(out_dir, "x.npy"))
    _, _, z = npy.load(os.path.join(out_dir, "out", "arg1.npy"))
    _, _, y = npy.load(os.path.join(out_dir, "out", "arg2.npy"))
    want_z, want_y = expected(xs)
    errors = []
    errors += [f"z[{k // COLS},{k % COLS}] = {z[k]!r}, expected {want_z[k]!r}"
               for k in range(len(z)) if npy.f32_bits(z[k]) != npy.f32_bits(want_z[k])]
    rel = [abs(y[k] - want_y[k]) / want_y[k] for k in range(len(y))]
    errors += [f"y[{k // COLS},{k % COLS}] = {y[k]!r}, expected {want_y[k]!r}"
               for k in range(len(y)) if not rel[k] <= REL_TOL]
    for j in range(COLS):
        total = sum(y[i * COLS + j] for i in range(ROWS))
        if not abs(total - 1) <= REL_TOL:
            errors.append(f"column {j} of y sums to {total!r}")
    for line in errors[:5]:
        print(f"softmax: {line}")
    print(f"softmax: {'ok' if not errors else 'MISMATCH'} ({ROWS}x{COLS} f32, z exact, "
          f"y max relative error {max(rel):.2e} <= {REL_TOL:.0e})")
    return not errors


if __name__ == "__main__":
    npy.main(__doc__, gen, check)
