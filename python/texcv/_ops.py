"""The operations as Python functions, made at import from the C++ specs.

Each operation declares its parameters once, in C++ (src/core/ops/<op>.cpp: type, default,
range or choices, help, which are positional, which set the output's size, its input images,
what it returns, its docstring). For every one this module makes ``op(src, ...)`` and
``op_into(dst, src, ...)`` with those parameters, defaults and docstring, as real functions
(their source is generated and compiled once, so a call costs what a hand-written one does). A
call converts the given values to their declared types and hands them to the native entry
points: ``op_output`` (the output's size, channels and type), ``op_run`` (the run, on the CPU or
the GPU, as the other ops) and ``op_counts`` (an op that gives counts, not an image: histogram).
The values are checked as the registry declares them, and the op's own rules by its C++ API
call, with the same messages as the C++ API.

What a spec says beyond plain values: "image" parameters (remap's map_x, map_y: arrays of src's
kind, passed beside it), numpy_dtype (convert's type, given as a numpy dtype named ``dtype``),
and the output kind: "image", "image_value" (threshold: op returns (value, dst), op_into the
value) or "counts" (histogram: a uint64 array, no op_into).

A few operations keep a Python form of their own on top (``_ADAPT``): resize's cv2-style
``dsize`` tuple, a warp's matrix as an array, convolve's 2-D kernel.
"""

from __future__ import annotations

import keyword
import operator
from typing import Any, Callable

import numpy as np

from . import _texcv as _n
from ._arrays import (_EXPECTED_DTYPES, ELEM_TYPE_DTYPES, Array, as_input, as_output, host_floats,
                      out_shape, stream_handle)
from ._errors import invalid, unsupported

_FLOAT_DTYPES = ("float32",)
_op_output = _n.op_output
_op_output_with = _n.op_output_with
_op_run = _n.op_run
_op_run_with = _n.op_run_with
_op_counts = _n.op_counts
# The registry's element type of each numpy dtype name a numpy_dtype parameter takes.
_ELEM_TYPES = {v: k for k, v in ELEM_TYPE_DTYPES.items()}


def _to_int(v: Any) -> Any:
    try:
        return operator.index(v)
    except TypeError:
        return v  # not an integer: the registry says what it expects


def _to_float(v: Any) -> Any:
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
        return float(v)
    return v


def _to_floats(v: Any) -> Any:
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
        return [float(v)]
    if isinstance(v, list) and all(type(x) is float for x in v):
        return v  # already converted (an adapter's)
    return [float(x) for x in host_floats(v).reshape(-1)]


def _to_name(op: str, name: str) -> Callable[[Any], Any]:
    def conv(v: Any) -> Any:
        if isinstance(v, str):
            return v
        raise invalid(op, f"{name} must be a string", repr(v), "one of its names")
    return conv


def _to_elem_type(op: str) -> Callable[[Any], Any]:
    def conv(v: Any) -> Any:
        name = np.dtype(v).name
        if name not in _ELEM_TYPES:
            raise unsupported(op, "dtype is not supported", name, _EXPECTED_DTYPES)
        return _ELEM_TYPES[name]
    return conv


_CONVERT = {"int": _to_int, "float": _to_float, "bool": bool, "floats": _to_floats}


def _py_name(p: dict) -> str:
    """A parameter's name in Python: dtype for an element type given as a numpy dtype."""
    return "dtype" if p["numpy_dtype"] else p["name"]


def _default(p: dict) -> Any:
    """The Python default of a parameter: its declared value, None when it has none (derived
    or optional), no default when it is required."""
    if p["required"]:
        return _REQUIRED
    d = p["default"]
    if d == "":
        return None
    t = p["type"]
    if t == "int":
        return int(d)
    if t == "float":
        return float(d)
    if t == "bool":
        return d == "true"
    if t == "floats":
        xs = [float(x) for x in d.split("|")]
        xs = [int(x) if x.is_integer() else x for x in xs]
        return xs[0] if len(xs) == 1 else xs
    return d


_REQUIRED = object()


# Annotations of the operations' own Python forms (_ADAPT).
_ANNOTATE = {
    ("resize", "width"): "int | tuple[int, int] | None",
    ("convolve", "kernel"): "Any",
    ("warp_affine", "m"): "Any",
    ("warp_perspective", "m"): "Any",
    ("histogram", "range"): "Sequence[float]",
}


def _annotation(op: str, p: dict) -> str:
    if (op, p["name"]) in _ANNOTATE:
        return _ANNOTATE[(op, p["name"])]
    if p["type"] == "image":
        return "Any"
    if p["numpy_dtype"]:
        return "Any"
    t = p["type"]
    if t == "enum":
        ann = "Literal[" + ", ".join(repr(c) for c in p["choices"]) + "]"
    else:
        ann = {"int": "int", "float": "float", "bool": "bool",
               "floats": "float | Sequence[float] | Any"}[t]
    if not p["required"] and p["default"] == "":
        ann += " | None"
    return ann


