#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz; docs/fuzzing.md): configures a build folder of their own with
# clang (ASan + UBSan + libFuzzer, CUDA off), builds the target `fuzz`, then runs each target in
# turn on its seed corpus (tests/fuzz/corpus/<target>/, with tests/fuzz/dict/<target>.dict) for
# a bounded time, leak detection on. Any crash, sanitizer report, leak, input slower than 2 s,
# or RSS over 512 MB fails the target; the input that did it is kept (ARTIFACTS below) and,
# when small, printed in base64 so a CI log is enough to get it back. All targets run even
# after a failure; the exit code is 1 when any failed.
#
#   bash scripts/fuzz.sh [TARGET...]     (default: every target the build has)
# Environment:
#   TEXCV_FUZZ_SECONDS   seconds per target (default 60); 0: each corpus input once, no fuzzing
#   TEXCV_FUZZ_BUILD_DIR build folder (default build-fuzz)
#   TEXCV_FUZZ_OUT       where runs write (default $TEXCV_FUZZ_BUILD_DIR/runs): corpus/<target>/
#                        (new inputs: the committed corpus is only read), artifacts/, logs/,
#                        summary.txt
#   TEXCV_FUZZ_JOBS      build jobs (default: nproc)
#   TEXCV_FUZZ_ARGS      more libFuzzer flags for every run (e.g. "-fork=1 -ignore_crashes=1")
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
seconds=${TEXCV_FUZZ_SECONDS:-60}
build=${TEXCV_FUZZ_BUILD_DIR:-build-fuzz}
out=${TEXCV_FUZZ_OUT:-$build/runs}
jobs=${TEXCV_FUZZ_JOBS:-$(nproc)}
if ! [[ $seconds =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: TEXCV_FUZZ_SECONDS must be a whole number of seconds; got '$seconds'" >&2
  exit 2
fi

# clang with libFuzzer's runtime (Debian 12: clang; Ubuntu 24.04 also libclang-rt-18-dev).
sudo_cmd=()
[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
fuzzer_links() {
  local t
  t=$(mktemp -d)
  printf 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }\n' \
    >"$t/a.cpp"
  clang++ -fsanitize=fuzzer,address,undefined "$t/a.cpp" -o "$t/a" >/dev/null 2>&1
  local rc=$?
  rm -rf "$t"
  return $rc
}
if ! command -v clang++ >/dev/null; then
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    clang >/dev/null
fi
if ! fuzzer_links; then
  ver=$(clang++ --version | sed -nE 's/.*clang version ([0-9]+).*/\1/p' | head -1)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "libclang-rt-$ver-dev" >/dev/null || true
  if ! fuzzer_links; then
    echo "fuzz.sh: clang++ cannot link -fsanitize=fuzzer (libclang_rt.fuzzer missing)" >&2
    exit 2
  fi
fi

echo "== fuzz: configure $build (clang, TEXCV_FUZZ=ON, TEXCV_CUDA=OFF)"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DTEXCV_CUDA=OFF -DTEXCV_FUZZ=ON -DTEXCV_BUILD_TESTS=OFF \
  -DTEXCV_BUILD_TOOLS=OFF -DTEXCV_BUILD_EXAMPLES=OFF -DTEXCV_BUILD_BENCH=OFF >/dev/null
t0=$(date +%s)
mkdir -p "$build/logs"
if ! cmake --build "$build" --target fuzz -j "$jobs" >"$build/logs/fuzz.log" 2>&1; then
  tail -50 "$build/logs/fuzz.log" >&2
  echo "fuzz.sh: the build failed (log: $build/logs/fuzz.log)" >&2
  exit 1
fi
build_s=$(($(date +%s) - t0))
echo "built in ${build_s} s (log: $build/logs/fuzz.log)"

if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for exe in "$build"/fuzz/fuzz_*; do targets+=("$(basename "$exe")"); done
fi
mkdir -p "$out/artifacts" "$out/logs"
summary=$out/summary.txt
: >"$summary"
failed=()
# Leaks fail the run; UBSan reports are fatal (the build has -fno-sanitize-recover) with a stack.
# ASan's quarantine of freed memory (use-after-free detection) is cut from 256 to 64 MB so that
# it does not count against the 512 MB RSS limit as much as the decoders' own memory does.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1:quarantine_size_mb=64}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for t in "${targets[@]}"; do
  exe=$build/fuzz/$t
  seeds=tests/fuzz/corpus/$t
  if [ ! -x "$exe" ] || [ ! -d "$seeds" ]; then
    echo "fuzz.sh: no target '$t' (or no corpus $seeds)" >&2
    failed+=("$t")
    continue
  fi
  work=$out/corpus/$t
  mkdir -p "$work"
  rm -f "$out/artifacts/$t-"*
  args=(-timeout=2 -rss_limit_mb=512 -detect_leaks=1 -print_final_stats=1
    "-artifact_prefix=$out/artifacts/$t-")
  [ -f "tests/fuzz/dict/$t.dict" ] && args+=("-dict=tests/fuzz/dict/$t.dict")
  if [ "$seconds" = 0 ]; then
    args+=(-runs=0)
  else
    args+=("-max_total_time=$seconds")
  fi
  # shellcheck disable=SC2206  # TEXCV_FUZZ_ARGS is a list of flags, split on spaces on purpose
  extra=(${TEXCV_FUZZ_ARGS:-})
  log=$out/logs/$t.log
  echo "== fuzz: $t (${seconds} s)"
  t1=$(date +%s)
  set +e
  "$exe" "${args[@]}" "${extra[@]}" "$work" "$seeds" >"$log" 2>&1
  rc=$?
  set -e
  secs=$(($(date +%s) - t1))
  # libFuzzer's final stats and its last status line (cov: edges, ft: features, corp: units).
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1 || true)
  # (-fork mode prints no final stats: its last status line "#N: cov: ..." has the count.)
  [ -z "$execs" ] && execs=$(sed -nE 's/^#([0-9]+):? +cov:.*/\1/p' "$log" | tail -1 || true)
  rss=$(sed -nE 's/^stat::peak_rss_mb: *([0-9]+)/\1/p' "$log" | tail -1 || true)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+(/[0-9]+[a-zA-Z]*)?' "$log" | tail -1 || true)
  verdict=ok
  # With -fork and -ignore_crashes (long runs) libFuzzer goes on after a finding and exits 0: a
  # kept input still fails the target.
  kept=$(find "$out/artifacts" -maxdepth 1 -type f -name "$t-*" | wc -l)
  if [ $rc -ne 0 ]; then
    verdict="FAILED (exit $rc)"
    failed+=("$t")
  elif [ "$kept" -gt 0 ]; then
    verdict="FAILED ($kept input(s) kept in $out/artifacts)"
    failed+=("$t")
    rc=1
  fi
  line="$t: ${secs} s, ${execs:-?} runs, ${cov:-no coverage line}, peak RSS ${rss:-?} MB: $verdict"
  echo "$line" | tee -a "$summary"
  if [ $rc -ne 0 ]; then
    grep -E 'ERROR: |SUMMARY: |contract broken|runtime error|^    #[0-9]' "$log" | head -40 >&2 || true
    for a in "$out/artifacts/$t-"*; do
      [ -f "$a" ] || continue
      echo "fuzz.sh: kept input: $a ($(wc -c <"$a") bytes); add it as" \
        "tests/fuzz/corpus/$t/finding-<what> once understood" >&2
      if [ "$(wc -c <"$a")" -le 4096 ]; then
        echo "base64 of $(basename "$a"):" >&2
        base64 -w 100 "$a" >&2
      fi
    done
    echo "fuzz.sh: full log: $log" >&2
  fi
done
echo "== fuzz: $((${#targets[@]} - ${#failed[@]})) of ${#targets[@]} targets clean," \
  "$(($(date +%s) - start)) s in all (build ${build_s} s); summary: $summary"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: failed: ${failed[*]}" >&2
  exit 1
fi
