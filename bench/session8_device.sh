#!/usr/bin/env bash
# Kept as the record of that call: its racecheck names the test before 2b88c91 split it by type;
# bench/session9_device.sh is the one to run now.
# One GPU call (eighth session, about 9.5 min): what issues 17 and 18 still need after 7dc6b91.
#   1. bench/run_device.sh build python (the library, tests, Python module and its pytest run);
#   2. the SimdTargets tests (gamma f32 on every target: EMU128 failed on the H200 at 7dc6b91);
#   3. racecheck on FiltersCuda.ConvolveIdenticalToCpu with TEXCV_TEST_SANITIZER_SUBSET=1 (cut at
#      300 s at 7dc6b91; its 31x31 case now runs on a 40 x 36 corner in that mode);
#   4. bench/cpu_vs_opencv.py, every row on 16 threads, isolated order, 11 repetitions.
# run(command="bash bench/session8_device.sh", carry=[".devdeps", "COMMIT"], timeout_s=600)
# Files back (at most 8): summary_build.txt, simd.txt, sanitize.txt, cpu_iso16.txt,
# cpu_iso16.json, logs.tgz.
set -u
cd "$(dirname "$0")/.." || exit 1
FINAL=${OUT:-$PWD/out-session8}
mkdir -p "$FINAL"
W=$PWD/out-session8-work
mkdir -p "$W/build" "$W/san"
OUT=$W/build TEXCV_DEADLINE=250 TEXCV_HARD_LIMIT=300 bash bench/run_device.sh build python \
  >"$W/build/stdout.txt" 2>&1
cp "$W/build/summary.txt" "$FINAL/summary_build.txt" 2>/dev/null
cpu=$(find build-device -name test_cpu -type f -perm -u+x | head -1)
if [ -n "$cpu" ]; then
  timeout 60 "$cpu" --gtest_filter='SimdTargets.*' >"$FINAL/simd.txt" 2>&1
  echo "SimdTargets: rc $?" | tee -a "$FINAL/simd.txt"
else
  echo "no test_cpu under build-device" | tee "$FINAL/simd.txt"
fi
OUT=$W/san TEXCV_SANITIZE_PARTS=racecheck TEXCV_RACECHECK_SUITES=FiltersCuda.ConvolveIdenticalToCpu \
  TEXCV_RACECHECK_SECONDS=140 TEXCV_DEADLINE=150 TEXCV_HARD_LIMIT=160 \
  bash bench/run_device.sh sanitize >"$W/san/stdout.txt" 2>&1
cp "$W/san/sanitize.txt" "$FINAL/sanitize.txt" 2>/dev/null
tail -4 "$W/san/sanitize_racecheck_ConvolveIdenticalToCpu.log" >>"$FINAL/sanitize.txt" 2>/dev/null
if [ -d /tmp/texcv-pypkg/texcv ]; then
  PYTHONPATH=/tmp/texcv-pypkg timeout 110 python3 bench/cpu_vs_opencv.py --threads 16 --set all \
    --reps 11 --order isolated --out "$FINAL/cpu_iso16.json" >"$FINAL/cpu_iso16.txt" 2>&1
  echo "iso16: rc $?" >>"$FINAL/cpu_iso16.txt"
fi
(cd "$W" && tar czf "$FINAL/logs.tgz" build/*.log build/*.txt san/*.log san/*.txt 2>/dev/null)
cat "$FINAL"/summary_build.txt "$FINAL"/sanitize.txt 2>/dev/null | tail -30
tail -3 "$FINAL/simd.txt"
