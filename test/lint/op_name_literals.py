#!/usr/bin/env python3
"""Checks that passes, backends and the runtime test pto ops by opcode, not by name.

Usage: op_name_literals.py SRC_ROOT

The op names are those of the rows of SRC_ROOT/dialect/pto_ops.def (a row is
a line `MACRO(ID, "name", ...`). A string literal in SRC_ROOT/passes,
SRC_ROOT/codegen or SRC_ROOT/runtime (*.c, *.h; comments are skipped) whose
text is exactly "pto." + one of those names is an error: compare
ptoc_pto_opcode(op) with PTOC_PTO_OP_<ID>, read the op's row, or build the op
with ptoc_pto_op_name(PTOC_PTO_OP_<ID>). Codegen's rule rows name a pto op
by its opcode too ({PTO(TADD), lower_fn, arg}). A literal that only starts
with "pto." (an attribute such as "pto.addr", a message) is not an op name.

Exit status 0 when no such literal is found; 1 otherwise, after listing each
as `file:line: "pto.name"`.
"""
import os
import re
import sys

ROW_RE = re.compile(r'^[A-Z][A-Z0-9_]*\(\s*[A-Z][A-Z0-9_]*\s*,\s*"([a-z0-9_.]+)"', re.M)
# A string literal, a comment, or a character constant, in source order.
TOKEN_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"|/\*.*?\*/|//[^\n]*|\'(?:[^\'\\\n]|\\.)*\'', re.S)
SOURCE_DIRS = ("passes", "codegen", "runtime")


def op_names(root):
    with open(os.path.join(root, "dialect", "pto_ops.def"), encoding="utf-8") as f:
        names = set(ROW_RE.findall(f.read()))
    if not names:
        sys.exit("op_name_literals.py: no op rows found in dialect/pto_ops.def")
    return names


def scan(root, rel, names):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        text = f.read()
    found = []
    for m in TOKEN_RE.finditer(text):
        lit = m.group(1)
        if lit is None or not lit.startswith("pto.") or lit[4:] not in names:
            continue
        found.append((rel, text.count("\n", 0, m.start()) + 1, lit))
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    root = sys.argv[1]
    names = op_names(root)
    found = []
    for d in SOURCE_DIRS:
        top = os.path.join(root, d)
        for dirpath, _, files in sorted(os.walk(top)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    rel = os.path.relpath(os.path.join(dirpath, f), root)
                    found += scan(root, rel, names)
    for rel, lineno, lit in found:
        print(f'{rel}:{lineno}: "{lit}": test the opcode (ptoc_pto_opcode) or read the op\'s row')
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
