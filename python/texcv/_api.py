"""The operations of texcv for numpy, CuPy and torch arrays.

Every C++ operation is a function of the same name and keyword arguments that returns a new
array of the input's kind, plus ``<name>_into(dst, src, ...)`` that writes into an existing one
and returns it. Enums are strings ("linear", "reflect101", ...). ``device=`` chooses where host
(numpy) arrays are processed: "auto" (the GPU when texcv has CUDA and one is usable, else the
CPU), "cpu" or "cuda" (copied up and back). CUDA arrays (CuPy, torch) are processed where they
are, without copies, on the caller's current stream unless ``stream=`` names another. The GIL is
released while texcv works.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from . import _texcv as _n
from ._arrays import Array, as_input, as_output, host_floats, kind_of, out_shape
from ._errors import Error, invalid, unsupported

_FILTER_DST = ("float32",)


def _bv(value: Any) -> list[float]:
    """border_value as 1 to 4 floats."""
    if value is None:
        return [0.0]
    if isinstance(value, (int, float, np.integer, np.floating)):
        return [float(value)]
    return [float(v) for v in value]


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _dst(src: Array, dst: Any, op: str, shape: tuple, dtype: str) -> Array:
    """The destination: a new array of src's kind, or the caller's (checked by the C++ op)."""
    if dst is None:
        return src.empty(shape, dtype)
    return as_output(dst, op)


def _go(op: str, fn: Any, src: Array, dst: Array, device: str, stream: Any, *args: Any,
        extra: Sequence[Array] = ()) -> Any:
    """Calls the native op with src, extra inputs, dst, args, device and the resolved stream."""
    if not isinstance(device, str):
        raise invalid(op, "device must be a string", repr(device), "cpu, cuda or auto")
    if src.is_cuda or dst.is_cuda:
        with src.device_context():
            return fn(src.native, dst.native, *[e.native for e in extra], *args, device,
                      src.stream(stream))
    st = 0 if stream is None else _stream_int(stream)
    return fn(src.native, dst.native, *[e.native for e in extra], *args, device, st)


def _stream_int(stream: Any) -> int:
    from ._arrays import stream_handle

    return stream_handle(stream)


def _ret(dst: Array) -> Any:
    return dst.obj


def _out_dtype(op: str, src: Array, dtype: Any) -> str:
    if dtype is None:
        return src.dtype
    name = np.dtype(dtype).name
    if name == src.dtype or name in _FILTER_DST:
        return name
    raise invalid(op, "dtype must be the source type or float32", name,
                  f"{src.dtype} or float32")


# ---- Geometry ---------------------------------------------------------------------------------


def _dsize(width: Any, height: int | None, fx: float | None,
           fy: float | None) -> tuple[int | None, int | None]:
    """cv2's dsize tuple (w, h) given as the second positional argument: (width, height), or
    (None, None) for cv2's (0, 0) ("use fx and fy")."""
    got = repr(tuple(width)) if isinstance(width, (tuple, list)) else repr(width)
    expected = "(width, height) with both > 0, or (0, 0) with fx/fy"
    if len(width) != 2 or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                  for v in width):
        raise invalid("resize", "dsize must be a pair of integers (width, height)", got, expected)
    w, h = int(width[0]), int(width[1])
    if height is not None:
        raise invalid("resize", "dsize and height cannot be combined", f"{got} with height={height}",
                      "dsize=(width, height) alone")
    if w == 0 and h == 0:
        if fx is None and fy is None:
            raise invalid("resize", "dsize (0, 0) needs fx and/or fy", got,
                          "fx=X and/or fy=Y, as cv2.resize(src, (0, 0), fx=X, fy=Y)")
        return None, None
    if w <= 0 or h <= 0:
        raise invalid("resize", "dsize must be positive", got, expected)
    return w, h


def _resize(dst: Any, src: Any, width: Any, height: int | None, scale: float | None,
            fx: float | None, fy: float | None, interp: str, align_corners: bool, border: str,
            border_value: Any, precision: str, path: str, device: str, stream: Any) -> Any:
    s = as_input(src, "resize")
    if isinstance(width, (tuple, list)):
        width, height = _dsize(width, height, fx, fy)
    if dst is None:
        params = {k: _text(v) for k, v in
                  (("width", width), ("height", height), ("scale", scale), ("fx", fx),
                   ("fy", fy)) if v is not None}
        w, h = _n.output_size("resize", s.shape[1], s.shape[0], params)
        d = s.empty(out_shape(s, h, w), s.dtype)
    else:
        d = as_output(dst, "resize")
    # scale, fx and fy map as cv2.resize(src, None, fx=, fy=); sizes with the size ratio.
    if scale is not None:
        mfx = mfy = float(scale)
    else:
        mfx = 0.0 if fx is None else float(fx)
        mfy = 0.0 if fy is None else float(fy)
    _go("resize", _n.resize, s, d, device, stream, interp, align_corners, border,
        _bv(border_value), precision, path, mfx, mfy)
    return _ret(d)


def resize(src: Any, width: int | tuple[int, int] | None = None, height: int | None = None, *,
           scale: float | None = None, fx: float | None = None, fy: float | None = None,
           interp: str = "linear", align_corners: bool = False, border: str = "replicate",
           border_value: Any = 0, precision: str = "auto", path: str = "auto",
           device: str = "auto", stream: Any = None) -> Any:
    """Resizes src, as cv2.resize (pixel centres).

    The output size, in one of cv2.resize's two forms:
    - a size: cv2's dsize tuple ``resize(img, (w, h))``, or width and/or height (one alone keeps
      the aspect ratio). Source x = (x + 0.5) * src_w / dst_w - 0.5, as cv2.resize(img, (w, h)).
    - factors: fx and/or fy (a missing one is 1), or scale for both. Output = size * factor
      rounded half to even and source x = (x + 0.5) / fx - 0.5, as cv2.resize(img, None, fx=,
      fy=) (also ``resize(img, (0, 0), fx=, fy=)``). The two forms differ where size * factor
      is not whole. interp="nearest" (cv2.INTER_NEAREST_EXACT) maps by the sizes in both.
    Accuracy: CPU vs OpenCV within 1 level (u8/u16) or 1e-5 (f32); CUDA exact vs CPU within 1
    level or 1e-5 relative; precision="fast" up to 2 levels at the steepest u8 edges.
    """
    return _resize(None, src, width, height, scale, fx, fy, interp, align_corners, border,
                   border_value, precision, path, device, stream)


def resize_into(dst: Any, src: Any, *, fx: float | None = None, fy: float | None = None,
                interp: str = "linear", align_corners: bool = False, border: str = "replicate",
                border_value: Any = 0, precision: str = "auto", path: str = "auto",
                device: str = "auto", stream: Any = None) -> Any:
    """resize into dst (its size is the output size); returns dst. Without fx/fy it maps with
    the size ratio; with them as cv2.resize(src, None, fx=, fy=), and dst's size must then be
    the one that gives (round(size * factor), ties to even)."""
    return _resize(dst, src, None, None, None, fx, fy, interp, align_corners, border,
                   border_value, precision, path, device, stream)


