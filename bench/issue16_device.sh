#!/usr/bin/env bash
# Issue 16's device call (first `git rev-parse HEAD > COMMIT`; carry [".devdeps", "COMMIT"];
# ~8 min): bench/run_device.sh build test bench. `test` runs every CUDA test, the float64-reference
# ones (tests/cpp/cuda/test_exact_cuda.cpp, ExactCuda*) among them, then ExactCuda* once more with
# TEXCV_EXACT_VERBOSE=1 (every combination's error). `bench` runs bench_geometry's resampling rows
# (resize, warp_affine, warp_perspective, rotate, remap; NPP in the same process) on every
# configuration (f32x1 8192², u8x1 16384², u16x1 8192², u8x4 4096²). Compare them with the rows
# of docs/performance.md measured before 05603fb (float32 positions): the double positions must
# cost at most 5 % (issue 16, item 4). At most 8 files come back: summary.txt, bench.txt,
# ctest_cuda.log, logs.tgz, exact_verbose.txt.
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
TEXCV_BENCH_FILTER=${TEXCV_BENCH_FILTER:-resize,warp,rotate,remap} \
  TEXCV_BENCH_CONFIGS=${TEXCV_BENCH_CONFIGS:-"f32x1 u8x1 u16x1 u8x4"} \
  TEXCV_DEADLINE=${TEXCV_DEADLINE:-420} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-500} \
  bash bench/run_device.sh build test bench
if [ -x build-device/tests/test_cuda ]; then
  TEXCV_EXACT_VERBOSE=1 timeout 60 build-device/tests/test_cuda --gtest_filter='ExactCuda*' \
    >"$OUT/exact_verbose.txt" 2>&1
  tail -5 "$OUT/exact_verbose.txt"
fi
