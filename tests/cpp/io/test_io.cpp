// Codecs (texcv/io.hpp): round trips for every format x type x channels, read_info against
// imread, the bundled sample images, error cases with their messages, and the atomic write.
#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "io/io_test_util.hpp"

namespace texcv::test {
namespace {

namespace fs = std::filesystem;

const std::string kExamples = TEXCV_EXAMPLE_IMAGES;

bool has_tiff() {
#if defined(TEXCV_HAS_TIFF)
  return true;
#else
  return false;
#endif
}

void expect_info_matches(const std::string& path, const Image& img, ImageFormat fmt) {
  const ImageInfo info = read_info(path);
  EXPECT_EQ(info.width, img.width()) << path;
  EXPECT_EQ(info.height, img.height()) << path;
  EXPECT_EQ(info.channels, img.channels()) << path;
  EXPECT_EQ(info.type, img.type()) << path;
  EXPECT_EQ(info.format, fmt) << path;
}

// A random image inside a padded allocation, so writers must honour the pitch.
ImageView padded_random(Image& owner, int w, int h, int c, ElemType t, std::uint32_t seed) {
  const ImageView v = padded_view(owner, w, h, c, t, 5, 3, 2);
  const Image src = random_image(w, h, c, t, seed);
  copy(src.view(), v);
  return v;
}

// A smooth u8 image (JPEG's favourable case): low-frequency sinusoids per channel.
Image smooth_u8(int w, int h, int c) {
  Image img(w, h, c, ElemType::u8);
  for (int y = 0; y < h; ++y) {
    auto* p = img.view().row<std::uint8_t>(y);
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k)
        p[x * c + k] = static_cast<std::uint8_t>(
            std::lround(128.0 + 60.0 * std::sin(x / 11.0 + k) * std::cos(y / 9.0 - 0.5 * k)));
  }
  return img;
}

std::uintmax_t file_size(const std::string& p) {
  return fs::file_size(p);
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// ------------------------------------------------------------------ formats

TEST(IoFormat, FromPathByExtensionAnyCase) {
  EXPECT_EQ(format_from_path("a/b.png"), ImageFormat::png);
  EXPECT_EQ(format_from_path("x.PNG"), ImageFormat::png);
  EXPECT_EQ(format_from_path("x.jpg"), ImageFormat::jpeg);
  EXPECT_EQ(format_from_path("x.JPeG"), ImageFormat::jpeg);
  EXPECT_EQ(format_from_path("x.tif"), ImageFormat::tiff);
  EXPECT_EQ(format_from_path("dir.v2/x.TIFF"), ImageFormat::tiff);
  EXPECT_STREQ(to_string(ImageFormat::jpeg), "jpeg");
}

TEST(IoFormat, UnsupportedExtension) {
  expect_error([] { format_from_path("picture.bmp"); }, ErrorCode::Unsupported,
               {"format_from_path: unsupported file extension for 'picture.bmp'", "got '.bmp'",
                "expected .png, .jpg, .jpeg, .tif or .tiff"});
  expect_error([] { format_from_path("noext"); }, ErrorCode::Unsupported, {"got no extension"});
  expect_error([] { imread("/nonexistent/x.gif"); }, ErrorCode::Unsupported, {"'.gif'"});
  expect_error([] { read_info("/nonexistent/x.webp"); }, ErrorCode::Unsupported, {"'.webp'"});
  TempDir dir;
  const Image img = random_image(4, 4, 3, ElemType::u8, 1);
  const std::string out = dir.file("x.bmp");
  expect_error([&] { imwrite(out, img); }, ErrorCode::Unsupported, {"'.bmp'"});
  EXPECT_TRUE(dir.entries().empty());
}

TEST(IoFormat, SupportedFormatsListsThisBuild) {
  const auto f = supported_formats();
  const auto has = [&](const char* s) { return std::find(f.begin(), f.end(), s) != f.end(); };
  EXPECT_TRUE(has("png"));
  EXPECT_TRUE(has("jpeg"));
  EXPECT_EQ(has("tiff"), has_tiff());
  EXPECT_EQ(f.size(), has_tiff() ? 3u : 2u);
}

// ------------------------------------------------------------------ round trips

TEST(IoRoundTrip, PngExactAllTypesAndChannels) {
  TempDir dir;
  std::uint32_t seed = 10;
  for (ElemType t : {ElemType::u8, ElemType::u16}) {
    for (int c : {1, 3, 4}) {
      SCOPED_TRACE(std::string(to_string(t)) + " x" + std::to_string(c));
      Image owner;
      const ImageView src = padded_random(owner, 37, 23, c, t, ++seed);
      const std::string p = dir.file("rt_" + std::to_string(seed) + ".png");
      imwrite(p, src);
      const Image back = imread(p);
      expect_same_pixels(back.view(), src);
      expect_info_matches(p, back, ImageFormat::png);
    }
  }
}

TEST(IoRoundTrip, PngCompressionLevels) {
  TempDir dir;
  const Image img = smooth_u8(120, 80, 3);
  WriteOptions o0, o9;
  o0.png_compression = 0;
  o9.png_compression = 9;
  imwrite(dir.file("l0.png"), img, o0);
  imwrite(dir.file("l9.png"), img, o9);
  expect_same_pixels(imread(dir.file("l0.png")).view(), img);
  expect_same_pixels(imread(dir.file("l9.png")).view(), img);
  // Level 0 stores the 28,800 bytes of samples (plus filter bytes) uncompressed.
  EXPECT_GT(file_size(dir.file("l0.png")), 120u * 80u * 3u);
  EXPECT_LT(file_size(dir.file("l9.png")), file_size(dir.file("l0.png")) / 2);
  WriteOptions bad;
  bad.png_compression = 10;
  expect_error([&] { imwrite(dir.file("bad.png"), img, bad); }, ErrorCode::InvalidArgument,
               {"png_compression out of range", "got 10", "expected 0..9"});
}

#if defined(TEXCV_HAS_TIFF)
TEST(IoRoundTrip, TiffExactAllTypesChannelsAndCompression) {
  TempDir dir;
  std::uint32_t seed = 100;
  for (bool compress : {true, false}) {
    for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
      for (int c : {1, 3, 4}) {
        SCOPED_TRACE(std::string(to_string(t)) + " x" + std::to_string(c) +
                     (compress ? " deflate" : " none"));
        Image owner;
        const ImageView src = padded_random(owner, 37, 23, c, t, ++seed);
        if (t == ElemType::f32) {  // values beyond [0, 1): sign, range, denormals, -0, inf
          float* r = src.row<float>(1);
          r[0] = -1.5e30f;
          r[1] = std::numeric_limits<float>::max();
          r[2] = std::numeric_limits<float>::denorm_min();
          r[3] = -0.0f;
          r[4] = std::numeric_limits<float>::infinity();
          r[5] = -123.25f;
        }
        WriteOptions o;
        o.tiff_compression = compress ? TiffCompression::deflate : TiffCompression::none;
        const std::string p = dir.file("rt_" + std::to_string(seed) + ".tif");
        imwrite(p, src, o);
        const Image back = imread(p);
        expect_same_pixels(back.view(), src);
        expect_info_matches(p, back, ImageFormat::tiff);
      }
    }
  }
}

TEST(IoRoundTrip, TiffSeveralStrips) {
  // 300 x 500 x 3 u16: rows of 1,800 bytes, about 145 rows per 256 KiB strip: 4 strips.
  TempDir dir;
  const Image img = random_image(300, 500, 3, ElemType::u16, 7);
  for (bool compress : {true, false}) {
    WriteOptions o;
    o.tiff_compression = compress ? TiffCompression::deflate : TiffCompression::none;
    const std::string p = dir.file(compress ? "s_deflate.tiff" : "s_none.TIF");
    imwrite(p, img, o);
    expect_same_pixels(imread(p).view(), img);
  }
  // Uncompressed: the samples plus headers; deflate of random 16-bit data is not smaller by much
  // but must still be a valid file (checked above).
  EXPECT_GE(file_size(dir.file("s_none.TIF")), 300u * 500u * 3u * 2u);
}
#else
TEST(IoRoundTrip, TiffNotCompiled) {
  TempDir dir;
  const Image img = random_image(4, 4, 1, ElemType::u8, 1);
  const std::string p = dir.file("x.tif");
  expect_error([&] { imwrite(p, img); }, ErrorCode::Unsupported, {"built without libtiff", p});
  expect_error([&] { imread(p); }, ErrorCode::Unsupported, {"built without libtiff"});
  expect_error([&] { read_info(p); }, ErrorCode::Unsupported, {"built without libtiff"});
  EXPECT_TRUE(dir.entries().empty());
}
#endif

TEST(IoRoundTrip, JpegWithinPsnrBound) {
  // JPEG is lossy. At quality 95 the IJG tables are scaled to 10%, so low-frequency coefficients
  // are quantized in steps of 1-2 levels; on a smooth image (no content above a few cycles per
  // 8x8 block) the error is a fraction of a level plus rounding, and the chroma of RGB is
  // subsampled 4:2:0 (smooth chroma loses little). Measured with libjpeg-turbo 2.1: 55 dB (gray)
  // and 47 dB (RGB); the bound 40 dB is a clear margin below both and far above what a wrong
  // channel order, row offset or quality setting gives (< 20 dB).
  TempDir dir;
  for (int c : {1, 3}) {
    SCOPED_TRACE("channels " + std::to_string(c));
    const Image img = smooth_u8(96, 64, c);
    Image owner;
    const ImageView src = padded_view(owner, 96, 64, c, ElemType::u8, 5, 3, 2);
    copy(img.view(), src);
    const std::string p = dir.file("rt" + std::to_string(c) + ".jpg");
    imwrite(p, src);
    const Image back = imread(p);
    ASSERT_EQ(back.channels(), c);
    ASSERT_EQ(back.type(), ElemType::u8);
    const double q = psnr_u8(back.view(), img.view());
    RecordProperty("psnr_db_q95_c" + std::to_string(c), std::to_string(q));
    EXPECT_GT(q, 40.0);
    expect_info_matches(p, back, ImageFormat::jpeg);
  }
}

TEST(IoRoundTrip, JpegQualityOrdersSizeAndError) {
  TempDir dir;
  const Image img = smooth_u8(96, 64, 3);
  double last_psnr = 0;
  std::uintmax_t last_size = 0;
  for (int q : {10, 50, 100}) {
    WriteOptions o;
    o.jpeg_quality = q;
    const std::string p = dir.file("q" + std::to_string(q) + ".jpeg");
    imwrite(p, img, o);
    const double s = psnr_u8(imread(p).view(), img.view());
    EXPECT_GT(s, last_psnr) << "quality " << q;
    EXPECT_GT(file_size(p), last_size) << "quality " << q;
    last_psnr = s;
    last_size = file_size(p);
  }
  for (int bad : {0, 101}) {
    WriteOptions o;
    o.jpeg_quality = bad;
    expect_error([&] { imwrite(dir.file("bad.jpg"), img, o); }, ErrorCode::InvalidArgument,
                 {"jpeg_quality out of range", "got " + std::to_string(bad), "expected 1..100"});
  }
  EXPECT_EQ(dir.entries().size(), 3u);
}

TEST(IoRoundTrip, TypesAFormatCannotHold) {
  TempDir dir;
  const Image u16 = random_image(8, 8, 3, ElemType::u16, 1);
  const Image f32 = random_image(8, 8, 1, ElemType::f32, 2);
  const Image rgba = random_image(8, 8, 4, ElemType::u8, 3);
  const std::string j = dir.file("x.jpg");
  expect_error([&] { imwrite(j, u16); }, ErrorCode::Unsupported,
               {"imwrite: " + j, "JPEG stores 8-bit samples only", "got u16", "expected u8"});
  expect_error([&] { imwrite(j, rgba); }, ErrorCode::Unsupported,
               {"JPEG has no alpha channel", "got u8 with 4 channel(s)", "1 or 3 channels"});
  expect_error([&] { imwrite(dir.file("x.png"), f32); }, ErrorCode::Unsupported,
               {"PNG cannot store this element type", "got f32", "expected u8 or u16"});
  EXPECT_TRUE(dir.entries().empty());
}

// ------------------------------------------------------------------ sample images

struct Sample {
  const char* name;
  int w, h, c;
  ElemType t;
  ImageFormat f;
};

TEST(IoSamples, LoadWithTheirShapes) {
  const Sample samples[] = {
      {"camera.png", 512, 512, 1, ElemType::u8, ImageFormat::png},
      {"coffee.png", 600, 400, 3, ElemType::u8, ImageFormat::png},
      {"chelsea.png", 451, 300, 3, ElemType::u8, ImageFormat::png},
      {"rocket.jpg", 640, 427, 3, ElemType::u8, ImageFormat::jpeg},
      {"chessboard_GRAY_U16.tif", 200, 200, 1, ElemType::u16, ImageFormat::tiff},
  };
  for (const Sample& s : samples) {
    const std::string p = kExamples + "/" + s.name;
    SCOPED_TRACE(p);
    if (s.f == ImageFormat::tiff && !has_tiff()) {
      expect_error([&] { imread(p); }, ErrorCode::Unsupported, {"built without libtiff"});
      continue;
    }
    const Image img = imread(p);
    EXPECT_EQ(img.width(), s.w);
    EXPECT_EQ(img.height(), s.h);
    EXPECT_EQ(img.channels(), s.c);
    EXPECT_EQ(img.type(), s.t);
    EXPECT_EQ(img.location(), Location::host);
    expect_info_matches(p, img, s.f);
    // Real content, not a constant fill: first row and last row differ somewhere.
    EXPECT_NE(std::memcmp(img.view().row<const void>(0), img.view().row<const void>(s.h - 1),
                          img.view().row_bytes()),
              0);
  }
}

// ------------------------------------------------------------------ errors

TEST(IoErrors, TruncatedJpeg) {
  const std::string p = std::string(TEXCV_TEST_DATA) + "/truncated.jpg";
  ASSERT_TRUE(fs::exists(p)) << p;
  expect_error([&] { imread(p); }, ErrorCode::Io,
               {"imread: " + p + ": ", "Premature end of JPEG file"});
  expect_error([&] { read_info(p); }, ErrorCode::Io,
               {"read_info: " + p + ": ", "Premature end of JPEG file"});
}

TEST(IoErrors, TruncatedAndCorruptFilesOfEachFormat) {
  TempDir dir;
  const Image img = random_image(64, 48, 3, ElemType::u8, 5);
  std::vector<std::string> exts = {"png", "jpg"};
  if (has_tiff()) exts.push_back("tif");
  for (const auto& ext : exts) {
    SCOPED_TRACE(ext);
    const std::string good = dir.file("good." + ext);
    imwrite(good, img);
    const std::string bytes = read_bytes(good);
    const std::string cut = dir.file("cut." + ext);
    write_bytes(cut, bytes.substr(0, bytes.size() / 2));
    expect_error([&] { imread(cut); }, ErrorCode::Io, {"imread: " + cut + ": "});
  }
  expect_error([&] { imread(dir.file("cut.png")); }, ErrorCode::Io,
               {"unexpected end of file (the file is truncated)"});
  expect_error([&] { imread(dir.file("cut.jpg")); }, ErrorCode::Io, {"Premature end of JPEG file"});
  // A PNG whose image data was damaged: zlib or CRC errors from libpng.
  std::string bytes = read_bytes(dir.file("good.png"));
  for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 16; ++i) bytes[i] ^= 0x5A;
  write_bytes(dir.file("bad.png"), bytes);
  expect_error([&] { imread(dir.file("bad.png")); }, ErrorCode::Io,
               {"imread: " + dir.file("bad.png") + ": "});
}

