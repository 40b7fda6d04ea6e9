"""float32 results of the public Python API against scipy.ndimage, with the border modes mapped
by CONVENTIONS.md's table, within its bound (relative 1e-5: 1e-5 of the [0, 1] data range, times
sum |k| for filters). Integer-valued results (median, morphology) are identical."""

from __future__ import annotations

import numpy as np
import pytest

import texcv
from conftest import max_diff, source

ndi = pytest.importorskip("scipy.ndimage", reason="scipy is not installed")

BORDERS = ["constant", "replicate", "reflect", "reflect101", "wrap"]
# CONVENTIONS.md: scipy.ndimage modes for filters / for interpolation.
FILTER_MODE = {"constant": "constant", "replicate": "nearest", "reflect": "reflect",
               "reflect101": "mirror", "wrap": "wrap"}
INTERP_MODE = {"constant": "grid-constant", "replicate": "nearest", "reflect": "reflect",
               "reflect101": "mirror", "wrap": "grid-wrap"}
KINDS = ["random", "coffee.png", "astronaut.png"]


def per_channel(img: np.ndarray, f) -> np.ndarray:
    if img.ndim == 2:
        return f(img)
    return np.dstack([f(img[..., c]) for c in range(img.shape[2])])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("border", BORDERS)
def test_convolve_vs_correlate(kind, border):
    src = source(kind, "float32", 3)
    k = np.random.default_rng(11).uniform(-1, 1, (5, 3)).astype(np.float32)
    ours = texcv.convolve(src, k, border=border, border_value=0.25, device="cpu")
    ref = per_channel(src.astype(np.float64), lambda p: ndi.correlate(
        p, k.astype(np.float64), mode=FILTER_MODE[border], cval=0.25))
    assert max_diff(ours, ref) <= 1e-5 * np.abs(k).sum()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("border", BORDERS)
def test_gaussian_blur_vs_gaussian_filter(kind, border):
    src = source(kind, "float32", 1)
    for radius, sigma in ((2, 1.0), (4, 1.7)):
        ours = texcv.gaussian_blur(src, 2 * radius + 1, sigma, border=border, device="cpu")
        ref = ndi.gaussian_filter(src.astype(np.float64), sigma, mode=FILTER_MODE[border],
                                  radius=radius)
        assert max_diff(ours, ref) <= 1e-5, (radius, sigma)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("border", BORDERS)
def test_warp_affine_vs_affine_transform(kind, border):
    src = source(kind, "float32", 1)
    # Destination (x, y) -> source (x', y'); dyadic coefficients, so coordinates are exact in
    # float32 on both sides. scipy's matrix works in (row, column) order.
    inv = np.array([[1.25, 0.25, -20.375], [-0.125, 1.125, -15.5]])
    h, w = src.shape
    ours = texcv.warp_affine(src, inv, inverse_map=True, width=w + 20, height=h + 10,
                             interp="linear", border=border, border_value=0.5, device="cpu")
    rc = np.array([[inv[1, 1], inv[1, 0]], [inv[0, 1], inv[0, 0]]])
    ref = ndi.affine_transform(src.astype(np.float64), rc, offset=(inv[1, 2], inv[0, 2]),
                               output_shape=(h + 10, w + 20), order=1,
                               mode=INTERP_MODE[border], cval=0.5)
    assert max_diff(ours, ref) <= 1e-5


@pytest.mark.parametrize("border", ["constant", "replicate", "reflect101"])
def test_remap_vs_map_coordinates(border):
    src = source("coffee.png", "float32", 1)
    rng = np.random.default_rng(5)
    h, w = 50, 70
    mx = (rng.integers(-4 * 32, (src.shape[1] + 4) * 32, (h, w)) / 32).astype(np.float32)
    my = (rng.integers(-4 * 32, (src.shape[0] + 4) * 32, (h, w)) / 32).astype(np.float32)
    ours = texcv.remap(src, mx, my, interp="linear", border=border, device="cpu")
    ref = ndi.map_coordinates(src.astype(np.float64), [my, mx], order=1,
                              mode=INTERP_MODE[border], cval=0.0)
    assert max_diff(ours, ref) <= 1e-5


def test_resize_linear_vs_zoom_grid_mode():
    src = source("coffee.png", "float32", 1)
    h, w = src.shape
    ours = texcv.resize(src, 2 * w, 2 * h, interp="linear", device="cpu")
    # grid_mode=True: pixel centres, as cv2.resize; mode "nearest" = texcv's replicate default.
    ref = ndi.zoom(src.astype(np.float64), 2, order=1, grid_mode=True, mode="nearest")
    assert max_diff(ours, ref) <= 1e-5


@pytest.mark.parametrize("kind", ["random", "coffee.png"])
def test_median_and_morphology_identical(kind):
    src = source(kind, "float32", 1)
    assert np.array_equal(texcv.median_blur(src, 5, device="cpu"),
                          ndi.median_filter(src, size=5, mode="nearest"))
    fp = texcv.structuring_element("ellipse", 5, 5).astype(bool)
    assert np.array_equal(texcv.erode(src, 5, shape="ellipse", border="replicate",
                                      device="cpu"),
                          ndi.grey_erosion(src, footprint=fp, mode="nearest"))
    assert np.array_equal(texcv.dilate(src, 3, border="reflect101", device="cpu"),
                          ndi.grey_dilation(src, size=(3, 3), mode="mirror"))
