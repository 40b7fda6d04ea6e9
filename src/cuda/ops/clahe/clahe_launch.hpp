// clahe's kernel launchers (clahe_kernels.cuh), one explicit instantiation per element type
// (clahe.<type>.cu). The source is read as the reductions read it (hist_launch.hpp's ReduceSrc).
#pragma once

#include <cuda_runtime.h>

#include "src/cuda/ops/common/kernel_args.hpp"
#include "src/cuda/ops/common/point.hpp"
#include "src/cuda/ops/hist/hist_launch.hpp"

namespace texcv::cuda::ops {

// clahe (u8: 256 bins, u16: 65536), with the constants of detail::clahe_geometry.
struct ClaheArgs {
  int width = 0, height = 0, tiles_x = 1, tiles_y = 1;
  int tw = 1, th = 1, tile_total = 1, clip = 0;
  float lut_scale = 0, inv_tw = 0, inv_th = 0;
};
// Per-tile histograms over the extended image (reflect101 beyond the right and bottom edges) into
// hist[tile * bins + v] (int, zeroed by the caller).
template <typename T>
void launch_clahe_hist(const ReduceSrc& s, const ClaheArgs& a, int* hist, cudaStream_t st);
// Per tile: clip, redistribute and accumulate the histogram into the table luts[tile * bins + v].
template <typename T>
void launch_clahe_lut(const ClaheArgs& a, const int* hist, T* luts, cudaStream_t st);
// Every pixel: the bilinear blend of the tables of the four nearest tile centres.
template <typename T>
void launch_clahe_apply(const PointSrc& s, const DstArgs& d, const ClaheArgs& a, const T* luts,
                        cudaStream_t st);

}  // namespace texcv::cuda::ops
