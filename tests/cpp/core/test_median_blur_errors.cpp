// Validation of median_blur (include/texcv/filters.hpp): sizes and images, exact messages and
// codes. Device images without CUDA: test_bilateral_filter_errors.cpp (both ops).
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "core/error_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::error_test {
namespace {

TEST(NonlinearErrors, MedianSizes) {
  Image s(8, 6, 3, ElemType::u8), d(8, 6, 3, ElemType::u8);
  expect_error([&] { median_blur(s, d, 4); }, kInvalid,
               "median_blur: ksize must be odd; got 4, expected an odd number from 1 to 255");
  expect_error([&] { median_blur(s, d, 0); }, kInvalid,
               "median_blur: ksize must be odd; got 0, expected an odd number from 1 to 255");
  expect_error([&] { median_blur(s, d, -3); }, kInvalid,
               "median_blur: ksize is out of range; got -3, expected an odd number from 1 to 255");
  expect_error([&] { median_blur(s, d, 257); }, kInvalid,
               "median_blur: ksize is out of range; got 257, expected an odd number from 1 to 255");
}

TEST(NonlinearErrors, MedianImages) {
  Image s(8, 6, 3, ElemType::u8), d16(8, 6, 3, ElemType::u16), small(7, 6, 3, ElemType::u8);
  EXPECT_THROW(median_blur(s, d16, 3), Error);
  EXPECT_THROW(median_blur(s, small, 3), Error);
  expect_error([&] { median_blur(s, s, 3); }, kInvalid,
               "median_blur: output aliasing input; got destination bytes overlapping the source, "
               "expected separate memory");
}

}  // namespace
}  // namespace texcv::error_test
