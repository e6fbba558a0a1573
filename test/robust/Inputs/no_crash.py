"""Runs a command; fails if it dies of a signal or exits with a status other
than 0 or 1, or exits 1 without a `:LINE:COL: error:` diagnostic.
Usage: no_crash.py CMD ARGS..."""
import re
import subprocess
import sys

run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
err = run.stderr.decode(errors="replace")
if run.returncode < 0 or run.returncode > 1:
    sys.exit("no_crash.py: exit status %d\n%s" % (run.returncode, err))
if run.returncode == 1 and not re.search(r":\d+:\d+: error: ", err):
    sys.exit("no_crash.py: failed without a located diagnostic\n%s" % err)
