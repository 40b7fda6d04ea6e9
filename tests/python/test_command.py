"""The texcv command from pip (issue 19, item 4): `pip install .` puts the CMake build's texcv
program into the environment's scripts folder, and `python -m texcv` runs it."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

import texcv
from texcv import __main__ as texcv_main


def run(args: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=120, **kw)


def pip_installed() -> bool:
    """texcv came from pip (it has distribution metadata); the device machine's test run assembles
    the package folder by hand, with no pip, and puts the build's command on PATH instead."""
    try:
        importlib.metadata.version("texcv")
        return True
    except importlib.metadata.PackageNotFoundError:
        return False


@pytest.mark.skipif(not pip_installed(),
                    reason="texcv is not pip-installed in this Python (no distribution metadata): "
                    "the package folder was assembled by hand, as bench/run_device.sh does")
def test_pip_installed_the_command_beside_this_python():
    path = Path(texcv_main.command_path())
    scripts = {Path(sysconfig.get_path("scripts")).resolve(), Path(sys.executable).parent.resolve()}
    assert path.parent.resolve() in scripts, f"{path} is not in {scripts}"
    r = run([str(path), "--version"])
    assert r.returncode == 0, r.stderr
    # The same library as the module: its version.
    assert r.stdout.strip() == "texcv " + texcv.__version__


def test_python_dash_m_runs_the_command_with_its_exit_status():
    r = run([sys.executable, "-m", "texcv", "--version"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "texcv " + texcv.__version__
    bad = run([sys.executable, "-m", "texcv", "no-such-command"])
    assert bad.returncode != 0
    assert "no-such-command" in bad.stderr


def test_python_dash_m_batch_writes_what_the_module_computes(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    rng = np.random.default_rng(19)
    images = {f"img{i}.png": rng.integers(0, 256, (37 + i, 52, 3), dtype=np.uint8) for i in range(3)}
    for name, a in images.items():
        texcv.imwrite(src / name, a)
    out = tmp_path / "out"
    report = tmp_path / "report.jsonl"
    r = run([sys.executable, "-m", "texcv", "batch", "-i", str(src), "-o", str(out), "-p",
             "resize:scale=0.5,interp=area;flip:code=horizontal", "--device", "cpu", "--report",
             str(report)])
    assert r.returncode == 0, r.stdout + r.stderr
    for name, a in images.items():
        want = texcv.flip(texcv.resize(a, scale=0.5, interp="area", device="cpu"), "horizontal",
                          device="cpu")
        got = texcv.imread(out / name)
        np.testing.assert_array_equal(got, want)
    assert sorted(p.name for p in out.iterdir()) == sorted(images)
    rows = [json.loads(line) for line in report.read_text().splitlines() if line.strip()]
    assert sorted(Path(row["input"]).name for row in rows) == sorted(images)
    assert {row["status"] for row in rows} == {"ok"}


def test_python_dash_m_reports_a_bad_pipeline(tmp_path):
    r = run([sys.executable, "-m", "texcv", "batch", "-i", str(tmp_path), "-o",
             str(tmp_path / "o"), "-p", "resiz:scale=0.5"])
    assert r.returncode != 0
    assert "resiz" in r.stderr


def test_missing_command_is_a_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(sysconfig, "get_path", lambda name: str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    try:
        texcv_main.main(["--version"])
    except SystemExit as e:
        assert e.code == 2
    else:
        raise AssertionError("main() did not exit without a command")
    err = capsys.readouterr().err
    assert "texcv command is not installed" in err and "pip install ." in err
    assert os.environ["PATH"] == str(tmp_path)
