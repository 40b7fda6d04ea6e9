#!/usr/bin/env bash
# The next session's first GPU call (about 9.5 min), for what 2b88c91..HEAD changed and never ran
# on a GPU:
#   1. bench/run_device.sh build test python: every ctest label (PipelineCuda.* and the three
#      FiltersCuda.Convolve{U8,U16,F32}IdenticalToCpu are new), the Python module with CUDA and
#      pytest (texcv.Pipeline's CuPy/torch forms, texcv.decode's nvJPEG lists: new);
#   2. racecheck on the three convolve tests (issue 18's last item), 60 s each at most.
# run(command="bash bench/session9_device.sh", carry=[".devdeps", "COMMIT"], timeout_s=600);
# then, on the warm machine, ISSUE17_PHASE=7 and ISSUE17_PHASE=2 of bench/issue17_device.sh.
# Files back: summary_build.txt, pytest.txt, sanitize.txt, logs.tgz.
set -u
cd "$(dirname "$0")/.." || exit 1
FINAL=${OUT:-$PWD/out-session9}
mkdir -p "$FINAL"
W=$PWD/out-session9-work
mkdir -p "$W/build" "$W/san"
OUT=$W/build TEXCV_DEADLINE=330 TEXCV_HARD_LIMIT=380 bash bench/run_device.sh build test python \
  >"$W/build/stdout.txt" 2>&1
cp "$W/build/summary.txt" "$FINAL/summary_build.txt" 2>/dev/null
tail -40 "$W/build/pytest.log" >"$FINAL/pytest.txt" 2>/dev/null
OUT=$W/san TEXCV_SANITIZE_PARTS=racecheck TEXCV_RACECHECK_SECONDS=60 TEXCV_DEADLINE=190 \
  TEXCV_HARD_LIMIT=195 TEXCV_RACECHECK_SUITES="FiltersCuda.ConvolveU8IdenticalToCpu \
FiltersCuda.ConvolveU16IdenticalToCpu FiltersCuda.ConvolveF32IdenticalToCpu" \
  bash bench/run_device.sh sanitize >"$W/san/stdout.txt" 2>&1
cp "$W/san/sanitize.txt" "$FINAL/sanitize.txt" 2>/dev/null
(cd "$W" && tar czf "$FINAL/logs.tgz" build/*.log build/*.txt san/*.log san/*.txt 2>/dev/null)
cat "$FINAL"/summary_build.txt "$FINAL"/sanitize.txt 2>/dev/null | tail -30
