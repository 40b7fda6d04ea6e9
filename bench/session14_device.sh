#!/usr/bin/env bash
# Fourteenth session's device calls (issue 21 kernels, CV-CUDA as a peer, issue 17's 16 threads),
# three back-to-back calls on one warm machine (it goes back 30 s after a call), each also
# stashing one part of CV-CUDA's wheel (bench/cvcuda_device.sh; parts from
# bench/fetch_cvcuda_wheel.sh):
#   call a, carry [".devdeps", "COMMIT", "bench/wheels-cvcuda1"]:  bash bench/session14_device.sh a
#     stash; the build and pytest on the GPU (run_device.sh build python); every CUDA test
#     (ctest -L cuda); bench_filters on the ops this session changed (gamma, convert, erode,
#     dilate, morphology), NPP and the copy floor in the same processes, 2 rounds
#   call b, carry [".devdeps", "COMMIT", "bench/wheels-cvcuda2"]:  bash bench/session14_device.sh b
#     stash; issue 17: every CPU row against OpenCV on 16 threads, each library in a process of
#     its own (cpu_iso16.txt)
#   call c, carry [".devdeps", "COMMIT", "bench/wheels-cvcuda3"]:  bash bench/session14_device.sh c
#     stash and install CV-CUDA; bench_filters, bench_geometry and bench/peers.py (CuPy, torch,
#     CV-CUDA) in one run (run_device.sh filters bench peers; summary.txt)
#   call d, carry [".devdeps", "COMMIT"]:  bash bench/session14_device.sh d
#     a fresh machine: test_cuda and bench_filters only (TEXCV_BUILD_TARGETS), every CUDA test,
#     bench_filters on the changed ops (one round), then ncu on the u8 rectangle kernel (erode 3x3)
#     and on gamma f32 (profile.txt)
#   call e, carry [".devdeps", "COMMIT"]:  bash bench/session14_device.sh e
#     as d, after the u8x4 word kernel and gamma's conversions; the profiles kept this time
#     (run_device.sh clears $OUT of other files when it ends: they are gathered in /tmp first)
#   call f, carry [".devdeps", "COMMIT"]:  bash bench/session14_device.sh f
#     the fixed-size rectangle kernels: the whole build with the Python module, every CUDA test,
#     bench_filters on the changed ops, the u8 erode profile, then pytest on the GPU (last, in the
#     time left)
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/out-device}
mkdir -p "$OUT"
T0=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH
at() { echo "(at $(($(date +%s) - T0)) s)"; }
case "${1:-}" in
  a)
    bash bench/cvcuda_device.sh stash
    TEXCV_DEADLINE=290 TEXCV_HARD_LIMIT=370 bash bench/run_device.sh build python \
      >/tmp/run_device_log.txt 2>&1  # not in $OUT: run_device.sh packs $OUT into logs.tgz
    cp /tmp/run_device_log.txt "$OUT/"
    grep -A4 "== stages" "$OUT/run_device_log.txt"
    grep -E "warning" "$OUT/build.log" | sort | uniq | head -5
    tail -3 "$OUT/pytest.log" 2>/dev/null
    echo "== ctest -L cuda $(at)"
    timeout 140 ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout 150 \
      >"$OUT/ctest_cuda.log" 2>&1
    echo "ctest rc $?"
    grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" "$OUT/ctest_cuda.log" |
      head -20
    H=build-device/bin/bench_filters
    for round in 1 2; do
      [ $(($(date +%s) - T0)) -lt 520 ] || break
      echo "== bench_filters round $round $(at)" >>"$OUT/ops.txt"
      timeout 40 "$H" --reps 20 --filter "${S14_OPS:-gamma,convert,erode,dilate,morphology}" \
        --config u8x1,f32x1,u8x4 --out "$OUT/ops_$round.json" >>"$OUT/ops.txt" 2>&1 ||
        echo "round $round: exit $?"
    done
    grep -E "copy|gamma|convert|erode 3x3|dilate 3x3" "$OUT/ops.txt" | head -60
    ;;
  b)
    bash bench/cvcuda_device.sh stash
    pkg=/tmp/texcv-pypkg  # run_device.sh's python stage assembled it in call a
    if [ ! -d "$pkg/texcv" ]; then
      echo "no $pkg: building again $(at)"
      TEXCV_DEADLINE=250 TEXCV_HARD_LIMIT=300 bash bench/run_device.sh build python >/dev/null
    fi
    echo "== cpu_vs_opencv 16 threads isolated $(at)"
    PYTHONPATH=$pkg timeout "${S14_CPU_TIMEOUT:-300}" python3 bench/cpu_vs_opencv.py --threads 16 \
      --set all --reps 11 --order isolated --out "$OUT/cpu_iso16.json" >"$OUT/cpu_iso16.txt" 2>&1
    echo "rc $? $(at)"
    tail -45 "$OUT/cpu_iso16.txt"
    ;;
  c)
    bash bench/cvcuda_device.sh stash install
    echo "== filters bench peers $(at)"
    PYTHONPATH=/tmp/texcv-cvcuda TEXCV_DEADLINE=480 TEXCV_HARD_LIMIT=560 \
      bash bench/run_device.sh filters bench peers >/tmp/run_device_log.txt 2>&1
    cp /tmp/run_device_log.txt "$OUT/"
    grep -A6 "== stages" "$OUT/run_device_log.txt"
    grep -iE "cvcuda|Traceback|Error" "$OUT/peers.txt" | head -30
    ;;
  d | e)
    TEXCV_BUILD_TARGETS="test_cuda bench_filters" TEXCV_DEADLINE=300 TEXCV_HARD_LIMIT=330 \
      bash bench/run_device.sh build >/tmp/run_device_log.txt 2>&1
    cp /tmp/run_device_log.txt "$OUT/"
    grep -A3 "== stages" "$OUT/run_device_log.txt"
    grep -E "warning" "$OUT/build.log" 2>/dev/null | sort | uniq | head -5
    echo "== ctest -L cuda $(at)"
    timeout 150 ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout 140 \
      >"$OUT/ctest_cuda.log" 2>&1
    echo "ctest rc $?"
    grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" "$OUT/ctest_cuda.log" |
      head -20
    echo "== bench_filters $(at)" >/tmp/ops.txt
    timeout 40 build-device/bin/bench_filters --reps 20 \
      --filter "${S14_OPS:-gamma,convert,erode,dilate}" --config u8x1,f32x1,u8x4 \
      --out /tmp/ops_d.json >>/tmp/ops.txt 2>&1 || echo "bench_filters: exit $?"
    grep -E "^(f32x1|u8x1|u8x4) +(copy|gamma|convert|erode|dilate)" /tmp/ops.txt | head -20
    echo "== profile $(at)"
    rm -f /tmp/profile_all.txt
    for pc in "u8x1:erode 3x3|morph_rect_u8" "u8x4:erode 3x3|morph_rect_kernel" \
      "f32x1:gamma|point_kernel"; do
      [ $(($(date +%s) - T0)) -lt 540 ] || break
      TEXCV_PROFILE_CASES="${pc%%|*}" TEXCV_PROFILE_KERNEL="${pc#*|}" TEXCV_DEADLINE=590 \
        TEXCV_HARD_LIMIT=$((590 - ($(date +%s) - T0))) bash bench/run_device.sh profile \
        >>/tmp/profile_log.txt 2>&1
      cat "$OUT/profile.txt" >>/tmp/profile_all.txt
    done
    cp /tmp/profile_all.txt "$OUT/profile_all.txt"
    cp /tmp/ops.txt "$OUT/ops.txt" 2>/dev/null
    grep -E "^=== |Duration|DRAM Throughput|Achieved Occupancy|Executed Ipc A|L1/TEX Hit|One or More|Stall" \
      "$OUT/profile_all.txt" | head -60
    ;;
  f)
    # "build python" with a deadline that skips the python stage: the module is built only when
    # that stage is asked for (at 7188eff it was not, so the pytest below found no module).
    TEXCV_DEADLINE=5 TEXCV_HARD_LIMIT=300 bash bench/run_device.sh build python \
      >/tmp/run_device_log.txt 2>&1
    cp /tmp/run_device_log.txt "$OUT/"
    grep -A3 "== stages" "$OUT/run_device_log.txt"
    grep -E "warning" "$OUT/build.log" 2>/dev/null | sort | uniq | head -5
    echo "== ctest -L cuda $(at)"
    timeout 130 ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout 120 \
      >/tmp/ctest_cuda.log 2>&1
    echo "ctest rc $?"
    grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" /tmp/ctest_cuda.log |
      head -20
    echo "== bench_filters $(at)" >/tmp/ops.txt
    timeout 40 build-device/bin/bench_filters --reps 20 --filter "${S14_OPS:-erode,dilate,gamma}" \
      --config u8x1,f32x1,u8x4 --out /tmp/ops_f.json >>/tmp/ops.txt 2>&1 ||
      echo "bench_filters: exit $?"
    grep -E "^(f32x1|u8x1|u8x4) +(copy|gamma|erode|dilate)" /tmp/ops.txt | head -20
    echo "== profile $(at)"
    TEXCV_PROFILE_CASES="u8x1:erode 3x3" TEXCV_PROFILE_KERNEL=morph_rect_u8 TEXCV_DEADLINE=590 \
      TEXCV_HARD_LIMIT=60 bash bench/run_device.sh profile >/tmp/profile_log.txt 2>&1
    cp "$OUT/profile.txt" /tmp/profile_all.txt
    grep -E "Duration|DRAM Throughput|Executed Instructions  |Achieved Occupancy" /tmp/profile_all.txt |
      head -8
    echo "== pytest $(at)"
    left=$((520 - ($(date +%s) - T0)))
    if [ "$left" -gt 120 ]; then
      TEXCV_DEADLINE=5 TEXCV_HARD_LIMIT=$((left + 150)) bash bench/run_device.sh python \
        >/tmp/pytest_stage.txt 2>&1
      tail -4 "$OUT/pytest.log"
    else
      echo "pytest skipped: $left s left"
    fi
    cp /tmp/ctest_cuda.log /tmp/ops.txt /tmp/profile_all.txt "$OUT/" 2>/dev/null
    ;;
  *) echo "session14_device.sh: a to f" ;;
esac
