#!/usr/bin/env bash
# On the GPU machine (issue 16, item 4): the cost of the exact (double) source coordinates.
# Builds bench_geometry from the trees carried under .ab/ (each a `git archive` of a commit),
# and the working tree's library, bench_geometry and test_cuda; runs the geometry CUDA tests
# (ExactCuda* against the float64 reference, the *Cuda grids against the CPU backend) on the
# working tree's build, then every variant's benchmark in alternation, NPP in each process.
# Make the trees here first, e.g. the float32 coordinates (8ef6977, the parent of c455afa):
#   rm -rf .ab && mkdir -p .ab/base && git archive 8ef6977 | tar -x -C .ab/base
# AB_VARIANTS (default "base new": directory names under .ab, and new = the working tree),
# AB_ROUNDS (default 2), AB_FILTER, AB_CONFIGS. Carry [".devdeps", ".ab", "COMMIT"].
# Writes under $OUT (default out-ab/): ab.txt, tests.txt, logs.tgz.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/out-ab}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
JOBS=$(nproc)
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DTEXCV_CUDA=ON
  -DTEXCV_TIFF=OFF -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20
  -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20)
gt=() # as bench/run_device.sh
[ -d "$ROOT/.devdeps/googletest" ] && gt+=("-DTEXCV_GTEST_SOURCE=$ROOT/.devdeps/googletest")
[ -d "$ROOT/.devdeps/include/CLI" ] && gt+=("-DTEXCV_CLI11_INCLUDE=$ROOT/.devdeps/include")
read -r -a variants <<<"${AB_VARIANTS:-base new}"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
echo "commit: $(cat COMMIT 2>/dev/null || git rev-parse HEAD 2>/dev/null); variants: ${variants[*]}"
t0=$(date +%s)
for v in "${variants[@]}"; do
  if [ "$v" = new ]; then
    (cmake -S "$ROOT" -B "$ROOT/build-ab-new" "${cfg[@]}" -DTEXCV_BUILD_TOOLS=OFF \
      -DTEXCV_BUILD_EXAMPLES=OFF "${gt[@]}" >"$OUT/build_new.log" 2>&1 &&
      cmake --build "$ROOT/build-ab-new" -j "$JOBS" --target bench_geometry test_cuda \
        >>"$OUT/build_new.log" 2>&1 || echo "new: build FAILED (build_new.log)") &
  else
    (cmake -S "$ROOT/.ab/$v" -B "$ROOT/build-ab-$v" "${cfg[@]}" -DTEXCV_BUILD_TESTS=OFF \
      -DTEXCV_BUILD_TOOLS=OFF -DTEXCV_BUILD_EXAMPLES=OFF >"$OUT/build_$v.log" 2>&1 &&
      cmake --build "$ROOT/build-ab-$v" -j "$JOBS" --target bench_geometry \
        >>"$OUT/build_$v.log" 2>&1 || echo "$v: build FAILED (build_$v.log)") &
  fi
done
wait
echo "builds: $(($(date +%s) - t0)) s; warnings (new): $(grep -c 'warning' "$OUT/build_new.log")"
if [ -x "$ROOT/build-ab-new/tests/test_cuda" ]; then
  timeout 200 "$ROOT/build-ab-new/tests/test_cuda" \
    --gtest_filter='Exact*:*Warp*:*Resize*:*Remap*:*Rotate*:*Geometry*:*LaunchBatch*' \
    >"$OUT/tests.txt" 2>&1
  echo "geometry CUDA tests: rc $? ($(grep -E '^\[  PASSED  \]|^\[  FAILED  \]|FAILED TEST' \
    "$OUT/tests.txt" | head -5 | tr '\n' ' '))"
fi
filter=${AB_FILTER:-resize,warp,rotate,remap}
configs=${AB_CONFIGS:-f32x1,u8x1,u16x1,u8x4}
for r in $(seq "${AB_ROUNDS:-2}"); do
  for v in "${variants[@]}"; do
    bin=$ROOT/build-ab-$v/bin/bench_geometry
    [ -x "$bin" ] || { echo "$v: no $bin"; continue; }
    echo "== $v (round $r)" >>"$OUT/ab.txt"
    timeout 90 "$bin" --filter "$filter" --config "$configs" \
      --out "$OUT/ab_${v}_$r.json" >>"$OUT/ab.txt" 2>&1 || echo "$v round $r: exit $?"
  done
done
grep -E "^== |^(f32|u8|u16)[a-z0-9]* +(rotate|warp|resize|remap)" "$OUT/ab.txt" | cut -c1-90
(cd "$OUT" && tar czf logs.tgz build_*.log ./*.json 2>/dev/null && rm -f ./*.json build_*.log)
