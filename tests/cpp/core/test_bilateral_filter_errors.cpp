// Validation of bilateral_filter (include/texcv/filters.hpp): types, channels and parameters,
// and device images in a build without CUDA (median_blur's too); exact messages and codes.
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "core/error_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::error_test {
namespace {

BilateralParams good() {
  BilateralParams p;
  p.d = 5;
  p.sigma_color = 20;
  p.sigma_space = 2;
  return p;
}

TEST(NonlinearErrors, BilateralTypesAndChannels) {
  Image s16(8, 6, 1, ElemType::u16), d16(8, 6, 1, ElemType::u16);
  expect_error([&] { bilateral_filter(s16, d16, good()); }, ErrorCode::Unsupported,
               "bilateral_filter: element type is not supported; got u16, expected u8 or f32");
  Image s4(8, 6, 4, ElemType::u8), d4(8, 6, 4, ElemType::u8);
  expect_error([&] { bilateral_filter(s4, d4, good()); }, ErrorCode::Unsupported,
               "bilateral_filter: channel count is not supported; got 4, expected 1 or 3");
}

TEST(NonlinearErrors, BilateralParameters) {
  Image s(8, 6, 3, ElemType::f32), d(8, 6, 3, ElemType::f32);
  BilateralParams p = good();
  p.sigma_color = 0;
  expect_error([&] { bilateral_filter(s, d, p); }, kInvalid,
               "bilateral_filter: sigma_color must be positive and finite; got 0, expected > 0");
  p = good();
  p.sigma_space = -1.5;
  expect_error([&] { bilateral_filter(s, d, p); }, kInvalid,
               "bilateral_filter: sigma_space must be positive and finite; got -1.5, expected > 0");
  p = good();
  p.sigma_color = std::numeric_limits<double>::infinity();
  expect_error([&] { bilateral_filter(s, d, p); }, kInvalid,
               "bilateral_filter: sigma_color must be positive and finite; got inf, expected > 0");
  p = good();
  p.d = 256;
  expect_error([&] { bilateral_filter(s, d, p); }, kInvalid,
               "bilateral_filter: diameter is too large; got d=256, expected a diameter "
               "2 * (d / 2) + 1 of at most 255");
  p = good();
  p.d = 0;
  p.sigma_space = 100;
  expect_error([&] { bilateral_filter(s, d, p); }, kInvalid,
               "bilateral_filter: diameter is too large; got d=0, sigma_space=100, expected a "
               "diameter 2 * (d / 2) + 1 of at most 255");
  p = good();
  p.border.border = static_cast<Border>(9);
  expect_error([&] { bilateral_filter(s, d, p); }, kInvalid,
               "bilateral_filter: border mode is not valid; got 9, expected constant, replicate, "
               "reflect, reflect101 or wrap");
}

TEST(NonlinearErrors, DeviceImagesWithoutCudaAreNotCompiled) {
#if defined(TEXCV_HAS_CUDA)
  GTEST_SKIP() << "built with CUDA: device views run on the CUDA backend, compared with the CPU "
                  "in tests/cpp/cuda/test_median_blur_cuda.cpp and test_bilateral_filter_cuda.cpp";
#else
  // Without CUDA, device views reach the NotCompiled stubs after validation, before any memory is
  // touched (so a host buffer labelled "device" is enough to check the message).
  Image s(8, 6, 1, ElemType::u8), d(8, 6, 1, ElemType::u8);
  ImageView sv = s.view(), dv = d.view();
  sv.location = dv.location = Location::device;
  const std::string tail =
      ": this build has no CUDA backend; rebuild with -DTEXCV_CUDA=ON (nvcc required) to use "
      "device images";
  expect_error([&] { median_blur(sv, dv, 3); }, ErrorCode::NotCompiled, "median_blur" + tail);
  expect_error([&] { bilateral_filter(sv, dv, good()); }, ErrorCode::NotCompiled,
               "bilateral_filter" + tail);
#endif
}

}  // namespace
}  // namespace texcv::error_test
