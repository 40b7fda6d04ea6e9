// The non-linear filters on the CUDA backend against the CPU backend: IDENTICAL bits.
// median_blur: every element type (u8, u16, f32) x channel count (1, 3, 4) x ksize 1, 3, 5, 7, 9,
// 15, 31 (the selection networks up to 7, the bitwise selection above, a copy for 1), large
// windows (101 for every type, 255 for u8) on small images, an image several network tiles wide
// and tall, and f32 signed zeros, infinities and NaNs (both backends order f32 by
// detail::float_key, so even these pick the same element). bilateral_filter: u8 and f32 x 1 and
// 3 channels x the five borders (constant with per-channel values outside the f32 range, so the
// table widens) x several d / sigma pairs, a disc of more than one shared-memory chunk, a
// constant f32 image (copied), and f32 non-finite inputs. Both backends use the same host-built
// weight tables and float order, and the library builds with --fmad=false / -ffp-contract=off.
// Each case runs with whole device images and with offset sub-views as source and destination
// (different pitches); device outputs are poisoned first and the frame around a sub-view
// destination must stay poisoned.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

using test::is_poison;

using Op = std::function<void(const ImageView& src, const ImageView& dst)>;

// Whether two elements are the same: equal bits, or (f32) both NaN (NaNs made by arithmetic may
// carry different payloads on the two processors).
bool same_element(const ImageView& a, const ImageView& b, int x, int y, int k) {
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
void expect_same(const std::string& what, const Image& host, const Op& op) {
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
    long outside = 0;
    for (int y = 0; y < all.height(); ++y)
      for (int x = 0; x < all.width(); ++x) {
        if (x >= f && x < f + w && y >= f && y < f + h) continue;
        for (int k = 0; k < ch; ++k)
          if (!is_poison(all.view(), x, y, k)) ++outside;
      }
    EXPECT_EQ(outside, 0) << "elements written outside the destination";
  }
}

// Random sources: u8/u16 over their whole range, f32 in [-0.5, 1.5).
Image source(int w, int h, ElemType t, int channels, std::uint32_t seed) {
  Image r = test::random_image(w, h, channels, t, seed);
  if (t != ElemType::f32) return r;
  Image out(w, h, channels, ElemType::f32);
  texcv::convert(r, out, 2.0, -0.5);
  return out;
}

// Few distinct values (many ties), so equal keys meet at the median rank.
Image few_values(int w, int h, ElemType t, int channels, std::uint32_t seed) {
  Image img(w, h, channels, t);
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> u(0, 3);
  const ImageView v = img.view();
  for (int y = 0; y < h; ++y)
    for (int i = 0; i < w * channels; ++i) {
      const int k = u(g);
      if (t == ElemType::u8) v.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(k * 85);
      if (t == ElemType::u16) v.row<std::uint16_t>(y)[i] = static_cast<std::uint16_t>(k * 21845);
      if (t == ElemType::f32) v.row<float>(y)[i] = static_cast<float>(k) * 0.25f;
    }
  return img;
}

const ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
const int kChannels[] = {1, 3, 4};
const Border kBorders[] = {Border::constant, Border::replicate, Border::reflect, Border::reflect101,
                           Border::wrap};

std::string name_of(ElemType t, int c) {
  return std::string(to_string(t)) + " x" + std::to_string(c);
}

Op median_op(int k) {
  return [k](const ImageView& s, const ImageView& d) { median_blur(s, d, k); };
}

TEST(NonlinearCuda, MedianIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 500;
  for (ElemType t : kTypes)
    for (int c : kChannels) {
      const Image src = source(67, 41, t, c, ++seed);
      for (int k : {1, 3, 5, 7, 9, 15, 31})
        expect_same("median " + std::to_string(k) + " " + name_of(t, c) + " 67x41", src,
                    median_op(k));
    }
}

TEST(NonlinearCuda, MedianTiesIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 600;
  for (ElemType t : kTypes)
    for (int c : kChannels) {
      const Image src = few_values(37, 29, t, c, ++seed);
      for (int k : {3, 5, 7})
        expect_same("median ties " + std::to_string(k) + " " + name_of(t, c), src, median_op(k));
    }
}

TEST(NonlinearCuda, MedianManyTilesIdenticalToCpu) {
  // Wider and taller than several tiles of the network kernels (64 or 128 elements x 32 rows), with
  // a row length that is not a multiple of 4 bytes.
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 700;
  for (ElemType t : kTypes)
    for (int c : kChannels) {
      const Image src = source(301, 77, t, c, ++seed);
      for (int k : {3, 5, 7})
        expect_same("median " + std::to_string(k) + " " + name_of(t, c) + " 301x77", src,
                    median_op(k));
    }
}

TEST(NonlinearCuda, MedianLargeWindowsIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 800;
  for (ElemType t : kTypes)
    for (int c : {1, 3}) {
      const Image src = source(29, 23, t, c, ++seed);
      expect_same("median 101 " + name_of(t, c) + " 29x23", src, median_op(101));
    }
  const Image u8 = source(13, 9, ElemType::u8, 1, 900);
  expect_same("median 255 u8 x1 13x9", u8, median_op(255));
}

TEST(NonlinearCuda, MedianF32SpecialValuesIdenticalToCpu) {
  // Signed zeros, infinities and NaNs (both signs): the CPU and CUDA backends order f32 elements
  // by the same total order, so they select the same element, bit for bit.
  TEXCV_REQUIRE_GPU();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float pool[] = {0.0f, -0.0f, 0.0f, -0.0f, 1.0f, -1.0f, inf, -inf, nan, -nan, 0.5f};
  for (int c : kChannels) {
    Image src(31, 19, c, ElemType::f32);
    std::mt19937 g(1000u + static_cast<std::uint32_t>(c));
    std::uniform_int_distribution<int> u(0, static_cast<int>(std::size(pool)) - 1);
    for (int y = 0; y < 19; ++y)
      for (int i = 0; i < 31 * c; ++i) src.view().row<float>(y)[i] = pool[u(g)];
    for (int k : {3, 5, 7, 9})
      expect_same("median special f32 " + std::to_string(k) + " x" + std::to_string(c), src,
                  median_op(k));
  }
}

