#!/usr/bin/env bash
# parse_bench.sh: parse+verify+print speed and memory of ptoc-opt on synthetic
# PTO kernels of 10k and 100k ops (bench/gen_kernel.py). Prints the best of 3
# wall times, the peak RSS, and the 100k/10k ratios: near-linear growth means
# a ratio near 10. Not part of ctest; build first (scripts/build.sh).
#   bench/parse_bench.sh [PTOC_OPT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ptoc_opt=${1:-$root/build/tools/ptoc-opt}
[[ -x $ptoc_opt ]] || { echo "parse_bench.sh: no $ptoc_opt; run scripts/build.sh" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

declare -A secs rss
sizes=(10000 100000)
for n in "${sizes[@]}"; do
  python3 "$root/bench/gen_kernel.py" "$n" > "$work/k$n.pto" 2>/dev/null
  "$ptoc_opt" "$work/k$n.pto" > /dev/null   # fails loudly if the kernel does not verify
  read -r secs[$n] rss[$n] < <(python3 "$root/bench/measure.py" 3 "$ptoc_opt" "$work/k$n.pto")
done

printf '%-10s %10s %12s %14s\n' "ops" "bytes" "time (s)" "peak RSS (MiB)"
for n in "${sizes[@]}"; do
  printf '%-10s %10s %12s %14s\n' "$n" "$(stat -c %s "$work/k$n.pto")" "${secs[$n]}" \
         "$(python3 -c "print('%.1f' % (${rss[$n]} / 1024))")"
done
ratio() { python3 -c "print('%.1f' % ($1 / max($2, 1e-9)))"; }
echo "100k/10k ratio: time $(ratio "${secs[100000]}" "${secs[10000]}"), memory $(ratio "${rss[100000]}" "${rss[10000]}") (linear = 10)"
