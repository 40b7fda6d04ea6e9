// The CPU backend's sampling conventions, shared by the geometric operations: the border
// patterns of docs/conventions.md (also far outside), interpolation at known points (remap and
// warp_affine), and views with padded pitch and offset (warp_affine, resize). Each op's own
// tests are in test_<op>_cpu.cpp.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/geometry_test_util.hpp"

namespace texcv::geometry_cpu_test {
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
}  // namespace texcv::geometry_cpu_test
