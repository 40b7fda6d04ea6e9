"""Errors: every failure is a texcv.Error subclass (also the matching built-in exception) with
the C++ message "<op>: <what is wrong>; got <x>, expected <y>" and the ErrorCode name."""

from __future__ import annotations

import re

import numpy as np
import pytest

import texcv

A = np.zeros((10, 12, 3), np.uint8)


def raises(cls, message):
    return pytest.raises(cls, match="^" + re.escape(message) + "$")


def test_hierarchy_and_codes():
    pairs = [(texcv.InvalidArgumentError, ValueError, "InvalidArgument"),
             (texcv.UnsupportedError, ValueError, "Unsupported"),
             (texcv.OutOfMemoryError, MemoryError, "OutOfMemory"),
             (texcv.CudaError, RuntimeError, "Cuda"),
             (texcv.IoError, OSError, "Io"),
             (texcv.NotCompiledError, NotImplementedError, "NotCompiled"),
             (texcv.InternalError, RuntimeError, "Internal")]
    for i, (cls, builtin, code) in enumerate(pairs):
        assert issubclass(cls, texcv.Error) and issubclass(cls, builtin)
        assert cls.code == code
        # A C++ texcv::Error with this code arrives as this class with its message intact.
        with raises(cls, f"op: message {i}; got x, expected y") as info:
            texcv._texcv._raise(i, f"op: message {i}; got x, expected y")
        assert info.value.code == code


def test_bad_enum_names():
    with raises(texcv.InvalidArgumentError,
                "interp: unknown name; got 'bogus', expected one of nearest, linear, cubic, area"):
        texcv.resize(A, 5, 5, interp="bogus")
    with raises(texcv.InvalidArgumentError, "border: unknown name; got 'mirror', expected one "
                "of constant, replicate, reflect, reflect101, wrap"):
        texcv.gaussian_blur(A, 3, border="mirror")
    with raises(texcv.InvalidArgumentError, "flip: unknown name; got 'diagonal', expected one "
                "of horizontal, vertical, both"):
        texcv.flip(A, "diagonal")
    with raises(texcv.InvalidArgumentError, 'morphology: unknown operation; got "bogus", '
                "expected erode, dilate, open, close, gradient, tophat or blackhat"):
        texcv.morphology(A, "bogus")


def test_bad_arrays():
    with raises(texcv.UnsupportedError, "resize: src has an unsupported element type; got "
                "float64, expected uint8, uint16 or float32"):
        texcv.resize(A.astype(np.float64), 5, 5)
    with raises(texcv.InvalidArgumentError, "resize: src must be H x W or H x W x C; got 4 "
                "dimensions, expected 2 or 3"):
        texcv.resize(np.zeros((2, 2, 2, 2), np.uint8), 5, 5)
    with raises(texcv.InvalidArgumentError, "flip: source channel count is not supported; got "
                "2, expected 1, 3 or 4"):
        texcv.flip(np.zeros((5, 5, 2), np.uint8))
    with raises(texcv.InvalidArgumentError, "flip: source height must be positive; got 0, "
                "expected > 0"):
        texcv.flip(np.zeros((0, 5), np.uint8))
    # An empty array's strides mean nothing (some exporters give 0): the shape is reported,
    # on every device (the GPU upload path said "dst must have contiguous pixels" here).
    zero_strides = np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), (0, 5), (0, 0))
    for dev in ("cpu", "auto"):
        with raises(texcv.InvalidArgumentError, "flip: source height must be positive; got 0, "
                    "expected > 0"):
            texcv.flip(zero_strides, device=dev)
        with raises(texcv.InvalidArgumentError, "flip: source width must be positive; got 0, "
                    "expected > 0"):
            texcv.flip(np.zeros((4, 0, 3), np.uint8), device=dev)


def test_bad_destinations():
    with raises(texcv.InvalidArgumentError, "resize: destination element type differs from "
                "the source; got u16, expected u8"):
        texcv.resize_into(np.zeros((5, 5, 3), np.uint16), A)
    with raises(texcv.InvalidArgumentError, "flip: dst must have contiguous pixels (rows may "
                "be pitched); got strides (36, 6, 1) (elements), expected (>= W*C, C, 1)"):
        texcv.flip_into(np.zeros((10, 12, 3), np.uint8)[:, ::2], A)
    ro = A.copy()
    ro.flags.writeable = False
    with raises(texcv.InvalidArgumentError, "flip: dst is read-only; got a read-only array, "
                "expected a writable array"):
        texcv.flip_into(ro, A)


