// The CUDA geometric operations (resize, warp_affine, warp_perspective, rotate, remap, flip)
// against the CPU backend, on every access path (global, texture, texture_filter, automatic).
//
// Bounds (docs/conventions.md, written next to each use):
// - nearest and flip: identical.
// - exact paths (global, texture; linear, cubic, area): u8/u16 within 1 level; f32 relative 1e-5
//   (|got - want| <= 1e-5 * max(|want|, 1e-6), as texcv::test::compare defines max_rel).
// - texture_filter (precision fast, 8-bit hardware weights): both bilinear weights (x and y)
//   carry up to 1/256 of error, so the result differs from float weights by at most
//   (|step along x| + |step along y|) / 256 <= 2 * (local step) / 256. f32: that + 1e-6 (float
//   rounding); u8/u16: that + 1 (integer rounding of both sides). On random u8 data this is up
//   to 2 levels (measured on the H200: 2); on images whose neighbours differ by less than 128 it
//   is 1 level. (GPU_FACTS.md's "(local step) / 256" is the one-axis bound; the first H200 run
//   measured errors up to 1.5 times it.) The local step is the largest difference between the
//   source pixels (border included) that the bilinear footprint of the sample can touch: the
//   2x2 neighbourhood, widened to 3 pixels on an axis when the coordinate lies within 1/128 of a
//   pixel centre (the hardware rounds coordinates to 1/256 of a texel).
// Device outputs are poisoned before each run; sub-image outputs must leave their frame alone.
#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "src/core/sampling.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_CUDA)
#include <cuda_runtime.h>

#include "src/cuda/ops/common/path_rule.hpp"
#include "src/cuda/runtime/runtime.hpp"
#endif

