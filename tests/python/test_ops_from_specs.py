"""The operations are made from the C++ registry's specs at import (texcv._ops): every spec has
op and op_into with its parameters (positional or keyword-only as declared, the size-setting
ones left out of op_into), its defaults, its choices as Literal annotations, its docstring, and
the shipped stub says the same."""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import texcv
from texcv import _texcv

HAND_WRITTEN = {"threshold", "convert"}  # a scalar result, a numpy dtype: _api.py
SPECS = [s for s in _texcv.operations() if s["name"] not in HAND_WRITTEN]


def python_default(p):
    d = p["default"]
    if d == "":
        return None
    return {"int": int, "float": float, "bool": lambda v: v == "true",
            "enum": str}.get(p["type"], lambda v: float(v) if "|" not in v else v)(d)


@pytest.mark.parametrize("spec", SPECS, ids=[s["name"] for s in SPECS])
def test_op_and_into_follow_the_spec(spec):
    name = spec["name"]
    for into in (False, True):
        fn = getattr(texcv, name + ("_into" if into else ""))
        assert fn.__texcv_op__ == name
        sig = inspect.signature(fn).parameters
        lead = ["dst", "src"] if into else ["src"]
        tail = (["dtype"] if spec["float_output"] and not into else []) + ["device", "stream"]
        declared = [p for p in spec["params"] if not (into and p["shapes_output"])]
        assert list(sig) == lead + [p["name"] for p in declared if p["positional"]] + \
            [p["name"] for p in declared if not p["positional"]] + tail
        for p in declared:
            got = sig[p["name"]]
            kind = (inspect.Parameter.POSITIONAL_OR_KEYWORD if p["positional"]
                    else inspect.Parameter.KEYWORD_ONLY)
            assert got.kind == kind, p["name"]
            if got.default is not inspect.Parameter.empty and p["type"] != "floats":
                assert got.default == python_default(p), p["name"]
            if p["type"] == "enum":
                assert got.annotation.startswith(
                    "Literal[" + ", ".join(repr(c) for c in p["choices"]) + "]"), p["name"]
        if not into:
            assert fn.__doc__.startswith(spec["doc"].split("\n")[0])
    # The shipped stub has the same Literal choices.
    stub = (Path(texcv.__file__).parent / "__init__.pyi").read_text(encoding="utf-8")
    line = next(s for s in stub.splitlines() if s.startswith(f"def {name}("))
    for p in spec["params"]:
        if p["type"] == "enum":
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
