// Corrupt data is never "ok" (texcv/io.hpp, ReadOptions): JPEG, PNG and TIFF files damaged here
// from good ones (truncated, bytes flipped in the entropy data, a marker overwritten, a bad CRC,
// extra compressed data, a bad strip offset) fail imread with Error(Io) and the decoder's message
// naming the path; ReadOptions::allow_corrupt decodes those the decoder recovers from, with the
// warning in ReadNotes::corrupt; check_jpeg gives imread's verdict and message on every JPEG;
// read_info and ReadNotes count a TIFF's pages.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/io_test_util.hpp"

namespace texcv::test {
namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

bool has_tiff() {
#if defined(TEXCV_HAS_TIFF)
  return true;
#else
  return false;
#endif
}

// What a read gave: whether it threw, the code and message, and notes.corrupt otherwise.
struct Verdict {
  bool threw = false;
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::string corrupt;
};

Verdict imread_verdict(const std::string& path, bool allow) {
  Verdict v;
  try {
    ReadNotes notes;
    imread(path, ReadOptions{.allow_corrupt = allow}, &notes);
    v.corrupt = notes.corrupt;
  } catch (const Error& e) {
    v.threw = true;
    v.code = e.code();
    v.message = e.what();
  }
  return v;
}

Verdict check_jpeg_verdict(const std::string& path, bool allow) {
  const std::string bytes = read_bytes(path);
  Verdict v;
  try {
    v.corrupt = check_jpeg(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), path,
                           ReadOptions{.allow_corrupt = allow});
  } catch (const Error& e) {
    v.threw = true;
    v.code = e.code();
    v.message = e.what();
  }
  return v;
}

// check_jpeg on the file's bytes says what imread says of the file, with and without
// allow_corrupt.
void expect_check_jpeg_agrees(const std::string& path) {
  SCOPED_TRACE("check_jpeg vs imread: " + path);
  for (const bool allow : {false, true}) {
    SCOPED_TRACE(allow ? "allow_corrupt" : "default");
    const Verdict a = imread_verdict(path, allow), b = check_jpeg_verdict(path, allow);
    EXPECT_EQ(a.threw, b.threw) << "imread: '" << a.message << "', check_jpeg: '" << b.message
                                << "'";
    EXPECT_EQ(a.code, b.code);
    EXPECT_EQ(a.message, b.message);
    EXPECT_EQ(a.corrupt, b.corrupt);
  }
}

// The reason of the Error(Io) imread(path) throws, after "imread: <path>: " (checked).
std::string default_failure(const std::string& path) {
  try {
    imread(path);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Io) << e.what();
    const std::string msg = e.what(), head = "imread: " + path + ": ";
    EXPECT_EQ(msg.rfind(head, 0), 0u) << msg;
    return msg.rfind(head, 0) == 0 ? msg.substr(head.size()) : msg;
  }
  ADD_FAILURE() << "imread(" << path << ") did not throw";
  return {};
}

// A recoverable damage: the default read fails with a reason that starts with `starts` and
// contains `has`; allow_corrupt decodes a w x h image and reports that very reason.
Image expect_corrupt(const std::string& path, const std::string& starts, const std::string& has,
                     int w, int h, int pages = 1) {
  SCOPED_TRACE(path);
  const std::string reason = default_failure(path);
  EXPECT_EQ(reason.rfind(starts, 0), 0u) << reason;
  EXPECT_NE(reason.find(has), std::string::npos) << reason;
  ReadNotes notes;
  notes.corrupt = "stale";
  notes.pages = 9;
  Image img;
  EXPECT_NO_THROW(img = imread(path, ReadOptions{.allow_corrupt = true}, &notes));
  EXPECT_EQ(img.width(), w);
  EXPECT_EQ(img.height(), h);
  EXPECT_EQ(notes.corrupt, reason);
  EXPECT_EQ(notes.pages, pages);
  return img;
}

// A damage no option gets past: both reads throw the same Error(Io) containing `has`.
void expect_unrecoverable(const std::string& path, const std::string& has) {
  SCOPED_TRACE(path);
  const std::string reason = default_failure(path);
  EXPECT_NE(reason.find(has), std::string::npos) << reason;
  const Verdict v = imread_verdict(path, true);
  EXPECT_TRUE(v.threw);
  EXPECT_EQ(v.code, ErrorCode::Io);
  EXPECT_EQ(v.message, "imread: " + path + ": " + reason);
}

