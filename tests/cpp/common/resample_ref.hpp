// The float64 reference of issue 16 ("exact at every size"), shared by the CPU backend's tests
// (tests/cpp/cpu/test_exact_reference.cpp) and the CUDA backend's (tests/cpp/cuda/
// test_exact_cuda.cpp): resize, warp_affine, warp_perspective, rotate and remap evaluated from
// the documented formulas (include/texcv/geometry.hpp, src/core/sampling.hpp,
// src/core/ops/resize.cpp, docs/conventions.md) in double everywhere, the comparison with the
// issue's bound, and the test data and cases both backends run.
//
// The reference evaluates each documented formula in double everywhere: the source coordinate,
// the weights and the sums; then u8/u16 round half to even and saturate (NaN -> 0), f32 is kept
// as computed. Pixel selections that the documentation defines in integer arithmetic (resize's
// 16.16 fixed-point nearest) are evaluated with that integer formula; nearest in warps and remap
// is floor(v + 0.5) in double. Remap reads the f32 maps as given (the maps are the input, so a
// float map value is exact by definition).
//
// Bound (issue 16): |texcv - reference| <= 1 level for u8/u16, <= 1e-5 absolute for f32 (data in
// [0, 1]). Set TEXCV_EXACT_VERBOSE=1 to print the measured error of every combination.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

namespace texcv::test::ref {

// ================================ the float64 reference ================================

// An image's elements as doubles (exact for u8, u16 and f32).
struct RefImage {
  int w = 0, h = 0, ch = 1;
  ElemType type = ElemType::u8;
  std::vector<double> v;
  double at(long long x, long long y, int c) const {
    return v[(static_cast<std::size_t>(y) * static_cast<std::size_t>(w) +
              static_cast<std::size_t>(x)) *
                 static_cast<std::size_t>(ch) +
             static_cast<std::size_t>(c)];
  }
};

inline RefImage to_ref(const ImageView& img) {
  RefImage r;
  r.w = img.width;
  r.h = img.height;
  r.ch = img.channels;
  r.type = img.type;
  r.v.resize(static_cast<std::size_t>(r.w) * r.h * r.ch);
  std::size_t k = 0;
  for (int y = 0; y < r.h; ++y)
    for (int x = 0; x < r.w; ++x)
      for (int c = 0; c < r.ch; ++c) r.v[k++] = test::at(img, x, y, c);
  return r;
}

// Round half to even (std::nearbyint in the default rounding mode) and saturate; NaN -> 0. f32 is
// stored as computed (the comparison is against the double value).
inline double ref_store(double v, ElemType t) {
  if (t == ElemType::f32) return v;
  const double hi = t == ElemType::u8 ? 255.0 : 65535.0;
  if (!(v > 0.0)) return 0.0;  // also NaN
  if (v >= hi) return hi;
  return std::nearbyint(v);
}

// docs/conventions.md: constant border values are first converted to the element type (rounded
// half to even and saturated for u8/u16; f32 takes the float nearest the value).
inline double ref_border_value(double v, ElemType t) {
  if (t == ElemType::f32) return static_cast<double>(static_cast<float>(v));
  return ref_store(v, t);
}

// The index border mode b gives to index i of a row of n pixels, -1 for constant. Patterns for
// abcdefgh (docs/conventions.md): replicate aaaa|abcdefgh|hhhh, reflect dcba|abcdefgh|hgfe,
// reflect101 edcb|abcdefgh|gfed, wrap efgh|abcdefgh|abcd; reflect and wrap are periodic.
inline long long ref_border_index(long long i, long long n, Border b) {
  if (i >= 0 && i < n) return i;
  const auto mod = [](long long a, long long p) { return ((a % p) + p) % p; };
  switch (b) {
    case Border::constant:
      return -1;
    case Border::replicate:
      return i < 0 ? 0 : n - 1;
    case Border::reflect: {  // period 2n: a b ... h h g ... a
      const long long k = mod(i, 2 * n);
      return k < n ? k : 2 * n - 1 - k;
    }
    case Border::reflect101: {  // period 2n - 2: a b ... h g ... b
      if (n == 1) return 0;
      const long long k = mod(i, 2 * n - 2);
      return k < n ? k : 2 * n - 2 - k;
    }
    case Border::wrap:
      return mod(i, n);
  }
  return -1;
}

// Keys' cubic convolution kernel with a = -0.75 (as OpenCV).
inline double keys(double s) {
  constexpr double a = -0.75;
  s = std::fabs(s);
  if (s <= 1.0) return ((a + 2.0) * s - (a + 3.0)) * s * s + 1.0;
  if (s < 2.0) return ((a * s - 5.0 * a) * s + 8.0 * a) * s - 4.0 * a;
  return 0.0;
}

// Weights of pixels floor - 1 .. floor + 2 for fraction t; w3 = 1 - w0 - w1 - w2 as documented.
inline void ref_cubic_weights(double t, double w[4]) {
  w[0] = keys(t + 1.0);
  w[1] = keys(t);
  w[2] = keys(1.0 - t);
  w[3] = 1.0 - w[0] - w[1] - w[2];
}

// Coordinates beyond +-1e9 (and NaN) are far outside (sanitize_coord).
inline double ref_sanitize(double v) {
  constexpr double kLimit = 1.0e9;
  if (v > -kLimit && v < kLimit) return v;
  return v >= kLimit ? kLimit : -kLimit;
}

// Sampling of a RefImage with a border mode, in double.
struct RefSampler {
  const RefImage* img;
  Border border;
  std::array<double, 4> bv{};  // in the element type

