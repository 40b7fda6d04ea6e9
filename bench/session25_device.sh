#!/usr/bin/env bash
# Twenty-fifth session (issue 21): the GPU tests, A/B runs and profiles of this session's
# kernels, then the benchmark of record on one machine: bench_geometry and bench_filters (texcv
# and NPP in the same processes), then bench/peers.py (CuPy, torch, CV-CUDA), three back-to-back
# calls on one warm machine (it goes back 30 s after a call). No build there: here first
#   S17_PACK_SLIM=1 B=build PB=build-prebuiltS bash bench/batch/session17_device.sh pack
#   CVCUDA_FIRST_PART=26M CVCUDA_PART=48M bash bench/fetch_cvcuda_wheel.sh
# then
#   call 1, carry ["COMMIT", "build-prebuiltS", "bench/wheels-cvcuda1"]:
#     bash bench/session25_device.sh t1
#     unpacks the binaries into build/, stashes the wheel's first part; all of test_cuda, the new
#     shared-tile test with 32 rows a block; A/B: the dp4a kernel's integer and float stores, the
#     shared-tile kernel's 32 and 64 rows against the texture path; ncu on this session's kernels
#     (stage t1b: ncu on two rows that still trail, rotate u8 and resize 2.0 u8). Ran once, on
#     e32f910; the integer store is gone since ce42641 (TEXCV_DP4A_STORE is read by nothing now).
#   stage t4 (carry ["COMMIT", "build-prebuiltS"], after a pack): the compact edge launch of the
#     register filter kernels (TEXCV_FILTER_EDGE_GRID=edges): the filter suites of test_cuda with
#     it, then bench_filters' u8x1 and f32x1 small filters with the whole grid and with it. Not
#     yet run (no device time left in the twenty-fifth session): run it first.
#   call 2, carry ["bench/wheels-cvcuda2"]:  bash bench/session25_device.sh t2
#     stashes the second part; bench_geometry (f32x1 u8x1 u8x4) and bench_filters (f32x1 u8x1
#     u8x4 u8x3), every path, NPP beside (bench/run_device.sh bench filters).
#   call 3, carry ["bench/wheels-cvcuda3"]:  bash bench/session25_device.sh t3
#     stashes the last part, installs CV-CUDA, runs bench/peers.py (CuPy, torch, CV-CUDA) and
#     bench/summarize.py over all three (texcv's default path against the fastest peer).
# build/ and /tmp stay between the calls while the machine is warm; logs in /tmp/s25, each call's
# in $OUT/s25_<stage>.tgz and its summary on stdout.
set -u
cd "$(dirname "$0")/.." || exit 1
G=/tmp/s25
LIBS=/tmp/s25-libs
# shellcheck source=bench/device_lib.sh
. bench/device_lib.sh
case "${1:-}" in
  t1)
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
    GT_TIMEOUT=220 gtests "test_cuda (all)" test_cuda '*' test_cuda_all.log
    TEXCV_SEP_TILE_ROWS=32 GT_TIMEOUT=40 gtests "shared tile, 32 rows" test_cuda \
      'FiltersCuda.FourChannelLong*:FiltersCuda.SeparableFilterIdenticalToCpu' test_tile32.log
    TEXCV_DP4A_STORE=float GT_TIMEOUT=40 gtests "dp4a float store" test_cuda \
      'FiltersCuda.*Dyadic*' test_dp4a_float.log
    ab dp4a bench_filters u8x1 sobel,convolve,box,sharpen TEXCV_DP4A_STORE=float \
      TEXCV_DP4A_STORE=int
    ab tile bench_filters u8x4 gaussian TEXCV_SEP_TILE_ROWS=32 TEXCV_SEP_TILE_ROWS=64
    prof bench_filters u8x4 gaussian sep_tile4
    prof bench_filters u8x1 sobel dp4a
    ;;
  t4)
    # The edge launch over the blocks outside the interior only (after t1): the suites that run
    # the filter kernels (device time was short),
    # then the filters' rows with the whole grid (TEXCV_FILTER_EDGE_GRID=full) and without.
    TEXCV_FILTER_EDGE_GRID=edges GT_TIMEOUT=100 gtests "test_cuda filter suites" test_cuda \
      'FiltersCuda.*:NonlinearCuda.*:PipelineCuda.*:LaunchBatchCuda.*:BatchSessionCuda.*' \
      test_cuda_t4.log
    ab edge bench_filters u8x1,f32x1 sobel,convolve,box,sharpen,gaussian TEXCV_FILTER_EDGE_GRID=full \
      TEXCV_FILTER_EDGE_GRID=edges
    ;;
  t1b)
    # The profiles of two rows that still trail, where device time is left.
    prof bench_geometry u8x1 "rotate 30deg linear" WarpCall
    prof bench_geometry u8x1 "resize 2.0 linear" ResizeDouble
    ;;
  t2)
    OUT=$G/rec TEXCV_BUILD_DIR=$ROOT/build TEXCV_BENCH_CONFIGS="f32x1 u8x1 u8x4" \
      TEXCV_DEADLINE=480 TEXCV_HARD_LIMIT=560 bash bench/run_device.sh bench filters \
      >$G/rec_run.txt 2>&1
    echo "run_device rc $?"
    grep -E "^== |exit|TIMED" $G/rec_run.txt | head -30
    ls $G/rec
    ;;
  t3)
    # run_device.sh packed call 2's JSON files into logs.tgz: unpack them beside the peers'.
    rm -rf $G/all && mkdir -p $G/all && tar xzf $G/rec/logs.tgz -C $G/all
    bash bench/cvcuda_device.sh install
    OUT=$G/all CVCUDA_BUDGET=330 CVCUDA_TIMEOUT=380 bash bench/cvcuda_device.sh peers
    cp $G/all/peers_cvcuda.json $G/all/peers.json
    python3 bench/summarize.py --out-dir $G/all --suite all >$G/summary.txt 2>&1
    echo "summarize rc $?"
    grep -A80 "against the fastest peer" $G/summary.txt | cut -c1-140 | head -90
    ;;
  *) echo "session25_device.sh: unknown stage '${1:-}' (t1 t2 t3)" ;;
esac
# Everything of this call back (logs.tgz of run_device.sh included), one archive.
tar czf "$OUT/s25_${1:-none}.tgz" -C $G . 2>/dev/null
ls -la "$OUT"
echo "done $(at)"
