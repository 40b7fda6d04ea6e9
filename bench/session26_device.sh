#!/usr/bin/env bash
# Twenty-sixth session (issue 21): the compact edge launch, the shared-tile store through
# store_pixels, two profiles of rows that trail, then the benchmark of record with CV-CUDA, three
# back-to-back calls on one warm machine (it goes back 30 s after a call). No build there: here first
#   S17_PACK_SLIM=1 B=build PB=build-prebuiltS bash bench/batch/session17_device.sh pack
#   CVCUDA_FIRST_PART=26M CVCUDA_PART=48M bash bench/fetch_cvcuda_wheel.sh
# then
#   call 1, carry ["COMMIT", "build-prebuiltS", "bench/wheels-cvcuda1"]:
#     bash bench/session26_device.sh s1
#     unpacks the binaries into build/, stashes the wheel's first part; the filter suites of
#     test_cuda with the compact edge launch (TEXCV_FILTER_EDGE_GRID=edges) and without; A/B of
#     the small u8x1/f32x1 filters with the whole grid and with the edges only; the u8x4 13-tap
#     gaussian (shared tile); the morphology suites and the u8 dilate/erode rows with the centred
#     ellipses on the sliding-window kernel and without; ncu on rotate u8 and resize 2.0 u8.
#   call 2, carry ["bench/wheels-cvcuda2"]:  bash bench/session26_device.sh t2
#     stashes the second part; bench_geometry (f32x1 u8x1 u8x4) and bench_filters (f32x1 u8x1
#     u8x4 u8x3), every path, NPP beside (bench/run_device.sh bench filters).
#   call 3, carry ["bench/wheels-cvcuda3"]:  bash bench/session26_device.sh t3
#     stashes the last part, installs CV-CUDA, runs bench/peers.py (CuPy, torch, CV-CUDA) and
#     bench/summarize.py over all three (texcv's default path against the fastest peer).
#   Ran: s1, t2, t3 on aff758d (H100, docs/performance.md). Not run (device time out): s3, then s2;
#   run s3 first next time (the kernels of ff5ce5d, 21027ce and 815a284 have not run on a GPU).
#   s3 (carry ["COMMIT", "build-prebuiltS"], after a pack): the changed suites and rows, rotate u8's
#     profile (s2 cut to fit ~4 minutes).
#   s2 (carry ["COMMIT", "build-prebuiltS"], after a pack and s3): all of test_cuda, profiles of
#     resize x2 u8 and bilateral f32, nsys on the bilateral f32 and sobel u8 calls.
# build/ and /tmp stay between the calls while the machine is warm; logs in /tmp/s26, each call's
# in $OUT/s26_<stage>.tgz and its summary on stdout.
set -u
cd "$(dirname "$0")/.." || exit 1
G=/tmp/s26
LIBS=/tmp/s26-libs
# shellcheck source=bench/device_lib.sh
. bench/device_lib.sh
case "${1:-}" in
  s1)
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
    TEXCV_FILTER_EDGE_GRID=edges GT_TIMEOUT=100 gtests "filter suites, edge launch" test_cuda \
      'FiltersCuda.*:NonlinearCuda.*:PipelineCuda.*:LaunchBatchCuda.*:BatchSessionCuda.*' \
      test_cuda_edges.log
    GT_TIMEOUT=100 gtests "filter suites, whole grid" test_cuda \
      'FiltersCuda.*:NonlinearCuda.*:PipelineCuda.*:LaunchBatchCuda.*:BatchSessionCuda.*' \
      test_cuda_full.log
    ab edge bench_filters u8x1,f32x1 sobel,convolve,box,sharpen,gaussian \
      TEXCV_FILTER_EDGE_GRID=full TEXCV_FILTER_EDGE_GRID=edges
    ab tile bench_filters u8x4 gaussian TEXCV_SEP_TILE_ROWS=64
    # The centred u8 ellipses and crosses on the rectangles' sliding-window kernel (split: the
    # general element kernel, as before).
    GT_TIMEOUT=150 gtests "morphology suites" test_cuda 'MorphCuda.*' test_cuda_morph.log
    ab morph bench_filters u8x1 dilate,erode TEXCV_MORPH_U8_KERNEL=split TEXCV_MORPH_U8_KERNEL=slide
    prof bench_geometry u8x1 "rotate 30deg linear" WarpCall
    prof bench_geometry u8x1 "resize 2.0 linear" ResizeDouble
    prof bench_filters f32x1 bilateral bilateral_tile
    # The f32 bilateral and u8 sobel calls' parts (nsys, where the machine has it): their kernels'
    # times, and the API calls and gaps of a few calls.
    command -v nsys || ls /usr/local/cuda/bin | grep -i nsys
    for c in "f32x1 bilateral" "u8x1 sobel"; do
      cfg=${c% *} op=${c#* }
      timeout 60 nsys profile -t cuda -o $G/nsys_$op --force-overwrite true build/bin/bench_filters \
        --config $cfg --filter $op --reps 5 --no-npp >/dev/null 2>&1 || echo "nsys rc $?"
      nsys stats -q -r cuda_gpu_kern_sum,cuda_api_sum -f csv $G/nsys_$op.nsys-rep 2>/dev/null |
        cut -c1-160 | head -30
      nsys stats -q -r cuda_gpu_trace -f csv $G/nsys_$op.nsys-rep 2>/dev/null | tail -12 |
        cut -c1-200
    done
    ;;
  s2)
    # After s3 (which times this session's rows): all of test_cuda, profiles and nsys.
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
    GT_TIMEOUT=260 gtests "test_cuda (all)" test_cuda '*' test_cuda_all.log
    ab edge2 bench_filters u8x1 sobel,convolve TEXCV_FILTER_EDGE_GRID=full \
      TEXCV_FILTER_EDGE_GRID=edges
    prof bench_geometry u8x1 "resize 2.0 linear" ResizeDouble
    prof bench_filters f32x1 bilateral bilateral_tile
    # The f32 bilateral and u8 sobel calls' parts (nsys, where the machine has it): their kernels'
    # times, and the API calls and gaps of a few calls.
    command -v nsys || ls /usr/local/cuda/bin | grep -i nsys
    for c in "f32x1 bilateral" "u8x1 sobel"; do
      cfg=${c% *} op=${c#* }
      timeout 60 nsys profile -t cuda -o $G/nsys_$op --force-overwrite true build/bin/bench_filters \
        --config $cfg --filter $op --reps 5 --no-npp >/dev/null 2>&1 || echo "nsys rc $?"
      nsys stats -q -r cuda_gpu_kern_sum,cuda_api_sum -f csv $G/nsys_$op.nsys-rep 2>/dev/null |
        cut -c1-160 | head -30
      nsys stats -q -r cuda_gpu_trace -f csv $G/nsys_$op.nsys-rep 2>/dev/null | tail -12 |
        cut -c1-200
    done
    ;;
  s3)
    # s2 cut to the device time left: the suites of this session's kernels, their rows, rotate's
    # profile.
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
    GT_TIMEOUT=120 gtests "changed suites" test_cuda \
      'MorphCuda.*:ResizeHalfCuda.*:ResizeDoubleCuda.*:FiltersCuda.*:LaunchBatchCuda.*' \
      test_cuda_s3.log
    grep -E "^\[ +(OK|FAILED) +\] (MorphCuda|Resize)" $G/test_cuda_s3.log | cut -c1-90 | head -24
    ab dbl bench_geometry u8x1,u8x4 "resize 2.0 linear" TEXCV_RESIZE_DOUBLE_ROWS=8
    ab near bench_geometry u8x1,u8x4,f32x1 "resize 0.5 nearest" TEXCV_RESIZE_HALF=0 \
      TEXCV_RESIZE_HALF=1
    ab f32morph bench_filters f32x1 dilate TEXCV_MORPH_F32_KERNEL=fused \
      TEXCV_MORPH_F32_KERNEL=slide
    ab tile2 bench_filters u8x4 gaussian TEXCV_SEP_TILE_ROWS=64
    PROF_UNTIL=200 prof bench_geometry u8x1 "rotate 30deg linear" \
      "warp_kernelIhLi1ELNS_6InterpE1ELb0ENS1_12Global"
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
  *) echo "session25_device.sh: unknown stage '${1:-}' (s1 s2 s3 t2 t3)" ;;
esac
# Everything of this call back (logs.tgz of run_device.sh included), one archive.
tar czf "$OUT/s26_${1:-none}.tgz" -C $G . 2>/dev/null
ls -la "$OUT"
echo "done $(at)"
