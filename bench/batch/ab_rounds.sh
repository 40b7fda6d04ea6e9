#!/usr/bin/env bash
# Interleaved A/B of texcv batch variants: ab_variants.sh's variants ("NAME|TOOL|ENV=VALUE ...",
# on TEXCV_AB_SETS), one run of each per round, TEXCV_AB_ROUNDS rounds (default 5). A machine
# whose speed drifts during the A/B (the twentieth session's H100: --device cpu took 1.07-1.21 s
# on the 1,000 JPEGs in its first minute, 0.80-0.93 s two minutes later) then shifts every
# variant alike. Prints each variant's wall times in round order and their median; each round's
# output stays in $OUT/roundN.txt and its runs under $OUT/roundN/.
#
#   TEXCV_AB_SETS=jpeg bash bench/batch/ab_rounds.sh "cpu|texcv-cpu|" "auto|texcv-auto|"
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/out-device}
R=${TEXCV_AB_ROUNDS:-5}
for r in $(seq 1 "$R"); do
  mkdir -p "$OUT/round$r"
  TEXCV_AB_REPEAT=1 OUT="$OUT/round$r" bash bench/batch/ab_variants.sh "$@" >"$OUT/round$r.txt" 2>&1
done
for spec in "$@"; do
  name=${spec%%|*}
  walls=$(for r in $(seq 1 "$R"); do
    awk -F'|' -v n="== $name:" 'index($0, n) == 1 {f = 1; next} f && NF > 2 {gsub(/ /, "", $3); print $3; exit}' \
      "$OUT/round$r.txt"
  done | tr '\n' ' ')
  med=$(tr ' ' '\n' <<<"$walls" | grep -v '^$' | sort -n | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]}')
  joined=$(for r in $(seq 1 "$R"); do
    awk -v n="== $name:" 'index($0, n) == 1 {f = 1; next} f && /^==/ {exit} f && /joined/ {print}' \
      "$OUT/round$r.txt" | grep -oE "joined [0-9.]+ s|on [0-9]+ file\(s\) on the GPU|not joined" | tr '\n' ' '
    echo "|"
  done | tr '\n' ' ')
  grep -q joined <<<"$joined" || joined=
  echo "$name: median ${med:-?} s; runs ${walls}${joined:+; $joined}"
done
