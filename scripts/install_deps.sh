#!/usr/bin/env bash
# Installs what texcv needs to build and test on Debian 12 / Ubuntu 24.04 (run as root or with
# sudo). The CUDA 13 toolkit is optional: with nvcc on PATH (or in /usr/local/cuda/bin) the CUDA
# backend is built too.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config ccache
  libjpeg-dev libpng-dev libtiff-dev libcli11-dev libgtest-dev libopencv-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "texcv: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "texcv: build dependencies already installed"
fi
