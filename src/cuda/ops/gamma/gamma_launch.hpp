// gamma's kernel launchers (gamma.cu): u8 through a 256-entry table passed by value (lut_u8.cu),
// u16 through a 65536-entry table in device memory, f32 computed per element. DstArgs' width
// counts elements (width * channels).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "src/cuda/ops/common/point.hpp"

namespace texcv::cuda::ops {

void launch_gamma_u16(const PointSrc& s, const DstArgs& d, const std::uint16_t* lut,
                      cudaStream_t st);
void launch_gamma_f32(const PointSrc& s, const DstArgs& d, float g, cudaStream_t st);

}  // namespace texcv::cuda::ops
