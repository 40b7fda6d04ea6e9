"""texcv.batch (issue 19, item 2): the texcv command's batch job from Python, with its options as
keyword arguments, its report as a list of dicts, progress, and Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import texcv
from conftest import files_under, make_image_tree

PIPE = "resize:scale=0.5;flip:code=horizontal"


def make_tree(root: Path) -> None:
    make_image_tree(root, 7)


def rel_records(records: list[dict], src: Path, out: Path) -> dict[str, dict]:
    """The records by input path relative to src, with times dropped and outputs relative."""
    by = {}
    for r in records:
        r = dict(r)
        r.pop("ms")
        if r.get("output"):
            r["output"] = os.path.relpath(r["output"], out)
        by[os.path.relpath(r.pop("input"), src)] = r
    return by


def test_batch_equals_the_command_file_for_file(tmp_path):
    src = tmp_path / "in"
    make_tree(src)
    got = texcv.batch(src, tmp_path / "a", PIPE, device="cpu", quality=80)
    r = subprocess.run([sys.executable, "-m", "texcv", "batch", "-i", str(src), "-o",
                        str(tmp_path / "b"), "-p", PIPE, "--device", "cpu", "--quality", "80",
                        "--report", str(tmp_path / "b.jsonl"), "--quiet"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stderr  # two files fail
    want = [json.loads(line) for line in (tmp_path / "b.jsonl").read_text().splitlines()]
    assert rel_records(got, src, tmp_path / "a") == rel_records(want, src, tmp_path / "b")
    statuses = {k: v["status"] for k, v in rel_records(got, src, tmp_path / "a").items()}
    assert statuses == {"p0.png": "ok", "p1.png": "ok", "p2.png": "ok", "p3.png": "ok",
                        "p4.png": "ok", "sub/g.png": "ok", "sub/j.jpg": "ok", "bad.png": "failed",
                        "sub/cut.jpg": "failed"}
    # The same bytes on disk, and each output the module's own pipeline of its input.
    a, b = files_under(tmp_path / "a"), files_under(tmp_path / "b")
    assert a == b and len(a) == 7
    p = texcv.Pipeline(PIPE)
    np.testing.assert_array_equal(texcv.imread(tmp_path / "a" / "sub" / "g.png"),
                                  p(texcv.imread(src / "sub" / "g.png"), device="cpu"))


def test_batch_usage_errors_raise_the_command_message(tmp_path):
    with pytest.raises(texcv.InvalidArgumentError, match="unknown operation 'resiz'"):
        texcv.batch(tmp_path, tmp_path / "o", "resiz:scale=0.5")
    with pytest.raises(texcv.InvalidArgumentError, match="no-such-folder"):
        texcv.batch(tmp_path / "no-such-folder", tmp_path / "o", PIPE)
    with pytest.raises(texcv.InvalidArgumentError, match="quality"):
        texcv.batch(tmp_path, tmp_path / "o", PIPE, quality=300)
    with pytest.raises(texcv.InvalidArgumentError, match="resume must be True or False"):
        texcv.batch(tmp_path, tmp_path / "o", PIPE, resume="yes")
    with pytest.raises(texcv.InvalidArgumentError, match="pipeline must be a string"):
        texcv.batch(tmp_path, tmp_path / "o", 42)
    assert not (tmp_path / "o").exists()


def test_batch_progress_resume_list_and_pipeline_object(tmp_path):
    src = tmp_path / "in"
    make_tree(src)
    seen = []
    got = texcv.batch(src, tmp_path / "o", texcv.Pipeline(PIPE), device="cpu",
                      progress=seen.append, report=tmp_path / "keep.jsonl")
    assert seen == got and len(got) == 9  # once per file, as each finished
    kept = [json.loads(s) for s in (tmp_path / "keep.jsonl").read_text().splitlines()]
    assert kept == got
    # resume: nothing left to do but the two that failed.
    again = texcv.batch(src, tmp_path / "o", PIPE, device="cpu", resume=True)
    assert sorted(r["status"] for r in again) == ["failed", "failed"] + ["skipped"] * 7
    # list: only the listed files (paths relative to input).
    some = texcv.batch(src, tmp_path / "o2", PIPE, device="cpu", list=["p1.png", "sub/g.png"])
    assert sorted(os.path.relpath(r["input"], src) for r in some) == ["p1.png", "sub/g.png"]
    assert all(r["status"] == "ok" for r in some)


def test_batch_progress_true_is_a_tqdm_bar_or_a_clear_error(tmp_path, monkeypatch, capsys):
    src = tmp_path / "in"
    make_tree(src)
    pytest.importorskip("tqdm", reason="tqdm is in tests/python/requirements.txt (the bar's test)")
    got = texcv.batch(src, tmp_path / "o", PIPE, device="cpu", progress=True)
    assert len(got) == 9
    err = capsys.readouterr().err
    assert "texcv batch" in err and "9file" in err.replace(" ", "")  # the bar's last count
    assert "FAILED" in err and "bad.png" in err  # failures written above the bar
    # Without tqdm: refused before the run, with what to do.
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(texcv.InvalidArgumentError, match="tqdm is not installed"):
        texcv.batch(src, tmp_path / "o2", PIPE, progress=True)
    assert not (tmp_path / "o2").exists()
    with pytest.raises(texcv.InvalidArgumentError, match="progress must be True, a callable"):
        texcv.batch(src, tmp_path / "o2", PIPE, progress="bar")


def test_a_progress_callback_that_raises_stops_the_run_cleanly(tmp_path):
    src = tmp_path / "in"
    make_tree(src)

    def boom(r):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        texcv.batch(src, tmp_path / "o", PIPE, device="cpu", workers=1, progress=boom)
    # Whatever was written is whole: every file under the output decodes.
    for p in (tmp_path / "o").rglob("*"):
        if p.is_file():
            assert texcv.imread(p).size > 0, p


CHILD = textwrap.dedent("""
    import json, sys, texcv
    src, out = sys.argv[1], sys.argv[2]
    first = []
    def progress(r):
        if not first:
            first.append(r)
            print("first", flush=True)
    try:
        texcv.batch(src, out, "gaussian_blur:sigma=6;median_blur:ksize=5", device="cpu",
                    workers=1, decode_threads=1, report=out + ".jsonl", progress=progress)
        print("finished", flush=True)
    except KeyboardInterrupt as e:
        print("interrupted", e, flush=True)