def _matrix(m: Any, n: int, op: str) -> list[float]:
    a = host_floats(m).reshape(-1)
    if a.size != n:
        raise invalid(op, "m must have " + ("2x3" if n == 6 else "3x3") + " numbers",
                      f"{a.size} numbers", str(n))
    return [float(v) for v in a]


def _warp(op: str, fn: Any, n: int, dst: Any, src: Any, m: Any, inverse_map: bool,
          width: int | None, height: int | None, interp: str, border: str, border_value: Any,
          precision: str, path: str, device: str, stream: Any) -> Any:
    s = as_input(src, op)
    mat = _matrix(m, n, op)
    if dst is None:
        w = s.shape[1] if width is None else int(width)
        h = s.shape[0] if height is None else int(height)
        d = s.empty(out_shape(s, h, w), s.dtype)
    else:
        d = as_output(dst, op)
    _go(op, fn, s, d, device, stream, mat, inverse_map, interp, border, _bv(border_value),
        precision, path)
    return _ret(d)


def warp_affine(src: Any, m: Any, *, inverse_map: bool = False, width: int | None = None,
                height: int | None = None, interp: str = "linear", border: str = "constant",
                border_value: Any = 0, precision: str = "auto", path: str = "auto",
                device: str = "auto", stream: Any = None) -> Any:
    """Affine warp with a 2x3 matrix m (source to destination unless inverse_map), as
    cv2.warpAffine. The output is width x height (default: the source size).

    Accuracy: CPU vs OpenCV's float path within 1 level (u8/u16) or 1e-5 (f32); nearest exact.
    """
    return _warp("warp_affine", _n.warp_affine, 6, None, src, m, inverse_map, width, height,
                 interp, border, border_value, precision, path, device, stream)


def warp_affine_into(dst: Any, src: Any, m: Any, *, inverse_map: bool = False,
                     interp: str = "linear", border: str = "constant", border_value: Any = 0,
                     precision: str = "auto", path: str = "auto", device: str = "auto",
                     stream: Any = None) -> Any:
    """warp_affine into dst (its size is the output size); returns dst."""
    return _warp("warp_affine", _n.warp_affine, 6, dst, src, m, inverse_map, None, None, interp,
                 border, border_value, precision, path, device, stream)


def warp_perspective(src: Any, m: Any, *, inverse_map: bool = False, width: int | None = None,
                     height: int | None = None, interp: str = "linear",
                     border: str = "constant", border_value: Any = 0, precision: str = "auto",
                     path: str = "auto", device: str = "auto", stream: Any = None) -> Any:
    """Perspective warp with a 3x3 matrix m, as cv2.warpPerspective (see warp_affine)."""
    return _warp("warp_perspective", _n.warp_perspective, 9, None, src, m, inverse_map, width,
                 height, interp, border, border_value, precision, path, device, stream)


def warp_perspective_into(dst: Any, src: Any, m: Any, *, inverse_map: bool = False,
                          interp: str = "linear", border: str = "constant",
                          border_value: Any = 0, precision: str = "auto", path: str = "auto",
                          device: str = "auto", stream: Any = None) -> Any:
    """warp_perspective into dst; returns dst."""
    return _warp("warp_perspective", _n.warp_perspective, 9, dst, src, m, inverse_map, None,
                 None, interp, border, border_value, precision, path, device, stream)


def _rotate(dst: Any, src: Any, angle: float, expand: bool, interp: str, border: str,
            border_value: Any, precision: str, path: str, device: str, stream: Any) -> Any:
    s = as_input(src, "rotate")
    if dst is None:
        w, h = _n.rotated_size(s.shape[1], s.shape[0], float(angle), bool(expand))
        d = s.empty(out_shape(s, h, w), s.dtype)
    else:
        d = as_output(dst, "rotate")
    _go("rotate", _n.rotate, s, d, device, stream, float(angle), interp, border,
        _bv(border_value), precision, path)
    return _ret(d)


def rotate(src: Any, angle: float, *, expand: bool = False, interp: str = "linear",
           border: str = "constant", border_value: Any = 0, precision: str = "auto",
           path: str = "auto", device: str = "auto", stream: Any = None) -> Any:
    """Rotates src by angle degrees counter-clockwise about its centre, as
    cv2.getRotationMatrix2D + cv2.warpAffine; expand=True enlarges the output to hold the
    whole rotated image. Accuracy as warp_affine.
    """
    return _rotate(None, src, angle, expand, interp, border, border_value, precision, path,
                   device, stream)


def rotate_into(dst: Any, src: Any, angle: float, *, interp: str = "linear",
                border: str = "constant", border_value: Any = 0, precision: str = "auto",
                path: str = "auto", device: str = "auto", stream: Any = None) -> Any:
    """rotate into dst (the source centre lands on dst's centre); returns dst."""
    return _rotate(dst, src, angle, False, interp, border, border_value, precision, path,
                   device, stream)


def _remap(dst: Any, src: Any, map_x: Any, map_y: Any, interp: str, border: str,
           border_value: Any, precision: str, path: str, device: str, stream: Any) -> Any:
    s = as_input(src, "remap")
    mx = as_input(map_x, "remap", "map_x")
    my = as_input(map_y, "remap", "map_y")
    if dst is None:
        d = s.empty(out_shape(s, mx.shape[0], mx.shape[1]), s.dtype)
    else:
        d = as_output(dst, "remap")
    _go("remap", _n.remap, s, d, device, stream, interp, border, _bv(border_value), precision,
        path, extra=(mx, my))
    return _ret(d)


def remap(src: Any, map_x: Any, map_y: Any, *, interp: str = "linear",
          border: str = "constant", border_value: Any = 0, precision: str = "auto",
          path: str = "auto", device: str = "auto", stream: Any = None) -> Any:
    """dst(x, y) = src(map_x(x, y), map_y(x, y)), as cv2.remap with two float32 maps (H x W,
    the output size, of the same kind and device as src)."""
    return _remap(None, src, map_x, map_y, interp, border, border_value, precision, path, device,
                  stream)


def remap_into(dst: Any, src: Any, map_x: Any, map_y: Any, *, interp: str = "linear",
               border: str = "constant", border_value: Any = 0, precision: str = "auto",
               path: str = "auto", device: str = "auto", stream: Any = None) -> Any:
    """remap into dst; returns dst."""
    return _remap(dst, src, map_x, map_y, interp, border, border_value, precision, path, device,
                  stream)


def _same(op: str, dst: Any, src: Any, dtype: str | None = None,
          channels: int | None = None) -> tuple[Array, Array]:
    s = as_input(src, op)
    if dst is None:
        d = s.empty(out_shape(s, s.shape[0], s.shape[1], channels), dtype or s.dtype)
    else:
        d = as_output(dst, op)
    return s, d


