#!/usr/bin/env bash
# This session's last device call for issue 15 (carry [".devdeps", "bench/batch/wheels",
# "COMMIT"]): the set-up probe (bench/batch/setup_under_load.cpp, built here with nvcc), then
# bench/batch/issue15_device.sh (build, tests, the benchmark of record, timing), then
# bench/batch/ab_variants.sh on the build's texcv (the 1,000-JPEG set: --device auto as is and
# with 12 decode threads and CPU workers). About 8 minutes.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
{
  if nvcc -O2 -std=c++20 -o /tmp/setup_under_load bench/batch/setup_under_load.cpp -lnvjpeg; then
    for l in none spin churn churnk; do timeout 20 /tmp/setup_under_load $l 16 1; done
    timeout 20 /tmp/setup_under_load none 0 0
    timeout 20 /tmp/setup_under_load churn 16 0
  fi
} 2>&1 | tee "$OUT/probe.txt"
TEXCV_DEADLINE=${TEXCV_DEADLINE:-380} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-430} \
  bash bench/batch/issue15_device.sh >"$OUT/device_run.log" 2>&1
grep -A8 "== stages" "$OUT/device_run.log"

TEXCV_AB_REPEAT=3 TEXCV=$PWD/build-device/bin/texcv timeout 60 bash bench/batch/ab_variants.sh \
  "base|texcv-auto|" "dec12|texcv-auto@decode-threads=12@workers=12|" \
  2>&1 | tee "$OUT/ab.txt"
