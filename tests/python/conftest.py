"""Shared fixtures of the Python tests: sample images, random data, the GPU switches."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import texcv

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "images"
TEST_IMAGES = ROOT / "tests" / "data" / "images"  # photographs the tests need (LICENSES.md)

DTYPES = ("uint8", "uint16", "float32")
CHANNELS = (1, 3, 4)
FULL = {"uint8": 255.0, "uint16": 65535.0, "float32": 1.0}


def in_type(u8: np.ndarray, dtype: str) -> np.ndarray:
    """u8 data in dtype as the C++ tests do: u16 = u8 * 257, f32 = u8 / 255."""
    if dtype == "uint8":
        return np.ascontiguousarray(u8)
    if dtype == "uint16":
        return np.ascontiguousarray(u8.astype(np.uint16) * 257)
    return np.ascontiguousarray(u8.astype(np.float32) / 255.0)


def with_channels(rgb: np.ndarray, ch: int) -> np.ndarray:
    """1, 3 or 4 channels from an RGB (or gray) u8 image: gray as cv2's RGB2GRAY, alpha 255
    (opaque), as the C++ reference tests build their photographs."""
    if ch == 1:
        if rgb.ndim == 2:
            return rgb.copy()
        w = np.array([0.299, 0.587, 0.114])
        return np.clip(np.rint(rgb[..., :3] @ w), 0, 255).astype(np.uint8)
    if rgb.ndim == 2:
        rgb = np.repeat(rgb[:, :, None], 3, axis=2)
    if ch == 3:
        return rgb.copy()
    return np.dstack([rgb, np.full(rgb.shape[:2], 255, np.uint8)])


def photo_path(name: str) -> Path:
    for d in (EXAMPLES, TEST_IMAGES):
        if (d / name).exists():
            return d / name
    raise FileNotFoundError(f"sample image {name} not found in {EXAMPLES} or {TEST_IMAGES}")


def photo(name: str, dtype: str, ch: int, w: int = 160, h: int = 120) -> np.ndarray:
    """A w x h region at (180, 60) of a sample image, in dtype with ch channels."""
    img = texcv.imread(photo_path(name))
    region = img[60:60 + h, 180:180 + w]
    return in_type(with_channels(region, ch), dtype)


def random_image(w: int, h: int, ch: int, dtype: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    shape = (h, w) if ch == 1 else (h, w, ch)
    if dtype == "float32":
        return rng.random(shape, dtype=np.float32)
    return rng.integers(0, int(FULL[dtype]) + 1, shape, dtype=dtype)


# The photographs used by the conformance tests, all in the repository: coffee.png and camera.png
# in examples/images, astronaut.png in tests/data/images.
PHOTOS = ["coffee.png", "camera.png", "astronaut.png"]


def source(kind: str, dtype: str, ch: int) -> np.ndarray:
    if kind == "random":
        return random_image(61, 47, ch, dtype, seed=1 + ch)
    return photo(kind, dtype, ch)


def max_diff(a: np.ndarray, b: np.ndarray) -> float:
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))) if a.size else 0.0


def has_cuda() -> bool:
    return texcv.cuda_available()


def need_gpu() -> None:
    """Skips the calling test, with the reason, where the GPU forms cannot run."""
    if not texcv.info()["cuda_compiled"]:
        pytest.skip("this texcv build has no CUDA backend (built with TEXCV_CUDA=OFF or without "
                    "nvcc); the GPU tests run on a CUDA build on the GPU machine")
    if not texcv.cuda_available():
        pytest.skip("no usable GPU on this machine; the GPU tests run on the GPU machine")


def make_image_tree(root: Path, seed: int) -> None:
    """A folder for the batch tests (test_batch.py, test_ray.py): five RGB PNGs, a u16 PNG and a
    JPEG in sub/, and two bad files: bad.png (not an image) and sub/cut.jpg (a JPEG cut short)."""
    rng = np.random.default_rng(seed)
    (root / "sub").mkdir(parents=True)
    for i in range(5):
        texcv.imwrite(root / f"p{i}.png", rng.integers(0, 256, (30 + 3 * i, 44, 3), dtype=np.uint8))
    texcv.imwrite(root / "sub" / "g.png", rng.integers(0, 65536, (21, 33), dtype=np.uint16))
    texcv.imwrite(root / "sub" / "j.jpg", rng.integers(0, 256, (40, 48, 3), dtype=np.uint8))
    (root / "bad.png").write_bytes(b"not a png at all")
    (root / "sub" / "cut.jpg").write_bytes((root / "sub" / "j.jpg").read_bytes()[:200])


def files_under(root: Path) -> dict[str, bytes]:
    """Every file under root by its relative path, with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