// A good file: read with empty notes, the same pixels with and without allow_corrupt.
Image expect_good(const std::string& path, int pages = 1) {
  SCOPED_TRACE(path);
  ReadNotes notes;
  notes.corrupt = "stale";
  Image img;
  EXPECT_NO_THROW(img = imread(path, ReadOptions{}, &notes));
  EXPECT_EQ(notes.corrupt, "");
  EXPECT_EQ(notes.pages, pages);
  EXPECT_EQ(read_info(path).pages, pages);
  ReadNotes allowed;
  const Image again = imread(path, ReadOptions{.allow_corrupt = true}, &allowed);
  EXPECT_EQ(allowed.corrupt, "");
  EXPECT_EQ(compare(img.view(), again.view()).count, 0);
  return img;
}

// Rows 0..rows-1 of a and b are identical (same width and channels).
bool same_rows(const ImageView& a, const ImageView& b, int rows) {
  for (int y = 0; y < rows; ++y)
    if (std::memcmp(a.row<const void>(y), b.row<const void>(y), a.row_bytes()) != 0) return false;
  return true;
}

// ------------------------------------------------------------------ JPEG

// The JPEG samples of the tests: the photograph as shipped (1000x872 4:4:4) and as texcv writes
// it (4:2:0, q95), and a gray one.
struct JpegSample {
  std::string name;
  std::string bytes;
  int w, h;
};

std::vector<JpegSample> jpeg_samples(const TempDir& dir) {
  const std::string photo = sample_image("hubble_deep_field.jpg");
  const Image img = imread(photo);
  imwrite(dir.file("q95.jpg"), img.view(), WriteOptions{.jpeg_quality = 95});
  Image gray(img.width(), img.height(), 1, ElemType::u8);
  cvt_color(img.view(), gray.view(), ColorCode::rgb2gray);
  imwrite(dir.file("gray.jpg"), gray.view());
  return {{"hubble", read_bytes(photo), img.width(), img.height()},
          {"q95", read_bytes(dir.file("q95.jpg")), img.width(), img.height()},
          {"gray", read_bytes(dir.file("gray.jpg")), img.width(), img.height()}};
}

TEST(IoCorruptJpeg, GoodFilesPassWithEmptyNotes) {
  TempDir dir;
  for (const JpegSample& s : jpeg_samples(dir)) {
    const std::string p = dir.file("good_" + s.name + ".jpg");
    write_bytes(p, s.bytes);
    const Image img = expect_good(p);
    EXPECT_EQ(img.width(), s.w);
    expect_check_jpeg_agrees(p);
    const auto* data = reinterpret_cast<const unsigned char*>(s.bytes.data());
    EXPECT_EQ(check_jpeg(data, s.bytes.size(), p), "");
  }
  expect_good(sample_image("rocket.jpg"));
  expect_check_jpeg_agrees(sample_image("rocket.jpg"));
}

TEST(IoCorruptJpeg, TruncatedInTheEntropyData) {
  TempDir dir;
  for (const JpegSample& s : jpeg_samples(dir)) {
    const std::size_t start = jpeg_scan_start(s.bytes);
    ASSERT_GT(start, 0u) << s.name;
    const std::string p = dir.file("cut_" + s.name + ".jpg");
    write_bytes(p, s.bytes.substr(0, start + (s.bytes.size() - start) / 2));
    const Image img = expect_corrupt(p, "Corrupt JPEG data: Premature end of JPEG file",
                                     "Premature end of JPEG file", s.w, s.h);
    expect_check_jpeg_agrees(p);
    // What libjpeg recovered: the top half decoded, the rest padded (not one value all over).
    EXPECT_NE(std::memcmp(img.view().row<const void>(0),
                          img.view().row<const void>(img.height() - 1), img.view().row_bytes()),
              0);
  }
}

TEST(IoCorruptJpeg, FlippedEntropyBytesAreABadHuffmanCode) {
  // All-ones bits (FF 00 is a stuffed FF) form no Huffman code: JWRN_HUFF_BAD_CODE, which the
  // CPU decoder used to ignore, giving an image far from the original.
  TempDir dir;
  for (const JpegSample& s : jpeg_samples(dir)) {
    std::string b = s.bytes;
    const std::size_t start = jpeg_scan_start(b);
    const std::size_t mid = start + (b.size() - start) / 3;
    for (std::size_t i = 0; i < 64; i += 2) {
      b[mid + i] = static_cast<char>(0xFF);
      b[mid + i + 1] = 0;
    }
    const std::string p = dir.file("huff_" + s.name + ".jpg");
    write_bytes(p, b);
    expect_corrupt(p, "Corrupt JPEG data: bad Huffman code", "bad Huffman code", s.w, s.h);
    expect_check_jpeg_agrees(p);
  }
}

