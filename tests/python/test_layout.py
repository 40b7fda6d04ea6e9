"""One stem per operation in every layer (issue 20; docs/architecture.md, "One stem per op").

Every operation has include/texcv/ops/<op>.hpp, src/core/ops/<op>.cpp, docs/ops/<op>.md and its
tests in tests/cpp/<area>/test_<op>_*.cpp. Its backend code is in src/cpu/<op>.cpp (and
simd_<op>.cpp) and src/cuda/ops/<op>/, unless the op has no backend code of its own: then it runs
on an engine shared with its siblings (ENGINES below), whose files name the op. Every file of the
backends is named by an op or an engine, so code for one op is never filed under an area's name
(the old color_intensity.cpp, ops/color/, or median_blur's three names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from texcv import _texcv

ROOT = Path(__file__).resolve().parents[2]
OPS = sorted(s["name"] for s in _texcv.api_operations())

# Engines shared by several ops, and the ops that have no backend code but the engine's. CPU files
# are src/cpu/<engine>.cpp, CUDA folders src/cuda/ops/<engine>/ (None: no file on that side).
ENGINES = {
    # engine: (CPU file, CUDA folder, the ops it serves alone)
    "filter_separable": (
        "filter_separable",
        "filter",
        ["separable_filter", "gaussian_blur", "box_filter", "sobel", "scharr"],
    ),
    "filter_2d": ("filter_2d", "filter", ["convolve", "sharpen", "laplacian"]),
    "morph": ("morph", "morph", ["erode", "dilate", "morphology"]),
    "warp": ("warp", "warp", ["warp_affine", "warp_perspective", "rotate"]),
    "copy": ("copy", "copy", ["crop"]),
}
# Engines some ops build on besides their own files (unsharp_mask blurs through the filter engine,
# normalize, histogram, equalize_hist, clahe and Otsu's threshold read the value counts and
# reductions), and the headers and SIMD row loops of several ops.
SHARED_CUDA = {"common", "hist"}
SHARED_CPU_SIMD = {"filter"}  # simd_filter.cpp: the rows of both filter engines

# Tests of several sibling ops sit in the files of the op they are named after.
TESTED_WITH = {"scharr": "sobel", "laplacian": "sobel", "dilate": "erode"}

SERVED = {op: name for name, (_, _, ops) in ENGINES.items() for op in ops}


def test_the_registry_and_src_core_ops_list_the_same_operations():
    files = sorted(p.stem for p in (ROOT / "src/core/ops").glob("*.cpp"))
    assert files == OPS


def test_the_engine_table_names_only_operations():
    assert set(SERVED) <= set(OPS)
    assert set(TESTED_WITH) | set(TESTED_WITH.values()) <= set(OPS)


@pytest.mark.parametrize("op", OPS)
def test_every_op_has_its_header_core_file_doc_and_tests(op):
    assert (ROOT / f"include/texcv/ops/{op}.hpp").is_file()
    assert (ROOT / f"src/core/ops/{op}.cpp").is_file()
    assert (ROOT / f"docs/ops/{op}.md").is_file()
    stem = TESTED_WITH.get(op, op)
    tests = sorted(ROOT.glob(f"tests/cpp/*/test_{stem}_*.cpp"))
    assert tests, f"no tests/cpp/<area>/test_{stem}_*.cpp"
    if op != stem:  # the sibling's tests name it
        assert any(op in t.read_text(encoding="utf-8").lower() for t in tests), (op, tests)


def _folder(path: Path) -> bool:
    """A folder with files (a copy of the tree may keep an empty folder git no longer has)."""
    return path.is_dir() and any(path.iterdir())


def _head(path: Path) -> str:
    """The comment block a source file opens with."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:])
    return " ".join(lines)


@pytest.mark.parametrize("op", OPS)
def test_every_op_has_backend_files_of_its_name_or_an_engine_that_names_it(op):
    cpu = ROOT / f"src/cpu/{op}.cpp"
    cuda = ROOT / f"src/cuda/ops/{op}"
    if op not in SERVED:
        assert cpu.is_file(), f"no src/cpu/{op}.cpp (nor an engine in ENGINES)"
        assert _folder(cuda), f"no src/cuda/ops/{op}/ (nor an engine in ENGINES)"
        return
    assert not cpu.exists() and not _folder(cuda), f"{op} has files of its own: not in ENGINES"
    cpu_stem, cuda_dir, _ = ENGINES[SERVED[op]]
    engine_cpu = ROOT / f"src/cpu/{cpu_stem}.cpp"
    assert op in _head(engine_cpu), f"{engine_cpu.relative_to(ROOT)}'s opening comment names {op}"
    # The CUDA engine's host file (or, for copy, its kernel file) names it in its opening comment.
    heads = " ".join(_head(p) for p in sorted((ROOT / f"src/cuda/ops/{cuda_dir}").iterdir()))
    assert op in heads, f"no opening comment in src/cuda/ops/{cuda_dir}/ names {op}"


def test_every_backend_file_is_named_by_an_op_or_an_engine():
    engines_cpu = {cpu for cpu, _, _ in ENGINES.values()}
    engines_cuda = {cuda for _, cuda, _ in ENGINES.values()} | SHARED_CUDA
    stray = []
    for p in sorted((ROOT / "src/cpu").glob("*.cpp")):
        stem = p.stem.removeprefix("simd_")
        if stem not in OPS and stem not in engines_cpu and stem not in SHARED_CPU_SIMD:
            stray.append(str(p.relative_to(ROOT)))
    folders = [p for p in sorted((ROOT / "src/cuda/ops").iterdir()) if _folder(p)]
    for p in folders:
        if p.name not in OPS and p.name not in engines_cuda:
            stray.append(str(p.relative_to(ROOT)) + "/")
    for d in folders:
        if d.name in OPS:  # an op's folder holds its own files
            for f in d.iterdir():
                assert f.name.startswith(d.name), f"{f.relative_to(ROOT)} in {d.name}'s folder"
    assert not stray, f"backend files named neither by an op nor by an engine: {stray}"
