// histogram (src/core/ops/histogram.cpp), an intensity operation: texcv/color.hpp has what the
// colour and intensity operations share (views, backends, supported types).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "texcv/image.hpp"

namespace texcv {

// histogram: per-channel counts of `bins` equal bins over [range[0], range[1]) (as cv::calcHist,
// uniform): element v counts in bin floor(v * a + b), a = bins / (hi - lo), b = -lo * a (double),
// when that is in [0, bins). bins in 1 .. 2^24, lo < hi, both finite. A device src is counted on
// the GPU on `stream`, and the counts are copied back (the call synchronizes the stream).
std::vector<std::vector<std::uint64_t>> histogram(const ImageView& src, int bins,
                                                  std::array<double, 2> range,
                                                  void* stream = nullptr);

}  // namespace texcv
