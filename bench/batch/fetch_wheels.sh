#!/usr/bin/env bash
# Download the Python wheels the batch benchmark needs on the device machine (CPython 3.12,
# manylinux x86_64, no network there) into folders run.sh installs from offline. Run it on a
# machine with PyPI access; the folders are git-ignored (bench/batch/.gitignore): carry them.
#
#   bash bench/batch/fetch_wheels.sh           # bench/batch/wheels: pyvips (built from its
#                                              # sdist, pure Python), pyvips-binary (libvips
#                                              # itself), cffi, pycparser: about 8 MB
#   bash bench/batch/fetch_wheels.sh opencv    # also bench/batch/wheels-numpy (16 MB) and
#                                              # bench/batch/wheels-opencv (57 MB), only needed
#                                              # where python3 has no numpy / cv2
#
# A run's carry is limited to 64 MiB, so wheels-numpy and wheels-opencv travel in separate runs
# (run.sh installs whatever wheel folders it finds into its venv, which stays on a warm machine).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pip=(python3 -m pip download --quiet --python-version 3.12 --only-binary=:all:
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64
  --platform manylinux_2_28_x86_64)
# pyvips itself: recent releases (which load pyvips-binary's libvips) are published as an sdist
# only, and --only-binary would pick the old 2.1.0 wheel, which looks for a system libvips:
# build its pure-Python wheel here instead.
"${pip[@]}" -d "$here/wheels" pyvips-binary cffi
rm -f "$here"/wheels/pyvips-[0-9]*.whl
python3 -m pip wheel --quiet --no-deps --no-binary pyvips pyvips -w "$here/wheels"
if [ "${1:-}" = opencv ]; then
  "${pip[@]}" -d "$here/wheels-numpy" numpy
  "${pip[@]}" -d "$here/wheels-opencv" --no-deps opencv-python-headless
fi
du -sh "$here"/wheels*
