"""texcv.batch: the texcv command's batch job from Python (issue 19, item 2).

It runs the ``texcv batch`` program that ``pip install .`` installs beside this Python (the
library's batch engine: parallel decode, CPU and GPU workers, nvJPEG, atomic writes) as a child
process, with the keyword arguments as its options, and returns the per-file report. So:

- the results are the command's, file for file: the same planning (mirrored outputs, resume,
  outputs refused over inputs), the same engine, the same report keys and messages;
- a usage error (a bad pipeline, a missing input folder) raises texcv.InvalidArgumentError with
  the command's message before any file is touched;
- the engine's threads, GPU contexts and their teardown stay out of the caller's process (a
  Jupyter kernel keeps its memory and its GPU free);
- Ctrl-C (KeyboardInterrupt) is handed to the command as its SIGINT: no new file starts, the
  files in flight finish and are written whole (temporary file + rename), the others are
  reported "cancelled", and the KeyboardInterrupt is raised again once the command has ended.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Sequence

from ._api import _pipeline_text
from ._errors import InternalError, InvalidArgumentError

# keyword -> the command's option (flags: True adds them, False leaves them out).
_VALUE_OPTIONS = {
    "format": "--format",
    "quality": "--quality",
    "png_compression": "--png-compression",
    "tiff_compression": "--tiff-compression",
    "tiff_level": "--tiff-level",
    "bit_depth": "--bit-depth",
    "device": "--device",
    "devices": "--devices",
    "streams": "--streams",
    "jpeg_codec": "--jpeg-codec",
    "gpu_jpeg_batch": "--gpu-jpeg-batch",
    "decode_threads": "--decode-threads",
    "encode_threads": "--encode-threads",
    "workers": "--workers",
    "queue": "--queue",
    "max_pixels": "--max-pixels",
    "max_bytes": "--max-bytes",
}
_FLAGS = {
    "resume": "--resume",
    "overwrite": "--overwrite",
    "allow_corrupt": "--allow-corrupt",
    "fail_fast": "--fail-fast",
}


def _progress_sink(progress: Any) -> tuple[Callable[[dict], None] | None, Any]:
    """(the per-file callback, a tqdm bar to close or None)."""
    if progress is None or progress is False:
        return None, None
    if progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            raise InvalidArgumentError(
                "batch: progress=True shows a tqdm bar, and tqdm is not installed; got "
                "progress=True, expected tqdm installed (pip install tqdm), a callable, or "
                "progress=None") from None
        bar = tqdm(unit="file", desc="texcv batch")

        def tick(r: dict) -> None:
            bar.update(1)
            if r.get("status") == "failed":
                bar.write(f"FAILED {r.get('input')}: {r.get('error')}", file=sys.stderr)

        return tick, bar
    if callable(progress):
        return progress, None
    raise InvalidArgumentError(
        f"batch: progress must be True, a callable or None; got {type(progress).__name__}, "
        "expected True (a tqdm bar), a function called with each file's result, or None")


def _option_args(options: dict[str, Any]) -> list[str]:
    args: list[str] = []
    for key, value in options.items():
        if value is None:
            continue
        if key in _FLAGS:
            if not isinstance(value, bool):
                raise InvalidArgumentError(
                    f"batch: {key} must be True or False; got {value!r}, expected a bool")
            if value:
                args.append(_FLAGS[key])
        elif key == "glob":
            for g in [value] if isinstance(value, str) else list(value):
                args += ["--glob", str(g)]
        elif key == "devices" and not isinstance(value, str):
            args += ["--devices", ",".join(str(int(d)) for d in value)]
        else:
            if isinstance(value, bool):
                raise InvalidArgumentError(
                    f"batch: {key} takes a value, not a bool; got {value!r}, expected what "
                    f"`texcv batch {_VALUE_OPTIONS[key]}` accepts")
            args += [_VALUE_OPTIONS[key], str(value)]
    return args


class _ReportReader:
    """Reads the report's complete lines as the command appends them."""

    def __init__(self, path: str):
        self.path = path
        self.f = None
        self.partial = ""

    def new_results(self) -> list[dict]:
        if self.f is None:
            try:
                self.f = open(self.path, encoding="utf-8")
            except FileNotFoundError:
                return []
        text = self.partial + self.f.read()
        lines = text.split("\n")
        self.partial = lines.pop()  # "" after a complete line
        return [json.loads(line) for line in lines if line]

    def close(self) -> None:
        if self.f is not None:
            self.f.close()


