// The public linear filters (include/texcv/filters.hpp): validate, resolve the parameters into
// backend descriptors (src/core/filters_desc.hpp) as OpenCV derives them, and forward to the CPU
// backend, or for device views to the CUDA backend (on the caller's stream).
#include "texcv/filters.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "src/core/cuda_call.hpp"
#include "src/core/filters_desc.hpp"
#include "src/core/param_checks.hpp"
#include "src/core/view_checks.hpp"
#include "texcv/error.hpp"

namespace texcv {

namespace {

using detail::FilterBorderDesc;
using detail::GaussianAxes;
using detail::Naming;
using detail::ParamName;
using detail::size_str;

constexpr ErrorCode kInvalid = ErrorCode::InvalidArgument;

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

}  // namespace

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

namespace {

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

}  // namespace

GaussianAxes detail::resolve_gaussian(const char* op, Naming n, const GaussianParams& p,
                                      std::optional<ElemType> type) {
  const bool api = n == Naming::api;
  const std::array<ParamName, 4> names{
      ParamName{api ? "ksize_x" : "ksize", n}, ParamName{"ksize_y", n},
      ParamName{api ? "sigma_x" : "sigma", n}, ParamName{"sigma_y", n}};
  return gaussian_axes(op, n, names, p.ksize_x, p.ksize_y, p.sigma_x, p.sigma_y, type);
}

GaussianAxes detail::resolve_unsharp(const char* op, Naming n, const UnsharpParams& p,
                                     std::optional<ElemType> type) {
  // One size and one sigma: the messages name them "ksize" and "sigma".
  const std::array<ParamName, 4> names{ParamName{"ksize", n}, ParamName{"ksize", n},
                                       ParamName{"sigma", n}, ParamName{"sigma", n}};
  const GaussianAxes g = gaussian_axes(op, n, names, p.ksize, p.ksize, p.sigma, p.sigma, type);
  check_finite(op, ParamName{"amount", n}, p.amount);
  check_finite(op, ParamName{"threshold", n}, p.threshold);
  if (p.threshold < 0)
    fail(kInvalid, op, ParamName{"threshold", n}.subject() + " must not be negative",
         ParamName{"threshold", n}.got(num(p.threshold)), ">= 0");
  return g;
}

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

void detail::check_scharr(const char* op, Naming n, const ScharrParams& p) {
  if (!((p.dx == 1 && p.dy == 0) || (p.dx == 0 && p.dy == 1)))
    fail(kInvalid, op, "derivative orders are not supported",
         "dx=" + std::to_string(p.dx) + ", dy=" + std::to_string(p.dy), "dx=1, dy=0 or dx=0, dy=1");
  check_scale_delta(op, n, p.scale, p.delta);
}

void detail::check_laplacian(const char* op, Naming n, const LaplacianParams& p) {
  check_aperture(op, n, p.ksize, 5, "1, 3 or 5");
  check_scale_delta(op, n, p.scale, p.delta);
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

void unsharp_mask(const ImageView& src, const ImageView& dst, const UnsharpParams& p,
                  void* stream) {
  const char* op = "unsharp_mask";
  check_io(op, src, dst, false);
  const GaussianAxes g = detail::resolve_unsharp(op, Naming::api, p, src.type);
  detail::UnsharpDesc d;
  d.blur.kx = gaussian_kernel(g.kx, g.sx);
  d.blur.ky = gaussian_kernel(g.ky, g.sy);
  d.blur.ax = g.kx / 2;
  d.blur.ay = g.ky / 2;
  d.blur.border = border_desc(op, src, p.border);
  d.amount = static_cast<float>(p.amount);
  d.threshold = static_cast<float>(p.threshold);
  if (src.location == Location::device)
    return TEXCV_CUDA("unsharp_mask", cuda::unsharp_mask(src, dst, d, stream));
  cpu::unsharp_mask(src, dst, d);
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

void laplacian(const ImageView& src, const ImageView& dst, const LaplacianParams& p, void* stream) {
  const char* op = "laplacian";
  check_io(op, src, dst, true);
  detail::check_laplacian(op, Naming::api, p);
  detail::Filter2DDesc d;
  if (p.ksize == 1) {
    d.kw = d.kh = 3;
    d.k = {0, 1, 0, 1, -4, 1, 0, 1, 0};
  } else if (p.ksize == 3) {
    d.kw = d.kh = 3;
    d.k = {2, 0, 2, 0, -8, 0, 2, 0, 2};
  } else {
    // d2/dx2 + d2/dy2 with the 5-tap Sobel kernels: s(y) d2(x) + d2(y) s(x).
    const std::vector<float> d2 = deriv_kernel(2, 5), s = deriv_kernel(0, 5);
    d.kw = d.kh = 5;
    d.k.resize(25);
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 5; ++x) d.k[y * 5 + x] = s[y] * d2[x] + d2[y] * s[x];
  }
  d.ax = d.kw / 2;
  d.ay = d.kh / 2;
  d.scale = static_cast<float>(p.scale);
  d.delta = static_cast<float>(p.delta);
  d.border = border_desc(op, src, p.border);
  run_2d(op, src, dst, d, stream);
}

}  // namespace texcv