def test_bad_parameters():
    with raises(texcv.InvalidArgumentError, "resize: no output size given; got none of scale, "
                "width, height, fx, fy, expected scale=S, width=W and/or height=H, or fx=X "
                "and/or fy=Y"):
        texcv.resize(A)
    with raises(texcv.InvalidArgumentError, "resize: parameter 'scale' is out of range; got "
                "scale=-1, expected a number > 0"):
        texcv.resize(A, scale=-1)
    with raises(texcv.InvalidArgumentError, "median_blur: ksize must be odd; got 4, expected an "
                "odd number from 1 to 255"):
        texcv.median_blur(A, 4)
    with raises(texcv.InvalidArgumentError, "warp_affine: m must have 2x3 numbers; got 3 "
                "numbers, expected 6"):
        texcv.warp_affine(A, [1, 2, 3])
    with raises(texcv.InvalidArgumentError, "convolve: kernel is too large; got 40x40, expected "
                "at most 31x31"):
        texcv.convolve(A, np.ones((40, 40)))
    with raises(texcv.InvalidArgumentError, "sobel: dtype must be the source type or float32; "
                "got uint16, expected uint8 or float32"):
        texcv.sobel(A, dtype="uint16")
    with raises(texcv.UnsupportedError, "convert: dtype is not supported; got float64, expected "
                "uint8, uint16 or float32"):
        texcv.convert(A, "float64")


def test_unsupported_combinations():
    with raises(texcv.UnsupportedError, "cvt_color: source channel count does not fit the code "
                "gray2rgb; got 3, expected 1"):
        texcv.cvt_color(A, "gray2rgb")
    with raises(texcv.UnsupportedError, "equalize_hist: source channel count is not supported; "
                "got 3, expected 1"):
        texcv.equalize_hist(A)
    with raises(texcv.UnsupportedError, "threshold: otsu needs a 1-channel u8 source; got "
                "3-channel u8, expected 1-channel u8"):
        texcv.threshold(A, 0, 255, "otsu")


def test_device_and_stream():
    with raises(texcv.InvalidArgumentError, 'resize: unknown device; got "gpu", expected cpu, '
                "cuda or auto"):
        texcv.resize(A, 5, 5, device="gpu")
    with raises(texcv.InvalidArgumentError, "stream: stream must be a CUDA stream; got str, "
                "expected an int, a cupy.cuda.Stream or a torch.cuda.Stream"):
        texcv.rotate(A, 30, stream="x")
    with pytest.raises(TypeError):
        texcv.rotate(A, 30, "linear")  # interp and the rest are keyword-only


def test_cuda_device_without_cuda():
    if texcv.cuda_available():
        pytest.skip("a GPU is usable here: device='cuda' works (tests/python/test_gpu.py)")
    if texcv.info()["cuda_compiled"]:
        with pytest.raises(texcv.CudaError):
            texcv.flip(A, device="cuda")
    else:
        with raises(texcv.NotCompiledError, "Image: this build has no CUDA backend; rebuild with "
                    "-DTEXCV_CUDA=ON (nvcc required) to use device images"):
            texcv.flip(A, device="cuda")


def test_file_errors(tmp_path):
    with raises(texcv.IoError, "imread: /nonexistent/x.png: cannot open: No such file or "
                "directory"):
        texcv.imread("/nonexistent/x.png")
    with raises(texcv.UnsupportedError, f"format_from_path: unsupported file extension for "
                f"'{tmp_path}/x.bmp'; got '.bmp', expected .png, .jpg, .jpeg, .tif or .tiff"):
        texcv.imwrite(tmp_path / "x.bmp", A)
    with pytest.raises(OSError, match="^imwrite: /nonexistent/dir/x.png: cannot create a "
                       "temporary file in '/nonexistent/dir'"):
        texcv.imwrite("/nonexistent/dir/x.png", A)


def test_errors_leave_destinations_untouched():
    dst = np.full((10, 12, 3), 77, np.uint8)
    with pytest.raises(texcv.InvalidArgumentError):
        texcv.gaussian_blur_into(dst, A, 4)
    assert (dst == 77).all()
