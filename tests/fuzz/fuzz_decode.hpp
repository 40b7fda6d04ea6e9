// The decoder targets (fuzz_png.cpp, fuzz_jpeg.cpp, fuzz_tiff.cpp): read_info and imdecode (the
// in-memory imread) on the input, strictly and with allow_corrupt, and for JPEG check_jpeg, with
// the verdicts compared as include/texcv/io.hpp promises. Only texcv::Error may come out of the
// API; anything else (std::bad_alloc, a crash, a leak) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_common.hpp"
#include "texcv/error.hpp"
#include "texcv/image.hpp"
#include "texcv/io.hpp"

namespace texcv::fuzz {

// Reads every byte of every row, so that a row the decoder claims but did not allocate is an
// ASan report here rather than later.
inline unsigned touch(const Image& img) {
  const ImageView v = img.view();
  unsigned sum = 0;
  for (int y = 0; y < v.height; ++y) {
    const auto* row = v.row<const unsigned char>(y);
    for (std::size_t i = 0; i < v.row_bytes(); ++i) sum += row[i];
  }
  return sum;
}

inline int decode_one(const std::uint8_t* data, std::size_t size, ImageFormat format) {
  if (!has_signature(data, size, format)) return -1;  // another target's format: not kept
  const std::string name = "fuzz";

  ImageInfo info;
  bool info_ok = false;
  try {
    info = read_info(data, size, name);
    info_ok = true;
  } catch (const Error&) {
  }
  if (info_ok) {
    if (info.format != format) broken("read_info: the format is not the signature's");
    if (info.width <= 0 || info.height <= 0 || info.pages < 1)
      broken("read_info: a size or page count that is not positive");
    if (info.channels != 1 && info.channels != 3 && info.channels != 4)
      broken("read_info: a channel count other than 1, 3, 4");
    if (info.pixels() > kMaxPixels) return 0;
  }

  bool capped = false;
  ReadOptions opt;
  opt.threads = 1;
  opt.allocate = [&capped](int w, int h, int c, ElemType t) {
    if (static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h) > kMaxPixels) {
      capped = true;
      throw Error(ErrorCode::InvalidArgument, "fuzz: over the pixel cap");
    }
    return Image(w, h, c, t);
  };

  bool strict_ok = false;
  std::string strict_error;
  try {
    ReadNotes notes;
    const Image img = imdecode(data, size, name, opt, &notes);
    strict_ok = true;
    (void)touch(img);
    if (!notes.corrupt.empty()) broken("imdecode: a corrupt-data note without allow_corrupt");
    if (!info_ok) broken("imdecode read what read_info refused");
    if (img.width() != info.width || img.height() != info.height ||
        img.channels() != info.channels || img.type() != info.type)
      broken("imdecode's image differs from read_info's answer");
    if (notes.pages != info.pages) broken("ReadNotes::pages differs from ImageInfo::pages");
  } catch (const Error& e) {
    strict_error = e.what();
  }
  if (capped) return 0;

  if (!strict_ok) {
    ReadOptions lax = opt;
    lax.allow_corrupt = true;
    try {
      ReadNotes notes;
      const Image img = imdecode(data, size, name, lax, &notes);
      (void)touch(img);  // (read_info may have refused it: a corrupt-data warning in the header)
    } catch (const Error&) {
    }
    if (capped) return 0;
  }

  if (format == ImageFormat::jpeg) {
    // check_jpeg's verdict is imread's: the same error message, or none.
    std::string check_error;
    try {
      (void)check_jpeg(data, size, name);
    } catch (const Error& e) {
      check_error = e.what();
    }
    if (strict_ok != check_error.empty())
      broken("check_jpeg and imdecode disagree on whether the data is sound:",
             (strict_ok ? check_error : strict_error).c_str());
    if (!strict_ok && check_error != strict_error)
      broken("check_jpeg's message differs from imdecode's:",
             (check_error + " | " + strict_error).c_str());
  }
  return 0;
}

}  // namespace texcv::fuzz
