#!/usr/bin/env bash
# On the GPU machine: what the corrupt-data check of issue 14 costs texcv batch on the GPU. Each
# JPEG the CUDA workers decode with nvJPEG is first checked on the decode threads by
# libjpeg-turbo's entropy decoder (texcv::check_jpeg). The variant built with
# -DTEXCV_AB_NO_JPEG_CHECK=ON skips that check (a benchmark variant only: never ship it). Both
# binaries run bench/batch's JPEG task (TEXCV_BATCH_JPEG files, default 1000) with texcv-cuda,
# in the order checked, unchecked, checked (ABA: drift shows), TEXCV_BATCH_REPEAT runs each
# (default 3), then OpenCV's pool once for scale. Carry .devdeps (bench/make_devdeps.sh).
#   bash bench/ab_jpeg_check.sh        # writes under $OUT (default out-ab/)
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/out-ab}
mkdir -p "$OUT"
B=${TEXCV_BUILD_DIR:-$ROOT/build-device}
OUT=$OUT TEXCV_DEADLINE=${TEXCV_DEADLINE:-200} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-300} \
  bash bench/run_device.sh build >"$OUT/build_stage.log" 2>&1
cp "$B/bin/texcv" /tmp/texcv-checked || { echo "no texcv built"; tail -20 "$OUT/build_stage.log"; exit 1; }
{ cmake "$B" -DTEXCV_AB_NO_JPEG_CHECK=ON && cmake --build "$B" --target texcv_cli; } \
  >"$OUT/build_unchecked.log" 2>&1 && cp "$B/bin/texcv" /tmp/texcv-unchecked
cmake "$B" -DTEXCV_AB_NO_JPEG_CHECK=OFF >/dev/null 2>&1
[ -x /tmp/texcv-unchecked ] || { echo "unchecked variant: build FAILED"; tail -20 "$OUT/build_unchecked.log"; exit 1; }
# run.sh needs numpy and cv2: the first python3 on PATH that has them.
py=""
for p in python3 /usr/local/bin/python3 /usr/bin/python3; do
  "$p" -c 'import numpy, cv2' 2>/dev/null && { py=$(command -v "$p"); break; }
done
n=${TEXCV_BATCH_JPEG:-1000}
reps=${TEXCV_BATCH_REPEAT:-3}
k=0
for v in checked unchecked checked; do
  k=$((k + 1))
  echo "== $k: $v" | tee -a "$OUT/ab.txt"
  PYTHON=$py TEXCV=/tmp/texcv-$v OUT="$OUT/$k-$v" timeout 200 bash bench/batch/run.sh --sets jpeg \
    --jpeg "$n" --repeat "$reps" --tools texcv-cuda --data /tmp/texcv-batch-data \
    --work /tmp/texcv-batch-work >"$OUT/$k-$v.log" 2>&1 || echo "$v: run.sh exit $?"
  grep -E "^texcv: [0-9]+ ok|mean ms per file| jpeg texcv-cuda" "$OUT/$k-$v.log" | tee -a "$OUT/ab.txt"
done
echo "== opencv" | tee -a "$OUT/ab.txt"
PYTHON=$py TEXCV=/tmp/texcv-checked OUT="$OUT/opencv" timeout 120 bash bench/batch/run.sh --sets jpeg \
  --jpeg "$n" --repeat 1 --tools opencv --data /tmp/texcv-batch-data \
  --work /tmp/texcv-batch-work >"$OUT/opencv.log" 2>&1
grep -E " jpeg opencv" "$OUT/opencv.log" | tee -a "$OUT/ab.txt"
