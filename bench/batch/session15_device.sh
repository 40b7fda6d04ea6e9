#!/usr/bin/env bash
# Fifteenth session's device calls: issue 15 (--device cuda's workers set up in the background
# while the decode threads check the first JPEG files, EngineConfig::gpu_jpeg_coming) and the
# first GPU run of 00b0203 (gamma's acceptance test in src/core/pow_accept.hpp). Two
# back-to-back calls on one warm machine (it goes back 30 s after a call), each with carry
# [".devdeps", "COMMIT"] after `git rev-parse HEAD > COMMIT`:
#   a: bash bench/batch/session15_device.sh a
#      the whole build with the Python module (run_device.sh build python, its pytest stage
#      skipped by the deadline), every CUDA test (ctest -L cuda), test_batch (the
#      scheduler's fakes) and test_cli's Batch* tests on the GPU
#   b: bash bench/batch/session15_device.sh b
#      A/B on the 1,000 and the 8,000 JPEGs (bench/batch/ab_variants.sh, medians of 3 each):
#      cuda (the default: the set-up before the run), cuda with TEXCV_BATCH_CUDA_BACKGROUND=1 (in
#      the background while the decoders check files; at 7e0cc90, where this ran, that was the
#      default and the other variant was TEXCV_BATCH_CUDA_UPFRONT=1), auto, auto with
#      TEXCV_BATCH_AUTO_PRECHECK=1, OpenCV's pool; a background cuda run with
#      TEXCV_BATCH_TIMING=1; then pytest on the GPU (run_device.sh python) in the time left
#   c: bash bench/batch/session15_device.sh c   (a fresh machine; issue 21)
#      resize to half size by 16-byte chunks, equalize_hist's table on the GPU: test_cuda,
#      bench_geometry and bench_filters only, every CUDA test, bench_geometry's resize rows twice
#      (S15_OPS to change the filter), bench_filters' equalize_hist and gamma u8 rows
#   d: as c in less time: only the changed ops' tests, one bench_geometry round
#   e: as d with binaries built here (no build on the device; see the stage's comment)
# Logs are gathered in /tmp and copied to $OUT at the end (run_device.sh clears $OUT of other
# files when it ends).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/out-device}
mkdir -p "$OUT"
T0=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH
at() { echo "(at $(($(date +%s) - T0)) s)"; }
G=/tmp/s15
mkdir -p $G
case "${1:-}" in
  a)
    TEXCV_DEADLINE=5 TEXCV_HARD_LIMIT=330 bash bench/run_device.sh build python >$G/run_device_a.txt 2>&1
    cp "$OUT"/build.log $G/ 2>/dev/null
    grep -A3 "== stages" $G/run_device_a.txt
    grep -E "warning" $G/build.log 2>/dev/null | sort | uniq | head -5
    echo "== ctest -L cuda $(at)"
    timeout 150 ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout 140 \
      >$G/ctest_cuda.log 2>&1
    echo "ctest rc $?"
    grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" $G/ctest_cuda.log | head -20
    echo "== test_batch $(at)"
    timeout 60 build-device/tests/test_batch >$G/test_batch.log 2>&1
    echo "test_batch rc $?"
    grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]" $G/test_batch.log | head
    echo "== test_cli Batch* $(at)"
    left=$((585 - ($(date +%s) - T0)))
    timeout "$left" build-device/tests/test_cli --gtest_filter='Batch*' >$G/batch_tests.log 2>&1
    echo "Batch* rc $?"
    grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure" $G/batch_tests.log | head -20
    grep -E "^\[ info \]" $G/batch_tests.log | head -8
    ;;
  b)
    export TEXCV_AB_SETS="jpeg jpegx" TEXCV_AB_REPEAT=3
    [ -x build-device/bin/texcv ] || { echo "no build-device/bin/texcv: run stage a first"; exit 1; }
    OUT=$G bash bench/batch/ab_variants.sh \
      "cuda|texcv-cuda|" "cuda_bg|texcv-cuda|TEXCV_BATCH_CUDA_BACKGROUND=1" \
      "auto|texcv-auto|" "auto_pre|texcv-auto|TEXCV_BATCH_AUTO_PRECHECK=1" 2>&1 | tee $G/ab.txt
    TEXCV_AB_SETS=jpeg OUT=$G bash bench/batch/ab_variants.sh "opencv|opencv|" 2>&1 | tee -a $G/ab.txt
    echo "== timed cuda run $(at)"
    rm -rf /tmp/s15_timed
    TEXCV_BATCH_CUDA_BACKGROUND=1 TEXCV_BATCH_TIMING=1 /usr/bin/time -v build-device/bin/texcv batch -i /tmp/texcv-batch-data/jpeg \
      -o /tmp/s15_timed -p "resize:scale=0.5;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125" \
      -d cuda -f jpeg -q 90 >$G/timed.txt 2>&1
    grep -E "texcv batch:|Maximum resident|Elapsed" $G/timed.txt | head -20
    left=$((560 - ($(date +%s) - T0)))
    echo "== pytest $(at), $left s left"
    if [ "$left" -gt 150 ]; then
      TEXCV_DEADLINE=5 TEXCV_HARD_LIMIT=$((left + 20)) bash bench/run_device.sh python \
        >$G/pytest_stage.txt 2>&1
      cp "$OUT"/pytest.log $G/ 2>/dev/null
      tail -4 $G/pytest.log
    fi
    ;;
  c)
    # The half-size resize kernel (resize_half_fits): test_cuda and bench_geometry only, every
    # CUDA test, then bench_geometry's resize rows (NPP and the copy floor in the same process),
    # two rounds.
    TEXCV_BUILD_TARGETS="test_cuda bench_geometry bench_filters" TEXCV_DEADLINE=5 TEXCV_HARD_LIMIT=300 \
      bash bench/run_device.sh build >$G/run_device_c.txt 2>&1
    cp "$OUT"/build.log $G/ 2>/dev/null
    grep -A3 "== stages" $G/run_device_c.txt
    grep -E "warning" $G/build.log 2>/dev/null | sort | uniq | head -5
    echo "== ctest -L cuda $(at)"
    timeout 110 ctest --test-dir build-device -L cuda --output-on-failure -j 8 --timeout 100 \
      >$G/ctest_cuda.log 2>&1
    echo "ctest rc $?"
    grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Skipped\)" $G/ctest_cuda.log | head -20
    for round in 1 2; do
      [ $(($(date +%s) - T0)) -lt "${S15_GEOM_BEFORE:-440}" ] || break
      echo "== bench_geometry round $round $(at)" >>$G/geom.txt
      timeout 60 build-device/bin/bench_geometry --reps 20 --filter "${S15_OPS:-resize}" \
        --config u8x1,u8x3,u8x4,u16x1,f32x1 --out $G/geom_$round.json >>$G/geom.txt 2>&1 ||
        echo "round $round: exit $?"
    done
    grep -E "copy|resize" $G/geom.txt | head -80
    echo "== bench_filters $(at)"
    timeout 40 build-device/bin/bench_filters --reps 20 --filter "${S15_FILTER_OPS:-equalize,gamma}" \
      --config u8x1 --out $G/filters.json >$G/filters.txt 2>&1 || echo "bench_filters: exit $?"
    grep -E "copy|equalize|gamma" $G/filters.txt | head -20
    ;;
  d)
    # c in less device time (the session had 451 s left): the tests of the changed ops only
    # (test_cuda's resize, histogram, batched-launch and pipeline tests), one bench_geometry round.
    TEXCV_BUILD_TARGETS="test_cuda bench_geometry bench_filters" TEXCV_DEADLINE=5 TEXCV_HARD_LIMIT=285 \
      bash bench/run_device.sh build >$G/run_device_d.txt 2>&1
    cp "$OUT"/build.log $G/ 2>/dev/null
    grep -A3 "== stages" $G/run_device_d.txt
    grep -E "warning" $G/build.log 2>/dev/null | sort | uniq | head -5
    echo "== test_cuda (changed ops) $(at)"
    timeout 60 build-device/tests/test_cuda --gtest_filter='ResizeHalfCuda.*:HistCuda.*:LaunchBatchCuda.*:*ResizeMatchesCpu*:*ResizeFactorsMatchCpu*:*ResizeAreaCuda*:*Pipeline*' \
      >$G/test_cuda_d.log 2>&1
    echo "test_cuda rc $?"
    grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure|first mismatch" $G/test_cuda_d.log | head -20
    echo "== bench_geometry $(at)"
    timeout 45 build-device/bin/bench_geometry --reps 20 --filter resize \
      --config u8x1,u8x4,u8x3,u16x1 --out $G/geom_d.json >$G/geom.txt 2>&1 || echo "bench_geometry: exit $?"
    grep -E "copy|resize" $G/geom.txt | head -60
    echo "== bench_filters $(at)"
    timeout 25 build-device/bin/bench_filters --reps 20 --filter equalize --config u8x1 \
      --out $G/filters.json >$G/filters.txt 2>&1 || echo "bench_filters: exit $?"
    grep -E "copy|equalize" $G/filters.txt | head -10
    ;;
  e)
    # d without a build on the device (the session had 361 s left): test_cuda, bench_geometry and
    # bench_filters built on the development machine (Debian 12, the same CUDA 13 toolkit, sm_90),
    # stripped and packed with xz into build-prebuilt/stripped.tar.xz, the libraries Ubuntu 24.04
    # lacks (libhwy, libtiff and its codecs, libjpeg.so.62) in build-prebuilt/lib; carry
    # [".devdeps", "COMMIT", "build-prebuilt"]. The tests that read the repository's files by
    # their build-time path are not among those run.
    P=$ROOT/build-prebuilt
    B=/tmp/s15_pb
    mkdir -p $B && tar xJf $P/stripped.tar.xz -C $B
    export LD_LIBRARY_PATH=$P/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
    ldd $B/test_cuda | grep "not found"
    nvidia-smi -L
    echo "== test_cuda (changed ops) $(at)"
    timeout 90 $B/test_cuda --gtest_filter='ResizeHalfCuda.*:ResizeDoubleCuda.*:HistCuda.*:LaunchBatchCuda.*:*ResizeMatchesCpu*:*ResizeFactorsMatchCpu*:*ResizeAreaCuda*:*Pipeline*:ColorCuda.Gamma*' \
      >$G/test_cuda_e.log 2>&1
    echo "test_cuda rc $?"
    grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure|first mismatch" $G/test_cuda_e.log | head -20
    echo "== bench_geometry $(at)"
    timeout 60 $B/bench_geometry --reps 20 --filter resize --config u8x1,u8x4,u8x3,u16x1 \
      --out $G/geom_e.json >$G/geom.txt 2>&1 || echo "bench_geometry: exit $?"
    grep -E "copy|resize" $G/geom.txt | head -60
    echo "== bench_filters $(at)"
    timeout 30 $B/bench_filters --reps 20 --filter equalize,gamma --config u8x1 \
      --out $G/filters.json >$G/filters.txt 2>&1 || echo "bench_filters: exit $?"
    grep -E "copy|equalize|gamma" $G/filters.txt | head -10
    ;;
  *) echo "session15_device.sh: a to e" ;;
esac
tar czf /tmp/s15.tgz -C $G . 2>/dev/null
cp /tmp/s15.tgz "$OUT/s15_$1.tgz"
