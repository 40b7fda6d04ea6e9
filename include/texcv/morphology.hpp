// Morphology: erode, dilate, morphology (open, close, gradient, tophat, blackhat) with rectangle,
// ellipse and cross structuring elements, as cv::erode, cv::dilate, cv::morphologyEx and
// cv::getStructuringElement. docs/ops/filters.md has the details.
//
// Every operation reads src and writes dst of the same size, channel count and element type; dst
// may not overlap src. Supported: u8, u16, f32 x 1, 3, 4 channels. Values are compared in the
// element type (exact: no rounding anywhere; gradient, tophat and blackhat subtract with
// saturation for u8/u16, as OpenCV).
//
// Borders: as OpenCV's morphology default, Border::constant without a value means "border pixels
// never win": the type's largest value for erode and its lowest for dilate (255 / 65535 /
// FLT_MAX; OpenCV's DBL_MAX default saturated to the type, so a pixel whose element lies wholly
// outside the image gets that value, as in OpenCV). A constant with a value uses that value
// (converted to the element type, rounded and saturated); replicate, reflect, reflect101 and wrap
// read the image as elsewhere.
//
// Iterations: erode/dilate repeat `iterations` times; an element of all ones (every rect, and
// ellipses/crosses that happen to be full) with iterations > 1 is applied once as the enlarged
// rectangle of size (k - 1) * iterations + 1 and anchor * iterations, as OpenCV does (identical
// with the constant border; OpenCV's result with the others). morphology's compound operations
// apply erode/dilate with the same iterations each.
//
// Backends: host views run on the CPU backend, device views on the CUDA backend (queued on
// `stream`, a cudaStream_t; nullptr: the default stream) with identical results; a build without
// CUDA raises Error(NotCompiled) for device views.
#pragma once

// As before the per-op split, this area header brings the geometry API with it (code that
// includes it alone for resize or Border keeps compiling).
#include "texcv/geometry.hpp"
#include "texcv/ops/morph_types.hpp"

#include "texcv/ops/dilate.hpp"
#include "texcv/ops/erode.hpp"
#include "texcv/ops/morphology.hpp"
