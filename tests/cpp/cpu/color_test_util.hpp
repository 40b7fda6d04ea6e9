// Helpers shared by the CPU tests of the colour and intensity operations
// (test_<op>_cpu.cpp): images made of listed values, an image's values, and images holding
// every level of u8 / u16 for the element-by-element checks against float64 definitions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/test_support.hpp"

namespace texcv::color_cpu_test {

// A w x h image of type t whose elements are `vals` (row-major, interleaved).
inline Image make(int w, int h, int ch, ElemType t, const std::vector<double>& vals) {
  Image img(w, h, ch, t);
  const ImageView& v = img.view();
  for (int y = 0; y < h; ++y)
    for (int i = 0; i < w * ch; ++i) {
      const double x = vals[static_cast<std::size_t>(y) * w * ch + i];
      if (t == ElemType::u8) v.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(x);
      if (t == ElemType::u16) v.row<std::uint16_t>(y)[i] = static_cast<std::uint16_t>(x);
      if (t == ElemType::f32) v.row<float>(y)[i] = static_cast<float>(x);
    }
  return img;
}

inline std::vector<double> values(const ImageView& v) {
  std::vector<double> out;
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x)
      for (int c = 0; c < v.channels; ++c) out.push_back(test::at(v, x, y, c));
  return out;
}

using V = std::vector<double>;

using Hist = std::vector<std::vector<std::uint64_t>>;

inline double type_max(ElemType t) {
  return t == ElemType::u8 ? 255.0 : 65535.0;
}

inline void set(const ImageView& v, int x, int y, int c, double value) {
  const int i = x * v.channels + c;
  if (v.type == ElemType::u8) v.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(value);
  if (v.type == ElemType::u16) v.row<std::uint16_t>(y)[i] = static_cast<std::uint16_t>(value);
  if (v.type == ElemType::f32) v.row<float>(y)[i] = static_cast<float>(value);
}

// The elements of a u8 or u16 view, row by row.
inline std::vector<double> elements(const ImageView& v) {
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(v.width) * v.height * v.channels);
  for (int y = 0; y < v.height; ++y)
    for (int i = 0; i < v.width * v.channels; ++i)
      out.push_back(v.type == ElemType::u8 ? v.row<const std::uint8_t>(y)[i]
                                           : v.row<const std::uint16_t>(y)[i]);
  return out;
}

// Every level in every channel, channel c shifted by 97 c levels: u8 263 x 131 (each level at
// many positions of a row), u16 256 x 256 (each level once per channel).
inline Image every_level(ElemType t, int channels) {
  const bool u8 = t == ElemType::u8;
  const int w = u8 ? 263 : 256, h = u8 ? 131 : 256;
  const long levels = u8 ? 256 : 65536;
  Image img(w, h, channels, t);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < channels; ++c)
        set(img.view(), x, y, c, static_cast<double>((x + 7L * y + 97L * c) % levels));
  return img;
}

}  // namespace texcv::color_cpu_test
