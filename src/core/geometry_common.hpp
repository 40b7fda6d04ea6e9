// What the geometric operations share (src/core/ops/: resize, warp_affine, warp_perspective,
// rotate, flip, crop, remap): the checks of their values, the sampling descriptor, the warp
// matrices' inverses and routing, the resize factors' rules (src/core/geometry_common.cpp), and
// the parameters their specs declare alike (the warps' matrix and output size).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "src/core/backends.hpp"
#include "src/core/cuda_call.hpp"
#include "src/core/op_spec.hpp"
#include "src/core/param_checks.hpp"
#include "src/core/view_checks.hpp"
#include "texcv/error.hpp"
#include "texcv/geometry.hpp"

namespace texcv::geometry_common {

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

// v with 17 significant digits; the shortest form that reads back as v; "(x, y, w, h)".
std::string num(double v);
std::string short_num(double v);
std::string rect_str(const Rect& r);
// The interpolation (area only where area_allowed), border, value, precision and path checked
// and resolved for src's type.
SamplingDesc make_sampling(const char* op, const ImageView& src, Interp ip, Border b,
                           const std::array<double, 4>& bv, Precision prec, Path path,
                           bool area_allowed);
void check_interp(const char* op, Interp ip, bool area_allowed);
// The inverses of the affine (2x3) and perspective (3x3) maps; a singular m fails.
std::array<double, 6> invert_affine(const char* op, Naming n, const std::array<double, 6>& m);
std::array<double, 9> invert_perspective(const char* op, Naming n, const std::array<double, 9>& m);
// One warp on src's backend (CUDA on `stream` for device views).
void run_warp(const ImageView& src, const ImageView& dst, const WarpDesc& d, void* stream);
// warp_affine's run, with messages naming op (rotate shares it).
void warp_affine_impl(const char* op, const ImageView& src, const ImageView& dst,
                      const std::array<double, 6>& m, bool inverse_map, const Sampling& s,
                      void* stream);
// cos and sin of an angle in degrees, exact at multiples of 90 degrees.
void cos_sin_deg(double angle, double& c, double& s);
void check_angle(const char* op, double angle);
// One axis of resize's factor form: f must be 0 (unset) or finite and > 0.
void check_factor(const char* op, const char* name, double f);
// round(n * f), ties to even, as cv::resize's cvRound; checked to lie in [1, INT_MAX]. axis
// names the side ("width"), name the factor ("fx").
int factor_size(const char* op, const char* axis, const char* name, int n, double f);
// The factor form's destination extent along one axis must be factor_size's.
void check_factor_size(const char* op, const char* axis, const char* name, int src_n, int dst_n,
                       double f);

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

}  // namespace texcv::geometry_common

namespace texcv::reg {

// The N numbers of a warp's m.
template <std::size_t N>
std::array<double, N> matrix(const Args& a) {
  const auto m = a.fs("m");
  std::array<double, N> out{};
  for (std::size_t k = 0; k < N; ++k) out[k] = m[k];
  return out;
}

// The warps' parameters: m (n numbers), inverse_map, the output size and the sampling.
inline void add_warp_params(std::vector<ParamSpec>& ps, int n) {
  ps.push_back(required(
      p_floats("m", "", n, n,
               n == 6 ? "the 2x3 matrix, row-major: m=a|b|tx|c|d|ty (source to destination)"
                      : "the 3x3 matrix, row-major, 9 numbers (source to destination)")));
  ps.push_back(p_bool("inverse_map", "false", "m already maps destination to source"));
  ps.push_back(p_int("width", "", 1, "output width (default: the source width)"));
  ps.push_back(p_int("height", "", 1, "output height (default: the source height)"));
  add_sampling(ps, kInterpWarp, "constant");
}

// The warps' output: width x height, by default the source's.
inline Rect warp_size(const Args& a, int w, int h) {
  return Rect{0, 0, a.has("width") ? a.i("width") : w, a.has("height") ? a.i("height") : h};
}

}  // namespace texcv::reg
