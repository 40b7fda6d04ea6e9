// Helpers shared by the tests: random images, poisoning, comparisons, GPU detection.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

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

// Element (x, y, channel c) of a host view, as a double.
double at(const ImageView& v, int x, int y, int c);

// Copies a device view to a new host image (host views are cloned).
Image to_host(const ImageView& v);

// True when the CUDA backend is compiled and a GPU is present; otherwise the reason.
bool gpu_available(std::string* why);

}  // namespace texcv::test

// Skips the current test with a message when no GPU can run it.
#define TEXCV_REQUIRE_GPU()                                \
  do {                                                     \
    std::string texcv_why_;                                \
    if (!::texcv::test::gpu_available(&texcv_why_))        \
      GTEST_SKIP() << "CUDA test skipped: " << texcv_why_; \
  } while (0)
