"""texcv on Ray Data: the batch engine in each actor of a ``map_batches`` (issue 19, item 5).

    import ray, texcv.ray
    ds = ray.data.read_binary_files("s3://bucket/raw/", include_paths=True)
    out = ds.map_batches(texcv.ray.Processor, fn_constructor_kwargs=dict(
        pipeline="resize:scale=0.5;sharpen", output="/mnt/out", root="s3://bucket/raw/"),
        batch_size=64, num_gpus=1, compute=ray.data.ActorPoolStrategy(size=2))
    report = out.take_all()          # one row per file: path, output, status, error, record

or the whole job in one call, with resume and a report file:

    texcv.ray.process("raw/", "out/", "resize:scale=0.5;sharpen", num_gpus=1, concurrency=2,
                      report="report.jsonl")

Each row of a batch is an encoded file (``bytes``) and its ``path``. An actor runs the batch
through the library's batch engine (the engine of ``texcv batch``: the CPU codecs or nvJPEG,
the pipeline, per-file fault isolation) and writes each output itself (a temporary file beside it,
then a rename: never a half-written file), or returns the encoded bytes or the images. Every row
comes back with the report's status and error: a bad file is a row with ``status == "failed"``,
not an exception that fails the block. Only a lost GPU raises (texcv.CudaError), so that Ray
replaces the actor and retries its batch (the files it had written stay, whole).

Ray is optional: ``pip install .[ray]``.
"""

from __future__ import annotations

import json
import os
from typing import Any, Sequence

import numpy as np

from . import _texcv as _n
from ._api import _pipeline_text
from ._errors import CudaError, InvalidArgumentError

_FORMAT_EXT = {"png": ".png", "jpeg": ".jpg", "jpg": ".jpg", "tiff": ".tif", "tif": ".tif"}
_DELIVER = ("files", "encoded", "images")


def output_path(path: str, output: str, root: str | None, format: str | None) -> str:
    """Where the output of input `path` goes: under `output`, at the path relative to `root`
    (the whole file name when root is None), with the format's extension when one is given."""
    p = os.fspath(path)
    if root is not None:
        r = os.fspath(root).rstrip("/") + "/"
        if not p.startswith(r):
            raise InvalidArgumentError(
                f"texcv.ray: input is not under root; got '{p}', expected a path under '{r}'")
        rel = p[len(r):]
    else:
        rel = p.rsplit("/", 1)[-1]
    if format not in (None, "same"):
        if format not in _FORMAT_EXT:
            raise InvalidArgumentError(
                f"texcv.ray: unknown format; got '{format}', expected same, png, jpeg or tiff")
        rel = os.path.splitext(rel)[0] + _FORMAT_EXT[format]
    return os.path.join(os.fspath(output), rel)


