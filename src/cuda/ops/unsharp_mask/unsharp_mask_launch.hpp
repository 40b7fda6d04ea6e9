// unsharp_mask's pointwise step (unsharp_mask.cu); widths in elements (pixels * channels).
#pragma once

#include <cuda_runtime.h>

#include "src/cuda/ops/filter/filter_launch.hpp"

namespace texcv::cuda::ops {

template <typename T>
void launch_unsharp(const FilterSrc& s, const FilterSrc& blur, const DstArgs& d, float amount,
                    float threshold, cudaStream_t st);

}  // namespace texcv::cuda::ops
