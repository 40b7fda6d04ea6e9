"""The numpy path of every operation: output kind, shape and type, *_into variants, non-contiguous
and pitched inputs, device selection, helpers (info, devices, operations), docstrings."""

from __future__ import annotations

import inspect
import threading

import numpy as np
import pytest

import texcv
from conftest import DTYPES, random_image, source

M_AFFINE = np.array([[0.9, 0.1, 3.0], [-0.1, 0.9, 5.0]])
M_PERSP = np.array([[1.0, 0.05, 2.0], [0.02, 1.0, 1.0], [0.0002, 0.0001, 1.0]])
K3 = np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float32)

# (name, positional args after src, keyword args, expected output shape from src (h, w, c))
CASES = [
    ("resize", (30, 20), {}, lambda h, w, c: (20, 30, c)),
    ("warp_affine", (M_AFFINE,), {}, lambda h, w, c: (h, w, c)),
    ("warp_perspective", (M_PERSP,), {}, lambda h, w, c: (h, w, c)),
    ("rotate", (30.0,), {}, lambda h, w, c: (h, w, c)),
    ("flip", ("vertical",), {}, lambda h, w, c: (h, w, c)),
    ("crop", (3, 4, 10, 12), {}, lambda h, w, c: (12, 10, c)),
    ("convolve", (K3,), {}, lambda h, w, c: (h, w, c)),
    ("separable_filter", ([1, 2, 1], [1, 0, -1]), {}, lambda h, w, c: (h, w, c)),
    ("gaussian_blur", (5, 1.2), {}, lambda h, w, c: (h, w, c)),
    ("box_filter", (3,), {}, lambda h, w, c: (h, w, c)),
    ("sharpen", (0.5,), {}, lambda h, w, c: (h, w, c)),
    ("unsharp_mask", (1.0, 1.5), {}, lambda h, w, c: (h, w, c)),
    ("sobel", (1, 0), {}, lambda h, w, c: (h, w, c)),
    ("scharr", (0, 1), {}, lambda h, w, c: (h, w, c)),
    ("laplacian", (3,), {}, lambda h, w, c: (h, w, c)),
    ("median_blur", (3,), {}, lambda h, w, c: (h, w, c)),
    ("erode", (3,), {}, lambda h, w, c: (h, w, c)),
    ("dilate", (5,), {"shape": "ellipse"}, lambda h, w, c: (h, w, c)),
    ("morphology", ("gradient",), {}, lambda h, w, c: (h, w, c)),
    ("gamma", (0.5,), {}, lambda h, w, c: (h, w, c)),
    ("normalize", (), {"alpha": 0, "beta": 100}, lambda h, w, c: (h, w, c)),
    ("convert", (), {"scale": 0.5}, lambda h, w, c: (h, w, c)),
]


def _shape(h, w, c):
    return (h, w) if c == 1 else (h, w, c)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ch", (1, 3, 4))
@pytest.mark.parametrize("name,args,kwargs,shape", CASES, ids=[c[0] for c in CASES])
def test_op_and_into_agree(name, args, kwargs, shape, dtype, ch):
    src = random_image(37, 29, ch, dtype, seed=ch)
    fn = getattr(texcv, name)
    out = fn(src, *args, device="cpu", **kwargs)
    assert isinstance(out, np.ndarray)
    assert out.dtype == src.dtype
    assert out.shape == _shape(*shape(29, 37, ch))
    into = getattr(texcv, name + "_into")
    dst = np.zeros_like(out)
    into_args = args
    if name == "resize":
        into_args = ()
    elif name == "crop":
        into_args = args[:2]
    ret = into(dst, src, *into_args, device="cpu", **kwargs)
    assert ret is dst
    assert np.array_equal(dst, out, equal_nan=True)
    # The same call twice gives the same result (no hidden state).
    assert np.array_equal(fn(src, *args, device="cpu", **kwargs), out, equal_nan=True)


def test_every_registry_operation_has_a_function_and_an_into_variant():
    names = [op["name"] for op in texcv.operations()]
    assert "resize" in names and "clahe" in names
    for n in names:
        assert callable(getattr(texcv, n)), n
        if n != "histogram":
            assert callable(getattr(texcv, n + "_into")), n


