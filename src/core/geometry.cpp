// The public geometric operations: validate, resolve parameters into backend descriptors, and
// forward to the CPU backend (host views) or the CUDA backend (device views).
#include "texcv/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>

#include "src/core/backends.hpp"
#include "src/core/cuda_call.hpp"
#include "src/core/param_checks.hpp"
#include "src/core/view_checks.hpp"
#include "texcv/error.hpp"

namespace texcv {

namespace {

using detail::border_value_for;
using detail::check_no_overlap;
using detail::check_pair;
using detail::check_same_size;
using detail::Naming;
using detail::ResizeDesc;
using detail::SamplingDesc;
using detail::shape_str;
using detail::size_str;
using detail::WarpDesc;
using detail::WarpKind;

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The shortest of %.15g / %.17g that reads back as v (0.1 prints as 0.1).
std::string short_num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string rect_str(const Rect& r) {
  std::string s("(");
  s.append(std::to_string(r.x)).append(", ").append(std::to_string(r.y)).append(") ");
  s.append(size_str(r.width, r.height));
  return s;
}

void check_interp(const char* op, Interp ip, bool area_allowed) {
  switch (ip) {
    case Interp::nearest:
    case Interp::linear:
    case Interp::cubic:
      return;
    case Interp::area:
      if (area_allowed) return;
      fail(ErrorCode::Unsupported, op, "interpolation is not supported by this operation", "area",
           "nearest, linear or cubic");
  }
  fail(ErrorCode::InvalidArgument, op, "interpolation is not valid",
       std::to_string(static_cast<int>(ip)), "nearest, linear, cubic or area");
}

// automatic precision: exact for every element type. Hardware filtering (fast) differs from
// float weights by up to 2 levels on u8 data with steep neighbours (measured on the H200), more
// than the 1 level CONVENTIONS.md holds the default to, so it is opt-in (docs/conventions.md).
Precision resolve_precision(Precision p, ElemType) {
  if (p != Precision::automatic) return p;
  return Precision::exact;
}

SamplingDesc make_sampling(const char* op, const ImageView& src, Interp ip, Border b,
                           const std::array<double, 4>& bv, Precision prec, Path path,
                           bool area_allowed) {
  check_interp(op, ip, area_allowed);
  if (static_cast<unsigned>(b) > static_cast<unsigned>(Border::wrap))
    fail(ErrorCode::InvalidArgument, op, "border mode is not valid",
         std::to_string(static_cast<int>(b)), "constant, replicate, reflect, reflect101 or wrap");
  if (static_cast<unsigned>(prec) > static_cast<unsigned>(Precision::fast))
    fail(ErrorCode::InvalidArgument, op, "precision is not valid",
         std::to_string(static_cast<int>(prec)), "auto, exact or fast");
  if (path == Path::shared)
    fail(ErrorCode::InvalidArgument, op, "path 'shared' applies to the stencil filters only",
         "shared", "auto, global, texture or texture_filter");
  if (static_cast<unsigned>(path) > static_cast<unsigned>(Path::texture_filter))
    fail(ErrorCode::InvalidArgument, op, "path is not valid",
         std::to_string(static_cast<int>(path)), "auto, global, texture or texture_filter");
  SamplingDesc s;
  s.interp = ip;
  s.border = b;
  for (int c = 0; c < 4; ++c) s.border_value[c] = border_value_for(src.type, bv[c]);
  s.precision = resolve_precision(prec, src.type);
  s.path = path;
  return s;
}

template <std::size_t N>
void check_finite(const char* op, const std::array<double, N>& m) {
  for (std::size_t i = 0; i < N; ++i) {
    if (!std::isfinite(m[i])) {
      std::string got = num(m[i]);
      got.append(" at index ").append(std::to_string(i));
      fail(ErrorCode::InvalidArgument, op, "matrix element is not finite", got, "finite values");
    }
  }
}

// |det| must exceed kSingular times the matrix scale: the largest |element| of the affine 2x2
// part squared; for perspective, the product of each row's largest |element| (a bound of |det|
// up to a factor 3^(3/2), Hadamard's inequality), so that a translation of many pixels does not
// make a well-conditioned matrix look singular (with the largest element cubed, a forward
// matrix translating by more than ~9,300 px was refused).
constexpr double kSingular = 1e-12;

[[noreturn]] void fail_singular(const char* op, Naming n, double det, double scale) {
  fail(ErrorCode::InvalidArgument, op,
       n == Naming::api ? "singular matrix" : "parameter 'm' is a singular matrix",
       "determinant " + num(det),
       "|determinant| > " + num(kSingular * scale) +
           (n == Naming::api ? "" : ", or inverse_map=true for a destination-to-source m"));
}

// Inverse of the affine map [a b c; d e f] (double precision).
std::array<double, 6> invert_affine(const char* op, Naming n, const std::array<double, 6>& m) {
  const double det = m[0] * m[4] - m[1] * m[3];
  double mx = 0;
  for (int i : {0, 1, 3, 4}) mx = std::max(mx, std::fabs(m[i]));
  const double scale = mx * mx;
  if (!(std::fabs(det) > kSingular * scale) || !std::isfinite(1.0 / det))
    fail_singular(op, n, det, scale);
  const double id = 1.0 / det;
  const double a = m[4] * id, b = -m[1] * id, d = -m[3] * id, e = m[0] * id;
  return {a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5])};
}

