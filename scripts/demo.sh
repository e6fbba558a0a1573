#!/usr/bin/env bash
# demo.sh: README command (1). Sets up, builds, then verifies and prints an
# example kernel with ptoc-opt. (Later issues make the demo run the kernel.)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
echo "== build/tools/ptoc-opt examples/add.pto"
"$root/build/tools/ptoc-opt" "$root/examples/add.pto"
echo "== verified: examples/add.pto"
