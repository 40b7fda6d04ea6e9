#!/usr/bin/env bash
# Builds targets of the build folder ($TEXCV_BUILD_DIR, default build/) and keeps the compiler's
# output in $build/logs/NAME.log (NAME: the first argument), where CI looks for warnings.
#   bash scripts/build.sh NAME [cmake --build arguments, e.g. --target texcv_cli]
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1
shift
build=${TEXCV_BUILD_DIR:-build}
mkdir -p "$build/logs"
start=$(date +%s)
# ninja prints each command's output; with ccache a cached object replays its warnings too.
if ! cmake --build "$build" "$@" 2>&1 | tee "$build/logs/$name.log"; then
  echo "texcv: the build failed (log: $build/logs/$name.log)" >&2
  exit 1
fi
echo "texcv: built in $(($(date +%s) - start)) s (log: $build/logs/$name.log)"
