#!/usr/bin/env bash
# The one script to run on the GPU machine (Ubuntu 24.04, CUDA 13 in /usr/local/cuda, no
# GoogleTest / CLI11 / libtiff / OpenCV C++ there). Carry .devdeps/ with it:
#   .devdeps/googletest/     the GoogleTest source tree (as Debian's /usr/src/googletest)
#   .devdeps/include/CLI/    the CLI11 headers
#
#   bash bench/run_device.sh                      # info build test bench filters peers summary
#   bash bench/run_device.sh build bench          # only some stages (info and summary always run)
#   bash bench/run_device.sh build filters peers  # the filter benchmark and its Python peers
#   bash bench/run_device.sh quick build bench    # small sizes, few reps (a smoke test)
#   bash bench/run_device.sh build sanitize       # the CUDA tests under compute-sanitizer
#
# batch = bench/batch/run.sh (TEXCV_BATCH_SETS, _JPEG, _TIFF, _TOOLS, _REPEAT, _JPEGX, _JPEGX_TOOLS)
# after the Batch* tests (the GPU ones once more with one GPU visible on a machine of several).
# bench = bench_geometry (configs: TEXCV_BENCH_CONFIGS), filters = bench_filters (configs:
# TEXCV_BENCH_FILTER_CONFIGS, default "f32x1 u8x1 u8x4 u8x3"); TEXCV_BENCH_FILTER narrows the ops
# of both. peers runs bench/peers.py on the suites of the stages asked for (bench: geometry,
# filters: filters; TEXCV_PEERS_SUITE overrides).
# sanitize = the CUDA tests (test_cuda) under compute-sanitizer memcheck (leak check on), the
# batch GPU tests under memcheck, and the shared-memory kernels' tests under racecheck (one
# process per test suite, each with its own time limit); errors per tool and run in
# sanitize.txt (also at the end of summary.txt), full reports in sanitize_*.log (in logs.tgz).
# TEXCV_SANITIZE_PARTS ("memcheck batch racecheck"), TEXCV_RACECHECK_SUITES,
# TEXCV_RACECHECK_SECONDS (75 per suite). Build first, then sanitize in a call of its own:
#   bash bench/run_device.sh build test; bash bench/run_device.sh sanitize
#
# Writes under $OUT (default ./out-device): build.log, ctest.log, ctest_cuda.log, bench.txt,
# bench.json (+ bench_<config>.json), filters.txt, filters.json (+ filters_<config>.json),
# peers.txt, peers.json, summary.txt. Every stage is timed;
# a failing stage prints its error and the script goes on. Stages that would start after
# $TEXCV_DEADLINE seconds (default 420) are skipped, and every stage's time limit is cut so
# that the script ends by $TEXCV_HARD_LIMIT seconds (default 510): the run stays under 9 min.
# shellcheck disable=SC2317  # stage functions are called through "stage NAME FUNCTION"
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/out-device}
mkdir -p "$OUT"
BUILD=${TEXCV_BUILD_DIR:-$ROOT/build-device}
DEADLINE=${TEXCV_DEADLINE:-420}
HARD=${TEXCV_HARD_LIMIT:-510}
JOBS=$(nproc 2>/dev/null || echo 8)
T0=$(date +%s)
STAGES_FILE="$OUT/stages.txt"
: >"$STAGES_FILE"

QUICK=0
WANT=()
for a in "$@"; do
  case "$a" in
    quick) QUICK=1 ;;
    build | test | python | batch | bench | filters | peers | profile | sanitize) WANT+=("$a") ;;
    *) echo "run_device.sh: unknown stage '$a' (stages: build test python batch bench filters peers profile sanitize; flag: quick)" ;;
  esac
