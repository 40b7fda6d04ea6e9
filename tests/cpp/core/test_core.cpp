// Core layer: errors, enum names, views, Image allocation, copy, and every validation error of the
// geometric entry points (exact messages).
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "common/test_support.hpp"
#include "src/core/view_checks.hpp"

namespace texcv {
namespace {

// Runs f, expects texcv::Error with the given code and exact message.
using test::expect_error;

TEST(Error, FormatsMessageAndCode) {
  expect_error(
      [] { fail(ErrorCode::Io, "imread", "file not found", "'a.png'", "an existing file"); },
      ErrorCode::Io, "imread: file not found; got 'a.png', expected an existing file");
  expect_error([] { fail(ErrorCode::Internal, "op", "broken"); }, ErrorCode::Internal,
               "op: broken");
  EXPECT_STREQ(to_string(ErrorCode::InvalidArgument), "InvalidArgument");
  EXPECT_STREQ(to_string(ErrorCode::NotCompiled), "NotCompiled");
  EXPECT_STREQ(to_string(ErrorCode::OutOfMemory), "OutOfMemory");
}

TEST(Enums, RoundTripAllNames) {
  for (auto v : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area})
    EXPECT_EQ(parse_interp(to_string(v)), v);
  for (auto v :
       {Border::constant, Border::replicate, Border::reflect, Border::reflect101, Border::wrap})
    EXPECT_EQ(parse_border(to_string(v)), v);
  for (auto v : {Precision::automatic, Precision::exact, Precision::fast})
    EXPECT_EQ(parse_precision(to_string(v)), v);
  for (auto v : {Path::automatic, Path::global, Path::texture, Path::texture_filter, Path::shared})
    EXPECT_EQ(parse_path(to_string(v)), v);
  for (auto v : {FlipCode::horizontal, FlipCode::vertical, FlipCode::both})
    EXPECT_EQ(parse_flip(to_string(v)), v);
  EXPECT_EQ(parse_precision("auto"), Precision::automatic);
  EXPECT_EQ(parse_path("auto"), Path::automatic);
  EXPECT_EQ(parse_border("reflect101"), Border::reflect101);
  EXPECT_STREQ(to_string(Path::texture_filter), "texture_filter");
}

TEST(Enums, UnknownNamesListAcceptedOnes) {
  expect_error(
      [] { parse_interp("bilinear"); }, ErrorCode::InvalidArgument,
      "interp: unknown name; got 'bilinear', expected one of nearest, linear, cubic, area");
  expect_error([] { parse_border("mirror"); }, ErrorCode::InvalidArgument,
               "border: unknown name; got 'mirror', expected one of constant, replicate, reflect, "
               "reflect101, wrap");
  expect_error([] { parse_precision("Exact"); }, ErrorCode::InvalidArgument,
               "precision: unknown name; got 'Exact', expected one of auto, exact, fast");
  expect_error([] { parse_path(""); }, ErrorCode::InvalidArgument,
               "path: unknown name; got '', expected one of auto, global, texture, texture_filter, "
               "shared");
  expect_error([] { parse_flip("x"); }, ErrorCode::InvalidArgument,
               "flip: unknown name; got 'x', expected one of horizontal, vertical, both");
}

TEST(Image, HostAllocationIsAlignedAndPadded) {
  Image img(13, 7, 3, ElemType::u16);
  EXPECT_EQ(img.width(), 13);
  EXPECT_EQ(img.height(), 7);
  EXPECT_EQ(img.channels(), 3);
  EXPECT_EQ(img.type(), ElemType::u16);
  EXPECT_EQ(img.location(), Location::host);
  EXPECT_EQ(img.pitch(), 128u);  // 13 * 3 * 2 = 78 bytes, padded to a multiple of 64
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(img.data()) % 64, 0u);
  EXPECT_FALSE(img.empty());
  EXPECT_EQ(img.view().describe(), "13x7x3 u16 host (pitch 128)");
  EXPECT_EQ(elem_size(ElemType::u8), 1u);
  EXPECT_EQ(elem_size(ElemType::u16), 2u);
  EXPECT_EQ(elem_size(ElemType::f32), 4u);
  EXPECT_TRUE(Image().empty());
}

