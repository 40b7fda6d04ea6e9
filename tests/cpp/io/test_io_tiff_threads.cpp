// TIFF strips and tiles read on several threads (ReadOptions::threads): files written here with
// libtiff (strips and tiles; none, deflate and zstd with a predictor; u8/u16/f32; 1-4 samples;
// big-endian; a single uncompressed strip, which libtiff cuts into many) decode to the expected
// pixels, identically with 1, 2, 4 threads and the default, from a file, from memory and into
// caller memory; damaged files (cut, a strip moved off the end, a strip that does not inflate,
// corrupt-data warnings in several strips, a warning and an error in either order) give the
// same error or warning, message for message, whatever the thread count.
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "io/io_test_util.hpp"

#if defined(TEXCV_HAS_TIFF) && __has_include(<tiffio.h>)
#include <tiffio.h>  // libtiff: texcv is a static library, so its libtiff is on the test's link line
#define TEXCV_TEST_LIBTIFF 1
#endif

namespace texcv::test {
namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

TEST(IoTiffThreads, NegativeThreadsIsInvalidArgument) {
  const std::string p = sample_image("camera.png");
  ReadOptions opt;
  opt.threads = -1;
  expect_error([&] { imread(p, opt); }, ErrorCode::InvalidArgument,
               "imread: " + p +
                   ": ReadOptions::threads is negative; got -1, expected 0 (the default) or a "
                   "number of threads");
  const std::string b = read_bytes(p);
  expect_error(
      [&] { imdecode(reinterpret_cast<const unsigned char*>(b.data()), b.size(), "cam", opt); },
      ErrorCode::InvalidArgument,
      "imread: cam: ReadOptions::threads is negative; got -1, expected 0 (the default) or a "
      "number of threads");
  // PNG and JPEG ignore any other value.
  opt.threads = 4;
  EXPECT_EQ(compare(imread(p, opt).view(), imread(p).view()).count, 0);
}

#if defined(TEXCV_TEST_LIBTIFF)

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// dir/<stem><k>.tif (appended: GCC 12 warns, -Wrestrict, a false positive, on "x" + string).
std::string numbered(const TempDir& dir, const char* stem, int k) {
  std::string name = stem;
  name += std::to_string(k);
  name += ".tif";
  return dir.file(name);
}

// A TIFF to write with libtiff: its samples (file order, `spp` per pixel) and layout.
struct Spec {
  int w = 0, h = 0, spp = 1;
  ElemType type = ElemType::u8;
  int compression = COMPRESSION_NONE;
  bool predictor = false;  // horizontal (integers) or floating point (f32)
  bool tiled = false;
  int rows_per_strip = 8;
  int tw = 32, th = 16;
  bool big_endian = false;
  std::string label() const {
    return std::to_string(w) + "x" + std::to_string(h) + " spp " + std::to_string(spp) + " " +
           to_string(type) + " compression " + std::to_string(compression) +
           (predictor ? " +predictor" : "") +
           (tiled ? " tiles " + std::to_string(tw) + "x" + std::to_string(th)
                  : " strips of " + std::to_string(rows_per_strip)) +
           (big_endian ? " big-endian" : "");
  }
};

std::size_t sample_bytes(const Spec& s) {
  return elem_size(s.type);
}
std::size_t row_bytes(const Spec& s) {
  return static_cast<std::size_t>(s.w) * s.spp * sample_bytes(s);
}

// Smooth values plus noise (so that the predictor and the codec have work to do), as bytes.
std::vector<unsigned char> make_samples(const Spec& s, std::uint32_t seed) {
  std::vector<unsigned char> out(row_bytes(s) * s.h);
  std::mt19937 rng(seed);
  for (int y = 0; y < s.h; ++y) {
    for (int i = 0; i < s.w * s.spp; ++i) {
      unsigned char* p = out.data() + y * row_bytes(s) + i * sample_bytes(s);
      const unsigned noise = rng() & 7;
      if (s.type == ElemType::u8) {
        const auto v = static_cast<std::uint8_t>((i + 2 * y) / 3 + noise);
        std::memcpy(p, &v, 1);
      } else if (s.type == ElemType::u16) {
        const auto v = static_cast<std::uint16_t>(97 * i + 31 * y + 4096 * noise);
        std::memcpy(p, &v, 2);
      } else {
        const float v = static_cast<float>(i - y) * 0.125f + static_cast<float>(noise);
        std::memcpy(p, &v, 4);
      }
    }
  }
  return out;
}

// The image imread should give for those samples (gray + alpha as RGBA).
Image expected_image(const Spec& s, const std::vector<unsigned char>& samples) {
  const int ch = s.spp == 2 ? 4 : s.spp;
  Image img(s.w, s.h, ch, s.type);
  const std::size_t e = sample_bytes(s);
  for (int y = 0; y < s.h; ++y) {
    const unsigned char* src = samples.data() + y * row_bytes(s);
    unsigned char* dst = img.view().row<unsigned char>(y);
    for (int x = 0; x < s.w; ++x) {
      for (int c = 0; c < ch; ++c) {
        const int from = s.spp == 2 ? (c < 3 ? 0 : 1) : c;
        std::memcpy(dst + (x * ch + c) * e, src + (x * s.spp + from) * e, e);
      }
    }
  }
  return img;
}

void write_tiff(const std::string& path, const Spec& s, const std::vector<unsigned char>& samples) {
  TIFF* tif = TIFFOpen(path.c_str(), s.big_endian ? "wb" : "wl");
  ASSERT_NE(tif, nullptr) << path;
  TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(s.w));
  TIFFSetField(tif, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(s.h));
  TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, static_cast<std::uint16_t>(s.spp));
  TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, static_cast<std::uint16_t>(8 * sample_bytes(s)));
  TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT,
               s.type == ElemType::f32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT);
  TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
  TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, s.spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
  if (s.spp == 2 || s.spp == 4) {
    const std::uint16_t extra[1] = {EXTRASAMPLE_UNASSALPHA};
    TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, extra);
  }
  TIFFSetField(tif, TIFFTAG_COMPRESSION, static_cast<std::uint16_t>(s.compression));
  if (s.predictor)
    TIFFSetField(tif, TIFFTAG_PREDICTOR,
                 s.type == ElemType::f32 ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL);
  const std::size_t row = row_bytes(s);
  if (s.tiled) {
    TIFFSetField(tif, TIFFTAG_TILEWIDTH, static_cast<std::uint32_t>(s.tw));
    TIFFSetField(tif, TIFFTAG_TILELENGTH, static_cast<std::uint32_t>(s.th));
    const std::size_t px = s.spp * sample_bytes(s);
    std::vector<unsigned char> tile(static_cast<std::size_t>(s.tw) * s.th * px);
    for (int ty = 0; ty < s.h; ty += s.th) {
      for (int tx = 0; tx < s.w; tx += s.tw) {
        std::fill(tile.begin(), tile.end(), 0);
        for (int r = 0; r < s.th && ty + r < s.h; ++r)
          std::memcpy(tile.data() + r * s.tw * px, samples.data() + (ty + r) * row + tx * px,
                      std::min(s.tw, s.w - tx) * px);
        ASSERT_GE(TIFFWriteTile(tif, tile.data(), tx, ty, 0, 0), 0);
      }
    }
  } else {
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, static_cast<std::uint32_t>(s.rows_per_strip));
    std::vector<unsigned char> line(row);
    for (int y = 0; y < s.h; ++y) {
      std::memcpy(line.data(), samples.data() + y * row, row);  // libtiff may change its input
      ASSERT_GE(TIFFWriteScanline(tif, line.data(), static_cast<std::uint32_t>(y), 0), 0);
    }
  }
  TIFFClose(tif);
}

