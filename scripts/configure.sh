#!/usr/bin/env bash
# Configures the build folder ($TEXCV_BUILD_DIR, default build/) with CUDA when nvcc is found.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TEXCV_BUILD_DIR:-build}
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
