// warp_affine (include/texcv/ops/warp_affine.hpp): its validation and routing to the CPU or CUDA
// backend (src/core/geometry_common.hpp: the warp engine), and its spec (the registry entry).
#include "texcv/ops/warp_affine.hpp"

#include <array>
#include <utility>
#include <vector>

#include "src/core/geometry_common.hpp"

namespace texcv {

using namespace geometry_common;  // NOLINT: what the geometry ops share

std::array<double, 6> detail::warp_affine_inverse(const char* op, Naming n,
                                                  const std::array<double, 6>& m,
                                                  bool inverse_map) {
  check_finite(op, m);
  return inverse_map ? m : invert_affine(op, n, m);
}

void warp_affine(const ImageView& src, const ImageView& dst, const std::array<double, 6>& m,
                 bool inverse_map, const Sampling& s, void* stream) {
  warp_affine_impl("warp_affine", src, dst, m, inverse_map, s, stream);
}

namespace reg {

void declare_warp_affine(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "warp_affine";
  e.spec.summary = "affine warp with a 2x3 matrix, as cv::warpAffine";
  add_warp_params(e.spec.params, 6);
  // m must be invertible unless it is already the destination-to-source map.
  e.check = [](const Args& a, detail::Naming n) {
    detail::warp_affine_inverse("warp_affine", n, matrix<6>(a), a.b("inverse_map"));
  };
  e.size = warp_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    warp_affine(src, dst, matrix<6>(a), a.b("inverse_map"), a.sampling(), stream);
  };
  e.spec.doc =
      "Affine warp with a 2x3 matrix m (source to destination unless inverse_map), as\n"
      "cv2.warpAffine. The output is width x height (default: the source size).\n"
      "\n"
      "Accuracy: CPU vs OpenCV's float path within 1 level (u8/u16) or 1e-5 (f32); "
      "nearest exact.";
  declare_python(e.spec, {"m"}, {"width", "height"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
