// check_jpeg's fast verdict (src/io/codec_jpeg_scan.hpp, io_detail::jpeg_sound_by_scan) against
// libjpeg-turbo's own: files written by libjpeg-turbo here in every sequential layout (gray,
// 4:2:0, 4:2:2, 4:4:0, 4:4:4, gray sampled 2x2; restart intervals; optimized tables; sizes that
// leave partial MCUs) are settled as sound by it; progressive and arithmetic files are left to
// libjpeg-turbo; and of thousands of damaged copies (bits flipped, bytes deleted, inserted, set to
// FF, markers inserted or renumbered, data cut), none that imdecode refuses is called sound by the
// scan, while check_jpeg keeps giving imdecode's verdict and message on every one.
#include <cstdio>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <jpeglib.h>

#include "io/io_test_util.hpp"
#include "src/io/codec.hpp"

namespace texcv::test {
namespace {

struct Layout {
  const char* name;
  int channels;  // 1 or 3
  int h0, v0;    // luma sampling factors (chroma 1x1)
  unsigned restart_mcus = 0;
  int restart_rows = 0;
  bool optimize = false;
  bool progressive = false;
  bool arithmetic = false;
  int quality = 90;
};

// A textured picture: a crop of the shipped photograph, gray or RGB.
Image picture(int w, int h, int channels) {
  static const Image photo = imread(sample_image("hubble_deep_field.jpg"));
  Image rgb(w, h, 3, ElemType::u8);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c)
        rgb.view().row<std::uint8_t>(y)[x * 3 + c] = photo.view().row<const std::uint8_t>(
            (y * 7) % photo.height())[((x * 5) % photo.width()) * 3 + c];
  if (channels == 3) return rgb;
  Image gray(w, h, 1, ElemType::u8);
  cvt_color(rgb.view(), gray.view(), ColorCode::rgb2gray);
  return gray;
}

// libjpeg-turbo's encoder with the layout's settings, into memory.
std::string encode(const Image& img, const Layout& l) {
  jpeg_compress_struct c{};
  jpeg_error_mgr err{};
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char* out = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &out, &size);
  c.image_width = static_cast<JDIMENSION>(img.width());
  c.image_height = static_cast<JDIMENSION>(img.height());
  c.input_components = img.channels();
  c.in_color_space = img.channels() == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, l.quality, TRUE);
  c.comp_info[0].h_samp_factor = l.h0;
  c.comp_info[0].v_samp_factor = l.v0;
  c.restart_interval = l.restart_mcus;
  c.restart_in_rows = l.restart_rows;
  c.optimize_coding = l.optimize ? TRUE : FALSE;
  c.arith_code = l.arithmetic ? TRUE : FALSE;
  if (l.progressive) jpeg_simple_progression(&c);
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    auto* row =
        const_cast<JSAMPLE*>(img.view().row<const JSAMPLE>(static_cast<int>(c.next_scanline)));
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  std::string bytes(reinterpret_cast<const char*>(out), size);
  jpeg_destroy_compress(&c);
  std::free(out);
  return bytes;
}

