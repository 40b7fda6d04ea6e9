// The types erode, dilate and morphology share (texcv/morphology.hpp): the structuring element
// (its shapes, size limit and builder), the border and the parameters.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "texcv/ops/geometry_types.hpp"

namespace texcv {

enum class MorphShape { rect, ellipse, cross };

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

const char* to_string(MorphShape s) noexcept;
// The names to_string gives; anything else throws Error(InvalidArgument) listing them
// ("shape: unknown structuring element shape; got \"disc\", expected rect, ellipse or cross").
MorphShape parse_morph_shape(std::string_view s);

}  // namespace texcv
