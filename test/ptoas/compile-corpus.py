#!/usr/bin/env python3
"""compile-corpus.py: how much of PTOAS's test corpus does ptoc compile for a target?

Runs `build/tools/ptoc FILE -target=TARGET -emit=obj -o /dev/null` over every .pto
file of a PTOAS checkout's test tree that PTOAS accepts, and reports which do not
compile and why:

- the files PTOAS rejects are skipped: those with a `RUN: not ptoas` line and the
  runs listed in ptoas-rejects.txt (next to this script);
- the RUN lines are read as run-corpus.py reads them (the same code): each ptoas run
  gives its --pto-level; a file is compiled once per distinct level and compiles
  when every compile succeeds. The runs' --pto-arch is not carried over: -target
  names the arch whose rules apply (ptoc refuses a -target that contradicts
  --pto-arch), so a kernel PTOAS checks for a5 is compiled under cpu's rules;
- failures are grouped by their first error (the op and the message, with numbers
  written N), most frequent first; then each failing file with its first error;
- then the known failures of the target (TARGET-known-failures.txt next to this
  script, when it exists: files PTOAS accepts but the ISA does not, with why),
  and any entry of that list that compiles now (stale: take it out);
- the last line is `compiled for TARGET: N/M (P%)`.

The script only reads the checkout and runs ptoc; it fetches nothing. Exit status:
0, or 1 when --min-percent is given and the figure is below it; 2 on a bad command
line.

--target own compiles each file for its own arch, as PTOAS checks it: a5 when one of
its runs passes --pto-arch=a5 or its module says pto.target_arch = "a5", else a3
(PTOAS's default); the known failures are then those of each file's target.

  test/ptoas/compile-corpus.py --ptoas /path/to/PTOAS [--build build] [--target cpu|a5|a3|own]
                               [--min-percent X]
"""
import argparse
import collections
import importlib.util
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def load_run_corpus():
    """run-corpus.py as a module: its RUN-line parsing and list reading."""
    spec = importlib.util.spec_from_file_location("run_corpus", os.path.join(HERE, "run-corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_flags(run):
    """The flags a ptoas run gives ptoc: its --pto-level (the target gives the arch)."""
    return tuple(f for f in run.flags if f.startswith("--pto-level"))


def own_target(rel, runs):
    """a5 for a kernel PTOAS checks for a5 (a run's --pto-arch, or the module's
    pto.target_arch), else a3, PTOAS's default arch."""
    if any(f == "--pto-arch=a5" for r in runs for f in r.flags):
        return "a5"
    with open(rel, errors="replace") as f:
        return "a5" if re.search(r'pto\.target_arch\s*=\s*"a5"', f.read()) else "a3"


def first_error(path, stderr):
    """The first error line of ptoc's output, without its location."""
    lines = stderr.splitlines()
    for line in lines:
        m = re.match(r"^(?:.*?:\d+:\d+: )?error: (.*)", line)
        if m:
            return m.group(1).strip()
    return (lines or ["(no message)"])[0].strip()


def reason(error):
    """The group of an error: the message with its numbers written N (not the op's name's)."""
    op = re.match(r"'[^']*' op ", error)
    head = op.group(0) if op else ""
    return head + re.sub(r"\d+", "N", error[len(head):])


def read_known_failures(path):
    """FILE -> reason, from a list of `FILE reason` lines ('#' comments)."""
    known = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    rel, _, why = line.partition(" ")
                    known[rel] = why.strip()
    return known


def print_known_failures(args, failing, compiled, targets):
    """The target's known failures among the failing files, and the entries
    that compile now (stale); entries naming files not in the checkout are
    ignored. With --target own, each file's own target's list."""
    path = args.known_failures or os.path.join(HERE, "%s-known-failures.txt" % args.target)
    known = read_known_failures(path)
    if args.target == "own" and not args.known_failures:
        lists = {t: read_known_failures(os.path.join(HERE, "%s-known-failures.txt" % t)) for t in ("a5", "a3")}
        known = {rel: why for t, k in lists.items() for rel, why in k.items() if targets.get(rel) == t}
        path = os.path.join(HERE, "TARGET-known-failures.txt")
    listed = [rel for rel in known if rel in failing]
    stale = [rel for rel in known if rel in compiled]
    if not listed and not stale:
        return
    print("\nknown failures (%s: PTOAS accepts them, ptoc does not, each with why; %d files):"
          % (os.path.relpath(path, ROOT), len(listed)))
    for rel in listed:
        print("  %s\n      %s" % (rel, known[rel]))
    for rel in stale:
        print("  stale entry, not failing: %s" % rel)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptoas", required=True, help="a PTOAS checkout (the directory containing test/)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="the ptoc build directory")
    ap.add_argument("--target", default="cpu", help="the ptoc -target to compile for; own: each file's arch")
    ap.add_argument("--ptoas-rejects", default=os.path.join(HERE, "ptoas-rejects.txt"))
    ap.add_argument("--known-failures", help="the target's list of known failures "
                    "(default: TARGET-known-failures.txt next to this script)")
    ap.add_argument("--min-percent", type=float, help="exit 1 when fewer files than this compile")
    args = ap.parse_args()
    test_dir = os.path.abspath(os.path.join(args.ptoas, "test"))
    ptoc = os.path.abspath(os.path.join(args.build, "tools", "ptoc"))
    if not os.path.isdir(test_dir):
        ap.error("no test/ directory in %s" % args.ptoas)
    if not os.access(ptoc, os.X_OK):
        ap.error("no ptoc at %s (build ptoc first)" % ptoc)
    rc = load_run_corpus()
    rejects = rc.read_run_list(os.path.abspath(args.ptoas_rejects))

    files = sorted(os.path.relpath(os.path.join(d, f), test_dir)
                   for d, _, names in os.walk(test_dir) for f in names if f.endswith(".pto"))
    os.chdir(test_dir)                               # diagnostics name the file as listed
    compiled, failing, skipped, compiled_files, targets = 0, [], 0, set(), {}
    for rel in files:
        runs = rc.ptoas_runs(rel)
        if any(r.negative or (rel, r.number) in rejects for r in runs):
            skipped += 1
            continue
        error = None
        target = own_target(rel, runs) if args.target == "own" else args.target
        targets[rel] = target
        for flags in dict.fromkeys(compile_flags(r) for r in runs):
            proc = subprocess.run([ptoc, rel, "-target=" + target, "-emit=obj", "-o", os.devnull]
                                  + list(flags), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, errors="replace")
            if proc.returncode != 0:
                error = first_error(rel, proc.stderr)
                if proc.returncode not in (0, 1):
                    error = "exit %d: %s" % (proc.returncode, error)
                break
        if error is None:
            compiled += 1
            compiled_files.add(rel)
        else:
            failing.append((rel, error))

    total = compiled + len(failing)
    print("PTOAS corpus: %s (%d files, %d rejected by PTOAS and skipped)" % (test_dir, len(files), skipped))
    groups = collections.Counter(reason(e) for _, e in failing)
    print("\nfirst errors (%d files):" % len(failing))
    for why, n in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %4d  %s" % (n, why))
    print("\nfailing files:")
    for rel, error in failing:
        print("  %s\n      %s" % (rel, error))
    percent = 100.0 * compiled / total if total else 100.0
    print_known_failures(args, dict(failing), compiled_files, targets)
    if args.target == "own":
        for t in sorted(set(targets.values())):
            mine = [rel for rel in targets if targets[rel] == t]
            print("  for %s: %d/%d" % (t, sum(1 for rel in mine if rel in compiled_files),
                                       sum(1 for rel in mine if rel in compiled_files or rel in dict(failing))))
    print("\ncompiled for %s: %d/%d (%.1f%%)" % (args.target, compiled, total, percent))
    return 1 if args.min_percent is not None and percent < args.min_percent else 0


if __name__ == "__main__":
    sys.exit(main())