const unsigned char* u8(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

bool scan_sound(const std::string& b) {
  return io_detail::jpeg_sound_by_scan(u8(b), b.size(), "t.jpg", ReadOptions{});
}

// What imdecode says of the bytes: "" when it decodes them strictly, else its message.
std::string decode_verdict(const std::string& b) {
  try {
    (void)imdecode(u8(b), b.size(), "t.jpg");
    return "";
  } catch (const Error& e) {
    return e.what();
  }
}

std::string check_verdict(const std::string& b) {
  try {
    return check_jpeg(u8(b), b.size(), "t.jpg");
  } catch (const Error& e) {
    return e.what();
  }
}

// Where the RSTn markers of the entropy data are (the offset of their FF).
std::vector<std::size_t> restart_markers(const std::string& j) {
  std::vector<std::size_t> at;
  for (std::size_t i = jpeg_scan_start(j); i + 1 < j.size(); ++i)
    if (static_cast<unsigned char>(j[i]) == 0xFF &&
        (static_cast<unsigned char>(j[i + 1]) & 0xF8) == 0xD0)
      at.push_back(i);
  return at;
}

const std::vector<Layout>& sequential_layouts() {
  static const std::vector<Layout> v = {
      {"gray", 1, 1, 1},
      {"420", 3, 2, 2},
      {"422", 3, 2, 1},
      {"440", 3, 1, 2},
      {"444", 3, 1, 1},
      {"420_rst1", 3, 2, 2, 1},
      {"420_rst7", 3, 2, 2, 7},
      {"gray_rst3", 1, 1, 1, 3},
      {"gray_22_rst3", 1, 2, 2, 3},  // one component sampled 2x2: an MCU is still one block
      {"422_rows", 3, 2, 1, 0, 1},
      {"420_opt", 3, 2, 2, 0, 0, true},
      {"444_opt_rst5", 3, 1, 1, 5, 0, true},
      {"420_q100", 3, 2, 2, 0, 0, false, false, false, 100},
      {"420_q20", 3, 2, 2, 0, 0, false, false, false, 20},
  };
  return v;
}

TEST(IoJpegScan, EverySequentialLayoutIsSettledAsSound) {
  const int sizes[][2] = {{1, 1}, {8, 8}, {9, 17}, {33, 15}, {160, 120}, {257, 3}, {3, 70}};
  int files = 0;
  for (const Layout& l : sequential_layouts()) {
    for (const auto& s : sizes) {
      SCOPED_TRACE(std::string(l.name) + " " + std::to_string(s[0]) + "x" + std::to_string(s[1]));
      const std::string b = encode(picture(s[0], s[1], l.channels), l);
      EXPECT_TRUE(scan_sound(b));
      EXPECT_EQ(decode_verdict(b), "");
      EXPECT_EQ(check_verdict(b), "");
      ++files;
    }
  }
  EXPECT_EQ(files, 14 * 7);
}

TEST(IoJpegScan, ProgressiveAndArithmeticFilesGoToLibjpeg) {
  for (const Layout& l : {Layout{"progressive", 3, 2, 2, 0, 0, false, true},
                          Layout{"arithmetic", 3, 2, 2, 0, 0, false, false, true},
                          Layout{"gray_progressive", 1, 1, 1, 0, 0, false, true}}) {
    SCOPED_TRACE(l.name);
    const std::string b = encode(picture(75, 41, l.channels), l);
    EXPECT_FALSE(scan_sound(b));
    EXPECT_EQ(decode_verdict(b), "");
    EXPECT_EQ(check_verdict(b), "");
  }
}

// A thread keeps the decoders of the tables it built last (8 slots, as many tables as one file
// can use). A file that finds some of its tables there and builds others must not have its
// found ones replaced by the ones it builds. Here: the standard luma tables (a gray file), three
// gray files with tables of their own (optimized), so that the standard ones are the oldest;
// then a colour file with the standard tables: found luma, built chroma.
TEST(IoJpegScan, TablesFoundAndTablesBuiltForOneFileAllStay) {
  // On a thread of its own: its cache starts empty.
  std::thread([] {
    const Layout gray{"gray", 1, 1, 1};
    const Layout color{"420", 3, 2, 2};
    ASSERT_TRUE(scan_sound(encode(picture(40, 24, 1), gray)));
    for (const int q : {25, 60, 97}) {  // other qualities: other DC and AC tables
      const Layout gray_opt{"gray_opt", 1, 1, 1, 0, 0, true, false, false, q};
      ASSERT_TRUE(scan_sound(encode(picture(64, 64, 1), gray_opt))) << q;
    }
    const std::string b = encode(picture(96, 64, 3), color);
    EXPECT_TRUE(scan_sound(b));
    EXPECT_EQ(check_verdict(b), "");
  }).join();
}

// Many files in turn on one thread, each with other tables or the same ones again (optimized
// tables are the picture's own): every one is settled as sound, as it is on a fresh thread.
TEST(IoJpegScan, ManyFilesWithDifferentTablesInTurnAreAllSound) {
  const Layout layouts[] = {{"gray", 1, 1, 1},
                            {"gray_opt", 1, 1, 1, 0, 0, true},
                            {"420", 3, 2, 2},
                            {"420_opt", 3, 2, 2, 0, 0, true},
                            {"444_opt_rst2", 3, 1, 1, 2, 0, true},
                            {"422_opt_q40", 3, 2, 1, 0, 0, true, false, false, 40}};
  std::mt19937 rng(6122026);
  int sound = 0;
  for (int i = 0; i < 240; ++i) {
    const Layout& l = layouts[rng() % std::size(layouts)];
    const int w = 8 + static_cast<int>(rng() % 90), h = 8 + static_cast<int>(rng() % 60);
    const std::string b = encode(picture(w, h, l.channels), l);
    const bool s = scan_sound(b);
    EXPECT_TRUE(s) << "file " << i << ": " << l.name << " " << w << "x" << h;
    sound += s;
  }
  EXPECT_EQ(sound, 240);
}

TEST(IoJpegScan, FillBytesBeforeMarkersAreSoundAndDataBeforeEoiIsLeftToLibjpeg) {
  const Layout l{"420_rst2", 3, 2, 2, 2};
  const std::string b = encode(picture(96, 64, 3), l);
  ASSERT_TRUE(scan_sound(b));
  const std::vector<std::size_t> rst = restart_markers(b);
  ASSERT_GE(rst.size(), 3u);
  // FF fill bytes before every RSTn and before EOI: legal, libjpeg skips them.
  std::string filled = b;
  filled.insert(filled.size() - 2, 3, static_cast<char>(0xFF));
  for (auto it = rst.rbegin(); it != rst.rend(); ++it)
    filled.insert(*it, 1, static_cast<char>(0xFF));
  EXPECT_TRUE(scan_sound(filled));
  EXPECT_EQ(decode_verdict(filled), "");
  // One byte of data after the last MCU, before EOI: libjpeg may drop it from its bit buffer
  // unread, so the scan does not settle it; check_jpeg still says what imdecode says.
  std::string extra = b;
  extra.insert(extra.size() - 2, 1, static_cast<char>(0x12));
  EXPECT_FALSE(scan_sound(extra));
  EXPECT_EQ(check_verdict(extra), decode_verdict(extra));
  // A byte left over at the end of a restart interval: libjpeg warns (extraneous data).
  std::string rst_extra = b;
  rst_extra.insert(rst[1], 1, static_cast<char>(0x55));
  EXPECT_FALSE(scan_sound(rst_extra));
  EXPECT_NE(decode_verdict(rst_extra), "");
  EXPECT_EQ(check_verdict(rst_extra), decode_verdict(rst_extra));
  // RST markers out of order: libjpeg resynchronizes with a warning.
  std::string swapped = b;
  std::swap(swapped[rst[0] + 1], swapped[rst[1] + 1]);
  EXPECT_FALSE(scan_sound(swapped));
  EXPECT_NE(decode_verdict(swapped), "");
  EXPECT_EQ(check_verdict(swapped), decode_verdict(swapped));
  // No EOI: libjpeg warns of a premature end.
  const std::string cut = b.substr(0, b.size() - 2);
  EXPECT_FALSE(scan_sound(cut));
  EXPECT_NE(decode_verdict(cut), "");
  EXPECT_EQ(check_verdict(cut), decode_verdict(cut));
}

// One damaged copy of `b`, the damage chosen by `rng` (the entropy data starts at `start`).
std::string damage(const std::string& b, std::size_t start, std::mt19937& rng) {
  std::string m = b;
  const std::size_t data_end = b.size() - 2;  // before EOI
  auto pos = [&](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi - 1)(rng);
  };
  const std::vector<std::size_t> rst = restart_markers(b);
  switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
    case 0:  // one bit flipped
    case 1: {
      const std::size_t i = pos(start, data_end);
      m[i] = static_cast<char>(m[i] ^ (1 << std::uniform_int_distribution<int>(0, 7)(rng)));
      break;
    }
    case 2:  // a byte set to FF
      m[pos(start, data_end)] = static_cast<char>(0xFF);
      break;
    case 3:  // a byte deleted
      m.erase(pos(start, data_end), 1);
      break;
    case 4:  // a byte inserted
      m.insert(pos(start, data_end + 1), 1, static_cast<char>(rng() & 0xFF));
      break;
    case 5:  // cut short
      m.resize(pos(start, b.size()));
      break;
    case 6: {  // a marker inserted: RSTn, EOI, or another
      const unsigned char codes[] = {0xD0, 0xD3, 0xD7, 0xD9, 0xE1, 0xFE, 0xC4, 0xDA};
      const std::string marker = {static_cast<char>(0xFF),
                                  static_cast<char>(codes[rng() % sizeof codes])};
      m.insert(pos(start, data_end + 1), marker);
      break;
    }
    case 7:  // an RSTn renumbered or removed (where there are some), else a bit flipped late
      if (!rst.empty()) {
        const std::size_t r = rst[rng() % rst.size()];
        if (rng() & 1)
          m[r + 1] = static_cast<char>(0xD0 | (rng() & 7));
        else
          m.erase(r, 2);
      } else {
        const std::size_t i = pos(data_end - std::min<std::size_t>(8, data_end - start), data_end);
        m[i] = static_cast<char>(m[i] ^ 0x01);
      }
      break;
    case 8: {  // a bit flipped just before an RSTn or EOI
      const std::size_t end = rst.empty() ? data_end : rst[rng() % rst.size()];
      const std::size_t i = end - 1 - (rng() % std::min<std::size_t>(3, end - start));
      m[i] = static_cast<char>(m[i] ^ (1 << (rng() % 8)));
      break;
    }
    default: {  // a run of bytes overwritten
      const std::size_t i = pos(start, data_end);
      for (std::size_t k = i; k < std::min(data_end, i + 1 + rng() % 16); ++k)
        m[k] = static_cast<char>(rng() & 0xFF);
      break;
    }
  }
  return m;
}

