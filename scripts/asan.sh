#!/usr/bin/env bash
# asan.sh: builds build-asan with AddressSanitizer and UndefinedBehaviorSanitizer
# (every finding is fatal) and runs the whole test suite there, or only the lit
# directories named on the command line, e.g. the --run error suite:
#   scripts/asan.sh                                  every ctest entry
#   scripts/asan.sh test/tools/run test/codegen/pto  those lit directories
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
cmake -S "$root" -B "$root/build-asan" -G Ninja -DPTOC_WERROR=ON \
      -DCMAKE_BUILD_TYPE=Debug -DPTOC_SANITIZE=address,undefined >/dev/null
cmake --build "$root/build-asan"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if (($# == 0)); then
  ctest --test-dir "$root/build-asan" --output-on-failure -j2
  exit
fi
dirs=()
for dir in "$@"; do
  dirs+=("$root/build-asan/${dir%/}")
done
python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv "${dirs[@]}"
