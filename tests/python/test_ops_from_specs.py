"""The operations are made from the C++ registry's specs at import (texcv._ops): every spec has
op and op_into with its parameters (positional or keyword-only as declared, the size-setting
ones left out of op_into), its defaults, its choices as Literal annotations, its docstring, and
the shipped stub says the same. Every op of the typed API is made so, remap (input images),
threshold (a number too), convert (a numpy dtype) and histogram (counts) included: none is
hand-written."""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import texcv
from texcv import _texcv

SPECS = list(_texcv.api_operations())


def py_name(p):
    return "dtype" if p["numpy_dtype"] else p["name"]


def python_default(p):
    d = p["default"]
    if d == "":
        return None
    return {"int": int, "float": float, "bool": lambda v: v == "true",
            "enum": str}.get(p["type"], lambda v: float(v) if "|" not in v else v)(d)


@pytest.mark.parametrize("spec", SPECS, ids=[s["name"] for s in SPECS])
def test_op_and_into_follow_the_spec(spec):
    name = spec["name"]
    if spec["output"] == "counts":
        assert not hasattr(texcv, name + "_into")  # no image to write into
    for into in (False, True) if spec["output"] != "counts" else (False,):
        fn = getattr(texcv, name + ("_into" if into else ""))
        assert fn.__texcv_op__ == name
        sig = inspect.signature(fn).parameters
        lead = ["dst", "src"] if into else ["src"]
        tail = (["dtype"] if spec["float_output"] and not into else []) + ["device", "stream"]
        declared = [p for p in spec["params"] if not (into and p["shapes_output"])]
        assert list(sig) == lead + [py_name(p) for p in declared if p["positional"]] + \
            [py_name(p) for p in declared if not p["positional"]] + tail
        for p in declared:
            got = sig[py_name(p)]
            if p["type"] == "image":
                assert got.default is inspect.Parameter.empty, p["name"]
            kind = (inspect.Parameter.POSITIONAL_OR_KEYWORD if p["positional"]
                    else inspect.Parameter.KEYWORD_ONLY)
            assert got.kind == kind, p["name"]
            if got.default is not inspect.Parameter.empty and p["type"] != "floats":
                assert got.default == python_default(p), p["name"]
            if p["numpy_dtype"]:
                assert got.annotation == "Any", p["name"]  # a numpy dtype: np.float32, "uint8"
            elif p["type"] == "enum":
                assert got.annotation.startswith(
                    "Literal[" + ", ".join(repr(c) for c in p["choices"]) + "]"), p["name"]
        if not into:
            assert fn.__doc__.startswith(spec["doc"].split("\n")[0])
    # The shipped stub has the same Literal choices.
    stub = (Path(texcv.__file__).parent / "__init__.pyi").read_text(encoding="utf-8")
    line = next(s for s in stub.splitlines() if s.startswith(f"def {name}("))
    for p in spec["params"]:
        if p["type"] == "enum" and not p["numpy_dtype"]:
            assert "Literal[" + ", ".join(repr(c) for c in p["choices"]) + "]" in line


def test_a_spec_value_of_the_wrong_type_is_the_registrys_error():
    a = np.zeros((8, 8), np.uint8)
    with pytest.raises(texcv.InvalidArgumentError,
                       match=r"^median_blur: parameter 'ksize' has a bad value; got ksize=2\.5, "
                             r"expected an integer >= 1$"):
        texcv.median_blur(a, 2.5)
    with pytest.raises(texcv.InvalidArgumentError,
                       match=r"^cvt_color: code must be a string; got 3, expected one of its names$"):
        texcv.cvt_color(a, 3)
    # box_filter's and separable_filter's anchors came with the move to the specs: as cv2's.
    cv2 = pytest.importorskip("cv2")
    img = (np.arange(90, dtype=np.uint8).reshape(9, 10) * 7) % 251
    want = cv2.boxFilter(img, -1, (5, 3), anchor=(1, 2), borderType=cv2.BORDER_REFLECT_101)
    got = texcv.box_filter(img, 5, ksize_y=3, anchor_x=1, anchor_y=2, device="cpu")
    assert np.abs(got.astype(int) - want.astype(int)).max() <= 1


def test_the_ops_with_images_a_number_a_dtype_or_counts():
    # Made from their specs like the others, with the calls the hand-written ones had.
    for name in ("remap", "remap_into", "threshold", "threshold_into", "convert", "convert_into",
                 "histogram"):
        assert getattr(texcv, name).__texcv_op__ == name.replace("_into", "")
    img = (np.arange(48 * 40, dtype=np.uint32).reshape(40, 48) * 37 % 251).astype(np.uint8)
    # threshold: (level, image); into: the level. Integer images floor the threshold (OpenCV).
    level, out = texcv.threshold(img, 100.7, 255, device="cpu")
    assert level == 100.0 and out.dtype == np.uint8
    assert np.array_equal(out, np.where(img > 100, 255, 0).astype(np.uint8))
    dst = np.full_like(img, 7)
    assert texcv.threshold_into(dst, img, 100.7, 255, device="cpu") == 100.0
    assert np.array_equal(dst, out)
    # maxval's default is the type's largest level
    assert np.array_equal(texcv.threshold(img, 100, device="cpu")[1], out)
    with pytest.raises(texcv.InvalidArgumentError,
                       match=r"^threshold: parameter 'thresh' is required; got no thresh, "
                             r"expected thresh=<a number>, or type=otsu$"):
        texcv.threshold(img)
    # convert: dtype as numpy's
    f = texcv.convert(img, np.float32, scale=1 / 255, device="cpu")
    assert f.dtype == np.float32 and np.allclose(f, img / 255.0, atol=1e-6)
    assert texcv.convert(img, dtype="uint16", scale=257, device="cpu").max() == int(img.max()) * 257
    # remap: the maps are positional arrays; the output has their size
    mx, my = np.meshgrid(np.arange(30, dtype=np.float32) + 2, np.arange(20, dtype=np.float32) + 3)
    r = texcv.remap(img, mx, my, interp="nearest", device="cpu")
    assert r.shape == (20, 30) and np.array_equal(r, img[3:23, 2:32])
    with pytest.raises(TypeError):
        texcv.remap(img, mx)  # map_y is required
    # histogram: counts, (bins,) for a 2-D source, (C, bins) for H x W x C
    h = texcv.histogram(img, 16, (0, 256), device="cpu")
    assert h.dtype == np.uint64 and h.shape == (16,)
    assert np.array_equal(h, np.histogram(img, 16, (0, 256))[0])
    assert texcv.histogram(np.dstack([img, img, img]), device="cpu").shape == (3, 256)
