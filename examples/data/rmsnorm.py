#!/usr/bin/env python3
"""rmsnorm.py: inputs and check for examples/rmsnorm.pto.

  rmsnorm.py gen DIR     writes DIR/x.npy (16x128 bf16), DIR/gamma.npy (1x128 bf16),
                         DIR/y.npy (16x128 bf16, zeros); bf16 travels as its <u2 bits
  rmsnorm.py check DIR   checks DIR/out/arg2.npy (y)

Expected values are computed here in double precision, independently of the
kernel: y[i,j] = x[i,j] / sqrt(mean_j(x[i,j]^2) + 1e-6) * gamma[j], rounded to
bf16 (nearest even). The kernel computes in f32 (a 128-term sum, one rsqrt,
two multiplications: a few f32 ulps) and rounds once to bf16, so each y must
be the correctly rounded reference or its bf16 neighbour (one ulp, when the
exact value lies within those f32 errors of a rounding boundary); the check
also reports how many are bit-exact, which must be nearly all.
"""
import math
import os
import struct
import sys

sys.dont_write_bytecode = True      # keep the source tree clean of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402

ROWS, COLS = 16, 128
EPS = 1e-6
MIN_EXACT = 0.99


def bf16_bits(x):
    """x rounded to bf16 (nearest even), as its 16 bits."""
    u = struct.unpack("<I", struct.pack("<f", x))[0]      # x as f32 first: exact for our data
    return (u + 0x7FFF + ((u >> 16) & 1)) >> 16


def bf16_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def inputs():
    rng = npy.Lcg(2024)
    # x: 8-bit-mantissa values spread over [-4, 4], one row of tiny values, one
    # of large ones, so the row scale varies by orders of magnitude
    x = [bf16_bits((rng.below(2049) - 1024) / 256) for _ in range(ROWS * COLS)]
    for j in range(COLS):
        x[3 * COLS + j] = bf16_bits((rng.below(201) - 100) / 65536)
        x[7 * COLS + j] = bf16_bits((rng.below(201) - 100) * 4.0)
    gamma = [bf16_bits(0.5 + rng.below(257) / 256) for _ in range(COLS)]
    return x, gamma


def expected(x, gamma):
    xs = [bf16_value(b) for b in x]
    gs = [bf16_value(b) for b in gamma]
    y = []
    for i in range(ROWS):
        row = xs[i * COLS:(i + 1) * COLS]
        r = 1 / math.sqrt(sum(v * v for v in row) / COLS + EPS)
        y += [bf16_bits(row[j] * r * gs[j]) for j in range(COLS)]
    return y


def gen(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    x, gamma = inputs()
    npy.save(os.path.join(out_dir, "x.npy"), "<u2", (ROWS, COLS), x)
    npy.save(os.path.join(out_dir, "gamma.npy"), "<u2", (1, COLS), gamma)
    npy.save(os.path.join(out_dir, "y.npy"), "<u2", (ROWS, COLS), [0] * (ROWS * COLS))


def ordered(bits):
    """bf16 bits as an integer that orders like the value (for ulp distances)."""
    return -(bits & 0x7FFF) if bits & 0x8000 else bits


def check(out_dir):
    _, _, x = npy.load(os.path.join(out_dir, "x.npy"))
    _, _, gamma = npy.load(os.path.join(out_dir, "gamma.npy"))
    _, _, y = npy.load(os.path.join(out_dir, "out", "arg2.npy"))
    want = expected(x, gamma)
    ulps = [abs(ordered(y[k]) - ordered(want[k])) for k in range(ROWS * COLS)]
    errors = [f"y[{k // COLS},{k % COLS}] = {bf16_value(y[k])!r}, expected {bf16_value(want[k])!r}"
              for k in range(ROWS * COLS) if ulps[k] > 1]
    exact = sum(1 for u in ulps if u == 0) / len(ulps)
    if exact < MIN_EXACT:
        errors.append(f"only {exact:.1%} of y bit-exact, expected at least {MIN_EXACT:.0%}")
    for line in errors[:5]:
        print(f"rmsnorm: {line}")
    print(f"rmsnorm: {'ok' if not errors else 'MISMATCH'} ({ROWS}x{COLS} bf16, every y within 1 bf16 ulp, "
          f"{exact:.1%} bit-exact)")
    return not errors


if __name__ == "__main__":
    npy.main(__doc__, gen, check)