TEST(IoErrors, EmptyFile) {
  TempDir dir;
  for (const char* name : {"empty.png", "empty.jpg", "empty.tif"}) {
    const std::string p = dir.file(name);
    write_bytes(p, "");
    if (format_from_path(p) == ImageFormat::tiff && !has_tiff()) continue;
    expect_error([&] { imread(p); }, ErrorCode::Io, {"imread: " + p + ": empty file (0 bytes)"});
    expect_error([&] { read_info(p); }, ErrorCode::Io, {"read_info: " + p + ": empty file"});
  }
}

TEST(IoErrors, TextFileNamedPng) {
  TempDir dir;
  const std::string p = dir.file("notes.png");
  write_bytes(p, "this is a text file, not an image\n");
  expect_error([&] { imread(p); }, ErrorCode::Io, {"imread: " + p + ": not a PNG file"});
  // A JPEG under a .png name is named for what it looks like.
  const std::string j = dir.file("photo.png");
  fs::copy_file(kExamples + "/rocket.jpg", j);
  expect_error([&] { read_info(j); }, ErrorCode::Io,
               {"read_info: " + j + ": not a PNG file", "looks like jpeg"});
}

TEST(IoErrors, MissingFileAndDirectory) {
  TempDir dir;
  const std::string p = dir.file("missing.png");
  expect_error([&] { imread(p); }, ErrorCode::Io,
               {"imread: " + p + ": cannot open: No such file or directory"});
  expect_error([&] { read_info(p); }, ErrorCode::Io, {"read_info: " + p, "No such file"});
  const std::string d = dir.file("folder.jpg");
  fs::create_directory(d);
  expect_error([&] { imread(d); }, ErrorCode::Io, {"imread: " + d + ": is a directory"});
}

