// Validation of sobel (include/texcv/filters.hpp): derivative orders and kernel sizes (scharr's
// and laplacian's beside them), exact messages and codes.
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "core/error_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::error_test {
namespace {

TEST(FilterErrors, DerivativeOrders) {
  Pair p;
  expect_error(
      [&] {
        sobel(p.src, p.dst, SobelParams{1, 0, 4, 1, 0, {}});
      },
      kInvalid, "sobel: ksize must be odd; got 4, expected 1, 3, 5 or 7");
  expect_error(
      [&] {
        sobel(p.src, p.dst, SobelParams{1, 0, 9, 1, 0, {}});
      },
      kInvalid, "sobel: ksize is not supported; got 9, expected 1, 3, 5 or 7");
  expect_error(
      [&] {
        sobel(p.src, p.dst, SobelParams{0, 0, 3, 1, 0, {}});
      },
      kInvalid, "sobel: derivative orders are both zero; got dx=0, dy=0, expected dx + dy > 0");
  expect_error(
      [&] {
        sobel(p.src, p.dst, SobelParams{-1, 1, 3, 1, 0, {}});
      },
      kInvalid, "sobel: derivative order must not be negative; got dx=-1, expected >= 0");
  expect_error(
      [&] {
        sobel(p.src, p.dst, SobelParams{3, 0, 3, 1, 0, {}});
      },
      kInvalid,
      "sobel: derivative order is too high for the kernel size; got dx=3 with ksize 3, "
      "expected dx < 3");
  expect_error(
      [&] {
        sobel(p.src, p.dst, SobelParams{0, 3, 1, 1, 0, {}});
      },
      kInvalid,
      "sobel: derivative order is too high for the kernel size; got dy=3 with ksize 1, "
      "expected dy < 3");
  expect_error(
      [&] {
        scharr(p.src, p.dst, ScharrParams{1, 1, 1, 0, {}});
      },
      kInvalid,
      "scharr: derivative orders are not supported; got dx=1, dy=1, expected dx=1, dy=0 "
      "or dx=0, dy=1");
  expect_error(
      [&] {
        laplacian(p.src, p.dst, LaplacianParams{2, 1, 0, {}});
      },
      kInvalid, "laplacian: ksize must be odd; got 2, expected 1, 3 or 5");
  expect_error(
      [&] {
        laplacian(p.src, p.dst, LaplacianParams{7, 1, 0, {}});
      },
      kInvalid, "laplacian: ksize is not supported; got 7, expected 1, 3 or 5");
}

}  // namespace
}  // namespace texcv::error_test
