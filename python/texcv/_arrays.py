"""Arrays in and out: numpy, CuPy and torch, their layouts, devices and streams.

An input is passed to the native module as it is when its pixels are contiguous (rows may be
pitched: a crop of a larger array is used without a copy); otherwise it is copied to a
contiguous array of its own kind first. Outputs are new arrays of the input's kind (numpy for
numpy, CuPy for CuPy, torch for torch) allocated on the input's device and, for CUDA arrays,
with the library's allocator on the current stream.
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

from ._errors import invalid, unsupported

DTYPES = ("uint8", "uint16", "float32")
_EXPECTED_DTYPES = "uint8, uint16 or float32"
# The registry's names of the element types (ElemType's to_string) and numpy's.
ELEM_TYPE_DTYPES = {"u8": "uint8", "u16": "uint16", "f32": "float32"}


def kind_of(a: Any) -> str:
    """'numpy', 'cupy', 'torch' (CUDA tensor), 'torch_cpu' or 'other'."""
    if isinstance(a, np.ndarray):
        return "numpy"
    mod = type(a).__module__.split(".")[0]
    if mod == "cupy":
        return "cupy"
    if mod == "torch":
        return "torch" if a.device.type == "cuda" else "torch_cpu"
    return "other"


# numpy's and CuPy's dtypes of the supported types by name: str(dtype) costs about 3 us a call
# in numpy (half of a small call's Python time, ninth session), a dict lookup a tenth of it.
_NUMPY_DTYPE_NAMES = {np.dtype(n): n for n in DTYPES}


def _dtype_name(a: Any, kind: str) -> str:
    if kind in ("torch", "torch_cpu"):
        return str(a.dtype).replace("torch.", "")
    name = _NUMPY_DTYPE_NAMES.get(a.dtype)
    return name if name is not None else str(a.dtype)


def _pixels_contiguous(shape: tuple, strides_el: tuple) -> bool:
    """True when pixels are contiguous and rows go forward (strides in elements)."""
    if len(shape) == 3 and shape[2] > 1 and strides_el[2] != 1:
        return False
    c = shape[2] if len(shape) == 3 else 1
    if shape[1] > 1 and strides_el[1] != c:
        return False
    if shape[0] > 1 and strides_el[0] < shape[1] * c:
        return False
    return True


class Array:
    """An input or output array prepared for the native module."""

    def __init__(self, obj: Any, kind: str, native: Any):
        self.obj = obj  # what the caller gets back (its kind)
        self.kind = kind
        self.native = native  # what the native module reads or writes

    @property
    def shape(self) -> tuple:
        return tuple(self.native.shape)

    @property
    def channels(self) -> int:
        return self.shape[2] if len(self.shape) == 3 else 1

    @property
    def dtype(self) -> str:
        return _dtype_name(self.native, self.kind if self.kind != "torch_cpu" else "numpy")

    @property
    def is_cuda(self) -> bool:
        return self.kind in ("cupy", "torch")

    def device_context(self):
        """Makes the array's GPU current while texcv queues work on it."""
        if self.kind == "cupy":
            return self.native.device
        if self.kind == "torch":
            import torch

            return torch.cuda.device(self.native.device)
        return contextlib.nullcontext()

    def empty(self, shape: tuple, dtype: str) -> "Array":
        """A new array of this array's kind and device."""
        if self.kind == "numpy":
            out = np.empty(shape, dtype=dtype)
            return Array(out, "numpy", out)
        if self.kind == "cupy":
            import cupy

            with self.native.device:
                out = cupy.empty(shape, dtype=dtype)
            return Array(out, "cupy", out)
        import torch

        tdt = getattr(torch, dtype)
        if self.kind == "torch":
            out = torch.empty(shape, dtype=tdt, device=self.native.device)
            return Array(out, "torch", out)
        out = torch.empty(shape, dtype=tdt)
        return Array(out, "torch_cpu", out.numpy())

    def stream(self, stream: Any) -> int:
        """The cudaStream_t (as an integer) to run on: stream=, else the caller's current one."""
        if stream is not None:
            return stream_handle(stream)
        if self.kind == "cupy":
            import cupy

            return int(cupy.cuda.get_current_stream().ptr)
        if self.kind == "torch":
            import torch

            return int(torch.cuda.current_stream(self.native.device).cuda_stream)
        return 0


