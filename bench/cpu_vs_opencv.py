#!/usr/bin/env python3
"""texcv's CPU backend against OpenCV (cv2), same images, same thread count, same process.

Issue 17's table: the ops people use most, on a 4096x4096 random image (u8, RGB u8 or f32 as
the row says), each library given --threads threads (texcv: OMP_NUM_THREADS, set here before
texcv is imported; OpenCV: cv2.setNumThreads). Each row: one warm-up call of each, then
--reps calls of each in alternation, both into preallocated outputs (the *_into forms and
cv2's dst=); the median ms of each, and texcv / OpenCV (< 1: texcv faster). Every output pair
is compared (max |texcv - OpenCV|) so a row never times two different computations unnoticed.

--set issue (default) times issue 17's rows only; --set all adds the rest of the registry: every
operation of texcv.operations() that has an OpenCV peer computing the same thing (and the API's
remap and histogram), several types and parameters each. Notes under the table give the reason
of each difference that is OpenCV's definition rather than a mismatch of the row; the last lines
list the variants with no OpenCV peer and the registered operations the run did not time, with
the reason (computed from texcv.operations(), so the coverage is checkable).

--order blocks times all of one library's calls, then (after a 0.2 s pause) all of the other's,
instead of alternating: with as many threads as cores, each library's idle pool threads spin for
a while after a call (libgomp's and OpenCV's both) and take cores from the other's next call, so
alternation measures that contention as much as the operations (seen on the 16-core device
machine: rows at 1-8 ms moved between 0.1x and 2x from run to run at 16 threads, not at 8).
--order isolated times each library in a process of its own (this script run twice with
--only texcv and --only opencv, the other library given one thread there, used only for the
output compared), as a program using one of them runs: no second thread pool on the cores.
--out writes the table as JSON, with every repetition's time besides the medians (a bimodal
row shows there).

Usage: python3 bench/cpu_vs_opencv.py [--threads N] [--reps N] [--size N] [--filter S[,S]]
                                      [--set issue|all] [--order alternate|blocks|isolated]
                                      [--out F.json]
"""

import argparse
import collections
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


# A timed row. tx and cv: (src, dst) -> None, writing into a preallocated dst. shape, dtype: the
# output's (None: the source's). cmp: (texcv out, OpenCV out) -> max difference (None:
# max_abs_diff). note: why OpenCV's definition differs, printed under the table.
Row = collections.namedtuple("Row", "name src tx cv shape dtype cmp note",
                             defaults=(None, None, None, None))

# Variants of registered operations that no OpenCV call computes: no row times them.
NO_PEER = [
    ("cvt_color", "rgb2yuv_bt709[_limited], rgb2yuv_bt601_limited and their inverses",
     "OpenCV 4.6 has no BT.709 or limited-range Y'CbCr of 3-channel images; "
     "COLOR_RGB2YUV is analog YUV"),
    ("gamma", "u16", "cv2.LUT takes 8-bit sources only"),
    ("normalize", "mean_std",
     "no cv2 call; cv2.meanStdDev and arithmetic of our choosing would be the peer"),
    ("median_blur", "u16 and f32 above 5x5", "cv2.medianBlur takes only ksize 3 and 5 for them"),
    ("filters, morphology", "border=wrap", "OpenCV 4.6's filter engine refuses BORDER_WRAP"),
    ("resize", "align_corners", "cv2.resize has no such mode"),
]


def max_abs_diff(a, b):
    return float(abs(a.astype("f8") - b.astype("f8")).max())


def op_of(fn):
    """The registered operation a row's texcv call times: its .op, else the tx.<op>_into that
    the lambda calls."""
    op = getattr(fn, "op", None)
    if op is None:
        op = next((n[:-len("_into")] for n in fn.__code__.co_names if n.endswith("_into")), None)
    return op