std::array<double, 9> invert_perspective(const char* op, Naming n, const std::array<double, 9>& m) {
  const double c00 = m[4] * m[8] - m[5] * m[7];
  const double c01 = m[5] * m[6] - m[3] * m[8];
  const double c02 = m[3] * m[7] - m[4] * m[6];
  const double det = m[0] * c00 + m[1] * c01 + m[2] * c02;
  double scale = 1;
  for (int r = 0; r < 3; ++r)
    scale *= std::max({std::fabs(m[3 * r]), std::fabs(m[3 * r + 1]), std::fabs(m[3 * r + 2])});
  if (!(std::fabs(det) > kSingular * scale) || !std::isfinite(1.0 / det))
    fail_singular(op, n, det, scale);
  const double id = 1.0 / det;
  return {c00 * id, (m[2] * m[7] - m[1] * m[8]) * id, (m[1] * m[5] - m[2] * m[4]) * id,
          c01 * id, (m[0] * m[8] - m[2] * m[6]) * id, (m[2] * m[3] - m[0] * m[5]) * id,
          c02 * id, (m[1] * m[6] - m[0] * m[7]) * id, (m[0] * m[4] - m[1] * m[3]) * id};
}

void run_warp(const ImageView& src, const ImageView& dst, const WarpDesc& d, void* stream) {
  if (src.location == Location::host) {
    cpu::warp(src, dst, d);
  } else {
    TEXCV_CUDA(d.kind == detail::WarpKind::affine ? "warp_affine" : "warp_perspective",
               cuda::warp(src, dst, d, stream));
  }
}

void warp_affine_impl(const char* op, const ImageView& src, const ImageView& dst,
                      const std::array<double, 6>& m, bool inverse_map, const Sampling& s,
                      void* stream) {
  check_pair(op, src, dst);
  check_finite(op, m);
  WarpDesc d;
  d.kind = WarpKind::affine;
  d.sampling =
      make_sampling(op, src, s.interp, s.border, s.border_value, s.precision, s.path, false);
  const std::array<double, 6> inv = detail::warp_affine_inverse(op, Naming::api, m, inverse_map);
  for (int i = 0; i < 6; ++i) d.affine.m[i] = inv[i];
  run_warp(src, dst, d, stream);
}

// cos and sin of an angle in degrees, exact at multiples of 90 degrees.
void cos_sin_deg(double angle, double& c, double& s) {
  const double q = angle / 90.0;
  if (q == std::floor(q) && std::fabs(q) < 1e15) {
    const long long k = ((static_cast<long long>(q) % 4) + 4) % 4;
    constexpr double kC[4] = {1, 0, -1, 0}, kS[4] = {0, 1, 0, -1};
    c = kC[k];
    s = kS[k];
    return;
  }
  const double r = angle * (3.14159265358979323846 / 180.0);
  c = std::cos(r);
  s = std::sin(r);
}

