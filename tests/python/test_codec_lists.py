"""texcv.decode / texcv.encode (issue 19, item 3): one item raises on failure; a list returns a
result and a status per item, a bad item reported, not raised. Lists decode through the batch
engine (on the GPU with nvJPEG on the GPU machine; those tests skip elsewhere with the reason)."""

from __future__ import annotations

import numpy as np
import pytest

import texcv
from conftest import EXAMPLES, need_gpu

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def sample():
    return texcv.imread(EXAMPLES / "coffee.png")


def test_encode_then_decode_one_image_is_lossless_for_png():
    a = sample()
    data = texcv.encode(a, "png", png_compression=1)
    assert isinstance(data, bytes) and data.startswith(PNG_SIGNATURE)
    np.testing.assert_array_equal(texcv.decode(data), a)
    np.testing.assert_array_equal(texcv.decode(bytearray(data)), a)
    # The bytes imwrite writes, byte for byte.
    u16 = (np.arange(12 * 7, dtype=np.uint16).reshape(7, 12) * 701)
    assert texcv.decode(texcv.encode(u16, "png")).dtype == np.uint16


def test_one_bad_item_raises():
    with pytest.raises(texcv.IoError):
        texcv.decode(b"not an image")
    with pytest.raises(texcv.UnsupportedError):
        texcv.encode(np.zeros((4, 4), np.float32), "jpeg")
    with pytest.raises(texcv.InvalidArgumentError, match="data must be bytes or a list"):
        texcv.decode(3)
    with pytest.raises(texcv.InvalidArgumentError, match="item 1 is not bytes"):
        texcv.decode([b"", "text"])


def test_decode_list_reports_bad_items_and_decodes_the_others(tmp_path):
    a = sample()
    png = texcv.encode(a, "png")
    jpg = (EXAMPLES / "rocket.jpg").read_bytes()
    items = [png, b"GIF89a not supported", jpg[: len(jpg) // 3], jpg, b""]
    arrays, statuses = texcv.decode(items, device="cpu")
    assert len(arrays) == len(statuses) == len(items)
    assert [s["status"] for s in statuses] == ["ok", "failed", "failed", "ok", "failed"]
    np.testing.assert_array_equal(arrays[0], a)
    np.testing.assert_array_equal(arrays[3], texcv.imread(EXAMPLES / "rocket.jpg"))
    for i in (1, 2, 4):
        assert arrays[i] is None
        assert statuses[i]["stage"] == "read" and statuses[i]["error"], statuses[i]
    assert "signature" in statuses[1]["error"] or "PNG" in statuses[1]["error"], statuses[1]
    assert statuses[0]["device"] == "cpu" and statuses[0]["bytes"] == len(png)
    # allow_corrupt: what the decoder recovers of the truncated JPEG, status "corrupt".
    arrays, statuses = texcv.decode([jpg[: len(jpg) // 3]], device="cpu", allow_corrupt=True)
    assert statuses[0]["status"] == "corrupt" and arrays[0] is not None
    assert arrays[0].shape == texcv.imread(EXAMPLES / "rocket.jpg").shape
    # max_pixels: refused from the header.
    arrays, statuses = texcv.decode([png], device="cpu", max_pixels=1000)
    assert arrays[0] is None and "max" in statuses[0]["error"].lower(), statuses[0]
    assert texcv.decode([], device="cpu") == ([], [])


def test_encode_list_reports_bad_items():
    rgb = sample()
    items = [rgb, np.zeros((5, 5), np.float32), np.zeros((5, 5, 4), np.uint8), rgb[::2, ::2]]
    encoded, statuses = texcv.encode(items, "jpeg", jpeg_quality=90)
    assert [s["status"] for s in statuses] == ["ok", "failed", "failed", "ok"]
    assert encoded[1] is None and encoded[2] is None
    assert "jpeg" in statuses[1]["error"].lower() or "imencode" in statuses[1]["error"]
    for i in (0, 3):
        assert encoded[i][:3] == b"\xff\xd8\xff"
        back = texcv.decode(encoded[i])
        assert back.shape == items[i].shape
        # JPEG at quality 90: close to the source (PSNR over 30 dB).
        err = back.astype(np.float64) - items[i]
        assert 10 * np.log10(255.0**2 / np.mean(err**2)) > 30


def test_gpu_list_decode_uses_nvjpeg():
    need_gpu()
    jpg = (EXAMPLES / "rocket.jpg").read_bytes()
    cpu = texcv.imread(EXAMPLES / "rocket.jpg")
    arrays, statuses = texcv.decode([jpg] * 6 + [b"bad"], device="cuda")
    assert [s["status"] for s in statuses] == ["ok"] * 6 + ["failed"]
    for a, s in zip(arrays[:6], statuses[:6]):
        assert s["device"].startswith("cuda:") and s["decoder"].startswith("nvjpeg"), s
        # nvJPEG's IDCT and upsampling differ from libjpeg-turbo's by a few levels.
        assert np.abs(a.astype(np.int32) - cpu).max() <= 8
