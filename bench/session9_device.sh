#!/usr/bin/env bash
# The next session's GPU calls for what 2b88c91..HEAD changed and never ran on a GPU, in two
# back-to-back calls on one warm machine (the second reuses the first's build-device/):
#   bash bench/session9_device.sh tests      (about 6 min) bench/run_device.sh build test python:
#     every ctest label (PipelineCuda.* and FiltersCuda.Convolve{U8,U16,F32}IdenticalToCpu are
#     new), the Python module with CUDA and pytest (texcv.Pipeline's CuPy/torch forms and
#     texcv.decode's nvJPEG lists are new);
#   bash bench/session9_device.sh racecheck  (about 8 min) racecheck on the three convolve tests
#     (issue 18's last item), 150 s each at most (the three together ran past 300 s).
# run(command=..., carry=[".devdeps", "COMMIT"], timeout_s=600). Then ISSUE17_PHASE=7 of
# bench/issue17_device.sh (16 and 8 threads on the new resize) if device time is left.
# Files back: summary.txt, pytest.txt or sanitize.txt, logs.tgz.
set -u
cd "$(dirname "$0")/.." || exit 1
FINAL=${OUT:-$PWD/out-session9}
mkdir -p "$FINAL"
W=$PWD/out-session9-work/${1:-tests}
mkdir -p "$W"
case "${1:-tests}" in
  tests)
    OUT=$W TEXCV_DEADLINE=400 TEXCV_HARD_LIMIT=540 bash bench/run_device.sh build test python \
      >"$W/stdout.txt" 2>&1
    tail -40 "$W/pytest.log" >"$FINAL/pytest.txt" 2>/dev/null
    ;;
  racecheck)
    OUT=$W TEXCV_SANITIZE_PARTS=racecheck TEXCV_RACECHECK_SECONDS=150 TEXCV_DEADLINE=500 \
      TEXCV_HARD_LIMIT=540 TEXCV_RACECHECK_SUITES="FiltersCuda.ConvolveU8IdenticalToCpu \
FiltersCuda.ConvolveU16IdenticalToCpu FiltersCuda.ConvolveF32IdenticalToCpu" \
      bash bench/run_device.sh sanitize >"$W/stdout.txt" 2>&1
    cp "$W/sanitize.txt" "$FINAL/sanitize.txt" 2>/dev/null
    ;;
  *)
    echo "session9_device.sh: tests or racecheck; got '$1'" >&2
    exit 2
    ;;
esac
cp "$W/summary.txt" "$FINAL/summary.txt" 2>/dev/null
(cd "$W" && tar czf "$FINAL/logs.tgz" ./*.log ./*.txt 2>/dev/null)
tail -30 "$FINAL/summary.txt" 2>/dev/null
