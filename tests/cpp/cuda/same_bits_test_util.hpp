// Helpers shared by the CUDA tests of median_blur and bilateral_filter (test_median_blur_cuda.cpp,
// test_bilateral_filter_cuda.cpp). Those tests compare the CUDA backend with the CPU backend:
// IDENTICAL bits (f32 NaNs made by arithmetic: any NaN), with whole device images and with offset
// sub-views as source and destination (different pitches); device outputs are poisoned first and
// the frame around a sub-view destination must stay poisoned. Both backends use the same
// host-built tables and float order, and the library builds with --fmad=false /
// -ffp-contract=off.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv::same_bits_cuda_test {

using Op = std::function<void(const ImageView& src, const ImageView& dst)>;

// Whether two elements are the same: equal bits, or (f32) both NaN (NaNs made by arithmetic may
// carry different payloads on the two processors).
inline bool same_element(const ImageView& a, const ImageView& b, int x, int y, int k) {
  const std::size_t es = elem_size(a.type);
  const auto* pa =
      static_cast<const unsigned char*>(a.data) + a.pitch * y + es * (x * a.channels + k);
  const auto* pb =
      static_cast<const unsigned char*>(b.data) + b.pitch * y + es * (x * b.channels + k);
  if (std::memcmp(pa, pb, es) == 0) return true;
  if (a.type != ElemType::f32) return false;
  float fa, fb;
  std::memcpy(&fa, pa, 4);
  std::memcpy(&fb, pb, 4);
  return std::isnan(fa) && std::isnan(fb);
}

// Runs op on the CPU (host image) and on the GPU in two layouts; the results must be identical.
inline void expect_same(const std::string& what, const Image& host, const Op& op) {
  const int w = host.width(), h = host.height(), ch = host.channels();
  Image want(w, h, ch, host.type());
  op(host, want);
  for (int layout : {0, 1}) {
    SCOPED_TRACE(what + (layout ? " (offset sub-views)" : " (whole images)"));
    // layout 1: the source at (3, 1) of a larger device image, the destination at (1, 1) of a
    // poisoned one (its pitch then also differs from the source's).
    const int sx = layout ? 3 : 0, sy = layout ? 1 : 0, f = layout;
    Image dsrc_owner(w + 2 * sx, h + 2 * sy, ch, host.type(), Location::device);
    const ImageView dsrc = dsrc_owner.view().roi({sx, sy, w, h});
    texcv::copy(host, dsrc);
    Image dout(w + 2 * f + 1, h + 2 * f, ch, host.type(), Location::device);
    test::poison(dout);
    const ImageView inner = dout.view().roi({f, f, w, h});
    op(dsrc, inner);
    const Image all = test::to_host(dout);
    const ImageView got = all.view().roi({f, f, w, h});
    long differ = 0;
    std::string first;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        for (int k = 0; k < ch; ++k)
          if (!same_element(got, want.view(), x, y, k)) {
            if (differ++ == 0)
              first = "first at (" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                      std::to_string(k) + "): got " + std::to_string(test::at(got, x, y, k)) +
                      ", want " + std::to_string(test::at(want.view(), x, y, k));
          }
    EXPECT_EQ(differ, 0) << first << "; " << test::compare(got, want).describe();
    const long outside = test::written_outside(all.view(), {f, f, w, h});
    EXPECT_EQ(outside, 0) << "elements written outside the destination";
  }
}

// Random sources: u8/u16 over their whole range, f32 in [-0.5, 1.5).
inline Image source(int w, int h, ElemType t, int channels, std::uint32_t seed) {
  Image r = test::random_image(w, h, channels, t, seed);
  if (t != ElemType::f32) return r;
  Image out(w, h, channels, ElemType::f32);
  texcv::convert(r, out, 2.0, -0.5);
  return out;
}

inline const ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};

inline const int kChannels[] = {1, 3, 4};

inline std::string name_of(ElemType t, int c) {
  return std::string(to_string(t)) + " x" + std::to_string(c);
}

}  // namespace texcv::same_bits_cuda_test
