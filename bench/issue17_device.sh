#!/usr/bin/env bash
# Issue 17's device call, not yet run (first `bash bench/make_devdeps.sh` (it now carries Google
# Highway) and `git rev-parse HEAD > COMMIT`; carry [".devdeps", "bench/batch/wheels", "COMMIT"];
# about 8 min):
# 1. bench/run_device.sh build python: the library with Highway from .devdeps (hwy_DIR), the
#    Python module, pytest; `texcv info` then names the CPU SIMD target the dispatch chose.
# 2. bench/cpu_vs_opencv.py with the built module on 16 threads and on 2 (cv2 is the machine's
#    OpenCV 5: say so beside the 2-core table's OpenCV 4.6).
# 3. Item 5: bench/batch/run.sh --device cpu against OpenCV's pool on the 1,000-JPEG and the TIFF
#    sets (texcv-cpu and opencv only).
# At most 8 files come back: summary.txt, cpu_16.txt, cpu_2.txt, batch_table.md, logs.tgz.
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
TEXCV_DEADLINE=${TEXCV_DEADLINE:-200} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-260} \
  bash bench/run_device.sh build python
texcv_bin=build-device/bin/texcv
[ -x "$texcv_bin" ] && "$texcv_bin" info 2>&1 | sed -n 1,8p | tee "$OUT/info.txt"
pkg=/tmp/texcv-pypkg  # what run_device.sh's python stage assembled
if [ -d "$pkg/texcv" ]; then
  for t in 16 2; do
    PYTHONPATH=$pkg timeout 150 python3 bench/cpu_vs_opencv.py --threads "$t" --reps 7 \
      --out "$OUT/cpu_$t.json" 2>&1 | tee "$OUT/cpu_$t.txt"
  done
else
  echo "no Python package at $pkg: the python stage failed (see logs)" | tee "$OUT/cpu_16.txt"
fi
TEXCV=$PWD/$texcv_bin timeout 240 bash bench/batch/run.sh --sets "jpeg tiff" --jpeg 1000 \
  --tiff 32 --tools "texcv-cpu opencv" --repeat 3 >"$OUT/batch_run.log" 2>&1
echo "batch: rc $?"
grep -E "^\| (dataset|---|jpeg|tiff) " "$OUT/batch_run.log" | head -8 | tee "$OUT/batch_table.md"
(cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz ./*.log ./*.json 2>/dev/null)
