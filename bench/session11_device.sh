#!/usr/bin/env bash
# Eleventh session's device call (carry [".devdeps", "COMMIT"]), sized for about 480 s of a
# cold machine: the build and the Python module (run_device.sh build python: pytest on the GPU,
# test_gpu.py's CuPy and torch paths included), then every CUDA test (ctest -L cuda), then, if
# time is left, issue19_device.sh's batchpy stage with 2 runs of each tool.
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
T0=$(date +%s)
# TEXCV_S11_CUDA_ONLY=1 (a short budget): only the CUDA tests' binary, no Python, no batchpy.
if [ "${TEXCV_S11_CUDA_ONLY:-0}" = 1 ]; then
  TEXCV_BUILD_TARGETS=test_cuda TEXCV_DEADLINE=330 TEXCV_HARD_LIMIT=560 \
    bash bench/run_device.sh build >"$OUT/run_device.txt" 2>&1
else
  TEXCV_DEADLINE=330 TEXCV_HARD_LIMIT=560 bash bench/run_device.sh build python \
    >"$OUT/run_device.txt" 2>&1
fi
grep -A6 "== stages" "$OUT/run_device.txt"
tail -3 "$OUT/pytest.log" 2>/dev/null
echo "== ctest -L cuda (at $(($(date +%s) - T0)) s)"
timeout 130 ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout 100 \
  >"$OUT/ctest_cuda.log" 2>&1
echo "ctest rc $?"
grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" "$OUT/ctest_cuda.log" | head -20
if [ "${TEXCV_S11_CUDA_ONLY:-0}" != 1 ] && [ $(($(date +%s) - T0)) -lt 400 ]; then
  echo "== batchpy (at $(($(date +%s) - T0)) s)"
  TEXCV_BATCHPY_RUNS=2 timeout 90 bash bench/batch/issue19_device.sh batchpy 2>&1 | tail -8
fi
echo "== done at $(($(date +%s) - T0)) s"
