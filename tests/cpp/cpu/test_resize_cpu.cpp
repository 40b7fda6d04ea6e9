// resize on the CPU backend: hand-computed linear, nearest, align_corners and area values; the
// two passes bit for bit the per-pixel sampler of src/core/sampling.hpp (which the CUDA backend
// runs); half size as the 2x2 mean rounded half to even.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/geometry_test_util.hpp"
#include "src/core/sampling.hpp"

namespace texcv::geometry_cpu_test {
namespace {

TEST(CpuResize, LinearNearestAlignCorners) {
  const Image src = image_of<float>(2, 1, 1, ElemType::f32, {0, 100});
  Image dst(4, 1, 1, ElemType::f32);
  resize(src, dst);  // sx = -0.25, 0.25, 0.75, 1.25 with replicate
  EXPECT_EQ(at<float>(dst, 0, 0), 0.0f);
  EXPECT_EQ(at<float>(dst, 1, 0), 25.0f);
  EXPECT_EQ(at<float>(dst, 2, 0), 75.0f);
  EXPECT_EQ(at<float>(dst, 3, 0), 100.0f);

  const Image five = image_of<float>(5, 1, 1, ElemType::f32, {10, 11, 12, 13, 14});
  Image three(3, 1, 1, ElemType::f32);
  ResizeParams p;
  p.interp = Interp::nearest;  // floor((x + 0.5) * 5 / 3) = 0, 2, 4
  resize(five, three, p);
  EXPECT_EQ(at<float>(three, 0, 0), 10.0f);
  EXPECT_EQ(at<float>(three, 1, 0), 12.0f);
  EXPECT_EQ(at<float>(three, 2, 0), 14.0f);

  // 2:1 shrink: floor((x + 0.5) * 2) is an exact tie; OpenCV's 16.16 fixed point (step 131072,
  // index (131072 x + 65535) >> 16) picks 0, 2, so does texcv.
  const Image four = image_of<float>(4, 1, 1, ElemType::f32, {10, 11, 12, 13});
  Image two(2, 1, 1, ElemType::f32);
  resize(four, two, p);
  EXPECT_EQ(at<float>(two, 0, 0), 10.0f);
  EXPECT_EQ(at<float>(two, 1, 0), 12.0f);

  const Image src3 = image_of<float>(3, 1, 1, ElemType::f32, {0, 10, 30});
  Image dst5(5, 1, 1, ElemType::f32);
  ResizeParams a;
  a.align_corners = true;  // x * 2 / 4 = 0, 0.5, 1, 1.5, 2
  resize(src3, dst5, a);
  const float want[5] = {0, 5, 10, 20, 30};
  for (int x = 0; x < 5; ++x) EXPECT_EQ(at<float>(dst5, x, 0), want[x]) << x;
}

TEST(CpuResize, AreaExactAverages) {
  // 3x3 -> 2x2, scale 1.5: weights (2/3, 1/3) and (1/3, 2/3) per axis.
  std::vector<double> v(9);
  for (int i = 0; i < 9; ++i) v[i] = i;
  const Image src = image_of<float>(3, 3, 1, ElemType::f32, v);
  Image dst(2, 2, 1, ElemType::f32);
  ResizeParams p;
  p.interp = Interp::area;
  resize(src, dst, p);
  // (4*0 + 2*1 + 2*3 + 1*4) / 9 and (1*4 + 2*5 + 2*7 + 4*8) / 9; tolerance: float32 weights.
  EXPECT_NEAR(at<float>(dst, 0, 0), 12.0 / 9, 1e-6);
  EXPECT_NEAR(at<float>(dst, 1, 1), 60.0 / 9, 1e-6);
  EXPECT_NEAR(at<float>(dst, 1, 0), (2 * 1 + 4 * 2 + 1 * 4 + 2 * 5) / 9.0, 1e-6);

  // u8 3:1 integer shrink: means 7/3 -> 2 and 61/3 -> 20.
  const Image u = image_of<std::uint8_t>(6, 1, 1, ElemType::u8, {1, 2, 4, 10, 20, 31});
  Image du(2, 1, 1, ElemType::u8);
  resize(u, du, p);
  EXPECT_EQ(at<std::uint8_t>(du, 0, 0), 2);
  EXPECT_EQ(at<std::uint8_t>(du, 1, 0), 20);

  // 4x4 -> 2x2 of 3 channels: exact block means.
  Image r = test::random_image(4, 4, 3, ElemType::f32, 7);
  Image dr(2, 2, 3, ElemType::f32);
  resize(r, dr, p);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x)
      for (int c = 0; c < 3; ++c) {
        const double m =
            (at<float>(r, 2 * x, 2 * y, c) + at<float>(r, 2 * x + 1, 2 * y, c) +
             at<float>(r, 2 * x, 2 * y + 1, c) + at<float>(r, 2 * x + 1, 2 * y + 1, c)) /
            4;
        EXPECT_NEAR(at<float>(dr, x, y, c), m, 1e-6);
      }
}

TEST(CpuResize, AreaUpscaleUsesOpenCVFractions) {
  // 2 -> 4 with area: fx = (x + 1) - (floor(x / 2) + 1) * 2 mod 1 = 0, 0, 0, 0 -> pixel copies?
  // floor(x * 0.5) = 0, 0, 1, 1; f = (x + 1) - (s + 1) * 2 = -1, 0, -1, 0 -> 0: nearest-like.
  const Image src = image_of<float>(2, 1, 1, ElemType::f32, {0, 100});
  Image dst(4, 1, 1, ElemType::f32);
  ResizeParams p;
  p.interp = Interp::area;
  resize(src, dst, p);
  const float want[4] = {0, 0, 100, 100};
  for (int x = 0; x < 4; ++x) EXPECT_EQ(at<float>(dst, x, 0), want[x]) << x;
  // 2 -> 3: scale 2/3; x = 1: s = 0, f = 2 - 1.5 = 0.5 -> 50.
  Image d3(3, 1, 1, ElemType::f32);
  resize(src, d3, p);
  EXPECT_EQ(at<float>(d3, 0, 0), 0.0f);
  EXPECT_EQ(at<float>(d3, 1, 0), 50.0f);
  EXPECT_EQ(at<float>(d3, 2, 0), 100.0f);
}

// Linear resize to exactly half size (the batch pipeline's resize 0.5, which the CPU backend
// runs without its per-pixel tables), and area resize there, is, by the documented formulas, the
// 2x2 mean: for u8/u16
// (a + b + c + d) / 4 exactly, rounded half to even (random data makes many ties); for f32 the
// formula's float operations with every weight 0.5. Size and factor forms, every channel count,
// a padded source view, and an odd source (the last column's taps leave the image: the general
// path, its border replicated) beside it.
// resize's two passes (linear, cubic, area enlarging: x sums per source row, then y) against
// sampling.hpp's per-pixel sampler (sample_linear / sample_cubic, and bilinear at
// area_upscale_coord with fetch's border), which the CUDA backend runs: bit for bit, every type,
// channel count and border (constant with a value), enlarging, shrinking, mixed, align_corners,
// the factor form, a padded source.
TEST(GeometryCpu, TwoPassResizeIsThePerPixelSamplerBitForBit) {
  namespace sd = texcv::detail;
  struct Case {
    int sw, sh, dw, dh;
    double fx, fy;
    bool corners;
  };
  const Case cases[] = {{37, 23, 64, 40, 0, 0, false},    {37, 23, 11, 7, 0, 0, false},
                        {37, 23, 70, 9, 0, 0, false},     {37, 23, 63, 39, 1.7, 1.7, false},
                        {37, 23, 11, 7, 0.3, 0.3, false}, {37, 23, 64, 40, 0, 0, true},
                        {5, 4, 1, 9, 0, 0, false},        {2, 2, 9, 9, 0, 0, true}};
  for (Interp ip : {Interp::linear, Interp::cubic, Interp::area})
    for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
      for (int ch : {1, 3, 4})
        for (const Case& cs : cases)
          for (Border b : {Border::constant, Border::replicate, Border::reflect, Border::reflect101,
                           Border::wrap}) {
            if (ip == Interp::area && cs.corners) continue;
            const bool area_up = ip == Interp::area;
            if (area_up && cs.dw < cs.sw && cs.dh < cs.sh) continue;  // the shrink: its own path
            Image owner;
            const ImageView src = test::padded_view(owner, cs.sw, cs.sh, ch, t, 3, 1, 1);
            copy(test::random_image(cs.sw, cs.sh, ch, t, static_cast<std::uint32_t>(cs.dw + ch)),
                 src);
            Image dst(cs.dw, cs.dh, ch, t);
            test::poison(dst.view());
            ResizeParams p;
            p.interp = ip;
            p.border = b;
            p.border_value = {17, 40, 3, 250};  // whole: integer types round it
            p.align_corners = cs.corners;
            p.fx = cs.fx;
            p.fy = cs.fy;
            resize(src, dst, p);
            // src/core/ops/resize.cpp's coordinates.
            const double isx = cs.fx > 0 ? cs.fx : static_cast<double>(cs.dw) / cs.sw;
            const double isy = cs.fy > 0 ? cs.fy : static_cast<double>(cs.dh) / cs.sh;
            sd::ResizeAxis ax{1.0 / isx, false}, ay{1.0 / isy, false};
            if (cs.corners) {
              ax = {cs.dw > 1 ? (cs.sw - 1.0) / (cs.dw - 1) : 0.0, true};
              ay = {cs.dh > 1 ? (cs.sh - 1.0) / (cs.dh - 1) : 0.0, true};
            }
            float bv[4];
            for (int c = 0; c < 4; ++c) bv[c] = static_cast<float>(p.border_value[c]);
            const auto check = [&](auto tag) {
              using T = decltype(tag);
              // The per-pixel reference for C channels.
              const auto pixel = [&](auto cc, int x, int y, float* out) {
                constexpr int C = decltype(cc)::value;
                const sd::PitchedSource<T, C> s{static_cast<const unsigned char*>(src.data),
                                                src.pitch, src.width, src.height};
                if (!area_up) {
                  sd::sample<C>(s, ax(x), ay(y), ip, b, bv, out);
                  return;
                }
                int x0, y0;
                float fx, fy;
                sd::area_upscale_coord(x, 1.0 / isx, isx, x0, fx);
                sd::area_upscale_coord(y, 1.0 / isy, isy, y0, fy);
                float p00[C], p01[C], p10[C], p11[C];
                sd::fetch<C>(s, x0, y0, b, bv, p00);
                sd::fetch<C>(s, x0 + 1, y0, b, bv, p01);
                sd::fetch<C>(s, x0, y0 + 1, b, bv, p10);
                sd::fetch<C>(s, x0 + 1, y0 + 1, b, bv, p11);
                for (int c = 0; c < C; ++c) {
                  const float r0 = p00[c] * (1.0f - fx) + p01[c] * fx;
                  const float r1 = p10[c] * (1.0f - fx) + p11[c] * fx;
                  out[c] = r0 * (1.0f - fy) + r1 * fy;
                }
              };
              for (int y = 0; y < cs.dh; ++y)
                for (int x = 0; x < cs.dw; ++x) {
                  float out[4];
                  if (ch == 1) pixel(std::integral_constant<int, 1>{}, x, y, out);
                  if (ch == 3) pixel(std::integral_constant<int, 3>{}, x, y, out);
                  if (ch == 4) pixel(std::integral_constant<int, 4>{}, x, y, out);
                  const T* got = dst.view().row<const T>(y) + static_cast<std::size_t>(x) * ch;
                  for (int c = 0; c < ch; ++c) {
                    const T want = sd::saturate<T>(out[c]);
                    ASSERT_EQ(std::memcmp(&got[c], &want, sizeof(T)), 0)
                        << to_string(ip) << " " << to_string(t) << " x" << ch << " " << cs.sw << "x"
                        << cs.sh << " -> " << cs.dw << "x" << cs.dh << " border "
                        << static_cast<int>(b) << (cs.corners ? " corners" : "") << " at " << x
                        << "," << y << "," << c << ": " << static_cast<double>(got[c])
                        << " against " << static_cast<double>(want);
                  }
                }
            };
            if (t == ElemType::u8) check(std::uint8_t{});
            if (t == ElemType::u16) check(std::uint16_t{});
            if (t == ElemType::f32) check(float{});
            if (HasFatalFailure()) return;
          }
}

TEST(GeometryCpu, HalfSizeLinearIsTheTwoByTwoMeanRoundedHalfToEven) {
  for (Interp ip : {Interp::linear, Interp::area})
    for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
      for (int ch : {1, 3, 4})
        for (const auto& [sw, sh, factor] :
             {std::tuple{202, 66, false}, std::tuple{202, 66, true}, std::tuple{203, 67, true}}) {
          Image owner;
          const ImageView src = test::padded_view(owner, sw, sh, ch, t, 5, 1, 2);
          copy(test::random_image(sw, sh, ch, t, static_cast<std::uint32_t>(sw + ch)), src);
          const int dw = static_cast<int>(std::nearbyint(sw * 0.5));  // ties to even, as cvRound
          const int dh = static_cast<int>(std::nearbyint(sh * 0.5));
          Image dst(dw, dh, ch, t);
          test::poison(dst.view());
          ResizeParams p;
          p.interp = ip;
          if (factor) p.fx = p.fy = 0.5;
          resize(src, dst, p);
          for (int y = 0; y < dh; ++y)
            for (int x = 0; x < dw; ++x)
              for (int c = 0; c < ch; ++c) {
                // The taps (2x, 2y) .. (2x + 1, 2y + 1), replicated at the right and bottom ends.
                const auto at = [&](int xx, int yy) {
                  return test::at(src, std::min(xx, sw - 1), std::min(yy, sh - 1), c);
                };
                const double a = at(2 * x, 2 * y), b = at(2 * x + 1, 2 * y);
                const double cc = at(2 * x, 2 * y + 1), d = at(2 * x + 1, 2 * y + 1);
                double want;
                if (ip == Interp::area && (sw % 2 || sh % 2)) continue;  // area: other cells
                if (t == ElemType::f32) {
                  const float r0 = static_cast<float>(a) * 0.5f + static_cast<float>(b) * 0.5f;
                  const float r1 = static_cast<float>(cc) * 0.5f + static_cast<float>(d) * 0.5f;
                  want = r0 * 0.5f + r1 * 0.5f;
                } else {
                  want = std::nearbyint((a + b + cc + d) / 4.0);  // half to even
                }
                ASSERT_EQ(test::at(dst, x, y, c), want)
                    << to_string(ip) << " " << to_string(t) << " x" << ch << " " << sw << "x" << sh
                    << (factor ? " factor" : " size") << " at " << x << "," << y << "," << c;
              }
        }
}

}  // namespace
}  // namespace texcv::geometry_cpu_test
