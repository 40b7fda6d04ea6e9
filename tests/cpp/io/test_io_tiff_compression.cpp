// TIFF output compression (WriteOptions::tiff_compression, tiff_level): the default is
// uncompressed, each choice writes the Compression tag it names (read back with libtiff itself)
// and the pixels read back identical, levels are checked per codec, a codec the linked libtiff
// lacks is a clear Unsupported error.
#include <cstring>
#include <string>
#include <vector>

#include "io/io_test_util.hpp"

#if defined(TEXCV_HAS_TIFF) && __has_include(<tiffio.h>)
#include <tiffio.h>  // libtiff: texcv is a static library, so its libtiff is on the test's link line
#define TEXCV_TEST_LIBTIFF 1
#endif

namespace texcv::test {
namespace {

TEST(TiffCompressionNames, ParseAndPrint) {
  for (const TiffCompression c : all_tiff_compressions())
    EXPECT_EQ(parse_tiff_compression(to_string(c)), c) << to_string(c);
  EXPECT_EQ(parse_tiff_compression("zip"), TiffCompression::deflate);
  EXPECT_EQ(all_tiff_compressions().size(), 6u);
  expect_error([] { parse_tiff_compression("jpeg"); }, ErrorCode::InvalidArgument,
               {"unknown TIFF compression", "got 'jpeg'",
                "expected one of none, deflate, zstd, lzw, packbits, lzma"});
  EXPECT_EQ(WriteOptions{}.tiff_compression, TiffCompression::none);
}

TEST(TiffCompressionLevels, CheckedPerCodec) {
  WriteOptions o;
  o.tiff_level = 3;  // none has no level
  expect_error([&] { check_write_options(ImageFormat::tiff, o); }, ErrorCode::InvalidArgument,
               {"check_write_options", "TIFF compression none has no level", "got 3"});
  o.tiff_compression = TiffCompression::deflate;
  o.tiff_level = 10;
  expect_error([&] { check_write_options(ImageFormat::tiff, o); }, ErrorCode::InvalidArgument,
               {"tiff_level out of range for deflate", "got 10", "expected 0 (default) or 1..9"});
  o.tiff_compression = TiffCompression::zstd;
  o.tiff_level = 23;
  expect_error([&] { check_write_options(ImageFormat::tiff, o); }, ErrorCode::InvalidArgument,
               {"tiff_level out of range for zstd", "expected 0 (default) or 1..22"});
  o.tiff_level = -1;
  expect_error([&] { check_write_options(ImageFormat::tiff, o); }, ErrorCode::InvalidArgument,
               {"tiff_level out of range for zstd", "got -1"});
  o.tiff_compression = TiffCompression::lzw;
  o.tiff_level = 1;
  expect_error([&] { check_write_options(ImageFormat::tiff, o); }, ErrorCode::InvalidArgument,
               {"TIFF compression lzw has no level"});
  // The other formats' ranges are checked by the same function.
  WriteOptions p;
  p.png_compression = 10;
  expect_error([&] { check_write_options(ImageFormat::png, p); }, ErrorCode::InvalidArgument,
               {"png_compression out of range", "got 10"});
  WriteOptions j;
  j.jpeg_quality = 0;
  expect_error([&] { check_write_options(ImageFormat::jpeg, j); }, ErrorCode::InvalidArgument,
               {"jpeg_quality out of range", "got 0"});
}

#if defined(TEXCV_TEST_LIBTIFF)

// The Compression, Predictor and strip tags of a TIFF file, read with libtiff.
struct Tags {
  int compression = -1, predictor = -1;
  std::uint32_t rows_per_strip = 0, strips = 0;
};
Tags read_tags(const std::string& path) {
  Tags t;
  TIFF* tif = TIFFOpen(path.c_str(), "r");
  if (!tif) {
    ADD_FAILURE() << "libtiff cannot open " << path;
    return t;
  }
  std::uint16_t c = 0, p = PREDICTOR_NONE;
  if (TIFFGetField(tif, TIFFTAG_COMPRESSION, &c)) t.compression = c;
  // Only the codecs with a predictor have the tag (libtiff complains when asked otherwise).
  if (c != COMPRESSION_NONE && c != COMPRESSION_PACKBITS) TIFFGetField(tif, TIFFTAG_PREDICTOR, &p);
  t.predictor = p;
  TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &t.rows_per_strip);
  t.strips = TIFFNumberOfStrips(tif);
  TIFFClose(tif);
  return t;
}

int libtiff_code(TiffCompression c) {
  switch (c) {
    case TiffCompression::none:
      return COMPRESSION_NONE;
    case TiffCompression::deflate:
      return COMPRESSION_ADOBE_DEFLATE;
    case TiffCompression::zstd:
      return COMPRESSION_ZSTD;
    case TiffCompression::lzw:
      return COMPRESSION_LZW;
    case TiffCompression::packbits:
      return COMPRESSION_PACKBITS;
    case TiffCompression::lzma:
      return COMPRESSION_LZMA;
  }
  return -1;
}

TEST(TiffCompression, DefaultIsUncompressed) {
  TempDir dir;
  const Image img = random_image(64, 48, 3, ElemType::u8, 11);
  const std::string p = dir.file("default.tif");
  imwrite(p, img.view());
  const Tags t = read_tags(p);
  EXPECT_EQ(t.compression, COMPRESSION_NONE);
  EXPECT_EQ(std::filesystem::file_size(p) >= 64u * 48u * 3u, true);
  expect_same_pixels(imread(p).view(), img.view());
  // The deprecated switch: false forces none whatever tiff_compression says.
  WriteOptions o;
  o.tiff_compression = TiffCompression::zstd;
  o.tiff_compress = false;
  imwrite(dir.file("forced_none.tif"), img.view(), o);
  EXPECT_EQ(read_tags(dir.file("forced_none.tif")).compression, COMPRESSION_NONE);
}

TEST(TiffCompression, EachChoiceWritesItsTagAndReadsBackIdentical) {
  TempDir dir;
  const std::vector<TiffCompression> have = supported_tiff_compressions();
  ASSERT_FALSE(have.empty());
  EXPECT_EQ(have.front(), TiffCompression::none);
  std::uint32_t seed = 500;
  for (const TiffCompression c : have) {
    for (const ElemType type : {ElemType::u8, ElemType::u16, ElemType::f32}) {
      for (const int ch : {1, 3, 4}) {
        SCOPED_TRACE(std::string(to_string(c)) + " " + to_string(type) + " x" + std::to_string(ch));
        // 300 x 250: several strips of about 256 KiB for u16/f32 x3/x4 (and a last short one);
        // a smooth ramp plus noise, so that the predictor and the codec have work to do.
        Image img = random_image(300, 250, ch, type, ++seed);
        const ImageView v = img.view();
        for (int y = 0; y < v.height; ++y) {
          for (int x = 0; x < v.width * ch; ++x) {
            if (type == ElemType::u8) {
              auto* r = v.row<std::uint8_t>(y);
              r[x] = static_cast<std::uint8_t>((x + y) / 4 + (r[x] & 3));
            } else if (type == ElemType::u16) {
              auto* r = v.row<std::uint16_t>(y);
              r[x] = static_cast<std::uint16_t>(100 * (x + y) + (r[x] & 15));
            } else {
              auto* r = v.row<float>(y);
              r[x] = static_cast<float>(x - y) * 0.01f + r[x] * 1e-3f;
            }
          }
        }
        const std::string p = dir.file(std::string("c_") + to_string(c) + "_" + to_string(type) +
                                       std::to_string(ch) + ".tif");
        WriteOptions o;
        o.tiff_compression = c;
        imwrite(p, v, o);
        const Tags t = read_tags(p);
        EXPECT_EQ(t.compression, libtiff_code(c));
        const bool predicted = c != TiffCompression::none && c != TiffCompression::packbits;
        EXPECT_EQ(t.predictor, !predicted              ? PREDICTOR_NONE
                               : type == ElemType::f32 ? PREDICTOR_FLOATINGPOINT
                                                       : PREDICTOR_HORIZONTAL);
        expect_same_pixels(imread(p).view(), v);
        if (type == ElemType::u16 && ch == 4) {
          EXPECT_GT(t.strips, 1u);
        }
      }
    }
  }
}

TEST(TiffCompression, LevelsReadBackIdenticalAndCompressMore) {
  TempDir dir;
  Image img = random_image(400, 300, 3, ElemType::u8, 77);
  const ImageView v = img.view();
  for (int y = 0; y < v.height; ++y) {
    auto* r = v.row<std::uint8_t>(y);
    for (int x = 0; x < v.width * 3; ++x) r[x] = static_cast<std::uint8_t>((x / 3 + y) / 2);
  }
  const std::vector<TiffCompression> have = supported_tiff_compressions();
  for (const TiffCompression c :
       {TiffCompression::deflate, TiffCompression::zstd, TiffCompression::lzma}) {
    if (std::find(have.begin(), have.end(), c) == have.end()) continue;
    for (const int level : {1, 9}) {
      SCOPED_TRACE(std::string(to_string(c)) + " level " + std::to_string(level));
      WriteOptions o;
      o.tiff_compression = c;
      o.tiff_level = level;
      const std::string p = dir.file(std::string(to_string(c)) + std::to_string(level) + ".tif");
      imwrite(p, v, o);
      EXPECT_EQ(read_tags(p).compression, libtiff_code(c));
      expect_same_pixels(imread(p).view(), v);
      // A smooth image: far smaller than its 360,000 samples at any level.
      EXPECT_LT(std::filesystem::file_size(p), 400u * 300u * 3u / 4u);
    }
  }
}

TEST(TiffCompression, UncompressedFromAPaddedView) {
  // none writes the rows as they are: straight from a contiguous image, through a scratch
  // buffer from a view with a padded pitch.
  TempDir dir;
  Image owner;
  const ImageView v = padded_view(owner, 97, 61, 3, ElemType::u16, 5, 3, 2);
  const Image src = random_image(97, 61, 3, ElemType::u16, 9);
  for (int y = 0; y < v.height; ++y)
    std::memcpy(v.row<unsigned char>(y), src.view().row<const unsigned char>(y), v.row_bytes());
  imwrite(dir.file("padded.tif"), v);
  EXPECT_EQ(read_tags(dir.file("padded.tif")).compression, COMPRESSION_NONE);
  expect_same_pixels(imread(dir.file("padded.tif")).view(), src.view());
}

TEST(TiffCompression, CodecMissingFromLibtiffIsUnsupported) {
  // Registering a codec without an init function makes libtiff report zstd as not configured
  // (TIFFIsCODECConfigured), as a libtiff built without libzstd does.
  const std::vector<TiffCompression> before = supported_tiff_compressions();
  if (std::find(before.begin(), before.end(), TiffCompression::zstd) == before.end())
    GTEST_SKIP() << "the linked libtiff has no zstd codec to hide";
  TIFFCodec* fake = TIFFRegisterCODEC(COMPRESSION_ZSTD, "no zstd here", nullptr);
  ASSERT_NE(fake, nullptr);
  const std::vector<TiffCompression> have = supported_tiff_compressions();
  TempDir dir;
  WriteOptions o;
  o.tiff_compression = TiffCompression::zstd;
  const Image img = random_image(8, 8, 1, ElemType::u8, 3);
  const std::string p = dir.file("z.tif");
  try {
    imwrite(p, img.view(), o);
    ADD_FAILURE() << "imwrite with a missing zstd codec did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
    const std::string msg = e.what();
    EXPECT_NE(msg.find("the linked libtiff (LIBTIFF, Version "), std::string::npos) << msg;
    EXPECT_NE(msg.find("has no zstd encoder; it writes none, deflate"), std::string::npos) << msg;
  }
  TIFFUnRegisterCODEC(fake);
  EXPECT_EQ(std::find(have.begin(), have.end(), TiffCompression::zstd), have.end());
  EXPECT_TRUE(dir.entries().empty());  // nothing written, no temporary left
  // Registered again, it works.
  imwrite(p, img.view(), o);
  EXPECT_EQ(read_tags(p).compression, COMPRESSION_ZSTD);
}

#endif  // TEXCV_TEST_LIBTIFF

}  // namespace
}  // namespace texcv::test
