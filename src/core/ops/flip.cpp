// flip (include/texcv/ops/flip.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/flip.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "src/core/geometry_common.hpp"

namespace texcv {

using namespace geometry_common;  // NOLINT: what the geometry ops share

void flip(const ImageView& src, const ImageView& dst, FlipCode code, void* stream) {
  const char* op = "flip";
  check_pair(op, src, dst);
  check_same_size(op, src, dst);
  if (static_cast<unsigned>(code) > static_cast<unsigned>(FlipCode::both))
    fail(ErrorCode::InvalidArgument, op, "flip code is not valid",
         std::to_string(static_cast<int>(code)), "horizontal, vertical or both");
  if (src.location == Location::host) {
    cpu::flip(src, dst, code);
  } else {
    TEXCV_CUDA("flip", cuda::flip(src, dst, code, stream));
  }
}

namespace reg {

void declare_flip(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "flip";
  e.spec.summary = "mirror the image, as cv::flip";
  e.spec.params.push_back(p_enum("code", "horizontal", {"horizontal", "vertical", "both"},
                                 "horizontal: left-right; vertical: top-bottom; both: 180 deg"));
  e.size = same_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    flip(src, dst, parse_flip(a.e("code")), stream);
  };
  e.spec.doc =
      "Mirrors src, as cv2.flip: \"horizontal\" (left-right), \"vertical\" (top-bottom) or "
      "\"both\".\n"
      "Exact.";
  declare_python(e.spec, {"code"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
