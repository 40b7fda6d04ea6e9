#!/usr/bin/env bash
# Issue 19, item 7, on the GPU machine: the Python front ends against the command, same run,
# same machine, same data. The 8,000-JPEG set of bench/batch/run.sh (1,000 1920x1080 JPEGs of
# make_data.py, each linked 8 times), its pipeline (resize:scale=0.5, the 3x3 sharpening kernel,
# JPEG quality 90), --device cuda:
#   cli       texcv batch -i IN -o OUT ... (the CMake build's program), 3 runs
#   py        texcv.batch(IN, OUT, ...) from a fresh python3 (whole process, and the call alone),
#             3 runs
#   ray-N     texcv.ray.process(...) on a local Ray cluster (ray.init(num_cpus=16, num_gpus=1)
#             once, outside the timing), N actors sharing the GPU (num_gpus=1/N, num_cpus=8/N
#             each: the actor's CPU workers; the rest read the files), 2 runs each, N = 1, 2, 4
# Every run writes into an empty folder; the time is wall clock from start to the last file
# written; each run's report is checked (8,000 rows, every status ok).
#
# Ray (about 150 MB of wheels: ray 79 MB, pyarrow 55 MB, pandas 12 MB, small ones 4 MB) is over
# one call's 64 MiB carry: bench/batch/fetch_ray_wheels.sh splits them into the folders
# bench/batch/wheels-ray1/2/3 (git-ignored), and three back-to-back calls on one warm machine
# stash them in /tmp (the machine goes back 30 s after a call: send the next one at once):
#   call 1 (with .devdeps, COMMIT):  bash bench/run_device.sh build test python;
#                                     bash bench/batch/issue19_device.sh stash
#   call 2 (wheels-ray2):             bash bench/batch/issue19_device.sh stash
#   call 3 (wheels-ray3):             bash bench/batch/issue19_device.sh stash install measure
# Stage batchpy (no Ray): the command and texcv.batch alternately, 4 runs each, outputs in
# /dev/shm (a RAM folder: the measure stage's outputs on disk showed each run slower than the one
# before, 4.2 s to 6.6 s, whichever tool ran). Results: $OUT/issue19_batchpy.txt.
# Stages: stash (copy bench/batch/wheels-ray*/ into /tmp/texcv-wheels), install (join the Ray
# wheel's parts, install every wheel into /tmp/texcv-pylib without resolving: the machine's numpy
# stays), measure (needs build-device/bin/texcv and /tmp/texcv-pypkg from run_device.sh's build
# and python stages). Results: $OUT/issue19.txt (and issue19.json).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/out-device}
mkdir -p "$OUT"
WH=/tmp/texcv-wheels
LIB=/tmp/texcv-pylib
PKG=/tmp/texcv-pypkg
BUILD=${TEXCV_BUILD_DIR:-$ROOT/build-device}
DATA=/tmp/texcv-batch-data
WORK=/tmp/texcv-i19

do_stash() {
  mkdir -p "$WH"
  local d
  for d in bench/batch/wheels-ray*/; do
    [ -d "$d" ] || continue
    cp -f "$d"* "$WH"/ && echo "stashed $d: $(ls "$d" | wc -l) files"
  done
  du -sh "$WH"
}