TEST(IoErrors, CmykJpegIsUnsupported) {
  const std::string p = std::string(TEXCV_TEST_DATA) + "/io/cmyk.jpg";
  expect_error([&] { imread(p); }, ErrorCode::Unsupported,
               {"imread: " + p + ": CMYK/YCCK JPEG files are not supported", "got 4 CMYK"});
  expect_error([&] { read_info(p); }, ErrorCode::Unsupported, {"read_info: " + p, "CMYK"});
}

// A PNG with a valid header claiming 100000 x 100000 RGBA 8-bit (40 GB decoded).
std::string huge_png_header() {
  auto crc = [](const std::string& s) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (unsigned char b : s) {
      c ^= b;
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return c ^ 0xFFFFFFFFu;
  };
  auto be32 = [](std::uint32_t v) {
    return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
  };
  auto chunk = [&](const std::string& type, const std::string& data) {
    return be32(static_cast<std::uint32_t>(data.size())) + type + data + be32(crc(type + data));
  };
  std::string ihdr = be32(100000) + be32(100000) + std::string{8, 6, 0, 0, 0};
  return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IDAT", "xx") +
         chunk("IEND", "");
}

TEST(IoErrors, HeaderClaimingTooManyBytes) {
  TempDir dir;
  const std::string p = dir.file("huge.png");
  write_bytes(p, huge_png_header());
  const ImageInfo info = read_info(p);  // headers only: fine, and what --max-pixels needs
  EXPECT_EQ(info.width, 100000);
  EXPECT_EQ(info.height, 100000);
  EXPECT_EQ(info.channels, 4);
  EXPECT_EQ(info.pixels(), 10000000000ull);
  EXPECT_EQ(info.bytes(), 40000000000ull);
  expect_error([&] { imread(p); }, ErrorCode::Io,
               {"imread: " + p + ": the header claims an image too large to decode",
                "100000x100000x4 u8", "got 40000000000 bytes", "expected at most 2147483648"});
}

