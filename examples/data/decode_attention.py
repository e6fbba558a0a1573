#!/usr/bin/env python3
"""decode_attention.py: inputs and check for examples/decode_attention.pto.

  decode_attention.py gen DIR     writes DIR/q.npy (16x64), DIR/k.npy (128x64),
                                  DIR/v.npy (128x64), all bf16 as <u2 bits, the
                                  kernel's workspaces DIR/s_ws.npy (16x128 f32) and
                                  DIR/p_ws.npy (16x128 bf16), and DIR/o.npy (16x64
                                  f32), zeros
  decode_attention.py check DIR   checks DIR/out/arg5.npy (o)

Expected values are computed here in double precision, independently of the
kernel: s = q k^T / 8, p = exp(s - max s), o = p v / sum p, per query head.
The kernel rounds p to bf16 before the second matmul (relative error at most
2^-9 per element) and computes everything else in f32, so each o[h,d] must lie
within 2^-8 * sum_t p[t] |v[t,d]| / sum_t p[t] (+ 1e-6) of the reference: the
bf16 rounding bound with room for the f32 errors. Rows of o are also checked
against the weighted-average property: each lies within the range of v's column.
"""
import math
import os
import struct
import sys

sys.dont_write_bytecode = True      # keep the source tree clean of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402

HEADS, SEQ, DIM = 16, 128, 64
SCALE = 1 / 8
TOL = 2.0 ** -8


def bf16_bits(x):
    """x rounded to bf16 (nearest even), as its 16 bits."""
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    return (u + 0x7FFF + ((u >> 16) & 1)) >> 16


def bf16_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def inputs(seq=SEQ, seed=31337):
    rng = npy.Lcg(seed)

    def values(n, spread):
        return [bf16_bits((rng.below(2 * spread + 1) - spread) / 64) for _ in range(n)]
    q = values(HEADS * DIM, 128)           # [-2, 2]
    k = values(seq * DIM, 128)
    v = values(seq * DIM, 256)             # [-4, 4]
    for d in range(DIM):                   # one position that head 0 attends to almost alone
        k[17 * DIM + d] = q[d]
    return q, k, v


def attention(q, k, v, seq=SEQ):
    """o and the error bound per element, from the bf16 inputs' values."""
    o, bound = [], []
    for h in range(HEADS):
        s = [SCALE * sum(q[h * DIM + d] * k[t * DIM + d] for d in range(DIM)) for t in range(seq)]
        m = max(s)
        p = [math.exp(x - m) for x in s]
        l = sum(p)
        for d in range(DIM):
            o.append(sum(p[t] * v[t * DIM + d] for t in range(seq)) / l)
            bound.append(TOL * sum(p[t] * abs(v[t * DIM + d]) for t in range(seq)) / l + 1e-6)
    return o, bound


def gen(out_dir, seq=SEQ, seed=31337):
    os.makedirs(out_dir, exist_ok=True)
    q, k, v = inputs(seq, seed)
    npy.save(os.path.join(out_dir, "q.npy"), "<u2", (HEADS, DIM), q)
    npy.save(os.path.join(out_dir, "k.npy"), "<u2", (seq, DIM), k)
    npy.save(os.path.join(out_dir, "v.npy"), "<u2", (seq, DIM), v)
    npy.save(os.path.join(out_dir, "s_ws.npy"), "<f4", (HEADS, seq), [0.0] * (HEADS * seq))
    npy.save(os.path.join(out_dir, "p_ws.npy"), "<u2", (HEADS, seq), [0] * (HEADS * seq))
    npy.save(os.path.join(out_dir, "o.npy"), "<f4", (HEADS, DIM), [0.0] * (HEADS * DIM))


def check(out_dir, seq=SEQ, name="decode_attention", out="arg5.npy"):
    q, k, v = ([bf16_value(b) for b in npy.load(os.path.join(out_dir, file))[2]]
               for file in ("q.npy", "k.npy", "v.npy"))
    _, _, o = npy.load(os.path.join(out_dir, "out", out))
    want, bound = attention(q, k, v, seq)
    errors = [f"o[{i // DIM},{i % DIM}] = {o[i]!r}, expected {want[i]!r} +- {bound[i]:.2e}"
              for i in range(HEADS * DIM) if not abs(o[i] - want[i]) <= bound[i]]
    for i in range(HEADS * DIM):
        column = [v[t * DIM + i % DIM] for t in range(seq)]
        if not min(column) <= o[i] <= max(column):
            errors.append(f"o[{i // DIM},{i % DIM}] = {o[i]!r} outside v's column range")
    worst = max(abs(o[i] - want[i]) / bound[i] for i in range(HEADS * DIM))
    for line in errors[:5]:
        print(f"{name}: {line}")
    print(f"{name}: {'ok' if not errors else 'MISMATCH'} ({HEADS} heads x {seq} positions x {DIM}, "
          f"bf16 in, f32 out; worst error {worst:.2f} of its bound)")
    return not errors


if __name__ == "__main__":
    npy.main(__doc__, gen, check)
