// Validation shared by the linear filters (src/core/filter_common.cpp): images, element types,
// sizes, aliasing, border modes, and device images in a build without CUDA; exact messages and
// codes.
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "core/error_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::error_test {
namespace {

TEST(FilterErrors, ImagesTypesSizesAliasing) {
  Pair p;
  Image small(7, 6, 3, ElemType::u8);
  expect_error([&] { box_filter(p.src, small); }, kInvalid,
               "box_filter: destination size differs from the source; got 7x6, expected 8x6");
  Image gray(8, 6, 1, ElemType::u8);
  expect_error([&] { sharpen(p.src, gray); }, kInvalid,
               "sharpen: destination channel count differs from the source; got 1, expected 3");
  Image f32(8, 6, 3, ElemType::f32), u16(8, 6, 3, ElemType::u16);
  expect_error(
      [&] {
        gaussian_blur(p.src, f32, GaussianParams{3, 3, 0, 0, {}});
      },
      kInvalid,
      "gaussian_blur: destination element type differs from the source; got f32, "
      "expected u8");
  expect_error([&] { sobel(p.src, u16); }, kInvalid,
               "sobel: destination element type is not supported; got u16, expected u8 (the "
               "source's) or f32");
  EXPECT_NO_THROW(sobel(p.src, f32));  // an f32 destination is allowed for derivatives
  Image two(8, 6, 3, ElemType::u8);
  ImageView bad = two.view();
  bad.channels = 2;
  expect_error([&] { laplacian(bad, p.dst); }, kInvalid,
               "laplacian: source channel count is not supported; got 2, expected 1, 3 or 4");
  // In place and overlapping views.
  expect_error([&] { box_filter(p.src, p.src); }, kInvalid,
               "box_filter: output aliasing input; got destination bytes overlapping the source, "
               "expected separate memory");
  Image wide(16, 6, 3, ElemType::u8);
  const ImageView left = wide.view().roi(Rect{0, 0, 8, 6});
  const ImageView right = wide.view().roi(Rect{8, 0, 8, 6});
  expect_error([&] { sharpen(left, right); }, kInvalid,
               "sharpen: output aliasing input; got destination bytes overlapping the source, "
               "expected separate memory");
  FilterBorder fb;
  fb.border = static_cast<Border>(9);
  expect_error([&] { sharpen(p.src, p.dst, 1.0, fb); }, kInvalid,
               "sharpen: border mode is not valid; got 9, expected constant, replicate, reflect, "
               "reflect101 or wrap");
  expect_error([&] { sharpen(p.src, p.dst, std::numeric_limits<double>::quiet_NaN()); }, kInvalid,
               "sharpen: strength must be finite; got nan, expected a finite number");
}

TEST(FilterErrors, DeviceImagesWithoutCudaAreNotCompiled) {
#if defined(TEXCV_HAS_CUDA)
  GTEST_SKIP() << "built with CUDA: device filters run on the CUDA backend, compared with the CPU "
                  "in tests/cpp/cuda/test_<op>_cuda.cpp";
#else
  // Without CUDA, device views reach the NotCompiled stubs after validation, before any memory is
  // touched (so a host buffer labelled "device" is enough to check the message).
  Pair p;
  ImageView s = p.src.view(), d = p.dst.view();
  s.location = d.location = Location::device;
  const std::string tail =
      ": this build has no CUDA backend; rebuild with -DTEXCV_CUDA=ON (nvcc required) to use "
      "device images";
  const ErrorCode u = ErrorCode::NotCompiled;
  expect_error([&] { convolve(s, d, Kernel{1, 1, {1.0f}}); }, u, "convolve" + tail);
  expect_error([&] { separable_filter(s, d, {1.0f}, {1.0f}); }, u, "separable_filter" + tail);
  expect_error(
      [&] {
        gaussian_blur(s, d, GaussianParams{3, 3, 0, 0, {}});
      },
      u, "gaussian_blur" + tail);
  expect_error([&] { box_filter(s, d); }, u, "box_filter" + tail);
  expect_error([&] { sharpen(s, d); }, u, "sharpen" + tail);
  expect_error([&] { unsharp_mask(s, d); }, u, "unsharp_mask" + tail);
  expect_error([&] { sobel(s, d); }, u, "sobel" + tail);
  expect_error([&] { scharr(s, d); }, u, "scharr" + tail);
  expect_error([&] { laplacian(s, d); }, u, "laplacian" + tail);
#endif
}

}  // namespace
}  // namespace texcv::error_test
