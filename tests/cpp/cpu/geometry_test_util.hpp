// Helpers shared by the CPU tests of the geometric operations (test_geometry_cpu.cpp and
// test_<op>_cpu.cpp): images of listed values, and one element of a host view.
#pragma once

#include <cstddef>
#include <vector>

#include "common/test_support.hpp"

namespace texcv::geometry_cpu_test {

template <typename T>
Image image_of(int w, int h, int c, ElemType t, const std::vector<double>& values) {
  Image img(w, h, c, t);
  for (int y = 0; y < h; ++y)
    for (int i = 0; i < w * c; ++i)
      img.view().row<T>(y)[i] = static_cast<T>(values[static_cast<std::size_t>(y * w * c + i)]);
  return img;
}

template <typename T>
T at(const ImageView& v, int x, int y, int c = 0) {
  return v.row<const T>(y)[static_cast<std::size_t>(x) * v.channels + c];
}

}  // namespace texcv::geometry_cpu_test
