// Decoding into caller memory (ReadOptions::allocate): every codec decodes straight into the
// image the allocator returns (the caller's buffer, with a pitch larger than a row), called
// exactly once with the decoded shape; the pixels are imread's; an unusable result is
// Error(InvalidArgument) naming what was returned and what was expected.
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/io_test_util.hpp"

namespace texcv::test {
namespace {

const std::string kData = std::string(TEXCV_TEST_DATA) + "/io/";

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// A caller's pool in miniature: one buffer per call, rows `pad` bytes longer than needed and
// the first row `offset` bytes in, every byte 0xA5 to begin with; records each call.
struct PaddedAllocator {
  std::size_t pad = 64, offset = 16;
  int calls = 0;
  int width = 0, height = 0, channels = 0;
  ElemType type = ElemType::u8;
  std::shared_ptr<std::vector<unsigned char>> buffer;
  ImageView given{};

  std::function<Image(int, int, int, ElemType)> fn() {
    return [this](int w, int h, int c, ElemType t) {
      ++calls;
      width = w;
      height = h;
      channels = c;
      type = t;
      const std::size_t row =
          static_cast<std::size_t>(w) * static_cast<std::size_t>(c) * elem_size(t);
      const std::size_t pitch = row + pad;
      buffer = std::make_shared<std::vector<unsigned char>>(
          offset + pitch * static_cast<std::size_t>(h) + pad, 0xA5);
      given = ImageView{buffer->data() + offset, w, h, c, t, pitch, Location::host};
      return Image::adopt(given, buffer);
    };
  }
  // Every byte outside the image's rows (the offset, each row's padding, the tail) is still
  // 0xA5: the decoder wrote the rows and nothing else.
  long touched_outside() const {
    const std::size_t row = given.row_bytes();
    long n = 0;
    for (std::size_t i = 0; i < buffer->size(); ++i) {
      const bool in_row = i >= offset &&
                          i - offset < given.pitch * static_cast<std::size_t>(height) &&
                          (i - offset) % given.pitch < row;
      if (!in_row && (*buffer)[i] != 0xA5) ++n;
    }
    return n;
  }
};

std::vector<std::string> decodable_files() {
  std::vector<std::string> files = {sample_image("camera.png"), sample_image("chelsea.png"),
                                    sample_image("rocket.jpg"),
                                    sample_image("hubble_deep_field.jpg")};
  for (const char* f : {"ga16.png", "gray1.png", "pal4_trns.png", "rgb16_adam7.png"})
    files.push_back(kData + f);
#if defined(TEXCV_HAS_TIFF)
  files.push_back(sample_image("chessboard_GRAY_U16.tif"));
  for (const char* f :
       {"strip_ga8.tif", "strip_gray16_be.tif", "tiled_gray_f32.tif", "tiled_rgb16.tif"})
    files.push_back(kData + f);
#endif
  return files;
}

TEST(IoAllocate, EveryCodecDecodesIntoTheCallersPaddedBuffer) {
  std::vector<std::string> files = decodable_files();
#if defined(TEXCV_HAS_TIFF)
  // TIFFs texcv writes: several strips, uncompressed and deflate, u8 and u16, 1/3/4 channels.
  TempDir dir;
  int k = 0;
  for (const TiffCompression c : {TiffCompression::none, TiffCompression::deflate}) {
    for (const int ch : {1, 3, 4}) {
      // Appended, not "w" + ...: GCC 12 warns (-Wrestrict, a false positive) on that form.
      std::string name = "w";
      name += std::to_string(k++);
      name += ".tif";
      const std::string p = dir.file(name);
      WriteOptions o;
      o.tiff_compression = c;
      imwrite(p, random_image(300, 250, ch, ch == 3 ? ElemType::u8 : ElemType::u16, 60 + k).view(),
              o);
      files.push_back(p);
    }
  }
#endif
  for (const std::string& p : files) {
    SCOPED_TRACE(p);
    const Image ref = imread(p);
    for (const bool memory : {false, true}) {
      SCOPED_TRACE(memory ? "imdecode" : "imread");
      PaddedAllocator a;
      ReadOptions opt;
      opt.allocate = a.fn();
      const std::string bytes = memory ? read_bytes(p) : std::string();
      const Image img = memory ? imdecode(reinterpret_cast<const unsigned char*>(bytes.data()),
                                          bytes.size(), p, opt)
                               : imread(p, opt);
      EXPECT_EQ(a.calls, 1);
      EXPECT_EQ(a.width, ref.width());
      EXPECT_EQ(a.height, ref.height());
      EXPECT_EQ(a.channels, ref.channels());
      EXPECT_EQ(a.type, ref.type());
      // The very image the allocator gave: same memory, same pitch (no copy).
      EXPECT_EQ(img.data(), a.given.data);
      EXPECT_EQ(img.pitch(), a.given.pitch);
      EXPECT_GT(img.pitch(), img.view().row_bytes());
      expect_same_pixels(img.view(), ref.view());
      EXPECT_EQ(a.touched_outside(), 0);
    }
  }
}

TEST(IoAllocate, CorruptDataAllowedDecodesIntoTheBufferToo) {
  // A JPEG cut in half: allow_corrupt decodes what libjpeg recovers into the caller's buffer.
  TempDir dir;
  const std::string p = dir.file("cut.jpg");
  {
    const std::string b = read_bytes(sample_image("rocket.jpg"));
    std::ofstream f(p, std::ios::binary);
    f.write(b.data(), static_cast<std::streamsize>(b.size() / 2));
  }
  PaddedAllocator a;
  ReadOptions opt;
  opt.allow_corrupt = true;
  opt.allocate = a.fn();
  ReadNotes notes, ref_notes;
  const Image img = imread(p, opt, &notes);
  const Image ref = imread(p, ReadOptions{.allow_corrupt = true}, &ref_notes);
  EXPECT_EQ(a.calls, 1);
  EXPECT_EQ(notes.corrupt, ref_notes.corrupt);
  EXPECT_FALSE(notes.corrupt.empty());
  expect_same_pixels(img.view(), ref.view());
  // Without allow_corrupt it fails as imread does, after the one call.
  PaddedAllocator b;
  ReadOptions strict;
  strict.allocate = b.fn();
  expect_error([&] { imread(p, strict); }, ErrorCode::Io, {"imread: " + p + ": Corrupt JPEG data"});
  EXPECT_EQ(b.calls, 1);
}

TEST(IoAllocate, NotCalledWhenTheHeaderFails) {
  int calls = 0;
  ReadOptions opt;
  opt.allocate = [&](int w, int h, int c, ElemType t) {
    ++calls;
    return Image(w, h, c, t);
  };
  const std::string cmyk = kData + "cmyk.jpg";
  expect_error([&] { imread(cmyk, opt); }, ErrorCode::Unsupported, {"CMYK/YCCK"});
  EXPECT_EQ(calls, 0);
}

TEST(IoAllocate, AnUnusableImageIsInvalidArgument) {
  const std::string p = sample_image("coffee.png");  // 600x400x3 u8
  const std::string want = "expected a host image 600x400x3 u8 (pitch >= 1800)";
  const std::string head =
      "imread: " + p + ": ReadOptions::allocate returned an image the decoder cannot use; got ";
  auto read_with = [&](std::function<Image(int, int, int, ElemType)> f) {
    ReadOptions opt;
    opt.allocate = std::move(f);
    imread(p, opt);
  };
  int calls = 0;
  expect_error(
      [&] {
        read_with([&](int w, int h, int c, ElemType t) {
          ++calls;
          return Image(w + 1, h, c, t);
        });
      },
      ErrorCode::InvalidArgument,
      head + Image(601, 400, 3, ElemType::u8).view().describe() + ", " + want);
  EXPECT_EQ(calls, 1);
  expect_error([&] { read_with([](int w, int h, int, ElemType t) { return Image(w, h, 4, t); }); },
               ErrorCode::InvalidArgument,
               head + Image(600, 400, 4, ElemType::u8).view().describe() + ", " + want);
  expect_error(
      [&] {
        read_with([](int w, int h, int c, ElemType) { return Image(w, h, c, ElemType::u16); });
      },
      ErrorCode::InvalidArgument,
      head + Image(600, 400, 3, ElemType::u16).view().describe() + ", " + want);
  // A pitch shorter than a row cannot be made through Image::adopt (it validates views), so the
  // shape is all a caller can get wrong on the host.
  expect_error([&] { read_with([](int, int, int, ElemType) { return Image(); }); },
               ErrorCode::InvalidArgument, head + "an empty image, " + want);
  // Device memory (a view marked device over host bytes: only its location is looked at).
  auto bytes = std::make_shared<std::vector<unsigned char>>(1800 * 400);
  expect_error(
      [&] {
        read_with([&](int w, int h, int c, ElemType t) {
          return Image::adopt(ImageView{bytes->data(), w, h, c, t, 1800, Location::device}, bytes);
        });
      },
      ErrorCode::InvalidArgument, head + "600x400x3 u8 device (pitch 1800), " + want);
  // The same check from memory, for each codec; the name in the message.
  const std::string jpg = read_bytes(sample_image("rocket.jpg"));
  ReadOptions opt;
  opt.allocate = [](int w, int h, int c, ElemType t) { return Image(w, h - 1, c, t); };
  expect_error(
      [&] {
        imdecode(reinterpret_cast<const unsigned char*>(jpg.data()), jpg.size(), "rocket", opt);
      },
      ErrorCode::InvalidArgument,
      {"imread: rocket: ReadOptions::allocate returned an image the decoder cannot use; got ",
       "expected a host image "});
#if defined(TEXCV_HAS_TIFF)
  const std::string tif = read_bytes(sample_image("chessboard_GRAY_U16.tif"));
  expect_error(
      [&] {
        imdecode(reinterpret_cast<const unsigned char*>(tif.data()), tif.size(), "board", opt);
      },
      ErrorCode::InvalidArgument,
      {"imread: board: ReadOptions::allocate returned an image the decoder cannot use; got ",
       " u16 host ", "expected a host image "});
#endif
}

TEST(IoAllocate, WhatTheAllocatorThrowsGoesThrough) {
  ReadOptions opt;
  opt.allocate = [](int, int, int, ElemType) -> Image { throw std::runtime_error("pool empty"); };
  try {
    imread(sample_image("camera.png"), opt);
    ADD_FAILURE() << "nothing thrown";
  } catch (const Error& e) {
    ADD_FAILURE() << "a texcv::Error instead of the allocator's: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "pool empty");
  }
}

}  // namespace
}  // namespace texcv::test
