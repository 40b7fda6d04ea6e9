// The CUDA backends of the reductions and histograms (the hist engine, src/cuda/ops/hist/, and
// the ops on it: normalize, histogram, equalize_hist, clahe and Otsu's threshold): every op on
// the caller's stream, and device views accepted with the host's validation messages.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/hist_test_util.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_CUDA)
#include <cuda_runtime.h>
#endif

namespace texcv::hist_cuda_test {
namespace {

TEST(HistCuda, RunOnTheCallersStream) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  cudaStream_t st = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), cudaSuccess);
  const Size sz{1023, 517};
  const Image g8 = structured(sz, ElemType::u8, 10, 200, 7001);
  const Image f3 = random_of(sz, ElemType::f32, 3, 7002);
  Image d8(sz.w, sz.h, 1, ElemType::u8, Location::device),
      o8(sz.w, sz.h, 1, ElemType::u8, Location::device),
      d3(sz.w, sz.h, 3, ElemType::f32, Location::device),
      o3(sz.w, sz.h, 3, ElemType::f32, Location::device);
  texcv::copy(g8, d8, st);
  texcv::copy(f3, d3, st);
  Image h8(sz.w, sz.h, 1, ElemType::u8), w8(sz.w, sz.h, 1, ElemType::u8);
  Image h3(sz.w, sz.h, 3, ElemType::f32), w3(sz.w, sz.h, 3, ElemType::f32);
  // Each result is copied back on the same stream (texcv::copy synchronizes it).
  clahe(d8, o8, {}, st);
  texcv::copy(o8, h8, st);
  clahe(g8, w8, {});
  expect_identical(h8, w8);
  equalize_hist(d8, o8, st);
  texcv::copy(o8, h8, st);
  equalize_hist(g8, w8);
  expect_identical(h8, w8);
  EXPECT_EQ(threshold(d8, o8, 0, 255, ThresholdType::otsu, st),
            threshold(g8, w8, 0, 255, ThresholdType::otsu));
  texcv::copy(o8, h8, st);
  expect_identical(h8, w8);
  NormalizeParams np;
  np.alpha = -1;
  np.beta = 2;
  normalize(d3, o3, np, st);
  texcv::copy(o3, h3, st);
  normalize(f3, w3, np);
  expect_identical(h3, w3);
  EXPECT_EQ(histogram(d3, 9, {0.0, 1.0}, st), histogram(f3, 9, {0.0, 1.0}));
  EXPECT_EQ(cudaStreamDestroy(st), cudaSuccess);
#endif
}

TEST(HistCuda, DeviceViewsRunAndValidationMessagesAreUnchanged) {
  TEXCV_REQUIRE_GPU();
  Image s(9, 7, 1, ElemType::u8, Location::device), d(9, 7, 1, ElemType::u8, Location::device);
  Image s3(9, 7, 3, ElemType::u8, Location::device), d3(9, 7, 3, ElemType::u8, Location::device);
  Image s16(9, 7, 1, ElemType::u16, Location::device),
      d16(9, 7, 1, ElemType::u16, Location::device);
  test::poison(s);
  // No longer Unsupported on device views.
  EXPECT_NO_THROW(normalize(s, d));
  EXPECT_NO_THROW(histogram(s, 4, {0, 256}));
  EXPECT_NO_THROW(equalize_hist(s, d));
  ClaheParams small;
  small.tiles_x = small.tiles_y = 2;
  EXPECT_NO_THROW(clahe(s, d, small));
  EXPECT_NO_THROW(threshold(s, d, 0, 255, ThresholdType::otsu));
  // Validation still runs first, with the same messages as on the host.
  test::expect_error([&] { threshold(s3, d3, 0, 255, ThresholdType::otsu); },
                     ErrorCode::Unsupported,
                     "threshold: otsu needs a 1-channel u8 source; got 3-channel u8, expected "
                     "1-channel u8");
  test::expect_error(
      [&] {
        histogram(s, 0, {0, 256});
      },
      ErrorCode::InvalidArgument, "histogram: bins must be positive; got 0, expected > 0");
  test::expect_error(
      [&] {
        histogram(s, 8, {5, 5});
      },
      ErrorCode::InvalidArgument,
      "histogram: range is empty or not finite; got [5, 5), expected finite lo < hi");
  test::expect_error([&] { equalize_hist(s16, d16); }, ErrorCode::Unsupported,
                     "equalize_hist: source element type is not supported; got u16, expected u8");
  ClaheParams bad;
  bad.clip_limit = -1;
  test::expect_error([&] { clahe(s, d, bad); }, ErrorCode::InvalidArgument,
                     "clahe: clip limit must be finite and >= 0; got -1, expected >= 0");
  NormalizeParams np;
  np.mode = NormalizeMode::mean_std;
  test::expect_error([&] { normalize(s, d3, np); }, ErrorCode::InvalidArgument,
                     "normalize: destination channel count differs from the source; got 3, "
                     "expected 1");
}

}  // namespace
}  // namespace texcv::hist_cuda_test