class Processor:
    """A callable class for ``Dataset.map_batches``: rows of ``bytes`` and ``path`` (as
    ``ray.data.read_binary_files(..., include_paths=True)`` makes them), or rows of ``path``
    alone (the actor reads each file itself: a filesystem every node sees) in; one row per file
    out, with the columns path, output, status, error, stage, device and record (the report line
    of texcv batch, JSON), and with deliver="encoded" the column encoded (bytes), with
    deliver="images" the column image (an array per row).

    Parameters:
        pipeline: steps such as "resize:scale=0.5;sharpen", or a texcv.Pipeline
        output: the output folder (deliver="files"): each file under it at its path relative to
            root (without root: at its file name)
        root: the folder the input paths are relative to
        format: output format: same (default: each input's), png, jpeg or tiff
        deliver: files (written by the actor), encoded (bytes returned) or images (arrays
            returned)
        device: auto (default: cuda in an actor Ray gave a GPU, cpu otherwise), cpu or cuda
        quality, png_compression, tiff_compression, tiff_level, bit_depth, allow_corrupt,
            max_pixels: as texcv batch's options of those names
        workers: the engine's CPU workers in this actor, and its decode and encode threads,
            each worker's operations on one thread (0: one per CPU Ray gave the actor, at least
            1): an actor keeps to its share of the node
    """

    def __init__(self, pipeline: Any, output: str | os.PathLike | None = None, *,
                 root: str | os.PathLike | None = None, format: str | None = None,
                 deliver: str = "files", device: str = "auto", quality: int = 95,
                 png_compression: int = 6, tiff_compression: str = "none", tiff_level: int = 0,
                 bit_depth: int = 0, allow_corrupt: bool = False,
                 max_pixels: int = 256_000_000, workers: int = 0):
        self.pipeline = _pipeline_text("texcv.ray", pipeline)
        if deliver not in _DELIVER:
            raise InvalidArgumentError(
                f"texcv.ray: unknown deliver; got '{deliver}', expected files, encoded or images")
        if deliver == "files" and output is None:
            raise InvalidArgumentError(
                "texcv.ray: deliver=\"files\" writes the outputs under an output folder; got "
                "output=None, expected output=\"<folder>\" (or deliver=\"encoded\"/\"images\")")
        self.output = None if output is None else os.fspath(output)
        self.root = None if root is None else os.fspath(root)
        self.format = format
        self.deliver = deliver
        if device == "auto":
            device = "cuda" if _ray_gpu_ids() else "cpu"
        self.device = device
        # The actor's engine: its workers (on a GPU: the CUDA streams, buffers and nvJPEG's
        # states) are made and set up here, once, and serve every batch.
        self.session = _n.BatchSession(
            self.pipeline, deliver, device, allow_corrupt=bool(allow_corrupt),
            max_pixels=int(max_pixels), bit_depth=int(bit_depth), jpeg_quality=int(quality),
            png_compression=int(png_compression), tiff_compression=str(tiff_compression),
            tiff_level=int(tiff_level), workers=int(workers) or _ray_cpus(), threads=1)
        made, lost, self.gpu_note = self.session.start()
        if lost:
            raise CudaError("texcv.ray: cannot set up this actor's workers (" + "; ".join(lost)
                            + ")")
        self.workers_made = made  # by the constructor; each batch after: 0 while none is lost
        if self.output is not None:
            os.makedirs(self.output, exist_ok=True)

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        paths = [str(p) for p in batch["path"]]
        # Rows without bytes (process(read="paths"), or ray.data.from_items of paths): the
        # engine's read threads read each file at its path, as texcv batch does.
        datas = [bytes(b) for b in batch["bytes"]] if "bytes" in batch else []
        outputs = []
        folders = set()  # each output folder made once a batch, not once a file
        for p in paths:
            if self.output is not None:
                o = output_path(p, self.output, self.root, self.format)
                folders.add(os.path.dirname(o) or ".")
            else:  # a name only: its extension picks the format
                o = output_path(p, "", None, self.format)
            outputs.append(o)
        for d in folders:
            os.makedirs(d, exist_ok=True)
        records, results, lost, made = self.session.process(paths, datas, outputs)
        self.workers_made += made
        if lost:
            # Ray replaces this actor and retries the batch; the files written stay whole.
            raise CudaError("texcv.ray: GPU lost in this actor (" + "; ".join(lost) + ")")
        rows = [json.loads(r) for r in records]
        out: dict[str, Any] = {
            "path": np.array(paths, dtype=object),
            "output": np.array([o if self.deliver == "files" else None for o in outputs],
                               dtype=object),
            "status": np.array([r["status"] for r in rows], dtype=object),
            "error": np.array([r.get("error") for r in rows], dtype=object),
            "stage": np.array([r.get("stage") for r in rows], dtype=object),
            "device": np.array([r.get("device") for r in rows], dtype=object),
            "record": np.array(records, dtype=object),
        }
        if self.deliver != "files":
            col = np.empty(len(results), dtype=object)
            for i, v in enumerate(results):
                col[i] = v
            out["encoded" if self.deliver == "encoded" else "image"] = col
        return out


def _ray_gpu_ids() -> list:
    try:
        import ray

        return list(ray.get_gpu_ids()) if ray.is_initialized() else []
    except Exception:  # outside a Ray worker
        return []


def _ray_cpus() -> int:
    try:
        import ray

        n = ray.get_runtime_context().get_assigned_resources().get("CPU", 1)
        return max(1, int(n))
    except Exception:
        return 1


