#!/usr/bin/env bash
# The batch-benchmark tasks with the `vips` command-line tool (Debian: libvips-tools), one file
# after another, as the shell version of the libvips benchmark: each step is one vips command
# and the intermediates are vips's own .v files in a temporary folder.
#   tiff: vips crop (100 px from every edge) -> vips reduce 1/0.9 --kernel linear ->
#         vips conv with the matrix [[-1,-1,-1],[-1,16,-1],[-1,-1,-1]] / 8, --precision integer
#         -> TIFF (uncompressed, vips's default)
#   jpeg: vips resize 0.5 --kernel linear -> the same conv -> JPEG Q=90, 4:2:0
#
#   bash bench/batch/vips_cli.sh tiff|jpeg IN_DIR OUT_DIR
set -euo pipefail
task=$1 in=$2 out=$3
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '3 3 8 0\n-1 -1 -1\n-1 16 -1\n-1 -1 -1\n' >"$tmp/mask.con"
n=0
for f in "$in"/*; do
  name=$(basename "$f")
  stem=${name%.*}
  if [ "$task" = tiff ]; then
    w=$(vipsheader -f width "$f")
    h=$(vipsheader -f height "$f")
    vips crop "$f" "$tmp/t1.v" 100 100 $((w - 200)) $((h - 200))
    vips reduce "$tmp/t1.v" "$tmp/t2.v" 1.1111111111 1.1111111111 --kernel linear
    vips conv "$tmp/t2.v" "$out/$stem.tif" "$tmp/mask.con" --precision integer
  else
    vips resize "$f" "$tmp/t1.v" 0.5 --kernel linear
    vips conv "$tmp/t1.v" "$out/$stem.jpg[Q=90,subsample_mode=on]" "$tmp/mask.con" \
      --precision integer
  fi
  n=$((n + 1))
done
echo "vips_cli: $n file(s), $(vips --version)"
