"""invert: made from its registry spec alone (no Python or binding code of its own): the
function, its _into form and the pipeline step give max - src."""

from __future__ import annotations

import numpy as np
import pytest

import texcv


@pytest.mark.parametrize("dtype,top", [(np.uint8, 255), (np.uint16, 65535), (np.float32, 1.0)])
def test_invert_is_max_minus_the_source(dtype, top):
    rng = np.random.default_rng(5)
    a = (rng.random((13, 17, 3)) * (top if dtype != np.float32 else 1.0)).astype(dtype)
    want = (np.asarray(top, dtype) - a).astype(dtype)
    np.testing.assert_array_equal(texcv.invert(a, device="cpu"), want)
    dst = np.full_like(a, 7)
    assert texcv.invert_into(dst, a, device="cpu") is dst
    np.testing.assert_array_equal(dst, want)
    np.testing.assert_array_equal(texcv.Pipeline("invert")(a, device="cpu"), want)
    assert "invert" in [op["name"] for op in texcv.operations()]