ReadOptions with_threads(int n, bool allow = false) {
  ReadOptions o;
  o.threads = n;
  o.allow_corrupt = allow;
  return o;
}

// Decodes `path` with 1, 2, 4 threads and the default, from the file, from its bytes and into
// a padded caller buffer (4 threads); all must equal `expected`.
void expect_decodes(const std::string& path, const Image& expected) {
  const std::string bytes = read_bytes(path);
  for (const int n : {1, 2, 4, 0}) {
    SCOPED_TRACE("threads " + std::to_string(n));
    ReadNotes notes;
    const Image img = imread(path, with_threads(n), &notes);
    expect_same_pixels(img.view(), expected.view());
    EXPECT_EQ(notes.corrupt, "");
    EXPECT_EQ(notes.pages, 1);
    const Image mem = imdecode(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                               path, with_threads(n));
    expect_same_pixels(mem.view(), expected.view());
  }
  ReadOptions opt = with_threads(4);
  int calls = 0;
  std::shared_ptr<std::vector<unsigned char>> buf;
  opt.allocate = [&](int w, int h, int c, ElemType t) {
    ++calls;
    const std::size_t pitch = static_cast<std::size_t>(w) * c * elem_size(t) + 24;
    buf = std::make_shared<std::vector<unsigned char>>(pitch * h, 0xA5);
    return Image::adopt(ImageView{buf->data(), w, h, c, t, pitch, Location::host}, buf);
  };
  const Image into = imread(path, opt);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(into.data(), static_cast<void*>(buf->data()));
  expect_same_pixels(into.view(), expected.view());
}

