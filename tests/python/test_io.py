"""texcv.imread / texcv.imwrite through the C++ codecs, against OpenCV's decoders."""

from __future__ import annotations

import re
import struct
from pathlib import Path

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


# ---- TIFF output compression (texcv::WriteOptions::tiff_compression / tiff_level) -----------

TIFF_COMPRESSIONS = ("none", "deflate", "zstd", "lzw", "packbits", "lzma")
# The Compression tag (259) values texcv writes: deflate as Adobe Deflate (8), as libtiff and
# libvips do.
TIFF_COMPRESSION_TAG = {"none": 1, "lzw": 5, "deflate": 8, "packbits": 32773, "lzma": 34925,
                        "zstd": 50000}
A8 = random_image(40, 30, 3, "uint8", seed=3)


def tiff_tags(path) -> dict[int, int]:
    """The single-valued SHORT/LONG tags of a classic TIFF's first IFD, read with struct (no
    TIFF reader in the test requirements): {tag: value}."""
    data = Path(path).read_bytes()
    order = {b"II": "<", b"MM": ">"}[data[:2]]
    magic, ifd = struct.unpack_from(order + "HI", data, 2)
    assert magic == 42, f"not a classic TIFF: magic {magic}"
    (n,) = struct.unpack_from(order + "H", data, ifd)
    tags = {}
    for k in range(n):
        tag, typ, count = struct.unpack_from(order + "HHI", data, ifd + 2 + 12 * k)
        if count == 1 and typ == 3:  # SHORT, left-justified in the value field
            (tags[tag],) = struct.unpack_from(order + "H", data, ifd + 10 + 12 * k)
        elif count == 1 and typ == 4:  # LONG
            (tags[tag],) = struct.unpack_from(order + "I", data, ifd + 10 + 12 * k)
    return tags


def need_tiff_compression(name: str) -> None:
    need_format_of("x.tif")
    have = texcv.info()["tiff_compressions"]
    if name not in have:
        pytest.skip(f"the linked libtiff has no {name} encoder (it writes {', '.join(have)})")


def test_info_lists_the_tiff_compressions():
    have = texcv.info()["tiff_compressions"]
    assert isinstance(have, list) and set(have) <= set(TIFF_COMPRESSIONS)
    if "tiff" in texcv.info()["formats"]:
        # none always; deflate, lzw and packbits are built into every libtiff.
        assert {"none", "deflate", "lzw", "packbits"} <= set(have)
        assert have == [c for c in TIFF_COMPRESSIONS if c in have]  # declaration order
    else:
        assert have == []


@pytest.mark.parametrize("ch", [1, 3, 4])
@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32"])
@pytest.mark.parametrize("comp", TIFF_COMPRESSIONS)
def test_tiff_compression_round_trips_and_is_tagged(tmp_path, comp, dtype, ch):
    need_tiff_compression(comp)
    img = random_image(67, 45, ch, dtype, seed=7 + ch)
    # Smooth rows too, so that the predictor and the dictionary codecs have runs to work on.
    img[:20] = img[:1]
    path = tmp_path / "x.tif"
    texcv.imwrite(path, img, tiff_compression=comp)
    back = texcv.imread(path)
    assert back.dtype == img.dtype and back.shape == img.shape
    assert np.array_equal(back, img)  # every TIFF compression is lossless
    tags = tiff_tags(path)
    assert tags[259] == TIFF_COMPRESSION_TAG[comp]
    assert (tags[256], tags[257], tags[277]) == (67, 45, ch)  # width, height, samples


def test_tiff_unsupported_compression_is_the_library_error(tmp_path):
    need_format_of("x.tif")
    have = texcv.info()["tiff_compressions"]
    missing = [c for c in TIFF_COMPRESSIONS if c not in have]
    if not missing:
        pytest.skip("the linked libtiff writes every TIFF compression")
    for comp in missing:
        with pytest.raises(texcv.UnsupportedError,
                           match=rf"^imwrite: the linked libtiff \(.+\) has no {comp} encoder; "
                                 rf"it writes {re.escape(', '.join(have))}$"):
            texcv.imwrite(tmp_path / "x.tif", A8, tiff_compression=comp)
    assert not list(tmp_path.iterdir())


def test_tiff_default_is_uncompressed_and_zip_is_deflate(tmp_path):
    need_tiff_compression("deflate")
    texcv.imwrite(tmp_path / "a.tif", A8)
    assert tiff_tags(tmp_path / "a.tif")[259] == 1
    texcv.imwrite(tmp_path / "b.tif", A8, tiff_compression="zip")
    assert tiff_tags(tmp_path / "b.tif")[259] == 8
    assert np.array_equal(texcv.imread(tmp_path / "b.tif"), A8)


@pytest.mark.parametrize("comp,levels", [("deflate", (1, 6, 9)), ("zstd", (1, 3, 22)),
                                         ("lzma", (1, 9))])
