// Helpers shared by the CUDA tests of the pointwise colour and intensity ops (test_<op>_cuda.cpp
// of cvt_color, gamma, convert and threshold). Those tests compare the CUDA backend with the
// CPU backend: identical for every element type, channel count, code and
// threshold type, on odd-sized random images, both with aligned whole images (vector loads and
// stores) and with offset sub-views as source and destination (scalar paths). Device outputs are
// poisoned first; the frame around a sub-view destination must stay poisoned.
// The one exception: gamma on f32, whose CUDA (double pow rounded to float) and CPU (the exact
// value rounded to the nearest float: src/cpu/pow_rounded.hpp) results can differ where the
// exact value lies near the midpoint of two floats; those are compared within 1 ulp (every other
// case, including gamma on u8/u16, must be identical).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv::color_cuda_test {

inline constexpr int kW = 67, kH = 41;

// Elements of two f32 views more than max_ulp apart (or NaN on one side only).
inline long f32_ulp_mismatches(const ImageView& a, const ImageView& b, std::int64_t max_ulp) {
  long bad = 0;
  for (int y = 0; y < a.height; ++y) {
    const float* pa = a.row<const float>(y);
    const float* pb = b.row<const float>(y);
    for (int i = 0; i < a.width * a.channels; ++i) {
      if (std::isnan(pa[i]) || std::isnan(pb[i])) {
        bad += std::isnan(pa[i]) != std::isnan(pb[i]);
        continue;
      }
      std::int32_t ia, ib;
      std::memcpy(&ia, &pa[i], 4);
      std::memcpy(&ib, &pb[i], 4);
      // Map the sign-magnitude bit patterns onto a monotonic integer line.
      const std::int64_t la = ia < 0 ? -static_cast<std::int64_t>(ia & 0x7fffffff) : ia;
      const std::int64_t lb = ib < 0 ? -static_cast<std::int64_t>(ib & 0x7fffffff) : ib;
      if (std::llabs(la - lb) > max_ulp) ++bad;
    }
  }
  return bad;
}

using Op = std::function<void(const ImageView& src, const ImageView& dst)>;

// Runs op on the CPU (host src) and on the GPU in two layouts and compares: identical, or within
// max_ulp for f32 when max_ulp > 0.
inline void expect_same(const std::string& what, const Image& host, int dst_channels,
                        ElemType dst_type, const Op& op, std::int64_t max_ulp = 0) {
  Image want(kW, kH, dst_channels, dst_type);
  op(host, want);
  for (int layout : {0, 1}) {
    SCOPED_TRACE(what + (layout ? " (offset sub-views)" : " (whole images)"));
    // layout 1: the source at (3, 1) of a larger device image, the destination at (1, 1).
    const int sx = layout ? 3 : 0, sy = layout ? 1 : 0, f = layout;
    Image dsrc_owner(kW + 2 * sx, kH + 2 * sy, host.channels(), host.type(), Location::device);
    const ImageView dsrc = dsrc_owner.view().roi({sx, sy, kW, kH});
    texcv::copy(host, dsrc);
    Image dout(kW + 2 * f + 1, kH + 2 * f, dst_channels, dst_type, Location::device);
    test::poison(dout);
    const ImageView inner = dout.view().roi({f, f, kW, kH});
    op(dsrc, inner);
    const Image all = test::to_host(dout);
    const ImageView got = all.view().roi({f, f, kW, kH});
    if (max_ulp > 0) {
      ASSERT_EQ(dst_type, ElemType::f32);
      EXPECT_EQ(f32_ulp_mismatches(got, want, max_ulp), 0)
          << "elements more than " << max_ulp << " ulp apart; "
          << test::compare(got, want).describe();
    } else {
      const test::Diff d = test::compare(got, want);
      EXPECT_EQ(d.count, 0) << d.describe();
      EXPECT_EQ(d.nan_or_poison, 0) << d.describe();
    }
    const long outside = test::written_outside(all.view(), {f, f, kW, kH});
    EXPECT_EQ(outside, 0) << "elements written outside the destination";
  }
}

// A random f32 image mapped to [lo, hi): the helpers give [0, 1).
inline Image random_f32(int channels, std::uint32_t seed, float lo, float hi) {
  const Image r = test::random_image(kW, kH, channels, ElemType::f32, seed);
  Image out(kW, kH, channels, ElemType::f32);
  texcv::convert(r, out, hi - lo, lo);
  return out;
}

inline Image random_of(ElemType t, int channels, std::uint32_t seed) {
  return test::random_image(kW, kH, channels, t, seed);
}

inline const ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};

inline const int kChannels[] = {1, 3, 4};

}  // namespace texcv::color_cuda_test
