#!/usr/bin/env bash
# Where a texcv batch run's time goes, on the GPU machine after bench/batch/run.sh has made its
# data (bench/batch/data/<set>): the jpeg set with --device cuda and auto, each with
# TEXCV_BATCH_TIMING=1 (the workers' own account), and the TIFF set with the pinned input pool on
# and off (TEXCV_BATCH_PINNED_INPUT=1 / 0), in the order on, off, on. Prints each run's summary
# lines; and the jpeg set on --device cuda with the batched steps on and off
# (TEXCV_BATCH_BATCHED_STEPS=1 / 0). Usage: bash bench/batch/ab_engine.sh BUILD/bin/texcv [DATA]
# (DATA: run.sh's --data folder, default bench/batch/data).
set -u
texcv=${1:?texcv binary}
here=$(cd "$(dirname "$0")" && pwd)
data=${2:-$here/data}
# run.sh's pipelines
kernel="-1|-1|-1|-1|16|-1|-1|-1|-1"
jpeg_pipe="resize:scale=0.5;convolve:kernel=$kernel,scale=0.125"
tiff_pipe="crop:x=100,y=100,width=4800,height=4800;resize:scale=0.9;convolve:kernel=$kernel,scale=0.125"
show() { grep -E "images/s on|first file|joined|no CUDA worker|timing" | sed 's/^texcv batch: /  /'; }
if [ -d "$data/jpeg" ]; then
  for dev in cuda auto; do
    rm -rf /tmp/ab-jpeg
    echo "== jpeg --device $dev (TEXCV_BATCH_TIMING=1)"
    TEXCV_BATCH_TIMING=1 "$texcv" batch -i "$data/jpeg" -o /tmp/ab-jpeg -p "$jpeg_pipe" \
      --device "$dev" -q 90 2>&1 | show
  done
fi
if [ -d "$data/jpeg" ]; then
  for b in 1 0 1 0; do
    rm -rf /tmp/ab-jpeg
    echo "== jpeg --device cuda, TEXCV_BATCH_BATCHED_STEPS=$b (TEXCV_BATCH_TIMING=1)"
    TEXCV_BATCH_BATCHED_STEPS=$b TEXCV_BATCH_TIMING=1 "$texcv" batch -i "$data/jpeg" -o /tmp/ab-jpeg \
      -p "$jpeg_pipe" --device cuda -q 90 2>&1 | show
  done
fi
if [ -d "$data/tiff" ]; then
  for pin in 0 1 0 1; do
    for dev in cuda auto; do
      rm -rf /tmp/ab-tiff
      echo "== tiff --device $dev, TEXCV_BATCH_PINNED_INPUT=$pin"
      TEXCV_BATCH_PINNED_INPUT=$pin "$texcv" batch -i "$data/tiff" -o /tmp/ab-tiff \
        -p "$tiff_pipe" --device "$dev" --tiff-compression none 2>&1 | show
    done
  done
fi
rm -rf /tmp/ab-jpeg /tmp/ab-tiff
