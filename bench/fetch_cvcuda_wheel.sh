#!/usr/bin/env bash
# CV-CUDA's wheel for bench/peers.py on the GPU machine (CPython 3.12, manylinux x86_64, no
# network there): cvcuda-cu13 is 128 MB (its libcvcuda.so alone compresses to 113 MB; xz does not
# shrink it), over a call's 64 MiB carry, so it travels in three parts over three back-to-back
# calls on one warm machine (bench/cvcuda_device.sh stash ... install peers). Run this where PyPI
# is reachable; it writes bench/wheels-cvcuda1/2/3 (git-ignored).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ver=${CVCUDA_VERSION:-0.19.0}
tmp=$(mktemp -d)
python3 -m pip download --quiet --no-deps --python-version 3.12 --only-binary=:all: \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
  -d "$tmp" "cvcuda-cu13==$ver"
whl=$(ls "$tmp"/cvcuda_cu13-*.whl)
rm -rf "$here"/wheels-cvcuda1 "$here"/wheels-cvcuda2 "$here"/wheels-cvcuda3
mkdir -p "$here"/wheels-cvcuda1 "$here"/wheels-cvcuda2 "$here"/wheels-cvcuda3
split -b 44M "$whl" "$here/wheels-cvcuda1/$(basename "$whl").part-"
mv "$here/wheels-cvcuda1/$(basename "$whl").part-ab" "$here/wheels-cvcuda2/"
mv "$here/wheels-cvcuda1/$(basename "$whl").part-ac" "$here/wheels-cvcuda3/"
rm -rf "$tmp"
du -sh "$here"/wheels-cvcuda*