FilterBorder border_of(Border b) {
  FilterBorder fb;
  fb.border = b;
  fb.value = {11.0, 250.0, 77.0, 130.0};
  return fb;
}

struct BilateralCase {
  int d;
  double sc, ss;  // sigma_color in u8 units (f32 sources: divided by 255)
};

Op bilateral_op(const BilateralCase& cs, ElemType t, Border b) {
  BilateralParams p;
  p.d = cs.d;
  p.sigma_color = t == ElemType::u8 ? cs.sc : cs.sc / 255.0;
  p.sigma_space = cs.ss;
  p.border = border_of(b);
  return [p](const ImageView& s, const ImageView& d) { bilateral_filter(s, d, p); };
}

std::string bilateral_name(const BilateralCase& cs, ElemType t, int c, Border b) {
  return "bilateral d " + std::to_string(cs.d) + " sc " + std::to_string(cs.sc) + " ss " +
         std::to_string(cs.ss) + " " + name_of(t, c) + " " + to_string(b);
}

TEST(NonlinearCuda, BilateralIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  // d = 0 derives r = round(1.5 * 2) = 3; d = 4 gives r = 2; sigma_color 10 weights steeply
  // (u8 distances reach the table's zeros), 200 almost flat.
  const BilateralCase cases[] = {{3, 30, 2}, {4, 10, 1.5}, {5, 200, 3}, {0, 40, 2}, {9, 75, 5}};
  std::uint32_t seed = 2000;
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int c : {1, 3})
      for (Border b : kBorders) {
        const Image src = source(67, 41, t, c, ++seed);
        for (const BilateralCase& cs : cases)
          expect_same(bilateral_name(cs, t, c, b), src, bilateral_op(cs, t, b));
      }
}

TEST(NonlinearCuda, BilateralLargeDiscIdenticalToCpu) {
  // r = 20: 1257 taps, more than one shared-memory chunk of the disc (1024).
  TEXCV_REQUIRE_GPU();
  const BilateralCase cs{41, 50, 12};
  std::uint32_t seed = 3000;
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int c : {1, 3})
      for (Border b : {Border::constant, Border::reflect101}) {
        const Image src = source(45, 33, t, c, ++seed);
        expect_same(bilateral_name(cs, t, c, b), src, bilateral_op(cs, t, b));
      }
}

TEST(NonlinearCuda, BilateralF32ConstantAndNonFinite) {
  TEXCV_REQUIRE_GPU();
  const BilateralCase cs{5, 40, 2};
  // A constant image: the range is empty, both backends copy (as OpenCV).
  Image flat(23, 17, 3, ElemType::f32);
  for (int y = 0; y < 17; ++y)
    for (int i = 0; i < 23 * 3; ++i) flat.view().row<float>(y)[i] = 0.3f;
  expect_same("bilateral constant f32", flat, bilateral_op(cs, ElemType::f32, Border::reflect101));
  // Infinities and NaNs: the range covers the finite values; both give the same (NaN where the
  // sums meet a non-finite value).
  for (int c : {1, 3}) {
    Image src = source(29, 21, ElemType::f32, c, 4000u + static_cast<std::uint32_t>(c));
    const ImageView v = src.view();
    v.row<float>(3)[5] = std::numeric_limits<float>::quiet_NaN();
    v.row<float>(10)[7 * c] = std::numeric_limits<float>::infinity();
    v.row<float>(15)[20 * c + c - 1] = -std::numeric_limits<float>::infinity();
    for (Border b : {Border::constant, Border::reflect})
      expect_same("bilateral non-finite f32 x" + std::to_string(c) + " " + to_string(b), src,
                  bilateral_op(cs, ElemType::f32, b));
  }
}

TEST(NonlinearCuda, DeviceViewsRunAndValidationIsUnchanged) {
  TEXCV_REQUIRE_GPU();
  Image s(8, 6, 1, ElemType::u8, Location::device), d(8, 6, 1, ElemType::u8, Location::device);
  EXPECT_NO_THROW(median_blur(s, d, 3));
  BilateralParams p;
  p.sigma_color = 10;
  p.sigma_space = 2;
  EXPECT_NO_THROW(bilateral_filter(s, d, p));
  // Parameter and image checks come first, with the host messages.
  test::expect_error([&] { median_blur(s, d, 4); }, ErrorCode::InvalidArgument,
                     "median_blur: ksize must be odd; got 4, expected an odd number from 1 to 255");
  test::expect_error(
      [&] { median_blur(s, d, 257); }, ErrorCode::InvalidArgument,
      "median_blur: ksize is out of range; got 257, expected an odd number from 1 to 255");
  Image s16(8, 6, 1, ElemType::u16, Location::device),
      d16(8, 6, 1, ElemType::u16, Location::device);
  test::expect_error(
      [&] { bilateral_filter(s16, d16, p); }, ErrorCode::Unsupported,
      "bilateral_filter: element type is not supported; got u16, expected u8 or f32");
  BilateralParams bad = p;
  bad.sigma_color = 0;
  test::expect_error(
      [&] { bilateral_filter(s, d, bad); }, ErrorCode::InvalidArgument,
      "bilateral_filter: sigma_color must be positive and finite; got 0, expected > 0");
}

}  // namespace
}  // namespace texcv
