"""CuPy arrays and torch CUDA tensors: same kind out, zero copies (DLPack), the caller's current
stream, results as the CPU backend's within CONVENTIONS.md's CUDA-vs-CPU bounds. Each test skips
with its reason where CuPy / torch or a usable GPU is missing (this CI machine has no GPU); they
run on the GPU machine."""

from __future__ import annotations

import numpy as np
import pytest

import texcv
from conftest import need_gpu, random_image, source


def need_cupy():
    try:
        import cupy
    except ImportError:
        pytest.skip("CuPy is not installed (pip install cupy-cuda13x on the GPU machine)")
    need_gpu()
    return cupy


def need_torch():
    try:
        import torch
    except ImportError:
        pytest.skip("PyTorch is not installed (pip install torch on the GPU machine)")
    need_gpu()
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device")
    return torch


# (name, args, kwargs, bound vs the CPU backend): exact interpolation (default precision) is
# within 1 level (u8/u16) or 1e-5 relative (f32); filters, morphology, median and the integer
# colour ops are identical (docs/conventions.md, include/texcv/*.hpp).
OPS = [
    ("resize", (71, 53), {}, "interp"),
    ("rotate", (30.0,), {"expand": True}, "interp"),
    ("warp_affine", (np.array([[0.9, 0.1, 3.0], [-0.1, 0.9, 5.0]]),), {}, "interp"),
    ("flip", ("both",), {}, "exact"),
    ("gaussian_blur", (5, 1.2), {}, "exact"),
    ("sharpen", (), {}, "exact"),
    ("box_filter", (5,), {}, "exact"),
    ("median_blur", (5,), {}, "exact"),
    ("erode", (3,), {}, "exact"),
    ("morphology", ("open", 5), {}, "exact"),
    ("cvt_color", ("rgb2gray",), {}, "exact"),
    ("convert", ("float32",), {"scale": 1 / 255}, "exact"),
]


def within(ours: np.ndarray, ref: np.ndarray, bound: str, dtype: str) -> bool:
    if bound == "exact":
        return np.array_equal(ours, ref, equal_nan=True)
    d = np.abs(ours.astype(np.float64) - ref.astype(np.float64))
    if dtype == "float32":
        return bool(np.all(d <= 1e-5 * np.maximum(1.0, np.abs(ref))))
    return d.max() <= 1


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32"])
def test_numpy_on_cuda_matches_cpu(dtype):
    need_gpu()
    src = source("coffee.png", dtype, 3)
    for name, args, kwargs, bound in OPS:
        fn = getattr(texcv, name)
        assert within(fn(src, *args, device="cuda", **kwargs),
                      fn(src, *args, device="cpu", **kwargs), bound, dtype), name


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32"])
def test_cupy_in_cupy_out_matches_cpu(dtype):
    cupy = need_cupy()
    src = source("coffee.png", dtype, 3)
    d_src = cupy.asarray(src)
    for name, args, kwargs, bound in OPS:
        fn = getattr(texcv, name)
        out = fn(d_src, *args, **kwargs)
        assert isinstance(out, cupy.ndarray), name
        assert within(out.get(), fn(src, *args, device="cpu", **kwargs), bound, dtype), name


def test_cupy_zero_copy_pitched_views_and_into():
    cupy = need_cupy()
    base = cupy.asarray(random_image(128, 96, 4, "uint8", 3))
    roi = base[10:70, 16:112]
    w, h, c, t, pitch, loc, ptr = texcv._texcv._view(roi, "test")
    assert (w, h, c, loc, pitch) == (96, 60, 4, "device", 128 * 4)
    assert ptr == roi.data.ptr  # the CuPy memory itself: no copy
    dst = cupy.zeros((60, 96, 4), cupy.uint8)
    before = dst.data.ptr
    assert texcv.gaussian_blur_into(dst, roi, 5) is dst
    assert dst.data.ptr == before
    assert np.array_equal(dst.get(), texcv.gaussian_blur(roi.get(), 5, device="cpu"))


