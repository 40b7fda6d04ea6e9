"""texcv's exceptions: one base class, texcv.Error, and one subclass per C++ texcv::ErrorCode.

Every error raised by texcv (from C++ or from the Python layer) is a texcv.Error whose message is
the C++ message, "<op>: <what is wrong>; got <x>, expected <y>", and whose ``code`` attribute is
the C++ ErrorCode name. The subclasses also derive from the matching built-in exception, so
``except ValueError`` catches a bad argument as it would with numpy.
"""

from __future__ import annotations


class Error(Exception):
    """Base class of every texcv error; ``code`` is the C++ texcv::ErrorCode name."""

    code: str = "Internal"


class InvalidArgumentError(Error, ValueError):
    """A bad argument: value, size, shape, layout, parameter (ErrorCode InvalidArgument)."""

    code = "InvalidArgument"


class UnsupportedError(Error, ValueError):
    """A valid request texcv does not support: element type, channel count, file kind."""

    code = "Unsupported"


class OutOfMemoryError(Error, MemoryError):
    """Host or device memory could not be allocated (ErrorCode OutOfMemory)."""

    code = "OutOfMemory"


class CudaError(Error, RuntimeError):
    """A CUDA call failed; the message names the call and cudaGetErrorString (ErrorCode Cuda)."""

    code = "Cuda"


class IoError(Error, OSError):
    """A file could not be read or written; the message names the path (ErrorCode Io)."""

    code = "Io"


class NotCompiledError(Error, NotImplementedError):
    """The CUDA backend is not compiled into this build (ErrorCode NotCompiled)."""

    code = "NotCompiled"


class InternalError(Error, RuntimeError):
    """A bug in texcv (ErrorCode Internal)."""

    code = "Internal"


# In the order of the C++ enum texcv::ErrorCode.
ERROR_CLASSES = (
    InvalidArgumentError,
    UnsupportedError,
    OutOfMemoryError,
    CudaError,
    IoError,
    NotCompiledError,
    InternalError,
)


def invalid(op: str, what: str, got: object, expected: str) -> InvalidArgumentError:
    """An InvalidArgumentError with texcv's message format."""
    return InvalidArgumentError(f"{op}: {what}; got {got}, expected {expected}")


def unsupported(op: str, what: str, got: object, expected: str) -> UnsupportedError:
    """An UnsupportedError with texcv's message format."""
    return UnsupportedError(f"{op}: {what}; got {got}, expected {expected}")
