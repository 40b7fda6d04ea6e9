// CPU backend: hand-computed values for borders, interpolation, resize (incl. area), warps, remap,
// flip, crop, and views with padded pitch.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "common/test_support.hpp"
#include "src/core/sampling.hpp"

namespace texcv {
namespace {

// A 1-row u8 image from a string ("abcdefgh" -> 97..104).
Image row_of(const std::string& s) {
  Image img(static_cast<int>(s.size()), 1, 1, ElemType::u8);
  std::memcpy(img.data(), s.data(), s.size());
  return img;
}
std::string string_of(const ImageView& v) {
  return std::string(v.row<const char>(0), static_cast<std::size_t>(v.width));
}

template <typename T>
Image image_of(int w, int h, int c, ElemType t, const std::vector<double>& values) {
  Image img(w, h, c, t);
  for (int y = 0; y < h; ++y)
    for (int i = 0; i < w * c; ++i)
      img.view().row<T>(y)[i] = static_cast<T>(values[static_cast<std::size_t>(y * w * c + i)]);
  return img;
}

template <typename T>
T at(const ImageView& v, int x, int y, int c = 0) {
  return v.row<const T>(y)[static_cast<std::size_t>(x) * v.channels + c];
}

// Shift the row by `shift` pixels (dst x samples src x - shift) with nearest and the given border.
std::string shifted(const std::string& s, int shift, int out_w, Border b) {
  Image src = row_of(s), dst(out_w, 1, 1, ElemType::u8);
  Sampling sm;
  sm.interp = Interp::nearest;
  sm.border = b;
  sm.border_value = {'i', 0, 0, 0};
  warp_affine(src, dst, {1, 0, static_cast<double>(-shift), 0, 1, 0}, true, sm);
  return string_of(dst);
}

TEST(CpuBorders, PatternsOnAbcdefgh) {
  // The table of docs/conventions.md.
  EXPECT_EQ(shifted("abcdefgh", 4, 16, Border::constant), "iiiiabcdefghiiii");
  EXPECT_EQ(shifted("abcdefgh", 4, 16, Border::replicate), "aaaaabcdefghhhhh");
  EXPECT_EQ(shifted("abcdefgh", 4, 16, Border::reflect), "dcbaabcdefghhgfe");
  EXPECT_EQ(shifted("abcdefgh", 4, 16, Border::reflect101), "edcbabcdefghgfed");
  EXPECT_EQ(shifted("abcdefgh", 4, 16, Border::wrap), "efghabcdefghabcd");
}

TEST(CpuBorders, FarOutsideRepeatsPeriodically) {
  EXPECT_EQ(shifted("abcdefgh", 8, 24, Border::reflect), "hgfedcbaabcdefghhgfedcba");
  EXPECT_EQ(shifted("abcdefgh", 8, 24, Border::reflect101), "ghgfedcbabcdefghgfedcbab");
  EXPECT_EQ(shifted("abcdefgh", 8, 24, Border::wrap), "abcdefghabcdefghabcdefgh");
  EXPECT_EQ(shifted("abcdefgh", 8, 24, Border::replicate), "aaaaaaaaabcdefghhhhhhhhh");
  // One pixel: every mode but constant repeats it.
  EXPECT_EQ(shifted("a", 2, 5, Border::reflect101), "aaaaa");
  EXPECT_EQ(shifted("a", 2, 5, Border::reflect), "aaaaa");
  EXPECT_EQ(shifted("a", 2, 5, Border::wrap), "aaaaa");
  EXPECT_EQ(shifted("a", 2, 5, Border::constant), "iiaii");
}

// remap one point of src with interpolation ip (f32 result).
float sample_at(const ImageView& src, float x, float y, Interp ip, Border b = Border::replicate) {
  Image dst(1, 1, 1, ElemType::f32), mx(1, 1, 1, ElemType::f32), my(1, 1, 1, ElemType::f32);
  *static_cast<float*>(mx.data()) = x;
  *static_cast<float*>(my.data()) = y;
  Sampling s;
  s.interp = ip;
  s.border = b;
  remap(src, dst, mx, my, s);
  return *static_cast<float*>(dst.data());
}

TEST(CpuInterp, LinearAtKnownPoints) {
  const Image src = image_of<float>(2, 2, 1, ElemType::f32, {0, 100, 200, 255});
  // r0 = 0 * 0.75 + 100 * 0.25 = 25; r1 = 200 * 0.75 + 255 * 0.25 = 213.75; mean = 119.375.
  EXPECT_EQ(sample_at(src, 0.25f, 0.5f, Interp::linear), 119.375f);
  EXPECT_EQ(sample_at(src, 1.0f, 1.0f, Interp::linear), 255.0f);
  EXPECT_EQ(sample_at(src, 0.5f, 0.0f, Interp::linear), 50.0f);
  // Outside with a constant border of 0: halfway between pixel (1, 0) = 100 and the border.
  EXPECT_EQ(sample_at(src, 1.5f, 0.0f, Interp::linear, Border::constant), 50.0f);
  EXPECT_EQ(sample_at(src, 1.5f, 0.0f, Interp::linear, Border::replicate), 100.0f);
}

TEST(CpuInterp, CubicAtKnownPoints) {
  const Image src = image_of<float>(8, 1, 1, ElemType::f32, {0, 0, 10, 20, 40, 80, 0, 0});
  // t = 0.5, a = -0.75: weights -0.09375, 0.59375, 0.59375, -0.09375 over x = 2..5.
  EXPECT_EQ(sample_at(src, 3.5f, 0.0f, Interp::cubic), -0.9375f + 11.875f + 23.75f - 7.5f);
  // t = 0 reproduces the pixel.
  EXPECT_EQ(sample_at(src, 4.0f, 0.0f, Interp::cubic), 40.0f);
  // t = 0.25: w = (-0.10546875, 0.87890625, 0.26171875, -0.03515625) over x = 2..5.
  EXPECT_EQ(sample_at(src, 3.25f, 0.0f, Interp::cubic),
            -0.10546875f * 10 + 0.87890625f * 20 + 0.26171875f * 40 - 0.03515625f * 80);
}

TEST(CpuInterp, NearestTiesGoUp) {
  const Image src = image_of<float>(4, 1, 1, ElemType::f32, {1, 2, 3, 4});
  EXPECT_EQ(sample_at(src, 1.5f, 0, Interp::nearest), 3.0f);
  EXPECT_EQ(sample_at(src, 1.49f, 0, Interp::nearest), 2.0f);
  EXPECT_EQ(sample_at(src, -0.5f, 0, Interp::nearest, Border::constant), 1.0f);
  EXPECT_EQ(sample_at(src, -0.51f, 0, Interp::nearest, Border::constant), 0.0f);
  EXPECT_EQ(sample_at(src, 3.49f, 0, Interp::nearest, Border::constant), 4.0f);
  EXPECT_EQ(sample_at(src, 3.5f, 0, Interp::nearest, Border::constant), 0.0f);
  // NaN coordinates are far outside: the border value.
  EXPECT_EQ(sample_at(src, std::nanf(""), 0, Interp::linear, Border::constant), 0.0f);
}

TEST(CpuInterp, IntegerTypesRoundHalfEvenAndSaturate) {
  // u8: 0.5 * 1 + 0.5 * 2 = 1.5 -> 2; 0.5 * 2 + 0.5 * 3 = 2.5 -> 2 (half to even).
  const Image src = image_of<std::uint8_t>(4, 1, 1, ElemType::u8, {1, 2, 3, 255});
  Image dst(3, 1, 1, ElemType::u8);
  Sampling s;
  s.interp = Interp::linear;
  warp_affine(src, dst, {1, 0, 0.5, 0, 1, 0}, true, s);
  EXPECT_EQ(at<std::uint8_t>(dst, 0, 0), 2);
  EXPECT_EQ(at<std::uint8_t>(dst, 1, 0), 2);
  EXPECT_EQ(at<std::uint8_t>(dst, 2, 0), 129);
  // Cubic overshoot on a u16 step saturates at both ends.
  const Image step =
      image_of<std::uint16_t>(6, 1, 1, ElemType::u16, {0, 0, 0, 65535, 65535, 65535});
  Image d16(6, 1, 1, ElemType::u16);
  s.interp = Interp::cubic;
  warp_affine(step, d16, {1, 0, 0.25, 0, 1, 0}, true, s);
  // x = 3.25: weights over 2..5 = (-0.105, 0.879, 0.262, -0.035) -> 65535 * 1.10546875 > 65535.
  EXPECT_EQ(at<std::uint16_t>(d16, 3, 0), 65535);
  // x = 1.25: 0 * ... + 65535 * -0.03515625 < 0 -> 0.
  EXPECT_EQ(at<std::uint16_t>(d16, 1, 0), 0);
}

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

TEST(CpuWarp, Rotate90IsExactPermutation) {
  for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic}) {
    Image src = test::random_image(5, 3, 3, ElemType::u16, 3);
    const Rect r = rotated_size(5, 3, 90, true);
    Image dst(r.width, r.height, 3, ElemType::u16);
    Sampling s;
    s.interp = ip;
    rotate(src, dst, 90, s);
    // Counter-clockwise: dst(x, y) = src(w - 1 - y, x).
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 3; ++x)
        for (int c = 0; c < 3; ++c)
          ASSERT_EQ(at<std::uint16_t>(dst, x, y, c), at<std::uint16_t>(src, 4 - y, x, c))
              << to_string(ip);
  }
}

