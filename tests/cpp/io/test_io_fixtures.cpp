// Decoding files texcv did not write: tests/data/io/*, made by tests/data/make_io_fixtures.py
// (plain Python, independent of libpng/libtiff). Each fixture's pixels follow a formula that is
// evaluated again here; keep the two in step.
#include <functional>
#include <string>

#include "io/io_test_util.hpp"

namespace texcv::test {
namespace {

const std::string kData = std::string(TEXCV_TEST_DATA) + "/io/";

using Formula = std::function<double(int x, int y, int c)>;

using test::at;

void expect_fixture(const std::string& name, int w, int h, int c, ElemType t, const Formula& f) {
  SCOPED_TRACE(name);
  const std::string p = kData + name;
  const Image img = imread(p);
  ASSERT_EQ(img.width(), w);
  ASSERT_EQ(img.height(), h);
  ASSERT_EQ(img.channels(), c);
  ASSERT_EQ(img.type(), t);
  const ImageInfo info = read_info(p);
  EXPECT_EQ(info.width, w);
  EXPECT_EQ(info.height, h);
  EXPECT_EQ(info.channels, c);
  EXPECT_EQ(info.type, t);
  long bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) {
        const double got = at(img.view(), x, y, k), want = f(x, y, k);
        if (got != want && ++bad <= 5)
          ADD_FAILURE() << "at (" << x << ", " << y << ") channel " << k << ": got " << got
                        << ", expected " << want;
      }
  EXPECT_EQ(bad, 0);
}

const int kPalette[5][3] = {
    {0, 255, 3}, {50, 215, 20}, {100, 175, 37}, {150, 135, 54}, {200, 95, 71}};

TEST(IoPngFixtures, LowBitDepthGrayExpandsTo8Bit) {
  // libpng scales 1-bit samples to 0/255 and 2-bit samples by 85.
  expect_fixture("gray1.png", 13, 7, 1, ElemType::u8,
                 [](int x, int y, int) { return ((x + y) % 2) * 255; });
  expect_fixture("gray2.png", 13, 7, 1, ElemType::u8,
                 [](int x, int y, int) { return ((x + 2 * y) % 4) * 85; });
}

TEST(IoPngFixtures, GrayWithTransparentValueIsRgba) {
  expect_fixture("gray8_trns.png", 13, 7, 4, ElemType::u8, [](int x, int y, int c) {
    const int g = (x * 40 + y) % 256;
    return c < 3 ? g : (g == 0 ? 0 : 255);
  });
}

TEST(IoPngFixtures, PaletteIsRgbOrRgbaWithTrns) {
  expect_fixture("pal8.png", 13, 7, 3, ElemType::u8,
                 [](int x, int y, int c) { return kPalette[(x * 3 + y) % 5][c]; });
  expect_fixture("pal4_trns.png", 13, 7, 4, ElemType::u8, [](int x, int y, int c) {
    const int i = (x + y) % 5;
    return c < 3 ? kPalette[i][c] : (i == 0 ? 0 : i == 1 ? 128 : 255);
  });
}

TEST(IoPngFixtures, GrayAlphaIsRgba) {
  expect_fixture("ga8.png", 13, 7, 4, ElemType::u8, [](int x, int y, int c) {
    return c < 3 ? (x * 19 + y * 3) % 256 : (x * 5 + y * 31) % 256;
  });
  expect_fixture("ga16.png", 13, 7, 4, ElemType::u16, [](int x, int y, int c) {
    return c < 3 ? (x * 4099 + y * 257) % 65536 : (x * 31 + y * 7919) % 65536;
  });
}

TEST(IoPngFixtures, Interlaced16BitRgbInHostByteOrder) {
  expect_fixture("rgb16_adam7.png", 13, 7, 3, ElemType::u16, [](int x, int y, int c) {
    return c == 0   ? (x * 1000 + y * 7) % 65536
           : c == 1 ? (x * 3 + y * 2000) % 65536
                    : (x * y * 97) % 65536;
  });
}

#if defined(TEXCV_HAS_TIFF)
TEST(IoTiffFixtures, TiledWithPartialEdgeTiles) {
  // 37 x 21 in 16 x 16 tiles: the right and bottom tiles are partly outside the image.
  expect_fixture("tiled_rgb16.tif", 37, 21, 3, ElemType::u16,
                 [](int x, int y, int c) { return (x * 1741 + y * 613 + c * 20011) % 65536; });
  expect_fixture("tiled_gray_f32.tif", 37, 21, 1, ElemType::f32,
                 [](int x, int y, int) { return (x - 2 * y) * 0.25; });
}

TEST(IoTiffFixtures, StripedGrayAlphaIsRgba) {
  expect_fixture("strip_ga8.tif", 19, 5, 4, ElemType::u8, [](int x, int y, int c) {
    return c < 3 ? (x * 11 + y * 29) % 256 : (x * 3 + y * 50) % 256;
  });
}

TEST(IoTiffFixtures, BigEndian16Bit) {
  expect_fixture("strip_gray16_be.tif", 11, 6, 1, ElemType::u16,
                 [](int x, int y, int) { return (x * 5003 + y * 17) % 65536; });
}

TEST(IoTiffFixtures, UnsupportedKinds) {
  const std::string white = kData + "miniswhite8.tif";
  expect_error([&] { imread(white); }, ErrorCode::Unsupported,
               {"imread: " + white + ": unsupported TIFF photometric interpretation",
                "got MinIsWhite with 1 samples per pixel"});
  const std::string i16 = kData + "int16.tif";
  expect_error([&] { read_info(i16); }, ErrorCode::Unsupported,
               {"read_info: " + i16 + ": unsupported TIFF sample format", "got signed 16-bit",
                "expected unsigned 8/16-bit or float 32-bit"});
  const std::string planar = kData + "planar_rgb8.tif";
  expect_error([&] { imread(planar); }, ErrorCode::Unsupported,
               {"imread: " + planar + ": unsupported TIFF layout", "separate sample planes"});
}
#endif

}  // namespace
}  // namespace texcv::test
