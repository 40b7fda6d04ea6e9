// Validation of the morphology operations (include/texcv/morphology.hpp): exact error messages
// and codes.
#include <limits>
#include <string>

#include "common/test_support.hpp"
#include "texcv/morphology.hpp"

namespace texcv {
namespace {

using test::expect_error;

constexpr ErrorCode kInvalid = ErrorCode::InvalidArgument;

struct Pair {
  Image src{8, 6, 3, ElemType::u8};
  Image dst{8, 6, 3, ElemType::u8};
};

MorphParams sized(int kx, int ky) {
  MorphParams p;
  p.ksize_x = kx;
  p.ksize_y = ky;
  return p;
}

TEST(MorphologyErrors, Sizes) {
  Pair p;
  expect_error([&] { erode(p.src, p.dst, sized(4, 3)); }, kInvalid,
               "erode: ksize_x must be odd; got 4, expected an odd size 1 to 255");
  expect_error([&] { dilate(p.src, p.dst, sized(3, 0)); }, kInvalid,
               "dilate: ksize_y must be positive; got 0, expected an odd size 1 to 255");
  expect_error([&] { dilate(p.src, p.dst, sized(-3, 3)); }, kInvalid,
               "dilate: ksize_x must be positive; got -3, expected an odd size 1 to 255");
  expect_error([&] { morphology(p.src, p.dst, MorphOp::open, sized(3, 257)); }, kInvalid,
               "morphology: ksize_y is too large; got 257, expected an odd size 1 to 255");
  expect_error([&] { structuring_element(MorphShape::ellipse, 2, 3); }, kInvalid,
               "structuring_element: width must be odd; got 2, expected an odd size 1 to 255");
  expect_error([&] { structuring_element(MorphShape::cross, 3, 0); }, kInvalid,
               "structuring_element: height must be positive; got 0, expected an odd size 1 to "
               "255");
}

TEST(MorphologyErrors, AnchorShapeIterationsOperation) {
  Pair p;
  MorphParams a = sized(3, 5);
  a.anchor_x = 3;
  expect_error([&] { erode(p.src, p.dst, a); }, kInvalid,
               "erode: anchor is outside the structuring element; got (3, -1), expected inside "
               "3x5 (or -1 for the centre)");
  a.anchor_x = 0;
  a.anchor_y = -2;
  expect_error([&] { dilate(p.src, p.dst, a); }, kInvalid,
               "dilate: anchor is outside the structuring element; got (0, -2), expected inside "
               "3x5 (or -1 for the centre)");
  expect_error([&] { structuring_element(MorphShape::cross, 3, 3, 1, 3); }, kInvalid,
               "structuring_element: anchor is outside the structuring element; got (1, 3), "
               "expected inside 3x3 (or -1 for the centre)");
  MorphParams s;
  s.shape = static_cast<MorphShape>(3);
  expect_error([&] { erode(p.src, p.dst, s); }, kInvalid,
               "erode: shape is not valid; got 3, expected rect, ellipse or cross");
  MorphParams it;
  it.iterations = 0;
  expect_error([&] { erode(p.src, p.dst, it); }, kInvalid,
               "erode: iterations is out of range; got 0, expected 1 to 1000");
  it.iterations = 1001;
  expect_error([&] { morphology(p.src, p.dst, MorphOp::close, it); }, kInvalid,
               "morphology: iterations is out of range; got 1001, expected 1 to 1000");
  expect_error([&] { morphology(p.src, p.dst, static_cast<MorphOp>(7)); }, kInvalid,
               "morphology: operation is not valid; got 7, expected erode, dilate, open, close, "
               "gradient, tophat or blackhat");
}

TEST(MorphologyErrors, ImagesAndBorders) {
  Pair p;
  Image f32(8, 6, 3, ElemType::f32), small(7, 6, 3, ElemType::u8), gray(8, 6, 1, ElemType::u8);
  expect_error([&] { erode(p.src, f32); }, kInvalid,
               "erode: destination element type differs from the source; got f32, expected u8");
  expect_error([&] { dilate(p.src, small); }, kInvalid,
               "dilate: destination size differs from the source; got 7x6, expected 8x6");
  expect_error([&] { morphology(p.src, gray, MorphOp::gradient); }, kInvalid,
               "morphology: destination channel count differs from the source; got 1, expected 3");
  Image two(8, 6, 3, ElemType::u8);
  ImageView bad = two.view();
  bad.channels = 2;
  expect_error([&] { erode(bad, p.dst); }, kInvalid,
               "erode: source channel count is not supported; got 2, expected 1, 3 or 4");
  expect_error([&] { erode(p.src, p.src); }, kInvalid,
               "erode: output aliasing input; got destination bytes overlapping the source, "
               "expected separate memory");
  MorphParams b;
  b.border.border = static_cast<Border>(9);
  expect_error([&] { dilate(p.src, p.dst, b); }, kInvalid,
               "dilate: border mode is not valid; got 9, expected constant, replicate, reflect, "
               "reflect101 or wrap");
  b.border.border = Border::constant;
  b.border.value = std::array<double, 4>{0, std::numeric_limits<double>::infinity(), 0, 0};
  expect_error([&] { dilate(p.src, p.dst, b); }, kInvalid,
               "dilate: border value must be finite; got inf, expected a finite number");
}

TEST(MorphologyErrors, DeviceImagesWithoutCudaAreNotCompiled) {
#if defined(TEXCV_HAS_CUDA)
  GTEST_SKIP() << "built with CUDA: device morphology runs on the CUDA backend, compared with the "
                  "CPU in tests/cpp/cuda/test_erode_cuda.cpp and test_morphology_cuda.cpp";
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
  expect_error([&] { erode(s, d); }, u, "erode" + tail);
  expect_error([&] { dilate(s, d); }, u, "dilate" + tail);
  expect_error([&] { morphology(s, d, MorphOp::tophat); }, u, "morphology" + tail);
  MorphParams it;
  it.iterations = 3;
  it.shape = MorphShape::cross;
  expect_error([&] { morphology(s, d, MorphOp::open, it); }, u, "morphology" + tail);
#endif
}

}  // namespace
}  // namespace texcv
