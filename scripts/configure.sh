#!/usr/bin/env bash
# Configures the build folder ($TEXCV_BUILD_DIR, default build/) with CUDA when nvcc is found.
# scripts/demo.sh and scripts/test.sh both come through here with the same compile flags, so the
# second one run in a clone reuses every object the first built (only test and benchmark targets
# are added). Warnings are not errors here: CI checks the build logs for warnings (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TEXCV_BUILD_DIR:-build}
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