""")


def test_ctrl_c_stops_the_run_cleanly(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    rng = np.random.default_rng(11)
    img = rng.integers(0, 256, (200, 240, 3), dtype=np.uint8)
    for i in range(150):
        texcv.imwrite(src / f"f{i:03d}.png", np.roll(img, i, axis=1))
    out = tmp_path / "out"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(src), str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "first"
    child.send_signal(signal.SIGINT)  # as Ctrl-C: the Python process gets it
    stdout, stderr = child.communicate(timeout=120)
    assert stdout.startswith("interrupted texcv batch stopped"), stdout + stderr
    records = [json.loads(s) for s in Path(str(out) + ".jsonl").read_text().splitlines()]
    statuses = [r["status"] for r in records]
    assert len(records) == 150, "every file has a record"
    assert "cancelled" in statuses and statuses.count("ok") >= 1
    assert set(statuses) <= {"ok", "cancelled"}
    # On disk: exactly the files reported ok, each whole and right; no temporary file.
    ok = {os.path.relpath(r["output"], out) for r in records if r["status"] == "ok"}
    assert set(files_under(out)) == ok
    p = texcv.Pipeline("gaussian_blur:sigma=6;median_blur:ksize=5")
    for name in sorted(ok)[:3]:
        i = int(name[1:4])
        np.testing.assert_array_equal(texcv.imread(out / name),
                                      p(np.roll(img, i, axis=1), device="cpu"))
