#!/usr/bin/env bash
# run.sh: builds the benches and prints their tables: op throughput
# (ptoc-bench-throughput: THISTOGRAM, TCOLEXPANDADD, TSELS on 64x4096 tiles,
# next to memcpy and plain C loops, and GM copies with --run's bounds checks
# off and on), the cube and reduction figures (ptoc-bench-ops: TMATMUL f32
# and f16 in GFLOP/s next to a plain C loop and OpenBLAS when installed; the
# row and column reductions next to memcpy) and compile latency (ptoc-bench-compile:
# parse to object for every examples/*.pto) and memory planning time
# (ptoc-bench-memplan: pto-plan-memory on kernels of 1k and 10k buffers) and
# the sync figures (bench/sync_figures.py: pairs and barriers pto-insert-sync
# puts in each example, the pipe simulator's modelled cycles with them and with
# a barrier after every op, and which deleted waits the simulator catches) and
# the examples' modelled cycles on the cpu, a5 and a3 models and the A2/A3 model's
# ratio to hardware profiles (bench/model_figures.py).
#   bench/run.sh [--quick] [--build-dir DIR] [--no-build]
# --quick runs a few iterations only (the bench.smoke ctest): it checks that the
# benches build, compile their kernels and get right results; its figures mean
# nothing. The exit status is non-zero on an error or a wrong result, never on a
# missed performance target. The build reuses build/ (as scripts/build.sh does).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build
quick=()
do_build=1
while (($#)); do
  case $1 in
    --quick) quick=(--quick) ;;
    --no-build) do_build=0 ;;
    --build-dir) build=$2; shift ;;
    *) echo "usage: bench/run.sh [--quick] [--build-dir DIR] [--no-build]" >&2; exit 2 ;;
  esac
  shift
done

if ((do_build)); then
  cmake -S "$root" -B "$build" -G Ninja -DPTOC_WERROR=ON >/dev/null
  cmake --build "$build" --target ptoc-bench-throughput ptoc-bench-ops ptoc-bench-compile ptoc-bench-memplan ptoc ptoc-opt
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
status=0
"$build/bench/ptoc-bench-throughput" "${quick[@]}" --kernels "$root/bench/kernels" || status=1
echo
"$build/bench/ptoc-bench-ops" "${quick[@]}" --kernels "$root/bench/kernels" || status=1
echo
"$build/bench/ptoc-bench-compile" "${quick[@]}" "$root"/examples/*.pto || status=1
echo
"$build/bench/ptoc-bench-memplan" "${quick[@]}" || status=1
echo
if ((${#quick[@]} == 0)); then
  python3 "$root/bench/sync_figures.py" "$build" || status=1
  echo
  python3 "$root/bench/model_figures.py" "$build" || status=1
fi
exit $status
