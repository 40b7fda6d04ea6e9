// box_filter (include/texcv/ops/box_filter.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/box_filter.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

namespace {

using namespace reg;  // NOLINT: the registry's internals (op_spec.hpp)

BoxParams box_params(const Args& a) {
  BoxParams p;
  p.ksize_x = a.i("ksize");
  p.ksize_y = a.has("ksize_y") ? a.i("ksize_y") : p.ksize_x;
  p.normalize = a.b("normalize");
  p.anchor_x = a.i("anchor_x");
  p.anchor_y = a.i("anchor_y");
  p.border = filter_border(a);
  return p;
}

}  // namespace

std::pair<int, int> detail::check_box(const char* op, Naming n, const BoxParams& p) {
  const ParamName sizes[2] = {{n == Naming::api ? "ksize_x" : "ksize", n}, {"ksize_y", n}};
  const int values[2] = {p.ksize_x, p.ksize_y};
  for (int i = 0; i < 2; ++i) {
    const int k = values[i];
    if (k < 1)
      fail(kInvalid, op, sizes[i].subject() + " must be positive", sizes[i].got(std::to_string(k)),
           ">= 1");
    if (k > kMaxKernel1D)
      fail(kInvalid, op, sizes[i].subject() + " is too large", sizes[i].got(std::to_string(k)),
           "at most " + std::to_string(kMaxKernel1D));
  }
  return filter_anchor(op, n, p.anchor_x, p.anchor_y, p.ksize_x, p.ksize_y);
}

void box_filter(const ImageView& src, const ImageView& dst, const BoxParams& p, void* stream) {
  const char* op = "box_filter";
  check_io(op, src, dst, false);
  const auto [ax, ay] = detail::check_box(op, Naming::api, p);
  detail::SepFilterDesc d;
  d.kx.assign(static_cast<std::size_t>(p.ksize_x), 1.0f);
  d.ky.assign(static_cast<std::size_t>(p.ksize_y), 1.0f);
  d.ax = ax;
  d.ay = ay;
  // Integer sums are exact in float (up to 2^24); the area division comes last, as OpenCV.
  if (p.normalize) d.scale = static_cast<float>(1.0 / (static_cast<double>(p.ksize_x) * p.ksize_y));
  d.border = border_desc(op, src, p.border);
  run_separable(op, src, dst, d, stream);
}

namespace reg {

void declare_box_filter(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "box_filter";
  e.spec.summary = "mean (or sum) over a box, as cv::boxFilter / cv::blur";
  auto& ps = e.spec.params;
  ps.push_back(p_int("ksize", "3", 1, "box width"));
  ps.push_back(p_int("ksize_y", "", 1, "box height (default: ksize)"));
  ps.push_back(p_bool("normalize", "true", "divide by the box area (false: the sum, saturated)"));
  ps.push_back(p_int("anchor_x", "-1", -1, "anchor column in the box; -1: the centre"));
  ps.push_back(p_int("anchor_y", "-1", -1, "anchor row in the box; -1: the centre"));
  add_filter_border(ps);
  add_filter_path(ps);
  e.check = [](const Args& a, detail::Naming n) {
    detail::check_box("box_filter", n, box_params(a));
  };
  e.size = same_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    box_filter(src, dst, box_params(a), stream);
  };
  e.spec.doc =
      "Mean (normalize) or sum over a ksize x ksize_y box, as cv2.boxFilter / cv2.blur.\n"
      "Accuracy vs OpenCV: 1 level.";
  declare_python(e.spec, {"ksize"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
