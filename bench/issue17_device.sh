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
#   ISSUE17_PHASE=3 (about 8 min, sixth session): phase 1's build and every ctest label, then the
#     rows that were above OpenCV in phase 1's 16-thread table, again with 21 repetitions, twice
#     (cpu_rows16_a/b.txt), and the issue's rows on 2 threads (cpu_issue_2.txt); `perf` on
#     bilateral d=9 u8 at 16 threads where the machine has perf.
#   ISSUE17_PHASE=4 (about 5 min): builds the Python module (run_device.sh build python), then
#     the rows still above OpenCV on 16 threads after phase 3 on 1, 2, 4, 8 and 16 threads each
#     (cpu_scale_<threads>.txt, 11 repetitions): where each library stops gaining from threads.
#   ISSUE17_PHASE=5 (about 8 min): build, every ctest label and the Python module, then the rows
#     above OpenCV in phases 3-4 on 16 threads with --order blocks (each library's calls
#     together: cpu_blocks16.txt), 11 repetitions. A next call on the warm machine can run
#     run_device.sh's sanitize stage on the same build.
#   ISSUE17_PHASE=6 (about 7 min; next session): build and the Python module, then every row on
#     16 threads with --order isolated (each library timed in a process of its own: the 16-thread
#     rows of phases 3-5 were bimodal, e.g. erode 3x3 0.3 ms or 5-8 ms, with both libraries'
#     pools in one process), 11 repetitions (cpu_isolated16.txt).
#   ISSUE17_PHASE=8 (about 8 min, ninth session): build and the Python module, then every row on
#     16 threads isolated at 4096 and at 256 (a call's fixed cost), and the issue's rows on 2.
#   ISSUE17_PHASE=7 (about 8 min; eighth session): build and the Python module, then every row on
#     16 threads with --order isolated twice (cpu_iso16_a/b.txt) and once on 8 threads
#     (cpu_iso8.txt), 11 repetitions, every repetition's time in the JSON: phase 6 (a1c9339) had
#     44 of 100 rows over 1.0, texcv's own times up to 8x off phase 5's (RGB to gray 0.5 -> 4.0
#     ms, erode 3x3 5.0 -> 0.4 ms): is a row bimodal within a run, between runs, or only at 16?
# At most 8 files come back: summary.txt, info.txt, cpu_*.txt, batch_table.md, logs<phase>.tgz.
set -u
cd "$(dirname "$0")/.." || exit 1
FINAL=${OUT:-$PWD/out-device}  # what comes back: a few files
export OUT=$PWD/out-device-issue17  # everything the scripts write
mkdir -p "$OUT" "$FINAL"
phase=${ISSUE17_PHASE:-1}
pkg=/tmp/texcv-pypkg  # what run_device.sh's python stage assembles
texcv_bin=build-device/bin/texcv
cpu_bench() {  # THREADS SET TIMEOUT [REPS FILTER TAG]
  local tag=${6:-${2}_$1}
  if [ -d "$pkg/texcv" ]; then
    PYTHONPATH=$pkg timeout "$3" python3 bench/cpu_vs_opencv.py --threads "$1" --set "$2" \
      --reps "${4:-5}" --filter "${5:-}" --out "$OUT/cpu_$tag.json" >"$OUT/cpu_$tag.txt" 2>&1
    echo "cpu_vs_opencv --threads $1 --set $2: rc $?"
  else
    echo "no Python package at $pkg: the python stage failed (see logs)" | tee "$OUT/cpu_$tag.txt"
  fi
}
if [ "$phase" = 1 ]; then
  TEXCV_DEADLINE=${TEXCV_DEADLINE:-400} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-560} \
    bash bench/run_device.sh build test python
  [ -x "$texcv_bin" ] && "$texcv_bin" info 2>&1 | sed -n 1,12p >"$OUT/info.txt"
  cpu_bench 16 all 110
elif [ "$phase" = 3 ]; then
  TEXCV_DEADLINE=${TEXCV_DEADLINE:-300} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-385} \
    bash bench/run_device.sh build test python
  [ -x "$texcv_bin" ] && "$texcv_bin" info 2>&1 | sed -n 1,12p >"$OUT/info.txt"
  # phase 1's rows above 1.0 at 16 threads (bb2af78), and four controls at or under it
  rows="3x3 convolution u8,resize 0.5 area RGB u8,rotate 30 linear f32,RGB to gray"
  rows+=",erode 3x3 u8,separable 5x3 u8,sobel dx 3x3 u8,sobel dy 5x5 f32,scharr dx u8"
  rows+=",sharpen u8,bilateral d=9 u8,erode 15x15 u8,resize 1.7 nearest u16"
  rows+=",resize 1.7 nearest f32,resize 0.3 linear u16,resize 0.3 cubic RGB u8"
  rows+=",resize 0.3 area f32,resize 1.7 area u8,crop 3/4 RGB u8,threshold binary f32"
  rows+=",dilate 3x3 u8,median 5x5 u8,resize 0.5 linear u8,gray to RGB u8"
  cpu_bench 16 all 50 21 "$rows" rows16_a
  cpu_bench 16 all 50 21 "$rows" rows16_b
  cpu_bench 2 issue 45 5 "" issue_2
  if command -v perf >/dev/null && [ -d "$pkg/texcv" ]; then
    PYTHONPATH=$pkg timeout 30 perf record -q -g -o "$OUT/perf.data" python3 \
      bench/cpu_vs_opencv.py --threads 16 --set all --reps 21 --filter "bilateral d=9 u8" \
      >/dev/null 2>&1
    perf report -i "$OUT/perf.data" --no-children --percent-limit 2 --stdio 2>/dev/null |
      head -60 >"$OUT/perf_bilateral.txt"
    rm -f "$OUT/perf.data"
  else
    echo "perf: not on this machine" >"$OUT/perf_bilateral.txt"
  fi
