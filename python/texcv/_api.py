"""The operations of texcv for numpy, CuPy and torch arrays.

Every operation is made from its C++ spec (texcv._ops, at the end of this file); those written
here are the helpers (imread, imwrite, decode, encode, devices, Pipeline, ...). Every C++
operation is a function of the same name and keyword arguments that returns a new array of the
input's kind, plus ``<name>_into(dst, src, ...)`` that writes into an existing one
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
from ._arrays import ELEM_TYPE_DTYPES, Array, as_input, as_output, kind_of, out_shape
from ._errors import Error, invalid, unsupported


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


# ---- Geometry ---------------------------------------------------------------------------------


def rotated_size(width: int, height: int, angle: float, expand: bool = True) -> tuple[int, int]:
    """(width, height) of rotate's output: the source size, or with expand the bounding box."""
    return tuple(_n.rotated_size(int(width), int(height), float(angle), bool(expand)))


def rotation_matrix(src_w: int, src_h: int, dst_w: int, dst_h: int, angle: float) -> np.ndarray:
    """The 2x3 source-to-destination matrix rotate uses (float64)."""
    return np.array(_n.rotation_matrix(src_w, src_h, dst_w, dst_h, float(angle))).reshape(2, 3)


# ---- Linear filters -----------------------------------------------------------------------------


def gaussian_kernel(ksize: int, sigma: float) -> np.ndarray:
    """cv2.getGaussianKernel(ksize, sigma) as a float32 vector."""
    return np.array(_n.gaussian_kernel(int(ksize), float(sigma)), dtype=np.float32)


# ---- Morphology ---------------------------------------------------------------------------------


def structuring_element(shape: str, width: int, height: int | None = None, anchor_x: int = -1,
                        anchor_y: int = -1) -> np.ndarray:
    """cv2.getStructuringElement(shape, (width, height), (anchor_x, anchor_y)) as uint8 0/1."""
    return _n.structuring_element(shape, int(width), int(width if height is None else height),
                                  int(anchor_x), int(anchor_y))


# ---- Colour and intensity -----------------------------------------------------------------------


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
        return w, h, c, ELEM_TYPE_DTYPES[t]

    def __call__(self, src: Any, *, device: str = "auto", stream: Any = None) -> Any:
        many = isinstance(src, (list, tuple))
        ins = [as_input(a, "Pipeline") for a in (src if many else [src])]
        outs = []
        for a in ins:
            w, h, c, t = self._p.output_format(a.native)
            # As the single operations: an H x W x 1 source keeps its third axis while the
            # channel count does not change.
            shape = out_shape(a, h, w) if c == a.channels else out_shape(a, h, w, c)
            outs.append(a.empty(shape, ELEM_TYPE_DTYPES[t]))
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


def _pipeline_text(op: str, pipeline: Any) -> str:
    """The text of a pipeline given as a string or a texcv.Pipeline (texcv.batch, texcv.ray),
    parsed and checked here with the command's messages."""
    if isinstance(pipeline, Pipeline):
        return pipeline.text
    if not isinstance(pipeline, str):
        raise invalid(op, "pipeline must be a string or a texcv.Pipeline",
                      type(pipeline).__name__, "steps such as \"resize:scale=0.5;sharpen\"")
    return Pipeline(pipeline).text

# The operations (resize, gaussian_blur, ..., remap, histogram), made from their C++ specs
# (texcv._ops).
from ._ops import make_all as _make_all  # noqa: E402

globals().update(_make_all(_go))

__all__ = sorted(
    n for n, v in list(globals().items())
    if callable(v) and not n.startswith("_")
    and (getattr(v, "__module__", "") == __name__ or hasattr(v, "__texcv_op__"))
)
