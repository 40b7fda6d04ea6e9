"""The public Python API against opencv-python-headless (pinned to 4.6, the version the C++
reference tests pin) on sample photographs and random data. Each bound is the one the C++
tests in tests/cpp/opencv/ hold for the same comparison (CONVENTIONS.md), written next to it."""

from __future__ import annotations

import numpy as np
import pytest

import texcv
from conftest import CHANNELS, DTYPES, FULL, PHOTOS, max_diff, source

cv2 = pytest.importorskip("cv2", reason="opencv-python-headless is not installed")
# The bounds below hold against OpenCV 4.6 (the C++ reference tests pin the same version);
# other versions differ by design in places (OpenCV 5 rounds nearest-neighbour source
# coordinates differently), so the module runs only against 4.6 and says why elsewhere.
if not cv2.__version__.startswith("4.6."):
    pytest.skip(f"the conformance bounds are for OpenCV 4.6 (tests/python/requirements.txt pins "
                f"opencv-python-headless==4.6.0.66); this Python has OpenCV {cv2.__version__}",
                allow_module_level=True)

KINDS = ["random", *PHOTOS]
BORDERS = ["constant", "replicate", "reflect", "reflect101", "wrap"]
CV_BORDER = {"constant": cv2.BORDER_CONSTANT, "replicate": cv2.BORDER_REPLICATE,
             "reflect": cv2.BORDER_REFLECT, "reflect101": cv2.BORDER_REFLECT_101,
             "wrap": cv2.BORDER_WRAP}
CV_INTERP = {"nearest": cv2.INTER_NEAREST, "linear": cv2.INTER_LINEAR,
             "cubic": cv2.INTER_CUBIC, "area": cv2.INTER_AREA}


def rounding_tol(dtype: str) -> float:
    # Integer results may round a differently ordered or fixed-point sum to the other side of
    # .5 (1 level); f32 sums in another order differ by float rounding, 1e-5 of [0, 1].
    return 1e-5 if dtype == "float32" else 1.0


def filter_tol(src_dtype: str, dst_dtype: str, sum_abs_k: float) -> float:
    # As tests/cpp/opencv/filter_test_util.hpp: integer outputs 1 level; f32 outputs 1e-5 of
    # the largest possible |sum| (sum |k| x full scale of the source).
    if dst_dtype != "float32":
        return 1.0
    return 1e-5 * sum_abs_k * FULL[src_dtype]


def cv_filter(src: np.ndarray, border: str, f) -> np.ndarray:
    """OpenCV's filter engine rejects BORDER_WRAP: pad by 32 with copyMakeBorder(WRAP), filter,
    crop (as the C++ reference does)."""
    if border != "wrap":
        return f(src, CV_BORDER[border])
    pad = 32
    padded = cv2.copyMakeBorder(src, pad, pad, pad, pad, cv2.BORDER_WRAP)
    out = f(padded, cv2.BORDER_REFLECT_101)
    return out[pad:pad + src.shape[0], pad:pad + src.shape[1]]


def test_opencv_is_pinned():
    assert cv2.__version__.startswith("4.6."), cv2.__version__


# ---- geometry ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ch", CHANNELS)
def test_resize(kind, dtype, ch):
    src = source(kind, dtype, ch)
    for dw, dh in ((97, 71), (251, 203), (53, 120)):
        if kind == "random":
            dw, dh = dw // 2, dh // 2
        for ip in ("nearest", "linear", "cubic", "area"):
            ours = texcv.resize(src, dw, dh, interp=ip, device="cpu")
            flag = cv2.INTER_NEAREST_EXACT if ip == "nearest" else CV_INTERP[ip]
            theirs = cv2.resize(src, (dw, dh), interpolation=flag)
            # nearest picks the same pixels: identical; others: rounding.
            bound = 0 if ip == "nearest" else rounding_tol(dtype)
            assert max_diff(ours, theirs) <= bound, (ip, dw, dh)


def test_resize_scale_matches_fx_fy_on_even_sizes():
    # cv2.resize with fx/fy samples at (x + 0.5) / fx - 0.5, and so does texcv's scale= (the
    # factor form); odd sizes and every interpolation: test_resize_factors.py.
    src = source("coffee.png", "uint8", 3)
    ours = texcv.resize(src, scale=0.5, device="cpu")
    theirs = cv2.resize(src, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_LINEAR)
    assert ours.shape == theirs.shape
    assert max_diff(ours, theirs) <= 1


