#!/usr/bin/env python3
"""flash_attention.py: inputs and check for examples/flash_attention.pto.

  flash_attention.py gen DIR     writes DIR/q.npy (16x64), DIR/k.npy (256x64),
                                 DIR/v.npy (256x64), all bf16 as <u2 bits, the
                                 kernel's workspaces DIR/s_ws.npy (16x64 f32),
                                 DIR/p_ws.npy (16x64 bf16), DIR/pv_ws.npy (16x64
                                 f32), and DIR/o.npy (16x64 f32), zeros
  flash_attention.py check DIR   checks DIR/out/arg6.npy (o)

The expected output is plain softmax attention over all 256 keys at once, in
double precision (decode_attention.py's reference and bound): the kernel's
online softmax (4 blocks of 64, rescaled by exp(m - m') as the running max
grows) must give the same result within the bound of its bf16 rounding of P,
which the rescaling does not change (each P element is still rounded once,
relative to its own block's max).
"""
import os
import sys

sys.dont_write_bytecode = True      # keep the source tree clean of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decode_attention  # noqa: E402
import npy  # noqa: E402

SEQ = 256
SEED = 4242


BLOCK = 64


def gen(out_dir):
    decode_attention.gen(out_dir, SEQ, SEED)
    zeros = [0.0] * (decode_attention.HEADS * BLOCK)
    shape = (decode_attention.HEADS, BLOCK)
    npy.save(os.path.join(out_dir, "s_ws.npy"), "<f4", shape, zeros)
    npy.save(os.path.join(out_dir, "p_ws.npy"), "<u2", shape, [0] * len(zeros))
    npy.save(os.path.join(out_dir, "pv_ws.npy"), "<f4", shape, zeros)


def check(out_dir):
    return decode_attention.check(out_dir, SEQ, "flash_attention", "arg6.npy")


if __name__ == "__main__":
    npy.main(__doc__, gen, check)
