#!/usr/bin/env bash
# CV-CUDA's wheel for bench/peers.py on the GPU machine (CPython 3.12, manylinux x86_64, no
# network there): cvcuda-cu13 is 128 MB (its libcvcuda.so alone compresses to 113 MB; xz does not
# shrink it), over a call's 64 MiB carry, so it travels in parts over back-to-back calls on one
# warm machine (bench/cvcuda_device.sh stash ... install peers). Run this where PyPI
# is reachable; it writes bench/wheels-cvcuda1, 2, ... (git-ignored).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ver=${CVCUDA_VERSION:-0.19.0}
tmp=$(mktemp -d)
python3 -m pip download --quiet --no-deps --python-version 3.12 --only-binary=:all: \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
  -d "$tmp" "cvcuda-cu13==$ver"
whl=$(ls "$tmp"/cvcuda_cu13-*.whl)
# Parts: the first CVCUDA_FIRST_PART bytes (default 44M; smaller where that call also carries
# binaries), the rest in parts of CVCUDA_PART (default 44M), one folder each.
first=${CVCUDA_FIRST_PART:-44M}
part=${CVCUDA_PART:-44M}
rm -rf "$here"/wheels-cvcuda[0-9]*
mkdir -p "$here"/wheels-cvcuda1 "$tmp/rest"
name=$(basename "$whl")
head -c "$first" "$whl" >"$here/wheels-cvcuda1/$name.part-aa"
tail -c +"$(($(stat -c %s "$here/wheels-cvcuda1/$name.part-aa") + 1))" "$whl" >"$tmp/rest/rest"
(cd "$tmp/rest" && split -b "$part" rest "$name.part-a" && rm rest)
# part-aa is the first; the rest become part-ab, part-ac, ... (cvcuda_device.sh joins in name order)
sfx=(aa ab ac ad ae af ag ah)
i=1
for f in $(ls "$tmp/rest" | sort); do
  mkdir -p "$here/wheels-cvcuda$((i + 1))"
  mv "$tmp/rest/$f" "$here/wheels-cvcuda$((i + 1))/$name.part-${sfx[$i]}"
  i=$((i + 1))
done
rm -rf "$tmp"
du -sh "$here"/wheels-cvcuda*
ls "$here"/wheels-cvcuda*
