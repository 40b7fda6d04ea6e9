"""texcv.ray (issue 19, items 5 and 6): the batch engine in Ray Data actors, on a local cluster
of CPU workers (ray.init(num_cpus=2)): outputs equal texcv batch's, bad files are rows, resume
does no work."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import texcv
from conftest import files_under, make_image_tree

ray = pytest.importorskip("ray", reason="Ray is in tests/python/requirements.txt (pip install "
                          ".[ray]); the device machine has none")
import texcv.ray as tray  # noqa: E402

PIPE = "resize:scale=0.5;flip:code=horizontal"

# A Ray job that cannot be scheduled waits for ever: end it (pytest-timeout, in
# tests/python/requirements.txt) rather than CI's whole budget.
pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def cluster():
    # With a usable GPU (the device machine): one GPU for test_gpu_actor_equals_texcv_batch.
    ray.init(num_cpus=2, num_gpus=1 if texcv.cuda_available() else 0, include_dashboard=False,
             log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def make_tree(root: Path) -> None:
    make_image_tree(root, 23)


def test_process_equals_texcv_batch_and_resume_does_no_work(cluster, tmp_path):
    src = tmp_path / "in"
    make_tree(src)
    want = texcv.batch(src, tmp_path / "cli", PIPE, device="cpu", quality=85)
    # read="paths" (the default): the actors read the files themselves, so two actors of one CPU
    # each may take the whole 2-CPU cluster (no read task waits for a CPU).
    got = tray.process(src, tmp_path / "ray", PIPE, device="cpu", quality=85, batch_size=3,
                       concurrency=2, num_cpus=1, report=tmp_path / "report.jsonl")
    # Outputs: the same files, byte for byte.
    assert files_under(tmp_path / "ray") == files_under(tmp_path / "cli")
    assert len(files_under(tmp_path / "ray")) == 7
    # Rows: every file once, the same statuses as the command's; the bad ones say why.
    rel = lambda rs: {os.path.relpath(r["input"], src): r for r in rs}  # noqa: E731
    g, w = rel(got), rel(want)
    assert set(g) == set(w) and len(g) == 9
    assert {k: r["status"] for k, r in g.items()} == {k: r["status"] for k, r in w.items()}
    assert g["bad.png"]["status"] == "failed" and "not a PNG" in g["bad.png"]["error"]
    assert g["sub/cut.jpg"]["status"] == "failed" and g["sub/cut.jpg"]["stage"] == "read"
    for k in ("p0.png", "sub/g.png"):
        assert g[k]["out"] == w[k]["out"] and g[k]["in"] == w[k]["in"]
    # The report file: the same rows.
    lines = [json.loads(s) for s in (tmp_path / "report.jsonl").read_text().splitlines()]
    assert rel(lines) == g
    # resume: the outputs that exist are not read again (only the two bad files are).
    mtimes = {p: p.stat().st_mtime_ns for p in (tmp_path / "ray").rglob("*") if p.is_file()}
    again = rel(tray.process(src, tmp_path / "ray", PIPE, device="cpu"))
    assert sorted(r["status"] for r in again.values()) == ["failed"] * 2 + ["skipped"] * 7
    assert {p: p.stat().st_mtime_ns for p in mtimes} == mtimes
    # An output folder inside the input is not read as input, on the first run or the next.
    inner = src / "out"
    first = tray.process(src, inner, PIPE, device="cpu")
    second = tray.process(src, inner, PIPE, device="cpu")
    assert len(first) == len(second) == 9
    assert not any("/out/" in r["input"] for r in first + second)


def test_process_reading_bytes_through_ray_equals_reading_paths(cluster, tmp_path, monkeypatch):
    src = tmp_path / "in"
    make_tree(src)
    by_path = tray.process(src, tmp_path / "paths", PIPE, device="cpu", quality=85)
    # Two actors of half a CPU each: Ray's read tasks need a CPU of the two too (two actors of one
    # CPU each wait for ever on a 2-CPU cluster).
    by_bytes = tray.process(src, tmp_path / "bytes", PIPE, device="cpu", quality=85, batch_size=4,
                            concurrency=2, num_cpus=0.5, read="bytes")
    assert files_under(tmp_path / "bytes") == files_under(tmp_path / "paths")
    assert len(files_under(tmp_path / "paths")) == 7
    status = lambda rs: {os.path.relpath(r["input"], src): r["status"] for r in rs}  # noqa: E731
    assert status(by_bytes) == status(by_path) and len(by_path) == 9
    # Relative input and output: the rows and files are where the caller's folder says.
    monkeypatch.chdir(tmp_path)
    rel_rows = tray.process("in", "relative", PIPE, device="cpu", quality=85)
    assert files_under(tmp_path / "relative") == files_under(tmp_path / "paths")
    assert all(os.path.isabs(r["input"]) for r in rel_rows)
    with pytest.raises(texcv.InvalidArgumentError, match="unknown read.*'files'.*paths or bytes"):
        tray.process(src, tmp_path / "x", PIPE, read="files")


def test_auto_batch_size_shares_the_files_out():
    assert tray.auto_batch_size(8000, 1) == 2000
    assert tray.auto_batch_size(8000, 4) == 500
    assert tray.auto_batch_size(100_000, 1) == 2048
    assert tray.auto_batch_size(9, 2) == 16


def test_processor_returns_encoded_or_images_and_checks_its_arguments(cluster, tmp_path):
    src = tmp_path / "in"
    make_tree(src)
    ds = ray.data.read_binary_files([str(src / "p1.png"), str(src / "bad.png")],
                                    include_paths=True)
    rows = ds.map_batches(tray.Processor, fn_constructor_kwargs=dict(
        pipeline=texcv.Pipeline(PIPE), deliver="images", device="cpu"), batch_size=2,
        compute=ray.data.ActorPoolStrategy(size=1)).take_all()
    by = {os.path.basename(r["path"]): r for r in rows}
    want = texcv.Pipeline(PIPE)(texcv.imread(src / "p1.png"), device="cpu")
    np.testing.assert_array_equal(by["p1.png"]["image"], want)
    assert by["bad.png"]["status"] == "failed" and by["bad.png"]["image"] is None
    enc = tray.Processor(PIPE, deliver="encoded", format="png", device="cpu")(
        {"path": np.array([str(src / "p1.png")]), "bytes": np.array([(src / "p1.png").read_bytes()],
                                                                    dtype=object)})
    np.testing.assert_array_equal(texcv.decode(enc["encoded"][0]), want)
    assert enc["status"][0] == "ok" and json.loads(enc["record"][0])["out"]["width"] == 22
    with pytest.raises(texcv.InvalidArgumentError, match="unknown operation 'resiz'"):
        tray.Processor("resiz:scale=0.5", deliver="encoded")
    with pytest.raises(texcv.InvalidArgumentError, match="output=None"):
        tray.Processor(PIPE)
    with pytest.raises(texcv.InvalidArgumentError, match="not under root"):
        tray.output_path("/a/b.png", "/o", "/c", None)


def test_processor_makes_its_workers_once_and_they_serve_every_batch(tmp_path):
    src = tmp_path / "in"
    make_tree(src)
    p = tray.Processor(PIPE, deliver="encoded", format="png", device="cpu", workers=2)
    assert p.workers_made == 2 and p.session.workers() == ["cpu:0", "cpu:1"]
    want = texcv.Pipeline(PIPE)(texcv.imread(src / "p1.png"), device="cpu")
    batch = {"path": np.array([str(src / "p1.png"), str(src / "bad.png")]),
             "bytes": np.array([(src / "p1.png").read_bytes(), (src / "bad.png").read_bytes()],
                               dtype=object)}
    for _ in range(3):
        out = p(batch)
        assert list(out["status"]) == ["ok", "failed"]
        np.testing.assert_array_equal(texcv.decode(out["encoded"][0]), want)
    # Rows of paths alone: the engine reads the files.
    out = p({"path": batch["path"]})
    assert list(out["status"]) == ["ok", "failed"] and "not a PNG" in out["error"][1]
    np.testing.assert_array_equal(texcv.decode(out["encoded"][0]), want)
    assert p.workers_made == 2, "the constructor's workers served all three batches"
    assert p.session.workers() == ["cpu:0", "cpu:1"]
    with pytest.raises(texcv.InvalidArgumentError, match="unknown device.*'gpu'.*cpu, cuda or auto"):
        tray.Processor(PIPE, deliver="encoded", device="gpu")
    with pytest.raises(texcv.InvalidArgumentError, match="bit_depth.*'12'|bit_depth.*12"):
        tray.Processor(PIPE, deliver="encoded", device="cpu", bit_depth=12)


@pytest.mark.skipif(not texcv.cuda_available(),
                    reason="no usable GPU here: the GPU actor runs on the device machine "
                    "(bench/batch/issue19_device.sh ray runs this file there)")
def test_gpu_actor_equals_texcv_batch_on_the_gpu(cluster, tmp_path):
    src = tmp_path / "in"
    make_tree(src)
    want = texcv.batch(src, tmp_path / "cli", PIPE, device="cuda", quality=85)
    got = tray.process(src, tmp_path / "ray", PIPE, device="cuda", quality=85, num_gpus=1,
                       num_cpus=1)
    assert files_under(tmp_path / "ray") == files_under(tmp_path / "cli")
    rel = lambda rs: {os.path.relpath(r["input"], src): r for r in rs}  # noqa: E731
    g, w = rel(got), rel(want)
    assert {k: r["status"] for k, r in g.items()} == {k: r["status"] for k, r in w.items()}
    assert g["p0.png"]["device"] == "cuda:0" and g["sub/j.jpg"]["device"] == "cuda:0"
    assert g["sub/j.jpg"].get("decoder") == w["sub/j.jpg"].get("decoder")