def test_tiff_levels_round_trip_and_compress(tmp_path, comp, levels):
    need_tiff_compression(comp)
    photo = texcv.imread(EXAMPLES / "coffee.png")
    texcv.imwrite(tmp_path / "none.tif", photo)
    raw = (tmp_path / "none.tif").stat().st_size
    for level in levels:
        path = tmp_path / f"{comp}{level}.tif"
        texcv.imwrite(path, photo, tiff_compression=comp, tiff_level=level)
        assert np.array_equal(texcv.imread(path), photo)
        assert tiff_tags(path)[259] == TIFF_COMPRESSION_TAG[comp]
        assert path.stat().st_size < 0.9 * raw, (comp, level)


def test_tiff_compression_of_a_pitched_view(tmp_path):
    need_tiff_compression("zstd")
    img = random_image(50, 40, 4, "uint16", seed=5)
    roi = img[4:36, 3:47]
    texcv.imwrite(tmp_path / "roi.tif", roi, tiff_compression="zstd", tiff_level=5)
    assert np.array_equal(texcv.imread(tmp_path / "roi.tif"), roi)


def test_deprecated_tiff_compress(tmp_path):
    need_tiff_compression("deflate")
    # False forces uncompressed whatever tiff_compression says; True leaves it in charge.
    texcv.imwrite(tmp_path / "off.tif", A8, tiff_compression="deflate", tiff_compress=False)
    assert tiff_tags(tmp_path / "off.tif")[259] == 1
    assert np.array_equal(texcv.imread(tmp_path / "off.tif"), A8)
    texcv.imwrite(tmp_path / "on.tif", A8, tiff_compression="deflate", tiff_compress=True)
    assert tiff_tags(tmp_path / "on.tif")[259] == 8
    texcv.imwrite(tmp_path / "old.tif", A8, tiff_compress=True)  # the old call: now none
    assert tiff_tags(tmp_path / "old.tif")[259] == 1


def test_tiff_bad_compression_name(tmp_path):
    for bad in ("jpeg", "ZSTD", ""):
        with pytest.raises(texcv.InvalidArgumentError,
                           match="^" + re.escape(
                               f"parse_tiff_compression: unknown TIFF compression; got '{bad}', "
                               "expected one of none, deflate, zstd, lzw, packbits, lzma") + "$"):
            texcv.imwrite(tmp_path / "x.tif", A8, tiff_compression=bad)
    assert not list(tmp_path.iterdir())  # nothing written, no temporary left


@pytest.mark.parametrize("comp,level,message", [
    ("deflate", 10, "tiff_level out of range for deflate; got 10, expected 0 (default) or 1..9"),
    ("zstd", 23, "tiff_level out of range for zstd; got 23, expected 0 (default) or 1..22"),
    ("zstd", -1, "tiff_level out of range for zstd; got -1, expected 0 (default) or 1..22"),
    ("lzma", 10, "tiff_level out of range for lzma; got 10, expected 0 (default) or 1..9"),
    ("lzw", 3, "tiff_level: TIFF compression lzw has no level; got 3, expected 0"),
    ("packbits", 1, "tiff_level: TIFF compression packbits has no level; got 1, expected 0"),
    ("none", 5, "tiff_level: TIFF compression none has no level; got 5, expected 0"),
])
def test_tiff_bad_level(tmp_path, comp, level, message):
    need_tiff_compression(comp)
    with pytest.raises(texcv.InvalidArgumentError, match="^" + re.escape("imwrite: " + message)
                       + "$"):
        texcv.imwrite(tmp_path / "x.tif", A8, tiff_compression=comp, tiff_level=level)
    assert not list(tmp_path.iterdir())


def test_corrupt_jpeg_raises_unless_allowed(tmp_path):
    # All-ones bits in the middle of the scan (FF 00 is a stuffed FF) are no Huffman code.
    data = bytearray((TEST_IMAGES / "hubble_deep_field.jpg").read_bytes())
    mid = len(data) // 2
    data[mid:mid + 64] = b"\xff\x00" * 32
    path = tmp_path / "bad.jpg"
    path.write_bytes(bytes(data))
    with pytest.raises(texcv.IoError,
                       match=re.escape(f"imread: {path}: Corrupt JPEG data: bad Huffman code")):
        texcv.imread(path)
    img = texcv.imread(path, allow_corrupt=True)
    assert img.shape == (872, 1000, 3) and img.dtype == np.uint8
    assert texcv.read_info(path)["pages"] == 1  # the header is intact


def test_imread_pixel_cap_refuses_from_the_header(tmp_path):
    # coffee.png is 600 x 400 = 240,000 pixels: refused under a cap of 239,999, read at 240,000.
    with pytest.raises(texcv.IoError, match=r"more than the pixel cap.*240000 pixels.*239999"):
        texcv.imread(EXAMPLES / "coffee.png", max_pixels=239_999)
    assert texcv.imread(EXAMPLES / "coffee.png", max_pixels=240_000).shape == (400, 600, 3)
    assert texcv.imread(EXAMPLES / "coffee.png", max_pixels=0).shape == (400, 600, 3)