def registry_rows(np, cv2, tx, n, u8, rgb, u16, f32):
    """--set all's rows: the registered operations (and the API's remap and histogram) that
    issue 17's rows leave out, and other types and parameters of those they time."""

    def txi(op, *args, **kw):  # texcv's op_into(dst, src, *args, device="cpu", **kw)
        fn = getattr(tx, op + "_into")

        def call(s, d):
            fn(d, s, *args, device="cpu", **kw)
        call.op = op
        return call

    def cvd(fn, *args, **kw):  # OpenCV's fn(src, *args, dst=dst, **kw)
        return lambda s, d: fn(s, *args, dst=d, **kw)

    def copied(fn, op=None):  # a call without a dst form (histograms): its result copied
        def call(s, d):
            d[...] = fn(s).reshape(d.shape)
        call.op = op
        return call

    def hue_diff(period):  # HSV: hue compared around its circle (0 and period - 1 are 1 apart)
        def cmp(a, b):
            d = np.abs(a.astype(np.float64) - b.astype(np.float64))
            d[..., 0] = np.minimum(d[..., 0], period - d[..., 0])
            return float(d.max())
        return cmp

    def cv_unsharp(sigma, amount):  # threshold 0: GaussianBlur into the source type, then
        buf = []                    # src (1 + amount) - blur amount, texcv's definition

        def call(s, d):
            if not buf:
                buf.append(np.empty_like(s))
            cv2.GaussianBlur(s, (0, 0), sigma, dst=buf[0], borderType=cv2.BORDER_REFLECT_101)
            cv2.addWeighted(s, 1.0 + amount, buf[0], -amount, 0.0, dst=d)
        return call

    def element(k, shape=cv2.MORPH_RECT):
        return cv2.getStructuringElement(shape, (k, k))

    r101 = {"borderType": cv2.BORDER_REFLECT_101}
    f4 = np.float32
    rng = np.random.default_rng(18)
    rgb_f = rng.random((n, n, 3), dtype=np.float32)
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    k5 = np.array([1, 4, 6, 4, 1], f4) / 16
    k3 = np.array([1, 2, 1], f4) / 4
    kd = np.array([-1, 0, 1], f4)
    k_sharp = np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], f4)
    q = n / 16  # a perspective: the corners moved inwards by up to n / 16
    m_persp = cv2.getPerspectiveTransform(
        np.array([[0, 0], [n - 1, 0], [n - 1, n - 1], [0, n - 1]], f4),
        np.array([[q, q / 2], [n - 1 - q / 3, 0], [n - 1, n - 1 - q], [q / 2, n - 1]], f4))
    m_rot = tx.rotation_matrix(n, n, n, n, 30.0)
    # remap maps: a smooth distortion, rounded to OpenCV's 1/32-pixel grid (cv2.remap quantizes
    # positions to 1/32 px; on the grid both sample the same positions)
    yy, xx = np.indices((n, n), dtype=f4)
    map_x = np.round((xx + 6 * np.sin(yy / 37)) * 32) / 32
    map_y = np.round((yy + 6 * np.cos(xx / 53)) * 32) / 32
    del yy, xx
    lut = np.round(255 * (np.arange(256) / 255.0) ** 2.2).astype(np.uint8)  # half to even
    c0, cn = n // 8, n - n // 4  # crop: the centre, 3/4 of each side
    # checked at 512 px: texcv.remap at OpenCV's quantized positions is within 1 level of both
    warp_note = ("OpenCV quantizes source positions (warpAffine: 1/1024-px matrix, then floor to "
                 "1/32 px; warpPerspective: rounded to 1/32 px; docs/conventions.md): up to ~8 "
                 "u8 levels where neighbours differ by up to 255, as in random data")

    rows = [
        Row("box 5x5 u8", u8, txi("box_filter", 5), cvd(cv2.blur, (5, 5), **r101)),
        Row("box 5x5 f32", f32, txi("box_filter", 5), cvd(cv2.blur, (5, 5), **r101)),
        Row("separable 5x3 u8", u8, txi("separable_filter", k5, k3),
            cvd(cv2.sepFilter2D, -1, k5, k3, **r101)),
        Row("separable 5x3 derivative u8 -> f32", u8, txi("separable_filter", k5, kd),
            cvd(cv2.sepFilter2D, cv2.CV_32F, k5, kd, **r101), None, f4),
        Row("sobel dx 3x3 u8 -> f32", u8, txi("sobel", 1, 0, 3),
            cvd(cv2.Sobel, cv2.CV_32F, 1, 0, ksize=3, **r101), None, f4),
        Row("sobel dy 5x5 f32", f32, txi("sobel", 0, 1, 5),
            cvd(cv2.Sobel, cv2.CV_32F, 0, 1, ksize=5, **r101)),
        Row("scharr dx u8 -> f32", u8, txi("scharr", 1, 0),
            cvd(cv2.Scharr, cv2.CV_32F, 1, 0, **r101), None, f4),
        Row("laplacian 1 u8", u8, txi("laplacian", 1), cvd(cv2.Laplacian, -1, ksize=1, **r101)),
        Row("laplacian 3 u8 -> f32", u8, txi("laplacian", 3),
            cvd(cv2.Laplacian, cv2.CV_32F, ksize=3, **r101), None, f4),
        Row("sharpen u8 (filter2D)", u8, txi("sharpen", 1.0),
            cvd(cv2.filter2D, -1, k_sharp, **r101)),
        Row("unsharp sigma 1 u8 (GaussianBlur + addWeighted)", u8,
            txi("unsharp_mask", 1.0, 1.0), cv_unsharp(1.0, 1.0)),
        Row("unsharp sigma 1 f32 (GaussianBlur + addWeighted)", f32,
            txi("unsharp_mask", 1.0, 1.0), cv_unsharp(1.0, 1.0)),
        Row("bilateral d=9 u8", u8, txi("bilateral_filter", 9, 50.0, 5.0),
            cvd(cv2.bilateralFilter, 9, 50.0, 5.0, **r101)),
        Row("bilateral d=9 RGB u8", rgb, txi("bilateral_filter", 9, 50.0, 5.0),
            cvd(cv2.bilateralFilter, 9, 50.0, 5.0, **r101)),
        Row("median 7x7 u8", u8, txi("median_blur", 7), cvd(cv2.medianBlur, 7)),
        Row("median 15x15 u8", u8, txi("median_blur", 15), cvd(cv2.medianBlur, 15)),
        Row("dilate 3x3 u8", u8, txi("dilate", 3), cvd(cv2.dilate, element(3))),
        Row("dilate 3x3 RGB u8", rgb, txi("dilate", 3), cvd(cv2.dilate, element(3))),
        Row("erode 15x15 u8", u8, txi("erode", 15), cvd(cv2.erode, element(15))),
        Row("erode 7x7 ellipse u8", u8, txi("erode", 7, shape="ellipse"),
            cvd(cv2.erode, element(7, cv2.MORPH_ELLIPSE))),
    ]
    for op, code in (("open", cv2.MORPH_OPEN), ("close", cv2.MORPH_CLOSE),
                     ("gradient", cv2.MORPH_GRADIENT)):
        rows.append(Row(f"morphology {op} 5x5 u8", u8, txi("morphology", op, 5),
                        cvd(cv2.morphologyEx, code, element(5))))
    interps = {"nearest": cv2.INTER_NEAREST_EXACT, "linear": cv2.INTER_LINEAR,
               "cubic": cv2.INTER_CUBIC, "area": cv2.INTER_AREA}
    for interp, flag in interps.items():
        for f in (0.3, 1.7):
            for tname, img in (("u8", u8), ("u16", u16), ("f32", f32), ("RGB u8", rgb)):
                m = round(n * f)  # round(size * fx), as cv::resize
                rows.append(Row(f"resize {f} {interp} {tname}", img,
                                txi("resize", fx=f, fy=f, interp=interp),
                                cvd(cv2.resize, None, fx=f, fy=f, interpolation=flag),
                                (m, m) + img.shape[2:]))
    rows += [
        Row("warp_perspective linear u8", u8,
            txi("warp_perspective", m_persp, interp="linear", border="constant"),
            cvd(cv2.warpPerspective, m_persp, (n, n), flags=cv2.INTER_LINEAR),
            note=warp_note),
        Row("rotate 30 cubic RGB u8 (texcv.rotate)", rgb,
            txi("rotate", 30.0, interp="cubic", border="constant"),
            cvd(cv2.warpAffine, m_rot, (n, n), flags=cv2.INTER_CUBIC), note=warp_note),
        Row("remap linear u8 (f32 maps on the 1/32 grid)", u8,
            txi("remap", map_x, map_y, interp="linear", border="constant"),
            cvd(cv2.remap, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)),
        Row("remap linear f32 (f32 maps on the 1/32 grid)", f32,
            txi("remap", map_x, map_y, interp="linear", border="constant"),
            cvd(cv2.remap, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)),
        Row("flip vertical u8", u8, txi("flip", "vertical"), cvd(cv2.flip, 0)),
        Row("flip both RGB u8", rgb, txi("flip", "both"), cvd(cv2.flip, -1)),
        Row("crop 3/4 u8 (numpy slice copy)", u8, txi("crop", c0, c0),
            lambda s, d: np.copyto(d, s[c0:c0 + cn, c0:c0 + cn]), (cn, cn)),
        Row("crop 3/4 RGB u8 (numpy slice copy)", rgb, txi("crop", c0, c0),
            lambda s, d: np.copyto(d, s[c0:c0 + cn, c0:c0 + cn]), (cn, cn, 3)),
        Row("RGB to HSV u8", rgb, txi("cvt_color", "rgb2hsv"),
            cvd(cv2.cvtColor, cv2.COLOR_RGB2HSV), cmp=hue_diff(180),
            note="hue compared around its circle (179 and 0 are 1 apart)"),
        Row("RGB to HSV f32", rgb_f, txi("cvt_color", "rgb2hsv"),
            cvd(cv2.cvtColor, cv2.COLOR_RGB2HSV), cmp=hue_diff(360),
            note="hue in degrees, compared around its circle"),
        Row("HSV to RGB u8", hsv, txi("cvt_color", "hsv2rgb"),
            cvd(cv2.cvtColor, cv2.COLOR_HSV2RGB)),
        Row("gray to RGB u8", u8, txi("cvt_color", "gray2rgb"),
            cvd(cv2.cvtColor, cv2.COLOR_GRAY2RGB), (n, n, 3)),
        Row("RGB to BGR u8", rgb, txi("cvt_color", "rgb2bgr"),
            cvd(cv2.cvtColor, cv2.COLOR_RGB2BGR)),
        Row("RGB to YCbCr BT.601 u8 (COLOR_RGB2YCrCb)", rgb, txi("cvt_color", "rgb2yuv_bt601"),
            cvd(cv2.cvtColor, cv2.COLOR_RGB2YCrCb),
            cmp=lambda a, b: max_abs_diff(a, b[..., [0, 2, 1]]),
            note="OpenCV orders Cr before Cb (compared swapped) and rounds the chroma "
                 "coefficients to 3 decimals (docs/ops/color.md: within 1 level)"),
        Row("threshold binary u8", u8, txi("threshold", 127.5, 255.0, "binary"),
            cvd(cv2.threshold, 127.5, 255.0, cv2.THRESH_BINARY)),
        Row("threshold binary f32", f32, txi("threshold", 0.5, 1.0, "binary"),
            cvd(cv2.threshold, 0.5, 1.0, cv2.THRESH_BINARY)),
        Row("threshold otsu u8", u8, txi("threshold", 0.0, 255.0, "otsu"),
            cvd(cv2.threshold, 0.0, 255.0, cv2.THRESH_BINARY | cv2.THRESH_OTSU)),
        Row("equalize_hist u8", u8, txi("equalize_hist"), cvd(cv2.equalizeHist)),
        Row("clahe clip 2 8x8 u8", u8, txi("clahe", 2.0, 8, 8),
            cvd(cv2.createCLAHE(2.0, (8, 8)).apply)),
        Row("clahe clip 2 8x8 u16", u16, txi("clahe", 2.0, 8, 8),
            cvd(cv2.createCLAHE(2.0, (8, 8)).apply)),
        Row("normalize minmax u8 [10, 200]", u8, txi("normalize", alpha=10.0, beta=200.0),
            cvd(cv2.normalize, alpha=10.0, beta=200.0, norm_type=cv2.NORM_MINMAX)),
        Row("normalize minmax f32 [-1, 1]", f32, txi("normalize", alpha=-1.0, beta=1.0),
            cvd(cv2.normalize, alpha=-1.0, beta=1.0, norm_type=cv2.NORM_MINMAX)),
        Row("convert u8 -> f32 x 1/255 (cv2.multiply)", u8, txi("convert", scale=1 / 255),
            cvd(cv2.multiply, 1.0, scale=1 / 255, dtype=cv2.CV_32F), None, f4,
            note="cv2 has no Python convertTo; multiply(src, 1, scale=) computes src * scale"),
        Row("convert f32 -> u8 x 255 (cv2.multiply)", f32, txi("convert", scale=255.0),
            cvd(cv2.multiply, 1.0, scale=255.0, dtype=cv2.CV_8U), None, np.uint8),
        Row("gamma 2.2 u8 (cv2.LUT)", u8, txi("gamma", 2.2), cvd(cv2.LUT, lut)),
        Row("gamma 2.2 RGB u8 (cv2.LUT)", rgb, txi("gamma", 2.2), cvd(cv2.LUT, lut)),
        Row("gamma 2.2 f32 (cv2.pow)", f32, txi("gamma", 2.2), cvd(cv2.pow, 2.2)),
        Row("histogram 256 bins u8 (cv2.calcHist)", u8,
            copied(lambda s: tx.histogram(s, 256, (0, 256), device="cpu"), "histogram"),
            copied(lambda s: cv2.calcHist([s], [0], None, [256], [0, 256])), (256,), np.float64),
        Row("histogram 100 bins f32 (cv2.calcHist)", f32,
            copied(lambda s: tx.histogram(s, 100, (0, 1), device="cpu"), "histogram"),
            copied(lambda s: cv2.calcHist([s], [0], None, [100], [0, 1])), (100,), np.float64),
    ]
    return rows