class _Op:
    """One registry operation: its spec, its values' converters and defaults."""

    # __call__ gives the typed values of the parameters given (None and the defaults are left
    # out) to the native entry points, through `go` (_api._go: the device and stream handling of
    # every op).
    def __init__(self, spec: dict, adapt: Callable | None, go: Callable):
        self.go = go
        self.name = spec["name"]
        self.spec = spec
        self.float_output = spec["float_output"]
        self.keeps_format = spec["keeps_format"]
        self.output = spec["output"]
        self.adapt = adapt
        # The input images beside src (remap's maps), in declaration order.
        self.images = [p["name"] for p in spec["params"] if p["type"] == "image"]
        values = [p for p in spec["params"] if p["type"] != "image"]
        self.convert = {p["name"]: _to_elem_type(self.name) if p["numpy_dtype"] else
                        (_CONVERT.get(p["type"]) or _to_name(self.name, p["name"]))
                        for p in values}
        self.defaults = {p["name"]: _default(p) for p in values}

    def adapted(self, dst: Any, src: Any, values: dict, dtype: Any, device: str,
                stream: Any) -> Any:
        """An op with a Python form of its own: its adapter sees the values as given."""
        s = as_input(src, self.name)
        values = self.adapt(s, values, dst)
        params = {}
        defaults, convert = self.defaults, self.convert
        for k, v in values.items():
            if v is not None and v is not defaults[k]:
                params[k] = convert[k](v)
        return self.run(dst, s, params, dtype, device, stream)

    def run(self, dst: Any, src: Any, params: dict, dtype: Any, device: str,
            stream: Any, images: tuple = ()) -> Any:
        """params: the typed values given (the generated function converted them); images: the
        input images' arrays, in self.images' order."""
        name = self.name
        s = src if isinstance(src, Array) else as_input(src, name)
        if images:
            ims = [as_input(a, name, n).native for n, a in zip(self.images, images)]
            extra = (self.images, ims)
        else:
            extra = ()
        if dst is not None:
            d = as_output(dst, name)
        elif self.keeps_format and dtype is None:
            d = s.empty(s.shape, s.dtype)
        else:
            out = _op_output_with if extra else _op_output
            w, h, c, t = out(name, s.native, params, *extra)
            if dtype is not None:
                t = self.out_dtype(s, dtype)
            d = s.empty(out_shape(s, h, w, None if c == s.channels else c), t)
        value = self.go(name, _op_run_with if extra else _op_run, s, d, device, stream, name,
                        params, *extra)
        if self.output == "image_value":
            return value if dst is not None else (value, d.obj)
        return d.obj

    def counts(self, src: Any, params: dict, device: str, stream: Any) -> Any:
        """An op of output "counts" (histogram): (bins,) for an H x W source, else (C, bins)."""
        s = as_input(src, self.name)
        if s.is_cuda:
            with s.device_context():
                h = _op_counts(s.native, self.name, params, device, s.stream(stream))
        else:
            h = _op_counts(s.native, self.name, params, device,
                           0 if stream is None else stream_handle(stream))
        return h[0] if len(s.shape) == 2 else h

    def out_dtype(self, s: Any, dtype: Any) -> str:
        t = np.dtype(dtype).name
        if t == s.dtype or t in _FLOAT_DTYPES:
            return t
        raise invalid(self.name, "dtype must be the source type or float32", t,
                      f"{s.dtype} or float32")


