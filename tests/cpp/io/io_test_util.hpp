// Helpers of the codec tests: a fresh temporary folder, PSNR, bitwise pixel equality,
// expected-error assertions.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "common/test_support.hpp"

namespace texcv::test {

// Bitwise equality of the pixels, row by row (any pitch; f32 included: NaN-free data, -0.0 and
// denormals must survive).
inline void expect_same_pixels(const ImageView& a, const ImageView& b) {
  ASSERT_EQ(a.width, b.width);
  ASSERT_EQ(a.height, b.height);
  ASSERT_EQ(a.channels, b.channels);
  ASSERT_EQ(a.type, b.type);
  for (int y = 0; y < a.height; ++y)
    ASSERT_EQ(std::memcmp(a.row<const void>(y), b.row<const void>(y), a.row_bytes()), 0)
        << "row " << y << " differs; " << compare(a, b).describe();
}

// Peak signal-to-noise ratio of two u8 images of one shape, in dB (infinity when equal).
inline double psnr_u8(const ImageView& a, const ImageView& b) {
  double se = 0;
  long n = 0;
  for (int y = 0; y < a.height; ++y) {
    const auto* pa = a.row<const std::uint8_t>(y);
    const auto* pb = b.row<const std::uint8_t>(y);
    for (int i = 0; i < a.width * a.channels; ++i, ++n) {
      const double d = double(pa[i]) - double(pb[i]);
      se += d * d;
    }
  }
  if (se == 0) return INFINITY;
  return 10.0 * std::log10(255.0 * 255.0 / (se / double(n)));
}

// Runs f, expects texcv::Error with `code` and a message containing every piece of `parts`.
inline void expect_error(const std::function<void()>& f, ErrorCode code,
                         std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "expected texcv::Error(" << to_string(code) << "), nothing was thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << "code " << to_string(e.code()) << ", message: " << e.what();
    const std::string msg = e.what();
    for (const auto& p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "message lacks '" << p << "': " << msg;
  }
}

// The offset of a JPEG file's first entropy-coded byte: the byte after its first SOS segment (0
// when the markers before it are not well formed).
inline std::size_t jpeg_scan_start(const std::string& j) {
  std::size_t i = 2;
  while (i + 4 <= j.size()) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(j[k]); };
    if (b(i) != 0xFF) return 0;
    const std::size_t len = b(i + 2) * 256u + b(i + 3);
    if (b(i + 1) == 0xDA) return i + 2 + len;
    i += 2 + len;
  }
  return 0;
}

}  // namespace texcv::test
