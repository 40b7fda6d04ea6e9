// Launchers of the resize kernels, one explicit instantiation per element type and channel
// count (resize.<type>.cu). Host code (resize.cpp) calls them.
#pragma once

#include <cuda_runtime.h>

#include "src/cuda/ops/common/kernel_args.hpp"

namespace texcv::cuda::ops {

// Whether TEXCV_RESIZE_HALF=0 is in the environment (read once; an A/B aid): the exact half-size
// kernels (linear, area and cubic) then stay off and the general kernels run (resize.cpp).
bool resize_half_off();

// Launches on stream the kernel for s.path (global, texture or texture_filter) and checks it.
template <typename T, int C>
void launch_resize(const SourceArgs& s, const DstArgs& d, const ResizeArgs& a, cudaStream_t stream);

}  // namespace texcv::cuda::ops
