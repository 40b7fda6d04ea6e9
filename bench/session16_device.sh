#!/usr/bin/env bash
# Sixteenth session's device call (issue 21), one call on a fresh machine, carry
# [".devdeps", "COMMIT"] after `git rev-parse HEAD > COMMIT`:
#   bash bench/session16_device.sh a
#     builds test_cuda, bench_geometry and bench_filters (no Python, no CLI); runs the tests of
#     the kernels never run on a GPU before (the exact half and double sizes, equalize_hist's
#     table on the GPU, the tiled bilateral kernel); bench_filters' bilateral rows with the tiled
#     kernel and with the disc kernel (TEXCV_BILATERAL_KERNEL=disc), equalize_hist and gamma;
#     bench_geometry's resize rows; then every CUDA test (ctest -L cuda) in the time left.
#   bash bench/session16_device.sh p    a's tests and benchmarks from binaries built here (see p)
#   bash bench/session16_device.sh b    (the same machine, warm, within 30 s of a)
#     the whole ctest -L cuda, then bench_filters' erode / dilate / filter rows.
# Logs go to /tmp/s16 and to $OUT/s16_<stage>.tgz.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/out-device}
mkdir -p "$OUT"
T0=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH
at() { echo "(at $(($(date +%s) - T0)) s)"; }
G=/tmp/s16
mkdir -p $G
nvidia-smi -L
case "${1:-}" in
  a)
    TEXCV_BUILD_TARGETS="test_cuda bench_geometry bench_filters" TEXCV_DEADLINE=5 \
      TEXCV_HARD_LIMIT=${S16_BUILD_LIMIT:-330} bash bench/run_device.sh build >$G/run_device_a.txt 2>&1
    cp "$OUT"/build.log $G/ 2>/dev/null
    grep -A3 "== stages" $G/run_device_a.txt
    grep -E "warning" $G/build.log 2>/dev/null | sort | uniq | head -5
    [ -x build-device/tests/test_cuda ] || { echo "no test_cuda"; tail -30 $G/build.log; }
    echo "== test_cuda (new kernels) $(at)"
    timeout 90 build-device/tests/test_cuda --gtest_filter='ResizeHalfCuda.*:ResizeDoubleCuda.*:HistCuda.*:NonlinearCuda.Bilateral*:*ResizeMatchesCpu*:*ResizeFactorsMatchCpu*:*ResizeAreaCuda*' \
      >$G/test_cuda_new.log 2>&1
    echo "test_cuda rc $?"
    grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure|first at|first mismatch" $G/test_cuda_new.log | head -24
    echo "== bench_filters $(at)"
    timeout 40 build-device/bin/bench_filters --reps 20 --filter bilateral,equalize,gamma \
      --config u8x1,f32x1,u8x3 --out $G/filters_tile.json >$G/filters_tile.txt 2>&1 || echo "bench_filters: exit $?"
    grep -E "copy|bilateral|equalize|gamma" $G/filters_tile.txt | head -24
    echo "== bench_filters, the disc kernel $(at)"
    TEXCV_BILATERAL_KERNEL=disc timeout 30 build-device/bin/bench_filters --reps 20 --filter bilateral \
      --config u8x1,f32x1 --out $G/filters_disc.json >$G/filters_disc.txt 2>&1 || echo "bench_filters: exit $?"
    grep -E "bilateral" $G/filters_disc.txt | head -10
    echo "== bench_geometry $(at)"
    timeout 60 build-device/bin/bench_geometry --reps 20 --filter resize \
      --config u8x1,u8x3,u8x4,u16x1,f32x1 --out $G/geom.json >$G/geom.txt 2>&1 || echo "bench_geometry: exit $?"
    grep -E "copy|resize" $G/geom.txt | head -70
    left=$((575 - ($(date +%s) - T0)))
    echo "== ctest -L cuda $(at), $left s left"
    if [ "$left" -gt 30 ]; then
      timeout "$left" ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout $((left - 5)) \
        >$G/ctest_cuda.log 2>&1
      echo "ctest rc $?"
      grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" $G/ctest_cuda.log | head -20
    fi
    ;;
  b)
    [ -x build-device/tests/test_cuda ] || { echo "no build-device: run stage a first"; exit 1; }
    echo "== ctest -L cuda $(at)"
    timeout 300 ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout 280 \
      >$G/ctest_cuda_b.log 2>&1
    echo "ctest rc $?"
    grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" $G/ctest_cuda_b.log | head -20
    echo "== bench_filters $(at)"
    timeout 120 build-device/bin/bench_filters --reps 20 --filter erode,dilate,filter,box,sobel \
      --config u8x1,f32x1,u8x4 --out $G/filters_b.json >$G/filters_b.txt 2>&1 || echo "bench_filters: exit $?"
    grep -E "copy|erode|dilate|filter|box|sobel" $G/filters_b.txt | head -40
    ;;
  p)
    # a's tests and benchmarks without a build on the device (for a call too short for one):
    # test_cuda, bench_geometry and bench_filters built on the development machine (Debian 12,
    # the same CUDA 13 toolkit, sm_90), stripped and packed with xz into
    # build-prebuilt/stripped.tar.xz (its commit in build-prebuilt/COMMIT), the libraries Ubuntu
    # 24.04 lacks in build-prebuilt/lib; carry [".devdeps", "COMMIT", "build-prebuilt"].
    P=$ROOT/build-prebuilt
    B=/tmp/s16_pb
    mkdir -p $B && tar xJf $P/stripped.tar.xz -C $B
    export LD_LIBRARY_PATH=$P/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
    echo "binaries of $(cat $P/COMMIT 2>/dev/null)"
    ldd $B/test_cuda | grep "not found"
    echo "== test_cuda (new kernels) $(at)"
    timeout 120 $B/test_cuda --gtest_filter='ResizeHalfCuda.*:ResizeDoubleCuda.*:HistCuda.*:NonlinearCuda.Bilateral*:MorphCuda.*:FiltersCuda.Convolve*:*ResizeMatchesCpu*:*ResizeFactorsMatchCpu*:*ResizeAreaCuda*:LaunchBatchCuda.*:*Pipeline*' \
      >$G/test_cuda_p.log 2>&1
    echo "test_cuda rc $?"
    grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure|first at|first mismatch" $G/test_cuda_p.log | head -24
    echo "== bench_filters $(at)"
    timeout 120 $B/bench_filters --reps 20 --filter bilateral,equalize,gamma,erode,dilate,convolve,sharpen,sobel,box \
      --config u8x1,f32x1,u8x3,u8x4 --out $G/filters_tile.json >$G/filters_tile.txt 2>&1 || echo "bench_filters: exit $?"
    grep -E "copy|bilateral|equalize|gamma|erode|dilate|convolve|sharpen|sobel|box" $G/filters_tile.txt | head -60
    echo "== bench_filters, the disc kernel $(at)"
    TEXCV_BILATERAL_KERNEL=disc timeout 30 $B/bench_filters --reps 20 --filter bilateral \
      --config u8x1,f32x1 --out $G/filters_disc.json >$G/filters_disc.txt 2>&1 || echo "bench_filters: exit $?"
    grep -E "bilateral" $G/filters_disc.txt | head -10
    echo "== bench_geometry $(at)"
    timeout 60 $B/bench_geometry --reps 20 --filter resize --config u8x1,u8x3,u8x4,u16x1,f32x1 \
      --out $G/geom.json >$G/geom.txt 2>&1 || echo "bench_geometry: exit $?"
    grep -E "copy|resize" $G/geom.txt | head -70
    left=$((${S16_P_LIMIT:-400} - ($(date +%s) - T0)))
    echo "== the rest of test_cuda $(at), $left s left"
    if [ "$left" -gt 30 ]; then
      timeout "$left" $B/test_cuda >$G/test_cuda_all.log 2>&1
      echo "test_cuda (all) rc $?"
      grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]|tests ran" $G/test_cuda_all.log | head -30
    fi
    ;;
  *) echo "session16_device.sh: a, b or p" ;;
esac
tar czf /tmp/s16.tgz -C $G . 2>/dev/null
cp /tmp/s16.tgz "$OUT/s16_${1:-x}.tgz"
