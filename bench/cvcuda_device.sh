#!/usr/bin/env bash
# CV-CUDA beside NPP, CuPy and torch on the GPU machine (issue 21, item 1): bench/peers.py with
# CV-CUDA's wheel, which travels in three parts (bench/fetch_cvcuda_wheel.sh, here first) over
# three back-to-back calls on one warm machine (it goes back 30 s after a call):
#   call 1 (carry bench/wheels-cvcuda1):  bash bench/cvcuda_device.sh stash
#   call 2 (carry bench/wheels-cvcuda2):  bash bench/cvcuda_device.sh stash
#   call 3 (carry bench/wheels-cvcuda3):  bash bench/cvcuda_device.sh stash install peers
# (call 1 may also build texcv: run_device.sh build, then stash; its filters and bench stages
# time texcv and NPP.) Stages: stash (copy bench/wheels-cvcuda*/ into /tmp/texcv-cvcuda-wheels),
# install (join the parts, pip install --no-deps --target /tmp/texcv-cvcuda: torch and numpy
# stay the machine's), peers (bench/peers.py --suite all with cupy, torch and cvcuda, or
# CVCUDA_LIBS; JSON in $OUT/peers_cvcuda.json).
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/out-device}
mkdir -p "$OUT"
WH=/tmp/texcv-cvcuda-wheels
LIB=/tmp/texcv-cvcuda
for stage in "$@"; do
  case "$stage" in
    stash)
      mkdir -p "$WH"
      for d in bench/wheels-cvcuda*/; do
        [ -d "$d" ] || continue
        cp -f "$d"* "$WH"/ && echo "stashed $d: $(ls "$d" | wc -l) files"
      done
      du -sh "$WH"
      ;;
    install)
      if ls "$WH"/*.whl.part-* >/dev/null 2>&1; then
        whl=$(ls "$WH"/*.whl.part-aa | sed 's/\.part-aa$//')
        cat "$WH"/*.whl.part-* >"$whl" && rm -f "$WH"/*.whl.part-*
      fi
      ls -la "$WH"
      rm -rf "$LIB"
      python3 -m pip install --quiet --no-index --no-deps --target "$LIB" "$WH"/*.whl 2>&1 |
        tail -5
      PYTHONPATH=$LIB python3 -c 'import cvcuda, torch
print("cvcuda", getattr(cvcuda, "__version__", "?"), "torch", torch.__version__)'
      ;;
    peers)
      PYTHONPATH=$LIB timeout "${CVCUDA_TIMEOUT:-400}" python3 bench/peers.py --suite all \
        --libs "${CVCUDA_LIBS:-cupy,torch,cvcuda}" --budget "${CVCUDA_BUDGET:-360}" \
        --out "$OUT/peers_cvcuda.json" >"$OUT/peers_cvcuda.txt" 2>&1
      echo "peers rc $?"
      grep -E "^(f32x1|u8x1|u8x4|u8x3) +cvcuda" "$OUT/peers_cvcuda.txt" | head -60
      ;;
    *) echo "cvcuda_device.sh: unknown stage '$stage' (stash install peers)" ;;
  esac
done
