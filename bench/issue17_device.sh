#!/usr/bin/env bash
# Issue 17's device calls (first `bash bench/make_devdeps.sh` (it carries Google Highway) and
# `git rev-parse HEAD > COMMIT`; carry [".devdeps", "bench/batch/wheels", "COMMIT"]). Two
# phases, each under 10 min, run back to back so that the second finds the first's build:
#   ISSUE17_PHASE=1 (default, about 8 min): bench/run_device.sh build test python: the library with
#     Highway from .devdeps (hwy_DIR), every ctest label (CUDA included), the Python module and
#     pytest; `texcv info` (the CPU SIMD target the dispatch chose); bench/cpu_vs_opencv.py
#     --set all on 16 threads (cv2 is the machine's OpenCV 5).
#   ISSUE17_PHASE=2 (about 3 min): bench/cpu_vs_opencv.py --set issue on 2 threads; item 5:
#     bench/batch/run.sh with texcv-cpu and OpenCV's pool on the 1,000-JPEG and the TIFF sets.
#     Rebuilds (build python, no tests) if the machine went back.
# At most 8 files come back: summary.txt, info.txt, cpu_*.txt, batch_table.md, logs<phase>.tgz.
set -u
cd "$(dirname "$0")/.." || exit 1
FINAL=${OUT:-$PWD/out-device}  # what comes back: a few files
export OUT=$PWD/out-device-issue17  # everything the scripts write
mkdir -p "$OUT" "$FINAL"
phase=${ISSUE17_PHASE:-1}
pkg=/tmp/texcv-pypkg  # what run_device.sh's python stage assembles
texcv_bin=build-device/bin/texcv
cpu_bench() {  # THREADS SET TIMEOUT
  if [ -d "$pkg/texcv" ]; then
    PYTHONPATH=$pkg timeout "$3" python3 bench/cpu_vs_opencv.py --threads "$1" --set "$2" \
      --reps 5 --out "$OUT/cpu_${2}_$1.json" >"$OUT/cpu_${2}_$1.txt" 2>&1
    echo "cpu_vs_opencv --threads $1 --set $2: rc $?"
  else
    echo "no Python package at $pkg: the python stage failed (see logs)" | tee "$OUT/cpu_${2}_$1.txt"
  fi
}
if [ "$phase" = 1 ]; then
  TEXCV_DEADLINE=${TEXCV_DEADLINE:-400} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-560} \
    bash bench/run_device.sh build test python
  [ -x "$texcv_bin" ] && "$texcv_bin" info 2>&1 | sed -n 1,12p >"$OUT/info.txt"
  cpu_bench 16 all 110
else
  if [ ! -d "$pkg/texcv" ] || [ ! -x "$texcv_bin" ]; then
    echo "phase 2 on a fresh machine: building again"
    TEXCV_DEADLINE=200 TEXCV_HARD_LIMIT=300 bash bench/run_device.sh build python >/dev/null
  fi
  cpu_bench 2 issue 90
  TEXCV=$PWD/$texcv_bin timeout 200 bash bench/batch/run.sh --sets "jpeg tiff" --jpeg 1000 \
    --tiff 32 --tools "texcv-cpu opencv" --repeat 3 >"$OUT/batch_run.log" 2>&1
  echo "batch: rc $?"
  grep -E "^\| (dataset|---|jpeg|tiff) " "$OUT/batch_run.log" | head -8 >"$OUT/batch_table.md"
fi
(cd "$OUT" && tar czf "$FINAL/logs$phase.tgz" ./*.log ./*.json ./*.txt 2>/dev/null)
cp "$OUT"/summary.txt "$OUT"/info.txt "$OUT"/cpu_*.txt "$OUT"/batch_table.md "$FINAL"/ 2>/dev/null
cat "$OUT"/cpu_*.txt "$OUT"/batch_table.md 2>/dev/null | tail -40
