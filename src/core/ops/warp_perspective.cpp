// warp_perspective (include/texcv/ops/warp_perspective.hpp): its validation and routing to the CPU
// or CUDA backend (src/core/geometry_common.hpp: the warp engine), and its spec (the registry
// entry).
#include "texcv/ops/warp_perspective.hpp"

#include <array>
#include <utility>
#include <vector>

#include "src/core/geometry_common.hpp"

namespace texcv {

using namespace geometry_common;  // NOLINT: what the geometry ops share

std::array<double, 9> detail::warp_perspective_inverse(const char* op, Naming n,
                                                       const std::array<double, 9>& m,
                                                       bool inverse_map) {
  check_finite(op, m);
  return inverse_map ? m : invert_perspective(op, n, m);
}

void warp_perspective(const ImageView& src, const ImageView& dst, const std::array<double, 9>& m,
                      bool inverse_map, const Sampling& s, void* stream) {
  const char* op = "warp_perspective";
  check_pair(op, src, dst);
  check_finite(op, m);
  WarpDesc d;
  d.kind = WarpKind::perspective;
  d.sampling =
      make_sampling(op, src, s.interp, s.border, s.border_value, s.precision, s.path, false);
  const std::array<double, 9> inv =
      detail::warp_perspective_inverse(op, Naming::api, m, inverse_map);
  for (int i = 0; i < 9; ++i) d.perspective.m[i] = inv[i];
  run_warp(src, dst, d, stream);
}

namespace reg {

void declare_warp_perspective(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "warp_perspective";
  e.spec.summary = "perspective warp with a 3x3 matrix, as cv::warpPerspective";
  add_warp_params(e.spec.params, 9);
  // m must be invertible unless it is already the destination-to-source map.
  e.check = [](const Args& a, detail::Naming n) {
    detail::warp_perspective_inverse("warp_perspective", n, matrix<9>(a), a.b("inverse_map"));
  };
  e.size = warp_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    warp_perspective(src, dst, matrix<9>(a), a.b("inverse_map"), a.sampling(), stream);
  };
  e.spec.doc = "Perspective warp with a 3x3 matrix m, as cv2.warpPerspective (see warp_affine).";
  declare_python(e.spec, {"m"}, {"width", "height"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
