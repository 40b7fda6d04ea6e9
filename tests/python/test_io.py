"""texcv.imread / texcv.imwrite through the C++ codecs, against OpenCV's decoders."""

from __future__ import annotations

import numpy as np
import pytest

import texcv
from conftest import EXAMPLES, TEST_IMAGES, random_image

cv2 = pytest.importorskip("cv2", reason="opencv-python-headless is not installed")


def cv_read_rgb(path):
    m = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if m.ndim == 3 and m.shape[2] == 3:
        m = cv2.cvtColor(m, cv2.COLOR_BGR2RGB)
    elif m.ndim == 3 and m.shape[2] == 4:
        m = cv2.cvtColor(m, cv2.COLOR_BGRA2RGBA)
    return m


def need_format_of(name: str) -> None:
    """Skips (with the reason) a TIFF case on a build without libtiff (the GPU machine has no
    libtiff; CI's build has it, so there the TIFF cases run)."""
    if name.endswith((".tif", ".tiff")) and "tiff" not in texcv.info()["formats"]:
        pytest.skip(f"this texcv build has no TIFF codec (formats: {texcv.info()['formats']}); "
                    "built without libtiff")


@pytest.mark.parametrize("name", ["camera.png", "chelsea.png", "coffee.png",
                                  "chessboard_GRAY_U16.tif"])
def test_sample_images_decode_as_opencv(name):
    need_format_of(name)
    path = EXAMPLES / name
    img = texcv.imread(path)
    ref = cv_read_rgb(path)
    assert img.dtype == ref.dtype and img.shape == ref.shape
    assert np.array_equal(img, ref)  # lossless formats: identical
    info = texcv.read_info(path)
    assert (info["height"], info["width"]) == img.shape[:2]
    assert info["dtype"] == str(img.dtype)


def test_jpeg_sample_reads():
    path = EXAMPLES / "rocket.jpg"
    img = texcv.imread(path)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert texcv.read_info(path)["format"] == "jpeg"


@pytest.mark.parametrize("ext,dtype,ch", [("png", "uint8", 1), ("png", "uint8", 3),
                                          ("png", "uint16", 4), ("tif", "uint16", 1),
                                          ("tif", "float32", 3)])
def test_lossless_round_trip_and_opencv_reads_it(tmp_path, ext, dtype, ch):
    need_format_of(f"x.{ext}")
    img = random_image(33, 21, ch, dtype, seed=ch)
    path = tmp_path / f"x.{ext}"
    texcv.imwrite(path, img)
    back = texcv.imread(path)
    assert np.array_equal(back, img)
    assert np.array_equal(cv_read_rgb(path), img)


def test_jpeg_write_is_readable(tmp_path):
    img = texcv.imread(EXAMPLES / "coffee.png")
    path = tmp_path / "x.jpg"
    texcv.imwrite(path, img, jpeg_quality=95)
    back = texcv.imread(path)
    ref = cv_read_rgb(path)
    assert back.shape == img.shape
    # Both decoders read the same file; lossy quality 95 keeps the mean error small.
    assert np.abs(back.astype(int) - img.astype(int)).mean() < 3
    assert np.abs(back.astype(int) - ref.astype(int)).max() <= 1


def test_imwrite_accepts_pitched_views(tmp_path):
    img = random_image(40, 30, 3, "uint8", 1)
    texcv.imwrite(tmp_path / "roi.png", img[5:25, 3:33])
    assert np.array_equal(texcv.imread(tmp_path / "roi.png"), img[5:25, 3:33])


@pytest.mark.parametrize("name", ["astronaut.png", "brick.png", "hubble_deep_field.jpg"])
def test_test_images_decode_as_opencv(name):
    img = texcv.imread(TEST_IMAGES / name)
    assert np.array_equal(img, cv_read_rgb(TEST_IMAGES / name))
