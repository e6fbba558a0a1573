#!/usr/bin/env bash
# demo.sh: README command (1). Sets up, builds, verifies and prints an example
# kernel with ptoc-opt, then runs the example kernels of examples/ on the cpu
# target and checks each output against an independent expectation
# (examples/data/*.py: sorting for radix select, a double-precision softmax,
# an exact clamp, exact arithmetic for the matmul epilogue, double-precision
# rmsnorm and attention for the decode step and the flash-attention block).
# Prints one line per example; exits non-zero on a mismatch.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
echo "== build/tools/ptoc-opt examples/add.pto"
"$root/build/tools/ptoc-opt" "$root/examples/add.pto"
echo "== verified: examples/add.pto"

ptoc="$root/build/tools/ptoc"
data="$root/examples/data"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# run_example NAME ARG...: generate NAME's inputs, run the kernel with the
# arguments (relative file names are in NAME's data directory) under the pipe
# simulator (the sync ptoc inserted must have no race), check the output.
run_example() {
  local name=$1 dir="$work/$1"
  shift
  local args=()
  for a in "$@"; do
    if [[ $a == *.npy ]]; then args+=(--arg "$dir/$a"); else args+=(--arg "$a"); fi
  done
  python3 "$data/$name.py" gen "$dir"
  echo "== build/tools/ptoc examples/$name.pto -target=cpu --run --check-races ${*/#/--arg } --out DIR"
  if ! "$ptoc" "$root/examples/$name.pto" -target=cpu --run --check-races "${args[@]}" --out "$dir/out" ||
     ! python3 "$data/$name.py" check "$dir"; then
    echo "$name: FAILED"
    failed=1
  fi
}

run_example radix_select in.npy out.npy 10
run_example softmax x.npy z.npy y.npy
run_example masked_clamp x.npy y.npy -0.5 0.75
run_example matmul_epilogue a.npy b.npy bias.npy ws.npy y.npy
run_example rmsnorm x.npy gamma.npy y.npy
run_example decode_attention q.npy k.npy v.npy s_ws.npy p_ws.npy o.npy
run_example flash_attention q.npy k.npy v.npy s_ws.npy p_ws.npy pv_ws.npy o.npy

if [[ $failed -ne 0 ]]; then
  echo "== demo: an example did not match its expected output"
  exit 1
fi
echo "== demo: all examples match their expected output"
