#!/usr/bin/env bash
# The batch benchmark of issue 5: the same files, the same machine, four tools.
#
#   bash bench/batch/run.sh [--tiff N] [--jpeg N] [--sets "tiff jpeg"] [--repeat R]
#                           [--tools "texcv-cuda texcv-cpu vips opencv"]
#                           [--jpegx K] [--jpegx-tools "texcv-cuda"]
#                           [--data DIR] [--work DIR] [--results DIR]
#
# Datasets (bench/batch/make_data.py, made once under --data, default bench/batch/data):
#   tiff  N RGB 5000x5000 u8 uncompressed TIFFs (default 8; the issue's run: 64): the libvips
#         benchmark task: crop 100 px from every edge, shrink to 90 % bilinear, sharpen with
#         [[-1,-1,-1],[-1,16,-1],[-1,-1,-1]]/8, save as TIFF
#   jpeg  N 1920x1080 JPEGs at quality 90 (default 200; the issue's run: 1000): resize to half
#         (bilinear), the same 3x3 kernel, save as JPEG quality 90
#   jpegx the jpeg set's N files K times each (--jpegx K, symbolic links named _kK; name the
#         set in --sets): the same task on K x N files, where a run's fixed set-up (process,
#         CUDA, the workers) is a small part; its tools: --jpegx-tools (default texcv-cuda)
# Tools (a texcv tool may carry options after @: texcv-cuda@devices=0,1@streams=4):
#   texcv-cuda  texcv batch --device cuda (skipped with a message without a usable GPU)
#   texcv-auto  texcv batch --device auto (CPU workers at once, CUDA workers joining when set up)
#   texcv-cpu   texcv batch --device cpu
#               (TIFF output: --tiff-compression none, uncompressed as the task asks; also
#               texcv's default since 311c3e3, deflate before; a binary without the option
#               writes deflate)
#   vips        bench/batch/vips_task.py (pyvips: the pyvips-binary wheel's libvips when
#               installed, else the system libvips, e.g. Debian's libvips42)
#   opencv      bench/batch/opencv_pool.py (cv2 in a ThreadPoolExecutor, os.cpu_count() threads)
# and, when named in --tools, for the comparison:
#   vips-cli        bench/batch/vips_cli.sh: the `vips` command, one step per command, .v files
#   vips-deflate, opencv-deflate   the TIFF task writing deflate-compressed TIFF (horizontal
#                   predictor), as texcv batch did by default before 311c3e3
# Each run is timed by bench/batch/measure.py (wall time, images/s, peak RSS of the process,
# CPU time, the load average before it) after the inputs were read once into the page cache;
# outputs go to a fresh folder under --work (default bench/batch/work). Then compare.py checks
# every tool's outputs against OpenCV's (sizes, pixel differences).
#
# Results (small files) go to --results (default $OUT when set, as on the device machine, else
# bench/batch/results): machine.txt, results.jsonl, table.md, compare.md, logs/ (each tool's
# output, texcv's --report files and their per-stage means).
#
# Environment: TEXCV (the texcv binary; default the first of build-device, build-bbench,
# build-lead, build under the repository, then texcv on PATH), PYTHON (an interpreter with
# numpy, cv2 and pyvips; default: .venv-bbench/bin/python when it imports them, else python3
# when it does, else .venv-bbench is made with python3 -m venv --system-site-packages and
# filled from the wheel folders bench/batch/wheels* (fetch_wheels.sh), offline).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

tiff_n=8
jpeg_n=200
sets="tiff jpeg"
tools="texcv-auto texcv-cuda texcv-cpu vips opencv"
repeat=1
jpegx_k=8
jpegx_tools="texcv-auto texcv-cuda"
data=$here/data
work=$here/work
results=${OUT:-$here/results}
while [ $# -gt 0 ]; do
  case "$1" in
    --tiff) tiff_n=$2; shift 2 ;;
    --jpeg) jpeg_n=$2; shift 2 ;;
    --sets) sets=$2; shift 2 ;;
    --tools) tools=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --jpegx) jpegx_k=$2; shift 2 ;;
    --jpegx-tools) jpegx_tools=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (--help lists them)" >&2; exit 2 ;;
  esac
