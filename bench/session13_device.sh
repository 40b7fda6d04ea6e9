#!/usr/bin/env bash
# Thirteenth session's device calls: issue 20's backend files by op (the colour and histogram ops
# moved out of src/cpu/color_*.cpp, src/cuda/ops/color/ and ops/hist/hist.cpp, unsharp_mask out
# of the filter engine) on the GPU, then the moved ops timed against the tree before the move.
#
#   carry [".devdeps", "COMMIT"]:          bash bench/session13_device.sh head
#     the build, pytest on the GPU (run_device.sh build python) and every CUDA test (ctest -L cuda)
#   carry [".devdeps", "COMMIT", ".ab"]:   bash bench/session13_device.sh ab
#     on the same warm machine (within 30 s): the tree in .ab/base (git archive of the commit
#     before the move: bench/session13_device.sh base REV, here) built as library + bench_filters,
#     then bench_filters of both builds alternated, 3 rounds, on the moved ops
#   bash bench/session13_device.sh base REV   # on this machine: .ab/base from REV
#   carry [".devdeps", "COMMIT", ".ab"]:   bash bench/session13_device.sh morph
#     issue 21's u8 rectangle kernel: the tree in .ab/base (library + bench_filters) built beside
#     this one (test_cuda + bench_filters), every CUDA test, then erode/dilate/morphology timed in
#     both builds, alternated, 3 rounds, NPP in the same processes
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/out-device}
mkdir -p "$OUT"
T0=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH
OPS=${S13_OPS:-unsharp_mask,cvt_color,gamma,threshold,convert,normalize,equalize_hist,clahe}
case "${1:-}" in
  base)
    rm -rf .ab/base && mkdir -p .ab/base &&
      git archive "${2:?base REV}" | tar -x -C .ab/base && git rev-parse "$2" >.ab/base/COMMIT
    du -sh .ab/base
    ;;
  head)
    TEXCV_DEADLINE=330 TEXCV_HARD_LIMIT=560 bash bench/run_device.sh build python \
      >/tmp/run_device_log.txt 2>&1  # not in $OUT: run_device.sh packs $OUT into logs.tgz
    cp /tmp/run_device_log.txt "$OUT/"
    grep -A6 "== stages" "$OUT/run_device_log.txt"
    tail -3 "$OUT/pytest.log" 2>/dev/null
    echo "== ctest -L cuda (at $(($(date +%s) - T0)) s)"
    timeout 150 ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout 100 \
      >"$OUT/ctest_cuda.log" 2>&1
    echo "ctest rc $?"
    grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" "$OUT/ctest_cuda.log" |
      head -20
    ;;
  ab)
    B=$ROOT/build-ab-base
    [ -d .ab/base ] || { echo "no .ab/base (carry .ab)"; exit 1; }
    echo "base $(cat .ab/base/COMMIT 2>/dev/null), head $(cat COMMIT 2>/dev/null)"
    cmake -S .ab/base -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DTEXCV_CUDA=ON -DTEXCV_TIFF=OFF -DTEXCV_BUILD_TESTS=OFF -DTEXCV_BUILD_TOOLS=OFF \
      -DTEXCV_BUILD_EXAMPLES=OFF -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 \
      "-DCMAKE_CUDA_COMPILER=$(command -v nvcc)" \
      "-Dhwy_DIR=$ROOT/.devdeps/hwy/lib/x86_64-linux-gnu/cmake/hwy" \
      -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20 >"$OUT/build_base.log" 2>&1 &&
      timeout 360 cmake --build "$B" -j "$(nproc)" --target bench_filters >>"$OUT/build_base.log" 2>&1
    echo "base build rc $? at $(($(date +%s) - T0)) s"
    grep -E "error|warning" "$OUT/build_base.log" | head -5
    H=$ROOT/build-device/bin/bench_filters
    [ -x "$H" ] || { echo "no $H (run 'head' first on this machine)"; exit 1; }
    for round in 1 2 3; do
      for v in base head; do
        bin=$H
        [ "$v" = base ] && bin=$B/bin/bench_filters
        [ -x "$bin" ] || { echo "$v: no $bin"; continue; }
        echo "== $v round $round (at $(($(date +%s) - T0)) s)" >>"$OUT/ab.txt"
        timeout 60 "$bin" --no-npp --reps 20 --filter "$OPS" --config u8x1,f32x1,u8x3 \
          --out "$OUT/ab_${v}_$round.json" >>"$OUT/ab.txt" 2>&1 || echo "$v $round: exit $?"
      done
    done
    python3 - "$OUT" <<'PY'
import json, statistics, sys, glob, os
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(out, "ab_*_*.json"))):
    v = os.path.basename(f).split("_")[1]
    for r in json.load(open(f)).get("rows", []):
        if r.get("status") != "ok" or not r.get("median_ms"):
            continue
        key = (r["config"], r["op"], r.get("params", ""), r.get("path", ""))
        rows.setdefault(key, {}).setdefault(v, []).append(r["median_ms"])
print(f"{'config':7} {'op':14} {'params':28} {'path':8} {'base ms':>9} {'head ms':>9} {'head/base':>9}")
for k, d in sorted(rows.items(), key=lambda kv: tuple(str(x) for x in kv[0])):
    if "base" in d and "head" in d:
        b, h = statistics.median(d["base"]), statistics.median(d["head"])
        print(f"{k[0]:7} {k[1]:14} {str(k[2])[:28]:28} {str(k[3])[:8]:8} {b:9.4f} {h:9.4f} {h / b:9.3f}")
