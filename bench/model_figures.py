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

# Every vector tile op pto-isa publishes an A2/A3 hardware profile for
# (tests/costmodel/st/testcase/*/main.cpp: the tests whose profiled cycles are
# not 0): (op, form, dtype, rows, cols, profiled cycles). The forms are those
# of kernel() below; "rt" is a tile-divided-by-scalar tdivs, "tr" the
# scalar-divided-by-tile one, "ip" an in-place unary op. The DMA (TLoad) and
# cube (TMatmul) profiles are not V-pipe figures and are left out.
PROFILES = [
    ("tabs", "un", "f32", 64, 64, 68), ("tabs", "un", "f16", 16, 256, 36),
    ("tadd", "bin", "f32", 64, 64, 160), ("tadd", "bin", "i32", 64, 64, 151),
    ("tadd", "bin", "f16", 16, 256, 92), ("tadd", "bin", "i16", 64, 64, 167),
    ("tadds", "sca", "f32", 32, 64, 57), ("tadds", "sca", "f16", 63, 64, 69),
    ("tadds", "sca", "i32", 31, 128, 70), ("tadds", "sca", "i16", 15, 192, 40),
    ("tadds", "sca", "f32", 7, 448, 77), ("tadds", "sca", "f32", 256, 16, 266),
    ("tcolmax", "col", "f32", 64, 64, 2589), ("tcolmax", "col", "f16", 64, 64, 2713),
    ("tcolmax", "col", "i16", 64, 64, 454), ("tcolmax", "col", "f16", 16, 256, 102),
    ("tcolmax", "col", "f32", 1, 3072, 390),
    ("tcolsum", "colbin", "f32", 64, 64, 1263), ("tcolsum", "colbin", "f32", 1, 3072, 390),
    ("tcolsum", "col", "f16", 16, 256, 101),
    ("tcvt", "cvt:f16", "f32", 4, 64, 33), ("tcvt", "cvt:f32", "f16", 4, 64, 33),
    ("tdiv", "bin", "f32", 64, 64, 288), ("tdiv", "bin", "f16", 64, 64, 304),
    ("tdivs", "rt", "f32", 32, 64, 205), ("tdivs", "rt", "f16", 63, 64, 328),
    ("tdivs", "rt", "i32", 31, 128, 4), ("tdivs", "rt", "i16", 15, 192, 4),
    ("tdivs", "tr", "f32", 32, 64, 205), ("tdivs", "tr", "f16", 63, 64, 328),
    ("tdivs", "tr", "i32", 31, 128, 4), ("tdivs", "tr", "i16", 15, 192, 4),
    ("texp", "un", "f32", 64, 64, 159), ("texp", "un", "f16", 64, 64, 95),
    ("texp", "un", "f16", 32, 32, 47), ("texp", "un", "f32", 32, 32, 63), ("texp", "un", "f32", 32, 16, 30),
    ("tmins", "sca", "f32", 64, 64, 87), ("tmins", "sca", "i32", 64, 64, 68),
    ("tmins", "sca", "i16", 64, 64, 70), ("tmins", "sca", "f16", 64, 64, 55), ("tmins", "sca", "f16", 16, 256, 40),
    ("tmul", "bin", "f32", 64, 64, 168), ("tmul", "bin", "i32", 64, 64, 152),
    ("tmul", "bin", "f16", 16, 256, 96), ("tmul", "bin", "i16", 64, 64, 168),
    ("tmuls", "sca", "f32", 32, 64, 58), ("tmuls", "sca", "f16", 63, 64, 69),
    ("tmuls", "sca", "i32", 31, 128, 70), ("tmuls", "sca", "i16", 15, 192, 40),
    ("tmuls", "sca", "f32", 7, 448, 77), ("tmuls", "sca", "f32", 256, 16, 266),
    ("trowexpand", "rowx", "f32", 64, 64, 933), ("trowexpand", "rowx", "f16", 64, 64, 933),
    ("trowmax", "row", "f32", 64, 64, 480), ("trowmax", "row", "f32", 16, 256, 32),
    ("trowmax", "row", "f16", 64, 128, 481), ("trowmax", "row", "f16", 16, 256, 14),
    ("trowmin", "row", "f32", 64, 64, 5), ("trowmin", "row", "f32", 16, 256, 32),
    ("trowmin", "row", "f16", 64, 128, 5), ("trowmin", "row", "f16", 16, 256, 14),
    ("trowsum", "row", "f32", 64, 64, 492), ("trowsum", "row", "f32", 16, 256, 32),
    ("trowsum", "row", "f16", 64, 128, 495), ("trowsum", "row", "f16", 16, 256, 14),
    ("trsqrt", "un", "f16", 64, 64, 58),
    ("tsel", "sel", "f16", 4, 128, 67), ("tsel", "sel", "f16", 1, 128, 19), ("tsel", "sel", "f32", 4, 64, 67),
    ("tsort32", "sort", "f32", 8, 32, 8), ("tsort32", "sort", "f16", 32, 16, 32),
    ("tsqrt", "ip", "f32", 64, 64, 198), ("tsqrt", "un", "f32", 64, 64, 160),
    ("tsqrt", "ip", "f16", 64, 64, 102), ("tsqrt", "un", "f16", 64, 64, 160),
    ("tsub", "bin", "f32", 64, 64, 153), ("tsub", "bin", "i32", 64, 64, 132),
    ("tsub", "bin", "f16", 16, 256, 68), ("tsub", "bin", "i16", 64, 64, 170),
    ("ttrans", "trans", "f32", 128, 128, 501),
]
NPY = {"f32": "<f4", "f16": "<f2", "i32": "<i4", "i16": "<i2", "ui8": "|u1", "ui32": "<u4"}
SCALAR = {"f32": "1.5 : f32", "f16": "1.5 : f16", "i32": "3 : i32", "i16": "3 : i16"}


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


