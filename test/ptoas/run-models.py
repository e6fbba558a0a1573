#!/usr/bin/env python3
"""run-models.py: do PTOAS's kernels run whole on ptoc's target models, with --stats?

For every .pto file of a PTOAS checkout's test tree that PTOAS accepts (the same
files compile-corpus.py compiles), synthesises arguments for its entry function
and runs `build/tools/ptoc FILE -target=TARGET --run --stats --check-races` with a
timeout. The arguments:

- a `!pto.ptr<T>` parameter gets a zero-filled raw buffer (FILE:T:N) big enough
  for every tensor view made from it: a view `pto.make_tensor_view %argN,
  shape = [...], strides = [...]` whose dims are index constants of the file
  spans 1 + sum((shape_i - 1) * stride_i) elements; the largest view wins;
- a static `memref<AxBxT>` parameter gets a zero buffer of that shape;
- an integer or index parameter that gives tiles their valid rows or columns
  (valid_row = %p, directly or through arith.index_cast) gets the least of
  those tiles' rows or columns; else 1 when it is some scf.for's upper bound or
  the greater side of an arith.cmpi (so the loop or the guarded code runs
  once), else 0; a float parameter gets 1.0.

A file of several public functions and no pto.entry runs each of them
(--entry NAME; its cycles are their sum), unless they talk through a pipe
(tpush/tpop: run alone, one would wait for the other for ever). A file whose arguments cannot be
made this way (a pointer without a view, a view with a shape not known in the
file, a parameter of another type) is skipped, with the reason. A file that does not
run is then compiled (-emit=obj): when that fails too, it is counted as not
compiling (compile-corpus.py's business), not as a run failure.

Per file it prints `ran` with the modelled total cycles from --stats, `FAILED`
with the first error line, `skipped` with the reason, or `no compile`; then the
counts per arch and the total cycles of the Qwen3 decode kernels
(samples/Qwen3Decode*). --stats has no notion of an uncosted intrinsic: the
A2/A3 repeat intrinsics' cost coverage is checked by test/unit/test_costs.c.

The script only reads the checkout and runs ptoc; it fetches nothing. Exit
status 0 (1 with --fail-on-failure when a kernel fails to run); 2 on a bad
command line. --target own runs each file for its own arch, as compile-corpus.py
chooses it (a5 or a3).

  test/ptoas/run-models.py --ptoas /path/to/PTOAS [--build build] [--target own|a3|a5]
                           [--timeout 60] [--only SUBSTRING]
"""
import argparse
import collections
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

PTR_DTYPES = {"f32": "f32", "f16": "f16", "bf16": "bf16", "f64": "f64", "i8": "i8", "i16": "i16",
              "i32": "i32", "i64": "i64", "ui8": "u8", "ui16": "u16", "ui32": "u32", "ui64": "u64",
              "u8": "u8", "u16": "u16", "u32": "u32", "u64": "u64", "i1": "bool"}
DTYPE_BYTES = {"bool": 1, "i8": 1, "u8": 1, "i16": 2, "u16": 2, "f16": 2, "bf16": 2,
               "i32": 4, "u32": 4, "f32": 4, "i64": 8, "u64": 8, "f64": 8}


def load_compile_corpus():
    """compile-corpus.py as a module: own_target, first_error and run-corpus's RUN lines."""
    spec = importlib.util.spec_from_file_location("compile_corpus", os.path.join(HERE, "compile-corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Skip(Exception):
    """The file's arguments cannot be synthesised: the reason."""


def split_params(text):
    """'%a: T, %b: U' -> [(name, type)], commas inside <...> kept."""
    params, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "<([{"
        depth -= ch in ">)]}"
        if ch == "," and depth == 0:
            params.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        params.append(cur)
    out = []
    for p in params:
        name, _, ty = p.partition(":")
        out.append((name.strip(), re.sub(r"\s*\{.*$", "", ty.strip())))
    return out


def entry_functions(src):
    """[(name, params)] of the functions to run: the one ptoc --run picks (the only
    public function, private ones being declarations here, else the one carrying
    pto.entry; name None), else every public function, each run by its --entry."""
    funcs = []
    for m in re.finditer(r"func\.func\s+(private\s+)?@([\w.$-]+)\s*\(", src):
        start, depth, i = m.end(), 1, m.end()
        while depth and i < len(src):
            depth += src[i] == "("
            depth -= src[i] == ")"
            i += 1
        attrs = re.match(r"[^\n]*", src[i:]).group(0)
        funcs.append({"name": m.group(2), "private": bool(m.group(1)),
                      "params": split_params(src[start:i - 1]), "entry": "pto.entry" in attrs})
    public = [f for f in funcs if not f["private"]]
    entries = [f for f in public if f["entry"]]
    if len(public) == 1 or len(entries) == 1:
        return [(None, (entries or public)[0]["params"])]
    if not public:
        raise Skip("no public function")
    if re.search(r"pto\.(tpush|tpop|aic_initialize_pipe|aiv_initialize_pipe)", src):
        raise Skip("%d functions that talk through a pipe, and no pto.entry" % len(public))
    return [(f["name"], f["params"]) for f in public]


def index_constants(src):
    """%name -> value of every integer constant of index (or integer) type."""
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"(%[\w.$-]+)\s*=\s*arith\.constant\s+(-?\d+)\s*:\s*(?:index|i\d+)\b", src)}