elif [ "$phase" = 5 ]; then
  TEXCV_DEADLINE=${TEXCV_DEADLINE:-300} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-420} \
    bash bench/run_device.sh build test python
  [ -x "$texcv_bin" ] && "$texcv_bin" info 2>&1 | sed -n 1,12p >"$OUT/info.txt"
  # the rows above 1.0 in phase 3's or 4's 16-thread runs, and two controls
  rows="RGB to gray,erode 3x3 u8,sobel dy 5x5 f32,bilateral d=9 u8,resize 1.7 nearest"
  rows+=",resize 0.3 cubic RGB u8,resize 1.7 area u8,crop 3/4 RGB u8,threshold binary f32"
  rows+=",dilate 3x3 u8,3x3 convolution u8,median 5x5 u8"
  PYTHONPATH=$pkg timeout 60 python3 bench/cpu_vs_opencv.py --threads 16 --set all --reps 11 \
    --order blocks --filter "$rows" >"$OUT/cpu_blocks16.txt" 2>&1
  echo "blocks: rc $?"
elif [ "$phase" = 6 ]; then
  TEXCV_DEADLINE=${TEXCV_DEADLINE:-250} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-300} \
    bash bench/run_device.sh build python
  [ -x "$texcv_bin" ] && "$texcv_bin" info 2>&1 | sed -n 1,12p >"$OUT/info.txt"
  PYTHONPATH=$pkg timeout 270 python3 bench/cpu_vs_opencv.py --threads 16 --set all --reps 11 \
    --order isolated --out "$OUT/cpu_isolated16.json" >"$OUT/cpu_isolated16.txt" 2>&1
  echo "isolated: rc $?"
elif [ "$phase" = 7 ]; then
  TEXCV_DEADLINE=${TEXCV_DEADLINE:-250} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-300} \
    bash bench/run_device.sh build python
  [ -x "$texcv_bin" ] && "$texcv_bin" info 2>&1 | sed -n 1,12p >"$OUT/info.txt"
  for run in "16 iso16_a" "16 iso16_b" "8 iso8"; do
    set -- $run
    PYTHONPATH=$pkg timeout 120 python3 bench/cpu_vs_opencv.py --threads "$1" --set all --reps 11 \
      --order isolated --out "$OUT/cpu_$2.json" >"$OUT/cpu_$2.txt" 2>&1
    echo "$2: rc $?"
  done
elif [ "$phase" = 8 ]; then
  # ninth session: the new one-channel shrink (77ae25a) and the Python call's cost (2f00dd8),
  # every row on 16 threads isolated at 4096 (cpu_iso16.txt), the same at 256x256
  # (cpu_small16.txt: a call's fixed cost, each library, as a profile of the sub-ms rows), and
  # the issue's rows on 2 threads isolated (cpu_issue2.txt).
  TEXCV_DEADLINE=${TEXCV_DEADLINE:-250} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-300} \
    bash bench/run_device.sh build python
  [ -x "$texcv_bin" ] && "$texcv_bin" info 2>&1 | sed -n 1,12p >"$OUT/info.txt"
  for run in "16 all 4096 iso16" "16 all 256 small16" "2 issue 4096 issue2"; do
    set -- $run
    PYTHONPATH=$pkg timeout 150 python3 bench/cpu_vs_opencv.py --threads "$1" --set "$2" \
      --size "$3" --reps 11 --order isolated --out "$OUT/cpu_$4.json" >"$OUT/cpu_$4.txt" 2>&1
    echo "$4: rc $?"
  done
elif [ "$phase" = 4 ]; then
  TEXCV_DEADLINE=${TEXCV_DEADLINE:-250} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-330} \
    bash bench/run_device.sh build python
  rows="bilateral d=9 u8,resize 0.3 cubic RGB u8,resize 1.7 nearest u16,RGB to gray"
  rows+=",resize 1.7 nearest f32,sobel dy 5x5 f32,dilate 3x3 u8"
  for t in 1 2 4 8 16; do cpu_bench "$t" all 45 11 "$rows" "scale_$t"; done
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
cp "$OUT"/summary.txt "$OUT"/info.txt "$OUT"/batch_table.md "$FINAL"/ 2>/dev/null
(cd "$OUT" && cat cpu_*.txt perf_*.txt 2>/dev/null) >"$FINAL/cpu_all.txt"
cat "$OUT"/cpu_*.txt "$OUT"/batch_table.md 2>/dev/null | tail -40
