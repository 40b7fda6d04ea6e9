#!/usr/bin/env bash
# One device call (carry [".devdeps", "bench/batch/wheels", "COMMIT"]; ~8 min): build and every
# test (bench/run_device.sh build test), then bench/batch/ab_variants.sh on the 1,000 and 8,000
# JPEGs: the nvJPEG simple handle made lazily (the default since 2026-12-03) against the eager
# set-up (TEXCV_BATCH_EAGER_SIMPLE_HANDLE=1) on auto and cuda, auto with 8 decode threads and
# CPU workers, cuda with 3 and 4 streams, and OpenCV's pool in the same call. Results under $OUT.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
TEXCV_DEADLINE=${TEXCV_DEADLINE:-300} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-330} \
  bash bench/run_device.sh ${STAGES:-build test} >"$OUT/device_run.log" 2>&1
grep -E "^(stage|==)|tests passed|tests failed|warning" "$OUT/device_run.log" | head -40
T=1
TEXCV_AB_SETS=${TEXCV_AB_SETS:-"jpeg jpegx"} TEXCV_AB_REPEAT=${TEXCV_AB_REPEAT:-3} \
  TEXCV=$PWD/build-device/bin/texcv timeout 250 bash bench/batch/ab_variants.sh \
  "lazy-auto|texcv-auto|TEXCV_BATCH_TIMING=$T" \
  "eager-auto|texcv-auto|TEXCV_BATCH_TIMING=$T TEXCV_BATCH_EAGER_SIMPLE_HANDLE=1" \
  "lazy-cuda|texcv-cuda|TEXCV_BATCH_TIMING=$T" \
  "eager-cuda|texcv-cuda|TEXCV_BATCH_TIMING=$T TEXCV_BATCH_EAGER_SIMPLE_HANDLE=1" \
  "auto8|texcv-auto@decode-threads=8@workers=8|TEXCV_BATCH_TIMING=$T" \
  "cuda-s3|texcv-cuda@streams=3|TEXCV_BATCH_TIMING=$T" \
  "cuda-s4|texcv-cuda@streams=4|TEXCV_BATCH_TIMING=$T" \
  2>&1 | tee "$OUT/ab.txt"
TEXCV_AB_SETS=jpeg TEXCV=$PWD/build-device/bin/texcv timeout 40 bash bench/batch/ab_variants.sh \
  "opencv|opencv|" 2>&1 | tee -a "$OUT/ab.txt"
# Where the set-up goes, from each variant's logs.
for d in "$OUT"/ab/*/; do
  echo "== $(basename "$d")"
  grep -h -iE "set-up|setup|joined|first file|handles|runtime" "$d"logs/*.log 2>/dev/null | sort | uniq -c | sort -rn | head -12
done >"$OUT/setup_lines.txt"
tar czf "$OUT/ab_logs.tgz" -C "$OUT" ab 2>/dev/null && rm -rf "$OUT/ab"