  RefSampler(const RefImage& im, Border b, const std::array<double, 4>& value)
      : img(&im), border(b) {
    for (int c = 0; c < 4; ++c) bv[c] = ref_border_value(value[c], im.type);
  }

  double px(long long x, long long y, int c) const {
    const long long ix = ref_border_index(x, img->w, border);
    const long long iy = ref_border_index(y, img->h, border);
    if (ix < 0 || iy < 0) return bv[c];
    return img->at(ix, iy, c);
  }

  // Nearest (warps, remap): the pixel floor(v + 0.5), ties upward.
  void nearest(double sx, double sy, double* out) const {
    const auto x = static_cast<long long>(std::floor(ref_sanitize(sx) + 0.5));
    const auto y = static_cast<long long>(std::floor(ref_sanitize(sy) + 0.5));
    for (int c = 0; c < img->ch; ++c) out[c] = px(x, y, c);
  }

  void linear(double sx, double sy, double* out) const {
    sx = ref_sanitize(sx);
    sy = ref_sanitize(sy);
    const double fx0 = std::floor(sx), fy0 = std::floor(sy);
    const double fx = sx - fx0, fy = sy - fy0;
    const auto x0 = static_cast<long long>(fx0), y0 = static_cast<long long>(fy0);
    for (int c = 0; c < img->ch; ++c) {
      const double r0 = px(x0, y0, c) * (1.0 - fx) + px(x0 + 1, y0, c) * fx;
      const double r1 = px(x0, y0 + 1, c) * (1.0 - fx) + px(x0 + 1, y0 + 1, c) * fx;
      out[c] = r0 * (1.0 - fy) + r1 * fy;
    }
  }

  // 4x4 neighbourhood from floor - 1; each row summed with the x weights, then the rows with y's.
  void cubic(double sx, double sy, double* out) const {
    sx = ref_sanitize(sx);
    sy = ref_sanitize(sy);
    const double fx0 = std::floor(sx), fy0 = std::floor(sy);
    double wx[4], wy[4];
    ref_cubic_weights(sx - fx0, wx);
    ref_cubic_weights(sy - fy0, wy);
    const auto x0 = static_cast<long long>(fx0), y0 = static_cast<long long>(fy0);
    for (int c = 0; c < img->ch; ++c) {
      double sum = 0.0;
      for (int j = 0; j < 4; ++j) {
        double row = 0.0;
        for (int i = 0; i < 4; ++i) row += px(x0 - 1 + i, y0 - 1 + j, c) * wx[i];
        sum += row * wy[j];
      }
      out[c] = sum;
    }
  }

  void sample(Interp ip, double sx, double sy, double* out) const {
    switch (ip) {
      case Interp::nearest:
        return nearest(sx, sy, out);
      case Interp::cubic:
        return cubic(sx, sy, out);
      default:
        return linear(sx, sy, out);
    }
  }
};

// A destination image of doubles (before rounding).
struct RefOut {
  int w = 0, h = 0, ch = 1;
  std::vector<double> v;
  RefOut(int w_, int h_, int c_)
      : w(w_), h(h_), ch(c_), v(static_cast<std::size_t>(w_) * h_ * c_, 0.0) {}
  double* px(int x, int y) {
    return v.data() + (static_cast<std::size_t>(y) * w + x) * static_cast<std::size_t>(ch);
  }
  double at(int x, int y, int c) const {
    return v[(static_cast<std::size_t>(y) * w + x) * static_cast<std::size_t>(ch) +
             static_cast<std::size_t>(c)];
  }
};

// ---- resize ----

// One axis of resize (geometry.hpp's ResizeParams, src/core/ops/resize.cpp).
struct RefAxis {
  int src = 1, dst = 1;
  double factor = 0;  // fx or fy; 0: the size form
  bool align = false;
  bool same_size = false;  // dst has the source's size on both axes: a copy, whatever the factors