namespace texcv {
namespace {

using test::poison;
using test::random_image;
using test::to_host;

using test::at;

using test::is_poison;

// Constant border values exactly representable in each element type.
std::array<double, 4> border_values(ElemType t) {
  switch (t) {
    case ElemType::u8:
      return {7, 200, 33, 90};
    case ElemType::u16:
      return {1234, 60000, 5, 777};
    case ElemType::f32:
      break;
  }
  return {0.25, 0.75, -0.5, 2.0};
}

enum class Layout { image, roi };
const char* to_string(Layout l) {
  return l == Layout::image ? "image" : "roi";
}

// A device image: a whole pitched allocation (texture-bindable), or a sub-image at an odd offset
// of a larger poisoned allocation (its pointer misses textureAlignment).
struct Dev {
  Image owner;
  ImageView view;
  Rect rect;
};

Dev device_image(int w, int h, int c, ElemType t, Layout l, int ox, int oy) {
  Dev d;
  if (l == Layout::image) {
    d.owner = Image(w, h, c, t, Location::device);
    d.rect = Rect{0, 0, w, h};
  } else {
    d.owner = Image(w + ox + 2, h + oy + 1, c, t, Location::device);
    d.rect = Rect{ox, oy, w, h};
  }
  poison(d.owner.view());
  d.view = d.owner.view().roi(d.rect);
  return d;
}

Dev upload(const ImageView& host, Layout l) {
  Dev d = device_image(host.width, host.height, host.channels, host.type, l, 3, 1);
  texcv::copy(host, d.view);
  return d;
}

// The allowed |got - want| at (x, y, c).
using Tol = std::function<double(int x, int y, int c, double want)>;

Tol identical() {
  return [](int, int, int, double) { return 0.0; };
}

Tol exact_bound(ElemType t) {
  if (t != ElemType::f32) return [](int, int, int, double) { return 1.0; };
  return [](int, int, int, double want) { return 1e-5 * std::max(std::fabs(want), 1e-6); };
}

// Source coordinate of destination pixel (x, y) (pixel-centre convention).
using CoordFn = std::function<void(int x, int y, float& sx, float& sy)>;

// Largest difference, in channel c, between the source pixels the hardware bilinear footprint at
// (sx, sy) can touch (see the file comment).
double local_step(const ImageView& src, float sx, float sy, Border b,
                  const std::array<double, 4>& bv, int c) {
  sx = detail::sanitize_coord(sx);
  sy = detail::sanitize_coord(sy);
  constexpr float kSlack = 1.0f / 128.0f;
  const int x0 = detail::floor_to_int(sx - kSlack), x1 = detail::floor_to_int(sx + kSlack) + 1;
  const int y0 = detail::floor_to_int(sy - kSlack), y1 = detail::floor_to_int(sy + kSlack) + 1;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const int ix = detail::border_index(x, src.width, b);
      const int iy = detail::border_index(y, src.height, b);
      const double v = (ix < 0 || iy < 0) ? bv[c] : at(src, ix, iy, c);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  return hi - lo;
}

Tol fast_bound(const ImageView& src, Border b, const std::array<double, 4>& bv, CoordFn coord) {
  const double extra = src.type == ElemType::f32 ? 1e-6 : 1.0;
  return [=](int x, int y, int c, double) {
    float sx, sy;
    coord(x, y, sx, sy);
    return 2.0 * local_step(src, sx, sy, b, bv, c) / 256.0 + extra;
  };
}

// Compares the device result (its whole allocation) with the CPU result: inside the rectangle
// within tol and never NaN/poison where the CPU has a value; outside it still poison.
void expect_close(const std::string& what, const Dev& out, const ImageView& want, const Tol& tol) {
  SCOPED_TRACE(what);
  const Image all = to_host(out.owner.view());
  const ImageView got = all.view().roi(out.rect);
  long bad = 0, frame = 0;
  std::string first;
  for (int y = 0; y < want.height && bad < 1000; ++y) {
    for (int x = 0; x < want.width; ++x) {
      for (int c = 0; c < want.channels; ++c) {
        const double g = at(got, x, y, c), w = at(want, x, y, c);
        if (std::isnan(g) && std::isnan(w)) continue;
        const double lim = tol(x, y, c, w);
        if (std::isnan(g) || std::isnan(w) || !(std::fabs(g - w) <= lim)) {
          if (bad++ == 0)
            first = "at (" + std::to_string(x) + ", " + std::to_string(y) + ") channel " +
                    std::to_string(c) + ": got " + std::to_string(g) + ", want " +
                    std::to_string(w) + ", bound " + std::to_string(lim);
        }
      }
    }
  }
  const ImageView whole = all.view();
  for (int y = 0; y < whole.height; ++y)
    for (int x = 0; x < whole.width; ++x) {
      const bool inside = x >= out.rect.x && x < out.rect.x + out.rect.width && y >= out.rect.y &&
                          y < out.rect.y + out.rect.height;
      if (inside) continue;
      for (int c = 0; c < whole.channels; ++c)
        if (!is_poison(whole, x, y, c)) ++frame;
    }
  EXPECT_EQ(bad, 0) << "first mismatch " << first;
  EXPECT_EQ(frame, 0) << "elements written outside the destination rectangle";
}

// ---- the sampling grid: type x channels (test parameters) x interp x border x path (looped
// inside each test, so that ctest starts one process per op and type, not per combination) ----

struct TypeCase {
  ElemType type;
  int channels;
};

std::string type_case_name(const testing::TestParamInfo<TypeCase>& info) {
  return std::string(to_string(info.param.type)) + "_c" + std::to_string(info.param.channels);
}

const auto kTypeCases = testing::Values(
    TypeCase{ElemType::u8, 1}, TypeCase{ElemType::u8, 3}, TypeCase{ElemType::u8, 4},
    TypeCase{ElemType::u16, 1}, TypeCase{ElemType::u16, 3}, TypeCase{ElemType::u16, 4},
    TypeCase{ElemType::f32, 1}, TypeCase{ElemType::f32, 3}, TypeCase{ElemType::f32, 4});

// Every valid (interp, border, path, precision) for this type and channel count: global and
// texture (exact) with every interp and border, texture_filter (fast) where the hardware can,
// and automatic with automatic precision.
std::vector<Sampling> sampling_grid(ElemType t, int c) {
  std::vector<Sampling> v;
  const Interp interps[] = {Interp::nearest, Interp::linear, Interp::cubic};
  const Border borders[] = {Border::constant, Border::replicate, Border::reflect,
                            Border::reflect101, Border::wrap};
  auto add = [&](Interp ip, Border b, Path path, Precision pr) {
    Sampling s;
    s.interp = ip;
    s.border = b;
    s.border_value = border_values(t);
    s.precision = pr;
    s.path = path;
    v.push_back(s);
  };
  for (Interp ip : interps)
    for (Border b : borders) {
      add(ip, b, Path::global, Precision::exact);
      if (c != 3) add(ip, b, Path::texture, Precision::exact);
      if (c != 3 && ip == Interp::linear && b != Border::reflect101)
        add(ip, b, Path::texture_filter, Precision::fast);
      if (b == Border::constant || b == Border::reflect101)
        add(ip, b, Path::automatic, Precision::automatic);
    }
  return v;
}

std::string describe(const Sampling& s) {
  return std::string(to_string(s.interp)) + " " + to_string(s.border) + " path " +
         to_string(s.path) + " precision " + to_string(s.precision);
}

// The bound for sampling s, given the coordinate map (used by texture_filter's local step).
Tol bound(const Sampling& s, const ImageView& src, const CoordFn& coord) {
  if (s.interp == Interp::nearest) return identical();
  if (s.path == Path::texture_filter) return fast_bound(src, s.border, s.border_value, coord);
  // automatic precision resolves to exact for every element type.
  return exact_bound(src.type);
}

class GeometryCuda : public testing::TestWithParam<TypeCase> {};

constexpr int kBigW = 101, kBigH = 67, kSmallW = 37, kSmallH = 23;

TEST_P(GeometryCuda, ResizeMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  struct Shape {
    int sw, sh, dw, dh;
  };
  for (const Shape sh : {Shape{kBigW, kBigH, kSmallW, kSmallH},
                         Shape{kSmallW, kSmallH, kBigW, kBigH}, Shape{kBigW, kBigH, 50, 34}}) {
    const Image src = random_image(sh.sw, sh.sh, k.channels, k.type, 11 + sh.dw);
    const detail::ResizeAxis ax{static_cast<float>(static_cast<double>(sh.sw) / sh.dw), false};
    const detail::ResizeAxis ay{static_cast<float>(static_cast<double>(sh.sh) / sh.dh), false};
    const CoordFn coord = [=](int x, int y, float& sx, float& sy) {
      sx = ax(x);
      sy = ay(y);
    };
    const Dev in_image = upload(src, Layout::image), in_roi = upload(src, Layout::roi);
    for (const Sampling& s : sampling_grid(k.type, k.channels)) {
      ResizeParams p;
      p.interp = s.interp;
      p.border = s.border;
      p.border_value = s.border_value;
      p.precision = s.precision;
      p.path = s.path;
      Image want(sh.dw, sh.dh, k.channels, k.type);
      texcv::resize(src, want, p);
      for (Layout l : {Layout::image, Layout::roi}) {
        const Dev out = device_image(sh.dw, sh.dh, k.channels, k.type, l, 1, 2);
        texcv::resize(l == Layout::image ? in_image.view : in_roi.view, out.view, p);
        expect_close(std::to_string(sh.sw) + "x" + std::to_string(sh.sh) + " -> " +
                         std::to_string(sh.dw) + "x" + std::to_string(sh.dh) + " " + describe(s) +
                         " " + to_string(l),
                     out, want, bound(s, src, coord));
      }
    }
  }
}

// dst -> src matrices given with inverse_map = true, as floats (the coordinates the test
// computes for the local step are then exactly those of both backends).
std::array<float, 6> rotation_inverse() {
  const double a = 30.0 * 3.14159265358979323846 / 180.0, sc = 1.1;
  const double c = std::cos(a) * sc, s = std::sin(a) * sc;
  const double dcx = (89 - 1) * 0.5, dcy = (71 - 1) * 0.5, scx = (kBigW - 1) * 0.5,
               scy = (kBigH - 1) * 0.5;
  return {
      static_cast<float>(c), static_cast<float>(-s), static_cast<float>(scx - c * dcx + s * dcy),
      static_cast<float>(s), static_cast<float>(c),  static_cast<float>(scy - s * dcx - c * dcy)};
}

// Runs op(src, dst, s) on the CPU and on the device (whole and sub-image views) for every
// sampling of the grid, and compares.
template <class Op>
void run_grid(const char* name, const TypeCase& k, const Image& src, int dw, int dh,
              const CoordFn& coord, Op&& op) {
  const Dev in_image = upload(src, Layout::image), in_roi = upload(src, Layout::roi);
  for (const Sampling& s : sampling_grid(k.type, k.channels)) {
    Image want(dw, dh, k.channels, k.type);
    op(src.view(), want.view(), s);
    for (Layout l : {Layout::image, Layout::roi}) {
      const Dev out = device_image(dw, dh, k.channels, k.type, l, 1, 2);
      op(l == Layout::image ? in_image.view : in_roi.view, out.view, s);
      expect_close(std::string(name) + " " + describe(s) + " " + to_string(l), out, want,
                   bound(s, src.view(), coord));
    }
  }
}

TEST_P(GeometryCuda, WarpAffineMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  const std::array<float, 6> mf = rotation_inverse();
  std::array<double, 6> m;
  for (int i = 0; i < 6; ++i) m[i] = mf[i];
  const Image src = random_image(kBigW, kBigH, k.channels, k.type, 21);
  const detail::AffineMap map{{mf[0], mf[1], mf[2], mf[3], mf[4], mf[5]}};
  run_grid(
      "warp_affine", k, src, 89, 71, [=](int x, int y, float& sx, float& sy) { map(x, y, sx, sy); },
      [&](const ImageView& in, const ImageView& out, const Sampling& s) {
        texcv::warp_affine(in, out, m, true, s);
      });
}

TEST_P(GeometryCuda, WarpPerspectiveMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  const std::array<float, 9> mf = {1.05f, 0.1f, -3.0f, 0.05f, 0.95f, 2.0f, 0.0008f, 0.0005f, 1.0f};
  std::array<double, 9> m;
  for (int i = 0; i < 9; ++i) m[i] = mf[i];
  const Image src = random_image(kBigW, kBigH, k.channels, k.type, 31);
  const detail::PerspectiveMap map{{mf[0], mf[1], mf[2], mf[3], mf[4], mf[5], mf[6], mf[7], mf[8]}};
  run_grid(
      "warp_perspective", k, src, kSmallW * 2, kBigH,
      [=](int x, int y, float& sx, float& sy) { map(x, y, sx, sy); },
      [&](const ImageView& in, const ImageView& out, const Sampling& s) {
        texcv::warp_perspective(in, out, m, true, s);
      });
}

TEST_P(GeometryCuda, RotateMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  const Image src = random_image(kBigW, kBigH, k.channels, k.type, 41);
  const Rect r = rotated_size(kBigW, kBigH, 30.0, true);
  // The coordinates of the local step: the inverse of rotate's matrix (as the core inverts it,
  // up to double rounding, which the 1/128-pixel slack of local_step absorbs).
  const std::array<double, 6> fw = rotation_matrix(kBigW, kBigH, r.width, r.height, 30.0);
  const double det = fw[0] * fw[4] - fw[1] * fw[3];
  const double a = fw[4] / det, b = -fw[1] / det, d = -fw[3] / det, e = fw[0] / det;
  const detail::AffineMap map{
      {static_cast<float>(a), static_cast<float>(b), static_cast<float>(-(a * fw[2] + b * fw[5])),
       static_cast<float>(d), static_cast<float>(e), static_cast<float>(-(d * fw[2] + e * fw[5]))}};
  run_grid(
      "rotate", k, src, r.width, r.height,
      [=](int x, int y, float& sx, float& sy) { map(x, y, sx, sy); },
      [&](const ImageView& in, const ImageView& out, const Sampling& s) {
        texcv::rotate(in, out, 30.0, s);
      });
}

TEST_P(GeometryCuda, RemapMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  const int dw = 53, dh = 41;
  Image mx(dw, dh, 1, ElemType::f32), my(dw, dh, 1, ElemType::f32);
  for (int y = 0; y < dh; ++y)
    for (int x = 0; x < dw; ++x) {
      // Coordinates from about -13 to the size + 13 (every border region), some exactly on
      // pixel centres.
      const float fxy = static_cast<float>(x), fyy = static_cast<float>(y);
      float fx = fxy * 2.3f - 10.0f + 3.0f * std::sin(0.3f * fyy);
      float fy = fyy * 2.1f - 10.0f + 2.0f * std::cos(0.2f * fxy);
      if ((x + y) % 7 == 0) fx = std::round(fx);
      if ((x + 2 * y) % 5 == 0) fy = std::round(fy);
      mx.view().row<float>(y)[x] = fx;
      my.view().row<float>(y)[x] = fy;
    }
  const Image src = random_image(kBigW, kBigH, k.channels, k.type, 51);
  const ImageView mxv = mx.view(), myv = my.view();
  // Device maps: one whole image, one sub-image view.
  const Dev dmx = upload(mx, Layout::image), dmy = upload(my, Layout::roi);
  run_grid(
      "remap", k, src, dw, dh,
      [=](int x, int y, float& sx, float& sy) {
        sx = mxv.row<const float>(y)[x];
        sy = myv.row<const float>(y)[x];
      },
      [&](const ImageView& in, const ImageView& out, const Sampling& s) {
        if (in.location == Location::host)
          texcv::remap(in, out, mx.view(), my.view(), s);
        else
          texcv::remap(in, out, dmx.view, dmy.view, s);
      });
}

// resize's factor form (ResizeParams::fx/fy, as cv::resize(src, dst, Size(), fx, fy)) on every
// path, whole images and sub-images. Odd sizes (ties at 0.5: 101 * 0.5 = 50.5 -> 50, 67 * 0.5 =
// 33.5 -> 34); area shrinking by more than 3 (0.3) takes the per-pixel area kernel, by less the
// separable one.
TEST_P(GeometryCuda, ResizeFactorsMatchCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  constexpr double kFactors[][2] = {{0.5, 0.5}, {0.3, 0.7}, {1.5, 2.5}, {0.5, 1.7}, {1.3, 0.45}};
  const Image src = random_image(101, 67, k.channels, k.type, 29);
  const Dev in_image = upload(src.view(), Layout::image), in_roi = upload(src.view(), Layout::roi);
  for (const auto& f : kFactors) {
    const Rect r = resized_size(src.width(), src.height(), f[0], f[1]);
    // The factor form's coordinates: (x + 0.5) / fx - 0.5 (ResizeAxis with scale 1 / fx).
    const detail::ResizeAxis ax{static_cast<float>(1.0 / f[0]), false};
    const detail::ResizeAxis ay{static_cast<float>(1.0 / f[1]), false};
    const CoordFn coord = [=](int x, int y, float& sx, float& sy) {
      sx = ax(x);
      sy = ay(y);
    };
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
      for (Path path : {Path::global, Path::texture, Path::texture_filter, Path::automatic}) {
        if (path == Path::texture && k.channels == 3) continue;  // no 3-channel textures
        if (path == Path::texture_filter && (ip != Interp::linear || k.channels == 3)) continue;
        ResizeParams p;
        p.interp = ip;
        p.path = path;
        p.precision = path == Path::texture_filter ? Precision::fast
                      : path == Path::automatic    ? Precision::automatic
                                                   : Precision::exact;
        p.fx = f[0];
        p.fy = f[1];
        Image want(r.width, r.height, k.channels, k.type);
        texcv::resize(src, want, p);
        const Tol tol = ip == Interp::nearest ? identical()
                        : path == Path::texture_filter
                            ? fast_bound(src.view(), Border::replicate, {0, 0, 0, 0}, coord)
                            : exact_bound(k.type);
        for (Layout l : {Layout::image, Layout::roi}) {
          const Dev out = device_image(r.width, r.height, k.channels, k.type, l, 3, 1);
          texcv::resize(l == Layout::roi ? in_roi.view : in_image.view, out.view, p);
          expect_close("fx " + std::to_string(f[0]) + " fy " + std::to_string(f[1]) + " " +
                           to_string(ip) + " path " + to_string(path) + " " + to_string(l),
                       out, want, tol);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Grid, GeometryCuda, kTypeCases, type_case_name);

// ---- resize with Interp::area: shrinking (averaging), enlarging and mixed ----

struct AreaCase {
  ElemType type;
  int channels;
  Path path;
};

class ResizeAreaCuda : public testing::TestWithParam<AreaCase> {};

TEST_P(ResizeAreaCuda, MatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const AreaCase& k = GetParam();
  ResizeParams p;
  p.interp = Interp::area;
  p.path = k.path;
  p.precision = Precision::exact;
  struct Shape {
    int sw, sh, dw, dh;
  };
  // 2x integer shrink, non-integer shrink, enlarge, and mixed (one axis each way).
  for (const Shape sh :
       {Shape{74, 46, 37, 23}, Shape{kBigW, kBigH, kSmallW, kSmallH},
        Shape{kSmallW, kSmallH, kBigW, kBigH}, Shape{kBigW, kSmallH, kSmallW, kBigH}}) {
    for (Border b : {Border::replicate, Border::constant}) {
      p.border = b;
      p.border_value = border_values(k.type);
      const Image src = random_image(sh.sw, sh.sh, k.channels, k.type, 61 + sh.sw);
      Image want(sh.dw, sh.dh, k.channels, k.type);
      texcv::resize(src, want, p);
      for (Layout l : {Layout::image, Layout::roi}) {
        const Dev in = upload(src, l);
        const Dev out = device_image(sh.dw, sh.dh, k.channels, k.type, l, 1, 2);
        texcv::resize(in.view, out.view, p);
        // exact bound: u8/u16 1 level, f32 relative 1e-5.
        expect_close(std::to_string(sh.sw) + "x" + std::to_string(sh.sh) + " -> " +
                         std::to_string(sh.dw) + "x" + std::to_string(sh.dh) + " " + to_string(b) +
                         " " + to_string(l),
                     out, want, exact_bound(k.type));
      }
    }
  }
}

std::vector<AreaCase> area_cases() {
  std::vector<AreaCase> v;
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4}) {
      v.push_back({t, c, Path::global});
      if (c != 3) v.push_back({t, c, Path::texture});
      v.push_back({t, c, Path::automatic});
    }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Grid, ResizeAreaCuda, testing::ValuesIn(area_cases()),
                         [](const testing::TestParamInfo<AreaCase>& info) {
                           return std::string(to_string(info.param.type)) + "_c" +
                                  std::to_string(info.param.channels) + "_" +
                                  to_string(info.param.path);
                         });

// ---- flip: identical to the CPU, every type, channel count, code, odd sizes and offsets ----

struct FlipCase {
  ElemType type;
  int channels;
};

class FlipCuda : public testing::TestWithParam<FlipCase> {};

TEST_P(FlipCuda, IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  const FlipCase& k = GetParam();
  struct Size {
    int w, h;
  };
  for (const Size sz :
       {Size{kSmallW, kSmallH}, Size{kBigW, kBigH}, Size{16, 3}, Size{1, 5}, Size{67, 1}})
    for (FlipCode code : {FlipCode::horizontal, FlipCode::vertical, FlipCode::both}) {
      const Image src = random_image(sz.w, sz.h, k.channels, k.type, 71 + sz.w);
      Image want(sz.w, sz.h, k.channels, k.type);
      texcv::flip(src, want, code);
      for (Layout l : {Layout::image, Layout::roi}) {
        const Dev in = upload(src, l);
        const Dev out = device_image(sz.w, sz.h, k.channels, k.type, l, 1, 2);
        texcv::flip(in.view, out.view, code);
        expect_close(std::to_string(sz.w) + "x" + std::to_string(sz.h) + " " + to_string(code) +
                         " " + to_string(l),
                     out, want, identical());
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Grid, FlipCuda,
                         testing::Values(FlipCase{ElemType::u8, 1}, FlipCase{ElemType::u8, 3},
                                         FlipCase{ElemType::u8, 4}, FlipCase{ElemType::u16, 1},
                                         FlipCase{ElemType::u16, 3}, FlipCase{ElemType::u16, 4},
                                         FlipCase{ElemType::f32, 1}, FlipCase{ElemType::f32, 3},
                                         FlipCase{ElemType::f32, 4}),
                         [](const testing::TestParamInfo<FlipCase>& info) {
                           return std::string(to_string(info.param.type)) + "_c" +
                                  std::to_string(info.param.channels);
                         });

// ---- explicit paths: errors, unbindable views, texture reuse ----

using test::expect_error;

TEST(GeometryCudaPaths, ThreeChannelTexturePathIsUnsupportedWithReason) {
  TEXCV_REQUIRE_GPU();
  const Image src = random_image(kSmallW, kSmallH, 3, ElemType::u8, 1);
  const Dev in = upload(src, Layout::image);
  const Dev out = device_image(kSmallW, kSmallH, 3, ElemType::u8, Layout::image, 0, 0);
  for (Path path : {Path::texture, Path::texture_filter}) {
    ResizeParams p;
    p.path = path;
    p.precision = Precision::fast;
    const std::string msg =
        std::string("resize: path ") + to_string(path) +
        " needs a texture, and CUDA has no texture format for 3-channel images; use path global "
        "(or automatic), or convert the image to 4 channels; got 3 channels, expected 1 or 4 "
        "channels";
    expect_error([&] { texcv::resize(in.view, out.view, p); }, ErrorCode::Unsupported, msg);
    Sampling s;
    s.path = path;
    s.precision = Precision::fast;
    expect_error(
        [&] {
          texcv::warp_affine(in.view, out.view, {1, 0, 0, 0, 1, 0}, false, s);
        },
        ErrorCode::Unsupported, "warp_affine" + msg.substr(std::string("resize").size()));
  }
  // automatic takes the global path and works.
  ResizeParams p;
  Image want(kSmallW, kSmallH, 3, ElemType::u8);
  texcv::resize(src, want, p);
  texcv::resize(in.view, out.view, p);
  expect_close("automatic, 3 channels", out, want, exact_bound(ElemType::u8));
}

TEST(GeometryCudaPaths, TextureFilterRefusesWhatHardwareCannotDo) {
  TEXCV_REQUIRE_GPU();
  const Image src = random_image(kSmallW, kSmallH, 1, ElemType::f32, 2);
  const Dev in = upload(src, Layout::image);
  const Dev out = device_image(kSmallW, kSmallH, 1, ElemType::f32, Layout::image, 0, 0);
  ResizeParams p;
  p.path = Path::texture_filter;
  p.precision = Precision::fast;
  p.interp = Interp::cubic;
  expect_error([&] { texcv::resize(in.view, out.view, p); }, ErrorCode::Unsupported,
               "resize: path texture_filter is hardware bilinear filtering and only does linear "
               "interpolation; use path texture or global for this interpolation; got interp "
               "cubic, expected interp linear");
  p.interp = Interp::nearest;
  expect_error([&] { texcv::resize(in.view, out.view, p); }, ErrorCode::Unsupported,
               "resize: path texture_filter is hardware bilinear filtering and only does linear "
               "interpolation; use path texture or global for this interpolation; got interp "
               "nearest, expected interp linear");
  p.interp = Interp::linear;
  p.border = Border::reflect101;
  expect_error([&] { texcv::resize(in.view, out.view, p); }, ErrorCode::Unsupported,
               "resize: path texture_filter has no hardware address mode for border reflect101; "
               "use path texture or global, or border reflect; got border reflect101, expected "
               "constant, replicate, reflect or wrap");
  p.border = Border::replicate;
  p.precision = Precision::exact;
  expect_error([&] { texcv::resize(in.view, out.view, p); }, ErrorCode::InvalidArgument,
               "resize: path texture_filter uses hardware weights with 8 fractional bits, which "
               "precision exact forbids; use precision fast, or path global or texture; got "
               "precision exact, expected precision fast");
  // f32 with automatic precision resolves to exact: refused the same way.
  p.precision = Precision::automatic;
  EXPECT_THROW(texcv::resize(in.view, out.view, p), Error);
}

#if defined(TEXCV_HAS_CUDA)
// A device view whose pitch is not a multiple of texturePitchAlignment, filled from host.
struct OddPitch {
  Image owner;
  ImageView view;
};
OddPitch odd_pitch_view(const ImageView& host, std::size_t align) {
  OddPitch o;
  const std::size_t px = host.pixel_bytes();
  std::size_t pitch = host.row_bytes() + px;
  while (pitch % align == 0) pitch += px;
  const int wide = static_cast<int>((pitch + px - 1) / px) + 1;
  o.owner = Image(wide, host.height, host.channels, host.type, Location::device);
  o.view = host;
  o.view.data = o.owner.data();
  o.view.pitch = pitch;
  o.view.location = Location::device;
  texcv::copy(host, o.view);
  return o;
}

TEST(GeometryCudaPaths, UnbindableViewCopiesForExplicitTexturePathsAndAutoUsesGlobal) {
  TEXCV_REQUIRE_GPU();
  const std::size_t align = gpus().at(0).texture_pitch_alignment;
  ASSERT_GT(align, 1u) << "texturePitchAlignment";
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int c : {1, 4}) {
      SCOPED_TRACE(std::string(to_string(t)) + " c" + std::to_string(c));
      const Image src = random_image(kBigW, kBigH, c, t, 3);
      const OddPitch in = odd_pitch_view(src, align);
      std::string why;
      ASSERT_FALSE(cuda::can_bind_pitch2d(in.view, &why)) << "the test needs an unbindable view";
      for (Path path : {Path::texture, Path::texture_filter, Path::automatic}) {
        ResizeParams p;
        p.path = path;
        p.precision = path == Path::texture ? Precision::exact : Precision::fast;
        p.border = Border::constant;
        p.border_value = border_values(t);
        Image want(kSmallW, kSmallH, c, t);
        texcv::resize(src, want, p);
        const Dev out = device_image(kSmallW, kSmallH, c, t, Layout::roi, 1, 2);
        const long before = live_handles().textures;
        texcv::resize(in.view, out.view, p);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        // The scratch copy's texture is released; automatic does not make one at all.
        EXPECT_EQ(live_handles().textures, before) << to_string(path);
        const detail::ResizeAxis ax{static_cast<float>(double(kBigW) / kSmallW), false};
        const detail::ResizeAxis ay{static_cast<float>(double(kBigH) / kSmallH), false};
        const Tol tol = path == Path::texture_filter
                            ? fast_bound(src, p.border, p.border_value,
                                         [=](int x, int y, float& sx, float& sy) {
                                           sx = ax(x);
                                           sy = ay(y);
                                         })
                            : exact_bound(t);  // automatic -> exact precision -> global
        expect_close(std::string("odd pitch ") + to_string(path), out, want, tol);
      }
      detail::SamplingDesc fast;
      fast.precision = Precision::fast;  // bindable, automatic would take texture_filter
      EXPECT_EQ(cuda::ops::resolved_path(cuda::ops::GeomOp::resize, in.view, fast), Path::global);
    }
}

TEST(GeometryCudaPaths, SecondCallReusesTheCachedTexture) {
  TEXCV_REQUIRE_GPU();
  const Image src = random_image(kBigW, kBigH, 4, ElemType::u8, 4);
  const Dev in = upload(src, Layout::image);
  const Dev out = device_image(kSmallW, kSmallH, 4, ElemType::u8, Layout::image, 0, 0);
  for (Path path : {Path::texture, Path::texture_filter}) {
    SCOPED_TRACE(to_string(path));
    ResizeParams p;
    p.path = path;
    p.precision = Precision::fast;
    texcv::resize(in.view, out.view, p);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const long first = live_handles().textures;
    for (int i = 0; i < 3; ++i) texcv::resize(in.view, out.view, p);
    Sampling s;
    s.path = path;
    s.precision = Precision::fast;
    s.border = Border::replicate;  // same texture spec as resize's default border
    texcv::warp_affine(in.view, out.view, {1, 0, 0.5, 0, 1, 0.25}, true, s);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(live_handles().textures, first);
  }
}

TEST(GeometryCudaPaths, AutomaticResolvesToARunnablePath) {
  TEXCV_REQUIRE_GPU();
  using cuda::ops::GeomOp;
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4}) {
      const Image img(64, 32, c, t, Location::device);
      for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
        for (Border b : {Border::constant, Border::reflect101, Border::wrap})
          for (Precision pr : {Precision::exact, Precision::fast}) {
            detail::SamplingDesc s;
            s.interp = ip;
            s.border = b;
            s.precision = pr;
            for (GeomOp op : {GeomOp::resize, GeomOp::warp, GeomOp::remap}) {
              const Path got = cuda::ops::resolved_path(op, img.view(), s);
              SCOPED_TRACE(std::string(to_string(t)) + " c" + std::to_string(c) + " " +
                           to_string(ip) + " " + to_string(b) + " " + to_string(pr) + " -> " +
                           to_string(got));
              EXPECT_NE(got, Path::automatic);
              if (c == 3) {
                EXPECT_EQ(got, Path::global);
              }
              if (got == Path::texture_filter) {
                EXPECT_EQ(ip, Interp::linear);
                EXPECT_NE(b, Border::reflect101);
                EXPECT_EQ(pr, Precision::fast);
              }
            }
          }
      EXPECT_EQ(cuda::ops::resolved_path(GeomOp::flip, img.view(), detail::SamplingDesc{}),
                Path::global);
    }
}
#endif

}  // namespace
}  // namespace texcv