def view_extents(src, consts):
    """%param -> the largest element span of the tensor views made from it."""
    spans = {}
    for m in re.finditer(r"pto\.make_tensor_view\s+(%[\w.$-]+)\s*,\s*shape\s*=\s*\[([^\]]*)\]\s*,"
                         r"\s*strides\s*=\s*\[([^\]]*)\]", src):
        base = m.group(1)
        dims = [d.strip() for d in m.group(2).split(",") if d.strip()]
        strides = [s.strip() for s in m.group(3).split(",") if s.strip()]
        try:
            shape = [int(d) if re.match(r"-?\d+$", d) else consts[d] for d in dims]
            stride = [int(s) if re.match(r"-?\d+$", s) else consts[s] for s in strides]
        except KeyError as e:
            spans[base] = Skip("a tensor view of %s has a shape or stride not known in the file (%s)"
                               % (base, e.args[0]))
            continue
        span = 1 + sum((n - 1) * s for n, s in zip(shape, stride))
        if not isinstance(spans.get(base), Skip):
            spans[base] = max(span, spans.get(base, 0))
    return spans


def valid_shapes(src):
    """value -> the rows (valid_row) or columns (valid_col) of the tiles it gives a
    valid shape to, the least when several; through arith.index_cast."""
    sizes = {}
    for m in re.finditer(r"pto\.alloc_tile\b[^\n]*", src):
        line = m.group(0)
        for key, dim in (("valid_row", "rows"), ("valid_col", "cols")):
            v, n = re.search(key + r"\s*=\s*(%[\w.$-]+)", line), re.search(r"\b" + dim + r"=(\d+)", line)
            if v and n:
                sizes[v.group(1)] = min(int(n.group(1)), sizes.get(v.group(1), 1 << 62))
    for m in re.finditer(r"(%[\w.$-]+)\s*=\s*arith\.index_cast(?:ui)?\s+(%[\w.$-]+)", src):
        if m.group(1) in sizes:
            sizes[m.group(2)] = min(sizes[m.group(1)], sizes.get(m.group(2), 1 << 62))
    return sizes


def loop_bounds(src):
    """The values some scf.for runs up to, or some arith.cmpi checks a value is below."""
    bounds = set(re.findall(r"scf\.for\s+%[\w.$-]+\s*=\s*%?[\w.$-]+\s+to\s+(%[\w.$-]+)", src))
    bounds |= set(re.findall(r"arith\.cmpi\s+(?:slt|ult|sle|ule)\s*,\s*%?[\w.$-]+\s*,\s*(%[\w.$-]+)", src))
    bounds |= set(re.findall(r"arith\.cmpi\s+(?:sgt|ugt|sge|uge)\s*,\s*(%[\w.$-]+)", src))
    return bounds


def synthesise(src, params, prefix):
    """The --arg values for a function's parameters (raises Skip)."""
    consts = index_constants(src)
    spans = view_extents(src, consts)
    bounds = loop_bounds(src)
    valid = valid_shapes(src)
    args = []
    for name, ty in params:
        ptr = re.match(r"!pto\.ptr<\s*(\w+)", ty)
        memref = re.match(r"memref<((?:\d+x)*)(\w+)", ty)
        if ptr:
            dtype = PTR_DTYPES.get(ptr.group(1))
            span = spans.get(name)
            if dtype is None:
                raise Skip("pointer %s of %s" % (name, ptr.group(1)))
            if isinstance(span, Skip):
                raise span
            if span is None:
                raise Skip("pointer %s has no tensor view" % name)
            args.append(zero_file(prefix, len(args), dtype, [max(span, 1)]))
        elif memref and "?" not in ty:
            dtype = PTR_DTYPES.get(memref.group(2))
            if dtype is None:
                raise Skip("memref %s of %s" % (name, memref.group(2)))
            shape = [int(d) for d in memref.group(1).split("x") if d] or [1]
            args.append(zero_file(prefix, len(args), dtype, shape))
        elif re.match(r"(index|i\d+|ui\d+|si\d+)$", ty):
            args.append(str(valid[name]) if name in valid else "1" if name in bounds else "0")
        elif re.match(r"(f16|bf16|f32|f64)$", ty):
            args.append("1.0")
        else:
            raise Skip("parameter %s of type %s" % (name, ty))
    return args


def zero_file(prefix, n, dtype, shape):
    """A raw zero-filled array FILE:DTYPE:SHAPE, FILE = prefix + argN.bin."""
    count = 1
    for d in shape:
        count *= d
    path = "%sarg%d.bin" % (prefix, n)
    with open(path, "wb") as f:
        f.truncate(count * DTYPE_BYTES[dtype])
    return "%s:%s:%s" % (path, dtype, "x".join(str(d) for d in shape))


