// Helpers shared by the CUDA tests of the geometric operations (test_<op>_cuda.cpp of resize,
// warp_affine, warp_perspective, rotate, remap, flip, and test_geometry_cuda.cpp). Those tests
// compare the CUDA backend with the CPU backend on every access path (global, texture,
// texture_filter, automatic).
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
//
// The sampling grid (GeometryCuda): type x channels are test parameters (instantiated in
// test_geometry_cuda.cpp), interp x border x path are looped inside each test, so that ctest
// starts one process per op and type, not per combination.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "src/core/sampling.hpp"
#include "texcv/texcv.hpp"

namespace texcv::geometry_cuda_test {

using test::at;
using test::poison;
using test::random_image;
using test::to_host;

// Constant border values exactly representable in each element type.
inline std::array<double, 4> border_values(ElemType t) {
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

inline const char* to_string(Layout l) {
  return l == Layout::image ? "image" : "roi";
}

// A device image: a whole pitched allocation (texture-bindable), or a sub-image at an odd offset
// of a larger poisoned allocation (its pointer misses textureAlignment).
struct Dev {
  Image owner;
  ImageView view;
  Rect rect;
};

inline Dev device_image(int w, int h, int c, ElemType t, Layout l, int ox, int oy) {
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

inline Dev upload(const ImageView& host, Layout l) {
  Dev d = device_image(host.width, host.height, host.channels, host.type, l, 3, 1);
  texcv::copy(host, d.view);
  return d;
}

// The allowed |got - want| at (x, y, c).
using Tol = std::function<double(int x, int y, int c, double want)>;

inline Tol identical() {
  return [](int, int, int, double) { return 0.0; };
}

inline Tol exact_bound(ElemType t) {
  if (t != ElemType::f32) return [](int, int, int, double) { return 1.0; };
  return [](int, int, int, double want) { return 1e-5 * std::max(std::fabs(want), 1e-6); };
}

// Source coordinate of destination pixel (x, y) (pixel-centre convention).
using CoordFn = std::function<void(int x, int y, float& sx, float& sy)>;

// Largest difference, in channel c, between the source pixels the hardware bilinear footprint at
// (sx, sy) can touch (see the file comment).
inline double local_step(const ImageView& src, float sx, float sy, Border b,
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

inline Tol fast_bound(const ImageView& src, Border b, const std::array<double, 4>& bv,
                      CoordFn coord) {
  const double extra = src.type == ElemType::f32 ? 1e-6 : 1.0;
  return [=](int x, int y, int c, double) {
    float sx, sy;
    coord(x, y, sx, sy);
    return 2.0 * local_step(src, sx, sy, b, bv, c) / 256.0 + extra;
  };
}

// Compares the device result (its whole allocation) with the CPU result: inside the rectangle
// within tol and never NaN/poison where the CPU has a value; outside it still poison.
inline void expect_close(const std::string& what, const Dev& out, const ImageView& want,
                         const Tol& tol) {
  SCOPED_TRACE(what);
  const Image all = to_host(out.owner.view());
  const ImageView got = all.view().roi(out.rect);
  long bad = 0;
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
  const long frame = test::written_outside(all.view(), out.rect);
  EXPECT_EQ(bad, 0) << "first mismatch " << first;
  EXPECT_EQ(frame, 0) << "elements written outside the destination rectangle";
}

struct TypeCase {
  ElemType type;
  int channels;
};

inline std::string type_case_name(const testing::TestParamInfo<TypeCase>& info) {
  return std::string(to_string(info.param.type)) + "_c" + std::to_string(info.param.channels);
}

inline const auto kTypeCases = testing::Values(
    TypeCase{ElemType::u8, 1}, TypeCase{ElemType::u8, 3}, TypeCase{ElemType::u8, 4},
    TypeCase{ElemType::u16, 1}, TypeCase{ElemType::u16, 3}, TypeCase{ElemType::u16, 4},
    TypeCase{ElemType::f32, 1}, TypeCase{ElemType::f32, 3}, TypeCase{ElemType::f32, 4});

// Every valid (interp, border, path, precision) for this type and channel count: global and
// texture (exact) with every interp and border, texture_filter (fast) where the hardware can,
// and automatic with automatic precision.
inline std::vector<Sampling> sampling_grid(ElemType t, int c) {
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

inline std::string describe(const Sampling& s) {
  return std::string(to_string(s.interp)) + " " + to_string(s.border) + " path " +
         to_string(s.path) + " precision " + to_string(s.precision);
}

// The bound for sampling s, given the coordinate map (used by texture_filter's local step).
inline Tol bound(const Sampling& s, const ImageView& src, const CoordFn& coord) {
  if (s.interp == Interp::nearest) return identical();
  if (s.path == Path::texture_filter) return fast_bound(src, s.border, s.border_value, coord);
  // automatic precision resolves to exact for every element type.
  return exact_bound(src.type);
}

// The fixture of the sampling grid: its tests are in test_<op>_cuda.cpp, its instantiation
// in test_geometry_cuda.cpp.
class GeometryCuda : public testing::TestWithParam<TypeCase> {};

inline constexpr int kBigW = 101, kBigH = 67, kSmallW = 37, kSmallH = 23;

// dst -> src matrices given with inverse_map = true, as floats (the coordinates the test
// computes for the local step are then exactly those of both backends).
inline std::array<float, 6> rotation_inverse() {
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

}  // namespace texcv::geometry_cuda_test
