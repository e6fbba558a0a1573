"""Checks a --test-print-memplan report on its own: in each function and space,
two buffers whose live ranges (lists of pieces) overlap do not overlap in memory
unless they are confined to the two arms of one scf.if (arm ids N and N^1), or one is
written in place over the other (same in-place group, same offset and size, meeting at
one point: the op that reads the one for the last time and writes the other), every offset is
aligned, every planned buffer lies inside the capacity, the peak is the highest
end, and peak >= lower bound. Prints one summary line per space.

Usage: check_plan.py < report   (alignment: 512 for LEFT/RIGHT/ACC, else 32)
"""
import re
import sys

ALIGN = {"LEFT": 512, "RIGHT": 512, "ACC": 512}
BUF = re.compile(r"^  (\w+) buffer (\S+) live((?: \[\d+, \d+\])+)((?: arm \d+)*)(?: in-place (\S+))? "
                 r"offset (\d+) size (\d+)$")
PIECE = re.compile(r"\[(\d+), (\d+)\]")
FIXED = re.compile(r"^  (\w+) (?:fixed \S+|reserved) offset (\d+) size (\d+)$")
PEAK = re.compile(r"^  (\w+) peak (\d+) lower-bound (\d+) capacity (\d+)$")

def check(func, space, bufs, fixed, peak, lb, cap):
    errors = []
    align = ALIGN.get(space, 32)
    items = bufs + [(-1, 1 << 62, o, z, frozenset(), None) for o, z in fixed]
    for s, e, o, z, _, _ in bufs:
        if o % align or o + z > cap:
            errors.append(f"buffer at {o} size {z} misaligned or beyond {cap}")
    items.sort()
    active = []
    for it in items:                   # sweep by start: compare with buffers still live
        active = [a for a in active if a[1] >= it[0]]
        for a in active:
            exclusive = any(x ^ 1 in it[4] for x in a[4])   # the two arms of one scf.if
            handover = (a[5] is not None and a[5] == it[5] and a[2:4] == it[2:4]
                        and min(a[1], it[1]) == max(a[0], it[0]))   # one point, in place
            if a[2] < it[2] + it[3] and it[2] < a[2] + a[3] and not exclusive and not handover:
                errors.append(f"live together and overlapping: {a} {it}")
        active.append(it)
    top = max([it[2] + it[3] for it in items] + [0])
    if peak < lb or (bufs and top != peak and not fixed):
        errors.append(f"peak {peak} (highest end {top}) lower bound {lb}")
    print(f"@{func} {space}: {len(bufs)} live pieces, peak/lower-bound {peak / lb if lb else 1:.2f}, "
          f"{'ok' if not errors else 'FAIL'}")
    for e in errors[:10]:
        print("  " + e)
    return not errors

ok, func, bufs, fixed = True, "?", {}, {}
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("memplan @"):
        func, bufs, fixed = line[9:], {}, {}
    elif m := BUF.match(line):          # one item per live piece
        arms = frozenset(int(a) for a in m[4].split()[1::2])
        group = m[5] or m[2]            # the in-place group, named by its first buffer
        for s, e in PIECE.findall(m[3]):
            bufs.setdefault(m[1], []).append((int(s), int(e), int(m[6]), int(m[7]), arms, group))
    elif m := FIXED.match(line):
        fixed.setdefault(m[1], []).append((int(m[2]), int(m[3])))
    elif m := PEAK.match(line):
        sp = m[1]
        ok &= check(func, sp, bufs.get(sp, []), fixed.get(sp, []), int(m[2]), int(m[3]), int(m[4]))
sys.exit(0 if ok else 1)
