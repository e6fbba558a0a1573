"""Modelled cycles of the example kernels on each target model (docs/testing.md).

Usage: model_figures.py BUILD_DIR

Runs each examples/*.pto that has inputs (examples/data/NAME.py gen; add.pto
gets two random 16x16 f32 tiles) with `ptoc --run --stats` for -target=cpu,
-target=a5 and -target=a3, and prints the pipe simulator's totals: the busy
cycles of the vector pipe V, the cube's M, the DMA pipes MTE1/MTE2/MTE3 and
the FIX pipe, and the total, under the cpu target's rough costs and under each
model's (a5: the A5 vector-function model, codegen/a5_costs.c; a3: pto-isa's
A2/A3 cost model), then the host time of the whole `ptoc --run` (compile and
run, best of 3) and its ratio to the cpu target's. A kernel a target does not
lower gets the first line of its diagnostic instead. Exits 1 if a run the
target lowers fails.
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "data"))
sys.dont_write_bytecode = True
import npy  # noqa: E402

EXAMPLES = {
    "add": ["a.npy", "b.npy", "c.npy"],
    "radix_select": ["in.npy", "out.npy", "10"],
    "softmax": ["x.npy", "z.npy", "y.npy"],
    "masked_clamp": ["x.npy", "y.npy", "-0.5", "0.75"],
    "matmul_epilogue": ["a.npy", "b.npy", "bias.npy", "ws.npy", "y.npy"],
    "rmsnorm": ["x.npy", "gamma.npy", "y.npy"],
    "decode_attention": ["q.npy", "k.npy", "v.npy", "s_ws.npy", "p_ws.npy", "o.npy"],
    "flash_attention": ["q.npy", "k.npy", "v.npy", "s_ws.npy", "p_ws.npy", "pv_ws.npy", "o.npy"],
}
PIPES = ("PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX")
TARGETS = ("cpu", "a5", "a3")

# (op, dtype, rows, cols, profiled cycles): pto-isa tests/costmodel, A2/A3.
PROFILES = [
    ("tadd", "f32", 64, 64, 160),
    ("tadd", "i32", 64, 64, 151),
    ("tadd", "f16", 16, 256, 92),
    ("texp", "f16", 64, 64, 95),
    ("texp", "f32", 64, 64, 159),
    ("trowexpand", "f32", 64, 64, 933),
]
NPY = {"f32": "<f4", "f16": "<f2", "i32": "<i4"}
UNARY = {"texp", "trowexpand"}


def inputs(name, d):
    os.makedirs(d, exist_ok=True)
    if name == "add":
        rng = random.Random(1)
        for f in ("a.npy", "b.npy", "c.npy"):
            npy.save(os.path.join(d, f), "<f4", (16, 16), [rng.uniform(-1, 1) for _ in range(256)])
        return
    subprocess.run([sys.executable, os.path.join(ROOT, "examples", "data", name + ".py"), "gen", d], check=True)


def stats(build, name, d, target):
    """{pipe: cycles, 'total': cycles, 'seconds': host time}, or the diagnostic's first line."""
    cmd = [os.path.join(build, "tools", "ptoc"), os.path.join(ROOT, "examples", name + ".pto"),
           "-target=" + target, "--run", "--stats"]
    for a in EXAMPLES[name]:
        cmd += ["--arg", os.path.join(d, a) if a.endswith(".npy") else a]
    best = None
    for _ in range(3):
        start = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        took = time.perf_counter() - start
        best = took if best is None or took < best else best
        if r.returncode:
            break
    figures = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+(PIPE_\w+)\s+(\d+) cycles busy", r.stderr, re.M)}
    total = re.search(r"^\s+total\s+(\d+) cycles", r.stderr, re.M)
    if r.returncode or not total:
        lines = [l for l in r.stderr.splitlines() if "error" in l]
        return lines[0] if lines else f"exit {r.returncode}"
    figures["total"] = int(total.group(1))
    figures["seconds"] = best
    return figures