def untimed_ops(tx, rows, row_set, timed, failed, filtered):
    """Prints the variants without an OpenCV peer, the registered operations (texcv.operations())
    this run did not time and why, and what it timed outside the registry; returns {op: why}."""
    registered = [o["name"] for o in tx.operations()]
    with_rows = {op_of(r.tx) for r in rows}
    no_peer = {}
    for op, variant, why in NO_PEER:
        no_peer.setdefault(op, []).append(f"{variant}: {why}")
    not_timed = {}
    for op in registered:
        if op in timed:
            continue
        if op in failed:
            not_timed[op] = "its rows failed (see the table)"
        elif op in with_rows and filtered:
            not_timed[op] = "left out by --filter"
        elif row_set != "all":
            not_timed[op] = "rows only in --set all"
        elif op in no_peer:
            not_timed[op] = "no OpenCV peer (" + "; ".join(no_peer[op]) + ")"
        else:
            not_timed[op] = "no row written"
    print("\nno OpenCV peer (not timed):")
    print("\n".join(f"- {op} {variant}: {why}" for op, variant, why in NO_PEER))
    if not_timed:
        print(f"registered operations not timed ({len(not_timed)} of {len(registered)}): " +
              ", ".join(f"{op} ({why})" for op, why in not_timed.items()))
    else:
        print(f"registered operations not timed: none (all {len(registered)} timed)")
    extra = sorted(op for op in timed if op not in registered)
    if extra:
        print("also timed, outside the registry: " + ", ".join(extra))
    return not_timed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--filter", default="")
    ap.add_argument("--order", choices=("alternate", "blocks", "isolated"), default="alternate")
    ap.add_argument("--only", choices=("texcv", "opencv"), help=argparse.SUPPRESS)
    ap.add_argument("--out", default="")
    ap.add_argument("--set", choices=("issue", "all"), default="issue",
                    help="issue: issue 17's rows (default); all: those and the rest of the "
                         "registry")
    a = ap.parse_args()
    if a.order == "isolated" and not a.only:
        return isolated(a)
    # before texcv's OpenMP starts (one thread when only OpenCV is timed: no second pool)
    os.environ["OMP_NUM_THREADS"] = "1" if a.only == "opencv" else str(a.threads)
    import numpy as np
    import cv2
    import texcv as tx

    cv2.setNumThreads(1 if a.only == "texcv" else a.threads)
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

    # issue 17's rows: name, input, texcv call(dst), OpenCV call(dst), output shape (None: the
    # input's); the covered registered operation is the tx.<op>_into each texcv call makes
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
    rows = [Row(*r) for r in rows]
    if a.set == "all":
        rows += registry_rows(np, cv2, tx, n, u8, rgb, u16, f32)
    want = [w.strip() for w in a.filter.split(",") if w.strip()]
    print(f"texcv {getattr(tx, '__version__', '?')} CPU vs OpenCV {cv2.__version__}; "
          f"{cpu_model()}, {os.cpu_count()} logical CPUs; {a.threads} threads each; "
          f"{n}x{n}; median of {a.reps}; order {a.order}")
    print(f"texcv CPU SIMD: {tx._texcv.build_info().get('cpu_simd', 'unknown')}")
    print("| op | OpenCV ms | texcv ms | texcv / OpenCV | max abs diff |")
    print("| --- | ---: | ---: | ---: | ---: |")
    results = []
    timed, failed, notes = set(), set(), []
    for name, src, f_tx, f_cv, shape, dtype, cmp, note in rows:
        if want and not any(w in name for w in want):
            continue
        op = op_of(f_tx)
        try:
            d_tx = out_like(src, shape, dtype)
            d_cv = out_like(src, shape, dtype)
            f_tx(src, d_tx)
            f_cv(src, d_cv)
            t_tx, t_cv = [], []
            def once(f, d, times):
                t0 = time.perf_counter()
                f(src, d)
                times.append((time.perf_counter() - t0) * 1e3)

            if a.only == "texcv":
                for _ in range(a.reps):
                    once(f_tx, d_tx, t_tx)
                t_cv = [float("nan")]
            elif a.only == "opencv":
                for _ in range(a.reps):
                    once(f_cv, d_cv, t_cv)
                t_tx = [float("nan")]
            elif a.order == "alternate":
                for _ in range(a.reps):
                    once(f_cv, d_cv, t_cv)
                    once(f_tx, d_tx, t_tx)
            else:  # blocks: each library's pool alone on the cores (a warm-up call after the pause)
                time.sleep(0.2)
                f_cv(src, d_cv)
                for _ in range(a.reps):
                    once(f_cv, d_cv, t_cv)
                time.sleep(0.2)
                f_tx(src, d_tx)
                for _ in range(a.reps):
                    once(f_tx, d_tx, t_tx)
            diff = (cmp or max_abs_diff)(d_tx, d_cv)
            mt, mc = statistics.median(t_tx), statistics.median(t_cv)
            if not a.only:
                print(f"| {name} | {mc:.1f} | {mt:.1f} | {mt / mc:.2f} | {diff:.3g} |", flush=True)
            results.append({"op": name, "registry_op": op, "opencv_ms": mc, "texcv_ms": mt,
                            "ratio": mt / mc, "max_abs_diff": diff,
                            "opencv_times_ms": t_cv, "texcv_times_ms": t_tx})
            timed.add(op)
            if note:
                notes.append(f"- {name}: {note}")
        except Exception as e:  # a row that fails says why and the others still run
            print(f"| {name} | error | error | - | {type(e).__name__}: {e} |", flush=True)
            results.append({"op": name, "registry_op": op, "error": f"{type(e).__name__}: {e}"})
            failed.add(op)
        finally:
            d_tx = d_cv = None  # free the outputs before the next row's
    if notes:
        print("\nnotes (differences by OpenCV's definition, not the row's parameters):")
        print("\n".join(notes))
    not_timed = untimed_ops(tx, rows, a.set, timed, failed, bool(want))
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"cpu": cpu_model(), "threads": a.threads, "size": n, "reps": a.reps,
                       "order": a.order,
                       "opencv": cv2.__version__, "set": a.set, "rows": results,
                       "not_timed": not_timed,
                       "no_opencv_peer": [{"op": o, "variant": v, "why": w}
                                          for o, v, w in NO_PEER]}, f, indent=1)
    return 0


