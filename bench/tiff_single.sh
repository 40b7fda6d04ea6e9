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
# 2. The task end to end, with hyperfine (apt-get install hyperfine), RUNS runs each after one
#    warm-up, `sync` and the output removed before each: `texcv run` with its defaults (what
#    --tiff-compression defaults to), then with zstd and with deflate; and vips as
#    bench/batch/vips_cli.sh runs it (vips crop, vips reduce, vips conv: one command a step,
#    the intermediates as .v files), with vips's default (uncompressed) TIFF output.
# Prints markdown tables (median, min-max) and the sizes of the outputs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
in=${1:-$here/batch/data/tiff/img_000.tif}
runs=${2:-7}
texcv=${TEXCV:-$root/build/bin/texcv}
[ -x "$texcv" ] || texcv=$(command -v texcv || true)
[ -n "$texcv" ] && [ -x "$texcv" ] || { echo "tiff_single.sh: no texcv binary (set TEXCV)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "tiff_single.sh: needs hyperfine" >&2; exit 2; }
command -v vips >/dev/null || { echo "tiff_single.sh: needs vips (libvips-tools)" >&2; exit 2; }
if [ ! -f "$in" ]; then
  "${PYTHON:-python3}" "$here/batch/make_data.py" --out "$here/batch/data" --tiff 1 --jpeg 0
fi
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
trap 'rm -rf "$work"/in "$work"/o-* "$work"/r-* "$work"/t.v "$work"/t2.v "$work"/*.tif "$work"/mask.con' EXIT
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
echo "### 2. The task, one file, end to end (hyperfine, $runs runs)"
echo
P="crop:x=100,y=100,width=4800,height=4800;resize:scale=0.9;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125"
printf '3 3 8 0\n-1 -1 -1\n-1 16 -1\n-1 -1 -1\n' >"$work/mask.con"
w=$(vipsheader -f width "$work/in/img.tif")
h=$(vipsheader -f height "$work/in/img.tif")
img=$work/in/img.tif
vips_cmd="vips crop $img $work/t.v 100 100 $((w - 200)) $((h - 200)) && vips reduce $work/t.v $work/t2.v 1.1111111111 1.1111111111 --kernel linear && vips conv $work/t2.v $work/vips.tif $work/mask.con --precision integer"
hyperfine --style basic --warmup 1 --runs "$runs" --export-json "$work/r-hf.json" \
  --prepare "rm -f $work/texcv*.tif $work/vips.tif $work/t.v $work/t2.v; sync" \
  -n "texcv run (defaults)" "$texcv run -i $img -o $work/texcv.tif -p '$P' --quiet" \
  -n "texcv run --tiff-compression zstd" "$texcv run -i $img -o $work/texcv-zstd.tif -p '$P' --quiet --tiff-compression zstd" \
  -n "texcv run --tiff-compression deflate" "$texcv run -i $img -o $work/texcv-deflate.tif -p '$P' --quiet --tiff-compression deflate" \
  -n "vips (crop, reduce, conv; defaults)" "$vips_cmd" >&2
# One more run of each for the sizes (hyperfine's prepare removed the outputs).
"$texcv" run -i "$img" -o "$work/texcv.tif" -p "$P" --quiet
"$texcv" run -i "$img" -o "$work/texcv-zstd.tif" -p "$P" --quiet --tiff-compression zstd
"$texcv" run -i "$img" -o "$work/texcv-deflate.tif" -p "$P" --quiet --tiff-compression deflate
bash -c "$vips_cmd"
echo "| command | wall s, median (min-max) | user s | system s | output MB |"
echo "| --- | ---: | ---: | ---: | ---: |"
python3 - "$work/r-hf.json" "$work/texcv.tif" "$work/texcv-zstd.tif" "$work/texcv-deflate.tif" "$work/vips.tif" <<'EOF'
import json, os, sys
res = json.load(open(sys.argv[1]))["results"]
for r, out in zip(res, sys.argv[2:]):
    t = sorted(r["times"])
    print(f"| {r['command']} | {r['median']:.3f} ({t[0]:.3f}-{t[-1]:.3f}) | {r['user']:.2f} | "
          f"{r['system']:.2f} | {os.path.getsize(out) / 1e6:.1f} |")
EOF
