// Launchers of the warp kernels (affine and perspective), one explicit instantiation per element
// type and channel count (warp.<type>.cu). Host code (warp.cpp) calls them.
#pragma once

#include <cuda_runtime.h>

#include "src/cuda/ops/common/kernel_args.hpp"

namespace texcv::cuda::ops {

template <typename T, int C>
void launch_warp(const SourceArgs& s, const DstArgs& d, const WarpArgs& a, cudaStream_t stream);

}  // namespace texcv::cuda::ops
