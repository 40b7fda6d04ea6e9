#!/usr/bin/env python3
"""The ops of bench_geometry and bench_filters with the Python GPU libraries users would pick.

CuPy (cupyx.scipy.ndimage), PyTorch (torch.nn.functional, torchvision.transforms.v2) and CV-CUDA
(NVIDIA's cvcuda-cu13: NHWC tensors, the *_into calls; CVCUDA_NOTES lists how its calls differ), on
the same configurations as bench/bench_geometry.cpp (8192x8192 f32, 16384x16384 u8, 4096x4096
RGBA u8), timed with CUDA events (cupy.cuda.Event / torch.cuda.Event): warm-up, then the median
of --reps calls, rotating over several input/output buffers so the 60 MB L2 does not flatter.
Bytes counted as in the C++ benchmark: input read once + output written once (+ maps or grids
that are read). Every peer runs in its own try/except: a missing package or an unsupported
dtype gives a row "n/a" with the reason, never a crash.

--suite geometry|filters|all (default all) picks the ops: geometry = bench_geometry's (rotate,
warps, resize, remap, flip, crop on f32x1, u8x1, u8x4); filters = bench_filters' (convolve,
gaussian_blur, box_filter, sobel, sharpen, unsharp_mask, median_blur, erode, dilate, cvt_color,
gamma, threshold, convert, normalize, equalize_hist on 8192x8192 f32x1, u8x1, u8x4, u8x3) with
cupyx.scipy.ndimage (correlate, gaussian_filter, uniform_filter, median_filter, sobel,
grey_erosion, grey_dilation, elementwise expressions) and torch (conv2d, avg_pool2d,
max_pool2d, pow, where, mul, weighted sums; torchvision gaussian_blur and equalize). Every row
has a "suite" field; the copy floor (and so %copy) is per suite and configuration.

Usage: python3 bench/peers.py [--quick] [--suite S] [--filter S[,S]] [--config NAME[,NAME]]
                              [--out F.json] [--reps N] [--budget SECONDS]
"""

import argparse
import json
import math
import platform
import sys
import time
import traceback

NOTES = [
    "Semantics differ from texcv (timings compare work of the same size, not identical results):",
    "cupyx.scipy.ndimage: integer coordinates are pixel centres as in texcv, but order=3 is a "
    "cubic B-spline with a prefilter pass (texcv/OpenCV: Keys cubic a=-0.75); zoom runs with "
    "grid_mode=True (pixel-area alignment, as cv::resize); rotate turns about the array centre "
    "with scipy's angle sign; there is no perspective warp and no area resize (the area row is "
    "a reshape-mean for the exact factor 0.5).",
    "torch grid_sample / interpolate: align_corners=False is the pixel-centre convention of "
    "texcv and cv::resize; grid_sample reads a ready (1,H,W,2) float grid, counted in the bytes; "
    "grid_sample needs float input (u8 rows say n/a; interpolate on u8 reports what torch "
    "says); interpolate has no "
    "antialias; mode 'area' is adaptive average pooling; tensors are NCHW (planar) while texcv "
    "is interleaved HWC.",
    "torchvision.transforms.v2.functional.rotate/affine/perspective build their grid on every "
    "call (the cost a user pays), work on uint8 too, and rotate about the image centre.",
]

CONFIGS_FULL = [
    ("f32x1", 8192, 8192, 1, "f32"),
    ("u8x1", 16384, 16384, 1, "u8"),
    ("u8x4", 4096, 4096, 4, "u8"),
]
CONFIGS_QUICK = [
    ("f32x1", 2048, 2048, 1, "f32"),
    ("u8x1", 4096, 4096, 1, "u8"),
    ("u8x4", 1024, 1024, 4, "u8"),
]
ESIZE = {"u8": 1, "u16": 2, "f32": 4}
TOUCH_BYTES = 256 * 1024 * 1024  # >= 4x the H200's 60 MB L2 between two uses of one buffer


def inverse3(m):
    """The inverse of a 3x3 matrix (lists of floats)."""
    a, b, c = m[0]
    d, e, f = m[1]
    g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def nbuffers(nbytes):
    return max(2, min(8, math.ceil(TOUCH_BYTES / max(nbytes, 1))))


class Budget:
    def __init__(self, seconds):
        self.seconds = seconds
        self.start = time.monotonic()

    def spent(self):
        return self.seconds > 0 and time.monotonic() - self.start > self.seconds


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def not_available(msg):
    def f(i):
        raise NotImplementedError(msg)
    return f


def time_events(make_event, sync, fn, warmup, reps):
    """fn(i) enqueues one call using buffer set i. Returns per-call ms (CUDA events)."""
    for i in range(warmup):
        fn(i)
    sync()
    evs = [(make_event(), make_event()) for _ in range(reps)]
    for r, (a, b) in enumerate(evs):
        a.record()
        fn(warmup + r)
        b.record()
    sync()
    return evs


class Bench:
    def __init__(self, args):
        self.args = args
        self.rows = []
        self.budget = Budget(args.budget)
        self.copy_gbps = {}  # (suite, config) -> GB/s of the floor copy
        self.suite = "geometry"  # the suite of the rows being added

    def wanted(self, op, params):
        if not self.args.filter:
            return True
        key = f"{op} {params}"
        return any(f in key for f in self.args.filter)

    def add(self, row):
        row.setdefault("suite", self.suite)
        self.rows.append(row)
        st = row["status"]
        if st == "ok":
            print(f"{row['config']:<6} {row['lib']:<12} {row['op']:<16} {row['params']:<22} "
                  f"{row['median_ms']:9.4f} ms {row['gbps']:8.1f} GB/s "
                  f"{row['pct_copy']:5.1f}%  {row['note'][:60]}", flush=True)
        else:
            print(f"{row['config']:<6} {row['lib']:<12} {row['op']:<16} {row['params']:<22} "
                  f"{st}: {row['note'][:90]}", flush=True)
        self.write()

    def write(self):
        if not self.args.out:
            return
        doc = {"meta": self.meta, "rows": self.rows}
        with open(self.args.out, "w") as f:
            json.dump(doc, f, indent=1)

    def run_row(self, cfg, lib, op, params, nbytes, fn, make_event, sync, note=""):
        name, w, h, c, t = cfg
        row = {"config": name, "lib": lib, "op": op, "params": params, "type": t,
               "channels": c, "width": w, "height": h, "status": "skipped", "note": note,
               "median_ms": None, "min_ms": None, "gbps": None, "pct_copy": None,
               "bytes": nbytes, "reps": 0}
        if not self.wanted(op, params) and op != "copy":
            return None
        if self.budget.spent():
            row["note"] = f"time budget of {self.args.budget} s spent"
            self.add(row)
            return row
        try:
            evs = time_events(make_event, sync, fn, self.args.warmup, self.args.reps)
            ms = [a_b[0].elapsed(a_b[1]) for a_b in evs]
            med = median(ms)
            row.update(status="ok", median_ms=med, min_ms=min(ms), reps=len(ms))
            row["gbps"] = nbytes / (med * 1e-3) / 1e9 if med > 0 else 0.0
            cg = self.copy_gbps.get((self.suite, name))
            row["pct_copy"] = 100.0 * row["gbps"] / cg if cg else 0.0
        except Exception as e:  # noqa: BLE001 - every failure becomes the row's note
            msg = f"{type(e).__name__}: {e}".replace("\n", " ")
            row["status"] = "n/a" if isinstance(e, (NotImplementedError, TypeError, ValueError,
                                                    RuntimeError)) else "error"
            row["note"] = (note + "; " if note else "") + msg[:200]
        self.add(row)
        return row


# --------------------------------------------------------------------------------------------
# CuPy


