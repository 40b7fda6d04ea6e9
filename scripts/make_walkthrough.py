"""Writes examples/walkthrough.ipynb (without outputs) from the cells below, so the notebook's
source stays reviewable here; run it after editing: python scripts/make_walkthrough.py."""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

cells = [
    new_markdown_cell("""# texcv walkthrough

Load a photograph, rotate, resize, sharpen, blur and equalize it with texcv, look at the results,
and time texcv against OpenCV (and CuPy where a GPU is present).

numpy arrays in give numpy arrays out: texcv computes on the GPU when it was built with CUDA and
a GPU is usable (`device="auto"`), else on its exact CPU backend. Set the environment variable
`TEXCV_DEVICE` to `cpu` or `cuda` to choose (the test suite runs this notebook with `cpu`)."""),
    new_code_cell("""import os, time
import numpy as np
import matplotlib.pyplot as plt
import texcv

DEVICE = os.environ.get("TEXCV_DEVICE", "auto")
info = texcv.info()
print("texcv", info["version"], "| CUDA compiled:", info["cuda_compiled"],
      "| GPUs:", [g["name"] for g in info["gpus"]] or "none", "| device:", DEVICE)"""),
    new_markdown_cell("## Load a photograph\n`texcv.imread` decodes PNG, JPEG and TIFF with "
                      "texcv's own codecs into an H x W x C numpy array (RGB order)."),
    new_code_cell("""img = texcv.imread("images/coffee.png")
print(img.shape, img.dtype)"""),
    new_markdown_cell("## Process it\nEvery operation takes the same keyword arguments as the "
                      "C++ API (`interp=`, `border=`, ...)."),
    new_code_cell("""rotated = texcv.rotate(img, 20, expand=True, border="reflect101", device=DEVICE)
small = texcv.resize(img, scale=0.5, interp="area", device=DEVICE)
sharp = texcv.sharpen(img, 1.0, device=DEVICE)
blurred = texcv.gaussian_blur(img, 0, 3.0, device=DEVICE)
gray = texcv.cvt_color(img, "rgb2gray", device=DEVICE)
equalized = texcv.equalize_hist(gray, device=DEVICE)

panels = [("original", img), ("rotate 20° (expand)", rotated), ("resize 0.5 (area)", small),
          ("sharpen", sharp), ("gaussian_blur σ=3", blurred), ("equalize_hist (gray)", equalized)]
fig, axes = plt.subplots(2, 3, figsize=(12, 6))
for ax, (title, im) in zip(axes.ravel(), panels):
    ax.imshow(im, cmap="gray" if im.ndim == 2 else None)
    ax.set_title(f"{title} {im.shape[1]}x{im.shape[0]}")
    ax.axis("off")
plt.tight_layout()
plt.show()"""),
    new_markdown_cell("## Before and after, side by side\nA detail at full resolution: "
                      "sharpening and equalization change what the eye sees most."),
    new_code_cell("""crop = (slice(120, 280), slice(200, 420))
fig, axes = plt.subplots(1, 4, figsize=(14, 3.2))
for ax, (title, im) in zip(axes, [("before", img[crop]), ("sharpen", sharp[crop]),
                                  ("gray", gray[crop]), ("equalized", equalized[crop])]):
    ax.imshow(im, cmap="gray" if im.ndim == 2 else None)
    ax.set_title(title)
    ax.axis("off")
plt.tight_layout()
plt.show()"""),
    new_markdown_cell("""## Timing: texcv against OpenCV (and CuPy)
The best of a few runs of each operation on a 2x enlarged photograph. On the CPU both libraries
run multi-threaded; on a GPU texcv includes no transfers when given CuPy arrays. Small on
purpose so that the test suite can run the notebook; see docs/performance.md for real
benchmarks."""),
    new_code_cell("""import cv2

big = texcv.resize(img, scale=2, device="cpu")
gray_big = texcv.cvt_color(big, "rgb2gray", device="cpu")

def best(fn, repeats=3):
    fn()  # warm up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter(); fn(); times.append(time.perf_counter() - t0)
    return min(times) * 1e3

h, w = big.shape[:2]
m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), 20, 1.0)
ops = {
    "resize 0.5": (lambda: texcv.resize(big, scale=0.5, device=DEVICE),
                   lambda: cv2.resize(big, (w // 2, h // 2), interpolation=cv2.INTER_LINEAR)),
    "rotate 20°": (lambda: texcv.rotate(big, 20, device=DEVICE),
                   lambda: cv2.warpAffine(big, m, (w, h))),
    "gaussian 7x7": (lambda: texcv.gaussian_blur(big, 7, device=DEVICE),
                     lambda: cv2.GaussianBlur(big, (7, 7), 0)),
    "sharpen": (lambda: texcv.sharpen(big, device=DEVICE),
                lambda: cv2.filter2D(big, -1, np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]],
                                                       np.float32))),
    "equalize": (lambda: texcv.equalize_hist(gray_big, device=DEVICE),
                 lambda: cv2.equalizeHist(gray_big)),
}
results = {name: {"texcv": best(t), "OpenCV": best(c)} for name, (t, c) in ops.items()}

try:
    import cupy
    have_cupy = texcv.cuda_available()
except ImportError:
    have_cupy = False
if have_cupy:
    d_big, d_gray = cupy.asarray(big), cupy.asarray(gray_big)
    sync = cupy.cuda.get_current_stream().synchronize
    gpu_ops = {"resize 0.5": lambda: texcv.resize(d_big, scale=0.5),
               "rotate 20°": lambda: texcv.rotate(d_big, 20),
               "gaussian 7x7": lambda: texcv.gaussian_blur(d_big, 7),
               "sharpen": lambda: texcv.sharpen(d_big),
               "equalize": lambda: texcv.equalize_hist(d_gray)}
    for name, fn in gpu_ops.items():
        results[name]["texcv (CuPy arrays)"] = best(lambda: (fn(), sync()))
for name, r in results.items():
    print(f"{name:14s}", "  ".join(f"{k} {v:7.2f} ms" for k, v in r.items()))"""),
    new_code_cell("""labels = list(results)
series = sorted({k for r in results.values() for k in r})
x = np.arange(len(labels))
width = 0.8 / len(series)
fig, ax = plt.subplots(figsize=(10, 3.5))
for i, s in enumerate(series):
    ax.bar(x + i * width, [results[l].get(s, 0) for l in labels], width, label=s)
ax.set_xticks(x + width * (len(series) - 1) / 2, labels)
ax.set_ylabel("ms (best of 3; lower is better)")
ax.set_title(f"{big.shape[1]}x{big.shape[0]} RGB u8, device={DEVICE}")
ax.legend()
plt.tight_layout()
plt.show()"""),
    new_markdown_cell("""## Where next
- `help(texcv.resize)`: every parameter, generated from the same registry as `texcv ops`.
- CuPy arrays and torch CUDA tensors work the same way, without copies, on your current stream.
- docs/python.md: arrays, streams, zero-copy rules, errors."""),
]

nb = new_notebook(cells=cells, metadata={
    "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
    "language_info": {"name": "python"},
})
out = Path(__file__).resolve().parents[1] / "examples" / "walkthrough.ipynb"
nbformat.write(nb, out)
print("wrote", out)