done
mkdir -p "$results/logs" "$work"
res=$results/results.jsonl
: >"$res"
: >"$results/compare.md"

# --- the texcv binary
texcv=${TEXCV:-}
if [ -z "$texcv" ]; then
  for b in build-device build-bbench build-lead build; do
    if [ -x "$root/$b/bin/texcv" ]; then texcv=$root/$b/bin/texcv; break; fi
  done
  [ -z "$texcv" ] && texcv=$(command -v texcv || true)
fi
if [ -z "$texcv" ] || [ ! -x "$texcv" ]; then
  echo "run.sh: no texcv binary (set TEXCV=path/to/texcv); texcv rows are skipped" >&2
  texcv=""
fi

# --- Python with numpy, cv2, pyvips
venv=$root/.venv-bbench
has_mods() { "$1" -c 'import numpy, cv2, pyvips' >/dev/null 2>&1; }
py=${PYTHON:-}
if [ -z "$py" ]; then
  if [ -x "$venv/bin/python" ] && has_mods "$venv/bin/python"; then
    py=$venv/bin/python
  elif has_mods python3; then
    py=python3
  elif python3 -c 'import numpy, cv2' >/dev/null 2>&1 && ls "$here"/wheels*/pyvips-*.whl >/dev/null 2>&1; then
    # numpy and cv2 come with this python3 (the GPU machine's, which may itself be a virtual
    # environment, so a --system-site-packages venv would not see them): unpack the carried
    # pyvips wheels (pure Python, cffi, pyvips-binary's libvips) into a folder on PYTHONPATH.
    site=$work/pysite
    if [ ! -d "$site/pyvips" ]; then
      mkdir -p "$site"
      for w in "$here"/wheels*/*.whl; do python3 -m zipfile -e "$w" "$site"; done
      echo "run.sh: unpacked the wheels of $here/wheels* into $site"
    fi
    export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
    py=python3
  elif python3 -c 'import numpy, cv2' >/dev/null 2>&1 && ! ls "$here"/wheels*/*.whl >/dev/null 2>&1; then
    # numpy and cv2 here, no pyvips and no wheels to install it from: this python3 (the libvips
    # rows are skipped). A --system-site-packages venv made from it would not see them when it is
    # itself a virtual environment (the GPU machine's is).
    py=python3
  else
    [ -x "$venv/bin/python" ] || python3 -m venv --system-site-packages "$venv"
    for w in "$here"/wheels "$here"/wheels-*; do
      [ -d "$w" ] || continue
      echo "run.sh: installing the wheels of $w into $venv (offline)"
      "$venv/bin/pip" install --quiet --no-index --find-links "$w" "$w"/*.whl ||
        echo "run.sh: pip install from $w failed" >&2
    done
    py=$venv/bin/python
  fi
fi
for m in numpy cv2 pyvips; do
  "$py" -c "import $m" >/dev/null 2>&1 || echo "run.sh: $py cannot import $m" >&2
done
if ! "$py" -c 'import numpy, cv2' >/dev/null 2>&1; then
  echo "run.sh: make_data.py and the OpenCV rows need numpy and cv2 (fetch_wheels.sh opencv)" >&2
  exit 2
fi
has_vips=1
"$py" -c 'import pyvips' >/dev/null 2>&1 || has_vips=0

# --- the machine
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "host: $(uname -n), $(uname -sr)"
  echo "cores: $(nproc), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sed 's/^/gpu: /'
  # a device snapshot names its commit in COMMIT (a stale .git may sit above it)
  echo "texcv: ${texcv:-none} ($(head -c 12 "$root/COMMIT" 2>/dev/null || git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'))"
  [ -n "$texcv" ] && "$texcv" info 2>&1 | sed -n 's/^  */  /p' | head -8
  echo "python: $("$py" -c 'import sys; print(sys.version.split()[0])') ($py)"
  "$py" -c 'import numpy, cv2; print("numpy", numpy.__version__, "OpenCV", cv2.__version__)'
  [ "$has_vips" = 1 ] && "$py" -c 'import pyvips; print("pyvips", pyvips.__version__, "libvips", ".".join(str(pyvips.version(i)) for i in range(3)))'
} | tee "$results/machine.txt"

