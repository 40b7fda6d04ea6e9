// In-memory codecs (texcv/io.hpp): imdecode and read_info over bytes give what imread and
// read_info give for a file of those bytes (pixels, ImageInfo, errors and their messages,
// corrupt-data verdicts, pages), with the format from the signature; imencode gives the bytes
// imwrite writes, byte for byte, with imwrite's checks under the op "imencode".
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/io_test_util.hpp"

namespace texcv::test {
namespace {

const std::string kData = std::string(TEXCV_TEST_DATA) + "/io/";

bool has_tiff() {
#if defined(TEXCV_HAS_TIFF)
  return true;
#else
  return false;
#endif
}

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

const unsigned char* u8p(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

// What a read gave: the image, or the error (code and message); the notes.
struct Outcome {
  bool threw = false;
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  Image img;
  ReadNotes notes;
  ImageInfo info;
};

Outcome from_file(const std::string& path, bool allow) {
  Outcome o;
  try {
    o.img = imread(path, ReadOptions{.allow_corrupt = allow}, &o.notes);
  } catch (const Error& e) {
    o.threw = true;
    o.code = e.code();
    o.message = e.what();
  }
  return o;
}

Outcome from_memory(const std::string& bytes, const std::string& name, bool allow) {
  Outcome o;
  try {
    o.img = imdecode(u8p(bytes), bytes.size(), name, ReadOptions{.allow_corrupt = allow}, &o.notes);
  } catch (const Error& e) {
    o.threw = true;
    o.code = e.code();
    o.message = e.what();
  }
  return o;
}

Outcome info_of_file(const std::string& path) {
  Outcome o;
  try {
    o.info = read_info(path);
  } catch (const Error& e) {
    o.threw = true;
    o.code = e.code();
    o.message = e.what();
  }
  return o;
}

Outcome info_of_memory(const std::string& bytes, const std::string& name) {
  Outcome o;
  try {
    o.info = read_info(u8p(bytes), bytes.size(), name);
  } catch (const Error& e) {
    o.threw = true;
    o.code = e.code();
    o.message = e.what();
  }
  return o;
}

// imdecode and read_info on the file's bytes, named by its path, say what imread and read_info
// say of the file: the same image or the same error, notes and header, with and without
// allow_corrupt. Returns whether imread (default options) succeeded.
bool expect_same_verdict(const std::string& path) {
  SCOPED_TRACE("memory vs file: " + path);
  const std::string bytes = read_bytes(path);
  bool ok = false;
  for (const bool allow : {false, true}) {
    SCOPED_TRACE(allow ? "allow_corrupt" : "default");
    const Outcome f = from_file(path, allow), m = from_memory(bytes, path, allow);
    EXPECT_EQ(f.threw, m.threw) << "file: '" << f.message << "', memory: '" << m.message << "'";
    EXPECT_EQ(f.code, m.code);
    EXPECT_EQ(f.message, m.message);
    EXPECT_EQ(f.notes.corrupt, m.notes.corrupt);
    EXPECT_EQ(f.notes.pages, m.notes.pages);
    if (!f.threw && !m.threw) expect_same_pixels(m.img.view(), f.img.view());
    if (!allow) ok = !f.threw;
  }
  const Outcome fi = info_of_file(path), mi = info_of_memory(bytes, path);
  EXPECT_EQ(fi.threw, mi.threw) << "file: '" << fi.message << "', memory: '" << mi.message << "'";
  EXPECT_EQ(fi.code, mi.code);
  EXPECT_EQ(fi.message, mi.message);
  EXPECT_EQ(fi.info.width, mi.info.width);
  EXPECT_EQ(fi.info.height, mi.info.height);
  EXPECT_EQ(fi.info.channels, mi.info.channels);
  EXPECT_EQ(fi.info.type, mi.info.type);
  EXPECT_EQ(fi.info.format, mi.info.format);
  EXPECT_EQ(fi.info.pages, mi.info.pages);
  return ok;
}

TEST(IoMemory, DecodesTheSampleImagesAsImread) {
  std::vector<std::string> files = {
      sample_image("camera.png"),           sample_image("chelsea.png"),
      sample_image("coffee.png"),           sample_image("rocket.jpg"),
      sample_image("astronaut.png"),        sample_image("brick.png"),
      sample_image("hubble_deep_field.jpg")};
  for (const char* f : {"ga16.png", "ga8.png", "gray1.png", "gray2.png", "gray8_trns.png",
                        "pal4_trns.png", "pal8.png", "rgb16_adam7.png"})
    files.push_back(kData + f);
  if (has_tiff()) {
    files.push_back(sample_image("chessboard_GRAY_U16.tif"));
    for (const char* f :
         {"strip_ga8.tif", "strip_gray16_be.tif", "tiled_gray_f32.tif", "tiled_rgb16.tif"})
      files.push_back(kData + f);
  }
  for (const std::string& f : files) EXPECT_TRUE(expect_same_verdict(f)) << f;
  // The format is the signature's: a name without an extension, or a wrong one, changes nothing.
  const std::string png = read_bytes(sample_image("coffee.png"));
  const ImageInfo info = read_info(u8p(png), png.size(), "photo.jpg");
  EXPECT_EQ(info.format, ImageFormat::png);
  EXPECT_EQ(info.width, 600);
  EXPECT_EQ(info.height, 400);
  expect_same_pixels(imdecode(u8p(png), png.size(), "").view(),
                     imread(sample_image("coffee.png")).view());
}

TEST(IoMemory, UnsupportedKindsAsImread) {
  std::vector<std::string> files = {kData + "cmyk.jpg"};
  if (has_tiff())
    for (const char* f : {"miniswhite8.tif", "int16.tif", "planar_rgb8.tif"})
      files.push_back(kData + f);
  for (const std::string& f : files) EXPECT_FALSE(expect_same_verdict(f)) << f;
  const std::string cmyk = read_bytes(kData + "cmyk.jpg");
  expect_error([&] { imdecode(u8p(cmyk), cmyk.size(), "scan 7"); }, ErrorCode::Unsupported,
               "imread: scan 7: CMYK/YCCK JPEG files are not supported; got 4 CMYK components, "
               "expected gray or RGB (YCbCr)");
}

TEST(IoMemory, DamagedDataAsImread) {
  // Damage made from good files: cut in the image data, flipped bytes, a bad Huffman code, a
  // marker in the entropy data; each read from the file and from its bytes.
  TempDir dir;
  std::vector<std::string> damaged = {std::string(TEXCV_TEST_DATA) + "/truncated.jpg"};
  Image big = random_image(300, 250, 4, ElemType::u16, 21);  // TIFF: 3 strips
  Image rgb = random_image(96, 64, 3, ElemType::u8, 22);
  std::vector<std::string> exts = {"png", "jpg"};
  if (has_tiff()) exts.push_back("tif");
  for (const std::string& ext : exts) {
    const std::string good = dir.file("good." + ext);
    imwrite(good, ext == "tif" ? big.view() : rgb.view());
    const std::string b = read_bytes(good);
    for (const std::size_t keep : {b.size() / 2, b.size() * 9 / 10, b.size() - 1}) {
      const std::string p = dir.file("cut" + std::to_string(keep) + "." + ext);
      write_bytes(p, b.substr(0, keep));
      damaged.push_back(p);
    }
    std::string flipped = b;
    for (std::size_t i = b.size() * 2 / 3; i < b.size() * 2 / 3 + 24; ++i) flipped[i] ^= 0x5A;
    const std::string p = dir.file("flipped." + ext);
    write_bytes(p, flipped);
    // Flipped bytes in an uncompressed TIFF's strips are other pixels, not damage a reader can
    // see (codec_tiff.cpp): the same image from both.
    if (ext == "tif")
      EXPECT_TRUE(expect_same_verdict(p));
    else
      damaged.push_back(p);
  }
  {
    // JPEG: all-ones bits in the entropy data (bad Huffman code, recoverable), an EOI inside it.
    const std::string b = read_bytes(dir.file("good.jpg"));
    std::string huff = b, marker = b;
    const std::size_t mid = b.size() / 2;
    for (std::size_t i = 0; i < 64; i += 2) {
      huff[mid + i] = static_cast<char>(0xFF);
      huff[mid + i + 1] = 0;
    }
    std::size_t m = mid;
    while (static_cast<unsigned char>(marker[m - 1]) == 0xFF) ++m;
    marker[m] = static_cast<char>(0xFF);
    marker[m + 1] = static_cast<char>(0xD9);
    write_bytes(dir.file("huff.jpg"), huff);
    write_bytes(dir.file("marker.jpg"), marker);
    damaged.push_back(dir.file("huff.jpg"));
    damaged.push_back(dir.file("marker.jpg"));
  }
  for (const std::string& p : damaged) EXPECT_FALSE(expect_same_verdict(p)) << p;
  // A recoverable one: allow_corrupt gives the same recovered image and warning from memory.
  const std::string huff = read_bytes(dir.file("huff.jpg"));
  ReadNotes notes;
  const Image img =
      imdecode(u8p(huff), huff.size(), "h", ReadOptions{.allow_corrupt = true}, &notes);
  EXPECT_EQ(notes.corrupt, "Corrupt JPEG data: bad Huffman code");
  EXPECT_EQ(img.width(), 96);
  expect_error([&] { imdecode(u8p(huff), huff.size(), "h"); }, ErrorCode::Io,
               "imread: h: Corrupt JPEG data: bad Huffman code");
}

TEST(IoMemory, TiffPagesFromMemory) {
  if (!has_tiff()) GTEST_SKIP() << "built without libtiff";
  const std::string b = read_bytes(sample_image("chessboard_GRAY_U16.tif"));
  ReadNotes notes;
  notes.pages = 7;
  notes.corrupt = "stale";
  const Image img = imdecode(u8p(b), b.size(), "board", {}, &notes);
  EXPECT_EQ(notes.pages, read_info(sample_image("chessboard_GRAY_U16.tif")).pages);
  EXPECT_EQ(notes.corrupt, "");
  EXPECT_EQ(read_info(u8p(b), b.size(), "board").pages, notes.pages);
  EXPECT_EQ(img.type(), ElemType::u16);
}

TEST(IoMemory, EmptyAndUnrecognisedData) {
  const std::string sigs =
      "the signature of PNG (89 50 4E 47 0D 0A 1A 0A), JPEG (FF D8 FF) or TIFF (49 49 2A 00 or "
      "4D 4D 00 2A; BigTIFF 49 49 2B 00 or 4D 4D 00 2B)";
  const unsigned char none[1] = {0};
  expect_error(
      [&] { imdecode(none, 0, "in.bin"); }, ErrorCode::Io,
      "imread: in.bin: empty data (0 bytes); expected an encoded image starting with " + sigs);
  expect_error(
      [&] { read_info(none, 0, "in.bin"); }, ErrorCode::Io,
      "read_info: in.bin: empty data (0 bytes); expected an encoded image starting with " + sigs);
  expect_error([&] { imdecode(nullptr, 0, ""); }, ErrorCode::Io,
               "imread: empty data (0 bytes); expected an encoded image starting with " + sigs);
  const std::string gif("GIF89a\x01\x00\x01\x00", 10);
  expect_error([&] { imdecode(u8p(gif), gif.size(), "a.gif"); }, ErrorCode::Io,
               "imread: a.gif: not a PNG, JPEG or TIFF image; got data starting with 47 49 46 38 "
               "39 61 01 00 (10 bytes), expected " +
                   sigs);
  const std::string two = "\xFF\xD8";  // too short for JPEG's three bytes
  expect_error([&] { read_info(u8p(two), two.size(), "x"); }, ErrorCode::Io,
               "read_info: x: not a PNG, JPEG or TIFF image; got data starting with FF D8 (2 "
               "bytes), expected " +
                   sigs);
  expect_error([&] { imdecode(nullptr, 5, "x"); }, ErrorCode::InvalidArgument,
               "imdecode: x: data is null; got nullptr with 5 bytes, expected the address of the "
               "encoded bytes");
  expect_error([&] { read_info(nullptr, 5, "x"); }, ErrorCode::InvalidArgument,
               "read_info: x: data is null; got nullptr with 5 bytes, expected the address of the "
               "encoded bytes");
  // A signature alone: the codec's verdict, as for a file of those bytes.
  TempDir dir;
  const std::string sig = "\xFF\xD8\xFF";
  write_bytes(dir.file("sig.jpg"), sig);
  EXPECT_FALSE(expect_same_verdict(dir.file("sig.jpg")));
  const std::string png_sig = "\x89PNG\r\n\x1a\n";
  write_bytes(dir.file("sig.png"), png_sig);
  EXPECT_FALSE(expect_same_verdict(dir.file("sig.png")));
  if (has_tiff()) {
    write_bytes(dir.file("sig.tif"), std::string("II*\0", 4));
    EXPECT_FALSE(expect_same_verdict(dir.file("sig.tif")));
  }
}

// ------------------------------------------------------------------ imencode

TEST(IoEncode, SameBytesAsImwrite) {
  TempDir dir;
  Image owner;
  for (const ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
    for (const int c : {1, 3, 4}) {
      // 300 x 250: several TIFF strips for the wider types; a padded view (pitch > row).
      const ImageView v = padded_view(owner, 300, 250, c, t, 7, 2, 3);
      copy(random_image(300, 250, c, t, 40 + c).view(), v);
      std::vector<std::pair<ImageFormat, WriteOptions>> cases;
      if (t != ElemType::f32) cases.push_back({ImageFormat::png, WriteOptions{}});
      if (t == ElemType::u8 && c != 4) {
        cases.push_back({ImageFormat::jpeg, WriteOptions{}});
        WriteOptions q;
        q.jpeg_quality = 40;
        cases.push_back({ImageFormat::jpeg, q});
      }
      if (has_tiff()) {
        for (const TiffCompression k : supported_tiff_compressions()) {
          WriteOptions o;
          o.tiff_compression = k;
          cases.push_back({ImageFormat::tiff, o});
        }
      }
      for (const auto& [fmt, o] : cases) {
        SCOPED_TRACE(std::string(to_string(fmt)) + " " + to_string(t) + " x" + std::to_string(c) +
                     " tiff " + to_string(o.tiff_compression) + " q" +
                     std::to_string(o.jpeg_quality));
        const std::string ext = fmt == ImageFormat::png    ? "png"
                                : fmt == ImageFormat::jpeg ? "jpg"
                                                           : "tif";
        const std::string p = dir.file("w." + ext);
        imwrite(p, v, o);
        const std::string file = read_bytes(p);
        const std::vector<unsigned char> mem = imencode(v, fmt, o);
        ASSERT_EQ(mem.size(), file.size());
        EXPECT_EQ(std::memcmp(mem.data(), file.data(), file.size()), 0);
        // And back: imdecode of those bytes is imread of the file.
        expect_same_pixels(imdecode(mem.data(), mem.size(), p).view(), imread(p).view());
      }
    }
  }
  // The sample photograph, at the defaults.
  const Image photo = imread(sample_image("coffee.png"));
  for (const ImageFormat fmt : {ImageFormat::png, ImageFormat::jpeg, ImageFormat::tiff}) {
    if (fmt == ImageFormat::tiff && !has_tiff()) continue;
    const std::string p = dir.file(std::string("photo.") + to_string(fmt));
    imwrite(p, photo.view());
    const std::string file = read_bytes(p);
    const std::vector<unsigned char> mem = imencode(photo.view(), fmt);
    EXPECT_EQ(std::string(mem.begin(), mem.end()), file) << to_string(fmt);
  }
}

TEST(IoEncode, ChecksAsImwrite) {
  const Image f32 = random_image(8, 4, 3, ElemType::f32, 1);
  const Image u16 = random_image(8, 4, 3, ElemType::u16, 2);
  const Image rgba = random_image(8, 4, 4, ElemType::u8, 3);
  const Image rgb = random_image(8, 4, 3, ElemType::u8, 4);
  expect_error([&] { imencode(f32.view(), ImageFormat::png); }, ErrorCode::Unsupported,
               "imencode: PNG cannot store this element type; got f32 with 3 channel(s), expected "
               "u8 or u16");
  expect_error([&] { imencode(u16.view(), ImageFormat::jpeg); }, ErrorCode::Unsupported,
               "imencode: JPEG stores 8-bit samples only (convert to u8 first); got u16 with 3 "
               "channel(s), expected u8");
  expect_error(
      [&] { imencode(rgba.view(), ImageFormat::jpeg); }, ErrorCode::Unsupported,
      "imencode: JPEG has no alpha channel (drop it first, or write PNG/TIFF); got u8 with "
      "4 channel(s), expected 1 or 3 channels");
  WriteOptions q;
  q.jpeg_quality = 0;
  expect_error([&] { imencode(rgb.view(), ImageFormat::jpeg, q); }, ErrorCode::InvalidArgument,
               "imencode: jpeg_quality out of range; got 0, expected 1..100");
  WriteOptions z;
  z.png_compression = 10;
  expect_error([&] { imencode(rgb.view(), ImageFormat::png, z); }, ErrorCode::InvalidArgument,
               "imencode: png_compression out of range; got 10, expected 0..9");
  ImageView bad = rgb.view();
  bad.channels = 2;
  expect_error([&] { imencode(bad, ImageFormat::png); }, ErrorCode::InvalidArgument,
               "imencode: img channel count is not supported; got 2, expected 1, 3 or 4");
  ImageView dev = rgb.view();
  dev.location = Location::device;
  expect_error([&] { imencode(dev, ImageFormat::png); }, ErrorCode::InvalidArgument,
               "imencode: the image must be in host memory; got device, expected host (copy "
               "device images to the host first)");
  // imwrite says the same with its op and the path.
  TempDir dir;
  expect_error([&] { imwrite(dir.file("a.png"), f32.view()); }, ErrorCode::Unsupported,
               "imwrite: " + dir.file("a.png") +
                   ": PNG cannot store this element type; got f32 with 3 channel(s), expected u8 "
                   "or u16");
  if (has_tiff()) {
    WriteOptions t;
    t.tiff_compression = TiffCompression::deflate;
    t.tiff_level = 12;
    expect_error([&] { imencode(rgb.view(), ImageFormat::tiff, t); }, ErrorCode::InvalidArgument,
                 "imencode: tiff_level out of range for deflate; got 12, expected 0 (default) or "
                 "1..9");
    // TIFF holds what PNG and JPEG cannot.
    EXPECT_FALSE(imencode(f32.view(), ImageFormat::tiff).empty());
  } else {
    expect_error([&] { imencode(rgb.view(), ImageFormat::tiff); }, ErrorCode::Unsupported,
                 "imencode: TIFF files are not supported: texcv was built without libtiff");
  }
  EXPECT_TRUE(dir.entries().empty());
}

TEST(IoEncode, JpegTooLargeAsImwrite) {
  // 65501 x 1: over JPEG's 65500 pixels per side; the view is never read.
  std::vector<unsigned char> row(65501);
  const ImageView v{row.data(), 65501, 1, 1, ElemType::u8, row.size(), Location::host};
  expect_error([&] { imencode(v, ImageFormat::jpeg); }, ErrorCode::Unsupported,
               "imencode: image too large for JPEG; got 65501x1, expected at most 65500 pixels "
               "per side");
}

}  // namespace
}  // namespace texcv::test
