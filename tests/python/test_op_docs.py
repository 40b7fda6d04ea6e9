"""docs/ops/ has one page per operation (issue 20: one stem everywhere), and the generated pages
are what texcv._opdocs makes from the specs today (regenerate: python -m texcv._opdocs docs/ops)."""

from __future__ import annotations

from pathlib import Path

import pytest

from texcv import _texcv
from texcv._opdocs import MARKER, page

DOCS = Path(__file__).resolve().parents[2] / "docs" / "ops"
SPECS = list(_texcv.api_operations())


@pytest.mark.parametrize("spec", SPECS, ids=[s["name"] for s in SPECS])
def test_every_op_has_its_page_and_a_generated_one_is_current(spec):
    path = DOCS / f"{spec['name']}.md"
    assert path.exists(), f"no {path.name}: python -m texcv._opdocs docs/ops"
    text = path.read_text(encoding="utf-8")
    if MARKER in text:
        assert text == page(spec), f"{path.name} is stale: python -m texcv._opdocs docs/ops"
    else:  # written by hand (invert.md): it still names the op's file
        assert f"src/core/ops/{spec['name']}.cpp" in text


def test_a_page_names_each_parameter_and_the_calls():
    text = page(next(s for s in SPECS if s["name"] == "threshold"))
    for p in ("`thresh`", "`maxval`", "`type`", "texcv.threshold(src, thresh=None",
              "texcv.threshold_into(dst, src", "the output image and a number"):
        assert p in text, p
    text = page(next(s for s in SPECS if s["name"] == "histogram"))
    assert "it makes no image" in text and "_into" not in text
