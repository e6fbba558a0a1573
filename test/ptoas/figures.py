#!/usr/bin/env python3
"""figures.py: ptoc's sync and memory-plan figures next to PTOAS's, per file.

Given a PTOAS checkout, runs build/tools/ptoc-opt over the files of its test
tree that ptoas-figures/ (next to this script: PTOAS's own figures, measured on
the same tree) lists, and prints ptoc's figures next to PTOAS's:

- sync: for each (file, arch) row PTOAS accepted and whose input has no sync of
  its own, `ptoc-opt FILE --pto-arch=ARCH [--pto-level=level3] -p
  'pto-bufferize,pto-plan-memory,pto-insert-tassign,pto-insert-sync'`, counting
  in its output the set_flag and wait_flag ops, the one-pipe barriers
  (pto.pipe_barrier) and the PIPE_ALL barriers; the end-of-kernel tail (a
  PIPE_ALL barrier, or PTOAS's MTE3-to-S pair on event 0, right before a
  return) is counted apart, as PTOAS's `ptoas_auto_sync_tail` is;
- memplan: for each (file, function, space) row of a level-2 file PTOAS
  planned, `ptoc-opt FILE --pto-arch=ARCH -p
  'pto-bufferize,pto-plan-memory{print=true}'` and its `SPACE peak N` line,
  against PTOAS's peak or, when larger, the end of its reserve_buffer (its
  peak leaves that out); a plan ptoc rejects as over capacity is an overflow.

A file is worse when ptoc inserts more set/wait pairs or more one-pipe
barriers than PTOAS, when a (function, space) peak exceeds PTOAS's, or when
ptoc overflows where PTOAS fits. figures-exceptions.txt (next to this script)
lists the (file, arch, figure) triples where ptoc differs on purpose, one per
line, `FILE ARCH FIGURE REASON` (FIGURE: set/wait, pipe_barrier or
peak:FUNC:SPACE), each with the hardware rule PTOAS breaks; they are reported
on their own, and an exception that no longer applies is reported as stale. The script only
reads the checkout and runs ptoc-opt; it fetches nothing.

  test/ptoas/figures.py --ptoas /path/to/PTOAS [--build build] [--verbose]
                        [--only sync|memplan] [--check]

Prints one line per worse figure (every line with --verbose) and the totals.
Exit status: 0; with --check, 1 when some figure is worse and not excepted;
2 on a bad command line.
"""
import argparse
import concurrent.futures
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIGURES = os.path.join(HERE, "ptoas-figures")
SYNC_PIPELINE = "pto-bufferize,pto-plan-memory,pto-insert-tassign,pto-insert-sync"
PLAN_PIPELINE = "pto-bufferize,pto-plan-memory{print=true}"
SET = re.compile(r"\bpto\.set_flag(_dyn)?\b")
WAIT = re.compile(r"\bpto\.wait_flag(_dyn)?\b")
PBAR = re.compile(r"\bpto\.pipe_barrier\b")
ALL = re.compile(r"\bpto\.barrier\b.*PIPE_ALL")
TAIL_PAIR = "[<PIPE_MTE3>, <PIPE_S>, <EVENT_ID0>]"
PEAK = re.compile(r"^  (\w+) peak (\d+)")
OVERFLOW = re.compile(r"error: 'func\.func' op (\w+) overflow")