  bool factor_form() const { return factor > 0 && !same_size; }
  // cv::resize's inv_scale (dst / src or the factor) and scale = 1 / inv_scale.
  double inv_scale() const { return factor_form() ? factor : static_cast<double>(dst) / src; }
  double scale() const { return 1.0 / inv_scale(); }

  // linear and cubic: the source coordinate of destination index d.
  double coord(int d) const {
    if (align)  // x * (sw - 1) / (dw - 1); dw = 1 samples 0
      return dst > 1 ? static_cast<double>(d) * (src - 1) / (dst - 1) : 0.0;
    if (factor_form()) return (d + 0.5) / factor - 0.5;  // (x + 0.5) / fx - 0.5
    return (d + 0.5) * src / dst - 0.5;                  // (x + 0.5) * sw / dw - 0.5
  }

  // nearest: cv::INTER_NEAREST_EXACT's 16.16 fixed point (the sizes in both forms), or with
  // align_corners floor(x * (sw - 1) / (dw - 1) + 0.5); clamped into [0, sw - 1]. The fixed-point
  // rule is integer arithmetic, so exact as defined, but its rounded step is not the exact ratio:
  // at 16,411 -> 12,007 it takes the neighbour of floor((x + 0.5) * sw / dw) in 341 of the 12,007
  // columns. The documentation defines nearest by the fixed-point rule, so the reference does too.
  // With align_corners the product x * (sw - 1) is exact and the division correctly rounded, so an
  // exact tie (300 -> 65,535: x = 32,767 gives 149.5) stays a tie and goes up.
  long long nearest(int d) const {
    long long i;
    if (align) {
      i = dst > 1 ? static_cast<long long>(
                        std::floor(static_cast<double>(d) * (src - 1) / (dst - 1) + 0.5))
                  : 0;
    } else {
      const long long step = ((static_cast<long long>(src) << 16) + dst / 2) / dst;
      i = (step * d + step / 2 - 1) >> 16;
    }
    return std::clamp(i, 0LL, static_cast<long long>(src) - 1);
  }

  // area, shrinking: the source pixels [d * s, (d + 1) * s) covers, with fractional weights at
  // both ends; a last cell past the edge averages the pixels that exist (area_taps, in double).
  std::vector<std::pair<long long, double>> area_taps(int d) const {
    std::vector<std::pair<long long, double>> taps;
    const double s = scale();
    const int n = src;
    const double f1 = d * s, f2 = f1 + s;
    const double cell = std::min(s, n - f1);
    auto s1 = static_cast<long long>(std::ceil(f1));
    auto s2 = static_cast<long long>(std::floor(f2));
    s2 = std::min<long long>(s2, n - 1);
    s1 = std::min(s1, s2);
    if (s1 - f1 > 1e-3) taps.emplace_back(s1 - 1, (s1 - f1) / cell);
    for (long long i = s1; i < s2; ++i) taps.emplace_back(i, 1.0 / cell);
    if (f2 - s2 > 1e-3) taps.emplace_back(s2, std::min({f2 - s2, 1.0, cell}) / cell);
    return taps;
  }

