"""Upstream MLIR as the oracle of a pass on upstream-only IR (arith, scf, func).

Usage: mlir_oracle.py [--constants-anywhere] PTOC_PIPELINE MLIR_FLAG FILE

Runs `ptoc-opt FILE -p PTOC_PIPELINE --verify-each` and `mlir-opt MLIR_FLAG FILE`
(mlir-opt from $PTOC_MLIR_OPT), prints both results through
`mlir-opt --mlir-print-op-generic` so one printer names every value, and
requires the same text. With --constants-anywhere, arith.constant ops are
taken out and each use of one is replaced by its value and type, so where a
constant sits and whether it is shared does not matter (MLIR's canonicalizer
hoists constants in its worklist's order; ptoc in the order they appear).
The input must give MLIR something to do: if mlir-opt leaves it unchanged,
the test is void and fails. Exit status 0 when the results agree, else 1
with both texts on stderr.
"""
import os
import re
import subprocess
import sys

MLIR_OPT = os.environ.get("PTOC_MLIR_OPT", "mlir-opt-19")
CONSTANT = re.compile(r'^\s*(%[\w$.-]+) = "arith\.constant"\(\) <\{value = (.*)\}> : \(\) -> (\S+)$')
NAME = re.compile(r"%([\w$.-]+)")


def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(cmd), r.stderr))
    return r.stdout


def generic(text):
    return run([MLIR_OPT, "--mlir-print-op-generic", "-"], stdin=text)


def constants_anywhere(text):
    values, lines = {}, []
    for line in text.splitlines():
        m = CONSTANT.match(line)
        if m:
            values[m.group(1)] = "const(%s : %s)" % (m.group(2), m.group(3))
        else:
            lines.append(line)
    body = "\n".join(lines)
    body = re.sub(r"%[\w$.-]+", lambda m: values.get(m.group(0), m.group(0)), body)
    numbers = {}
    return NAME.sub(lambda m: "%%v%d" % numbers.setdefault(m.group(1), len(numbers)), body) + "\n"


def main():
    args = sys.argv[1:]
    anywhere = args[0] == "--constants-anywhere"
    if anywhere:
        args = args[1:]
    pipeline, mlir_flag, path = args
    normal = constants_anywhere if anywhere else (lambda t: t)
    before = normal(generic(open(path).read()))
    ours = normal(generic(run(["ptoc-opt", path, "-p", pipeline, "--verify-each"])))
    theirs = normal(generic(run([MLIR_OPT, mlir_flag, path])))
    if theirs == before:
        sys.exit("%s leaves %s unchanged: the test checks nothing" % (mlir_flag, path))
    if ours != theirs:
        sys.stderr.write("ptoc-opt -p %s:\n%s\nmlir-opt %s:\n%s" % (pipeline, ours, mlir_flag, theirs))
        sys.exit("%s: ptoc-opt -p %s and mlir-opt %s differ" % (path, pipeline, mlir_flag))
    print("same as mlir-opt %s" % mlir_flag)


main()