TEST(IoJpegScan, NoDamagedFileIsCalledSound) {
  std::mt19937 rng(20261206);
  int refused = 0, accepted = 0, settled = 0;
  for (const Layout& l : sequential_layouts()) {
    const std::string b = encode(picture(l.channels == 1 ? 61 : 80, 48, l.channels), l);
    const std::size_t start = jpeg_scan_start(b);
    ASSERT_GT(start, 0u) << l.name;
    for (int i = 0; i < 300; ++i) {
      const std::string m = damage(b, start, rng);
      const std::string strict = decode_verdict(m);
      const bool sound = scan_sound(m);
      if (strict.empty()) {
        ++accepted;
        settled += sound;
      } else {
        ++refused;
        EXPECT_FALSE(sound) << l.name << " copy " << i << ": imdecode says '" << strict
                            << "', the scan says sound";
      }
      EXPECT_EQ(check_verdict(m), strict) << l.name << " copy " << i;
    }
  }
  // The damage does damage (most copies are refused), and some copies libjpeg accepts are
  // settled by the scan too (a flipped bit that still forms valid codes).
  EXPECT_GT(refused, 14 * 300 / 2);
  EXPECT_GT(settled, 0);
  std::printf(
      "damaged copies: %d refused by imdecode, %d accepted (%d of them settled by the "
      "scan)\n",
      refused, accepted, settled);
}

}  // namespace
}  // namespace texcv::test
