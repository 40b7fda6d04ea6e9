// resize's factor form (ResizeParams::fx/fy, cv::resize(src, dst, Size(), fx, fy)) on the CUDA
// backend against the CPU backend: odd sizes, factors below and above 1 (and one axis each way),
// every interpolation, every access path, u8/u16/f32 x 1, 3, 4 channels, whole and sub-image
// device views. The CPU backend is checked against OpenCV in
// tests/cpp/opencv/test_resize_factors_opencv.cpp.
//
// Bounds (docs/conventions.md, as test_geometry_cuda.cpp): nearest identical; exact paths
// (global, texture, automatic) u8/u16 1 level, f32 relative 1e-5; texture_filter (precision
// fast) 2 * (local step) / 256 + 1 (u8/u16) or + 1e-6 (f32), the local step being the largest
// difference in the source pixels the hardware bilinear footprint can touch.
// Device outputs are poisoned before each run; sub-image outputs must leave their frame alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "src/core/sampling.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

using test::at;
using test::is_poison;
using test::poison;
using test::random_image;
using test::to_host;

// A device image: a whole allocation, or a sub-image at an odd offset of a larger poisoned
// allocation (its pointer misses textureAlignment).
struct Dev {
  Image owner;
  ImageView view;
  Rect rect;
};

Dev device_image(int w, int h, int c, ElemType t, bool roi) {
  Dev d;
  if (!roi) {
    d.owner = Image(w, h, c, t, Location::device);
    d.rect = Rect{0, 0, w, h};
  } else {
    d.owner = Image(w + 4, h + 3, c, t, Location::device);
    d.rect = Rect{3, 1, w, h};
  }
  poison(d.owner.view());
  d.view = d.owner.view().roi(d.rect);
  return d;
}

using Tol = std::function<double(int x, int y, int c, double want)>;

// Largest difference, in channel c, between the source pixels the hardware bilinear footprint at
// (sx, sy) can touch (the 2x2 neighbourhood, widened within 1/128 px of a pixel centre).
double local_step(const ImageView& src, float sx, float sy, Border b, int c) {
  sx = detail::sanitize_coord(sx);
  sy = detail::sanitize_coord(sy);
  constexpr float kSlack = 1.0f / 128.0f;
  const int x0 = detail::floor_to_int(sx - kSlack), x1 = detail::floor_to_int(sx + kSlack) + 1;
  const int y0 = detail::floor_to_int(sy - kSlack), y1 = detail::floor_to_int(sy + kSlack) + 1;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const double v =
          at(src, detail::border_index(x, src.width, b), detail::border_index(y, src.height, b), c);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  return hi - lo;
}

Tol bound(Interp ip, Path path, const ImageView& src, double fx, double fy) {
  if (ip == Interp::nearest) return [](int, int, int, double) { return 0.0; };
  if (path == Path::texture_filter) {
    // The factor form's coordinates: (x + 0.5) / fx - 0.5 (ResizeAxis with scale 1 / fx).
    const detail::ResizeAxis ax{static_cast<float>(1.0 / fx), false};
    const detail::ResizeAxis ay{static_cast<float>(1.0 / fy), false};
    const double extra = src.type == ElemType::f32 ? 1e-6 : 1.0;
    return [=](int x, int y, int c, double) {
      return 2.0 * local_step(src, ax(x), ay(y), Border::replicate, c) / 256.0 + extra;
    };
  }
  if (src.type != ElemType::f32) return [](int, int, int, double) { return 1.0; };
  return [](int, int, int, double want) { return 1e-5 * std::max(std::fabs(want), 1e-6); };
}

// Device result (whole allocation) against the CPU: inside the rectangle within tol, never
// NaN/poison; outside it still poison.
void expect_close(const std::string& what, const Dev& out, const ImageView& want, const Tol& tol) {
  SCOPED_TRACE(what);
  const Image all = to_host(out.owner.view());
  const ImageView got = all.view().roi(out.rect);
  long bad = 0, frame = 0;
  std::string first;
  for (int y = 0; y < want.height; ++y)
    for (int x = 0; x < want.width; ++x)
      for (int c = 0; c < want.channels; ++c) {
        const double g = at(got, x, y, c), w = at(want, x, y, c);
        const double lim = tol(x, y, c, w);
        if (std::isnan(g) || std::isnan(w) || !(std::fabs(g - w) <= lim)) {
          if (bad++ == 0)
            first = "at (" + std::to_string(x) + ", " + std::to_string(y) + ") channel " +
                    std::to_string(c) + ": got " + std::to_string(g) + ", want " +
                    std::to_string(w) + ", bound " + std::to_string(lim);
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

struct TypeCase {
  ElemType type;
  int channels;
};

class ResizeFactorsCuda : public testing::TestWithParam<TypeCase> {};

TEST_P(ResizeFactorsCuda, MatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  // Odd sizes (ties at 0.5: 101 * 0.5 = 50.5 -> 50, 67 * 0.5 = 33.5 -> 34); area shrinking by
  // more than 3 (0.3) takes the per-pixel area kernel, by less the separable one.
  constexpr double kFactors[][2] = {{0.5, 0.5}, {0.3, 0.7}, {1.5, 2.5}, {0.5, 1.7}, {1.3, 0.45}};
  const Image src = random_image(101, 67, k.channels, k.type, 29);
  const Dev in_image = device_image(101, 67, k.channels, k.type, false);
  const Dev in_roi = device_image(101, 67, k.channels, k.type, true);
  texcv::copy(src, in_image.view);
  texcv::copy(src, in_roi.view);
  for (const auto& f : kFactors) {
    const Rect r = resized_size(src.width(), src.height(), f[0], f[1]);
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
        for (bool roi : {false, true}) {
          const Dev out = device_image(r.width, r.height, k.channels, k.type, roi);
          texcv::resize(roi ? in_roi.view : in_image.view, out.view, p);
          expect_close("fx " + std::to_string(f[0]) + " fy " + std::to_string(f[1]) + " " +
                           to_string(ip) + " path " + to_string(path) + (roi ? " roi" : " image"),
                       out, want, bound(ip, path, src.view(), f[0], f[1]));
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Grid, ResizeFactorsCuda,
                         testing::Values(TypeCase{ElemType::u8, 1}, TypeCase{ElemType::u8, 3},
                                         TypeCase{ElemType::u8, 4}, TypeCase{ElemType::u16, 1},
                                         TypeCase{ElemType::u16, 3}, TypeCase{ElemType::u16, 4},
                                         TypeCase{ElemType::f32, 1}, TypeCase{ElemType::f32, 3},
                                         TypeCase{ElemType::f32, 4}),
                         [](const testing::TestParamInfo<TypeCase>& info) {
                           return std::string(to_string(info.param.type)) + "_c" +
                                  std::to_string(info.param.channels);
                         });

}  // namespace
}  // namespace texcv
