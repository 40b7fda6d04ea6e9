// Linear filters: convolve, separable_filter, gaussian_blur, box_filter, sharpen, unsharp_mask,
// sobel, scharr, laplacian. Semantics, defaults and borders follow OpenCV (filter2D, sepFilter2D,
// GaussianBlur, boxFilter, Sobel, Scharr, Laplacian); docs/ops/filters.md has the details.
//
// Every operation reads src and writes dst of the same size and channel count; dst may not
// overlap src. dst has src's element type (integer results round half to even and saturate, as
// OpenCV's ddepth = -1), except that convolve, separable_filter, sobel, scharr and laplacian also
// accept an f32 dst for any source type (OpenCV's ddepth = CV_32F: signed, unsaturated results).
//
// Supported: u8, u16, f32 x 1, 3, 4 channels; the five border modes (default reflect101, as
// OpenCV's BORDER_DEFAULT). Arithmetic is float32 (two 1-D passes through a float row buffer for
// the separable filters).
//
// Backends: host views run on the CPU backend, device views on the CUDA backend (on `stream`),
// with identical results (same float arithmetic in the same order); a build without CUDA raises
// Error(NotCompiled) for device views.
#pragma once

// As before the per-op split, this area header brings the geometry API with it (code that
// includes it alone for resize or Border keeps compiling).
#include "texcv/geometry.hpp"
#include "texcv/ops/filter_types.hpp"

#include "texcv/ops/box_filter.hpp"
#include "texcv/ops/convolve.hpp"
#include "texcv/ops/gaussian_blur.hpp"
#include "texcv/ops/laplacian.hpp"
#include "texcv/ops/scharr.hpp"
#include "texcv/ops/separable_filter.hpp"
#include "texcv/ops/sharpen.hpp"
#include "texcv/ops/sobel.hpp"
#include "texcv/ops/unsharp_mask.hpp"

// ---- Non-linear filters (src/core/ops/median_blur.cpp, bilateral_filter.cpp) ----------------

#include "texcv/ops/bilateral_filter.hpp"
#include "texcv/ops/median_blur.hpp"