# --- data
"$py" "$here/make_data.py" --out "$data" --tiff "$tiff_n" --jpeg "$jpeg_n" || exit 1

kernel="-1|-1|-1|-1|16|-1|-1|-1|-1"
declare -A pipeline=(
  [tiff]="crop:x=100,y=100,width=4800,height=4800;resize:scale=0.9;convolve:kernel=$kernel,scale=0.125"
  [jpeg]="resize:scale=0.5;convolve:kernel=$kernel,scale=0.125"
)
pipeline[jpegx]=${pipeline[jpeg]}
declare -A count=([tiff]=$tiff_n [jpeg]=$jpeg_n [jpegx]=$((jpeg_n * jpegx_k)))

# texcv's info and batch help, read once into variables: `texcv ... | grep -q` under pipefail
# fails at random (grep exits at the first match, texcv dies of SIGPIPE writing the rest), which
# made the TIFF runs go without --tiff-compression none (deflate-compressed outputs, 5-7x slower)
# in some repetitions and not in others.
info_text="" help_text=""
if [ -n "$texcv" ]; then
  info_text=$("$texcv" info 2>&1)
  help_text=$("$texcv" batch --help 2>&1)
fi
gpu_ok=0
if [ -n "$texcv" ] && ! grep -q 'none usable' <<<"$info_text"; then gpu_ok=1; fi
tiff_ok=0
if [ -n "$texcv" ] && grep -q 'image formats.*tiff' <<<"$info_text"; then tiff_ok=1; fi

# inputs: the first count[set] files of the set (a larger set made earlier is not all used)
list_inputs() { find "$data/$1" -maxdepth 1 -type f ! -name '.*' | sort | head -n "${count[$1]}"; }