// Open file descriptors of this process (Linux: /proc/self/fd).
std::size_t open_fds() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

TEST(IoErrors, FailuresCloseTheirFiles) {
  // Every error path (libpng/libjpeg longjmps, libtiff failures, failed renames) must close
  // what it opened: run them all many times and count descriptors.
  TempDir dir;
  const Image img = random_image(32, 16, 3, ElemType::u8, 9);
  std::vector<std::string> exts = {"png", "jpg"};
  if (has_tiff()) exts.push_back("tif");
  for (const auto& ext : exts) {
    imwrite(dir.file("good." + ext), img);
    const std::string bytes = read_bytes(dir.file("good." + ext));
    write_bytes(dir.file("cut." + ext), bytes.substr(0, bytes.size() * 2 / 3));
    fs::create_directory(dir.file("taken." + ext));
  }
  const std::size_t before = open_fds();
  for (int i = 0; i < 50; ++i) {
    for (const auto& ext : exts) {
      EXPECT_THROW(imread(dir.file("cut." + ext)), Error);
      EXPECT_THROW(imwrite(dir.file("taken." + ext), img), Error);
      EXPECT_NO_THROW(read_info(dir.file("good." + ext)));
    }
    EXPECT_THROW(imread(std::string(TEXCV_TEST_DATA) + "/io/cmyk.jpg"), Error);
    EXPECT_THROW(imread(std::string(TEXCV_TEST_DATA) + "/truncated.jpg"), Error);
  }
  EXPECT_EQ(open_fds(), before);
}

