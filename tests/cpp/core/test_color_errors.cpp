// The colour and intensity entry points reject bad calls with exact messages
// ("<op>: <what>; got <x>, expected <y>") and error codes: device views in every build, the
// parameters of each op, and the names of codes, threshold types and normalize modes
// (cvt_color's own checks: test_cvt_color_errors.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "common/test_support.hpp"
#include "core/error_test_util.hpp"
#include "texcv/color.hpp"
#include "texcv/error.hpp"

namespace texcv::error_test {
namespace {

TEST(ColorErrors, DeviceViewsWithoutCudaAreNotCompiled) {
  const ImageView s = device_view(8, 8, 1, ElemType::u8);
  ImageView d = device_view(8, 8, 1, ElemType::u8);
  d.data = reinterpret_cast<void*>(std::uintptr_t{1 << 20});
  ImageView s3 = device_view(8, 8, 3, ElemType::u8), d3 = device_view(8, 8, 3, ElemType::u8);
  d3.data = d.data;
  // Validation runs before either backend, so these messages hold in every build.
  expect_error([&] { cvt_color(s, d, ColorCode::gray2rgb); }, ErrorCode::InvalidArgument,
               "cvt_color: destination channel count does not fit the code gray2rgb; got 1, "
               "expected 3");
  expect_error([&] { threshold(s3, d3, 1, 2, ThresholdType::otsu); }, ErrorCode::Unsupported,
               "threshold: otsu needs a 1-channel u8 source; got 3-channel u8, expected "
               "1-channel u8");
  expect_error(
      [&] {
        histogram(s, 0, {0, 256});
      },
      ErrorCode::InvalidArgument, "histogram: bins must be positive; got 0, expected > 0");
#if defined(TEXCV_HAS_CUDA)
  GTEST_SKIP() << "built with CUDA: every colour op runs on the CUDA backend, compared with the "
                  "CPU in tests/cpp/cuda/test_<op>_cuda.cpp";
#else
  // Without CUDA, valid device calls reach the NotCompiled stubs, named by the public op.
  const std::string tail =
      ": this build has no CUDA backend; rebuild with -DTEXCV_CUDA=ON (nvcc required) to use "
      "device images";
  const ErrorCode nc = ErrorCode::NotCompiled;
  expect_error([&] { threshold(s, d, 1, 2, ThresholdType::otsu); }, nc, "threshold" + tail);
  expect_error([&] { normalize(s, d); }, nc, "normalize" + tail);
  NormalizeParams ms;
  ms.mode = NormalizeMode::mean_std;
  expect_error([&] { normalize(s, d, ms); }, nc, "normalize" + tail);
  expect_error([&] { equalize_hist(s, d); }, nc, "equalize_hist" + tail);
  expect_error([&] { clahe(s, d); }, nc, "clahe" + tail);
  expect_error([&] { histogram(s, 4, {0, 256}); }, nc, "histogram" + tail);
#endif
}

TEST(ColorErrors, Parameters) {
  Image a(16, 16, 1, ElemType::u8), b(16, 16, 1, ElemType::u8), c(16, 16, 3, ElemType::u8),
      c2(16, 16, 3, ElemType::u8), w(16, 16, 1, ElemType::u16), w2(16, 16, 1, ElemType::u16),
      f(16, 16, 1, ElemType::f32), f2(16, 16, 1, ElemType::f32);
  expect_error([&] { gamma(a, b, 0.0); }, ErrorCode::InvalidArgument,
               "gamma: gamma must be positive and finite; got 0, expected > 0");
  expect_error([&] { gamma(a, b, -1.5); }, ErrorCode::InvalidArgument,
               "gamma: gamma must be positive and finite; got -1.5, expected > 0");
  expect_error([&] { gamma(a, c, 1.0); }, ErrorCode::InvalidArgument,
               "gamma: destination channel count differs from the source; got 3, expected 1");
  expect_error(
      [&] {
        histogram(a, 0, {0, 256});
      },
      ErrorCode::InvalidArgument, "histogram: bins must be positive; got 0, expected > 0");
  expect_error(
      [&] {
        histogram(a, 8, {5, 5});
      },
      ErrorCode::InvalidArgument,
      "histogram: range is empty or not finite; got [5, 5), expected finite lo < hi");
  expect_error(
      [&] {
        clahe(a, b, {-1.0, 8, 8});
      },
      ErrorCode::InvalidArgument,
      "clahe: clip limit must be finite and >= 0; got -1, expected >= 0");
  expect_error(
      [&] {
        clahe(a, b, {40.0, 0, 8});
      },
      ErrorCode::InvalidArgument,
      "clahe: tile grid must be at least 1x1 and at most the image size; got 0x8, "
      "expected 1x1 .. 16x16");
  expect_error([&] { clahe(f, f2); }, ErrorCode::Unsupported,
               "clahe: source element type is not supported; got f32, expected u8 or u16");
  expect_error([&] { clahe(w, b); }, ErrorCode::InvalidArgument,
               "clahe: destination element type differs from the source; got u8, expected u16");
  expect_error([&] { equalize_hist(w, w2); }, ErrorCode::Unsupported,
               "equalize_hist: source element type is not supported; got u16, expected u8");
  expect_error([&] { equalize_hist(c, c2); }, ErrorCode::Unsupported,
               "equalize_hist: source channel count is not supported; got 3, expected 1");
  expect_error([&] { threshold(c, c2, 0, 255, ThresholdType::otsu); }, ErrorCode::Unsupported,
               "threshold: otsu needs a 1-channel u8 source; got 3-channel u8, expected "
               "1-channel u8");
  expect_error([&] { threshold(a, b, NAN, 255, ThresholdType::binary); },
               ErrorCode::InvalidArgument,
               "threshold: thresh must be finite; got nan, expected a finite value");
  NormalizeParams p;
  p.mode = NormalizeMode::mean_std;
  p.std = -1;
  expect_error([&] { normalize(a, b, p); }, ErrorCode::InvalidArgument,
               "normalize: target mean must be finite and std >= 0; got 0, -1, expected a finite "
               "mean and a finite std >= 0");
  expect_error([&] { normalize(a, w); }, ErrorCode::InvalidArgument,
               "normalize: destination element type differs from the source; got u16, expected u8");
  expect_error([&] { convert(a, w, INFINITY, 0); }, ErrorCode::InvalidArgument,
               "convert: scale and offset must be finite; got inf, 0, expected finite values");
  expect_error([&] { convert(a, c); }, ErrorCode::InvalidArgument,
               "convert: destination channel count differs from the source; got 3, expected 1");
}

TEST(ColorErrors, NamesRoundTripAndUnknownNames) {
  for (int i = 0; i <= static_cast<int>(ColorCode::hsv2bgr); ++i) {
    const auto code = static_cast<ColorCode>(i);
    EXPECT_EQ(parse_color_code(to_string(code)), code);
  }
  for (int i = 0; i <= static_cast<int>(ThresholdType::otsu); ++i) {
    const auto t = static_cast<ThresholdType>(i);
    EXPECT_EQ(parse_threshold_type(to_string(t)), t);
  }
  EXPECT_EQ(parse_normalize_mode("mean_std"), NormalizeMode::mean_std);
  expect_error([] { parse_threshold_type("otsu2"); }, ErrorCode::InvalidArgument,
               "threshold: unknown threshold type; got \"otsu2\", expected binary, binary_inv, "
               "trunc, tozero, tozero_inv or otsu");
  expect_error([] { parse_normalize_mode("l2"); }, ErrorCode::InvalidArgument,
               "normalize: unknown normalize mode; got \"l2\", expected minmax or mean_std");
  try {
    parse_color_code("rgb2lab");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cvt_color: unknown colour conversion code; got "
                                          "\"rgb2lab\", expected rgb2bgr, rgba2bgra, rgb2gray",
                                          0),
              0u)
        << e.what();
  }
}

}  // namespace
}  // namespace texcv::error_test
