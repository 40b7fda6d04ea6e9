#!/usr/bin/env bash
# Installs what texcv needs on Debian 12 / Ubuntu 24.04 (run as root or with sudo), only what the
# command at hand needs:
#   bash scripts/install_deps.sh build   # the library and the texcv command (scripts/demo.sh):
#                                        # compiler, cmake, ninja, ccache, libjpeg-turbo, libpng,
#                                        # libtiff, CLI11, Google Highway
#   bash scripts/install_deps.sh test    # build + GoogleTest, OpenCV (reference tests only) and
#                                        # python3-venv (scripts/test.sh)
# The CUDA 13 toolkit is optional: with nvcc on PATH (or in /usr/local/cuda/bin) the CUDA
# backend is built too.
set -euo pipefail
mode=${1:-test}
packages=(build-essential cmake ninja-build pkg-config ccache git
  libjpeg-dev libpng-dev libtiff-dev libcli11-dev libhwy-dev)
case "$mode" in
  build) ;;
  test)
    packages+=(libgtest-dev libopencv-dev)
    # The Python tests' virtual environment needs the venv module (a package on Debian/Ubuntu).
    if command -v python3 >/dev/null && ! python3 -c 'import ensurepip' 2>/dev/null; then
      packages+=("python3-venv")
    fi
    ;;
  *)
    echo "install_deps.sh: unknown mode '$mode'; expected 'build' or 'test'" >&2
    exit 2
    ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "texcv: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
else
  echo "texcv: dependencies for '$mode' already installed"
fi
