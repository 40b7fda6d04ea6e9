"""Parameter sections of the docstrings, generated from the C++ operation registry.

Each operation declares its parameters once in C++ (src/core/ops/<op>.cpp: type, default, help,
accepted values); the command line prints them with ``texcv ops`` and this module appends them
to the Python docstrings, so the two never disagree. Parameters the registry does not have
(arrays, device, stream, dtype) are described here.
"""

from __future__ import annotations

import inspect
from typing import Any

from . import _texcv

_COMMON = {
    "src": "input array: numpy, CuPy or torch, H x W or H x W x C (C = 1, 3, 4), uint8, uint16 "
    "or float32; copied first when its pixels are not contiguous (pitched rows are fine)",
    "dst": "output array of the right size, type and kind, with contiguous pixels",
    "dtype": 'output element type: the source\'s (default) or "float32" (OpenCV\'s ddepth)',
    "device": '"auto" (default: the GPU when present), "cpu" or "cuda"; applies to numpy '
    "arrays (copied to the GPU and back); CUDA arrays always run on their GPU",
    "stream": "keyword-only CUDA stream: an int (cudaStream_t), a cupy.cuda.Stream or a "
    "torch.cuda.Stream; default: the caller's current stream for CuPy/torch arrays, the "
    "default stream for numpy arrays sent to the GPU",
    "path": "how the CUDA backend reads the source (auto, global, texture, texture_filter, "
    "shared); the CPU backend ignores it; every path gives the documented accuracy",
}


def _registry() -> dict[str, dict[str, Any]]:
    return {op["name"]: op for op in _texcv.api_operations()}


def attach_parameter_docs(namespace: dict[str, Any]) -> None:
    reg = _registry()
    for name, fn in list(namespace.items()):
        if name.startswith("_") or not inspect.isfunction(fn):
            continue
        base = name[:-5] if name.endswith("_into") else name
        spec = reg.get(base)
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):  # pragma: no cover
            continue
        lines = []
        for p in params:
            help_text = None
            if spec is not None:
                for rp in spec["params"]:
                    if (rp["name"] if not rp["numpy_dtype"] else "dtype") == p:
                        expected = rp["expected"].replace(" separated by '|'", "")
                        expected = expected.replace("true or false", "True or False")
                        if rp["type"] == "floats":
                            expected += " (a number or a sequence)"
                        if rp["type"] == "image":
                            expected = "an array of src's kind (numpy, CuPy or torch)"
                        if rp["numpy_dtype"]:
                            expected = "a numpy dtype: uint8, uint16 or float32"
                        help_text = f"{rp['help']}; accepts {expected}"
                        break
            if help_text is None:
                help_text = _COMMON.get(p)
            if help_text is not None:
                lines.append(f"    {p}: {help_text}")
        if lines:
            fn.__doc__ = (fn.__doc__ or "").rstrip() + "\n\nParameters:\n" + "\n".join(lines) + "\n"