TEST(IoCorruptJpeg, MarkerInsideTheEntropyData) {
  // An EOI marker written over the middle of the scan: "premature end of data segment".
  TempDir dir;
  for (const JpegSample& s : jpeg_samples(dir)) {
    std::string b = s.bytes;
    const std::size_t start = jpeg_scan_start(b);
    std::size_t mid = start + (b.size() - start) / 2;
    while (static_cast<unsigned char>(b[mid - 1]) == 0xFF) ++mid;  // not inside FF 00
    b[mid] = static_cast<char>(0xFF);
    b[mid + 1] = static_cast<char>(0xD9);
    const std::string p = dir.file("marker_" + s.name + ".jpg");
    write_bytes(p, b);
    expect_corrupt(p, "Corrupt JPEG data: premature end of data segment",
                   "premature end of data segment", s.w, s.h);
    expect_check_jpeg_agrees(p);
  }
}

TEST(IoCorruptJpeg, ExtraneousBytesBeforeTheEndMarker) {
  TempDir dir;
  for (const JpegSample& s : jpeg_samples(dir)) {
    std::string b = s.bytes;
    ASSERT_EQ(static_cast<unsigned char>(b[b.size() - 2]), 0xFF);
    ASSERT_EQ(static_cast<unsigned char>(b[b.size() - 1]), 0xD9);
    b.insert(b.size() - 2, std::string(40, '\x11'));
    const std::string p = dir.file("extra_" + s.name + ".jpg");
    write_bytes(p, b);
    const Image img =
        expect_corrupt(p, "Corrupt JPEG data: ", "extraneous bytes before marker 0xd9", s.w, s.h);
    // The image data itself was intact: allow_corrupt gives the good image.
    write_bytes(dir.file("ref.jpg"), s.bytes);
    EXPECT_EQ(compare(img.view(), imread(dir.file("ref.jpg")).view()).count, 0);
    expect_check_jpeg_agrees(p);
  }
}

TEST(IoCorruptJpeg, OverwrittenMarkers) {
  TempDir dir;
  for (const JpegSample& s : jpeg_samples(dir)) {
    SCOPED_TRACE(s.name);
    // The end marker zeroed: the file ends without EOI.
    std::string b = s.bytes;
    b[b.size() - 2] = 0;
    b[b.size() - 1] = 0;
    const std::string no_eoi = dir.file("noeoi_" + s.name + ".jpg");
    write_bytes(no_eoi, b);
    expect_corrupt(no_eoi, "Corrupt JPEG data: Premature end of JPEG file", "", s.w, s.h);
    expect_check_jpeg_agrees(no_eoi);
    // The frame header (SOF0) turned into a comment: no decoder gets past that.
    b = s.bytes;
    const std::size_t sof = b.find("\xFF\xC0");
    ASSERT_NE(sof, std::string::npos);
    b[sof + 1] = static_cast<char>(0xFE);
    const std::string no_sof = dir.file("nosof_" + s.name + ".jpg");
    write_bytes(no_sof, b);
    expect_unrecoverable(no_sof, "Invalid JPEG file structure");
    expect_check_jpeg_agrees(no_sof);
  }
}