TEST(Image, BadSizesAreRejected) {
  expect_error([] { Image(0, 5, 1, ElemType::u8); }, ErrorCode::InvalidArgument,
               "Image: image width must be positive; got 0, expected > 0");
  expect_error([] { Image(5, -1, 1, ElemType::u8); }, ErrorCode::InvalidArgument,
               "Image: image height must be positive; got -1, expected > 0");
  expect_error([] { Image(5, 5, 2, ElemType::u8); }, ErrorCode::InvalidArgument,
               "Image: image channel count is not supported; got 2, expected 1, 3 or 4");
  expect_error(
      [] { Image(2000000000, 2000000000, 4, ElemType::f32); }, ErrorCode::InvalidArgument,
      "Image: image size overflows; got 2000000000x2000000000x4 f32, expected width * height * "
      "channels * element size < 2^62");
}

TEST(Image, DeviceWithoutCudaIsNotCompiled) {
  if (build_info().cuda_compiled) GTEST_SKIP() << "this build has the CUDA backend";
  expect_error(
      [] { Image(4, 4, 1, ElemType::u8, Location::device); }, ErrorCode::NotCompiled,
      "Image: this build has no CUDA backend; rebuild with -DTEXCV_CUDA=ON (nvcc required) to use "
      "device images");
  EXPECT_FALSE(cuda_available());
  EXPECT_TRUE(gpus().empty());
  EXPECT_EQ(live_handles().textures, 0);
  EXPECT_EQ(build_info().cuda_version, "");
}

TEST(Image, RoiSharesPitchAndOffsetsPointer) {
  Image img(10, 8, 4, ElemType::f32);
  const ImageView r = img.view().roi(Rect{2, 3, 5, 4});
  EXPECT_EQ(r.width, 5);
  EXPECT_EQ(r.height, 4);
  EXPECT_EQ(r.pitch, img.pitch());
  EXPECT_EQ(static_cast<unsigned char*>(r.data),
            static_cast<unsigned char*>(img.data()) + 3 * img.pitch() + 2 * 16);
  const ImageView whole = img.view().roi(Rect{0, 0, 10, 8});
  EXPECT_EQ(whole.data, img.data());
  expect_error(
      [&] {
        img.view().roi(Rect{6, 0, 5, 1});
      },
      ErrorCode::InvalidArgument,
      "roi: rectangle is not inside the view; got (6, 0) 5x1, expected a non-empty rectangle "
      "inside 10x8");
  expect_error(
      [&] {
        img.view().roi(Rect{0, 0, 0, 1});
      },
      ErrorCode::InvalidArgument,
      "roi: rectangle is not inside the view; got (0, 0) 0x1, expected a non-empty rectangle "
      "inside 10x8");
  expect_error(
      [&] {
        img.view().roi(Rect{-1, 0, 2, 1});
      },
      ErrorCode::InvalidArgument,
      "roi: rectangle is not inside the view; got (-1, 0) 2x1, expected a non-empty rectangle "
      "inside 10x8");
}