bool codec_configured(int c) {
  return c == COMPRESSION_NONE || TIFFIsCODECConfigured(static_cast<std::uint16_t>(c)) != 0;
}

std::vector<int> test_compressions() {
  std::vector<int> out = {COMPRESSION_NONE, COMPRESSION_ADOBE_DEFLATE};
  if (codec_configured(COMPRESSION_ZSTD)) out.push_back(COMPRESSION_ZSTD);
  return out;
}

TEST(IoTiffThreads, StripsAndTilesDecodeIdenticallyOnAnyNumberOfThreads) {
  TempDir dir;
  if (!codec_configured(COMPRESSION_ZSTD))
    std::printf("[   NOTE   ] the linked libtiff has no zstd codec: zstd cases skipped\n");
  int k = 0;
  for (const int comp : test_compressions()) {
    for (const ElemType type : {ElemType::u8, ElemType::u16}) {
      for (const int spp : {1, 3, 4}) {
        for (const bool tiled : {false, true}) {
          Spec s;
          s.w = 101;  // tiles of 32 x 16: partial tiles on the right and at the bottom
          s.h = 77;
          s.spp = spp;
          s.type = type;
          s.compression = comp;
          s.predictor = comp != COMPRESSION_NONE;
          s.tiled = tiled;
          s.rows_per_strip = 6;  // 13 strips, the last one short
          SCOPED_TRACE(s.label());
          const std::vector<unsigned char> samples =
              make_samples(s, static_cast<std::uint32_t>(100 + k));
          const std::string p = numbered(dir, "t", k++);
          write_tiff(p, s, samples);
          expect_decodes(p, expected_image(s, samples));
        }
      }
    }
  }
}

