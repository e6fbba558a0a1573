#!/usr/bin/env python3
"""matmul_epilogue.py: inputs and check for examples/matmul_epilogue.pto.

  matmul_epilogue.py gen DIR     writes DIR/a.npy (32x64 f16), DIR/b.npy (64x32 f16),
                                 DIR/bias.npy (1x32 f32), DIR/ws.npy (32x32 f32, the
                                 kernel's workspace), DIR/y.npy (32x32 f16, zeros)
  matmul_epilogue.py check DIR   checks DIR/out/arg4.npy (y)

Expected values are computed here, independently of the kernel, in exact
arithmetic: A and B hold multiples of 1/8 in [-2, 2] and the bias multiples of
1/64, so every product, every partial sum of the f32 accumulation and the
biased sum are exact in f32, whatever the order of the sums. Then relu, and
the rounding to f16 (nearest even: Python's struct does it), so y must match
bit for bit.
"""
import os
import struct
import sys

sys.dont_write_bytecode = True      # keep the source tree clean of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402

M, K, N = 32, 64, 32


def inputs():
    rng = npy.Lcg(7)
    a = [(rng.below(33) - 16) / 8 for _ in range(M * K)]
    b = [(rng.below(33) - 16) / 8 for _ in range(K * N)]
    bias = [(rng.below(513) - 256) / 64 for _ in range(N)]
    return a, b, bias


def f16(x):
    """x rounded to f16, nearest even, as the f16 value."""
    return struct.unpack("<e", struct.pack("<e", x))[0]


def expected(a, b, bias):
    y = []
    for i in range(M):
        for j in range(N):
            c = sum(a[i * K + k] * b[k * N + j] for k in range(K)) + bias[j]
            y.append(f16(max(c, 0.0)))
    return y


def gen(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    a, b, bias = inputs()
    npy.save(os.path.join(out_dir, "a.npy"), "<f2", (M, K), a)
    npy.save(os.path.join(out_dir, "b.npy"), "<f2", (K, N), b)
    npy.save(os.path.join(out_dir, "bias.npy"), "<f4", (1, N), bias)
    npy.save(os.path.join(out_dir, "ws.npy"), "<f4", (M, N), [0.0] * (M * N))
    npy.save(os.path.join(out_dir, "y.npy"), "<f2", (M, N), [0.0] * (M * N))


def check(out_dir):
    _, _, a = npy.load(os.path.join(out_dir, "a.npy"))
    _, _, b = npy.load(os.path.join(out_dir, "b.npy"))
    _, _, bias = npy.load(os.path.join(out_dir, "bias.npy"))
    _, _, y = npy.load(os.path.join(out_dir, "out", "arg4.npy"))
    want = expected(a, b, bias)
    errors = [f"y[{k // N},{k % N}] = {y[k]!r}, expected {want[k]!r}"
              for k in range(M * N) if struct.pack("<e", y[k]) != struct.pack("<e", want[k])]
    for line in errors[:5]:
        print(f"matmul_epilogue: {line}")
    zeros = sum(1 for v in want if v == 0)
    print(f"matmul_epilogue: {'ok' if not errors else 'MISMATCH'} ({M}x{K} * {K}x{N} f16 -> f32, "
          f"+ bias, relu ({zeros} zeros), f16: bit for bit)")
    return not errors


if __name__ == "__main__":
    npy.main(__doc__, gen, check)
