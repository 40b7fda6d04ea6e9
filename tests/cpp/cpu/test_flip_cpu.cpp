// flip on the CPU backend: every code on known values, whole pixels moved (with crop beside
// it).
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/geometry_test_util.hpp"

namespace texcv::geometry_cpu_test {
namespace {

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

}  // namespace
}  // namespace texcv::geometry_cpu_test