def flip(src: Any, code: str = "horizontal", *, device: str = "auto", stream: Any = None) -> Any:
    """Mirrors src, as cv2.flip: "horizontal" (left-right), "vertical" (top-bottom) or "both".
    Exact."""
    s, d = _same("flip", None, src)
    _go("flip", _n.flip, s, d, device, stream, code)
    return _ret(d)


def flip_into(dst: Any, src: Any, code: str = "horizontal", *, device: str = "auto",
              stream: Any = None) -> Any:
    """flip into dst; returns dst."""
    s, d = _same("flip", dst, src)
    _go("flip", _n.flip, s, d, device, stream, code)
    return _ret(d)


def _crop(dst: Any, src: Any, x: int, y: int, width: int | None, height: int | None,
          device: str, stream: Any) -> Any:
    s = as_input(src, "crop")
    if dst is None:
        w = s.shape[1] - int(x) if width is None else int(width)
        h = s.shape[0] - int(y) if height is None else int(height)
        if w < 1 or h < 1:
            raise invalid("crop", "the rectangle must lie inside the image",
                          f"x={x}, y={y}, width={width}, height={height} on "
                          f"{s.shape[1]}x{s.shape[0]}", "a non-empty rectangle inside it")
        d = s.empty(out_shape(s, h, w), s.dtype)
    else:
        d = as_output(dst, "crop")
        w, h = d.shape[1], d.shape[0]
    _go("crop", _n.crop, s, d, device, stream, int(x), int(y), int(w), int(h))
    return _ret(d)


def crop(src: Any, x: int = 0, y: int = 0, width: int | None = None, height: int | None = None,
         *, device: str = "auto", stream: Any = None) -> Any:
    """Copies the rectangle (x, y, width, height) of src (default: to the right and bottom
    edges). For a view without a copy, slice the array instead. Exact."""
    return _crop(None, src, x, y, width, height, device, stream)


def crop_into(dst: Any, src: Any, x: int = 0, y: int = 0, *, device: str = "auto",
              stream: Any = None) -> Any:
    """crop the rectangle at (x, y) of dst's size into dst; returns dst."""
    return _crop(dst, src, x, y, None, None, device, stream)


def rotated_size(width: int, height: int, angle: float, expand: bool = True) -> tuple[int, int]:
    """(width, height) of rotate's output: the source size, or with expand the bounding box."""
    return tuple(_n.rotated_size(int(width), int(height), float(angle), bool(expand)))


def rotation_matrix(src_w: int, src_h: int, dst_w: int, dst_h: int, angle: float) -> np.ndarray:
    """The 2x3 source-to-destination matrix rotate uses (float64)."""
    return np.array(_n.rotation_matrix(src_w, src_h, dst_w, dst_h, float(angle))).reshape(2, 3)


# ---- Linear filters -----------------------------------------------------------------------------


def _kernel2d(kernel: Any) -> tuple[list[float], int, int]:
    k = host_floats(kernel)
    if k.ndim == 1:
        k = k.reshape(1, -1)
    if k.ndim != 2:
        raise invalid("convolve", "kernel must be 2-D", f"{k.ndim} dimensions", "kh x kw")
    return [float(v) for v in k.reshape(-1)], int(k.shape[1]), int(k.shape[0])


def _convolve(dst, src, kernel, anchor_x, anchor_y, scale, delta, border, border_value, path,
              dtype, device, stream):
    s = as_input(src, "convolve")
    d = _dst(s, dst, "convolve", s.shape, _out_dtype("convolve", s, dtype))
    k, kw, kh = _kernel2d(kernel)
    _go("convolve", _n.convolve, s, d, device, stream, k, kw, kh, anchor_x, anchor_y,
        float(scale), float(delta), border, _bv(border_value), path)
    return _ret(d)


def convolve(src: Any, kernel: Any, *, anchor_x: int = -1, anchor_y: int = -1,
             scale: float = 1.0, delta: float = 0.0, border: str = "reflect101",
             border_value: Any = 0, path: str = "auto", dtype: Any = None,
             device: str = "auto", stream: Any = None) -> Any:
    """2-D correlation with kernel (kh x kw, up to 31x31), as cv2.filter2D: scale * sum + delta.

    dtype: the output type, the source's (saturated, rounded half to even) or "float32" (as
    ddepth=CV_32F). Accuracy vs OpenCV: 1 level for integer outputs; float32 within 1e-5 of
    sum|k| x full scale.
    """
    return _convolve(None, src, kernel, anchor_x, anchor_y, scale, delta, border, border_value,
                     path, dtype, device, stream)


def convolve_into(dst: Any, src: Any, kernel: Any, *, anchor_x: int = -1, anchor_y: int = -1,
                  scale: float = 1.0, delta: float = 0.0, border: str = "reflect101",
                  border_value: Any = 0, path: str = "auto", device: str = "auto",
                  stream: Any = None) -> Any:
    """convolve into dst (src's type or float32); returns dst."""
    return _convolve(dst, src, kernel, anchor_x, anchor_y, scale, delta, border, border_value,
                     path, None, device, stream)


def _taps(v: Any) -> list[float]:
    return [float(x) for x in host_floats(v).reshape(-1)]


def _separable(dst, src, row, column, anchor_x, anchor_y, delta, border, border_value, path,
               dtype, device, stream):
    op = "separable_filter"
    s = as_input(src, op)
    d = s.empty(s.shape, _out_dtype(op, s, dtype)) if dst is None else as_output(dst, op)
    _go(op, _n.separable_filter, s, d, device, stream, _taps(row), _taps(column), anchor_x,
        anchor_y, float(delta), border, _bv(border_value), path)
    return _ret(d)


def separable_filter(src: Any, row: Any, column: Any, *, anchor_x: int = -1,
                     anchor_y: int = -1, delta: float = 0.0, border: str = "reflect101",
                     border_value: Any = 0, path: str = "auto", dtype: Any = None,
                     device: str = "auto", stream: Any = None) -> Any:
    """The row kernel along x, then the column kernel along y (1 to 255 taps each), as
    cv2.sepFilter2D. dtype and accuracy as convolve."""
    return _separable(None, src, row, column, anchor_x, anchor_y, delta, border, border_value,
                      path, dtype, device, stream)


def separable_filter_into(dst: Any, src: Any, row: Any, column: Any, *, anchor_x: int = -1,
                          anchor_y: int = -1, delta: float = 0.0, border: str = "reflect101",
                          border_value: Any = 0, path: str = "auto", device: str = "auto",
                          stream: Any = None) -> Any:
    """separable_filter into dst; returns dst."""
    return _separable(dst, src, row, column, anchor_x, anchor_y, delta, border, border_value,
                      path, None, device, stream)


