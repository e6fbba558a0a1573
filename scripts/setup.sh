#!/usr/bin/env bash
# setup.sh: install the Debian packages ptoc needs, only those that are missing.
# Runs apt-get as root, or through sudo otherwise. Prints nothing when all are
# present. Debian 12 (bookworm) has LLVM 19 in its main archive.
set -euo pipefail

packages=(
  gcc libc6-dev cmake ninja-build pkg-config python3   # build
  llvm-19-dev libffi-dev                     # libraries ptoc links
  llvm-19-tools                              # lit, FileCheck, not, split-file
  mlir-19-tools                              # mlir-opt for the conformance test
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "setup.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
