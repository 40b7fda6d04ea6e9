// Issue 16, "Exact at every size": the CPU backend's resize, warp_affine, warp_perspective, rotate
// and remap against a float64 reference of the documented formulas (include/texcv/geometry.hpp,
// src/core/sampling.hpp, src/core/geometry.cpp, docs/conventions.md), on images up to 65,535
// pixels wide (or tall) and sampling at coordinates up to ~70,000.
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
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

namespace texcv {
namespace {

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

RefImage to_ref(const ImageView& img) {
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
double ref_store(double v, ElemType t) {
  if (t == ElemType::f32) return v;
  const double hi = t == ElemType::u8 ? 255.0 : 65535.0;
  if (!(v > 0.0)) return 0.0;  // also NaN
  if (v >= hi) return hi;
  return std::nearbyint(v);
}

// docs/conventions.md: constant border values are first converted to the element type (rounded
// half to even and saturated for u8/u16; f32 takes the float nearest the value).
double ref_border_value(double v, ElemType t) {
  if (t == ElemType::f32) return static_cast<double>(static_cast<float>(v));
  return ref_store(v, t);
}

// The index border mode b gives to index i of a row of n pixels, -1 for constant. Patterns for
// abcdefgh (docs/conventions.md): replicate aaaa|abcdefgh|hhhh, reflect dcba|abcdefgh|hgfe,
// reflect101 edcb|abcdefgh|gfed, wrap efgh|abcdefgh|abcd; reflect and wrap are periodic.
long long ref_border_index(long long i, long long n, Border b) {
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
double keys(double s) {
  constexpr double a = -0.75;
  s = std::fabs(s);
  if (s <= 1.0) return ((a + 2.0) * s - (a + 3.0)) * s * s + 1.0;
  if (s < 2.0) return ((a * s - 5.0 * a) * s + 8.0 * a) * s - 4.0 * a;
  return 0.0;
}

// Weights of pixels floor - 1 .. floor + 2 for fraction t; w3 = 1 - w0 - w1 - w2 as documented.
void ref_cubic_weights(double t, double w[4]) {
  w[0] = keys(t + 1.0);
  w[1] = keys(t);
  w[2] = keys(1.0 - t);
  w[3] = 1.0 - w[0] - w[1] - w[2];
}

// Coordinates beyond +-1e9 (and NaN) are far outside (sanitize_coord).
double ref_sanitize(double v) {
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

// One axis of resize (geometry.hpp's ResizeParams, src/core/geometry.cpp's resize).
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

RefOut ref_resize(const RefImage& src, int dw, int dh, const ResizeParams& p) {
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
std::array<double, 6> ref_invert_affine(const std::array<double, 6>& m) {
  const double det = m[0] * m[4] - m[1] * m[3];
  const double a = m[4] / det, b = -m[1] / det, d = -m[3] / det, e = m[0] / det;
  return {a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5])};
}

// The inverse of a 3x3 matrix (adjugate / determinant), in double.
std::array<double, 9> ref_invert_3x3(const std::array<double, 9>& m) {
  const double c00 = m[4] * m[8] - m[5] * m[7];
  const double c01 = m[5] * m[6] - m[3] * m[8];
  const double c02 = m[3] * m[7] - m[4] * m[6];
  const double det = m[0] * c00 + m[1] * c01 + m[2] * c02;
  return {c00 / det, (m[2] * m[7] - m[1] * m[8]) / det, (m[1] * m[5] - m[2] * m[4]) / det,
          c01 / det, (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
          c02 / det, (m[1] * m[6] - m[0] * m[7]) / det, (m[0] * m[4] - m[1] * m[3]) / det};
}

// warp_affine: (sx, sy) = M^-1 (x, y, 1), or M (x, y, 1) with inverse_map.
RefOut ref_warp_affine(const RefImage& src, int dw, int dh, const std::array<double, 6>& m,
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
RefOut ref_warp_perspective(const RefImage& src, int dw, int dh, const std::array<double, 9>& m,
                            bool inverse_map, const Sampling& sm) {
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
std::array<double, 6> ref_rotation_matrix(int sw, int sh, int dw, int dh, double deg) {
  const double r = deg * (3.14159265358979323846 / 180.0);
  const double c = std::cos(r), s = std::sin(r);
  const double cx = (sw - 1) * 0.5, cy = (sh - 1) * 0.5;
  const double dcx = (dw - 1) * 0.5, dcy = (dh - 1) * 0.5;
  return {c, s, dcx - c * cx - s * cy, -s, c, dcy + s * cx - c * cy};
}

// remap: (sx, sy) = (map_x(x, y), map_y(x, y)), the f32 map values read as given.
RefOut ref_remap(const RefImage& src, const ImageView& mx, const ImageView& my,
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
double tolerance(ElemType t) {
  return t == ElemType::f32 ? 1e-5 : 1.0;
}

bool verbose() {
  const char* v = std::getenv("TEXCV_EXACT_VERBOSE");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

std::string size_str(int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

// Compares texcv's result with the reference (rounded and saturated for u8/u16) and records a
// failure naming the combination, the worst element and how many elements are over the bound.
void expect_exact(const std::string& what, const ImageView& got, const RefOut& want) {
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

// ================================ cases ================================

constexpr ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
constexpr Border kBorders[] = {Border::constant, Border::replicate, Border::reflect,
                               Border::reflect101, Border::wrap};

// Per-channel constant border values, different per channel; for u8 17.5 converts to 18 and 90.5
// to 90 (half to even), as documented.
std::array<double, 4> border_values(ElemType t) {
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
std::uint32_t seed_of(int w, int h, int c, ElemType t) {
  return static_cast<std::uint32_t>(w) * 2654435761u ^ static_cast<std::uint32_t>(h) * 40503u ^
         static_cast<std::uint32_t>(c) * 97u ^ static_cast<std::uint32_t>(t) * 7u ^ 16u;
}

Image source(int w, int h, int c, ElemType t) {
  return test::random_image(w, h, c, t, seed_of(w, h, c, t));
}

struct Pair {
  int sw, sh, dw, dh;
};

// Thin images (1 to 4 rows) at 257, 4,099, 16,411 and 65,535 px: shrinking (16,411 -> 12,007 is
// the case measured in the issue), enlarging, a large factor each way, and tall thin images (few
// columns, up to 65,535 rows) so that the y coordinates are large too.
constexpr Pair kResizePairs[] = {
    {257, 3, 181, 2},     {4099, 2, 3001, 3},   {16411, 2, 12007, 2},
    {65535, 2, 47999, 3}, {4099, 2, 16411, 2},  {65535, 1, 511, 1},
    {300, 2, 65535, 2},   {2, 65535, 3, 47999}, {3, 16411, 2, 65535},
};

std::string resize_label(const char* form, const Pair& s, const ResizeParams& p, ElemType t,
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

// Runs texcv's resize and the reference on every type (and the given borders) for each pair.
void check_resize(const char* form, const Pair& s, ResizeParams p, int channels,
                  const std::vector<ElemType>& types, const std::vector<Border>& borders) {
  for (ElemType t : types) {
    const Image src = source(s.sw, s.sh, channels, t);
    const RefImage rs = to_ref(src);
    for (Border b : borders) {
      p.border = b;
      p.border_value = border_values(t);
      const std::string what = resize_label(form, s, p, t, channels);
      SCOPED_TRACE(what);
      Image dst(s.dw, s.dh, channels, t);
      test::poison(dst);
      if (!runs(what, [&] { resize(src, dst, p); })) continue;
      expect_exact(what, dst, ref_resize(rs, s.dw, s.dh, p));
    }
  }
}

const std::vector<ElemType> kAllTypes(std::begin(kTypes), std::end(kTypes));
const std::vector<Border> kAllBorders(std::begin(kBorders), std::end(kBorders));

// ---- the reference against hand-computed values ----

TEST(ExactReference, SelfCheckHandComputed) {
  // A 4-pixel row 10, 20, 40, 80 (f32).
  RefImage row;
  row.w = 4;
  row.h = 1;
  row.type = ElemType::f32;
  row.v = {10, 20, 40, 80};

  // Linear resize 4 -> 3: sx = (x + 0.5) * 4 / 3 - 0.5 = 1/6, 3/2, 17/6.
  ResizeParams lin;
  RefOut r = ref_resize(row, 3, 1, lin);
  EXPECT_NEAR(r.at(0, 0, 0), 10 * 5.0 / 6 + 20 * 1.0 / 6, 1e-12);
  EXPECT_NEAR(r.at(1, 0, 0), 30.0, 1e-12);
  EXPECT_NEAR(r.at(2, 0, 0), 40 * 1.0 / 6 + 80 * 5.0 / 6, 1e-12);
  // Enlarging 4 -> 8 with replicate: sx(0) = -0.25 is pixel 0; sx(7) = 3.75 is pixel 3.
  r = ref_resize(row, 8, 1, lin);
  EXPECT_EQ(r.at(0, 0, 0), 10.0);
  EXPECT_NEAR(r.at(1, 0, 0), 10 * 0.75 + 20 * 0.25, 1e-12);  // sx = 0.25
  EXPECT_EQ(r.at(7, 0, 0), 80.0);
  // ... with a constant border of 0: sx = -0.25 mixes 1/4 of the border.
  lin.border = Border::constant;
  r = ref_resize(row, 8, 1, lin);
  EXPECT_NEAR(r.at(0, 0, 0), 7.5, 1e-12);
  EXPECT_NEAR(r.at(7, 0, 0), 60.0, 1e-12);

  // Area 4 -> 3, cells of 4/3: (10 * 3/4 + 20 * 1/4), (20 + 40) / 2, (40 * 1/4 + 80 * 3/4).
  ResizeParams area;
  area.interp = Interp::area;
  r = ref_resize(row, 3, 1, area);
  EXPECT_NEAR(r.at(0, 0, 0), 12.5, 1e-12);
  EXPECT_NEAR(r.at(1, 0, 0), 30.0, 1e-12);
  EXPECT_NEAR(r.at(2, 0, 0), 70.0, 1e-12);
  // Area enlarging 2 -> 3: fractions 0, 0.5, 0 on pixels 0, 0, 1.
  RefImage two;
  two.w = 2;
  two.h = 1;
  two.type = ElemType::f32;
  two.v = {10, 30};
  r = ref_resize(two, 3, 1, area);
  EXPECT_EQ(r.at(0, 0, 0), 10.0);
  EXPECT_EQ(r.at(1, 0, 0), 20.0);
  EXPECT_EQ(r.at(2, 0, 0), 30.0);

  // Nearest in 16.16 fixed point: 2:1 ties take the lower pixel (0, 2 of 4); 5 -> 3 picks 0, 2, 4.
  ResizeParams nn;
  nn.interp = Interp::nearest;
  r = ref_resize(row, 2, 1, nn);
  EXPECT_EQ(r.at(0, 0, 0), 10.0);
  EXPECT_EQ(r.at(1, 0, 0), 40.0);
  RefImage five;
  five.w = 5;
  five.h = 1;
  five.type = ElemType::f32;
  five.v = {1, 2, 3, 4, 5};
  r = ref_resize(five, 3, 1, nn);
  EXPECT_EQ(r.at(0, 0, 0), 1.0);
  EXPECT_EQ(r.at(1, 0, 0), 3.0);
  EXPECT_EQ(r.at(2, 0, 0), 5.0);
  // align_corners nearest 3 -> 5: x / 2 = 0, 0.5, 1, 1.5, 2; ties go up: 0, 1, 1, 2, 2.
  const RefAxis ac{3, 5, 0, true, false};
  const long long ac_want[5] = {0, 1, 1, 2, 2};
  for (int x = 0; x < 5; ++x) EXPECT_EQ(ac.nearest(x), ac_want[x]) << x;
  // ... and the tie of 300 -> 65,535 at x = 32,767 (32,767 * 299 / 65,534 = 149.5).
  EXPECT_EQ((RefAxis{300, 65535, 0, true, false}.nearest(32767)), 150);
  // align_corners linear 4 -> 7: sx = x / 2.
  ResizeParams al;
  al.align_corners = true;
  r = ref_resize(row, 7, 1, al);
  const double al_want[7] = {10, 15, 20, 30, 40, 60, 80};
  for (int x = 0; x < 7; ++x) EXPECT_NEAR(r.at(x, 0, 0), al_want[x], 1e-12) << x;
  // Factor form fx = 0.75 on 4 px (3 px): sx = (x + 0.5) / 0.75 - 0.5, as the size form here.
  ResizeParams fac;
  fac.fx = 0.75;
  r = ref_resize(row, 3, 1, fac);
  EXPECT_NEAR(r.at(0, 0, 0), 10 * 5.0 / 6 + 20 * 1.0 / 6, 1e-12);
  EXPECT_NEAR(r.at(2, 0, 0), 40 * 1.0 / 6 + 80 * 5.0 / 6, 1e-12);

  // Cubic weights (a = -0.75): t = 0 is the pixel; t = 0.5 gives -0.09375, 0.59375 (x2), -0.09375.
  double w[4];
  ref_cubic_weights(0.0, w);
  EXPECT_EQ(w[0], 0.0);
  EXPECT_EQ(w[1], 1.0);
  EXPECT_EQ(w[2], 0.0);
  EXPECT_EQ(w[3], 0.0);
  ref_cubic_weights(0.5, w);
  EXPECT_DOUBLE_EQ(w[0], -0.09375);
  EXPECT_DOUBLE_EQ(w[1], 0.59375);
  EXPECT_DOUBLE_EQ(w[2], 0.59375);
  EXPECT_DOUBLE_EQ(w[3], -0.09375);
  ref_cubic_weights(0.25, w);  // as tests/cpp/cpu/test_geometry_cpu.cpp
  EXPECT_DOUBLE_EQ(w[0], -0.10546875);
  EXPECT_DOUBLE_EQ(w[1], 0.87890625);
  EXPECT_DOUBLE_EQ(w[2], 0.26171875);
  EXPECT_DOUBLE_EQ(w[3], -0.03515625);

  // Shift warps of "abcdefgh" (97..104) by 4 with nearest and each border: the pattern table of
  // docs/conventions.md, with the constant border 'i'.
  RefImage abc;
  abc.w = 8;
  abc.h = 1;
  abc.type = ElemType::u8;
  for (int i = 0; i < 8; ++i) abc.v.push_back('a' + i);
  const std::pair<Border, const char*> patterns[] = {
      {Border::constant, "iiiiabcdefghiiii"}, {Border::replicate, "aaaaabcdefghhhhh"},
      {Border::reflect, "dcbaabcdefghhgfe"},  {Border::reflect101, "edcbabcdefghgfed"},
      {Border::wrap, "efghabcdefghabcd"},
  };
  for (const auto& [b, want] : patterns) {
    Sampling sm;
    sm.interp = Interp::nearest;
    sm.border = b;
    sm.border_value = {'i', 0, 0, 0};
    // inverse_map: sx = x - 4 (+ 0.3, which nearest rounds away); the same shift given forward.
    for (bool inv : {true, false}) {
      const RefOut o = inv ? ref_warp_affine(abc, 16, 1, {1, 0, -3.7, 0, 1, 0}, true, sm)
                           : ref_warp_affine(abc, 16, 1, {1, 0, 3.7, 0, 1, 0}, false, sm);
      std::string got;
      for (int x = 0; x < 16; ++x) got.push_back(static_cast<char>(o.at(x, 0, 0)));
      EXPECT_EQ(got, want) << to_string(b) << (inv ? " inverse_map" : " forward");
    }
  }
  // Far outside, periodic (as CpuBorders.FarOutsideRepeatsPeriodically).
  EXPECT_EQ(ref_border_index(-9, 8, Border::reflect), 7);     // hgfedcba|abcdefgh: -9 -> h
  EXPECT_EQ(ref_border_index(-8, 8, Border::reflect101), 6);  // ghgfedcb|abcdefgh: -8 -> g
  EXPECT_EQ(ref_border_index(17, 8, Border::wrap), 1);
  EXPECT_EQ(ref_border_index(-3, 1, Border::reflect101), 0);

  // Linear shift warps, sx = x - 0.5 on the 4-pixel row: x = 0 is half border, half pixel 0.
  const std::pair<Border, double> edge[] = {{Border::constant, 0.5 * 7 + 0.5 * 10},
                                            {Border::replicate, 10},
                                            {Border::reflect, 10},
                                            {Border::reflect101, 0.5 * 20 + 0.5 * 10},
                                            {Border::wrap, 0.5 * 80 + 0.5 * 10}};
  for (const auto& [b, want] : edge) {
    Sampling sm;
    sm.border = b;
    sm.border_value = {7, 0, 0, 0};
    const RefOut o = ref_warp_affine(row, 5, 1, {1, 0, -0.5, 0, 1, 0}, true, sm);
    EXPECT_NEAR(o.at(0, 0, 0), want, 1e-12) << to_string(b);
    EXPECT_NEAR(o.at(1, 0, 0), 15.0, 1e-12) << to_string(b);
  }
  // Nearest ties go up: sx = 1.5 takes pixel 2.
  {
    Sampling sm;
    sm.interp = Interp::nearest;
    const RefOut o = ref_warp_affine(row, 1, 1, {1, 0, 1.5, 0, 1, 0}, true, sm);
    EXPECT_EQ(o.at(0, 0, 0), 40.0);
  }
  // Inverting a forward map: x' = 2 x + 1 -> x = 0.5 x' - 0.5.
  const std::array<double, 6> inv = ref_invert_affine({2, 0, 1, 0, 2, 0});
  EXPECT_EQ(inv[0], 0.5);
  EXPECT_EQ(inv[2], -0.5);
  EXPECT_EQ(inv[4], 0.5);
  const std::array<double, 9> inv3 = ref_invert_3x3({2, 0, 1, 0, 2, 0, 0, 0, 1});
  EXPECT_EQ(inv3[0], 0.5);
  EXPECT_EQ(inv3[2], -0.5);
  EXPECT_EQ(inv3[8], 1.0);
  // Perspective: w = 2 halves the coordinate.
  {
    Sampling sm;
    const RefOut o = ref_warp_perspective(row, 2, 1, {2, 0, 0, 0, 2, 0, 0, 0, 2}, true, sm);
    EXPECT_NEAR(o.at(1, 0, 0), 20.0, 1e-12);
  }
  // Rotation matrix as cv::getRotationMatrix2D plus the centre translation: 30 degrees of 5x3.
  const std::array<double, 6> rm = ref_rotation_matrix(5, 3, 5, 3, 30.0);
  const std::array<double, 6> tm = rotation_matrix(5, 3, 5, 3, 30.0);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(rm[i], tm[i], 1e-12) << i;
  EXPECT_NEAR(rm[0] * 2 + rm[1] * 1 + rm[2], 2.0, 1e-12);  // the centre (2, 1) stays

  // Rounding half to even and saturation.
  EXPECT_EQ(ref_store(2.5, ElemType::u8), 2.0);
  EXPECT_EQ(ref_store(3.5, ElemType::u8), 4.0);
  EXPECT_EQ(ref_store(-3.0, ElemType::u8), 0.0);
  EXPECT_EQ(ref_store(300.0, ElemType::u8), 255.0);
  EXPECT_EQ(ref_store(70000.0, ElemType::u16), 65535.0);
  EXPECT_EQ(ref_store(std::nan(""), ElemType::u16), 0.0);
  EXPECT_EQ(ref_border_value(17.5, ElemType::u8), 18.0);
  EXPECT_EQ(ref_border_value(90.5, ElemType::u8), 90.0);

  // And texcv agrees with the reference on these tiny cases (f32 data in [0, 1] for the 1e-5
  // bound: the row / 100).
  RefImage small = row;
  for (double& v : small.v) v /= 100.0;
  Image src4(4, 1, 1, ElemType::f32);
  for (int i = 0; i < 4; ++i) src4.view().row<float>(0)[i] = static_cast<float>(small.v[i]);
  small = to_ref(src4);  // the float values, read back exactly
  for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
    ResizeParams p;
    p.interp = ip;
    Image d3(3, 1, 1, ElemType::f32);
    resize(src4, d3, p);
    expect_exact(std::string("tiny resize 4 -> 3 ") + to_string(ip), d3,
                 ref_resize(small, 3, 1, p));
  }
  for (const auto& [b, want] : edge) {
    Sampling sm;
    sm.border = b;
    sm.border_value = {0.07, 0, 0, 0};
    Image d5(5, 1, 1, ElemType::f32);
    warp_affine(src4, d5, {1, 0, -0.5, 0, 1, 0}, true, sm);
    expect_exact(std::string("tiny shift warp linear ") + to_string(b), d5,
                 ref_warp_affine(small, 5, 1, {1, 0, -0.5, 0, 1, 0}, true, sm));
  }
}

// ---- resize ----

TEST(ExactResize, Nearest) {
  // Border cannot matter (nearest clamps into the image): replicate, the default, only.
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::nearest;
    check_resize("size", s, p, 1, kAllTypes, {Border::replicate});
  }
}

TEST(ExactResize, Linear) {
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::linear;
    check_resize("size", s, p, 1, kAllTypes, kAllBorders);
  }
}

TEST(ExactResize, Cubic) {
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::cubic;
    check_resize("size", s, p, 1, kAllTypes, kAllBorders);
  }
}

TEST(ExactResize, Area) {
  // Shrinking never reads outside the image; enlarging (or mixed) reads one pixel past the edge.
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::area;
    check_resize("size", s, p, 1, kAllTypes, kAllBorders);
  }
}

// The factor form: sx = (x + 0.5) / fx - 0.5 (area: cells of 1 / fx), dst of resized_size's size.
TEST(ExactResize, FactorForm) {
  struct F {
    int sw, sh;
    double fx, fy;
  };
  const F cases[] = {
      {16411, 2, 0.7317, 1.5},        // 12008 x 3: x shrinks, y enlarges
      {16411, 4, 0.7317, 0.5},        // 12008 x 2: both shrink (area's shrink path)
      {65535, 3, 0.732429, 0},        // 47999 x 3: fy = 0, y by the size ratio
      {65535, 2, 1.0 / 128.25, 0.5},  // 511 x 1: a large factor down
      {300, 2, 218.45, 1.0},          // 65535 x 2: a large factor up
      {4099, 2, 4.0037, 1.5},         // 16411 x 3: enlarging
      {3, 16411, 0.5, 0.7317},        // 2 x 12008: tall thin
  };
  for (const F& f : cases) {
    const Rect r = resized_size(f.sw, f.sh, f.fx, f.fy > 0 ? f.fy : 1.0);
    const Pair s{f.sw, f.sh, r.width, f.fy > 0 ? r.height : f.sh};  // fy = 0: any height
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
      ResizeParams p;
      p.interp = ip;
      p.fx = f.fx;
      p.fy = f.fy;
      check_resize("factor", s, p, 1, kAllTypes,
                   ip == Interp::nearest
                       ? std::vector<Border>{Border::replicate}
                       : std::vector<Border>{Border::replicate, Border::constant, Border::reflect});
    }
  }
}

// align_corners: sx = x * (sw - 1) / (dw - 1) (nearest: floor of that + 0.5).
TEST(ExactResize, AlignCorners) {
  const Pair pairs[] = {{257, 3, 181, 2},     {16411, 2, 12007, 3}, {4099, 2, 16411, 2},
                        {65535, 3, 47999, 2}, {300, 2, 65535, 2},   {2, 65535, 3, 47999}};
  for (const Pair& s : pairs)
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic}) {
      ResizeParams p;
      p.interp = ip;
      p.align_corners = true;
      check_resize("size", s, p, 1, kAllTypes,
                   ip == Interp::cubic ? kAllBorders : std::vector<Border>{Border::replicate});
    }
}

TEST(ExactResize, ThreeChannels) {
  for (Interp ip : {Interp::linear, Interp::cubic, Interp::area}) {
    ResizeParams p;
    p.interp = ip;
    check_resize("size", {16411, 2, 12007, 2}, p, 3, kAllTypes, {Border::replicate});
    check_resize("size", {4099, 2, 16411, 3}, p, 3, kAllTypes, {Border::constant});
  }
}

// ---- warps ----

constexpr int kWidths[] = {257, 4099, 16411, 65535};
constexpr int kRows = 3;

// A destination-to-source map for a W-wide, 3-row image: sx = 1.37 x + 0.013 y - 0.3 W + 0.123
// covers [-0.3 W, 1.07 W] (far outside on the left, up to ~70,000 for W = 65,535), sy drifts by
// 1.5 rows across the width (rows outside the image at both ends too).
std::array<double, 6> affine_inverse_map(int w) {
  return {1.37, 0.013, -0.3 * w + 0.123, 1.5 / w, 0.91, -0.27};
}
// A source-to-destination map (inverted by warp_affine): x' = 0.73 x - 0.0104 y + 0.25 W + 0.4567,
// so sx spans about [-0.34 W, 1.03 W].
std::array<double, 6> affine_forward_map(int w) {
  return {0.73, -0.0104, 0.25 * w + 0.4567, -1.1 / w, 1.099, 0.31};
}

void check_warp_affine(const std::string& name, int sw, int sh, int dw, int dh,
                       const std::array<double, 6>& m, bool inverse_map, Interp ip, int channels,
                       const std::vector<ElemType>& types, const std::vector<Border>& borders) {
  for (ElemType t : types) {
    const Image src = source(sw, sh, channels, t);
    const RefImage rs = to_ref(src);
    for (Border b : borders) {
      Sampling sm;
      sm.interp = ip;
      sm.border = b;
      sm.border_value = border_values(t);
      const std::string what = name + " " + to_string(ip) + " " + to_string(t) + "x" +
                               std::to_string(channels) + " border " + to_string(b) + " " +
                               size_str(sw, sh) + " -> " + size_str(dw, dh) +
                               (inverse_map ? " inverse_map" : " forward");
      SCOPED_TRACE(what);
      Image dst(dw, dh, channels, t);
      test::poison(dst);
      if (!runs(what, [&] { warp_affine(src, dst, m, inverse_map, sm); })) continue;
      expect_exact(what, dst, ref_warp_affine(rs, dw, dh, m, inverse_map, sm));
    }
  }
}

void warp_affine_all(Interp ip) {
  for (int w : kWidths) {
    check_warp_affine("warp_affine", w, kRows, w, kRows, affine_inverse_map(w), true, ip, 1,
                      kAllTypes, kAllBorders);
    check_warp_affine("warp_affine", w, kRows, w, kRows, affine_forward_map(w), false, ip, 1,
                      kAllTypes, kAllBorders);
  }
  // Tall and thin: 3 columns, 65,535 rows; the roles of x and y swapped.
  const int h = 65535;
  check_warp_affine("warp_affine tall", kRows, h, kRows, h,
                    {0.91, 1.5 / h, -0.27, 0.013, 1.37, -0.3 * h + 0.123}, true, ip, 1, kAllTypes,
                    kAllBorders);
  check_warp_affine("warp_affine tall", kRows, h, kRows, h,
                    {1.099, -1.1 / h, 0.31, -0.0104, 0.73, 0.25 * h + 0.4567}, false, ip, 1,
                    kAllTypes, kAllBorders);
}

TEST(ExactWarpAffine, Nearest) {
  warp_affine_all(Interp::nearest);
}
TEST(ExactWarpAffine, Linear) {
  warp_affine_all(Interp::linear);
}
TEST(ExactWarpAffine, Cubic) {
  warp_affine_all(Interp::cubic);
}

TEST(ExactWarpAffine, ThreeChannels) {
  const int w = 65535;
  for (Interp ip : {Interp::linear, Interp::cubic}) {
    check_warp_affine("warp_affine", w, 2, w, 2, affine_inverse_map(w), true, ip, 3, kAllTypes,
                      {Border::constant, Border::reflect101});
  }
}

TEST(ExactWarpPerspective, MildPerspective) {
  for (int w : kWidths) {
    // Destination to source: w' = 1 + 0.05 x / W (up to 1.05).
    const std::array<double, 9> inv = {
        1.37, 0.013, -0.3 * w + 0.123, 1.5 / w, 0.91, -0.27, 0.05 / w, 0.0, 1.0};
    // Source to destination, inverted by warp_perspective: sx spans about [-0.14 W, 1.2 W]. The
    // translation stays at 0.1 W: texcv calls a matrix singular when |det| <= 1e-12 (largest
    // |element|)^3 (docs/conventions.md), and with det ~0.8 a translation above ~9,300 trips that
    // rule (0.25 W did at W = 65,535).
    const std::array<double, 9> fwd = {
        0.73, -0.0104, 0.1 * w + 0.4567, -1.1 / w, 1.099, 0.31, -0.04 / w, 0.001, 1.0};
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
      for (bool inverse_map : {true, false})
        for (ElemType t : kTypes) {
          const Image src = source(w, kRows, 1, t);
          const RefImage rs = to_ref(src);
          for (Border b : kBorders) {
            Sampling sm;
            sm.interp = ip;
            sm.border = b;
            sm.border_value = border_values(t);
            const std::string what = std::string("warp_perspective ") + to_string(ip) + " " +
                                     to_string(t) + " border " + to_string(b) + " " +
                                     size_str(w, kRows) +
                                     (inverse_map ? " inverse_map" : " forward");
            SCOPED_TRACE(what);
            const auto& m = inverse_map ? inv : fwd;
            Image dst(w, kRows, 1, t);
            test::poison(dst);
            if (!runs(what, [&] { warp_perspective(src, dst, m, inverse_map, sm); })) continue;
            expect_exact(what, dst, ref_warp_perspective(rs, w, kRows, m, inverse_map, sm));
          }
        }
  }
}

TEST(ExactRotate, SmallAngle) {
  // Small angles: sy moves by about 1.7 rows from the centre to either end; the rows beyond the
  // image come from the border. Plus a tall thin image (4 x 65,535).
  struct R {
    int w, h;
    double deg;
  };
  const R cases[] = {{257, 4, 0.75},     {4099, 4, 0.047},    {16411, 4, 0.0119},
                     {65535, 4, 0.0031}, {65535, 2, -0.0017}, {4, 65535, 0.0031}};
  for (const R& c : cases)
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
      for (ElemType t : kTypes) {
        const Image src = source(c.w, c.h, 1, t);
        const RefImage rs = to_ref(src);
        const std::array<double, 6> m = ref_rotation_matrix(c.w, c.h, c.w, c.h, c.deg);
        for (Border b : kBorders) {
          Sampling sm;
          sm.interp = ip;
          sm.border = b;
          sm.border_value = border_values(t);
          char deg[32];
          std::snprintf(deg, sizeof deg, "%g deg", c.deg);
          const std::string what = std::string("rotate ") + deg + " " + to_string(ip) + " " +
                                   to_string(t) + " border " + to_string(b) + " " +
                                   size_str(c.w, c.h);
          SCOPED_TRACE(what);
          Image dst(c.w, c.h, 1, t);
          test::poison(dst);
          if (!runs(what, [&] { rotate(src, dst, c.deg, sm); })) continue;
          expect_exact(what, dst, ref_warp_affine(rs, c.w, c.h, m, false, sm));
        }
      }
}

TEST(ExactRemap, FloatMaps) {
  // Maps built in float by the test: the reference reads the map values as given.
  struct M {
    int w, h;
  };
  const M cases[] = {{257, 3}, {4099, 3}, {65535, 2}, {3, 65535}};
  for (const M& c : cases) {
    const bool tall = c.h > c.w;
    Image mx(c.w, c.h, 1, ElemType::f32), my(c.w, c.h, 1, ElemType::f32);
    const int n = tall ? c.h : c.w;  // the long side
    for (int y = 0; y < c.h; ++y)
      for (int x = 0; x < c.w; ++x) {
        const double along = tall ? y : x, across = tall ? x : y;
        const double a = 1.37 * along + 0.013 * across - 0.3 * n + 0.123 + 0.2 * std::sin(along);
        const double b = 0.91 * across + 1.5 * along / n - 0.27;
        mx.view().row<float>(y)[x] = static_cast<float>(tall ? b : a);
        my.view().row<float>(y)[x] = static_cast<float>(tall ? a : b);
      }
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
      for (ElemType t : kTypes) {
        const Image src = source(c.w, c.h, 1, t);
        const RefImage rs = to_ref(src);
        for (Border b : kBorders) {
          Sampling sm;
          sm.interp = ip;
          sm.border = b;
          sm.border_value = border_values(t);
          const std::string what = std::string("remap ") + to_string(ip) + " " + to_string(t) +
                                   " border " + to_string(b) + " " + size_str(c.w, c.h);
          SCOPED_TRACE(what);
          Image dst(c.w, c.h, 1, t);
          test::poison(dst);
          if (!runs(what, [&] { remap(src, dst, mx, my, sm); })) continue;
          expect_exact(what, dst, ref_remap(rs, mx, my, sm));
        }
      }
  }
}

}  // namespace
}  // namespace texcv
