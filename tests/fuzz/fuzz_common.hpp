// What the libFuzzer targets of tests/fuzz share: the pixel cap, contract checks, signatures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "texcv/io.hpp"

namespace texcv::fuzz {

// Images whose header claims more pixels than this are not decoded (as libjpeg-turbo's OSS-Fuzz
// target skips images over 1 Mpx): a valid huge image is slow under the sanitizers, not a
// finding. It is enforced twice: on read_info's answer, and inside imdecode through
// ReadOptions::allocate, which the codecs call with the size they are about to decode. Memory
// a decoder takes for itself beyond the image (a chunk, a tile, a scan) is not capped here: a
// bomb of that kind stays a finding (RSS over -rss_limit_mb, or a timeout).
inline constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 20;

// A documented property of the API does not hold: abort, so libFuzzer keeps the input.
[[noreturn]] inline void broken(const char* what, const char* detail = "") {
  std::fprintf(stderr, "texcv fuzz: contract broken: %s %s\n", what, detail);
  std::abort();
}

// Whether data starts with the signature imdecode takes for format f.
inline bool has_signature(const std::uint8_t* d, std::size_t n, ImageFormat f) {
  switch (f) {
    case ImageFormat::png:
      return n >= 8 && d[0] == 0x89 && d[1] == 'P' && d[2] == 'N' && d[3] == 'G' && d[4] == 0x0D &&
             d[5] == 0x0A && d[6] == 0x1A && d[7] == 0x0A;
    case ImageFormat::jpeg:
      return n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF;
    case ImageFormat::tiff:
      // "II*\0", "MM\0*" and BigTIFF's "II+\0", "MM\0+".
      return n >= 4 && ((d[0] == 'I' && d[1] == 'I' && (d[2] == 42 || d[2] == 43) && d[3] == 0) ||
                        (d[0] == 'M' && d[1] == 'M' && d[2] == 0 && (d[3] == 42 || d[3] == 43)));
  }
  return false;
}

}  // namespace texcv::fuzz