done
[ ${#WANT[@]} -eq 0 ] && WANT=(build test bench filters peers)
wanted() { local s; for s in "${WANT[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
elapsed() { echo $(($(date +%s) - T0)); }
# cap WANT RESERVE: WANT seconds, or less so that RESERVE seconds are left before $HARD.
cap() {
  local want=$1 left=$((HARD - $(date +%s) + T0 - $2))
  [ "$left" -lt "$want" ] && want=$left
  [ "$want" -lt 1 ] && want=1
  echo "$want"
}

# stage NAME FUNCTION: runs it unless the deadline has passed; records status and seconds.
stage() {
  local name=$1 fn=$2 t rc
  if [ "$(elapsed)" -ge "$DEADLINE" ]; then
    echo "== $name: SKIPPED (deadline ${DEADLINE}s reached at $(elapsed)s)"
    printf '%-8s %-8s %5s s  %s\n' "$name" skipped 0 "deadline" >>"$STAGES_FILE"
    return
  fi
  echo "== $name (at $(elapsed)s)"
  t=$(date +%s)
  "$fn"
  rc=$?
  local status=ok
  [ $rc -ne 0 ] && status="FAIL($rc)"
  printf '%-8s %-8s %5s s  %s\n' "$name" "$status" $(($(date +%s) - t)) "${STAGE_NOTE:-}" >>"$STAGES_FILE"
  STAGE_NOTE=""
  echo "== $name: $status in $(($(date +%s) - t)) s"
}

# ---------------------------------------------------------------------------------------------
do_info() {
  nvidia-smi -L 2>&1 | head -8
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu \
    --format=csv,noheader 2>&1 | head -8
  # A snapshot (git archive) carries a COMMIT file naming its commit; it wins over any .git
  # found above the snapshot's folder. Otherwise the checkout's HEAD (+dirty).
  COMMIT=""
  if [ -f COMMIT ]; then
    COMMIT=$(head -1 COMMIT)
  else
    COMMIT=$(git rev-parse --verify -q HEAD 2>/dev/null | grep -E '^[0-9a-f]{40}$' || true)
    if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null | head -1)" ]; then
      COMMIT="$COMMIT+dirty"
    fi
  fi
  [ -z "$COMMIT" ] && COMMIT=unknown
  export TEXCV_COMMIT=$COMMIT
  echo "commit: $TEXCV_COMMIT"
  echo "cmake: $(cmake --version 2>/dev/null | head -1); ninja: $(ninja --version 2>/dev/null)"
  echo "cores: $JOBS; out: $OUT; build: $BUILD; quick: $QUICK; deadline ${DEADLINE}s, end by ${HARD}s"
  return 0
}

do_build() {
  local nvcc=""
  if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH=/usr/local/cuda/bin:$PATH
  fi
  command -v nvcc >/dev/null 2>&1 && nvcc="-DCMAKE_CUDA_COMPILER=$(command -v nvcc)"
  local extra=()
  [ -d "$ROOT/.devdeps/googletest" ] && extra+=("-DTEXCV_GTEST_SOURCE=$ROOT/.devdeps/googletest")
  [ -d "$ROOT/.devdeps/include/CLI" ] && extra+=("-DTEXCV_CLI11_INCLUDE=$ROOT/.devdeps/include")
  local hwy_dir="$ROOT/.devdeps/hwy/lib/x86_64-linux-gnu/cmake/hwy"
  local hwy_arg=()
  [ -f "$hwy_dir/hwy-config.cmake" ] && hwy_arg=("-Dhwy_DIR=$hwy_dir")
  extra+=("${hwy_arg[@]}")
  # TIFF: the machine has no libtiff; a static one (Debian 12's libtiff.a, its dependencies' .a
  # and headers) may be carried in .devdeps/tiff (lib/, include/). JPEG-compressed TIFFs then
  # fail (Debian's libtiff expects libjpeg 6.2, the machine has 8); the benchmark's do not use it.
  local tiff=(-DTEXCV_TIFF=OFF)
  local td="$ROOT/.devdeps/tiff"
  if [ -f "$td/lib/libtiff.a" ]; then
    local extra_libs="" l
    for l in webp zstd lzma Lerc jbig; do
      [ -f "$td/lib/lib$l.a" ] && extra_libs+="$td/lib/lib$l.a;"
    done
    extra_libs+="jpeg;$td/lib/libdeflate.a;z;m;stdc++"
    tiff=(-DTEXCV_TIFF=ON "-DTIFF_INCLUDE_DIR=$td/include" "-DTIFF_LIBRARY=$td/lib/libtiff.a"
      "-DTEXCV_TIFF_EXTRA_LIBS=$extra_libs")
  fi
  # The Python extension module when the python stage is asked for (nanobind comes with the
  # machine's Python; no PyPI there, so no pip install: see do_python): in the same build, or,
  # when a static libtiff is linked (not position-independent: no shared module can take it), in
  # a second build without TIFF ($BUILD-py, only the module), compiled at the same time.
  local py_build=""
  if wanted python && python3 -c 'import nanobind' 2>/dev/null; then
    local pyargs=("-DTEXCV_BUILD_PYTHON=ON" "-DPython_EXECUTABLE=$(command -v python3)")
    if [ "${tiff[0]}" = "-DTEXCV_TIFF=ON" ]; then
      py_build="$BUILD-py"
      cmake -S "$ROOT" -B "$py_build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_ARCHITECTURES=90 -DTEXCV_CUDA=ON -DTEXCV_TIFF=OFF \
        -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 \
        -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20 -DTEXCV_BUILD_TESTS=OFF \
        -DTEXCV_BUILD_BENCH=OFF -DTEXCV_BUILD_TOOLS=OFF -DTEXCV_BUILD_EXAMPLES=OFF \
        ${nvcc:+"$nvcc"} "${pyargs[@]}" "${hwy_arg[@]}" >"$OUT/build_py.log" 2>&1 &&
        (timeout "$(cap 480 20)" cmake --build "$py_build" -j "$JOBS" --target _texcv \
          >>"$OUT/build_py.log" 2>&1 || echo "python module build FAILED: see build_py.log") &
    else
      extra+=("${pyargs[@]}")
    fi
  fi
  # CMake before 3.26 does not know nvcc 13's C++20 flag; naming it is harmless for newer ones.
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DTEXCV_CUDA=ON "${tiff[@]}" \
    -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 \
    -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20 \
    ${nvcc:+"$nvcc"} "${extra[@]}" >"$OUT/build.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "configure FAILED (rc $rc); last lines of $OUT/build.log:"
    tail -30 "$OUT/build.log"
    STAGE_NOTE="configure failed"
    return $rc
  fi
  grep -E "texcv:|CUDA" "$OUT/build.log" | head -8
  # Keep going past failing targets so that whatever compiles (the benchmark) is usable.
  # TEXCV_BUILD_TARGETS (e.g. texcv_cli): only those targets, when the stages need no more.
  local targets=()
  [ -n "${TEXCV_BUILD_TARGETS:-}" ] && read -r -a targets <<<"--target $TEXCV_BUILD_TARGETS"
  timeout "$(cap 480 20)" cmake --build "$BUILD" -j "$JOBS" "${targets[@]}" -- -k 0 \
    >>"$OUT/build.log" 2>&1
  rc=$?
  wait  # the Python module's build, when it runs apart
  [ $rc -eq 124 ] && echo "build TIMED OUT (the time limit of the whole run)"
  if [ $rc -ne 0 ]; then
    echo "build FAILED (rc $rc); errors from $OUT/build.log:"
    grep -E "error|FAILED" "$OUT/build.log" | head -30
    STAGE_NOTE="build failed: $(grep -c 'FAILED:' "$OUT/build.log") targets"
  else
    STAGE_NOTE="$(grep -c 'Building' "$OUT/build.log") compile steps"
  fi
  ls -la "$BUILD/bin/bench_geometry" "$BUILD/bin/bench_filters" "$BUILD/bin/texcv" 2>&1
  return $rc
}

do_test() {
  if [ ! -f "$BUILD/CTestTestfile.cmake" ]; then
    echo "no build at $BUILD"
    return 1
  fi
  local rc1 rc2
  # The CUDA-labelled tests first (their own summary), then all the others: each test runs once.
  local t1 t2
  t1=$(cap 150 200)
  timeout "$t1" ctest --test-dir "$BUILD" -L cuda --output-on-failure -j 8 --timeout 100 \
    >"$OUT/ctest_cuda.log" 2>&1
  rc1=$?
  t2=$(cap 120 170)
  timeout "$t2" ctest --test-dir "$BUILD" -LE cuda --output-on-failure -j 8 --timeout 100 \
    >"$OUT/ctest.log" 2>&1
  rc2=$?
  cat "$OUT/ctest_cuda.log" >>"$OUT/ctest.log"
  echo "-- ctest -L cuda:"
  grep -E "tests passed|tests failed|No tests were found|Total Test time" "$OUT/ctest_cuda.log"
  grep -cE "Skipped|SKIPPED" "$OUT/ctest_cuda.log" | sed 's/^/   lines mentioning skips: /'
  echo "-- ctest (all other labels):"
  grep -E "tests passed|tests failed|No tests were found|Total Test time" "$OUT/ctest.log" | head -2
  if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then
    echo "-- failed tests:"
    grep -hE "^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess|Exception|Not Run)" \
      "$OUT/ctest.log" | sort -u | head -25
    { [ $rc1 -eq 124 ] || [ $rc2 -eq 124 ]; } && echo "   (ctest cut at ${t1} s / ${t2} s)"
  fi
  STAGE_NOTE="cuda: $(grep -E 'tests passed' "$OUT/ctest_cuda.log" | head -1 | sed 's/^ *//')"
  [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ]
}

do_bench() {
  local bin="$BUILD/bin/bench_geometry"
  if [ ! -x "$bin" ]; then
    echo "no $bin (build stage failed or not run)"
    return 1
  fi
  local configs=${TEXCV_BENCH_CONFIGS:-"f32x1 u8x1 u8x4 u16x1 u8x3 f32x3"} args=() rc=0 c crc
  [ $QUICK -eq 1 ] && args+=(--quick)
  [ -n "${TEXCV_BENCH_FILTER:-}" ] && args+=(--filter "$TEXCV_BENCH_FILTER")
  rm -f "$OUT"/bench_*.json
  : >"$OUT/bench.txt"
  # One process per configuration: a crash (or a lost CUDA context) costs one configuration only.
  local t
  for c in $configs; do
    t=$(cap 60 90)  # leave 90 s for the peers and the summary
    if [ "$t" -lt 15 ]; then
      echo "   $c: skipped (time limit of the run)" | tee -a "$OUT/bench.txt"
      continue
    fi
    timeout "$t" "$bin" "${args[@]}" --config "$c" --budget $((t - 12)) \
      --out "$OUT/bench_$c.json" >>"$OUT/bench.txt" 2>&1
    crc=$?
    echo "   $c: exit $crc at $(elapsed)s"
    if [ $crc -eq 2 ]; then
      tail -1 "$OUT/bench.txt"
      return 2
    fi
    if [ $crc -ne 0 ]; then
      rc=$crc
      [ $crc -eq 124 ] && echo "   $c: TIMED OUT after $t s" | tee -a "$OUT/bench.txt"
      tail -5 "$OUT/bench.txt"
    fi
  done
  python3 bench/summarize.py --out-dir "$OUT" --merge --no-peers --suite geometry >/dev/null ||
    echo "   could not merge the JSON files"
  STAGE_NOTE="$(grep -c '' "$OUT/bench.txt") lines of output"
  return $rc
}

# bench_filters, one process per configuration, as do_bench.
do_filters() {
  local bin="$BUILD/bin/bench_filters"
  if [ ! -x "$bin" ]; then
    echo "no $bin (build stage failed or not run)"
    return 1
  fi
  local configs=${TEXCV_BENCH_FILTER_CONFIGS:-"f32x1 u8x1 u8x4 u8x3"} args=() rc=0 c crc
  [ $QUICK -eq 1 ] && args+=(--quick)
  [ -n "${TEXCV_BENCH_FILTER:-}" ] && args+=(--filter "$TEXCV_BENCH_FILTER")
  rm -f "$OUT"/filters_*.json
  : >"$OUT/filters.txt"
  local t
  for c in $configs; do
    t=$(cap 60 90)  # leave 90 s for the peers and the summary
    if [ "$t" -lt 15 ]; then
      echo "   $c: skipped (time limit of the run)" | tee -a "$OUT/filters.txt"
      continue
    fi
    timeout "$t" "$bin" "${args[@]}" --config "$c" --budget $((t - 12)) \
      --out "$OUT/filters_$c.json" >>"$OUT/filters.txt" 2>&1
    crc=$?
    echo "   $c: exit $crc at $(elapsed)s"
    if [ $crc -eq 2 ]; then
      tail -1 "$OUT/filters.txt"
      return 2
    fi
    if [ $crc -ne 0 ]; then
      rc=$crc
      [ $crc -eq 124 ] && echo "   $c: TIMED OUT after $t s" | tee -a "$OUT/filters.txt"
      tail -5 "$OUT/filters.txt"
    fi
  done
  python3 bench/summarize.py --out-dir "$OUT" --merge --no-peers --suite filters >/dev/null ||
    echo "   could not merge the JSON files"
  STAGE_NOTE="$(grep -c '' "$OUT/filters.txt") lines of output"
  return $rc
}

do_peers() {
  local args=()
  [ $QUICK -eq 1 ] && args+=(--quick)
  local suite=${TEXCV_PEERS_SUITE:-}
  if [ -z "$suite" ]; then
    if wanted bench && wanted filters; then
      suite=all
    elif wanted filters; then
      suite=filters
    elif wanted bench; then
      suite=geometry
    else
      suite=all
    fi
  fi
  args+=(--suite "$suite")
  local left
  left=$(cap 200 12)
  if [ "$left" -lt 30 ]; then
    echo "   peers skipped: only ${left} s left before the run's limit (${HARD} s)"
    return 1
  fi
  timeout "$left" python3 bench/peers.py "${args[@]}" --budget $((left - 25)) \
    --out "$OUT/peers.json" >"$OUT/peers.txt" 2>&1
  local rc=$?
  [ $rc -eq 124 ] && echo "   peers TIMED OUT after ${left} s (partial peers.json kept)"
  grep -E "^peers:|Error|Traceback" "$OUT/peers.txt" | head -6
  STAGE_NOTE="$(grep -cE ' ms ' "$OUT/peers.txt") timed rows"
  return $rc
}

# The Python package's tests on the GPU: the machine has no PyPI, so instead of pip the package
# folder is assembled from python/texcv and the extension module built by the build stage, and
# pytest runs from tests/python with it on PYTHONPATH (numpy in -> CUDA backend; CuPy and torch
# zero-copy tests). The notebook test is left out (nbclient is not on the machine).
do_python() {
  local so
  so=$(find "$BUILD-py" "$BUILD" -name '_texcv*.so' 2>/dev/null | head -1)
  if [ -z "$so" ]; then
    echo "no _texcv module under $BUILD (nanobind missing or build failed)"
    return 1
  fi
  local pkg=/tmp/texcv-pypkg
  rm -rf "$pkg" && mkdir -p "$pkg" && cp -r "$ROOT/python/texcv" "$pkg/" && cp "$so" "$pkg/texcv/"
  # The texcv command from the same build on PATH: `python -m texcv` finds it there (pip would
  # have installed it beside Python; test_command.py runs it).
  (cd "$ROOT/tests/python" && PATH=$BUILD/bin:$PATH PYTHONPATH=$pkg timeout "$(cap 150 150)" python3 -m pytest -q -rs \
    -p no:cacheprovider --ignore=test_notebook.py >"$OUT/pytest.log" 2>&1)
  local rc=$?
  tail -25 "$OUT/pytest.log"
  STAGE_NOTE="$(tail -1 "$OUT/pytest.log")"
  return $rc
}

# texcv batch on the GPU: the batch tests (GPU workers vs the CPU backend), the codec line, and
# the JPEG set of bench/batch (TEXCV_BATCH_JPEG files, default 200) with texcv-cuda, texcv-cpu and
# OpenCV (results under $OUT/batch).
do_batch() {
  local cli="$BUILD/tests/test_cli" rc=0
  [ -x "$cli" ] || cli=$(find "$BUILD" -name test_cli -type f -perm -u+x | head -1)
  if [ -n "$cli" ]; then
    # A run cut by its cap says so (a low TEXCV_HARD_LIMIT once left these tests 1 s).
    local t_cap t_rc
    t_cap=$(cap 180 150)
    timeout "$t_cap" "$cli" --gtest_filter='Batch*' >"$OUT/batch_tests.log" 2>&1
    t_rc=$?
    [ $t_rc -ne 0 ] && rc=1
    [ $t_rc -eq 124 ] && echo "Batch* tests: CUT SHORT at their ${t_cap} s cap (TEXCV_HARD_LIMIT ${HARD} s): not all ran" |
      tee -a "$OUT/batch_tests.log"
    grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|^\[ info \]|Failure" "$OUT/batch_tests.log" | head -40
    # On a machine of several GPUs, the tests that depend on their number once more with one GPU
    # visible (as on a one-GPU machine: the lost GPU's files then finish on the CPU backend).
    if [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -gt 1 ]; then
      echo "-- the same GPU tests with CUDA_VISIBLE_DEVICES=0"
      t_cap=$(cap 90 140)
      CUDA_VISIBLE_DEVICES=0 timeout "$t_cap" "$cli" \
        --gtest_filter='Batch.Gpu*:BatchEngine.InjectedGpu*:BatchEngine.DevicesNaming*' \
        >"$OUT/batch_tests_1gpu.log" 2>&1
      t_rc=$?
      [ $t_rc -ne 0 ] && rc=1
      [ $t_rc -eq 124 ] && echo "one-GPU tests: CUT SHORT at their ${t_cap} s cap: not all ran" |
        tee -a "$OUT/batch_tests_1gpu.log"
      grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|^\[ info \]|Failure" "$OUT/batch_tests_1gpu.log" | head -20
    fi
  fi
  "$BUILD/bin/texcv" info 2>&1 | head -20
  TEXCV="$BUILD/bin/texcv" OUT="$OUT/batch" timeout "$(cap 400 30)" bash bench/batch/run.sh \
    --sets "${TEXCV_BATCH_SETS:-jpeg}" --jpeg "${TEXCV_BATCH_JPEG:-200}" \
    --tiff "${TEXCV_BATCH_TIFF:-8}" --repeat "${TEXCV_BATCH_REPEAT:-1}" --tools "${TEXCV_BATCH_TOOLS:-texcv-cuda texcv-cpu opencv}" \
    --jpegx "${TEXCV_BATCH_JPEGX:-8}" --jpegx-tools "${TEXCV_BATCH_JPEGX_TOOLS:-texcv-cuda}" \
    --data /tmp/texcv-batch-data --work /tmp/texcv-batch-work >"$OUT/batch_run.log" 2>&1 || rc=1
  # TEXCV_BATCH_AB=1: bench/batch/ab_engine.sh on the same data (where the workers' time goes).
  if [ "${TEXCV_BATCH_AB:-0}" = 1 ]; then
    timeout "$(cap 120 20)" bash bench/batch/ab_engine.sh "$BUILD/bin/texcv" /tmp/texcv-batch-data \
      >"$OUT/ab_engine.log" 2>&1 || rc=1
  fi
  tail -30 "$OUT/batch_run.log"
  [ -f "$OUT/batch/table.md" ] && cat "$OUT/batch/table.md"
  return $rc
}

# Nsight Compute on the register kernels of bench_filters (u8 and f32 3x3 convolve, u8 box 5x5):
# speed of light, occupancy, warp stalls, instruction mix. Profiling needs the GPU's performance
# counters; where the machine forbids them, ncu says so in profile.txt.
do_profile() {
  local ncu=/usr/local/cuda/bin/ncu
  command -v ncu >/dev/null 2>&1 && ncu=$(command -v ncu)
  if [ ! -x "$ncu" ]; then
    echo "no ncu"
    return 1
  fi
  local bin="$BUILD/bin/bench_filters" rc=0 c f
  : >"$OUT/profile.txt"
  # TEXCV_PROFILE_CASES ("config:filter;..."), TEXCV_PROFILE_KERNEL (a kernel name regex): other
  # kernels, e.g. "u8x1:erode 3x3" and morph_rect_u8.
  local cases
  IFS=';' read -r -a cases <<<"${TEXCV_PROFILE_CASES:-u8x1:convolve 3x3;f32x1:convolve 3x3;u8x1:box_filter 5x5}"
  for c in "${cases[@]}"; do
    f=${c#*:}
    echo "=== ${c%%:*} $f" >>"$OUT/profile.txt"
    timeout "$(cap 60 20)" "$ncu" --kernel-name regex:"${TEXCV_PROFILE_KERNEL:-vec_kernel}" \
      --launch-skip 2 --launch-count 2 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section InstructionStats --section MemoryWorkloadAnalysis \
      "$bin" --config "${c%%:*}" --filter "$f" --reps 3 --warmup 1 --no-npp --out /tmp/prof.json \
      >>"$OUT/profile.txt" 2>&1 || rc=1
  done
  grep -E "^=== |Duration|Memory Throughput|Achieved Occupancy|Registers Per|Executed Ipc|Theoretical Occ|ERR|error" \
    "$OUT/profile.txt" | head -40
  return $rc
}

# compute-sanitizer over the CUDA tests (issue 18): memcheck (out-of-bounds and misaligned
# accesses, invalid frees, device leaks) on the whole CUDA test binary; racecheck (shared-memory
# hazards) on the suites whose kernels use shared memory, one process per suite so that a slow
# one is cut alone (racecheck over all of them did not finish in 120 s); memcheck on the batch
# GPU tests (GPU workers, nvJPEG, the injected GPU loss). Each run has a time limit cut to the
# run's ($HARD); a run cut short says so. sanitize.txt: one line per run with the errors the tool
# counted ("ERROR SUMMARY: N errors", racecheck's "N hazards"), its exit code and seconds.
# The stage fails when any run reports an error or does not finish.
SANITIZE_TXT=""
sanitize_run() {  # sanitize_run TOOL NAME LIMIT BINARY [ARGS...]
  local tool=$1 name=$2 limit=$3 bin=$4
  shift 4
  local log="$OUT/sanitize_${tool}_${name}.log" t rc errs hz verdict
  if [ "$limit" -lt 20 ]; then
    printf '%-10s %-22s skipped: %s s left before the run limit\n' "$tool" "$name" "$limit" |
      tee -a "$SANITIZE_TXT"
    return 1
  fi
  local args=(--tool "$tool" --target-processes all --error-exitcode 99)
  [ "$tool" = memcheck ] && args+=(--leak-check full)
  [ "$tool" = racecheck ] && args+=(--racecheck-report all)
  t=$(date +%s)
  timeout -k 5 "$limit" "$SANITIZER" "${args[@]}" "$bin" "$@" >"$log" 2>&1
  rc=$?
  errs=$(grep -oE 'ERROR SUMMARY: [0-9]+ error' "$log" | awk '{s += $3} END {print s + 0}')
  hz=$(grep -oE 'RACECHECK SUMMARY: [0-9]+ hazard' "$log" | awk '{s += $3} END {print s + 0}')
  local passed failed
  passed=$(grep -oE '^\[  PASSED  \] [0-9]+' "$log" | awk '{print $4}' | tail -1)
  failed=$(grep -cE '^\[  FAILED  \] [A-Za-z]' "$log")
  verdict=clean
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    verdict="CUT at ${limit} s (not all tests ran)"
  elif [ "$errs" -gt 0 ] || [ "$hz" -gt 0 ] || [ $rc -eq 99 ]; then
    verdict="ERRORS"
  elif [ $rc -ne 0 ]; then
    verdict="FAILED (exit $rc)"
  fi
  printf '%-10s %-22s %4s errors %4s hazards  tests passed %s, failed %s  exit %3s  %4s s  %s\n' \
    "$tool" "$name" "$errs" "$hz" "${passed:-?}" "$failed" "$rc" $(($(date +%s) - t)) "$verdict" |
    tee -a "$SANITIZE_TXT"
  if [ "$verdict" != clean ]; then
    grep -E '^========= (Invalid|Race|Error|Leaked|Program hit|Saved host backtrace|    at )' "$log" |
      head -12
  fi
  [ "$verdict" = clean ]
}

do_sanitize() {
  SANITIZER=/usr/local/cuda/bin/compute-sanitizer
  command -v compute-sanitizer >/dev/null 2>&1 && SANITIZER=$(command -v compute-sanitizer)
  if [ ! -x "$SANITIZER" ]; then
    echo "no compute-sanitizer"
    return 1
  fi
  local cuda="$BUILD/tests/test_cuda" cli="$BUILD/tests/test_cli" rc=0 s
  [ -x "$cuda" ] || cuda=$(find "$BUILD" -name test_cuda -type f -perm -u+x | head -1)
  [ -x "$cli" ] || cli=$(find "$BUILD" -name test_cli -type f -perm -u+x | head -1)
  if [ -z "$cuda" ]; then
    echo "no test_cuda under $BUILD (build stage failed or not run)"
    return 1
  fi
  SANITIZE_TXT="$OUT/sanitize.txt"
  {
    echo "== compute-sanitizer ($("$SANITIZER" --version 2>/dev/null | grep -oE 'Version [0-9.]+' | head -1))"
    printf '%-10s %-22s %s\n' tool run result
  } | tee "$SANITIZE_TXT"
  # In this order, each taking what it asks for while the run's limit allows (the rest skipped
  # and said so): memcheck on every CUDA test, memcheck on the batch GPU tests, racecheck on the
  # suites whose kernels use shared memory (histogram and CLAHE, median and bilateral, the
  # shared-tile filter path, colour statistics, the warp's tiles), one process per suite.
  # TEXCV_SANITIZE_PARTS picks parts ("memcheck batch racecheck"): after a build stage there is
  # not time for all three in one run; `bash bench/run_device.sh sanitize` in a second call
  # (same build folder) has the whole run for them.
  local parts=${TEXCV_SANITIZE_PARTS:-"memcheck batch racecheck"}
  local rsecs=${TEXCV_RACECHECK_SECONDS:-75}
  if [[ " $parts " == *" memcheck "* ]]; then
    # Without CudaRuntime.ImpossibleAllocationThrowsOutOfMemory: it asks for more than the GPU
    # has on purpose, and memcheck counts the refused cudaMallocPitch (and the error it leaves for
    # cudaGetLastError) as 2 API errors each time (4 in all, the only ones, on the H200 in the
    # sixth session: 0 access errors, 0 bytes leaked over the other 162 tests).
    sanitize_run memcheck test_cuda "$(cap 180 15)" "$cuda" \
      --gtest_filter='-CudaRuntime.ImpossibleAllocationThrowsOutOfMemory' || rc=1
  fi
  if [[ " $parts " == *" batch "* ]]; then
    if [ -n "$cli" ]; then
      sanitize_run memcheck batch_gpu "$(cap 120 15)" "$cli" \
        --gtest_filter='Batch.Gpu*:BatchEngine.InjectedGpu*:BatchEngine.DevicesNaming*' || rc=1
    else
      echo "no test_cli under $BUILD: the batch GPU tests were not run" | tee -a "$SANITIZE_TXT"
      rc=1
    fi
  fi
  if [[ " $parts " == *" racecheck "* ]]; then
    # FiltersCuda test by test, with TEXCV_TEST_SANITIZER_SUBSET=1 (tests/cpp/cuda/filter_test_util.hpp: every
    # kernel instantiation, two borders, one layout): its whole matrix under racecheck did not get
    # past its first test in 300 s (seventh session). An entry with a '.' is a gtest filter as is.
    local filt="FiltersCuda.SeparableFilterIdenticalToCpu FiltersCuda.GaussianBlurIdenticalToCpu"
    filt+=" FiltersCuda.BoxFilterIdenticalToCpu FiltersCuda.ConvolveU8IdenticalToCpu"
    filt+=" FiltersCuda.ConvolveU16IdenticalToCpu FiltersCuda.ConvolveF32IdenticalToCpu"
    filt+=" FiltersCuda.RegisterKernelsInteriorAndEdgeBlocksIdenticalToCpu"
    filt+=" FiltersCuda.SharpenIdenticalToCpu FiltersCuda.DerivativesIdenticalToCpu"
    filt+=" FiltersCuda.UnsharpMaskIdenticalToCpu"
    local suites=${TEXCV_RACECHECK_SUITES:-"HistCuda NonlinearCuda ColorCuda GeometryCudaPaths $filt"}
    local s f
    for s in $suites; do
      f="$s.*"
      [[ $s == *.* ]] && f=$s
      TEXCV_TEST_SANITIZER_SUBSET=1 sanitize_run racecheck "${s#FiltersCuda.}" \
        "$(cap "$rsecs" 15)" "$cuda" --gtest_filter="$f" || rc=1
    done
  fi
  STAGE_NOTE="$(grep -cE ' clean$' "$SANITIZE_TXT") clean runs of $(($(grep -c '' "$SANITIZE_TXT") - 2))"
  return $rc
}

# ---------------------------------------------------------------------------------------------
stage info do_info
wanted build && stage build do_build
wanted test && stage test do_test
wanted python && stage python do_python
wanted batch && stage batch do_batch
wanted bench && stage bench do_bench
wanted filters && stage filters do_filters
wanted peers && stage peers do_peers
wanted profile && stage profile do_profile
wanted sanitize && stage sanitize do_sanitize

{
  echo
  python3 bench/summarize.py --out-dir "$OUT" || echo "summary failed"
  echo
  echo "== stages (total $(elapsed) s; logs in $OUT)"
  cat "$STAGES_FILE"
  if [ -f "$OUT/sanitize.txt" ]; then
    echo
    cat "$OUT/sanitize.txt"
  fi
} | tee "$OUT/summary.txt"
# The device tool brings back at most 8 files: pack everything into one archive and keep the
# four files read most.
(cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz ./* 2>/dev/null &&
  find . -maxdepth 1 -type f ! -name logs.tgz ! -name summary.txt ! -name bench.txt \
    ! -name filters.txt ! -name ctest_cuda.log ! -name pytest.log ! -name profile.txt -delete &&
  find . -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +)
exit 0