@pytest.mark.parametrize("kind", ["random", "coffee.png"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ch", CHANNELS)
@pytest.mark.parametrize("border", BORDERS)
def test_warp_affine_on_grid(kind, dtype, ch, border):
    # Coefficients multiple of 1/8: every source coordinate is on OpenCV's 1/32-pixel grid, so
    # its quantization is exact and the results agree to rounding.
    inv = np.array([[1.25, 0.25, -20.375], [-0.125, 1.125, -15.5]])
    src = source(kind, dtype, ch)
    h, w = src.shape[:2]
    bv = [0.25 * FULL[dtype], 0.5 * FULL[dtype], 0.75 * FULL[dtype], FULL[dtype]]
    for ip in ("nearest", "linear", "cubic"):
        ours = texcv.warp_affine(src, inv, inverse_map=True, width=w + 20, height=h + 10,
                                 interp=ip, border=border, border_value=bv[:ch], device="cpu")
        theirs = cv2.warpAffine(src, inv, (w + 20, h + 10),
                                flags=CV_INTERP[ip] | cv2.WARP_INVERSE_MAP,
                                borderMode=CV_BORDER[border], borderValue=bv)
        assert max_diff(ours, theirs) <= (0 if ip == "nearest" else rounding_tol(dtype)), ip


@pytest.mark.parametrize("dtype", DTYPES)
def test_warp_perspective_on_grid(dtype):
    # sx = x + y/4 + 1/8, sy = y + x/4 + 3/8 after the division by w = 2: on the 1/32 grid.
    m = np.array([[2.0, 0.5, 0.25], [0.5, 2.0, 0.75], [0.0, 0.0, 2.0]])
    src = source("coffee.png", dtype, 3)
    for ip in ("nearest", "linear"):
        ours = texcv.warp_perspective(src, m, inverse_map=True, interp=ip, border="reflect",
                                      device="cpu")
        theirs = cv2.warpPerspective(src, m, src.shape[1::-1],
                                     flags=CV_INTERP[ip] | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REFLECT)
        assert max_diff(ours, theirs) <= (0 if ip == "nearest" else rounding_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_remap_on_grid(dtype):
    src = source("coffee.png", dtype, 3)
    h, w = 90, 130
    # Multiples of 1/32 from 8 pixels before to 8 after the source, never exactly k + 0.5
    # (there OpenCV's remap rounds half to even and texcv's nearest half up: documented).
    rng = np.random.default_rng(9)

    def grid(n):
        k = rng.integers(-8 * 32, (n + 8) * 32, (h, w))
        k = np.where(k % 32 == 16, k + 1, k)
        return (k / 32.0).astype(np.float32)

    mx, my = grid(src.shape[1]), grid(src.shape[0])
    for ip in ("nearest", "linear", "cubic"):
        ours = texcv.remap(src, mx, my, interp=ip, border="replicate", device="cpu")
        theirs = cv2.remap(src, mx, my, CV_INTERP[ip], borderMode=cv2.BORDER_REPLICATE)
        assert max_diff(ours, theirs) <= (0 if ip == "nearest" else rounding_tol(dtype)), ip


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ch", CHANNELS)
def test_rotate_quarter_turns_and_flip_exact(dtype, ch):
    src = source("coffee.png", dtype, ch)
    assert np.array_equal(texcv.rotate(src, 90, expand=True, device="cpu"),
                          cv2.rotate(src, cv2.ROTATE_90_COUNTERCLOCKWISE))
    assert np.array_equal(texcv.rotate(src, -90, expand=True, device="cpu"),
                          cv2.rotate(src, cv2.ROTATE_90_CLOCKWISE))
    assert np.array_equal(texcv.rotate(src, 180, device="cpu"), cv2.rotate(src, cv2.ROTATE_180))
    for code, cv_code in (("horizontal", 1), ("vertical", 0), ("both", -1)):
        assert np.array_equal(texcv.flip(src, code, device="cpu"), cv2.flip(src, cv_code))


def test_rotation_matrix_matches_get_rotation_matrix_2d():
    ours = texcv.rotation_matrix(160, 120, 160, 120, 30.0)
    theirs = cv2.getRotationMatrix2D((79.5, 59.5), 30.0, 1.0)
    assert np.allclose(ours, theirs, rtol=0, atol=1e-12)


# ---- linear filters ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["random", "coffee.png", "astronaut.png"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ch", CHANNELS)
@pytest.mark.parametrize("border", BORDERS)
def test_convolve(kind, dtype, ch, border):
    src = source(kind, dtype, ch)
    k = np.random.default_rng(3).uniform(-1, 1, (3, 5)).astype(np.float32)
    ours = texcv.convolve(src, k, anchor_x=1, anchor_y=2, border=border, device="cpu")
    theirs = cv_filter(src, border, lambda s, b: cv2.filter2D(s, -1, k, anchor=(1, 2),
                                                              borderType=b))
    assert max_diff(ours, theirs) <= filter_tol(dtype, dtype, np.abs(k).sum())


@pytest.mark.parametrize("dtype", DTYPES)
def test_convolve_scale_delta_float_output(dtype):
    src = source("coffee.png", dtype, 3)
    k = np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float32)
    ours = texcv.convolve(src, k, scale=0.5, delta=3.0, dtype="float32", device="cpu")
    theirs = cv2.filter2D(src, cv2.CV_32F, k * 0.5, delta=3.0)
    assert ours.dtype == np.float32
    assert max_diff(ours, theirs) <= filter_tol(dtype, "float32", np.abs(k * 0.5).sum())


@pytest.mark.parametrize("kind", ["random", "coffee.png"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ch", CHANNELS)
def test_separable_gaussian_box_sharpen(kind, dtype, ch):
    src = source(kind, dtype, ch)
    kx = np.array([1, 4, 6, 4, 1], np.float32) / 16
    ky = np.array([-1, 0, 1], np.float32)
    ours = texcv.separable_filter(src, kx, ky, delta=0.5, device="cpu")
    theirs = cv2.sepFilter2D(src, -1, kx, ky, delta=0.5)
    assert max_diff(ours, theirs) <= filter_tol(dtype, dtype, 2.0)
    for ksize, sigma in ((5, 0.0), (0, 1.5), (7, 2.0)):
        ours = texcv.gaussian_blur(src, ksize, sigma, device="cpu")
        # Against OpenCV's float path (as the C++ test: OpenCV's u8/u16 fixed-point path rounds
        # its kernel differently): blur in f32, round half to even, saturate; 1 level / 1e-5.
        theirs = cv2.GaussianBlur(src.astype(np.float32), (ksize, ksize), sigma)
        if dtype != "float32":
            info = np.iinfo(dtype)
            theirs = np.clip(np.rint(theirs), info.min, info.max)
        assert max_diff(ours, theirs) <= filter_tol(dtype, dtype, 1.0), (ksize, sigma)
    for border in ("constant", "replicate", "reflect101"):
        ours = texcv.box_filter(src, 5, ksize_y=3, border=border, device="cpu")
        theirs = cv2.blur(src, (5, 3), borderType=CV_BORDER[border])
        assert max_diff(ours, theirs) <= filter_tol(dtype, dtype, 1.0), border
    k = np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float32)
    assert max_diff(texcv.sharpen(src, device="cpu"), cv2.filter2D(src, -1, k)) <= \
        filter_tol(dtype, dtype, 9.0)


def test_gaussian_kernel_matches_get_gaussian_kernel():
    for ksize, sigma in ((3, 0.0), (5, 1.2), (9, 0.0), (15, 3.0)):
        ours = texcv.gaussian_kernel(ksize, sigma)
        theirs = cv2.getGaussianKernel(ksize, sigma, cv2.CV_32F).reshape(-1)
        # OpenCV's fixed tables (sigma <= 0, size <= 9) are identical; elsewhere OpenCV 4.6
        # evaluates exp in software double: relative 1e-6.
        if sigma <= 0 and ksize <= 9:
            assert np.array_equal(ours, theirs), (ksize, sigma)
        else:
            assert np.all(np.abs(ours - theirs) <= 1e-6 * theirs), (ksize, sigma)


@pytest.mark.parametrize("kind", ["random", "coffee.png"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ch", (1, 3))
def test_derivatives_float_output(kind, dtype, ch):
    src = source(kind, dtype, ch)
    for dx, dy, ksize, sk in ((1, 0, 3, 8), (0, 1, 5, 64), (2, 0, 3, 16), (1, 1, 3, 4)):
        ours = texcv.sobel(src, dx, dy, ksize, dtype="float32", device="cpu")
        theirs = cv2.Sobel(src, cv2.CV_32F, dx, dy, ksize=ksize)
        assert max_diff(ours, theirs) <= filter_tol(dtype, "float32", sk), (dx, dy, ksize)
    for dx, dy in ((1, 0), (0, 1)):
        ours = texcv.scharr(src, dx, dy, dtype="float32", device="cpu")
        theirs = cv2.Scharr(src, cv2.CV_32F, dx, dy)
        assert max_diff(ours, theirs) <= filter_tol(dtype, "float32", 32 * 2 * 2.0)
    for ksize, sk in ((1, 8), (3, 16)):
        ours = texcv.laplacian(src, ksize, dtype="float32", device="cpu")
        theirs = cv2.Laplacian(src, cv2.CV_32F, ksize=ksize)
        assert max_diff(ours, theirs) <= filter_tol(dtype, "float32", sk * 1.5)
    # Source type output: saturated like OpenCV's ddepth = -1.
    ours = texcv.sobel(src, 1, 0, device="cpu")
    assert max_diff(ours, cv2.Sobel(src, -1, 1, 0)) <= filter_tol(dtype, dtype, 8)


# ---- non-linear filters and morphology -----------------------------------------------------


@pytest.mark.parametrize("kind", ["random", "coffee.png"])
@pytest.mark.parametrize("ch", CHANNELS)
def test_median_identical(kind, ch):
    for dtype, sizes in (("uint8", (3, 5, 7)), ("uint16", (3, 5)), ("float32", (3, 5))):
        src = source(kind, dtype, ch)
        for k in sizes:
            assert np.array_equal(texcv.median_blur(src, k, device="cpu"),
                                  cv2.medianBlur(src, k)), (dtype, k)


@pytest.mark.parametrize("kind", ["random", "coffee.png"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ch", CHANNELS)
def test_morphology_identical(kind, dtype, ch):
    src = source(kind, dtype, ch)
    shapes = {"rect": cv2.MORPH_RECT, "ellipse": cv2.MORPH_ELLIPSE, "cross": cv2.MORPH_CROSS}
    for shape, cv_shape in shapes.items():
        el = cv2.getStructuringElement(cv_shape, (5, 3))
        assert np.array_equal(texcv.structuring_element(shape, 5, 3), el)
        assert np.array_equal(texcv.erode(src, 5, ksize_y=3, shape=shape, device="cpu"),
                              cv2.erode(src, el))
        assert np.array_equal(texcv.dilate(src, 5, ksize_y=3, shape=shape, iterations=2,
                                           device="cpu"),
                              cv2.dilate(src, el, iterations=2))
        for op, cv_op in (("open", cv2.MORPH_OPEN), ("close", cv2.MORPH_CLOSE),
                          ("gradient", cv2.MORPH_GRADIENT), ("tophat", cv2.MORPH_TOPHAT),
                          ("blackhat", cv2.MORPH_BLACKHAT)):
            assert np.array_equal(texcv.morphology(src, op, 5, ksize_y=3, shape=shape,
                                                   device="cpu"),
                                  cv2.morphologyEx(src, cv_op, el)), (shape, op)
    assert np.array_equal(
        texcv.erode(src, 3, border="replicate", device="cpu"),
        cv2.erode(src, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_REPLICATE))


# ---- colour and intensity ------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_cvt_color(kind):
    for dtype in DTYPES:
        rgb = source(kind, dtype, 3)
        gray = texcv.cvt_color(rgb, "rgb2gray", device="cpu")
        ref = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        # u8: the same 15-bit fixed point, bit-exact; u16: OpenCV 4.6 truncates each term (2
        # levels); f32: a fused multiply-add in OpenCV's SIMD path (1e-6).
        bound = {"uint8": 0, "uint16": 2, "float32": 1e-6}[dtype]
        assert max_diff(gray, ref) <= bound, dtype
        assert np.array_equal(texcv.cvt_color(rgb, "rgb2bgr", device="cpu"),
                              cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
        assert np.array_equal(texcv.cvt_color(gray, "gray2rgb", device="cpu"),
                              cv2.cvtColor(gray, cv2.COLOR_GRAY2RGB))
    rgb = source(kind, "uint8", 3)
    hsv = texcv.cvt_color(rgb, "rgb2hsv", device="cpu")
    ref = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    dh = np.abs(hsv[..., 0].astype(int) - ref[..., 0].astype(int))
    dh = np.minimum(dh, 180 - dh)  # hue is circular: 179 is next to 0
    # OpenCV's u8 H and S come from 12-bit fixed point with tables; texcv rounds floats once.
    assert dh.max() <= 1 and max_diff(hsv[..., 1:], ref[..., 1:]) <= 1


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ch", CHANNELS)
def test_threshold_identical(dtype, ch):
    src = source("random", dtype, ch)
    mx = FULL[dtype]
    types = {"binary": cv2.THRESH_BINARY, "binary_inv": cv2.THRESH_BINARY_INV,
             "trunc": cv2.THRESH_TRUNC, "tozero": cv2.THRESH_TOZERO,
             "tozero_inv": cv2.THRESH_TOZERO_INV}
    for name, cv_type in types.items():
        for frac in (-0.1, 0.3, 1.2):
            th = frac * mx + (0.0031 if dtype == "float32" else 0.7)
            used, ours = texcv.threshold(src, th, 0.8 * mx + 0.4, name, device="cpu")
            rr, theirs = cv2.threshold(src, th, 0.8 * mx + 0.4, cv_type)
            assert used == rr
            assert np.array_equal(ours, theirs), (name, frac)


@pytest.mark.parametrize("kind", ["coffee.png", "camera.png", "astronaut.png", "random"])
def test_otsu_equalize_clahe(kind):
    src = source(kind, "uint8", 1)
    used, ours = texcv.threshold(src, 0, 255, "otsu", device="cpu")
    rr, theirs = cv2.threshold(src, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    assert used == rr and np.array_equal(ours, theirs)
    assert np.array_equal(texcv.equalize_hist(src, device="cpu"), cv2.equalizeHist(src))
    for dtype in ("uint8", "uint16"):
        s = source(kind, dtype, 1)
        for clip, tx, ty in ((40.0, 8, 8), (2.0, 4, 4), (3.0, 7, 5)):
            if s.shape[0] < ty or s.shape[1] < tx:
                continue
            ours = texcv.clahe(s, clip, tx, ty, device="cpu")
            theirs = cv2.createCLAHE(clip, (tx, ty)).apply(s)
            # Same tables; the float blend of four entries may order differently: 1 level.
            assert max_diff(ours, theirs) <= 1, (dtype, clip, tx, ty)


@pytest.mark.parametrize("dtype,bins,lo,hi", [("uint8", 256, 0, 256), ("uint8", 10, 20, 200),
                                               ("uint16", 64, 0, 65536),
                                               ("float32", 33, 0.1, 0.9)])
def test_histogram_identical(dtype, bins, lo, hi):
    src = source("random", dtype, 3)
    h = texcv.histogram(src, bins, (lo, hi), device="cpu")
    assert h.shape == (3, bins) and h.dtype == np.uint64
    for c in range(3):
        ref = cv2.calcHist([src], [c], None, [bins], [lo, hi]).reshape(-1)
        assert np.array_equal(h[c].astype(np.float64), ref.astype(np.float64)), c
    gray = src[..., 0].copy()
    assert texcv.histogram(gray, bins, (lo, hi), device="cpu").shape == (bins,)


@pytest.mark.parametrize("dtype", DTYPES)
def test_convert_and_normalize(dtype):
    src = source("coffee.png", dtype, 3)
    for out in DTYPES:
        ours = texcv.convert(src, out, scale=0.37, offset=5.0, device="cpu")
        # cv::Mat::convertTo has no Python binding in 4.6: the reference is its formula in numpy,
        # float32 arithmetic, rounded half to even and saturated.
        f = src.astype(np.float32) * np.float32(0.37) + np.float32(5.0)
        if out == "float32":
            ref = f
        else:
            info = np.iinfo(out)
            ref = np.clip(np.rint(f), info.min, info.max).astype(out)
        # A fused multiply-add at ties moves integers by 1 level; f32 by 2 ulps of the largest.
        big = max(float(np.abs(f).max()), 1.0)
        bound = 2 * big * 2.0 ** -23 if out == "float32" else 1.0
        assert ours.dtype == np.dtype(out)
        assert max_diff(ours, ref) <= bound, out
    ours = texcv.normalize(src.astype(np.float32), alpha=-2, beta=3, device="cpu")
    ref = cv2.normalize(src.astype(np.float32), None, -2, 3, cv2.NORM_MINMAX)
    assert max_diff(ours, ref) <= 1e-6  # outputs in [-2, 3]: a few ulps of 3
