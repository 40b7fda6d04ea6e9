"""texcv.resize's two forms against cv2.resize (opencv-python-headless 4.6): the factor form
(fx/fy/scale, cv2.resize(img, None, fx=, fy=)) and the size form (the dsize tuple, width/height),
on odd and even sizes, factors below and above 1, every interpolation, u8/u16/f32. Bounds as in
tests/cpp/opencv/test_resize_factors_opencv.cpp: nearest identical, others 1 level (u8/u16) or
1e-5 (f32)."""

from __future__ import annotations

import numpy as np
import pytest

import texcv
from conftest import CHANNELS, DTYPES, max_diff, photo, random_image

cv2 = pytest.importorskip("cv2", reason="opencv-python-headless is not installed")
if not cv2.__version__.startswith("4.6."):
    pytest.skip(f"the bounds are for OpenCV 4.6; this Python has OpenCV {cv2.__version__}",
                allow_module_level=True)

INTERPS = ("nearest", "linear", "cubic", "area")
# texcv's nearest is cv2.INTER_NEAREST_EXACT (which maps by the sizes, ignoring the factors).
CV_FLAG = {"nearest": cv2.INTER_NEAREST_EXACT, "linear": cv2.INTER_LINEAR,
           "cubic": cv2.INTER_CUBIC, "area": cv2.INTER_AREA}
# (w, h): odd and even photographs and random data.
SIZES = {"photo-odd": (159, 119), "photo-even": (160, 120), "random-odd": (61, 47),
         "random-even": (60, 46)}
FACTORS = [(0.5, 0.5), (0.3, 0.3), (0.7, 0.7), (1.5, 1.5), (2.5, 2.5), (0.5, 1.7), (1.3, 0.45)]


def bound(interp: str, dtype: str) -> float:
    if interp == "nearest":
        return 0.0
    return 1e-5 if dtype == "float32" else 1.0


def make(kind: str, dtype: str, ch: int) -> np.ndarray:
    w, h = SIZES[kind]
    if kind.startswith("photo"):
        return photo("astronaut.png" if ch != 1 else "camera.png", dtype, ch, w, h)
    return random_image(w, h, ch, dtype, seed=5 + ch)


@pytest.mark.parametrize("kind", list(SIZES))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ch", CHANNELS)
def test_fx_fy_match_cv2(kind, dtype, ch):
    src = make(kind, dtype, ch)
    for fx, fy in FACTORS:
        for ip in INTERPS:
            ours = texcv.resize(src, fx=fx, fy=fy, interp=ip, device="cpu")
            theirs = cv2.resize(src, None, fx=fx, fy=fy, interpolation=CV_FLAG[ip])
            assert ours.shape == theirs.shape, (kind, fx, fy, ip)
            assert max_diff(ours, theirs) <= bound(ip, dtype), (kind, fx, fy, ip)


@pytest.mark.parametrize("kind", list(SIZES))
@pytest.mark.parametrize("dtype", DTYPES)
def test_scale_and_dsize_forms_match_cv2(kind, dtype):
    src = make(kind, dtype, 3)
    for ip in INTERPS:
        for s in (0.5, 0.3, 1.5):
            ours = texcv.resize(src, scale=s, interp=ip, device="cpu")
            theirs = cv2.resize(src, None, fx=s, fy=s, interpolation=CV_FLAG[ip])
            assert max_diff(ours, theirs) <= bound(ip, dtype), (kind, s, ip)
            # cv2's (0, 0) dsize with factors.
            ours0 = texcv.resize(src, (0, 0), fx=s, fy=s, interp=ip, device="cpu")
            assert max_diff(ours0, theirs) <= bound(ip, dtype), (kind, s, ip)
        # One factor: the other axis keeps its size (cv2 with the other factor 1).
        ours = texcv.resize(src, fx=0.5, interp=ip, device="cpu")
        theirs = cv2.resize(src, None, fx=0.5, fy=1.0, interpolation=CV_FLAG[ip])
        assert max_diff(ours, theirs) <= bound(ip, dtype), (kind, "fx only", ip)
        # The size form: the dsize tuple as cv2, and width/height keywords.
        for dw, dh in ((37, 29), (201, 77)):
            theirs = cv2.resize(src, (dw, dh), interpolation=CV_FLAG[ip])
            for ours in (texcv.resize(src, (dw, dh), interp=ip, device="cpu"),
                         texcv.resize(src, width=dw, height=dh, interp=ip, device="cpu"),
                         texcv.resize(src, dw, dh, interp=ip, device="cpu")):
                assert max_diff(ours, theirs) <= bound(ip, dtype), (kind, dw, dh, ip)