def _gaussian(dst, src, ksize, sigma, ksize_y, sigma_y, border, border_value, path, device,
              stream):
    s, d = _same("gaussian_blur", dst, src)
    # As the registry (texcv run): ksize_y defaults to ksize, or is derived from sigma_y when
    # that is given.
    if ksize_y is None:
        ksize_y = 0 if sigma_y > 0 else ksize
    _go("gaussian_blur", _n.gaussian_blur, s, d, device, stream, int(ksize), float(sigma),
        int(ksize_y), float(sigma_y), border, _bv(border_value), path)
    return _ret(d)


def gaussian_blur(src: Any, ksize: int = 0, sigma: float = 0.0, *, ksize_y: int | None = None,
                  sigma_y: float = 0.0, border: str = "reflect101", border_value: Any = 0,
                  path: str = "auto", device: str = "auto", stream: Any = None) -> Any:
    """Gaussian blur, as cv2.GaussianBlur(src, (ksize, ksize_y), sigma, sigma_y): give ksize
    and/or sigma; the missing one is derived as OpenCV does. Accuracy vs OpenCV: 1 level (u8,
    u16), 1e-5 of full scale (f32)."""
    return _gaussian(None, src, ksize, sigma, ksize_y, sigma_y, border, border_value, path,
                     device, stream)


def gaussian_blur_into(dst: Any, src: Any, ksize: int = 0, sigma: float = 0.0, *,
                       ksize_y: int | None = None, sigma_y: float = 0.0,
                       border: str = "reflect101", border_value: Any = 0, path: str = "auto",
                       device: str = "auto", stream: Any = None) -> Any:
    """gaussian_blur into dst; returns dst."""
    return _gaussian(dst, src, ksize, sigma, ksize_y, sigma_y, border, border_value, path,
                     device, stream)


def gaussian_kernel(ksize: int, sigma: float) -> np.ndarray:
    """cv2.getGaussianKernel(ksize, sigma) as a float32 vector."""
    return np.array(_n.gaussian_kernel(int(ksize), float(sigma)), dtype=np.float32)


def _box(dst, src, ksize, ksize_y, normalize, anchor_x, anchor_y, border, border_value, path,
         device, stream):
    s, d = _same("box_filter", dst, src)
    _go("box_filter", _n.box_filter, s, d, device, stream, int(ksize),
        int(ksize if ksize_y is None else ksize_y), bool(normalize), anchor_x, anchor_y, border,
        _bv(border_value), path)
    return _ret(d)


def box_filter(src: Any, ksize: int = 3, *, ksize_y: int | None = None, normalize: bool = True,
               anchor_x: int = -1, anchor_y: int = -1, border: str = "reflect101",
               border_value: Any = 0, path: str = "auto", device: str = "auto",
               stream: Any = None) -> Any:
    """Mean (normalize) or sum over a ksize x ksize_y box, as cv2.boxFilter / cv2.blur.
    Accuracy vs OpenCV: 1 level."""
    return _box(None, src, ksize, ksize_y, normalize, anchor_x, anchor_y, border, border_value,
                path, device, stream)


def box_filter_into(dst: Any, src: Any, ksize: int = 3, *, ksize_y: int | None = None,
                    normalize: bool = True, anchor_x: int = -1, anchor_y: int = -1,
                    border: str = "reflect101", border_value: Any = 0, path: str = "auto",
                    device: str = "auto", stream: Any = None) -> Any:
    """box_filter into dst; returns dst."""
    return _box(dst, src, ksize, ksize_y, normalize, anchor_x, anchor_y, border, border_value,
                path, device, stream)


def sharpen(src: Any, strength: float = 1.0, *, border: str = "reflect101",
            border_value: Any = 0, path: str = "auto", device: str = "auto",
            stream: Any = None) -> Any:
    """src + strength * (k * src - src), k = [[0,-1,0],[-1,5,-1],[0,-1,0]] (strength 1: the
    plain kernel), in one float pass. Accuracy: as cv2.filter2D with that kernel, 1 level."""
    s, d = _same("sharpen", None, src)
    _go("sharpen", _n.sharpen, s, d, device, stream, float(strength), border, _bv(border_value),
        path)
    return _ret(d)


def sharpen_into(dst: Any, src: Any, strength: float = 1.0, *, border: str = "reflect101",
                 border_value: Any = 0, path: str = "auto", device: str = "auto",
                 stream: Any = None) -> Any:
    """sharpen into dst; returns dst."""
    s, d = _same("sharpen", dst, src)
    _go("sharpen", _n.sharpen, s, d, device, stream, float(strength), border, _bv(border_value),
        path)
    return _ret(d)


def _unsharp(dst, src, sigma, amount, ksize, threshold, border, border_value, path, device,
             stream):
    s, d = _same("unsharp_mask", dst, src)
    _go("unsharp_mask", _n.unsharp_mask, s, d, device, stream, float(sigma), int(ksize),
        float(amount), float(threshold), border, _bv(border_value), path)
    return _ret(d)


def unsharp_mask(src: Any, sigma: float = 1.0, amount: float = 1.0, *, ksize: int = 0,
                 threshold: float = 0.0, border: str = "reflect101", border_value: Any = 0,
                 path: str = "auto", device: str = "auto", stream: Any = None) -> Any:
    """src + amount * (src - gaussian_blur(src)) where |src - blur| >= threshold, else src."""
    return _unsharp(None, src, sigma, amount, ksize, threshold, border, border_value, path,
                    device, stream)


def unsharp_mask_into(dst: Any, src: Any, sigma: float = 1.0, amount: float = 1.0, *,
                      ksize: int = 0, threshold: float = 0.0, border: str = "reflect101",
                      border_value: Any = 0, path: str = "auto", device: str = "auto",
                      stream: Any = None) -> Any:
    """unsharp_mask into dst; returns dst."""
    return _unsharp(dst, src, sigma, amount, ksize, threshold, border, border_value, path,
                    device, stream)


def _deriv(op, fn, dst, src, dtype, device, stream, *args):
    s = as_input(src, op)
    d = s.empty(s.shape, _out_dtype(op, s, dtype)) if dst is None else as_output(dst, op)
    _go(op, fn, s, d, device, stream, *args)
    return _ret(d)


def sobel(src: Any, dx: int = 1, dy: int = 0, ksize: int = 3, *, scale: float = 1.0,
          delta: float = 0.0, border: str = "reflect101", border_value: Any = 0,
          path: str = "auto", dtype: Any = None, device: str = "auto",
          stream: Any = None) -> Any:
    """Sobel derivative, as cv2.Sobel (ksize 1, 3, 5 or 7). With the source type, negative
    values saturate to 0 for u8/u16: use dtype="float32" (ddepth=CV_32F) or delta."""
    return _deriv("sobel", _n.sobel, None, src, dtype, device, stream, int(dx), int(dy),
                  int(ksize), float(scale), float(delta), border, _bv(border_value), path)


