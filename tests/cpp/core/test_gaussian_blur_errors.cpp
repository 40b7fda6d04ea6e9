// Validation of gaussian_blur (include/texcv/filters.hpp): kernel sizes and sigmas (unsharp_mask's
// and box_filter's sizes beside them), exact messages and codes.
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "core/error_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::error_test {
namespace {

TEST(FilterErrors, GaussianSizesAndSigmas) {
  Pair p;
  expect_error(
      [&] {
        gaussian_blur(p.src, p.dst, GaussianParams{4, 3, 0, 0, {}});
      },
      kInvalid,
      "gaussian_blur: ksize_x must be odd; got 4, expected an odd number > 0, or <= 0 to "
      "derive it from sigma");
  expect_error(
      [&] {
        gaussian_blur(p.src, p.dst, GaussianParams{3, 6, 0, 0, {}});
      },
      kInvalid,
      "gaussian_blur: ksize_y must be odd; got 6, expected an odd number > 0, or <= 0 to "
      "derive it from sigma");
  expect_error(
      [&] {
        gaussian_blur(p.src, p.dst, GaussianParams{0, 0, 0, 0, {}});
      },
      kInvalid,
      "gaussian_blur: kernel size and sigma are both unset; got ksize_x=0, sigma_x=0, "
      "expected ksize_x > 0 (odd) or sigma_x > 0");
  expect_error(
      [&] {
        gaussian_blur(p.src, p.dst, GaussianParams{0, 0, -2, 0, {}});
      },
      kInvalid,
      "gaussian_blur: kernel size and sigma are both unset; got ksize_x=0, sigma_x=-2, "
      "expected ksize_x > 0 (odd) or sigma_x > 0");
  expect_error(
      [&] {
        gaussian_blur(p.src, p.dst, GaussianParams{0, 0, 50, 0, {}});
      },
      kInvalid,
      "gaussian_blur: kernel size derived from sigma_x is too large; got sigma_x=50 "
      "gives 301, expected at most 255 taps");
  expect_error(
      [&] {
        gaussian_blur(p.src, p.dst,
                      GaussianParams{3, 3, std::numeric_limits<double>::infinity(), 0, {}});
      },
      kInvalid, "gaussian_blur: sigma_x must be finite; got inf, expected a finite number");
  UnsharpParams u;
  u.sigma = 0;
  expect_error([&] { unsharp_mask(p.src, p.dst, u); }, kInvalid,
               "unsharp_mask: kernel size and sigma are both unset; got ksize=0, sigma=0, "
               "expected ksize > 0 (odd) or sigma > 0");
  u.sigma = 1;
  u.ksize = 2;
  expect_error([&] { unsharp_mask(p.src, p.dst, u); }, kInvalid,
               "unsharp_mask: ksize must be odd; got 2, expected an odd number > 0, or <= 0 to "
               "derive it from sigma");
  u.ksize = 0;
  u.threshold = -1;
  expect_error([&] { unsharp_mask(p.src, p.dst, u); }, kInvalid,
               "unsharp_mask: threshold must not be negative; got -1, expected >= 0");
  BoxParams b;
  b.ksize_x = 0;
  expect_error([&] { box_filter(p.src, p.dst, b); }, kInvalid,
               "box_filter: ksize_x must be positive; got 0, expected >= 1");
}

}  // namespace
}  // namespace texcv::error_test