def test_keyword_names_match_the_registry():
    # Every registry parameter that is not an output-size alias is a keyword of the function.
    # The exceptions: convolve's kw/kh (the kernel array has a shape) and convert's type
    # (numpy's name, dtype).
    aliases = {("convolve", "kw"), ("convolve", "kh"), ("convert", "type")}
    for op in texcv.operations():
        params = inspect.signature(getattr(texcv, op["name"])).parameters
        assert "stream" in params and params["stream"].kind is inspect.Parameter.KEYWORD_ONLY
        assert "device" in params
        for p in op["params"]:
            if (op["name"], p["name"]) in aliases or p["name"] in params:
                continue
            pytest.fail(f"{op['name']}: registry parameter {p['name']} is not a keyword")


def test_docstrings_have_parameters_and_accuracy():
    assert "Parameters:" in texcv.resize.__doc__
    assert "interp:" in texcv.resize.__doc__ and "nearest" in texcv.resize.__doc__
    assert "stream:" in texcv.gaussian_blur_into.__doc__
    assert "Accuracy" in texcv.warp_affine.__doc__


def test_cvt_color_threshold_histogram_equalize_clahe_bilateral():
    rgb = random_image(40, 30, 3, "uint8", 3)
    gray = texcv.cvt_color(rgb, "rgb2gray", device="cpu")
    assert gray.shape == (30, 40) and gray.dtype == np.uint8
    assert texcv.cvt_color(gray, "gray2rgba", device="cpu").shape == (30, 40, 4)
    used, binary = texcv.threshold(gray, 100, 255, device="cpu")
    assert used == 100 and set(np.unique(binary)) <= {0, 255}
    dst = np.empty_like(gray)
    assert texcv.threshold_into(dst, gray, 0, 255, "otsu", device="cpu") > 0
    h = texcv.histogram(gray, 16, (0, 256), device="cpu")
    assert h.shape == (16,) and h.sum() == gray.size
    eq = texcv.equalize_hist(gray, device="cpu")
    assert eq.max() == 255
    assert texcv.clahe(gray, 2.0, 4, 4, device="cpu").shape == gray.shape
    bl = texcv.bilateral_filter(rgb, 5, 30.0, 2.0, device="cpu")
    assert bl.shape == rgb.shape
    dst = np.empty_like(rgb)
    assert np.array_equal(texcv.bilateral_filter_into(dst, rgb, 5, 30.0, 2.0, device="cpu"), bl)


def test_convert_to_other_types_and_float_output_filters():
    src = random_image(20, 10, 3, "uint8", 2)
    f = texcv.convert(src, "float32", scale=1 / 255, device="cpu")
    assert f.dtype == np.float32 and np.allclose(f, src / 255.0, atol=1e-6)
    assert texcv.convert(src, np.uint16, scale=257, device="cpu").dtype == np.uint16
    d = texcv.sobel(src, 1, 0, dtype="float32", device="cpu")
    assert d.dtype == np.float32 and d.min() < 0  # signed, not saturated
    assert texcv.laplacian(src, dtype=np.float32, device="cpu").dtype == np.float32


def test_non_contiguous_inputs_are_copied():
    base = random_image(80, 60, 3, "uint8", 4)
    strided = base[::2, ::2]  # column stride 2 pixels: copied to a contiguous array first
    assert not strided.flags.c_contiguous
    assert np.array_equal(texcv.gaussian_blur(strided, 5, device="cpu"),
                          texcv.gaussian_blur(np.ascontiguousarray(strided), 5, device="cpu"))
    planar = np.ascontiguousarray(base.transpose(2, 0, 1)).transpose(1, 2, 0)  # channel-planar
    assert np.array_equal(texcv.flip(planar, device="cpu"), texcv.flip(base, device="cpu"))
    flipped = base[::-1]  # negative row stride
    assert np.array_equal(texcv.box_filter(flipped, device="cpu"),
                          texcv.box_filter(np.ascontiguousarray(flipped), device="cpu"))