def sobel_into(dst: Any, src: Any, dx: int = 1, dy: int = 0, ksize: int = 3, *,
               scale: float = 1.0, delta: float = 0.0, border: str = "reflect101",
               border_value: Any = 0, path: str = "auto", device: str = "auto",
               stream: Any = None) -> Any:
    """sobel into dst (src's type or float32); returns dst."""
    return _deriv("sobel", _n.sobel, dst, src, None, device, stream, int(dx), int(dy),
                  int(ksize), float(scale), float(delta), border, _bv(border_value), path)


def scharr(src: Any, dx: int = 1, dy: int = 0, *, scale: float = 1.0, delta: float = 0.0,
           border: str = "reflect101", border_value: Any = 0, path: str = "auto",
           dtype: Any = None, device: str = "auto", stream: Any = None) -> Any:
    """Scharr 3x3 derivative, as cv2.Scharr ((dx, dy) = (1, 0) or (0, 1))."""
    return _deriv("scharr", _n.scharr, None, src, dtype, device, stream, int(dx), int(dy),
                  float(scale), float(delta), border, _bv(border_value), path)


def scharr_into(dst: Any, src: Any, dx: int = 1, dy: int = 0, *, scale: float = 1.0,
                delta: float = 0.0, border: str = "reflect101", border_value: Any = 0,
                path: str = "auto", device: str = "auto", stream: Any = None) -> Any:
    """scharr into dst; returns dst."""
    return _deriv("scharr", _n.scharr, dst, src, None, device, stream, int(dx), int(dy),
                  float(scale), float(delta), border, _bv(border_value), path)


def laplacian(src: Any, ksize: int = 1, *, scale: float = 1.0, delta: float = 0.0,
              border: str = "reflect101", border_value: Any = 0, path: str = "auto",
              dtype: Any = None, device: str = "auto", stream: Any = None) -> Any:
    """Laplacian, as cv2.Laplacian (ksize 1, 3 or 5)."""
    return _deriv("laplacian", _n.laplacian, None, src, dtype, device, stream, int(ksize),
                  float(scale), float(delta), border, _bv(border_value), path)


def laplacian_into(dst: Any, src: Any, ksize: int = 1, *, scale: float = 1.0,
                   delta: float = 0.0, border: str = "reflect101", border_value: Any = 0,
                   path: str = "auto", device: str = "auto", stream: Any = None) -> Any:
    """laplacian into dst; returns dst."""
    return _deriv("laplacian", _n.laplacian, dst, src, None, device, stream, int(ksize),
                  float(scale), float(delta), border, _bv(border_value), path)


# ---- Non-linear filters -------------------------------------------------------------------------


def median_blur(src: Any, ksize: int = 3, *, device: str = "auto", stream: Any = None) -> Any:
    """Median of each ksize x ksize window (odd, 1 to 255; edges replicated), as
    cv2.medianBlur. Exact (identical to OpenCV)."""
    s, d = _same("median_blur", None, src)
    _go("median_blur", _n.median_blur, s, d, device, stream, int(ksize))
    return _ret(d)


def median_blur_into(dst: Any, src: Any, ksize: int = 3, *, device: str = "auto",
                     stream: Any = None) -> Any:
    """median_blur into dst; returns dst."""
    s, d = _same("median_blur", dst, src)
    _go("median_blur", _n.median_blur, s, d, device, stream, int(ksize))
    return _ret(d)


def bilateral_filter(src: Any, d: int, sigma_color: float, sigma_space: float, *,
                     border: str = "reflect101", border_value: Any = 0, device: str = "auto",
                     stream: Any = None) -> Any:
    """Edge-preserving smoothing, as cv2.bilateralFilter (u8/f32, 1 or 3 channels); the sigmas
    must be > 0 (element units for sigma_color). Accuracy: docs/ops/filters.md's bound."""
    s, o = _same("bilateral_filter", None, src)
    _go("bilateral_filter", _n.bilateral_filter, s, o, device, stream, int(d),
        float(sigma_color), float(sigma_space), border, _bv(border_value))
    return _ret(o)


def bilateral_filter_into(dst: Any, src: Any, d: int, sigma_color: float, sigma_space: float,
                          *, border: str = "reflect101", border_value: Any = 0,
                          device: str = "auto", stream: Any = None) -> Any:
    """bilateral_filter into dst; returns dst."""
    s, o = _same("bilateral_filter", dst, src)
    _go("bilateral_filter", _n.bilateral_filter, s, o, device, stream, int(d),
        float(sigma_color), float(sigma_space), border, _bv(border_value))
    return _ret(o)


# ---- Morphology ---------------------------------------------------------------------------------


def _morph(name, dst, src, op, ksize, shape, ksize_y, anchor_x, anchor_y, iterations, border,
           border_value, device, stream):
    s, d = _same(name, dst, src)
    bv = None if border_value is None else _bv(border_value)
    _go(name, _n.morphology, s, d, device, stream, op, shape, int(ksize),
        int(ksize if ksize_y is None else ksize_y), int(anchor_x), int(anchor_y),
        int(iterations), border, bv)
    return _ret(d)


def erode(src: Any, ksize: int = 3, *, shape: str = "rect", ksize_y: int | None = None,
          anchor_x: int = -1, anchor_y: int = -1, iterations: int = 1, border: str = "constant",
          border_value: Any = None, device: str = "auto", stream: Any = None) -> Any:
    """Minimum over a structuring element ("rect", "ellipse", "cross"), as cv2.erode. The
    constant border without a value never wins (OpenCV's default). Exact."""
    return _morph("erode", None, src, "erode", ksize, shape, ksize_y, anchor_x, anchor_y,
                  iterations, border, border_value, device, stream)


def erode_into(dst: Any, src: Any, ksize: int = 3, *, shape: str = "rect",
               ksize_y: int | None = None, anchor_x: int = -1, anchor_y: int = -1,
               iterations: int = 1, border: str = "constant", border_value: Any = None,
               device: str = "auto", stream: Any = None) -> Any:
    """erode into dst; returns dst."""
    return _morph("erode", dst, src, "erode", ksize, shape, ksize_y, anchor_x, anchor_y,
                  iterations, border, border_value, device, stream)


def dilate(src: Any, ksize: int = 3, *, shape: str = "rect", ksize_y: int | None = None,
           anchor_x: int = -1, anchor_y: int = -1, iterations: int = 1,
           border: str = "constant", border_value: Any = None, device: str = "auto",
           stream: Any = None) -> Any:
    """Maximum over a structuring element, as cv2.dilate. Exact."""
    return _morph("dilate", None, src, "dilate", ksize, shape, ksize_y, anchor_x, anchor_y,
                  iterations, border, border_value, device, stream)