void check_angle(const char* op, double angle) {
  if (!std::isfinite(angle))
    fail(ErrorCode::InvalidArgument, op, "angle must be finite", num(angle),
         "a finite number of degrees");
}

// One axis of resize's factor form: f must be 0 (unset) or finite and > 0.
void check_factor(const char* op, const char* name, double f) {
  if (f == 0) return;
  if (!std::isfinite(f) || !(f > 0)) {
    std::string what(name);
    what.append(" must be finite and positive (0: the size ratio)");
    fail(ErrorCode::InvalidArgument, op, what.c_str(), short_num(f), "a finite factor > 0, or 0");
  }
}

// round(n * f), ties to even, as cv::resize's cvRound (the default rounding mode); checked to
// lie in [1, INT_MAX]. axis names the side ("width"), name the factor ("fx").
int factor_size(const char* op, const char* axis, const char* name, int n, double f) {
  const double v = std::nearbyint(static_cast<double>(n) * f);
  const std::string got = std::string(name) + " " + short_num(f) + " on " + axis + " " +
                          std::to_string(n) + " gives " + short_num(v);
  if (!(v >= 1)) {
    std::string what("the output ");
    what.append(axis).append(" is less than 1");
    fail(ErrorCode::InvalidArgument, op, what.c_str(), got,
         std::string(name) + " > 0.5 / " + axis + " (an output of at least 1 pixel)");
  }
  if (!(v <= static_cast<double>(std::numeric_limits<int>::max()))) {
    std::string what("the output ");
    what.append(axis).append(" overflows");
    fail(ErrorCode::InvalidArgument, op, what.c_str(), got,
         "at most " + std::to_string(std::numeric_limits<int>::max()));
  }
  return static_cast<int>(v);
}

// The factor form's destination extent along one axis must be factor_size's.
void check_factor_size(const char* op, const char* axis, const char* name, int src_n, int dst_n,
                       double f) {
  const int want = factor_size(op, axis, name, src_n, f);
  if (dst_n == want) return;
  const std::string a(axis), n(name);
  fail(ErrorCode::InvalidArgument, op, "destination " + a + " does not match " + n,
       std::to_string(dst_n) + " (" + n + " " + short_num(f) + " on " + a + " " +
           std::to_string(src_n) + ")",
       std::to_string(want) + ", round(" + a + " * " + n + ") as cv::resize (texcv::resized_size)");
}

}  // namespace

std::array<double, 6> detail::warp_affine_inverse(const char* op, Naming n,
                                                  const std::array<double, 6>& m,
                                                  bool inverse_map) {
  check_finite(op, m);
  return inverse_map ? m : invert_affine(op, n, m);
}

std::array<double, 9> detail::warp_perspective_inverse(const char* op, Naming n,
                                                       const std::array<double, 9>& m,
                                                       bool inverse_map) {
  check_finite(op, m);
  return inverse_map ? m : invert_perspective(op, n, m);
}

void detail::check_resize(const char* op, Naming n, const ResizeParams& p) {
  check_interp(op, p.interp, true);
  if (p.interp == Interp::area && p.align_corners) {
    if (n == Naming::api)
      fail(ErrorCode::Unsupported, op, "align_corners is not supported with area interpolation",
           "area", "nearest, linear or cubic");
    fail(ErrorCode::Unsupported, op,
         "parameter 'align_corners' is not supported with area interpolation",
         "align_corners=true with interp=area",
         "interp=nearest, linear or cubic, or align_corners=false");
  }
  check_factor(op, "fx", p.fx);
  check_factor(op, "fy", p.fy);
}

