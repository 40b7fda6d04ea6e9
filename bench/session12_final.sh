#!/usr/bin/env bash
# Twelfth session's closing call (carry [".devdeps", "COMMIT", "bench/batch/wheels-ray1"]): the
# build and the Python module (pytest on the GPU), every CUDA test (ctest -L cuda), then Ray's
# first wheel part stashed for the next call, which must follow within 30 s:
#   carry ["bench/batch/wheels-ray2"]:  bash bench/batch/issue19_device.sh stash install ray
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
T0=$(date +%s)
TEXCV_DEADLINE=330 TEXCV_HARD_LIMIT=560 bash bench/run_device.sh build python \
  >/tmp/run_device_log.txt 2>&1  # not in $OUT: run_device.sh packs $OUT into logs.tgz at its end
cp /tmp/run_device_log.txt "$OUT/"
grep -A6 "== stages" "$OUT/run_device_log.txt"
tail -3 "$OUT/pytest.log" 2>/dev/null
echo "== ctest -L cuda (at $(($(date +%s) - T0)) s)"
timeout 150 ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout 100 \
  >"$OUT/ctest_cuda.log" 2>&1
echo "ctest rc $?"
grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" "$OUT/ctest_cuda.log" | head -20
bash bench/batch/issue19_device.sh stash
echo "== done at $(($(date +%s) - T0)) s"