TEST(IoTiffThreads, OtherLayoutsDecodeIdentically) {
  TempDir dir;
  std::vector<Spec> specs;
  auto add = [&](Spec s) { specs.push_back(s); };
  Spec s;
  s.w = 90;
  s.h = 70;
  // One uncompressed strip: libtiff cuts it into strips of about 8 KiB when reading.
  s.spp = 3;
  s.rows_per_strip = 70;
  add(s);
  s.w = 700;
  s.h = 200;
  add(s);
  // Big-endian 16-bit (byte-swapped by libtiff), uncompressed and deflate.
  s = Spec{};
  s.w = 64;
  s.h = 50;
  s.spp = 3;
  s.type = ElemType::u16;
  s.rows_per_strip = 4;
  s.big_endian = true;
  add(s);
  s.compression = COMPRESSION_ADOBE_DEFLATE;
  add(s);
  // Gray + alpha (read as RGBA), strips and tiles; f32 with the floating-point predictor.
  s = Spec{};
  s.w = 70;
  s.h = 45;
  s.spp = 2;
  s.rows_per_strip = 3;
  add(s);
  s.tiled = true;
  s.type = ElemType::u16;
  add(s);
  s = Spec{};
  s.w = 66;
  s.h = 40;
  s.spp = 1;
  s.type = ElemType::f32;
  s.compression = COMPRESSION_ADOBE_DEFLATE;
  s.predictor = true;
  s.rows_per_strip = 5;
  add(s);
  s.compression = COMPRESSION_NONE;
  s.predictor = false;
  add(s);
  // One strip per row, and strips of one tile row.
  s = Spec{};
  s.w = 40;
  s.h = 33;
  s.spp = 4;
  s.rows_per_strip = 1;
  add(s);
  int k = 0;
  for (const Spec& sp : specs) {
    SCOPED_TRACE(sp.label());
    const std::vector<unsigned char> samples = make_samples(sp, static_cast<std::uint32_t>(7 + k));
    const std::string p = numbered(dir, "o", k++);
    write_tiff(p, sp, samples);
    expect_decodes(p, expected_image(sp, samples));
  }
  // And what texcv writes: 256 KiB strips.
  const Image img = random_image(300, 250, 4, ElemType::u16, 3);
  for (const TiffCompression c : {TiffCompression::none, TiffCompression::deflate}) {
    WriteOptions o;
    o.tiff_compression = c;
    const std::string p = dir.file(std::string("texcv_") + to_string(c) + ".tif");
    imwrite(p, img.view(), o);
    expect_decodes(p, img);
  }
}

// What a read gave, for comparing thread counts.
struct Verdict {
  bool threw = false;
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::string corrupt;
  Image img;
};

Verdict read_verdict(const std::string& path, int threads, bool allow) {
  Verdict v;
  try {
    ReadNotes notes;
    v.img = imread(path, with_threads(threads, allow), &notes);
    v.corrupt = notes.corrupt;
  } catch (const Error& e) {
    v.threw = true;
    v.code = e.code();
    v.message = e.what();
  }
  return v;
}

// The verdict with 1 thread (checked against `expect_message`/`expect_corrupt`), and that 2, 4
// and 8 threads and the default give the same one, image included, from the file and from
// memory.
void expect_verdict(const std::string& path, bool allow, const std::string& expect_message,
                    const std::string& expect_corrupt = "") {
  SCOPED_TRACE(path + (allow ? " (allow_corrupt)" : ""));
  const Verdict one = read_verdict(path, 1, allow);
  if (expect_message.empty()) {
    EXPECT_FALSE(one.threw) << one.message;
  } else {
    EXPECT_TRUE(one.threw);
    EXPECT_EQ(one.code, ErrorCode::Io);
    EXPECT_EQ(one.message, expect_message);
  }
  EXPECT_EQ(one.corrupt, expect_corrupt);
  const std::string bytes = read_bytes(path);
  for (const int n : {2, 4, 8, 0}) {
    SCOPED_TRACE("threads " + std::to_string(n));
    const Verdict v = read_verdict(path, n, allow);
    EXPECT_EQ(v.threw, one.threw);
    EXPECT_EQ(v.code, one.code);
    EXPECT_EQ(v.message, one.message);
    EXPECT_EQ(v.corrupt, one.corrupt);
    if (!one.threw && !v.threw) expect_same_pixels(v.img.view(), one.img.view());
    Verdict m;
    try {
      ReadNotes notes;
      m.img = imdecode(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), path,
                       with_threads(n, allow), &notes);
      m.corrupt = notes.corrupt;
    } catch (const Error& e) {
      m.threw = true;
      m.message = e.what();
    }
    EXPECT_EQ(m.threw, one.threw);
    EXPECT_EQ(m.message, one.message);
    EXPECT_EQ(m.corrupt, one.corrupt);
  }
}

