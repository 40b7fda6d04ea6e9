// Launchers of the resize kernels, one explicit instantiation per element type and channel
// count (resize.<type>.cu). Host code (resize.cpp) calls them.
#pragma once

#include <cuda_runtime.h>

#include "src/cuda/ops/common/kernel_args.hpp"

namespace texcv::cuda::ops {

// Whether TEXCV_RESIZE_HALF=0 is in the environment (read once; an A/B aid): the exact half-size
// kernels (linear, area and cubic) then stay off and the general kernels run (resize.cpp).
bool resize_half_off();
// The half-size cubic kernel's output rows a thread (4, 8 or 16) and the double-size kernel's
// source rows a thread (1 to 64): tuning::Resize's, or TEXCV_RESIZE_HALF_CUBIC_ROWS and
// TEXCV_RESIZE_DOUBLE_ROWS from the environment (read once; A/B aids; resize.cpp).
int resize_half_cubic_rows();
int resize_double_rows();

// Launches on stream the kernel for s.path (global, texture or texture_filter) and checks it.
template <typename T, int C>
void launch_resize(const SourceArgs& s, const DstArgs& d, const ResizeArgs& a, cudaStream_t stream);

}  // namespace texcv::cuda::ops
