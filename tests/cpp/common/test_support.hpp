// Helpers shared by the tests: random images, poisoning, comparisons, GPU detection.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "texcv/texcv.hpp"

namespace texcv::test {

// A host image filled with uniform random values (u8: 0..255, u16: 0..65535, f32: [0, 1)),
// optionally inside a larger allocation so the view has a padded pitch and an offset.
Image random_image(int width, int height, int channels, ElemType type, std::uint32_t seed);
// A view of size w x h, channels, type inside a bigger host image (pitch padded by `pad` pixels
// and offset by (ox, oy)); `owner` keeps the storage.
ImageView padded_view(Image& owner, int width, int height, int channels, ElemType type, int pad,
                      int ox, int oy);

// Fill every byte of the view's rows (incl. padding up to row_bytes) with a poison pattern:
// 0xA5 for u8/u16, NaN for f32. Works on host and device views.
void poison(const ImageView& v);

struct Diff {
  double max_abs = 0;      // largest |a - b|
  double max_rel = 0;      // largest |a - b| / max(|b|, 1e-6) (f32)
  long count = 0;          // elements that differ at all
  long nan_or_poison = 0;  // NaN where the other side is not NaN
  int worst_x = -1, worst_y = -1, worst_c = -1;
  std::string describe() const;
};
// Element-wise comparison of two host views of the same shape.
Diff compare(const ImageView& a, const ImageView& b);

// Runs f and expects a texcv::Error with exactly this code and message.
void expect_error(const std::function<void()>& f, ErrorCode code, const std::string& message);

// Whether element (x, y, c) of a host view still holds poison()'s pattern.
bool is_poison(const ImageView& v, int x, int y, int c);

// How many elements of a poisoned host view outside `inside` no longer hold poison()'s pattern:
// what an operation writing into the sub-view `inside` wrote outside it.
long written_outside(const ImageView& whole, const Rect& inside);

// Element (x, y, channel c) of a host view, as a double.
double at(const ImageView& v, int x, int y, int c);

// Copies a device view to a new host image (host views are cloned).
Image to_host(const ImageView& v);

// True when the CUDA backend is compiled and a GPU is present; otherwise the reason.
bool gpu_available(std::string* why);

// The path of a photograph the tests read: examples/images/NAME when it ships there, else
// tests/data/images/NAME (both in the repository; nothing outside it is read).
std::string sample_image(const std::string& name);

// A fresh folder under the system temporary directory, removed with everything in it.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "texcv-test-") {
    std::random_device rd;
    for (int i = 0; i < 100; ++i) {
      auto p = std::filesystem::temp_directory_path() /
               (prefix + std::to_string(rd()) + std::to_string(rd()));
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

}  // namespace texcv::test

// Skips the current test with a message when no GPU can run it.
#define TEXCV_REQUIRE_GPU()                                \
  do {                                                     \
    std::string texcv_why_;                                \
    if (!::texcv::test::gpu_available(&texcv_why_))        \
      GTEST_SKIP() << "CUDA test skipped: " << texcv_why_; \
  } while (0)
