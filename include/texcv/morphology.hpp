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

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

namespace texcv {

enum class MorphShape { rect, ellipse, cross };
enum class MorphOp { erode, dilate, open, close, gradient, tophat, blackhat };

// Largest structuring element side.
constexpr int kMaxMorphKernel = 255;

// A structuring element: width x height values 0 or 1, row-major (values[y * width + x]).
struct StructuringElement {
  int width = 0, height = 0;
  std::vector<std::uint8_t> values;
};

// As cv::getStructuringElement(shape, Size(width, height), Point(anchor_x, anchor_y)): the anchor
// (-1: the centre) only moves the cross. Sizes must be odd, 1 to kMaxMorphKernel.
StructuringElement structuring_element(MorphShape shape, int width, int height, int anchor_x = -1,
                                       int anchor_y = -1);

// Border of the morphology operations; value unset with Border::constant = border never wins.
struct MorphBorder {
  Border border = Border::constant;
  std::optional<std::array<double, 4>> value{};
};

struct MorphParams {
  MorphShape shape = MorphShape::rect;
  int ksize_x = 3, ksize_y = 3;      // odd, 1 to kMaxMorphKernel
  int anchor_x = -1, anchor_y = -1;  // inside the element; -1: the centre
  int iterations = 1;                // >= 1
  MorphBorder border{};
};

// dst(x, y) = min over the element's ones (i, j) of src(x + i - anchor_x, y + j - anchor_y).
void erode(const ImageView& src, const ImageView& dst, const MorphParams& p = {},
           void* stream = nullptr);
// The same with max.
void dilate(const ImageView& src, const ImageView& dst, const MorphParams& p = {},
            void* stream = nullptr);
// open = dilate(erode(src)); close = erode(dilate(src)); gradient = dilate(src) - erode(src);
// tophat = src - open(src); blackhat = close(src) - src. erode and dilate are accepted too.
void morphology(const ImageView& src, const ImageView& dst, MorphOp op, const MorphParams& p = {},
                void* stream = nullptr);

const char* to_string(MorphShape s) noexcept;
const char* to_string(MorphOp op) noexcept;
// The names to_string gives; anything else throws Error(InvalidArgument) listing them
// ("shape: unknown structuring element shape; got \"disc\", expected rect, ellipse or cross").
MorphShape parse_morph_shape(std::string_view s);
MorphOp parse_morph_op(std::string_view s);

}  // namespace texcv