  // area, enlarging: OpenCV's INTER_AREA fraction, i = floor(x * s), f = (float)((x + 1) -
  // (i + 1) * r), f <= 0 -> 0, else f - floor(f) (docs/conventions.md; the float conversion is
  // part of the documented formula, it decides where the fraction wraps to 0).
  void area_upscale(int d, long long& i0, double& frac) const {
    const auto s = static_cast<long long>(std::floor(d * scale()));
    float f = static_cast<float>((d + 1) - (s + 1) * inv_scale());
    f = f <= 0.0f ? 0.0f : f - std::floor(f);
    i0 = s;
    frac = f;
  }
};

inline RefOut ref_resize(const RefImage& src, int dw, int dh, const ResizeParams& p) {
  const bool same = dw == src.w && dh == src.h;
  const RefAxis ax{src.w, dw, p.fx, p.align_corners, same};
  const RefAxis ay{src.h, dh, p.fy, p.align_corners, same};
  const RefSampler s(src, p.border, p.border_value);
  RefOut out(dw, dh, src.ch);
  switch (p.interp) {
    case Interp::nearest:
      for (int y = 0; y < dh; ++y)
        for (int x = 0; x < dw; ++x)
          for (int c = 0; c < src.ch; ++c)
            out.px(x, y)[c] = src.at(ax.nearest(x), ay.nearest(y), c);
      break;
    case Interp::area:
      if (ax.scale() >= 1.0 && ay.scale() >= 1.0) {
        std::vector<std::vector<std::pair<long long, double>>> xt(static_cast<std::size_t>(dw));
        for (int x = 0; x < dw; ++x) xt[x] = ax.area_taps(x);
        for (int y = 0; y < dh; ++y) {
          const auto yt = ay.area_taps(y);
          for (int x = 0; x < dw; ++x)
            for (int c = 0; c < src.ch; ++c) {
              double sum = 0.0;
              for (const auto& [j, wy] : yt) {
                double row = 0.0;
                for (const auto& [i, wx] : xt[x]) row += src.at(i, j, c) * wx;
                sum += row * wy;
              }
              out.px(x, y)[c] = sum;
            }
        }
      } else {
        // Bilinear with the INTER_AREA fractions on both axes, borders as sampling does.
        for (int y = 0; y < dh; ++y) {
          long long y0;
          double fy;
          ay.area_upscale(y, y0, fy);
          for (int x = 0; x < dw; ++x) {
            long long x0;
            double fx;
            ax.area_upscale(x, x0, fx);
            for (int c = 0; c < src.ch; ++c) {
              const double r0 = s.px(x0, y0, c) * (1.0 - fx) + s.px(x0 + 1, y0, c) * fx;
              const double r1 = s.px(x0, y0 + 1, c) * (1.0 - fx) + s.px(x0 + 1, y0 + 1, c) * fx;
              out.px(x, y)[c] = r0 * (1.0 - fy) + r1 * fy;
            }
          }
        }
      }
      break;
    default: {
      std::vector<double> xs(static_cast<std::size_t>(dw));
      for (int x = 0; x < dw; ++x) xs[x] = ax.coord(x);
      for (int y = 0; y < dh; ++y) {
        const double sy = ay.coord(y);
        for (int x = 0; x < dw; ++x) s.sample(p.interp, xs[x], sy, out.px(x, y));
      }
    }
  }
  return out;
}

// ---- warps, rotate, remap ----

// The inverse of the affine map [a b c; d e f], in double.
inline std::array<double, 6> ref_invert_affine(const std::array<double, 6>& m) {
  const double det = m[0] * m[4] - m[1] * m[3];
  const double a = m[4] / det, b = -m[1] / det, d = -m[3] / det, e = m[0] / det;
  return {a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5])};
}