// ---------------------------------------------------------------- damaged files
// libtiff writes the directory after the data, so a cut file would lose it. relayout() rewrites
// a classic little-endian TIFF that libtiff wrote with its directory first (header, directory,
// the values it points to, then the strips or tiles in order), so that the data can be cut,
// moved or replaced with the directory intact, as a writer that puts its directory first
// leaves a file when it is cut.
struct Relaid {
  std::string bytes;
  std::vector<std::size_t> at;            // where each strip or tile starts
  std::vector<std::size_t> offset_field;  // where its StripOffsets/TileOffsets value is
  std::vector<std::size_t> count_field;   // where its byte count value is
  std::vector<std::uint16_t> count_type;  // SHORT (3) or LONG (4)
};

std::uint32_t get_le(const std::string& b, std::size_t at, int n) {
  std::uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}
void put_le(std::string& b, std::size_t at, std::uint32_t v, int n) {
  for (int i = 0; i < n; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
std::string le(std::uint32_t v, int n) {
  std::string s(static_cast<std::size_t>(n), '\0');
  put_le(s, 0, v, n);
  return s;
}

// `replace`: new raw bytes for some strips or tiles (their byte counts follow).
Relaid relayout(const std::string& in,
                const std::vector<std::pair<int, std::string>>& replace = {}) {
  Relaid out;
  EXPECT_EQ(in.substr(0, 4), std::string("II*\0", 4)) << "classic little-endian TIFF expected";
  const std::size_t ifd = get_le(in, 4, 4);
  const int n = static_cast<int>(get_le(in, ifd, 2));
  auto type_size = [](std::uint32_t t) -> std::size_t {
    switch (t) {
      case 1:
      case 2:
      case 6:
      case 7:
        return 1;
      case 3:
      case 8:
        return 2;
      case 4:
      case 9:
      case 11:
        return 4;
      default:
        return 8;
    }
  };
  struct Entry {
    std::uint16_t tag, type;
    std::uint32_t count;
    std::string value;  // all its bytes
  };
  std::vector<Entry> entries;
  for (int i = 0; i < n; ++i) {
    const std::size_t e = ifd + 2 + 12 * static_cast<std::size_t>(i);
    Entry en{static_cast<std::uint16_t>(get_le(in, e, 2)),
             static_cast<std::uint16_t>(get_le(in, e + 2, 2)),
             get_le(in, e + 4, 4),
             {}};
    const std::size_t bytes = type_size(en.type) * en.count;
    en.value = bytes <= 4 ? in.substr(e + 8, 4) : in.substr(get_le(in, e + 8, 4), bytes);
    entries.push_back(en);
  }
  auto find = [&](std::uint16_t a, std::uint16_t b) -> Entry* {
    for (Entry& en : entries)
      if (en.tag == a || en.tag == b) return &en;
    return nullptr;
  };
  Entry* offs = find(273, 324);
  Entry* cnts = find(279, 325);
  EXPECT_TRUE(offs && cnts);
  if (!offs || !cnts) return out;
  // Offsets and counts as LONG (libtiff writes SHORT counts when they fit), so tests can set
  // any value.
  for (Entry* en : {offs, cnts}) {
    if (en->type != 3) continue;
    std::string v;
    for (std::uint32_t i = 0; i < en->count; ++i) v += le(get_le(en->value, i * 2, 2), 4);
    en->type = 4;
    en->value = v;
  }
  const std::uint32_t k = offs->count;
  const int osz = static_cast<int>(type_size(offs->type)),
            csz = static_cast<int>(type_size(cnts->type));
  std::vector<std::string> data;
  for (std::uint32_t i = 0; i < k; ++i)
    data.push_back(in.substr(get_le(offs->value, i * osz, osz), get_le(cnts->value, i * csz, csz)));
  for (const auto& [i, b] : replace) data[static_cast<std::size_t>(i)] = b;
  // Out-of-line values after the directory, then the data.
  std::size_t pos = 8 + 2 + 12 * entries.size() + 4;
  std::vector<std::size_t> value_at(entries.size(), 0);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (type_size(entries[i].type) * entries[i].count <= 4) continue;
    value_at[i] = pos;
    pos += entries[i].value.size() + (entries[i].value.size() & 1);
  }
  for (std::uint32_t i = 0; i < k; ++i) {
    out.at.push_back(pos);
    put_le(offs->value, i * osz, static_cast<std::uint32_t>(pos), osz);
    put_le(cnts->value, i * csz, static_cast<std::uint32_t>(data[i].size()), csz);
    pos += data[i].size();
  }
  std::string& f = out.bytes;
  f = std::string("II*\0", 4) + le(8, 4) + le(static_cast<std::uint32_t>(entries.size()), 2);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& en = entries[i];
    f += le(en.tag, 2) + le(en.type, 2) + le(en.count, 4);
    const bool inline_value = value_at[i] == 0;
    if (&en == offs || &en == cnts) {
      const std::size_t field = inline_value ? f.size() : value_at[i];
      for (std::uint32_t j = 0; j < k; ++j) {
        const int sz = &en == offs ? osz : csz;
        (&en == offs ? out.offset_field : out.count_field).push_back(field + j * sz);
        if (&en == cnts) out.count_type.push_back(en.type);
      }
    }
    f += inline_value ? en.value : le(static_cast<std::uint32_t>(value_at[i]), 4);
  }
  f += le(0, 4);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (value_at[i] == 0) continue;
    f += entries[i].value;
    if (entries[i].value.size() & 1) f += '\0';
  }
  for (const std::string& d : data) f += d;
  return out;
}

