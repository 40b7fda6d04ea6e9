// invert on the CPU backend: every element max - src (255, 65535, 1.0f), hand-computed, for each
// element type and channel count, into a pitched sub-view of a poisoned buffer (nothing written
// beside it), and the errors of a destination that does not fit.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

template <typename T>
void expect_inverted(const ImageView& src, const ImageView& dst, double max) {
  for (int y = 0; y < src.height; ++y)
    for (int i = 0; i < src.width * src.channels; ++i) {
      const double want = max - static_cast<double>(src.row<const T>(y)[i]);
      ASSERT_EQ(static_cast<double>(dst.row<const T>(y)[i]), static_cast<double>(T(want)))
          << "row " << y << " element " << i;
    }
}

TEST(InvertCpu, EveryElementIsMaxMinusTheSource) {
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4}) {
      SCOPED_TRACE(std::string(to_string(t)) + " x" + std::to_string(c));
      const Image src = test::random_image(67, 41, c, t, 7 + c);
      Image buf(67 + 5, 41 + 2, c, t);
      test::poison(buf);
      const ImageView dst = buf.view().roi({2, 1, 67, 41});
      invert(src, dst);
      if (t == ElemType::u8) expect_inverted<std::uint8_t>(src, dst, 255);
      if (t == ElemType::u16) expect_inverted<std::uint16_t>(src, dst, 65535);
      if (t == ElemType::f32) expect_inverted<float>(src, dst, 1.0);
      EXPECT_TRUE(test::is_poison(buf, 0, 0, 0));
      EXPECT_TRUE(test::is_poison(buf, 69, 42, c - 1));
      // Twice is the source again for the integer types (f32's 1 - (1 - x) rounds twice).
      if (t != ElemType::f32) {
        Image back(67, 41, c, t);
        invert(dst, back);
        EXPECT_EQ(test::compare(back.view(), src.view()).count, 0);
      }
    }
}

TEST(InvertCpu, ADestinationThatDoesNotFitIsRefused) {
  const Image src = test::random_image(8, 6, 3, ElemType::u8, 1);
  Image wrong_type(8, 6, 3, ElemType::u16);
  Image wrong_size(7, 6, 3, ElemType::u8);
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { invert(src, wrong_type); }),
            "invert: destination element type differs from the source; got u16, expected u8");
  EXPECT_EQ(message([&] { invert(src, wrong_size); }),
            "invert: destination size differs from the source; got 7x6, expected 8x6");
  // As a pipeline step (the registry), the same pixels.
  const Image a = apply("invert", src, {});
  Image b(8, 6, 3, ElemType::u8);
  invert(src, b);
  EXPECT_EQ(test::compare(a.view(), b.view()).count, 0);
}

}  // namespace
}  // namespace texcv