void resize(const ImageView& src, const ImageView& dst, const ResizeParams& p, void* stream) {
  const char* op = "resize";
  check_pair(op, src, dst);
  ResizeDesc d;
  d.sampling =
      make_sampling(op, src, p.interp, p.border, p.border_value, p.precision, p.path, true);
  detail::check_resize(op, Naming::api, p);
  d.align_corners = p.align_corners;
  // The factor form: dst must have cv::resize's size for the factors (it ignores them when also
  // given a dsize; a mismatch here is an error, so that the factors mean what they mean to
  // cv::resize(src, dst, Size(), fx, fy)).
  if (p.fx > 0) check_factor_size(op, "width", "fx", src.width, dst.width, p.fx);
  if (p.fy > 0) check_factor_size(op, "height", "fy", src.height, dst.height, p.fy);
  // As cv::resize: inv_scale = dst / src (the size form) or the factor, and the coordinate step
  // scale = 1 / inv_scale (linear, cubic and area use 1 / fx in the factor form). A dst of the
  // source's size is a copy in cv::resize whatever the factors: the size ratio (1) then.
  const bool same_size = dst.width == src.width && dst.height == src.height;
  d.inv_scale_x = p.fx > 0 && !same_size ? p.fx : static_cast<double>(dst.width) / src.width;
  d.inv_scale_y = p.fy > 0 && !same_size ? p.fy : static_cast<double>(dst.height) / src.height;
  d.scale_x = 1.0 / d.inv_scale_x;
  d.scale_y = 1.0 / d.inv_scale_y;
  if (p.align_corners) {
    // With one destination pixel there is no span to align: it samples source pixel 0.
    const double sx = dst.width > 1 ? static_cast<double>(src.width - 1) / (dst.width - 1) : 0.0;
    const double sy = dst.height > 1 ? static_cast<double>(src.height - 1) / (dst.height - 1) : 0.0;
    d.ax = {sx, true, 0, dst.width - 1};
    d.ay = {sy, true, 0, dst.height - 1};
  } else {
    // Interp::nearest uses the sizes' 16.16 step in both forms: cv::INTER_NEAREST_EXACT ignores
    // the factors (measured with OpenCV 4.6).
    d.ax = {d.scale_x, false, detail::nearest_fixed_step(src.width, dst.width)};
    d.ay = {d.scale_y, false, detail::nearest_fixed_step(src.height, dst.height)};
  }
  if (src.location == Location::host) {
    cpu::resize(src, dst, d);
  } else {
    TEXCV_CUDA("resize", cuda::resize(src, dst, d, stream));
  }
}

Rect resized_size(int width, int height, double fx, double fy) {
  const char* op = "resized_size";
  if (width < 1)
    fail(ErrorCode::InvalidArgument, op, "width must be positive", std::to_string(width), "> 0");
  if (height < 1)
    fail(ErrorCode::InvalidArgument, op, "height must be positive", std::to_string(height), "> 0");
  for (const auto& [name, f] : {std::pair<const char*, double>{"fx", fx}, {"fy", fy}}) {
    if (!std::isfinite(f) || !(f > 0)) {
      std::string what(name);
      what.append(" must be finite and positive");
      fail(ErrorCode::InvalidArgument, op, what.c_str(), short_num(f), "a finite factor > 0");
    }
  }
  Rect r;
  r.width = factor_size(op, "width", "fx", width, fx);
  r.height = factor_size(op, "height", "fy", height, fy);
  return r;
}

void warp_affine(const ImageView& src, const ImageView& dst, const std::array<double, 6>& m,
                 bool inverse_map, const Sampling& s, void* stream) {
  warp_affine_impl("warp_affine", src, dst, m, inverse_map, s, stream);
}

void warp_perspective(const ImageView& src, const ImageView& dst, const std::array<double, 9>& m,
                      bool inverse_map, const Sampling& s, void* stream) {
  const char* op = "warp_perspective";
  check_pair(op, src, dst);
  check_finite(op, m);
  WarpDesc d;
  d.kind = WarpKind::perspective;
  d.sampling =
      make_sampling(op, src, s.interp, s.border, s.border_value, s.precision, s.path, false);
  const std::array<double, 9> inv =
      detail::warp_perspective_inverse(op, Naming::api, m, inverse_map);
  for (int i = 0; i < 9; ++i) d.perspective.m[i] = inv[i];
  run_warp(src, dst, d, stream);
}

