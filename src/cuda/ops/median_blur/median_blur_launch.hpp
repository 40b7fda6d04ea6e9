// Launchers of the median_blur kernels, one explicit instantiation per element type
// (median_blur.<type>.cu). Host code (median_blur.cpp) calls them. The kernels select by
// detail::float_key order for f32 (src/core/nonlinear_desc.hpp), as the CPU backend does, so the
// results are identical element for element.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "src/cuda/ops/common/kernel_args.hpp"

namespace texcv::cuda::ops {

// A pitched device image read by the median kernels.
struct MedianSrc {
  const unsigned char* data = nullptr;
  std::size_t pitch = 0;
  int width = 0, height = 0;  // pixels
};

// dst (same size and type as s) = the median of each ksize x ksize window (odd ksize >= 3),
// replicated border. ksize 3, 5 and 7 run the shared-tile selection networks; larger windows the
// bitwise (radix) selection.
template <typename T>
void launch_median(const MedianSrc& s, const DstArgs& d, int channels, int ksize, cudaStream_t st);

}  // namespace texcv::cuda::ops