TEST(Image, AdoptKeepsTheOwnerAliveUntilTheLastMoveIsDestroyed) {
  std::vector<unsigned char> mem(16 * 5, 0);
  int released = 0;
  std::shared_ptr<void> owner(mem.data(), [&released](void*) { ++released; });
  texcv::ImageView v;
  v.data = mem.data() + 16;
  v.width = 4;
  v.height = 3;
  v.channels = 3;
  v.type = texcv::ElemType::u8;
  v.pitch = 16;
  {
    texcv::Image a = texcv::Image::adopt(v, owner);
    owner.reset();
    EXPECT_EQ(a.data(), mem.data() + 16);
    EXPECT_EQ(a.pitch(), 16u);
    EXPECT_EQ(a.width(), 4);
    EXPECT_EQ(a.location(), texcv::Location::host);
    texcv::Image b = std::move(a);
    EXPECT_EQ(released, 0);
    static_cast<unsigned char*>(b.data())[0] = 7;
    EXPECT_EQ(mem[16], 7);
  }
  EXPECT_EQ(released, 1);
  // A bad view or no owner: errors that say what was wrong.
  try {
    (void)texcv::Image::adopt(v, nullptr);
    ADD_FAILURE() << "no error for a null owner";
  } catch (const texcv::Error& e) {
    EXPECT_STREQ(e.what(),
                 "Image::adopt: no owner for the view's memory; got null, expected a shared_ptr "
                 "that keeps the memory alive");
  }
  v.pitch = 8;  // smaller than a row of 12 bytes
  EXPECT_THROW((void)texcv::Image::adopt(v, std::make_shared<int>(0)), texcv::Error);
}

TEST(Image, CopyAndCloneAcrossPitches) {
  Image src = test::random_image(17, 9, 3, ElemType::u8, 1);
  Image owner;
  const ImageView padded = test::padded_view(owner, 17, 9, 3, ElemType::u8, 5, 3, 2);
  copy(src, padded);
  EXPECT_EQ(test::compare(src, padded).count, 0);
  Image c = Image(17, 9, 3, ElemType::u8);
  copy(padded, c);
  EXPECT_EQ(test::compare(c, src).count, 0);
  // The pixels around the padded view are still poison: the copy wrote only the view.
  EXPECT_EQ(owner.view().row<std::uint8_t>(1)[0], 0xA5);
  EXPECT_EQ(owner.view().row<std::uint8_t>(2)[3 * 3 - 1], 0xA5);
  EXPECT_EQ(owner.view().row<std::uint8_t>(2)[(3 + 17) * 3], 0xA5);
  Image k = src.clone();
  EXPECT_NE(k.data(), src.data());
  EXPECT_EQ(test::compare(k, src).count, 0);
  expect_error([&] { copy(src, Image(16, 9, 3, ElemType::u8)); }, ErrorCode::InvalidArgument,
               "copy: destination size differs from the source; got 16x9, expected 17x9");
  expect_error([&] { copy(src, Image(17, 9, 3, ElemType::f32)); }, ErrorCode::InvalidArgument,
               "copy: destination element type differs from the source; got f32, expected u8");
  expect_error([&] { copy(src, Image(17, 9, 1, ElemType::u8)); }, ErrorCode::InvalidArgument,
               "copy: destination channel count differs from the source; got 1, expected 3");
}

TEST(Runtime, BuildInfoIsConsistent) {
  const BuildInfo b = build_info();
  EXPECT_EQ(b.version, "0.1.0");
#if defined(TEXCV_HAS_CUDA)
  EXPECT_TRUE(b.cuda_compiled);
  EXPECT_FALSE(b.cuda_version.empty());
#else
  EXPECT_FALSE(b.cuda_compiled);
#endif
  EXPECT_FALSE(b.formats.empty());
}

// ---- validation of the geometric operations ----

class GeometryErrors : public ::testing::Test {
 protected:
  Image src{8, 6, 3, ElemType::u8};
  Image dst{4, 3, 3, ElemType::u8};
};