def auto_batch_size(files: int, concurrency: int) -> int:
    """process()'s default batch size: `files` shared out as about 4 batches per actor, each of
    16 to 2048 files."""
    per = -(-files // max(1, 4 * int(concurrency)))
    return max(16, min(2048, per))


def _input_files(input: str, list_: Sequence[str] | None, output: str) -> list[str]:
    if list_ is not None:
        return [os.path.join(input, p) for p in list_]
    if os.path.isfile(input):
        return [input]
    if not os.path.isdir(input):
        raise InvalidArgumentError(
            f"texcv.ray.process: input not found; got '{input}', expected a folder or a file")
    # An output folder inside the input holds outputs, not inputs (as texcv batch excludes it):
    # a second run would otherwise process the first one's results.
    out = os.path.realpath(output)
    found = []
    for d, dirs, files in os.walk(input):
        dirs[:] = sorted(x for x in dirs if os.path.realpath(os.path.join(d, x)) != out)
        for f in sorted(files):
            if os.path.splitext(f)[1].lower() in (".png", ".jpg", ".jpeg", ".tif", ".tiff"):
                found.append(os.path.join(d, f))
    return found


def process(input: str | os.PathLike, output: str | os.PathLike, pipeline: Any, *,
            list: Sequence[str] | None = None, format: str | None = None, resume: bool = True,
            report: str | os.PathLike | None = None, num_gpus: float = 0,
            concurrency: int = 1, batch_size: int | None = None, num_cpus: float = 1,
            read: str = "paths", **options: Any) -> list[dict]:
    """The whole job on the current Ray cluster (``ray.init()`` first, or it starts a local
    one): the PNG, JPEG and TIFF files under `input` (or the `list` of paths relative to it)
    through `pipeline` into `output`, mirroring the tree, in `concurrency` actors of
    Processor with `num_gpus` GPUs and `num_cpus` CPUs each. resume (default True): files
    whose output exists are not read again (their rows say "skipped"). report: also write the
    rows as JSON lines (".jsonl") or Parquet (".parquet"). Returns the report's records (the
    keys of texcv batch's --report), one per file, naming files by absolute path. Other
    keywords go to Processor (quality, device, max_pixels, workers, ...).

    read: "paths" (default): the rows are the paths, and each actor's engine reads its files
    itself with its read threads, as texcv batch does (input and output on a filesystem every
    node sees, as the output already must be); "bytes": Ray's read tasks read the files
    (ray.data.read_binary_files) and the bytes reach the actors through the object store; leave
    those tasks a CPU: concurrency x num_cpus below the cluster's CPUs (on a 2-CPU machine two
    actors of 1 CPU each wait for ever).

    batch_size: files per call of an actor (one run of its engine, which fills and drains its
    decode, process and encode stages once per call). None (default): the files shared out as
    about 4 batches per actor, 16 to 2048 files each: few engine runs on a large job, and each
    actor still gets work while the others finish.
    """
    import ray

    if read not in ("paths", "bytes"):
        raise InvalidArgumentError(
            f"texcv.ray.process: unknown read; got '{read}', expected paths or bytes")
    # Absolute paths: the actors run in folders (and on nodes) of their own.
    input = os.path.abspath(os.fspath(input))
    output = os.path.abspath(os.fspath(output))
    text = _pipeline_text("texcv.ray.process", pipeline)
    files = _input_files(input, list, output)
    root = input if os.path.isdir(input) else os.path.dirname(input)
    records: list[dict] = []
    todo = []
    for f in files:
        o = output_path(f, output, root, format)
        if resume and os.path.exists(o):
            records.append({"input": f, "output": o, "status": "skipped", "error": None,
                            "stage": None})
        else:
            todo.append(f)
    if batch_size is None:
        batch_size = auto_batch_size(len(todo), concurrency)
    if todo:
        if read == "bytes":
            ds = ray.data.read_binary_files(todo, include_paths=True)
        else:
            # One block per batch: from_items' default (about 200 blocks) costs 0.3-0.8 s of
            # the driver's time for 2,000-8,000 paths, 20 ms this way.
            ds = ray.data.from_items([{"path": f} for f in todo],
                                     override_num_blocks=-(-len(todo) // batch_size))
        kwargs = dict(pipeline=text, output=output, root=root, format=format, **options)
        done = ds.map_batches(Processor, fn_constructor_kwargs=kwargs, batch_size=batch_size,
                              num_gpus=num_gpus, num_cpus=num_cpus,
                              compute=ray.data.ActorPoolStrategy(size=concurrency))
        for row in done.iter_rows():
            records.append(json.loads(row["record"]))
    if report is not None:
        report = os.fspath(report)
        if report.endswith(".parquet"):
            import pandas as pd

            pd.DataFrame([{k: json.dumps(v) if isinstance(v, (dict, list)) else v
                           for k, v in r.items()} for r in records]).to_parquet(report)
        else:
            with open(report, "w", encoding="utf-8") as f:
                for r in records:
                    f.write(json.dumps(r) + "\n")
    return records
