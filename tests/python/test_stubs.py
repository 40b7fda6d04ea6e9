"""The package ships its type stub and py.typed, and the stub matches the live signatures."""

from __future__ import annotations

from pathlib import Path

import texcv
from texcv._stubgen import generate


def test_stub_and_py_typed_are_installed_and_current():
    pkg = Path(texcv.__file__).parent
    assert (pkg / "py.typed").exists()
    stub = (pkg / "__init__.pyi").read_text(encoding="utf-8")
    assert stub == generate(), "regenerate: python -m texcv._stubgen python/texcv/__init__.pyi"
    for name in ("resize", "resize_into", "imread", "devices", "info", "Error"):
        assert f" {name}(" in stub or f"class {name}(" in stub, name