TEST(IoCorruptJpeg, CheckJpegAgreesOnFilesThatAreNotGoodJpegs) {
  TempDir dir;
  // Truncated in its header, CMYK (Unsupported), empty, a PNG named .jpg.
  expect_check_jpeg_agrees(std::string(TEXCV_TEST_DATA) + "/truncated.jpg");
  expect_check_jpeg_agrees(std::string(TEXCV_TEST_DATA) + "/io/cmyk.jpg");
  const std::string empty = dir.file("empty.jpg");
  write_bytes(empty, "");
  expect_check_jpeg_agrees(empty);
  const std::string png = dir.file("png.jpg");
  write_bytes(png, read_bytes(sample_image("camera.png")));
  expect_check_jpeg_agrees(png);
  // A header claiming more than kMaxImageBytes: 65500 x 65500 x 3 (12.9 GB).
  std::string b = read_bytes(sample_image("rocket.jpg"));
  const std::size_t sof = b.find("\xFF\xC0");
  ASSERT_NE(sof, std::string::npos);
  for (const std::size_t k : {sof + 5, sof + 7}) {
    b[k] = static_cast<char>(0xFF);
    b[k + 1] = static_cast<char>(0xDC);
  }
  const std::string huge = dir.file("huge.jpg");
  write_bytes(huge, b);
  expect_check_jpeg_agrees(huge);
  EXPECT_NE(imread_verdict(huge, false).message.find("too large to decode"), std::string::npos);
  // Sampling factors that do not divide the largest (luma 2x1, chroma 3x1): imread stops at
  // jpeg_start_decompress ("Fractional sampling not implemented yet") before any entropy data,
  // which check_jpeg's passes read first (found by fuzz_jpeg: check_jpeg named a data error).
  b = read_bytes(sample_image("rocket.jpg"));
  const std::size_t sof0 = b.find("\xFF\xC0");
  ASSERT_NE(sof0, std::string::npos);
  ASSERT_EQ(static_cast<unsigned char>(b[sof0 + 9]), 3u);  // three components
  b[sof0 + 11] = static_cast<char>(0x21);
  b[sof0 + 14] = static_cast<char>(0x31);
  b[sof0 + 17] = static_cast<char>(0x11);
  const std::string fractional = dir.file("fractional.jpg");
  write_bytes(fractional, b);
  expect_check_jpeg_agrees(fractional);
  EXPECT_NE(imread_verdict(fractional, false).message.find("Fractional sampling"),
            std::string::npos)
      << imread_verdict(fractional, false).message;
}

// ------------------------------------------------------------------ PNG

std::uint32_t crc32(const std::string& s) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return c ^ 0xFFFFFFFFu;
}

std::string be32(std::uint32_t v) {
  return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

std::uint32_t get_be32(const std::string& s, std::size_t at) {
  return (std::uint32_t{static_cast<unsigned char>(s[at])} << 24) |
         (std::uint32_t{static_cast<unsigned char>(s[at + 1])} << 16) |
         (std::uint32_t{static_cast<unsigned char>(s[at + 2])} << 8) |
         static_cast<unsigned char>(s[at + 3]);
}

struct PngChunk {
  std::string type, data;
};

std::vector<PngChunk> png_chunks(const std::string& png) {
  std::vector<PngChunk> out;
  for (std::size_t i = 8; i + 12 <= png.size();) {
    const std::uint32_t len = get_be32(png, i);
    out.push_back({png.substr(i + 4, 4), png.substr(i + 8, len)});
    i += 12 + len;
  }
  return out;
}

std::string png_file(const std::vector<PngChunk>& chunks) {
  std::string out("\x89PNG\r\n\x1a\n", 8);
  for (const PngChunk& c : chunks)
    out += be32(static_cast<std::uint32_t>(c.data.size())) + c.type + c.data +
           be32(crc32(c.type + c.data));
  return out;
}

std::size_t last_idat(const std::vector<PngChunk>& c) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < c.size(); ++i)
    if (c[i].type == "IDAT") k = i;
  return k;
}

struct PngSetup {
  TempDir dir;
  Image good;
  std::string bytes;
  std::vector<PngChunk> chunks;
  PngSetup() {
    good = imread(sample_image("chelsea.png"));
    imwrite(dir.file("good.png"), good.view());
    bytes = read_bytes(dir.file("good.png"));
    chunks = png_chunks(bytes);
  }
  std::string write(const std::string& name, const std::string& data) const {
    const std::string p = dir.file(name);
    write_bytes(p, data);
    return p;
  }
};

TEST(IoCorruptPng, GoodFilePassesWithEmptyNotes) {
  PngSetup s;
  ASSERT_GE(s.chunks.size(), 3u);
  expect_good(s.dir.file("good.png"));
  expect_good(sample_image("camera.png"));
}

TEST(IoCorruptPng, TruncatedInTheImageData) {
  PngSetup s;
  // Cut in the middle of the first IDAT's data: no option recovers it.
  const std::size_t idat = s.bytes.find("IDAT");
  ASSERT_NE(idat, std::string::npos);
  const std::string p =
      s.write("cut.png", s.bytes.substr(0, idat + 4 + get_be32(s.bytes, idat - 4) / 2));
  expect_unrecoverable(p, "unexpected end of file (the file is truncated)");
}

