// gaussian_blur (include/texcv/ops/gaussian_blur.hpp): its validation and routing to the CPU or
// CUDA backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv
// ops).
#include "texcv/ops/gaussian_blur.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

namespace {

using namespace reg;  // NOLINT: the registry's internals (op_spec.hpp)

// The public parameters of a step, as its runner passes them (and its check checks them).
GaussianParams gaussian_params(const Args& a) {
  GaussianParams p;
  p.ksize_x = a.i("ksize");
  p.ksize_y = a.has("ksize_y") ? a.i("ksize_y") : (a.f("sigma_y") > 0 ? 0 : p.ksize_x);
  p.sigma_x = a.f("sigma");
  p.sigma_y = a.f("sigma_y");
  p.border = filter_border(a);
  return p;
}

}  // namespace

GaussianAxes detail::resolve_gaussian(const char* op, Naming n, const GaussianParams& p,
                                      std::optional<ElemType> type) {
  const bool api = n == Naming::api;
  const std::array<ParamName, 4> names{
      ParamName{api ? "ksize_x" : "ksize", n}, ParamName{"ksize_y", n},
      ParamName{api ? "sigma_x" : "sigma", n}, ParamName{"sigma_y", n}};
  return gaussian_axes(op, n, names, p.ksize_x, p.ksize_y, p.sigma_x, p.sigma_y, type);
}

std::vector<float> gaussian_kernel(int ksize, double sigma) {
  const char* op = "gaussian_kernel";
  if (ksize < 1 || ksize > kMaxKernel1D)
    fail(kInvalid, op, "kernel size is out of range", std::to_string(ksize),
         "1 to " + std::to_string(kMaxKernel1D));
  check_finite(op, "sigma", sigma);
  // OpenCV 4.6's fixed table for odd sizes up to 9 when sigma <= 0 (getGaussianKernel; its docs
  // do not say so, its output does: size 9 is 4 13 30 51 60 51 30 13 4 / 256).
  static const double kSmall[5][9] = {
      {1.0},
      {0.25, 0.5, 0.25},
      {0.0625, 0.25, 0.375, 0.25, 0.0625},
      {0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125},
      {4 / 256.0, 13 / 256.0, 30 / 256.0, 51 / 256.0, 60 / 256.0, 51 / 256.0, 30 / 256.0,
       13 / 256.0, 4 / 256.0}};
  const bool fixed = ksize % 2 == 1 && ksize <= 9 && sigma <= 0;
  const double s = sigma > 0 ? sigma : ((ksize - 1) * 0.5 - 1) * 0.3 + 0.8;
  const double scale2 = -0.5 / (s * s);
  std::vector<float> k(static_cast<std::size_t>(ksize));
  double sum = 0;
  for (int i = 0; i < ksize; ++i) {
    const double x = i - (ksize - 1) * 0.5;
    const double v = fixed ? kSmall[ksize / 2][i] : std::exp(scale2 * x * x);
    k[i] = static_cast<float>(v);
    sum += k[i];
  }
  sum = 1.0 / sum;
  for (auto& v : k) v = static_cast<float>(v * sum);
  return k;
}

void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& p,
                   void* stream) {
  const char* op = "gaussian_blur";
  check_io(op, src, dst, false);
  const GaussianAxes g = detail::resolve_gaussian(op, Naming::api, p, src.type);
  detail::SepFilterDesc d;
  d.kx = gaussian_kernel(g.kx, g.sx);
  d.ky = gaussian_kernel(g.ky, g.sy);
  d.ax = g.kx / 2;
  d.ay = g.ky / 2;
  d.border = border_desc(op, src, p.border);
  run_separable(op, src, dst, d, stream);
}

namespace reg {

void declare_gaussian_blur(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "gaussian_blur";
  e.spec.summary =
      "Gaussian blur, as cv::GaussianBlur (give ksize and/or sigma, the missing one is derived "
      "as OpenCV does; with neither, as with OpenCV, there is no blur size and the step is "
      "refused)";
  auto& ps = e.spec.params;
  ps.push_back(
      p_int("ksize", "0", 0, "odd kernel size; 0: derived from sigma, which must then be > 0"));
  ps.push_back(p_float("sigma", "0",
                       "standard deviation along x; 0: derived from ksize, which must then be "
                       ">= 1",
                       0));
  ps.push_back(p_int("ksize_y", "", 0, "kernel height (default: ksize, or from sigma_y)"));
  ps.push_back(p_float("sigma_y", "0", "standard deviation along y; 0: sigma", 0));
  add_filter_border(ps);
  add_filter_path(ps);
  e.check = [](const Args& a, detail::Naming n) {
    // Without the image's type the derived size is u8's, the smallest: what fails here fails
    // on every image.
    detail::resolve_gaussian("gaussian_blur", n, gaussian_params(a), std::nullopt);
  };
  e.size = same_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    gaussian_blur(src, dst, gaussian_params(a), stream);
  };
  e.spec.doc =
      "Gaussian blur, as cv2.GaussianBlur(src, (ksize, ksize_y), sigma, sigma_y): give ksize\n"
      "and/or sigma; the missing one is derived as OpenCV does. Accuracy vs OpenCV: 1 level "
      "(u8,\n"
      "u16), 1e-5 of full scale (f32).";
  declare_python(e.spec, {"ksize", "sigma"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
