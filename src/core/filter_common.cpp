// What the filter operations share (src/core/filter_common.hpp): the checks of their views and
// values, the border descriptor, the routing of the 2-D and separable engines, the derivative
// kernels and the Gaussian axes. Each filter's own validation, routing and spec sit in
// src/core/ops/<op>.cpp.
#include "src/core/filter_common.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

namespace texcv {

namespace filter_common {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Source and destination: valid, same location, channels and size, no overlap; dst of src's
// element type, or f32 where f32_out is allowed.
void check_io(const char* op, const ImageView& src, const ImageView& dst, bool f32_out) {
  detail::check_pair(op, src, dst, !f32_out);
  if (dst.type != src.type && dst.type != ElemType::f32)
    fail(kInvalid, op, "destination element type is not supported", to_string(dst.type),
         std::string(to_string(src.type)) + " (the source's) or f32");
  detail::check_same_size(op, src, dst);
}

void check_finite(const char* op, const char* name, double v) {
  if (!std::isfinite(v))
    fail(kInvalid, op, std::string(name) + " must be finite", num(v), "a finite number");
}

FilterBorderDesc border_desc(const char* op, const ImageView& src, const FilterBorder& b) {
  if (static_cast<unsigned>(b.border) > static_cast<unsigned>(Border::wrap))
    fail(kInvalid, op, "border mode is not valid", std::to_string(static_cast<int>(b.border)),
         "constant, replicate, reflect, reflect101 or wrap");
  if (b.path == Path::texture_filter)
    fail(ErrorCode::Unsupported, op,
         "path texture_filter (hardware interpolation) does not apply "
         "to a stencil filter",
         "texture_filter", "auto, global, shared or texture");
  if (static_cast<unsigned>(b.path) > static_cast<unsigned>(Path::shared))
    fail(kInvalid, op, "path is not valid", std::to_string(static_cast<int>(b.path)),
         "auto, global, shared or texture");
  FilterBorderDesc d;
  d.border = b.border;
  d.path = b.path;
  for (int c = 0; c < 4; ++c) {
    check_finite(op, "border value", b.value[c]);
    d.value[c] = detail::border_value_for(src.type, b.value[c]);
  }
  return d;
}

void check_kernel_1d(const char* op, const char* name, const std::vector<float>& k) {
  const int n = static_cast<int>(k.size());
  if (n < 1)
    fail(kInvalid, op, std::string(name) + " is empty", "0 taps",
         "1 to " + std::to_string(kMaxKernel1D) + " taps");
  if (k.size() > static_cast<std::size_t>(kMaxKernel1D))
    fail(kInvalid, op, std::string(name) + " is too long", std::to_string(k.size()) + " taps",
         "at most " + std::to_string(kMaxKernel1D) + " taps");
  for (std::size_t i = 0; i < k.size(); ++i)
    if (!std::isfinite(k[i]))
      fail(kInvalid, op, std::string(name) + " element is not finite",
           num(k[i]) + " at index " + std::to_string(i), "finite values");
}

void run_2d(const char* op, const ImageView& src, const ImageView& dst,
            const detail::Filter2DDesc& d, void* stream) {
  if (src.location == Location::device)
    return TEXCV_CUDA(op, cuda::filter_2d(op, src, dst, d, stream));
  cpu::filter_2d(src, dst, d);
}

void run_separable(const char* op, const ImageView& src, const ImageView& dst,
                   const detail::SepFilterDesc& d, void* stream) {
  if (src.location == Location::device)
    return TEXCV_CUDA(op, cuda::filter_separable(op, src, dst, d, stream));
  cpu::filter_separable(src, dst, d);
}

// cv::getDerivKernels coefficients: [1 1]^(size - 1 - order) convolved with [-1 1]^order.
std::vector<float> deriv_kernel(int order, int size) {
  std::vector<double> k{1.0};
  auto conv = [&k](double a, double b) {
    std::vector<double> r(k.size() + 1, 0.0);
    for (std::size_t i = 0; i < k.size(); ++i) {
      r[i] += k[i] * a;
      r[i + 1] += k[i] * b;
    }
    k = std::move(r);
  };
  for (int i = 0; i < size - 1 - order; ++i) conv(1.0, 1.0);
  for (int i = 0; i < order; ++i) conv(-1.0, 1.0);
  return std::vector<float>(k.begin(), k.end());
}

}  // namespace filter_common

using namespace filter_common;  // NOLINT: this file's own helpers

// ---- The image-independent rules (src/core/param_checks.hpp) -------------------------------

std::string detail::anchor_got(Naming n, int ax, int ay) {
  if (n == Naming::step)
    return "anchor_x=" + std::to_string(ax) + ", anchor_y=" + std::to_string(ay);
  std::string s("(");
  s.append(std::to_string(ax)).append(", ").append(std::to_string(ay)).append(")");
  return s;
}

void detail::check_kernel_2d_size(const char* op, int kw, int kh) {
  if (kw < 1 || kh < 1) fail(kInvalid, op, "kernel is empty", size_str(kw, kh), "at least 1x1");
  if (kw > kMaxKernel2D || kh > kMaxKernel2D)
    fail(kInvalid, op, "kernel is too large", size_str(kw, kh),
         "at most " + size_str(kMaxKernel2D, kMaxKernel2D));
}

// Anchor -1 is the centre (size / 2), as OpenCV; otherwise it must lie inside the kernel.
std::pair<int, int> detail::filter_anchor(const char* op, Naming n, int ax, int ay, int kw,
                                          int kh) {
  const int rx = ax == -1 ? kw / 2 : ax, ry = ay == -1 ? kh / 2 : ay;
  if (rx < 0 || rx >= kw || ry < 0 || ry >= kh)
    fail(kInvalid, op, "anchor is outside the kernel", anchor_got(n, ax, ay),
         "inside " + size_str(kw, kh) + " (or -1 for the centre)");
  return {rx, ry};
}

namespace filter_common {

void check_finite(const char* op, const ParamName& name, double v) {
  if (!std::isfinite(v))
    fail(kInvalid, op, name.subject() + " must be finite", name.got(num(v)), "a finite number");
}

// The Gaussian axes of gaussian_blur and unsharp_mask (param_checks.hpp): names are kx, ky, sx,
// sy as the messages give them.
GaussianAxes gaussian_axes(const char* op, Naming n, const std::array<ParamName, 4>& names,
                           int ksize_x, int ksize_y, double sigma_x, double sigma_y,
                           std::optional<ElemType> type) {
  const ParamName &kx_name = names[0], &ky_name = names[1], &sx_name = names[2],
                  &sy_name = names[3];
  check_finite(op, sx_name, sigma_x);
  check_finite(op, sy_name, sigma_y);
  const std::string odd = n == Naming::api ? "an odd number > 0, or <= 0 to derive it from sigma"
                                           : "an odd number >= 1, or 0 to derive it from sigma";
  for (const auto& [k, name] : {std::pair{ksize_x, &kx_name}, std::pair{ksize_y, &ky_name}}) {
    if (k > 0 && k % 2 == 0)
      fail(kInvalid, op, name->subject() + " must be odd", name->got(std::to_string(k)), odd);
    if (k > kMaxKernel1D)
      fail(kInvalid, op, name->subject() + " is too large", name->got(std::to_string(k)),
           "at most " + std::to_string(kMaxKernel1D));
  }
  const double given_sigma_x = sigma_x;
  if (sigma_y <= 0) sigma_y = sigma_x;
  sigma_x = std::max(sigma_x, 0.0);
  sigma_y = std::max(sigma_y, 0.0);
  // OpenCV: round(sigma * (3 for u8, else 4) * 2 + 1) | 1. Without a type, u8's (the smallest).
  const auto derived = [](double sigma, double mult) {
    return std::nearbyint(sigma * mult * 2.0 + 1.0);
  };
  auto derive = [&](double sigma, const ParamName& name) {
    const double mult = type && *type != ElemType::u8 ? 4.0 : 3.0;
    const double k = derived(sigma, mult);
    if (k > kMaxKernel1D) {
      std::string got = std::string(name.name) + "=" + num(sigma) + " gives " + num(k);
      if (!type) got += " for u8 (" + num(derived(sigma, 4.0)) + " for u16 and f32)";
      fail(kInvalid, op, "kernel size derived from " + std::string(name.name) + " is too large",
           got, "at most " + std::to_string(kMaxKernel1D) + " taps");
    }
    return static_cast<int>(k) | 1;
  };
  if (ksize_x <= 0) {
    if (!(sigma_x > 0)) {
      const std::string kx(kx_name.name), sx(sx_name.name);
      fail(kInvalid, op, "kernel size and sigma are both unset",
           kx + "=" + std::to_string(ksize_x) + ", " + sx + "=" + num(given_sigma_x),
           n == Naming::api ? kx + " > 0 (odd) or " + sx + " > 0"
                            : kx + "=<an odd size> and/or " + sx + "=<a number > 0>, e.g. " +
                                  std::string(op) + ":" + sx + "=2");
    }
    ksize_x = derive(sigma_x, sx_name);
  }
  if (ksize_y <= 0) ksize_y = sigma_y > 0 ? derive(sigma_y, sy_name) : ksize_x;
  return {ksize_x, ksize_y, sigma_x, sigma_y};
}

void check_order(const char* op, const char* name, int order) {
  if (order < 0)
    fail(kInvalid, op, "derivative order must not be negative",
         std::string(name) + "=" + std::to_string(order), ">= 0");
}

// The derivative filters' aperture: an odd ksize from 1 to max (`expected` lists them).
void check_aperture(const char* op, Naming n, int ksize, int max, const char* expected) {
  const ParamName name{"ksize", n};
  const std::string k = std::to_string(ksize);
  if (ksize % 2 == 0) fail(kInvalid, op, name.subject() + " must be odd", name.got(k), expected);
  if (ksize < 1 || ksize > max)
    fail(kInvalid, op, name.subject() + " is not supported", name.got(k), expected);
}

void check_scale_delta(const char* op, Naming n, double scale, double delta) {
  check_finite(op, ParamName{"scale", n}, scale);
  check_finite(op, ParamName{"delta", n}, delta);
}

}  // namespace filter_common

}  // namespace texcv
