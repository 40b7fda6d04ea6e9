#!/usr/bin/env bash
# What the per-session device scripts share (bench/session25_device.sh, session26_device.sh):
# sourced from the repository root with G (the logs' folder on the machine) and LIBS (where the
# packed libraries go) set. Unpacks the slim binaries of build-prebuiltS (bench/batch/
# session17_device.sh pack) into build/ where carried, stashes CV-CUDA's wheel parts where
# carried, and defines at, gtests, ab and prof (ncu, until PROF_UNTIL seconds into the call).
ROOT=$PWD
OUT=${OUT:-$ROOT/out-device}
mkdir -p "$OUT"
T0=$(date +%s)
at() { echo "(at $(($(date +%s) - T0)) s)"; }
mkdir -p $G
export PATH=/usr/local/cuda/bin:$PATH
P=$ROOT/build-prebuiltS
if [ -f $P/stripped.tar.xz ]; then
  echo "binaries of $(cat $P/COMMIT), tree of $(cat COMMIT 2>/dev/null)"
  built=$(cat $P/BUILT_AT)
  src=$(dirname "$built")
  mkdir -p build && tar xJf $P/stripped.tar.xz -C build
  if [ "$src" != "$ROOT" ] && [ ! -e "$src" ]; then
    mkdir -p "$(dirname "$src")" 2>/dev/null && ln -s "$ROOT" "$src" && echo "linked $src -> $ROOT"
  fi
  [ "$(basename "$built")" = build ] || ln -sfn "$ROOT/build" "$src/$(basename "$built")"
  rm -rf $LIBS && cp -r $P/lib $LIBS  # build-prebuiltS is not carried by the later calls
fi
export LD_LIBRARY_PATH=$LIBS:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
ldd build/tests/test_cuda | grep "not found"
bash bench/cvcuda_device.sh stash
gtests() {  # gtests LABEL BINARY FILTER LOG
  echo "== $1 $(at)"
  timeout "${GT_TIMEOUT:-60}" build/tests/$2 --gtest_filter="$3" >$G/$4 2>&1
  echo "$1 rc $?"
  grep -E "^\[  (PASSED|FAILED|  SKIPPED) |^\[  FAILED  \]|Failure" $G/$4 | head
}
# ab NAME BENCH CONFIGS FILTERS VARIANT...: one process per variant, texcv's and NPP's rows.
ab() {
  local name=$1 bin=$2 cfg=$3 flt=$4
  shift 4
  for v in "$@"; do
    echo "-- $name $v $(at)"
    env "$v" timeout 90 build/bin/$bin --reps 20 --filter "$flt" --config "$cfg" \
      --out $G/ab_${name}_${v#*=}.json >$G/ab_${name}_${v#*=}.txt 2>&1 || echo "exit $?"
    grep -E " (texcv +(global|shared|texture|-|auto[^ ]*)|npp +-) " $G/ab_${name}_${v#*=}.txt |
      tr -s ' ' | cut -c1-100 | head -24
  done
}
# ncu on one kernel of one benchmark row: prof BENCH CONFIG FILTER KERNEL_REGEX.
prof() {
  local f=$G/ncu_$2_${3// /_}.txt
  [ $(($(date +%s) - T0)) -lt ${PROF_UNTIL:-520} ] || { echo "no time left for ncu $2 $3"; return; }
  echo "== ncu $1 $2 $3 ($4) $(at)"
  timeout 45 ncu --kernel-name-base mangled --kernel-name regex:"$4" --launch-skip 2 \
    --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis \
    --section SchedulerStats build/bin/$1 --config "$2" --filter "$3" --reps 3 --warmup 1 \
    --no-npp --out /tmp/prof.json >"$f" 2>&1 || echo "ncu rc $?"
  grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occ|Registers Per|Executed Ipc A|Issue Slots Busy|No Eligible|Block Limit Reg|Block Limit Shared|ERR" \
    "$f" | cut -c1-150 | head -24
}
