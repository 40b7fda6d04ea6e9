#!/usr/bin/env bash
# One device call for issue 15 (first `git rev-parse HEAD > COMMIT`, then run it with carry
# [".devdeps", "bench/batch/wheels", "COMMIT"]: the device's copy of .git can still be at the
# session's first commit, and run_device.sh and run.sh then name that one): the CPU's
# topology, then bench/run_device.sh build test batch with the sets and tools of the issue's
# table (1,000 JPEGs, 8,000 JPEGs, 32 TIFFs; median of 3), then where a CUDA worker's set-up goes
# (bench/batch/timing.sh on the 1,000 JPEGs). Results under $OUT: summary.txt, logs.tgz (every
# tool's log and report), cpu.txt, timing.txt. About 7-8 minutes on the H200 from a cold build.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
lscpu | grep -E "^(CPU\(s\)|Thread|Core|Socket|Model name|NUMA node\(s\))" >"$OUT/cpu.txt"
cat "$OUT/cpu.txt"
export TEXCV_DEADLINE=${TEXCV_DEADLINE:-520} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-545}
export TEXCV_BATCH_SETS=${TEXCV_BATCH_SETS:-"jpeg jpegx tiff"} TEXCV_BATCH_JPEG=${TEXCV_BATCH_JPEG:-1000}
export TEXCV_BATCH_JPEGX=${TEXCV_BATCH_JPEGX:-8} TEXCV_BATCH_TIFF=${TEXCV_BATCH_TIFF:-32}
export TEXCV_BATCH_REPEAT=${TEXCV_BATCH_REPEAT:-3}
export TEXCV_BATCH_TOOLS=${TEXCV_BATCH_TOOLS:-"texcv-auto texcv-cuda texcv-cpu opencv vips"}
export TEXCV_BATCH_JPEGX_TOOLS=${TEXCV_BATCH_JPEGX_TOOLS:-"texcv-auto texcv-cuda"}
bash bench/run_device.sh ${STAGES:-build test batch}
kernel="-1|-1|-1|-1|16|-1|-1|-1|-1"
bash bench/batch/timing.sh build-device/bin/texcv /tmp/texcv-batch-data/jpeg \
  "resize:scale=0.5;convolve:kernel=$kernel,scale=0.125" "devices=0" 2>&1 | tee "$OUT/timing.txt"
