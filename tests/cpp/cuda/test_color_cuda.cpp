// The pointwise colour and intensity ops on the CUDA backend (cvt_color, gamma, convert,
// threshold) against the CPU backend: identical for every element type, channel count, code and
// threshold type, on odd-sized random images, both with aligned whole images (vector loads and
// stores) and with offset sub-views as source and destination (scalar paths). Device outputs are
// poisoned first; the frame around a sub-view destination must stay poisoned.
// The one exception: gamma on f32, whose CUDA (double pow rounded to float) and CPU (the exact
// value rounded to the nearest float: src/cpu/pow_rounded.hpp) results can differ where the
// exact value lies near the midpoint of two floats; those are compared within 1 ulp (every other
// case, including gamma on u8/u16, must be identical).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

constexpr int kW = 67, kH = 41;

using test::is_poison;

// Elements of two f32 views more than max_ulp apart (or NaN on one side only).
long f32_ulp_mismatches(const ImageView& a, const ImageView& b, std::int64_t max_ulp) {
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
void expect_same(const std::string& what, const Image& host, int dst_channels, ElemType dst_type,
                 const Op& op, std::int64_t max_ulp = 0) {
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
    long outside = 0;
    for (int y = 0; y < all.height(); ++y)
      for (int x = 0; x < all.width(); ++x) {
        if (x >= f && x < f + kW && y >= f && y < f + kH) continue;
        for (int k = 0; k < dst_channels; ++k)
          if (!is_poison(all.view(), x, y, k)) ++outside;
      }
    EXPECT_EQ(outside, 0) << "elements written outside the destination";
  }
}

// A random f32 image mapped to [lo, hi): the helpers give [0, 1).
Image random_f32(int channels, std::uint32_t seed, float lo, float hi) {
  const Image r = test::random_image(kW, kH, channels, ElemType::f32, seed);
  Image out(kW, kH, channels, ElemType::f32);
  texcv::convert(r, out, hi - lo, lo);
  return out;
}

Image random_of(ElemType t, int channels, std::uint32_t seed) {
  return test::random_image(kW, kH, channels, t, seed);
}

const ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
const int kChannels[] = {1, 3, 4};

TEST(ColorCuda, ConvertIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Sa {
    double scale, offset;
  };
  // Identity, a scale that saturates u8 and u16 both ways, and an f32-range mapping.
  const Sa params[] = {{1.0, 0.0}, {1.7, -40.25}, {300.0, -20.5}, {1.0 / 255.0, 0.125}};
  std::uint32_t seed = 100;
  for (ElemType st : kTypes)
    for (int c : kChannels) {
      const Image src =
          st == ElemType::f32 ? random_f32(c, ++seed, -0.5f, 1.5f) : random_of(st, c, ++seed);
      for (ElemType dt : kTypes)
        for (const Sa& p : params)
          expect_same(std::string("convert ") + to_string(st) + " -> " + to_string(dt) + " x" +
                          std::to_string(c) + " scale " + std::to_string(p.scale) + " offset " +
                          std::to_string(p.offset),
                      src, c, dt, [&](const ImageView& s, const ImageView& d) {
                        texcv::convert(s, d, p.scale, p.offset);
                      });
    }
}

TEST(ColorCuda, GammaIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 200;
  for (ElemType t : kTypes)
    for (int c : kChannels) {
      // f32 includes negative values (sign(in) * |in|^gamma) and values above 1.
      const Image src =
          t == ElemType::f32 ? random_f32(c, ++seed, -1.5f, 2.0f) : random_of(t, c, ++seed);
      for (double g : {0.45, 1.0, 2.2, 3.7})
        expect_same(
            std::string("gamma ") + to_string(t) + " x" + std::to_string(c) + " g " +
                std::to_string(g),
            src, c, t, [&](const ImageView& s, const ImageView& d) { texcv::gamma(s, d, g); },
            t == ElemType::f32 ? 1 : 0);
    }
}