// ------------------------------------------------------------------ atomic writes

TEST(IoWrite, ParentFolderMissing) {
  TempDir dir;
  const Image img = random_image(8, 8, 3, ElemType::u8, 1);
  const std::string p = dir.file("no/such/folder/out.png");
  expect_error([&] { imwrite(p, img); }, ErrorCode::Io,
               {"imwrite: " + p + ": cannot create a temporary file in '" +
                dir.file("no/such/folder") + "': No such file or directory"});
  EXPECT_TRUE(dir.entries().empty());
}

TEST(IoWrite, TargetIsADirectoryLeavesNoTemporary) {
  // The data is encoded into the temporary file, then the rename fails: the temporary must go.
  TempDir dir;
  const Image img = random_image(8, 8, 3, ElemType::u8, 1);
  std::vector<std::string> names = {"taken.png", "taken.jpg"};
  if (has_tiff()) names.push_back("taken.tif");
  for (const auto& name : names) {
    const std::string p = dir.file(name);
    fs::create_directory(p);
    expect_error([&] { imwrite(p, img); }, ErrorCode::Io,
                 {"imwrite: " + p + ": cannot move the written file into place", "directory"});
  }
  EXPECT_EQ(dir.entries(), names.size() == 3
                               ? (std::vector<std::string>{"taken.jpg", "taken.png", "taken.tif"})
                               : (std::vector<std::string>{"taken.jpg", "taken.png"}));
}

