#!/usr/bin/env bash
# tsan.sh: builds build-tsan with ThreadSanitizer (any report fails the run)
# and runs the test that creates and uses contexts on several threads at once
# (unit.threads), and the runtime's block of cores on threads (unit.xcore). Only
# those tests and the libraries they link are built.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
cmake -S "$root" -B "$root/build-tsan" -G Ninja -DPTOC_WERROR=ON \
      -DCMAKE_BUILD_TYPE=Debug -DPTOC_SANITIZE=thread >/dev/null
cmake --build "$root/build-tsan" --target unit_threads unit_xcore
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
ctest --test-dir "$root/build-tsan" -R '^unit\.(threads|xcore)$' --output-on-failure
