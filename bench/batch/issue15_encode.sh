#!/usr/bin/env bash
# One short device call (carry [".devdeps", "COMMIT"]; ~3.5 min): builds texcv and the CLI tests
# only, runs the GPU Batch tests, then --device cuda on the 1,000 JPEGs of make_data.py with the
# encoder's bytes retrieved once into pinned memory (default) and in two calls as before
# (TEXCV_BATCH_ENCODE_TWO_CALLS=1): the outputs must be byte-identical; 3 runs each alternating,
# every run into a fresh folder (deleting 1,000s of files on the device's disk, mounted with
# `discard`, stalls the writes of the next run), TEXCV_BATCH_TIMING=1 for the encode's ms a file.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
TEXCV_BUILD_TARGETS=texcv_cli TEXCV_DEADLINE=140 TEXCV_HARD_LIMIT=150 \
  bash bench/run_device.sh build >/dev/null 2>&1
grep -A3 "== stages" "$OUT/summary.txt"
B=build-device
# (the GPU Batch tests need test_cli: left to a full call)
D=/tmp/enc
mkdir -p $D
timeout 40 python3 bench/batch/make_data.py --out $D/data --tiff 0 --jpeg 1000 2>&1 | tail -1
P="resize:scale=0.5;convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125"
for r in 1 2; do
  for v in one two; do
    e=0; [ $v = two ] && e=1
    s=$(date +%s%N)
    TEXCV_BATCH_ENCODE_TWO_CALLS=$e TEXCV_BATCH_TIMING=1 $B/bin/texcv batch -i $D/data/jpeg \
      -o $D/out-$v-$r -p "$P" -d cuda -f jpeg -q 90 >$D/log-$v-$r.txt 2>&1
    rc=$?; echo "$v run $r: rc $rc wall $((($(date +%s%N) - s) / 1000000)) ms"
    grep -h "images/s on\|JPEG encode" $D/log-$v-$r.txt | sed 's/.*then /  /' | cut -c1-150
  done
done
diff -rq $D/out-one-1 $D/out-two-1 && echo "outputs byte-identical: $(find $D/out-one-1 -type f | wc -l) files"
tar czf "$OUT/enc_logs.tgz" -C $D $(cd $D && ls log-*.txt)
