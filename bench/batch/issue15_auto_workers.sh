#!/usr/bin/env bash
# One device call (carry [".devdeps", "bench/batch/wheels", "COMMIT"]; ~5 min): builds texcv
# only, then bench/batch/ab_variants.sh on the 1,000 and 8,000 JPEGs: --device cuda, auto as
# is (16 CPU workers, one thread each), and auto with 8, 4 and 2 CPU workers of one thread each
# (TEXCV_BATCH_CPU_THREADS_EACH=1): whether fewer CPU workers let the GPU join sooner and run
# faster on --device auto (issue 15, item 2). At most 8 files back: summary.txt, logs.tgz,
# ab.txt, ab_logs.tgz.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
TEXCV_BUILD_TARGETS=texcv_cli TEXCV_DEADLINE=200 TEXCV_HARD_LIMIT=220 \
  bash bench/run_device.sh build >/dev/null 2>&1
grep -A4 "== stages" "$OUT/summary.txt"
E="TEXCV_BATCH_TIMING=1 TEXCV_BATCH_CPU_THREADS_EACH=1"
TEXCV_AB_SETS="jpeg jpegx" TEXCV_AB_REPEAT=3 TEXCV=$PWD/build-device/bin/texcv \
  timeout 300 bash bench/batch/ab_variants.sh \
  "cuda|texcv-cuda|TEXCV_BATCH_TIMING=1" "auto|texcv-auto|TEXCV_BATCH_TIMING=1" \
  "auto-w8|texcv-auto@workers=8|$E" "auto-w4|texcv-auto@workers=4|$E" \
  "auto-w2|texcv-auto@workers=2|$E" 2>&1 | tee "$OUT/ab.txt"
(cd "$OUT" && tar czf ab_logs.tgz ab ab_*.log && rm -rf ab ab_*.log)
ls "$OUT"
