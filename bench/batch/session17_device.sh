#!/usr/bin/env bash
# Seventeenth session (issue 15): check_jpeg's fast verdict (src/io/codec_jpeg_scan.cpp) on the
# GPU machine, with no build there. Two places:
#   here (the development machine, a build folder configured with CUDA, NPP and nvJPEG from the
#   PyPI wheels; /tmp does not survive a session, so first:
#     pip download --no-deps "nvidia-npp>=13" -d /tmp/nppw && mkdir -p /tmp/npp &&
#       (cd /tmp/npp && unzip -q -o /tmp/nppw/*.whl) &&
#       (cd /tmp/npp/nvidia/cu13/lib && for f in *.so.13; do ln -sf $f ${f%.13}; done)
#     pip download --no-deps "nvidia-nvjpeg>=13" -d /tmp/nvjw && mkdir -p /tmp/nvj &&
#       (cd /tmp/nvj && unzip -q -o /tmp/nvjw/*.whl)
#     cmake build -DTEXCV_NPP_ROOT=/tmp/npp/nvidia/cu13 \
#       -DTEXCV_NVJPEG_INCLUDE=/tmp/nvj/nvidia/cu13/include \
#       -DTEXCV_NVJPEG_LIBRARY=/tmp/nvj/nvidia/cu13/lib/libnvjpeg.so.13
#   then):
#     B=build bash bench/batch/session17_device.sh pack
#   builds texcv, test_cli, test_batch, test_io, test_cuda, bench_geometry, bench_filters and
#   bench/io_jpeg_check.cpp, strips them and packs them with xz into build-prebuilt/ (with
#   nvJPEG's library; build-prebuilt/lib keeps the libraries Ubuntu 24.04 lacks), its commit in
#   build-prebuilt/COMMIT and COMMIT. Then the device call, carry
#   [".devdeps", "COMMIT", "build-prebuilt"]:
#     bash bench/batch/session17_device.sh a
#   unpacks the binaries into build/ (where the tests expect the CLI and their data: the
#   repository is linked at the path it was built at when that path is free), then
#     1. bench/io_jpeg_check on the 1,000 JPEGs, 16 threads and 1: the fast verdict, check_jpeg
#        with it and without it (TEXCV_JPEG_SCAN=0), the full CPU decode;
#     2. bench/batch/ab_variants.sh on the 1,000 and the 8,000 JPEGs, medians of 3: cuda and auto
#        with and without the fast verdict, cuda with 4 CUDA workers, then OpenCV's pool and
#        texcv-cpu on the 1,000; a cuda run with
#        TEXCV_BATCH_TIMING=1 (where a worker's time goes);
#     3. test_io's JPEG verdict tests, test_batch, test_cli's Batch* tests on the GPU (the
#        cross-device verdict test and nvJPEG against libjpeg-turbo among them);
#     4. test_cuda in the time left (the sixteenth session's last kernels, 5f6c52e, never ran).
# Stage c (eighteenth session) is the benchmark of record instead: bench/batch/run.sh on all
# three sets with every tool (carry bench/batch/wheels too, for pyvips). Stage d (nineteenth
# session; ran once, JPEG sets only, S17_LIMIT=215): nvJPEG's set-up by backend
# (bench/batch/nvjpeg_setup.cpp), then auto (b646a05's decision), cpu and auto as before
# (TEXCV_BATCH_AUTO_ALWAYS_JOIN=1) on both JPEG sets, cpu without the host buffer cache
# (TEXCV_BATCH_HOST_CACHE=0); then the TIFF task's I/O floor (cat of the 32 inputs, 16 at a
# time), the TIFF A/B (cuda with and without the cache, cpu, auto) and timed TIFF runs, timed
# auto and cpu JPEG runs and both on the 8,000, the verdict tests and test_batch, each in the
# time left (S17_LIMIT; S17_DATA_SETS=jpeg skips making the TIFFs). Not yet run: its TIFF part,
# and auto with its CPU workers at nice 0 (auto_nice0, added after the run).
# Logs go to /tmp/s17 and $OUT/s17_<stage>.tgz.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
if [ "${1:-}" = pack ]; then
  B=${B:-build}
  PB=${PB:-build-prebuilt}  # another folder (build-prebuilt*) packs beside one in use
  # S17_PACK_SLIM=1 (twenty-fifth session): only test_cuda, bench_geometry and bench_filters, no
  # nvJPEG (the kernel tests and benchmarks, small enough to travel beside a part of a wheel).
  if [ "${S17_PACK_SLIM:-0}" = 1 ]; then
    cmake --build "$B" -j2 --target test_cuda bench_geometry bench_filters || exit 1
    bins="bin/bench_geometry bin/bench_filters tests/test_cuda"
  else
    cmake --build "$B" -j2 --target texcv_cli test_cli test_batch test_io test_cuda bench_geometry \
      bench_filters || exit 1
    nvj=$(grep -E "^TEXCV_NVJPEG_LIBRARY:" "$B/CMakeCache.txt" | cut -d= -f2)
    [ -f "$nvj" ] || { echo "no nvJPEG in $B (TEXCV_NVJPEG_LIBRARY)"; exit 1; }
    cuda=$(dirname "$(command -v nvcc)")/..
    g++ -std=c++20 -O2 -Wall -Wextra -I . -I include bench/io_jpeg_check.cpp "$B/src/libtexcv.a" \
      -ltiff -lpng -ljpeg -lhwy -fopenmp -pthread -L"$cuda/lib64" -lcudart "$nvj" \
      -o "$B/bin/io_jpeg_check" || exit 1
    bins="bin/texcv bin/bench_geometry bin/bench_filters bin/io_jpeg_check tests/test_cli
      tests/test_batch tests/test_io tests/test_cuda"
  fi
  rm -rf /tmp/pb && mkdir -p /tmp/pb/bin /tmp/pb/tests
  for f in $bins; do
    strip -o "/tmp/pb/$f" "$B/$f" || exit 1
  done
  rm -rf $PB/lib && mkdir -p $PB/lib
  [ "${S17_PACK_SLIM:-0}" = 1 ] || cp -L "$nvj" $PB/lib/
  # The shared libraries of this machine that Ubuntu 24.04 lacks or names otherwise (Debian's
  # libjpeg.so.62, libtiff.so.6 and what it links, Highway): a fresh development machine links
  # them dynamically (the nineteenth session's first device call found them missing).
  for f in $(ldd "$B/bin/bench_filters" "$B/tests/test_cuda" | awk '$2 == "=>" {print $3}' |
    sort -u | grep -E "hwy|jpeg\.so\.62|tiff|webp|sharpyuv|zstd|lzma|Lerc|jbig|deflate|png16"); do
    cp -L "$f" $PB/lib/
  done
  rm -f $PB/stripped.tar.xz
  (tar cf - -C /tmp/pb . | xz -T2 --lzma2=preset=6,dict=192MiB >$PB/stripped.tar.xz) ||
    exit 1
  echo "$(cd "$B" && pwd)" >$PB/BUILT_AT
  git rev-parse HEAD | tee $PB/COMMIT COMMIT
  du -sh $PB .devdeps
  exit 0
