// What the geometric operations share (src/core/geometry_common.hpp): messages' numbers, the
// sampling descriptor, the warp matrices' checks and inverses, the warp routing, the angle and
// the resize factors' rules. Each op's own validation, routing and spec sit in
// src/core/ops/<op>.cpp.
#include "src/core/geometry_common.hpp"

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

namespace geometry_common {

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

}  // namespace geometry_common

using namespace geometry_common;  // NOLINT: this file's own helpers

}  // namespace texcv
