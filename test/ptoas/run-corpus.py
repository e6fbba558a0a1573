#!/usr/bin/env python3
"""run-corpus.py: does ptoc read PTOAS's test corpus the way PTOAS does?

Runs build/tools/ptoc-opt over every .pto file of a PTOAS checkout's test tree
and compares the outcome with what the file's RUN lines expect of ptoas:

- each `// RUN:` line that calls ptoas is one ptoc-opt run with the same
  --pto-arch (`--pto-arch=a5` or `--pto-arch a5`), and the same --pto-level and
  --enable-insert-sync when ptoc-opt supports them (its --help says so); flags it
  does not support are dropped, and the report says which;
- `RUN: not ptoas` means PTOAS rejects the file: the run is right when ptoc-opt
  exits with 1 and prints a located error (`FILE:LINE:COL: error: ...`);
- any other run is right when ptoc-opt exits with 0;
- a file without RUN lines is one run with no flags that must succeed;
- a run without --pto-arch in a file whose module names no pto.target_arch gets
  --pto-arch=a3: PTOAS's default arch (ptoc's is cpu).

A file is right when all its runs are. ptoas-rejects.txt (next to this
script) lists runs without `not` that PTOAS rejects all the same (legacy
samples without RUN lines: running ptoas on them exits 1); they count as
rejections. exceptions.txt lists the runs where ptoc differs from PTOAS on
purpose, each with its reason; they are reported on their own, and an exception
that no longer differs is reported as stale. The script only reads the checkout and runs ptoc-opt; it
fetches nothing. Exit status: 0 when every file is right or excepted, 1 when
some file is wrong, 2 on a bad command line.

  test/ptoas/run-corpus.py --ptoas /path/to/PTOAS [--build build] [--verbose]
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The ptoas flags a run carries over to ptoc-opt, and whether each takes a value.
CARRIED = {"--pto-arch": True, "--pto-level": True, "--enable-insert-sync": False}


class Run:
    """One ptoas RUN line (or the implicit run of a file without any)."""

    def __init__(self, number, negative, flags):
        self.number = number          # 1-based among the file's ptoas runs
        self.negative = negative      # `RUN: not ptoas`: PTOAS rejects the file
        self.flags = flags            # ptoas flags carried over, normalised to --flag[=value]
        self.right = False
        self.detail = ""


def ptoas_runs(path):
    """The ptoas runs of one file, in order."""
    runs = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"\s*//\s*RUN:\s*(.*)", line)
            if not m:
                continue
            command = m.group(1).split("|")[0]
            try:
                words = shlex.split(command)
            except ValueError:
                words = command.split()
            negative = bool(words) and words[0] == "not"
            if negative:
                words = words[1:]
            if not words or not os.path.basename(words[0]) == "ptoas":
                continue
            runs.append(Run(len(runs) + 1, negative, carried_flags(words[1:])))
    return runs or [Run(1, False, [])]


def carried_flags(words):
    """The CARRIED flags among ptoas's arguments, as `--flag` or `--flag=value`."""
    flags, i = [], 0
    while i < len(words):
        name, eq, value = words[i].partition("=")
        if name in CARRIED:
            if CARRIED[name] and not eq and i + 1 < len(words):
                value, i = words[i + 1], i + 1
            flags.append(name + ("=" + value if CARRIED[name] else ""))
        i += 1
    return flags


def supported_flags(ptoc_opt):
    """The CARRIED flags that `ptoc-opt --help` lists."""
    out = subprocess.run([ptoc_opt, "--help"], capture_output=True, text=True).stdout
    return {f for f in CARRIED if re.search(re.escape(f) + r"\b", out)}


