#!/usr/bin/env python3
"""Compare the outputs of the batch-benchmark tools: same file names, sizes, pixel differences.

  compare.py --ref DIR --other NAME=DIR [--other NAME=DIR ...] [--files K]

For the first K files of --ref (sorted; default 3) each --other output with the same name is
read with OpenCV (IMREAD_UNCHANGED) and compared with the reference: size and channels must be
equal; the absolute difference per sample is summarized as max, mean, the share of samples that
differ by more than 1 and by more than 8, and the max away from a 2-pixel frame (where the tools'
border rules differ). Prints a Markdown table; exit 1 when a file is missing or a size differs.
"""

import argparse
import os
import sys

import cv2
import numpy as np


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--ref", required=True)
    ap.add_argument("--ref-name", default="opencv")
    ap.add_argument("--other", action="append", default=[])
    ap.add_argument("--files", type=int, default=3)
    a = ap.parse_args()
    names = sorted(f for f in os.listdir(a.ref) if not f.startswith("."))[: a.files]
    bad = 0
    print(
        f"| file | tool vs {a.ref_name} | size | max | mean | > 1 | > 8 | max inside 2-px frame |"
    )
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        ref = cv2.imread(os.path.join(a.ref, name), cv2.IMREAD_UNCHANGED)
        for spec in a.other:
            # TOOL=DIR; both may hold '=' (texcv-cuda@streams=4 and its folder): the folder is
            # an absolute path, so split at the first "=/"
            k = spec.find("=/")
            tool, d = (spec[:k], spec[k + 1 :]) if k >= 0 else spec.split("=", 1)
            path = os.path.join(d, name)
            img = cv2.imread(path, cv2.IMREAD_UNCHANGED) if os.path.exists(path) else None
            if img is None:
                print(f"| {name} | {tool} | missing | | | | | |")
                bad += 1
                continue
            size = "x".join(str(s) for s in img.shape)
            if img.shape != ref.shape:
                print(
                    f"| {name} | {tool} | {size} (ref {'x'.join(map(str, ref.shape))}) | | | | | |"
                )
                bad += 1
                continue
            d = np.abs(img.astype(np.int16) - ref.astype(np.int16))
            inner = d[2:-2, 2:-2]
            print(
                f"| {name} | {tool} | {size} | {int(d.max())} | {d.mean():.3f} | {100 * (d > 1).mean():.2f} % | "
                f"{100 * (d > 8).mean():.3f} % | {int(inner.max())} |"
            )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
