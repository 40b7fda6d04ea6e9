// rotate (include/texcv/ops/rotate.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/rotate.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "src/core/geometry_common.hpp"

namespace texcv {

using namespace geometry_common;  // NOLINT: what the geometry ops share

std::array<double, 6> rotation_matrix(int src_w, int src_h, int dst_w, int dst_h,
                                      double angle_deg) {
  double a, b;
  cos_sin_deg(angle_deg, a, b);
  const double cx = (src_w - 1) * 0.5, cy = (src_h - 1) * 0.5;
  const double dcx = (dst_w - 1) * 0.5, dcy = (dst_h - 1) * 0.5;
  // cv::getRotationMatrix2D(center, angle, 1) = [a b (1-a)cx - b cy; -b a b cx + (1-a)cy], then
  // translated so that the source centre lands on the destination centre.
  return {a, b, dcx - a * cx - b * cy, -b, a, dcy + b * cx - a * cy};
}

Rect rotated_size(int width, int height, double angle_deg, bool expand) {
  const char* op = "rotated_size";
  if (width <= 0)
    fail(ErrorCode::InvalidArgument, op, "width must be positive", std::to_string(width), "> 0");
  if (height <= 0)
    fail(ErrorCode::InvalidArgument, op, "height must be positive", std::to_string(height), "> 0");
  check_angle(op, angle_deg);
  if (!expand) return Rect{0, 0, width, height};
  double c, s;
  cos_sin_deg(angle_deg, c, s);
  c = std::fabs(c);
  s = std::fabs(s);
  // Bounding box of the rotated pixel area, rounded up; 1e-6 absorbs floating-point noise so that
  // e.g. 90 degrees of 640x480 gives exactly 480x640.
  const double w = width * c + height * s, h = width * s + height * c;
  const double kMax = std::numeric_limits<int>::max();
  if (w > kMax || h > kMax)
    fail(ErrorCode::InvalidArgument, op, "rotated size overflows", num(w) + "x" + num(h), "< 2^31");
  return Rect{0, 0, static_cast<int>(std::ceil(w - 1e-6)), static_cast<int>(std::ceil(h - 1e-6))};
}

void rotate(const ImageView& src, const ImageView& dst, double angle_deg, const Sampling& s,
            void* stream) {
  const char* op = "rotate";
  check_pair(op, src, dst);
  check_angle(op, angle_deg);
  warp_affine_impl(op, src, dst,
                   rotation_matrix(src.width, src.height, dst.width, dst.height, angle_deg), false,
                   s, stream);
}

namespace reg {

void declare_rotate(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "rotate";
  e.spec.summary =
      "rotate about the image centre, counter-clockwise in degrees, as cv::getRotationMatrix2D "
      "+ cv::warpAffine";
  auto& ps = e.spec.params;
  ps.push_back(required(p_float("angle", "", "degrees, counter-clockwise")));
  ps.push_back(p_bool("expand", "false",
                      "enlarge the output to hold the whole rotated image (else: source size)"));
  add_sampling(ps, kInterpWarp, "constant");
  e.size = [](const Args& a, int w, int h) {
    const Rect r = rotated_size(w, h, a.f("angle"), a.b("expand"));
    check_size(a, r, w, h, a.given("angle"));
    return Rect{0, 0, r.width, r.height};
  };
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    rotate(src, dst, a.f("angle"), a.sampling(), stream);
  };
  e.spec.doc =
      "Rotates src by angle degrees counter-clockwise about its centre, as\n"
      "cv2.getRotationMatrix2D + cv2.warpAffine; expand=True enlarges the output to hold the\n"
      "whole rotated image. Accuracy as warp_affine.\n"
      "\n"
      "rotate_into: the source centre lands on dst's centre.";
  declare_python(e.spec, {"angle"}, {"expand"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
