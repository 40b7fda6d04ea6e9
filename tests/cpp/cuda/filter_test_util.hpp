// Helpers shared by the CUDA tests of the linear filters (test_<op>_cuda.cpp of convolve,
// separable_filter, gaussian_blur, box_filter, sharpen, sobel, unsharp_mask and
// test_filter_engine_cuda.cpp). Those tests compare the CUDA backend with the CPU backend:
// IDENTICAL results for every op,
// element type (u8, u16, f32), channel count (1, 3, 4), border mode (the five, constant with a
// per-channel value), access path (global, shared, texture, automatic), several kernel sizes and
// anchors, and both destination types where f32 is allowed, on odd-sized random images that
// span several blocks' tiles (32 x 64 outputs) in both directions, with aligned whole images and
// with offset sub-views as source and destination. Both backends accumulate in float in the same
// order (kernel rows, then taps left to right, zero coefficients skipped; separable filters as a
// row pass into float then a column pass) and the library builds with --fmad=false /
// -ffp-contract=off, so no tolerance is needed. Device outputs are poisoned first; the frame around
// a sub-view destination must stay poisoned.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv::filter_cuda_test {

inline constexpr int kW = 75, kH = 141;

// op(src, dst, path): the operation with FilterBorder::path = path.
using Op = std::function<void(const ImageView& src, const ImageView& dst, Path path)>;

// TEXCV_TEST_SANITIZER_SUBSET=1 (bench/run_device.sh sets it for compute-sanitizer's racecheck,
// under which each launch costs about a tenth of a second and the whole matrix does not finish
// in 300 s): every kernel instantiation still runs (each type, channel count, path and case),
// but with two borders (constant and reflect101) instead of five, offset sub-views only, and
// no automatic path (it picks one of the others); and convolve's 31x31 case on a 40 x 36 corner
// of the source (it alone ran past 300 s under racecheck at 75 x 141, eighth session; 40 x 36
// still has blocks on every edge and the window wider than the image's half). Said on stdout,
// never silent.
inline bool sanitizer_subset() {
  static const bool on = [] {
    const char* e = std::getenv("TEXCV_TEST_SANITIZER_SUBSET");
    const bool set = e != nullptr && std::string(e) == "1";
    if (set)
      std::printf(
          "[ subset   ] TEXCV_TEST_SANITIZER_SUBSET=1: borders constant and reflect101, "
          "offset sub-views, no automatic path, convolve 31x31 on a 40 x 36 corner\n");
    return set;
  }();
  return on;
}

// The paths every case runs on: texture needs 1 or 4 channels.
inline std::vector<Path> paths_for(int channels) {
  if (sanitizer_subset()) {
    if (channels == 3) return {Path::global, Path::shared};
    return {Path::global, Path::shared, Path::texture};
  }
  if (channels == 3) return {Path::global, Path::shared, Path::automatic};
  return {Path::global, Path::shared, Path::texture, Path::automatic};
}

// Runs op on the CPU (host images) and on the GPU on every path in two layouts; the results must
// be identical.
inline void expect_same(const std::string& what, const Image& host, ElemType dst_type,
                        const Op& op) {
  const int ch = host.channels(), kW = host.width(), kH = host.height();
  Image want(kW, kH, ch, dst_type);
  op(host, want, Path::automatic);
  for (const Path path : paths_for(ch))
    for (int layout : {0, 1}) {
      if (layout == 0 && sanitizer_subset()) continue;
      SCOPED_TRACE(what + " path " + to_string(path) +
                   (layout ? " (offset sub-views)" : " (whole images)"));
      // layout 1: the source at (3, 1) of a larger device image, the destination at (1, 1) of a
      // poisoned one (its pitch then also differs from the source's).
      const int sx = layout ? 3 : 0, sy = layout ? 1 : 0, f = layout;
      Image dsrc_owner(kW + 2 * sx, kH + 2 * sy, ch, host.type(), Location::device);
      const ImageView dsrc = dsrc_owner.view().roi({sx, sy, kW, kH});
      texcv::copy(host, dsrc);
      Image dout(kW + 2 * f + 1, kH + 2 * f, ch, dst_type, Location::device);
      test::poison(dout);
      const ImageView inner = dout.view().roi({f, f, kW, kH});
      op(dsrc, inner, path);
      const Image all = test::to_host(dout);
      const ImageView got = all.view().roi({f, f, kW, kH});
      const test::Diff d = test::compare(got, want);
      EXPECT_EQ(d.count, 0) << d.describe();
      EXPECT_EQ(d.nan_or_poison, 0) << d.describe();
      const long outside = test::written_outside(all.view(), {f, f, kW, kH});
      EXPECT_EQ(outside, 0) << "elements written outside the destination";
    }
}

// Random sources: u8/u16 over their whole range, f32 in [-0.5, 1.5).
inline Image source(ElemType t, int channels, std::uint32_t seed) {
  Image r = test::random_image(kW, kH, channels, t, seed);
  if (t != ElemType::f32) return r;
  Image out(kW, kH, channels, ElemType::f32);
  texcv::convert(r, out, 2.0, -0.5);
  return out;
}

inline const ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};

inline const int kChannels[] = {1, 3, 4};

inline const Border kBorders[] = {Border::constant, Border::replicate, Border::reflect,
                                  Border::reflect101, Border::wrap};

inline FilterBorder border_of(Border b) {
  FilterBorder fb;
  fb.border = b;
  fb.value = {11.0, 250.0, 77.0, 130.0};
  return fb;
}

inline std::string name_of(ElemType t, int c, Border b, ElemType dt) {
  return std::string(to_string(t)) + " x" + std::to_string(c) + " " + to_string(b) + " -> " +
         to_string(dt);
}

// Random taps in [-1, 1) with every fourth one zero (the skipped coefficients).
inline std::vector<float> random_taps(int n, std::uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> k(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) k[i] = i % 4 == 1 ? 0.0f : u(g);
  return k;
}

// Calls f(src type, channels, border, seed) over the whole matrix, or over its rows of one
// source type (the same seeds as in the whole matrix).
template <class F>
void for_all(F&& f, std::optional<ElemType> only = std::nullopt) {
  std::uint32_t seed = 1000;
  for (ElemType t : kTypes)
    for (int c : kChannels)
      for (Border b : kBorders) {
        ++seed;
        if (only && t != *only) continue;
        if (sanitizer_subset() && b != Border::constant && b != Border::reflect101) continue;
        f(t, c, b, seed);
      }
}

}  // namespace texcv::filter_cuda_test
