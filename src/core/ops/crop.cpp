// crop (include/texcv/ops/crop.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/crop.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "src/core/geometry_common.hpp"

namespace texcv {

using namespace geometry_common;  // NOLINT: what the geometry ops share

void crop(const ImageView& src, const ImageView& dst, const Rect& r, void* stream) {
  const char* op = "crop";
  check_pair(op, src, dst);
  if (r.width <= 0 || r.height <= 0 || r.x < 0 || r.y < 0 || r.x > src.width - r.width ||
      r.y > src.height - r.height) {
    std::string expected("a non-empty rectangle inside ");
    expected.append(size_str(src.width, src.height));
    fail(ErrorCode::InvalidArgument, op, "rectangle is not inside the source", rect_str(r),
         expected);
  }
  if (dst.width != r.width || dst.height != r.height)
    fail(ErrorCode::InvalidArgument, op, "destination size differs from the rectangle",
         size_str(dst.width, dst.height), size_str(r.width, r.height));
  const ImageView part = src.roi(r);
  if (src.location == Location::host) {
    cpu::copy(part, dst);
  } else {
    TEXCV_CUDA("copy", cuda::copy(part, dst, stream));
  }
}

namespace reg {

void declare_crop(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "crop";
  e.spec.summary = "copy a rectangle of the image; it must lie inside the image";
  auto& ps = e.spec.params;
  ps.push_back(p_int("x", "0", 0, "left column of the rectangle"));
  ps.push_back(p_int("y", "0", 0, "top row of the rectangle"));
  ps.push_back(p_int("width", "", 1, "width of the rectangle (default: up to the right edge)"));
  ps.push_back(
      p_int("height", "", 1, "height of the rectangle (default: down to the bottom edge)"));
  e.size = [](const Args& a, int w, int h) {
    Rect r{a.i("x"), a.i("y"), 0, 0};
    r.width = a.has("width") ? a.i("width") : w - r.x;
    r.height = a.has("height") ? a.i("height") : h - r.y;
    const bool inside = r.x < w && r.y < h && r.width >= 1 && r.height >= 1 && r.width <= w - r.x &&
                        r.height <= h - r.y;
    if (!inside)
      fail(kInvalid, "crop", "the rectangle is not inside the image",
           "x=" + std::to_string(r.x) + ",y=" + std::to_string(r.y) +
               ",width=" + std::to_string(r.width) + ",height=" + std::to_string(r.height) +
               " on a " + size_text(w, h) + " image",
           "x + width <= " + std::to_string(w) + " and y + height <= " + std::to_string(h));
    return r;
  };
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    Rect r{a.i("x"), a.i("y"), dst.width, dst.height};
    crop(src, dst, r, stream);
  };
  e.spec.doc =
      "Copies the rectangle (x, y, width, height) of src (default: to the right and bottom\n"
      "edges). For a view without a copy, slice the array instead. Exact.\n"
      "\n"
      "crop_into: the rectangle at (x, y) of dst's size.";
  declare_python(e.spec, {"x", "y", "width", "height"}, {"width", "height"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
