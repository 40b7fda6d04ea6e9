#!/usr/bin/env bash
# A device call for issue 15's --device auto questions (carry as for issue15_device.sh:
# [".devdeps", "bench/batch/wheels", "COMMIT"]): the build, then on the 1,000- and 8,000-JPEG
# sets of bench/batch/run.sh
#   1. where the time goes: texcv-auto and texcv-cuda once each with TEXCV_BATCH_TIMING=1 (every
#      worker's set-up and per-file time, the engine's waits for files and for the queue's lock);
#   2. A/B, each median of 3 in one run.sh call per variant: the decode and encode threads' nice
#      value in --device auto (TEXCV_BATCH_PIPELINE_NICE=0 against the default), and the exit
#      handed to a helper (TEXCV_EXIT_HANDOFF=0 against the default) on --device cuda.
# Results under $OUT: diag.txt (the timing lines and the tables), logs.tgz. About 5 minutes.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
export TEXCV_DEADLINE=${TEXCV_DEADLINE:-200} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-560}
bash bench/run_device.sh build >"$OUT/build_stage.log" 2>&1
tail -5 "$OUT/build_stage.log"
T=build-device/bin/texcv
[ -x "$T" ] || { echo "no texcv binary"; exit 1; }
run() {  # NAME SETS TOOLS REPEAT [ENV=VALUE...]
  local name=$1 sets=$2 tools=$3 rep=$4
  shift 4
  env "$@" TEXCV="$PWD/$T" OUT="$OUT/$name" timeout 150 bash bench/batch/run.sh --sets "$sets" \
    --jpeg 1000 --jpegx 8 --repeat "$rep" --tools "$tools" --jpegx-tools "$tools" \
    --data /tmp/texcv-batch-data --work /tmp/texcv-batch-work >"$OUT/$name.log" 2>&1
  echo "== $name ($*)"
  [ -f "$OUT/$name/table.md" ] && cut -d'|' -f2-8 "$OUT/$name/table.md"
}
{
  run timing "jpeg jpegx" "texcv-auto texcv-cuda" 1 TEXCV_BATCH_TIMING=1
  for f in "$OUT"/timing/logs/*-1.log; do
    echo "-- $(basename "$f")"
    grep -E "timing|engine:|joined|images/s on|time before" "$f" | sed 's/^texcv batch: //' | cut -c1-400
  done
  run nice0 jpeg texcv-auto 3 TEXCV_BATCH_PIPELINE_NICE=0
  run nice5 jpeg texcv-auto 3 TEXCV_BATCH_PIPELINE_NICE=5
  run exit0 jpeg texcv-cuda 3 TEXCV_EXIT_HANDOFF=0
  run exit1 jpeg texcv-cuda 3 TEXCV_EXIT_HANDOFF=1
  for n in nice0 nice5; do
    echo "-- $n"
    grep -h "joined" "$OUT"/$n/logs/*.log | sed 's/^texcv batch: //'
  done
} 2>&1 | tee "$OUT/diag.txt"
tar czf "$OUT/logs.tgz" -C "$OUT" --exclude logs.tgz . 2>/dev/null
