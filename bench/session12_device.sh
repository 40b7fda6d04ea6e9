#!/usr/bin/env bash
# Twelfth session's first call (carry [".devdeps", "COMMIT", "bench/batch/wheels-ray1"]): the
# build and the Python module (run_device.sh build python: pytest on the GPU), then issue 19's
# actor stage (texcv.ray.Processor in batches of 64 to 8000 paths, no Ray, between command
# runs), then stash Ray's first wheel part for the next call, which must follow within 30 s:
#   carry ["bench/batch/wheels-ray2"]:  bash bench/batch/issue19_device.sh stash install ray
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
T0=$(date +%s)
TEXCV_DEADLINE=330 TEXCV_HARD_LIMIT=560 bash bench/run_device.sh build python \
  >/tmp/run_device_log.txt 2>&1  # not in $OUT: run_device.sh packs $OUT into logs.tgz at its end
cp /tmp/run_device_log.txt "$OUT/"
grep -A6 "== stages" "$OUT/run_device_log.txt"
tail -3 "$OUT/pytest.log" 2>/dev/null
echo "== actor (at $(($(date +%s) - T0)) s)"
timeout 200 bash bench/batch/issue19_device.sh actor 2>&1 | tail -22
bash bench/batch/issue19_device.sh stash
echo "== done at $(($(date +%s) - T0)) s"
