// remap (include/texcv/ops/remap.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the Python functions; not a pipeline step).
#include "texcv/ops/remap.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/geometry_common.hpp"

namespace texcv {

using namespace geometry_common;  // NOLINT: what the geometry ops share

void remap(const ImageView& src, const ImageView& dst, const ImageView& map_x,
           const ImageView& map_y, const Sampling& s, void* stream) {
  const char* op = "remap";
  check_pair(op, src, dst);
  const std::pair<const ImageView*, const char*> maps[2] = {{&map_x, "map_x"}, {&map_y, "map_y"}};
  for (const auto& [m, name] : maps) {
    validate_view(*m, op, name);
    if (m->channels != 1 || m->type != ElemType::f32)
      fail(ErrorCode::InvalidArgument, op, std::string(name) + " must be 1-channel f32",
           shape_str(*m), "1-channel f32");
    if (m->width != dst.width || m->height != dst.height)
      fail(ErrorCode::InvalidArgument, op, std::string(name) + " size differs from the destination",
           size_str(m->width, m->height), size_str(dst.width, dst.height));
    if (m->location != src.location)
      fail(ErrorCode::InvalidArgument, op, std::string(name) + " location differs from the source",
           to_string(m->location), to_string(src.location));
    check_no_overlap(op, dst, *m, name);
  }
  const SamplingDesc sd =
      make_sampling(op, src, s.interp, s.border, s.border_value, s.precision, s.path, false);
  if (src.location == Location::host) {
    cpu::remap(src, dst, map_x, map_y, sd);
  } else {
    TEXCV_CUDA("remap", cuda::remap(src, dst, map_x, map_y, sd, stream));
  }
}

namespace reg {

void declare_remap(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "remap";
  e.spec.summary = "dst(x, y) = src(map_x(x, y), map_y(x, y)), as cv::remap with two float32 maps";
  e.spec.pipeline = false;  // a pipeline step cannot give the maps
  auto& ps = e.spec.params;
  ps.push_back(
      p_image("map_x", "the source x of every output pixel (float32, H x W: the output size)"));
  ps.push_back(p_image("map_y", "the source y of every output pixel (float32, as map_x)"));
  add_sampling(ps, kInterpWarp, "constant");
  // The output has the maps' size.
  e.size = [](const Args& a, int, int) {
    const ImageView& m = a.image("map_x");
    return Rect{0, 0, m.width, m.height};
  };
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    remap(src, dst, a.image("map_x"), a.image("map_y"), a.sampling(), stream);
  };
  e.spec.doc =
      "dst(x, y) = src(map_x(x, y), map_y(x, y)), as cv2.remap with two float32 maps (H x W,\n"
      "the output size, of the same kind and device as src).";
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
