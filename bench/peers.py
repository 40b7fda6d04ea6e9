#!/usr/bin/env python3
"""The geometric ops of bench_geometry with the Python GPU libraries users would pick instead.

CuPy (cupyx.scipy.ndimage) and PyTorch (torch.nn.functional, torchvision.transforms.v2), on
the same configurations as bench/bench_geometry.cpp (8192x8192 f32, 16384x16384 u8, 4096x4096
RGBA u8), timed with CUDA events (cupy.cuda.Event / torch.cuda.Event): warm-up, then the median
of --reps calls, rotating over several input/output buffers so the 60 MB L2 does not flatter.
Bytes counted as in the C++ benchmark: input read once + output written once (+ maps or grids
that are read). Every peer runs in its own try/except: a missing package or an unsupported
dtype gives a row "n/a" with the reason, never a crash.

Usage: python3 bench/peers.py [--quick] [--filter S[,S]] [--config NAME[,NAME]] [--out F.json]
                              [--reps N] [--budget SECONDS]
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
        self.copy_gbps = {}  # config -> GB/s of the floor copy

    def wanted(self, op, params):
        if not self.args.filter:
            return True
        key = f"{op} {params}"
        return any(f in key for f in self.args.filter)

    def add(self, row):
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
            cg = self.copy_gbps.get(name)
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
        if r and r["status"] == "ok" and name not in bench.copy_gbps:
            bench.copy_gbps[name] = r["gbps"]
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
        if r and r["status"] == "ok" and name not in bench.copy_gbps:
            bench.copy_gbps[name] = r["gbps"]
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
    ap.add_argument("--libs", default="cupy,torch", help="which peers, comma-separated")
    args = ap.parse_args()
    args.filter = [f for f in args.filter.split(",") if f]
    args.reps = args.reps or (5 if args.quick else 20)
    args.warmup = args.warmup or (1 if args.quick else 3)
    configs = CONFIGS_QUICK if args.quick else CONFIGS_FULL
    if args.config:
        want = set(args.config.split(","))
        configs = [c for c in configs if c[0] in want]

    bench = Bench(args)
    bench.meta = {"python": platform.python_version(), "mode": "quick" if args.quick else "full",
                  "reps": args.reps, "warmup": args.warmup, "notes": NOTES}
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
    print("peers:", json.dumps({k: v for k, v in bench.meta.items() if k != "notes"}))
    for n in NOTES:
        print("  note:", n)
    if "gpu" not in bench.meta:
        print("peers: no GPU reachable from CuPy or torch; nothing to measure")
        bench.write()
        return 2

    for cfg in configs:
        print(f"\n== {cfg[0]}: {cfg[1]}x{cfg[2]} {cfg[4]} x{cfg[3]}", flush=True)
        for lib in libs:
            runner = {"cupy": run_cupy, "torch": run_torch}.get(lib)
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
