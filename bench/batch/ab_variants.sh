#!/usr/bin/env bash
# A/B of texcv batch variants on bench/batch/run.sh's sets (TEXCV_AB_SETS, default "jpeg": the
# 1,000 JPEGs; "jpeg jpegx" adds the 8,000; "tiff": TEXCV_AB_TIFF TIFFs, default 8; build first: bash bench/run_device.sh build). Each argument is one variant, "NAME|TOOL|ENV=VALUE ...": TOOL is a
# run.sh tool (texcv-auto, texcv-cpu@decode-threads=12, ...), the environment is set for that
# run.sh call only (TEXCV_BATCH_TIMING=1 there: where the time goes). Each variant:
# TEXCV_AB_REPEAT runs (default 3) in one run.sh call; prints the median wall time and each
# run's "CUDA workers joined" line. Results under $OUT/ab/NAME.
#
#   bash bench/batch/ab_variants.sh "base|texcv-auto|" "tun|texcv-auto|GLIBC_TUNABLES=..."
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/out-device}
T=${TEXCV:-$PWD/build-device/bin/texcv}
for spec in "$@"; do
  IFS='|' read -r name tool envs <<<"$spec"
  # shellcheck disable=SC2086  # the environment assignments are meant to split
  env $envs TEXCV="$T" OUT="$OUT/ab/$name" timeout 120 bash bench/batch/run.sh \
    --sets "${TEXCV_AB_SETS:-jpeg}" --jpeg "${TEXCV_AB_JPEG:-1000}" --jpegx 8 --tiff "${TEXCV_AB_TIFF:-8}" \
    --jpegx-tools "$tool" --repeat "${TEXCV_AB_REPEAT:-3}" --tools "$tool" \
    --data /tmp/texcv-batch-data --work /tmp/texcv-batch-work >"$OUT/ab_$name.log" 2>&1
  echo "== $name: $tool ${envs:-(no environment)}"
  [ -f "$OUT/ab/$name/table.md" ] && tail -n +3 "$OUT/ab/$name/table.md" | cut -d'|' -f3,5-8
  grep -h "joined" "$OUT/ab/$name"/logs/*.log 2>/dev/null | sed 's/^texcv batch: /  /'
done
