"""examples/walkthrough.ipynb runs headless from start to end on the CPU path (TEXCV_DEVICE=cpu)
and shows its images and plots, so it cannot rot."""

from __future__ import annotations

import os

import pytest

from conftest import ROOT

nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed")
nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed")
pytest.importorskip("matplotlib", reason="matplotlib is not installed")
pytest.importorskip("ipykernel", reason="ipykernel is not installed")


def test_walkthrough_executes(monkeypatch):
    monkeypatch.setenv("TEXCV_DEVICE", "cpu")
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    path = ROOT / "examples" / "walkthrough.ipynb"
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 3  # the processed images, the details and the timing plot
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "device: cpu" in text and "resize 0.5" in text and "OpenCV" in text
