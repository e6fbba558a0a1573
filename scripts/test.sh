#!/usr/bin/env bash
# test.sh: README command (2) and what CI runs. Sets up, builds, runs every test
# (C unit tests and the lit suite) with ctest, then the driver and codegen lit
# tests (the --run error suite among them) under ASan and UBSan (asan.sh,
# build-asan): a memory error there fails the run; last, unit.threads (contexts
# on several threads at once) under ThreadSanitizer (tsan.sh, build-tsan).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
ctest --test-dir "$root/build" --output-on-failure -j2
"$root/scripts/asan.sh" test/tools test/codegen
"$root/scripts/tsan.sh"