fi
OUT=${OUT:-$ROOT/out-device}
mkdir -p "$OUT"
T0=$(date +%s)
at() { echo "(at $(($(date +%s) - T0)) s)"; }
G=/tmp/s17
mkdir -p $G
nvidia-smi -L
P=$ROOT/${PB:-build-prebuilt}
echo "binaries of $(cat $P/COMMIT), tree of $(cat COMMIT 2>/dev/null)"
# The tests look for the CLI and their data under the path they were built at.
built=$(cat $P/BUILT_AT)
src=$(dirname "$built")
mkdir -p build && tar xJf $P/stripped.tar.xz -C build
if [ "$src" != "$ROOT" ] && [ ! -e "$src" ]; then
  mkdir -p "$(dirname "$src")" 2>/dev/null && ln -s "$ROOT" "$src" && echo "linked $src -> $ROOT"
fi
[ "$(basename "$built")" = build ] || ln -sfn "$ROOT/build" "$src/$(basename "$built")"
export LD_LIBRARY_PATH=$P/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
ldd build/bin/texcv | grep "not found"
nproc
# The virtio devices (id, first feature bits): a balloon (0x0005) with bit 5 set reports free
# memory to its host, and texcv then leaves huge pages off (detail::huge_pages_by_default).
for d in /sys/bus/virtio/devices/*; do
  echo "virtio $(basename "$d") $(cat "$d/device" 2>/dev/null) $(cut -c1-8 "$d/features" 2>/dev/null)"
done
JPEG_STEPS="resize:scale=0.5;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125"
# A TEXCV_BATCH_TIMING run of the JPEG task: timed_run DEVICE INPUTS LOG.
timed_run() {
  rm -rf /tmp/s17_timed
  TEXCV_BATCH_TIMING=1 /usr/bin/time -v build/bin/texcv batch -i "$2" -o /tmp/s17_timed \
    -p "$JPEG_STEPS" -d "$1" -f jpeg -q 90 >"$3" 2>&1
  grep -E "texcv batch:|Maximum resident|Elapsed|Minor|System time|User time" "$3" | grep -v "^texcv batch: [0-9]* file" | head -24
  rm -rf /tmp/s17_timed
}
# One gtest binary's tests within GT_TIMEOUT s (default 60), a summary of its log: gtests LABEL
# BINARY FILTER LOG [EXTRA: another line pattern to show].
gtests() {
  echo "== $1 $(at)"
  timeout "${GT_TIMEOUT:-60}" build/tests/$2 --gtest_filter="$3" >$G/$4 2>&1
  echo "$1 rc $?"
  grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure${5:+|$5}" $G/$4 | head
}
# The JPEG verdict tests.
verdict_tests() {
  gtests "test_io JPEG verdicts" test_io 'IoJpegScan.*:IoCorruptJpeg.*' test_io.log "damaged copies"
}
# test_batch within LIMIT seconds of the start: batch_tests LIMIT.
batch_tests() {
  local left=$(($1 - ($(date +%s) - T0)))
  echo "== test_batch $(at), $left s left"
  if [ "$left" -gt 20 ]; then
    timeout "$left" build/tests/test_batch >$G/test_batch.log 2>&1
    echo "test_batch rc $?"
    grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]" $G/test_batch.log | head
  fi
}
# test_cli's Batch* tests within LIMIT seconds of the start: cli_batch_tests LIMIT.
cli_batch_tests() {
  local left=$(($1 - ($(date +%s) - T0)))
  echo "== test_cli Batch* $(at), $left s left"
  if [ "$left" -gt 20 ]; then
    timeout "$left" build/tests/test_cli --gtest_filter='Batch*' >$G/test_cli_batch.log 2>&1
    echo "Batch* rc $?"
    grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure" $G/test_cli_batch.log | head -20
  fi
}
# The TIFF task's I/O floor: each input copied to a file (cat, 16 at a time), no decode.
tiff_floor() {
  echo "== TIFF I/O floor $(at)"
  rm -rf /tmp/s17_floor && mkdir -p /tmp/s17_floor && sync
  for r in 1 2 3; do
    t0=$EPOCHREALTIME
    ls /tmp/texcv-batch-data/tiff/*.tif | xargs -P 16 -I{} sh -c 'cat "$1" > /tmp/s17_floor/$(basename "$1")' _ {}
    t1=$EPOCHREALTIME
    echo "cat 32 TIFFs, 16 at a time: $(awk -v a=$t0 -v b=$t1 'BEGIN{printf "%.3f", b - a}') s"
    rm -f /tmp/s17_floor/*
  done
}
# The 1,000 JPEGs and the 32 TIFFs written (by a cpu run of run.sh) and synced: test_data TIMEOUT.
test_data() {
  echo "== data $(at)"
  TEXCV=$ROOT/build/bin/texcv OUT=$G/warm timeout "$1" bash bench/batch/run.sh --sets "jpeg tiff" \
    --jpeg 1000 --tiff 32 --tools texcv-cpu --repeat 1 --data /tmp/texcv-batch-data \
    --work /tmp/texcv-batch-work >$G/data.log 2>&1
  echo "$(ls /tmp/texcv-batch-data/jpeg | wc -l) JPEGs, $(ls /tmp/texcv-batch-data/tiff | wc -l) TIFFs"
  sync
}
# A TEXCV_BATCH_TIMING run of the TIFF task: timed_tiff DEVICE LOG.
timed_tiff() {
  rm -rf /tmp/s17_tiff
  TEXCV_BATCH_TIMING=1 /usr/bin/time -v build/bin/texcv batch -i /tmp/texcv-batch-data/tiff -o /tmp/s17_tiff \
    -p "crop:x=100,y=100,width=4800,height=4800;resize:scale=0.9;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125" \
    -d "$1" -f tiff --tiff-compression none >"$2" 2>&1
  grep -E "texcv batch:|Elapsed|Minor|System time|User time|Maximum resident" "$2" | grep -v "^texcv batch: [0-9]* file" | head -24
  rm -rf /tmp/s17_tiff
}
# The benchmark of record (issue 15, item 7): bench/batch/run.sh on the 1,000 JPEGs, the 8,000
# and the 32 TIFFs, every tool, median of 3, in one run: record_run TIMEOUT.
record_run() {
  echo "== run.sh of record $(at)"
  TEXCV=$ROOT/build/bin/texcv OUT=$G/rec timeout "$1" bash bench/batch/run.sh \
    --sets "jpeg jpegx tiff" --jpeg 1000 --jpegx 8 --tiff 32 --repeat 3 \
    --tools "texcv-auto texcv-cuda texcv-cpu opencv vips" --jpegx-tools "texcv-auto texcv-cuda" \
    --data /tmp/texcv-batch-data --work /tmp/texcv-batch-work >$G/rec.log 2>&1
  echo "run.sh rc $?"
}
# test_cuda's CudaRuntime tests (the pinned and huge-page buffers).
runtime_tests() { gtests "test_cuda CudaRuntime.*" test_cuda 'CudaRuntime.*' test_cuda_rt.log; }
# The runtime, batch and Batch* tests, then the benchmark of record (stages n and o).
tests_and_record() {
  runtime_tests
  batch_tests 110
  cli_batch_tests 185
  record_run 310
  grep -E "^\| (jpeg|jpegx|tiff) " $G/rec.log | head -20
}
# Whether more than MARGIN seconds of S17_LIMIT (default 560) are left: time_left MARGIN.
time_left() { [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - $1)) ]; }
# Interleaved rounds of texcv batch variants (ab_rounds.sh; the TIFF set has 32 files), logged to
# $G/ab.txt: rounds SETS ROUNDS OUTDIR "NAME|TOOL|ENV" ...
rounds() {
  local sets=$1 n=$2 out=$3
  shift 3
  echo "== $sets, $n rounds $(at)"
  TEXCV_AB_SETS=$sets TEXCV_AB_TIFF=32 TEXCV_AB_ROUNDS=$n TEXCV=$ROOT/build/bin/texcv \
    OUT=$G/$out bash bench/batch/ab_rounds.sh "$@" 2>&1 | tee -a $G/ab.txt
}
# Nsight Compute on one kernel of one bench_filters row (the second launch after a warm-up):
# profile_kernel CONFIG FILTER KERNEL_REGEX; the report in $G/ncu_CONFIG_FILTER.txt.
profile_kernel() {
  local ncu=/usr/local/cuda/bin/ncu f=$G/ncu_$1_$2.txt
  command -v ncu >/dev/null 2>&1 && ncu=$(command -v ncu)
  time_left 60 || { echo "no time left for ncu $1 $2"; return; }
  echo "== ncu $1 $2 ($3) $(at)"
  timeout 60 "$ncu" --kernel-name-base mangled --kernel-name regex:"$3" --launch-skip 1 \
    --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section InstructionStats --section MemoryWorkloadAnalysis --section SchedulerStats \
    build/bin/bench_filters --config "$1" --filter "$2" --reps 2 --warmup 1 --no-npp \
    --out /tmp/prof.json >"$f" 2>&1 || echo "ncu rc $?"
  grep -E "^  [a-z_0-9]+.*\(|Duration|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Theoretical Occ|Registers Per|Executed Ipc A|Issue Slots Busy|No Eligible|Stall|Block Limit|Waves|ERR" \
    "$f" | head -30
}
case "${1:-}" in
  a)
    echo "== data $(at)"
    py=python3
    TEXCV=$ROOT/build/bin/texcv OUT=$G/warm timeout 120 bash bench/batch/run.sh --sets jpeg \
      --jpeg 1000 --tools texcv-cpu --repeat 1 --data /tmp/texcv-batch-data \
      --work /tmp/texcv-batch-work >$G/data.log 2>&1
    ls /tmp/texcv-batch-data/jpeg | wc -l
    sync
    sleep 2
    echo "== io_jpeg_check $(at)"
    for th in 16 1; do
      build/bin/io_jpeg_check /tmp/texcv-batch-data/jpeg $th 3 scan,check,decode
      TEXCV_JPEG_SCAN=0 build/bin/io_jpeg_check /tmp/texcv-batch-data/jpeg $th 3 check | tail -1
    done 2>&1 | tee $G/io_jpeg_check.txt
    echo "== batch A/B $(at)"
    export TEXCV_AB_SETS="jpeg jpegx" TEXCV_AB_REPEAT=3
    TEXCV=$ROOT/build/bin/texcv OUT=$G bash bench/batch/ab_variants.sh \
      "cuda|texcv-cuda|" "cuda_noscan|texcv-cuda|TEXCV_JPEG_SCAN=0" \
      "auto|texcv-auto|" "auto_noscan|texcv-auto|TEXCV_JPEG_SCAN=0" \
      "cuda_s4|texcv-cuda@streams=4|" 2>&1 | tee $G/ab.txt
    TEXCV_AB_SETS=jpeg TEXCV=$ROOT/build/bin/texcv OUT=$G bash bench/batch/ab_variants.sh \
      "opencv|opencv|" "cpu|texcv-cpu|" 2>&1 | tee -a $G/ab.txt
    echo "== timed cuda run $(at)"
    timed_run cuda /tmp/texcv-batch-data/jpeg $G/timed.txt
    verdict_tests
    echo "== test_batch $(at)"
    timeout 60 build/tests/test_batch >$G/test_batch.log 2>&1
    echo "test_batch rc $?"
    grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]" $G/test_batch.log | head
    echo "== test_cli Batch* $(at)"
    timeout $((${S17_LIMIT:-560} - 60 - ($(date +%s) - T0))) build/tests/test_cli --gtest_filter='Batch*' >$G/test_cli_batch.log 2>&1
    echo "Batch* rc $?"
    grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure" $G/test_cli_batch.log | head -20
    left=$((${S17_LIMIT:-560} - ($(date +%s) - T0)))
    echo "== test_cuda $(at), $left s left"
    if [ "$left" -gt 40 ]; then
      timeout "$left" build/tests/test_cuda --gtest_filter='MorphCuda.*:FiltersCuda.Convolve*:NonlinearCuda.*:ResizeHalfCuda.*:ResizeDoubleCuda.*:HistCuda.*' \
        >$G/test_cuda.log 2>&1
      echo "test_cuda rc $?"
      grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]|tests ran" $G/test_cuda.log | head -20
    fi
    ;;
  b)
    # a in less device time (the session had under 700 s left after eleven calls got no
    # machine): the 16-thread check, cuda with and without the fast verdict and auto on both
    # sets, OpenCV's pool on the 1,000, the JPEG verdict tests, then test_cli's Batch* tests.
    TEXCV=$ROOT/build/bin/texcv OUT=$G/warm timeout 120 bash bench/batch/run.sh --sets jpeg \
      --jpeg 1000 --tools texcv-cpu --repeat 1 --data /tmp/texcv-batch-data \
      --work /tmp/texcv-batch-work >$G/data.log 2>&1
    ls /tmp/texcv-batch-data/jpeg | wc -l
    sync
    echo "== io_jpeg_check $(at)"
    { build/bin/io_jpeg_check /tmp/texcv-batch-data/jpeg 16 3 scan,check
      TEXCV_JPEG_SCAN=0 build/bin/io_jpeg_check /tmp/texcv-batch-data/jpeg 16 3 check | tail -1; } \
      2>&1 | tee $G/io_jpeg_check.txt
    echo "== batch A/B $(at)"
    TEXCV_AB_SETS="jpeg jpegx" TEXCV_AB_REPEAT=3 TEXCV=$ROOT/build/bin/texcv OUT=$G \
      bash bench/batch/ab_variants.sh "cuda|texcv-cuda|" "cuda_noscan|texcv-cuda|TEXCV_JPEG_SCAN=0" \
      2>&1 | tee $G/ab.txt
    TEXCV_AB_SETS=jpeg TEXCV_AB_REPEAT=3 TEXCV=$ROOT/build/bin/texcv OUT=$G \
      bash bench/batch/ab_variants.sh "opencv|opencv|" 2>&1 | tee -a $G/ab.txt
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-400} - 90)) ]; then
      TEXCV_AB_SETS="jpeg jpegx" TEXCV_AB_REPEAT=3 TEXCV=$ROOT/build/bin/texcv OUT=$G \
        bash bench/batch/ab_variants.sh "auto|texcv-auto|" 2>&1 | tee -a $G/ab.txt
    fi
    verdict_tests
    left=$((${S17_LIMIT:-400} - ($(date +%s) - T0)))
    echo "== test_cli Batch* $(at), $left s left"
    if [ "$left" -gt 20 ]; then
      timeout "$left" build/tests/test_cli --gtest_filter='Batch*' >$G/test_cli_batch.log 2>&1
      echo "Batch* rc $?"
      grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure|^\[ RUN" $G/test_cli_batch.log | tail -8
      grep -cE "^\[       OK" $G/test_cli_batch.log
    fi
    ;;
  c)
    # The benchmark of record (issue 15, item 7): bench/batch/run.sh on the 1,000 JPEGs, the
    # 8,000 and the 32 TIFFs, every tool, median of 3, in one run (carry bench/batch/wheels too,
    # for pyvips: bash bench/batch/fetch_wheels.sh here). Then the 16-thread check, a timed cuda
    # run, the JPEG verdict tests and test_batch in the time left.
    record_run 420
    tail -40 $G/rec.log
    echo "== io_jpeg_check $(at)"
    build/bin/io_jpeg_check /tmp/texcv-batch-data/jpeg 16 3 scan,check 2>&1 | tee $G/io_jpeg_check.txt
    echo "== timed cuda run $(at)"
    timed_run cuda /tmp/texcv-batch-data/jpeg $G/timed.txt
    verdict_tests
    batch_tests ${S17_LIMIT:-570}
    ;;
  d)
    # Nineteenth session: where nvJPEG's set-up goes, each backend in a cold process
    # (bench/batch/nvjpeg_setup.cpp), lazy and eager module loading.
    echo "== nvjpeg_setup $(at)"
    if nvcc -O2 -std=c++20 -o $G/nvjpeg_setup bench/batch/nvjpeg_setup.cpp -lnvjpeg >$G/nvjpeg_setup_build.log 2>&1; then
      for b in hardware hardware default gpu_hybrid hybrid; do $G/nvjpeg_setup $b; done
      CUDA_MODULE_LOADING=EAGER $G/nvjpeg_setup hardware
      $G/nvjpeg_setup hardware log | tail -12
    else
      tail -5 $G/nvjpeg_setup_build.log
    fi 2>&1 | tee $G/nvjpeg_setup.txt
    # Why --device auto was slower than cpu on the 1,000 JPEGs (c: 1.03 s against 0.87), and
    # whether b646a05's decision mends it (auto against auto as before, medians of 3, both JPEG
    # sets); the nineteenth session's cache of host image buffers (0c0bb2f) against none
    # (TEXCV_BATCH_HOST_CACHE=0) on the CPU path.
    TEXCV=$ROOT/build/bin/texcv OUT=$G/warm timeout 150 bash bench/batch/run.sh --sets "${S17_DATA_SETS:-jpeg tiff}" \
      --jpeg 1000 --tiff 32 --tools texcv-cpu --repeat 1 --data /tmp/texcv-batch-data \
      --work /tmp/texcv-batch-work >$G/data.log 2>&1
    echo "== A/B $(at)"
    TEXCV_AB_SETS="jpeg jpegx" TEXCV_AB_REPEAT=3 TEXCV=$ROOT/build/bin/texcv OUT=$G \
      bash bench/batch/ab_variants.sh "auto|texcv-auto|" "cpu|texcv-cpu|" \
      "auto_alwaysjoin|texcv-auto|TEXCV_BATCH_AUTO_ALWAYS_JOIN=1" \
      "auto_nice0|texcv-auto|TEXCV_BATCH_CPU_NICE=0" 2>&1 | tee $G/ab.txt
    TEXCV_AB_SETS=jpeg TEXCV_AB_REPEAT=3 TEXCV=$ROOT/build/bin/texcv OUT=$G \
      bash bench/batch/ab_variants.sh "cpu_nocache|texcv-cpu|TEXCV_BATCH_HOST_CACHE=0" \
      "cpu_again|texcv-cpu|" 2>&1 | tee -a $G/ab.txt
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-500} - 150)) ]; then
      tiff_floor
      TEXCV_AB_SETS=tiff TEXCV_AB_REPEAT=3 TEXCV=$ROOT/build/bin/texcv OUT=$G \
        bash bench/batch/ab_variants.sh "tiff_cuda|texcv-cuda|" \
        "tiff_cuda_nocache|texcv-cuda|TEXCV_BATCH_HOST_CACHE=0" "tiff_cpu|texcv-cpu|" \
        "tiff_auto|texcv-auto|" 2>&1 | tee -a $G/ab.txt
      echo "== timed cuda and cpu TIFF runs $(at)"
      for dev in cuda cpu; do timed_tiff $dev $G/timed_tiff_$dev.txt; done
    fi
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-500} - 60)) ]; then
      echo "== timed auto and cpu runs $(at)"
      timed_run auto /tmp/texcv-batch-data/jpeg $G/timed.txt
      timed_run cpu /tmp/texcv-batch-data/jpeg $G/timed_cpu.txt
      for dev in cuda auto; do
        echo "== timed $dev run on the 8,000 $(at)"
        timed_run $dev /tmp/texcv-batch-work/inputs-jpegx $G/timedx_$dev.txt
      done
    fi
    verdict_tests
    batch_tests ${S17_LIMIT:-500}
    ;;
  e)
    # Twentieth session, first call: the GPU tests on the binaries of 4e61af5 (the host buffer
    # cache; test_cuda has not run since ab8a54e), then the TIFF part stage d never reached: the
    # I/O floor (cat) and cuda with and without the cache, cpu and auto, and timed runs.
    left=$((${S17_LIMIT:-560} - ($(date +%s) - T0)))
    echo "== test_cuda $(at), $left s left"
    timeout 200 build/tests/test_cuda >$G/test_cuda.log 2>&1
    echo "test_cuda rc $?"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran" $G/test_cuda.log | head -20
    batch_tests 330
    cli_batch_tests 450
    verdict_tests
    echo "== TIFF data $(at)"
    TEXCV=$ROOT/build/bin/texcv OUT=$G/warm timeout 150 bash bench/batch/run.sh --sets tiff \
      --tiff 32 --tools texcv-cpu --repeat 1 --data /tmp/texcv-batch-data \
      --work /tmp/texcv-batch-work >$G/data.log 2>&1
    ls /tmp/texcv-batch-data/tiff | wc -l
    tiff_floor
    TEXCV_AB_SETS=tiff TEXCV_AB_REPEAT=3 TEXCV=$ROOT/build/bin/texcv OUT=$G \
      bash bench/batch/ab_variants.sh "tiff_cuda|texcv-cuda|" \
      "tiff_cuda_nocache|texcv-cuda|TEXCV_BATCH_HOST_CACHE=0" "tiff_cpu|texcv-cpu|" \
      "tiff_auto|texcv-auto|" "tiff_cuda_pinned|texcv-cuda|TEXCV_BATCH_PINNED_INPUT=1" 2>&1 | tee -a $G/ab.txt
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 40)) ]; then
      echo "== timed cuda and cpu TIFF runs $(at)"
      for dev in cuda cpu; do timed_tiff $dev $G/timed_tiff_$dev.txt; done
    fi
    ;;
  f)
    # Twentieth session: item 2 on the 1,000 JPEGs (auto against cpu and cuda, medians of 5):
    # auto now lowers a set-up that will not join to nice 19 (the new default), auto with its CPU
    # workers at nice 0 throughout, auto with a wider decision margin (0.6 s after the set-up
    # instead of 0.3), auto as before b646a05 (always joins); then auto, auto at nice 0 and cuda
    # on the 8,000 (medians of 3), and timed auto runs.
    echo "== data $(at)"
    TEXCV=$ROOT/build/bin/texcv OUT=$G/warm timeout 150 bash bench/batch/run.sh --sets jpeg \
      --jpeg 1000 --tools texcv-cpu --repeat 1 --data /tmp/texcv-batch-data \
      --work /tmp/texcv-batch-work >$G/data.log 2>&1
    ls /tmp/texcv-batch-data/jpeg | wc -l
    echo "== A/B 1,000 $(at)"
    TEXCV_AB_SETS=jpeg TEXCV_AB_REPEAT=5 TEXCV=$ROOT/build/bin/texcv OUT=$G \
      bash bench/batch/ab_variants.sh "cpu|texcv-cpu|" "auto|texcv-auto|" \
      "auto_nice0|texcv-auto|TEXCV_BATCH_CPU_NICE=0" \
      "auto_useful06|texcv-auto|TEXCV_BATCH_LATE_USEFUL_S=0.6" \
      "auto_alwaysjoin|texcv-auto|TEXCV_BATCH_AUTO_ALWAYS_JOIN=1" "cuda|texcv-cuda|" \
      "cpu_again|texcv-cpu|" 2>&1 | tee $G/ab.txt
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 120)) ]; then
      echo "== A/B 8,000 $(at)"
      TEXCV_AB_SETS=jpegx TEXCV_AB_REPEAT=3 TEXCV=$ROOT/build/bin/texcv OUT=$G \
        bash bench/batch/ab_variants.sh "x_auto|texcv-auto|" \
        "x_auto_nice0|texcv-auto|TEXCV_BATCH_CPU_NICE=0" "x_cuda|texcv-cuda|" 2>&1 | tee -a $G/ab.txt
    fi
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 30)) ]; then
      echo "== timed auto and cpu runs $(at)"
      timed_run auto /tmp/texcv-batch-data/jpeg $G/timed.txt
      timed_run cpu /tmp/texcv-batch-data/jpeg $G/timed_cpu.txt
    fi
    ;;
  g)
    # Twentieth session, second build (carry bench/batch/wheels too): interleaved A/B rounds
    # (bench/batch/ab_rounds.sh) after the data is written and synced. The 1,000 JPEGs, 5 rounds:
    # cpu, auto (the 0.6 s margin), auto with its CPU workers at nice 0, auto with the margin of
    # before e7d91f2 (0.3 s), cuda, OpenCV's pool;
    # the 8,000, 3 rounds: auto, auto at nice 0, cuda; the 32 TIFFs, 3 rounds: cuda, cpu, auto,
    # OpenCV, libvips. Then a timed cuda TIFF run, test_batch and test_cli's Batch*.
    test_data 200
    sleep 5
    echo "== 1,000 JPEGs, 5 rounds $(at)"
    TEXCV_AB_SETS=jpeg TEXCV_AB_ROUNDS=${S17_JROUNDS:-5} TEXCV=$ROOT/build/bin/texcv OUT=$G/j \
      bash bench/batch/ab_rounds.sh "cpu|texcv-cpu|" "auto|texcv-auto|" \
      "auto_nice0|texcv-auto|TEXCV_BATCH_CPU_NICE=0" \
      "auto_u03|texcv-auto|TEXCV_BATCH_LATE_USEFUL_S=0.3" \
      "cuda|texcv-cuda|" "opencv|opencv|" 2>&1 | tee $G/ab.txt
    echo "== 32 TIFFs, 3 rounds $(at)"
    TEXCV_AB_SETS=tiff TEXCV_AB_TIFF=32 TEXCV_AB_ROUNDS=3 TEXCV=$ROOT/build/bin/texcv OUT=$G/t \
      bash bench/batch/ab_rounds.sh "tiff_cuda|texcv-cuda|" \
      "tiff_cpu|texcv-cpu|" \
      "tiff_auto|texcv-auto|" "tiff_opencv|opencv|" "tiff_vips|vips|" 2>&1 | tee -a $G/ab.txt
    echo "== timed cuda TIFF run $(at)"
    timed_tiff cuda $G/timed_tiff_cuda.txt
    batch_tests $((${S17_LIMIT:-560} - 60))
    cli_batch_tests ${S17_LIMIT:-560}
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 90)) ]; then
      echo "== 8,000 JPEGs, 3 rounds $(at)"
      TEXCV_AB_SETS=jpegx TEXCV_AB_ROUNDS=3 TEXCV=$ROOT/build/bin/texcv OUT=$G/x \
        bash bench/batch/ab_rounds.sh "x_auto|texcv-auto|" \
        "x_auto_nice0|texcv-auto|TEXCV_BATCH_CPU_NICE=0" "x_cuda|texcv-cuda|" 2>&1 | tee -a $G/ab.txt
    fi
    ;;
  h)
    # g in less device time (the twentieth session had ~400 s left after its failed starts): the
    # GPU tests first (test_batch, test_cli's Batch*), then the 32 TIFFs in 3 rounds (cuda, cpu,
    # auto; the twentieth session's run also had a variant since taken out), a timed cuda TIFF
    # run, and the 1,000
    # JPEGs in S17_JROUNDS rounds (cpu, auto, auto at nice 0, cuda, OpenCV) in the time left.
    batch_tests 80
    cli_batch_tests 140
    test_data 100
    echo "== 32 TIFFs, 3 rounds $(at)"
    TEXCV_AB_SETS=tiff TEXCV_AB_TIFF=32 TEXCV_AB_ROUNDS=3 TEXCV=$ROOT/build/bin/texcv OUT=$G/t \
      bash bench/batch/ab_rounds.sh "tiff_cuda|texcv-cuda|" \
      "tiff_cpu|texcv-cpu|" \
      "tiff_auto|texcv-auto|" 2>&1 | tee -a $G/ab.txt
    echo "== timed cuda TIFF run $(at)"
    timed_tiff cuda $G/timed_tiff_cuda.txt
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-200} - 50)) ]; then
      echo "== 1,000 JPEGs $(at)"
      TEXCV_AB_SETS=jpeg TEXCV_AB_ROUNDS=${S17_JROUNDS:-3} TEXCV=$ROOT/build/bin/texcv OUT=$G/j \
        bash bench/batch/ab_rounds.sh "cpu|texcv-cpu|" "auto|texcv-auto|" \
        "auto_nice0|texcv-auto|TEXCV_BATCH_CPU_NICE=0" "cuda|texcv-cuda|" "opencv|opencv|" \
        2>&1 | tee -a $G/ab.txt
    fi
    ;;
  i)
    # Twenty-first session (carry bench/batch/wheels too): the GPU tests of the schedule change
    # (every CPU worker starts while a GPU is set up) and the pinned pool's page-locking outside
    # its lock; then the 32 TIFFs in 3 rounds: cuda, cpu, auto, cuda and auto with the pinned
    # input pool, cuda with 4 streams, OpenCV, libvips; the 1,000 JPEGs in S17_JROUNDS rounds
    # (cpu, auto with the 0.6 s margin as the default, cuda, OpenCV); the 8,000 in 2 rounds (auto,
    # cuda); timed TIFF runs (auto, cuda with the pinned pool) in the time left.
    batch_tests 90
    cli_batch_tests 160
    test_data 100
    echo "== 32 TIFFs, 3 rounds $(at)"
    TEXCV_AB_SETS=tiff TEXCV_AB_TIFF=32 TEXCV_AB_ROUNDS=3 TEXCV=$ROOT/build/bin/texcv OUT=$G/t \
      bash bench/batch/ab_rounds.sh "tiff_cuda|texcv-cuda|" "tiff_cpu|texcv-cpu|" \
      "tiff_auto|texcv-auto|" "tiff_cuda_pinned|texcv-cuda|TEXCV_BATCH_PINNED_INPUT=1" \
      "tiff_auto_pinned|texcv-auto|TEXCV_BATCH_PINNED_INPUT=1" \
      "tiff_cuda_s4|texcv-cuda@streams=4|" "tiff_opencv|opencv|" "tiff_vips|vips|" 2>&1 | tee -a $G/ab.txt
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 100)) ]; then
      echo "== 1,000 JPEGs $(at)"
      TEXCV_AB_SETS=jpeg TEXCV_AB_ROUNDS=${S17_JROUNDS:-3} TEXCV=$ROOT/build/bin/texcv OUT=$G/j \
        bash bench/batch/ab_rounds.sh "cpu|texcv-cpu|" "auto|texcv-auto|" "cuda|texcv-cuda|" \
        "opencv|opencv|" 2>&1 | tee -a $G/ab.txt
    fi
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 70)) ]; then
      echo "== 8,000 JPEGs, 2 rounds $(at)"
      TEXCV_AB_SETS=jpegx TEXCV_AB_ROUNDS=2 TEXCV=$ROOT/build/bin/texcv OUT=$G/x \
        bash bench/batch/ab_rounds.sh "x_auto|texcv-auto|" "x_cuda|texcv-cuda|" 2>&1 | tee -a $G/ab.txt
    fi
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 25)) ]; then
      echo "== timed TIFF runs $(at)"
      timed_tiff auto $G/timed_tiff_auto.txt
      TEXCV_BATCH_PINNED_INPUT=1 timed_tiff cuda $G/timed_tiff_cuda_pinned.txt
    fi
    ;;
  j)
    # Twenty-first session, second call (carry bench/batch/wheels too): the GPU tests of auto's
    # CPU workers at the process's priority until a GPU is to join (647770f); the benchmark of
    # record (bench/batch/run.sh, every tool, the three sets, median of 3, in one run); then
    # interleaved rounds of auto against auto with its CPU workers at nice 10 from the start
    # (TEXCV_BATCH_CPU_NICE_AT_START=1, the behaviour before 647770f; an A/B aid taken out once
    # measured, so that variant is now plain auto) and cpu, on the 1,000
    # JPEGs (5 rounds), the 32 TIFFs and the 8,000 (2 rounds), in the time left.
    batch_tests 90
    cli_batch_tests 160
    record_run 300
    grep -E "^\| (jpeg|jpegx|tiff) " $G/rec.log | head -20
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 60)) ]; then
      echo "== 1,000 JPEGs, ${S17_JROUNDS:-5} rounds $(at)"
      TEXCV_AB_SETS=jpeg TEXCV_AB_ROUNDS=${S17_JROUNDS:-5} TEXCV=$ROOT/build/bin/texcv OUT=$G/j \
        bash bench/batch/ab_rounds.sh "cpu|texcv-cpu|" "auto|texcv-auto|" \
        "auto_nicestart|texcv-auto|TEXCV_BATCH_CPU_NICE_AT_START=1" 2>&1 | tee -a $G/ab.txt
    fi
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 40)) ]; then
      echo "== 32 TIFFs, 2 rounds $(at)"
      TEXCV_AB_SETS=tiff TEXCV_AB_TIFF=32 TEXCV_AB_ROUNDS=2 TEXCV=$ROOT/build/bin/texcv OUT=$G/t \
        bash bench/batch/ab_rounds.sh "tiff_cpu|texcv-cpu|" "tiff_auto|texcv-auto|" \
        "tiff_auto_nicestart|texcv-auto|TEXCV_BATCH_CPU_NICE_AT_START=1" 2>&1 | tee -a $G/ab.txt
    fi
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 30)) ]; then
      echo "== 8,000 JPEGs, 2 rounds $(at)"
      TEXCV_AB_SETS=jpegx TEXCV_AB_ROUNDS=2 TEXCV=$ROOT/build/bin/texcv OUT=$G/x \
        bash bench/batch/ab_rounds.sh "x_auto|texcv-auto|" \
        "x_auto_nicestart|texcv-auto|TEXCV_BATCH_CPU_NICE_AT_START=1" 2>&1 | tee -a $G/ab.txt
    fi
    ;;
  k)
    # Twenty-first session, third call (short): transparent huge pages for the host image
    # buffers (TEXCV_HOST_HUGEPAGES=1) against without, on the 32 TIFFs (cpu, auto, cuda; 3
    # rounds) and the 1,000 JPEGs (cpu, auto; 3 rounds), with the machine's THP settings, then
    # timed cpu TIFF runs with and without.
    cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag
    test_data 100
    echo "== 32 TIFFs, 3 rounds $(at)"
    TEXCV_AB_SETS=tiff TEXCV_AB_TIFF=32 TEXCV_AB_ROUNDS=3 TEXCV=$ROOT/build/bin/texcv OUT=$G/t \
      bash bench/batch/ab_rounds.sh "tiff_cpu|texcv-cpu|" "tiff_cpu_thp|texcv-cpu|TEXCV_HOST_HUGEPAGES=1" \
      "tiff_auto|texcv-auto|" "tiff_auto_thp|texcv-auto|TEXCV_HOST_HUGEPAGES=1" \
      "tiff_cuda|texcv-cuda|" "tiff_cuda_thp|texcv-cuda|TEXCV_HOST_HUGEPAGES=1" 2>&1 | tee -a $G/ab.txt
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-300} - 60)) ]; then
      echo "== 1,000 JPEGs, 3 rounds $(at)"
      TEXCV_AB_SETS=jpeg TEXCV_AB_ROUNDS=3 TEXCV=$ROOT/build/bin/texcv OUT=$G/j \
        bash bench/batch/ab_rounds.sh "cpu|texcv-cpu|" "cpu_thp|texcv-cpu|TEXCV_HOST_HUGEPAGES=1" \
        "auto|texcv-auto|" "auto_thp|texcv-auto|TEXCV_HOST_HUGEPAGES=1" 2>&1 | tee -a $G/ab.txt
    fi
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-300} - 15)) ]; then
      echo "== timed cpu TIFF runs $(at)"
      timed_tiff cpu $G/timed_tiff_cpu.txt
      TEXCV_HOST_HUGEPAGES=1 timed_tiff cpu $G/timed_tiff_cpu_thp.txt
    fi
    ;;
  l)
    # Twenty-second session (carry bench/batch/wheels too): the GPU tests of auto's join
    # decision for files that take long (812ce3d: the first wave's rate) on binaries with huge
    # pages as the default (69aea46); the benchmark of record (bench/batch/run.sh, every tool, the
    # three sets, median of 3, one run); then the 32 TIFFs in 3 rounds (cpu, auto, cuda) and a
    # timed auto TIFF run in the time left. A follow-up on the warm machine runs test_cuda.
    # First bench/pinned_alloc.cpp (built here into $P/pinned_alloc): how fast each way of
    # page-locking host memory is (item 5's pinned decode waited for cudaMallocHost).
    if [ -x $P/pinned_alloc ]; then
      echo "== pinned_alloc $(at)"
      timeout 60 $P/pinned_alloc 75 2 8 2>&1 | tee $G/pinned_alloc.txt
    fi
    batch_tests 90
    cli_batch_tests 160
    record_run 300
    grep -E "^\| (jpeg|jpegx|tiff) |peak|Peak" $G/rec.log | head -24
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 45)) ]; then
      echo "== 32 TIFFs, 3 rounds $(at)"
      TEXCV_AB_SETS=tiff TEXCV_AB_TIFF=32 TEXCV_AB_ROUNDS=3 TEXCV=$ROOT/build/bin/texcv OUT=$G/t \
        bash bench/batch/ab_rounds.sh "tiff_cpu|texcv-cpu|" "tiff_auto|texcv-auto|" \
        "tiff_cuda|texcv-cuda|" 2>&1 | tee -a $G/ab.txt
    fi
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-560} - 12)) ]; then
      echo "== timed TIFF run $(at)"
      timed_tiff auto $G/timed_tiff_auto.txt
    fi
    ;;
  m)
    # Twenty-second session, second call (carry bench/batch/wheels too): page-locked buffers of
    # 4 MB or more by cudaHostRegister on the process's own (huge-page) memory instead of
    # cudaMallocHost (pinned_alloc in stage l: 30.6 against 3.4-3.6 GB/s). test_cuda's runtime
    # tests and test_batch; then the 32 TIFFs in 4 rounds: cuda, cuda with the pinned input pool
    # (item 5's decode into pinned memory; 1.28 s against 0.96 with cudaMallocHost at efd9d25),
    # cpu, auto; timed cuda runs with and without the pinned input pool in the time left.
    echo "== test_cuda CudaRuntime.* $(at)"
    timeout 60 build/tests/test_cuda --gtest_filter='CudaRuntime.*' >$G/test_cuda_runtime.log 2>&1
    echo "rc $?"
    grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure" $G/test_cuda_runtime.log | head
    batch_tests 100
    test_data 100
    echo "== 32 TIFFs, 4 rounds $(at)"
    TEXCV_AB_SETS=tiff TEXCV_AB_TIFF=32 TEXCV_AB_ROUNDS=4 TEXCV=$ROOT/build/bin/texcv OUT=$G/t \
      bash bench/batch/ab_rounds.sh "tiff_cuda|texcv-cuda|" \
      "tiff_cuda_pinned|texcv-cuda|TEXCV_BATCH_PINNED_INPUT=1" "tiff_cpu|texcv-cpu|" \
      "tiff_auto|texcv-auto|" 2>&1 | tee -a $G/ab.txt
    if [ $(($(date +%s) - T0)) -lt $((${S17_LIMIT:-400} - 15)) ]; then
      echo "== timed TIFF runs $(at)"
      timed_tiff cuda $G/timed_tiff_cuda.txt
      TEXCV_BATCH_PINNED_INPUT=1 timed_tiff cuda $G/timed_tiff_cuda_pinned.txt
    fi
    ;;
  n)
    # Twenty-second session, third call (carry bench/batch/wheels too): the pinned input pool as
    # the default (its buffers registered with cudaHostRegister): test_batch (the large padded
    # input both ways), test_cli's Batch* tests, the benchmark of record on these binaries, then
    # the 32 TIFFs in 3 rounds (cuda, cuda without the pinned input pool, cpu, auto) in the time
    # left.
    tests_and_record
    time_left 60 && rounds tiff 3 t "tiff_cuda|texcv-cuda|" \
      "tiff_cuda_pageable|texcv-cuda|TEXCV_BATCH_PINNED_INPUT=0" "tiff_cpu|texcv-cpu|" \
      "tiff_auto|texcv-auto|"
    ;;
  o)
    # Twenty-third session, first call (carry bench/batch/wheels too): the virtio devices are
    # printed above (e6d5628 turns huge pages off where a balloon reports free pages: check that
    # the GPU machine has none). Then as stage n, and 3 rounds on the 32 TIFFs: cpu with huge
    # pages forced on and off (TEXCV_HOST_HUGEPAGES=1/0: the default must match the faster), cuda
    # with the 1 GB pinned input pool and with 3 GB (TEXCV_BATCH_PINNED_POOL_MB=3072: all inputs
    # from the pool?), and a timed cuda run with 3 GB (its "inputs uploaded straight from pinned
    # memory" count).
    tests_and_record
    time_left 60 && rounds tiff 3 t "tiff_cpu_hp1|texcv-cpu|TEXCV_HOST_HUGEPAGES=1" \
      "tiff_cpu_hp0|texcv-cpu|TEXCV_HOST_HUGEPAGES=0" "tiff_cuda|texcv-cuda|" \
      "tiff_cuda_pool3g|texcv-cuda|TEXCV_BATCH_PINNED_POOL_MB=3072"
    if time_left 12; then
      echo "== timed TIFF run $(at)"
      TEXCV_BATCH_PINNED_POOL_MB=3072 timed_tiff cuda $G/timed_tiff_cuda_pool3g.txt
    fi
    ;;
  p)
    # Twenty-third session. (1) item 2 on the 1,000 JPEGs: stage o had auto 2-6 % slower than cpu
    # in each of its 3 record runs and 1.13 s against 1.08 in 5 rounds, the GPU never joining;
    # TEXCV_BATCH_LATE_WAIT=1 sets up nothing until the decision (none at all on a "never"):
    # cpu, auto, auto_wait in 3 rounds, then auto and auto_wait on the 8,000 (where the GPU
    # joins: the wait's cost). (2) the pinned input pool's budget from the machine's memory
    # (1/32, 1 to 4 GB: ~3.9 GB here; stage o: 3 GB against 1 GB, 0.56 s against 0.64 on cuda):
    # 3 rounds on the 32 TIFFs (cuda by default and with the old 1 GB, cpu, auto), a timed cuda
    # run, then the TIFF task alone with every tool (run.sh). test_batch and Batch* first.
    batch_tests 60
    cli_batch_tests 100
    rounds jpeg 3 j "jpeg_cpu|texcv-cpu|" "jpeg_auto|texcv-auto|" \
      "jpeg_auto_wait|texcv-auto|TEXCV_BATCH_LATE_WAIT=1"
    time_left 150 && rounds jpegx 2 x "x_auto|texcv-auto|" \
      "x_auto_wait|texcv-auto|TEXCV_BATCH_LATE_WAIT=1"
    time_left 110 && rounds tiff 3 t "tiff_cuda|texcv-cuda|" \
      "tiff_cuda_pool1g|texcv-cuda|TEXCV_BATCH_PINNED_POOL_MB=1024" "tiff_cpu|texcv-cpu|" \
      "tiff_auto|texcv-auto|"
    if time_left 12; then
      echo "== timed TIFF run $(at)"
      timed_tiff cuda $G/timed_tiff_cuda.txt
    fi
    if time_left 60; then
      echo "== run.sh, the TIFF task alone $(at)"
      TEXCV=$ROOT/build/bin/texcv OUT=$G/rect timeout 80 bash bench/batch/run.sh --sets tiff \
        --tiff 32 --repeat 3 --tools "texcv-auto texcv-cuda texcv-cpu opencv vips" \
        --data /tmp/texcv-batch-data --work /tmp/texcv-batch-work >$G/rect.log 2>&1
      echo "run.sh rc $?"
      grep -E "^\| tiff " $G/rect.log | head
    fi
    ;;
  q)
    # Twenty-third/twenty-fourth sessions, issue 21: u8 one-channel separable filters with dyadic
    # int8 taps (box 3/5, sobel, scharr, the fixed 3- and 5-tap Gaussians) run as the 2-D dp4a
    # kernel of their taps' outer product, which now runs on sliding windows of rows; the
    # sliding-window rectangles (u8 and f32); resize to half size (f32 linear and area, cubic).
    # All of test_cuda, then A/B runs of bench_filters and bench_geometry (NPP in the same
    # process; before, H100 5bead0d: box 5x5 u8 0.1968 ms, sobel 0.1306, NPP 0.125 and 0.073),
    # the morphology and bilateral rows of f32 and u8x4, then ncu on the new kernels.
    GT_TIMEOUT=200 gtests "test_cuda (all)" test_cuda '*' test_cuda_all.log
    ab_bench() {  # ab_bench BENCH CONFIGS FILTERS ROW_PATTERN VARIANT...
      local bin=$1 cfg=$2 flt=$3 pat=$4
      shift 4
      for v in "$@"; do
        echo "-- $v $(at)"
        env "$v" timeout 60 build/bin/$bin --reps 20 --filter "$flt" --config "$cfg" \
          --out $G/ab.json 2>&1 | grep -E "$pat" | head -24
      done
    }
    # The u8 rectangles: split kernel, sliding windows of 8, 16 (default), 32 rows.
    ab_bench bench_filters u8x1 erode,dilate "^(erode|dilate) " TEXCV_MORPH_U8_KERNEL=split \
      TEXCV_MORPH_U8_ROWS=8 TEXCV_MORPH_U8_ROWS=16 TEXCV_MORPH_U8_ROWS=32
    # The u8 dp4a kernel in strips of 2 rows and on sliding windows (default then; the sliding
    # one was taken out in b16b1ac, so on later binaries both runs time the strip kernel).
    ab_bench bench_filters u8x1 box,sobel,convolve,sharpen "^(box|sobel|convolve|sharpen)" \
      TEXCV_DP4A_KERNEL=strip TEXCV_DP4A_KERNEL=slide
    # f32 rectangles: the fused kernel and the sliding-window kernel (default).
    ab_bench bench_filters f32x1 erode "^erode " TEXCV_MORPH_F32_KERNEL=fused \
      TEXCV_MORPH_F32_KERNEL=slide
    # Resize to half size: the general kernels and the half-size kernels (default).
    ab_bench bench_geometry f32x1,u8x1,u8x4 resize "^resize .*0\.5" TEXCV_RESIZE_HALF=0 \
      TEXCV_RESIZE_HALF=1
    echo "== bench_filters f32x1, u8x4 $(at)"
    timeout 60 build/bin/bench_filters --reps 20 --filter erode,dilate,bilateral \
      --config f32x1,u8x4 --out $G/filters_q2.json >$G/filters_q2.txt 2>&1 || echo "exit $?"
    grep -E "^(erode|dilate|bilateral)" $G/filters_q2.txt | head -30
    profile_kernel u8x1 erode morph_rect_u8_slide
    profile_kernel u8x1 sobel Dp4aSlide
    profile_kernel f32x1 bilateral bilateral_tile
    ;;
  r)
    # Twenty-fourth session, second call: stage q's kernels again after the CPU's f32 rectangles
    # became top to bottom at every height and the resize test's fix: the changed GPU tests, then
    # the A/B runs with every row kept in $G/ab_*.txt (stage q's were cut by the call's output)
    # and a summary of texcv's default-path rows and NPP's.
    GT_TIMEOUT=150 gtests "test_cuda changed suites" test_cuda \
      'MorphCuda.*:ResizeHalfCuda.*:ResizeDoubleCuda.*:FiltersCuda.*:LaunchBatchCuda.*' \
      test_cuda_r.log
    ab_r() {  # ab_r NAME BENCH CONFIGS FILTERS VARIANT...
      local name=$1 bin=$2 cfg=$3 flt=$4
      shift 4
      for v in "$@"; do
        echo "-- $name $v $(at)"
        env "$v" timeout 90 build/bin/$bin --reps 20 --filter "$flt" --config "$cfg" \
          --out $G/ab_${name}_${v#*=}.json >$G/ab_${name}_${v#*=}.txt 2>&1 || echo "exit $?"
        grep -E " (texcv +(global|-|auto[^ ]*)|npp +-) " $G/ab_${name}_${v#*=}.txt |
          tr -s ' ' | cut -c1-90 | head -40
      done
    }
    ab_r erode bench_filters u8x1 erode,dilate TEXCV_MORPH_U8_KERNEL=split \
      TEXCV_MORPH_U8_ROWS=8 TEXCV_MORPH_U8_ROWS=16 TEXCV_MORPH_U8_ROWS=32
    # (TEXCV_DP4A_KERNEL: gone since b16b1ac, as in stage q.)
    ab_r dp4a bench_filters u8x1 box,sobel,convolve,sharpen TEXCV_DP4A_KERNEL=strip \
      TEXCV_DP4A_KERNEL=slide
    ab_r f32morph bench_filters f32x1 erode,dilate TEXCV_MORPH_F32_KERNEL=fused \
      TEXCV_MORPH_F32_KERNEL=slide
    ab_r resize bench_geometry f32x1,u8x1,u8x4 resize TEXCV_RESIZE_HALF=0 TEXCV_RESIZE_HALF=1
    ;;
  s)
    # Twenty-fourth session, third call: the final code (the u8 sliding-window rectangles at 8 rows
    # a thread, the dp4a sliding-window kernel taken out): all of test_cuda, then bench_filters'
    # rows of the changed kernels with NPP, every row kept in $G/rec_s.txt; then the rows a
    # thread of the half-size cubic and double-size resize kernels.
    GT_TIMEOUT=200 gtests "test_cuda (all)" test_cuda '*' test_cuda_s.log
    echo "== bench_filters $(at)"
    timeout 120 build/bin/bench_filters --reps 20 --config u8x1,f32x1 \
      --filter erode,dilate,box,sobel,convolve,sharpen --out $G/rec_s.json >$G/rec_s.txt 2>&1 ||
      echo "exit $?"
    grep -E " (texcv +(global|-|auto[^ ]*)|npp +-) " $G/rec_s.txt | tr -s ' ' | cut -c1-90 | head -60
    # Rows a thread of the half-size cubic and the double-size kernels: the tests and the
    # timings with each (texcv's global path and NPP).
    for v in TEXCV_RESIZE_HALF_CUBIC_ROWS=4 TEXCV_RESIZE_HALF_CUBIC_ROWS=16 \
      TEXCV_RESIZE_DOUBLE_ROWS=4 TEXCV_RESIZE_DOUBLE_ROWS=16; do
      env "$v" timeout 30 build/tests/test_cuda --gtest_filter='ResizeHalfCuda.*:ResizeDoubleCuda.*' \
        >$G/test_${v#*=}_${v%%=*}.log 2>&1
      echo "-- $v: tests rc $?, $(grep -E '^\[  PASSED' $G/test_${v#*=}_${v%%=*}.log)"
    done
    for v in TEXCV_RESIZE_HALF_CUBIC_ROWS=8 TEXCV_RESIZE_HALF_CUBIC_ROWS=4 \
      TEXCV_RESIZE_HALF_CUBIC_ROWS=16 TEXCV_RESIZE_DOUBLE_ROWS=4 TEXCV_RESIZE_DOUBLE_ROWS=16; do
      echo "-- $v $(at)"
      env "$v" timeout 60 build/bin/bench_geometry --reps 20 --config f32x1,u8x1,u8x4,u16x1,u8x3 \
        --filter "resize 0.5 cubic,resize 2.0 linear" --out $G/rs.json >$G/rs_${v}.txt 2>&1 ||
        echo "exit $?"
      grep -E " (texcv +global|npp +-) " $G/rs_${v}.txt | tr -s ' ' | cut -c1-80 | head -20
    done
    ;;
  *) echo "session17_device.sh: pack (here), a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r or s (on the device)" ;;
esac
tar czf /tmp/s17.tgz -C $G --exclude='*.jpg' . 2>/dev/null
cp /tmp/s17.tgz "$OUT/s17_${1:-x}.tgz"
