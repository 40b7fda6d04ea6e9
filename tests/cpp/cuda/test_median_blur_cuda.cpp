// median_blur on the CUDA backend: IDENTICAL bits to the CPU backend (cuda/same_bits_test_util.hpp)
// for every element type (u8, u16, f32) x channel count (1, 3, 4) x ksize 1, 3, 5, 7, 9, 15, 31
// (the selection networks up to 7, the bitwise selection above, a copy for 1), large windows
// (101 for every type, 255 for u8) on small images, an image several network tiles wide and
// tall, many ties, and f32 signed zeros, infinities and NaNs (both backends order f32 by
// detail::float_key, so even these pick the same element). Device views run with the host's
// validation messages (bilateral_filter's too).
#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <string>

#include "common/test_support.hpp"
#include "cuda/same_bits_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::same_bits_cuda_test {
namespace {

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
}  // namespace texcv::same_bits_cuda_test