void set_offset(Relaid& r, int k, std::uint32_t v) {
  put_le(r.bytes, r.offset_field[static_cast<std::size_t>(k)], v, 4);
}
void set_count(Relaid& r, int k, std::uint32_t v) {
  put_le(r.bytes, r.count_field[static_cast<std::size_t>(k)], v,
         r.count_type[static_cast<std::size_t>(k)] == 3 ? 2 : 4);
}

// A file written by libtiff (`s`, its samples), relaid with its directory first.
Relaid relaid_file(const TempDir& dir, const Spec& s,
                   const std::vector<std::pair<int, std::string>>& replace = {}) {
  const std::string tmp = dir.file("libtiff_written.tif");
  write_tiff(tmp, s, make_samples(s, 9));
  Relaid r = relayout(read_bytes(tmp), replace);
  // The relaid file reads as libtiff's own.
  const std::string p = dir.file("relaid.tif");
  write_bytes(p, r.bytes);
  if (replace.empty()) {
    EXPECT_EQ(compare(imread(p).view(), imread(tmp).view()).count, 0);
  }
  return r;
}

TEST(IoTiffThreads, TruncatedFilesFailTheSameWay) {
  TempDir dir;
  int k = 0;
  for (const int comp : {COMPRESSION_NONE, COMPRESSION_ADOBE_DEFLATE}) {
    for (const bool tiled : {false, true}) {
      Spec s;
      s.w = 120;
      s.h = 96;
      s.spp = 3;
      s.compression = comp;
      s.predictor = comp != COMPRESSION_NONE;
      s.tiled = tiled;
      s.rows_per_strip = 8;  // 12 strips; tiles of 32 x 16: 4 across, 6 down
      SCOPED_TRACE(s.label());
      const Relaid r = relaid_file(dir, s);
      ASSERT_EQ(r.at.size(), tiled ? 24u : 12u);
      // Cut inside strip (tile) 7: it comes short and the later ones are past the end.
      const std::string cut = numbered(dir, "cut", k++);
      write_bytes(cut, r.bytes.substr(0, r.at[7] + (r.at[8] - r.at[7]) / 2));
      const std::string where = tiled ? "tile at (96, 16): " : "row 56: ";
      const Verdict one = read_verdict(cut, 1, false);
      ASSERT_TRUE(one.threw);
      // Strips: libtiff's "Read error on strip 7; got ..."; tiles: libtiff fails a tile past the
      // end of a mapped file without a message, hence texcv's "read error".
      if (tiled)
        EXPECT_EQ(one.message, "imread: " + cut + ": " + where + "read error");
      else
        EXPECT_EQ(
            one.message.rfind(
                "imread: " + cut + ": " + where + "TIFFFillStrip: Read error on strip 7; got ", 0),
            0u)
            << one.message;
      for (const bool allow : {false, true}) expect_verdict(cut, allow, one.message);
    }
  }
}