def dilate_into(dst: Any, src: Any, ksize: int = 3, *, shape: str = "rect",
                ksize_y: int | None = None, anchor_x: int = -1, anchor_y: int = -1,
                iterations: int = 1, border: str = "constant", border_value: Any = None,
                device: str = "auto", stream: Any = None) -> Any:
    """dilate into dst; returns dst."""
    return _morph("dilate", dst, src, "dilate", ksize, shape, ksize_y, anchor_x, anchor_y,
                  iterations, border, border_value, device, stream)


def morphology(src: Any, op: str, ksize: int = 3, *, shape: str = "rect",
               ksize_y: int | None = None, anchor_x: int = -1, anchor_y: int = -1,
               iterations: int = 1, border: str = "constant", border_value: Any = None,
               device: str = "auto", stream: Any = None) -> Any:
    """"open", "close", "gradient", "tophat" or "blackhat" (or "erode", "dilate"), as
    cv2.morphologyEx. Exact."""
    return _morph("morphology", None, src, op, ksize, shape, ksize_y, anchor_x, anchor_y,
                  iterations, border, border_value, device, stream)


def morphology_into(dst: Any, src: Any, op: str, ksize: int = 3, *, shape: str = "rect",
                    ksize_y: int | None = None, anchor_x: int = -1, anchor_y: int = -1,
                    iterations: int = 1, border: str = "constant", border_value: Any = None,
                    device: str = "auto", stream: Any = None) -> Any:
    """morphology into dst; returns dst."""
    return _morph("morphology", dst, src, op, ksize, shape, ksize_y, anchor_x, anchor_y,
                  iterations, border, border_value, device, stream)


def structuring_element(shape: str, width: int, height: int | None = None, anchor_x: int = -1,
                        anchor_y: int = -1) -> np.ndarray:
    """cv2.getStructuringElement(shape, (width, height), (anchor_x, anchor_y)) as uint8 0/1."""
    return _n.structuring_element(shape, int(width), int(width if height is None else height),
                                  int(anchor_x), int(anchor_y))


# ---- Colour and intensity -----------------------------------------------------------------------


def cvt_color(src: Any, code: str, *, device: str = "auto", stream: Any = None) -> Any:
    """Colour conversion, as cv2.cvtColor ("rgb2gray", "gray2rgb", "rgb2yuv_bt709", "rgb2hsv",
    ...; docs/ops/color.md). u8 gray is bit-exact with OpenCV."""
    s = as_input(src, "cvt_color")
    _, cout = _n.color_channels(code)
    d = s.empty(out_shape(s, s.shape[0], s.shape[1], cout), s.dtype)
    _go("cvt_color", _n.cvt_color, s, d, device, stream, code)
    return _ret(d)


def cvt_color_into(dst: Any, src: Any, code: str, *, device: str = "auto",
                   stream: Any = None) -> Any:
    """cvt_color into dst; returns dst."""
    s = as_input(src, "cvt_color")
    d = as_output(dst, "cvt_color")
    _go("cvt_color", _n.cvt_color, s, d, device, stream, code)
    return _ret(d)


def gamma(src: Any, gamma: float, *, device: str = "auto", stream: Any = None) -> Any:
    """max * (src / max) ** gamma (max 255, 65535 or 1.0); integer types via a rounded table."""
    s, d = _same("gamma", None, src)
    _go("gamma", _n.gamma, s, d, device, stream, float(gamma))
    return _ret(d)


def gamma_into(dst: Any, src: Any, gamma: float, *, device: str = "auto",
               stream: Any = None) -> Any:
    """gamma into dst; returns dst."""
    s, d = _same("gamma", dst, src)
    _go("gamma", _n.gamma, s, d, device, stream, float(gamma))
    return _ret(d)


def normalize(src: Any, *, mode: str = "minmax", alpha: float = 0.0, beta: float = 1.0,
              mean: float = 0.0, std: float = 1.0, device: str = "auto",
              stream: Any = None) -> Any:
    """"minmax": as cv2.normalize(NORM_MINMAX) to [min(alpha, beta), max(alpha, beta)];
    "mean_std": each channel to the given mean and (population) std."""
    s, d = _same("normalize", None, src)
    _go("normalize", _n.normalize, s, d, device, stream, mode, float(alpha), float(beta),
        float(mean), float(std))
    return _ret(d)


def normalize_into(dst: Any, src: Any, *, mode: str = "minmax", alpha: float = 0.0,
                   beta: float = 1.0, mean: float = 0.0, std: float = 1.0,
                   device: str = "auto", stream: Any = None) -> Any:
    """normalize into dst; returns dst."""
    s, d = _same("normalize", dst, src)
    _go("normalize", _n.normalize, s, d, device, stream, mode, float(alpha), float(beta),
        float(mean), float(std))
    return _ret(d)


def convert(src: Any, dtype: Any = None, *, scale: float = 1.0, offset: float = 0.0,
            device: str = "auto", stream: Any = None) -> Any:
    """saturate(src * scale + offset) in dtype ("uint8", "uint16", "float32"; default src's),
    as cv2.Mat.convertTo."""
    s = as_input(src, "convert")
    name = s.dtype if dtype is None else np.dtype(dtype).name
    if name not in ("uint8", "uint16", "float32"):
        raise unsupported("convert", "dtype is not supported", name, "uint8, uint16 or float32")
    d = s.empty(s.shape, name)
    _go("convert", _n.convert, s, d, device, stream, float(scale), float(offset))
    return _ret(d)


def convert_into(dst: Any, src: Any, *, scale: float = 1.0, offset: float = 0.0,
                 device: str = "auto", stream: Any = None) -> Any:
    """convert into dst (any supported type); returns dst."""
    s = as_input(src, "convert")
    d = as_output(dst, "convert")
    _go("convert", _n.convert, s, d, device, stream, float(scale), float(offset))
    return _ret(d)


def threshold(src: Any, thresh: float, maxval: float, type: str = "binary", *,
              device: str = "auto", stream: Any = None) -> tuple[float, Any]:
    """As cv2.threshold: returns (threshold used, dst). type: "binary", "binary_inv", "trunc",
    "tozero", "tozero_inv" or "otsu" (u8 1-channel; thresh ignored)."""
    s, d = _same("threshold", None, src)
    used = _go("threshold", _n.threshold, s, d, device, stream, float(thresh), float(maxval),
               type)
    return used, _ret(d)


def threshold_into(dst: Any, src: Any, thresh: float, maxval: float, type: str = "binary", *,
                   device: str = "auto", stream: Any = None) -> float:
    """threshold into dst; returns the threshold used."""
    s, d = _same("threshold", dst, src)
    return _go("threshold", _n.threshold, s, d, device, stream, float(thresh), float(maxval),
               type)