do_install() {
  if ls "$WH"/ray-*.whl.part-* >/dev/null 2>&1; then
    local whl
    whl=$(ls "$WH"/ray-*.whl.part-aa | sed 's/\.part-aa$//')
    cat "$WH"/ray-*.whl.part-* >"$whl" && rm -f "$WH"/ray-*.whl.part-*
  fi
  ls -la "$WH"
  rm -rf "$LIB"
  python3 -m pip install --quiet --no-index --no-deps --target "$LIB" "$WH"/*.whl 2>&1 | tail -5
  PYTHONPATH=$LIB python3 -c 'import ray, ray.data, pyarrow, pandas, numpy
print("ray", ray.__version__, "pyarrow", pyarrow.__version__, "pandas", pandas.__version__,
      "numpy", numpy.__version__)'
}

# secs CMD...: runs CMD, prints its wall time in seconds (3 decimals) on stdout's last line.
secs() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>>"$OUT/issue19_err.log"
  local rc=$?
  t1=$(date +%s.%N)
  [ $rc -ne 0 ] && echo "   (exit $rc: $*)" >&2
  python3 -c "print(f'{$t1 - $t0:.3f}')"
}

make_inputs() {
  python3 bench/batch/make_data.py --out "$DATA" --tiff 0 --jpeg 1000 >/dev/null || return 1
  rm -rf "$WORK" && mkdir -p "$WORK/in"
  local f b k
  for f in "$DATA"/jpeg/*.jpg; do
    b=$(basename "$f" .jpg)
    for k in 1 2 3 4 5 6 7 8; do ln -s "$f" "$WORK/in/${b}_k$k.jpg"; done
  done
}

do_measure() {
  local texcv="$BUILD/bin/texcv"
  [ -x "$texcv" ] || { echo "no $texcv: run run_device.sh build first"; return 1; }
  [ -d "$PKG/texcv" ] || { echo "no $PKG/texcv: run run_device.sh python first"; return 1; }
  make_inputs || return 1
  local n
  n=$(find "$WORK/in" -name '*.jpg' | wc -l)
  local pipe="resize:scale=0.5;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125"
  export PATH=$BUILD/bin:$PATH PYTHONPATH=$PKG:$LIB
  {
    echo "== issue 19 item 7: $n JPEGs (1,000 x 8 links), pipeline $pipe, JPEG q90, --device cuda"
    nvidia-smi --query-gpu=name --format=csv,noheader | head -1
    echo "commit: $(head -1 COMMIT 2>/dev/null || echo unknown); cores: $(nproc)"
    "$texcv" info 2>&1 | head -4
  } | tee "$OUT/issue19.txt"
  # the command
  local r t
  for r in 1 2 3; do
    rm -rf "$WORK/out"
    t=$(secs "$texcv" batch -i "$WORK/in" -o "$WORK/out" -p "$pipe" --device cuda -q 90 \
      --report "$WORK/cli.jsonl")
    echo "cli run $r: $t s ($(grep -c '"status":"ok"' "$WORK/cli.jsonl") ok)" | tee -a "$OUT/issue19.txt"
  done
  # texcv.batch: the whole python process (import texcv included) and the call alone
  cat >"$WORK/py.py" <<PY
import sys, time
t0 = time.perf_counter()
import texcv
t1 = time.perf_counter()
rows = texcv.batch("$WORK/in", "$WORK/out", "$pipe", device="cuda", quality=90)
t2 = time.perf_counter()
ok = sum(r["status"] == "ok" for r in rows)
print(f"import {t1 - t0:.3f} s, call {t2 - t1:.3f} s, {ok} ok of {len(rows)}", file=sys.stderr)
PY
  for r in 1 2 3; do
    rm -rf "$WORK/out"
    t=$(secs python3 "$WORK/py.py")
    echo "py run $r: $t s (process); $(tail -1 "$OUT/issue19_err.log")" | tee -a "$OUT/issue19.txt"
  done
  # Ray Data
  if ! python3 -c 'import ray, ray.data' 2>/dev/null; then
    echo "ray: not importable (install stage?): skipped" | tee -a "$OUT/issue19.txt"
    return 0
  fi
  cat >"$WORK/ray_run.py" <<PY
import json, os, shutil, sys, time
import ray
import texcv.ray
t0 = time.perf_counter()
ray.init(num_cpus=16, num_gpus=1, include_dashboard=False, log_to_driver=False)
print(f"ray.init {time.perf_counter() - t0:.3f} s", flush=True)
res = {}
for n in (1, 2, 4):
    for rep in (1, 2):
        shutil.rmtree("$WORK/out", ignore_errors=True)
        t = time.perf_counter()
        rows = texcv.ray.process("$WORK/in", "$WORK/out", "$pipe", num_gpus=1 / n,
                                 num_cpus=8 / n, concurrency=n, batch_size=64, device="cuda",
                                 quality=90, resume=False)
        dt = time.perf_counter() - t
        ok = sum(r["status"] == "ok" for r in rows)
        res.setdefault(n, []).append(dt)
        print(f"ray-{n} run {rep}: {dt:.3f} s ({ok} ok of {len(rows)})", flush=True)
json.dump(res, open("$OUT/issue19.json", "w"))
PY
  timeout 300 python3 "$WORK/ray_run.py" 2>>"$OUT/issue19_err.log" | tee -a "$OUT/issue19.txt"
}


do_batchpy() {
  local texcv="$BUILD/bin/texcv"
  [ -x "$texcv" ] || { echo "no $texcv: run run_device.sh build first"; return 1; }
  [ -d "$PKG/texcv" ] || { echo "no $PKG/texcv: run run_device.sh python first"; return 1; }
  make_inputs || return 1
  local pipe="resize:scale=0.5;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125"
  local shm=/dev/shm/texcv-i19-out
  export PATH=$BUILD/bin:$PATH PYTHONPATH=$PKG
  cat >"$WORK/py.py" <<PY
import sys, time
t0 = time.perf_counter()
import texcv
t1 = time.perf_counter()
rows = texcv.batch("$WORK/in", "$shm", "$pipe", device="cuda", quality=90)
t2 = time.perf_counter()
ok = sum(r["status"] == "ok" for r in rows)
print(f"import {t1 - t0:.3f} s, call {t2 - t1:.3f} s, {ok} ok of {len(rows)}", file=sys.stderr)
PY
  {
    echo "== issue 19 item 7 (batchpy): $(find "$WORK/in" -name '*.jpg' | wc -l) JPEGs, $pipe, q90, --device cuda, outputs in $shm"
    nvidia-smi --query-gpu=name --format=csv,noheader | head -1
    echo "commit: $(head -1 COMMIT 2>/dev/null || echo unknown); cores: $(nproc)"
  } | tee "$OUT/issue19_batchpy.txt"
  local r t
  for r in $(seq "${TEXCV_BATCHPY_RUNS:-4}"); do
    rm -rf "$shm"
    t=$(secs "$texcv" batch -i "$WORK/in" -o "$shm" -p "$pipe" --device cuda -q 90 \
      --report "$WORK/cli.jsonl")
    echo "cli run $r: $t s ($(grep -c '"status":"ok"' "$WORK/cli.jsonl") ok)" | tee -a "$OUT/issue19_batchpy.txt"
    rm -rf "$shm"
    t=$(secs python3 "$WORK/py.py")
    echo "py run $r: $t s (process); $(tail -1 "$OUT/issue19_err.log")" | tee -a "$OUT/issue19_batchpy.txt"
  done
  rm -rf "$shm"
}

# Stage actor (no Ray): texcv.ray.Processor called directly in batches of 64, 500, 2000 and
# 8000 paths (actor_batches.py), between command runs; outputs in /dev/shm. Results:
# $OUT/issue19_actor.txt. Also `python3 -X importtime -c "import texcv"`'s largest imports.
do_actor() {
  local texcv="$BUILD/bin/texcv"
  [ -x "$texcv" ] || { echo "no $texcv: run run_device.sh build first"; return 1; }
  [ -d "$PKG/texcv" ] || { echo "no $PKG/texcv: run run_device.sh python first"; return 1; }
  [ -d "$WORK/in" ] || make_inputs || return 1
  local pipe="resize:scale=0.5;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125"
  local shm=/dev/shm/texcv-i19-out
  export PATH=$BUILD/bin:$PATH PYTHONPATH=$PKG
  {
    echo "== issue 19 item 7 (actor): $(find "$WORK/in" -name '*.jpg' | wc -l) JPEGs, $pipe, q90, cuda, outputs in $shm"
    nvidia-smi --query-gpu=name --format=csv,noheader | head -1
    echo "commit: $(head -1 COMMIT 2>/dev/null || echo unknown); cores: $(nproc)"
    echo "import texcv, largest (self us | cumulative us | module):"
    python3 -X importtime -c "import texcv" 2>&1 | sort -t'|' -k2 -n | tail -6
  } | tee "$OUT/issue19_actor.txt"
  local r t
  for r in 1 2; do
    rm -rf "$shm"
    t=$(secs "$texcv" batch -i "$WORK/in" -o "$shm" -p "$pipe" --device cuda -q 90 \
      --report "$WORK/cli.jsonl")
    echo "cli run $r: $t s ($(grep -c '"status":"ok"' "$WORK/cli.jsonl") ok)" | tee -a "$OUT/issue19_actor.txt"
  done
  timeout 120 python3 bench/batch/actor_batches.py "$WORK/in" "$shm" "$pipe" 64 500 2000 8000 \
    2>>"$OUT/issue19_err.log" | tee -a "$OUT/issue19_actor.txt"
  rm -rf "$shm"
}

# Stage ray: texcv.ray.process on a local cluster (ray.init(num_cpus=16, num_gpus=1), once,
# outside the times), outputs in /dev/shm, the command before and after. Configurations: one
# actor reading paths (16 engine threads, 15 CPUs) with the automatic batch (2000) and with
# 500; one actor reading bytes through Ray (batch 256, 8 CPUs: the rest for the read tasks);
# 2 and 4 actors reading paths. Results: $OUT/issue19_ray.txt (and issue19_ray.json).
do_ray() {
  local texcv="$BUILD/bin/texcv"
  [ -x "$texcv" ] || { echo "no $texcv: run run_device.sh build first"; return 1; }
  [ -d "$PKG/texcv" ] || { echo "no $PKG/texcv: run run_device.sh python first"; return 1; }
  [ -d "$WORK/in" ] || make_inputs || return 1
  local pipe="resize:scale=0.5;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125"
  local shm=/dev/shm/texcv-i19-out
  export PATH=$BUILD/bin:$PATH PYTHONPATH=$PKG:$LIB
  {
    echo "== issue 19 item 7 (ray): $(find "$WORK/in" -name '*.jpg' | wc -l) JPEGs, $pipe, q90, cuda, outputs in $shm"
    nvidia-smi --query-gpu=name --format=csv,noheader | head -1
    echo "commit: $(head -1 COMMIT 2>/dev/null || echo unknown); cores: $(nproc)"
  } | tee "$OUT/issue19_ray.txt"
  cli_run() {
    rm -rf "$shm"
    local t
    t=$(secs "$texcv" batch -i "$WORK/in" -o "$shm" -p "$pipe" --device cuda -q 90 \
      --report "$WORK/cli.jsonl")
    echo "cli $1: $t s ($(grep -c '"status":"ok"' "$WORK/cli.jsonl") ok)" | tee -a "$OUT/issue19_ray.txt"
  }
  echo "pytest tests/python/test_ray.py (Ray $(python3 -c 'import ray; print(ray.__version__)'), GPU test included):" | tee -a "$OUT/issue19_ray.txt"
  (cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_ray.py \
    >"$OUT/pytest_ray.log" 2>&1)
  grep -E "passed|failed|SKIPPED|Error" "$OUT/pytest_ray.log" | tail -5 | tee -a "$OUT/issue19_ray.txt"
  cli_run before-1
  cli_run before-2
  cat >"$WORK/ray_run.py" <<PY
import json, shutil, time
import ray
import texcv.ray
t0 = time.perf_counter()
ray.init(num_cpus=16, num_gpus=1, include_dashboard=False, log_to_driver=False)
print(f"ray.init {time.perf_counter() - t0:.3f} s", flush=True)
configs = [  # name, actors, read, batch_size, num_cpus per actor, engine threads per actor
    ("paths-auto", 1, "paths", None, 15, 16),
    ("paths-500", 1, "paths", 500, 15, 16),
    ("bytes-256", 1, "bytes", 256, 8, 8),
    ("paths-auto", 2, "paths", None, 7.5, 8),
    ("paths-auto", 4, "paths", None, 3.75, 4),
]
res = {}
for rep in (1, 2):
    for name, n, read, bs, cpus, workers in configs:
        shutil.rmtree("$shm", ignore_errors=True)
        t = time.perf_counter()
        rows = texcv.ray.process("$WORK/in", "$shm", "$pipe", num_gpus=1 / n, num_cpus=cpus,
                                 concurrency=n, batch_size=bs, read=read, device="cuda",
                                 quality=90, resume=False, workers=workers)
        dt = time.perf_counter() - t
        ok = sum(r["status"] == "ok" for r in rows)
        key = f"{name} x{n}"
        res.setdefault(key, []).append(dt)
        print(f"ray {key} run {rep}: {dt:.3f} s ({ok} ok of {len(rows)})", flush=True)
json.dump(res, open("$OUT/issue19_ray.json", "w"))
PY
  timeout "${TEXCV_RAY_TIMEOUT:-240}" python3 "$WORK/ray_run.py" 2>>"$OUT/issue19_err.log" | tee -a "$OUT/issue19_ray.txt"
  cli_run after-1
  rm -rf "$shm"
}

# Stage floor: what Ray Data costs before texcv does any work (bench/batch/ray_floor.py: a no-op
# actor, an actor that only runs Processor's constructor, and texcv.ray.process, one GPU actor,
# alternated, ray.init outside the times), on the 8,000-file set and on the same files linked
# 4 times more (32,000), the command before and after each. Outputs in /dev/shm. Results:
# $OUT/issue19_floor.txt (and issue19_floor_<n>.json).
do_floor() {
  local texcv="$BUILD/bin/texcv"
  [ -x "$texcv" ] || { echo "no $texcv: run run_device.sh build first"; return 1; }
  [ -d "$PKG/texcv" ] || { echo "no $PKG/texcv: run run_device.sh python first"; return 1; }
  [ -d "$WORK/in" ] || make_inputs || return 1
  if [ ! -d "$WORK/in4" ]; then
    mkdir -p "$WORK/in4"
    local f k
    for f in "$WORK"/in/*.jpg; do
      for k in 1 2 3 4; do ln -s "$(readlink -f "$f")" "$WORK/in4/$(basename "$f" .jpg)_m$k.jpg"; done
    done
  fi
  local pipe="resize:scale=0.5;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125"
  local shm=/dev/shm/texcv-i19-out
  export PATH=$BUILD/bin:$PATH PYTHONPATH=$PKG:$LIB
  {
    echo "== issue 19 item 7 (Ray's floor): $pipe, q90, cuda, outputs in $shm"
    nvidia-smi --query-gpu=name --format=csv,noheader | head -1
    echo "commit: $(head -1 COMMIT 2>/dev/null || echo unknown); cores: $(nproc); Ray $(python3 -c 'import ray; print(ray.__version__)')"
  } | tee "$OUT/issue19_floor.txt"
  local set n t
  for set in in in4; do
    n=$(find "$WORK/$set" -name '*.jpg' | wc -l)
    for r in before after; do
      rm -rf "$shm"
      t=$(secs "$texcv" batch -i "$WORK/$set" -o "$shm" -p "$pipe" --device cuda -q 90 \
        --report "$WORK/cli.jsonl")
      echo "cli $n files $r: $t s ($(grep -c '"status":"ok"' "$WORK/cli.jsonl") ok)" | tee -a "$OUT/issue19_floor.txt"
      [ $r = after ] && break
      timeout "${TEXCV_RAY_TIMEOUT:-200}" python3 bench/batch/ray_floor.py "$WORK/$set" "$shm" \
        "$pipe" --reps "$([ $set = in ] && echo 2 || echo 1)" --json "$OUT/issue19_floor_$n.json" \
        2>>"$OUT/issue19_err.log" | tee -a "$OUT/issue19_floor.txt"
    done
  done
  rm -rf "$shm"
}

for stage in "$@"; do
  case "$stage" in
    stash) do_stash ;;
    install) do_install ;;
    measure) do_measure ;;
    batchpy) do_batchpy ;;
    actor) do_actor ;;
    ray) do_ray ;;
    floor) do_floor ;;
    *) echo "issue19_device.sh: unknown stage '$stage' (stash install measure batchpy actor ray floor)" ;;
  esac
done
