// threshold (src/core/ops/threshold.cpp), an intensity operation: texcv/color.hpp has what the
// colour and intensity operations share (views, backends, supported types).
#pragma once

#include <cstdint>
#include <string_view>

#include "texcv/image.hpp"

namespace texcv {

enum class ThresholdType : std::uint8_t { binary, binary_inv, trunc, tozero, tozero_inv, otsu };
const char* to_string(ThresholdType v) noexcept;
ThresholdType parse_threshold_type(std::string_view s);
// threshold: as cv::threshold, per element. otsu = binary with Otsu's threshold (u8 1-channel;
// thresh is ignored). Returns the threshold used, as OpenCV: floor(thresh) for u8/u16, thresh
// itself for f32 (compared in float), Otsu's level for otsu.
double threshold(const ImageView& src, const ImageView& dst, double thresh, double maxval,
                 ThresholdType type, void* stream = nullptr);

}  // namespace texcv