def histogram(src: Any, bins: int = 256, range: Sequence[float] = (0.0, 256.0), *,
              device: str = "auto", stream: Any = None) -> np.ndarray:
    """Counts per channel in `bins` equal bins over [range[0], range[1]), as cv2.calcHist:
    a uint64 numpy array (bins,) for an H x W source, (C, bins) for H x W x C. For CUDA arrays
    the counts come back to the host (the call synchronizes the stream)."""
    s = as_input(src, "histogram")
    r = [float(range[0]), float(range[1])]
    if s.is_cuda:
        with s.device_context():
            h = _n.histogram(s.native, int(bins), r, device, s.stream(stream))
    else:
        h = _n.histogram(s.native, int(bins), r, device, 0 if stream is None else
                         _stream_int(stream))
    return h[0] if len(s.shape) == 2 else h


def equalize_hist(src: Any, *, device: str = "auto", stream: Any = None) -> Any:
    """Histogram equalization, as cv2.equalizeHist (u8, 1 channel). Exact."""
    s, d = _same("equalize_hist", None, src)
    _go("equalize_hist", _n.equalize_hist, s, d, device, stream)
    return _ret(d)


def equalize_hist_into(dst: Any, src: Any, *, device: str = "auto", stream: Any = None) -> Any:
    """equalize_hist into dst; returns dst."""
    s, d = _same("equalize_hist", dst, src)
    _go("equalize_hist", _n.equalize_hist, s, d, device, stream)
    return _ret(d)


def clahe(src: Any, clip_limit: float = 40.0, tiles_x: int = 8, tiles_y: int = 8, *,
          device: str = "auto", stream: Any = None) -> Any:
    """Contrast-limited adaptive histogram equalization, as
    cv2.createCLAHE(clip_limit, (tiles_x, tiles_y)).apply (u8/u16, 1 channel); 1 level."""
    s, d = _same("clahe", None, src)
    _go("clahe", _n.clahe, s, d, device, stream, float(clip_limit), int(tiles_x), int(tiles_y))
    return _ret(d)


def clahe_into(dst: Any, src: Any, clip_limit: float = 40.0, tiles_x: int = 8,
               tiles_y: int = 8, *, device: str = "auto", stream: Any = None) -> Any:
    """clahe into dst; returns dst."""
    s, d = _same("clahe", dst, src)
    _go("clahe", _n.clahe, s, d, device, stream, float(clip_limit), int(tiles_x), int(tiles_y))
    return _ret(d)


# ---- Files and runtime ----------------------------------------------------------------------------


def imread(path: Any, *, allow_corrupt: bool = False,
           max_pixels: int = 256_000_000) -> np.ndarray:
    """Reads a PNG, JPEG or TIFF file (a TIFF's first page) into a numpy array (H x W for gray,
    else H x W x C, RGB order; uint8, uint16 or float32) through texcv's codecs.

    Corrupt data raises texcv.IoError ("imread: <path>: Corrupt JPEG data: bad Huffman code",
    ...), as texcv::imread does; allow_corrupt=True returns what the decoder recovered instead
    (texcv::ReadOptions::allow_corrupt; damage the decoder cannot get past still raises).

    max_pixels: the largest image read (width x height; 0: no limit), as texcv run's and texcv
    batch's --max-pixels (the same default): a larger one raises texcv.IoError from its header,
    before any pixel is allocated."""
    return _n.imread(str(path), bool(allow_corrupt), int(max_pixels))


def imwrite(path: Any, img: Any, *, jpeg_quality: int = 95, png_compression: int = 6,
            tiff_compression: str = "none", tiff_level: int = 0,
            tiff_compress: bool = True) -> None:
    """Writes img (numpy, or a CuPy/torch array, copied to the host) to path; the format comes
    from the extension. Written to a temporary file and renamed into place.

    jpeg_quality 1..100; png_compression 0..9 (zlib level). tiff_compression: "none" (the
    default), "deflate" (also "zip"), "zstd", "lzw", "packbits" or "lzma", all lossless; those
    this build's libtiff can write are info()["tiff_compressions"]. tiff_level: the codec's
    level, 0 for its default (deflate 1..9, zstd 1..22, lzma 1..9; the others have none).
    tiff_compress is deprecated: False writes uncompressed TIFF whatever tiff_compression says,
    True leaves tiff_compression in charge."""
    k = kind_of(img)
    if k == "cupy":
        img = img.get()
    elif k in ("torch", "torch_cpu"):
        img = img.detach().cpu().numpy()
    a = as_input(img, "imwrite", "img")
    _n.imwrite(str(path), a.native, int(jpeg_quality), int(png_compression),
               str(tiff_compression), int(tiff_level), bool(tiff_compress))


_BYTES = (bytes, bytearray, memoryview)


def decode(data: Any, *, device: str = "auto", allow_corrupt: bool = False,
           max_pixels: int = 256_000_000) -> Any:
    """Decodes encoded PNG, JPEG or TIFF bytes (the format from the bytes' signature).

    One bytes object: a numpy array (as imread on a file of those bytes, with the CPU codecs);
    a failure raises (texcv.IoError for damaged or unsupported data). A list of them: ``(arrays,
    statuses)``, one of each per item, in order: a bad item is reported, not raised: its array
    is None and its status says why (``{"status": "failed", "error": "...", "stage": "read",
    ...}``; "ok" and "corrupt" (allow_corrupt) items have their array). A list runs through the
    batch engine: its decode threads on the CPU, and with device="cuda" (or "auto" on a machine
    with a usable GPU) JPEGs through nvJPEG, batched on the GPU's hardware JPEG decoders where
    it has them; each status's "device" and "decoder" say where an item was decoded. The arrays
    are numpy arrays either way. max_pixels: the largest image accepted (0: no limit), checked
    from the header before any pixel is allocated."""
    if isinstance(data, _BYTES):
        return _n.imdecode(bytes(data), bool(allow_corrupt), int(max_pixels))
    if not isinstance(data, (list, tuple)):
        raise invalid("decode", "data must be bytes or a list of bytes", type(data).__name__,
                      "bytes, bytearray, memoryview or a list of them")
    for i, d in enumerate(data):
        if not isinstance(d, _BYTES):
            raise invalid("decode", f"item {i} is not bytes", type(d).__name__,
                          "bytes, bytearray or memoryview")
    if not isinstance(device, str):
        raise invalid("decode", "device must be a string", repr(device), "cpu, cuda or auto")
    arrays, statuses = _n.decode_many([bytes(d) for d in data], device, bool(allow_corrupt),
                                      int(max_pixels))
    return list(arrays), list(statuses)