TEST(IoCorruptPng, BadCrcInTheImageData) {
  PngSetup s;
  std::string b = s.bytes;
  const std::size_t idat = b.find("IDAT");
  const std::size_t crc_at = idat + 4 + get_be32(b, idat - 4);
  b[crc_at + 3] = static_cast<char>(b[crc_at + 3] ^ 0x01);
  const std::string p = s.write("crc.png", b);
  const Image img = expect_corrupt(p, "Corrupt PNG data: IDAT: CRC error", "CRC error",
                                   s.good.width(), s.good.height());
  // Only the checksum was damaged: the data libpng then uses is the good image.
  EXPECT_EQ(compare(img.view(), s.good.view()).count, 0);
}

TEST(IoCorruptPng, ExtraCompressedDataAfterTheStream) {
  PngSetup s;
  std::vector<PngChunk> c = s.chunks;
  c[last_idat(c)].data += std::string(100, '\x42');
  const std::string p = s.write("extra.png", png_file(c));
  const Image img = expect_corrupt(p, "Corrupt PNG data: IDAT: ", "Extra compressed data",
                                   s.good.width(), s.good.height());
  EXPECT_EQ(compare(img.view(), s.good.view()).count, 0);
}

TEST(IoCorruptPng, TooMuchImageData) {
  // The header says one row less than the compressed stream holds.
  PngSetup s;
  std::vector<PngChunk> c = s.chunks;
  ASSERT_EQ(c[0].type, "IHDR");
  const std::uint32_t h = get_be32(c[0].data, 4);
  c[0].data.replace(4, 4, be32(h - 1));
  const std::string p = s.write("toomuch.png", png_file(c));
  const Image img = expect_corrupt(p, "Corrupt PNG data: IDAT: ", "Too much image data",
                                   s.good.width(), s.good.height() - 1);
  EXPECT_TRUE(same_rows(img.view(), s.good.view(), img.height()));
}

TEST(IoCorruptPng, BadAdlerChecksumOfTheStream) {
  // The zlib stream's last 4 bytes (Adler-32 of the image data) damaged, the chunk CRC right:
  // zlib finds it while libpng still wants the last row, an error libpng does not get past.
  PngSetup s;
  std::vector<PngChunk> c = s.chunks;
  std::string& d = c[last_idat(c)].data;
  d[d.size() - 1] = static_cast<char>(d[d.size() - 1] ^ 0x01);
  const std::string p = s.write("adler.png", png_file(c));
  expect_unrecoverable(p, "IDAT: incorrect data check");
}

TEST(IoCorruptPng, DamagedMetadataChunksStayIgnored) {
  // A tEXt chunk with a bad CRC and an iCCP chunk that is no profile: libpng warns and drops
  // them; the image is fine.
  PngSetup s;
  std::vector<PngChunk> c = s.chunks;
  c.insert(c.begin() + 1, PngChunk{"iCCP", std::string("junk\0\0not a zlib stream", 24)});
  c.insert(c.end() - 1, PngChunk{"tEXt", std::string("Comment\0hello", 13)});
  std::string b = png_file(c);
  const std::size_t text = b.rfind("tEXt");
  b[text + 4 + 13 + 3] = static_cast<char>(b[text + 4 + 13 + 3] ^ 0x01);  // its CRC
  const std::string p = s.write("meta.png", b);
  const Image img = expect_good(p);
  EXPECT_EQ(compare(img.view(), s.good.view()).count, 0);
}

// ------------------------------------------------------------------ TIFF

// A little-endian 8-bit gray TIFF written by hand, each directory followed by its strip
// arrays and strips, so that the strips can be cut or moved with the directory intact.
struct TiffPage {
  int w = 0, h = 0, rows_per_strip = 0;
  std::uint16_t compression = 1;  // 1 none, 32773 PackBits
  std::vector<std::string> strips;
};

struct BuiltTiff {
  std::string bytes;
  std::size_t next_ifd_at = 0;          // page 0's "next directory" field
  std::vector<std::size_t> offsets_at;  // page 0's StripOffsets values
  std::vector<std::size_t> strip_at;    // page 0's strips
};

std::string le16(std::uint16_t v) {
  return std::string{char(v & 0xFF), char(v >> 8)};
}
std::string le32(std::uint32_t v) {
  return std::string{char(v & 0xFF), char(v >> 8), char(v >> 16), char(v >> 24)};
}