def run_cupy(bench, cfg):
    try:
        import cupy as cp
        import cupyx.scipy.ndimage as ndi
    except Exception as e:  # noqa: BLE001
        bench.add({"config": cfg[0], "lib": "cupy", "op": "all", "params": "", "type": cfg[4],
                   "channels": cfg[3], "width": cfg[1], "height": cfg[2], "status": "n/a",
                   "note": f"cupy not importable: {e}", "median_ms": None, "gbps": None,
                   "pct_copy": None, "bytes": 0, "reps": 0})
        return
    name, w, h, c, t = cfg
    dtype = {"u8": cp.uint8, "u16": cp.uint16, "f32": cp.float32}[t]
    shape = (h, w) if c == 1 else (h, w, c)
    nbytes = w * h * c * ESIZE[t]
    nin = nbuffers(nbytes)

    def make_input(seed):
        rs = cp.random.RandomState(seed)
        x = cp.arange(w, dtype=cp.float32)
        y = cp.arange(h, dtype=cp.float32)[:, None]
        v = 0.5 + 0.2 * cp.sin(x / 37.0 + seed) + 0.2 * cp.sin(y / 53.0) \
            + 0.1 * (rs.random_sample((h, w), dtype=cp.float32) - 0.5)
        v = cp.clip(v, 0, 1)
        if c > 1:
            v = cp.repeat(v[:, :, None], c, axis=2)
        if t == "u8":
            return cp.rint(v * 255).astype(cp.uint8)
        if t == "u16":
            return cp.rint(v * 65535).astype(cp.uint16)
        return v.astype(cp.float32)

    ins = [make_input(i) for i in range(nin)]
    cp.cuda.Device().synchronize()  # inputs were made on the default stream
    stream = cp.cuda.Stream(non_blocking=True)
    make_event = cp.cuda.Event

    class Ev:  # records on our stream
        def __init__(self):
            self.e = make_event()

        def record(self):
            self.e.record(stream)

        def elapsed(self, other):
            return cp.cuda.get_elapsed_time(self.e, other.e)

    def sync():
        stream.synchronize()

    def outputs(oshape, n=None):
        ob = int(math.prod(oshape)) * ESIZE[t]
        return [cp.empty(oshape, dtype=dtype) for _ in range(n or nbuffers(ob))], ob

    with stream:
        outs, ob = outputs(shape)
        # The floor: a plain device-to-device cudaMemcpyAsync of the image.
        r = bench.run_row(cfg, "cupy", "copy", "floor d2d", 2 * nbytes,
                          lambda i: cp.cuda.runtime.memcpyAsync(
                              outs[i % len(outs)].data.ptr, ins[i % nin].data.ptr, nbytes,
                              cp.cuda.runtime.memcpyDeviceToDevice, stream.ptr),
                          Ev, sync, "cudaMemcpyAsync (cupy.cuda.runtime)")
        if r and r["status"] == "ok" and (bench.suite, name) not in bench.copy_gbps:
            bench.copy_gbps[(bench.suite, name)] = r["gbps"]
            r["pct_copy"] = 100.0

        # rotate 30 degrees, same size
        for order, interp in ((1, "linear"), (0, "nearest"), (3, "cubic")):
            bench.run_row(cfg, "cupy", "rotate", f"30deg {interp}", nbytes + ob,
                          lambda i, o=order: ndi.rotate(ins[i % nin], 30, axes=(1, 0),
                                                        reshape=False, order=o, mode="constant",
                                                        output=outs[i % len(outs)]),
                          Ev, sync, f"ndimage.rotate order={order}")

        # the general affine of the C++ benchmark (dst->src, in row/col order)
        m = [0.95, 0.15, -0.05 * w, -0.10, 0.90, 0.10 * h]  # src->dst, x/y
        det = m[0] * m[4] - m[1] * m[3]
        a, b, d, e = m[4] / det, -m[1] / det, -m[3] / det, m[0] / det
        tx, ty = -(a * m[2] + b * m[5]), -(d * m[2] + e * m[5])
        # src_x = a x + b y + tx ; src_y = d x + e y + ty ; ndimage: (row, col) = (y, x)
        mat = cp.eye(len(shape) + 1, dtype=cp.float64)
        mat[0, 0], mat[0, 1], mat[0, -1] = e, d, ty
        mat[1, 0], mat[1, 1], mat[1, -1] = b, a, tx
        bench.run_row(cfg, "cupy", "warp_affine", "general linear", nbytes + ob,
                      lambda i: ndi.affine_transform(ins[i % nin], mat, order=1,
                                                     mode="constant",
                                                     output=outs[i % len(outs)]),
                      Ev, sync, "ndimage.affine_transform order=1")
        if t == "f32" and c == 1:
            # CuPy's own texture path: the input is copied to a cudaArray on every call.
            mat32 = mat.astype(cp.float32)
            bench.run_row(cfg, "cupy-texture", "warp_affine", "general linear", nbytes + ob,
                          lambda i: ndi.affine_transform(ins[i % nin], mat32, order=1,
                                                         mode="constant", texture_memory=True),
                          Ev, sync, "affine_transform texture_memory=True (array copy per call)")

        # resize 0.5 and 2.0
        for scale, order, interp in ((0.5, 1, "linear"), (0.5, 0, "nearest"), (0.5, 3, "cubic"),
                                     (2.0, 1, "linear")):
            params = f"{scale:.1f} {interp}"
            if not bench.wanted("resize", params):
                continue
            oshape = (int(h * scale), int(w * scale)) + ((c,) if c > 1 else ())
            zo, zob = outputs(oshape)
            zoom = (scale, scale) + ((1,) if c > 1 else ())
            bench.run_row(cfg, "cupy", "resize", params, nbytes + zob,
                          lambda i, o=order, zo=zo, zoom=zoom: ndi.zoom(
                              ins[i % nin], zoom, order=o, mode="nearest", grid_mode=True,
                              output=zo[i % len(zo)]),
                          Ev, sync, f"ndimage.zoom order={order} grid_mode=True")
            del zo
        if bench.wanted("resize", "0.5 area"):
            oshape = (h // 2, w // 2) + ((c,) if c > 1 else ())
            zo, zob = outputs(oshape)

            def area(i):
                x = ins[i % nin]
                v = x.reshape(h // 2, 2, w // 2, 2, c).astype(cp.float32).mean(axis=(1, 3))
                if t != "f32":
                    v = cp.rint(v)
                cp.copyto(zo[i % len(zo)], v.reshape(oshape).astype(dtype))

            bench.run_row(cfg, "cupy", "resize", "0.5 area", nbytes + zob, area, Ev, sync,
                          "reshape-mean (several kernels)")
            del zo

        # remap with rotation maps: map_coordinates
        if bench.wanted("remap", "rot30 maps linear"):
            if c != 1:
                bench.run_row(cfg, "cupy", "remap", "rot30 maps linear", 0,
                              not_available("map_coordinates: multi-channel needs coordinates "
                                            "per channel"), Ev, sync)
            else:
                ang = math.radians(30)
                cx, cy = (w - 1) / 2, (h - 1) / 2
                ca, sa = math.cos(ang), math.sin(ang)
                xs = cp.arange(w, dtype=cp.float32)[None, :] - cx
                ys = cp.arange(h, dtype=cp.float32)[:, None] - cy
                coords = cp.empty((2, h, w), dtype=cp.float32)
                # dst -> src of texcv's rotate (cv::getRotationMatrix2D, 30 degrees CCW)
                coords[0] = sa * xs + ca * ys + cy  # row: src y
                coords[1] = ca * xs - sa * ys + cx  # col: src x
                bench.run_row(cfg, "cupy", "remap", "rot30 maps linear", nbytes + ob + 8 * w * h,
                              lambda i: ndi.map_coordinates(ins[i % nin], coords, order=1,
                                                            mode="constant",
                                                            output=outs[i % len(outs)]),
                              Ev, sync, "ndimage.map_coordinates order=1")
                del coords, xs, ys

        # flip and crop (materialized copies)
        bench.run_row(cfg, "cupy", "flip", "horizontal", 2 * nbytes,
                      lambda i: cp.copyto(outs[i % len(outs)], ins[i % nin][:, ::-1]),
                      Ev, sync, "copyto of a[:, ::-1]")
        bench.run_row(cfg, "cupy", "flip", "vertical", 2 * nbytes,
                      lambda i: cp.copyto(outs[i % len(outs)], ins[i % nin][::-1]),
                      Ev, sync, "copyto of a[::-1]")
        oshape = (h // 2, w // 2) + ((c,) if c > 1 else ())
        co, cob = outputs(oshape)
        bench.run_row(cfg, "cupy", "crop", "centre half", 2 * cob,
                      lambda i: cp.copyto(co[i % len(co)],
                                          ins[i % nin][h // 4:h // 4 + h // 2,
                                                       w // 4:w // 4 + w // 2]),
                      Ev, sync, "copyto of a slice")
        sync()
    del ins, outs, co
    cp.get_default_memory_pool().free_all_blocks()


# --------------------------------------------------------------------------------------------
# PyTorch and torchvision


def run_torch(bench, cfg):
    try:
        import torch
        import torch.nn.functional as F
    except Exception as e:  # noqa: BLE001
        bench.add({"config": cfg[0], "lib": "torch", "op": "all", "params": "", "type": cfg[4],
                   "channels": cfg[3], "width": cfg[1], "height": cfg[2], "status": "n/a",
                   "note": f"torch not importable: {e}", "median_ms": None, "gbps": None,
                   "pct_copy": None, "bytes": 0, "reps": 0})
        return
    try:
        import torchvision.transforms.v2.functional as TF
        from torchvision.transforms import InterpolationMode
    except Exception as e:  # noqa: BLE001
        TF = None
        tv_error = f"torchvision not importable: {e}"
    else:
        tv_error = ""
    name, w, h, c, t = cfg
    dev = torch.device("cuda")
    dtype = {"u8": torch.uint8, "u16": getattr(torch, "uint16", None), "f32": torch.float32}[t]
    nbytes = w * h * c * ESIZE[t]
    nin = nbuffers(nbytes)

    def make_input(seed):
        g = torch.Generator(device=dev)
        g.manual_seed(seed)
        x = torch.arange(w, device=dev, dtype=torch.float32)
        y = torch.arange(h, device=dev, dtype=torch.float32)[:, None]
        v = 0.5 + 0.2 * torch.sin(x / 37.0 + seed) + 0.2 * torch.sin(y / 53.0) \
            + 0.1 * (torch.rand((h, w), device=dev, generator=g) - 0.5)
        v = v.clamp(0, 1)[None, None].expand(1, c, h, w).contiguous()
        if t == "u8":
            return (v * 255).round().to(torch.uint8)
        if t == "u16":
            return (v * 65535).round().to(torch.int32).to(torch.uint16)
        return v

    ins = [make_input(i) for i in range(nin)]
    torch.cuda.synchronize()  # inputs were made on the default stream
    stream = torch.cuda.Stream()

    class Ev:
        def __init__(self):
            self.e = torch.cuda.Event(enable_timing=True)

        def record(self):
            self.e.record(stream)

        def elapsed(self, other):
            return self.e.elapsed_time(other.e)

    def sync():
        stream.synchronize()

    def outputs(oshape):
        ob = int(math.prod(oshape)) * ESIZE[t]
        return [torch.empty(oshape, dtype=dtype, device=dev) for _ in range(nbuffers(ob))], ob

    na = not_available

    # A grid for grid_sample from a dst->src pixel map (x, y) -> normalized, align_corners=False.
    def grid_from(fx, fy):
        ys, xs = torch.meshgrid(torch.arange(h, device=dev, dtype=torch.float64),
                                torch.arange(w, device=dev, dtype=torch.float64), indexing="ij")
        sx, sy = fx(xs, ys), fy(xs, ys)
        gx = (2 * sx + 1) / w - 1
        gy = (2 * sy + 1) / h - 1
        return torch.stack((gx, gy), dim=-1).to(torch.float32)[None].contiguous()

    with torch.cuda.stream(stream):
        outs, ob = outputs((1, c, h, w))
        r = bench.run_row(cfg, "torch", "copy", "tensor copy_", 2 * nbytes,
                          lambda i: outs[i % len(outs)].copy_(ins[i % nin]), Ev, sync,
                          "Tensor.copy_")
        if r and r["status"] == "ok" and (bench.suite, name) not in bench.copy_gbps:
            bench.copy_gbps[(bench.suite, name)] = r["gbps"]
        is_float = t == "f32"
        float_only = "grid_sample needs floating-point input"

        # rotate 30 via grid_sample with a ready grid (= remap), and torchvision rotate
        ang = math.radians(30)
        cx, cy = (w - 1) / 2, (h - 1) / 2
        ca, sa = math.cos(ang), math.sin(ang)
        grid = None
        if any(bench.wanted(o, p) for o, p in (("rotate", "30deg"), ("remap", "rot30"))):
            if is_float:
                try:
                    grid = grid_from(lambda x, y: ca * (x - cx) - sa * (y - cy) + cx,
                                     lambda x, y: sa * (x - cx) + ca * (y - cy) + cy)
                except Exception as e:  # noqa: BLE001
                    print(f"   (torch grid: {e})")
        gbytes = 8 * w * h
        for mode, interp in (("bilinear", "linear"), ("nearest", "nearest"),
                             ("bicubic", "cubic")):
            fn = (lambda i, m=mode: torch.nn.functional.grid_sample(
                ins[i % nin], grid, mode=m, padding_mode="zeros", align_corners=False))
            if not is_float:
                fn = na(float_only)
            elif grid is None:
                fn = na("grid not available")
            bench.run_row(cfg, "torch", "rotate", f"30deg {interp}", nbytes + ob + gbytes, fn,
                          Ev, sync, f"grid_sample {mode}, ready grid")
        if TF is not None:
            for im, interp in ((InterpolationMode.BILINEAR, "linear"),
                               (InterpolationMode.NEAREST, "nearest")):
                bench.run_row(cfg, "torchvision", "rotate", f"30deg {interp}", nbytes + ob,
                              lambda i, im=im: TF.rotate(ins[i % nin], 30.0, interpolation=im),
                              Ev, sync, "v2.functional.rotate")
            bench.run_row(cfg, "torchvision", "warp_affine", "general linear", nbytes + ob,
                          lambda i: TF.affine(ins[i % nin], angle=10.0, translate=[20, -10],
                                              scale=0.95, shear=[8.0, 0.0],
                                              interpolation=InterpolationMode.BILINEAR),
                          Ev, sync, "v2.functional.affine (similar, not the same matrix)")
            sp = [[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]
            ep = [[int(0.02 * w), 0], [w - 1, int(0.03 * h)], [int(0.95 * w), h - 1],
                  [0, int(0.97 * h)]]
            bench.run_row(cfg, "torchvision", "warp_perspective", "mild linear", nbytes + ob,
                          lambda i: TF.perspective(ins[i % nin], sp, ep,
                                                   interpolation=InterpolationMode.BILINEAR),
                          Ev, sync, "v2.functional.perspective")
        else:
            bench.run_row(cfg, "torchvision", "rotate", "30deg linear", 0, na(tv_error), Ev, sync)

        # the general affine and the mild perspective of the C++ benchmark, via ready grids
        if bench.wanted("warp_affine", "general linear") and is_float:
            m = [0.95, 0.15, -0.05 * w, -0.10, 0.90, 0.10 * h]
            det = m[0] * m[4] - m[1] * m[3]
            a, b, d, e = m[4] / det, -m[1] / det, -m[3] / det, m[0] / det
            tx, ty = -(a * m[2] + b * m[5]), -(d * m[2] + e * m[5])
            try:
                g2 = grid_from(lambda x, y: a * x + b * y + tx, lambda x, y: d * x + e * y + ty)
                bench.run_row(cfg, "torch", "warp_affine", "general linear",
                              nbytes + ob + gbytes,
                              lambda i: F.grid_sample(ins[i % nin], g2, mode="bilinear",
                                                      padding_mode="zeros",
                                                      align_corners=False),
                              Ev, sync, "grid_sample bilinear, ready grid")
                del g2
            except Exception as e:  # noqa: BLE001
                print(f"   (torch affine grid: {e})")
        if bench.wanted("warp_perspective", "mild linear") and is_float:
            try:
                mp = [[1.0, 0.05, 0.02 * w], [0.03, 0.98, 0.01 * h], [0.10 / w, 0.05 / h, 1.0]]
                iv = inverse3(mp)  # plain floats: numpy scalars do not mix with CUDA tensors

                def px(x, y):
                    return (iv[0][0] * x + iv[0][1] * y + iv[0][2]) / \
                        (iv[2][0] * x + iv[2][1] * y + iv[2][2])

                def py(x, y):
                    return (iv[1][0] * x + iv[1][1] * y + iv[1][2]) / \
                        (iv[2][0] * x + iv[2][1] * y + iv[2][2])

                g3 = grid_from(px, py)
                bench.run_row(cfg, "torch", "warp_perspective", "mild linear",
                              nbytes + ob + gbytes,
                              lambda i: F.grid_sample(ins[i % nin], g3, mode="bilinear",
                                                      padding_mode="zeros",
                                                      align_corners=False),
                              Ev, sync, "grid_sample bilinear, ready grid")
                del g3
            except Exception as e:  # noqa: BLE001
                print(f"   (torch perspective grid: {e})")

        # remap = grid_sample with the rotation grid (the maps as a grid)
        fn = (lambda i: F.grid_sample(ins[i % nin], grid, mode="bilinear", padding_mode="zeros",
                                      align_corners=False))
        if not is_float:
            fn = na(float_only)
        elif grid is None:
            fn = na("grid not available")
        bench.run_row(cfg, "torch", "remap", "rot30 maps linear", nbytes + ob + gbytes, fn, Ev,
                      sync, "grid_sample bilinear")
        grid = None

        # resize: interpolate (float) and torchvision resize (any dtype, no antialias)
        for scale, mode, interp in ((0.5, "bilinear", "linear"), (0.5, "nearest-exact", "nearest"),
                                    (0.5, "bicubic", "cubic"), (0.5, "area", "area"),
                                    (2.0, "bilinear", "linear")):
            params = f"{scale:.1f} {interp}"
            if not bench.wanted("resize", params):
                continue
            ob2 = int(h * scale) * int(w * scale) * c * ESIZE[t]
            kw = {} if mode in ("area", "nearest-exact") else {"align_corners": False}
            fn = (lambda i, m=mode, s=scale, kw=kw: F.interpolate(ins[i % nin], scale_factor=s,
                                                                  mode=m, **kw))
            # no float-only guard: interpolate's own error on integer tensors is the note
            bench.run_row(cfg, "torch", "resize", params, nbytes + ob2, fn, Ev, sync,
                          f"interpolate {mode}")
            if TF is not None and interp in ("linear", "nearest"):
                im = InterpolationMode.BILINEAR if interp == "linear" else \
                    InterpolationMode.NEAREST_EXACT
                size = [int(h * scale), int(w * scale)]
                bench.run_row(cfg, "torchvision", "resize", params, nbytes + ob2,
                              lambda i, im=im, size=size: TF.resize(ins[i % nin], size,
                                                                    interpolation=im,
                                                                    antialias=False),
                              Ev, sync, "v2.functional.resize antialias=False")

        # flip and crop
        bench.run_row(cfg, "torch", "flip", "horizontal", 2 * nbytes,
                      lambda i: torch.flip(ins[i % nin], dims=[3]), Ev, sync, "torch.flip")
        bench.run_row(cfg, "torch", "flip", "vertical", 2 * nbytes,
                      lambda i: torch.flip(ins[i % nin], dims=[2]), Ev, sync, "torch.flip")
        co, cob = outputs((1, c, h // 2, w // 2))
        bench.run_row(cfg, "torch", "crop", "centre half", 2 * cob,
                      lambda i: co[i % len(co)].copy_(
                          ins[i % nin][:, :, h // 4:h // 4 + h // 2, w // 4:w // 4 + w // 2]),
                      Ev, sync, "copy_ of a slice")
        sync()
    del ins, outs, co
    torch.cuda.empty_cache()


# --------------------------------------------------------------------------------------------
# Filters, morphology, colour and intensity (the ops of bench/bench_filters.cpp)

FILTER_CONFIGS_FULL = [
    ("f32x1", 8192, 8192, 1, "f32"),
    ("u8x1", 8192, 8192, 1, "u8"),
    ("u8x4", 8192, 8192, 4, "u8"),
    ("u8x3", 8192, 8192, 3, "u8"),
]
FILTER_CONFIGS_QUICK = [(n, 2048, 2048, c, t) for n, _, _, c, t in FILTER_CONFIGS_FULL]

FILTER_NOTES = [
    "Filter peers: cupyx.scipy.ndimage with mode='mirror' (= texcv's default reflect101); "
    "u8 results are cast without saturation by ndimage. gaussian_filter truncate=4 for f32 "
    "(17 taps at sigma 2, texcv's size) and 3 for u8 (13 taps). torch conv2d pads with zeros "
    "and needs float tensors (u8 rows give torch's error); tensors are NCHW (planar) while "
    "texcv is interleaved HWC; dilate 5x5 uses max_pool2d, a rectangle, not the ellipse; "
    "gamma on u8 is a 256-entry table lookup; colour conversions are weighted sums of "
    "expressions (several kernels).",
]

SHARPEN3 = [[0, -1, 0], [-1, 5, -1], [0, -1, 0]]
BINOMIAL5 = [[a * b / 256.0 for b in (1, 4, 6, 4, 1)] for a in (1, 4, 6, 4, 1)]
SOBEL_DX = [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]
# BT.601 full range, as texcv's rgb2yuv_bt601 (docs/ops/color.md): Y, Cb, Cr from R, G, B.
YUV601 = [[0.299, 0.587, 0.114], [-0.168736, -0.331264, 0.5], [0.5, -0.418688, -0.081312]]
YUV_OFF = [0.0, 128.0, 128.0]


def ellipse5():
    """cv::getStructuringElement(MORPH_ELLIPSE, (5, 5)) as rows of 0/1."""
    return [[0, 0, 1, 0, 0], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [0, 0, 1, 0, 0]]


def gamma_lut(g):
    return [int(round(255.0 * (i / 255.0) ** g)) for i in range(256)]


def na_row(bench, cfg, lib, op, params, note):
    bench.run_row(cfg, lib, op, params, 0, not_available(note), None, None)


def run_cupy_filters(bench, cfg):
    try:
        import cupy as cp
        import cupyx.scipy.ndimage as ndi
    except Exception as e:  # noqa: BLE001
        bench.add({"config": cfg[0], "lib": "cupy", "op": "all", "params": "", "type": cfg[4],
                   "channels": cfg[3], "width": cfg[1], "height": cfg[2], "status": "n/a",
                   "note": f"cupy not importable: {e}", "median_ms": None, "gbps": None,
                   "pct_copy": None, "bytes": 0, "reps": 0})
        return
    name, w, h, c, t = cfg
    f32 = t == "f32"
    dtype = cp.float32 if f32 else cp.uint8
    shape = (h, w) if c == 1 else (h, w, c)
    nbytes = w * h * c * ESIZE[t]
    nin = nbuffers(nbytes)
    vmax = 1.0 if f32 else 255.0

    def make_input(seed):
        rs = cp.random.RandomState(seed)
        x = cp.arange(w, dtype=cp.float32)
        y = cp.arange(h, dtype=cp.float32)[:, None]
        v = 0.5 + 0.2 * cp.sin(x / 37.0 + seed) + 0.2 * cp.sin(y / 53.0) \
            + 0.1 * (rs.random_sample((h, w), dtype=cp.float32) - 0.5)
        v = cp.clip(v, 0, 1)
        if c > 1:
            v = cp.repeat(v[:, :, None], c, axis=2)
        return v.astype(cp.float32) if f32 else cp.rint(v * 255).astype(cp.uint8)

    ins = [make_input(i) for i in range(nin)]
    cp.cuda.Device().synchronize()
    stream = cp.cuda.Stream(non_blocking=True)

    class Ev:
        def __init__(self):
            self.e = cp.cuda.Event()

        def record(self):
            self.e.record(stream)

        def elapsed(self, other):
            return cp.cuda.get_elapsed_time(self.e, other.e)

    def sync():
        stream.synchronize()

    def outputs(oshape, odtype=dtype):
        ob = int(math.prod(oshape)) * cp.dtype(odtype).itemsize
        return [cp.empty(oshape, dtype=odtype) for _ in range(nbuffers(ob))], ob

    def k2(rows):
        """A 2-D kernel for every channel: (k, k) or (k, k, 1)."""
        k = cp.asarray(rows, dtype=cp.float32)
        return k if c == 1 else k[:, :, None]

    def row(op, params, fn, note, nb=None):
        bench.run_row(cfg, "cupy", op, params, nbytes + ob if nb is None else nb, fn, Ev, sync,
                      note)

    with stream:
        outs, ob = outputs(shape)
        r = bench.run_row(cfg, "cupy", "copy", "floor d2d", 2 * nbytes,
                          lambda i: cp.cuda.runtime.memcpyAsync(
                              outs[i % len(outs)].data.ptr, ins[i % nin].data.ptr, nbytes,
                              cp.cuda.runtime.memcpyDeviceToDevice, stream.ptr),
                          Ev, sync, "cudaMemcpyAsync (cupy.cuda.runtime)")
        if r and r["status"] == "ok" and (bench.suite, name) not in bench.copy_gbps:
            bench.copy_gbps[(bench.suite, name)] = r["gbps"]
            r["pct_copy"] = 100.0
        o = outs
        nO = len(outs)
        rgb = c == 3
        full = c == 1
        sizes = (1, 1) + ((1,) if c > 1 else ())

        kk = k2(SHARPEN3)
        row("convolve", "3x3 sharpen kernel",
            lambda i: ndi.correlate(ins[i % nin], kk, output=o[i % nO], mode="mirror"),
            "ndimage.correlate mode=mirror")
        if not rgb:
            k5 = k2(BINOMIAL5)
            row("convolve", "5x5 binomial",
                lambda i: ndi.correlate(ins[i % nin], k5, output=o[i % nO], mode="mirror"),
                "ndimage.correlate mode=mirror")
            ksz = 17 if f32 else 13
            sig = (2.0, 2.0) + ((0.0,) if c > 1 else ())
            row("gaussian_blur", f"sigma 2 ({ksz}x{ksz})",
                lambda i: ndi.gaussian_filter(ins[i % nin], sig, output=o[i % nO], mode="mirror",
                                              truncate=4.0 if f32 else 3.0),
                f"ndimage.gaussian_filter truncate={4 if f32 else 3}")
            row("box_filter", "5x5 normalized",
                lambda i: ndi.uniform_filter(ins[i % nin], (5, 5) + sizes[2:], output=o[i % nO],
                                             mode="mirror"),
                "ndimage.uniform_filter")
        if full:
            row("sobel", "dx=1 3x3",
                lambda i: ndi.sobel(ins[i % nin], axis=1, output=o[i % nO], mode="mirror"),
                "ndimage.sobel axis=1")
            row("sharpen", "strength 1",
                lambda i: ndi.correlate(ins[i % nin], kk, output=o[i % nO], mode="mirror"),
                "ndimage.correlate (the sharpen kernel)")

            def unsharp(i):
                x = ins[i % nin]
                b = ndi.gaussian_filter(x, 1.0, mode="mirror", truncate=4.0 if f32 else 3.0)
                v = x.astype(cp.float32) * 2 - b
                if not f32:
                    v = cp.clip(cp.rint(v), 0, 255)
                cp.copyto(o[i % nO], v.astype(dtype))

            row("unsharp_mask", "sigma 1 amount 1", unsharp,
                "gaussian_filter + expression (several kernels)")
        if not rgb:
            for k in (3, 5):
                if c == 4 and k == 5:
                    continue
                row("median_blur", f"{k}x{k}",
                    lambda i, k=k: ndi.median_filter(ins[i % nin], (k, k) + sizes[2:],
                                                     output=o[i % nO], mode="nearest"),
                    "ndimage.median_filter mode=nearest")
            if full:
                na_row(bench, cfg, "cupy", "bilateral_filter",
                       "d=5 sc=" + ("0.1" if f32 else "25") + " ss=2",
                       "no bilateral filter in cupyx.scipy.ndimage")
            row("erode", "3x3 rect",
                lambda i: ndi.grey_erosion(ins[i % nin], (3, 3) + sizes[2:], output=o[i % nO],
                                           mode="nearest"),
                "ndimage.grey_erosion")
            fp = cp.asarray(ellipse5(), dtype=bool)
            if c > 1:
                fp = fp[:, :, None]
            row("dilate", "5x5 ellipse",
                lambda i: ndi.grey_dilation(ins[i % nin], footprint=fp, output=o[i % nO],
                                            mode="nearest"),
                "ndimage.grey_dilation footprint=ellipse")
        if rgb:
            go, gob = outputs((h, w))
            wts = [0.299, 0.587, 0.114]

            def gray(i):
                x = ins[i % nin]
                v = x[:, :, 0] * wts[0] + x[:, :, 1] * wts[1] + x[:, :, 2] * wts[2]
                cp.copyto(go[i % len(go)], cp.rint(v).astype(cp.uint8))

            row("cvt_color", "rgb2gray", gray, "weighted sum expression (several kernels)",
                nbytes + gob)
            m = cp.asarray(YUV601, dtype=cp.float32).T
            off = cp.asarray(YUV_OFF, dtype=cp.float32)

            def yuv(i):
                v = ins[i % nin].astype(cp.float32) @ m + off
                cp.copyto(o[i % nO], cp.clip(cp.rint(v), 0, 255).astype(cp.uint8))

            row("cvt_color", "rgb2yuv_bt601", yuv, "matmul expression (several kernels)")
        if f32:
            row("gamma", "2.2", lambda i: cp.power(ins[i % nin], cp.float32(2.2), out=o[i % nO]),
                "cupy.power")
        else:
            lut = cp.asarray(gamma_lut(2.2), dtype=cp.uint8)
            row("gamma", "2.2", lambda i: cp.take(lut, ins[i % nin], out=o[i % nO]),
                "cupy.take of a 256-entry table")
        if not rgb:
            th = 0.5 if f32 else 127
            row("threshold", "binary " + ("0.5" if f32 else "127"),
                lambda i: cp.multiply(ins[i % nin] > th, dtype(vmax), out=o[i % nO]),
                "cupy.multiply(x > t, maxval)")
        if full and not f32:
            fo, fob = outputs(shape, cp.float32)
            row("convert", "u8->f32 x1/255",
                lambda i: cp.multiply(ins[i % nin], cp.float32(1 / 255), out=fo[i % len(fo)]),
                "cupy.multiply into float32", nbytes + fob)
            del fo
        if full:
            def norm(i):
                x = ins[i % nin]
                mn, mx = x.min(), x.max()
                v = (x.astype(cp.float32) - mn) * (vmax / (mx - mn).astype(cp.float32))
                cp.copyto(o[i % nO], v if f32 else cp.rint(v).astype(cp.uint8))

            row("normalize", "minmax 0.." + ("1" if f32 else "255"), norm,
                "min, max, expression (several kernels)")
        if full and not f32:
            na_row(bench, cfg, "cupy", "equalize_hist", "u8",
                   "no equalize_hist in CuPy (cucim.skimage has one)")
            na_row(bench, cfg, "cupy", "clahe", "clip 40 tiles 8x8", "no CLAHE in CuPy")
        sync()
    del ins, outs
    cp.get_default_memory_pool().free_all_blocks()


def run_torch_filters(bench, cfg):
    try:
        import torch
        import torch.nn.functional as F
    except Exception as e:  # noqa: BLE001
        bench.add({"config": cfg[0], "lib": "torch", "op": "all", "params": "", "type": cfg[4],
                   "channels": cfg[3], "width": cfg[1], "height": cfg[2], "status": "n/a",
                   "note": f"torch not importable: {e}", "median_ms": None, "gbps": None,
                   "pct_copy": None, "bytes": 0, "reps": 0})
        return
    try:
        import torchvision.transforms.v2.functional as TF
    except Exception:  # noqa: BLE001
        TF = None
    name, w, h, c, t = cfg
    f32 = t == "f32"
    dev = torch.device("cuda")
    dtype = torch.float32 if f32 else torch.uint8
    nbytes = w * h * c * ESIZE[t]
    nin = nbuffers(nbytes)
    vmax = 1.0 if f32 else 255.0

    def make_input(seed):
        g = torch.Generator(device=dev)
        g.manual_seed(seed)
        x = torch.arange(w, device=dev, dtype=torch.float32)
        y = torch.arange(h, device=dev, dtype=torch.float32)[:, None]
        v = 0.5 + 0.2 * torch.sin(x / 37.0 + seed) + 0.2 * torch.sin(y / 53.0) \
            + 0.1 * (torch.rand((h, w), device=dev, generator=g) - 0.5)
        v = v.clamp(0, 1)[None, None].expand(1, c, h, w).contiguous()
        return v if f32 else (v * 255).round().to(torch.uint8)

    ins = [make_input(i) for i in range(nin)]
    torch.cuda.synchronize()
    stream = torch.cuda.Stream()

    class Ev:
        def __init__(self):
            self.e = torch.cuda.Event(enable_timing=True)

        def record(self):
            self.e.record(stream)

        def elapsed(self, other):
            return self.e.elapsed_time(other.e)

    def sync():
        stream.synchronize()

    ob = nbytes

    def row(op, params, fn, note, lib="torch", nb=None):
        bench.run_row(cfg, lib, op, params, nbytes + ob if nb is None else nb, fn, Ev, sync,
                      note)

    def kern(rows):
        k = torch.tensor(rows, dtype=torch.float32, device=dev)
        return k[None, None].expand(c, 1, k.shape[0], k.shape[1]).contiguous()

    with torch.cuda.stream(stream):
        outs = [torch.empty((1, c, h, w), dtype=dtype, device=dev) for _ in range(nbuffers(ob))]
        r = bench.run_row(cfg, "torch", "copy", "tensor copy_", 2 * nbytes,
                          lambda i: outs[i % len(outs)].copy_(ins[i % nin]), Ev, sync,
                          "Tensor.copy_")
        if r and r["status"] == "ok" and (bench.suite, name) not in bench.copy_gbps:
            bench.copy_gbps[(bench.suite, name)] = r["gbps"]
        rgb = c == 3
        full = c == 1
        k3 = kern(SHARPEN3)
        row("convolve", "3x3 sharpen kernel",
            lambda i: F.conv2d(ins[i % nin], k3, padding=1, groups=c),
            "conv2d depthwise, zero padding")
        if not rgb:
            k5 = kern(BINOMIAL5)
            row("convolve", "5x5 binomial",
                lambda i: F.conv2d(ins[i % nin], k5, padding=2, groups=c),
                "conv2d depthwise, zero padding")
            ksz = 17 if f32 else 13
            g1 = torch.exp(-((torch.arange(ksz, device=dev, dtype=torch.float32) - ksz // 2) ** 2)
                           / 8.0)
            g1 = g1 / g1.sum()
            gx = g1[None, None, None, :].expand(c, 1, 1, ksz).contiguous()
            gy = g1[None, None, :, None].expand(c, 1, ksz, 1).contiguous()
            row("gaussian_blur", f"sigma 2 ({ksz}x{ksz})",
                lambda i: F.conv2d(F.conv2d(ins[i % nin], gx, padding=(0, ksz // 2), groups=c),
                                   gy, padding=(ksz // 2, 0), groups=c),
                "two 1-D conv2d, zero padding")
            if TF is not None:
                row("gaussian_blur", f"sigma 2 ({ksz}x{ksz})",
                    lambda i: TF.gaussian_blur(ins[i % nin], [ksz, ksz], [2.0, 2.0]),
                    "v2.functional.gaussian_blur (reflect padding)", lib="torchvision")
            row("box_filter", "5x5 normalized",
                lambda i: F.avg_pool2d(ins[i % nin], 5, stride=1, padding=2),
                "avg_pool2d stride 1 (zero padding counted)")
        if full:
            ks = kern(SOBEL_DX)
            row("sobel", "dx=1 3x3", lambda i: F.conv2d(ins[i % nin], ks, padding=1, groups=c),
                "conv2d, zero padding")
            row("sharpen", "strength 1",
                lambda i: F.conv2d(ins[i % nin], k3, padding=1, groups=c),
                "conv2d (the sharpen kernel)")
        if not rgb:
            for k in (3, 5):
                if c == 4 and k == 5:
                    continue
                na_row(bench, cfg, "torch", "median_blur", f"{k}x{k}",
                       "no median filter in torch (unfold + median materializes k*k copies)")
            row("erode", "3x3 rect", lambda i: -F.max_pool2d(-ins[i % nin], 3, 1, 1),
                "-max_pool2d(-x) (two extra negations)")
            row("dilate", "5x5 ellipse", lambda i: F.max_pool2d(ins[i % nin], 5, 1, 2),
                "max_pool2d 5x5: a rectangle, not the ellipse")
        if rgb:
            wts = (0.299, 0.587, 0.114)

            def gray(i):
                x = ins[i % nin]
                v = x[:, 0] * wts[0] + x[:, 1] * wts[1] + x[:, 2] * wts[2]
                return v.round().to(torch.uint8)

            row("cvt_color", "rgb2gray", gray, "weighted sum, planar (several kernels)",
                nb=nbytes + w * h)
            m = torch.tensor(YUV601, dtype=torch.float32, device=dev)
            off = torch.tensor(YUV_OFF, dtype=torch.float32, device=dev)[None, :, None, None]
            row("cvt_color", "rgb2yuv_bt601",
                lambda i: (torch.einsum("oc,nchw->nohw", m, ins[i % nin].float()) + off)
                .round().clamp(0, 255).to(torch.uint8),
                "einsum + expression (several kernels)")
        if f32:
            row("gamma", "2.2", lambda i: torch.pow(ins[i % nin], 2.2), "torch.pow")
        else:
            lut = torch.tensor(gamma_lut(2.2), dtype=torch.uint8, device=dev)
            row("gamma", "2.2", lambda i: lut[ins[i % nin].long()],
                "table[x.long()] (an int64 index tensor)")
        if not rgb:
            th = 0.5 if f32 else 127
            mv = torch.tensor(vmax, dtype=dtype, device=dev)
            zero = torch.tensor(0, dtype=dtype, device=dev)
            row("threshold", "binary " + ("0.5" if f32 else "127"),
                lambda i: torch.where(ins[i % nin] > th, mv, zero), "torch.where")
        if full and not f32:
            row("convert", "u8->f32 x1/255", lambda i: torch.mul(ins[i % nin], 1 / 255),
                "torch.mul (u8 * float -> float32)", nb=nbytes + 4 * w * h)
        if full:
            def norm(i):
                x = ins[i % nin]
                mn, mx = x.min(), x.max()
                v = (x.float() - mn) * (vmax / (mx - mn).float())
                return v if f32 else v.round().to(torch.uint8)

            row("normalize", "minmax 0.." + ("1" if f32 else "255"), norm,
                "min, max, expression (several kernels)")
        if full and not f32:
            if TF is not None:
                row("equalize_hist", "u8", lambda i: TF.equalize(ins[i % nin]),
                    "v2.functional.equalize", lib="torchvision")
            na_row(bench, cfg, "torch", "clahe", "clip 40 tiles 8x8", "no CLAHE in torch")
        sync()
    del ins, outs
    torch.cuda.empty_cache()


# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# CV-CUDA (NVIDIA's cvcuda-cu13 wheel): tensors in NHWC, interleaved as texcv's images, wrapped
# around torch buffers (cvcuda.as_tensor), every call an *_into form into preallocated outputs on
# torch's stream (cvcuda.as_stream), timed with torch's CUDA events.

CVCUDA_NOTES = [
    "CV-CUDA (cvcuda-cu13): NHWC tensors, the *_into calls into preallocated outputs on the "
    "timed stream. rotate turns about the origin then shifts (the shift of "
    "cv2.getRotationMatrix2D about the image centre is given); warp_affine and warp_perspective "
    "take the forward (source -> destination) matrix, as OpenCV; conv2d (convolve, sharpen) "
    "takes only an ImageBatchVarShape (a batch of one image, built once); morphology takes "
    "rectangles only (the dilate 5x5 ellipse row is a 5x5 rectangle) and its erode uses "
    "border replicate (NPP's); threshold takes its level and maxval as per-image tensors; "
    "gamma_contrast is out = in^gamma scaled to the type's range; RGB2YUV is CV-CUDA's "
    "definition (not checked against texcv's BT.601 full range); there is no Sobel, unsharp "
    "mask, min-max normalize, CLAHE or crop call (those rows say so).",
]


def _cvcuda_setup(bench, cfg):
    """(cvcuda, torch, dev, stream, cvstream, Ev, sync) or None after an n/a row."""
    try:
        import torch
        import cvcuda
    except Exception as e:  # noqa: BLE001
        bench.add({"config": cfg[0], "lib": "cvcuda", "op": "all", "params": "",
                   "type": cfg[4], "channels": cfg[3], "width": cfg[1], "height": cfg[2],
                   "status": "n/a", "note": f"cvcuda not importable: {e}", "median_ms": None,
                   "gbps": None, "pct_copy": None, "bytes": 0, "reps": 0})
        return None
    dev = torch.device("cuda")
    stream = torch.cuda.Stream()
    cs = cvcuda.as_stream(stream)

    class Ev:
        def __init__(self):
            self.e = torch.cuda.Event(enable_timing=True)

        def record(self):
            self.e.record(stream)

        def elapsed(self, other):
            return self.e.elapsed_time(other.e)

    def sync():
        stream.synchronize()

    return cvcuda, torch, dev, stream, cs, Ev, sync


def _nhwc_inputs(torch, dev, w, h, c, t, n):
    """n NHWC inputs of the peers' pattern (smooth waves plus noise), as torch tensors."""
    dtype = {"u8": torch.uint8, "f32": torch.float32}[t]
    out = []
    for seed in range(n):
        g = torch.Generator(device=dev)
        g.manual_seed(seed)
        x = torch.arange(w, device=dev, dtype=torch.float32)
        y = torch.arange(h, device=dev, dtype=torch.float32)[:, None]
        v = 0.5 + 0.2 * torch.sin(x / 37.0 + seed) + 0.2 * torch.sin(y / 53.0) \
            + 0.1 * (torch.rand((h, w), device=dev, generator=g) - 0.5)
        v = v.clamp(0, 1)[None, :, :, None].expand(1, h, w, c).contiguous()
        out.append(v if t == "f32" else (v * 255).round().to(dtype))
    return out, dtype


def run_cvcuda(bench, cfg):
    """bench_geometry's ops on CV-CUDA."""
    got = _cvcuda_setup(bench, cfg)
    if got is None:
        return
    cvcuda, torch, dev, stream, cs, Ev, sync = got
    import numpy as np

    name, w, h, c, t = cfg
    if t not in ("u8", "f32"):
        na_row(bench, cfg, "cvcuda", "all", "", f"{t} not timed for CV-CUDA")
        return
    nbytes = w * h * c * ESIZE[t]
    nin = nbuffers(nbytes)
    ins, dtype = _nhwc_inputs(torch, dev, w, h, c, t, nin)
    torch.cuda.synchronize()
    cins = [cvcuda.as_tensor(x, "NHWC") for x in ins]

    def outputs(ow, oh):
        ob = ow * oh * c * ESIZE[t]
        ts = [torch.empty((1, oh, ow, c), dtype=dtype, device=dev) for _ in range(nbuffers(ob))]
        return ts, [cvcuda.as_tensor(o, "NHWC") for o in ts], ob

    outs, couts, ob = outputs(w, h)

    def row(op, params, fn, note, nb=None):
        bench.run_row(cfg, "cvcuda", op, params, nbytes + ob if nb is None else nb, fn, Ev,
                      sync, note)

    interps = {"linear": cvcuda.Interp.LINEAR, "nearest": cvcuda.Interp.NEAREST,
               "cubic": cvcuda.Interp.CUBIC, "area": cvcuda.Interp.AREA}
    a = math.cos(math.radians(30))
    b = math.sin(math.radians(30))
    cx, cy = (w - 1) / 2, (h - 1) / 2
    shift = ((1 - a) * cx - b * cy, b * cx + (1 - a) * cy)  # cv2.getRotationMatrix2D's
    for interp in ("linear", "nearest", "cubic"):
        row("rotate", f"30deg {interp}",
            lambda i, m=interps[interp]: cvcuda.rotate_into(
                couts[i % len(couts)], cins[i % nin], 30.0, shift, m, stream=cs),
            "rotate_into about the origin + shift")
    m = np.array([[0.95, 0.15, -0.05 * w], [-0.10, 0.90, 0.10 * h]], dtype=np.float32)
    zeros = np.zeros(4, dtype=np.float32)
    row("warp_affine", "general linear",
        lambda i: cvcuda.warp_affine_into(couts[i % len(couts)], cins[i % nin], m,
                                          cvcuda.Interp.LINEAR,
                                          border_mode=cvcuda.Border.CONSTANT,
                                          border_value=zeros, stream=cs),
        "warp_affine_into, forward matrix")
    mp = np.array([[1.0, 0.05, 0.02 * w], [0.03, 0.98, 0.01 * h], [0.10 / w, 0.05 / h, 1.0]],
                  dtype=np.float32)
    row("warp_perspective", "mild linear",
        lambda i: cvcuda.warp_perspective_into(couts[i % len(couts)], cins[i % nin], mp,
                                               cvcuda.Interp.LINEAR,
                                               border_mode=cvcuda.Border.CONSTANT,
                                               border_value=zeros, stream=cs),
        "warp_perspective_into, forward matrix")
    if bench.wanted("remap", "rot30 maps linear"):
        try:
            ys, xs = torch.meshgrid(torch.arange(h, device=dev, dtype=torch.float64),
                                    torch.arange(w, device=dev, dtype=torch.float64),
                                    indexing="ij")
            mx = a * (xs - cx) - b * (ys - cy) + cx
            my = b * (xs - cx) + a * (ys - cy) + cy
            mapt = torch.stack((mx, my), dim=-1).to(torch.float32)[None].contiguous()
            cmap = cvcuda.as_tensor(mapt, "NHWC")
            row("remap", "rot30 maps linear",
                lambda i: cvcuda.remap_into(couts[i % len(couts)], cins[i % nin], cmap,
                                            cvcuda.Interp.LINEAR, cvcuda.Interp.NEAREST,
                                            cvcuda.Remap.ABSOLUTE, False,
                                            cvcuda.Border.CONSTANT, zeros, stream=cs),
                "remap_into, absolute maps", nb=nbytes + ob + 8 * w * h)
        except Exception as e:  # noqa: BLE001
            na_row(bench, cfg, "cvcuda", "remap", "rot30 maps linear", f"map: {e}")
    for scale, interp in ((0.5, "linear"), (0.5, "nearest"), (0.5, "cubic"), (0.5, "area"),
                          (2.0, "linear")):
        params = f"{scale:.1f} {interp}"
        if not bench.wanted("resize", params):
            continue
        ro, rco, rob = outputs(int(w * scale), int(h * scale))
        bench.run_row(cfg, "cvcuda", "resize", params, nbytes + rob,
                      lambda i, co=rco, m=interps[interp]: cvcuda.resize_into(
                          co[i % len(co)], cins[i % nin], m, stream=cs),
                      Ev, sync, "resize_into")
        del ro, rco
    row("flip", "horizontal",
        lambda i: cvcuda.flip_into(couts[i % len(couts)], cins[i % nin], 1, stream=cs),
        "flip_into 1")
    row("flip", "vertical",
        lambda i: cvcuda.flip_into(couts[i % len(couts)], cins[i % nin], 0, stream=cs),
        "flip_into 0")
    na_row(bench, cfg, "cvcuda", "crop", "centre half", "no crop-into-a-new-image call timed")
    sync()
    del ins, cins, outs, couts
    torch.cuda.empty_cache()


def run_cvcuda_filters(bench, cfg):
    """bench_filters' ops on CV-CUDA."""
    got = _cvcuda_setup(bench, cfg)
    if got is None:
        return
    cvcuda, torch, dev, stream, cs, Ev, sync = got
    name, w, h, c, t = cfg
    f32 = t == "f32"
    rgb = c == 3
    full = c == 1
    nbytes = w * h * c * ESIZE[t]
    nin = nbuffers(nbytes)
    ins, dtype = _nhwc_inputs(torch, dev, w, h, c, t, nin)
    torch.cuda.synchronize()
    cins = [cvcuda.as_tensor(x, "NHWC") for x in ins]

    def outputs(oc=c, odt=dtype):
        ob = w * h * oc * (4 if odt == torch.float32 else 1)
        ts = [torch.empty((1, h, w, oc), dtype=odt, device=dev) for _ in range(nbuffers(ob))]
        return ts, [cvcuda.as_tensor(o, "NHWC") for o in ts], ob

    outs, couts, ob = outputs()
    B = cvcuda.Border

    def row(op, params, fn, note, nb=None):
        bench.run_row(cfg, "cvcuda", op, params, nbytes + ob if nb is None else nb, fn, Ev,
                      sync, note)

    def out(i):
        return couts[i % len(couts)]

    # conv2d takes image batches: one image a batch, built once for each buffer.
    conv = None
    try:
        fmt = {(1, "u8"): cvcuda.Format.U8, (3, "u8"): cvcuda.Format.RGB8,
               (4, "u8"): cvcuda.Format.RGBA8, (1, "f32"): cvcuda.Format.F32}[(c, t)]

        def batch_of(x):
            bb = cvcuda.ImageBatchVarShape(1)
            bb.pushback(cvcuda.as_image(x[0], fmt))
            return bb

        src_b = [batch_of(x) for x in ins]
        dst_b = [batch_of(o) for o in outs]

        def kernel_batch(rows):
            k = torch.tensor(rows, dtype=torch.float32, device=dev)[:, :, None].contiguous()
            kb = cvcuda.ImageBatchVarShape(1)
            kb.pushback(cvcuda.as_image(k, cvcuda.Format.F32))
            return kb

        anchor = cvcuda.as_tensor(torch.tensor([[-1, -1]], dtype=torch.int32, device=dev), "NC")
        conv = (src_b, dst_b, kernel_batch, anchor)
    except Exception as e:  # noqa: BLE001
        conv_error = f"conv2d's image batches: {type(e).__name__}: {e}"

    def conv_row(op, params, rows, note):
        if conv is None:
            na_row(bench, cfg, "cvcuda", op, params, conv_error)
            return
        src_b, dst_b, kernel_batch, anchor = conv
        kb = kernel_batch(rows)
        row(op, params,
            lambda i: cvcuda.conv2d_into(dst_b[i % len(dst_b)], src_b[i % nin], kb, anchor,
                                         B.REFLECT101, stream=cs), note)

    conv_row("convolve", "3x3 sharpen kernel", SHARPEN3, "conv2d_into, a batch of one image")
    if not rgb:
        conv_row("convolve", "5x5 binomial", BINOMIAL5, "conv2d_into, a batch of one image")
        ksz = 17 if f32 else 13
        row("gaussian_blur", f"sigma 2 ({ksz}x{ksz})",
            lambda i: cvcuda.gaussian_into(out(i), cins[i % nin], (ksz, ksz), (2.0, 2.0),
                                           B.REFLECT101, stream=cs),
            "gaussian_into, reflect101")
        row("box_filter", "5x5 normalized",
            lambda i: cvcuda.averageblur_into(out(i), cins[i % nin], (5, 5), (-1, -1),
                                              B.REFLECT101, stream=cs),
            "averageblur_into, reflect101")
    if full:
        na_row(bench, cfg, "cvcuda", "sobel", "dx=1 3x3", "no Sobel call in CV-CUDA")
        conv_row("sharpen", "strength 1", SHARPEN3, "conv2d_into (the sharpen kernel)")
        na_row(bench, cfg, "cvcuda", "unsharp_mask", "sigma 1 amount 1",
               "no unsharp mask call in CV-CUDA")
    if not rgb:
        for k in (3, 5):
            if c == 4 and k == 5:
                continue
            row("median_blur", f"{k}x{k}",
                lambda i, k=k: cvcuda.median_blur_into(out(i), cins[i % nin], (k, k), stream=cs),
                "median_blur_into")
        row("erode", "3x3 rect",
            lambda i: cvcuda.morphology_into(out(i), cins[i % nin], cvcuda.MorphologyType.ERODE,
                                             (3, 3), (-1, -1), border=B.REPLICATE, stream=cs),
            "morphology_into ERODE, replicate")
        row("dilate", "5x5 ellipse",
            lambda i: cvcuda.morphology_into(out(i), cins[i % nin],
                                             cvcuda.MorphologyType.DILATE, (5, 5), (-1, -1),
                                             border=B.REPLICATE, stream=cs),
            "morphology_into DILATE 5x5: a rectangle, not the ellipse")
    if full:
        sc = 0.1 if f32 else 25.0
        row("bilateral_filter", "d=5 sc=" + ("0.1" if f32 else "25") + " ss=2",
            lambda i: cvcuda.bilateral_filter_into(out(i), cins[i % nin], 5, sc, 2.0,
                                                   B.REFLECT101, stream=cs),
            "bilateral_filter_into, reflect101")
    if rgb:
        go, gco, gob = outputs(oc=1)
        row("cvt_color", "rgb2gray",
            lambda i: cvcuda.cvtcolor_into(gco[i % len(gco)], cins[i % nin],
                                           cvcuda.ColorConversion.RGB2GRAY, stream=cs),
            "cvtcolor_into RGB2GRAY", nb=nbytes + gob)
        row("cvt_color", "rgb2yuv_bt601",
            lambda i: cvcuda.cvtcolor_into(out(i), cins[i % nin], cvcuda.ColorConversion.RGB2YUV,
                                           stream=cs),
            "cvtcolor_into RGB2YUV (CV-CUDA's definition)")
    row("gamma", "2.2",
        lambda i: cvcuda.gamma_contrast_into(out(i), cins[i % nin], 2.2, stream=cs),
        "gamma_contrast_into (host scalar)")
    if not rgb:
        th = 0.5 if f32 else 127.0
        vmax = 1.0 if f32 else 255.0
        tt = cvcuda.as_tensor(torch.tensor([th], dtype=torch.float64, device=dev), "N")
        mt = cvcuda.as_tensor(torch.tensor([vmax], dtype=torch.float64, device=dev), "N")
        row("threshold", "binary " + ("0.5" if f32 else "127"),
            lambda i: cvcuda.threshold_into(out(i), cins[i % nin], tt, mt,
                                            cvcuda.ThresholdType.BINARY, stream=cs),
            "threshold_into BINARY (per-image tensors)")
    if full and not f32:
        fo, fco, fob = outputs(odt=torch.float32)
        row("convert", "u8->f32 x1/255",
            lambda i: cvcuda.convertto_into(fco[i % len(fco)], cins[i % nin], 1 / 255, 0.0,
                                            stream=cs),
            "convertto_into", nb=nbytes + fob)
    if full:
        na_row(bench, cfg, "cvcuda", "normalize", "minmax 0.." + ("1" if f32 else "255"),
               "cvcuda.normalize is (x - base) * scale from given tensors, not min-max")
    if full and not f32:
        row("equalize_hist", "u8",
            lambda i: cvcuda.histogrameq_into(out(i), cins[i % nin], stream=cs),
            "histogrameq_into")
        na_row(bench, cfg, "cvcuda", "clahe", "clip 40 tiles 8x8", "no CLAHE call in CV-CUDA")
    sync()
    del ins, cins, outs, couts, conv
    torch.cuda.empty_cache()


def print_table(rows):
    print("\n== peers summary (median ms, GB/s, % of the copy floor measured by the first "
          "library in the same run)")
    print(f"{'config':<6} {'lib':<12} {'op':<16} {'params':<18} {'ms':>9} {'GB/s':>8} "
          f"{'%copy':>6}  note")
    for r in rows:
        if r["status"] == "ok":
            print(f"{r['config']:<6} {r['lib']:<12} {r['op']:<16} {r['params']:<18} "
                  f"{r['median_ms']:9.4f} {r['gbps']:8.1f} {r['pct_copy']:5.1f}%  "
                  f"{r['note'][:40]}")
        else:
            print(f"{r['config']:<6} {r['lib']:<12} {r['op']:<16} {r['params']:<18} "
                  f"{r['status']:>9} {'':>8} {'':>6}  {r['note'][:60]}")
    ok = sum(r["status"] == "ok" for r in rows)
    print(f"rows: {ok} ok, {len(rows) - ok} other")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, 5 reps")
    ap.add_argument("--filter", default="", help="op substrings, comma-separated")
    ap.add_argument("--config", default="", help="configurations, comma-separated")
    ap.add_argument("--out", default="", help="JSON output file")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--warmup", type=int, default=0)
    ap.add_argument("--budget", type=float, default=0, help="seconds; later rows are skipped")
    ap.add_argument("--libs", default="cupy,torch,cvcuda", help="which peers, comma-separated")
    ap.add_argument("--suite", default="all", choices=("geometry", "filters", "all"),
                    help="the ops of bench_geometry, of bench_filters, or both (default)")
    args = ap.parse_args()
    args.filter = [f for f in args.filter.split(",") if f]
    args.reps = args.reps or (5 if args.quick else 20)
    args.warmup = args.warmup or (1 if args.quick else 3)
    suites = ["geometry", "filters"] if args.suite == "all" else [args.suite]
    plan = []  # (suite, configuration)
    for suite in suites:
        if suite == "geometry":
            configs = CONFIGS_QUICK if args.quick else CONFIGS_FULL
        else:
            configs = FILTER_CONFIGS_QUICK if args.quick else FILTER_CONFIGS_FULL
        if args.config:
            want = set(args.config.split(","))
            configs = [c for c in configs if c[0] in want]
        plan.extend((suite, c) for c in configs)

    bench = Bench(args)
    bench.meta = {"python": platform.python_version(), "mode": "quick" if args.quick else "full",
                  "reps": args.reps, "warmup": args.warmup, "suite": args.suite,
                  "notes": NOTES + (FILTER_NOTES if "filters" in suites else [])
                  + (CVCUDA_NOTES if "cvcuda" in args.libs.split(",") else [])}
    libs = [s for s in args.libs.split(",") if s]
    try:
        import cupy
        bench.meta["cupy"] = cupy.__version__
        bench.meta["gpu"] = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    except Exception as e:  # noqa: BLE001
        bench.meta["cupy"] = f"n/a ({e})"
    try:
        import torch
        bench.meta["torch"] = torch.__version__
        if not torch.cuda.is_available():
            bench.meta["torch"] += " (no CUDA device)"
        else:
            bench.meta.setdefault("gpu", torch.cuda.get_device_name(0))
        try:
            import torchvision
            bench.meta["torchvision"] = torchvision.__version__
        except Exception as e:  # noqa: BLE001
            bench.meta["torchvision"] = f"n/a ({e})"
    except Exception as e:  # noqa: BLE001
        bench.meta["torch"] = f"n/a ({e})"
    try:
        import cvcuda
        bench.meta["cvcuda"] = getattr(cvcuda, "__version__", "unknown version")
    except Exception as e:  # noqa: BLE001
        bench.meta["cvcuda"] = f"n/a ({e})"
    print("peers:", json.dumps({k: v for k, v in bench.meta.items() if k != "notes"}))
    for n in bench.meta["notes"]:
        print("  note:", n)
    if "gpu" not in bench.meta:
        print("peers: no GPU reachable from CuPy or torch; nothing to measure")
        bench.write()
        return 2

    runners = {"geometry": {"cupy": run_cupy, "torch": run_torch, "cvcuda": run_cvcuda},
               "filters": {"cupy": run_cupy_filters, "torch": run_torch_filters,
                           "cvcuda": run_cvcuda_filters}}
    for suite, cfg in plan:
        bench.suite = suite
        print(f"\n== {suite} {cfg[0]}: {cfg[1]}x{cfg[2]} {cfg[4]} x{cfg[3]}", flush=True)
        for lib in libs:
            runner = runners[suite].get(lib)
            if runner is None:
                continue
            try:
                runner(bench, cfg)
            except Exception as e:  # noqa: BLE001
                print(f"   {lib} on {cfg[0]} stopped: {type(e).__name__}: {e}")
                traceback.print_exc(limit=3)
                bench.add({"config": cfg[0], "lib": lib, "op": "all", "params": "",
                           "type": cfg[4], "channels": cfg[3], "width": cfg[1],
                           "height": cfg[2], "status": "error",
                           "note": f"{type(e).__name__}: {e}"[:200], "median_ms": None,
                           "gbps": None, "pct_copy": None, "bytes": 0, "reps": 0})
    bench.write()
    print_table(bench.rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
