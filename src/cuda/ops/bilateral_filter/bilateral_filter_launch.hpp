// Launchers of the bilateral_filter kernels, one explicit instantiation per element type
// (bilateral_filter.<type>.cu). Host code (bilateral_filter.cpp) calls them. The weight tables are
// built once on the host by src/core (nonlinear_desc.hpp) and uploaded; the kernels use them in the
// CPU backend's order (src/cpu/bilateral_filter.cpp), so the results are identical.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "src/cuda/ops/common/kernel_args.hpp"
#include "texcv/geometry.hpp"

namespace texcv::cuda::ops {

struct BilateralSrc {
  const unsigned char* data = nullptr;
  std::size_t pitch = 0;
  int width = 0, height = 0;  // pixels
};

// Device pointers to the tables: taps disc offsets (dx, dy) with their space weights, and the
// colour table (u8: indexed by the integer L1 distance; f32: interpolated, see
// detail::bilateral_f32_weight with scale and bins).
struct BilateralArgs {
  const float* space = nullptr;
  const int* dx = nullptr;
  const int* dy = nullptr;
  int taps = 0;
  int radius = 0;  // the disc's: every |dx| and |dy| is at most this
  const float* table = nullptr;
  int table_size = 0;
  float scale = 0.0f;
  int bins = 0;
  Border border = Border::reflect101;
  float value[4] = {0, 0, 0, 0};
};

// launch_bilateral runs the tiled kernel when its shared memory fits, else the disc kernel
// (bilateral_filter_kernels.cuh). TEXCV_BILATERAL_KERNEL=disc in the environment forces the disc
// kernel, for A/B measurements (bilateral_filter.cpp reads it once).
namespace bilateral {
bool force_disc_kernel();
}

template <typename T>
void launch_bilateral(const BilateralSrc& s, const DstArgs& d, int channels, const BilateralArgs& a,
                      cudaStream_t st);

// Writes the detail::float_key of the smallest and the largest finite element of an f32 image to
// out[0] and out[1] (device memory); out[0] > out[1] when no element is finite.
void launch_finite_range(const BilateralSrc& s, int channels, std::uint32_t* out, cudaStream_t st);

}  // namespace texcv::cuda::ops
