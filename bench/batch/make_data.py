#!/usr/bin/env python3
"""Generate the two batch-benchmark datasets of issue 5, deterministically, from real photos.

  tiff/img_NNN.tif   RGB u8 5000x5000, uncompressed striped TIFF (the libvips benchmark input)
  jpeg/img_NNNN.jpg  RGB 1920x1080, JPEG quality 90 (4:2:0, libjpeg-turbo through OpenCV)

Every image is built from the colour photographs in examples/images (coffee.png, chelsea.png,
rocket.jpg; --source picks another folder): tiles of a photo scaled up 2-4x with bilinear
interpolation, mirrored at random, with a per-tile gain, plus mild Gaussian "sensor" noise
(sigma 2), so the files have the texture and compressibility of photographs rather than of
noise or flat colour. Image i depends only on its index (numpy's PCG64 seeded with the index),
so the first 8 TIFFs / 200 JPEGs made here are the first ones of a 64 / 1,000 run elsewhere
(same numpy and OpenCV versions give the same bytes).

Needs numpy and OpenCV's Python binding (opencv-python-headless), nothing else.

Usage: python3 bench/batch/make_data.py [--out DIR] [--tiff N] [--jpeg N] [--force]
  --out DIR   where to write (default bench/batch/data)
  --tiff N    number of 5000x5000 TIFFs (default 8; the issue's device run uses 64)
  --jpeg N    number of 1920x1080 JPEGs (default 200; the device run uses 1000)
  --force     rewrite files that exist (default: keep them)
  --jobs N    worker processes (default: the number of cores)
"""

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PHOTOS = ("coffee.png", "chelsea.png", "rocket.jpg")


def load_photos(folder):
    photos = []
    for name in PHOTOS:
        path = os.path.join(folder, name)
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        if img is None:
            sys.exit(f"make_data: cannot read {path}")
        photos.append(img)
    return photos


def tile(photo, rng):
    """One tile: the photo scaled 2-4x (bilinear), maybe mirrored, with a gain of 0.85-1.15."""
    s = float(rng.uniform(2.0, 4.0))
    t = cv2.resize(photo, None, fx=s, fy=s, interpolation=cv2.INTER_LINEAR)
    flip = int(rng.integers(0, 4))
    if flip < 3:
        t = cv2.flip(t, flip - 1)  # -1 both axes, 0 vertical, 1 horizontal; 3: none
    gain = float(rng.uniform(0.85, 1.15))
    return cv2.convertScaleAbs(t, alpha=gain)


def compose(photos, rng, width, height):
    """Fill width x height with bands of tiles; each tile starts at a random offset in its photo."""
    out = np.empty((height, width, 3), np.uint8)
    y = 0
    while y < height:
        x = 0
        band = None
        while x < width:
            t = tile(photos[int(rng.integers(0, len(photos)))], rng)
            if band is None:
                band = min(t.shape[0] // 2 + int(rng.integers(0, t.shape[0] // 2)), height - y)
            th, tw = t.shape[:2]
            oy = int(rng.integers(0, th - band + 1)) if th > band else 0
            w = min(tw - tw // 4, width - x)
            ox = int(rng.integers(0, tw - w + 1))
            h = min(band, th - oy)
            out[y : y + h, x : x + w] = t[oy : oy + h, ox : ox + w]
            if h < band:  # a tile shorter than the band: repeat its last row
                out[y + h : y + band, x : x + w] = t[oy + h - 1 : oy + h, ox : ox + w]
            x += w
        y += band
    noise = rng.standard_normal(out.shape, dtype=np.float32) * 2.0
    return np.clip(out.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def write(path, img, params, force):
    if os.path.exists(path) and not force:
        return False
    tmp = os.path.join(
        os.path.dirname(path), "." + os.path.basename(path) + ".tmp" + os.path.splitext(path)[1]
    )
    if not cv2.imwrite(tmp, img, params):
        sys.exit(f"make_data: cannot write {tmp}")
    os.replace(tmp, path)
    return True


_photos = {}


def make_one(job):
    """One file (run in a worker process): ("tiff"|"jpeg", index, path, source, force)."""
    kind, i, path, source, force = job
    if source not in _photos:
        _photos[source] = load_photos(source)
    if kind == "tiff":
        img = compose(_photos[source], np.random.default_rng(1_000_000 + i), 5000, 5000)
        return write(path, img, [cv2.IMWRITE_TIFF_COMPRESSION, 1], force)  # 1: none
    img = compose(_photos[source], np.random.default_rng(2_000_000 + i), 1920, 1080)
    return write(path, img, [cv2.IMWRITE_JPEG_QUALITY, 90], force)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", default=os.path.join(HERE, "data"))
    ap.add_argument("--source", default=os.path.join(ROOT, "examples", "images"))
    ap.add_argument("--tiff", type=int, default=8)
    ap.add_argument("--jpeg", type=int, default=200)
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    a = ap.parse_args()
    load_photos(a.source)  # fail early on a missing photo
    t0 = time.perf_counter()
    jobs = []
    for i in range(a.tiff):
        jobs.append(("tiff", i, os.path.join(a.out, "tiff", f"img_{i:03d}.tif")))
    for i in range(a.jpeg):
        jobs.append(("jpeg", i, os.path.join(a.out, "jpeg", f"img_{i:04d}.jpg")))
    for kind in ("tiff", "jpeg"):
        if any(j[0] == kind for j in jobs):
            os.makedirs(os.path.join(a.out, kind), exist_ok=True)
    jobs = [j + (a.source, a.force) for j in jobs if a.force or not os.path.exists(j[2])]
    with ProcessPoolExecutor(max_workers=a.jobs) as pool:
        made = sum(pool.map(make_one, jobs, chunksize=1))
    print(
        f"make_data: {made} file(s) written under {a.out} ({a.tiff} TIFF, {a.jpeg} JPEG asked) "
        f"in {time.perf_counter() - t0:.1f} s; numpy {np.__version__}, OpenCV {cv2.__version__}"
    )


if __name__ == "__main__":
    main()
