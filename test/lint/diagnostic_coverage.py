#!/usr/bin/env python3
"""Checks that every diagnostic the parser, verifier and codegen can produce has a test.

Usage: diagnostic_coverage.py SRC_ROOT [--list]

What it extracts. Every call in SRC_ROOT/ir/*.c and SRC_ROOT/dialect/*.c to a
diagnostic-emitting function (the table EMITTERS below: the public emitters of
include/ptoc/ir.h and syntax.h, the parser's "expected <what>" helpers, and the
local wrappers of the lexer and the pass-pipeline parser) whose message
argument is a string literal. Adjacent literals are concatenated, as C does; a
message chosen by `cond ? "a" : "b"` yields one diagnostic per literal. A
message passed through a variable (`"%s", msg`) is not a diagnostic of its
own: the literal it came from is found at its own call.

How it matches. The message is split at its printf conversions (`%s`, `%u`,
`%lld`, `%.*s`, ...); the longest literal piece, with surrounding blanks and
quotes trimmed, must occur somewhere in a file under SRC_ROOT/test (other than
test/lint, which holds this script and its allowlist). The `expected <what>`
helpers report "expected " + what, so that is the text searched for. Messages
whose longest piece is shorter than MIN_KEY characters (e.g. "%s: %s") carry no
text of their own and are skipped.

Allowlist. SRC_ROOT/test/lint/allowlist.txt names diagnostics that cannot be
triggered from text, one a line: `file: message-fragment  # reason`, where
file is the path relative to SRC_ROOT and the fragment is any substring of the
message. '#' starts the reason; blank lines and lines starting with '#' are
ignored. An allowlist entry that matches no uncovered diagnostic is itself an
error, so the list cannot go stale.

Exit status 0 when every diagnostic is covered or allowlisted; 1 otherwise,
after listing each uncovered diagnostic as `file:line: message`. --list prints
every extracted diagnostic with its key and status.
"""
import os
import re
import sys

# Emitting function -> (index of the message argument, text put before it).
EMITTERS = {
    "ptoc_parser_error": (1, ""),
    "ptoc_parser_error_at": (2, ""),
    "ptoc_parser_diag_at": (2, ""),
    "ptoc_parser_expected": (1, "expected "),
    "ptoc_parse_keyword": (2, "expected "),      # fails with "expected <what>"
    "ptoc_emit": (3, ""),
    "ptoc_emit_error": (2, ""),
    "ptoc_op_emit_error": (1, ""),
    "ptoc_op_emit_warning": (1, ""),
    "ptoc_diag_begin": (3, ""),
    "ptoc_op_diag_error": (1, ""),
    "ptoc_diag_note": (2, ""),
    "ptoc_diag_op_note": (2, ""),
    "error_at": (2, ""),                         # ir/lexer.c: a token carrying its error
    "pp_error": (1, ""),                         # ir/pass.c: pass-pipeline syntax errors
}
SOURCE_DIRS = ("ir", "dialect", "codegen")
MIN_KEY = 4

CALL_RE = re.compile(r"\b(" + "|".join(sorted(EMITTERS, key=len, reverse=True)) + r")\s*\(")
STRING_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# printf conversions: flags, width, precision, length, conversion; `%%` is literal.
CONVERSION_RE = re.compile(r"%[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfFgGaAcspn]")


def strip_comments(src):
    """Blanks out comments, keeping line numbers and string literals intact."""
    def blank(m):
        text = m.group(0)
        return text if text.startswith('"') else re.sub(r"[^\n]", " ", text)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"|/\*.*?\*/|//[^\n]*', blank, src, flags=re.S)


def call_arguments(src, open_paren):
    """The top-level arguments of the call whose '(' is at open_paren."""
    args, depth, start, i = [], 0, open_paren + 1, open_paren
    while i < len(src):
        c = src[i]
        if c == '"':
            m = STRING_RE.match(src, i)
            i = m.end() if m else i + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(src[start:i])
                return args
        elif c == "," and depth == 1:
            args.append(src[start:i])
            start = i + 1
        i += 1
    return args


def messages_in(arg):
    """The literal messages an argument can be: one per run of adjacent string
    literals (`"a" "b"` is one message, `c ? "a" : "b"` two)."""
    runs, current, last_end = [], None, None
    for m in STRING_RE.finditer(arg):
        if current is not None and arg[last_end:m.start()].strip() == "":
            current += m.group(1)
        else:
            if current is not None:
                runs.append(current)
            current = m.group(1)
        last_end = m.end()
    if current is not None:
        runs.append(current)
    return runs


def unescape(s):
    return s.replace('\\"', '"').replace("\\'", "'").replace("\\\\", "\\")


def key_of(message):
    """The longest literal piece of the message between printf conversions."""
    pieces = CONVERSION_RE.split(message.replace("\\n", "%s"))
    pieces = [unescape(p).replace("%%", "%").strip(" '\"") for p in pieces]
    return max(pieces, key=len) if pieces else ""


def extract(root):
    """[(path, line, message, key)] for every diagnostic in the sources."""
    found = []
    for d in SOURCE_DIRS:
        for name in sorted(os.listdir(os.path.join(root, d))):
            if not name.endswith(".c"):
                continue
            path = f"{d}/{name}"
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                src = strip_comments(f.read())
            for call in CALL_RE.finditer(src):
                index, prefix = EMITTERS[call.group(1)]
                args = call_arguments(src, call.end() - 1)
                if len(args) <= index:
                    continue            # the definition or declaration itself
                for msg in messages_in(args[index]):
                    key = key_of(prefix + msg)
                    if len(key) >= MIN_KEY:
                        line = src.count("\n", 0, call.start()) + 1
                        found.append((path, line, prefix + msg, key))
    return found


def test_corpus(root):
    texts = []
    test_dir = os.path.join(root, "test")
    for dirpath, dirnames, files in os.walk(test_dir):
        if os.path.relpath(dirpath, test_dir).split(os.sep)[0] == "lint":
            continue
        for name in files:
            with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                texts.append(f.read())
    return "\n".join(texts)


def read_allowlist(root):
    entries = []
    path = os.path.join(root, "test", "lint", "allowlist.txt")
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
            if not line:
                continue
            file, sep, fragment = line.partition(": ")
            if not sep or not fragment.strip():
                sys.exit(f"allowlist.txt:{n}: expected 'file: message-fragment  # reason'")
            entries.append((n, file.strip(), fragment.strip()))
    return entries


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    root = argv[1]
    diagnostics = extract(root)
    corpus = test_corpus(root)
    allow = read_allowlist(root)
    used = set()
    uncovered = []
    for path, line, msg, key in diagnostics:
        status = "covered"
        if key not in corpus:
            hits = [n for n, file, frag in allow if file == path and frag in msg]
            used.update(hits)
            status = "allowlisted" if hits else "UNCOVERED"
            if not hits:
                uncovered.append(f"{path}:{line}: {msg}")
        if "--list" in argv:
            print(f"{status:11} {path}:{line}: {key!r}")
    stale = [f"allowlist.txt:{n}: '{file}: {frag}' matches no uncovered diagnostic"
             for n, file, frag in allow if n not in used]
    print(f"{len(diagnostics)} diagnostics, {len(diagnostics) - len(uncovered)} covered or "
          f"allowlisted ({len(used)} allowlist entries used), {len(uncovered)} without a test")
    for u in uncovered + stale:
        print(u)
    return 1 if uncovered or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
