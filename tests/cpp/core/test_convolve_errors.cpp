// Validation of convolve (include/texcv/filters.hpp): its kernels (and separable_filter's kernel
// lengths) and anchors (box_filter's and separable_filter's beside them), exact messages and
// codes.
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "core/error_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::error_test {
namespace {

TEST(FilterErrors, Kernels) {
  Pair p;
  expect_error(
      [&] {
        convolve(p.src, p.dst, Kernel{0, 3, {}});
      },
      kInvalid, "convolve: kernel is empty; got 0x3, expected at least 1x1");
  expect_error(
      [&] {
        convolve(p.src, p.dst, Kernel{32, 3, std::vector<float>(96, 1.0f)});
      },
      kInvalid, "convolve: kernel is too large; got 32x3, expected at most 31x31");
  expect_error(
      [&] {
        convolve(p.src, p.dst, Kernel{3, 3, std::vector<float>(8, 1.0f)});
      },
      kInvalid,
      "convolve: kernel value count differs from its size; got 8 values, expected 9 "
      "(3x3)");
  expect_error(
      [&] {
        convolve(p.src, p.dst, Kernel{1, 2, {1.0f, std::numeric_limits<float>::quiet_NaN()}});
      },
      kInvalid,
      "convolve: kernel element is not finite; got nan at index 1, expected finite values");
  Image k8(3, 3, 1, ElemType::u8);
  expect_error([&] { convolve(p.src, p.dst, k8.view()); }, kInvalid,
               "convolve: kernel must be 1-channel f32; got 1-channel u8, expected 1-channel f32");
  Image k3(3, 3, 3, ElemType::f32);
  expect_error([&] { convolve(p.src, p.dst, k3.view()); }, kInvalid,
               "convolve: kernel must be 1-channel f32; got 3-channel f32, expected 1-channel f32");
  Image big(33, 33, 1, ElemType::f32);
  expect_error([&] { convolve(p.src, p.dst, big.view()); }, kInvalid,
               "convolve: kernel is too large; got 33x33, expected at most 31x31");
  expect_error([&] { separable_filter(p.src, p.dst, {}, {1.0f}); }, kInvalid,
               "separable_filter: row kernel is empty; got 0 taps, expected 1 to 255 taps");
  expect_error([&] { separable_filter(p.src, p.dst, {1.0f}, std::vector<float>(256, 1.0f)); },
               kInvalid,
               "separable_filter: column kernel is too long; got 256 taps, expected at most 255 "
               "taps");
}

TEST(FilterErrors, Anchors) {
  Pair p;
  ConvolveParams c;
  c.anchor_x = 3;
  expect_error(
      [&] {
        convolve(p.src, p.dst, Kernel{3, 3, std::vector<float>(9, 1.0f)}, c);
      },
      kInvalid,
      "convolve: anchor is outside the kernel; got (3, -1), expected inside 3x3 (or -1 "
      "for the centre)");
  BoxParams b;
  b.anchor_y = -2;
  expect_error([&] { box_filter(p.src, p.dst, b); }, kInvalid,
               "box_filter: anchor is outside the kernel; got (-1, -2), expected inside 3x3 (or "
               "-1 for the centre)");
  SeparableParams s;
  s.anchor_x = 1;
  expect_error(
      [&] {
        separable_filter(p.src, p.dst, {1.0f}, {1.0f, 2.0f}, s);
      },
      kInvalid,
      "separable_filter: anchor is outside the kernel; got (1, -1), expected inside 1x2 "
      "(or -1 for the centre)");
}

}  // namespace
}  // namespace texcv::error_test
