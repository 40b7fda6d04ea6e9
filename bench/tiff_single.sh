#!/usr/bin/env bash
# One 5000x5000 RGB u8 TIFF, the libvips benchmark task (bench/batch/vips_task.py: crop 100 px
# from every edge, shrink to 90 % bilinear, sharpen with [[-1,-1,-1],[-1,16,-1],[-1,-1,-1]]/8,
# save as TIFF), `texcv run` against the `vips` command, both with default options; and what
# each TIFF compression costs texcv to write.
#
#   bash bench/tiff_single.sh [INPUT.tif] [RUNS]
#
# INPUT: default bench/batch/data/tiff/img_000.tif, made by bench/batch/make_data.py (numpy and
# OpenCV's Python binding: PYTHON names an interpreter with them) when missing. RUNS: default 7.
# Environment: TEXCV (the binary; default build/bin/texcv, then texcv on PATH), WORK (scratch
# folder for the outputs, default a fresh one under /tmp), TIFF_CODECS (the rows of part 1, as
# name[:level], default "none deflate:1 deflate:6 zstd:1 zstd:3 zstd:9 lzw packbits lzma:1").
#
# 1. Write cost: `texcv batch -p flip --tiff-compression C --tiff-level L --report ...` on the
#    input, RUNS times per codec; the median of the report's write stage (texcv::imwrite of the
#    5000x5000 image: encode, write, rename) and the output's size.
# 2. The task end to end: `texcv run` with its defaults (what --tiff-compression defaults to),
#    then with zstd and with deflate; and vips as bench/batch/vips_cli.sh runs it (vips crop,
#    vips reduce, vips conv: one command a step, the intermediates as .v files), with vips's
#    default (uncompressed) TIFF output. RUNS rounds after a warm-up round; each round runs the
#    four commands in a rotated order, each after `sync` with its output removed, timed with
#    date and /usr/bin/time (interleaved, so that a burst of other work on a shared machine
#    does not land on one command only). HYPERFINE=1 also runs them through hyperfine (each
#    command's runs back to back), its report on stderr.
# Prints markdown tables (median, min-max) and the sizes of the outputs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
in=${1:-$here/batch/data/tiff/img_000.tif}
runs=${2:-7}
texcv=${TEXCV:-$root/build/bin/texcv}
[ -x "$texcv" ] || texcv=$(command -v texcv || true)
[ -n "$texcv" ] && [ -x "$texcv" ] || { echo "tiff_single.sh: no texcv binary (set TEXCV)" >&2; exit 2; }
command -v vips >/dev/null || { echo "tiff_single.sh: needs vips (libvips-tools)" >&2; exit 2; }
if [ ! -f "$in" ]; then
  "${PYTHON:-python3}" "$here/batch/make_data.py" --out "$here/batch/data" --tiff 1 --jpeg 0
fi
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
trap 'rm -rf "$work"/in "$work"/o-* "$work"/r-* "$work"/t.v "$work"/t2.v "$work"/*.tif "$work"/mask.con' EXIT
[ -x /usr/bin/time ] || { echo "tiff_single.sh: needs /usr/bin/time (Debian: time)" >&2; exit 2; }
mkdir -p "$work/in"
cp "$in" "$work/in/img.tif"  # texcv batch takes a folder; one file in it
cat "$work/in/img.tif" >/dev/null