def test_cupy_runs_on_the_current_and_the_given_stream():
    cupy = need_cupy()
    src = random_image(1024, 768, 1, "float32", 4)
    ref = texcv.box_filter(src, 9, device="cpu")
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        d = cupy.asarray(src)
        out = texcv.box_filter(d, 9)  # the current stream: s
        s.synchronize()
    assert np.array_equal(out.get(), ref)
    s2 = cupy.cuda.Stream(non_blocking=True)
    d = cupy.asarray(src)
    cupy.cuda.get_current_stream().synchronize()
    out = cupy.empty_like(d)
    texcv.box_filter_into(out, d, 9, stream=s2)
    s2.synchronize()
    assert np.array_equal(out.get(), ref)
    texcv.box_filter_into(out, d, 9, stream=s2.ptr)  # a raw cudaStream_t works too
    s2.synchronize()
    assert np.array_equal(out.get(), ref)


def test_cupy_errors():
    cupy = need_cupy()
    d = cupy.zeros((10, 12, 3), cupy.uint8)
    with pytest.raises(texcv.InvalidArgumentError, match="device='cpu' was asked for CUDA "
                       "arrays"):
        texcv.flip(d, device="cpu")
    with pytest.raises(texcv.Error):
        texcv.flip_into(np.zeros((10, 12, 3), np.uint8), d)  # host dst, device src


def test_histogram_of_cupy_array():
    cupy = need_cupy()
    src = random_image(64, 48, 3, "uint8", 6)
    h = texcv.histogram(cupy.asarray(src), 32, (0, 256))
    assert isinstance(h, np.ndarray)
    assert np.array_equal(h, texcv.histogram(src, 32, (0, 256), device="cpu"))


@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_torch_in_torch_out_matches_cpu(dtype):
    torch = need_torch()
    src = source("coffee.png", dtype, 3)
    t_src = torch.from_numpy(src).cuda()
    for name, args, kwargs, bound in OPS:
        fn = getattr(texcv, name)
        out = fn(t_src, *args, **kwargs)
        assert isinstance(out, torch.Tensor) and out.is_cuda, name
        assert within(out.cpu().numpy(), fn(src, *args, device="cpu", **kwargs), bound,
                      dtype), name


def test_torch_zero_copy_and_current_stream():
    torch = need_torch()
    base = torch.from_numpy(random_image(128, 96, 3, "float32", 8)).cuda()
    roi = base[8:72, 4:100]
    assert texcv._texcv._view(roi, "test")[6] == roi.data_ptr()
    ref = texcv.sharpen(roi.cpu().numpy(), device="cpu")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        out = texcv.sharpen(roi)
    s.synchronize()
    assert torch.equal(out.cpu(), torch.from_numpy(ref))
    dst = torch.empty_like(out)
    texcv.sharpen_into(dst, roi, stream=s)
    s.synchronize()
    assert torch.equal(dst.cpu(), torch.from_numpy(ref))


def test_torch_cpu_tensors_give_torch_cpu_tensors():
    try:
        import torch
    except ImportError:
        pytest.skip("PyTorch is not installed")
    src = torch.from_numpy(random_image(30, 20, 3, "uint8", 9))
    out = texcv.flip(src, device="cpu")
    assert isinstance(out, torch.Tensor) and out.device.type == "cpu"
    assert np.array_equal(out.numpy(), src.numpy()[:, ::-1])


def test_no_texture_or_buffer_leak():
    cupy = need_cupy()
    d = cupy.asarray(random_image(256, 256, 1, "float32", 10))
    texcv.clear_texture_cache()
    before = texcv._texcv.live_handles()
    for _ in range(5):
        texcv.rotate(d, 10.0, precision="fast")
    cupy.cuda.get_current_stream().synchronize()
    texcv.clear_texture_cache()
    after = texcv._texcv.live_handles()
    assert after["textures"] == before["textures"]
    assert after["device_buffers"] == before["device_buffers"]
