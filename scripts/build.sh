#!/usr/bin/env bash
# build.sh: configure and build ptoc into build/ with warnings as errors.
# Extra arguments go to the CMake configure step.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cmake -S "$root" -B "$root/build" -G Ninja -DPTOC_WERROR=ON "$@" >/dev/null
cmake --build "$root/build"
