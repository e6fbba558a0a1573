"""Runs the system `cc` with the given arguments to link a program against
libptoc_rt.a (the last argument ending in libptoc_rt.a). When that archive was
built with sanitizers (-DPTOC_SANITIZE=...), the program must link their
runtimes too: the flags are derived from the archive's undefined symbols.
Usage: cc_rt.py CC-ARGS..."""
import subprocess
import sys

args = sys.argv[1:]
archive = [a for a in args if a.endswith("libptoc_rt.a")]
flags = []
if archive:
    undefined = subprocess.run(["nm", "-u", archive[-1]], stdout=subprocess.PIPE,
                               universal_newlines=True).stdout
    sanitizers = [name for name, prefix in (("address", "__asan_"), ("undefined", "__ubsan_"))
                  if prefix in undefined]
    if sanitizers:
        flags = ["-fsanitize=" + ",".join(sanitizers)]
sys.exit(subprocess.run(["cc"] + flags + args).returncode)