def read_tsv(name):
    with open(os.path.join(FIGURES, name), newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def read_exceptions():
    """(file, arch, figure) -> reason, from figures-exceptions.txt."""
    out = {}
    path = os.path.join(HERE, "figures-exceptions.txt")
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            file, arch, figure, reason = (line.split(None, 3) + ["", ""])[:4]
            out[(file, arch, figure)] = reason
    return out


def arch_flags(row):
    flags = ["--pto-arch=" + row["arch"]]
    if "--pto-level=level3" in row.get("ptoas_flags", ""):
        flags.append("--pto-level=level3")
    return flags


def run_opt(ptoc_opt, path, flags, pipeline):
    proc = subprocess.run([ptoc_opt, path] + flags + ["-p", pipeline], capture_output=True, text=True,
                          errors="replace")
    return proc.returncode, proc.stdout, proc.stderr


def count_sync(text):
    """set, wait, one-pipe barriers, PIPE_ALL barriers and tails in ptoc's output."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    n = {"set": 0, "wait": 0, "pbar": 0, "all": 0, "tail": 0}
    tail_lines = set()
    for i, l in enumerate(lines):
        if l != "return" and not l.startswith("return "):
            continue
        if i >= 1 and ALL.search(lines[i - 1]):
            tail_lines.add(i - 1)
            n["tail"] += 1
        elif i >= 2 and TAIL_PAIR in lines[i - 1] and WAIT.search(lines[i - 1]) and TAIL_PAIR in lines[i - 2]:
            tail_lines.update((i - 1, i - 2))
            n["tail"] += 1
    for i, l in enumerate(lines):
        if i in tail_lines:
            continue
        n["set"] += bool(SET.search(l))
        n["wait"] += bool(WAIT.search(l))
        n["pbar"] += bool(PBAR.search(l))
        n["all"] += bool(ALL.search(l))
    return n


def sync_row(ptoc_opt, ptoas, row):
    rc, out, err = run_opt(ptoc_opt, os.path.join(ptoas, "test", row["file"]), arch_flags(row), SYNC_PIPELINE)
    return row, (count_sync(out) if rc == 0 else None), err


def plan_file(ptoc_opt, ptoas, key):
    """{(func, space): peak} and {space: True} for the overflows of one file."""
    file, arch = key
    rc, out, err = run_opt(ptoc_opt, os.path.join(ptoas, "test", file), ["--pto-arch=" + arch], PLAN_PIPELINE)
    peaks, func = {}, None
    for l in out.splitlines():
        m = re.match(r"^memplan @(\S+)", l)
        if m:
            func = m.group(1)
            continue
        m = PEAK.match(l)
        if m and func:
            peaks[(func, m.group(1))] = int(m.group(2))
    overflows = set(m.group(1) for m in OVERFLOW.finditer(err))
    failed = rc != 0 and not overflows
    return key, peaks, overflows, (err.strip().splitlines() or ["exit %d" % rc])[0] if failed else ""


class Report:
    def __init__(self, exceptions, verbose):
        self.exceptions, self.verbose = exceptions, verbose
        self.worse, self.excepted, self.used = [], [], set()

    def figure(self, file, arch, figure, ptoc, ptoas, worse):
        key = (file, arch, figure)
        line = "%-60s %-3s %-14s ptoc %-8s ptoas %s" % (file, arch, figure, ptoc, ptoas)
        if worse and key in self.exceptions:
            self.used.add(key)
            self.excepted.append(line + "  (excepted: %s)" % self.exceptions[key])
        elif worse:
            self.worse.append(line)
            print("WORSE " + line)
        elif self.verbose:
            print("      " + line)


def report_sync(rows, results, report):
    tot = {"ptoc_pairs": 0, "ptoas_pairs": 0, "ptoc_pbar": 0, "ptoas_pbar": 0, "files": 0, "failed": 0,
           "pairs_worse": 0, "pbar_worse": 0, "ptoc_tail": 0, "ptoas_tail": 0}
    for row, n, err in results:
        if n is None:
            tot["failed"] += 1
            print("FAILED %-60s %s sync: %s" % (row["file"], row["arch"], (err.strip().splitlines() or ["?"])[0]))
            continue
        tot["files"] += 1
        pairs, ptoas_pairs = max(n["set"], n["wait"]), max(int(row["ptoas_set"]), int(row["ptoas_wait"]))
        pbar, ptoas_pbar = n["pbar"], int(row["ptoas_pbar"])
        tot["ptoc_pairs"] += pairs
        tot["ptoas_pairs"] += ptoas_pairs
        tot["ptoc_pbar"] += pbar
        tot["ptoas_pbar"] += ptoas_pbar
        tot["ptoc_tail"] += n["tail"]
        tot["ptoas_tail"] += int(row["ptoas_tail"] or 0)
        tot["pairs_worse"] += pairs > ptoas_pairs
        tot["pbar_worse"] += pbar > ptoas_pbar
        report.figure(row["file"], row["arch"], "set/wait", pairs, ptoas_pairs, pairs > ptoas_pairs)
        report.figure(row["file"], row["arch"], "pipe_barrier", pbar, ptoas_pbar, pbar > ptoas_pbar)
    print("sync: %d (file, arch) rows compared, %d failed in ptoc; set/wait pairs ptoc %d, ptoas %d; "
          "one-pipe barriers ptoc %d, ptoas %d; tails ptoc %d, ptoas %d; rows with more pairs %d, "
          "with more barriers %d" % (tot["files"], tot["failed"], tot["ptoc_pairs"], tot["ptoas_pairs"],
                                     tot["ptoc_pbar"], tot["ptoas_pbar"], tot["ptoc_tail"], tot["ptoas_tail"],
                                     tot["pairs_worse"], tot["pbar_worse"]))


def report_memplan(rows, plans, report):
    tot = {"pairs": 0, "smaller": 0, "equal": 0, "larger": 0, "overflow": 0, "missing": 0,
           "ptoc_sum": 0, "ptoas_sum": 0}
    for row in rows:
        key = (row["file"], row["arch"])
        peaks, overflows, failure = plans[key]
        if failure:
            continue
        ptoas = max(int(row["ptoas_peak"] or 0), int(row.get("ptoas_reserve_end") or 0))
        space = row["space"]
        figure = "peak:%s:%s" % (row["func"], space)
        tot["pairs"] += 1
        if space in overflows:
            tot["overflow"] += 1
            report.figure(row["file"], row["arch"], figure, "overflow", ptoas, True)
            continue
        ptoc = peaks.get((row["func"], space))
        if ptoc is None:
            tot["missing"] += 1
            ptoc = 0
        tot["ptoc_sum"] += ptoc
        tot["ptoas_sum"] += ptoas
        tot["smaller" if ptoc < ptoas else "equal" if ptoc == ptoas else "larger"] += 1
        report.figure(row["file"], row["arch"], figure, ptoc, ptoas, ptoc > ptoas)
    for key, (_, _, failure) in sorted(plans.items()):
        if failure:
            print("FAILED %-60s %s memplan: %s" % (key[0], key[1], failure))
    print("memplan: %d (function, space) pairs; ptoc smaller %d, equal %d, larger %d, overflows %d "
          "(no ptoc plan for %d); peak sum ptoc %d, ptoas %d" %
          (tot["pairs"], tot["smaller"], tot["equal"], tot["larger"], tot["overflow"], tot["missing"],
           tot["ptoc_sum"], tot["ptoas_sum"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ptoas", required=True, help="a PTOAS checkout (its test/ folder is read)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", choices=["sync", "memplan"])
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--check", action="store_true", help="exit 1 when a figure is worse and not excepted")
    args = ap.parse_args()
    ptoc_opt = os.path.abspath(os.path.join(args.build, "tools", "ptoc-opt"))
    if not os.access(ptoc_opt, os.X_OK):
        ap.error("no ptoc-opt at %s (build ptoc first)" % ptoc_opt)
    if not os.path.isdir(os.path.join(args.ptoas, "test")):
        ap.error("%s has no test/ folder" % args.ptoas)
    report = Report(read_exceptions(), args.verbose)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        if args.only != "memplan":
            rows = [r for r in read_tsv("sync.tsv") if r["ptoas_rc"] == "0" and r["manual_sync_in_input"] == "0"]
            results = list(pool.map(lambda r: sync_row(ptoc_opt, args.ptoas, r), rows))
            report_sync(rows, results, report)
        if args.only != "sync":
            rows = [r for r in read_tsv("memplan.tsv") if r["ptoas_rc"] == "0" and r["func"]]
            keys = sorted(set((r["file"], r["arch"]) for r in rows))
            plans = {k: (p, o, f) for k, p, o, f in pool.map(lambda k: plan_file(ptoc_opt, args.ptoas, k), keys)}
            report_memplan(rows, plans, report)
    for line in report.excepted:
        print("EXCEPTED " + line)
    for key in sorted(set(report.exceptions) - report.used):
        print("STALE exception (no longer worse): %s %s %s" % key)
    print("worse: %d, excepted: %d" % (len(report.worse), len(report.excepted)))
    return 1 if args.check and report.worse else 0


if __name__ == "__main__":
    sys.exit(main())
