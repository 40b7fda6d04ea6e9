// resize (src/core/ops/resize.cpp), a geometric operation: texcv/geometry.hpp has what they share
// (views, backends, supported types, pixel centres).
#pragma once

#include <array>

#include "texcv/image.hpp"
#include "texcv/ops/geometry_types.hpp"

namespace texcv {

// resize: two forms of mapping, as cv::resize's two forms.
// - The size form (fx = fy = 0, the default; cv::resize(src, dst, dsize)): dst pixel x samples
//   src at (x + 0.5) * src_w / dst_w - 0.5.
// - The factor form (fx, fy > 0; cv::resize(src, dst, Size(), fx, fy)): dst pixel x samples src
//   at (x + 0.5) / fx - 0.5 (Interp::area: cells of 1 / fx source pixels), and dst must have the
//   size cv::resize gives, resized_size(src_w, src_h, fx, fy) (round(size * factor), ties to
//   even). cv::resize ignores the factors when it is also given a dsize; texcv refuses a dst of
//   another size instead (Error InvalidArgument), so the factors always mean what they mean to
//   cv::resize(src, dst, Size(), fx, fy). The two differ where size * factor is not whole (odd
//   sides at 0.5: up to ~100 u8 levels). Each axis is independent: fx > 0 with fy = 0 maps x
//   by the factor and y by the size ratio. As cv::resize, a dst of the source's size is a copy
//   whatever the factors (both forms sample at the pixel centres then).
// With align_corners dst pixel x samples x * (src_w - 1) / (dst_w - 1) in both forms (the
// factors then only check dst's size). Interp::area averages the covered source pixels when
// shrinking (cv::INTER_AREA; a last cell past the edge averages the pixels that exist).
// Interp::nearest takes the pixel whose centre is nearest to (x + 0.5) * src_w / dst_w - 0.5,
// computed in 16.16 fixed point exactly as cv::INTER_NEAREST_EXACT (ties take the lower pixel;
// docs/conventions.md); like INTER_NEAREST_EXACT it uses the sizes in both forms, never the
// factors. The default border is replicate, as cv::resize.
struct ResizeParams {
  Interp interp = Interp::linear;
  bool align_corners = false;
  Border border = Border::replicate;
  std::array<double, 4> border_value{0, 0, 0, 0};
  Precision precision = Precision::automatic;
  Path path = Path::automatic;
  // The factor form: horizontal and vertical scale factors (finite, > 0); 0: that axis uses the
  // size ratio dst / src.
  double fx = 0, fy = 0;
};
void resize(const ImageView& src, const ImageView& dst, const ResizeParams& p = {},
            void* stream = nullptr);
// The output size of cv::resize(src, dst, Size(), fx, fy) for a width x height source:
// round(width * fx) x round(height * fy), ties to even (cvRound), at (0, 0). Throws Error
// (InvalidArgument) for a size < 1, a factor that is not finite and > 0, or a result below 1 or
// above INT_MAX.
Rect resized_size(int width, int height, double fx, double fy);

}  // namespace texcv
