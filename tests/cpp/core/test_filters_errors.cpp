// Validation of the linear filters (include/texcv/filters.hpp): exact error messages and codes.
#include <limits>
#include <string>

#include "common/test_support.hpp"
#include "texcv/filters.hpp"

namespace texcv {
namespace {

using test::expect_error;

constexpr ErrorCode kInvalid = ErrorCode::InvalidArgument;

struct Pair {
  Image src{8, 6, 3, ElemType::u8};
  Image dst{8, 6, 3, ElemType::u8};
};

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
                  "in tests/cpp/cuda/test_filters_cuda.cpp";
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
}  // namespace texcv
