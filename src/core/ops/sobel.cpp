// sobel (include/texcv/ops/sobel.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/sobel.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

namespace {

using namespace reg;  // NOLINT: the registry's internals (op_spec.hpp)

SobelParams sobel_params(const Args& a) {
  return SobelParams{a.i("dx"),    a.i("dy"),    a.i("ksize"),
                     a.f("scale"), a.f("delta"), filter_border(a)};
}

}  // namespace

void detail::check_sobel(const char* op, Naming n, const SobelParams& p) {
  check_aperture(op, n, p.ksize, 7, "1, 3, 5 or 7");
  const std::string k = std::to_string(p.ksize);
  check_order(op, "dx", p.dx);
  check_order(op, "dy", p.dy);
  if (p.dx == 0 && p.dy == 0)  // (not dx + dy: that overflows for dx=1, dy=INT_MAX)
    fail(kInvalid, op, "derivative orders are both zero", "dx=0, dy=0", "dx + dy > 0");
  // ksize 1: no smoothing (1 tap) along an axis of order 0, the 3-tap derivative otherwise.
  const std::pair<int, const char*> orders[2] = {{p.dx, "dx"}, {p.dy, "dy"}};
  for (const auto& [order, name] : orders) {
    const int size = p.ksize == 1 && order > 0 ? 3 : p.ksize;
    if (order >= size)
      fail(kInvalid, op, "derivative order is too high for the kernel size",
           std::string(name) + "=" + std::to_string(order) +
               (n == Naming::api ? " with ksize " : ", ksize=") + k,
           std::string(name) + " < " + std::to_string(size));
  }
  check_scale_delta(op, n, p.scale, p.delta);
}

void sobel(const ImageView& src, const ImageView& dst, const SobelParams& p, void* stream) {
  const char* op = "sobel";
  check_io(op, src, dst, true);
  detail::check_sobel(op, Naming::api, p);
  // ksize 1: no smoothing (1 tap) along an axis of order 0, the 3-tap derivative otherwise.
  const int kx = p.ksize == 1 && p.dx > 0 ? 3 : p.ksize;
  const int ky = p.ksize == 1 && p.dy > 0 ? 3 : p.ksize;
  detail::SepFilterDesc d;
  d.kx = deriv_kernel(p.dx, kx);
  d.ky = deriv_kernel(p.dy, ky);
  d.ax = kx / 2;
  d.ay = ky / 2;
  d.scale = static_cast<float>(p.scale);
  d.delta = static_cast<float>(p.delta);
  d.border = border_desc(op, src, p.border);
  run_separable(op, src, dst, d, stream);
}

namespace reg {

void declare_sobel(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "sobel";
  e.spec.summary =
      "Sobel derivative, as cv::Sobel with ddepth -1 (source type: negative values saturate "
      "to 0 for u8/u16; use delta to offset)";
  auto& ps = e.spec.params;
  ps.push_back(p_int("dx", "1", 0, "order of the x derivative"));
  ps.push_back(p_int("dy", "0", 0, "order of the y derivative"));
  ps.push_back(p_int("ksize", "3", 1, "1, 3, 5 or 7 (1: 3-tap derivative, no smoothing)"));
  add_scale_delta(ps);
  add_filter_border(ps);
  add_filter_path(ps);
  e.check = [](const Args& a, detail::Naming n) {
    detail::check_sobel("sobel", n, sobel_params(a));
  };
  e.size = same_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    sobel(src, dst, sobel_params(a), stream);
  };
  e.spec.doc =
      "Sobel derivative, as cv2.Sobel (ksize 1, 3, 5 or 7). With the source type, negative\n"
      "values saturate to 0 for u8/u16: use dtype=\"float32\" (ddepth=CV_32F) or delta.";
  e.spec.float_output = true;
  declare_python(e.spec, {"dx", "dy", "ksize"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
