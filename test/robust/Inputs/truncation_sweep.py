"""Truncation sweep: bad input must never crash ptoc-opt.

Usage: truncation_sweep.py DIR...

Every .mlir/.pto file under the given directories is cut at many byte offsets
(evenly spaced ones, plus every offset just after an opening bracket or quote,
where a parser is most likely to look past the end). ptoc-opt runs on each
prefix. The sweep fails when a run dies of a signal (a crash, or an abort from a
sanitizer), hangs, exits with a status other than 0 or 1, or fails without a
`file:LINE:COL: error:` diagnostic.
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

EVEN_CUTS = 48           # evenly spaced cut points per file
MAX_BRACKET_CUTS = 64    # cut points after brackets/quotes per file
TIMEOUT = 20             # seconds per run
DIAG = re.compile(rb":\d+:\d+: error: ")


def test_files(dirs):
    for top in dirs:
        for root, subdirs, names in os.walk(top):
            subdirs.sort()
            for name in sorted(names):
                if name.endswith((".mlir", ".pto")):
                    yield os.path.join(root, name)


def cut_points(data):
    n = len(data)
    cuts = {n * i // EVEN_CUTS for i in range(EVEN_CUTS)}
    brackets = [i + 1 for i, b in enumerate(data) if b in b"{[(<\""]
    step = max(1, len(brackets) // MAX_BRACKET_CUTS)
    cuts.update(brackets[::step])
    return sorted(c for c in cuts if c < n)


def check(ptoc_opt, workdir, path, data, cut):
    prefix = os.path.join(workdir, "%s.%d.mlir" % (os.path.basename(path), cut))
    with open(prefix, "wb") as f:
        f.write(data[:cut])
    cmd = [ptoc_opt, "--split-input-file", "--allow-unregistered-dialect", prefix]
    try:
        run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "%s cut at byte %d: timed out after %ds" % (path, cut, TIMEOUT)
    finally:
        os.unlink(prefix)
    if run.returncode < 0:
        return "%s cut at byte %d: killed by signal %d\n%s" % (
            path, cut, -run.returncode, run.stderr.decode(errors="replace"))
    if run.returncode not in (0, 1):
        return "%s cut at byte %d: exit status %d\n%s" % (
            path, cut, run.returncode, run.stderr.decode(errors="replace"))
    if run.returncode == 1 and not DIAG.search(run.stderr):
        return "%s cut at byte %d: failed without a located diagnostic\n%s" % (
            path, cut, run.stderr.decode(errors="replace"))
    return None


def main():
    ptoc_opt = shutil.which("ptoc-opt")
    if not ptoc_opt:
        sys.exit("truncation_sweep.py: ptoc-opt is not on PATH")
    files = list(test_files(sys.argv[1:]))
    if not files:
        sys.exit("truncation_sweep.py: no test files under %s" % " ".join(sys.argv[1:]))
    failures, runs = [], 0
    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        jobs = []
        for path in files:
            with open(path, "rb") as f:
                data = f.read()
            jobs += [pool.submit(check, ptoc_opt, workdir, path, data, c) for c in cut_points(data)]
        for job in jobs:
            runs += 1
            problem = job.result()
            if problem:
                failures.append(problem)
    print("truncation sweep: %d runs over %d files, %d failures" % (runs, len(files), len(failures)))
    for problem in failures[:50]:
        print("FAIL: " + problem)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
