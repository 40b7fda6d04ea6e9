// Launchers of the flip kernel, one explicit instantiation per element type and channel count
// (flip.<type>.cu). Host code (flip.cpp) calls them.
#pragma once

#include <cuda_runtime.h>

#include "src/cuda/ops/common/kernel_args.hpp"

namespace texcv::cuda::ops {

template <typename T, int C>
void launch_flip(const FlipArgs& a, const DstArgs& d, cudaStream_t stream);

}  // namespace texcv::cuda::ops
