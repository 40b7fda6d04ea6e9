#!/usr/bin/env bash
# A device call without the device's ~100 s build: build `texcv` here with nvJPEG (headers and
# library from PyPI's nvidia-nvjpeg wheel, unpacked under $NVJ) for sm_90 without libtiff, and
# put it, xz-compressed (the stripped binary is ~74 MB, over the 64 MiB a call carries; ~19 MB
# compressed), with this machine's libjpeg.so.62 (the device has libjpeg 8) and the probes of
# bench/batch/*.cpp in .prebuilt/ (ignored by git). Carry [".prebuilt", "COMMIT"] and start the
# command with `source bench/batch/prebuilt.sh use`: it unpacks the binary, sets
# LD_LIBRARY_PATH and TEXCV. For A/B runs of variants only: the tests and the benchmark of
# record build on the device (bench/batch/issue15_device.sh).
#
#   NVJ=/tmp/nvj/nvidia/cu13 bash bench/batch/prebuilt.sh make
set -u
if [ "${1:-}" = use ]; then
  P=$PWD/.prebuilt
  [ -x "$P/texcv" ] || { xz -dkf "$P/texcv.xz" && chmod +x "$P/texcv"; }
  export LD_LIBRARY_PATH=$P:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
  export TEXCV=$P/texcv
  return 0 2>/dev/null || exit 0
fi
cd "$(dirname "$0")/../.." || exit 1
NVJ=${NVJ:-/tmp/nvj/nvidia/cu13}
[ -f "$NVJ/include/nvjpeg.h" ] || {
  echo "no nvjpeg.h under $NVJ: pip download nvidia-nvjpeg and unzip the wheel" >&2
  exit 1
}
cmake -S . -B build-nvj -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DTEXCV_CUDA=ON -DTEXCV_TIFF=OFF -DTEXCV_BUILD_TESTS=OFF -DTEXCV_BUILD_BENCH=OFF \
  -DTEXCV_BUILD_EXAMPLES=OFF -DTEXCV_NVJPEG_INCLUDE="$NVJ/include" \
  -DTEXCV_NVJPEG_LIBRARY="$NVJ/lib/libnvjpeg.so.13" -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 \
  -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20 >/dev/null || exit 1
ninja -C build-nvj texcv_cli >/dev/null || exit 1
mkdir -p .prebuilt
strip -o .prebuilt/texcv build-nvj/bin/texcv
rm -f .prebuilt/texcv.xz
xz -T2 -6 .prebuilt/texcv
cp -L /lib/x86_64-linux-gnu/libjpeg.so.62 .prebuilt/
for src in bench/batch/exit_teardown.cpp bench/batch/setup_under_load.cpp; do
  nvcc -O2 -std=c++20 -I"$NVJ/include" -o ".prebuilt/$(basename "$src" .cpp)" "$src" \
    -L"$NVJ/lib" -l:libnvjpeg.so.13 || exit 1
done
git rev-parse HEAD >COMMIT
ls -la .prebuilt