TEST(CpuWarp, PerspectiveHomogeneousScale) {
  Image src = test::random_image(8, 6, 4, ElemType::f32, 5);
  Image dst(4, 3, 4, ElemType::f32);
  Sampling s;
  s.interp = Interp::linear;
  // Inverse map (x, y, 0.5) ~ (2x, 2y): every destination pixel is a source pixel.
  warp_perspective(src, dst, {1, 0, 0, 0, 1, 0, 0, 0, 0.5}, true, s);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x)
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(at<float>(dst, x, y, c), at<float>(src, 2 * x, 2 * y, c));
  // The forward matrix 2 * identity maps every pixel to itself.
  Image same(8, 6, 4, ElemType::f32);
  warp_perspective(src, same, {2, 0, 0, 0, 2, 0, 0, 0, 2}, false, s);
  EXPECT_EQ(test::compare(same, src).count, 0);
  // Affine forward matrix: translation by (+1, +2) shifts content right and down.
  Image sh(8, 6, 4, ElemType::f32);
  warp_affine(src, sh, {1, 0, 1, 0, 1, 2}, false, s);
  EXPECT_EQ(at<float>(sh, 3, 4, 2), at<float>(src, 2, 2, 2));
}

TEST(CpuFlipCrop, Values) {
  const Image src = image_of<std::uint8_t>(3, 2, 1, ElemType::u8, {1, 2, 3, 4, 5, 6});
  Image dst(3, 2, 1, ElemType::u8);
  flip(src, dst, FlipCode::horizontal);
  EXPECT_EQ(
      test::compare(dst, image_of<std::uint8_t>(3, 2, 1, ElemType::u8, {3, 2, 1, 6, 5, 4})).count,
      0);
  flip(src, dst, FlipCode::vertical);
  EXPECT_EQ(
      test::compare(dst, image_of<std::uint8_t>(3, 2, 1, ElemType::u8, {4, 5, 6, 1, 2, 3})).count,
      0);
  flip(src, dst, FlipCode::both);
  EXPECT_EQ(
      test::compare(dst, image_of<std::uint8_t>(3, 2, 1, ElemType::u8, {6, 5, 4, 3, 2, 1})).count,
      0);
  // Whole pixels move: 3-channel f32.
  const Image rgb = image_of<float>(2, 1, 3, ElemType::f32, {1, 2, 3, 4, 5, 6});
  Image frgb(2, 1, 3, ElemType::f32);
  flip(rgb, frgb, FlipCode::horizontal);
  EXPECT_EQ(test::compare(frgb, image_of<float>(2, 1, 3, ElemType::f32, {4, 5, 6, 1, 2, 3})).count,
            0);

  Image big = test::random_image(9, 7, 4, ElemType::u16, 11);
  Image part(4, 3, 4, ElemType::u16);
  crop(big, part, Rect{5, 4, 4, 3});
  EXPECT_EQ(test::compare(part, big.view().roi(Rect{5, 4, 4, 3})).count, 0);
  EXPECT_EQ(at<std::uint16_t>(part, 0, 0, 1), at<std::uint16_t>(big, 5, 4, 1));
}

