#!/usr/bin/env bash
# On the GPU machine: the separable register kernels' border blocks with their window-row loop
# kept (the default build) against fully unrolled (-DTEXCV_SEP_BORDER_UNROLL=0, as before
# 2026-12-01), both timed by bench_filters in the same run, at 8192x8192 and at --quick's
# 2048x2048 (where border blocks are about half of the blocks). Runs bench/run_device.sh's
# build and test stages for the default build first. Carry .devdeps (bench/make_devdeps.sh).
#   bash bench/ab_sep_border.sh        # writes under $OUT (default out-ab/)
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/out-ab}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
JOBS=$(nproc)
A=$ROOT/build-ab-unrolled
# The fully unrolled variant, built beside the default one (library and bench_filters only).
(cmake -S "$ROOT" -B "$A" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DTEXCV_CUDA=ON -DTEXCV_TIFF=OFF -DTEXCV_BUILD_TESTS=OFF -DTEXCV_BUILD_TOOLS=OFF \
  -DTEXCV_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_FLAGS=-DTEXCV_SEP_BORDER_UNROLL=0 \
  -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 \
  -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20 >"$OUT/build_a.log" 2>&1 &&
  cmake --build "$A" -j "$JOBS" --target bench_filters >>"$OUT/build_a.log" 2>&1 ||
  echo "unrolled variant: build FAILED (build_a.log)") &
OUT=$OUT TEXCV_DEADLINE=${TEXCV_DEADLINE:-300} TEXCV_HARD_LIMIT=${TEXCV_HARD_LIMIT:-380} \
  bash bench/run_device.sh build test
wait
B=${TEXCV_BUILD_DIR:-$ROOT/build-device}
filter=${AB_FILTER:-gaussian_blur,box_filter,sobel}
configs=${AB_CONFIGS:-f32x1,u8x1,u8x4,u8x3}
for size in full quick; do
  q=()
  [ "$size" = quick ] && q=(--quick --reps 20)
  for v in kept unrolled; do
    bin=$B/bin/bench_filters
    [ "$v" = unrolled ] && bin=$A/bin/bench_filters
    [ -x "$bin" ] || { echo "$v: no $bin"; continue; }
    echo "== $v ($size)" | tee -a "$OUT/ab.txt"
    timeout 60 "$bin" "${q[@]}" --no-npp --filter "$filter" --config "$configs" \
      --out "$OUT/ab_${v}_${size}.json" >>"$OUT/ab.txt" 2>&1 || echo "$v $size: exit $?"
  done
done
grep -E "^(== |gaussian|box_filter|sobel)" "$OUT/ab.txt" | grep -E "== |global|auto" | head -80
