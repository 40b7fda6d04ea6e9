#!/usr/bin/env bash
# Rough profile of texcv batch's process stage on the TIFF task: runs the pipeline's prefixes
# (crop; crop+resize; crop+resize+convolve) and each step alone on CPU, and prints the mean
# read / process / write milliseconds per file from texcv's --report.
#
#   bash bench/batch/profile_steps.sh [IN_DIR] [DEVICE]   (default bench/batch/work/inputs-tiff cpu)
# Environment: TEXCV (the binary, default build-bbench/bin/texcv), PYTHON (default python3).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
in=${1:-$here/work/inputs-tiff}
dev=${2:-cpu}
texcv=${TEXCV:-$root/build-bbench/bin/texcv}
py=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
crop="crop:x=100,y=100,width=4800,height=4800"
resize="resize:scale=0.9"
conv="convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125"
i=0
for p in "$crop" "$crop;$resize" "$crop;$resize;$conv" "$resize" "$conv"; do
  i=$((i + 1))
  "$texcv" batch -i "$in" -o "$tmp/o$i" -d "$dev" -p "$p" --quiet --report "$tmp/r$i.jsonl"
  echo "$p"
  echo "  $("$py" "$here/measure.py" stages "$tmp/r$i.jsonl")"
  rm -rf "$tmp/o$i"
done