TEST(IoTiffThreads, DamagedStripsFailTheSameWay) {
  TempDir dir;
  Spec s;
  s.w = 64;
  s.h = 48;
  s.spp = 1;
  s.rows_per_strip = 2;  // 24 strips
  int k = 0;
  auto file = [&](const Relaid& r) {
    const std::string p = numbered(dir, "d", k++);
    write_bytes(p, r.bytes);
    return p;
  };
  // Uncompressed: strip 9 moved past the end of the file; strip 15 one byte short (libtiff:
  // "Not enough data for scanline").
  {
    Relaid r = relaid_file(dir, s);
    set_offset(r, 9, static_cast<std::uint32_t>(r.bytes.size() + 4096));
    const std::string p = file(r);
    const std::string msg = read_verdict(p, 1, false).message;
    EXPECT_EQ(msg.rfind("imread: " + p + ": row 18: TIFFFillStrip: Read error on strip 9", 0), 0u)
        << msg;
    for (const bool allow : {false, true}) expect_verdict(p, allow, msg);
  }
  {
    Relaid r = relaid_file(dir, s);
    set_count(r, 15, 127);
    const std::string p = file(r);
    const std::string msg = read_verdict(p, 1, false).message;
    EXPECT_EQ(
        msg.rfind("imread: " + p + ": row 31: DumpModeDecode: Not enough data for scanline", 0), 0u)
        << msg;
    for (const bool allow : {false, true}) expect_verdict(p, allow, msg);
  }
  // Deflate: strip 13's zlib header overwritten ("Decoding error ..." from libtiff's ZIP codec).
  {
    Spec z = s;
    z.compression = COMPRESSION_ADOBE_DEFLATE;
    z.predictor = true;
    Relaid r = relaid_file(dir, z);
    r.bytes[r.at[13]] = static_cast<char>(0xFF);
    r.bytes[r.at[13] + 1] = static_cast<char>(0xFF);
    const std::string p = file(r);
    const std::string msg = read_verdict(p, 1, false).message;
    EXPECT_EQ(msg.rfind("imread: " + p + ": row 26: ZIPDecode: ", 0), 0u) << msg;
    for (const bool allow : {false, true}) expect_verdict(p, allow, msg);
  }
}

// PackBits strips of one 64-byte row: a literal run of the row, or damage that libtiff only
// warns about (a replicate run longer than the row: "Discarding N bytes").
std::string packbits_row(int y) {
  std::string b(1, char(63));
  for (int x = 0; x < 64; ++x) b += static_cast<char>((x * 7 + y * 13) & 255);
  return b;
}
std::string packbits_overrun(int discard) {
  // Replicate 64 + discard times (n = 1 - count as a signed byte).
  return std::string{static_cast<char>(1 - (64 + discard)), char(0x55)};
}