TEST(CpuViews, PaddedPitchAndOffsetGiveSameResults) {
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
    for (int ch : {1, 3, 4}) {
      Image src = test::random_image(23, 17, ch, t, 42);
      Image owner_s, owner_d;
      const ImageView ps = test::padded_view(owner_s, 23, 17, ch, t, 7, 3, 2);
      copy(src, ps);
      const ImageView pd = test::padded_view(owner_d, 11, 13, ch, t, 5, 1, 4);
      Image dd(11, 13, ch, t);
      Sampling s;
      s.interp = Interp::cubic;
      s.border = Border::reflect101;
      warp_affine(ps, pd, {0.9, 0.2, 1.5, -0.3, 1.1, 0.7}, false, s);
      warp_affine(src, dd, {0.9, 0.2, 1.5, -0.3, 1.1, 0.7}, false, s);
      const test::Diff d = test::compare(pd, dd);
      EXPECT_EQ(d.count, 0) << to_string(t) << " " << ch << ": " << d.describe();
      ResizeParams rp;
      rp.interp = Interp::area;
      resize(ps, pd, rp);
      resize(src, dd, rp);
      EXPECT_EQ(test::compare(pd, dd).count, 0);
      // Poison around the destination view is untouched (the row after it and the pad).
      const ImageView all = owner_d.view();
      const std::size_t pbytes = elem_size(t) * ch;
      const auto* after = all.row<const unsigned char>(4 + 13) + pbytes;
      const auto* pad = all.row<const unsigned char>(4) + pbytes * (1 + 11);
      if (t == ElemType::f32) {
        float a, b;
        std::memcpy(&a, after, 4);
        std::memcpy(&b, pad, 4);
        EXPECT_TRUE(std::isnan(a) && std::isnan(b));
      } else {
        EXPECT_EQ(*after, 0xA5);
        EXPECT_EQ(*pad, 0xA5);
      }
    }
  }
}

}  // namespace
}  // namespace texcv

namespace texcv {
namespace {

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
}  // namespace texcv
