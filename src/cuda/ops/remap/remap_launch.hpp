// Launchers of the remap kernels, one explicit instantiation per element type and channel count
// (remap.<type>.cu). Host code (remap.cpp) calls them.
#pragma once

#include <cuda_runtime.h>

#include "src/cuda/ops/common/kernel_args.hpp"

namespace texcv::cuda::ops {

template <typename T, int C>
void launch_remap(const SourceArgs& s, const DstArgs& d, const RemapArgs& a, cudaStream_t stream);

}  // namespace texcv::cuda::ops
