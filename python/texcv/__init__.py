"""texcv: GPU image processing through CUDA textures, with an exact CPU backend.

numpy arrays in give numpy arrays out (computed on the GPU when texcv has CUDA and a GPU is
usable, else on the CPU; ``device=`` chooses); CuPy arrays and torch CUDA tensors in give the
same kind out, without copies, on the caller's current stream. docs/python.md has the details.
"""

from __future__ import annotations

from . import _texcv
from ._errors import (
    CudaError,
    Error,
    InternalError,
    InvalidArgumentError,
    IoError,
    NotCompiledError,
    OutOfMemoryError,
    UnsupportedError,
    ERROR_CLASSES as _ERROR_CLASSES,
)

_texcv._register_errors(list(_ERROR_CLASSES))

from ._api import *  # noqa: E402,F401,F403
from ._api import __all__ as _api_all  # noqa: E402
from ._batch import batch  # noqa: E402
from ._docs import attach_parameter_docs as _attach  # noqa: E402

__version__: str = _texcv.build_info()["version"]

__all__ = [
    "Error",
    "InvalidArgumentError",
    "UnsupportedError",
    "OutOfMemoryError",
    "CudaError",
    "IoError",
    "NotCompiledError",
    "InternalError",
    *_api_all,
    "batch",
]

_attach(globals())
