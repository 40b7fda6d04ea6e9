// Helpers shared by the CPU tests of the filters (test_<op>_cpu.cpp of the linear filters,
// median_blur and bilateral_filter): images made of listed values, and an image's values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/test_support.hpp"

namespace texcv::filter_cpu_test {

// A w x h image of type t with ch channels (default 1) whose elements are v (row-major,
// interleaved).
inline Image make(int w, int h, ElemType t, const std::vector<double>& v, int ch = 1) {
  Image img(w, h, ch, t);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w * ch; ++x) {
      const double e = v[static_cast<std::size_t>(y * w * ch + x)];
      if (t == ElemType::u8) img.view().row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(e);
      if (t == ElemType::u16) img.view().row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(e);
      if (t == ElemType::f32) img.view().row<float>(y)[x] = static_cast<float>(e);
    }
  return img;
}

// The elements of a host view, pixel by pixel.
inline std::vector<double> values(const ImageView& v) {
  std::vector<double> out;
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x)
      for (int c = 0; c < v.channels; ++c) out.push_back(test::at(v, x, y, c));
  return out;
}

// As make(), with the channel count before the type.
inline Image from_values(int w, int h, int ch, ElemType t, const std::vector<double>& v) {
  Image img(w, h, ch, t);
  const ImageView iv = img.view();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w * ch; ++x) {
      const double d = v[static_cast<std::size_t>(y * w * ch + x)];
      if (t == ElemType::u8) iv.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(d);
      if (t == ElemType::u16) iv.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(d);
      if (t == ElemType::f32) iv.row<float>(y)[x] = static_cast<float>(d);
    }
  return img;
}

}  // namespace texcv::filter_cpu_test
