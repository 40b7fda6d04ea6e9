// threshold's kernel launcher (Otsu's level resolved before it), one instantiation per element
// type (threshold.cu); DstArgs' width counts elements (width * channels).
#pragma once

#include <cuda_runtime.h>

#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/point.hpp"

namespace texcv::cuda::ops {

template <typename T>
void launch_threshold(const PointSrc& s, const DstArgs& d, const detail::ThresholdDesc& td,
                      cudaStream_t st);

}  // namespace texcv::cuda::ops