def encode(img: Any, format: str = "png", *, jpeg_quality: int = 95, png_compression: int = 6,
           tiff_compression: str = "none", tiff_level: int = 0) -> Any:
    """Encodes an image (numpy, or CuPy/torch copied to the host) as format ("png", "jpeg" or
    "jpg", "tiff" or "tif"): the bytes imwrite would write to such a file with the same
    options. One image: bytes; a failure raises (a type the format cannot hold: texcv.
    UnsupportedError). A list: ``(encoded, statuses)``, one of each per item, in order: a bad
    item's bytes are None and its status says why (``{"status": "failed", "error": "..."}``),
    the others are encoded. The CPU codecs encode (libjpeg-turbo, libpng, libtiff)."""
    opts = (str(format), int(jpeg_quality), int(png_compression), str(tiff_compression),
            int(tiff_level))

    def one(a: Any) -> bytes:
        k = kind_of(a)
        if k == "cupy":
            a = a.get()
        elif k in ("torch", "torch_cpu"):
            a = a.detach().cpu().numpy()
        return _n.imencode(as_input(a, "encode", "img").native, *opts)

    if not isinstance(img, (list, tuple)):
        return one(img)
    encoded: list[bytes | None] = []
    statuses: list[dict] = []
    for a in img:
        try:
            encoded.append(one(a))
            statuses.append({"status": "ok", "error": None})
        except Error as e:
            encoded.append(None)
            statuses.append({"status": "failed", "error": str(e)})
    return encoded, statuses


def read_info(path: Any) -> dict:
    """The header of an image file: width, height, channels, dtype, format, pages (a TIFF's
    number of images; 1 for PNG and JPEG)."""
    return _n.read_info(str(path))


def devices() -> list[dict]:
    """The GPUs texcv can use (empty without CUDA or without a GPU), with their texture limits."""
    return list(_n.gpus())


def cuda_available() -> bool:
    """True when texcv was built with CUDA and a GPU is usable."""
    return bool(_n.cuda_available())


def clear_texture_cache() -> None:
    """Destroys the cached CUDA texture objects of every GPU (texcv keeps one per bound source
    view so that repeated calls on the same array skip creating it). Call it after freeing many
    device arrays that were read through textures; a no-op without CUDA."""
    _n.clear_texture_cache()


def info() -> dict:
    """Build options (version, CUDA, architectures, OpenMP, formats, tiff_compressions: those
    imwrite can write), GPUs and which device device="auto" picks for numpy arrays."""
    b = dict(_n.build_info())
    b["gpus"] = devices()
    b["default_device"] = "cuda" if cuda_available() else "cpu"
    return b


def operations() -> list[dict]:
    """The operation registry: every operation's name, summary and parameters."""
    return list(_n.operations())



class Pipeline:
    """A pipeline of operations, parsed and validated once: ``Pipeline("resize:scale=0.5;sharpen")``.

    The text is the ``texcv run -p`` / ``texcv batch -p`` syntax (steps separated by ";", each
    "name" or "name:key=value,key=value"; ``texcv.operations()`` lists the names and parameters),
    with the same errors. ``p(img)`` runs it on one array and returns a new array of the same kind
    (numpy, CuPy, torch); ``p([a, b, ...])`` runs it on a list of arrays of any sizes and returns
    a list; on the GPU each step of a list is one batched kernel launch where the operation
    supports it (as ``texcv batch``'s GPU workers). ``p.run_into(dst, src)`` writes into arrays
    you own. ``device=`` and ``stream=`` work as for the single operations; the GIL is released
    while it runs, and its intermediate buffers (and, for numpy arrays on the GPU, the device
    copies) are kept and reused between calls. Not thread-safe: one call at a time per Pipeline.
    """

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise invalid("Pipeline", "the pipeline must be a string", repr(text),
                          "steps such as \"resize:scale=0.5;sharpen\"")
        self._p = _n.Pipeline(text)

    @property
    def text(self) -> str:
        """The steps as written, joined with ";"."""
        return self._p.text

    @property
    def steps(self) -> list[tuple[str, dict[str, str]]]:
        """Each step's operation name and its parameters as written."""
        return [(name, dict(params)) for name, params in self._p.steps]

    def __repr__(self) -> str:
        return f"texcv.Pipeline({self.text!r})"

    def __reduce__(self) -> tuple:
        # Pickled as its text (multiprocessing, Ray actors' arguments); the buffers are not kept.
        return (Pipeline, (self.text,))

    def output_format(self, src: Any) -> tuple[int, int, int, str]:
        """(width, height, channels, dtype) of the output on src; validates every step on it."""
        a = as_input(src, "Pipeline")
        w, h, c, t = self._p.output_format(a.native)
        return w, h, c, _DTYPES[t]

    def __call__(self, src: Any, *, device: str = "auto", stream: Any = None) -> Any:
        many = isinstance(src, (list, tuple))
        ins = [as_input(a, "Pipeline") for a in (src if many else [src])]
        outs = []
        for a in ins:
            w, h, c, t = self._p.output_format(a.native)
            # As the single operations: an H x W x 1 source keeps its third axis while the
            # channel count does not change.
            shape = out_shape(a, h, w) if c == a.channels else out_shape(a, h, w, c)
            outs.append(a.empty(shape, _DTYPES[t]))
        self._run(ins, outs, device, stream)
        return [o.obj for o in outs] if many else outs[0].obj

    def run_into(self, dst: Any, src: Any, *, device: str = "auto", stream: Any = None) -> Any:
        """Runs into dst (an array, or a list of them for a list src); returns dst."""
        many = isinstance(src, (list, tuple))
        if many != isinstance(dst, (list, tuple)):
            raise invalid("Pipeline", "src and dst must both be arrays or both be lists",
                          f"{type(src).__name__} and {type(dst).__name__}", "the same")
        ins = [as_input(a, "Pipeline") for a in (src if many else [src])]
        outs = [as_output(a, "Pipeline") for a in (dst if many else [dst])]
        self._run(ins, outs, device, stream)
        return dst

    def _run(self, ins: list[Array], outs: list[Array], device: str, stream: Any) -> None:
        if not isinstance(device, str):
            raise invalid("Pipeline", "device must be a string", repr(device), "cpu, cuda or auto")
        if not ins:
            return
        first = next((a for a in ins + outs if a.is_cuda), None)
        if first is not None:
            with first.device_context():
                self._p.run_into([a.native for a in ins], [o.native for o in outs], device,
                                 first.stream(stream))
            return
        st = 0 if stream is None else _stream_int(stream)
        self._p.run_into([a.native for a in ins], [o.native for o in outs], device, st)


_DTYPES = {"u8": "uint8", "u16": "uint16", "f32": "float32"}


def _pipeline_text(op: str, pipeline: Any) -> str:
    """The text of a pipeline given as a string or a texcv.Pipeline (texcv.batch, texcv.ray),
    parsed and checked here with the command's messages."""
    if isinstance(pipeline, Pipeline):
        return pipeline.text
    if not isinstance(pipeline, str):
        raise invalid(op, "pipeline must be a string or a texcv.Pipeline",
                      type(pipeline).__name__, "steps such as \"resize:scale=0.5;sharpen\"")
    return Pipeline(pipeline).text

__all__ = sorted(
    n for n, v in list(globals().items())
    if callable(v) and not n.startswith("_") and getattr(v, "__module__", "") == __name__
)