TEST(IoTiffThreads, WarningsAndErrorsInSeveralStripsGiveTheSequentialVerdict) {
  TempDir dir;
  Spec s;
  s.w = 64;
  s.h = 32;
  s.spp = 1;
  s.compression = COMPRESSION_PACKBITS;
  s.rows_per_strip = 1;  // 32 strips: with 4 threads, 8 per range
  std::vector<std::pair<int, std::string>> rows;
  for (int y = 0; y < s.h; ++y) rows.emplace_back(y, packbits_row(y));
  auto with = [&](std::vector<std::pair<int, std::string>> changes) {
    std::vector<std::pair<int, std::string>> all = rows;
    for (auto& [i, b] : changes) all[static_cast<std::size_t>(i)].second = b;
    return all;
  };
  int k = 0;
  auto file = [&](const Relaid& r) {
    const std::string p = numbered(dir, "w", k++);
    write_bytes(p, r.bytes);
    return p;
  };
  const std::string warn3 =
      "Corrupt TIFF data: PackBitsDecode: Discarding 64 bytes to avoid buffer overrun";
  const std::string warn21 =
      "Corrupt TIFF data: PackBitsDecode: Discarding 36 bytes to avoid buffer overrun";
  // Two warnings in different ranges: the first one (row 3) is the verdict.
  {
    const std::string p =
        file(relaid_file(dir, s, with({{3, packbits_overrun(64)}, {21, packbits_overrun(36)}})));
    expect_verdict(p, false, "imread: " + p + ": " + warn3);
    expect_verdict(p, true, "", warn3);
    // Only the later warning: that one.
    const std::string q = file(relaid_file(dir, s, with({{21, packbits_overrun(36)}})));
    expect_verdict(q, false, "imread: " + q + ": " + warn21);
    expect_verdict(q, true, "", warn21);
  }
  // An error (strip 5 past the end) before a warning (row 21): the error either way.
  {
    Relaid r = relaid_file(dir, s, with({{21, packbits_overrun(36)}}));
    set_offset(r, 5, static_cast<std::uint32_t>(r.bytes.size() + 100));
    const std::string p = file(r);
    const std::string msg = read_verdict(p, 1, false).message;
    EXPECT_EQ(msg.rfind("imread: " + p + ": row 5: TIFFFillStrip: Read error on strip 5", 0), 0u)
        << msg;
    expect_verdict(p, false, msg);
    expect_verdict(p, true, msg);
  }
  // A warning (row 3) before an error (strip 21): the warning by default; allow_corrupt reads
  // on past it and fails at the error.
  {
    Relaid r = relaid_file(dir, s, with({{3, packbits_overrun(64)}}));
    set_offset(r, 21, static_cast<std::uint32_t>(r.bytes.size() + 100));
    const std::string p = file(r);
    expect_verdict(p, false, "imread: " + p + ": " + warn3);
    const std::string msg = read_verdict(p, 1, true).message;
    EXPECT_EQ(msg.rfind("imread: " + p + ": row 21: TIFFFillStrip: Read error on strip 21", 0), 0u)
        << msg;
    expect_verdict(p, true, msg, "");
  }
}

TEST(IoTiffThreads, AnEarlierLibtiffErrorIsTheTextOfALaterFailure) {
  // libtiff reports some problems as errors and reads on: strip 2's byte count claims 2 MiB
  // ("TIFFFillStrip: Too large strip byte count ..., strip 2. Limiting to 4736"), and the row
  // decodes. A sequential read that then fails at strip 25 (moved past the end) gives the first
  // error libtiff reported, with the row of the failure: so must a parallel one, where strip 2
  // and strip 25 are read by different threads.
  TempDir dir;
  Spec s;
  s.w = 64;
  s.h = 32;
  s.spp = 1;
  s.rows_per_strip = 1;
  Relaid r = relaid_file(dir, s);
  r.bytes += std::string(8192, '\0');  // room for the limited count after strip 2
  set_count(r, 2, 2u << 20);
  const std::string ok = dir.file("limited.tif");
  write_bytes(ok, r.bytes);
  expect_verdict(ok, false, "");
  set_offset(r, 25, static_cast<std::uint32_t>(r.bytes.size() + 100));
  const std::string p = dir.file("limited_then_cut.tif");
  write_bytes(p, r.bytes);
  const std::string msg = read_verdict(p, 1, false).message;
  EXPECT_EQ(msg, "imread: " + p +
                     ": row 25: TIFFFillStrip: Too large strip byte count 2097152, strip 2. "
                     "Limiting to 4736");
  for (const bool allow : {false, true}) expect_verdict(p, allow, msg);
}

#else

TEST(IoTiffThreads, FilesWrittenWithLibtiff) {
  GTEST_SKIP() << "libtiff's headers (tiffio.h) are not on this test's include path: the TIFF "
                  "files of these tests are written with libtiff itself";
}

#endif  // TEXCV_TEST_LIBTIFF

}  // namespace
}  // namespace texcv::test
