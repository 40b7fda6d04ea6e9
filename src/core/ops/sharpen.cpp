// sharpen (include/texcv/ops/sharpen.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/sharpen.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

void sharpen(const ImageView& src, const ImageView& dst, double strength,
             const FilterBorder& border, void* stream) {
  const char* op = "sharpen";
  check_io(op, src, dst, false);
  check_finite(op, "strength", strength);
  const float s = static_cast<float>(strength);
  detail::Filter2DDesc d;
  d.kw = d.kh = 3;
  d.ax = d.ay = 1;
  d.k = {0.0f, -s, 0.0f, -s, static_cast<float>(1.0 + 4.0 * strength), -s, 0.0f, -s, 0.0f};
  d.border = border_desc(op, src, border);
  run_2d(op, src, dst, d, stream);
}

namespace reg {

void declare_sharpen(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "sharpen";
  e.spec.summary =
      "src + strength * (k * src - src) with k = [[0,-1,0],[-1,5,-1],[0,-1,0]] (strength 1: "
      "the plain kernel)";
  e.spec.params.push_back(p_float("strength", "1", "0: unchanged; 1: the plain 3x3 kernel"));
  add_filter_border(e.spec.params);
  add_filter_path(e.spec.params);
  e.size = same_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    sharpen(src, dst, a.f("strength"), filter_border(a), stream);
  };
  e.spec.doc =
      "src + strength * (k * src - src), k = [[0,-1,0],[-1,5,-1],[0,-1,0]] (strength 1: the\n"
      "plain kernel), in one float pass. Accuracy: as cv2.filter2D with that kernel, 1 level.";
  declare_python(e.spec, {"strength"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
