#!/usr/bin/env python3
"""A Python call's fixed cost: tiny images (16x16 u8), device="cpu", best of 5 rounds of N calls
each (default 20,000), for the generated functions of texcv._ops. Run it with two installs of
texcv (two venvs) in the same sitting to compare two versions; docs/performance.md records it.

  python bench/python_call_cost.py [N]
"""

from __future__ import annotations

import sys
import time

import numpy as np

import texcv

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
a = (np.arange(256, dtype=np.uint8).reshape(16, 16) * 7) % 251
d = np.empty_like(a)
mx, my = np.meshgrid(np.arange(16, dtype=np.float32), np.arange(16, dtype=np.float32))
calls = {
    "flip(a)": lambda: texcv.flip(a, device="cpu"),
    "flip_into(d, a)": lambda: texcv.flip_into(d, a, device="cpu"),
    "gaussian_blur(a, 3)": lambda: texcv.gaussian_blur(a, 3, device="cpu"),
    "resize(a, scale=0.5)": lambda: texcv.resize(a, scale=0.5, device="cpu"),
    "threshold(a, 100, 255)": lambda: texcv.threshold(a, 100, 255, device="cpu"),
    "remap(a, mx, my)": lambda: texcv.remap(a, mx, my, device="cpu"),
}
print(f"texcv {texcv.__version__} from {texcv.__file__}")
for name, fn in calls.items():
    fn()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(N):
            fn()
        best = min(best, (time.perf_counter() - t) / N)
    print(f"{name:28s} {best * 1e6:7.2f} us")