TEST_F(GeometryErrors, ViewChecks) {
  ImageView bad = src.view();
  bad.width = 0;
  expect_error([&] { resize(bad, dst); }, ErrorCode::InvalidArgument,
               "resize: source width must be positive; got 0, expected > 0");
  bad = dst.view();
  bad.height = -2;
  expect_error([&] { resize(src, bad); }, ErrorCode::InvalidArgument,
               "resize: destination height must be positive; got -2, expected > 0");
  bad = src.view();
  bad.channels = 2;
  expect_error([&] { flip(bad, src, FlipCode::both); }, ErrorCode::InvalidArgument,
               "flip: source channel count is not supported; got 2, expected 1, 3 or 4");
  bad = src.view();
  bad.data = nullptr;
  expect_error([&] { resize(bad, dst); }, ErrorCode::InvalidArgument,
               "resize: source has no data; got a null pointer, expected a valid pointer");
  bad = src.view();
  bad.pitch = 23;
  expect_error([&] { resize(bad, dst); }, ErrorCode::InvalidArgument,
               "resize: source pitch is smaller than a row; got 23, expected >= 24 bytes");
  bad = src.view();
  bad.width = 1 << 30;
  bad.height = 1 << 30;
  bad.channels = 4;
  bad.type = ElemType::f32;
  bad.pitch = std::size_t{16} << 30;
  expect_error(
      [&] { resize(bad, dst); }, ErrorCode::InvalidArgument,
      "resize: source size overflows; got 1073741824x1073741824x4 f32, expected width * height * "
      "channels * element size < 2^62");
}

TEST_F(GeometryErrors, PairChecks) {
  Image f(4, 3, 3, ElemType::f32), g(4, 3, 1, ElemType::u8);
  expect_error([&] { resize(src, f); }, ErrorCode::InvalidArgument,
               "resize: destination element type differs from the source; got f32, expected u8");
  expect_error([&] { resize(src, g); }, ErrorCode::InvalidArgument,
               "resize: destination channel count differs from the source; got 1, expected 3");
  ImageView dev = dst.view();
  dev.location = Location::device;
  expect_error([&] { resize(src, dev); }, ErrorCode::InvalidArgument,
               "resize: destination location differs from the source; got device, expected host");
  expect_error([&] { flip(src, dst, FlipCode::both); }, ErrorCode::InvalidArgument,
               "flip: destination size differs from the source; got 4x3, expected 8x6");
}

TEST_F(GeometryErrors, Aliasing) {
  const std::string msg =
      ": output aliasing input; got destination bytes overlapping the source, expected "
      "separate memory";
  expect_error([&] { flip(src, src, FlipCode::horizontal); }, ErrorCode::InvalidArgument,
               "flip" + msg);
  // Partial overlap: the destination starts in the source's last row.
  const ImageView tail = src.view().roi(Rect{4, 5, 4, 1});
  Image big(8, 12, 3, ElemType::u8);
  const ImageView top = big.view().roi(Rect{0, 0, 4, 3});
  const ImageView inner = big.view().roi(Rect{2, 2, 4, 3});
  expect_error([&] { resize(top, inner); }, ErrorCode::InvalidArgument, "resize" + msg);
  expect_error(
      [&] {
        warp_affine(inner, top, {1, 0, 0, 0, 1, 0});
      },
      ErrorCode::InvalidArgument, "warp_affine" + msg);
  // Side by side views of one image share no pixel, but their byte ranges interleave row by row;
  // the check is by byte range, so this is reported too (documented in docs/conventions.md).
  const ImageView left = big.view().roi(Rect{0, 0, 4, 12});
  const ImageView right = big.view().roi(Rect{4, 0, 4, 12});
  expect_error([&] { resize(src, tail); }, ErrorCode::InvalidArgument, "resize" + msg);
  expect_error([&] { flip(left, right, FlipCode::vertical); }, ErrorCode::InvalidArgument,
               "flip" + msg);
  Image other(8, 6, 3, ElemType::u8);
  EXPECT_NO_THROW(flip(src, other, FlipCode::vertical));
}

