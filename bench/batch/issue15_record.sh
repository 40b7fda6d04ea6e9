#!/usr/bin/env bash
# The issue-15 benchmark of record in one device call (first `git rev-parse HEAD > COMMIT`;
# carry [".devdeps", "bench/batch/wheels", "COMMIT"]; ~8 min): bench/batch/issue15_device.sh
# (build, every test, the Batch* tests, bench/batch/run.sh on the three sets with every tool,
# timing.sh), with the page cache's dirty and writeback sizes sampled every 0.5 s through it
# (the write stage of the 8,000-JPEG runs varied 5-36 s summed between runs of one call), the
# file system and memory limits, and one run of --streams 4 (rc and files). The tool brings
# back at most 8 files: everything ends up in summary.txt, ctest_cuda.log, logs.tgz, extra.txt.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
X=/tmp/issue15_extra
mkdir -p $X
{
  echo "== file systems"
  df -T /tmp / 2>&1
  grep -E " / | /tmp " /proc/mounts
  echo "== vm"
  for f in dirty_ratio dirty_background_ratio dirty_bytes dirty_background_bytes dirty_expire_centisecs; do
    echo "$f $(cat /proc/sys/vm/$f)"
  done
  echo "== cgroup"
  cat /proc/self/cgroup
  for f in memory.max memory.high memory.current io.max; do
    [ -f /sys/fs/cgroup/$f ] && echo "$f $(cat /sys/fs/cgroup/$f)"
  done
} >$X/fsinfo.txt 2>&1
(while true; do
  echo "$(date +%s.%N | cut -c1-14) $(grep -E '^(Dirty|Writeback):' /proc/meminfo | awk '{printf "%s %s ", $1, $2}')"
  sleep 0.5
done) >$X/dirty.txt 2>&1 &
MON=$!
TEXCV_DEADLINE=${TEXCV_DEADLINE:-490} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-520} \
  bash bench/batch/issue15_device.sh >$X/device_run.log 2>&1
kill $MON 2>/dev/null
if [ -x build-device/bin/texcv ] && [ -d /tmp/texcv-batch-data/jpeg ]; then
  rm -rf /tmp/s4out
  build-device/bin/texcv batch -i /tmp/texcv-batch-data/jpeg -o /tmp/s4out -p "resize:scale=0.5" \
    -d cuda --streams 4 -f jpeg -q 90 >$X/streams4.txt 2>&1
  echo "rc $? outputs $(find /tmp/s4out -type f | wc -l)" >>$X/streams4.txt
fi
{
  for f in fsinfo streams4; do echo "=== $f"; cat $X/$f.txt; done
  echo "=== device_run.log (tail)"; tail -60 $X/device_run.log
} >"$OUT/extra.txt"
tar czf "$OUT/extra_logs.tgz" -C $X . 2>/dev/null
ls "$OUT"
grep -A12 "== stages" "$OUT/summary.txt" 2>/dev/null