BuiltTiff build_tiff(const std::vector<TiffPage>& pages) {
  BuiltTiff out;
  std::string& f = out.bytes;
  f = "II" + le16(42) + le32(8);
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const TiffPage& pg = pages[p];
    const auto n = static_cast<std::uint32_t>(pg.strips.size());
    const std::size_t ifd = f.size();
    constexpr int kEntries = 9;
    const std::size_t arrays = ifd + 2 + 12 * kEntries + 4;
    const std::size_t offsets = arrays, counts = arrays + 4 * n, data = arrays + 8 * n;
    auto entry = [](std::uint16_t tag, std::uint16_t type, std::uint32_t count,
                    std::uint32_t value) {
      const std::string v =
          type == 3 && count == 1 ? le16(static_cast<std::uint16_t>(value)) + le16(0) : le32(value);
      return le16(tag) + le16(type) + le32(count) + v;
    };
    std::vector<std::uint32_t> at;
    std::size_t pos = data;
    for (const std::string& s : pg.strips) {
      at.push_back(static_cast<std::uint32_t>(pos));
      pos += s.size();
    }
    // One strip: its offset and count are stored in the entries themselves.
    const std::uint32_t off_value = n == 1 ? at[0] : static_cast<std::uint32_t>(offsets);
    const std::uint32_t cnt_value = n == 1 ? static_cast<std::uint32_t>(pg.strips[0].size())
                                           : static_cast<std::uint32_t>(counts);
    f += le16(kEntries);
    f += entry(256, 4, 1, static_cast<std::uint32_t>(pg.w));
    f += entry(257, 4, 1, static_cast<std::uint32_t>(pg.h));
    f += entry(258, 3, 1, 8);
    f += entry(259, 3, 1, pg.compression);
    f += entry(262, 3, 1, 1);  // MinIsBlack
    f += entry(273, 4, n, off_value);
    f += entry(277, 3, 1, 1);
    f += entry(278, 4, 1, static_cast<std::uint32_t>(pg.rows_per_strip));
    f += entry(279, 4, n, cnt_value);
    const std::size_t next_at = f.size();
    f += le32(0);  // set below when another page follows
    for (std::uint32_t k = 0; k < n; ++k) f += le32(at[k]);
    for (std::uint32_t k = 0; k < n; ++k)
      f += le32(static_cast<std::uint32_t>(pg.strips[k].size()));
    for (const std::string& s : pg.strips) f += s;
    if (p + 1 < pages.size()) f.replace(next_at, 4, le32(static_cast<std::uint32_t>(f.size())));
    if (p == 0) {
      out.next_ifd_at = next_at;
      for (std::uint32_t k = 0; k < n; ++k)
        out.offsets_at.push_back(n == 1 ? ifd + 2 + 12 * 5 + 8 : offsets + 4 * k);
      out.strip_at.assign(at.begin(), at.end());
    }
  }
  return out;
}

int gray_value(int x, int y, int page) {
  return (x * 7 + y * 13 + page * 50) & 255;
}

// An uncompressed page of gray_value, in strips of rows_per_strip rows.
TiffPage gray_page(int w, int h, int rows_per_strip, int page) {
  TiffPage pg{w, h, rows_per_strip, 1, {}};
  for (int y0 = 0; y0 < h; y0 += rows_per_strip) {
    std::string s;
    for (int y = y0; y < std::min(h, y0 + rows_per_strip); ++y)
      for (int x = 0; x < w; ++x) s += static_cast<char>(gray_value(x, y, page));
    pg.strips.push_back(s);
  }
  return pg;
}

void expect_gray_page(const Image& img, int w, int h, int page) {
  ASSERT_EQ(img.width(), w);
  ASSERT_EQ(img.height(), h);
  ASSERT_EQ(img.channels(), 1);
  long bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) bad += at(img.view(), x, y, 0) != gray_value(x, y, page);
  EXPECT_EQ(bad, 0);
}