def tile(dtype, rows, cols, col_major=False):
    layout = ", blayout=col_major" if col_major else ""
    return f"!pto.tile_buf<vec, {rows}x{cols}x{dtype}{layout}>"


def operands(form, dtype, rows, cols):
    """([(dtype, rows, cols, col_major) of each loaded tile], dst's, the op's ins/outs text)."""
    full = (dtype, rows, cols, False)
    t = tile(*full)
    if form in ("bin", "un", "ip", "sca", "rt", "tr"):
        ins = [full, full] if form == "bin" else [full]
        text = {"bin": f"ins(%i0, %i1 : {t}, {t}) outs(%o : {t})",
                "un": f"ins(%i0 : {t}) outs(%o : {t})",
                "ip": f"ins(%i0 : {t}) outs(%i0 : {t})",
                "sca": f"ins(%i0, %s : {t}, {dtype}) outs(%o : {t})",
                "rt": f"ins(%i0, %s : {t}, {dtype}) outs(%o : {t})",
                "tr": f"ins(%s, %i0 : {dtype}, {t}) outs(%o : {t})"}[form]
        return ins, (full if form != "ip" else None), text
    if form == "row":
        dst = (dtype, rows, 1, True)
        return [full], dst, f"ins(%i0 : {t}) outs(%o : {tile(*dst)})"
    if form in ("col", "colbin"):
        dst = (dtype, 1, cols, False)
        if form == "colbin":
            return [full, full], dst, f"ins(%i0, %i1 {{isBinary = true}} : {t}, {t}) outs(%o : {tile(*dst)})"
        return [full], dst, f"ins(%i0 : {t}) outs(%o : {tile(*dst)})"
    if form.startswith("cvt:"):
        dst = (form[4:], rows, cols, False)
        return [full], dst, f"ins(%i0 : {t}) outs(%o : {tile(*dst)})"
    if form == "rowx":
        src = (dtype, rows, 1, True)
        return [src], full, f"ins(%i0 : {tile(*src)}) outs(%o : {t})"
    if form == "sel":
        mask = ("ui8", rows, 32, False)
        return [mask, full, full], full, \
            f"ins(%i0, %i1, %i2 : {tile(*mask)}, {t}, {t}) outs(%o : {t})"
    if form == "sort":
        idx, dst = ("ui32", rows, cols, False), (dtype, rows, 2 * cols * 4 // {"f32": 4, "f16": 2}[dtype], False)
        return [full, idx], dst, f"ins(%i0, %i1 : {t}, {tile(*idx)}) outs(%o : {tile(*dst)})"
    if form == "trans":
        return [full, full], full, f"ins(%i0, %i1 : {t}, {t}) outs(%o : {t})"
    raise ValueError(form)


def kernel(op, form, dtype, rows, cols):
    """A kernel that loads its input tiles, runs the one op and stores its result."""
    ins, dst, text = operands(form, dtype, rows, cols)
    tiles = ins + ([dst] if dst else [])
    args = ", ".join(f"%g{k}: !pto.ptr<{d}>" for k, (d, *_) in enumerate(tiles))
    lines = [f"func.func @k({args}) {{", "  %c0 = arith.constant 0 : index",
             "  %c1 = arith.constant 1 : index", f"  %s = arith.constant {SCALAR.get(dtype, '1 : i32')}"]
    for k, (d, r, c, cm) in enumerate(tiles):
        v, p = f"!pto.tensor_view<{r}x{c}x{d}>", f"!pto.partition_tensor_view<{r}x{c}x{d}>"
        name = f"%i{k}" if k < len(ins) else "%o"
        lines += [f"  %r{k} = arith.constant {r} : index", f"  %c{k}n = arith.constant {c} : index",
                  f"  %v{k} = pto.make_tensor_view %g{k}, shape = [%r{k}, %c{k}n], strides = [%c{k}n, %c1] : {v}",
                  f"  %p{k} = pto.partition_view %v{k}, offsets = [%c0, %c0], sizes = [%r{k}, %c{k}n] : {v} -> {p}",
                  f"  {name} = pto.alloc_tile : {tile(d, r, c, cm)}"]
        if k < len(ins):
            lines.append(f"  pto.tload ins(%p{k} : {p}) outs({name} : {tile(d, r, c, cm)})")
    lines.append(f"  pto.{op} {text}")
    k = len(tiles) - 1
    d, r, c, cm = tiles[k]
    lines += [f"  pto.tstore ins({'%o' if dst else '%i0'} : {tile(d, r, c, cm)}) "
              f"outs(%p{k} : !pto.partition_tensor_view<{r}x{c}x{d}>)", "  return", "}"]
    return "\n".join(lines) + "\n", tiles


def random_values(rng, dtype, n):
    if dtype.startswith("ui"):
        return [rng.randint(0, 255) for _ in range(n)]
    if dtype.startswith("i"):
        return [rng.randint(-1000, 1000) for _ in range(n)]
    return [rng.uniform(0.5, 2) for _ in range(n)]


def profile_row(build, work, op, form, dtype, rows, cols):
    """(modelled V cycles, None) or (None, why not)."""
    name = f"{op}_{form.replace(':', '_')}_{dtype}_{rows}x{cols}"
    text, tiles = kernel(op, form, dtype, rows, cols)
    k = os.path.join(work, name + ".pto")
    with open(k, "w") as f:
        f.write(text)
    rng = random.Random(2)
    cmd = [os.path.join(build, "tools", "ptoc"), k, "-target=a3", "--run", "--stats"]
    for n, (d, r, c, _) in enumerate(tiles):
        arg = os.path.join(work, f"{name}_{n}.npy")
        npy.save(arg, NPY[d], (r, c), random_values(rng, d, r * c))
        cmd += ["--arg", arg]
    r = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"^\s+PIPE_V\s+(\d+) cycles busy", r.stderr, re.M)
    if r.returncode or not re.search(r"^\s+total\s+\d+ cycles", r.stderr, re.M):
        lines = [l for l in r.stderr.splitlines() if "error" in l]
        return None, (lines[0] if lines else f"exit {r.returncode}").split("error: ")[-1][:70]
    return (int(m.group(1)) if m else 0), None          # no V line: the op ran on another pipe


