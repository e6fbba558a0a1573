"""Runs a command REPEAT times; prints the best wall time (s) and the peak RSS (KiB).

Usage: measure.py REPEAT CMD ARGS...   (the command's stdout goes to /dev/null)
"""
import resource
import subprocess
import sys
import time

repeat = int(sys.argv[1])
best = None
for _ in range(repeat):
    start = time.perf_counter()
    subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, check=True)
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
# ru_maxrss of children is the largest peak of any child waited for (KiB on Linux).
print("%.3f %d" % (best, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
