#!/usr/bin/env bash
# Where a GPU worker's time goes: runs `texcv batch` once per option set with
# TEXCV_BATCH_TIMING=1 (each CUDA worker prints its first file, its first hardware-decode batch,
# and then per file: input, steps, JPEG encode, download, batch decode; every phase waits for its
# GPU work, so the run is a little slower than an untimed one) and prints texcv's own lines.
#
#   bash bench/batch/timing.sh TEXCV INPUT_FOLDER PIPELINE "devices=0 devices=0,1@streams=1 ..."
#
# Each option set is like run.sh's tool options: devices=0,1@streams=4 -> --devices 0,1
# --streams 4. Outputs go to a temporary folder, removed after each run; the page cache is
# written back (sync) before each run, as run.sh does.
set -uo pipefail
texcv=$1 in=$2 pipe=$3 specs=$4
out=$(mktemp -d)
for spec in $specs; do
  opts=()
  rest=$spec
  while [ -n "$rest" ]; do
    kv=${rest%%@*}
    opts+=("--${kv%%=*}" "${kv#*=}")
    [ "$kv" = "$rest" ] && rest="" || rest=${rest#*@}
  done
  echo "== $spec"
  rm -rf "$out/o"
  # The previous run's outputs still being written back would throttle this run's writes.
  sync
  TEXCV_BATCH_TIMING=1 "$texcv" batch -i "$in" -o "$out/o" -p "$pipe" --device cuda -q 90 \
    --tiff-compression none "${opts[@]}" 2>&1 | grep -E "timing|images/s on|time before" |
    sed 's/^texcv batch: //'
done
rm -rf "$out"