def first_error(stderr):
    """The first error line of a run, without locations and ptoc's run-time preamble
    (warnings, their source lines and carets skipped)."""
    for line in stderr.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            error = re.sub(r"^the kernel failed at run time: ", "run time: ", m.group(1).strip())
            return re.sub(r"\S+\.pto:\d+:\d+: ", "", error)
    return "(no error line)"


def total_cycles(stderr):
    m = re.search(r"^\s*total\s+(\d+) cycles", stderr, re.M)
    return int(m.group(1)) if m else None


def run_one(cc, ptoc, rel, target, flags, timeout):
    """('ran', cycles) | ('failed', error) | ('skipped', reason) | ('no compile', error);
    a file of several functions runs each, its cycles the sum."""
    with open(rel, errors="replace") as f:
        src = re.sub(r"//[^\n]*", "", f.read())      # RUN and CHECK lines quote IR too
    cycles = 0
    with tempfile.TemporaryDirectory(prefix="ptoc-run-models-") as tmpdir:
        try:
            runs = [(name, synthesise(src, params, tmpdir + "/%d-" % n))
                    for n, (name, params) in enumerate(entry_functions(src))]
        except Skip as why:
            return "skipped", str(why)
        for name, values in runs:
            cmd = [ptoc, rel, "-target=" + target, "--run", "--stats", "--check-races"] + list(flags)
            cmd += ["--entry", name] if name else []
            for v in values:
                cmd += ["--arg", v]
            try:
                proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                      errors="replace", timeout=timeout)
            except subprocess.TimeoutExpired:
                return "failed", "timed out after %d s" % timeout
            if proc.returncode != 0:
                break
            cycles += total_cycles(proc.stderr) or 0
    if proc.returncode == 0:
        return "ran", cycles
    error = ("@%s: " % name if name else "") + first_error(proc.stderr)
    if proc.returncode not in (0, 1):
        error = "exit %d: %s" % (proc.returncode, error)
    compiled = subprocess.run([ptoc, rel, "-target=" + target, "-emit=obj", "-o", os.devnull] + list(flags),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    if compiled.returncode != 0:
        return "no compile", cc.first_error(rel, compiled.stderr)
    return "failed", error


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptoas", required=True, help="a PTOAS checkout (the directory containing test/)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="the ptoc build directory")
    ap.add_argument("--target", default="own", choices=("own", "a3", "a5"),
                    help="the model target to run on; own: each file's arch")
    ap.add_argument("--ptoas-rejects", default=os.path.join(HERE, "ptoas-rejects.txt"))
    ap.add_argument("--timeout", type=int, default=60, help="seconds a run may take")
    ap.add_argument("--only", help="run only the files whose path contains this")
    ap.add_argument("--fail-on-failure", action="store_true", help="exit 1 when a kernel fails to run")
    args = ap.parse_args()
    test_dir = os.path.abspath(os.path.join(args.ptoas, "test"))
    ptoc = os.path.abspath(os.path.join(args.build, "tools", "ptoc"))
    if not os.path.isdir(test_dir):
        ap.error("no test/ directory in %s" % args.ptoas)
    if not os.access(ptoc, os.X_OK):
        ap.error("no ptoc at %s (build ptoc first)" % ptoc)
    cc = load_compile_corpus()
    rc = cc.load_run_corpus()
    rejects = rc.read_run_list(os.path.abspath(args.ptoas_rejects))

    files = sorted(os.path.relpath(os.path.join(d, f), test_dir)
                   for d, _, names in os.walk(test_dir) for f in names if f.endswith(".pto"))
    if args.only:
        files = [rel for rel in files if args.only in rel]
    os.chdir(test_dir)
    counts = collections.defaultdict(collections.Counter)
    failures, qwen = [], collections.defaultdict(list)
    for rel in files:
        runs = rc.ptoas_runs(rel)
        if any(r.negative or (rel, r.number) in rejects for r in runs):
            continue
        target = cc.own_target(rel, runs) if args.target == "own" else args.target
        flags = next(iter(dict.fromkeys(cc.compile_flags(r) for r in runs)), ())
        status, detail = run_one(cc, ptoc, rel, target, flags, args.timeout)
        counts[target][status] += 1
        if status == "ran":
            print("%-3s ran        %10s cycles  %s" % (target, detail, rel), flush=True)
            if "/Qwen3Decode" in "/" + rel:
                qwen[target].append(detail or 0)
        else:
            print("%-3s %-10s %s\n        %s" % (target, status, rel, detail), flush=True)
            if status == "failed":
                failures.append((target, rel, detail))

    print("\nper arch:")
    for t in sorted(counts):
        c = counts[t]
        print("  %s: %d ran, %d failed, %d skipped, %d do not compile"
              % (t, c["ran"], c["failed"], c["skipped"], c["no compile"]))
    for t in sorted(qwen):
        print("  Qwen3 decode kernels on %s: %d ran, %d modelled cycles in all"
              % (t, len(qwen[t]), sum(qwen[t])))
    if failures:
        print("\nrun failures (%d):" % len(failures))
        for t, rel, error in failures:
            print("  %s %s\n      %s" % (t, rel, error))
    return 1 if args.fail_on_failure and failures else 0


if __name__ == "__main__":
    sys.exit(main())