def test_resize_into_with_factors():
    src = photo("astronaut.png", "uint8", 3, 159, 119)
    theirs = cv2.resize(src, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    dst = np.zeros_like(theirs)
    out = texcv.resize_into(dst, src, fx=0.5, fy=0.5, interp="area", device="cpu")
    assert out is dst
    assert max_diff(dst, theirs) <= 1
    with pytest.raises(texcv.InvalidArgumentError,
                       match=r"resize: destination width does not match fx; got 81 \(fx 0.5 on "
                             r"width 159\), expected 80, round\(width \* fx\) as cv::resize"):
        texcv.resize_into(np.zeros((60, 81, 3), np.uint8), src, fx=0.5, fy=0.5, device="cpu")


def test_odd_sides_differ_between_the_forms():
    # What the factor form fixes: 159 * 0.5 rounds to 80, and the size ratio 159 / 80 is not 2.
    src = photo("astronaut.png", "uint8", 3, 159, 119)
    by_factor = texcv.resize(src, fx=0.5, fy=0.5, device="cpu")
    by_size = texcv.resize(src, by_factor.shape[1], by_factor.shape[0], device="cpu")
    assert by_factor.shape == by_size.shape == (60, 80, 3)
    assert max_diff(by_factor, by_size) > 20


def test_bad_dsize_and_factors():
    a = np.zeros((7, 9), np.uint8)
    cases = [
        (lambda: texcv.resize(a, (5,)), "resize: dsize must be a pair of integers (width, height); "
         "got (5,), expected (width, height) with both > 0, or (0, 0) with fx/fy"),
        (lambda: texcv.resize(a, (5, 2.5)), "resize: dsize must be a pair of integers (width, "
         "height); got (5, 2.5), expected (width, height) with both > 0, or (0, 0) with fx/fy"),
        (lambda: texcv.resize(a, (5, 0)), "resize: dsize must be positive; got (5, 0), expected "
         "(width, height) with both > 0, or (0, 0) with fx/fy"),
        (lambda: texcv.resize(a, (-5, 3)), "resize: dsize must be positive; got (-5, 3), "
         "expected (width, height) with both > 0, or (0, 0) with fx/fy"),
        (lambda: texcv.resize(a, (0, 0)), "resize: dsize (0, 0) needs fx and/or fy; got (0, 0), "
         "expected fx=X and/or fy=Y, as cv2.resize(src, (0, 0), fx=X, fy=Y)"),
        (lambda: texcv.resize(a, (5, 4), 3), "resize: dsize and height cannot be combined; got "
         "(5, 4) with height=3, expected dsize=(width, height) alone"),
        (lambda: texcv.resize(a, fx=-0.5), "resize: parameter 'fx' is out of range; got fx=-0.5, "
         "expected a number > 0"),
        (lambda: texcv.resize(a, fx=0.05), "resize: the output size is empty; got fx=0.05 on a "
         "9x7 image gives 0x7, expected an output of at least 1x1"),
    ]
    for f, msg in cases:
        with pytest.raises(texcv.InvalidArgumentError) as e:
            f()
        assert str(e.value) == msg
    with pytest.raises(texcv.InvalidArgumentError, match="cannot be combined"):
        texcv.resize(a, (5, 4), fx=0.5)