// The inverse of a 3x3 matrix (adjugate / determinant), in double.
inline std::array<double, 9> ref_invert_3x3(const std::array<double, 9>& m) {
  const double c00 = m[4] * m[8] - m[5] * m[7];
  const double c01 = m[5] * m[6] - m[3] * m[8];
  const double c02 = m[3] * m[7] - m[4] * m[6];
  const double det = m[0] * c00 + m[1] * c01 + m[2] * c02;
  return {c00 / det, (m[2] * m[7] - m[1] * m[8]) / det, (m[1] * m[5] - m[2] * m[4]) / det,
          c01 / det, (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
          c02 / det, (m[1] * m[6] - m[0] * m[7]) / det, (m[0] * m[4] - m[1] * m[3]) / det};
}

// warp_affine: (sx, sy) = M^-1 (x, y, 1), or M (x, y, 1) with inverse_map.
inline RefOut ref_warp_affine(const RefImage& src, int dw, int dh, const std::array<double, 6>& m,
                              bool inverse_map, const Sampling& sm) {
  const std::array<double, 6> a = inverse_map ? m : ref_invert_affine(m);
  const RefSampler s(src, sm.border, sm.border_value);
  RefOut out(dw, dh, src.ch);
  for (int y = 0; y < dh; ++y)
    for (int x = 0; x < dw; ++x)
      s.sample(sm.interp, a[0] * x + a[1] * y + a[2], a[3] * x + a[4] * y + a[5], out.px(x, y));
  return out;
}

// warp_perspective: (u, v, w) = M^-1 (x, y, 1), (sx, sy) = (u / w, v / w); w = 0 is far outside.
inline RefOut ref_warp_perspective(const RefImage& src, int dw, int dh,
                                   const std::array<double, 9>& m, bool inverse_map,
                                   const Sampling& sm) {
  const std::array<double, 9> a = inverse_map ? m : ref_invert_3x3(m);
  const RefSampler s(src, sm.border, sm.border_value);
  RefOut out(dw, dh, src.ch);
  for (int y = 0; y < dh; ++y)
    for (int x = 0; x < dw; ++x) {
      const double w = a[6] * x + a[7] * y + a[8];
      const double sx = w != 0.0 ? (a[0] * x + a[1] * y + a[2]) / w : 1.0e9;
      const double sy = w != 0.0 ? (a[3] * x + a[4] * y + a[5]) / w : 1.0e9;
      s.sample(sm.interp, sx, sy, out.px(x, y));
    }
  return out;
}

// rotate: warp_affine (inverse_map false) with M = [c s tx; -s c ty], c = cos, s = sin of the
// angle in degrees, the source centre ((w-1)/2, (h-1)/2) mapped to the destination centre.
inline std::array<double, 6> ref_rotation_matrix(int sw, int sh, int dw, int dh, double deg) {
  const double r = deg * (3.14159265358979323846 / 180.0);
  const double c = std::cos(r), s = std::sin(r);
  const double cx = (sw - 1) * 0.5, cy = (sh - 1) * 0.5;
  const double dcx = (dw - 1) * 0.5, dcy = (dh - 1) * 0.5;
  return {c, s, dcx - c * cx - s * cy, -s, c, dcy + s * cx - c * cy};
}

// remap: (sx, sy) = (map_x(x, y), map_y(x, y)), the f32 map values read as given.
inline RefOut ref_remap(const RefImage& src, const ImageView& mx, const ImageView& my,
                        const Sampling& sm) {
  const RefSampler s(src, sm.border, sm.border_value);
  RefOut out(mx.width, mx.height, src.ch);
  for (int y = 0; y < mx.height; ++y)
    for (int x = 0; x < mx.width; ++x)
      s.sample(sm.interp, mx.row<const float>(y)[x], my.row<const float>(y)[x], out.px(x, y));
  return out;
}

// ================================ comparison ================================

// The bound: 1 level for u8/u16 (texcv's float32 weights and sums may round the last
// .5 the other way; a float32 coordinate error shows as many levels on full-range data), 1e-5
// absolute for f32 (data in [0, 1]: float32 arithmetic on exact coordinates stays ~1e-7).
inline double tolerance(ElemType t) {
  return t == ElemType::f32 ? 1e-5 : 1.0;
}

inline bool verbose() {
  const char* v = std::getenv("TEXCV_EXACT_VERBOSE");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

inline std::string size_str(int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

// Compares texcv's result with the reference (rounded and saturated for u8/u16) and records a
// failure naming the combination, the worst element and how many elements are over the bound.
inline void expect_exact(const std::string& what, const ImageView& got, const RefOut& want) {
  ASSERT_EQ(got.width, want.w);
  ASSERT_EQ(got.height, want.h);
  ASSERT_EQ(got.channels, want.ch);
  const double tol = tolerance(got.type);
  double worst = 0.0, worst_got = 0.0, worst_want = 0.0;
  int wx = 0, wy = 0, wc = 0;
  long over = 0;
  for (int y = 0; y < got.height; ++y)
    for (int x = 0; x < got.width; ++x)
      for (int c = 0; c < got.channels; ++c) {
        const double g = test::at(got, x, y, c);
        const double r = ref_store(want.at(x, y, c), got.type);
        const double e = std::isnan(g) ? std::numeric_limits<double>::infinity() : std::fabs(g - r);
        if (e > tol) ++over;
        if (e > worst) {
          worst = e;
          worst_got = g;
          worst_want = r;
          wx = x;
          wy = y;
          wc = c;
        }
      }
  const long total = static_cast<long>(got.width) * got.height * got.channels;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "max |err| %.6g (bound %g) at (%d, %d, c%d): texcv %.9g, reference %.9g; %ld of "
                "%ld elements over the bound",
                worst, tol, wx, wy, wc, worst_got, worst_want, over, total);
  if (verbose())
    std::printf("[ exact    ] %s %s: %s\n", worst <= tol ? "ok  " : "FAIL", what.c_str(), buf);
  EXPECT_LE(worst, tol) << what << ": " << buf;
}

// Runs texcv's operation; an exception is a failure of this combination (recorded with its
// name), and the loop goes on to the next one.
template <class F>
bool runs(const std::string& what, F&& f) {
  try {
    f();
    return true;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": threw " << e.what();
    return false;
  }
}

// ================================ shared data and cases ================================

inline constexpr ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
inline constexpr Border kBorders[] = {Border::constant, Border::replicate, Border::reflect,
                                      Border::reflect101, Border::wrap};

// Per-channel constant border values, different per channel; for u8 17.5 converts to 18 and 90.5
// to 90 (half to even), as documented.
inline std::array<double, 4> border_values(ElemType t) {
  switch (t) {
    case ElemType::u8:
      return {200, 17.5, 90.5, 0};
    case ElemType::u16:
      return {40000, 1234, 65535, 0};
    case ElemType::f32:
      break;
  }
  return {0.25, 0.75, 0.5, 0};
}

// A fixed seed per image shape and type, so that every run sees the same data.
inline std::uint32_t seed_of(int w, int h, int c, ElemType t) {
  return static_cast<std::uint32_t>(w) * 2654435761u ^ static_cast<std::uint32_t>(h) * 40503u ^
         static_cast<std::uint32_t>(c) * 97u ^ static_cast<std::uint32_t>(t) * 7u ^ 16u;
}

inline Image source(int w, int h, int c, ElemType t) {
  return test::random_image(w, h, c, t, seed_of(w, h, c, t));
}

struct Pair {
  int sw, sh, dw, dh;
};

// Thin images (1 to 4 rows) at 257, 4,099, 16,411 and 65,535 px: shrinking (16,411 -> 12,007 is
// the case measured in the issue), enlarging, a large factor each way, and tall thin images (few
// columns, up to 65,535 rows) so that the y coordinates are large too.
inline constexpr Pair kResizePairs[] = {
    {257, 3, 181, 2},     {4099, 2, 3001, 3},   {16411, 2, 12007, 2},
    {65535, 2, 47999, 3}, {4099, 2, 16411, 2},  {65535, 1, 511, 1},
    {300, 2, 65535, 2},   {2, 65535, 3, 47999}, {3, 16411, 2, 65535},
};

inline std::string resize_label(const char* form, const Pair& s, const ResizeParams& p, ElemType t,
                                int channels) {
  std::string l = std::string("resize ") + form + " " + to_string(p.interp) +
                  (p.align_corners ? " align_corners" : "") + " " + to_string(t) + "x" +
                  std::to_string(channels) + " border " + to_string(p.border) + " " +
                  size_str(s.sw, s.sh) + " -> " + size_str(s.dw, s.dh);
  if (p.fx > 0 || p.fy > 0) {
    char f[96];
    std::snprintf(f, sizeof f, " fx %.9g fy %.9g", p.fx, p.fy);
    l += f;
  }
  return l;
}

// The same lists as vectors, for the helpers that take a subset.
inline const std::vector<ElemType> kAllTypes(std::begin(kTypes), std::end(kTypes));
inline const std::vector<Border> kAllBorders(std::begin(kBorders), std::end(kBorders));

// Warps: widths of the thin (kRows-row) images.
inline constexpr int kWidths[] = {257, 4099, 16411, 65535};
inline constexpr int kRows = 3;

// A destination-to-source map for a W-wide, 3-row image: sx = 1.37 x + 0.013 y - 0.3 W + 0.123
// covers [-0.3 W, 1.07 W] (far outside on the left, up to ~70,000 for W = 65,535), sy drifts by
// 1.5 rows across the width (rows outside the image at both ends too).
inline std::array<double, 6> affine_inverse_map(int w) {
  return {1.37, 0.013, -0.3 * w + 0.123, 1.5 / w, 0.91, -0.27};
}
// A source-to-destination map (inverted by warp_affine): x' = 0.73 x - 0.0104 y + 0.25 W + 0.4567,
// so sx spans about [-0.34 W, 1.03 W].
inline std::array<double, 6> affine_forward_map(int w) {
  return {0.73, -0.0104, 0.25 * w + 0.4567, -1.1 / w, 1.099, 0.31};
}

}  // namespace texcv::test::ref
