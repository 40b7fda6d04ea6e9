#!/usr/bin/env python3
"""The batch-benchmark tasks of issue 5 with libvips through pyvips (the libvips benchmark).

  --task tiff  as the libvips benchmark (vips-bench's vips.py): new_from_file(access="sequential"),
               crop(100, 100, w - 200, h - 200), reduce(1/0.9, 1/0.9, kernel="linear"),
               conv([[-1,-1,-1],[-1,16,-1],[-1,-1,-1]], scale=8, precision="integer"),
               write_to_file(.tif): uncompressed TIFF, vips's default
               (--tiff-deflate: compression="deflate", predictor="horizontal")
  --task jpeg  new_from_file(access="sequential"), resize(0.5, kernel="linear"), the same conv,
               jpegsave Q=90 with subsample_mode="on" (4:2:0 like libjpeg's defaults, which texcv
               and OpenCV use; vips would not subsample at Q >= 90 by default)

Note: vips's reduce with kernel="linear" is a triangle filter whose support is widened by the
shrink factor (an anti-aliased reduction), not the point-sampled bilinear interpolation of
cv2.resize / texcv resize, so its pixels differ a little (bench/batch/compare.py measures it).

pyvips finds libvips in the pyvips-binary wheel when installed, else the system libvips (on the
Debian development machine: libvips42 8.14, the library of the `vips` command). libvips runs
each image's pipeline on all cores by itself; the files are also spread over --jobs threads
(default os.cpu_count(); pyvips releases the GIL while libvips works).

Usage: python3 bench/batch/vips_task.py --task tiff|jpeg -i IN_DIR -o OUT_DIR [--jobs N]
                                        [--tiff-deflate]
Prints one line: files, seconds, images/s, the libvips version. Exit 1 if any file failed.
"""

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pyvips

EXTS = (".tif", ".tiff", ".jpg", ".jpeg", ".png")
MASK = [[-1, -1, -1], [-1, 16, -1], [-1, -1, -1]]


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--task", choices=("tiff", "jpeg"), required=True)
    ap.add_argument("-i", "--input", required=True)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--tiff-deflate", action="store_true")
    a = ap.parse_args()
    mask = pyvips.Image.new_from_array(MASK, scale=8)
    files = sorted(f for f in os.listdir(a.input) if f.lower().endswith(EXTS))
    os.makedirs(a.output, exist_ok=True)

    def one(name):
        src = os.path.join(a.input, name)
        stem = os.path.splitext(name)[0]
        try:
            im = pyvips.Image.new_from_file(src, access="sequential")
            if a.task == "tiff":
                im = im.crop(100, 100, im.width - 200, im.height - 200)
                im = im.reduce(1.0 / 0.9, 1.0 / 0.9, kernel="linear")
                im = im.conv(mask, precision="integer")
                dst = os.path.join(a.output, stem + ".tif")
                if a.tiff_deflate:
                    im.tiffsave(dst, compression="deflate", predictor="horizontal")
                else:
                    im.write_to_file(dst)
            else:
                im = im.resize(0.5, kernel="linear")
                im = im.conv(mask, precision="integer")
                im.jpegsave(os.path.join(a.output, stem + ".jpg"), Q=90, subsample_mode="on")
            return None
        except pyvips.Error as e:  # one bad file does not stop the run
            return f"{name}: {e}"

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        errors = [e for e in pool.map(one, files) if e]
    dt = time.perf_counter() - t0
    for e in errors:
        print(f"vips_task: FAILED {e}", file=sys.stderr)
    n = len(files) - len(errors)
    ver = ".".join(str(pyvips.version(i)) for i in range(3))
    print(
        f"vips_task: {n} ok, {len(errors)} failed, {dt:.2f} s, {n / dt:.1f} images/s; "
        f"libvips {ver}, {a.jobs} file thread(s), vips concurrency {pyvips.concurrency_get() if hasattr(pyvips, 'concurrency_get') else 'default'}"
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
