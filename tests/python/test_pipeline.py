"""texcv.Pipeline (issue 19, item 1): parsed once with the command's syntax and errors; on one
array and on lists of arrays of different sizes, equal to calling the operations one by one; into
arrays the caller owns; its buffers reused between calls of other sizes. The CuPy and torch
forms run on the GPU machine (tests skip with their reason elsewhere)."""

from __future__ import annotations

import numpy as np
import pytest

import texcv
from conftest import need_gpu

TEXT = "resize:scale=0.5,interp=area;gaussian_blur:sigma=1.5;flip:code=vertical;sharpen"


def one_by_one(a, device="cpu"):
    r = texcv.resize(a, scale=0.5, interp="area", device=device)
    r = texcv.gaussian_blur(r, sigma=1.5, device=device)
    r = texcv.flip(r, "vertical", device=device)
    return texcv.sharpen(r, device=device)


def images():
    rng = np.random.default_rng(19)
    return [
        rng.integers(0, 256, (48, 64, 3), dtype=np.uint8),
        rng.integers(0, 65536, (91, 33), dtype=np.uint16),
        rng.random((23, 41, 4), dtype=np.float32),
        rng.integers(0, 256, (10, 12, 1), dtype=np.uint8),
    ]


def test_steps_text_and_repr():
    p = texcv.Pipeline(TEXT)
    assert p.text == TEXT
    assert [name for name, _ in p.steps] == ["resize", "gaussian_blur", "flip", "sharpen"]
    assert p.steps[0][1] == {"scale": "0.5", "interp": "area"}
    assert repr(p) == f"texcv.Pipeline({TEXT!r})"
    assert "Pipeline" in texcv.__all__


def test_one_array_is_the_operations_one_by_one():
    p = texcv.Pipeline(TEXT)
    for a in images():
        got = p(a, device="cpu")
        want = one_by_one(a)
        assert type(got) is np.ndarray and got.dtype == a.dtype
        np.testing.assert_array_equal(got, want)
        h, w = want.shape[:2]
        assert want.shape == got.shape
        assert p.output_format(a) == (w, h, 1 if want.ndim == 2 else want.shape[2], str(a.dtype))


def test_list_of_arrays_of_other_sizes_is_each_alone():
    p = texcv.Pipeline(TEXT)
    arrays = images()
    got = p(arrays, device="cpu")
    assert isinstance(got, list) and len(got) == len(arrays)
    for g, a in zip(got, arrays):
        np.testing.assert_array_equal(g, one_by_one(a))
    assert p(tuple(arrays[:2]), device="cpu")[1].shape == one_by_one(arrays[1]).shape
    assert p([], device="cpu") == []


def test_buffers_reused_across_calls_of_other_sizes():
    p = texcv.Pipeline(TEXT)
    arrays = images()
    for a in arrays + arrays[::-1] + arrays:
        np.testing.assert_array_equal(p(a, device="cpu"), one_by_one(a))


def test_run_into_arrays_the_caller_owns():
    p = texcv.Pipeline(TEXT)
    a = images()[0]
    want = one_by_one(a)
    dst = np.full(want.shape, 77, dtype=want.dtype)
    assert p.run_into(dst, a, device="cpu") is dst
    np.testing.assert_array_equal(dst, want)
    # A list into a list; a destination that is a strided view of a larger array.
    big = np.zeros((want.shape[0] + 4, want.shape[1] + 6, 3), dtype=np.uint8)
    view = big[2:2 + want.shape[0], 3:3 + want.shape[1]]
    out = p.run_into([view], [a], device="cpu")
    assert out[0] is view
    np.testing.assert_array_equal(view, want)
    assert big[:2].sum() == 0 and big[:, :3].sum() == 0


def test_messages():
    with pytest.raises(texcv.InvalidArgumentError, match=r'pipeline step 2 "resiz:scale=2"'):
        texcv.Pipeline("flip;resiz:scale=2")
    with pytest.raises(texcv.InvalidArgumentError, match="the pipeline must be a string"):
        texcv.Pipeline(3)
    p = texcv.Pipeline("cvt_color:code=rgb2gray")
    gray = np.zeros((8, 8), np.uint8)
    rgb = np.zeros((8, 8, 3), np.uint8)
    with pytest.raises(texcv.Error, match=r"^step 1 \(cvt_color\): "):
        p(gray, device="cpu")
    with pytest.raises(texcv.Error, match=r"^image 1: step 1 \(cvt_color\): "):
        p([rgb, gray], device="cpu")
    with pytest.raises(texcv.InvalidArgumentError, match="destination is not the pipeline's"):
        p.run_into(np.zeros((8, 8, 3), np.uint8), rgb, device="cpu")
    with pytest.raises(texcv.InvalidArgumentError, match="both be arrays or both be lists"):
        p.run_into(np.zeros((8, 8), np.uint8), [rgb], device="cpu")


def test_cupy_list_same_kind_out_equal_to_the_cpu():
    need_gpu()
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed (the GPU machine has it)")
    # Steps whose CUDA results are identical to the CPU's (resize within 1 level is left out).
    p = texcv.Pipeline("gaussian_blur:sigma=1.5;flip:code=vertical;convert:type=f32,scale=0.5")
    arrays = images()
    got = p([cupy.asarray(a) for a in arrays])
    want = p(arrays, device="cpu")
    for g, w in zip(got, want):
        assert isinstance(g, cupy.ndarray)
        np.testing.assert_array_equal(cupy.asnumpy(g), w)
    # numpy arrays processed on the GPU (device copies kept between calls): numpy out.
    for _ in range(2):
        for g, w in zip(p(arrays, device="cuda"), want):
            assert type(g) is np.ndarray
            np.testing.assert_array_equal(g, w)


def test_torch_one_tensor_on_a_stream():
    need_gpu()
    torch = pytest.importorskip("torch", reason="torch is not installed (the GPU machine has it)")
    p = texcv.Pipeline("gaussian_blur:sigma=1.5;flip:code=both")
    a = images()[0]
    t = torch.from_numpy(a).cuda()
    s = torch.cuda.Stream()
    out = p(t, stream=s)
    s.synchronize()
    assert isinstance(out, torch.Tensor) and out.is_cuda
    np.testing.assert_array_equal(out.cpu().numpy(), p(a, device="cpu"))


def test_a_pipeline_pickles_as_its_text():
    import pickle

    p = texcv.Pipeline("resize:scale=0.5;flip:code=horizontal")
    q = pickle.loads(pickle.dumps(p))
    assert isinstance(q, texcv.Pipeline) and q.text == p.text and q.steps == p.steps
    img = np.arange(12 * 10 * 3, dtype=np.uint8).reshape(12, 10, 3)
    np.testing.assert_array_equal(q(img, device="cpu"), p(img, device="cpu"))
