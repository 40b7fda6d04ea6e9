// convolve (include/texcv/ops/convolve.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/convolve.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

namespace {

using namespace reg;  // NOLINT: the registry's internals (op_spec.hpp)

// convolve's kernel width and height: kw and/or kh as given (the other one from the count), else a
// square kernel; fails when the count does not fit them.
std::pair<int, int> convolve_size(const Args& a) {
  const int n = static_cast<int>(a.fs("kernel").size());
  int kw = a.has("kw") ? a.i("kw") : 0, kh = a.has("kh") ? a.i("kh") : 0;
  if (kw == 0 && kh == 0) {
    kw = kh = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
    if (kw * kh != n)
      fail(kInvalid, "convolve", "the kernel is not square and kw/kh are not given",
           std::to_string(n) + " numbers", "a square count, or kw and/or kh");
  } else if (kw == 0) {
    kw = n / kh;
  } else if (kh == 0) {
    kh = n / kw;
  }
  if (kw * kh != n)
    fail(kInvalid, "convolve", "the kernel count differs from kw x kh",
         std::to_string(n) + " numbers",
         std::to_string(kw) + "x" + std::to_string(kh) + " = " + std::to_string(kw * kh));
  return {kw, kh};
}

}  // namespace

void convolve(const ImageView& src, const ImageView& dst, const Kernel& kernel,
              const ConvolveParams& p, void* stream) {
  const char* op = "convolve";
  check_io(op, src, dst, true);
  detail::check_kernel_2d_size(op, kernel.width, kernel.height);
  const std::size_t count = static_cast<std::size_t>(kernel.width) * kernel.height;
  if (kernel.values.size() != count)
    fail(kInvalid, op, "kernel value count differs from its size",
         std::to_string(kernel.values.size()) + " values",
         std::to_string(count) + " (" + size_str(kernel.width, kernel.height) + ")");
  for (std::size_t i = 0; i < count; ++i)
    if (!std::isfinite(kernel.values[i]))
      fail(kInvalid, op, "kernel element is not finite",
           num(kernel.values[i]) + " at index " + std::to_string(i), "finite values");
  const auto [ax, ay] =
      detail::filter_anchor(op, Naming::api, p.anchor_x, p.anchor_y, kernel.width, kernel.height);
  check_finite(op, "scale", p.scale);
  check_finite(op, "delta", p.delta);
  detail::Filter2DDesc d;
  d.kw = kernel.width;
  d.kh = kernel.height;
  d.ax = ax;
  d.ay = ay;
  d.k = kernel.values;
  d.scale = static_cast<float>(p.scale);
  d.delta = static_cast<float>(p.delta);
  d.border = border_desc(op, src, p.border);
  run_2d(op, src, dst, d, stream);
}

void convolve(const ImageView& src, const ImageView& dst, const ImageView& kernel,
              const ConvolveParams& p, void* stream) {
  const char* op = "convolve";
  validate_view(kernel, op, "kernel");
  if (kernel.channels != 1 || kernel.type != ElemType::f32)
    fail(kInvalid, op, "kernel must be 1-channel f32", detail::shape_str(kernel), "1-channel f32");
  if (kernel.location != Location::host)
    fail(kInvalid, op, "kernel must be a host view", to_string(kernel.location), "host");
  Kernel k;
  k.width = kernel.width;
  k.height = kernel.height;
  if (k.width <= kMaxKernel2D && k.height <= kMaxKernel2D) {
    k.values.reserve(static_cast<std::size_t>(k.width) * k.height);
    for (int y = 0; y < k.height; ++y) {
      const float* r = kernel.row<const float>(y);
      k.values.insert(k.values.end(), r, r + k.width);
    }
  }
  convolve(src, dst, k, p, stream);
}

namespace reg {

void declare_convolve(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "convolve";
  e.spec.summary =
      "2-D correlation with a kernel up to 31x31, as cv::filter2D (output: source type, "
      "saturated)";
  auto& ps = e.spec.params;
  ps.push_back(required(p_floats("kernel", "", 1, kMaxKernel2D * kMaxKernel2D,
                                 "coefficients row by row, e.g. kernel=0|-1|0|-1|5|-1|0|-1|0")));
  ps.push_back(p_int("kw", "", 1, "kernel width (default: square kernel, or count / kh)"));
  ps.push_back(p_int("kh", "", 1, "kernel height (default: square kernel, or count / kw)"));
  ps.push_back(p_int("anchor_x", "-1", -1, "anchor column in the kernel; -1: the centre"));
  ps.push_back(p_int("anchor_y", "-1", -1, "anchor row in the kernel; -1: the centre"));
  add_scale_delta(ps);
  add_filter_border(ps);
  add_filter_path(ps);
  e.check = [](const Args& a, detail::Naming n) {
    const auto [kw, kh] = convolve_size(a);
    detail::check_kernel_2d_size("convolve", kw, kh);
    detail::filter_anchor("convolve", n, a.i("anchor_x"), a.i("anchor_y"), kw, kh);
  };
  e.size = same_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    const auto v = a.fs("kernel");
    const auto [kw, kh] = convolve_size(a);
    Kernel k{kw, kh, std::vector<float>(v.begin(), v.end())};
    ConvolveParams p;
    p.anchor_x = a.i("anchor_x");
    p.anchor_y = a.i("anchor_y");
    p.scale = a.f("scale");
    p.delta = a.f("delta");
    p.border = filter_border(a);
    convolve(src, dst, k, p, stream);
  };
  e.spec.doc =
      "2-D correlation with kernel (kh x kw, up to 31x31), as cv2.filter2D: scale * sum + "
      "delta.\n"
      "\n"
      "dtype: the output type, the source's (saturated, rounded half to even) or \"float32\" "
      "(as\n"
      "ddepth=CV_32F). Accuracy vs OpenCV: 1 level for integer outputs; float32 within 1e-5 of\n"
      "sum|k| x full scale.";
  e.spec.float_output = true;
  declare_python(e.spec, {"kernel"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