median() { sort -n | awk '{a[NR] = $1} END {m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.0f (%.0f-%.0f)", m, a[1], a[NR]}'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "texcv: $texcv ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')); $(vips --version)"
echo "input: $in ($(stat -c %s "$in") bytes)"
echo
echo "### 1. Writing the 5000x5000 RGB u8 image (texcv::imwrite), $runs runs"
echo
echo "| compression | level | write ms, median (min-max) | size MB | % of uncompressed |"
echo "| --- | ---: | ---: | ---: | ---: |"
raw=$((5000 * 5000 * 3))
for spec in ${TIFF_CODECS:-none deflate:1 deflate:6 zstd:1 zstd:3 zstd:9 lzw packbits lzma:1}; do
  c=${spec%%:*} l=0
  [ "$spec" != "$c" ] && l=${spec#*:}
  : >"$work/r-$spec.ms"
  for _ in $(seq "$runs"); do
    rm -rf "$work/o-w"
    "$texcv" batch -i "$work/in" -o "$work/o-w" -p flip --device cpu --quiet \
      --tiff-compression "$c" --tiff-level "$l" --report "$work/r-w.jsonl"
    sed 's/.*"write":\([0-9.]*\).*/\1/' "$work/r-w.jsonl" >>"$work/r-$spec.ms"
  done
  size=$(stat -c %s "$work/o-w/img.tif")
  printf '| %s | %s | %s | %s |\n' "$c" "$([ "$l" = 0 ] && echo default || echo "$l")" \
    "$(median <"$work/r-$spec.ms")" "$(awk -v s="$size" -v r="$raw" 'BEGIN {printf "%.1f | %.1f", s / 1e6, 100 * s / r}')"
done
rm -rf "$work/o-w"

echo
echo "### 2. The task, one file, end to end ($runs rounds, interleaved)"
echo
P="crop:x=100,y=100,width=4800,height=4800;resize:scale=0.9;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125"
printf '3 3 8 0\n-1 -1 -1\n-1 16 -1\n-1 -1 -1\n' >"$work/mask.con"
img=$work/in/img.tif
w=$(vipsheader -f width "$img")
h=$(vipsheader -f height "$img")
names=("texcv run (defaults)" "texcv run --tiff-compression zstd"
  "texcv run --tiff-compression deflate" "vips crop, reduce, conv (defaults)")
outs=("$work/texcv.tif" "$work/texcv-zstd.tif" "$work/texcv-deflate.tif" "$work/vips.tif")
cmds=("$texcv run -i $img -o ${outs[0]} -p '$P' --quiet"
  "$texcv run -i $img -o ${outs[1]} -p '$P' --quiet --tiff-compression zstd"
  "$texcv run -i $img -o ${outs[2]} -p '$P' --quiet --tiff-compression deflate"
  "vips crop $img $work/t.v 100 100 $((w - 200)) $((h - 200)) && vips reduce $work/t.v $work/t2.v 1.1111111111 1.1111111111 --kernel linear && vips conv $work/t2.v ${outs[3]} $work/mask.con --precision integer")
if [ "${HYPERFINE:-0}" = 1 ]; then
  # hyperfine runs each command's runs back to back: on a machine shared with other work a
  # burst of load lands on one command only. The default below interleaves them instead.
  command -v hyperfine >/dev/null || { echo "tiff_single.sh: HYPERFINE=1 needs hyperfine" >&2; exit 2; }
  args=()
  for i in 0 1 2 3; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
  hyperfine --style basic --warmup 1 --runs "$runs" \
    --prepare "rm -f ${outs[*]} $work/t.v $work/t2.v; sync" "${args[@]}" >&2
fi
# Each round runs the four commands, in an order rotated by one per round, each after `sync`
# with its output removed (wall time from date, user and system time from /usr/bin/time);
# one warm-up round first.
for i in 0 1 2 3; do : >"$work/r-e$i"; done
for round in $(seq 0 "$runs"); do
  for j in 0 1 2 3; do
    i=$(((j + round) % 4))
    rm -f "${outs[$i]}" "$work/t.v" "$work/t2.v"
    sync
    t0=$(date +%s%N)
    /usr/bin/time -f "%U %S" -o "$work/r-time" bash -c "${cmds[$i]}"
    t1=$(date +%s%N)
    [ "$round" = 0 ] && continue
    echo "$(((t1 - t0) / 1000)) $(cat "$work/r-time")" >>"$work/r-e$i"
  done
done
echo "| command | wall s, median (min-max) | user s (median) | system s (median) | output MB |"
echo "| --- | ---: | ---: | ---: | ---: |"
for i in 0 1 2 3; do
  wall=$(cut -d' ' -f1 "$work/r-e$i" | sort -n | awk '{a[NR] = $1 / 1e6} END {m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.3f (%.3f-%.3f)", m, a[1], a[NR]}')
  med() { cut -d' ' -f"$1" "$work/r-e$i" | sort -n | awk '{a[NR] = $1} END {printf "%.2f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
  printf '| %s | %s | %s | %s | %s |\n' "${names[$i]}" "$wall" "$(med 2)" "$(med 3)" \
    "$(awk -v s="$(stat -c %s "${outs[$i]}")" 'BEGIN {printf "%.1f", s / 1e6}')"
done