def test_pitched_regions_are_used_in_place():
    base = random_image(80, 60, 3, "uint16", 5)
    roi = base[10:50, 7:61]  # rows pitched by the parent: no copy needed
    assert not roi.flags.c_contiguous
    w, h, c, t, pitch, loc, ptr = texcv._texcv._view(roi, "test")
    assert (w, h, c, t, pitch, loc) == (54, 40, 3, "u16", 80 * 3 * 2, "host")
    assert ptr == roi.ctypes.data  # the caller's memory, not a copy
    assert np.array_equal(texcv.sharpen(roi, device="cpu"),
                          texcv.sharpen(roi.copy(), device="cpu"))
    # A pitched destination region is written in place, the rest untouched.
    big = np.zeros((60, 80, 3), np.uint16)
    texcv.sharpen_into(big[10:50, 7:61], roi, device="cpu")
    assert np.array_equal(big[10:50, 7:61], texcv.sharpen(roi, device="cpu"))
    assert not big[:10].any() and not big[:, :7].any()


def test_lists_and_single_channel_3d_arrays():
    gray3d = random_image(16, 12, 1, "float32", 6)[:, :, None]
    out = texcv.box_filter(gray3d, device="cpu")
    assert out.shape == (12, 16, 1)
    as_list = [[0, 10, 20], [30, 40, 50]]
    assert texcv.flip(np.array(as_list, np.uint8), device="cpu").tolist() == [[20, 10, 0],
                                                                               [50, 40, 30]]


def test_border_value_forms():
    src = np.zeros((10, 10, 3), np.uint8)
    m = np.array([[1.0, 0, 5], [0, 1, 0]])
    one = texcv.warp_affine(src, m, border_value=7, device="cpu")
    assert one[0, 0].tolist() == [7, 7, 7]
    per = texcv.warp_affine(src, m, border_value=(1, 2, 3), device="cpu")
    assert per[0, 0].tolist() == [1, 2, 3]


def test_rotate_expand_and_sizes():
    src = source("random", "uint8", 3)
    w, h = texcv.rotated_size(src.shape[1], src.shape[0], 30, expand=True)
    out = texcv.rotate(src, 30, expand=True, device="cpu")
    assert out.shape == (h, w, 3)
    assert texcv.rotated_size(100, 50, 90) == (50, 100)


def test_structuring_element_and_gaussian_kernel():
    assert texcv.structuring_element("cross", 3).tolist() == [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
    k = texcv.gaussian_kernel(5, 0)
    assert k.dtype == np.float32 and abs(k.sum() - 1) < 1e-6


def test_info_devices_and_cpu_device():
    i = texcv.info()
    for key in ("version", "cuda_compiled", "openmp", "formats", "gpus", "default_device"):
        assert key in i
    assert i["version"] == texcv.__version__
    assert "png" in i["formats"]
    assert isinstance(texcv.devices(), list)
    assert i["default_device"] == ("cuda" if texcv.cuda_available() else "cpu")
    for g in texcv.devices():
        assert g["max_texture_2d_linear"][0] > 0 and g["texture_pitch_alignment"] > 0


def test_device_auto_matches_cpu():
    src = source("coffee.png", "uint8", 3)
    a = texcv.resize(src, 71, 53, device="auto")
    b = texcv.resize(src, 71, 53, device="cpu")
    # Without a GPU auto is the CPU (identical); with one the CUDA exact path is within 1 level.
    assert np.abs(a.astype(int) - b.astype(int)).max() <= (1 if texcv.cuda_available() else 0)


def test_gil_is_released_during_work():
    # Two threads processing large images finish; while one works, the other thread runs
    # Python code (a counter advances), which it could not if the GIL were held throughout.
    big = random_image(2000, 1500, 3, "float32", 7)
    counter = [0]
    done = threading.Event()

    def count():
        while not done.is_set():
            counter[0] += 1

    t = threading.Thread(target=count)
    t.start()
    before = counter[0]
    texcv.gaussian_blur(big, 31, 8.0, device="cpu")
    during = counter[0] - before
    done.set()
    t.join()
    assert during > 1000, during
