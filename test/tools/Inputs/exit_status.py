"""Runs a command and prints `exit status N` after its output, for tests that
check an exact exit status (lit's `not` only tells zero from non-zero).
Usage: exit_status.py CMD ARGS...  (stderr is merged into stdout)"""
import subprocess
import sys

run = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
sys.stdout.write(run.stdout.decode(errors="replace"))
print("exit status %d" % run.returncode)