def batch(input: str | os.PathLike, output: str | os.PathLike, pipeline: Any, *,
          list: str | os.PathLike | Sequence[str] | None = None,
          glob: str | Sequence[str] | None = None, format: str | None = None,
          quality: int | None = None, png_compression: int | None = None,
          tiff_compression: str | None = None, tiff_level: int | None = None,
          bit_depth: int | None = None, device: str = "auto",
          devices: str | Sequence[int] | None = None, streams: int | None = None,
          jpeg_codec: str | None = None, gpu_jpeg_batch: int | None = None,
          decode_threads: int | None = None, encode_threads: int | None = None,
          workers: int | None = None, queue: int | None = None, max_pixels: int | None = None,
          max_bytes: int | None = None, resume: bool = False, overwrite: bool = False,
          allow_corrupt: bool = False, fail_fast: bool = False, report: str | os.PathLike |
          None = None, progress: Any = None) -> list[dict]:
    """Runs a pipeline over a folder (or a list of files) into an output folder, as
    ``texcv batch -i input -o output -p pipeline``, and returns one dict per file.

    Parameters:
        input: input folder (recursive) or one file; with list, the folder the list is relative to
        output: output folder; outputs mirror the input tree
        pipeline: steps such as "resize:scale=0.5;sharpen", or a texcv.Pipeline
        list: the files to process: a list file's path, or a sequence of paths relative to input
        glob: keep inputs matching this pattern (or these patterns)
        format: output format: same (default: each input's), png, jpeg, tiff
        quality, png_compression, tiff_compression, tiff_level, bit_depth: as the command's
            --quality (JPEG, 1 to 100), --png-compression, --tiff-compression, --tiff-level,
            --bit-depth (8, 16 or 32)
        device: "auto" (default: CPU workers at once, CUDA workers join when a GPU is usable),
            "cpu" or "cuda"
        devices, streams, jpeg_codec, gpu_jpeg_batch, decode_threads, encode_threads, workers,
            queue: as the command's options of those names (texcv batch --help)
        max_pixels, max_bytes: per-file limits (default: the command's, 256 M pixels, no byte cap)
        resume: skip files whose output exists; overwrite: replace existing outputs
        allow_corrupt: write what the decoder recovered of damaged files (status "corrupt")
        fail_fast: start no new file after the first failure
        report: also keep the report (JSON lines) in this file
        progress: a function called with each file's result as it finishes, or True for a tqdm
            progress bar (tqdm must be installed)

    Returns the report's records (docs/batch.md, "The report"), in the order the files finished:
    "input", "output", "status" (ok, failed, skipped, cancelled, corrupt, excluded), "error",
    "stage", "device", "in", "out", "ms" and the rest. A file's failure is in its record, not
    raised. Raises texcv.InvalidArgumentError for a usage error (the command's message), and
    KeyboardInterrupt after a Ctrl-C once the command has stopped cleanly.
    """
    from .__main__ import command_path

    pipeline = _pipeline_text("batch", pipeline)
    sink, bar = _progress_sink(progress)
    options = {k: v for k, v in locals().items() if k in _VALUE_OPTIONS or k in _FLAGS}
    options["glob"] = glob
    opts = _option_args(options)
    try:
        exe = command_path()
    except FileNotFoundError as e:
        raise InternalError(str(e)) from None
    with tempfile.TemporaryDirectory(prefix="texcv-batch-") as tmp:
        if list is not None and not isinstance(list, (str, os.PathLike)):
            list_path = os.path.join(tmp, "list.txt")
            with open(list_path, "w", encoding="utf-8", errors="surrogateescape") as f:
                for p in list:
                    f.write(os.fspath(p) + "\n")
            list = list_path
        report_path = os.fspath(report) if report is not None else os.path.join(tmp, "report.jsonl")
        argv = [exe, "batch", "-i", os.fspath(input), "-o", os.fspath(output), "-p", pipeline,
                "--report", report_path, "--quiet", *opts]
        if list is not None:
            argv += ["--list", os.fspath(list)]
        err_path = os.path.join(tmp, "stderr.txt")
        results: list[dict] = []
        reader = _ReportReader(report_path)
        interrupted = False
        # Ctrl-C while the command runs: in the main thread a handler counts them, so that one
        # arriving anywhere in the loop (reading the report, in the progress callback) is the
        # first Ctrl-C, handed on to the command; elsewhere (no handler can be set) a
        # KeyboardInterrupt is caught around the wait.
        ctrl_c = [0]

        def on_sigint(signum: int, frame: Any) -> None:
            ctrl_c[0] += 1

        try:
            old_handler = signal.signal(signal.SIGINT, on_sigint)
        except ValueError:  # not the main thread
            old_handler = None
        with open(err_path, "wb") as err:
            # Its own session: a Ctrl-C in the terminal reaches this process only, which hands
            # the command one SIGINT (a second one would end it at once).
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=err, start_new_session=True)
            try:
                while True:
                    try:
                        done = proc.wait(timeout=0.05) is not None
                    except subprocess.TimeoutExpired:
                        done = False
                    except KeyboardInterrupt:
                        ctrl_c[0] += 1
                        done = False
                    if ctrl_c[0] >= 2 and proc.poll() is None:
                        raise KeyboardInterrupt("texcv batch: a second Ctrl-C ends it at once")
                    if ctrl_c[0] and not interrupted:
                        interrupted = True
                        proc.send_signal(signal.SIGINT)
                    for r in reader.new_results():
                        results.append(r)
                        if sink is not None:
                            sink(r)
                    if done:
                        break
            except BaseException:
                # The callback raised, or a second Ctrl-C came: stop the command as Ctrl-C
                # does (a second SIGINT ends it at once) and wait for it, then raise what came.
                if proc.poll() is None:
                    proc.send_signal(signal.SIGINT)
                    while True:
                        try:
                            proc.wait()
                            break
                        except KeyboardInterrupt:
                            continue
                raise
            finally:
                if old_handler is not None:
                    signal.signal(signal.SIGINT, old_handler)
                reader.close()
                if bar is not None:
                    bar.close()
        with open(err_path, encoding="utf-8", errors="replace") as f:
            stderr = f.read().strip()
    if interrupted:
        raise KeyboardInterrupt(f"texcv batch stopped: {len(results)} file(s) reported")
    if proc.returncode == 2:
        raise InvalidArgumentError(stderr or "texcv batch: usage error (exit code 2)")
    if proc.returncode not in (0, 1):
        raise InternalError(f"texcv batch ended with exit code {proc.returncode}: {stderr}")
    return results