TEST(IoWrite, FailedWriteKeepsTheOldFile) {
  TempDir dir;
  const std::string p = dir.file("keep.png");
  const Image first = random_image(9, 7, 1, ElemType::u8, 1);
  imwrite(p, first);
  const Image f32 = random_image(9, 7, 1, ElemType::f32, 2);
  expect_error([&] { imwrite(p, f32); }, ErrorCode::Unsupported, {"PNG cannot store"});
  expect_same_pixels(imread(p).view(), first);
  // Overwriting with a good image replaces it, leaving one file.
  const Image second = random_image(5, 4, 3, ElemType::u16, 3);
  imwrite(p, second);
  expect_same_pixels(imread(p).view(), second);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.png"});
}

TEST(IoWrite, RelativePathAndPermissions) {
  TempDir dir;
  const fs::path old = fs::current_path();
  fs::current_path(dir.path());
  const Image img = random_image(6, 5, 3, ElemType::u8, 4);
  const mode_t old_mask = ::umask(022);
  EXPECT_NO_THROW(imwrite("rel.png", img));
  ::umask(old_mask);
  fs::current_path(old);
  expect_same_pixels(imread(dir.file("rel.png")).view(), img);
  // Created like any new file (0666 minus the umask), not with mkstemp's 0600.
  const auto perms = fs::status(dir.file("rel.png")).permissions() & fs::perms::all;
  EXPECT_EQ(perms, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                       fs::perms::others_read);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"rel.png"});
}

TEST(IoWrite, InvalidView) {
  TempDir dir;
  ImageView empty;
  expect_error([&] { imwrite(dir.file("e.png"), empty); }, ErrorCode::InvalidArgument, {"imwrite"});
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace texcv::test