def _source(op: _Op, into: bool) -> str:
    """The Python source of op(src, ...) or op_into(dst, src, ...)."""
    name = op.name
    params = [p for p in op.spec["params"] if not (into and p["shapes_output"])]
    for p in params:
        assert p["name"].isidentifier() and not keyword.iskeyword(p["name"]), p["name"]
    images = [p["name"] for p in params if p["type"] == "image"]
    values = [p for p in params if p["type"] != "image"]
    args = ["dst: 'Array'", "src: Any"] if into else ["src: 'Array'"]
    positional = [p for p in params if p["positional"]]
    keyword_only = [p for p in params if not p["positional"]]
    # A positional parameter before a required one is required too (bilateral_filter's d).
    last_required = max((i for i, p in enumerate(positional)
                         if p["type"] == "image" or op.defaults[p["name"]] is _REQUIRED),
                        default=-1)
    for i, p in enumerate(positional):
        a = f"{_py_name(p)}: {_annotation(name, p)!r}"
        if i > last_required:
            a += f" = _D[{p['name']!r}]"
        args.append(a)
    args.append("*")
    for p in keyword_only:
        args.append(f"{_py_name(p)}: {_annotation(name, p)!r} = _D[{p['name']!r}]")
    if op.float_output and not into:
        args.append("dtype: Any = None")
    args += ["device: str = 'auto'", "stream: Any = None"]
    dtype = "dtype" if op.float_output and not into else "None"
    fn = f"{name}_into" if into else name
    ret = {"image": "Array", "image_value": "float" if into else "tuple[float, Array]",
           "counts": "np.ndarray"}[op.output]
    head = f"def {fn}({', '.join(args)}) -> {ret!r}:\n"
    if op.output == "counts":
        call = "p, device, stream)\n"
        run = "    return _OP.counts(src, "
    else:
        imgs = f", ({', '.join(images)},)" if images else ""
        call = f"{'dst' if into else 'None'}, src, {{}}, {dtype}, device, stream{imgs})\n"
        run = "    return _OP.run("
    if op.adapt is not None:
        given = "{" + ", ".join(f"{p['name']!r}: {p['name']}" for p in values) + "}"
        return head + "    return _OP.adapted(" + call.replace("{}", given, 1)
    # The values given, converted to their types (None and the defaults left out), then the run.
    body = "    p = {}\n"
    for p in values:
        n, v = p["name"], _py_name(p)
        body += (f"    if {v} is not None and {v} is not _D[{n!r}]:\n"
                 f"        p[{n!r}] = _C[{n!r}]({v})\n")
    return head + body + run + call.replace("{}", "p", 1)


def _make(op: _Op, into: bool) -> Callable:
    ns: dict[str, Any] = {"_OP": op, "_D": op.defaults, "_C": op.convert, "Any": Any}
    code = _source(op, into)
    # dont_inherit: not this module's "from __future__ import annotations" (the annotations are
    # already strings).
    exec(compile(code, f"<texcv op {op.name}>", "exec", dont_inherit=True), ns)  # noqa: S102
    fn = ns[f"{op.name}_into" if into else op.name]
    fn.__module__ = "texcv"
    doc = op.spec["doc"] or op.spec["summary"]
    back = "the number it returns beside its image" if op.output == "image_value" else "dst"
    fn.__doc__ = doc if not into else f"{op.name} into dst; returns {back}. See {op.name}."
    fn.__texcv_op__ = op.name
    return fn


# ---- The operations' own Python forms ----------------------------------------------------------


def _resize(s: Any, values: dict, dst: Any) -> dict:
    """cv2's dsize tuple as width: resize(img, (w, h)); (0, 0) with fx/fy."""
    width = values.get("width")
    if isinstance(width, (tuple, list)):
        values = dict(values)
        values["width"], values["height"] = _dsize(width, values.get("height"),
                                                   values.get("fx"), values.get("fy"))
    return values


def _dsize(width: Any, height: Any, fx: Any, fy: Any) -> tuple[int | None, int | None]:
    got = repr(tuple(width))
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


def _warp(n: int) -> Callable:
    def adapt(s: Any, values: dict, dst: Any) -> dict:
        op = "warp_affine" if n == 6 else "warp_perspective"
        a = host_floats(values["m"]).reshape(-1)
        if a.size != n:
            raise invalid(op, "m must have " + ("2x3" if n == 6 else "3x3") + " numbers",
                          f"{a.size} numbers", str(n))
        values = dict(values)
        values["m"] = [float(v) for v in a]  # converted once: _to_floats passes a list through
        return values
    return adapt


def _convolve(s: Any, values: dict, dst: Any) -> dict:
    """A 2-D kernel (kh x kw) gives kw and kh; a 1-D one is a row."""
    k = host_floats(values["kernel"])
    if k.ndim == 1 and values.get("kw") is None and values.get("kh") is None:
        k = k.reshape(1, -1)
    if k.ndim > 2:
        raise invalid("convolve", "kernel must be 2-D", f"{k.ndim} dimensions", "kh x kw")
    values = dict(values)
    if k.ndim == 2:
        if k.shape[0] > 31 or k.shape[1] > 31:
            raise invalid("convolve", "kernel is too large", f"{k.shape[1]}x{k.shape[0]}",
                          "at most 31x31")
        values["kw"], values["kh"] = int(k.shape[1]), int(k.shape[0])
    values["kernel"] = [float(v) for v in k.reshape(-1)]
    return values


_ADAPT: dict[str, Callable] = {
    "resize": _resize,
    "warp_affine": _warp(6),
    "warp_perspective": _warp(9),
    "convolve": _convolve,
}

def make_all(go: Callable) -> dict[str, Callable]:
    """Every operation's op and op_into (none for counts), by name; go: _api._go."""
    out: dict[str, Callable] = {}
    for spec in _n.api_operations():
        op = _Op(spec, _ADAPT.get(spec["name"]), go)
        out[op.name] = _make(op, False)
        if op.output != "counts":
            out[op.name + "_into"] = _make(op, True)
    return out