def names_arch(path):
    """Whether the file's module says which arch it is for."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return re.search(r"pto\.target_arch\s*=", f.read()) is not None


def check_run(ptoc_opt, path, run, supported):
    flags = [f for f in run.flags if f.partition("=")[0] in supported]
    if not any(f.startswith("--pto-arch") for f in flags) and not names_arch(path):
        flags.append("--pto-arch=a3")        # PTOAS's default; ptoc's is cpu
    proc = subprocess.run([ptoc_opt, path] + flags, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, errors="replace")
    located = re.compile(r"^" + re.escape(path) + r":\d+:\d+: error: .*", re.M)
    first = located.search(proc.stderr)
    first_line = first.group(0) if first else (proc.stderr.strip().splitlines() or [""])[0]
    if run.negative:
        run.right = proc.returncode == 1 and first is not None
        if proc.returncode == 0:
            run.detail = "accepted (exit 0)"
        elif not run.right:
            run.detail = "exit %d without a located error: %s" % (proc.returncode, first_line)
        else:
            run.detail = first_line
    else:
        run.right = proc.returncode == 0
        run.detail = "" if run.right else "exit %d: %s" % (proc.returncode, first_line)
    return flags


def read_run_list(path):
    """{(file, run number): reason} from a list of runs: `FILE RUN REASON`, `#` comments."""
    exceptions = {}
    if not os.path.exists(path):
        return exceptions
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3 or not parts[1].isdigit():
                sys.exit("%s:%d: expected 'FILE RUN REASON'" % (path, n))
            exceptions[(parts[0], int(parts[1]))] = parts[2]
    return exceptions


def describe(run, flags):
    return "run %d%s [%s]" % (run.number, " (not)" if run.negative else "", " ".join(flags) or "no flags")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptoas", required=True, help="a PTOAS checkout (the directory containing test/)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="the ptoc build directory")
    ap.add_argument("--exceptions", default=os.path.join(HERE, "exceptions.txt"))
    ap.add_argument("--ptoas-rejects", default=os.path.join(HERE, "ptoas-rejects.txt"))
    ap.add_argument("--verbose", action="store_true", help="also list the files ptoc reads right")
    args = ap.parse_args()
    test_dir = os.path.abspath(os.path.join(args.ptoas, "test"))
    ptoc_opt = os.path.abspath(os.path.join(args.build, "tools", "ptoc-opt"))
    args.exceptions = os.path.abspath(args.exceptions)
    if not os.path.isdir(test_dir):
        ap.error("no test/ directory in %s" % args.ptoas)
    if not os.access(ptoc_opt, os.X_OK):
        ap.error("no ptoc-opt at %s (build ptoc first)" % ptoc_opt)
    supported = supported_flags(ptoc_opt)
    exceptions = read_run_list(args.exceptions)
    ptoas_rejects = read_run_list(os.path.abspath(args.ptoas_rejects))
    used = set()

    files = sorted(os.path.relpath(os.path.join(d, f), test_dir)
                   for d, _, names in os.walk(test_dir) for f in names if f.endswith(".pto"))
    totals = {False: [0, 0, 0], True: [0, 0, 0]}      # rejected? -> [files, right, excepted]
    wrong, excepted, nruns = [], [], 0
    os.chdir(test_dir)                               # diagnostics name the file as listed
    for rel in files:
        runs = ptoas_runs(rel)
        for run in runs:
            if (rel, run.number) in ptoas_rejects:
                run.negative = True
                used.add((rel, run.number))
        nruns += len(runs)
        rejected = any(r.negative for r in runs)
        bad, justified = [], []
        for run in runs:
            flags = check_run(ptoc_opt, rel, run, supported)
            key = (rel, run.number)
            if key in exceptions:
                used.add(key)
                (justified if not run.right else bad).append(
                    (run, flags, exceptions[key] if not run.right else "stale exception: ptoc now agrees"))
            elif not run.right:
                bad.append((run, flags, run.detail))
            elif args.verbose:
                print("ok       %s %s" % (rel, describe(run, flags)))
        totals[rejected][0] += 1
        if bad:
            wrong.append((rel, bad))
        elif justified:
            totals[rejected][2] += 1
            excepted.append((rel, justified))
        else:
            totals[rejected][1] += 1

    dropped = sorted(set(CARRIED) - supported)
    print("PTOAS corpus: %s (%d files, %d runs)" % (test_dir, len(files), nruns))
    print("ptoc-opt: %s%s" % (ptoc_opt, "; flags it lacks, dropped from runs: " + ", ".join(dropped)
                              if dropped else ""))
    for title, entries in (("wrong", wrong), ("deliberate differences (%s)" % os.path.relpath(args.exceptions, ROOT),
                                              excepted)):
        print("\n%s: %d file%s" % (title, len(entries), "" if len(entries) == 1 else "s"))
        for rel, items in entries:
            for run, flags, why in items:
                print("  %s %s\n      %s" % (rel, describe(run, flags), why))
    stale = sorted((set(exceptions) | set(ptoas_rejects)) - used)
    for rel, number in stale:
        print("  exception for %s run %d matches no run of the corpus" % (rel, number))

    print()
    for rejected, label in ((False, "accepted files that parse and verify"), (True, "rejected files rejected")):
        n, right, exc = totals[rejected]
        rest = n - exc
        print("%s: %d/%d (%.1f%%)%s" % (label, right, n, 100.0 * right / n if n else 100.0,
                                        "; %d deliberate difference%s, %d/%d of the rest"
                                        % (exc, "" if exc == 1 else "s", right, rest) if exc else ""))
    return 1 if wrong or stale else 0


if __name__ == "__main__":
    sys.exit(main())