PY
    ;;
  morph)
    B=$ROOT/build-ab-base
    [ -d .ab/base ] || { echo "no .ab/base (carry .ab)"; exit 1; }
    echo "base $(cat .ab/base/COMMIT 2>/dev/null), head $(cat COMMIT 2>/dev/null)"
    (cmake -S .ab/base -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES=90 -DTEXCV_CUDA=ON -DTEXCV_TIFF=OFF -DTEXCV_BUILD_TESTS=OFF \
      -DTEXCV_BUILD_TOOLS=OFF -DTEXCV_BUILD_EXAMPLES=OFF \
      -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 \
      -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20 \
      "-DCMAKE_CUDA_COMPILER=$(command -v nvcc)" \
      "-Dhwy_DIR=$ROOT/.devdeps/hwy/lib/x86_64-linux-gnu/cmake/hwy" >"$OUT/build_base.log" 2>&1 &&
      timeout 400 cmake --build "$B" -j 8 --target bench_filters >>"$OUT/build_base.log" 2>&1
      echo "base build rc $? at $(($(date +%s) - T0)) s") &
    TEXCV_BUILD_TARGETS="test_cuda bench_filters" TEXCV_DEADLINE=330 TEXCV_HARD_LIMIT=430 \
      bash bench/run_device.sh build >/tmp/run_device_log.txt 2>&1
    cp /tmp/run_device_log.txt "$OUT/"
    grep -A3 "== stages" "$OUT/run_device_log.txt"
    grep -E "warning" "$OUT/build.log" | sort | uniq | head -5
    echo "== ctest -L cuda (at $(($(date +%s) - T0)) s)"
    timeout 150 ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout 120 \
      >"$OUT/ctest_cuda.log" 2>&1
    echo "ctest rc $?"
    grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" "$OUT/ctest_cuda.log" |
      head -20
    wait
    H=$ROOT/build-device/bin/bench_filters
    for round in 1 2 3; do
      for v in base head; do
        bin=$H
        [ "$v" = base ] && bin=$B/bin/bench_filters
        [ -x "$bin" ] || { echo "$v: no $bin"; continue; }
        echo "== $v round $round (at $(($(date +%s) - T0)) s)" >>"$OUT/ab.txt"
        timeout 60 "$bin" --reps 20 --filter "${S13_MORPH_OPS:-erode,dilate,morphology}" \
          --config u8x1,u8x4,u8x3,f32x1 --out "$OUT/ab_${v}_$round.json" >>"$OUT/ab.txt" 2>&1 ||
          echo "$v $round: exit $?"
      done
    done
    python3 - "$OUT" <<'PY'
import json, statistics, sys, glob, os
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(out, "ab_*_*.json"))):
    v = os.path.basename(f).split("_")[1]
    for r in json.load(open(f)).get("rows", []):
        if r.get("status") != "ok" or not r.get("median_ms"):
            continue
        key = (r["config"], r["op"], r.get("params", ""), r.get("impl", ""))
        rows.setdefault(key, {}).setdefault(v, []).append(r["median_ms"])
print(f"{'config':7} {'op':12} {'params':30} {'impl':6} {'base ms':>9} {'head ms':>9} {'head/base':>9}")
for k, d in sorted(rows.items(), key=lambda kv: tuple(str(x) for x in kv[0])):
    b = statistics.median(d["base"]) if "base" in d else float("nan")
    h = statistics.median(d["head"]) if "head" in d else float("nan")
    print(f"{k[0]:7} {k[1]:12} {str(k[2])[:30]:30} {str(k[3])[:6]:6} {b:9.4f} {h:9.4f} {h / b:9.3f}")
PY
    ;;
  morph2)
    # The kernel again after a change, no base build (the budget's last call): test_cuda and
    # bench_filters, the morphology tests, erode/dilate/morphology with NPP, 2 rounds.
    TEXCV_BUILD_TARGETS="test_cuda bench_filters" TEXCV_DEADLINE=240 TEXCV_HARD_LIMIT=260 \
      bash bench/run_device.sh build >/tmp/run_device_log.txt 2>&1
    grep -A3 "== stages" /tmp/run_device_log.txt
    echo "== ctest -L cuda -R Morph (at $(($(date +%s) - T0)) s)"
    timeout 60 ctest --test-dir build-device -L cuda -R Morph --output-on-failure -j 8 \
      --timeout 60 >"$OUT/ctest_morph.log" 2>&1
    echo "ctest rc $?"
    grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)" "$OUT/ctest_morph.log" | head
    for round in 1 2; do
      timeout 30 build-device/bin/bench_filters --reps 20 --filter erode,dilate,morphology \
        --config u8x1,u8x4 --out "$OUT/morph2_$round.json" 2>&1 | grep -E "erode|dilate" |
        grep -v "^#" | head -12
    done
    ;;
  *) echo "usage: bash bench/session13_device.sh head | ab | morph | morph2 | base REV"; exit 2 ;;
esac
echo "== done at $(($(date +%s) - T0)) s"
