// scharr (include/texcv/ops/scharr.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/scharr.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

namespace {

using namespace reg;  // NOLINT: the registry's internals (op_spec.hpp)

ScharrParams scharr_params(const Args& a) {
  return ScharrParams{a.i("dx"), a.i("dy"), a.f("scale"), a.f("delta"), filter_border(a)};
}

}  // namespace

void detail::check_scharr(const char* op, Naming n, const ScharrParams& p) {
  if (!((p.dx == 1 && p.dy == 0) || (p.dx == 0 && p.dy == 1)))
    fail(kInvalid, op, "derivative orders are not supported",
         "dx=" + std::to_string(p.dx) + ", dy=" + std::to_string(p.dy), "dx=1, dy=0 or dx=0, dy=1");
  check_scale_delta(op, n, p.scale, p.delta);
}

void scharr(const ImageView& src, const ImageView& dst, const ScharrParams& p, void* stream) {
  const char* op = "scharr";
  check_io(op, src, dst, true);
  detail::check_scharr(op, Naming::api, p);
  const std::vector<float> deriv{-1.0f, 0.0f, 1.0f}, smooth{3.0f, 10.0f, 3.0f};
  detail::SepFilterDesc d;
  d.kx = p.dx == 1 ? deriv : smooth;
  d.ky = p.dx == 1 ? smooth : deriv;
  d.ax = d.ay = 1;
  d.scale = static_cast<float>(p.scale);
  d.delta = static_cast<float>(p.delta);
  d.border = border_desc(op, src, p.border);
  run_separable(op, src, dst, d, stream);
}

namespace reg {

void declare_scharr(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "scharr";
  e.spec.summary = "Scharr 3x3 derivative, as cv::Scharr with ddepth -1 (dx=1,dy=0 or dx=0,dy=1)";
  auto& ps = e.spec.params;
  ps.push_back(p_int("dx", "1", 0, "order of the x derivative (0 or 1)"));
  ps.push_back(p_int("dy", "0", 0, "order of the y derivative (0 or 1)"));
  add_scale_delta(ps);
  add_filter_border(ps);
  add_filter_path(ps);
  e.check = [](const Args& a, detail::Naming n) {
    detail::check_scharr("scharr", n, scharr_params(a));
  };
  e.size = same_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    scharr(src, dst, scharr_params(a), stream);
  };
  e.spec.doc = "Scharr 3x3 derivative, as cv2.Scharr ((dx, dy) = (1, 0) or (0, 1)).";
  e.spec.float_output = true;
  declare_python(e.spec, {"dx", "dy"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
