#!/usr/bin/env python3
"""radix_select.py: inputs and check for examples/radix_select.pto.

  radix_select.py gen DIR     writes DIR/in.npy (8x1024 u32) and DIR/out.npy (8 u32)
  radix_select.py check DIR   compares DIR/out/arg1.npy (what `ptoc --run --out
                              DIR/out` wrote) with the K-th largest of each row
                              of DIR/in.npy, found by sorting

The kernel gets k as its third argument: run it with `--arg 10` (K below).
The rows exercise the filters of the later passes: uniform values, values that
share their top bytes, all-equal, small values (top bytes zero), few distinct
values, and the K-th largest repeated across the boundary.
"""
import os
import sys

sys.dont_write_bytecode = True      # keep the source tree clean of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402

ROWS, COLS, K = 8, 1024, 10


def make_rows():
    rng = npy.Lcg(2026)
    kinds = [
        lambda: rng.next_u32(),                                # uniform
        lambda: 0xABCD0000 | rng.below(4),                     # shared top bytes
        lambda: 7,                                             # all equal
        lambda: rng.below(256),                                # bytes 3..1 zero
        lambda: rng.below(5) << 24 | rng.below(3) << 8,        # few distinct values
        lambda: 0x80000000 + rng.below(16),                    # around the sign bit
        lambda: 0xFFFFFFFF - rng.below(3),                     # the top of the range
        lambda: rng.next_u32() if rng.below(8) else 0x12345678,  # a repeated value
    ]
    return [[kind() for _ in range(COLS)] for kind in kinds]


def gen(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    rows = make_rows()
    npy.save(os.path.join(out_dir, "in.npy"), "<u4", (ROWS, COLS), [v for row in rows for v in row])
    npy.save(os.path.join(out_dir, "out.npy"), "<u4", (ROWS,), [0] * ROWS)


def check(out_dir):
    _, _, flat = npy.load(os.path.join(out_dir, "in.npy"))
    _, _, got = npy.load(os.path.join(out_dir, "out", "arg1.npy"))
    want = [sorted(flat[r * COLS:(r + 1) * COLS], reverse=True)[K - 1] for r in range(ROWS)]
    bad = [r for r in range(ROWS) if got[r] != want[r]]
    for r in bad:
        print(f"radix_select: row {r}: got {got[r]:#010x}, expected {want[r]:#010x}")
    print(f"radix_select: {'ok' if not bad else 'MISMATCH'} "
          f"({ROWS} rows of {COLS} u32, k = {K}, {ROWS - len(bad)}/{ROWS} rows match sorting)")
    return not bad


if __name__ == "__main__":
    npy.main(__doc__, gen, check)