// Found by fuzz_view_checks
// (tests/fuzz/corpus/fuzz_view_checks/finding-overlap-top-of-address-space): two 1x1 u8 views of
// the last byte of the address space. Their exclusive end wraps to 0, and the overlap check took
// them for disjoint. Views are only compared, never read.
TEST(ViewChecks, OverlapAtTopOfAddressSpace) {
  ImageView a;
  a.data = reinterpret_cast<void*>(~std::uintptr_t{0});
  a.width = a.height = a.channels = 1;
  a.type = ElemType::u8;
  a.pitch = 1;
  a.location = Location::host;
  const ImageView b = a;
  expect_error([&] { texcv::detail::check_pair("op", a, b, true); }, ErrorCode::InvalidArgument,
               "op: output aliasing input; got destination bytes overlapping the source, expected "
               "separate memory");
  ImageView c = a;  // the byte before: adjacent, not overlapping
  c.data = reinterpret_cast<void*>(~std::uintptr_t{0} - 1);
  EXPECT_NO_THROW(texcv::detail::check_pair("op", c, a, true));
  EXPECT_NO_THROW(texcv::detail::check_pair("op", a, c, true));
}

TEST_F(GeometryErrors, Matrices) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_error(
      [&] {
        warp_affine(src, dst, {1, 0, nan, 0, 1, 0});
      },
      ErrorCode::InvalidArgument,
      "warp_affine: matrix element is not finite; got nan at index 2, expected finite values");
  expect_error(
      [&] {
        warp_perspective(src, dst, {1, 0, 0, 0, 1, 0, 0, inf, 1});
      },
      ErrorCode::InvalidArgument,
      "warp_perspective: matrix element is not finite; got inf at index 7, expected finite values");
  expect_error(
      [&] {
        warp_affine(src, dst, {1, 2, 0, 2, 4, 0});
      },
      ErrorCode::InvalidArgument,
      "warp_affine: singular matrix; got determinant 0, expected |determinant| > 1.6e-11");
  expect_error(
      [&] {
        warp_perspective(src, dst, {1, 0, 0, 0, 1, 0, 1, 0, 0});
      },
      ErrorCode::InvalidArgument,
      "warp_perspective: singular matrix; got determinant 0, expected |determinant| > "
      "9.9999999999999998e-13");
  // A forward matrix translating by tens of thousands of pixels is well conditioned (det 1):
  // the threshold scales with each row's largest element, not the largest element cubed.
  EXPECT_NO_THROW(warp_perspective(src, dst, {1, 0, 40000, 0, 1, -30000, 0, 0, 1}));
  EXPECT_NO_THROW(warp_perspective(src, dst, {0.9, 0.1, 65535, -0.1, 1.1, 65535, 1e-5, 2e-5, 1}));
  // An inverse map need not be invertible: a projection onto one column is a valid warp.
  EXPECT_NO_THROW(warp_affine(src, dst, {0, 0, 1, 0, 1, 0}, true));
  expect_error([&] { rotate(src, Image(8, 6, 3, ElemType::u8), nan); }, ErrorCode::InvalidArgument,
               "rotate: angle must be finite; got nan, expected a finite number of degrees");
}

TEST_F(GeometryErrors, Interpolation) {
  Sampling s;
  s.interp = Interp::area;
  expect_error(
      [&] {
        warp_affine(src, dst, {1, 0, 0, 0, 1, 0}, false, s);
      },
      ErrorCode::Unsupported,
      "warp_affine: interpolation is not supported by this operation; got area, expected nearest, "
      "linear or cubic");
  expect_error(
      [&] {
        warp_perspective(src, dst, {1, 0, 0, 0, 1, 0, 0, 0, 1}, false, s);
      },
      ErrorCode::Unsupported,
      "warp_perspective: interpolation is not supported by this operation; got area, expected "
      "nearest, linear or cubic");
  expect_error(
      [&] { rotate(src, Image(8, 6, 3, ElemType::u8), 10, s); }, ErrorCode::Unsupported,
      "rotate: interpolation is not supported by this operation; got area, expected nearest, "
      "linear or cubic");
  Image mx(4, 3, 1, ElemType::f32), my(4, 3, 1, ElemType::f32);
  expect_error(
      [&] { remap(src, dst, mx, my, s); }, ErrorCode::Unsupported,
      "remap: interpolation is not supported by this operation; got area, expected nearest, "
      "linear or cubic");
  ResizeParams p;
  p.interp = Interp::area;
  p.align_corners = true;
  expect_error(
      [&] { resize(src, dst, p); }, ErrorCode::Unsupported,
      "resize: align_corners is not supported with area interpolation; got area, expected nearest, "
      "linear or cubic");
}