# one SET TOOL REP: run one tool once on one set
one() {
  local set=$1 spec=$2 rep=$3 dst=$work/$1/$2 in=$work/inputs-$1 log=$results/logs/$1-$2-$3
  # A texcv tool may carry options: texcv-cuda@devices=0,1@streams=4 runs texcv batch with
  # --devices 0,1 --streams 4 (its rows are labelled with the whole spec).
  local tool=${spec%%@*} opts=() kv rest=${spec#*@}
  if [ "$rest" != "$spec" ]; then
    while [ -n "$rest" ]; do
      kv=${rest%%@*}
      opts+=("--${kv%%=*}" "${kv#*=}")
      [ "$kv" = "$rest" ] && rest="" || rest=${rest#*@}
    done
  fi
  # The previous run's outputs are moved aside, not deleted, until the end (or until the disk
  # has less than 20 GB free): on the H200 machine (ext4 mounted with `discard`) deleting the
  # 8,000 outputs of one run stalled the next run's writes (write stage 28-45 s summed against
  # 1-3 s, 0.6-1.0 s of wall time; docs/performance.md).
  if [ -e "$dst" ]; then
    if [ "$(df --output=avail -k "$work" | tail -1)" -lt 20000000 ]; then
      rm -rf "$work/.trash"
      sync
    fi
    mkdir -p "$work/.trash"
    mv "$dst" "$work/.trash/$set-$tool-$rep-$RANDOM"
  fi
  local cmd=()
  case "$tool" in
    texcv-cuda | texcv-cpu | texcv-auto)
      if [ -z "$texcv" ]; then echo "skip $set $tool: no texcv binary"; return; fi
      if [ "$tool" = texcv-cuda ] && [ "$gpu_ok" = 0 ]; then
        echo "skip $set $tool: no usable GPU ($(grep -m1 'none usable' <<<"$info_text" | sed 's/^ *//'))"
        return
      fi
      if [ "$set" = tiff ] && [ "$tiff_ok" = 0 ]; then
        echo "skip $set $tool: this texcv build has no TIFF codec (built without libtiff)"
        return
      fi
      cmd=("$texcv" batch -i "$in" -o "$dst" -p "${pipeline[$set]}" --device "${tool#texcv-}"
        -q 90 --report "$log.jsonl" "${opts[@]}")
      # uncompressed TIFF as the task asks (the default since 311c3e3; older binaries without
      # the option write deflate)
      if [ "$set" = tiff ] && grep -q -- '--tiff-compression' <<<"$help_text"; then
        cmd+=(--tiff-compression none)
      fi
      ;;
    vips | vips-deflate)
      if [ "$has_vips" = 0 ]; then echo "skip $set $tool: $py cannot import pyvips"; return; fi
      cmd=("$py" "$here/vips_task.py" --task "$set" -i "$in" -o "$dst")
      ;;&
    opencv | opencv-deflate) cmd=("$py" "$here/opencv_pool.py" --task "$set" -i "$in" -o "$dst") ;;&
    *-deflate)
      if [ "$set" != tiff ]; then echo "skip $set $tool: a TIFF-only variant"; return; fi
      cmd+=(--tiff-deflate)
      ;;
    vips-cli)
      if ! command -v vips >/dev/null; then echo "skip $set vips-cli: no vips command"; return; fi
      cmd=(bash "$here/vips_cli.sh" "$set" "$in" "$dst")
      ;;
    vips | opencv) ;;
    *) echo "run.sh: unknown tool '$tool'" >&2; return ;;
  esac
  # The previous run's outputs still being written back would throttle this run's writes (seen
  # on the 2-core machine: 2.6 s a file instead of 0.04): flush them first.
  sync
  "$py" "$here/measure.py" run --results "$res" --tool "$spec" --dataset "$set" --outdir "$dst" \
    --log "$log.log" -- "${cmd[@]}"
  if [ -f "$log.jsonl" ]; then
    {
      "$py" "$here/measure.py" stages "$log.jsonl"
      # texcv's own account of the run: its engine time and the fixed cost before the first file
      grep -h -E "images/s on |time before the first file" "$log.log" | sed 's/^texcv batch: /texcv: /'
    } | tee "$log.stages"
  fi
}

for set in $sets; do
  # the inputs, as symbolic links in one folder, read once into the page cache
  rm -rf "$work/inputs-$set"
  mkdir -p "$work/inputs-$set"
  set_tools=$tools
  if [ "$set" = jpegx ]; then
    # K links to each JPEG of the jpeg set: img_0001_k1.jpg .. img_0001_kK.jpg
    list_inputs jpeg | while read -r f; do
      b=$(basename "$f" .jpg)
      for k in $(seq "$jpegx_k"); do ln -s "$f" "$work/inputs-$set/${b}_k$k.jpg"; done
    done
    list_inputs jpeg | xargs cat >/dev/null
    set_tools=$jpegx_tools
  else
    list_inputs "$set" | while read -r f; do ln -s "$f" "$work/inputs-$set/"; done
    list_inputs "$set" | xargs cat >/dev/null
  fi
  for rep in $(seq "$repeat"); do
    for tool in $set_tools; do one "$set" "$tool" "$rep"; done
  done
  others=()
  for tool in $set_tools; do
    [ "$tool" != opencv ] && [ -d "$work/$set/$tool" ] && others+=(--other "$tool=$work/$set/$tool")
  done
  if [ -d "$work/$set/opencv" ] && [ ${#others[@]} -gt 0 ]; then
    echo "## $set: outputs compared with OpenCV's" | tee -a "$results/compare.md"
    "$py" "$here/compare.py" --ref "$work/$set/opencv" "${others[@]}" | tee -a "$results/compare.md"
  fi
done

rm -rf "$work/.trash"
"$py" "$here/measure.py" table "$res" | tee "$results/table.md"
