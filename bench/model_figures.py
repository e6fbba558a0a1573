"""Modelled cycles of the example kernels on each target model (docs/testing.md).

Usage: model_figures.py BUILD_DIR

Runs each examples/*.pto that has inputs (examples/data/NAME.py gen; add.pto
gets two random 16x16 f32 tiles) with `ptoc --run --stats` for -target=cpu and
-target=a5, and prints the pipe simulator's totals: the busy cycles of V,
MTE2 and MTE3 and the total, under the cpu target's rough costs and under the
A5 model's (a vecscope's cycles by the A5 vector-function model,
codegen/a5_costs.c). A kernel the a5 target does not lower gets the first line
of its diagnostic instead. Exits 1 if a run the target lowers fails.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "data"))
sys.dont_write_bytecode = True
import npy  # noqa: E402

EXAMPLES = {
    "add": ["a.npy", "b.npy", "c.npy"],
    "radix_select": ["in.npy", "out.npy", "10"],
    "softmax": ["x.npy", "z.npy", "y.npy"],
    "masked_clamp": ["x.npy", "y.npy", "-0.5", "0.75"],
}
PIPES = ("PIPE_V", "PIPE_MTE2", "PIPE_MTE3")


def inputs(name, d):
    os.makedirs(d, exist_ok=True)
    if name == "add":
        rng = random.Random(1)
        for f in ("a.npy", "b.npy", "c.npy"):
            npy.save(os.path.join(d, f), "<f4", (16, 16), [rng.uniform(-1, 1) for _ in range(256)])
        return
    subprocess.run([sys.executable, os.path.join(ROOT, "examples", "data", name + ".py"), "gen", d], check=True)


def stats(build, name, d, target):
    """{pipe: cycles, 'total': cycles}, or the diagnostic's first line."""
    cmd = [os.path.join(build, "tools", "ptoc"), os.path.join(ROOT, "examples", name + ".pto"),
           "-target=" + target, "--run", "--stats"]
    for a in EXAMPLES[name]:
        cmd += ["--arg", os.path.join(d, a) if a.endswith(".npy") else a]
    r = subprocess.run(cmd, capture_output=True, text=True)
    figures = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+(PIPE_\w+)\s+(\d+) cycles busy", r.stderr, re.M)}
    total = re.search(r"^\s+total\s+(\d+) cycles", r.stderr, re.M)
    if r.returncode or not total:
        lines = [l for l in r.stderr.splitlines() if "error" in l]
        return lines[0] if lines else f"exit {r.returncode}"
    figures["total"] = int(total.group(1))
    return figures


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build, ok = sys.argv[1], True
    print("modelled cycles of the examples (ptoc --run --stats): busy cycles per pipe, then the total")
    print(f"{'kernel':14} {'target':6} {'V':>8} {'MTE2':>8} {'MTE3':>8} {'total':>8}")
    with tempfile.TemporaryDirectory() as work:
        for name in EXAMPLES:
            d = os.path.join(work, name)
            inputs(name, d)
            for target in ("cpu", "a5"):
                f = stats(build, name, d, target)
                if isinstance(f, str):
                    lowered = "not supported by the a5 target" in f or "on a5" in f
                    ok = ok and target == "a5" and lowered
                    print(f"{name:14} {target:6} {f.split('error: ')[-1][:90]}")
                    continue
                row = " ".join(f"{f.get(p, 0):8d}" for p in PIPES)
                print(f"{name:14} {target:6} {row} {f['total']:8d}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
