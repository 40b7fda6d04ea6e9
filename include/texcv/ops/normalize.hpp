// normalize (src/core/ops/normalize.cpp), an intensity operation: texcv/color.hpp has what the
// colour and intensity operations share (views, backends, supported types).
#pragma once

#include <cstdint>
#include <string_view>

#include "texcv/image.hpp"

namespace texcv {

enum class NormalizeMode : std::uint8_t { minmax, mean_std };
const char* to_string(NormalizeMode v) noexcept;
NormalizeMode parse_normalize_mode(std::string_view s);
struct NormalizeParams {
  NormalizeMode mode = NormalizeMode::minmax;
  // minmax: as cv::normalize(NORM_MINMAX): the smallest and largest element over all channels
  // map to min(alpha, beta) and max(alpha, beta).
  double alpha = 0.0, beta = 1.0;
  // mean_std: each channel c becomes (in - mean_c) / std_c * std + mean (population std; a
  // channel with std_c = 0 becomes mean).
  double mean = 0.0, std = 1.0;
};
void normalize(const ImageView& src, const ImageView& dst, const NormalizeParams& p = {},
               void* stream = nullptr);

}  // namespace texcv
