#!/usr/bin/env bash
# Newcomer command 2: installs the test dependencies (scripts/install_deps.sh test), builds the
# library, the command, the examples, the benchmarks and all tests, runs every C++ test with
# ctest, then builds the Python package in .venv-ci and runs its tests (scripts/test_python.sh).
# After scripts/demo.sh in the same clone, the library and the command are not rebuilt: both
# scripts configure with the same flags (scripts/configure.sh). CUDA tests skip with a message
# when no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh test
# Tests and benchmarks ON explicitly: a build folder configured by scripts/demo.sh (both off) is
# reused, and its cached OFF would otherwise leave ctest nothing to run.
bash scripts/configure.sh -DTEXCV_REQUIRE_OPENCV_TESTS=ON -DTEXCV_BUILD_TESTS=ON \
  -DTEXCV_BUILD_BENCH=ON
build=${TEXCV_BUILD_DIR:-build}
bash scripts/build.sh test
ctest --test-dir "$build" --output-on-failure --no-tests=error -j "$(nproc)"
if ! grep -qE '^ +\[0\]' <<<"$("$build/bin/texcv" info)"; then
  echo "texcv: no GPU on this machine: the CUDA tests (ctest label 'cuda') were skipped, each" \
    "with its reason; they run on a GPU machine (see docs/performance.md for the last run)"
fi
echo "== Python package (scripts/test_python.sh)"
bash scripts/test_python.sh