TEST_F(GeometryErrors, RemapMaps) {
  Image mx(4, 3, 1, ElemType::f32), my(4, 3, 1, ElemType::f32);
  Image m2(4, 3, 3, ElemType::f32), msmall(3, 3, 1, ElemType::f32), mu8(4, 3, 1, ElemType::u8);
  expect_error([&] { remap(src, dst, m2, my); }, ErrorCode::InvalidArgument,
               "remap: map_x must be 1-channel f32; got 3-channel f32, expected 1-channel f32");
  expect_error([&] { remap(src, dst, mx, mu8); }, ErrorCode::InvalidArgument,
               "remap: map_y must be 1-channel f32; got 1-channel u8, expected 1-channel f32");
  expect_error([&] { remap(src, dst, mx, msmall); }, ErrorCode::InvalidArgument,
               "remap: map_y size differs from the destination; got 3x3, expected 4x3");
  ImageView dev = my.view();
  dev.location = Location::device;
  expect_error([&] { remap(src, dst, mx, dev); }, ErrorCode::InvalidArgument,
               "remap: map_y location differs from the source; got device, expected host");
  // Destination overlapping a map.
  Image both(4, 3, 4, ElemType::f32);
  ImageView as_map = both.view();
  as_map.channels = 1;
  Image s1(8, 6, 1, ElemType::f32);
  ImageView d1 = both.view();
  d1.channels = 1;
  expect_error([&] { remap(s1, d1, as_map, my); }, ErrorCode::InvalidArgument,
               "remap: output aliasing input; got destination bytes overlapping the map_x, "
               "expected separate "
               "memory");
}

TEST_F(GeometryErrors, Crop) {
  expect_error(
      [&] {
        crop(src, dst, Rect{5, 0, 4, 3});
      },
      ErrorCode::InvalidArgument,
      "crop: rectangle is not inside the source; got (5, 0) 4x3, expected a non-empty rectangle "
      "inside 8x6");
  expect_error(
      [&] {
        crop(src, dst, Rect{0, 0, 4, 2});
      },
      ErrorCode::InvalidArgument,
      "crop: destination size differs from the rectangle; got 4x3, expected 4x2");
}

TEST(RotatedSize, BoundingBox) {
  const Rect r0 = rotated_size(640, 480, 30, false);
  EXPECT_EQ(r0.width, 640);
  EXPECT_EQ(r0.height, 480);
  const Rect r90 = rotated_size(640, 480, 90, true);
  EXPECT_EQ(r90.width, 480);
  EXPECT_EQ(r90.height, 640);
  const Rect r180 = rotated_size(640, 480, -180, true);
  EXPECT_EQ(r180.width, 640);
  EXPECT_EQ(r180.height, 480);
  // 45 degrees of 100x50: (100 + 50) * sqrt(0.5) = 106.066 -> 107 both ways.
  const Rect r45 = rotated_size(100, 50, 45, true);
  EXPECT_EQ(r45.width, 107);
  EXPECT_EQ(r45.height, 107);
  // 30 degrees of 640x480: 640 cos + 480 sin = 794.26 -> 795; 640 sin + 480 cos = 735.69 -> 736.
  const Rect r30 = rotated_size(640, 480, 30, true);
  EXPECT_EQ(r30.width, 795);
  EXPECT_EQ(r30.height, 736);
  expect_error([] { rotated_size(0, 5, 1, true); }, ErrorCode::InvalidArgument,
               "rotated_size: width must be positive; got 0, expected > 0");
}

