#!/usr/bin/env bash
# Assembles .devdeps/ (git-ignored) from this Debian machine's packages, for carrying to the GPU
# machine, which has no GoogleTest, CLI11 or libtiff (bench/run_device.sh reads it):
#   .devdeps/googletest/       GoogleTest's source tree (Debian: /usr/src/googletest)
#   .devdeps/include/CLI/      the CLI11 headers
#   .devdeps/tiff/{lib,include} Debian 12's static libtiff and the static libraries it needs
#   .devdeps/hwy/              Google Highway 1.0.3 (Debian's headers, shared libraries and CMake
#                              config, in Debian's layout: run_device.sh sets hwy_DIR)
# Then: run(command="bash bench/run_device.sh ...", carry=[".devdeps"]). About 6 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh test >/dev/null
pkgs=(libdeflate-dev libjbig-dev liblerc-dev liblzma-dev libwebp-dev libzstd-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
rm -rf .devdeps
mkdir -p .devdeps/include .devdeps/tiff/lib .devdeps/tiff/include
cp -a /usr/src/googletest .devdeps/googletest
cp -a /usr/include/CLI .devdeps/include/CLI
lib=/usr/lib/x86_64-linux-gnu
for l in tiff webp zstd lzma Lerc jbig deflate; do cp "$lib/lib$l.a" .devdeps/tiff/lib/; done
for h in tiff.h tiffconf.h tiffio.h tiffvers.h tiffio.hxx; do
  cp "/usr/include/x86_64-linux-gnu/$h" .devdeps/tiff/include/
done
# Highway (the CPU backend's SIMD dispatch): the build tree's binaries find libhwy.so.1 through
# their RPATH, which CMake sets to the imported library's folder.
mkdir -p .devdeps/hwy/include .devdeps/hwy/lib/x86_64-linux-gnu/cmake
cp -a /usr/include/hwy .devdeps/hwy/include/hwy
cp -a "$lib"/libhwy*.so* .devdeps/hwy/lib/x86_64-linux-gnu/
cp -a "$lib/cmake/hwy" .devdeps/hwy/lib/x86_64-linux-gnu/cmake/hwy
du -sh .devdeps
