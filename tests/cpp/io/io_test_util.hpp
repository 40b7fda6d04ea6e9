// Helpers of the codec tests: a fresh temporary folder, PSNR, expected-error assertions.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "common/test_support.hpp"

namespace texcv::test {

// A fresh folder under the system temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    for (int i = 0; i < 100; ++i) {
      auto p = std::filesystem::temp_directory_path() /
               ("texcv-io-test-" + std::to_string(rd()) + std::to_string(rd()));
      if (std::filesystem::create_directory(p)) {
        path_ = p;
        return;
      }
    }
    throw std::runtime_error("TempDir: cannot create a temporary folder");
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Names of everything in the folder (to prove no temporary file is left behind).
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path_))
      out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::filesystem::path path_;
};

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

}  // namespace texcv::test