def stream_handle(stream: Any) -> int:
    """An integer cudaStream_t from an int, a CuPy stream (.ptr) or a torch stream (.cuda_stream)."""
    if isinstance(stream, bool):
        raise invalid("stream", "stream must be a CUDA stream", repr(stream),
                      "an int, a cupy.cuda.Stream or a torch.cuda.Stream")
    if isinstance(stream, int):
        return stream
    for attr in ("ptr", "cuda_stream"):
        v = getattr(stream, attr, None)
        if isinstance(v, int):
            return v
    raise invalid("stream", "stream must be a CUDA stream", type(stream).__name__,
                  "an int, a cupy.cuda.Stream or a torch.cuda.Stream")


def _check_dims_dtype(a: Any, kind: str, op: str, which: str) -> None:
    nd = len(a.shape)
    if nd not in (2, 3):
        raise invalid(op, f"{which} must be H x W or H x W x C", f"{nd} dimensions", "2 or 3")
    name = _dtype_name(a, kind)
    if name not in DTYPES:
        raise unsupported(op, f"{which} has an unsupported element type", name, _EXPECTED_DTYPES)


def as_input(a: Any, op: str, which: str = "src") -> Array:
    """Prepares an input array; copies it when its pixels are not contiguous."""
    kind = kind_of(a)
    if kind == "other":
        if hasattr(a, "__cuda_array_interface__"):
            try:
                import cupy
            except ImportError:  # pragma: no cover - depends on the machine
                raise invalid(op, f"{which} is a CUDA array that texcv reads through CuPy",
                              type(a).__name__, "CuPy installed, or a CuPy/torch array") from None
            a = cupy.asarray(a)
            kind = "cupy"
        else:
            a = np.asarray(a)
            kind = "numpy"
    _check_dims_dtype(a, kind, op, which)
    if kind == "numpy" or kind == "cupy":
        item = a.dtype.itemsize
        strides = tuple(s // item if s % item == 0 else -1 for s in a.strides)
        if not _pixels_contiguous(a.shape, strides):
            if kind == "numpy":
                a = np.ascontiguousarray(a)
            else:
                import cupy

                a = cupy.ascontiguousarray(a)
        return Array(a, kind, a)
    # torch
    if not _pixels_contiguous(tuple(a.shape), tuple(a.stride())):
        a = a.contiguous()
    if kind == "torch_cpu":
        return Array(a, kind, a.detach().numpy())
    return Array(a, kind, a.detach())


def as_output(a: Any, op: str) -> Array:
    """Prepares a caller's destination array; it must already have contiguous pixels."""
    kind = kind_of(a)
    if kind == "other":
        raise invalid(op, "dst must be a numpy, CuPy or torch array", type(a).__name__,
                      "numpy.ndarray, cupy.ndarray or torch.Tensor")
    _check_dims_dtype(a, kind, op, "dst")
    if kind in ("numpy", "cupy"):
        item = a.dtype.itemsize
        strides = tuple(s // item if s % item == 0 else -1 for s in a.strides)
        writable = kind != "numpy" or a.flags.writeable
        if not writable:
            raise invalid(op, "dst is read-only", "a read-only array", "a writable array")
    else:
        strides = tuple(a.stride())
    if not _pixels_contiguous(tuple(a.shape), strides):
        raise invalid(op, "dst must have contiguous pixels (rows may be pitched)",
                      f"strides {strides} (elements)", "(>= W*C, C, 1)")
    if kind == "torch_cpu":
        return Array(a, kind, a.detach().numpy())
    if kind == "torch":
        return Array(a, kind, a.detach())
    return Array(a, kind, a)


def out_shape(src: Array, height: int, width: int, channels: int | None = None) -> tuple:
    """The output shape: H x W for one channel from a 2-D source or a gray code, else H x W x C."""
    c = src.channels if channels is None else channels
    if channels is None and len(src.shape) == 3:
        return (height, width, c)
    if c == 1:
        return (height, width)
    return (height, width, c)


def host_floats(v: Any) -> np.ndarray:
    """A float32 numpy copy of a kernel or matrix given as a list, numpy, CuPy or torch array."""
    kind = kind_of(v)
    if kind == "cupy":
        v = v.get()
    elif kind in ("torch", "torch_cpu"):
        v = v.detach().cpu().numpy()
    return np.asarray(v, dtype=np.float64)
