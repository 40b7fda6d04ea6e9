// Helpers shared by the CPU tests of erode, dilate and morphology (test_<op>_cpu.cpp): small
// u8 images of listed values, an image's values, and a 3x1 rectangle run on the row 5 3 8 1 7.
#pragma once

#include <cstdint>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/morphology.hpp"

namespace texcv::morphology_cpu_test {

// A w x h 1-channel u8 image from row-major values.
inline Image u8_image(int w, int h, const std::vector<int>& v) {
  Image img(w, h, 1, ElemType::u8);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img.view().row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v[y * w + x]);
  return img;
}

inline std::vector<int> values(const ImageView& v) {
  std::vector<int> out;
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width * v.channels; ++x)
      out.push_back(static_cast<int>(test::at(v, x / v.channels, y, x % v.channels)));
  return out;
}

inline MorphParams row3() {
  MorphParams p;
  p.ksize_x = 3;
  p.ksize_y = 1;
  return p;
}

inline std::vector<int> run(MorphOp op, const MorphParams& p) {
  const Image src = u8_image(5, 1, {5, 3, 8, 1, 7});
  Image dst(5, 1, 1, ElemType::u8);
  test::poison(dst.view());
  morphology(src, dst, op, p);
  return values(dst.view());
}

}  // namespace texcv::morphology_cpu_test