TEST(ColorCuda, ThresholdIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  const ThresholdType types[] = {ThresholdType::binary, ThresholdType::binary_inv,
                                 ThresholdType::trunc, ThresholdType::tozero,
                                 ThresholdType::tozero_inv};
  std::uint32_t seed = 300;
  for (ElemType t : kTypes)
    for (int c : kChannels) {
      const Image src = random_of(t, c, ++seed);
      // Fractional thresholds (floored for integer types), a maxval to round and saturate.
      const double th = t == ElemType::u8 ? 127.6 : t == ElemType::u16 ? 30000.5 : 0.4;
      const double mv = t == ElemType::u8 ? 300.4 : t == ElemType::u16 ? 50000.5 : 0.9;
      for (ThresholdType tt : types) {
        double got_cpu = 0, got_gpu = 0;
        expect_same(std::string("threshold ") + to_string(tt) + " " + to_string(t) + " x" +
                        std::to_string(c),
                    src, c, t, [&](const ImageView& s, const ImageView& d) {
                      const double r = texcv::threshold(s, d, th, mv, tt);
                      (s.location == Location::device ? got_gpu : got_cpu) = r;
                    });
        EXPECT_EQ(got_gpu, got_cpu) << "returned threshold";
      }
    }
}

TEST(ColorCuda, CvtColorIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Code {
    ColorCode code;
    int sc, dc;
    bool hsv;
  };
  const Code codes[] = {
      {ColorCode::rgb2bgr, 3, 3, false},       {ColorCode::rgba2bgra, 4, 4, false},
      {ColorCode::rgb2gray, 3, 1, false},      {ColorCode::bgr2gray, 3, 1, false},
      {ColorCode::rgba2gray, 4, 1, false},     {ColorCode::bgra2gray, 4, 1, false},
      {ColorCode::gray2rgb, 1, 3, false},      {ColorCode::gray2rgba, 1, 4, false},
      {ColorCode::rgb2yuv_bt601, 3, 3, false}, {ColorCode::rgb2yuv_bt601_limited, 3, 3, false},
      {ColorCode::rgb2yuv_bt709, 3, 3, false}, {ColorCode::rgb2yuv_bt709_limited, 3, 3, false},
      {ColorCode::yuv2rgb_bt601, 3, 3, false}, {ColorCode::yuv2rgb_bt601_limited, 3, 3, false},
      {ColorCode::yuv2rgb_bt709, 3, 3, false}, {ColorCode::yuv2rgb_bt709_limited, 3, 3, false},
      {ColorCode::rgb2hsv, 3, 3, true},        {ColorCode::bgr2hsv, 3, 3, true},
      {ColorCode::hsv2rgb, 3, 3, true},        {ColorCode::hsv2bgr, 3, 3, true},
  };
  std::uint32_t seed = 400;
  for (const Code& k : codes)
    for (ElemType t : kTypes) {
      if (k.hsv && t == ElemType::u16) continue;  // not supported by the code (checked below)
      Image src = random_of(t, k.sc, ++seed);
      if (t == ElemType::f32 && (k.code == ColorCode::hsv2rgb || k.code == ColorCode::hsv2bgr)) {
        // f32 HSV input: H in [0, 360) (also a little outside), S and V in [0, 1).
        const Image h = random_f32(3, ++seed, -10.0f, 370.0f);
        for (int y = 0; y < kH; ++y)
          for (int x = 0; x < kW; ++x)
            src.view().row<float>(y)[x * 3] = h.view().row<const float>(y)[x * 3];
      }
      expect_same(std::string("cvt_color ") + to_string(k.code) + " " + to_string(t), src, k.dc, t,
                  [&](const ImageView& s, const ImageView& d) { texcv::cvt_color(s, d, k.code); });
    }
  // Gray pixels (R = G = B) take HSV's zero-saturation branch: include a gray-only image too.
  for (ElemType t : {ElemType::u8, ElemType::f32}) {
    const Image g = random_of(t, 1, ++seed);
    Image rgb(kW, kH, 3, t);
    texcv::cvt_color(g, rgb, ColorCode::gray2rgb);
    expect_same(std::string("cvt_color rgb2hsv gray ") + to_string(t), rgb, 3, t,
                [&](const ImageView& s, const ImageView& d) {
                  texcv::cvt_color(s, d, ColorCode::rgb2hsv);
                });
  }
}

TEST(ColorCuda, Hsv16RejectedOnDevice) {
  TEXCV_REQUIRE_GPU();
  Image s16(8, 8, 3, ElemType::u16, Location::device),
      d16(8, 8, 3, ElemType::u16, Location::device);
  try {
    texcv::cvt_color(s16, d16, ColorCode::rgb2hsv);
    ADD_FAILURE() << "rgb2hsv on u16 did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
  }
  // threshold with Otsu runs on the device now: tests/cpp/cuda/test_hist_cuda.cpp.
}

}  // namespace
}  // namespace texcv
