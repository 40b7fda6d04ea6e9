#!/usr/bin/env bash
# Newcomer command 1: installs the build dependencies (scripts/install_deps.sh build), builds the
# texcv command and runs its main job on the bundled sample images (examples/images ->
# out/demo), on the GPU when one is present, else the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh build
# Tests and benchmarks off: they need GoogleTest, which only scripts/test.sh installs; the
# library's and the command's flags do not depend on them.
bash scripts/configure.sh -DTEXCV_BUILD_TESTS=OFF -DTEXCV_BUILD_BENCH=OFF
bash scripts/build.sh demo --target texcv_cli
bin="${TEXCV_BUILD_DIR:-build}/bin/texcv"
"$bin" info
"$bin" batch -i examples/images -o out/demo --device auto --overwrite \
  -p "rotate:angle=30,expand=true;resize:scale=0.5,interp=area;sharpen" --report out/demo.jsonl
echo "texcv: results in out/demo/, one report line per file in out/demo.jsonl"