def op_kernel(op, dtype, rows, cols):
    """A Level-1 kernel z = OP(x, y) (or OP(x)) on one rows x cols tile."""
    t, v, p = f"!pto.tile<{rows}x{cols}x{dtype}>", f"!pto.tensor_view<?x?x{dtype}>", \
        f"!pto.partition_tensor_view<{rows}x{cols}x{dtype}>"
    lines = [f"func.func @k(%x: !pto.ptr<{dtype}>, %y: !pto.ptr<{dtype}>, %z: !pto.ptr<{dtype}>) {{",
             "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
             f"  %r = arith.constant {rows} : index", f"  %c = arith.constant {cols} : index"]
    for g in "xyz":
        lines += [f"  %v{g} = pto.make_tensor_view %{g}, shape = [%r, %c], strides = [%c, %c1] : {v}",
                  f"  %p{g} = pto.partition_view %v{g}, offsets = [%c0, %c0], sizes = [%r, %c] : {v} -> {p}"]
    lines += [f"  %a = pto.tload %px : {p} -> {t}", f"  %b = pto.tload %py : {p} -> {t}"]
    if op in UNARY:
        lines.append(f"  %s = pto.{op} %a : {t} -> {t}")
    else:
        lines.append(f"  %s = pto.{op} %a, %b : {t}, {t} -> {t}")
    lines += [f"  pto.tstore %s, %pz : {t}, {p}", "  return", "}"]
    return "\n".join(lines) + "\n"


def profile_row(build, work, op, dtype, rows, cols, profiled):
    """(modelled V cycles, None) or (None, why not)."""
    k = os.path.join(work, f"{op}_{dtype}_{rows}x{cols}.pto")
    with open(k, "w") as f:
        f.write(op_kernel(op, dtype, rows, cols))
    rng = random.Random(2)
    arg = os.path.join(work, f"{dtype}_{rows}x{cols}.npy")
    vals = [rng.randint(-1000, 1000) if dtype == "i32" else rng.uniform(-1, 1) for _ in range(rows * cols)]
    npy.save(arg, NPY[dtype], (rows, cols), vals)
    cmd = [os.path.join(build, "tools", "ptoc"), k, "-target=a3", "--run", "--stats"] + ["--arg", arg] * 3
    r = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"^\s+PIPE_V\s+(\d+) cycles busy", r.stderr, re.M)
    if r.returncode or not m:
        lines = [l for l in r.stderr.splitlines() if "error" in l]
        return None, (lines[0] if lines else f"exit {r.returncode}").split("error: ")[-1][:70]
    return int(m.group(1)), None


def profiles(build, work):
    print()
    print("A2/A3 model against hardware profiles (pto-isa tests/costmodel): V cycles of one tile op on -target=a3")
    print(f"{'op':12} {'dtype':5} {'shape':8} {'profiled':>8} {'modelled':>8} {'ratio':>6}")
    ok = True
    for op, dtype, rows, cols, profiled in PROFILES:
        cycles, why = profile_row(build, work, op, dtype, rows, cols, profiled)
        shape = f"{rows}x{cols}"
        if why:
            lowered = "not supported" not in why and "not lowered" not in why
            ok = ok and not lowered
            print(f"{op:12} {dtype:5} {shape:8} {profiled:8d} {'-':>8} {'-':>6}  {why}")
            continue
        ratio = cycles / profiled
        ok = ok and 0.9 <= ratio <= 1.1
        print(f"{op:12} {dtype:5} {shape:8} {profiled:8d} {cycles:8d} {ratio:6.3f}")
    return ok


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build, ok = sys.argv[1], True
    print("modelled cycles of the examples (ptoc --run --stats): busy cycles per pipe, then the total;")
    print("host: the whole ptoc --run (compile and run) in ms, best of 3, and its ratio to the cpu target's")
    print(f"{'kernel':16} {'target':6} {'V':>8} {'M':>8} {'MTE1':>8} {'MTE2':>8} {'MTE3':>8} {'FIX':>8} {'total':>8}"
          f" {'host ms':>8} {'x cpu':>6}")
    with tempfile.TemporaryDirectory() as work:
        for name in EXAMPLES:
            d = os.path.join(work, name)
            inputs(name, d)
            cpu_seconds = None
            for target in TARGETS:
                f = stats(build, name, d, target)
                if isinstance(f, str):
                    lowered = "not supported by the" in f or f"on {target}" in f or "only supported on" in f
                    ok = ok and target != "cpu" and lowered
                    print(f"{name:16} {target:6} {f.split('error: ')[-1][:90]}")
                    continue
                cpu_seconds = f["seconds"] if target == "cpu" else cpu_seconds
                ratio = f"{f['seconds'] / cpu_seconds:6.2f}" if cpu_seconds else f"{'-':>6}"
                row = " ".join(f"{f.get(p, 0):8d}" for p in PIPES)
                print(f"{name:16} {target:6} {row} {f['total']:8d} {f['seconds'] * 1e3:8.1f} {ratio}")
        ok = profiles(build, work) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
