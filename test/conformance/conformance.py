"""Round trips of every positive test through ptoc's printers.

Usage: conformance.py upstream TEST_ROOT EXEMPT_FILE
       conformance.py self TEST_ROOT

`upstream` checks conformance with upstream MLIR: ptoc's generic form is MLIR's
generic form.
For every .mlir/.pto file under TEST_ROOT (except Inputs/, robust/ and
conformance/ themselves, the files listed in EXEMPT_FILE, negative tests
(files run with --verify-diagnostics, holding expected-* comments, or expecting
`ptoc` to fail), and
files that split-file cuts into several inputs), each
`// -----` chunk goes through
    ptoc-opt --print-op-generic --allow-unregistered-dialect        (1)
    mlir-opt --allow-unregistered-dialect --mlir-print-op-generic   (2)
    ptoc-opt --allow-unregistered-dialect                           (3)
and the custom form printed by (3) must equal ptoc-opt's custom form of the
original chunk. So upstream accepts and verifies everything ptoc prints, and
ptoc reads back what upstream prints (which adds default properties such as
overflowFlags that ptoc's printers leave out).

`self` needs no upstream tool and checks ptoc against itself: printing is
idempotent (the custom form parses back to the same custom form), the generic
form parses back to the same custom form, and so does the PTO-AS form
(`--print-pto-as`, read back with `-x pto-as`). No file is exempt.

.ptoas files (PTO-AS) are tests too: each chunk is first read with -x pto-as.

A chunk ptoc-opt itself rejects fails the test unless its file's RUN line
expects failure (`not ptoc-opt`).
"""
import concurrent.futures
import difflib
import os
import re
import shutil
import subprocess
import sys

SKIP_DIRS = {"Inputs", "robust", "conformance", "unit"}
SPLIT = re.compile(r"^[ \t]*// -----[ \t]*$", re.M)
ARCH = re.compile(r"(?:--pto-arch|-target)[= ](\S+)")  # ptoc-opt --pto-arch, ptoc -target


def read_exempt(path):
    exempt = set()
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                exempt.add(line)
    return exempt


def test_files(root, exempt):
    for top, subdirs, names in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in SKIP_DIRS)
        for name in sorted(names):
            path = os.path.join(top, name)
            if name.endswith((".mlir", ".pto", ".ptoas")) and os.path.relpath(path, root) not in exempt:
                yield path


def run_lines(text):
    return [l for l in text.splitlines() if "RUN:" in l]


NOT_PTOC = re.compile(r"\bnot ptoc(?!-opt)\b")


def is_negative(text):
    """Tests of diagnostics: ptoc-opt's matcher, or ptoc expected to fail."""
    return ("--verify-diagnostics" in text or "expected-error" in text
            or NOT_PTOC.search(" ".join(run_lines(text))) is not None)


def is_split_file(text):
    """split-file inputs: each `//--- name` part is its own file, and the parts
    may define the same aliases, so the whole is not one module."""
    return "split-file" in " ".join(run_lines(text))


def chunks(text):
    """(first line, chunk) pairs, split as ptoc_split_input splits."""
    line = 1
    for part in SPLIT.split(text):
        yield line, part
        line += part.count("\n")