TEST(IoCorruptTiff, GoodFileAndThreePages) {
  if (!has_tiff()) GTEST_SKIP() << "built without libtiff";
  TempDir dir;
  const std::string one = dir.file("one.tif");
  write_bytes(one, build_tiff({gray_page(64, 48, 8, 0)}).bytes);
  expect_gray_page(expect_good(one), 64, 48, 0);

  // Three pages of different sizes: imread reads the first, read_info and the notes count 3.
  const std::string three = dir.file("three.tif");
  write_bytes(
      three,
      build_tiff({gray_page(64, 48, 8, 0), gray_page(32, 16, 16, 1), gray_page(8, 8, 8, 2)}).bytes);
  const ImageInfo info = read_info(three);
  EXPECT_EQ(info.pages, 3);
  EXPECT_EQ(info.width, 64);
  EXPECT_EQ(info.height, 48);
  expect_gray_page(expect_good(three, 3), 64, 48, 0);
  // A file texcv writes has one page; PNG and JPEG always have one.
  imwrite(dir.file("w.tif"), random_image(8, 4, 3, ElemType::u16, 1).view());
  EXPECT_EQ(read_info(dir.file("w.tif")).pages, 1);
  EXPECT_EQ(read_info(sample_image("camera.png")).pages, 1);
  EXPECT_EQ(read_info(sample_image("rocket.jpg")).pages, 1);
}

TEST(IoCorruptTiff, TruncatedInTheStripData) {
  if (!has_tiff()) GTEST_SKIP() << "built without libtiff";
  TempDir dir;
  const BuiltTiff t = build_tiff({gray_page(64, 48, 8, 0)});
  const std::string p = dir.file("cut.tif");
  write_bytes(p, t.bytes.substr(0, t.strip_at[4] + 100));  // in the middle of strip 4 of 6
  expect_unrecoverable(p, "row 32: ");
  // One uncompressed strip, cut: libtiff repairs the byte count it sees as bogus, then the
  // read still comes short.
  const BuiltTiff single = build_tiff({gray_page(64, 48, 48, 0)});
  const std::string q = dir.file("cut1.tif");
  write_bytes(q, single.bytes.substr(0, single.strip_at[0] + 1000));
  expect_unrecoverable(q, "row ");
}

TEST(IoCorruptTiff, BadStripOffset) {
  if (!has_tiff()) GTEST_SKIP() << "built without libtiff";
  TempDir dir;
  BuiltTiff t = build_tiff({gray_page(64, 48, 8, 0)});
  t.bytes.replace(t.offsets_at[2], 4, le32(static_cast<std::uint32_t>(t.bytes.size() + 4096)));
  const std::string p = dir.file("offset.tif");
  write_bytes(p, t.bytes);
  expect_unrecoverable(p, "row 16: ");
}

TEST(IoCorruptTiff, PackBitsRunPastTheRow) {
  // Row 3's strip replicates a byte 128 times into a row of 64: PackBits warns "Discarding 64
  // bytes to avoid buffer overrun" and fills the row.
  if (!has_tiff()) GTEST_SKIP() << "built without libtiff";
  TempDir dir;
  TiffPage pg = gray_page(64, 6, 1, 0);
  pg.compression = 32773;
  for (std::string& s : pg.strips) s = std::string(1, char(63)) + s;  // literal run of 64
  pg.strips[3] = std::string{char(0x81), char(0x55)};
  const std::string p = dir.file("packbits.tif");
  write_bytes(p, build_tiff({pg}).bytes);
  const Image img = expect_corrupt(p, "Corrupt TIFF data: PackBitsDecode: ",
                                   "Discarding 64 bytes to avoid buffer overrun", 64, 6);
  for (int x = 0; x < 64; ++x) EXPECT_EQ(at(img.view(), x, 3, 0), 0x55);
  EXPECT_EQ(at(img.view(), 5, 2, 0), gray_value(5, 2, 0));
}

TEST(IoCorruptTiff, BrokenChainOfPages) {
  // Page 1 is whole; its "next directory" points past the end of the file.
  if (!has_tiff()) GTEST_SKIP() << "built without libtiff";
  TempDir dir;
  BuiltTiff t = build_tiff({gray_page(64, 48, 8, 0)});
  t.bytes.replace(t.next_ifd_at, 4, le32(static_cast<std::uint32_t>(t.bytes.size() + 4096)));
  const std::string p = dir.file("chain.tif");
  write_bytes(p, t.bytes);
  const Image img = expect_corrupt(p, "Corrupt TIFF data: ", "", 64, 48, 1);
  expect_gray_page(img, 64, 48, 0);
  expect_error([&] { read_info(p); }, ErrorCode::Io, {"read_info: " + p + ": Corrupt TIFF data: "});
}

}  // namespace
}  // namespace texcv::test
