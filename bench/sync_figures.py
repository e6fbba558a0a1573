"""Sync figures (docs/testing.md), and the seeded-bug check of pto-insert-sync.

Usage: sync_figures.py BUILD_DIR [--examples NAME...]

For each example kernel (examples/NAME.pto with its inputs from
examples/data/NAME.py): plan and insert sync with ptoc-opt for the cpu target,
count the set/wait pairs and barriers, and run the result under the pipe
simulator for its modelled total cycles; then run the same planned kernel with a
`pto.barrier <PIPE_ALL>` after every tile op instead, for comparison. Seeded
bugs: each inserted wait_flag is deleted in turn (its set stays) and the kernel
rerun with --check-races: either a race is reported, or the wait is a loop's
compensation wait (after the loop: it only balances the set made before the
loop, so that ids are not set twice), or the pair was redundant. (A deleted
wait always leaves its set unwaited at the end, which is reported too; only a
race shows that the pair ordered something.) Then each tail (the PIPE_ALL
barrier, or the wait of the MTE3 -> S pair, right before a return of a
function that is not called: a callee's is covered by the barrier after its
call) is deleted in turn: the simulator must report an op still running when
the kernel returns.
Prints one table row per kernel; exits 1 if a kernel fails to run, races with
its inserted sync, a deletion leaves a kernel without a race report for a
pair that was needed (that is: prints how many were redundant; the target is
0), or a tail's deletion goes unreported.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = {
    "radix_select": ["in.npy", "out.npy", "10"],
    "softmax": ["x.npy", "z.npy", "y.npy"],
    "masked_clamp": ["x.npy", "y.npy", "-0.5", "0.75"],
}
PLAN = "pto-bufferize,pto-plan-memory,pto-insert-tassign"
TILE_OP = re.compile(r"^\s*(%[\w#:, ]+= )?pto\.t[a-z0-9_]+\b")
TAIL = re.compile(r"^\s*(pto\.barrier <PIPE_ALL>|pto\.wait_flag\[<PIPE_MTE3>, <PIPE_S>, <EVENT_ID0>\])\s*$")
RETURN = re.compile(r"^\s*return\b")
AT_END = "when the kernel returns"


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def opt(build, src, passes, out):
    r = run([os.path.join(build, "tools", "ptoc-opt"), src, "--pto-arch=cpu", "-p", passes, "-o", out])
    if r.returncode:
        sys.exit(f"ptoc-opt failed on {src}: {r.stderr}")


def simulate(build, kernel, args, trace=None):
    """Runs under --check-races; returns (reports, total cycles or None)."""
    cmd = [os.path.join(build, "tools", "ptoc"), kernel, "--no-insert-sync", "--run", "--check-races"]
    if trace:
        cmd.append("--trace=" + trace)
    for a in args:
        cmd += ["--arg", a]
    r = run(cmd)
    cycles = None
    if trace and os.path.exists(trace):
        with open(trace) as f:
            cycles = json.load(f).get("otherData", {}).get("total_cycles")
    return r.stderr, cycles


def barrier_all(text):
    """A PIPE_ALL barrier after every tile op line."""
    out = []
    for line in text.splitlines():
        out.append(line)
        if TILE_OP.match(line) and "alloc_tile" not in line and "tassign" not in line:
            out.append(re.match(r"^\s*", line).group(0) + "pto.barrier <PIPE_ALL>")
    return "\n".join(out) + "\n"


def function_of(lines, i):
    """The name of the func.func that line i is in."""
    for l in reversed(lines[:i]):
        m = re.search(r"func\.func\s+(?:private\s+)?@([\w.$]+)", l)
        if m:
            return m.group(1)
    return None


def called(text, func):
    """A callee's tail is covered by the PIPE_ALL barrier its caller puts after
    the call: deleting it cannot show at the kernel's end."""
    return func is not None and re.search(r"\bcall @" + re.escape(func) + r"\(", text) is not None


def kernel_row(build, name, work):
    data = os.path.join(ROOT, "examples", "data", name + ".py")
    d = os.path.join(work, name)
    run([sys.executable, data, "gen", d], check=True)
    args = [os.path.join(d, a) if a.endswith(".npy") else a for a in EXAMPLES[name]]
    src = os.path.join(ROOT, "examples", name + ".pto")
    synced, planned = os.path.join(d, "synced.pto"), os.path.join(d, "planned.pto")
    opt(build, src, PLAN + ",pto-insert-sync", synced)
    opt(build, src, PLAN, planned)
    text = open(synced).read()
    counts = {k: len(re.findall(r"\bpto\." + k + r"\b", text)) for k in ("set_flag", "wait_flag", "pipe_barrier", "barrier")}
    reports, cycles = simulate(build, synced, args, os.path.join(d, "sync.json"))
    if "error" in reports:
        print(f"{name}: the inserted sync is not clean:\n{reports}")
        return False
    all_path = os.path.join(d, "barrier_all.pto")
    with open(all_path, "w") as f:
        f.write(barrier_all(open(planned).read()))
    all_reports, all_cycles = simulate(build, all_path, args, os.path.join(d, "all.json"))
    lines = text.splitlines()
    tails = [i for i, l in enumerate(lines) if TAIL.match(l) and i + 1 < len(lines) and RETURN.match(lines[i + 1])
             and not called(text, function_of(lines, i))]
    waits = [i for i, l in enumerate(lines) if "pto.wait_flag" in l and i not in tails]
    redundant, balance = [], 0
    seeded = os.path.join(d, "seeded.pto")

    def without(i):
        with open(seeded, "w") as f:
            f.write("\n".join(lines[:i] + lines[i + 1:]) + "\n")
        return simulate(build, seeded, args)[0]

    for i in waits:
        if "race:" in without(i):
            continue
        if lines[i - 1].strip() == "}":   # a loop's compensation wait: keeps the ids balanced
            balance += 1
        else:
            redundant.append(f"line {i + 1}: {lines[i].strip()}")
    unreported = [f"line {i + 1}: {lines[i].strip()}" for i in tails if AT_END not in without(i)]
    ratio = f"{cycles / all_cycles:.2f}" if cycles and all_cycles else "?"
    print(f"| {name} | {counts['set_flag']} / {counts['wait_flag']} | {counts['pipe_barrier']} | "
          f"{counts['barrier']} | {cycles} | {all_cycles} | {ratio} | "
          f"{len(waits) - len(redundant) - balance} / {balance} / {len(redundant)} | "
          f"{len(tails) - len(unreported)} / {len(unreported)} |")
    for r in redundant:
        print(f"  redundant: {r}")
    for r in unreported:
        print(f"  tail deleted, end not reported: {r}")
    return not unreported


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    names = sys.argv[3:] if len(sys.argv) > 3 and sys.argv[2] == "--examples" else list(EXAMPLES)
    print("| kernel | sets / waits | pipe_barriers | PIPE_ALL barriers | cycles with sync | "
          "cycles, barrier after every op | ratio | deleted waits: race / compensation / redundant | "
          "deleted tails: reported / not |")
    print("|---|---|---|---|---|---|---|---|---|")
    ok = True
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            ok = kernel_row(build, name, work) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