TEST(RotationMatrix, MatchesGetRotationMatrix2DAndCentres) {
  // Same size: cv::getRotationMatrix2D((cx, cy), 90, 1) = [0 1 cx-cy; -1 0 cx+cy].
  const auto m = rotation_matrix(5, 3, 5, 3, 90);
  const std::array<double, 6> want{0, 1, 2 - 1, -1, 0, 2 + 1};
  for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(m[i], want[i]) << i;
  // Expanded: the source centre (2, 1) lands on the destination centre (1, 2).
  const auto e = rotation_matrix(5, 3, 3, 5, 90);
  EXPECT_DOUBLE_EQ(e[0] * 2 + e[1] * 1 + e[2], 1.0);
  EXPECT_DOUBLE_EQ(e[3] * 2 + e[4] * 1 + e[5], 2.0);
  // 30 degrees: coefficients are cos and sin.
  const auto r = rotation_matrix(10, 10, 10, 10, 30);
  EXPECT_DOUBLE_EQ(r[0], std::cos(M_PI / 6));
  EXPECT_DOUBLE_EQ(r[1], std::sin(M_PI / 6));
  EXPECT_DOUBLE_EQ(r[3], -std::sin(M_PI / 6));
}

TEST(BorderValues, AreSaturatedToTheElementType) {
  // A constant border of 300 on u8 behaves as 255 (OpenCV saturates borderValue first).
  Image src(2, 2, 1, ElemType::u8), dst(4, 1, 1, ElemType::u8);
  std::memset(src.view().row<std::uint8_t>(0), 10, 2);
  std::memset(src.view().row<std::uint8_t>(1), 10, 2);
  Sampling s;
  s.interp = Interp::linear;
  s.border_value = {300, 0, 0, 0};
  // x' = x - 1.5: destination 0 samples -1.5 (border only), 1 samples -0.5 (half border).
  warp_affine(src, dst, {1, 0, -1.5, 0, 1, 0}, true, s);
  const std::uint8_t* d = dst.view().row<std::uint8_t>(0);
  EXPECT_EQ(d[0], 255);
  EXPECT_EQ(d[1], 132);  // 0.5 * 255 + 0.5 * 10 = 132.5 -> 132 (half to even)
  EXPECT_EQ(d[2], 10);   // x = 0.5: between the two source pixels
  EXPECT_EQ(d[3], 132);  // x = 1.5: 0.5 * 10 + 0.5 * 255
}

// tests/cpp/common's written_outside, which the CUDA tests use to find writes beside a sub-view
// output: poisoned elements count as untouched, every other element outside the rectangle counts.
TEST(TestSupport, WrittenOutsideCountsOnlyChangedElementsOutsideTheRectangle) {
  for (const ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
    Image img(7, 5, 3, t);
    test::poison(img.view());
    const Rect inside{2, 1, 3, 2};
    EXPECT_EQ(test::written_outside(img.view(), inside), 0);
    Image one(1, 1, 3, t);
    std::memset(one.view().data, 0, one.view().row_bytes());  // 0: not poison in any type
    copy(one.view(), img.view().roi({3, 2, 1, 1}));           // inside: not counted
    EXPECT_EQ(test::written_outside(img.view(), inside), 0);
    copy(one.view(), img.view().roi({0, 0, 1, 1}));  // corner: 3 channels
    copy(one.view(), img.view().roi({5, 2, 1, 1}));  // just right of the rectangle
    copy(one.view(), img.view().roi({2, 3, 1, 1}));  // just below it
    EXPECT_EQ(test::written_outside(img.view(), inside), 9) << to_string(t);
  }
}

}  // namespace
}  // namespace texcv
