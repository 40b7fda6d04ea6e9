#!/usr/bin/env python3
"""texcv's CPU backend against OpenCV (cv2), same images, same thread count, same process.

Issue 17's table: the ops people use most, on a 4096x4096 random image (u8, RGB u8 or f32 as
the row says), each library given --threads threads (texcv: OMP_NUM_THREADS, set here before
texcv is imported; OpenCV: cv2.setNumThreads). Each row: one warm-up call of each, then
--reps calls of each in alternation, both into preallocated outputs (the *_into forms and
cv2's dst=); the median ms of each, and texcv / OpenCV (< 1: texcv faster). Every output pair
is compared (max |texcv - OpenCV|) so a row never times two different computations unnoticed.

Usage: python3 bench/cpu_vs_opencv.py [--threads N] [--reps N] [--size N] [--filter S[,S]]
                                      [--out F.json]
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--filter", default="")
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    os.environ["OMP_NUM_THREADS"] = str(a.threads)  # before texcv's OpenMP starts
    import numpy as np
    import cv2
    import texcv as tx

    cv2.setNumThreads(a.threads)
    rng = np.random.default_rng(17)
    n = a.size
    u8 = rng.integers(0, 256, (n, n), dtype=np.uint8)
    rgb = rng.integers(0, 256, (n, n, 3), dtype=np.uint8)
    u16 = rng.integers(0, 65536, (n, n), dtype=np.uint16)
    f32 = rng.random((n, n), dtype=np.float32)
    k3 = np.array([[1, 2, 1], [0, 1, 0], [-1, 2, -1]], np.float32) / 5.0
    h = n // 2
    m_rot = cv2.getRotationMatrix2D(((n - 1) / 2.0, (n - 1) / 2.0), 30.0, 1.0)

    def out_like(x, shape=None, dtype=None):
        return np.empty(shape or x.shape, dtype or x.dtype)

    # name, input, texcv call(dst), OpenCV call(dst), output shape (None: the input's)
    rows = [
        ("3x3 convolution u8", u8, lambda s, d: tx.convolve_into(d, s, k3, device="cpu"),
         lambda s, d: cv2.filter2D(s, -1, k3, dst=d, borderType=cv2.BORDER_REFLECT_101), None),
        ("3x3 convolution RGB u8", rgb, lambda s, d: tx.convolve_into(d, s, k3, device="cpu"),
         lambda s, d: cv2.filter2D(s, -1, k3, dst=d, borderType=cv2.BORDER_REFLECT_101), None),
        ("3x3 convolution f32", f32, lambda s, d: tx.convolve_into(d, s, k3, device="cpu"),
         lambda s, d: cv2.filter2D(s, -1, k3, dst=d, borderType=cv2.BORDER_REFLECT_101), None),
        ("Gaussian sigma 2 u8", u8,
         lambda s, d: tx.gaussian_blur_into(d, s, 0, 2.0, device="cpu"),
         lambda s, d: cv2.GaussianBlur(s, (0, 0), 2.0, dst=d), None),
        ("median 3x3 u8", u8, lambda s, d: tx.median_blur_into(d, s, 3, device="cpu"),
         lambda s, d: cv2.medianBlur(s, 3, dst=d), None),
        ("median 5x5 u8", u8, lambda s, d: tx.median_blur_into(d, s, 5, device="cpu"),
         lambda s, d: cv2.medianBlur(s, 5, dst=d), None),
        ("median 5x5 RGB u8", rgb, lambda s, d: tx.median_blur_into(d, s, 5, device="cpu"),
         lambda s, d: cv2.medianBlur(s, 5, dst=d), None),
        ("median 5x5 u16", u16, lambda s, d: tx.median_blur_into(d, s, 5, device="cpu"),
         lambda s, d: cv2.medianBlur(s, 5, dst=d), None),
        ("median 3x3 f32", f32, lambda s, d: tx.median_blur_into(d, s, 3, device="cpu"),
         lambda s, d: cv2.medianBlur(s, 3, dst=d), None),
        ("median 5x5 f32", f32, lambda s, d: tx.median_blur_into(d, s, 5, device="cpu"),
         lambda s, d: cv2.medianBlur(s, 5, dst=d), None),
        ("resize 0.5 linear u8", u8,
         lambda s, d: tx.resize_into(d, s, interp="linear", device="cpu"),
         lambda s, d: cv2.resize(s, (h, h), dst=d, interpolation=cv2.INTER_LINEAR), (h, h)),
        ("resize 0.5 area RGB u8", rgb,
         lambda s, d: tx.resize_into(d, s, interp="area", device="cpu"),
         lambda s, d: cv2.resize(s, (h, h), dst=d, interpolation=cv2.INTER_AREA), (h, h, 3)),
        ("rotate 30 linear u8", u8,
         lambda s, d: tx.warp_affine_into(d, s, m_rot, interp="linear", border="constant",
                                          device="cpu"),
         lambda s, d: cv2.warpAffine(s, m_rot, (n, n), dst=d, flags=cv2.INTER_LINEAR), None),
        ("rotate 30 linear f32", f32,
         lambda s, d: tx.warp_affine_into(d, s, m_rot, interp="linear", border="constant",
                                          device="cpu"),
         lambda s, d: cv2.warpAffine(s, m_rot, (n, n), dst=d, flags=cv2.INTER_LINEAR), None),
        ("RGB to gray", rgb, lambda s, d: tx.cvt_color_into(d, s, "rgb2gray", device="cpu"),
         lambda s, d: cv2.cvtColor(s, cv2.COLOR_RGB2GRAY, dst=d), (n, n)),
        ("erode 3x3 u8", u8, lambda s, d: tx.erode_into(d, s, 3, device="cpu"),
         lambda s, d: cv2.erode(s, np.ones((3, 3), np.uint8), dst=d), None),
    ]
    want = [w.strip() for w in a.filter.split(",") if w.strip()]
    print(f"texcv {getattr(tx, '__version__', '?')} CPU vs OpenCV {cv2.__version__}; "
          f"{cpu_model()}, {os.cpu_count()} logical CPUs; {a.threads} threads each; "
          f"{n}x{n}; median of {a.reps}")
    print(f"texcv CPU SIMD: {tx._texcv.build_info().get('cpu_simd', 'unknown')}")
    print("| op | OpenCV ms | texcv ms | texcv / OpenCV | max abs diff |")
    print("| --- | ---: | ---: | ---: | ---: |")
    results = []
    for name, src, f_tx, f_cv, shape in rows:
        if want and not any(w in name for w in want):
            continue
        d_tx = out_like(src, shape)
        d_cv = out_like(src, shape)
        try:
            f_tx(src, d_tx)
            f_cv(src, d_cv)
            t_tx, t_cv = [], []
            for _ in range(a.reps):
                t0 = time.perf_counter()
                f_cv(src, d_cv)
                t_cv.append((time.perf_counter() - t0) * 1e3)
                t0 = time.perf_counter()
                f_tx(src, d_tx)
                t_tx.append((time.perf_counter() - t0) * 1e3)
            diff = float(np.max(np.abs(d_tx.astype(np.float64) - d_cv.astype(np.float64))))
            mt, mc = statistics.median(t_tx), statistics.median(t_cv)
            print(f"| {name} | {mc:.1f} | {mt:.1f} | {mt / mc:.2f} | {diff:.3g} |", flush=True)
            results.append({"op": name, "opencv_ms": mc, "texcv_ms": mt, "ratio": mt / mc,
                            "max_abs_diff": diff})
        except Exception as e:  # a row that fails says why and the others still run
            print(f"| {name} | error | error | - | {type(e).__name__}: {e} |", flush=True)
            results.append({"op": name, "error": f"{type(e).__name__}: {e}"})
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"cpu": cpu_model(), "threads": a.threads, "size": n, "reps": a.reps,
                       "opencv": cv2.__version__, "rows": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
