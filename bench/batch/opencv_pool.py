#!/usr/bin/env python3
"""The batch-benchmark tasks of issue 5 with OpenCV's Python binding in a thread pool.

  --task tiff  crop 100 px from every edge, cv2.resize to 90 % (INTER_LINEAR), cv2.filter2D with
               [[-1,-1,-1],[-1,16,-1],[-1,-1,-1]] / 8 (u8 output, BORDER_DEFAULT = reflect101),
               cv2.imwrite TIFF uncompressed (IMWRITE_TIFF_COMPRESSION 1, as vips writes by
               default; OpenCV's own default would be LZW; --tiff-deflate: deflate with the
               horizontal predictor, as texcv batch writes TIFF)
  --task jpeg  cv2.resize to half (INTER_LINEAR), the same filter2D, cv2.imwrite JPEG quality 90
               (OpenCV's default 4:2:0 subsampling)

Files are spread over a concurrent.futures.ThreadPoolExecutor with os.cpu_count() workers (the
binding releases the GIL inside imread/resize/filter2D/imwrite); OpenCV's own thread pool is
set to --cv-threads (default 1) so the pool does not oversubscribe the cores.

Usage: python3 bench/batch/opencv_pool.py --task tiff|jpeg -i IN_DIR -o OUT_DIR
                                          [--workers N] [--cv-threads N] [--tiff-deflate]
Prints one line: files, seconds, images/s. Exit 1 if any file failed.
"""

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np

KERNEL = np.array([[-1, -1, -1], [-1, 16, -1], [-1, -1, -1]], np.float32) / 8.0
EXTS = (".tif", ".tiff", ".jpg", ".jpeg", ".png")


def tiff_task(src, dst, params):
    img = cv2.imread(src, cv2.IMREAD_UNCHANGED)
    if img is None:
        raise OSError("imread failed")
    h, w = img.shape[:2]
    img = img[100 : h - 100, 100 : w - 100]
    img = cv2.resize(img, None, fx=0.9, fy=0.9, interpolation=cv2.INTER_LINEAR)
    img = cv2.filter2D(img, -1, KERNEL)
    if not cv2.imwrite(dst, img, params):
        raise OSError("imwrite failed")


def jpeg_task(src, dst, params):
    img = cv2.imread(src, cv2.IMREAD_COLOR)
    if img is None:
        raise OSError("imread failed")
    img = cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_LINEAR)
    img = cv2.filter2D(img, -1, KERNEL)
    if not cv2.imwrite(dst, img, params):
        raise OSError("imwrite failed")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--task", choices=("tiff", "jpeg"), required=True)
    ap.add_argument("-i", "--input", required=True)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--cv-threads", type=int, default=1)
    ap.add_argument("--tiff-deflate", action="store_true", help="write deflate-compressed TIFF")
    a = ap.parse_args()
    cv2.setNumThreads(a.cv_threads)
    files = sorted(f for f in os.listdir(a.input) if f.lower().endswith(EXTS))
    os.makedirs(a.output, exist_ok=True)
    if a.task == "tiff":
        fn = tiff_task
        params = [cv2.IMWRITE_TIFF_COMPRESSION, 8 if a.tiff_deflate else 1]
        if a.tiff_deflate and hasattr(cv2, "IMWRITE_TIFF_PREDICTOR"):
            params += [cv2.IMWRITE_TIFF_PREDICTOR, 2]  # horizontal, as texcv and vips-deflate
        ext = ".tif"
    else:
        fn = jpeg_task
        params = [cv2.IMWRITE_JPEG_QUALITY, 90]
        ext = ".jpg"

    def one(name):
        dst = os.path.join(a.output, os.path.splitext(name)[0] + ext)
        try:
            fn(os.path.join(a.input, name), dst, params)
            return None
        except (OSError, cv2.error) as e:  # one bad file does not stop the run
            return f"{name}: {e}"

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=a.workers) as pool:
        errors = [e for e in pool.map(one, files) if e]
    dt = time.perf_counter() - t0
    for e in errors:
        print(f"opencv_pool: FAILED {e}", file=sys.stderr)
    n = len(files) - len(errors)
    print(
        f"opencv_pool: {n} ok, {len(errors)} failed, {dt:.2f} s, {n / dt:.1f} images/s; "
        f"OpenCV {cv2.__version__}, {a.workers} pool threads, cv2.setNumThreads({a.cv_threads})"
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
