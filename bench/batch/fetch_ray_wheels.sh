#!/usr/bin/env bash
# The wheels issue19_device.sh installs on the GPU machine (CPython 3.12, manylinux x86_64, no
# network there), split to fit three calls' 64 MiB carries (with the checkout, about 6 MB, and in
# the first call .devdeps, 12 MB):
#   bench/batch/wheels-ray1/  the first 40 MB of ray's wheel (79 MB)
#   bench/batch/wheels-ray2/  the rest of ray's wheel, pandas and the small dependencies
#   bench/batch/wheels-ray3/  pyarrow (55 MB)
# numpy is not fetched: the machine's own stays. Run it on a machine with PyPI access.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ver=${RAY_VERSION:-2.60.0}
tmp=$(mktemp -d)
python3 -m pip download --quiet --python-version 3.12 --only-binary=:all: \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux_2_28_x86_64 -d "$tmp" "ray[data]==$ver"
rm -rf "$here"/wheels-ray1 "$here"/wheels-ray2 "$here"/wheels-ray3
mkdir -p "$here"/wheels-ray1 "$here"/wheels-ray2 "$here"/wheels-ray3
rm -f "$tmp"/numpy-*.whl
ray=$(ls "$tmp"/ray-*.whl)
split -b 40M "$ray" "$here/wheels-ray1/$(basename "$ray").part-"
mv "$here/wheels-ray1/$(basename "$ray").part-ab" "$here/wheels-ray2/"
rm "$ray"
mv "$tmp"/pyarrow-*.whl "$here/wheels-ray3/"
mv "$tmp"/*.whl "$here/wheels-ray2/"
rm -rf "$tmp"
du -sh "$here"/wheels-ray*