def isolated(a):
    """--order isolated: this script once per library (--only), then one table of both."""
    import subprocess
    import tempfile
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for lib in ("opencv", "texcv"):
            out = os.path.join(tmp, lib + ".json")
            cmd = [sys.executable, os.path.abspath(__file__), "--only", lib, "--order", "isolated",
                   "--threads", str(a.threads), "--reps", str(a.reps), "--size", str(a.size),
                   "--filter", a.filter, "--set", a.set, "--out", out]
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode != 0:
                print(r.stdout)
                return r.returncode
            with open(out) as f:
                runs[lib] = json.load(f)
            if lib == "texcv":
                tail = r.stdout  # the notes and coverage lines, printed after the table
    cv_rows = {row["op"]: row for row in runs["opencv"]["rows"]}
    t = runs["texcv"]
    print(f"texcv CPU vs OpenCV {t['opencv']}; {t['cpu']}; {a.threads} threads each; "
          f"{a.size}x{a.size}; median of {a.reps}; order isolated (one process per library)")
    print("| op | OpenCV ms | texcv ms | texcv / OpenCV | max abs diff |")
    print("| --- | ---: | ---: | ---: | ---: |")
    rows = []
    for row in t["rows"]:
        c = cv_rows.get(row["op"], {})
        if "error" in row or "error" in c:
            print(f"| {row['op']} | error | error | - | {row.get('error') or c.get('error')} |")
            rows.append(dict(row, error=row.get("error") or c.get("error")))
            continue
        mt, mc = row["texcv_ms"], c["opencv_ms"]
        print(f"| {row['op']} | {mc:.1f} | {mt:.1f} | {mt / mc:.2f} | {row['max_abs_diff']:.3g} |")
        rows.append(dict(row, opencv_ms=mc, ratio=mt / mc,
                         opencv_times_ms=c.get("opencv_times_ms")))
    print("\n".join(line for line in tail.splitlines() if not line.startswith("|")).strip())
    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(t, order="isolated", rows=rows), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