def profiles(build, work):
    """The modelled V cycles of each profiled op and their ratio to the profile;
    False if an op the model lowers fails to run. The ratio is reported, not
    judged: pto-isa's own model states its accuracy per test (0.02 to 1.0)."""
    print()
    print("A2/A3 model against hardware profiles (pto-isa tests/costmodel): V cycles of one tile op on -target=a3")
    print(f"{'op':12} {'form':7} {'dtype':5} {'shape':8} {'profiled':>8} {'modelled':>8} {'ratio':>6}")
    ok, ratios = True, []
    for op, form, dtype, rows, cols, profiled in PROFILES:
        cycles, why = profile_row(build, work, op, form, dtype, rows, cols)
        head = f"{op:12} {form:7} {dtype:5} {rows}x{cols:<5}".ljust(36)
        if why:
            ok = ok and ("not supported" in why or "not lowered" in why)
            print(f"{head}{profiled:8d} {'-':>8} {'-':>6}  {why}")
            continue
        ratios.append(cycles / profiled)
        print(f"{head}{profiled:8d} {cycles:8d} {cycles / profiled:6.3f}")
    if ratios:
        ratios.sort()
        within = sum(1 for x in ratios if 0.8 <= x <= 1.25)
        print(f"{len(ratios)}/{len(PROFILES)} profiles modelled; median ratio {ratios[len(ratios) // 2]:.3f}, "
              f"{within} within 0.8-1.25")
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