def run(cmd, stdin):
    return subprocess.run(cmd, input=stdin.encode(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)


def diff_of(want, got, got_name):
    return "\n".join(difflib.unified_diff(want.decode().splitlines(), got.decode().splitlines(),
                                           "ptoc-opt", got_name, lineterm=""))


def check_upstream(tools, where, chunk, flags, lang, custom):
    ptoc_opt, mlir_opt = tools
    generic = run([ptoc_opt, "--print-op-generic", "--allow-unregistered-dialect", "-"] + flags + lang, chunk)
    if generic.returncode != 0:
        return "%s: ptoc-opt --print-op-generic fails:\n%s" % (where, generic.stderr.decode())
    upstream = run([mlir_opt, "--allow-unregistered-dialect", "--mlir-print-op-generic", "-"],
                   generic.stdout.decode())
    if upstream.returncode != 0:
        return "%s: mlir-opt rejects ptoc's generic form:\n%s\n--- ptoc's generic form:\n%s" % (
            where, upstream.stderr.decode(), generic.stdout.decode())
    back = run([ptoc_opt, "--allow-unregistered-dialect", "-"] + flags, upstream.stdout.decode())
    if back.returncode != 0:
        return "%s: ptoc-opt rejects mlir-opt's generic form:\n%s\n--- mlir-opt's output:\n%s" % (
            where, back.stderr.decode(), upstream.stdout.decode())
    if back.stdout != custom.stdout:
        return "%s: the round trip through mlir-opt changes the IR:\n%s" % (
            where, diff_of(custom.stdout, back.stdout, "ptoc-opt(mlir-opt(ptoc-opt --print-op-generic))"))
    return None


def check_pto_as(ptoc_opt, where, flags, custom):
    """--print-pto-as of the custom form reads back (-x pto-as) to the same IR."""
    asm = run([ptoc_opt, "--print-pto-as", "--allow-unregistered-dialect", "-"] + flags, custom.stdout.decode())
    back = run([ptoc_opt, "-x", "pto-as", "--allow-unregistered-dialect", "-"] + flags, asm.stdout.decode())
    if asm.returncode != 0 or back.returncode != 0 or back.stdout != custom.stdout:
        return "%s: the PTO-AS form does not parse back to the same IR:\n%s%s%s\n--- the PTO-AS form:\n%s" % (
            where, asm.stderr.decode(), back.stderr.decode(),
            diff_of(custom.stdout, back.stdout, "ptoc-opt -x pto-as(ptoc-opt --print-pto-as)"),
            asm.stdout.decode())
    return None


def check_self(tools, where, chunk, flags, lang, custom):
    ptoc_opt = tools[0]
    again = run([ptoc_opt, "--allow-unregistered-dialect", "-"] + flags, custom.stdout.decode())
    if again.returncode != 0 or again.stdout != custom.stdout:
        return "%s: printing is not idempotent:\n%s%s" % (
            where, again.stderr.decode(), diff_of(custom.stdout, again.stdout, "ptoc-opt(ptoc-opt)"))
    problem = check_pto_as(ptoc_opt, where, flags, custom)
    if problem:
        return problem
    generic = run([ptoc_opt, "--print-op-generic", "--allow-unregistered-dialect", "-"] + flags + lang, chunk)
    back = run([ptoc_opt, "--allow-unregistered-dialect", "-"] + flags, generic.stdout.decode())
    if generic.returncode != 0 or back.returncode != 0 or back.stdout != custom.stdout:
        return "%s: the generic form does not parse back to the same IR:\n%s%s%s" % (
            where, generic.stderr.decode(), back.stderr.decode(),
            diff_of(custom.stdout, back.stdout, "ptoc-opt(ptoc-opt --print-op-generic)"))
    return None


def check_chunk(mode, tools, path, line, chunk, flags, may_fail):
    where = "%s (chunk at line %d)" % (path, line)
    lang = ["-x", "pto-as"] if path.endswith(".ptoas") else []
    custom = run([tools[0], "--allow-unregistered-dialect", "-"] + flags + lang, chunk)
    if custom.returncode != 0:
        return None if may_fail else "%s: ptoc-opt rejects it:\n%s" % (where, custom.stderr.decode())
    check = check_upstream if mode == "upstream" else check_self
    return check(tools, where, chunk, flags, lang, custom)


def main():
    mode, root = sys.argv[1], sys.argv[2]
    if mode not in ("upstream", "self"):
        sys.exit(__doc__)
    ptoc_opt = shutil.which("ptoc-opt")
    mlir_opt = os.environ.get("PTOC_MLIR_OPT") or shutil.which("mlir-opt-19")
    if not ptoc_opt or (mode == "upstream" and not mlir_opt):
        sys.exit("conformance.py: need ptoc-opt and mlir-opt (run scripts/setup.sh)")
    exempt = read_exempt(sys.argv[3]) if mode == "upstream" else set()
    files = list(test_files(root, exempt))
    failures, nchunks, nfiles = [], 0, 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        jobs = []
        for path in files:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if is_negative(text) or is_split_file(text):
                continue
            nfiles += 1
            runs = " ".join(run_lines(text))
            flags = ["--pto-arch=" + m for m in ARCH.findall(runs)][:1]
            may_fail = "not ptoc-opt" in runs
            for line, chunk in chunks(text):
                jobs.append(pool.submit(check_chunk, mode, (ptoc_opt, mlir_opt), path, line, chunk,
                                        flags, may_fail))
        for job in jobs:
            nchunks += 1
            problem = job.result()
            if problem:
                failures.append(problem)
    print("%s round trip: %d chunks from %d files, %d exempt files, %d failures"
          % (mode, nchunks, nfiles, len(exempt), len(failures)))
    for problem in failures:
        print("FAIL: " + problem + "\n")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