std::array<double, 6> rotation_matrix(int src_w, int src_h, int dst_w, int dst_h,
                                      double angle_deg) {
  double a, b;
  cos_sin_deg(angle_deg, a, b);
  const double cx = (src_w - 1) * 0.5, cy = (src_h - 1) * 0.5;
  const double dcx = (dst_w - 1) * 0.5, dcy = (dst_h - 1) * 0.5;
  // cv::getRotationMatrix2D(center, angle, 1) = [a b (1-a)cx - b cy; -b a b cx + (1-a)cy], then
  // translated so that the source centre lands on the destination centre.
  return {a, b, dcx - a * cx - b * cy, -b, a, dcy + b * cx - a * cy};
}

Rect rotated_size(int width, int height, double angle_deg, bool expand) {
  const char* op = "rotated_size";
  if (width <= 0)
    fail(ErrorCode::InvalidArgument, op, "width must be positive", std::to_string(width), "> 0");
  if (height <= 0)
    fail(ErrorCode::InvalidArgument, op, "height must be positive", std::to_string(height), "> 0");
  check_angle(op, angle_deg);
  if (!expand) return Rect{0, 0, width, height};
  double c, s;
  cos_sin_deg(angle_deg, c, s);
  c = std::fabs(c);
  s = std::fabs(s);
  // Bounding box of the rotated pixel area, rounded up; 1e-6 absorbs floating-point noise so that
  // e.g. 90 degrees of 640x480 gives exactly 480x640.
  const double w = width * c + height * s, h = width * s + height * c;
  const double kMax = std::numeric_limits<int>::max();
  if (w > kMax || h > kMax)
    fail(ErrorCode::InvalidArgument, op, "rotated size overflows", num(w) + "x" + num(h), "< 2^31");
  return Rect{0, 0, static_cast<int>(std::ceil(w - 1e-6)), static_cast<int>(std::ceil(h - 1e-6))};
}

void rotate(const ImageView& src, const ImageView& dst, double angle_deg, const Sampling& s,
            void* stream) {
  const char* op = "rotate";
  check_pair(op, src, dst);
  check_angle(op, angle_deg);
  warp_affine_impl(op, src, dst,
                   rotation_matrix(src.width, src.height, dst.width, dst.height, angle_deg), false,
                   s, stream);
}

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

void flip(const ImageView& src, const ImageView& dst, FlipCode code, void* stream) {
  const char* op = "flip";
  check_pair(op, src, dst);
  check_same_size(op, src, dst);
  if (static_cast<unsigned>(code) > static_cast<unsigned>(FlipCode::both))
    fail(ErrorCode::InvalidArgument, op, "flip code is not valid",
         std::to_string(static_cast<int>(code)), "horizontal, vertical or both");
  if (src.location == Location::host) {
    cpu::flip(src, dst, code);
  } else {
    TEXCV_CUDA("flip", cuda::flip(src, dst, code, stream));
  }
}

void crop(const ImageView& src, const ImageView& dst, const Rect& r, void* stream) {
  const char* op = "crop";
  check_pair(op, src, dst);
  if (r.width <= 0 || r.height <= 0 || r.x < 0 || r.y < 0 || r.x > src.width - r.width ||
      r.y > src.height - r.height) {
    std::string expected("a non-empty rectangle inside ");
    expected.append(size_str(src.width, src.height));
    fail(ErrorCode::InvalidArgument, op, "rectangle is not inside the source", rect_str(r),
         expected);
  }
  if (dst.width != r.width || dst.height != r.height)
    fail(ErrorCode::InvalidArgument, op, "destination size differs from the rectangle",
         size_str(dst.width, dst.height), size_str(r.width, r.height));
  const ImageView part = src.roi(r);
  if (src.location == Location::host) {
    cpu::copy(part, dst);
  } else {
    TEXCV_CUDA("copy", cuda::copy(part, dst, stream));
  }
}

}  // namespace texcv
