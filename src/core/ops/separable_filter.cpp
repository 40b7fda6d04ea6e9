// separable_filter (include/texcv/ops/separable_filter.hpp): its validation and routing to the CPU
// or CUDA backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv
// ops).
#include "texcv/ops/separable_filter.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

void separable_filter(const ImageView& src, const ImageView& dst,
                      const std::vector<float>& row_kernel, const std::vector<float>& column_kernel,
                      const SeparableParams& p, void* stream) {
  const char* op = "separable_filter";
  check_io(op, src, dst, true);
  check_kernel_1d(op, "row kernel", row_kernel);
  check_kernel_1d(op, "column kernel", column_kernel);
  const auto [ax, ay] = detail::filter_anchor(op, Naming::api, p.anchor_x, p.anchor_y,
                                              static_cast<int>(row_kernel.size()),
                                              static_cast<int>(column_kernel.size()));
  check_finite(op, "delta", p.delta);
  detail::SepFilterDesc d;
  d.kx = row_kernel;
  d.ky = column_kernel;
  d.ax = ax;
  d.ay = ay;
  d.delta = static_cast<float>(p.delta);
  d.border = border_desc(op, src, p.border);
  run_separable(op, src, dst, d, stream);
}

namespace reg {

void declare_separable_filter(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "separable_filter";
  e.spec.summary = "row kernel along x, then column kernel along y, as cv::sepFilter2D";
  auto& ps = e.spec.params;
  ps.push_back(required(p_floats("row", "", 1, kMaxKernel1D, "row (x) kernel coefficients")));
  ps.push_back(required(p_floats("column", "", 1, kMaxKernel1D, "column (y) kernel coefficients")));
  ps.push_back(p_int("anchor_x", "-1", -1, "anchor tap of the row kernel; -1: the centre"));
  ps.push_back(p_int("anchor_y", "-1", -1, "anchor tap of the column kernel; -1: the centre"));
  ps.push_back(p_float("delta", "0", "added to the result (before rounding and saturation)"));
  add_filter_border(ps);
  add_filter_path(ps);
  e.check = [](const Args& a, detail::Naming n) {
    detail::filter_anchor("separable_filter", n, a.i("anchor_x"), a.i("anchor_y"),
                          static_cast<int>(a.fs("row").size()),
                          static_cast<int>(a.fs("column").size()));
  };
  e.size = same_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    const auto r = a.fs("row"), c = a.fs("column");
    SeparableParams p;
    p.anchor_x = a.i("anchor_x");
    p.anchor_y = a.i("anchor_y");
    p.delta = a.f("delta");
    p.border = filter_border(a);
    separable_filter(src, dst, std::vector<float>(r.begin(), r.end()),
                     std::vector<float>(c.begin(), c.end()), p, stream);
  };
  e.spec.doc =
      "The row kernel along x, then the column kernel along y (1 to 255 taps each), as\n"
      "cv2.sepFilter2D. dtype and accuracy as convolve.";
  e.spec.float_output = true;
  declare_python(e.spec, {"row", "column"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
